"""Moments of play: `YEAR-SEASON/SIDE/PHASE`, totally ordered, stepped one phase at a time."""

from __future__ import annotations

import functools
import re
from enum import StrEnum

from attrs import frozen

from ..errors import MomentError, shown
from . import Season, Side

__all__ = ["START", "Moment", "MomentError", "Phase"]


class Phase(StrEnum):
    """The phases of a player turn, in order (scenario-format.md)."""

    DIPLOMACY = "diplomacy"
    DECLARATIONS = "declarations"
    MOVEMENT = "movement"
    COMBAT = "combat"
    REDEPLOYMENT = "redeployment"
    CONSTRUCTION = "construction"


SEASONS = tuple(Season)
SIDES = (Side.AXIS, Side.ALLIES)
PHASES = tuple(Phase)
_SIDE_AT = {side: i for i, side in enumerate(SIDES)}
_PHASE_AT = {phase: i for i, phase in enumerate(PHASES)}
_PATTERN = re.compile(r"^(\d{4})-([a-z]+)(?:/([a-z]+)/([a-z]+))?$")


@frozen
class Moment:
    """A moment of play. Ordered by `index`: year, season, side, phase."""

    index: int
    """Phases since Spring of year 0: a plain integer makes comparisons and steps cheap."""

    # ordered by `index` (written out: attrs' `order=True` compares tuples of the fields,
    # several times slower, and the clock is compared at every step)
    def __lt__(self, other: Moment) -> bool:
        return self.index < other.index if type(other) is Moment else NotImplemented

    def __le__(self, other: Moment) -> bool:
        return self.index <= other.index if type(other) is Moment else NotImplemented

    def __gt__(self, other: Moment) -> bool:
        return self.index > other.index if type(other) is Moment else NotImplemented

    def __ge__(self, other: Moment) -> bool:
        return self.index >= other.index if type(other) is Moment else NotImplemented

    @classmethod
    def of(cls, year: int, season: Season, side: Side, phase: Phase) -> Moment:
        """The moment of `phase` in `side`'s player turn of `season` `year`."""
        turn = year * 4 + SEASONS.index(season)
        return cls((turn * 2 + SIDES.index(side)) * 6 + PHASES.index(phase))

    @classmethod
    def parse(cls, text: str) -> Moment:
        """Read `1940-spring/axis/declarations`, or `1939-fall` for its first phase."""
        match = _PATTERN.match(text.strip().lower()) if isinstance(text, str) else None
        if match is None:
            raise MomentError(
                f"{shown(text)} is not a moment; write YEAR-SEASON/SIDE/PHASE, "
                "like '1940-spring/axis/declarations'"
            )
        year, season, side, phase = match.groups()
        try:
            return cls.of(
                int(year), Season(season), Side(side or "axis"), Phase(phase or "diplomacy")
            )
        except ValueError:
            raise MomentError(
                f"{shown(text)} is not a moment: seasons are spring, summer, fall, winter; sides "
                "axis, allies; phases " + ", ".join(PHASES)
            ) from None

    @property
    def year(self) -> int:
        return self.index // 48

    @property
    def season(self) -> Season:
        return SEASONS[self.index // 12 % 4]

    @property
    def side(self) -> Side:
        return SIDES[self.index // 6 % 2]

    @property
    def phase(self) -> Phase:
        return PHASES[self.index % 6]

    @property
    def turn(self) -> int:
        """The game turn (a season) counted from year 0; two moments of one turn share it."""
        return self.index // 12

    def next(self) -> Moment:
        """The moment of the following phase."""
        return Moment(self.index + 1)

    def player_turn_start(self) -> Moment:
        """The first phase (diplomacy) of this player turn."""
        return Moment(self.index - self.index % 6)

    def in_phase(self, phase: Phase) -> Moment:
        """The moment of `phase` in this player turn."""
        return Moment(self.index - self.index % 6 + PHASES.index(phase))

    def next_phase_of(self, side: Side, phase: Phase) -> Moment:
        """The first moment strictly after this one with `side` and `phase`."""
        base = self.index // 12 * 12 + _SIDE_AT[side] * 6 + _PHASE_AT[phase]
        return Moment(base if base > self.index else base + 12)

    @classmethod
    def turn_start(cls, turn: int) -> Moment:
        """The first phase of game turn `turn`."""
        return cls(turn * 12)

    def __repr__(self) -> str:
        return f"Moment({str(self)!r})"

    def __str__(self) -> str:
        return _spelled(self.index)


@functools.cache
def _spelled(index: int) -> str:
    """A moment as text, spelled out once: messages and log entries name moments often."""
    moment = Moment(index)
    return f"{moment.year}-{moment.season.value}/{moment.side.value}/{moment.phase.value}"


START = Moment.of(1939, Season.FALL, Side.AXIS, Phase.DIPLOMACY)
"""The campaign start of 82.12: `1939-fall/axis/diplomacy`."""
