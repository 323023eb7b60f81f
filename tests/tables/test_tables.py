"""The tables of rule 82 as data: every cell, footnote and start status pinned."""

from __future__ import annotations

import pytest

from minors import Status, Theater, load_ruleset
from minors.ruleset.records import COLUMN_LABELS, COLUMNS, Partisans
from minors.ruleset.render import _cell
from tests.paths import DATA


def _transcription(name: str) -> dict[str, dict[str, list[str]]]:
    """Parse a transcription file: `[group] labels...` headers, then `row | cells` lines."""
    groups: dict[str, dict[str, list[str]]] = {}
    current = ""
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line[1 : line.index("]")]
            groups[current] = {"": line[line.index("]") + 1 :].split()}
            continue
        row, cells = (part.strip() for part in line.split("|"))
        groups[current][row] = cells.split()
    return groups


RS = load_ruleset()
FORCES = _transcription("forces_82_61.txt")


@pytest.mark.rule("82.61")
@pytest.mark.parametrize("theater", list(Theater))
def test_force_table_cell_for_cell(theater: Theater) -> None:
    """Every row and cell of the 82.61 table, footnote marks included, is as printed."""
    printed = FORCES[theater.value]
    columns = COLUMNS[theater]
    assert printed[""] == [COLUMN_LABELS[c] for c in columns]
    rows = {
        row.minor + "".join(row.row_marks): [
            _cell(row.cell(c)) + row.marks.get(c, "") for c in columns
        ]
        for row in RS.forces.values()
        if row.theater is theater
    }
    assert rows == {name: cells for name, cells in printed.items() if name}


@pytest.mark.rule("82.61")
def test_partisan_cells_read_automatic_maximum() -> None:
    """`a:b` is a automatic and b maximum; a single figure n is n:n; a dash is none."""
    assert RS.forces["Greece"].partisans_wa == Partisans(1, 2)
    assert RS.forces["Egypt"].partisans_ax == Partisans(0, 2)
    assert RS.forces["Spain"].partisans_ax == Partisans(3, 3)
    assert RS.forces["Belgium"].partisans_ru == Partisans(0, 0)


@pytest.mark.rule("82.61")
def test_star_footnote_covers_the_listed_minors() -> None:
    """`*`: Kuwait, Arabia, Transjordan, Palestine and Lebanon/Syria take Iraq's row."""
    note = RS.force_footnotes["*"]
    assert note.minors == ("Kuwait", "Arabia", "Transjordan", "Palestine", "Lebanon/Syria")
    for minor in (*note.minors, "Syria"):
        row = RS.force_row(minor)
        assert row is not None
        assert row.minor == "Iraq"
    assert RS.force_row("Portugal") is None


@pytest.mark.rule("82.61")
def test_section_and_double_star_footnotes() -> None:
    """`§` gives Turkey a two-factor cruiser and the Yavuz; `**` one more Red partisan a year
    from 1942."""
    ships = RS.force_footnotes["§"]
    assert ships.minor == "Turkey"
    assert [(s.kind, s.factors, s.name) for s in ships.ships] == [("CA", 2, ""), ("BC", 0, "Yavuz")]
    annual = RS.force_footnotes["**"]
    assert (annual.minor, annual.column, annual.per_year, annual.from_year) == (
        "Communist China",
        "partisans_ru",
        1,
        1942,
    )


@pytest.mark.rule("82.61")
@pytest.mark.rule("82.63")
def test_dagger_table_is_illustrative_and_replaceable() -> None:
    """`†` forces depend on the current result, through a table marked illustrative."""
    assert RS.is_illustrative("forces_by_result")
    ireland, ukraine = RS.forces_by_result["Ireland"], RS.forces_by_result["Ukraine"]
    assert [str(ireland.share(r)) for r in (None, 3, 6, 7, 8, 10, -1)] == [
        "0",
        "0",
        "0",
        "1/2",
        "1",
        "1",
        "0",
    ]
    assert ukraine.share(None) == 0
    assert ukraine.share(7) == 1


COMMONWEALTH = _transcription("commonwealth_82_61.txt")


@pytest.mark.rule("82.61")
@pytest.mark.parametrize("country", list(COMMONWEALTH))
def test_commonwealth_table_cell_for_cell(country: str) -> None:
    """Every arrival and cell of the British Commonwealth table, brackets kept as printed."""
    layout = RS.commonwealth_layout[country].columns
    printed = COMMONWEALTH[country]
    assert printed[""] == [COLUMN_LABELS[c] for c in layout]
    rows = {
        row.arrival.replace("_", " "): [str(getattr(row, c)) for c in layout]
        for row in RS.commonwealth.values()
        if row.country == country
    }
    assert rows == {name: cells for name, cells in printed.items() if name}


@pytest.mark.rule("82.61")
def test_bracketed_figures_keep_both_numbers() -> None:
    """`1[2]` keeps 1 and the bracketed 2 without giving the bracket a meaning."""
    cell = RS.commonwealth["Canada/1940-fall"].army_3_4
    assert (cell.value, cell.bracket) == (1, 2)
    assert RS.commonwealth["Canada/at_start"].army_3_4.bracket is None


@pytest.mark.rule("82.61")
def test_commonwealth_notes() -> None:
    """Australia and India may add three infantry factors; Japan may build two Indian
    partisans."""
    extra = RS.commonwealth_notes["extra_infantry"]
    assert extra.countries == ("Australia", "India")
    assert extra.max_factors == 3
    assert extra.combinations == (("2-2", "1-2"), ("1-2", "1-2", "1-2"))
    assert extra.latest == "1942-spring"
    india = RS.commonwealth_notes["india_partisans"]
    assert (india.countries, india.by, india.count) == (("India",), "Japan", 2)


def _starts() -> list[tuple[str, str, str, str]]:
    rows = []
    for line in (DATA / "start_1939.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, status, major, war = (p.strip() for p in line.split("|"))
            rows.append((name, status, major, war))
    return rows


@pytest.mark.rule("82.12")
@pytest.mark.rule("82.13")
@pytest.mark.rule("82.91")
@pytest.mark.parametrize(("name", "status", "major", "war"), _starts())
def test_fall_1939_status_of_every_minor(name: str, status: str, major: str, war: str) -> None:
    """Each registry entry starts Fall 1939 with the status, major and wars of 82.12/13/91."""
    minor = RS.minor(name)
    assert minor.start_status is Status(status)
    assert (minor.start_major or "-") == major
    assert (", ".join(minor.start_at_war_with) or "-") == war


def test_registry_holds_exactly_the_pinned_minors() -> None:
    """The registry has no entry the start list does not pin, and misses none."""
    assert sorted(RS.minors) == sorted(name for name, *_ in _starts())


@pytest.mark.rule("82.62")
def test_minors_without_armed_forces() -> None:
    """Portugal, the Baltic States and the colonies have no armed forces; Ukraine's are the
    cited exception (82.63)."""
    for name in ("Portugal", "Estonia", "Latvia", "Lithuania", "Malta", "Burma", "Albania"):
        assert not RS.minor(name).armed_forces
    assert all(
        not m.armed_forces or m.armed_forces_exception for m in RS.minors.values() if m.colony_of
    )
    assert RS.minor("Ukraine").armed_forces_exception == "82.63"
    assert RS.minor("Denmark").armed_forces is False


@pytest.mark.rule("82.91F")
def test_french_pacific_islands_start_under_britain() -> None:
    """New Caledonia, Wallis and the Society Islands are French, treated as British."""
    for name in ("New Caledonia", "Wallis Island", "Society Islands"):
        minor = RS.minor(name)
        assert (minor.colony_of, minor.start_major) == ("France", "Britain")


def test_illustrative_lists_and_values_are_labelled() -> None:
    """The colony lists of 82.12, BRP values and map data say they are illustrative."""
    illustrative = sorted(m.name for m in RS.minors.values() if m.illustrative)
    assert illustrative == ["Algeria", "Cyprus", "Gibraltar", "Malta", "Morocco", "Tunisia"]
    assert RS.is_illustrative("minors.brps")
    assert RS.is_illustrative("minors.hexes")
    assert not RS.is_illustrative("forces")


def test_vichy_france_is_inactive_until_france_falls() -> None:
    """Vichy France is registered but inactive at the start."""
    assert RS.minor("Vichy France").active is False
    assert all(m.active for m in RS.minors.values() if m.name != "Vichy France")


def test_spain_is_conquered_by_madrid_and_tangiers() -> None:
    """A minor's conquest hexes are its key hexes, else its capital."""
    assert RS.minor("Spain").conquest_hexes == ("Madrid", "Tangiers")
    assert RS.minor("Sweden").conquest_hexes == ("Stockholm",)


def test_names_resolve_case_insensitively_with_aliases() -> None:
    """Poland = W. Poland, Romania = Rumania, USA = U.S., any case."""
    assert RS.resolve("poland") == "W. Poland"
    assert RS.resolve("ROMANIA") == "Rumania"
    assert RS.resolve("usa") == "U.S."
    assert RS.resolve("lebanon") == "Lebanon/Syria"


def test_factions_and_majors() -> None:
    """Seven majors in three factions; the Western Allies and Russia share the Allied side."""
    by_faction = {
        f.value: sorted(m.name for m in RS.majors.values() if m.faction is f) for f in RS.factions
    }
    assert by_faction == {
        "axis": ["Germany", "Italy", "Japan"],
        "western_allies": ["Britain", "France", "U.S."],
        "russia": ["Russia"],
    }
    assert {f.side.value for f in RS.factions.values()} == {"axis", "allies"}


@pytest.mark.rule("82.81")
@pytest.mark.rule("82.82")
def test_association_partners_by_faction() -> None:
    """82.81: Britain after an Axis attack, Germany after an Allied one; 82.82 by joiner."""
    on_attack = {f.value: a.on_attack for f, a in RS.association.items()}
    assert on_attack == {"axis": "Britain", "western_allies": "Germany", "russia": "Germany"}
    on_joining = {f.value: a.on_joining for f, a in RS.association.items()}
    assert on_joining == {"axis": "Germany", "western_allies": "Britain", "russia": "Russia"}


@pytest.mark.rule("82.62")
def test_declaration_costs() -> None:
    """Declaring war costs 10 BRPs against a minor, 35 against a major power."""
    assert RS.costs["declare_war_minor"].brps == 10
    assert RS.costs["declare_war_major"].brps == 35


@pytest.mark.rule("82.32")
@pytest.mark.rule("82.32C")
@pytest.mark.rule("82.321C")
@pytest.mark.rule("82.322")
def test_foreign_factor_limits() -> None:
    """Ten factors, naval counted; Finland five Axis factors and one armor unit, Finns and
    Swedes exempt; bases and forts exempt; Belgium and Luxembourg one country."""
    default, finland = RS.limits["default"], RS.limits["Finland"]
    assert default.factors == 10
    assert "naval" in default.counted_kinds
    assert default.exempt_kinds == ("airbase", "rocket_base", "railhead", "fort")
    assert (finland.factors, finland.max_armor_units, finland.always) == (5, 1, True)
    assert finland.side is not None
    assert finland.side.value == "axis"
    assert finland.exempt_owners == ("Finland", "Sweden")
    assert RS.limit_groups["benelux"].minors == ("Belgium", "Luxembourg")
