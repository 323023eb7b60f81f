"""The rules in force: the merged, validated tables, their digest, and name lookups."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping
from contextvars import ContextVar
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import attrs
from attrs import frozen

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
from ..domain.clock import Moment
from ..errors import LONGEST_NAME, MinorsError, TableError, UnknownNameError, close_matches
from . import a25, loader
from . import records as r
from .a25 import is_rating

__all__ = ["Ruleset", "load_ruleset"]

_View = Mapping[Any, Any]


T = TypeVar("T")


def _view(mapping: dict[Any, Any]) -> _View:
    return MappingProxyType(mapping)


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
        object.__setattr__(self, "side_of", _view(side_of))
        object.__setattr__(self, "faction_members", _view(members))
        object.__setattr__(self, "cache", {})
        results = self.diplomatic_results
        object.__setattr__(self, "scale", (min(results), max(results)) if results else (0, 0))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its overlays: unpickling loads the tables again (the built-in ones
        come from the cache) and checks the digest, so a game can cross processes."""
        overlays = tuple((name, text.encode("utf-8")) for name, text in self.overlay_files)
        return _restore, (overlays, self.digest)

    def derived(self, compute: Callable[..., T], *args: Hashable) -> T:
        """`compute(self, *args)`, a value the rules work out from the tables (a force
        pool, a set of powers), worked out once: the tables never change."""
        key = (compute, *args) if args else compute
        try:
            return self.cache[key]  # type: ignore[no-any-return]  # what compute gave for key
        except KeyError:
            value = self.cache[key] = compute(self, *args)
            return value

    # ---- lookups -----------------------------------------------------------------

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
        """The last moment of play of games from the start `start` (its `last_moment`); for
        a start the tables do not hold, the latest of every start's."""
        return self.derived(_calendar_end, start)

    def is_illustrative(self, key: str) -> bool:
        """Whether a table or `table.field` holds illustrative (not rulebook) values."""
        entry = self.provenance.get(key) or self.provenance.get(key.split(".")[0])
        return entry is not None and entry.kind is ProvenanceKind.ILLUSTRATIVE


def _calendar_end(rs: Ruleset, start: str) -> Moment:
    spec = rs.starts.get(start)
    ends = [spec] if spec is not None else list(rs.starts.values())
    return max((Moment.parse(s.last_moment) for s in ends), default=Moment.parse(_NO_START_END))


_NO_START_END = "1939-fall/axis/diplomacy"
"""The calendar of tables with no start at all (no game can be made from them)."""


# ---- building and validating ---------------------------------------------------------


_FOUND: ContextVar[list[TableError] | None] = ContextVar("found", default=None)
"""The problems the cross-checks of one `build` found so far (None: raise at once)."""


def _check(
    ok: bool, problem: str, origins: loader.Origins, section: str, key: Any, field: str, fix: str
) -> bool:
    """Record a problem when `ok` is false (or raise it, outside a build); whether it held."""
    if not ok:
        error = TableError(
            problem,
            file=origins.get((section, str(key)), "tables"),
            entry=f"{section}.{key}",
            field=field,
            fix=fix,
        )
        found = _FOUND.get()
        if found is None:
            raise error
        found.append(error)
    return ok


def _cited(
    clauses: Mapping[str, Any],
    origins: loader.Origins,
    section: str,
    key: Any,
    field: str,
    ids: Iterable[str],
) -> None:
    """Every clause id cited by an entry's field is in the registry."""
    for clause_id in ids:
        _check(
            normalize_clause(clause_id) in clauses,
            f"clause {clause_id!r} is not in the registry",
            origins,
            section,
            key,
            field,
            "cite a clause of tables/clauses.toml",
        )


def _cross_check(t: dict[str, dict[Any, Any]], origins: loader.Origins) -> None:
    """References between tables: countries, majors, clauses, footnote marks, required keys."""
    clauses, majors, minors = t["clauses"], t["majors"], t["minors"]

    def clause_ok(section: str, key: Any, field: str, ids: Iterable[str]) -> None:
        _cited(clauses, origins, section, key, field, ids)

    def major_ok(section: str, key: Any, field: str, names: Iterable[str]) -> bool:
        checked = [  # every name checked, so that every problem is recorded
            _check(
                name in majors,
                f"{name!r} is not a major power",
                origins,
                section,
                key,
                field,
                f"use one of {', '.join(majors)}",
            )
            for name in names
        ]
        return all(checked)

    def minor_ok(section: str, key: Any, field: str, names: Iterable[str]) -> bool:
        checked = [  # every name checked, so that every problem is recorded
            _check(
                name in minors,
                f"{name!r} is not a minor country",
                origins,
                section,
                key,
                field,
                "use a name of tables/minors.toml",
            )
            for name in names
        ]
        return all(checked)

    for key, clause in clauses.items():
        if clause.parent:
            clause_ok("clauses", key, "parent", [clause.parent])
    for key, problem in loader.parent_cycles({k: c.parent for k, c in clauses.items()}).items():
        _check(
            False,
            problem,
            origins,
            "clauses",
            key,
            "parent",
            "give a clause that is not its own ancestor as the parent, or no parent",
        )
    for faction in Faction:
        _check(
            faction in t["factions"],
            f"faction {faction.value!r} is missing",
            origins,
            "factions",
            faction.value,
            "",
            "add it",
        )
        _check(
            faction in t["association"],
            f"no association partners for {faction.value!r}",
            origins,
            "association",
            faction.value,
            "",
            "add the entry",
        )
    for key, assoc in t["association"].items():
        major_ok("association", key.value, "on_attack", [assoc.on_attack])
        major_ok("association", key.value, "on_joining", [assoc.on_joining])
        major_ok("association", key.value, "deployed_by", assoc.deployed_by)
    for key, war in t["border_wars"].items():
        minor_ok("border_wars", key, "minor", [key])
        major_ok("border_wars", key, "attacker", [war.attacker])
        for field in ("redeploy_when", "redeploy_by"):
            major_ok(
                "border_wars", key, field, [getattr(war, field)] if getattr(war, field) else []
            )
    for key, row in t["alignments"].items():
        minor_ok("alignments", key, "minor", [key])
        major_ok("alignments", key, "partner", [row.partner])
        major_ok("alignments", key, "war", row.war)
        major_ok("alignments", key, "declared_by", [row.declared_by] if row.declared_by else [])
        minor_ok("alignments", key, "occupied", [row.occupied] if row.occupied else [])

    seen: dict[str, str] = {}
    for section, table in (("majors", majors), ("minors", minors)):
        for key, entry in table.items():
            for spelling in (key, *entry.aliases):
                folded = spelling.casefold()
                _check(
                    folded not in seen,
                    f"name {spelling!r} is already used by {seen.get(folded)!r}",
                    origins,
                    section,
                    key,
                    "aliases",
                    "give each spelling to one country",
                )
                seen[folded] = key

    for key, minor in minors.items():
        clause_ok("minors", key, "clauses", minor.clauses)
        major_ok("minors", key, "colony_of", [minor.colony_of] if minor.colony_of else [])
        major_ok("minors", key, "start_major", [minor.start_major] if minor.start_major else [])
        major_ok("minors", key, "start_at_war_with", minor.start_at_war_with)
        major_ok("minors", key, "colonies_open_to", minor.colonies_open_to)
        if minor.appears_on_fall_of:
            major_ok("minors", key, "appears_on_fall_of", [minor.appears_on_fall_of])
        if minor.armed_forces_exception:
            clause_ok("minors", key, "armed_forces_exception", [minor.armed_forces_exception])
        _check(
            not (minor.colony_of and minor.armed_forces and not minor.armed_forces_exception),
            "a colony has no armed forces (82.62)",
            origins,
            "minors",
            key,
            "armed_forces",
            "set armed_forces = false, or cite the exception in armed_forces_exception",
        )
        tied = minor.start_status not in (Status.NEUTRAL, Status.INDEPENDENT)
        _check(
            bool(minor.start_major) == tied,
            f"a minor starting {minor.start_status.value} "
            + ("needs" if tied else "takes no")
            + " start_major",
            origins,
            "minors",
            key,
            "start_major",
            "set or clear start_major",
        )
        row = t["forces"].get(key)
        armed = row is not None and any(
            getattr(row, c) for c in r.COLUMNS[row.theater] if not c.startswith("partisans")
        )
        in_commonwealth = any(a.country == key for a in t["commonwealth"].values())
        _check(
            not (armed and not minor.armed_forces),
            "has armed forces in the forces table",
            origins,
            "minors",
            key,
            "armed_forces",
            "set armed_forces = true, or clear its army, air and naval cells (82.62)",
        )
        _check(
            not (minor.armed_forces and not (armed or in_commonwealth)),
            "has armed forces but no army, air or naval cell in any force table",
            origins,
            "minors",
            key,
            "armed_forces",
            "set armed_forces = false, or add its forces",
        )

    for key, row in t["forces"].items():
        if not minor_ok("forces", key, "minor", [key]):
            continue
        _check(
            minors[key].theater is row.theater,
            f"{key} is a {minors[key].theater.value} minor",
            origins,
            "forces",
            key,
            "theater",
            f"set theater = {minors[key].theater.value!r}",
        )
        for field, marks in (("marks", tuple(row.marks.values())), ("row_marks", row.row_marks)):
            for mark in marks:
                _check(
                    mark in t["force_footnotes"],
                    f"footnote mark {mark!r} has no footnote",
                    origins,
                    "forces",
                    key,
                    field,
                    "add it to force_footnotes or drop the mark",
                )
    for mark, note in t["force_footnotes"].items():
        minor_ok("force_footnotes", mark, "minors", note.minors)
        minor_ok("force_footnotes", mark, "minor", [note.minor] if note.minor else [])
        if note.kind is FootnoteKind.DEPENDS_ON_RESULT:
            _check(
                note.table == "forces_by_result",
                f"table {note.table!r} is not known",
                origins,
                "force_footnotes",
                mark,
                "table",
                "use forces_by_result",
            )
        if note.kind is FootnoteKind.ANNUAL_PARTISANS:
            _check(
                note.column.startswith("partisans_"),
                f"{note.column!r} is not a partisan column",
                origins,
                "force_footnotes",
                mark,
                "column",
                "use partisans_ax, _wa or _ru",
            )
    result_marks = {
        m for m, n in t["force_footnotes"].items() if n.kind is FootnoteKind.DEPENDS_ON_RESULT
    }
    for key in t["forces_by_result"]:
        minor_ok("forces_by_result", key, "minor", [key])
        row = t["forces"].get(key)
        marked = row is not None and bool(result_marks & {*row.row_marks, *row.marks.values()})
        _check(
            marked,
            f"{key}'s forces are not marked as depending on the result",
            origins,
            "forces_by_result",
            key,
            "minor",
            "mark its row or cell with the † footnote",
        )

    for key in t["commonwealth_layout"]:
        minor_ok("commonwealth_layout", key, "country", [key])
    for key, arrival in t["commonwealth"].items():
        if not minor_ok("commonwealth", key, "country", [arrival.country]):
            continue
        _check(
            minors[arrival.country].start_status is Status.COMMONWEALTH,
            f"{arrival.country} is not a Commonwealth country",
            origins,
            "commonwealth",
            key,
            "country",
            "use Canada, South Africa, Australia or India",
        )
        layout = t["commonwealth_layout"].get(arrival.country)
        if not _check(
            layout is not None,
            f"{arrival.country} has no column layout",
            origins,
            "commonwealth",
            key,
            "country",
            "add a commonwealth_layout entry",
        ):
            continue
        assert layout is not None
        for column in r.COMMONWEALTH_COLUMNS:
            _check(
                column in layout.columns or getattr(arrival, column) == r.Count(0),
                f"{arrival.country}'s table has no column {column!r}",
                origins,
                "commonwealth",
                key,
                column,
                f"use one of {', '.join(layout.columns)}",
            )
    for key, zone in t["commonwealth_zones"].items():
        minor_ok("commonwealth_zones", key, "country", [key])
        for name in zone.countries:
            _check(
                name in minors or name in majors,
                f"{name!r} is not a country",
                origins,
                "commonwealth_zones",
                key,
                "countries",
                "use a minor or a major power",
            )
    for key, note in t["commonwealth_notes"].items():
        minor_ok("commonwealth_notes", key, "countries", note.countries)
        major_ok("commonwealth_notes", key, "by", [note.by] if note.by else [])
        clause_ok("commonwealth_notes", key, "clause", [note.clause] if note.clause else [])

    counted = {*r.EUROPE_COLUMNS, *r.PACIFIC_COLUMNS, *r.COMMONWEALTH_COLUMNS}
    for column in sorted(counted):
        if not column.startswith("partisans"):
            _check(
                column in t["force_units"],
                f"column {column!r} has no unit type",
                origins,
                "force_units",
                column,
                "",
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
            present &= _check(
                name in t[section],
                f"required entry {name!r} is missing",
                origins,
                section,
                name,
                "",
                "add it (or do not remove it)",
            )
    for key, cost in t["costs"].items():
        clause_ok("costs", key, "clause", [cost.clause] if cost.clause else [])
    _check(
        not present or t["brp_rules"]["partial"].kind in (BrpRuleKind.FIXED, BrpRuleKind.FRACTION),
        "the partial grant must be fixed or fraction",
        origins,
        "brp_rules",
        "partial",
        "kind",
        "use fixed or fraction",
    )
    _check(
        not present or t["brp_rules"]["proration"].kind is BrpRuleKind.PRORATION,
        "must be a proration",
        origins,
        "brp_rules",
        "proration",
        "kind",
        "use kind = 'proration'",
    )

    results = sorted(t["diplomatic_results"])
    _check(
        bool(results) and results == list(range(results[0], results[-1] + 1)),
        "the diplomatic scale has gaps",
        origins,
        "diplomatic_results",
        results[0] if results else 0,
        "",
        "give every result from the lowest to the highest",
    )
    for key, result in t["diplomatic_results"].items():
        if result.effect is ScaleEffect.SET:
            _check(
                result.level in t["diplomatic_levels"],
                f"level {result.level.name.lower()!r} has no effect entry",
                origins,
                "diplomatic_results",
                key,
                "level",
                "add it to diplomatic_levels",
            )
    for key, level in t["diplomatic_levels"].items():
        clause_ok(
            "diplomatic_levels", key.name.lower(), "clause", [level.clause] if level.clause else []
        )

    for key, limit in t["limits"].items():
        clause_ok("limits", key, "clause", [limit.clause])
        minor_ok("limits", key, "minor", [limit.minor] if limit.minor else [])
        minor_ok("limits", key, "exempt_owners", limit.exempt_owners)
    for key, group in t["limit_groups"].items():
        clause_ok("limit_groups", key, "clause", [group.clause])
        minor_ok("limit_groups", key, "minors", group.minors)
    for key, start in t["starts"].items():
        for pair in start.wars:
            if major_ok("starts", key, "wars", pair):
                _check(
                    pair[0] != pair[1],
                    f"{pair[0]} is at war with itself",
                    origins,
                    "starts",
                    key,
                    "wars",
                    'pair two different major powers, like ["Germany", "France"]',
                )
        for pending in start.pending:
            minor_ok("starts", key, "pending", [pending.minor])
            major_ok("starts", key, "pending", [pending.partner])
        _check_start_moments(key, start, origins)
    _cross_check_a25(t, origins)
    for key in t["provenance"]:
        section = key.split(".")[0]
        _check(
            section in loader.SECTIONS,
            f"{section!r} is not a table",
            origins,
            "provenance",
            key,
            "key",
            "key provenance by a table or table.field",
        )


def _check_start_moments(key: str, start: r.Start, origins: loader.Origins) -> None:
    """A start's moments can be read, and its calendar ends at or after its clock and every
    moment it names."""
    read: dict[str, Moment] = {}
    named = [("clock", start.clock), ("last_moment", start.last_moment)]
    named += [("attacked_at", start.attacked_at)] + [("pending", p.due) for p in start.pending]
    for field, moment in named:
        if moment:
            try:
                read[field] = max(read.get(field, Moment(0)), Moment.parse(moment))
            except MinorsError as exc:
                _check(False, str(exc), origins, "starts", key, field, "write a moment")
    last = read.pop("last_moment", None)
    for named_field, at in read.items() if last is not None else ():
        _check(
            last is not None and at <= last,
            f"the calendar ends at {last}, before the {named_field} moment {at}",
            origins,
            "starts",
            key,
            "last_moment",
            f"give a last_moment at or after {at}",
        )


def _cross_check_a25(t: dict[str, dict[Any, Any]], origins: loader.Origins) -> None:
    """References of the A25 tables: parents (and no cycle), clauses, nationalities named
    by rows, ratings against the counters each nationality has, and countries."""
    clauses, nations = t["clauses"], t["nationalities"]

    def clause_ok(section: str, key: Any, field: str, clause_id: str) -> None:
        _cited(clauses, origins, section, key, field, [clause_id] if clause_id else [])

    def nation_ok(section: str, key: Any, field: str, names: Iterable[str]) -> None:
        for name in names:
            _check(
                name in nations,
                f"{name!r} is not a nationality",
                origins,
                section,
                key,
                field,
                f"use one of {', '.join(nations)}",
            )

    spellings: dict[str, str] = {}
    for key, nation in nations.items():
        nation_ok("nationalities", key, "parent", [nation.parent] if nation.parent else [])
        nation_ok("nationalities", key, "successors", nation.successors)
        clause_ok("nationalities", key, "clause", nation.clause)
        clause_ok("nationalities", key, "classes_clause", nation.classes_clause)
        clause_ok("nationalities", key, "classes_only_in_clause", nation.classes_only_in_clause)
        for unit in nation.units:
            clause_ok("nationalities", key, "units", unit.clause)
        for spelling in (key, *nation.aliases):
            folded = name_key(spelling)
            _check(
                folded not in spellings,
                f"name {spelling!r} is already used by {spellings.get(folded)!r}",
                origins,
                "nationalities",
                key,
                "aliases",
                "give each spelling to one nationality",
            )
            spellings[folded] = key
    lineages: dict[str, list[str]] = {}
    for key in nations:
        chain = [key]
        while nations[chain[-1]].parent in nations:
            parent = nations[chain[-1]].parent
            if not _check(
                parent not in chain,
                f"the parents of {key!r} form a cycle through {parent!r}",
                origins,
                "nationalities",
                key,
                "parent",
                "make the tree a tree",
            ):
                break
            chain.append(parent)
        lineages[key] = chain
        start = next((nations[n].from_ for n in chain if nations[n].from_), None)
        end = next((nations[n].until for n in chain if nations[n].until), None)
        _check(
            start is None or end is None or start <= end,
            f"its months run from {start} to {end}, an empty span",
            origins,
            "nationalities",
            key,
            "until",
            "give it its own from and until",
        )
    ratings = {
        key: {u.rating for node in chain for u in nations[node].units}
        for key, chain in lineages.items()
    }
    named_by_value = {
        TraitKind.OBA_AS,
        TraitKind.DYO_EXCLUDES,
        TraitKind.INHERENT_CREW_MORALE_AS,
        TraitKind.RULES_AFTER_CONQUEST,
    }
    for key, row in t["nationality_traits"].items():
        every = row.nationalities == ("*",)
        if not every:
            nation_ok("nationality_traits", key, "nationalities", row.nationalities)
        clause_ok("nationality_traits", key, "clause", row.clause)
        nation_ok("nationality_traits", key, "vs", (*row.vs, *row.not_vs))
        if row.kind in named_by_value:
            values = row.value if isinstance(row.value, tuple) else (row.value,)
            nation_ok("nationality_traits", key, "value", [str(v) for v in values])
        for field, selectors in (("units", row.units), ("except_units", row.except_units)):
            for selector in selectors:
                if is_rating(selector):
                    for name in row.nationalities:
                        _check(
                            not every and selector in ratings.get(name, ()),
                            f"{name} has no {selector!r} counter",
                            origins,
                            "nationality_traits",
                            key,
                            field,
                            "add the counter to the nationality's units, or fix the rating",
                        )
    for key, chart in t["replacement_charts"].items():
        nation_ok("replacement_charts", key, "nationality", [key])
        clause_ok("replacement_charts", key, "clause", chart.clause)
    for key, row in t["country_nationality"].items():
        _check(
            key in t["minors"] or key in t["majors"],
            f"{key!r} is not a country",
            origins,
            "country_nationality",
            key,
            "country",
            "use a name of tables/minors.toml or tables/powers.toml",
        )
        named = (row.nationality, row.axis_nationality, row.organized_by)
        nation_ok("country_nationality", key, "nationality", [n for n in named if n])
        clause_ok("country_nationality", key, "clause", row.clause)


def _spellings(t: dict[str, dict[Any, Any]]) -> dict[str, str]:
    names: dict[str, str] = {}
    for table in (t["majors"], t["minors"]):
        for key, entry in table.items():
            for spelling in (key, *entry.aliases):
                names[spelling.casefold()] = key
    return names


def build(overlays: Iterable[loader.Overlay] = ()) -> Ruleset:
    """Load the built-in tables, merge `overlays` over them, validate, and digest."""
    files = loader.read_overlays(overlays)
    raw, origins = loader.load_raw()
    raw, origins = loader.merge_overlays(raw, origins, files)
    tables = loader.structure(raw, origins)
    found: list[TableError] = []
    token = _FOUND.set(found)
    try:
        _cross_check(tables, origins)
    finally:
        _FOUND.reset(token)
    if found:
        raise TableError.of(found)
    return Ruleset(
        **{section: _view(entries) for section, entries in tables.items()},
        digest=loader.tables_digest(tables),
        sources=tuple(name for name, _ in files),
        overlay_files=tuple((name, data.decode("utf-8", "replace")) for name, data in files),
        names=_view(_spellings(tables)),
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
    """The rules in force with `overlays` merged in order; the built-in tables alone by default.

    Raises:
        TableError: a table or overlay is malformed, naming file, entry, field and fix.
    """
    given = tuple(str(o) if isinstance(o, Path) else o for o in overlays)
    if not given:
        return _cached(())
    return build(given)  # overlay files may change between calls: never cached
