"""Rulebook situations as scenario files (tests/data/scenarios/*.toml) with their expected
outcome (the .json beside each), run through `run_scenario` as `minors run` runs them.

The expected file holds `clauses` (the rules the situation shows; each becomes a `rule`
marker), optionally `until`, `exit` (0, or 3 with `error_rule`, `error_command` and, if
given, one of its violations' `error_message`) and the
parts of the JSON state to compare: `minors` (a subset of minors, each field given is
compared), `units`, `eliminated`, `brps` (subsets) and `clock`; `state`, fields of the
complete state (`Game.state()`: `{"minors": {name: {field: value}}}` and top-level keys),
for what the JSON state leaves out (standings, bars, deadlines, who attacked first); and
`notes`, the texts of the log's notes under each clause given, in order. Every situation's
log is also compared, effect for effect, with `data/scenarios/effects.json` (written by
`python -m tests.rules82.test_scenarios` after a deliberate change of what the rules log). A
second test switches the clauses off (or those in `disable`) and checks the outcome
changes: the situation really depends on the rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from minors import Game, LedgerEntry, Note, PhaseEnded, ScenarioRuleViolation, run_scenario
from tests.paths import SCENARIOS


def _cases() -> list[Any]:
    cases = []
    for path in sorted(SCENARIOS.glob("*.toml")):
        expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        clauses = expected["clauses"]
        marks = [pytest.mark.rule(clause) for clause in clauses]
        cases.append(pytest.param(path, expected, id=path.stem, marks=marks))
    return cases


def play(
    path: Path, expected: dict[str, Any], disabled: frozenset[str] = frozenset()
) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """(exit status, JSON state, complete state) as `minors run --json` would end; the
    complete state carries the log's notes under `notes` (clause -> texts, in order)."""
    try:
        game = run_scenario(path, expected.get("until"), disabled=disabled)
    except ScenarioRuleViolation as exc:
        document = exc.game.to_json()
        document["error"] = exc.error_object()
        return 3, document, _with_notes(exc.game)
    return 0, game.to_json(), _with_notes(game)


def _with_notes(game: Game) -> dict[str, Any]:
    notes: dict[str, list[str]] = {}
    for entry in game.log:
        for effect in entry.effects:
            if isinstance(effect, Note):
                notes.setdefault(effect.rule, []).append(effect.text)
    effects = [
        _line(effect)
        for entry in game.log
        for effect in entry.effects
        if not isinstance(effect, PhaseEnded)  # the clock's own, in every log alike
    ]
    return {**game.state(), "notes": notes, "effects": effects}


def _line(effect: Any) -> str:
    """An effect as one short line: its kind and fields (a ledger entry by what it moves)."""
    fields = []
    for name, value in attrs.asdict(effect, recurse=False).items():
        if isinstance(value, LedgerEntry):
            value = (
                f"{value.major} {value.amount:+d} {value.kind.value} {value.rule} {value.minor} "
                f"{value.level.name if value.level is not None else ''} undoes={value.undoes}"
            )
        fields.append(f"{name}={value}")
    return f"{type(effect).__name__} {'; '.join(fields)}"


EFFECTS = SCENARIOS / "effects.json"
"""Every effect each situation's log holds, as the rules logged it when the file was written
(`python -m tests.rules82.test_scenarios` writes it): what the audit log says, note for note."""


def _golden() -> dict[str, list[str]]:
    found: dict[str, list[str]] = json.loads(EFFECTS.read_text(encoding="utf-8"))
    return found


CASES = _cases()


@pytest.mark.parametrize(("path", "expected"), CASES)
def test_situation(path: Path, expected: dict[str, Any], json_schema: Any) -> None:
    """The situation plays out as the rulebook says (its expected JSON), and its JSON state
    follows the `state` schema."""
    state = check_situation(path, expected)
    json_schema("state", state, str(path))


def check_situation(path: Path, expected: dict[str, Any]) -> dict[str, Any]:
    """Play the situation and assert its expected outcome; its JSON state."""
    code, state, complete = play(path, expected)
    assert code == expected.get("exit", 0), state["error"]
    if code == 3:
        assert state["error"]["rule"] == expected["error_rule"]
        assert state["error"]["command"] == expected["error_command"]
        if "error_message" in expected:
            messages = [v["message"] for v in state["error"]["violations"]]
            assert expected["error_message"] in messages, messages
    for name, fields in expected.get("minors", {}).items():
        actual = state["minors"][name]
        assert {k: actual[k] for k in fields} == fields, name
    for unit_id, fields in expected.get("units", {}).items():
        if fields is None:
            assert unit_id not in state["units"]
        else:
            assert unit_id in state["units"], f"{unit_id} is not on the map"
            assert {k: state["units"][unit_id].get(k) for k in fields} == fields, unit_id
    if "eliminated" in expected:
        assert state["eliminated"] == expected["eliminated"]
    for major, brps in expected.get("brps", {}).items():
        assert state["brps"][major] == brps, major
    if "clock" in expected:
        assert state["clock"] == expected["clock"]
    for key, wanted in expected.get("state", {}).items():
        if key == "minors":
            for name, fields in wanted.items():
                actual = complete["minors"][name]
                assert {k: actual[k] for k in fields} == fields, name
        else:
            assert complete[key] == wanted, key
    for clause, texts in expected.get("notes", {}).items():
        assert complete["notes"].get(clause, []) == texts, clause
    assert complete["effects"] == _golden()[path.stem], "the log's effects differ"
    return state


@pytest.mark.parametrize(("path", "expected"), CASES)
def test_situation_depends_on_its_rule(path: Path, expected: dict[str, Any]) -> None:
    """With its clauses switched off, the situation plays out differently (in the JSON or
    in the complete state: the ledger, standings, bars ...)."""
    disabled = frozenset(expected.get("disable", expected["clauses"]))
    assert play(path, expected, disabled) != play(path, expected)


def test_there_are_situations() -> None:
    """The data folder is not empty (a missing folder must not pass silently)."""
    assert len(CASES) >= 10


if __name__ == "__main__":  # write the effects every situation logs (EFFECTS)
    written = {}
    for param in CASES:
        case_path, case_expected = param.values
        written[case_path.stem] = play(case_path, case_expected)[2]["effects"]
    EFFECTS.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(written)} situations' effects written to {EFFECTS}")
