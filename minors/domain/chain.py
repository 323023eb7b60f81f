"""A persistent append-only sequence, shared by the states and logs that grow from it.

`append` makes a new head that points at the old one, so every earlier version stays as it
was and nothing is copied: appending costs the same however long the sequence is. Reading
it whole walks the links once per version and keeps the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Generic, Self, TypeVar, overload

__all__ = ["Chain"]

T = TypeVar("T")

_Link = tuple[Any, "_Link | None"]


class Chain(Generic[T]):
    """An immutable sequence of `T` whose `append` and `extend` return a new one sharing it."""

    __slots__ = ("_cache", "_head", "_length")

    def __init__(self, items: Iterable[T] = ()) -> None:
        head: _Link | None = None
        length = 0
        for item in items:
            head, length = (item, head), length + 1
        self._head, self._length = head, length
        self._cache: tuple[T, ...] | None = None

    @classmethod
    def _of(cls, head: _Link | None, length: int) -> Self:
        chain = cls.__new__(cls)
        chain._head, chain._length, chain._cache = head, length, None
        return chain

    def append(self, item: T) -> Self:
        """A chain of these items and `item` after them."""
        return self._of((item, self._head), self._length + 1)

    def extend(self, items: Iterable[T]) -> Self:
        """A chain of these items and `items` after them (this one when `items` is empty)."""
        head, length = self._head, self._length
        for item in items:
            head, length = (item, head), length + 1
        return self if length == self._length else self._of(head, length)

    def since(self, older: Chain[T]) -> tuple[T, ...] | None:
        """The items appended after `older` if this chain grew from it (every version
        between them made by `append` or `extend`), else None; walks only the new links."""
        extra = self._length - older._length
        if extra < 0:
            return None
        out: list[T] = []
        link = self._head
        for _ in range(extra):
            assert link is not None
            out.append(link[0])
            link = link[1]
        if link is not older._head:
            return None
        out.reverse()
        return tuple(out)

    @property
    def last(self) -> T:
        """The newest item, without reading the chain whole (IndexError when empty)."""
        if self._head is None:
            raise IndexError("the chain is empty")
        item: T = self._head[0]
        return item

    def entries(self) -> tuple[T, ...]:
        """The items, oldest first."""
        if self._cache is None:
            out: list[T] = []
            link = self._head
            while link is not None:
                out.append(link[0])
                link = link[1]
            out.reverse()
            self._cache = tuple(out)
        return self._cache

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[T]:
        return iter(self.entries())

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self.entries()[index]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Chain) and self.entries() == other.entries()

    def __hash__(self) -> int:
        return hash(self.entries())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.entries())!r})"
