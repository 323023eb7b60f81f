"""The one definition of how domain values cross into and out of plain data, for cattrs:
the tables' loader and the kernel each build their converter from `converter()`, which
structures without coercion (`'5'` is not 5, `5` is not `'5'`), and add only what is theirs.
"""

from __future__ import annotations

import typing
from enum import StrEnum
from typing import Any

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

from ..errors import FieldError, MomentError, shown
from . import DiplomaticLevel
from .clock import Moment

__all__ = ["converter", "first_problem", "level"]

_ARTICLE: dict[type[Any], str] = {int: "a whole number", str: "a string", bool: "true or false"}


def _strict(kind: type[Any]) -> Any:
    """Structure `kind` without coercion; its enum subclasses by value."""

    def hook(value: Any, target: type[Any]) -> Any:
        if target is kind:
            if type(value) is not kind:
                raise FieldError(
                    "", f"{shown(value)} is not {_ARTICLE[kind]}", f"write {_ARTICLE[kind]}"
                )
            return value
        try:
            return target(value)
        except (ValueError, TypeError):
            members = ", ".join(repr(m.value) for m in target)
            raise FieldError(
                "", f"{shown(value)} is not one of {members}", f"use one of {members}"
            ) from None

    return hook


def level(value: Any, _: Any = None) -> DiplomaticLevel:
    """A diplomatic level from its name (`association`)."""
    if isinstance(value, DiplomaticLevel):
        return value
    if isinstance(value, str) and value.upper() in DiplomaticLevel.__members__:
        return DiplomaticLevel[value.upper()]
    raise FieldError(
        "",
        f"{shown(value)} is not a diplomatic level",
        f"use one of {', '.join(m.name.lower() for m in DiplomaticLevel)}",
    )


def _moment(value: Any, _: Any) -> Moment:
    try:
        return Moment.parse(value)
    except MomentError as exc:
        raise FieldError("", str(exc), "write YEAR-SEASON/SIDE/PHASE") from None


def _plain(member: StrEnum) -> str:
    """A StrEnum member's plain value, read from its slot (`.value` is a property)."""
    value: str = member._value_
    return value


def _is_tuple(kind: Any) -> bool:
    return typing.get_origin(kind) is tuple


def converter() -> cattrs.Converter:
    """A converter for records of domain values: strict scalars, moments, levels."""
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind in (int, str, bool):
        # a class hook also receives the StrEnum and IntEnum subclasses: _strict serves both
        conv.register_structure_hook(kind, _strict(kind))
    # a StrEnum member is a str, which cattrs passes through: write its plain value
    conv.register_unstructure_hook(StrEnum, _plain)
    conv.register_structure_hook(DiplomaticLevel, level)
    conv.register_unstructure_hook(DiplomaticLevel, lambda value: value.name.lower())
    conv.register_structure_hook(Moment, _moment)
    conv.register_unstructure_hook(Moment, str)
    tuples = conv.get_structure_hook(tuple[Any, ...])  # cattrs' own, for every tuple type

    def sequence(value: Any, target: Any) -> Any:
        # cattrs would read a string as its letters and a table as its keys
        if not isinstance(value, list | tuple):
            raise FieldError("", f"{shown(value)} is not a list", "write a list: [...]")
        return tuples(value, target)

    conv.register_structure_hook_func(_is_tuple, sequence)
    return conv


def first_problem(exc: BaseException) -> tuple[str, str, str]:
    """(where, problem, fix) of the first error cattrs collected: `where` is the field's
    path (`units.0.kind`); a missing key is named as written (`in`, not `in_`)."""
    if isinstance(exc, ClassValidationError | IterableValidationError):
        with_notes, others = exc.group_exceptions()
        for sub, note in with_notes:
            field, problem, fix = first_problem(sub)
            if isinstance(sub, KeyError):
                return field, problem, fix
            name = str(getattr(note, "name", getattr(note, "index", "")))
            nested = isinstance(sub, ClassValidationError | IterableValidationError)
            return (f"{name}.{field}" if nested and field else name), problem, fix
        if others:
            return first_problem(others[0])
    if isinstance(exc, cattrs.BaseValidationError) and exc.exceptions:
        return first_problem(exc.exceptions[0])
    if isinstance(exc, ForbiddenExtraKeysError):
        extra = sorted(exc.extra_fields)
        known = ", ".join(a.alias or a.name for a in attrs.fields(exc.cl))
        return extra[0], f"unknown field {shown(extra[0])}", f"remove it; known fields: {known}"
    if isinstance(exc, FieldError):
        return exc.field, exc.problem, exc.fix
    if isinstance(exc, KeyError):
        return str(exc.args[0]), "required field is missing", "add it"
    return "", str(exc), ""
