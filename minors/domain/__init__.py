"""Domain values as enums: statuses, factions, theaters, the kinds the tables use, rule 82's
command kinds (`clock`: moments and phases; `units`: units; `a25`: ASL A25's vocabulary)."""

from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = [
    "BrpRuleKind",
    "BrpShare",
    "ClauseKind",
    "CommandKind",
    "DiplomaticLevel",
    "Faction",
    "FootnoteKind",
    "LedgerKind",
    "ProvenanceKind",
    "Rounding",
    "ScaleEffect",
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


class ScaleEffect(StrEnum):
    """What a value of the diplomatic scale does to the standing result (82.21, 82.31)."""

    SET = "set"
    """Sets a new standing of its side and level (7+ / 0−)."""
    KEEP = "keep"
    """Keeps whatever stands (3–4)."""
    KEEP_AXIS = "keep_axis"
    """Keeps a pro-Axis standing, cancels a pro-Allied one (5–6)."""
    KEEP_ALLIES = "keep_allies"
    """Keeps a pro-Allied standing, cancels a pro-Axis one (1–2)."""


class BrpShare(StrEnum):
    """How much of a minor's BRPs a standing level gives its holder (82.21A-B)."""

    NONE = "none"
    PARTIAL = "partial"
    ALL = "all"


class BrpRuleKind(StrEnum):
    """How a BRP amount is worked out: a fixed amount, a fraction, or 82.22's proration."""

    FIXED = "fixed"
    FRACTION = "fraction"
    PRORATION = "proration"


class ProvenanceKind(StrEnum):
    """Where values that are not the rulebook's come from (docs/tables.md)."""

    ILLUSTRATIVE = "illustrative"
    """A stand-in the rulebook does not make public: replace it with your own."""
    PUBLIC = "public"
    """From public material about the game, not from the rule text."""
    READING = "reading"
    """A reading of an ambiguous or silent text (docs/rules.md)."""


class LedgerKind(StrEnum):
    """What a BRP ledger entry records (82.21, 82.22, K6)."""

    GRANT = "grant"
    """BRPs a standing gives a major power."""
    DEDUCTION = "deduction"
    """A grant undone (82.22: prorated, naming the grant)."""
    COST = "cost"
    """BRPs spent (a declaration of war, K6)."""


class CommandKind(StrEnum):
    """The commands of rule 82's scenario vocabulary (scenario-format.md)."""

    DIPLOMATIC_RESULT = "diplomatic_result"
    DECLARE_WAR = "declare_war"
    BORDER_WAR = "border_war"
    SUBVERT = "subvert"
    CONQUER = "conquer"
    REFUSE_ASSOCIATION = "refuse_association"
    SURRENDER = "surrender"
    REENTER_WAR = "reenter_war"
    PLACE = "place"
    MOVE = "move"
    REMOVE = "remove"
    DEPLOY = "deploy"
    TRACE_SUPPLY = "trace_supply"
    CHOOSE_LOSSES = "choose_losses"
