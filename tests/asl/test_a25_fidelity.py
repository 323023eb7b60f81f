"""What a rules lawyer found in ASL A25 (issue 14, items 7 to 13), beside the rulebook
cases of tests/data/a25/cases.toml: each test fails on the code before its fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import minors
from minors import TableError, load_ruleset
from minors.asl import cascade
from minors.bridge import troops
from minors.cli import main
from minors.domain.a25 import TraitKind, UnitClass, YearMonth
from minors.nationality import profile, resolve, thresholds
from minors.scenario import SAMPLE
from tests.paths import DOCS

# ---- item 7: "X except Y" is stored as that -------------------------------------------


@pytest.mark.rule("A25.7")
def test_an_exception_is_a_condition_of_its_own_in_text_and_json() -> None:
    """The Finnish Self-Rally row leaves out Conscript squads and half-squads: its
    condition says so in words and in the JSON, instead of listing the classes left."""
    (trait,) = profile("Finnish", "1942-02", unit="leader").of(TraitKind.SELF_RALLY)
    assert str(trait.condition) == "except conscript squad/half_squad"
    assert trait.condition.to_json() == {
        "except_classes": ["conscript"],
        "except_units": ["squad", "half_squad"],
    }
    assert trait.condition.classes == ()


@pytest.mark.rule("A25.44")
def test_per_class_the_exception_is_decided_and_not_shown() -> None:
    """Without a unit, ANZAC Stealth comes once for each class that is not Green (in a
    hypothetical scenario, where Conscripts exist: A25.41), each conditioned on its class;
    the Finnish Conscripts, whose crews are left in, keep the exception as the condition
    of the one trait."""
    stealthy = profile("ANZAC", "1942-10", scenario_kind="hypothetical").of(TraitKind.STEALTHY)
    assert [(t.condition.classes, str(t.condition)) for t in stealthy] == [
        ((UnitClass.ELITE,), "elite"),
        ((UnitClass.FIRST_LINE,), "first_line"),
        ((UnitClass.SECOND_LINE,), "second_line"),
        ((UnitClass.CONSCRIPT,), "conscript"),
    ]
    (rally,) = profile("Finnish", "1942-02", unit_class="conscript").of(TraitKind.SELF_RALLY)
    assert str(rally.condition) == "except conscript squad/half_squad"


@pytest.mark.rule("A25.44")
def test_cli_json_shows_the_exception() -> None:
    """`minors nationality ANZAC --unit leader --json`: the leader is Stealthy, and the
    trait's condition is the exception (all but Green)."""
    result = CliRunner().invoke(
        main, ["nationality", "ANZAC", "--date", "1942-10", "--unit", "leader", "--json"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["stealthy"] is True
    (stealthy,) = [t for t in document["traits"] if t["kind"] == "stealthy"]
    assert stealthy["condition"] == {"except_classes": ["green"]}
    assert stealthy["condition_text"] == "except green"


@pytest.mark.parametrize(
    ("row", "where"),
    [
        ('classes = ["elite"]\nexcept_classes = ["green"]', "is given beside classes"),
        ('except_units = ["tank"]', "field 'except_units': 'tank' is not a unit type"),
        ('except_units = ["4-6-7"]', "field 'except_units': Finnish has no '4-6-7' counter"),
    ],
)
def test_bad_exceptions_are_rejected(tmp_path: Path, row: str, where: str) -> None:
    """An exception beside a class list, or naming no unit the nationality has, fails to
    load with the entry, the field and the fix."""
    path = tmp_path / "house.toml"
    path.write_text(
        '[nationality_traits.house]\nnationalities = ["Finnish"]\nkind = "lax"\n'
        f'value = true\nclause = "A25.7"\n{row}\n'
    )
    with pytest.raises(TableError, match=r"house\.toml") as info:
        load_ruleset([path])
    assert where in str(info.value)
    assert "(fix:" in str(info.value)


@pytest.mark.rule("A25.7")
def test_an_overlay_exception_changes_who_holds_the_trait(tmp_path: Path) -> None:
    """A house rule that leaves every Conscript out of Self-Rally (crews too) is one
    changed field."""
    path = tmp_path / "house.toml"
    path.write_text('[nationality_traits."25.7-self-rally"]\nexcept_units = []\n')
    rs = load_ruleset([path])
    query = {"unit": "crew", "unit_class": "conscript"}
    assert profile("Finnish", "1942-02", **query).self_rally is True
    assert profile("Finnish", "1942-02", ruleset=rs, **query).self_rally is False
    assert profile("Finnish", "1942-02", unit="leader", ruleset=rs).self_rally is True


# ---- item 9: an opponent outside A25 -------------------------------------------------


@pytest.mark.rule("A25.8")
@pytest.mark.parametrize("opponent", ["Japan", "Communist China", "Thailand", "Philippines"])
def test_an_opponent_outside_a25_is_an_opponent_no_row_names(opponent: str) -> None:
    """Against a power with no A25 section the profile is the one against any opponent a
    row does not name (here the Russians): only opponent-bound rows read the opponent."""
    query = {"unit_class": "second_line", "unit": "squad", "home": True, "ssr": "home_morale"}
    outside = profile("Romanian", "1944-09", vs=opponent, **query)
    russians = profile("Romanian", "1944-09", vs="Russian", **query)
    assert outside.context.vs == opponent
    assert "another ASL chapter" in outside.context.vs_outside
    assert outside.projection == russians.projection
    assert [t.to_json() for t in outside.traits if t.kind is not TraitKind.ESCAPE] == [
        t.to_json() for t in russians.traits if t.kind is not TraitKind.ESCAPE
    ]  # A25.82: at home Romanians escape from Russians only


@pytest.mark.rule("A25.8")
def test_cli_vs_japan() -> None:
    """`minors nationality British --vs Japan` answers, and says why Japan has no traits."""
    result = CliRunner().invoke(
        main, ["nationality", "British", "--date", "1942-02", "--vs", "Japan", "--json"]
    )
    assert result.exit_code == 0, result.output
    context = json.loads(result.stdout)["context"]
    assert context["vs"] == "Japan"
    assert "another ASL chapter" in context["vs_outside_a25"]
    unknown = CliRunner().invoke(
        main, ["nationality", "British", "--date", "1942-02", "--vs", "Mars"]
    )
    assert unknown.exit_code == 2
    assert "unknown nationality or country 'Mars'" in unknown.stderr


@pytest.mark.rule("A25.4")
def test_the_bridge_keeps_an_opponent_outside_a25() -> None:
    """Britain at war with Germany and Japan gets a profile against each; `vs` naming a
    power outside A25, or a nationality, is the opponent of the profile, never dropped."""
    game = minors.Game.new()
    game.advance_to("1941-winter/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Japan", target="Britain"))
    found = troops(game, "Britain")
    assert [(t.vs, t.profile.context.vs if t.profile else None) for t in found] == [
        ("Germany", "German"),
        ("Japan", "Japan"),
    ]
    (thai,) = troops(game, "Britain", vs="Thailand")
    assert thai.profile is not None
    assert thai.profile.context.vs == "Thailand"
    (vichy,) = troops(game, "Britain", vs="Vichy French")
    assert vichy.profile is not None
    assert vichy.profile.context.vs == "Vichy French"


# ---- item 12: thresholds are months where the answer changes -------------------------


def _changes_by_scan(nationality: str, **query: Any) -> list[str]:
    """Every month whose profile differs from the month before's, by asking each month."""
    first, last = cascade.index_of(load_ruleset()).window[resolve(nationality)]
    month, end = first or YearMonth(1939, 1), last or YearMonth(1945, 12)
    out, before = [], None
    while month <= end:
        answer = profile(nationality, month, **query).to_json()
        del answer["context"]
        if before is not None and answer != before:
            out.append(str(month))
        month, before = month.next(), answer
    return out


@pytest.mark.rule("A25.242")
@pytest.mark.parametrize(
    ("nationality", "query"),
    [
        ("Partisan", {}),
        ("Russian Partisan", {"unit": "commissar"}),
        ("Eritrean", {}),
        ("Free French", {"scenario_kind": "dyo"}),
        ("Vichy French", {}),
        ("Romanian", {"unit_class": "first_line", "vs": "Russian"}),
        ("Finnish", {"vs": "German"}),
        ("SS", {"unit": "squad"}),
        ("Hungarian", {"unit": "crew", "home": True, "ssr": "home_morale"}),
    ],
)
def test_thresholds_are_exactly_the_months_the_answer_changes(
    nationality: str, query: dict[str, Any]
) -> None:
    """`thresholds` gives the months in which the profile asked with the same arguments
    differs from the month before's, and only those: what asking every month finds."""
    assert [str(m) for m in thresholds(nationality, **query)] == _changes_by_scan(
        nationality, **query
    )


@pytest.mark.rule("A25.242")
def test_a_row_overridden_by_a_nationalitys_own_rule_is_no_threshold() -> None:
    """A25.32 turns (a) pieces black from 1944, but Partisan ordnance stays red (A25.242):
    nothing changes for Partisans in 1/44."""
    assert "1944-01" not in [str(m) for m in thresholds("Partisan")]
    assert "1944-01" in [str(m) for m in thresholds("Russian")]


@pytest.mark.rule("A25.78")
def test_the_bridge_reports_the_changes_of_each_profile() -> None:
    """In Winter 1942 Finnish OBA becomes Plentiful in 1/43, except against Germans: the
    profile against Russia changes inside the season, the one against Germany does not."""
    game = minors.Game.new()
    game.advance_to("1942-winter/axis/diplomacy")
    (germans,) = troops(game, "Finland", vs="Germany")
    (russians,) = troops(game, "Finland", vs="Russia")
    assert (germans.changes, russians.changes) == ((), ("1943-01",))


# ---- item 13: A25.41, the Human Wave traits, --vs ---------------------------------------


@pytest.mark.rule("A25.41")
@pytest.mark.parametrize("nationality", ["British", "Gurkha", "ANZAC", "Canadian", "Indian"])
def test_british_conscripts_only_in_hypothetical_scenarios(nationality: str) -> None:
    """A British profile (and a Commonwealth one) resolves no Conscript class in a
    historical or DYO scenario, and does in a hypothetical one."""
    for kind in ("historical", "dyo"):
        found = profile(nationality, "1943-01", scenario_kind=kind)
        assert UnitClass.CONSCRIPT not in found.context.classes
        assert UnitClass.CONSCRIPT not in found.by_class
        assert profile(
            nationality, "1943-01", unit_class="inexperienced", scenario_kind=kind
        ).context.classes == (UnitClass.GREEN,)
    hypothetical = profile(nationality, "1943-01", scenario_kind="hypothetical")
    assert UnitClass.CONSCRIPT in hypothetical.by_class


@pytest.mark.rule("A25.41")
def test_cli_refuses_british_conscripts_in_a_historical_scenario() -> None:
    """`minors nationality British --class conscript` exits 2 naming A25.41, unless the
    scenario is hypothetical."""
    args = ["nationality", "British", "--date", "1943-01", "--class", "conscript"]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2
    assert "A25.41" in refused.stderr
    allowed = CliRunner().invoke(main, [*args, "--scenario-kind", "hypothetical", "--json"])
    assert allowed.exit_code == 0, allowed.output
    assert json.loads(allowed.stdout)["context"]["class"] == "conscript"


def test_a_class_limit_names_its_scenario_kinds(tmp_path: Path) -> None:
    """`classes_only_in` names at least one kind of scenario per class, and its clause."""
    for body, where in (
        (
            ["classes_only_in = { conscript = [] }", "classes_only_in_clause = 'A25.41'"],
            "no kind",
        ),
        (["classes_only_in = { conscript = ['hypothetical'] }"], "classes_only_in_clause"),
    ):
        path = tmp_path / "house.toml"
        path.write_text("\n".join(["[nationalities.French]", *body, ""]))
        with pytest.raises(TableError, match=r"house\.toml") as info:
            load_ruleset([path])
        assert where in str(info.value)


HW_TRAITS = {
    (TraitKind.HW_MORALE_BONUS, ""): 1,
    (TraitKind.LAX, ""): True,
    (TraitKind.LOSES_CONCEALMENT, ""): True,
    (TraitKind.EXEMPT_FROM, "heat_of_battle"): True,
    (TraitKind.EXEMPT_FROM, "paatc"): True,
    (TraitKind.EXEMPT_FROM, "pin"): True,
}


@pytest.mark.rule("A25.23")
def test_the_effects_of_a_hw_unit_are_traits_of_the_russian_profile() -> None:
    """What docs/humanwave.md says being a HW Unit does is in the Russian profile, each a
    trait of A25.23 under its situation, and no projection decides it; other nationalities
    (Russian Partisans included) have none of it."""
    found = profile("Russian", "1943-02", unit="squad", unit_class="conscript")
    for (kind, aspect), value in HW_TRAITS.items():
        (trait,) = found.of(kind, aspect)
        assert (trait.value, trait.clause) == (value, "A25.23")
        assert "HW Unit" in trait.condition.situation
    assert found.lax is False
    for other in ("Russian Partisan", "British", "German"):
        traits = profile(other, "1943-02").traits
        assert not [t for t in traits if (t.kind, t.aspect) in HW_TRAITS and t.clause == "A25.23"]
    text = (DOCS / "humanwave.md").read_text(encoding="utf-8")
    for kind, aspect in HW_TRAITS:
        assert f"`{kind.value}`" in text
        assert not aspect or f"`{aspect}`" in text


@pytest.mark.rule("A25.66")
def test_a_nearer_row_with_an_exception_replaces_only_what_it_takes_in(tmp_path: Path) -> None:
    """A house Eritrean "not Lax, except crews" leaves Eritrean crews under the Italian
    Lax rule: a crew is Lax, a squad is not, and without a unit both rows are listed."""
    path = tmp_path / "house.toml"
    path.write_text('[nationality_traits."25.66-not-lax"]\nexcept_units = ["crew"]\n')
    rs = load_ruleset([path])
    query: dict[str, Any] = {"unit_class": "green", "ruleset": rs}
    assert profile("Eritrean", "1941-03", unit="crew", **query).lax is True
    assert profile("Eritrean", "1941-03", unit="squad", **query).lax is False
    listed = profile("Eritrean", "1941-03", **query).of(TraitKind.LAX)
    assert sorted((t.value, t.nationality) for t in listed) == [
        (False, "Eritrean"),
        (True, "Italian"),
    ]


# ---- round 3 -------------------------------------------------------------------------


@pytest.mark.rule("A25.8")
@pytest.mark.parametrize(("unit_class", "delta"), [("elite", 1), ("first_line", 0)])
def test_two_one_higher_than_printed_rules_do_not_stack(unit_class: str, delta: int) -> None:
    """A25.8: the home-morale SSR and Hungarians against Romanians each set the broken
    side one higher than printed; together it is still one higher (a 1st Line squad's
    printed side is one less, A25.8's first rule, so it ends level), unlike A25.9's Greek
    increase, which adds to whatever else holds."""
    query = {"unit_class": unit_class, "unit": "squad", "vs": "Romanian"}
    both = profile("Hungarian", "1943-01", home=True, ssr="home_morale", **query)
    rivals = profile("Hungarian", "1943-01", **query)
    assert both.projection.broken_morale_delta == rivals.projection.broken_morale_delta == delta
    greek = profile("Greek", "1941-01", unit_class="elite", unit="squad", vs="Italian")
    assert greek.projection.broken_morale_delta == 0  # A25.9: one less, increased by one


TEXT_ENDS = {
    "25.54-british-equipment": "A25.54: scenarios set before 12/43",
    "25.4-indian-second-line": "A25.4: pre-1944 Indian troops",
    "25.22-commissar-substitution": "A25.22: during or before 10/42",
}
"""Rows whose trait stops before their nationality does because the text bounds it."""


def _months(first: YearMonth, last: YearMonth) -> list[YearMonth]:
    out, (y, m) = [], (first.year, first.month)
    while (y, m) <= (last.year, last.month):
        out.append(YearMonth(y, m))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


@pytest.mark.rule("A25.55")
def test_no_month_without_rules() -> None:
    """Every trait a nationality's rows give up to some month is given on to the end of the
    nationality's dates (a later row of the same kind and aspect takes over), unless the
    text bounds it (TEXT_ENDS): Free French troops, accepted to 12/45, kept their A25.55
    equipment only to 5/45 (its heading's dates; its body says in/after 12/43)."""
    rs = load_ruleset()
    window = cascade.index_of(rs).window
    groups: dict[tuple[str, str, str], list[Any]] = {}
    for row in rs.nationality_traits.values():
        for name in row.nationalities:
            if name in window and row.key not in TEXT_ENDS:
                groups.setdefault((name, row.kind.value, str(row.aspect)), []).append(row)
    gaps = {}
    for (name, kind, aspect), rows in groups.items():
        start, end = window[name]
        start, end = start or YearMonth(1939, 1), end or YearMonth(1945, 12)
        spans = [
            (YearMonth.of(r.from_) if r.from_ else start, YearMonth.of(r.until) if r.until else end)
            for r in rows
        ]
        covered = {m for a, b in spans for m in _months(a, b)}
        missing = [m for m in _months(min(a for a, _ in spans), end) if m not in covered]
        if missing:
            gaps[(name, kind, aspect)] = f"{missing[0]}..{missing[-1]}"
    assert gaps == {}
    free = profile("Free French", "1945-09")
    assert [t.value for t in free.of(TraitKind.EQUIPMENT_SOURCE, "vehicles")] == ["U.S."]


@pytest.mark.rule("A25.4")
@pytest.mark.rule("A25.92")
def test_generally_elite_belongs_to_the_polish_forces_in_british_service() -> None:
    """A25.4's volunteers, generally elite, are the Free French and Polish forces in British
    service, not the Polish army of 1939 (A25.9 gives it elite and 1st Line squads): the
    hint leaves Polish troops and follows Poland's troops after its conquest."""
    elite = [("elite",)]
    polish = profile("Polish", "1939-09")
    assert [t.value for t in polish.of(TraitKind.USUAL_CLASSES)] == []
    game = minors.run_scenario(SAMPLE, "1941-spring/axis/diplomacy")
    (poland,) = troops(game, "Poland")
    assert poland.profile is not None
    assert [t.value for t in poland.profile.of(TraitKind.USUAL_CLASSES)] == elite
