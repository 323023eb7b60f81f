"""Kernel benchmark, run on demand (not collected by pytest):

    pip install -e '.[bench]' && python tests/benchmarks/bench_kernel.py

Reports medians of `apply` (a declaration of war, a diplomatic result), `check`, `clone` of
the Fall 1939 world, `legal_actions`, and replaying the sample campaign, beside
python-chess in the same run: `move in board.legal_moves` then `push`. Targets: `apply` no
slower than that python-chess move (ratio <= 1.0); `clone` <= 20 µs.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import chess

import minors
from minors.scenario import SAMPLE


def median_us(
    setup: Callable[[], object],
    run: Callable[[object], object],
    *,
    rounds: int = 2000,
    repeat: int = 7,
) -> float:
    """Median over `repeat` batches of the per-call time of `run(setup())`, in µs."""
    batches = []
    for _ in range(repeat):
        subjects = [setup() for _ in range(rounds)]
        start = time.perf_counter()
        for subject in subjects:
            run(subject)
        batches.append((time.perf_counter() - start) / rounds * 1e6)
    return statistics.median(batches)


def main() -> int:
    declarations = minors.Game.new()
    declarations.advance_to("1940-spring/axis/declarations")
    diplomacy = minors.Game.new()
    declare = minors.command("declare_war", attacker="Germany", target="Sweden")
    result = minors.command("diplomatic_result", minor="Turkey", major="Germany", result=8)
    start = minors.Game.new()

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
        "check declare_war": median_us(lambda: declarations, lambda g: g.check(declare)),
        "clone (Fall 1939)": median_us(lambda: start, lambda g: g.clone()),
        "legal_actions (1940 declarations)": median_us(
            lambda: declarations, lambda g: g.legal_actions(), rounds=20, repeat=5
        ),
        "replay sample campaign": median_us(
            lambda: None, lambda _: minors.run_scenario(SAMPLE), rounds=5, repeat=5
        ),
    }
    chess_us = figures["python-chess: legal check + push"]
    width = max(map(len, figures))
    for name, us in figures.items():
        ratio = f"  ratio to chess {us / chess_us:5.2f}" if name.startswith("apply") else ""
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
