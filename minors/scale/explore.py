"""`minors explore`: a bounded exhaustive search from a position, breadth first, positions
deduplicated by `Game.key()`, every invariant of `minors.testing` checked once per position. Of the
shortest sequences that break an invariant the least by rank is reported, the same on any number of
workers; commands that commute are pruned by sleep sets, sound under rule 82 (docs/scale.md gives
the argument): a rulebook whose rules read across minors should run with `reduction=False`
(`--no-reduction`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from attrs import field, frozen

from ..domain import CommandKind
from ..domain.clock import Moment
from ..domain.events import Event, WarBegan, WarEnded
from ..errors import MinorsError, RuleViolation, ScaleError, ScaleInputError
from ..rules82 import Game
from ..rules82.commands import Command
from .invariants import LISTED_APPLY, broken
from .runner import Payload, Runner
from .scenario_text import scenario_text

__all__ = ["COMMUTING", "PASS", "Exploration", "Search", "Violation", "explore"]

PASS = "pass"
"""The step that moves the clock on one phase (`advance_to(clock.next())`)."""

Step = Command | str

K = CommandKind
COMMUTING = frozenset(
    {K.DIPLOMATIC_RESULT, K.SUBVERT, K.DECLARE_WAR, K.BORDER_WAR, K.REFUSE_ASSOCIATION}
)
"""The kinds whose commands may commute (docs/scale.md)."""

DEFAULT_MAX_STATES = 100_000

Footprint = frozenset[str] | None
"""The minors and units a command names or changes; None: dependent on everything."""
Sleeping = tuple[tuple[Command, frozenset[str]], ...]


@frozen
class Search:
    """What an exploration searches: from `root`, steps of `kinds` (None: every kind that generates
    candidates) and `pass`, to `depth` steps and/or until the clock reaches `until`."""

    root: Game
    kinds: tuple[str, ...] | None
    depth: int | None
    until: Moment | None
    reduction: bool = True
    tables: str = field(default="")
    rulebook: str = field(default="")

    @classmethod
    def of(
        cls,
        root: Game,
        *,
        kinds: Sequence[str] | None = None,
        depth: int | None = None,
        until: str | Moment | None = None,
        reduction: bool = True,
    ) -> Search:
        """The search, its bounds and kinds checked before anything is sent (`ScaleInputError`)."""
        if depth is None and until is None:
            raise ScaleInputError("give the bounds of the search: --depth D or --until MOMENT")
        if depth is not None and depth < 0:
            raise ScaleInputError(f"--depth {depth}: give 0 or more steps")
        end = None if until is None else until if isinstance(until, Moment) else Moment.parse(until)
        if end is not None and end < root.clock:
            raise ScaleInputError(f"--until {end} is before the start position, {root.clock}")
        wanted = None
        if kinds is not None:
            wanted = tuple(kinds)
            try:
                root.legal_actions(wanted)  # an unknown kind is named with the closest
            except MinorsError as exc:
                raise ScaleInputError(f"--kinds: {exc}") from None
        return cls(root, wanted, depth, end, reduction, root.ruleset.digest, root.rulebook.digest)


@frozen
class Node:
    """A position of the frontier: its key, first path and its rank, commands asleep there."""

    key: int
    path: tuple[Step, ...]
    rank: tuple[int, ...]
    sleep: Sleeping = ()


@frozen
class Child:
    """A successor of a node: its key, the step to it and its index, the commands asleep."""

    key: int
    step: Step
    index: int
    sleep: Sleeping


@frozen
class Expanded:
    """A worker's answer for one node: the invariants broken there, and its successors."""

    rank: tuple[int, ...]
    broken: tuple[tuple[str, str, tuple[str, ...], Step | None], ...]
    """(invariant, clause, problems, the listed command that failed to apply or None)."""
    children: tuple[Child, ...]


@frozen
class Violation:
    """The shortest sequence (first in `legal_actions` order) that breaks an invariant."""

    invariant: str
    clause: str
    problems: tuple[str, ...]
    steps: tuple[str, ...]
    until: str | None
    """The `--until` of the replay: None when the sequence ends with a command (`minors
    run` stops right after the last one), else the moment the passes after it reach."""
    scenario: str
    """A scenario file that `minors run [--until UNTIL]` replays to the broken position."""

    def to_json(self) -> dict[str, Any]:
        """As `minors explore --json` prints it (docs/schemas/explore.schema.json)."""
        return {
            "invariant": self.invariant,
            "clause": self.clause,
            "problems": list(self.problems),
            "depth": len(self.steps),
            "steps": list(self.steps),
            "until": self.until,
            "scenario": self.scenario,
        }


@frozen
class Exploration:
    """What an exploration found."""

    states: int
    """Positions visited: every successor generated, duplicates included (the root too)."""
    positions: int
    """Distinct positions (keys), each checked once."""
    depth: int
    """The deepest level checked (when capped, the positions of least rank the cap left)."""
    capped: bool
    """`max_states` stopped the search before its bounds."""
    max_states: int
    violations: tuple[Violation, ...]
    reduction: bool
    kinds: tuple[str, ...] | None

    def to_json(self) -> dict[str, Any]:
        """As `minors explore --json` prints it, but for `ran_on`."""
        return {
            "states": self.states,
            "positions": self.positions,
            "depth": self.depth,
            "max_states": self.max_states,
            "capped": self.capped,
            "reduction": "sleep sets" if self.reduction else None,
            "kinds": list(self.kinds) if self.kinds is not None else None,
            "violations": [v.to_json() for v in self.violations],
        }


# ---- on a worker ------------------------------------------------------------------------


def _step(game: Game, step: Step) -> Sequence[Event]:
    """Take one step: apply a command, or move the clock on one phase (`pass`)."""
    if isinstance(step, str):
        return game.advance_to(game.clock.next())
    return game.apply(step)


def _footprint(game: Game, cmd: Step, effects: Sequence[Event]) -> Footprint:
    """The minors and units `cmd` names or changed (docs/scale.md); None for a pass, a kind
    that never commutes, or a command that began or ended a war between majors."""
    if isinstance(cmd, str) or cmd.name not in COMMUTING:
        return None
    rs = game.ruleset
    names: set[str] = set()

    def note(value: Any) -> None:
        if isinstance(value, str):
            if value in rs.minors:
                names.add(value)
        elif isinstance(value, tuple | list):
            for item in value:
                note(item)
        elif hasattr(value, "__attrs_attrs__"):
            for a in value.__attrs_attrs__:
                note(getattr(value, a.name))

    note(cmd)
    for e in effects:
        if isinstance(e, WarBegan | WarEnded) and e.a in rs.majors and e.b in rs.majors:
            return None
        note(e)
        unit = getattr(e, "unit", None)
        if isinstance(unit, str):
            names.add(f"unit {unit}")
    return frozenset(names)


def _children(search: Search, game: Game, node: Node) -> tuple[list[Child], list[Any]]:
    """The successors of the position `game` is at (that of `node`), with the sleep sets
    they inherit; and the listed commands that failed to apply."""
    actions: list[Step] = list(game.legal_actions(search.kinds))
    if search.until is None or game.clock < search.until:
        actions.append(PASS)
    asleep = dict(node.sleep)
    done: list[tuple[Command, frozenset[str]]] = []
    children: list[Child] = []
    refused: list[Any] = []
    for index, action in enumerate(actions):
        if search.reduction and action in asleep:
            continue
        try:
            effects = _step(game, action)
        except Exception as exc:  # a rule failed or refused a listed step: the game is as it was
            refusal = isinstance(exc, RuleViolation) and isinstance(action, Command)
            refused.append(
                (action, f"refused: {exc}" if refusal else f"{type(exc).__name__}: {exc}")
            )
            continue
        key = game.key()
        mark = _footprint(game, action, effects) if search.reduction else None
        game.pop()
        sleep: Sleeping = ()
        if mark is not None and isinstance(action, Command):
            sleep = tuple(
                (other, theirs)
                for other, theirs in (*asleep.items(), *done)
                if theirs.isdisjoint(mark)
            )
            done.append((action, mark))
        children.append(Child(key, action, index, sleep))
    return children, refused


def _expand(search: Search, item: tuple[bool, tuple[Node, ...]]) -> list[Expanded]:
    """A task: check the nodes of one partition and, unless they are leaves, list their
    successors. Nodes are replayed from the root in rank order, sharing prefixes. A worker
    explores only the tables and rulebook the client sent (by digest)."""
    root = search.root
    if root.ruleset.digest != search.tables or root.rulebook.digest != search.rulebook:
        raise ScaleError(
            "this worker's tables or rulebook digest differently from the client's: install "
            "the same minors, overlays and rulebook on every worker"
        )
    leaves, nodes = item
    game = root.clone()
    stack: list[Step] = []
    out: list[Expanded] = []
    for node in sorted(nodes, key=lambda n: n.rank):
        common = 0
        while common < min(len(stack), len(node.path)) and stack[common] == node.path[common]:
            common += 1
        while len(stack) > common:
            game.pop()
            stack.pop()
        for step in node.path[common:]:
            _step(game, step)
            stack.append(step)
        last = node.path[-1] if node.path else None
        passed = Moment(game.clock.index - 1) if isinstance(last, str) else None
        found = [
            (inv.name, inv.clause, tuple(problems), None) for inv, problems in broken(game, passed)
        ]
        children: list[Child] = []
        at_bound = search.until is not None and game.clock >= search.until
        if not leaves and not at_bound:
            children, refused = _children(search, game, node)
            found += [
                (LISTED_APPLY.name, LISTED_APPLY.clause, (f"{cmd!r}: {why}",), cmd)
                for cmd, why in refused[:1]
            ]
        out.append(Expanded(node.rank, tuple(found), tuple(children)))
    return out


# ---- on the client ----------------------------------------------------------------------


def _violation(
    search: Search,
    path: tuple[Step, ...],
    invariant: str,
    clause: str,
    problems: tuple[str, ...],
) -> Violation:
    """The violation found at the end of `path`, with its reproducing scenario."""
    game = search.root.clone()
    failed: Step | None = None
    for step in path:
        try:
            _step(game, step)
        except Exception:
            failed = step  # the listed step that failed: the scenario stops there
            break
    # `minors run` stops right after the last command, or with --until at a later moment
    # (it applies the commands stamped before that moment only); a pass that failed is
    # replayed by running until the moment after it
    entries = list(game.log)
    last = entries[-1].command.get("command") if entries else "advance"
    until = str(game.clock) if (path[-1] if path else last) in (PASS, "advance") else None
    if failed == PASS:
        until = str(game.clock.next())
    refused = path[-1] if invariant == LISTED_APPLY.name and path else None
    text = scenario_text(
        game,
        name=f"explore: {invariant} broken",
        description="; ".join(problems)[:500],
        comments=[
            f"minors explore: {invariant} ({clause or 'the API'}) broken after {len(path)} steps"
        ],
        until=until,
        then=refused if isinstance(refused, Command) else None,
    )
    return Violation(
        invariant,
        clause,
        problems,
        tuple(s if isinstance(s, str) else repr(s) for s in path),
        until,
        text,
    )


CHUNK = 8
"""The first slice of a level expanded when `max_states` will cut it (then doubled)."""

Best = tuple[tuple[int, ...], tuple[Step, ...], dict[Command, frozenset[str]]]
"""A new position of the next level: its least rank, the steps of that rank, its sleep set."""


def _run(runner: Runner, payload: Payload, nodes: Sequence[Node], leaves: bool) -> list[Expanded]:
    """Check `nodes` (and list their successors unless `leaves`), partitioned by key."""
    if not nodes:
        return []
    parts: dict[int, list[Node]] = {}
    width = runner.partitions
    for node in nodes:
        parts.setdefault(node.key % width, []).append(node)
    items = [(leaves, tuple(parts[p])) for p in sorted(parts)]
    return [e for part in runner.map(_expand, payload, items) for e in part]


def _merge(
    answers: Sequence[Expanded], frontier: Sequence[Node], visited: set[int], best: dict[int, Best]
) -> int:
    """Merge the successors of `answers` into `best` (the next level's new positions: least rank,
    intersected sleep sets), alike in any order of `answers`; the number of successors seen."""
    by_rank = {node.rank: node for node in frontier}
    seen = 0
    for answer in answers:
        node = by_rank[answer.rank]
        for child in answer.children:
            seen += 1
            if child.key in visited:
                continue
            rank = (*answer.rank, child.index)
            sleep = dict(child.sleep)
            known = best.get(child.key)
            if known is None:
                best[child.key] = (rank, (*node.path, child.step), sleep)
                continue
            # asleep on every arrival; a command's minors are those any arrival found it to
            # touch (the larger footprint wakes it more often: never unsound, and the same
            # whichever arrival is merged first)
            common = {c: f | sleep[c] for c, f in known[2].items() if c in sleep}
            if rank < known[0]:
                best[child.key] = (rank, (*node.path, child.step), common)
            else:
                best[child.key] = (known[0], known[1], common)
    return seen


def explore(
    search: Search,
    runner: Runner,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: Callable[[int, int], None] | None = None,
) -> Exploration:
    """Explore `search` where `runner` runs work, visiting at most `max_states` distinct
    positions; the violations' scenarios name the root's overlays by absolute path."""
    if max_states < 1:
        raise ScaleInputError(f"--max-states {max_states}: give one or more")
    root = search.root
    payload = Payload.of(search)
    visited = {root.key()}
    frontier = [Node(root.key(), (), ())]
    states, level, capped = 1, 0, False
    found: dict[str, tuple[tuple[int, ...], tuple[Step, ...], str, tuple[str, ...]]] = {}
    checked_depth = -1
    branching = 1.0
    while frontier:
        leaves = capped or (search.depth is not None and level >= search.depth)
        room = max_states - len(visited)
        best: dict[int, Best] = {}
        chunked = not leaves and len(frontier) * branching > room
        if not chunked:
            answers = _run(runner, payload, frontier, leaves)
            expanded = 0 if leaves else len(frontier)
            states += _merge(answers, frontier, visited, best)  # leaves have no successors
        else:
            # the cap will cut this level: expand in rank order, a growing slice at a
            # time, until the new positions fill the room; the rest is only checked. The
            # positions kept are the same as if all were expanded (a later parent's
            # successors all rank after an earlier parent's), and the slices do not
            # depend on the number of workers.
            answers, expanded, size = [], 0, CHUNK
            while expanded < len(frontier) and len(best) < room:
                part = frontier[expanded : expanded + size]
                expanded, size = expanded + len(part), size * 2
                done = _run(runner, payload, part, False)
                states += _merge(done, frontier, visited, best)
                answers += done
            answers += _run(runner, payload, frontier[expanded:], True)
            capped = capped or expanded < len(frontier)  # positions left unexpanded
        by_rank = {node.rank: node for node in frontier}
        for answer in sorted(answers, key=lambda e: e.rank):
            node = by_rank[answer.rank]
            for name, clause, problems, cmd in answer.broken:
                if name not in found:
                    path = node.path if cmd is None else (*node.path, cmd)
                    found[name] = (answer.rank, path, clause, problems)
        checked_depth = level
        if leaves:
            break
        generated = sum(len(a.children) for a in answers)
        branching = max(1.0, generated / max(1, expanded))
        ordered = sorted(best.items(), key=lambda item: item[1][0])
        if len(ordered) > room:
            ordered, capped = ordered[:room], True
        visited.update(key for key, _ in ordered)
        frontier = [
            Node(key, path, rank, tuple(sleep.items())) for key, (rank, path, sleep) in ordered
        ]
        level += 1
        if progress is not None:
            progress(len(visited), max_states)
    violations = tuple(
        _violation(search, path, name, clause, problems)
        for name, (_, path, clause, problems) in sorted(
            found.items(), key=lambda i: (len(i[1][1]), i[1][0])
        )
    )
    return Exploration(
        states=states,
        positions=len(visited),
        depth=checked_depth,
        capped=capped,
        max_states=max_states,
        violations=violations,
        reduction=search.reduction,
        kinds=search.kinds,
    )
