"""Units: `place`, `move` and `remove`, and who may enter a minor country (82.32D, 82.41,
82.83)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

import attrs
from attrs import field, frozen

from .._kernel.effects import UnitMoved, UnitPlaced, UnitRemoved
from .._kernel.kind import Command, CountryName, HexLabel, UnitIds
from .._kernel.rulebook import Batch, Violation, candidates, check, handles
from .._kernel.state import evolve
from ..domain import CommandKind, DiplomaticLevel, Side, Status
from ..domain.clock import Phase
from ..domain.units import Unit, UnitKind
from .conquest import may_attack_without_declaration
from .sequence import minors_in_play
from .ties import TIED, tie_rule

if TYPE_CHECKING:
    from .._kernel.tx import Tx

__all__ = ["Move", "Place", "Remove", "UnitSpec", "entry_violation", "potential_side"]


@frozen
class UnitSpec:
    """A new unit as a `place` command gives it."""

    id: str
    owner: CountryName
    kind: UnitKind
    factors: int = field(validator=attrs.validators.ge(0))


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


def _major_of(tx: Tx, owner: str) -> str | None:
    """The major a unit fights for: itself, a minor's major, or its potential ally."""
    if owner in tx.rs.majors:
        return owner
    state = tx.minors.get(owner)
    if state is None:
        return None
    if state.major is not None:
        return state.major
    return state.pending.partner if state.pending is not None else None


def entry_violation(tx: Tx, owner: str, country: str) -> Violation | None:
    """Whether units of `owner` may be in `country`; the broken rule if not."""
    if owner == country:
        return None
    major = _major_of(tx, owner)
    if country in tx.rs.majors:
        if major is not None and (tx.side(major) is tx.side(country) or tx.at_war(major, country)):
            return None
        return Violation(
            "K3",
            f"{owner}'s units cannot enter {country}: not its side and not at war with it",
            {"owner": owner, "country": country},
        )
    state = tx.minor(country)
    if major is None:
        return Violation(
            "82.83C",
            f"{owner}'s units fight only in their own country",
            {"owner": owner, "country": country},
        )
    friendly = state.major if state.status in (*TIED, Status.CONQUERED) else None
    if state.status is Status.INDEPENDENT and state.pending is not None:
        friendly = state.pending.partner  # its potential ally's forces (82.82, 82.83)
    if friendly is not None and tx.side(friendly) is tx.side(major):
        return None
    holding = state.standing
    if (
        state.status is Status.HEXES_CONTROLLED
        and holding is not None
        and holding.level >= DiplomaticLevel.CONTROL
        and tx.faction(holding.major) is tx.faction(major)
    ):
        return None  # 82.32D: the controlling power and its allies
    if may_attack_without_declaration(tx, major, country) is not None:
        return None
    tied = tie_rule(tx.rs, state)
    if tied is not None and state.major is not None:
        return Violation(
            tied,
            f"{owner}'s units cannot enter {country} ({state.status.value} with "
            f"{state.major}): {major} must be at war with {state.major} first",
            {"owner": owner, "country": country, "major": state.major},
        )
    return Violation(
        "82.41",
        f"{owner}'s units cannot enter {country} ({state.status.value}): "
        f"{major} must declare war on it first",
        {"owner": owner, "country": country},
    )


@check(Place, "K3")
def _place_ids(tx: Tx, cmd: Place) -> Iterator[Violation]:
    seen: set[str] = set()
    for spec in cmd.units:
        if tx.used(spec.id) or spec.id in seen:
            yield Violation("K3", f"unit id {spec.id!r} is already used", {"unit": spec.id})
        seen.add(spec.id)
    yield from _hex(tx, cmd.in_, cmd.hex)


def _hex(tx: Tx, country: str, hex_label: str | None) -> Iterator[Violation]:
    if hex_label is not None and country in tx.rs.minors:
        hexes = tx.rs.minors[country].hexes
        if hexes and hex_label not in hexes:
            yield Violation(
                "K3",
                f"hex {hex_label!r} is not in {country}",
                {"hex": hex_label, "country": country},
            )


@check(Place, "K7")
def _owner_in_play(tx: Tx, cmd: Place) -> Iterator[Violation]:
    """A conquered minor has no units (its units were removed); an inactive one none yet."""
    for owner in sorted({s.owner for s in cmd.units}):
        state = tx.minors.get(owner)
        if state is not None and (state.status is Status.CONQUERED or not state.active):
            what = "is conquered" if state.active else "is not in play"
            yield Violation("K7", f"{owner} {what}: it has no units to place", {"owner": owner})


@check(Place, "82.13B")
def _commonwealth_built_at_home(tx: Tx, cmd: Place) -> Iterator[Violation]:
    """82.13B: Commonwealth units are constructed in their home countries."""
    for spec in cmd.units:
        record = tx.rs.minors.get(spec.owner)
        if (
            record is not None
            and record.start_status is Status.COMMONWEALTH
            and cmd.in_ != spec.owner
        ):
            yield Violation(
                "82.13B",
                f"{spec.id} is {spec.owner}'s: Commonwealth units are built "
                f"in their home country, not {cmd.in_}",
                {"unit": spec.id},
            )


@check(Place, "82.41")
def _place_entry(tx: Tx, cmd: Place) -> Iterator[Violation]:
    for owner in sorted({s.owner for s in cmd.units}):
        violation = entry_violation(tx, owner, cmd.in_)
        if violation is not None:
            yield violation


@handles(Place)
def _place(tx: Tx, cmd: Place) -> None:
    for spec in cmd.units:
        tx.put_unit(Unit(spec.id, spec.owner, spec.kind, spec.factors, cmd.in_, cmd.hex))
        tx.effects.append(UnitPlaced(spec.id, cmd.in_, "K3"))


def _unknown(tx: Tx, ids: tuple[str, ...]) -> Iterator[Violation]:
    for unit_id in ids:
        if unit_id not in tx.units:
            yield Violation("K3", f"no unit {unit_id!r} is on the map", {"unit": unit_id})


@check(Move, "K3", batched=True)
def _move_ids(tx: Tx, cmd: Move) -> Iterator[Violation]:
    yield from _unknown(tx, cmd.units)
    yield from _hex(tx, cmd.to, cmd.hex)


@check(Move, "K1", batched=True)
def _move_in_phase(tx: Tx, cmd: Move) -> Iterator[Violation]:
    for unit in (tx.units[u] for u in cmd.units if u in tx.units):
        side = tx.owner_side(unit) or potential_side(tx, unit)
        if side is not None and (tx.clock.side is not side or tx.clock.phase not in MOVING):
            yield Violation(
                "K1",
                f"{unit.id} moves in its side's movement, combat or "
                f"redeployment phase, not {tx.clock}",
                {"unit": unit.id},
            )


def potential_side(tx: Tx, unit: Unit) -> Side | None:
    major = _major_of(tx, unit.owner)
    return tx.side(major) if major is not None else None


@check(Move, "82.83A", batched=True)
def _independent_phases(tx: Tx, cmd: Move) -> Iterator[Violation]:
    """82.83A: an independent minor moves only in the movement and combat phases of its
    potential ally's player turn (Vichy France may also redeploy)."""
    for unit in (tx.units[u] for u in cmd.units if u in tx.units):
        state = tx.minors.get(unit.owner)
        if state is None or state.status is not Status.INDEPENDENT:
            continue
        allowed = INDEPENDENT_PHASES | (
            {Phase.REDEPLOYMENT} if tx.rs.minors[unit.owner].redeploys else set()
        )
        if tx.clock.phase not in allowed:
            yield Violation(
                "82.83A",
                f"{unit.owner} is independent: its units act only in the "
                "movement, combat and construction phases",
                {"unit": unit.id},
            )


@check(Move, "82.13A", batched=True)
def _commonwealth_zones(tx: Tx, cmd: Move) -> Iterator[Violation]:
    """82.13A: South African, Australian and Indian units keep to their zones (a table)."""
    for unit in (tx.units[u] for u in cmd.units if u in tx.units):
        zone = tx.rs.commonwealth_zones.get(unit.owner)
        if zone is None or cmd.to in zone.countries or cmd.to == unit.owner:
            continue
        record = tx.rs.minors.get(cmd.to)
        if record is not None and record.theater in zone.theaters:
            continue
        yield Violation(
            "82.13A",
            f"{unit.id} is {unit.owner}'s: it may not deploy to {cmd.to}",
            {"unit": unit.id, "to": cmd.to},
        )


@check(Move, "82.41", batched=True)
def _move_entry(tx: Tx, cmd: Move) -> Iterator[Violation]:
    for owner in sorted({tx.units[u].owner for u in cmd.units if u in tx.units}):
        violation = entry_violation(tx, owner, cmd.to)
        if violation is not None:
            yield violation


@handles(Move)
def _move(tx: Tx, cmd: Move) -> None:
    for unit_id in cmd.units:
        tx.put_unit(evolve(tx.units[unit_id], country=cmd.to, hex=cmd.hex))
        tx.effects.append(UnitMoved(unit_id, cmd.to, "K3"))


@handles(Remove)
def _remove(tx: Tx, cmd: Remove) -> None:
    for unit_id in cmd.units:
        tx.drop_unit(unit_id)
        tx.effects.append(UnitRemoved(unit_id, "K3"))
    tx.removed = (*tx.removed, *cmd.units)


@functools.lru_cache(maxsize=1 << 16)
def _move_of(unit_id: str, country: str) -> Move:
    """One move command per (unit, destination), reused: commands are immutable."""
    return Move((unit_id,), country)


def _mover(
    tx: Tx, owner: str, unit: Unit
) -> tuple[Side | None, bool, bool, str | None, str | None]:
    """All that the batched Move checks read of a unit's owner: its side (K1), whether it
    is an independent minor and may redeploy (82.83A), whether it has a Commonwealth zone
    (82.13A), and the major it fights for (82.41). Owners alike in these share verdicts."""
    state = tx.minors.get(owner)
    independent = state is not None and state.status is Status.INDEPENDENT
    return (
        tx.owner_side(unit) or potential_side(tx, unit),
        independent and tx.rs.minors[owner].redeploys,
        independent,
        owner if owner in tx.rs.commonwealth_zones else None,
        _major_of(tx, owner),
    )


@candidates(Move)
def _moves(tx: Tx, gated: bool) -> Iterator[Batch[Move]]:
    """Each unit on the map to each other country, without a hex, in batches of one owner's
    units to one country; owners alike for the checks (`_mover`) share their verdicts.
    Gated, units that could not move now are skipped: K1 refuses a move outside its side's
    moving phases, and 82.83C (given by the 82.41 check) every move of a minor's unit with
    no major but the move home."""
    open_ = not gated or "K1" in tx.disabled
    stay_home = gated and "82.41" not in tx.disabled
    phase, side = tx.clock.phase, tx.clock.side
    countries = (*minors_in_play(tx), *tx.rs.majors)
    units = tx.units
    for owner in sorted(tx.owners()):
        ids = sorted(tx.owned_by(owner))
        mover = _mover(tx, owner, units[ids[0]])
        own = mover[0]
        if not open_ and own is not None and (phase not in MOVING or own is not side):
            continue  # K1: it moves only in its side's moving phases
        home_only = own is None and stay_home  # 82.83C: no major, it fights only at home
        for country in (owner,) if home_only else countries:
            batch = tuple(_move_of(u, country) for u in ids if units[u].country != country)
            if batch:
                yield Batch(batch, (mover, country, owner == country))


@check(Remove, "K3", batched=True)
def _remove_ids(tx: Tx, cmd: Remove) -> Iterator[Violation]:
    yield from _unknown(tx, cmd.units)


@candidates(Remove)
def _removals(tx: Tx, gated: bool) -> Iterator[tuple[Remove, ...]]:
    """Each unit on the map, as one batch (every unit there may be taken off)."""
    yield tuple(Remove((u,)) for u in sorted(tx.units))
