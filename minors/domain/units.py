"""Units on the map, and the unit kinds of the scenario format."""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

__all__ = ["GROUND", "Unit", "UnitKind"]


class UnitKind(StrEnum):
    """What a unit is; bases and forts are exempt from the foreign-factor limit (82.321C)."""

    INFANTRY = "infantry"
    ARMOR = "armor"
    AIR = "air"
    NAVAL = "naval"
    PARTISAN = "partisan"
    AIRBASE = "airbase"
    ROCKET_BASE = "rocket_base"
    RAILHEAD = "railhead"
    FORT = "fort"


GROUND = frozenset({UnitKind.INFANTRY, UnitKind.ARMOR, UnitKind.PARTISAN})
"""Ground units: they hold a capital and deploy in it (82.54)."""


@frozen
class Unit:
    """A unit on the map: `owner` is a major power or a minor country; `country` where it is."""

    id: str
    owner: str
    kind: UnitKind
    factors: int
    country: str
    hex: str | None = None
