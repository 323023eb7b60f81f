"""The audit log: canonical JSON Lines, hash-chained, replayable (docs/audit-log.md).

A header names the format, the library version, the tables (with the overlays' text), the
rulebook (its name and digest) and its named rules (the hooks of 0.1), and the start.
Each entry line carries the command, its effects, their digest and — for clock advances —
the digest of the complete state; snapshot lines carry the whole state at turn boundaries;
a closing line ends the log. Every line carries its own SHA-256 and the previous line's.
An in-memory `Game` does none of this: a `FileSink` attached to it encodes and writes each
entry before the state commits.
"""

from __future__ import annotations

import builtins
import hashlib
import inspect
import json
import os
from collections.abc import Callable, Iterator
from importlib.metadata import version
from pathlib import Path
from typing import IO, Any

from attrs import frozen

from .._kernel.convert import build_command, effect_data, effect_from_data, state_dict
from .._kernel.log import LogEntry
from .._kernel.rulebook import Rulebook, RuleViolation
from .._kernel.state import GameState
from ..domain.clock import Moment, MomentError
from ..errors import LogUnavailable, LogWriteError, MinorsError
from ..rules82 import RULEBOOK, Game, Hooks
from ..ruleset.tables import load_ruleset

__all__ = [
    "FORMAT",
    "FileSink",
    "LogUnavailable",
    "LogWriteError",
    "Verdict",
    "open",
    "open_log",
    "read_entries",
    "replay",
    "verify",
]

FORMAT = 1
GENESIS = "0" * 64
DURABILITY = ("entry", "phase", "close")


def canonical(value: Any) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(value: Any) -> str:
    """SHA-256 of the canonical JSON of `value`."""
    return hashlib.sha256(canonical(value)).hexdigest()


def seal(record: dict[str, Any], prev: str) -> tuple[bytes, str]:
    """The line for `record` chained after `prev`, and the line's own hash."""
    body = {**record, "prev": prev}
    own = digest(body)
    return canonical({**body, "hash": own}) + b"\n", own


def hook_manifest(rulebook: Rulebook) -> dict[str, dict[str, str]]:
    """Each named rule of the rulebook (a hook): its function and the SHA-256 of its
    source."""
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


def header(game: Game) -> dict[str, Any]:
    rs = game.ruleset
    return {
        "kind": "header",
        "format": FORMAT,
        "library": version("minors"),
        "tables": rs.digest,
        "overlays": [{"name": name, "toml": text} for name, text in rs.overlay_files],
        "rulebook": {"name": game.rulebook.name, "digest": game.rulebook.digest},
        "hooks": hook_manifest(game.rulebook),
        "start": game.start,
    }


def entry_record(entry: LogEntry, state: GameState | None) -> dict[str, Any]:
    effects = [effect_data(e) for e in entry.effects]
    record: dict[str, Any] = {
        "kind": "entry",
        "seq": entry.seq,
        "at": str(entry.moment),
        "command": entry.command,
        "effects": effects,
        "effects_digest": digest(effects),
    }
    if state is not None:  # an advance: it ends phases, so the whole state is digested
        record["state_digest"] = digest(state_dict(state))
    return record


class FileSink:
    """Writes a game's log to a file as it is played (attach it with `open_log`).

    A context manager: `with minors.auditlog.open(game, path): ...` detaches the sink from
    its game and closes the log (its closing line written) when the block ends, also when
    the block raised.
    """

    def __init__(self, path: str | Path, durability: str = "entry") -> None:
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {DURABILITY}, not {durability!r}")
        self.path = str(path)
        self.durability = durability
        self.prev = GENESIS
        self.entries = 0
        self.turn: int | None = None
        self._file: IO[bytes] | None = None
        self._pending: list[bytes] = []
        self._game: Game | None = None

    def __enter__(self) -> FileSink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Detach from the game `begin` opened the log for, and close the log (once)."""
        game = self._game
        if game is None or self._file is None:
            return
        previous = game.attach(None)
        if previous is not self:
            game.attach(previous)  # another sink took over: leave it attached
        self.close(game)

    def begin(self, game: Game, prefix: list[bytes] | None = None) -> None:
        """Open the file and write the header (or the lines of a log being continued)."""
        self._game = game
        try:
            # held open while the game is played: closed by close()
            self._file = builtins.open(self.path, "wb")  # noqa: SIM115
        except OSError as exc:
            raise LogWriteError(
                exc.errno, f"cannot write the log {self.path}: {exc.strerror}"
            ) from None
        try:
            if prefix is None:
                line, self.prev = seal(header(game), GENESIS)
                self._emit([line], flush=True)
            else:
                self._emit(prefix, flush=True)
                last = json.loads(prefix[-1])
                self.prev = last["hash"]
                self.entries = sum(1 for line in prefix if json.loads(line)["kind"] == "entry")
        except BaseException:
            self._file.close()  # the header could not be written: no file left open
            self._file = None
            raise
        self.turn = game.clock.turn

    def write(self, entry: LogEntry, state: GameState) -> None:
        """Encode and write `entry` (called before the game commits it)."""
        advance = entry.command.get("command") == "advance"
        lines: list[bytes] = []
        line, prev = seal(entry_record(entry, state if advance else None), self.prev)
        lines.append(line)
        if advance and self.turn is not None and state.clock.turn > self.turn:
            data = state_dict(state)
            snapshot = {
                "kind": "snapshot",
                "seq": entry.seq,
                "at": str(state.clock),
                "state": data,
                "state_digest": digest(data),
            }
            line, prev = seal(snapshot, prev)
            lines.append(line)
        flush = self.durability == "entry" or (self.durability == "phase" and advance)
        self._emit(lines, flush=flush)
        self.prev = prev
        self.entries += 1
        self.turn = state.clock.turn

    def close(self, game: Game) -> None:
        """Write the closing line (the entry count and the final state) and close."""
        data = state_dict(game.raw_state)
        record = {
            "kind": "close",
            "entries": self.entries,
            "at": str(game.clock),
            "state_digest": digest(data),
        }
        line, self.prev = seal(record, self.prev)
        self._emit([line], flush=True)
        assert self._file is not None
        self._file.close()
        self._file = None

    def _emit(self, lines: list[bytes], *, flush: bool) -> None:
        try:
            assert self._file is not None, "the sink is not open"
            if flush:
                self._file.write(b"".join(self._pending) + b"".join(lines))
                self._pending.clear()
                self._file.flush()
                os.fsync(self._file.fileno())
            else:
                self._pending.extend(lines)
        except OSError as exc:
            raise LogWriteError(
                exc.errno, f"cannot write the log {self.path}: {exc.strerror}"
            ) from None


def open_log(game: Game, path: str | Path, durability: str = "entry") -> FileSink:
    """Attach a new log file to `game` (its header written now); close it with
    `sink.close(game)`."""
    sink = FileSink(path, durability)
    sink.begin(game)
    game.attach(sink)
    return sink


# ---- reading and verifying ------------------------------------------------------------------


@frozen
class Verdict:
    """What `verify` found: all holds (`ok`), or the first bad line and why."""

    ok: bool
    head: str
    entries: int
    problem: str = ""
    line: int = 0
    seq: int | None = None

    def describe(self) -> str:
        if self.ok:
            entries = f"{self.entries} {'entry' if self.entries == 1 else 'entries'}"
            return f"ok: {entries} verified; head {self.head}"
        where = f"entry {self.seq} (line {self.line})" if self.seq else f"line {self.line}"
        return f"FAILED at {where}: {self.problem}"


class _Bad(Exception):
    def __init__(self, line: int, problem: str, seq: int | None = None) -> None:
        super().__init__(problem)
        self.line, self.problem, self.seq = line, problem, seq


def _lines(path: str | Path) -> list[bytes]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LogUnavailable(f"{path}: cannot read the log: {exc.strerror}") from None
    if not data:
        raise LogUnavailable(f"{path}: the file is empty, not a log")
    return data.splitlines(keepends=True)


def _records(
    lines: list[bytes], prev: str = GENESIS, first: int = 1
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line's record (numbered from `first`) after the encoding and chain checks."""
    for number, raw in enumerate(lines, start=first):
        if not raw.endswith(b"\n"):
            raise _Bad(number, "the line is cut short (no newline): the file was truncated")
        try:
            record = json.loads(raw)
        except ValueError:
            raise _Bad(number, "the line is not JSON") from None
        if not isinstance(record, dict) or canonical(record) + b"\n" != raw:
            raise _Bad(
                number,
                "the line is not in canonical form",
                record.get("seq") if isinstance(record, dict) else None,
            )
        own = record.pop("hash", None)
        seq = record.get("seq") if record.get("kind") == "entry" else None
        if own != digest(record):
            raise _Bad(number, "the line's hash does not match its content (edited)", seq)
        if record.get("prev") != prev:
            raise _Bad(
                number,
                "the line does not follow the previous one (lines removed, "
                "reordered or duplicated)",
                seq,
            )
        prev = own
        record["hash"] = own
        yield number, record


def _rulebook(rulebook: Rulebook | None, hooks: Hooks | None) -> Rulebook:
    book = rulebook if rulebook is not None else RULEBOOK
    return hooks.apply(book) if hooks is not None else book


def _setup(path: str | Path, lines: list[bytes], rulebook: Rulebook) -> tuple[Game, dict[str, Any]]:
    """Check the header and build the game it names under the caller's `rulebook`
    (LogUnavailable when this machine cannot: format, library version, tables, rulebook).
    The rulebook is never looked up from the log: a log received by e-mail is untrusted."""
    first = next(_records(lines[:1]))[1]
    if first.get("kind") != "header":
        raise _Bad(1, "the first line is not a header")
    if first.get("format") != FORMAT:
        raise LogUnavailable(
            f"{path}: unknown log format {first.get('format')!r} "
            f"(this library reads format {FORMAT})"
        )
    ours = version("minors")
    if first.get("library") != ours:
        raise LogUnavailable(
            f"{path}: written by minors {first.get('library')}, this is "
            f"minors {ours}: verify it with that version"
        )
    overlays = [(o["name"], o["toml"].encode()) for o in first.get("overlays", [])]
    try:
        rs = load_ruleset(overlays)
    except MinorsError as exc:
        raise LogUnavailable(f"{path}: the log's tables cannot be loaded: {exc}") from None
    if rs.digest != first.get("tables"):
        raise LogUnavailable(
            f"{path}: the tables in force differ from the log's "
            f"({first.get('tables')}): they are not available here"
        )
    written = first.get("rulebook", {"name": RULEBOOK.name})  # none: rule 82 (0.1 logs)
    if not isinstance(written, dict):
        raise _Bad(1, "the header's rulebook is not a table")
    if written.get("name") != rulebook.name or written.get("digest", rulebook.digest) != (
        rulebook.digest
    ):
        raise LogUnavailable(
            f"{path}: written under rulebook {written.get('name')!r} (digest "
            f"{written.get('digest', 'not recorded')}), not {rulebook.name!r} ({rulebook.digest}):"
            " pass the rulebook that wrote it (--rulebook module:attribute)"
        )
    manifest = hook_manifest(rulebook)
    if manifest != first.get("hooks"):
        names = sorted(k for k in manifest if manifest[k] != first.get("hooks", {}).get(k))
        raise LogUnavailable(
            f"{path}: the hooks {names} differ from the log's: they are not available here"
        )
    try:
        game = Game.new(rs, start=first["start"], rulebook=rulebook)
    except MinorsError as exc:
        raise LogUnavailable(f"{path}: {exc}") from None
    return game, first


def _replay_entry(game: Game, number: int, record: dict[str, Any]) -> None:
    seq = record.get("seq")
    if seq != game.next_seq:
        raise _Bad(number, f"entry number {seq}, expected {game.next_seq}", seq)
    fields = dict(record["command"])
    kind = fields.pop("command", None)
    try:
        if kind == "advance":
            effects = game.advance_to(fields["to"])
        else:
            effects = game.apply(build_command(game.rulebook.kinds, str(kind), fields))
    except RuleViolation as exc:
        raise _Bad(
            number, f"on replay the command breaks rule {exc.rule}: {exc.message}", seq
        ) from None
    except (MinorsError, KeyError, TypeError) as exc:
        raise _Bad(number, f"on replay the command cannot be read: {exc}", seq) from None
    if str(game.clock) != record.get("at"):
        raise _Bad(number, f"the entry says {record.get('at')}, the replay is at {game.clock}", seq)
    if digest([effect_data(e) for e in effects]) != record.get("effects_digest"):
        raise _Bad(number, "the effects recorded differ from the effects the rules give", seq)
    if digest(record.get("effects")) != record.get("effects_digest"):
        raise _Bad(number, "the effects digest does not match the effects written", seq)
    if "state_digest" in record and digest(game.state()) != record["state_digest"]:
        raise _Bad(number, "the state recorded differs from the replayed state", seq)


def verify(
    path: str | Path,
    *,
    extends: str | Path | None = None,
    hooks: Hooks | None = None,
    rulebook: Rulebook | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Verdict:
    """Check encoding and chain, replay every entry under the log's tables and the caller's
    rulebook (rule 82 by default, `hooks` replacing its named rules), and compare every
    digest; with `extends`, check the log begins with that older log. `progress`, if
    given, is called with (lines done, lines in all) after each line.

    Raises:
        LogUnavailable: the log cannot be verified here (exit 2).
    """
    lines = _lines(path)
    head, entries = GENESIS, 0
    try:
        game, _ = _setup(path, lines, _rulebook(rulebook, hooks))
        closed = False
        for number, record in _records(lines):
            head = record["hash"]
            kind = record.get("kind")
            if closed:
                raise _Bad(number, "a line follows the closing line")
            if kind == "header":
                if number != 1:
                    raise _Bad(number, "a second header")
            elif kind == "entry":
                _replay_entry(game, number, record)
                entries += 1
            elif kind == "snapshot":
                if record.get("state") != game.state() or digest(record.get("state")) != record.get(
                    "state_digest"
                ):
                    raise _Bad(number, "the snapshot differs from the replayed state")
            elif kind == "close":
                if record.get("entries") != entries:
                    raise _Bad(
                        number,
                        f"the log closes on {record.get('entries')} entries, it holds {entries}",
                    )
                if record.get("state_digest") != digest(game.state()):
                    raise _Bad(number, "the final state differs from the replayed state")
                closed = True
            else:
                raise _Bad(number, f"unknown line kind {kind!r}")
            if progress is not None:
                progress(number, len(lines))
        if not closed:
            raise _Bad(
                len(lines),
                "the log has no closing line: it was truncated (or is still being written)",
            )
        if extends is not None:
            old = _lines(extends)
            prefix = old[:-1] if json.loads(old[-1]).get("kind") == "close" else old
            for number, (mine, theirs) in enumerate(zip(lines, prefix, strict=False), 1):
                if mine != theirs:
                    raise _Bad(
                        number,
                        f"the log does not extend {extends}: line {number} "
                        "differs (history was rewritten)",
                    )
            if len(lines) <= len(prefix):
                raise _Bad(len(lines), f"the log is not longer than {extends}")
    except _Bad as bad:
        return Verdict(False, head, entries, bad.problem, bad.line, bad.seq)
    return Verdict(True, head, entries)


def read_entries(path: str | Path) -> tuple[list[LogEntry], str]:
    """The entries of a log, its chain checked but its rules not replayed (`verify` does
    that), and its head hash.

    Raises:
        LogUnavailable: the file cannot be read, or a line is not what the chain says.
    """
    entries: list[LogEntry] = []
    head = ""
    try:
        for _, record in _records(_lines(path)):
            head = record["hash"]
            if record.get("kind") != "entry":
                continue
            entries.append(
                LogEntry(
                    record["seq"],
                    Moment.parse(record["at"]),
                    record["command"],
                    tuple(effect_from_data(e) for e in record["effects"]),
                )
            )
    except _Bad as bad:
        raise LogUnavailable(f"{path}: line {bad.line}: {bad.problem}") from None
    return entries, head


def _last_snapshot(lines: list[bytes], stop: Moment | None) -> int:
    """The index of the last snapshot line at or before `stop` (0: none, start over)."""
    for index in range(len(lines) - 1, 0, -1):
        if b'"kind":"snapshot"' in lines[index]:
            at = Moment.parse(json.loads(lines[index])["at"])
            if stop is None or at <= stop:
                return index
    return 0


def replay(
    path: str | Path,
    until: str | Moment | None = None,
    *,
    hooks: Hooks | None = None,
    log: str | Path | None = None,
    rulebook: Rulebook | None = None,
) -> Game:
    """The game as the log leaves it, or at `until`: from the last snapshot before it,
    then entry by entry, under the caller's rulebook (as `verify`). With `log`, a new log
    that branches there, to play on.

    The lines from the snapshot on are checked (encoding and chain) and replayed; what lies
    before the snapshot is taken as the snapshot states it — `verify` checks it all.
    """
    lines = _lines(path)
    stop = None
    if until is not None:
        try:
            stop = until if isinstance(until, Moment) else Moment.parse(until)
        except MomentError as exc:
            raise LogUnavailable(f"--until: {exc}") from None
    try:
        game, _ = _setup(path, lines, _rulebook(rulebook, hooks))
        begin = _last_snapshot(lines, stop)
        prev = json.loads(lines[begin])["prev"] if begin else GENESIS
        records = list(_records(lines[begin:], prev, begin + 1))
    except (_Bad, ValueError, KeyError) as bad:
        problem = bad.problem if isinstance(bad, _Bad) else str(bad)
        raise LogUnavailable(f"{path}: {problem}") from None
    if begin:
        snap = records[0][1]
        game = Game.from_state(
            snap["state"],
            game.ruleset,
            rulebook=game.rulebook,
            start=game.start,
            base_seq=snap["seq"],
        )
    used = 0
    for index in range(1, len(records)):
        number, record = records[index]
        if record["kind"] != "entry":
            if record["kind"] == "snapshot":
                used = index
            continue
        advance = record["command"].get("command") == "advance"
        target = Moment.parse(record["command"]["to"] if advance else record["at"])
        if stop is not None and (target > stop or (not advance and target >= stop)):
            break
        try:
            _replay_entry(game, number, record)
        except _Bad as bad:
            raise LogUnavailable(f"{path}: entry {bad.seq}: {bad.problem}") from None
        used = index
    branch_lines = lines[: records[used][0]] if log is not None else []  # 1-based number
    if log is not None:
        sink = FileSink(log)
        sink.begin(game, branch_lines)
        game.attach(sink)
    if stop is not None and stop > game.clock:
        game.advance_to(stop)
    return game


def open(game: Game, path: str | Path, durability: str = "entry") -> FileSink:
    """`minors.auditlog.open(game, path)`: attach a new log file to `game` (see `open_log`)."""
    return open_log(game, path, durability)
