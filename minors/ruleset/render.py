"""Readable views of the rule tables (rich), one per theme, for `minors tables`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..domain import ScaleEffect
from ..errors import LONGEST_NAME, UnknownNameError, close_matches
from .loader import CONVERTER, SECTIONS
from .records import COLUMN_GROUPS, COLUMN_LABELS, COLUMNS, Count
from .tables import Ruleset

__all__ = ["VIEWS", "entry_json", "entry_view", "find_entry", "table_sections", "view"]

ILLUSTRATIVE = " [illustrative]"


def _force_table(title: str, first: str, columns: tuple[str, ...]) -> Table:
    """A forces table: `first` names the row; a column's header is its group, then label."""
    table = Table(title=title, title_justify="left")
    table.add_column(first, no_wrap=True)
    previous = ""
    for column in columns:
        group = COLUMN_GROUPS[column.split("_")[0]]
        header = f"{group if group != previous else ''}\n{COLUMN_LABELS[column]}"
        table.add_column(header, justify="center", no_wrap=True)
        previous = group
    return table


def _cell(value: object) -> str:
    """A cell as printed: zero is a dash."""
    return "-" if value == 0 else str(value)


def _forces(rs: Ruleset) -> Iterator[RenderableType]:
    for theater, columns in COLUMNS.items():
        title = f"Minor Country Forces Table (82.61) — {theater.value.title()} Theater"
        table = _force_table(title, "Minor", columns)
        for row in (r for r in rs.forces.values() if r.theater is theater):
            cells = [f"{_cell(row.cell(c))}{row.marks.get(c, '')}" for c in columns]
            table.add_row(row.minor + "".join(row.row_marks), *cells)
        yield table
    notes = [f"{mark} {note.text}" for mark, note in rs.force_footnotes.items()]
    notes.append("Partisan cells read automatic:maximum; a single figure n means n:n.")
    if rs.is_illustrative("forces_by_result"):
        notes.append("The † result table (forces_by_result) is illustrative:")
    for minor, steps in rs.forces_by_result.items():
        shares = ", ".join(f"{s.min}..{s.max} → {s.share}" for s in steps.steps)
        notes.append(f"   {minor}: {shares}; other results → 0")
    yield Text("\n".join(notes))


def _commonwealth(rs: Ruleset) -> Iterator[RenderableType]:
    for country, layout in rs.commonwealth_layout.items():
        table = _force_table(f"British Commonwealth (82.61) — {country}", "Arrival", layout.columns)
        for row in (r for r in rs.commonwealth.values() if r.country == country):
            counts: list[Count] = [getattr(row, c) for c in layout.columns]
            table.add_row(row.arrival.replace("_", " "), *(str(c) for c in counts))
        yield table
    yield Text(
        "\n".join(
            ["n[m]: a bracketed figure kept as printed; the text does not give its meaning."]
            + [f"{key}: {note.text}" for key, note in rs.commonwealth_notes.items()]
        )
    )


def _minors(rs: Ruleset) -> Iterator[RenderableType]:
    table = Table(title="Minor countries (82.1, 82.9): Fall 1939 start", title_justify="left")
    for name in (
        "Minor",
        "Theater",
        "Status",
        "Major",
        "At war with",
        "Colony of",
        "Forces",
        "BRPs" + (ILLUSTRATIVE if rs.is_illustrative("minors.brps") else ""),
        "Conquered by holding",
    ):
        table.add_column(name)
    for m in rs.minors.values():
        forces = "yes" if m.armed_forces else "none"
        if m.armed_forces_exception:
            forces += f" ({m.armed_forces_exception})"
        name = m.name + (" *" if m.illustrative else "") + ("" if m.active else " (inactive)")
        table.add_row(
            name,
            m.theater.value,
            m.start_status.value,
            m.start_major or "-",
            ", ".join(m.start_at_war_with) or "-",
            m.colony_of or "-",
            forces,
            str(m.brps),
            ", ".join(m.conquest_hexes) or "-",
        )
    yield table
    yield Text(
        "* a member of an illustrative list (82.12, 82.62). Map data and BRP values are "
        "illustrative defaults: replace them with an overlay."
    )


def _powers(rs: Ruleset) -> Iterator[RenderableType]:
    table = Table(title="Major powers and factions", title_justify="left")
    for name in ("Major", "Faction", "Side", "Aliases"):
        table.add_column(name)
    for major in rs.majors.values():
        table.add_row(
            major.name,
            rs.factions[major.faction].title,
            major.faction.side.value,
            ", ".join(major.aliases),
        )
    yield table
    assoc = Table(title="Association partners (82.81, 82.82)", title_justify="left")
    for name in ("Faction", "Attacked by it: associates with", "It joins the war: associates with"):
        assoc.add_column(name)
    for faction, entry in rs.association.items():
        assoc.add_row(rs.factions[faction].title, entry.on_attack, entry.on_joining)
    yield assoc
    yield Text(
        "\n".join(f"Cost {key}: {cost.brps} BRPs — {cost.note}" for key, cost in rs.costs.items())
    )


def _diplomacy(rs: Ruleset) -> Iterator[RenderableType]:
    table = Table(title="Diplomatic results (82.21, 82.31)", title_justify="left")
    for name in ("Result", "Effect", "Status", "BRPs", "Hexes"):
        table.add_column(name)
    for result, entry in sorted(rs.diplomatic_results.items()):
        if entry.effect is ScaleEffect.SET:
            level = rs.diplomatic_levels[entry.level]
            where = " (Europe only)" if level.europe_only else ""
            assert entry.side is not None
            table.add_row(
                str(result),
                f"{entry.side.value}: {entry.level.name.lower()}{where}",
                level.status.value,
                level.brps,
                "yes" if level.hexes else "-",
            )
        else:
            table.add_row(str(result), entry.note or entry.effect, "", "", "")
    yield table
    low, high = min(rs.diplomatic_results), max(rs.diplomatic_results)
    lines = [f"Results beyond {low}..{high} count as the nearest end of the scale."]
    for key, rule in rs.brp_rules.items():
        mark = ILLUSTRATIVE if rule.illustrative else ""
        lines.append(f"{key}{mark}: {rule.note}")
    yield Text("\n".join(lines))


def _limits(rs: Ruleset) -> Iterator[RenderableType]:
    table = Table(title="Foreign-factor limits (82.32, 82.321, 82.322)", title_justify="left")
    for name in (
        "Limit",
        "Factors",
        "Armor units",
        "Side",
        "Always",
        "Exempt kinds",
        "Exempt owners",
        "Clause",
    ):
        table.add_column(name)
    for key, limit in rs.limits.items():
        table.add_row(
            key,
            str(limit.factors),
            str(limit.max_armor_units or "-"),
            limit.side.value if limit.side else "any foreign",
            "yes" if limit.always else "-",
            ", ".join(limit.exempt_kinds),
            ", ".join(limit.exempt_owners) or "-",
            limit.clause,
        )
    yield table
    yield Text(
        "\n".join(
            f"{', '.join(g.minors)} count as one country ({g.clause})"
            for g in rs.limit_groups.values()
        )
    )


def _clauses(rs: Ruleset) -> Iterator[RenderableType]:
    table = Table(title="Clause registry (AWAW 82, ASL A25)", title_justify="left")
    for name in ("Clause", "Kind", "Title"):
        table.add_column(name)
    for clause in rs.clauses.values():
        table.add_row(clause.id, clause.kind.value, clause.title)
    yield table


VIEWS: dict[str, tuple[Callable[[Ruleset], Iterator[RenderableType]], tuple[str, ...]]] = {
    "forces": (_forces, ("forces", "force_footnotes", "forces_by_result")),
    "commonwealth": (_commonwealth, ("commonwealth", "commonwealth_layout", "commonwealth_notes")),
    "minors": (_minors, ("minors",)),
    "powers": (_powers, ("factions", "majors", "association", "costs")),
    "diplomacy": (_diplomacy, ("diplomatic_results", "diplomatic_levels", "brp_rules")),
    "limits": (_limits, ("limits", "limit_groups")),
    "clauses": (_clauses, ("clauses",)),
}


def view(rs: Ruleset, name: str) -> RenderableType:
    """The readable view called `name` (see `VIEWS`)."""
    render, _ = VIEWS[name]
    return Group(*render(rs))


def _close(name: str, candidates: Iterable[str]) -> tuple[str, ...]:
    """The candidates closest to `name`, compared case-insensitively."""
    lowered = {c.lower(): c for c in candidates}
    return tuple(lowered[c] for c in close_matches(name.lower(), lowered, n=3))


def table_sections(rs: Ruleset, name: str) -> tuple[str, ...]:
    """The sections `minors tables NAME` shows: a view's, or the one table NAME; an unknown
    NAME that is an entry of some tables (`Sweden`) is answered with the command showing it."""
    key = name.lower()
    if key in VIEWS:
        return VIEWS[key][1]
    if key in SECTIONS:
        return (key,)
    if len(name) > LONGEST_NAME:
        raise UnknownNameError("table", name, (), "`minors tables --help` lists the tables")
    holders = [v for v, (_, sections) in VIEWS.items() if entry_keys(rs, sections, name)]
    holders += [s for s in SECTIONS if s not in holders and entry_keys(rs, (s,), name)]
    holders.sort(key=lambda holder: holder != "minors")  # a country's own entry first
    hint = (
        f"{name!r} is an entry of {', '.join(holders)}: try `minors tables {holders[0]} {name}`"
        if holders
        else "`minors tables --help` lists the tables"
    )
    raise UnknownNameError("table", name, _close(name, [*VIEWS, *SECTIONS]), hint)


def entry_keys(rs: Ruleset, sections: tuple[str, ...], entry: str) -> dict[str, Any]:
    """The key of `entry` in each of `sections` holding it, in any case or by any country name."""
    try:
        canonical = rs.resolve(entry)
    except UnknownNameError:
        canonical = entry
    found: dict[str, Any] = {}
    if len(entry) > LONGEST_NAME:
        return found
    for section in sections:
        keys = {str(k).lower(): k for k in getattr(rs, section)}
        for wanted in (entry, canonical):
            if wanted.lower() in keys:
                found[section] = keys[wanted.lower()]
                break
    return found


def find_entry(rs: Ruleset, name: str, entry: str) -> dict[str, Any]:
    """The key of `entry` in each section of the view or table `name` that holds it (an
    UnknownNameError with the closest keys when none does)."""
    sections = table_sections(rs, name)
    found = entry_keys(rs, sections, entry)
    if not found:
        keys = [str(k) for section in sections for k in getattr(rs, section)]
        raise UnknownNameError(f"{name.lower()} entry", entry, _close(entry, keys))
    return found


def _value_text(value: Any) -> str:
    """A field's value as a cell: lists joined, tables as JSON, nothing as a dash."""
    if value in (None, "", [], {}):
        return "-"
    if isinstance(value, list):
        return ", ".join(map(_value_text, value))
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def entry_view(rs: Ruleset, name: str, entry: str) -> RenderableType:
    """Each field of the entry `entry` of the view or table `name`, in each section holding it."""
    parts: list[RenderableType] = []
    for section, data in entry_json(rs, name, entry).items():
        for key, record in data.items():
            table = Table(title=f"{section}.{key}", title_justify="left")
            table.add_column("Field", no_wrap=True)
            table.add_column("Value")
            for field_name, value in record.items():
                table.add_row(field_name, _value_text(value))
            parts.append(table)
    return Group(*parts)


def entry_json(rs: Ruleset, name: str, entry: str) -> dict[str, Any]:
    """`{section: {key: record}}` for the entry `entry` of the view or table `name`."""
    return {
        section: {str(key): CONVERTER.unstructure(getattr(rs, section)[key])}
        for section, key in find_entry(rs, name, entry).items()
    }


def sections_json(rs: Ruleset, sections: tuple[str, ...]) -> dict[str, Any]:
    """The records of `sections` as plain JSON data."""
    return {
        section: {str(k): CONVERTER.unstructure(v) for k, v in getattr(rs, section).items()}
        for section in sections
    }
