"""Bad logs, a fuzz corpus run in process (click's CliRunner): deeply nested lines, hand-built
logs with valid hashes but odd fields, files that are not logs, huge lines and files, a
FIFO, /dev/zero. Each gives exit 2, one line on stderr, no traceback, nothing written, and
quickly (docs/audit-log.md, "Reading bounds")."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import minors
from minors import auditlog
from minors.audit import lines as log_lines
from minors.cli import main
from tests.paths import DATA

CONTRACT = DATA / "contract" / "sweden.toml"
SECONDS = 10.0
"""The bound on one command over one bad input (the suite shares two cores)."""


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real log of format 2: the contract's Sweden scenario."""
    path = tmp_path_factory.mktemp("good") / "good.jsonl"
    minors.run_scenario(CONTRACT, log=path)
    return path


def records_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def resealed(records: list[dict[str, Any]]) -> bytes:
    """The lines of `records` with every hash and `prev` worked out again (a hand-built
    log whose chain holds)."""
    prev, out = auditlog.GENESIS, []
    for record in records:
        body = {k: v for k, v in record.items() if k not in ("hash", "prev")}
        line, prev = auditlog.seal(body, prev)
        out.append(line)
    return b"".join(out)


def _entry(records: list[dict[str, Any]], command: str | None = None) -> dict[str, Any]:
    """The first entry line (of a command of that name, if given)."""
    return next(
        r
        for r in records
        if r["kind"] == "entry" and (command is None or r["command"]["command"] == command)
    )


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = {"x": value}
    return value


Edit = Callable[[list[dict[str, Any]]], None]


def _edit(change: Edit) -> Callable[[Path, Path], Path]:
    def build(good: Path, folder: Path) -> Path:
        records = records_of(good)
        change(records)
        path = folder / "bad.jsonl"
        path.write_bytes(resealed(records))
        return path

    return build


def _raw(data: bytes) -> Callable[[Path, Path], Path]:
    def build(good: Path, folder: Path) -> Path:
        path = folder / "bad.jsonl"
        path.write_bytes(data)
        return path

    return build


def _fifo(good: Path, folder: Path) -> Path:
    path = folder / "fifo.jsonl"
    os.mkfifo(path)
    return path


def _huge(good: Path, folder: Path) -> Path:
    path = folder / "huge.jsonl"
    with path.open("wb") as file:  # one 50 MB line: a JSON string that never ends
        file.write(b'{"kind":"header","x":"')
        block = b"x" * (1 << 20)
        for _ in range(50):
            file.write(block)
        file.write(b'"}\n')
    return path


def _pop(field: str, kind: str = "entry") -> Edit:
    def change(records: list[dict[str, Any]]) -> None:
        target = records[0] if kind == "header" else _entry(records)
        del target[field]

    return change


def _set(field: str, value: Any, kind: str = "entry") -> Edit:
    def change(records: list[dict[str, Any]]) -> None:
        target = records[0] if kind == "header" else _entry(records)
        target[field] = value

    return change


def _effects(value: Any) -> Edit:
    def change(records: list[dict[str, Any]]) -> None:
        _entry(records, "declare_war")["effects"] = value

    return change


def _deep_command(records: list[dict[str, Any]]) -> None:
    _entry(records, "declare_war")["command"]["target"] = _nested(200)


def _first_line_an_entry(records: list[dict[str, Any]]) -> None:
    del records[0]


ALL = ("verify", "show", "replay", "head", "extends")
CORPUS: dict[str, tuple[Callable[[Path, Path], Path], tuple[str, ...]]] = {
    "json nested 100,000 deep": (_raw(b"[" * 100_000 + b"]" * 100_000 + b"\n"), ALL),
    "a sealed entry nested 200 deep": (_edit(_deep_command), ALL),
    "a header without start": (_edit(_pop("start", "header")), ALL),
    "overlays: 5": (_edit(_set("overlays", 5, "header")), ALL),
    "hooks: x": (_edit(_set("hooks", "x", "header")), ALL),
    "a header state that is not a state": (
        _edit(_set("state", {"clock": 5}, "header")),
        ("verify", "replay"),
    ),
    "format: '2'": (_edit(_set("format", "2", "header")), ALL),
    "an entry whose command is a string": (_edit(_set("command", "declare_war")), ALL),
    "an entry without command": (_edit(_pop("command")), ALL),
    "an entry without seq": (_edit(_pop("seq")), ALL),
    "an entry whose seq is true": (_edit(_set("seq", True)), ALL),
    "an entry without at": (_edit(_pop("at")), ALL),
    "an entry at yesterday": (_edit(_set("at", "yesterday")), ALL),
    "junk effects: a number": (_edit(_effects(5)), ALL),
    "junk effects: [1, 'x']": (_edit(_effects([1, "x"])), ALL),
    "junk effects: an unknown effect": (_edit(_effects([{"effect": "Annexed"}])), ALL),
    "junk effects: a field of the wrong type": (
        _edit(_effects([{"effect": "UnitPlaced", "unit": 5, "country": [], "rule": 1}])),
        ("verify", "show", "replay"),
    ),
    "an unknown line kind": (_edit(_set("kind", "banana")), ALL),
    "a first line that is an entry": (_edit(_first_line_an_entry), ALL),
    "a TOML file": (_raw(CONTRACT.read_bytes()), ("show", "replay", "head", "extends")),
    "an empty file": (_raw(b""), ALL),
    "a 50 MB line": (_huge, ALL),
    "a FIFO": (_fifo, ALL),
    "/dev/zero": (lambda good, folder: Path("/dev/zero"), ALL),
}


def _args(command: str, bad: Path, good: Path, new: Path) -> list[str]:
    return {
        "verify": ["log", "verify", str(bad)],
        "show": ["log", "show", str(bad)],
        "replay": ["replay", str(bad), "--log", str(new)],
        "head": ["log", "head", str(bad)],
        "extends": ["log", "verify", str(good), "--extends", str(bad)],
    }[command]


CASES = [(name, command) for name, (_, commands) in CORPUS.items() for command in commands]


@pytest.mark.parametrize(("name", "command"), CASES, ids=[f"{n}-{c}" for n, c in CASES])
def test_a_bad_log_is_one_line_and_exit_2(
    good: Path, tmp_path: Path, name: str, command: str
) -> None:
    """Each bad input: exit 2, one line on stderr naming it, no traceback, nothing written,
    within the time bound."""
    bad = CORPUS[name][0](good, tmp_path)
    new = tmp_path / "new.jsonl"
    started = time.monotonic()
    result = CliRunner().invoke(main, _args(command, bad, good, new))
    took = time.monotonic() - started
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("minors: ")
    assert len(lines[0]) < 1000  # nothing huge is echoed
    assert "Traceback" not in result.output
    assert not new.exists()
    assert took < SECONDS, f"{name} took {took:.1f} s"


def test_a_file_larger_than_a_log_may_be_is_refused(
    good: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file over the size bound is refused before it is read whole (the bound is 1 GiB;
    lowered here)."""
    monkeypatch.setattr(log_lines, "MAX_LOG", 1000)
    result = CliRunner().invoke(main, ["log", "verify", str(good)])
    assert result.exit_code == 2
    assert "more than a log may hold" in result.stderr


def test_the_corpus_is_not_empty() -> None:
    """The corpus holds every kind of bad input the issue lists (an empty list must not pass
    silently)."""
    assert len(CASES) >= 100
