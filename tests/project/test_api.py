"""The public surface: documented names are exported, alphabetised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import minors
from minors import auditlog
from minors.cli import main
from tests.paths import DOCS


def test_all_is_alphabetised_and_importable() -> None:
    """`minors.__all__` is sorted and every name in it exists."""
    assert list(minors.__all__) == sorted(minors.__all__)
    for name in minors.__all__:
        assert hasattr(minors, name)


def test_documented_names_are_exported() -> None:
    """What docs/tables.md promises is in __all__."""
    for name in (
        "MinorsError",
        "TableError",
        "UnknownNameError",
        "load_ruleset",
        "Ruleset",
        "Status",
    ):
        assert name in minors.__all__


def test_errors_inherit_the_builtins_they_resemble() -> None:
    """TableError is a ValueError, UnknownNameError a LookupError, both MinorsErrors."""
    assert issubclass(minors.TableError, ValueError)
    assert issubclass(minors.UnknownNameError, LookupError)
    assert issubclass(minors.TableError, minors.MinorsError)
    assert issubclass(minors.UnknownNameError, minors.MinorsError)


def test_tables_are_found_as_package_data() -> None:
    """The tables load from the package's `_tables`, in a checkout or an install."""
    from minors.ruleset.loader import builtin_tables

    names = sorted(t.name for t in builtin_tables().iterdir() if t.name.endswith(".toml"))
    assert "minors.toml" in names
    assert "clauses.toml" in names


def test_legal_actions_take_one_kind_as_a_string() -> None:
    """`legal_actions(kinds="declare_war")` is that one kind (not its letters), the same as
    a list of it; an unknown kind names the closest."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    one = game.legal_actions(kinds="declare_war")
    assert one
    assert one == game.legal_actions(kinds=["declare_war"])
    assert {type(c) for c in one} == {minors.DeclareWar}
    with pytest.raises(minors.CommandError, match="'declare_wat': did you mean 'declare_war'"):
        game.legal_actions(kinds="declare_wat")


def test_a_game_repr_says_where_it_stands() -> None:
    """`repr(game)` names the rulebook, the clock, the tables, what is switched off and how
    much is going on."""
    game = minors.Game.new(disabled=["82.34"])
    game.advance_to("1940-spring/axis/declarations")
    text = repr(game)
    assert text.startswith("<Game rulebook 'rule82'; at 1940-spring/axis/declarations; tables ")
    assert game.ruleset.digest[:12] in text
    assert "disabled ['82.34']" in text
    assert f"{len(game.raw_state.units)} units on the map" in text
    assert text.endswith("; 1 log entry>")


def test_a_file_sink_is_a_context_manager(tmp_path: Path) -> None:
    """`with minors.auditlog.open(game, path):` closes the log when the block ends: the
    game is detached and the log verifies; also when the block raised."""
    game = minors.Game.new()
    with auditlog.open(game, tmp_path / "a.log") as sink:
        game.advance_to("1940-spring/axis/declarations")
        game.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    assert game.attach(None) is None
    assert auditlog.verify(tmp_path / "a.log").ok
    assert sink.entries == 2
    game = minors.Game.new()

    def play_an_illegal_command() -> None:
        with auditlog.open(game, tmp_path / "b.log"):
            game.advance_to("1940-spring/axis/declarations")
            game.apply(minors.command("declare_war", attacker="Germany", target="Germany"))

    with pytest.raises(minors.RuleViolation):
        play_an_illegal_command()
    verdict = auditlog.verify(tmp_path / "b.log")
    assert verdict.ok
    assert verdict.entries == 1
    assert verdict.describe() == f"ok: 1 entry verified; head {verdict.head}"


def test_run_and_replay_print_units_in_one_order(tmp_path: Path) -> None:
    """`run --json` and `replay --json` of its log list `units` in the same order (by id):
    the same document, key for key."""
    log = tmp_path / "run.log"
    runner = CliRunner()
    ran = runner.invoke(main, ["run", "--json", "--log", str(log)])
    replayed = runner.invoke(main, ["replay", str(log), "--json"])
    assert ran.exit_code == replayed.exit_code == 0
    run_units = list(json.loads(ran.stdout)["units"])
    assert run_units == sorted(run_units)
    assert run_units == list(json.loads(replayed.stdout)["units"])
    assert ran.stdout == replayed.stdout


def test_three_views_of_the_state_are_told_apart() -> None:
    """`raw_state` is records, `state()` the complete plain data, `to_json()` its summary:
    the docstrings and docs/api.md say which is which."""
    game = minors.Game.new()
    assert isinstance(game.raw_state.minors["Sweden"], minors.MinorState)
    assert isinstance(game.state()["minors"]["Sweden"], dict)
    assert set(game.to_json()["minors"]["Sweden"]) == {"status", "major", "at_war_with"}
    for name in ("raw_state", "state", "to_json"):
        doc = getattr(minors.Game, name).__doc__
        assert doc is not None
        assert all(
            other in doc for other in {"raw_state", "state()", "to_json()"} - {name, f"{name}()"}
        )
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    assert "## Three views of one state" in api
