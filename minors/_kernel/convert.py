"""The kernel's one converter (cattrs): states, commands and events to plain data and back.

Built on the domain converter (strict scalars, enums, moments, levels). A state's ledger
and wars have hooks of their own; events are a tagged union keyed by `effect` (the record's
class name, as the log and the JSON of a run write them); every command kind is structured
strictly with its keys as the scenario vocabulary writes them (`in`, not `in_`) and written
back without its fields at their default.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union

from ..domain import convert
from ..domain.chain import Chain
from ..domain.clock import Moment
from ..domain.events import Event
from ..domain.records import LedgerEntry
from ..errors import CommandError
from .kind import Command, Names, field_names, per_kind, vocabulary_key
from .state import GameState

__all__ = [
    "CONVERTER",
    "build_command",
    "event_data",
    "event_from_data",
    "fields_of",
    "state_dict",
    "structure_state",
]


def _is_command(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Command) and attrs.has(kind)


def _renames(kind: type[Any]) -> dict[str, Any]:
    trailing = [a.name for a in attrs.fields(kind) if a.name.endswith("_")]
    return {name: override(rename=vocabulary_key(name)) for name in trailing}


def _converter() -> cattrs.Converter:
    conv = convert.converter()

    def wars_out(wars: dict[tuple[str, str], Moment]) -> list[list[str]]:
        return [[a, b, str(m)] for (a, b), m in sorted(wars.items())]

    def wars_in(value: Any, _: Any) -> dict[tuple[str, str], Moment]:
        return {(a, b): Moment.parse(m) for a, b, m in value}

    def chain_out(chain: Chain[LedgerEntry]) -> list[Any]:
        return [conv.unstructure(entry) for entry in chain]

    def chain_in(value: Any, _: Any) -> Chain[LedgerEntry]:
        if not isinstance(value, list):
            raise TypeError(f"the ledger is a list of entries, not {type(value).__name__}")
        return Chain(conv.structure(entry, LedgerEntry) for entry in value)

    conv.register_unstructure_hook_func(lambda t: t == Chain[LedgerEntry], chain_out)
    conv.register_structure_hook_func(lambda t: t == Chain[LedgerEntry], chain_in)
    wars_type = dict[tuple[str, str], Moment]
    conv.register_unstructure_hook_func(lambda t: t == wars_type, wars_out)
    conv.register_structure_hook_func(lambda t: t == wars_type, wars_in)

    conv.register_structure_hook_factory(
        _is_command,
        lambda kind: make_dict_structure_fn(
            kind, conv, _cattrs_forbid_extra_keys=True, **_renames(kind)
        ),
    )
    conv.register_unstructure_hook_factory(
        _is_command,
        lambda kind: make_dict_unstructure_fn(
            kind, conv, _cattrs_omit_if_default=True, **_renames(kind)
        ),
    )
    configure_tagged_union(Event, conv, tag_generator=lambda cls: cls.__name__, tag_name="effect")
    return conv


CONVERTER = _converter()
"""States, commands and events to plain data and back."""


# ---- states ---------------------------------------------------------------------------------


def state_dict(state: GameState) -> dict[str, Any]:
    """The complete canonical state as plain data."""
    data: dict[str, Any] = CONVERTER.unstructure(state)
    return data


def structure_state(data: Mapping[str, Any]) -> GameState:
    """The state `state_dict` wrote (cattrs errors propagate: the caller says where)."""
    state: GameState = CONVERTER.structure(data, GameState)
    return state


# ---- events -----------------------------------------------------------------------------------


_EVENT_DATA: Callable[[Event], dict[str, Any]] = CONVERTER.get_unstructure_hook(Event)
"""The tagged union's hook, what `CONVERTER.unstructure(event, Event)` calls (found once,
not at every event of a log)."""


def event_data(event: Event) -> dict[str, Any]:
    """An event as plain data, its class name as `effect` (what the tagged union's hook
    writes, through the record's own hook: a log writes one per event)."""
    kind = type(event)
    found = _EVENT_WRITERS.get(kind)
    if found is None:
        if kind not in _EVENT_KINDS:
            return _EVENT_DATA(event)  # not a member of the union: cattrs says why
        found = _EVENT_WRITERS[kind] = (CONVERTER.get_unstructure_hook(kind), kind.__name__)
    data = found[0](event)
    data["effect"] = found[1]
    return data


_EVENT_KINDS = frozenset(typing.get_args(Event))
_EVENT_WRITERS: dict[type[Any], tuple[Callable[[Any], dict[str, Any]], str]] = {}


def event_from_data(data: Mapping[str, Any]) -> Event:
    """The event `event_data` wrote (for reading a log file)."""
    event: Event = CONVERTER.structure(data, typing.cast(Any, Event))
    return event


# ---- commands --------------------------------------------------------------------------------


def fields_of(cmd: Command) -> dict[str, Any]:
    """A command as the scenario vocabulary writes it (`command` plus its fields); optional
    fields at their default are left out."""
    name, hook = _writer(type(cmd))
    return {"command": name, **hook(cmd)}


@per_kind
def _writer(kind: type[Any]) -> tuple[str, Callable[[Any], dict[str, Any]]]:
    """A kind's name as text and the hook `CONVERTER.unstructure` calls for it (found once
    per kind, not at every command a log holds)."""
    return str(kind.name), CONVERTER.get_unstructure_hook(kind)


@per_kind
def _required(kind: type[Any]) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, key, is a unit list) of the fields `build` checks are not empty: the
    required texts and lists of a kind and of its nested records."""
    hints = typing.get_type_hints(kind)
    units = {name for name, what in field_names(kind).items() if what is Names.UNITS}
    out = []
    for a in attrs.fields(kind):
        hint = hints[a.name]
        if (hint is str or typing.get_origin(hint) is tuple) and a.default is attrs.NOTHING:
            out.append((a.name, vocabulary_key(a.name), a.name in units))
    return tuple(out)


def _empty(name: str, record: Any) -> None:
    for attribute, key, _ in _required(type(record)):
        value = getattr(record, attribute)
        if isinstance(value, str) and not value.strip():
            raise CommandError(f"{name}: field {key!r} must be a non-empty string")
        if isinstance(value, tuple):
            if not value:
                raise CommandError(f"{name}: field {key!r} must be a non-empty list")
            for item in value:
                if attrs.has(type(item)):
                    _empty(name, item)


def build_command(kinds: Mapping[str, type[Any]], name: str, fields: Mapping[str, Any]) -> Any:
    """The command `name` of `kinds` from its fields in the scenario vocabulary, read by
    the kind's cattrs hook (strict: an unknown field is refused).

    Raises:
        CommandError: unknown command, unknown or missing field, or a value of the wrong type
            (named with its path: `units.0.kind`).
    """
    cls = kinds.get(name) if isinstance(name, str) else None
    if cls is None:
        raise CommandError(f"unknown command {name!r}; commands are {', '.join(sorted(kinds))}")
    data = dict(fields)
    for _, key, units in _required(cls):
        if units and isinstance(data.get(key), str):
            data[key] = [data[key]]  # one unit id for a list of one
    try:
        built = _reader(cls)(data, cls)
    except (cattrs.BaseValidationError, CommandError, KeyError, TypeError, ValueError) as exc:
        where, problem, _ = convert.first_problem(exc)
        known = ", ".join(vocabulary_key(a.name) for a in attrs.fields(cls))
        if problem == "required field is missing":
            raise CommandError(f"{name}: missing field {where!r}") from None
        if problem.startswith("unknown field"):
            raise CommandError(f"{name}: {problem} (fields: {known})") from None
        raise CommandError(f"{name}: field {where!r}: {problem}") from None
    _empty(name, built)
    return built


@per_kind
def _reader(kind: type[Any]) -> Callable[[Any, Any], Any]:
    """The hook `CONVERTER.structure` calls for a command kind (found once per kind)."""
    return CONVERTER.get_structure_hook(kind)
