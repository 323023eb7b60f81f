"""How a simulated campaign chooses its commands: a policy `(game, rng) -> command | None`
is asked again in each phase until it answers None (or `MOVES_PER_PHASE` times), then the
clock moves on one phase."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from ..domain import CommandKind, Status
from ..domain.clock import Moment, Phase
from ..errors import ScaleInputError
from ..rules82 import Game
from ..rules82.commands import Command, Move

__all__ = [
    "ANY_PHASE",
    "DEFAULT_POLICY",
    "MOVES_PER_PHASE",
    "PHASE_KINDS",
    "Policy",
    "load_policy",
    "massing_policy",
    "phase_kinds",
    "random_policy",
]

Policy = Callable[[Game, random.Random], Command | None]
"""A policy: the next command of the phase, or None to let the clock move on."""

MOVES_PER_PHASE = 16
"""At most this many commands in one phase, whatever the policy answers."""

K = CommandKind
PHASE_KINDS: dict[Phase, tuple[str, ...]] = {
    Phase.DIPLOMACY: (K.DIPLOMATIC_RESULT, K.SUBVERT),
    Phase.DECLARATIONS: (K.DECLARE_WAR, K.BORDER_WAR),
    Phase.MOVEMENT: (K.MOVE, K.TRACE_SUPPLY, K.CHOOSE_LOSSES),
    Phase.COMBAT: (K.CONQUER, K.MOVE, K.TRACE_SUPPLY, K.CHOOSE_LOSSES),
    Phase.REDEPLOYMENT: (K.MOVE, K.TRACE_SUPPLY, K.CHOOSE_LOSSES),
    Phase.CONSTRUCTION: (),
}
"""The kinds K1 ties to each phase (the sequence of play, rules82/sequence.py)."""

ANY_PHASE: tuple[str, ...] = (K.REFUSE_ASSOCIATION, K.DEPLOY)
"""Choices no phase restricts: a refusal while an association is pending (82.81D), the
default set-up of a deployment due now (82.52)."""


def phase_kinds(moment: Moment) -> tuple[str, ...]:
    """The command kinds a player chooses from at `moment`."""
    return PHASE_KINDS[moment.phase] + ANY_PHASE


def random_policy(game: Game, rng: random.Random) -> Command | None:
    """With probability 1/2 one of the commands legal now of the phase's kinds
    (`phase_kinds`), drawn uniformly; otherwise, or when there is none, None."""
    if rng.random() >= 0.5:
        return None
    actions = game.legal_actions(phase_kinds(game.clock))
    return rng.choice(actions) if actions else None


DEFAULT_POLICY = "minors.scale.policy:random_policy"
"""The policy of `minors simulate` unless `--policy` names another."""


def load_policy(spec: str) -> Policy:
    """The policy `module:function` names, imported here and again on each worker
    (`ScaleInputError` naming what is wrong with `spec`)."""
    module_name, colon, attribute = spec.partition(":")
    where = f"--policy {spec!r}"
    if not colon or not module_name or not attribute:
        raise ScaleInputError(f"{where}: write module:function, like {DEFAULT_POLICY}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ScaleInputError(f"{where}: cannot import {module_name!r}: {exc}") from None
    found: Any = getattr(module, attribute, None)
    if found is None:
        raise ScaleInputError(f"{where}: {module_name!r} has no attribute {attribute!r}")
    if not callable(found):
        raise ScaleInputError(f"{where}: {attribute!r} is not callable")
    policy: Policy = found
    return policy


_MASSED = (Phase.MOVEMENT, Phase.COMBAT, Phase.REDEPLOYMENT)


def massing_policy(game: Game, rng: random.Random) -> Command | None:
    """A stress policy for the foreign-factor limits (82.32): in a movement, combat or
    redeployment phase, nine times in ten a legal move of one unit into a minor whose
    hexes a power controls (where the 82.32 limit counts foreign factors), the one that
    holds the most units already (drawn among the ties); otherwise `random_policy`."""
    if game.clock.phase not in _MASSED:
        return random_policy(game, rng)
    if rng.random() >= 0.9:
        return None
    minors = game.raw_state.minors
    limited = {n for n, m in minors.items() if m.status is Status.HEXES_CONTROLLED}
    moves = [m for m in game.legal_actions("move") if isinstance(m, Move) and m.to in limited]
    if not moves:
        return random_policy(game, rng)
    held: dict[str, int] = {}
    for unit in game.raw_state.units.values():
        held[unit.country] = held.get(unit.country, 0) + 1
    most = max(held.get(m.to, 0) for m in moves)
    return rng.choice([m for m in moves if held.get(m.to, 0) == most])
