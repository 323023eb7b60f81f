"""Kernel benchmark, run on demand (not collected by pytest):

    pip install -e '.[bench]' && python tests/benchmarks/bench_kernel.py

(`bench` brings python-chess, and Hypothesis for `minors.testing.seesaw`, the long game.)

Reports medians of `apply` (a declaration of war, a diplomatic result), `check`, `clone` of
the Fall 1939 world, `legal_actions`, and replaying the sample campaign, beside
python-chess in the same run: `move in board.legal_moves` then `push`. Targets: `apply` no
slower than that python-chess move (ratio <= 1.0); `clone` <= 20 µs.

One more row is a reference, not the kernel: "records alone" builds exactly the records a
declaration of war on Sweden leaves behind (ledger entry, pending association, the minor's
new record, three effects, the successor state, the log entry) with no rule deciding
anything. No implementation that keeps these records can apply a declaration faster.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections.abc import Callable

import chess
from attrs import evolve

import minors
from minors import (
    BrpChange,
    GameState,
    LedgerEntry,
    Log,
    LogEntry,
    Note,
    Pending,
    StatusChanged,
)
from minors.domain import DiplomaticLevel, Status
from minors.scenario import SAMPLE
from minors.testing import seesaw


def records_alone(state: GameState, log: Log) -> tuple[GameState, Log]:
    """The records of Germany's declaration on Sweden in 1940, built with no rule run."""
    clock, old = state.clock, state.minors["Sweden"]
    entry = LedgerEntry(len(state.ledger) + 1, "Germany", -10, "cost", "K6", clock)
    pending = Pending("Britain", DiplomaticLevel.ASSOCIATION, "82.81", clock)
    new = evolve(
        old, status=Status.INDEPENDENT, direct_wars=("Germany",), at_war_with=("Germany",),
        attacked_by="Germany", attacked_at=clock, barred=("Germany", "Italy"), pending=pending,
    )  # fmt: skip
    effects = (
        BrpChange(entry, "K6"),
        StatusChanged("Sweden", old.status, new.status, None, "82.41", "Germany declares war"),
        Note(f"Sweden will associate with Britain at {clock} if it survives", "82.81"),
    )
    minors_ = dict(state.minors)
    minors_["Sweden"] = new
    successor = evolve(state, minors=minors_, ledger=state.ledger.append(entry))
    command = {"command": "declare_war", "attacker": "Germany", "target": "Sweden"}
    return successor, log.append(LogEntry(len(log) + 1, clock, command, effects))


def median_us(
    setup: Callable[[], object],
    run: Callable[[object], object],
    *,
    rounds: int = 2000,
    repeat: int = 7,
) -> float:
    """Median over `repeat` batches of the per-call time of `run(setup())`, in µs, with the
    garbage collector off while a batch runs (as `timeit` does)."""
    batches = []
    for _ in range(repeat):
        subjects = [setup() for _ in range(rounds)]
        gc.collect()
        gc.disable()  # as `timeit` does, for every row alike: no collection lands in a batch
        try:
            start = time.perf_counter()
            for subject in subjects:
                run(subject)
            batches.append((time.perf_counter() - start) / rounds * 1e6)
        finally:
            gc.enable()
    return statistics.median(batches)


LONG_CALENDAR = (
    "long-calendar.toml",
    b'[starts."1939-fall"]\nlast_moment = "2099-winter/allies/construction"\n',
)
"""An overlay moving the calendar's last moment (docs/tables.md) past the built-in ten
years of war, so that a long game can run for decades."""


def long_game(years: int = 10) -> tuple[minors.Game, minors.Command]:
    """A game whose ledger is long: Germany gains and Britain reverses control of twenty
    minors every turn for `years` years; and a diplomatic result to apply at its end. Its
    tables have the calendar of `LONG_CALENDAR`."""
    game = minors.Game.new([LONG_CALENDAR])
    names = [
        name
        for name, record in game.ruleset.minors.items()
        if game.minor(name).status is Status.NEUTRAL and record.brps > 0
    ][:20]
    seesaw(game, names, years * 4)
    game.advance_to(game.clock.next_phase_of(minors.Side.AXIS, minors.Phase.DIPLOMACY))
    return game, minors.command("diplomatic_result", minor=names[0], major="Germany", result=8)


def main() -> int:
    declarations = minors.Game.new()
    declarations.advance_to("1940-spring/axis/declarations")
    diplomacy = minors.Game.new()
    declare = minors.command("declare_war", attacker="Germany", target="Sweden")
    result = minors.command("diplomatic_result", minor="Turkey", major="Germany", result=8)
    start = minors.Game.new()
    late, late_result = long_game()
    movement = minors.run_scenario(SAMPLE, "1940-spring/axis/movement")

    board = chess.Board()
    move = chess.Move.from_uci("e2e4")

    def chess_move(b: object) -> None:
        assert isinstance(b, chess.Board)
        if move in b.legal_moves:
            b.push(move)

    figures = {
        "python-chess: legal check + push": median_us(board.copy, chess_move),
        "apply declare_war": median_us(declarations.clone, lambda g: g.apply(declare)),
        "apply diplomatic_result": median_us(diplomacy.clone, lambda g: g.apply(result)),
        f"apply diplomatic_result, {len(late.raw_state.ledger)} ledger entries": median_us(
            late.clone, lambda g: g.apply(late_result), rounds=1000
        ),
        "records alone (reference, no rules)": median_us(
            lambda: declarations.raw_state, lambda s: records_alone(s, declarations.log)
        ),
        "check declare_war": median_us(lambda: declarations, lambda g: g.check(declare)),
        "clone (Fall 1939)": median_us(lambda: start, lambda g: g.clone()),
        "legal_actions (1940 declarations)": median_us(
            lambda: declarations, lambda g: g.legal_actions(), rounds=20, repeat=5
        ),
        "legal_actions (1940 axis movement)": median_us(
            lambda: movement, lambda g: g.legal_actions(), rounds=20, repeat=5
        ),
        "replay sample campaign": median_us(
            lambda: None, lambda _: minors.run_scenario(SAMPLE), rounds=5, repeat=5
        ),
    }
    chess_us = figures["python-chess: legal check + push"]
    width = max(map(len, figures))
    for name, us in figures.items():
        ratio = (
            f"  ratio to chess {us / chess_us:5.2f}" if name.startswith(("apply", "rec")) else ""
        )
        print(f"{name:<{width}}  {us:10.2f} µs{ratio}")
    apply_ok = all(figures[k] <= chess_us for k in figures if k.startswith("apply"))
    clone_ok = figures["clone (Fall 1939)"] <= 20
    print(
        f"targets: apply <= chess {'met' if apply_ok else 'NOT met'}; "
        f"clone <= 20 µs {'met' if clone_ok else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
