"""A turn-by-turn report of a game's log, as a person reads it (rich)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby
from pathlib import Path
from typing import Any

from attrs import frozen
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .._kernel.log import LogEntry
from ..domain import LedgerKind
from ..domain import events as ev
from ..domain.clock import Moment
from ..domain.state import event_data
from ..errors import LogRangeError
from ..rules82 import Game

__all__ = ["Selection", "concerns", "describe", "placed", "report", "select", "show_log"]

_VERBS = {LedgerKind.GRANT: "gains", LedgerKind.DEDUCTION: "loses", LedgerKind.COST: "pays"}


def describe(effect: ev.Event) -> str:
    """One effect as a sentence, with its rule id (once: a cause ending with it loses it)."""
    match effect:
        case ev.StatusChanged(minor=minor, old=old, new=new, major=major, cause=cause):
            tie = f" ({major})" if major else ""
            text = f"{minor}: {old.value} → {new.value}{tie} — {cause}"
        case ev.WarBegan(a=a, b=b, cause=cause):
            text = f"{a} and {b} are at war" + (f" — {cause}" if cause else "")
        case ev.WarEnded(a=a, b=b, cause=cause):
            text = f"{a} and {b} are no longer at war" + (f" — {cause}" if cause else "")
        case ev.BrpChange(entry=entry):
            what = _VERBS[entry.kind]
            about = f" for {entry.minor}" if entry.minor else ""
            undo = f" (undoes #{entry.undoes})" if entry.undoes else ""
            text = f"{entry.major} {what} {abs(entry.amount)} BRPs{about}{undo}"
        case ev.UnitEliminated(unit=unit, cause=cause):
            text = f"unit {unit} is eliminated — {cause}"
        case ev.UnitPlaced(unit=unit, country=country):
            text = f"unit {unit} is placed in {country}"
        case ev.UnitMoved(unit=unit, country=country):
            text = f"unit {unit} moves to {country}"
        case ev.UnitRemoved(unit=unit):
            text = f"unit {unit} is removed"
        case ev.DeadlineSet(minor=minor, side=side, at=at):
            text = f"{side} units must leave {minor} by the end of {at}"
        case ev.Note(text=note):
            text = note
        case ev.PhaseEnded(ended=ended):
            text = f"end of {ended}"
    return f"{text.removesuffix(f' ({effect.rule})')}  [{effect.rule}]"


def _natural(unit_id: str) -> tuple[str, int, str]:
    """Sort key of unit ids: `w-poland-2` before `w-poland-10`."""
    head, _, tail = unit_id.rpartition("-")
    return (head, int(tail), unit_id) if head and tail.isdigit() else (unit_id, -1, unit_id)


def unit_list(ids: Iterable[str]) -> str:
    """Unit ids for a sentence, runs of three or more as `w-poland-1 to w-poland-12`."""
    runs: list[list[tuple[str, int, str]]] = []
    for key in sorted({_natural(i) for i in ids}):
        last = runs[-1][-1] if runs else None
        if last is not None and key[0] == last[0] and last[1] >= 0 and key[1] == last[1] + 1:
            runs[-1].append(key)
        else:
            runs.append([key])
    parts: list[str] = []
    for run in runs:
        names = [key[2] for key in run]
        parts.extend([f"{names[0]} to {names[-1]}"] if len(names) >= 3 else names)
    return ", ".join(parts)


def _grouped(effects: list[ev.Event]) -> Iterator[ev.Event | list[ev.Event]]:
    """The effects, runs of placements in a country or eliminations for a cause in a list."""

    def group(effect: ev.Event) -> tuple[object, ...] | None:
        if isinstance(effect, ev.UnitPlaced):
            return ("placed", effect.rule, effect.country)
        if isinstance(effect, ev.UnitEliminated):
            return ("eliminated", effect.rule, effect.cause)
        return None

    for key, run in groupby(effects, key=group):
        items = list(run)
        if key is None or len(items) == 1:
            yield from items
        else:
            yield items


def _describe_units(effects: list[ev.Event]) -> str:
    """A run of placements or eliminations as one sentence."""
    first = effects[0]
    ids = unit_list(getattr(e, "unit", "") for e in effects)
    if isinstance(first, ev.UnitPlaced):
        text = f"{len(effects)} units are placed in {first.country}: {ids}"
    else:
        assert isinstance(first, ev.UnitEliminated)
        text = f"{len(effects)} units are eliminated — {first.cause}: {ids}"
    return f"{text}  [{first.rule}]"


def _command(entry: LogEntry) -> str:
    fields = {k: v for k, v in entry.command.items() if k != "command"}
    kind = entry.command["command"]
    if kind == "advance":
        return f"the clock advances to {fields['to']}"
    shown = ", ".join(f"{k}={v}" for k, v in fields.items() if not isinstance(v, list))
    units = [u["id"] if isinstance(u, dict) else u for u in fields.get("units", [])]
    return f"{kind} {shown}" + (f" units={','.join(units)}" if units else "")


def _sentences(effects: list[ev.Event]) -> Iterator[str]:
    """The effects of one moment as sentences (82.12's wars of a country's partners in one)."""
    shared: dict[str, list[str]] = {}
    for effect in effects:
        if isinstance(effect, ev.WarBegan) and effect.rule == "82.12":
            shared.setdefault(effect.a, []).append(effect.b)
    for item in _grouped(effects):
        if isinstance(item, list):
            yield _describe_units(item)
        elif isinstance(item, ev.WarBegan) and item.rule == "82.12":
            if item.a in shared:
                names = ", ".join(shared.pop(item.a))
                yield f"{item.a} is also at war with their partners: {names}  [82.12]"
        else:
            yield describe(item)


def _grouped_turns(rows: list[tuple[str, str]]) -> Iterator[RenderableType]:
    def turn_of(row: tuple[str, str]) -> str:
        year, rest = row[0].split("-", 1)
        return f"{rest.split('/')[0].title()} {year}"

    for turn, group in groupby(rows, key=turn_of):
        lines = Text()
        for moment, text in group:
            _, side, phase = moment.split("/")
            lines.append(f"{side}/{phase}: ", style="bold")
            lines.append(text.strip() + "\n")
        yield Text(f"── {turn} ──", style="bold cyan")
        yield lines


def _summary(game: Game) -> Table:
    start = {name: m.start_status for name, m in game.ruleset.minors.items()}
    title = f"Minor countries at {game.clock} (changed since the start)"
    table = Table("Minor", "Status", "Major", "At war with", title=title, title_justify="left")
    for name, minor in game.raw_state.minors.items():
        if minor.active and minor.status is not start[name]:
            table.add_row(
                name, minor.status.value, minor.major or "-", ", ".join(minor.at_war_with) or "-"
            )
    return table


def report(game: Game) -> RenderableType:
    """The whole report: each turn's commands and what they did, then a summary."""
    played = [(e, e.command["command"] != "advance", placed(e)) for e in game.log]
    credits = ", ".join(f"{m} {game.brps(m):+d}" for m in game.ruleset.majors)
    brps = Text(f"BRP credits from rule 82: {credits}")
    return Group(*_grouped_turns(list(_rows(played))), _summary(game), brps)


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def concerns(effect: ev.Event, minor: str) -> bool:
    """Whether an effect is about `minor` (its canonical name)."""
    match effect:
        case ev.StatusChanged() | ev.DeadlineSet():
            return effect.minor == minor
        case ev.WarBegan() | ev.WarEnded():
            return minor in (effect.a, effect.b)
        case ev.BrpChange():
            return effect.entry.minor == minor
        case ev.UnitPlaced() | ev.UnitMoved():
            return effect.country == minor
        case ev.UnitEliminated():
            return _mentions(effect.cause, minor)
        case ev.Note():
            return _mentions(effect.text, minor)
    return False


def _names(command: dict[str, Any], minor: str) -> bool:
    """Whether a command names `minor` in one of its fields."""
    fields = (value for key, value in command.items() if key != "command")
    return any(value == minor or (isinstance(value, list) and minor in value) for value in fields)


def placed(entry: LogEntry) -> list[tuple[str, ev.Event]]:
    """Each effect of an entry with the moment (for an advance, the phase) it happened at."""
    moment = str(entry.moment)
    if entry.command.get("command") == "advance":
        moment = next((e.ended for e in entry.effects if isinstance(e, ev.PhaseEnded)), moment)
    out: list[tuple[str, ev.Event]] = []
    for effect in entry.effects:
        out.append((moment, effect))
        if isinstance(effect, ev.PhaseEnded):
            moment = effect.started
    return out


@frozen
class Selection:
    """What `minors log show` shows: each entry kept, its command shown or not, its effects."""

    path: str
    format: int
    head: str
    filters: dict[str, Any]
    entries: tuple[tuple[LogEntry, bool, tuple[tuple[str, ev.Event], ...]], ...]

    def to_json(self) -> dict[str, Any]:
        """What `minors log show --json` prints (the `log-show` schema)."""
        return {
            "file": self.path,
            "format": self.format,
            "head": self.head,
            "filters": self.filters,
            "entries": [
                {
                    "seq": entry.seq,
                    "at": str(entry.moment),
                    "command": entry.command if shown else None,
                    "effects": [
                        {"at": at, "text": describe(effect), "effect": event_data(effect)}
                        for at, effect in kept
                    ],
                }
                for entry, shown, kept in self.entries
            ],
        }


def select(
    path: str | Path, *, turn: str | None = None, minor: str | None = None, since: int | None = None
) -> Selection:
    """What `minors log show` shows of a log (read, not replayed): the entries after `since`
    and the effects that happened in `turn` (a moment names its turn) and concern `minor`;
    UnknownNameError, MomentError, or LogRangeError for a turn or entry the log lacks."""
    from .log import read_log

    found = read_log(path)
    entries = found.entries
    name = found.ruleset.minor(minor).name if minor is not None else None
    filters: dict[str, Any] = {"turn": None, "minor": name, "since": since}
    first = entries[0].moment if entries else None
    last = entries[-1].moment if entries else None
    wanted = None
    if turn is not None:
        moment = Moment.parse(turn)
        wanted = moment.turn
        filters["turn"] = f"{moment.year}-{moment.season.value}"
        if first is None or last is None or not first.turn <= wanted <= last.turn:
            span = f"it runs from {first} to {last}" if first else "it has no entry"
            raise LogRangeError(f"--turn {turn}: the log holds no entry of that turn ({span})")
    if since is not None:
        top = entries[-1].seq if entries else 0
        if not 0 <= since <= top:
            raise LogRangeError(f"--since {since}: the log's entries run from 1 to {top}")
    kept_entries = []
    for entry in entries:
        if since is not None and entry.seq <= since:
            continue
        kept = tuple(
            (at, effect)
            for at, effect in placed(entry)
            if (wanted is None or Moment.parse(at).turn == wanted)
            and (name is None or concerns(effect, name))
        )
        advance = entry.command.get("command") == "advance"
        shown = (
            not advance
            and (wanted is None or entry.moment.turn == wanted)
            and (name is None or _names(entry.command, name))
        )
        if shown or kept or (name is None and wanted is None):
            kept_entries.append((entry, shown, kept))
    return Selection(str(path), found.format, found.head, filters, tuple(kept_entries))


def _rows(
    entries: Iterable[tuple[LogEntry, bool, Sequence[tuple[str, ev.Event]]]],
) -> Iterator[tuple[str, str]]:
    """(moment, line) for each entry: its command if shown, then its effects kept."""
    for entry, shown, kept in entries:
        if shown:
            yield str(entry.moment), "» " + _command(entry)
        for moment, run in groupby(
            (item for item in kept if not isinstance(item[1], ev.PhaseEnded)), key=lambda i: i[0]
        ):
            for text in _sentences([effect for _, effect in run]):
                yield moment, text


def show_log(
    path: str | Path, *, turn: str | None = None, minor: str | None = None, since: int | None = None
) -> RenderableType:
    """A log file turn by turn (`minors log show`): what `select` keeps, as sentences."""
    selection = select(path, turn=turn, minor=minor, since=since)
    count = len(selection.entries)
    shown = f"{count} {'entry' if count == 1 else 'entries'} shown"
    title = Text(f"{path}: {shown}; head {selection.head}", style="bold")
    return Group(title, *_grouped_turns(list(_rows(selection.entries))))
