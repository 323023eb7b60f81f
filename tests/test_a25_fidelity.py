"""What a rules lawyer found in ASL A25 (issue 14, items 7 to 13), beside the rulebook
cases of tests/data/a25/cases.toml: each test fails on the code before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from minors import TableError, load_ruleset
from minors.cli import main
from minors.domain.a25 import TraitKind, UnitClass
from minors.nationality import profile

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
    """Without a unit, ANZAC Stealth comes once for each class that is not Green, each
    conditioned on its class alone; the Finnish Conscripts, whose crews are left in, keep
    the exception as the condition of the one trait."""
    stealthy = profile("ANZAC", "1942-10").of(TraitKind.STEALTHY)
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
