"""minors: a rules kernel for the minor countries of A World at War (rule 82) and the
nationality distinctions of ASL (A25).

The public surface is listed in `__all__`; see shared/spec/api.md for the contract and
docs/embedding.md for an engine's use of it.
"""

from __future__ import annotations

from .clock import Moment, MomentError, Phase
from .commands import (
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
from .effects import (
    BrpChange,
    DeadlineSet,
    Effect,
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
from .errors import MinorsError, TableError, UnknownNameError
from .game import ClockError, Game, StateError
from .log import Log, LogEntry
from .rule82 import Hooks, find_rulebook
from .rulebook import Rulebook, RulebookError, RuleViolation, Violation
from .ruleset import Ruleset, load_ruleset
from .scenario import ScenarioError, ScenarioRuleViolation, run_scenario
from .state import Deadline, Deployment, Holding, LedgerEntry, MinorState, Pending
from .units import Unit, UnitKind

__all__ = [
    "BorderWar",
    "BrpChange",
    "ChooseLosses",
    "ClauseKind",
    "ClockError",
    "Command",
    "CommandError",
    "Conquer",
    "Deadline",
    "DeadlineSet",
    "DeclareWar",
    "Deploy",
    "Deployment",
    "DiplomaticLevel",
    "DiplomaticResult",
    "Effect",
    "Faction",
    "FootnoteKind",
    "Game",
    "Holding",
    "Hooks",
    "LedgerEntry",
    "Log",
    "LogEntry",
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
    "ReenterWar",
    "RefuseAssociation",
    "Remove",
    "Rounding",
    "RuleViolation",
    "Rulebook",
    "RulebookError",
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
    "UnitKind",
    "UnitMoved",
    "UnitPlaced",
    "UnitRemoved",
    "UnitSpec",
    "UnknownNameError",
    "Violation",
    "WarBegan",
    "WarEnded",
    "command",
    "find_rulebook",
    "load_ruleset",
    "run_scenario",
]
