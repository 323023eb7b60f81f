"""Deployment of a minor's forces (82.5): who sets them up, when, and where.

An attacked European minor's forces appear when the declarations phase in which it was
attacked ends (82.53), set up by the power 82.52 names: by its own `deploy` command, or by
a documented default. A minor that associates or allies after a diplomatic result deploys
at once, set up by its new major (82.51).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import ClassVar

from attrs import evolve, field, frozen

from .._kernel.kind import Command, MinorName, factor_count
from .._kernel.rulebook import (
    Play,
    Refusal,
    at_phase_end,
    at_phase_start,
    at_start,
    candidates,
    check,
    handles,
    refuse,
    rule,
)
from ..domain import CommandKind, FootnoteKind, Side, Status, Theater
from ..domain.clock import Phase
from ..domain.events import UnitEliminated, UnitPlaced
from ..domain.records import Deployment
from ..domain.units import GROUND, Unit, UnitKind
from ..ruleset.records import COLUMNS, COMMONWEALTH_COLUMNS
from ..ruleset.tables import Ruleset
from .powers import faction_of
from .sequence import by_name

__all__ = [
    "Deploy",
    "Placement",
    "default_set_up",
    "deploy_now",
    "deploy_share",
    "force_specs",
    "schedule",
    "short_of_room",
]


@frozen
class Placement:
    """One unit of a `deploy` set-up: the minor's unit and the hex it deploys in."""

    id: str
    kind: UnitKind
    factors: int = field(validator=factor_count)
    hex: str


@frozen
class Deploy(Command):
    """The deploying power's own set-up of an attacked minor's forces (82.5)."""

    name: ClassVar[str] = CommandKind.DEPLOY
    minor: MinorName
    placements: tuple[Placement, ...]


Spec = tuple[str, str, int]
"""(id, kind, factors) of one unit of a force pool."""


def fresh(p: Play, specs: list[Spec]) -> list[Spec]:
    """The specs whose ids were never given in this game (K3: no id is given twice)."""
    return [s for s in specs if not p.board.used(s[0])]


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def force_specs(p: Play, minor: str) -> list[Spec]:
    """The units the 82.61 table gives a minor on deployment (partisans are built later),
    with the `§` footnote's named ships in place of the marked cell's."""
    return list(p.rs.derived(_pool, minor))


def _pool(rs: Ruleset, minor: str) -> tuple[Spec, ...]:
    row = rs.forces.get(minor)  # a `*` row stands for partisans only: nothing deploys
    if row is None or not rs.minors[minor].armed_forces:
        return ()
    specs: list[Spec] = []
    slug = _slug(minor)
    for column in COLUMNS[row.theater]:
        if column.startswith("partisans"):
            continue
        count = row.cell(column)
        assert isinstance(count, int)
        unit = rs.force_units[column]
        mark = row.marks.get(column)
        note = rs.force_footnotes.get(mark) if mark else None
        if note is not None and note.kind is FootnoteKind.SHIPS:
            for ship in note.ships:
                specs.append(
                    (
                        f"{slug}-{_slug(ship.name or ship.kind)}-{len(specs) + 1}",
                        unit.kind,
                        ship.factors or unit.factors,
                    )
                )
            continue
        for _ in range(count):
            specs.append((f"{slug}-{len(specs) + 1}", unit.kind, unit.factors))
    return tuple(specs)


def deploying_power(p: Play, attacker: str) -> str:
    """82.52: who sets up a minor `attacker` attacks, by the association table: the first of
    its faction's `deployed_by` still in the war (Britain, the U.S. while Britain is out,
    after an Axis attack; Germany after an Allied one)."""
    powers = p.rs.association[faction_of(p, attacker)].deployed_by
    return next((m for m in powers if m not in p.board.surrendered), powers[-1])


@rule("82.52", otherwise=None)
def schedule(p: Play, minor: str, attacker: str) -> Deployment | None:
    """82.52, 82.53, 82.56: an attack sets up the minor's forces when this declarations phase ends;
    forces already on the map stay, except a minor's after its border war when the power its row
    names attacks (Finland's or Rumania's, Germany: Britain sets them up again, 66.27, 67.27)."""
    record = p.rs.minors[minor]
    if record.theater is not Theater.EUROPE or not record.armed_forces:
        return None
    if not force_specs(p, minor):
        return None
    on_map = bool(p.board.units_of(minor))
    if not on_map and p.board.minors[minor].deployed:
        return None  # 82.51: it deployed once; what is gone is gone
    if on_map:
        war = p.rs.border_wars.get(minor)
        if (
            war is not None
            and war.redeploy_by
            and attacker == war.redeploy_when
            and war.attacker in p.board.minors[minor].direct_wars
        ):
            return Deployment(war.redeploy_by, p.board.clock, "82.52", None, redeploy=True)
        return None
    return Deployment(deploying_power(p, attacker), p.board.clock, "82.53")


# ---- the deploy command ----------------------------------------------------------------


@check(Deploy, "K1")
def _deploy_in_time(p: Play, cmd: Deploy) -> list[Refusal]:
    """A set-up is given from the declaration until the declarations phase ends (82.53)."""
    pending = p.board.minors[cmd.minor].deployment
    if pending is not None and pending.due == p.board.clock:
        return []
    message = (
        f"no deployment of {cmd.minor} is due now: a set-up is given in the declarations "
        "phase in which the minor was attacked"
    )
    return [refuse(message, minor=cmd.minor)]


@check(Deploy, "82.61")
def _deploy_matches_the_table(p: Play, cmd: Deploy) -> list[Refusal]:
    """The set-up deploys exactly the minor's forces of the 82.61 table."""
    pending = p.board.minors[cmd.minor].deployment
    redeploy = pending is not None and pending.redeploy
    if redeploy:
        units = p.board.units.values()
        wanted = sorted((u.id, u.kind.value, u.factors) for u in units if u.owner == cmd.minor)
    else:
        wanted = sorted(force_specs(p, cmd.minor))
    given = sorted((pl.id, pl.kind.value, pl.factors) for pl in cmd.placements)
    left_out = _left_out(wanted, given)  # 82.55 excuses what has no room (not on redeploy)
    if left_out is not None and (
        not left_out or (not redeploy and short_of_room(p, cmd.minor, left_out, cmd.placements))
    ):
        return []
    message = f"{cmd.minor}'s forces are {_describe(wanted)}, not {_describe(given)}"
    return [refuse(message, minor=cmd.minor)]


@check(Deploy, "K3")
def _deploy_new_ids(p: Play, cmd: Deploy) -> list[Refusal]:
    """K3: the units of a set-up take ids of their own, never given before."""
    ids = [pl.id for pl in cmd.placements]
    units, gone = p.board.units, p.board.gone
    taken = [i for i in ids if (i in units and units[i].owner != cmd.minor) or i in gone]
    if len(set(ids)) == len(ids) and not taken:
        return []
    return [refuse(f"unit ids must be new and distinct: {ids}", minor=cmd.minor)]


def _rest(wanted: list[Spec], given: Iterable[Spec]) -> tuple[list[tuple[str, int]], bool]:
    """`wanted` less `given`, by kind and factors (counted as many times as listed): the
    (kind, factors) left, and whether every unit given was among the wanted."""
    rest = [w[1:] for w in wanted]
    matched = True
    for g in given:
        if g[1:] in rest:
            rest.remove(g[1:])
        else:
            matched = False
    return rest, matched


def _left_out(wanted: list[Spec], given: list[Spec]) -> list[Spec] | None:
    """The forces a set-up leaves out (by kind and factors), or None if it gives a unit
    the forces do not hold."""
    rest, matched = _rest(wanted, given)
    return [("", kind, factors) for kind, factors in rest] if matched else None


@rule("82.55", otherwise=False)
def short_of_room(
    p: Play, minor: str, left_out: list[Spec], placements: tuple[Placement, ...]
) -> bool:
    """82.55 over 82.61 (a reading, docs/rules.md; a variant may replace it): a set-up may
    leave out the units that cannot legally deploy, and only those: ground and air units
    when every free hex is full to the stacking limit, naval units when the minor has no
    free hex. They are eliminated, as the default set-up eliminates them."""
    available = _available(p, minor)
    limit = p.rs.deployment["stacking"].units
    load = dict.fromkeys(available, 0)
    for pl in placements:
        if pl.hex in load and pl.kind is not UnitKind.NAVAL:
            load[pl.hex] += 1
    full = all(n >= limit for n in load.values())
    return all(not available if kind == UnitKind.NAVAL.value else full for _, kind, _ in left_out)


def _describe(specs: list[Spec]) -> str:
    counts: dict[str, int] = {}
    for _, kind, factors in specs:
        key = f"{kind} {factors}"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n}× {k}" for k, n in sorted(counts.items())) or "none"


@check(Deploy, "82.54")
def _one_in_the_capital(p: Play, cmd: Deploy) -> list[Refusal]:
    """82.54: at least one ground unit deploys in the capital."""
    capital = p.rs.minors[cmd.minor].capital
    if (
        not capital
        or capital not in _available(p, cmd.minor)
        or any(pl.hex == capital and pl.kind in GROUND for pl in cmd.placements)
    ):
        return []
    message = f"a ground unit of {cmd.minor} must deploy in its capital {capital}"
    return [refuse(message, capital=capital)]


@check(Deploy, "82.55")
def _hexes_and_stacking(p: Play, cmd: Deploy) -> list[Refusal]:
    """82.55: only the minor's own free hexes, within the stacking limit."""
    available = _available(p, cmd.minor)
    limit = p.rs.deployment["stacking"].units
    found = []
    load: dict[str, int] = {}
    for pl in cmd.placements:
        if pl.hex not in available:
            message = (
                f"{pl.id} cannot deploy in {pl.hex!r}: not a free hex of {cmd.minor} (free: "
                f"{', '.join(available) or 'none'})"
            )
            found.append(refuse(message, hex=pl.hex))
        elif pl.kind is not UnitKind.NAVAL:
            load[pl.hex] = load.get(pl.hex, 0) + 1
    for hex_label, count in sorted(load.items()):
        if count > limit:
            message = f"{count} units in {hex_label} exceed the stacking limit of {limit}"
            found.append(refuse(message, hex=hex_label))
    return found


@candidates(Deploy)
def _default_set_ups(p: Play) -> Iterator[Deploy]:
    """The default set-up of each deployment due now (a redeployment is not offered)."""
    for name in p.rs.minors:
        due = p.board.minors[name].deployment
        if due is not None and due.due == p.board.clock and not due.redeploy:
            placed, _ = default_set_up(p, name, force_specs(p, name))
            yield Deploy(name, tuple(Placement(i, UnitKind(k), f, h) for (i, k, f), h in placed))


@handles(Deploy)
def _deploy(p: Play, cmd: Deploy) -> None:
    state = p.board.minors[cmd.minor]
    assert state.deployment is not None
    chosen = tuple((pl.id, pl.kind.value, pl.factors, pl.hex) for pl in cmd.placements)
    p.board.update(cmd.minor, deployment=evolve(state.deployment, placements=chosen))
    p.note("82.52", "{} sets up {}'s forces", state.deployment.by, cmd.minor)


# ---- setting up ---------------------------------------------------------------------------


def _available(p: Play, minor: str) -> list[str]:
    """82.55: the minor's hexes without garrisoning or enemy units, in table order."""
    occupied = {u.hex for u in p.board.units_in(minor) if u.owner != minor and u.hex}
    return [h for h in p.rs.minors[minor].hexes if h not in occupied]


def default_set_up(
    p: Play, minor: str, specs: list[Spec]
) -> tuple[list[tuple[Spec, str]], list[Spec]]:
    """The documented default set-up: one ground unit (the strongest) in the capital (82.54), then
    ground, air and naval units in table order, each in the first free hex with room (capital
    first); naval units in the capital. What finds no room is returned as eliminated (82.55)."""
    available = _available(p, minor)
    capital = p.rs.minors[minor].capital
    order = ([capital] if capital in available else []) + [h for h in available if h != capital]
    limit = p.rs.deployment["stacking"].units
    load = dict.fromkeys(order, 0)
    placed: list[tuple[Spec, str]] = []
    lost: list[Spec] = []
    ground = sorted((s for s in specs if s[1] in ("infantry", "armor")), key=lambda s: -s[2])
    rest = [s for s in specs if s not in ground]
    for spec in ground + rest:
        if spec[1] == "naval":
            if order:
                placed.append((spec, order[0]))
            else:
                lost.append(spec)
            continue
        target = next((h for h in order if load[h] < limit), None)
        if target is None:
            lost.append(spec)
            continue
        load[target] += 1
        placed.append((spec, target))
    return placed, lost


def _set_up(
    p: Play,
    minor: str,
    by: str,
    rule: str,
    chosen: tuple[tuple[str, str, int, str], ...] | None,
    redeploy: bool,
) -> None:
    if redeploy:
        existing = {u.id: u for u in p.board.units.values() if u.owner == minor}
        for unit_id, _, _, hex_label in chosen or ():
            p.board.put_unit(evolve(existing[unit_id], hex=hex_label))
        p.note(rule, "{} sets up {}'s forces again", by, minor)
        return
    p.board.update(minor, deployed=True)
    if chosen is not None:
        placed = [((i, k, f), h) for i, k, f, h in chosen]
        lost = _not_chosen(p, minor, chosen)  # 82.55: left out for want of room
    else:
        placed, lost = default_set_up(p, minor, fresh(p, force_specs(p, minor)))
    for (unit_id, kind, factors), hex_label in placed:
        p.board.put_unit(Unit(unit_id, minor, UnitKind(kind), factors, minor, hex_label))
        p.emit(UnitPlaced, unit_id, minor, rule)
    if not _no_room(p, minor, lost):  # 82.55 switched off: they crowd the capital
        capital = p.rs.minors[minor].capital or None
        for unit_id, kind, factors in lost:
            p.board.put_unit(Unit(unit_id, minor, UnitKind(kind), factors, minor, capital))


def _not_chosen(p: Play, minor: str, chosen: tuple[tuple[str, str, int, str], ...]) -> list[Spec]:
    """The forces a `deploy` set-up left out (82.55), under their table ids: those of the
    same kind and factors that the set-up's own ids do not take."""
    specs = fresh(p, force_specs(p, minor))
    ids = {c[0] for c in chosen}
    pool = [s for s in specs if s[0] not in ids]
    rest, _ = _rest(specs, (c[:3] for c in chosen))  # a unit the forces lack: not in `rest`
    lost: list[Spec] = []
    for kind, factors in rest:
        spec = next((s for s in pool if s[1:] == (kind, factors)), None)
        if spec is not None:
            pool.remove(spec)
            lost.append(spec)
    return lost


@rule("82.55", otherwise=False)
def _no_room(p: Play, minor: str, lost: list[Spec]) -> bool:
    """82.55: units that find no free hex with room are eliminated."""
    for unit_id, _, _ in lost:
        p.board.write("gone", unit_id, "eliminated")
        p.emit(UnitEliminated, unit_id, "82.55", f"no free hex of {minor} for it")
    return True


@at_phase_end(Phase.DECLARATIONS)
@rule("82.53")
def _deployments_due(p: Play, side: Side) -> None:
    """82.53: when the attacker's declarations phase ends, attacked minors set up."""
    for name in by_name(p):
        pending = p.board.minors[name].deployment
        if pending is None or pending.due != p.board.clock:
            continue
        p.board.update(name, deployment=None)
        _set_up(p, name, pending.by, pending.rule, pending.placements, pending.redeploy)


@rule("82.51")
def deploy_now(p: Play, minor: str, by: str) -> None:
    """82.51: a minor that associates or allies after a diplomatic result deploys at once,
    set up by its new major (by the default set-up)."""
    if p.rs.minors[minor].theater is not Theater.EUROPE:
        return
    if bool(p.board.units_of(minor)) or p.board.minors[minor].deployed:
        return  # its forces are on the map, or were and are gone (it deploys once)
    _set_up(p, minor, by, "82.51", None, redeploy=False)


# ---- at the start, and the Commonwealth's arrivals ----------------------------------------


def commonwealth_units(p: Play, country: str, arrival: str) -> list[Spec]:
    """The units of one arrival of the British Commonwealth table: each count n (or n[m])
    is n units of its column's kind (`force_units`)."""
    specs: list[Spec] = []
    rows = [r for r in p.rs.commonwealth.values() if r.country == country and r.arrival == arrival]
    if not rows:
        return specs
    slug = _slug(country)
    serial = len(p.board.owned.get(country, ())) + len(
        [i for i in p.board.gone if i.startswith(f"{slug}-")]
    )
    for row in rows:
        for column in COMMONWEALTH_COLUMNS:
            count = getattr(row, column).value
            unit = p.rs.force_units[column]
            for _ in range(count):
                serial += 1
                specs.append((f"{slug}-{serial}", unit.kind, unit.factors))
    return specs


def _place_at_home(p: Play, country: str, specs: list[Spec], rule: str) -> None:
    capital = p.rs.minors[country].capital or None
    for unit_id, kind, factors in specs:
        p.board.put_unit(Unit(unit_id, country, UnitKind(kind), factors, country, capital))
        p.emit(UnitPlaced, unit_id, country, rule)


@at_start
@rule("82.53")
def attacked_before_the_start(p: Play) -> None:
    """82.12, 82.52, 82.53: a European minor already attacked when the game starts (W.
    Poland in Fall 1939) sets up its forces as if the war had begun in play: when the
    declarations phase of its attack ends, or at once if that phase is over. (Pacific minors
    stand deployed from the start anyway, 82.92.)"""
    for name in by_name(p):
        state = p.board.minors[name]
        if state.attacked_by is None or state.deployment is not None or not state.active:
            continue
        deployment = schedule(p, name, state.attacked_by)
        if deployment is None:
            continue
        due = state.attacked_at or p.board.clock
        if due < p.board.clock:
            _set_up(p, name, deployment.by, deployment.rule, None, deployment.redeploy)
        else:
            p.board.update(name, deployment=evolve(deployment, due=due))


@at_start
@rule("82.92")
def pacific_at_start(p: Play) -> None:
    """82.92: at the start every Pacific minor's units stand deployed in its home country
    (the default set-up)."""
    for name, record in p.rs.minors.items():
        if record.theater is Theater.PACIFIC and record.armed_forces and name in p.rs.forces:
            by = p.board.minors[name].major or name
            _set_up(p, name, by, "82.92", None, redeploy=False)


@at_start
@rule("82.61")
def commonwealth_at_start(p: Play) -> None:
    """The British Commonwealth table: each country's units at start stand in its capital."""
    for country in p.rs.commonwealth_layout:
        _place_at_home(p, country, commonwealth_units(p, country, "at_start"), "82.61")


@at_phase_start(Phase.DIPLOMACY)
@rule("82.61")
def _commonwealth_arrivals(p: Play, side: Side) -> None:
    """The Commonwealth's later arrivals appear at the start of their season."""
    if side is not Side.AXIS:
        return
    season = f"{p.board.clock.year}-{p.board.clock.season.value}"
    for country in p.rs.commonwealth_layout:
        if p.board.minors[country].status is Status.CONQUERED:
            continue  # a conquered country raises no more forces
        specs = commonwealth_units(p, country, season)
        if specs:
            _place_at_home(p, country, specs, "82.61")


def deploy_share(p: Play, minor: str, by: str, share: Fraction) -> None:
    """82.63: deploy `share` of the minor's forces (rounded down) by the default set-up."""
    specs = force_specs(p, minor)
    specs = fresh(p, specs[: int(len(specs) * share)])
    placed, lost = default_set_up(p, minor, specs)
    for (unit_id, kind, factors), hex_label in placed:
        p.board.put_unit(Unit(unit_id, minor, UnitKind(kind), factors, minor, hex_label))
        p.emit(UnitPlaced, unit_id, minor, "82.63")
    if lost:
        _no_room(p, minor, lost)
