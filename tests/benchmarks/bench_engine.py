"""Engine benchmark, run on demand (not collected by pytest):

    pip install -e '.[bench]' && python tests/benchmarks/bench_engine.py [--quick] [--profile]

What an engine author measures, beside python-chess in the same run (ratio = minors / chess):

1. Random playouts over the public API from the Fall 1939 start to Spring 1942. In each
   phase, with probability 1/2 a random action of the kinds of this phase (`phase_kinds`),
   again with probability 1/2 after each action, at most 3; then `advance_to(clock.next())`.
   Beside them random chess games (a random legal move until the game is over). One
   playout and one chess game first warm up, not counted (one-time costs of a process).
   Rows:
   the whole playout per command (apply or advance) and per ply, playouts per second,
   `legal_actions` per call and per listed action, `apply` inside playouts (GC on) beside a
   checked `push` inside chess playouts, and one playout replayed with `apply`, `push`,
   `push_unchecked` and undone with `pop` beside `push`/`pop` of one chess game's moves;
   `clone` beside `board.copy(stack=False)`.
1b. The same playouts' `apply` per command kind, beside the same `apply` done again at once
   on the same position (`pop`, `apply`): the same work on warm caches, so the ratio is
   what the processor's caches cost an `apply` that runs right after `legal_actions` and
   `advance_to`; chess's checked `push` beside itself popped and pushed again.
2. A plain UCT (UCB1 selection, one expansion, a random rollout to a fixed depth) from
   1940-spring/axis/declarations, beside the same UCT on chess from the start position with
   the same iteration count and rollout depth.
3. Memory (`tracemalloc`): a fresh game and a clone; a chess board and its copies.
4. A 564-minor world (an overlay copying minors under new names) beside the built-in one.
5. `brps`, `apply` and `clone` in long games (`long_game`, as in bench_kernel.py) beside a
   fresh game.

`Game.push`, `push_unchecked`, `pop`, `key` and `Game.new(log=False)` are used when the
game has them; otherwise their rows print "n/a", playouts run on logged games, and the UCT
clones per node instead of undoing.

Targets (each printed as met / NOT met / n/a at the end):

- `apply` (and `push`) inside playouts <= 1.0x a checked chess push inside chess playouts;
- `apply` inside playouts on a logged game (`Game.new()`) <= 1.15x the same without a log;
- `legal_actions` per listed action <= 0.5x python-chess per legal move (in playouts);
- the whole playout per command <= 10x a chess playout per ply;
- `clone` <= `board.copy(stack=False)`;
- `pop` <= `push` (of the same replayed playout);
- `brps`, `apply` and `clone` flat with game length (the long game within 1.25x of fresh);
- `apply` of a declaration of war in the 564-minor world within 1.5x of the 1939 world.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.metadata
import inspect
import io
import json
import math
import pstats
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import chess
import chess.polyglot
from bench_kernel import long_game, median_us

import minors
from minors import Moment, Phase, Side
from minors.domain import CommandKind
from minors.ruleset import loader

END = Moment.parse("1942-spring/axis/diplomacy")  # the first moment of Spring 1942
UCT_FROM = "1940-spring/axis/declarations"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
WORLD_SIZE = 564
FLAT = 1.25  # "flat with game length": the long game's figure within this factor of fresh
JUDGED = 15  # batches of the pairs a flatness or world-size target is judged on (noise)


# ---- the kinds of a phase -----------------------------------------------------------

K = CommandKind
PHASE_KINDS: dict[Phase, tuple[str, ...]] = {
    Phase.DIPLOMACY: (K.DIPLOMATIC_RESULT, K.SUBVERT),
    Phase.DECLARATIONS: (K.DECLARE_WAR, K.BORDER_WAR),
    Phase.MOVEMENT: (K.MOVE, K.TRACE_SUPPLY, K.CHOOSE_LOSSES),
    Phase.COMBAT: (K.CONQUER, K.MOVE, K.TRACE_SUPPLY, K.CHOOSE_LOSSES),
    Phase.REDEPLOYMENT: (K.MOVE, K.TRACE_SUPPLY, K.CHOOSE_LOSSES),
    Phase.CONSTRUCTION: (),
}
"""The kinds K1 ties to each phase (the `in_phase` gates of their candidate generators and
the `out_of_turn` / 82.32 phase checks: rules82/diplomacy.py, war.py, conquest.py,
movement.py, limits.py)."""
ANY_PHASE: tuple[str, ...] = (K.REFUSE_ASSOCIATION, K.DEPLOY)
"""Players' choices no phase restricts: a refusal while an association is pending (82.81D),
the default set-up of a deployment due now (82.52). Left out on purpose: `surrender` and
`reenter_war` (events of rules outside rule 82, K2) and `place` / `remove` (the map's
bookkeeping, K3)."""
LEFT_OUT = frozenset({K.SURRENDER, K.REENTER_WAR, K.PLACE, K.REMOVE})


def phase_kinds(moment: Moment) -> tuple[str, ...]:
    """The command kinds a player may choose from at `moment`."""
    return PHASE_KINDS[moment.phase] + ANY_PHASE


def check_phase_kinds(game: minors.Game) -> list[str]:
    """Over one game turn of `game`: the kinds `legal_actions()` offers that `phase_kinds`
    leaves out and should not (empty when the helper agrees with the rules)."""
    game = game.clone()
    stray: list[str] = []
    for _ in range(12):
        offered = {cmd.name for cmd in game.legal_actions()}
        extra = offered - set(phase_kinds(game.clock)) - LEFT_OUT
        stray.extend(f"{kind} at {game.clock}" for kind in sorted(extra))
        game.advance_to(game.clock.next())
    return stray


# ---- what the game offers -----------------------------------------------------------


@dataclass
class Api:
    """The optional engine API of this build of `minors.Game`, and why a part is missing."""

    push: bool = False
    push_unchecked: bool = False
    pop: bool = False
    key: bool = False
    no_log: bool = False
    why: dict[str, str] = field(default_factory=dict)

    def new(self, ruleset: Any = ()) -> minors.Game:
        """A new game as an engine would make it: without a log when it can."""
        if self.no_log:
            return minors.Game.new(ruleset, log=False)
        return minors.Game.new(ruleset)


def probe() -> Api:
    """Which of push / push_unchecked / pop / key / new(log=False) work: each is tried
    once (a declaration pushed and popped must give the state back)."""
    api = Api()
    if "log" in inspect.signature(minors.Game.new).parameters:
        try:
            minors.Game.new(log=False)
            api.no_log = True
        except Exception as exc:
            api.why["new(log=False)"] = f"{type(exc).__name__}: {exc}"
    else:
        api.why["new(log=False)"] = "Game.new has no log parameter"
    base = api.new()
    base.advance_to(UCT_FROM)
    declare = minors.command("declare_war", attacker="Germany", target="Sweden")
    for name in ("push", "push_unchecked"):
        game = base.clone()
        if not callable(getattr(game, name, None)):
            api.why[name] = "Game has no such method"
            continue
        try:
            getattr(game, name)(declare)
            setattr(api, name, True)
        except Exception as exc:
            api.why[name] = f"{type(exc).__name__}: {exc}"
            continue
        if callable(getattr(game, "pop", None)) and not api.pop:
            try:
                game.pop()
                game.advance_to(game.clock.next())
                game.pop()
                if game.raw_state != base.raw_state:
                    raise AssertionError("pop did not give the state back")
                api.pop = True
                api.why.pop("pop", None)
            except Exception as exc:
                api.why["pop"] = f"{type(exc).__name__}: {exc}"
    if not callable(getattr(base, "pop", None)):
        api.why["pop"] = "Game has no such method"
    elif not (api.push or api.push_unchecked) and "pop" not in api.why:
        api.why["pop"] = "nothing to undo without push"
    if callable(getattr(base, "key", None)):
        try:
            value = base.key()
            if not isinstance(value, int):
                raise TypeError(f"key() returned {type(value).__name__}, not int")
            api.key = True
        except Exception as exc:
            api.why["key"] = f"{type(exc).__name__}: {exc}"
    else:
        api.why["key"] = "Game has no such method"
    return api


# ---- the report ---------------------------------------------------------------------


@dataclass
class Row:
    what: str
    mine: float | None
    theirs: float | None
    unit: str = "µs"


@dataclass
class Section:
    title: str
    columns: tuple[str, str] = ("minors", "python-chess")
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    kept: Any = None

    def add(self, what: str, mine: float | None, theirs: float | None, unit: str = "µs") -> None:
        self.rows.append(Row(what, mine, theirs, unit))


def show(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "B":
        return f"{value:,.0f} B"
    if unit == "µs" and value >= 100:
        return f"{value:,.0f} µs"
    return f"{value:,.2f} {unit}"


def render(section: Section) -> None:
    width = max([len(r.what) for r in section.rows] + [40])
    left, right = section.columns
    print(f"\n== {section.title}")
    print(f"{'':<{width}}  {left:>16}  {right:>16}  {'ratio':>7}")
    for row in section.rows:
        ratio = (
            f"{row.mine / row.theirs:7.2f}"
            if row.mine is not None and row.theirs
            else f"{'n/a' if row.mine is None or row.theirs is None else '':>7}"
        )
        print(
            f"{row.what:<{width}}  {show(row.mine, row.unit):>16}  "
            f"{show(row.theirs, row.unit):>16}  {ratio}"
        )
    for note in section.notes:
        print(f"  - {note}")


def paired_us(
    first: tuple[Callable[[], Any], Callable[[Any], object]],
    second: tuple[Callable[[], Any], Callable[[Any], object]],
    *,
    rounds: int = 2000,
    repeat: int = 7,
) -> tuple[float, float]:
    """`median_us` of two (setup, run) pairs, their batches alternating (first, second,
    second, first ...) so that the shared machine's drift falls on both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    for i in range(repeat):
        for k in (0, 1) if i % 2 == 0 else (1, 0):
            setup, run = (first, second)[k]
            times[k].append(median_us(setup, run, rounds=rounds, repeat=1))
    return statistics.median(times[0]), statistics.median(times[1])


def timed_us(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1e6


# ---- 1. random playouts -------------------------------------------------------------

ADVANCE = "advance"
"""In a recorded playout: `advance_to(clock.next())`."""


@dataclass
class Tally:
    """Seconds and counts gathered over playouts."""

    playouts: int = 0
    total: float = 0.0
    commands: int = 0  # minors: applies and advances; chess: plies
    legal: float = 0.0
    legal_calls: int = 0
    listed: int = 0
    step: float = 0.0  # minors: apply; chess: checked push
    steps: int = 0
    advance: float = 0.0
    advances: int = 0

    def per(self, seconds: float, count: int) -> float | None:
        return seconds / count * 1e6 if count else None


def minors_playout(root: minors.Game, rng: random.Random, tally: Tally) -> list[Any]:
    """One random playout from `root` to Spring 1942; returns the commands it gave."""
    clock = time.perf_counter
    game = root.clone()
    record: list[Any] = []
    begun = clock()
    while game.clock < END:
        kinds = phase_kinds(game.clock)
        for _ in range(3):
            if rng.random() >= 0.5:
                break
            t = clock()
            actions = game.legal_actions(kinds)
            tally.legal += clock() - t
            tally.legal_calls += 1
            tally.listed += len(actions)
            if not actions:
                break
            cmd = rng.choice(actions)
            t = clock()
            game.apply(cmd)
            tally.step += clock() - t
            tally.steps += 1
            record.append(cmd)
        t = clock()
        game.advance_to(game.clock.next())
        tally.advance += clock() - t
        tally.advances += 1
        record.append(ADVANCE)
    tally.total += clock() - begun
    tally.commands += len(record)
    tally.playouts += 1
    return record


def random_commands(game: minors.Game, rng: random.Random) -> Iterator[Any]:
    """`minors_playout`'s policy on `game`, untimed: yields each command it chooses, for the
    caller to apply (and time), and advances the clock itself, until Spring 1942."""
    while game.clock < END:
        kinds = phase_kinds(game.clock)
        for _ in range(3):
            if rng.random() >= 0.5:
                break
            actions = game.legal_actions(kinds)
            if not actions:
                break
            yield rng.choice(actions)
        game.advance_to(game.clock.next())


def game_over(board: chess.Board, moves: Sequence[chess.Move]) -> bool:
    """`board.is_game_over()` without generating the moves again."""
    return (
        not moves
        or board.is_insufficient_material()
        or board.is_seventyfive_moves()
        or board.is_fivefold_repetition()
    )


def chess_playout(rng: random.Random, tally: Tally) -> list[chess.Move]:
    """One random chess game from the start; returns its moves."""
    clock = time.perf_counter
    board = chess.Board()
    begun = clock()
    while True:
        t = clock()
        moves = list(board.legal_moves)
        tally.legal += clock() - t
        tally.legal_calls += 1
        tally.listed += len(moves)
        if game_over(board, moves):
            break
        move = rng.choice(moves)
        t = clock()
        if move in board.legal_moves:
            board.push(move)
        tally.step += clock() - t
        tally.steps += 1
    tally.total += clock() - begun
    tally.commands = tally.steps
    tally.playouts += 1
    return board.move_stack


def replay(
    game: minors.Game, record: Sequence[Any], step: Callable[[Any], object]
) -> tuple[float, float]:
    """`record` applied to `game`, its commands with `step` and its advances with
    `advance_to`: µs per command and per advance."""
    clock = time.perf_counter
    spent = [0.0, 0.0]
    for item in record:
        advance = item == ADVANCE
        t = clock()
        if advance:
            game.advance_to(game.clock.next())
        else:
            step(item)
        spent[advance] += clock() - t
    return per_item(spent, record)


def undo_record(game: minors.Game, record: Sequence[Any]) -> tuple[float, float]:
    """`record` undone with `pop` from its end: µs per command and per advance undone."""
    clock = time.perf_counter
    spent = [0.0, 0.0]
    for item in reversed(record):
        t = clock()
        game.pop()
        spent[item == ADVANCE] += clock() - t
    return per_item(spent, record)


def per_item(spent: Sequence[float], record: Sequence[Any]) -> tuple[float, float]:
    advances = sum(1 for item in record if item == ADVANCE)
    return spent[0] / (len(record) - advances) * 1e6, spent[1] / advances * 1e6


def chess_times(board: chess.Board, moves: Sequence[chess.Move], step: Callable[..., Any]) -> float:
    clock = time.perf_counter
    start = clock()
    for move in moves:
        step(move)
    return (clock() - start) / len(moves) * 1e6


def section_playouts(api: Api, quick: bool, seed: int) -> tuple[Section, dict[str, float]]:
    sec = Section("1. random playouts, Fall 1939 -> Spring 1942 (chess: random games)")
    root = api.new()
    rng = random.Random(seed)
    mine, theirs = Tally(), Tally()
    records: list[list[Any]] = []
    chess_rng = random.Random(seed)
    games: list[list[chess.Move]] = []
    # Warm-up, not counted: the first playout of a process pays one-time costs (commands
    # and derived tables cached on first use, the interpreter's specialisation of the code
    # it runs), which an engine running thousands of playouts does not see; chess gets the
    # same warm-up game.
    minors_playout(root, random.Random(seed + 1), Tally())
    chess_playout(random.Random(seed + 1), Tally())
    # The same playouts on a logged game (`Game.new()`, the default): the same seed gives
    # the same commands, so the two `apply` rows time the same work with and without a log.
    logged_root = minors.Game.new() if api.no_log else None
    logged, logged_rng = Tally(), random.Random(seed)
    if logged_root is not None:
        minors_playout(logged_root, random.Random(seed + 1), Tally())
    for _ in range(2 if quick else 6):  # interleaved, so that the machine's drift hits both
        records.append(minors_playout(root, rng, mine))
        if logged_root is not None:
            minors_playout(logged_root, logged_rng, logged)
        games.extend(chess_playout(chess_rng, theirs) for _ in range(20))

    per_command = mine.total / mine.commands * 1e6
    per_ply = theirs.total / theirs.commands * 1e6
    sec.add("whole playout, per command (apply or advance) / per ply", per_command, per_ply)
    sec.add(
        "playouts per second",
        mine.playouts / mine.total,
        theirs.playouts / theirs.total,
        "/s",
    )
    sec.add(
        "commands (apply + advance) / plies per playout",
        mine.commands / mine.playouts,
        theirs.commands / theirs.playouts,
        "",
    )
    sec.add(
        "legal_actions(phase kinds) per call in playouts / list(legal_moves)",
        mine.per(mine.legal, mine.legal_calls),
        theirs.per(theirs.legal, theirs.legal_calls),
    )
    la_per_action = mine.per(mine.legal, mine.listed)
    lm_per_move = theirs.per(theirs.legal, theirs.listed)
    sec.add(
        "legal_actions per listed action in playouts / per legal move", la_per_action, lm_per_move
    )
    apply_us = mine.per(mine.step, mine.steps)
    push_in_chess = theirs.per(theirs.step, theirs.steps)
    sec.add("apply in playouts (GC on) / checked push in playouts", apply_us, push_in_chess)
    logged_us = logged.per(logged.step, logged.steps)
    sec.add("apply in playouts, log on (Game.new()) / log off", logged_us, apply_us)
    sec.add(
        "advance_to(clock.next()) in playouts / checked push",
        mine.per(mine.advance, mine.advances),
        push_in_chess,
    )
    sec.notes.append(
        f"{mine.playouts} playouts of {mine.commands / mine.playouts:.0f} commands "
        f"({mine.steps / mine.playouts:.0f} applies, {mine.advances / mine.playouts:.0f} "
        f"advances; {mine.listed / mine.legal_calls:.0f} actions listed per legal_actions "
        f"call); {theirs.playouts} chess games of "
        f"{theirs.commands / theirs.playouts:.0f} plies ({theirs.listed / theirs.legal_calls:.0f}"
        " moves per position)"
    )

    # legal_actions at fixed positions
    diplomacy = api.new()
    kinds = phase_kinds(diplomacy.clock)
    count = len(diplomacy.legal_actions(kinds))
    every = len(diplomacy.legal_actions())
    rounds, repeat = (5, 3) if quick else (10, 5)
    start, middle = chess.Board(), chess.Board(KIWIPETE)
    n_start, n_middle = len(list(start.legal_moves)), len(list(middle.legal_moves))
    at_1939, at_start = paired_us(
        (lambda: diplomacy, lambda g: g.legal_actions(kinds)),
        (lambda: start, lambda b: [list(b.legal_moves) for _ in range(100)]),
        rounds=rounds,
        repeat=repeat,
    )
    all_1939, at_middle = paired_us(
        (lambda: diplomacy, lambda g: g.legal_actions()),
        (lambda: middle, lambda b: [list(b.legal_moves) for _ in range(100)]),
        rounds=rounds,
        repeat=repeat,
    )
    at_start, at_middle = at_start / 100, at_middle / 100
    sec.add(
        f"legal_actions(phase kinds), 1939 diplomacy [{count}] / start [{n_start}]",
        at_1939,
        at_start,
    )
    sec.add(f"  the same / Kiwipete middlegame [{n_middle}]", at_1939, at_middle)
    sec.add(f"legal_actions(), all kinds, 1939 diplomacy [{every}] / Kiwipete", all_1939, at_middle)
    sec.add(
        "  per listed action, phase kinds / per legal move, Kiwipete",
        at_1939 / count,
        at_middle / n_middle,
    )
    sec.notes.append(
        f"[n] = actions listed / legal moves; Kiwipete is perft position 2 ({KIWIPETE.split()[0]})"
    )

    # one playout and one chess game replayed: apply, push, push_unchecked, pop
    record, moves = records[0], games[0]

    def chess_checked(board: chess.Board) -> Callable[[chess.Move], None]:
        def step(move: chess.Move) -> None:
            if move in board.legal_moves:
                board.push(move)

        return step

    board = chess.Board()
    checked = chess_times(board, moves, chess_checked(board))
    popped = chess_times(board, moves, lambda _: board.pop())
    board = chess.Board()
    unchecked = chess_times(board, moves, board.push)
    game = root.clone()
    applied, advanced = replay(game, record, game.apply)
    sec.add("apply, one playout replayed (GC on) / checked push", applied, checked)
    sec.add("advance_to, the same playout / checked push", advanced, checked)
    push_us: float | None = None
    pop_us: tuple[float | None, float | None] = (None, None)
    unchecked_us: float | None = None
    if api.push:
        game = root.clone()
        push_us = replay(game, record, game.push)[0]
        if api.pop:
            pop_us = undo_record(game, record)
            back = "gives the start back" if game.raw_state == root.raw_state else "DIFFERS"
            sec.notes.append(f"popping the whole replayed playout {back}")
    if api.push_unchecked:
        game = root.clone()
        unchecked_us = replay(game, record, game.push_unchecked)[0]
    sec.add("push (checked), the same playout / checked push", push_us, checked)
    sec.add("push_unchecked, the same playout / board.push", unchecked_us, unchecked)
    sec.add("pop of a command, the same playout / board.pop", pop_us[0], popped)
    sec.add("pop of an advance, the same playout / board.pop", pop_us[1], popped)
    fresh = api.new()
    clone_us, copy_us = paired_us(
        (lambda: fresh, lambda g: g.clone()), (lambda: start, lambda b: b.copy(stack=False))
    )
    sec.add("clone (Fall 1939) / board.copy(stack=False), start", clone_us, copy_us)
    key_us: float | None = None
    if api.key:
        keyed = api.new()
        keyed.advance_to(UCT_FROM)
        key_us = median_us(lambda: keyed, lambda g: g.key())
    sec.add(
        "key(), 1940 spring / chess.polyglot.zobrist_hash, Kiwipete",
        key_us,
        median_us(lambda: middle, chess.polyglot.zobrist_hash, rounds=500),
    )
    for name, why in api.why.items():
        sec.notes.append(f"n/a {name}: {why}")
    sec.kept = (record, moves)
    figures = {
        "apply_in_playouts": apply_us or math.inf,
        "chess_checked_push": push_in_chess or math.inf,
        "la_per_action": la_per_action or math.inf,
        "lm_per_move": lm_per_move or math.inf,
        "per_command": per_command,
        "per_ply": per_ply,
        "clone": clone_us,
        "copy": copy_us,
        "replay_checked_push": checked,
        "apply_logged": logged_us or math.inf,
    }
    if push_us is not None:
        figures["push"] = push_us
    if pop_us[0] is not None:
        figures["pop"] = pop_us[0]
    return sec, figures


# ---- 2. UCT -------------------------------------------------------------------------


class Node:
    """A node of the search tree: the move into it, its statistics, its children."""

    __slots__ = ("action", "by_first", "children", "parent", "untried", "value", "visits")

    def __init__(self, parent: Node | None, action: Any, by_first: bool) -> None:
        self.parent, self.action, self.by_first = parent, action, by_first
        self.children: list[Node] = []
        self.untried: list[Any] | None = None
        self.visits = 0
        self.value = 0.0

    def ucb_child(self, c: float = 1.4) -> Node:
        log_n = math.log(self.visits)
        return max(
            self.children,
            key=lambda n: n.value / n.visits + c * math.sqrt(log_n / n.visits),
        )


class MinorsEnv:
    """The game a UCT walks: `play` and `undo` with push/pop when there are, else with a
    stack of clones (a clone per node on the path). The first player is the Axis."""

    def __init__(self, game: minors.Game, api: Api) -> None:
        self.game = game
        self.undoable = api.push and api.pop
        self.push = getattr(game, "push_unchecked" if api.push_unchecked else "push", None)
        self.saved: list[minors.Game] = []
        self.taken: list[int] = [0]  # actions taken in the current phase, down the path
        side_of = game.ruleset.side_of
        self.axis = frozenset(m for m, s in side_of.items() if s is Side.AXIS)
        self.allies = frozenset(side_of) - self.axis

    def first_to_move(self) -> bool:
        return self.game.clock.side is Side.AXIS

    def actions(self) -> list[Any]:
        legal = self.game.legal_actions(phase_kinds(self.game.clock)) if self.taken[-1] < 3 else []
        return [*legal, ADVANCE]

    def play(self, action: Any) -> None:
        if not self.undoable:
            self.saved.append(self.game)
            self.game = self.game.clone()
        if action == ADVANCE:
            self.game.advance_to(self.game.clock.next())
            self.taken.append(0)
        else:
            (self.push if self.undoable else self.game.apply)(action)
            self.taken.append(self.taken[-1] + 1)

    def undo(self) -> None:
        self.taken.pop()
        if self.undoable:
            self.game.pop()
        else:
            self.game = self.saved.pop()

    def random_step(self, rng: random.Random) -> bool:
        """The playout policy: an action with probability 1/2 (at most 3 a phase), else
        advance. Always a step (the clock has no end here)."""
        action: Any = ADVANCE
        if self.taken[-1] < 3 and rng.random() < 0.5:
            legal = self.game.legal_actions(phase_kinds(self.game.clock))
            if legal:
                action = rng.choice(legal)
        self.play(action)
        return True

    def reward(self) -> float:
        """For the Axis, in [0, 1]: minors tied to an Axis power less those tied to an
        Allied one, over all minors."""
        states = self.game.raw_state.minors
        score = sum((s.major in self.axis) - (s.major in self.allies) for s in states.values())
        return 0.5 + score / (2 * len(states))


class ChessEnv:
    """A board the UCT walks with push/pop. The first player is White."""

    VALUES: ClassVar[dict[int, int]] = {
        chess.PAWN: 1,
        chess.KNIGHT: 3,
        chess.BISHOP: 3,
        chess.ROOK: 5,
        chess.QUEEN: 9,
    }

    def __init__(self) -> None:
        self.board = chess.Board()

    def first_to_move(self) -> bool:
        return self.board.turn is chess.WHITE

    def actions(self) -> list[Any]:
        moves = list(self.board.legal_moves)
        return [] if game_over(self.board, moves) else moves

    def play(self, action: Any) -> None:
        self.board.push(action)

    def undo(self) -> None:
        self.board.pop()

    def random_step(self, rng: random.Random) -> bool:
        moves = list(self.board.legal_moves)
        if game_over(self.board, moves):
            return False
        self.board.push(rng.choice(moves))
        return True

    def reward(self) -> float:
        """For White, in [0, 1]: the result if the game is over, else the material."""
        board = self.board
        if board.is_checkmate():
            return 0.0 if board.turn is chess.WHITE else 1.0
        material = sum(
            value * (len(board.pieces(kind, chess.WHITE)) - len(board.pieces(kind, chess.BLACK)))
            for kind, value in self.VALUES.items()
        )
        return 0.5 + material / 78


def uct(env: Any, iterations: int, depth: int, rng: random.Random) -> Node:
    """Plain UCT: select by UCB1, expand one child, roll out `depth` random steps, back up
    the reward (each node scores it for the player who moved into it). The env is left as
    it was."""
    root = Node(None, None, not env.first_to_move())
    for _ in range(iterations):
        node, played = root, 0
        while node.untried is not None and not node.untried and node.children:
            node = node.ucb_child()
            env.play(node.action)
            played += 1
        if node.untried is None:
            node.untried = env.actions()
            rng.shuffle(node.untried)
        if node.untried:
            first = env.first_to_move()
            child = Node(node, node.untried.pop(), first)
            env.play(child.action)
            played += 1
            node.children.append(child)
            node = child
        steps = 0
        while steps < depth and env.random_step(rng):
            steps += 1
        reward = env.reward()
        for _ in range(steps + played):
            env.undo()
        while node is not None:
            node.visits += 1
            node.value += reward if node.by_first else 1.0 - reward
            node = node.parent
    return root


def section_cold(api: Api, quick: bool, seed: int) -> Section:
    """What an `apply` in a playout costs beside the same `apply` done again at once on the
    same position (`pop`, then `apply`): the same work (the command resolved first, so that
    neither resolves it), the second time on warm caches. So
    the ratio is what the caches cost, per command kind; chess's checked `push` the same way
    (pushed in its playouts, then popped and pushed again)."""
    sec = Section(
        "1b. apply in playouts, and at once again on the same position (pop, apply)",
        ("in playouts", "again, warm"),
    )
    if not api.pop:
        sec.notes.append("n/a: no pop")
        return sec
    clock = time.perf_counter
    root = api.new()
    rng = random.Random(seed)
    spent: dict[str, list[float]] = {}
    for _ in range(2 if quick else 6):
        game = root.clone()
        for chosen in random_commands(game, rng):
            cmd = game.resolve(chosen)  # both applies find it canonical
            t = clock()
            game.apply(cmd)
            first = clock() - t
            game.pop()
            t = clock()
            game.apply(cmd)
            again = clock() - t
            pair = spent.setdefault(str(cmd.name), [0.0, 0.0, 0])
            pair[0] += first
            pair[1] += again
            pair[2] += 1
    for kind, (first, again, n) in sorted(spent.items(), key=lambda kv: -kv[1][0]):
        sec.add(f"{kind} [{n}]", first / n * 1e6, again / n * 1e6)
    n = sum(int(v[2]) for v in spent.values())
    sec.add(
        f"every apply [{n}]",
        sum(v[0] for v in spent.values()) / n * 1e6,
        sum(v[1] for v in spent.values()) / n * 1e6,
    )
    chess_rng = random.Random(seed)
    first_push = again_push = 0.0
    plies = 0
    for _ in range(20 if quick else 60):
        board = chess.Board()
        while True:
            moves = list(board.legal_moves)
            if game_over(board, moves):
                break
            move = chess_rng.choice(moves)
            t = clock()
            if move in board.legal_moves:
                board.push(move)
            first_push += clock() - t
            board.pop()
            t = clock()
            if move in board.legal_moves:
                board.push(move)
            again_push += clock() - t
            plies += 1
    sec.add(f"chess: checked push [{plies}]", first_push / plies * 1e6, again_push / plies * 1e6)
    sec.notes.append(
        "ratio: in playouts / again at once; the same work, so what the processor's caches"
        " (data, instructions, branch predictors, address translation) cost when the apply"
        " runs right after legal_actions and advance_to. The command is resolved before both"
        " applies, so neither runs the canonical-name test (section 1's apply does, once per"
        " command object)"
    )
    if api.push_unchecked:
        unchecked = Tally(), Tally()
        for i in range(4 if quick else 12):  # the same playouts, alternating the two
            step = unchecked[i % 2]
            pushing = bool(i % 2)
            game = root.clone()
            for cmd in random_commands(game, random.Random(seed + i // 2)):
                t = clock()
                if pushing:
                    game.push_unchecked(cmd)
                else:
                    game.apply(cmd)
                step.step += clock() - t
                step.steps += 1
        applied, pushed = (tally.per(tally.step, tally.steps) or 0.0 for tally in unchecked)
        sec.notes.append(
            f"apply {applied:.2f} µs, push_unchecked {pushed:.2f} µs per command in the same"
            f" playouts, alternating ({pushed / applied:.2f}x): what the checks and the"
            " name test cost in a playout"
        )
    return sec


def section_uct(api: Api, quick: bool, seed: int) -> tuple[Section, dict[str, float]]:
    iterations, depth = (40, 10) if quick else (150, 10)
    sec = Section(f"2. plain UCT, {iterations} iterations, random rollouts of {depth} steps")
    game = api.new()
    game.advance_to(UCT_FROM)
    env = MinorsEnv(game, api)
    start = time.perf_counter()
    root = uct(env, iterations, depth, random.Random(seed))
    mine = (time.perf_counter() - start) / iterations * 1e6
    assert env.game.clock == Moment.parse(UCT_FROM)
    chess_env = ChessEnv()
    start = time.perf_counter()
    chess_root = uct(chess_env, iterations, depth, random.Random(seed))
    theirs = (time.perf_counter() - start) / iterations * 1e6
    how = "push/pop" if env.undoable else "a clone per node"
    sec.add(f"time per iteration (minors: {how}; chess: push/pop)", mine, theirs)
    best = max(root.children, key=lambda n: n.visits)
    chess_best = max(chess_root.children, key=lambda n: n.visits)
    sec.notes.append(
        f"from {UCT_FROM}: {len(root.children) + len(root.untried or [])} root actions "
        f"(phase kinds + advance), most visited {describe(best.action)} ({best.visits}); "
        f"chess from the start: most visited {chess_best.action} ({chess_best.visits})"
    )
    return sec, {"uct": mine, "chess_uct": theirs}


def describe(action: Any) -> str:
    if action == ADVANCE:
        return "advance"
    fields = {k: v for k, v in minors.commands.fields_of(action).items() if k != "command"}
    return f"{action.name} {json.dumps(fields)}"


# ---- 3. memory ----------------------------------------------------------------------


def traced(build: Callable[[], object]) -> int:
    """Bytes still allocated after `build()` (its result kept alive), under tracemalloc."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return after - before


def section_memory(api: Api, record: Sequence[Any], moves: Sequence[chess.Move]) -> Section:
    sec = Section("3. memory (tracemalloc, tables already loaded)")
    api.new()  # tables, rulebook and caches loaded before anything is traced
    game = api.new()
    board = chess.Board()
    sec.add("a fresh game (Fall 1939) / chess.Board()", traced(api.new), traced(chess.Board), "B")
    sec.add(
        "clone / board.copy(stack=False)",
        traced(game.clone),
        traced(lambda: board.copy(stack=False)),
        "B",
    )
    sec.add("clone / board.copy() (fresh board)", traced(game.clone), traced(board.copy), "B")

    def played() -> minors.Game:
        g = api.new()
        replay(g, record, g.apply)
        return g

    def chess_played() -> chess.Board:
        b = chess.Board()
        for move in moves:
            b.push(move)
        return b

    after_mine, after_theirs = traced(played), traced(chess_played)
    sec.add("after one playout / after one chess game", after_mine, after_theirs, "B")
    sec.add(
        "  per command / per ply",
        after_mine / len(record),
        after_theirs / len(moves),
        "B",
    )
    logged = "without a log (new(log=False))" if api.no_log else "with its log"
    sec.notes.append(
        f"the playout: {len(record)} commands, the game {logged}; the chess game: "
        f"{len(moves)} plies with its move stack"
    )
    return sec


# ---- 4. the 564-minor world ---------------------------------------------------------


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }"
    raise TypeError(f"no TOML for {value!r}")


def names_in(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from names_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from names_in(inner)
    elif isinstance(value, str):
        yield value


def world_overlay(size: int) -> str:
    """An overlay that brings the minors to `size`: copies of the minors no other table
    names (limits, border wars, alignments, the Commonwealth, footnotes, starts ...), each
    with its forces row, under new names ("Norway 2"), their hexes renamed alike."""
    raw, _ = loader.load_raw()
    own = {"minors", "forces", "clauses", "provenance"}
    own |= {s for s in raw if s.startswith(("nationalit", "replacement", "country_"))}
    named = {n for s, entries in raw.items() if s not in own for n in names_in(entries)}
    plain = [
        name
        for name, entry in raw["minors"].items()
        if name not in named and not entry.get("aliases") and entry.get("active", True)
    ]
    hexy = ("capital", "capital_adjacent", "key_hexes", "hexes")
    lines: list[str] = []
    for i in range(size - len(raw["minors"])):
        template, copy = plain[i % len(plain)], i // len(plain) + 2
        entry = dict(raw["minors"][template])
        for key in hexy:
            if isinstance(entry.get(key), str):
                entry[key] = f"{entry[key]} {copy}"
            elif key in entry:
                entry[key] = [f"{h} {copy}" for h in entry[key]]
        name = json.dumps(f"{template} {copy}")
        lines.append(f"[minors.{name}]")
        lines.extend(f"{k} = {toml_value(v)}" for k, v in entry.items())
        if template in raw["forces"]:
            lines.append(f"[forces.{name}]")
            lines.extend(f"{k} = {toml_value(v)}" for k, v in raw["forces"][template].items())
        lines.append("")
    return "\n".join(lines)


def section_world(api: Api, quick: bool) -> tuple[Section, dict[str, float]]:
    sec = Section(
        f"4. a {WORLD_SIZE}-minor world beside the built-in one",
        (f"{WORLD_SIZE} minors", "built-in"),
    )
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as folder:
        path = Path(folder) / "world.toml"
        path.write_text(world_overlay(WORLD_SIZE), encoding="utf-8")
        start = time.perf_counter()
        big_rs = minors.load_ruleset([path])
        loading = time.perf_counter() - start
    built_in = len(minors.load_ruleset().minors)
    assert len(big_rs.minors) == WORLD_SIZE, len(big_rs.minors)
    big, small = api.new(big_rs), api.new()
    sec.add("Game.new", timed_us(lambda: api.new(big_rs)), timed_us(api.new))
    kinds = phase_kinds(big.clock)
    counts = len(big.legal_actions(kinds)), len(small.legal_actions(kinds))
    rounds, repeat = (2, 3) if quick else (4, 5)
    listing = paired_us(
        (lambda: big, lambda g: g.legal_actions(kinds)),
        (lambda: small, lambda g: g.legal_actions(kinds)),
        rounds=rounds,
        repeat=repeat,
    )
    sec.add(f"legal_actions, 1939 axis diplomacy [{counts[0]} / {counts[1]}]", *listing)
    sec.add("  per listed action", listing[0] / counts[0], listing[1] / counts[1])
    declare = minors.command("declare_war", attacker="Germany", target="Sweden")
    for g in (big, small):
        g.advance_to(UCT_FROM)
    timing = paired_us(
        (big.clone, lambda c: c.apply(declare)),
        (small.clone, lambda c: c.apply(declare)),
        rounds=500,
        repeat=JUDGED,
    )
    sec.add("apply declare_war Germany on Sweden, 1940 spring", *timing)
    sec.add(
        "clone",
        *paired_us((lambda: big, lambda g: g.clone()), (lambda: small, lambda g: g.clone())),
    )
    sec.notes.append(
        f"{WORLD_SIZE - built_in} minors added by one overlay (copies of the minors no "
        f"other table names, with their forces rows); loading it took {loading * 1e3:.0f} ms"
    )
    return sec, {"big_apply": timing[0], "small_apply": timing[1]}


# ---- 5. long games ------------------------------------------------------------------


def section_long(api: Api, quick: bool) -> tuple[Section, dict[str, float]]:
    """A long game beside the fresh game (the start) and beside a one-year game: its last
    command, Germany reversing Britain's hold, does the same work as in the long game (four
    ledger entries and a deadline), while a fresh game's first result does less."""
    sec = Section("5. long games beside a fresh and a one-year game", ("long game", "reference"))
    fresh = minors.Game.new()
    short, short_result = long_game(1)
    first = minors.command("diplomatic_result", minor=short_result.minor, major="Germany", result=8)
    assert not fresh.check(first)

    def brps(game: minors.Game) -> tuple[Callable[[], Any], Callable[[Any], object]]:
        return lambda: game, lambda g: g.brps("Germany")

    def apply(
        game: minors.Game, cmd: minors.Command, how: str = "apply"
    ) -> tuple[Callable[[], Any], Callable[[Any], object]]:
        return game.clone, lambda g: getattr(g, how)(cmd)

    def clone(game: minors.Game) -> tuple[Callable[[], Any], Callable[[Any], object]]:
        return lambda: game, lambda g: g.clone()

    def ledger(game: minors.Game) -> str:
        return f"{len(game.raw_state.ledger)} ledger entries"

    figures: dict[str, float] = {}
    for years in (10,) if quick else (10, 30):
        late, result = long_game(years)
        label = f"{years} years ({ledger(late)})"
        mine, at_start = paired_us(brps(late), brps(fresh), rounds=200, repeat=JUDGED)
        sec.add(f"brps('Germany'), {label} / the start ({ledger(fresh)})", mine, at_start)
        figures["brps"] = mine / at_start
        sec.add(f"  / one year ({ledger(short)})", *paired_us(brps(late), brps(short), rounds=200))
        mine, reversal = paired_us(
            apply(late, result), apply(short, short_result), rounds=500, repeat=JUDGED
        )
        sec.add(f"apply Germany's 8 (a reversal), {years} years / one year", mine, reversal)
        figures["apply"] = mine / reversal
        sec.add(
            f"  / a first result, fresh game ({first.minor})",
            *paired_us(apply(late, result), apply(fresh, first), rounds=500),
        )
        if api.push:
            sec.add(
                f"push Germany's 8, {years} years / one year",
                *paired_us(
                    apply(late, result, "push"), apply(short, short_result, "push"), rounds=500
                ),
            )
        mine, at_start = paired_us(clone(late), clone(fresh), repeat=JUDGED)
        sec.add(f"clone, {years} years / fresh", mine, at_start)
        figures["clone"] = mine / at_start
    sec.notes.append(
        "long_game (bench_kernel.py): Germany gains and Britain reverses twenty minors every "
        "turn; the flat targets compare the longest game with the start (brps, clone) and "
        "with the one-year game (apply: the same reversal)"
    )
    return sec, figures


# ---- the run ------------------------------------------------------------------------


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "NOT met")


def profile_playout(seed: int) -> None:
    """cProfile of one playout, then of the same playout replayed (`apply` and `advance_to`
    alone): the share of the public calls, and the top 10 functions by own time and by
    cumulative time."""
    api = probe()
    root = api.new()
    minors_playout(root, random.Random(seed), Tally())  # caches warm
    for title, run in (
        ("one playout", lambda: minors_playout(root, random.Random(seed), Tally())),
        ("the same playout replayed: apply and advance_to alone", None),
    ):
        profiler = cProfile.Profile()
        if run is None:
            record = minors_playout(root, random.Random(seed), Tally())
            game = root.clone()
            profiler.enable()
            replay(game, record, game.apply)
        else:
            profiler.enable()
            run()
        profiler.disable()
        stats = pstats.Stats(profiler)
        total = stats.total_tt  # type: ignore[attr-defined]
        print(f"==== cProfile: {title} ({total:.2f} s under the profiler)")
        for (path, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
            if path.endswith("_kernel/game.py") and name in {
                "legal_actions",
                "apply",
                "advance_to",
            }:
                print(f"  Game.{name}: {row[1]} calls, {row[3]:.2f} s, {row[3] / total:.0%}")
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(10)
            print(out.getvalue().replace(f"{Path(minors.__file__).parent.parent}/", ""))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer playouts and rounds")
    parser.add_argument("--profile", action="store_true", help="cProfile one playout, then stop")
    parser.add_argument("--seed", type=int, default=1982)
    args = parser.parse_args(argv)
    if args.profile:
        profile_playout(args.seed)
        return 0
    began = time.perf_counter()
    api = probe()
    stray = check_phase_kinds(api.new())
    print(
        f"minors {importlib.metadata.version('minors')} on Python {sys.version.split()[0]}, "
        f"python-chess {chess.__version__}; seed {args.seed}{', quick' if args.quick else ''}"
    )
    print(
        "engine API: "
        + ", ".join(
            f"{name} {'yes' if getattr(api, attr) else 'no'}"
            for name, attr in (
                ("push", "push"),
                ("push_unchecked", "push_unchecked"),
                ("pop", "pop"),
                ("key", "key"),
                ("new(log=False)", "no_log"),
            )
        )
    )
    print(
        "phase kinds: "
        + ("agree with legal_actions() over Fall 1939" if not stray else f"MISSING {stray}")
    )

    playouts, p = section_playouts(api, args.quick, args.seed)
    render(playouts)
    render(section_cold(api, args.quick, args.seed))
    search, s = section_uct(api, args.quick, args.seed)
    render(search)
    render(section_memory(api, *playouts.kept))
    world, w = section_world(api, args.quick)
    render(world)
    long, g = section_long(api, args.quick)
    render(long)

    targets = [
        (
            "apply in playouts <= 1.0x chess checked push",
            p["apply_in_playouts"] <= p["chess_checked_push"],
        ),
        (
            "apply in playouts with the log on <= 1.15x log off",
            p["apply_logged"] <= 1.15 * p["apply_in_playouts"] if api.no_log else None,
        ),
        (
            "push (replayed playout) <= 1.0x chess checked push",
            p["push"] <= p["replay_checked_push"] if "push" in p else None,
        ),
        (
            "legal_actions per listed action <= 0.5x chess per legal move",
            p["la_per_action"] <= 0.5 * p["lm_per_move"],
        ),
        ("whole playout per command <= 10x chess per ply", p["per_command"] <= 10 * p["per_ply"]),
        ("clone <= board.copy(stack=False)", p["clone"] <= p["copy"]),
        ("pop <= push", p["pop"] <= p["push"] if "pop" in p and "push" in p else None),
        *(
            (f"{what} flat with game length (<= {FLAT}x, section 5)", g[what] <= FLAT)
            for what in ("brps", "apply", "clone")
        ),
        (
            f"{WORLD_SIZE}-minor apply within 1.5x of the 1939 world",
            w["big_apply"] <= 1.5 * w["small_apply"],
        ),
    ]
    print("\n== targets")
    width = max(len(what) for what, _ in targets)
    for what, ok in targets:
        print(f"{what:<{width}}  {verdict(ok)}")
    print(
        f"\n(ran {time.perf_counter() - began:.0f} s; UCT {s['uct'] / s['chess_uct']:.1f}x chess)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
