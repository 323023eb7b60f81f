"""The picture of a game as one self-contained HTML page (`minors report LOG --html OUT`,
`minors run --html OUT`), drawn through the jinja2 templates beside this module; its
Content-Security-Policy lets it load nothing (docs/report.md)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from itertools import groupby
from pathlib import Path
from typing import Any

from attrs import frozen
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ..domain import Faction, Status
from .story import Story, Turn

__all__ = ["MAJOR_PALETTES", "STATUS_COLOURS", "major_colours", "render", "status_diagram", "write"]

STATUS_COLOURS: Mapping[Status, str] = {
    Status.NEUTRAL: "#e4e7eb",
    Status.BRPS_ATTRIBUTED: "#fbe7a1",
    Status.HEXES_CONTROLLED: "#f6c177",
    Status.INDEPENDENT: "#f1a7a0",
    Status.ASSOCIATED: "#a9dcb5",
    Status.ALLIED: "#5fbf8f",
    Status.CONQUERED: "#9d8ac7",
    Status.COLONY: "#d8c3a0",
    Status.COMMONWEALTH: "#a9c8ec",
}
"""A season's cell by the minor's 82.11 status: pale, so the major's strip stands out."""

MAJOR_PALETTES: Mapping[Faction, tuple[str, ...]] = {
    Faction.AXIS: ("#3f3f46", "#15803d", "#a21caf", "#78350f"),
    Faction.WESTERN_ALLIES: ("#1d4ed8", "#0e98b8", "#ca8a04", "#0f766e"),
    Faction.RUSSIA: ("#b91c1c", "#9f1239"),
}
"""Strong colours for the major powers, a palette a faction."""


def major_colours(majors: Iterable[tuple[str, Faction]]) -> dict[str, str]:
    """A colour for each major power: its faction's palette in the order of the tables."""
    used: Counter[Faction] = Counter()
    out: dict[str, str] = {}
    for name, faction in majors:
        palette = MAJOR_PALETTES[faction]
        out[name] = palette[used[faction] % len(palette)]
        used[faction] += 1
    return out


ROW = 18  # the height of a minor's band
PITCH = 22  # from one band to the next
HEAD = 44  # the timeline's header: a row of years over a row of seasons
STRIP = 5  # the height of the major's strip at the foot of a cell
DODGE = 3.0  # how far apart the chart draws lines of majors with equal credits
SEASON_SHORT = {"spring": "Spr", "summer": "Sum", "fall": "Fall", "winter": "Win"}


@frozen
class Grid:
    """The columns shared by the timeline and the chart, so a season lines up in both."""

    left: float
    column: float
    turns: tuple[Turn, ...]

    @property
    def right(self) -> float:
        return self.left + self.column * len(self.turns)

    def x(self, index: int) -> float:
        return self.left + index * self.column

    def centre(self, index: int) -> float:
        return self.left + (index + 0.5) * self.column


def _grid(story: Story) -> Grid:
    longest = max((len(b.minor) for b in story.bands), default=8)
    left = min(max(110.0, longest * 7.2 + 24), 220.0)
    column = min(max(900 / max(len(story.turns), 1), 26.0), 72.0)
    return Grid(left, round(column, 2), story.turns)


def _years(grid: Grid) -> Iterator[dict[str, Any]]:
    """The header's years: each centred over its seasons, with a rule where it begins."""
    for year, group in groupby(enumerate(grid.turns), key=lambda item: item[1].year):
        columns = [index for index, _ in group]
        first, last = columns[0], columns[-1]
        yield {
            "label": str(year),
            "x": (grid.x(first) + grid.x(last + 1)) / 2,
            "rule": grid.x(first),
        }


def _timeline(story: Story, grid: Grid, colours: Mapping[str, str]) -> dict[str, Any]:
    short = grid.column >= 34
    seasons = [
        {
            "x": grid.centre(i),
            "x0": grid.x(i),
            "w": grid.column,
            "label": SEASON_SHORT[t.season.value] if short else t.season.value[:2].title(),
            "key": t.key,
            "title": t.label,
        }
        for i, t in enumerate(grid.turns)
    ]
    bands = []
    for row, band in enumerate(story.bands):
        cells = []
        for i, (turn, cell) in enumerate(zip(grid.turns, band.cells, strict=True)):
            base = {"x": grid.x(i) + 1, "w": grid.column - 2, "turn": turn.key}
            if cell is None:
                title = f"{band.minor}, {turn.label}: not in play"
                cells.append({**base, "absent": True, "title": title})
                continue
            tie = f" ({cell.major})" if cell.major else ""
            title = "\n".join(
                [f"{band.minor}, {turn.label}: {cell.status.value}{tie}", *cell.changes]
            )
            cells.append(
                {
                    **base,
                    "absent": False,
                    "fill": STATUS_COLOURS[cell.status],
                    "status": cell.status.value,
                    "major": cell.major or "",
                    "strip": colours.get(cell.major or "", ""),
                    "changed": bool(cell.changes),
                    "title": title,
                }
            )
        bands.append({"minor": band.minor, "y": HEAD + row * PITCH, "cells": cells})
    return {
        "width": math.ceil(grid.right + 12),
        "height": HEAD + len(story.bands) * PITCH + 4,
        "left": grid.left,
        "right": grid.right,
        "head": HEAD,
        "pitch": PITCH,
        "row": ROW,
        "strip": STRIP,
        "years": list(_years(grid)),
        "seasons": seasons,
        "bands": bands,
    }


def _ticks(low: int, high: int) -> list[int]:
    """About five round values from `low` to `high` (0 among them)."""
    span = max(high - low, 1)
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    stop = math.ceil(high / step) * step
    return list(range(int(start), int(stop) + 1, int(step)))


def _chart(story: Story, grid: Grid, colours: Mapping[str, str]) -> dict[str, Any]:
    top, plot = 16, 220
    values = [v for series in story.brps.values() for v in series]
    ticks = _ticks(min([0, *values]), max([0, *values]))
    low, high = ticks[0], ticks[-1]

    def y(value: int) -> float:
        return round(top + (high - value) / max(high - low, 1) * plot, 2)

    # Majors with the same credits in a season are drawn a little apart, so that no line
    # hides another; the exact figure is in each point's title.
    dodge: dict[tuple[str, int], float] = {}
    for i in range(len(grid.turns)):
        tied: dict[int, list[str]] = {}
        for name, _ in story.majors:
            tied.setdefault(story.brps[name][i], []).append(name)
        for names in tied.values():
            for j, name in enumerate(names):
                dodge[name, i] = (j - (len(names) - 1) / 2) * DODGE
    series = []
    for name, _ in story.majors:
        points = [
            {
                "x": round(grid.centre(i), 2),
                "y": round(y(v) + dodge[name, i], 2),
                "title": f"{name}, {t.label}: {v:+d} BRPs",
            }
            for i, (t, v) in enumerate(zip(grid.turns, story.brps[name], strict=True))
        ]
        series.append(
            {
                "major": name,
                "colour": colours[name],
                "points": points,
                "path": " ".join(f"{p['x']},{p['y']}" for p in points),
                "last": story.brps[name][-1] if story.brps[name] else 0,
            }
        )
    return {
        "width": math.ceil(grid.right + 12),
        "height": top + plot + 34,
        "left": grid.left,
        "right": grid.right,
        "top": top,
        "bottom": top + plot,
        "zero": y(0),
        "ticks": [{"value": t, "y": y(t)} for t in ticks],
        "seasons": [
            {"x": grid.centre(i), "label": t.label, "key": t.key} for i, t in enumerate(grid.turns)
        ],
        "label_every": max(1, math.ceil(90 / grid.column)),
        "series": series,
    }


_ENVIRONMENT = Environment(
    loader=PackageLoader("minors.audit", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


def status_diagram() -> Markup:
    """The status diagram of docs/statuses.svg as an inline SVG element."""
    text = resources.files("minors.audit").joinpath("templates", "statuses.svg").read_text("utf-8")
    start = text.index("<svg")
    svg = re.sub(r"<!--.*?-->\n?", "", text[start:], flags=re.S)
    svg = re.sub(r'<svg width="[^"]*"\s+height="[^"]*"', '<svg class="diagram"', svg, count=1)
    # each status box filled as the timeline fills that status
    svg = re.sub(
        r'(<g id="node\d+" class="node">\s*<title>(\w+)</title>\s*<path fill=")none"',
        lambda m: f'{m.group(1)}{STATUS_COLOURS[Status(m.group(2))]}"',
        svg,
    )
    return Markup(svg.replace("<svg ", '<svg role="img" aria-label="status diagram" ', 1))


def render(story: Story) -> str:
    """The page of `story`: one HTML document that needs nothing else."""
    colours = major_colours(story.majors)
    grid = _grid(story)
    used = {c.status for b in story.bands for c in b.cells if c is not None}
    counts = Counter(event.turn for event in story.events)  # for the filter of seasons
    return _ENVIRONMENT.get_template("report.html.j2").render(
        story=story,
        first=story.turns[0].label if story.turns else story.start,
        last=story.turns[-1].label if story.turns else story.start,
        timeline=_timeline(story, grid, colours),
        chart=_chart(story, grid, colours),
        statuses=[{"name": s.value, "fill": STATUS_COLOURS[s], "used": s in used} for s in Status],
        majors=[{"name": name, "colour": colours[name]} for name, _ in story.majors],
        seasons=[{"key": t.key, "label": t.label, "count": counts[t.key]} for t in story.turns],
        minors=[b.minor for b in story.bands],
        diagram=status_diagram(),
    )


def write(story: Story, path: str | Path) -> None:
    """Write the page of `story` to `path` (UTF-8)."""
    Path(path).write_text(render(story), encoding="utf-8")
