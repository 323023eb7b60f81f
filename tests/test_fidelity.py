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
    game = minors.Game.new()
    assert _units_of(game, "W. Poland") == []  # the attack's declarations phase is ahead
    game.advance_to("1939-fall/axis/movement")
    deployed = _units_of(game, "W. Poland")
    assert deployed
    game.advance_to("1939-winter/axis/movement")
    assert game.minor("W. Poland").major == "Britain"
    assert _units_of(game, "W. Poland") == deployed
