"""What the rules did: effect records, frozen and free of runtime validators (mypy checks
them). Each names the clause (or kernel rule id) that produced it."""

from __future__ import annotations

from attrs import frozen

from ..domain import Status
from .state import LedgerEntry

__all__ = [
    "BrpChange",
    "DeadlineSet",
    "Effect",
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
    """The clock left a phase: the rules that run at phase ends and starts ran (effects that
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


Effect = (
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
