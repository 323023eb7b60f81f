"""The diplomatic scale as a function: a minor's standing result and a new one give its new
standing, status and BRP share (82.21, 82.31; the scale itself is from public material)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from .._kernel.effects import BrpChange, DeadlineSet, UnitEliminated
from .._kernel.kind import Command, MajorName, MinorName
from .._kernel.rulebook import (
    Batch,
    Violation,
    at_phase_end,
    at_start,
    candidates,
    check,
    effect,
    handles,
)
from .._kernel.state import Deadline, Holding, LedgerEntry
from ..domain import CommandKind, DiplomaticLevel, LedgerKind, ScaleEffect, Side, Status, Theater
from ..domain.clock import Phase
from ..domain.marks import clause
from ..ruleset.records import LevelEffect
from ..ruleset.tables import Ruleset
from .brps import grants_by_level, prorate
from .deployment import deploy_now, deploy_share
from .machine import Trigger, fired
from .sequence import by_name, in_phase, in_turn, majors_in_turn, minors_in_play, out_of_turn
from .ties import set_status

if TYPE_CHECKING:
    from .._kernel.tx import Tx

__all__ = [
    "DiplomaticResult",
    "Standing",
    "apply_result",
    "cancelling",
    "clamp",
    "deduct",
    "deduct_all",
    "effect_of",
    "next_standing",
    "prorated_shares",
    "standing_at_the_start",
    "status_of",
]


@frozen
class DiplomaticResult(Command):
    """The modified diplomatic result of `major`'s roll on `minor` (82.21, 82.31)."""

    name: ClassVar[str] = CommandKind.DIPLOMATIC_RESULT
    minor: MinorName
    major: MajorName
    result: int
    roll: int | None = None
    modifiers: tuple[int, ...] = ()


@frozen
class Standing:
    """The diplomatic result standing for a minor: which side holds it, and how far it goes."""

    side: Side
    level: DiplomaticLevel


def clamp(ruleset: Ruleset, result: int) -> int:
    """Results beyond the scale count as its nearest end."""
    low, high = ruleset.scale
    return low if result < low else high if result > high else result


def next_standing(ruleset: Ruleset, current: Standing | None, result: int) -> Standing | None:
    """The standing after a new (modified) result: a result of 7+ / 0− sets a new standing,
    5–6 keep a pro-Axis one, 1–2 a pro-Allied one, 3–4 keep whatever stands."""
    entry = ruleset.diplomatic_results[clamp(ruleset, result)]
    if entry.effect is ScaleEffect.SET:
        assert entry.side is not None
        return Standing(entry.side, entry.level)
    if entry.effect is ScaleEffect.KEEP or current is None:
        return current
    kept = Side.AXIS if entry.effect is ScaleEffect.KEEP_AXIS else Side.ALLIES
    return current if current.side is kept else None


def cancelling(ruleset: Ruleset, side: Side) -> int:
    """The result of the scale that keeps `side`'s standing and cancels the other side's,
    nearest to `side`'s own results (6 for the Axis, 1 for the Allies on the public scale);
    worked out once per tables."""
    return ruleset.derived(_cancelling, side)


def _cancelling(ruleset: Ruleset, side: Side) -> int:
    keep = ScaleEffect.KEEP_AXIS if side is Side.AXIS else ScaleEffect.KEEP_ALLIES
    own = [r for r, e in ruleset.diplomatic_results.items() if e.side is side]
    bands = [r for r, e in ruleset.diplomatic_results.items() if e.effect is keep]
    return min(bands, key=lambda r: min(abs(r - o) for o in own))


def effect_of(ruleset: Ruleset, level: DiplomaticLevel, theater: Theater) -> LevelEffect | None:
    """What a standing level gives in a theater: a Europe-only level (association) falls back
    to its `otherwise` level in the Pacific. None for no standing."""
    effect = ruleset.diplomatic_levels.get(level)
    while effect is not None and effect.europe_only and theater is not Theater.EUROPE:
        effect = ruleset.diplomatic_levels.get(effect.otherwise) if effect.otherwise else None
    return effect


def status_of(ruleset: Ruleset, standing: Standing | None, theater: Theater) -> Status:
    """The 82.11 status a standing gives a minor at peace."""
    if standing is None:
        return Status.NEUTRAL
    effect = effect_of(ruleset, standing.level, theater)
    return effect.status if effect is not None else Status.NEUTRAL


# ---- the diplomatic_result command ---------------------------------------------------

PEACE = frozenset({Status.NEUTRAL, Status.BRPS_ATTRIBUTED, Status.HEXES_CONTROLLED})
TRIGGERS = {
    DiplomaticLevel.NONE: Trigger.RESULT_NONE,
    DiplomaticLevel.BRPS: Trigger.RESULT_BRPS,
    DiplomaticLevel.CONTROL: Trigger.RESULT_CONTROL,
    DiplomaticLevel.ASSOCIATION: Trigger.RESULT_ASSOCIATION,
    DiplomaticLevel.ALLIANCE: Trigger.RESULT_ALLIANCE,
}


def _rolls_in_phase(tx: Tx, cmd: DiplomaticResult) -> bool:
    return in_turn(tx, cmd.major, Phase.DIPLOMACY)


@check(DiplomaticResult, "K1", batched=True, passes=_rolls_in_phase)
def _in_diplomacy_phase(tx: Tx, cmd: DiplomaticResult) -> Iterator[Violation]:
    yield from out_of_turn(tx, cmd.major, Phase.DIPLOMACY, "{major}'s diplomatic results belong")


def _in_the_war(tx: Tx, cmd: DiplomaticResult) -> bool:
    return cmd.major not in tx.surrendered


@check(DiplomaticResult, "K2", batched=True, passes=_in_the_war)
def _roller_in_the_war(tx: Tx, cmd: DiplomaticResult) -> Iterator[Violation]:
    if not _in_the_war(tx, cmd):
        yield Violation(
            "K2", f"{cmd.major} has surrendered and makes no diplomatic rolls", {"major": cmd.major}
        )


def _adds_up(tx: Tx, cmd: DiplomaticResult) -> bool:
    return cmd.roll is None or cmd.roll + sum(cmd.modifiers) == cmd.result


@check(DiplomaticResult, "K4", batched=True, passes=_adds_up)
def _roll_adds_up(tx: Tx, cmd: DiplomaticResult) -> Iterator[Violation]:
    if cmd.roll is not None and not _adds_up(tx, cmd):
        total = cmd.roll + sum(cmd.modifiers)
        yield Violation(
            "K4",
            f"roll {cmd.roll} with modifiers {list(cmd.modifiers)} makes "
            f"{total}, not the result {cmd.result}",
            {"roll": cmd.roll},
        )


def _takes_rolls(tx: Tx, cmd: DiplomaticResult) -> bool:
    """K7: diplomacy acts on a minor in play at peace (or, 82.63, occupied by the roller's
    side where its forces depend on the result)."""
    state = tx.minor(cmd.minor)
    return state.active and (
        state.status in PEACE or _occupied_for_diplomacy(tx, cmd.minor, cmd.major)
    )


@check(DiplomaticResult, "K7", batched=True, passes=_takes_rolls)
def _minor_at_peace(tx: Tx, cmd: DiplomaticResult) -> Iterator[Violation]:
    if _takes_rolls(tx, cmd):
        return
    state = tx.minor(cmd.minor)
    if not state.active:
        yield Violation("K7", f"{cmd.minor} is not in play", {"minor": cmd.minor})
    else:
        yield Violation(
            "K7",
            f"{cmd.minor} is {state.status.value}: diplomacy acts only on a "
            "minor at peace (neutral, BRPs attributed, hexes controlled)",
            {"minor": cmd.minor, "status": state.status.value},
        )


def _occupied_for_diplomacy(tx: Tx, minor: str, major: str) -> bool:
    """82.63: a minor whose forces depend on the current result (the `†` row: Ukraine) takes
    diplomatic rolls while conquered by the roller's side (a reading: the roll for the
    Ukraine is its occupier's)."""
    state = tx.minor(minor)
    return (
        minor in tx.rs.forces_by_result
        and state.status is Status.CONQUERED
        and state.major is not None
        and tx.side(state.major) is tx.side(major)
    )


@handles(DiplomaticResult)
def _diplomatic_result(tx: Tx, cmd: DiplomaticResult) -> None:
    if tx.minor(cmd.minor).status is Status.CONQUERED:
        _result_forces(tx, cmd.minor, cmd.major, clamp(tx.rs, cmd.result))
        return
    apply_result(tx, cmd.minor, cmd.major, cmd.result, rule="82.21")


@effect("82.63")
def _result_forces(tx: Tx, minor: str, major: str, result: int) -> None:
    """82.63: the occupied minor's forces deploy only after a successful result — the share
    the `†` table gives it, set up by the roller (the default set-up)."""
    entry = tx.rs.diplomatic_results[result]
    side = entry.side if entry.effect is ScaleEffect.SET else None
    holding = (
        Holding(major, side, entry.level, result, tx.clock.player_turn_start())
        if (side is tx.side(major))
        else None
    )
    tx.update(minor, standing=holding)
    share = tx.rs.forces_by_result[minor].share(result if holding is not None else None)
    if share > 0 and not bool(tx.units_of(minor)):
        deploy_share(tx, minor, major, share)
    else:
        tx.note("82.63", "{}'s result {} raises no forces in {}", major, result, minor)


@clause("82.21", "82.31")
def apply_result(tx: Tx, minor: str, major: str, result: int, *, rule: str) -> None:
    """Apply a modified result of `major` on `minor`: the new standing, its BRPs (82.22),
    status (82.21, 82.31), the 82.33 reversal, and the partner's wars."""
    rs = tx.rs
    clamped = clamp(rs, result)
    if clamped != result:
        low, high = rs.scale
        tx.note(
            rule,
            "result {} for {} counts as {}: the scale runs {}..{}",
            result,
            minor,
            clamped,
            low,
            high,
        )
    side = tx.side(major)
    entry = rs.diplomatic_results[clamped]
    if entry.effect is ScaleEffect.SET and entry.side is not None and entry.side is not side:
        # A result favouring the other side counts as the band that keeps that side's
        # standing and cancels the roller's (a reading: docs/rules.md, 82.21).
        clamped = cancelling(rs, entry.side)
        tx.note(
            rule, "{}'s result {} favours the other side: it counts as {}", major, result, clamped
        )
    state = tx.minor(minor)
    old = state.standing
    current = Standing(old.side, old.level) if old is not None else None
    new = next_standing(rs, current, clamped)
    if new == current:
        return  # kept, or set again at the level already standing: nothing changes
    holding = None
    if new is not None:  # a result of the roller's side set a new standing: it holds it
        holding = Holding(major, new.side, new.level, clamped, tx.clock.player_turn_start())
    _settle_brps(tx, minor, holding)
    level = holding.level if holding is not None else DiplomaticLevel.NONE
    effective = effect_of(rs, level, rs.minors[minor].theater)
    trigger = TRIGGERS[effective.level if effective is not None else DiplomaticLevel.NONE]
    barred = holding is not None and holding.major in state.barred
    dest = fired(state.status, trigger, False, not barred)
    if dest is None:  # only with K7 switched off (a test): the result changes nothing
        return
    deadlines = state.deadlines
    if holding is not None and holding.level >= DiplomaticLevel.CONTROL:
        deadlines = lift_deadlines(tx, minor, deadlines, holding.side, "controls it again")
    reversal = _reversal(tx, minor, old, holding)
    if reversal is not None:
        deadlines = (*deadlines, reversal)
    major_of = holding.major if holding is not None and dest is not Status.NEUTRAL else None
    set_status(
        tx, state, dest, major_of, _rule_of(dest), f"{major}'s diplomatic result {clamped}",
        standing=holding, deadlines=deadlines,
    )  # fmt: skip
    if dest in (Status.ASSOCIATED, Status.ALLIED) and major_of is not None:
        deploy_now(tx, minor, major_of)


@at_start
@effect("82.31")
def standing_at_the_start(tx: Tx) -> None:
    """82.21, 82.31 (a reading, docs/rules.md; a variant may replace it): a minor the start
    gives with its BRPs attributed or its hexes controlled holds what the result giving that
    status would have given in play, made by its start major at the start's player turn:
    the standing (so 82.32D opens it to the controller and its allies and the 82.32 limit
    holds) and the grants (82.22), which a reversal deducts."""
    rs = tx.rs
    for name in by_name(tx):
        state = tx.minors[name]
        major = state.major
        if state.status not in _GRANTED or major is None or state.standing is not None:
            continue
        result = _result_giving(rs, state.status, tx.side(major), rs.minors[name].theater)
        if result is None:
            continue  # the tables' scale has no result that gives this status
        level = rs.diplomatic_results[result].level
        holding = Holding(major, tx.side(major), level, result, tx.clock.player_turn_start())
        _settle_brps(tx, name, holding)
        tx.update(name, standing=holding)


_GRANTED = frozenset({Status.BRPS_ATTRIBUTED, Status.HEXES_CONTROLLED})
"""The statuses at peace that only a standing result gives (82.21A, 82.31)."""


def _result_giving(rs: Ruleset, status: Status, side: Side, theater: Theater) -> int | None:
    """The result of `side` on the scale that sets the lowest level giving `status` in
    `theater` (8 for the Axis's control, -1 for the Allies' on the public scale)."""
    found = [
        (entry.level, result)
        for result, entry in rs.diplomatic_results.items()
        if entry.effect is ScaleEffect.SET
        and entry.side is side
        and (effect := effect_of(rs, entry.level, theater)) is not None
        and effect.status is status
    ]
    return min(found)[1] if found else None


_RULE_OF = {
    Status.NEUTRAL: "82.11A", Status.BRPS_ATTRIBUTED: "82.21A",
    Status.HEXES_CONTROLLED: "82.31", Status.ASSOCIATED: "82.11E", Status.ALLIED: "82.11F",
}  # fmt: skip
"""The clause a diplomatic result cites for the status it leads to (82.21 otherwise)."""


def _rule_of(status: Status) -> str:
    return _RULE_OF.get(status, "82.21")


@functools.lru_cache(maxsize=1 << 14)
def _scale(minor: str, major: str, low: int, high: int) -> tuple[DiplomaticResult, ...]:
    """Every result of the scale for one (minor, major), built once: commands are immutable."""
    return tuple(DiplomaticResult(minor, major, result) for result in range(low, high + 1))


@candidates(DiplomaticResult)
def _results(tx: Tx, gated: bool) -> Iterator[Batch[DiplomaticResult]]:
    """Every result of the scale by each major of the player turn on each minor in play, a
    batch per (minor, major). Gated, it applies the checks in force itself and vouches for
    them: K1 (the diplomacy phase of the roller's player turn), K2 (a roller still in the
    war), K4 (no roll is given), K7 (a minor that takes rolls: read once per minor and
    roller, none of them reads the result)."""
    if not in_phase(tx, gated, _in_diplomacy_phase, Phase.DIPLOMACY):
        return
    low, high = tx.rs.scale
    targets = minors_in_play(tx)
    verified = frozenset(c for c in _GENERATED if tx.enforces(c)) if gated else frozenset()
    peace = _minor_at_peace in verified
    whole = gated and tx.grain_free(DiplomaticResult, verified)
    for roller in majors_in_turn(tx):
        if _roller_in_the_war in verified and roller in tx.surrendered:
            continue
        found: list[DiplomaticResult] = []
        for target in targets:
            batch = _scale(target, roller, low, high)
            if peace and not _takes_rolls(tx, batch[0]):
                continue
            if whole:
                found.extend(batch)  # nothing left to run once per (minor, roller)
            else:
                yield Batch(batch, None, verified)
        if found:
            yield Batch(tuple(found), None, verified)


@effect("82.22")
def _settle_brps(tx: Tx, minor: str, holding: Holding | None) -> None:
    """Grant what the new standing gives and deduct what it no longer gives, at their
    prorated value now (82.21, 82.22); a deduction names the grant it undoes."""
    value = tx.rs.minors[minor].brps
    want: dict[DiplomaticLevel, int] = {}
    if holding is not None:
        for level, base in grants_by_level(tx.rs, value).items():
            if holding.level >= level and base > 0:
                want[level] = base
    kept: set[DiplomaticLevel] = set()
    undo: list[LedgerEntry] = []
    for grant in tx.active_grants(minor):
        assert grant.level is not None
        if holding is not None and grant.major == holding.major and grant.level in want:
            kept.add(grant.level)
        else:
            undo.append(grant)
    deduct_all(tx, undo, "82.22")
    new = [(level, base) for level, base in sorted(want.items()) if level not in kept]
    amounts = prorated_shares(tx, [base for _, base in new])
    for (level, base), amount in zip(new, amounts, strict=True):
        assert holding is not None
        rule = "82.21A" if level is DiplomaticLevel.BRPS else "82.21B"
        entry = LedgerEntry(
            tx.next_seq(),
            holding.major,
            amount,
            LedgerKind.GRANT,
            rule,
            tx.clock,
            minor=minor,
            level=level,
            base=base,
        )
        tx.record(entry)
        tx.emit(BrpChange, entry, entry.rule)


def prorated_shares(tx: Tx, bases: list[int]) -> list[int]:
    """Prorate BRPs that change hands together as one amount (82.22), split over their
    entries so that the entries add up to it exactly."""
    proration, season = tx.rs.brp_rules["proration"], tx.clock.season
    shares, done, total = [], 0, 0
    for base in bases:
        total += base
        cumulative = prorate(proration, total, season)
        shares.append(cumulative - done)
        done = cumulative
    return shares


def deduct_all(tx: Tx, grants: list[LedgerEntry], rule: str) -> None:
    """Deduct grants together, at the prorated value of their BRPs now (82.22)."""
    if not grants:
        return
    for grant, amount in zip(grants, prorated_shares(tx, [g.base for g in grants]), strict=True):
        entry = LedgerEntry(
            tx.next_seq(),
            grant.major,
            -amount,
            LedgerKind.DEDUCTION,
            rule,
            tx.clock,
            minor=grant.minor,
            level=grant.level,
            base=grant.base,
            undoes=grant.seq,
        )
        tx.record(entry)
        tx.emit(BrpChange, entry, rule)


def deduct(tx: Tx, grant: LedgerEntry, rule: str) -> None:
    """Deduct one grant at its prorated value now (82.22)."""
    deduct_all(tx, [grant], rule)


@effect("82.33", otherwise=None)
def _reversal(tx: Tx, minor: str, old: Holding | None, new: Holding | None) -> Deadline | None:
    """82.33: when hex control is reversed, the side that lost it must be gone by the end of
    the first redeployment phase of its player turn that begins after the roll."""
    if old is None or old.level < DiplomaticLevel.CONTROL:
        return None
    if new is not None and new.side is old.side and new.level >= DiplomaticLevel.CONTROL:
        return None
    start = tx.clock.next_phase_of(old.side, Phase.DIPLOMACY)
    at = start.in_phase(Phase.REDEPLOYMENT)
    tx.emit(DeadlineSet, minor, old.side.value, str(at), "82.33")
    return Deadline(old.side, at, "82.33")


@effect("82.33", otherwise=None)
def _lift(
    tx: Tx, minor: str, deadlines: tuple[Deadline, ...], side: Side, why: str
) -> tuple[Deadline, ...] | None:
    """82.33 (a reading, docs/rules.md; a variant may replace it): `side`'s units
    stop trespassing in `minor` when its side holds control there again (a new result of
    its side, 82.31, 82.32D/E) or the minor associates with its garrison (82.34): that
    side's deadlines there end."""
    kept = tuple(d for d in deadlines if d.side is not side)
    if len(kept) != len(deadlines):
        tx.note("82.33", "{}'s 82.33 deadline in {} ends: {}", side.value, minor, why)
    return kept


def lift_deadlines(
    tx: Tx, minor: str, deadlines: tuple[Deadline, ...], side: Side, why: str
) -> tuple[Deadline, ...]:
    """`deadlines` less those `_lift` ends (all of them kept while 82.33 is off)."""
    kept = _lift(tx, minor, deadlines, side, why)
    return deadlines if kept is None else kept


@at_phase_end(Phase.REDEPLOYMENT)
@effect("82.33")
def _deadline_passes(tx: Tx, side: Side) -> None:
    """82.33: at each deadline, the side's foreign units still in the minor are eliminated;
    a minor may run several, one per reversal, each for its own side."""
    for name in by_name(tx):
        state = tx.minors[name]
        due = [d for d in state.deadlines if d.side is side and d.at == tx.clock]
        if not due:
            continue
        for unit in sorted(tx.units_in(name), key=lambda u: u.id):
            if unit.owner != name and tx.owner_side(unit) is side:
                tx.eliminate(unit.id)
                tx.emit(UnitEliminated, unit.id, "82.33", f"still in {name} after the reversal")
        rest = tuple(d for d in tx.minors[name].deadlines if d not in due)
        tx.update(name, deadlines=rest)


_GENERATED = (_in_diplomacy_phase, _roller_in_the_war, _roll_adds_up, _minor_at_peace)
"""The checks of a diplomatic result that `_results` applies itself when they are in force
(K1 by the phase and the rollers of the player turn, K4 by giving no roll)."""
