"""The in-memory log: an append-only chain whose prefix clones share.

Appending makes a new head that points at the old one, so a clone keeps its own head and
never sees what another clone appends. Nothing is copied, hashed or written here.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from ..domain.clock import Moment
from .chain import Chain
from .convert import effect_data
from .effects import Effect
from .state import fast_init

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
            "effects": [effect_data(e) for e in self.effects],
        }


fast_init(LogEntry)  # one per applied command: attrs' frozen __init__ costs twice as much


class Log(Chain[LogEntry]):
    """A persistent sequence of `LogEntry`: `append` returns a new log sharing this one."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Log({len(self)} entries)"
