"""War: declarations on minors and majors (82.34-82.36, 82.41, 82.42), border wars,
subversion, refusal of association, surrender and re-entry."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from .._kernel.effects import BrpChange, UnitMoved, WarEnded
from .._kernel.kind import Command, CountryName, HexLabel, MajorName, MinorName
from .._kernel.rulebook import Batch, Violation, at_start, candidates, check, effect, handles
from .._kernel.state import LedgerEntry, Minor, Pending, evolve
from ..domain import CommandKind, LedgerKind, Status, Theater
from ..domain.clock import Moment, Phase
from ..domain.marks import clause
from ..domain.units import GROUND
from .deployment import schedule
from .diplomacy import PEACE, apply_result, lift_deadlines
from .machine import Trigger, fired
from .sequence import by_name, in_phase, in_turn, majors_in_turn, minors_in_play, out_of_turn
from .survival import attack_renews, on_attack, on_war_between_majors, resolve_pending
from .ties import TIED, refresh_wars, set_status, tie_rule

if TYPE_CHECKING:
    from .._kernel.tx import Tx

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


def garrisons(tx: Tx, minor: str, attacker: str) -> list[str]:
    """Majors other than the attacker's faction with units in `minor`, most factors first."""
    own = tx.faction(attacker)
    factors: dict[str, int] = {}
    for unit in tx.units_in(minor):
        if unit.owner in tx.rs.majors and tx.faction(unit.owner) is not own:
            factors[unit.owner] = factors.get(unit.owner, 0) + unit.factors
    return sorted(factors, key=lambda m: (-factors[m], m))


# ---- checks shared by declarations and border wars -------------------------------------


def _unfit(tx: Tx, attacker: str, target: str) -> str | None:
    """K2, K7: why `attacker` cannot make war on `target` at all now, or None."""
    if attacker in tx.surrendered:
        return "surrendered"
    return _unfit_target(tx, attacker, target)


def _unfit_target(tx: Tx, attacker: str, target: str) -> str | None:
    """K2, K7: what about `target` keeps `attacker` from making war on it, or None."""
    if target in tx.rs.majors:
        if target == attacker or tx.faction(target) is tx.faction(attacker):
            return "own faction"
        if tx.at_war(attacker, target):
            return "at war"
        if target in tx.surrendered:
            return "target surrendered"
        return None
    state = tx.minor(target)
    if not state.active:
        return "not in play"
    if attacker in state.at_war_with:
        return "at war"
    return None


def _attacker_fit(tx: Tx, attacker: str, target: str) -> Iterator[Violation]:
    if attacker in tx.surrendered:
        yield Violation("K2", f"{attacker} has surrendered", {"major": attacker})
    why = _unfit_target(tx, attacker, target)
    if why is None:
        return
    if target in tx.rs.majors:
        if why == "own faction":
            yield Violation(
                "K2",
                f"{attacker} cannot declare war on its own faction's {target}",
                {"target": target},
            )
        elif why == "at war":
            yield Violation("K2", f"{attacker} is already at war with {target}", {"target": target})
        else:
            yield Violation("K2", f"{target} has surrendered", {"target": target})
    elif why == "not in play":
        yield Violation("K7", f"{target} is not in play", {"minor": target})
    else:
        yield Violation("K2", f"{attacker} is already at war with {target}", {"minor": target})


def _tie_refusal(tx: Tx, attacker: str, target: str) -> str | None:
    """The clause that ties `target` to a major (or conquered, 82.42) which `attacker` is
    not at war with through it: war is made on that major instead. None otherwise."""
    state = tx.minors.get(target)
    if state is None or state.status not in TIED_OR_CONQUERED:
        return None
    if attacker in state.at_war_with:
        return None
    return tie_rule(tx.rs, state)


def _tied(tx: Tx, cmd: DeclareWar, clause: str) -> Minor | None:
    """The record of a target tied to a major by `clause` that `cmd`'s attacker is not at
    war with (see `_tie_refusal`)."""
    if _tie_refusal(tx, cmd.attacker, cmd.target) != clause:
        return None
    return tx.minors[cmd.target]


def _refuse_tied(tx: Tx, cmd: DeclareWar, clause: str) -> tuple[Violation, ...]:
    """A declaration on a minor tied to a major by `clause` is refused: war is made on the
    major (a conquered minor is attacked without one)."""
    state = _tied(tx, cmd, clause)
    if state is None:
        return ()
    if state.status is Status.CONQUERED:
        message = (
            f"{cmd.target} is conquered by {state.major}: it is attacked without a "
            "declaration of war"
        )
        return (Violation(clause, message, {"minor": cmd.target}),)
    message = (
        f"{cmd.target} is {state.status.value} with {state.major}: it shares "
        f"{state.major}'s wars, so declare war on {state.major}"
    )
    return (Violation(clause, message, {"minor": cmd.target, "major": state.major}),)


def _untied(clause: str) -> Callable[[Tx, DeclareWar], bool]:
    def passes(tx: Tx, cmd: DeclareWar) -> bool:  # `_tied(tx, cmd, clause) is None`
        state = tx.minors.get(cmd.target)
        if state is None or state.status not in TIED_OR_CONQUERED:
            return True
        return cmd.attacker in state.at_war_with or tie_rule(tx.rs, state) != clause

    passes.__qualname__ = passes.__name__ = f"untied_{clause}"
    return passes


@check(DeclareWar, "82.12", passes=_untied("82.12"))
def _no_declaration_on_a_colony(tx: Tx, cmd: DeclareWar) -> Iterable[Violation]:
    return _refuse_tied(tx, cmd, "82.12")


@check(DeclareWar, "82.13", passes=_untied("82.13"))
def _no_declaration_on_the_commonwealth(tx: Tx, cmd: DeclareWar) -> Iterable[Violation]:
    return _refuse_tied(tx, cmd, "82.13")


@check(DeclareWar, "82.42", passes=_untied("82.42"))
def _no_declaration_on_an_associate_or_ally(tx: Tx, cmd: DeclareWar) -> Iterable[Violation]:
    return _refuse_tied(tx, cmd, "82.42")


@check(DeclareWar, "82.93", passes=_untied("82.93"))
def _no_declaration_on_a_tied_pacific_minor(tx: Tx, cmd: DeclareWar) -> Iterable[Violation]:
    return _refuse_tied(tx, cmd, "82.93")


def _declares_in_phase(tx: Tx, cmd: DeclareWar | BorderWar) -> bool:
    return in_turn(tx, cmd.attacker, Phase.DECLARATIONS)


@check(DeclareWar, "K1", batched=True, passes=_declares_in_phase)
def _declare_in_phase(tx: Tx, cmd: DeclareWar) -> Iterator[Violation]:
    yield from out_of_turn(tx, cmd.attacker, Phase.DECLARATIONS, "a declaration of war belongs")


def _fits(tx: Tx, cmd: DeclareWar) -> bool:
    return _unfit(tx, cmd.attacker, cmd.target) is None


@check(DeclareWar, "K2", passes=_fits)
def _declare_fits(tx: Tx, cmd: DeclareWar) -> Iterator[Violation]:
    yield from _attacker_fit(tx, cmd.attacker, cmd.target)


def _unwarred_garrisons(tx: Tx, attacker: str, target: str) -> list[str]:
    """82.34: the majors garrisoning `target` that `attacker` is not at war with."""
    if target in tx.rs.majors or not tx.occupied(target):
        return []
    return [m for m in garrisons(tx, target, attacker) if not tx.at_war(attacker, m)]


def _garrisons_at_war(tx: Tx, cmd: DeclareWar | BorderWar) -> bool:
    return not _unwarred_garrisons(tx, cmd.attacker, cmd.target)


@check(DeclareWar, "82.34", passes=_garrisons_at_war)
def _garrison_needs_war(tx: Tx, cmd: DeclareWar) -> Iterator[Violation]:
    """82.34: a garrisoned minor may be attacked only by a power at war with the garrison."""
    for major in _unwarred_garrisons(tx, cmd.attacker, cmd.target):
        yield Violation(
            "82.34",
            f"{major} garrisons {cmd.target}: {cmd.attacker} must declare war on {major} first",
            {"garrison": major},
        )


@check(BorderWar, "K1", batched=True, passes=_declares_in_phase)
def _border_in_phase(tx: Tx, cmd: BorderWar) -> Iterator[Violation]:
    yield from out_of_turn(tx, cmd.attacker, Phase.DECLARATIONS, "a border war belongs")


def _border_row(tx: Tx, cmd: BorderWar) -> bool:
    row = tx.rs.border_wars.get(cmd.target)
    return row is not None and row.attacker == cmd.attacker


@check(BorderWar, "82.41", passes=_border_row)
def _border_war_pair(tx: Tx, cmd: BorderWar) -> Iterator[Violation]:
    """82.41: only the border wars of the tables (Russia's on Finland or Rumania, 66.2,
    67.2) need no declaration."""
    if not _border_row(tx, cmd):
        wars = "; ".join(f"{r.attacker} against {m}" for m, r in tx.rs.border_wars.items())
        yield Violation(
            "82.41",
            f"{cmd.attacker} has no border war with {cmd.target}: only {wars or 'none'}; "
            "declare war instead",
            {"attacker": cmd.attacker, "target": cmd.target},
        )


def _border_fits_ok(tx: Tx, cmd: BorderWar) -> bool:
    return cmd.target not in tx.rs.minors or _unfit(tx, cmd.attacker, cmd.target) is None


@check(BorderWar, "K2", passes=_border_fits_ok)
def _border_fits(tx: Tx, cmd: BorderWar) -> Iterator[Violation]:
    if cmd.target in tx.rs.minors:
        yield from _attacker_fit(tx, cmd.attacker, cmd.target)


def _border_garrisons_ok(tx: Tx, cmd: BorderWar) -> bool:
    return cmd.target not in tx.rs.minors or _garrisons_at_war(tx, cmd)


@check(BorderWar, "82.34", passes=_border_garrisons_ok)
def _border_garrison(tx: Tx, cmd: BorderWar) -> Iterator[Violation]:
    if cmd.target in tx.rs.minors:
        yield from _garrison_needs_war(tx, DeclareWar(cmd.attacker, cmd.target))


def _border_untied(tx: Tx, cmd: BorderWar) -> bool:
    return cmd.target not in tx.rs.minors or _tie_refusal(tx, cmd.attacker, cmd.target) is None


@check(BorderWar, "82.42", passes=_border_untied)
def _border_war_on_a_tied_minor(tx: Tx, cmd: BorderWar) -> Iterable[Violation]:
    """82.42 (82.12, 82.13, 82.93): a border war on a minor tied to a major, or conquered,
    is refused as a declaration of war on it is: war is made on its major."""
    if cmd.target not in tx.rs.minors:
        return ()
    clause = _tie_refusal(tx, cmd.attacker, cmd.target)
    if clause is None:
        return ()
    return _refuse_tied(tx, DeclareWar(cmd.attacker, cmd.target), clause)


# ---- declarations: effects -------------------------------------------------------------


@handles(DeclareWar)
def _declare_war(tx: Tx, cmd: DeclareWar) -> None:
    if cmd.target in tx.rs.majors:
        _pay(tx, cmd.attacker, "declare_war_major", f"war on {cmd.target}")
        tx.add_war(cmd.attacker, cmd.target, "K2", f"{cmd.attacker} declares war")
        refresh_wars(tx, majors=(cmd.attacker, cmd.target))
        on_war_between_majors(tx, cmd.attacker, cmd.target)
        return
    _pay(tx, cmd.attacker, "declare_war_minor", f"war on {cmd.target}")
    attack(tx, cmd.attacker, cmd.target, "82.41", f"{cmd.attacker} declares war", cmd.displace)


@handles(BorderWar)
def _border_war(tx: Tx, cmd: BorderWar) -> None:
    attack(tx, cmd.attacker, cmd.target, "82.41", f"{cmd.attacker}'s border war")


@functools.lru_cache(maxsize=1 << 12)
def _declaration(attacker: str, target: str) -> DeclareWar:
    """One declaration per (attacker, target), reused: commands are immutable."""
    return DeclareWar(attacker, target)


@candidates(DeclareWar)
def _declarations(tx: Tx, gated: bool) -> Iterator[Batch[DeclareWar]]:
    """Every major of the player turn on every major power and minor in play, a batch per
    attacker. Gated, it applies the declaration checks in force itself and vouches for
    them (`Batch.verified`): K1 by the phase and the majors of the player turn, K2 once per
    attacker (surrendered) and per target, the tied refusals (82.12, 82.13, 82.42, 82.93)
    by the clause that ties the target, 82.34 by its garrisons, 82.56 by giving no hex."""
    if not in_phase(tx, gated, _declare_in_phase, Phase.DECLARATIONS):
        return
    targets = (*tx.rs.majors, *minors_in_play(tx))
    if not gated:
        for attacker in majors_in_turn(tx):
            yield Batch(tuple(_declaration(attacker, t) for t in targets))
        return
    verified = frozenset(c for c in _DECLARATION_CHECKS if tx.enforces(c))
    fits, garrisoned = _declare_fits in verified, _garrison_needs_war in verified
    refused = {clause for clause, c in _TIED_CHECKS.items() if c in verified}
    rs, minors, where, surrendered = tx.rs, tx.minors, tx.where, tx.surrendered
    # What each target decides whatever the attacker (`_unfit_target`, `_tie_refusal` and
    # the garrisons of 82.34, worked out once per target instead of once per pair):
    # (target, its row or None for a major, a tied refusal in force, garrisoned).
    sides: list[tuple[str, Minor | None, bool, bool]] = []
    for target in targets:
        if target in rs.majors:
            sides.append((target, None, False, False))
            continue
        state = minors[target]
        if fits and not state.active:
            continue
        blocked = (
            bool(refused) and state.status in TIED_OR_CONQUERED and tie_rule(rs, state) in refused
        )
        sides.append((target, state, blocked, garrisoned and bool(where.get(target))))
    for attacker in majors_in_turn(tx):
        if fits and attacker in surrendered:
            continue
        faction = rs.majors[attacker].faction
        legal = []
        for target, row, blocked, occupied in sides:
            cmd = _declaration(attacker, target)
            if row is None:  # K2 for a major power
                if fits and (
                    rs.majors[target].faction is faction
                    or tx.at_war(attacker, target)
                    or target in surrendered
                ):
                    continue
            else:
                at_war = attacker in row.at_war_with
                if (fits and at_war) or (blocked and not at_war):
                    continue  # K2: at war with it already; tied to a major it is not
                if occupied and not _garrisons_at_war(tx, cmd):
                    continue  # 82.34
            legal.append(cmd)
        yield Batch(tuple(legal), None, verified)


@candidates(BorderWar)
def _border_wars(tx: Tx, gated: bool) -> Iterator[BorderWar]:
    if in_phase(tx, gated, _border_in_phase, Phase.DECLARATIONS):
        for target, row in tx.rs.border_wars.items():
            yield BorderWar(row.attacker, target)


@effect("K6")
def _pay(tx: Tx, major: str, cost: str, what: str) -> None:
    """Declaring war costs BRPs: 10 on a minor (82.62 repeats it), 35 on a major power."""
    brps = tx.rs.costs[cost].brps
    entry = LedgerEntry(tx.next_seq(), major, -brps, LedgerKind.COST, "K6", tx.clock, minor=None)
    tx.record(entry)
    tx.emit(BrpChange, entry, "K6")


def attack(
    tx: Tx, attacker: str, minor: str, rule: str, cause: str, displace: str | None = None
) -> None:
    """A major power attacks a minor: bars, control, wars, status and survival."""
    state = tx.minor(minor)
    first = state.attacked_by is None
    changes: dict[str, object] = {
        "direct_wars": tuple(sorted({*state.direct_wars, attacker})),
        "attacked_by": attacker if first else state.attacked_by,
        "attacked_at": tx.clock if first else state.attacked_at,
    }
    barred = _bar(tx, state, attacker)
    if barred is not None:
        changes["barred"] = barred
    if _end_own_control(tx, state, attacker):
        changes["standing"] = None
    invaded = _invasion_supply(tx, minor, attacker)
    if invaded:
        changes["invaded"], changes["invaded_at"] = invaded, tx.clock
    _displace(tx, minor, attacker, displace)
    garrison = _garrison_partner(tx, minor, barred or state.barred, attacker)
    dest = fired(state.status, Trigger.ATTACK, garrison is not None)
    if dest is None:  # a status an attack cannot change: only with a check switched off
        dest = state.status
    deployment = schedule(tx, minor, attacker)
    if deployment is not None:
        changes["deployment"] = deployment
    if dest is Status.ASSOCIATED:
        assert garrison is not None
        changes["deadlines"] = lift_deadlines(
            tx, minor, state.deadlines, tx.side(garrison), f"it associates with {garrison}"
        )
        set_status(
            tx, state, dest, garrison, "82.34", f"{cause}; {garrison} garrisons it", **changes
        )
        return
    if state.pending is None or attack_renews(tx, state, attacker):
        pending = on_attack(tx, minor, attacker)
        if pending is not None:
            changes["pending"] = pending
    set_status(tx, state, dest, None, rule, cause, **changes)
    scheduled = changes.get("pending")
    if isinstance(scheduled, Pending) and scheduled.due is not None:
        tx.note(
            scheduled.rule, "{} will associate with {} at {} if it survives",
            minor, scheduled.partner, scheduled.due,
        )  # fmt: skip


@at_start
@effect("82.12")
def attacks_before_the_start(tx: Tx) -> None:
    """82.12, 82.351, 82.81: a minor the start puts at war (W. Poland in Fall 1939, attacked
    by Germany) holds what it would hold had the war begun in play: the date of its attack
    (`start_attack_date` when the start gives none), the status an attack gives a minor at
    peace (82.11B: independent, where the start left it neutral), the 82.351 bar on each
    attacker and its major-power allies and, in Europe, its 82.81 association unless the
    start schedules one (taking effect at once if its moment is past). Its forces are set
    up by `deployment.attacked_before_the_start` (82.53)."""
    for name in by_name(tx):
        state = tx.minors[name]
        if not state.direct_wars or state.status in TIED or state.attacked_by is None:
            continue
        at = state.attacked_at or start_attack_date(tx, state.attacked_by)
        changes: dict[str, object] = {"attacked_at": at}
        if state.active and state.status in PEACE:  # the start gave wars, not their status
            dest = fired(state.status, Trigger.ATTACK, False)  # no garrison at the start
            if dest is not None:
                changes["status"] = dest
        barred = set(state.barred)
        for attacker in state.direct_wars:
            found = _bar(tx, state, attacker)
            if found is not None:
                barred.update(found)
        changes["barred"] = tuple(sorted(barred))
        european = tx.rs.minors[name].theater is Theater.EUROPE
        pending = None
        if (
            state.pending is None
            and european
            and state.active
            and changes.get("status", state.status) is Status.INDEPENDENT
        ):
            pending = changes["pending"] = on_attack(tx, name, state.attacked_by, at)
        tx.update(name, **changes)  # the row changes in place: `state` reads the new values
        if pending is not None and pending.due is not None:
            if pending.due <= tx.clock:
                resolve_pending(tx, name, f"survived its attack before the start ({pending.rule})")
            else:
                tx.note(
                    pending.rule, "{} will associate with {} at {} if it survives",
                    name, pending.partner, pending.due,
                )  # fmt: skip


@effect("82.12")
def start_attack_date(tx: Tx, attacker: str) -> Moment | None:
    """82.12, 82.53 (a reading, docs/rules.md; a variant may replace it): a war the start
    gives a minor without a date (`attacked_at`) was declared in the attacker's
    declarations phase of the start's game turn, as the built-in start dates September
    1939's: a start before that phase sets the forces up when it ends, one after it finds
    them set up. None (no date) while 82.12 is switched off."""
    clock = tx.clock
    return Moment.of(clock.year, clock.season, tx.side(attacker), Phase.DECLARATIONS)


@effect("82.56", otherwise=())
def _invasion_supply(tx: Tx, minor: str, attacker: str) -> tuple[str, ...]:
    """82.56: when the attacker already has units in the minor, every major power's unit
    there is in at least partial supply for the turn of the invasion."""
    if not tx.occupied(minor):
        return ()
    here = [u for u in tx.units_in(minor) if u.owner in tx.rs.majors]
    if not any(u.owner == attacker for u in here):
        return ()
    return tuple(sorted(u.id for u in here))


@effect("82.56")
@clause("82.352")
def _displace(tx: Tx, minor: str, attacker: str, displace: str | None) -> None:
    """82.352, 82.56: the attacker's and its allies' ground units in the capital move to a
    hex next to it, the one the attacker names or, by default, the first listed."""
    record = tx.rs.minors[minor]
    if not tx.occupied(minor) or not record.capital or not record.capital_adjacent:
        return
    target = displace or record.capital_adjacent[0]
    friends = set(tx.allies(attacker))
    for unit in sorted(tx.units_in(minor), key=lambda u: u.id):
        if unit.hex == record.capital and unit.owner in friends and unit.kind in GROUND:
            tx.put_unit(evolve(unit, hex=target))
            tx.emit(UnitMoved, unit.id, f"{minor} ({target})", "82.56")


def _displaced_next_to_capital(tx: Tx, cmd: DeclareWar) -> bool:
    if cmd.displace is None:
        return True
    record = tx.rs.minors.get(cmd.target)
    return record is not None and cmd.displace in record.capital_adjacent


@check(DeclareWar, "82.56", passes=_displaced_next_to_capital)
def _displace_next_to_capital(tx: Tx, cmd: DeclareWar) -> Iterator[Violation]:
    """82.56: the displaced units go to a hex adjacent to the capital."""
    if cmd.displace is None:
        return
    record = tx.rs.minors.get(cmd.target)
    if record is None or cmd.displace not in record.capital_adjacent:
        adjacent = ", ".join(record.capital_adjacent) if record else "none"
        yield Violation(
            "82.56",
            f"{cmd.displace!r} is not next to {cmd.target}'s capital (adjacent: {adjacent})",
            {"displace": cmd.displace},
        )


@effect("82.351", otherwise=None)
def _bar(tx: Tx, state: Minor, attacker: str) -> tuple[str, ...] | None:
    """82.351: the attacker and its major-power allies may never take the minor as an
    associate or ally."""
    return tuple(sorted({*state.barred, *tx.allies(attacker)}))


@effect("82.35", otherwise=False)
def _end_own_control(tx: Tx, state: Minor, attacker: str) -> bool:
    """82.35: a power may declare war on a minor it (or its side) controls; its standing
    ends. Its BRP grants stay until a reversal or a conquest by another power deducts them
    (82.22 names no other case; docs/rules.md)."""
    holding = state.standing
    if holding is None or tx.side(holding.major) is not tx.side(attacker):
        return False
    tx.note("82.35", "{}'s hold on {} ends", holding.major, state.name)
    return True


@clause("82.81A")
def _garrison_partner(tx: Tx, minor: str, barred: tuple[str, ...], attacker: str) -> str | None:
    """82.34 / 82.81A: the garrisoning major at war with the attacker that the minor
    associates with at once, if it is not barred (82.351)."""
    if "82.34" in tx.disabled or not tx.occupied(minor):
        return None
    for major in garrisons(tx, minor, attacker):
        if tx.at_war(major, attacker) and major not in barred:
            return major
    return None


# ---- subversion -------------------------------------------------------------------------


def _subverts_in_phase(tx: Tx, cmd: Subvert) -> bool:
    return in_turn(tx, cmd.major, Phase.DIPLOMACY)


@check(Subvert, "K1", batched=True, passes=_subverts_in_phase)
def _subvert_in_phase(tx: Tx, cmd: Subvert) -> Iterator[Violation]:
    yield from out_of_turn(tx, cmd.major, Phase.DIPLOMACY, "subversion belongs")


def _eligible(tx: Tx, cmd: Subvert) -> bool:
    state = tx.minor(cmd.minor)
    return tx.rs.majors[cmd.major].communist and state.status in PEACE and state.active


@check(Subvert, "82.36", passes=_eligible)
def _subvert_eligible(tx: Tx, cmd: Subvert) -> Iterator[Violation]:
    """82.36: Communist subversion of an eligible minor; a German garrison does not stop it
    (eligibility: a European minor at peace; the subversion rule itself is not given)."""
    state = tx.minor(cmd.minor)
    if not tx.rs.majors[cmd.major].communist:
        yield Violation(
            "82.36", f"subversion is Communist: {cmd.major} cannot subvert", {"major": cmd.major}
        )
    if state.status not in PEACE or not state.active:
        yield Violation(
            "82.36",
            f"{cmd.minor} is {state.status.value}: only a minor at peace can be subverted",
            {"minor": cmd.minor},
        )


@handles(Subvert)
def _subvert(tx: Tx, cmd: Subvert) -> None:
    subversion(tx, cmd.major, cmd.minor)


@functools.lru_cache(maxsize=1 << 12)
def _subversion(major: str, minor: str) -> Subvert:
    """One subversion per (major, minor), reused: commands are immutable."""
    return Subvert(major, minor)


@candidates(Subvert)
def _subversions(tx: Tx, gated: bool) -> Iterator[Batch[Subvert]]:
    """Each Communist major's subversion of each minor in play, a batch per major (K1 is
    the same for all of its commands)."""
    if in_phase(tx, gated, _subvert_in_phase, Phase.DIPLOMACY):
        targets = minors_in_play(tx)
        for major, record in tx.rs.majors.items():
            if record.communist:
                yield Batch(tuple([_subversion(major, target) for target in targets]))


@effect("82.36", name="subversion")
def subversion(tx: Tx, major: str, minor: str) -> None:
    """82.36, a rule a rulebook may replace (`subversion`): the subversion rule itself is not
    in rule 82; by default a success counts as a −1 result for `major` (control of the
    minor's hexes and all its BRPs)."""
    apply_result(tx, minor, major, -1, rule="82.36")


# ---- refusal of association -------------------------------------------------------------


def _refusable(tx: Tx, cmd: RefuseAssociation) -> bool:
    state = tx.minor(cmd.minor)
    pending = state.pending
    return (
        pending is not None and state.status is Status.INDEPENDENT and pending.partner == cmd.major
    )


@check(RefuseAssociation, "82.81D", passes=_refusable)
def _refusal_in_time(tx: Tx, cmd: RefuseAssociation) -> Iterator[Violation]:
    """82.81D: a refusal is possible from the attack until the association takes effect."""
    state = tx.minor(cmd.minor)
    if state.status is Status.ASSOCIATED and state.major == cmd.major:
        yield Violation(
            "82.81D",
            f"{cmd.minor}'s association with {cmd.major} has already "
            "taken effect: it can no longer be refused",
            {"minor": cmd.minor},
        )
    elif state.pending is None or state.status is not Status.INDEPENDENT:
        yield Violation(
            "82.81D",
            f"no association of {cmd.minor} is pending: it has not "
            "been attacked, or its fate is settled",
            {"minor": cmd.minor},
        )
    elif state.pending.partner != cmd.major:
        yield Violation(
            "82.81D",
            f"{cmd.minor} would associate with {state.pending.partner}, not {cmd.major}",
            {"partner": state.pending.partner},
        )


@candidates(RefuseAssociation)
def _refusals(tx: Tx, gated: bool) -> Iterator[RefuseAssociation]:
    """The refusal of each pending association, by its partner."""
    for name in minors_in_play(tx):
        pending = tx.minors[name].pending
        if pending is not None:
            yield RefuseAssociation(pending.partner, name)


@handles(RefuseAssociation)
def _refuse(tx: Tx, cmd: RefuseAssociation) -> None:
    state = tx.minor(cmd.minor)
    tx.update(cmd.minor, pending=None, refused_by=tuple(sorted({*state.refused_by, cmd.major})))
    tx.note("82.81D", "{} refuses {}'s association: it stays independent", cmd.major, cmd.minor)


# ---- surrender and re-entry -------------------------------------------------------------


def _in_the_war(tx: Tx, cmd: Surrender) -> bool:
    return cmd.major not in tx.surrendered


@check(Surrender, "K2", passes=_in_the_war)
def _can_surrender(tx: Tx, cmd: Surrender) -> Iterator[Violation]:
    if cmd.major in tx.surrendered:
        yield Violation("K2", f"{cmd.major} has already surrendered", {"major": cmd.major})


@candidates(Surrender)
def _surrenders(tx: Tx, gated: bool) -> Iterator[Surrender]:
    yield from (Surrender(m) for m in tx.rs.majors)


@handles(Surrender)
def _surrender(tx: Tx, cmd: Surrender) -> None:
    enemies = tuple(tx.enemies(cmd.major))
    tx.assign("surrendered", {**tx.surrendered, cmd.major: enemies})
    if cmd.major not in tx.fallen:
        tx.assign("fallen", {**tx.fallen, cmd.major: tx.clock})
    tx.assign("wars", {pair: m for pair, m in tx.wars.items() if cmd.major not in pair})
    for enemy in enemies:
        tx.emit(WarEnded, cmd.major, enemy, "K2", f"{cmd.major} surrenders")
    refresh_wars(tx, "K2", (cmd.major, *enemies))
    _free_french(tx, cmd.major)
    vichy(tx)


@effect("K2", name="vichy")
def vichy(tx: Tx) -> None:
    """France's fall, a rule a rulebook may replace (`vichy`; rule 77 is not given): by
    default a minor that appears on a power's fall (Vichy France, on France's) comes into
    play as a neutral minor once that power has fallen."""
    for name, record in tx.rs.minors.items():
        state = tx.minors[name]
        if record.appears_on_fall_of in tx.fallen and not state.active:
            tx.update(name, active=True, status=Status.NEUTRAL)


@effect("82.91F")
def _free_french(tx: Tx, fallen: str) -> None:
    """82.91F: when a power falls, its colonies that another power controls turn to that
    power: France's Pacific islands under British control turn Free French, read as
    associated with Britain (Free French fight under British command, A25.4)."""
    for name, record in tx.rs.minors.items():
        state = tx.minors[name]
        if record.colony_of != fallen or state.status is not Status.COLONY:
            continue
        if state.major is None or state.major == fallen:
            continue
        dest = fired(state.status, Trigger.FREE_FRENCH)
        assert dest is not None
        set_status(tx, state, dest, state.major, "82.91F", f"{fallen} has fallen: Free French")


def _out_of_the_war(tx: Tx, cmd: ReenterWar) -> bool:
    return cmd.major in tx.surrendered


@check(ReenterWar, "K2", passes=_out_of_the_war)
def _can_reenter(tx: Tx, cmd: ReenterWar) -> Iterator[Violation]:
    if cmd.major not in tx.surrendered:
        yield Violation("K2", f"{cmd.major} has not surrendered", {"major": cmd.major})


@candidates(ReenterWar)
def _reentries(tx: Tx, gated: bool) -> Iterator[ReenterWar]:
    yield from (ReenterWar(m) for m in tx.rs.majors)


@handles(ReenterWar)
def _reenter(tx: Tx, cmd: ReenterWar) -> None:
    enemies = tx.surrendered[cmd.major]
    tx.assign("surrendered", {m: e for m, e in tx.surrendered.items() if m != cmd.major})
    for enemy in enemies:
        if enemy not in tx.surrendered and not tx.at_war(cmd.major, enemy):
            tx.add_war(cmd.major, enemy, "K2", f"{cmd.major} re-enters the war")
    refresh_wars(tx, "K2", (cmd.major, *enemies))
    _waiting_associations(tx, cmd.major)


@effect("82.81C")
def _waiting_associations(tx: Tx, major: str) -> None:
    """82.81C: minors waiting for `major` associate with it when it re-enters the war."""
    for name in by_name(tx):
        pending = tx.minors[name].pending
        if pending is not None and pending.partner == major and pending.due is None:
            resolve_pending(tx, name, f"{major} re-entered the war (82.81C)")


_TIED_CHECKS = {
    "82.12": _no_declaration_on_a_colony,
    "82.13": _no_declaration_on_the_commonwealth,
    "82.42": _no_declaration_on_an_associate_or_ally,
    "82.93": _no_declaration_on_a_tied_pacific_minor,
}
"""The refusal of a declaration on a tied minor, by the clause that ties it."""
_DECLARATION_CHECKS = (
    *_TIED_CHECKS.values(),
    _declare_in_phase,
    _declare_fits,
    _garrison_needs_war,
    _displace_next_to_capital,
)
"""The declaration checks that `_declarations` applies itself when they are in force."""
