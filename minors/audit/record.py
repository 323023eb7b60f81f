"""What a log records of a game, line by line (docs/audit-log.md): what the writer writes
and the verifier recomputes, so that the two cannot disagree (format 1: to verify only)."""

from __future__ import annotations

import hashlib
import inspect
import typing
from importlib.metadata import version
from typing import Any

from .._kernel.log import LogEntry
from .._kernel.rulebook import Rulebook
from ..domain.clock import Moment
from ..domain.state import GameState, event_data, state_dict
from ..rules82 import Game
from .lines import canonical, digest, entry_line, seal, text
from .state import Digests, changes

__all__ = ["EVERY", "FORMAT", "FORMATS", "Recorder", "hook_manifest"]

FORMAT = 2
"""The format this version writes."""

FORMATS = (1, 2)  # the formats this version reads

EVERY = 1000  # format 2: a snapshot at least this often, for `replay --until` in long phases


def effects_text(events: typing.Iterable[Any]) -> str:
    """The canonical JSON of events as a log line holds them."""
    return f"[{','.join(text(event_data(event)) for event in events)}]"


def hook_manifest(rulebook: Rulebook) -> dict[str, dict[str, str]]:
    """Each named rule (hook) of the rulebook: its function and the SHA-256 of its source."""
    out: dict[str, dict[str, str]] = {}
    for name, fn in sorted(rulebook.named().items()):
        try:
            source = inspect.getsource(fn)
        except (OSError, TypeError):
            source = repr(fn)
        out[name] = {
            "function": f"{fn.__module__}.{fn.__qualname__}",
            "digest": hashlib.sha256(source.encode()).hexdigest(),
        }
    return out


def _span(fmt: int, clock: Moment) -> int:
    """The stretch of play a snapshot closes: a game turn (format 1), a player turn (2)."""
    return clock.turn if fmt == 1 else clock.index // 6


class Recorder:
    """The records of one log of format `fmt` (1 or 2), from the state of its last snapshot
    or header (`base`), with its entries so far and `since` that snapshot."""

    def __init__(self, fmt: int, base: GameState, entries: int = 0, since: int = 0) -> None:
        self.format = fmt
        self.base = base
        self.entries = entries
        self.since = since
        self.span = _span(fmt, base.clock)
        self.digests = Digests()

    def state_digest(self, state: GameState) -> str:
        return digest(state_dict(state)) if self.format == 1 else self.digests(state)

    def header(self, game: Game, start_seq: int = 0) -> dict[str, Any]:
        """The first line: what the log is written under and, in format 2, its first state."""
        rs = game.ruleset
        record: dict[str, Any] = {
            "kind": "header",
            "format": self.format,
            "library": version("minors"),
            "tables": rs.digest,
            "overlays": [{"name": name, "toml": text} for name, text in rs.overlay_files],
            "rulebook": {"name": game.rulebook.name, "digest": game.rulebook.digest},
            "hooks": hook_manifest(game.rulebook),
            "start": game.start,
        }
        if self.format >= 2:
            state = game.raw_state
            record["seq"] = start_seq
            record["at"] = str(state.clock)
            record["state"] = state_dict(state)
            record["state_digest"] = self.state_digest(state)
        return record

    def wants_state(self, entry: LogEntry) -> bool:
        """Whether `entry` needs the state after it (an advance, or the `EVERY`th entry)."""
        advance = entry.command.get("command") == "advance"
        return advance or (self.format >= 2 and self.since + 1 >= EVERY)

    def entry(self, entry: LogEntry, state: GameState | None) -> list[dict[str, Any]]:
        """The records of one entry's lines: the entry, and a snapshot after an advance into
        a new game turn (format 1) or player turn (format 2), or after `EVERY` entries."""
        effects = [event_data(e) for e in entry.effects]
        record: dict[str, Any] = {
            "kind": "entry",
            "seq": entry.seq,
            "at": str(entry.moment),
            "command": entry.command,
            "effects": effects,
            "effects_digest": hashlib.sha256(canonical(effects)).hexdigest(),
        }
        whole, snapshot = self._count(entry, state)
        if whole is not None:
            record["state_digest"] = whole
        return [record] if snapshot is None else [record, snapshot]

    def lines(self, entry: LogEntry, state: GameState | None, prev: str) -> tuple[list[bytes], str]:
        """`entry`'s records sealed after `prev`, and the hash of the last."""
        effects = effects_text(entry.effects)
        whole, snapshot = self._count(entry, state)
        line, own = entry_line(entry.seq, entry.moment, entry.command, effects, whole, prev)
        if snapshot is None:
            return [line], own
        after, own = seal(snapshot, own)
        return [line, after], own

    def _count(
        self, entry: LogEntry, state: GameState | None
    ) -> tuple[str | None, dict[str, Any] | None]:
        """Count one entry; the state digest its line carries and its snapshot, if any."""
        self.entries += 1
        self.since += 1
        if state is None:
            return None, None
        whole = self.state_digest(state)
        carried = whole if entry.command.get("command") == "advance" else None
        span = _span(self.format, state.clock)
        if span <= self.span and not (self.format >= 2 and self.since >= EVERY):
            return carried, None
        self.span = max(span, self.span)
        self.since = 0
        snapshot: dict[str, Any] = {"kind": "snapshot", "seq": entry.seq, "at": str(state.clock)}
        if self.format == 1:
            snapshot["state"] = state_dict(state)
        else:
            snapshot["changes"] = changes(self.base, state)
        snapshot["state_digest"] = whole
        self.base = state
        return carried, snapshot

    def close(self, state: GameState) -> dict[str, Any]:
        """The last line: the entry count and the final state's digest."""
        return {
            "kind": "close",
            "entries": self.entries,
            "at": str(state.clock),
            "state_digest": self.state_digest(state),
        }
