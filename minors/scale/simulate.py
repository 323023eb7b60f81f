"""`minors simulate`: many campaigns from one position to a horizon, under a policy, under one set
of rules or two. A campaign is a pure function of its spec and its index (its own seed), so any
outcome replays (`replay_campaign`) and the report is the same on any number of workers; the sides
play the same seeds (docs/scale.md)."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import field, frozen

from .._kernel.rulebook import Rulebook
from ..audit.log import digest, open_log
from ..domain import Status
from ..domain.clock import Moment
from ..domain.events import PhaseEnded, StatusChanged
from ..errors import RuleViolation, ScaleError, ScaleInputError, ScenarioRuleViolation
from ..rules82 import Game
from ..rules82.commands import Command
from ..scenario import run_scenario
from .policy import DEFAULT_POLICY, MOVES_PER_PHASE, load_policy
from .runner import Payload, Runner
from .scenario_text import scenario_text

__all__ = [
    "CampaignResult",
    "Campaigns",
    "campaign_seed",
    "phase_rng",
    "play_campaign",
    "replay_campaign",
    "root_game",
    "run_campaigns",
    "season_label",
]

STATUSES: tuple[Status, ...] = tuple(Status)
INACTIVE = -1
"""The status code of a minor not in play (an inactive minor: Vichy France before rule 77)."""
BATCH = 4
"""Campaigns per task: few enough that two workers share the work evenly at N = 200."""


def season_label(moment: Moment) -> str:
    """`1940-spring`: the game turn of `moment`."""
    return f"{moment.year}-{moment.season.value}"


def campaign_seed(seed: int, index: int) -> int:
    """The seed of campaign `index` of a simulation seeded `seed` (the same everywhere)."""
    data = hashlib.sha256(f"minors-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(data[:8], "big")


def phase_rng(seed: int, moment: Moment) -> random.Random:
    """The random numbers a campaign's policy draws in the phase at `moment`, drawn afresh
    each phase so that two sets of rules playing the same seed draw alike in every phase,
    however their earlier phases differed."""
    data = hashlib.sha256(f"minors-phase:{seed}:{moment.index}".encode()).digest()
    return random.Random(int.from_bytes(data[:8], "big"))


def root_game(
    scenario: str | None, at: str | None, overlays: Sequence[str], rulebook: Rulebook | None
) -> Game:
    """The position work starts from: the built-in start, or a scenario played to its end
    or to `at`, under `overlays` (which replace the scenario's own) and `rulebook`.

    Raises:
        ScaleInputError: the scenario breaks a rule before the position is reached.
        MinorsError: a malformed scenario, overlay or moment (exit 2).
    """
    if scenario is None:
        game = Game.new(list(overlays), rulebook=rulebook)
        if at is not None:
            game.advance_to(at)
        return game
    try:
        return run_scenario(scenario, at, ruleset=list(overlays) or None, rulebook=rulebook)
    except ScenarioRuleViolation as exc:
        raise ScaleInputError(
            f"{scenario}: command {exc.index} breaks rule {exc.rule} before the start "
            "position is reached: give a scenario that runs (minors run), or --at before it"
        ) from None


@frozen
class Campaigns:
    """What every campaign of one side shares (sent to the workers once, by digest)."""

    root: Game
    """The position each campaign starts from (it is cloned, never played)."""
    horizon: Moment
    seed: int
    policy: str = DEFAULT_POLICY
    logs: str | None = None
    """Where each campaign's audit log is written (`campaign-00017.jsonl`), if anywhere."""
    tables: str = field(default="")
    """The digest of the root's tables, checked on the worker."""
    rulebook: str = field(default="")
    """The digest of the root's rulebook, checked on the worker."""

    @classmethod
    def of(
        cls,
        root: Game,
        horizon: str | Moment,
        seed: int,
        policy: str = DEFAULT_POLICY,
        logs: str | Path | None = None,
    ) -> Campaigns:
        """The spec of campaigns from `root` to `horizon`, checked before any is sent
        (`ScaleInputError`: a horizon before the root's clock, a policy that cannot load)."""
        end = horizon if isinstance(horizon, Moment) else Moment.parse(horizon)
        if end < root.clock:
            raise ScaleInputError(f"--until {end} is before the start position, {root.clock}")
        load_policy(policy)
        folder = None
        if logs is not None:
            folder = str(Path(logs).resolve())
            Path(folder).mkdir(parents=True, exist_ok=True)
        return cls(root, end, seed, policy, folder, root.ruleset.digest, root.rulebook.digest)


@frozen
class CampaignResult:
    """What one campaign came to: its minors season by season and at the horizon."""

    index: int
    seed: int
    seasons: tuple[tuple[tuple[int, int], ...], ...]
    """Per season recorded, per minor (tables order): (status code, major code); the status code
    indexes `Status` (`INACTIVE` when not in play), the major code the tables' majors (-1: none)."""
    brps: tuple[tuple[int, ...], ...]
    """Per season recorded, each major's BRP credits from rule 82 (82.21, 82.22, K6)."""
    first_attack: tuple[int | None, ...]
    """Per minor: the moment (index) a major first attacked it (`attacked_at`), if one did."""
    conquest: tuple[int | None, ...]
    """Per minor: the moment (index) it was first conquered (82.11G), if it was."""
    clauses: tuple[tuple[str, int], ...]
    """How often each clause's rules fired (effects naming it), sorted by clause."""
    commands: int
    final: str
    """The SHA-256 of the complete final state (`Game.state()`): a replay must match it."""
    stopped_on: Command | None = None
    """The command it stopped on, if a command stopped it (its replay ends with it)."""
    error: str = ""
    """Why the campaign stopped before the horizon, if it did: a command the rules refused,
    a rule or a policy that raised. The report lists it apart from its figures."""


def _check(spec: Campaigns) -> None:
    """A worker plays only the tables and rulebook the client sent (by digest)."""
    root = spec.root
    if root.ruleset.digest != spec.tables:
        raise ScaleError(
            f"this worker's tables digest {root.ruleset.digest[:12]}..., the client's "
            f"{spec.tables[:12]}...: install the same minors (and overlays) on every worker"
        )
    if root.rulebook.digest != spec.rulebook:
        raise ScaleError(
            f"this worker's rulebook {root.rulebook.name!r} digests {root.rulebook.digest[:12]}"
            f"..., the client's {spec.rulebook[:12]}...: install the same rulebook everywhere"
        )


def _logged_copy(spec: Campaigns, path: Path) -> Game:
    """A fresh game of the root's tables and rulebook with a log file attached, brought to
    the root position by replaying the root's own log (so that the file verifies)."""
    root = spec.root
    game = Game.new(root.ruleset, start=root.start, rulebook=root.rulebook)
    open_log(game, path, durability="close")
    for entry in root.log:
        fields = dict(entry.command)
        kind = fields.pop("command")
        if kind == "advance":
            game.advance_to(fields["to"])
        else:
            game.apply(game.command(kind, **fields))
    return game


def play_campaign(spec: Campaigns, index: int) -> tuple[CampaignResult, Game]:
    """Play campaign `index` of `spec` to the horizon: its result and its final game. A
    command refused or a rule that fails stops it there (`error` says why); `ScaleError` if
    the worker's tables or rulebook differ from the client's."""
    _check(spec)
    seed = campaign_seed(spec.seed, index)
    policy = load_policy(spec.policy)
    root = spec.root
    sink_path = Path(spec.logs) / f"campaign-{index:05d}.jsonl" if spec.logs else None
    game = _logged_copy(spec, sink_path) if sink_path else root.clone()
    rs = game.ruleset
    minors, majors = list(rs.minors), list(rs.majors)
    major_code = {name: i for i, name in enumerate(majors)}
    status_code = {status: i for i, status in enumerate(STATUSES)}
    position = {name: i for i, name in enumerate(minors)}
    # a minor's first attack is the moment the rules recorded (attacked_at), before the
    # start position or in play, whether or not it is still at war
    first_attack: list[int | None] = [
        None if (when := game.minor(name).attacked_at) is None else when.index for name in minors
    ]
    conquest: list[int | None] = [None] * len(minors)

    def date_conquests(effects: Sequence[Any], moment: int) -> None:
        for e in effects:
            if isinstance(e, StatusChanged) and e.new is Status.CONQUERED:
                i = position.get(e.minor)
                if i is not None and conquest[i] is None:
                    conquest[i] = moment

    for entry in root.log:  # conquests before the start position, dated by its log
        date_conquests(entry.effects, entry.moment.index)
    fired: Counter[str] = Counter()
    seasons: list[tuple[tuple[int, int], ...]] = []
    brps: list[tuple[int, ...]] = []

    def record() -> None:
        state = game.raw_state.minors
        seasons.append(
            tuple(
                (status_code[m.status], major_code.get(m.major or "", -1))
                if m.active
                else (INACTIVE, -1)
                for m in (state[name] for name in minors)
            )
        )
        brps.append(tuple(game.brps(major) for major in majors))

    unattacked = [i for i, when in enumerate(first_attack) if when is None]

    def note(effects: Sequence[Any]) -> None:
        """Count the clauses that fired; date first attacks and conquests."""
        for e in effects:
            rule = getattr(e, "rule", "")
            if rule and not isinstance(e, PhaseEnded):
                fired[rule] += 1
        date_conquests(effects, game.clock.index)
        board = game.play().board.minors
        for i in list(unattacked):
            when = board[minors[i]].attacked_at
            if when is not None:
                first_attack[i] = when.index
                unattacked.remove(i)

    commands = 0
    error = ""
    stopped_on: Command | None = None
    try:
        while True:
            rng = phase_rng(seed, game.clock)
            for _ in range(MOVES_PER_PHASE):
                if game.clock >= spec.horizon:
                    break
                try:
                    cmd = policy(game, rng)
                except Exception as exc:  # the policy's bug (or a rule's, in legal_actions)
                    error = f"at {game.clock} the policy raised {type(exc).__name__}: {exc}"
                    break
                if cmd is None:
                    break
                try:
                    note(game.apply(cmd))
                except RuleViolation as exc:
                    error, stopped_on = f"at {game.clock} the rules refuse {cmd!r}: {exc}", cmd
                    break
                except Exception as exc:  # a rule failed on the command: a rulebook's bug
                    error = f"at {game.clock} {cmd!r} raised {type(exc).__name__}: {exc}"
                    stopped_on = cmd
                    break
                commands += 1
            if error or game.clock >= spec.horizon:
                break
            turn = game.clock.turn
            try:
                note(game.advance_to(game.clock.next()))
            except Exception as exc:  # a phase's rules failed: a rulebook's bug
                error = f"advancing from {game.clock}: {type(exc).__name__}: {exc}"
                break
            if game.clock.turn != turn:
                record()  # the state at the end of the season just ended
        if not error:
            record()  # and at the horizon
    finally:
        if sink_path is not None:
            sink = game.attach(None)
            if sink is not None:
                sink.close(game)  # type: ignore[attr-defined]
    return CampaignResult(
        index=index,
        seed=seed,
        seasons=tuple(seasons),
        brps=tuple(brps),
        first_attack=tuple(first_attack),
        conquest=tuple(conquest),
        clauses=tuple(sorted(fired.items())),
        commands=commands,
        final=digest(game.state()),
        stopped_on=stopped_on,
        error=error,
    ), game


def _play_batch(spec: Campaigns, indices: tuple[int, ...]) -> list[CampaignResult]:
    """A task: the campaigns `indices` of `spec`."""
    return [play_campaign(spec, i)[0] for i in indices]


def run_campaigns(spec: Campaigns, count: int, runner: Runner) -> list[CampaignResult]:
    """Campaigns 0 .. count - 1 of `spec`, in order, played where `runner` runs work."""
    if count < 1:
        raise ScaleInputError(f"--campaigns {count}: give one campaign or more")
    batches = [tuple(range(i, min(i + BATCH, count))) for i in range(0, count, BATCH)]
    done = runner.map(_play_batch, Payload.of(spec), batches)
    return [result for batch in done for result in batch]


def replay_campaign(spec: Campaigns, index: int) -> tuple[CampaignResult, Game, str]:
    """Campaign `index` played again in this process: its result, its final game, and the
    scenario file that `minors run` replays it from (ending with the command it stopped on)."""
    result, game = play_campaign(spec, index)
    text = scenario_text(
        game,
        name=f"campaign {index} (seed {result.seed})",
        description=f"minors simulate, campaign {index}, to {spec.horizon}",
        comments=[
            f"campaign {index} of minors simulate --seed {spec.seed}, policy {spec.policy}",
            *([f"stopped: {result.error}"] if result.error else []),
        ],
        until=None if result.error else spec.horizon,
        then=result.stopped_on,
    )
    return result, game, text
