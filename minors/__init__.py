"""minors: a rules kernel for the minor countries of A World at War (rule 82) and the
nationality distinctions of ASL (A25)."""

from __future__ import annotations

from .domain import (
    ClauseKind,
    DiplomaticLevel,
    Faction,
    FootnoteKind,
    Rounding,
    Season,
    Side,
    Status,
    Theater,
)
from .errors import MinorsError, TableError, UnknownNameError
from .ruleset import Ruleset, load_ruleset

__all__ = [
    "ClauseKind",
    "DiplomaticLevel",
    "Faction",
    "FootnoteKind",
    "MinorsError",
    "Rounding",
    "Ruleset",
    "Season",
    "Side",
    "Status",
    "TableError",
    "Theater",
    "UnknownNameError",
    "load_ruleset",
]
