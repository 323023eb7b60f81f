"""Minor-country survival (82.8) and the Pacific alignments (82.91): who a surviving or
attacked minor associates or allies with, and when."""

from __future__ import annotations

from attrs import evolve

from .._kernel.rulebook import Play, at_phase_start, rule
from .._kernel.state import Minor
from ..domain import DiplomaticLevel, Side, Status
from ..domain.clock import Moment, Phase
from ..domain.records import Pending
from ..ruleset.records import Alignment
from .machine import Context, Trigger, fire
from .powers import at_war, faction_of, side_of
from .sequence import by_name
from .ties import neutral_major, set_status

__all__ = [
    "attack_renews",
    "on_attack",
    "on_occupation",
    "on_war_between_majors",
    "resolve_pending",
]

TRIGGER = {DiplomaticLevel.ASSOCIATION: Trigger.ASSOCIATE, DiplomaticLevel.ALLIANCE: Trigger.ALLY}


def on_attack(p: Play, minor: str, attacker: str, at: Moment | None = None) -> Pending | None:
    """After an attack (now, or at `at`: one made before the start) left the minor
    independent: its 82.81 association with the partner of the attacker's faction, at the
    start of the defender's next diplomacy phase."""
    partner = p.rs.association[faction_of(p, attacker)].on_attack
    return _schedule(p, minor, partner, attacker, at or p.board.clock)


@rule("82.81", otherwise=None)
def _schedule(p: Play, minor: str, partner: str, attacker: str, at: Moment) -> Pending | None:
    """82.81: association at the start of the defender's next diplomatic phase."""
    due = at.next_phase_of(side_of(p, partner), Phase.DIPLOMACY)
    return Pending(partner, DiplomaticLevel.ASSOCIATION, "82.81", due, by=attacker)


def attack_renews(p: Play, state: Minor, attacker: str) -> bool:
    """Whether `attacker`'s attack on a minor that already has a pending association
    schedules it afresh (`_renews`, a reading of 82.81 and 82.82)."""
    return state.pending is not None and _renews(p, state, attacker)


@rule("82.82", otherwise=False)
def _renews(p: Play, state: Minor, attacker: str) -> bool:
    """82.81, 82.82 (a reading, docs/rules.md; a variant may replace it): a minor fighting
    on alone (attacked by a power at war with no opposing faction, or by a border war: its
    association waits under 82.82) and then attacked by a power that is at war with an
    opposing faction associates by 82.81 as if that attack were the first."""
    pending = state.pending
    return (
        pending is not None
        and pending.rule == "82.82"
        and attacker not in state.direct_wars
        and not _neutral_attacker(p, attacker)
    )


def _context(p: Play, state: Minor, pending: Pending) -> Context:
    attacker = pending.by or state.attacked_by
    at_war = True
    if attacker is not None and pending.rule in ("82.81", "82.82"):
        neutral = _neutral_attacker(p, attacker)
        at_war = not neutral
    return Context(
        partner_free=pending.partner not in state.barred,
        attacker_at_war=at_war,
        refused=pending.partner in state.refused_by,
    )


@rule("82.81B", otherwise=False)
def _neutral_attacker(p: Play, attacker: str) -> bool:
    """82.81B: an attacker at war with no major power of an opposing faction is neutral:
    its victims do not associate yet."""
    return neutral_major(p, attacker)


def resolve_pending(p: Play, name: str, cause: str) -> None:
    """Let a pending association or alliance take effect now, or wait, or lapse."""
    state = p.board.minors[name]
    pending = state.pending
    if pending is None:
        return
    if state.status is not Status.INDEPENDENT:
        p.board.update(name, pending=None)
        return
    if pending.partner in p.board.surrendered:
        _wait_for_reentry(p, state, pending)
        return
    context = _context(p, state, pending)
    if not context.attacker_at_war:
        _fight_alone(p, state, pending)
        return
    dest = fire(state.status, TRIGGER[pending.level], context)
    if dest is Status.INDEPENDENT:
        why = "barred (82.351)" if not context.partner_free else "refused (82.81D)"
        clause = "82.351" if not context.partner_free else "82.81D"
        p.note(clause, "{} stays independent: {} is {}", name, pending.partner, why)
        p.board.update(name, pending=None)
        return
    assert dest is not None
    set_status(p, state, dest, pending.partner, pending.rule, cause, pending=None)


@rule("82.81C")
def _wait_for_reentry(p: Play, state: Minor, pending: Pending) -> None:
    """82.81C: while Britain is out of the war, the association waits for its return."""
    p.board.update(state.name, pending=evolve(pending, due=None))
    p.note("82.81C", "{} waits for {} to re-enter the war", state.name, pending.partner)


@rule("82.82")
def _fight_alone(p: Play, state: Minor, pending: Pending) -> None:
    """82.81B, 82.82: a minor attacked by a neutral major fights on alone until an opposing
    faction goes to war with its attacker."""
    p.board.update(state.name, pending=evolve(pending, due=None, rule="82.82"))
    p.note(
        "82.82",
        "{} fights on independently: {} is at war with no opposing faction",
        state.name, state.attacked_by,
    )  # fmt: skip


@at_phase_start(Phase.DIPLOMACY)
@rule("82.81")
def _associations_due(p: Play, side: Side) -> None:
    """At the start of a diplomacy phase, before any roll, due associations take effect."""
    for name in by_name(p):
        pending = p.board.minors[name].pending
        if pending is not None and pending.due is not None and pending.due <= p.board.clock:
            resolve_pending(p, name, f"survived its attack ({pending.rule})")


def on_war_between_majors(p: Play, a: str, b: str) -> None:
    """What `a`'s new war on `b` sets off for minors: 82.82 associations, and the Pacific
    alignments of the tables (82.91C, 82.91D)."""
    _join(p, a, b)
    _associations_on_war(p, a, b)
    _alliances_on_war(p, a, b)


@rule("82.82")
def _join(p: Play, a: str, b: str) -> None:
    """82.82: a minor fighting alone associates when an opposing faction goes to war with
    its attacker; the partner is that faction's (the association table)."""
    waiting = [n for n in by_name(p) if p.board.minors[n].pending is not None]
    for name in waiting:
        state = p.board.minors[name]
        pending = state.pending
        if pending is None or pending.due is not None or pending.rule != "82.82":
            continue
        if _aligned_on(p, name, a, b):
            continue  # 82.91: its row times its alignment on this war, not 82.82
        for attacker, joiner in ((a, b), (b, a)):
            if state.attacked_by == attacker and faction_of(p, joiner) is not faction_of(
                p, attacker
            ):
                partner = p.rs.association[faction_of(p, joiner)].on_joining
                p.board.update(name, pending=evolve(pending, partner=partner))
                resolve_pending(p, name, f"{joiner} went to war with {attacker} (82.82)")
                break


def _aligned_by(row: Alignment, a: str, b: str) -> bool:
    """Whether `a` declaring war on `b` begins the war of an alignment's row."""
    return {a, b} == set(row.war) and row.declared_by in ("", a)


def _aligned_on(p: Play, minor: str, a: str, b: str) -> bool:
    """Whether `minor` has an alignment row (in force) that this war begins."""
    return any(
        row.minor == minor and _aligned_by(row, a, b) and _row_in_force(p, row) and not row.occupied
        for row in p.rs.alignments.values()
    )


def _row_in_force(p: Play, row: Alignment) -> bool:
    """Whether the clause of an alignment's row is in force (82.91C allies, 82.91D
    associates): while it is off, a minor attacked by a neutral power joins by 82.82."""
    if row.level is DiplomaticLevel.ALLIANCE:
        return p.rules.on("82.91C")
    return p.rules.on("82.91D")


def _clause(row: Alignment) -> str:
    return "82.91C" if row.level is DiplomaticLevel.ALLIANCE else "82.91D"


@rule("82.91D")
def _associations_on_war(p: Play, a: str, b: str) -> None:
    """82.91B/D: a Pacific minor whose row says so associates with its partner when the war
    of its row begins (the Dutch East Indies with Britain, Thailand with Japan)."""
    for row in p.rs.alignments.values():
        if row.level is DiplomaticLevel.ASSOCIATION and _aligned_by(row, a, b):
            _align(p, row)


@rule("82.91C")
def _alliances_on_war(p: Play, a: str, b: str) -> None:
    """82.91B/C: a Pacific minor whose row says so becomes its partner's ally when the war of
    its row begins (Communist China with Russia)."""
    for row in p.rs.alignments.values():
        if row.level is DiplomaticLevel.ALLIANCE and _aligned_by(row, a, b):
            _align(p, row)


@rule("82.91D")
def on_occupation(p: Play, minor: str) -> None:
    """82.91D: a conquest of `minor` stands for its occupation (89.51): a minor whose row
    waits for it aligns once its partner holds it and the war of its row is on."""
    for row in p.rs.alignments.values():
        if row.occupied == minor:
            _align(p, row)


def _align(p: Play, row: Alignment) -> None:
    """The alignment of one row, if its conditions hold now: at once, or scheduled
    `after_turns` game turns on (the start of that turn, as 82.91D's second turn)."""
    state = p.board.minors.get(row.minor)
    clause = _clause(row)
    if state is None or not at_war(p, *row.war):
        return
    free = Context(partner_free=row.partner not in state.barred)
    verb = "ally" if row.level is DiplomaticLevel.ALLIANCE else "associate"
    if row.occupied:
        held = p.board.minors.get(row.occupied)
        if held is None or held.status is not Status.CONQUERED or held.major != row.partner:
            return
        dest = fire(state.status, Trigger.ALIGN, free)
        if dest is Status.ASSOCIATED:
            cause = f"{row.partner} holds {row.occupied} and is at war as {row.minor} awaited"
            set_status(p, state, dest, row.partner, clause, cause)
        return
    if state.status is not Status.INDEPENDENT:
        return
    if row.after_turns:
        if state.pending is not None and state.pending.rule == clause:
            return  # already scheduled by its row
        # an earlier attack's pending association (82.81, 82.82) gives way: the row's war
        # times it (82.91D: the second game turn after the declaration, attacked or not)
        due = p.board.clock.turn_start(p.board.clock.turn + row.after_turns)
        p.board.update(row.minor, pending=Pending(row.partner, row.level, clause, due))
        p.note(clause, "{} will {} with {} at {}", row.minor, verb, row.partner, due)
        return
    dest = fire(state.status, TRIGGER[row.level], free)
    assert dest is not None
    major = row.partner if dest in (Status.ALLIED, Status.ASSOCIATED) else None
    set_status(p, state, dest, major, clause, f"{' and '.join(row.war)} are at war")
