"""The files a command writes: never over a file it reads, never over a file that is not
empty unless told to (`--force`), never two outputs in one file."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..errors import OverwriteError

__all__ = ["check_outputs"]


def _same(a: str, b: str) -> bool:
    """Whether two paths name one file (the same file by inode when both exist)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def check_outputs(
    outputs: Iterable[tuple[str, str | None]], reads: Iterable[str | None], *, force: bool = False
) -> None:
    """Refuse (OverwriteError) outputs that would destroy a file: one the command reads, one
    another output writes, or one that is not empty (unless `force`)."""
    inputs = [str(r) for r in reads if r]
    seen: list[tuple[str, str]] = []
    for option, path in outputs:
        if path is None:
            continue
        for read in inputs:
            if _same(path, read):
                raise OverwriteError(
                    f"{option} {path}: that is a file this command reads; it is never "
                    "written over (not even with --force)"
                )
        for other, earlier in seen:
            if _same(path, earlier):
                raise OverwriteError(f"{option} {path}: {other} writes that file already")
        seen.append((option, path))
        try:
            size = os.stat(path).st_size
        except OSError:
            continue
        if size and not force:
            raise OverwriteError(
                f"{option} {path}: the file exists and is not empty: pass --force to write over it"
            )
