"""Building commands from fields (`minors.command`, `Game.command`): from any fields a
command or a `CommandError` naming the problem, never another error; what is built writes
back (`fields_of`) the fields that build it again, the sample campaign's commands included."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, ClassVar

import attrs
from attrs import frozen
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import minors
from minors import Command, CommandError, UnitIds, UnitKind
from minors.domain.clock import Moment
from minors.rules82.commands import KINDS, fields_of
from minors.scenario import SAMPLE
from tests.kinds import field_names, vocabulary_key


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
    units = {n for n, what in field_names(cls).items() if what is UnitIds}
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


class _StampRules:
    @staticmethod
    @minors.handles(Stamp)
    def stamp(play: minors.Play, cmd: Stamp) -> None:
        """A house rule's command that changes nothing."""


GAME = minors.Game.new(rulebook=minors.find_rulebook("rule82").extend("stamped", _StampRules))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=vocabulary())
def test_any_fields_build_a_command_or_say_what_is_wrong(
    drawn: tuple[str, dict[str, Any]],
) -> None:
    """For any fields, `Game.command` builds a command or raises a `CommandError` saying
    what is wrong (never another error); a command built writes back fields that build an
    equal command."""
    name, fields = drawn
    outcome = _outcome(lambda: GAME.command(name, **fields))
    event(outcome[0])
    if outcome[0] == "built":
        cmd = GAME.command(name, **fields)
        again = fields_of(cmd)
        assert again.pop("command") == name
        assert GAME.command(name, **again) == cmd


def test_the_sample_campaign_s_commands_build_again_from_their_log() -> None:
    """The commands of the sample campaign, as its log writes them, build commands that
    write the same fields back."""
    game = minors.run_scenario(SAMPLE)
    seen = set()
    for entry in game.log:
        fields = dict(entry.command)
        name = fields.pop("command")
        if name == "advance":
            continue
        assert fields_of(minors.command(name, **fields)) == entry.command
        seen.add(name)
    assert len(seen) > 5, seen


def test_an_unknown_field_of_a_unit_names_the_units_fields() -> None:
    """A field a unit does not have is named with its path and the unit's own fields, not the
    command's (`units`, `in`, `hex`)."""
    unit = {"id": "ger-1", "owner": "Germany", "kind": "infantry", "factors": 3, "colour": "red"}
    try:
        minors.command("place", units=[unit], **{"in": "Germany"})
    except CommandError as exc:
        message = str(exc)
    else:
        raise AssertionError("a unit with an unknown field was accepted")
    assert "'units.0.colour'" in message
    assert "id, owner, kind, factors" in message
    assert "units, in, hex" not in message
