"""What a rules lawyer found in rule 82 (issue 14), one test per finding, each failing on
the code before its fix."""

from __future__ import annotations

import pytest

import minors


def _units_of(game: minors.Game, owner: str) -> list[str]:
    return sorted(u.id for u in game.raw_state.units.values() if u.owner == owner)


@pytest.mark.rule("82.51")
@pytest.mark.rule("K3")
def test_an_attacked_minor_deploys_once_and_no_id_is_given_twice() -> None:
    """Turkey, attacked by Russia, sets up its forces; the engine removes them all (lost
    in combat); Germany's later declaration sets up no fresh army, and a removed unit's id
    cannot be placed again."""
    game = minors.Game.new()
    game.advance_to("1940-spring/allies/declarations")
    game.apply(minors.command("declare_war", attacker="Russia", target="Turkey"))
    game.advance_to("1940-spring/allies/movement")
    first = _units_of(game, "Turkey")
    assert first
    game.apply(minors.command("remove", units=first))
    game.advance_to("1940-summer/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Germany", target="Turkey"))
    game.advance_to("1940-summer/axis/movement")
    assert _units_of(game, "Turkey") == []
    again = minors.command(
        "place",
        units=[{"id": first[0], "owner": "Turkey", "kind": "infantry", "factors": 1}],
        **{"in": "Turkey"},
    )
    assert "K3" in [v.rule for v in game.check(again)]


@pytest.mark.rule("82.53")
@pytest.mark.rule("82.12")
def test_poland_holds_its_forces_from_the_start_until_they_are_eliminated() -> None:
    """W. Poland, attacked before the start, sets up when Germany's declarations phase ends
    (82.53) and still holds those units when Britain's alliance comes (82.12)."""
    game = minors.Game.new()
    assert _units_of(game, "W. Poland") == []  # the attack's declarations phase is ahead
    game.advance_to("1939-fall/axis/movement")
    deployed = _units_of(game, "W. Poland")
    assert deployed
    game.advance_to("1939-winter/axis/movement")
    assert game.minor("W. Poland").major == "Britain"
    assert _units_of(game, "W. Poland") == deployed


def _turkey_reversed(britain: int) -> minors.Game:
    """Germany controls Turkey's hexes (8) and puts a unit there; Britain's result
    `britain` reverses that control; a British unit enters if Britain now controls."""
    game = minors.Game.new()
    game.apply(minors.command("diplomatic_result", minor="Turkey", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    unit = {"id": "ger-t", "owner": "Germany", "kind": "infantry", "factors": 1}
    game.apply(minors.command("place", units=[unit], **{"in": "Turkey"}))
    game.advance_to("1939-fall/allies/diplomacy")
    game.apply(minors.command("diplomatic_result", minor="Turkey", major="Britain", result=britain))
    game.advance_to("1939-fall/allies/movement")
    if game.minor("Turkey").standing is not None and game.minor("Turkey").standing.level >= 2:
        unit = {"id": "bri-t", "owner": "Britain", "kind": "infantry", "factors": 1}
        game.apply(minors.command("place", units=[unit], **{"in": "Turkey"}))
    game.advance_to("1939-winter/axis/diplomacy")
    return game


@pytest.mark.rule("82.33")
def test_two_reversals_by_different_sides_each_run_their_deadline() -> None:
    """Britain reverses Germany's control (the Axis must leave by its Winter redeployment);
    Germany's 7 then reverses Britain's without regaining control (the Allies must leave
    by theirs): both deadlines run, where one used to overwrite the other."""
    game = _turkey_reversed(britain=-1)
    game.apply(minors.command("diplomatic_result", minor="Turkey", major="Germany", result=7))
    sides = sorted(d.side.value for d in game.minor("Turkey").deadlines)
    assert sides == ["allies", "axis"]
    game.advance_to("1940-spring/axis/diplomacy")
    assert {"ger-t", "bri-t"} <= set(game.raw_state.eliminated)


@pytest.mark.rule("82.33")
@pytest.mark.rule("82.31")
def test_a_deadline_ends_when_its_side_controls_the_minor_again() -> None:
    """Britain's 0 takes Germany's control away (BRPs for Britain: the Axis must leave);
    Germany's 8 gives the Axis control again before the deadline: its unit stays."""
    game = _turkey_reversed(britain=0)
    assert [d.side.value for d in game.minor("Turkey").deadlines] == ["axis"]
    effects = game.apply(
        minors.command("diplomatic_result", minor="Turkey", major="Germany", result=8)
    )
    assert game.minor("Turkey").deadlines == ()
    assert any(getattr(e, "rule", None) == "82.33" for e in effects)
    game.advance_to("1940-spring/axis/diplomacy")
    assert "ger-t" in game.raw_state.units


@pytest.mark.rule("82.81")
@pytest.mark.rule("82.82")
def test_a_second_attack_by_a_power_at_war_brings_association() -> None:
    """Finland fights on alone after Russia's border war (82.82); Germany, at war with the
    Allies, then declares war on it: Finland associates with Britain by 82.81 as if that
    attack were the first (a reading), and Britain sets its forces up again (82.52)."""
    game = minors.Game.new()
    game.advance_to("1939-fall/allies/declarations")
    game.apply(minors.command("border_war", attacker="Russia", target="Finland"))
    game.advance_to("1940-spring/axis/declarations")
    assert game.minor("Finland").pending.rule == "82.82"
    game.apply(minors.command("declare_war", attacker="Germany", target="Finland"))
    assert game.minor("Finland").pending.partner == "Britain"
    game.advance_to("1940-summer/axis/diplomacy")
    assert game.minor("Finland").status is minors.Status.ASSOCIATED
    assert game.minor("Finland").major == "Britain"
    assert _units_of(game, "Finland")


@pytest.mark.rule("82.82")
def test_a_second_neutral_attacker_leaves_the_minor_fighting_alone() -> None:
    """The renewal needs an attacker at war with an opposing faction: after Russia's border
    war on Finland, Japan's declaration (Japan at war with no Allied power in 1940) changes
    nothing."""
    game = minors.Game.new()
    game.advance_to("1939-fall/allies/declarations")
    game.apply(minors.command("border_war", attacker="Russia", target="Finland"))
    game.advance_to("1940-spring/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Japan", target="Finland"))
    assert game.minor("Finland").pending.rule == "82.82"
    game.advance_to("1940-summer/axis/diplomacy")
    assert game.minor("Finland").status is minors.Status.INDEPENDENT


@pytest.mark.rule("82.91D")
@pytest.mark.rule("82.82")
def test_the_dutch_east_indies_wait_even_when_attacked_first() -> None:
    """Japan attacks the Dutch East Indies before it declares war on Britain (they fight on
    alone, 82.82); Japan's declaration on Britain in Summer 1940 then schedules their
    association for the second game turn after it (82.91D), not at once."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Japan", target="Dutch East Indies"))
    game.advance_to("1940-summer/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Japan", target="Britain"))
    dei = game.minor("Dutch East Indies")
    assert dei.status is minors.Status.INDEPENDENT
    assert dei.pending.rule == "82.91D"
    assert str(dei.pending.due) == "1940-winter/axis/diplomacy"
    game.advance_to("1940-fall/allies/redeployment")
    assert game.minor("Dutch East Indies").status is minors.Status.INDEPENDENT
    game.advance_to("1940-winter/axis/diplomacy")
    assert game.minor("Dutch East Indies").major == "Britain"
