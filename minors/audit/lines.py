"""The lines of an audit log (docs/audit-log.md): canonical JSON, sealed into a hash chain,
read back with bounds (a regular file, a size, a line length, a nesting depth) and checked
for form before anything trusts a field.

Reading never raises anything but `LogUnavailable` (the file cannot be read),
`LogFormatError` (it is not a log of a format this version reads: exit 2) or `Broken` (a
line fails the encoding or chain checks: a verification failure, exit 1).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..domain.clock import Moment, MomentError
from ..errors import LogFormatError, LogUnavailable

__all__ = [
    "GENESIS",
    "MAX_LINE",
    "MAX_LOG",
    "Broken",
    "canonical",
    "cut",
    "digest",
    "moment_of",
    "read_lines",
    "records",
    "seal",
]

GENESIS = "0" * 64
"""The `prev` of a log's first line."""

MAX_LOG = 1 << 30
"""The largest log file read (1 GiB): a format-2 log of 100,000 entries is about 40 MB."""

MAX_LINE = 64 << 20
"""The longest line read (64 MiB): the largest lines are format 1's whole-state snapshots."""

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects in a line (a log's own lines reach 8)."""


def canonical(value: Any) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(value: Any) -> str:
    """SHA-256 of the canonical JSON of `value`."""
    return hashlib.sha256(canonical(value)).hexdigest()


def seal(record: dict[str, Any], prev: str) -> tuple[bytes, str]:
    """The line for `record` chained after `prev`, and the line's own hash."""
    body = {**record, "prev": prev}
    own = hashlib.sha256(canonical(body)).hexdigest()
    return canonical({**body, "hash": own}) + b"\n", own


def cut(text: object, limit: int = 120) -> str:
    """`text` for a message, cut to `limit` characters (a 50 MB name is not echoed)."""
    shown = str(text)
    return shown if len(shown) <= limit else f"{shown[:limit]}… ({len(shown):,} characters)"


class Broken(Exception):
    """A line that fails a check: its number, the problem and the entry's number if known."""

    def __init__(self, line: int, problem: str, seq: int | None = None) -> None:
        super().__init__(problem)
        self.line, self.problem, self.seq = line, problem, seq


def read_lines(path: str | Path, what: str = "the log") -> list[bytes]:
    """The lines of the file at `path`, each with its newline (the last may lack one).

    Raises:
        LogUnavailable: it cannot be read (no such file ...).
        LogFormatError: it is not a regular file (a FIFO, a device), it is empty, larger
            than `MAX_LOG`, or a line is longer than `MAX_LINE`.
    """
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


def _too_deep(value: Any) -> bool:
    """Whether `value` nests arrays and objects deeper than `MAX_DEPTH` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def parse(raw: bytes, number: int) -> dict[str, Any]:
    """The record of one line, checked for encoding and its own hash (not the chain).

    Raises:
        Broken: the line is cut short, not JSON, not canonical, or its hash is wrong.
        LogFormatError: it nests deeper than `MAX_DEPTH`.
    """
    if not raw.endswith(b"\n"):
        raise Broken(number, "the line is cut short (no newline): the file was truncated")
    try:
        record = json.loads(raw)
    except RecursionError:
        raise LogFormatError(f"line {number} nests deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise Broken(number, "the line is not JSON") from None
    if not isinstance(record, dict):
        raise Broken(number, "the line is not a JSON object")
    try:
        if canonical(record) + b"\n" != raw:
            seq = record.get("seq")
            raise Broken(
                number, "the line is not in canonical form", seq if isinstance(seq, int) else None
            )
    except RecursionError:
        raise LogFormatError(f"line {number} nests deeper than {MAX_DEPTH} levels") from None
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and _too_deep(record):
        raise LogFormatError(f"line {number} nests deeper than {MAX_DEPTH} levels")
    own = record.pop("hash", None)
    seq = record.get("seq") if record.get("kind") == "entry" else None
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    if own != hashlib.sha256(canonical(record)).hexdigest():
        raise Broken(number, "the line's hash does not match its content (edited)", seq)
    record["hash"] = own
    return record


def records(
    lines: list[bytes], prev: str = GENESIS, first: int = 1
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line's record (numbered from `first`) after the encoding and chain checks."""
    for number, raw in enumerate(lines, start=first):
        record = parse(raw, number)
        if record.get("prev") != prev:
            seq = record.get("seq") if record.get("kind") == "entry" else None
            raise Broken(
                number,
                "the line does not follow the previous one (lines removed, reordered or "
                "duplicated)",
                seq if isinstance(seq, int) else None,
            )
        prev = record["hash"]
        yield number, record


def moment_of(value: Any, number: int, field: str) -> Moment:
    """The moment a field holds.

    Raises:
        LogFormatError: it is not a moment.
    """
    try:
        if not isinstance(value, str):
            raise MomentError(f"{cut(value)!r} is not a moment")
        return Moment.parse(value)
    except MomentError as exc:
        raise LogFormatError(f"line {number}: field {field!r}: {cut(exc, 200)}") from None
