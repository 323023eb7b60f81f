"""The clauses that data carries rather than code: which table rows carry each, and the
tables with a clause switched off (the disabled-clause run, tests/mutation/run_disabled.py).

Rule 82's data-only clauses are listed in `DATA`, each with the rows that carry it: rows of
a table of the rules (`Ruleset`: `minors`, `alignments` ...) that match some fields, or the
status transitions of `machine.TRANSITIONS` that lead to a status. A25's are found in its
tables themselves: the trait rows, counters, class lists and Replacement charts that cite
the clause. Switched off, the rows are removed, or given the values `set` names.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs
from attrs import frozen

from ..domain import Status, Theater
from ..ruleset.tables import Ruleset
from . import machine

__all__ = ["DATA", "Rows", "rows_digest", "rows_of", "switch_off", "transitions_without"]


@frozen
class Rows:
    """The rows of `table` whose fields match `where` (all of them when empty); switched
    off, they are removed, or (`set`) given those values."""

    table: str
    where: tuple[tuple[str, Any], ...] = ()
    set: tuple[tuple[str, Any], ...] = ()

    def matches(self, row: Any) -> bool:
        return all(getattr(row, name) == value for name, value in self.where)


def _to(status: Status) -> Rows:
    return Rows("transitions", (("dest", status),))


def _start(*where: tuple[str, Any]) -> Rows:
    return Rows("minors", where, (("start_status", Status.NEUTRAL), ("start_major", "")))


DATA: Mapping[str, tuple[Rows, ...]] = MappingProxyType(
    {
        "82.11": (Rows("transitions"),),
        "82.11A": (_to(Status.NEUTRAL),),
        "82.11B": (_to(Status.INDEPENDENT),),
        "82.11C": (_to(Status.BRPS_ATTRIBUTED),),
        "82.11D": (_to(Status.HEXES_CONTROLLED),),
        "82.11E": (_to(Status.ASSOCIATED),),
        "82.11F": (_to(Status.ALLIED),),
        "82.11G": (_to(Status.CONQUERED),),
        "82.11H": (_start(("start_status", Status.COLONY)),),
        "82.11I": (_start(("start_status", Status.COMMONWEALTH)),),
        "82.62": (Rows("minors", (("armed_forces", False),), (("armed_forces", True),)),),
        "82.91A": (_start(("start_status", Status.COMMONWEALTH), ("theater", Theater.PACIFIC)),),
        "82.91B": (Rows("alignments"),),
        "82.91E": (_start(("start_status", Status.COLONY), ("theater", Theater.PACIFIC)),),
        "82.93": (
            _start(("start_status", Status.COLONY), ("theater", Theater.PACIFIC)),
            _start(("start_status", Status.ASSOCIATED), ("theater", Theater.PACIFIC)),
        ),
    }
)
"""Rule 82's clauses that data carries, with the rows that carry each."""


def _a25(rs: Ruleset, clause: str) -> list[str]:
    """The A25 rows that cite `clause`: trait rows, counters, class lists, charts."""
    found = [
        f"nationality_traits.{k}" for k, r in rs.nationality_traits.items() if r.clause == clause
    ]
    for name, n in rs.nationalities.items():
        found += [f"nationalities.{name}.units.{u.rating}" for u in n.units if u.clause == clause]
        if n.classes_clause == clause:
            found.append(f"nationalities.{name}.classes")
        if n.classes_only_in_clause == clause:
            found.append(f"nationalities.{name}.classes_only_in")
        if n.clause == clause and n.until is not None and n.successors:
            found.append(f"nationalities.{name}.until")
    found += [
        f"replacement_charts.{k}"
        for k, c in rs.replacement_charts.items()
        if getattr(c, "clause", "") == clause
    ]
    return found


def rows_of(rs: Ruleset, clause: str) -> list[str]:
    """The rows that carry `clause` (empty for a clause that code carries)."""
    if clause.startswith("A25"):
        return _a25(rs, clause)
    found: list[str] = []
    for rows in DATA.get(clause, ()):
        if rows.table == "transitions":
            found += [
                f"transitions.{t.trigger.value}->{t.dest.value}"
                for t in machine.TRANSITIONS
                if rows.matches(t)
            ]
        else:
            table: Mapping[Any, Any] = getattr(rs, rows.table)
            found += [f"{rows.table}.{k}" for k, r in table.items() if rows.matches(r)]
    return found


def rows_digest(rs: Ruleset, clause: str) -> str:
    """SHA-256 of the rows that carry `clause`, as the tables hold them now."""
    parts: list[str] = []
    for ref in rows_of(rs, clause):
        head, _, rest = ref.partition(".")
        if head == "transitions":
            parts.append(ref)
            continue
        key = rest.split(".")[0]
        table = getattr(rs, head)
        record = table.get(key, table.get(rest))
        parts.append(f"{ref}={record!r}")
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def transitions_without(clause: str) -> tuple[machine.Transition, ...]:
    """`machine.TRANSITIONS` less those that carry `clause`."""
    drop = [r for r in DATA.get(clause, ()) if r.table == "transitions"]
    return tuple(t for t in machine.TRANSITIONS if not any(r.matches(t) for r in drop))


def switch_off(rs: Ruleset, clause: str) -> Ruleset:
    """The tables with the rows that carry `clause` removed or changed (the transitions are
    `transitions_without`'s). The result is built with `attrs.evolve`, never written."""
    changes: dict[str, Any] = {}
    if clause.startswith("A25"):
        changes["nationality_traits"] = MappingProxyType(
            {k: r for k, r in rs.nationality_traits.items() if r.clause != clause}
        )
        nations = {}
        for name, n in rs.nationalities.items():
            fields: dict[str, Any] = {}
            if any(u.clause == clause for u in n.units):
                fields["units"] = tuple(u for u in n.units if u.clause != clause)
            if n.classes_clause == clause:
                fields["classes"], fields["classes_clause"] = None, ""
            if n.classes_only_in_clause == clause:
                fields["classes_only_in"], fields["classes_only_in_clause"] = {}, ""
            if n.clause == clause and n.until is not None and n.successors:
                fields["until"], fields["successors"] = None, ()  # the span A25 ends
            nations[name] = attrs.evolve(n, **fields) if fields else n
        changes["nationalities"] = MappingProxyType(nations)
        changes["replacement_charts"] = MappingProxyType(
            {k: c for k, c in rs.replacement_charts.items() if getattr(c, "clause", "") != clause}
        )
    for rows in DATA.get(clause, ()):
        if rows.table == "transitions":
            continue
        table = dict(changes.get(rows.table, getattr(rs, rows.table)))
        for key, record in list(table.items()):
            if rows.matches(record):
                if rows.set:
                    table[key] = attrs.evolve(record, **dict(rows.set))
                else:
                    del table[key]
        changes[rows.table] = MappingProxyType(table)
    return attrs.evolve(rs, **changes) if changes else rs
