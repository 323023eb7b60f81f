"""Questions an engine asks before it resolves an action, each answered with its rule."""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

from .._kernel.game import BaseGame
from ..domain import DiplomaticLevel, FootnoteKind, Status, Theater
from ..domain.marks import clause
from ..domain.units import UnitKind
from .deployment import force_specs

__all__ = [
    "Answer",
    "ForcePool",
    "Mission",
    "Named",
    "attack_costs_brps",
    "attrition_nationality",
    "force_pool",
    "garrison_may_assist",
    "geographic_restriction",
    "in_automatic_supply",
    "in_british_force_pool",
    "may_assist",
    "may_attack_from",
    "may_fly",
    "may_rebuild",
    "zoc_extends",
]


@frozen
class Answer:
    """A yes or no, the rule that decides it, and why."""

    value: bool
    rule: str
    reason: str

    def __bool__(self) -> bool:
        return self.value


@clause("82.83B")
def attack_costs_brps(game: BaseGame, owner: str) -> Answer:
    """82.83B: an independent minor's offensive operations cost no BRPs."""
    name = game.ruleset.resolve(owner)
    state = game.raw_state.minors.get(name)
    if state is not None and state.status is Status.INDEPENDENT:
        return Answer(False, "82.83B", f"{name} is independent: its attacks cost no BRPs")
    return Answer(True, "82.83B", f"{name} is not an independent minor")


@clause("82.32E")
def may_attack_from(game: BaseGame, unit_id: str) -> Answer:
    """82.32E: units may attack out of a minor whose hexes their side controls; 82.33: not
    out of one whose control was reversed, until they leave."""
    unit = game.unit(unit_id)
    state = game.raw_state.minors.get(unit.country)
    if state is None:
        return Answer(True, "82.32E", f"{unit.country} is not a minor country")
    side = _side(game, unit.owner)
    if any(d.side is side for d in state.deadlines) and unit.owner != state.name:
        return Answer(
            False,
            "82.33",
            f"control of {state.name} was reversed: {unit_id} may not attack out of it",
        )
    holding = state.standing
    if holding is not None and holding.level >= DiplomaticLevel.CONTROL:
        return Answer(True, "82.32E", f"attacks may be launched from controlled {state.name}")
    return Answer(True, "82.32E", f"nothing bars attacks out of {state.name}")


def in_automatic_supply(game: BaseGame, unit_id: str) -> Answer:
    """82.33: foreign units in a minor whose control was reversed are in at least partial
    supply until they must leave; 82.56: so are the major powers' units in a minor attacked
    by a power with units there, for the turn of the invasion."""
    unit = game.unit(unit_id)
    state = game.raw_state.minors.get(unit.country)
    side = _side(game, unit.owner)
    deadlines = [d for d in state.deadlines if d.side is side] if state is not None else []
    if deadlines:
        last = max(d.at for d in deadlines)
        return Answer(
            True,
            "82.33",
            f"{unit_id} is in automatic partial supply until the end of {last}",
        )
    if (
        state is not None
        and unit_id in state.invaded
        and state.invaded_at is not None
        and state.invaded_at.turn == game.clock.turn
    ):
        return Answer(
            True,
            "82.56",
            f"{unit_id} was in {state.name} when war was declared on "
            "it: in automatic partial supply for the turn of the invasion",
        )
    return Answer(False, "82.33", f"nothing gives {unit_id} automatic supply")


def _side(game: BaseGame, owner: str) -> object:
    rs = game.ruleset
    if owner in rs.majors:
        return rs.majors[owner].faction.side
    state = game.raw_state.minors.get(owner)
    if state is not None and state.major is not None:
        return rs.majors[state.major].faction.side
    return None


@frozen
class Named:
    """A name the rules give (a nationality, a force pool's owner), with its rule."""

    value: str
    rule: str
    reason: str


class Mission(StrEnum):
    """What an air or naval unit is asked to do (82.71, 82.72)."""

    INTERCEPT_AIR = "intercept_air"
    INTERCEPT_NAVAL = "intercept_naval"
    DEFENSIVE_AIR_SUPPORT = "defensive_air_support"
    AIR_TRANSPORT = "air_transport"
    ATTACK_SEA_SUPPLY = "attack_sea_supply"
    OTHER = "other"


def _newly_attacked(game: BaseGame, minor: str) -> str | None:
    """The attacker when it is now its player turn of the attack on `minor` (the first turn
    of the attack, 82.7), else None."""
    state = game.raw_state.minors.get(minor)
    if state is None or state.attacked_at is None or state.attacked_by is None:
        return None
    at, clock = state.attacked_at, game.clock
    if (at.turn, at.side) == (clock.turn, clock.side):
        return state.attacked_by
    return None


def _enemy_of(game: BaseGame, owner: str, attacker: str) -> bool:
    """82.72, 82.73: whether `owner` is an enemy major power: one at war with the attacker."""
    pair = (owner, attacker) if owner < attacker else (attacker, owner)
    return owner in game.ruleset.majors and pair in game.raw_state.wars


@clause("82.71")
def may_fly(game: BaseGame, unit_id: str, mission: Mission) -> Answer:
    """82.71: in the attacker's player turn, a newly attacked minor's air units may only
    intercept the attacker's air and naval missions and fly defensive air support; its naval
    units may only intercept naval missions; none attacks sea supply lines."""
    unit = game.unit(unit_id)
    attacker = _newly_attacked(game, unit.owner)
    if attacker is None:
        return Answer(True, "82.71", f"{unit.owner} is not in the first turn of an attack")
    allowed = {
        UnitKind.AIR: {
            Mission.INTERCEPT_AIR,
            Mission.INTERCEPT_NAVAL,
            Mission.DEFENSIVE_AIR_SUPPORT,
        },
        UnitKind.NAVAL: {Mission.INTERCEPT_NAVAL},
    }.get(unit.kind, set())
    if mission in allowed:
        return Answer(True, "82.71", f"{unit_id} may answer {attacker}'s attack: {mission.value}")
    return Answer(
        False,
        "82.71",
        f"in {attacker}'s turn of attack {unit_id} may only act "
        f"against that attack ({', '.join(sorted(m.value for m in allowed)) or 'no'} "
        "missions)",
    )


@clause("82.72")
def may_assist(game: BaseGame, unit_id: str, minor: str, mission: Mission) -> Answer:
    """82.72: in the attacker's player turn, only a major power already at war with the
    attacker helps a newly attacked minor, and only by intercepting naval activity."""
    unit = game.unit(unit_id)
    name = game.ruleset.minor(minor).name
    attacker = _newly_attacked(game, name)
    if attacker is None or unit.owner not in game.ruleset.majors:
        return Answer(True, "82.72", f"{name} is not in the first turn of an attack")
    if not _enemy_of(game, unit.owner, attacker):
        return Answer(False, "82.72", f"{unit.owner} is not at war with {attacker}: no help")
    if mission is Mission.INTERCEPT_NAVAL:
        return Answer(True, "82.72", f"{unit_id} may intercept {attacker}'s naval activity")
    return Answer(
        False,
        "82.72",
        f"in {attacker}'s turn of attack on {name}, {unit.owner}'s "
        "units help only by intercepting naval activity",
    )


@clause("82.73")
def zoc_extends(game: BaseGame, unit_id: str, minor: str, *, adjacent: bool) -> Answer:
    """82.73: in the attacker's player turn, an armor unit of a major at war with the attacker
    next to the newly attacked minor extends its zone into it (adjacency: the caller's)."""
    unit = game.unit(unit_id)
    name = game.ruleset.minor(minor).name
    attacker = _newly_attacked(game, name)
    enemy = attacker is not None and _enemy_of(game, unit.owner, attacker)
    if enemy and adjacent and unit.kind is UnitKind.ARMOR:
        return Answer(True, "82.73", f"{unit_id}'s zone of control extends into {name}")
    return Answer(False, "82.73", f"82.73 does not extend {unit_id}'s zone of control into {name}")


def garrison_may_assist(game: BaseGame, major: str, minor: str) -> Answer:
    """82.34: when a garrisoned minor associated with its garrison at the attack, the
    garrison's units inside and the garrisoning power's other units may assist it."""
    name = game.ruleset.minor(minor).name
    state = game.raw_state.minors[name]
    major = game.ruleset.major(major).name
    if state.status is Status.ASSOCIATED and state.major == major:
        return Answer(True, "82.34", f"{major} is {name}'s associate: its units may assist")
    return Answer(False, "82.34", f"{major} is not {name}'s garrisoning associate")


@clause("82.13C")
def attrition_nationality(game: BaseGame, unit_id: str) -> Named:
    """82.13C: Commonwealth units are separate nationalities for attrition losses."""
    unit = game.unit(unit_id)
    record = game.ruleset.minors.get(unit.owner)
    if record is not None and record.start_status is Status.COMMONWEALTH:
        return Named(unit.owner, "82.13C", f"{unit.owner}'s units take attrition as {unit.owner}")
    return Named(unit.owner, "82.13C", f"{unit_id} is {unit.owner}'s")


@clause("82.13D")
def in_british_force_pool(game: BaseGame, unit_id: str) -> Answer:
    """82.13D: Commonwealth units stay in the British force pool after a British surrender
    (what becomes of British units is rule 59.513, not given). The pool's power is the one
    the Commonwealth countries start tied to."""
    unit = game.unit(unit_id)
    rs = game.ruleset
    record = rs.minors.get(unit.owner)
    if record is not None and record.start_status is Status.COMMONWEALTH:
        return Answer(True, "82.13D", f"{unit.owner}'s units stay in the British force pool")
    pool = {m.start_major for m in rs.minors.values() if m.start_status is Status.COMMONWEALTH}
    if unit.owner in pool:
        out = unit.owner in game.raw_state.surrendered
        return Answer(
            not out,
            "82.13D",
            "a British unit" + (" of a surrendered Britain (59.513)" if out else ""),
        )
    return Answer(False, "82.13D", f"{unit_id} is {unit.owner}'s, not British")


@frozen
class ForcePool:
    """A minor's forces (82.6): the units it deploys and its partisans by faction."""

    minor: str
    units: tuple[tuple[str, int], ...]
    """(kind, factors) of each unit."""
    partisans: tuple[tuple[str, int, int], ...]
    """(faction column, automatic, maximum) of each partisan allowance."""
    rule: str
    reason: str


def force_pool(game: BaseGame, minor: str) -> ForcePool:
    """82.61-82.63: the minor's forces from the tables — none without armed forces (82.62),
    the `†` share for the current result (Ireland, Ukraine, 82.63), the `**` partisans."""
    rs = game.ruleset
    name = rs.minor(minor).name
    play = game.play()
    row = rs.force_row(name)
    if row is None:
        return ForcePool(name, (), (), "82.62", f"{name} has no armed forces")
    standing = game.raw_state.minors[name].standing
    dagger = {m for m, n in rs.force_footnotes.items() if n.kind is FootnoteKind.DEPENDS_ON_RESULT}
    share = None
    if dagger & set(row.row_marks) or dagger & set(row.marks.values()):
        result = standing.result if standing is not None else None
        share = rs.forces_by_result[name].share(result) if name in rs.forces_by_result else 0
    units = (
        [(kind, factors) for _, kind, factors in force_specs(play, name)]
        if rs.minors[name].armed_forces
        else []
    )
    if share is not None and dagger & set(row.row_marks):
        units = units[: int(len(units) * share)]
    partisans = []
    for column in ("partisans_ax", "partisans_wa", "partisans_ru"):
        cell = getattr(row, column)
        auto, most = cell.automatic, cell.maximum
        if share is not None and row.marks.get(column) in dagger:
            auto, most = int(auto * share), int(most * share)
        for note in rs.force_footnotes.values():
            if (
                note.kind is FootnoteKind.ANNUAL_PARTISANS
                and note.minor == name
                and note.column == column
            ):
                extra = max(0, game.clock.year - note.from_year + 1) * note.per_year
                auto, most = auto + extra, most + extra
        if most:
            partisans.append((column.removeprefix("partisans_"), auto, most))
    rule = "82.63" if share is not None and dagger & set(row.row_marks) else "82.61"
    return ForcePool(
        name, tuple(units), tuple(partisans), rule, f"{name}'s forces from the 82.61 table"
    )


@clause("82.94")
def may_rebuild(
    game: BaseGame,
    minor: str,
    *,
    hex_label: str | None = None,
    box: str | None = None,
    controlled: bool = False,
    supplied: bool = False,
    enemy_zoc: bool = False,
) -> Answer:
    """82.94: a Pacific minor's units are rebuilt in a controlled, supplied hex of the minor
    outside enemy zones of control (the caller's facts), or in the box of a Pacific
    Commonwealth country (Australia, India: 82.91A)."""
    rs = game.ruleset
    name = rs.minor(minor).name
    if box is not None:
        boxes = [
            n for n, m in rs.minors.items()
            if m.start_status is Status.COMMONWEALTH and m.theater is Theater.PACIFIC
        ]  # fmt: skip
        ok = box in boxes
        return Answer(
            ok, "82.94", f"the {box} box {'takes' if ok else 'does not take'} rebuilt units"
        )
    if hex_label is None or hex_label not in game.ruleset.minors[name].hexes:
        return Answer(False, "82.94", f"{hex_label!r} is not a hex of {name}")
    if not (controlled and supplied and not enemy_zoc):
        return Answer(
            False,
            "82.94",
            f"{hex_label} must be controlled, supplied and outside enemy zones of control",
        )
    return Answer(True, "82.94", f"{name}'s units may be rebuilt in {hex_label}")


@clause("82.95")
def geographic_restriction(game: BaseGame, unit_id: str) -> Answer:
    """82.95: where a Pacific minor's unit may go depends on its status (rules 71, 72, 84,
    85, not given). Reading: independent and associated minors' units stay home; an allied
    minor's go anywhere its major's may."""
    unit = game.unit(unit_id)
    record = game.ruleset.minors.get(unit.owner)
    if record is None or record.theater.value != "pacific":
        return Answer(False, "82.95", f"{unit_id} is no Pacific minor's unit")
    status = game.raw_state.minors[unit.owner].status
    if status is Status.ALLIED:
        return Answer(False, "82.95", f"{unit.owner} is allied: no restriction")
    return Answer(True, "82.95", f"{unit.owner} is {status.value}: its units stay in {unit.owner}")
