"""The foreign-factor limits (82.32, 82.321, 82.322), enforced at the end of every movement,
combat and redeployment phase (82.321B), and the commands that feed them."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import ClassVar

from attrs import frozen

from .._kernel.kind import Command, MinorName, UnitIds
from .._kernel.rulebook import Play, Refusal, at_phase_end, candidates, check, handles, refuse, rule
from ..domain import CommandKind, DiplomaticLevel, Side, Status
from ..domain.clock import Phase
from ..domain.events import UnitEliminated
from ..domain.units import Unit, UnitKind
from ..ruleset.records import Limit
from ..ruleset.tables import Ruleset
from .conquest import colonies_open_to, vichy_colony
from .powers import owner_side, side_of

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


@rule("82.32C", otherwise=None)
def _grouped(p: Play, minor: str) -> tuple[str, ...] | None:
    """82.32C: Belgium and Luxembourg count as a single minor for the limit."""
    return p.rs.derived(_groups).get(minor)


def _groups(rs: Ruleset) -> dict[str, tuple[str, ...]]:
    """Each minor of a limit group -> the group's minors."""
    return {m: group.minors for group in rs.limit_groups.values() for m in group.minors}


def group_of(p: Play, minor: str) -> tuple[str, ...]:
    """The minors counted together with `minor` (itself alone, or its limit group)."""
    return _grouped(p, minor) or (minor,)


@rule("82.322", otherwise=())
def _finland(p: Play, group: tuple[str, ...]) -> tuple[Limit, ...]:
    """82.322: Finland's own limit on Axis forces holds whatever Finland's status."""
    own = p.rs.derived(_own_limits)
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


@rule("82.32", otherwise=())
def _control(p: Play, group: tuple[str, ...]) -> tuple[Limit, ...]:
    """82.32: after an 8 / −1, at most ten foreign factors while the power controls it."""
    return (p.rs.limits["default"],) if _controller(p, group) is not None else ()


def _controller(p: Play, group: tuple[str, ...]) -> str | None:
    """The major whose result (8 / −1) controls the hexes of a minor of `group`, if any."""
    for state in map(p.board.minors.__getitem__, group):
        held = state.standing if state.status is Status.HEXES_CONTROLLED else None
        if held is not None and held.level >= DiplomaticLevel.CONTROL:
            return held.major
    return None


def limits_on(p: Play, group: tuple[str, ...]) -> list[Limit]:
    """The limits in force on a group of minors now: worked out once per state of the
    minors while the rules that give them are rule 82's own (they read the minors and the
    tables), else once per state."""
    memo = p.board.politics() if p.rules.as_written(_finland, _control) else p.board.memo()
    found: list[Limit] | None = memo.get(("limits", group))
    if found is None:
        own, control = _finland(p, group), _control(p, group)
        found = memo[("limits", group)] = [*own, *control] if own or control else []
    return list(found)


@rule("82.321C", otherwise=())
def _exempt_kinds(p: Play, limit: Limit) -> tuple[UnitKind, ...]:
    """82.321C: airbases, rocket bases, railheads and forts are never limited."""
    return limit.exempt_kinds


def counts(p: Play, limit: Limit, group: tuple[str, ...], unit: Unit) -> bool:
    """Whether `unit` counts against `limit` on `group`."""
    if unit.owner in group or unit.owner in limit.exempt_owners:
        return False
    if unit.kind in _exempt_kinds(p, limit):
        return False
    if unit.kind not in limit.counted_kinds and unit.kind not in limit.exempt_kinds:
        return False
    side = owner_side(p, unit)
    if limit.side is not None and side is not limit.side:
        return False
    if not limit.always and any(own.side is side for own in _finland(p, group)):
        return False  # 82.32A: Finland's own limit replaces the ten for Axis units there
    held = not limit.always and p.rules.on("82.32D")
    if held and side is not side_of(p, _controller(p, group) or unit.owner):
        return False  # 82.32D: the ten bounds the controlling side; 82.33 the evicted one
    return not _vichy_exempt(p, unit, group)


@rule("82.32A", otherwise=False)
def _vichy_exempt(p: Play, unit: Unit, group: tuple[str, ...]) -> bool:
    """82.32A: Axis units in an attacked Vichy colony do not count (`limit_exempt`)."""
    return any(limit_exempt(p, unit.owner, m) for m in group)


@rule("82.32A", otherwise=False, name="limit_exempt")
def limit_exempt(p: Play, owner: str, minor: str) -> bool:
    """82.32A (77.63D), a rule a rulebook may replace (`limit_exempt`): whether `owner`'s
    units in `minor` are exempt from its limit. By default, Axis units in a Vichy colony
    that Britain or the U.S. attacked (which minors are such colonies is `vichy_colony`'s)."""
    if owner in p.rs.majors and side_of(p, owner) is not Side.AXIS:
        return False
    return any(vichy_colony(p, major, minor) for major in sorted(colonies_open_to(p)))


@rule("82.32B", otherwise=())
def _tracers(p: Play, group: tuple[str, ...]) -> tuple[str, ...]:
    """82.32B: units tracing supply through the minor count against its limit."""
    ids: list[str] = []
    for minor in group:
        ids.extend(u for u in p.board.traces.get(minor, ()) if u in p.board.units and u not in ids)
    return tuple(ids)


def supply_order(p: Play, minor: str) -> list[str]:
    """82.321A: the units supplied in or through a controlled minor, in priority order: the units
    inside first, then those tracing through it (while 82.321A is off, all of them by id)."""
    group = group_of(p, minor)
    units = p.board.units.values()
    inside = sorted(u.id for u in units if u.country in group and u.owner not in group)
    tracing = [u for u in _tracers(p, group) if u not in inside]
    return inside + tracing if p.rules.on("82.321A") else sorted([*inside, *tracing])


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


def measure(p: Play, limit: Limit, group: tuple[str, ...]) -> tuple[Excess, list[Unit], list[Unit]]:
    """The counted units inside the group and the counted tracers, and their totals."""
    inside = [u for m in group for u in p.board.units_in(m) if counts(p, limit, group, u)]
    tracing = [
        p.board.units[i]
        for i in _tracers(p, group)
        if p.board.units[i].country not in group and counts(p, limit, group, p.board.units[i])
    ]
    units = inside + tracing
    armor = sum(1 for u in units if u.kind is UnitKind.ARMOR)
    return Excess(limit, sum(u.factors for u in units), armor), inside, tracing


# ---- commands ---------------------------------------------------------------------------


def _in_phase_of_limits(p: Play, units: tuple[str, ...], what: str) -> list[Refusal]:
    """K1: tracing supply and choosing losses belong in the phases the limits are enforced
    at the end of."""
    if p.board.clock.phase in ENFORCED_AT:
        return []
    message = f"{what} belongs in a movement, combat or redeployment phase, not {p.board.clock}"
    return [refuse(message, units=list(units))]


def _unknown(p: Play, units: tuple[str, ...]) -> list[Refusal]:
    """K3: the units named are on the map."""
    return [refuse(f"no unit {u!r} is on the map", unit=u) for u in units if u not in p.board.units]


@check(TraceSupply, "K1", batched=True)
def _trace_in_phase(p: Play, cmd: TraceSupply) -> list[Refusal]:
    return _in_phase_of_limits(p, cmd.units, "tracing supply")


@check(TraceSupply, "K3", batched=True)  # `_traces` lists units on the map outside
def _trace_units(p: Play, cmd: TraceSupply) -> list[Refusal]:
    """K3: units on the map, outside the minor, trace supply through it."""
    found = _unknown(p, cmd.units)
    units = p.board.units
    for unit_id in cmd.units:
        if unit_id in units and units[unit_id].country == cmd.through:
            message = f"{unit_id} is in {cmd.through}: only units outside trace supply through it"
            found.append(refuse(message, unit=unit_id))
    return found


@handles(TraceSupply)
def _trace(p: Play, cmd: TraceSupply) -> None:
    known = p.board.traces.get(cmd.through, ())
    p.board.replace(
        "traces",
        {**p.board.traces, cmd.through: (*known, *(u for u in cmd.units if u not in known))},
    )
    p.note("82.32B", "{} trace supply through {} this phase", ", ".join(cmd.units), cmd.through)


@check(ChooseLosses, "K1", batched=True)
def _losses_in_phase(p: Play, cmd: ChooseLosses) -> list[Refusal]:
    return _in_phase_of_limits(p, cmd.units, "choosing losses")


@check(ChooseLosses, "K3", batched=True)  # `_losses` lists only counted units there
def _losses_units(p: Play, cmd: ChooseLosses) -> list[Refusal]:
    """K3: the units chosen stand in the minor (or its group) and count against its limit."""
    found = _unknown(p, cmd.units)
    group = group_of(p, cmd.minor)
    for unit_id in cmd.units:
        unit = p.board.units.get(unit_id)
        if unit is not None and not _counted(p, group, unit):
            found.append(refuse(f"{unit_id} is not under {cmd.minor}'s limit", unit=unit_id))
    return found


def _counted(p: Play, group: tuple[str, ...], unit: Unit) -> bool:
    """Whether `unit` stands in `group` and counts against a limit there (82.32D, 82.322)."""
    return unit.country in group and any(counts(p, lim, group, unit) for lim in limits_on(p, group))


@functools.lru_cache(maxsize=1 << 14)
def _trace_of(unit_id: str, through: str) -> TraceSupply:
    """One trace per (unit, minor), reused: commands are immutable."""
    return TraceSupply((unit_id,), through)


@functools.lru_cache(maxsize=1 << 14)
def _loss_of(minor: str, unit_id: str) -> ChooseLosses:
    """One choice per (minor, unit), reused: commands are immutable."""
    return ChooseLosses(minor, (unit_id,))


@candidates(TraceSupply)
def _traces(p: Play) -> Iterator[tuple[TraceSupply, ...]]:
    """Each unit on the map through each minor under a limit now that it is not in (none is worth
    tracing through a minor under no limit), a batch per minor; none while K1 refuses them."""
    units = p.board.units
    if not units:
        return
    ids = sorted(units)
    for name in _limited(p):
        if p.rules.refuses(_trace_in_phase, p, _trace_of(ids[0], name)):
            continue  # K1 reads only the clock
        batch = tuple([_trace_of(u, name) for u in ids if units[u].country != name])
        if batch:
            yield batch


@candidates(ChooseLosses)
def _losses(p: Play) -> Iterator[tuple[ChooseLosses, ...]]:
    """Each unit counted against a limit now, as the one to go first; a batch per minor; none
    while K1 refuses them."""
    units = p.board.units
    for name in _limited(p):
        group = group_of(p, name)
        foreign = sorted(u for u in p.board.where.get(name, ()) if _counted(p, group, units[u]))
        batch = tuple(_loss_of(name, u) for u in foreign)
        if batch and not p.rules.refuses(_losses_in_phase, p, batch[0]):
            yield batch


def _limited(p: Play) -> list[str]:
    """The minors under a limit now, in table order: worked out once per political state
    while the rules that say so are rule 82's own (else once per state)."""
    memo = (
        p.board.politics() if p.rules.as_written(_finland, _control, _grouped) else p.board.memo()
    )
    found: list[str] | None = memo.get("limited")
    if found is None:
        found = memo["limited"] = [name for name in p.rs.minors if limits_on(p, group_of(p, name))]
    return found


@handles(ChooseLosses)
def _choose(p: Play, cmd: ChooseLosses) -> None:
    p.board.replace("losses", {**p.board.losses, cmd.minor: cmd.units})
    p.note("82.321B", "if {}'s limit is exceeded, {} go first", cmd.minor, ", ".join(cmd.units))


# ---- enforcement -----------------------------------------------------------------------------


def _victims(p: Play, group: tuple[str, ...], inside: list[Unit]) -> list[Unit]:
    """The units inside in the order they go when the limit is exceeded: those the owner chose first
    (`choose_losses`), then the documented default — by unit id, sorted as text, last first."""
    chosen: list[str] = []
    for minor in group:
        chosen.extend(p.board.losses.get(minor, ()))
    by_id = {u.id: u for u in inside}
    first = [by_id[i] for i in chosen if i in by_id]
    rest = sorted((u for u in inside if u.id not in chosen), key=lambda u: u.id, reverse=True)
    return first + rest


@at_phase_end(Phase.MOVEMENT)
@at_phase_end(Phase.COMBAT)
@at_phase_end(Phase.REDEPLOYMENT)
@rule("82.321B")
def _enforce(p: Play, side: Side) -> None:
    """82.321B: at the end of a movement, combat or redeployment phase no limit may be
    exceeded: the excess units are eliminated (armor first where armor units are limited),
    and tracing units beyond the limit trace no supply through the minor (82.321A)."""
    # only in a minor under a limit where a unit of another owner stands or traces supply
    # can a limit be exceeded
    done: set[str] = set()
    for name in _limited(p):
        if name in done:
            continue
        group = group_of(p, name)
        done.update(group)
        units, where = p.board.units, p.board.where  # afresh: eliminations may have copied them
        if not any(
            m in p.board.traces or any(units[i].owner != m for i in where.get(m, ())) for m in group
        ):
            continue
        for limit in limits_on(p, group):
            _enforce_one(p, limit, group)
    if p.board.traces:
        p.board.replace("traces", {})
    if p.board.losses:
        p.board.replace("losses", {})


@rule("82.321")
def _enforce_one(p: Play, limit: Limit, group: tuple[str, ...]) -> None:
    """82.321: one limit applied to a group of minors: the excess units inside are
    eliminated (armor first where armor units are limited), and the units tracing supply
    beyond what is left trace none (82.321A)."""
    excess, inside, tracing = measure(p, limit, group)
    if not excess.over:
        return
    where = " and ".join(group)
    victims = _victims(p, group, inside)
    if limit.max_armor_units is not None:
        armor = [u for u in victims if u.kind is UnitKind.ARMOR]
        for unit in armor[: max(0, excess.armor - limit.max_armor_units)]:
            _eliminate(p, unit, limit, f"more than {limit.max_armor_units} armor unit in {where}")
            victims.remove(unit)
    total = sum(u.factors for u in victims)
    for unit in list(victims):
        if total <= limit.factors:
            break
        _eliminate(p, unit, limit, f"more than {limit.factors} foreign factors in {where}")
        total -= unit.factors
    _supplied_first(p, limit.factors - total, tracing, where)


@rule("82.321A")
def _supplied_first(p: Play, allowance: int, tracing: list[Unit], where: str) -> None:
    """82.321A: the units inside a limited minor are supplied first; those tracing supply
    through it take what the limit leaves (`allowance` factors), in order."""
    cut = []
    for unit in tracing:
        if unit.factors <= allowance:
            allowance -= unit.factors
        else:
            cut.append(unit.id)
    if cut:
        message = "{} trace no supply through {}: the units inside come first"
        p.note("82.321A", message, ", ".join(cut), where)


def _eliminate(p: Play, unit: Unit, limit: Limit, why: str) -> None:
    p.board.drop_unit(unit.id, "eliminated")
    p.emit(UnitEliminated, unit.id, limit.clause, why)
