"""The lines of an audit log (docs/audit-log.md): canonical JSON sealed into a hash chain,
read back within bounds. Reading raises only `LogUnavailable`, `LogFormatError` (exit 2)
or `LogCheckError` (a line fails the encoding or chain checks: exit 1)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..domain.clock import Moment, MomentError
from ..errors import LogCheckError, LogFormatError, LogUnavailable

__all__ = [
    "GENESIS",
    "MAX_LINE",
    "MAX_LOG",
    "canonical",
    "cut",
    "digest",
    "entry_command",
    "entry_line",
    "moment_of",
    "parse",
    "read_lines",
    "records",
    "seal",
    "text",
]

GENESIS = "0" * 64  # the `prev` of a log's first line
MAX_LOG = 1 << 30  # the largest log read: a format-2 log of 100,000 entries is about 40 MB
MAX_LINE = 16 << 20  # the longest line read: a header's state is a few hundred kilobytes
MAX_DEPTH = 64  # the deepest nesting of arrays and objects (a log's own lines reach 8)


def _no_default(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_C_ENCODER = (
    json.encoder.c_make_encoder(  # type: ignore[attr-defined]
        None, _no_default, json.encoder.encode_basestring, None, ":", ",", True, False, True
    )
    if getattr(json.encoder, "c_make_encoder", None) is not None
    else None
)
"""CPython's C encoder made once: `json.dumps` builds one per call, as costly as a line."""

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def text(value: Any) -> str:
    """Canonical JSON, as text."""
    if _C_ENCODER is not None:
        return "".join(_C_ENCODER(value, 0))
    return _ENCODER.encode(value)  # pragma: no cover - other Pythons


def canonical(value: Any) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8."""
    return text(value).encode()


def digest(value: Any) -> str:
    """SHA-256 of the canonical JSON of `value`."""
    return hashlib.sha256(canonical(value)).hexdigest()


def seal(record: dict[str, Any], prev: str) -> tuple[bytes, str]:
    """The line for `record` chained after `prev`, and its hash (of the line without it)."""
    body = {**record, "prev": prev}
    encoded = canonical(body)
    own = hashlib.sha256(encoded).hexdigest()
    tail = canonical({k: v for k, v in body.items() if k > "hash"})[1:]  # "prev" at least
    member = b'"hash":"' + own.encode() + b'",'
    return encoded[: len(encoded) - len(tail)] + member + tail + b"\n", own


def entry_line(
    seq: int, at: Moment, command: dict[str, Any], effects: str, state: str | None, prev: str
) -> tuple[bytes, str]:
    """What `seal` makes of an entry's record, assembled from its members' canonical JSON."""
    # at < command < effects < effects_digest < hash < kind < prev < seq < state_digest
    effects_digest = hashlib.sha256(effects.encode()).hexdigest()
    head = (
        f'{{"at":{_STRING(str(at))},"command":{text(command)},"effects":{effects},'
        f'"effects_digest":"{effects_digest}"'
    )
    tail = f',"kind":"entry","prev":{_STRING(prev)},"seq":{int(seq)!r}'
    if state is not None:
        tail += f',"state_digest":{_STRING(state)}'
    own = hashlib.sha256(f"{head}{tail}}}".encode()).hexdigest()
    return f'{head},"hash":"{own}"{tail}}}\n'.encode(), own


_STRING = json.encoder.encode_basestring  # non-ASCII characters as themselves (canonical)


def cut(text: object, limit: int = 120) -> str:
    """`text` for a message, cut to `limit` characters (a 50 MB name is not echoed)."""
    shown = str(text)
    return shown if len(shown) <= limit else f"{shown[:limit]}… ({len(shown):,} characters)"


def read_lines(path: str | Path, what: str = "the log") -> list[bytes]:
    """The lines of the file at `path`, with their newlines: LogUnavailable if it cannot be
    read, LogFormatError if it is not a regular file, is empty or exceeds the bounds."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise LogUnavailable(f"{path}: cannot read {what}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise LogFormatError(f"{path}: {what} must be a regular file, not a device or pipe")
        if info.st_size > MAX_LOG:
            raise LogFormatError(
                f"{path}: {info.st_size:,} bytes is more than a log may hold ({MAX_LOG:,})"
            )
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(MAX_LOG + 1)
    except OSError as exc:
        raise LogUnavailable(f"{path}: cannot read {what}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if not data:
        raise LogFormatError(f"{path}: the file is empty, not a log")
    if len(data) > MAX_LOG:
        raise LogFormatError(f"{path}: more than {MAX_LOG:,} bytes is more than a log may hold")
    lines = data.splitlines(keepends=True)
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise LogFormatError(
                f"{path}: line {number} is {len(line):,} bytes long, more than a log line "
                f"may be ({MAX_LINE:,})"
            )
    return lines


_DECODER = json.JSONDecoder()


def entry_command(raw: bytes) -> dict[str, Any] | None:
    """An entry line's `command`, read without the rest of it; None unless laid out so."""
    if not raw.startswith(b'{"at":"'):
        return None
    end = raw.find(b'"', 7)
    if end < 0 or not raw.startswith(b',"command":{', end + 1):
        return None
    try:
        value, _ = _DECODER.raw_decode(raw[end + 12 :].decode())
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _too_deep(value: Any) -> bool:
    """Whether `value` nests deeper than `MAX_DEPTH` (without recursion)."""
    stack = [(value, 1)]  # only objects and arrays are pushed
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def parse(raw: bytes, number: int) -> dict[str, Any]:
    """The record of one line, its encoding and own hash checked (not the chain):
    LogCheckError if it is not, LogFormatError if it nests deeper than `MAX_DEPTH`."""
    if not raw.endswith(b"\n"):
        raise LogCheckError(number, "the line is cut short (no newline): the file was truncated")
    try:
        record = json.loads(raw)
    except RecursionError:
        raise LogFormatError(f"line {number} nests deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise LogCheckError(number, "the line is not JSON") from None
    if not isinstance(record, dict):
        raise LogCheckError(number, "the line is not a JSON object")
    seq = record.get("seq") if record.get("kind") == "entry" else None
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    try:
        encoded = text(record)
    except RecursionError:
        raise LogFormatError(f"line {number} nests deeper than {MAX_DEPTH} levels") from None
    if (encoded + "\n").encode() != raw:
        raise LogCheckError(number, "the line is not in canonical form", seq)
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and _too_deep(record):
        raise LogFormatError(f"line {number} nests deeper than {MAX_DEPTH} levels")
    own = record.get("hash")
    body = _without(encoded, "hash", own) if isinstance(own, str) and len(own) == 64 else None
    if body is None or own != hashlib.sha256(body.encode()).hexdigest():
        raise LogCheckError(number, "the line's hash does not match its content (edited)", seq)
    return record


def _without(text: str, key: str, value: str) -> str | None:
    """`text` without its member `key`, found by its value (a hash: nothing else holds it)."""
    member = f'"{key}":"{value}"'
    at = text.find("," + member)
    if at >= 0:
        return text[:at] + text[at + len(member) + 1 :]
    if text.startswith("{" + member):
        rest = text[len(member) + 1 :]
        return "{" + rest[1:] if rest.startswith(",") else "{" + rest
    return None


def records(
    lines: list[bytes], prev: str = GENESIS, first: int = 1
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line's number and record, its encoding and chain checked."""
    for number, raw in enumerate(lines, start=first):
        record = parse(raw, number)
        if record.get("prev") != prev:
            seq = record.get("seq") if record.get("kind") == "entry" else None
            raise LogCheckError(
                number,
                "the line does not follow the previous one (lines removed, reordered or "
                "duplicated)",
                seq if isinstance(seq, int) else None,
            )
        prev = record["hash"]
        yield number, record


_MOMENTS: dict[str, Moment] = {}  # a log names the same few moments again and again


def moment_of(value: Any, number: int, field: str) -> Moment:
    """The moment a field holds (LogFormatError if it is not one)."""
    found = _MOMENTS.get(value) if isinstance(value, str) else None
    if found is not None:
        return found
    try:
        if not isinstance(value, str):
            raise MomentError(f"{cut(value)!r} is not a moment")
        moment = Moment.parse(value)
    except MomentError as exc:
        raise LogFormatError(f"line {number}: field {field!r}: {cut(exc, 200)}") from None
    if len(_MOMENTS) < 4096 and str(moment) == value:
        _MOMENTS[value] = moment
    return moment
