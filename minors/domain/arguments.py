"""A public function's arguments, and a public record's fields, checked against their
annotations: a value of the wrong type is the module's own malformed-input error, raised
where it enters, never an `AttributeError` or `TypeError` from deep inside.

`checked(ProfileError)` marks a function; `typed(HumanWaveError)` is an attrs
`field_transformer` for a record (it checks each field after its converter, and what the
converter takes before it). The annotations are read once, at the first call. They may
use classes, `None`, unions, `Literal`, `Any`, `type[X]`, `Callable`, `tuple`, `list`,
`set`, `frozenset`, `dict` and the `collections.abc` `Iterable`, `Collection`,
`Sequence`, `Set` and `Mapping`. An iterator given for an `Iterable` is read once and
passed on as a tuple. `int` and `float` do not take `True` or `False`; `float` takes an
`int`.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from enum import Enum
from typing import Any, Literal, ParamSpec, TypeVar, Union

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


_ANYTHING: Fit = _anything
_ITERABLES = {Iterable, Collection, Sequence, AbstractSet, list, set, frozenset}


def _describe(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is type(None) or hint is None:
        return "None"
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in args)
    if origin is Literal:
        return " or ".join(repr(a) for a in args)
    if isinstance(hint, type) and issubclass(hint, Enum):
        members = ", ".join(repr(m.value) for m in hint)
        return f"a {hint.__name__} ({members})"
    if isinstance(hint, type):
        return hint.__name__
    if origin is tuple:
        return f"a tuple of {_describe(args[0])}" if args else "a tuple"
    if origin in _ITERABLES:
        name = getattr(origin, "__name__", "iterable").lower()
        return f"a {name} of {_describe(args[0])}" if args else f"a {name}"
    if origin in (dict, Mapping):
        return f"a mapping of {_describe(args[0])} to {_describe(args[1])}"
    return str(hint)


def _compile(hint: Any) -> Fit:
    """A checker for `hint`."""
    expected = _describe(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)

    def mismatch(value: Any, path: str) -> Any:
        raise _Mismatch(path, expected, value)

    if hint is Any or hint is object:
        return lambda value, path: value
    if hint is None or hint is type(None):
        return lambda value, path: value if value is None else mismatch(value, path)
    if origin in (Union, types.UnionType):
        options = [_compile(a) for a in args]

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
    if origin is Literal:
        return lambda value, path: value if value in args else mismatch(value, path)
    if origin is type:
        wanted = args[0] if args and isinstance(args[0], type) else object

        def subclass(value: Any, path: str) -> Any:
            if isinstance(value, type) and issubclass(value, wanted):
                return value
            return mismatch(value, path)

        return subclass
    if origin is Callable:
        return lambda value, path: value if callable(value) else mismatch(value, path)
    if origin is tuple:
        return _tuple(args, mismatch)
    if origin in (dict, Mapping):
        keys, values = (_compile(a) for a in args) if args else (_compile(Any),) * 2
        kind = dict if origin is dict else Mapping

        def mapping(value: Any, path: str) -> Any:
            if not isinstance(value, kind):
                return mismatch(value, path)
            for key, item in value.items():
                keys(key, f"{path} key")
                values(item, f"{path}[{key!r}]")
            return value

        return mapping
    if origin in _ITERABLES:
        return _items(origin, _compile(args[0]) if args else _compile(Any), mismatch)
    if isinstance(hint, type):
        return _instance(hint, mismatch)
    return lambda value, path: value  # a kind of annotation the checker does not read


def _instance(hint: type, mismatch: Fit) -> Fit:
    numbers = (int, float) if hint is float else (hint,)
    no_bool = hint in (int, float)

    def instance(value: Any, path: str) -> Any:
        if isinstance(value, numbers) and not (no_bool and isinstance(value, bool)):
            return value
        return mismatch(value, path)

    return instance


def _tuple(args: tuple[Any, ...], mismatch: Fit) -> Fit:
    if len(args) == 2 and args[1] is Ellipsis:
        each = _compile(args[0])

        def repeated(value: Any, path: str) -> Any:
            if not isinstance(value, tuple):
                return mismatch(value, path)
            for i, item in enumerate(value):
                each(item, f"{path}[{i}]")
            return value

        return repeated
    fixed = [_compile(a) for a in args]

    def positional(value: Any, path: str) -> Any:
        if not isinstance(value, tuple) or (args and len(value) != len(fixed)):
            return mismatch(value, path)
        for i, (fit, item) in enumerate(zip(fixed, value, strict=False)):
            fit(item, f"{path}[{i}]")
        return value

    return positional


def _items(origin: Any, each: Fit, mismatch: Fit) -> Fit:
    def items(value: Any, path: str) -> Any:
        if not isinstance(value, origin):
            return mismatch(value, path)
        one_shot = not isinstance(value, Collection)
        seen = tuple(value) if one_shot else value
        for i, item in enumerate(seen):
            each(item, f"{path}[{i}]")
        return seen if one_shot else value

    return items


def checked(error: Error) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a public function: each argument is checked against its annotation, and a
    mismatch raises `error` naming the function, the argument and what it must be."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        names = [
            p.name
            for p in inspect.signature(func).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
        fits: dict[str, Fit] = {}
        read: list[bool] = []

        def fit(name: str, value: Any) -> Any:
            check = fits.get(name)
            if check is None:
                return value
            try:
                return check(value, "")
            except _Mismatch as miss:
                raise error(miss.message(f"{func.__name__}(): {name}")) from None

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            if not read:
                hints = typing.get_type_hints(func)
                fits.update({n: _compile(hints[n]) for n in names if n in hints})
                read.append(True)
            if len(args) > len(names):
                return func(*args, **kwargs)  # Python names the wrong call
            given = [fit(name, value) for name, value in zip(names, args, strict=False)]
            named = {name: fit(name, value) for name, value in kwargs.items()}
            return func(*given, **named)

        return wrapper

    return decorate


def typed(error: Error) -> Callable[[type, list[attrs.Attribute[Any]]], list[attrs.Attribute[Any]]]:
    """An attrs `field_transformer`: each field is checked against its annotation after
    its converter, and a converter's input against the converter's own annotation (an
    enum converter against its members); a mismatch raises `error` naming the record, the
    field and what it must be."""

    def transform(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
        fits: dict[str, Fit] = {}

        read: list[bool] = []

        def fit_of(name: str) -> Fit:
            if not read:
                hints = typing.get_type_hints(cls)
                fits.update({n: _compile(h) for n, h in hints.items()})
                read.append(True)
            return fits.get(name, _ANYTHING)

        def validator_of(where: str) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
            def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
                try:
                    fit_of(attribute.name)(value, "")
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
    convert = converter
    if isinstance(converter, type) and issubclass(converter, Enum):
        enum: Any = converter

        def member(value: Any) -> Any:
            try:
                return enum(value)
            except ValueError:
                raise error(f"{where} must be {_describe(enum)}, not {value!r}") from None

        return member
    fit: list[Fit] = []

    def guarded(value: Any) -> Any:
        if not fit:
            hints = typing.get_type_hints(converter)
            first = next(iter(inspect.signature(converter).parameters), "")
            fit.append(_compile(hints.get(first, Any)))
        try:
            fit[0](value, "")
        except _Mismatch as miss:
            raise error(miss.message(where)) from None
        return convert(value)

    return guarded
