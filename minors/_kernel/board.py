"""The board: the live position, changed in place, every change journaled.

Rules change it through three journaled writes: `write` (an entry of a dict), `update`
(fields of a minor's row) and `replace` (a whole attribute). `undo` puts back what the
journal recorded, last first (python-chess's `push` / `pop`). Forks and snapshots share
containers copy-on-write. Beside the state it keeps indexes written with it (units by
country and owner, active grants, BRP totals) and the position key. It knows no rule.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..domain import LedgerKind
from ..domain.chain import Chain
from ..domain.clock import Moment
from ..domain.records import LedgerEntry
from ..domain.state import GameState
from ..domain.units import Unit
from .state import MinorRow, entry_key

__all__ = ["MISSING", "Board", "Journal"]


class _Missing:
    """An entry that is not there (writing it deletes the entry)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()

# The kinds of journal op (a plain integer first: undo dispatches on it).
ENTRY = 0  # (ENTRY, container, key, old, position): an entry written (old MISSING: it was new)
FIELDS = 1  # (FIELDS, minor, {field: old value}): fields of a minor's row changed in place
WHOLE = 2  # (WHOLE, attribute, old): a whole attribute replaced

Op = tuple[Any, ...]
"""A journal op: one of the kinds above, with what it needs to be undone."""
Journal = list[Op]

DICTS = (
    "minors", "units", "wars", "surrendered", "fallen", "traces", "losses", "gone",
    "where", "owned", "grants", "totals",
)  # fmt: skip
"""The dicts of the board: copied by a board the first time it writes to one it shares."""
REPLACED = ("clock", "ledger", "wars", "surrendered", "fallen", "traces", "losses")
"""What `replace` takes: the clock, the ledger's head, and dicts the rules rebuild whole."""
SHARED_BY_SNAPSHOTS = ("units", "wars", "surrendered", "fallen", "traces", "losses")
"""The containers a snapshot holds as they are (the board copies them before its next write)."""
POLITICAL = frozenset(("minors", "wars", "surrendered", "fallen"))
"""The containers of the political state (`politics`)."""
KEYED = frozenset(("minors", "units", "gone", "totals", *REPLACED)) - {"ledger"}
"""What makes the position (`key`): the indexes are derived from it, and the ledger is
history (its totals count)."""


class Board:
    """The live state of one game and the journal of what changed since the step began.

    Args:
        state: the snapshot to start from (its containers are shared, copied on a write).
    """

    __slots__ = (
        "_contrib", "_dirty", "_key", "_me", "_memo", "_mine", "_politics", "_snap",
        "clock", "era", "fallen", "gone", "grants", "journal", "ledger", "losses", "minors",
        "owned", "surrendered", "totals", "traces", "units", "wars", "where",
    )  # fmt: skip

    def __init__(self, state: GameState) -> None:
        self.journal: Journal = []
        """What the step under way replaced, oldest first (`undo` puts it back)."""
        self._me = object()
        """This board, as the owner of the rows it may change in place (a fork makes both
        boards new owners, so each copies a row before its first change to it)."""
        self.clock: Moment = state.clock
        self.minors: dict[str, MinorRow] = {
            name: MinorRow.of(m, self._me) for name, m in state.minors.items()
        }
        """Each minor's row: read it as a `MinorState`; change it with `update`."""
        self.units = state.units
        self.wars = state.wars
        self.surrendered = state.surrendered
        self.fallen = state.fallen
        self.traces = state.traces
        self.losses = state.losses
        self.ledger: Chain[LedgerEntry] = state.ledger
        self.gone: dict[str, str] = {
            **dict.fromkeys(state.eliminated, "eliminated"),
            **dict.fromkeys(state.removed, "removed"),
        }
        """Every id taken off the map, in order, "eliminated" or "removed" (never given again)."""
        where: dict[str, tuple[str, ...]] = {}
        owned: dict[str, tuple[str, ...]] = {}
        for unit in state.units.values():
            where[unit.country] = (*where.get(unit.country, ()), unit.id)
            owned[unit.owner] = (*owned.get(unit.owner, ()), unit.id)
        self.where = where
        """Unit ids by the country they are in."""
        self.owned = owned
        """Unit ids by owner."""
        undone = {e.undoes for e in state.ledger if e.undoes is not None}
        grants: dict[str, tuple[LedgerEntry, ...]] = {}
        totals: dict[str, int] = {}
        for e in state.ledger:
            totals[e.major] = totals.get(e.major, 0) + e.amount
            if e.kind is LedgerKind.GRANT and e.minor is not None and e.seq not in undone:
                grants[e.minor] = (*grants.get(e.minor, ()), e)
        self.grants = grants
        """Each minor's grants that no deduction has undone, in ledger order."""
        self.totals = totals
        """Each major's BRP credits: the sum of its ledger entries."""
        self._mine: set[str] = {"minors", "gone", "where", "owned", "grants", "totals"}
        """The containers this board may write in place (the others it shares)."""
        self._key = 0
        self._contrib: dict[tuple[str, Any], int] | None = None
        """The key of each entry as it stands in `_key` (None: not worked out yet)."""
        self._dirty: set[tuple[str, Any]] = set()
        """Entries written since `_key` was last brought up to date."""
        self._snap: GameState | None = None
        self._memo: dict[Hashable, Any] | None = None
        self.era = object()
        """The political state: an object replaced at every change of it (`politics`)."""
        self._politics: dict[object, dict[Hashable, Any]] = {}

    # ---- sharing -------------------------------------------------------------------------

    def fork(self) -> Board:
        """A second board over the same state: both copy a container before they next write
        to it, so neither sees the other's changes. Its journal starts empty."""
        other = object.__new__(Board)
        other.clock, other.minors, other.units, other.wars = (
            self.clock, self.minors, self.units, self.wars,
        )  # fmt: skip
        other.surrendered, other.fallen, other.traces, other.losses = (
            self.surrendered, self.fallen, self.traces, self.losses,
        )  # fmt: skip
        other.ledger, other.gone, other.where, other.owned = (
            self.ledger, self.gone, self.where, self.owned,
        )  # fmt: skip
        other.grants, other.totals, other.era, other._politics = (
            self.grants, self.totals, self.era, self._politics,
        )  # fmt: skip
        other._key, other._contrib, other._snap, other._memo = (
            self._key, self._contrib, self._snap, self._memo,
        )  # fmt: skip
        other._mine, self._mine = set(), set()
        other._me, self._me = object(), object()  # every row is shared now
        other.journal = []
        other._dirty = set(self._dirty)
        return other

    def _own(self, name: str) -> Any:
        """Container `name`, copied first if this board shares it."""
        found = getattr(self, name)
        if name not in self._mine:
            found = found.copy()
            setattr(self, name, found)
            self._mine.add(name)
        return found

    def snapshot(self) -> GameState:
        """The state as frozen records: it shares the containers, which this board copies
        before its next write to each (so the snapshot never changes)."""
        if self._snap is None:
            gone = self.gone
            self._snap = GameState(
                clock=self.clock, minors={n: row.view() for n, row in self.minors.items()},
                units=self.units, wars=self.wars, ledger=self.ledger,
                surrendered=self.surrendered, fallen=self.fallen,
                eliminated=tuple(i for i, why in gone.items() if why == "eliminated"),
                removed=tuple(i for i, why in gone.items() if why == "removed"),
                traces=self.traces, losses=self.losses,
            )  # fmt: skip
            self._mine.difference_update(SHARED_BY_SNAPSHOTS)
        return self._snap

    # ---- the writes ----------------------------------------------------------------------

    def _changed(self, name: str) -> None:
        self._snap = self._memo = None
        if name in POLITICAL:
            self.era = object()

    def write(self, name: str, key: Any, value: Any) -> None:
        """Set entry `key` of dict `name` to `value` (`MISSING` deletes it), journaled: undo
        puts back what was there, in its place (the order of units is part of the state)."""
        d = self._own(name)
        old = d.get(key, MISSING)
        if value is MISSING:
            if old is MISSING:
                return
            position = len(d) - 1 if key == next(reversed(d)) else list(d).index(key)
            del d[key]
            self.journal.append((ENTRY, name, key, old, position))
        else:
            self.journal.append((ENTRY, name, key, old, -1))
            d[key] = value
        self._changed(name)
        if self._contrib is not None and name in KEYED:
            self._dirty.add((name, key))

    def update(self, name: str, **changes: Any) -> MinorRow:
        """Change fields of minor `name`'s row in place, journaled: `board.update("Sweden",
        status=Status.INDEPENDENT, major=None)`. Returns the row."""
        row = self.minors[name]
        if not changes:
            return row
        if row.owner is not self._me:  # shared with a fork: change a copy (undo puts it back)
            self.journal.append((ENTRY, "minors", name, row, -1))
            row = self._own("minors")[name] = row.copy(self._me)
        old = {}
        for field, value in changes.items():
            old[field] = getattr(row, field)
            setattr(row, field, value)
        self.journal.append((FIELDS, name, old))
        row.cached = None
        self._snap = self._memo = None
        self.era = object()
        if self._contrib is not None:
            self._dirty.add(("minors", name))
        return row

    def replace(self, name: str, value: Any) -> None:
        """Replace a whole attribute (the clock, the ledger's head, a dict the rules
        rebuild: `board.replace("traces", {})`), journaled."""
        if name not in REPLACED:
            raise AttributeError(f"{name!r} is not replaced whole; replace one of {REPLACED}")
        old = getattr(self, name)
        self.journal.append((WHOLE, name, old))
        setattr(self, name, value)
        self._mine.discard(name)  # the rules built `value`; it may be shared after undo
        self._changed(name)
        if self._contrib is not None and name in KEYED:
            self._dirty_whole(name, old, value)

    def _dirty_whole(self, name: str, old: Any, new: Any) -> None:
        if name == "clock":
            self._dirty.add(("clock", None))
        elif name in KEYED:
            self._dirty.update((name, k) for k in (*old, *new))

    def undo(self, journal: Journal, to: int = 0, era: object | None = None) -> None:
        """Put back what the ops of `journal` from index `to` on replaced, last first, and
        drop them from it; `era` is the political era they started from, if known."""
        dirty = self._dirty if self._contrib is not None else None
        for i in range(len(journal) - 1, to - 1, -1):
            op = journal[i]
            kind, name = op[0], op[1]
            if kind == FIELDS:
                row = self.minors[name]
                if row.owner is not self._me:  # shared since (a fork): change a copy
                    row = self._own("minors")[name] = row.copy(self._me)
                for field, value in op[2].items():
                    setattr(row, field, value)
                row.cached = None
                if dirty is not None:
                    dirty.add(("minors", name))
            elif kind == WHOLE:
                if dirty is not None:
                    self._dirty_whole(name, getattr(self, name), op[2])
                setattr(self, name, op[2])
                self._mine.discard(name)
            else:
                container = self._own(name)
                key, old, position = op[2], op[3], op[4]
                if old is MISSING:
                    del container[key]
                elif 0 <= position < len(container):  # a deleted entry, back to its place
                    items = list(container.items())
                    items.insert(position, (key, old))
                    container.clear()
                    container.update(items)
                else:
                    container[key] = old
                if dirty is not None and name in KEYED:
                    dirty.add((name, key))
        del journal[to:]
        self._snap = self._memo = None
        self.era = era if era is not None else object()

    # ---- units ---------------------------------------------------------------------------

    def units_in(self, country: str) -> list[Unit]:
        """The units in `country` (a list made now: changes afterwards do not show)."""
        units = self.units
        return [units[i] for i in self.where.get(country, ())]

    def units_of(self, owner: str) -> list[Unit]:
        """The units `owner` owns, wherever they are (a list made now)."""
        units = self.units
        return [units[i] for i in self.owned.get(owner, ())]

    def occupied(self, country: str) -> bool:
        """Whether any unit is in `country`."""
        return bool(self.where.get(country))

    def owners(self) -> list[str]:
        """Every owner with units on the map (no order promised)."""
        return [owner for owner, ids in self.owned.items() if ids]

    def _index(self, name: str, drop: str | None, add: str | None, unit_id: str) -> None:
        """Move `unit_id` in index `name` (`where`, `owned`) from entry `drop` to `add`."""
        index = getattr(self, name)
        if drop is not None:
            ids = index[drop]
            i = ids.index(unit_id)
            self.write(name, drop, ids[:i] + ids[i + 1 :])
            index = getattr(self, name)
        if add is not None:
            self.write(name, add, (*index.get(add, ()), unit_id))

    def put_unit(self, unit: Unit) -> None:
        """Place a unit, or store its new record (moved, set up again), with the indexes."""
        old = self.units.get(unit.id)
        self.write("units", unit.id, unit)
        if old is None or old.country != unit.country:
            self._index("where", None if old is None else old.country, unit.country, unit.id)
        if old is None or old.owner != unit.owner:
            self._index("owned", None if old is None else old.owner, unit.owner, unit.id)

    def drop_unit(self, unit_id: str, why: str) -> Unit:
        """Take a unit off the map, recording `why` ("eliminated", "removed"): its id is
        never given again."""
        old: Unit = self.units[unit_id]
        self.write("units", unit_id, MISSING)
        self._index("where", old.country, None, unit_id)
        self._index("owned", old.owner, None, unit_id)
        self.write("gone", unit_id, why)
        return old

    def used(self, unit_id: str) -> bool:
        """Whether `unit_id` was ever given in this game: on the map, eliminated or removed."""
        return unit_id in self.units or unit_id in self.gone

    # ---- ledger --------------------------------------------------------------------------

    def record(self, entry: LedgerEntry) -> None:
        """Add a ledger entry; a grant joins its minor's active grants, a deduction takes
        the grant it undoes out of them, and the major's total follows."""
        self.replace("ledger", self.ledger.append(entry))
        self.write("totals", entry.major, self.totals.get(entry.major, 0) + entry.amount)
        if entry.minor is None or (entry.kind is not LedgerKind.GRANT and entry.undoes is None):
            return
        active = self.grants.get(entry.minor, ())
        if entry.undoes is not None:
            active = tuple(g for g in active if g.seq != entry.undoes)
        if entry.kind is LedgerKind.GRANT:
            active = (*active, entry)
        self.write("grants", entry.minor, active)

    def active_grants(self, minor: str) -> tuple[LedgerEntry, ...]:
        """The grants for `minor` that no deduction has undone yet, in ledger order."""
        return self.grants.get(minor, ())

    def next_seq(self) -> int:
        """The number the next ledger entry takes."""
        return len(self.ledger) + 1

    # ---- the position key ----------------------------------------------------------------

    def key(self) -> int:
        """The 64-bit key of the position: the XOR of the key of each entry of the keyed
        containers and of the clock. Entries written since it was last asked for are hashed
        again now (a step costs nothing for it; a game that never asks tracks nothing)."""
        if self._contrib is None:
            self._contrib = {}
            self._key = 0
            self._dirty = {("clock", None)}
            for name in KEYED - {"clock"}:
                self._dirty.update((name, k) for k in getattr(self, name))
        if not self._dirty:
            return self._key
        contrib = self._contrib = dict(self._contrib)  # forks share it until now
        key = self._key
        for name, k in self._dirty:
            now: Any = self.clock if name == "clock" else getattr(self, name).get(k, MISSING)
            if name == "minors" and now is not MISSING:
                now = now.view()
            new = 0 if now is MISSING else entry_key(name, k, now)
            key ^= contrib.pop((name, k), 0) ^ new
            if new:
                contrib[(name, k)] = new
        self._key = key
        self._dirty = set()
        return key

    # ---- what rules work out from the state ----------------------------------------------

    def memo(self) -> dict[Hashable, Any]:
        """A scratch dict for what rules work out from the state as it stands (every write
        drops it). Keys are tuples beginning with a word naming what they hold."""
        found = self._memo
        if found is None:
            found = self._memo = {}
        return found

    def politics(self) -> dict[Hashable, Any]:
        """A scratch dict like `memo` that lasts while the political state (the minors, the
        wars, the surrenders) does not change: it survives moves of units and the clock, and
        forks share it."""
        found = self._politics.get(self.era)
        if found is None:
            if len(self._politics) >= 64:
                self._politics.clear()
            found = self._politics[self.era] = {}
        return found
