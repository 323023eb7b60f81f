"""Read the rule tables and overlays, merge them (docs/tables.md, "Overlays"), structure them into
records, validate; every error names the file, entry and field at fault."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from fractions import Fraction
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import attrs
import cattrs
from cattrs.errors import ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ..domain import convert
from ..domain.a25 import TraitValue, YearMonth, YearMonthError
from ..domain.reading import InputError, display, parse_toml, read_file
from ..errors import TableError, close_matches, shown
from . import a25
from . import records as r
from .records import FieldError

__all__ = [
    "SECTIONS",
    "builtin_tables",
    "load_raw",
    "merge_overlays",
    "parent_cycles",
    "structure",
    "tables_digest",
]

# section -> (record class, the field its entry key fills)
SECTIONS: dict[str, tuple[type[Any], str]] = {
    "clauses": (r.Clause, "id"),
    "factions": (r.FactionEntry, "name"),
    "majors": (r.Major, "name"),
    "minors": (r.Minor, "name"),
    "forces": (r.ForceRow, "minor"),
    "force_footnotes": (r.Footnote, "mark"),
    "forces_by_result": (r.ResultForces, "minor"),
    "commonwealth": (r.ArrivalRow, "key"),
    "commonwealth_layout": (r.CommonwealthLayout, "country"),
    "commonwealth_notes": (r.CommonwealthNote, "key"),
    "association": (r.Association, "faction"),
    "border_wars": (r.BorderWarRule, "minor"),
    "alignments": (r.Alignment, "minor"),
    "costs": (r.Cost, "key"),
    "diplomatic_results": (r.ScaleEntry, "result"),
    "diplomatic_levels": (r.LevelEffect, "level"),
    "brp_rules": (r.BrpRule, "key"),
    "limits": (r.Limit, "key"),
    "limit_groups": (r.LimitGroup, "key"),
    "provenance": (r.Provenance, "key"),
    "starts": (r.Start, "name"),
    "force_units": (r.ForceUnit, "column"),
    "deployment": (r.DeploymentRule, "key"),
    "commonwealth_zones": (r.CommonwealthZone, "country"),
    "nationalities": (a25.Nationality, "name"),
    "nationality_traits": (a25.TraitRow, "key"),
    "replacement_charts": (a25.ReplacementChart, "nationality"),
    "country_nationality": (a25.CountryNationality, "country"),
}

Raw = dict[str, dict[str, dict[str, Any]]]
Origins = dict[tuple[str, str], str]


def builtin_tables() -> Traversable:
    """The built-in `tables/` folder as package data (`minors/_tables`: a link, in a checkout)."""
    return files("minors") / "_tables"


def _read_toml(name: str, data: bytes) -> dict[str, Any]:
    """A table file's TOML, within the limits of `minors.domain.reading`."""
    try:
        return parse_toml(data)
    except InputError as exc:
        fix = "correct the TOML syntax" if "TOML" in str(exc) else "keep within the limit"
        raise TableError(str(exc), file=name, fix=fix) from None


def _sections_of(name: str, document: Mapping[str, Any]) -> Raw:
    out: Raw = {}
    for section, entries in document.items():
        if section not in SECTIONS:
            raise TableError(
                f"unknown table {shown(section)}",
                file=name,
                fix=f"use one of {', '.join(sorted(SECTIONS))}",
            )
        if not isinstance(entries, dict):
            raise TableError(
                f"table {shown(section)} must hold entries",
                file=name,
                fix=f"write entries as [{section}.NAME]",
            )
        for key, entry in entries.items():
            if not isinstance(entry, dict):
                raise TableError(
                    f"{section}.{shown(key)} is not an entry",
                    file=name,
                    entry=key,
                    fix=f"write it as a table: [{section}.{shown(key)}]",
                )
        out[section] = entries
    return out


def load_raw() -> tuple[Raw, Origins]:
    """Read every built-in table file; each entry is defined in exactly one file."""
    raw: Raw = {}
    origins: Origins = {}
    for item in sorted(builtin_tables().iterdir(), key=lambda t: t.name):
        if not item.name.endswith(".toml"):
            continue
        name = f"tables/{item.name}"
        for section, entries in _sections_of(name, _read_toml(name, item.read_bytes())).items():
            target = raw.setdefault(section, {})
            for key, entry in entries.items():
                if key in target:
                    raise TableError(
                        f"defined again (first in {origins[(section, key)]})",
                        file=name,
                        entry=f"{section}.{key}",
                        fix="define each entry in one file only",
                    )
                target[key] = entry
                origins[(section, key)] = name
    return raw, origins


Overlay = str | Path | tuple[str, bytes]
"""An overlay: a file path, or a (name, TOML bytes) pair (an audit log carries its own)."""


def read_overlays(overlays: Iterable[Overlay]) -> list[tuple[str, bytes]]:
    """Each overlay as (name, bytes), reading the files."""
    out: list[tuple[str, bytes]] = []
    for overlay in overlays:
        if isinstance(overlay, tuple):
            out.append(overlay)
            continue
        try:
            out.append((str(overlay), read_file(overlay, "overlay")))
        except InputError as exc:
            raise TableError(
                str(exc),
                file=display(overlay) or repr(str(overlay)),
                fix="give the path of an existing TOML file",
            ) from None
    return out


def merge_overlays(
    raw: Raw, origins: Origins, overlays: Iterable[tuple[str, bytes]]
) -> tuple[Raw, Origins]:
    """Merge overlays over the tables, in order (docs/tables.md, "Overlays")."""
    merged: Raw = {
        section: {k: dict(v) for k, v in entries.items()} for section, entries in raw.items()
    }
    origins = dict(origins)
    for name, data in overlays:
        for section, entries in _sections_of(name, _read_toml(name, data)).items():
            target = merged.setdefault(section, {})
            for key, entry in entries.items():
                if "remove" in entry:
                    if entry != {"remove": True}:
                        raise TableError(
                            "remove must be `remove = true` and stand alone",
                            file=name,
                            entry=f"{section}.{key}",
                            field="remove",
                            fix="write only `remove = true` in this entry",
                        )
                    if key not in target:
                        raise TableError(
                            "there is no such entry to remove",
                            file=name,
                            entry=f"{section}.{key}",
                            field="remove",
                            fix="check the entry's key",
                        )
                    del target[key]
                    continue
                if key not in target:
                    _check_new_entry(name, section, key, entry, target)
                target.setdefault(key, {}).update(entry)
                origins[(section, key)] = name
    return merged, origins


def _required(section: str) -> list[str]:
    """The fields a new entry of `section` must give, as the table spells them (not its key)."""
    cls, key_field = SECTIONS[section]
    names = a25.RENAMED.get(cls, {})
    return [
        names.get(a.name, a.name)
        for a in attrs.fields(cls)
        if a.default is attrs.NOTHING and a.name != key_field
    ]


def _check_new_entry(
    name: str, section: str, key: str, entry: Mapping[str, Any], known: Mapping[str, Any]
) -> None:
    """A new overlay entry gives every field; one that does not is taken for a misspelt key
    (`[minors.Swedn]`), and the closest keys are suggested."""
    missing = [f for f in _required(section) if f not in entry]
    if not missing:
        return
    lowered = {str(k).lower(): str(k) for k in known}
    close = [lowered[c] for c in close_matches(key.lower(), lowered, n=3, cutoff=0.6)]
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    raise TableError(
        f"no entry {shown(key)} in {section}{hint} (to add one, give every field; "
        f"missing: {', '.join(missing)})",
        file=name,
        entry=f"{section}.{key}",
        field=missing[0],
    )


def _partisans(value: Any, _: Any) -> r.Partisans:
    """A partisan cell: `a:b` (automatic:maximum); a single figure n means n:n; `-` is none."""
    if type(value) is int:
        return r.Partisans(value, value)
    if isinstance(value, str):
        text = value.strip()
        if text == "-":
            return r.Partisans(0, 0)
        parts = text.split(":")
        if len(parts) in (1, 2) and all(p.strip().isdigit() for p in parts):
            numbers = [int(p) for p in parts]
            return r.Partisans(numbers[0], numbers[-1])
    raise FieldError(
        "",
        f"{value!r} is not a partisan count",
        "write automatic:maximum like '1:2', or one number",
    )


def _count(value: Any, _: Any) -> r.Count:
    """A count `n`, or `n[m]` keeping a bracketed figure; `-` is zero."""
    if type(value) is int:
        return r.Count(value)
    if isinstance(value, str):
        text = value.strip()
        if text == "-":
            return r.Count(0)
        head, bracket, tail = text.partition("[")
        if head.isdigit() and (not bracket or (tail.endswith("]") and tail[:-1].isdigit())):
            return r.Count(int(head), int(tail[:-1]) if bracket else None)
    raise FieldError("", f"{value!r} is not a count", "write a number, or n[m] as printed")


def _fraction(value: Any, _: Any) -> Fraction:
    if type(value) is int or isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            pass
    raise FieldError("", f"{value!r} is not a fraction", "write a fraction like '1/2' or '1'")


def _year_month(value: Any, _: Any) -> YearMonth:
    """A25 months: `YYYY-MM` text (TOML has no year-month type)."""
    if isinstance(value, str):
        try:
            return YearMonth.parse(value)
        except YearMonthError as exc:
            raise FieldError("", str(exc), "write a month like '1944-07'") from None
    raise FieldError("", f"{value!r} is not a year-month", "write a month like '1944-07'")


def _trait_value(value: Any, _: Any) -> TraitValue:
    """A trait's value as written; `TraitRow` types it by its kind."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, bool | int | str):
        return value
    raise FieldError("value", f"{value!r} is not a value", "write a boolean, number or text")


def _converter() -> cattrs.Converter:
    """The domain converter, with the tables' own values (partisan cells, counts ...)."""
    converter = convert.converter()
    converter.register_structure_hook(r.Partisans, _partisans)
    converter.register_structure_hook(r.Count, _count)
    converter.register_structure_hook(Fraction, _fraction)
    converter.register_unstructure_hook(Fraction, str)
    converter.register_unstructure_hook(r.Partisans, str)
    converter.register_unstructure_hook(r.Count, str)
    converter.register_structure_hook(YearMonth, _year_month)
    converter.register_unstructure_hook(YearMonth, str)
    converter.register_structure_hook_func(lambda t: t == TraitValue, _trait_value)
    for cls, names in a25.RENAMED.items():  # a field whose table key is a keyword (`from`)
        renames: dict[str, Any] = {field: override(rename=key) for field, key in names.items()}
        # forbidding extra keys and detailed validation come from the converter
        converter.register_structure_hook(cls, make_dict_structure_fn(cls, converter, **renames))
        converter.register_unstructure_hook(
            cls, make_dict_unstructure_fn(cls, converter, **renames)
        )
    return converter


CONVERTER = _converter()


def _key_value(section: str, key: str, name: str) -> Any:
    if section == "diplomatic_results":
        try:
            return int(key)
        except ValueError:
            raise TableError(
                f"{shown(key)} is not a diplomatic result",
                file=name,
                entry=key,
                fix='key results by their number, like [diplomatic_results."7"]',
            ) from None
    if section == "diplomatic_levels":
        try:
            return convert.level(key)
        except FieldError as exc:
            raise TableError(exc.problem, file=name, entry=key, fix=exc.fix) from None
    return key


def _section(
    section: str, entries: Mapping[str, Any], origins: Origins, found: list[TableError]
) -> dict[Any, Any]:
    """The records of one table; each entry that cannot be read is recorded in `found`."""
    cls, key_field = SECTIONS[section]
    records: dict[Any, Any] = {}
    for key, entry in entries.items():
        name = origins.get((section, key), "tables")
        entry_id = f"{section}.{key}"
        try:
            if key_field in entry:
                raise TableError(
                    f"the key already gives {key_field}",
                    file=name,
                    entry=entry_id,
                    field=key_field,
                    fix=f"remove {key_field} from the entry",
                )
            data = {**entry, key_field: _key_value(section, key, name)}
            record = CONVERTER.structure(data, cls)
        except TableError as exc:
            found.append(exc)
        except (cattrs.BaseValidationError, FieldError, ForbiddenExtraKeysError) as exc:
            field, problem, fix = convert.first_problem(exc)
            field = a25.RENAMED.get(cls, {}).get(field, field)
            found.append(TableError(problem, file=name, entry=entry_id, field=field, fix=fix))
        else:
            records[getattr(record, key_field)] = record
    return records


def structure(raw: Raw, origins: Origins) -> dict[str, dict[Any, Any]]:
    """Every merged entry as its frozen record (a TableError names each that cannot be read)."""
    found: list[TableError] = []
    out = {section: _section(section, raw.get(section, {}), origins, found) for section in SECTIONS}
    if found:
        raise TableError.of(found)
    return out


def clause_table(name: str, data: bytes) -> dict[str, r.Clause]:
    """The clauses of a TOML file that holds only a `[clauses.ID]` table: a rulebook's own
    clause table (a house rule's), checked as the built-in registry is."""
    document = _sections_of(name, _read_toml(name, data))
    other = sorted(set(document) - {"clauses"})
    if other:
        raise TableError(
            f"a clause table holds only [clauses.ID] entries, not {other[0]!r}",
            file=name,
            fix="move the other tables to an overlay",
        )
    entries = document.get("clauses", {})
    found: list[TableError] = []
    records: dict[str, r.Clause] = _section(
        "clauses", entries, {("clauses", key): name for key in entries}, found
    )
    if found:
        raise TableError.of(found)
    for clause in records.values():
        if clause.parent and clause.parent not in records:
            raise TableError(
                f"parent {clause.parent!r} is not in this table",
                file=name,
                entry=f"clauses.{clause.id}",
                field="parent",
                fix="give the id of a clause of the same table, or no parent",
            )
    cycles = parent_cycles({k: c.parent for k, c in records.items()})
    if cycles:
        key, problem = next(iter(cycles.items()))
        raise TableError(
            problem,
            file=name,
            entry=f"clauses.{key}",
            field="parent",
            fix="give a clause that is not its own ancestor as the parent, or no parent",
        )
    return records


def parent_cycles(parents: Mapping[str, str]) -> dict[str, str]:
    """Each key that is its own parent or ancestor, with the problem in words."""
    found: dict[str, str] = {}
    for key in parents:
        chain = [key]
        while (parent := parents.get(chain[-1], "")) and parent not in chain:
            chain.append(parent)
        if parent == key:
            found[key] = (
                f"{key!r} is its own parent"
                if len(chain) == 1
                else f"{key!r} is its own ancestor ({' < '.join([*chain, key])})"
            )
    return found


def builtin_clauses() -> dict[str, r.Clause]:
    """The built-in clause registry, `tables/clauses.toml` (rule 82 and A25)."""
    return clause_table("tables/clauses.toml", (builtin_tables() / "clauses.toml").read_bytes())


def tables_digest(records: Mapping[str, Mapping[Any, Any]]) -> str:
    """SHA-256 of the canonical JSON of the merged records: names the rules in force."""
    document = {
        section: {str(key): CONVERTER.unstructure(value) for key, value in entries.items()}
        for section, entries in records.items()
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
