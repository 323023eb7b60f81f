"""What the command line writes when its output is not a terminal (a pipe, a file): whole
lines, no cut cells, no colour; a console that cannot encode a character gets a fallback,
never a crash; the report's sentences (rule ids once, deployments grouped, "1 entry")."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import minors
from minors.audit.report import unit_list

MOMENT_LINE = re.compile(
    r"^(axis|allies)/(diplomacy|declarations|movement|combat|redeployment|construction): "
)


def minors_cli(*args: str, encoding: str = "utf-8", cwd: Path | None = None) -> tuple[int, str]:
    """`minors ARGS | cat`: the command with its standard output a pipe, as text."""
    proc = subprocess.run(
        [sys.executable, "-m", "minors", *args],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": "80"},
        cwd=cwd,
        check=False,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")
    # click writes UTF-8 to a stream it finds misconfigured as ASCII
    return proc.returncode, proc.stdout.decode("utf-8" if encoding == "ascii" else encoding)


@pytest.fixture(scope="module")
def sample_report() -> str:
    code, out = minors_cli("run")
    assert code == 0
    return out


def test_run_piped_splits_no_sentence(sample_report: str) -> None:
    """`minors run | cat`: every line of a turn is a turn heading or one whole sentence that
    starts with its moment and ends with its rule id; names and moments stay whole."""
    turns = sample_report.split("\nMinor countries at ")[0]
    for line in turns.splitlines():
        if not line or line.startswith("── "):
            continue
        assert MOMENT_LINE.match(line), line
        assert "» " in line or re.search(r"  \[[0-9A-Z.]+\]$", line), line
    assert (
        "axis/combat: W. Poland: independent → conquered (Germany) — Germany conquers "
        "W. Poland  [82.11G]\n" in sample_report
    )
    assert max(len(line) for line in sample_report.splitlines()) > 80  # not cut at 80


def test_run_piped_has_no_colour_and_whole_table_rows(sample_report: str) -> None:
    """No escape codes; each row of the summary table is one line, its major and wars whole."""
    assert "\x1b[" not in sample_report
    rows = [line for line in sample_report.splitlines() if line.startswith("│ ")]
    assert rows, sample_report[-2000:]
    assert any(
        re.match(r"│ Finland +│ associated +│ Germany +│ Britain, Russia +│$", r) for r in rows
    )
    assert sample_report.splitlines()[-1].startswith("BRP credits from rule 82: Germany ")
    assert "Russia +0" in sample_report.splitlines()[-1]


def test_tables_piped_cut_no_cell() -> None:
    """`minors tables minors | cat`: no cell is cut short ("Stock…"); each minor's row is
    one line holding its full name and capital."""
    code, out = minors_cli("tables", "minors")
    assert code == 0
    assert "…" not in out
    rs = minors.load_ruleset()
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.startswith("│ ")}
    for name, minor in rs.minors.items():
        shown = (
            name + (" *" if minor.illustrative else "") + ("" if minor.active else " (inactive)")
        )
        assert shown in rows, name
        if minor.capital:
            assert minor.capital in rows[shown], name
    assert "Stockholm" in rows["Sweden"]


@pytest.mark.parametrize(
    "view", ["forces", "commonwealth", "powers", "diplomacy", "limits", "clauses"]
)
def test_every_view_piped_cuts_nothing(view: str) -> None:
    """Every view of `minors tables` piped: no ellipsis, and every table line is a whole
    row (it starts and ends with a border)."""
    code, out = minors_cli("tables", view)
    assert code == 0
    assert "…" not in out
    for line in out.splitlines():
        if line[:1] in "┏┃┡│└":
            assert line[-1] in "┓┃┩│┘", line


def test_nationality_table_piped_breaks_no_word() -> None:
    """`minors nationality Romanian --date 1942-06 | cat`: the title and every row on one
    line (no "British-buil / t", no "captured_pen / alties")."""
    code, out = minors_cli("nationality", "Romanian", "--date", "1942-06")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Romanian < Axis Minor — 1942-06; ")
    assert lines[0].endswith("historical")
    assert any("British-built vehicle or wreck" in line for line in lines)
    assert any(line.startswith("│ captured_penalties ") for line in lines)
    rows = [line for line in lines if line.startswith("│")]
    assert all(line.endswith("│") for line in rows)


def test_log_show_piped_keeps_the_head_hash_whole(tmp_path: Path) -> None:
    """`minors log show | cat`: the title line ends with the whole head hash, and one entry
    is "1 entry"."""
    log = tmp_path / "run.log"
    code, _ = minors_cli("run", "--log", str(log))
    assert code == 0
    code, out = minors_cli("log", "show", str(log))
    assert code == 0
    assert re.fullmatch(
        rf"{re.escape(str(log))}: \d+ entries shown; head [0-9a-f]{{64}}", out.splitlines()[0]
    )
    last = sum(1 for line in log.read_bytes().splitlines() if b'"kind":"entry"' in line)
    code, out = minors_cli("log", "show", str(log), "--since", str(last - 1))
    assert re.search(r": 1 entry shown; head [0-9a-f]{64}$", out.splitlines()[0]), out


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "ascii"])
def test_a_console_that_cannot_encode_gets_a_fallback(encoding: str) -> None:
    """A console whose encoding lacks "—" or "→" gets a plain fallback ("-", "->") or
    UTF-8, never a UnicodeEncodeError: run, tables, nationality exit 0."""
    code, out = minors_cli("run", encoding=encoding)
    assert code == 0
    assert "W. Poland: independent" in out
    if encoding != "ascii":
        assert "W. Poland: independent -> conquered (Germany)" in out
    for args in (("tables", "forces"), ("nationality", "Finnish", "--date", "1941-07")):
        code, _ = minors_cli(*args, encoding=encoding)
        assert code == 0, args


def test_json_on_a_narrow_encoding_is_the_same_json() -> None:
    """`run --json` on a Latin-1 console escapes what it cannot encode: the same document."""
    code, narrow = minors_cli("run", "--json", encoding="latin-1")
    assert code == 0
    code, wide = minors_cli("run", "--json")
    assert json.loads(narrow) == json.loads(wide)


def test_the_rule_id_is_printed_once(sample_report: str) -> None:
    """A cause that names its rule is not followed by the same id again ("(82.81)  [82.81]")."""
    assert not re.search(r"\(([0-9A-Z.]+)\)  \[\1\]", sample_report)
    assert (
        "Norway: independent → associated (Britain) — survived its attack  [82.81]" in sample_report
    )


def test_a_deployment_is_one_line(sample_report: str) -> None:
    """82.53: the twelve Polish units placed at the start, and eliminated on conquest, are
    one line each, naming them all."""
    assert (
        "axis/declarations: 12 units are placed in W. Poland: w-poland-1 to w-poland-12  [82.53]"
        in sample_report
    )
    eliminated = "12 units are eliminated — W. Poland is conquered: w-poland-1 to w-poland-12"
    assert f"axis/combat: {eliminated}  [82.11G]" in sample_report
    assert "unit w-poland-3 is placed" not in sample_report


def test_unit_lists_fold_runs_in_natural_order() -> None:
    """Ids in natural order; three or more consecutive numbers of one prefix fold into a
    range, shorter runs and other ids are listed."""
    assert (
        unit_list(["a-10", "a-9", "a-11", "b-1", "b-2", "x", "a-01"])
        == "a-01, a-9 to a-11, b-1, b-2, x"
    )
    assert unit_list(["ger-1"]) == "ger-1"
