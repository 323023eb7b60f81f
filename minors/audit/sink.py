"""The writer of an audit log: a `FileSink` attached to a game writes each entry before the
state commits (docs/audit-log.md, "Durability", "Locking").

A failed write is cut back to the last complete line, so that the file verifies up to its
last entry; when that fails too, or lines counted as written were lost, the sink refuses
every later write."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from .._kernel.log import LogEntry
from ..domain.state import GameState, structure_state
from ..errors import LogLocked, LogWriteError
from ..rules82 import Game
from .lines import GENESIS, seal
from .record import FORMAT, Recorder
from .state import apply_changes

__all__ = ["DURABILITY", "FileSink", "lock"]

DURABILITY = ("entry", "phase", "close")

_CHUNK = 1 << 20  # lines held for `phase` and `close` durability are written past this size


def lock(fd: int, *, shared: bool = False) -> bool:
    """Take the lock of an open file without waiting; False if another holder has it."""
    if sys.platform == "win32":  # pragma: no cover - not run on this project's CI
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _resume(prefix: list[bytes]) -> Recorder:
    """The recorder of a log continued after `prefix`."""
    header = json.loads(prefix[0])
    if header.get("format") != FORMAT:
        raise ValueError(
            f"a log of format {header.get('format')!r} is not continued (this version "
            f"writes format {FORMAT})"
        )
    data = header["state"]
    last = snapshot = header["seq"]
    for raw in prefix[1:]:
        if b'"kind":"snapshot"' in raw:
            record = json.loads(raw)
            if record["kind"] == "snapshot":
                data = apply_changes(data, record["changes"])
                snapshot = record["seq"]
    for raw in reversed(prefix[1:]):
        record = json.loads(raw)
        if record["kind"] == "entry":
            last = record["seq"]
            break
    return Recorder(FORMAT, structure_state(data), last - header["seq"], last - snapshot)


class FileSink:
    """Writes a game's log as it is played; as a context manager, closes it at the end."""

    def __init__(self, path: str | Path, durability: str = "entry") -> None:
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {DURABILITY}, not {durability!r}")
        self.path = str(path)
        self.durability = durability
        self.prev = GENESIS
        self.recorder: Recorder | None = None
        self._fd: int | None = None
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        self._size = 0  # the file's size at the end of its last complete write
        self._counted = False  # whether lines held belong to entries the game committed
        self._broken: str | None = None
        self._game: Game | None = None

    @property
    def entries(self) -> int:
        """How many entries the log holds so far."""
        return self.recorder.entries if self.recorder is not None else 0

    def __enter__(self) -> FileSink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        game = self._game
        if game is None or self._fd is None:
            return
        previous = game.attach(None)
        if previous is not self:
            game.attach(previous)  # another sink took over: leave it attached
        self.close(game)

    def _error(self, exc: OSError, doing: str) -> LogWriteError:
        return LogWriteError(exc.errno, f"cannot {doing} the log {self.path}: {exc.strerror}")

    def begin(self, game: Game, prefix: list[bytes] | None = None) -> None:
        """Open and lock the file (LogLocked if another writer holds it, LogWriteError if it
        cannot be written), and write the header (or `prefix`: a log of this format being
        continued, up to the state `game` is in)."""
        self._game = game
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        except OSError as exc:
            raise self._error(exc, "write") from None
        try:
            if not lock(fd):
                raise LogLocked(
                    0, f"the log {self.path} is being written by another writer (it is locked)"
                )
            os.ftruncate(fd, 0)
        except OSError as exc:
            os.close(fd)
            if isinstance(exc, LogLocked):
                raise
            raise self._error(exc, "write") from None
        self._fd = fd
        try:
            if prefix is None:
                self.recorder = Recorder(FORMAT, game.raw_state)
                line, self.prev = seal(self.recorder.header(game, game.next_seq - 1), GENESIS)
                self._emit([line], flush=True)
            else:
                self.recorder = _resume(prefix)
                self._emit(prefix, flush=True)
                self.prev = json.loads(prefix[-1])["hash"]
        except BaseException:
            os.close(fd)  # the header could not be written: no file left open or locked
            self._fd = None
            raise

    def write(self, entry: LogEntry, state: Callable[[], GameState]) -> None:
        """Write `entry` before the game commits it (raising refuses it)."""
        if self._broken is not None:
            raise LogWriteError(0, self._broken)
        assert self.recorder is not None, "the sink is not open"
        advance = entry.command.get("command") == "advance"
        recorder = self.recorder
        saved = (recorder.entries, recorder.base, recorder.span, recorder.since)
        wanted = state() if recorder.wants_state(entry) else None
        lines, prev = recorder.lines(entry, wanted, self.prev)
        flush = self.durability == "entry" or (self.durability == "phase" and advance)
        try:
            self._emit(lines, flush=flush)
        except LogWriteError:
            recorder.entries, recorder.base, recorder.span, recorder.since = saved
            raise
        self.prev = prev

    def close(self, game: Game) -> None:
        """Write the closing line and close (a broken sink closes without it)."""
        if self._fd is None:
            return
        try:
            if self._broken is None:
                assert self.recorder is not None
                line, self.prev = seal(self.recorder.close(game.raw_state), self.prev)
                self._emit([line], flush=True)
        finally:
            os.close(self._fd)
            self._fd = None

    def _emit(self, lines: list[bytes], *, flush: bool) -> None:
        """Write `lines` (after those held), durably with `flush`; or hold them."""
        if self._fd is None:
            raise LogWriteError(0, f"the log {self.path} is closed")
        self._pending.extend(lines)
        self._pending_bytes += sum(map(len, lines))
        if not flush and self._pending_bytes < _CHUNK:
            self._counted = True
            return
        data = b"".join(self._pending)
        counted = self._counted
        self._pending.clear()
        self._pending_bytes = 0
        self._counted = False
        try:
            written = 0
            while written < len(data):
                written += os.write(self._fd, data[written:])
            if flush:
                os.fsync(self._fd)
        except OSError as exc:
            self._undo(exc, lost=counted)
            raise self._error(exc, "write") from None
        self._size += len(data)

    def _undo(self, exc: OSError, *, lost: bool) -> None:
        """Cut the file back to its last complete write; break the sink if entries are lost."""
        assert self._fd is not None
        try:
            os.ftruncate(self._fd, self._size)
            os.lseek(self._fd, self._size, os.SEEK_SET)
            os.fsync(self._fd)
        except OSError:
            self._broken = (
                f"the log {self.path} cannot be written since a failed write "
                f"({exc.strerror}) could not be undone: it may end in a torn line "
                "(`minors log repair`)"
            )
            return
        if lost:
            self._broken = (
                f"the log {self.path} lost entries held for a later write when a write "
                f"failed ({exc.strerror}); it verifies up to its last complete entry"
            )
