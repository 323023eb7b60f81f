"""JSON Schemas of what `minors` reads and writes, for engines in other languages:
`minors schema NAME` prints one, `docs/schemas/NAME.schema.json` ships each (`minors schema
--write docs/schemas`; a test checks they agree).

`SCHEMAS` is the one source, each schema built mostly from the code it describes (command
kinds, effects, records, enums) so that it cannot drift from it (docs/scenario-format.md).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

from . import documents, scale
from .shapes import Shape

__all__ = ["ALIASES", "OUTPUTS", "SCHEMAS", "Shape", "get", "names", "text", "write"]

SCHEMAS: dict[str, Callable[[], Shape]] = {
    "scenario": documents.scenario,
    "state": documents.state,
    "error": documents.error,
    "log-1": functools.partial(documents.log_format, 1),
    "log-2": functools.partial(documents.log_format, 2),
    "log-verify": documents.log_verify,
    "log-show": documents.log_show,
    "tables": documents.tables,
    "coverage": documents.coverage,
    "simulation": scale.simulation,
    "exploration": scale.exploration,
    "verdicts": scale.verdicts,
}
"""Every schema by name, in the order `minors schema` lists them."""

ALIASES: dict[str, str] = {"log": f"log-{documents.LOG_FORMAT}"}
"""Other names: `log` is a line of the log format this version writes."""

OUTPUTS: dict[str, str] = {
    "run": "state",
    "replay": "state",
    "continue": "state",
    "log verify": "log-verify",
    "log show": "log-show",
    "tables": "tables",
    "rules coverage": "coverage",
    "simulate": "simulation",
    "explore": "exploration",
    "log verify-many": "verdicts",
}
"""The schema of what `minors COMMAND --json` prints unless it exits 2 (then: `error`);
`minors nationality --json` has none yet."""


def names() -> list[str]:
    """The names `get` takes: every schema, then the aliases."""
    return [*SCHEMAS, *ALIASES]


def get(name: str) -> Shape:
    """The schema called `name` (or an alias of one)."""
    from ..errors import UnknownNameError, close_matches

    key = ALIASES.get(name.lower(), name.lower())
    if key not in SCHEMAS:
        close = tuple(close_matches(name.lower(), names(), n=3))
        raise UnknownNameError("schema", name, close, f"schemas: {', '.join(names())}")
    return SCHEMAS[key]()


def text(name: str) -> str:
    """The schema `name` as the file `docs/schemas/NAME.schema.json` holds it."""
    return json.dumps(get(name), indent=2, ensure_ascii=False) + "\n"


def write(folder: str | Path) -> list[Path]:
    """Write every schema as FOLDER/NAME.schema.json (not the aliases); the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in SCHEMAS:
        path = out / f"{name}.schema.json"
        path.write_text(text(name), encoding="utf-8")
        paths.append(path)
    return paths
