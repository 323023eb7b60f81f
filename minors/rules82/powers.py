"""The major powers as rule 82 reads them: factions and sides (from the tables), who is
allied with whom, which side a unit fights for, and war between major powers."""

from __future__ import annotations

from .._kernel.rulebook import Play
from ..domain import Faction, Side
from ..domain.events import WarBegan
from ..domain.units import Unit
from ..ruleset.tables import Ruleset

__all__ = [
    "add_war",
    "allies",
    "at_war",
    "enemies",
    "faction_of",
    "owner_side",
    "side_members",
    "side_of",
]


def faction_of(p: Play, major: str) -> Faction:
    """The faction of a major power."""
    return p.rs.majors[major].faction


def side_of(p: Play, major: str) -> Side:
    """The side of a major power (its faction's)."""
    found: Side = p.rs.side_of[major]
    return found


def allies(p: Play, major: str) -> list[str]:
    """`major` and the other major powers of its faction."""
    return list(p.rs.faction_members[p.rs.majors[major].faction])


def side_members(p: Play, of: Side) -> tuple[str, ...]:
    """The major powers of side `of`, in table order."""
    return p.rs.derived(_side_members, of)


def _side_members(rs: Ruleset, of: Side) -> tuple[str, ...]:
    return tuple(m for m in rs.majors if rs.side_of[m] is of)


def owner_side(p: Play, unit: Unit) -> Side | None:
    """The side a unit fights for: its major's, or for a minor's unit its major's."""
    if unit.owner in p.rs.majors:
        return side_of(p, unit.owner)
    state = p.board.minors.get(unit.owner)
    if state is not None and state.major is not None:
        return side_of(p, state.major)
    return None


def add_war(p: Play, a: str, b: str, rule: str, cause: str) -> None:
    """Major powers `a` and `b` are at war from now."""
    p.board.write("wars", (a, b) if a < b else (b, a), p.board.clock)
    p.emit(WarBegan, a, b, rule, cause)


def at_war(p: Play, a: str, b: str) -> bool:
    """Whether two major powers are at war (the board's wars hold the sorted pairs)."""
    return ((a, b) if a < b else (b, a)) in p.board.wars


def enemies(p: Play, major: str) -> list[str]:
    """The major powers at war with `major`, sorted (worked out once per state)."""
    memo = p.board.memo()
    found: list[str] | None = memo.get(("enemies", major))
    if found is None:
        wars = p.board.wars
        found = memo[("enemies", major)] = sorted(
            {b if a == major else a for a, b in wars if major in (a, b)}
        )
    return list(found)
