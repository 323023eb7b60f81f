"""The picture of a simulation as one self-contained HTML page (`minors simulate --html`),
in the style and colours of `minors report`'s page."""

from __future__ import annotations

import math
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ..audit.page import STATUS_COLOURS, major_colours
from ..domain import Status
from ..ruleset.tables import Ruleset
from .report import difference_cells, shown

__all__ = ["render", "write"]

_ENVIRONMENT = Environment(
    loader=PackageLoader("minors.scale", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
CSS = resources.files("minors.audit").joinpath("templates", "report.css")
LEFT = 150.0
COLUMN = 44.0
PITCH = 20


def _short(label: str) -> str:
    """`Wi39` for `1939-winter` (and for `1939-winter (horizon)`): a column's head."""
    year, season = label.split(" ")[0].split("-")
    return f"{season[:2].title()}{year[2:]}"


def _grid(summary: dict[str, Any]) -> dict[str, Any]:
    """The status bars of one side: a row per minor, a column per season."""
    seasons = summary["seasons"]
    n = summary["completed"]  # the figures count the campaigns that reached the horizon
    rows = []
    for r, (minor, data) in enumerate(summary["minors"].items()):
        y = 24 + r * PITCH
        cells = []
        for s, label in enumerate(seasons):
            counts = data["seasons"][label]["status"]
            x = LEFT + s * COLUMN + 1
            parts = []
            for status in Status:
                k = counts.get(status.value, 0)
                if k:
                    w = (COLUMN - 2) * k / n
                    parts.append(
                        {"x": round(x, 2), "w": round(w, 2), "fill": STATUS_COLOURS[status]}
                    )
                    x += w
            text = ", ".join(f"{k} {name}" for name, k in counts.items()) or "not in play"
            cells.append({"parts": parts, "title": f"{minor}, {label}: {text}"})
        rows.append({"minor": minor, "y": y, "cells": cells})
    return {
        "left": LEFT,
        "width": math.ceil(LEFT + COLUMN * len(seasons) + 10),
        "height": 30 + len(rows) * PITCH,
        "seasons": [
            {"x": LEFT + (i + 0.5) * COLUMN, "label": _short(label)}
            for i, label in enumerate(seasons)
        ],
        "rows": rows,
    }


def _end(point: dict[str, Any], end: str) -> float:
    """An end of a point's band: its value where the interval is unbounded (one campaign)."""
    value: float = point["value"] if point[end] is None else point[end]
    return value


def _chart(summary: dict[str, Any], colours: dict[str, str]) -> dict[str, Any]:
    """The BRP credits of one side: a line per major, its interval as a band."""
    seasons = summary["seasons"]
    top, plot = 12, 200
    values = [
        v
        for major in summary["brps"].values()
        for s in major["seasons"].values()
        for v in (s["value"], s["low"], s["high"])
        if v is not None
    ]
    low, high = float(min([0.0, *values])), float(max([0.0, *values]))
    span = max(high - low, 1.0)

    def y(value: float) -> float:
        return round(top + (high - value) / span * plot, 2)

    def x(i: int) -> float:
        return round(LEFT + (i + 0.5) * COLUMN, 2)

    series = []
    for major, data in summary["brps"].items():
        points = [data["seasons"][label] for label in seasons]
        upper = [f"{x(i)},{y(_end(p, 'high'))}" for i, p in enumerate(points)]
        lower = [f"{x(i)},{y(_end(p, 'low'))}" for i, p in reversed(list(enumerate(points)))]
        series.append(
            {
                "major": major,
                "colour": colours.get(major, "#555"),
                "line": " ".join(f"{x(i)},{y(p['value'])}" for i, p in enumerate(points)),
                "band": " ".join(upper + lower),
                "points": [
                    {"x": x(i), "y": y(p["value"]), "title": f"{major}, {label}: {shown(p)} BRPs"}
                    for i, (p, label) in enumerate(zip(points, seasons, strict=True))
                ],
                "last": f"{data['at_horizon']['value']:+.1f}",
            }
        )
    step = 10 ** max(0, math.floor(math.log10(span)))
    ticks = [
        {"value": v, "y": y(v)}
        for v in range(int(math.floor(low / step) * step), int(high) + 1, int(step))
        if low <= v <= high
    ]
    return {
        "left": LEFT,
        "right": LEFT + COLUMN * len(seasons),
        "width": math.ceil(LEFT + COLUMN * len(seasons) + 10),
        "height": top + plot + 16,
        "ticks": ticks,
        "series": series,
    }


def render(document: dict[str, Any], rs: Ruleset) -> str:
    """The page of a simulation's JSON document (`minors simulate --json`)."""
    colours = major_colours((name, m.faction) for name, m in rs.majors.items())
    sides = [{"heading": "The rules", "grid": _grid(document), "chart": _chart(document, colours)}]
    versus = document.get("versus")
    differences = []
    if versus is not None:
        sides[0]["heading"] = "Base rules"
        sides.append({"heading": "Versus", "grid": _grid(versus), "chart": _chart(versus, colours)})
        for d in versus["differences"]:
            base, other, text, p = difference_cells(d)
            differences.append(
                {**d, "base_text": base, "versus_text": other, "text": text, "p_text": p}
            )
    clauses = [
        {"rule": rule, "mean": shown(c["per_campaign"]), "share": shown(c["campaigns"], True)}
        for rule, c in document["clauses"].items()
    ]
    return _ENVIRONMENT.get_template("simulation.html.j2").render(
        title=f"minors simulate: {document['campaigns']} campaigns to {document['horizon']}",
        doc=document,
        css=Markup(CSS.read_text("utf-8")),
        sides=sides,
        versus=versus is not None,
        differences=differences,
        clauses=clauses,
        statuses=[{"name": s.value, "fill": STATUS_COLOURS[s]} for s in Status],
    )


def write(document: dict[str, Any], rs: Ruleset, path: str | Path) -> None:
    """Write the page of a simulation to `path` (UTF-8)."""
    Path(path).write_text(render(document, rs), encoding="utf-8")
