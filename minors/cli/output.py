"""How the command line writes: `show` fits rich output to a terminal, and writes whole
lines to anything else (nothing wrapped, no table cell cut short, no colour); `echo_json`.
A stream that cannot encode a character gets a plain fallback ("—" as "-") instead of a
`UnicodeEncodeError`, and JSON `\\u` escapes."""

from __future__ import annotations

import codecs
import json
import sys
from typing import Any, NoReturn

import click
from rich.console import Console, RenderableType
from rich.text import Text

from ..errors import MinorsError

__all__ = [
    "FALLBACK",
    "MESSAGE_LIMIT",
    "echo_json",
    "error_document",
    "exit_2",
    "fail",
    "one_line",
    "setup",
    "show",
]

FALLBACK = {  # what a character the stream cannot encode is written as (anything else: "?")
    "—": "-",
    "–": "-",
    "−": "-",
    "→": "->",
    "←": "<-",
    "…": "...",
    "×": "x",
    "≤": "<=",
    "≥": ">=",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "«": "<<",
    "»": ">>",
    "†": "+",
    "‡": "++",
    "§": "#",
    "·": ".",
    "─": "-",
    "━": "-",
}

ERRORS = "minors-fallback"  # the codec error handler that writes `FALLBACK`
_UNBOUNDED = 1 << 20  # the width of a console that is not a terminal: lines never wrap


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(FALLBACK.get(ch, "?") for ch in bad), error.end


codecs.register_error(ERRORS, _fallback)


def setup() -> None:
    """Make standard output and error fall back (`FALLBACK`) rather than raise."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=ERRORS)


def show(renderable: RenderableType) -> None:
    """Print `renderable`: fitted to a terminal, in whole lines to anything else."""
    stream = sys.stdout
    if isinstance(renderable, str):
        renderable = Text(renderable)  # plain text: brackets are not markup
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # a closed or bare stream
        terminal = False
    if terminal:
        Console(file=stream).print(renderable)
        return
    console = Console(file=stream, width=_UNBOUNDED, color_system=None, force_terminal=False)
    with console.capture() as captured:
        console.print(renderable, no_wrap=True, overflow="ignore", crop=False)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    click.echo("\n".join(lines))


def echo_json(document: Any) -> None:
    """Print `document` as indented JSON (`\\u` escapes where the stream cannot hold it)."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(document, indent=2)
    click.echo(text)


MESSAGE_LIMIT = 2000  # the longest error line printed: a huge input quoted is cut


def one_line(exc: BaseException | str) -> str:
    """An error's message as one line (its lines joined with "; "), cut if it is long."""
    lines = [line.strip(" -") for line in str(exc).splitlines() if line.strip(" -")]
    text = " ".join([*lines[:1], "; ".join(lines[1:])] if len(lines) > 1 else lines)
    if len(text) > MESSAGE_LIMIT:
        text = f"{text[:MESSAGE_LIMIT]}… (cut: {len(text):,} characters)"
    return text


def error_document(exc: MinorsError) -> dict[str, Any]:
    """What `--json` prints when the input is malformed (exit 2): the `error` schema."""
    file, command = getattr(exc, "file", None), getattr(exc, "command", None)
    return {
        "error": {
            "exit": 2,
            "kind": type(exc).__name__,
            "message": one_line(exc),
            "file": str(file) if file else None,
            "command": command if isinstance(command, int) else None,
        }
    }


def exit_2(exc: MinorsError, as_json: bool = False, prefix: str = "error") -> NoReturn:
    """Exit 2 for bad input: one line on stderr (and with `--json` the error document)."""
    if as_json:
        echo_json(error_document(exc))
    fail(f"{prefix}: {one_line(exc)}")


def fail(message: str, code: int = 2) -> NoReturn:
    """Exit `code` after the line `minors: {message}` on standard error."""
    click.echo(f"minors: {message}", err=True)
    sys.exit(code)
