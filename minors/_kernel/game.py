"""The game engine behind `minors.Game`: a board, a clock, a log, and a rulebook's rules."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self

import cattrs
from attrs import evolve

from ..domain.clock import Moment
from ..domain.events import PhaseEnded
from ..domain.state import GameState, state_dict, structure_state
from ..domain.units import Unit
from ..errors import (
    ClockError,
    CommandError,
    RuleViolation,
    StateError,
    UnknownNameError,
    Violation,
)
from ..ruleset.tables import Ruleset, load_ruleset
from .board import Board, Journal
from .convert import build_command
from .events import Events
from .kind import Command, canonical_names
from .log import Log, LogEntry
from .rulebook import Check, Play, Rulebook, Rules

__all__ = ["BaseGame", "ClockError", "Sink", "StateError"]


def _ruleset(ruleset: Ruleset | Iterable[str | Path]) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)


def phase_ended(ended: Moment, rule: str) -> PhaseEnded:
    """The marker of the clock leaving phase `ended` for the next (made when read)."""
    return PhaseEnded(str(ended), str(ended.next()), rule)


def _passes(checks: list[tuple[Check, str]], play: Play, cmd: Command) -> bool:
    """Whether `cmd` passes every check, stopping at the first that refuses it. The
    refusing check moves to the front of `checks` (a list made for one `legal_actions`
    call), so that the next candidate meets the likeliest refusal first: only the verdict
    counts here, not the clause order `check` reports in."""
    for i, found in enumerate(checks):
        for _ in found[0](play, cmd):
            if i:
                checks.insert(0, checks.pop(i))
            return False
    return True


def _unpickle(
    cls: type[BaseGame],
    state: GameState,
    rs: Ruleset,
    disabled: frozenset[str],
    rulebook: Rulebook,
    log: Log,
    start: str,
    base_seq: int,
    logging: bool = True,
) -> BaseGame:
    return cls(
        state, rs, disabled=disabled, rulebook=rulebook, log=log, start=start,
        base_seq=base_seq, logging=logging,
    )  # fmt: skip


class Sink(Protocol):
    """Where log entries go as they are made (an audit-log file, a verifier's replay)."""

    def write(self, entry: LogEntry, state: Callable[[], GameState]) -> None:
        """Record `entry`; `state()` gives the state after it (a snapshot, made only if the
        sink asks: most entries need none). Raise to refuse the entry."""


class BaseGame:
    """A game: apply commands, advance the clock, clone, inspect. Its rules are a
    `Rulebook`'s (`default_rulebook` unless one is given): it has none of its own."""

    default_rulebook: ClassVar[Rulebook | None] = None
    """The rulebook of `new` and `from_state` when none is given (`minors.Game`: rule 82)."""

    __slots__ = (
        "_base_seq", "_book", "_canonical", "_history", "_last", "_log", "_logging", "_play",
        "_seq", "_sink", "_start",
    )  # fmt: skip

    def __init__(
        self,
        state: GameState,
        rs: Ruleset,
        *,
        disabled: frozenset[str] = frozenset(),
        log: Log | None = None,
        start: str = "1939-fall",
        base_seq: int = 0,
        rulebook: Rulebook | None = None,
        logging: bool = True,
    ) -> None:
        self._book = self._rulebook(rulebook)
        self._play = Play(Board(state), rs, self._book.in_force(disabled))
        self._log = log or Log()
        self._start = start
        self._last = rs.calendar_end(start)  # the clock never passes it
        self._base_seq = base_seq
        self._sink: Sink | None = None
        self._logging = logging  # False for a game made for search: no entry is kept
        self._seq = base_seq + len(self._log)  # the last entry made (kept or not)
        self._history: list[tuple[Journal, Log, int, object]] = []
        """What `pop` undoes: each step's journal, and the log, entry number and era before."""
        self._canonical: dict[int, Command] = self._play.rules.canonical.setdefault(rs.digest, {})
        """Commands found canonical under these tables and rulebook, by `id` (kept alive
        there): one that `legal_actions` lists is resolved once however often applied."""

    # ---- construction ----------------------------------------------------------------

    @classmethod
    def _rulebook(cls, rulebook: Rulebook | None) -> Rulebook:
        book = rulebook if rulebook is not None else cls.default_rulebook
        if book is None:
            raise TypeError(f"{cls.__name__} has no default rulebook: pass rulebook=")
        if not isinstance(book, Rulebook):
            raise TypeError(f"rulebook= takes a Rulebook, not {type(book).__name__}")
        return book

    @classmethod
    def start_position(cls, rs: Ruleset, start: str) -> GameState:
        """The position `start` of the tables, before any rule ran (a game's kind knows how
        its tables give one)."""
        raise NotImplementedError(f"{cls.__name__} does not say how its tables give a start")

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | Iterable[str | Path] = (),
        *,
        start: str = "1939-fall",
        disabled: Iterable[str] = (),
        rulebook: Rulebook | None = None,
        log: bool = True,
    ) -> Self:
        """The built-in campaign start (`1939-fall`), with overlay tables if given, under
        `rulebook` (rule 82 by default). `disabled` switches off what is marked with those
        clauses; `log=False` makes a game for search that keeps no log entry.

        Raises:
            UnknownNameError: a clause the rulebook's table lacks, or an unknown start.
            ClauseError: a clause nothing is marked with (there is nothing to switch off).
        """
        rs = _ruleset(ruleset)
        book = cls._rulebook(rulebook)
        off = book.clause_ids([disabled] if isinstance(disabled, str) else disabled)
        state = cls.start_position(rs, start)
        game = cls(state, rs, disabled=off, rulebook=book, start=start, logging=log)
        play = game._play
        for fn in play.rules.start:
            fn(play)
        play.board.journal, play.events = [], []  # the start is where `pop` stops
        return game

    @classmethod
    def from_state(
        cls,
        data: dict[str, Any],
        ruleset: Ruleset | Iterable[str | Path] = (),
        *,
        start: str = "1939-fall",
        base_seq: int = 0,
        rulebook: Rulebook | None = None,
        log: bool = True,
    ) -> Self:
        """A game at the state `state()` returned (the log starts empty; its entries are
        numbered from `base_seq`; `log=False` keeps none, as `new`)."""
        rs = _ruleset(ruleset)
        if not isinstance(data, dict):
            raise StateError(f"not a minors state: a mapping, not {type(data).__name__}")
        try:
            state = structure_state(data)
        except cattrs.BaseValidationError as exc:
            problems = "; ".join(cattrs.transform_error(exc, path="state")[:5])
            raise StateError(f"not a minors state: {problems}") from None
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise StateError(f"not a minors state: {exc}") from None
        missing = sorted(set(rs.minors) - set(state.minors))
        unknown = sorted(set(state.minors) - set(rs.minors))
        if missing or unknown:
            raise StateError(
                "not a minors state: its minors differ from the tables' "
                f"(missing {missing[:3]}{' ...' if len(missing) > 3 else ''}, "
                f"unknown {unknown[:3]}{' ...' if len(unknown) > 3 else ''})"
            )
        state = evolve(state, minors={name: state.minors[name] for name in rs.minors})
        return cls(state, rs, rulebook=rulebook, start=start, base_seq=base_seq, logging=log)

    def clone(self) -> Self:
        """An independent copy that copies nothing now (python-chess's `copy(stack=False)`):
        no file sink, and `pop` stops here."""
        other = type(self).__new__(type(self))
        other._play, other._book, other._log = self._play.fork(), self._book, self._log
        other._start, other._base_seq, other._sink = self._start, self._base_seq, None
        other._last, other._logging, other._seq = self._last, self._logging, self._seq
        other._history = []
        other._canonical = self._canonical  # the same tables and rulebook
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled like a clone (state, tables, log; no file sink), so games can go to other
        processes; the tables are loaded there again from their overlays."""
        play = self._play
        return _unpickle, (
            type(self),
            play.board.snapshot(), play.rs, play.rules.off, self._book, self._log, self._start,
            self._base_seq, self._logging,
        )  # fmt: skip

    def attach(self, sink: Sink | None) -> Sink | None:
        """Write every later entry to `sink` before it commits (None detaches); returns the
        sink attached before."""
        previous, self._sink = self._sink, sink
        return previous

    @property
    def start(self) -> str:
        """The start position the game began from."""
        return self._start

    @property
    def next_seq(self) -> int:
        """The sequence number of the next log entry."""
        return self._seq + 1

    def _step(self, entry: LogEntry | None, era: object) -> None:
        """Write the entry to the sink (a failed write undoes the step), then commit it."""
        board = self._play.board
        if entry is not None and self._sink is not None:
            try:
                self._sink.write(entry, board.snapshot)
            except BaseException:
                board.undo(board.journal, era=era)
                raise
        self._history.append((board.journal, self._log, self._seq, era))
        board.journal = []
        self._seq += 1
        if entry is not None and self._logging:
            self._log = self._log.append(entry)

    # ---- queries ---------------------------------------------------------------------

    @property
    def clock(self) -> Moment:
        return self._play.board.clock

    @property
    def last_moment(self) -> Moment:
        """The calendar's last moment (the start's `last_moment` in the tables): `advance_to`
        goes no further."""
        return self._last

    @property
    def ruleset(self) -> Ruleset:
        return self._play.rs

    @property
    def rulebook(self) -> Rulebook:
        """The rulebook in force."""
        return self._book

    @property
    def rules(self) -> Rules:
        """The rules in force: the rulebook's less the clauses switched off."""
        return self._play.rules

    @property
    def disabled(self) -> frozenset[str]:
        """The clauses switched off in this game."""
        return self._play.rules.off

    @property
    def log(self) -> Log:
        """The log entries so far (applied commands and clock advances)."""
        return self._log

    @property
    def raw_state(self) -> GameState:
        """The state as frozen records, a snapshot later steps never change (`state()` is
        the same as plain data, `to_json()` the summary: docs/api.md, "Three views")."""
        return self._play.board.snapshot()

    def play(self) -> Play:
        """What the rules work with, for code asking rule functions about the game as it
        stands (invariants, engine queries): read it, never write it."""
        return self._play

    def unit(self, unit_id: str) -> Unit:
        """A unit on the map (`UnknownNameError` if there is none by that id)."""
        units = self._play.board.units
        try:
            return units[unit_id]
        except (KeyError, TypeError):
            close = difflib.get_close_matches(str(unit_id), units, n=3)
            raise UnknownNameError("unit", unit_id, tuple(close)) from None

    def key(self) -> int:
        """A 64-bit key of the position, not of its history: equal positions have equal
        keys in every process and under every PYTHONHASHSEED (docs/embedding.md)."""
        return self._play.board.key()

    # ---- commands --------------------------------------------------------------------

    def command(self, name: str, /, **fields: Any) -> Command:
        """A command of this game's rulebook (a variant's own kinds included) from the
        scenario vocabulary, its names in canonical spelling.

        Raises:
            CommandError: unknown command, unknown or missing field, wrong value type, or an
                unknown name.
        """
        return self.resolve(build_command(self._book.kinds, name, fields))

    def resolve(self, cmd: Command) -> Command:
        """The command with every name in canonical spelling; `CommandError` if a name is
        unknown or of the wrong kind, or if the rulebook has no such kind."""
        resolved: Command = canonical_names(self._play.rs, cmd)
        if type(resolved) not in self._play.rules.handlers:
            raise CommandError(
                f"{resolved.name}: not a command of rulebook {self._book.name!r} "
                f"(its commands: {', '.join(sorted(self._book.kinds))})"
            )
        known = self._canonical
        if len(known) >= 1 << 16:  # commands made afresh each time: start again
            known.clear()
        known[id(resolved)] = resolved  # canonical: `apply` need not resolve it again
        return resolved

    def _violations(self, cmd: Command) -> list[Violation]:
        """Every violation of `cmd` now, in clause order: each check's refusals under the
        clause it is marked with."""
        play = self._play
        found: list[Violation] = []
        for check, clause in play.rules.checks.get(type(cmd), ()):
            for refusal in check(play, cmd):
                found.append(Violation(clause, refusal.message, dict(refusal.data)))
        return found

    def check(self, cmd: Command) -> list[Violation]:
        """Every rule `cmd` would break now, in clause order; empty when it is legal.

        Raises:
            CommandError: the command is malformed (an unknown name ...).
        """
        found = self._violations(self.resolve(cmd))
        return RuleViolation(found).violations if found else []

    def apply(self, cmd: Command) -> Events:
        """Apply `cmd` and return its events (`Events`, made when first read).

        Raises:
            RuleViolation: `cmd` is illegal now; the game is left exactly as it was.
            CommandError: the command is malformed.
        """
        if self._canonical.get(id(cmd)) is not cmd:
            cmd = self.resolve(cmd)
        found = self._violations(cmd)
        if found:
            raise RuleViolation(found)
        return self._run(cmd)

    def _run(self, cmd: Command) -> Events:
        play = self._play
        board = play.board
        done: list[Any] = []
        play.events = done
        era = board.era
        try:
            play.rules.handlers[type(cmd)](play, cmd)
        except BaseException:
            board.undo(board.journal, era=era)  # a rule failed half-way: nothing of it stays
            raise
        play.events = []  # `done` is the step's: no rule writes to it again
        events = Events.of(done)
        if self._logging or self._sink is not None:
            self._step(LogEntry.of(self._seq + 1, board.clock, cmd, events), era)
        else:
            self._history.append((board.journal, self._log, self._seq, era))
            board.journal = []
            self._seq += 1
        return events

    def push(self, cmd: Command) -> Events:
        """`apply`, under python-chess's name: checked, atomic, undone by `pop`."""
        return self.apply(cmd)

    def push_unchecked(self, cmd: Command) -> Events:
        """Apply a command `legal_actions` has just listed for this very position, its
        checks not run again (anything else is undefined: use `push`)."""
        return self._run(cmd)

    def pop(self) -> None:
        """Undo the last step (`push`, `apply`, `advance_to`) back to where the game was
        made, cloned or its stack cleared: state, key and log are exactly as they were.

        Raises:
            StateError: nothing to undo, or a file log is attached (its entries are final).
        """
        if self._sink is not None:
            raise StateError("pop: a file log is attached and its entries are final")
        if not self._history:
            raise StateError(
                "pop: nothing to undo since the game was made or cloned (or its stack cleared)"
            )
        journal, self._log, self._seq, era = self._history.pop()
        self._play.board.undo(journal, era=era)

    def clear_stack(self) -> None:
        """Forget the steps `pop` could undo (python-chess's `clear_stack`): a long replay
        keeps no journal of the steps behind it."""
        self._history.clear()

    @property
    def depth(self) -> int:
        """How many steps `pop` can undo."""
        return len(self._history)

    def advance_to(self, moment: Moment | str) -> Events:
        """Move the clock forward to `moment`, ending and starting every phase on the way
        with all the rules run there; logged as one `advance` entry.

        Raises:
            ClockError: `moment` is earlier than the clock, or after the calendar's last
                moment (`last_moment`).
        """
        target = moment if isinstance(moment, Moment) else Moment.parse(moment)
        play = self._play
        board = play.board
        if target < board.clock:
            raise ClockError(f"the clock stands at {board.clock}; it cannot go back to {target}")
        if target > self._last:
            raise ClockError(
                f"{target} is after the calendar's last moment {self._last} (the start's"
                " last_moment in the tables; an overlay can move it)"
            )
        if target == board.clock:
            return Events()
        ends, starts = play.rules.phase_end, play.rules.phase_start
        sequence = self._book.sequence
        play.events = []
        era = board.era
        try:
            while board.clock < target:
                for fn in ends.get(board.clock.phase, ()):
                    fn(play, board.clock.side)
                play.events.append((phase_ended, board.clock, sequence))
                board.replace("clock", board.clock.next())
                for fn in starts.get(board.clock.phase, ()):
                    fn(play, board.clock.side)
        except BaseException:
            board.undo(board.journal, era=era)
            raise
        events = Events.of(play.events)
        play.events = []
        entry = None
        if self._logging or self._sink is not None:
            advance = {"command": "advance", "to": str(target)}
            entry = LogEntry.of(self.next_seq, target, advance, events)
        self._step(entry, era)
        return events

    def legal_actions(self, kinds: str | Iterable[str] | None = None) -> list[Command]:
        """The commands legal now of `kinds` (one kind, several, or None for all): every
        candidate the kinds' generators yield that passes their checks in force
        (docs/embedding.md lists what rule 82 enumerates).

        Raises:
            CommandError: a kind the rulebook does not have (with the closest).
        """
        known = self._book.kinds
        if kinds is None:
            wanted = set(known)
        else:
            wanted = {kinds} if isinstance(kinds, str) else set(kinds)  # one kind, not letters
            unknown = wanted - set(known)
            if unknown:
                names = [str(k) for k in known]
                close = {k: difflib.get_close_matches(k, names, n=1) for k in sorted(unknown)}
                hints = "; ".join(f"{k!r}: did you mean {c[0]!r}?" for k, c in close.items() if c)
                raise CommandError(
                    f"unknown command kinds {sorted(unknown)}"
                    + (f" ({hints})" if hints else f"; kinds are {', '.join(names)}")
                )
        out: list[Command] = []
        play = self._play
        rules = play.rules
        for name, kind in known.items():
            generate = rules.candidates.get(kind)
            if name not in wanted or generate is None:
                continue
            batched = list(rules.batched.get(kind, ()))
            single = list(rules.single.get(kind, ()))
            for item in generate(play):
                batch = (item,) if isinstance(item, Command) else item
                if not batch or (batched and not _passes(batched, play, batch[0])):
                    continue
                if single:
                    out.extend([c for c in batch if _passes(single, play, c)])
                else:
                    out.extend(batch)
        return out

    # ---- output ----------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The complete canonical state as plain data, all `from_state` needs (a superset
        of `to_json()`; `raw_state` is the same as records)."""
        return state_dict(self._play.board.snapshot())
