"""`minors rules coverage`: each clause with the tests that cite it and the code registered
under it, read from the tests folder of a checkout."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from minors import load_ruleset
from minors.cli import main
from minors.cli.coverage import (
    CASE_TEST,
    SITUATION_TEST,
    Citation,
    CoverageError,
    checkout_tests,
    citations,
    coverage,
    to_markdown,
    uncovered,
)
from minors.rules82 import carriers
from tests.paths import TESTS

RS = load_ruleset()


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["rules", "coverage", *args])
    return result.exit_code, result.output


def test_json_names_every_clause_with_tests_code_and_kind() -> None:
    """--json maps every clause of the registry to its tests, code and kind."""
    code, out = _run("--json")
    assert code == 0
    report = json.loads(out)
    assert list(report) == list(RS.clauses)
    entry = report["82.351"]
    assert entry["kind"] == "rule"
    assert "tests/project/test_testing.py::test_an_own_faction_partner_is_barred" in entry["tests"]
    assert "minors.rules82.war._bar (rule)" in entry["code"]
    assert report["82"] == {
        "tests": [], "code": [], "data": [], "proven": [], "run": "not run",
        "kind": "informational",
    }  # fmt: skip


def test_markers_and_situations_are_read_where_they_are(tmp_path: Path) -> None:
    """Markers (not in strings) and situation clauses are citations of the right test."""
    tests = tmp_path / "tests"
    (tests / "data" / "scenarios").mkdir(parents=True)
    (tests / "test_a.py").write_text(
        "import pytest\n"
        "pytestmark = pytest.mark.rule('82.12')\n"
        "@pytest.mark.rule('82.34', '25.85')\n"
        "def test_one():\n"
        "    '''@pytest.mark.rule(\"82.41\") in a string is no citation'''\n"
        "@pytest.mark.rule('82.33')\n"
        "class TestTwo:\n"
        "    @pytest.mark.parametrize('x', [pytest.param(1, marks=pytest.mark.rule('82.35'))])\n"
        "    def test_three(self, x):\n"
        "        pass\n"
    )
    (tests / "data" / "scenarios" / "s.json").write_text('{"clauses": ["82.81"]}')
    found = {(c.clause, c.test) for c in citations(tests)}
    assert found == {
        ("82.12", "tests/test_a.py"),
        ("82.34", "tests/test_a.py::test_one"),
        ("A25.85", "tests/test_a.py::test_one"),
        ("82.33", "tests/test_a.py::TestTwo"),
        ("82.35", "tests/test_a.py::TestTwo::test_three"),
        ("82.81", "tests/data/scenarios/s.json"),
    }


def test_markers_in_sub_folders_are_read(tmp_path: Path) -> None:
    """A test module in a sub-folder of the tests folder cites as well, named by its path."""
    tests = tmp_path / "tests"
    (tests / "rules82").mkdir(parents=True)
    (tests / "rules82" / "test_b.py").write_text(
        "import pytest\n@pytest.mark.rule('82.34')\ndef test_one():\n    pass\n"
    )
    found = {(c.clause, c.test) for c in citations(tests)}
    assert found == {("82.34", "tests/rules82/test_b.py::test_one")}


def test_the_tests_of_situations_and_cases_are_where_coverage_looks() -> None:
    """`SITUATION_TEST` and `CASE_TEST`, the tests that play a situation's file and a case
    of `data/*/cases.toml`, name test functions of this checkout."""
    for name in (SITUATION_TEST, CASE_TEST):
        path, function = name.split("::")
        tree = ast.parse((TESTS.parent / path).read_text(encoding="utf-8"))
        assert function in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}, name


def _lonely_citation() -> Citation:
    """A citation of a rule of 82 that no other test makes, by a marker alone on its line."""
    cited: dict[str, list[Citation]] = {}
    for citation in citations(TESTS):
        cited.setdefault(citation.clause, []).append(citation)
    report = coverage(TESTS)
    for clause, found in cited.items():
        if clause not in report or clause in uncovered(report) or len(found) != 1:
            continue
        entry, (only,) = report[clause], found
        if entry.source != "awaw-82" or entry.kind.value not in ("rule", "procedure"):
            continue
        if (
            only.line
            and only.path.read_text(encoding="utf-8").splitlines()[only.line - 1].strip()
            == f'@pytest.mark.rule("{clause}")'
        ):
            return only
    raise AssertionError("no rule of 82 is cited by exactly one marker")


def test_check_fails_when_a_clause_loses_its_test(tmp_path: Path) -> None:
    """--check exits 1 naming a rule of 82 whose only citation was removed."""
    lonely = _lonely_citation()
    clause = lonely.clause
    copy = tmp_path / "tests"
    shutil.copytree(TESTS, copy, ignore=shutil.ignore_patterns("__pycache__", "mutation"))
    target = copy / lonely.path.relative_to(TESTS)
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    del lines[lonely.line - 1]
    target.write_text("".join(lines), encoding="utf-8")

    code, out = _run("--check", "--tests", str(copy))
    assert code == 1
    assert f"{clause} [" in out
    assert clause in uncovered(coverage(copy))
    _, real = _run("--check", "--tests", str(TESTS))
    assert f"{clause} [" not in real


def test_check_lists_only_untested_rules_and_procedures() -> None:
    """uncovered() keeps rules and procedures of rule 82 and A25 with no test, nothing else."""
    report = coverage(TESTS)
    for clause in uncovered(report):
        entry = report[clause]
        assert entry.kind.value in ("rule", "procedure")
        assert entry.tests == ()
    assert "82" not in uncovered(report)  # informational, untested
    assert "A25.231-1E" not in uncovered(report)  # superseded


def test_a25_cases_count_as_citations() -> None:
    """The clause of each rulebook case of tests/data/a25/cases.toml cites that clause."""
    found = {c.clause for c in citations(TESTS) if c.test.endswith("cases.toml")}
    assert "A25.85" in found
    assert uncovered(coverage(TESTS)) == []


def test_no_tests_folder_exits_2(tmp_path: Path) -> None:
    """Without a tests folder of a checkout the command says so and exits 2."""
    code, out = _run("--tests", str(tmp_path / "nowhere"))
    assert code == 2
    assert "no tests folder" in out
    with pytest.raises(CoverageError, match="checkout"):
        checkout_tests(tmp_path)
    assert checkout_tests() == TESTS


def test_markdown_has_a_row_per_clause_and_the_docs_file_is_generated_from_it() -> None:
    """--markdown has a row per clause, as the committed docs/rules-coverage.md does."""
    lines = list(to_markdown(coverage(TESTS)))
    rows = [line.split(" | ")[0].removeprefix("| ") for line in lines if line.startswith("| ")]
    assert rows[1:] == list(RS.clauses)  # after the header row
    committed = (TESTS.parent / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    assert committed.splitlines()[0] == lines[0]
    for clause in RS.clauses:
        assert f"\n| {clause} | " in committed


def test_the_committed_coverage_page_is_the_generated_one() -> None:
    """docs/rules-coverage.md is exactly what `minors rules coverage --markdown` prints for
    this checkout (regenerate: `minors rules coverage --markdown > docs/rules-coverage.md`)."""
    committed = (TESTS.parent / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    generated = "".join(f"{line}\n" for line in to_markdown(coverage(TESTS)))
    assert committed == generated, (
        "docs/rules-coverage.md is stale: run "
        "`minors rules coverage --markdown > docs/rules-coverage.md`"
    )


# ---- what carries a clause, and the disabled-clause results ----------------------------------


@pytest.mark.rule("A25.22")
@pytest.mark.rule("82.91B")
def test_every_rule_and_procedure_has_code_or_rows() -> None:
    """Each rule and procedure of rule 82 and A25 is carried by registered or marked code,
    or by table rows: the Commissar check is marked, Pacific alignments are rows."""
    report = coverage(TESTS)
    for c in report.values():
        if c.kind.value in ("rule", "procedure"):
            assert c.code or c.data, c.clause
    assert "minors.asl.commissar.check_substitution (marked)" in report["A25.22"].code
    assert report["82.91B"].data == (
        "alignments.Dutch East Indies", "alignments.Communist China", "alignments.Thailand",
    )  # fmt: skip


@pytest.mark.rule("82.91B")
@pytest.mark.rule("A25.7")
def test_switching_rows_off_removes_or_changes_them() -> None:
    """Switched off, a clause's rows are gone (the alignments, A25.7's trait rows) or
    changed (colonies start neutral), in a copy of the tables."""
    assert carriers.switch_off(RS, "82.91B").alignments == {}
    finnish = carriers.switch_off(RS, "A25.7").nationality_traits
    assert not any(r.clause == "A25.7" for r in finnish.values())
    assert any(r.clause == "A25.7" for r in RS.nationality_traits.values())
    colonies = carriers.switch_off(RS, "82.11H").minors
    assert colonies["Gibraltar"].start_status.value == "neutral"
    dest = {t.dest.value for t in carriers.transitions_without("82.11G")}
    assert "conquered" not in dest


def _with_results(tmp_path: Path, change: Any) -> Path:
    copy = tmp_path / "tests"
    shutil.copytree(TESTS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / "mutation" / "disabled.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document["clauses"])
    path.write_text(json.dumps(document), encoding="utf-8")
    return copy


@pytest.mark.rule("82.34")
def test_only_tests_that_fail_switched_off_count(tmp_path: Path) -> None:
    """A clause's counted tests are those that failed with it off; one with none is
    missed, and --check says so."""
    report = coverage(TESTS)
    assert report["82.34"].run == "caught"
    assert report["82.34"].proven
    assert set(report["82.34"].proven) <= set(
        json.loads((TESTS / "mutation" / "disabled.json").read_text())["clauses"]["82.34"]["failed"]
    )

    def miss(clauses: dict[str, Any]) -> None:
        entry = clauses["82.34"]
        entry["passed"] = entry["passed"] + entry["failed"]
        entry["failed"] = []

    missed = coverage(_with_results(tmp_path, miss))
    assert (missed["82.34"].run, missed["82.34"].proven) == ("missed", ())
    code, out = _run("--check", "--tests", str(tmp_path / "tests"))
    assert code == 1
    assert "82.34 [rule] " in out
    assert "no test fails with it switched off" in out


@pytest.mark.rule("82.34")
def test_results_of_other_code_are_stale(tmp_path: Path) -> None:
    """A clause whose code or rows changed since the run (its digest differs) is stale, and
    --check fails naming the way to run it again."""

    def tamper(clauses: dict[str, Any]) -> None:
        clauses["82.34"]["digest"] = "0" * 64

    report = coverage(_with_results(tmp_path, tamper))
    assert report["82.34"].run == "stale"
    assert report["82.34"].proven == ()
    code, out = _run("--check", "--tests", str(tmp_path / "tests"))
    assert code == 1
    assert "82.34 [rule] " in out
    assert "run_disabled.py --stale" in out
