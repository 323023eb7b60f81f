"""`minors.Game`: the kernel's game with rule 82 as its rulebook unless told otherwise
(docs/api.md), and the start position `Game.new` plays from."""

from __future__ import annotations

from .._kernel.game import BaseGame, ClockError, Sink, StateError, position
from .._kernel.rulebook import Rulebook
from .._kernel.state import GameState
from .._kernel.tx import Tx
from ..ruleset.tables import Ruleset
from .book import RULEBOOK

__all__ = ["ClockError", "Game", "Sink", "StateError", "start_state"]


class Game(BaseGame):
    """A game of minor countries under rule 82, or the rulebook given (as python-chess's
    `Board` is standard chess, and its variants subclass it): apply commands, advance the
    clock, clone, inspect."""

    default_rulebook = RULEBOOK


def start_state(
    rs: Ruleset,
    start: str,
    disabled: frozenset[str] = frozenset(),
    rulebook: Rulebook = RULEBOOK,
) -> GameState:
    """The start position `start` of the tables with the rulebook's start effects run on it
    (82.12 ties, 82.92 Pacific forces, the Commonwealth's units ...), as `Game.new` makes it."""
    tx = Tx(position(rs, start), rs, disabled, rulebook)
    for fn in rulebook.active(disabled).start:
        fn(tx)
    return tx.commit()
