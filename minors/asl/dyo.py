"""Design Your Own purchases (A25.57): no side buys both Free French and Vichy French; a
purchase names its nationality as text, in which case, spaces and hyphens do not matter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from attrs import field, frozen

from ..domain import Side
from ..domain.arguments import checked, typed
from ..domain.marks import clause
from ..errors import DyoError, Violation

__all__ = ["DyoError", "FrenchForce", "Purchase", "check_purchases", "french_force"]


class FrenchForce(StrEnum):
    """The two French forces after June 1940 that A25.57 keeps apart."""

    FREE_FRENCH = "free_french"
    """A25.53: Free French personnel, with the Cross of Lorraine."""
    VICHY_FRENCH = "vichy_french"
    """A25.58: Vichy French, in their two-tone colour."""


_ALIASES = {
    "free_french": FrenchForce.FREE_FRENCH,
    "vichy_french": FrenchForce.VICHY_FRENCH,
    "vichy": FrenchForce.VICHY_FRENCH,
}


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


@checked(DyoError)
def french_force(nationality: str) -> FrenchForce | None:
    """The French force a nationality name stands for, or None (plain `French` too: 1940's)."""
    return _ALIASES.get(_key(nationality))


def _text(value: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DyoError(f"{value!r} is not a name; give a non-empty text")
    return value


@frozen(field_transformer=typed(DyoError))
class Purchase:
    """One item of a DYO purchase list: what, for which side, of which nationality."""

    item: str = field(converter=_text)
    side: Side = field(converter=Side)
    nationality: str = field(converter=_text)


@checked(DyoError)
@clause("A25.57", otherwise=())
def check_purchases(purchases: Iterable[Purchase]) -> tuple[Violation, ...]:
    """A25.57: one violation for each side whose purchases include both Free French and
    Vichy French, naming the items of each."""
    bought: dict[Side, dict[FrenchForce, list[str]]] = {}
    for purchase in purchases:
        force = french_force(purchase.nationality)
        if force is not None:
            bought.setdefault(purchase.side, {}).setdefault(force, []).append(purchase.item)
    out: list[Violation] = []
    for side in Side:
        forces = bought.get(side, {})
        if len(forces) == len(FrenchForce):
            free = forces[FrenchForce.FREE_FRENCH]
            vichy = forces[FrenchForce.VICHY_FRENCH]
            out.append(
                Violation(
                    "A25.57",
                    f"the {side.value} side buys Free French {free} and Vichy French {vichy}; "
                    "a side may buy only one of the two: drop one nationality's purchases",
                    {"side": side.value, "free_french": free, "vichy_french": vichy},
                )
            )
    return tuple(out)
