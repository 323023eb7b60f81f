"""The generated command builders (minors._kernel.convert): from any fields, `build_command`
builds exactly what cattrs builds, or raises exactly the error cattrs's path raises; the
builders take the well-formed fields a log or a scenario holds (so that they are used)."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, ClassVar

import attrs
import pytest
from attrs import frozen
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import minors
from minors import CommandError, UnitKind
from minors._kernel.convert import _builder, _structured, build_command, fields_of
from minors._kernel.kind import Command, Names, field_names, vocabulary_key
from minors.domain.clock import Moment
from minors.rules82.commands import KINDS
from minors.scenario import SAMPLE


@frozen
class Stamp(Command):
    """A command of a house rule with field types rule 82's kinds lack (a moment, a
    boolean, an optional count, a list of counts, a default)."""

    name: ClassVar[str] = "stamp"
    when: Moment
    sealed: bool
    count: int | None = None
    marks: tuple[int, ...] = ()
    kind: UnitKind = UnitKind.INFANTRY


ALL = {**KINDS, "stamp": Stamp}

JUNK = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, width=16)
    | st.sampled_from(["", " ", "Germany", "u1", "infantry", "1939-fall/axis/movement", "x"])
    | st.just([])
    | st.just({})
    | st.just(["u1", 5])
)
"""Values of any JSON type, and a few texts that are valid somewhere."""


def _value(hint: Any, units: bool) -> st.SearchStrategy[Any]:
    """Values for a field of type `hint`: mostly of that type (as the scenario vocabulary
    writes it, or already typed), one in eight junk."""
    typed = _typed(hint, units)
    return st.integers(0, 7).flatmap(lambda i: JUNK if i == 0 else typed)


def _typed(hint: Any, units: bool) -> st.SearchStrategy[Any]:
    args = typing.get_args(hint)
    if type(None) in args:
        (hint,) = (a for a in args if a is not type(None))
        return st.none() | _value(hint, units)
    if typing.get_origin(hint) is tuple:
        item = _value(args[0], False)
        many = st.lists(item, max_size=3)
        out = many | many.map(tuple)
        return (out | st.sampled_from(["u1", "", " "])) if units else out
    if attrs.has(hint):
        hints = typing.get_type_hints(hint)
        fields = {a.name: _value(hints[a.name], False) for a in attrs.fields(hint)}
        whole = st.fixed_dictionaries(fields)
        record = whole | whole | st.fixed_dictionaries({}, optional=fields)
        return record | record.map(lambda d: {**d, "extra": 1})
    if hint is UnitKind:
        kinds = st.sampled_from([k.value for k in UnitKind]) | st.sampled_from(list(UnitKind))
        return kinds | st.just("Infantry")
    if hint is Moment:
        moments = st.sampled_from(["1939-fall/axis/movement", "1940-spring", "1939-nope"])
        return moments | st.just(Moment.parse("1939-fall"))
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-2, 12)
    if hint is str:
        return st.sampled_from(["Germany", "Sweden", "u1", "u2", "A1", "", "  "])
    raise AssertionError(f"teach _value the type {hint!r}")


@st.composite
def vocabulary(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A kind and fields for it in the scenario vocabulary: any field left out, any value
    of its type or junk, at times a key that is no field."""
    name = draw(st.sampled_from(sorted(ALL)))
    cls = ALL[name]
    hints = typing.get_type_hints(cls)
    units = {n for n, what in field_names(cls).items() if what is Names.UNITS}
    fields = {}
    for a in attrs.fields(cls):
        if draw(st.integers(0, 19)) == 0:
            continue
        fields[vocabulary_key(a.name)] = draw(_value(hints[a.name], a.name in units))
    if draw(st.integers(0, 19)) == 0:
        fields[draw(st.sampled_from(["junk", "command", "in_"]))] = 1
    return name, fields


def _outcome(build: Callable[[], Any]) -> tuple[str, str]:
    """What building gives: its repr (which tells 1 from True, a list from a tuple, a
    member from its value), or the error's type and text."""
    try:
        return "built", repr(build())
    except CommandError as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=vocabulary())
def test_a_builder_builds_what_cattrs_builds_or_leaves_it_to_cattrs(
    drawn: tuple[str, dict[str, Any]],
) -> None:
    """For any fields, a kind's builder returns exactly what cattrs builds, or None where
    cattrs refuses them; `build_command` gives the same command or the same error."""
    name, fields = drawn
    cls = ALL[name]
    expected = _outcome(lambda: _structured(ALL, cls, name, fields))
    builder = _builder(cls, True)
    assert builder is not None
    fast = builder(fields)
    event("fast" if fast is not None else "cattrs")
    if fast is not None:
        assert ("built", repr(fast)) == expected
    else:
        assert expected[0] != "built" or _needs_cattrs(fields), (expected, fields)
    assert _outcome(lambda: build_command(ALL, name, fields)) == expected


def _needs_cattrs(fields: dict[str, Any]) -> bool:
    """Whether well-formed fields hold what only cattrs reads: a value already typed (a
    tuple, a member, a moment) or a float."""
    stack: list[Any] = [fields]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, tuple | UnitKind | Moment | float):
            return True
    return False


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_of_rule_82_has_a_builder(name: str) -> None:
    """Each command kind of rule 82 gets a generated builder (none falls back for good)."""
    assert _builder(KINDS[name], True) is not None


def test_the_builders_take_every_command_of_the_sample_campaign() -> None:
    """The commands of the sample campaign, as its log writes them, are built by the
    generated builders, each equal to what cattrs builds."""
    game = minors.run_scenario(SAMPLE)
    seen = set()
    for entry in game.log:
        fields = dict(entry.command)
        name = fields.pop("command")
        if name == "advance":
            continue
        built = _builder(KINDS[name], True)(fields)  # type: ignore[misc]
        assert built is not None, fields
        assert repr(built) == repr(_structured(KINDS, KINDS[name], name, fields))
        assert fields_of(built) == entry.command
        seen.add(name)
    assert len(seen) >= 5
