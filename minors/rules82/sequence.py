"""The sequence of play (K1): a command belongs to the phase and player turn that allow it."""

from __future__ import annotations

from .._kernel.rulebook import Play, Refusal, refuse
from ..domain import CommandKind
from ..domain.clock import Phase
from ..ruleset.tables import Ruleset
from .powers import side_of

__all__ = ["advice", "by_name", "in_turn", "majors_in_turn", "minors_in_play", "out_of_turn"]


def out_of_turn(p: Play, major: str, phase: Phase, what: str, key: str = "major") -> list[Refusal]:
    """K1: `what` (the subject and its verb, "a border war belongs"; `{major}` stands for
    the major) is done only in `phase` of `major`'s own player turn."""
    if in_turn(p, major, phase):
        return []
    clock = p.board.clock

    def message() -> str:
        subject = what.format(major=major)
        return f"{subject} in the {side_of(p, major).value} {phase.value} phase, not {clock}"

    return [refuse(message, **{key: major})]


def in_turn(p: Play, major: str, phase: Phase) -> bool:
    """K1: whether it is `phase` of `major`'s own player turn."""
    clock = p.board.clock
    return clock.phase is phase and clock.side is side_of(p, major)


def majors_in_turn(p: Play) -> list[str]:
    """The major powers whose player turn it is, in table order."""
    of = p.board.clock.side
    return [m for m, record in p.rs.majors.items() if record.faction.side is of]


def by_name(p: Play) -> tuple[str, ...]:
    """Every minor country, sorted by name (the order rules that act on many minors at once
    take, so that their events come in one order)."""
    return p.rs.derived(_by_name)


def _by_name(rs: Ruleset) -> tuple[str, ...]:
    return tuple(sorted(rs.minors))


def minors_in_play(p: Play) -> tuple[str, ...]:
    """The minor countries in play (Vichy France only once France has fallen), in table
    order (worked out once per political state)."""
    memo = p.board.politics()
    found: tuple[str, ...] | None = memo.get("in play")
    if found is None:
        minors = p.board.minors
        found = memo["in play"] = tuple([m for m in p.rs.minors if minors[m].active])
    return found


def advice(p: Play, attacker: str, target: str) -> str:
    """What a refusal tells `attacker` to do about `target`: declare war if `check` takes it
    now, else why it cannot (a refusal never prescribes an illegal move)."""
    kind = p.rules.book.kinds[CommandKind.DECLARE_WAR]  # every rule-82 rulebook has it
    for check, _ in p.rules.checks.get(kind, ()):
        for refusal in check(p, kind(attacker, target)):
            return f"{attacker} cannot declare war on {target} now: {refusal.message}"
    return f"{attacker} may declare war on {target} now"
