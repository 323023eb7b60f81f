"""Audit-log benchmark, run on demand (not collected by pytest):

    python tests/benchmarks/bench_auditlog.py [COMMANDS]

Generates a campaign of COMMANDS commands (default 100,000: units placed, moved and
removed every player turn over the years, with the clock advances between), writes its log,
verifies it, and replays it to a moment near the end. Reports the cost per entry.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import minors
from minors import auditlog


def campaign(path: Path, commands: int, durability: str) -> tuple[minors.Game, int, str]:
    game = minors.Game.new()
    sink = auditlog.open_log(game, path, durability=durability)
    done, last_moment, serial = 0, str(game.clock), 0
    per_phase = 2_500  # 100,000 commands in 40 game turns: within the calendar (1949)
    while done < commands:
        game.advance_to(game.clock.next_phase_of(game.clock.side, minors.Phase.MOVEMENT))
        owner = "Germany" if game.clock.side is minors.Side.AXIS else "Britain"
        last_moment = str(game.clock)
        batch = min(per_phase, commands - done)
        for _ in range(batch // 2):
            serial += 1
            unit = {"id": f"u{serial}", "owner": owner, "kind": "infantry", "factors": 1}
            game.apply(minors.command("place", units=[unit], **{"in": owner}))
            game.apply(minors.command("remove", units=[f"u{serial}"]))
        done += batch // 2 * 2 or batch
    game.attach(None)
    sink.close(game)
    return game, len(game.log), last_moment


def main() -> int:
    commands = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "campaign.log"
        start = time.perf_counter()
        game, entries, late = campaign(path, commands, "close")
        write = time.perf_counter() - start
        size = path.stat().st_size
        start = time.perf_counter()
        verdict = auditlog.verify(path)
        verify = time.perf_counter() - start
        assert verdict.ok, verdict.describe()
        start = time.perf_counter()
        replayed = auditlog.replay(path, late)
        replay = time.perf_counter() - start
        assert str(replayed.clock) == late
        small = Path(folder) / "durable.log"
        start = time.perf_counter()
        _, durable_entries, _ = campaign(small, 2_000, "entry")
        durable = time.perf_counter() - start
    print(
        f"campaign: {commands} commands, {entries} entries, {size / 1e6:.1f} MB, clock {game.clock}"
    )
    print(f"play + write (durability=close): {write:7.2f} s  {write / entries * 1e6:7.1f} µs/entry")
    print(
        f"play + write (durability=entry): {durable:7.2f} s  "
        f"{durable / durable_entries * 1e6:7.1f} µs/entry ({durable_entries} entries)"
    )
    print(
        f"verify (chain + replay):         {verify:7.2f} s  {verify / entries * 1e6:7.1f} µs/entry"
    )
    print(f"replay --until {late}: {replay:7.2f} s  (from the last snapshot)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
