"""`minors report LOG --html OUT` and the page `minors run --html OUT` writes: the picture
of a game (`minors.audit.page`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..errors import MinorsError
from .output import fail

if TYPE_CHECKING:
    from ..audit.story import Story
    from ..rules82 import Game

__all__ = ["report", "write_page", "write_run_page"]


def write_page(story: Story, path: str) -> None:
    """Write the page of `story` to `path` and say so on stderr (exit 2 if it cannot)."""
    from ..audit.page import write

    try:
        write(story, path)
    except OSError as exc:
        fail(f"error: cannot write {path}: {exc.strerror}")
    click.echo(
        f"minors: wrote {path}: {len(story.bands)} minors over {len(story.turns)} seasons, "
        f"{len(story.events)} events",
        err=True,
    )


def write_run_page(game: Game, file: str | None, error: dict[str, Any] | None, path: str) -> None:
    """`minors run --html OUT`: the page of the run, with the rule a command broke."""
    from ..audit.story import story_of_game

    broke = None
    if error is not None:
        broke = f"command {error['command']} broke rule {error['rule']}: {error['message']}"
    try:
        story = story_of_game(game, title=f"minors run {file or 'sample campaign'}", error=broke)
    except MinorsError as exc:
        fail(f"error: {exc}")
    write_page(story, path)


@click.command("report")
@click.argument("log_file", metavar="LOG", type=click.Path(dir_okay=False))
@click.option(
    "--html",
    "html_path",
    required=True,
    metavar="OUT.html",
    type=click.Path(dir_okay=False),
    help="Write the page here: one file that needs no network.",
)
@click.option(
    "--rulebook",
    "rulebook_spec",
    metavar="RULEBOOK",
    help="The rulebook the log was written under (default: rule82), as `log verify` takes it.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Write over an output file that exists and is not empty (never over the log).",
)
def report(log_file: str, html_path: str, rulebook_spec: str | None, force: bool) -> None:
    """The picture of a logged game as one HTML page: a band per minor coloured by status
    and major season by season, the BRP credits of each major, the events with their
    clauses (filterable by minor and season) and the status diagram.

    The log is verified first, then replayed. Exit 0 when the page is written, 1 when the
    log fails verification (naming the first bad entry), 2 when it cannot be verified here
    or the page cannot be written.
    """
    from ..audit.story import story_of_log
    from ..errors import ReportError
    from ..rules82 import find_rulebook
    from .files import check_outputs

    try:
        check_outputs([("--html", html_path)], [log_file], force=force)
        book = find_rulebook(rulebook_spec) if rulebook_spec else None
        story = story_of_log(log_file, rulebook=book)
    except ReportError as exc:
        fail(f"cannot draw: {exc}", 1)
    except MinorsError as exc:
        fail(f"error: {exc}".replace("\n  - ", " "))
    write_page(story, html_path)
