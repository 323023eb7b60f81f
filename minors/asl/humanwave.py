"""Human Wave (A25.23-A25.234): the declaration, the direction, where a HW Unit may go in
each Impulse, and when it stops being one. Pure functions over `minors.asl.hexgrid`; what
depends on terrain, LOS or counters is the caller's fact (docs/humanwave.md). The superseded
first edition of 25.231 (`A25.231-1E`) is not implemented.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType

from attrs import field, frozen

from ..domain.arguments import checked, typed
from ..domain.marks import clause
from ..errors import HumanWaveError, Violation
from .hexgrid import Hex, HexGrain, distance, grains_through
from .personnel import PersonnelKind

__all__ = [
    "HW_MF",
    "TARGET_RANGE",
    "EntryEffect",
    "HWCandidate",
    "HWEnd",
    "HWMove",
    "HWMoveKind",
    "HWUnitState",
    "HumanWaveError",
    "ImpulseEdge",
    "ImpulseFacts",
    "UnitCondition",
    "WaveKind",
    "after_move",
    "check_declaration",
    "check_direction",
    "entry_effects",
    "forward_hexes",
    "human_wave_ends",
    "hw_directions",
    "legal_moves",
    "side_hexes",
    "stops_being_hw_unit",
]

TARGET_RANGE = 8
"""A25.23, A25.231: the target is at most eight hexes from a chain unit that sees it."""
HW_MF = 8
"""A25.232: every HW Unit has 8 MF, never more."""
MIN_CHAIN_HEXES = 3
"""A25.23: the chain spans three or more hexes."""
MMC_PER_HEX = 2
"""A25.23: on average at least two participating MMC per hex of the chain."""


class WaveKind(StrEnum):
    """What kind of wave is declared: Human Wave, or one of the rules built on it (A25.23)."""

    HUMAN_WAVE = "human_wave"
    """A25.23: Russians and Chinese (G18.5)."""
    CAVALRY_WAVE = "cavalry_wave"
    """13.62: may include PRC, which a Human Wave may not."""
    BANZAI = "banzai"
    """G1.5: may start ADJACENT to, or in the same hex as, an enemy unit."""


def _hex(value: str | Hex) -> Hex:
    return Hex.parse(value)


# ---- the declaration (A25.23) -------------------------------------------------------------


@frozen(field_transformer=typed(HumanWaveError))
class HWCandidate:
    """A unit the ATTACKER selects for a Human Wave, with the facts A25.23 looks at (the
    caller's: `near_enemy` is ADJACENT to, or in the same hex as, an enemy unit)."""

    id: str
    kind: PersonnelKind
    hex: Hex = field(converter=_hex)
    good_order: bool = True
    free_to_move: bool = True
    started_mph: bool = False
    guard: bool = False
    prc: bool = False
    near_enemy: bool = False
    los_to_target: bool = False


def _unique(units: Iterable[HWCandidate]) -> tuple[HWCandidate, ...]:
    out = tuple(units)
    ids = [u.id for u in out]
    twice = next((i for n, i in enumerate(ids) if i in ids[:n]), None)
    if twice is not None:
        raise HumanWaveError(f"unit id {twice!r} is given twice; each unit once")
    return out


def _connected(hexes: frozenset[Hex]) -> bool:
    reached: set[Hex] = set()
    frontier = [min(hexes)] if hexes else []
    while frontier:
        here = frontier.pop()
        if here not in reached:
            reached.add(here)
            frontier += [h for h in here.neighbours() if h in hexes]
    return reached == hexes


def _establishes(unit: HWCandidate, target: Hex) -> bool:
    """A unit that sees the target within eight hexes, and is not in its hex (A25.231 EXC)."""
    return unit.los_to_target and unit.hex != target and distance(unit.hex, target) <= TARGET_RANGE


@checked(HumanWaveError)
@clause("A25.23", otherwise=())
def check_declaration(
    units: Iterable[HWCandidate], target: str | Hex, *, wave: WaveKind = WaveKind.HUMAN_WAVE
) -> tuple[Violation, ...]:
    """A25.23: every reason the selected units cannot declare a Human Wave at `target` (the
    chain read as docs/humanwave.md, "Readings taken", says)."""
    chosen = _unique(units)
    goal = Hex.parse(target)
    out: list[Violation] = []

    def violation(message: str, **data: object) -> None:
        out.append(Violation("A25.23", message, data))

    mmc = [u for u in chosen if u.kind.is_mmc]
    chain = frozenset(u.hex for u in mmc)
    names = sorted(map(str, chain))
    if len(chain) < MIN_CHAIN_HEXES:
        violation(
            f"the chain has MMC in {len(chain)} hex(es) {names}; a Human Wave needs MMC "
            f"in each of {MIN_CHAIN_HEXES} or more adjacent hexes",
            hexes=names,
        )
    if not _connected(chain):
        violation(
            f"the chain hexes {names} are not contiguous; every hex must be adjacent to "
            "another of the chain, with no gap",
            hexes=names,
        )
    if chain and len(mmc) < MMC_PER_HEX * len(chain):
        violation(
            f"{len(mmc)} MMC in {len(chain)} hexes is an average below {MMC_PER_HEX} per "
            f"hex; add MMC or drop a hex",
            mmc=len(mmc),
            hexes=len(chain),
        )
    if not any(u.kind is PersonnelKind.LEADER for u in chosen):
        violation("no leader is selected; at least one must join")
    for unit in chosen:
        if unit.kind.is_smc and unit.hex not in chain:
            violation(
                f"{unit.id} in {unit.hex} is not in a hex of the chain; an SMC must come "
                "from one of its hexes",
                unit=unit.id,
            )
        out.extend(_unit_violations(unit, wave))
    if not any(_establishes(u, goal) for u in chosen):
        violation(
            f"no selected unit has a LOS to the target in {goal} within {TARGET_RANGE} hexes",
            target=str(goal),
        )
    return tuple(out)


def _unit_violations(unit: HWCandidate, wave: WaveKind) -> Iterable[Violation]:
    problems = [
        (not unit.good_order, "is not in Good Order"),
        (not unit.free_to_move, "is not free to move"),
        (unit.started_mph, "has already started its MPh"),
        (unit.guard, "is a Guard"),
        (unit.prc and wave is not WaveKind.CAVALRY_WAVE, "is a PRC (only a Cavalry Wave may)"),
        (
            unit.near_enemy and wave is not WaveKind.BANZAI,
            "is ADJACENT to, or in the hex of, an enemy unit (only a Banzai may be)",
        ),
    ]
    for broken, why in problems:
        if broken:
            yield Violation("A25.23", f"{unit.id} {why}; leave it out", {"unit": unit.id})


# ---- the direction and forward and side hexes (A25.231, A25.2311) ---------------------------


@checked(HumanWaveError)
@clause("A25.231", otherwise=())
def hw_directions(target: str | Hex, units: Iterable[HWCandidate]) -> tuple[HexGrain, ...]:
    """A25.231: the (alternate) Hex Grains the ATTACKER may choose for the HW Direction:
    those as close as possible to a unit that establishes it, counting only a unit the grain
    runs from toward the target (docs/humanwave.md, "Who establishes the direction")."""
    goal = Hex.parse(target)
    eyes = [u.hex for u in _unique(units) if _establishes(u, goal)]
    ranges = {
        grain: min(fits)
        for grain in grains_through(goal)
        if (fits := [grain.range_from(h) for h in eyes if grain.approaches_target(h)])
    }
    best = min(ranges.values(), default=None)
    return tuple(g for g, r in ranges.items() if r == best)


@checked(HumanWaveError)
@clause("A25.231", otherwise=())
def check_direction(grain: HexGrain, units: Iterable[HWCandidate]) -> tuple[Violation, ...]:
    """A25.231: why `grain` cannot be the HW Direction (empty when it can)."""
    allowed = hw_directions(grain.target, units)
    if grain in allowed:
        return ()
    choices = ", ".join(str(g) for g in allowed) or "none: no unit sees the target in range"
    return (
        Violation(
            "A25.231",
            f"{grain} is not as close as possible to a HW Unit that sees {grain.target}; "
            f"choose one of: {choices}",
            {"grain": str(grain)},
        ),
    )


@checked(HumanWaveError)
@clause("A25.2311", otherwise=())
def forward_hexes(hex_: str | Hex, grain: HexGrain) -> tuple[Hex, ...]:
    """A25.2311: the forward hexes of a HW Unit in `hex_`: three on a normal grain, two on
    an alternate one (in hexside order, leaving out any off the board)."""
    here = Hex.parse(hex_)
    return tuple(h for s in grain.forward_hexsides if (h := here.neighbour(s)) is not None)


@checked(HumanWaveError)
@clause("A25.2311", otherwise=())
def side_hexes(hex_: str | Hex, grain: HexGrain) -> tuple[Hex, ...]:
    """A25.2311: the side hexes of a HW Unit in `hex_`: two on an alternate grain, else none."""
    here = Hex.parse(hex_)
    return tuple(h for s in grain.side_hexsides if (h := here.neighbour(s)) is not None)


# ---- movement in Impulses (A25.232-A25.233) -------------------------------------------------


class HWMoveKind(StrEnum):
    """The one thing a HW Unit does with an Impulse (A25.232)."""

    FORWARD = "forward"
    """Into a Forward Location."""
    SIDE_WITH_ENEMY = "side_with_enemy"
    """Into a Side Location that holds an enemy unit."""
    BUILDING_LEVEL = "building_level"
    """Up or down a building level, toward Ground Level and/or an enemy unit in the hex."""
    BENEATH_PANJI_WIRE = "beneath_panji_wire"
    """Beneath Panji or Wire (each HW Unit makes its own Exit dr)."""
    ABOVE_ENTRENCHMENT = "above_entrenchment"
    """Above an Entrenchment or pillbox counter."""
    BELOW_ENEMY_ENTRENCHMENT = "below_enemy_entrenchment"
    """Below an Entrenchment counter that holds an enemy unit."""
    BELOW_ENTRENCHMENT_OR_CREST = "below_entrenchment_or_crest"
    """Below an Entrenchment counter, or into Crest status: only when short of the MF to
    enter a new Location."""

    @property
    def in_hex(self) -> bool:
        """A move that stays in the hex (all but FORWARD and SIDE_WITH_ENEMY)."""
        return self not in (HWMoveKind.FORWARD, HWMoveKind.SIDE_WITH_ENEMY)

    @property
    def new_location(self) -> bool:
        """Whether the move enters a new Location: another hex, or another building level."""
        return self in (HWMoveKind.FORWARD, HWMoveKind.SIDE_WITH_ENEMY, HWMoveKind.BUILDING_LEVEL)


_KIND_ORDER = {kind: i for i, kind in enumerate(HWMoveKind)}


@frozen(field_transformer=typed(HumanWaveError))
class HWMove:
    """One Impulse's move: what the unit does and the hex it ends in."""

    kind: HWMoveKind
    hex: Hex = field(converter=_hex)


@frozen(field_transformer=typed(HumanWaveError))
class HWUnitState:
    """A HW Unit during its MPh: where it is, the hexes it left in prior Impulses (A25.2322),
    and whether it carries a Range counter (A25.2321)."""

    hex: Hex = field(converter=_hex)
    left: frozenset[Hex] = frozenset()
    range_marked: bool = False


def _hexes(values: Iterable[str | Hex]) -> frozenset[Hex]:
    return frozenset(Hex.parse(v) for v in values)


def _costs(values: Mapping[str, float] | Mapping[Hex, float]) -> Mapping[Hex, float]:
    return MappingProxyType({Hex.parse(k): float(v) for k, v in values.items()})


def _in_hex_kinds(values: Iterable[HWMoveKind]) -> frozenset[HWMoveKind]:
    kinds = frozenset(HWMoveKind(v) for v in values)
    wrong = sorted(k.value for k in kinds if not k.in_hex)
    if wrong:
        raise HumanWaveError(
            f"{wrong} are moves to another hex, not in-hex moves; give them as costs"
        )
    return kinds


@frozen(field_transformer=typed(HumanWaveError))
class ImpulseFacts:
    """What the caller knows about a HW Unit's surroundings for one Impulse (docs/humanwave.md):
    `cost` holds the adjacent hexes it may enter at all; `known_enemy` counts a pillbox
    occupied by a Known enemy unit; `friendly_armed` counts HW Units that entered earlier
    this Impulse (A25.233); `in_hex` the in-hex moves offered, conditions met."""

    mf_left: float = HW_MF
    cost: Mapping[Hex, float] = field(factory=dict, converter=_costs, hash=False)
    enemy: frozenset[Hex] = field(default=frozenset(), converter=_hexes)
    known_enemy: frozenset[Hex] = field(default=frozenset(), converter=_hexes)
    armed_known_enemy: frozenset[Hex] = field(default=frozenset(), converter=_hexes)
    friendly_armed: frozenset[Hex] = field(default=frozenset(), converter=_hexes)
    lone_enemy_smc: frozenset[Hex] = field(default=frozenset(), converter=_hexes)
    in_hex: frozenset[HWMoveKind] = field(default=frozenset(), converter=_in_hex_kinds)

    def __attrs_post_init__(self) -> None:
        for small, big, what in (
            (self.armed_known_enemy, self.known_enemy, "armed_known_enemy within known_enemy"),
            (self.known_enemy, self.enemy, "known_enemy within enemy"),
            (self.lone_enemy_smc, self.enemy, "lone_enemy_smc within enemy"),
        ):
            if not small <= big:
                extra = sorted(map(str, small - big))
                raise HumanWaveError(f"hexes {extra} break {what}; list them in both")
        if self.mf_left < 0:
            raise HumanWaveError(f"mf_left {self.mf_left!r} is negative")


def _blocked_by_left(hex_: Hex, left: frozenset[Hex]) -> bool:
    """A25.2322: a hex left in a prior Impulse of this MPh, or adjacent to one."""
    return any(distance(hex_, old) <= 1 for old in left)


@checked(HumanWaveError)
@clause("A25.232", "A25.2321", "A25.2322", otherwise=())
def legal_moves(state: HWUnitState, grain: HexGrain, facts: ImpulseFacts) -> tuple[HWMove, ...]:
    """A25.232-A25.233: what a HW Unit may do with this Impulse; empty when it must stay
    (A25.233's compulsion and the last resort as docs/humanwave.md reads them)."""
    here = state.hex
    here_range = grain.range_from(here)
    candidates = [HWMove(HWMoveKind.FORWARD, h) for h in forward_hexes(here, grain)]
    candidates += [
        HWMove(HWMoveKind.SIDE_WITH_ENEMY, h) for h in side_hexes(here, grain) if h in facts.enemy
    ]
    open_ = [
        m
        for m in candidates
        if m.hex in facts.cost
        and not _blocked_by_left(m.hex, state.left)
        and not (state.range_marked and grain.range_from(m.hex) > here_range)
    ]
    moves = [m for m in open_ if facts.cost[m.hex] <= facts.mf_left]
    short_of_mf = not moves and bool(open_)
    forced = {
        m.hex
        for m in moves
        if m.kind is HWMoveKind.FORWARD
        and m.hex in facts.armed_known_enemy
        and m.hex not in facts.friendly_armed
    }
    in_hex = [HWMove(k, here) for k in facts.in_hex]
    if forced:
        options = [m for m in moves if m.hex in forced or m.hex in facts.known_enemy]
        options += [m for m in in_hex if m.kind is HWMoveKind.BELOW_ENEMY_ENTRENCHMENT]
    else:
        options = moves + [
            m for m in in_hex if m.kind is not HWMoveKind.BELOW_ENTRENCHMENT_OR_CREST or short_of_mf
        ]
    return tuple(sorted(options, key=lambda m: (_KIND_ORDER[m.kind], m.hex)))


@checked(HumanWaveError)
@clause("A25.232")
def after_move(state: HWUnitState, move: HWMove, grain: HexGrain) -> HWUnitState:
    """The unit's state after `move` (to an adjacent hex): the hex left is remembered (A25.2322);
    moving farther from the grain puts on a Range counter, closer takes it off (A25.2321)."""
    if move.kind.in_hex:
        return state
    if distance(state.hex, move.hex) != 1:
        raise HumanWaveError(f"{state.hex} to {move.hex} is not a move to an adjacent hex")
    before, after = grain.range_from(state.hex), grain.range_from(move.hex)
    marked = True if after > before else False if after < before else state.range_marked
    return HWUnitState(move.hex, state.left | {state.hex}, marked)


class EntryEffect(StrEnum):
    """What entering a Location brings about during a Human Wave (A25.233)."""

    CC_COUNTER = "cc_counter"
    """The Location holds an enemy unit: all its units are marked with a CC counter."""
    AUTOMATIC_OVR = "automatic_ovr"
    """Its only enemy is one SMC: Infantry OVR without NTC, at normal MF; the SMC stays."""


@checked(HumanWaveError)
@clause("A25.233", otherwise=())
def entry_effects(move: HWMove, facts: ImpulseFacts) -> frozenset[EntryEffect]:
    """A25.233: the effects of a HW Unit's move into an enemy-occupied Location."""
    if move.kind is HWMoveKind.BELOW_ENEMY_ENTRENCHMENT:
        return frozenset({EntryEffect.CC_COUNTER})
    if move.kind.in_hex or move.hex not in facts.enemy:
        return frozenset()
    if move.hex in facts.lone_enemy_smc:
        return frozenset({EntryEffect.CC_COUNTER, EntryEffect.AUTOMATIC_OVR})
    return frozenset({EntryEffect.CC_COUNTER})


# ---- the end (A25.234) ----------------------------------------------------------------------


class ImpulseEdge(StrEnum):
    """When the A25.234 test is made: at the start or at the end of an Impulse."""

    START = "start"
    END = "end"


class HWEnd(StrEnum):
    """Why a unit stops being a HW Unit (A25.234)."""

    ELIMINATED = "eliminated"
    BROKEN = "broken"
    OUT_OF_MF = "out_of_mf"
    """No MF left at the end of an Impulse."""
    ENEMY_IN_LOCATION = "enemy_in_location"
    """An armed, Known enemy unit in its Location (or hex, with a pillbox) at the start of an
    Impulse, unless it uses the Impulse to go below an enemy-occupied Entrenchment."""
    GUARD = "guard"
    """It became a Guard by capturing an SMC, Unarmed or Disrupted unit."""


@frozen(field_transformer=typed(HumanWaveError))
class UnitCondition:
    """A HW Unit's condition at an Impulse's start or end, for A25.234."""

    eliminated: bool = False
    broken: bool = False
    guard: bool = False
    mf_left: float = HW_MF
    armed_known_enemy_here: bool = False
    going_below_enemy_entrenchment: bool = False


@checked(HumanWaveError)
@clause("A25.234")
def stops_being_hw_unit(condition: UnitCondition, at: ImpulseEdge) -> HWEnd | None:
    """A25.234: why the unit is no longer a HW Unit at `at`, or None if it still is one
    (being adjacent to other HW Units does not matter)."""
    if condition.eliminated:
        return HWEnd.ELIMINATED
    if condition.broken:
        return HWEnd.BROKEN
    if condition.guard:
        return HWEnd.GUARD
    if at is ImpulseEdge.END and condition.mf_left <= 0:
        return HWEnd.OUT_OF_MF
    if (
        at is ImpulseEdge.START
        and condition.armed_known_enemy_here
        and not condition.going_below_enemy_entrenchment
    ):
        return HWEnd.ENEMY_IN_LOCATION
    return None


@checked(HumanWaveError)
@clause("A25.234", otherwise=False)
def human_wave_ends(options: Mapping[str, Sequence[HWMove]]) -> bool:
    """A25.234: the Human Wave is over when no HW Unit is left (`options` maps each
    remaining HW Unit's id to its `legal_moves`) or none can enter a new Location."""
    return not any(m.kind.new_location for moves in options.values() for m in moves)
