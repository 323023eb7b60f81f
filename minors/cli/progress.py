"""A progress bar for long work, drawn by rich on a terminal and not at all to a pipe or a
file, so that a program reads only the output."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["progress"]

Advance = Callable[[int, int], None]  # called with (done, total) as the work goes on


@contextmanager
def progress(description: str, unit: str, *, stderr: bool = True) -> Iterator[Advance]:
    """A bar on stderr (or stdout), if a terminal, while the block runs; yields its update."""
    console = Console(stderr=stderr)
    if not console.is_interactive:
        yield lambda done, total: None  # nobody watches
        return
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)
