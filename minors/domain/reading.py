"""Input files read within bounds (docs/scenario-format.md, "Limits"): regular files only,
up to `MAX_BYTES`, TOML nested no deeper than `MAX_DEPTH`, keys of at most `MAX_KEY_PARTS`.
Each bound fails with an `InputError` before any work in proportion to the input: a FIFO
never blocks, and a dotted key 50,000 parts deep (quadratic for TOML parsers) is never parsed.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from ..errors import InputError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_KEY_PARTS",
    "InputError",
    "display",
    "parse_toml",
    "read_file",
]

MAX_BYTES = 4 * 1024 * 1024
"""The largest input file read, in bytes (4 MiB: some 40,000 scenario commands)."""

MAX_DEPTH = 32
"""The deepest nesting of TOML tables and arrays (a scenario needs 5, the tables 6)."""

MAX_KEY_PARTS = 32
"""The most parts of one dotted key (`a.b.c` has 3)."""

_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""
_LONG_KEY = re.compile(
    rf"(?m)(?:^|(?<=[\[{{,]))[ \t]*+{_PART}(?:[ \t]*+\.[ \t]*+{_PART}){{{MAX_KEY_PARTS},}}"
)
"""A dotted key of more than `MAX_KEY_PARTS` parts, bare or quoted, where a key may start
(a line's start, after `[`, `{` or `,`): found in linear time, as every quantifier is
possessive and no two tries can scan the same string."""


def read_file(path: str | os.PathLike[str], what: str = "the file") -> bytes:
    """The bytes of the regular file `path`, at most `MAX_BYTES` of them, opened without
    blocking (a FIFO is refused at once); an InputError says what is wrong, not the file."""
    name = os.fspath(path)
    if not name:
        raise InputError(f"cannot read {what}: the path is empty")
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"cannot read {what}: {reason}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder, not a file" if stat.S_ISDIR(mode) else "not a regular file"
            raise InputError(f"cannot read {what}: {kind}")
        chunks, size = [], 0
        while size <= MAX_BYTES and (chunk := os.read(fd, MAX_BYTES + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_BYTES:
        raise InputError(f"cannot read {what}: larger than {MAX_BYTES:,} bytes, the limit")
    return data


def _depth(document: dict[str, Any]) -> int:
    """How deep tables and arrays nest in `document` (itself 1), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        children = value.values() if isinstance(value, dict) else value
        stack.extend((v, depth + 1) for v in children if isinstance(v, dict | list))
    return deepest


def parse_toml(data: bytes) -> dict[str, Any]:
    """The TOML document in `data` (UTF-8), within this module's limits and Python's."""
    if len(data) > MAX_BYTES:
        raise InputError(f"larger than {MAX_BYTES:,} bytes, the limit")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    long = _LONG_KEY.search(text)
    if long is not None:
        line = text.count("\n", 0, long.start()) + 1
        raise InputError(
            f"a dotted key of more than {MAX_KEY_PARTS} parts at line {line}, the limit"
        )
    deep = f"tables and arrays nested deeper than {MAX_DEPTH} levels, the limit"
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise InputError(deep) from None
    except ValueError:  # int() refuses a literal longer than the interpreter's limit
        digits = sys.get_int_max_str_digits()
        raise InputError(f"an integer of more than {digits:,} digits, the limit") from None
    if _depth(document) > MAX_DEPTH:
        raise InputError(deep)
    return document


def display(path: str | Path, limit: int = 200) -> str:
    """A path as a message names it: whole, unless it is longer than `limit` characters."""
    name = str(path)
    return name if len(name) <= limit else f"{name[:limit]}… ({len(name):,} characters)"
