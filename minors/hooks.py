"""Hooks: behaviour that depends on rules rule 82 cites but does not give.

Each hook has a documented default; an engine or a house rule passes its own through
`Game.new(hooks=Hooks(...))`. The audit log names the hooks in force.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from attrs import frozen

from .domain import Status
from .state import evolve

if TYPE_CHECKING:
    from .tx import Tx

__all__ = [
    "Hooks",
    "default_subversion",
    "default_vichy",
    "no_vichy_colonies",
    "vichy_colony_units_exempt",
]


def default_subversion(tx: Tx, major: str, minor: str) -> None:
    """82.36 default: a successful Communist subversion counts as a −1 result for `major`
    (control of the minor's hexes and all its BRPs). The subversion rule itself is not in
    rule 82."""
    from .diplomacy import apply_result

    apply_result(tx, minor, major, -1, rule="82.36")


def default_vichy(tx: Tx) -> None:
    """France's fall: Vichy France becomes an active neutral minor (rule 77 is not given)."""
    state = tx.minors.get("Vichy France")
    if state is not None and not state.active:
        tx.put(evolve(state, active=True, status=Status.NEUTRAL))


def no_vichy_colonies(tx: Tx, major: str, minor: str) -> bool:
    """82.41 exception (77.61): whether `minor` is a Vichy colony that Britain or the U.S.
    may attack without a declaration. No registry entry is a Vichy colony by default."""
    return False


def vichy_colony_units_exempt(tx: Tx, owner: str, minor: str) -> bool:
    """82.32A (77.63D): Axis units in a Vichy colony that Britain or the U.S. attacked do not
    count against the limit; which minors are such colonies is the `vichy_colony` hook's."""
    if owner in tx.rs.majors and tx.side(owner).value != "axis":
        return False
    return tx.hooks.vichy_colony(tx, "Britain", minor) or tx.hooks.vichy_colony(tx, "U.S.", minor)


@frozen
class Hooks:
    """The hooks in force; every field has a documented default."""

    subversion: Callable[[Tx, str, str], None] = default_subversion
    vichy: Callable[[Tx], None] = default_vichy
    vichy_colony: Callable[[Tx, str, str], bool] = no_vichy_colonies
    limit_exempt: Callable[[Tx, str, str], bool] = vichy_colony_units_exempt
