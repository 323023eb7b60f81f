"""minors.testing (strategies, invariants, the state machine), the pytest plugin, and the
examples of docs/testing.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

import minors
import minors.audit.log
from minors import Game, Note, RuleViolation, Status, command, load_ruleset
from minors import testing as kit
from minors.rules82.commands import KINDS, fields_of
from minors.testing import (
    MinorsStateMachine,
    broken_bars,
    commands,
    conquered_units,
    fits,
    games,
    known_kinds,
    ledger_problems,
    legal_commands,
    majors,
    moments,
    rulesets,
    state_problems,
    ties_with_enemies,
    units,
)
from tests import paths

DOCS = paths.DOCS / "testing.md"
SCENARIOS = paths.SCENARIOS
RS = load_ruleset()
QUICK = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _block(language: str, containing: str) -> str:
    """The code block of docs/testing.md in `language` that contains `containing`."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)
    (block,) = [b for b in blocks if containing in b]
    return block


# ---- the module ---------------------------------------------------------------------------


def test_import_minors_leaves_the_test_kit_alone() -> None:
    """`import minors` imports neither minors.testing nor Hypothesis."""
    code = "import sys, minors; print('minors.testing' in sys.modules, 'hypothesis' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "False"]


def test_profiles_are_registered_and_one_is_loaded() -> None:
    """minors-ci is small, minors-thorough large; the suite runs under MINORS_PROFILE's."""
    ci, thorough = settings.get_profile("minors-ci"), settings.get_profile("minors-thorough")
    assert ci.max_examples < thorough.max_examples
    assert ci.stateful_step_count < thorough.stateful_step_count
    assert ci.deadline is None
    assert ci.print_blob
    loaded = settings.get_profile(os.environ.get("MINORS_PROFILE", "minors-ci"))
    assert settings().max_examples == loaded.max_examples


# ---- strategies ---------------------------------------------------------------------------


@given(
    moment=moments("1940-spring", "1940-summer/axis/movement"), major=majors(), minor=kit.minors()
)
def test_moments_and_names_stay_in_range(moment: minors.Moment, major: str, minor: str) -> None:
    """moments() keeps to its bounds; majors() and minors() draw names of the tables."""
    assert minors.Moment.parse("1940-spring") <= moment
    assert moment <= minors.Moment.parse("1940-summer/axis/movement")
    assert major in RS.majors
    assert minor in RS.minors


@given(spec=units())
def test_units_place_as_drawn(spec: minors.UnitSpec) -> None:
    """A drawn unit survives the scenario vocabulary of `place` unchanged."""
    cmd = command("place", units=[attrs.asdict(spec)], **{"in": "Sweden"})
    assert isinstance(cmd, minors.Place)
    assert cmd.units == (spec,)


def test_commands_know_every_kind_of_today() -> None:
    """Every command kind the kernel had when the kit was written is drawn."""
    known = {
        "border_war", "choose_losses", "conquer", "declare_war", "deploy",
        "diplomatic_result", "move", "place", "reenter_war", "refuse_association",
        "remove", "subvert", "surrender", "trace_supply",
    }  # fmt: skip
    assert known <= set(known_kinds())


@pytest.mark.parametrize("kind", known_kinds())
@settings(QUICK)
@given(data=st.data())
def test_commands_of_each_kind_round_trip(kind: str, data: st.DataObject) -> None:
    """A drawn command is of its kind and survives the scenario vocabulary unchanged."""
    cmd = data.draw(commands(kinds=[kind]))
    assert cmd.name == kind
    fields = fields_of(cmd)
    assert command(fields.pop("command"), **fields) == cmd


def test_a_new_kind_is_drawn_when_its_fields_are_known(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind added to KINDS is drawn when its fields are known, left out when not."""

    @attrs.frozen
    class Annex:
        name = "annex"
        major: str
        minor: str

    @attrs.frozen
    class Forecast:
        name = "forecast"
        weather: str

    monkeypatch.setitem(KINDS, "annex", Annex)
    monkeypatch.setitem(KINDS, "forecast", Forecast)
    assert "annex" in known_kinds()
    assert "forecast" not in known_kinds()
    drawn: list[Any] = []

    @settings(QUICK, max_examples=5)
    @given(cmd=commands(kinds=["annex", "forecast", "surrender"]))
    def draw(cmd: Any) -> None:
        drawn.append(cmd)

    draw()
    assert {type(c) for c in drawn} <= {Annex, minors.Surrender}
    assert all(c.major in RS.majors for c in drawn if isinstance(c, Annex))


@settings(QUICK)
@given(data=st.data())
def test_legal_commands_pass_check(data: st.DataObject) -> None:
    """What legal_commands(game) draws is legal in that game."""
    game = data.draw(games(max_steps=6))
    assume(game.legal_actions())
    cmd = data.draw(legal_commands(game))
    assert game.check(cmd) == []


@settings(QUICK, max_examples=10)
@given(data=st.data())
def test_games_from_scenarios_keep_the_invariants(data: st.DataObject) -> None:
    """Games played on from the end of a rulebook situation keep every state invariant."""
    paths = sorted(SCENARIOS.glob("*.toml"))[:6]
    game = data.draw(games(scenarios=paths, max_steps=4))
    assert state_problems(game) == []


@settings(QUICK, max_examples=10)
@given(paths=rulesets(), data=st.data())
def test_games_under_drawn_overlays_keep_the_invariants(
    paths: list[str], data: st.DataObject
) -> None:
    """Under any overlay rulesets() draws, its values hold and legal play keeps the invariants."""
    overlay = tomllib.loads(Path(paths[0]).read_text(encoding="utf-8"))
    rs = load_ruleset(paths)
    for name, entry in overlay.get("minors", {}).items():
        assert rs.minors[name].brps == entry["brps"]
    game = data.draw(games(paths, max_steps=6))
    assert game.ruleset.digest == rs.digest
    assert state_problems(game) == []


def test_the_docs_property_test_runs() -> None:
    """docs/testing.md's property test over drawn overlays runs and passes."""
    namespace: dict[str, Any] = {}
    exec(compile(_block("python", "def test_any_overlay"), "docs/testing.md", "exec"), namespace)
    settings(QUICK, max_examples=5)(namespace["test_any_overlay"])()


# ---- invariants: each one finds what it looks for -----------------------------------------


def _tampered(change: Any) -> Game:
    state = Game.new().state()
    change(state)
    return Game.from_state(state)


def _sweden(**fields: Any) -> Any:
    return lambda state: state["minors"]["Sweden"].update(fields)


def _ledger(entries: list[tuple[int, str, str, int | None]]) -> Any:
    def change(state: dict[str, Any]) -> None:
        state["ledger"] = [
            {
                "seq": seq, "major": "Germany", "amount": 5 if kind == "grant" else -5,
                "kind": kind, "rule": "82.22", "moment": "1939-fall/axis/diplomacy",
                "minor": minor, "level": "brps", "base": 5, "undoes": undoes,
            }
            for seq, kind, minor, undoes in entries
        ]  # fmt: skip

    return change


@pytest.mark.parametrize(
    ("check", "change", "expected"),
    [
        pytest.param(
            fits, _sweden(major="Germany"), "Sweden is neutral with major Germany",
            marks=pytest.mark.rule("82.11"), id="neutral-with-a-major",
        ),
        pytest.param(
            fits, _sweden(status="associated", major=None), "Sweden is associated with no major",
            marks=pytest.mark.rule("82.11"), id="associated-without-major",
        ),
        pytest.param(
            fits, _sweden(at_war_with=["Russia"]), "Sweden is neutral yet at war",
            marks=pytest.mark.rule("82.11"), id="at-peace-at-war",
        ),
        pytest.param(
            fits, _sweden(status="associated", major="Britain", at_war_with=[]),
            "Sweden does not share Britain's wars", marks=pytest.mark.rule("82.12"),
            id="tie-without-wars",
        ),
        pytest.param(
            ties_with_enemies,
            _sweden(status="associated", major="Germany", direct_wars=["Germany"]),
            "Sweden is associated with Germany, which is at war with it", id="tie-with-enemy",
        ),
        pytest.param(
            broken_bars, _sweden(status="allied", major="Britain", barred=["Britain"]),
            "Sweden is allied with Britain, barred by 82.351", marks=pytest.mark.rule("82.351"),
            id="barred",
        ),
        pytest.param(
            conquered_units,
            lambda s: s["minors"]["Australia"].update(status="conquered", major="Japan"),
            "australia-1 of conquered Australia is on the map", marks=pytest.mark.rule("82.11G"),
            id="conquered-units",
        ),
        pytest.param(
            ledger_problems, _ledger([(1, "deduction", "Sweden", 7)]),
            "deduction 1 undoes 7, no earlier grant", marks=pytest.mark.rule("82.22"),
            id="no-grant",
        ),
        pytest.param(
            ledger_problems,
            _ledger([(1, "grant", "Sweden", None), (2, "deduction", "Turkey", 1)]),
            "deduction 2 (Germany, Turkey) undoes grant 1 (Germany, Sweden)",
            marks=pytest.mark.rule("82.22"), id="other-minor",
        ),
        pytest.param(
            ledger_problems,
            _ledger([(1, "grant", "Sweden", None), (2, "deduction", "Sweden", 1),
                     (3, "deduction", "Sweden", 1)]),
            "grant 1 is deducted twice: by 2 and 3", marks=pytest.mark.rule("82.22"),
            id="twice",
        ),
    ],
)  # fmt: skip
def test_each_invariant_finds_its_breach(check: Any, change: Any, expected: str) -> None:
    """Each state invariant passes on the start and names the breach of a tampered state."""
    assert check(Game.new()) == []
    problems = check(_tampered(change))
    assert any(p.startswith(expected) for p in problems), problems


@pytest.mark.parametrize(
    ("cache", "expected"),
    [
        ("where", "the where index"),
        ("owned", "the owned index"),
        ("grants", "active grants"),
        ("totals", "BRP totals"),
        ("_key", "the position key"),
    ],
)
def test_stale_caches_are_found(cache: str, expected: str) -> None:
    """A derived cache of the board that disagrees with the units, the ledger or the
    position is named."""
    game = Game.new()
    game.advance_to("1940-spring/axis/diplomacy")
    game.apply(command("diplomatic_result", minor="Sweden", major="Germany", result=8))
    game.key()  # the key is kept from now on
    assert kit.stale_caches(game) == []
    board = game.play().board
    wrong = {
        "where": {**board.where, "Sweden": ("australia-1",)},
        "owned": {"Germany": ("australia-1",)},
        "grants": {"Sweden": ()},
        "totals": {**board.totals, "Germany": board.totals["Germany"] + 1},
        "_key": board.key() ^ 1,
    }[cache]
    setattr(board, cache, wrong)
    assert any(p.startswith(expected) for p in kit.stale_caches(game))


def _fails(machine: type[MinorsStateMachine], message: str) -> None:
    """The machine fails with an AssertionError matching `message`."""
    quick = settings(
        max_examples=60,
        stateful_step_count=20,
        deadline=None,
        database=None,
        phases=[HypothesisPhase.generate],
        suppress_health_check=list(HealthCheck),
    )
    with pytest.raises(AssertionError, match=message):
        run_state_machine_as_test(machine, settings=quick)


def test_check_and_apply_agree_catches_a_lying_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check() that passes everything is caught: apply refuses what check passed."""
    monkeypatch.setattr(Game, "check", lambda self, cmd: [])
    _fails(MinorsStateMachine, "which check passed")


def test_a_refusal_that_changes_the_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """An apply() that moves the clock before refusing is caught."""
    original = Game.apply

    def apply(self: Game, cmd: minors.Command) -> list[minors.Effect]:
        try:
            return original(self, cmd)
        except RuleViolation:
            self.advance_to(minors.Moment(self.clock.index + 1))
            raise

    monkeypatch.setattr(Game, "apply", apply)
    _fails(MinorsStateMachine, "refused .* and still changed")


def test_a_clone_that_shares_the_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone() that returns the game itself is caught."""
    monkeypatch.setattr(Game, "clone", lambda self: self)
    _fails(MinorsStateMachine, "clone")


def test_a_log_that_does_not_replay_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay that does not reproduce the game is caught at the end of the run."""
    monkeypatch.setattr(minors.audit.log, "replay", lambda path, **kw: Game.new())
    _fails(MinorsStateMachine, "replaying the log gives another state")


def test_the_log_is_checked_every_log_every_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every log_every steps the log is verified and replayed, and play goes on on a new log."""
    checks: list[int] = []
    verify = minors.audit.log.verify

    def counting(path: Any, **kw: Any) -> Any:
        checks.append(1)
        return verify(path, **kw)

    monkeypatch.setattr(minors.audit.log, "verify", counting)

    class Often(MinorsStateMachine):
        log_every = 3

    run_state_machine_as_test(
        Often, settings=settings(max_examples=3, stateful_step_count=10, deadline=None)
    )
    assert len(checks) > 3  # more than one check per run: the end of the run is not all


# ---- the docs' examples -------------------------------------------------------------------


def test_the_docs_subclass_with_an_extra_invariant_runs() -> None:
    """docs/testing.md's ConquestIsFinal machine runs, and its invariant can fail."""
    namespace: dict[str, Any] = {}
    exec(compile(_block("python", "class ConquestIsFinal"), "docs/testing.md", "exec"), namespace)
    machine = namespace["ConquestIsFinal"]
    run_state_machine_as_test(machine, settings=settings(max_examples=8, deadline=None))
    probe = machine()
    try:
        probe.conquered = {"W. Poland": "Germany"}  # as if Poland had fallen a step ago
        with pytest.raises(AssertionError):
            probe.conquest_is_final()
    finally:
        probe.teardown()


@pytest.mark.rule("82.351")
@pytest.mark.rule("82.81")
def test_an_own_faction_partner_is_barred(tmp_path: Path) -> None:
    """An own-faction 82.81 partner is barred (82.351): the minor stays independent."""
    overlay = tmp_path / "association.toml"
    overlay.write_text(_block("toml", "[association.axis]"), encoding="utf-8")
    game = Game.new([overlay])
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Sweden"))
    effects = game.advance_to("1940-summer/axis/diplomacy")
    sweden = game.minor("Sweden")
    assert (sweden.status, sweden.major, sweden.pending) == (Status.INDEPENDENT, None, None)
    assert Note("Sweden stays independent: Germany is barred (82.351)", "82.351") in effects
    assert state_problems(game) == []


# ---- the pytest plugin --------------------------------------------------------------------


def _house(pytester: pytest.Pytester) -> Path:
    path = pytester.path / "house.toml"
    path.write_text(_block("toml", "Vichy France"), encoding="utf-8")
    return path


@pytest.mark.rule("82.11")
def test_plugin_fails_the_broken_house_rule_with_its_steps(pytester: pytest.Pytester) -> None:
    """--minors-ruleset fails the docs' broken overlay and prints the shrunk steps."""
    house = _house(pytester)
    result = pytester.runpytest_subprocess("--minors-ruleset", str(house), "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "minors: + 1 item, MinorsStateMachine under *house.toml",
            "*AssertionError: Vichy France is neutral yet at war with *Britain*",
            "state = RulesetMachine()",
            "*Surrender(major='France')",
            "*@reproduce_failure(*",
            "*1 failed*",
        ]
    )


def test_plugin_passes_a_sound_overlay_in_an_empty_project(pytester: pytest.Pytester) -> None:
    """A valid overlay that breaks nothing passes: one item, run and passed."""
    path = pytester.path / "brps.toml"
    path.write_text("[minors.Sweden]\nbrps = 25\n\n[brp_rules.partial]\namount = 3\n")
    result = pytester.runpytest_subprocess("--minors-ruleset", str(path), "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["minors-ruleset[[]brps.toml[]] .*", "*1 passed*"])


def test_plugin_is_idle_without_the_option(pytester: pytest.Pytester) -> None:
    """Without --minors-ruleset a project's run is its own: its tests, nothing added."""
    pytester.makepyfile("def test_one():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*test_one PASSED*", "*1 passed*"])
    result.stdout.no_fnmatch_line("*minors-ruleset*")
    result.stdout.no_fnmatch_line("*MinorsStateMachine*")


def test_plugin_is_off_with_p_no_minors(pytester: pytest.Pytester) -> None:
    """`-p no:minors` disables the plugin: its option is unknown."""
    house = _house(pytester)
    result = pytester.runpytest_subprocess("-p", "no:minors", "--minors-ruleset", str(house))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unrecognized arguments: --minors-ruleset*"])


def test_plugin_reports_a_bad_overlay_as_a_usage_error(pytester: pytest.Pytester) -> None:
    """A malformed overlay stops the run with the table error, naming the field."""
    path = pytester.path / "bad.toml"
    path.write_text('[minors.Sweden]\nbrps = "many"\n')
    result = pytester.runpytest_subprocess("--minors-ruleset", str(path))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--minors-ruleset: *bad.toml*field 'brps'*"])


def test_plugin_without_hypothesis(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Hypothesis pytest runs as usual, and --minors-ruleset says what to install."""
    blocked = pytester.mkdir("blocked")
    (blocked / "hypothesis").mkdir()
    (blocked / "hypothesis" / "__init__.py").write_text("raise ImportError('no hypothesis')\n")
    monkeypatch.setenv("PYTHONPATH", str(blocked))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # Hypothesis's own plugin
    pytester.makepyfile("def test_one():\n    assert True\n")
    plain = pytester.runpytest_subprocess("-p", "minors.pytest_plugin", "-p", "no:cacheprovider")
    assert plain.ret == pytest.ExitCode.OK
    plain.stdout.fnmatch_lines(["*1 passed*"])
    asked = pytester.runpytest_subprocess(
        "-p", "minors.pytest_plugin", "--minors-ruleset", str(_house(pytester))
    )
    assert asked.ret == pytest.ExitCode.USAGE_ERROR
    asked.stderr.fnmatch_lines(
        ["*--minors-ruleset needs Hypothesis*: pip install 'minors[[]testing[]]'*"]
    )


def test_the_kit_without_hypothesis_says_what_to_install(pytester: pytest.Pytester) -> None:
    """Without Hypothesis, importing the kit (`minors.testing.kit`, or a name of
    `minors.testing`) fails naming the extra to install and how, from a checkout too."""
    blocked = pytester.mkdir("blocked")
    (blocked / "hypothesis").mkdir()
    (blocked / "hypothesis" / "__init__.py").write_text("raise ImportError('no hypothesis')\n")
    for statement in ("import minors.testing.kit", "from minors.testing import games"):
        proc = subprocess.run(
            [sys.executable, "-c", statement],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(blocked)},
            check=False,
        )
        assert proc.returncode == 1, statement
        last = proc.stderr.strip().splitlines()[-1]
        assert last.startswith("ModuleNotFoundError: minors.testing"), last
        assert "pip install 'minors[testing]'" in last
        assert "pip install -e '.[testing]'" in last


# ---- planted bugs: the machine finds each in the CI profile -------------------------------


PLANTED = [
    pytest.param(
        ("minors.rules82.conquest", "conquer",
         "for unit in sorted(p.board.units_of(minor), key=lambda u: u.id):", "for unit in ():"),
        "of conquered .* is on the map", id="a-conquest-leaves-units",
        marks=pytest.mark.rule("82.11G"),
    ),
    pytest.param(
        ("minors.rules82.diplomacy", "deduct_all", "undoes=grant.seq,", "undoes=None,"),
        "undoes None, no earlier grant", id="a-deduction-names-no-grant",
        marks=pytest.mark.rule("82.22"),
    ),
    pytest.param(
        ("minors.rules82.limits", "_enforce", "for limit in limits_on(p, group):",
         "for limit in ():"),
        "counted factors", id="limits-never-enforced", marks=pytest.mark.rule("82.321B"),
    ),
    pytest.param(
        ("minors.rules82.ties", "refresh_wars", "if wars == old:", "if True:"),
        "does not share|which .* is not", id="wars-never-refreshed",
        marks=pytest.mark.rule("82.12"),
    ),
]  # fmt: skip


_SEARCH = """
import sys
sys.path.insert(0, {root!r})
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test
import minors.testing
from minors.testing import MinorsStateMachine
from tests.rules82.test_survivor_kinds import mutant

ci = settings.get_profile("minors-ci")
search = settings(ci, phases=[Phase.explicit, Phase.generate])
try:
    with mutant(*{bug!r}):
        run_state_machine_as_test(MinorsStateMachine, settings=search)
except AssertionError as exc:
    print("FOUND", str(exc).splitlines()[0] if str(exc) else "")
else:
    print("NOT FOUND")
"""


@pytest.mark.parametrize(("bug", "message"), PLANTED)
def test_the_machine_finds_each_planted_bug_in_the_ci_profile(
    bug: tuple[str, str, str, str], message: str
) -> None:
    """With a bug planted in the rules (a change of one function's source), the machine
    under the minors-ci profile's search (its examples and steps, derandomized; shrinking
    left out) fails with the invariant that names it. Each search runs in a fresh
    interpreter, so that what other tests left in this one cannot steer it."""
    code = _SEARCH.format(root=str(paths.ROOT), bug=bug)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.stdout.startswith("FOUND"), done.stdout + done.stderr[-2000:]
    assert re.search(message, done.stdout), done.stdout
