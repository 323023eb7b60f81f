"""How A25's profiles describe a trait's conditions and the query they answer (the text
of `condition_text`, the JSON of a trait and of a query's context): each condition a
nationality's row may carry is said, in order, and what is not given is null."""

from __future__ import annotations

import pytest

from minors.asl.traits import QueryContext, QueryUnit, Trait, TraitCondition
from minors.domain.a25 import Basis, ScenarioKind, Ssr, TraitKind, UnitClass, UnitType, YearMonth


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
