"""Rule 82 situations a rules lawyer would set up, each asserting what a player sees: an
attacked minor's set-up (82.5, 82.61), the Commonwealth's arrivals, diplomacy's results,
the limits on foreign forces and the wars a declaration brings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

import minors
from minors import Game, RuleViolation, command, load_ruleset
from minors.domain import DiplomaticLevel, Side, Status, Theater
from minors.domain.clock import Moment
from minors.rules82 import RULEBOOK
from minors.rules82.deployment import force_specs, short_of_room
from minors.rules82.diplomacy import Standing, status_of
from minors.testing import unbatched_legal_actions
from tests.paths import SCENARIOS

TURKEY = [
    ("turkey-1", "infantry", 2), ("turkey-2", "infantry", 2), ("turkey-3", "infantry", 2),
    ("turkey-4", "infantry", 2), ("turkey-5", "infantry", 2), ("turkey-6", "infantry", 2),
    ("turkey-7", "infantry", 2), ("turkey-8", "armor", 2), ("turkey-9", "air", 5),
    ("turkey-10", "air", 5), ("turkey-ca-11", "naval", 2), ("turkey-yavuz-12", "naval", 2),
    ("turkey-13", "naval", 1), ("turkey-14", "naval", 1),
]  # fmt: skip
"""Turkey's forces by the 82.61 table, the § footnote's named ships (a CA of 2, the Yavuz
at the column's strength) in place of its CA cell."""


def _rules(game: Game, cmd: Any) -> list[str]:
    return [v.rule for v in game.check(cmd)]


def _units(game: Game, owner: str) -> dict[str, tuple[str, int, str | None]]:
    """An owner's units on the map: id -> (kind, factors, hex)."""
    return {
        u.id: (u.kind.value, u.factors, u.hex)
        for u in game.raw_state.units.values()
        if u.owner == owner
    }


def _turkey_attacked() -> Game:
    """Spring 1940: Germany declares war on Turkey; Britain is to set Turkey up (82.52)."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Turkey"))
    return game


@pytest.mark.rule("82.61")
def test_turkeys_forces_are_its_table_row_with_the_named_ships() -> None:
    """Turkey's forces are its row of the forces table, its CA cell replaced by the §
    footnote's ships; a minor with partisans only, or none, sets up nothing."""
    game = Game.new()
    assert force_specs(game.play(), "Turkey") == TURKEY
    assert force_specs(game.play(), "Iraq") == []
    assert force_specs(game.play(), "Denmark") == []


@pytest.mark.rule("82.61")
def test_a_house_footnote_ship_keeps_its_own_strength(tmp_path: Path) -> None:
    """With a house § footnote giving Turkey's CA 3 factors, the CA deploys at 3 and the
    Yavuz, given none, at the column's 2."""
    path = tmp_path / "house.toml"
    path.write_text(
        '[force_footnotes."§"]\n'
        'ships = [{ kind = "CA", factors = 3 }, { kind = "BC", name = "Yavuz" }]\n',
        encoding="utf-8",
    )
    game = Game.new(load_ruleset([path]))
    specs = force_specs(game.play(), "Turkey")
    assert ("turkey-ca-11", "naval", 3) in specs
    assert ("turkey-yavuz-12", "naval", 2) in specs


@pytest.mark.rule("82.52")
@pytest.mark.rule("82.53")
@pytest.mark.rule("82.54")
@pytest.mark.rule("82.55")
def test_turkeys_default_set_up_is_offered_and_placed_when_the_phase_ends() -> None:
    """Britain sets up Turkey, attacked by Germany: the default set-up (two ground units
    a hex, the strongest in Ankara first, the ships in the capital, the air units where
    there is room) is the one Deploy offered, and it stands when the declarations phase
    ends, each unit placed under 82.53 and the note naming Britain."""
    game = _turkey_attacked()
    offered = game.legal_actions("deploy")
    assert len(offered) == 1
    placed = {p.id: p.hex for p in offered[0].placements}
    assert placed == {
        "turkey-1": "Ankara", "turkey-2": "Ankara", "turkey-3": "Eskisehir",
        "turkey-4": "Eskisehir", "turkey-5": "Kirikkale", "turkey-6": "Kirikkale",
        "turkey-7": "Kirsehir", "turkey-8": "Kirsehir", "turkey-9": "Istanbul",
        "turkey-10": "Istanbul", "turkey-ca-11": "Ankara", "turkey-yavuz-12": "Ankara",
        "turkey-13": "Ankara", "turkey-14": "Ankara",
    }  # fmt: skip
    assert _units(game, "Turkey") == {}  # not before the phase ends
    effects = game.advance_to("1940-spring/axis/movement")
    assert _units(game, "Turkey") == {i: (k, f, placed[i]) for i, k, f in TURKEY}
    assert [e.unit for e in effects if type(e).__name__ == "UnitPlaced"] == [
        i for i, _, _ in TURKEY
    ]
    assert game.minor("Turkey").deployed
    assert game.minor("Turkey").deployment is None
    assert game.legal_actions("deploy") == []


@pytest.mark.rule("82.52")
@pytest.mark.rule("82.54")
@pytest.mark.rule("82.55")
@pytest.mark.rule("82.61")
def test_britains_own_set_up_of_turkey_is_checked_and_kept() -> None:
    """Britain's own set-up must be Turkey's forces exactly (82.61), under new distinct
    ids (K3), with a ground unit in Ankara (82.54), in Turkey's free hexes and at most
    two ground units a hex, ships not counted (82.55); a lawful one is placed as given
    when the phase ends, and none is taken once the phase is over (K1)."""
    game = _turkey_attacked()
    game.apply(
        command(
            "place",
            units=[{"id": "bri-t", "owner": "Britain", "kind": "infantry", "factors": 1}],
            **{"in": "Turkey", "hex": "Izmir"},
        )
    )
    default = game.legal_actions("deploy")[0]
    assert "Izmir" not in {p.hex for p in default.placements}  # a British unit holds it
    base = list(default.placements)

    def refusals(placements: list[Any]) -> list[tuple[str, str]]:
        cmd = attrs.evolve(default, placements=tuple(placements))
        return [(v.rule, v.message) for v in game.check(cmd)]

    assert refusals(base) == []
    assert refusals(base[1:]) == [
        ("82.61", "Turkey's forces are 2× air 5, 1× armor 2, 7× infantry 2, 2× naval 1, "
                  "2× naval 2, not 2× air 5, 1× armor 2, 6× infantry 2, 2× naval 1, "
                  "2× naval 2"),
    ]  # fmt: skip
    twice = [base[0], attrs.evolve(base[1], id=base[0].id), *base[2:]]
    assert [r for r, _ in refusals(twice)] == ["K3"]
    taken = [attrs.evolve(base[0], id="bri-t"), *base[1:]]
    assert [r for r, _ in refusals(taken)] == ["K3"]
    own = [attrs.evolve(base[0], id="turkey-99"), *base[1:]]
    assert refusals(own) == []  # any new id will do
    moved = [attrs.evolve(p, hex="Erzurum") if p.hex in ("Ankara", "Eskisehir")
             and p.kind.value != "naval" else p for p in base]  # fmt: skip
    assert refusals(moved) == [
        ("82.54", "a ground unit of Turkey must deploy in its capital Ankara"),
        ("82.55", "4 units in Erzurum exceed the stacking limit of 2"),
    ]
    air = [attrs.evolve(p, hex="Ankara") if p.kind.value == "air" else p for p in base]
    assert refusals(air) == [("82.55", "4 units in Ankara exceed the stacking limit of 2")]
    ships = [attrs.evolve(p, hex="Izmir") if p.id == "turkey-13" else p for p in base]
    assert [r for r, _ in refusals(ships)] == ["82.55"]
    assert "not a free hex of Turkey" in refusals(ships)[0][1]
    chosen = [attrs.evolve(p, hex="Erzurum") if p.kind.value == "air" else p for p in base]
    game.apply(attrs.evolve(default, placements=tuple(chosen)))
    notes = [e for e in game.log[-1].effects if type(e).__name__ == "Note"]
    assert [n.text for n in notes] == ["Britain sets up Turkey's forces"]
    game.advance_to("1940-spring/axis/movement")
    assert game.unit("turkey-9").hex == "Erzurum"
    assert game.unit("turkey-1").hex == "Ankara"
    with pytest.raises(RuleViolation, match="K1"):
        game.apply(default)


@pytest.mark.rule("K3")
@pytest.mark.rule("82.53")
def test_a_set_up_skips_an_id_already_given() -> None:
    """A German unit placed under the id turkey-1 keeps it: Turkey's set-up, made when
    the declarations phase ends, gives its forces only ids never given (K3)."""
    game = Game.new()
    game.advance_to("1939-fall/axis/movement")
    game.apply(
        command(
            "place",
            units=[{"id": "turkey-1", "owner": "Germany", "kind": "armor", "factors": 4}],
            **{"in": "Germany"},
        )
    )
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Turkey"))
    game.advance_to("1940-spring/axis/movement")
    assert game.unit("turkey-1").owner == "Germany"
    assert "turkey-1" not in _units(game, "Turkey")
    assert len(_units(game, "Turkey")) == len(TURKEY) - 1


@pytest.mark.rule("82.61")
def test_the_commonwealth_arrivals_come_each_season_under_new_ids() -> None:
    """Canada's arrivals come at the start of their season (82.61 Commonwealth table):
    a 3-4 in Fall 1940, a 4-5 (armor) in Spring 1941, in Ottawa, numbered after every unit it
    ever had, removed ones included."""
    game = Game.new()
    assert sorted(_units(game, "Canada")) == ["canada-1", "canada-2"]
    game.advance_to("1940-spring/allies/movement")
    game.apply(command("remove", units=["canada-2"]))
    game.advance_to("1940-summer/axis/diplomacy")
    assert sorted(_units(game, "Canada")) == ["canada-1"]
    game.advance_to("1940-fall/axis/diplomacy")
    assert _units(game, "Canada") == {
        "canada-1": ("infantry", 3, "Ottawa"),
        "canada-3": ("infantry", 3, "Ottawa"),
    }
    game.advance_to("1941-spring/axis/diplomacy")
    assert _units(game, "Canada")["canada-4"] == ("armor", 4, "Ottawa")
    assert len(_units(game, "Canada")) == 3


@pytest.mark.rule("82.61")
@pytest.mark.rule("82.92")
def test_house_forces_rows_keep_their_cells_and_colonies_set_up_nothing(tmp_path: Path) -> None:
    """A house mark on Bulgaria's 1-3 cell naming a footnote that lists no ships leaves
    the cell's units as counted; a Commonwealth country's forces come from its own table,
    not the forces table; a Pacific colony given a partisans-only row has not set up at
    the start (82.92), and India, with no forces row, neither."""
    path = tmp_path / "house.toml"
    path.write_text(
        '[forces.Bulgaria]\nmarks = { army_1_3 = "*" }\n\n'
        '[forces.Burma]\ntheater = "pacific"\npartisans_wa = "1"\n',
        encoding="utf-8",
    )
    game = Game.new(load_ruleset([path]))
    assert force_specs(game.play(), "Bulgaria") == [
        ("bulgaria-1", "infantry", 1), ("bulgaria-2", "infantry", 1),
        ("bulgaria-3", "infantry", 1), ("bulgaria-4", "infantry", 1), ("bulgaria-5", "air", 5),
    ]  # fmt: skip
    assert force_specs(game.play(), "Australia") == []
    assert not game.minor("Burma").deployed
    assert not game.minor("India").deployed
    assert game.minor("Thailand").deployed


@pytest.mark.rule("K1")
@pytest.mark.rule("82.61")
def test_no_set_up_is_taken_when_none_is_due() -> None:
    """At the start W. Poland's set-up is due when Germany's declarations phase ends, not
    in the diplomacy phase before it: none is offered and one given is refused (K1);
    Denmark, with no forces, has none to give (82.61)."""
    game = Game.new()
    assert game.legal_actions("deploy") == []
    placement = {"id": "w-poland-x", "kind": "infantry", "factors": 2, "hex": "Warsaw"}
    early = command("deploy", minor="W. Poland", placements=[placement])
    assert "K1" in _rules(game, early)
    denmark = command(
        "deploy",
        minor="Denmark",
        placements=[{"id": "denmark-x", "kind": "infantry", "factors": 1, "hex": "Copenhagen"}],
    )
    assert ("82.61", "Denmark's forces are none, not 1× infantry 1") in [
        (v.rule, v.message) for v in game.check(denmark)
    ]


def _turkey_held(*held: str) -> Game:
    """Turkey attacked by Germany, British units holding the hexes `held`."""
    game = _turkey_attacked()
    for i, hex_label in enumerate(held):
        unit = {"id": f"bri-{i}", "owner": "Britain", "kind": "infantry", "factors": 1}
        game.apply(command("place", units=[unit], **{"in": "Turkey", "hex": hex_label}))
    return game


@pytest.mark.rule("82.54")
@pytest.mark.rule("K3")
def test_with_its_capital_held_turkey_sets_up_elsewhere() -> None:
    """British units hold Ankara and Eskisehir when Germany's attack sets Turkey up: no
    ground unit is owed to the held capital (82.54), none goes to a held hex, and a
    removed unit's id is not given again (K3)."""
    game = _turkey_held("Ankara", "Eskisehir", "Izmir")
    game.apply(command("remove", units=["bri-2"]))
    default = game.legal_actions("deploy")[0]
    assert _rules(game, default) == []
    assert not {p.hex for p in default.placements} & {"Ankara", "Eskisehir"}
    reused = (attrs.evolve(default.placements[0], id="bri-2"), *default.placements[1:])
    assert _rules(game, attrs.evolve(default, placements=reused)) == ["K3"]


@pytest.mark.rule("82.55")
def test_what_finds_no_free_hex_with_room_is_eliminated() -> None:
    """British units hold four of Turkey's seven hexes: of its ten land and air units six
    find room, two a hex, and the last four are eliminated when the phase ends (82.55)."""
    game = _turkey_held("Ankara", "Eskisehir", "Kirikkale", "Kirsehir")
    effects = game.advance_to("1940-spring/axis/movement")
    lost = [e.unit for e in effects if type(e).__name__ == "UnitEliminated"]
    assert lost == ["turkey-7", "turkey-8", "turkey-9", "turkey-10"]
    assert set(lost) <= set(game.raw_state.eliminated)
    hexes = sorted(h or "" for k, _, h in _units(game, "Turkey").values() if k != "naval")
    assert hexes == ["Erzurum", "Erzurum", "Istanbul", "Istanbul", "Izmir", "Izmir"]


@pytest.mark.rule("82.55")
def test_with_82_55_off_the_units_without_room_crowd_the_capital() -> None:
    """With 82.55 switched off, Turkey's units that find no free hex are not eliminated:
    they stand in Ankara."""
    game = Game.new(disabled={"82.55"})
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Turkey"))
    for i, hex_label in enumerate(["Eskisehir", "Kirikkale", "Kirsehir", "Istanbul"]):
        unit = {"id": f"bri-{i}", "owner": "Britain", "kind": "infantry", "factors": 1}
        game.apply(command("place", units=[unit], **{"in": "Turkey", "hex": hex_label}))
    game.advance_to("1940-spring/axis/movement")
    assert game.raw_state.eliminated == ()
    assert len(_units(game, "Turkey")) == len(TURKEY)
    assert all(h in ("Ankara", "Izmir", "Erzurum") for _, _, h in _units(game, "Turkey").values())


@pytest.mark.rule("82.52")
def test_britain_sets_finland_up_again_where_it_chooses() -> None:
    """Finland, set up after Russia's border war, is attacked by Germany: Britain sets up
    its units again (82.52); no default set-up is offered, Finland's own units do not
    make its hexes unavailable, and the units stand where Britain put them when the
    phase ends, under the note that says so."""
    game = Game.new()
    game.advance_to("1939-fall/allies/declarations")
    game.apply(command("border_war", attacker="Russia", target="Finland"))
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Finland"))
    assert game.legal_actions("deploy") == []
    units = _units(game, "Finland")
    hexes = ["Helsinki", "Helsinki", "Viipuri", "Viipuri", "Turku", "Oulu"]
    placements = [
        {"id": unit, "kind": kind, "factors": factors, "hex": hex_label}
        for (unit, (kind, factors, _)), hex_label in zip(sorted(units.items()), hexes, strict=True)
    ]
    again = command("deploy", minor="Finland", placements=placements)
    assert _rules(game, again) == []
    game.apply(again)
    effects = game.advance_to("1940-spring/axis/movement")
    assert "Britain sets up Finland's forces again" in [
        e.text for e in effects if type(e).__name__ == "Note"
    ]
    assert sorted(h for _, _, h in _units(game, "Finland").values()) == sorted(hexes)


@pytest.mark.rule("82.52")
def test_finland_set_up_again_by_default_stays_where_it_stood() -> None:
    """Britain gives no set-up of its own for Finland's second set-up (82.52): when the
    phase ends Finland's units stand where they stood, under the note that says so."""
    game = Game.new()
    game.advance_to("1939-fall/allies/declarations")
    game.apply(command("border_war", attacker="Russia", target="Finland"))
    game.advance_to("1940-spring/axis/declarations")
    before = _units(game, "Finland")
    game.apply(command("declare_war", attacker="Germany", target="Finland"))
    effects = game.advance_to("1940-spring/axis/movement")
    assert "Britain sets up Finland's forces again" in [
        e.text for e in effects if type(e).__name__ == "Note"
    ]
    assert _units(game, "Finland") == before


@pytest.mark.rule("82.51")
def test_an_associated_minor_deploys_at_once_unless_its_forces_stand_on_the_map() -> None:
    """Germany's 9 associates Bulgaria, which Germany sets up at once (82.51); with a
    Bulgarian unit already on the map, no further forces appear."""
    game = Game.new()
    game.apply(command("diplomatic_result", minor="Bulgaria", major="Germany", result=9))
    assert sorted(_units(game, "Bulgaria")) == [f"bulgaria-{i}" for i in range(1, 6)]
    game = Game.new()
    unit = {"id": "bul-x", "owner": "Bulgaria", "kind": "infantry", "factors": 1}
    game.apply(command("place", units=[unit], **{"in": "Bulgaria"}))
    game.apply(command("diplomatic_result", minor="Bulgaria", major="Germany", result=9))
    assert sorted(_units(game, "Bulgaria")) == ["bul-x"]


@pytest.mark.rule("82.61")
def test_a_conquered_commonwealth_country_raises_no_more_but_the_others_do() -> None:
    """Canada, conquered by Germany in Summer 1940, gets no Fall 1940 arrival; Australia,
    listed after it, still gets its own; a conquered minor outside the † table takes no
    diplomatic result, even its conqueror's (K7, 82.63)."""
    game = Game.new()
    game.advance_to("1940-summer/axis/combat")
    game.apply(command("conquer", minor="Canada", by="Germany"))
    before = set(_units(game, "Australia"))
    game.advance_to("1940-fall/axis/diplomacy")
    assert _units(game, "Canada") == {}
    assert len(set(_units(game, "Australia")) - before) == 5
    assert _rules(
        game, command("diplomatic_result", minor="Canada", major="Germany", result=8)
    ) == ["K7"]


STARTS = """
[starts.early]
clock = "1939-fall/axis/declarations"
last_moment = "1949-winter/allies/construction"
wars = [["Germany", "Britain"], ["Germany", "France"]]
attacked_at = "1939-fall/axis/declarations"

[starts.late]
clock = "1939-fall/axis/movement"
last_moment = "1949-winter/allies/construction"
wars = [["Germany", "Britain"], ["Germany", "France"]]
attacked_at = "1939-fall/axis/declarations"

[starts.undated]
clock = "1939-fall/axis/diplomacy"
last_moment = "1949-winter/allies/construction"
wars = [["Germany", "Britain"], ["Germany", "France"]]

[starts.undated_late]
clock = "1939-fall/allies/movement"
last_moment = "1949-winter/allies/construction"
wars = [["Germany", "Britain"], ["Germany", "France"]]
"""
"""House starts: in Germany's declarations phase, after it, and two giving no date for
the attacks already made (before and after the defender's diplomacy phase); none of them
schedules W. Poland's alignment."""


@pytest.fixture(scope="module")
def starts(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("starts") / "starts.toml"
    path.write_text(STARTS, encoding="utf-8")
    return load_ruleset([path])


@pytest.mark.rule("82.53")
def test_poland_sets_up_when_its_attacks_declarations_phase_ends(starts: Any) -> None:
    """A start in the declarations phase of Germany's attack leaves W. Poland's set-up to
    the phase's end (offered until then); a start after it finds the forces set up."""
    game = Game.new(starts, start="early")
    assert _units(game, "W. Poland") == {}
    assert [d.minor for d in game.legal_actions("deploy")] == ["W. Poland"]
    game.advance_to("1939-fall/axis/movement")
    assert len(_units(game, "W. Poland")) == 12
    game = Game.new(starts, start="late")
    assert len(_units(game, "W. Poland")) == 12
    assert game.minor("W. Poland").deployment is None


@pytest.mark.rule("82.53")
def test_poland_sets_up_under_a_start_that_gives_no_attack_date(starts: Any) -> None:
    """A start with Germany at war with W. Poland but no date for the attack still sets
    Poland up by the end of Germany's first declarations phase (82.53)."""
    game = Game.new(starts, start="undated")
    assert game.minor("W. Poland").attacked_at == Moment.parse("1939-fall/axis/declarations")
    game.advance_to("1939-fall/axis/movement")
    assert len(_units(game, "W. Poland")) == 12


@pytest.mark.rule("82.12")
@pytest.mark.rule("82.351")
@pytest.mark.rule("82.81")
def test_a_minor_at_war_at_the_start_holds_what_the_attack_gives_in_play(starts: Any) -> None:
    """Whatever the start's date for it, W. Poland attacked by Germany before the start
    bars Germany and its major-power allies (82.351) and, the start scheduling nothing,
    associates with Britain at the defender's next diplomacy phase (82.81): still to come
    from a start before it, at once from a start after it, its forces set up (82.53)."""
    for name in ("early", "late", "undated", "undated_late"):
        game = Game.new(starts, start=name)
        assert game.minor("W. Poland").barred == ("Germany", "Italy", "Japan"), name
    game = Game.new(starts, start="undated")
    pending = game.minor("W. Poland").pending
    assert pending is not None
    assert (pending.partner, pending.rule) == ("Britain", "82.81")
    assert pending.due == Moment.parse("1939-fall/allies/diplomacy")
    game.advance_to("1939-fall/allies/movement")
    played = Game.new(starts, start="undated_late")
    for poland in (game.minor("W. Poland"), played.minor("W. Poland")):
        assert (poland.status, poland.major, poland.pending) == (Status.ASSOCIATED, "Britain", None)
    assert len(_units(played, "W. Poland")) == 12
    assert Game.new().minor("W. Poland").barred == ("Germany", "Italy", "Japan")  # 82.12
    assert Game.new().minor("Communist China").pending is None  # 82.93: the start's own


@pytest.mark.rule("82.12")
@pytest.mark.rule("82.81")
@pytest.mark.parametrize(
    ("listed", "partner"), [(["Russia", "Germany"], "Germany"), (["Germany", "Russia"], "Britain")]
)
def test_the_first_attacker_of_a_start_is_the_first_listed(
    tmp_path: Path, listed: list[str], partner: str
) -> None:
    """A minor the start puts at war with two powers is independent as an attack leaves it
    (its row left it neutral), and was attacked first by the one its row lists first, in
    the order written (not by name): that attacker's faction names its 82.81 partner, as
    the first attack's does in play."""
    path = tmp_path / "two.toml"
    path.write_text(f"[minors.Sweden]\nstart_at_war_with = {json.dumps(listed)}\n", "utf-8")
    game = Game.new(load_ruleset([path]))
    sweden = game.minor("Sweden")
    assert sweden.status is Status.INDEPENDENT  # 82.11B: attacked, though its row says neutral
    assert sweden.attacked_by == listed[0]
    assert sweden.direct_wars == ("Germany", "Russia")
    assert sweden.pending is not None
    assert sweden.pending.partner == partner


HOUSE = """
[force_units.army_1_3]
kind = "infantry"
factors = 3

[minors.Rumania]
capital = ""
capital_adjacent = []
hexes = []

[minors.Canada]
capital = ""
capital_adjacent = []
hexes = []

[minors."Vichy France"]
start_at_war_with = ["Germany"]
"""
"""House tables: 1-3 units of three factors, Rumania and Canada with no capital or hex
list, and Vichy France (not in play at the start) at war with Germany from it."""


@pytest.mark.rule("82.54")
@pytest.mark.rule("82.55")
@pytest.mark.rule("82.53")
def test_house_tables_set_up_the_strongest_first_and_hexless_minors_off_the_map(
    tmp_path: Path,
) -> None:
    """With 82.55 off: Hungary's strongest ground units (its house 1-3s) take Budapest
    first (82.54); Rumania, with no hex, sets up its forces with no hex, as Canada's
    start units stand; Vichy France, not in play, sets nothing up though at war."""
    path = tmp_path / "house.toml"
    path.write_text(HOUSE, encoding="utf-8")
    game = Game.new(load_ruleset([path]), disabled={"82.55"})
    assert game.minor("Vichy France").deployment is None
    assert _units(game, "Vichy France") == {}
    assert {u: h for u, (_, _, h) in _units(game, "Canada").items()} == {
        "canada-1": None, "canada-2": None
    }  # fmt: skip
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Hungary"))
    game.apply(command("declare_war", attacker="Germany", target="Rumania"))
    game.advance_to("1940-spring/axis/movement")
    hungary = _units(game, "Hungary")
    assert sorted(u for u, (_, _, h) in hungary.items() if h == "Budapest") == [
        "hungary-2", "hungary-3"
    ]  # fmt: skip
    assert hungary["hungary-2"] == ("infantry", 3, "Budapest")
    rumania = _units(game, "Rumania")
    assert rumania
    assert {h for _, _, h in rumania.values()} == {None}


def _notes(effects: Any) -> list[tuple[str, str]]:
    return [(e.rule, e.text) for e in effects if type(e).__name__ == "Note"]


def _result(game: Game, minor: str, major: str, result: int) -> Any:
    return game.apply(command("diplomatic_result", minor=minor, major=major, result=result))


@pytest.mark.rule("82.21")
@pytest.mark.rule("82.31")
def test_results_off_the_scale_or_for_the_other_side_count_as_the_scale_says() -> None:
    """A result beyond the scale counts as its end; a result favouring the other side
    counts as the band that keeps that side's standing (6 for the Axis, 1 for the
    Allies); 5-6 keep only an Axis standing and 3-4 any standing; a Pacific minor's 8
    and 9 give control (association is Europe's only: the standing stays)."""
    game = Game.new()
    game.advance_to("1939-fall/allies/diplomacy")
    assert _notes(_result(game, "Spain", "Britain", 14)) == [
        ("82.21", "result 14 for Spain counts as 10: the scale runs -3..10"),
        ("82.21", "Britain's result 14 favours the other side: it counts as 6"),
    ]
    assert game.minor("Spain").standing is None
    assert _notes(_result(game, "Greece", "Britain", -5)) == [
        ("82.21", "result -5 for Greece counts as -3: the scale runs -3..10"),
    ]
    assert game.minor("Greece").standing.major == "Britain"
    assert _notes(_result(game, "Turkey", "Britain", 0)) == []  # 0 and below: Allied
    assert game.minor("Turkey").status.value == "brps_attributed"
    game.advance_to("1939-winter/axis/diplomacy")
    assert _notes(_result(game, "Sweden", "Germany", 0)) == [
        ("82.21", "Germany's result 0 favours the other side: it counts as 1"),
    ]
    _result(game, "Norway", "Germany", 5)  # keeps a pro-Axis standing: there is none
    assert game.minor("Norway").standing is None
    _result(game, "Turkey", "Germany", 3)  # 3-4 keep what stands: Britain's
    assert game.minor("Turkey").standing.major == "Britain"
    _result(game, "Turkey", "Germany", 5)  # 5-6 keep only a pro-Axis standing
    assert game.minor("Turkey").standing is None
    assert game.minor("Turkey").status.value == "neutral"
    _result(game, "Thailand", "Japan", 9)
    assert game.minor("Thailand").status.value == "hexes_controlled"
    assert game.minor("Thailand").standing.level.name == "ASSOCIATION"


@pytest.mark.rule("K4")
@pytest.mark.rule("K7")
def test_a_result_adds_up_and_acts_only_on_a_minor_at_peace_in_play() -> None:
    """A roll with modifiers must make the result given (K4); diplomacy acts on a minor
    in play and at peace only (K7), each refusal saying why."""
    game = Game.new()

    def refusals(**fields: Any) -> list[tuple[str, str]]:
        cmd = command("diplomatic_result", major="Germany", **fields)
        return [(v.rule, v.message) for v in game.check(cmd)]

    assert refusals(minor="Norway", result=3, roll=5, modifiers=[-2]) == []
    assert refusals(minor="Ukraine", result=3, roll=5, modifiers=[-2]) == [
        ("K7", "Ukraine is colony: diplomacy acts only on a minor at peace (neutral, BRPs "
               "attributed, hexes controlled)")
    ]  # fmt: skip
    assert refusals(minor="Norway", result=7, roll=5, modifiers=[-2]) == [
        ("K4", "roll 5 with modifiers [-2] makes 3, not the result 7")
    ]
    assert refusals(minor="Vichy France", result=7) == [("K7", "Vichy France is not in play")]
    assert refusals(minor="Egypt", result=7) == [
        ("K7", "Egypt is colony: diplomacy acts only on a minor at peace (neutral, BRPs "
               "attributed, hexes controlled)")
    ]  # fmt: skip
    results = game.legal_actions("diplomatic_result")
    assert [c for c in unbatched_legal_actions(game) if c.name in {"diplomatic_result"}] == results
    assert {c.minor for c in results} >= {"Norway", "Turkey", "Arabia"}
    assert not {c.minor for c in results} & {"Egypt", "W. Poland", "Vichy France"}
    low, high = game.ruleset.scale
    norway = sorted(c.result for c in results if (c.minor, c.major) == ("Norway", "Germany"))
    assert norway == list(range(low, high + 1))
    assert {c.major for c in results} == {"Germany", "Italy", "Japan"}


@pytest.mark.rule("82.63")
def test_the_ukraines_forces_follow_its_occupiers_result() -> None:
    """Germany conquers the Ukraine: its results there count (82.63), Italy's too, not
    Russia's; a 5 raises no forces, a later 8 gives Germany control and sets the Ukraine's
    forces up (the share of the † table)."""
    game = Game.new()
    game.advance_to("1941-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Russia"))
    game.advance_to("1941-spring/axis/combat")
    game.apply(command("conquer", minor="Ukraine", by="Germany"))
    game.advance_to("1941-summer/axis/diplomacy")
    italy = command("diplomatic_result", minor="Ukraine", major="Italy", result=8)
    assert _rules(game, italy) == []
    assert "Ukraine" in {c.minor for c in game.legal_actions("diplomatic_result")}
    assert _notes(_result(game, "Ukraine", "Germany", 5)) == [
        ("82.63", "Germany's result 5 raises no forces in Ukraine")
    ]
    assert _units(game, "Ukraine") == {}
    game.advance_to("1941-summer/allies/diplomacy")
    russia = command("diplomatic_result", minor="Ukraine", major="Russia", result=0)
    assert _rules(game, russia) == ["K7"]
    game.advance_to("1941-fall/axis/diplomacy")
    effects = _result(game, "Ukraine", "Germany", 8)
    assert game.minor("Ukraine").standing.major == "Germany"
    assert [e.unit for e in effects if type(e).__name__ == "UnitPlaced"] == [
        f"ukraine-{i}" for i in range(1, 6)
    ]
    assert _units(game, "Ukraine")["ukraine-1"] == ("infantry", 2, "Kiev")
    game.advance_to("1941-winter/axis/diplomacy")
    assert _notes(_result(game, "Ukraine", "Germany", 9)) == [
        ("82.63", "Germany's result 9 raises no forces in Ukraine")
    ]  # its forces stand on the map already
    assert len(_units(game, "Ukraine")) == 5


def _turkey_reversed() -> Game:
    """Germany's 8 controls Turkey (its BRPs and control granted); German, Italian and
    Turkish units stand there; Britain's -1 reverses the control in its diplomacy phase."""
    game = Game.new()
    _result(game, "Turkey", "Germany", 8)
    game.advance_to("1939-fall/axis/movement")
    units = [
        {"id": "ger-t", "owner": "Germany", "kind": "infantry", "factors": 1},
        {"id": "ita-t", "owner": "Italy", "kind": "infantry", "factors": 1},
    ]
    game.apply(command("place", units=units, **{"in": "Turkey"}))
    turk = {"id": "tur-t", "owner": "Turkey", "kind": "infantry", "factors": 1}
    game.apply(command("place", units=[turk], **{"in": "Turkey"}))
    game.advance_to("1939-fall/allies/diplomacy")
    return game


def _ledger(effects: Any) -> list[tuple[str, int, str, str, int | None]]:
    return [
        (e.entry.major, e.entry.amount, e.entry.rule, e.entry.level.name, e.entry.undoes)
        for e in effects
        if type(e).__name__ == "BrpChange"
    ]


@pytest.mark.rule("82.22")
@pytest.mark.rule("82.33")
def test_a_reversal_moves_the_brps_and_evicts_the_side_that_lost_control() -> None:
    """Britain's -1 takes Turkey's control from Germany: Germany's two grants are deducted
    (each naming the grant it undoes), Britain's granted (82.22); the Axis must be gone by
    its next redeployment phase (82.33), when the German and Italian units still there
    are eliminated, the Turkish and British ones staying, and the deadline is spent."""
    game = Game.new()
    assert _ledger(_result(game, "Turkey", "Germany", 8)) == [
        ("Germany", 3, "82.21A", "BRPS", None),
        ("Germany", 2, "82.21B", "CONTROL", None),
    ]
    game = _turkey_reversed()
    effects = _result(game, "Turkey", "Britain", -1)
    assert _ledger(effects) == [
        ("Germany", -3, "82.22", "BRPS", 1),
        ("Germany", -2, "82.22", "CONTROL", 2),
        ("Britain", 3, "82.21A", "BRPS", None),
        ("Britain", 2, "82.21B", "CONTROL", None),
    ]
    assert [type(e).__name__ for e in effects].count("DeadlineSet") == 1
    (deadline,) = game.minor("Turkey").deadlines
    assert (deadline.side.value, str(deadline.at)) == ("axis", "1939-winter/axis/redeployment")
    game.advance_to("1939-fall/allies/movement")
    bri = {"id": "bri-t", "owner": "Britain", "kind": "infantry", "factors": 1}
    game.apply(command("place", units=[bri], **{"in": "Turkey"}))
    game.advance_to("1939-winter/axis/redeployment")
    assert {"ger-t", "ita-t"} <= set(game.to_json()["units"])  # not before the phase ends
    effects = game.advance_to("1939-winter/axis/construction")
    assert sorted(e.unit for e in effects if type(e).__name__ == "UnitEliminated") == [
        "ger-t", "ita-t"
    ]  # fmt: skip
    here = sorted(u for u, v in game.to_json()["units"].items() if v["in"] == "Turkey")
    assert here == ["bri-t", "tur-t"]
    assert game.minor("Turkey").deadlines == ()


@pytest.mark.rule("82.33")
def test_a_deadline_ends_when_its_side_takes_control_back_and_not_otherwise() -> None:
    """After Britain's reversal, Germany's 4 changes nothing and the Axis deadline runs on;
    Germany's 8 takes control back: the Axis deadline ends, said in a note (the Allies'
    begins), and the German unit stays past it."""
    game = _turkey_reversed()
    _result(game, "Turkey", "Britain", -1)
    game.advance_to("1939-winter/axis/diplomacy")
    assert _ledger(_result(game, "Turkey", "Germany", 4)) == []
    assert len(game.minor("Turkey").deadlines) == 1
    effects = _result(game, "Turkey", "Germany", 8)
    assert ("82.33", "axis's 82.33 deadline in Turkey ends: controls it again") in _notes(effects)
    assert [d.side.value for d in game.minor("Turkey").deadlines] == ["allies"]  # Britain's
    game.advance_to("1939-winter/axis/construction")
    assert "ger-t" in game.to_json()["units"]


@pytest.mark.rule("82.22")
@pytest.mark.rule("82.33")
@pytest.mark.rule("82.351")
def test_a_lower_result_of_the_same_side_keeps_what_it_still_gives() -> None:
    """Luxembourg's control gives no BRPs beyond its one (no grant of nothing is made);
    Germany's 7 after its 8 on Turkey deducts only the control grant; Japan's 8 after its
    9 on Thailand (association held back as control) reverses nothing (82.33); Britain's
    2 cancels Germany's control of Greece: the Axis gets a deadline."""
    game = Game.new()
    assert _ledger(_result(game, "Luxembourg", "Germany", 8)) == [
        ("Germany", 1, "82.21A", "BRPS", None)
    ]
    _result(game, "Turkey", "Germany", 8)
    _result(game, "Thailand", "Japan", 9)
    _result(game, "Greece", "Germany", 8)
    game.advance_to("1939-fall/allies/diplomacy")
    _result(game, "Greece", "Britain", 2)
    assert game.minor("Greece").standing is None
    assert [d.side.value for d in game.minor("Greece").deadlines] == ["axis"]
    game.advance_to("1939-winter/axis/diplomacy")
    assert _ledger(_result(game, "Turkey", "Germany", 7)) == [
        ("Germany", -1, "82.22", "CONTROL", 3)
    ]  # the grant (seq 3) deducted at its winter value
    _result(game, "Thailand", "Japan", 8)
    assert game.minor("Thailand").standing.level.name == "CONTROL"
    assert game.minor("Thailand").deadlines == ()


@pytest.mark.rule("K2")
def test_a_surrendered_power_rolls_no_more() -> None:
    """After France's surrender the Allied diplomacy phase offers results by Britain,
    Russia and the U.S. only (K2), the ungated list agreeing; with K2 and K7 switched
    off, France's results and those on minors not at peace are offered too."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("surrender", major="France"))
    game.advance_to("1940-spring/allies/diplomacy")
    results = game.legal_actions("diplomatic_result")
    assert sorted({c.major for c in results}) == ["Britain", "Russia", "U.S."]
    assert [c for c in unbatched_legal_actions(game) if c.name in {"diplomatic_result"}] == results
    late = {"minor": "Spain", "major": "Germany", "result": 3, "roll": 5, "modifiers": [-2]}
    assert _rules(game, command("diplomatic_result", **late)) == ["K1"]  # the roll adds up
    game = Game.new(disabled={"K2", "K7"})
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("surrender", major="France"))
    game.advance_to("1940-spring/allies/diplomacy")
    results = game.legal_actions("diplomatic_result")
    assert "France" in {c.major for c in results}  # with K2 off it rolls on
    assert "Egypt" in {c.minor for c in results}  # with K7 off any minor takes rolls


@pytest.mark.rule("82.11")
def test_the_status_a_standing_gives() -> None:
    """No standing leaves a minor neutral; control gives hexes controlled; association
    gives association in Europe and control in the Pacific (82.11, 82.351)."""
    rs = load_ruleset()
    assert status_of(rs, None, Theater.EUROPE) is Status.NEUTRAL
    control = Standing(Side.AXIS, DiplomaticLevel.CONTROL)
    assert status_of(rs, control, Theater.EUROPE) is Status.HEXES_CONTROLLED
    association = Standing(Side.AXIS, DiplomaticLevel.ASSOCIATION)
    assert status_of(rs, association, Theater.EUROPE) is Status.ASSOCIATED
    assert status_of(rs, association, Theater.PACIFIC) is Status.HEXES_CONTROLLED


def _unit(i: str, owner: str, kind: str, factors: int) -> dict[str, Any]:
    return {"id": i, "owner": owner, "kind": kind, "factors": factors}


def _eliminated(effects: Any) -> list[tuple[str, str]]:
    return [(e.unit, e.rule) for e in effects if type(e).__name__ == "UnitEliminated"]


@pytest.mark.rule("82.322")
@pytest.mark.rule("82.32B")
@pytest.mark.rule("82.321A")
@pytest.mark.rule("82.321B")
def test_finlands_own_limit_on_the_axis_with_chosen_losses_and_tracers() -> None:
    """Finland, associated with Germany, still takes at most five Axis factors and one
    armor unit (82.322); a fort does not count. Germany chooses its armor unit ger-a1 to
    go first (82.321B): at the end of the movement phase it is eliminated, the other
    armor unit and four factors staying; ger-x, tracing supply through Finland from
    Germany (82.32B), finds no room left and traces none (82.321A). A unit inside cannot
    trace through Finland, nor a Finnish unit be chosen as a loss (K3); neither command
    belongs in the diplomacy phase (K1). A third armor unit placed in combat, beside the
    Finnish units and with nobody tracing, is eliminated at its end; one armor unit left is
    within the limit."""
    game = Game.new()
    _result(game, "Finland", "Germany", 9)
    trace = command("trace_supply", units=["ger-x"], through="Finland")
    assert _rules(game, trace) == ["K1", "K3"]
    game.advance_to("1939-fall/axis/movement")
    inside = [
        _unit("ger-a1", "Germany", "armor", 1), _unit("ger-a2", "Germany", "armor", 1),
        _unit("ger-i1", "Germany", "infantry", 2), _unit("ger-f", "Germany", "fort", 3),
        _unit("ita-i1", "Italy", "infantry", 1),
    ]  # fmt: skip
    game.apply(command("place", units=inside, **{"in": "Finland"}))
    game.apply(
        command("place", units=[_unit("ger-x", "Germany", "infantry", 3)], **{"in": "Germany"})
    )
    assert [c.units for c in game.legal_actions("choose_losses")] == [
        ("ger-a1",), ("ger-a2",), ("ger-i1",), ("ita-i1",)  # not the fort (82.321C)
    ]  # fmt: skip
    traces = game.legal_actions("trace_supply")
    assert trace in traces
    assert not [c for c in traces if c.units[0] in ("ger-i1", "finland-1")]
    assert _rules(game, command("trace_supply", units=["ger-i1"], through="Finland")) == ["K3"]
    assert _rules(game, command("trace_supply", units=["nobody"], through="Finland")) == ["K3"]
    assert _rules(game, command("choose_losses", minor="Finland", units=["finland-1"])) == ["K3"]
    assert _rules(game, command("choose_losses", minor="Finland", units=["ger-x"])) == ["K3"]
    game.apply(trace)
    assert _notes(game.apply(command("choose_losses", minor="Finland", units=["ger-a1"]))) == [
        ("82.321B", "if Finland's limit is exceeded, ger-a1 go first")
    ]
    assert game.state()["traces"] == {"Finland": ["ger-x"]}
    effects = game.advance_to("1939-fall/axis/combat")
    assert _eliminated(effects) == [("ger-a1", "82.322")]
    assert _notes(effects) == [
        ("82.321A", "ger-x trace no supply through Finland: the units inside come first")
    ]
    assert (game.state()["traces"], game.state()["losses"]) == ({}, {})
    game.apply(
        command("place", units=[_unit("ger-a3", "Germany", "armor", 1)], **{"in": "Finland"})
    )
    assert _eliminated(game.advance_to("1939-fall/axis/redeployment")) == [("ger-a3", "82.322")]
    assert _eliminated(game.advance_to("1939-fall/axis/construction")) == []


@pytest.mark.rule("82.32")
@pytest.mark.rule("82.32C")
def test_ten_foreign_factors_in_belgium_and_luxembourg_counted_together() -> None:
    """Germany's 8 controls Belgium, which counts with Luxembourg (82.32C): of twelve
    German factors there the one chosen through Luxembourg goes first, leaving nine; a
    tenth factor later is within the limit (82.32)."""
    game = Game.new()
    _result(game, "Belgium", "Germany", 8)
    game.advance_to("1939-fall/axis/movement")
    units = [_unit(f"ger-{i}", "Germany", "infantry", 3) for i in range(1, 5)]
    game.apply(command("place", units=units, **{"in": "Belgium"}))
    chosen = command("choose_losses", minor="Luxembourg", units=["ger-2"])
    assert _rules(game, chosen) == []
    game.apply(chosen)
    assert _eliminated(game.advance_to("1939-fall/axis/combat")) == [("ger-2", "82.32")]
    game.apply(command("place", units=[_unit("ger-5", "Germany", "naval", 1)], **{"in": "Belgium"}))
    assert _eliminated(game.advance_to("1939-fall/axis/redeployment")) == []
    game.apply(command("place", units=[_unit("ger-6", "Germany", "air", 1)], **{"in": "Belgium"}))
    assert _eliminated(game.advance_to("1939-fall/axis/construction")) == [("ger-6", "82.32")]


def _commands(game: Game, kind: str) -> list[Any]:
    """Every command of `kind` naming any major and any minor (or country) it may name."""
    majors, minors = list(game.ruleset.majors), list(game.ruleset.minors)
    if kind == "declare_war":
        return [command(kind, attacker=a, target=t) for a in majors for t in majors + minors]
    if kind == "border_war":
        return [command(kind, attacker=a, target=t) for a in majors for t in minors]
    if kind in ("surrender", "reenter_war"):
        return [command(kind, major=m) for m in majors]
    if kind == "conquer":
        return [command(kind, minor=t, by=m) for m in majors for t in minors]
    return [command(kind, major=m, minor=t) for m in majors for t in minors]


WAR_KINDS = (
    "declare_war", "border_war", "subvert", "refuse_association", "surrender",
    "reenter_war", "conquer",
)  # fmt: skip


def _wars_listed_exactly_as_checked(game: Game) -> dict[str, int]:
    """Every command of the kinds of war.py and conquest.py naming any powers is listed by
    legal_actions if and only if check finds nothing wrong with it (gated or not); the
    number listed of each kind."""
    found = {}
    for kind in WAR_KINDS:
        legal = game.legal_actions(kind)
        assert [c for c in unbatched_legal_actions(game) if c.name in {kind}] == legal
        listed = set(legal)
        for cmd in _commands(game, kind):
            assert (cmd in listed) == (game.check(cmd) == []), (str(game.clock), cmd)
        found[kind] = len(legal)
    return found


@pytest.mark.rule("K2")
@pytest.mark.rule("82.34")
@pytest.mark.rule("82.41")
@pytest.mark.rule("82.42")
@pytest.mark.rule("82.81D")
def test_legal_war_commands_are_exactly_those_check_accepts() -> None:
    """Germany controls Rumania (garrisoned) and Turkey (not), Bulgaria is its associate;
    in Spring 1940 Germany attacks Norway and France surrenders: from Fall 1939 to Summer
    1940, in the declarations, combat and diplomacy phases of both sides, legal_actions
    lists exactly the declarations, border wars, subversions, refusals, surrenders,
    re-entries and conquests check accepts, each kind offered somewhere."""
    game = Game.new()
    _result(game, "Rumania", "Germany", 8)
    _result(game, "Turkey", "Germany", 8)
    _result(game, "Bulgaria", "Germany", 9)
    game.advance_to("1939-fall/axis/movement")
    game.apply(
        command("place", units=[_unit("ger-r", "Germany", "infantry", 1)], **{"in": "Rumania"})
    )
    offered: dict[str, int] = dict.fromkeys(WAR_KINDS, 0)
    moments = (
        "1939-fall/allies/declarations", "1939-fall/allies/combat",
        "1939-winter/axis/declarations", "1940-spring/axis/declarations",
        "1940-spring/axis/combat", "1940-spring/allies/diplomacy",
        "1940-spring/allies/declarations",
    )  # fmt: skip
    for moment in moments:
        game.advance_to(moment)
        if moment == "1940-spring/axis/declarations":
            game.apply(command("declare_war", attacker="Germany", target="Norway"))
            game.apply(command("surrender", major="France"))
        for kind, n in _wars_listed_exactly_as_checked(game).items():
            offered[kind] += n
    assert all(offered.values()), offered


@pytest.mark.rule("82.81D")
@pytest.mark.rule("K2")
def test_britain_refuses_norway_and_france_leaves_the_war_and_comes_back() -> None:
    """Germany attacks Norway: Britain refuses its association in time (82.81D), and
    Norway fights on alone; France surrenders, its wars ending, and later re-enters the
    war with Germany and Italy (K2)."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Norway"))
    refuse = command("refuse_association", major="Britain", minor="Norway")
    assert _rules(game, command("refuse_association", major="France", minor="Norway")) != []
    assert _notes(game.apply(refuse)) == [
        ("82.81D", "Britain refuses Norway's association: it stays independent")
    ]
    assert game.minor("Norway").pending is None
    assert game.minor("Norway").refused_by == ("Britain",)
    assert _rules(game, refuse) != []  # nothing left to refuse
    effects = game.apply(command("surrender", major="France"))
    ended = sorted((e.a, e.b) for e in effects if type(e).__name__ == "WarEnded")
    assert ("France", "Germany") in ended
    assert not game.at_war("France", "Germany")
    game.advance_to("1940-spring/allies/diplomacy")
    assert game.minor("Norway").status is Status.INDEPENDENT
    game.advance_to("1940-spring/allies/declarations")
    game.apply(command("reenter_war", major="France"))
    assert game.at_war("France", "Germany")
    assert game.minor("Algeria").at_war_with == ("Germany",)
    assert _rules(game, command("reenter_war", major="France")) != []


@pytest.mark.rule("82.35")
@pytest.mark.rule("82.352")
@pytest.mark.rule("82.56")
@pytest.mark.rule("82.81")
@pytest.mark.parametrize(("displace", "to"), [("Kirikkale", "Kirikkale"), (None, "Eskisehir")])
def test_germany_attacks_the_turkey_it_controls(displace: str | None, to: str) -> None:
    """Germany, controlling Turkey with ground units in Ankara, declares war on it: the
    declaration costs BRPs (K6), Germany's hold ends (82.35), the German and Italian
    ground units in the capital move to the hex named next to it, or the first listed
    when none is named (82.352, 82.56), a ship
    and a unit elsewhere staying, a hex not next to Ankara being refused; Turkey is to
    associate with Britain if it survives (82.81)."""
    game = Game.new()
    _result(game, "Turkey", "Germany", 8)
    game.advance_to("1939-fall/axis/movement")
    ankara = [_unit("ger-1", "Germany", "infantry", 1), _unit("ger-n", "Germany", "naval", 1)]
    game.apply(command("place", units=ankara, **{"in": "Turkey", "hex": "Ankara"}))
    game.apply(
        command(
            "place",
            units=[_unit("ita-1", "Italy", "infantry", 1)],
            **{"in": "Turkey", "hex": "Ankara"},
        )
    )
    game.apply(
        command(
            "place",
            units=[_unit("ger-2", "Germany", "infantry", 1)],
            **{"in": "Turkey", "hex": "Izmir"},
        )
    )
    game.advance_to("1939-winter/axis/declarations")
    wrong = command("declare_war", attacker="Germany", target="Turkey", displace="Izmir")
    assert [(v.rule, v.message) for v in game.check(wrong)] == [
        (
            "82.56",
            "'Izmir' is not next to Turkey's capital (adjacent: Eskisehir, Kirikkale, Kirsehir)",
        )
    ]
    fields = {"displace": displace} if displace else {}
    effects = game.apply(command("declare_war", attacker="Germany", target="Turkey", **fields))
    assert [type(e).__name__ for e in effects if type(e).__name__ == "BrpChange"] == ["BrpChange"]
    assert _notes(effects) == [
        ("82.35", "Germany's hold on Turkey ends"),
        (
            "82.81",
            "Turkey will associate with Britain at 1939-winter/allies/diplomacy if it survives",
        ),
    ]
    assert [e.unit for e in effects if type(e).__name__ == "UnitMoved"] == ["ger-1", "ita-1"]
    hexes = {u: v.get("hex") for u, v in game.to_json()["units"].items() if v["in"] == "Turkey"}
    assert hexes == {"ger-1": to, "ita-1": to, "ger-n": "Ankara", "ger-2": "Izmir"}
    assert game.minor("Turkey").standing is None


@pytest.mark.rule("82.91F")
@pytest.mark.rule("K7")
@pytest.mark.rule("82.41")
def test_frances_fall_brings_vichy_and_the_free_french() -> None:
    """Before France falls Vichy France is not in play (K7) and none but the table's
    border wars are waged (82.41); after France's surrender Vichy France is in play and
    neutral, France's islands under British control turn Free French (associated with
    Britain, 82.91F), and Algeria, France's own, stays a French colony."""
    game = Game.new()
    game.advance_to("1939-fall/axis/declarations")
    vichy = command("declare_war", attacker="Germany", target="Vichy France")
    assert [(v.rule, v.message) for v in game.check(vichy)] == [
        ("K7", "Vichy France is not in play")
    ]
    wars = "only Russia against Finland; Russia against Rumania"
    border = command("border_war", attacker="Germany", target="Italy")
    assert [(v.rule, v.message) for v in game.check(border)] == [
        ("82.41", f"Germany has no border war with Italy: {wars} (Germany cannot declare war on "
                  "Italy now: Germany cannot declare war on its own faction's Italy)")
    ]  # fmt: skip
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("surrender", major="France"))
    assert game.minor("Vichy France").active
    assert game.minor("Vichy France").status is Status.NEUTRAL
    assert (game.minor("New Caledonia").status, game.minor("New Caledonia").major) == (
        Status.ASSOCIATED, "Britain"
    )  # fmt: skip
    assert (game.minor("Algeria").status, game.minor("Algeria").major) == (Status.COLONY, "France")
    assert _rules(game, vichy) == []


@pytest.mark.rule("K2")
@pytest.mark.rule("82.81D")
def test_each_refused_war_command_says_why() -> None:
    """A declaration by or on a surrendered power, on a power of one's own faction or one
    already at war, on a minor already at war (K2), a hex for displaced units not next to
    the capital (82.56), and a refusal of an association that has taken effect, that is
    not pending, or that is another power's (82.81D): each is refused with the message and
    data that say why."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Norway"))

    def why(kind: str, **fields: str) -> list[tuple[str, str, dict[str, Any]]]:
        return [(v.rule, v.message, dict(v.data)) for v in game.check(command(kind, **fields))]

    assert why("refuse_association", major="France", minor="Norway") == [
        ("82.81D", "Norway would associate with Britain, not France", {"partner": "Britain"})
    ]
    assert why("refuse_association", major="Britain", minor="Sweden") == [
        ("82.81D", "no association of Sweden is pending: it has not been attacked, or its "
                   "fate is settled", {"minor": "Sweden"})
    ]  # fmt: skip
    assert why("declare_war", attacker="Germany", target="W. Poland") == [
        ("K2", "Germany is already at war with W. Poland", {"minor": "W. Poland"})
    ]
    assert why("declare_war", attacker="Germany", target="Italy") == [
        ("K2", "Germany cannot declare war on its own faction's Italy", {"target": "Italy"})
    ]
    assert why("declare_war", attacker="Germany", target="Britain") == [
        ("K2", "Germany is already at war with Britain", {"target": "Britain"})
    ]
    assert why("declare_war", attacker="Germany", target="Russia", displace="Minsk") == [
        ("82.56", "'Minsk' is not next to Russia's capital (adjacent: none)", {"displace": "Minsk"})
    ]
    game.advance_to("1940-spring/allies/declarations")
    late = why("declare_war", attacker="Germany", target="Turkey", displace="Kirikkale")
    assert [r for r, _, _ in late] == ["K1"]  # a hex next to Ankara: only the phase is wrong
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Norway"))
    game.apply(command("surrender", major="France"))
    assert why("declare_war", attacker="Italy", target="France") == [
        ("K2", "France has surrendered", {"target": "France"})
    ]
    game.advance_to("1940-spring/allies/declarations")
    assert why("declare_war", attacker="France", target="Sweden") == [
        ("K2", "France has surrendered", {"major": "France"})
    ]
    assert why("refuse_association", major="Britain", minor="Norway") == [
        ("82.81D", "Norway's association with Britain has already taken effect: it can no "
                   "longer be refused", {"minor": "Norway"})
    ]  # fmt: skip


@pytest.mark.rule("82.32C")
@pytest.mark.rule("82.322")
def test_a_house_limit_of_luxembourg_binds_belgium_with_it(tmp_path: Path) -> None:
    """A house limit of Luxembourg's own (two Axis factors, whatever its status) binds
    Belgium too, the two counting as one (82.32C): of Germany's nine infantry factors in
    the Belgium it controls, all but two are eliminated; its fort, a kind that limit does
    not count, stays."""
    path = tmp_path / "house.toml"
    path.write_text(
        '[limits.Luxembourg]\nminor = "Luxembourg"\nfactors = 2\nside = "axis"\n'
        'always = true\nclause = "82.322"\n'
        'counted_kinds = ["infantry", "armor", "air", "naval"]\n',
        encoding="utf-8",
    )
    game = Game.new(load_ruleset([path]))
    _result(game, "Belgium", "Germany", 8)
    game.advance_to("1939-fall/axis/movement")
    units = [_unit(f"ger-{i}", "Germany", "infantry", 1) for i in range(1, 10)]
    units.append(_unit("ger-fort", "Germany", "fort", 4))  # a kind the limit does not count
    game.apply(command("place", units=units, **{"in": "Belgium"}))
    game.advance_to("1939-fall/axis/combat")
    assert sorted(u for u, v in game.to_json()["units"].items() if v["in"] == "Belgium") == [
        "ger-1", "ger-2", "ger-fort"
    ]  # fmt: skip


@pytest.mark.rule("82.34")
def test_a_garrisoned_minor_associates_with_its_strongest_garrison() -> None:
    """Britain controls Turkey; French units of two factors and a British one of three
    garrison it: attacked by Germany, Turkey associates with Britain, the garrison power
    at war with Germany with the most factors there (82.34)."""
    game = Game.new()
    game.advance_to("1939-fall/allies/diplomacy")
    _result(game, "Turkey", "Britain", -1)
    game.advance_to("1939-fall/allies/movement")
    french = [_unit("fra-1", "France", "infantry", 1), _unit("fra-2", "France", "infantry", 1)]
    game.apply(command("place", units=french, **{"in": "Turkey"}))
    game.apply(
        command("place", units=[_unit("bri-1", "Britain", "infantry", 3)], **{"in": "Turkey"})
    )
    game.advance_to("1939-winter/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Turkey"))
    assert (game.minor("Turkey").status, game.minor("Turkey").major) == (
        Status.ASSOCIATED, "Britain"
    )  # fmt: skip


@pytest.mark.rule("82.32")
def test_an_associate_has_no_ten_factor_limit() -> None:
    """Bulgaria, associated with Germany by its 9, takes any number of German factors:
    the ten-factor limit of 82.32 binds a minor whose hexes a power controls, not its
    associate."""
    game = Game.new()
    _result(game, "Bulgaria", "Germany", 9)
    game.advance_to("1939-fall/axis/movement")
    units = [_unit(f"ger-{i}", "Germany", "infantry", 3) for i in range(1, 5)]
    game.apply(command("place", units=units, **{"in": "Bulgaria"}))
    assert _eliminated(game.advance_to("1939-fall/axis/combat")) == []


@pytest.mark.rule("82.12")
@pytest.mark.parametrize(
    ("target", "clause"),
    [("Egypt", "82.12"), ("Canada", "82.13"), ("W. Poland", "82.42")],
)
def test_italy_at_peace_with_britain_cannot_declare_war_on_what_britain_holds(
    target: str, clause: str
) -> None:
    """Spring 1940, Italy not yet at war: Britain's colony (82.12), a Commonwealth country
    (82.13) and Britain's ally W. Poland (82.42) share Britain's wars, so a declaration on
    them alone is refused, naming that clause; on Britain itself it is not."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    cmd = command("declare_war", attacker="Italy", target=target)
    assert _rules(game, cmd) == [clause]
    assert cmd not in game.legal_actions("declare_war")
    with pytest.raises(RuleViolation):
        game.apply(cmd)
    assert "Italy" not in game.raw_state.minors[target].at_war_with


@pytest.mark.rule("82.81D")
def test_an_association_is_refused_only_by_its_partner_and_only_before_it_takes_effect() -> None:
    """Germany attacks Turkey in Spring 1940: until Turkey associates with Britain only
    Britain may refuse; once it has, Britain is told it is too late and France that none is
    pending, as Britain is for its colony Egypt, which was never attacked."""

    def refusal(game: Game, major: str, minor: str) -> list[str]:
        cmd = command("refuse_association", major=major, minor=minor)
        return [v.message for v in game.check(cmd)]

    game = _turkey_attacked()
    assert refusal(game, "Britain", "Turkey") == []
    assert refusal(game, "France", "Turkey") == ["Turkey would associate with Britain, not France"]
    game.advance_to("1940-summer/axis/declarations")
    assert game.raw_state.minors["Turkey"].status is Status.ASSOCIATED
    assert game.raw_state.minors["Turkey"].pending is None
    too_late = "has already taken effect: it can no longer be refused"
    none_pending = (
        "no association of {} is pending: it has not been attacked, or its fate is settled"
    )
    assert refusal(game, "Britain", "Turkey") == [f"Turkey's association with Britain {too_late}"]
    assert refusal(game, "France", "Turkey") == [none_pending.format("Turkey")]
    assert refusal(game, "Britain", "Egypt") == [none_pending.format("Egypt")]


@pytest.mark.rule("K7")
def test_vichy_france_appears_once_and_a_later_fall_leaves_it_as_it_is() -> None:
    """Vichy France comes into play, neutral, when France falls; once Germany has attacked
    it, Italy's later surrender does not make it neutral again."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("surrender", major="France"))
    game.apply(command("declare_war", attacker="Germany", target="Vichy France"))
    game.apply(command("surrender", major="Italy"))
    vichy = game.minor("Vichy France")
    assert (vichy.active, vichy.status) == (True, Status.INDEPENDENT)
    assert "Germany" in game.raw_state.minors["Vichy France"].at_war_with


@pytest.mark.rule("K2")
@pytest.mark.parametrize(
    ("germany_surrenders", "wars"), [(False, [("France", "Germany")]), (True, [])]
)
def test_a_power_reentering_the_war_is_at_war_only_with_enemies_still_fighting(
    germany_surrenders: bool, wars: list[tuple[str, str]]
) -> None:
    """France surrenders in Spring 1940 and re-enters: it is at war with Germany again,
    unless Germany has surrendered meanwhile."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("surrender", major="France"))
    if germany_surrenders:
        game.apply(command("surrender", major="Germany"))
    game.apply(command("reenter_war", major="France"))
    assert sorted(p for p in game.raw_state.wars if "France" in p) == wars


@pytest.mark.rule("82.81C")
def test_an_association_already_scheduled_waits_for_its_moment_when_its_partner_reenters() -> None:
    """France and Britain out of the war, Germany attacks Turkey: its association with
    Britain is due in the Allied diplomacy phase; Britain re-entering first does not bring it
    forward."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("surrender", major="France"))
    game.apply(command("surrender", major="Britain"))
    game.apply(command("declare_war", attacker="Germany", target="Turkey"))
    game.apply(command("reenter_war", major="Britain"))
    turkey = game.raw_state.minors["Turkey"]
    assert turkey.status is Status.INDEPENDENT
    assert turkey.pending is not None
    assert (turkey.pending.partner, str(turkey.pending.due)) == (
        "Britain",
        "1940-spring/allies/diplomacy",
    )


@pytest.mark.rule("82.36")
def test_russia_subverts_only_a_minor_at_peace() -> None:
    """In the Allied diplomacy phase of Spring 1940 Russia may subvert neutral Iraq, not
    Britain's colony Egypt nor Turkey, just associated with Britain after Germany's attack."""
    game = _turkey_attacked()
    game.advance_to("1940-spring/allies/diplomacy")

    def subversion(minor: str) -> list[str]:
        cmd = command("subvert", major="Russia", minor=minor)
        return [v.message for v in game.check(cmd)]

    assert subversion("Iraq") == []
    assert subversion("Egypt") == ["Egypt is colony: only a minor at peace can be subverted"]
    assert subversion("Turkey") == ["Turkey is associated: only a minor at peace can be subverted"]
    with pytest.raises(RuleViolation):
        game.apply(command("subvert", major="Russia", minor="Turkey"))


@pytest.mark.rule("82.91D")
@pytest.mark.parametrize(
    ("attacker", "target", "phase", "associated"),
    [("Japan", "Britain", "axis", True), ("Britain", "Japan", "allies", False)],
)
def test_the_dutch_east_indies_wait_for_japans_declaration_not_britains(
    attacker: str, target: str, phase: str, associated: bool
) -> None:
    """Japan declaring war on Britain in Fall 1941 brings the Dutch East Indies to Britain
    at the start of the second turn after (82.91D); Britain declaring war on Japan does not."""
    game = Game.new()
    game.advance_to(f"1941-fall/{phase}/declarations")
    game.apply(command("declare_war", attacker=attacker, target=target))
    pending = game.raw_state.minors["Dutch East Indies"].pending
    due = str(pending.due) if pending is not None else None
    assert due == ("1942-spring/axis/diplomacy" if associated else None)
    game.advance_to("1942-summer/axis/declarations")
    dei = game.raw_state.minors["Dutch East Indies"]
    assert dei.pending is None
    assert (dei.status is Status.ASSOCIATED, dei.major) == (
        associated,
        "Britain" if associated else None,
    )


def _belgium_without_room(rulebook: Any = None) -> Game:
    """Belgium attacked by Germany with every hex but Brussels garrisoned by Britain (the
    situation d_stacking_eliminates), in the declarations phase of the attack."""
    scenario = SCENARIOS / "d_stacking_eliminates.toml"
    game = minors.run_scenario(scenario, "1939-winter/axis/declarations", rulebook=rulebook)
    game.apply(command("declare_war", attacker="Germany", target="Belgium"))
    return game


def _belgian(*units: tuple[str, str, int]) -> Any:
    placements = [
        {"id": i, "kind": kind, "factors": factors, "hex": "Brussels"} for i, kind, factors in units
    ]
    return command("deploy", minor="Belgium", placements=placements)


@pytest.mark.rule("82.55")
@pytest.mark.rule("82.61")
def test_a_set_up_leaves_out_only_what_has_no_room() -> None:
    """82.55 over 82.61 (a reading): with room for two units, a set-up naming two of
    Belgium's five is legal and the rest are eliminated; one naming a single unit leaves
    out a unit that had room (82.61). A variant that reads 82.61 first refuses any set-up
    short of the whole force; the default set-up then eliminates what has no room."""
    game = _belgium_without_room()
    assert len(game.legal_actions("deploy")) == 1  # the default set-up is listed, and legal
    assert _rules(game, _belgian(("bel-a", "infantry", 2))) == ["82.61"]
    keep = _belgian(("bel-a", "infantry", 2), ("bel-b", "air", 5))
    assert _rules(game, keep) == []
    game.apply(keep)
    game.advance_to("1939-winter/axis/movement")
    assert sorted(_units(game, "Belgium")) == ["bel-a", "bel-b"]
    assert game.state()["eliminated"] == ["belgium-2", "belgium-3", "belgium-4"]
    strict = RULEBOOK.extend("strict-82-61", replace={short_of_room: lambda *args: False})
    game = _belgium_without_room(strict)
    assert game.legal_actions("deploy") == []
    assert _rules(game, keep) == ["82.61"]
    game.advance_to("1939-winter/axis/movement")
    assert sorted(_units(game, "Belgium")) == ["belgium-1", "belgium-2"]
