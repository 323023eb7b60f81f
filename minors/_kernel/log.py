"""The in-memory log: a persistent chain whose prefix clones share, of entries that make
their plain data only when read (nothing is copied, hashed or written here)."""

from __future__ import annotations

from typing import Any

from ..domain.chain import Chain
from ..domain.clock import Moment
from ..domain.events import Event
from ..domain.state import event_data
from .convert import fields_of
from .events import Events
from .kind import Command

__all__ = ["Log", "LogEntry"]


class LogEntry:
    """One applied command (or `advance`), its moment and sequence number, and its events;
    `command` and `effects` are made when first read."""

    __slots__ = ("_cmd", "_command", "_effects", "_events", "moment", "seq")

    def __init__(
        self, seq: int, moment: Moment, command: dict[str, Any], effects: tuple[Event, ...]
    ) -> None:
        self.seq = seq
        self.moment = moment
        self._command: dict[str, Any] | None = command
        self._effects: tuple[Event, ...] | None = effects
        self._cmd: Command | None = None
        self._events: Events | None = None

    @classmethod
    def of(
        cls, seq: int, moment: Moment, cmd: Command | dict[str, Any], events: Events
    ) -> LogEntry:
        """The entry of `cmd` (a command, or the data of an `advance`) applied with
        `events`, its data made when read."""
        entry = object.__new__(cls)
        entry.seq, entry.moment, entry._events, entry._effects = seq, moment, events, None
        if isinstance(cmd, dict):
            entry._cmd, entry._command = None, cmd
        else:
            entry._cmd, entry._command = cmd, None
        return entry

    @property
    def command(self) -> dict[str, Any]:
        """The command as the scenario vocabulary writes it (`command` plus its fields)."""
        if self._command is None:
            assert self._cmd is not None
            self._command = fields_of(self._cmd)
        return self._command

    @property
    def effects(self) -> tuple[Event, ...]:
        """The event records, in order."""
        if self._effects is None:
            assert self._events is not None
            self._effects = self._events.records()
        return self._effects

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LogEntry):
            return NotImplemented
        return (self.seq, self.moment, self.command, self.effects) == (
            other.seq,
            other.moment,
            other.command,
            other.effects,
        )

    def __hash__(self) -> int:
        return hash((self.seq, self.moment, self.effects))

    def __repr__(self) -> str:
        return (
            f"LogEntry(seq={self.seq!r}, moment={self.moment!r}, command={self.command!r}, "
            f"effects={self.effects!r})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "seq": self.seq,
            "at": str(self.moment),
            "command": self.command,
            "effects": [event_data(e) for e in self.effects],
        }


class Log(Chain[LogEntry]):
    """A persistent sequence of `LogEntry`: `append` returns a new log sharing this one."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Log({len(self)} entries)"
