"""`minors init [DIR]`: the starter folder runs as written, `minors init demo && cd demo &&
pytest`, in subprocesses as a user types it."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
from click.testing import CliRunner

from minors.cli import main
from minors.starter import FILES


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.rule("82.32")
def test_init_then_pytest_passes(tmp_path: Path) -> None:
    """`minors init demo && cd demo && pytest`: the house rule's tests and the plugin's
    state machine under the house rule all pass."""
    made = subprocess.run(
        [sys.executable, "-m", "minors", "init", "demo"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    demo = tmp_path / "demo"
    assert sorted(p.name for p in demo.iterdir()) == sorted(FILES)
    ran = pytest_in(demo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "minors: + 1 item, MinorsStateMachine under limit_of_eight.toml" in ran.stdout
    assert "4 passed" in ran.stdout


def test_the_starter_holds_the_sample_and_the_commented_house_rule(tmp_path: Path) -> None:
    """The campaign is the built-in sample, the house rule the shipped example: commented,
    the 82.32 limit at eight factors."""
    assert CliRunner().invoke(main, ["init", str(tmp_path / "d")]).exit_code == 0
    package = files("minors")
    sample = (package / "samples" / "campaign.toml").read_text(encoding="utf-8")
    assert (tmp_path / "d" / "campaign.toml").read_text(encoding="utf-8") == sample
    house = (tmp_path / "d" / "limit_of_eight.toml").read_text(encoding="utf-8")
    assert house.startswith("# A house rule")
    assert "[limits.default]\nfactors = 8\n" in house


def test_the_house_rule_tests_fail_without_the_house_rule(tmp_path: Path) -> None:
    """With the overlay's limit put back to ten, the starter's tests of it fail: they test
    the house rule, not nothing."""
    assert CliRunner().invoke(main, ["init", str(tmp_path)]).exit_code == 0
    overlay = tmp_path / "limit_of_eight.toml"
    overlay.write_text(overlay.read_text().replace("factors = 8", "factors = 10"))
    ran = pytest_in(tmp_path, "-p", "no:minors", "-o", "addopts=")
    assert ran.returncode == 1
    assert "3 failed" in ran.stdout


def test_init_writes_nothing_over_existing_files(tmp_path: Path) -> None:
    """A folder that already holds a starter file: exit 2 naming it, nothing written."""
    (tmp_path / "campaign.toml").write_text("mine\n")
    result = CliRunner().invoke(main, ["init", str(tmp_path)])
    assert result.exit_code == 2
    assert "already holds campaign.toml; nothing was written" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["campaign.toml"]
    assert (tmp_path / "campaign.toml").read_text() == "mine\n"


def test_a_local_campaign_toml_is_read_not_the_built_in_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a folder holding its own `campaign.toml` (a `minors init` folder), `minors run
    campaign.toml` plays that file, and `minors run` without a file the built-in one."""
    (tmp_path / "campaign.toml").write_text(
        '[scenario]\nstart = "1939-fall"\n\n[[do]]\nat = "1940-spring/axis/declarations"\n'
        'command = "declare_war"\nattacker = "Germany"\ntarget = "Sweden"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    local = CliRunner().invoke(main, ["run", "campaign.toml", "--json"])
    assert local.exit_code == 0, local.output
    assert json.loads(local.stdout)["minors"]["Sweden"]["at_war_with"] == ["Germany"]
    built_in = CliRunner().invoke(main, ["run", "--json"])
    assert built_in.exit_code == 0, built_in.output
    assert json.loads(built_in.stdout)["minors"]["Sweden"]["at_war_with"] == []
