"""A progress bar for long work (`minors log verify`, the mutation runs): drawn by rich
on a terminal, and nothing at all when the stream is a pipe or a file, so that what a
program reads is only the output."""

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

Advance = Callable[[int, int], None]
"""Called with (done, total) as the work goes on."""


def _ignore(done: int, total: int) -> None:
    """The progress of work nobody watches."""


@contextmanager
def progress(description: str, unit: str, *, stderr: bool = True) -> Iterator[Advance]:
    """A bar on stderr (or stdout) while the block runs, if that stream is an interactive
    terminal; it is cleared when the block ends. Yields the function to report progress
    with (`unit` names what is counted). While the bar is drawn on a stream, prints to that
    stream appear above it."""
    console = Console(stderr=stderr)
    if not console.is_interactive:
        yield _ignore
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

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance
