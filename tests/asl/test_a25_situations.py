"""How A25's profiles describe a trait's conditions and the query they answer (the text
of `condition_text`, the JSON of a trait and of a query's context): each condition a
nationality's row may carry is said, in order, and what is not given is null."""

from __future__ import annotations

import pytest

from minors import Ruleset, load_ruleset
from minors.asl.nationality import country_nationality, lineage, profile, resolve, thresholds
from minors.asl.traits import QueryContext, QueryUnit, Trait, TraitCondition
from minors.domain.a25 import (
    Basis,
    ScenarioKind,
    Ssr,
    ToHit,
    TraitKind,
    UnitClass,
    UnitType,
    Weapon,
    YearMonth,
)
from minors.errors import LONGEST_NAME, ProfileError, UnknownNameError


@pytest.mark.rule("A25.1")
def test_a_conditions_text_names_each_condition_in_order() -> None:
    """A condition reads: the dates, the classes, the units, what it leaves out, the
    opponents it holds (or not) against, at home or abroad, the SSR it needs or that
    lifts it, the kinds of scenario and the situation; with none it reads `always`."""
    june42, may45 = YearMonth.parse("1942-06"), YearMonth.parse("1945-05")
    assert str(TraitCondition()) == "always"
    assert str(TraitCondition(from_=june42, until=may45)) == f"{june42} to {may45}"
    assert str(TraitCondition(from_=june42)) == f"from {june42}"
    assert str(TraitCondition(until=may45)) == f"until {may45}"
    full = TraitCondition(
        classes=(UnitClass.ELITE,),
        units=("squad", "leader"),
        except_units=("crew",),
        vs=("russian",),
        not_vs=("german",),
        home=False,
        ssr=Ssr.ASSAULT_FIRE,
        unless_ssr=Ssr.HOME_MORALE,
        scenario_kinds=(ScenarioKind.DYO,),
        situation="in a building",
    )
    assert str(full) == (
        "elite; squad, leader; except crew; vs russian; not vs german; abroad; "
        "SSR assault_fire; unless SSR home_morale; dyo scenarios; in a building"
    )
    assert str(TraitCondition(home=True, except_classes=(UnitClass.GREEN,))) == (
        "except green; at home"
    )


@pytest.mark.rule("A25.1")
def test_a_traits_json_gives_null_for_what_it_lacks() -> None:
    """A trait without a reference, source or note gives null for each; one with them
    gives them as written."""
    kind = next(iter(TraitKind))
    bare = Trait(kind, True, "A25.1", TraitCondition(), basis=next(iter(Basis)))
    data = bare.to_json()
    assert (data["reference"], data["source"], data["note"]) == (None, None, None)
    assert data["condition_text"] == "always"
    full = Trait(
        kind, True, "A25.1", TraitCondition(), basis=next(iter(Basis)),
        reference="A25.11", source="ASLRB", note="a note",
    )  # fmt: skip
    data = full.to_json()
    assert (data["reference"], data["source"], data["note"]) == ("A25.11", "ASLRB", "a note")


@pytest.mark.rule("A25.1")
def test_a_query_names_its_unit_and_why_the_opponent_is_outside_a25() -> None:
    """A queried unit is named by its rating when it has one, else by its type; a query's
    context gives why the opponent has no A25 section, or null."""
    assert str(QueryUnit(UnitType.SQUAD, rating="4-6-7")) == "4-6-7"
    assert str(QueryUnit(UnitType.SQUAD)) == "squad"

    def context(vs_outside: str = "") -> QueryContext:
        return QueryContext(
            YearMonth.parse("1942-06"), (None,), None, None, None, frozenset(), False,
            frozenset(), ScenarioKind.HISTORICAL, vs_outside,
        )  # fmt: skip

    assert context().to_json()["vs_outside_a25"] is None
    assert context("no A25 section").to_json()["vs_outside_a25"] == "no A25 section"


# ---- a nearer nationality's row and the row it inherits (A25.1's tree) ------------------

_ROW = (
    '[nationality_traits.{key}]\nnationalities = ["{nat}"]\nkind = "{kind}"\n'
    'value = {value}\nclause = "A25.1"\n{extra}\n'
)


def _house(*rows: tuple[str, str, str], kind: str = "stealthy", value: str = "true") -> Ruleset:
    """The built-in tables with house rows `(key, nationality, extra fields)` added."""
    text = "".join(
        _ROW.format(key=key, nat=nat, kind=kind, value=value, extra=extra)
        for key, nat, extra in rows
    )
    return load_ruleset([("house.toml", text.encode())])


@pytest.mark.rule("A25.1")
@pytest.mark.parametrize(
    ("parent", "child", "query", "listed"),
    [
        ('situation = "in a building"', "", {}, {"child"}),
        ("", 'units = ["squad"]', {}, {"parent", "child"}),
        ("", 'units = ["squad"]', {"unit": "squad"}, {"child"}),
        ('units = ["squad"]', 'units = ["squad"]', {}, {"child"}),
        ('units = ["crew"]', 'units = ["squad"]', {}, {"parent", "child"}),
        ('except_units = ["crew"]', 'except_units = ["crew"]', {}, {"child"}),
        ('except_units = ["leader"]', 'except_units = ["crew"]', {}, {"parent", "child"}),
        ("", 'except_units = ["crew"]', {}, {"parent", "child"}),
        (
            'except_classes = ["green"]\nexcept_units = ["crew"]',
            'except_units = ["crew"]',
            {"unit_class": "elite"},
            {"parent", "child"},
        ),
        ("", 'vs = ["Russian"]', {}, {"parent", "child"}),
        ('vs = ["Russian"]', 'vs = ["Russian"]', {}, {"child"}),
        ('vs = ["British"]', 'vs = ["Russian"]', {}, {"parent", "child"}),
        ("", 'not_vs = ["Russian"]', {}, {"parent", "child"}),
        ('not_vs = ["Russian"]', 'not_vs = ["Russian"]', {}, {"child"}),
        ('vs = ["British"]', 'not_vs = ["Russian"]', {}, {"child"}),
        ('vs = ["Russian"]', 'not_vs = ["Russian"]', {}, {"parent", "child"}),
    ],
)
def test_a_nearer_row_replaces_an_inherited_one_only_where_it_holds_wherever_that_does(
    parent: str, child: str, query: dict[str, str], listed: set[str]
) -> None:
    """An SS row replaces the German row of the same trait only if, for what the query leaves
    open (unit, exception, opponent, situation), it holds wherever the German row does."""
    rs = _house(("parent", "German", parent), ("child", "SS", child))
    found = profile("SS", "1943-06", ruleset=rs, **query).of(TraitKind.STEALTHY)  # type: ignore[arg-type]
    assert {t.source for t in found} == listed


@pytest.mark.rule("A25.22")
def test_tables_read_afresh_know_commissars_aliases_and_the_ss_classes() -> None:
    """Tables loaded with an overlay are indexed anew: Russians have Commissars and Germans
    none (A25.22), `Soviet` names the Russians, and SS units are Elite only (A25.11)."""
    rs = _house(("child", "SS", ""))
    assert profile("Russian", "1943-06", unit="commissar", ruleset=rs).context.unit is not None
    with pytest.raises(ProfileError, match="no Commissars"):
        profile("German", "1943-06", unit="commissar", ruleset=rs)
    assert resolve("Soviet", ruleset=rs) == "Russian"
    assert profile("SS", "1943-06", unit_class="elite", ruleset=rs).context.classes == (
        UnitClass.ELITE,
    )
    with pytest.raises(ProfileError, match=r"their classes are elite \(A25\.11\)"):
        profile("SS", "1943-06", unit_class="green", ruleset=rs)


@pytest.mark.rule("A25.11")
@pytest.mark.parametrize(("classes_clause", "cited"), [("A25.1", "A25.1"), ("", "A25.11")])
def test_a_refused_class_cites_the_clause_that_lists_the_classes(
    classes_clause: str, cited: str
) -> None:
    """A class the nationality never has is refused citing the clause that lists its
    classes, or the nationality's own clause when the tables name none."""
    overlay = f'[nationalities.SS]\nclasses_clause = "{classes_clause}"\n'
    rs = load_ruleset([("house.toml", overlay.encode())])
    with pytest.raises(ProfileError) as info:
        profile("SS", "1943-06", unit_class="green", ruleset=rs)
    assert str(info.value).endswith(f"elite ({cited})")


@pytest.mark.rule("A25.7")
@pytest.mark.parametrize(
    ("nationality", "query", "kind", "conditions"),
    [
        (
            "Finnish",
            {"unit": "squad"},
            TraitKind.SELF_RALLY,
            [
                (UnitClass.ELITE, ()),
                (UnitClass.FIRST_LINE, ()),
                (UnitClass.SECOND_LINE, ()),
                (UnitClass.GREEN, ()),
            ],
        ),
        (
            "Romanian",
            {},
            TraitKind.ATMM,
            [(UnitClass.ELITE, ("crew",)), (UnitClass.FIRST_LINE, ("crew",))],
        ),
    ],
)
def test_a_trait_narrowed_to_a_class_keeps_only_the_exception_that_class_has(
    nationality: str,
    query: dict[str, str],
    kind: TraitKind,
    conditions: list[tuple[UnitClass, tuple[str, ...]]],
) -> None:
    """Finnish squads self-rally unless Conscript (A25.7): per class, the trait leaves out
    nothing more; Romanian Elite and 1st Line MMC have ATMM except crews (A25.87), whichever
    class is asked."""
    found = profile(nationality, "1944-09", **query).of(kind)  # type: ignore[arg-type]
    rows = {"25.7-self-rally", "25.87-atmm"}
    assert [(t.condition.classes, t.condition.except_units) for t in found if t.source in rows] == [
        ((c,), units) for c, units in conditions
    ]


@pytest.mark.rule("A25.6")
def test_marked_guns_take_the_ordnance_colour_when_no_row_gives_theirs() -> None:
    """Italian ordnance hits on the red To Hit table (A25.6), and so do their
    marked-gun weapons, which no row of their own colours."""
    colours = profile("Italian", "1941-06").projection.to_hit_by_weapon
    assert colours[Weapon.MARKED_G] is colours[Weapon.MARKED_T] is ToHit.RED


@pytest.mark.rule("A25.6")
def test_a_colour_that_differs_by_class_is_left_to_the_class() -> None:
    """A house rule giving Eritrean Elite AFV fire the black table: asked without a class,
    the merged answer for AFVs is open (None), each class keeps its own."""
    rs = _house(
        ("elite-afv", "Eritrean", 'aspect = "afv"\nclasses = ["elite"]'),
        kind="to_hit",
        value='"black"',
    )
    found = profile("Eritrean", "1941-03", ruleset=rs)
    assert found.projection.to_hit_by_weapon[Weapon.AFV] is None
    assert found.by_class[UnitClass.ELITE].to_hit_by_weapon[Weapon.AFV] is ToHit.BLACK
    assert found.by_class[UnitClass.GREEN].to_hit_by_weapon[Weapon.AFV] is ToHit.RED


# ---- the query: names, dates, units, classes and the order of the answer ----------------

_HOUSE_TABLES = b"""
[nationalities.Atlantean]
clause = "A25.1"
[nationalities.Muvian]
clause = "A25.1"
from = "1950-01"
successors = ["German"]
[nationalities.Russian]
aliases = ["Soviet", "Ivan"]
[country_nationality.Finland]
nationality = "German"
[nationality_traits.house-atlantean]
nationalities = ["Atlantean"]
kind = "stealthy"
value = true
clause = "A25.1"
from = "1950-01"
[nationality_traits.house-early]
nationalities = ["German"]
kind = "stealthy"
value = true
clause = "A25.1"
from = "1939-01"
until = "1942-06"
[nationality_traits.house-late]
nationalities = ["German"]
kind = "self_rally"
value = true
clause = "A25.1"
from = "1944-02"
until = "1945-11"
[nationality_traits.house-last]
nationalities = ["German"]
kind = "cowering_immune"
value = true
clause = "A25.1"
until = "1945-12"
"""


@pytest.fixture(scope="module")
def house() -> Ruleset:
    """House tables: a nationality A25 gives no months, German rows that start and stop
    inside and at the edges of the German months, a new alias and a country remapped."""
    return load_ruleset([("house.toml", _HOUSE_TABLES)])


@pytest.mark.rule("A25.1")
def test_the_months_a_house_rule_changes_are_those_it_starts_and_the_one_after_it_stops(
    house: Ruleset,
) -> None:
    """A row from the first German month is no change; one ending in 6/42 changes 7/42;
    one ending the month before the Germans' last changes that last month; one ending with
    the German months changes nothing A25 can be asked about."""
    assert [str(m) for m in thresholds("German", ruleset=house)] == [
        "1942-07",
        "1944-01",
        "1944-02",
        "1945-12",
    ]
    assert [str(m) for m in thresholds("Atlantean", ruleset=house)] == ["1944-01", "1950-01"]


@pytest.mark.rule("A25.1")
def test_a_nationality_without_months_is_asked_about_any_month(house: Ruleset) -> None:
    """A house nationality A25 gives no months is answered in 1960, and its counters,
    of which it has none, are named as none; one that starts in 1950 and has no end is
    refused before, naming no successor (these follow only its end)."""
    assert profile("Atlantean", "1960-01", ruleset=house).projection.stealthy is True
    with pytest.raises(UnknownNameError, match="A25 names none;"):
        profile("Atlantean", "1960-01", unit="9-9-9", ruleset=house)
    with pytest.raises(UnknownNameError, match="A25 names 4-6-8, 5-4-8, 8-3-8;"):
        profile("German", "1943-06", unit="9-9-9", ruleset=house)
    with pytest.raises(ProfileError) as info:
        profile("Muvian", "1949-12", ruleset=house)
    assert str(info.value).endswith("from 1950-01 to the end (A25.1)")


@pytest.mark.rule("A25.2")
def test_the_names_a_house_table_gives_are_the_ones_resolved(house: Ruleset) -> None:
    """With the house tables, `Ivan` is Russian and Finland's troops German, whatever the
    built-in tables say."""
    assert resolve("Ivan", ruleset=house) == "Russian"
    assert lineage("Ivan", ruleset=house) == ("Russian",)
    assert country_nationality("Finland", ruleset=house).nationality == "German"


@pytest.mark.rule("A25.1")
def test_traits_come_in_the_order_of_the_text_then_the_other_rules_by_name() -> None:
    """Romanian traits come in A25's order; rules outside A25 (A1.31, A11.6) come last, by
    name; the Finnish replacement chain comes before its reverse (A25.72)."""
    romanian = [t.clause for t in profile("Romanian", "1943-06").traits]
    assert romanian[-2:] == ["A1.31", "A11.6"]
    text = {c: i for i, c in enumerate(load_ruleset().clauses)}
    positions = [text[c] for c in romanian[2:-2]]  # after Romanian, Axis Minor
    assert positions == sorted(positions)
    finnish = [t.kind for t in profile("Finnish", "1943-06").traits]
    chain = TraitKind.REPLACEMENT_CHAIN, TraitKind.BATTLE_HARDENING_CHAIN
    assert [k for k in finnish if k in chain] == list(chain)


@pytest.mark.rule("A25.5")
@pytest.mark.parametrize(
    ("nationality", "month", "after"),
    [
        ("French", "1938-12", ""),
        ("French", "1940-07", "; after that use Vichy French or Free French"),
        ("Vichy French", "1946-01", ""),
    ],
)
def test_a_month_outside_the_nationalitys_names_its_successors_only_after_it(
    nationality: str, month: str, after: str
) -> None:
    """French troops asked for after June 1940 are pointed to Vichy or Free French (A25.5);
    before 1939, or Vichy French after the war, nothing follows."""
    with pytest.raises(ProfileError) as info:
        profile(nationality, month)
    assert str(info.value).endswith(f"){after}")


@pytest.mark.rule("A25.11")
def test_a_rating_and_its_own_class_together_are_one_query() -> None:
    """A German 4-6-8 is Elite (A25.11): asking for it as Elite is that class alone; the
    SS profile names itself with its months, then the German rules it inherits."""
    assert profile("German", "1943-06", unit="4-6-8", unit_class="elite").context.classes == (
        UnitClass.ELITE,
    )
    own, parent = profile("SS", "1943-06").traits[:2]
    assert (own.value, str(own.condition.from_)) == ("SS", "1939-01")
    assert (parent.value, parent.condition.from_) == ("German", None)


@pytest.mark.rule("A25.91")
def test_two_classes_asked_together_are_each_projected() -> None:
    """Polish Inexperienced troops are Green and Conscript, each with its own projection."""
    found = profile("Polish", "1939-09", unit_class="inexperienced")
    assert set(found.by_class) == {UnitClass.GREEN, UnitClass.CONSCRIPT}


def test_asked_without_a_unit_the_projection_is_a_squads() -> None:
    """Squads may Deploy (A1.31), crews not: the projection of a German query without a
    unit is a squad's, not one leaving the squad-only rows open."""
    assert profile("German", "1943-06").projection.may_deploy is True
    assert profile("German", "1943-06", unit="crew").projection.may_deploy is False


def test_a_name_as_long_as_allowed_is_read() -> None:
    """A nationality padded with spaces to the longest name accepted is still read."""
    assert profile("Russian".ljust(LONGEST_NAME), "1943-06").nationality == "Russian"


def test_misspellings_get_a_few_suggestions() -> None:
    """`Gersian` is answered with the three nearest names, `_line` with the two classes
    it is nearest."""
    with pytest.raises(UnknownNameError) as info:
        profile("Gersian", "1943-06")
    assert len(info.value.suggestions) == 3
    with pytest.raises(UnknownNameError) as info:
        profile("German", "1943-06", unit_class="_line")
    assert info.value.suggestions == ("first_line", "second_line")
