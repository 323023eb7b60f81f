"""A measurement prototype for issue 13's last target, run on demand (not collected):

    pip install -e '.[bench]' && python tests/benchmarks/bench_arrays.py [--playouts N]

The target: `apply` inside random playouts at most a checked python-chess `push` inside
chess playouts. Inside a playout an `apply` runs right after `legal_actions` (and often an
`advance_to`), which leave the processor's caches holding their own data: the same `apply`
repeated on a warm board costs about half as much. So what an `apply` costs there follows
the memory it touches more than the code it runs.

This script measures one design that would touch far less: the board as a struct of
arrays (minors and majors as integers, sets of majors as bitmasks, moments as integers,
every write journaled as (array, index, old value)), on the command that weighs most in
the playouts' `apply` time beside diplomatic results: a declaration of war on a minor, in
the common case (no units in the minor, no standing, no pending association, no
displacement: 82.41, 82.351, 82.53, 82.81, K1, K2, K7 and the ties). It is not the kernel
and duplicates those rules on purpose, for measuring only: the rules live in
`minors/rules82`, and every timed declaration is checked against them (the kernel applies
the same command; the arrays must then hold what its board holds, else the script stops).

In the bench's playouts (`bench_engine.py`: same seed, policy and warm-up), before each
`legal_actions` of a declarations phase the arrays are made from the game's board; after
it, a declaration on a minor is timed on the arrays, then applied by the kernel (timed
too). Rows: the arrays; the arrays also making the records the kernel makes per
declaration (a ledger entry, a pending association, a deployment, the due moment and the
cause's text: what a design that keeps them pays); the kernel's `apply`; a checked chess
`push` in chess playouts of the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from bench_engine import END, Tally, chess_playout, minors_playout, phase_kinds, probe

import minors
from minors._kernel.state import Deployment, LedgerEntry, Pending
from minors.domain import DiplomaticLevel, LedgerKind, Status, Theater
from minors.domain.clock import Phase
from minors.rules82.deployment import _pool
from minors.rules82.machine import Trigger, fired

DECLARATIONS = Phase.DECLARATIONS
TIED = frozenset({Status.ASSOCIATED, Status.ALLIED, Status.CONQUERED, Status.COLONY})
TIED |= {Status.COMMONWEALTH}


class Tables:
    """The tables the prototype reads, as lists indexed by integers."""

    def __init__(self, game: minors.Game) -> None:
        rs = game.ruleset
        self.majors = list(rs.majors)
        self.major_at = {m: i for i, m in enumerate(self.majors)}
        self.minors = list(rs.minors)
        self.minor_at = {m: i for i, m in enumerate(self.minors)}
        self.statuses = list(Status)
        self.status_at = {s: i for i, s in enumerate(self.statuses)}
        self.moments = [game.clock]
        while self.moments[-1] <= END:
            self.moments.append(self.moments[-1].next())
        self.moment_at = {m: i for i, m in enumerate(self.moments)}
        majors = self.majors
        self.side = [rs.side_of[m] for m in majors]
        factions = list(rs.faction_members)
        self.faction = [factions.index(rs.majors[m].faction) for m in majors]
        self.faction_mask = [self.mask(rs.faction_members[f]) for f in factions]
        self.on_attack = [self.major_at[rs.association[f].on_attack] for f in factions]
        self.deployed_by = [
            tuple(self.major_at[p] for p in rs.association[f].deployed_by) for f in factions
        ]
        self.declarations = [m.phase is DECLARATIONS for m in self.moments]
        self.clock_side = [m.side for m in self.moments]
        self.next_diplomacy = [
            [
                self.moment_at.get(m.next_phase_of(self.side[p], Phase.DIPLOMACY), -1)
                for p in range(len(majors))
            ]
            for m in self.moments
        ]
        self.deploys = [
            rs.minors[n].theater is Theater.EUROPE
            and rs.minors[n].armed_forces
            and bool(rs.derived(_pool, n))
            for n in self.minors
        ]
        self.attack = []
        for i, s in enumerate(self.statuses):
            dest = fired(s, Trigger.ATTACK, False)
            self.attack.append(i if dest is None else self.status_at[dest])
        self.tied = [s in TIED for s in self.statuses]
        self.cost = rs.costs["declare_war_minor"].brps

    def mask(self, names: Any) -> int:
        return sum(1 << self.major_at[n] for n in names)


class Board:
    """A struct of arrays: one list per field of a minor, one int per major's BRPs."""

    __slots__ = (
        "active", "at_war", "attacked_at", "attacked_by", "barred", "clock", "deployed",
        "deployment_by", "deployment_due", "direct", "effects", "journal", "ledger",
        "partner", "pending_by", "pending_due", "standing", "status", "surrendered",
        "totals", "units",
    )  # fmt: skip

    def __init__(self, t: Tables, game: minors.Game) -> None:
        board = game.board()
        rows = [board.minors[n] for n in t.minors]
        major = t.major_at.get
        moment = t.moment_at.get
        self.status = [t.status_at[r.status] for r in rows]
        self.at_war = [t.mask(r.at_war_with) for r in rows]
        self.direct = [t.mask(r.direct_wars) for r in rows]
        self.barred = [t.mask(r.barred) for r in rows]
        self.attacked_by = [major(r.attacked_by, -1) for r in rows]
        self.attacked_at = [moment(r.attacked_at, -1) for r in rows]
        pendings = [r.pending for r in rows]
        self.partner = [major(p.partner, -1) if p else -1 for p in pendings]
        self.pending_due = [moment(p.due, -1) if p else -1 for p in pendings]
        self.pending_by = [major(p.by, -1) if p else -1 for p in pendings]
        deployments = [r.deployment for r in rows]
        self.deployment_by = [major(d.by, -1) if d else -1 for d in deployments]
        self.deployment_due = [moment(d.due, -1) if d else -1 for d in deployments]
        self.deployed = [r.deployed for r in rows]
        self.active = [r.active for r in rows]
        self.standing = [r.standing is not None for r in rows]
        self.units = [len(board.where.get(n, ())) for n in t.minors]
        self.totals = [board.totals.get(m, 0) for m in t.majors]
        self.ledger: list[tuple[int, int, int]] = []
        self.surrendered = t.mask(board.surrendered)
        self.clock = t.moment_at[board.clock]
        self.journal: list[tuple[Any, int, Any]] = []
        self.effects: list[tuple[Any, ...]] = []

    def fields(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if name in COMPARED}


COMPARED = (
    "status", "at_war", "direct", "barred", "attacked_by", "attacked_at", "partner",
    "pending_due", "pending_by", "deployment_by", "deployment_due", "totals",
)  # fmt: skip

RECORDS: list[Any] = []


def declare(t: Tables, b: Board, a: int, m: int, records: bool) -> bool | None:
    """`a` declares war on minor `m`, checked: False if illegal, None if not the
    prototype's case (units in the minor, a standing, a pending association)."""
    clock = b.clock
    if not t.declarations[clock] or t.clock_side[clock] is not t.side[a]:
        return False
    bit = 1 << a
    if b.surrendered & bit or not b.active[m] or b.at_war[m] & bit or t.tied[b.status[m]]:
        return False
    if b.units[m] or b.standing[m] or b.partner[m] >= 0:
        return None
    journal, effects, totals, cost = b.journal, b.effects, b.totals, t.cost
    journal.append((totals, a, totals[a]))
    totals[a] -= cost
    journal.append((b.ledger, -1, len(b.ledger)))
    b.ledger.append((a, -cost, clock))
    effects.append((0, a, -cost))
    faction = t.faction[a]
    direct, at_war, barred = b.direct, b.at_war, b.barred
    journal.append((direct, m, direct[m]))
    direct[m] |= bit
    journal.append((at_war, m, at_war[m]))
    at_war[m] |= bit
    journal.append((barred, m, barred[m]))
    barred[m] |= t.faction_mask[faction]
    if b.attacked_by[m] < 0:
        journal.append((b.attacked_by, m, -1))
        b.attacked_by[m] = a
        journal.append((b.attacked_at, m, -1))
        b.attacked_at[m] = clock
    old = b.status[m]
    dest = t.attack[old]
    if dest != old:
        journal.append((b.status, m, old))
        b.status[m] = dest
        effects.append((1, m, old, dest))
    if t.deploys[m] and not b.deployed[m]:
        powers = t.deployed_by[faction]
        by = next((p for p in powers if not b.surrendered & (1 << p)), powers[-1])
        journal.append((b.deployment_by, m, b.deployment_by[m]))
        b.deployment_by[m] = by
        journal.append((b.deployment_due, m, b.deployment_due[m]))
        b.deployment_due[m] = clock
    partner = t.on_attack[faction]
    due = t.next_diplomacy[clock][partner]
    journal.append((b.partner, m, -1))
    b.partner[m] = partner
    journal.append((b.pending_due, m, -1))
    b.pending_due[m] = due
    journal.append((b.pending_by, m, -1))
    b.pending_by[m] = a
    effects.append((2, m, partner, due))
    if records:  # what the kernel makes per declaration besides its writes
        moment = t.moments[clock]
        attacker, target = t.majors[a], t.majors[partner]
        RECORDS.append(
            (
                LedgerEntry(len(b.ledger), attacker, -cost, LedgerKind.COST, "K6", moment),
                Pending(
                    target,
                    DiplomaticLevel.ASSOCIATION,
                    "82.81",
                    moment.next_phase_of(t.side[partner], Phase.DIPLOMACY),
                    by=attacker,
                ),
                Deployment(attacker, moment, "82.53"),
                f"{attacker} declares war",
            )
        )
    return True


def playouts(n: int, seed: int, records: bool) -> tuple[list[float], list[float], float]:
    api = probe()
    root = api.new()
    t = Tables(root)
    minors_playout(root, random.Random(seed + 1), Tally())  # the bench's warm-up
    chess_playout(random.Random(seed + 1), Tally())
    rng, chess_rng = random.Random(seed), random.Random(seed)
    arrays: list[float] = []
    kernel: list[float] = []
    chess = Tally()
    clock = time.perf_counter
    for _ in range(n):
        game = root.clone()
        while game.clock < END:
            kinds = phase_kinds(game.clock)
            for _ in range(3):
                if rng.random() >= 0.5:
                    break
                board = Board(t, game) if game.clock.phase is DECLARATIONS else None
                actions = game.legal_actions(kinds)
                if not actions:
                    break
                cmd = rng.choice(actions)
                timed = board is not None and cmd.name == "declare_war"
                timed = timed and cmd.target in t.minor_at
                if not timed:
                    game.apply(cmd)
                    continue
                assert board is not None
                a, m = t.major_at[cmd.attacker], t.minor_at[cmd.target]
                start = clock()
                done = declare(t, board, a, m, records)
                spent = clock() - start
                start = clock()
                game.apply(cmd)
                applied = clock() - start
                if done is False:
                    sys.exit(f"{cmd} at {game.clock}: the kernel applied what the arrays refuse")
                if done:
                    after = Board(t, game)
                    if after.fields() != board.fields():
                        sys.exit(f"{cmd}: the arrays differ from the kernel's board after it")
                    arrays.append(spent * 1e6)
                    kernel.append(applied * 1e6)
            game.advance_to(game.clock.next())
        for _ in range(20):
            chess_playout(chess_rng, chess)
    push = chess.per(chess.step, chess.steps)
    assert push is not None
    return arrays, kernel, push


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--playouts", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1982)
    args = parser.parse_args()
    rows = []
    for records in (False, True):
        arrays, kernel, push = playouts(args.playouts, args.seed, records)
        name = "arrays, making the kernel's records" if records else "arrays"
        rows.append((name, arrays, push))
        rows.append(("kernel apply, the same declarations", kernel, push))
    print(f"declarations on a minor in playouts (the prototype's case, n = {len(arrays)})")
    print(f"{'':44}{'mean':>10}{'median':>10}{'chess push':>12}{'ratio':>8}")
    for name, spent, push in rows:
        mean = statistics.mean(spent)
        print(
            f"{name:44}{mean:8.2f} µs{statistics.median(spent):8.2f} µs{push:10.2f} µs"
            f"{mean / push:8.2f}"
        )
    print("every timed declaration left the arrays holding what the kernel's board holds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
