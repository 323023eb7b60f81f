"""Rulebooks: rules are marked where they are written, and a `Rulebook` collects them.

A decorator only *marks* a function, as `hypothesis.stateful`'s `@rule` does: `check`,
`handles`, `candidates`, `at_phase_start`, `at_phase_end` and `at_start`. `effect` marks a
function too, and makes it answer to the rulebook in force: switched off with its clause
(`Game.new(disabled=...)`), or replaced by a variant. A `Rulebook` collects the marked
functions of the modules and classes it is given, per instance, and validates them when it
is built: a clause that is not in its clause table, two handlers for one kind, a check for a
kind nothing handles, a phase hook for an unknown phase each fail with an error that says
how to fix them — all of them at once.

A rulebook can `extend` another, adding sources and clauses (ids of its own namespace, like
`H1`) and replacing or removing what the base has; both play side by side in one process.
The kernel knows no clause: every id comes from a rulebook's clause table.
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
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    ParamSpec,
    TypeAlias,
    TypeVar,
    cast,
    overload,
)

from attrs import frozen

from ..domain.clock import Phase
from ..errors import (
    RulebookError,
    RuleViolation,
    UnknownNameError,
    Violation,
    clause_key,
)
from ..ruleset.records import Clause
from .kind import Command, canonical_test

if TYPE_CHECKING:
    from .tx import Tx

__all__ = [
    "Active",
    "Batch",
    "Role",
    "RuleViolation",
    "Rulebook",
    "RulebookError",
    "Violation",
    "as_written",
    "at_phase_end",
    "at_phase_start",
    "at_start",
    "candidates",
    "check",
    "clause_key",
    "effect",
    "handles",
    "load",
]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
C = TypeVar("C", bound=Command)


# ---- violations --------------------------------------------------------------------------------


# ---- marks -------------------------------------------------------------------------------------


class Role(enum.StrEnum):
    """What a marked function is to a rulebook."""

    CHECK = "check"
    """A legality check of a command kind: yields the violations it finds."""
    HANDLER = "handler"
    """Applies a command kind once its checks passed; one per kind."""
    CANDIDATES = "candidates"
    """Yields the commands of a kind worth checking for `legal_actions`."""
    EFFECT = "effect"
    """A rule applied by other rules, switched off with its clause, replaceable by name."""
    PHASE_START = "phase_start"
    """An effect run when every phase of its kind starts."""
    PHASE_END = "phase_end"
    """An effect run when every phase of its kind ends."""
    START = "start"
    """An effect run once on the start position of a new game."""


@frozen
class Mark:
    """What a decorator left on a function."""

    role: Role
    clause: str | None = None
    kind: Any = None
    """The command class (checks, handlers, candidates)."""
    phase: Any = None
    """The phase (phase hooks); checked when a rulebook is built."""
    batched: bool = False
    """A check whose verdict is the same for every command of a candidates batch."""
    passes: Any = None
    """A check's boolean path: (tx, cmd) -> whether the check finds nothing."""


@frozen
class EffectSpec:
    """What `effect` knows of the function it wraps."""

    key: str
    clause: str
    function: Callable[..., Any]
    otherwise: Any


MARKS = "__minors_marks__"
EFFECT = "__minors_effect__"


def _mark(fn: Any, mark: Mark) -> None:
    setattr(fn, MARKS, (*getattr(fn, MARKS, ()), mark))


def _rule_key(fn: Any) -> str:
    spec: EffectSpec | None = getattr(fn, EFFECT, None)
    if spec is not None:
        return spec.key
    return f"{fn.__module__}.{fn.__qualname__}"


def check(
    kind: type[C],
    clause: str,
    *,
    batched: bool = False,
    passes: Callable[[Tx, C], bool] | None = None,
) -> Callable[[Callable[[Tx, C], Iterable[Violation]]], Callable[[Tx, C], Iterable[Violation]]]:
    """Mark a legality check of commands of `kind` under `clause`.

    `batched`: the check gives the same verdict for every command of a batch that the
    kind's `candidates` generator yields (it reads only what the batch's commands share),
    so `legal_actions` runs it once per batch. A check not so marked runs on every command.

    `passes`: the check's boolean path, true exactly when the check finds nothing; built on
    the same predicates as the check, it spares `legal_actions` the messages of the
    candidates it refuses. Without one, `legal_actions` stops the check at its first
    violation.
    """

    def mark(fn: Callable[[Tx, C], Iterable[Violation]]) -> Callable[[Tx, C], Iterable[Violation]]:
        _mark(fn, Mark(Role.CHECK, clause, kind, batched=batched, passes=passes))
        return fn

    return mark


def handles(kind: type[C]) -> Callable[[Callable[[Tx, C], None]], Callable[[Tx, C], None]]:
    """Mark the function that applies commands of `kind` (after their checks passed)."""

    def mark(fn: Callable[[Tx, C], None]) -> Callable[[Tx, C], None]:
        _mark(fn, Mark(Role.HANDLER, None, kind))
        return fn

    return mark


class Batch(Generic[C]):
    """Commands a candidates generator yields together: the checks marked `batched` give
    one verdict for all of them, worked out on the first. Batches of one `legal_actions`
    call with the same `share` (when given) get one verdict too: the generator vouches that
    the batched checks read nothing that differs between them.

    `verified`: checks (the rulebook's functions) that the generator has already applied to
    every command of the batch, by the same predicates at the grain they depend on (an
    owner, a country): `legal_actions` does not run them again. A generator puts a check
    there only while it is in force (`Tx.enforces`), and only when gated; a variant's
    checks, or a base check it replaced, are run as ever. (A plain class: generators make
    one per owner and country, and an attrs class costs three times more.)"""

    __slots__ = ("commands", "share", "verified")

    def __init__(
        self,
        commands: tuple[C, ...],
        share: Hashable | None = None,
        verified: frozenset[Callable[..., Any]] = frozenset(),
    ) -> None:
        self.commands = commands
        self.share = share
        self.verified = verified

    def __repr__(self) -> str:
        return f"Batch({self.commands!r}, share={self.share!r}, verified={len(self.verified)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Batch) and (self.commands, self.share, self.verified) == (
            other.commands,
            other.share,
            other.verified,
        )

    def __hash__(self) -> int:
        return hash((self.commands, self.share, self.verified))


Candidates: TypeAlias = Iterable[C | Sequence[C] | Batch[C]]
"""What a candidates generator yields: commands, batches of them (tuples, lists or
`Batch`es)."""


def candidates(
    kind: type[C],
) -> Callable[[Callable[[Tx, bool], Candidates[C]]], Callable[[Tx, bool], Candidates[C]]]:
    """Mark the generator of the commands of `kind` worth checking for `legal_actions`.

    It receives the transaction and `gated`: when true it may skip what a check in force
    would refuse anyway (the phase of the kind, K1); when false it must yield everything.
    It yields commands, or batches of them (tuples or lists): the checks marked `batched`
    run once on a batch's first command and their verdict stands for the whole batch.
    """

    def mark(fn: Callable[[Tx, bool], Candidates[C]]) -> Callable[[Tx, bool], Candidates[C]]:
        _mark(fn, Mark(Role.CANDIDATES, None, kind))
        return fn

    return mark


def at_phase_start(phase: Phase) -> Callable[[R], R]:
    """Mark an effect to run when every `phase` starts (it receives the side)."""

    def mark(fn: R) -> R:
        _mark(fn, Mark(Role.PHASE_START, None, None, phase))
        return fn

    return mark


def at_phase_end(phase: Phase) -> Callable[[R], R]:
    """Mark an effect to run when every `phase` ends (it receives the side)."""

    def mark(fn: R) -> R:
        _mark(fn, Mark(Role.PHASE_END, None, None, phase))
        return fn

    return mark


def at_start(fn: R) -> R:
    """Mark an effect to run once on the start position of a new game."""
    _mark(fn, Mark(Role.START))
    return fn


class _Effect(Generic[T]):
    """The decorator `effect` returns: the wrapped function returns what it returns, or
    `otherwise` (a `T`) while switched off, and is typed so."""

    def __init__(self, clause: str, otherwise: T, name: str | None) -> None:
        self.clause, self.otherwise, self.name = clause, otherwise, name

    def __call__(self, fn: Callable[Concatenate[Tx, P], R]) -> Callable[Concatenate[Tx, P], R | T]:
        clause, otherwise = self.clause, self.otherwise
        key = self.name or f"{fn.__module__}.{fn.__qualname__}"
        run: Callable[Concatenate[Tx, P], R | T] = functools.update_wrapper(
            _dispatcher(fn, key, otherwise), fn
        )
        setattr(run, EFFECT, EffectSpec(key, clause, fn, otherwise))
        _mark(run, Mark(Role.EFFECT, clause))
        return run


def _dispatcher(fn: Callable[..., Any], key: str, otherwise: Any) -> Callable[..., Any]:
    """The function an `effect` puts in place of `fn`: it runs what the game's table holds
    for `key` (this rulebook's function, a replacement, or None while the clause is off:
    then it returns `otherwise`); an effect the rulebook did not collect runs as written.
    Generated with `fn`'s own parameters, so that a call passes its arguments on as they
    came (a `*args, **kwargs` wrapper packs them: effects are called on every command)."""
    params = list(inspect.signature(fn).parameters.values())
    namespace: dict[str, Any] = {"fn": fn, "key": key, "otherwise": otherwise}
    defined: list[str] = []
    passed: list[str] = []
    marker = None
    for i, p in enumerate(params):
        text = p.name
        if p.default is not p.empty:
            namespace[f"_d{i}"] = p.default
            text += f"=_d{i}"
        if p.kind is p.VAR_POSITIONAL:
            text, arg = f"*{p.name}", f"*{p.name}"
        elif p.kind is p.VAR_KEYWORD:
            text, arg = f"**{p.name}", f"**{p.name}"
        elif p.kind is p.KEYWORD_ONLY:
            if marker is None and not any(q.kind is q.VAR_POSITIONAL for q in params):
                defined.append("*")
            marker, arg = "*", f"{p.name}={p.name}"
        else:
            arg = p.name
        if (
            p.kind is not p.POSITIONAL_ONLY
            and marker is None
            and i
            and (params[i - 1].kind is p.POSITIONAL_ONLY)
        ):
            defined.append("/")
        defined.append(text)
        passed.append(arg)
    if params and params[-1].kind is inspect.Parameter.POSITIONAL_ONLY:
        defined.append("/")
    tx = params[0].name
    source = (
        f"def {fn.__name__}({', '.join(defined)}):\n"
        f"    impl = {tx}.impls.get(key, fn)\n"
        "    if impl is None:\n"
        "        return otherwise\n"
        f"    return impl({', '.join(passed)})\n"
    )
    exec(source, namespace)
    found: Callable[..., Any] = namespace[fn.__name__]
    return found


def as_written(tx: Tx, *effects: Callable[..., Any]) -> bool:
    """Whether each of `effects` (functions marked `effect`) runs as written in this game:
    in force, not replaced by a variant. A cache of what a rule works out may rely on what
    those rules read only while they are the ones written here."""
    if tx.active.pristine:
        return True
    for fn in effects:
        spec: EffectSpec = getattr(fn, EFFECT)
        if tx.impls.get(spec.key, spec.function) is not spec.function:
            return False
    return True


@overload
def effect(clause: str, *, name: str | None = None) -> _Effect[None]: ...


@overload
def effect(clause: str, *, otherwise: T, name: str | None = None) -> _Effect[T]: ...


def effect(clause: str, *, otherwise: Any = None, name: str | None = None) -> _Effect[Any]:
    """Mark a function as an effect of `clause`: while the clause is switched off it does
    nothing and returns `otherwise` (its type says so: `R | type(otherwise)`); a rulebook
    that replaces it (by `name`, a plain word, default the function's qualified name) runs
    the replacement instead.
    """
    return _Effect(clause, otherwise, name)


# ---- the rulebook ---------------------------------------------------------------------------


@frozen
class Entry:
    """One collected rule."""

    role: Role
    key: str
    function: Callable[..., Any]
    clause: str | None = None
    kind: Any = None
    phase: Any = None


@frozen
class Active:
    """What runs in a game: a rulebook's rules less those of the switched-off clauses."""

    checks: Mapping[type[Any], tuple[Callable[..., Iterable[Violation]], ...]]
    """Every check in force per kind, in clause order (`check`, `apply`)."""
    allows: Mapping[type[Any], tuple[Callable[..., bool], ...]]
    """Their boolean paths: `apply` asks them first, and builds messages only on a refusal."""
    allowed: Mapping[type[Any], Callable[..., bool]]
    """Per kind, one function asking every boolean path in turn (`allows` as one call)."""
    batched: Mapping[type[Any], tuple[tuple[Callable[..., Any], Callable[..., bool]], ...]]
    """(check, its boolean path) of the checks `legal_actions` runs once per candidates
    batch, in clause order."""
    single: Mapping[type[Any], tuple[tuple[Callable[..., Any], Callable[..., bool]], ...]]
    """(check, its boolean path) of the checks it runs on each command of a batch that
    passed."""
    handlers: Mapping[type[Any], Callable[..., None]]
    canonical: Mapping[type[Any], Callable[..., bool]]
    """Per kind, the test telling a command already canonical (`kind.canonical_test`), made
    when the rules are activated rather than at the first `apply` of the kind (it generates
    code: a first use in the middle of a search is a latency spike)."""
    candidates: Mapping[type[Any], Callable[..., Iterable[Any]]]
    effects: Mapping[str, Callable[..., Any] | None]
    """Effect key -> the function in force, or None while its clause is off."""
    phase_start: Mapping[Phase, tuple[Callable[..., None], ...]]
    phase_end: Mapping[Phase, tuple[Callable[..., None], ...]]
    start: tuple[Callable[..., None], ...]
    in_force: frozenset[Callable[..., Any]]
    """Every check in force (candidate generators skip only what one of these refuses)."""
    pristine: bool = False
    """Every effect runs as written: none switched off, replaced or removed (`as_written`
    need not look)."""


Source = object
"""A module or a class whose marked functions a rulebook collects."""


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


Replacement = Callable[..., Any] | str
"""A rule to replace or remove: its function (a marked one) or its key."""
Replacements = Mapping[Any, Callable[..., Any]]
"""Replacement -> the function to run instead."""


class Rulebook:
    """The rules of a game, collected from marked functions and validated once.

    Args:
        name: what the rulebook is called (logs record it).
        sources: modules and classes whose marked functions are its rules, in order: phase
            hooks and start effects run in this order, checks in clause order.
        clauses: its clause table (ids of a namespace of its own, for a variant).
        sequence: the clause of its sequence of play (a variant inherits its base's).
        base: the rulebook it extends; its rules and clauses come first.
        replace: base rules to replace, each named by its function or key; the replacement
            keeps the replaced rule's role, kind, clause and phase unless it is marked itself.
        remove: base rules to drop, by function or key (a removed effect does nothing).

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
        """The keys of the base's rules this rulebook (or a base of it) replaced or
        removed."""
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
        self._active: dict[frozenset[str], Active] = {}

    def __repr__(self) -> str:
        return f"<Rulebook {self.name!r}: {len(self.entries)} rules, {len(self.clauses)} clauses>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what builds it again (modules by name, functions and classes by
        reference), so that games go to other processes: rebuilt there, it has the same
        digest. Its rules must be module-level functions."""
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
            if entry.key in dropped:
                if entry.role is Role.EFFECT:
                    out.append(Entry(entry.role, entry.key, _removed, entry.clause))
                continue
            new = wanted.get(entry.key)
            if new is None:
                out.append(entry)
                continue
            marks = [m for m in getattr(new, MARKS, ()) if m.role is entry.role]
            mark = marks[0] if marks else None
            spec: EffectSpec | None = getattr(new, EFFECT, None)
            out.append(
                Entry(
                    entry.role,
                    entry.key,
                    spec.function if spec is not None else new,
                    (mark.clause if mark and mark.clause else None) or entry.clause,
                    entry.kind,
                    entry.phase,
                )
            )
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
                    "minors.kind.Command and give the class a `name`"
                )
            elif kind_name in names and names[kind_name] is not e.kind:
                yield f"two command kinds are called {kind_name!r}: rename one"
            else:
                names[kind_name] = e.kind
        effects = {e.key for e in self.entries if e.role is Role.EFFECT}
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
                if e.key not in effects:
                    yield (
                        f"{e.key} runs at a phase or the start but is not an effect: mark it "
                        "@effect(clause) so that its clause can switch it off"
                    )

    # ---- in play ----------------------------------------------------------------------

    def active(self, disabled: frozenset[str] = frozenset()) -> Active:
        """The rules in force with the clauses `disabled` switched off (worked out once per
        disabled set: `apply` and `legal_actions` ask all the time)."""
        found = self._active.get(disabled)
        if found is None:
            found = self._active[disabled] = self._activate(disabled)
        return found

    def _activate(self, disabled: frozenset[str]) -> Active:
        on = [e for e in self.entries if e.clause is None or e.clause not in disabled]
        checks: dict[type[Any], list[Entry]] = {}
        for e in on:
            if e.role is Role.CHECK:
                checks.setdefault(e.kind, []).append(e)
        effects: dict[str, Callable[..., Any] | None] = {
            e.key: (None if e.clause in disabled or e.function is _removed else e.function)
            for e in self.entries
            if e.role is Role.EFFECT
        }

        def hooks(role: Role) -> dict[Phase, tuple[Callable[..., None], ...]]:
            by_phase: dict[Phase, list[Callable[..., None]]] = {}
            for e in self.entries:
                if e.role is role:
                    by_phase.setdefault(e.phase, []).append(_runner(e.key))
            return {phase: tuple(fns) for phase, fns in by_phase.items()}

        ordered = {
            kind: tuple(
                e.function for e in sorted(found, key=lambda e: clause_key(cast(str, e.clause)))
            )
            for kind, found in checks.items()
        }
        return Active(
            checks=ordered,
            allows={k: tuple(_passes(f) for f in fns) for k, fns in ordered.items()},
            allowed={
                kind: _all_of(tuple(_passes(f) for f in ordered.get(kind, ())))
                for kind in {e.kind for e in self.entries if e.role is Role.HANDLER}
            },
            batched={
                k: tuple((f, _passes(f)) for f in fns if _batched(f)) for k, fns in ordered.items()
            },
            single={
                k: tuple((f, _passes(f)) for f in fns if not _batched(f))
                for k, fns in ordered.items()
            },
            handlers={e.kind: e.function for e in self.entries if e.role is Role.HANDLER},
            canonical={
                e.kind: canonical_test(e.kind) for e in self.entries if e.role is Role.HANDLER
            },
            candidates={e.kind: e.function for e in self.entries if e.role is Role.CANDIDATES},
            effects=effects,
            phase_start=hooks(Role.PHASE_START),
            phase_end=hooks(Role.PHASE_END),
            start=tuple(_runner(e.key) for e in self.entries if e.role is Role.START),
            in_force=frozenset(fn for fns in ordered.values() for fn in fns),
            pristine=not self.rewritten and all(fn is not None for fn in effects.values()),
        )

    def clause_ids(self, ids: Iterable[str]) -> frozenset[str]:
        """`ids` checked against the clause table; a paragraph id may leave out its letter
        prefix where that names one clause (`25.85` is `A25.85`).

        Raises:
            UnknownNameError: an id the table lacks, with the closest ids.
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
            out.add(cid)
        return frozenset(out)

    def implementation(self, key: str) -> Callable[..., Any]:
        """The function an effect key runs in this rulebook (`KeyError` if it has none)."""
        for e in self.entries:
            if e.role is Role.EFFECT and e.key == key:
                return e.function
        raise KeyError(key)

    def named(self) -> dict[str, Callable[..., Any]]:
        """The effects given a name of their own (`effect(..., name=...)`): the replaceable
        points where a rule defers to rules it does not give (what 0.1 called hooks)."""
        return {
            e.key: e.function for e in self.entries if e.role is Role.EFFECT and "." not in e.key
        }

    def registered(self) -> dict[str, list[tuple[str, str]]]:
        """Clause id -> (function, role) of each rule under it (coverage reads this)."""
        out: dict[str, list[tuple[str, str]]] = {}
        for e in self.entries:
            if e.clause is not None:
                name = f"{e.function.__module__}.{e.function.__qualname__}"
                out.setdefault(e.clause, []).append((name, e.role.value))
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
    with its active rules and digest)."""
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


def _runner(key: str) -> Callable[..., None]:
    """A phase hook or start effect runs what the game's effect table holds for its key: the
    rulebook's function, a replacement, or nothing while its clause is off."""

    def run(tx: Tx, *args: Any) -> None:
        impl = tx.impls.get(key)
        if impl is not None:
            impl(tx, *args)

    run.__qualname__ = run.__name__ = key
    return run


def _batched(fn: Any) -> bool:
    """Whether a check was marked `batched` (a replacement is judged by its own mark)."""
    return any(m.role is Role.CHECK and m.batched for m in getattr(fn, MARKS, ()))


def _passes(fn: Any) -> Callable[..., bool]:
    """A check's boolean path: the one its mark gives (a replacement's own mark only), or
    the check stopped at its first violation."""
    for m in getattr(fn, MARKS, ()):
        if m.role is Role.CHECK and m.passes is not None:
            found: Callable[..., bool] = m.passes
            return found

    def passes(tx: Tx, cmd: Any) -> bool:
        for _ in fn(tx, cmd):
            return False
        return True

    passes.__qualname__ = passes.__name__ = f"{getattr(fn, '__qualname__', fn)}.passes"
    return passes


def _all_of(paths: tuple[Callable[..., bool], ...]) -> Callable[..., bool]:
    """One function that is true when every one of `paths` is (asked in order, stopping at
    the first false): generated, so that `apply` makes one call however many checks."""
    namespace: dict[str, Any] = {f"_p{i}": p for i, p in enumerate(paths)}
    body = " and ".join(f"_p{i}(tx, cmd)" for i in range(len(paths))) or "True"
    exec(f"def allowed(tx, cmd):\n    return {body}\n", namespace)
    found: Callable[..., bool] = namespace["allowed"]
    return found


def _removed(tx: Tx, *args: Any, **kwargs: Any) -> None:
    """What a removed effect runs: nothing (its callers get its `otherwise`)."""


def _entries(value: Any) -> Iterator[Entry]:
    """The entries of one marked function."""
    spec: EffectSpec | None = getattr(value, EFFECT, None)
    key = _rule_key(value)
    for m in getattr(value, MARKS, ()):
        if m.role is Role.EFFECT:
            assert spec is not None
            yield Entry(Role.EFFECT, key, spec.function, m.clause)
        elif m.role in (Role.PHASE_START, Role.PHASE_END, Role.START):
            yield Entry(m.role, key, value, None, None, m.phase)  # the effect has the clause
        else:
            yield Entry(m.role, key, value, m.clause, m.kind)


def load(spec: str) -> Rulebook:
    """The rulebook `module:attribute` names (the CLI's `--rulebook`): imported from the
    caller's word, never from a log's.

    Raises:
        RulebookError: the spec is malformed, the module cannot be imported, or the
            attribute is missing or not a `Rulebook`.
    """
    module_name, colon, attribute = spec.partition(":")
    where = f"--rulebook {spec!r}"
    if not colon or not module_name or not attribute:
        raise RulebookError(
            spec, [f"{where}: write module:attribute, like minors.examples.winter_truce:RULEBOOK"]
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a user's module may fail in any way: report it, no traceback
        raise RulebookError(
            spec, [f"{where}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"]
        ) from None
    found = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            names = [n for n in dir(found) if isinstance(getattr(found, n, None), Rulebook)]
            raise RulebookError(
                spec,
                [f"{where}: {module_name} has no {attribute!r}{_closest(part, names)}"],
            )
        found = getattr(found, part)
    if not isinstance(found, Rulebook):
        raise RulebookError(
            spec, [f"{where}: {attribute} is a {type(found).__name__}, not a Rulebook"]
        )
    return found
