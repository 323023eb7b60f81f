"""Overlays: replace fields, add and remove entries, lists replaced whole, merge validated."""

from __future__ import annotations

from pathlib import Path

import pytest

from minors import TableError, load_ruleset


def overlay(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_an_entry_field_is_replaced_and_the_rest_kept(tmp_path: Path) -> None:
    """An overlay entry replaces only the fields it names."""
    rs = load_ruleset([overlay(tmp_path, "[minors.Sweden]\nbrps = 12\n")])
    assert rs.minor("Sweden").brps == 12
    assert rs.minor("Sweden").capital == load_ruleset().minor("Sweden").capital


def test_a_new_entry_is_added(tmp_path: Path) -> None:
    """An entry the tables lack is added, and must be complete."""
    rs = load_ruleset(
        [
            overlay(
                tmp_path,
                """
[minors.Andorra]
theater = "europe"
start_status = "neutral"
armed_forces = false
capital = "Andorra la Vella"
hexes = ["Andorra la Vella"]
""",
            )
        ]
    )
    assert rs.minor("andorra").capital == "Andorra la Vella"


def test_remove_deletes_an_entry(tmp_path: Path) -> None:
    """`remove = true` deletes the entry."""
    rs = load_ruleset([overlay(tmp_path, "[minors.Gibraltar]\nremove = true\n")])
    assert "Gibraltar" not in rs.minors
    assert "Gibraltar" in load_ruleset().minors


def test_a_list_is_replaced_whole(tmp_path: Path) -> None:
    """A list value replaces the old list; it is never merged element by element."""
    rs = load_ruleset(
        [
            overlay(
                tmp_path,
                """
[minors.Sweden]
hexes = ["Stockholm", "Kiruna"]
capital_adjacent = ["Kiruna"]
""",
            )
        ]
    )
    assert rs.minor("Sweden").hexes == ("Stockholm", "Kiruna")
    assert rs.minor("Sweden").capital_adjacent == ("Kiruna",)


def test_overlays_apply_in_order(tmp_path: Path) -> None:
    """A later overlay wins over an earlier one."""
    first = overlay(tmp_path, "[minors.Sweden]\nbrps = 12\n", "a.toml")
    second = overlay(tmp_path, "[minors.Sweden]\nbrps = 15\n", "b.toml")
    assert load_ruleset([first, second]).minor("Sweden").brps == 15
    assert load_ruleset([second, first]).minor("Sweden").brps == 12


def test_an_invalid_merge_is_rejected_as_a_whole(tmp_path: Path) -> None:
    """Removing a minor other tables still name fails validation of the merged whole."""
    path = overlay(tmp_path, "[minors.Luxembourg]\nremove = true\n")
    with pytest.raises(TableError) as info:
        load_ruleset([path])
    assert "limit_groups.benelux" in str(info.value)
    assert "'Luxembourg' is not a minor country" in str(info.value)


def test_removing_a_missing_entry_is_an_error(tmp_path: Path) -> None:
    """`remove` of an entry that does not exist names the overlay and entry."""
    path = overlay(tmp_path, "[minors.Atlantis]\nremove = true\n")
    with pytest.raises(TableError, match=r"house.toml, entry 'minors.Atlantis', field 'remove'"):
        load_ruleset([path])


def test_the_digest_names_the_rules_in_force(tmp_path: Path) -> None:
    """The digest changes with an overlay and is the same for the same tables."""
    base = load_ruleset().digest
    path = overlay(tmp_path, "[minors.Sweden]\nbrps = 12\n")
    assert len(base) == 64
    assert load_ruleset([path]).digest != base
    assert load_ruleset([path]).digest == load_ruleset([path]).digest
    same = overlay(tmp_path, "[minors.Sweden]\nbrps = 10\n", "same.toml")
    assert load_ruleset([same]).digest == base


def test_an_overlay_may_replace_an_illustrative_table(tmp_path: Path) -> None:
    """A user replaces the illustrative proration and drops its illustrative label."""
    path = overlay(
        tmp_path,
        """
[brp_rules.proration]
rounding = "floor"
illustrative = false
[provenance.brp_rules]
remove = true
""",
    )
    rs = load_ruleset([path])
    assert rs.brp_rules["proration"].rounding.value == "floor"
    assert not rs.is_illustrative("brp_rules")


def test_a_misspelt_entry_is_not_taken_for_a_new_one(tmp_path: Path) -> None:
    """An overlay entry whose key the tables do not hold and that does not give every field
    is a typo: it names the table and the closest keys, and how to add an entry."""
    path = tmp_path / "o.toml"
    path.write_text("[minors.Swedn]\nbrps = 12\n", encoding="utf-8")
    with pytest.raises(TableError) as caught:
        load_ruleset([path])
    assert (
        "no entry 'Swedn' in minors; did you mean 'Sweden'? (to add one, give every field;"
        in str(caught.value)
    )
    assert caught.value.entry == "minors.Swedn"
    path.write_text("[limits.defualt]\nfactors = 8\n", encoding="utf-8")
    with pytest.raises(TableError, match="no entry 'defualt' in limits; did you mean 'default'"):
        load_ruleset([path])


@pytest.mark.rule("82.63")
@pytest.mark.parametrize(("share", "ok"), [("1", True), ("3/2", False), ("-1/2", False)])
def test_a_forces_by_result_share_lies_between_none_and_all(
    tmp_path: Path, share: str, ok: bool
) -> None:
    """82.63: a step of the dagger table gives a share of the marked forces from 0 to 1: the
    whole force at most, never more (3/2) nor less than none."""
    text = f'[forces_by_result.Ukraine]\nsteps = [{{ min = 7, max = 10, share = "{share}" }}]\n'
    path = overlay(tmp_path, text)
    if ok:
        assert load_ruleset([path]).forces_by_result["Ukraine"].share(8) == 1
    else:
        with pytest.raises(TableError, match="not between 0 and 1"):
            load_ruleset([path])
