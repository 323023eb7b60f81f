"""Every clause `disabled=` takes switches something off: the list of them is pinned, and
each changes the outcome of some named position played with it off (a situation of
tests/data/scenarios, or a position built here where no situation shows it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import minors
from minors import command
from minors.errors import clause_key
from minors.rules82 import RULEBOOK
from tests.paths import DATA
from tests.rules82.test_scenarios import CASES, play

SWITCHABLE = (DATA / "switchable.txt").read_text().split()
"""Every clause rule 82's rulebook marks something with: `disabled=` takes these alone."""

SITUATIONS = {param.values[0].stem: param.values for param in CASES}

BY_SITUATION = {
    "82.12": "d_poland_deploys_at_the_start",
    "82.13": "s_commonwealth_at_war_from_start",
    "82.21": "w_six_cancels_a_pro_allied_standing",
    "82.22": "w_cancel_to_neutral",
    "82.31": "l_start_with_hexes_controlled",
    "82.32": "l_benelux_with_one_controlled",
    "82.32B": "l_limits_at_their_edge",
    "82.32C": "l_benelux_with_one_controlled",
    "82.32D": "w_reversal_eliminates_garrison",
    "82.321": "l_benelux_with_one_controlled",
    "82.321A": "l_limits_at_their_edge",
    "82.321B": "l_limits_at_their_edge",
    "82.322": "l_finns_and_swedes_exempt_in_finland",
    "82.33": "w_reversal_eliminates_garrison",
    "82.34": "garrison_needs_war",
    "82.35": "w_declaration_by_the_controllers_ally",
    "82.351": "s_barred_partner_stays_independent",
    "82.352": "w_displace_first_adjacent",
    "82.36": "w_subvert_by_germany",
    "82.41": "s_enemy_associate_open_neutral_closed",
    "82.42": "w_border_war_on_a_conquered_minor",
    "82.51": "d_association_deploys",
    "82.52": "d_border_war_redeploy",
    "82.53": "d_default_setup",
    "82.54": "d_a_ship_is_no_ground_unit_in_the_capital",
    "82.55": "d_deploy_leaves_out_what_has_no_room",
    "82.56": "w_displace_first_adjacent",
    "82.61": "d_wrong_forces",
    "82.81": "s_allied_attack_associates_with_germany",
    "82.81A": "garrison_associates",
    "82.81B": "s_neutral_italy_attack_norway_alone",
    "82.81C": "s_britain_out_norway_waits",
    "82.81D": "s_refusal_too_late",
    "82.82": "s_finland_joins_germany_on_barbarossa",
    "82.83A": "s_britain_out_norway_waits",
    "82.83C": "s_dei_troops_stay_home",
    "82.91C": "s_china_allies_with_russia",
    "82.91D": "s_dei_associates_second_turn",
    "82.91F": "s_french_islands_turn_free_french",
    "82.92": "s_philippines_enter_with_us",
    "82.93": "s_burma_not_at_war_before",
    "K1": "w_k1_roll_out_of_turn",
    "K2": "s_french_islands_turn_free_french",
    "K3": "w_k3_duplicate_unit_id",
    "K4": "w_k4_roll_does_not_add_up",
    "K5": "w_k5_air_units_hold_no_capital",
    "K6": "d_a_ship_is_no_ground_unit_in_the_capital",
    "K7": "w_k7_conquer_twice",
}
"""The situation that plays out otherwise with the clause off."""


def _unit(uid: str, owner: str = "Germany", kind: str = "infantry", factors: int = 1) -> Any:
    return {"id": uid, "owner": owner, "kind": kind, "factors": factors}


def _zones(game: minors.Game) -> Any:
    """82.13A: a South African unit bound for France."""
    game.advance_to("1939-fall/allies/movement")
    return game.check(command("move", units=["south-africa-1"], to="France"))


def _built_at_home(game: minors.Game) -> Any:
    """82.13B: a Canadian unit placed in Egypt."""
    return game.check(command("place", units=[_unit("c9", "Canada")], **{"in": "Egypt"}))


def _bases(game: minors.Game) -> Any:
    """82.321C: ten German factors and an airbase in Rumania, which Germany controls."""
    game.apply(command("diplomatic_result", minor="Rumania", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    units = [_unit("g1", factors=5), _unit("g2", factors=5), _unit("b1", kind="airbase")]
    game.apply(command("place", units=units, **{"in": "Rumania"}))
    return list(game.advance_to("1939-fall/axis/combat"))


def _occupied_ukraine(game: minors.Game) -> Any:
    """82.63: Germany, holding the conquered Ukraine, rolls an 8 there."""
    game.advance_to("1941-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Russia"))
    game.advance_to("1941-spring/axis/combat")
    game.apply(command("conquer", minor="Ukraine", by="Germany"))
    game.advance_to("1941-summer/axis/diplomacy")
    game.apply(command("diplomatic_result", minor="Ukraine", major="Germany", result=8))
    return game.state()


VICHY_RUMANIA = RULEBOOK.extend(
    "rumania-a-vichy-colony",
    replace={"vichy_colony": lambda play, major, minor: minor == "Rumania"},
)
"""Rule 82 with Rumania an attacked Vichy colony (the default names none: 82.32A's exemption
then exempts no one, so it shows only under a rulebook that names one)."""


def _vichy_exempt(game: minors.Game) -> Any:
    """82.32A: eleven German factors in Rumania, a Vichy colony under this rulebook."""
    game.apply(command("diplomatic_result", minor="Rumania", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    units = [_unit("g1", factors=6), _unit("g2", factors=5)]
    game.apply(command("place", units=units, **{"in": "Rumania"}))
    return list(game.advance_to("1939-fall/axis/combat"))


BY_POSITION: dict[str, tuple[Callable[[minors.Game], Any], minors.Rulebook]] = {
    "82.13A": (_zones, RULEBOOK),
    "82.13B": (_built_at_home, RULEBOOK),
    "82.32A": (_vichy_exempt, VICHY_RUMANIA),
    "82.321C": (_bases, RULEBOOK),
    "82.63": (_occupied_ukraine, RULEBOOK),
}
"""Positions built here for the clauses no situation shows, each with its rulebook."""


def test_the_clauses_that_can_be_switched_off_are_those_listed() -> None:
    """Rule 82's rulebook marks exactly the clauses of tests/data/switchable.txt: a clause's
    switch removed (its checks and rules unmarked) fails here."""
    assert sorted(RULEBOOK.switchable, key=clause_key) == SWITCHABLE
    assert set(BY_SITUATION) | set(BY_POSITION) == set(SWITCHABLE)


@pytest.mark.parametrize("clause", SWITCHABLE)
def test_switching_a_clause_off_changes_play(clause: str) -> None:
    """With the clause off, its named position plays out otherwise: a command's outcome,
    an event, or the state it leaves."""
    if clause in BY_SITUATION:
        path, expected = SITUATIONS[BY_SITUATION[clause]]
        assert play(path, expected, frozenset({clause})) != play(path, expected)
        return
    position, book = BY_POSITION[clause]
    on = position(minors.Game.new(rulebook=book))
    off = position(minors.Game.new(rulebook=book, disabled={clause}))
    assert on != off
