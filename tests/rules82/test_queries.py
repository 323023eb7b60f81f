"""Questions an engine asks, each answered with its rule."""

from __future__ import annotations

import pytest

import minors
from minors import queries


def _game(*steps: tuple[str, minors.Command]) -> minors.Game:
    game = minors.Game.new()
    for at, cmd in steps:
        game.advance_to(at)
        game.apply(cmd)
    return game


GERMAN_IN_RUMANIA = (
    (
        "1939-fall/axis/diplomacy",
        minors.command("diplomatic_result", minor="Rumania", major="Germany", result=8),
    ),
    (
        "1939-fall/axis/movement",
        minors.command(
            "place",
            units=[{"id": "g1", "owner": "Germany", "kind": "infantry", "factors": 2}],
            **{"in": "Rumania"},
        ),
    ),
)


@pytest.mark.rule("82.83B")
def test_an_independent_minors_attacks_cost_nothing() -> None:
    """82.83B: an independent minor attacks at no BRP cost; a major pays as usual."""
    game = _game(
        (
            "1939-fall/allies/declarations",
            minors.command("border_war", attacker="Russia", target="Finland"),
        )
    )
    answer = queries.attack_costs_brps(game, "Finland")
    assert (bool(answer), answer.rule) == (False, "82.83B")
    assert queries.attack_costs_brps(game, "Germany")
    assert queries.attack_costs_brps(game, "Sweden")  # neutral: not an independent minor


@pytest.mark.rule("82.32E")
def test_attacks_may_be_launched_from_a_controlled_minor() -> None:
    """82.32E: German units in German-controlled Rumania may attack out of it."""
    game = _game(*GERMAN_IN_RUMANIA)
    answer = queries.may_attack_from(game, "g1")
    assert (bool(answer), answer.rule) == (True, "82.32E")
    assert "controlled" in answer.reason


@pytest.mark.rule("82.33")
def test_no_attacks_out_of_a_reversed_minor_and_automatic_supply() -> None:
    """82.33: after a reversal the units may not attack out and are in automatic supply."""
    game = _game(
        *GERMAN_IN_RUMANIA,
        (
            "1939-fall/allies/diplomacy",
            minors.command("diplomatic_result", minor="Rumania", major="Britain", result=-1),
        ),
    )
    answer = queries.may_attack_from(game, "g1")
    assert (bool(answer), answer.rule) == (False, "82.33")
    supply = queries.in_automatic_supply(game, "g1")
    assert (bool(supply), supply.rule) == (True, "82.33")
    assert "1939-winter/axis/redeployment" in supply.reason  # the Axis turn after the roll
    before = _game(*GERMAN_IN_RUMANIA)
    assert not queries.in_automatic_supply(before, "g1")
