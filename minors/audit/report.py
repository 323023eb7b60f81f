"""A turn-by-turn report of a game's log, as a person reads it (rich)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import groupby
from pathlib import Path

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .._kernel.effects import (
    BrpChange,
    DeadlineSet,
    Effect,
    Note,
    PhaseEnded,
    StatusChanged,
    UnitEliminated,
    UnitMoved,
    UnitPlaced,
    UnitRemoved,
    WarBegan,
    WarEnded,
)
from .._kernel.log import LogEntry
from ..domain import LedgerKind
from ..rules82 import Game

__all__ = ["describe", "report"]


def describe(effect: Effect) -> str:
    """One effect as a sentence, with its rule id (once: a cause that ends with the same id
    in brackets loses it)."""
    match effect:
        case StatusChanged(minor=minor, old=old, new=new, major=major, cause=cause):
            tie = f" ({major})" if major else ""
            text = f"{minor}: {old.value} → {new.value}{tie} — {cause}"
        case WarBegan(a=a, b=b, cause=cause):
            text = f"{a} and {b} are at war" + (f" — {cause}" if cause else "")
        case WarEnded(a=a, b=b, cause=cause):
            text = f"{a} and {b} are no longer at war" + (f" — {cause}" if cause else "")
        case BrpChange(entry=entry):
            what = {
                LedgerKind.GRANT: "gains",
                LedgerKind.DEDUCTION: "loses",
                LedgerKind.COST: "pays",
            }[entry.kind]
            about = f" for {entry.minor}" if entry.minor else ""
            undo = f" (undoes #{entry.undoes})" if entry.undoes else ""
            text = f"{entry.major} {what} {abs(entry.amount)} BRPs{about}{undo}"
        case UnitEliminated(unit=unit, cause=cause):
            text = f"unit {unit} is eliminated — {cause}"
        case UnitPlaced(unit=unit, country=country):
            text = f"unit {unit} is placed in {country}"
        case UnitMoved(unit=unit, country=country):
            text = f"unit {unit} moves to {country}"
        case UnitRemoved(unit=unit):
            text = f"unit {unit} is removed"
        case DeadlineSet(minor=minor, side=side, at=at):
            text = f"{side} units must leave {minor} by the end of {at}"
        case Note(text=note):
            text = note
        case PhaseEnded(ended=ended):
            text = f"end of {ended}"
    return f"{text.removesuffix(f' ({effect.rule})')}  [{effect.rule}]"


def _natural(unit_id: str) -> tuple[str, int, str]:
    """Sort key of unit ids, (prefix, number, id): `w-poland-2` before `w-poland-10`."""
    head, _, tail = unit_id.rpartition("-")
    return (head, int(tail), unit_id) if head and tail.isdigit() else (unit_id, -1, unit_id)


def unit_list(ids: Iterable[str]) -> str:
    """Unit ids for a sentence, in natural order; a run of three or more consecutive
    numbers of one prefix is written as its first and last (`w-poland-1 to w-poland-12`)."""
    runs: list[list[tuple[str, int, str]]] = []
    for key in sorted({_natural(i) for i in ids}):
        last = runs[-1][-1] if runs else None
        follows = last is not None and key[0] == last[0] and last[1] >= 0
        if follows and last is not None and key[1] == last[1] + 1:
            runs[-1].append(key)
        else:
            runs.append([key])
    parts: list[str] = []
    for run in runs:
        names = [key[2] for key in run]
        parts.extend([f"{names[0]} to {names[-1]}"] if len(names) >= 3 else names)
    return ", ".join(parts)


def _grouped(effects: list[Effect]) -> Iterator[Effect | list[Effect]]:
    """The effects in order, consecutive placements in one country and eliminations for one
    cause (a deployment, a conquest) each under one rule gathered in a list."""

    def group(effect: Effect) -> tuple[object, ...] | None:
        if isinstance(effect, UnitPlaced):
            return ("placed", effect.rule, effect.country)
        if isinstance(effect, UnitEliminated):
            return ("eliminated", effect.rule, effect.cause)
        return None

    for key, run in groupby(effects, key=group):
        items = list(run)
        if key is None or len(items) == 1:
            yield from items
        else:
            yield items


def _describe_units(effects: list[Effect]) -> str:
    """A run of placements or eliminations as one sentence."""
    first = effects[0]
    ids = unit_list(getattr(e, "unit", "") for e in effects)
    if isinstance(first, UnitPlaced):
        text = f"{len(effects)} units are placed in {first.country}: {ids}"
    else:
        assert isinstance(first, UnitEliminated)
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


def _entry_lines(entry: LogEntry) -> Iterator[tuple[str, str]]:
    """(moment, sentence) for each effect of an entry; an advance's effects are placed at
    the phase they happened in (at its end or its start), and a run of shared wars is
    folded into one line."""
    moment = str(entry.moment)
    buffered: list[Effect] = []
    for effect in entry.effects:
        if isinstance(effect, PhaseEnded):
            yield from _sentences(effect.ended, buffered)
            buffered = []
            moment = effect.started
            continue
        buffered.append(effect)
    yield from _sentences(moment, buffered)


def _sentences(moment: str, effects: list[Effect]) -> Iterator[tuple[str, str]]:
    shared: dict[str, list[str]] = {}
    for effect in effects:
        if isinstance(effect, WarBegan) and effect.rule == "82.12":
            shared.setdefault(effect.a, []).append(effect.b)
    for item in _grouped(effects):
        if isinstance(item, list):
            yield moment, _describe_units(item)
            continue
        effect = item
        if isinstance(effect, WarBegan) and effect.rule == "82.12":
            names = shared.pop(effect.a, None)
            if names:
                yield (
                    moment,
                    (f"{effect.a} is also at war with their partners: {', '.join(names)}  [82.12]"),
                )
            continue
        yield moment, describe(effect)


def _turns(entries: Iterable[LogEntry]) -> Iterator[RenderableType]:
    rows: list[tuple[str, str]] = []
    for entry in entries:
        if entry.command["command"] != "advance":
            rows.append((str(entry.moment), "» " + _command(entry)))
        rows.extend((m, "    " + text) for m, text in _entry_lines(entry))

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
    table = Table(
        title=f"Minor countries at {game.clock} (changed since the start)", title_justify="left"
    )
    for name in ("Minor", "Status", "Major", "At war with"):
        table.add_column(name)
    for name, minor in game.raw_state.minors.items():
        if minor.active and minor.status is not start[name]:
            table.add_row(
                name, minor.status.value, minor.major or "-", ", ".join(minor.at_war_with) or "-"
            )
    return table


def report(game: Game, error: str | None = None) -> RenderableType:
    """The whole report: each turn's commands and what they did, then a summary."""
    parts: list[RenderableType] = [*_turns(game.log), _summary(game)]
    credits = ", ".join(f"{m} {game.brps(m):+d}" for m in game.ruleset.majors)
    parts.append(Text(f"BRP credits from rule 82: {credits}"))
    if error:
        parts.append(Text(error, style="bold red"))
    return Group(*parts)


def _concerns(entry: LogEntry, minor: str) -> bool:
    if minor in entry.command.values():
        return True
    return any(
        minor in getattr(e, "minor", "")
        or minor in (getattr(e, "b", ""),)
        or (isinstance(e, BrpChange) and e.entry.minor == minor)
        for e in entry.effects
    )


def show_log(
    path: str | Path, *, turn: str | None = None, minor: str | None = None, since: int | None = None
) -> RenderableType:
    """A log file, turn by turn (`minors log show`): every entry after `since`, of `turn`
    (like `1940-spring`), or touching `minor`. The chain is checked; the rules are not
    replayed (`minors log verify` does that)."""
    from .log import read_entries

    entries, head = read_entries(path)
    if since is not None:
        entries = [e for e in entries if e.seq > since]
    if turn is not None:
        entries = [
            e for e in entries if f"{e.moment.year}-{e.moment.season.value}" == turn.strip().lower()
        ]
    if minor is not None:
        entries = [e for e in entries if _concerns(e, minor)]
    shown = f"{len(entries)} {'entry' if len(entries) == 1 else 'entries'} shown"
    title = Text(f"{path}: {shown}; head {head}", style="bold")
    return Group(title, *_turns(entries))
