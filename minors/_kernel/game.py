"""The game engine behind the public `Game`: state, clock and log, and a rulebook whose
rules it runs (it has none of its own). `minors.Game` is this with rule 82 by default."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self

import cattrs

from ..domain.clock import Moment
from ..domain.units import Unit
from ..errors import ClockError, CommandError, StateError, UnknownNameError
from ..ruleset.tables import Ruleset, load_ruleset
from .convert import build_command, fields_of, state_dict, structure_state
from .effects import Effects, PhaseEnded
from .kind import Command, canonical_names
from .log import Log, LogEntry
from .rulebook import Batch, Rulebook, RuleViolation, Violation
from .state import GameState, MinorState, Pending, evolve
from .tx import Journal, Tx

__all__ = ["BaseGame", "ClockError", "Sink", "StateError", "Variation", "position"]


def _ruleset(ruleset: Ruleset | Iterable[str | Path]) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)


class Variation(Protocol):
    """Something that turns a rulebook into a variant of it (rule 82's `Hooks`)."""

    def apply(self, book: Rulebook) -> Rulebook:
        """The variant of `book`."""


def position(rs: Ruleset, start: str) -> GameState:
    """The start position `start` as the tables give it, before any rule ran: the clock,
    the wars, each minor's status, major, wars, attack and pending alignment."""
    if start not in rs.starts:
        raise UnknownNameError("start", start, tuple(rs.starts))
    spec = rs.starts[start]
    wars = {(a, b) if a < b else (b, a): Moment.parse(spec.clock) for a, b in spec.wars}
    attacked_at = Moment.parse(spec.attacked_at) if spec.attacked_at else None
    pending = {
        p.minor: Pending(p.partner, p.level, p.rule, Moment.parse(p.due)) for p in spec.pending
    }
    minors: dict[str, MinorState] = {}
    for name, m in rs.minors.items():
        direct = tuple(sorted(m.start_at_war_with))
        first = m.start_at_war_with[0] if m.start_at_war_with else None  # as listed (82.81)
        minors[name] = MinorState(
            name=name, status=m.start_status, major=m.start_major or None,
            direct_wars=direct, at_war_with=direct, attacked_by=first,
            attacked_at=attacked_at if direct else None, pending=pending.get(name),
            active=m.active,
        )  # fmt: skip
    return GameState(clock=Moment.parse(spec.clock), minors=minors, units={}, wars=wars)


Plan = tuple[
    list[Callable[[Tx, Command], bool]], list[Callable[[Tx, Command], bool]], dict[Hashable, bool]
]
"""The batched and the single checks `legal_actions` runs on batches that vouch for the same
checks, and the verdicts it found for their `share` keys."""


def phase_ended(ended: Moment, rule: str) -> PhaseEnded:
    """The marker of the clock leaving phase `ended` for the next (made when read)."""
    return PhaseEnded(str(ended), str(ended.next()), rule)


def _passes(checks: list[Callable[[Tx, Command], bool]], tx: Tx, cmd: Command) -> bool:
    """Whether `cmd` passes every check (by their boolean paths), stopping at the first that
    refuses it. The refusing check moves to the front of `checks` (a list made for one
    `legal_actions` call), so that the next candidate meets the likeliest refusal first:
    only the verdict counts here, not the clause order `check` reports in."""
    for i, ok in enumerate(checks):
        if not ok(tx, cmd):
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
    """Where log entries go as they are made (an audit-log file: `minors.auditlog`, or a
    verifier's replay)."""

    def write(self, entry: LogEntry, state: Callable[[], GameState]) -> None:
        """Record `entry`; `state()` gives the state after it (a snapshot, made only if the
        sink asks: most entries need none). Raise to refuse the entry."""


class BaseGame:
    """A game: apply commands, advance the clock, clone, inspect.

    The rules come from a `Rulebook` (`default_rulebook` unless one is given); the kernel has
    no rule of its own: a command runs the checks, handler and effects the rulebook holds
    for its kind.
    """

    default_rulebook: ClassVar[Rulebook | None] = None
    """The rulebook of `new` and `from_state` when none is given (`minors.Game`: rule 82)."""

    __slots__ = (
        "_active", "_base_seq", "_board", "_book", "_canonical", "_disabled", "_history", "_last",
        "_log", "_logging", "_rs", "_seq", "_sink", "_start",
    )  # fmt: skip

    def __init__(
        self,
        state: GameState,
        rs: Ruleset,
        *,
        disabled: frozenset[str] = frozenset(),
        hooks: Variation | Rulebook | None = None,
        log: Log | None = None,
        start: str = "1939-fall",
        base_seq: int = 0,
        rulebook: Rulebook | None = None,
        logging: bool = True,
    ) -> None:
        self._rs = rs
        self._disabled = disabled
        self._book = self._rulebook(rulebook, hooks)
        self._active = self._book.active(disabled)
        self._board = Tx(state, rs, disabled, self._book, self._active)
        """The live state, changed in place by the rules (each change journaled)."""
        self._log = log or Log()
        self._start = start
        self._last = rs.calendar_end(start)
        """The calendar's last moment: the clock never passes it."""
        self._base_seq = base_seq
        self._sink: Sink | None = None
        self._logging = logging
        """False for a game made for search (`new(log=False)`): no entry is kept."""
        self._seq = base_seq + len(self._log)
        """The number of the last entry made (kept or not)."""
        self._history: list[tuple[Journal, Log, int, object]] = []
        """What `pop` undoes: each step's journal, and the log, entry number and political
        era before it."""
        self._canonical: dict[int, Command] = {}
        """Commands `resolve` found canonical in this game's tables and rulebook, by `id`
        (each kept alive here, so its id is never another's): commands are immutable, so
        one that `legal_actions` lists is resolved once however often it is applied."""

    # ---- construction ----------------------------------------------------------------

    @classmethod
    def _rulebook(cls, rulebook: Rulebook | None, hooks: Variation | Rulebook | None) -> Rulebook:
        """The rulebook in force: `rulebook` (the default one if none) as `hooks` vary it. A
        rulebook given as `hooks` (what `game.hooks` returns) is taken as the rulebook."""
        if isinstance(hooks, Rulebook):
            return hooks
        book = rulebook if rulebook is not None else cls.default_rulebook
        if book is None:
            raise TypeError(f"{cls.__name__} has no default rulebook: pass rulebook=")
        return hooks.apply(book) if hooks is not None else book

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | Iterable[str | Path] = (),
        *,
        start: str = "1939-fall",
        disabled: Iterable[str] = (),
        hooks: Variation | None = None,
        rulebook: Rulebook | None = None,
        log: bool = True,
    ) -> Self:
        """The built-in campaign start (`1939-fall`), with overlay tables if given, under
        `rulebook` (rule 82 by default; `hooks` replace its named rules).

        `disabled` (for tests) switches off the rules registered under those clause ids.
        `log=False` makes a game for search: no log entry is made or kept (`log` stays
        empty; `push`, `pop` and `key` work as ever).

        Raises:
            UnknownNameError: a clause in `disabled` that the rulebook does not have (with the
                closest ids), or an unknown start.
        """
        rs = _ruleset(ruleset)
        book = cls._rulebook(rulebook, hooks)
        off = book.clause_ids([disabled] if isinstance(disabled, str) else disabled)
        game = cls(position(rs, start), rs, disabled=off, rulebook=book, start=start, logging=log)
        tx = game._board
        for fn in game._active.start:
            fn(tx)
        tx.journal, tx.effects = [], []  # the start is where `pop` stops
        return game

    @classmethod
    def from_state(
        cls,
        data: dict[str, Any],
        ruleset: Ruleset | Iterable[str | Path] = (),
        *,
        hooks: Variation | Rulebook | None = None,
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
        book = cls._rulebook(rulebook, hooks)
        return cls(state, rs, rulebook=book, start=start, base_seq=base_seq, logging=log)

    def clone(self) -> Self:
        """An independent copy: the two boards share their containers until either writes
        to one (it copies it then), and the log is persistent, so nothing is copied now. A
        clone writes to no file sink, and `pop` on it stops where it was made (as
        python-chess's `copy(stack=False)`)."""
        other = type(self).__new__(type(self))
        other._board, other._rs, other._disabled = self._board.fork(), self._rs, self._disabled
        other._book, other._active, other._log = self._book, self._active, self._log
        other._start, other._base_seq, other._sink = self._start, self._base_seq, None
        other._last = self._last
        other._logging, other._seq, other._history = self._logging, self._seq, []
        other._canonical = self._canonical  # the same tables and rulebook
        return other

    def __repr__(self) -> str:
        """The rulebook, the clock, the tables (digest, overlays), what is switched off,
        and how much is going on: `<Game rulebook 'rule82' at 1940-spring/axis/diplomacy
        ...>`."""
        state = self._board
        at_war = sum(1 for m in state.minors.values() if m.active and m.at_war_with)
        parts = [f"rulebook {self._book.name!r}", f"at {state.clock}"]
        parts.append(f"tables {self._rs.digest[:12]}")
        if self._rs.sources:
            parts.append(f"overlays {list(self._rs.sources)}")
        if self._disabled:
            parts.append(f"disabled {sorted(self._disabled)}")
        counts = ((at_war, "minor", "at war"), (len(state.units), "unit", "on the map"))
        parts.append(
            ", ".join(f"{n} {word}{'' if n == 1 else 's'} {what}" for n, word, what in counts)
        )
        parts.append(f"{len(self._log)} log {'entry' if len(self._log) == 1 else 'entries'}")
        return f"<{type(self).__name__} {'; '.join(parts)}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled like a clone (state, tables, log; no file sink), so games can go to other
        processes; the tables are loaded there again from their overlays."""
        return _unpickle, (
            type(self),
            self._board.snapshot(), self._rs, self._disabled, self._book, self._log, self._start,
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
        """Write the entry to the sink (if any), then commit the step: a failed write undoes
        it, leaving the game as it was (in political era `era`). Its journal is kept for
        `pop`."""
        tx = self._board
        if entry is not None and self._sink is not None:
            try:
                self._sink.write(entry, tx.snapshot)
            except BaseException:
                tx.undo(tx.journal, era=era)
                raise
        self._history.append((tx.journal, self._log, self._seq, era))
        tx.journal = []
        self._seq += 1
        if entry is not None and self._logging:
            self._log = self._log.append(entry)

    # ---- queries ---------------------------------------------------------------------

    @property
    def clock(self) -> Moment:
        return self._board.clock

    @property
    def last_moment(self) -> Moment:
        """The calendar's last moment (the start's `last_moment` in the tables): `advance_to`
        goes no further."""
        return self._last

    @property
    def ruleset(self) -> Ruleset:
        return self._rs

    @property
    def rulebook(self) -> Rulebook:
        """The rulebook in force."""
        return self._book

    @property
    def hooks(self) -> Rulebook:
        """The rulebook in force, under its 0.1 name: hooks became the named rules a
        rulebook replaces (`Hooks`, docs/contributing.md)."""
        return self._book

    @property
    def disabled(self) -> frozenset[str]:
        """The clauses switched off in this game."""
        return self._disabled

    @property
    def log(self) -> Log:
        """The log entries so far (applied commands and clock advances)."""
        return self._log

    @property
    def raw_state(self) -> GameState:
        """The state as frozen records (`GameState`: `minors`, `units`, `ledger` ... as attrs
        objects), for Python code that reads fields: a snapshot that later steps never change
        (it shares the board's containers, which the board copies before its next write).
        Not plain data: `state()` is the complete state as JSON-ready data (what
        `from_state` reads), `to_json()` the summary `minors run --json` prints (docs/api.md,
        "Three views")."""
        return self._board.snapshot()

    def board(self) -> Tx:
        """The live state the rules read and write (for rule code and invariants that run
        rules on the game as it stands: read it, never write it; commands write)."""
        return self._board

    def minor(self, name: str) -> MinorState:
        """A minor country's frozen record."""
        return self._board.minors[self._rs.minor(name).name].view()

    def unit(self, unit_id: str) -> Unit:
        """A unit on the map (`UnknownNameError` if there is none by that id)."""
        try:
            return self._board.units[unit_id]
        except (KeyError, TypeError):
            close = difflib.get_close_matches(str(unit_id), self._board.units, n=3)
            raise UnknownNameError("unit", unit_id, tuple(close)) from None

    def at_war(self, a: str, b: str) -> bool:
        """Whether two countries (majors, or a major and a minor) are at war."""
        a, b = self._rs.resolve(a), self._rs.resolve(b)
        board = self._board
        if a in self._rs.majors and b in self._rs.majors:
            return board.at_war(a, b)
        minor, major = (a, b) if a in self._rs.minors else (b, a)
        return major in board.minors[minor].at_war_with if minor in self._rs.minors else False

    def brps(self, major: str) -> int:
        """The major's BRP credits from rule 82: grants less deductions and costs (kept
        beside the ledger: O(1) however long the game)."""
        return self._board.totals.get(self._rs.major(major).name, 0)

    def key(self) -> int:
        """A 64-bit key of the position: statuses, majors, wars, units with owners and
        places, pending associations, deadlines, BRP totals, the clock; not its history
        (no ledger numbers, no order of eliminations). Equal positions have equal keys in
        every process and under every PYTHONHASHSEED; kept incrementally (Zobrist hashing:
        the entries written since it was last asked for are hashed again)."""
        return self._board.key()

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
        unknown or of the wrong kind (a minor where a major belongs ...), or if the
        rulebook has no such kind."""
        resolved: Command = canonical_names(self._rs, cmd)
        if type(resolved) not in self._active.handlers:
            raise CommandError(
                f"{resolved.name}: not a command of rulebook {self._book.name!r} "
                f"(its commands: {', '.join(sorted(self._book.kinds))})"
            )
        self._remember(resolved)  # canonical: `apply` need not resolve it again
        return resolved

    def _remember(self, cmd: Command) -> None:
        """Remember `cmd` as canonical in this game's tables and rulebook (by `id`, the
        command kept alive beside it, so that its id is never another's)."""
        known = self._canonical
        if len(known) >= 1 << 16:  # commands made afresh each time: start again
            known.clear()
        known[id(cmd)] = cmd

    def _violations(self, tx: Tx, cmd: Command) -> list[Violation]:
        """Every violation of `cmd` now: none when every check's boolean path passes it (no
        message is made), else what each check finds, in clause order."""
        kind = type(cmd)
        for ok in self._active.allows.get(kind, ()):
            if not ok(tx, cmd):
                break
        else:
            return []
        found: list[Violation] = []
        for fn in self._active.checks.get(kind, ()):
            found.extend(fn(tx, cmd))
        return found

    def check(self, cmd: Command) -> list[Violation]:
        """Every rule `cmd` would break now, in clause order; empty when it is legal.

        Raises:
            CommandError: the command is malformed (an unknown name ...).
        """
        cmd = self.resolve(cmd)
        return RuleViolation(v).violations if (v := self._violations(self._board, cmd)) else []

    def apply(self, cmd: Command) -> Effects:
        """Apply `cmd` and return its effects (an immutable sequence, `Effects`, whose
        records are made when first read).

        Raises:
            RuleViolation: `cmd` is illegal now; the game is left exactly as it was.
            CommandError: the command is malformed.
        """
        if self._canonical.get(id(cmd)) is not cmd:
            cmd = self._canonical_command(cmd)
        tx = self._board
        if not self._active.allowed[type(cmd)](tx, cmd):
            violations = self._violations(tx, cmd)
            if violations:
                raise RuleViolation(violations)
        return self._run(cmd)

    def _canonical_command(self, cmd: Command) -> Command:
        """`resolve`, remembering a command found canonical (the next `apply` of the same
        object skips it). A command of this rulebook's kinds whose names are already
        canonical (what `legal_actions` lists) is told so by a test generated per kind."""
        test = self._active.canonical.get(type(cmd))
        if test is not None and test(self._rs, cmd):
            self._remember(cmd)
            return cmd
        return self.resolve(cmd)

    def _run(self, cmd: Command) -> Effects:
        tx = self._board
        done: list[Any] = []
        tx.effects = done
        era = tx.era
        try:
            self._active.handlers[type(cmd)](tx, cmd)
        except BaseException:
            tx.undo(tx.journal, era=era)  # a rule failed half-way: nothing of it stays
            raise
        tx.effects = []  # `done` is the step's: no rule writes to it again
        effects = Effects.of(done)
        if self._logging or self._sink is not None:
            entry = LogEntry(self._seq + 1, tx.clock, fields_of(cmd), effects.records())
            self._step(entry, era)
        else:
            self._history.append((tx.journal, self._log, self._seq, era))
            tx.journal = []
            self._seq += 1
        return effects

    def push(self, cmd: Command) -> Effects:
        """`apply`, under python-chess's name: checked, atomic, undone by `pop`."""
        return self.apply(cmd)

    def push_unchecked(self, cmd: Command) -> Effects:
        """Apply a command that `legal_actions` has just listed for this very position,
        without resolving its names or running its checks again (a search engine's hot
        path). Anything else is undefined: use `push`. Undone by `pop`."""
        return self._run(cmd)

    def pop(self) -> None:
        """Undo the last step (`push`, `apply`, `advance_to`), at any depth back to where
        the game was made or cloned (or its stack cleared: `clear_stack`): the state, the
        position key and the log are exactly as they were.

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
        self._board.undo(journal, era=era)

    def clear_stack(self) -> None:
        """Forget the steps `pop` could undo (python-chess's `clear_stack`): the game stays
        as it is, its log too, and `pop` stops here. A long replay that never takes a step
        back (an audit log's verifier) keeps no journal of the steps behind it."""
        self._history.clear()

    @property
    def depth(self) -> int:
        """How many steps `pop` can undo."""
        return len(self._history)

    def advance_to(self, moment: Moment | str) -> Effects:
        """Move the clock forward to `moment`, ending and starting every phase on the way
        with all the rules run there; logged as one `advance` entry.

        Raises:
            ClockError: `moment` is earlier than the clock, or after the calendar's last
                moment (`last_moment`).
        """
        target = moment if isinstance(moment, Moment) else Moment.parse(moment)
        tx = self._board
        if target < tx.clock:
            raise ClockError(f"the clock stands at {tx.clock}; it cannot go back to {target}")
        if target > self._last:
            raise ClockError(
                f"{target} is after the calendar's last moment {self._last} (the start's"
                " last_moment in the tables; an overlay can move it)"
            )
        if target == tx.clock:
            return Effects()
        ends, starts = self._active.phase_end, self._active.phase_start
        sequence = self._book.sequence
        tx.effects = []
        era = tx.era
        try:
            while tx.clock < target:
                for fn in ends.get(tx.clock.phase, ()):
                    fn(tx, tx.clock.side)
                tx.effects.append((phase_ended, tx.clock, sequence))
                tx.assign("clock", tx.clock.next())
                for fn in starts.get(tx.clock.phase, ()):
                    fn(tx, tx.clock.side)
        except BaseException:
            tx.undo(tx.journal, era=era)
            raise
        effects = Effects(tx.effects)
        entry = (
            LogEntry(
                self.next_seq, target, {"command": "advance", "to": str(target)}, effects.records()
            )
            if self._logging or self._sink is not None
            else None
        )
        self._step(entry, era)
        return effects

    def legal_actions(self, kinds: str | Iterable[str] | None = None) -> list[Command]:
        """The commands legal now, of the kinds whose rules generate candidates (see
        docs/embedding.md): under rule 82 declarations, border wars, subversions,
        diplomatic results over the whole scale, conquests, refusals, surrenders,
        re-entries, and moves and removals of the units on the map (moves to a country,
        without a hex), the default set-up of a deployment due now, supply traces through
        limited minors and single chosen losses. `place` is not enumerated.

        `kinds` is one kind (`"declare_war"`) or several; None for all.

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
        return self._legal(wanted)

    def _legal(self, wanted: set[str], gate: bool = True) -> list[Command]:
        """Every candidate of the wanted kinds that passes its checks; with `gate`, the
        generators may skip what a check in force refuses anyway, and vouch for the checks
        they applied themselves (`Batch.verified`). A batch's `batched` checks run on its
        first command only; failing candidates build no message (boolean paths)."""
        out: list[Command] = []
        tx = self._board
        active = self._active
        for name, kind in self._book.kinds.items():
            generate = active.candidates.get(kind)
            if name not in wanted or generate is None:
                continue
            pairs = active.batched.get(kind, ())
            singles = active.single.get(kind, ())
            everything: Plan = ([ok for _, ok in pairs], [ok for _, ok in singles], {})
            plans: dict[frozenset[Any], Plan] = {}
            for item in generate(tx, gate):
                share = None
                checks, single, verdicts = everything
                if isinstance(item, Batch):
                    batch: Sequence[Command] = item.commands
                    share = item.share
                    vouched = item.verified
                    if vouched:
                        plan = plans.get(vouched)
                        if plan is None:
                            plan = plans[vouched] = (
                                [ok for fn, ok in pairs if fn not in vouched],
                                [ok for fn, ok in singles if fn not in vouched],
                                {},
                            )
                        checks, single, verdicts = plan
                elif isinstance(item, Command):
                    batch = (item,)
                else:
                    batch = item
                if not batch:
                    continue
                if checks:
                    allowed = verdicts.get(share) if share is not None else None
                    if allowed is None:
                        allowed = _passes(checks, tx, batch[0])
                        if share is not None:
                            verdicts[share] = allowed
                    if not allowed:
                        continue
                if single:
                    out.extend(c for c in batch if _passes(single, tx, c))
                else:
                    out.extend(batch)
        return out

    # ---- output ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON state of docs/scenario-format.md: what `minors run --json` prints, a
        summary for readers (its schema: `minors schema state`). `state()` is the complete
        state, `raw_state` its records. `units` are sorted by id, so that a game and its
        replay from a log print them alike."""
        board = self._board
        return {
            "clock": str(board.clock),
            "minors": {
                name: {
                    "status": m.status.value,
                    "major": m.major,
                    "at_war_with": list(m.at_war_with),
                }
                for name, m in board.minors.items()
                if m.active
            },
            "units": {
                u.id: {
                    "owner": u.owner,
                    "kind": u.kind.value,
                    "factors": u.factors,
                    "in": u.country,
                    **({"hex": u.hex} if u.hex else {}),
                }
                for u in sorted(board.units.values(), key=lambda u: u.id)
            },
            "eliminated": list(board.eliminated),
            "brps": {m: self.brps(m) for m in self._rs.majors},
            "error": None,
        }

    def state(self) -> dict[str, Any]:
        """The complete canonical state as plain data: everything `from_state` needs
        (ledger, bars, pending associations, deadlines ...); a superset of `to_json()`, and
        what an audit log's snapshots hold. `raw_state` is the same as records."""
        return state_dict(self._board.snapshot())
