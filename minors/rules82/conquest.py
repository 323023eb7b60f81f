"""Conquest: the `conquer` command and the check at the end of each combat phase."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterator
from typing import Any, ClassVar

from attrs import frozen

from .._kernel.kind import Command, MajorName, MinorName
from .._kernel.rulebook import Play, Refusal, at_phase_end, candidates, check, handles, refuse, rule
from .._kernel.state import Minor
from ..domain import CommandKind, Side, Status
from ..domain.clock import Phase
from ..domain.events import UnitEliminated
from ..domain.units import GROUND
from ..ruleset.tables import Ruleset
from .diplomacy import deduct_all
from .machine import Trigger, fired
from .powers import enemies, side_of
from .sequence import advice, by_name, out_of_turn
from .survival import on_occupation
from .ties import TIED, set_status

__all__ = [
    "Conquer",
    "attack_memo",
    "attack_table",
    "attackers",
    "colonies_open_to",
    "conquer",
    "may_attack_without_declaration",
    "occupations",
    "vichy_colony",
]


@frozen
class Conquer(Command):
    """`by` has conquered `minor`."""

    name: ClassVar[str] = CommandKind.CONQUER
    minor: MinorName
    by: MajorName


def occupations(p: Play) -> frozenset[tuple[str, str]]:
    """(major, minor): the occupations 82.91D names (89.51), which need no war with the
    minor's owner: a Pacific alignment's partner taking the minor its row waits for."""
    return p.rs.derived(_occupations)


def colonies_open_to(p: Play) -> frozenset[str]:
    """82.41's exception (77.61): the powers that may attack Vichy colonies without a
    declaration (the tables name them on the minor whose colonies they are)."""
    return p.rs.derived(_colonies_open_to)


def _occupiers(rs: Ruleset, minor: str) -> tuple[str, ...]:
    return tuple(sorted(m for m, occupied in _occupations(rs) if occupied == minor))


def _colonizers(rs: Ruleset) -> tuple[str, ...]:
    return tuple(sorted(_colonies_open_to(rs)))


def _occupations(rs: Ruleset) -> frozenset[tuple[str, str]]:
    return frozenset((r.partner, r.occupied) for r in rs.alignments.values() if r.occupied)


def _colonies_open_to(rs: Ruleset) -> frozenset[str]:
    return frozenset(m for r in rs.minors.values() for m in r.colonies_open_to)


def may_attack_without_declaration(p: Play, major: str, minor: str) -> str | None:
    """The clause under which `major` may attack `minor` without (more) declaring war, or
    None: at war with it already, 82.42, or an exception of 82.41."""
    return attackers(p, minor).get(major)


def attackers(p: Play, minor: str) -> dict[str, str]:
    """Every major that may attack `minor` without (more) declaring war now, with the clause that
    lets it: at war with it already (82.41), at war with the major it is associated with, allied to
    or conquered by (82.42), a Vichy colony open to it (82.41's exception), an occupation 82.91D
    names. Worked out once per state of the minors and wars (`attack_table`)."""
    table = attack_table(p)
    found = table.get(minor)
    return found if found is not None else _attackers_into(p, minor, table)


def attack_memo(p: Play) -> dict[Any, Any]:
    """Where what reads who may attack whom is kept: it reads the minors, the wars (82.42)
    and the tables, while the rules it asks are rule 82's own (a variant's may read
    anything: then it is worked out again after every write)."""
    if p.rules.pristine or p.rules.as_written(vichy_colony, _through_its_major):
        return p.board.politics()
    return p.board.memo()


def attack_table(p: Play) -> dict[str, dict[str, str]]:
    """Where `attackers` keeps what it worked out (`attack_memo`)."""
    memo = attack_memo(p)
    table: dict[str, dict[str, str]] | None = memo.get("attackers")
    if table is None:
        table = memo["attackers"] = {}
    return table


def _attackers_into(p: Play, minor: str, table: dict[str, dict[str, str]]) -> dict[str, str]:
    state = p.board.minors[minor]
    found: dict[str, str] = {}
    for major in p.rs.derived(_occupiers, minor):  # the weakest reason first: stronger overwrite
        found[major] = "82.91D"
    for major in p.rs.derived(_colonizers):
        if vichy_colony(p, major, minor):
            found[major] = "82.41"
    for major in _through_its_major(p, state):
        found[major] = "82.42"
    for major in state.at_war_with:
        found[major] = "82.41"
    table[minor] = found
    return found


_TIED_TO_FIGHT = frozenset({Status.ASSOCIATED, Status.ALLIED, Status.CONQUERED})
"""82.42: a minor fought through its major (war on the major is war on it)."""


@rule("82.42", otherwise=())
def _through_its_major(p: Play, state: Minor) -> Collection[str]:
    """82.42: the powers at war with the major a minor is associated with, allied to or
    conquered by attack it without a declaration."""
    if state.status in _TIED_TO_FIGHT and state.major is not None:
        return enemies(p, state.major)
    return ()


@rule("82.41", otherwise=False, name="vichy_colony")
def vichy_colony(p: Play, major: str, minor: str) -> bool:
    """82.41's exception (77.61), a rule a rulebook may replace (`vichy_colony`): whether `minor` is
    a Vichy colony that Britain or the U.S. may attack without a declaration. By default none is."""
    return False


@check(Conquer, "K1", batched=True)
def _conquer_in_combat(p: Play, cmd: Conquer) -> list[Refusal]:
    return out_of_turn(p, cmd.by, Phase.COMBAT, "a conquest by {major} belongs", "by")


@check(Conquer, "K7")
def _conquerable(p: Play, cmd: Conquer) -> list[Refusal]:
    """K7: a minor is conquered while it is in play, and not twice by one power."""
    state = p.board.minors[cmd.minor]
    if not state.active:
        return [refuse(f"{cmd.minor} is not in play", minor=cmd.minor)]
    if state.status is Status.CONQUERED and state.major == cmd.by:
        return [refuse(f"{cmd.minor} is already conquered by {cmd.by}", minor=cmd.minor)]
    return []


@check(Conquer, "K2", batched=True)
def _conqueror_in_the_war(p: Play, cmd: Conquer) -> list[Refusal]:
    if cmd.by not in p.board.surrendered:
        return []
    return [refuse(f"{cmd.by} has surrendered", by=cmd.by)]


def _may_conquer(p: Play, by: str, minor: str) -> bool:
    """82.41: `by` is at war with `minor`, or may attack it without a declaration (or
    holds it already)."""
    state = p.board.minors[minor]
    return (state.status is Status.CONQUERED and state.major == by) or by in attackers(p, minor)


@check(Conquer, "82.41")
def _war_first(p: Play, cmd: Conquer) -> list[Refusal]:
    """82.41: a minor is attacked only after a declaration of war, unless 82.42 or an
    exception applies."""
    if _may_conquer(p, cmd.by, cmd.minor):
        return []
    message = lambda: f"not at war with {cmd.minor} ({advice(p, cmd.by, cmd.minor)})"  # noqa: E731
    return [refuse(message, by=cmd.by, minor=cmd.minor)]


@check(Conquer, "K5")
def _holds_the_capital(p: Play, cmd: Conquer) -> list[Refusal]:
    """When the map is known — units of major powers in the minor carry hexes — the
    conqueror's ground units must hold its capital, or its key hexes (Spain: Madrid and
    Tangiers). Without map data the command is taken as the engine's word."""
    units = p.board.units_in(cmd.minor)
    if not any(u.hex and u.owner in p.rs.majors for u in units):
        return []
    held = {u.hex for u in units if u.owner == cmd.by and u.kind in GROUND}
    missing = [h for h in p.rs.minors[cmd.minor].conquest_hexes if h not in held]
    if not missing:
        return []
    message = (
        f"{cmd.by} holds no ground unit in {', '.join(missing)}: {cmd.minor} is not conquered yet"
    )
    return [refuse(message, hexes=missing)]


@handles(Conquer)
def _conquer(p: Play, cmd: Conquer) -> None:
    conquer(p, cmd.minor, cmd.by, f"{cmd.by} conquers {cmd.minor}")


@functools.lru_cache(maxsize=1 << 10)
def _conquests_by(by: str, minors: tuple[str, ...]) -> tuple[Conquer, ...]:
    """`by`'s conquest of each of `minors`, made once: commands are immutable."""
    return tuple(Conquer(minor, by) for minor in minors)


@candidates(Conquer)
def _conquests(p: Play) -> Iterator[tuple[Conquer, ...]]:
    """Each major power's conquest of each minor it may attack (the minors 82.41, when in
    force, refuses left out: worked out once per state of the minors and wars), a batch per
    major (K1 and K2 read only the conqueror); a major K1 or K2 refuses is left out whole."""
    minors = tuple(p.rs.minors)
    for major in p.rs.majors:
        batch = _conquests_by(major, minors)
        if p.rules.refuses(_conquer_in_combat, p, batch[0]) or p.rules.refuses(
            _conqueror_in_the_war, p, batch[0]
        ):
            continue
        memo = attack_memo(p)
        found: tuple[Conquer, ...] | None = memo.get(("conquests", major))
        if found is None:
            found = memo[("conquests", major)] = tuple(
                c for c in batch if not p.rules.refuses(_war_first, p, c)
            )
        yield found


def conquer(p: Play, minor: str, by: str, cause: str) -> None:
    """The minor is conquered: its units are removed wherever they are, it is at war with no
    one, and BRPs held from it by another power are deducted (82.22)."""
    state = p.board.minors[minor]
    _deduct_others(p, minor, by)
    dest = fired(state.status, Trigger.CONQUER)
    assert dest is not None, state.status
    for unit in sorted(p.board.units_of(minor), key=lambda u: u.id):  # wherever they stand
        p.board.drop_unit(unit.id, "eliminated")
        p.emit(UnitEliminated, unit.id, "82.11G", f"{minor} is conquered")
    set_status(
        p, state, dest, by, "82.11G", cause,
        direct_wars=(), pending=None, standing=None, deadlines=(),
    )  # fmt: skip
    on_occupation(p, minor)


@rule("82.22")
def _deduct_others(p: Play, minor: str, by: str) -> None:
    """82.22: conquest by another power deducts, at its prorated value now, what a power
    drew from the minor's BRPs."""
    deduct_all(p, [g for g in p.board.active_grants(minor) if g.major != by], "82.22")


_CONQUERABLE = frozenset({Status.INDEPENDENT, *TIED})


@at_phase_end(Phase.COMBAT)
@rule("K5")
def _capitals_fall(p: Play, side: Side) -> None:
    """At the end of a side's combat phase, a minor whose capital (or every key hex) is held
    by ground units of one major of that side at war with it is conquered (public rule)."""
    for name in by_name(p):
        if not p.board.where.get(name):
            continue  # no unit holds a hex of it
        state = p.board.minors[name]
        if state.status not in _CONQUERABLE or not state.at_war_with:
            continue
        hexes = p.rs.minors[name].conquest_hexes
        if not hexes:
            continue
        holders: set[str] = set()
        defended = False
        for unit in p.board.units_in(name):
            if unit.hex in hexes and unit.kind in GROUND:
                if unit.owner in state.at_war_with and side_of(p, unit.owner) is side:
                    holders.add(unit.owner)
                else:
                    defended = True
        if defended or len(holders) != 1:
            continue
        (major,) = holders
        held = {u.hex for u in p.board.units_in(name) if u.owner == major and u.kind in GROUND}
        if all(h in held for h in hexes):
            conquer(p, name, major, f"{major} holds {', '.join(hexes)} at the end of combat")
