"""Project test configuration: every `rule` marker must name a clause of the registry; the
Hypothesis profile (`MINORS_PROFILE`, default `minors-ci`); clauses switched off for the
mutation run (`MINORS_DISABLE`, tests/mutation/run_disabled.py); every `--json` output of
the command line and every log line the library writes, checked against its JSON Schema
(`minors.schema`)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import settings
from transitions import Machine

import minors
import minors.testing  # registers the minors-ci and minors-thorough profiles
from minors import Game, load_ruleset
from minors import schema as schemas
from minors.audit.log import FileSink
from minors.cli import main as cli_main
from minors.cli.coverage import clause_code
from minors.domain.marks import MARK
from minors.rules82 import KERNEL_RULES, carriers, machine
from minors.ruleset import tables as tables_module
from minors.ruleset.tables import normalize_clause

pytest_plugins = ["pytester"]
collect_ignore = ["mutation"]

settings.load_profile(os.environ.get("MINORS_PROFILE", "minors-ci"))


@pytest.fixture(scope="session", autouse=True)
def _disabled_by_environment() -> Iterator[None]:
    """With `MINORS_DISABLE=82.34` (comma-separated ids), every game is built with those
    clauses switched off, as `Game.new(disabled=...)` does: the mutation run's lever.

    Session-wide, so that games made by module fixtures lose the clause too; and
    `Game.__init__` is patched rather than `Game.new`, so that games rebuilt by
    `from_state` and by a log's replay from a snapshot lose it as well.
    """
    clauses = frozenset(c for c in os.environ.get("MINORS_DISABLE", "").split(",") if c)
    with pytest.MonkeyPatch.context() as patch:
        if clauses:
            original = Game.__init__

            def init(
                self: Game, *args: Any, disabled: frozenset[str] = frozenset(), **kw: Any
            ) -> None:
                original(self, *args, disabled=disabled | clauses, **kw)

            patch.setattr(Game, "__init__", init)  # the start's own rules (82.92 ...) too
        yield


_SWITCHED = pytest.MonkeyPatch()
"""The code and rows of the clauses of `MINORS_DISABLE`, switched off when this file is
imported, before any test module builds its tables at import (never undone: such a
session exists to run with them off)."""


def _switch_off_code(patch: pytest.MonkeyPatch, clause: str) -> None:
    """The code marked with `clause` (`minors.domain.marks`) answers its `otherwise`."""
    for _, function in clause_code().get(clause, ()):
        inner = _innermost(function)
        otherwise = dict(getattr(function, MARK))[clause]
        namespace: dict[str, Any] = {}
        exec(f"def {inner.__name__}(*args, **kwargs):\n    return {otherwise!r}\n", {}, namespace)
        patch.setattr(inner, "__code__", namespace[inner.__name__].__code__)


def _innermost(function: Any) -> Any:
    while True:
        spec = getattr(function, "__minors_rule__", None)
        inner = spec.function if spec is not None else getattr(function, "__wrapped__", None)
        if inner is None:
            return function
        function = inner


def _switch_off_data(patch: pytest.MonkeyPatch, clause: str) -> None:
    """The tables are built with the rows that carry `clause` switched off (`carriers`);
    the status transitions that carry it are gone."""
    if not clause.startswith("A25") and clause not in carriers.DATA:
        return
    build = tables_module.build

    def switched(overlays: Any = ()) -> Any:
        return carriers.switch_off(build(overlays), clause)

    patch.setattr(tables_module, "build", switched)
    tables_module._cached.cache_clear()
    if any(r.table == "transitions" for r in carriers.DATA.get(clause, ())):
        table = machine._routes_of(
            Machine(
                model=None,
                states=[s.value for s in minors.Status],
                transitions=[t.for_machine() for t in carriers.transitions_without(clause)],
                initial=None,
                auto_transitions=False,
            )
        )
        patch.setattr(machine, "_TABLE", table)
        machine._fired.cache_clear()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Fail the run when a `rule` marker cites a clause the registry does not hold (or a
    kernel rule id, K1 ..., for rules that are not clauses of rule 82 or A25)."""
    clauses = {*load_ruleset().clauses, *KERNEL_RULES}
    bad = []
    for item in items:
        for marker in item.iter_markers("rule"):
            for clause in marker.args:
                if normalize_clause(str(clause)) not in clauses:
                    bad.append(
                        f"{item.nodeid}: rule({clause!r}) is not in tables/clauses.toml"
                        " nor a kernel rule id"
                    )
    if bad:
        raise pytest.UsageError("unknown clause in a rule marker:\n" + "\n".join(bad))
    citing = os.environ.get("MINORS_CITING")
    if citing:  # the disabled-clause run: only the tests that cite the clause (`*`: any)
        keep = [
            item
            for item in items
            if any(
                citing in ("*", normalize_clause(str(c)))
                for marker in item.iter_markers("rule")
                for c in marker.args
            )
        ]
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With `MINORS_OUTCOMES=path` (the disabled-clause run), each test's outcome is
    appended to that file, one JSON line per phase."""
    path = os.environ.get("MINORS_OUTCOMES")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"test": report.nodeid, "outcome": report.outcome}) + "\n")


# ---- JSON Schemas: what the command line prints and what the log holds ----------------------


@functools.cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schemas.get(name))


def check_schema(name: str, document: Any, where: str = "") -> None:
    """Fail unless `document` is valid under the schema `name`, naming the first problem."""
    error = jsonschema.exceptions.best_match(_validator(name).iter_errors(document))
    if error is not None:
        path = "/".join(map(str, error.absolute_path)) or "(the document)"
        pytest.fail(
            f"{where or 'a document'} breaks the {name!r} schema at {path}: {error.message}"
        )


@pytest.fixture(scope="session")
def json_schema() -> Callable[[str, Any, str], None]:
    """`json_schema(name, document, where)`: check a document against a schema."""
    return check_schema


_CHECKED_LINES: set[bytes] = set()
"""The log lines found valid so far in this session."""


def _cli_output(args: Sequence[str], code: int, out: str | bytes | None) -> None:
    """Check what `minors ARGS` printed, if it was `--json`: the schema `OUTPUTS` gives the
    command, or the error document on exit 2."""
    if "--json" not in args or not out:
        return
    words = [a for a in args if not a.startswith("-")]
    command = next((c for c in schemas.OUTPUTS if words[: len(c.split())] == c.split()), None)
    name = "error" if code == 2 else schemas.OUTPUTS.get(command) if command else None
    if name is not None:
        check_schema(name, json.loads(out), f"`minors {' '.join(args)}`")


@pytest.fixture(autouse=True)
def _outputs_follow_their_schemas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check every `--json` output of `minors` that a test makes (in process with click's
    `CliRunner`, or as `python -m minors` in a subprocess) and every line a log file sink
    writes against its schema."""
    invoke = CliRunner.invoke

    def checked_invoke(self: CliRunner, cli: Any, args: Any = None, *a: Any, **kw: Any) -> Any:
        result = invoke(self, cli, args, *a, **kw)
        if cli is cli_main and isinstance(args, list | tuple):
            _cli_output([str(x) for x in args], result.exit_code, result.stdout)
        return result

    run = subprocess.run

    def checked_run(args: Any, *a: Any, **kw: Any) -> Any:
        proc = run(args, *a, **kw)
        if isinstance(args, list) and args[1:3] == ["-m", "minors"]:
            _cli_output([str(x) for x in args[3:]], proc.returncode, proc.stdout)
        return proc

    emit = FileSink._emit

    def checked_emit(self: FileSink, lines: list[bytes], *, flush: bool) -> None:
        for line in lines:
            if line not in _CHECKED_LINES:  # a line written again (the same log) is checked once
                check_schema("log", json.loads(line), f"a line of {self.path}")
                _CHECKED_LINES.add(line)
        emit(self, lines, flush=flush)

    monkeypatch.setattr(CliRunner, "invoke", checked_invoke)
    monkeypatch.setattr(subprocess, "run", checked_run)
    monkeypatch.setattr(FileSink, "_emit", checked_emit)


for _clause in filter(None, os.environ.get("MINORS_DISABLE", "").split(",")):
    _switch_off_code(_SWITCHED, _clause)
    _switch_off_data(_SWITCHED, _clause)
