"""A game's state as frozen data (`GameState`), and states and events to plain data and back
(the domain's converter, with the ledger, the wars and the events keyed by `effect`)."""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs
from attrs import frozen
from cattrs.strategies import configure_tagged_union

from . import convert
from .chain import Chain
from .clock import Moment
from .events import Event
from .records import LedgerEntry, MinorState
from .units import Unit

__all__ = [
    "CONVERTER",
    "GameState",
    "event_data",
    "event_from_data",
    "records_converter",
    "state_dict",
    "structure_state",
]


@frozen
class GameState:
    """Everything the rules know at one moment, as frozen data: what `raw_state` gives and
    `state()` serializes whole. The live game keeps the same fields on its board; a
    `GameState` is a snapshot of it that no later change touches."""

    clock: Moment
    minors: dict[str, MinorState]
    units: dict[str, Unit]
    wars: dict[tuple[str, str], Moment]
    """Wars between major powers, keyed by the sorted pair of names."""
    ledger: Chain[LedgerEntry] = attrs.field(factory=Chain)
    """Every BRP change in order (a persistent chain: appending copies nothing)."""
    surrendered: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    """Majors out of the war, with the enemies they had when they surrendered."""
    fallen: dict[str, Moment] = attrs.field(factory=dict)
    """When each major power surrendered first (France's fall, 82.91F)."""
    eliminated: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    """Units taken off the map by a `remove` (K3): their ids are never given again."""
    traces: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    """82.32B: units declared this phase as tracing supply through a minor (minor -> ids)."""
    losses: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    """82.321B: the owner's choice of which excess units go first (minor -> ids)."""


def records_converter() -> cattrs.Converter:
    """A converter for states and events (the kernel adds the command kinds to its own)."""
    conv = convert.converter()

    def wars_out(wars: dict[tuple[str, str], Moment]) -> list[list[str]]:
        return [[a, b, str(m)] for (a, b), m in sorted(wars.items())]

    def wars_in(value: Any, _: Any) -> dict[tuple[str, str], Moment]:
        return {(a, b): Moment.parse(m) for a, b, m in value}

    def chain_out(chain: Chain[LedgerEntry]) -> list[Any]:
        return [conv.unstructure(entry) for entry in chain]

    def chain_in(value: Any, _: Any) -> Chain[LedgerEntry]:
        if not isinstance(value, list):
            raise TypeError(f"the ledger is a list of entries, not {type(value).__name__}")
        return Chain(conv.structure(entry, LedgerEntry) for entry in value)

    conv.register_unstructure_hook_func(lambda t: t == Chain[LedgerEntry], chain_out)
    conv.register_structure_hook_func(lambda t: t == Chain[LedgerEntry], chain_in)
    wars_type = dict[tuple[str, str], Moment]
    conv.register_unstructure_hook_func(lambda t: t == wars_type, wars_out)
    conv.register_structure_hook_func(lambda t: t == wars_type, wars_in)
    configure_tagged_union(Event, conv, tag_generator=lambda cls: cls.__name__, tag_name="effect")
    return conv


CONVERTER = records_converter()
"""States and events to plain data and back."""


def state_dict(state: GameState) -> dict[str, Any]:
    """The complete canonical state as plain data."""
    return typing.cast(dict[str, Any], CONVERTER.unstructure(state))


def structure_state(data: Mapping[str, Any]) -> GameState:
    """The state `state_dict` wrote (cattrs errors propagate: the caller says where)."""
    return CONVERTER.structure(data, GameState)


_EVENT_DATA: Callable[[Event], dict[str, Any]] = CONVERTER.get_unstructure_hook(Event)
"""The tagged union's hook, what `CONVERTER.unstructure(event, Event)` calls."""
_EVENT_KINDS = frozenset(typing.get_args(Event))
_EVENT_WRITERS: dict[type[Any], tuple[Callable[[Any], dict[str, Any]], str]] = {}


def event_data(event: Event) -> dict[str, Any]:
    """An event as plain data, its class name as `effect` (what the tagged union's hook writes,
    through the record's own hook, found once per class: a log writes one per event)."""
    kind = type(event)
    found = _EVENT_WRITERS.get(kind)
    if found is None:
        if kind not in _EVENT_KINDS:
            return _EVENT_DATA(event)  # not a member of the union: cattrs says why
        found = _EVENT_WRITERS[kind] = (CONVERTER.get_unstructure_hook(kind), kind.__name__)
    data = found[0](event)
    data["effect"] = found[1]
    return data


def event_from_data(data: Mapping[str, Any]) -> Event:
    """The event `event_data` wrote (for reading a log file)."""
    return typing.cast(Event, CONVERTER.structure(data, typing.cast(Any, Event)))
