"""The live board: the game state changed in place by the rules, every change journaled.

A game keeps one `Tx`. The rules read it and write it through its methods; each write
records in `journal` what it replaced, so that `undo` puts back exactly what was there
(python-chess's `push` / `pop`). A command that fails half-way is undone, so `apply` stays
atomic, and `pop` undoes a whole step at any depth. One write costs the same whatever the
size of the world: a dict entry set in place, never a container copied per command.

Clones share containers copy-on-write: `fork` gives a second board over the same
containers, and each board copies a container the first time it writes to it afterwards.
A `GameState` snapshot shares them the same way, so what it holds never changes.

Caches kept beside the state, journaled like it: unit ids by country and by owner, each
minor's active grants, each major's BRP total, and the position key (entries written since
it was last asked for are hashed again when it is: `key`).
"""

from __future__ import annotations

import types
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from ..domain import Faction, LedgerKind, Side
from ..domain.clock import Moment
from ..domain.units import Unit, moved
from ..ruleset.tables import Ruleset
from .chain import Chain
from .effects import WarBegan, note
from .state import MINOR_FIELDS, GameState, LedgerEntry, MinorRow, MinorState, entry_key

if TYPE_CHECKING:
    from .rulebook import Active, Rulebook

__all__ = ["Journal", "Tx"]


class _Missing:
    """An entry that was not there (its undo deletes it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()

# The kinds of journal op (a plain integer first: undo dispatches on it).
SET = 0  # (SET, container, key, old): a dict entry set (old is MISSING if there was none)
DELETE = 1  # (DELETE, container, key, old, position): a dict entry deleted from its place
ATTR = 2  # (ATTR, attribute, old): a whole attribute replaced
APPEND = 3  # (APPEND, list, old length): items appended to a list
FIELDS = 4  # (FIELDS, minor, setter, old values): fields of a minor's row changed in place

Op = tuple[Any, ...]
"""A journal op: one of the kinds above, with what it needs to be undone."""
Journal = list[Op]

DICTS = (
    "minors", "units", "wars", "surrendered", "fallen", "traces", "losses", "gone",
    "where", "owned", "grants", "totals",
)  # fmt: skip
"""The dicts of the board: copied by a board the first time it writes to one it shares."""
LISTS = ("eliminated", "removed")
WHOLE = ("clock", "wars", "surrendered", "fallen", "traces", "losses")
"""What the rules replace whole (`tx.assign("traces", {})`): the clock, and dicts they
rebuild rather than write entry by entry."""
POLITICAL = frozenset(("minors", "wars", "surrendered", "fallen"))
"""The containers of the political state (`politics`)."""
KEYED = frozenset(("minors", "units", "gone", "totals", *WHOLE))
"""The attributes whose entries make the position (`key`): the indexes and the active grants
are derived from them, and the ledger is history (its totals count)."""


class Tx:
    """The live state of one game and the journal of what the rules changed.

    Args:
        state: the snapshot to start from (its containers are shared, copied on a write).
        rs: the tables.
        disabled: the clauses switched off.
        rules: the rulebook.
        active: its rules in force (worked out from `rules` and `disabled` if not given).
    """

    __slots__ = (
        "_contrib",
        "_dirty",
        "_key",
        "_me",
        "_memo",
        "_mine",
        "_politics",
        "_snap",
        "active",
        "clock",
        "disabled",
        "effects",
        "eliminated",
        "era",
        "fallen",
        "gone",
        "grants",
        "impls",
        "journal",
        "ledger",
        "losses",
        "minors",
        "owned",
        "removed",
        "rs",
        "rules",
        "surrendered",
        "totals",
        "traces",
        "units",
        "wars",
        "where",
    )  # fmt: skip

    def __init__(
        self,
        state: GameState,
        rs: Ruleset,
        disabled: frozenset[str],
        rules: Rulebook,
        active: Active | None = None,
    ) -> None:
        self.rules = rules
        self.active = active if active is not None else rules.active(disabled)
        """The rules in force."""
        self.impls = self.active.effects
        """Effect key -> the function in force (None while off): what effects run."""
        self.rs = rs
        self.disabled = disabled
        self.effects: list[Any] = []
        """What the rules did in the step under way: effects, or `(factory, *args)` to make
        one when the step's effects are read (`emit`, `note`)."""
        self.journal: Journal = []
        """What the step under way replaced, oldest first (`undo` puts it back)."""
        self._mine: set[str] = set()
        """The containers this board may write in place (the others it shares)."""
        self._me = object()
        """This board, as the owner of the minor rows it may change in place (a fork makes
        both boards new owners, so each copies a row before its first change to it)."""
        self.clock = state.clock
        me = self._me
        self.minors: dict[str, MinorRow] = {
            name: MinorRow.of(m, me) for name, m in state.minors.items()
        }
        """Each minor's row (`MinorRow`): read it as a `MinorState`; change it with
        `update`."""
        self.units: dict[str, Unit] = state.units
        self.wars = state.wars
        self.surrendered = state.surrendered
        self.fallen = state.fallen
        self.traces = state.traces
        self.losses = state.losses
        self.ledger: Chain[LedgerEntry] = state.ledger
        self.eliminated: list[str] = list(state.eliminated)
        self.removed: list[str] = list(state.removed)
        self._mine.update(("minors", "eliminated", "removed"))
        self.gone: dict[str, str] = {
            **dict.fromkeys(state.eliminated, "eliminated"),
            **dict.fromkeys(state.removed, "removed"),
        }
        """Every id taken off the map, eliminated or removed (K3: never given again)."""
        self._mine.add("gone")
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
        self._mine.update(("where", "owned", "grants", "totals"))
        self._key = 0
        self._contrib: dict[tuple[str, Any], int] | None = None
        """The key of each entry as it stands in `_key` (None: not worked out yet)."""
        self._dirty: set[tuple[str, Any]] = set()
        """Entries written since `_key` was last brought up to date."""
        self._snap: GameState | None = None
        self._memo: dict[Hashable, Any] | None = None
        """What rules worked out from the state as it stands (`memo`): dropped at every
        write."""
        self.era = object()
        """The political state (the minors, the wars, the surrenders): an object replaced at
        every change of it, so that `politics` knows whether its dict still holds."""
        self._politics: dict[object, dict[Hashable, Any]] = {}
        """`politics`'s dicts by the era they were worked out in: an era is one political
        state, so forks share them, and `pop` finds the dict of the state it returns to."""

    # ---- sharing ---------------------------------------------------------------------

    def fork(self) -> Tx:
        """A second board over the same state: both copy a container before they next
        write to it, so neither sees the other's changes. Its journal starts empty."""
        other: Tx = _copy_slots(self)
        other._mine, self._mine = set(), set()
        other._me, self._me = object(), object()  # every row is shared now
        other.journal, other.effects = [], []
        other._dirty = set(self._dirty)  # empty unless the key is asked for: then small
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
        """The state as frozen data: it shares the containers, which this board copies
        before its next write to each (so the snapshot never changes)."""
        if self._snap is None:
            self._snap = GameState(
                clock=self.clock, minors={n: row.view() for n, row in self.minors.items()},
                units=self.units, wars=self.wars,
                ledger=self.ledger, surrendered=self.surrendered, fallen=self.fallen,
                eliminated=tuple(self.eliminated), removed=tuple(self.removed),
                traces=self.traces, losses=self.losses,
            )  # fmt: skip
            self._mine.difference_update(("units", *WHOLE))
        return self._snap

    def commit(self) -> GameState:
        """The state as it stands (a snapshot), the journal dropped: what a `Tx` built for
        one piece of work leaves."""
        self.journal = []
        return self.snapshot()

    # ---- writing and undoing -----------------------------------------------------------

    def _set(self, name: str, key: Any, value: Any) -> None:
        """Set entry `key` of dict `name`, journaled."""
        d = getattr(self, name) if name in self._mine else self._own(name)
        self.journal.append((SET, name, key, d.get(key, MISSING)))
        d[key] = value
        self._snap = self._memo = None
        if name in POLITICAL:
            self.era = object()
        if self._contrib is not None and name in KEYED:
            self._dirty.add((name, key))

    def _delete(self, name: str, key: Any) -> Any:
        """Delete entry `key` of dict `name`, journaled with its place (undo puts it back
        where it was: the order of units is part of what `state()` shows)."""
        d = self._own(name)
        position = list(d).index(key) if key != next(reversed(d)) else len(d) - 1
        old = d.pop(key)
        self.journal.append((DELETE, name, key, old, position))
        self._snap = self._memo = None
        if name in POLITICAL:
            self.era = object()
        if self._contrib is not None and name in KEYED:
            self._dirty.add((name, key))
        return old

    def _replace(self, name: str, value: Any) -> None:
        """Replace a whole attribute (a dict the rules rebuild, the clock, the ledger's
        head), journaled."""
        old = getattr(self, name)
        self.journal.append((ATTR, name, old))
        setattr(self, name, value)
        self._mine.discard(name)  # the rules built `value`; it may be shared after undo
        self._snap = self._memo = None
        if name in POLITICAL:
            self.era = object()
        if self._contrib is not None and name in KEYED:
            self._dirty_whole(name, old, value)

    def _dirty_whole(self, name: str, old: Any, new: Any) -> None:
        if self._contrib is None or name not in KEYED:
            return
        if name == "clock":
            self._dirty.add(("clock", None))
        else:
            self._dirty.update((name, k) for k in (*old, *new))

    def _append(self, name: str, item: Any) -> None:
        items = self._own(name)
        self.journal.append((APPEND, name, len(items)))
        items.append(item)
        self._snap = self._memo = None

    def _row(self, name: str) -> MinorRow:
        """Minor `name`'s row, copied first (journaled) if this board shares it."""
        row = self.minors[name]
        if row.owner is not self._me:
            minors = self.minors if "minors" in self._mine else self._own("minors")
            self.journal.append((SET, "minors", name, row))
            row = minors[name] = row.copy(self._me)
        return row

    def undo(self, journal: Journal, to: int = 0, era: object | None = None) -> None:
        """Put back what the ops of `journal` from index `to` on replaced, last first, and
        drop them from it; `era` is the era they started from, if known."""
        dirty = self._dirty if self._contrib is not None else None
        for i in range(len(journal) - 1, to - 1, -1):
            op = journal[i]
            kind, name = op[0], op[1]
            if kind == FIELDS:
                row = self.minors[name]
                if row.owner is not self._me:  # shared since (a fork): change a copy
                    minors = self.minors if "minors" in self._mine else self._own("minors")
                    row = minors[name] = row.copy(self._me)
                op[2](row, op[3])
                row.cached = None
                if dirty is not None:
                    dirty.add(("minors", name))
                continue
            if kind == ATTR:
                self._dirty_whole(name, getattr(self, name), op[2])
                setattr(self, name, op[2])
                self._mine.discard(name)
                continue
            container = self._own(name)
            if kind == APPEND:
                del container[op[2] :]
                continue
            key, old = op[2], op[3]
            if old is MISSING:
                del container[key]
            elif kind == DELETE and op[4] < len(container):  # back to its place
                items = list(container.items())
                items.insert(op[4], (key, old))
                container.clear()
                container.update(items)
            else:
                container[key] = old
            if dirty is not None and name in KEYED:
                dirty.add((name, key))
        del journal[to:]
        self._snap = self._memo = None
        self.era = era if era is not None else object()

    # ---- the position key --------------------------------------------------------------

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
        contrib = self._own("_contrib")
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

    # ---- what the rules replace whole -------------------------------------------------

    def assign(self, name: str, value: Any) -> None:
        """Replace a whole attribute the rules rebuild (`clock`, `wars`, `surrendered`,
        `fallen`, `traces`, `losses`), journaled: `tx.assign("traces", {})`."""
        if name not in WHOLE:
            raise AttributeError(f"{name!r} is not replaced whole; replace one of {WHOLE}")
        self._replace(name, value)

    # ---- what the rules work out from the state ------------------------------------

    def memo(self) -> dict[Hashable, Any]:
        """A scratch dict for what the rules work out from the state as it stands (who may
        enter a country, an owner's side ...): every write drops it, so an entry is never
        stale. Keys are tuples beginning with a word naming what they hold."""
        found = self._memo
        if found is None:
            found = self._memo = {}
        return found

    def politics(self) -> dict[Hashable, Any]:
        """A scratch dict like `memo` that lasts while the political state does not change
        (the minors, the wars between majors, the surrenders): what the rules work out from
        those alone (who may enter or attack a minor, the limits on it) survives moves of
        units and changes of the clock."""
        found = self._politics.get(self.era)
        if found is None:
            if len(self._politics) >= 64:
                self._politics.clear()
            found = self._politics[self.era] = {}
        return found

    def memo_on(self, *containers: str) -> dict[Hashable, Any]:
        """`politics` when every container named is political (`minors`, `wars`,
        `surrendered`, `fallen`), else `memo`."""
        return self.politics() if POLITICAL.issuperset(containers) else self.memo()

    def grain_free(self, kind: type[Any], verified: frozenset[Any]) -> bool:
        """Whether every batched check of `kind` in force is among `verified`: then a
        generator that vouches for those may yield batches of any grain (nothing left runs
        once per batch and reads what its commands share)."""
        return all(check in verified for check, _ in self.active.batched.get(kind, ()))

    def enforces(self, check: Any) -> bool:
        """Whether `check` (a check function of the rulebook) is in force in this game: not
        switched off with its clause, nor replaced or removed by a variant. Candidate
        generators skip only what a check in force would refuse."""
        return check in self.active.in_force

    # ---- what the rules did ------------------------------------------------------------

    def emit(self, *item: Any) -> None:
        """Record an effect of the step under way, `factory(*args)` for `item` = (factory,
        *args), made only when the step's effects are read (`tx.emit(UnitMoved, unit_id,
        to, "K3")`; the arguments are kept as they came, one tuple)."""
        self.effects.append(item)

    def note(self, rule: str, template: str, *args: Any) -> None:
        """Record a `Note` under `rule` whose text is `template.format(*args)`, made only
        when the step's effects are read."""
        self.effects.append((note, rule, template, *args))

    # ---- majors and wars -------------------------------------------------------------

    def faction(self, major: str) -> Faction:
        return self.rs.majors[major].faction

    def side(self, major: str) -> Side:
        side: Side = self.rs.side_of[major]
        return side

    def at_war(self, a: str, b: str) -> bool:
        """Whether two major powers are at war."""
        wars = self.wars
        return (a, b) in wars or (b, a) in wars

    def enemies(self, major: str) -> list[str]:
        """The major powers at war with `major`, sorted (worked out once per state)."""
        memo = self.memo()
        found: list[str] | None = memo.get(("enemies", major))
        if found is None:
            found = sorted({b if a == major else a for a, b in self.wars if major in (a, b)})
            memo[("enemies", major)] = found
        return list(found)

    def side_members(self, side: Side) -> tuple[str, ...]:
        """The major powers of `side`, in table order."""
        rs = self.rs
        return rs.derived(_side_members, side)

    def allies(self, major: str) -> list[str]:
        """`major` and the other major powers of its faction."""
        return list(self.rs.faction_members[self.rs.majors[major].faction])

    def add_war(self, a: str, b: str, rule: str, cause: str) -> None:
        self._set("wars", (a, b) if a < b else (b, a), self.clock)
        self.emit(WarBegan, a, b, rule, cause)

    # ---- minors ----------------------------------------------------------------------

    def minor(self, name: str) -> MinorRow:
        """Minor `name`'s row (read it; change it with `update`)."""
        return self.minors[name]

    def update(self, name: str, **changes: Any) -> MinorRow:
        """Change fields of minor `name`'s row in place, each change journaled:
        `tx.update("Sweden", status=Status.INDEPENDENT, major=None)`. Returns the row (no
        field given: nothing changes)."""
        if not changes:
            return self.minors[name]
        row = self._row(name)
        fields = tuple(changes)
        found = _FIELD_ACCESS.get(fields)
        get, put = found if found is not None else _field_access(fields)
        self.journal.append((FIELDS, name, put, get(row)))
        put(row, tuple(changes.values()))
        row.cached = None
        self._snap = self._memo = None
        self.era = object()
        if self._contrib is not None:
            self._dirty.add(("minors", name))
        return row

    def put(self, state: MinorState | MinorRow) -> None:
        """Store a minor's new record (`evolve(row, ...)` makes one): the fields that differ
        from its row change (`update`, for rule code that builds whole records)."""
        row = self.minors[state.name]
        changes = {}
        for field in MINOR_FIELDS:
            value = getattr(state, field)
            now = getattr(row, field)
            if value is not now and value != now:
                changes[field] = value
        if changes:
            self.update(state.name, **changes)

    # ---- units -----------------------------------------------------------------------

    def occupied(self, country: str) -> bool:
        """Whether any unit is in `country` (no list is made)."""
        return bool(self.where.get(country))

    def units_in(self, country: str) -> list[Unit]:
        """The units in `country` (a list made now: changes afterwards do not show)."""
        units = self.units
        return [units[i] for i in self.where.get(country, ())]

    def owners(self) -> list[str]:
        """Every owner with units on the map (no order promised)."""
        return [owner for owner, ids in self.owned.items() if ids]

    def owned_by(self, owner: str) -> tuple[str, ...]:
        """The ids of the units `owner` has on the map (no order promised)."""
        return self.owned.get(owner, ())

    def units_of(self, owner: str) -> list[Unit]:
        """The units `owner` owns, wherever they are (a list made now)."""
        units = self.units
        return [units[i] for i in self.owned.get(owner, ())]

    def _index(self, name: str, unit_id: str, drop: str | None, add: str | None) -> None:
        """Move `unit_id` in index `name` (`where`, `owned`) from entry `drop` to `add`."""
        if drop is not None:
            self._set(name, drop, _without(getattr(self, name)[drop], unit_id))
        if add is not None:
            self._set(name, add, (*getattr(self, name).get(add, ()), unit_id))

    def put_unit(self, unit: Unit) -> None:
        """Place a unit, or store its new record (moved, set up again), and bring the unit
        indexes up to date (written out: a move is a search's commonest command)."""
        units = self.units if "units" in self._mine else self._own("units")
        uid = unit.id
        old = units.get(uid)
        journal = self.journal
        journal.append((SET, "units", uid, MISSING if old is None else old))
        units[uid] = unit
        if old is None or old.country != unit.country:
            where = self.where if "where" in self._mine else self._own("where")
            if old is not None:
                left = where[old.country]
                journal.append((SET, "where", old.country, left))
                where[old.country] = _without(left, uid)
            here = where.get(unit.country, MISSING)
            journal.append((SET, "where", unit.country, here))
            where[unit.country] = (uid,) if here is MISSING else (*here, uid)
        if old is None or old.owner != unit.owner:
            owned = self.owned if "owned" in self._mine else self._own("owned")
            if old is not None:
                left = owned[old.owner]
                journal.append((SET, "owned", old.owner, left))
                owned[old.owner] = _without(left, uid)
            mine = owned.get(unit.owner, MISSING)
            journal.append((SET, "owned", unit.owner, mine))
            owned[unit.owner] = (uid,) if mine is MISSING else (*mine, uid)
        self._snap = self._memo = None
        if self._contrib is not None:
            self._dirty.add(("units", uid))

    def move_unit(self, unit_id: str, country: str, hex_label: str | None) -> None:
        """Move a unit on the map to `country` (and hex): `put_unit` of its moved record,
        written out for the commonest command of a search."""
        units = self.units if "units" in self._mine else self._own("units")
        old = units[unit_id]
        journal = self.journal
        journal.append((SET, "units", unit_id, old))
        units[unit_id] = moved(old, country, hex_label)
        left = old.country
        if left != country:
            where = self.where if "where" in self._mine else self._own("where")
            ids = where[left]
            journal.append((SET, "where", left, ids))
            where[left] = _without(ids, unit_id)
            here = where.get(country, MISSING)
            journal.append((SET, "where", country, here))
            where[country] = (unit_id,) if here is MISSING else (*here, unit_id)
        self._snap = self._memo = None
        if self._contrib is not None:
            self._dirty.add(("units", unit_id))

    def drop_unit(self, unit_id: str) -> Unit:
        """Take a unit off the map (the caller records why: `eliminate`, `mark_removed`)."""
        old: Unit = self._delete("units", unit_id)
        journal = self.journal
        where = self.where if "where" in self._mine else self._own("where")
        ids = where[old.country]
        journal.append((SET, "where", old.country, ids))
        where[old.country] = _without(ids, unit_id)
        owned = self.owned if "owned" in self._mine else self._own("owned")
        ids = owned[old.owner]
        journal.append((SET, "owned", old.owner, ids))
        owned[old.owner] = _without(ids, unit_id)
        return old

    def used(self, unit_id: str) -> bool:
        """Whether `unit_id` was ever given in this game: on the map, eliminated or removed
        (K3: an id is never given twice)."""
        return unit_id in self.units or unit_id in self.gone

    def eliminate(self, unit_id: str) -> None:
        """The rules take a unit off the map (conquest, limits, a deadline)."""
        self.drop_unit(unit_id)
        self.mark_eliminated(unit_id)

    def mark_eliminated(self, unit_id: str) -> None:
        """Record `unit_id` as eliminated (a unit that never reached the map included)."""
        eliminated = self._own("eliminated")
        self.journal.append((APPEND, "eliminated", len(eliminated)))
        eliminated.append(unit_id)
        self._set("gone", unit_id, "eliminated")

    def mark_removed(self, ids: Iterable[str]) -> None:
        """Record units a `remove` took off the map (K3: their ids are not given again)."""
        for unit_id in ids:
            self._append("removed", unit_id)
            self._set("gone", unit_id, "removed")

    def owner_side(self, unit: Unit) -> Side | None:
        """The side a unit fights for: its major's, or for a minor's unit its major's."""
        if unit.owner in self.rs.majors:
            return self.side(unit.owner)
        state = self.minors.get(unit.owner)
        if state is not None and state.major is not None:
            return self.side(state.major)
        return None

    # ---- ledger ----------------------------------------------------------------------

    def record(self, entry: LedgerEntry) -> None:
        """Add a ledger entry; a grant joins its minor's active grants, a deduction takes
        the grant it undoes out of them."""
        journal = self.journal
        journal.append((ATTR, "ledger", self.ledger))
        self.ledger = self.ledger.append(entry)
        totals = self.totals if "totals" in self._mine else self._own("totals")
        major = entry.major
        old = totals.get(major, MISSING)
        journal.append((SET, "totals", major, old))
        totals[major] = entry.amount if old is MISSING else old + entry.amount
        self._snap = self._memo = None
        if self._contrib is not None:
            self._dirty.add(("totals", major))
        if entry.minor is None or (entry.kind is not LedgerKind.GRANT and entry.undoes is None):
            return
        active = self.grants.get(entry.minor, ())
        if entry.undoes is not None:
            active = tuple(g for g in active if g.seq != entry.undoes)
        if entry.kind is LedgerKind.GRANT:
            active = (*active, entry)
        self._set("grants", entry.minor, active)

    def active_grants(self, minor: str) -> tuple[LedgerEntry, ...]:
        """The grants for `minor` that no deduction has undone yet, in ledger order."""
        return self.grants.get(minor, ())

    def next_seq(self) -> int:
        return len(self.ledger) + 1

    def moment(self) -> Moment:
        return self.clock

    # ---- checking the caches -----------------------------------------------------------

    def cache_problems(self) -> list[str]:
        """What the kept caches (the unit indexes, the active grants, the BRP totals, the
        position key) get wrong against caches built afresh from the state (empty when
        nothing): the invariant `minors.testing.stale_caches`."""
        fresh = Tx(self.snapshot(), self.rs, self.disabled, self.rules)
        problems = []
        for name in ("where", "owned"):
            kept = {k: set(v) for k, v in getattr(self, name).items() if v}
            built = {k: set(v) for k, v in getattr(fresh, name).items() if v}
            if kept != built:
                problems.append(f"the {name} index {kept} disagrees with the units {built}")
        kept_grants = {k: tuple(e.seq for e in v) for k, v in self.grants.items() if v}
        built_grants = {k: tuple(e.seq for e in v) for k, v in fresh.grants.items() if v}
        if kept_grants != built_grants:
            problems.append(f"active grants {kept_grants} disagree with the ledger {built_grants}")
        kept_totals = {k: v for k, v in self.totals.items() if v}
        built_totals = {k: v for k, v in fresh.totals.items() if v}
        if kept_totals != built_totals:
            problems.append(f"BRP totals {kept_totals} disagree with the ledger {built_totals}")
        if self._contrib is not None and self.key() != fresh.key():
            problems.append(
                f"the position key {self.key():#x} is not the position's {fresh.key():#x}"
            )
        return problems


_FIELD_ACCESS: dict[tuple[str, ...], tuple[Any, Any]] = {}
"""(get, put) of each set of fields `update` was asked to change, made once."""


def _renamed(template: Any, fields: tuple[str, ...]) -> Any:
    """`template` reading or writing `fields` in place of `f0` ... : its code object with
    the attribute names replaced, a new function made without compiling anything."""
    code = template.__code__
    return types.FunctionType(code.replace(co_names=fields), template.__globals__, code.co_name)


def _compiled(fields: tuple[str, ...]) -> tuple[Any, Any]:
    """(get, put) of `fields`, compiled."""
    targets = ", ".join(f"row.{f}" for f in fields)
    namespace: dict[str, Any] = {}
    exec(
        f"def get(row):\n    return ({targets},)\n"
        f"def put(row, values):\n    ({targets},) = values\n",
        namespace,
    )
    return namespace["get"], namespace["put"]


def _placeholders(n: int) -> tuple[str, ...]:
    return tuple(f"f{i}" for i in range(n))


_TEMPLATES = {n: _compiled(_placeholders(n)) for n in range(1, len(MINOR_FIELDS) + 1)}
"""(get, put) of fields `f0` ... `f{n-1}` for every arity n, compiled once at import:
`_field_access` only renames them."""


def _field_access(fields: tuple[str, ...]) -> tuple[Any, Any]:
    """Functions reading the `fields` of a row as a tuple, and writing them from one
    (straight-line attribute access: a loop of getattr/setattr costs several times more).
    Made from the templates of their arity without compiling (compiling on the first
    `update` of a new set of fields cost 40-300 µs in the middle of a search); compiled
    where an interpreter names a template's attributes otherwise."""
    unknown = [f for f in fields if f not in MINOR_FIELDS]
    if unknown:
        raise AttributeError(f"a minor has no field {unknown[0]!r}; its fields: {MINOR_FIELDS}")
    get, put = _TEMPLATES[len(fields)]
    placeholders = _placeholders(len(fields))
    if get.__code__.co_names == placeholders == put.__code__.co_names:
        found = _renamed(get, fields), _renamed(put, fields)
    else:
        found = _compiled(fields)
    _FIELD_ACCESS[fields] = found
    return found


def _without(ids: tuple[str, ...], unit_id: str) -> tuple[str, ...]:
    """`ids` less `unit_id` (listed once), in order."""
    i = ids.index(unit_id)
    return ids[:i] + ids[i + 1 :]


def _side_members(rs: Ruleset, side: Side) -> tuple[str, ...]:
    return tuple(m for m in rs.majors if rs.side_of[m] is side)


def _slot_copier() -> Any:
    """A function copying every slot of a `Tx` into a new one, written out once (a loop of
    getattr/setattr costs several times more, and clones are a search engine's hot path)."""
    lines = ["def copy(self):", "    other = new(Tx)"]
    lines += [f"    other.{name} = self.{name}" for name in Tx.__slots__]
    lines.append("    return other")
    namespace: dict[str, Any] = {"new": object.__new__, "Tx": Tx}
    exec("\n".join(lines), namespace)
    return namespace["copy"]


_copy_slots = _slot_copier()
