"""The clause registry: every clause of rule 82 and A25, and the `rule` marker guard."""

from __future__ import annotations

import pytest

from minors import ClauseKind, UnknownNameError, load_ruleset
from tests.paths import DATA, TESTS

RS = load_ruleset()


def test_registry_holds_exactly_the_transcribed_ids() -> None:
    """The registry lists every clause id of both texts, in text order, and nothing else."""
    ids = [
        line.strip() for line in (DATA / "clause_ids.txt").read_text().splitlines() if line.strip()
    ]
    assert list(RS.clauses) == ids


@pytest.mark.parametrize(
    "clause_id",
    [
        "82.11A",
        "82.11I",
        "82.13D",
        "82.21B",
        "82.32E",
        "82.321C",
        "82.81D",
        "82.83C",
        "82.91F",
        "82.95",
        "A25.1",
        "A25.2311",
        "A25.2322",
        "A25.92",
    ],
)
def test_lettered_and_deep_clauses_are_present(clause_id: str) -> None:
    """Lettered sub-clauses and four-level paragraphs are registered."""
    assert RS.clause(clause_id).id == clause_id


def test_kinds_of_the_special_clauses() -> None:
    """82.21A-B lost their text; the first-edition duplicate of 25.231 is superseded."""
    assert RS.clause("82.21A").kind is ClauseKind.MISSING_TEXT
    assert RS.clause("82.21B").kind is ClauseKind.MISSING_TEXT
    assert RS.clause("A25.231-1E").kind is ClauseKind.SUPERSEDED
    assert RS.clause("A25.231").kind is not ClauseKind.SUPERSEDED
    assert [c.id for c in RS.clauses.values() if c.kind is ClauseKind.SUPERSEDED] == ["A25.231-1E"]


def test_short_a25_ids_are_accepted() -> None:
    """`25.85` names A25.85; an unknown id is an UnknownNameError with a suggestion."""
    assert RS.clause("25.85").id == "A25.85"
    with pytest.raises(UnknownNameError, match=r"82\.341"):
        RS.clause("82.341")


def test_every_parent_exists_and_comes_first() -> None:
    """Sub-clauses point to a registered parent listed before them."""
    order = list(RS.clauses)
    for clause in RS.clauses.values():
        if clause.parent:
            assert order.index(clause.parent) < order.index(clause.id)


def test_unknown_clause_in_a_rule_marker_fails_the_suite(pytester: pytest.Pytester) -> None:
    """A test marked with a clause the registry lacks makes the whole run fail."""
    pytester.makeconftest(
        (TESTS / "conftest.py").read_text().replace('pytest_plugins = ["pytester"]', "")
    )
    pytester.makeini("[pytest]\nmarkers =\n    rule(clause): the clause checked\n")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.rule("82.34")
        def test_known():
            assert True

        @pytest.mark.rule("82.99Z")
        def test_unknown():
            assert True
        """
    )
    result = pytester.runpytest("--strict-markers")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*rule('82.99Z') is not in tables/clauses.toml*"])
