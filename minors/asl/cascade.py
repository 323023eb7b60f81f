"""How the A25 tables answer a query: rows resolved along the nationality tree, a nearer
row replacing an inherited one it covers (A25.66: Eritreans are not Lax though Italians
are), modifiers adding up (docs/nationality.md, "How the tables answer").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs
from attrs import frozen

from ..domain.a25 import (
    KIND_SPECS,
    ScenarioKind,
    ToHit,
    TraitKind,
    TraitValue,
    UnitClass,
    Weapon,
    YearMonth,
    expand_classes,
    name_key,
)
from ..domain.arguments import checked
from ..errors import ProfileError, TableError
from ..ruleset.a25 import CatalogueUnit, TraitRow
from ..ruleset.tables import Ruleset
from .traits import PROJECTED, Projection, QueryContext, Trait, TraitCondition

__all__ = ["EVERY", "Index", "Key", "Row", "index_of", "merge", "project", "resolve_rows", "trait"]

EVERY = "*"
"""The pseudo-nationality of rows that hold for every nationality (A25.32, A25.56)."""

Key = tuple[TraitKind, str]


@frozen
class Row:
    """A table row compiled for matching."""

    row: TraitRow
    order: int
    key: Key
    classes: frozenset[UnitClass] | None
    units: frozenset[str]
    except_classes: frozenset[UnitClass]
    except_units: frozenset[str]
    vs: frozenset[str]
    not_vs: frozenset[str]


@frozen
class Index:
    """The A25 tables arranged for queries; built once per ruleset."""

    names: Mapping[str, str]
    lineage: Mapping[str, tuple[str, ...]]
    rows: Mapping[str, Mapping[Key, tuple[Row, ...]]]
    keys: Mapping[str, tuple[Key, ...]]
    catalogue: Mapping[str, Mapping[str, CatalogueUnit]]
    classes: Mapping[str, tuple[UnitClass, ...]]
    class_clause: Mapping[str, str]
    classes_only_in: Mapping[str, Mapping[UnitClass, tuple[ScenarioKind, ...]]]
    """Classes that exist only in some kinds of scenario (A25.41), and the clause."""
    classes_only_in_clause: Mapping[str, str]
    window: Mapping[str, tuple[YearMonth | None, YearMonth | None]]
    commissars: frozenset[str]


def _build(rs: Ruleset) -> Index:
    nations = rs.nationalities
    lines: dict[str, tuple[str, ...]] = {}
    for name in nations:
        walk = [name]
        while nations[walk[-1]].parent:
            walk.append(nations[walk[-1]].parent)
        lines[name] = tuple(walk)
    rows: dict[str, dict[Key, list[Row]]] = {}
    for order, row in enumerate(rs.nationality_traits.values()):
        compiled = Row(
            row=row,
            order=order,
            key=(row.kind, str(row.aspect)),
            classes=expand_classes(row.classes) if row.classes else None,
            units=frozenset(row.units),
            except_classes=expand_classes(row.except_classes),
            except_units=frozenset(row.except_units),
            vs=frozenset(row.vs),
            not_vs=frozenset(row.not_vs),
        )
        for name in row.nationalities:
            rows.setdefault(name, {}).setdefault(compiled.key, []).append(compiled)
    keys: dict[str, tuple[Key, ...]] = {}
    catalogue: dict[str, dict[str, CatalogueUnit]] = {}
    classes: dict[str, tuple[UnitClass, ...]] = {}
    class_clause: dict[str, str] = {}
    only_in: dict[str, Mapping[UnitClass, tuple[ScenarioKind, ...]]] = {}
    only_in_clause: dict[str, str] = {}
    window: dict[str, tuple[YearMonth | None, YearMonth | None]] = {}
    commissars = set()
    for name, chain in lines.items():
        nodes = (*chain, EVERY)
        keys[name] = tuple(dict.fromkeys(k for n in nodes for k in rows.get(n, {})))
        catalogue[name] = {u.rating: u for n in reversed(chain) for u in nations[n].units}
        own = next((n for n in chain if nations[n].classes is not None), None)
        classes[name] = tuple(nations[own].classes or ()) if own else tuple(UnitClass)
        class_clause[name] = (nations[own].classes_clause or nations[own].clause) if own else ""
        limited = next((nations[n] for n in chain if nations[n].classes_only_in), None)
        only_in[name] = MappingProxyType(dict(limited.classes_only_in) if limited else {})
        only_in_clause[name] = limited.classes_only_in_clause if limited else ""
        window[name] = (
            next((nations[n].from_ for n in chain if nations[n].from_), None),
            next((nations[n].until for n in chain if nations[n].until), None),
        )
        if any("commissar" in r.units for n in nodes for g in rows.get(n, {}).values() for r in g):
            commissars.add(name)
    names = {name_key(n): n for n in nations}
    names.update({name_key(a): n for n, record in nations.items() for a in record.aliases})
    freeze = MappingProxyType
    return Index(
        names=freeze(names),
        lineage=freeze(lines),
        rows=freeze({n: freeze({k: tuple(v) for k, v in g.items()}) for n, g in rows.items()}),
        keys=freeze(keys),
        catalogue=freeze({n: freeze(c) for n, c in catalogue.items()}),
        classes=freeze(classes),
        class_clause=freeze(class_clause),
        classes_only_in=freeze(only_in),
        classes_only_in_clause=freeze(only_in_clause),
        window=freeze(window),
        commissars=frozenset(commissars),
    )


@checked(ProfileError)
def index_of(rs: Ruleset) -> Index:
    """The A25 tables indexed for queries, built once per ruleset."""
    return rs.derived(_build)


# A row is excluded, holds, or holds under a condition the query leaves open.
_NO, _YES, _OPEN = 0, 1, 2


def _status(r: Row, ctx: QueryContext, cls: UnitClass | None, closed: bool) -> int:
    row = r.row
    if (row.from_ and ctx.date < row.from_) or (row.until and ctx.date > row.until):
        return _NO
    if row.scenario_kinds and ctx.scenario_kind not in row.scenario_kinds:
        return _NO
    if (row.ssr and row.ssr not in ctx.ssr) or (row.unless_ssr and row.unless_ssr in ctx.ssr):
        return _NO
    if row.home is not None and row.home != ctx.home:
        return _NO
    if r.classes is not None and (cls is None or cls not in r.classes):
        return _NO
    if r.units and ctx.unit is not None and not ctx.unit.matches(r.units):
        return _NO
    status = _OPEN if r.units and ctx.unit is None else _YES
    left_out = _left_out(r, ctx, cls)
    if left_out == _YES:
        return _NO
    if left_out == _OPEN:
        status = _OPEN
    if ctx.vs is not None:
        if (r.vs and not r.vs & ctx.vs_lineage) or r.not_vs & ctx.vs_lineage:
            return _NO
    elif r.vs:
        status = _OPEN
    if row.situation:
        status = _OPEN
    if closed and status == _OPEN:
        return _NO
    return status


def _left_out(r: Row, ctx: QueryContext, cls: UnitClass | None) -> int:
    """Whether the unit is one the row's exception leaves out (`_YES`, `_NO`), or may be
    (`_OPEN`: the exception names unit types and the query gives no unit)."""
    if not (r.except_classes or r.except_units):
        return _NO
    if r.except_classes and (cls is None or cls not in r.except_classes):
        return _NO
    if not r.except_units:
        return _YES
    if ctx.unit is None:
        return _OPEN
    return _YES if ctx.unit.matches(r.except_units) else _NO


def _covers(t: Row, r: Row, ctx: QueryContext, cls: UnitClass | None) -> bool:
    """Whether a nearer row `t` replaces `r`: it holds wherever `r` does, for what is open."""
    if t.row.situation and t.row.situation != r.row.situation:
        return False
    if ctx.unit is None and t.units and not (r.units and r.units <= t.units):
        return False
    if _left_out(t, ctx, cls) == _OPEN and not (
        _left_out(r, ctx, cls) == _OPEN and t.except_units <= r.except_units
    ):
        return False
    if ctx.vs is None:
        if t.vs and not (r.vs and r.vs <= t.vs):
            return False
        if t.not_vs and not (t.not_vs <= r.not_vs or (r.vs and not r.vs & t.not_vs)):
            return False
    return True


@checked(ProfileError)
def resolve_rows(
    index: Index, nationality: str, ctx: QueryContext, cls: UnitClass | None, closed: bool
) -> list[Row]:
    if nationality not in index.lineage:
        raise ProfileError(f"{nationality!r} is not a nationality of the tables")
    nodes = (*index.lineage[nationality], EVERY)
    out: list[Row] = []
    for key in index.keys[nationality]:
        cumulative = KIND_SPECS[key[0]].cumulative
        taken: list[Row] = []
        for node in nodes:
            fresh = [
                r
                for r in index.rows.get(node, {}).get(key, ())
                if _status(r, ctx, cls, closed) != _NO
                and (cumulative or not any(_covers(t, r, ctx, cls) for t in taken))
            ]
            taken.extend(fresh)
        out.extend(taken)
    return out


@checked(ProfileError)
def trait(r: Row, cls: UnitClass | None, node: str) -> Trait:
    row = r.row
    when = {name: getattr(row, name) for name in _CONDITIONS}
    when["classes"] = (cls,) if cls else tuple(c for c in UnitClass if c in (r.classes or ()))
    # Narrowed to one class, the exception keeps only what that class still leaves open.
    if cls is None:
        when["except_classes"] = tuple(c for c in UnitClass if c in r.except_classes)
    else:
        when["except_classes"] = ()
        if r.except_classes and cls not in r.except_classes:
            when["except_units"] = ()
    return Trait(
        kind=row.kind,
        value=row.value,
        clause=row.clause or row.reference,
        condition=TraitCondition(**when),
        aspect=str(row.aspect),
        basis=row.basis,
        reference=row.reference,
        nationality=node,
        source=row.key,
        note=row.note,
    )


_ABOVE = (TraitKind.BROKEN_MORALE_ABOVE_PRINTED, "")
_CONDITIONS = tuple(f.name for f in attrs.fields(TraitCondition))
"""The conditions of a trait: those of its row, of the same names."""


def _int(value: TraitValue) -> int:
    """A whole-number value (KIND_SPECS types the kinds that take one)."""
    if type(value) is not int:
        raise TypeError(f"{value!r} is not a whole number")
    return value


@checked(ProfileError)
def project(rows: list[Row]) -> Projection:
    by_key: dict[Key, list[Row]] = {}
    for r in rows:
        by_key.setdefault(r.key, []).append(r)

    def single(kind: TraitKind, aspect: str = "") -> Any:
        found = by_key.get((kind, aspect), [])
        values = {r.row.value for r in found}
        if len(values) > 1:
            keys = ", ".join(r.row.key for r in found)
            raise TableError(
                f"rows {keys} all apply, with different {kind.value} values",
                entry=f"nationality_traits.{found[0].row.key}",
                fix="give the rows conditions that keep them apart",
            )
        return values.pop() if values else None

    colours: dict[Weapon, ToHit | None] = {w: single(TraitKind.TO_HIT, w) for w in Weapon}
    for marked in (Weapon.MARKED_G, Weapon.MARKED_T):
        colours[marked] = colours[marked] or colours[Weapon.ORDNANCE]
    modifiers = sum(
        _int(r.row.value) for r in by_key.get((TraitKind.BROKEN_MORALE_MODIFIER, ""), [])
    )  # A25.8: each "one higher than printed" sets the level, so they do not add up
    modifiers += max((_int(r.row.value) for r in by_key.get(_ABOVE, [])), default=0)
    return Projection(
        to_hit_by_weapon=MappingProxyType(colours),
        paatc=single(TraitKind.PAATC),
        broken_morale_delta=_int(single(TraitKind.BROKEN_MORALE) or 0) + modifiers,
        lax=single(TraitKind.LAX) is True,
        stealthy=single(TraitKind.STEALTHY) is True,
        cowering_immune=single(TraitKind.COWERING_IMMUNE) is True,
        self_rally=single(TraitKind.SELF_RALLY) is True,
        may_deploy=single(TraitKind.DEPLOY) is True,
        no_quarter=single(TraitKind.NO_QUARTER) is True,
    )


@checked(ProfileError)
def merge(projections: list[Projection]) -> Projection:
    if not projections:
        raise ProfileError("merge() needs at least one projection")

    def same(values: list[Any]) -> Any:
        return values[0] if all(v == values[0] for v in values) else None

    colours = {w: same([p.to_hit_by_weapon[w] for p in projections]) for w in Weapon}
    return Projection(
        to_hit_by_weapon=MappingProxyType(colours),
        **{name: same([getattr(p, name) for p in projections]) for name in PROJECTED},
    )
