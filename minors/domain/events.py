"""What the rules did: events, frozen records free of runtime validators (mypy checks them).
Each names the clause (or kernel rule id) that produced it. The JSON of a scenario run and
the audit log write them under `effects` (those formats are contracts)."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from . import Status
from .records import LedgerEntry

__all__ = [
    "BrpChange",
    "DeadlineSet",
    "Event",
    "Note",
    "PhaseEnded",
    "StatusChanged",
    "UnitEliminated",
    "UnitMoved",
    "UnitPlaced",
    "UnitRemoved",
    "WarBegan",
    "WarEnded",
    "note",
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
