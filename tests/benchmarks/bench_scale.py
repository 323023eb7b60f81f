"""Scale benchmark, run on demand (not collected by pytest):

    pip install -e '.[scale]' && python tests/benchmarks/bench_scale.py [--campaigns N] [--quick]

1. `simulate`: N campaigns (200 by default) from the 1939 start to Spring 1942 under the
   default random policy, on a `distributed.LocalCluster` of 1, 2 and 4 worker processes
   (one thread each), and in this process for reference. The cluster is started before the
   clock starts (its start-up is reported apart). Rows: seconds, campaigns per second, and
   the ratio to one worker process. Every run's results must equal the others' (they are
   compared).
2. `explore`: from 1940-spring/axis/declarations, declarations and border wars to depth 2,
   in this process and on a LocalCluster of 2 workers: positions and states per second;
   memory: the peak `tracemalloc` traces over the whole search in this process (a run
   apart, untimed), and the peak resident sizes.

Targets: on a 2-core machine, 2 workers >= 1.6x the campaigns per second of 1 worker at
N >= 200. The machine is shared: the load average is printed before and after, and the
ratio is measured within one run (the runs alternate 1, 2, 4, 1, 2, 4 when --repeat 2).
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import sys
import time
import tracemalloc
from typing import Any

from minors.scale import Campaigns, Runner, Search, explore, root_game, run_campaigns

HORIZON = "1942-spring/axis/diplomacy"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def timed_campaigns(spec: Campaigns, count: int, workers: int | None) -> tuple[float, float, Any]:
    """(start-up seconds, run seconds, results) of `count` campaigns: on a LocalCluster of
    `workers` processes, or in this process when None."""
    began = time.perf_counter()
    # one worker *process* is a LocalCluster of one; None: this process
    runner = Runner(workers=workers, cluster=True) if workers else Runner(workers=1)
    runner.start()
    started = time.perf_counter() - began
    try:
        t = time.perf_counter()
        results = run_campaigns(spec, count, runner)
        spent = time.perf_counter() - t
    finally:
        runner.close()
    return started, spent, results


def section_simulate(count: int, repeat: int) -> None:
    print(f"\n== 1. simulate: {count} campaigns, 1939-fall -> {HORIZON}, random policy")
    spec = Campaigns.of(root_game(None, None, [], None), HORIZON, seed=1982)
    rows: dict[str, list[tuple[float, float]]] = {}
    reference = None
    plan: list[tuple[str, int | None]] = [("1 worker process", 1), ("2 worker processes", 2)]
    plan.append(("4 worker processes", 4))
    for _ in range(repeat):
        for label, workers in plan:
            started, spent, results = timed_campaigns(spec, count, workers)
            if reference is None:
                reference = results
            assert results == reference, f"{label}: other results"
            rows.setdefault(label, []).append((started, spent))
            rate = count / spent
            print(f"  {label}: {spent:.1f} s ({rate:.2f} campaigns/s), start-up {started:.1f} s")
    _, spent, results = timed_campaigns(spec, count, None)
    assert results == reference, "this process: other results"
    rows["this process (reference)"] = [(0.0, spent)]
    best = {label: min(s for _, s in runs) for label, runs in rows.items()}
    base = count / best["1 worker process"]
    print(f"\n  {'':<28} {'seconds':>8} {'campaigns/s':>12} {'ratio':>6}")
    for label, seconds in best.items():
        rate = count / seconds
        print(f"  {label:<28} {seconds:8.1f} {rate:12.2f} {rate / base:6.2f}")
    ratio = (count / best["2 worker processes"]) / base
    verdict = "met" if ratio >= 1.6 and count >= 200 else "NOT met"
    print(f"\n  target: 2 workers >= 1.6x 1 worker at N >= 200: {ratio:.2f}x, {verdict}")
    print("  (each row: the fastest of its runs; results equal in every run)")


def section_explore(quick: bool) -> None:
    depth = 1 if quick else 2
    print(
        f"\n== 2. explore: 1940-spring/axis/declarations, declare_war and border_war, depth {depth}"
    )
    root = root_game(None, "1940-spring/axis/declarations", [], None)
    search = Search.of(root, kinds=["declare_war", "border_war"], depth=depth)
    found = {}
    for label, workers in (("this process", 1), ("2 worker processes", 2)):
        runner = Runner(workers=workers)
        runner.start()
        t = time.perf_counter()
        try:
            result = explore(search, runner)
        finally:
            runner.close()
        spent = time.perf_counter() - t
        found[label] = result
        print(
            f"  {label}: {result.positions} positions, {result.states} states in {spent:.1f} s: "
            f"{result.positions / spent:.0f} positions/s, {result.states / spent:.0f} states/s"
        )
    # memory apart (tracemalloc slows the run it traces): the whole search in this process
    tracemalloc.start()
    with Runner(workers=1) as runner:
        explore(search, runner)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    positions = found["this process"].positions
    print(
        f"  memory, the search in this process: traced peak {peak / 1e6:.1f} MB "
        f"({peak / positions:,.0f} B a position)"
    )
    assert found["this process"] == found["2 worker processes"], "other results"
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  peak resident: this process {rss:.0f} MB, largest worker process {kids:.0f} MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--campaigns", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="40 campaigns, explore to depth 1")
    args = parser.parse_args(argv)
    logging.getLogger("distributed").setLevel(logging.ERROR)
    count = 40 if args.quick else args.campaigns
    print(f"bench_scale: {load()} (before)")
    began = time.perf_counter()
    section_simulate(count, args.repeat)
    section_explore(args.quick)
    print(f"\n(ran {time.perf_counter() - began:.0f} s; {load()} after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
