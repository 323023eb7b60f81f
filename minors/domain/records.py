"""The records of rule 82's state: frozen, slotted values no later change touches (the
kernel's board keeps a minor's as a row it changes in place, and gives these back)."""

from __future__ import annotations

from attrs import frozen

from . import DiplomaticLevel, LedgerKind, Side, Status
from .clock import Moment

__all__ = ["Deadline", "Deployment", "Holding", "LedgerEntry", "MinorState", "Pending"]


@frozen
class Holding:
    """The diplomatic result standing for a minor, the major holding it, and since when
    (82.31: control dates from the start of the player turn of the result)."""

    major: str
    side: Side
    level: DiplomaticLevel
    result: int
    since: Moment


@frozen
class Pending:
    """An association or alliance that takes effect later (82.81, 82.82, 82.12, 82.91D)."""

    partner: str
    level: DiplomaticLevel
    rule: str
    due: Moment | None = None
    """When it takes effect; None while it waits for a condition (82.81B, 82.81C)."""
    by: str | None = None
    """The attacker whose attack scheduled it (82.81B looks at that attacker's wars)."""


@frozen
class Deadline:
    """82.33: after a reversal, `side`'s units in the minor are eliminated when `at` ends."""

    side: Side
    at: Moment
    rule: str


@frozen
class Deployment:
    """82.5: an attacked minor's forces, set up by `by` when the declarations phase `due`
    ends (82.53); `placements` is the set-up a `deploy` command chose, if any."""

    by: str
    due: Moment
    rule: str
    placements: tuple[tuple[str, str, int, str], ...] | None = None
    """(id, kind, factors, hex) of each unit, as the deploying power chose them."""
    redeploy: bool = False
    """Finland or Rumania after a border war: units already on the map are set up again."""


@frozen
class MinorState:
    """One minor country's status and what goes with it; its garrison is derived from units."""

    name: str
    status: Status
    major: str | None = None
    at_war_with: tuple[str, ...] = ()
    """Every major power at war with it: its own wars and, when tied, its major's (sorted)."""
    direct_wars: tuple[str, ...] = ()
    """The majors at war with the minor itself (attackers, and those it attacked)."""
    attacked_by: str | None = None
    attacked_at: Moment | None = None
    standing: Holding | None = None
    pending: Pending | None = None
    refused_by: tuple[str, ...] = ()
    barred: tuple[str, ...] = ()
    deadlines: tuple[Deadline, ...] = ()
    """82.33: every eviction deadline running, one per reversal (each side's own)."""
    deployment: Deployment | None = None
    invaded: tuple[str, ...] = ()
    """82.56: the major powers' units in the minor when war was declared on it by a power
    with units there; in automatic partial supply for the turn of the invasion."""
    invaded_at: Moment | None = None
    active: bool = True
    deployed: bool = False
    """82.51: its forces have been set up once; an attacked minor does not deploy again."""


@frozen
class LedgerEntry:
    """One BRP change: a grant (82.21, 82.22), a deduction naming the grant it undoes, or a
    cost. Amounts are whole BRPs, signed."""

    seq: int
    major: str
    amount: int
    kind: LedgerKind
    rule: str
    moment: Moment
    minor: str | None = None
    level: DiplomaticLevel | None = None
    base: int = 0
    """For a grant, the unprorated BRPs it stands for; a deduction prorates it again."""
    undoes: int | None = None
