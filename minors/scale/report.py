"""What `minors simulate` reports from its campaigns, each figure with its 95 % interval;
with a second set of rules, the paired differences (docs/scale.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen

from ..domain import Status
from ..domain.clock import Moment
from ..errors import ScaleInputError
from ..ruleset.tables import Ruleset
from .runner import Runner
from .simulate import INACTIVE, STATUSES, CampaignResult, Campaigns, run_campaigns, season_label
from .stats import CONFIDENCE, holm, mean_interval, paired_p, wilson

__all__ = ["Side", "difference_cells", "differences", "shown", "simulate", "summary"]

NEVER = "never"
NONE = "none"
OUT = "not in play"


@frozen
class Side:
    """One set of rules and the campaigns played under it."""

    label: str
    spec: Campaigns
    results: tuple[CampaignResult, ...]

    @property
    def rs(self) -> Ruleset:
        """The tables this side played under."""
        return self.spec.root.ruleset


def _seasons(side: Side) -> list[str]:
    """The labels of the seasons recorded: each ended before the horizon, then the horizon's."""
    root, horizon = side.spec.root.clock, side.spec.horizon
    labels = [season_label(Moment.turn_start(t)) for t in range(root.turn, horizon.turn)]
    return [*labels, f"{season_label(horizon)} (horizon)"]


def _active(side: Side, results: Sequence[CampaignResult]) -> list[int]:
    """The minors (their positions) in play in some season of some campaign."""
    count = len(side.rs.minors)
    return [
        i
        for i in range(count)
        if any(season[i][0] != INACTIVE for r in results for season in r.seasons)
    ]


def _outcome_status(r: CampaignResult, i: int, season: int = -1) -> str:
    code = r.seasons[season][i][0]
    return OUT if code == INACTIVE else STATUSES[code].value


def _outcome_major(r: CampaignResult, i: int, majors: Sequence[str], season: int = -1) -> str:
    code = r.seasons[season][i][1]
    return NONE if code < 0 else majors[code]


def summary(side: Side, leave_out: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The report of one side as JSON-ready data: its figures over the campaigns that
    reached the horizon (and are not in `leave_out`: the other side's failures); those that
    stopped on an error are listed under `errors`."""
    rs = side.rs
    stopped = [r for r in side.results if r.error]
    results = tuple(r for r in side.results if not r.error and r.index not in leave_out)
    n = len(results)
    minors, majors = list(rs.minors), list(rs.majors)
    labels = _seasons(side)
    out_minors: dict[str, Any] = {}
    for i in _active(side, results):
        status_end = Counter(_outcome_status(r, i) for r in results)
        major_end = Counter(_outcome_major(r, i, majors) for r in results)
        examples = {_outcome_status(r, i): r.index for r in reversed(results)}  # the first
        per_season: dict[str, Any] = {}
        for s, label in enumerate(labels):
            statuses = Counter(_outcome_status(r, i, s) for r in results)
            tied = Counter(_outcome_major(r, i, majors, s) for r in results)
            statuses.pop(OUT, None)
            per_season[label] = {"status": dict(sorted(statuses.items())), "major": dict(tied)}
        attacked = sum(1 for r in results if r.first_attack[i] is not None)
        conquered = sum(1 for r in results if r.conquest[i] is not None)
        out_minors[minors[i]] = {
            "at_horizon": {
                "status": {k: wilson(v, n).to_json() for k, v in sorted(status_end.items())},
                "major": {k: wilson(v, n).to_json() for k, v in sorted(major_end.items())},
            },
            "examples": dict(sorted(examples.items())),
            "attacked": wilson(attacked, n).to_json(),
            "first_attack": _dates(r.first_attack[i] for r in results),
            "conquered": wilson(conquered, n).to_json(),
            "conquest": _dates(r.conquest[i] for r in results),
            "seasons": per_season,
        }
    brps = {
        major: {
            "at_horizon": mean_interval([r.brps[-1][j] for r in results]).to_json(),
            "seasons": {
                label: mean_interval([r.brps[s][j] for r in results]).to_json()
                for s, label in enumerate(labels)
            },
        }
        for j, major in enumerate(majors)
    }
    counts = [dict(r.clauses) for r in results]
    rules = sorted({rule for c in counts for rule in c})
    clauses = {
        rule: {
            "per_campaign": mean_interval([c.get(rule, 0) for c in counts]).to_json(),
            "campaigns": wilson(sum(1 for c in counts if rule in c), n).to_json(),
        }
        for rule in rules
    }
    spec = side.spec
    return {
        "label": side.label,
        "campaigns": len(side.results),
        "completed": n,
        "errors": [{"campaign": r.index, "seed": r.seed, "error": r.error} for r in stopped],
        "seed": spec.seed,
        "start": str(spec.root.clock),
        "horizon": str(spec.horizon),
        "policy": spec.policy,
        "confidence": CONFIDENCE,
        "rules": {
            "tables": rs.digest,
            "overlays": [str(s) for s in rs.sources],
            "rulebook": spec.root.rulebook.name,
        },
        "seasons": labels,
        "commands": mean_interval([r.commands for r in results]).to_json(),
        "minors": out_minors,
        "brps": brps,
        "clauses": clauses,
    }


def _dates(values: Any) -> dict[str, int]:
    """How many campaigns have each date (a season, in calendar order), then `never`."""
    counted = Counter(NEVER if v is None else season_label(Moment(v)) for v in values)
    order = sorted(
        (k for k in counted if k != NEVER), key=lambda k: Moment.parse(f"{k}/axis/diplomacy")
    )
    return {k: counted[k] for k in [*order, *([NEVER] if NEVER in counted else [])]}


Measure = Callable[[CampaignResult], float]


def _status_is(i: int, status: str) -> Measure:
    return lambda r: float(_outcome_status(r, i) == status)


def _attacked(i: int) -> Measure:
    return lambda r: float(r.first_attack[i] is not None)


def _conquered(i: int) -> Measure:
    return lambda r: float(r.conquest[i] is not None)


def _credits(j: int) -> Measure:
    return lambda r: float(r.brps[-1][j])


def _fired(rule: str) -> Measure:
    return lambda r: float(dict(r.clauses).get(rule, 0))


def _measures(
    base: Side, mine: Sequence[CampaignResult], versus: Side, theirs: Sequence[CampaignResult]
) -> list[tuple[str, str, Measure]]:
    """What the two sides are compared on, per campaign: (name, kind, measure). A minor in
    play on either side, a clause fired on either side (a house rule's own clause fires on
    one side only)."""
    minors, majors = list(base.rs.minors), list(base.rs.majors)
    out: list[tuple[str, str, Measure]] = []
    active = {*_active(base, mine), *_active(versus, theirs)} & set(range(len(minors)))
    for i in sorted(active):
        name = minors[i]
        for status in Status:
            what = f"{name} {status.value} at the horizon"
            out.append((what, "proportion", _status_is(i, status.value)))
        out.append((f"{name} attacked", "proportion", _attacked(i)))
        out.append((f"{name} conquered", "proportion", _conquered(i)))
    for j, major in enumerate(majors):
        out.append((f"{major} BRP credits at the horizon", "mean", _credits(j)))
    for rule in sorted({rule for r in (*mine, *theirs) for rule, _ in r.clauses}):
        out.append((f"rule {rule} fired (times a campaign)", "mean", _fired(rule)))
    return out


def differences(base: Side, versus: Side) -> list[dict[str, Any]]:
    """Each measure on both sides and the mean of its paired differences (versus - base)
    with its t interval, the paired t test's p and `p_holm`, adjusted by Holm's method over
    all the measures (among many, some show by chance at 95 % each). Measures equal in
    every campaign are left out, and so are campaigns that stopped on either side
    (`ScaleInputError` if the sides did not play the same seeds)."""
    if [r.seed for r in base.results] != [r.seed for r in versus.results]:
        raise ScaleInputError("the two sides did not play the same seeds: they cannot be paired")
    pairs = [
        (x, y)
        for x, y in zip(base.results, versus.results, strict=True)
        if not x.error and not y.error
    ]
    if not pairs:
        return []
    mine, theirs = [x for x, _ in pairs], [y for _, y in pairs]
    out: list[dict[str, Any]] = []
    for what, kind, measure in _measures(base, mine, versus, theirs):
        a = [measure(r) for r in mine]
        try:
            b = [measure(r) for r in theirs]
        except IndexError:  # the versus tables have other minors or majors
            continue
        if a == b:
            continue
        paired = [y - x for x, y in zip(a, b, strict=True)]
        interval = mean_interval(paired)
        out.append(
            {
                "what": what,
                "kind": kind,
                "base": round(sum(a) / len(a), 6),
                "versus": round(sum(b) / len(b), 6),
                "difference": interval.to_json(),
                "shows": interval.excludes_zero(),
                "p": paired_p(paired),
            }
        )
    for d, adjusted in zip(out, holm([d["p"] for d in out]), strict=True):
        d["p"] = None if d["p"] is None else round(d["p"], 6)
        d["p_holm"] = None if adjusted is None else round(adjusted, 6)
    return out


def shown(interval: dict[str, Any], percent: bool = False) -> str:
    """`42.0% [35.1–49.2]` or `-10.3 [-12.0–-8.6]`: a value and its interval as text
    (`[unbounded]` for the mean of one campaign)."""
    if interval["low"] is None or interval["high"] is None:
        return f"{interval['value']:{'.1%' if percent else '.2f'}} [unbounded]"
    if percent:
        return f"{interval['value']:.1%} [{interval['low']:.1%}–{interval['high']:.1%}]"
    return f"{interval['value']:.2f} [{interval['low']:.2f}–{interval['high']:.2f}]"


def difference_cells(d: dict[str, Any]) -> tuple[str, str, str, str]:
    """A difference's base, versus, difference and `p_holm` as the text of a table's cells."""
    percent = d["kind"] == "proportion"
    fmt = ".1%" if percent else ".2f"
    p = "-" if d["p_holm"] is None else f"{d['p_holm']:.3g}"
    return f"{d['base']:{fmt}}", f"{d['versus']:{fmt}}", shown(d["difference"], percent), p


def simulate(
    base: Campaigns, count: int, runner: Runner, versus: Campaigns | None = None
) -> dict[str, Any]:
    """`count` campaigns of `base` (and of `versus`, with the same seeds: `ScaleInputError`
    if seeded differently, unpaired) as `minors simulate --json` prints them."""
    if versus is not None and versus.seed != base.seed:
        raise ScaleInputError(
            f"both sides play the same seeds: --seed {base.seed} against {versus.seed}"
        )
    first = Side("base", base, tuple(run_campaigns(base, count, runner)))
    if versus is None:
        return {**summary(first), "ran_on": runner.setup.describe()}
    other = Side("versus", versus, tuple(run_campaigns(versus, count, runner)))
    # the figures of both sides over the same campaigns: those that completed on both
    failed = frozenset(r.index for side in (first, other) for r in side.results if r.error)
    document = summary(first, failed)
    document["ran_on"] = runner.setup.describe()
    document["versus"] = {**summary(other, failed), "differences": differences(first, other)}
    return document
