"""The builders of the schemas `minors.schema.SCHEMAS` names (docs/scenario-format.md,
docs/audit-log.md)."""

from __future__ import annotations

import types
import typing
from typing import Any

import attrs

from .._kernel.convert import CONVERTER
from .._kernel.kind import Names, field_names, vocabulary_key
from ..audit.log import FORMAT as LOG_FORMAT
from ..domain import ClauseKind, Status
from ..domain.events import Event
from ..domain.units import UnitKind
from ..rules82.commands import KINDS
from ..ruleset import a25, loader
from ..ruleset.records import Count, Partisans
from .shapes import LEAVES, SHA256, Shape, closed, document, moment, record, shape, strings

__all__ = [
    "LOG_FORMAT",
    "coverage",
    "error",
    "log_format",
    "log_show",
    "log_verify",
    "scenario",
    "state",
    "tables",
]

NAMES = {
    Names.MINOR: "a minor country (any of its names, case-insensitive)",
    Names.MAJOR: "a major power (any of its names, case-insensitive)",
    Names.COUNTRY: "a minor country or a major power's home country",
    Names.HEX: "a hex label",
    Names.UNITS: "unit ids, each once (one id may be written as a string)",
}
"""What a field that names something holds, by its annotation."""


def _one_of(tag: str, options: list[Shape], other: Shape | None = None) -> Shape:
    """One of `options`, told apart by the constant of their `tag` property: each option
    applies when the tag names it (if/then, so that a validator reads one option, not
    all), and the tag must name one of them (or, with `other`, anything else is `other`)."""
    names = [option["properties"][tag]["const"] for option in options]
    tags: Shape = {"enum": names} if other is None else {"type": "string"}
    branches: list[Shape] = [
        {"if": {"properties": {tag: {"const": name}}}, "then": option}
        for name, option in zip(names, options, strict=True)
    ]
    if other is not None:
        branches.append({"if": {"properties": {tag: {"not": {"enum": names}}}}, "then": other})
    return {"type": "object", "properties": {tag: tags}, "required": [tag], "allOf": branches}


def _first_line(cls: type[Any]) -> str:
    return (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")


# ---- commands (scenario files, log entries) ---------------------------------------------------


def _required_input(a: attrs.Attribute[Any]) -> bool:
    return a.default is attrs.NOTHING


def _input(hint: Any) -> Shape:
    """A command field as a scenario file writes it: TOML has no null, so an optional
    field is its type, left out."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        hint = args[0] if len(args) == 1 else hint
    return shape(
        hint,
        CONVERTER.unstructure,
        keys=lambda cls, a: vocabulary_key(a.name),
        required=_required_input,
    )


def _command(name: str, cls: type[Any], *, stamped: bool) -> Shape:
    """A command of kind `name` in the scenario vocabulary, with its `at` if `stamped`."""
    hints = typing.get_type_hints(cls, include_extras=True)
    named = field_names(cls)
    properties: Shape = {}
    if stamped:
        properties["at"] = moment("When the command happens; never earlier than the one before.")
    properties["command"] = {"const": name}
    optional = []
    for a in attrs.fields(cls):
        key = vocabulary_key(a.name)
        field = _input(hints[a.name])
        what = named.get(a.name)
        if what is Names.UNITS:
            field = {"anyOf": [{"type": "string", "minLength": 1}, {**field, "minItems": 1}]}
        elif _required_input(a) and field.get("type") == "string":
            field["minLength"] = 1
        elif _required_input(a) and field.get("type") == "array":
            field["minItems"] = 1
        if what is not None:
            field["description"] = NAMES[what]
        properties[key] = field
        if not _required_input(a):
            optional.append(key)
    return {"title": name, "description": _first_line(cls), **closed(properties, optional)}


def scenario() -> Shape:
    """A scenario file (docs/scenario-format.md), as TOML reads into JSON data."""
    head = closed(
        {
            "name": {"type": "string"},
            "description": {"type": "string"},
            "start": {
                "type": "string",
                "minLength": 1,
                "description": "The start position: 1939-fall, the campaign start of 82.12.",
            },
            "ruleset": strings("Overlay tables, paths relative to the scenario file."),
        },
        optional=("name", "description", "ruleset"),
    )
    kinds = [_command(name, cls, stamped=True) for name, cls in KINDS.items()]
    return document(
        "minors scenario file",
        "A start position and a script of commands, each stamped with its moment of play; "
        "the TOML file `minors run` plays, read as JSON data. Commands are rule 82's; a "
        "variant rulebook may accept more.",
        closed(
            {"scenario": head, "do": {"type": "array", "items": _one_of("command", kinds)}},
            optional=("do",),
        ),
    )


# ---- the JSON state and the error document ------------------------------------------------------


def _violations() -> Shape:
    violation = closed({"rule": {"type": "string"}, "message": {"type": "string"}})
    body = closed(
        {
            "rule": {
                "type": "string",
                "description": "The first broken rule in ascending clause order.",
            },
            "message": {"type": "string"},
            "command": {
                "type": "integer",
                "minimum": 1,
                "description": "The 1-based index of the command in the file.",
            },
            "violations": {"type": "array", "items": violation, "minItems": 1},
        }
    )
    description = "Exit 3: the command that broke a rule, and every rule it broke."
    return {"type": "object", "description": description, **body}  # "type" stays first


def state() -> Shape:
    """What `minors run --json` and `minors replay --json` print (`Game.to_json()`)."""
    minor = closed(
        {
            "status": {"enum": [s.value for s in Status], "description": "82.11's category."},
            "major": {
                "type": ["string", "null"],
                "description": "The major power the status ties the minor to; null for none.",
            },
            "at_war_with": strings("The major powers at war with the minor, sorted."),
        }
    )
    unit = closed(
        {
            "owner": {"type": "string", "description": "A major power or a minor country."},
            "kind": {"enum": [k.value for k in UnitKind]},
            "factors": {"type": "integer", "minimum": 0},
            "in": {"type": "string", "description": "The country the unit is in."},
            "hex": {"type": "string"},
        },
        optional=("hex",),
    )
    return document(
        "minors JSON state",
        "The state `minors run --json` and `minors replay --json` print (Game.to_json()): "
        "the clock, every active minor, the units on the map (by id, sorted), the units the "
        "rules eliminated (in order), each major's BRP credits from rule 82, and the error.",
        closed(
            {
                "clock": moment("Where the run stopped."),
                "minors": {"type": "object", "additionalProperties": minor},
                "units": {"type": "object", "additionalProperties": unit},
                "eliminated": strings("Ids of the units the rules removed, in order."),
                "brps": {"type": "object", "additionalProperties": {"type": "integer"}},
                "error": {"anyOf": [{"type": "null"}, _violations()]},
            }
        ),
    )


def error() -> Shape:
    """What a `--json` command prints on standard output when it exits 2."""
    return document(
        "minors error document",
        "What `minors ... --json` prints on standard output when the input is malformed or "
        "cannot be used (exit 2). Not a state: it has no clock; the same message is the one "
        "line on standard error.",
        closed(
            {
                "error": closed(
                    {
                        "exit": {"const": 2},
                        "kind": {
                            "type": "string",
                            "description": "The error class (minors.errors): ScenarioError ...",
                        },
                        "message": {"type": "string"},
                        "file": {
                            "type": ["string", "null"],
                            "description": "The file at fault (a scenario, an overlay), if any.",
                        },
                        "command": {
                            "type": ["integer", "null"],
                            "minimum": 1,
                            "description": "The 1-based index of the command at fault, if any.",
                        },
                    }
                )
            }
        ),
    )


# ---- audit log lines --------------------------------------------------------------------------


def _effect(cls: type[Any]) -> Shape:
    fields = record(cls, CONVERTER.unstructure)["properties"]
    body = closed({"effect": {"const": cls.__name__}, **fields})
    return {"title": cls.__name__, "description": _first_line(cls), **body}


def _chained(
    kind: str, description: str, properties: Shape, optional: tuple[str, ...] = ()
) -> Shape:
    body = {
        "kind": {"const": kind},
        **properties,
        "prev": {"type": "string", "pattern": SHA256, "description": "The previous line's."},
        "hash": {"type": "string", "pattern": SHA256, "description": "This line's own."},
    }
    return {"title": kind, "description": description, **closed(body, optional)}


def _state(description: str) -> Shape:
    return {
        "type": "object",
        "description": description,
        "properties": {"clock": moment(), "minors": {"type": "object"}},
        "required": ["clock", "minors", "units", "ledger", "wars"],
    }


def _changes() -> Shape:
    """A format-2 snapshot's changes: per part of the state, an object's set and drop, an
    array's keep and add, or a value."""
    part = {
        "oneOf": [
            closed({"set": {"type": "object"}, "drop": strings()}),
            closed({"keep": {"type": "integer", "minimum": 0}, "add": {"type": "array"}}),
            {"not": {"type": "object"}},
        ]
    }
    return {
        "type": "object",
        "description": "What changed since the last snapshot (or the header's state).",
        "additionalProperties": part,
    }


def log_format(fmt: int) -> Shape:
    """A line of an audit log of format `fmt` (docs/audit-log.md)."""
    sha = {"type": "string", "pattern": SHA256}
    effects = [_effect(cls) for cls in typing.get_args(Event)]
    advance = {"title": "advance", **closed({"command": {"const": "advance"}, "to": moment()})}
    commands = [_command(name, cls, stamped=False) for name, cls in KINDS.items()]
    other = {"title": "a variant's command", "type": "object"}
    later: Shape = {}
    if fmt >= 2:
        later = {
            "seq": {
                "type": "integer",
                "minimum": 0,
                "description": "The entries before the log's first (0 from the start).",
            },
            "at": moment(),
            "state": _state("The state the log starts from, as Game.state() gives it."),
            "state_digest": {**sha, "description": "Its digest (docs/audit-log.md)."},
        }
    header = _chained(
        "header",
        "The first line: what the log was written under.",
        {
            "format": {"const": fmt},
            "library": {"type": "string", "description": "The minors version that wrote it."},
            "tables": {**sha, "description": "The digest of the tables in force."},
            "overlays": {
                "type": "array",
                "items": closed({"name": {"type": "string"}, "toml": {"type": "string"}}),
            },
            "rulebook": {
                "type": "object",
                "description": "Absent in logs of 0.1: rule 82.",
                **closed({"name": {"type": "string"}, "digest": sha}),
            },
            "hooks": {
                "type": "object",
                "additionalProperties": closed({"function": {"type": "string"}, "digest": sha}),
            },
            "start": {"type": "string"},
            **later,
        },
        optional=("rulebook",),
    )
    entry = _chained(
        "entry",
        "An applied command or a clock advance, with its effects.",
        {
            "seq": {"type": "integer", "minimum": 1},
            "at": moment(),
            "command": _one_of("command", [advance, *commands], other),
            "effects": {"type": "array", "items": _one_of("effect", effects)},
            "effects_digest": sha,
            "state_digest": {**sha, "description": "After an advance: the whole state's."},
        },
        optional=("state_digest",),
    )
    body: Shape = (
        {"state": _state("The complete state, as Game.state() gives it (docs/api.md).")}
        if fmt == 1
        else {"changes": _changes()}
    )
    snapshot = _chained(
        "snapshot",
        "The whole state at a turn boundary, after the entry `seq`."
        if fmt == 1
        else "What changed at a player turn's start, after the entry `seq`.",
        {"seq": {"type": "integer", "minimum": 1}, "at": moment(), **body, "state_digest": sha},
    )
    close = _chained(
        "close",
        "The last line: the number of entries and the final state's digest.",
        {"entries": {"type": "integer", "minimum": 0}, "at": moment(), "state_digest": sha},
    )
    kinds = [header, entry, snapshot, close]
    if fmt >= 2:
        kinds.append(
            _chained(
                "seal",
                "A seal: an Ed25519 signature of the head by the key (raw, hex).",
                {
                    "head": {**sha, "description": "The closing line's hash, signed."},
                    "key": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                    "signature": {"type": "string", "pattern": "^[0-9a-f]{128}$"},
                },
            )
        )
    return document(
        f"minors audit log line, format {fmt}",
        f"One line of an audit log of format {fmt} (JSON Lines, canonical: sorted keys, no "
        "spaces, UTF-8): a header, entries and snapshots, and a closing line, each chained "
        "to the previous line by its hash.",
        _one_of("kind", kinds),
    )


def log_verify() -> Shape:
    """What `minors log verify --json` prints (exit 0 or 1)."""
    sha = {"type": "string", "pattern": SHA256}
    nullable_int = {"type": ["integer", "null"], "minimum": 0}
    return document(
        "minors log verify",
        "What `minors log verify --json` prints when it can verify (exit 0: all holds; 1: a "
        "check failed, named by `problem`, `line` and `seq`); exit 2 prints the error "
        "document (docs/audit-log.md).",
        closed(
            {
                "ok": {"type": "boolean"},
                "head": {**sha, "description": "The closing line's hash (the log's name)."},
                "entries": {"type": "integer", "minimum": 0},
                "format": {"enum": [1, LOG_FORMAT]},
                "origin": {
                    "enum": ["start", "state"],
                    "description": "The replay began at the start position, or at the state "
                    "the header records (a log opened mid-game).",
                },
                "problem": {"type": ["string", "null"]},
                "line": nullable_int,
                "seq": nullable_int,
                "extends": {
                    **nullable_int,
                    "description": "With --extends: the entries added to the older log.",
                },
                "seals": {
                    "type": "array",
                    "items": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                    "description": "The public keys (raw, hex) of the valid seals.",
                },
            }
        ),
    )


def log_show() -> Shape:
    """What `minors log show --json` prints."""
    effects = [_effect(cls) for cls in typing.get_args(Event)]
    effect = closed(
        {
            "at": moment("Where the effect happened (an advance's, at its phase)."),
            "text": {"type": "string", "description": "The sentence `log show` prints."},
            "effect": _one_of("effect", effects),
        }
    )
    entry = closed(
        {
            "seq": {"type": "integer", "minimum": 1},
            "at": moment(),
            "command": {
                "type": ["object", "null"],
                "description": "The command, or null where only some of its effects match.",
            },
            "effects": {"type": "array", "items": effect},
        }
    )
    return document(
        "minors log show",
        "What `minors log show --json` prints: the entries kept by the filters, each with "
        "the effects that match them (docs/audit-log.md).",
        closed(
            {
                "file": {"type": "string"},
                "format": {"enum": [1, LOG_FORMAT]},
                "head": {"type": "string", "pattern": SHA256},
                "filters": closed(
                    {
                        "turn": {"type": ["string", "null"]},
                        "minor": {"type": ["string", "null"]},
                        "since": {"type": ["integer", "null"]},
                    }
                ),
                "entries": {"type": "array", "items": entry},
            }
        ),
    )


# ---- the tables and the coverage report --------------------------------------------------------

TABLE_LEAVES = {
    **LEAVES,
    Partisans: {
        "type": "string",
        "pattern": "^(-|[0-9]+(:[0-9]+)?)$",
        "description": "a:b, n or -",
    },
    Count: {
        "type": "string",
        "pattern": r"^(-|[0-9]+(\[[0-9]+\])?)$",
        "description": "n, n[m] or -",
    },
}


def _table_key(cls: type[Any], a: attrs.Attribute[Any]) -> str:
    return a25.RENAMED.get(cls, {}).get(a.name, a.name)


def tables() -> Shape:
    """What `minors tables --json` prints."""
    sections = {
        section: {
            "type": "object",
            "additionalProperties": record(
                cls, loader.CONVERTER.unstructure, TABLE_LEAVES, keys=_table_key
            ),
        }
        for section, (cls, _) in loader.SECTIONS.items()
    }
    return document(
        "minors tables",
        "What `minors tables [NAME [ENTRY]] --json` prints: the digest of the merged "
        "tables, the overlays merged in, and the records of the tables asked for, by entry "
        "key (docs/tables.md).",
        closed(
            {
                "digest": {"type": "string", "pattern": SHA256},
                "overlays": strings(),
                "tables": {"type": "object", "properties": sections, "additionalProperties": False},
            }
        ),
    )


def coverage() -> Shape:
    """What `minors rules coverage --json` prints."""
    clause = closed(
        {
            "tests": strings("The tests that cite the clause (pytest node ids)."),
            "code": strings(
                "The checks and effects registered under it, and the code marked with it."
            ),
            "data": strings("The table rows that carry it (a clause data carries)."),
            "proven": strings(
                "The tests that failed with the clause switched off (the disabled-clause run)."
            ),
            "run": {
                "enum": ["caught", "missed", "stale", "not run"],
                "description": "The disabled-clause run's verdict, as its results hold it.",
            },
            "kind": {"enum": [k.value for k in ClauseKind]},
        }
    )
    return document(
        "minors rules coverage",
        "What `minors rules coverage --json` prints: each clause of the registry with the "
        "tests that cite it and the code registered under it.",
        {"type": "object", "additionalProperties": clause},
    )
