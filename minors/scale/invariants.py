"""The invariants `minors explore` checks in every position, those of `minors.testing`: each
a function of a game that lists its problems, none when it holds."""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from ..domain.clock import Moment, Phase
from ..rules82 import Game
from ..testing import (
    broken_bars,
    conquered_units,
    exceeded_limits,
    fits,
    ledger_problems,
    stale_caches,
    ties_with_enemies,
    unlogged_eliminations,
)

__all__ = ["INVARIANTS", "LISTED_APPLY", "Invariant", "broken"]


@frozen
class Invariant:
    """One invariant: its name (the state machine's), the clause it keeps, and the
    function that finds what breaks it."""

    name: str
    clause: str
    check: Callable[[Game], list[str]]
    after_phase_end: bool = False
    """Checked only right after the clock left a movement, combat or redeployment phase
    (82.321B: the limits are enforced at those phase ends, not in between)."""


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("statuses_fit", "82.11", fits),
    Invariant("no_tie_with_an_enemy", "82.11E", ties_with_enemies),
    Invariant("bars_hold", "82.351", broken_bars),
    Invariant("no_units_of_conquered_minors", "82.11G", conquered_units),
    Invariant("deductions_undo_grants", "82.22", ledger_problems),
    Invariant("caches_agree", "", stale_caches),
    Invariant("eliminations_are_logged", "", unlogged_eliminations),
    Invariant("limits_hold_at_phase_end", "82.321B", exceeded_limits, after_phase_end=True),
)
"""Every invariant of the state `minors.testing` checks, in the state machine's order."""

LISTED_APPLY = Invariant("listed_commands_apply", "", lambda game: [])
"""The API's invariant: a command `legal_actions` lists applies, and the clock advances,
without a violation or an error (checked as each step is tried)."""

_ENFORCED = (Phase.MOVEMENT, Phase.COMBAT, Phase.REDEPLOYMENT)


def broken(game: Game, passed: Moment | None) -> list[tuple[Invariant, list[str]]]:
    """Every invariant `game` breaks now, with its problems (a check that raises breaks its
    own); `passed` is the moment the clock just left, if the last step was an advance."""
    found = []
    for invariant in INVARIANTS:
        if invariant.after_phase_end and (passed is None or passed.phase not in _ENFORCED):
            continue
        try:
            problems = invariant.check(game)
        except Exception as exc:  # a malformed position (or check): broken here, said so
            problems = [f"the check raised {type(exc).__name__}: {exc}"]
        if problems:
            found.append((invariant, problems))
    return found
