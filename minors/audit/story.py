"""A game season by season, as its picture needs it (`minors report LOG --html`): each
minor's status and major at the end of every game turn, each major's BRP credits, and every
effect with its clause, placed at the phase it happened in.

It reads only what the public API gives: a log's entries, their effects and the states of a
`minors.Game` they are replayed on, an advance over several seasons a season at a time."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from itertools import groupby
from pathlib import Path
from typing import Any

import attrs
from attrs import frozen

from .._kernel.log import LogEntry
from .._kernel.rulebook import Rulebook
from ..domain import Faction, Season, Status
from ..domain import events as ev
from ..domain.clock import Moment
from ..errors import MinorsError, ReportError, UnknownNameError
from ..rules82 import RULEBOOK, Game
from .report import describe, placed

__all__ = ["Band", "Cell", "Line", "Story", "Turn", "story_of_game", "story_of_log", "tell"]


@frozen(order=True)
class Turn:
    """A game turn (a season), numbered as `Moment.turn` numbers them."""

    index: int

    @property
    def year(self) -> int:
        return Moment.turn_start(self.index).year

    @property
    def season(self) -> Season:
        return Moment.turn_start(self.index).season

    @property
    def key(self) -> str:
        """`1940-spring`, as `minors log show --turn` spells a turn."""
        return f"{self.year}-{self.season.value}"

    @property
    def label(self) -> str:
        """`Spring 1940`."""
        return f"{self.season.value.title()} {self.year}"


@frozen
class Cell:
    """A minor at the end of a season, and its status changes in the season (sentences)."""

    status: Status
    major: str | None
    changes: tuple[str, ...] = ()


@frozen
class Band:
    """A minor through the game: one cell a season (None while it is not in play)."""

    minor: str
    cells: tuple[Cell | None, ...]


@frozen
class Line:
    """A line of the story: a command as given (`rule` empty) or one thing the rules did."""

    seq: int
    moment: str
    turn: str
    text: str
    rule: str
    minors: tuple[str, ...]
    command: bool = False


@frozen
class Story:
    """What the picture of a game shows."""

    title: str
    notes: tuple[str, ...]
    """Where the story comes from (the log, the rulebook, the tables)."""
    start: str
    clock: str
    turns: tuple[Turn, ...]
    bands: tuple[Band, ...]
    majors: tuple[tuple[str, Faction], ...]
    brps: Mapping[str, tuple[int, ...]]
    """Each major's BRP credits from rule 82 at the end of each turn."""
    events: tuple[Line, ...]
    clauses: Mapping[str, str]
    """The title of each clause an event cites, from the rulebook's clause table."""
    error: str | None = None


class _Reader:
    """Which minors an effect concerns, by the names it carries; a unit is its owner's."""

    def __init__(self, game: Game) -> None:
        self.kinds = game.rulebook.kinds
        self.minors = tuple(game.ruleset.minors)
        self._known = set(self.minors)
        self._names = re.compile(
            "|".join(rf"(?<!\w){re.escape(m)}(?!\w)" for m in sorted(self.minors, key=len)[::-1])
        )

    def fields(self, kind: str) -> tuple[str, ...]:
        """The fields of a command kind in the order its class declares them."""
        known = self.kinds.get(kind)
        return tuple(attrs.fields_dict(known)) if known is not None else ()

    def owner(self, unit: str, games: tuple[Game, ...]) -> set[str]:
        for game in games:
            try:
                return {game.unit(unit).owner} & self._known
            except UnknownNameError:
                continue
        return set()

    def concerns(self, effect: ev.Event, games: tuple[Game, ...]) -> set[str]:
        match effect:
            case ev.StatusChanged(minor=minor) | ev.DeadlineSet(minor=minor):
                return {minor}
            case ev.WarBegan(a=a, b=b) | ev.WarEnded(a=a, b=b):
                return {a, b} & self._known
            case ev.BrpChange(entry=entry):
                return {entry.minor} if entry.minor else set()
            case (
                ev.UnitPlaced(unit=unit, country=country) | ev.UnitMoved(unit=unit, country=country)
            ):
                return ({country} & self._known) | self.owner(unit, games)
            case ev.UnitRemoved(unit=unit) | ev.UnitEliminated(unit=unit):
                return self.owner(unit, games)
            case ev.Note(text=text):
                return set(self._names.findall(text))
        return set()

    def ordered(self, names: Iterable[str]) -> tuple[str, ...]:
        wanted = set(names)
        return tuple(m for m in self.minors if m in wanted)


def _command_text(command: Mapping[str, Any], order: Iterable[str]) -> str:
    """A command as the scenario vocabulary spells it, its fields in the kind's order."""
    rank = {name: index for index, name in enumerate(order)}
    fields = {
        k: command[k]
        for k in sorted(command, key=lambda k: rank.get(k, len(rank)))
        if k != "command"
    }
    units = [u["id"] if isinstance(u, dict) else str(u) for u in fields.pop("units", [])]
    shown = ", ".join(f"{k}={v}" for k, v in fields.items() if not isinstance(v, list | dict))
    return f"{command['command']} {shown}".strip() + (f" units={','.join(units)}" if units else "")


def _events(
    entry: LogEntry, reader: _Reader, games: tuple[Game, ...]
) -> Iterator[tuple[Line, ev.Event | None]]:
    """The lines of one entry: its command, then what the rules did."""
    kind = entry.command["command"]
    if kind != "advance":
        minors = reader.ordered(v for v in entry.command.values() if isinstance(v, str))
        at, turn = str(entry.moment), Turn(entry.moment.turn).key
        text = _command_text(entry.command, reader.fields(kind))
        yield Line(entry.seq, at, turn, text, "", minors, True), None
    happened = (item for item in placed(entry) if not isinstance(item[1], ev.PhaseEnded))
    for at, run in groupby(happened, key=lambda item: item[0]):
        turn, effects = Turn(Moment.parse(at).turn).key, [effect for _, effect in run]
        partners: dict[str, list[str]] = {}
        for effect in effects:
            if isinstance(effect, ev.WarBegan) and effect.rule == "82.12":
                partners.setdefault(effect.a, []).append(effect.b)
        for effect in effects:
            if not (isinstance(effect, ev.WarBegan) and effect.rule == "82.12"):
                text = describe(effect).removesuffix(f"  [{effect.rule}]")
                minors = reader.ordered(reader.concerns(effect, games))
                yield Line(entry.seq, at, turn, text, effect.rule, minors), effect
            elif effect.a in partners:
                names = partners.pop(effect.a)
                text = f"{effect.a} is also at war with their partners: {', '.join(names)}"
                minors = reader.ordered({effect.a, *names} & set(reader.minors))
                yield Line(entry.seq, at, turn, text, "82.12", minors), None


def tell(
    start: Game,
    entries: Iterable[LogEntry],
    *,
    title: str = "minors",
    notes: Iterable[str] = (),
    error: str | None = None,
) -> Story:
    """The story of `entries` replayed on a copy of `start` (the game as it began);
    ReportError if an entry cannot be replayed or gives other effects than it records."""
    game = start.clone()
    reader = _Reader(game)
    rs = game.ruleset
    turns: list[Turn] = []
    states: list[dict[str, Any]] = []
    events: list[Line] = []
    changes: dict[tuple[str, str], list[str]] = {}

    def close_turn() -> None:
        turns.append(Turn(game.clock.turn))
        states.append(game.to_json())

    for entry in entries:
        before = game.clone()
        fields = dict(entry.command)
        kind = fields.pop("command")
        try:
            if kind == "advance":
                target = Moment.parse(fields["to"])
                effects: list[ev.Event] = []
                while game.clock.turn < target.turn:
                    close_turn()
                    effects += game.advance_to(Moment.turn_start(game.clock.turn + 1))
                effects += game.advance_to(target)
            else:
                effects = list(game.apply(game.command(kind, **fields)))
        except (MinorsError, KeyError, TypeError) as exc:
            raise ReportError(f"entry {entry.seq} cannot be replayed: {exc}") from None
        if tuple(effects) != tuple(entry.effects):
            raise ReportError(
                f"entry {entry.seq}: replayed, it gives other effects than the log records"
            )
        for event, change in _events(entry, reader, (game, before)):
            events.append(event)
            if isinstance(change, ev.StatusChanged):
                tie = f" ({change.major})" if change.major else ""
                line = f"{change.old.value} → {change.new.value}{tie} [{change.rule}]"
                changes.setdefault((change.minor, event.turn), []).append(line)
    close_turn()

    bands: list[Band] = []
    for minor in rs.minors:
        cells: list[Cell | None] = []
        for turn, state in zip(turns, states, strict=True):
            seen = state["minors"].get(minor)
            said = tuple(changes.get((minor, turn.key), ()))
            cell = None if seen is None else Cell(Status(seen["status"]), seen["major"], said)
            cells.append(cell)
        if any(cells):
            bands.append(Band(minor, tuple(cells)))
    cited = {e.rule for e in events if e.rule}
    book = game.rulebook.clauses  # rule 82's, the kernel's K ids and a variant's own
    return Story(
        title=title,
        notes=tuple(notes),
        start=start.start,
        clock=str(game.clock),
        turns=tuple(turns),
        bands=tuple(bands),
        majors=tuple((name, major.faction) for name, major in rs.majors.items()),
        brps={m: tuple(s["brps"][m] for s in states) for m in rs.majors},
        events=tuple(events),
        clauses={c: book[c].title for c in sorted(cited) if c in book},
        error=error,
    )


def story_of_game(game: Game, *, title: str = "minors run", error: str | None = None) -> Story:
    """The story of a game played in memory from its start (`minors run --html`)."""
    start = Game.new(game.ruleset, start=game.start, rulebook=game.rulebook, disabled=game.disabled)
    notes = [f"rulebook {game.rulebook.name}", f"tables {game.ruleset.digest[:16]}"]
    return tell(start, game.log, title=title, notes=notes, error=error)


def story_of_log(path: str | Path, *, rulebook: Rulebook | None = None) -> Story:
    """The story of a log file (`minors report LOG --html OUT`), verified first under
    `rulebook` (rule 82 by default): LogUnavailable if it cannot be verified here (exit 2),
    ReportError if it fails verification (naming the first bad entry)."""
    from .log import read_log, verify

    verdict = verify(path, rulebook=rulebook)
    if not verdict.ok:
        raise ReportError(f"{path}: {verdict.describe()}")
    found = read_log(path)  # verified: its own tables load here
    book = rulebook if rulebook is not None else RULEBOOK
    start = Game.new(found.ruleset, start=found.header["start"], rulebook=book)
    notes = [
        f"log {Path(path).name}: {verdict.entries} entries verified, head {found.head[:16]}…",
        f"rulebook {book.name}",
        f"tables {found.ruleset.digest[:16]}",
    ]
    return tell(start, found.entries, title=f"minors report {Path(path).name}", notes=notes)
