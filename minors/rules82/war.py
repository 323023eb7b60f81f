"""War: declarations on minors and majors (82.34-82.36, 82.41, 82.42), border wars,
subversion, refusal of association, surrender and re-entry."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import ClassVar

from attrs import evolve, frozen

from .._kernel.kind import Command, CountryName, HexLabel, MajorName, MinorName
from .._kernel.rulebook import Play, Refusal, at_start, candidates, check, handles, refuse, rule
from .._kernel.state import Minor
from ..domain import CommandKind, LedgerKind, Status, Theater
from ..domain.clock import Moment, Phase
from ..domain.events import BrpChange, UnitMoved, WarEnded
from ..domain.records import LedgerEntry, Pending
from ..domain.units import GROUND
from ..ruleset.tables import Ruleset
from .deployment import schedule
from .diplomacy import PEACE, apply_result, lift_deadlines
from .machine import Trigger, fired
from .powers import add_war, allies, at_war, enemies, faction_of, side_of
from .sequence import advice, by_name, out_of_turn
from .survival import attack_renews, on_attack, on_war_between_majors, resolve_pending
from .ties import TIED, refresh_wars, set_status, tie_rule

__all__ = [
    "BorderWar",
    "DeclareWar",
    "ReenterWar",
    "RefuseAssociation",
    "Subvert",
    "Surrender",
    "attack",
    "attacks_before_the_start",
    "garrisons",
    "start_attack_date",
    "subversion",
    "vichy",
]


@frozen
class DeclareWar(Command):
    """`attacker` declares war on `target`, a minor country or a major power (82.41)."""

    name: ClassVar[str] = CommandKind.DECLARE_WAR
    attacker: MajorName
    target: CountryName
    displace: HexLabel | None = None
    """82.56: the hex next to the capital the attacker's units there move to."""


@frozen
class BorderWar(Command):
    """Russia attacks Finland or Rumania without a declaration (82.41 exception, 66.2, 67.2)."""

    name: ClassVar[str] = CommandKind.BORDER_WAR
    attacker: MajorName
    target: CountryName


@frozen
class Subvert(Command):
    """Communist subversion of a minor (82.36): legal despite a German garrison."""

    name: ClassVar[str] = CommandKind.SUBVERT
    major: MajorName
    minor: MinorName


@frozen
class RefuseAssociation(Command):
    """82.81D: `major` refuses the association of `minor`."""

    name: ClassVar[str] = CommandKind.REFUSE_ASSOCIATION
    major: MajorName
    minor: MinorName


@frozen
class Surrender(Command):
    """The major power surrenders (82.81C; France's fall, 82.91F)."""

    name: ClassVar[str] = CommandKind.SURRENDER
    major: MajorName


@frozen
class ReenterWar(Command):
    """A surrendered major power re-enters the war (82.81C)."""

    name: ClassVar[str] = CommandKind.REENTER_WAR
    major: MajorName


TIED_OR_CONQUERED = TIED | {Status.CONQUERED}
"""The statuses `tie_rule` names a clause for: war is made on the major instead."""


def garrisons(p: Play, minor: str, attacker: str) -> list[str]:
    """Majors other than the attacker's faction with units in `minor`, most factors first."""
    own = faction_of(p, attacker)
    factors: dict[str, int] = {}
    for unit in p.board.units_in(minor):
        if unit.owner in p.rs.majors and faction_of(p, unit.owner) is not own:
            factors[unit.owner] = factors.get(unit.owner, 0) + unit.factors
    return sorted(factors, key=lambda m: (-factors[m], m))


# ---- checks of declarations and border wars --------------------------------------------


def _not_at_war_yet(p: Play, attacker: str, target: str) -> list[Refusal]:
    """K2: war is made by a power still in the war, on a major power of another faction
    still in the war or a minor, neither at war with the attacker already."""
    found = []
    if attacker in p.board.surrendered:
        found.append(refuse(f"{attacker} has surrendered", major=attacker))
    if target in p.rs.majors:
        if target == attacker or faction_of(p, target) is faction_of(p, attacker):
            message = f"{attacker} cannot declare war on its own faction's {target}"
            found.append(refuse(message, target=target))
        elif at_war(p, attacker, target):
            found.append(refuse(f"{attacker} is already at war with {target}", target=target))
        elif target in p.board.surrendered:
            found.append(refuse(f"{target} has surrendered", target=target))
    else:
        state = p.board.minors[target]
        if state.active and attacker in state.at_war_with:
            found.append(refuse(f"{attacker} is already at war with {target}", minor=target))
    return found


@check((DeclareWar, BorderWar), "K7")
def _on_a_minor_in_play(p: Play, cmd: DeclareWar | BorderWar) -> list[Refusal]:
    """K7: a minor is attacked only while it is in play."""
    state = p.board.minors.get(cmd.target)
    if state is None or state.active:
        return []
    return [refuse(f"{cmd.target} is not in play", minor=cmd.target)]


def _tied_to(p: Play, attacker: str, target: str, clause: str) -> list[Refusal]:
    """A war on a minor that `clause` ties to a major (82.12 colonies, 82.13 the Commonwealth, 82.93
    Pacific minors, 82.42 associates, allies and conquests), by a power not at war with it through
    that major, is made on the major (a conquered minor is attacked without one)."""
    state = p.board.minors.get(target)
    if (
        state is None
        or state.status not in TIED_OR_CONQUERED
        or attacker in state.at_war_with
        or tie_rule(p.rs, state) != clause
    ):
        return []
    major = state.major
    if state.status is Status.CONQUERED:
        return [
            refuse(
                lambda: (
                    f"{target} is conquered by {major}: it is attacked without a declaration of war"
                ),
                minor=target,
            )
        ]
    status = state.status
    return [
        refuse(
            lambda: (
                f"{target} is {status.value} with {major}: it shares {major}'s wars "
                f"({advice(p, attacker, major or target)})"
            ),
            minor=target,
            major=major,
        )
    ]


def _garrisoned(p: Play, attacker: str, target: str, major: str) -> str:
    return f"{major} garrisons {target}: war on it first ({advice(p, attacker, major)})"


@check((DeclareWar, BorderWar), "82.34")
def _garrison_needs_war(p: Play, cmd: DeclareWar | BorderWar) -> list[Refusal]:
    """82.34: a garrisoned minor may be attacked only by a power at war with the garrison."""
    attacker, target = cmd.attacker, cmd.target
    if target in p.rs.majors or not p.board.occupied(target):
        return []
    return [
        refuse(functools.partial(_garrisoned, p, attacker, target, major), garrison=major)
        for major in garrisons(p, target, attacker)
        if not at_war(p, attacker, major)
    ]


@check(DeclareWar, "K1", batched=True)
def _declare_in_phase(p: Play, cmd: DeclareWar) -> list[Refusal]:
    return out_of_turn(p, cmd.attacker, Phase.DECLARATIONS, "a declaration of war belongs")


@check(DeclareWar, "K2")
def _declare_not_at_war_yet(p: Play, cmd: DeclareWar) -> list[Refusal]:
    return _not_at_war_yet(p, cmd.attacker, cmd.target)


@check((DeclareWar, BorderWar), "82.12")
def _no_war_on_a_colony(p: Play, cmd: DeclareWar | BorderWar) -> list[Refusal]:
    """82.12 (and 82.13, 82.42, 82.93 below): a declaration or border war on a minor tied
    to a major, or conquered, is made on its major."""
    return _tied_to(p, cmd.attacker, cmd.target, "82.12")


@check((DeclareWar, BorderWar), "82.13")
def _no_war_on_the_commonwealth(p: Play, cmd: DeclareWar | BorderWar) -> list[Refusal]:
    return _tied_to(p, cmd.attacker, cmd.target, "82.13")


@check((DeclareWar, BorderWar), "82.42")
def _no_war_on_an_associate_or_ally(p: Play, cmd: DeclareWar | BorderWar) -> list[Refusal]:
    return _tied_to(p, cmd.attacker, cmd.target, "82.42")


@check((DeclareWar, BorderWar), "82.93")
def _no_war_on_a_tied_pacific_minor(p: Play, cmd: DeclareWar | BorderWar) -> list[Refusal]:
    return _tied_to(p, cmd.attacker, cmd.target, "82.93")


@check(DeclareWar, "82.56", batched=True)  # reads `displace`, None in every batch listed
def _displace_next_to_capital(p: Play, cmd: DeclareWar) -> list[Refusal]:
    """82.56: the displaced units go to a hex adjacent to the capital."""
    if cmd.displace is None:
        return []
    record = p.rs.minors.get(cmd.target)
    if record is not None and cmd.displace in record.capital_adjacent:
        return []
    adjacent = ", ".join(record.capital_adjacent) if record else "none"
    message = f"{cmd.displace!r} is not next to {cmd.target}'s capital (adjacent: {adjacent})"
    return [refuse(message, displace=cmd.displace)]


@check(BorderWar, "K1", batched=True)
def _border_in_phase(p: Play, cmd: BorderWar) -> list[Refusal]:
    return out_of_turn(p, cmd.attacker, Phase.DECLARATIONS, "a border war belongs")


@check(BorderWar, "82.41")
def _border_war_pair(p: Play, cmd: BorderWar) -> list[Refusal]:
    """82.41: only the border wars of the tables (Russia's on Finland or Rumania, 66.2,
    67.2) need no declaration."""
    row = p.rs.border_wars.get(cmd.target)
    if row is not None and row.attacker == cmd.attacker:
        return []
    wars = "; ".join(f"{r.attacker} against {m}" for m, r in p.rs.border_wars.items())

    def message() -> str:
        tail = advice(p, cmd.attacker, cmd.target)
        return f"{cmd.attacker} has no border war with {cmd.target}: only {wars or 'none'} ({tail})"

    return [refuse(message, attacker=cmd.attacker, target=cmd.target)]


@check(BorderWar, "K2")
def _border_not_at_war_yet(p: Play, cmd: BorderWar) -> list[Refusal]:
    if cmd.target not in p.rs.minors:
        return []  # 82.41 refuses a border war on a major power
    return _not_at_war_yet(p, cmd.attacker, cmd.target)


# ---- declarations: effects -------------------------------------------------------------


@handles(DeclareWar)
def _declare_war(p: Play, cmd: DeclareWar) -> None:
    if cmd.target in p.rs.majors:
        _pay(p, cmd.attacker, "declare_war_major", f"war on {cmd.target}")
        add_war(p, cmd.attacker, cmd.target, "K2", f"{cmd.attacker} declares war")
        refresh_wars(p, majors=(cmd.attacker, cmd.target))
        on_war_between_majors(p, cmd.attacker, cmd.target)
        return
    _pay(p, cmd.attacker, "declare_war_minor", f"war on {cmd.target}")
    attack(p, cmd.attacker, cmd.target, "82.41", f"{cmd.attacker} declares war", cmd.displace)


@handles(BorderWar)
def _border_war(p: Play, cmd: BorderWar) -> None:
    attack(p, cmd.attacker, cmd.target, "82.41", f"{cmd.attacker}'s border war")


def _countries(rs: Ruleset) -> tuple[str, ...]:
    """Every major power and minor country, in table order."""
    return (*rs.majors, *rs.minors)


@functools.lru_cache(maxsize=1 << 10)
def _declarations_by(attacker: str, targets: tuple[str, ...]) -> tuple[DeclareWar, ...]:
    """`attacker`'s declaration on each of `targets`, made once: commands are immutable."""
    return tuple(DeclareWar(attacker, t) for t in targets)


@candidates(DeclareWar)
def _declarations(p: Play) -> Iterator[tuple[DeclareWar, ...]]:
    """Every major power's declaration on every country, a batch per attacker (K1 and 82.56 read
    only the attacker and `displace`); an attacker K1 refuses is left out whole."""
    targets = p.rs.derived(_countries)
    for attacker in p.rs.majors:
        batch = _declarations_by(attacker, targets)
        if not p.rules.refuses(_declare_in_phase, p, batch[0]):
            yield batch


@candidates(BorderWar)
def _border_wars(p: Play) -> Iterator[tuple[BorderWar, ...]]:
    """The border war of each row of the tables, while 82.41 (as written) allows those
    alone; otherwise each major power's on each minor, a batch per attacker."""
    rows = p.rs.border_wars
    if p.rules.on("82.41") and p.rules.as_written(_border_war_pair):
        for target, row in rows.items():
            yield (BorderWar(row.attacker, target),)
        return
    for attacker in p.rs.majors:
        yield tuple(BorderWar(attacker, minor) for minor in p.rs.minors)


@rule("K6")
def _pay(p: Play, major: str, cost: str, what: str) -> None:
    """Declaring war costs BRPs: 10 on a minor (82.62 repeats it), 35 on a major power."""
    brps = p.rs.costs[cost].brps
    entry = LedgerEntry(
        p.board.next_seq(), major, -brps, LedgerKind.COST, "K6", p.board.clock, minor=None
    )
    p.board.record(entry)
    p.emit(BrpChange, entry, "K6")


def attack(
    p: Play, attacker: str, minor: str, clause: str, cause: str, displace: str | None = None
) -> None:
    """A major power attacks a minor: bars, control, wars, status and survival."""
    state = p.board.minors[minor]
    first = state.attacked_by is None
    changes: dict[str, object] = {
        "direct_wars": tuple(sorted({*state.direct_wars, attacker})),
        "attacked_by": attacker if first else state.attacked_by,
        "attacked_at": p.board.clock if first else state.attacked_at,
    }
    barred = _bar(p, state, attacker)
    if barred is not None:
        changes["barred"] = barred
    if _end_own_control(p, state, attacker):
        changes["standing"] = None
    invaded = _invasion_supply(p, minor, attacker)
    if invaded:
        changes["invaded"], changes["invaded_at"] = invaded, p.board.clock
    _displace(p, minor, attacker, displace)
    garrison = _garrison_partner(p, minor, barred or state.barred, attacker)
    dest = fired(state.status, Trigger.ATTACK, garrison is not None)
    if dest is None:  # a status an attack cannot change: only with a check switched off
        dest = state.status
    deployment = schedule(p, minor, attacker)
    if deployment is not None:
        changes["deployment"] = deployment
    if dest is Status.ASSOCIATED:
        assert garrison is not None
        changes["deadlines"] = lift_deadlines(
            p, minor, state.deadlines, side_of(p, garrison), f"it associates with {garrison}"
        )
        set_status(
            p, state, dest, garrison, "82.34", f"{cause}; {garrison} garrisons it", **changes
        )
        return
    if state.pending is None or attack_renews(p, state, attacker):
        pending = on_attack(p, minor, attacker)
        if pending is not None:
            changes["pending"] = pending
    set_status(p, state, dest, None, clause, cause, **changes)
    scheduled = changes.get("pending")
    if isinstance(scheduled, Pending) and scheduled.due is not None:
        p.note(
            scheduled.rule, "{} will associate with {} at {} if it survives",
            minor, scheduled.partner, scheduled.due,
        )  # fmt: skip


@at_start
@rule("82.12")
def attacks_before_the_start(p: Play) -> None:
    """82.12, 82.351, 82.81: a minor the start puts at war (W. Poland in Fall 1939, attacked
    by Germany) holds what it would hold had the war begun in play: the date of its attack
    (`start_attack_date` when the start gives none), the status an attack gives a minor at
    peace (82.11B: independent, where the start left it neutral), the 82.351 bar on each
    attacker and its major-power allies and, in Europe, its 82.81 association unless the
    start schedules one (taking effect at once if its moment is past). Its forces are set
    up by `deployment.attacked_before_the_start` (82.53)."""
    for name in by_name(p):
        state = p.board.minors[name]
        if not state.direct_wars or state.status in TIED or state.attacked_by is None:
            continue
        at = state.attacked_at or start_attack_date(p, state.attacked_by)
        changes: dict[str, object] = {"attacked_at": at}
        if state.active and state.status in PEACE:  # the start gave wars, not their status
            dest = fired(state.status, Trigger.ATTACK, False)  # no garrison at the start
            if dest is not None:
                changes["status"] = dest
        barred = set(state.barred)
        for attacker in state.direct_wars:
            found = _bar(p, state, attacker)
            if found is not None:
                barred.update(found)
        changes["barred"] = tuple(sorted(barred))
        european = p.rs.minors[name].theater is Theater.EUROPE
        pending = None
        if (
            state.pending is None
            and european
            and state.active
            and changes.get("status", state.status) is Status.INDEPENDENT
        ):
            pending = changes["pending"] = on_attack(p, name, state.attacked_by, at)
        p.board.update(name, **changes)  # the row changes in place: `state` reads the new values
        if pending is not None and pending.due is not None:
            if pending.due <= p.board.clock:
                resolve_pending(p, name, f"survived its attack before the start ({pending.rule})")
            else:
                p.note(
                    pending.rule, "{} will associate with {} at {} if it survives",
                    name, pending.partner, pending.due,
                )  # fmt: skip


@rule("82.12")
def start_attack_date(p: Play, attacker: str) -> Moment | None:
    """82.12, 82.53 (a reading, docs/rules.md; a variant may replace it): a war the start
    gives a minor without a date (`attacked_at`) was declared in the attacker's
    declarations phase of the start's game turn, as the built-in start dates September
    1939's: a start before that phase sets the forces up when it ends, one after it finds
    them set up. None (no date) while 82.12 is switched off."""
    clock = p.board.clock
    return Moment.of(clock.year, clock.season, side_of(p, attacker), Phase.DECLARATIONS)


@rule("82.56", otherwise=())
def _invasion_supply(p: Play, minor: str, attacker: str) -> tuple[str, ...]:
    """82.56: when the attacker already has units in the minor, every major power's unit
    there is in at least partial supply for the turn of the invasion."""
    if not p.board.occupied(minor):
        return ()
    here = [u for u in p.board.units_in(minor) if u.owner in p.rs.majors]
    if not any(u.owner == attacker for u in here):
        return ()
    return tuple(sorted(u.id for u in here))


@rule("82.352")
def _displace(p: Play, minor: str, attacker: str, displace: str | None) -> None:
    """82.352 (by 82.56): when the attacker already has units in the minor, its and its
    allies' ground units in the capital move to a hex next to it, the one the attacker names
    or, by default, the first listed, before the minor's forces deploy."""
    record = p.rs.minors[minor]
    if not p.board.occupied(minor) or not record.capital or not record.capital_adjacent:
        return
    target = displace or record.capital_adjacent[0]
    friends = set(allies(p, attacker))
    for unit in sorted(p.board.units_in(minor), key=lambda u: u.id):
        if unit.hex == record.capital and unit.owner in friends and unit.kind in GROUND:
            p.board.put_unit(evolve(unit, hex=target))
            p.emit(UnitMoved, unit.id, f"{minor} ({target})", "82.56")


@rule("82.351", otherwise=None)
def _bar(p: Play, state: Minor, attacker: str) -> tuple[str, ...] | None:
    """82.351: the attacker and its major-power allies may never take the minor as an
    associate or ally."""
    return tuple(sorted({*state.barred, *allies(p, attacker)}))


@rule("82.35", otherwise=False)
def _end_own_control(p: Play, state: Minor, attacker: str) -> bool:
    """82.35: a power may declare war on a minor it (or its side) controls; its standing
    ends. Its BRP grants stay until a reversal or a conquest by another power deducts them
    (82.22 names no other case; docs/rules.md)."""
    holding = state.standing
    if holding is None or side_of(p, holding.major) is not side_of(p, attacker):
        return False
    p.note("82.35", "{}'s hold on {} ends", holding.major, state.name)
    return True


@rule("82.81A", otherwise=None)
def _garrison_partner(p: Play, minor: str, barred: tuple[str, ...], attacker: str) -> str | None:
    """82.81A (82.34): the garrisoning major at war with the attacker that the minor
    associates with at once, if it is not barred (82.351)."""
    if not p.board.occupied(minor):
        return None
    for major in garrisons(p, minor, attacker):
        if at_war(p, major, attacker) and major not in barred:
            return major
    return None


# ---- subversion -------------------------------------------------------------------------


@check(Subvert, "K1", batched=True)
def _subvert_in_phase(p: Play, cmd: Subvert) -> list[Refusal]:
    return out_of_turn(p, cmd.major, Phase.DIPLOMACY, "subversion belongs")


@check(Subvert, "82.36", batched=True)
def _subversion_is_communist(p: Play, cmd: Subvert) -> list[Refusal]:
    """82.36: subversion is Communist."""
    if p.rs.majors[cmd.major].communist:
        return []
    return [refuse(f"subversion is Communist: {cmd.major} cannot subvert", major=cmd.major)]


@check(Subvert, "82.36")
def _subvert_eligible(p: Play, cmd: Subvert) -> list[Refusal]:
    """82.36: an eligible minor is subverted; a German garrison does not stop it
    (eligibility: a minor at peace in play; the subversion rule itself is not given)."""
    state = p.board.minors[cmd.minor]
    if state.status in PEACE and state.active:
        return []
    message = f"{cmd.minor} is {state.status.value}: only a minor at peace can be subverted"
    return [refuse(message, minor=cmd.minor)]


@handles(Subvert)
def _subvert(p: Play, cmd: Subvert) -> None:
    subversion(p, cmd.major, cmd.minor)


@functools.lru_cache(maxsize=1 << 10)
def _subversions_by(major: str, minors: tuple[str, ...]) -> tuple[Subvert, ...]:
    """`major`'s subversion of each of `minors`, made once: commands are immutable."""
    return tuple(Subvert(major, minor) for minor in minors)


@candidates(Subvert)
def _subversions(p: Play) -> Iterator[tuple[Subvert, ...]]:
    """Each major power's subversion of each minor, a batch per major (K1 and the
    Communist test of 82.36 read only the major); a major they refuse is left out whole."""
    minors = tuple(p.rs.minors)
    for major in p.rs.majors:
        batch = _subversions_by(major, minors)
        if not p.rules.refuses(_subvert_in_phase, p, batch[0]) and not p.rules.refuses(
            _subversion_is_communist, p, batch[0]
        ):
            yield batch


@rule("82.36", name="subversion")
def subversion(p: Play, major: str, minor: str) -> None:
    """82.36, a rule a rulebook may replace (`subversion`): the subversion rule itself is not
    in rule 82; by default a success counts as a −1 result for `major` (control of the
    minor's hexes and all its BRPs)."""
    apply_result(p, minor, major, -1, clause="82.36")


# ---- refusal of association -------------------------------------------------------------


@check(RefuseAssociation, "82.81D")
def _refusal_in_time(p: Play, cmd: RefuseAssociation) -> list[Refusal]:
    """82.81D: a refusal is possible from the attack until the association takes effect."""
    state = p.board.minors[cmd.minor]
    pending = state.pending
    if pending is not None and state.status is Status.INDEPENDENT and pending.partner == cmd.major:
        return []
    if state.status is Status.ASSOCIATED and state.major == cmd.major:
        message = (
            f"{cmd.minor}'s association with {cmd.major} has already taken effect: it can no "
            "longer be refused"
        )
        return [refuse(message, minor=cmd.minor)]
    if pending is None or state.status is not Status.INDEPENDENT:
        message = (
            f"no association of {cmd.minor} is pending: it has not been attacked, or its fate "
            "is settled"
        )
        return [refuse(message, minor=cmd.minor)]
    message = f"{cmd.minor} would associate with {pending.partner}, not {cmd.major}"
    return [refuse(message, partner=pending.partner)]


@candidates(RefuseAssociation)
def _refusals(p: Play) -> Iterator[RefuseAssociation]:
    """A refusal by each major power of each association pending (none is worth trying
    where none is pending)."""
    for name in p.rs.minors:
        if p.board.minors[name].pending is not None:
            for major in p.rs.majors:
                yield RefuseAssociation(major, name)


@handles(RefuseAssociation)
def _refuse(p: Play, cmd: RefuseAssociation) -> None:
    state = p.board.minors[cmd.minor]
    refused = tuple(sorted({*state.refused_by, cmd.major}))
    p.board.update(cmd.minor, pending=None, refused_by=refused)
    p.note("82.81D", "{} refuses {}'s association: it stays independent", cmd.major, cmd.minor)


# ---- surrender and re-entry -------------------------------------------------------------


@check(Surrender, "K2")
def _can_surrender(p: Play, cmd: Surrender) -> list[Refusal]:
    if cmd.major not in p.board.surrendered:
        return []
    return [refuse(f"{cmd.major} has already surrendered", major=cmd.major)]


@candidates(Surrender)
def _surrenders(p: Play) -> Iterator[Surrender]:
    yield from (Surrender(m) for m in p.rs.majors)


@handles(Surrender)
def _surrender(p: Play, cmd: Surrender) -> None:
    foes = tuple(enemies(p, cmd.major))
    p.board.replace("surrendered", {**p.board.surrendered, cmd.major: foes})
    if cmd.major not in p.board.fallen:
        p.board.replace("fallen", {**p.board.fallen, cmd.major: p.board.clock})
    p.board.replace("wars", {pair: m for pair, m in p.board.wars.items() if cmd.major not in pair})
    for enemy in foes:
        p.emit(WarEnded, cmd.major, enemy, "K2", f"{cmd.major} surrenders")
    refresh_wars(p, "K2", (cmd.major, *foes))
    _free_french(p, cmd.major)
    vichy(p)


@rule("K2", name="vichy")
def vichy(p: Play) -> None:
    """France's fall, a rule a rulebook may replace (`vichy`; rule 77 is not given): by
    default a minor that appears on a power's fall (Vichy France, on France's) comes into
    play as a neutral minor once that power has fallen."""
    for name, record in p.rs.minors.items():
        state = p.board.minors[name]
        if record.appears_on_fall_of in p.board.fallen and not state.active:
            p.board.update(name, active=True, status=Status.NEUTRAL)


@rule("82.91F")
def _free_french(p: Play, fallen: str) -> None:
    """82.91F: when a power falls, its colonies that another power controls turn to that
    power: France's Pacific islands under British control turn Free French, read as
    associated with Britain (Free French fight under British command, A25.4)."""
    for name, record in p.rs.minors.items():
        state = p.board.minors[name]
        if record.colony_of != fallen or state.status is not Status.COLONY:
            continue
        if state.major is None or state.major == fallen:
            continue
        dest = fired(state.status, Trigger.FREE_FRENCH)
        assert dest is not None
        set_status(p, state, dest, state.major, "82.91F", f"{fallen} has fallen: Free French")


@check(ReenterWar, "K2")
def _can_reenter(p: Play, cmd: ReenterWar) -> list[Refusal]:
    if cmd.major in p.board.surrendered:
        return []
    return [refuse(f"{cmd.major} has not surrendered", major=cmd.major)]


@candidates(ReenterWar)
def _reentries(p: Play) -> Iterator[ReenterWar]:
    yield from (ReenterWar(m) for m in p.rs.majors)


@handles(ReenterWar)
def _reenter(p: Play, cmd: ReenterWar) -> None:
    foes = p.board.surrendered[cmd.major]
    p.board.replace("surrendered", {m: e for m, e in p.board.surrendered.items() if m != cmd.major})
    for enemy in foes:
        if enemy not in p.board.surrendered and not at_war(p, cmd.major, enemy):
            add_war(p, cmd.major, enemy, "K2", f"{cmd.major} re-enters the war")
    refresh_wars(p, "K2", (cmd.major, *foes))
    _waiting_associations(p, cmd.major)


@rule("82.81C")
def _waiting_associations(p: Play, major: str) -> None:
    """82.81C: minors waiting for `major` associate with it when it re-enters the war."""
    for name in by_name(p):
        pending = p.board.minors[name].pending
        if pending is not None and pending.partner == major and pending.due is None:
            resolve_pending(p, name, f"{major} re-entered the war (82.81C)")
