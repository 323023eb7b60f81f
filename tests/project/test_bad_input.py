"""Bad input, run in-process through the command line (click's CliRunner) and the API:
malformed, truncated, binary, huge, deep or unreadable scenarios and overlays each end in
exit 2 with one line on standard error, no traceback and nothing written, within a time
bound; typed commands of every kind with arbitrary field values apply, or raise a
`MinorsError` (a `ValueError` when malformed) and leave the game exactly as it was.

Large inputs are made here in a temporary folder, never committed.
"""

from __future__ import annotations

import functools
import os
import random
import time
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import minors
from minors import (
    ClockError,
    CommandError,
    CountryName,
    Game,
    MajorName,
    MinorName,
    MinorsError,
    RuleViolation,
    UnitIds,
    UnitKind,
)
from minors.cli import main
from minors.domain.reading import MAX_BYTES, MAX_DEPTH, MAX_KEY_PARTS
from minors.rules82.commands import (
    KINDS,
    ChooseLosses,
    DeclareWar,
    Deploy,
    DiplomaticResult,
    Move,
    Place,
    Placement,
    Remove,
    TraceSupply,
    UnitSpec,
)
from minors.scenario import SAMPLE
from tests.kinds import field_names, vocabulary_key

BOUND = 10.0
"""Seconds any bad input may take before exit 2: a guard against hangs and blow-ups (a
FIFO that blocks, a quadratic parse), far above what each takes; not a speed target."""

LONGEST_LINE = 2_200
"""The longest error line: the command line cuts a message at 2,000 characters."""

HEAD = '[scenario]\nname = "bad"\nstart = "1939-fall"\n'
STAMP = 'at = "1940-spring/axis/declarations"\n'


def refused(*args: str, written: tuple[Path, ...] = ()) -> str:
    """Run `minors ARGS` in-process; assert exit 2, exactly one line on standard error and
    no traceback, within `BOUND`, with none of `written` made; return the line."""
    start = time.perf_counter()
    result = CliRunner().invoke(main, list(args))
    elapsed = time.perf_counter() - start
    assert result.exit_code == 2, (result.exit_code, result.stderr[-300:], result.exception)
    assert isinstance(result.exception, SystemExit), result.exception  # not caught by click
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines[:4]
    assert lines[0].startswith("minors: "), lines[0][:200]
    assert "Traceback" not in result.stderr + result.stdout
    assert len(lines[0]) <= LONGEST_LINE, len(lines[0])
    assert elapsed < BOUND, f"{elapsed:.1f} s"
    for path in written:
        assert not path.exists(), f"{path} was written"
    return lines[0]


def run_refused(tmp_path: Path, content: bytes | str, *more: str) -> str:
    """`minors run` on a scenario file of `content`, asked to write a log and a page:
    refused (see `refused`), nothing written, nothing on standard output."""
    path = tmp_path / "bad.toml"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    log, page = tmp_path / "out.jsonl", tmp_path / "out.html"
    return refused(
        "run", str(path), "--log", str(log), "--html", str(page), *more, written=(log, page)
    )


def one_command(kind: str, fields: dict[str, str], at: str = STAMP) -> str:
    """A scenario of one command: `fields` are TOML literals by vocabulary key."""
    body = "".join(f"{key} = {value}\n" for key, value in fields.items())
    return f'{HEAD}\n[[do]]\n{at}command = "{kind}"\n{body}'


# ---- the inputs of issue 15 ---------------------------------------------------------------


def _deep_array(depth: int) -> str:
    return f"{HEAD}x = {'[' * depth}{']' * depth}\n"


def _dotted(parts: int) -> str:
    return f"{HEAD}{'.'.join(['a'] * parts)} = 1\n"


ISSUE_CASES: dict[str, tuple[Callable[[], str], str]] = {
    "array nested 1,000 deep": (lambda: _deep_array(1000), "nested deeper"),
    "array nested just past the limit": (lambda: _deep_array(MAX_DEPTH), "nested deeper"),
    "inline tables nested 1,000 deep": (
        lambda: f"{HEAD}x = {'{a = ' * 1000}1{'}' * 1000}\n",
        "nested deeper",
    ),
    "an integer of 5,000 digits": (
        lambda: one_command(
            "diplomatic_result",
            {"minor": '"Turkey"', "major": '"Germany"', "result": "9" * 5000},
        ),
        "digits",
    ),
    "a dotted key 50,000 deep (100 KB)": (lambda: _dotted(50_000), "dotted key"),
    "a dotted key just past the limit": (lambda: _dotted(MAX_KEY_PARTS + 1), "dotted key"),
    "a table header 50,000 deep": (
        lambda: f"{HEAD}[{'.'.join(['a'] * 50_000)}]\n",
        "dotted key",
    ),
    "advancing to year 9999": (
        lambda: one_command(
            "surrender", {"major": '"Britain"'}, at='at = "9999-spring/axis/diplomacy"\n'
        ),
        "calendar",
    ),
    "a 3 MB unknown name": (
        lambda: one_command(
            "declare_war", {"attacker": '"Germany"', "target": f'"{"A" * 3_000_000}"'}
        ),
        "3,000,000 characters",
    ),
    "a 50 MB unknown name": (
        lambda: one_command(
            "declare_war", {"attacker": '"Germany"', "target": f'"{"A" * 50_000_000}"'}
        ),
        "larger than",
    ),
}


@pytest.mark.parametrize("case", list(ISSUE_CASES))
def test_the_inputs_of_issue_15_exit_2_in_one_line(tmp_path: Path, case: str) -> None:
    """Each malformed or costly scenario of the issue exits 2 quickly with one line that
    says what is wrong, writing nothing."""
    make, says = ISSUE_CASES[case]
    line = run_refused(tmp_path, make())
    assert says in line
    assert "bad.toml" in line


def test_an_until_beyond_the_calendar_is_refused(tmp_path: Path) -> None:
    """`--until` after the calendar's last moment exits 2 before anything is played."""
    line = run_refused(tmp_path, HEAD, "--until", "9999-winter/allies/construction")
    assert "last moment 1949-winter/allies/construction" in line


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """A FIFO given as a scenario or an overlay never blocks: not a regular file, exit 2."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    assert "not a regular file" in refused("run", str(fifo))
    assert "not a regular file" in refused("tables", "--ruleset", str(fifo))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize(
    "args",
    [
        ["run", "/dev/zero"],
        ["run", "--ruleset", "/dev/zero"],
        ["tables", "--ruleset", "/dev/zero"],
        ["nationality", "Finnish", "--date", "1942-06", "--ruleset", "/dev/zero"],
    ],
)
def test_dev_zero_is_refused_not_read(args: list[str]) -> None:
    """/dev/zero is never read into memory: not a regular file, exit 2."""
    assert "not a regular file" in refused(*args)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["run", ""], "the path is empty"),
        (["run", "--ruleset", ""], "the path is empty"),
        (["tables", "--ruleset", ""], "the path is empty"),
        (["run", "no-such-scenario.toml"], "No such file"),
    ],
)
def test_empty_and_missing_paths_are_refused(args: list[str], says: str) -> None:
    """`minors run ""` is an error (it played the built-in campaign), as is a missing
    file."""
    assert says in refused(*args)


def test_a_path_with_a_nul_is_a_scenario_error() -> None:
    """A path with a NUL in it (no shell can pass one) is a ScenarioError from the API."""
    with pytest.raises(minors.ScenarioError, match="cannot read the scenario"):
        minors.run_scenario("a\0b.toml")
    with pytest.raises(minors.TableError, match="cannot read overlay"):
        minors.load_ruleset(["a\0b.toml"])


def test_a_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    """A folder given as a scenario or an overlay: one line, not click's usage text."""
    assert "a folder" in refused("run", str(tmp_path))
    assert "a folder" in refused("tables", "--ruleset", str(tmp_path))


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    """A file larger than the limit (a sparse 50 MB file here) is refused by its size."""
    big = tmp_path / "big.toml"
    with big.open("wb") as stream:
        stream.truncate(50 * 1024 * 1024)
    assert f"larger than {MAX_BYTES:,} bytes" in refused("run", str(big))
    assert f"larger than {MAX_BYTES:,} bytes" in refused("tables", "--ruleset", str(big))


@pytest.mark.parametrize(
    "args",
    [
        ["tables", "minors", "A" * 50_000_000],
        ["tables", "A" * 50_000_000],
        ["nationality", "A" * 50_000_000, "--date", "1942-06"],
        ["run", "--until", "A" * 50_000_000],
    ],
    ids=["tables entry", "tables name", "nationality", "until"],
)
def test_a_50_mb_name_on_the_command_line_is_cut(args: list[str]) -> None:
    """A 50 MB unknown name is named in the error by its start and length, not echoed."""
    assert "50,000,000 characters" in refused(*args)


def test_a_broken_rule_quoting_a_huge_value_is_one_cut_line(tmp_path: Path) -> None:
    """A command that breaks a rule over a 300 KB unit id (exit 3) says so in one line on
    standard error, cut, not echoed whole."""
    path = tmp_path / "huge.toml"
    path.write_text(one_command("remove", {"units": f'["{"u" * 300_000}"]'}))
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 3
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert "broke rule K3" in lines[0]
    assert "cut: 300,0" in lines[0]
    assert len(lines[0]) <= LONGEST_LINE


# ---- overlays ------------------------------------------------------------------------------


OVERLAY_CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "a major at war with itself": (
        '[starts."1939-fall"]\nwars = [["Germany", "Germany"]]\n',
        ("entry 'starts.1939-fall'", "field 'wars'", "at war with itself", "fix:"),
    ),
    "a clause its own parent": (
        '[clauses."82.34"]\nparent = "82.34"\n',
        ("entry 'clauses.82.34'", "field 'parent'", "its own parent", "fix:"),
    ),
    "clauses each other's parent": (
        '[clauses."82.31"]\nparent = "82.32"\n[clauses."82.32"]\nparent = "82.31"\n',
        ("entry 'clauses.82.31'", "field 'parent'", "its own ancestor", "fix:"),
    ),
    "a calendar ending before its start": (
        '[starts."1939-fall"]\nlast_moment = "1939-spring/axis/diplomacy"\n',
        ("entry 'starts.1939-fall'", "field 'last_moment'", "fix:"),
    ),
    "a calendar end that is no moment": (
        '[starts."1939-fall"]\nlast_moment = "soon"\n',
        ("field 'last_moment'", "is not a moment"),
    ),
    "a new start without a calendar": (
        '[starts.later]\nclock = "1941-spring/axis/diplomacy"\n',
        ("entry 'starts.later'", "last_moment"),
    ),
    "nested 1,000 deep": (f"x = {'[' * 1000}{']' * 1000}\n", ("nested deeper",)),
    "a dotted key 50,000 deep": (f"{'.'.join(['a'] * 50_000)} = 1\n", ("dotted key",)),
    "an integer of 5,000 digits": (
        f"[minors.Sweden]\nbrps = {'9' * 5000}\n",
        ("digits",),
    ),
    "a 3 MB table name": (f'["{"t" * 3_000_000}"]\n', ("3,000,000 characters",)),
    "a wrong type": ('[minors.Sweden]\nbrps = "many"\n', ("entry 'minors.Sweden'", "brps")),
    "not UTF-8": ('[minors.Sweden]\nnote = "\udcff"\n', ("UTF-8",)),
}


@pytest.mark.parametrize("case", list(OVERLAY_CASES))
def test_malformed_overlays_exit_2_naming_what_is_wrong(tmp_path: Path, case: str) -> None:
    """Each malformed overlay exits 2 from `minors tables --ruleset` in one line naming
    the file and, for a table entry, the entry, field and fix."""
    text, says = OVERLAY_CASES[case]
    path = tmp_path / "house.toml"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    line = refused("tables", "--ruleset", str(path))
    assert "house.toml" in line
    for part in says:
        assert part in line


@pytest.mark.parametrize(
    "command",
    [
        ["run", "--ruleset"],
        ["nationality", "Finnish", "--date", "1942-06", "--ruleset"],
        ["nationality", "Finnish", "--scenario", SAMPLE, "--at", "1940-spring", "--ruleset"],
    ],
    ids=["run", "nationality", "nationality --scenario"],
)
def test_every_command_reading_overlays_refuses_a_bad_one(
    tmp_path: Path, command: list[str]
) -> None:
    """`--ruleset` refuses a malformed overlay in one line wherever it is accepted."""
    path = tmp_path / "house.toml"
    path.write_text('[starts."1939-fall"]\nwars = [["Germany", "Germany"]]\n')
    assert "at war with itself" in refused(*command, str(path))


def test_an_overlay_moves_the_calendar(tmp_path: Path) -> None:
    """The calendar's last moment is a table setting: an overlay moves it, and the game
    and the scenario check follow it."""
    house = tmp_path / "long.toml"
    house.write_text('[starts."1939-fall"]\nlast_moment = "1955-winter/allies/construction"\n')
    game = Game.new([house])
    assert str(game.last_moment) == "1955-winter/allies/construction"
    game.advance_to("1950-spring/axis/diplomacy")
    assert str(game.clock) == "1950-spring/axis/diplomacy"
    short = tmp_path / "short.toml"
    short.write_text('[starts."1939-fall"]\nlast_moment = "1940-winter/allies/construction"\n')
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        one_command("surrender", {"major": '"France"'}, at='at = "1941-spring/axis/movement"\n')
    )
    assert CliRunner().invoke(main, ["run", str(scenario), "--ruleset", str(house)]).exit_code == 0
    line = refused("run", str(scenario), "--ruleset", str(short))
    assert "command 1" in line
    assert "last moment 1940-winter/allies/construction" in line


def test_advancing_past_the_calendar_is_a_clock_error() -> None:
    """`advance_to` past the last moment raises ClockError (a ValueError) and leaves the
    game as it was; up to the last moment it advances."""
    game = Game.new()
    state, key = game.state(), game.key()
    with pytest.raises(ClockError, match="last moment"):
        game.advance_to("9999-winter/allies/construction")
    assert isinstance(ClockError("x"), ValueError)
    assert (game.state(), game.key(), len(game.log)) == (state, key, 0)
    game.advance_to(game.last_moment)
    assert game.clock == game.last_moment


# ---- a generated variety of malformed scenarios ----------------------------------------------


def test_binary_junk_exits_2(tmp_path: Path) -> None:
    """Random bytes, NULs, a UTF-16 text and a gzip header: each exits 2 in one line."""
    draw = random.Random(15)
    samples = [bytes(draw.randrange(256) for _ in range(n)) for n in (1, 7, 64, 512, 4096)]
    samples += [b"\0" * 100, HEAD.encode("utf-16"), b"\x1f\x8b\x08\x00" + b"\0" * 20]
    samples += [HEAD.encode() + b"\xff\xfe junk", b"[scenario]\x00start = 1"]
    for data in samples:
        run_refused(tmp_path, data)


TRUNCATIONS = 30


def test_truncated_scenarios_never_break_the_command_line(tmp_path: Path) -> None:
    """The sample campaign cut at 30 places runs (exit 0 or 3) or exits 2 in one line,
    never a traceback."""
    from importlib.resources import files

    whole = (files("minors") / "samples" / SAMPLE).read_bytes()
    path = tmp_path / "cut.toml"
    exits = set()
    for cut in range(1, len(whole), len(whole) // TRUNCATIONS):
        path.write_bytes(whole[:cut])
        result = CliRunner().invoke(main, ["run", str(path)])
        assert result.exit_code in (0, 2, 3), (cut, result.exception)
        assert "Traceback" not in result.stderr
        if result.exit_code == 2:
            assert len(result.stderr.splitlines()) == 1, result.stderr
        exits.add(result.exit_code)
    assert 2 in exits  # some cuts are malformed,
    assert exits - {2}  # and some still run


SCENARIO_CASES: dict[str, tuple[str, str]] = {
    "no [scenario]": ('[[do]]\nat = "1940-spring"\n', "missing the [scenario] table"),
    "scenario is not a table": ("scenario = 5\n", "missing the [scenario] table"),
    "start a number": ("[scenario]\nstart = 1939\n", "needs start"),
    "start unknown": ('[scenario]\nstart = "1066-fall"\n', "unknown start"),
    "name a table": ('[scenario]\nstart = "1939-fall"\nname = { a = 1 }\n', ""),
    "ruleset a string": ('[scenario]\nstart = "1939-fall"\nruleset = "x.toml"\n', "ruleset"),
    "ruleset of numbers": ('[scenario]\nstart = "1939-fall"\nruleset = [5]\n', "ruleset"),
    "ruleset missing": ('[scenario]\nstart = "1939-fall"\nruleset = ["no.toml"]\n', "no.toml"),
    "an unknown field": ('[scenario]\nstart = "1939-fall"\nturns = 3\n', "unknown field"),
    "an unknown table": (f"{HEAD}[extra]\n", "unknown table"),
    "do a table": (f"{HEAD}[do]\nat = 1\n", "[[do]]"),
    "do of numbers": (f"do = [1, 2]\n{HEAD}", "not a table"),
    "at missing": (f'{HEAD}[[do]]\ncommand = "surrender"\nmajor = "France"\n', "'at'"),
    "at a number": (f'{HEAD}[[do]]\nat = 1940\ncommand = "surrender"\n', "'at'"),
    "at a date": (f'{HEAD}[[do]]\nat = 1940-05-10\ncommand = "surrender"\n', "'at'"),
    "command missing": (f"{HEAD}[[do]]\n{STAMP}major = 'France'\n", "'command'"),
    "command a list": (f"{HEAD}[[do]]\n{STAMP}command = ['surrender']\n", "'command'"),
    "command unknown": (f"{HEAD}[[do]]\n{STAMP}command = 'surender'\n", "unknown command"),
    "command 3 MB long": (
        f"{HEAD}[[do]]\n{STAMP}command = '{'s' * 3_000_000}'\n",
        "3,000,000 characters",
    ),
}

MOMENTS = {
    "a misspelt season": "1940-sprung/axis/diplomacy",
    "a side missing": "1940-spring/diplomacy",
    "a two-digit year": "40-spring/axis/diplomacy",
    "empty": "",
    "before the start": "1939-spring/axis/diplomacy",
    "year 0000": "0000-spring/axis/diplomacy",
    "after the calendar": "1950-spring/axis/diplomacy",
    "a 3 MB moment": "1" * 3_000_000,
}
for _name, _moment in MOMENTS.items():
    SCENARIO_CASES[f"at {_name}"] = (
        one_command("surrender", {"major": '"France"'}, at=f'at = "{_moment}"\n'),
        "command 1",
    )
SCENARIO_CASES["at going back"] = (
    one_command("surrender", {"major": '"France"'})
    + '\n[[do]]\nat = "1940-spring/axis/diplomacy"\ncommand = "reenter_war"\nmajor = "France"\n',
    "goes back",
)


@pytest.mark.parametrize("case", list(SCENARIO_CASES))
def test_malformed_scenarios_exit_2(tmp_path: Path, case: str) -> None:
    """Each malformed [scenario] table, [[do]] entry or moment exits 2 in one line."""
    text, says = SCENARIO_CASES[case]
    assert says in run_refused(tmp_path, text)


# ---- wrong types at every field of every command ---------------------------------------------

BASE: dict[str, dict[str, str]] = {
    "declare_war": {"attacker": '"Germany"', "target": '"Sweden"', "displace": '"Stockholm"'},
    "border_war": {"attacker": '"Russia"', "target": '"Finland"'},
    "subvert": {"major": '"Russia"', "minor": '"Estonia"'},
    "refuse_association": {"major": '"Britain"', "minor": '"Norway"'},
    "surrender": {"major": '"France"'},
    "reenter_war": {"major": '"France"'},
    "diplomatic_result": {
        "minor": '"Turkey"',
        "major": '"Germany"',
        "result": "8",
        "roll": "6",
        "modifiers": "[1, 1]",
    },
    "deploy": {"minor": '"Norway"', "placements": "[PLACEMENT]"},
    "conquer": {"minor": '"Denmark"', "by": '"Germany"'},
    "trace_supply": {"units": '["ger-1"]', "through": '"Sweden"'},
    "choose_losses": {"minor": '"Sweden"', "units": '["ger-1"]'},
    "place": {"units": "[UNIT]", "in": '"Germany"', "hex": '"Berlin"'},
    "move": {"units": '["ger-1"]', "to": '"Sweden"', "hex": '"Stockholm"'},
    "remove": {"units": '["ger-1"]'},
}
"""One well-formed command of each kind, its fields as TOML literals."""

RECORDS = {
    "UNIT": {"id": '"ger-1"', "owner": '"Germany"', "kind": '"infantry"', "factors": "3"},
    "PLACEMENT": {"id": '"n-1"', "kind": '"infantry"', "factors": "1", "hex": '"Oslo"'},
}

WRONG = {
    "text": ["5", "1.5", "true", "[]", '["Sweden"]', "{ a = 1 }", "1979-05-27"],
    "int": ['"8"', "8.5", "true", "[8]", "{ a = 1 }", "1979-05-27T07:32:00"],
    "ints": ['"1"', "1", "[true]", '["1"]', "[[1]]", "{ a = 1 }"],
    "ids": ["5", "[5]", "[true]", '[["ger-1"]]', "{ a = 1 }", "[]", '["ger-1", "ger-1"]'],
    "records": ["5", '"ger-1"', "[5]", '["ger-1"]', "[]", "[{}]", "{ a = 1 }"],
    "count": ['"3"', "-1", "1.5", "true", "[3]"],
    "kind": ['"tank"', "5", "[]"],
}


def _literal(record: dict[str, str]) -> str:
    return "{ " + ", ".join(f"{k} = {v}" for k, v in record.items()) + " }"


def _shape(hint: Any, what: Any) -> str:
    """Which list of `WRONG` values fits a field of type `hint`."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    base = args[0] if typing.get_origin(hint) is not tuple and args else hint
    if what is UnitIds:
        return "ids"
    if typing.get_origin(base) is tuple:
        return "ints" if typing.get_args(base)[0] is int else "records"
    return "int" if base is int else "kind" if base is UnitKind else "text"


def _field_cases() -> list[tuple[str, str, str, list[str]]]:
    """(kind, field path, the scenario template, wrong values) for every field of every
    kind, and every field of the records in them."""
    cases = []
    for name, cls in KINDS.items():
        hints, named = typing.get_type_hints(cls), field_names(cls)
        keys = {vocabulary_key(a.name): a for a in attrs.fields(cls)}
        assert set(keys) == set(BASE[name]), f"teach BASE the fields of {name}"
        for key, a in keys.items():
            shape = _shape(hints[a.name], named.get(a.name))
            fields = {k: v if k != key else "WRONG" for k, v in BASE[name].items()}
            cases.append((name, key, one_command(name, fields), WRONG[shape]))
        for holder, record_cls in (("UNIT", UnitSpec), ("PLACEMENT", Placement)):
            key = next((k for k, v in BASE[name].items() if holder in v), None)
            if key is None:
                continue
            record_hints = typing.get_type_hints(record_cls)
            for a in attrs.fields(record_cls):
                shape = "count" if a.name == "factors" else _shape(record_hints[a.name], None)
                if a.name == "owner":
                    shape = "text"
                record = {k: v if k != a.name else "WRONG" for k, v in RECORDS[holder].items()}
                text = one_command(name, BASE[name]).replace(holder, _literal(record))
                cases.append((name, f"{key}.0.{a.name}", text, WRONG[shape]))
    return cases


FIELD_CASES = _field_cases()


def _expand(text: str) -> str:
    for holder, record in RECORDS.items():
        text = text.replace(holder, _literal(record))
    return text


@pytest.mark.parametrize(
    ("kind", "key", "template", "values"),
    FIELD_CASES,
    ids=[f"{kind}.{key}" for kind, key, _, _ in FIELD_CASES],
)
def test_a_wrong_type_at_any_field_exits_2(
    tmp_path: Path, kind: str, key: str, template: str, values: list[str]
) -> None:
    """A value of the wrong type (or empty, or a unit twice) at any field of any command,
    nested records included, exits 2 naming the command and the field."""
    for value in values:
        line = run_refused(tmp_path, _expand(template.replace("WRONG", value)))
        assert "command 1" in line
        assert kind in line
        assert key.split(".")[0] in line or key.split(".")[-1] in line, (value, line)


NAME_FIELDS = [
    (kind, vocabulary_key(a.name))
    for kind, cls in KINDS.items()
    for a in attrs.fields(cls)
    if field_names(cls).get(a.name) in (MinorName, MajorName, CountryName)
]


@pytest.mark.parametrize(("kind", "key"), NAME_FIELDS, ids=[f"{k}.{f}" for k, f in NAME_FIELDS])
def test_an_unknown_name_at_any_name_field_exits_2(tmp_path: Path, kind: str, key: str) -> None:
    """An unknown country at any field that names one exits 2 naming it (a long one is
    cut: see the inputs of issue 15)."""
    fields = {**BASE[kind], key: '"Atlantis"'}
    line = run_refused(tmp_path, _expand(one_command(kind, fields)))
    assert "unknown country 'Atlantis'" in line
    assert "command 1" in line


# ---- typed commands with arbitrary values (the API) -------------------------------------------


@functools.cache
def games() -> tuple[Game, ...]:
    """Games to try commands on: the start, and Spring 1940's movement phase with a German
    unit placed and Sweden attacked (its units deployed)."""
    later = Game.new()
    later.advance_to("1940-spring/axis/declarations")
    later.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    later.advance_to("1940-spring/axis/movement")
    unit = {"id": "ger-1", "owner": "Germany", "kind": "infantry", "factors": 3}
    later.apply(minors.command("place", units=[unit], **{"in": "Germany"}))
    return Game.new(), later


@functools.cache
def before(which: int) -> tuple[dict[str, Any], int, int]:
    """The state, key and log length of `games()[which]` (and of every clone of it)."""
    game = games()[which]
    return game.state(), game.key(), len(game.log)


@functools.cache
def pools() -> dict[Any, tuple[Any, ...]]:
    rs = minors.load_ruleset()
    majors, minors_ = (*rs.majors, "USA", "germany"), (*rs.minors, "poland", "Romania")
    hexes = tuple(sorted({h for m in rs.minors.values() for h in m.hexes}))[:20]
    ids = (*sorted(games()[1].raw_state.units)[:6], "u9")
    return {
        MajorName: majors,
        MinorName: minors_,
        CountryName: (*majors, *minors_),
        "names": (*majors, *minors_, "Atlantis", ""),
        "hexes": (*hexes, "Nowhere"),
        "ids": ids,
    }


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**30),
    st.floats(),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.just(()),
    st.just([]),
    st.lists(st.integers() | st.text(max_size=4), max_size=3),
    st.lists(st.integers() | st.text(max_size=4) | st.none(), max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from(tuple(UnitKind)),
    st.just("A" * 100_000),
    st.builds(object),
)
"""Values of every type, for any field."""


def _record(cls: type[Any], fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """Records of `cls` with these fields, or the junk that its constructor refused (a
    `CommandError`, so that the commands holding it are tried too)."""

    def build(values: dict[str, Any]) -> Any:
        try:
            return cls(**values)
        except CommandError:
            return values

    return st.fixed_dictionaries(fields).map(build)


def _valid(cls: type[Any], a: attrs.Attribute[Any], junk: bool) -> st.SearchStrategy[Any]:
    """Values of the right type for field `a` of `cls`; with `junk`, malformed ones too
    (an unknown name, a minor where a major belongs, no unit, a unit twice)."""
    p = pools()
    what = field_names(cls).get(a.name)
    hint = typing.get_type_hints(cls)[a.name]
    if what is UnitIds:
        ids = st.lists(st.sampled_from(p["ids"]), min_size=1, max_size=3, unique=True)
        return (ids | st.lists(st.sampled_from(p["ids"]), max_size=3) if junk else ids).map(tuple)
    if what in (MinorName, MajorName, CountryName):
        return st.sampled_from(p["names"] if junk else p[what])
    if a.name in ("hex", "displace"):
        return st.none() | st.sampled_from(p["hexes"])
    if hint in (int, int | None):
        return st.integers(-5, 12)
    if hint == tuple[int, ...]:
        return st.lists(st.integers(-3, 3), max_size=2).map(tuple)
    kinds = st.sampled_from(tuple(UnitKind)) | st.sampled_from([k.value for k in UnitKind])
    counts = st.integers(-1, 6)
    if hint == tuple[UnitSpec, ...]:
        spec = {"id": st.sampled_from(p["ids"]), "owner": st.sampled_from(p["names"])}
        unit = _record(UnitSpec, {**spec, "kind": kinds | JUNK, "factors": counts | JUNK})
        return st.lists(unit, max_size=2).map(tuple)
    if hint == tuple[Placement, ...]:
        place = {"id": st.sampled_from(p["ids"]), "kind": kinds | JUNK}
        spot = {"factors": counts | JUNK, "hex": st.sampled_from(p["hexes"]) | JUNK}
        return st.lists(_record(Placement, {**place, **spot}), max_size=3).map(tuple)
    raise AssertionError(f"teach _valid the field {cls.__name__}.{a.name}")


@st.composite
def typed_commands(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A command kind of rule 82 and arbitrary values for its fields (its optional ones
    left out at times): half the commands have values of the right type only, so that
    the rules see them too."""
    kind = draw(st.sampled_from(sorted(KINDS)))
    cls = KINDS[kind]
    junk = draw(st.booleans())
    fields = {}
    for a in attrs.fields(cls):
        if a.default is not attrs.NOTHING and draw(st.booleans()):
            continue
        valid = _valid(cls, a, junk)
        fields[a.name] = draw(st.one_of(valid, JUNK) if junk else valid)
    return kind, fields


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=typed_commands(), which=st.sampled_from((0, 1)))
def test_typed_commands_with_arbitrary_fields_apply_or_raise(
    drawn: tuple[str, dict[str, Any]], which: int
) -> None:
    """A typed command of any kind, any value in any field: building it raises nothing but
    a CommandError; check and apply work or raise a MinorsError (malformed: a ValueError),
    and after an error the game is unchanged (state, key, log). What apply accepts, its log
    entry rebuilds (so that a log of it verifies)."""
    kind, fields = drawn
    try:
        cmd = KINDS[kind](**fields)
    except CommandError:
        return
    game = games()[which].clone()
    error: MinorsError | None = None
    try:
        game.check(cmd)
        game.apply(cmd)
    except MinorsError as exc:
        error = exc
    event(type(error).__name__ if error is not None else "applied")
    if error is not None:
        assert isinstance(error, RuleViolation | ValueError), repr(error)
        assert (game.state(), game.key(), len(game.log)) == before(which)
        return
    written = dict(game.log[-1].command)
    rebuilt = game.command(written.pop("command"), **written)
    assert rebuilt == game.resolve(cmd)


@pytest.mark.parametrize(
    "cmd",
    [
        Remove(()),
        Move((), "Sweden"),
        TraceSupply((), "Sweden"),
        ChooseLosses("Sweden", ()),
        Place((), "Germany"),
        Deploy("Sweden", ()),
    ],
    ids=lambda c: c.name,
)
def test_commands_with_no_units_are_refused(cmd: Any) -> None:
    """A command with an empty unit list is malformed (a CommandError naming the field),
    not a logged no-op whose log would not verify."""
    game = games()[1].clone()
    before = (game.state(), game.key(), len(game.log))
    for attempt in (game.check, game.apply):
        with pytest.raises(CommandError, match="at least one"):
            attempt(cmd)
    assert (game.state(), game.key(), len(game.log)) == before


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda: DeclareWar(5, "Sweden"), "must be a name, not 5"),  # type: ignore[arg-type]
        (lambda: DeclareWar("Germany", ["Sweden"]), "must be a name"),  # type: ignore[arg-type]
        (lambda: DeclareWar("Germany", "Sweden", 5), "'displace' must be text"),  # type: ignore[arg-type]
        (lambda: Move("ger-1", "Sweden"), "'units' must be a tuple"),  # type: ignore[arg-type]
        (lambda: Remove((None,)), "'units'"),  # type: ignore[arg-type]
        (lambda: Remove(("ger-1", "ger-1")), "listed twice"),
        (lambda: DiplomaticResult("Turkey", "Germany", True), "'result' must be a whole number"),
        (lambda: DiplomaticResult("Turkey", "Germany", 8, None, (1.5,)), "'modifiers'"),  # type: ignore[arg-type]
        (
            lambda: Place((UnitSpec("u", "Germany", "tank", 1),), "Germany"),  # type: ignore[arg-type]
            "kind must be one of",
        ),
    ],
)
def test_wrong_field_types_raise_a_command_error(make: Callable[[], Any], says: str) -> None:
    """Typed commands with fields of the wrong type raise CommandError (a ValueError)
    naming the field, from check and apply alike, not AttributeError or TypeError."""
    game = games()[1].clone()
    for attempt in (game.check, game.apply):
        with pytest.raises(CommandError, match=says):
            attempt(make())


def test_a_factor_count_is_checked_when_a_record_is_built() -> None:
    """UnitSpec and Placement refuse a factor count that is not a whole number of at least
    0 with a CommandError, not a TypeError."""
    for bad in (-1, "3", 1.5, True, None):
        with pytest.raises(CommandError, match="factors"):
            UnitSpec("u", "Germany", UnitKind.INFANTRY, bad)  # type: ignore[arg-type]
        with pytest.raises(CommandError, match="factors"):
            Placement("u", UnitKind.INFANTRY, bad, "Oslo")  # type: ignore[arg-type]


def test_a_unit_kind_given_as_text_is_made_a_member() -> None:
    """`kind="infantry"` in a typed UnitSpec is read as the member: the unit is placed."""
    game = games()[1].clone()
    game.apply(Place((UnitSpec("ger-9", "Germany", "infantry", 2),), "Germany"))  # type: ignore[arg-type]
    assert game.unit("ger-9").kind is UnitKind.INFANTRY
