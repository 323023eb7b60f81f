"""A transaction: the successor state built copy-on-write, committed by one assignment.

Reads see the changes made so far; the first write to a container copies it, so the state
the transaction started from is never touched. An exception before `commit` leaves the
game exactly as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..domain import Faction, LedgerKind, Side
from ..domain.clock import Moment
from ..domain.units import Unit
from ..ruleset.tables import Ruleset
from .effects import Effect, WarBegan
from .state import (
    GameState,
    LedgerEntry,
    MinorState,
    position_key,
    record_key,
    rest_key,
    totals_key,
    wars_key,
)

if TYPE_CHECKING:
    from .rulebook import Active, Rulebook

__all__ = ["Tx"]


class Tx:
    """The state being built by one command or one phase change."""

    __slots__ = (
        "_grants",
        "_key",
        "_owned",
        "_owned_by",
        "_totals",
        "_was_minors",
        "_was_units",
        "_where",
        "added",
        "base",
        "clock",
        "disabled",
        "effects",
        "eliminated",
        "fallen",
        "impls",
        "ledger",
        "losses",
        "minors",
        "removed",
        "rs",
        "rules",
        "surrendered",
        "traces",
        "units",
        "wars",
    )  # fmt: skip

    def __init__(
        self,
        state: GameState,
        rs: Ruleset,
        disabled: frozenset[str],
        rules: Rulebook,
        active: Active | None = None,
    ) -> None:
        self.base = state
        self.rules = rules
        self.impls = (active if active is not None else rules.active(disabled)).effects
        """Effect key -> the function in force (None while off): what effects run."""
        self.rs = rs
        self.disabled = disabled
        self.clock = state.clock
        self.minors = state.minors
        self.units = state.units
        self.wars = state.wars
        self.ledger = state.ledger
        self.added: list[LedgerEntry] = []  # joined to the ledger at commit
        self.surrendered = state.surrendered
        self.fallen = state.fallen
        self.eliminated = state.eliminated
        self.removed = state.removed
        self.traces = state.traces
        self.losses = state.losses
        self.effects: list[Effect] = []
        self._owned: set[str] = set()
        self._where = state.where
        self._owned_by = state.owned
        self._grants = state.grants
        self._totals = state.totals
        self._key = state.key
        self._was_minors: dict[str, MinorState] = {}
        """Each minor's record before its first change here (to update the key)."""
        self._was_units: dict[str, Unit | None] = {}
        """Each unit before its first change here, None if it was not on the map."""

    def commit(self) -> GameState:
        """The successor state (the original is untouched)."""
        return GameState(
            clock=self.clock, minors=self.minors, units=self.units, wars=self.wars,
            ledger=self.ledger.extend(self.added),
            surrendered=self.surrendered, fallen=self.fallen,
            eliminated=self.eliminated, removed=self.removed, traces=self.traces,
            losses=self.losses,
            where=self._where, owned=self._owned_by, grants=self._grants,
            totals=self._totals, key=self._next_key(),
        )  # fmt: skip

    def _next_key(self) -> int | None:
        """The position key after this transaction: the base's with what changed XOR-ed out
        and in (Zobrist hashing), None while the base has none (it is built when asked)."""
        key, base = self._key, self.base
        if key is None or self._totals is None:
            return None
        if base.key is None or base.totals is None:
            return position_key(self, self._totals)  # built in this transaction
        for name, old in self._was_minors.items():
            new = self.minors[name]
            if new is not old:
                key ^= record_key(old) ^ record_key(new)
        for unit_id, was in self._was_units.items():
            now = self.units.get(unit_id)
            if now is not was:
                key ^= (record_key(was) if was is not None else 0) ^ (
                    record_key(now) if now is not None else 0
                )
        if self.wars is not base.wars:
            key ^= wars_key(base.wars) ^ wars_key(self.wars)
        if self._totals is not base.totals:
            key ^= totals_key(base.totals) ^ totals_key(self._totals)
        if self.clock != base.clock:
            key ^= record_key(base.clock) ^ record_key(self.clock)
        if (
            self.surrendered is not base.surrendered
            or self.fallen is not base.fallen
            or self.eliminated is not base.eliminated
            or self.removed is not base.removed
            or self.traces is not base.traces
            or self.losses is not base.losses
        ):
            key ^= rest_key(base) ^ rest_key(self)
        return key

    def _own(self, name: str) -> None:
        if name not in self._owned:
            self._owned.add(name)
            setattr(self, name, dict(getattr(self, name)))

    # ---- majors and wars -------------------------------------------------------------

    def faction(self, major: str) -> Faction:
        return self.rs.majors[major].faction

    def side(self, major: str) -> Side:
        side: Side = self.rs.side_of[major]
        return side

    def at_war(self, a: str, b: str) -> bool:
        """Whether two major powers are at war."""
        return (a, b) in self.wars or (b, a) in self.wars

    def enemies(self, major: str) -> list[str]:
        """The major powers at war with `major`, sorted."""
        return sorted({b if a == major else a for a, b in self.wars if major in (a, b)})

    def allies(self, major: str) -> list[str]:
        """`major` and the other major powers of its faction."""
        return list(self.rs.faction_members[self.rs.majors[major].faction])

    def add_war(self, a: str, b: str, rule: str, cause: str) -> None:
        self._own("wars")
        self.wars[(a, b) if a < b else (b, a)] = self.clock
        self.effects.append(WarBegan(a, b, rule, cause))

    # ---- minors ----------------------------------------------------------------------

    def minor(self, name: str) -> MinorState:
        return self.minors[name]

    def put(self, state: MinorState) -> None:
        """Store a minor's new record."""
        self._own("minors")
        if state.name not in self._was_minors:
            self._was_minors[state.name] = self.minors[state.name]
        self.minors[state.name] = state

    # ---- units -----------------------------------------------------------------------

    def _index(self) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
        """Unit ids by country and by owner: cached in the state, built when first asked."""
        if self._where is None or self._owned_by is None:
            where: dict[str, list[str]] = {}
            owned: dict[str, list[str]] = {}
            for unit in self.units.values():
                where.setdefault(unit.country, []).append(unit.id)
                owned.setdefault(unit.owner, []).append(unit.id)
            self._where = {k: tuple(v) for k, v in where.items()}
            self._owned_by = {k: tuple(v) for k, v in owned.items()}
            self._owned.update(("_where", "_owned_by"))
        return self._where, self._owned_by

    def build_caches(self) -> None:
        """Build the unit indexes, the active grants, the BRP totals and the position key
        now (of the state as it stands), so that the committed state carries them and no
        later command has to."""
        self._index()
        self._active()
        if self._totals is None:
            totals: dict[str, int] = {}
            for e in (*self.ledger, *self.added):
                totals[e.major] = totals.get(e.major, 0) + e.amount
            self._totals = totals
            self._owned.add("_totals")
        self._key = position_key(self, self._totals)

    def occupied(self, country: str) -> bool:
        """Whether any unit is in `country` (no list is made)."""
        return bool(self._index()[0].get(country))

    def units_in(self, country: str) -> list[Unit]:
        """The units in `country` (a list made now: changes afterwards do not show)."""
        units = self.units
        return [units[i] for i in self._index()[0].get(country, ())]

    def owners(self) -> list[str]:
        """Every owner with units on the map (no order promised)."""
        return [owner for owner, ids in self._index()[1].items() if ids]

    def owned_by(self, owner: str) -> tuple[str, ...]:
        """The ids of the units `owner` has on the map (no order promised)."""
        return self._index()[1].get(owner, ())

    def units_of(self, owner: str) -> list[Unit]:
        """The units `owner` owns, wherever they are (a list made now)."""
        units = self.units
        return [units[i] for i in self._index()[1].get(owner, ())]

    def _reindex(self, old: Unit | None, new: Unit | None) -> None:
        if self._where is None or self._owned_by is None:
            return  # not built yet: it will be built from the units when asked
        for name in ("_where", "_owned_by"):
            if name not in self._owned:
                self._owned.add(name)
                setattr(self, name, dict(getattr(self, name)))
        for index, key in ((self._where, "country"), (self._owned_by, "owner")):
            if old is not None:
                index[getattr(old, key)] = tuple(i for i in index[getattr(old, key)] if i != old.id)
            if new is not None:
                index[getattr(new, key)] = (*index.get(getattr(new, key), ()), new.id)

    def put_unit(self, unit: Unit) -> None:
        self._own("units")
        old = self.units.get(unit.id)
        if unit.id not in self._was_units:
            self._was_units[unit.id] = old
        self.units[unit.id] = unit
        self._reindex(old, unit)

    def drop_unit(self, unit_id: str) -> None:
        self._own("units")
        if unit_id not in self._was_units:
            self._was_units[unit_id] = self.units.get(unit_id)
        self._reindex(self.units.pop(unit_id), None)

    def used(self, unit_id: str) -> bool:
        """Whether `unit_id` was ever given in this game: on the map, eliminated or removed
        (K3: an id is never given twice)."""
        return unit_id in self.units or unit_id in self.eliminated or unit_id in self.removed

    def eliminate(self, unit_id: str) -> None:
        self.drop_unit(unit_id)
        self.eliminated = (*self.eliminated, unit_id)

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
        self.added.append(entry)
        if self._totals is not None:
            if "_totals" not in self._owned:
                self._owned.add("_totals")
                self._totals = dict(self._totals)
            self._totals[entry.major] = self._totals.get(entry.major, 0) + entry.amount
        if self._grants is None or entry.minor is None:
            return  # not built yet: it will be built from the ledger when asked
        if entry.kind is not LedgerKind.GRANT and entry.undoes is None:
            return
        if "_grants" not in self._owned:
            self._owned.add("_grants")
            self._grants = dict(self._grants)
        active = self._grants.get(entry.minor, ())
        if entry.undoes is not None:
            active = tuple(g for g in active if g.seq != entry.undoes)
        if entry.kind is LedgerKind.GRANT:
            active = (*active, entry)
        self._grants[entry.minor] = active

    def _active(self) -> dict[str, tuple[LedgerEntry, ...]]:
        """Active grants by minor: cached in the state, built from the ledger when first
        asked."""
        if self._grants is None:
            entries = (*self.ledger, *self.added)
            undone = {e.undoes for e in entries if e.undoes is not None}
            grants: dict[str, list[LedgerEntry]] = {}
            for e in entries:
                if e.kind is LedgerKind.GRANT and e.minor is not None and e.seq not in undone:
                    grants.setdefault(e.minor, []).append(e)
            self._grants = {name: tuple(found) for name, found in grants.items()}
            self._owned.add("_grants")
        return self._grants

    def active_grants(self, minor: str) -> tuple[LedgerEntry, ...]:
        """The grants for `minor` that no deduction has undone yet, in ledger order."""
        return self._active().get(minor, ())

    def next_seq(self) -> int:
        return len(self.ledger) + len(self.added) + 1

    def moment(self) -> Moment:
        return self.clock
