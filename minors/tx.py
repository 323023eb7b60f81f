"""A transaction: the successor state built copy-on-write, committed by one assignment.

Reads see the changes made so far; the first write to a container copies it, so the state
the transaction started from is never touched. An exception before `commit` leaves the
game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .clock import Moment, Phase
from .domain import Faction, Side, Status
from .effects import Effect, StatusChanged, WarBegan, WarEnded
from .registry import Violation, effect
from .ruleset import Ruleset

if TYPE_CHECKING:
    from .hooks import Hooks
from .state import GameState, LedgerEntry, MinorState, evolve
from .units import Unit

__all__ = ["TIED", "Tx", "out_of_turn", "tie_rule"]

TIED = frozenset({Status.ASSOCIATED, Status.ALLIED, Status.COLONY, Status.COMMONWEALTH})
"""Statuses that tie a minor to its major's wars (82.12, 82.93)."""


def tie_rule(rs: Ruleset, state: MinorState) -> str | None:
    """The clause by which a minor shares its major's wars, so that war is made on the major
    (82.12 colonies, 82.13 the Commonwealth, 82.93 Pacific minors, 82.42 associates, allies
    and conquests); None for a minor that is not tied."""
    if state.status is Status.CONQUERED:
        return "82.42"
    if state.status not in TIED:
        return None
    if state.status is Status.COMMONWEALTH:
        return "82.13"
    if rs.minors[state.name].theater.value == "pacific":
        return "82.93"
    return "82.12" if state.status is Status.COLONY else "82.42"


def out_of_turn(
    tx: Tx, major: str, phase: Phase, what: str, key: str = "major"
) -> Iterator[Violation]:
    """K1: `what` (the subject and its verb, "a border war belongs") is done only in `phase`
    of `major`'s own player turn."""
    side = tx.side(major)
    if tx.clock.phase is not phase or tx.clock.side is not side:
        yield Violation(
            "K1", f"{what} in the {side.value} {phase.value} phase, not {tx.clock}", {key: major}
        )


class Tx:
    """The state being built by one command or one phase change."""

    __slots__ = (
        "_grants",
        "_owned",
        "_owned_by",
        "_where",
        "added",
        "base",
        "clock",
        "disabled",
        "effects",
        "eliminated",
        "fallen",
        "hooks",
        "ledger",
        "losses",
        "minors",
        "rs",
        "surrendered",
        "traces",
        "units",
        "wars",
    )  # fmt: skip

    def __init__(
        self, state: GameState, rs: Ruleset, disabled: frozenset[str], hooks: Hooks
    ) -> None:
        self.base = state
        self.hooks = hooks
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
        self.traces = state.traces
        self.losses = state.losses
        self.effects: list[Effect] = []
        self._owned: set[str] = set()
        self._where = state.where
        self._owned_by = state.owned
        self._grants = state.grants

    def commit(self) -> GameState:
        """The successor state (the original is untouched)."""
        return GameState(
            clock=self.clock, minors=self.minors, units=self.units, wars=self.wars,
            ledger=self.ledger.extend(self.added),
            surrendered=self.surrendered, fallen=self.fallen,
            eliminated=self.eliminated, traces=self.traces, losses=self.losses,
            where=self._where, owned=self._owned_by, grants=self._grants,
        )  # fmt: skip

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

    def neutral_major(self, major: str) -> bool:
        """82.81B: not at war with any major power of an opposing faction."""
        own = self.faction(major)
        return not any(self.faction(e) is not own for e in self.enemies(major))

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
        self.minors[state.name] = state

    def set_status(
        self,
        state: MinorState,
        status: Status,
        major: str | None,
        rule: str,
        cause: str,
        **changes: Any,
    ) -> MinorState:
        """Change a minor's status and major (and other fields), with its effect, and
        rederive its wars; one new record."""
        direct = changes.get("direct_wars", state.direct_wars)
        wars = self.derive_wars(status, major, direct)
        new = evolve(state, status=status, major=major, at_war_with=wars, **changes)
        if (state.status, state.major) != (status, major):
            self.effects.append(StatusChanged(state.name, state.status, status, major, rule, cause))
        self.put(new)
        return new

    def wars_of(self, state: MinorState) -> tuple[str, ...]:
        """Who a minor is at war with: its own wars, and its major's if tied to it."""
        return self.derive_wars(state.status, state.major, state.direct_wars)

    def derive_wars(
        self, status: Status, major: str | None, direct: tuple[str, ...]
    ) -> tuple[str, ...]:
        if status is Status.CONQUERED:
            return ()
        if status not in TIED or major is None:
            return direct  # kept sorted and unique where it is written
        wars = set(direct)
        wars.update(self.enemies(major))
        wars.discard(major)
        return tuple(sorted(wars))

    @effect("82.12")
    def refresh_wars(self, rule: str = "82.12") -> None:
        """Rederive every minor's wars after wars between majors began or ended."""
        for name in self.rs.minors:  # table order, whatever order the dict was built in
            state = self.minors[name]
            wars = self.wars_of(state)
            if wars == state.at_war_with:
                continue
            for enemy in sorted(set(wars) - set(state.at_war_with)):
                self.effects.append(
                    WarBegan(enemy, state.name, rule, f"{state.name} shares {state.major}'s wars")
                )
            for enemy in sorted(set(state.at_war_with) - set(wars)):
                self.effects.append(WarEnded(enemy, state.name, rule, "its major left the war"))
            self.put(evolve(state, at_war_with=wars))

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
        """Build the unit indexes and the active grants now, so that the committed state
        carries them and no later command has to."""
        self._index()
        self._active()

    def occupied(self, country: str) -> bool:
        """Whether any unit is in `country` (no list is made)."""
        return bool(self._index()[0].get(country))

    def units_in(self, country: str) -> list[Unit]:
        """The units in `country` (a list made now: changes afterwards do not show)."""
        units = self.units
        return [units[i] for i in self._index()[0].get(country, ())]

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
        self.units[unit.id] = unit
        self._reindex(old, unit)

    def drop_unit(self, unit_id: str) -> None:
        self._own("units")
        self._reindex(self.units.pop(unit_id), None)

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
        if self._grants is None or entry.minor is None:
            return  # not built yet: it will be built from the ledger when asked
        if entry.kind != "grant" and entry.undoes is None:
            return
        if "_grants" not in self._owned:
            self._owned.add("_grants")
            self._grants = dict(self._grants)
        active = self._grants.get(entry.minor, ())
        if entry.undoes is not None:
            active = tuple(g for g in active if g.seq != entry.undoes)
        if entry.kind == "grant":
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
                if e.kind == "grant" and e.minor is not None and e.seq not in undone:
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
