"""Units: `place`, `move` and `remove`, and who may enter a minor country (82.32D, 82.41, 82.83)."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterator
from typing import Any, ClassVar

from attrs import field, frozen

from .._kernel.kind import Command, CountryName, HexLabel, UnitIds, factor_count
from .._kernel.rulebook import Play, Refusal, candidates, check, handles, refuse, rule
from .._kernel.state import Minor
from ..domain import CommandKind, DiplomaticLevel, Side, Status
from ..domain.clock import Phase
from ..domain.events import UnitMoved, UnitPlaced, UnitRemoved
from ..domain.units import Unit, UnitKind, moved
from ..ruleset.tables import Ruleset
from .conquest import attackers, vichy_colony
from .powers import allies, at_war, side_members, side_of
from .sequence import advice
from .ties import TIED, tie_rule

__all__ = [
    "Move",
    "Place",
    "Remove",
    "UnitSpec",
    "entrants",
    "entry_refusal",
    "entry_violation",
    "potential_side",
]


@frozen
class UnitSpec:
    """A new unit as a `place` command gives it."""

    id: str
    owner: CountryName
    kind: UnitKind
    factors: int = field(validator=factor_count)


@frozen
class Place(Command):
    """Put new units on the map in a minor country or a major power's home country."""

    name: ClassVar[str] = CommandKind.PLACE
    units: tuple[UnitSpec, ...]
    in_: CountryName
    hex: HexLabel | None = None


@frozen
class Move(Command):
    """Move units to a country (and hex)."""

    name: ClassVar[str] = CommandKind.MOVE
    units: UnitIds
    to: CountryName
    hex: HexLabel | None = None


@frozen
class Remove(Command):
    """Take units off the map."""

    name: ClassVar[str] = CommandKind.REMOVE
    units: UnitIds


MOVING = frozenset({Phase.MOVEMENT, Phase.COMBAT, Phase.REDEPLOYMENT})
INDEPENDENT_PHASES = frozenset({Phase.MOVEMENT, Phase.COMBAT, Phase.CONSTRUCTION})


def _major_of(p: Play, owner: str) -> str | None:
    """The major a unit fights for: itself, a minor's major, or its potential ally."""
    if owner in p.rs.majors:
        return owner
    state = p.board.minors.get(owner)
    if state is None:
        return None
    if state.major is not None:
        return state.major
    return state.pending.partner if state.pending is not None else None


def potential_side(p: Play, unit: Unit) -> Side | None:
    """The side a unit fights for, or will once its minor associates (82.82, 82.83)."""
    major = _major_of(p, unit.owner)
    return side_of(p, major) if major is not None else None


# ---- who may enter a country ------------------------------------------------------------------


def _memo(p: Play) -> dict[Any, Any]:
    """Where entry answers are kept: they read the minors and the wars (and the tables), so
    they last while those do, while the rules they ask are rule 82's own."""
    if p.rules.pristine or p.rules.as_written(vichy_colony, _controller_and_allies):
        return p.board.politics()
    return p.board.memo()


def entrants(p: Play, minor: str) -> frozenset[str]:
    """The major powers whose units (and those of the minors fighting for them) may be in
    `minor` now: the side of the major it is tied to, conquered by, or (independent and
    attacked) would associate with (82.82, 82.83); the controlling power's faction (82.32D);
    and every power that may attack it without (more) declaring war (82.41, 82.42)."""
    memo = _memo(p)
    found: frozenset[str] | None = memo.get(("entrants", minor))
    if found is None:
        state = p.board.minors[minor]
        friendly = state.major if state.status in _FRIENDLY_HOLD else None
        if state.status is Status.INDEPENDENT and state.pending is not None:
            friendly = state.pending.partner  # its potential ally's forces (82.82, 82.83)
        allowed = set(attackers(p, minor))
        if friendly is not None:
            allowed.update(side_members(p, side_of(p, friendly)))
        allowed.update(_controller_and_allies(p, state))
        found = memo[("entrants", minor)] = frozenset(allowed)
    return found


@rule("82.32D", otherwise=())
def _controller_and_allies(p: Play, state: Minor) -> Collection[str]:
    """82.32D: the power controlling a minor's hexes and its allies may enter it."""
    holding = state.standing
    if (
        state.status is Status.HEXES_CONTROLLED
        and holding is not None
        and holding.level >= DiplomaticLevel.CONTROL
    ):
        return allies(p, holding.major)
    return ()


_FRIENDLY_HOLD = frozenset({*TIED, Status.CONQUERED})
"""Statuses whose major's side may be in the minor (its own forces and their friends)."""


def entry_refusal(p: Play, owner: str, country: str) -> str | None:
    """The clause that keeps units of `owner` out of `country`, or None if they may be
    there: K3 (a major power's home country, entered only by its side or its enemies),
    82.83C (a minor's units with no major stay home), the clause tying a minor to the major
    a power must be at war with first (82.12, 82.13, 82.42, 82.93), or 82.41 (a minor
    attacked only after a declaration of war)."""
    if owner == country:
        return None
    return _entry(p, _major_of(p, owner), country)


def _entry(p: Play, major: str | None, country: str) -> str | None:
    """`entry_refusal` for units fighting for `major` (None: a minor's with no major) in a
    country not their own, worked out once per state of the minors and wars."""
    memo = p.board.politics() if p.rules.pristine else _memo(p)
    key = ("entry", major, country)
    try:
        found: str | None = memo[key]
        return found
    except KeyError:
        pass
    if country in p.rs.majors:
        found = (
            None
            if major is not None
            and (side_of(p, major) is side_of(p, country) or at_war(p, major, country))
            else "K3"
        )
    elif major is None:
        found = "82.83C"
    elif major in entrants(p, country):
        found = None
    else:
        state = p.board.minors[country]
        tied = tie_rule(p.rs, state)
        found = tied if tied is not None and state.major is not None else "82.41"
    memo[key] = found
    return found


def entry_violation(p: Play, owner: str, country: str) -> Refusal | None:
    """Whether units of `owner` may be in `country`: None, or the refusal of the clause that
    keeps them out (`entry_refusal`)."""
    clause = entry_refusal(p, owner, country)
    return None if clause is None else _entry_refused(p, owner, country, clause)


def _entry_refused(p: Play, owner: str, country: str, clause: str) -> Refusal:
    major = _major_of(p, owner)
    state = p.board.minors.get(country)

    def message() -> str:
        if clause == "K3":
            return f"{owner}'s units cannot enter {country}: not its side and not at war with it"
        if clause == "82.83C":
            return f"{owner}'s units fight only in their own country"
        assert state is not None
        at = country if clause == "82.41" else state.major or country
        return (
            f"{owner}'s units cannot enter {country} ({state.status.value}"
            f"{'' if at == country else ' with ' + at}): {major} is not at war with {at} "
            f"({advice(p, major or owner, at)})"
        )

    if clause in ("K3", "82.83C", "82.41"):
        return refuse(message, owner=owner, country=country)
    assert state is not None
    return refuse(message, owner=owner, country=country, major=state.major)


def _entries(p: Play, cmd: Move | Place, clause: str) -> list[Refusal]:
    """The refusals under `clause` of the units of `cmd` entering its country (worked out
    once per command and state: the seven entry checks of a command ask in turn)."""
    memo = p.board.memo()
    found = memo.get(id(cmd))
    if found is None or found[0] is not cmd:
        if isinstance(cmd, Move):
            owners, country = _moved_by(p, cmd), cmd.to
        else:
            owners, country = tuple(sorted({s.owner for s in cmd.units})), cmd.in_
        kept_out: dict[str, list[str]] = {}
        for owner in owners:
            refusal = entry_refusal(p, owner, country)
            if refusal is not None:
                kept_out.setdefault(refusal, []).append(owner)
        found = memo[id(cmd)] = (cmd, kept_out, country)
    refused = found[1].get(clause)
    if refused is None:
        return []
    return [_entry_refused(p, owner, found[2], clause) for owner in refused]


# ---- place ----------------------------------------------------------------------------------


def _hex(p: Play, country: str, hex_label: str | None) -> list[Refusal]:
    """K3: a hex named is one of the country's where the tables list its hexes, and never
    another country's (the tables list no major power's hexes: docs/rules.md)."""
    record = p.rs.minors.get(country)
    hexes = record.hexes if record is not None else ()
    if hex_label is None or hex_label in hexes:
        return []
    if not hexes and p.rs.derived(_hex_countries).get(hex_label, country) == country:
        return []
    return [refuse(f"hex {hex_label!r} is not in {country}", hex=hex_label, country=country)]


def _hex_countries(rs: Ruleset) -> dict[str, str]:
    return {h: name for name, record in rs.minors.items() for h in record.hexes}


@check(Place, "K3")
def _place_ids(p: Play, cmd: Place) -> list[Refusal]:
    """K3: a placed unit takes an id never given before, and a hex of the country."""
    found = []
    seen: set[str] = set()
    for spec in cmd.units:
        if p.board.used(spec.id) or spec.id in seen:
            found.append(refuse(f"unit id {spec.id!r} is already used", unit=spec.id))
        seen.add(spec.id)
    return found + _hex(p, cmd.in_, cmd.hex)


@check(Place, "K7")
def _owner_in_play(p: Play, cmd: Place) -> list[Refusal]:
    """A conquered minor has no units (its units were removed); an inactive one none yet."""
    found = []
    for owner in sorted({s.owner for s in cmd.units}):
        state = p.board.minors.get(owner)
        if state is not None and (state.status is Status.CONQUERED or not state.active):
            what = "is conquered" if state.active else "is not in play"
            found.append(refuse(f"{owner} {what}: it has no units to place", owner=owner))
    return found


@check(Place, "82.13B")
def _commonwealth_built_at_home(p: Play, cmd: Place) -> list[Refusal]:
    """82.13B: Commonwealth units are constructed in their home countries."""
    found = []
    for spec in cmd.units:
        record = p.rs.minors.get(spec.owner)
        if (
            record is not None
            and record.start_status is Status.COMMONWEALTH
            and cmd.in_ != spec.owner
        ):
            message = (
                f"{spec.id} is {spec.owner}'s: Commonwealth units are built in their home "
                f"country, not {cmd.in_}"
            )
            found.append(refuse(message, unit=spec.id))
    return found


@handles(Place)
def _place(p: Play, cmd: Place) -> None:
    for spec in cmd.units:
        p.board.put_unit(Unit(spec.id, spec.owner, spec.kind, spec.factors, cmd.in_, cmd.hex))
        p.emit(UnitPlaced, spec.id, cmd.in_, "K3")


# ---- move and remove ------------------------------------------------------------------------
#
# The Move checks are all `batched`: in every batch `_moves` lists (one owner's units on the
# map, to the countries those checks let them into), each gives one verdict for all moves.


def _unknown(p: Play, ids: tuple[str, ...]) -> list[Refusal]:
    units = p.board.units
    return [refuse(f"no unit {u!r} is on the map", unit=u) for u in ids if u not in units]


def _moved_by(p: Play, cmd: Move) -> tuple[str, ...]:
    """The owners of the units a move names, sorted."""
    units = p.board.units
    if len(cmd.units) == 1:
        unit = units.get(cmd.units[0])
        return (unit.owner,) if unit is not None else ()
    return tuple(sorted({units[u].owner for u in cmd.units if u in units}))


@check(Move, "K3", batched=True)
def _move_ids(p: Play, cmd: Move) -> list[Refusal]:
    """K3: the units moved are on the map, and a hex named is the destination's."""
    return _unknown(p, cmd.units) + _hex(p, cmd.to, cmd.hex)


@check(Move, "K1", batched=True)
def _move_in_phase(p: Play, cmd: Move) -> list[Refusal]:
    """K1: a unit moves only in its side's movement, combat or redeployment phase."""
    clock = p.board.clock
    side, moving = clock.side, clock.phase in MOVING
    units = p.board.units
    found = []
    for unit in map(units.get, cmd.units):
        if unit is None:
            continue
        major = _major_of(p, unit.owner)
        if major is not None and (not moving or side_of(p, major) is not side):
            message = (
                f"{unit.id} moves in its side's movement, combat or redeployment phase, not {clock}"
            )
            found.append(refuse(message, unit=unit.id))
    return found


@check(Move, "82.83A", batched=True)
def _independent_phases(p: Play, cmd: Move) -> list[Refusal]:
    """82.83A: an independent minor moves only in the movement and combat phases of its
    potential ally's player turn (Vichy France may also redeploy)."""
    phase = p.board.clock.phase
    if phase in INDEPENDENT_PHASES:
        return []
    units = p.board.units
    found = []
    for unit in map(units.get, cmd.units):
        if unit is None:
            continue
        state = p.board.minors.get(unit.owner)
        if (
            state is not None
            and state.status is Status.INDEPENDENT
            and not (phase is Phase.REDEPLOYMENT and p.rs.minors[unit.owner].redeploys)
        ):
            message = (
                f"{unit.owner} is independent: its units act only in the movement, combat and "
                "construction phases"
            )
            found.append(refuse(message, unit=unit.id))
    return found


@check(Move, "82.13A", batched=True)
def _commonwealth_zones(p: Play, cmd: Move) -> list[Refusal]:
    """82.13A: South African, Australian and Indian units keep to their zones (a table)."""
    units, zones = p.board.units, p.rs.commonwealth_zones
    found = []
    for unit in map(units.get, cmd.units):
        if unit is None:
            continue
        zone = zones.get(unit.owner)
        if zone is None or cmd.to in zone.countries or cmd.to == unit.owner:
            continue
        record = p.rs.minors.get(cmd.to)
        if record is None or record.theater not in zone.theaters:
            message = f"{unit.id} is {unit.owner}'s: it may not deploy to {cmd.to}"
            found.append(refuse(message, unit=unit.id, to=cmd.to))
    return found


@check((Move, Place), "K3", batched=True)
def _enter_a_major_power(p: Play, cmd: Move | Place) -> list[Refusal]:
    """K3: units go into a major power's home country only for its side or its enemies."""
    return _entries(p, cmd, "K3")


@check((Move, Place), "82.83C", batched=True)
def _minor_units_stay_home(p: Play, cmd: Move | Place) -> list[Refusal]:
    """82.83C: a minor's units with no major (potential or actual) stay in their country."""
    return _entries(p, cmd, "82.83C")


@check((Move, Place), "82.41", batched=True)
def _enter_after_declaring_war(p: Play, cmd: Move | Place) -> list[Refusal]:
    """82.41: units go into a minor only where their major may attack it or be there."""
    return _entries(p, cmd, "82.41")


@check((Move, Place), "82.12", batched=True)
def _enter_a_colony(p: Play, cmd: Move | Place) -> list[Refusal]:
    """82.12 (and 82.13, 82.42, 82.93 below): units go into a tied minor only once their
    major is at war with the major it is tied to."""
    return _entries(p, cmd, "82.12")


@check((Move, Place), "82.13", batched=True)
def _enter_the_commonwealth(p: Play, cmd: Move | Place) -> list[Refusal]:
    return _entries(p, cmd, "82.13")


@check((Move, Place), "82.42", batched=True)
def _enter_an_associate_or_ally(p: Play, cmd: Move | Place) -> list[Refusal]:
    return _entries(p, cmd, "82.42")


@check((Move, Place), "82.93", batched=True)
def _enter_a_tied_pacific_minor(p: Play, cmd: Move | Place) -> list[Refusal]:
    return _entries(p, cmd, "82.93")


@handles(Move)
def _move(p: Play, cmd: Move) -> None:
    for unit_id in cmd.units:
        p.board.put_unit(moved(p.board.units[unit_id], cmd.to, cmd.hex))
        p.emit(UnitMoved, unit_id, cmd.to, "K3")


_ENTRY_CHECKS: dict[str, Any] = {
    "K3": _enter_a_major_power,
    "82.83C": _minor_units_stay_home,
    "82.41": _enter_after_declaring_war,
    "82.12": _enter_a_colony,
    "82.13": _enter_the_commonwealth,
    "82.42": _enter_an_associate_or_ally,
    "82.93": _enter_a_tied_pacific_minor,
}
"""The entry check of each clause `entry_refusal` names."""


@check(Remove, "K3", batched=True)
def _remove_ids(p: Play, cmd: Remove) -> list[Refusal]:
    """K3: the units removed are on the map (batched: `_removals` lists only those)."""
    return _unknown(p, cmd.units)


@handles(Remove)
def _remove(p: Play, cmd: Remove) -> None:
    for unit_id in cmd.units:
        p.board.drop_unit(unit_id, "removed")
        p.emit(UnitRemoved, unit_id, "K3")


@functools.lru_cache(maxsize=1 << 16)
def _move_of(unit_id: str, country: str) -> Move:
    """One move command per (unit, destination), reused: commands are immutable."""
    return Move((unit_id,), country)


@candidates(Move)
def _moves(p: Play) -> Iterator[tuple[Move, ...]]:
    """Each unit on the map to each other country, without a hex: a batch per owner. An
    owner whose units K1 or 82.83A refuse is left out whole; a country is left out of an
    owner's batch when the check of the clause that keeps its units out (`entry_refusal`)
    or 82.13A refuses them (asked once per major, or zoned owner, and state of the minors
    and wars), so that every check of a batch gives one verdict for all of its moves."""
    units = p.board.units
    memo = _memo(p)
    countries = (*p.rs.minors, *p.rs.majors)
    for owner in sorted(p.board.owners()):
        ids = tuple(sorted(p.board.owned[owner]))
        probe = _move_of(ids[0], owner)
        if p.rules.refuses(_move_in_phase, p, probe):
            continue
        if p.rules.refuses(_independent_phases, p, probe):
            continue
        major = _major_of(p, owner)
        zone = owner if owner in p.rs.commonwealth_zones else None
        targets: frozenset[str] | None = memo.get(("moves to", major, zone))
        if targets is None:
            targets = memo[("moves to", major, zone)] = frozenset(_targets(p, major, zone, ids[0]))
        standing = tuple([units[u].country for u in ids])  # the batch lasts while they stand
        batch: tuple[Move, ...] | None = memo.get(("moves", owner, ids, standing))
        if batch is None:
            batch = memo[("moves", owner, ids, standing)] = tuple(
                [
                    _move_of(u, to)
                    for to in countries
                    if to in targets or to == owner  # units may always go home
                    for u in ids
                    if units[u].country != to
                ]
            )
        if batch:
            yield batch


def _targets(p: Play, major: str | None, zone: str | None, unit_id: str) -> Iterator[str]:
    """The countries not their own that no entry check in force, nor 82.13A for a zoned
    owner's units, keeps units fighting for `major` out of. While the entry checks run as
    written, the one of a clause refuses exactly when `entry_refusal` names that clause:
    asking whether the clause is on is asking the check."""
    rules = p.rules
    exact = rules.as_written(*_ENTRY_CHECKS.values())
    for country in (*p.rs.minors, *p.rs.majors):
        clause = _entry(p, major, country)
        if clause is not None and (
            rules.on(clause)
            if exact
            else rules.refuses(_ENTRY_CHECKS[clause], p, _move_of(unit_id, country))
        ):
            continue
        if zone is not None and rules.refuses(_commonwealth_zones, p, _move_of(unit_id, country)):
            continue
        yield country


@candidates(Remove)
def _removals(p: Play) -> Iterator[tuple[Remove, ...]]:
    """Each unit on the map, as one batch (every unit there may be taken off)."""
    yield tuple(Remove((u,)) for u in sorted(p.board.units))
