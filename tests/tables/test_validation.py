"""Each kind of malformed table is a TableError naming file, entry, field and fix."""

from __future__ import annotations

import shutil
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest

from minors import MinorsError, TableError, load_ruleset
from minors.ruleset import loader
from minors.ruleset.tables import build


def reject(tmp_path: Path, text: str) -> TableError:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TableError) as info:
        load_ruleset([path])
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, MinorsError)
    assert str(path) in str(info.value)
    return info.value


def test_unknown_key(tmp_path: Path) -> None:
    """An unknown field is named, with the known fields as the fix."""
    error = reject(tmp_path, "[minors.Sweden]\ncolour = 'blue'\n")
    assert (error.entry, error.field) == ("minors.Sweden", "colour")
    assert "capital" in error.fix


def test_wrong_type(tmp_path: Path) -> None:
    """A string where true/false belongs is rejected, not coerced."""
    error = reject(tmp_path, "[minors.Sweden]\narmed_forces = 'yes'\n")
    assert (error.entry, error.field) == ("minors.Sweden", "armed_forces")
    assert "true or false" in str(error)


def test_a_count_that_is_not_a_number(tmp_path: Path) -> None:
    """A force cell must be a whole number."""
    error = reject(tmp_path, "[forces.Sweden]\narmy_2_3 = 'many'\n")
    assert (error.entry, error.field) == ("forces.Sweden", "army_2_3")
    assert "'many' is not a whole number" in str(error)


def test_a_numeric_string_is_not_silently_a_count(tmp_path: Path) -> None:
    """'5' is not 5: tables say what they mean."""
    error = reject(tmp_path, "[minors.Sweden]\nbrps = '5'\n")
    assert error.field == "brps"


def test_a_bad_partisan_cell(tmp_path: Path) -> None:
    """A partisan cell reads automatic:maximum with automatic <= maximum."""
    error = reject(tmp_path, "[forces.Sweden]\npartisans_wa = '3:1'\n")
    assert (error.entry, error.field) == ("forces.Sweden", "partisans_wa")
    assert "exceeds maximum" in str(error)
    error = reject(tmp_path, "[forces.Sweden]\npartisans_wa = 'some'\n")
    assert error.field == "partisans_wa"


def test_a_reference_to_an_unknown_country(tmp_path: Path) -> None:
    """A forces row for a minor the registry lacks is rejected."""
    error = reject(tmp_path, "[forces.Atlantis]\ntheater = 'europe'\n")
    assert (error.entry, error.field) == ("forces.Atlantis", "minor")
    error = reject(tmp_path, "[minors.Sweden]\nstart_at_war_with = ['Prussia']\n")
    assert (error.entry, error.field) == ("minors.Sweden", "start_at_war_with")


def test_a_reference_to_an_unknown_clause(tmp_path: Path) -> None:
    """Clause citations must be in the registry."""
    error = reject(tmp_path, "[minors.Sweden]\nclauses = ['82.99']\n")
    assert (error.entry, error.field) == ("minors.Sweden", "clauses")
    assert "tables/clauses.toml" in error.fix


def test_a_footnote_mark_with_no_footnote(tmp_path: Path) -> None:
    """A mark on a cell needs a footnote entry."""
    error = reject(tmp_path, "[forces.Sweden]\nmarks = { naval_ca = '¶' }\n")
    assert (error.entry, error.field) == ("forces.Sweden", "marks")
    assert "'¶' has no footnote" in str(error)


def test_a_missing_required_field(tmp_path: Path) -> None:
    """A new entry must give every required field."""
    error = reject(tmp_path, "[minors.Andorra]\nstart_status = 'neutral'\n")
    assert (error.entry, error.field) == ("minors.Andorra", "theater")


def test_a_colony_with_armed_forces(tmp_path: Path) -> None:
    """82.62: a colony has no armed forces unless a row cites an exception."""
    error = reject(tmp_path, "[minors.Malta]\narmed_forces = true\n")
    assert (error.entry, error.field) == ("minors.Malta", "armed_forces")
    assert "82.62" in str(error)


def test_armed_forces_must_agree_with_the_force_table(tmp_path: Path) -> None:
    """A minor with army cells must say it has armed forces."""
    error = reject(tmp_path, "[minors.Sweden]\narmed_forces = false\n")
    assert (error.entry, error.field) == ("minors.Sweden", "armed_forces")


def test_a_column_the_theater_lacks(tmp_path: Path) -> None:
    """A European row has no 2-2 column."""
    error = reject(tmp_path, "[forces.Sweden]\narmy_2_2 = 1\n")
    assert (error.entry, error.field) == ("forces.Sweden", "army_2_2")


def test_an_unknown_table(tmp_path: Path) -> None:
    """A section that is no table is named with the known ones."""
    error = reject(tmp_path, "[minor.Sweden]\nbrps = 1\n")
    assert "unknown table 'minor'" in str(error)
    assert "minors" in error.fix


def test_invalid_toml(tmp_path: Path) -> None:
    """A syntax error names the file."""
    error = reject(tmp_path, "[minors.Sweden\nbrps = 1\n")
    assert "not valid TOML" in str(error)


def test_a_missing_overlay_file(tmp_path: Path) -> None:
    """An overlay that cannot be read is a TableError, not an OSError traceback."""
    with pytest.raises(TableError, match="cannot read overlay"):
        load_ruleset([tmp_path / "missing.toml"])


def test_a_malformed_builtin_table_names_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The built-in tables are checked the same way and name tables/<file>."""
    folder = tmp_path / "tables"
    shutil.copytree(Path(str(loader.builtin_tables())), folder)
    text = (folder / "forces.toml").read_text(encoding="utf-8")
    (folder / "forces.toml").write_text(
        text.replace(
            "army_2_3 = 5\nair_af = 1\nnaval_ca = 1", "army_2_3 = 5.5\nair_af = 1\nnaval_ca = 1"
        ),
        encoding="utf-8",
    )

    def fake() -> Traversable:
        return folder

    monkeypatch.setattr(loader, "builtin_tables", fake)
    with pytest.raises(TableError) as info:
        build()
    assert str(info.value).startswith("tables/forces.toml, entry 'forces.Sweden', field 'army_2_3'")


def test_three_bad_entries_are_reported_at_once(tmp_path: Path) -> None:
    """A table with three malformed entries names all three in one error, each with its
    file, entry, field and fix."""
    error = reject(
        tmp_path,
        "[minors.Sweden]\nbrps = 'many'\n"
        "[minors.Norway]\ncolour = 'blue'\n"
        "[diplomatic_results.\"7\"]\neffect = 'sett'\n",
    )
    where = [(p.entry, p.field) for p in error.problems]
    assert sorted(where) == [
        ("diplomatic_results.7", "effect"),
        ("minors.Norway", "colour"),
        ("minors.Sweden", "brps"),
    ]
    assert str(error).startswith("3 problems in the tables:")
    assert all(p.fix for p in error.problems)
    assert (error.entry, error.field) == where[0]  # the first one's, in table order


def test_every_broken_reference_is_reported_at_once(tmp_path: Path) -> None:
    """References that do not hold (an unknown major, an unknown clause, a colony with an
    army) are all named in one error."""
    error = reject(
        tmp_path,
        "[minors.Sweden]\nstart_at_war_with = ['Prussia']\nclauses = ['82.99']\n"
        "[border_wars.Norway]\nattacker = 'Sweden'\n",
    )
    problems = [str(p) for p in error.problems]
    assert len(problems) == 3, problems
    assert any("'Prussia' is not a major power" in p for p in problems)
    assert any("clause '82.99' is not in the registry" in p for p in problems)
    assert any("'Sweden' is not a major power" in p and "border_wars.Norway" in p for p in problems)
