"""Units on the map, and the unit kinds of the scenario format."""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

__all__ = ["GROUND", "Unit", "UnitKind", "moved"]


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


_SETTERS = tuple(
    vars(Unit)[n].__set__ for n in ("id", "owner", "kind", "factors", "country", "hex")
)


def moved(unit: Unit, country: str, hex_label: str | None) -> Unit:
    """`unit` in `country` (at `hex_label`), its slots set directly: half the cost of
    `Unit(...)`, and a move is a search's commonest command."""
    set_id, set_owner, set_kind, set_factors, set_country, set_hex = _SETTERS
    new: Unit = object.__new__(Unit)
    set_id(new, unit.id)
    set_owner(new, unit.owner)
    set_kind(new, unit.kind)
    set_factors(new, unit.factors)
    set_country(new, country)
    set_hex(new, hex_label)
    return new
