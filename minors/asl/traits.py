"""What a nationality profile answers (ASL A25): traits with their conditions, the query,
the projections most queries want, and the profile (its JSON: docs/nationality.md)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs
from attrs import frozen

from ..domain.a25 import (
    UNIT_GROUPS,
    Basis,
    Paatc,
    ScenarioKind,
    Ssr,
    ToHit,
    TraitKind,
    TraitValue,
    UnitClass,
    UnitType,
    Weapon,
    YearMonth,
)

__all__ = ["Profile", "Projection", "QueryContext", "QueryUnit", "Trait", "TraitCondition"]


@frozen
class TraitCondition:
    """When a trait holds: its row's conditions, the classes narrowed to the one a
    class-dependent trait was resolved for (`except_classes`, `except_units`: the units it
    leaves out, as its row's)."""

    from_: YearMonth | None = None
    until: YearMonth | None = None
    classes: tuple[UnitClass, ...] = ()
    units: tuple[str, ...] = ()
    except_classes: tuple[UnitClass, ...] = ()
    except_units: tuple[str, ...] = ()
    vs: tuple[str, ...] = ()
    not_vs: tuple[str, ...] = ()
    home: bool | None = None
    ssr: Ssr | None = None
    unless_ssr: Ssr | None = None
    scenario_kinds: tuple[ScenarioKind, ...] = ()
    situation: str = ""

    def __str__(self) -> str:
        parts = []
        if self.from_ and self.until:
            parts.append(f"{self.from_} to {self.until}")
        elif self.from_:
            parts.append(f"from {self.from_}")
        elif self.until:
            parts.append(f"until {self.until}")
        left_out = " ".join(
            p for p in ("/".join(self.except_classes), "/".join(self.except_units)) if p
        )
        parts += [
            ", ".join(self.classes),
            ", ".join(self.units),
            f"except {left_out}" if left_out else "",
            f"vs {', '.join(self.vs)}" if self.vs else "",
            f"not vs {', '.join(self.not_vs)}" if self.not_vs else "",
            "" if self.home is None else "at home" if self.home else "abroad",
            f"SSR {self.ssr.value}" if self.ssr else "",
            f"unless SSR {self.unless_ssr.value}" if self.unless_ssr else "",
            f"{', '.join(self.scenario_kinds)} scenarios" if self.scenario_kinds else "",
            self.situation,
        ]
        return "; ".join(p for p in parts if p) or "always"

    def to_json(self) -> dict[str, Any]:
        """The conditions that are set, as JSON data (`from`, `until`, `classes` ...)."""
        out: dict[str, Any] = {}
        for field in attrs.fields(TraitCondition):
            value = getattr(self, field.name)
            if isinstance(value, YearMonth):
                value = str(value)
            elif isinstance(value, tuple):
                value = [str(v) for v in value] or None
            if value is not None and value != "":
                out[field.name.rstrip("_")] = value
        return out


def _json_value(value: TraitValue) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


@frozen
class Trait:
    """One distinction that holds for the query, under `condition`; `clause` is the A25
    clause, or the rule outside A25 that a reference or default trait names."""

    kind: TraitKind
    value: TraitValue
    clause: str
    condition: TraitCondition = TraitCondition()
    aspect: str = ""
    basis: Basis = Basis.RULE
    reference: str = ""
    nationality: str = ""
    """The nationality whose row it is (`*` for every nationality)."""
    source: str = ""
    """The key of its row in `nationality_traits` (empty for the tree and the chart)."""
    note: str = ""

    @property
    def value_text(self) -> str:
        """The value as the tables and docs print it: yes/no, lists joined by commas."""
        value = self.value
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, tuple):
            return ", ".join(value)
        return str(value)

    def to_json(self) -> dict[str, Any]:
        """The trait as JSON data."""
        return {
            "kind": self.kind.value,
            "aspect": self.aspect or None,
            "value": _json_value(self.value),
            "clause": self.clause,
            "condition": self.condition.to_json(),
            "condition_text": str(self.condition),
            "basis": self.basis.value,
            "reference": self.reference or None,
            "nationality": self.nationality,
            "source": self.source or None,
            "note": self.note or None,
        }


@frozen
class QueryUnit:
    """The unit a query is about: its type and, for a counter A25 names, rating and class."""

    type: UnitType
    rating: str = ""
    unit_class: UnitClass | None = None
    clause: str = ""

    def matches(self, selectors: frozenset[str]) -> bool:
        """Whether a row's unit selectors (types, groups, ratings) take in this unit."""
        return any(
            s == self.rating or s == self.type or self.type in UNIT_GROUPS.get(s, ())
            for s in selectors
        )

    def __str__(self) -> str:
        return self.rating or self.type.value


@frozen
class QueryContext:
    """The circumstances of a query, checked and resolved."""

    date: YearMonth
    classes: tuple[UnitClass | None, ...]
    """The classes resolved one by one (None: a unit without class)."""
    unit_class: str | None
    """The class as asked (a class, `inexperienced`, `non_elite`, or None)."""
    unit: QueryUnit | None
    vs: str | None
    """The opposing nationality, or a country whose troops A25 does not describe."""
    vs_lineage: frozenset[str]
    home: bool
    ssr: frozenset[Ssr]
    scenario_kind: ScenarioKind
    vs_outside: str = ""
    """Why the opponent has no A25 nationality, when it has none (`vs` is then a country)."""

    def to_json(self) -> dict[str, Any]:
        """The context as JSON data."""
        return {
            "date": str(self.date),
            "class": self.unit_class,
            "unit": str(self.unit) if self.unit else None,
            "vs": self.vs,
            "vs_outside_a25": self.vs_outside or None,
            "home": self.home,
            "ssr": sorted(s.value for s in self.ssr),
            "scenario_kind": self.scenario_kind.value,
        }


@frozen
class Projection:
    """The answers most queries want, read from the traits of one class, or merged over several: a
    value that differs between classes is None (docs/nationality.md, "Projections and the JSON")."""

    to_hit_by_weapon: Mapping[Weapon, ToHit | None]
    paatc: Paatc | None
    """The PAATC taken (A25.65, A25.81, A25.91)."""
    broken_morale_delta: int | None
    """Broken-side Morale Level minus Good Order Morale Level, every modifier applied."""
    lax: bool | None
    """Always Lax (A25.64)."""
    stealthy: bool | None
    """Stealthy (A25.24, A25.44, A25.7)."""
    cowering_immune: bool | None
    """Immune to Cowering (A25.45, A25.7)."""
    self_rally: bool | None
    """May attempt Self-Rally in any RPh (A25.7)."""
    may_deploy: bool | None
    """The squad may Deploy (A25.2, A25.61)."""
    no_quarter: bool | None
    """No Quarter is in effect (A25.8)."""

    @property
    def to_hit(self) -> ToHit | None:
        """The colour of the nationality's own ordnance other than MG and ATR."""
        return self.to_hit_by_weapon[Weapon.ORDNANCE]

    def to_json(self) -> dict[str, Any]:
        """The projection as JSON data."""
        by_weapon = self.to_hit_by_weapon
        return {
            "to_hit": self.to_hit,
            "to_hit_by_weapon": {
                "ordnance": by_weapon[Weapon.ORDNANCE],
                "afv": by_weapon[Weapon.AFV],
                "mg_atr": by_weapon[Weapon.MG_ATR],
                "marked": {
                    "(a)": by_weapon[Weapon.MARKED_A],
                    "(g)": by_weapon[Weapon.MARKED_G],
                    "(t)": by_weapon[Weapon.MARKED_T],
                },
            },
            **{name: getattr(self, name) for name in PROJECTED},
        }


PROJECTED = tuple(f.name for f in attrs.fields(Projection) if f.name != "to_hit_by_weapon")
"""The projections of one value each: all but the To Hit colours."""


@frozen
class Profile(Projection):
    """The traits of a nationality for one query, and their projections (its own fields, for
    the class asked or merged over the classes; `by_class` has each class's)."""

    nationality: str
    lineage: tuple[str, ...]
    context: QueryContext
    traits: tuple[Trait, ...]
    by_class: Mapping[UnitClass, Projection]
    """Each class's projection, when the query named no single class."""
    rules: tuple[str, ...] = ()
    """The A25 clauses the traits apply, in the order of the text."""
    country: str | None = None
    """The country the name was resolved through, if it was one."""

    @property
    def projection(self) -> Projection:
        """The projections alone."""
        return Projection(**{f.name: getattr(self, f.name) for f in attrs.fields(Projection)})

    def of(self, kind: TraitKind, aspect: str = "") -> tuple[Trait, ...]:
        """The traits of one kind (and aspect)."""
        return tuple(t for t in self.traits if t.kind is kind and t.aspect == aspect)

    @property
    def panzerfaust(self) -> dict[str, Any] | None:
        """Panzerfaust use (A25.76, A25.85, C13.3), or None when no PF rule concerns the
        troops (docs/nationality.md, "Projections and the JSON")."""
        pf = self.of(TraitKind.PF)
        rules = self.of(TraitKind.PF_RULES)
        if not pf and not rules:
            return None
        able = [t for t in pf if t.value is True]
        available = True if able else (False if pf else None)
        clauses = [t.clause for t in self.traits if t.kind in _PF_KINDS]

        def one(kind: TraitKind) -> Any:
            values = {_json_value(t.value) for t in self.of(kind)}
            return values.pop() if len(values) == 1 else None

        classes = sorted({c for t in able for c in t.condition.classes}, key=list(UnitClass).index)
        out = {
            "available": available,
            "reference": rules[0].reference if rules else None,
            "range": one(TraitKind.PF_RANGE),
            "check_dr": one(TraitKind.PF_CHECK_DR),
            "check_drm": [
                {"value": t.value, "condition": str(t.condition)}
                for t in self.of(TraitKind.PF_CHECK_DRM)
            ],
            "shot_cap_per_squad_equivalent": one(TraitKind.PF_SHOT_CAP),
            "classes": classes or None,
            "units": sorted({u for t in able for u in t.condition.units}) or None,
            "except_units": sorted({u for t in able for u in t.condition.except_units}) or None,
            "clauses": list(dict.fromkeys(c for c in clauses if c.startswith("A25"))),
        }
        if available is False:  # the figures describe the use of a PF the unit has
            out.update({k: None for k in out if k not in ("available", "reference", "clauses")})
        return out

    def to_json(self) -> dict[str, Any]:
        """The profile as the JSON document of `minors nationality --json`."""
        return {
            "nationality": self.nationality,
            "country": self.country,
            "lineage": list(self.lineage),
            "context": self.context.to_json(),
            **Projection.to_json(self),
            "panzerfaust": self.panzerfaust,
            "rules": list(self.rules),
            "by_class": (
                {c.value: p.to_json() for c, p in self.by_class.items()} if self.by_class else None
            ),
            "traits": [t.to_json() for t in self.traits],
        }


_PF_KINDS = tuple(k for k in TraitKind if k.value.split("_")[0] == "pf")
"""The Panzerfaust kinds: `pf` and the `pf_*` ones."""
