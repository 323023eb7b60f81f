"""Property tests of the kernel from the Fall 1939 start (Hypothesis)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import minors
from minors import Game, MinorsError, RuleViolation, Status, command
from minors.tx import TIED, Tx

RS = minors.load_ruleset()
MAJORS = sorted(RS.majors)
MINORS = sorted(RS.minors)
COUNTRIES = MAJORS + MINORS
UNIT_IDS = [f"u{i}" for i in range(6)]

names = st.sampled_from(COUNTRIES)
majors = st.sampled_from(MAJORS)
minors_ = st.sampled_from(MINORS)
unit_specs = st.builds(
    lambda i, owner, kind, factors: {"id": i, "owner": owner, "kind": kind, "factors": factors},
    st.sampled_from(UNIT_IDS),
    names,
    st.sampled_from([k.value for k in minors.UnitKind]),
    st.integers(0, 6),
)
commands = st.one_of(
    st.builds(
        lambda m, j, r: command("diplomatic_result", minor=m, major=j, result=r),
        minors_,
        majors,
        st.integers(-5, 12),
    ),
    st.builds(lambda a, t: command("declare_war", attacker=a, target=t), majors, names),
    st.builds(lambda a, t: command("border_war", attacker=a, target=t), majors, minors_),
    st.builds(lambda m, b: command("conquer", minor=m, by=b), minors_, majors),
    st.builds(lambda j, m: command("refuse_association", major=j, minor=m), majors, minors_),
    st.builds(lambda j: command("surrender", major=j), majors),
    st.builds(lambda j: command("reenter_war", major=j), majors),
    st.builds(lambda j, m: command("subvert", major=j, minor=m), majors, minors_),
    st.builds(lambda u, c: command("place", units=[u], **{"in": c}), unit_specs, names),
    st.builds(lambda u, c: command("move", units=[u], to=c), st.sampled_from(UNIT_IDS), names),
    st.builds(lambda u: command("remove", units=[u]), st.sampled_from(UNIT_IDS)),
)


def fits(game: Game) -> list[str]:
    """What is wrong with the statuses, majors and wars of the minors (empty if all fit)."""
    problems = []
    tx = Tx(game.raw_state, game.ruleset, frozenset(), game.hooks)
    for name, m in game.raw_state.minors.items():
        if m.status in (Status.NEUTRAL, Status.INDEPENDENT) and m.major is not None:
            problems.append(f"{name} is {m.status} with major {m.major}")
        if m.status not in (Status.NEUTRAL, Status.INDEPENDENT) and m.major is None:
            problems.append(f"{name} is {m.status} with no major")
        if (
            m.status
            in (Status.NEUTRAL, Status.BRPS_ATTRIBUTED, Status.HEXES_CONTROLLED, Status.CONQUERED)
            and m.at_war_with
        ):
            problems.append(f"{name} is {m.status} yet at war with {m.at_war_with}")
        if m.status in TIED and m.major is not None:
            if m.major in m.at_war_with:
                problems.append(f"{name} is {m.status} with {m.major} and at war with it")
            missing = set(tx.enemies(m.major)) - set(m.at_war_with) - {m.major}
            if missing:
                problems.append(f"{name} does not share {m.major}'s wars with {missing}")
        if m.status in (Status.ASSOCIATED, Status.ALLIED) and m.major in m.barred:
            problems.append(f"{name} is {m.status} with {m.major}, barred by 82.351")
        if list(m.at_war_with) != sorted(set(m.at_war_with)):
            problems.append(f"{name}'s wars are not sorted and unique")
    for unit in game.raw_state.units.values():
        owner = game.raw_state.minors.get(unit.owner)
        if owner is not None and owner.status is Status.CONQUERED:
            problems.append(f"{unit.id} of conquered {unit.owner} is on the map")
    return problems


class KernelMachine(RuleBasedStateMachine):
    """Random commands and clock moves from the Fall 1939 start."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Game.new()

    @rule(cmd=commands)
    def apply_any(self, cmd: minors.Command) -> None:
        """check() == [] exactly when apply succeeds; a rejected command changes nothing."""
        before_state, before_log = self.game.state(), self.game.log
        try:
            problems = self.game.check(cmd)
        except MinorsError:
            problems = None  # malformed for this game (a name of the wrong kind)
        refused: MinorsError | None = None
        try:
            self.game.apply(cmd)
        except MinorsError as exc:
            refused = exc
        if isinstance(refused, RuleViolation):
            event(f"rejected: {refused.rule}")
            assert problems, "apply refused a command that check passed"
            assert [v.rule for v in refused.violations] == [v.rule for v in problems]
        elif refused is not None:
            assert problems is None  # malformed: check raised the same kind of error
        else:
            event(f"applied: {cmd.name}")
            assert problems == [], "apply accepted a command that check refused"
        if refused is not None:
            assert self.game.state() == before_state
            assert self.game.log == before_log

    @rule(steps=st.integers(1, 14))
    def advance(self, steps: int) -> None:
        """The clock moves forward with the rules run on the way."""
        target = minors.Moment(self.game.clock.index + steps)
        self.game.advance_to(target)
        assert self.game.clock == target

    @precondition(lambda self: self.game.clock.phase.value in ("declarations", "combat"))
    @rule(data=st.data())
    def apply_legal(self, data: st.DataObject) -> None:
        """Every command legal_actions lists passes check and applies."""
        kinds = ["declare_war", "conquer", "border_war", "move", "remove", "refuse_association"]
        legal = self.game.legal_actions(kinds)
        for cmd in legal[:: max(1, len(legal) // 12)]:
            assert self.game.check(cmd) == []
        if legal:
            chosen = data.draw(st.sampled_from(legal))
            event(f"legal: {chosen.name}")
            self.game.apply(chosen)

    @rule(cmd=commands)
    def clone_is_independent(self, cmd: minors.Command) -> None:
        """Changing a clone never changes the original, and the reverse."""
        other = self.game.clone()
        before = self.game.state()
        with contextlib.suppress(MinorsError):
            other.apply(cmd)
        other.advance_to(minors.Moment(other.clock.index + 3))
        assert self.game.state() == before
        assert len(self.game.log) <= len(other.log)

    @invariant()
    def statuses_fit(self) -> None:
        """Every minor's major and wars fit its status; no unit of a conquered minor."""
        assert fits(self.game) == []

    @invariant()
    def state_round_trips(self) -> None:
        """Game.from_state(state()) is the same state."""
        state = self.game.state()
        assert Game.from_state(state).state() == state


TestKernel = KernelMachine.TestCase
TestKernel.settings = settings(
    max_examples=60,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@given(cmd=commands)
@settings(max_examples=150, deadline=None)
def test_only_minors_errors_escape(cmd: minors.Command) -> None:
    """Whatever the command, only MinorsError subclasses escape check and apply."""
    game = Game.new()
    for moment in (
        "1939-fall/axis/diplomacy",
        "1939-fall/axis/declarations",
        "1939-fall/axis/combat",
        "1939-fall/allies/diplomacy",
    ):
        game.advance_to(moment)
        try:
            game.check(cmd)
            game.apply(cmd)
        except MinorsError:
            pass


SCRIPT = [
    ("1939-fall/axis/declarations", command("declare_war", attacker="Germany", target="Sweden")),
    (
        "1939-fall/allies/diplomacy",
        command("diplomatic_result", minor="Turkey", major="Britain", result=-1),
    ),
    (
        "1939-fall/allies/movement",
        command(
            "place",
            units=[{"id": "b1", "owner": "Britain", "kind": "infantry", "factors": 2}],
            **{"in": "Turkey"},
        ),
    ),
    (
        "1939-winter/axis/diplomacy",
        command("diplomatic_result", minor="Turkey", major="Germany", result=8),
    ),
    ("1939-winter/axis/declarations", command("declare_war", attacker="Italy", target="Britain")),
    ("1939-winter/axis/combat", command("conquer", minor="Poland", by="Germany")),
    ("1939-winter/axis/construction", command("surrender", major="France")),
]


def _writes() -> list[str]:
    return ["put", "put_unit", "drop_unit", "record", "add_war", "eliminate", "refresh_wars"]


@pytest.mark.parametrize("method", _writes())
def test_a_failure_inside_any_effect_changes_nothing(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception raised at any write of any command leaves state() and the log as they
    were: the successor is built aside and committed by one assignment."""
    original = getattr(Tx, method)
    for index, (at, cmd) in enumerate(SCRIPT):
        calls = {"n": 0}
        for fail_at in range(1, 40):
            game = Game.new()
            for earlier_at, earlier in SCRIPT[:index]:
                game.advance_to(earlier_at)
                game.apply(earlier)
            game.advance_to(at)
            before_state, before_log = game.state(), game.log

            def failing(
                self: Tx,
                *args: Any,
                _fail_at: int = fail_at,
                _calls: dict[str, int] = calls,
                **kw: Any,
            ) -> Any:
                _calls["n"] += 1
                if _calls["n"] == _fail_at:
                    raise RuntimeError("injected")
                return original(self, *args, **kw)

            calls["n"] = 0
            monkeypatch.setattr(Tx, method, failing)
            try:
                game.apply(cmd)
            except RuntimeError:
                assert game.state() == before_state
                assert game.log == before_log
            finally:
                monkeypatch.setattr(Tx, method, original)
            if calls["n"] < fail_at:
                break  # this command makes fewer writes of this kind: all were tried


def _run_sample(seed: str) -> str:
    code = (
        "import json, minors; from minors.scenario import SAMPLE;"
        "g = minors.run_scenario(SAMPLE);"
        "print(json.dumps([g.state(), [e.to_dict() for e in g.log]], sort_keys=True))"
    )
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout


def test_results_do_not_depend_on_the_hash_seed() -> None:
    """Two PYTHONHASHSEED values give the same state, effects and order."""
    first, second = _run_sample("1"), _run_sample("4242")
    assert json.loads(first) == json.loads(second)
    assert first == second
