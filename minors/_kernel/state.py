"""A minor's row on the live board (`MinorRow`), and the stable hash the position key is made of."""

from __future__ import annotations

import enum
import hashlib
from typing import Any

import attrs

from ..domain import Status
from ..domain.clock import Moment
from ..domain.records import Deadline, Deployment, Holding, MinorState, Pending

__all__ = ["Minor", "MinorRow", "entry_key", "stable_hash"]


class MinorRow:
    """A minor's record on the live board: `MinorState`'s fields, changed in place by
    `Board.update` (a status change writes a few fields, not an 18-field record); `view`
    gives the frozen `MinorState`."""

    __slots__ = (
        "active", "at_war_with", "attacked_at", "attacked_by", "barred", "cached", "deadlines",
        "deployed", "deployment", "direct_wars", "invaded", "invaded_at", "major", "name",
        "owner", "pending", "refused_by", "standing", "status",
    )  # fmt: skip

    name: str
    status: Status
    major: str | None
    at_war_with: tuple[str, ...]
    direct_wars: tuple[str, ...]
    attacked_by: str | None
    attacked_at: Moment | None
    standing: Holding | None
    pending: Pending | None
    refused_by: tuple[str, ...]
    barred: tuple[str, ...]
    deadlines: tuple[Deadline, ...]
    deployment: Deployment | None
    invaded: tuple[str, ...]
    invaded_at: Moment | None
    active: bool
    deployed: bool
    owner: object
    """The board that may change this row in place (any other copies it first)."""
    cached: MinorState | None
    """The view made of the row as it stands (dropped at every change)."""

    def view(self) -> MinorState:
        """The row as a frozen `MinorState` (made once per state of the row)."""
        found = self.cached
        if found is None:
            found = self.cached = MinorState(*[getattr(self, f) for f in MINOR_FIELDS])
        return found

    def copy(self, owner: object) -> MinorRow:
        """A copy of the row that `owner` may change."""
        row = MinorRow.of(self, owner)
        row.cached = self.cached
        return row

    @classmethod
    def of(cls, state: MinorState | MinorRow, owner: object) -> MinorRow:
        """A row holding the fields of `state`, that `owner` may change."""
        row = object.__new__(cls)
        for f in MINOR_FIELDS:
            setattr(row, f, getattr(state, f))
        row.owner = owner
        row.cached = state if type(state) is MinorState else None
        return row

    def __repr__(self) -> str:
        return f"MinorRow({self.view()!r})"


Minor = MinorState | MinorRow
"""A minor's record as rules read it: its row on the board, or a frozen `MinorState`."""

MINOR_FIELDS = tuple(a.name for a in attrs.fields(MinorState))
"""The fields of a minor's record, in `MinorState`'s order (a `MinorRow` has the same)."""


# ---- the position key: a stable 64-bit hash (never Python's salted `hash`) -------------------

_MASK = (1 << 64) - 1
_STABLE: dict[Any, int] = {}
"""Stable hashes of values already met (values recur: names, statuses, moments, records)."""


def _bytes_key(tag: bytes, data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(tag + data, digest_size=8).digest(), "little")


def _mix(h: int, x: int) -> int:
    """Fold `x` into `h` (an order-sensitive 64-bit combination: FNV-style multiply, then
    a xorshift)."""
    h = ((h ^ x) * 0x100000001B3) & _MASK
    return h ^ (h >> 29)


def stable_hash(value: Any) -> int:
    """A 64-bit hash of `value` that is the same in every process and under every
    PYTHONHASHSEED: text by BLAKE2b, integers, enums, tuples and frozen records by their
    parts (memoized by value, as values recur)."""
    try:
        return _STABLE[value]
    except KeyError:
        pass
    except TypeError:  # unhashable (a dict): hashed by its sorted items, not memoized
        return _compute(value)
    found = _compute(value)
    if len(_STABLE) < 1 << 18:
        _STABLE[value] = found
    return found


def _compute(value: Any) -> int:
    if isinstance(value, enum.Enum):
        return _mix(_bytes_key(b"e", type(value).__name__.encode()), stable_hash(value.value))
    if isinstance(value, str):
        return _bytes_key(b"s", value.encode())
    if isinstance(value, bool) or value is None:
        return _bytes_key(b"c", repr(value).encode())
    if isinstance(value, int):
        return _bytes_key(b"i", str(value).encode())
    if isinstance(value, tuple):
        h = _bytes_key(b"t", str(len(value)).encode())
        for item in value:
            h = _mix(h, stable_hash(item))
        return h
    if isinstance(value, dict):
        return stable_hash(tuple(sorted(value.items())))
    if attrs.has(type(value)):
        h = _bytes_key(b"r", type(value).__name__.encode())
        for a in attrs.fields(type(value)):
            h = _mix(h, stable_hash(getattr(value, a.name)))
        return h
    return _bytes_key(b"x", repr(value).encode())


def entry_key(container: str, key: Any, value: Any) -> int:
    """The key of one entry of the position: the stable hash of where it is and what it
    holds (the position key XORs them all: Zobrist hashing)."""
    return _mix(_mix(stable_hash(container), stable_hash(key)), stable_hash(value))
