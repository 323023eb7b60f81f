"""The public surface: documented names are exported, alphabetised."""

from __future__ import annotations

import minors


def test_all_is_alphabetised_and_importable() -> None:
    """`minors.__all__` is sorted and every name in it exists."""
    assert list(minors.__all__) == sorted(minors.__all__)
    for name in minors.__all__:
        assert hasattr(minors, name)


def test_documented_names_are_exported() -> None:
    """What docs/tables.md promises is in __all__."""
    for name in (
        "MinorsError",
        "TableError",
        "UnknownNameError",
        "load_ruleset",
        "Ruleset",
        "Status",
    ):
        assert name in minors.__all__


def test_errors_inherit_the_builtins_they_resemble() -> None:
    """TableError is a ValueError, UnknownNameError a LookupError, both MinorsErrors."""
    assert issubclass(minors.TableError, ValueError)
    assert issubclass(minors.UnknownNameError, LookupError)
    assert issubclass(minors.TableError, minors.MinorsError)
    assert issubclass(minors.UnknownNameError, minors.MinorsError)


def test_tables_are_found_as_package_data() -> None:
    """The tables load from the package's `_tables`, in a checkout or an install."""
    from minors.ruleset.loader import builtin_tables

    names = sorted(t.name for t in builtin_tables().iterdir() if t.name.endswith(".toml"))
    assert "minors.toml" in names
    assert "clauses.toml" in names
