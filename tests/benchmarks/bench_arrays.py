"""A measurement prototype for issue 13's last target, run on demand (not collected):

    pip install -e '.[bench]' && python tests/benchmarks/bench_arrays.py [--playouts N]

The target: `apply` inside random playouts at most a checked python-chess `push` inside
chess playouts. Inside a playout an `apply` runs right after `legal_actions` (and often an
`advance_to`), which leave the processor's caches holding their own data: the same `apply`
done again at once on the same position costs about 1/1.8 as much (mean over the playouts'
applies: `bench_engine.py`, section 1b).
So what an `apply` costs there follows the memory it touches more than the code it runs.

This script measures one design that would touch far less: the board as a struct of
arrays (minors and majors as integers, sets of majors as bitmasks, moments as integers,
each write journaled as (array, index, old value), an append as (list, -1, old length)),
on the command that weighs most in the playouts' `apply` time beside diplomatic results:
a declaration of war on a minor, in the common case (no units in the minor, no standing,
no pending association, no displacement: 82.41, 82.351, 82.53, 82.81, K1, K2, K7 and the
ties). It is not the kernel and duplicates those rules on purpose, for measuring only: the
rules live in `minors/rules82`, and the prototype is checked against them, else the script
stops. After the timed playouts they are replayed, and at each declaration on a minor the
prototype's verdict on every major's declaration on every minor agrees with `game.check`,
the arrays hold what the kernel's board holds once the kernel applies it (the minor's
fields, the BRP totals, the ledger), and undoing the arrays' journal gives them back.

The same rules are timed in three layouts: `flat` (one function for the checks, one for the
effects, writes inline); `checks by clause` (a function per clause for the checks, asked in
turn by one generated `and` chain as the kernel's `allowed` asks their boolean paths, the
effects as in `flat`); `by clause` (also each effect a function of its own, called through
a dispatcher generated as the kernel's `effect` decorator generates it, writes through a
journal helper): what the clause registry's structure (a check and an effect per clause
id, which variants replace and `disabled` switches off) costs on the same arrays. The
prototype's case has no variant and nothing switched off: every dispatcher finds the
function as written.

In the bench's playouts (`bench_engine.py`: same seed, policy and warm-up), before each
`legal_actions` of a declarations phase the arrays are made from the game's board; after
it, a declaration on a minor is timed on the arrays, then applied by the kernel (timed
too). Rows: the arrays; the arrays also making the records the kernel makes per
declaration (a ledger entry, a pending association, a deployment, the due moment and the
cause's text: what a design that keeps them pays); the kernel's `apply`; a checked chess
`push` in chess playouts of the same run. Each layout, with and without the records, runs
its own playouts (the same seed), beside the kernel on the same declarations.
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics
import sys
import time
from typing import Any

from bench_engine import END, Tally, chess_playout, minors_playout, phase_kinds, probe

import minors
from minors.domain import DiplomaticLevel, LedgerKind, Status, Theater
from minors.domain.clock import Moment, Phase
from minors.domain.records import Deployment, LedgerEntry, Pending
from minors.rules82.deployment import force_specs
from minors.rules82.machine import Trigger, fired
from minors.rules82.war import DeclareWar

DECLARATIONS = Phase.DECLARATIONS
TIED = frozenset(
    {Status.ASSOCIATED, Status.ALLIED, Status.CONQUERED, Status.COLONY, Status.COMMONWEALTH}
)


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
        board = game.board()
        self.deploys = [
            rs.minors[n].theater is Theater.EUROPE
            and rs.minors[n].armed_forces
            and bool(force_specs(board, n))
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

    def major(self, name: str | None) -> int:
        return -1 if name is None else self.major_at[name]

    def moment(self, at: Moment | None) -> int:
        return -1 if at is None else self.moment_at.get(at, -1)


COMPARED = (
    "status", "at_war", "direct", "barred", "attacked_by", "attacked_at", "partner",
    "pending_due", "pending_by", "deployment_by", "deployment_due", "totals", "ledger",
)  # fmt: skip
"""Every array `declare` writes."""


class Board:
    """A struct of arrays: one list per field of a minor, one int per major's BRPs."""

    __slots__ = (
        *COMPARED, "active", "clock", "deployed", "effects", "impls", "journal", "standing",
        "surrendered", "units",
    )  # fmt: skip

    def __init__(self, t: Tables, game: minors.Game) -> None:
        board = game.board()
        rows = [board.minors[n] for n in t.minors]
        self.status = [t.status_at[r.status] for r in rows]
        self.at_war = [t.mask(r.at_war_with) for r in rows]
        self.direct = [t.mask(r.direct_wars) for r in rows]
        self.barred = [t.mask(r.barred) for r in rows]
        self.attacked_by = [t.major(r.attacked_by) for r in rows]
        self.attacked_at = [t.moment(r.attacked_at) for r in rows]
        pendings = [r.pending for r in rows]
        self.partner = [t.major(p.partner) if p else -1 for p in pendings]
        self.pending_due = [t.moment(p.due) if p else -1 for p in pendings]
        self.pending_by = [t.major(p.by) if p else -1 for p in pendings]
        deployments = [r.deployment for r in rows]
        self.deployment_by = [t.major(d.by) if d else -1 for d in deployments]
        self.deployment_due = [t.moment(d.due) if d else -1 for d in deployments]
        self.deployed = [r.deployed for r in rows]
        self.active = [r.active for r in rows]
        self.standing = [r.standing is not None for r in rows]
        self.units = [len(board.where.get(n, ())) for n in t.minors]
        self.totals = [board.totals.get(m, 0) for m in t.majors]
        self.ledger = [(t.major_at[e.major], e.amount, t.moment(e.moment)) for e in board.ledger]
        self.surrendered = t.mask(board.surrendered)
        self.clock = t.moment_at[board.clock]
        self.journal: list[tuple[list[Any], int, Any]] = []
        self.effects: list[tuple[Any, ...]] = []
        self.impls: dict[str, Any] = {}  # every effect as written (no variant, nothing off)

    def fields(self) -> dict[str, list[Any]]:
        """A copy of every array `declare` writes."""
        return {name: list(getattr(self, name)) for name in COMPARED}

    def undo(self) -> None:
        """Put back what the journal records, last first."""
        for array, index, old in reversed(self.journal):
            if index < 0:
                del array[old:]
            else:
                array[index] = old
        self.journal.clear()


def legal(t: Tables, b: Board, a: int, m: int) -> bool | None:
    """Whether `a` may declare war on minor `m` now (K1, K2, K7, the ties); None when it
    may but the case is not the prototype's (units in the minor, a standing, a pending
    association)."""
    clock = b.clock
    if not t.declarations[clock] or t.clock_side[clock] is not t.side[a]:
        return False
    bit = 1 << a
    if b.surrendered & bit or not b.active[m] or b.at_war[m] & bit or t.tied[b.status[m]]:
        return False
    if b.units[m] or b.standing[m] or b.partner[m] >= 0:
        return None
    return True


LAST: Any = None
"""The records of the last declaration (kept alive, as the kernel keeps its own)."""


def declare(t: Tables, b: Board, a: int, m: int, records: bool) -> bool | None:
    """`a` declares war on minor `m`, checked by `legal`: False if illegal, None if not the
    prototype's case (nothing done), True when done."""
    verdict = legal(t, b, a, m)
    if not verdict:
        return verdict
    _effects(t, b, a, m, records)
    return True


def _effects(t: Tables, b: Board, a: int, m: int, records: bool) -> None:
    """What the declaration does, in one function writing the arrays inline."""
    clock = b.clock
    bit = 1 << a
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
    if records:
        _records(t, b, a, partner)


# ---- the same declaration, one function per clause (as the clause registry needs) ----
#
# The flat layout above is a function for the checks (`legal`) and one for the effects
# (`_effects`). The kernel's rules are one function per clause, registered under its id: a
# check per clause, run in turn through their boolean paths, and each effect called
# through a dispatcher that runs what the game's table holds for it (a variant's
# replacement, or nothing while its clause is off). `declare_by_clause` is the same rules,
# the same arrays, written that way, to measure what that structure costs on arrays.


def _k1_in_turn(t: Tables, b: Board, a: int, m: int) -> bool:
    clock = b.clock
    return t.declarations[clock] and t.clock_side[clock] is t.side[a]


def _k2_not_surrendered(t: Tables, b: Board, a: int, m: int) -> bool:
    return not b.surrendered & (1 << a)


def _k2_in_play(t: Tables, b: Board, a: int, m: int) -> bool:
    return b.active[m]


def _k2_not_at_war(t: Tables, b: Board, a: int, m: int) -> bool:
    return not b.at_war[m] & (1 << a)


def _ties(t: Tables, b: Board, a: int, m: int) -> bool:
    return not t.tied[b.status[m]]


CHECKS = (_k1_in_turn, _k2_not_surrendered, _k2_in_play, _k2_not_at_war, _ties)


def _dispatched(key: str, fn: Any, otherwise: Any = None) -> Any:
    """What the kernel's `effect` decorator puts in place of an effect: run the function the
    board's table holds for `key` (a replacement, or None while its clause is off). Generated
    with `fn`'s own parameters, as the kernel's `_dispatcher` is (no `*args` packing)."""
    params = ", ".join(inspect.signature(fn).parameters)
    namespace: dict[str, Any] = {"fn": fn, "key": key, "otherwise": otherwise}
    exec(
        f"def run({params}):\n"
        "    impl = b.impls.get(key, fn)\n"
        "    if impl is None:\n"
        "        return otherwise\n"
        f"    return impl({params})\n",
        namespace,
    )
    return namespace["run"]


def _chained(checks: tuple[Any, ...]) -> Any:
    """One function asking each check in turn, as the kernel's `allowed` does (a generated
    `and` chain, not a loop)."""
    namespace: dict[str, Any] = {f"c{i}": ok for i, ok in enumerate(checks)}
    chain = " and ".join(f"c{i}(t, b, a, m)" for i in range(len(checks)))
    exec(f"def allowed(t, b, a, m):\n    return {chain}\n", namespace)
    return namespace["allowed"]


allowed = _chained(CHECKS)


def _set(b: Board, array: list[Any], i: int, value: Any) -> None:
    b.journal.append((array, i, array[i]))
    array[i] = value


def _pay_k6(t: Tables, b: Board, a: int) -> None:
    cost = t.cost
    _set(b, b.totals, a, b.totals[a] - cost)
    b.journal.append((b.ledger, -1, len(b.ledger)))
    b.ledger.append((a, -cost, b.clock))
    b.effects.append((0, a, -cost))


def _wars_82_41(t: Tables, b: Board, a: int, m: int) -> None:
    bit = 1 << a
    _set(b, b.direct, m, b.direct[m] | bit)
    _set(b, b.at_war, m, b.at_war[m] | bit)


def _bar_82_351(t: Tables, b: Board, a: int, m: int) -> None:
    _set(b, b.barred, m, b.barred[m] | t.faction_mask[t.faction[a]])


def _attacked_82_12(t: Tables, b: Board, a: int, m: int) -> None:
    if b.attacked_by[m] < 0:
        _set(b, b.attacked_by, m, a)
        _set(b, b.attacked_at, m, b.clock)


def _status_82_11(t: Tables, b: Board, a: int, m: int) -> None:
    old = b.status[m]
    dest = t.attack[old]
    if dest != old:
        _set(b, b.status, m, dest)
        b.effects.append((1, m, old, dest))


def _deployment_82_53(t: Tables, b: Board, a: int, m: int) -> None:
    if t.deploys[m] and not b.deployed[m]:
        powers = t.deployed_by[t.faction[a]]
        by = next((p for p in powers if not b.surrendered & (1 << p)), powers[-1])
        _set(b, b.deployment_by, m, by)
        _set(b, b.deployment_due, m, b.clock)


def _pending_82_81(t: Tables, b: Board, a: int, m: int) -> None:
    partner = t.on_attack[t.faction[a]]
    due = t.next_diplomacy[b.clock][partner]
    _set(b, b.partner, m, partner)
    _set(b, b.pending_due, m, due)
    _set(b, b.pending_by, m, a)
    b.effects.append((2, m, partner, due))


pay = _dispatched("K6", _pay_k6)
wars = _dispatched("82.41", _wars_82_41)
bar = _dispatched("82.351", _bar_82_351)
attacked = _dispatched("82.12", _attacked_82_12)
status = _dispatched("82.11", _status_82_11)
deployment = _dispatched("82.53", _deployment_82_53)
pending = _dispatched("82.81", _pending_82_81)


def legal_by_clause(t: Tables, b: Board, a: int, m: int) -> bool | None:
    """`legal`, a check per clause, asked in turn by `allowed`."""
    if not allowed(t, b, a, m):
        return False
    if b.units[m] or b.standing[m] or b.partner[m] >= 0:
        return None  # not the prototype's case
    return True


def declare_by_clause(t: Tables, b: Board, a: int, m: int, records: bool) -> bool | None:
    """`declare`, its checks and effects one function per clause."""
    verdict = legal_by_clause(t, b, a, m)
    if not verdict:
        return verdict
    pay(t, b, a)
    wars(t, b, a, m)
    bar(t, b, a, m)
    attacked(t, b, a, m)
    status(t, b, a, m)
    deployment(t, b, a, m)
    pending(t, b, a, m)
    if records:
        _records(t, b, a, b.partner[m])
    return True


def declare_checks_by_clause(t: Tables, b: Board, a: int, m: int, records: bool) -> bool | None:
    """The checks per clause (`legal_by_clause`), the effects of `declare` (`_effects`)."""
    verdict = legal_by_clause(t, b, a, m)
    if not verdict:
        return verdict
    _effects(t, b, a, m, records)
    return True


def _records(t: Tables, b: Board, a: int, partner: int) -> None:
    """What the kernel makes per declaration besides its writes (kept in `LAST`)."""
    global LAST
    moment = t.moments[b.clock]
    attacker, target = t.majors[a], t.majors[partner]
    due_at = moment.next_phase_of(t.side[partner], Phase.DIPLOMACY)
    LAST = (
        LedgerEntry(len(b.ledger), attacker, -t.cost, LedgerKind.COST, "K6", moment),
        Pending(target, DiplomaticLevel.ASSOCIATION, "82.81", due_at, by=attacker),
        Deployment(attacker, moment, "82.53"),
        f"{attacker} declares war",
    )


DECLARE = {
    "flat": declare,
    "checks by clause": declare_checks_by_clause,
    "by clause": declare_by_clause,
}
"""The prototype's three layouts of the same rules."""


def agree(t: Tables, b: Board, game: minors.Game) -> None:
    """Stop unless the prototype's verdicts (`legal` and `legal_by_clause`: every layout
    asks one of them) on every major's declaration on every minor agree with each other and
    with the kernel's `check` (where the case is the prototype's)."""
    for attacker in t.majors:
        for target in t.minors:
            a, m = t.major_at[attacker], t.minor_at[target]
            verdict = legal(t, b, a, m)
            if legal_by_clause(t, b, a, m) is not verdict:
                sys.exit(f"{attacker} on {target} at {game.clock}: the two layouts disagree")
            if verdict is None:
                continue
            if verdict != (not game.check(DeclareWar(attacker, target))):
                sys.exit(f"{attacker} on {target} at {game.clock}: the arrays say {verdict}")


def verify(t: Tables, root: minors.Game, record: list[Any], layout: str) -> None:
    """Replay one playout's commands (None: an advance) and check the prototype at each
    declaration on a minor: its verdicts agree with `check`, the arrays hold what the
    kernel's board holds after the kernel applies it, its effects are the flat layout's, and
    undoing their journal gives them back. Done after the timed playouts, so that checking
    does not change what they time."""
    game = root.clone()
    for cmd in record:
        if cmd is None:
            game.advance_to(game.clock.next())
            continue
        if isinstance(cmd, DeclareWar) and cmd.target in t.minor_at:
            board = Board(t, game)
            agree(t, board, game)
            before = board.fields()
            run = DECLARE[layout]
            a, m = t.major_at[cmd.attacker], t.minor_at[cmd.target]
            done = run(t, board, a, m, False)
            flat = Board(t, game)
            declare(t, flat, a, m, False)
            if board.effects != flat.effects:
                sys.exit(f"{cmd}: layout {layout!r} emits other effects than the flat one")
            if done is False:
                sys.exit(f"{cmd} at {game.clock}: the kernel applies what the arrays refuse")
            game.apply(cmd)
            if done and Board(t, game).fields() != board.fields():
                sys.exit(f"{cmd}: the arrays differ from the kernel's board after it")
            board.undo()
            if board.fields() != before:
                sys.exit(f"{cmd}: undoing the arrays' journal did not give them back")
            continue
        game.apply(cmd)


def playouts(
    n: int, seed: int, records: bool, layout: str
) -> tuple[list[float], list[float], float]:
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
    played: list[list[Any]] = []
    run = DECLARE[layout]
    for _ in range(n):
        game = root.clone()
        record: list[Any] = []
        played.append(record)
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
                record.append(cmd)
                if board is None or not isinstance(cmd, DeclareWar) or cmd.target in t.majors:
                    game.apply(cmd)
                    continue
                a, m = t.major_at[cmd.attacker], t.minor_at[cmd.target]
                start = clock()
                done = run(t, board, a, m, records)
                spent = clock() - start
                start = clock()
                game.apply(cmd)
                applied = clock() - start
                if done:
                    arrays.append(spent * 1e6)
                    kernel.append(applied * 1e6)
            game.advance_to(game.clock.next())
            record.append(None)
        for _ in range(20):
            chess_playout(chess_rng, chess)
    for record in played:
        verify(t, root, record, layout)
    push = chess.per(chess.step, chess.steps)
    assert push is not None
    return arrays, kernel, push


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--playouts", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1982)
    args = parser.parse_args()
    rows = []
    for layout in DECLARE:
        for records in (False, True):
            arrays, kernel, push = playouts(args.playouts, args.seed, records, layout)
            name = f"arrays {layout}{', making the records' if records else ''}"
            rows.append((f"{name} [{len(arrays)}]", arrays, push))
            rows.append((f"  kernel apply, the same declarations [{len(kernel)}]", kernel, push))
    print("declarations on a minor in playouts, the prototype's case [declarations timed]")
    print(f"{'':48}{'mean':>10}{'median':>10}{'chess push':>12}{'ratio':>8}")
    for name, spent, push in rows:
        mean = statistics.mean(spent)
        print(
            f"{name:48}{mean:7.2f} µs{statistics.median(spent):7.2f} µs{push:9.2f} µs"
            f"{mean / push:8.2f}"
        )
    print(
        "checked after the timed playouts, replaying them: at each declaration on a minor the"
        " arrays' verdicts agreed with game.check, they held what the kernel's board held"
        " after it, every layout emitted the flat one's effects, and undoing their journal"
        " gave them back"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
