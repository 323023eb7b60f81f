"""Command kinds: the `Command` base, what each field names, and the generic work on them.

A kind is declared once, beside its rules: a frozen attrs class that subclasses `Command`,
with a `name` (the scenario vocabulary's) and fields whose annotations say what they name
(`a_minor()`, `a_major()`, `a_country()`, `unit_ids()` ...). From that alone the kernel builds a
command from scenario fields (`build`), writes it back (`fields_of`), and puts every name
in canonical spelling (`resolve`); the test kit draws its fields. The kernel has no
per-kind code: checks, handler and candidates of a kind are marked in its rule module and
collected by a `Rulebook`.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Union

import attrs

from ..errors import CommandError, UnknownNameError

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
    "canonical_test",
    "field_names",
    "per_kind",
    "vocabulary_key",
]


V = typing.TypeVar("V")


def per_kind(fn: Callable[[type[Any]], V]) -> Callable[[type[Any]], V]:
    """`functools.cache` for a function of a class (a command kind, a record type), typed
    so: mypy takes class objects for unhashable (their `__hash__` is read as the
    instances')."""
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


# ---- canonical names ----------------------------------------------------------------------------

Step = tuple[str, str, int, Names | None, type[Any] | None]
"""What `resolve` does with a field: (attribute, key, code, what it names, record type).
The code: 0 a minor, 1 a major, 2 either (checked or made canonical), 3 a unit list
(checked), 4 a tuple of records (resolved one by one). Plain integers: enum lookups cost on
the hot path."""
_CODES = {Names.MINOR: 0, Names.MAJOR: 1, Names.COUNTRY: 2, Names.UNITS: 3}


@per_kind
def _plan(kind: type[Any]) -> tuple[Step, ...]:
    """The steps of `resolve` for each field of a kind that it looks at."""
    hints = typing.get_type_hints(kind)
    named = field_names(kind)
    plan: list[Step] = []
    for a in attrs.fields(kind):
        what = named.get(a.name)
        if what in _CODES:
            assert what is not None
            plan.append((a.name, vocabulary_key(a.name), _CODES[what], what, None))
            continue
        hint = hints[a.name]
        if typing.get_origin(hint) is tuple:
            item = typing.get_args(hint)[0]
            if isinstance(item, type) and attrs.has(item):
                plan.append((a.name, vocabulary_key(a.name), 4, None, item))
    return tuple(plan)


def _name(rs: Ruleset, kind: str, key: str, value: Any, what: Names) -> str:
    if not isinstance(value, str):
        raise CommandError(f"{kind}: {key} must be a name, not {value!r}")
    try:
        canonical = rs.resolve(value)
    except UnknownNameError as exc:
        raise CommandError(f"{kind}: {key} {exc}") from None
    if what is Names.MINOR and canonical not in rs.minors:
        raise CommandError(f"{kind}: {key} {value!r} is not a minor country")
    if what is Names.MAJOR and canonical not in rs.majors:
        raise CommandError(f"{kind}: {key} {value!r} is not a major power")
    return canonical


def _all_text(values: tuple[Any, ...]) -> bool:
    for value in values:
        if not isinstance(value, str):
            return False
    return True


def _resolve_record(rs: Ruleset, kind: str, record: Any) -> Any:
    changes: dict[str, Any] = {}
    for attribute, key, code, what, inner in _plan(type(record)):
        value = getattr(record, attribute)
        if code < 3:
            canonical = isinstance(value, str) and (
                (code != 1 and value in rs.minors) or (code != 0 and value in rs.majors)
            )
            if not canonical:
                assert what is not None
                changes[attribute] = _name(rs, kind, key, value, what)
        elif code == 3:
            if not isinstance(value, tuple) or not _all_text(value):
                raise CommandError(f"{kind}: {key} must list unit ids, not {value!r}")
            if len(value) > 1 and len(set(value)) != len(value):
                raise CommandError(f"{kind}: a unit is listed twice in {list(value)}")
        else:
            assert inner is not None
            if not isinstance(value, tuple) or not all(isinstance(v, inner) for v in value):
                raise CommandError(f"{kind}: {key} must hold {inner.__name__} records")
            records = tuple(_resolve_record(rs, kind, v) for v in value)
            if any(new is not old for new, old in zip(records, value, strict=True)):
                changes[attribute] = records
    return attrs.evolve(record, **changes) if changes else record


def canonical_names(rs: Ruleset, cmd: Any) -> Any:
    """The command with every name in canonical spelling (the command itself when they all
    are: the hot path of engines).

    Raises:
        CommandError: not a command, a name is unknown or of the wrong kind (a minor where a
            major belongs), or a unit is listed twice.
    """
    if isinstance(cmd, Command):
        try:
            return _resolve_record(rs, cmd.name, cmd)
        except attrs.exceptions.NotAnAttrsClassError:
            pass
    raise CommandError(f"not a command: {cmd!r}; build one with minors.command()")


@per_kind
def canonical_test(kind: type[Any]) -> Callable[[Ruleset, Any], bool]:
    """A function telling whether a command of `kind` is already canonical (`resolve` would
    return it as it is): every name a canonical name of the right kind, every unit list a
    tuple of ids listed once. Generated from the kind's fields once; a kind with records in
    a field (`place`) is never found canonical here (`resolve` looks at it whole)."""
    lines = ["def canonical(rs, cmd):", "    minors, majors = rs.minors, rs.majors"]
    for attribute, _, code, _, _ in _plan(kind):
        value = f"cmd.{attribute}"
        if code == 0:
            lines.append(f"    if type({value}) is not str or {value} not in minors:")
        elif code == 1:
            lines.append(f"    if type({value}) is not str or {value} not in majors:")
        elif code == 2:
            lines.append(
                f"    if type({value}) is not str or ({value} not in minors "
                f"and {value} not in majors):"
            )
        elif code == 3:
            lines.append(f"    ids = {value}")
            lines.append(
                "    if type(ids) is not tuple or not _all_text(ids) "
                "or (len(ids) > 1 and len(set(ids)) != len(ids)):"
            )
        else:
            lines.append("    if True:")
        lines.append("        return False")
    lines.append("    return True")
    namespace: dict[str, Any] = {"_all_text": _all_text}
    exec("\n".join(lines) + "\n", namespace)
    found: Callable[[Ruleset, Any], bool] = namespace["canonical"]
    return found
