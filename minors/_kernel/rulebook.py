"""Rulebooks: rules are marked where they are written (a decorator only marks, as
`hypothesis.stateful`'s `@rule` does), and a `Rulebook` collects and validates them. Every
marked rule but a handler and a generator carries one clause, and switching the clause off
switches exactly that code off. The kernel knows no clause: ids come from a clause table.
"""

from __future__ import annotations

import difflib
import enum
import functools
import hashlib
import importlib
import inspect
import json
import marshal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Concatenate, Generic, ParamSpec, TypeAlias, TypeVar, cast, overload

from attrs import evolve, field, frozen

from ..domain.clock import Phase
from ..domain.events import note
from ..errors import ClauseError, RulebookError, UnknownNameError, clause_key
from ..ruleset.records import Clause
from ..ruleset.tables import Ruleset
from .board import Board
from .kind import Command, plan

__all__ = [
    "Check",
    "Play",
    "Refusal",
    "Role",
    "Rulebook",
    "RulebookError",
    "Rules",
    "at_phase_end",
    "at_phase_start",
    "at_start",
    "candidates",
    "check",
    "handles",
    "refuse",
    "rule",
]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
C = TypeVar("C", bound=Command)


# ---- what rules work with ---------------------------------------------------------------------


class Play:
    """What a rule works with: the board it reads and writes, the tables (`rs`), the rules in
    force (`rules`) and the events of the step under way (a game keeps one)."""

    __slots__ = ("board", "events", "rs", "rules")

    def __init__(self, board: Board, rs: Ruleset, rules: Rules) -> None:
        self.board = board
        self.rs = rs
        self.rules = rules
        self.events: list[Any] = []  # events, or (factory, *args) making one when read

    def fork(self) -> Play:
        """A play of the same rules over a fork of the board."""
        return Play(self.board.fork(), self.rs, self.rules)

    def emit(self, *item: Any) -> None:
        """Record an event, made when read: `play.emit(UnitMoved, unit_id, to, "K3")`."""
        self.events.append(item)

    def note(self, rule: str, template: str, *args: Any) -> None:
        """Record a `Note` under `rule`, its text `template.format(*args)` made when read."""
        self.events.append((note, rule, template, *args))


class Refusal:
    """What a check finds wrong with a command (the game makes it a `Violation` of the
    check's clause); a message given as a function is made when first read."""

    __slots__ = ("_message", "data")

    def __init__(self, message: str | Callable[[], str], data: Mapping[str, Any]) -> None:
        self._message = message
        self.data = data

    @property
    def message(self) -> str:
        """The text of the refusal."""
        message = self._message
        if not isinstance(message, str):
            message = self._message = message()
        return message

    def __repr__(self) -> str:
        return f"Refusal({self.message!r}, {dict(self.data)!r})"


def refuse(message: str | Callable[[], str], **data: Any) -> Refusal:
    """A check's refusal: `refuse(f"{major} garrisons {minor}", garrison=major)` (or
    `refuse(lambda: f"...")` where refusals are frequent and their text seldom read)."""
    return Refusal(message, data)


Check: TypeAlias = Callable[[Play, Any], Iterable[Refusal]]
"""A legality check: the command's refusals under its clause, empty when it is fine."""


# ---- marks ------------------------------------------------------------------------------------


class Role(enum.StrEnum):
    """What a marked function is to a rulebook (the decorators of the same names)."""

    CHECK = "check"
    HANDLER = "handler"
    CANDIDATES = "candidates"
    RULE = "rule"
    PHASE_START = "phase_start"
    PHASE_END = "phase_end"
    START = "start"


@frozen
class Mark:
    """What a decorator left on a function."""

    role: Role
    clause: str | None = None
    kind: Any = None  # the command class (checks, handlers, candidates)
    phase: Any = None  # the phase (phase hooks), checked when a rulebook is built
    batched: bool = False


@frozen
class RuleSpec:
    """What `rule` knows of the function it wraps."""

    key: str
    clause: str
    function: Callable[..., Any]
    otherwise: Any


MARKS = "__minors_marks__"
SPEC = "__minors_rule__"


def _mark(fn: Any, mark: Mark) -> None:
    setattr(fn, MARKS, (*getattr(fn, MARKS, ()), mark))


def _marking(*marks: Mark) -> Callable[[R], R]:
    """A decorator leaving `marks` on the function it is given."""

    def marked(fn: R) -> R:
        for m in marks:
            _mark(fn, m)
        return fn

    return marked


def _rule_key(fn: Any) -> str:
    spec: RuleSpec | None = getattr(fn, SPEC, None)
    if spec is not None:
        return spec.key
    return f"{fn.__module__}.{fn.__qualname__}"


CheckOf: TypeAlias = Callable[[Play, C], Iterable[Refusal]]


@overload
def check(
    kind: type[C], clause: str, *, batched: bool = False
) -> Callable[[CheckOf[C]], CheckOf[C]]: ...


@overload
def check(
    kind: tuple[type[Command], ...], clause: str, *, batched: bool = False
) -> Callable[[CheckOf[Any]], CheckOf[Any]]: ...


def check(
    kind: type[Any] | tuple[type[Any], ...], clause: str, *, batched: bool = False
) -> Callable[[CheckOf[Any]], CheckOf[Any]]:
    """Mark a legality check of commands of `kind` (or of each of several kinds) under
    `clause`: it returns the command's refusals (`refuse(...)`), nothing when it is fine,
    and never names a clause. `batched`: it gives one verdict for every command of a batch
    the kind's generator yields, so that `legal_actions` asks it once per batch."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return _marking(*(Mark(Role.CHECK, clause, k, batched=batched) for k in kinds))


def handles(kind: type[C]) -> Callable[[Callable[[Play, C], None]], Callable[[Play, C], None]]:
    """Mark the function that applies commands of `kind` (after their checks passed)."""
    return _marking(Mark(Role.HANDLER, None, kind))


Candidates: TypeAlias = Iterable[C | Sequence[C]]  # commands, or batches of them


def candidates(
    kind: type[C],
) -> Callable[[Callable[[Play], Candidates[C]]], Callable[[Play], Candidates[C]]]:
    """Mark the generator of the commands of `kind` (or batches of them) worth checking for
    `legal_actions`: it decides no legality, and asks a check itself to leave out at once
    what the check refuses (`play.rules.refuses(check, play, probe)`)."""
    return _marking(Mark(Role.CANDIDATES, None, kind))


def at_phase_start(phase: Phase) -> Callable[[R], R]:
    """Mark a rule to run when every `phase` starts (it receives the side)."""
    return _marking(Mark(Role.PHASE_START, None, None, phase))


def at_phase_end(phase: Phase) -> Callable[[R], R]:
    """Mark a rule to run when every `phase` ends (it receives the side)."""
    return _marking(Mark(Role.PHASE_END, None, None, phase))


def at_start(fn: R) -> R:
    """Mark a rule to run once on the start position of a new game."""
    _mark(fn, Mark(Role.START))
    return fn


class _Rule(Generic[T]):
    """What `rule` returns: the wrapped function gives `otherwise` (a `T`) while off."""

    def __init__(self, clause: str, otherwise: T, name: str | None) -> None:
        self.clause, self.otherwise, self.name = clause, otherwise, name

    def __call__(
        self, fn: Callable[Concatenate[Play, P], R]
    ) -> Callable[Concatenate[Play, P], R | T]:
        key = self.name or f"{fn.__module__}.{fn.__qualname__}"
        otherwise = self.otherwise
        run: Callable[Concatenate[Play, P], R | T] = _dispatcher(fn, key, otherwise)
        functools.update_wrapper(run, fn)
        setattr(run, SPEC, RuleSpec(key, self.clause, fn, otherwise))
        _mark(run, Mark(Role.RULE, self.clause))
        return run


def _dispatcher(fn: Callable[..., Any], key: str, otherwise: Any) -> Callable[..., Any]:
    """What `rule` puts in place of `fn`: it runs the function in force (`fn`, a variant's, or none
    while off: then it gives `otherwise`). One of one to four plain parameters gets a dispatcher of
    that many (about 20 calls per command; `*args, **kwargs` costs 2.5 times as much a call)."""
    params = list(inspect.signature(fn).parameters.values())[1:]
    plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
    if plain and len(params) == 1:

        def run1(play: Play, a: Any) -> Any:
            impl = play.rules.impls.get(key, fn)
            return otherwise if impl is None else impl(play, a)

        return run1
    if plain and len(params) == 2:

        def run2(play: Play, a: Any, b: Any) -> Any:
            impl = play.rules.impls.get(key, fn)
            return otherwise if impl is None else impl(play, a, b)

        return run2
    if plain and len(params) == 3:

        def run3(play: Play, a: Any, b: Any, c: Any) -> Any:
            impl = play.rules.impls.get(key, fn)
            return otherwise if impl is None else impl(play, a, b, c)

        return run3
    if plain and len(params) == 4:

        def run4(play: Play, a: Any, b: Any, c: Any, d: Any) -> Any:
            impl = play.rules.impls.get(key, fn)
            return otherwise if impl is None else impl(play, a, b, c, d)

        return run4

    def run(play: Play, /, *args: Any, **kwargs: Any) -> Any:
        impl = play.rules.impls.get(key, fn)
        return otherwise if impl is None else impl(play, *args, **kwargs)

    return run


@overload
def rule(clause: str, *, name: str | None = None) -> _Rule[None]: ...


@overload
def rule(clause: str, *, otherwise: T, name: str | None = None) -> _Rule[T]: ...


def rule(clause: str, *, otherwise: Any = None, name: str | None = None) -> _Rule[Any]:
    """Mark a function as a rule of `clause` that other rules apply: while the clause is off
    it does nothing and returns `otherwise` (typed `R | type(otherwise)`); a variant
    replaces it by `name` (default: the function's qualified name)."""
    return _Rule(clause, otherwise, name)


# ---- the rules in force -----------------------------------------------------------------------


@frozen
class Entry:
    """One collected rule."""

    role: Role
    key: str
    function: Callable[..., Any]
    clause: str | None = None
    kind: Any = None
    phase: Any = None
    otherwise: Any = None
    """What a `rule` function gives while its clause is off."""


@frozen
class Rules:
    """What runs in one game: a rulebook's rules less those of its switched-off clauses
    (`off`). Rules read it as `play.rules`."""

    book: Rulebook
    off: frozenset[str]
    checks: Mapping[type[Any], tuple[tuple[Check, str], ...]]
    """(check, clause) of every check in force per kind, in clause order; `batched` and
    `single` split them as `legal_actions` asks them (once per batch, once per command)."""
    batched: Mapping[type[Any], tuple[tuple[Check, str], ...]]
    single: Mapping[type[Any], tuple[tuple[Check, str], ...]]
    handlers: Mapping[type[Any], Callable[..., None]]
    candidates: Mapping[type[Any], Callable[..., Any]]
    impls: Mapping[str, Callable[..., Any] | None]
    """Key of each `rule` function -> the function that runs (None while it is off)."""
    phase_start: Mapping[Phase, tuple[Callable[..., None], ...]]
    phase_end: Mapping[Phase, tuple[Callable[..., None], ...]]
    start: tuple[Callable[..., None], ...]
    pristine: bool
    """Every rule runs as written: none switched off, replaced or removed."""
    in_force: frozenset[Check]
    canonical: dict[str, dict[int, Any]] = field(factory=dict, eq=False, repr=False)
    """Per tables (by digest), the commands found canonical under this rulebook, by `id`,
    each kept alive beside it: games of one rulebook and tables share what they resolved."""

    def on(self, clause: str) -> bool:
        """Whether `clause` is in force: the one way a rule branches on a clause.

        Raises:
            ClauseError: the rulebook marks nothing with `clause`.
        """
        if clause not in self.book.switchable:
            raise ClauseError(
                f"rulebook {self.book.name!r} marks nothing with {clause!r}: a rule asks "
                "`rules.on` only of a clause its checks or rules carry"
            )
        return clause not in self.off

    def refuses(self, check: Check, play: Play, cmd: Any) -> bool:
        """Whether `check` is in force here and refuses `cmd`: how a generator leaves out
        the commands that share with `cmd` what `check` reads (one off, removed or replaced
        refuses nothing here)."""
        if check not in self.in_force:
            return False
        for _ in check(play, cmd):
            return True
        return False

    def as_written(self, *functions: Callable[..., Any]) -> bool:
        """Whether each of `functions` (checks or rules) runs as written here or is off:
        none replaced or removed by a variant (a cache may rely on what they read)."""
        if self.pristine:
            return True
        for fn in functions:
            spec: RuleSpec | None = getattr(fn, SPEC, None)
            if spec is not None:
                if self.impls.get(spec.key, spec.function) not in (spec.function, None):
                    return False
            elif fn not in self.in_force and not any(
                m.clause in self.off for m in getattr(fn, MARKS, ())
            ):
                return False
        return True


# ---- the rulebook -----------------------------------------------------------------------------


Source = object
"""A module or a class whose marked functions a rulebook collects."""

Replacement = Callable[..., Any] | str
"""A rule to replace or remove: its function (a marked one) or its key."""
Replacements = Mapping[Any, Callable[..., Any]]
"""Replacement -> the function to run instead."""


class Rulebook:
    """The rules of a game, collected from marked functions and validated once.

    Args:
        name: what the rulebook is called (logs record it).
        sources: modules and classes whose marked functions are its rules, in order: phase
            hooks and start rules run in this order, checks in clause order.
        clauses: its clause table (ids of a namespace of its own, for a variant).
        sequence: the clause of its sequence of play (a variant inherits its base's).
        base: the rulebook it extends; its rules and clauses come first.
        replace: base rules to replace, each named by its function or key; the replacement
            keeps the replaced rule's role, kind, clause and phase unless it is marked itself.
        remove: base rules to drop, by function or key (a removed `rule` does nothing).

    Raises:
        RulebookError: every problem found, each with its fix.
    """

    def __init__(
        self,
        name: str,
        *sources: Source,
        clauses: Iterable[Clause] = (),
        base: Rulebook | None = None,
        replace: Replacements | None = None,
        remove: Iterable[Replacement] = (),
        sequence: str | None = None,
    ) -> None:
        self.name = name
        self.base = base
        self.sources = tuple(sources)
        self._made = (dict(replace or {}), tuple(remove), tuple(clauses), sequence)
        problems: list[str] = []
        own = {c.id: c for c in clauses}
        table = dict(base.clauses) if base is not None else {}
        for cid in own:
            if cid in table:
                problems.append(f"clause {cid!r} is in the base's table already: give it a new id")
        self.clauses: Mapping[str, Clause] = {**table, **own}
        self.sequence: str = sequence or (base.sequence if base is not None else "")
        """The clause of its sequence of play, cited when the clock leaves a phase."""
        if not self.sequence or self.sequence not in self.clauses:
            problems.append(
                f"the sequence of play cites clause {self.sequence!r}, which is not in the "
                "clause table: give sequence= the id of the rule of phases"
            )
        entries = list(base.entries) if base is not None else []
        entries = self._replaced(entries, dict(replace or {}), list(remove), problems)
        self.rewritten: frozenset[str] = frozenset(
            (base.rewritten if base is not None else frozenset())
            | {k if isinstance(k, str) else _rule_key(k) for k in (*(replace or {}), *remove)}
        )
        """The keys of the base's rules this rulebook (or a base of it) replaced or removed."""
        seen = {id(e.function) for e in entries}
        for source in sources:
            try:
                members = list(_members(source))
            except TypeError as exc:
                problems.append(f"{exc}: pass the module or class that holds the rules")
                continue
            for value in members:
                if id(value) in seen or not getattr(value, MARKS, ()):
                    continue
                seen.add(id(value))
                entries.extend(_entries(value))
        self.entries: tuple[Entry, ...] = tuple(entries)
        problems.extend(self._problems())
        if problems:
            raise RulebookError(name, problems)
        self.kinds: Mapping[str, type[Any]] = {
            e.kind.name: e.kind for e in self.entries if e.role is Role.HANDLER
        }
        for kind in self.kinds.values():
            plan(kind)  # how names are made canonical, worked out now, not mid-search
        self.switchable: frozenset[str] = frozenset(
            e.clause for e in self.entries if e.clause is not None and e.function is not _removed
        )
        """The clauses something is marked with: what `disabled=` takes."""
        self._in_force: dict[frozenset[str], Rules] = {}

    def __repr__(self) -> str:
        return f"<Rulebook {self.name!r}: {len(self.entries)} rules, {len(self.clauses)} clauses>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what builds it again (modules by name, functions by reference), so
        that games go to other processes with the same digest."""
        replace, remove, clauses, sequence = self._made
        sources = tuple(
            ("module", s.__name__) if inspect.ismodule(s) else ("class", s) for s in self.sources
        )
        made = (self.name, sources, clauses, self.base, tuple(replace.items()), remove, sequence)
        return _rebuild, made

    def extend(
        self,
        name: str,
        *sources: Source,
        clauses: Iterable[Clause] = (),
        replace: Replacements | None = None,
        remove: Iterable[Replacement] = (),
    ) -> Rulebook:
        """A variant: this rulebook's rules and clauses, plus those of `sources` and
        `clauses`, with `replace` and `remove` applied (see `Rulebook`)."""
        return Rulebook(name, *sources, clauses=clauses, base=self, replace=replace, remove=remove)

    # ---- building ----------------------------------------------------------------------

    def _replaced(
        self,
        entries: list[Entry],
        replace: dict[Any, Callable[..., Any]],
        remove: list[Replacement],
        problems: list[str],
    ) -> list[Entry]:
        keys = {e.key for e in entries}
        wanted = {(k if isinstance(k, str) else _rule_key(k)): v for k, v in replace.items()}
        dropped = {k if isinstance(k, str) else _rule_key(k) for k in remove}
        for key in [*wanted, *dropped]:
            if key not in keys:
                problems.append(
                    f"no rule {key!r} in the base to replace or remove{_closest(key, keys)}: "
                    "name it by its function or its key"
                )
        out: list[Entry] = []
        for entry in entries:
            new = wanted.get(entry.key)
            if entry.key in dropped:
                if entry.role is Role.RULE:  # it answers its callers with `otherwise`
                    out.append(evolve(entry, function=_removed))
            elif new is None:
                out.append(entry)
            else:
                mark = next((m for m in getattr(new, MARKS, ()) if m.role is entry.role), None)
                spec: RuleSpec | None = getattr(new, SPEC, None)
                function = spec.function if spec is not None else new
                clause = (mark.clause if mark is not None else None) or entry.clause
                out.append(evolve(entry, function=function, clause=clause))
        return out

    def _problems(self) -> Iterator[str]:
        handled: dict[type[Any], str] = {}
        names: dict[str, type[Any]] = {}
        for e in self.entries:
            if e.role is not Role.HANDLER:
                continue
            if e.kind in handled:
                yield (
                    f"two handlers for {e.kind.__name__}: {handled[e.kind]} and {e.key}; "
                    "keep one, or replace the base's with extend(replace=...)"
                )
            handled[e.kind] = e.key
            kind_name = getattr(e.kind, "name", None)
            if not isinstance(e.kind, type) or not issubclass(e.kind, Command) or not kind_name:
                yield (
                    f"{e.key} handles {e.kind!r}, which is not a command kind: subclass "
                    "minors.Command and give the class a `name`"
                )
            elif kind_name in names and names[kind_name] is not e.kind:
                yield f"two command kinds are called {kind_name!r}: rename one"
            else:
                names[kind_name] = e.kind
        rules = {e.key for e in self.entries if e.role is Role.RULE}
        for e in self.entries:
            if e.clause is not None and e.clause not in self.clauses:
                yield (
                    f"{e.key} ({e.role.value}) cites clause {e.clause!r}, which is not in the "
                    f"clause table{_closest(e.clause, self.clauses)}: fix the id, or add the "
                    "clause to the rulebook's clauses"
                )
            if e.role in (Role.CHECK, Role.CANDIDATES) and e.kind not in handled:
                kind = getattr(e.kind, "__name__", repr(e.kind))
                yield (
                    f"{e.key} is a {e.role.value} for {kind}, which nothing handles: mark its "
                    "handler with @handles, or fix the kind"
                )
            if e.role in (Role.PHASE_START, Role.PHASE_END, Role.START):
                if e.role is not Role.START and not isinstance(e.phase, Phase):
                    yield (
                        f"{e.key} is a phase hook for {e.phase!r}, which is not a phase: "
                        f"use one of {', '.join('Phase.' + p.name for p in Phase)}"
                    )
                if e.key not in rules:
                    yield (
                        f"{e.key} runs at a phase or the start but is not a rule: mark it "
                        "@rule(clause) so that its clause can switch it off"
                    )

    # ---- in play ----------------------------------------------------------------------

    def in_force(self, disabled: frozenset[str] = frozenset()) -> Rules:
        """The rules in force with the clauses `disabled` switched off (worked out once per
        disabled set)."""
        found = self._in_force.get(disabled)
        if found is None:
            found = self._in_force[disabled] = self._activate(disabled)
        return found

    def _activate(self, disabled: frozenset[str]) -> Rules:
        checks: dict[type[Any], list[Entry]] = {}
        for e in self.entries:
            if e.role is Role.CHECK and e.clause not in disabled:
                checks.setdefault(e.kind, []).append(e)
        impls: dict[str, Callable[..., Any] | None] = {
            e.key: (None if e.clause in disabled or e.function is _removed else e.function)
            for e in self.entries
            if e.role is Role.RULE
        }

        def hooks(role: Role) -> dict[Phase, tuple[Callable[..., None], ...]]:
            by_phase: dict[Phase, list[Callable[..., None]]] = {}
            for e in self.entries:
                impl = impls.get(e.key) if e.role is role else None
                if impl is not None:
                    by_phase.setdefault(e.phase, []).append(impl)
            return {phase: tuple(fns) for phase, fns in by_phase.items()}

        ordered = {
            kind: tuple(
                (e.function, cast(str, e.clause))
                for e in sorted(found, key=lambda e: clause_key(cast(str, e.clause)))
            )
            for kind, found in checks.items()
        }
        return Rules(
            book=self,
            off=disabled,
            checks=ordered,
            batched={k: tuple(c for c in fns if _batched(c[0])) for k, fns in ordered.items()},
            single={k: tuple(c for c in fns if not _batched(c[0])) for k, fns in ordered.items()},
            handlers={e.kind: e.function for e in self.entries if e.role is Role.HANDLER},
            candidates={e.kind: e.function for e in self.entries if e.role is Role.CANDIDATES},
            impls=impls,
            phase_start=hooks(Role.PHASE_START),
            phase_end=hooks(Role.PHASE_END),
            start=tuple(
                impl
                for e in self.entries
                if e.role is Role.START and (impl := impls.get(e.key)) is not None
            ),
            pristine=not self.rewritten and all(fn is not None for fn in impls.values()),
            in_force=frozenset(fn for fns in ordered.values() for fn, _ in fns),
        )

    def clause_ids(self, ids: Iterable[str]) -> frozenset[str]:
        """`ids` checked against the clauses something is marked with (`25.85` may stand
        for `A25.85`).

        Raises:
            UnknownNameError: an id the clause table lacks, with the closest ids.
            ClauseError: a clause nothing is marked with, with those that can be switched off.
        """
        out: set[str] = set()
        for given in ids:
            cid = str(given).strip()
            if cid not in self.clauses and "." in cid:
                bare = [c for c in self.clauses if c.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == cid]
                cid = bare[0] if len(bare) == 1 else cid
            if cid not in self.clauses:
                close = tuple(difflib.get_close_matches(cid, list(self.clauses), n=3))
                raise UnknownNameError(f"clause of rulebook {self.name!r}", cid, close)
            if cid not in self.switchable:
                switchable = ", ".join(sorted(self.switchable, key=clause_key))
                raise ClauseError(
                    f"clause {cid!r} cannot be switched off in rulebook {self.name!r}: no check "
                    f"or rule of it is marked with it (its tables or queries carry it, or it "
                    f"is not a rule of play); clauses that can be: {switchable}"
                )
            out.add(cid)
        return frozenset(out)

    def named(self) -> dict[str, Callable[..., Any]]:
        """The rules given a name of their own (`rule(..., name=...)`): the replaceable points
        where a rule defers to rules it does not give."""
        return {e.key: e.function for e in self.entries if e.role is Role.RULE and "." not in e.key}

    def registered(self) -> dict[str, list[tuple[str, str]]]:
        """Clause id -> (function, role) of each rule marked with it (coverage reads this)."""
        out: dict[str, list[tuple[str, str]]] = {}
        for e in self.entries:
            if e.clause is not None and e.function is not _removed:
                found = (f"{e.function.__module__}.{e.function.__qualname__}", e.role.value)
                if found not in out.setdefault(e.clause, []):  # a check of several kinds
                    out[e.clause].append(found)
        return out

    @functools.cached_property
    def digest(self) -> str:
        """SHA-256 of what defines the rulebook: its name, its clause table, and each rule
        (role, key, clause, kind, phase, and the source of the function that runs)."""
        sources: dict[int, str] = {}

        def of(thing: Any) -> str:
            if id(thing) not in sources:
                sources[id(thing)] = _source_digest(thing)
            return sources[id(thing)]

        rules = [
            {
                "role": e.role.value,
                "key": e.key,
                "clause": e.clause,
                "kind": getattr(e.kind, "name", None),
                "kind_source": of(e.kind) if e.kind is not None else None,
                "phase": e.phase.value if isinstance(e.phase, Phase) else None,
                "source": of(e.function),
            }
            for e in self.entries
        ]
        body = {
            "name": self.name,
            "clauses": {cid: c.title for cid, c in sorted(self.clauses.items())},
            "rules": rules,
        }
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def _rebuild(
    name: str,
    sources: tuple[tuple[str, Any], ...],
    clauses: tuple[Clause, ...],
    base: Rulebook | None,
    replace: tuple[tuple[Any, Callable[..., Any]], ...],
    remove: tuple[Replacement, ...],
    sequence: str | None,
) -> Rulebook:
    """A pickled rulebook built again, once per process (games unpickled together share it,
    with its rules in force and digest)."""
    found = [importlib.import_module(s) if kind == "module" else s for kind, s in sources]
    return Rulebook(
        name,
        *found,
        clauses=clauses,
        base=base,
        replace=dict(replace),
        remove=remove,
        sequence=sequence,
    )


def _members(source: Source) -> Iterator[Any]:
    """The marked functions of a module (defined there, in definition order) or a class
    (its own and its bases', a subclass's overriding by name)."""
    if inspect.ismodule(source):
        for value in vars(source).values():
            if getattr(value, "__module__", None) == source.__name__:
                yield value
        return
    if not inspect.isclass(source):
        raise TypeError(f"a rulebook collects modules and classes, not {source!r}")
    merged: dict[str, Any] = {}
    for klass in reversed(source.__mro__):
        merged.update(vars(klass))
    for value in merged.values():
        yield getattr(value, "__func__", value)  # staticmethod, classmethod


def _entries(value: Any) -> Iterator[Entry]:
    """The entries of one marked function."""
    spec: RuleSpec | None = getattr(value, SPEC, None)
    key = _rule_key(value)
    for m in getattr(value, MARKS, ()):
        if m.role is Role.RULE:
            assert spec is not None
            yield Entry(Role.RULE, key, spec.function, m.clause, otherwise=spec.otherwise)
        elif m.role in (Role.PHASE_START, Role.PHASE_END, Role.START):
            yield Entry(m.role, key, value, None, None, m.phase)  # the rule has the clause
        else:
            yield Entry(m.role, key, value, m.clause, m.kind)


def _closest(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=3)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


def _source_digest(fn: Any) -> str:
    """SHA-256 of a function's (or class's) source; of its code where the source is gone."""
    try:
        text = inspect.getsource(fn).encode()
    except (OSError, TypeError):
        code = getattr(fn, "__code__", None)
        text = marshal.dumps(code) if code is not None else repr(fn).encode()
    return hashlib.sha256(text).hexdigest()


def _batched(fn: Any) -> bool:
    """Whether a check was marked `batched` (a replacement is judged by its own mark)."""
    return any(m.role is Role.CHECK and m.batched for m in getattr(fn, MARKS, ()))


def _removed(play: Play, *args: Any, **kwargs: Any) -> None:
    """What a removed rule runs: nothing (its callers get its `otherwise`)."""
