"""ASL personnel counters as the Commissar (A25.22-A25.223) and Human Wave (A25.23-A25.234)
checks see them: what a counter is (MMC or SMC), and its printed rating."""

from __future__ import annotations

import re
from enum import StrEnum

from ..domain.arguments import checked
from ..errors import PersonnelError

__all__ = ["PersonnelError", "PersonnelKind", "check_rating"]


class PersonnelKind(StrEnum):
    """What a personnel counter is: three kinds of Multi-Man Counter, two of Single-Man."""

    SQUAD = "squad"
    """MMC: a squad, rated firepower-range-morale (`4-2-6`)."""
    HALF_SQUAD = "half_squad"
    """MMC: a half-squad (HS), rated like a squad (`2-2-6`)."""
    CREW = "crew"
    """MMC: an Infantry crew, rated like a squad (`2-2-8`)."""
    LEADER = "leader"
    """SMC: a leader, rated morale and leadership modifier (`8-1`, `9-0`, `6+1`); a
    Commissar (A25.22) is a leader."""
    HERO = "hero"
    """SMC: a hero, rated firepower-range-morale (`1-4-9`)."""

    @property
    def is_mmc(self) -> bool:
        """A Multi-Man Counter: squad, half-squad or crew."""
        return self in _MMC

    @property
    def is_smc(self) -> bool:
        """A Single-Man Counter: leader or hero."""
        return not self.is_mmc


_MMC = frozenset({PersonnelKind.SQUAD, PersonnelKind.HALF_SQUAD, PersonnelKind.CREW})

_THREE_PART = re.compile(r"^(\d{1,2})-(\d{1,2})-(\d{1,2})$")
_LEADER = re.compile(r"^(\d{1,2})([+-])(\d)$")


@checked(PersonnelError)
def check_rating(kind: PersonnelKind, rating: str) -> str:
    """`rating`, if it has the shape of a `kind` counter's rating; else a PersonnelError."""
    pattern = _LEADER if kind is PersonnelKind.LEADER else _THREE_PART
    if not isinstance(rating, str) or pattern.match(rating) is None:
        shape = "like '8-1' or '6+1'" if kind is PersonnelKind.LEADER else "like '4-2-6'"
        raise PersonnelError(f"{rating!r} is not a {kind.value} rating; write it {shape}")
    return rating
