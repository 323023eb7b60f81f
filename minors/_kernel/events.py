"""What the rules did: events, frozen records free of runtime validators (mypy checks them).
Each names the clause (or kernel rule id) that produced it. The JSON of a scenario run and
the audit log write them under `effects` (those formats are contracts)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

from attrs import frozen

from ..domain import Status
from .state import LedgerEntry

__all__ = [
    "BrpChange",
    "DeadlineSet",
    "Event",
    "Events",
    "Note",
    "PhaseEnded",
    "StatusChanged",
    "UnitEliminated",
    "UnitMoved",
    "UnitPlaced",
    "UnitRemoved",
    "WarBegan",
    "WarEnded",
]


@frozen
class StatusChanged:
    """A minor's 82.11 status or its major changed."""

    minor: str
    old: Status
    new: Status
    major: str | None
    rule: str
    cause: str


@frozen
class WarBegan:
    """`a` is now at war with `b` (majors, or a major and a minor)."""

    a: str
    b: str
    rule: str
    cause: str = ""


@frozen
class WarEnded:
    """`a` is no longer at war with `b` (conquest, surrender)."""

    a: str
    b: str
    rule: str
    cause: str = ""


@frozen
class BrpChange:
    """A ledger entry was written (a grant, a deduction or a cost)."""

    entry: LedgerEntry
    rule: str


@frozen
class UnitPlaced:
    unit: str
    country: str
    rule: str


@frozen
class UnitMoved:
    unit: str
    country: str
    rule: str


@frozen
class UnitRemoved:
    unit: str
    rule: str


@frozen
class UnitEliminated:
    """The rules removed a unit (conquest, a reversal's deadline, limits, stacking)."""

    unit: str
    rule: str
    cause: str


@frozen
class DeadlineSet:
    """82.33: a reversal set the moment by which `side`'s units must leave."""

    minor: str
    side: str
    at: str
    rule: str


@frozen
class PhaseEnded:
    """The clock left a phase: the rules that run at phase ends and starts ran (events that
    follow, up to the next marker, happened there)."""

    ended: str
    started: str
    rule: str
    """The clause of the sequence of play in the game's rulebook (rule 82: K1)."""


@frozen
class Note:
    """Something worth a line in the report that changes no state (a clamped result)."""

    text: str
    rule: str


Event = (
    StatusChanged
    | WarBegan
    | WarEnded
    | BrpChange
    | UnitPlaced
    | UnitMoved
    | UnitRemoved
    | UnitEliminated
    | DeadlineSet
    | PhaseEnded
    | Note
)


def note(rule: str, template: str, *args: Any) -> Note:
    """A `Note` whose text is `template` formatted with `args` (`str.format`): what a rule
    gives `Play.note`, so that the text is made only when the events are read."""
    return Note(template.format(*args), rule)


def built(item: Any) -> Event:
    """An event as the rules recorded it: the record itself, or `(factory, *args)` to make
    it when it is read (`Play.emit`)."""
    if type(item) is tuple:
        made: Event = item[0](*item[1:])
        return made
    return item  # type: ignore[no-any-return]


class Events(Sequence[Event]):
    """The events of one step (`apply`, `push`, `advance_to`), in order: an immutable
    sequence whose records are made when it is first read, so that a search that never
    reads them does not pay for them. It holds its own items, never the game's."""

    __slots__ = ("_items", "_made")

    def __init__(self, items: Sequence[Any] = ()) -> None:
        self._items: Sequence[Any] = tuple(items)
        self._made: tuple[Event, ...] | None = None

    @classmethod
    def of(cls, items: list[Any]) -> Events:
        """The events of a step, taking over `items` (a list no one writes to again)."""
        events = object.__new__(cls)
        events._items, events._made = items, None
        return events

    def records(self) -> tuple[Event, ...]:
        """The event records (made on the first call)."""
        made = self._made
        if made is None:
            made = self._made = tuple([built(item) for item in self._items])
            self._items = made
        return made

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        return self.records()[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.records())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Events):
            return self.records() == other.records()
        if isinstance(other, (list, tuple)):
            return list(self.records()) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.records())

    def __add__(self, other: Sequence[Event]) -> list[Event]:
        return [*self.records(), *other]

    def __repr__(self) -> str:
        return f"Events({list(self.records())!r})"
