"""JSON Schema shapes of Python types, read from a record class's fields and type hints as
the converter writes or reads them, so that a schema follows the code it describes
(docs/scenario-format.md, "JSON Schemas")."""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Annotated, Any, Union

import attrs

from ..domain import Season, Side
from ..domain.a25 import YearMonth
from ..domain.clock import Moment, Phase

__all__ = [
    "DRAFT",
    "MOMENT",
    "SHA256",
    "Shape",
    "closed",
    "document",
    "moment",
    "record",
    "shape",
    "strings",
]

Shape = dict[str, Any]
"""A JSON Schema, as plain data."""

DRAFT = "https://json-schema.org/draft/2020-12/schema"

MOMENT = rf"^[0-9]{{4}}-({'|'.join(Season)})/({'|'.join(Side)})/({'|'.join(Phase)})$"
"""A moment of play, `YEAR-SEASON/SIDE/PHASE` (docs/scenario-format.md)."""

SHA256 = "^[0-9a-f]{64}$"
"""A SHA-256 digest in hexadecimal."""


def moment(description: str = "A moment of play, YEAR-SEASON/SIDE/PHASE.") -> Shape:
    return {"type": "string", "pattern": MOMENT, "description": description}


def document(title: str, description: str, body: Shape) -> Shape:
    """A schema file: `body` with its draft, title and description."""
    return {"$schema": DRAFT, "title": title, "description": description, **body}


def closed(properties: Shape, optional: Iterable[str] = ()) -> Shape:
    """An object of `properties` and no other, each required but the `optional` ones."""
    left_out = set(optional)
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in left_out],
        "additionalProperties": False,
    }


def strings(description: str = "") -> Shape:
    out: Shape = {"type": "array", "items": {"type": "string"}}
    return {**out, "description": description} if description else out


LEAVES: dict[Any, Shape] = {
    str: {"type": "string"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    type(None): {"type": "null"},
    Moment: {"type": "string", "pattern": MOMENT},
    YearMonth: {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"},
    Fraction: {"type": "string", "pattern": "^-?[0-9]+(/[0-9]+)?$"},
}
"""Types written as one JSON value."""


def shape(
    hint: Any,
    unstructure: Callable[[Any], Any],
    leaves: Mapping[Any, Shape] = LEAVES,
    *,
    keys: Callable[[type[Any], attrs.Attribute[Any]], str] = lambda cls, a: a.name,
    required: Callable[[attrs.Attribute[Any]], bool] = lambda a: True,
) -> Shape:
    """The schema of a value of type `hint` as `unstructure` writes it; attrs records are
    objects of their fields, named by `keys`, those `required` listed so. A type it does
    not know is any JSON value."""

    def again(inner: Any) -> Shape:
        return shape(inner, unstructure, leaves, keys=keys, required=required)

    origin = typing.get_origin(hint)
    if origin is Annotated:
        return again(typing.get_args(hint)[0])
    if hint in leaves:
        return dict(leaves[hint])
    if origin in (Union, types.UnionType):
        options = [again(arg) for arg in typing.get_args(hint)]
        return options[0] if len(options) == 1 else {"anyOf": options}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return {"enum": [unstructure(member) for member in hint]}
    if origin in (tuple, list, set, frozenset):
        args = typing.get_args(hint)
        if origin is tuple and args and args[-1] is not Ellipsis:
            items = [again(arg) for arg in args]
            return {"type": "array", "prefixItems": items, "items": False}
        return {"type": "array", "items": again(args[0]) if args else {}}
    if origin in (dict, Mapping) or hint is dict:
        args = typing.get_args(hint)
        return {"type": "object", "additionalProperties": again(args[1]) if args else {}}
    if isinstance(hint, type) and attrs.has(hint):
        return record(hint, unstructure, leaves, keys=keys, required=required)
    return {}


def record(
    cls: type[Any],
    unstructure: Callable[[Any], Any],
    leaves: Mapping[Any, Shape] = LEAVES,
    *,
    keys: Callable[[type[Any], attrs.Attribute[Any]], str] = lambda cls, a: a.name,
    required: Callable[[attrs.Attribute[Any]], bool] = lambda a: True,
) -> Shape:
    """The schema of an attrs record: a closed object with a property per field."""
    hints = typing.get_type_hints(cls, include_extras=True)
    properties: Shape = {}
    optional = []
    for a in attrs.fields(cls):
        key = keys(cls, a)
        properties[key] = shape(hints[a.name], unstructure, leaves, keys=keys, required=required)
        if not required(a):
            optional.append(key)
    return closed(properties, optional)
