"""The foreign-factor limits (82.32, 82.321, 82.322), enforced at the end of every movement,
combat and redeployment phase (82.321B), and the commands that feed them."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from .._kernel.effects import UnitEliminated
from .._kernel.kind import Command, MinorName, UnitIds
from .._kernel.rulebook import (
    Batch,
    Violation,
    as_written,
    at_phase_end,
    candidates,
    check,
    effect,
    handles,
)
from ..domain import CommandKind, DiplomaticLevel, Side, Status
from ..domain.clock import Phase
from ..domain.marks import clause
from ..domain.units import Unit, UnitKind
from ..ruleset.records import Limit
from ..ruleset.tables import Ruleset
from .conquest import colonies_open_to, vichy_colony
from .sequence import in_phase

if TYPE_CHECKING:
    from .._kernel.tx import Tx

__all__ = [
    "ChooseLosses",
    "Excess",
    "TraceSupply",
    "group_of",
    "limit_exempt",
    "limits_on",
    "measure",
    "supply_order",
]

ENFORCED_AT = (Phase.MOVEMENT, Phase.COMBAT, Phase.REDEPLOYMENT)


@frozen
class TraceSupply(Command):
    """82.32B: `units` trace supply through the minor `through` this phase."""

    name: ClassVar[str] = CommandKind.TRACE_SUPPLY
    units: UnitIds
    through: MinorName


@frozen
class ChooseLosses(Command):
    """82.321B: the owner's choice of which of its units in `minor` go first when the
    foreign-factor limit is exceeded at the end of this phase."""

    name: ClassVar[str] = CommandKind.CHOOSE_LOSSES
    minor: MinorName
    units: UnitIds


@effect("82.32C", otherwise=None)
def _grouped(tx: Tx, minor: str) -> tuple[str, ...] | None:
    """82.32C: Belgium and Luxembourg count as a single minor for the limit."""
    return tx.rs.derived(_groups).get(minor)


def _groups(rs: Ruleset) -> dict[str, tuple[str, ...]]:
    """Each minor of a limit group -> the group's minors."""
    return {m: group.minors for group in rs.limit_groups.values() for m in group.minors}


def group_of(tx: Tx, minor: str) -> tuple[str, ...]:
    """The minors counted together with `minor` (itself alone, or its limit group)."""
    return _grouped(tx, minor) or (minor,)


@effect("82.322", otherwise=())
def _finland(tx: Tx, group: tuple[str, ...]) -> tuple[Limit, ...]:
    """82.322: Finland's own limit on Axis forces holds whatever Finland's status."""
    own = tx.rs.derived(_own_limits)
    if len(group) == 1:
        return own.get(group[0], ())
    return tuple(lim for minor in group for lim in own.get(minor, ()))


def _own_limits(rs: Ruleset) -> dict[str, tuple[Limit, ...]]:
    """Each minor with limits of its own that hold whatever its status -> those limits."""
    found: dict[str, list[Limit]] = {}
    for lim in rs.limits.values():
        if lim.always:
            found.setdefault(lim.minor, []).append(lim)
    return {minor: tuple(limits) for minor, limits in found.items()}


@effect("82.32", otherwise=())
def _control(tx: Tx, group: tuple[str, ...]) -> tuple[Limit, ...]:
    """82.32: after an 8 / −1, at most ten foreign factors while the power controls it."""
    for m in group:
        state = tx.minors[m]
        standing = state.standing
        if (
            state.status is Status.HEXES_CONTROLLED
            and standing is not None
            and standing.level >= DiplomaticLevel.CONTROL
        ):
            return (tx.rs.limits["default"],)
    return ()


def limits_on(tx: Tx, group: tuple[str, ...]) -> list[Limit]:
    """The limits in force on a group of minors now: worked out once per state of the
    minors while the rules that give them are rule 82's own (they read the minors and the
    tables), else once per state."""
    memo = tx.politics() if as_written(tx, _finland, _control) else tx.memo()
    found: list[Limit] | None = memo.get(("limits", group))
    if found is None:
        own, control = _finland(tx, group), _control(tx, group)
        found = memo[("limits", group)] = [*own, *control] if own or control else []
    return list(found)


@effect("82.321C", otherwise=())
def _exempt_kinds(tx: Tx, limit: Limit) -> tuple[UnitKind, ...]:
    """82.321C: airbases, rocket bases, railheads and forts are never limited."""
    return limit.exempt_kinds


def counts(tx: Tx, limit: Limit, group: tuple[str, ...], unit: Unit) -> bool:
    """Whether `unit` counts against `limit` on `group`."""
    if unit.owner in group or unit.owner in limit.exempt_owners:
        return False
    if unit.kind in _exempt_kinds(tx, limit):
        return False
    if unit.kind not in limit.counted_kinds and unit.kind not in limit.exempt_kinds:
        return False
    side = tx.owner_side(unit)
    if limit.side is not None and side is not limit.side:
        return False
    return not _vichy_exempt(tx, unit, group)


@effect("82.32A", otherwise=False)
def _vichy_exempt(tx: Tx, unit: Unit, group: tuple[str, ...]) -> bool:
    """82.32A: Axis units in an attacked Vichy colony do not count (`limit_exempt`)."""
    return any(limit_exempt(tx, unit.owner, m) for m in group)


@effect("82.32A", otherwise=False, name="limit_exempt")
def limit_exempt(tx: Tx, owner: str, minor: str) -> bool:
    """82.32A (77.63D), a rule a rulebook may replace (`limit_exempt`): whether `owner`'s
    units in `minor` are exempt from its limit. By default, Axis units in a Vichy colony
    that Britain or the U.S. attacked (which minors are such colonies is `vichy_colony`'s)."""
    if owner in tx.rs.majors and tx.side(owner) is not Side.AXIS:
        return False
    return any(vichy_colony(tx, major, minor) for major in sorted(colonies_open_to(tx)))


@effect("82.32B", otherwise=())
def _tracers(tx: Tx, group: tuple[str, ...]) -> tuple[str, ...]:
    """82.32B: units tracing supply through the minor count against its limit."""
    ids: list[str] = []
    for minor in group:
        ids.extend(u for u in tx.traces.get(minor, ()) if u in tx.units and u not in ids)
    return tuple(ids)


@clause("82.321A", otherwise=())
def supply_order(tx: Tx, minor: str) -> list[str]:
    """82.321A: the units supplied in or through a controlled minor, in priority order:
    the units inside first, then those tracing through it."""
    group = group_of(tx, minor)
    inside = sorted(u.id for u in tx.units.values() if u.country in group and u.owner not in group)
    return inside + [u for u in _tracers(tx, group) if u not in inside]


@frozen
class Excess:
    """What exceeds one limit: the factors and armor units counted, and the limit."""

    limit: Limit
    factors: int
    armor: int

    @property
    def over(self) -> bool:
        too_much_armor = self.limit.max_armor_units is not None and (
            self.armor > self.limit.max_armor_units
        )
        return self.factors > self.limit.factors or too_much_armor


def measure(tx: Tx, limit: Limit, group: tuple[str, ...]) -> tuple[Excess, list[Unit], list[Unit]]:
    """The counted units inside the group and the counted tracers, and their totals."""
    inside = [u for m in group for u in tx.units_in(m) if counts(tx, limit, group, u)]
    tracing = [
        tx.units[i]
        for i in _tracers(tx, group)
        if tx.units[i].country not in group and counts(tx, limit, group, tx.units[i])
    ]
    units = inside + tracing
    armor = sum(1 for u in units if u.kind is UnitKind.ARMOR)
    return Excess(limit, sum(u.factors for u in units), armor), inside, tracing


# ---- commands ---------------------------------------------------------------------------


def _enforced_now(tx: Tx, cmd: TraceSupply | ChooseLosses) -> bool:
    """K1: tracing supply and choosing losses belong in the phases the limits are enforced
    at the end of."""
    return tx.clock.phase in ENFORCED_AT


def _moving_phase(tx: Tx, units: tuple[str, ...], what: str) -> Iterator[Violation]:
    if tx.clock.phase not in ENFORCED_AT:
        yield Violation(
            "K1",
            f"{what} belongs in a movement, combat or redeployment phase, not {tx.clock}",
            {"units": list(units)},
        )


def _known(tx: Tx, units: tuple[str, ...]) -> Iterator[Violation]:
    for unit_id in units:
        if unit_id not in tx.units:
            yield Violation("K3", f"no unit {unit_id!r} is on the map", {"unit": unit_id})


@check(TraceSupply, "K1", batched=True, passes=_enforced_now)
def _trace_in_phase(tx: Tx, cmd: TraceSupply) -> Iterator[Violation]:
    yield from _moving_phase(tx, cmd.units, "tracing supply")


def _tracers_outside(tx: Tx, cmd: TraceSupply) -> bool:
    units = tx.units
    return all(u in units and units[u].country != cmd.through for u in cmd.units)


@check(TraceSupply, "K3", batched=True, passes=_tracers_outside)
def _trace_units(tx: Tx, cmd: TraceSupply) -> Iterator[Violation]:
    yield from _known(tx, cmd.units)
    for unit_id in cmd.units:
        if unit_id in tx.units and tx.units[unit_id].country == cmd.through:
            yield Violation(
                "K3",
                f"{unit_id} is in {cmd.through}: only units outside trace supply through it",
                {"unit": unit_id},
            )


@handles(TraceSupply)
def _trace(tx: Tx, cmd: TraceSupply) -> None:
    known = tx.traces.get(cmd.through, ())
    tx.assign(
        "traces", {**tx.traces, cmd.through: (*known, *(u for u in cmd.units if u not in known))}
    )
    tx.note("82.32B", "{} trace supply through {} this phase", ", ".join(cmd.units), cmd.through)


@check(ChooseLosses, "K1", batched=True, passes=_enforced_now)
def _losses_in_phase(tx: Tx, cmd: ChooseLosses) -> Iterator[Violation]:
    yield from _moving_phase(tx, cmd.units, "choosing losses")


def _foreign_there(tx: Tx, cmd: ChooseLosses) -> bool:
    group = group_of(tx, cmd.minor)
    units = tx.units
    for unit_id in cmd.units:
        unit = units.get(unit_id)
        if unit is None or unit.country not in group or unit.owner in group:
            return False
    return True


@check(ChooseLosses, "K3", batched=True, passes=_foreign_there)
def _losses_units(tx: Tx, cmd: ChooseLosses) -> Iterator[Violation]:
    yield from _known(tx, cmd.units)
    group = group_of(tx, cmd.minor)
    for unit_id in cmd.units:
        unit = tx.units.get(unit_id)
        if unit is not None and (unit.country not in group or unit.owner in group):
            yield Violation(
                "K3", f"{unit_id} is not a foreign unit in {cmd.minor}", {"unit": unit_id}
            )


@functools.lru_cache(maxsize=1 << 14)
def _trace_of(unit_id: str, through: str) -> TraceSupply:
    """One trace per (unit, minor), reused: commands are immutable."""
    return TraceSupply((unit_id,), through)


@functools.lru_cache(maxsize=1 << 14)
def _loss_of(minor: str, unit_id: str) -> ChooseLosses:
    """One choice per (minor, unit), reused: commands are immutable."""
    return ChooseLosses(minor, (unit_id,))


@candidates(TraceSupply)
def _traces(tx: Tx, gated: bool) -> Iterator[Batch[TraceSupply]]:
    """Each unit on the map through each minor under a limit now (not the one it is in), a
    batch per minor. Gated, it vouches for K1 (it yields only in the phases of the limits)
    and K3 (units on the map, outside the minor) while they are in force."""
    if in_phase(tx, gated, _trace_in_phase, *ENFORCED_AT):
        verified = _vouched(tx, _trace_in_phase, _trace_units) if gated else frozenset()
        ids = sorted(tx.units)
        units = tx.units
        for name in _limited(tx):
            batch = tuple(_trace_of(u, name) for u in ids if units[u].country != name)
            yield Batch(batch, None, verified)


@candidates(ChooseLosses)
def _losses(tx: Tx, gated: bool) -> Iterator[Batch[ChooseLosses]]:
    """Each foreign unit in a minor under a limit now, as the one to go first; a batch per
    minor. Gated, it vouches for K1 and K3 (foreign units there) while they are in force."""
    if in_phase(tx, gated, _losses_in_phase, *ENFORCED_AT):
        verified = _vouched(tx, _losses_in_phase, _losses_units) if gated else frozenset()
        grouped = _losses_units in verified  # K3: foreign to the whole group
        for name in _limited(tx):
            if not tx.occupied(name):
                continue
            group = group_of(tx, name)
            own = group if grouped else (name,)
            foreign = sorted(u.id for u in tx.units_in(name) if u.owner not in own)
            if foreign and limits_on(tx, group):
                yield Batch(tuple(_loss_of(name, u) for u in foreign), None, verified)


def _vouched(tx: Tx, *checks: Callable[..., object]) -> frozenset[Callable[..., object]]:
    """The checks among `checks` that are in force: those a gated generator vouches for."""
    return frozenset(c for c in checks if tx.enforces(c))


def _limited(tx: Tx) -> list[str]:
    """The minors under a limit now, in table order: worked out once per political state
    while the rules that say so are rule 82's own (else once per state)."""
    memo = tx.politics() if as_written(tx, _finland, _control, _grouped) else tx.memo()
    found: list[str] | None = memo.get("limited")
    if found is None:
        found = memo["limited"] = [
            name for name in tx.rs.minors if limits_on(tx, group_of(tx, name))
        ]
    return found


@handles(ChooseLosses)
def _choose(tx: Tx, cmd: ChooseLosses) -> None:
    tx.assign("losses", {**tx.losses, cmd.minor: cmd.units})
    tx.note("82.321B", "if {}'s limit is exceeded, {} go first", cmd.minor, ", ".join(cmd.units))


# ---- enforcement -----------------------------------------------------------------------------


def _victims(tx: Tx, group: tuple[str, ...], inside: list[Unit]) -> list[Unit]:
    """The units inside in the order they go when the limit is exceeded: those the owner
    chose first (`choose_losses`), then the documented default — by unit id, sorted as
    text, last first."""
    chosen: list[str] = []
    for minor in group:
        chosen.extend(tx.losses.get(minor, ()))
    by_id = {u.id: u for u in inside}
    first = [by_id[i] for i in chosen if i in by_id]
    rest = sorted((u for u in inside if u.id not in chosen), key=lambda u: u.id, reverse=True)
    return first + rest


@at_phase_end(Phase.MOVEMENT)
@at_phase_end(Phase.COMBAT)
@at_phase_end(Phase.REDEPLOYMENT)
@effect("82.321B")
def _enforce(tx: Tx, side: Side) -> None:
    """82.321B: at the end of a movement, combat or redeployment phase no limit may be
    exceeded: the excess units are eliminated (armor first where armor units are limited),
    and tracing units beyond the limit trace no supply through the minor (82.321A)."""
    # only in a minor under a limit where a unit of another owner stands or traces supply
    # can a limit be exceeded
    done: set[str] = set()
    for name in _limited(tx):
        if name in done:
            continue
        group = group_of(tx, name)
        done.update(group)
        units, where = tx.units, tx.where  # afresh: eliminations may have copied them
        if not any(
            m in tx.traces or any(units[i].owner != m for i in where.get(m, ())) for m in group
        ):
            continue
        for limit in limits_on(tx, group):
            _enforce_one(tx, limit, group)
    if tx.traces:
        tx.assign("traces", {})
    if tx.losses:
        tx.assign("losses", {})


@clause("82.321", "82.321A")
def _enforce_one(tx: Tx, limit: Limit, group: tuple[str, ...]) -> None:
    excess, inside, tracing = measure(tx, limit, group)
    if not excess.over:
        return
    where = " and ".join(group)
    victims = _victims(tx, group, inside)
    if limit.max_armor_units is not None:
        armor = [u for u in victims if u.kind is UnitKind.ARMOR]
        for unit in armor[: max(0, excess.armor - limit.max_armor_units)]:
            _eliminate(tx, unit, limit, f"more than {limit.max_armor_units} armor unit in {where}")
            victims.remove(unit)
    total = sum(u.factors for u in victims)
    for unit in list(victims):
        if total <= limit.factors:
            break
        _eliminate(tx, unit, limit, f"more than {limit.factors} foreign factors in {where}")
        total -= unit.factors
    allowance, cut = limit.factors - total, []
    for unit in tracing:  # 82.321A: the units inside were supplied first
        if unit.factors <= allowance:
            allowance -= unit.factors
        else:
            cut.append(unit.id)
    if cut:
        tx.note(
            "82.321A",
            "{} trace no supply through {}: the units inside come first",
            ", ".join(cut),
            where,
        )


def _eliminate(tx: Tx, unit: Unit, limit: Limit, why: str) -> None:
    tx.eliminate(unit.id)
    tx.emit(UnitEliminated, unit.id, limit.clause, why)
