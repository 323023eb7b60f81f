"""Property tests of the kernel from the Fall 1939 start (Hypothesis).

The invariants are those of `minors.testing.MinorsStateMachine`, written once there: statuses
and majors fit (82.11), tied minors share their major's wars, no tie with an enemy, 82.351
bars hold, no unit of a conquered minor, deductions undo grants (82.22), `check` and `apply`
agree, a rejected command changes nothing, clones are independent, `from_state` round-trips,
and the audit log replays to the same state.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings

import minors
from minors import Board, Game, MinorsError, command
from minors.testing import MinorsStateMachine, commands, conquered_units


@pytest.mark.rule("82.11")
@pytest.mark.rule("82.11G")
@pytest.mark.rule("82.12")
@pytest.mark.rule("82.22")
@pytest.mark.rule("82.351")
class TestKernel(MinorsStateMachine.TestCase):
    """Legal play, arbitrary commands and clock moves keep every invariant of the machine."""


@pytest.mark.rule("82.11G")
@pytest.mark.rule("82.13")
def test_a_conquered_minor_receives_no_more_forces() -> None:
    """Canada, conquered in 1939, places none of its later arrivals (82.11G)."""
    game = Game.new()
    game.advance_to("1939-fall/axis/combat")
    game.apply(command("conquer", minor="Canada", by="Germany"))
    game.advance_to("1941-winter/allies/construction")
    assert conquered_units(game) == []


@given(cmd=commands())
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
    return ["write", "update", "replace", "put_unit", "drop_unit", "record"]


@pytest.mark.parametrize("method", _writes())
def test_a_failure_inside_any_effect_changes_nothing(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception raised at any write of any command leaves state() and the log as they
    were: the successor is built aside and committed by one assignment."""
    original = getattr(Board, method)
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
                self: Board,
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
            monkeypatch.setattr(Board, method, failing)
            try:
                game.apply(cmd)
            except RuntimeError:
                assert game.state() == before_state
                assert game.log == before_log
            finally:
                monkeypatch.setattr(Board, method, original)
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
