"""The in-memory log: an append-only chain whose prefix clones share.

Appending makes a new head that points at the old one, so a clone keeps its own head and
never sees what another clone appends. Nothing is copied, hashed or written here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from attrs import frozen

from .clock import Moment
from .effects import Effect, effect_dict

__all__ = ["Log", "LogEntry"]


@frozen
class LogEntry:
    """One applied command (or one `advance`), the moment and sequence number it carries,
    and every effect the rules produced from it."""

    seq: int
    moment: Moment
    command: dict[str, Any]
    effects: tuple[Effect, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "seq": self.seq,
            "at": str(self.moment),
            "command": self.command,
            "effects": [effect_dict(e) for e in self.effects],
        }


@frozen
class _Link:
    entry: LogEntry
    previous: _Link | None


class Log:
    """A persistent sequence of `LogEntry`: `append` returns a new log sharing this one."""

    __slots__ = ("_cache", "_head", "_length")

    def __init__(self, head: _Link | None = None, length: int = 0) -> None:
        self._head = head
        self._length = length
        self._cache: tuple[LogEntry, ...] | None = None

    def append(self, entry: LogEntry) -> Log:
        return Log(_Link(entry, self._head), self._length + 1)

    def entries(self) -> tuple[LogEntry, ...]:
        """The entries, oldest first."""
        if self._cache is None:
            out: list[LogEntry] = []
            link = self._head
            while link is not None:
                out.append(link.entry)
                link = link.previous
            self._cache = tuple(reversed(out))
        return self._cache

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[LogEntry]:
        return iter(self.entries())

    def __getitem__(self, index: int) -> LogEntry:
        return self.entries()[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Log) and self.entries() == other.entries()

    def __hash__(self) -> int:
        return hash(self.entries())

    def __repr__(self) -> str:
        return f"Log({self._length} entries)"
