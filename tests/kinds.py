"""What the fields of a command kind name, read as a test reads them: from the annotations a
kind declares its fields with, the public aliases `minors.MinorName`, `minors.MajorName`,
`minors.CountryName`, `minors.HexLabel` and `minors.UnitIds` (docs/api.md)."""

from __future__ import annotations

import types
import typing
from typing import Any, Union

import attrs

from minors import CountryName, HexLabel, MajorName, MinorName, UnitIds

ALIASES = (MinorName, MajorName, CountryName, HexLabel, UnitIds)
"""The annotations that say what a field names."""


def field_names(kind: type[Any]) -> dict[str, Any]:
    """The alias of `ALIASES` each field of `kind` (a command, or a record in one) is
    declared with, optional or not, by attribute; fields declared otherwise are left out."""
    hints = typing.get_type_hints(kind, include_extras=True)
    found = {}
    for a in attrs.fields(kind):
        hint = hints[a.name]
        union = typing.get_origin(hint) in (Union, types.UnionType)
        options = typing.get_args(hint) if union else (hint,)
        alias = next((alias for alias in ALIASES if alias in options), None)
        if alias is not None:
            found[a.name] = alias
    return found


def vocabulary_key(attribute: str) -> str:
    """The scenario vocabulary's word for a field: its attribute's name without a trailing
    underscore (`in_` is `in`)."""
    return attribute.removesuffix("_")
