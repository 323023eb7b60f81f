"""Command kinds: the `Command` base, what each field names, and the generic work on them.

A kind is a frozen attrs class subclassing `Command`, declared beside its rules, with a
`name` and fields whose annotations say what they name (`MinorName`, `UnitIds` ...): from
that alone commands are built, written back and made canonical. No code is per kind.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Union

import attrs

from ..errors import CommandError, UnknownNameError, shown

if typing.TYPE_CHECKING:
    from ..ruleset.tables import Ruleset

__all__ = [
    "Command",
    "CommandError",
    "CountryName",
    "HexLabel",
    "MajorName",
    "MinorName",
    "Names",
    "UnitIds",
    "canonical_names",
    "factor_count",
    "field_names",
    "per_kind",
    "plan",
    "vocabulary_key",
]


V = typing.TypeVar("V")


def per_kind(fn: Callable[[type[Any]], V]) -> Callable[[type[Any]], V]:
    """`functools.cache` for a function of a class, typed so (mypy reads a class's
    `__hash__` as its instances')."""
    return functools.cache(fn)  # type: ignore[return-value]


class Command:
    """Base of every command kind; `name` is its word in the scenario vocabulary."""

    __slots__ = ()
    name: ClassVar[str]


class Names(enum.StrEnum):
    """What a text field of a command names (its annotation says: `MinorName` ...)."""

    MINOR = "minor"
    """A minor country."""
    MAJOR = "major"
    """A major power."""
    COUNTRY = "country"
    """A minor country or a major power (its home country)."""
    HEX = "hex"
    """A hex label."""
    UNITS = "units"
    """Unit ids, each listed once."""


MinorName = Annotated[str, Names.MINOR]
"""A field naming a minor country."""
MajorName = Annotated[str, Names.MAJOR]
"""A field naming a major power."""
CountryName = Annotated[str, Names.COUNTRY]
"""A field naming a minor country or a major power's home country."""
HexLabel = Annotated[str, Names.HEX]
"""A field holding a hex label."""
UnitIds = Annotated[tuple[str, ...], Names.UNITS]
"""A field listing unit ids, each once."""


def _names_in(hint: Any) -> Names | None:
    if typing.get_origin(hint) is Annotated:
        found = [m for m in hint.__metadata__ if isinstance(m, Names)]
        return found[0] if found else None
    if typing.get_origin(hint) in (Union, types.UnionType):
        for arg in typing.get_args(hint):
            inner = _names_in(arg)
            if inner is not None:
                return inner
    return None


@per_kind
def field_names(kind: type[Any]) -> dict[str, Names]:
    """What the fields of a command (or of a record in one) name, by attribute, from their
    annotations (`MinorName` ...); fields that name nothing are left out."""
    hints = typing.get_type_hints(kind, include_extras=True)
    found = {a.name: _names_in(hints[a.name]) for a in attrs.fields(kind)}
    return {name: what for name, what in found.items() if what is not None}


def vocabulary_key(attribute: str) -> str:
    """The scenario vocabulary's word for a field (`in_` is `in`)."""
    return attribute.removesuffix("_")


# ---- canonical names and the form of every field -------------------------------------------

Step = tuple[str, str, int, bool, Names | None, Any]
"""What `resolve` does with a field: (attribute, key, code, optional, what it names, type). The
code: 0 a minor, 1 a major, 2 either (checked or made canonical), 3 a unit list (checked), 4 a tuple
of records (each resolved), 5 text, 6 a value of exactly the type (`int`: not a bool), 7 a tuple of
such values, 8 an enum member (its value made one), 9 an instance of the type. `optional` lets None
pass. Plain integers: enum lookups cost on the hot path."""
_CODES = {Names.MINOR: 0, Names.MAJOR: 1, Names.COUNTRY: 2, Names.UNITS: 3}
_EXACT = (int, bool, float)
"""Types whose values must be of the type itself (`True` is no count, 5 no fraction)."""


def _step(attribute: attrs.Attribute[Any], hint: Any, what: Names | None) -> Step | None:
    """How `resolve` checks one field of type `hint`; None for a type it cannot check."""
    key = vocabulary_key(attribute.name)
    args = typing.get_args(hint)
    optional = typing.get_origin(hint) in (Union, types.UnionType) and type(None) in args
    if optional:
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) != 1:
            return None
        hint = rest[0]
    if what in _CODES:
        assert what is not None
        return (attribute.name, key, _CODES[what], optional, what, None)
    if typing.get_origin(hint) is tuple:
        item = typing.get_args(hint)[0]
        if isinstance(item, type) and attrs.has(item):
            return (attribute.name, key, 4, optional, None, item)
        if item in _EXACT:
            return (attribute.name, key, 7, optional, None, item)
        return None
    if hint is str:
        return (attribute.name, key, 5, optional, None, str)
    if hint in _EXACT:
        return (attribute.name, key, 6, optional, None, hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return (attribute.name, key, 8, optional, None, hint)
    if isinstance(hint, type):
        return (attribute.name, key, 9, optional, None, hint)
    return None


@per_kind
def plan(kind: type[Any]) -> tuple[tuple[Step, ...], frozenset[str]]:
    """The steps of `resolve` for each field of a kind it can check, and the fields that
    must not be empty (required texts and tuples, as `build` requires them)."""
    hints = typing.get_type_hints(kind)
    named = field_names(kind)
    steps: list[Step] = []
    required: set[str] = set()
    for a in attrs.fields(kind):
        step = _step(a, hints[a.name], named.get(a.name))
        if step is None:
            continue
        steps.append(step)
        if step[2] == 4:
            plan(step[5])  # the records in the field: worked out with their command kind
        if a.default is attrs.NOTHING and step[2] in (0, 1, 2, 3, 4, 5, 7):
            required.add(a.name)
    return tuple(steps), frozenset(required)


_TYPES = {str: "text", int: "a whole number", bool: "true or false", float: "a number"}


def _name(rs: Ruleset, kind: str, key: str, value: Any, what: Names) -> str:
    if not isinstance(value, str):
        raise CommandError(f"{kind}: {key} must be a name, not {shown(value)}")
    try:
        canonical = rs.resolve(value)
    except UnknownNameError as exc:
        raise CommandError(f"{kind}: {key} {exc}") from None
    if what is Names.MINOR and canonical not in rs.minors:
        raise CommandError(f"{kind}: {key} {shown(value)} is not a minor country")
    if what is Names.MAJOR and canonical not in rs.majors:
        raise CommandError(f"{kind}: {key} {shown(value)} is not a major power")
    return canonical


def _all_text(values: tuple[Any, ...]) -> bool:
    for value in values:
        if not isinstance(value, str):
            return False
    return True


def _member(kind: str, key: str, value: Any, members: type[enum.Enum]) -> enum.Enum:
    """The member of `members` that `value` is or names (`"infantry"`)."""
    try:
        return members(value)
    except (ValueError, TypeError):
        names = ", ".join(repr(m.value) for m in members)
        raise CommandError(f"{kind}: {key} must be one of {names}, not {shown(value)}") from None


def _malformed(kind: str, key: str, code: int, value: Any, inner: Any) -> CommandError:
    """The error for a field of the wrong form (codes 3 to 9 of `Step`)."""
    if value is None:
        return CommandError(f"{kind}: field {key!r} is missing (None)")
    if isinstance(value, tuple) and not value:
        return CommandError(f"{kind}: field {key!r} must list at least one item, not ()")
    if isinstance(value, str) and code == 5:
        return CommandError(f"{kind}: field {key!r} must be a non-empty text")
    expected = {
        3: "a tuple of unit ids",
        4: f"a tuple of {getattr(inner, '__name__', inner)} records",
        5: "text",
        6: _TYPES.get(inner, str(inner)),
        7: f"a tuple of {_TYPES.get(inner, str(inner))}s",
        9: f"a {getattr(inner, '__name__', inner)}",
    }.get(code, "of another form")
    return CommandError(f"{kind}: field {key!r} must be {expected}, not {shown(value)}")


def _resolve_record(rs: Ruleset, kind: str, record: Any) -> Any:
    changes: dict[str, Any] = {}
    steps, required = plan(type(record))
    for attribute, key, code, optional, what, inner in steps:
        value = getattr(record, attribute)
        if code < 3:
            canonical = isinstance(value, str) and (
                (code != 1 and value in rs.minors) or (code != 0 and value in rs.majors)
            )
            if not canonical and not (optional and value is None):
                assert what is not None
                changes[attribute] = _name(rs, kind, key, value, what)
        elif value is None:
            if not optional:
                raise _malformed(kind, key, code, value, inner)
        elif code == 6:
            if type(value) is not inner:
                raise _malformed(kind, key, code, value, inner)
        elif code == 3:
            if not isinstance(value, tuple) or not value or not _all_text(value):
                if isinstance(value, tuple) and not value and attribute not in required:
                    continue
                raise _malformed(kind, key, code, value, inner)
            if len(value) > 1 and len(set(value)) != len(value):
                raise CommandError(f"{kind}: {key}: a unit is listed twice in {shown(list(value))}")
        elif code == 5:
            if not isinstance(value, str) or (attribute in required and not value.strip()):
                raise _malformed(kind, key, code, value, inner)
        elif code == 7:
            if type(value) is not tuple or (not value and attribute in required):
                raise _malformed(kind, key, code, value, inner)
            for item in value:
                if type(item) is not inner:
                    raise _malformed(kind, key, code, value, inner)
        elif code == 8:
            if type(value) is not inner:
                changes[attribute] = _member(kind, key, value, inner)
        elif code == 4:
            if not isinstance(value, tuple) or not all(isinstance(v, inner) for v in value):
                raise _malformed(kind, key, code, value, inner)
            if not value and attribute in required:
                raise _malformed(kind, key, code, value, inner)
            records = tuple(_resolve_record(rs, kind, v) for v in value)
            if any(new is not old for new, old in zip(records, value, strict=True)):
                changes[attribute] = records
        elif not isinstance(value, inner):
            raise _malformed(kind, key, code, value, inner)
    return attrs.evolve(record, **changes) if changes else record


def factor_count(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    """An attrs validator: a count of factors, a whole number of at least 0 (a malformed
    one is a `CommandError`, a `ValueError`)."""
    if type(value) is not int or value < 0:
        raise CommandError(
            f"{type(instance).__name__}: {attribute.name} must be a whole number of at least"
            f" 0, not {shown(value)}"
        )


def canonical_names(rs: Ruleset, cmd: Any) -> Any:
    """The command with every name in canonical spelling (itself when they all are).

    Raises:
        CommandError: not a command, a field of the wrong type or empty, a name unknown or
            of the wrong kind, or a unit listed twice.
    """
    if isinstance(cmd, Command):
        try:
            return _resolve_record(rs, cmd.name, cmd)
        except attrs.exceptions.NotAnAttrsClassError:
            pass
    raise CommandError(f"not a command: {shown(cmd)}; build one with minors.command()")
