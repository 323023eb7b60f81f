"""Minors tied to a major share its wars (82.12, 82.13, 82.42, 82.93): their status, who
they are at war with, and the clause by which a war on them is made on their major."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .._kernel.rulebook import Play, at_start, rule
from .._kernel.state import Minor, MinorRow
from ..domain import Status, Theater
from ..domain.events import StatusChanged, WarBegan, WarEnded
from ..ruleset.tables import Ruleset
from .powers import enemies, faction_of
from .sequence import by_name

__all__ = [
    "TIED",
    "derive_wars",
    "neutral_major",
    "refresh_wars",
    "set_status",
    "tie_rule",
    "wars_of",
]

TIED = frozenset({Status.ASSOCIATED, Status.ALLIED, Status.COLONY, Status.COMMONWEALTH})
"""Statuses that tie a minor to its major's wars (82.12, 82.93)."""


def tie_rule(rs: Ruleset, state: Minor) -> str | None:
    """The clause by which a minor shares its major's wars, so that war is made on the major
    (82.12 colonies, 82.13 the Commonwealth, 82.93 Pacific minors, 82.42 associates, allies
    and conquests); None for a minor that is not tied."""
    if state.status is Status.CONQUERED:
        return "82.42"
    if state.status not in TIED:
        return None
    if state.status is Status.COMMONWEALTH:
        return "82.13"
    if rs.minors[state.name].theater is Theater.PACIFIC:
        return "82.93"
    return "82.12" if state.status is Status.COLONY else "82.42"


def derive_wars(
    p: Play, status: Status, major: str | None, direct: tuple[str, ...]
) -> tuple[str, ...]:
    """Who a minor of `status` tied to `major` is at war with: its own wars, and its
    major's if tied to it; a conquered minor with no one."""
    if status is Status.CONQUERED:
        return ()
    if status not in TIED or major is None:
        return direct  # kept sorted and unique where it is written
    wars = set(direct)
    wars.update(enemies(p, major))
    wars.discard(major)
    return tuple(sorted(wars))


def wars_of(p: Play, state: Minor) -> tuple[str, ...]:
    """Who a minor is at war with: its own wars, and its major's if tied to it."""
    return derive_wars(p, state.status, state.major, state.direct_wars)


def set_status(
    p: Play,
    state: Minor,
    status: Status,
    major: str | None,
    clause: str,
    cause: str,
    **changes: Any,
) -> MinorRow:
    """Change a minor's status and major (and other fields), with its event, and rederive
    its wars (`state` is the minor's row or record as read). Returns the row."""
    direct = changes.get("direct_wars", state.direct_wars)
    wars = derive_wars(p, status, major, direct)
    if state.status is not status or state.major != major:
        p.emit(StatusChanged, state.name, state.status, status, major, clause, cause)
    return p.board.update(state.name, status=status, major=major, at_war_with=wars, **changes)


def neutral_major(p: Play, major: str) -> bool:
    """82.81B: not at war with any major power of an opposing faction."""
    own = faction_of(p, major)
    return not any(faction_of(p, e) is not own for e in enemies(p, major))


@rule("82.12")
def refresh_wars(p: Play, clause: str = "82.12", majors: Collection[str] | None = None) -> None:
    """Rederive the minors' wars after wars between majors began or ended: of every minor,
    or (`majors`) of those tied to the majors whose enemies changed (the others' wars are
    their own, which no war between majors changes)."""
    foes: dict[str, list[str]] = {}
    names = (
        p.rs.minors  # table order, whatever order the dict was built in
        if majors is None
        else [n for n in p.rs.minors if p.board.minors[n].major in majors]
    )
    for name in names:
        state = p.board.minors[name]
        major = state.major
        if major is not None and state.status in TIED:
            found = foes.get(major)
            if found is None:
                found = foes[major] = enemies(p, major)
            wars = tuple(sorted({*state.direct_wars, *found} - {major}))
        else:
            wars = wars_of(p, state)
        old = state.at_war_with
        if wars == old:
            continue
        for enemy in wars:  # both sorted: the new ones in order
            if enemy not in old:
                p.emit(_shared, enemy, name, clause, major)
        for enemy in old:
            if enemy not in wars:
                p.emit(WarEnded, enemy, name, clause, "its major left the war")
        p.board.update(name, at_war_with=wars)


def _shared(enemy: str, minor: str, rule: str, major: str | None) -> WarBegan:
    """The war a tied minor shares with its major (its cause made when read)."""
    return WarBegan(enemy, minor, rule, f"{minor} shares {major}'s wars")


@at_start
@rule("82.12")
def start_wars(p: Play) -> None:
    """82.12: at the start a tied minor is at war through its major: the wars the start
    table gives it are its major's, not its own."""
    for name in by_name(p):
        state = p.board.minors[name]
        if state.status in TIED:
            wars = derive_wars(p, state.status, state.major, ())
            p.board.update(
                name, direct_wars=(), attacked_by=None, attacked_at=None, at_war_with=wars
            )
