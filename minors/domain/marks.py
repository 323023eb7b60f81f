"""Marks of the code that carries a clause where no rulebook collects it (the A25 checks
and queries, rule 82's queries), for `minors rules coverage` and the disabled-clause run
(docs/testing.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, TypeVar

__all__ = ["MARK", "clause", "marked"]

F = TypeVar("F", bound=Callable[..., Any])
MARK = "__minors_clauses__"


def clause(*ids: str, otherwise: object = None) -> Callable[[F], F]:
    """Mark a function as carrying the clauses `ids`; while one of them is switched off it
    gives `otherwise` (a literal: None, a bool, a number, an empty tuple)."""

    def mark(fn: F) -> F:
        setattr(fn, MARK, (*getattr(fn, MARK, ()), *((i, otherwise) for i in ids)))
        return fn

    return mark


def marked(modules: Iterable[ModuleType]) -> dict[str, list[tuple[str, Callable[..., Any]]]]:
    """Clause id -> (qualified name, function) of each marked function of `modules`."""
    out: dict[str, list[tuple[str, Callable[..., Any]]]] = {}
    for module in modules:
        for member in list(vars(module).values()):
            if getattr(member, "__module__", None) != module.__name__:
                continue
            for cid, _ in getattr(member, MARK, ()):
                name = f"{module.__name__}.{member.__qualname__}"
                entries = out.setdefault(cid, [])
                if name not in [n for n, _ in entries]:
                    entries.append((name, member))
    return out
