"""Units: `place`, `move` and `remove`, and who may enter a minor country (82.32D, 82.41,
82.83)."""

from __future__ import annotations

import functools
from collections.abc import Collection, Hashable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from attrs import field, frozen

from .._kernel.effects import UnitMoved, UnitPlaced, UnitRemoved
from .._kernel.kind import Command, CountryName, HexLabel, UnitIds, factor_count
from .._kernel.rulebook import Batch, Violation, as_written, candidates, check, handles
from .._kernel.state import Minor
from ..domain import CommandKind, DiplomaticLevel, Side, Status
from ..domain.clock import Phase
from ..domain.marks import clause
from ..domain.units import Unit, UnitKind
from ..ruleset.tables import Ruleset
from .conquest import attackers, vichy_colony
from .sequence import minors_in_play
from .ties import TIED, tie_rule

if TYPE_CHECKING:
    from .._kernel.tx import Tx

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


def entry_refusal(tx: Tx, owner: str, country: str) -> str | None:
    """The clause that keeps units of `owner` out of `country`, or None if they may be
    there (the boolean path of `entry_violation`: no message is made)."""
    if owner == country:
        return None
    return _refusal(tx, _major_of(tx, owner), country, entry_table(tx))


@clause("82.83C")
def _refusal(tx: Tx, major: str | None, country: str, table: EntryTable) -> str | None:
    """`entry_refusal` for units fighting for `major` (None: a minor's with no major) in
    a country not their own, `table` being `entry_table(tx)`."""
    if country in tx.rs.majors:
        if major is not None and (tx.side(major) is tx.side(country) or tx.at_war(major, country)):
            return None
        return "K3"
    if major is None:
        return "82.83C"
    allowed = table.get(country)
    if allowed is None:
        allowed = _entrants_into(tx, country, table)
    if major in allowed:
        return None
    state = tx.minors[country]
    tied = tie_rule(tx.rs, state)
    if tied is not None and state.major is not None:
        return tied
    return "82.41"


EntryTable = dict[str, frozenset[str]]


def entrants(tx: Tx, minor: str) -> frozenset[str]:
    """The major powers whose units (and those of the minors fighting for them) may be in
    `minor` now: the side of the major it is tied to, conquered by, or (independent and
    attacked) would associate with (82.82, 82.83); the controlling power's faction (82.32D);
    and every power that may attack it without (more) declaring war (82.41, 82.42)."""
    table = entry_table(tx)
    found = table.get(minor)
    return found if found is not None else _entrants_into(tx, minor, table)


def entry_table(tx: Tx) -> EntryTable:
    """Where `entrants` keeps what it worked out, once per state of the minors and wars
    (what it reads, with the tables, while the Vichy rule is rule 82's own)."""
    memo = tx.politics() if as_written(tx, vichy_colony) else tx.memo()
    table: EntryTable | None = memo.get("entrants")
    if table is None:
        table = memo["entrants"] = {}
    return table


def _entrants_into(tx: Tx, minor: str, table: EntryTable) -> frozenset[str]:
    state = tx.minors[minor]
    status = state.status
    friendly = state.major if status in _FRIENDLY_HOLD else None
    if status is Status.INDEPENDENT and state.pending is not None:
        friendly = state.pending.partner  # its potential ally's forces (82.82, 82.83)
    allowed = set(attackers(tx, minor))
    if friendly is not None:
        allowed.update(tx.side_members(tx.side(friendly)))
    allowed.update(_controller_and_allies(tx, state))
    found = table[minor] = frozenset(allowed)
    return found


@clause("82.32D", otherwise=())
def _controller_and_allies(tx: Tx, state: Minor) -> Collection[str]:
    """82.32D: the power controlling a minor's hexes and its allies may enter it."""
    holding = state.standing
    if (
        state.status is Status.HEXES_CONTROLLED
        and holding is not None
        and holding.level >= DiplomaticLevel.CONTROL
    ):
        return tx.allies(holding.major)
    return ()


_FRIENDLY_HOLD = frozenset({*TIED, Status.CONQUERED})
"""Statuses whose major's side may be in the minor (its own forces and their friends)."""


def entry_violation(tx: Tx, owner: str, country: str) -> Violation | None:
    """Whether units of `owner` may be in `country`; the broken rule if not."""
    rule = entry_refusal(tx, owner, country)
    if rule is None:
        return None
    major = _major_of(tx, owner)
    data: dict[str, object] = {"owner": owner, "country": country}
    if rule == "K3":
        message = f"{owner}'s units cannot enter {country}: not its side and not at war with it"
    elif rule == "82.83C":
        message = f"{owner}'s units fight only in their own country"
    else:
        state = tx.minors[country]
        if rule == "82.41":
            message = (
                f"{owner}'s units cannot enter {country} ({state.status.value}): "
                f"{major} must declare war on it first"
            )
        else:
            message = (
                f"{owner}'s units cannot enter {country} ({state.status.value} with "
                f"{state.major}): {major} must be at war with {state.major} first"
            )
            data["major"] = state.major
    return Violation(rule, message, data)


def _place_ids_ok(tx: Tx, cmd: Place) -> bool:
    units, gone = tx.units, tx.gone
    seen: set[str] = set()
    for spec in cmd.units:
        if spec.id in units or spec.id in gone or spec.id in seen:
            return False
        seen.add(spec.id)
    return _hex_ok(tx, cmd.in_, cmd.hex)


@check(Place, "K3", passes=_place_ids_ok)
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


def _owners_in_play(tx: Tx, cmd: Place) -> bool:
    for spec in cmd.units:
        state = tx.minors.get(spec.owner)
        if state is not None and (state.status is Status.CONQUERED or not state.active):
            return False
    return True


@check(Place, "K7", passes=_owners_in_play)
def _owner_in_play(tx: Tx, cmd: Place) -> Iterator[Violation]:
    """A conquered minor has no units (its units were removed); an inactive one none yet."""
    for owner in sorted({s.owner for s in cmd.units}):
        state = tx.minors.get(owner)
        if state is not None and (state.status is Status.CONQUERED or not state.active):
            what = "is conquered" if state.active else "is not in play"
            yield Violation("K7", f"{owner} {what}: it has no units to place", {"owner": owner})


def _built_at_home(tx: Tx, cmd: Place) -> bool:
    for spec in cmd.units:
        record = tx.rs.minors.get(spec.owner)
        if (
            record is not None
            and record.start_status is Status.COMMONWEALTH
            and cmd.in_ != spec.owner
        ):
            return False
    return True


@check(Place, "82.13B", passes=_built_at_home)
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


def _place_entry_ok(tx: Tx, cmd: Place) -> bool:
    for spec in cmd.units:
        if entry_refusal(tx, spec.owner, cmd.in_) is not None:
            return False
    return True


@check(Place, "82.41", passes=_place_entry_ok)
def _place_entry(tx: Tx, cmd: Place) -> Iterator[Violation]:
    for owner in sorted({s.owner for s in cmd.units}):
        violation = entry_violation(tx, owner, cmd.in_)
        if violation is not None:
            yield violation


@handles(Place)
def _place(tx: Tx, cmd: Place) -> None:
    for spec in cmd.units:
        tx.put_unit(Unit(spec.id, spec.owner, spec.kind, spec.factors, cmd.in_, cmd.hex))
        tx.emit(UnitPlaced, spec.id, cmd.in_, "K3")


def _unknown(tx: Tx, ids: tuple[str, ...]) -> Iterator[Violation]:
    for unit_id in ids:
        if unit_id not in tx.units:
            yield Violation("K3", f"no unit {unit_id!r} is on the map", {"unit": unit_id})


def _hex_ok(tx: Tx, country: str, hex_label: str | None) -> bool:
    if hex_label is None or country not in tx.rs.minors:
        return True
    hexes = tx.rs.minors[country].hexes
    return not hexes or hex_label in hexes


def _move_ids_ok(tx: Tx, cmd: Move) -> bool:
    units = tx.units
    for u in cmd.units:
        if u not in units:
            return False
    return cmd.hex is None or _hex_ok(tx, cmd.to, cmd.hex)


@check(Move, "K3", batched=True, passes=_move_ids_ok)
def _move_ids(tx: Tx, cmd: Move) -> Iterator[Violation]:
    yield from _unknown(tx, cmd.units)
    yield from _hex(tx, cmd.to, cmd.hex)


def _on_the_map(tx: Tx, cmd: Move) -> list[Unit]:
    units = tx.units
    return [units[u] for u in cmd.units if u in units]


def _out_of_phase(tx: Tx, unit: Unit) -> bool:
    """K1: a unit moves only in its side's movement, combat or redeployment phase."""
    major = _major_of(tx, unit.owner)
    if major is None:
        return False
    clock = tx.clock
    return clock.side is not tx.side(major) or clock.phase not in MOVING


def _move_in_phase_ok(tx: Tx, cmd: Move) -> bool:
    units = tx.units
    for u in cmd.units:
        unit = units.get(u)
        if unit is not None and _out_of_phase(tx, unit):
            return False
    return True


@check(Move, "K1", batched=True, passes=_move_in_phase_ok)
def _move_in_phase(tx: Tx, cmd: Move) -> Iterator[Violation]:
    for unit in _on_the_map(tx, cmd):
        if _out_of_phase(tx, unit):
            yield Violation(
                "K1",
                f"{unit.id} moves in its side's movement, combat or "
                f"redeployment phase, not {tx.clock}",
                {"unit": unit.id},
            )


def potential_side(tx: Tx, unit: Unit) -> Side | None:
    major = _major_of(tx, unit.owner)
    return tx.side(major) if major is not None else None


def _idle_independent(tx: Tx, unit: Unit) -> bool:
    """82.83A: an independent minor's unit outside the phases it acts in."""
    state = tx.minors.get(unit.owner)
    if state is None or state.status is not Status.INDEPENDENT:
        return False
    phase = tx.clock.phase
    return phase not in INDEPENDENT_PHASES and not (
        phase is Phase.REDEPLOYMENT and tx.rs.minors[unit.owner].redeploys
    )


def _independent_phases_ok(tx: Tx, cmd: Move) -> bool:
    units = tx.units
    for u in cmd.units:
        unit = units.get(u)
        if unit is not None and _idle_independent(tx, unit):
            return False
    return True


@check(Move, "82.83A", batched=True, passes=_independent_phases_ok)
def _independent_phases(tx: Tx, cmd: Move) -> Iterator[Violation]:
    """82.83A: an independent minor moves only in the movement and combat phases of its
    potential ally's player turn (Vichy France may also redeploy)."""
    for unit in _on_the_map(tx, cmd):
        if _idle_independent(tx, unit):
            yield Violation(
                "82.83A",
                f"{unit.owner} is independent: its units act only in the "
                "movement, combat and construction phases",
                {"unit": unit.id},
            )


def _out_of_zone(tx: Tx, unit: Unit, to: str) -> bool:
    """82.13A: a South African, Australian or Indian unit bound outside its zone."""
    zone = tx.rs.commonwealth_zones.get(unit.owner)
    if zone is None or to in zone.countries or to == unit.owner:
        return False
    record = tx.rs.minors.get(to)
    return record is None or record.theater not in zone.theaters


def _commonwealth_zones_ok(tx: Tx, cmd: Move) -> bool:
    zones = tx.rs.commonwealth_zones
    units = tx.units
    for u in cmd.units:
        unit = units.get(u)
        if unit is not None and unit.owner in zones and _out_of_zone(tx, unit, cmd.to):
            return False
    return True


@check(Move, "82.13A", batched=True, passes=_commonwealth_zones_ok)
def _commonwealth_zones(tx: Tx, cmd: Move) -> Iterator[Violation]:
    """82.13A: South African, Australian and Indian units keep to their zones (a table)."""
    for unit in _on_the_map(tx, cmd):
        if _out_of_zone(tx, unit, cmd.to):
            yield Violation(
                "82.13A",
                f"{unit.id} is {unit.owner}'s: it may not deploy to {cmd.to}",
                {"unit": unit.id, "to": cmd.to},
            )


def _owners(tx: Tx, cmd: Move) -> list[str]:
    return sorted({unit.owner for unit in _on_the_map(tx, cmd)})


def _move_entry_ok(tx: Tx, cmd: Move) -> bool:
    units, to = tx.units, cmd.to
    table = entry_table(tx)
    for u in cmd.units:
        unit = units.get(u)
        if unit is None or unit.owner == to:
            continue
        if _refusal(tx, _major_of(tx, unit.owner), to, table) is not None:
            return False
    return True


@check(Move, "82.41", batched=True, passes=_move_entry_ok)
def _move_entry(tx: Tx, cmd: Move) -> Iterator[Violation]:
    for owner in _owners(tx, cmd):
        violation = entry_violation(tx, owner, cmd.to)
        if violation is not None:
            yield violation


@handles(Move)
def _move(tx: Tx, cmd: Move) -> None:
    for unit_id in cmd.units:
        tx.move_unit(unit_id, cmd.to, cmd.hex)
        tx.emit(UnitMoved, unit_id, cmd.to, "K3")


@handles(Remove)
def _remove(tx: Tx, cmd: Remove) -> None:
    for unit_id in cmd.units:
        tx.drop_unit(unit_id)
        tx.emit(UnitRemoved, unit_id, "K3")
    tx.mark_removed(cmd.units)


@functools.lru_cache(maxsize=1 << 16)
def _move_of(unit_id: str, country: str) -> Move:
    """One move command per (unit, destination), reused: commands are immutable."""
    return Move((unit_id,), country)


_ALL_MOVES: dict[tuple[str, ...], dict[str, tuple[Move, ...]]] = {}
"""The moves of a set of units (sorted ids) to each country, built once: commands are
immutable, and an owner's units and the countries change seldom."""


def _all_moves(ids: tuple[str, ...]) -> dict[str, tuple[Move, ...]]:
    """The moves of every unit of `ids` to each country (filled as asked)."""
    per = _ALL_MOVES.get(ids)
    if per is None:
        if len(_ALL_MOVES) > 1 << 12:
            _ALL_MOVES.clear()
        per = _ALL_MOVES[ids] = {}
    return per


def _batch(
    units: dict[str, Unit],
    ids: tuple[str, ...],
    here: set[str],
    to: str,
    per: dict[str, tuple[Move, ...]],
) -> tuple[Move, ...]:
    """The moves of the units of `ids` (standing in the countries `here`) to `to`; `per` is
    `_all_moves(ids)`."""
    if to in here:
        return tuple([_move_of(u, to) for u in ids if units[u].country != to])
    found = per.get(to)
    if found is None:
        found = per[to] = tuple([_move_of(u, to) for u in ids])
    return found


def _memo_of(tx: Tx, name: Hashable) -> dict[Any, Any]:
    """A dict of `entry_table`'s memo (what lasts while the minors and wars do)."""
    memo = tx.politics() if as_written(tx, vichy_colony) else tx.memo()
    found: dict[Any, Any] | None = memo.get(name)
    if found is None:
        found = memo[name] = {}
    return found


def _zone_of(rs: Ruleset, owner: str) -> frozenset[str]:
    """82.13A: the countries a zoned Commonwealth minor's units may deploy to (its zone's
    countries, the minors of its theaters and its own country)."""
    zone = rs.commonwealth_zones[owner]
    theaters = {name for name, record in rs.minors.items() if record.theater in zone.theaters}
    return frozenset({owner, *zone.countries, *theaters})


@candidates(Move)
def _moves(tx: Tx, gated: bool) -> Iterator[Batch[Move]]:
    """Each unit on the map to each other country, without a hex, in batches of one owner's
    units to one country. Gated, the generator applies the Move checks of rule 82 that are
    in force itself, each at its grain, and vouches for them (`Batch.verified`): K1 and
    82.83A once per owner, 82.41 once per major and country, 82.13A once per owner and
    country, K3 by construction (units on the map, no hex); when no batched check is left
    for the kernel to run, an owner's moves to every country come as one batch."""
    units = tx.units
    countries = (*minors_in_play(tx), *tx.rs.majors)
    owners = sorted(tx.owners())
    if not gated:
        for owner in owners:
            ids = tuple(sorted(tx.owned_by(owner)))
            here = {units[u].country for u in ids}
            per = _all_moves(ids)
            for country in countries:
                batch = _batch(units, ids, here, country, per)
                if batch:
                    yield Batch(batch)
        return
    verified = frozenset(c for c in _GENERATED if tx.enforces(c))
    table = entry_table(tx)
    phases = _move_in_phase in verified
    idle = _independent_phases in verified
    entry = _move_entry in verified
    zones = _commonwealth_zones in verified
    whole = tx.grain_free(Move, verified)
    # 82.41 by major (owners alike share it) and the countries of each owner's moves: they
    # read the minors and the wars, so they last while those do (`entry_table`'s memo)
    open_to = _memo_of(tx, "open to")
    goes_to = _memo_of(tx, "targets")
    moved_by = _memo_of(tx, ("moves", verified))
    for owner in owners:
        ids = tuple(sorted(tx.owned_by(owner)))
        first = units[ids[0]]  # K1, 82.83A and 82.13A read only the owner of a unit
        if (phases and _out_of_phase(tx, first)) or (idle and _idle_independent(tx, first)):
            continue
        major = _major_of(tx, owner)
        if not entry:
            targets: tuple[str, ...] = countries
        elif major is None:
            targets = (owner,)  # 82.83C: a minor's units with no major fight at home only
        else:
            found_targets = goes_to.get((major, owner))
            if found_targets is None:
                allowed = open_to.get(major)
                if allowed is None:
                    allowed = open_to[major] = frozenset(
                        c for c in countries if _refusal(tx, major, c, table) is None
                    )
                found_targets = goes_to[(major, owner)] = tuple(
                    c for c in countries if c in allowed or c == owner
                )
            targets = found_targets
        if zones and owner in tx.rs.commonwealth_zones:
            zone = tx.rs.derived(_zone_of, owner)  # 82.13A
            targets = tuple(c for c in targets if c in zone)
        standing = tuple([units[u].country for u in ids])
        if whole:  # an owner's moves as one batch: the same while its units stand still
            known = moved_by.get(owner)
            if known is not None and known[0] == (targets, ids, standing):
                if known[1]:
                    yield known[1]
                continue
        here = set(standing)
        per = _all_moves(ids)
        found: list[Move] = []
        for country in targets:
            batch = _batch(units, ids, here, country, per)
            if not batch:
                continue
            if whole:
                found.extend(batch)
            else:
                yield Batch(batch, None, verified)
        if whole:
            made = Batch(tuple(found), None, verified) if found else None
            moved_by[owner] = ((targets, ids, standing), made)
            if made is not None:
                yield made


def _removable(tx: Tx, cmd: Remove) -> bool:
    units = tx.units
    for unit_id in cmd.units:
        if unit_id not in units:
            return False
    return True


@check(Remove, "K3", batched=True, passes=_removable)
def _remove_ids(tx: Tx, cmd: Remove) -> Iterator[Violation]:
    yield from _unknown(tx, cmd.units)


@candidates(Remove)
def _removals(tx: Tx, gated: bool) -> Iterator[tuple[Remove, ...]]:
    """Each unit on the map, as one batch (every unit there may be taken off)."""
    yield tuple(Remove((u,)) for u in sorted(tx.units))


_GENERATED = (_move_ids, _move_in_phase, _independent_phases, _commonwealth_zones, _move_entry)
"""The Move checks that `_moves` applies itself when they are in force."""
