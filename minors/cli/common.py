"""What every command of the command line shares: one line and exit 2 for bad input, the
error document of `--json`, the rulebook and `--force` options."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn, TypeVar

import click

from ..errors import MinorsError
from .output import echo_json

__all__ = [
    "error_document",
    "errors_exit_2",
    "exit_2",
    "force_option",
    "load_rulebook",
    "overlays_option",
    "rulebook_option",
]

F = TypeVar("F", bound=Callable[..., Any])


def error_document(exc: MinorsError) -> dict[str, Any]:
    """What `--json` prints on standard output when the input is malformed (exit 2): not a
    state (it has no `clock`), only `error` (docs/scenario-format.md, the `error` schema)."""
    file, command = getattr(exc, "file", None), getattr(exc, "command", None)
    return {
        "error": {
            "exit": 2,
            "kind": type(exc).__name__,
            "message": str(exc),
            "file": str(file) if file else None,
            "command": command if isinstance(command, int) else None,
        }
    }


def exit_2(exc: MinorsError, as_json: bool = False, prefix: str = "error") -> NoReturn:
    """Exit 2 for bad input: one line on standard error, and with `--json` the error
    document on standard output."""
    if as_json:
        echo_json(error_document(exc))
    text = " ".join(part.strip() for part in str(exc).splitlines())  # one line, always
    click.echo(f"minors: {prefix}: {text}", err=True)
    sys.exit(2)


def errors_exit_2(func: F) -> F:
    """Print a library error in one line and exit 2: no traceback for bad input."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MinorsError as exc:
            exit_2(exc, bool(kwargs.get("as_json")))

    return wrapper  # type: ignore[return-value]


overlays_option = click.option(
    "--ruleset",
    "overlays",
    multiple=True,
    metavar="FILE",
    help="An overlay merged over the tables (repeatable, in order).",
)
"""The overlay option of the commands that read the tables."""

rulebook_option = click.option(
    "--rulebook",
    "rulebook_spec",
    metavar="RULEBOOK",
    help=("The rulebook: a name (rule82, winter-truce) or MODULE:ATTRIBUTE (default: rule82)."),
)
"""The rulebook option of the commands that play or replay a game."""


def load_rulebook(spec: str | None) -> Any:
    """The rulebook the caller names (None: rule 82); exit 2 with one line if it cannot."""
    if spec is None:
        return None
    from ..rules82 import find_rulebook

    try:
        return find_rulebook(spec)
    except MinorsError as exc:
        click.echo(f"minors: error: {exc}".replace("\n  - ", " "), err=True)
        sys.exit(2)


force_option = click.option(
    "--force",
    is_flag=True,
    help="Write over an output file that exists and is not empty (never over a file the "
    "command reads).",
)
"""The option of the commands that write files."""
