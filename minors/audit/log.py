"""The audit log: canonical JSON Lines, hash-chained, replayable (docs/audit-log.md).

The verifier recomputes every line with the writer's own `Recorder`, so that every field
`replay` trusts (a snapshot's `at`, `seq`, changes and digest) is what the replay gives."""

from __future__ import annotations

import os
import typing
from collections.abc import Callable, Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

from attrs import frozen

from .._kernel.convert import build_command
from .._kernel.log import LogEntry
from .._kernel.rulebook import Rulebook
from ..domain.clock import Moment, MomentError
from ..domain.events import Event
from ..domain.state import GameState, event_data, event_from_data
from ..errors import (
    ClockError,
    CommandError,
    LogCheckError,
    LogFormatError,
    LogLocked,
    LogRangeError,
    LogUnavailable,
    LogWriteError,
    MinorsError,
    RuleViolation,
)
from ..rules82 import RULEBOOK, Game
from ..ruleset.tables import Ruleset, load_ruleset
from . import signing
from .lines import (
    GENESIS,
    canonical,
    cut,
    digest,
    entry_command,
    moment_of,
    parse,
    read_lines,
    records,
    seal,
)
from .record import FORMAT, FORMATS, Recorder, hook_manifest
from .sink import DURABILITY, FileSink, lock
from .state import apply_changes, tree_digest

__all__ = [
    "DURABILITY",
    "FORMAT",
    "GENESIS",
    "FileSink",
    "LogLocked",
    "LogUnavailable",
    "LogWriteError",
    "ReadLog",
    "Repair",
    "Verdict",
    "advance",
    "canonical",
    "digest",
    "head",
    "load_key",
    "open",
    "open_continued",
    "open_log",
    "read_entries",
    "read_log",
    "repair",
    "replay",
    "seal",
    "seal_log",
    "verify",
]


def open_log(game: Game, path: str | Path, durability: str = "entry") -> FileSink:
    """Attach a new log file to `game`, from the state it is in; close with `sink.close(game)`.

    Raises:
        LogLocked: another writer holds the file.
        LogWriteError: it cannot be written.
    """
    sink = FileSink(path, durability)
    sink.begin(game)
    game.attach(sink)
    return sink


def open(game: Game, path: str | Path, durability: str = "entry") -> FileSink:
    """Attach a new log file to `game` (`open_log`)."""
    return open_log(game, path, durability)


def advance(game: Game, moment: Moment | str) -> list[Event]:
    """Move the clock to `moment` one player turn at a time, so that a log ending at a player
    turn's end is a prefix of every log that plays on from there (ClockError if `moment` is
    earlier than the clock, MomentError if it is not a moment)."""
    target = moment if isinstance(moment, Moment) else Moment.parse(moment)
    if target < game.clock:
        raise ClockError(f"the clock stands at {game.clock}; it cannot go back to {target}")
    effects: list[Event] = []
    while game.clock < target:
        edge = Moment((game.clock.index // 6 + 1) * 6)
        effects += game.advance_to(min(edge, target))
    return effects


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_FIELDS: dict[str, dict[str, tuple[type, bool]]] = {
    "entry": {
        "seq": (int, True),
        "at": (str, True),
        "command": (dict, True),
        "effects": (list, True),
        "effects_digest": (str, True),
        "state_digest": (str, False),
    },
    "snapshot": {"seq": (int, True), "at": (str, True), "state_digest": (str, True)},
    "close": {"entries": (int, True), "at": (str, True), "state_digest": (str, True)},
    "seal": {"head": (str, True), "key": (str, True), "signature": (str, True)},
    "header": {
        "format": (int, True),
        "library": (str, True),
        "tables": (str, True),
        "overlays": (list, True),
        "hooks": (dict, True),
        "start": (str, True),
        "rulebook": (dict, False),
    },
}
"""Each kind of line's fields: (JSON type, required)."""

_HEADER_2 = {"seq": (int, True), "at": (str, True), "state": (dict, True)}


def _form(record: dict[str, Any], number: int, fmt: int) -> str:
    """The line's kind, its fields checked for the format's form (else LogFormatError)."""
    kind = record.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise LogFormatError(f"line {number}: unknown line kind {cut(kind)!r}")
    fields = dict(_FIELDS[kind])
    if kind == "header" and fmt >= 2:
        fields.update(_HEADER_2, state_digest=(str, True))
    if kind == "snapshot":
        fields["state" if fmt == 1 else "changes"] = (dict, True)
    for name, (kind_of, required) in fields.items():
        if name not in record:
            if required:
                raise LogFormatError(f"line {number}: the {kind} line has no {name!r}")
            continue
        value = record[name]
        if not isinstance(value, kind_of) or (kind_of is int and not _int(value)):
            raise LogFormatError(f"line {number}: the {kind}'s {name!r} is not {_JSON[kind_of]}")
    if "at" in fields:
        moment_of(record["at"], number, "at")
    if kind == "entry":
        command = record["command"].get("command")
        if not isinstance(command, str):
            raise LogFormatError(f"line {number}: the entry's command has no name")
        for effect in record["effects"]:
            if not isinstance(effect, dict) or effect.get("effect") not in EFFECTS:
                shown = effect.get("effect") if isinstance(effect, dict) else effect
                raise LogFormatError(f"line {number}: {cut(shown, 60)!r} is not an effect")
    return kind


EFFECTS = frozenset(cls.__name__ for cls in typing.get_args(Event))

_JSON = {int: "an integer", str: "a string", dict: "an object", list: "an array"}


@frozen
class _Setup:
    game: Game
    header: dict[str, Any]
    format: int
    origin: str  # `start` (the start position) or `state` (a state the header records)


def _setup(path: str | Path, lines: list[bytes], rulebook: Rulebook, *, log: bool = True) -> _Setup:
    """The game the header starts from, under the caller's rulebook (a log is untrusted)."""
    first = parse(lines[0], 1)
    if first.get("prev") != GENESIS:
        raise LogCheckError(1, "the first line does not start the chain")
    if first.get("kind") != "header":
        raise LogFormatError(f"{path}: the first line is not a header: not a log")
    fmt = first.get("format")
    if not _int(fmt) or fmt not in FORMATS:
        raise LogUnavailable(
            f"{path}: unknown log format {cut(fmt)!r} (this library reads formats "
            f"{', '.join(map(str, FORMATS))})"
        )
    ours = version("minors")
    if first.get("library") != ours:
        raise LogUnavailable(
            f"{path}: written by minors {cut(first.get('library'))}, this is "
            f"minors {ours}: verify it with that version"
        )
    _form(first, 1, fmt)
    overlays = []
    for overlay in first["overlays"]:
        match overlay:
            case {"name": str(name), "toml": str(toml)}:
                overlays.append((name, toml.encode()))
            case _:
                raise LogFormatError("line 1: an overlay of the header is not {name, toml}")
    try:
        rs = load_ruleset(overlays)
    except MinorsError as exc:
        raise LogUnavailable(
            f"{path}: the log's tables cannot be loaded: {cut(exc, 300)}"
        ) from None
    writer = f"written by minors {cut(first.get('library'))} (log format {fmt})"
    if rs.digest != first["tables"]:
        raise LogUnavailable(
            f"{path}: {writer}: the tables in force differ from the log's "
            f"({cut(first['tables'])}): they are not available here"
        )
    written = first.get("rulebook", {"name": RULEBOOK.name})  # none: rule 82 (0.1 logs)
    wrote = written.get("name"), written.get("digest", rulebook.digest)
    if wrote != (rulebook.name, rulebook.digest):
        raise LogUnavailable(
            f"{path}: written under rulebook {cut(written.get('name'))!r} (digest "
            f"{cut(written.get('digest', 'not recorded'))}; {writer}), not {rulebook.name!r} "
            f"({rulebook.digest}): pass the rulebook that wrote it (--rulebook module:attribute)"
            " or verify it with the build that wrote it"
        )
    manifest = hook_manifest(rulebook)
    if manifest != first["hooks"]:
        names = sorted(k for k in manifest if manifest[k] != first["hooks"].get(k))
        raise LogUnavailable(
            f"{path}: {writer}: the hooks {names} differ from the log's: they are not "
            "available here"
        )
    try:
        game = Game.new(rs, start=first["start"], rulebook=rulebook, log=log)
    except MinorsError as exc:
        raise LogFormatError(f"{path}: line 1: {cut(exc, 300)}") from None
    origin = "start"
    if fmt >= 2:  # _form has read its `at`
        if first["seq"] < 0:
            raise LogFormatError(f"{path}: line 1: the header's 'seq' is negative")
        if first["seq"] != 0 or first["state"] != game.state():
            origin = "state"
            try:
                game = Game.from_state(
                    first["state"], rs, rulebook=rulebook, start=first["start"],
                    base_seq=first["seq"], log=log,
                )  # fmt: skip
            except MinorsError as exc:
                raise LogFormatError(f"{path}: line 1: the header's {cut(exc, 300)}") from None
    return _Setup(game, first, fmt, origin)


def _expected_header(setup: _Setup, recorder: Recorder) -> None:
    """Format 2: the header's state fields are what its game gives."""
    if setup.format < 2:
        return
    header = setup.header
    expected = recorder.header(setup.game, setup.header["seq"])
    if header["state_digest"] != expected["state_digest"]:
        raise LogCheckError(1, "the header's state digest does not match its state")
    if header["at"] != expected["at"]:
        raise LogCheckError(
            1, f"the header says {cut(header['at'])}, its state is at {expected['at']}"
        )
    extra = sorted(set(header) - set(expected) - {"prev", "hash"})
    if extra:
        raise LogFormatError(f"line 1: the header has unknown fields {cut(extra)}")


@frozen
class Verdict:
    """What `verify` found: all holds (`ok`), or the first bad line and why; `origin` is
    where the replay began (`start` or the header's `state`), `seals` the valid seals' keys."""

    ok: bool
    head: str
    entries: int
    problem: str = ""
    line: int = 0
    seq: int | None = None
    format: int = FORMAT
    origin: str = "start"
    at: str = ""
    extends: int | None = None
    seals: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.ok:
            entries = f"{self.entries} {'entry' if self.entries == 1 else 'entries'}"
            text = f"ok: {entries} verified"
            if self.origin == "state":
                text += f" from the state its header records at {self.at}"
            if self.extends is not None:
                text += f", {self.extends} new"
            if self.seals:
                text += f"; sealed by {', '.join(key[:16] for key in self.seals)}"
            return f"{text}; head {self.head}"
        where = f"entry {self.seq} (line {self.line})" if self.seq else f"line {self.line}"
        return f"FAILED at {where}: {self.problem}"

    def to_json(self) -> dict[str, Any]:
        """What `minors log verify --json` prints (the `log-verify` schema)."""
        return {
            "ok": self.ok,
            "head": self.head,
            "entries": self.entries,
            "format": self.format,
            "origin": self.origin,
            "problem": self.problem or None,
            "line": self.line or None,
            "seq": self.seq,
            "extends": self.extends,
            "seals": list(self.seals),
        }


def _replay_entry(game: Game, number: int, seq: int, fields: dict[str, Any]) -> None:
    """Apply the command of entry `seq` (`fields`, a copy: its `command` is taken out)."""
    if seq != game.next_seq:
        raise LogCheckError(number, f"entry number {seq}, expected {game.next_seq}", seq)
    kind = fields.pop("command")
    try:
        if kind == "advance":
            if set(fields) != {"to"}:
                raise LogFormatError(f"line {number}: an advance has the one field 'to'")
            game.advance_to(moment_of(fields["to"], number, "to"))
        else:
            game.apply(build_command(game.rulebook.kinds, kind, fields))
    except RuleViolation as exc:
        raise LogCheckError(
            number, f"on replay the command breaks rule {exc.rule}: {cut(exc.message, 300)}", seq
        ) from None
    except ClockError as exc:
        raise LogCheckError(number, f"on replay the clock cannot move: {exc}", seq) from None
    except CommandError as exc:
        raise LogFormatError(
            f"line {number}: the command cannot be read: {cut(exc, 300)}"
        ) from None


_WHY = {
    "at": "the entry's moment is not the replay's",
    "command": "the command is not written as the rules read it",
    "effects": "the effects recorded differ from the effects the rules give",
    "effects_digest": "the effects digest does not match the effects written",
    "state_digest": "the state recorded differs from the replayed state",
    "changes": "the snapshot's changes differ from the replayed state's",
    "state": "the snapshot differs from the replayed state",
    "seq": "the snapshot's entry number is not the entry it follows",
    "entries": "the closing line's entry count is not the log's",
}


def _compare(number: int, written: dict[str, Any], expected: dict[str, Any]) -> None:
    """Fail unless the line holds exactly what the replay gives (chain fields aside)."""
    body = {k: v for k, v in written.items() if k not in ("prev", "hash")}
    if body == expected:
        return
    seq = written.get("seq") if written.get("kind") == "entry" else None
    seq = seq if _int(seq) else None
    kind = expected["kind"]
    if kind == "entry" and written.get("at") != expected["at"]:
        why = f"the entry says {cut(written.get('at'))}, the replay is at {expected['at']}"
        raise LogCheckError(number, why, seq)
    if kind == "close" and written.get("entries") != expected["entries"]:
        why = f"the log closes on {cut(written.get('entries'))} entries, it holds "
        raise LogCheckError(number, f"{why}{expected['entries']}")
    if kind == "entry" and written.get("effects") != expected["effects"]:
        for effect in written["effects"]:
            try:
                event_from_data(effect)
            except Exception as exc:  # cattrs raises its own classes for junk
                raise LogFormatError(
                    f"line {number}: an effect cannot be read: {cut(exc, 200)}"
                ) from None
        raise LogCheckError(number, _WHY["effects"], seq)
    if kind == "close" and written.get("state_digest") != expected["state_digest"]:
        raise LogCheckError(number, "the final state differs from the replayed state")
    for field in sorted(set(body) | set(expected), key=lambda f: f != "at"):
        if body.get(field) != expected.get(field):
            if kind == "snapshot" and field == "at":
                raise LogCheckError(number, "the snapshot's moment is not the replay's", seq)
            if field in _WHY:
                raise LogCheckError(number, _WHY[field], seq)
            raise LogCheckError(
                number, f"the {kind} line's field {cut(field)!r} is not the writer's", seq
            )


def verify(
    path: str | Path,
    *,
    extends: str | Path | None = None,
    rulebook: Rulebook | None = None,
    progress: Callable[[int, int], None] | None = None,
    head: str | None = None,
    public_key: str | None = None,
) -> Verdict:
    """Check encoding and chain, replay every entry under the caller's rulebook (rule 82 by
    default) and check that every line is the writer's for that play; with `extends`, that
    the log extends that older log; with `head`, that its head is that hash; with
    `public_key` (hex), that a seal by that key signs it. `progress(done, total)` is called
    after each line.

    Raises:
        LogUnavailable: the log cannot be verified here (exit 2).
        LogFormatError: it is not a log of a format this version reads (exit 2).
    """
    lines = read_lines(path)
    old = _old_prefix(extends) if extends is not None else None
    head_hash, entries = GENESIS, 0
    setup: _Setup | None = None
    seals: list[str] = []
    progress = _onward(progress)
    try:
        book = rulebook if rulebook is not None else RULEBOOK
        setup = _setup(path, lines, book, log=False)
        try:
            verdict = _verify_replayed(lines, setup, progress, seals)
            if verdict is None:  # a line is not the writer's: check each to say which and why
                seals.clear()
                setup = _setup(path, lines, book)
                verdict = _verify_lines(path, lines, setup, progress, seals)
        except RecursionError:
            raise LogFormatError(f"{path}: a line nests too deeply to be read") from None
        head_hash, entries = verdict
        extended = _extends(lines, extends, old, entries) if old and extends else None
        if head is not None and head.lower() != head_hash:
            raise LogCheckError(
                len(lines),
                f"the head is {head_hash}, not the published {cut(head, 70)} "
                "(the log was cut, extended or rewritten)",
            )
        if public_key is not None and public_key not in seals:
            raise LogCheckError(len(lines), "no seal by that public key")
    except LogCheckError as bad:
        return Verdict(
            False, head_hash, entries, bad.problem, bad.line, bad.seq,
            format=setup.format if setup else FORMAT,
            origin=setup.origin if setup else "start",
        )  # fmt: skip
    except LogFormatError as exc:
        text = str(exc)
        raise LogFormatError(text if text.startswith(str(path)) else f"{path}: {text}") from None
    return Verdict(
        True, head_hash, entries, format=setup.format, origin=setup.origin,
        at=str(setup.header.get("at", "")), extends=extended, seals=tuple(seals),
    )  # fmt: skip


def _onward(progress: Callable[[int, int], None] | None) -> Callable[[int, int], None] | None:
    """`progress`, called only past its furthest line (the second pass starts again)."""
    if progress is None:
        return None
    furthest = 0

    def report(done: int, total: int) -> None:
        nonlocal furthest
        if done > furthest:
            furthest = done
            progress(done, total)

    return report


class _Replayed:
    """The verifier's sink: the entry just replayed and its state function; nothing kept."""

    __slots__ = ("entry", "state")

    def write(self, entry: LogEntry, state: Callable[[], GameState]) -> None:
        self.entry, self.state = entry, state


def _verify_replayed(
    lines: list[bytes], setup: _Setup, progress: Callable[[int, int], None] | None, seals: list[str]
) -> tuple[str, int] | None:
    """The head and entry count if every line after the header is, byte for byte, the line
    the writer writes for the replay; None as soon as one is not (`_verify_lines` then
    says which and why). Only each entry's command and the seals are parsed."""
    game, fmt = setup.game, setup.format
    recorder = Recorder(fmt, game.raw_state)
    _expected_header(setup, recorder)
    total = len(lines)
    if progress is not None:
        progress(1, total)
    replayed = _Replayed()
    game.attach(replayed)
    head_hash = prev = setup.header["hash"]
    entries = 0
    due: bytes | None = None
    closed = False
    for number in range(2, total + 1):
        raw = lines[number - 1]
        if due is not None:  # the snapshot its entry calls for
            if raw != due:
                return None
            head_hash, due = prev, None
        elif closed:
            found = _sealed(raw, number, fmt, prev, head_hash, seals)
            if found is None:
                return None
            prev = found
        else:
            fields = entry_command(raw)
            if fields is None:  # the closing line, or not the writer's
                line, prev = seal(recorder.close(game.raw_state), prev)
                if line != raw:
                    return None
                head_hash, closed = prev, True
            else:
                try:  # whatever fails, the line-by-line checks meet it again and say why
                    _replay_entry(game, number, game.next_seq, fields)
                except Exception:
                    return None
                game.clear_stack()  # no step is taken back: no journal is kept
                entry = replayed.entry
                state = replayed.state() if recorder.wants_state(entry) else None
                expected, prev = recorder.lines(entry, state, prev)
                if expected[0] != raw:
                    return None
                head_hash = prev
                entries += 1
                due = expected[1] if len(expected) > 1 else None
        if progress is not None:
            progress(number, total)
    if due is not None or not closed:
        return None
    return head_hash, entries


def _sealed(
    raw: bytes, number: int, fmt: int, prev: str, head_hash: str, seals: list[str]
) -> str | None:
    """The hash of a seal of `head_hash` chained after `prev` (its key added to `seals`)."""
    try:
        record = parse(raw, number)
        if record.get("prev") != prev or _form(record, number, fmt) != "seal":
            return None
        _check_seal(number, record, head_hash, seals)
    except (LogCheckError, LogFormatError):
        return None
    return str(record["hash"])


def _verify_lines(
    path: str | Path,
    lines: list[bytes],
    setup: _Setup,
    progress: Callable[[int, int], None] | None,
    seals: list[str],
) -> tuple[str, int]:
    """Replay and check every line; the head and the number of entries."""
    game, fmt = setup.game, setup.format
    recorder = Recorder(fmt, game.raw_state)
    _expected_header(setup, recorder)
    head_hash, entries = GENESIS, 0
    closed = False
    due: dict[str, Any] | None = None
    total = len(lines)
    for number, record in records(lines):
        kind = _form(record, number, fmt) if number > 1 else "header"
        if kind == "seal":
            if not closed:
                raise LogCheckError(number, "a seal before the closing line")
            _check_seal(number, record, head_hash, seals)
        elif closed:
            raise LogCheckError(number, "a line follows the closing line")
        else:
            head_hash = record["hash"]
        if kind == "header":
            if number != 1:
                raise LogCheckError(number, "a second header")
        elif due is not None:
            if kind != "snapshot":
                raise LogCheckError(number, f"a snapshot is missing after entry {due['seq']}")
            _compare(number, record, due)
            due = None
        elif kind == "entry":
            _replay_entry(game, number, record["seq"], dict(record["command"]))
            logged = game.log.last
            state = game.raw_state if recorder.wants_state(logged) else None
            expected = recorder.entry(logged, state)
            _compare(number, record, expected[0])
            due = expected[1] if len(expected) > 1 else None
            entries += 1
        elif kind == "snapshot":
            raise LogCheckError(
                number, "a snapshot where none belongs (not after an advance into a new turn)"
            )
        elif kind == "close":
            _compare(number, record, recorder.close(game.raw_state))
            closed = True
        if progress is not None:
            progress(number, total)
    if due is not None:
        raise LogCheckError(total, "the log ends before the snapshot its last entry calls for")
    if not closed:
        raise LogCheckError(total, _unclosed(path))
    return head_hash, entries


def _unclosed(path: str | Path) -> str:
    """Why a log has no closing line: a writer still holds it, or it was cut."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return "the log has no closing line: it was truncated (or is still being written)"
    try:
        free = lock(fd, shared=True)
    except OSError:
        free = True
    finally:
        os.close(fd)
    if not free:
        return "the log has no closing line: a writer holds it (it is still being written)"
    return "the log has no closing line: it was truncated (`minors log repair` trims a torn line)"


def _check_seal(number: int, record: dict[str, Any], head_hash: str, seals: list[str]) -> None:
    if record["head"] != head_hash:
        raise LogCheckError(number, "the seal signs another head than the closing line's")
    if not signing.check(head_hash, record["key"], record["signature"]):
        raise LogCheckError(number, "the seal's signature does not match its key and head")
    seals.append(record["key"])


def _old_prefix(extends: str | Path) -> tuple[list[bytes], int]:
    """The lines a log extending `extends` begins with, and their entry count."""
    lines = read_lines(extends, "the older log")
    count, end = 0, len(lines)
    try:
        for number, record in _entries(extends, lines):
            kind = record["kind"]
            if kind in ("close", "seal"):
                end = min(end, number - 1)
            elif kind == "entry":
                count += 1
    except LogUnavailable as exc:
        raise LogFormatError(f"--extends: not a log: {exc}") from None
    return lines[:end], count


def _extends(
    lines: list[bytes], extends: str | Path, old: tuple[list[bytes], int], entries: int
) -> int:
    prefix, old_entries = old
    for number, (mine, theirs) in enumerate(zip(lines, prefix, strict=False), 1):
        if mine != theirs:
            raise LogCheckError(
                number,
                f"the log does not extend {extends}: line {number} differs (history was rewritten)",
            )
    if len(lines) <= len(prefix):
        raise LogCheckError(len(lines), f"the log is not longer than {extends}")
    added = entries - old_entries
    if added <= 0:
        raise LogCheckError(
            len(lines), f"the log adds no entry to {extends} (0 new entries: it is that log)"
        )
    return added


def _entries(path: str | Path, lines: list[bytes]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The records of a log's lines, chain and form checked."""
    try:
        first = parse(lines[0], 1)
        fmt = first.get("format")
        if first.get("kind") != "header" or not _int(fmt) or fmt not in FORMATS:
            raise LogFormatError(
                f"the first line is not a header of a log format this version reads "
                f"({', '.join(map(str, FORMATS))})"
            )
        for number, record in records(lines):
            _form(record, number, fmt)
            yield number, record
    except LogCheckError as bad:
        raise LogUnavailable(f"{path}: line {bad.line}: {bad.problem}") from None
    except LogFormatError as exc:
        raise LogFormatError(f"{path}: {exc}") from None
    except RecursionError:
        raise LogFormatError(f"{path}: a line nests too deeply to be read") from None


@frozen
class ReadLog:
    """A log read, with the tables it names if they load here (else the built-in)."""

    header: dict[str, Any]
    format: int
    entries: list[LogEntry]
    head: str
    ruleset: Ruleset


def read_log(path: str | Path) -> ReadLog:
    """A log read, its chain and form checked (else LogUnavailable, or LogFormatError if it
    is not a log of a format this version reads), its rules not replayed (`verify` does)."""
    entries: list[LogEntry] = []
    head_hash = ""
    header: dict[str, Any] = {}
    for number, record in _entries(path, read_lines(path)):
        if number == 1:
            header = record
        if record["kind"] != "seal":
            head_hash = record["hash"]
        if record["kind"] != "entry":
            continue
        try:
            effects = tuple(event_from_data(e) for e in record["effects"])
        except Exception as exc:  # cattrs raises its own classes for junk effects
            raise LogFormatError(
                f"{path}: line {number}: an effect cannot be read: {cut(exc, 200)}"
            ) from None
        moment = moment_of(record["at"], number, "at")
        entries.append(LogEntry(record["seq"], moment, record["command"], effects))
    overlays = header.get("overlays", [])
    try:
        rs = load_ruleset([(o["name"], o["toml"].encode()) for o in overlays])
    except (MinorsError, KeyError, TypeError, AttributeError):
        rs = load_ruleset()
    return ReadLog(header, header["format"], entries, head_hash, rs)


def read_entries(path: str | Path) -> tuple[list[LogEntry], str]:
    """The entries and head of a log, read as `read_log` reads it."""
    found = read_log(path)
    return found.entries, found.head


def head(path: str | Path) -> str:
    """The hash of a log's closing line (or last line), its rules not replayed."""
    found = ""
    for _, record in _entries(path, read_lines(path)):
        if record["kind"] != "seal":
            found = record["hash"]
    return found


def _snapshots(lines: list[bytes], fmt: int) -> list[tuple[int, dict[str, Any], Moment]]:
    """Every snapshot line: its index, record (its own hash checked) and moment."""
    found = []
    for index in range(1, len(lines)):
        if b'"kind":"snapshot"' in lines[index]:
            record = parse(lines[index], index + 1)
            if record.get("kind") == "snapshot":
                _form(record, index + 1, fmt)
                found.append((index, record, moment_of(record["at"], index + 1, "at")))
    return found


def _last_moment(lines: list[bytes]) -> Moment:
    """The moment the log ends at: its closing line's, or its last entry's."""
    for index in range(len(lines) - 1, 0, -1):
        record = parse(lines[index], index + 1)
        if record.get("kind") in ("close", "entry", "snapshot"):
            return moment_of(record.get("at"), index + 1, "at")
    return moment_of(parse(lines[0], 1).get("at", ""), 1, "at")


def replay(
    path: str | Path,
    until: str | Moment | None = None,
    *,
    log: str | Path | None = None,
    rulebook: Rulebook | None = None,
    durability: str = "entry",
) -> Game:
    """The game as the log leaves it, or at `until`, under the caller's rulebook: from the
    last snapshot before it (taken as stated: `verify` checks it all), then entry by entry.
    With `log`, a new log that repeats this one's lines up to there, to play on.

    Raises:
        LogUnavailable, LogFormatError: as `verify`; also a line that fails a check.
        LogRangeError: `until` lies past the log's end or before its start.
        LogLocked, LogWriteError: `log` cannot be written.
    """
    lines = read_lines(path)
    stop = None
    if until is not None:
        try:
            stop = until if isinstance(until, Moment) else Moment.parse(until)
        except MomentError as exc:
            raise LogRangeError(f"--until: {exc}") from None
    try:
        setup = _setup(path, lines, rulebook if rulebook is not None else RULEBOOK)
        game, fmt = setup.game, setup.format
        if log is not None and fmt != FORMAT:
            raise LogUnavailable(
                f"{path}: a log of format {fmt} is read, not continued: replay it without "
                f"--log, or start a new log (this version writes format {FORMAT})"
            )
        if stop is not None:
            end = _last_moment(lines)
            if stop > end:
                raise LogRangeError(
                    f"--until {stop} lies past the end of the log {path} ({end}): replay "
                    "stops at a moment the log holds; play on with `minors continue`"
                )
            if stop < game.clock:
                raise LogRangeError(
                    f"--until {stop} lies before the start of the log {path} ({game.clock})"
                )
        game, begin = _from_snapshot(path, lines, setup, stop)
        prev = parse(lines[begin], begin + 1)["hash"]
        if log is not None:  # the new log repeats the lines before the snapshot: check them
            for number, record in records(lines[: begin + 1]):
                if number > 1:
                    _form(record, number, fmt)
    except LogCheckError as bad:
        raise LogUnavailable(f"{path}: line {bad.line}: {bad.problem}") from None
    except RecursionError:
        raise LogFormatError(f"{path}: a line nests too deeply to be read") from None
    except LogFormatError as exc:
        text = str(exc)
        raise LogFormatError(text if text.startswith(str(path)) else f"{path}: {text}") from None
    used = _play_on(path, lines, game, fmt, begin, prev, stop)
    if log is not None:
        sink = FileSink(log, durability)
        sink.begin(game, lines[:used])
        game.attach(sink)
    if stop is not None and stop > game.clock:
        try:
            advance(game, stop)
        except BaseException:
            attached = game.attach(None)
            if isinstance(attached, FileSink):
                attached.close(game)
            raise
    return game


def _play_on(
    path: str | Path,
    lines: list[bytes],
    game: Game,
    fmt: int,
    begin: int,
    prev: str,
    stop: Moment | None,
) -> int:
    """Replay the entries after line `begin` up to `stop`; how many lines the game went by."""
    used = begin + 1
    try:
        for number, record in records(lines[begin + 1 :], prev, begin + 2):
            kind = _form(record, number, fmt)
            if kind == "snapshot":
                used = number
            if kind != "entry":
                continue
            command = record["command"]
            clock = command.get("command") == "advance"
            target = moment_of(command.get("to") if clock else record["at"], number, "at")
            if stop is not None and (target > stop or (not clock and target >= stop)):
                break
            _replay_entry(game, number, record["seq"], dict(record["command"]))
            _same_effects(number, record, game.log.last)
            used = number
    except LogCheckError as bad:
        where = f"entry {bad.seq}" if bad.seq else f"line {bad.line}"
        raise LogUnavailable(f"{path}: {where}: {bad.problem}") from None
    except RecursionError:
        raise LogFormatError(f"{path}: a line nests too deeply to be read") from None
    except LogFormatError as exc:
        text = str(exc)
        raise LogFormatError(text if text.startswith(str(path)) else f"{path}: {text}") from None
    return used


def _same_effects(number: int, record: dict[str, Any], entry: LogEntry) -> None:
    """Fail unless an entry line records the moment and effects its replay gives."""
    effects = [event_data(e) for e in entry.effects]
    expected: dict[str, Any] = {"kind": "entry", "at": str(entry.moment), "effects": effects}
    written = {"kind": "entry", "at": record["at"], "effects": record["effects"]}
    _compare(number, written, expected)


def open_continued(
    game: Game, path: str | Path, new: str | Path, durability: str = "entry"
) -> FileSink:
    """Attach to `game`, as `replay(path)` leaves it, a new log `new` that repeats the lines
    of `path` but its closing line and seals (it verifies with `extends=path`): LogUnavailable
    if `path` is not of the format this version writes, LogLocked or LogWriteError if `new`
    cannot be written."""
    lines = read_lines(path)
    end = len(lines)
    while end > 1 and parse(lines[end - 1], end).get("kind") in ("close", "seal"):
        end -= 1
    fmt = parse(lines[0], 1).get("format")
    if fmt != FORMAT:
        raise LogUnavailable(
            f"{path}: a log of format {cut(fmt)} is read, not continued (this version writes "
            f"format {FORMAT})"
        )
    sink = FileSink(new, durability)
    sink.begin(game, lines[:end])
    game.attach(sink)
    return sink


def _from_snapshot(
    path: str | Path, lines: list[bytes], setup: _Setup, stop: Moment | None
) -> tuple[Game, int]:
    """The game at the last snapshot at or before `stop` (or the start) and its line's index."""
    fmt, game = setup.format, setup.game
    snapshots = [s for s in _snapshots(lines, fmt) if stop is None or s[2] <= stop]
    while stop is not None and snapshots and snapshots[-1][2] == stop:
        # a snapshot within a phase follows a command stamped `stop`, which replay leaves out
        index = snapshots[-1][0]
        previous = parse(lines[index - 1], index).get("command")
        if isinstance(previous, dict) and previous.get("command") == "advance":
            break
        snapshots.pop()
    if not snapshots:
        return game, 0
    index, record, _ = snapshots[-1]
    if fmt == 1:
        data = record["state"]
    else:
        data = setup.header["state"]
        try:
            for _, earlier, _ in snapshots:
                data = apply_changes(data, earlier["changes"])
        except (ValueError, TypeError) as exc:
            raise LogFormatError(
                f"line {index + 1}: a snapshot's changes: {cut(exc, 200)}"
            ) from None
        if tree_digest(data) != record["state_digest"]:
            raise LogFormatError(
                f"line {index + 1}: the snapshots do not give the state they name "
                "(`minors log verify` finds where)"
            )
    try:
        rebuilt = Game.from_state(
            data, game.ruleset, rulebook=game.rulebook, start=game.start,
            base_seq=record["seq"],
        )  # fmt: skip
    except MinorsError as exc:
        raise LogFormatError(f"line {index + 1}: the snapshot's {cut(exc, 300)}") from None
    return rebuilt, index


def seal_log(path: str | Path, key: str | Path) -> str:
    """Append a seal line signing a closed log's head with the Ed25519 private key at `key`;
    the public key (hex). LogUnavailable if the log is not closed or not of format 2, or the
    key cannot be read; LogLocked if a writer holds the log."""
    lines = read_lines(path)
    head_hash, last, fmt = "", GENESIS, 0
    for number, record in _entries(path, lines):
        fmt = record["format"] if number == 1 else fmt
        last = record["hash"]
        if record["kind"] == "close":
            head_hash = record["hash"]
    if fmt < 2:
        raise LogUnavailable(f"{path}: only logs of format 2 are sealed (this one is {fmt})")
    if not head_hash:
        raise LogUnavailable(f"{path}: the log is not closed: only a closed log is sealed")
    public, signature = signing.sign(head_hash, key)
    line, _ = seal({"kind": "seal", "head": head_hash, "key": public, "signature": signature}, last)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        if not lock(fd):
            raise LogLocked(0, f"the log {path} is being written by another writer (it is locked)")
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)
    return public


@frozen
class Repair:
    """What `repair` did: the bytes and the line it dropped (0: none), and the lines left."""

    dropped: int
    line: int
    lines: int
    kind: str = ""

    def describe(self, path: str | Path) -> str:
        if not self.dropped:
            return f"{path}: nothing to repair: its {self.lines} lines are whole"
        return (
            f"{path}: dropped the torn line {self.line} ({self.dropped} bytes"
            f"{f', a {self.kind} line' if self.kind else ''}); {self.lines} lines left"
        )


def repair(path: str | Path) -> Repair:
    """Trim a torn last line (a crash or a full disk cut it short) off a log, in place.
    LogUnavailable if it cannot be read or written or a line before the last is damaged;
    LogLocked if a writer holds it."""
    lines = read_lines(path)
    last = lines[-1]
    torn = not last.endswith(b"\n")
    if not torn:
        try:
            parse(last, len(lines))
        except (LogCheckError, LogFormatError):
            torn = True
    keep = lines[:-1] if torn else lines
    if not keep:
        raise LogUnavailable(f"{path}: the log's only line is torn: nothing is left to keep")
    try:
        list(records(keep))
    except LogCheckError as bad:
        raise LogUnavailable(
            f"{path}: line {bad.line} is damaged ({bad.problem}): repair trims only a torn "
            "last line"
        ) from None
    if not torn:
        return Repair(0, 0, len(lines))
    kind = ""
    if b'"kind":"' in last:
        kind = last.split(b'"kind":"', 1)[1].split(b'"', 1)[0].decode("utf-8", "replace")[:20]
    size = sum(map(len, keep))
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as exc:
        raise LogUnavailable(f"{path}: cannot write the log: {exc.strerror}") from None
    try:
        if not lock(fd):
            raise LogLocked(0, f"the log {path} is being written by another writer (it is locked)")
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)
    return Repair(len(last), len(lines), len(keep), kind)


def load_key(path: str | Path) -> str:
    """The public key (hex) of a PEM file `minors log keygen` wrote."""
    return signing.load_public(path)
