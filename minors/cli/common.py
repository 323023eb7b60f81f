"""What the commands share: exit 2 in one line for bad input, the common options, and the
printing of a game's state."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from ..errors import MinorsError
from .output import echo_json, exit_2, fail, show

__all__ = [
    "errors_exit_2",
    "force_option",
    "load_rulebook",
    "overlays_option",
    "print_game",
    "rulebook_option",
]

F = TypeVar("F", bound=Callable[..., Any])


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

rulebook_option = click.option(
    "--rulebook",
    "rulebook_spec",
    metavar="RULEBOOK",
    help="The rulebook: a name (rule82, winter-truce) or MODULE:ATTRIBUTE (default: rule82).",
)


def load_rulebook(spec: str | None) -> Any:
    """The rulebook the caller names (None: rule 82); exit 2 with one line if it cannot."""
    if spec is None:
        return None
    from ..rules82 import find_rulebook

    try:
        return find_rulebook(spec)
    except MinorsError as exc:
        fail(f"error: {exc}".replace("\n  - ", " "))


force_option = click.option(
    "--force",
    is_flag=True,
    help="Write over an output file that exists and is not empty (never over a file the "
    "command reads).",
)


def print_game(game: Any, as_json: bool, error: dict[str, Any] | None = None) -> None:
    """The state of a game as `minors run` prints it (with `--json`, and `error`)."""
    from ..audit.report import report

    if as_json:
        echo_json({**game.to_json(), "error": error})
    else:
        show(report(game))
