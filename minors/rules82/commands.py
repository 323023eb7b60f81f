"""The command vocabulary of rule 82 (scenario-format.md), with `command(name, **fields)`.

Each kind is declared once, beside its rules (`minors.war.DeclareWar` ...); this module
gathers them under one name. A command is checked for form when built (malformed:
`CommandError`, a `ValueError`); whether it is legal now is the game's question
(`Game.check`). `KINDS` is rule 82's vocabulary: a variant's own kinds are built with
`Game.command` or `Rulebook.kinds`.
"""

from __future__ import annotations

from typing import Any

from .._kernel.convert import build_command, fields_of
from .._kernel.kind import Command
from ..errors import CommandError
from . import RULEBOOK
from .conquest import Conquer
from .deployment import Deploy, Placement
from .diplomacy import DiplomaticResult
from .limits import ChooseLosses, TraceSupply
from .movement import Move, Place, Remove, UnitSpec
from .war import BorderWar, DeclareWar, ReenterWar, RefuseAssociation, Subvert, Surrender

__all__ = [
    "KINDS",
    "BorderWar",
    "ChooseLosses",
    "Command",
    "CommandError",
    "Conquer",
    "DeclareWar",
    "Deploy",
    "DiplomaticResult",
    "Move",
    "Place",
    "Placement",
    "ReenterWar",
    "RefuseAssociation",
    "Remove",
    "Subvert",
    "Surrender",
    "TraceSupply",
    "UnitSpec",
    "command",
    "fields_of",
]

KINDS: dict[str, type[Any]] = dict(RULEBOOK.kinds)
"""Rule 82's command kinds by name, in the rulebook's order (the test kit draws these)."""


def command(name: str, /, **fields: Any) -> Command:
    """Build a typed command of rule 82's vocabulary: `command("declare_war",
    attacker="Germany", target="Sweden")`.

    Raises:
        CommandError: unknown command, unknown or missing field, or a value of the wrong type.
    """
    built: Command = build_command(KINDS, name, fields)
    return built
