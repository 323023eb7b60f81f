"""Work at scale (minors.scale, docs/scale.md): `minors simulate`, `minors explore` and
`minors log verify-many`, run in this process (the LocalCluster run is
tests/scale/test_scale_cluster.py)."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from concurrent.futures import CancelledError
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jsonschema
import pytest
from attrs import evolve
from click.testing import CliRunner

import minors
from minors import auditlog
from minors import schema as schemas
from minors.cli import main
from minors.domain import Status
from minors.domain.clock import Moment, Phase
from minors.errors import ScaleError, ScaleInputError
from minors.rules82 import RULEBOOK
from minors.rules82.commands import RefuseAssociation, Subvert
from minors.scale import (
    Campaigns,
    Runner,
    Search,
    explore,
    play_campaign,
    replay_campaign,
    root_game,
    run_campaigns,
    simulate,
    verify_many,
)
from minors.scale import invariants as invariants_module
from minors.scale import runner as runner_module
from minors.scale.explore import PASS, Child, Expanded, Node, _merge
from minors.scale.invariants import INVARIANTS, LISTED_APPLY, Invariant
from minors.scale.page import COLUMN, _grid
from minors.scale.report import Side, differences
from minors.scale.runner import Payload, unpack
from minors.scale.simulate import INACTIVE, CampaignResult
from minors.scale.stats import holm, mean_interval, paired_p, t_quantile, wilson
from minors.schema import scale as scale_schemas
from minors.testing import fits
from tests.paths import DATA, ROOT

if os.environ.get("CI") != "true":  # CI installs the scale extra and never skips
    pytest.importorskip("distributed", reason="needs the scale extra: pip install -e '.[scale]'")
import distributed  # after the skip: needs the scale extra

BROKEN = DATA / "broken_vichy.toml"
CONTROL = DATA / "scale_control.toml"
EIGHT = ROOT / "minors" / "examples" / "limit_of_eight.toml"
PLANTED = [
    "explore",
    "--at",
    "1939-fall/allies/construction",
    "--ruleset",
    str(BROKEN),
    "--kinds",
    "refuse_association,surrender",
    "--depth",
    "4",
    "--max-states",
    "200",
]
"""The planted bug: France surrenders, and Vichy France, which the broken row put at war
with Britain from the start, comes into play neutral yet at war."""
VICHY_AT_WAR = "Vichy France is neutral yet at war with ['Britain']"
"""What the planted bug breaks (82.11)."""


# ---- intervals ---------------------------------------------------------------------------


def test_wilson_interval_matches_the_formula_near_zero() -> None:
    """0 of 10 gives [0, 0.2775] (not the normal approximation's empty interval)."""
    found = wilson(0, 10)
    assert (found.value, found.low) == (0.0, 0.0)
    assert found.high == pytest.approx(0.27753, abs=1e-4)
    half = wilson(5, 10)
    assert (half.low, half.high) == (
        pytest.approx(0.23659, abs=1e-4),
        pytest.approx(0.76341, abs=1e-4),
    )


def test_t_quantile_and_mean_interval() -> None:
    """Student's t quantiles as the tables give them; a mean's interval uses them; the
    mean of one value has no interval (unbounded, null in JSON), not the value itself."""
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-3)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-3)
    assert t_quantile(0.975, 30) == pytest.approx(2.0423, abs=1e-4)
    alone = mean_interval([3.0])
    assert (alone.value, alone.low, alone.high) == (3.0, -math.inf, math.inf)
    assert not alone.excludes_zero()  # one campaign shows no difference, however large
    assert alone.to_json() == {"value": 3.0, "low": None, "high": None, "method": "t"}
    found = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 3.1824 * math.sqrt((5 / 3) / 4)
    assert (found.low, found.high) == (
        pytest.approx(2.5 - half, abs=1e-3),
        pytest.approx(2.5 + half, abs=1e-3),
    )


def test_paired_p_values_and_holms_adjustment() -> None:
    """The paired t test's p (0.0305 at t = 3.873, 3 df), its ends, and Holm's adjustment."""
    assert paired_p([1.0, 2.0, 3.0, 4.0]) == pytest.approx(0.030466, abs=1e-5)
    assert paired_p([0.0, 0.0]) == 1.0
    assert paired_p([1.0, 1.0]) == 0.0
    assert paired_p([5.0]) is None
    assert holm([0.01, 0.04, 0.03, None]) == [
        pytest.approx(0.03),
        pytest.approx(0.06),
        pytest.approx(0.06),
        None,
    ]
    assert holm([0.5, 0.9]) == [pytest.approx(1.0), pytest.approx(1.0)]


# ---- the runner ----------------------------------------------------------------------------


def test_runner_refuses_workers_with_a_scheduler_and_no_workers() -> None:
    """--workers with --scheduler, or fewer than one worker, is named, not guessed."""
    with pytest.raises(ScaleInputError, match="give one of them"):
        Runner(workers=2, scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(ScaleInputError, match="one worker or more"):
        Runner(workers=0)


def test_a_payload_that_does_not_digest_as_sent_is_refused() -> None:
    """A worker checks the shared bytes against the digest the client sent."""
    payload = Payload.of({"a": 1})
    assert unpack(payload.blob, payload.digest) == {"a": 1}
    with pytest.raises(ScaleError, match="does not digest as sent"):
        unpack(payload.blob + b"x", "0" * 64)


class _LostCluster:
    """A client whose every gather fails as `failure` (a worker killed, a connection lost)."""

    def __init__(self, failure: Exception) -> None:
        self.failure = failure

    def scatter(self, *args: object, **kwargs: object) -> object:
        return object()

    def map(self, *args: Any, **kwargs: object) -> list[object]:
        return [object() for _ in args[-1]]

    def gather(self, futures: object) -> list[object]:
        raise self.failure

    def close(self) -> None:
        """Nothing to close."""


@pytest.mark.parametrize(
    ("failure", "needle"),
    [
        (
            distributed.KilledWorker("task-0", SimpleNamespace(address="tcp://10.0.0.2:1"), 3),
            "kept dying on one task: 4 workers died running 'task-0'",
        ),
        (CancelledError("scheduler-connection-lost"), "the work was lost"),
    ],
)
def test_work_lost_on_a_cluster_is_a_scale_error(
    monkeypatch: pytest.MonkeyPatch, failure: Exception, needle: str
) -> None:
    """Workers dying on a task, or a lost scheduler, end the job with a one-line ScaleError."""
    monkeypatch.setattr(distributed, "as_completed", iter)
    runner = Runner(scheduler="tcp://127.0.0.1:8786")
    runner._client = _LostCluster(failure)
    with pytest.raises(ScaleError, match=needle):
        runner.map(unpack, Payload.of(None), [1, 2])


def test_an_unreachable_scheduler_is_one_line_exit_2() -> None:
    """`--scheduler` naming no scheduler exits 2 saying it cannot be reached."""
    result = CliRunner().invoke(
        main,
        ["log", "verify-many", str(BROKEN), "--scheduler", "tcp://127.0.0.1:9"],
    )
    assert result.exit_code == 2
    assert "cannot reach the scheduler" in result.stderr


# ---- simulate ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def campaigns() -> Campaigns:
    """Four campaigns' spec from the 1939 start to the Winter of 1939."""
    return Campaigns.of(root_game(None, None, [], None), "1939-winter/axis/diplomacy", seed=5)


def test_campaigns_are_the_same_in_any_runner(campaigns: Campaigns) -> None:
    """One task at a time or Dask's threaded scheduler: the same results in the same order."""
    with Runner(workers=1) as one:
        alone = run_campaigns(campaigns, 4, one)
    with Runner(small=True) as threads:
        assert threads.setup.mode == "threads"
        shared = run_campaigns(campaigns, 4, threads)
    assert alone == shared
    assert [r.index for r in alone] == [0, 1, 2, 3]
    assert len({r.seed for r in alone}) == 4  # each campaign its own seed


def test_a_reported_outcome_replays_from_its_seed(campaigns: Campaigns, tmp_path: Path) -> None:
    """Campaign 2 played again gives the same result, and its scenario file, run by
    `minors run --until HORIZON`, gives the same final state."""
    with Runner(workers=1) as runner:
        reported = run_campaigns(campaigns, 3, runner)[2]
    result, game, text = replay_campaign(campaigns, 2)
    assert result == reported
    scenario = tmp_path / "campaign-2.toml"
    scenario.write_text(text, encoding="utf-8")
    replayed = minors.run_scenario(scenario, str(campaigns.horizon))
    assert auditlog.digest(replayed.state()) == reported.final == auditlog.digest(game.state())


def test_a_replay_names_its_overlays_so_it_runs_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay names its overlays by absolute path: run from another folder, it ends the same."""
    monkeypatch.chdir(ROOT)
    root = root_game(None, None, [str(EIGHT.relative_to(ROOT))], None)
    spec = Campaigns.of(root, "1939-fall/allies/diplomacy", seed=4)
    result, _, text = replay_campaign(spec, 0)
    assert f"ruleset = [{json.dumps(str(EIGHT))}]" in text
    monkeypatch.chdir(tmp_path)
    Path("replay.toml").write_text(text, encoding="utf-8")
    replayed = minors.run_scenario("replay.toml", str(spec.horizon))
    assert auditlog.digest(replayed.state()) == result.final


def test_a_minor_attacked_before_the_start_keeps_its_date() -> None:
    """Minors attacked and conquered before the start keep those dates (the sample's end)."""
    root = root_game(str(minors.scenario.SAMPLE), None, [], None)
    spec = Campaigns.of(root, "1942-summer/allies/declarations", seed=2)
    result, _ = play_campaign(spec, 0)
    names = list(root.ruleset.minors)
    for name, when in (
        ("Belgium", "1940-summer/axis/declarations"),
        ("W. Poland", "1939-fall/axis/declarations"),
    ):
        assert not root.minor(name).at_war_with
        assert result.first_attack[names.index(name)] == Moment.parse(when).index, name
    for name, when in (
        ("Belgium", "1940-summer/axis/combat"),
        ("W. Poland", "1939-fall/axis/combat"),
    ):
        assert result.conquest[names.index(name)] == Moment.parse(when).index, name


def test_simulate_json_names_an_example_campaign_for_each_outcome() -> None:
    """`--json` has the campaigns, per-minor distributions with intervals, and for each
    status at the horizon a campaign that ends in it; `--replay` of that campaign ends so."""
    args = ["simulate", "--campaigns", "3", "--until", "1939-winter/axis/diplomacy", "--seed", "9"]
    result = CliRunner().invoke(main, [*args, "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["campaigns"] == 3
    poland = document["minors"]["W. Poland"]
    assert sum(1 for _ in poland["at_horizon"]["status"]) >= 1
    status, index = next(iter(poland["examples"].items()))
    share = poland["at_horizon"]["status"][status]
    assert share["method"] == "wilson"
    assert share["low"] <= share["value"] <= share["high"]
    assert poland["attacked"]["value"] == 1.0  # attacked at the start, 82.12
    assert poland["first_attack"] == {"1939-fall": 3}
    for name, m in document["minors"].items():  # the dates add up to the share attacked
        dated = sum(k for when, k in m["first_attack"].items() if when != "never")
        assert dated == round(m["attacked"]["value"] * 3), name
    again = CliRunner().invoke(main, [*args, "--replay", str(index), "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["state"]["minors"]["W. Poland"]["status"] == status


@pytest.mark.rule("82.32")
def test_limit_of_eight_shows_a_difference_with_its_interval(tmp_path: Path) -> None:
    """With Britain holding Greece and units massed into it, the limit of eight (the
    example house rule) makes the limit's rules fire more often than the limit of ten, on
    the same seeds: a paired difference whose t interval excludes 0."""
    page = tmp_path / "page.html"
    args = [
        "simulate", str(CONTROL), "--at", "1939-fall/allies/movement",
        "--until", "1939-fall/allies/construction", "--campaigns", "12", "--seed", "0",
        "--policy", "minors.scale.policy:massing_policy",
        "--versus-ruleset", str(EIGHT), "--json", "--html", str(page),
    ]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["versus"]["rules"]["overlays"] == [str(EIGHT)]
    fired = {d["what"]: d for d in document["versus"]["differences"]}[
        "rule 82.32 fired (times a campaign)"
    ]
    assert fired["shows"]
    assert fired["versus"] > fired["base"]
    interval = fired["difference"]
    assert interval["method"] == "t"
    assert 0 < interval["low"] <= interval["value"] <= interval["high"]
    assert fired["p"] < 0.05
    assert fired["p"] <= fired["p_holm"] <= 1
    html = page.read_text(encoding="utf-8")
    assert "paired differences" in html
    assert "rule 82.32 fired" in html
    assert "<script" not in html


def test_differences_cover_what_only_the_other_side_has(campaigns: Campaigns) -> None:
    """A clause fired, or a minor in play, only under the other rules is compared too."""
    with Runner(workers=1) as runner:
        results = tuple(run_campaigns(campaigns, 3, runner))
    vichy = list(campaigns.root.ruleset.minors).index("Vichy France")
    neutral = list(Status).index(Status.NEUTRAL)
    assert all(season[vichy][0] == INACTIVE for r in results for season in r.seasons)

    def house_rule(r: CampaignResult) -> CampaignResult:
        seasons = tuple(
            (*season[:vichy], (neutral, -1), *season[vichy + 1 :]) for season in r.seasons
        )
        return evolve(r, clauses=(*r.clauses, ("H9", 2)), seasons=seasons)

    base = Side("base", campaigns, results)
    versus = Side("versus", campaigns, tuple(house_rule(r) for r in results))
    found = {d["what"]: d for d in differences(base, versus)}
    fired = found["rule H9 fired (times a campaign)"]
    assert (fired["base"], fired["versus"], fired["difference"]["value"]) == (0, 2, 2)
    assert found["Vichy France neutral at the horizon"]["versus"] == 1


def test_the_pages_status_bars_share_out_the_campaigns_that_completed() -> None:
    """A season's status bar shares out the campaigns that completed, and fills its column."""
    season = {"status": {"neutral": 1, "conquered": 1}, "major": {}}
    document = {
        "campaigns": 4,
        "completed": 2,
        "seasons": ["1939-fall (horizon)"],
        "minors": {"Sweden": {"seasons": {"1939-fall (horizon)": season}}},
    }
    (cell,) = _grid(document)["rows"][0]["cells"]
    assert sum(part["w"] for part in cell["parts"]) == pytest.approx(COLUMN - 2)


def failing_policy(game: minors.Game, rng: random.Random) -> None:
    """A policy with a bug: it fails in the first declarations phase it sees."""
    if game.clock.phase is Phase.DECLARATIONS:
        raise ZeroDivisionError("the policy's bug")


def test_a_policy_that_raises_stops_its_campaign_not_the_job() -> None:
    """A policy's exception stops its campaign with the error named (replayable), not the job."""
    spec = Campaigns.of(
        root_game(None, None, [], None),
        "1939-winter/axis/diplomacy",
        seed=3,
        policy=f"{__name__}:failing_policy",
    )
    with Runner(workers=1) as runner:
        results = run_campaigns(spec, 2, runner)
    for r in results:
        assert r.error == (
            "at 1939-fall/axis/declarations the policy raised ZeroDivisionError: the policy's bug"
        )
        assert r.stopped_on is None
    assert replay_campaign(spec, 1)[0] == results[1]


def test_the_versus_side_adds_its_overlays_to_the_scenarios_own(tmp_path: Path) -> None:
    """--versus-ruleset B over a scenario naming overlay A plays A then B, not B alone."""
    scenario = tmp_path / "own.toml"
    scenario.write_text(
        f'[scenario]\nname = "own"\nstart = "1939-fall"\nruleset = [{json.dumps(str(EIGHT))}]\n',
        encoding="utf-8",
    )
    args = ["simulate", str(scenario), "--until", "1939-fall/axis/declarations"]
    args += ["--campaigns", "1", "--versus-ruleset", str(BROKEN), "--json", "--workers", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["rules"]["overlays"] == [str(EIGHT)]
    assert document["versus"]["rules"]["overlays"] == [str(EIGHT), str(BROKEN)]


def failing_under_overlays(game: minors.Game, rng: random.Random) -> None:
    """A policy with a bug that shows only under overlays (the other side's rules)."""
    if game.ruleset.sources:
        raise ZeroDivisionError("the policy's bug")


def test_a_campaign_stopped_on_the_other_side_replays_under_its_rules() -> None:
    """A campaign stopped under the --versus rules is named with the options that replay it."""
    args = ["simulate", "--until", "1939-fall/axis/declarations", "--campaigns", "1"]
    args += ["--policy", f"{__name__}:failing_under_overlays", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--versus-ruleset", str(EIGHT)])
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("minors: versus campaign 0 (seed ")
    assert line.endswith(
        f"--replay 0 --ruleset {EIGHT} --rulebook rule82 (instead of the --versus-*)"
    )
    again = CliRunner().invoke(main, [*args, "--ruleset", str(EIGHT), "--replay", "0"])
    assert again.exit_code == 0, again.output
    assert (
        "# stopped: at 1939-fall/axis/diplomacy the policy raised ZeroDivisionError" in again.stdout
    )


def test_two_sides_seeded_apart_are_refused(campaigns: Campaigns) -> None:
    """Sides seeded apart cannot be paired: a ScaleInputError before a campaign is played."""
    with Runner(workers=1) as runner, pytest.raises(ScaleInputError, match="same seeds"):
        simulate(campaigns, 2, runner, evolve(campaigns, seed=6))
    base = Side("base", campaigns, ())
    other = Side("versus", campaigns, (CampaignResult(0, 1, (), (), (), (), (), 0, ""),))
    with pytest.raises(ScaleInputError, match="cannot be paired"):
        differences(base, other)


def test_simulate_keeps_each_campaigns_log_and_they_verify(tmp_path: Path) -> None:
    """`--logs DIR` writes one audit log per campaign; `log verify-many DIR` verifies them
    all, one line each and a summary."""
    logs = tmp_path / "logs"
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--campaigns",
            "2",
            "--until",
            "1939-fall/allies/diplomacy",
            "--logs",
            str(logs),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "2 campaigns" in result.stdout
    written = sorted(p.name for p in logs.iterdir())
    assert written == ["campaign-00000.jsonl", "campaign-00001.jsonl"]
    checked = CliRunner().invoke(main, ["log", "verify-many", str(logs)])
    assert checked.exit_code == 0, checked.output
    lines = checked.stdout.splitlines()
    assert [line.split()[0] for line in lines[:2]] == ["ok", "ok"]
    assert lines[-1] == "2 logs: 2 ok, 0 failed, 0 could not be verified"


def test_a_policy_that_is_not_module_function_is_exit_2() -> None:
    """A bad `--policy` is named in one line, exit 2, no traceback."""
    result = CliRunner().invoke(
        main, ["simulate", "--until", "1940-spring/axis/diplomacy", "--policy", "nowhere"]
    )
    assert result.exit_code == 2
    assert "write module:function" in result.stderr
    assert "Traceback" not in result.output


# ---- explore -------------------------------------------------------------------------------


@pytest.mark.rule("82.11")
def test_explore_finds_the_planted_bug_and_its_scenario_replays(tmp_path: Path) -> None:
    """The broken overlay's counterexample: France's surrender, found with the search capped
    and reported so; `minors run` of the scenario it prints reaches a position that breaks
    the same invariant."""
    result = CliRunner().invoke(main, [*PLANTED, "--json", "--write", str(tmp_path)])
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert (document["positions"], document["capped"]) == (200, True)
    (found,) = document["violations"]
    assert found["invariant"] == "statuses_fit"
    commands = [s for s in found["steps"] if s != "pass"]
    assert commands == ["Surrender(major='France')"]
    scenario = tmp_path / "statuses_fit.toml"
    assert scenario.read_text(encoding="utf-8") == found["scenario"]
    game = minors.run_scenario(scenario, found["until"])
    assert fits(game) == [VICHY_AT_WAR]


def test_the_planted_bug_is_the_overlays() -> None:
    """Without the broken overlay the same search breaks nothing (exit 0)."""
    args = [a for a in PLANTED if a not in ("--ruleset", str(BROKEN))]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["violations"] == []


def test_sleep_sets_visit_every_position_in_fewer_steps() -> None:
    """The partial-order reduction prunes transitions, never positions: the same distinct
    positions with and without it, fewer states visited with it."""
    root = root_game(None, "1939-fall/allies/declarations", [], None)
    found = {}
    for reduction in (True, False):
        search = Search.of(
            root,
            kinds=["border_war", "refuse_association", "subvert"],
            depth=3,
            reduction=reduction,
        )
        with Runner(workers=1) as runner:
            found[reduction] = explore(search, runner)
    assert found[True].positions == found[False].positions > 8
    assert found[True].states < found[False].states
    assert not found[True].capped
    assert found[True].violations == ()


def test_a_cap_that_stops_a_level_unexpanded_is_reported() -> None:
    """A --max-states that leaves a level unexpanded is reported (capped), at the depth reached."""
    root = root_game(None, "1939-fall/allies/declarations", [], None)
    kinds = ["border_war", "refuse_association", "subvert"]
    with Runner(workers=1) as runner:
        one = explore(Search.of(root, kinds=kinds, depth=1), runner)
        full = explore(Search.of(root, kinds=kinds, depth=2), runner)
        cut = explore(Search.of(root, kinds=kinds, depth=2), runner, max_states=one.positions)
    assert not one.capped
    assert not full.capped
    assert full.positions > one.positions
    assert (cut.positions, cut.depth, cut.capped) == (one.positions, 1, True)


def test_a_position_reached_twice_in_a_level_merges_alike_in_any_order() -> None:
    """Two arrivals at one position merge alike in either order (rank, sleep set, footprints)."""
    refuse = RefuseAssociation("Britain", "W. Poland")
    subvert = Subvert("Russia", "Sweden")
    first, second = Node(11, (PASS,), (0,)), Node(12, (PASS, PASS), (1,))
    one = Expanded(
        (0,),
        (),
        (Child(7, PASS, 3, ((refuse, frozenset({"W. Poland"})), (subvert, frozenset()))),),
    )
    two = Expanded((1,), (), (Child(7, PASS, 0, ((refuse, frozenset({"Sweden"})),)),))
    merged = []
    for answers in ([one, two], [two, one]):
        best: dict[int, Any] = {}
        assert _merge(answers, [first, second], set(), best) == 2
        merged.append(best)
    assert merged[0] == merged[1]
    assert merged[0][7] == ((0, 3), (PASS, PASS), {refuse: frozenset({"W. Poland", "Sweden"})})


def _deployments_fail(tx: object, side: object) -> None:
    """A broken rule at the end of each declarations phase (a rulebook's bug)."""
    raise ZeroDivisionError("the set-up's bug")


BROKEN_SET_UP = RULEBOOK.extend(
    "broken-set-up", replace={"minors.rules82.deployment._deployments_due": _deployments_fail}
)
"""Rule 82 whose deployments at the end of a declarations phase fail."""


def test_a_phase_end_that_fails_replays_to_the_failure(tmp_path: Path) -> None:
    """A pass whose phase-end rules raise replays with --until the moment after it."""
    root = root_game(None, "1939-fall/axis/declarations", [], BROKEN_SET_UP)
    search = Search.of(root, kinds=["border_war"], depth=1)
    with Runner(workers=1) as runner:
        found = explore(search, runner)
    (violation,) = found.violations
    assert (violation.invariant, violation.steps) == ("listed_commands_apply", ("pass",))
    assert "ZeroDivisionError: the set-up's bug" in violation.problems[0]
    assert violation.until == str(root.clock.next())
    scenario = tmp_path / "found.toml"
    scenario.write_text(violation.scenario, encoding="utf-8")
    with pytest.raises(ZeroDivisionError, match="the set-up's bug"):
        minors.run_scenario(scenario, violation.until, rulebook=BROKEN_SET_UP)


def test_an_invariant_whose_check_raises_is_broken_where_it_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A check that raises breaks its invariant there, the error its problem, not the search."""

    def fails(game: minors.Game) -> list[str]:
        raise KeyError("Atlantis")

    monkeypatch.setattr(
        invariants_module, "INVARIANTS", (Invariant("statuses_fit", "82.11", fails),)
    )
    root = root_game(None, "1939-fall/axis/declarations", [], None)
    with Runner(workers=1) as runner:
        found = explore(Search.of(root, kinds=["border_war"], depth=0), runner)
    (violation,) = found.violations
    assert (violation.invariant, violation.steps) == ("statuses_fit", ())
    assert violation.problems == ("the check raised KeyError: 'Atlantis'",)


def test_explore_is_the_same_on_any_number_of_partitions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One partition or three (threads, whatever the machine's cores): the same
    positions, states and counterexample, whose scenario names the overlay the position
    was played under (from anywhere)."""
    root = root_game(None, "1939-fall/allies/construction", [str(BROKEN)], None)
    search = Search.of(root, kinds=["refuse_association", "surrender"], depth=4)
    with Runner(workers=1) as one:
        alone = explore(search, one, max_states=150)
    monkeypatch.setattr(runner_module, "local_workers", lambda: 3)
    with Runner(small=True) as three:
        assert (three.setup.mode, three.partitions) == ("threads", 3)
        split = explore(search, three, max_states=150)
    assert alone == split
    (found,) = alone.violations
    scenario = tmp_path / "found.toml"
    scenario.write_text(found.scenario, encoding="utf-8")
    replayed = minors.run_scenario(scenario, found.until)
    assert fits(replayed) == [VICHY_AT_WAR]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["explore"], "--depth D or --until MOMENT"),
        (["explore", "--depth", "1", "--kinds", "declare_wars"], "did you mean 'declare_war'"),
        (
            [
                "explore",
                "--until",
                "1939-fall/axis/diplomacy",
                "--at",
                "1940-spring/axis/diplomacy",
            ],
            "before the start",
        ),
    ],
)
def test_explore_bad_bounds_are_one_line_exit_2(args: list[str], needle: str) -> None:
    """Missing bounds, an unknown kind, a horizon before the start: exit 2, one line."""
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 2
    assert needle in result.stderr
    assert json.loads(result.stdout)["error"]["exit"] == 2


# ---- verify-many ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two good logs, a tampered one and one that is not a log."""
    folder = tmp_path_factory.mktemp("logs")
    out = {}
    for name in ("a", "b", "tampered"):
        path = folder / f"{name}.jsonl"
        minors.run_scenario(minors.scenario.SAMPLE, "1940-spring/axis/diplomacy", log=path)
        out[name] = path
    lines = out["tampered"].read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if b'"command":"conquer"' in line)
    lines[at] = lines[at].replace(b'"by":"Germany"', b'"by":"Russia"', 1)  # history rewritten
    out["tampered"].write_bytes(b"".join(lines))
    out["junk"] = folder / "junk.jsonl"
    out["junk"].write_text("not a log\n", encoding="utf-8")
    out["missing"] = folder / "missing.jsonl"
    return out


@pytest.mark.parametrize(
    ("names", "code"),
    [(["a", "b"], 0), (["a", "tampered", "missing", "junk"], 1), (["a", "missing"], 2)],
)
def test_verify_many_exit_status(logs: dict[str, Path], names: list[str], code: int) -> None:
    """Exit 0 when all verify, 1 when any fails a check, else 2 when any cannot be verified;
    one line per log, in the order given, and a summary."""
    result = CliRunner().invoke(main, ["log", "verify-many", *(str(logs[n]) for n in names)])
    assert result.exit_code == code, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(names) + 1
    for line, name in zip(lines, names, strict=False):
        assert line.endswith(str(logs[name])) or f" {logs[name]}: " in line
        word = {"a": "ok", "b": "ok", "tampered": "FAILED", "junk": "FAILED", "missing": "CANNOT"}
        assert line.startswith(word[name])


class _Elsewhere(Runner):
    """Runs its tasks from another working folder, as a worker on another machine does."""

    def __init__(self, folder: Path) -> None:
        super().__init__(workers=1)
        self.folder = folder

    def map(self, fn: Any, shared: Payload, items: Any) -> list[Any]:
        before = Path.cwd()
        os.chdir(self.folder)
        try:
            return super().map(fn, shared, items)
        finally:
            os.chdir(before)


def test_verify_many_sends_paths_that_workers_elsewhere_can_read(
    logs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative log path verifies on a worker in another folder, named as given."""
    monkeypatch.chdir(logs["a"].parent)
    (checked,) = verify_many(["a.jsonl"], _Elsewhere(tmp_path))
    assert (checked.path, checked.outcome) == ("a.jsonl", "ok")


def test_verify_many_json_lists_each_verdict_and_counts_them(logs: dict[str, Path]) -> None:
    """--json lists each log's verdict in order and counts each outcome."""
    names = ["a", "tampered", "missing"]
    args = ["log", "verify-many", *(str(logs[n]) for n in names), "--json", "--workers", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert [c["outcome"] for c in document["logs"]] == ["ok", "failed", "unverifiable"]
    assert document["summary"] == {"ok": 1, "failed": 1, "unverifiable": 1}


def test_the_exploration_schema_names_every_invariant_and_refuses_others() -> None:
    """The exploration schema lists explore's invariants and refuses a malformed document."""
    assert tuple(i.name for i in (*INVARIANTS, LISTED_APPLY)) == scale_schemas.INVARIANTS
    validator = jsonschema.Draft202012Validator(schemas.get("exploration"))
    document = {
        "states": 1, "positions": 1, "depth": 0, "max_states": 1, "capped": False,
        "reduction": "sleep sets", "kinds": None, "violations": [], "ran_on": "here",
    }  # fmt: skip
    assert validator.is_valid(document)
    assert not validator.is_valid({k: v for k, v in document.items() if k != "capped"})
    assert not validator.is_valid({**document, "reduction": "stubborn sets"})


def test_verify_many_of_folders_without_logs_is_exit_2(tmp_path: Path) -> None:
    """Folders without a log: one line, exit 2, the error document with --json."""
    result = CliRunner().invoke(main, ["log", "verify-many", str(tmp_path), "--json"])
    assert result.exit_code == 2
    assert f"no logs: {tmp_path} hold no *.jsonl file" in result.stderr
    assert json.loads(result.stdout)["error"]["kind"] == "ScaleInputError"


def test_verify_many_progress_stays_out_of_a_pipe(logs: dict[str, Path]) -> None:
    """In a pipe, verify-many prints its lines and summary and nothing of a progress bar."""
    args = ["log", "verify-many", str(logs["a"]), str(logs["b"]), "--workers", "1"]
    proc = subprocess.run(
        [sys.executable, "-m", "minors", *args], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.splitlines()[-1] == "2 logs: 2 ok, 0 failed, 0 could not be verified"
