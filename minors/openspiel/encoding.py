"""A fixed integer encoding of a rulebook's commands, for OpenSpiel's actions: action 0 is
the pass, every other a command kind's block of mixed-radix numbers, each the same command
in every position (docs/embedding.md, "OpenSpiel")."""

from __future__ import annotations

import bisect
import math
import typing
from typing import Any

import attrs
from attrs import frozen

from minors import (
    Command,
    CommandError,
    CountryName,
    Deploy,
    DiplomaticResult,
    Game,
    MajorName,
    MinorName,
    Moment,
    Side,
    UnitIds,
)
from minors.rules82.deployment import force_specs

__all__ = ["PASS", "Block", "Encoding", "unit_ids"]

PASS = 0
"""The action that ends the phase: the clock advances to the next one."""

_DOMAIN_OF: dict[Any, str] = {
    MajorName: "major",
    MinorName: "minor",
    CountryName: "country",
    UnitIds: "unit",
}
"""What a field's annotation names, as the encoding's domain of it."""

_GIVEN = {
    (DiplomaticResult, "result"): "the outcome of the chance node after the attempt",
    (Deploy, "placements"): "the default set-up of the deployment due now",
}
"""Fields that are no digit of the action: filled in when the action is applied."""


@frozen
class Block:
    """The actions of one command kind: `start` plus a mixed-radix number whose digits are
    the positions of its named fields' values in their domains."""

    kind: type[Command]
    fields: tuple[tuple[str, str], ...]
    """(attribute, domain) of each digit, most significant first."""
    sizes: tuple[int, ...]
    defaults: tuple[tuple[str, Any], ...]
    """The other fields and the only value an encodable command has there (its default)."""
    start: int

    @property
    def size(self) -> int:
        return math.prod(self.sizes)


def unit_ids(game: Game) -> tuple[str, ...]:
    """Every unit id the tables can put on the map, sorted: the units of the position, the
    82.61 force pool of each minor, and the Commonwealth's arrivals (a copy of the game is
    advanced past the last one to collect them)."""
    rs = game.ruleset
    state = game.raw_state
    found = {*state.units, *state.eliminated}
    play = game.play()
    for minor in rs.minors:
        found.update(spec[0] for spec in force_specs(play, minor))
    arrivals = [
        Moment.parse(r.arrival) for r in rs.commonwealth.values() if r.arrival != "at_start"
    ]
    if arrivals and max(arrivals) > game.clock:
        later = game.clone()
        later.advance_to(max(arrivals))
        found.update(later.raw_state.units, later.raw_state.eliminated)
    return tuple(sorted(found))


def _digits(kind: type[Any]) -> tuple[tuple[str, str], ...] | str:
    """The digits of a kind's actions (an attrs class), or why the kind cannot be encoded."""
    hints = typing.get_type_hints(kind, include_extras=True)
    digits = []
    for a in attrs.fields(kind):
        domain = _DOMAIN_OF.get(hints[a.name])
        if domain is not None:
            digits.append((a.name, domain))
        elif a.default is attrs.NOTHING and (kind, a.name) not in _GIVEN:
            return f"its field {a.name!r} is neither a name nor a unit"
    return tuple(digits)


class Encoding:
    """The actions of a game's ruleset and rulebook (from any position of the game): `encode`
    a command, `command` an action."""

    def __init__(self, game: Game) -> None:
        rs = game.ruleset
        self.domains: dict[str, tuple[str, ...]] = {
            "major": tuple(rs.majors),
            "minor": tuple(rs.minors),
            "country": (*rs.majors, *rs.minors),
            "unit": unit_ids(game),
        }
        self._index = {d: {v: i for i, v in enumerate(vs)} for d, vs in self.domains.items()}
        self.blocks: list[Block] = []
        self.left_out: dict[str, str] = {}
        """Kinds of the rulebook with no actions, and why."""
        start = PASS + 1
        for name, kind in game.rulebook.kinds.items():
            digits = _digits(kind)
            if isinstance(digits, str):
                self.left_out[str(name)] = digits
                continue
            named = {attribute for attribute, _ in digits}
            defaults = tuple(
                (a.name, a.default)
                for a in attrs.fields(kind)
                if a.name not in named and (kind, a.name) not in _GIVEN
            )
            sizes = tuple(len(self.domains[d]) for _, d in digits)
            block = Block(kind, digits, sizes, defaults, start)
            self.blocks.append(block)
            start += block.size
        self.size = start
        """The number of distinct actions (the pass included)."""
        self._starts = [b.start for b in self.blocks]
        self._by_kind = {b.kind: b for b in self.blocks}

    def encode(self, cmd: Command) -> int | None:
        """The action of `cmd` (a diplomatic result's is its attempt); None when the command
        has no action: a kind left out, a field away from its default, a name outside the
        domains, or more than one unit."""
        block = self._by_kind.get(type(cmd))
        if block is None:
            return None
        for attribute, default in block.defaults:
            if getattr(cmd, attribute) != default:
                return None
        number = 0
        for (attribute, domain), size in zip(block.fields, block.sizes, strict=True):
            value = getattr(cmd, attribute)
            if domain == "unit":
                if len(value) != 1:
                    return None
                value = value[0]
            position = self._index[domain].get(value)
            if position is None:
                return None
            number = number * size + position
        return block.start + number

    def block(self, action: int) -> Block:
        """The block that holds `action` (`CommandError` for the pass or out of range)."""
        if not PASS < action < self.size:
            raise CommandError(f"action {action} is not a command's (1..{self.size - 1})")
        return self.blocks[bisect.bisect_right(self._starts, action) - 1]

    def fields(self, action: int) -> dict[str, Any]:
        """The named fields of the command of `action` (a unit field as a 1-tuple)."""
        block = self.block(action)
        number = action - block.start
        values: dict[str, Any] = {}
        for (attribute, domain), size in reversed(
            tuple(zip(block.fields, block.sizes, strict=True))
        ):
            number, position = divmod(number, size)
            value = self.domains[domain][position]
            values[attribute] = (value,) if domain == "unit" else value
        return dict(reversed(values.items()))

    def command(self, action: int, game: Game, result: int | None = None) -> Command:
        """The command of `action` in `game`: an attempt needs the `result` of its roll; a
        deployment is the default set-up due now (`CommandError` if there is none)."""
        kind, values = self.block(action).kind, self.fields(action)
        if kind is DiplomaticResult:
            if result is None:
                raise CommandError(f"action {action} is a diplomatic attempt: give its result")
            return DiplomaticResult(values["minor"], values["major"], result)
        if kind is Deploy:
            for cmd in game.legal_actions([Deploy.name]):
                if isinstance(cmd, Deploy) and cmd.minor == values["minor"]:
                    return cmd
            raise CommandError(f"no deployment of {values['minor']} is due now")
        built: Command = kind(**values)
        return built

    def describe(self, action: int) -> str:
        """The action as text: `declare_war attacker=Germany target=Sweden`."""
        if action == PASS:
            return "pass"
        kind, values = self.block(action).kind, self.fields(action)
        if kind is DiplomaticResult:
            return f"diplomatic attempt major={values['major']} minor={values['minor']}"
        shown = (f"{k}={','.join(v) if isinstance(v, tuple) else v}" for k, v in values.items())
        return " ".join((kind.name, *shown))

    def actor(self, cmd: Command, game: Game) -> Side | None:
        """The side whose command it is: its first major's, else its first unit's owner's
        (a minor's is its major's), else for a deployment the deploying power's; None when
        no side owns it (a unit of a minor tied to no major)."""
        rs = game.ruleset
        block = self._by_kind[type(cmd)]
        majors = [getattr(cmd, a) for a, d in block.fields if d == "major"]
        if majors:
            return rs.side_of[majors[0]]
        units = [getattr(cmd, a)[0] for a, d in block.fields if d == "unit"]
        owner: str | None = None
        if units:
            unit = game.raw_state.units.get(units[0])
            owner = unit.owner if unit is not None else None
        elif isinstance(cmd, Deploy):
            due = game.minor(cmd.minor).deployment
            owner = due.by if due is not None else None
        if owner is not None and owner in rs.minors:
            owner = game.minor(owner).major
        return rs.side_of[owner] if owner is not None and owner in rs.majors else None
