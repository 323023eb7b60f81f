"""Frozen records of ASL A25's tables (tables/nationality.toml): nationalities and their
counters, trait rows, the Finnish replacement chart, each country's nationality."""

from __future__ import annotations

import re
from enum import StrEnum
from fractions import Fraction
from typing import Any

import attrs
from attrs import field, frozen

from ..domain.a25 import (
    KIND_SPECS,
    UNIT_GROUPS,
    Basis,
    ClassSelector,
    ScenarioKind,
    Ssr,
    TraitKind,
    TraitValue,
    UnitClass,
    UnitType,
    YearMonth,
)
from ..errors import FieldError
from .records import non_empty

__all__ = [
    "OUTSIDE_RULE",
    "CatalogueUnit",
    "CountryNationality",
    "Nationality",
    "ReplacementChart",
    "TraitRow",
    "is_rating",
]

A25_CLAUSE = re.compile(r"^A25(\.\d+)?$")
OUTSIDE_RULE = re.compile(r"^[A-Z]\d+(\.\d+)*$")
"""A rule of another ASL chapter, as A25 cites it (`C13.3`, `H1.22`)."""
_MMC_RATING = re.compile(r"^\d{1,2}-\d{1,2}-\d{1,2}$")
_LEADER_RATING = re.compile(r"^\d{1,2}[+-]\d$")
_DATE_IN_TEXT = re.compile(r"\b(19\d\d|\d{1,2}/\d\d)\b")


def _a25_clause(_: Any, attribute: attrs.Attribute[str], value: str) -> None:
    if value and not A25_CLAUSE.match(value):
        raise FieldError(
            attribute.name, f"{value!r} is not an A25 clause id", "write ids like 'A25.85'"
        )


def _year_month_range(start: YearMonth | None, end: YearMonth | None) -> None:
    if start is not None and end is not None and start > end:
        raise FieldError("until", f"{end} is before from = {start}", "swap from and until")


def is_rating(text: str) -> bool:
    """Whether `text` is a counter's rating: `4-6-8` (MMC) or `8+1`, `10-0` (leader)."""
    return bool(_MMC_RATING.match(text) or _LEADER_RATING.match(text))


@frozen
class CatalogueUnit:
    """A counter that A25 names for a nationality: its rating, type and, where A25 gives
    it, its class (the 4-6-8 elite squads of A25.1, the 4-3-6 Green squads of A25.41)."""

    rating: str = field()
    type: UnitType
    unit_class: UnitClass | None = None
    clause: str = field(default="", validator=_a25_clause)

    @rating.validator
    def _check_rating(self, attribute: attrs.Attribute[str], value: str) -> None:
        if not is_rating(value):
            raise FieldError("units", f"{value!r} is not a rating", "write '4-6-8' or '8+1'")

    def __attrs_post_init__(self) -> None:
        leader = self.type in (UnitType.LEADER, UnitType.COMMISSAR)
        if leader != bool(_LEADER_RATING.match(self.rating)):
            raise FieldError(
                "units",
                f"{self.rating!r} is not the rating of a {self.type.value}",
                "leaders are rated like '8+1', MMC like '4-6-8'",
            )


@frozen
class Nationality:
    """A node of the A25 nationality tree: its parent, the clause that defines it, the
    months A25 gives it (French until June 1940, A25.5), its unit classes and the counters
    A25 names for it. A child inherits its parent's rows and overrides them."""

    name: str = field(validator=non_empty)
    clause: str = field(validator=_a25_clause)
    parent: str = ""
    aliases: tuple[str, ...] = ()
    from_: YearMonth | None = None
    until: YearMonth | None = None
    classes: tuple[UnitClass, ...] | None = None
    """The unit classes it has; None takes the parent's (a root: all five)."""
    classes_clause: str = field(default="", validator=_a25_clause)
    classes_only_in: dict[UnitClass, tuple[ScenarioKind, ...]] = field(factory=dict)
    """Classes that exist only in some kinds of scenario (A25.41: British Conscripts only
    in hypothetical ones); empty takes the parent's."""
    classes_only_in_clause: str = field(default="", validator=_a25_clause)
    units: tuple[CatalogueUnit, ...] = ()
    successors: tuple[str, ...] = ()
    """The nationalities that carry on after `until` (French: Vichy and Free French)."""
    note: str = ""

    def __attrs_post_init__(self) -> None:
        _year_month_range(self.from_, self.until)
        if not self.clause:
            raise FieldError("clause", "is empty", "cite the clause defining it")
        ratings = [u.rating for u in self.units]
        for rating in ratings:
            if ratings.count(rating) > 1:
                raise FieldError("units", f"{rating!r} is listed twice", "list it once")
        for unit_class, kinds in self.classes_only_in.items():
            if not kinds:
                raise FieldError(
                    "classes_only_in",
                    f"{unit_class.value} is given no kind of scenario",
                    "name the kinds of scenario it exists in",
                )
        if self.classes_only_in and not self.classes_only_in_clause:
            raise FieldError(
                "classes_only_in_clause", "is empty", "cite the clause that limits the classes"
            )


def _typed_value(kind: TraitKind, value: Any) -> TraitValue:
    """`value` as the type its kind takes (KIND_SPECS), or a FieldError."""
    spec = KIND_SPECS[kind].value
    if spec is bool and type(value) is bool:
        return bool(value)
    if spec is int and type(value) is int:
        return int(value)
    if spec is str and isinstance(value, str) and value.strip():
        return str(value)
    if spec is tuple and isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return tuple(str(v) for v in value)
    if spec is Fraction and type(value) in (int, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            pass
    if isinstance(spec, type) and issubclass(spec, StrEnum) and isinstance(value, str):
        try:
            return spec(value)
        except ValueError:
            members = ", ".join(repr(m.value) for m in spec)
            raise FieldError("value", f"{value!r} is not one of {members}", "use one") from None
    expected = {
        bool: "true or false",
        int: "a whole number",
        str: "a non-empty string",
        tuple: "a list of strings",
        Fraction: "a fraction like '3/2'",
    }.get(spec, "a string")
    raise FieldError(
        "value", f"{value!r} is not {expected} (kind {kind.value})", f"write {expected}"
    )


@frozen
class TraitRow:
    """One distinction of A25 as data: for `nationalities` (`*`: every one), a trait of
    `kind` with `value`, citing `clause` (or, for a rule outside A25, `reference`), under
    typed conditions. `except_classes` and `except_units` are the text's "X except Y", the
    units the row leaves out; a `situation` is shown, never decided, and never a date
    (docs/nationality.md, "How the tables answer")."""

    key: str
    nationalities: tuple[str, ...] = field()
    kind: TraitKind
    value: TraitValue
    clause: str = field(default="", validator=_a25_clause)
    reference: str = ""
    basis: Basis = Basis.RULE
    aspect: str = ""
    from_: YearMonth | None = None
    until: YearMonth | None = None
    classes: tuple[ClassSelector, ...] = ()
    units: tuple[str, ...] = ()
    except_classes: tuple[ClassSelector, ...] = ()
    except_units: tuple[str, ...] = ()
    vs: tuple[str, ...] = ()
    not_vs: tuple[str, ...] = ()
    home: bool | None = None
    ssr: Ssr | None = None
    unless_ssr: Ssr | None = None
    scenario_kinds: tuple[ScenarioKind, ...] = ()
    situation: str = ""
    note: str = ""

    @nationalities.validator
    def _check_nationalities(
        self, attribute: attrs.Attribute[tuple[str, ...]], value: tuple[str, ...]
    ) -> None:
        if not value:
            raise FieldError("nationalities", "is empty", "name a nationality, or '*' for all")

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "value", _typed_value(self.kind, self.value))
        aspects = KIND_SPECS[self.kind].aspect
        if aspects is not None:
            try:
                object.__setattr__(self, "aspect", aspects(self.aspect))
            except ValueError:
                members = ", ".join(repr(m.value) for m in aspects)
                raise FieldError(
                    "aspect",
                    f"{self.aspect!r} is not an aspect of {self.kind.value}",
                    f"use one of {members}",
                ) from None
        elif self.aspect:
            raise FieldError("aspect", f"{self.kind.value} takes no aspect", "remove it")
        if self.reference and not OUTSIDE_RULE.match(self.reference):
            raise FieldError(
                "reference", f"{self.reference!r} is not a rule id", "write one like 'C13.3'"
            )
        if self.classes and self.except_classes:
            raise FieldError(
                "except_classes",
                "is given beside classes",
                "give the classes the row holds for, or those it leaves out, not both",
            )
        outside = self.basis in (Basis.REFERENCE, Basis.DEFAULT)
        if outside and not self.reference:
            raise FieldError(
                "reference", f"a {self.basis.value} trait names its rule", "set reference"
            )
        if not outside and not self.clause:
            raise FieldError("clause", "is empty", "cite the A25 clause")
        _year_month_range(self.from_, self.until)
        for name, selectors in (("units", self.units), ("except_units", self.except_units)):
            for selector in selectors:
                if selector not in {*UnitType, *UNIT_GROUPS} and not is_rating(selector):
                    raise FieldError(
                        name,
                        f"{selector!r} is not a unit type, group or rating",
                        f"use a rating, or one of {', '.join([*UnitType, *UNIT_GROUPS])}",
                    )
        if _DATE_IN_TEXT.search(self.situation):
            raise FieldError(
                "situation", "holds a date", "put dates in from/until, never in the text"
            )


@frozen
class ReplacementChart:
    """A25.72's progression of Finnish MMC Replacement, best first; Battle Hardening
    follows it in reverse. The printed chart is missing from the text: the built-in
    chart is a labelled stand-in that an overlay replaces."""

    nationality: str
    clause: str = field(validator=_a25_clause)
    steps: tuple[str, ...] = field()
    illustrative: bool = False
    note: str = ""

    @steps.validator
    def _check_steps(
        self, attribute: attrs.Attribute[tuple[str, ...]], value: tuple[str, ...]
    ) -> None:
        if len(value) < 2:
            raise FieldError("steps", "a chart has at least two steps", "list them, best first")


@frozen
class CountryNationality:
    """The A25 nationality of a country's troops, or none with the reason (Japan, China
    and the Pacific minors are in other ASL chapters). `axis_nationality` applies when
    it fights as Germany's ally; `organized_by`, after its conquest (A25.92)."""

    country: str
    nationality: str = ""
    axis_nationality: str = ""
    organized_by: str = ""
    clause: str = field(default="", validator=_a25_clause)
    reason: str = ""
    basis: Basis = Basis.RULE
    note: str = ""

    def __attrs_post_init__(self) -> None:
        if bool(self.nationality) == bool(self.reason):
            raise FieldError(
                "nationality",
                "give a nationality or a reason for none, not both",
                "set nationality, or reason",
            )
        if self.reason and (self.axis_nationality or self.organized_by):
            raise FieldError(
                "reason",
                "a country with no nationality has no other one either",
                "drop axis_nationality and organized_by",
            )


RENAMED: dict[type[Any], dict[str, str]] = {
    Nationality: {"from_": "from"},
    TraitRow: {"from_": "from"},
}
"""Fields whose table key is a Python keyword."""
