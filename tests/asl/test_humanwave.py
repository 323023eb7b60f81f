"""Human Wave (A25.23-A25.234): declaration, direction, Impulse moves and the end."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from minors import MinorsError
from minors.asl import hexgrid, humanwave
from minors.asl.hexgrid import Hex, HexGrain, Hexside, distance
from minors.asl.humanwave import (
    EntryEffect,
    HumanWaveError,
    HWCandidate,
    HWEnd,
    HWMove,
    HWMoveKind,
    HWUnitState,
    ImpulseEdge,
    ImpulseFacts,
    UnitCondition,
    WaveKind,
    after_move,
    check_declaration,
    check_direction,
    entry_effects,
    forward_hexes,
    human_wave_ends,
    hw_directions,
    legal_moves,
    side_hexes,
    stops_being_hw_unit,
)
from minors.asl.personnel import PersonnelKind
from tests.paths import DATA, DOCS

EXAMPLE = tomllib.loads((DATA / "a25_231_example.toml").read_text(encoding="utf-8"))
SQUAD, LEADER = PersonnelKind.SQUAD, PersonnelKind.LEADER
F, S = HWMoveKind.FORWARD, HWMoveKind.SIDE_WITH_ENEMY


def unit(uid: str, hex_: str, kind: PersonnelKind = SQUAD, **facts: Any) -> HWCandidate:
    return HWCandidate(uid, kind, hex_, **facts)


def chain(*hexes: str, per_hex: int = 2, los: str | None = None) -> list[HWCandidate]:
    """`per_hex` squads in each hex, a leader in the first; the unit(s) in `los` see."""
    units = [unit(f"{h}-{i}", h, los_to_target=h == los) for h in hexes for i in range(per_hex)]
    return [*units, unit("ldr", hexes[0], LEADER)]


def rules_of(violations: tuple[Any, ...]) -> list[str]:
    return [v.rule for v in violations]


def moves(*pairs: tuple[HWMoveKind, str]) -> tuple[HWMove, ...]:
    return tuple(HWMove(kind, hex_) for kind, hex_ in pairs)


def open_ground(*hexes: str, mf: float = 8, **facts: Any) -> ImpulseFacts:
    """Facts for an Impulse: each hex costs 1 MF."""
    return ImpulseFacts(mf_left=mf, cost=dict.fromkeys(hexes, 1.0), **facts)


# ---- the worked example (A25.231, A25.2311) -------------------------------------------------


@pytest.mark.rule("A25.231")
def test_example_grains_are_the_closest() -> None:
    """The five grains of the example are exactly those at range 0 from the HW Units."""
    data = EXAMPLE["directions"]
    units = [unit(f"u{h}", h, los_to_target=True) for h in data["hw_units"]]
    expected = {HexGrain.from_hexes(g.split("-"), data["target"]) for g in data["grains"]}
    found = hw_directions(data["target"], units)
    assert set(found) == expected
    assert len(found) == len(expected)
    assert {min(g.range_from(u.hex) for u in units) for g in found} == {data["range"]}
    chosen = HexGrain.from_hexes(["P1", "P2", "O3", "O4"], "O3")
    assert check_direction(chosen, units) == ()


@pytest.mark.rule("A25.2311")
@pytest.mark.parametrize("case", EXAMPLE["locations"], ids=lambda c: c["grain"])
def test_example_forward_and_side_hexes(case: dict[str, Any]) -> None:
    """A unit in P2: forward O3, P3 and side O2, Q3 (alternate); forward O2, O3, P3 (normal)."""
    grain = HexGrain.from_hexes(case["grain"].split("-"), "O3")
    assert grain.is_alternate is case["alternate"]
    assert [s.value for s in grain.forward_hexsides] == case["forward_hexsides"]
    assert [s.value for s in grain.side_hexsides] == case["side_hexsides"]
    assert sorted(map(str, forward_hexes(case["unit"], grain))) == case["forward"]
    assert sorted(map(str, side_hexes(case["unit"], grain))) == case["side"]


# ---- declaration (A25.23) -------------------------------------------------------------------


@pytest.mark.rule("A25.23")
def test_a_legal_declaration() -> None:
    """Two squads in each of O1, P1, Q2, a leader, and a LOS to O3: no violation."""
    assert check_declaration(chain("O1", "P1", "Q2", los="O1"), "O3") == ()


@pytest.mark.rule("A25.23")
@pytest.mark.parametrize(("hexes", "ok"), [(("O1", "P1"), False), (("O1", "P1", "Q2"), True)])
def test_chain_of_three_hexes(hexes: tuple[str, ...], ok: bool) -> None:
    """Two hexes are too few; three are enough."""
    found = check_declaration(chain(*hexes, los="O1"), "O3")
    assert (found == ()) is ok
    assert ok or "3 or more" in found[0].message


@pytest.mark.rule("A25.23")
@pytest.mark.parametrize(("extra", "ok"), [(0, False), (1, True)])
def test_average_of_two_mmc_per_hex(extra: int, ok: bool) -> None:
    """Five MMC in three hexes average below two; six do not."""
    units = [
        unit("a", "O1", los_to_target=True),
        unit("b", "O1"),
        unit("c", "P1"),
        unit("d", "P1"),
        unit("e", "Q2"),
        unit("ldr", "O1", LEADER),
    ]
    units += [unit(f"x{i}", "Q2") for i in range(extra)]
    found = check_declaration(units, "O3")
    assert (found == ()) is ok
    assert ok or "average" in found[0].message


@pytest.mark.rule("A25.23")
def test_chain_must_be_contiguous() -> None:
    """O1, P1 and R2 leave a gap between P1 and R2."""
    found = check_declaration(chain("O1", "P1", "R2", los="O1"), "O3")
    assert [v.message for v in found if "contiguous" in v.message]


@pytest.mark.rule("A25.23")
def test_one_mmc_in_every_hex_and_a_leader() -> None:
    """A leader is needed, and an SMC must stand in a hex that holds MMC."""
    units = chain("O1", "P1", "Q2", los="O1")
    no_leader = [u for u in units if u.kind is not LEADER]
    assert [v.message for v in check_declaration(no_leader, "O3")] == [
        "no leader is selected; at least one must join"
    ]
    astray = [*no_leader, unit("ldr", "R2", LEADER)]
    found = check_declaration(astray, "O3")
    assert rules_of(found) == ["A25.23"]
    assert "ldr in R2 is not in a hex of the chain" in found[0].message


@pytest.mark.rule("A25.23")
@pytest.mark.parametrize(
    ("fact", "value", "wave", "ok"),
    [
        ("good_order", False, WaveKind.HUMAN_WAVE, False),
        ("free_to_move", False, WaveKind.HUMAN_WAVE, False),
        ("started_mph", True, WaveKind.HUMAN_WAVE, False),
        ("guard", True, WaveKind.HUMAN_WAVE, False),
        ("guard", True, WaveKind.CAVALRY_WAVE, False),
        ("prc", True, WaveKind.HUMAN_WAVE, False),
        ("prc", True, WaveKind.CAVALRY_WAVE, True),
        ("near_enemy", True, WaveKind.HUMAN_WAVE, False),
        ("near_enemy", True, WaveKind.BANZAI, True),
    ],
)
def test_each_unit_qualifies(fact: str, value: bool, wave: WaveKind, ok: bool) -> None:
    """Good Order, free to move, MPh not started, no Guard, PRC only in a Cavalry Wave,
    next to an enemy only in a Banzai."""
    units = chain("O1", "P1", "Q2", los="O1")
    units[2] = attrs.evolve(units[2], **{fact: value})
    found = check_declaration(units, "O3", wave=wave)
    assert (found == ()) is ok
    assert ok or found[0].data == {"unit": units[2].id}


@pytest.mark.rule("A25.23")
@pytest.mark.parametrize(("target", "ok"), [("O9", True), ("O10", False)])
def test_target_within_eight_hexes(target: str, ok: bool) -> None:
    """The only unit with a LOS, in O1, sees O9 at eight hexes but not O10 at nine."""
    assert distance(Hex.parse("O1"), Hex.parse(target)) == (8 if ok else 9)
    found = check_declaration(chain("O1", "P1", "Q2", los="O1"), target)
    assert (found == ()) is ok


@pytest.mark.rule("A25.23")
def test_some_unit_must_see_the_target() -> None:
    """Without any LOS to the target there is no Human Wave."""
    found = check_declaration(chain("O1", "P1", "Q2"), "O3")
    assert rules_of(found) == ["A25.23"]
    assert "LOS" in found[0].message


@pytest.mark.rule("A25.23")
def test_duplicate_ids_are_malformed() -> None:
    """A unit given twice is a HumanWaveError, a MinorsError and a ValueError."""
    units = chain("O1", "P1", "Q2", los="O1")
    with pytest.raises(HumanWaveError) as caught:
        check_declaration([*units, units[0]], "O3")
    assert isinstance(caught.value, MinorsError)
    assert isinstance(caught.value, ValueError)


# ---- direction (A25.231) --------------------------------------------------------------------


@pytest.mark.rule("A25.231")
def test_a_farther_grain_is_refused() -> None:
    """With HW Units in O1, P1, Q2 and R2, the grain R3-Q3-P3-O3 is not the closest."""
    units = [unit(f"u{h}", h, los_to_target=True) for h in ("O1", "P1", "Q2", "R2")]
    far = HexGrain.from_hexes(["R3", "Q3", "P3", "O3"], "O3")
    (found,) = check_direction(far, units)
    assert found.rule == "A25.231"
    assert "P1-P2-O3-O4" in found.message


@pytest.mark.rule("A25.231")
def test_a_grain_running_away_from_the_units_is_refused() -> None:
    """O1-O2-O3-O4 is chosen, not its reverse O4-O3-O2-O1, for a unit in O1."""
    units = [unit("u", "O1", los_to_target=True)]
    assert hw_directions("O3", units) == (HexGrain("O3", Hexside.S),)
    assert rules_of(check_direction(HexGrain("O3", Hexside.N), units)) == ["A25.231"]


@pytest.mark.rule("A25.231")
@pytest.mark.parametrize(("where", "count"), [("O11", 1), ("O12", 0)])
def test_direction_set_by_a_unit_within_eight_hexes(where: str, count: int) -> None:
    """A unit eight hexes from O3 establishes the direction; one nine hexes away does not."""
    units = [unit("u", where, los_to_target=True)]
    assert len(hw_directions("O3", units)) == count


@pytest.mark.rule("A25.231")
def test_direction_needs_a_los_and_not_the_target_hex() -> None:
    """A unit without LOS, or in the target's hex (Banzai), establishes no direction."""
    assert hw_directions("O3", [unit("u", "O1")]) == ()
    assert hw_directions("O3", [unit("u", "O3", los_to_target=True, near_enemy=True)]) == ()


# ---- moves in an Impulse (A25.232, A25.2321, A25.2322) --------------------------------------

DOWN = HexGrain("O3", Hexside.S)
"""The normal grain O1-O2-O3-O4: forward is hexsides 3, 4 and 5."""
ALT = HexGrain.from_hexes(["P1", "P2", "O3", "O4"], "O3")
"""The example's alternate grain: forward hexsides 4, 5; side 3, 6."""


@pytest.mark.rule("A25.232")
def test_forward_locations_on_a_normal_grain() -> None:
    """From O1 on the O column grain: P1, O2 and N1 are open, nothing else."""
    state = HWUnitState("O1")
    found = legal_moves(state, DOWN, open_ground("P1", "O2", "N1", "N2", "O0"))
    assert found == moves((F, "N1"), (F, "O2"), (F, "P1"))


@pytest.mark.rule("A25.232")
def test_side_location_only_with_an_enemy() -> None:
    """On the alternate grain a unit in P2 may enter side hex Q3 only if an enemy is there."""
    ground = ("O3", "P3", "O2", "Q3")
    empty = legal_moves(HWUnitState("P2"), ALT, open_ground(*ground))
    assert empty == moves((F, "O3"), (F, "P3"))
    held = legal_moves(HWUnitState("P2"), ALT, open_ground(*ground, enemy={"Q3"}))
    assert held == moves((F, "O3"), (F, "P3"), (S, "Q3"))


@pytest.mark.rule("A25.232")
def test_moves_need_the_mf_and_an_enterable_hex() -> None:
    """A hex the caller leaves out, or one costing more than the MF left, is closed."""
    facts = ImpulseFacts(mf_left=2, cost={"P1": 2, "O2": 3})
    assert legal_moves(HWUnitState("O1"), DOWN, facts) == moves((F, "P1"))


@pytest.mark.rule("A25.232")
def test_in_hex_moves_and_the_last_resort() -> None:
    """In-hex moves are offered; below an Entrenchment or Crest only when short of MF."""
    offered = {HWMoveKind.BUILDING_LEVEL, HWMoveKind.BELOW_ENTRENCHMENT_OR_CREST}
    rich = ImpulseFacts(mf_left=2, cost={"O2": 2}, in_hex=offered)
    assert [m.kind for m in legal_moves(HWUnitState("O1"), DOWN, rich)] == [
        F,
        HWMoveKind.BUILDING_LEVEL,
    ]
    poor = ImpulseFacts(mf_left=1, cost={"O2": 2}, in_hex=offered)
    assert [m.kind for m in legal_moves(HWUnitState("O1"), DOWN, poor)] == [
        HWMoveKind.BUILDING_LEVEL,
        HWMoveKind.BELOW_ENTRENCHMENT_OR_CREST,
    ]
    walled = ImpulseFacts(mf_left=1, cost={}, in_hex=offered)
    assert [m.kind for m in legal_moves(HWUnitState("O1"), DOWN, walled)] == [
        HWMoveKind.BUILDING_LEVEL
    ]


@pytest.mark.rule("A25.232")
def test_facts_are_checked() -> None:
    """A forward move given as an in-hex move, or Known enemies not among the enemies, raise."""
    with pytest.raises(HumanWaveError, match="not in-hex"):
        ImpulseFacts(in_hex={HWMoveKind.FORWARD})
    with pytest.raises(HumanWaveError, match="known_enemy within enemy"):
        ImpulseFacts(known_enemy={"O2"})
    with pytest.raises(HumanWaveError, match="negative"):
        ImpulseFacts(mf_left=-1)


@pytest.mark.rule("A25.2321")
def test_range_counter_blocks_moving_farther() -> None:
    """Marked in P1 (range 1), a unit may not enter Q2 (range 2); unmarked it may."""
    ground = open_ground("Q2", "P2")
    free = legal_moves(HWUnitState("P1"), DOWN, ground)
    assert free == moves((F, "P2"), (F, "Q2"))
    marked = legal_moves(HWUnitState("P1", range_marked=True), DOWN, ground)
    assert marked == moves((F, "P2"))


@pytest.mark.rule("A25.2321")
def test_range_counter_comes_and_goes() -> None:
    """Moving farther from the grain marks the unit, level keeps it, closer removes it."""
    state = after_move(HWUnitState("O1"), HWMove(F, "P1"), DOWN)
    assert state.range_marked
    state = after_move(state, HWMove(F, "P2"), DOWN)
    assert state.range_marked
    state = after_move(state, HWMove(F, "O3"), DOWN)
    assert not state.range_marked
    assert state.left == {Hex.parse(h) for h in ("O1", "P1", "P2")}
    assert after_move(state, HWMove(HWMoveKind.BUILDING_LEVEL, "O3"), DOWN) == state
    with pytest.raises(HumanWaveError, match="adjacent"):
        after_move(state, HWMove(F, "O5"), DOWN)


@pytest.mark.rule("A25.2322")
def test_no_return_to_a_left_location_or_next_to_it() -> None:
    """Having left O1, a unit in P1 may not enter O2 (adjacent to O1)."""
    ground = open_ground("O2", "P2", "Q2")
    fresh = legal_moves(HWUnitState("P1"), DOWN, ground)
    assert fresh == moves((F, "O2"), (F, "P2"), (F, "Q2"))
    after = legal_moves(HWUnitState("P1", left=frozenset({Hex.parse("O1")})), DOWN, ground)
    assert after == moves((F, "P2"), (F, "Q2"))


@pytest.mark.rule("A25.2322")
def test_a_unit_with_nowhere_to_go_stays() -> None:
    """With every forward hex next to a left one, no move is legal: it stays put."""
    left = frozenset(Hex.parse(h) for h in ("N2", "P2"))
    assert legal_moves(HWUnitState("O2", left=left), DOWN, open_ground("N2", "O3", "P2")) == ()


# ---- enemy units (A25.233) ------------------------------------------------------------------


@pytest.mark.rule("A25.233")
def test_must_enter_an_armed_known_enemy() -> None:
    """An armed, Known, non-Disrupted enemy in forward O2 leaves O2 or other Known enemies."""
    ground = ("N1", "O2", "P1")
    facts = open_ground(
        *ground,
        enemy={"O2", "P1"},
        known_enemy={"O2", "P1"},
        armed_known_enemy={"O2"},
        in_hex={HWMoveKind.BUILDING_LEVEL, HWMoveKind.BELOW_ENEMY_ENTRENCHMENT},
    )
    assert legal_moves(HWUnitState("O1"), DOWN, facts) == moves(
        (F, "O2"), (F, "P1"), (HWMoveKind.BELOW_ENEMY_ENTRENCHMENT, "O1")
    )


@pytest.mark.rule("A25.233")
@pytest.mark.parametrize(
    "facts",
    [
        {
            "enemy": {"O2"},
            "known_enemy": {"O2"},
            "armed_known_enemy": {"O2"},
            "friendly_armed": {"O2"},
        },
        {"enemy": {"O2"}, "known_enemy": {"O2"}},
        {"enemy": {"O2"}},
    ],
    ids=["friends-there", "disrupted-or-unarmed", "not-known"],
)
def test_no_compulsion_otherwise(facts: dict[str, set[str]]) -> None:
    """Friendly armed units there, an enemy not armed or Disrupted, or unknown: free choice."""
    found = legal_moves(HWUnitState("O1"), DOWN, open_ground("N1", "O2", "P1", **facts))
    assert found == moves((F, "N1"), (F, "O2"), (F, "P1"))


@pytest.mark.rule("A25.233")
def test_entering_enemy_locations() -> None:
    """Entering an enemy's hex brings a CC counter; a lone SMC there, automatic OVR too."""
    facts = ImpulseFacts(enemy={"O2", "P1"}, lone_enemy_smc={"P1"})
    assert entry_effects(HWMove(F, "O2"), facts) == {EntryEffect.CC_COUNTER}
    assert entry_effects(HWMove(F, "P1"), facts) == {
        EntryEffect.CC_COUNTER,
        EntryEffect.AUTOMATIC_OVR,
    }
    assert entry_effects(HWMove(F, "N1"), facts) == set()
    below = HWMove(HWMoveKind.BELOW_ENEMY_ENTRENCHMENT, "O1")
    assert entry_effects(below, facts) == {EntryEffect.CC_COUNTER}


# ---- the end (A25.234) ----------------------------------------------------------------------


@pytest.mark.rule("A25.234")
@pytest.mark.parametrize(
    ("condition", "at", "end"),
    [
        (UnitCondition(), ImpulseEdge.START, None),
        (UnitCondition(eliminated=True), ImpulseEdge.START, HWEnd.ELIMINATED),
        (UnitCondition(broken=True), ImpulseEdge.END, HWEnd.BROKEN),
        (UnitCondition(guard=True), ImpulseEdge.END, HWEnd.GUARD),
        (UnitCondition(mf_left=0), ImpulseEdge.END, HWEnd.OUT_OF_MF),
        (UnitCondition(mf_left=1), ImpulseEdge.END, None),
        (UnitCondition(mf_left=0), ImpulseEdge.START, None),
        (UnitCondition(armed_known_enemy_here=True), ImpulseEdge.START, HWEnd.ENEMY_IN_LOCATION),
        (UnitCondition(armed_known_enemy_here=True), ImpulseEdge.END, None),
        (
            UnitCondition(armed_known_enemy_here=True, going_below_enemy_entrenchment=True),
            ImpulseEdge.START,
            None,
        ),
    ],
)
def test_when_a_unit_stops_being_a_hw_unit(
    condition: UnitCondition, at: ImpulseEdge, end: HWEnd | None
) -> None:
    """Eliminated, broken, a Guard, out of MF after an Impulse, or with an enemy at its start."""
    assert stops_being_hw_unit(condition, at) is end


@pytest.mark.rule("A25.234")
def test_when_the_wave_ends() -> None:
    """The wave ends with no HW Unit left, or none able to enter a new Location."""
    assert human_wave_ends({})
    assert human_wave_ends({"a": (), "b": moves((HWMoveKind.BENEATH_PANJI_WIRE, "O1"))})
    assert not human_wave_ends({"a": (), "b": moves((F, "O2"))})
    assert not human_wave_ends({"a": moves((HWMoveKind.BUILDING_LEVEL, "O1"))})


# ---- a wave in motion: the movement rules hold over whole MPh --------------------------------


class ImpulseMachine(RuleBasedStateMachine):
    """One HW Unit moves Impulse after Impulse on random open ground toward O9."""

    def __init__(self) -> None:
        super().__init__()
        self.grain = HexGrain("O9", Hexside.S)
        self.state = HWUnitState("O1")
        self.path = [Hex.parse("O1")]
        self.mf = 8.0
        self.last: tuple[HWMove, ...] = ()

    @precondition(lambda self: self.mf > 0)
    @rule(data=st.data())
    def impulse(self, data: st.DataObject) -> None:
        here = self.state.hex
        around = here.neighbours()
        costs = data.draw(st.lists(st.sampled_from([1.0, 2.0, 3.0]), min_size=6, max_size=6))
        cost = {h: c for h, c in zip(around, costs, strict=False) if c < 3.0}
        self.last = legal_moves(self.state, self.grain, ImpulseFacts(mf_left=self.mf, cost=cost))
        if not self.last:
            self.mf = 0
            return
        move = data.draw(st.sampled_from(self.last))
        before = self.grain.range_from(here)
        marked = self.state.range_marked
        self.state = after_move(self.state, move, self.grain)
        self.mf -= cost[move.hex]
        self.path.append(move.hex)
        assert move.hex in forward_hexes(here, self.grain)
        if marked:
            assert self.grain.range_from(move.hex) <= before

    @precondition(lambda self: self.mf <= 0)
    @rule()
    def next_mph(self) -> None:
        """A new MPh: nothing left yet, and the Range counter is gone (A25.2321)."""
        self.state = HWUnitState(self.state.hex)
        self.path = [self.state.hex]
        self.mf = 8.0

    @invariant()
    def never_back_nor_beside_the_way_back(self) -> None:
        """No hex is entered twice, nor next to a hex left at least two Impulses earlier."""
        assert len(set(self.path)) == len(self.path)
        for i, entered in enumerate(self.path):
            assert all(distance(entered, old) > 1 for old in self.path[: max(0, i - 1)])


TestImpulses = ImpulseMachine.TestCase
TestImpulses.settings = settings(max_examples=60, stateful_step_count=12, deadline=None)


@pytest.mark.rule("A25.2322")
@pytest.mark.parametrize("first", ["N1", "O2", "P1"])
def test_the_hex_left_is_never_reentered(first: str) -> None:
    """After any first step from O1, neither O1 nor a hex next to it is offered again."""
    state = after_move(HWUnitState("O1"), HWMove(F, first), DOWN)
    ground = open_ground(*(str(h) for h in state.hex.neighbours()))
    offered = legal_moves(state, DOWN, ground)
    assert offered
    for move in offered:
        assert distance(move.hex, Hex.parse("O1")) > 1


def test_docs_name_only_exported_functions() -> None:
    """Every function docs/humanwave.md calls is exported by minors.humanwave or hexgrid."""
    text = (DOCS / "humanwave.md").read_text(encoding="utf-8")
    called = set(re.findall(r"`([A-Za-z_][\w.]*)\(", text))
    assert {"check_declaration", "hw_directions", "legal_moves", "HexGrain"} <= called
    exported = {*humanwave.__all__, *hexgrid.__all__}
    for name in called:
        head, *rest = name.split(".")
        assert head in exported, name
        owner = getattr(humanwave, head, None) or getattr(hexgrid, head)
        for part in rest:
            owner = getattr(owner, part)
