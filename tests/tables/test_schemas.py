"""The JSON Schemas (`minors schema NAME`, docs/schemas/): valid schemas, shipped as
generated, and describing what `minors` reads and writes: every sample scenario here; the
`--json` outputs and log lines of the whole suite are checked by tests/conftest.py."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

import minors
from minors import auditlog
from minors import schema as schemas
from minors.cli import main
from minors.scenario import load_scenario
from tests.paths import ROOT

SHIPPED = ROOT / "docs" / "schemas"
SCENARIO_FILES = sorted(
    [
        *(ROOT / "tests" / "data").rglob("*.toml"),
        ROOT / "minors" / "samples" / "campaign.toml",
    ]
)
SCENARIOS = [p for p in SCENARIO_FILES if "scenario" in tomllib.loads(p.read_text("utf-8"))]

Check = Callable[[str, Any, str], None]


@pytest.mark.parametrize("name", schemas.names())
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    """Each schema is itself valid JSON Schema (draft 2020-12), with a title."""
    body = schemas.get(name)
    jsonschema.Draft202012Validator.check_schema(body)
    assert body["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert body["title"]


def test_the_shipped_files_are_the_generated_ones() -> None:
    """docs/schemas/ holds one file per schema, each exactly what `minors schema NAME`
    prints (regenerate with `minors schema --write docs/schemas`)."""
    shipped = {p.name for p in SHIPPED.glob("*.schema.json")}
    assert shipped == {f"{name}.schema.json" for name in schemas.SCHEMAS}
    for name in schemas.SCHEMAS:
        on_disk = (SHIPPED / f"{name}.schema.json").read_text(encoding="utf-8")
        assert on_disk == schemas.text(name), (
            f"docs/schemas/{name}.schema.json is stale: run `minors schema --write docs/schemas`"
        )


def test_minors_schema_prints_lists_and_writes(tmp_path: Path) -> None:
    """`minors schema NAME` prints a schema (`log` is this version's log format); without
    NAME it lists them; `--write DIR` writes them all; an unknown name exits 2."""
    runner = CliRunner()
    result = runner.invoke(main, ["schema", "state"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == schemas.get("state")
    log = runner.invoke(main, ["schema", "log"])
    assert json.loads(log.stdout) == schemas.get(f"log-{auditlog.FORMAT}")
    listed = runner.invoke(main, ["schema"]).stdout
    for name in schemas.names():
        assert f"\n{name}" in f"\n{listed}"
    assert "minors run --json: state" in listed
    written = runner.invoke(main, ["schema", "--write", str(tmp_path)])
    assert written.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{n}.schema.json" for n in schemas.SCHEMAS
    )
    unknown = runner.invoke(main, ["schema", "stat"])
    assert unknown.exit_code == 2
    assert "unknown schema 'stat'; did you mean 'state'?" in unknown.stderr


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_every_sample_scenario_follows_the_schema(path: Path, json_schema: Check) -> None:
    """Every scenario file of the tests and the built-in sample is valid under `scenario`."""
    json_schema("scenario", tomllib.loads(path.read_text("utf-8")), str(path))


def test_there_are_sample_scenarios() -> None:
    """The scenario files are found (an empty list must not pass silently)."""
    assert len(SCENARIOS) >= 50


HEAD = '[scenario]\nname = "t"\nstart = "1939-fall"\n'
DO = '\n[[do]]\nat = "1940-spring/axis/declarations"\n'


@pytest.mark.parametrize(
    "text",
    [
        '[scenario]\nname = "no start"\n',
        HEAD + 'colour = "red"\n',
        HEAD + DO + 'command = "declare_war"\nattacker = "Germany"\n',
        HEAD + DO + 'command = "declare_war"\nattacker = "Germany"\ntarget = "Sweden"\nx = 1\n',
        HEAD + DO + 'command = "annex"\nminor = "Sweden"\n',
        HEAD + DO + 'command = "diplomatic_result"\nminor = "Sweden"\nmajor = "Germany"\n'
        'result = "8"\n',
        HEAD + DO + 'command = "remove"\nunits = []\n',
        HEAD + '\n[[do]]\nat = "1940-sprung/axis/declarations"\ncommand = "surrender"\n'
        'major = "France"\n',
        HEAD + DO + 'command = "place"\nin = "Rumania"\n'
        'units = [{ id = "g", owner = "Germany", kind = "cavalry", factors = 3 }]\n',
    ],
)
def test_the_scenario_schema_refuses_what_the_loader_refuses(tmp_path: Path, text: str) -> None:
    """Missing start, unknown field, missing or extra command field, unknown command, a
    value of the wrong type, an empty unit list, a bad moment or unit kind: the schema and
    `load_scenario` both refuse the file."""
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(minors.ScenarioError):
        load_scenario(path)
    validator = jsonschema.Draft202012Validator(schemas.get("scenario"))
    assert not validator.is_valid(tomllib.loads(text))


def test_the_state_schema_refuses_a_state_that_breaks_the_contract() -> None:
    """An unknown status, a missing clock, or an error without its rule are invalid."""
    state = minors.Game.new().to_json()
    validator = jsonschema.Draft202012Validator(schemas.get("state"))
    assert validator.is_valid(state)
    broken = [
        {**state, "minors": {"Sweden": {"status": "friendly", "major": None, "at_war_with": []}}},
        {k: v for k, v in state.items() if k != "clock"},
        {**state, "error": {"message": "x", "command": 1, "violations": []}},
    ]
    for document in broken:
        assert not validator.is_valid(document)


def test_the_suite_checks_json_outputs_against_their_schema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hook of tests/conftest.py is on: a `--json` output checked against a schema it
    does not follow fails the test that printed it."""
    monkeypatch.setitem(schemas.OUTPUTS, "run", "coverage")
    with pytest.raises(pytest.fail.Exception, match="breaks the 'coverage' schema"):
        CliRunner().invoke(main, ["run", "--json"])


def test_the_suite_checks_every_log_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The hook of tests/conftest.py checks each line a log sink writes: a header the
    schema does not allow fails."""
    monkeypatch.setattr(minors.audit.sink, "FORMAT", 99)
    with pytest.raises(pytest.fail.Exception, match="breaks the 'log' schema"):
        minors.run_scenario(minors.scenario.SAMPLE, log=tmp_path / "x.log")
