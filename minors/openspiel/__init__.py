"""Rule 82 as an OpenSpiel game (docs/embedding.md, "OpenSpiel"): `import minors.openspiel`
registers `python_minors_awaw` for `pyspiel.load_game`. Needs `pip install 'minors[openspiel]'`.
"""

from __future__ import annotations

from .encoding import PASS, Block, Encoding, unit_ids
from .game import (
    GAME_TYPE,
    PARAMETERS,
    PLAYERS,
    MinorsGame,
    MinorsState,
    Settings,
    evaluation,
    illustrative_weights,
    register,
    score,
)

__all__ = [
    "GAME_TYPE",
    "PARAMETERS",
    "PASS",
    "PLAYERS",
    "Block",
    "Encoding",
    "MinorsGame",
    "MinorsState",
    "Settings",
    "evaluation",
    "illustrative_weights",
    "register",
    "score",
    "unit_ids",
]

register()  # OpenSpiel finds games by name: its own Python games register on import too
