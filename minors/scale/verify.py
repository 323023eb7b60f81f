"""`minors log verify-many`: many audit logs verified in parallel, each by
`minors.auditlog.verify` (docs/audit-log.md), under the rulebook the caller names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs
from attrs import frozen

from .._kernel.rulebook import Rulebook
from ..audit import log as auditlog
from ..errors import LogUnavailable, MinorsError
from .runner import Payload, Runner

__all__ = ["Checked", "exit_status", "is_small", "logs_in", "verify_many"]

Outcome = Literal["ok", "failed", "unverifiable"]

SMALL_BYTES = 2_000_000
"""Logs that add up to less than this are verified in this process by default."""


@frozen
class Checked:
    """One log's verdict: `ok`, `failed` (a check failed: `detail` names the first bad
    entry) or `unverifiable` (it cannot be verified here: why)."""

    path: str
    outcome: Outcome
    detail: str
    entries: int = 0
    head: str = ""

    def line(self) -> str:
        """The one line `verify-many` prints for this log."""
        word = {"ok": "ok", "failed": "FAILED", "unverifiable": "CANNOT VERIFY"}[self.outcome]
        return f"{word} {self.path}: {self.detail}"

    def to_json(self) -> dict[str, Any]:
        """As `minors log verify-many --json` lists it."""
        return attrs.asdict(self)


def logs_in(paths: Iterable[str | Path]) -> list[str]:
    """The logs named: files as given, folders as their `*.jsonl` files (sorted, not
    recursive). A path that does not exist is kept: its verdict says so."""
    found: list[str] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            found.extend(str(f) for f in sorted(p.glob("*.jsonl")))
        else:
            found.append(str(p))
    return found


def _verify(rulebook: Rulebook | None, item: tuple[str, str]) -> Checked:
    """A task: the verdict of one log (`item`: its path as given, and absolute)."""
    path, absolute = item
    try:
        verdict = auditlog.verify(absolute, rulebook=rulebook)
    except LogUnavailable as exc:
        return Checked(path, "unverifiable", str(exc))
    except (MinorsError, OSError, ValueError) as exc:
        return Checked(path, "unverifiable", f"{type(exc).__name__}: {exc}")
    outcome: Outcome = "ok" if verdict.ok else "failed"
    return Checked(path, outcome, verdict.describe(), verdict.entries, verdict.head)


def verify_many(
    paths: Sequence[str], runner: Runner, rulebook: Rulebook | None = None
) -> list[Checked]:
    """Each log's verdict, in the order given, verified where `runner` runs work (a cluster's
    workers read the paths made absolute here, on a shared file system)."""
    items = [(path, str(Path(path).absolute())) for path in paths]
    return runner.map(_verify, Payload.of(rulebook), items)


def is_small(paths: Sequence[str]) -> bool:
    """Whether the logs are few and short enough to verify in this process by default."""
    total = 0
    for path in paths:
        try:
            total += Path(path).stat().st_size
        except OSError:
            continue
    return len(paths) < 4 or total < SMALL_BYTES


def exit_status(checked: Sequence[Checked]) -> int:
    """1 if any log failed its checks, else 2 if any could not be verified, else 0."""
    outcomes = {c.outcome for c in checked}
    if "failed" in outcomes:
        return 1
    return 2 if "unverifiable" in outcomes else 0
