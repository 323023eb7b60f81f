"""The documentation's examples run."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

import minors
from minors.cli import main
from minors.rules82.commands import KINDS
from minors.scenario import load_scenario
from tests.paths import DOCS


def _blocks(name: str) -> list[str]:
    text = (DOCS / name).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_embedding_search_loop_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/embedding.md's examples run: push / pop with the position key, and the search
    loop finds a declaration."""
    # The OpenSpiel example needs the openspiel extra: tests/project/test_openspiel.py runs it.
    push_pop, search = [b for b in _blocks("embedding.md") if "pyspiel" not in b]
    exec(compile(push_pop, "docs/embedding.md", "exec"), {})
    exec(compile(search, "docs/embedding.md", "exec"), {})
    assert capsys.readouterr().out.startswith("best declaration: Germany on ")


# ---- the contracts: docs/api.md and docs/scenario-format.md, every example run -----------------

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", flags=re.S | re.M)
CONTRACTS = ["api.md", "scenario-format.md"]


def _fences(name: str) -> list[tuple[str, str]]:
    return FENCE.findall((DOCS / name).read_text(encoding="utf-8"))


def _shown_in(shown: Any, actual: Any, where: str = "") -> None:
    """`shown` (an abridged example) is part of `actual`: each key given has the value
    given; lists are given whole."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), where
        for key, value in shown.items():
            assert key in actual, f"{where}/{key}: not in the output"
            _shown_in(value, actual[key], f"{where}/{key}")
    elif isinstance(shown, list):
        assert isinstance(actual, list), where
        assert len(shown) == len(actual), f"{where}: {shown} != {actual}"
        for i, (a, b) in enumerate(zip(shown, actual, strict=True)):
            _shown_in(a, b, f"{where}/{i}")
    else:
        assert shown == actual, f"{where}: {shown!r} != {actual!r}"


@pytest.mark.parametrize("name", CONTRACTS)
def test_every_example_of_the_contracts_runs(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, json_schema: Any
) -> None:
    """Each example of the contract pages runs, in order, in an empty folder: a TOML block
    named by its first line (`# sweden.toml`) is written there (a scenario is valid under
    the `scenario` schema and loads), a `sh` block's `minors` commands exit as their
    comment says (`# exit 3`, else 0), a JSON block is part of the last command's output,
    and the Python blocks run in one namespace."""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    output: str | None = None
    for lang, body in _fences(name):
        if lang == "toml":
            data = tomllib.loads(body)
            named = re.fullmatch(r"# (\S+\.toml)", body.splitlines()[0])
            if named:
                Path(named.group(1)).write_text(body, encoding="utf-8")
            if "scenario" in data:
                assert named, f"{name}: a scenario example needs its file name"
                json_schema("scenario", data, f"{name}: {named.group(1)}")
                load_scenario(named.group(1))
        elif lang == "sh":
            for line in body.strip().splitlines():
                command, _, comment = line.partition("  # ")
                assert command.startswith("minors "), f"{name}: not a minors command: {line}"
                expected = re.search(r"exit (\d)", comment)
                result = CliRunner().invoke(main, shlex.split(command)[1:])
                assert result.exit_code == (int(expected.group(1)) if expected else 0), line
                output = result.stdout
        elif lang == "json":
            assert output is not None, f"{name}: a JSON example follows no command"
            _shown_in(json.loads(body), json.loads(output), name)
        elif lang == "python":
            exec(compile(body, f"docs/{name}", "exec"), namespace)
        else:
            assert lang == "text", f"{name}: a ```{lang} block is not run"


def test_the_command_table_is_rule_82s_vocabulary() -> None:
    """docs/scenario-format.md's table lists every command of rule 82 with its fields,
    the optional ones in brackets, and nothing else."""
    text = (DOCS / "scenario-format.md").read_text(encoding="utf-8")
    section = text.split("## Commands")[1].split("\n## ")[0]
    rows = re.findall(r"^\| `(\w+)` \| (.*?) \|", section, flags=re.M)
    documented = {
        kind: {f.strip("`[] "): f.strip().startswith("[") for f in fields.split(", ")}
        for kind, fields in rows
    }
    expected = {
        kind: {a.name.removesuffix("_"): a.default is not attrs.NOTHING for a in attrs.fields(cls)}
        for kind, cls in KINDS.items()
    }
    assert documented == expected


def test_the_contracts_ship_and_are_pointed_at() -> None:
    """README, the package docstring and the CHANGELOG point at docs/api.md and
    docs/scenario-format.md (not at a spec outside the project), and the sdist takes docs/."""
    root = DOCS.parent
    for text in (
        (root / "README.md").read_text(encoding="utf-8"),
        (root / "CHANGELOG.md").read_text(encoding="utf-8"),
        minors.__doc__ or "",
    ):
        assert "docs/api.md" in text
        assert "docs/scenario-format.md" in text
        assert "shared/spec" not in text
    sdist = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "docs" in sdist["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]


def test_the_invariant_table_lists_every_invariant() -> None:
    """docs/testing.md's table of invariants names exactly the invariants of
    `MinorsStateMachine` (a new one must be documented)."""
    from minors.testing import MinorsStateMachine

    text = (DOCS / "testing.md").read_text(encoding="utf-8")
    table = text.split("| invariant | what holds |")[1].split("\n\n")[0]
    documented = re.findall(r"^\| `(\w+)` \|", table, flags=re.M)
    invariants = [
        name
        for name in dir(MinorsStateMachine)
        if getattr(getattr(MinorsStateMachine, name), "hypothesis_stateful_invariant", None)
    ]
    assert sorted(documented) == sorted(invariants)
    assert "eliminations_are_logged" in documented
