"""Audit-log benchmark, run on demand (not collected by pytest):

    python tests/benchmarks/bench_auditlog.py [--sizes 1000,10000,100000] [--speed 20000]

For each size, generates a campaign of that many place/remove commands (packed into the
movement phases of five years, so that it stays inside the calendar: at most 40 phases),
writes its log (durability `close`), and reports its size per entry; replays it to moments
spread over the whole log, each at a phase of commands and just after it (the worst place:
the phase's commands are replayed from the snapshot before them), and reports the slowest
(`replay --until`). On the `--speed` campaign it verifies the log and plays the same
commands in memory, and reports both rates and their ratio; then it writes 2,000 entries
with durability `entry`. Times are CPU seconds of this process (`time.process_time`), start-up
excluded: a small log is verified and replayed first, so that imports and one-time set-up do
not count.

It uses only the public API (`minors.Game`, `minors.auditlog.open_log`, `verify`, `replay`),
so that the same script measures an older version of the library (PYTHONPATH=...).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import minors
from minors import auditlog

MAX_PHASES = 40
"""The campaign's movement phases at most: 40 player turns, five years from 1939."""


def campaign(path: Path, commands: int, durability: str) -> tuple[minors.Game, int, list[str]]:
    """Write the log of a campaign of `commands` place/remove commands; the game, its
    number of entries and the moments of its phases."""
    game = minors.Game.new()
    sink = auditlog.open_log(game, path, durability=durability)
    per_phase = max(250, -(-commands // MAX_PHASES))
    per_phase += per_phase % 2
    done, serial, moments = 0, 0, []
    while done < commands:
        target = min(  # the next movement phase, of either side
            game.clock.next_phase_of(side, minors.Phase.MOVEMENT) for side in minors.Side
        )
        while game.clock < target:  # one player turn at a time, as minors run does
            edge = minors.Moment((game.clock.index // 6 + 1) * 6)
            game.advance_to(min(edge, target))
        owner = "Germany" if game.clock.side is minors.Side.AXIS else "Britain"
        moments.append(str(game.clock))
        batch = min(per_phase, commands - done)
        for _ in range(batch // 2):
            serial += 1
            unit = {"id": f"u{serial}", "owner": owner, "kind": "infantry", "factors": 1}
            game.apply(minors.command("place", units=[unit], **{"in": owner}))
            game.apply(minors.command("remove", units=[f"u{serial}"]))
        done += batch // 2 * 2 or batch
    game.attach(None)
    sink.close(game)
    return game, len(game.log), moments


def commands_of(path: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)["command"]
        for line in path.read_bytes().splitlines()
        if b'"kind":"entry"' in line
    ]


def play(commands: list[dict[str, Any]]) -> float:
    """CPU seconds to play the commands in memory, from their scenario vocabulary."""
    start = time.process_time()
    game = minors.Game.new()
    for command in commands:
        fields = dict(command)
        kind = fields.pop("command")
        if kind == "advance":
            game.advance_to(fields["to"])
        else:
            game.apply(game.command(kind, **fields))
    return time.process_time() - start


def cpu(fn: Any, *args: Any) -> tuple[Any, float]:
    start = time.process_time()
    out = fn(*args)
    return out, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--speed", type=int, default=20_000)
    args = parser.parse_args()
    version = getattr(auditlog, "FORMAT", "?")
    print(f"minors audit log, format {version}")
    with tempfile.TemporaryDirectory() as folder:
        warm = Path(folder) / "warm.log"
        campaign(warm, 600, "close")
        auditlog.verify(warm)
        auditlog.replay(warm)
        print(f"{'commands':>9} {'entries':>8} {'MB':>7} {'bytes/entry':>11} {'write s':>8}"
              f" {'replay --until, slowest s':>26}")  # fmt: skip
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(folder) / f"c{size}.log"
            (game, entries, moments), write = cpu(campaign, path, size, "close")
            del game  # kept alive, a 100,000-command game would change how often the
            # garbage collector runs (and so what playing costs) in what is measured next
            bytes_ = path.stat().st_size
            batches = {moments[i * (len(moments) - 1) // 4] for i in range(5)}
            after = [  # just after a batch: its commands are replayed (none after the last)
                str(minors.Moment.parse(m).next()) for m in batches if m != moments[-1]
            ]
            picks = sorted({*batches, *after}, key=minors.Moment.parse)
            slowest, where = 0.0, ""
            for moment in picks:
                replayed, took = cpu(auditlog.replay, path, moment)
                assert str(replayed.clock) == moment
                if took > slowest:
                    slowest, where = took, moment
                del replayed
            print(f"{size:>9} {entries:>8} {bytes_ / 1e6:>7.1f} {bytes_ / entries:>11.0f}"
                  f" {write:>8.2f} {slowest:>8.2f} (at {where})")  # fmt: skip
            path.unlink()
        path = Path(folder) / "speed.log"
        _, entries, _ = campaign(path, args.speed, "close")
        commands = commands_of(path)
        plays, verifies = [], []
        for _ in range(3):  # alternately, the least disturbed of three runs of each
            gc.collect()  # each from the same heap: nothing left over from the last
            plays.append(play(commands))
            gc.collect()
            verdict, took = cpu(auditlog.verify, path)
            assert verdict.ok, verdict.describe()
            verifies.append(took)
        played, verify = min(plays), min(verifies)
        print(
            f"verify {entries} entries ({args.speed} place/remove): {verify:.2f} s, "
            f"{entries / verify:,.0f} entries/s; playing them in memory {played:.2f} s, "
            f"{entries / played:,.0f}/s; verify / play = {verify / played:.2f}"
        )
        durable = Path(folder) / "durable.log"
        (_, durable_entries, _), took = cpu(campaign, durable, 2_000, "entry")
        print(
            f"durability entry: {took / durable_entries * 1e6:.0f} µs/entry of CPU "
            f"({durable_entries} entries, each fsynced)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
