"""The hex geometry of the Human Wave checks: ASL board coordinates (`O3`, `GG10`),
hexsides numbered as on the Sniper counter, hex grains (docs/humanwave.md, "The geometry")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import IntEnum
from itertools import pairwise

from attrs import field, frozen

from ..domain.arguments import checked, typed
from ..errors import HexError

__all__ = ["Hex", "HexError", "HexGrain", "Hexside", "distance", "grains_through"]


class Hexside(IntEnum):
    """A hexside of a hex, numbered as on the Sniper counter (A25.231's example): 1 faces the
    top of the board, and the numbers run clockwise (docs/humanwave.md, "The geometry")."""

    N = 1
    NE = 2
    SE = 3
    S = 4
    SW = 5
    NW = 6

    @checked(HexError)
    def turned(self, steps: int) -> Hexside:
        """The hexside `steps` places clockwise (negative: anticlockwise)."""
        return Hexside((self.value - 1 + steps) % 6 + 1)

    @property
    def opposite(self) -> Hexside:
        """The hexside facing this one."""
        return self.turned(3)

    @checked(HexError)
    def is_beside(self, other: Hexside) -> bool:
        """Whether the two hexsides meet at a vertex (they are one place apart)."""
        return other in (self.turned(1), self.turned(-1))


_OFFSET: dict[Hexside, tuple[int, int]] = {
    Hexside.N: (0, -2),
    Hexside.NE: (1, -1),
    Hexside.SE: (1, 1),
    Hexside.S: (0, 2),
    Hexside.SW: (-1, 1),
    Hexside.NW: (-1, -1),
}
"""The step across each hexside, in doubled coordinates."""

_NAME = re.compile(r"^([A-Z])(\1?)(\d{1,3})$")
MAX_COLUMN = 52
"""`ZZ`: single letters are columns 1-26, doubled letters 27-52."""
MAX_ROW = 999
"""A hex is named with at most three digits of row (`A999`)."""
_REACH = 2 * (MAX_ROW + 1) + 2 * MAX_COLUMN
"""No hex of a grain farther than this many steps from its target is on the board."""


@frozen(order=True, field_transformer=typed(HexError))
class Hex:
    """A hex of the board: `column` 1 (`A`) ... 52 (`ZZ`), `row` 0 upward from the top."""

    column: int = field()
    row: int = field()

    @column.validator
    def _check_column(self, _: object, value: int) -> None:
        if not isinstance(value, int) or not 1 <= value <= MAX_COLUMN:
            raise HexError(f"column {value!r} is not on the board; columns are 1 (A) to 52 (ZZ)")

    @row.validator
    def _check_row(self, _: object, value: int) -> None:
        if not isinstance(value, int) or not 0 <= value <= MAX_ROW:
            raise HexError(f"row {value!r} is not on the board; rows are 0 to {MAX_ROW}")

    @classmethod
    def parse(cls, text: str | Hex) -> Hex:
        """Read `O3` or `GG10`; a `Hex` is returned as it is."""
        if isinstance(text, Hex):
            return text
        match = _NAME.match(text.strip().upper()) if isinstance(text, str) else None
        if match is None:
            raise HexError(
                f"{text!r} is not a hex; write a column letter (A-Z, AA-ZZ) and a row, like 'O3'"
            )
        letter, double, row = match.groups()
        column = ord(letter) - ord("A") + 1 + (26 if double else 0)
        return cls(column, int(row))

    @property
    def doubled(self) -> tuple[int, int]:
        """`(column, 2 × row, plus 1 in an even column)`: even columns are half a hex lower."""
        return self.column, 2 * self.row + (1 if self.column % 2 == 0 else 0)

    @classmethod
    @checked(HexError)
    def from_doubled(cls, column: int, y: int) -> Hex | None:
        """The hex at doubled coordinates, or None when that is off the board."""
        low = 1 if column % 2 == 0 else 0
        if not 1 <= column <= MAX_COLUMN or not low <= y <= 2 * MAX_ROW + low or (y - low) % 2:
            return None
        return cls(column, (y - low) // 2)

    @checked(HexError)
    def neighbour(self, side: Hexside) -> Hex | None:
        """The hex across `side`, or None when that is off the board."""
        dc, dy = _OFFSET[side]
        column, y = self.doubled
        return Hex.from_doubled(column + dc, y + dy)

    def neighbours(self) -> tuple[Hex, ...]:
        """The hexes across hexsides 1-6, in that order, leaving out those off the board."""
        return tuple(h for side in Hexside if (h := self.neighbour(side)) is not None)

    @checked(HexError)
    def side_towards(self, other: Hex) -> Hexside | None:
        """The hexside shared with `other`, or None when the two are not adjacent."""
        return next((side for side in Hexside if self.neighbour(side) == other), None)

    def __str__(self) -> str:
        letter = chr(ord("A") + (self.column - 1) % 26)
        return f"{letter * (1 + (self.column - 1) // 26)}{self.row}"

    def __repr__(self) -> str:
        return f"Hex({str(self)!r})"


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dc, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dc + max(0, (dy - dc) // 2)


@checked(HexError)
def distance(a: Hex, b: Hex) -> int:
    """The range in hexes between two hexes (0 for the same hex)."""
    return _distance(a.doubled, b.doubled)


def _to_hex(value: str | Hex) -> Hex:
    return Hex.parse(value)


def _to_side(value: Hexside | int) -> Hexside:
    try:
        return Hexside(value)
    except ValueError:
        raise HexError(f"hexside {value!r} is not one of 1-6") from None


def _to_optional_side(value: Hexside | int | None) -> Hexside | None:
    return None if value is None else _to_side(value)


@frozen(field_transformer=typed(HexError))
class HexGrain:
    """A Hex Grain or alternate Hex Grain through `target`, oriented toward and beyond it
    (docs/humanwave.md, "Hex grains"). Its hexes are indexed from the target, 0: 1, 2 ...
    lie beyond it in the HW Direction, -1, -2 ... behind it."""

    target: Hex = field(converter=_to_hex)
    direction: Hexside = field(converter=_to_side)
    alternate: Hexside | None = field(default=None, converter=_to_optional_side)

    @alternate.validator
    def _check_alternate(self, _: object, value: Hexside | None) -> None:
        if value is not None and not value.is_beside(self.direction):
            raise HexError(
                f"an alternate hex grain alternates two hexsides that meet; {value.value} and "
                f"{self.direction.value} do not (use {self.direction.turned(-1).value} or "
                f"{self.direction.turned(1).value})"
            )

    @property
    def is_alternate(self) -> bool:
        """Whether this is an alternate Hex Grain."""
        return self.alternate is not None

    def _doubled_at(self, k: int) -> tuple[int, int]:
        # Steps 0, 2, 4 ... cross `direction`, steps 1, 3 ... `alternate`; behind the
        # target, steps -1, -3 ... are the alternate ones, walked backwards.
        column, y = self.target.doubled
        first, second = _OFFSET[self.direction], _OFFSET[self.alternate or self.direction]
        n = abs(k)
        firsts, seconds = ((n + 1) // 2, n // 2) if k >= 0 else (n // 2, (n + 1) // 2)
        sign = 1 if k >= 0 else -1
        dc = firsts * first[0] + seconds * second[0]
        dy = firsts * first[1] + seconds * second[1]
        return column + sign * dc, y + sign * dy

    @checked(HexError)
    def hex_at(self, k: int) -> Hex | None:
        """The grain's hex at index `k` (0: the target), or None when it is off the board."""
        return Hex.from_doubled(*self._doubled_at(k)) if abs(k) <= _REACH else None

    @checked(HexError)
    def hexes(self, start: int, stop: int) -> tuple[Hex, ...]:
        """The grain's hexes from index `start` up to, not including, `stop` (on the board)."""
        span = range(max(start, -_REACH), min(stop, _REACH + 1))
        return tuple(h for k in span if (h := self.hex_at(k)) is not None)

    def _nearest(self, hex_: Hex) -> tuple[int, tuple[int, ...]]:
        """The range from `hex_` to the grain and the indexes of the grain's nearest hexes. The
        grain has no end, but its hexes at |k| > 2d + 2 (d: the range to the target) are
        farther than the target itself."""
        point = hex_.doubled
        reach = 2 * distance(hex_, self.target) + 2
        ranges = {k: _distance(point, self._doubled_at(k)) for k in range(-reach, reach + 1)}
        best = min(ranges.values())
        return best, tuple(k for k, r in sorted(ranges.items()) if r == best)

    @checked(HexError)
    def range_from(self, hex_: Hex) -> int:
        """A25.2321: the range from `hex_` to the closest hex of this grain."""
        return self._nearest(hex_)[0]

    @checked(HexError)
    def approaches_target(self, hex_: Hex) -> bool:
        """Whether a unit in `hex_` lies behind or level with the target along this grain
        (one of its nearest grain hexes has index ≤ 0), so that the grain's direction runs
        from it toward, and beyond, the target (A25.231)."""
        return min(self._nearest(hex_)[1]) <= 0

    @property
    def forward_hexsides(self) -> tuple[Hexside, ...]:
        """A25.2311: the hexsides a HW Unit's forward hexes lie across: the HW Direction and the two
        beside it on a normal grain, the two hexsides of the direction on an alternate grain."""
        if self.alternate is None:
            return tuple(sorted(self.direction.turned(t) for t in (-1, 0, 1)))
        return tuple(sorted((self.direction, self.alternate)))

    @property
    def side_hexsides(self) -> tuple[Hexside, ...]:
        """A25.2311: the hexsides of a HW Unit's side hexes: none on a normal grain; on an
        alternate grain, the two that are beside one forward hexside and not forward."""
        if self.alternate is None:
            return ()
        forward = (self.direction, self.alternate)
        beside = {s.turned(t) for s in forward for t in (1, -1)}
        return tuple(sorted(beside - set(forward)))

    @classmethod
    @checked(HexError)
    def from_hexes(cls, hexes: Sequence[str | Hex], target: str | Hex) -> HexGrain:
        """The grain through `hexes`, written in the HW Direction (`P1-P2-O3-O4`), which
        must hold `target`."""
        cells = [Hex.parse(h) for h in hexes]
        goal = Hex.parse(target)
        if goal not in cells:
            raise HexError(f"the target {goal} is not one of the grain's hexes {_joined(cells)}")
        steps: list[Hexside] = []
        for here, there in pairwise(cells):
            side = here.side_towards(there)
            if side is None:
                raise HexError(f"{here} and {there} are not adjacent: {_joined(cells)} is no grain")
            steps.append(side)
        if not steps:
            raise HexError("a hex grain needs at least two hexes")
        at = cells.index(goal)
        first = steps[0]
        if all(s == first for s in steps):
            return cls(goal, first)
        pair = (first, steps[1])
        if not first.is_beside(steps[1]) or any(s != pair[i % 2] for i, s in enumerate(steps)):
            raise HexError(
                f"{_joined(cells)} is no hex grain: its steps cross hexsides "
                f"{[s.value for s in steps]}, neither one repeated nor two that meet alternated"
            )
        # The step out of the target is steps[at]; past the last hex, the pattern goes on.
        return cls(goal, pair[at % 2], pair[(at + 1) % 2])

    def __str__(self) -> str:
        kind = "alternate hex grain" if self.is_alternate else "hex grain"
        return f"{kind} {_joined(self.hexes(-3, 2))}..."


def _joined(cells: Sequence[Hex]) -> str:
    return "-".join(map(str, cells))


@checked(HexError)
def grains_through(target: Hex) -> tuple[HexGrain, ...]:
    """The 18 oriented grains through `target`: six normal, twelve alternate."""
    return tuple(
        HexGrain(target, side, alternate)
        for side in Hexside
        for alternate in (None, side.turned(-1), side.turned(1))
    )
