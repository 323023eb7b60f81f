"""A game's commands as a scenario file (docs/scenario-format.md) that `minors run`
replays: the commands of its log, each stamped with the moment it was applied at."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .._kernel.convert import fields_of
from ..domain.clock import Moment
from ..rules82 import Game
from ..rules82.commands import Command

__all__ = ["scenario_text", "toml_value"]

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    return name if _BARE.match(name) else json.dumps(name, ensure_ascii=False)


def toml_value(value: Any) -> str:
    """A value of a command's fields as TOML (strings, integers, booleans, lists, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }"
    raise TypeError(f"no TOML for {value!r}")


def scenario_text(
    game: Game,
    *,
    name: str,
    description: str,
    comments: Iterable[str],
    until: Moment | str | None,
    then: Command | None = None,
) -> str:
    """The scenario whose run (`minors run [--until UNTIL]`) gives `game`'s commands again,
    each at its moment, its overlays by absolute path, `comments` at its head; `then` is one
    more command at the clock (one the rules refuse there, so that the run stops on it)."""
    book = game.rulebook.name
    replay = "replay: minors run THIS.toml" + (f" --until {until}" if until is not None else "")
    lines = [f"# {line}" for line in comments]
    lines.append(f"# {replay}" + (f" --rulebook {book}" if book != "rule82" else ""))
    lines += ["[scenario]", f"name = {toml_value(name)}", f"start = {toml_value(game.start)}"]
    if description:
        lines.append(f"description = {toml_value(description)}")
    overlays = [str(Path(source).resolve()) for source in game.ruleset.sources]
    if overlays:
        lines.append(f"ruleset = {toml_value(overlays)}")
    for entry in game.log:
        fields = dict(entry.command)
        kind = fields.pop("command")
        if kind == "advance":
            continue
        lines += _do(entry.moment, kind, fields)
    if then is not None:
        fields = dict(fields_of(then))
        lines += _do(game.clock, str(fields.pop("command")), fields)
    return "\n".join(lines) + "\n"


def _do(at: Moment, kind: str, fields: dict[str, Any]) -> list[str]:
    """A `[[do]]` table: the command `kind` with its fields at `at`."""
    lines = ["", "[[do]]", f"at = {toml_value(str(at))}", f"command = {toml_value(kind)}"]
    return lines + [f"{_key(k)} = {toml_value(v)}" for k, v in fields.items() if v is not None]
