"""minors: a rules kernel for the minor countries of A World at War (rule 82) and the
nationality distinctions of ASL (A25).

The public surface is listed in `__all__`: the game (the contract is docs/api.md;
docs/embedding.md for an engine's use of it), commands and events, scenario runs (the
files, `minors run` and its JSON: docs/scenario-format.md, with the JSON Schemas of
docs/schemas/), the tables, and what a rule author writes rules with (`Rulebook`, `check`,
`rule`, `Play` ..., docs/contributing.md). `__version__` is the installed version.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from ._kernel.board import Board
from ._kernel.events import Events
from ._kernel.game import ClockError, StateError
from ._kernel.kind import CountryName, HexLabel, MajorName, MinorName, UnitIds
from ._kernel.log import Log, LogEntry
from ._kernel.rulebook import (
    Play,
    Refusal,
    Rulebook,
    Rules,
    at_phase_end,
    at_phase_start,
    at_start,
    candidates,
    check,
    handles,
    refuse,
    rule,
)
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
from .domain.clock import Moment, MomentError, Phase
from .domain.events import (
    BrpChange,
    DeadlineSet,
    Event,
    Note,
    PhaseEnded,
    StatusChanged,
    UnitEliminated,
    UnitMoved,
    UnitPlaced,
    UnitRemoved,
    WarBegan,
    WarEnded,
)
from .domain.records import Deadline, Deployment, Holding, LedgerEntry, MinorState, Pending
from .domain.state import GameState
from .domain.units import Unit, UnitKind
from .errors import (
    ClauseError,
    MinorsError,
    RulebookError,
    RuleViolation,
    TableError,
    UnknownNameError,
    Violation,
)
from .rules82 import Game, find_rulebook
from .rules82 import commands as commands
from .rules82 import game as game
from .rules82.commands import (
    BorderWar,
    ChooseLosses,
    Command,
    CommandError,
    Conquer,
    DeclareWar,
    Deploy,
    DiplomaticResult,
    Move,
    Place,
    Placement,
    ReenterWar,
    RefuseAssociation,
    Remove,
    Subvert,
    Surrender,
    TraceSupply,
    UnitSpec,
    command,
)
from .ruleset.records import Clause
from .ruleset.tables import Ruleset, load_ruleset
from .scenario import ScenarioError, ScenarioRuleViolation, run_scenario

try:
    __version__ = _version("minors")
    """The installed distribution's version (what `minors --version` prints)."""
except PackageNotFoundError:  # imported from a folder that was never installed
    __version__ = "0+unknown"

__all__ = [
    "Board",
    "BorderWar",
    "BrpChange",
    "ChooseLosses",
    "Clause",
    "ClauseError",
    "ClauseKind",
    "ClockError",
    "Command",
    "CommandError",
    "Conquer",
    "CountryName",
    "Deadline",
    "DeadlineSet",
    "DeclareWar",
    "Deploy",
    "Deployment",
    "DiplomaticLevel",
    "DiplomaticResult",
    "Event",
    "Events",
    "Faction",
    "FootnoteKind",
    "Game",
    "GameState",
    "HexLabel",
    "Holding",
    "LedgerEntry",
    "Log",
    "LogEntry",
    "MajorName",
    "MinorName",
    "MinorState",
    "MinorsError",
    "Moment",
    "MomentError",
    "Move",
    "Note",
    "Pending",
    "Phase",
    "PhaseEnded",
    "Place",
    "Placement",
    "Play",
    "ReenterWar",
    "Refusal",
    "RefuseAssociation",
    "Remove",
    "Rounding",
    "RuleViolation",
    "Rulebook",
    "RulebookError",
    "Rules",
    "Ruleset",
    "ScenarioError",
    "ScenarioRuleViolation",
    "Season",
    "Side",
    "StateError",
    "Status",
    "StatusChanged",
    "Subvert",
    "Surrender",
    "TableError",
    "Theater",
    "TraceSupply",
    "Unit",
    "UnitEliminated",
    "UnitIds",
    "UnitKind",
    "UnitMoved",
    "UnitPlaced",
    "UnitRemoved",
    "UnitSpec",
    "UnknownNameError",
    "Violation",
    "WarBegan",
    "WarEnded",
    "at_phase_end",
    "at_phase_start",
    "at_start",
    "candidates",
    "check",
    "command",
    "find_rulebook",
    "handles",
    "load_ruleset",
    "refuse",
    "rule",
    "run_scenario",
]
