"""Traceability: for each clause of the registry, the tests that cite it, the code or data
that carries it, and the tests that notice it switched off (`minors rules coverage`,
docs/testing.md).

Tests are read from a checkout with `ast`, never imported. A test counts for a clause only
if it failed with the clause switched off (tests/mutation/run_disabled.py, whose results
hold the digest of the clause's code and rows: a clause changed since is stale)."""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import inspect
import json
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from ..domain import ClauseKind
from ..domain.marks import marked
from ..errors import CoverageError
from ..rules82 import RULEBOOK, carriers
from ..ruleset.tables import Ruleset, load_ruleset, normalize_clause

__all__ = [
    "Citation",
    "ClauseCoverage",
    "CoverageError",
    "branches",
    "checkout_tests",
    "citations",
    "clause_code",
    "clause_digest",
    "coverage",
    "problems",
    "to_json",
    "to_markdown",
    "to_text",
    "uncovered",
]

CHECKED = (ClauseKind.RULE, ClauseKind.PROCEDURE)  # the kinds `--check` wants a test for

MARKED_MODULES = (  # the modules whose functions may be marked with a clause (domain.marks)
    "minors.rules82.war",
    "minors.rules82.ties",
    "minors.rules82.survival",
    "minors.rules82.diplomacy",
    "minors.rules82.deployment",
    "minors.rules82.conquest",
    "minors.rules82.limits",
    "minors.rules82.movement",
    "minors.rules82.queries",
    "minors.asl.commissar",
    "minors.asl.humanwave",
    "minors.asl.dyo",
)

SITUATION_TEST = "tests/rules82/test_scenarios.py::test_situation"  # [stem]: a situation's test
CASE_TEST = "tests/asl/test_nationality.py::test_rulebook_case"  # [id]: an A25 case's test
RESULTS = Path("mutation") / "disabled.json"  # the disabled-clause run's, in the tests folder


@frozen
class Citation:
    """A test's citation of a clause, and where it is written (line 0 in a data file)."""

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
    data: tuple[str, ...] = ()  # the table rows that carry it
    proven: tuple[str, ...] = ()  # the tests that failed with it switched off (fresh results)
    run: str = "not run"  # caught, missed, stale (code or rows changed since) or not run


def clause_code() -> dict[str, list[tuple[str, Any]]]:
    """Clause id -> (name, function) of the code marked with it (`MARKED_MODULES`)."""
    return marked(importlib.import_module(m) for m in MARKED_MODULES)


@functools.cache
def branches() -> dict[str, list[str]]:
    """Clause id -> the functions of rule 82's modules that ask `rules.on("...")`."""
    out: dict[str, list[str]] = {}
    modules = {e.function.__module__ for e in RULEBOOK.entries}
    for name in sorted(modules):
        module = importlib.import_module(name)
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(node):
                match call:  # rules.on("82.34", ...)
                    case ast.Call(
                        func=ast.Attribute(attr="on", value=ast.Attribute(attr="rules")),
                        args=[ast.Constant(value=str() as clause), *_],
                    ):
                        found = out.setdefault(clause, [])
                        if f"{name}.{node.name}" not in found:
                            found.append(f"{name}.{node.name}")
    return out


def _source(function: Any) -> str:
    while True:  # the function that runs, behind an effect's wrapper or a cache
        spec = getattr(function, "__minors_rule__", None)
        inner = spec.function if spec is not None else getattr(function, "__wrapped__", None)
        if inner is None:
            break
        function = inner
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return repr(function)


def clause_digest(clause: str, rs: Ruleset, code: Mapping[str, Any] | None = None) -> str:
    """SHA-256 of the source of the functions and the rows that carry `clause` now."""
    found = code if code is not None else clause_code()
    functions = dict(found.get(clause, ()))
    for entry in RULEBOOK.entries:
        if entry.clause == clause:
            functions[entry.key] = entry.function
    for name in branches().get(clause, ()):
        module, _, function = name.rpartition(".")
        functions[name] = getattr(importlib.import_module(module), function)
    parts = [f"{name}\n{_source(fn)}" for name, fn in sorted(functions.items())]
    parts.append(carriers.rows_digest(rs, clause))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _read(path: Path, what: str, loads: Any = json.loads) -> Any:
    try:
        return loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CoverageError(f"{path}: cannot read {what}: {exc}") from None


def _results(tests: Path) -> dict[str, Any]:
    path = tests / RESULTS
    found = _read(path, "the disabled-clause results") if path.is_file() else {}
    return dict(found.get("clauses", {}))


def checkout_tests(start: Path | None = None) -> Path:
    """The `tests` folder of the checkout this package runs from (or of `start`); a
    CoverageError if there is none (an installed wheel)."""
    root = start if start is not None else Path(__file__).resolve().parents[2]
    tests = root / "tests"
    if not (root / "pyproject.toml").is_file() or not (tests / "conftest.py").is_file():
        raise CoverageError(
            f"no tests folder of a minors checkout at {tests}: the coverage report reads the "
            "tests of a checkout (git clone the project, or pass --tests DIR)"
        )
    return tests


def _rule_marker(node: ast.Call) -> list[str]:
    """The clause ids of a `pytest.mark.rule("...")` call (none for another call)."""
    match node:
        case ast.Call(func=ast.Attribute(attr="rule", value=ast.Attribute(attr="mark")), args=args):
            return [
                a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
    return []


def _marker_citations(path: Path, label: str) -> Iterator[Citation]:
    """The markers of one test module, each given to the test, class or module it marks."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise CoverageError(f"{path}: cannot read the test module: {exc}") from None

    def visit(node: ast.AST, owner: str) -> Iterator[Citation]:
        for child in ast.iter_child_nodes(node):
            name = owner
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{owner}::{child.name}"
            if isinstance(child, ast.Call):
                for clause in _rule_marker(child):
                    yield Citation(normalize_clause(clause), owner, path, child.lineno)
            yield from visit(child, name)

    yield from visit(tree, label)


def citations(tests: Path) -> list[Citation]:
    """Every citation of a clause in the tests folder: markers of `test_*.py`, the `clauses`
    of `data/scenarios/*.json` and the `clause` of each case of `data/*/cases.toml`."""
    if not tests.is_dir():
        raise CoverageError(f"no tests folder at {tests}")
    found: list[Citation] = []
    root = tests.parent
    for path in sorted(tests.rglob("test_*.py")):
        found.extend(_marker_citations(path, path.relative_to(root).as_posix()))
    for path in sorted((tests / "data" / "scenarios").glob("*.json")):
        expected = _read(path, "the situation")
        label = path.relative_to(root).as_posix()
        for clause in expected.get("clauses", []):
            found.append(Citation(normalize_clause(str(clause)), label, path, 0))
    for path in sorted((tests / "data").glob("*/cases.toml")):
        # rulebook cases that a test runs one by one, each marked with its `clause`
        cases = _read(path, "the cases", tomllib.loads).get("case", [])
        label = path.relative_to(root).as_posix()
        for case in cases:
            if isinstance(case, dict) and "clause" in case:
                found.append(Citation(normalize_clause(str(case["clause"])), label, path, 0))
    return found


def coverage(tests: Path) -> dict[str, ClauseCoverage]:
    """Each clause of the registry, in text order, with what cites and carries it."""
    rs = load_ruleset()
    code = RULEBOOK.registered()
    marks = clause_code()
    asked = branches()
    results = _results(tests)
    cited: dict[str, set[str]] = {}
    for citation in citations(tests):
        cited.setdefault(citation.clause, set()).add(citation.test)
    report = {}
    for cid, clause in rs.clauses.items():
        names = {f"{name} ({role})" for name, role in code.get(cid, ())}
        names.update(f"{name} (marked)" for name, _ in marks.get(cid, ()))
        names.update(f"{name} (branch)" for name in asked.get(cid, ()))
        result = results.get(cid)
        run, proven = "not run", ()
        if result is not None:
            if result.get("digest") != clause_digest(cid, rs, marks):
                run = "stale"
            else:
                proven = tuple(sorted(result.get("failed", ())))
                run = "caught" if proven else "missed"
        report[cid] = ClauseCoverage(
            clause=cid,
            title=clause.title,
            kind=clause.kind,
            source=clause.source,
            tests=tuple(sorted(cited.get(cid, ()))),
            code=tuple(sorted(names)),
            data=tuple(carriers.rows_of(rs, cid)),
            proven=proven,
            run=run,
        )
    return report


def problems(report: Mapping[str, ClauseCoverage]) -> list[str]:
    """What `--check` fails on, for each rule or procedure of rule 82 and A25."""
    found = []
    for c in report.values():
        if c.kind not in CHECKED:
            continue
        what = f"{c.clause} [{c.kind.value}] {c.title}"
        if not c.tests:
            found.append(f"{what}: no test cites it")
        if not c.code and not c.data:
            found.append(f"{what}: no code is registered or marked under it, no row carries it")
        elif c.run == "stale":
            found.append(
                f"{what}: its code or rows changed since the disabled-clause run: run "
                f"python tests/mutation/run_disabled.py --stale"
            )
        elif c.run == "not run":
            found.append(f"{what}: not in the disabled-clause results: run it")
        elif c.run == "missed":
            found.append(f"{what}: no test fails with it switched off")
    return found


def uncovered(report: Mapping[str, ClauseCoverage]) -> list[str]:
    """The clauses of rule 82 and A25 of kind `rule` or `procedure` that no test cites."""
    return [c.clause for c in report.values() if c.kind in CHECKED and not c.tests]


def to_json(report: Mapping[str, ClauseCoverage]) -> dict[str, dict[str, Any]]:
    """`{clause: {"tests": [...], "code": [...], "kind": ...}}`."""
    return {
        c.clause: {
            "tests": list(c.tests),
            "code": list(c.code),
            "data": list(c.data),
            "proven": list(c.proven),
            "run": c.run,
            "kind": c.kind.value,
        }
        for c in report.values()
    }


def to_text(report: Mapping[str, ClauseCoverage]) -> Iterable[str]:
    """The report as lines of text."""
    for c in report.values():
        yield f"{c.clause} [{c.kind.value}] {c.title}"
        yield f"    tests: {', '.join(c.tests) if c.tests else '-'}"
        yield f"    code:  {', '.join(c.code) if c.code else '-'}"
        if c.data:
            yield f"    data:  {', '.join(c.data)}"
        yield f"    switched off ({c.run}): {', '.join(c.proven) if c.proven else '-'}"


def _proves(test: str, citation: str) -> bool:
    """Whether `test` (a pytest node id) is the test of `citation` (a test or data file)."""
    if citation.startswith("tests/data/scenarios/"):
        stem = citation.rsplit("/", 1)[-1].removesuffix(".json")
        return test == f"{SITUATION_TEST}[{stem}]"
    if citation.startswith("tests/data/"):
        return test.startswith(f"{CASE_TEST}[")
    return test == citation or test.startswith((f"{citation}[", f"{citation}::"))


def _cell(items: tuple[str, ...]) -> str:
    return "<br>".join(f"`{i}`" for i in items) if items else "—"


def to_markdown(report: Mapping[str, ClauseCoverage]) -> Iterable[str]:
    """The report as a Markdown document (docs/rules-coverage.md is generated from it)."""
    missing = uncovered(report)
    cited = sum(1 for c in report.values() if c.tests)
    checked = [c for c in report.values() if c.kind in CHECKED]
    caught = sum(1 for c in checked if c.run == "caught")
    yield "# Rule coverage"
    yield ""
    yield (
        "Generated by `minors rules coverage --markdown > docs/rules-coverage.md` from a "
        "checkout; do not edit by hand. Each clause of the registry (`tables/clauses.toml`) "
        "with the code that carries it (checks and effects of rule 82's rulebook, functions "
        "marked with the clause) or the table rows that do, the tests that fail when the "
        "disabled-clause run switches it off (`tests/mutation/run_disabled.py`: the code "
        "answers as switched off, the rows are removed or changed), and the other tests that "
        "cite it (`@pytest.mark.rule` markers, the `clauses` of `tests/data/scenarios/*.json`, "
        "the cases of `tests/data/a25/cases.toml`), which do not count."
    )
    yield ""
    yield (
        "The semantic mutation run (flipped comparisons, dropped conditions, off-by-ones ...) "
        "over the rule modules has its own page: [the semantic mutation run](mutation.md)."
    )
    yield ""
    yield f"{cited} of {len(report)} clauses are cited by a test."
    yield (
        f"{caught} of {len(checked)} rules and procedures of rule 82 and A25 are caught: some "
        "test fails with the clause switched off."
    )
    yield f"Rules and procedures with no test ({len(missing)}): {', '.join(missing) or 'none'}."
    yield ""
    yield "| clause | kind | title | fail when it is off | cite it, do not fail | code | data |"
    yield "|---|---|---|---|---|---|---|"
    for c in report.values():
        title = c.title.replace("|", "\\|")
        proven = _cell(c.proven) if c.run == "caught" else c.run
        others = tuple(t for t in c.tests if not any(_proves(p, t) for p in c.proven))
        rows = c.data[:6] + ((f"and {len(c.data) - 6} more",) if len(c.data) > 6 else ())
        yield (
            f"| {c.clause} | {c.kind.value} | {title} | {proven} | {_cell(others)} | "
            f"{_cell(c.code)} | {_cell(rows)} |"
        )
