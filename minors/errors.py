"""Every error `minors` raises on purpose: one root, `MinorsError`, and each subclass also
the builtin it resembles (malformed input a `ValueError`, a name not found a `LookupError`,
an I/O failure an `OSError`); an illegal command is a `RuleViolation` with every `Violation`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import field, frozen

__all__ = [
    "LONGEST_NAME",
    "SHOWN",
    "ClauseError",
    "ClockError",
    "CommandError",
    "CommissarError",
    "CoverageError",
    "DyoError",
    "FieldError",
    "HexError",
    "HumanWaveError",
    "InputError",
    "LogCheckError",
    "LogFormatError",
    "LogLocked",
    "LogRangeError",
    "LogUnavailable",
    "LogWriteError",
    "MinorsError",
    "MomentError",
    "NoNationalityError",
    "OverwriteError",
    "ParameterError",
    "PersonnelError",
    "ProfileError",
    "ReportError",
    "RuleViolation",
    "RulebookError",
    "ScaleError",
    "ScaleInputError",
    "ScenarioError",
    "ScenarioRuleViolation",
    "StarterError",
    "StateError",
    "TableError",
    "UnknownNameError",
    "Violation",
    "YearMonthError",
    "clause_key",
    "close_matches",
    "shown",
]


class MinorsError(Exception):
    """Root of every error `minors` raises on purpose."""


SHOWN = 60
"""How many characters of a value a message shows: a name of 50 MB is cut, not echoed."""

LONGEST_NAME = 4 * SHOWN
"""No name of the tables is longer: a longer one is unknown without being looked up (the
lookups and suggestions work in time that grows with the length)."""


def shown(value: object, limit: int = SHOWN) -> str:
    """`repr(value)` for a message, cut to about `limit` characters with the full length
    said (`'Atlantisssss…' (50,000,000 characters)`)."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        cut = repr(value[:limit])
        return f"{cut[:-1]}…{cut[-1]} ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def close_matches(word: str, options: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """The options closest to `word` for a "did you mean"; none for a word longer than
    `LONGEST_NAME`, as difflib's work grows with it."""
    if len(word) > LONGEST_NAME:
        return []
    return difflib.get_close_matches(word, list(options), n=n, cutoff=cutoff)


# ---- malformed input (ValueError) ---------------------------------------------------------


class TableError(MinorsError, ValueError):
    """A rule table or overlay is malformed: names the file, the entry, the field and the fix.

    When several problems are found at once, `.problems` lists them all (each a
    `TableError`), the message has a line for each, and the attributes are the first's.
    """

    def __init__(
        self, problem: str, *, file: str = "", entry: str = "", field: str = "", fix: str = ""
    ) -> None:
        self.problem = problem
        self.file = file
        self.entry = entry
        self.field = field
        self.fix = fix
        self.problems: list[TableError] = [self]
        where = ", ".join(
            part
            for part in (
                file,
                f"entry {shown(entry, 80)}" if entry else "",
                f"field {shown(field)}" if field else "",
            )
            if part
        )
        text = f"{where}: {problem}" if where else problem
        super().__init__(f"{text} (fix: {fix})" if fix else text)

    @classmethod
    def of(cls, problems: Sequence[TableError]) -> TableError:
        """One error for every problem found: the problem itself when there is one."""
        if len(problems) == 1:
            return problems[0]
        first = problems[0]
        error = cls(
            first.problem, file=first.file, entry=first.entry, field=first.field, fix=first.fix
        )
        error.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in problems)
        error.args = (f"{len(problems)} problems in the tables:\n{lines}",)
        return error


class FieldError(MinorsError, ValueError):
    """A field of one table entry holds a bad value; the loader adds file and entry."""

    def __init__(self, field: str, problem: str, fix: str = "") -> None:
        self.field = field
        self.problem = problem
        self.fix = fix
        super().__init__(problem)


class MomentError(MinorsError, ValueError):
    """A moment of play that cannot be read, or one beyond the calendar."""


class YearMonthError(MinorsError, ValueError):
    """A year-month that cannot be read or does not exist (`1944-13`)."""


class CommandError(MinorsError, ValueError):
    """A command that is malformed: unknown name, missing or wrong field, unknown country."""


class ScenarioError(MinorsError, ValueError):
    """A scenario file or one of its values is malformed: `.file` is the file (None for an
    option such as `--until`), `.command` the 1-based command at fault (None if none)."""

    def __init__(self, message: str, *, file: str | None = None, command: int | None = None):
        super().__init__(message)
        self.file = file
        self.command = command


class InputError(MinorsError, ValueError):
    """An input file not read at all: not a regular file, too large, not UTF-8, or TOML
    beyond the limits of `minors.domain.reading`; its reader reports it, naming the file."""


class StateError(MinorsError, ValueError):
    """A state given to `Game.from_state` that cannot be read."""


class ClockError(MinorsError, ValueError):
    """The clock moves forward only."""


class RulebookError(MinorsError, ValueError):
    """A rulebook that cannot be built; `.problems` lists every problem, each with its fix."""

    def __init__(self, name: str, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"rulebook {name!r} cannot be built:\n{lines}")


class ClauseError(MinorsError, ValueError):
    """A clause that cannot be switched off: nothing in the rulebook is marked with it."""


class PersonnelError(MinorsError, ValueError):
    """A personnel counter with an unknown rating, or one of the wrong shape for its kind."""


class ProfileError(MinorsError, ValueError):
    """A profile query that cannot be answered as asked: an impossible date, a class or
    unit the nationality lacks, an opponent on its own side, an argument of the wrong type."""


class HexError(MinorsError, ValueError):
    """A hex name, hexside or hex grain that cannot be read."""


class HumanWaveError(MinorsError, ValueError):
    """Malformed Human Wave input: duplicate unit ids, contradicting facts, a bad in-hex move."""


class CommissarError(MinorsError, ValueError):
    """Malformed Commissar input: an impossible counter, an id given twice, a substitution
    of a unit not in the order of battle, a rally of an unbroken unit."""


class DyoError(MinorsError, ValueError):
    """A DYO purchase that cannot be read: an empty item or nationality name."""


class ParameterError(MinorsError, ValueError):
    """A parameter of the OpenSpiel game (`minors.openspiel`) that cannot be used."""


# ---- names not found (LookupError) ------------------------------------------------------------


class UnknownNameError(MinorsError, LookupError):
    """A country, major power, clause or table name that the rules do not know."""

    def __init__(
        self, kind: str, name: str, suggestions: tuple[str, ...] = (), hint: str = ""
    ) -> None:
        self.kind = kind
        self.name = name
        self.suggestions = suggestions
        close = f"; did you mean {' or '.join(map(repr, suggestions))}?" if suggestions else ""
        more = f" ({hint})" if hint else ""
        super().__init__(f"unknown {kind} {shown(name)}{close}{more}")

    def __str__(self) -> str:
        # LookupError would repr() the message; print it as written.
        return str(self.args[0])


class NoNationalityError(MinorsError, LookupError):
    """A country whose troops A25 does not describe (Japan, China, the Pacific minors)."""


# ---- illegal commands -------------------------------------------------------------------------


@frozen
class Violation:
    """One broken rule: its id, what is wrong (with the values), and the data involved."""

    rule: str
    message: str
    data: Mapping[str, Any] = field(factory=dict)


def clause_key(rule: str) -> tuple[str, tuple[tuple[int, int, str], ...]]:
    """Sort key of clause ids in text order: by letter prefix (none, as in `82.34`, first;
    then `A25.85`, `H1`, `K1` ...), by the first number, then by the paragraph digits as a
    decimal fraction (`82.32` < `82.321B` < `82.33`; `82.9` after `82.11`), letters last
    (`82.11` < `82.11A` < `82.111`)."""
    prefix = re.match(r"[A-Za-z]*", rule)
    family = prefix.group() if prefix else ""
    parts: list[tuple[int, int, str]] = []
    for index, token in enumerate(re.findall(r"\d+|[A-Z]+|-\w+", rule[len(family) :])):
        if not token.isdigit():
            parts.append((1, 0, token))
        elif index == 0:
            parts.append((0, int(token), ""))
        else:
            parts.append((0, 0, token))
    return family, tuple(parts)


class RuleViolation(MinorsError):
    """An illegal command; `.violations` lists every broken rule, `.rule` the first in clause
    order. The game is left exactly as it was."""

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = sorted(violations, key=lambda v: clause_key(v.rule))
        first = self.violations[0]
        self.rule = first.rule
        self.message = first.message
        more = f" (and {len(self.violations) - 1} more)" if len(self.violations) > 1 else ""
        super().__init__(f"{first.rule}: {first.message}{more}")


class ScenarioRuleViolation(RuleViolation):
    """A scenario command broke a rule: `.index` is its 1-based position, `.game` the game
    just before it."""

    def __init__(self, violation: RuleViolation, index: int, game: Any) -> None:
        super().__init__(violation.violations)
        self.index = index
        self.game: Any = game

    def error_object(self) -> dict[str, Any]:
        """The `error` object of the JSON state (scenario-format.md)."""
        return {
            "rule": self.rule,
            "message": self.message,
            "command": self.index,
            "violations": [{"rule": v.rule, "message": v.message} for v in self.violations],
        }


# ---- what cannot be done here ------------------------------------------------------------------


class LogWriteError(MinorsError, OSError):
    """The log could not be written; the command or advance was not applied."""

    def __str__(self) -> str:
        return str(self.strerror) if self.strerror else super().__str__()


class LogLocked(LogWriteError):
    """Another writer holds the log file (its lock is taken for the life of a writer)."""


class LogUnavailable(MinorsError):
    """The log cannot be verified here at all (exit 2): no such file, an unknown format,
    or tables, a rulebook or a library version not available."""


class LogCheckError(MinorsError):
    """A line of a log fails a check (`verify` reports it as its `Verdict`, exit 1)."""

    def __init__(self, line: int, problem: str, seq: int | None = None) -> None:
        super().__init__(problem)
        self.line, self.problem, self.seq = line, problem, seq


class LogFormatError(LogUnavailable, ValueError):
    """A file that is not a log of a format this version reads (names the file and line)."""


class LogRangeError(MinorsError, ValueError):
    """A moment or entry number the log does not hold (`replay --until`, `log show`)."""


class OverwriteError(MinorsError, FileExistsError):
    """A command would write over a file that is not empty (without `--force`) or that it
    reads (never)."""


class CoverageError(MinorsError):
    """The tests folder to read cannot be found or read."""


class StarterError(MinorsError, FileExistsError):
    """`minors init` would overwrite a file, or its folder is a file: nothing is written."""


class ReportError(MinorsError):
    """A picture of a game cannot be drawn from its log: it fails verification, or its
    replay gives other effects than it records."""


class ScaleError(MinorsError):
    """Work at scale (`minors.scale`) cannot go on: a worker's tables or rulebook digest differently
    from the client's, the scheduler cannot be reached, or the cluster lost the work."""


class ScaleInputError(ScaleError, ValueError):
    """What a simulation or an exploration was asked is malformed (a policy, a horizon, a
    worker count)."""
