"""Force pools, the Commonwealth's units, the Pacific start and the questions of 82.7."""

from __future__ import annotations

import pytest

import minors
from minors import command, queries
from minors.queries import Mission
from minors.testing import conquered_units


def unit(uid: str, owner: str, kind: str = "infantry", factors: int = 2) -> dict[str, object]:
    return {"id": uid, "owner": owner, "kind": kind, "factors": factors}


# ---- 82.13 ---------------------------------------------------------------------------------


@pytest.mark.rule("82.13B")
def test_commonwealth_units_are_built_at_home() -> None:
    """82.13B: a Canadian unit is placed in Canada, never elsewhere."""
    game = minors.Game.new()
    ok = command("place", units=[unit("c9", "Canada")], **{"in": "Canada"})
    assert game.check(ok) == []
    away = command("place", units=[unit("c9", "Canada")], **{"in": "Egypt"})
    assert [v.rule for v in game.check(away)] == ["82.13B"]


@pytest.mark.rule("82.13A")
def test_south_african_units_keep_to_their_zone() -> None:
    """82.13A (table): South African units may go to Egypt, not to France."""
    game = minors.Game.new()
    game.advance_to("1939-fall/allies/movement")
    assert game.check(command("move", units=["south-africa-1"], to="Egypt")) == []
    assert [v.rule for v in game.check(command("move", units=["south-africa-1"], to="France"))] == [
        "82.13A"
    ]
    assert game.check(command("move", units=["canada-1"], to="France")) == []  # no zone


@pytest.mark.rule("82.13C")
def test_commonwealth_units_take_attrition_as_their_own_nationality() -> None:
    """82.13C: an Australian unit's attrition nationality is Australia."""
    game = minors.Game.new()
    answer = queries.attrition_nationality(game, "australia-1")
    assert (answer.value, answer.rule) == ("Australia", "82.13C")


@pytest.mark.rule("82.13D")
def test_commonwealth_units_stay_in_the_british_pool_after_surrender() -> None:
    """82.13D: after Britain surrenders, Commonwealth units are still in its force pool."""
    game = minors.Game.new()
    game.apply(command("place", units=[unit("b1", "Britain")], **{"in": "Britain"}))
    game.apply(command("surrender", major="Britain"))
    assert queries.in_british_force_pool(game, "india-1")
    assert queries.in_british_force_pool(game, "india-1").rule == "82.13D"
    assert not queries.in_british_force_pool(game, "b1")


@pytest.mark.rule("82.13")
@pytest.mark.rule("82.61")
def test_commonwealth_units_at_start_and_arrivals() -> None:
    """The Commonwealth table: units at start in each capital, later arrivals by season."""
    game = minors.Game.new()
    units = game.to_json()["units"]
    assert sum(1 for u in units.values() if u["owner"] == "India") == 8
    assert units["canada-1"] == {
        "owner": "Canada",
        "kind": "infantry",
        "factors": 3,
        "in": "Canada",
        "hex": "Ottawa",
    }
    game.advance_to("1940-summer/allies/construction")
    assert sum(1 for u in game.to_json()["units"].values() if u["owner"] == "Australia") == 9
    game.advance_to("1940-fall/axis/diplomacy")
    australia = [u for u in game.to_json()["units"].values() if u["owner"] == "Australia"]
    assert len(australia) == 9 + 2 + 1 + 2  # 2[3] 2-2, 1[4] 1-2, 2 AAF
    game.advance_to("1941-spring/axis/diplomacy")
    assert game.to_json()["units"]["canada-4"]["kind"] == "armor"


# ---- 82.6 ----------------------------------------------------------------------------------


@pytest.mark.rule("82.61")
def test_force_pool_from_the_table() -> None:
    """Greece: one 2-3, five 1-3, an air unit, a cruiser, two destroyers; its partisans."""
    pool = queries.force_pool(minors.Game.new(), "Greece")
    assert sorted(pool.units) == sorted(
        [("infantry", 2)]
        + [("infantry", 1)] * 5
        + [("air", 5), ("naval", 2), ("naval", 1), ("naval", 1)]
    )
    assert pool.partisans == (("wa", 1, 2), ("ru", 1, 2))


@pytest.mark.rule("82.62")
def test_no_forces_without_armed_forces() -> None:
    """82.62: Portugal has none; Kuwait only the partisans of Iraq's row."""
    game = minors.Game.new()
    assert queries.force_pool(game, "Portugal").units == ()
    assert queries.force_pool(game, "Portugal").rule == "82.62"
    kuwait = queries.force_pool(game, "Kuwait")
    assert (kuwait.units, kuwait.partisans) == ((), (("ax", 0, 2),))


@pytest.mark.rule("82.61")
def test_annual_chinese_partisans() -> None:
    """`**`: one more Chinese Communist partisan each year from 1942."""
    game = minors.Game.new()
    assert queries.force_pool(game, "Communist China").partisans == (("ru", 1, 1),)
    game.advance_to("1943-spring/axis/diplomacy")
    assert queries.force_pool(game, "Communist China").partisans == (("ru", 3, 3),)


@pytest.mark.rule("82.63", "82.11G")
def test_ukraine_deploys_only_after_a_successful_result() -> None:
    """82.63: conquered Ukraine raises no forces until its occupier rolls a 7+ for it."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Russia"))
    game.advance_to("1940-spring/axis/combat")
    game.apply(command("conquer", minor="Ukraine", by="Germany"))
    assert queries.force_pool(game, "Ukraine").units == ()
    game.advance_to("1940-summer/axis/diplomacy")
    game.apply(command("diplomatic_result", minor="Ukraine", major="Germany", result=4))
    assert not any(u["owner"] == "Ukraine" for u in game.to_json()["units"].values())
    game.advance_to("1940-fall/axis/diplomacy")
    game.apply(command("diplomatic_result", minor="Ukraine", major="Germany", result=8))
    ukrainian = [u for u in game.to_json()["units"].values() if u["owner"] == "Ukraine"]
    assert len(ukrainian) == 5
    assert len(queries.force_pool(game, "Ukraine").units) == 5
    # the 82.11G invariant reads 82.63 as the kernel does: these units are the result's
    assert conquered_units(game) == []
    # ... and flags them when the result is not held (the kernel never leaves this)
    state = game.state()
    state["minors"]["Ukraine"]["standing"] = None
    flagged = conquered_units(minors.Game.from_state(state))
    assert len(flagged) == 5
    assert all("of conquered Ukraine" in f for f in flagged)


# ---- 82.5 / 82.56 ---------------------------------------------------------------------------


@pytest.mark.rule("82.56")
def test_units_in_an_invaded_minor_are_supplied_for_the_turn() -> None:
    """82.56: Germany, with units in controlled Rumania, declares war on it: its units there
    are in automatic partial supply for the turn of the invasion."""
    game = minors.Game.new()
    game.apply(command("diplomatic_result", minor="Rumania", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    game.apply(command("place", units=[unit("g1", "Germany")], **{"in": "Rumania"}))
    game.advance_to("1939-winter/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Rumania"))
    answer = queries.in_automatic_supply(game, "g1")
    assert (bool(answer), answer.rule) == (True, "82.56")
    game.advance_to("1940-spring/axis/diplomacy")
    assert not queries.in_automatic_supply(game, "g1")


# ---- 82.7 ----------------------------------------------------------------------------------


def _first_turn() -> minors.Game:
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Sweden"))
    game.advance_to("1940-spring/axis/movement")
    game.apply(command("place", units=[unit("gpz", "Germany", "armor")], **{"in": "Germany"}))
    game.apply(command("place", units=[unit("raf", "Britain", "air", 5)], **{"in": "Britain"}))
    game.apply(command("place", units=[unit("bpz", "Britain", "armor")], **{"in": "Britain"}))
    game.apply(command("place", units=[unit("usn", "U.S.", "naval", 5)], **{"in": "U.S."}))
    return game


@pytest.mark.rule("82.71")
def test_a_newly_attacked_minor_only_answers_the_attack() -> None:
    """82.71: Swedish air may intercept and fly defensive support, not attack sea supply;
    its ships only intercept naval missions."""
    game = _first_turn()
    air = next(
        i
        for i, u in game.to_json()["units"].items()
        if u["owner"] == "Sweden" and u["kind"] == "air"
    )
    ship = next(
        i
        for i, u in game.to_json()["units"].items()
        if u["owner"] == "Sweden" and u["kind"] == "naval"
    )
    assert queries.may_fly(game, air, Mission.DEFENSIVE_AIR_SUPPORT)
    assert queries.may_fly(game, air, Mission.INTERCEPT_AIR)
    assert not queries.may_fly(game, air, Mission.ATTACK_SEA_SUPPLY)
    assert not queries.may_fly(game, ship, Mission.INTERCEPT_AIR)
    assert queries.may_fly(game, ship, Mission.INTERCEPT_NAVAL).rule == "82.71"
    game.advance_to("1940-spring/allies/movement")
    assert queries.may_fly(game, air, Mission.ATTACK_SEA_SUPPLY)  # the first turn is over


@pytest.mark.rule("82.72")
def test_enemy_majors_help_only_by_naval_interception() -> None:
    """82.72: British air may not fly defensive support or intercept air transport over
    Sweden in Germany's turn of attack; naval interception is allowed."""
    game = _first_turn()
    assert not queries.may_assist(game, "raf", "Sweden", Mission.DEFENSIVE_AIR_SUPPORT)
    assert not queries.may_assist(game, "raf", "Sweden", Mission.AIR_TRANSPORT)
    assert queries.may_assist(game, "raf", "Sweden", Mission.INTERCEPT_NAVAL).rule == "82.72"


@pytest.mark.rule("82.72")
def test_only_majors_at_war_with_the_attacker_assist() -> None:
    """82.72: the United States, neutral in 1940, may not even intercept naval missions
    over Sweden in Germany's turn of attack; neither may the attacker's own side."""
    game = _first_turn()
    assert not queries.may_assist(game, "usn", "Sweden", Mission.INTERCEPT_NAVAL)
    assert not queries.may_assist(game, "gpz", "Sweden", Mission.INTERCEPT_NAVAL)


@pytest.mark.rule("82.73")
def test_enemy_armor_zoc_extends_in_the_first_turn() -> None:
    """82.73: in Germany's turn of attack, British armor next to Sweden projects its zone
    of control into it; the attacker's own armor gains nothing from the rule."""
    game = _first_turn()
    assert queries.zoc_extends(game, "bpz", "Sweden", adjacent=True)
    assert not queries.zoc_extends(game, "bpz", "Sweden", adjacent=False)
    assert not queries.zoc_extends(game, "gpz", "Sweden", adjacent=True)
    assert not queries.zoc_extends(game, "raf", "Sweden", adjacent=True)  # not armor
    game.advance_to("1940-spring/allies/diplomacy")
    assert not queries.zoc_extends(game, "bpz", "Sweden", adjacent=True)


@pytest.mark.rule("82.34")
def test_the_garrison_may_assist() -> None:
    """82.34: Britain, garrisoning Sweden when Germany attacks, may assist it."""
    game = minors.Game.new()
    game.advance_to("1939-fall/allies/diplomacy")
    game.apply(command("diplomatic_result", minor="Sweden", major="Britain", result=-1))
    game.advance_to("1939-fall/allies/movement")
    game.apply(command("place", units=[unit("b1", "Britain")], **{"in": "Sweden"}))
    game.advance_to("1939-winter/axis/declarations")
    assert not queries.garrison_may_assist(game, "Britain", "Sweden")
    game.apply(command("declare_war", attacker="Germany", target="Sweden"))
    assert queries.garrison_may_assist(game, "Britain", "Sweden")


# ---- 82.9 ----------------------------------------------------------------------------------


@pytest.mark.rule("82.92")
def test_pacific_minors_stand_deployed_at_the_start() -> None:
    """82.92: Communist China, the DEI, the Philippines and Thailand are on the map."""
    units = minors.Game.new().to_json()["units"].values()
    owners = {u["owner"] for u in units}
    assert {"Communist China", "Dutch East Indies", "Philippines", "Thailand"} <= owners
    assert all(u["in"] == u["owner"] for u in units)


@pytest.mark.rule("82.94")
def test_rebuilding_pacific_units() -> None:
    """82.94: in a controlled, supplied hex outside enemy ZoC, or the Australia/India box."""
    game = minors.Game.new()
    assert queries.may_rebuild(
        game, "Philippines", hex_label="Manila", controlled=True, supplied=True
    )
    assert not queries.may_rebuild(
        game, "Philippines", hex_label="Manila", controlled=True, supplied=True, enemy_zoc=True
    )
    assert not queries.may_rebuild(game, "Philippines", hex_label="Manila", controlled=True)
    assert not queries.may_rebuild(
        game, "Philippines", hex_label="Bangkok", controlled=True, supplied=True
    )
    assert queries.may_rebuild(game, "Dutch East Indies", box="Australia").rule == "82.94"
    assert not queries.may_rebuild(game, "Dutch East Indies", box="Ceylon")


@pytest.mark.rule("82.95")
def test_pacific_geography_depends_on_status() -> None:
    """82.95: an associated Philippine unit stays home; an allied Chinese one does not."""
    game = minors.Game.new()
    assert queries.geographic_restriction(game, "philippines-1")
    game.advance_to("1939-fall/allies/declarations")
    game.apply(command("declare_war", attacker="Russia", target="Japan"))
    assert game.minor("Communist China").status.value == "allied"
    assert not queries.geographic_restriction(game, "communist-china-1")
    assert queries.geographic_restriction(game, "communist-china-1").rule == "82.95"


@pytest.mark.rule("82.11G")
def test_a_conquered_minors_units_go_wherever_they_stand() -> None:
    """Conquest removes the minor's units outside its country too (found by Hypothesis)."""
    game = minors.Game.new()
    game.advance_to("1939-fall/allies/movement")
    game.apply(command("move", units=["australia-1"], to="Transjordan"))
    game.advance_to("1939-winter/axis/combat")
    game.apply(command("conquer", minor="Australia", by="Germany"))
    assert not any(u["owner"] == "Australia" for u in game.to_json()["units"].values())
    assert "australia-1" in game.to_json()["eliminated"]


@pytest.mark.rule("82.13")
def test_war_on_the_commonwealth_is_war_on_britain() -> None:
    """82.13: a declaration on Canada is refused: Canada shares Britain's wars."""
    game = minors.Game.new()
    game.advance_to("1939-fall/axis/declarations")
    problems = game.check(command("declare_war", attacker="Italy", target="Canada"))
    assert [p.rule for p in problems] == ["82.13"]
    assert "declare war on Britain" in problems[0].message


@pytest.mark.rule("82.42")
def test_war_on_an_associate_is_war_on_its_major() -> None:
    """82.42: Norway, Britain's associate, is not declared war on by Italy: Britain is."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Norway"))
    game.advance_to("1940-summer/axis/declarations")
    assert game.minor("Norway").status.value == "associated"
    problems = game.check(command("declare_war", attacker="Italy", target="Norway"))
    assert [p.rule for p in problems] == ["82.42"]


@pytest.mark.rule("82.35")
def test_war_on_a_controlled_minor_ends_the_control() -> None:
    """82.35: Germany declares war on Rumania it controls: its standing there ends."""
    game = minors.Game.new()
    game.apply(command("diplomatic_result", minor="Rumania", major="Germany", result=8))
    assert game.minor("Rumania").standing is not None
    game.advance_to("1939-fall/axis/declarations")
    effects = game.apply(command("declare_war", attacker="Germany", target="Rumania"))
    assert game.minor("Rumania").standing is None
    assert any(isinstance(e, minors.Note) and e.rule == "82.35" for e in effects)
    assert game.brps("Germany") == 5 - 10  # the Fall grant (5) stays; the war costs 10


@pytest.mark.rule("K3")
def test_a_hex_named_in_a_major_power_is_never_another_countrys() -> None:
    """The tables list no major power's hexes, but a hex they give another country (Oslo,
    Norway's) is not in Germany: placing or moving a unit there is refused under K3, while
    a hex no country lists is taken as the engine's word (docs/rules.md, K3)."""
    game = minors.Game.new()
    game.advance_to("1939-fall/axis/movement")
    unit = {"id": "ger-9", "owner": "Germany", "kind": "infantry", "factors": 3}
    refused = game.check(command("place", units=[unit], hex="Oslo", **{"in": "Germany"}))
    assert [(v.rule, v.message) for v in refused] == [("K3", "hex 'Oslo' is not in Germany")]
    assert game.check(command("place", units=[unit], hex="Berlin", **{"in": "Germany"})) == []
    game.apply(command("place", units=[unit], **{"in": "Germany"}))
    moved = game.check(command("move", units=["ger-9"], to="Germany", hex="Warsaw"))
    assert [v.rule for v in moved] == ["K3"]
