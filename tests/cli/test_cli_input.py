"""The command line meeting bad input and asking for one thing: the error document of
`--json` (exit 2), a broken rule on standard error, `minors tables NAME ENTRY` with
suggestions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import minors
from minors.cli import main
from tests.paths import DATA

CONTRACT = DATA / "contract"


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


BAD_TARGET = """[scenario]
name = "t"
start = "1939-fall"

[[do]]
at = "1940-spring/axis/declarations"
command = "declare_war"
attacker = "Germany"
target = "Atlantis"
"""


def test_json_with_a_malformed_file_prints_an_error_document(tmp_path: Path) -> None:
    """`run --json` on a malformed file: exit 2, one line on stderr, and on stdout a JSON
    document holding only `error` (no clock: not a state) naming the file and command."""
    path = write(tmp_path, BAD_TARGET)
    proc = subprocess.run(
        [sys.executable, "-m", "minors", "run", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    document = json.loads(proc.stdout)
    assert set(document) == {"error"}
    error = document["error"]
    assert error["exit"] == 2
    assert error["kind"] == "ScenarioError"
    assert error["file"] == str(path)
    assert error["command"] == 1
    assert "Atlantis" in error["message"]
    assert proc.stderr.strip() == f"minors: error: {error['message']}"


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["run", "--until", "1940-sprung/axis/diplomacy", "--json"], "ScenarioError"),
        (["replay", "no-such.log", "--json"], "LogUnavailable"),
        (["nationality", "Atlantean", "--date", "1942-06", "--json"], "UnknownNameError"),
        (["tables", "minors", "Swedn", "--json"], "UnknownNameError"),
    ],
)
def test_every_json_command_prints_an_error_document(args: list[str], kind: str) -> None:
    """Each `--json` command that exits 2 prints the error document on stdout."""
    code, out, err = cli(*args)
    assert code == 2
    document = json.loads(out)
    assert document["error"]["kind"] == kind
    assert document["error"]["message"] in err


def test_a_bad_overlay_with_json_names_the_overlay(tmp_path: Path) -> None:
    """`tables --json --ruleset bad.toml`: the error document's `file` is the overlay."""
    path = write(tmp_path, "[minors.Sweden]\nbrps = 'ten'\n", "bad.toml")
    code, out, _ = cli("tables", "--json", "--ruleset", str(path))
    assert code == 2
    error = json.loads(out)["error"]
    assert (error["kind"], error["file"], error["command"]) == ("TableError", str(path), None)


@pytest.mark.rule("82.41")
def test_a_broken_rule_without_json_goes_to_stderr() -> None:
    """Without --json, exit 3 prints the report of the state before the command on stdout
    and the broken rule on stderr; with --json the error stays in the JSON on stdout."""
    code, out, err = cli("run", str(CONTRACT / "illegal.toml"))
    assert code == 3
    assert "broke rule" not in out
    assert "Sweden: neutral → independent" in out
    assert err.startswith("minors: command 2 broke rule 82.41: ")
    code, out, err = cli("run", str(CONTRACT / "illegal.toml"), "--json")
    assert code == 3
    assert json.loads(out)["error"]["rule"] == "82.41"
    assert err == ""


def test_tables_name_and_entry() -> None:
    """`minors tables minors Sweden` shows that entry, field by field; `--json` gives it
    in the shape of the whole table's JSON; a country is found by any of its names."""
    code, out, _ = cli("tables", "minors", "Sweden")
    assert code == 0
    assert out.splitlines()[0] == "minors.Sweden"
    assert any(line.startswith("│ capital ") and "Stockholm" in line for line in out.splitlines())
    code, out, _ = cli("tables", "minors", "Sweden", "--json")
    document = json.loads(out)
    assert document["digest"] == minors.load_ruleset().digest
    assert list(document["tables"]) == ["minors"]
    assert document["tables"]["minors"]["Sweden"]["capital"] == "Stockholm"
    code, out, _ = cli("tables", "forces", "poland", "--json")
    assert code == 0
    assert list(json.loads(out)["tables"]["forces"]) == ["W. Poland"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["tables", "minor"],
            "unknown table 'minor'; did you mean 'minors'? "
            "(`minors tables --help` lists the tables)",
        ),
        (
            ["tables", "Sweden"],
            "unknown table 'Sweden' ('Sweden' is an entry of minors, forces, "
            "country_nationality: try `minors tables minors Sweden`)",
        ),
        (["tables", "minors", "Swedn"], "unknown minors entry 'Swedn'; did you mean 'Sweden'?"),
    ],
)
def test_unknown_tables_and_entries_suggest(args: list[str], expected: str) -> None:
    """An unknown table or entry exits 2 in one line with the closest names (no word-broken
    list of every choice)."""
    code, out, err = cli(*args)
    assert code == 2
    assert out == ""
    assert err.strip().splitlines() == [f"minors: error: {expected}"]


def test_date_is_required_unless_a_scenario_gives_it() -> None:
    """`minors nationality --help` says --date is needed only without --scenario."""
    code, out, _ = cli("nationality", "--help")
    assert code == 0
    assert "(required unless --scenario)" in " ".join(out.split())
