"""Traceability: for each clause of the registry, the tests that cite it and the code
registered under it (`minors rules coverage`, docs/testing.md).

Tests cite a clause with a `@pytest.mark.rule("82.34")` marker (in `tests/*.py`, read with
`ast`, never imported) or in the `clauses` list of a rulebook situation
(`tests/data/scenarios/*.json`). Code is what a rulebook (rule 82's by default) holds
under the clause (`Rulebook.registered()`). The tests are read from a checkout of the
project: an installed wheel carries none.
"""

from __future__ import annotations

import ast
import json
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from .._kernel.rulebook import Rulebook
from ..domain import ClauseKind
from ..errors import CoverageError
from ..rules82 import RULEBOOK
from ..ruleset.tables import Ruleset, load_ruleset, normalize_clause

__all__ = [
    "Citation",
    "ClauseCoverage",
    "CoverageError",
    "checkout_tests",
    "citations",
    "coverage",
    "to_json",
    "to_markdown",
    "to_text",
    "uncovered",
]

CHECKED = (ClauseKind.RULE, ClauseKind.PROCEDURE)
"""The kinds of clause of rule 82 that `--check` wants a test for."""


@frozen
class Citation:
    """A test's citation of a clause: the test (`tests/test_x.py::test_y`, or the situation
    file) and where the citation is written (file and line, 0 for a JSON list)."""

    clause: str
    test: str
    path: Path
    line: int


@frozen
class ClauseCoverage:
    """One clause with what covers it."""

    clause: str
    title: str
    kind: ClauseKind
    source: str
    tests: tuple[str, ...]
    code: tuple[str, ...]


def checkout_tests(start: Path | None = None) -> Path:
    """The `tests` folder of the checkout this package runs from (or of `start`).

    Raises:
        CoverageError: there is no checkout with a tests folder (an installed wheel).
    """
    root = start if start is not None else Path(__file__).resolve().parents[2]
    tests = root / "tests"
    if not (root / "pyproject.toml").is_file() or not (tests / "conftest.py").is_file():
        raise CoverageError(
            f"no tests folder of a minors checkout at {tests}: the coverage report reads the "
            "tests of a checkout (git clone the project, or pass --tests DIR)"
        )
    return tests


def _rule_marker(node: ast.Call) -> list[str] | None:
    """The clause ids of a `pytest.mark.rule("...")` / `mark.rule(...)` call, else None."""
    func = node.func
    if not (
        isinstance(func, ast.Attribute)
        and func.attr == "rule"
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "mark"
    ):
        return None
    return [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def _marker_citations(path: Path, label: str) -> Iterator[Citation]:
    """The markers of one test module, each given to the test (or class) it decorates, or
    to the whole module when it sits in `pytestmark`."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise CoverageError(f"{path}: cannot read the test module: {exc}") from None

    def visit(node: ast.AST, owner: str) -> Iterator[Citation]:
        for child in ast.iter_child_nodes(node):
            name = owner
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{owner}::{child.name}"
            clauses = _rule_marker(child) if isinstance(child, ast.Call) else None
            if isinstance(child, ast.Call) and clauses is not None:
                for clause in clauses:
                    yield Citation(normalize_clause(clause), owner, path, child.lineno)
            yield from visit(child, name)

    yield from visit(tree, label)


def citations(tests: Path) -> list[Citation]:
    """Every citation of a clause in the tests folder: markers of `test_*.py`, the
    `clauses` of `data/scenarios/*.json` and the `clause` of each case of
    `data/*/cases.toml`.

    Raises:
        CoverageError: the folder or a file in it cannot be read.
    """
    if not tests.is_dir():
        raise CoverageError(f"no tests folder at {tests}")
    found: list[Citation] = []
    root = tests.parent
    for path in sorted(tests.glob("test_*.py")):
        found.extend(_marker_citations(path, path.relative_to(root).as_posix()))
    for path in sorted((tests / "data" / "scenarios").glob("*.json")):
        try:
            expected = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CoverageError(f"{path}: cannot read the situation: {exc}") from None
        label = path.relative_to(root).as_posix()
        for clause in expected.get("clauses", []):
            found.append(Citation(normalize_clause(str(clause)), label, path, 0))
    for path in sorted((tests / "data").glob("*/cases.toml")):
        # rulebook cases that a test runs one by one, each marked with its `clause`
        try:
            cases = tomllib.loads(path.read_text(encoding="utf-8")).get("case", [])
        except (OSError, ValueError) as exc:
            raise CoverageError(f"{path}: cannot read the cases: {exc}") from None
        label = path.relative_to(root).as_posix()
        for case in cases:
            if isinstance(case, dict) and "clause" in case:
                found.append(Citation(normalize_clause(str(case["clause"])), label, path, 0))
    return found


def coverage(
    tests: Path, ruleset: Ruleset | None = None, rulebook: Rulebook = RULEBOOK
) -> dict[str, ClauseCoverage]:
    """Each clause of the registry, in text order, with the tests citing it and the code
    the rulebook holds under it."""
    rs = ruleset if ruleset is not None else load_ruleset()
    code = rulebook.registered()
    cited: dict[str, set[str]] = {}
    for citation in citations(tests):
        cited.setdefault(citation.clause, set()).add(citation.test)
    return {
        cid: ClauseCoverage(
            clause=cid,
            title=clause.title,
            kind=clause.kind,
            source=clause.source,
            tests=tuple(sorted(cited.get(cid, ()))),
            code=tuple(sorted({f"{name} ({role})" for name, role in code.get(cid, ())})),
        )
        for cid, clause in rs.clauses.items()
    }


def uncovered(report: Mapping[str, ClauseCoverage]) -> list[str]:
    """The clauses of rule 82 and A25 of kind `rule` or `procedure` that no test cites."""
    return [c.clause for c in report.values() if c.kind in CHECKED and not c.tests]


def to_json(report: Mapping[str, ClauseCoverage]) -> dict[str, dict[str, Any]]:
    """`{clause: {"tests": [...], "code": [...], "kind": ...}}`."""
    return {
        c.clause: {"tests": list(c.tests), "code": list(c.code), "kind": c.kind.value}
        for c in report.values()
    }


def to_text(report: Mapping[str, ClauseCoverage]) -> Iterable[str]:
    """The report as lines: each clause, its kind and title, then its tests and code."""
    for c in report.values():
        yield f"{c.clause} [{c.kind.value}] {c.title}"
        yield f"    tests: {', '.join(c.tests) if c.tests else '-'}"
        yield f"    code:  {', '.join(c.code) if c.code else '-'}"


def _cell(items: tuple[str, ...]) -> str:
    return "<br>".join(f"`{i}`" for i in items) if items else "—"


def to_markdown(report: Mapping[str, ClauseCoverage]) -> Iterable[str]:
    """The report as a Markdown document (docs/rules-coverage.md is generated from it)."""
    missing = uncovered(report)
    cited = sum(1 for c in report.values() if c.tests)
    yield "# Rule coverage"
    yield ""
    yield (
        "Generated by `minors rules coverage --markdown > docs/rules-coverage.md` from a "
        "checkout; do not edit by hand. Each clause of the registry (`tables/clauses.toml`) "
        "with the tests that cite it (`@pytest.mark.rule` markers and the `clauses` of "
        "`tests/data/scenarios/*.json`) and the code registered under it "
        "(what `minors.rules82.RULEBOOK.registered()` holds under it)."
    )
    yield ""
    yield f"{cited} of {len(report)} clauses are cited by a test."
    yield (
        f"Rules and procedures of rule 82 with no test ({len(missing)}): "
        + (", ".join(missing) if missing else "none")
        + "."
    )
    yield ""
    yield "| clause | kind | title | tests | code |"
    yield "|---|---|---|---|---|"
    for c in report.values():
        title = c.title.replace("|", "\\|")
        yield f"| {c.clause} | {c.kind.value} | {title} | {_cell(c.tests)} | {_cell(c.code)} |"
