"""The game state: frozen records held in plain dicts, replaced copy-on-write, never mutated.

A `GameState` is immutable by discipline: every container in it is built fresh for a new
state and never changed afterwards, so clones share it safely.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Hashable, Iterable
from typing import Any, TypeVar

import attrs
from attrs import frozen

from ..domain import DiplomaticLevel, LedgerKind, Side, Status
from ..domain.clock import Moment
from ..domain.units import Unit
from .chain import Chain
from .kind import per_kind

T = TypeVar("T")

__all__ = [
    "Deadline",
    "Deployment",
    "GameState",
    "Holding",
    "LedgerEntry",
    "MinorState",
    "Pending",
]


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


@frozen
class GameState:
    """Everything the rules know at one moment; `state()` serializes it whole."""

    clock: Moment
    minors: dict[str, MinorState]
    units: dict[str, Unit]
    wars: dict[tuple[str, str], Moment]
    """Wars between major powers, keyed by the sorted pair of names."""
    ledger: Chain[LedgerEntry] = attrs.field(factory=Chain)
    """Every BRP change in order; appended without copying (a long game's ledger is long)."""
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
    where: dict[str, tuple[str, ...]] | None = attrs.field(default=None, eq=False, repr=False)
    """A cache: unit ids by country (derived from `units`, never serialized)."""
    owned: dict[str, tuple[str, ...]] | None = attrs.field(default=None, eq=False, repr=False)
    """A cache: unit ids by owner (derived from `units`, never serialized)."""
    grants: dict[str, tuple[LedgerEntry, ...]] | None = attrs.field(
        default=None, eq=False, repr=False
    )
    """A cache: each minor's grants that no deduction has undone, in ledger order (derived
    from `ledger`, never serialized): a long game must not scan its whole ledger."""
    totals: dict[str, int] | None = attrs.field(default=None, eq=False, repr=False)
    """A cache: each major's BRP credits, the sum of its ledger entries (never serialized)."""
    key: int | None = attrs.field(default=None, eq=False, repr=False)
    """A cache: the position key (`position_key`), kept up to date by each transaction."""


CACHES = ("where", "owned", "grants", "totals", "key")


@functools.lru_cache(maxsize=1 << 16)
def record_key(record: Hashable) -> int:
    """A 64-bit key of one frozen record, the same in every process (its `repr` hashed with
    BLAKE2b, never Python's salted `hash`); memoized by value, as records recur."""
    digest = hashlib.blake2b(repr(record).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def xor_keys(records: Iterable[Hashable]) -> int:
    """The XOR of the keys of `records`: the same whatever their order (Zobrist hashing)."""
    out = 0
    for record in records:
        out ^= record_key(record)
    return out


def wars_key(wars: dict[tuple[str, str], Moment]) -> int:
    return xor_keys(("war", a, b, since) for (a, b), since in wars.items())


def totals_key(totals: dict[str, int]) -> int:
    return xor_keys(("brps", major, amount) for major, amount in totals.items() if amount)


def rest_key(state: GameState | Any) -> int:
    """The key of what changes seldom: surrenders, falls, eliminations (a set: their order
    is history), and this phase's supply traces and loss choices."""
    return record_key(
        (
            "rest",
            tuple(sorted(state.surrendered.items())),
            tuple(sorted(state.fallen.items())),
            tuple(sorted(state.eliminated)),
            tuple(sorted(state.removed)),
            tuple(sorted(state.traces.items())),
            tuple(sorted(state.losses.items())),
        )
    )


def position_key(state: GameState | Any, totals: dict[str, int]) -> int:
    """The 64-bit key of a position (minors, units, wars, BRP totals, the clock and the
    rest), not of its history: no ledger sequence numbers, no order of eliminations.
    Computed whole here; transactions keep it up to date by XOR-ing out what they change."""
    return (
        xor_keys(state.minors.values())
        ^ xor_keys(state.units.values())
        ^ wars_key(state.wars)
        ^ totals_key(totals)
        ^ record_key(state.clock)
        ^ rest_key(state)
    )


@per_kind
def _replacer(cls: type[Any]) -> Any:
    """A function building `cls` from an instance and changes, generated once per class:
    `attrs.evolve` is generic and costs several times more on the hot path."""
    names = [a.name for a in attrs.fields(cls)]
    args = ", ".join(f"changes.pop({n!r}, self.{n})" for n in names)
    source = (
        "def replace(self, changes):\n"
        f"    new = cls({args})\n"
        "    if changes:\n"
        "        raise TypeError(f'unknown fields {sorted(changes)}')\n"
        "    return new\n"
    )
    namespace: dict[str, Any] = {"cls": cls}
    exec(source, namespace)
    return namespace["replace"]


def evolve(instance: T, **changes: Any) -> T:
    """`attrs.evolve` for the state records, generated per class for speed."""
    new: T = _replacer(type(instance))(instance, changes)
    return new
