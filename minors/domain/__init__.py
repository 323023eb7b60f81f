"""Domain values as enums: statuses, factions, theaters and the kinds used by the tables."""

from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = [
    "ClauseKind",
    "DiplomaticLevel",
    "Faction",
    "FootnoteKind",
    "Rounding",
    "Season",
    "Side",
    "Status",
    "Theater",
]


class Status(StrEnum):
    """The nine categories a minor country always falls into (82.11)."""

    NEUTRAL = "neutral"
    """82.11A: not at war and tied to no major power."""
    INDEPENDENT = "independent"
    """82.11B: at war, but none of associated, allied, conquered, colony or commonwealth."""
    BRPS_ATTRIBUTED = "brps_attributed"
    """82.11C, 82.21: some or all of its BRPs go to a major power."""
    HEXES_CONTROLLED = "hexes_controlled"
    """82.11D, 82.31: a major power controls its hexes."""
    ASSOCIATED = "associated"
    """82.11E, 82.81: associated with a major power."""
    ALLIED = "allied"
    """82.11F: an activated minor ally of a major power."""
    CONQUERED = "conquered"
    """82.11G: conquered by a major power."""
    COLONY = "colony"
    """82.11H: a colony of a major power."""
    COMMONWEALTH = "commonwealth"
    """82.11I, 82.13: Canada, South Africa, Australia and India."""


class Side(StrEnum):
    """The two sides of the war: a game turn has an Axis, then an Allied player turn."""

    AXIS = "axis"
    ALLIES = "allies"


class Faction(StrEnum):
    """Alliance factions; the Western Allies and Russia are both on the Allied side."""

    AXIS = "axis"
    WESTERN_ALLIES = "western_allies"
    RUSSIA = "russia"

    @property
    def side(self) -> Side:
        """The side of the war the faction plays on."""
        return Side.AXIS if self is Faction.AXIS else Side.ALLIES


class Theater(StrEnum):
    """The theater a minor country belongs to (82.5 is European, 82.9 Pacific)."""

    EUROPE = "europe"
    PACIFIC = "pacific"


class ClauseKind(StrEnum):
    """What a clause of the registry is."""

    RULE = "rule"
    PROCEDURE = "procedure"
    INFORMATIONAL = "informational"
    SUPERSEDED = "superseded"
    MISSING_TEXT = "missing-text"


class FootnoteKind(StrEnum):
    """The structured meanings of the footnote marks of the 82.61 forces table."""

    ALSO_COVERS = "also_covers"
    """`*`: the row also covers the minors listed."""
    DEPENDS_ON_RESULT = "depends_on_result"
    """`†`: the marked forces depend on the current diplomatic result."""
    SHIPS = "ships"
    """`§`: named ships the minor receives."""
    ANNUAL_PARTISANS = "annual_partisans"
    """`**`: a further partisan each year from a given year."""


class DiplomaticLevel(IntEnum):
    """How far a standing diplomatic result goes; each level includes the ones below."""

    NONE = 0
    BRPS = 1
    """7 / 0: some of the minor's BRPs (82.21A)."""
    CONTROL = 2
    """8 / −1: all its BRPs and control of its hexes (82.21B, 82.31)."""
    ASSOCIATION = 3
    """9 / −2: association with the major power (Europe only)."""
    ALLIANCE = 4
    """10 / −3: the minor becomes an activated minor ally."""


class Rounding(StrEnum):
    """How a prorated BRP amount is rounded to an integer (82.22)."""

    FLOOR = "floor"
    CEILING = "ceiling"
    HALF_UP = "half_up"


class Season(StrEnum):
    """The four game turns of a year, in order; a Year Start Sequence precedes Spring."""

    SPRING = "spring"
    SUMMER = "summer"
    FALL = "fall"
    WINTER = "winter"
