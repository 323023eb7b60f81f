"""Command kinds to plain data and back (cattrs), on the converter of states and events.

Every command kind is structured strictly with its keys as the scenario vocabulary writes
them (`in`, not `in_`) and written back without its fields at their default.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ..domain import convert
from ..domain.state import records_converter
from ..errors import CommandError
from .kind import Command, Names, field_names, per_kind, vocabulary_key

__all__ = ["CONVERTER", "build_command", "fields_of"]


def _is_command(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Command) and attrs.has(kind)


def _renames(kind: type[Any]) -> dict[str, Any]:
    trailing = [a.name for a in attrs.fields(kind) if a.name.endswith("_")]
    return {name: override(rename=vocabulary_key(name)) for name in trailing}


def _converter() -> cattrs.Converter:
    conv = records_converter()
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
    return conv


CONVERTER = _converter()
"""States, events and commands to plain data and back."""


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
    """The command `name` of `kinds` from its fields in the scenario vocabulary (strict):
    `CommandError` for an unknown command, an unknown or missing field, or a value of the
    wrong type (named with its path: `units.0.kind`)."""
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
        where, problem, fix = convert.first_problem(exc)
        known = ", ".join(vocabulary_key(a.name) for a in attrs.fields(cls))
        if problem == "required field is missing":
            raise CommandError(f"{name}: missing field {where!r}") from None
        if problem.startswith("unknown field") and "." in where:  # in a unit: the unit's fields
            raise CommandError(f"{name}: field {where!r}: {problem}; {fix}") from None
        if problem.startswith("unknown field"):
            raise CommandError(f"{name}: {problem} (fields: {known})") from None
        raise CommandError(f"{name}: field {where!r}: {problem}") from None
    _empty(name, built)
    return built


@per_kind
def _reader(kind: type[Any]) -> Callable[[Any, Any], Any]:
    """The hook `CONVERTER.structure` calls for a command kind (found once per kind)."""
    return CONVERTER.get_structure_hook(kind)
