"""The diplomatic scale as a function: a minor's standing result and a new one give its new
standing, status and BRP share (82.21, 82.31; the scale itself is from public material)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import ClassVar

from attrs import frozen

from .._kernel.kind import Command, MajorName, MinorName
from .._kernel.rulebook import (
    Play,
    Refusal,
    at_phase_end,
    at_start,
    candidates,
    check,
    handles,
    refuse,
    rule,
)
from ..domain import CommandKind, DiplomaticLevel, LedgerKind, ScaleEffect, Side, Status, Theater
from ..domain.clock import Phase
from ..domain.events import BrpChange, DeadlineSet, UnitEliminated
from ..domain.records import Deadline, Holding, LedgerEntry
from ..ruleset.records import LevelEffect
from ..ruleset.tables import Ruleset
from .brps import grants_by_level, prorate
from .deployment import deploy_now, deploy_share
from .machine import Trigger, fired
from .powers import owner_side, side_of
from .sequence import by_name, out_of_turn
from .ties import set_status

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


@check(DiplomaticResult, "K1", batched=True)
def _in_diplomacy_phase(p: Play, cmd: DiplomaticResult) -> list[Refusal]:
    return out_of_turn(p, cmd.major, Phase.DIPLOMACY, "{major}'s diplomatic results belong")


@check(DiplomaticResult, "K2", batched=True)
def _roller_in_the_war(p: Play, cmd: DiplomaticResult) -> list[Refusal]:
    if cmd.major not in p.board.surrendered:
        return []
    message = f"{cmd.major} has surrendered and makes no diplomatic rolls"
    return [refuse(message, major=cmd.major)]


@check(DiplomaticResult, "K4", batched=True)
def _roll_adds_up(p: Play, cmd: DiplomaticResult) -> list[Refusal]:
    if cmd.roll is None:
        return []
    total = cmd.roll + sum(cmd.modifiers)
    if total == cmd.result:
        return []
    message = (
        f"roll {cmd.roll} with modifiers {list(cmd.modifiers)} makes {total}, not the result "
        f"{cmd.result}"
    )
    return [refuse(message, roll=cmd.roll)]


@check(DiplomaticResult, "K7", batched=True)
def _minor_at_peace(p: Play, cmd: DiplomaticResult) -> list[Refusal]:
    """K7: diplomacy acts on a minor in play at peace (or, 82.63, occupied by the roller's
    side where its forces depend on the result)."""
    state = p.board.minors[cmd.minor]
    if not state.active:
        return [refuse(f"{cmd.minor} is not in play", minor=cmd.minor)]
    if state.status in PEACE or _occupied_for_diplomacy(p, cmd.minor, cmd.major):
        return []
    status = state.status
    return [
        refuse(
            lambda: (
                f"{cmd.minor} is {status.value}: diplomacy acts only on a minor at peace "
                "(neutral, BRPs attributed, hexes controlled)"
            ),
            minor=cmd.minor,
            status=status.value,
        )
    ]


def _occupied_for_diplomacy(p: Play, minor: str, major: str) -> bool:
    """82.63: a minor whose forces depend on the current result (the `†` row: Ukraine) takes
    diplomatic rolls while conquered by the roller's side (a reading: the roll for the
    Ukraine is its occupier's)."""
    state = p.board.minors[minor]
    return (
        minor in p.rs.forces_by_result
        and state.status is Status.CONQUERED
        and state.major is not None
        and side_of(p, state.major) is side_of(p, major)
    )


@handles(DiplomaticResult)
def _diplomatic_result(p: Play, cmd: DiplomaticResult) -> None:
    if p.board.minors[cmd.minor].status is Status.CONQUERED:
        _result_forces(p, cmd.minor, cmd.major, clamp(p.rs, cmd.result))
        return
    apply_result(p, cmd.minor, cmd.major, cmd.result, clause="82.21")


@rule("82.63")
def _result_forces(p: Play, minor: str, major: str, result: int) -> None:
    """82.63: the occupied minor's forces deploy only after a successful result — the share
    the `†` table gives it, set up by the roller (the default set-up)."""
    entry = p.rs.diplomatic_results[result]
    favoured = entry.side if entry.effect is ScaleEffect.SET else None
    holding = (
        Holding(major, favoured, entry.level, result, p.board.clock.player_turn_start())
        if favoured is side_of(p, major)
        else None
    )
    p.board.update(minor, standing=holding)
    share = p.rs.forces_by_result[minor].share(result if holding is not None else None)
    if share > 0 and not bool(p.board.units_of(minor)):
        deploy_share(p, minor, major, share)
    else:
        p.note("82.63", "{}'s result {} raises no forces in {}", major, result, minor)


@rule("82.21")
def apply_result(p: Play, minor: str, major: str, result: int, *, clause: str) -> None:
    """82.21 (82.31): a modified result of `major` on `minor` (`clause`: the one it is
    given under) sets the new standing, its BRPs (82.22), the minor's status, the 82.33
    reversal, and the partner's wars."""
    rs = p.rs
    clamped = clamp(rs, result)
    if clamped != result:
        low, high = rs.scale
        p.note(
            clause,
            "result {} for {} counts as {}: the scale runs {}..{}",
            result,
            minor,
            clamped,
            low,
            high,
        )
    roller = side_of(p, major)
    entry = rs.diplomatic_results[clamped]
    if entry.effect is ScaleEffect.SET and entry.side is not None and entry.side is not roller:
        # A result favouring the other side counts as the band that keeps that side's
        # standing and cancels the roller's (a reading: docs/rules.md, 82.21).
        clamped = cancelling(rs, entry.side)
        p.note(
            clause, "{}'s result {} favours the other side: it counts as {}", major, result, clamped
        )
    state = p.board.minors[minor]
    old = state.standing
    current = Standing(old.side, old.level) if old is not None else None
    new = next_standing(rs, current, clamped)
    if new == current:
        return  # kept, or set again at the level already standing: nothing changes
    holding = None
    if new is not None:  # a result of the roller's side set a new standing: it holds it
        holding = Holding(major, new.side, new.level, clamped, p.board.clock.player_turn_start())
    _settle_brps(p, minor, holding)
    level = holding.level if holding is not None else DiplomaticLevel.NONE
    effective = effect_of(rs, level, rs.minors[minor].theater)
    trigger = TRIGGERS[effective.level if effective is not None else DiplomaticLevel.NONE]
    barred = holding is not None and holding.major in state.barred
    dest = fired(state.status, trigger, False, not barred)
    if dest is None:  # only with K7 switched off (a test): the result changes nothing
        return
    deadlines = state.deadlines
    if holding is not None and holding.level >= DiplomaticLevel.CONTROL:
        deadlines = lift_deadlines(p, minor, deadlines, holding.side, "controls it again")
    reversal = _reversal(p, minor, old, holding)
    if reversal is not None:
        deadlines = (*deadlines, reversal)
    major_of = holding.major if holding is not None and dest is not Status.NEUTRAL else None
    set_status(
        p, state, dest, major_of, _rule_of(dest), f"{major}'s diplomatic result {clamped}",
        standing=holding, deadlines=deadlines,
    )  # fmt: skip
    if dest in (Status.ASSOCIATED, Status.ALLIED) and major_of is not None:
        deploy_now(p, minor, major_of)


@at_start
@rule("82.31")
def standing_at_the_start(p: Play) -> None:
    """82.21, 82.31 (a reading, docs/rules.md; a variant may replace it): a minor the start
    gives with its BRPs attributed or its hexes controlled holds what the result giving that
    status would have given in play, made by its start major at the start's player turn:
    the standing (so 82.32D opens it to the controller and its allies and the 82.32 limit
    holds) and the grants (82.22), which a reversal deducts."""
    rs = p.rs
    for name in by_name(p):
        state = p.board.minors[name]
        major = state.major
        if state.status not in _GRANTED or major is None or state.standing is not None:
            continue
        result = _result_giving(rs, state.status, side_of(p, major), rs.minors[name].theater)
        if result is None:
            continue  # the tables' scale has no result that gives this status
        level = rs.diplomatic_results[result].level
        holding = Holding(
            major, side_of(p, major), level, result, p.board.clock.player_turn_start()
        )
        _settle_brps(p, name, holding)
        p.board.update(name, standing=holding)


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
def _results(p: Play) -> Iterator[tuple[DiplomaticResult, ...]]:
    """Every result of the scale by each major power on each minor K7 lets it roll on (no roll
    given), a batch per major: K1 and K2 read only the roller, and the minors K7 refuses (asked once
    per state of the minors) are left out. A roller K1 or K2 refuses is left out whole."""
    rules = p.rules
    low, high = p.rs.scale
    minors = tuple(p.rs.minors)
    memo = p.board.politics() if rules.as_written(_minor_at_peace) else p.board.memo()
    for roller in p.rs.majors:
        probe = _scale(minors[0], roller, low, high)[0]
        if rules.refuses(_in_diplomacy_phase, p, probe):
            continue
        if rules.refuses(_roller_in_the_war, p, probe):
            continue
        found: tuple[DiplomaticResult, ...] | None = memo.get(("results", roller))
        if found is None:
            found = memo[("results", roller)] = tuple(
                cmd
                for target in minors
                if not rules.refuses(
                    _minor_at_peace, p, (batch := _scale(target, roller, low, high))[0]
                )
                for cmd in batch
            )
        if found:
            yield found


@rule("82.22")
def _settle_brps(p: Play, minor: str, holding: Holding | None) -> None:
    """Grant what the new standing gives and deduct what it no longer gives, at their
    prorated value now (82.21, 82.22); a deduction names the grant it undoes."""
    value = p.rs.minors[minor].brps
    want: dict[DiplomaticLevel, int] = {}
    if holding is not None:
        for level, base in grants_by_level(p.rs, value).items():
            if holding.level >= level and base > 0:
                want[level] = base
    kept: set[DiplomaticLevel] = set()
    undo: list[LedgerEntry] = []
    for grant in p.board.active_grants(minor):
        assert grant.level is not None
        if holding is not None and grant.major == holding.major and grant.level in want:
            kept.add(grant.level)
        else:
            undo.append(grant)
    deduct_all(p, undo, "82.22")
    new = [(level, base) for level, base in sorted(want.items()) if level not in kept]
    amounts = prorated_shares(p, [base for _, base in new])
    for (level, base), amount in zip(new, amounts, strict=True):
        assert holding is not None
        rule = "82.21A" if level is DiplomaticLevel.BRPS else "82.21B"
        entry = LedgerEntry(
            p.board.next_seq(),
            holding.major,
            amount,
            LedgerKind.GRANT,
            rule,
            p.board.clock,
            minor=minor,
            level=level,
            base=base,
        )
        p.board.record(entry)
        p.emit(BrpChange, entry, entry.rule)


def prorated_shares(p: Play, bases: list[int]) -> list[int]:
    """Prorate BRPs that change hands together as one amount (82.22), split over their
    entries so that the entries add up to it exactly."""
    proration, season = p.rs.brp_rules["proration"], p.board.clock.season
    shares, done, total = [], 0, 0
    for base in bases:
        total += base
        cumulative = prorate(proration, total, season)
        shares.append(cumulative - done)
        done = cumulative
    return shares


def deduct_all(p: Play, grants: list[LedgerEntry], rule: str) -> None:
    """Deduct grants together, at the prorated value of their BRPs now (82.22)."""
    if not grants:
        return
    for grant, amount in zip(grants, prorated_shares(p, [g.base for g in grants]), strict=True):
        entry = LedgerEntry(
            p.board.next_seq(),
            grant.major,
            -amount,
            LedgerKind.DEDUCTION,
            rule,
            p.board.clock,
            minor=grant.minor,
            level=grant.level,
            base=grant.base,
            undoes=grant.seq,
        )
        p.board.record(entry)
        p.emit(BrpChange, entry, rule)


def deduct(p: Play, grant: LedgerEntry, rule: str) -> None:
    """Deduct one grant at its prorated value now (82.22)."""
    deduct_all(p, [grant], rule)


@rule("82.33", otherwise=None)
def _reversal(p: Play, minor: str, old: Holding | None, new: Holding | None) -> Deadline | None:
    """82.33: when hex control is reversed, the side that lost it must be gone by the end of
    the first redeployment phase of its player turn that begins after the roll."""
    if old is None or old.level < DiplomaticLevel.CONTROL:
        return None
    if new is not None and new.side is old.side and new.level >= DiplomaticLevel.CONTROL:
        return None
    start = p.board.clock.next_phase_of(old.side, Phase.DIPLOMACY)
    at = start.in_phase(Phase.REDEPLOYMENT)
    p.emit(DeadlineSet, minor, old.side.value, str(at), "82.33")
    return Deadline(old.side, at, "82.33")


@rule("82.33", otherwise=None)
def _lift(
    p: Play, minor: str, deadlines: tuple[Deadline, ...], side: Side, why: str
) -> tuple[Deadline, ...] | None:
    """82.33 (a reading, docs/rules.md; a variant may replace it): `side`'s units stop trespassing
    in `minor` when its side holds control there again (a new result of its side, 82.31, 82.32D/E)
    or the minor associates with its garrison (82.34): that side's deadlines there end."""
    kept = tuple(d for d in deadlines if d.side is not side)
    if len(kept) != len(deadlines):
        p.note("82.33", "{}'s 82.33 deadline in {} ends: {}", side.value, minor, why)
    return kept


def lift_deadlines(
    p: Play, minor: str, deadlines: tuple[Deadline, ...], side: Side, why: str
) -> tuple[Deadline, ...]:
    """`deadlines` less those `_lift` ends (all of them kept while 82.33 is off)."""
    kept = _lift(p, minor, deadlines, side, why)
    return deadlines if kept is None else kept


@at_phase_end(Phase.REDEPLOYMENT)
@rule("82.33")
def _deadline_passes(p: Play, side: Side) -> None:
    """82.33: at each deadline, the side's foreign units still in the minor are eliminated;
    a minor may run several, one per reversal, each for its own side."""
    for name in by_name(p):
        state = p.board.minors[name]
        due = [d for d in state.deadlines if d.side is side and d.at == p.board.clock]
        if not due:
            continue
        for unit in sorted(p.board.units_in(name), key=lambda u: u.id):
            if unit.owner != name and owner_side(p, unit) is side:
                p.board.drop_unit(unit.id, "eliminated")
                p.emit(UnitEliminated, unit.id, "82.33", f"still in {name} after the reversal")
        rest = tuple(d for d in p.board.minors[name].deadlines if d not in due)
        p.board.update(name, deadlines=rest)
