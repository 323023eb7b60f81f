"""minors: a rules kernel for the minor countries of A World at War (rule 82) and the
nationality distinctions of ASL (A25).

The public surface is listed in `__all__`: the game (the contract is docs/api.md;
docs/embedding.md for an engine's use of it), commands and effects, scenario runs (the
files, `minors run` and its JSON: docs/scenario-format.md, with the JSON Schemas of
docs/schemas/), the tables, and what a rule author writes rules with (`Rulebook`, `check`,
`effect` ..., docs/contributing.md). `__version__` is the installed version.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from ._kernel.effects import (
    BrpChange,
    DeadlineSet,
    Effect,
    Effects,
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
from ._kernel.game import ClockError, StateError
from ._kernel.kind import CountryName, HexLabel, MajorName, MinorName, UnitIds
from ._kernel.log import Log, LogEntry
from ._kernel.rulebook import (
    Batch,
    Rulebook,
    RulebookError,
    RuleViolation,
    Violation,
    at_phase_end,
    at_phase_start,
    at_start,
    candidates,
    check,
    effect,
    handles,
)
from ._kernel.state import Deadline, Deployment, Holding, LedgerEntry, MinorState, Pending
from ._kernel.tx import Tx
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
from .domain.units import Unit, UnitKind
from .errors import MinorsError, TableError, UnknownNameError
from .rules82 import Game, Hooks, find_rulebook
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

# 0.1's `minors.commands.KINDS` (its module is `minors.rules82.commands`); 0.1's
# minors.auditlog, .nationality, .bridge and .queries are importable packages too.
from .scenario import ScenarioError, ScenarioRuleViolation, run_scenario

try:
    __version__ = _version("minors")
    """The installed distribution's version (what `minors --version` prints)."""
except PackageNotFoundError:  # imported from a folder that was never installed
    __version__ = "0+unknown"

__all__ = [
    "Batch",
    "BorderWar",
    "BrpChange",
    "ChooseLosses",
    "Clause",
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
    "Effect",
    "Effects",
    "Faction",
    "FootnoteKind",
    "Game",
    "HexLabel",
    "Holding",
    "Hooks",
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
    "Tx",
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
    "effect",
    "find_rulebook",
    "handles",
    "load_ruleset",
    "run_scenario",
]
