"""ASL A25 nationality profiles: the rulebook cases of tests/data/a25, the tree and its
overrides, class expansion, errors, the countries of the strategic tables, the JSON and
readable CLI, the table checks and the generated docs."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

import minors
from minors import ClauseKind, TableError, UnknownNameError, load_ruleset
from minors.cli import main
from minors.domain.a25 import TraitKind, UnitClass, YearMonth
from minors.errors import clause_key
from minors.nationality import (
    NoNationalityError,
    ProfileError,
    country_nationality,
    lineage,
    profile,
    resolve,
    thresholds,
)
from tests.paths import ROOT
from tests.tools.nationality_doc import generated_part, markdown

CASES = tomllib.loads((ROOT / "tests/data/a25/cases.toml").read_text(encoding="utf-8"))["case"]
RS = load_ruleset()
ERRORS = {"ProfileError": ProfileError, "UnknownNameError": UnknownNameError}

# Commissar, Human Wave and DYO purchase checks are another module's (A25.22-A25.234,
# A25.57): their clauses need no case here, though the traits they have get one.
CHECKS_ELSEWHERE = {
    "A25.22", "A25.221", "A25.222", "A25.223", "A25.23", "A25.231", "A25.2311", "A25.232",
    "A25.2321", "A25.2322", "A25.233", "A25.234", "A25.57",
}  # fmt: skip


def _query(case: dict[str, Any]) -> dict[str, Any]:
    return {
        "unit_class": case.get("class"),
        "unit": case.get("unit"),
        "vs": case.get("vs"),
        "home": case.get("home", False),
        "ssr": case.get("ssr", ()),
        "scenario_kind": case.get("scenario_kind", "historical"),
    }


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _path(document: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        document = None if document is None else document[part]
    return document


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=f"{c['clause']}: {c['name']}", marks=pytest.mark.rule(c["clause"]))
        for c in CASES
    ],
)
def test_rulebook_case(case: dict[str, Any]) -> None:
    """The profile gives exactly the traits and projections the case expects."""
    _check(case, RS)


def _check(case: dict[str, Any], rs: minors.Ruleset) -> None:
    if "error" in case:
        with pytest.raises(ERRORS[case["error"]], match=case.get("match")):
            profile(case["nationality"], case["date"], ruleset=rs, **_query(case))
        return
    found = profile(case["nationality"], case["date"], ruleset=rs, **_query(case))
    traits = [t.to_json() for t in found.traits]
    for expected in case.get("expect", []):
        same = [
            t
            for t in traits
            if t["kind"] == expected["kind"] and t["aspect"] == expected.get("aspect")
        ]
        if expected.get("absent"):
            assert same == [], expected
            continue
        assert {_frozen(t["value"]) for t in same} == {_frozen(v) for v in expected["values"]}
        if "count" in expected:
            assert len(same) == expected["count"], same
        if "clauses" in expected:
            assert {t["clause"] for t in same} == set(expected["clauses"]), same
    document = found.to_json()
    for dotted, value in case.get("project", {}).items():
        assert _path(document, dotted) == (None if value == "null" else value), dotted


def _holds(case: dict[str, Any], rs: minors.Ruleset) -> bool:
    try:
        _check(case, rs)
    except (AssertionError, minors.MinorsError, pytest.fail.Exception):
        return False
    return True


@pytest.mark.parametrize(
    "clause", sorted({r.clause for r in RS.nationality_traits.values() if r.clause}, key=clause_key)
)
def test_each_clause_has_a_case_that_fails_without_its_rows(clause: str) -> None:
    """With every row citing the clause taken out of the tables, some case of the clause
    fails: each A25 clause that data carries is cited by a test that notices it broken."""
    rows = {k: r for k, r in RS.nationality_traits.items() if r.clause != clause}
    broken = attrs.evolve(RS, nationality_traits=MappingProxyType(rows))
    cases = [c for c in CASES if c["clause"] == clause]
    assert [c["name"] for c in cases if not _holds(c, broken)] != []


def test_every_rule_clause_has_a_case() -> None:
    """Each A25 clause of kind rule or procedure has a case, but those whose checks live in
    the Commissar, Human Wave and DYO modules; a clause any row cites has one too."""
    cased = {c["clause"] for c in CASES}
    rules = {
        c.id
        for c in RS.clauses.values()
        if c.source == "asl-a25" and c.kind in (ClauseKind.RULE, ClauseKind.PROCEDURE)
    }
    cited = {r.clause for r in RS.nationality_traits.values() if r.clause}
    assert (rules - CHECKS_ELSEWHERE) - cased == set()
    assert cited - cased == set()


def test_every_threshold_has_cases_on_both_sides() -> None:
    """For each month where a row starts or stops, or a nationality's span begins or
    ends, a case of its clause queries the month before and the month itself."""
    dated: dict[str, set[str]] = {}
    for c in CASES:
        dated.setdefault(c["clause"], set()).add(c["date"])
    missing = []
    edges: list[tuple[str, YearMonth]] = []
    for row in RS.nationality_traits.values():
        if row.clause and row.from_:
            edges.append((row.clause, row.from_))
        if row.clause and row.until:
            edges.append((row.clause, row.until.next()))
    for record in RS.nationalities.values():
        for edge in (record.from_, record.until.next() if record.until else None):
            if edge and str(edge) not in ("1939-01", "1946-01"):
                edges.append((record.clause, edge))
    for clause, month in edges:
        for side in (month.previous(), month):
            if str(side) not in dated.get(clause, set()):
                missing.append(f"{clause} at {side}")
    assert missing == []


def test_issue_thresholds_are_all_tested() -> None:
    """The months the issue names (10/42 ... 1945) are thresholds that cases straddle."""
    months = {YearMonth.parse(c["date"]) for c in CASES}
    for text in ("1942-11", "1943-01", "1943-07", "1943-12", "1944-01", "1944-03"):
        month = YearMonth.parse(text)
        assert {month.previous(), month} <= months, text
    for text in ("1944-06", "1944-07", "1944-10", "1945-01"):
        month = YearMonth.parse(text)
        assert {month.previous(), month} <= months, text


# ---- the tree ------------------------------------------------------------------------


@pytest.mark.rule("A25.4")
@pytest.mark.parametrize(
    ("child", "parent"),
    [
        ("SS", "German"),
        ("Gurkha", "British"),
        ("ANZAC", "British"),
        ("Canadian", "British"),
        ("Indian", "British"),
        ("Free French", "British"),
        ("Vichy French", "French"),
        ("Eritrean", "Italian"),
        ("Romanian", "Axis Minor"),
        ("Hungarian", "Axis Minor"),
        ("Slovakian", "Axis Minor"),
        ("Croatian", "Axis Minor"),
        ("Bulgarian", "Axis Minor"),
        ("Polish", "Allied Minor"),
        ("Belgian", "Allied Minor"),
        ("Greek", "Allied Minor"),
        ("Yugoslav", "Allied Minor"),
        ("Dutch", "Allied Minor"),
        ("Norwegian", "Allied Minor"),
    ],
)
def test_tree_parents(child: str, parent: str) -> None:
    """Each nationality has the parent the issue gives it."""
    assert lineage(child)[1] == parent


@pytest.mark.rule("A25.24")
def test_roots() -> None:
    """German, Russian, Partisan, American, British, French, Italian, Finnish, Axis Minor
    and Allied Minor are roots; Partisans are their own (A25.24)."""
    roots = [n for n, r in RS.nationalities.items() if not r.parent]
    assert roots == [
        "German", "Russian", "Partisan", "American", "British", "French", "Italian",
        "Finnish", "Axis Minor", "Allied Minor",
    ]  # fmt: skip


@pytest.mark.rule("A25.66")
def test_child_row_replaces_parent_row_only_where_it_applies() -> None:
    """An Eritrean row replaces the Italian Lax row; a Romanian 1st Line row replaces the
    Axis Minor PAATC only for 1st Line units (the rest keep the inherited row)."""
    assert [t.source for t in profile("Eritrean", "1941-03").of(TraitKind.LAX)] == ["25.66-not-lax"]
    romanian = profile("Romanian", "1943-08")
    by_class = {c: p.paatc for c, p in romanian.by_class.items()}
    assert by_class == {
        UnitClass.ELITE: "normal",
        UnitClass.FIRST_LINE: "normal",
        UnitClass.SECOND_LINE: "1paatc",
        UnitClass.GREEN: "1paatc",
        UnitClass.CONSCRIPT: "1paatc",
    }
    assert romanian.paatc is None  # differs by class: see by_class


@pytest.mark.rule("A25.64")
def test_class_dependent_trait_comes_once_per_class() -> None:
    """Without a class, Lax comes once for each non-elite class, each conditioned on it."""
    lax = profile("Italian", "1941-06").of(TraitKind.LAX)
    assert [t.condition.classes for t in lax] == [
        (UnitClass.FIRST_LINE,),
        (UnitClass.SECOND_LINE,),
        (UnitClass.GREEN,),
        (UnitClass.CONSCRIPT,),
    ]
    one = profile("Italian", "1941-06", unit_class="green").of(TraitKind.LAX)
    assert [t.condition.classes for t in one] == [(UnitClass.GREEN,)]


@pytest.mark.rule("A25.91")
def test_inexperienced_is_green_and_conscript() -> None:
    """`inexperienced` resolves Green and Conscript; a class-free trait comes once."""
    found = profile("Polish", "1939-09", unit_class="inexperienced")
    assert found.context.classes == (UnitClass.GREEN, UnitClass.CONSCRIPT)
    assert [t.condition.classes for t in found.of(TraitKind.PAATC)] == [
        (UnitClass.GREEN,),
        (UnitClass.CONSCRIPT,),
    ]
    assert len(found.of(TraitKind.RULES_AFTER_CONQUEST)) == 1
    assert UnitClass.GREEN.inexperienced
    assert not UnitClass.SECOND_LINE.inexperienced


@pytest.mark.rule("A25.8")
def test_broken_morale_order_printed_then_modifiers() -> None:
    """The printed broken side comes first, then the modifiers: a Romanian 2nd Line squad
    at home with the SSR against Hungarians has both "one higher than printed" rows listed,
    and breaks one above its printed side (one below Good Order), not two (A25.8)."""
    found = profile(
        "Romanian",
        "1944-09",
        unit_class="second_line",
        unit="squad",
        vs="Hungarian",
        home=True,
        ssr={"home_morale"},
    )
    printed = [t.value for t in found.of(TraitKind.BROKEN_MORALE)]
    added = [t.value for t in found.of(TraitKind.BROKEN_MORALE_ABOVE_PRINTED)]
    assert (printed, added) == ([-1], [1, 1])
    assert found.broken_morale_delta == 0


@pytest.mark.rule("A25.76")
def test_thresholds_list_the_months_traits_change() -> None:
    """`thresholds` gives the months in which a trait starts or stops (the bridge reports
    changes inside a season)."""
    finnish = [str(m) for m in thresholds("Finnish")]
    assert {"1940-01", "1941-01", "1943-01", "1944-07"} <= set(finnish)
    assert finnish == sorted(finnish)
    assert "1943-07" in [str(m) for m in thresholds("Rumania")]


# ---- countries -----------------------------------------------------------------------


@pytest.mark.rule("A25.92")
def test_every_country_maps_to_a_nationality_or_a_reason() -> None:
    """Every minor and major power maps to a nationality of the tree, or to none with a
    reason; Japan, China and the Pacific minors say why."""
    for name in (*RS.minors, *RS.majors):
        mapping = country_nationality(name)
        if mapping.nationality is None:
            assert mapping.reason, name
        else:
            assert mapping.nationality in RS.nationalities, name
    for name in ("Japan", "Communist China", "Dutch East Indies", "Philippines", "Thailand"):
        mapping = country_nationality(name)
        assert mapping.nationality is None
        assert "another ASL chapter" in mapping.reason
    assert "no armed forces" in country_nationality("Gibraltar").reason


@pytest.mark.rule("A25.92")
@pytest.mark.parametrize(
    ("country", "options", "nationality", "clause"),
    [
        ("Rumania", {}, "Romanian", "A25.8"),
        ("Hungary", {}, "Hungarian", "A25.8"),
        ("Finland", {}, "Finnish", "A25.7"),
        ("W. Poland", {}, "Polish", "A25.9"),
        ("Australia", {}, "ANZAC", "A25.44"),
        ("India", {}, "Indian", "A25.4"),
        ("Vichy France", {}, "Vichy French", "A25.58"),
        ("Belgium", {"conquered": True}, "British", "A25.92"),
        ("France", {"conquered": True}, "Free French", "A25.53"),
        ("Spain", {"side": "axis"}, "Axis Minor", "A25.9"),
        ("Spain", {}, "Allied Minor", "A25.9"),
        ("Yugoslavia", {"side": "axis"}, "Croatian", "A25.9"),
        ("Rumania", {"conquered": True}, "Romanian", "A25.8"),
    ],
)
def test_country_nationality(
    country: str, options: dict[str, Any], nationality: str, clause: str
) -> None:
    """A country's troops, as Germany's ally, and after its conquest (A25.92)."""
    mapping = country_nationality(country, **options)
    assert (mapping.nationality, mapping.clause) == (nationality, clause)


@pytest.mark.rule("A25.92")
def test_organized_by_is_overridable(tmp_path: Path) -> None:
    """An overlay can have a conquered Poland fight on as Russian."""
    path = tmp_path / "house.toml"
    path.write_text('[country_nationality."W. Poland"]\norganized_by = "Russian"\n')
    rs = load_ruleset([path])
    assert country_nationality("W. Poland", conquered=True, ruleset=rs).nationality == "Russian"


def test_names_resolve_as_nationality_first_then_country() -> None:
    """Nationality names ignore case, spaces, hyphens; a country goes through its row."""
    assert resolve("free-french") == "Free French"
    assert resolve("ROMANIAN") == "Romanian"
    assert resolve("Rumanian") == "Romanian"
    assert resolve("Rumania") == "Romanian"
    assert resolve("USSR") == "Russian"
    assert profile("Great Britain", "1942-06").country == "Britain"
    with pytest.raises(NoNationalityError, match="another ASL chapter"):
        resolve("Japan")


# ---- errors --------------------------------------------------------------------------


@pytest.mark.parametrize("date", ["1944-13", "1944-1", "44-01", "1944-00", "", "June 1944"])
def test_impossible_dates(date: str) -> None:
    """A malformed month is a ProfileError: a MinorsError and a ValueError."""
    with pytest.raises(ProfileError) as info:
        profile("German", date)
    assert isinstance(info.value, minors.MinorsError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("kwargs", "kind"),
    [
        ({"nationality": "Atlantean"}, "nationality or country"),
        ({"unit": "4-6-7"}, "counter of German troops"),
        ({"unit": "tank"}, "unit type"),
        ({"unit_class": "veteran"}, "unit class"),
        ({"ssr": ["night"]}, "special rule"),
        ({"scenario_kind": "campaign"}, "scenario kind"),
        ({"vs": "Martian"}, "nationality or country"),
    ],
)
def test_unknown_names(kwargs: dict[str, Any], kind: str) -> None:
    """Unknown names are UnknownNameErrors (LookupError, MinorsError) naming what."""
    query: dict[str, Any] = {"nationality": "German", "date": "1943-06", **kwargs}
    with pytest.raises(UnknownNameError, match=kind) as info:
        profile(**query)
    assert isinstance(info.value, LookupError)


@pytest.mark.rule("A25.8")
def test_a_single_special_rule_may_be_given_alone() -> None:
    """`ssr="home_morale"` is one rule, not a set of letters."""
    query: dict[str, Any] = {"unit": "squad", "unit_class": "first_line", "home": True}
    alone = profile("Romanian", "1944-08", ssr="home_morale", **query)
    assert alone.broken_morale_delta == 0
    assert (
        alone.context.ssr
        == profile("Romanian", "1944-08", ssr=["home_morale"], **query).context.ssr
    )


def test_opponent_on_the_same_side_is_refused() -> None:
    """A nationality cannot oppose itself, a parent or a child."""
    with pytest.raises(ProfileError, match="cannot oppose"):
        profile("SS", "1944-06", vs="German")
    with pytest.raises(ProfileError, match="cannot oppose"):
        profile("Axis Minor", "1944-06", vs="Romanian")


def test_a_leader_has_no_class() -> None:
    """A class given with a leader is refused; the leader profile is class-free."""
    with pytest.raises(ProfileError, match="no unit class"):
        profile("Finnish", "1943-06", unit="leader", unit_class="elite")
    assert profile("Finnish", "1943-06", unit="leader").context.classes == (None,)


def test_conflicting_rows_fail_the_projection(tmp_path: Path) -> None:
    """Two rows of one nationality holding together with different values are a table
    error, named, not a silent pick."""
    path = tmp_path / "house.toml"
    path.write_text(
        '[nationality_traits.house-lax]\nnationalities = ["Italian"]\nkind = "lax"\n'
        'value = false\nclause = "A25.64"\n'
    )
    rs = load_ruleset([path])
    with pytest.raises(TableError, match="house-lax"):
        profile("Italian", "1941-06", unit_class="green", ruleset=rs)


# ---- the tables ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overlay", "where"),
    [
        ('[nationalities.SS]\nparent = "Germans"\n', "'nationalities.SS', field 'parent'"),
        ('[nationalities.German]\nparent = "SS"\n', "cycle"),
        (
            '[nationality_traits."25.6-ordnance"]\nclause = "A25.99"\n',
            "field 'clause': clause 'A25.99' is not in the registry",
        ),
        (
            '[country_nationality.Atlantis]\nnationality = "German"\n',
            "'country_nationality.Atlantis', field 'country'",
        ),
        ('[nationality_traits."25.1-elite-4-6-8"]\nfrom = "1944-13"\n', "field 'from'"),
        ('[nationality_traits."25.1-elite-4-6-8"]\nunits = ["4-6-7"]\n', "no '4-6-7' counter"),
        ('[nationality_traits."25.1-elite-4-6-8"]\nsituation = "before 1944"\n', "holds a date"),
        ('[nationality_traits."25.6-ordnance"]\naspect = "howitzer"\n', "not an aspect"),
        ('[nationality_traits."25.6-ordnance"]\nvalue = 3\n', "field 'value'"),
        ('[nationality_traits."25.6-ordnance"]\nvs = ["Martian"]\n', "field 'vs'"),
        ('[replacement_charts.Finnish]\nsteps = ["elite"]\n', "at least two steps"),
        ('[country_nationality.Japan]\nnationality = "German"\n', "not both"),
    ],
)
def test_bad_tables_are_rejected(tmp_path: Path, overlay: str, where: str) -> None:
    """A bad A25 row fails to load, naming the file, entry, field and fix."""
    path = tmp_path / "house.toml"
    path.write_text(overlay)
    with pytest.raises(TableError, match=r"house\.toml") as info:
        load_ruleset([path])
    assert where in str(info.value)
    assert "(fix:" in str(info.value)


@pytest.mark.rule("A25.72")
def test_finnish_chart_is_labelled_and_replaceable(tmp_path: Path) -> None:
    """The missing A25.72 chart is a labelled stand-in that an overlay replaces."""
    assert RS.is_illustrative("replacement_charts")
    chain = profile("Finnish", "1943-06", unit="squad").of(TraitKind.REPLACEMENT_CHAIN)
    assert chain[0].basis.value == "illustrative"
    path = tmp_path / "chart.toml"
    path.write_text(
        "[replacement_charts.Finnish]\nsteps = ['8-3-8', '4-3-7']\nillustrative = false\n"
        "[provenance.replacement_charts]\nremove = true\n"
    )
    rs = load_ruleset([path])
    found = profile("Finnish", "1943-06", unit="squad", ruleset=rs)
    assert found.of(TraitKind.BATTLE_HARDENING_CHAIN)[0].value == ("4-3-7", "8-3-8")
    assert found.of(TraitKind.REPLACEMENT_CHAIN)[0].basis.value == "rule"


@pytest.mark.rule("A25.11")
def test_ss_broken_side_is_marked_as_from_the_counters() -> None:
    """The SS +1 is a fact from the counters, and labelled so."""
    (trait,) = profile("SS", "1944-06", unit="squad").of(TraitKind.BROKEN_MORALE)
    assert (trait.value, trait.basis.value) == (1, "counters")


# ---- JSON and CLI --------------------------------------------------------------------


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.rule("A25.85")
def test_cli_json_has_the_projections() -> None:
    """`--json` prints the nationality, every trait and each projection the issue names."""
    code, out, _ = _cli(
        "nationality", "Rumania", "--date", "1944-06", "--class", "elite", "--unit", "squad",
        "--vs", "Hungary", "--json",
    )  # fmt: skip
    assert code == 0
    document = json.loads(out)
    assert document["nationality"] == "Romanian"
    assert document["country"] == "Rumania"
    assert document["traits"]
    assert all("clause" in t for t in document["traits"])
    assert document["to_hit"] == "red"
    assert document["to_hit_by_weapon"] == {
        "ordnance": "red",
        "afv": "red",
        "mg_atr": "red",
        "marked": {"(a)": "black", "(g)": "black", "(t)": "black"},
    }
    assert document["paatc"] == "normal"
    assert document["broken_morale_delta"] == 1
    assert document["no_quarter"] is True
    assert [document[k] for k in ("lax", "stealthy", "cowering_immune", "self_rally")] == [
        False
    ] * 4
    assert document["may_deploy"] is True
    assert document["panzerfaust"]["range"] == 2
    order = list(RS.clauses)
    assert {"A25.8", "A25.85", "A25.32"} <= set(document["rules"])
    assert document["rules"] == sorted(document["rules"], key=order.index)
    assert document["by_class"] is None


@pytest.mark.rule("A25.7")
def test_cli_readable_lists_traits_and_clauses() -> None:
    """The readable output names each trait with its clause, and the projections."""
    code, out, _ = _cli("nationality", "Finnish", "--date", "1944-07", "--class", "first_line")
    assert code == 0
    for text in ("self_rally", "A25.7", "A25.76", "ski_capable", "Projections", "panzerfaust"):
        assert text in out


@pytest.mark.rule("A25.212")
def test_cli_ssr_repeatable_and_comma_separated() -> None:
    """`--ssr` takes several rules, repeated or comma-separated."""
    code, out, _ = _cli(
        "nationality", "Russian", "--date", "1941-07", "--ssr", "early_war_doctrine,elr_override",
        "--ssr", "assault_fire", "--json",
    )  # fmt: skip
    assert code == 0
    document = json.loads(out)
    assert document["context"]["ssr"] == ["assault_fire", "early_war_doctrine", "elr_override"]
    assert "A25.212" in document["rules"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("Atlantis", "--date", "1944-01"), "unknown nationality or country 'Atlantis'"),
        (("German", "--date", "1944-13"), "impossible date"),
        (("French", "--date", "1941-01"), "impossible date 1941-01 for French troops"),
        (("Japan", "--date", "1942-01"), "Japan has no A25 nationality"),
        (("Partisan", "--date", "1943-01", "--class", "green"), "A25.24"),
        (("German", "--date", "1944-01", "--ssr", "night"), "unknown special rule"),
        (("German",), "--date YYYY-MM"),
        (
            ("German", "--date", "1944-01", "--at", "1940-spring"),
            "--at cannot apply without --scenario",
        ),
        (
            ("German", "--date", "1944-01", "--in", "Germany"),
            "--in cannot apply without --scenario",
        ),
        (
            ("Hungary", "--scenario", "x.toml", "--at", "1940-spring", "--date", "1944-01"),
            "--date cannot apply with --scenario",
        ),
        (("Hungary", "--scenario", "x.toml", "--at", "1940-spring", "--home"), "--home cannot"),
    ],
)
def test_cli_errors_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    """Unknown names, impossible dates and options that cannot apply exit 2 with a clear
    message."""
    code, out, err = _cli("nationality", *args)
    assert code == 2
    assert out == ""
    assert message in err


# ---- docs ----------------------------------------------------------------------------


def test_docs_tables_are_the_generated_ones() -> None:
    """docs/nationality.md holds exactly what `python -m tests.tools.nationality_doc` writes."""
    document = (ROOT / "docs/nationality.md").read_text(encoding="utf-8")
    assert generated_part(document) == markdown(RS).strip()


def test_docs_list_every_nationality_and_country() -> None:
    """The generated doc has a section per nationality and a row per mapped country."""
    text = markdown(RS)
    for name, record in RS.nationalities.items():
        assert f"### {name} ({record.clause})" in text
    for country in RS.country_nationality:
        assert f"| {country} |" in text


def _tree_mutations() -> list[tuple[str, str, Any]]:
    """(clause, what is broken, the broken nationality table) for the tree's own data: the
    months a nationality has, its classes, the classes limited to some scenarios, the class
    A25 gives a counter."""
    out: list[tuple[str, str, Any]] = []
    nations = RS.nationalities

    def without(name: str, **changes: Any) -> Any:
        return MappingProxyType({**nations, name: attrs.evolve(nations[name], **changes)})

    for name, record in nations.items():
        if record.from_ or record.until:
            months = (record.from_, record.until)
            if months != (YearMonth(1939, 1), YearMonth(1945, 12)):
                out.append((record.clause, f"{name} months", without(name, from_=None, until=None)))
        if record.classes is not None:
            clause = record.classes_clause or record.clause
            out.append((clause, f"{name} classes", without(name, classes=None)))
        if record.classes_only_in:
            broken = without(name, classes_only_in={})
            out.append((record.classes_only_in_clause, f"{name} classes_only_in", broken))
        for unit in record.units:
            if unit.unit_class is not None:
                units = tuple(
                    attrs.evolve(u, unit_class=None) if u == unit else u for u in record.units
                )
                out.append((unit.clause, f"{name} {unit.rating} class", without(name, units=units)))
    return out


@pytest.mark.parametrize(
    ("clause", "what", "nations"), [pytest.param(*m, id=m[1]) for m in _tree_mutations()]
)
def test_each_clause_of_the_tree_has_a_case_that_fails_without_it(
    clause: str, what: str, nations: Any
) -> None:
    """With a nationality's months, classes, class limits or a counter's class taken out,
    some case of the clause that gives it fails."""
    broken = attrs.evolve(RS, nationalities=nations)
    cases = [c for c in CASES if c["clause"] == clause]
    assert [c["name"] for c in cases if not _holds(c, broken)] != [], what


def test_the_a25_72_chart_has_a_case_that_fails_without_it() -> None:
    """With the Finnish replacement chart reversed, a case of A25.72 fails."""
    chart = RS.replacement_charts["Finnish"]
    reversed_chart = attrs.evolve(chart, steps=tuple(reversed(chart.steps)))
    broken = attrs.evolve(RS, replacement_charts=MappingProxyType({"Finnish": reversed_chart}))
    cases = [c for c in CASES if c["clause"] == "A25.72"]
    assert [c["name"] for c in cases if not _holds(c, broken)] != []
