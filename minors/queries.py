"""Questions an engine asks before it resolves an action, each answered with its rule."""

from __future__ import annotations

from attrs import frozen

from .domain import DiplomaticLevel, Status
from .game import Game

__all__ = ["Answer", "attack_costs_brps", "in_automatic_supply", "may_attack_from"]


@frozen
class Answer:
    """A yes or no, the rule that decides it, and why."""

    value: bool
    rule: str
    reason: str

    def __bool__(self) -> bool:
        return self.value


def attack_costs_brps(game: Game, owner: str) -> Answer:
    """82.83B: an independent minor's offensive operations cost no BRPs."""
    name = game.ruleset.resolve(owner)
    state = game.raw_state.minors.get(name)
    if state is not None and state.status is Status.INDEPENDENT:
        return Answer(False, "82.83B", f"{name} is independent: its attacks cost no BRPs")
    return Answer(True, "82.83B", f"{name} is not an independent minor")


def may_attack_from(game: Game, unit_id: str) -> Answer:
    """82.32E: units may attack out of a minor whose hexes their side controls; 82.33: not
    out of one whose control was reversed, until they leave."""
    unit = game.unit(unit_id)
    state = game.raw_state.minors.get(unit.country)
    if state is None:
        return Answer(True, "82.32E", f"{unit.country} is not a minor country")
    side = _side(game, unit.owner)
    if state.deadline is not None and state.deadline.side is side and unit.owner != state.name:
        return Answer(
            False,
            "82.33",
            f"control of {state.name} was reversed: {unit_id} may not attack out of it",
        )
    holding = state.standing
    if holding is not None and holding.level >= DiplomaticLevel.CONTROL:
        return Answer(True, "82.32E", f"attacks may be launched from controlled {state.name}")
    return Answer(True, "82.32E", f"nothing bars attacks out of {state.name}")


def in_automatic_supply(game: Game, unit_id: str) -> Answer:
    """82.33: foreign units in a minor whose control was reversed are in at least partial
    supply until they must leave."""
    unit = game.unit(unit_id)
    state = game.raw_state.minors.get(unit.country)
    side = _side(game, unit.owner)
    if state is not None and state.deadline is not None and state.deadline.side is side:
        return Answer(
            True,
            "82.33",
            f"{unit_id} is in automatic partial supply until the end of {state.deadline.at}",
        )
    return Answer(False, "82.33", f"no reversal gives {unit_id} automatic supply")


def _side(game: Game, owner: str) -> object:
    rs = game.ruleset
    if owner in rs.majors:
        return rs.majors[owner].faction.side
    state = game.raw_state.minors.get(owner)
    if state is not None and state.major is not None:
        return rs.majors[state.major].faction.side
    return None
