"""The command line: --version, `minors tables` readable and JSON, errors in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import minors
from minors.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_version() -> None:
    """`minors --version` prints the package version."""
    code, out, _ = run("--version")
    assert code == 0
    assert "0.1.0" in out


@pytest.mark.parametrize(
    "view", ["forces", "commonwealth", "minors", "powers", "diplomacy", "limits", "clauses"]
)
def test_each_view_renders(view: str) -> None:
    """Each view prints a table and the digest."""
    code, out, _ = run("tables", view)
    assert code == 0
    assert "tables digest" in out


def test_forces_view_marks_footnotes_and_illustrative_values() -> None:
    """The forces view prints the footnotes under the table and labels the † table."""
    code, out, _ = run("tables", "forces")
    assert code == 0
    assert "Yavuz" in out
    assert "illustrative" in out
    assert "2§" in out


def test_json_output_with_overlay(tmp_path: Path) -> None:
    """--json prints records and the digest; --ruleset merges an overlay."""
    path = tmp_path / "o.toml"
    path.write_text("[minors.Sweden]\nbrps = 12\n", encoding="utf-8")
    code, out, _ = run("tables", "minors", "--json", "--ruleset", str(path))
    assert code == 0
    document = json.loads(out)
    assert document["tables"]["minors"]["Sweden"]["brps"] == 12
    assert document["digest"] == minors.load_ruleset([path]).digest
    code, out, _ = run("tables", "forces", "--json")
    assert json.loads(out)["tables"]["forces"]["Greece"]["partisans_wa"] == "1:2"


def test_a_single_table_by_section_name() -> None:
    """NAME may be a table section such as costs."""
    code, out, _ = run("tables", "costs", "--json")
    assert code == 0
    assert json.loads(out)["tables"]["costs"]["declare_war_major"]["brps"] == 35


def test_bad_overlay_exits_2_in_one_line(tmp_path: Path) -> None:
    """A malformed overlay is one line on stderr, exit 2, no traceback."""
    path = tmp_path / "bad.toml"
    path.write_text("[minors.Sweden]\nbrps = 'ten'\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "minors", "tables", "--ruleset", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "entry 'minors.Sweden', field 'brps'" in lines[0]
    assert "Traceback" not in proc.stderr


def test_unknown_table_name_exits_2() -> None:
    """An unknown NAME is a usage error."""
    code, _, err = run("tables", "nonsense")
    assert code == 2
    assert "nonsense" in err
