"""`minors.Game`: the kernel's game with rule 82 as its rulebook unless told otherwise
(docs/api.md)."""

from __future__ import annotations

from .._kernel.game import BaseGame, ClockError, Sink, StateError
from .book import RULEBOOK

__all__ = ["ClockError", "Game", "Sink", "StateError"]


class Game(BaseGame):
    """A game of minor countries under rule 82, or the rulebook given (as python-chess's
    `Board` is standard chess, and its variants subclass it): apply commands, advance the
    clock, clone, inspect."""

    default_rulebook = RULEBOOK
