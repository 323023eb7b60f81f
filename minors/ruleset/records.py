"""Frozen, validated records of rule 82's tables and the clause registry (A25's: `a25`)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import attrs
from attrs import field, frozen

from ..domain import (
    BrpRuleKind,
    BrpShare,
    ClauseKind,
    DiplomaticLevel,
    Faction,
    FootnoteKind,
    ProvenanceKind,
    Rounding,
    ScaleEffect,
    Side,
    Status,
    Theater,
)
from ..domain.units import UnitKind
from ..errors import FieldError

__all__ = [
    "ArrivalRow",
    "Association",
    "BrpRule",
    "Clause",
    "CommonwealthNote",
    "CommonwealthZone",
    "Cost",
    "Count",
    "DeploymentRule",
    "FactionEntry",
    "FieldError",
    "Footnote",
    "ForceRow",
    "ForceUnit",
    "LevelEffect",
    "Limit",
    "LimitGroup",
    "Major",
    "Minor",
    "Partisans",
    "Provenance",
    "ResultForces",
    "ResultStep",
    "ScaleEntry",
    "Ship",
    "Start",
    "StartPending",
    "non_empty",
    "non_negative",
]


def non_negative(_: Any, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 0:
        raise FieldError(attribute.name, f"{value!r} is negative", "give a count of 0 or more")


def non_empty(_: Any, attribute: attrs.Attribute[str], value: str) -> None:
    if not value.strip():
        raise FieldError(attribute.name, "is empty", "give a non-empty text")


CLAUSE_ID = re.compile(r"^[A-Z]{0,3}\d+(\.\d+)*[A-Z]?(-\w+)?$")
"""A clause id: rule 82's `82.34` and `82.11A`, A25's `A25.85` and `A25.231-1E`, and the
ids of other rule texts and rulebooks (`83.1`, `K1`, a house rule's `H1`)."""


@frozen
class Clause:
    """One numbered paragraph or lettered sub-clause of a rule text (rule 82, chapter A25),
    or a rule of a rulebook's own (the kernel ids K1 ..., a house rule's H1 ...)."""

    id: str = field()
    title: str = field(validator=non_empty)
    kind: ClauseKind
    source: str = field(validator=non_empty)
    """The rule text it belongs to: `awaw-82`, `asl-a25`, or a rulebook's own name."""
    parent: str = ""
    note: str = ""

    @id.validator
    def _check_id(self, attribute: attrs.Attribute[str], value: str) -> None:
        if not CLAUSE_ID.match(value):
            raise FieldError(
                "id",
                f"{value!r} is not a clause id",
                "write ids like '82.34', '82.11A', 'A25.85' or 'H1'",
            )


@frozen
class FactionEntry:
    """An alliance faction: the Axis, the Western Allies or Russia."""

    name: Faction
    title: str = field(validator=non_empty)

    @property
    def side(self) -> Side:
        """The side of the war it plays on."""
        return self.name.side


@frozen
class Major:
    """A major power and its faction."""

    name: str
    faction: Faction
    aliases: tuple[str, ...] = ()
    home: str = ""
    """The major power's home country, as `in`/`to` name it (defaults to its own name)."""
    communist: bool = False
    """82.36: its subversion of minors is Communist subversion."""


@frozen
class Minor:
    """A minor country of rule 82: theater, colony, armed forces, start, BRPs and map."""

    name: str
    theater: Theater
    start_status: Status
    aliases: tuple[str, ...] = ()
    colony_of: str = ""
    armed_forces: bool = True
    armed_forces_exception: str = ""
    start_major: str = ""
    start_at_war_with: tuple[str, ...] = ()
    active: bool = True
    brps: int = field(default=0, validator=non_negative)
    capital: str = ""
    capital_adjacent: tuple[str, ...] = ()
    key_hexes: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    appears_on_fall_of: str = ""
    """A minor in play only once this major power has fallen (Vichy France, France)."""
    redeploys: bool = False
    """82.83A: an independent minor that may also redeploy (Vichy France)."""
    colonies_open_to: tuple[str, ...] = ()
    """82.41 (77.61): the powers that may attack its colonies without a declaration."""
    illustrative: bool = False
    clauses: tuple[str, ...] = ()
    note: str = ""

    def __attrs_post_init__(self) -> None:
        named = [("capital_adjacent", h) for h in self.capital_adjacent]
        named += [("key_hexes", h) for h in self.key_hexes]
        named += [("capital", self.capital)] if self.capital else []
        for name, hex_label in named:
            if hex_label not in self.hexes:
                raise FieldError(
                    name, f"hex {hex_label!r} is not among the country's hexes", "add it to hexes"
                )
        if self.start_status is Status.COLONY and not self.colony_of:
            raise FieldError(
                "colony_of", "a colony at the start must name its major power", "set colony_of"
            )

    @property
    def conquest_hexes(self) -> tuple[str, ...]:
        """The hexes whose control conquers the minor: its key hexes, else its capital."""
        if self.key_hexes:
            return self.key_hexes
        return (self.capital,) if self.capital else ()


@frozen
class Count:
    """A force count as printed; `bracket` keeps a bracketed figure `n[m]` whose meaning the
    text does not give."""

    value: int = field(validator=non_negative)
    bracket: int | None = None

    def __str__(self) -> str:
        if self.value == 0 and self.bracket is None:
            return "-"
        return f"{self.value}[{self.bracket}]" if self.bracket is not None else str(self.value)


@frozen
class Partisans:
    """A partisan cell: `automatic` appear by themselves, up to `maximum` may be built."""

    automatic: int = field(validator=non_negative)
    maximum: int = field(validator=non_negative)

    def __attrs_post_init__(self) -> None:
        if self.automatic > self.maximum:
            raise FieldError(
                "partisans",
                f"automatic {self.automatic} exceeds maximum {self.maximum}",
                "write automatic:maximum with automatic <= maximum",
            )

    def __str__(self) -> str:
        if self.maximum == 0:
            return "-"
        if self.automatic == self.maximum:
            return str(self.maximum)
        return f"{self.automatic}:{self.maximum}"


EUROPE_COLUMNS = (
    "army_2_3", "army_1_3", "army_2_5", "air_af", "naval_ca", "naval_dd",
    "partisans_ax", "partisans_wa", "partisans_ru",
)  # fmt: skip
PACIFIC_COLUMNS = (
    "army_2_2", "army_1_2", "air_af", "naval_ca", "naval_dd",
    "partisans_ax", "partisans_wa", "partisans_ru",
)  # fmt: skip
COLUMNS = {Theater.EUROPE: EUROPE_COLUMNS, Theater.PACIFIC: PACIFIC_COLUMNS}
COLUMN_LABELS = {
    "army_2_3": "2-3", "army_1_3": "1-3", "army_2_5": "2-5", "army_2_2": "2-2",
    "army_1_2": "1-2", "army_4_5": "4-5", "army_3_4": "3-4", "air_af": "AF", "air_aaf": "AAF",
    "naval_ca": "CA", "naval_dd": "DD", "naval_ship": "Ship.", "partisans_ax": "Ax",
    "partisans_wa": "WA", "partisans_ru": "Ru",
}  # fmt: skip
COLUMN_GROUPS = {"army": "Army", "air": "Air", "naval": "Naval", "partisans": "Part."}


@frozen
class ForceRow:
    """One row of the Minor Country Forces Table (82.61), cell for cell; `-` is 0."""

    minor: str
    theater: Theater
    army_2_3: int = field(default=0, validator=non_negative)
    army_1_3: int = field(default=0, validator=non_negative)
    army_2_5: int = field(default=0, validator=non_negative)
    army_2_2: int = field(default=0, validator=non_negative)
    army_1_2: int = field(default=0, validator=non_negative)
    air_af: int = field(default=0, validator=non_negative)
    naval_ca: int = field(default=0, validator=non_negative)
    naval_dd: int = field(default=0, validator=non_negative)
    partisans_ax: Partisans = Partisans(0, 0)
    partisans_wa: Partisans = Partisans(0, 0)
    partisans_ru: Partisans = Partisans(0, 0)
    marks: dict[str, str] = field(factory=dict)
    """Footnote marks attached to single cells: column -> mark."""
    row_marks: tuple[str, ...] = ()
    """Footnote marks attached to the whole row (after the country's name)."""

    def __attrs_post_init__(self) -> None:
        columns = COLUMNS[self.theater]
        for name in (a.name for a in attrs.fields(ForceRow)):
            foreign = name.startswith(("army_", "air_", "naval_")) and name not in columns
            if foreign and getattr(self, name):
                raise FieldError(
                    name,
                    f"the {self.theater} table has no column {COLUMN_LABELS[name]!r}",
                    f"use one of {', '.join(columns)}",
                )
        for column in self.marks:
            if column not in columns:
                raise FieldError(
                    "marks",
                    f"{column!r} is not a column of the {self.theater} table",
                    f"use one of {', '.join(columns)}",
                )

    def cell(self, column: str) -> int | Partisans:
        """The value of one column."""
        value: int | Partisans = getattr(self, column)
        return value


@frozen
class Ship:
    """A ship named in a footnote (`§`: Turkey's cruiser and the Yavuz)."""

    kind: str
    factors: int = field(default=0, validator=non_negative)
    name: str = ""


@frozen
class Footnote:
    """A footnote of the forces table, as structured data (see `FootnoteKind`)."""

    mark: str
    kind: FootnoteKind
    text: str = field(validator=non_empty)
    minors: tuple[str, ...] = ()
    minor: str = ""
    ships: tuple[Ship, ...] = ()
    column: str = ""
    per_year: int = field(default=0, validator=non_negative)
    from_year: int = 0
    table: str = ""

    def __attrs_post_init__(self) -> None:
        needs = {
            FootnoteKind.ALSO_COVERS: ("minors",),
            FootnoteKind.DEPENDS_ON_RESULT: ("table",),
            FootnoteKind.SHIPS: ("minor", "ships"),
            FootnoteKind.ANNUAL_PARTISANS: ("minor", "column", "per_year", "from_year"),
        }[self.kind]
        for name in needs:
            if not getattr(self, name):
                raise FieldError(name, f"a {self.kind} footnote needs {name}", f"set {name}")


@frozen
class ResultStep:
    """For results from `min` to `max` on the diplomatic scale, `share` of the marked forces."""

    min: int
    max: int
    share: Fraction

    def __attrs_post_init__(self) -> None:
        if self.min > self.max:
            raise FieldError("steps", f"min {self.min} exceeds max {self.max}", "swap them")
        if not 0 <= self.share <= 1:
            raise FieldError(
                "steps", f"share {self.share} is not between 0 and 1", "give a share like '1/2'"
            )


@frozen
class ResultForces:
    """The `†` table: which share of a minor's marked forces each diplomatic result gives."""

    minor: str
    steps: tuple[ResultStep, ...]
    illustrative: bool = False
    note: str = ""

    def share(self, result: int | None) -> Fraction:
        """The share for the current result; none outside every step (or with no result)."""
        held = (s.share for s in self.steps if result is not None and s.min <= result <= s.max)
        return next(held, Fraction(0))


COMMONWEALTH_COLUMNS = (
    "army_4_5", "army_3_4", "army_2_2", "army_1_3", "army_1_2",
    "air_aaf", "naval_ca", "naval_dd", "naval_ship",
)  # fmt: skip


@frozen
class ArrivalRow:
    """One arrival of a Commonwealth country's forces (the British Commonwealth table, 82.61)."""

    key: str
    country: str
    arrival: str = field()
    army_4_5: Count = Count(0)
    army_3_4: Count = Count(0)
    army_2_2: Count = Count(0)
    army_1_3: Count = Count(0)
    army_1_2: Count = Count(0)
    air_aaf: Count = Count(0)
    naval_ca: Count = Count(0)
    naval_dd: Count = Count(0)
    naval_ship: Count = Count(0)

    @arrival.validator
    def _check_arrival(self, attribute: attrs.Attribute[str], value: str) -> None:
        if value != "at_start" and not re.match(r"^\d{4}-(spring|summer|fall|winter)$", value):
            raise FieldError(
                "arrival",
                f"{value!r} is not an arrival",
                "use 'at_start' or a season like '1940-fall'",
            )


@frozen
class CommonwealthLayout:
    """The columns a Commonwealth country's table prints, in order."""

    country: str
    columns: tuple[str, ...] = field()

    @columns.validator
    def _check_columns(
        self, attribute: attrs.Attribute[tuple[str, ...]], value: tuple[str, ...]
    ) -> None:
        for column in value:
            if column not in COMMONWEALTH_COLUMNS:
                raise FieldError(
                    "columns",
                    f"{column!r} is not a Commonwealth column",
                    f"use one of {', '.join(COMMONWEALTH_COLUMNS)}",
                )


@frozen
class CommonwealthNote:
    """A note or option under a table (the Commonwealth's extra infantry, India's partisans)."""

    key: str
    text: str = field(validator=non_empty)
    clause: str = ""
    countries: tuple[str, ...] = ()
    by: str = ""
    max_factors: int = field(default=0, validator=non_negative)
    combinations: tuple[tuple[str, ...], ...] = ()
    count: int = field(default=0, validator=non_negative)
    condition: str = ""
    latest: str = ""


@frozen
class Association:
    """82.81 / 82.82: the major power a surviving minor associates with."""

    faction: Faction
    on_attack: str
    """The partner when the minor survives an attack by this faction (82.81)."""
    on_joining: str
    """The partner when this faction goes to war with the minor's neutral attacker (82.82)."""
    deployed_by: tuple[str, ...] = field(validator=attrs.validators.min_len(1))
    """82.52: who sets up a minor this faction attacks: the first of them still in the war
    (the last if none is)."""


@frozen
class BorderWarRule:
    """82.41's exception: `attacker` attacks `minor` without a declaration of war (66.2, 67.2);
    82.52's: when `redeploy_when` then declares war on it, `redeploy_by` sets its units up again."""

    minor: str
    attacker: str
    redeploy_when: str = ""
    redeploy_by: str = ""


@frozen
class Alignment:
    """82.91B-D: a minor that sides with `partner` at `level` when a war between the two
    majors of `war` begins (declared by `declared_by`, if given): `after_turns` game turns
    later, or at once; with `occupied`, only once the partner holds that minor."""

    minor: str
    partner: str
    level: DiplomaticLevel
    war: tuple[str, str]
    declared_by: str = ""
    after_turns: int = field(default=0, validator=non_negative)
    occupied: str = ""


@frozen
class Cost:
    """A BRP cost (declarations of war)."""

    key: str
    brps: int = field(validator=non_negative)
    clause: str = ""
    note: str = ""


@frozen
class ScaleEntry:
    """One value of the diplomatic scale: set a standing, or keep or cancel the standing one."""

    result: int
    effect: ScaleEffect
    side: Side | None = None
    level: DiplomaticLevel = DiplomaticLevel.NONE
    note: str = ""

    def __attrs_post_init__(self) -> None:
        if (self.effect is ScaleEffect.SET) != (self.side is not None):
            raise FieldError(
                "side", "a side is given exactly when the effect is 'set'", "add or drop side"
            )


@frozen
class LevelEffect:
    """What a standing level means: the status it gives and the BRPs the major power holds."""

    level: DiplomaticLevel
    status: Status
    brps: BrpShare
    hexes: bool = False
    europe_only: bool = False
    otherwise: DiplomaticLevel | None = None
    """For a Europe-only level, the level it has in the Pacific."""
    clause: str = ""


@frozen
class BrpRule:
    """How BRP amounts are computed: the 7/0 partial grant and the 82.22 proration."""

    key: str
    kind: BrpRuleKind
    amount: int = field(default=0, validator=non_negative)
    fraction: Fraction = Fraction(1)
    season_weights: dict[str, int] = field(factory=dict)
    denominator: int = 1
    rounding: Rounding = Rounding.FLOOR
    illustrative: bool = False
    note: str = ""

    def __attrs_post_init__(self) -> None:
        if self.kind is BrpRuleKind.PRORATION:
            if set(self.season_weights) != {"spring", "summer", "fall", "winter"}:
                raise FieldError(
                    "season_weights",
                    "must give a weight for each season",
                    "set spring, summer, fall and winter",
                )
            if self.denominator <= 0:
                raise FieldError(
                    "denominator",
                    f"{self.denominator} is not positive",
                    "give a positive denominator",
                )


@frozen
class Limit:
    """A foreign-factor limit on a controlled minor (82.32, 82.322)."""

    key: str
    factors: int = field(validator=non_negative)
    clause: str
    minor: str = ""
    side: Side | None = None
    max_armor_units: int | None = field(
        default=None, validator=attrs.validators.optional(non_negative)
    )
    always: bool = False
    """Applies whatever the minor's status (Finland, 82.322)."""
    counted_kinds: tuple[UnitKind, ...] = (
        UnitKind.INFANTRY, UnitKind.ARMOR, UnitKind.AIR, UnitKind.NAVAL,
    )  # fmt: skip
    exempt_kinds: tuple[UnitKind, ...] = ()
    exempt_owners: tuple[str, ...] = ()
    note: str = ""


@frozen
class LimitGroup:
    """Minors counted as one country for the limit (Belgium and Luxembourg, 82.32C)."""

    key: str
    minors: tuple[str, ...]
    clause: str


@frozen
class Provenance:
    """Where a table's or field's values come from, when not from the rulebook itself."""

    key: str
    kind: ProvenanceKind
    note: str = field(validator=non_empty)


@frozen
class StartPending:
    """An association or alliance that the start already promises (Poland, 82.12)."""

    minor: str
    partner: str
    level: DiplomaticLevel
    due: str
    rule: str


@frozen
class Start:
    """A start position: the clock, the wars already declared (at no BRP cost) and what is
    pending. Minors start as the registry says (`start_status`, `start_at_war_with`)."""

    name: str
    clock: str
    last_moment: str
    """The calendar's last moment for games from this start: the clock never goes past it
    (a bound on the work an advance can ask for; docs/tables.md)."""
    wars: tuple[tuple[str, str], ...] = ()
    attacked_at: str = ""
    """The moment the minors at war at the start were attacked."""
    pending: tuple[StartPending, ...] = ()
    note: str = ""


@frozen
class ForceUnit:
    """What one counted unit of a forces-table column is on the map (82.5)."""

    column: str
    kind: str = field()
    factors: int = field(validator=non_negative)
    illustrative: bool = False

    @kind.validator
    def _check_kind(self, attribute: attrs.Attribute[str], value: str) -> None:
        kinds = ("infantry", "armor", "air", "naval")
        if value not in kinds:
            raise FieldError("kind", f"{value!r} is not a deployable kind", f"use one of {kinds}")


@frozen
class DeploymentRule:
    """Deployment limits (82.55): minor ground and air units per hex."""

    key: str
    units: int = field(validator=non_negative)
    illustrative: bool = False
    note: str = ""


@frozen
class CommonwealthZone:
    """82.13A: the countries (and theaters) a Commonwealth country's units may be in."""

    country: str
    countries: tuple[str, ...] = ()
    theaters: tuple[Theater, ...] = ()
    illustrative: bool = False
