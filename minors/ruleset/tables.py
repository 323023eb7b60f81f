"""The rules in force: the merged, validated tables, their digest, and name lookups."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import attrs
from attrs import define, frozen

from ..domain import (
    BrpRuleKind,
    DiplomaticLevel,
    Faction,
    FootnoteKind,
    ProvenanceKind,
    ScaleEffect,
    Side,
    Status,
)
from ..domain.a25 import TraitKind, name_key
from ..domain.clock import START, Moment
from ..errors import LONGEST_NAME, MinorsError, TableError, UnknownNameError, close_matches
from . import a25, loader
from . import records as r
from .a25 import is_rating

__all__ = ["Ruleset", "load_ruleset"]

T = TypeVar("T")


def normalize_clause(clause: str) -> str:
    """Accept `25.85` for `A25.85`; return other ids unchanged."""
    text = clause.strip()
    return f"A{text}" if text.startswith("25") else text


@frozen
class Ruleset:
    """The merged tables as frozen records, keyed like the TOML; built by `load_ruleset`."""

    clauses: Mapping[str, r.Clause]
    factions: Mapping[Faction, r.FactionEntry]
    majors: Mapping[str, r.Major]
    minors: Mapping[str, r.Minor]
    forces: Mapping[str, r.ForceRow]
    force_footnotes: Mapping[str, r.Footnote]
    forces_by_result: Mapping[str, r.ResultForces]
    commonwealth: Mapping[str, r.ArrivalRow]
    commonwealth_layout: Mapping[str, r.CommonwealthLayout]
    commonwealth_notes: Mapping[str, r.CommonwealthNote]
    association: Mapping[Faction, r.Association]
    border_wars: Mapping[str, r.BorderWarRule]
    alignments: Mapping[str, r.Alignment]
    costs: Mapping[str, r.Cost]
    diplomatic_results: Mapping[int, r.ScaleEntry]
    diplomatic_levels: Mapping[DiplomaticLevel, r.LevelEffect]
    brp_rules: Mapping[str, r.BrpRule]
    limits: Mapping[str, r.Limit]
    limit_groups: Mapping[str, r.LimitGroup]
    provenance: Mapping[str, r.Provenance]
    starts: Mapping[str, r.Start]
    force_units: Mapping[str, r.ForceUnit]
    deployment: Mapping[str, r.DeploymentRule]
    commonwealth_zones: Mapping[str, r.CommonwealthZone]
    nationalities: Mapping[str, a25.Nationality]
    nationality_traits: Mapping[str, a25.TraitRow]
    replacement_charts: Mapping[str, a25.ReplacementChart]
    country_nationality: Mapping[str, a25.CountryNationality]
    digest: str
    sources: tuple[str, ...]
    overlay_files: tuple[tuple[str, str], ...]
    """Each overlay merged, as (name, TOML text): an audit log carries them."""
    _names: Mapping[str, str] = attrs.field(alias="names", repr=False)
    side_of: Mapping[str, Side] = attrs.field(init=False, repr=False)
    """Each major power's side (derived, for the hot path)."""
    faction_members: Mapping[Faction, tuple[str, ...]] = attrs.field(init=False, repr=False)
    """Each faction's major powers, in table order (derived)."""
    cache: dict[object, Any] = attrs.field(init=False, repr=False, eq=False)
    """Values derived from the tables on demand (force pools ...); the tables never change."""
    scale: tuple[int, int] = attrs.field(init=False, repr=False)
    """The lowest and highest diplomatic results (derived)."""

    def __attrs_post_init__(self) -> None:
        side_of = {name: m.faction.side for name, m in self.majors.items()}
        members = {f: tuple(n for n, m in self.majors.items() if m.faction is f) for f in Faction}
        object.__setattr__(self, "side_of", MappingProxyType(side_of))
        object.__setattr__(self, "faction_members", MappingProxyType(members))
        object.__setattr__(self, "cache", {})
        results = self.diplomatic_results
        object.__setattr__(self, "scale", (min(results), max(results)) if results else (0, 0))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its overlays: unpickling loads the tables again and checks the digest."""
        overlays = tuple((name, text.encode("utf-8")) for name, text in self.overlay_files)
        return _restore, (overlays, self.digest)

    def derived(self, compute: Callable[..., T], *args: Hashable) -> T:
        """`compute(self, *args)` (a force pool ...), worked out once: the tables never change."""
        key = (compute, *args) if args else compute
        try:
            return self.cache[key]  # type: ignore[no-any-return]  # what compute gave for key
        except KeyError:
            value = self.cache[key] = compute(self, *args)
            return value

    def resolve(self, name: str) -> str:
        """The canonical name of a country or major power, matched case-insensitively."""
        if name in self.majors or name in self.minors:
            return name
        if len(name) > LONGEST_NAME:
            raise UnknownNameError("country", name)
        key = name.strip().casefold()
        if key in self._names:
            return self._names[key]
        close = close_matches(key, self._names, n=2, cutoff=0.75)
        raise UnknownNameError("country", name, tuple(dict.fromkeys(self._names[c] for c in close)))

    def minor(self, name: str) -> r.Minor:
        """The minor country called `name` (or one of its aliases)."""
        canonical = self.resolve(name)
        if canonical not in self.minors:
            raise UnknownNameError("minor country", name)
        return self.minors[canonical]

    def major(self, name: str) -> r.Major:
        """The major power called `name` (or one of its aliases)."""
        canonical = self.resolve(name)
        if canonical not in self.majors:
            raise UnknownNameError("major power", name)
        return self.majors[canonical]

    def clause(self, clause_id: str) -> r.Clause:
        """The clause registered under `clause_id` (`25.85` is read as `A25.85`)."""
        key = normalize_clause(clause_id)
        if key not in self.clauses:
            close = close_matches(key, self.clauses, n=2)
            raise UnknownNameError("clause", clause_id, tuple(close))
        return self.clauses[key]

    def force_row(self, minor: str) -> r.ForceRow | None:
        """The 82.61 row giving a minor's forces: its own, or one whose `*` covers it."""
        name = self.minor(minor).name
        if name in self.forces:
            return self.forces[name]
        for row in self.forces.values():
            for mark in row.row_marks:
                note = self.force_footnotes[mark]
                if note.kind is FootnoteKind.ALSO_COVERS and name in note.minors:
                    return row
        return None

    def calendar_end(self, start: str) -> Moment:
        """The last moment of play from the start `start`; for another, the latest of all."""
        return self.derived(_calendar_end, start)

    def is_illustrative(self, key: str) -> bool:
        """Whether a table or `table.field` holds illustrative (not rulebook) values."""
        entry = self.provenance.get(key) or self.provenance.get(key.split(".")[0])
        return entry is not None and entry.kind is ProvenanceKind.ILLUSTRATIVE


def _calendar_end(rs: Ruleset, start: str) -> Moment:
    spec = rs.starts.get(start)
    ends = [spec] if spec is not None else list(rs.starts.values())
    return max((Moment.parse(s.last_moment) for s in ends), default=START)  # no start, no game


# ---- building and validating ---------------------------------------------------------


Names = str | Iterable[str]
"""The names a field gives: a text is one name (none when empty), a list each of its own."""


_UNKNOWN = {
    "majors": ("{!r} is not a major power", "use one of {}"),
    "minors": ("{!r} is not a minor country", "use a name of tables/minors.toml"),
    "clauses": ("clause {!r} is not in the registry", "cite a clause of tables/clauses.toml"),
    "nationalities": ("{!r} is not a nationality", "use one of {}"),
}
"""The problem and fix of a name a table does not hold."""


@define
class _Checks:
    """The cross-checks of one build, recording every problem: the tables fail with all."""

    t: dict[str, dict[Any, Any]]
    origins: loader.Origins
    found: list[TableError] = attrs.Factory(list)
    section: str = ""
    key: Any = ""

    def at(self, section: str, key: Any) -> _Checks:
        """The checks of the entry `section.key`, recording into the same list."""
        return attrs.evolve(self, section=section, key=key)

    def problem(self, field: str, problem: str, fix: str) -> None:
        file = self.origins.get((self.section, str(self.key)), "tables")
        entry = f"{self.section}.{self.key}"
        self.found.append(TableError(problem, file=file, entry=entry, field=field, fix=fix))

    def check(self, ok: bool, field: str, problem: str, fix: str) -> bool:
        """Record `problem` when `ok` is false; whether it held."""
        if not ok:
            self.problem(field, problem, fix)
        return ok

    def known(self, table: str, field: str, names: Names) -> bool:
        """Whether `table` holds every name `field` gives; each it does not is recorded."""
        keys = self.t[table]
        listed = ((names,) if names else ()) if isinstance(names, str) else names
        unknown = [
            n for n in listed if (normalize_clause(n) if table == "clauses" else n) not in keys
        ]
        problem, fix = _UNKNOWN[table]
        for name in unknown:
            self.problem(field, problem.format(name), fix.format(", ".join(keys)))
        return not unknown

    def unique(
        self, seen: dict[str, str], fold: Callable[[str], str], aliases: Iterable[str], what: str
    ) -> None:
        """The entry's key and `aliases` name no entry seen before (compared `fold`ed)."""
        for spelling in (self.key, *aliases):
            folded = fold(spelling)
            self.check(
                folded not in seen,
                "aliases",
                f"name {spelling!r} is already used by {seen.get(folded)!r}",
                f"give each spelling to one {what}",
            )
            seen[folded] = self.key


def _cross_check(c: _Checks) -> None:
    """References between tables: countries, majors, clauses, footnote marks, required keys."""
    t = c.t
    clauses, majors, minors = t["clauses"], t["majors"], t["minors"]
    for key, clause in clauses.items():
        c.at("clauses", key).known("clauses", "parent", clause.parent)
    for key, problem in loader.parent_cycles({k: v.parent for k, v in clauses.items()}).items():
        fix = "give a clause that is not its own ancestor as the parent, or no parent"
        c.at("clauses", key).problem("parent", problem, fix)
    for faction in Faction:
        missing = f"faction {faction.value!r} is missing"
        c.at("factions", faction.value).check(faction in t["factions"], "", missing, "add it")
        c.at("association", faction.value).check(
            faction in t["association"],
            "",
            f"no association partners for {faction.value!r}",
            "add the entry",
        )
    for key, assoc in t["association"].items():
        at = c.at("association", key.value)
        at.known("majors", "on_attack", [assoc.on_attack])
        at.known("majors", "on_joining", [assoc.on_joining])
        at.known("majors", "deployed_by", assoc.deployed_by)
    for key, war in t["border_wars"].items():
        at = c.at("border_wars", key)
        at.known("minors", "minor", [key])
        at.known("majors", "attacker", [war.attacker])
        at.known("majors", "redeploy_when", war.redeploy_when)
        at.known("majors", "redeploy_by", war.redeploy_by)
    for key, row in t["alignments"].items():
        at = c.at("alignments", key)
        at.known("minors", "minor", [key])
        at.known("majors", "partner", [row.partner])
        at.known("majors", "war", row.war)
        at.known("majors", "declared_by", row.declared_by)
        at.known("minors", "occupied", row.occupied)

    seen: dict[str, str] = {}
    for section, table in (("majors", majors), ("minors", minors)):
        for key, entry in table.items():
            c.at(section, key).unique(seen, str.casefold, entry.aliases, "country")

    for key, minor in minors.items():
        at = c.at("minors", key)
        at.known("clauses", "clauses", minor.clauses)
        at.known("majors", "colony_of", minor.colony_of)
        at.known("majors", "start_major", minor.start_major)
        at.known("majors", "start_at_war_with", minor.start_at_war_with)
        at.known("majors", "colonies_open_to", minor.colonies_open_to)
        at.known("majors", "appears_on_fall_of", minor.appears_on_fall_of)
        at.known("clauses", "armed_forces_exception", minor.armed_forces_exception)
        at.check(
            not (minor.colony_of and minor.armed_forces and not minor.armed_forces_exception),
            "armed_forces",
            "a colony has no armed forces (82.62)",
            "set armed_forces = false, or cite the exception in armed_forces_exception",
        )
        tied = minor.start_status not in (Status.NEUTRAL, Status.INDEPENDENT)
        at.check(
            bool(minor.start_major) == tied,
            "start_major",
            f"a minor starting {minor.start_status.value} "
            + ("needs" if tied else "takes no")
            + " start_major",
            "set or clear start_major",
        )
        row = t["forces"].get(key)
        armed = row is not None and any(
            getattr(row, col) for col in r.COLUMNS[row.theater] if not col.startswith("partisans")
        )
        in_commonwealth = any(a.country == key for a in t["commonwealth"].values())
        at.check(
            not (armed and not minor.armed_forces),
            "armed_forces",
            "has armed forces in the forces table",
            "set armed_forces = true, or clear its army, air and naval cells (82.62)",
        )
        at.check(
            not (minor.armed_forces and not (armed or in_commonwealth)),
            "armed_forces",
            "has armed forces but no army, air or naval cell in any force table",
            "set armed_forces = false, or add its forces",
        )

    for key, row in t["forces"].items():
        at = c.at("forces", key)
        if not at.known("minors", "minor", [key]):
            continue
        theater = minors[key].theater.value
        at.check(
            minors[key].theater is row.theater,
            "theater",
            f"{key} is a {theater} minor",
            f"set theater = {theater!r}",
        )
        for field, marks in (("marks", tuple(row.marks.values())), ("row_marks", row.row_marks)):
            for mark in marks:
                at.check(
                    mark in t["force_footnotes"],
                    field,
                    f"footnote mark {mark!r} has no footnote",
                    "add it to force_footnotes or drop the mark",
                )
    for mark, note in t["force_footnotes"].items():
        at = c.at("force_footnotes", mark)
        at.known("minors", "minors", note.minors)
        at.known("minors", "minor", note.minor)
        if note.kind is FootnoteKind.DEPENDS_ON_RESULT:
            known = note.table == "forces_by_result"
            at.check(known, "table", f"table {note.table!r} is not known", "use forces_by_result")
        if note.kind is FootnoteKind.ANNUAL_PARTISANS:
            at.check(
                note.column.startswith("partisans_"),
                "column",
                f"{note.column!r} is not a partisan column",
                "use partisans_ax, _wa or _ru",
            )
    result_marks = {
        m for m, n in t["force_footnotes"].items() if n.kind is FootnoteKind.DEPENDS_ON_RESULT
    }
    for key in t["forces_by_result"]:
        at = c.at("forces_by_result", key)
        at.known("minors", "minor", [key])
        row = t["forces"].get(key)
        at.check(
            row is not None and bool(result_marks & {*row.row_marks, *row.marks.values()}),
            "minor",
            f"{key}'s forces are not marked as depending on the result",
            "mark its row or cell with the † footnote",
        )

    for key in t["commonwealth_layout"]:
        c.at("commonwealth_layout", key).known("minors", "country", [key])
    for key, arrival in t["commonwealth"].items():
        at = c.at("commonwealth", key)
        if not at.known("minors", "country", [arrival.country]):
            continue
        at.check(
            minors[arrival.country].start_status is Status.COMMONWEALTH,
            "country",
            f"{arrival.country} is not a Commonwealth country",
            "use Canada, South Africa, Australia or India",
        )
        layout = t["commonwealth_layout"].get(arrival.country)
        if layout is None:
            missing = f"{arrival.country} has no column layout"
            at.problem("country", missing, "add a commonwealth_layout entry")
            continue
        for column in r.COMMONWEALTH_COLUMNS:
            at.check(
                column in layout.columns or getattr(arrival, column) == r.Count(0),
                column,
                f"{arrival.country}'s table has no column {column!r}",
                f"use one of {', '.join(layout.columns)}",
            )
    for key, zone in t["commonwealth_zones"].items():
        at = c.at("commonwealth_zones", key)
        at.known("minors", "country", [key])
        for name in zone.countries:
            known = name in minors or name in majors
            at.check(
                known, "countries", f"{name!r} is not a country", "use a minor or a major power"
            )
    for key, note in t["commonwealth_notes"].items():
        at = c.at("commonwealth_notes", key)
        at.known("minors", "countries", note.countries)
        at.known("majors", "by", note.by)
        at.known("clauses", "clause", note.clause)

    counted = {*r.EUROPE_COLUMNS, *r.PACIFIC_COLUMNS, *r.COMMONWEALTH_COLUMNS}
    for column in sorted(counted):
        if not column.startswith("partisans"):
            c.at("force_units", column).check(
                column in t["force_units"],
                "",
                f"column {column!r} has no unit type",
                "add a force_units entry for it",
            )
    present = True
    for section, required in (
        ("deployment", ("stacking",)),
        ("costs", ("declare_war_minor", "declare_war_major")),
        ("brp_rules", ("partial", "proration")),
        ("limits", ("default",)),
    ):
        for name in required:
            present &= c.at(section, name).check(
                name in t[section],
                "",
                f"required entry {name!r} is missing",
                "add it (or do not remove it)",
            )
    for key, cost in t["costs"].items():
        c.at("costs", key).known("clauses", "clause", cost.clause)
    brp_rules = t["brp_rules"]
    c.at("brp_rules", "partial").check(
        not present or brp_rules["partial"].kind in (BrpRuleKind.FIXED, BrpRuleKind.FRACTION),
        "kind",
        "the partial grant must be fixed or fraction",
        "use fixed or fraction",
    )
    c.at("brp_rules", "proration").check(
        not present or brp_rules["proration"].kind is BrpRuleKind.PRORATION,
        "kind",
        "must be a proration",
        "use kind = 'proration'",
    )

    results = sorted(t["diplomatic_results"])
    c.at("diplomatic_results", results[0] if results else 0).check(
        bool(results) and results == list(range(results[0], results[-1] + 1)),
        "",
        "the diplomatic scale has gaps",
        "give every result from the lowest to the highest",
    )
    for key, result in t["diplomatic_results"].items():
        if result.effect is ScaleEffect.SET:
            c.at("diplomatic_results", key).check(
                result.level in t["diplomatic_levels"],
                "level",
                f"level {result.level.name.lower()!r} has no effect entry",
                "add it to diplomatic_levels",
            )
    for key, level in t["diplomatic_levels"].items():
        c.at("diplomatic_levels", key.name.lower()).known("clauses", "clause", level.clause)

    for key, limit in t["limits"].items():
        at = c.at("limits", key)
        at.known("clauses", "clause", [limit.clause])
        at.known("minors", "minor", limit.minor)
        at.known("minors", "exempt_owners", limit.exempt_owners)
    for key, group in t["limit_groups"].items():
        at = c.at("limit_groups", key)
        at.known("clauses", "clause", [group.clause])
        at.known("minors", "minors", group.minors)
    for key, start in t["starts"].items():
        at = c.at("starts", key)
        for pair in start.wars:
            if at.known("majors", "wars", pair):
                at.check(
                    pair[0] != pair[1],
                    "wars",
                    f"{pair[0]} is at war with itself",
                    'pair two different major powers, like ["Germany", "France"]',
                )
        for pending in start.pending:
            at.known("minors", "pending", [pending.minor])
            at.known("majors", "pending", [pending.partner])
        _check_start_moments(at, start)
    _cross_check_a25(c)
    for key in t["provenance"]:
        section = key.split(".")[0]
        c.at("provenance", key).check(
            section in loader.SECTIONS,
            "key",
            f"{section!r} is not a table",
            "key provenance by a table or table.field",
        )


def _check_start_moments(at: _Checks, start: r.Start) -> None:
    """A start's moments can be read, and its calendar ends at or after each of them."""
    read: dict[str, Moment] = {}
    named = [("clock", start.clock), ("last_moment", start.last_moment)]
    named += [("attacked_at", start.attacked_at)] + [("pending", p.due) for p in start.pending]
    for field, text in named:
        if text:
            try:
                read[field] = max(read.get(field, Moment(0)), Moment.parse(text))
            except MinorsError as exc:
                at.problem(field, str(exc), "write a moment")
    last = read.pop("last_moment", None)
    for field, moment in read.items():
        if last is not None and moment > last:
            at.problem(
                "last_moment",
                f"the calendar ends at {last}, before the {field} moment {moment}",
                f"give a last_moment at or after {moment}",
            )


_NAMED_BY_VALUE = {
    TraitKind.OBA_AS,
    TraitKind.DYO_EXCLUDES,
    TraitKind.INHERENT_CREW_MORALE_AS,
    TraitKind.RULES_AFTER_CONQUEST,
}
"""The trait kinds whose value names a nationality."""


def _cross_check_a25(c: _Checks) -> None:
    """References of the A25 tables: parents, clauses, nationalities, ratings, countries."""
    t = c.t
    nations = t["nationalities"]
    spellings: dict[str, str] = {}
    for key, nation in nations.items():
        at = c.at("nationalities", key)
        at.known("nationalities", "parent", nation.parent)
        at.known("nationalities", "successors", nation.successors)
        at.known("clauses", "clause", nation.clause)
        at.known("clauses", "classes_clause", nation.classes_clause)
        at.known("clauses", "classes_only_in_clause", nation.classes_only_in_clause)
        for unit in nation.units:
            at.known("clauses", "units", unit.clause)
        at.unique(spellings, name_key, nation.aliases, "nationality")
    lineages: dict[str, list[str]] = {}
    for key in nations:
        at = c.at("nationalities", key)
        chain = [key]
        while nations[chain[-1]].parent in nations:
            parent = nations[chain[-1]].parent
            if not at.check(
                parent not in chain,
                "parent",
                f"the parents of {key!r} form a cycle through {parent!r}",
                "make the tree a tree",
            ):
                break
            chain.append(parent)
        lineages[key] = chain
        start = next((nations[n].from_ for n in chain if nations[n].from_), None)
        end = next((nations[n].until for n in chain if nations[n].until), None)
        at.check(
            start is None or end is None or start <= end,
            "until",
            f"its months run from {start} to {end}, an empty span",
            "give it its own from and until",
        )
    ratings = {
        key: {u.rating for node in chain for u in nations[node].units}
        for key, chain in lineages.items()
    }
    for key, row in t["nationality_traits"].items():
        at = c.at("nationality_traits", key)
        every = row.nationalities == ("*",)
        if not every:
            at.known("nationalities", "nationalities", row.nationalities)
        at.known("clauses", "clause", row.clause)
        at.known("nationalities", "vs", (*row.vs, *row.not_vs))
        if row.kind in _NAMED_BY_VALUE:
            values = row.value if isinstance(row.value, tuple) else (row.value,)
            at.known("nationalities", "value", [str(v) for v in values])
        for field, selectors in (("units", row.units), ("except_units", row.except_units)):
            for selector in filter(is_rating, selectors):
                for name in row.nationalities:
                    at.check(
                        not every and selector in ratings.get(name, ()),
                        field,
                        f"{name} has no {selector!r} counter",
                        "add the counter to the nationality's units, or fix the rating",
                    )
    for key, chart in t["replacement_charts"].items():
        at = c.at("replacement_charts", key)
        at.known("nationalities", "nationality", [key])
        at.known("clauses", "clause", chart.clause)
    for key, row in t["country_nationality"].items():
        at = c.at("country_nationality", key)
        at.check(
            key in t["minors"] or key in t["majors"],
            "country",
            f"{key!r} is not a country",
            "use a name of tables/minors.toml or tables/powers.toml",
        )
        named = (row.nationality, row.axis_nationality, row.organized_by)
        at.known("nationalities", "nationality", [n for n in named if n])
        at.known("clauses", "clause", row.clause)


def build(overlays: Iterable[loader.Overlay] = ()) -> Ruleset:
    """Load the built-in tables, merge `overlays` over them, validate, and digest."""
    files = loader.read_overlays(overlays)
    raw, origins = loader.load_raw()
    raw, origins = loader.merge_overlays(raw, origins, files)
    tables = loader.structure(raw, origins)
    checks = _Checks(tables, origins)
    _cross_check(checks)
    if checks.found:
        raise TableError.of(checks.found)
    countries = (*tables["majors"].items(), *tables["minors"].items())
    names = {s.casefold(): key for key, entry in countries for s in (key, *entry.aliases)}
    return Ruleset(
        **{section: MappingProxyType(entries) for section, entries in tables.items()},
        digest=loader.tables_digest(tables),
        sources=tuple(name for name, _ in files),
        overlay_files=tuple((name, data.decode("utf-8", "replace")) for name, data in files),
        names=MappingProxyType(names),
    )


@functools.lru_cache(maxsize=32)
def _cached(overlays: tuple[str, ...]) -> Ruleset:
    return build(overlays)


def _restore(overlays: tuple[tuple[str, bytes], ...], digest: str) -> Ruleset:
    rs = load_ruleset(overlays)
    if rs.digest != digest:
        raise TableError(
            f"the pickled tables had digest {digest[:12]}..., these {rs.digest[:12]}...",
            file="tables",
            fix="unpickle with the same version of minors and its tables",
        )
    return rs


def load_ruleset(overlays: Iterable[loader.Overlay] = ()) -> Ruleset:
    """The rules in force with `overlays` merged in order (docs/api.md, "Tables")."""
    given = tuple(str(o) if isinstance(o, Path) else o for o in overlays)
    if not given:
        return _cached(())
    return build(given)  # overlay files may change between calls: never cached
