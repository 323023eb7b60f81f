"""Conquest: the `conquer` command and the check at the end of each combat phase."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from .._kernel.effects import UnitEliminated
from .._kernel.kind import Command, MajorName, MinorName
from .._kernel.rulebook import Violation, at_phase_end, candidates, check, effect, handles
from .._kernel.state import evolve
from ..domain import CommandKind, Side, Status
from ..domain.clock import Phase
from ..domain.units import GROUND
from ..ruleset.tables import Ruleset
from .diplomacy import deduct_all
from .machine import Trigger, fire
from .sequence import in_phase, majors_in_turn, minors_in_play, out_of_turn
from .survival import on_occupation
from .ties import TIED, set_status

if TYPE_CHECKING:
    from .._kernel.tx import Tx

__all__ = [
    "Conquer",
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


def _occupations(rs: Ruleset) -> frozenset[tuple[str, str]]:
    return frozenset((r.partner, r.occupied) for r in rs.alignments.values() if r.occupied)


def _colonies_open_to(rs: Ruleset) -> frozenset[str]:
    return frozenset(m for r in rs.minors.values() for m in r.colonies_open_to)


def may_attack_without_declaration(tx: Tx, major: str, minor: str) -> str | None:
    """The clause under which `major` may attack `minor` without (more) declaring war, or
    None: at war with it already, 82.42, or an exception of 82.41."""
    state = tx.minor(minor)
    if major in state.at_war_with:
        return "82.41"
    if (
        state.status in (Status.ASSOCIATED, Status.ALLIED, Status.CONQUERED)
        and state.major is not None
        and tx.at_war(major, state.major)
    ):
        return "82.42"
    if major in colonies_open_to(tx) and vichy_colony(tx, major, minor):
        return "82.41"
    if (major, minor) in occupations(tx):
        return "82.91D"
    return None


@effect("82.41", otherwise=False, name="vichy_colony")
def vichy_colony(tx: Tx, major: str, minor: str) -> bool:
    """82.41's exception (77.61), a rule a rulebook may replace (`vichy_colony`): whether
    `minor` is a Vichy colony that Britain or the U.S. may attack without a declaration.
    By default none is."""
    return False


@check(Conquer, "K1")
def _conquer_in_combat(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    yield from out_of_turn(tx, cmd.by, Phase.COMBAT, "a conquest by {major} belongs", "by")


@check(Conquer, "K7")
def _conquerable(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    state = tx.minor(cmd.minor)
    if not state.active:
        yield Violation("K7", f"{cmd.minor} is not in play", {"minor": cmd.minor})
    elif state.status is Status.CONQUERED and state.major == cmd.by:
        yield Violation("K7", f"{cmd.minor} is already conquered by {cmd.by}", {"minor": cmd.minor})
    elif cmd.by in tx.surrendered:
        yield Violation("K2", f"{cmd.by} has surrendered", {"by": cmd.by})


@check(Conquer, "82.41")
def _war_first(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    """82.41: a minor is attacked only after a declaration of war, unless 82.42 or an
    exception applies."""
    state = tx.minor(cmd.minor)
    if state.status is Status.CONQUERED and state.major == cmd.by:
        return
    if may_attack_without_declaration(tx, cmd.by, cmd.minor) is None:
        yield Violation(
            "82.41",
            f"{cmd.by} is not at war with {cmd.minor}: declare war on it first",
            {"by": cmd.by, "minor": cmd.minor},
        )


@check(Conquer, "K5")
def _holds_the_capital(tx: Tx, cmd: Conquer) -> Iterator[Violation]:
    """When the map is known — units of major powers in the minor carry hexes — the
    conqueror's ground units must hold its capital, or its key hexes (Spain: Madrid and
    Tangiers). Without map data the command is taken as the engine's word."""
    units = list(tx.units_in(cmd.minor))
    if not any(u.hex and u.owner in tx.rs.majors for u in units):
        return
    held = {u.hex for u in units if u.owner == cmd.by and u.kind in GROUND}
    missing = [h for h in tx.rs.minors[cmd.minor].conquest_hexes if h not in held]
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
def _conquests(tx: Tx, gated: bool) -> Iterator[Conquer]:
    if in_phase(tx, gated, Phase.COMBAT):
        targets = minors_in_play(tx)
        for major in majors_in_turn(tx):
            for target in targets:
                yield Conquer(target, major)


def conquer(tx: Tx, minor: str, by: str, cause: str) -> None:
    """The minor is conquered: its units are removed wherever they are, it is at war with no
    one, and BRPs held from it by another power are deducted (82.22)."""
    state = tx.minor(minor)
    _deduct_others(tx, minor, by)
    dest = fire(state.status, Trigger.CONQUER)
    assert dest is not None, state.status
    for unit in sorted(tx.units_of(minor), key=lambda u: u.id):  # wherever they stand
        tx.eliminate(unit.id)
        tx.effects.append(UnitEliminated(unit.id, "82.11G", f"{minor} is conquered"))
    state = evolve(state, direct_wars=(), pending=None, standing=None, deadlines=())
    set_status(tx, state, dest, by, "82.11G", cause)
    on_occupation(tx, minor)


@effect("82.22")
def _deduct_others(tx: Tx, minor: str, by: str) -> None:
    """82.22: conquest by another power deducts, at its prorated value now, what a power
    drew from the minor's BRPs."""
    deduct_all(tx, [g for g in tx.active_grants(minor) if g.major != by], "82.22")


@at_phase_end(Phase.COMBAT)
@effect("K5")
def _capitals_fall(tx: Tx, side: Side) -> None:
    """At the end of a side's combat phase, a minor whose capital (or every key hex) is held
    by ground units of one major of that side at war with it is conquered (public rule)."""
    for name in sorted(tx.minors):
        state = tx.minors[name]
        if state.status not in (Status.INDEPENDENT, *TIED) or not state.at_war_with:
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
