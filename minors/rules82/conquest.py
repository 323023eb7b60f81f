"""Conquest: the `conquer` command and the check at the end of each combat phase."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from .._kernel.effects import UnitEliminated
from .._kernel.kind import Command, MajorName, MinorName
from .._kernel.rulebook import (
    Batch,
    Violation,
    as_written,
    at_phase_end,
    candidates,
    check,
    effect,
    handles,
)
from .._kernel.state import Minor
from ..domain import CommandKind, Side, Status
from ..domain.clock import Phase
from ..domain.units import GROUND
from ..ruleset.tables import Ruleset
from .diplomacy import deduct_all
from .machine import Trigger, fired
from .sequence import by_name, in_phase, in_turn, majors_in_turn, minors_in_play, out_of_turn
from .survival import on_occupation
from .ties import TIED, set_status

if TYPE_CHECKING:
    from .._kernel.tx import Tx

__all__ = [
    "Conquer",
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


def occupations(tx: Tx) -> frozenset[tuple[str, str]]:
    """(major, minor): the occupations 82.91D names (89.51), which need no war with the
    minor's owner: a Pacific alignment's partner taking the minor its row waits for."""
    return tx.rs.derived(_occupations)


def colonies_open_to(tx: Tx) -> frozenset[str]:
    """82.41's exception (77.61): the powers that may attack Vichy colonies without a
    declaration (the tables name them on the minor whose colonies they are)."""
    return tx.rs.derived(_colonies_open_to)


def _occupiers(rs: Ruleset, minor: str) -> tuple[str, ...]:
    return tuple(sorted(m for m, occupied in _occupations(rs) if occupied == minor))


def _colonizers(rs: Ruleset) -> tuple[str, ...]:
    return tuple(sorted(_colonies_open_to(rs)))


def _occupations(rs: Ruleset) -> frozenset[tuple[str, str]]:
    return frozenset((r.partner, r.occupied) for r in rs.alignments.values() if r.occupied)


def _colonies_open_to(rs: Ruleset) -> frozenset[str]:
    return frozenset(m for r in rs.minors.values() for m in r.colonies_open_to)


def may_attack_without_declaration(tx: Tx, major: str, minor: str) -> str | None:
    """The clause under which `major` may attack `minor` without (more) declaring war, or
    None: at war with it already, 82.42, or an exception of 82.41."""
    return attackers(tx, minor).get(major)


def attackers(tx: Tx, minor: str) -> dict[str, str]:
    """Every major that may attack `minor` without (more) declaring war now, with the
    clause that lets it: at war with it already (82.41), at war with the major it is
    associated with, allied to or conquered by (82.42), a Vichy colony open to it (82.41's
    exception), an occupation 82.91D names. Worked out once per state of the minors and
    wars (`attack_table`)."""
    table = attack_table(tx)
    found = table.get(minor)
    return found if found is not None else _attackers_into(tx, minor, table)


def attack_table(tx: Tx) -> dict[str, dict[str, str]]:
    """Where `attackers` keeps what it worked out: it reads the minors, the wars (82.42)
    and the tables, while the Vichy rule is rule 82's own (a variant's may read anything:
    then it is worked out again after every write)."""
    memo = tx.memo_on("minors", "wars") if as_written(tx, vichy_colony) else tx.memo()
    table: dict[str, dict[str, str]] | None = memo.get("attackers")
    if table is None:
        table = memo["attackers"] = {}
    return table


def _attackers_into(tx: Tx, minor: str, table: dict[str, dict[str, str]]) -> dict[str, str]:
    state = tx.minors[minor]
    found: dict[str, str] = {}
    for major in tx.rs.derived(_occupiers, minor):  # the weakest reason first: stronger overwrite
        found[major] = "82.91D"
    for major in tx.rs.derived(_colonizers):
        if vichy_colony(tx, major, minor):
            found[major] = "82.41"
    for major in _through_its_major(tx, state):
        found[major] = "82.42"
    for major in state.at_war_with:
        found[major] = "82.41"
    table[minor] = found
    return found


_TIED_TO_FIGHT = frozenset({Status.ASSOCIATED, Status.ALLIED, Status.CONQUERED})
"""82.42: a minor fought through its major (war on the major is war on it)."""


@effect("82.42", otherwise=())
def _through_its_major(tx: Tx, state: Minor) -> Collection[str]:
    """82.42: the powers at war with the major a minor is associated with, allied to or
    conquered by attack it without a declaration."""
    if state.status in _TIED_TO_FIGHT and state.major is not None:
        return tx.enemies(state.major)
    return ()


@effect("82.41", otherwise=False, name="vichy_colony")
def vichy_colony(tx: Tx, major: str, minor: str) -> bool:
    """82.41's exception (77.61), a rule a rulebook may replace (`vichy_colony`): whether
    `minor` is a Vichy colony that Britain or the U.S. may attack without a declaration.
    By default none is."""
    return False


def _in_combat(tx: Tx, cmd: Conquer) -> bool:
    return in_turn(tx, cmd.by, Phase.COMBAT)


@check(Conquer, "K1", batched=True, passes=_in_combat)
def _conquer_in_combat(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    yield from out_of_turn(tx, cmd.by, Phase.COMBAT, "a conquest by {major} belongs", "by")


def _unconquerable(tx: Tx, cmd: Conquer) -> str | None:
    """K7, K2: why `cmd.minor` cannot be conquered by `cmd.by` now, or None."""
    state = tx.minor(cmd.minor)
    if not state.active:
        return "inactive"
    if state.status is Status.CONQUERED and state.major == cmd.by:
        return "conquered"
    if cmd.by in tx.surrendered:
        return "surrendered"
    return None


def _conquerable_ok(tx: Tx, cmd: Conquer) -> bool:
    return _unconquerable(tx, cmd) is None


@check(Conquer, "K7", passes=_conquerable_ok)
def _conquerable(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    why = _unconquerable(tx, cmd)
    if why == "inactive":
        yield Violation("K7", f"{cmd.minor} is not in play", {"minor": cmd.minor})
    elif why == "conquered":
        yield Violation("K7", f"{cmd.minor} is already conquered by {cmd.by}", {"minor": cmd.minor})
    elif why == "surrendered":
        yield Violation("K2", f"{cmd.by} has surrendered", {"by": cmd.by})


def _war_first_ok(tx: Tx, cmd: Conquer) -> bool:
    return _may_conquer(tx, cmd.by, cmd.minor)


def _may_conquer(
    tx: Tx, by: str, minor: str, table: dict[str, dict[str, str]] | None = None
) -> bool:
    """82.41: `by` is at war with `minor`, or may attack it without a declaration (or
    holds it already); `table` is `attack_table(tx)` when the caller has it."""
    state = tx.minors[minor]
    if state.status is Status.CONQUERED and state.major == by:
        return True
    if table is None:
        return by in attackers(tx, minor)
    found = table.get(minor)
    return by in (found if found is not None else _attackers_into(tx, minor, table))


@check(Conquer, "82.41", passes=_war_first_ok)
def _war_first(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    """82.41: a minor is attacked only after a declaration of war, unless 82.42 or an
    exception applies."""
    if not _war_first_ok(tx, cmd):
        yield Violation(
            "82.41",
            f"{cmd.by} is not at war with {cmd.minor}: declare war on it first",
            {"by": cmd.by, "minor": cmd.minor},
        )


def _missing_hexes(tx: Tx, cmd: Conquer) -> list[str]:
    """K5: the capital or key hexes the conqueror's ground units do not hold, when the map
    is known (units of major powers in the minor carry hexes); none without map data."""
    units = tx.units_in(cmd.minor)
    if not any(u.hex and u.owner in tx.rs.majors for u in units):
        return []
    held = {u.hex for u in units if u.owner == cmd.by and u.kind in GROUND}
    return [h for h in tx.rs.minors[cmd.minor].conquest_hexes if h not in held]


def _holds_ok(tx: Tx, cmd: Conquer) -> bool:
    return not tx.occupied(cmd.minor) or not _missing_hexes(tx, cmd)


@check(Conquer, "K5", passes=_holds_ok)
def _holds_the_capital(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    """When the map is known — units of major powers in the minor carry hexes — the
    conqueror's ground units must hold its capital, or its key hexes (Spain: Madrid and
    Tangiers). Without map data the command is taken as the engine's word."""
    missing = _missing_hexes(tx, cmd)
    if missing:
        yield Violation(
            "K5",
            f"{cmd.by} holds no ground unit in {', '.join(missing)}: "
            f"{cmd.minor} is not conquered yet",
            {"hexes": missing},
        )


@handles(Conquer)
def _conquer(tx: Tx, cmd: Conquer) -> None:
    conquer(tx, cmd.minor, cmd.by, f"{cmd.by} conquers {cmd.minor}")


@candidates(Conquer)
def _conquests(tx: Tx, gated: bool) -> Iterator[Batch[Conquer]]:
    """Each major of the player turn on each minor in play, a batch per major (K1 reads
    only the conqueror). Gated, it vouches for K1 (the combat phase, by the majors of the
    player turn) and 82.41 (no war, no exception: skipped) while they are in force."""
    if in_phase(tx, gated, _conquer_in_combat, Phase.COMBAT):
        targets = minors_in_play(tx)
        verified: frozenset[Callable[..., object]] = (
            frozenset(c for c in (_conquer_in_combat, _war_first) if tx.enforces(c))
            if gated
            else frozenset()
        )
        warred = _war_first in verified
        table = attack_table(tx)
        # who may be attacked reads the minors and the wars: it lasts while they do
        memo = tx.politics() if as_written(tx, vichy_colony) else tx.memo()
        for major in majors_in_turn(tx):
            found: tuple[Conquer, ...] | None = memo.get(("conquests", major, warred))
            if found is None:
                found = memo[("conquests", major, warred)] = tuple(
                    _conquest(t, major)
                    for t in targets
                    if not warred or _may_conquer(tx, major, t, table)
                )
            yield Batch(found, None, verified)


@functools.lru_cache(maxsize=1 << 12)
def _conquest(minor: str, by: str) -> Conquer:
    """One conquest per (minor, conqueror), reused: commands are immutable."""
    return Conquer(minor, by)


def conquer(tx: Tx, minor: str, by: str, cause: str) -> None:
    """The minor is conquered: its units are removed wherever they are, it is at war with no
    one, and BRPs held from it by another power are deducted (82.22)."""
    state = tx.minor(minor)
    _deduct_others(tx, minor, by)
    dest = fired(state.status, Trigger.CONQUER)
    assert dest is not None, state.status
    for unit in sorted(tx.units_of(minor), key=lambda u: u.id):  # wherever they stand
        tx.eliminate(unit.id)
        tx.emit(UnitEliminated, unit.id, "82.11G", f"{minor} is conquered")
    set_status(
        tx, state, dest, by, "82.11G", cause,
        direct_wars=(), pending=None, standing=None, deadlines=(),
    )  # fmt: skip
    on_occupation(tx, minor)


@effect("82.22")
def _deduct_others(tx: Tx, minor: str, by: str) -> None:
    """82.22: conquest by another power deducts, at its prorated value now, what a power
    drew from the minor's BRPs."""
    deduct_all(tx, [g for g in tx.active_grants(minor) if g.major != by], "82.22")


_CONQUERABLE = frozenset({Status.INDEPENDENT, *TIED})


@at_phase_end(Phase.COMBAT)
@effect("K5")
def _capitals_fall(tx: Tx, side: Side) -> None:
    """At the end of a side's combat phase, a minor whose capital (or every key hex) is held
    by ground units of one major of that side at war with it is conquered (public rule)."""
    for name in by_name(tx):
        if not tx.where.get(name):
            continue  # no unit holds a hex of it
        state = tx.minors[name]
        if state.status not in _CONQUERABLE or not state.at_war_with:
            continue
        hexes = tx.rs.minors[name].conquest_hexes
        if not hexes:
            continue
        holders: set[str] = set()
        defended = False
        for unit in tx.units_in(name):
            if unit.hex in hexes and unit.kind in GROUND:
                if unit.owner in state.at_war_with and tx.side(unit.owner) is side:
                    holders.add(unit.owner)
                else:
                    defended = True
        if defended or len(holders) != 1:
            continue
        (major,) = holders
        held = {u.hex for u in tx.units_in(name) if u.owner == major and u.kind in GROUND}
        if all(h in held for h in hexes):
            conquer(tx, name, major, f"{major} holds {', '.join(hexes)} at the end of combat")
