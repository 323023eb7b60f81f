"""Property-based testing of `minors` and of house rules: Hypothesis strategies, the
`MinorsStateMachine` and the invariants every game must keep (docs/testing.md).

Importing it registers two Hypothesis settings profiles, `minors-ci` (fast) and
`minors-thorough` (on demand). The invariants read the game state only, never the tables,
so they hold under any ruleset: a house rule (an overlay) that breaks one is a broken
house rule.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, cast, get_type_hints

import attrs
from attrs import frozen

try:
    from hypothesis import HealthCheck, event, settings
    from hypothesis import Phase as HypothesisPhase
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
except ImportError as missing:  # say what to install, not only what is missing
    from . import NEEDS_HYPOTHESIS

    raise ModuleNotFoundError(f"minors.testing {NEEDS_HYPOTHESIS}", name="hypothesis") from missing

from .._kernel.board import Board
from .._kernel.kind import Names, field_names
from .._kernel.log import Log
from ..audit import log as auditlog
from ..domain import LedgerKind, Side, Status
from ..domain.clock import Moment, Phase
from ..domain.records import MinorState
from ..domain.state import GameState
from ..domain.units import UnitKind
from ..errors import MinorsError, RuleViolation, Violation
from ..rules82 import Game
from ..rules82.commands import KINDS, Command, Move, Place, Placement, UnitSpec, command
from ..rules82.ties import TIED
from ..ruleset.tables import Ruleset, load_ruleset
from ..scenario import ScenarioRuleViolation, run_scenario

__all__ = [
    "UNIT_IDS",
    "MinorsStateMachine",
    "broken_bars",
    "commands",
    "conquered_units",
    "exceeded_limits",
    "fits",
    "games",
    "known_kinds",
    "ledger_problems",
    "legal_commands",
    "majors",
    "minors",
    "moments",
    "rulesets",
    "seesaw",
    "stale_caches",
    "state_problems",
    "ties_with_enemies",
    "unbatched_legal_actions",
    "units",
    "unlogged_eliminations",
]

# ---- settings profiles ------------------------------------------------------------------

settings.register_profile(
    "minors-thorough",
    max_examples=1000,
    stateful_step_count=120,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "minors-ci",
    settings.get_profile("minors-thorough"),
    max_examples=25,
    stateful_step_count=25,
    # the same examples on every run of the same code, like Hypothesis's own `ci` profile:
    # a CI run fails for a change, never for a draw (hence no example database either)
    derandomize=True,
    database=None,
    # no explanation of a failure (which lines only failing runs reached): it costs more
    # runs than the search itself; minors-thorough gives it
    phases=[p for p in HypothesisPhase if p is not HypothesisPhase.explain],
)

# ---- strategies -------------------------------------------------------------------------

UNIT_IDS = tuple(f"u{i}" for i in range(6))
"""The ids arbitrary `place`, `move`, `remove` and `deploy` commands use."""

FIRST = "1939-fall/axis/diplomacy"
LAST = "1945-winter/allies/construction"


def _rs(ruleset: Ruleset | None) -> Ruleset:
    return ruleset if ruleset is not None else load_ruleset()


def moments(start: Moment | str = FIRST, end: Moment | str = LAST) -> st.SearchStrategy[Moment]:
    """Moments of play from `start` to `end` inclusive (the clock of scenario-format.md)."""
    low, high = (m if isinstance(m, Moment) else Moment.parse(m) for m in (start, end))
    return st.integers(low.index, high.index).map(Moment)


def majors(ruleset: Ruleset | None = None) -> st.SearchStrategy[str]:
    """The names of the major powers of `ruleset` (the built-in tables by default)."""
    return st.sampled_from(tuple(_rs(ruleset).majors))


def minors(ruleset: Ruleset | None = None) -> st.SearchStrategy[str]:
    """The names of the minor countries of `ruleset` (82.11), active or not."""
    return st.sampled_from(tuple(_rs(ruleset).minors))


def _countries(rs: Ruleset) -> st.SearchStrategy[str]:
    return st.sampled_from((*rs.majors, *rs.minors))


def units(
    ruleset: Ruleset | None = None, ids: Sequence[str] = UNIT_IDS
) -> st.SearchStrategy[UnitSpec]:
    """New units as a `place` command gives them: any id of `ids`, any owner (a major power
    or a minor country), any kind, 0 to 6 factors."""
    rs = _rs(ruleset)
    return st.builds(
        UnitSpec,
        id=st.sampled_from(tuple(ids)),
        owner=_countries(rs),
        kind=st.sampled_from(tuple(UnitKind)),
        factors=st.integers(0, 6),
    )


def _hexes(rs: Ruleset) -> st.SearchStrategy[str]:
    labels = sorted({h for m in rs.minors.values() for h in m.hexes})
    return st.sampled_from((*labels, "Nowhere"))


def _placements(rs: Ruleset) -> st.SearchStrategy[Placement]:
    return st.builds(
        Placement,
        id=st.sampled_from(UNIT_IDS),
        kind=st.sampled_from(tuple(UnitKind)),
        factors=st.integers(0, 6),
        hex=_hexes(rs),
    )


_BY_NAME = {
    "minor": Names.MINOR,
    "major": Names.MAJOR,
    "attacker": Names.MAJOR,
    "by": Names.MAJOR,
    "target": Names.COUNTRY,
    "in_": Names.COUNTRY,
    "to": Names.COUNTRY,
    "through": Names.COUNTRY,
    "hex": Names.HEX,
    "displace": Names.HEX,
    "units": Names.UNITS,
}
"""What a field names, by the scenario vocabulary's conventions, for kinds whose fields do
not say it (`minors.kind.MinorName` and the like do)."""


_NAMING: dict[Names | None, Callable[[Ruleset], st.SearchStrategy[str]]] = {
    Names.MINOR: minors,
    Names.MAJOR: majors,
    Names.COUNTRY: _countries,
    Names.HEX: _hexes,
}
"""The names a field of each kind of name is drawn from."""


def _field(
    rs: Ruleset, owner: type[Any], attribute: attrs.Attribute[Any], hint: Any
) -> st.SearchStrategy[Any] | None:
    """A strategy for one field of a command, by what it names (its annotation, else its
    name) and its type; None when unknown."""
    name = attribute.name
    what = field_names(owner).get(name) or _BY_NAME.get(name)
    naming = _NAMING[what](rs) if what in _NAMING else None
    if hint is str:
        return naming
    if hint == (str | None):
        return None if naming is None else st.none() | naming
    if hint is int and name == "result":
        return st.integers(-5, 12)
    if hint == (int | None) and name == "roll":
        return st.none() | st.integers(-5, 12)
    if hint == tuple[int, ...]:
        return st.lists(st.integers(-3, 3), max_size=2).map(tuple)
    if hint == tuple[str, ...] and what is Names.UNITS:
        return st.lists(st.sampled_from(UNIT_IDS), min_size=1, max_size=2).map(tuple)
    if hint == tuple[UnitSpec, ...]:
        return st.lists(units(rs), min_size=1, max_size=2).map(tuple)
    if hint == tuple[Placement, ...]:
        return st.lists(_placements(rs), min_size=1, max_size=3).map(tuple)
    return None


def _kind(rs: Ruleset, cls: type[Any]) -> st.SearchStrategy[Command] | None:
    hints = get_type_hints(cls)
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for attribute in attrs.fields(cls):
        strategy = _field(rs, cls, attribute, hints[attribute.name])
        if strategy is None:
            return None
        fields[attribute.name] = strategy
    return cast(st.SearchStrategy[Command], st.builds(cls, **fields))


def known_kinds(ruleset: Ruleset | None = None) -> list[str]:
    """The command kinds of `minors.commands.KINDS` whose every field `commands()` knows."""
    rs = _rs(ruleset)
    return [name for name in sorted(KINDS) if _kind(rs, KINDS[name]) is not None]


def commands(
    ruleset: Ruleset | None = None, kinds: Sequence[str] | None = None
) -> st.SearchStrategy[Command]:
    """Arbitrary commands of `kinds` (legal or not, some malformed for the game), over the names of
    `ruleset`; a kind with a field `_field` does not know is left out (`known_kinds`)."""
    rs = _rs(ruleset)
    wanted = sorted(kinds) if kinds is not None else sorted(KINDS)
    parts = [s for s in (_kind(rs, KINDS[name]) for name in wanted) if s is not None]
    return st.one_of(parts)


def legal_commands(game: Game, kinds: Sequence[str] | None = None) -> st.SearchStrategy[Command]:
    """The commands `game.legal_actions(kinds)` lists when the strategy is made."""
    legal = game.legal_actions(kinds)
    return st.sampled_from(legal) if legal else st.nothing()


ADVANCE = "advance"
_WEIGHTED = tuple(k for k in sorted(KINDS) for _ in range({"diplomatic_result": 3}.get(k, 1)))
"""The kinds `play_legal` draws from when any will do: diplomatic results, which set and
reverse standings, three times as often as each other kind."""
LOOKAHEAD = 12
"""How many phases (a game turn) `play_legal` moves on, at most, to find its kind legal."""


def _within(game: Game, index: int) -> Moment:
    """The moment `index`, or the calendar's last moment if that comes first."""
    return Moment(min(index, game.last_moment.index))


def _step(draw: Callable[[st.SearchStrategy[Any]], Any], game: Game) -> None:
    """One step of legal play: a clock advance (half the time) or a legal command."""
    kind = draw(st.just(ADVANCE) | st.sampled_from(sorted(KINDS)))
    if kind == ADVANCE:
        game.advance_to(_within(game, game.clock.index + draw(st.integers(1, 14))))
        return
    legal = game.legal_actions([kind])
    if legal:
        game.apply(draw(st.sampled_from(legal)))


def games(
    ruleset: Sequence[str | Path] = (), *, scenarios: Sequence[str | Path] = (), max_steps: int = 12
) -> st.SearchStrategy[Game]:
    """Games reached by legal play (up to `max_steps` commands and clock advances) from the
    Fall 1939 start or from the end of one of `scenarios`, under the overlay files
    `ruleset` (which replace a scenario's own)."""
    rs = load_ruleset(ruleset)
    overlays = [str(path) for path in ruleset] or None

    @st.composite
    def build(draw: st.DrawFn) -> Game:
        source = draw(st.sampled_from((None, *scenarios))) if scenarios else None
        if source is None:
            game = Game.new(rs)
        else:
            try:
                game = run_scenario(source, ruleset=overlays)
            except ScenarioRuleViolation as exc:
                game = exc.game
        for _ in range(draw(st.integers(0, max_steps))):
            _step(draw, game)
        return game

    return build()


def seesaw(game: Game, names: Sequence[str], rounds: int) -> None:
    """Play `rounds` turns in which Germany gains control of each of `names` (a result of 8)
    and Britain reverses it (-1): a long ledger of grants and deductions (82.21, 82.22) for
    tests and benchmarks of long games."""
    for _ in range(rounds):
        for major, result in (("Germany", 8), ("Britain", -1)):
            side = game.ruleset.side_of[major]
            if (game.clock.side, game.clock.phase) != (side, Phase.DIPLOMACY):
                game.advance_to(game.clock.next_phase_of(side, Phase.DIPLOMACY))
            for name in names:
                cmd = command("diplomatic_result", minor=name, major=major, result=result)
                if not game.check(cmd):
                    game.apply(cmd)


@functools.cache
def _overlay_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="minors-overlays-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def rulesets() -> st.SearchStrategy[list[str]]:
    """Small valid overlays (a list of paths to temporary TOML files): a few minors' BRP
    values (82.21, 82.22), the 7 / 0 amount, the cost of a declaration on a minor (82.62)
    and the deployment stacking (82.55)."""
    names = tuple(load_ruleset().minors)

    @st.composite
    def build(draw: st.DrawFn) -> list[str]:
        lines: list[str] = []
        for name in draw(st.lists(st.sampled_from(names), max_size=3, unique=True)):
            lines += [f'[minors."{name}"]', f"brps = {draw(st.integers(0, 60))}", ""]
        if draw(st.booleans()):
            lines += ["[brp_rules.partial]", f"amount = {draw(st.integers(1, 15))}", ""]
        if draw(st.booleans()):
            lines += ["[costs.declare_war_minor]", f"brps = {draw(st.integers(0, 35))}", ""]
        if draw(st.booleans()):
            lines += ["[deployment.stacking]", f"units = {draw(st.integers(1, 4))}", ""]
        text = "\n".join(lines)
        path = _overlay_folder() / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
        path.write_text(text, encoding="utf-8")
        load_ruleset([path])  # a drawn overlay must be valid: fail here if it is not
        return [str(path)]

    return build()


# ---- invariants of any game under any ruleset (they read the state, never the tables) ----

PEACE = (Status.NEUTRAL, Status.BRPS_ATTRIBUTED, Status.HEXES_CONTROLLED)
NO_MAJOR = (Status.NEUTRAL, Status.INDEPENDENT)


def _enemies(state: GameState, major: str) -> set[str]:
    return {b if a == major else a for a, b in state.wars if major in (a, b)}


def fits(game: Game) -> list[str]:
    """82.11: every minor is in one of the nine statuses and its major fits it (none when
    neutral or independent, one otherwise); a minor at peace or conquered is at war with no
    one; a tied minor's wars are its major's and its own, no more and no fewer (82.12,
    82.13, 82.93); wars are kept sorted."""
    problems = []
    state = game.raw_state
    for name, m in state.minors.items():
        if not isinstance(m.status, Status):
            problems.append(f"{name}'s status {m.status!r} is not one of 82.11")
            continue
        if m.status in NO_MAJOR and m.major is not None:
            problems.append(f"{name} is {m.status} with major {m.major}")
        if m.status not in NO_MAJOR and m.major is None:
            problems.append(f"{name} is {m.status} with no major")
        if (m.status in PEACE or m.status is Status.CONQUERED) and m.at_war_with:
            problems.append(f"{name} is {m.status} yet at war with {list(m.at_war_with)}")
        if m.status in TIED and m.major is not None:
            enemies = _enemies(state, m.major)
            missing = enemies - set(m.at_war_with) - {m.major}
            if missing:
                problems.append(f"{name} does not share {m.major}'s wars with {sorted(missing)}")
            # both ways: a war its major has ended (and it never made itself) is over for it
            extra = set(m.at_war_with) - enemies - set(m.direct_wars)
            if extra:
                problems.append(
                    f"{name} is at war with {sorted(extra)}, which {m.major} is not, "
                    "and not by a war of its own"
                )
        if list(m.at_war_with) != sorted(set(m.at_war_with)):
            problems.append(f"{name}'s wars {list(m.at_war_with)} are not sorted and unique")
    return problems


def ties_with_enemies(game: Game) -> list[str]:
    """No minor is associated with or allied to a power at war with it (82.11E-F, 82.42):
    neither through its own wars nor through its ties."""
    return [
        f"{name} is {m.status} with {m.major}, which is at war with it"
        for name, m in game.raw_state.minors.items()
        if m.status in (Status.ASSOCIATED, Status.ALLIED)
        and m.major is not None
        and (m.major in m.direct_wars or m.major in m.at_war_with)
    ]


def broken_bars(game: Game) -> list[str]:
    """82.351: a minor is never associated with or allied to a power its attack barred."""
    return [
        f"{name} is {m.status} with {m.major}, barred by 82.351"
        for name, m in game.raw_state.minors.items()
        if m.status in (Status.ASSOCIATED, Status.ALLIED) and m.major in m.barred
    ]


def conquered_units(game: Game) -> list[str]:
    """82.11G: no unit of a conquered minor is on the map, but for the 82.63 reading
    (docs/rules.md): a `†` minor (Ukraine) whose occupier's side holds a successful
    result on it has the forces that result raised."""
    state = game.raw_state
    minors_, rs = state.minors, game.ruleset

    def raised(minor: MinorState) -> bool:
        held = minor.standing
        return (
            minor.name in rs.forces_by_result
            and held is not None
            and minor.major is not None
            and rs.side_of[held.major] is rs.side_of[minor.major]
        )

    return [
        f"{unit.id} of conquered {unit.owner} is on the map (in {unit.country})"
        for unit in state.units.values()
        if unit.owner in minors_
        and minors_[unit.owner].status is Status.CONQUERED
        and not raised(minors_[unit.owner])
    ]


def exceeded_limits(game: Game) -> list[str]:
    """82.32-82.322: the foreign-factor limits in force that the map exceeds now."""
    from ..rules82.limits import group_of, limits_on, measure

    play = game.play()
    problems: list[str] = []
    seen: set[str] = set()
    for name in game.ruleset.minors:
        if name in seen:
            continue
        group = group_of(play, name)
        seen.update(group)
        for limit in limits_on(play, group):
            excess = measure(play, limit, group)[0]
            if excess.over:
                problems.append(
                    f"{' and '.join(group)} hold {excess.factors} counted factors "
                    f"and {excess.armor} armor units: over {limit.key} ({limit.clause})"
                )
    return problems


def unlogged_eliminations(game: Game) -> list[str]:
    """Every unit the rules removed is in the log with a rule id."""
    from ..domain.events import UnitEliminated

    logged = {
        e.unit
        for entry in game.log
        for e in entry.effects
        if isinstance(e, UnitEliminated) and e.rule
    }
    return [
        f"{u} was eliminated without a logged rule"
        for u in game.raw_state.eliminated
        if u not in logged
    ]


def ledger_problems(game: Game) -> list[str]:
    """82.22: every deduction names (`undoes`) one earlier grant to the same major from the
    same minor, and no grant is deducted twice."""
    problems = []
    grants = {}
    undone: dict[int, int] = {}
    for entry in game.raw_state.ledger:
        if entry.kind is LedgerKind.GRANT:
            grants[entry.seq] = entry
        if entry.kind is not LedgerKind.DEDUCTION:
            continue
        grant = grants.get(entry.undoes) if entry.undoes is not None else None
        if grant is None:
            problems.append(f"deduction {entry.seq} undoes {entry.undoes}, no earlier grant")
            continue
        if (grant.major, grant.minor) != (entry.major, entry.minor):
            problems.append(
                f"deduction {entry.seq} ({entry.major}, {entry.minor}) undoes grant "
                f"{grant.seq} ({grant.major}, {grant.minor})"
            )
        if grant.seq in undone:
            problems.append(
                f"grant {grant.seq} is deducted twice: by {undone[grant.seq]} and {entry.seq}"
            )
        undone[grant.seq] = entry.seq
    return problems


def unbatched_legal_actions(game: Game) -> list[Command]:
    """Every candidate of every kind the rulebook generates, each checked on its own with `check`:
    the reference `legal_actions` (which asks a batch's `batched` checks once) must equal, order
    included. A house rule that generates candidates tests its batches against it."""
    play = game.play()
    out: list[Command] = []
    for kind in game.rulebook.kinds.values():
        generate = game.rules.candidates.get(kind)
        for item in generate(play) if generate is not None else ():
            for cmd in (item,) if isinstance(item, Command) else item:
                if not game.check(cmd):
                    out.append(cmd)
    return out


def stale_caches(game: Game) -> list[str]:
    """The board's indexes (unit ids by country and by owner, each minor's active grants,
    the BRP totals, the position key), kept up to date step by step and undone by `pop`,
    agree with indexes built afresh from the units, the ledger and the position."""
    board = game.play().board
    fresh = Board(game.raw_state)
    problems = []
    for name in ("where", "owned"):
        kept = {k: set(v) for k, v in getattr(board, name).items() if v}
        built = {k: set(v) for k, v in getattr(fresh, name).items() if v}
        if kept != built:
            problems.append(f"the {name} index {kept} disagrees with the units {built}")
    kept_grants = {k: tuple(e.seq for e in v) for k, v in board.grants.items() if v}
    built_grants = {k: tuple(e.seq for e in v) for k, v in fresh.grants.items() if v}
    if kept_grants != built_grants:
        problems.append(f"active grants {kept_grants} disagree with the ledger {built_grants}")
    kept_totals = {k: v for k, v in board.totals.items() if v}
    built_totals = {k: v for k, v in fresh.totals.items() if v}
    if kept_totals != built_totals:
        problems.append(f"BRP totals {kept_totals} disagree with the ledger {built_totals}")
    if board.key() != fresh.key():
        problems.append(f"the position key {board.key():#x} is not the position's {fresh.key():#x}")
    return problems


def state_problems(game: Game) -> list[str]:
    """Everything wrong with the game's state by the invariants above, under any ruleset."""
    return [
        *fits(game),
        *ties_with_enemies(game),
        *broken_bars(game),
        *conquered_units(game),
        *ledger_problems(game),
        *stale_caches(game),
    ]


# ---- the state machine ------------------------------------------------------------------


def _none(problems: list[str]) -> None:
    """Fail with every problem listed (pytest does not rewrite asserts outside tests)."""
    assert not problems, "\n".join(problems)


@functools.cache
def _load(overlays: tuple[tuple[str, bytes], ...]) -> Ruleset:
    return load_ruleset(overlays)


@frozen
class Attempt:
    """A command the machine gave (`listed`: by `legal_actions`), what `check` returned
    (None when it raised) and `apply` raised, the state and log before it, and what `check`
    said of `others` that `legal_actions` listed."""

    command: Command
    listed: bool
    problems: list[Violation] | None
    refused: MinorsError | None
    state: dict[str, Any]
    log: Log
    others: tuple[tuple[Command, tuple[Violation, ...]], ...] = ()


class MinorsStateMachine(RuleBasedStateMachine):
    """Legal play, arbitrary commands and clock advances from a start, with the invariants
    every game keeps under any ruleset.

    Subclass it to add `@rule`s or `@invariant`s, or to play under overlays (`ruleset`) or
    from another start (`start`); `TestX = XMachine.TestCase` makes it a test. The game is
    `self.game`; `self.steps` counts the steps taken.
    """

    ruleset: ClassVar[list[str]] = []
    """Overlay files merged over the built-in tables, in order."""
    start: ClassVar[str] = "1939-fall"
    """The start position of the tables."""
    log_every: ClassVar[int] = 50
    """The audit log is written, verified and replayed every this many steps (and at the end)."""

    def __init__(self) -> None:
        super().__init__()
        self.game = self.new_game()
        self.steps = 0
        self._placed = 0
        self.attempt: Attempt | None = None
        self._snapshot: tuple[GameState, dict[str, Any]] | None = None
        self._earlier: tuple[Game, dict[str, Any]] | None = None
        self._folder = Path(tempfile.mkdtemp(prefix="minors-machine-"))
        self._logs = 0
        self._sink: auditlog.FileSink | None = auditlog.open_log(
            self.game, self._next_log(), durability="close"
        )

    def new_game(self) -> Game:
        """The game to play: the tables with `ruleset` merged, at `start`. Override it to
        pass hooks or a ruleset built another way."""
        overlays = tuple((str(path), Path(path).read_bytes()) for path in self.ruleset)
        return Game.new(_load(overlays), start=self.start)

    def current_state(self) -> dict[str, Any]:
        """`self.game.state()`, computed once per state."""
        raw = self.game.raw_state
        if self._snapshot is None or self._snapshot[0] is not raw:
            self._snapshot = (raw, self.game.state())
        return self._snapshot[1]

    def _next_log(self) -> Path:
        self._logs += 1
        return self._folder / f"game-{self._logs}.jsonl"

    # ---- rules ------------------------------------------------------------------------

    def attempt_command(
        self,
        cmd: Command,
        *,
        listed: bool = False,
        others: Sequence[tuple[Command, tuple[Violation, ...]]] = (),
    ) -> None:
        """Check and apply `cmd`, recording both answers for the invariants."""
        before, log = self.current_state(), self.game.log
        try:
            problems: list[Violation] | None = self.game.check(cmd)
        except MinorsError:
            problems = None
        refused: MinorsError | None = None
        try:
            self.game.apply(cmd)
        except MinorsError as exc:
            refused = exc
        event(f"{'rejected' if refused else 'applied'}: {cmd.name}")
        self.attempt = Attempt(cmd, listed, problems, refused, before, log, tuple(others))

    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        """One to four legal commands, each of a command kind drawn first. Half the time
        the kind is one with a legal command now (so that what an event makes possible for
        a moment, a set-up after a declaration, a refusal while an association is pending,
        is tried); otherwise any kind, and when it has no legal command now the clock moves
        on phase by phase (at most a game turn) until it has. A kind with few commands (a
        conquest, a refusal) is drawn as often as one with many (the results of the
        diplomatic scale). A move is drawn as `play_legal_move` draws it; a placement by an
        owner first. The API's invariants are checked after each command."""
        self.steps += 1
        for turn in range(data.draw(st.integers(1, 4), label="commands")):
            if turn:
                self.check_and_apply_agree()
                self.rejected_command_changes_nothing()
            self.attempt = None
            self._play_one(data)

    def _play_one(self, data: st.DataObject) -> None:
        if data.draw(st.booleans(), label="a kind legal now"):
            listed = self.game.legal_actions([k for k in sorted(KINDS) if k != "move"])
            kinds = sorted({cmd.name for cmd in listed} | {"place"})
            if self.game.raw_state.units:
                kinds.append("move")
            self._play_kind(data.draw(st.sampled_from(kinds), label="kind"), data)
            return
        kind = data.draw(st.sampled_from(_WEIGHTED), label="kind")
        for _ in range(LOOKAHEAD):
            if self._play_kind(kind, data):
                return
            self.advance_to(self.game.clock.next())
            self.steps -= 1  # the advance is part of this step
        self.attempt = None

    def _play_kind(self, kind: str, data: st.DataObject) -> bool:
        """Apply a legal command of `kind` drawn now; False when there is none."""
        if kind == "move":
            return self._legal_move(data)
        if kind == "place":
            return self._legal_place(data)
        return self._legal_of_kind(kind, data)

    def _legal_of_kind(self, kind: str, data: st.DataObject) -> bool:
        """A legal command of `kind`; half the time, when there are some, one on a minor
        with a history (a standing, a pending association or set-up, a deadline): a
        reversal, a deduction, a refusal need a second event on the same minor."""
        legal = self.game.legal_actions([kind])
        if not legal:
            return False
        minors_ = self.game.raw_state.minors
        focus = [
            c
            for c in legal
            if (m := minors_.get(getattr(c, "minor", ""))) is not None
            and (m.standing or m.pending or m.deadlines or m.deployment)
        ]
        if focus and bool(data.draw(st.booleans(), label="on a minor with a history")):
            legal = focus
        others = [(c, tuple(self.game.check(c))) for c in legal[:: max(1, len(legal) // 8)]]
        cmd = data.draw(st.sampled_from(legal), label=f"legal {kind}")
        self.attempt_command(cmd, listed=True, others=others)
        return True

    @rule(data=st.data())
    def play_legal_place(self, data: st.DataObject) -> None:
        """A legal placement of new units (see `_legal_place`): with moves, the way major
        powers' units come into minors, where the limits hold."""
        self.steps += 1
        self.attempt = None
        self._legal_place(data)

    def _legal_place(self, data: st.DataObject) -> bool:
        """New units of an owner drawn first, placed where `check` lets them be
        (`legal_actions` lists no placements: units' ids, kinds and factors are the
        engine's). Half the time, when a major power may place units in a minor under a
        foreign-factor limit, one to three of its units go there at once (82.32): the pair
        is drawn from those `check` lets in, so that the limit is pressed whenever it can be."""
        rs = self.game.ruleset
        countries: tuple[str, ...] = (*rs.minors, *rs.majors)
        owners: tuple[str, ...] = (*rs.majors, *rs.minors)
        open_ = self._open_limited()
        if open_ and bool(data.draw(st.booleans(), label="into a limited minor")):
            owner, minor = data.draw(st.sampled_from(open_), label="owner, limited minor")
            countries, owners = (minor,), (owner,)
        owner = data.draw(st.sampled_from(owners), label="owner")
        specs = []
        for _ in range(data.draw(st.integers(1, 3), label="units")):
            self._placed += 1
            kind = data.draw(st.sampled_from((UnitKind.INFANTRY, UnitKind.ARMOR)), label="kind")
            factors = data.draw(st.integers(1, 6), label="factors")
            specs.append(UnitSpec(id=f"p{self._placed}", owner=owner, kind=kind, factors=factors))
        places = [Place(tuple(specs), country) for country in countries]
        legal = [cmd for cmd in places if not self.game.check(cmd)]
        if not legal:
            return False
        self.attempt_command(data.draw(st.sampled_from(legal), label="legal place"))
        return True

    @rule(data=st.data())
    def play_legal_move(self, data: st.DataObject) -> None:
        """A legal move of a unit on the map. `legal_actions(["move"])` lists every unit
        times every country, too many to list at each step: the unit is drawn first, then
        one of the countries `check` lets it move to."""
        self.steps += 1
        self.attempt = None
        self._legal_move(data)

    def _open_limited(self) -> list[tuple[str, str]]:
        """The (major power, minor) pairs where a foreign-factor limit holds on the minor
        now (82.32, 82.322) and `check` lets one of the power's units be placed."""
        from ..rules82.limits import group_of, limits_on

        play = self.game.play()
        rs = self.game.ruleset
        probe = f"p{self._placed + 1}"
        return [
            (owner, minor)
            for minor in rs.minors
            if limits_on(play, group_of(play, minor))
            for owner in rs.majors
            if not self.game.check(Place((UnitSpec(probe, owner, UnitKind.INFANTRY, 1),), minor))
        ]

    def _legal_move(self, data: st.DataObject) -> bool:
        units = sorted(self.game.raw_state.units)
        if not units:
            return False
        unit = data.draw(st.sampled_from(units), label="unit")
        rs = self.game.ruleset
        moves = [Move((unit,), country) for country in (*rs.minors, *rs.majors)]
        legal = [cmd for cmd in moves if not self.game.check(cmd)]
        if not legal:
            return False
        self.attempt_command(data.draw(st.sampled_from(legal), label="legal move"))
        return True

    def play_listed(self, data: st.DataObject, kinds: list[str]) -> None:
        """Apply a command drawn from `legal_actions(kinds)` (a step)."""
        self.steps += 1
        self.attempt = None
        legal = self.game.legal_actions(kinds)
        if not legal:
            return
        others = [(c, tuple(self.game.check(c))) for c in legal[:: max(1, len(legal) // 8)]]
        cmd = data.draw(st.sampled_from(legal), label="legal command")
        self.attempt_command(cmd, listed=True, others=others)

    @rule(cmd=commands())
    def play_any(self, cmd: Command) -> None:
        """Any command, legal or not."""
        self.steps += 1
        self.attempt_command(cmd)

    @rule(phases=st.integers(1, 14))
    def advance(self, phases: int) -> None:
        """The clock moves forward, with the rules run on the way."""
        self.advance_to(_within(self.game, self.game.clock.index + phases))

    @rule(data=st.data())
    def reverse_a_standing(self, data: st.DataObject) -> None:
        """82.22, 82.33: a standing one side holds on a minor, reversed: the clock moves on
        to the other side's next diplomacy phase and a legal result of that side on the
        minor is applied (a grant deducted, a deadline set, a status changed: what random
        play reaches seldom, as it takes two results on one minor)."""
        self.steps += 1
        self.attempt = None
        held = sorted(
            (m for m in self.game.raw_state.minors.values() if m.standing is not None),
            key=lambda m: m.name,
        )
        if not held:
            return
        state = data.draw(st.sampled_from(held), label="a minor with a standing")
        assert state.standing is not None
        other = Side.ALLIES if state.standing.side is Side.AXIS else Side.AXIS
        target = self.game.clock.next_phase_of(other, Phase.DIPLOMACY)
        if target > self.game.last_moment:
            return
        self.advance_to(target)
        rs = self.game.ruleset
        results = [
            cmd
            for cmd in self.game.legal_actions(["diplomatic_result"])
            if getattr(cmd, "minor", None) == state.name
            and rs.majors[getattr(cmd, "major", "")].faction.side is other
        ]
        if results:
            cmd = data.draw(st.sampled_from(results), label="a result of the other side")
            self.attempt_command(cmd, listed=True)

    @rule(phase=st.sampled_from(tuple(Phase)))
    def advance_to_phase(self, phase: Phase) -> None:
        """The clock moves forward to the next `phase` of either side."""
        target = self.game.clock.next()
        while target.phase is not phase:
            target = target.next()
        self.advance_to(target)

    def advance_to(self, target: Moment) -> None:
        """Advance the game's clock to `target` (a step). When it passed the end of a
        movement, combat or redeployment phase, no limit may be exceeded (82.321B): nothing
        after those ends brings foreign units into a limited minor."""
        self.steps += 1
        self.attempt = None
        start = self.game.clock
        target = min(target, self.game.last_moment)  # the calendar ends there
        self.game.advance_to(target)
        assert self.game.clock == target
        checked = (Phase.MOVEMENT, Phase.COMBAT, Phase.REDEPLOYMENT)
        if any(Moment(i).phase in checked for i in range(start.index, target.index)):
            _none(exceeded_limits(self.game))

    # ---- invariants of the state ------------------------------------------------------

    @invariant()
    def statuses_fit(self) -> None:
        """82.11: every status is one of the nine and its major and wars fit it."""
        _none(fits(self.game))

    @invariant()
    def no_tie_with_an_enemy(self) -> None:
        """No minor is associated with or allied to a power at war with it."""
        _none(ties_with_enemies(self.game))

    @invariant()
    def bars_hold(self) -> None:
        """82.351: no minor is associated with or allied to a barred power."""
        _none(broken_bars(self.game))

    @invariant()
    def no_units_of_conquered_minors(self) -> None:
        """82.11G: no unit of a conquered minor is on the map."""
        _none(conquered_units(self.game))

    @invariant()
    def eliminations_are_logged(self) -> None:
        """Every unit the rules removed appears in the log with its rule id."""
        _none(unlogged_eliminations(self.game))

    @invariant()
    def deductions_undo_grants(self) -> None:
        """82.22: each deduction undoes one earlier grant of the same major and minor, once."""
        _none(ledger_problems(self.game))

    @invariant()
    def caches_agree(self) -> None:
        """The unit indexes and the active grants agree with the units and the ledger."""
        _none(stale_caches(self.game))

    # ---- invariants of the API ----------------------------------------------------------

    @invariant()
    def check_and_apply_agree(self) -> None:
        """`check` is empty exactly when `apply` succeeds, with the same rules broken; a
        command `legal_actions` listed passes both."""
        attempt = self.attempt
        if attempt is None:
            return
        refused, problems = attempt.refused, attempt.problems
        if isinstance(refused, RuleViolation):
            assert problems, f"apply refused {attempt.command!r}, which check passed"
            assert [v.rule for v in refused.violations] == [v.rule for v in problems]
        elif refused is not None:
            assert problems is None, f"apply found {attempt.command!r} malformed, check did not"
        else:
            assert problems == [], f"apply accepted {attempt.command!r}, which check refused"
        if attempt.listed:
            assert refused is None, f"legal_actions listed {attempt.command!r}: {refused}"
        for cmd, violations in attempt.others:
            assert violations == (), f"legal_actions listed {cmd!r}, check says {violations}"

    @invariant()
    def rejected_command_changes_nothing(self) -> None:
        """A command `apply` refused left `state()` and the log exactly as they were."""
        attempt = self.attempt
        if attempt is None or attempt.refused is None:
            return
        refused = f"apply refused {attempt.command!r}"
        assert self.game.log == attempt.log, f"{refused} and still changed the log"
        assert self.game.state() == attempt.state, f"{refused} and still changed the state"

    @invariant()
    def clone_is_independent(self) -> None:
        """A clone taken a step ago still holds the state of then, and a clone played on
        changes nothing in the game."""
        now = self.current_state()
        if self._earlier is not None:
            earlier, then = self._earlier
            assert earlier.state() == then, "the game's last step changed a clone of it"
        other = self.game.clone()
        other.advance_to(_within(other, other.clock.index + 3))
        assert self.game.state() == now, "playing on a clone changed the game"
        self._earlier = (self.game.clone(), now)

    @invariant()
    def state_round_trips(self) -> None:
        """`Game.from_state(state())` is the same state."""
        state = self.current_state()
        rebuilt = Game.from_state(
            state, self.game.ruleset, rulebook=self.game.rulebook, start=self.start
        )
        assert rebuilt.state() == state

    @precondition(lambda self: self.steps > 0 and self.steps % self.log_every == 0)
    @invariant()
    def log_replays(self) -> None:
        """The audit log written so far verifies, and replaying it gives the game's state
        (every `log_every` steps: a replay replays the whole game)."""
        self._check_log(go_on=True)

    def _close_log(self) -> auditlog.FileSink:
        sink = self._sink
        assert sink is not None, "the log is closed"
        self.game.attach(None)
        self._sink = None
        sink.close(self.game)
        return sink

    def _check_log(self, *, go_on: bool) -> None:
        sink = self._close_log()
        verdict = auditlog.verify(sink.path, rulebook=self.game.rulebook)
        assert verdict.ok, f"the log does not verify: {verdict.describe()}"
        replayed = auditlog.replay(sink.path, rulebook=self.game.rulebook)
        assert replayed.state() == self.game.state(), "replaying the log gives another state"
        if go_on:  # a new log, going on from this one's lines (without its closing line)
            lines = Path(sink.path).read_bytes().splitlines(keepends=True)[:-1]
            self._sink = auditlog.FileSink(self._next_log(), "close")
            self._sink.begin(self.game, lines)
            self.game.attach(self._sink)

    def teardown(self) -> None:
        """The log of the whole run verifies and replays to the final state; the machine's
        temporary files are removed."""
        try:
            # Hypothesis calls teardown in a `finally`: when a step has already failed, that
            # failure is the one to report, and the log is left unchecked.
            if sys.exception() is None:
                self._check_log(go_on=False)
        finally:
            if self._sink is not None:
                with contextlib.suppress(MinorsError, OSError):
                    self._close_log()
            shutil.rmtree(self._folder, ignore_errors=True)
