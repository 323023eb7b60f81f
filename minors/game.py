"""The `Game`: state, clock and log behind the public API (shared/spec/api.md)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

import cattrs

# The rule modules register their checks, effects and handlers on import, in this order.
from . import conquest, deployment, diplomacy, limits, movement, survival, war  # noqa: F401
from .clock import Moment, Phase
from .commands import (
    KINDS,
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
    fields_of,
)
from .effects import Effect, PhaseEnded
from .errors import MinorsError, UnknownNameError
from .hooks import Hooks
from .log import Log, LogEntry
from .registry import HANDLERS, PHASE_END, PHASE_START, RuleViolation, Violation, active_checks
from .ruleset import Ruleset, load_ruleset
from .state import GameState, MinorState, Pending, evolve, state_converter, state_dict
from .tx import TIED, Tx
from .units import Unit, UnitKind

__all__ = ["ClockError", "Game", "StateError"]


class ClockError(MinorsError, ValueError):
    """The clock moves forward only."""


class StateError(MinorsError, ValueError):
    """A state given to `Game.from_state` that cannot be read."""


def _ruleset(ruleset: Ruleset | Iterable[str | Path]) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)


def start_state(rs: Ruleset, start: str, disabled: frozenset[str] = frozenset()) -> GameState:
    """The start position `start` of the tables: clock, wars, each minor's start."""
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
        tied = m.start_status in TIED
        direct = () if tied else tuple(sorted(m.start_at_war_with))
        minors[name] = MinorState(
            name=name, status=m.start_status, major=m.start_major or None,
            direct_wars=direct, attacked_by=direct[0] if direct else None,
            attacked_at=attacked_at if direct else None, pending=pending.get(name),
            active=m.active,
        )  # fmt: skip
    state = GameState(clock=Moment.parse(spec.clock), minors=minors, units={}, wars=wars)
    tx = Tx(state, rs, disabled, Hooks())
    for name in sorted(minors):
        tx.put(evolve(tx.minors[name], at_war_with=tx.wars_of(tx.minors[name])))
    deployment.pacific_at_start(tx)
    deployment.commonwealth_at_start(tx)
    tx.build_caches()  # built once here, then kept up to date copy-on-write
    return tx.commit()


def _unpickle(
    state: GameState,
    rs: Ruleset,
    disabled: frozenset[str],
    hooks: Hooks,
    log: Log,
    start: str,
    base_seq: int,
) -> Game:
    return Game(state, rs, disabled=disabled, hooks=hooks, log=log, start=start, base_seq=base_seq)


class Sink(Protocol):
    """Where log entries go as they are made (an audit-log file: `minors.auditlog`)."""

    def write(self, entry: LogEntry, state: GameState) -> None:
        """Record `entry`, after which the game is at `state`; raise to refuse it."""


class Game:
    """A game of minor countries: apply commands, advance the clock, clone, inspect."""

    __slots__ = ("_base_seq", "_disabled", "_hooks", "_log", "_rs", "_sink", "_start", "_state")

    def __init__(
        self,
        state: GameState,
        rs: Ruleset,
        *,
        disabled: frozenset[str] = frozenset(),
        hooks: Hooks | None = None,
        log: Log | None = None,
        start: str = "1939-fall",
        base_seq: int = 0,
    ) -> None:
        self._state = state
        self._rs = rs
        self._disabled = disabled
        self._hooks = hooks or Hooks()
        self._log = log or Log()
        self._start = start
        self._base_seq = base_seq
        self._sink: Sink | None = None

    # ---- construction ----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | Iterable[str | Path] = (),
        *,
        start: str = "1939-fall",
        disabled: Iterable[str] = (),
        hooks: Hooks | None = None,
    ) -> Game:
        """The built-in campaign start (`1939-fall`), with overlay tables if given.

        `disabled` (for tests) switches off the checks and effects registered under those
        clause ids.
        """
        rs = _ruleset(ruleset)
        return cls(
            start_state(rs, start, frozenset(disabled)),
            rs,
            disabled=frozenset(disabled),
            hooks=hooks,
            start=start,
        )

    @classmethod
    def from_state(
        cls,
        data: dict[str, Any],
        ruleset: Ruleset | Iterable[str | Path] = (),
        *,
        hooks: Hooks | None = None,
        start: str = "1939-fall",
        base_seq: int = 0,
    ) -> Game:
        """A game at the state `state()` returned (the log starts empty; its entries are
        numbered from `base_seq`)."""
        rs = _ruleset(ruleset)
        if not isinstance(data, dict):
            raise StateError(f"not a minors state: a mapping, not {type(data).__name__}")
        try:
            state = state_converter.structure(data, GameState)
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
        tx = Tx(state, rs, frozenset(), hooks or Hooks())
        tx.build_caches()
        state = tx.commit()
        return cls(state, rs, hooks=hooks, start=start, base_seq=base_seq)

    def clone(self) -> Game:
        """An independent copy; the state is immutable and the log persistent, so nothing
        is copied. A clone writes to no file sink."""
        return Game(
            self._state,
            self._rs,
            disabled=self._disabled,
            hooks=self._hooks,
            log=self._log,
            start=self._start,
            base_seq=self._base_seq,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled like a clone (state, tables, log; no file sink), so games can go to other
        processes; the tables are loaded there again from their overlays."""
        return _unpickle, (
            self._state, self._rs, self._disabled, self._hooks, self._log, self._start,
            self._base_seq,
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
        return self._base_seq + len(self._log) + 1

    def _commit(self, state: GameState, entry: LogEntry) -> None:
        """Write the entry to the sink (if any), then commit: a failed write changes nothing."""
        if self._sink is not None:
            self._sink.write(entry, state)
        self._state, self._log = state, self._log.append(entry)

    # ---- queries ---------------------------------------------------------------------

    @property
    def clock(self) -> Moment:
        return self._state.clock

    @property
    def ruleset(self) -> Ruleset:
        return self._rs

    @property
    def hooks(self) -> Hooks:
        return self._hooks

    @property
    def log(self) -> Log:
        """The log entries so far (applied commands and clock advances)."""
        return self._log

    @property
    def raw_state(self) -> GameState:
        """The frozen state records (read-only)."""
        return self._state

    def minor(self, name: str) -> MinorState:
        """A minor country's frozen record."""
        return self._state.minors[self._rs.minor(name).name]

    def unit(self, unit_id: str) -> Unit:
        """A unit on the map (`UnknownNameError` if there is none by that id)."""
        try:
            return self._state.units[unit_id]
        except KeyError:
            close = difflib.get_close_matches(str(unit_id), self._state.units, n=3)
            raise UnknownNameError("unit", unit_id, tuple(close)) from None

    def at_war(self, a: str, b: str) -> bool:
        """Whether two countries (majors, or a major and a minor) are at war."""
        a, b = self._rs.resolve(a), self._rs.resolve(b)
        if a in self._rs.majors and b in self._rs.majors:
            pair = (a, b) if a < b else (b, a)
            return pair in self._state.wars
        minor, major = (a, b) if a in self._rs.minors else (b, a)
        return major in self._state.minors[minor].at_war_with if minor in self._rs.minors else False

    def brps(self, major: str) -> int:
        """The major's BRP credits from rule 82: grants less deductions and costs."""
        name = self._rs.major(major).name
        return sum(e.amount for e in self._state.ledger if e.major == name)

    # ---- commands --------------------------------------------------------------------

    def resolve(self, cmd: Command) -> Command:
        """The command with every name in canonical spelling; `CommandError` if a name is
        unknown or of the wrong kind (a minor where a major belongs ...)."""
        rs = self._rs

        def name(value: str, field: str, *, minor: bool = False, major: bool = False) -> str:
            try:
                canonical = rs.resolve(value)
            except UnknownNameError as exc:
                raise CommandError(f"{cmd.name}: {field} {exc}") from None
            if minor and not major and canonical not in rs.minors:
                raise CommandError(f"{cmd.name}: {field} {value!r} is not a minor country")
            if major and not minor and canonical not in rs.majors:
                raise CommandError(f"{cmd.name}: {field} {value!r} is not a major power")
            return canonical

        if (
            isinstance(cmd, DeclareWar)
            and cmd.attacker in rs.majors
            and (cmd.target in rs.majors or cmd.target in rs.minors)
        ):
            return cmd  # the hot path of engines: names already canonical
        if isinstance(cmd, DiplomaticResult) and cmd.minor in rs.minors and cmd.major in rs.majors:
            return cmd
        if isinstance(cmd, DiplomaticResult | Subvert | RefuseAssociation):
            return evolve(
                cmd,
                minor=name(cmd.minor, "minor", minor=True),
                major=name(cmd.major, "major", major=True),
            )
        if isinstance(cmd, DeclareWar | BorderWar):
            return evolve(
                cmd,
                attacker=name(cmd.attacker, "attacker", major=True),
                target=name(cmd.target, "target", minor=True, major=True),
            )
        if isinstance(cmd, Conquer):
            return evolve(
                cmd, minor=name(cmd.minor, "minor", minor=True), by=name(cmd.by, "by", major=True)
            )
        if isinstance(cmd, Surrender | ReenterWar):
            return evolve(cmd, major=name(cmd.major, "major", major=True))
        if isinstance(cmd, Place):
            units = tuple(
                evolve(u, owner=name(u.owner, "owner", minor=True, major=True)) for u in cmd.units
            )
            return evolve(cmd, units=units, in_=name(cmd.in_, "in", minor=True, major=True))
        if isinstance(cmd, Move):
            if len(set(cmd.units)) != len(cmd.units):
                raise CommandError(f"{cmd.name}: a unit is listed twice in {list(cmd.units)}")
            return evolve(cmd, to=name(cmd.to, "to", minor=True, major=True))
        if isinstance(cmd, TraceSupply):
            return evolve(cmd, through=name(cmd.through, "through", minor=True))
        if isinstance(cmd, ChooseLosses):
            return evolve(cmd, minor=name(cmd.minor, "minor", minor=True))
        if isinstance(cmd, Deploy):
            return evolve(cmd, minor=name(cmd.minor, "minor", minor=True))
        if isinstance(cmd, Remove):
            if len(set(cmd.units)) != len(cmd.units):
                raise CommandError(f"{cmd.name}: a unit is listed twice in {list(cmd.units)}")
            return cmd
        raise CommandError(f"not a command: {cmd!r}; build one with minors.command()")

    def _violations(self, tx: Tx, cmd: Command) -> list[Violation]:
        found: list[Violation] = []
        for fn in active_checks(cmd.name, self._disabled):
            found.extend(fn(tx, cmd))
        return found

    def check(self, cmd: Command) -> list[Violation]:
        """Every rule `cmd` would break now, in clause order; empty when it is legal.

        Raises:
            CommandError: the command is malformed (an unknown name ...).
        """
        cmd = self.resolve(cmd)
        tx = Tx(self._state, self._rs, self._disabled, self._hooks)
        return RuleViolation(v).violations if (v := self._violations(tx, cmd)) else []

    def apply(self, cmd: Command) -> list[Effect]:
        """Apply `cmd` and return its effects.

        Raises:
            RuleViolation: `cmd` is illegal now; the game is left exactly as it was.
            CommandError: the command is malformed.
        """
        cmd = self.resolve(cmd)
        tx = Tx(self._state, self._rs, self._disabled, self._hooks)
        violations = self._violations(tx, cmd)
        if violations:
            raise RuleViolation(violations)
        HANDLERS[cmd.name](tx, cmd)
        state = tx.commit()
        self._commit(state, LogEntry(self.next_seq, state.clock, fields_of(cmd), tuple(tx.effects)))
        return tx.effects

    def advance_to(self, moment: Moment | str) -> list[Effect]:
        """Move the clock forward to `moment`, ending and starting every phase on the way
        with all the rules run there; logged as one `advance` entry.

        Raises:
            ClockError: `moment` is earlier than the clock.
        """
        target = moment if isinstance(moment, Moment) else Moment.parse(moment)
        if target < self._state.clock:
            raise ClockError(
                f"the clock stands at {self._state.clock}; it cannot go back to {target}"
            )
        if target == self._state.clock:
            return []
        tx = Tx(self._state, self._rs, self._disabled, self._hooks)
        while tx.clock < target:
            for fn in PHASE_END.get(tx.clock.phase.value, ()):
                fn(tx, tx.clock.side)
            tx.effects.append(PhaseEnded(str(tx.clock), str(tx.clock.next())))
            tx.clock = tx.clock.next()
            for fn in PHASE_START.get(tx.clock.phase.value, ()):
                fn(tx, tx.clock.side)
        state = tx.commit()
        entry = LogEntry(
            self.next_seq, target, {"command": "advance", "to": str(target)}, tuple(tx.effects)
        )
        self._commit(state, entry)
        return tx.effects

    def legal_actions(self, kinds: Iterable[str] | None = None) -> list[Command]:
        """The commands of the finite kinds that are legal now (see docs/embedding.md):
        declarations, border wars, subversions, diplomatic results over the whole scale,
        conquests, refusals, surrenders, re-entries, and moves and removals of the units on
        the map (moves to a country, without a hex), the default set-up of a deployment due
        now, supply traces through limited minors and single chosen losses. `place` is not
        enumerated."""
        wanted = set(kinds) if kinds is not None else set(KINDS) - {"place"}
        unknown = wanted - set(KINDS)
        if unknown:
            raise CommandError(f"unknown command kinds {sorted(unknown)}")
        return self._legal(wanted)

    def _legal(self, wanted: set[str], gate: bool = True) -> list[Command]:
        out: list[Command] = []
        tx = Tx(self._state, self._rs, self._disabled, self._hooks)
        for cmd in self._candidates(wanted, gate):
            if not self._violations(tx, cmd):
                out.append(cmd)
        return out

    def _candidates(self, wanted: set[str], gate: bool = True) -> Iterable[Command]:
        """Every command of the wanted kinds worth checking. With `gate` (and K1 in force),
        kinds whose phase this is not are skipped: K1 would refuse them all anyway; so are
        moves of the units of a minor tied to no major (82.83C would refuse them)."""
        rs, state = self._rs, self._state
        side = state.clock.side
        phase = state.clock.phase
        open_ = not gate or "K1" in self._disabled

        def now(*phases: Phase) -> bool:
            return open_ or phase in phases

        majors = [m for m in rs.majors if rs.majors[m].faction.side is side]
        minors = [m for m in rs.minors if state.minors[m].active]
        if "declare_war" in wanted and now(Phase.DECLARATIONS):
            for attacker in majors:
                for target in (*rs.majors, *minors):
                    yield DeclareWar(attacker, target)
        if "border_war" in wanted and now(Phase.DECLARATIONS):
            for attacker, target in sorted(war.BORDER_WARS):
                yield BorderWar(attacker, target)
        if "subvert" in wanted and now(Phase.DIPLOMACY):
            for minor in minors:
                yield Subvert("Russia", minor)
        if "diplomatic_result" in wanted and now(Phase.DIPLOMACY):
            low, high = min(rs.diplomatic_results), max(rs.diplomatic_results)
            for major in majors:
                for minor in minors:
                    for result in range(low, high + 1):
                        yield DiplomaticResult(minor, major, result)
        if "conquer" in wanted and now(Phase.COMBAT):
            for major in majors:
                for minor in minors:
                    yield Conquer(minor, major)
        if "refuse_association" in wanted:
            for minor in minors:
                pending = state.minors[minor].pending
                if pending is not None:
                    yield RefuseAssociation(pending.partner, minor)
        if "surrender" in wanted:
            yield from (Surrender(m) for m in rs.majors)
        if "reenter_war" in wanted:
            yield from (ReenterWar(m) for m in rs.majors)
        if "move" in wanted:
            tx = Tx(state, rs, self._disabled, self._hooks)
            stay_home = gate and "82.41" not in self._disabled  # the check that gives 82.83C
            for unit_id in sorted(state.units):
                unit = state.units[unit_id]
                own = tx.owner_side(unit) or movement.potential_side(tx, unit)
                if own is None and stay_home:
                    continue  # 82.83C: a minor with no major fights only at home
                if (
                    not open_
                    and own is not None
                    and (phase not in movement.MOVING or own is not side)
                ):
                    continue  # K1: it moves only in its side's moving phases
                for country in (*minors, *rs.majors):
                    if country != state.units[unit_id].country:
                        yield Move((unit_id,), country)
        if "remove" in wanted:
            yield from (Remove((u,)) for u in sorted(state.units))
        if {"deploy", "trace_supply", "choose_losses"} & wanted:
            if not now(*limits.ENFORCED_AT):
                wanted = wanted - {"trace_supply", "choose_losses"}
            yield from self._limit_and_deploy_candidates(wanted)

    def _limit_and_deploy_candidates(self, wanted: set[str]) -> Iterable[Command]:
        """The default set-up of a deployment due now; supply traces of each unit through
        each limited minor; each foreign unit in a limited minor as a chosen loss."""
        rs, state = self._rs, self._state
        tx = Tx(state, rs, self._disabled, self._hooks)
        if "deploy" in wanted:
            for name in rs.minors:
                due = state.minors[name].deployment
                if due is not None and due.due == state.clock and not due.redeploy:
                    placed, _ = deployment._default(tx, name, deployment.force_pool(tx, name))
                    yield Deploy(
                        name, tuple(Placement(i, UnitKind(k), f, h) for (i, k, f), h in placed)
                    )
        limited = [name for name in rs.minors if limits.limits_on(tx, limits.group_of(tx, name))]
        if "trace_supply" in wanted:
            for unit_id in sorted(state.units):
                for name in limited:
                    if state.units[unit_id].country != name:
                        yield TraceSupply((unit_id,), name)
        if "choose_losses" in wanted:
            for name in limited:
                for unit in sorted(tx.units_in(name), key=lambda u: u.id):
                    if unit.owner != name:
                        yield ChooseLosses(name, (unit.id,))

    # ---- output ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON state of scenario-format.md."""
        state = self._state
        return {
            "clock": str(state.clock),
            "minors": {
                name: {
                    "status": m.status.value,
                    "major": m.major,
                    "at_war_with": list(m.at_war_with),
                }
                for name, m in state.minors.items()
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
                for u in state.units.values()
            },
            "eliminated": list(state.eliminated),
            "brps": {m: self.brps(m) for m in self._rs.majors},
            "error": None,
        }

    def state(self) -> dict[str, Any]:
        """The complete canonical state: everything `from_state` needs (ledger, bars,
        pending associations, deadlines ...)."""
        return state_dict(self._state)
