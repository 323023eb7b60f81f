"""Declarations and border wars refused for what they are (K2, K7, 82.34, 82.41), each
with the one rule and message that says why: the checks of war.py one by one."""

from __future__ import annotations

import pytest

import minors
from minors import Game, command


def _refusals(game: Game, kind: str, **fields: str) -> list[tuple[str, str]]:
    return [(v.rule, v.message) for v in game.check(command(kind, **fields))]


@pytest.fixture(scope="module")
def spring() -> Game:
    """Spring 1940, France surrendered in the Axis declarations phase."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("surrender", major="France"))
    return game


@pytest.mark.rule("K2")
@pytest.mark.parametrize(
    ("attacker", "target", "expected"),
    [
        ("Germany", "Germany", [("K2", "Germany cannot declare war on its own faction's Germany")]),
        ("Germany", "Italy", [("K2", "Germany cannot declare war on its own faction's Italy")]),
        ("Germany", "Britain", [("K2", "Germany is already at war with Britain")]),
        ("Germany", "France", [("K2", "France has surrendered")]),
        ("France", "Sweden", [("K1", "a declaration of war belongs in the allies declarations "
                                     "phase, not 1940-spring/axis/declarations"),
                              ("K2", "France has surrendered")]),
        ("Italy", "Britain", []),
        ("Germany", "Sweden", []),
    ],
)  # fmt: skip
def test_who_may_declare_war_on_whom(
    spring: Game, attacker: str, target: str, expected: list[tuple[str, str]]
) -> None:
    """A power cannot declare war on itself or its faction, twice, on a surrendered power,
    nor while surrendered; a declaration by a power at peace with the target is legal."""
    assert _refusals(spring, "declare_war", attacker=attacker, target=target) == expected


@pytest.mark.rule("82.41")
def test_only_the_tables_border_wars_need_no_declaration() -> None:
    """Russia's border wars on Finland and Rumania are legal in its declarations phase; any
    other attacker or target is refused under 82.41 with the list of border wars, and a
    border war on a minor already at war with Russia is refused as a second war (K2)."""
    game = Game.new()
    game.advance_to("1939-fall/allies/declarations")
    wars = "only Russia against Finland; Russia against Rumania"
    assert _refusals(game, "border_war", attacker="Russia", target="Finland") == []
    assert _refusals(game, "border_war", attacker="Britain", target="Finland") == [
        ("82.41", f"Britain has no border war with Finland: {wars} (Britain may declare war on "
                  "Finland now)")
    ]  # fmt: skip
    assert _refusals(game, "border_war", attacker="Russia", target="Germany") == [
        ("82.41", f"Russia has no border war with Germany: {wars} (Russia may declare war on "
                  "Germany now)")
    ]  # fmt: skip
    game.apply(command("border_war", attacker="Russia", target="Finland"))
    again = command("border_war", attacker="Russia", target="Finland")
    assert _refusals(game, "border_war", attacker="Russia", target="Finland") == [
        ("K2", "Russia is already at war with Finland")
    ]
    with pytest.raises(minors.RuleViolation, match="K2"):
        game.apply(again)  # apply's boolean path agrees with check


@pytest.mark.rule("82.34")
def test_a_border_war_on_a_garrisoned_minor_needs_war_with_the_garrison() -> None:
    """Germany controls Rumania and garrisons it: Russia, at peace with Germany, may not
    wage its border war there (82.34), as it may not declare war."""
    game = Game.new()
    game.apply(command("diplomatic_result", minor="Rumania", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    unit = {"id": "ger-r", "owner": "Germany", "kind": "infantry", "factors": 2}
    game.apply(command("place", units=[unit], **{"in": "Rumania"}))
    game.advance_to("1939-fall/allies/declarations")
    why = [
        (
            "82.34",
            "Germany garrisons Rumania: war on it first (Russia may declare war on Germany now)",
        )
    ]
    assert _refusals(game, "border_war", attacker="Russia", target="Rumania") == why
    assert _refusals(game, "declare_war", attacker="Russia", target="Rumania") == why
    for kind in ("border_war", "declare_war"):
        with pytest.raises(minors.RuleViolation, match=r"82\.34"):
            game.apply(command(kind, attacker="Russia", target="Rumania"))


@pytest.mark.rule("82.34")
@pytest.mark.rule("82.81A")
def test_the_garrison_with_most_factors_takes_the_minor() -> None:
    """Britain controls Norway, where three British and five French factors stand; Germany,
    at war with both, attacks: Norway associates at once with France, the garrison with the
    most factors there (82.34), not barred by Germany's attack; with 82.351 off too."""
    for disabled in (frozenset(), frozenset({"82.351"})):
        game = Game.new(disabled=disabled)
        game.advance_to("1939-fall/allies/diplomacy")
        game.apply(command("diplomatic_result", minor="Norway", major="Britain", result=-1))
        game.advance_to("1939-fall/allies/movement")
        units = [
            {"id": "bri-n", "owner": "Britain", "kind": "infantry", "factors": 3},
            {"id": "fra-n", "owner": "France", "kind": "infantry", "factors": 5},
        ]
        game.apply(command("place", units=units, **{"in": "Norway"}))
        game.advance_to("1940-spring/axis/declarations")
        game.apply(command("declare_war", attacker="Germany", target="Norway"))
        norway = game.minor("Norway")
        assert (norway.status, norway.major) == (minors.Status.ASSOCIATED, "France"), disabled


@pytest.mark.rule("82.12")
def test_a_war_between_majors_reaches_every_tied_minor_and_is_logged() -> None:
    """Italy's war on France reaches every colony of both, each logged under 82.12 (Albania
    and Libya through Italy, the French colonies through France); France's surrender ends
    those wars again, each logged as its major leaving the war."""
    game = Game.new()
    game.advance_to("1940-summer/axis/declarations")
    began = [
        (e.a, e.b)
        for e in game.apply(command("declare_war", attacker="Italy", target="France"))
        if isinstance(e, minors.WarBegan) and e.rule == "82.12"
    ]
    assert began == [
        ("Italy", "Lebanon/Syria"), ("France", "Albania"), ("France", "Libya"),
        ("Italy", "Algeria"), ("Italy", "Tunisia"), ("Italy", "Morocco"),
        ("Italy", "French Indochina"),
    ]  # fmt: skip
    ended = {
        (e.a, e.b, e.cause)
        for e in game.apply(command("surrender", major="France"))
        if isinstance(e, minors.WarEnded) and e.rule == "K2" and e.b in ("Albania", "Libya")
    }
    assert ended == {
        ("France", "Albania", "its major left the war"),
        ("France", "Libya", "its major left the war"),
    }
    assert "France" not in game.minor("Albania").at_war_with


@pytest.mark.rule("82.36")
def test_only_a_minor_in_play_and_at_peace_is_subverted() -> None:
    """Vichy France, not yet in play, cannot be subverted though its status reads neutral;
    Sweden, at peace and in play, can."""
    game = Game.new()
    game.advance_to("1939-fall/allies/diplomacy")
    assert [
        v.rule for v in game.check(command("subvert", major="Russia", minor="Vichy France"))
    ] == ["82.36"]
    assert game.check(command("subvert", major="Russia", minor="Sweden")) == []


@pytest.mark.rule("K6")
@pytest.mark.rule("82.81")
def test_a_declaration_logs_its_cost_and_the_association_it_schedules() -> None:
    """Germany's declaration on Sweden logs the 10 BRPs it costs (K6) and the note of the
    82.81 association it schedules for Britain."""
    game = Game.new()
    game.advance_to("1940-spring/axis/declarations")
    effects = game.apply(command("declare_war", attacker="Germany", target="Sweden"))
    costs = [e.entry.amount for e in effects if isinstance(e, minors.BrpChange)]
    notes = [(e.text, e.rule) for e in effects if isinstance(e, minors.Note)]
    assert costs == [-10]
    assert notes == [
        (
            "Sweden will associate with Britain at 1940-spring/allies/diplomacy if it survives",
            "82.81",
        )
    ]
