"""Where units may be placed and moved (K1, K3, K7, 82.13A, 82.13B, 82.32D, 82.41, 82.42,
82.83A, 82.83C), shown on a board with units of every kind of owner: what `check` says of
each command, and that `legal_actions` lists exactly the moves `check` accepts."""

from __future__ import annotations

from typing import Any

import pytest

from minors import Game, Move, RuleViolation, command, load_ruleset
from minors.rules82.movement import entrants
from minors.testing import unbatched_legal_actions


def _place(game: Game, country: str, *units: tuple[str, str], hex: str | None = None) -> Any:
    """Place one-factor infantry (id, owner) in `country`."""
    specs = [{"id": i, "owner": o, "kind": "infantry", "factors": 1} for i, o in units]
    fields: dict[str, Any] = {"in": country}
    if hex is not None:
        fields["hex"] = hex
    return command("place", units=specs, **fields)


def _rules(game: Game, cmd: Any) -> list[str]:
    return [v.rule for v in game.check(cmd)]


def _board(disabled: frozenset[str] = frozenset()) -> Game:
    """Fall 1939: Germany controls Rumania's hexes (a result of 8) and garrisons it; each
    major has a unit at home, Germany two; W. Poland's forces have set up."""
    game = Game.new(disabled=disabled)
    game.apply(command("diplomatic_result", minor="Rumania", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    game.apply(_place(game, "Germany", ("ger-1", "Germany"), ("ger-2", "Germany")))
    game.apply(_place(game, "Rumania", ("ger-r", "Germany")))
    for major in ("Italy", "Russia", "Britain", "France"):
        game.apply(_place(game, major, (major[:3].lower() + "-1", major)))
    return game


MOVERS = (
    "ger-1", "ger-2", "ger-r", "ita-1", "rus-1", "bri-1", "fra-1", "australia-1",
    "south-africa-1", "india-1", "canada-1", "communist-china-1", "dutch-east-indies-1",
    "thailand-1", "philippines-1", "w-poland-1",
)  # fmt: skip
"""One or two units of every owner on the board (units of one owner are refused alike)."""


def _listed_exactly_as_checked(game: Game) -> None:
    """Every move of a mover to another country is listed by legal_actions if and only if
    check finds nothing wrong with it; no listed move goes where its unit already is."""
    legal = game.legal_actions("move")
    assert len(legal) == len(set(legal))
    assert [
        c for c in unbatched_legal_actions(game) if c.name in {"move"}
    ] == legal  # each checked on its own
    listed = set(legal)
    countries = [*game.to_json()["minors"], *game.ruleset.majors]
    for cmd in listed:
        assert isinstance(cmd, Move)
        assert all(game.unit(u).country != cmd.to for u in cmd.units), cmd
    for unit in MOVERS:
        for country in countries:
            if country == game.unit(unit).country:
                continue
            cmd = Move((unit,), country)
            assert (cmd in listed) == (game.check(cmd) == []), (str(game.clock), cmd)


@pytest.mark.rule("K1")
@pytest.mark.rule("82.41")
@pytest.mark.rule("82.83A")
@pytest.mark.rule("82.13A")
def test_legal_moves_are_exactly_the_moves_check_accepts() -> None:
    """In the Axis movement and redeployment phases, the Allied declarations, movement
    and construction phases, and again after units have moved, legal_actions lists exactly
    the moves check accepts, with the Axis, Allied, Russian, Commonwealth, tied and
    independent minors' units all on the board."""
    game = _board()
    _listed_exactly_as_checked(game)
    game.apply(Move(("ger-2",), "Rumania"))  # an owner's units now stand in two countries
    _listed_exactly_as_checked(game)
    _listed_exactly_as_checked(game)  # asked again in the same position
    game.advance_to("1939-fall/axis/redeployment")
    _listed_exactly_as_checked(game)
    for moment in ("allies/declarations", "allies/movement", "allies/redeployment"):
        game.advance_to("1939-fall/" + moment)
        _listed_exactly_as_checked(game)
    game.advance_to("1939-fall/allies/construction")
    assert game.legal_actions("move") == []  # construction: nobody moves


@pytest.mark.rule("K1")
@pytest.mark.rule("82.83A")
@pytest.mark.rule("82.13A")
@pytest.mark.parametrize(
    ("disabled", "moment"),
    [("K1", "axis/movement"), ("82.83A", "allies/redeployment"), ("82.13A", "allies/movement")],
)
def test_with_a_rule_off_legal_moves_are_still_those_check_accepts(
    disabled: str, moment: str
) -> None:
    """With the phase rule (K1), the independent minors' phases (82.83A) or the
    Commonwealth zones (82.13A) switched off, the moves that rule refused are listed."""
    game = _board(frozenset({disabled}))
    game.advance_to("1939-fall/" + moment)
    _listed_exactly_as_checked(game)


@pytest.mark.rule("K1")
@pytest.mark.rule("82.83A")
def test_units_move_in_their_sides_phases_and_independents_in_theirs() -> None:
    """A unit moves in its side's movement, combat and redeployment phases (K1); an
    independent minor with no major is bound by no side's turn, an independent one by
    its own phases (82.83A), a Commonwealth unit redeploys with Britain."""
    game = _board()
    assert _rules(game, Move(("bri-1",), "France")) == ["K1"]
    assert _rules(game, Move(("ger-1",), "Italy")) == []
    assert _rules(game, Move(("communist-china-1",), "Communist China", "Yulin")) == []
    game.advance_to("1939-fall/allies/declarations")
    assert _rules(game, Move(("bri-1",), "France")) == ["K1"]
    game.advance_to("1939-fall/allies/movement")
    assert _rules(game, Move(("ger-1",), "Italy")) == ["K1"]
    assert _rules(game, Move(("bri-1",), "W. Poland")) == []  # Britain's ally-to-be
    game.advance_to("1939-fall/allies/redeployment")
    assert _rules(game, Move(("australia-1",), "Egypt")) == []
    assert _rules(game, Move(("w-poland-1",), "Britain")) == ["82.83A"]


@pytest.mark.rule("82.32D")
@pytest.mark.rule("82.82")
def test_who_may_enter_a_controlled_minor_and_one_awaiting_its_ally() -> None:
    """Germany's allies may enter Rumania, whose hexes Germany controls (82.32D); W.
    Poland, attacked by Germany and awaiting Britain's alliance, is open to its attacker
    and to the Allies (82.82, 82.83)."""
    game = _board()
    assert sorted(entrants(game.play(), "Rumania")) == ["Germany", "Italy", "Japan"]
    assert sorted(entrants(game.play(), "W. Poland")) == [
        "Britain", "France", "Germany", "Russia", "U.S."
    ]  # fmt: skip
    assert _rules(game, Move(("ita-1",), "Rumania")) == []


@pytest.mark.rule("K3")
@pytest.mark.rule("82.41")
@pytest.mark.rule("82.83C")
@pytest.mark.rule("82.42")
def test_who_may_enter_a_major_power_and_a_minor() -> None:
    """A major's units enter a power of their side or one at war with them, not a neutral
    one (K3); a minor's units with no major fight only at home (82.83C); entering a
    neutral minor needs a declaration (82.41); entering a minor tied to a power needs war
    with that power (82.42 names the tie), each refused with the message that says so."""
    game = _board()

    def refusal(unit: str, to: str) -> list[tuple[str, str]]:
        """The refusals of entry (those of the phase, K1 and 82.83A, left aside)."""
        found = game.check(Move((unit,), to))
        return [(v.rule, v.message) for v in found if v.rule not in ("K1", "82.83A")]

    assert refusal("ger-1", "Italy") == []  # its own side
    assert refusal("ger-1", "France") == []  # at war
    assert refusal("ger-1", "Russia") == [
        ("K3", "Germany's units cannot enter Russia: not its side and not at war with it")
    ]
    assert refusal("rus-1", "Germany") == [
        ("K3", "Russia's units cannot enter Germany: not its side and not at war with it")
    ]
    assert refusal("thailand-1", "Japan") == [
        ("K3", "Thailand's units cannot enter Japan: not its side and not at war with it")
    ]
    assert refusal("thailand-1", "Burma") == [
        ("82.83C", "Thailand's units fight only in their own country")
    ]
    assert refusal("ger-1", "Sweden") == [
        ("82.41", "Germany's units cannot enter Sweden (neutral): Germany is not at war with "
                  "Sweden (Germany cannot declare war on Sweden now: a declaration of war belongs "
                  "in the axis declarations phase, not 1939-fall/axis/movement)")
    ]  # fmt: skip
    assert refusal("ita-1", "Egypt") == [
        ("82.12", "Italy's units cannot enter Egypt (colony with Britain): Italy is not at war "
                  "with Britain (Italy cannot declare war on Britain now: a declaration of war "
                  "belongs in the axis declarations phase, not 1939-fall/axis/movement)")
    ]  # fmt: skip
    assert refusal("australia-1", "Egypt") == []  # its own side's colony, in its zone
    with pytest.raises(RuleViolation, match="K3"):
        game.apply(Move(("ger-1",), "Russia"))


@pytest.mark.rule("K3")
def test_a_unit_id_is_given_once_and_a_hex_lies_in_its_country() -> None:
    """A placed unit's id may be neither one on the map, nor one removed, nor twice in
    one placement (K3); a hex given with a placement or a move must lie in the minor
    entered, while a major's hexes are not listed and any label is taken."""
    game = _board()
    game.apply(command("remove", units=["fra-1"]))
    assert _rules(game, _place(game, "Germany", ("ger-1", "Germany"))) == ["K3"]
    assert _rules(game, _place(game, "France", ("fra-1", "France"))) == ["K3"]
    twice = _place(game, "Germany", ("ger-9", "Germany"), ("ger-9", "Germany"))
    assert _rules(game, twice) == ["K3"]
    with pytest.raises(RuleViolation, match="K3"):
        game.apply(twice)
    assert "ger-9" not in game.to_json()["units"]
    assert _rules(game, _place(game, "Rumania", ("ger-9", "Germany"), hex="Oslo")) == ["K3"]
    assert _rules(game, _place(game, "Rumania", ("ger-9", "Germany"), hex="Ploesti")) == []
    assert _rules(game, _place(game, "Germany", ("ger-9", "Germany"), hex="Berlin")) == []
    assert _rules(game, Move(("ger-1",), "Rumania", "Oslo")) == ["K3"]
    assert _rules(game, Move(("ger-1",), "Rumania", "Ploesti")) == []
    assert _rules(game, Move(("ger-1",), "Italy", "Rome")) == []
    assert _rules(game, Move(("nobody",), "Rumania")) == ["K3"]
    # a used id placed in a major with a hex: the id is the only fault (no hex list)
    assert _rules(game, _place(game, "Germany", ("ger-1", "Germany"), hex="Berlin")) == ["K3"]
    assert _rules(game, command("remove", units=["nobody"])) == ["K3"]
    effects = game.apply(_place(game, "Germany", ("ger-9", "Germany"), hex="Berlin"))
    assert [type(e).__name__ for e in effects] == ["UnitPlaced"]
    assert game.unit("ger-9").hex == "Berlin"
    effects = game.apply(Move(("ger-9",), "Rumania", "Ploesti"))
    assert [type(e).__name__ for e in effects] == ["UnitMoved"]
    assert (game.unit("ger-9").country, game.unit("ger-9").hex) == ("Rumania", "Ploesti")
    effects = game.apply(command("remove", units=["ger-9"]))
    assert [type(e).__name__ for e in effects] == ["UnitRemoved"]
    assert "ger-9" not in game.to_json()["units"]
    assert command("remove", units=["ger-1"]) in game.legal_actions("remove")


@pytest.mark.rule("K7")
@pytest.mark.rule("82.13B")
@pytest.mark.rule("82.41")
def test_who_may_place_units_where() -> None:
    """A conquered minor and one not yet in play have no units to place (K7); Commonwealth
    units are built at home only (82.13B); a unit is placed only where it may be (82.41):
    each refusal names its rule, and the lawful placement beside it passes."""
    game = _board()
    assert _rules(game, _place(game, "Australia", ("aus-9", "Australia"))) == []
    assert _rules(game, _place(game, "Egypt", ("aus-9", "Australia"))) == ["82.13B"]
    assert _rules(game, _place(game, "Sweden", ("ger-9", "Germany"))) == ["82.41"]
    assert _rules(game, _place(game, "Russia", ("ger-9", "Germany"))) == ["K3"]
    assert _rules(game, _place(game, "Vichy France", ("vichy-9", "Vichy France"))) == ["K7"]
    game.advance_to("1939-fall/allies/declarations")
    game.apply(command("declare_war", attacker="Russia", target="Estonia"))
    game.advance_to("1939-fall/allies/combat")
    game.apply(command("conquer", minor="Estonia", by="Russia"))
    assert _rules(game, _place(game, "Estonia", ("est-9", "Estonia"))) == ["K7"]
    assert "is conquered" in game.check(_place(game, "Estonia", ("est-9", "Estonia")))[0].message


@pytest.mark.rule("82.83C")
def test_a_move_of_several_units_is_refused_for_any_of_them() -> None:
    """An Australian unit going home and a Chinese one bound abroad in one move: the
    Chinese unit fights only at home (82.83C), so the whole move is refused."""
    game = _board()
    game.advance_to("1939-fall/allies/movement")
    game.apply(Move(("australia-1",), "Egypt"))
    both = Move(("australia-1", "communist-china-1"), "Australia")
    assert _rules(game, both) == ["82.83C"]
    with pytest.raises(RuleViolation, match=r"82\.83C"):
        game.apply(both)
    assert game.unit("australia-1").country == "Egypt"


HOUSE = """
[starts.house]
clock = "1939-fall/axis/diplomacy"
last_moment = "1949-winter/allies/construction"
wars = [["Germany", "Britain"], ["Germany", "France"]]
pending = [{ minor = "Sweden", partner = "Germany", level = "association", \
due = "1941-spring/axis/diplomacy", rule = "82.82" }]

[minors.Rumania]
capital = ""
capital_adjacent = []
hexes = []

[minors."Communist China"]
redeploys = true

[commonwealth_zones.Australia]
theaters = []
countries = ["Egypt"]
"""
"""House tables: a start where neutral Sweden awaits association with Germany, Rumania
with no hex list, Communist China redeploying as Vichy France does, and an Australian
zone of Egypt alone."""


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("house") / "house.toml"
    path.write_text(HOUSE, encoding="utf-8")
    return load_ruleset([path])


@pytest.mark.rule("82.13A")
@pytest.mark.rule("82.83A")
@pytest.mark.rule("82.41")
@pytest.mark.rule("K3")
def test_house_tables_keep_the_entry_phase_zone_and_hex_rules(house: Any) -> None:
    """Under house tables: an Australian unit in Egypt may go home though its zone leaves
    Australia out, and nowhere else outside the zone (82.13A); Communist China, that may
    redeploy, still sits out the declarations phase (82.83A); a minor with no hex list
    takes any hex label (K3); a neutral minor awaiting association is not opened to its
    potential ally (82.41), whose units may still come home to it."""
    game = Game.new(house, start="house")
    game.advance_to("1939-fall/axis/declarations")
    china = Move(("communist-china-1",), "Communist China", "Yulin")
    assert _rules(game, china) == ["82.83A"]
    game.advance_to("1939-fall/axis/movement")
    assert entrants(game.play(), "Sweden") == frozenset()
    game.apply(_place(game, "Sweden", ("swe-1", "Sweden")))
    game.apply(_place(game, "Germany", ("ger-1", "Germany")))
    game.apply(Move(("swe-1",), "Germany"))
    assert _rules(game, Move(("ger-1",), "Sweden")) == ["82.41"]
    assert Move(("swe-1",), "Sweden") in game.legal_actions("move")
    assert [c for c in unbatched_legal_actions(game) if c.name in {"move"}] == game.legal_actions(
        "move"
    )
    assert _rules(game, Move(("swe-1",), "Sweden")) == []
    used = _place(game, "Rumania", ("swe-1", "Germany"), hex="Nowhere")
    assert _rules(game, used) == ["82.41", "K3"]  # the used id; no hex list to break
    game.advance_to("1939-fall/axis/redeployment")
    assert _rules(game, china) == []
    game.advance_to("1939-fall/allies/movement")
    game.apply(Move(("australia-1",), "Egypt"))
    assert _rules(game, Move(("australia-1",), "Australia")) == []
    assert _rules(game, Move(("australia-1",), "India")) == ["82.13A"]


@pytest.mark.rule("82.32D")
def test_a_minor_starting_with_its_hexes_controlled_is_open_to_the_controller(
    tmp_path: Any,
) -> None:
    """Sweden, starting with its hexes controlled by Germany (a house registry row), is
    open to Germany and its allies from the start, as after a result of 8 (82.32D)."""
    path = tmp_path / "sweden.toml"
    path.write_text(
        '[minors.Sweden]\nstart_status = "hexes_controlled"\nstart_major = "Germany"\n',
        encoding="utf-8",
    )
    game = Game.new(load_ruleset([path]))
    game.advance_to("1939-fall/axis/movement")
    assert game.legal_actions("choose_losses") == []  # nobody stands there yet
    assert sorted(entrants(game.play(), "Sweden")) == ["Germany", "Italy", "Japan"]


@pytest.mark.rule("82.31")
@pytest.mark.rule("82.22")
@pytest.mark.rule("82.321B")
def test_a_minor_starting_with_its_hexes_controlled_is_as_after_a_result_of_8(
    tmp_path: Any,
) -> None:
    """Sweden starting hexes-controlled by Germany holds what Germany's 8 in the start's
    player turn gives in play: the same standing, the same grants (82.31, 82.22), and the
    ten-factor limit (82.321B) on the German units that enter."""
    path = tmp_path / "sweden.toml"
    path.write_text(
        '[minors.Sweden]\nstart_status = "hexes_controlled"\nstart_major = "Germany"\n',
        encoding="utf-8",
    )
    started = Game.new(load_ruleset([path]))
    played = Game.new()
    played.apply(command("diplomatic_result", minor="Sweden", major="Germany", result=8))
    assert started.minor("Sweden").standing == played.minor("Sweden").standing
    assert started.minor("Sweden").standing is not None
    assert started.brps("Germany") == played.brps("Germany") > 0
    started.advance_to("1939-fall/axis/movement")
    units = [(f"ger-{i}", "Germany") for i in range(11)]
    started.apply(_place(started, "Germany", *units))
    started.apply(Move(tuple(i for i, _ in units), "Sweden"))
    started.advance_to("1939-fall/axis/combat")
    assert started.state()["eliminated"] == ["ger-9"]
