"""The events of one step, as the rules recorded them: made into records when first read."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

from ..domain.events import Event

__all__ = ["Events"]


def built(item: Any) -> Event:
    """An event as the rules recorded it: the record itself, or `(factory, *args)` to make
    it when it is read (`Play.emit`)."""
    if type(item) is tuple:
        made: Event = item[0](*item[1:])
        return made
    return item  # type: ignore[no-any-return]


class Events(Sequence[Event]):
    """The events of one step, in order: an immutable sequence whose records are made when
    it is first read (a search that never reads them does not pay for them)."""

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
