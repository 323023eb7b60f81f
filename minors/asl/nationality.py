"""Nationality profiles (ASL A25): what a nationality's troops are like at a date, for a
unit, against an opponent, at home or abroad, under special rules, in a kind of scenario
(docs/nationality.md; the rows are resolved by `minors.asl.cascade`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date as Date
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

import attrs
from attrs import frozen

from ..domain import Side
from ..domain.a25 import (
    UNIT_GROUPS,
    Basis,
    ClassSelector,
    ScenarioKind,
    Ssr,
    TraitKind,
    UnitClass,
    UnitType,
    YearMonth,
    YearMonthError,
    expand_classes,
    name_key,
)
from ..domain.arguments import checked
from ..errors import LONGEST_NAME, NoNationalityError, ProfileError, UnknownNameError, close_matches
from ..ruleset.a25 import is_rating
from ..ruleset.tables import Ruleset, load_ruleset
from .cascade import EVERY, Index, Row, index_of, merge, project, resolve_rows, trait
from .traits import Profile, Projection, QueryContext, QueryUnit, Trait, TraitCondition

__all__ = [
    "EVERY",
    "CountryMapping",
    "NoNationalityError",
    "Profile",
    "ProfileError",
    "Projection",
    "QueryContext",
    "QueryUnit",
    "Trait",
    "TraitCondition",
    "country_nationality",
    "lineage",
    "profile",
    "resolve",
    "thresholds",
]


@frozen
class CountryMapping:
    """The A25 nationality of a country's troops, or None with the reason."""

    country: str
    nationality: str | None
    clause: str = ""
    reason: str = ""
    basis: Basis = Basis.RULE
    via: str = ""
    """How it was chosen: '' (the country's own), 'axis' or 'organized_by'."""


@checked(ProfileError)
def country_nationality(
    country: str,
    *,
    side: Side | str | None = None,
    conquered: bool = False,
    ruleset: Ruleset | None = None,
) -> CountryMapping:
    """The A25 nationality of a minor country's or major power's troops, or None with the
    reason, as Germany's ally and after its conquest (A25.92; docs/nationality.md)."""
    rs = ruleset or load_ruleset()
    name = rs.resolve(country)
    try:
        side = Side(side) if side is not None else None
    except ValueError:
        sides = ", ".join(repr(s.value) for s in Side)
        raise ProfileError(f"side {side!r} is not a side; give one of {sides}") from None
    row = rs.country_nationality.get(name)
    if row is None:
        minor = rs.minors.get(name)
        reason = f"the tables give no A25 nationality for {name}: add a country_nationality row"
        if minor is not None and not minor.armed_forces:
            owner = f", and its troops are {minor.colony_of}'s" if minor.colony_of else ""
            reason = f"{name} has no armed forces of its own in the strategic tables{owner}"
        return CountryMapping(name, None, reason=reason)
    if row.reason:
        return CountryMapping(name, None, reason=row.reason, basis=row.basis)
    if conquered and row.organized_by:
        clause = "A25.92" if name in rs.minors else rs.nationalities[row.organized_by].clause
        return CountryMapping(name, row.organized_by, clause, basis=row.basis, via="organized_by")
    if side is Side.AXIS and row.axis_nationality:
        return CountryMapping(name, row.axis_nationality, row.clause, basis=row.basis, via="axis")
    return CountryMapping(name, row.nationality, row.clause, basis=row.basis)


@checked(ProfileError)
def resolve(name: str, *, ruleset: Ruleset | None = None) -> str:
    """The nationality `name` stands for: a nationality (or alias; case, spaces and hyphens
    do not matter), else a country through `country_nationality` (a NoNationalityError for
    a country whose troops A25 does not describe)."""
    return _resolve(name, ruleset or load_ruleset())[0]


def _lookup(name: str, rs: Ruleset) -> tuple[str | None, str | None, str]:
    """(nationality, country, reason) of a nationality, or of a country (reason: for none)."""
    if isinstance(name, str) and len(name) > LONGEST_NAME:
        raise UnknownNameError("nationality or country", name)
    index = index_of(rs)
    found = index.names.get(name_key(name))
    if found is not None:
        return found, None, ""
    try:
        mapping = country_nationality(name, ruleset=rs)
    except UnknownNameError:
        spellings = {**index.names, **{k.casefold(): k for k in (*rs.minors, *rs.majors)}}
        close = close_matches(name_key(name), spellings, n=3, cutoff=0.7)
        suggestions = tuple(dict.fromkeys(spellings[c] for c in close))
        raise UnknownNameError("nationality or country", name, suggestions) from None
    return mapping.nationality, mapping.country, mapping.reason


def _resolve(name: str, rs: Ruleset) -> tuple[str, str | None]:
    """The nationality `name` stands for, and the country it was found through."""
    nationality, country, reason = _lookup(name, rs)
    if nationality is None:
        raise NoNationalityError(f"{country} has no A25 nationality: {reason}")
    return nationality, country


@checked(ProfileError)
def lineage(nationality: str, *, ruleset: Ruleset | None = None) -> tuple[str, ...]:
    """The nationality and its parents, nearest first (`SS`, `German`)."""
    rs = ruleset or load_ruleset()
    return index_of(rs).lineage[_resolve(nationality, rs)[0]]


def _date(
    value: YearMonth | str | Date, nationality: str, index: Index, rs: Ruleset, *, window: bool
) -> YearMonth:
    try:
        month = YearMonth.of(value)
    except (YearMonthError, TypeError) as exc:
        raise ProfileError(f"impossible date: {exc}") from None
    start, end = index.window[nationality]
    if window and ((start and month < start) or (end and month > end)):
        record = rs.nationalities[nationality]
        span = f"from {start or 'the start'} to {end or 'the end'}"
        after = ""
        if end and month > end and record.successors:
            after = f"; after that use {' or '.join(record.successors)}"
        raise ProfileError(
            f"impossible date {month} for {nationality} troops: A25 has them {span}"
            f" ({record.clause}){after}"
        )
    return month


E = TypeVar("E", bound=StrEnum)


def _member(kind: type[E], text: str, what: str, near: str | None) -> E:
    """`text` as a member of `kind` (case, spaces and hyphens do not matter), or an
    UnknownNameError suggesting the members close to `near` (none if it is None)."""
    try:
        return kind(name_key(text).replace(" ", "_"))
    except ValueError:
        close = [] if near is None else close_matches(near, [m.value for m in kind], 2, 0.6)
        raise UnknownNameError(what, text, tuple(close)) from None


def _unit(text: str | UnitType | None, nationality: str, index: Index) -> QueryUnit | None:
    if text is None:
        return None
    raw = str(text).strip()
    if is_rating(raw):
        found = index.catalogue[nationality].get(raw)
        if found is None:
            known = ", ".join(index.catalogue[nationality]) or "none"
            raise UnknownNameError(
                f"counter of {nationality} troops (A25 names {known}; or give a unit type)", raw
            )
        return QueryUnit(found.type, found.rating, found.unit_class, found.clause)
    kind = _member(UnitType, raw, "unit type", name_key(raw).replace(" ", "_"))
    if kind is UnitType.COMMISSAR and nationality not in index.commissars:
        raise ProfileError(f"{nationality} troops have no Commissars (A25.22, A25.24)")
    return QueryUnit(kind)


def _classes(
    selector: str | None,
    unit: QueryUnit | None,
    nationality: str,
    index: Index,
    scenario_kind: ScenarioKind,
) -> tuple[UnitClass | None, ...]:
    allowed = index.classes[nationality]
    where = index.class_clause[nationality]
    only_in = index.classes_only_in[nationality]
    absent = [c for c in allowed if c in only_in and scenario_kind not in only_in[c]]
    if unit is not None and unit.type in UNIT_GROUPS["smc"]:
        if selector is not None:
            raise ProfileError(f"a {unit.type.value} has no unit class; drop the class")
        return (None,)
    wanted: frozenset[UnitClass] | None = None
    if selector is not None:
        wanted = expand_classes((_member(ClassSelector, selector, "unit class", selector),))
    if unit is not None and unit.unit_class is not None:
        if wanted is not None and unit.unit_class not in wanted:
            raise ProfileError(
                f"{nationality} {unit.rating} units are {unit.unit_class.value}, not"
                f" {selector} ({unit.clause})"
            )
        wanted = frozenset({unit.unit_class})
    if not allowed:
        if wanted is not None:
            raise ProfileError(
                f"{nationality} units have no unit class, so none is {selector} ({where})"
            )
        return (None,)
    present = tuple(c for c in allowed if c not in absent)
    if wanted is None:
        return present
    chosen = tuple(c for c in present if c in wanted)
    if not chosen and any(c in wanted for c in absent):
        kinds = " or ".join(
            dict.fromkeys(k.value for c in absent if c in wanted for k in only_in[c])
        )
        raise ProfileError(
            f"{nationality} troops have no {selector} units in a {scenario_kind.value}"
            f" scenario, only in {kinds} ones ({index.classes_only_in_clause[nationality]})"
        )
    if not chosen:
        raise ProfileError(
            f"{nationality} units are never {selector}: their classes are"
            f" {', '.join(allowed)} ({where})"
        )
    return chosen


def _vs(
    name: str | None, nationality: str, index: Index, rs: Ruleset
) -> tuple[str | None, frozenset[str], str]:
    """The opponent, its line of the tree, and why A25 does not describe it (a country
    A25 does not describe is an opponent all the same: docs/nationality.md)."""
    if name is None:
        return None, frozenset(), ""
    opponent, country, reason = _lookup(name, rs)
    if opponent is None:
        return country, frozenset(), reason
    theirs, ours = index.lineage[opponent], index.lineage[nationality]
    if opponent in ours or nationality in theirs:
        raise ProfileError(f"{nationality} troops cannot oppose {opponent}: one includes the other")
    return opponent, frozenset(theirs), ""


def _enum_set(values: Iterable[Ssr | str] | str) -> frozenset[Ssr]:
    given = (values,) if isinstance(values, str) else values
    return frozenset(_member(Ssr, str(v), "special rule", str(v)) for v in given)


@checked(ProfileError)
def profile(
    nationality: str,
    date: YearMonth | str | Date,
    *,
    unit_class: UnitClass | str | None = None,
    unit: UnitType | str | None = None,
    vs: str | None = None,
    home: bool = False,
    ssr: Iterable[Ssr | str] | str = frozenset(),
    scenario_kind: ScenarioKind | str = ScenarioKind.HISTORICAL,
    ruleset: Ruleset | None = None,
    window: bool = True,
) -> Profile:
    """The A25 traits of `nationality`'s troops in the month `date`, asked (and refused) as
    docs/nationality.md ("The query") describes; `window=False` accepts a date outside the
    years A25 gives the nationality (the bridge: France falls when it falls in the game)."""
    rs = ruleset or load_ruleset()
    index = index_of(rs)
    name, country = _resolve(nationality, rs)
    month = _date(date, name, index, rs, window=window)
    the_unit = _unit(unit, name, index)
    selector = str(unit_class) if unit_class is not None else None
    kind = _member(ScenarioKind, str(scenario_kind), "scenario kind", None)
    passes = _classes(selector, the_unit, name, index, kind)
    vs_name, vs_lineage, vs_outside = _vs(vs, name, index, rs)
    ctx = QueryContext(
        date=month,
        classes=passes,
        unit_class=selector,
        unit=the_unit,
        vs=vs_name,
        vs_lineage=vs_lineage,
        vs_outside=vs_outside,
        home=home,
        ssr=_enum_set(ssr),
        scenario_kind=kind,
    )
    nodes = (*index.lineage[name], EVERY)
    home_of = {r.order: n for n in nodes for g in index.rows.get(n, {}).values() for r in g}
    survived: dict[int, tuple[Row, list[UnitClass | None]]] = {}
    for cls in passes:
        for r in resolve_rows(index, name, ctx, cls, closed=False):
            survived.setdefault(r.order, (r, []))[1].append(cls)
    ranked: list[tuple[Trait, int]] = []
    for order, (r, classes) in sorted(survived.items()):
        if r.classes is None and len(classes) == len(passes):
            ranked.append((trait(r, None, home_of[order]), order))
        else:
            ranked.extend((trait(r, c, home_of[order]), order) for c in classes)
    ranked.extend(_chart_traits(rs, name, index, the_unit))
    text_order = {clause: i for i, clause in enumerate(rs.clauses)}
    # A25 clauses in the order of the text, then the rules outside A25 by name
    ranked.sort(key=lambda p: (text_order.get(p[0].clause, len(text_order)), p[0].clause, p[1]))
    own = [_tree_trait(rs, n, index if n == name else None) for n in index.lineage[name]]
    traits = (*own, *(t for t, _ in ranked))
    rules = sorted({t.clause for t in traits if t.clause in text_order}, key=text_order.__getitem__)

    closed_ctx = attrs.evolve(ctx, unit=the_unit or QueryUnit(UnitType.SQUAD))
    per_class = {cls: project(resolve_rows(index, name, closed_ctx, cls, True)) for cls in passes}
    merged = merge(list(per_class.values()))
    by_class = {c: p for c, p in per_class.items() if c is not None} if len(passes) > 1 else {}
    return Profile(
        nationality=name,
        lineage=index.lineage[name],
        context=ctx,
        traits=traits,
        **attrs.asdict(merged, recurse=False),
        by_class=MappingProxyType(by_class),
        rules=tuple(rules),
        country=country,
    )


def _tree_trait(rs: Ruleset, name: str, index: Index | None) -> Trait:
    """The nationality itself, or one whose rules it inherits; its own carries its months."""
    record = rs.nationalities[name]
    start, end = index.window[name] if index is not None else (None, None)
    return Trait(
        kind=TraitKind.NATIONALITY,
        value=name,
        clause=record.clause,
        condition=TraitCondition(from_=start, until=end),
        nationality=name,
        note=record.note,
    )


def _chart_traits(
    rs: Ruleset, name: str, index: Index, unit: QueryUnit | None
) -> list[tuple[Trait, int]]:
    """A25.72: the replacement chart of the nearest nationality that has one, and its
    reverse, the order of Battle Hardening (MMC only)."""
    if unit is not None and unit.type not in UNIT_GROUPS["mmc"]:
        return []
    chart = next(
        (rs.replacement_charts[n] for n in index.lineage[name] if n in rs.replacement_charts), None
    )
    if chart is None:
        return []
    basis = Basis.ILLUSTRATIVE if chart.illustrative else Basis.RULE
    when = TraitCondition(units=("mmc",))
    order = len(rs.nationality_traits)
    return [
        (
            Trait(TraitKind.REPLACEMENT_CHAIN, chart.steps, chart.clause, when, basis=basis,
                  nationality=chart.nationality, note=chart.note),
            order,
        ),
        (
            Trait(TraitKind.BATTLE_HARDENING_CHAIN, tuple(reversed(chart.steps)), chart.clause,
                  when, basis=basis, nationality=chart.nationality),
            order + 1,
        ),
    ]  # fmt: skip


@checked(ProfileError)
def thresholds(
    nationality: str,
    *,
    unit_class: UnitClass | str | None = None,
    unit: UnitType | str | None = None,
    vs: str | None = None,
    home: bool = False,
    ssr: Iterable[Ssr | str] | str = frozenset(),
    scenario_kind: ScenarioKind | str = ScenarioKind.HISTORICAL,
    ruleset: Ruleset | None = None,
    window: bool = True,
) -> tuple[YearMonth, ...]:
    """The months in which the profile asked with these arguments (those of `profile` but
    the date) differs from the month before's (docs/nationality.md: a row a nearer one
    replaces, as A25.242's Partisan ordnance does A25.32's, makes none)."""
    rs = ruleset or load_ruleset()
    query = {
        "unit_class": str(unit_class) if unit_class is not None else None,
        "unit": str(unit) if unit is not None else None,
        "vs": vs,
        "home": home,
        "ssr": tuple(sorted(str(s) for s in ((ssr,) if isinstance(ssr, str) else ssr))),
        "scenario_kind": str(scenario_kind),
        "window": window,
    }
    return rs.derived(_thresholds, _resolve(nationality, rs)[0], tuple(query.items()))


def _thresholds(
    rs: Ruleset, name: str, query: tuple[tuple[str, Any], ...]
) -> tuple[YearMonth, ...]:
    asked = dict(query)
    index = index_of(rs)
    start, end = index.window[name]
    groups = [g for n in (*index.lineage[name], EVERY) for g in index.rows.get(n, {}).values()]
    rows = [r.row for group in groups for r in group]
    months = {r.from_ for r in rows if r.from_} | {r.until.next() for r in rows if r.until}
    if asked["window"]:
        months = {m for m in months if (start is None or m > start) and (end is None or m <= end)}

    def answer(month: YearMonth) -> dict[str, Any]:
        found = profile(name, month, ruleset=rs, **asked).to_json()
        del found["context"]
        return found

    return tuple(m for m in sorted(months) if answer(m.previous()) != answer(m))
