"""The foreign-factor limits (82.32-82.322), enforced at phase ends."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minors
from minors import Play, Rulebook, UnitEliminated, command
from minors.rules82 import RULEBOOK
from minors.rules82.limits import group_of, limits_on, measure, supply_order


def unit(
    uid: str, owner: str = "Germany", kind: str = "infantry", factors: int = 3
) -> dict[str, Any]:
    return {"id": uid, "owner": owner, "kind": kind, "factors": factors}


def controlled(
    minor: str = "Rumania", major: str = "Germany", result: int = 8, rulebook: Rulebook = RULEBOOK
) -> minors.Game:
    """A game in the Axis movement phase of Fall 1939 with `minor` controlled by `major`."""
    game = minors.Game.new(rulebook=rulebook)
    game.apply(command("diplomatic_result", minor=minor, major=major, result=result))
    game.advance_to("1939-fall/axis/movement")
    return game


def place(game: minors.Game, country: str, *units: dict[str, Any]) -> None:
    game.apply(command("place", units=list(units), **{"in": country}))


def end_phase(game: minors.Game) -> list[UnitEliminated]:
    effects = game.advance_to(minors.Moment(game.clock.index + 1))
    return [e for e in effects if isinstance(e, UnitEliminated)]


@pytest.mark.rule("82.32")
@pytest.mark.rule("82.321B")
def test_ten_foreign_factors_at_most() -> None:
    """Twelve German factors in controlled Rumania: the excess goes at the phase end."""
    game = controlled()
    place(game, "Rumania", *(unit(f"g{i}") for i in range(1, 5)))
    assert [(e.unit, e.rule) for e in end_phase(game)] == [("g4", "82.32")]
    assert sorted(u for u in game.to_json()["units"] if u.startswith("g")) == ["g1", "g2", "g3"]
    assert game.to_json()["eliminated"] == ["g4"]


@pytest.mark.rule("82.321B")
def test_the_owners_choice_goes_first() -> None:
    """choose_losses names the units that go first."""
    game = controlled()
    place(game, "Rumania", *(unit(f"g{i}") for i in range(1, 5)))
    game.apply(command("choose_losses", minor="Rumania", units=["g1"]))
    assert [e.unit for e in end_phase(game)] == ["g1"]


@pytest.mark.rule("82.321")
@pytest.mark.rule("82.321B")
@pytest.mark.parametrize("phase", ["movement", "combat", "redeployment"])
def test_enforced_at_each_of_the_three_phase_ends(phase: str) -> None:
    """The limit is applied at the end of the movement, combat and redeployment phases."""
    game = controlled()
    game.advance_to(f"1939-fall/axis/{phase}")
    place(game, "Rumania", *(unit(f"g{i}") for i in range(1, 5)))
    assert [e.unit for e in end_phase(game)] == ["g4"]


def test_not_enforced_in_other_phases() -> None:
    """Between the phase ends the map may hold more (until the next check)."""
    game = controlled()
    game.advance_to("1939-fall/axis/construction")
    place(game, "Rumania", *(unit(f"g{i}") for i in range(1, 5)))
    assert end_phase(game) == []


@pytest.mark.rule("82.32")
def test_naval_factors_count() -> None:
    """82.32 counts naval factors (a reading: 82.321B names only ground and air)."""
    game = controlled()
    place(game, "Rumania", unit("g1", factors=4), unit("g2", factors=4), unit("n3", kind="naval"))
    assert [e.unit for e in end_phase(game)] == ["n3"]


@pytest.mark.rule("82.321C")
def test_bases_and_forts_are_exempt() -> None:
    """Airbases, rocket bases, railheads and forts never count."""
    game = controlled()
    place(
        game,
        "Rumania",
        unit("g1", factors=5),
        unit("g2", factors=5),
        unit("b1", kind="airbase", factors=5),
        unit("f1", kind="fort", factors=5),
        unit("r1", kind="railhead", factors=5),
        unit("x1", kind="rocket_base", factors=5),
    )
    assert end_phase(game) == []


@pytest.mark.rule("82.32C")
def test_belgium_and_luxembourg_count_as_one() -> None:
    """Six factors in each of Belgium and Luxembourg exceed one shared limit."""
    game = minors.Game.new()
    for minor in ("Belgium", "Luxembourg"):
        game.apply(command("diplomatic_result", minor=minor, major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    place(game, "Belgium", unit("g1"), unit("g2"))
    place(game, "Luxembourg", unit("g3"), unit("g4"))
    assert [e.unit for e in end_phase(game)] == ["g4"]
    assert group_of(game.play(), "Luxembourg") == (
        "Belgium",
        "Luxembourg",
    )


@pytest.mark.rule("82.32B")
@pytest.mark.rule("82.321A")
def test_units_tracing_supply_count_and_come_last() -> None:
    """A unit tracing supply through Rumania counts; the units inside are supplied first."""
    game = controlled()
    place(game, "Rumania", unit("g1"), unit("g2"), unit("g3"))
    place(game, "Germany", unit("t1", factors=2))
    game.apply(command("trace_supply", units=["t1"], through="Rumania"))
    tx = game.play()
    assert supply_order(tx, "Rumania") == ["g1", "g2", "g3", "t1"]
    excess, _, tracing = measure(tx, game.ruleset.limits["default"], ("Rumania",))
    assert (excess.factors, [u.id for u in tracing]) == (11, ["t1"])
    effects = game.advance_to("1939-fall/axis/combat")
    notes = [e for e in effects if isinstance(e, minors.Note) and e.rule == "82.321A"]
    assert len(notes) == 1
    assert "t1 trace no supply" in notes[0].text
    assert not any(isinstance(e, UnitEliminated) for e in effects)
    assert game.raw_state.traces == {}  # declarations last one phase


@pytest.mark.rule("82.322")
def test_finland_five_axis_factors_one_armor_whatever_its_status() -> None:
    """Finland associated with Germany: at most five Axis factors and one armor unit."""
    game = minors.Game.new()
    game.advance_to("1939-fall/allies/declarations")
    game.apply(command("border_war", attacker="Russia", target="Finland"))
    game.advance_to("1940-spring/axis/declarations")
    game.apply(command("declare_war", attacker="Germany", target="Russia"))
    assert game.minor("Finland").status.value == "associated"
    game.advance_to("1940-spring/axis/movement")
    place(
        game,
        "Finland",
        unit("a1", kind="armor", factors=2),
        unit("a2", kind="armor", factors=2),
        unit("i1", factors=2),
        unit("i2", factors=1),
    )
    eliminated = [(e.unit, e.rule) for e in end_phase(game)]
    assert eliminated == [("a2", "82.322")]  # 5 factors left, one armor unit
    tx = game.play()
    assert [lim.key for lim in limits_on(tx, ("Finland",))] == ["Finland"]


@pytest.mark.rule("82.322")
def test_finns_and_swedes_are_exempt_in_finland() -> None:
    """Finnish and Swedish units do not count against Finland's limit."""
    game = minors.Game.new()
    tx = game.play()
    finland = game.ruleset.limits["Finland"]
    for owner in ("Finland", "Sweden"):
        assert not _counts(tx, finland, owner)
    assert _counts(tx, finland, "Germany")
    assert not _counts(tx, finland, "Britain")  # only Axis factors are limited there


def _counts(tx: Play, limit: Any, owner: str) -> bool:
    from minors.domain.units import Unit, UnitKind
    from minors.rules82.limits import counts

    return counts(tx, limit, ("Finland",), Unit("x", owner, UnitKind.INFANTRY, 1, "Finland"))


@pytest.mark.rule("82.32A")
def test_axis_units_in_attacked_vichy_colonies_do_not_count() -> None:
    """With a hook naming Rumania an attacked Vichy colony, Axis units there do not count."""
    book = RULEBOOK.extend(
        "rumania-a-vichy-colony",
        replace={"vichy_colony": lambda p, major, minor: minor == "Rumania"},
    )
    game = controlled(rulebook=book)
    place(game, "Rumania", *(unit(f"g{i}") for i in range(1, 5)))
    assert end_phase(game) == []


def test_commands_are_checked() -> None:
    """trace_supply and choose_losses need moving phases and real units."""
    game = controlled()
    game.advance_to("1939-fall/axis/construction")
    problems = game.check(command("trace_supply", units=["nope"], through="Rumania"))
    assert sorted(p.rule for p in problems) == ["K1", "K3"]
    game2 = controlled()
    place(game2, "Germany", unit("h1"))
    assert [
        p.rule for p in game2.check(command("choose_losses", minor="Rumania", units=["h1"]))
    ] == ["K3"]


@given(
    counts=st.lists(
        st.tuples(st.integers(1, 5), st.sampled_from(["infantry", "armor", "naval", "fort"])),
        min_size=1,
        max_size=8,
    ),
    phase_steps=st.integers(1, 8),
)
@settings(max_examples=60, deadline=None)
def test_no_limit_is_exceeded_at_any_phase_end(
    counts: list[tuple[int, str]], phase_steps: int
) -> None:
    """After any placements, every phase end leaves every limited minor within its limits,
    and every unit the rules removed is in the log with a rule id."""
    game = controlled()
    place(game, "Rumania", *(unit(f"u{i}", kind=k, factors=f) for i, (f, k) in enumerate(counts)))
    before = set(game.to_json()["units"])
    game.advance_to(minors.Moment(game.clock.index + phase_steps))
    tx = game.play()
    for limit in limits_on(tx, ("Rumania",)):
        assert not measure(tx, limit, ("Rumania",))[0].over
    gone = before - set(game.to_json()["units"])
    logged = {e.unit for entry in game.log for e in entry.effects if isinstance(e, UnitEliminated)}
    assert gone <= logged
    assert all(e.rule for entry in game.log for e in entry.effects)


@pytest.mark.rule("82.321B")
@pytest.mark.rule("82.32D")
def test_losses_are_chosen_only_among_the_units_the_limit_counts() -> None:
    """After Britain's −1 reverses Germany's 8 on Bulgaria, only British units count against
    the limit: the Allies may not name a German unit to lose, and `legal_actions` lists
    only the British one."""
    game = minors.Game.new()
    game.apply(minors.command("diplomatic_result", minor="Bulgaria", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    german = [
        {"id": f"ger-{i}", "owner": "Germany", "kind": "infantry", "factors": 5} for i in (1, 2)
    ]
    game.apply(minors.command("place", units=german, **{"in": "Bulgaria"}))
    game.advance_to("1939-fall/allies/diplomacy")
    game.apply(minors.command("diplomatic_result", minor="Bulgaria", major="Britain", result=-1))
    game.advance_to("1939-fall/allies/movement")
    british = [{"id": "brit-1", "owner": "Britain", "kind": "infantry", "factors": 4}]
    game.apply(minors.command("place", units=british, **{"in": "Bulgaria"}))
    named = minors.command("choose_losses", minor="Bulgaria", units=["ger-1"])
    assert [(v.rule, v.message) for v in game.check(named)] == [
        ("K3", "ger-1 is not under Bulgaria's limit")
    ]
    listed = [c.units for c in game.legal_actions("choose_losses") if c.minor == "Bulgaria"]
    assert listed == [("brit-1",)]
