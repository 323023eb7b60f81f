"""The sequence of play (K1): a command belongs to the phase and player turn that allow it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from .._kernel.rulebook import Violation
from ..domain.clock import Phase
from ..ruleset.tables import Ruleset

if TYPE_CHECKING:
    from .._kernel.tx import Tx

__all__ = ["by_name", "in_phase", "in_turn", "majors_in_turn", "minors_in_play", "out_of_turn"]


def out_of_turn(
    tx: Tx, major: str, phase: Phase, what: str, key: str = "major"
) -> Iterator[Violation]:
    """K1: `what` (the subject and its verb, "a border war belongs"; `{major}` stands for
    the major) is done only in `phase` of `major`'s own player turn."""
    if not in_turn(tx, major, phase):
        side = tx.side(major)
        subject = what.format(major=major)
        yield Violation(
            "K1", f"{subject} in the {side.value} {phase.value} phase, not {tx.clock}", {key: major}
        )


def in_turn(tx: Tx, major: str, phase: Phase) -> bool:
    """K1: whether it is `phase` of `major`'s own player turn (`out_of_turn`'s boolean
    path)."""
    clock = tx.clock
    return clock.phase is phase and clock.side is tx.side(major)


def in_phase(tx: Tx, gated: bool, check: Callable[..., object], *phases: Phase) -> bool:
    """For candidate generators: whether commands of a kind that belongs to `phases` are
    worth trying now. Gated, and with `check` (the kind's K1 check) in force, only in those
    phases; otherwise always."""
    return not gated or not tx.enforces(check) or tx.clock.phase in phases


def majors_in_turn(tx: Tx) -> list[str]:
    """The major powers whose player turn it is, in table order."""
    side = tx.clock.side
    return [m for m, record in tx.rs.majors.items() if record.faction.side is side]


def by_name(tx: Tx) -> tuple[str, ...]:
    """Every minor country, sorted by name (the order rules that act on many minors at once
    take, so that their effects come in one order)."""
    return tx.rs.derived(_by_name)


def _by_name(rs: Ruleset) -> tuple[str, ...]:
    return tuple(sorted(rs.minors))


def minors_in_play(tx: Tx) -> tuple[str, ...]:
    """The minor countries in play (Vichy France only once France has fallen), in table
    order (worked out once per political state)."""
    memo = tx.politics()
    found: tuple[str, ...] | None = memo.get("in play")
    if found is None:
        minors = tx.minors
        found = memo["in play"] = tuple([m for m in tx.rs.minors if minors[m].active])
    return found
