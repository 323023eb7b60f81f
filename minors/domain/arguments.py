"""A public function's arguments, and a public record's fields, checked against their annotations: a
value of the wrong type is the module's own malformed-input error, raised where it enters, never an
`AttributeError` or `TypeError` from deep inside: `checked(ProfileError)` marks a function,
`typed(HumanWaveError)` is a record's attrs `field_transformer`."""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, ParamSpec, TypeVar, Union

import attrs

from ..errors import MinorsError

__all__ = ["checked", "typed"]

P = ParamSpec("P")
R = TypeVar("R")
Error = Callable[[str], MinorsError]
"""The error a mismatch raises: the module's malformed-input error class."""


class _Mismatch(Exception):
    """A value that does not fit its annotation, found `path` deep."""

    def __init__(self, path: str, expected: str, value: Any) -> None:
        super().__init__(path)
        self.path, self.expected, self.value = path, expected, value

    def message(self, where: str) -> str:
        shown = repr(self.value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        kind = type(self.value).__name__
        return f"{where}{self.path} must be {self.expected}, not {shown} ({kind})"


Fit = Callable[[Any, str], Any]
"""Checks a value (at a path) and returns it, an iterator read into a tuple."""


def _anything(value: Any, path: str) -> Any:
    return value


_ITERABLES = {Iterable, Sequence, list, frozenset}


def _describe(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is type(None) or hint is None:
        return "None"
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in args)
    if isinstance(hint, type) and issubclass(hint, Enum):
        members = ", ".join(repr(m.value) for m in hint)
        return f"a {hint.__name__} ({members})"
    if isinstance(hint, type):
        return hint.__name__
    if origin in _ITERABLES:
        name = getattr(origin, "__name__", "iterable").lower()
        return f"a {name} of {_describe(args[0])}" if args else f"a {name}"
    if origin is Mapping:
        return f"a mapping of {_describe(args[0])} to {_describe(args[1])}"
    return str(hint)


def _fit_of(hint: Any) -> Fit:
    """A checker for `hint`."""
    expected = _describe(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)

    def mismatch(value: Any, path: str) -> Any:
        raise _Mismatch(path, expected, value)

    if hint is Any:
        return _anything
    if hint is None or hint is type(None):
        return lambda value, path: value if value is None else mismatch(value, path)
    if origin in (Union, types.UnionType):
        options = [_fit_of(a) for a in args]

        def one_of(value: Any, path: str) -> Any:
            inner: _Mismatch | None = None
            for option in options:
                try:
                    return option(value, path)
                except _Mismatch as miss:
                    if miss.path != path and inner is None:
                        inner = miss  # the right container with a wrong item: say which
            if inner is not None:
                raise inner
            return mismatch(value, path)

        return one_of
    if origin is Mapping:
        keys, values = (_fit_of(a) for a in args)

        def mapping(value: Any, path: str) -> Any:
            if not isinstance(value, Mapping):
                return mismatch(value, path)
            for key, item in value.items():
                keys(key, f"{path} key")
                values(item, f"{path}[{key!r}]")
            return value

        return mapping
    if origin in _ITERABLES:
        each = _fit_of(args[0])

        def items(value: Any, path: str) -> Any:
            if not isinstance(value, origin):
                return mismatch(value, path)
            one_shot = not isinstance(value, Collection)
            seen = tuple(value) if one_shot else value
            for i, item in enumerate(seen):
                each(item, f"{path}[{i}]")
            return seen if one_shot else value

        return items
    if not isinstance(hint, type):
        return _anything  # a kind of annotation the checker does not read
    numbers = (int, float) if hint is float else (hint,)
    no_bool = hint in (int, float)

    def instance(value: Any, path: str) -> Any:
        if isinstance(value, numbers) and not (no_bool and isinstance(value, bool)):
            return value
        return mismatch(value, path)

    return instance


def checked(error: Error) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a public function: an argument not of its annotation raises `error`, naming it."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        names = [
            p.name
            for p in inspect.signature(func).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]

        @functools.cache
        def fits() -> dict[str, Fit]:  # read at the first call: the hints may name later classes
            hints = typing.get_type_hints(func)
            return {n: _fit_of(hints[n]) for n in names if n in hints}

        def fit(name: str, value: Any) -> Any:
            check = fits().get(name)
            if check is None:
                return value
            try:
                return check(value, "")
            except _Mismatch as miss:
                raise error(miss.message(f"{func.__name__}(): {name}")) from None

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            if len(args) > len(names):
                return func(*args, **kwargs)  # Python names the wrong call
            given = [fit(name, value) for name, value in zip(names, args, strict=False)]
            named = {name: fit(name, value) for name, value in kwargs.items()}
            return func(*given, **named)

        return wrapper

    return decorate


def typed(error: Error) -> Callable[[type, list[attrs.Attribute[Any]]], list[attrs.Attribute[Any]]]:
    """An attrs `field_transformer`: each field is checked after its converter, and what
    the converter takes against the converter's own annotation (an enum's: its members)."""

    def transform(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
        @functools.cache
        def fits() -> dict[str, Fit]:
            return {n: _fit_of(h) for n, h in typing.get_type_hints(cls).items()}

        def validator_of(where: str) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
            def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
                try:
                    fits().get(attribute.name, _anything)(value, "")
                except _Mismatch as miss:
                    raise error(miss.message(where)) from None

            return validate

        out = []
        for field in fields:
            where = f"{cls.__name__}: {field.name}"
            validator: Callable[[Any, attrs.Attribute[Any], Any], Any] = validator_of(where)
            if field.validator is not None:
                validator = attrs.validators.and_(validator, field.validator)
            converter = field.converter
            if callable(converter):
                converter = _guarded(converter, where, error)
            out.append(field.evolve(validator=validator, converter=converter))
        return out

    return transform


def _guarded(converter: Callable[[Any], Any], where: str, error: Error) -> Callable[[Any], Any]:
    convert = converter  # unnarrowed by the enum test below
    if isinstance(converter, type) and issubclass(converter, Enum):
        enum: Any = converter

        def member(value: Any) -> Any:
            try:
                return enum(value)
            except ValueError:
                raise error(f"{where} must be {_describe(enum)}, not {value!r}") from None

        return member

    @functools.cache
    def fit() -> Fit:
        first = next(iter(inspect.signature(converter).parameters), "")
        return _fit_of(typing.get_type_hints(converter).get(first, Any))

    def guarded(value: Any) -> Any:
        try:
            fit()(value, "")
        except _Mismatch as miss:
            raise error(miss.message(where)) from None
        return convert(value)

    return guarded
