"""The hex geometry of the Human Wave checks: board coordinates, hexsides, hex grains."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minors import MinorsError
from minors.asl.hexgrid import Hex, HexError, HexGrain, Hexside, distance, grains_through

hexes = st.builds(Hex, st.integers(1, 52), st.integers(0, 30))


def test_names_read_and_print() -> None:
    """`O3`, `aa3` and `GG10` read as columns 15, 27 and 33 and print back upper-case."""
    assert Hex.parse("O3") == Hex(15, 3)
    assert Hex.parse("aa3") == Hex(27, 3)
    assert str(Hex.parse("GG10")) == "GG10"
    assert str(Hex(52, 0)) == "ZZ0"


@pytest.mark.parametrize("bad", ["", "3O", "AB3", "O", "O-1", "AAA3", 7])
def test_bad_names_raise(bad: object) -> None:
    """A name that is not letter(s) then a row is a HexError, a MinorsError and ValueError."""
    with pytest.raises(HexError) as caught:
        Hex.parse(bad)  # type: ignore[arg-type]
    assert isinstance(caught.value, MinorsError)
    assert isinstance(caught.value, ValueError)


def test_off_board_coordinates_raise() -> None:
    """Column 0, column 53 and row -1 are not on the board."""
    for column, row in ((0, 1), (53, 1), (1, -1)):
        with pytest.raises(HexError):
            Hex(column, row)


@pytest.mark.parametrize(
    ("hex_", "around"),
    [
        ("P2", ["P1", "Q2", "Q3", "P3", "O3", "O2"]),
        ("O3", ["O2", "P2", "P3", "O4", "N3", "N2"]),
    ],
)
def test_neighbours_by_hexside(hex_: str, around: list[str]) -> None:
    """Hexsides 1-6 run clockwise from the top; even columns sit half a hex lower."""
    here = Hex.parse(hex_)
    assert [str(here.neighbour(side)) for side in Hexside] == around


def test_neighbours_off_the_board_are_left_out() -> None:
    """A0 has no hex above it, above-right or to its left: B0 sits half a hex lower."""
    corner = Hex.parse("A0")
    assert [corner.neighbour(s) for s in (Hexside.N, Hexside.NE, Hexside.NW)] == [None] * 3
    assert [str(h) for h in corner.neighbours()] == ["B0", "A1"]


@given(hexes)
def test_neighbours_are_one_hex_away(here: Hex) -> None:
    """Every neighbour is at range 1, shares the opposite hexside back, and is distinct."""
    around = here.neighbours()
    assert len(set(around)) == len(around)
    for side in Hexside:
        there = here.neighbour(side)
        if there is not None:
            assert distance(here, there) == 1
            assert there.neighbour(side.opposite) == here
            assert here.side_towards(there) is side


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    """Range is zero only to itself, symmetric, and obeys the triangle inequality."""
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_ranges_of_the_example() -> None:
    """From O3: O1 and P1 are two hexes away, R2 three."""
    target = Hex.parse("O3")
    assert [distance(target, Hex.parse(h)) for h in ("O1", "P1", "Q2", "R2")] == [2, 2, 2, 3]


def test_eighteen_grains_through_a_hex() -> None:
    """Six normal and twelve alternate oriented grains pass through a hex."""
    grains = grains_through(Hex.parse("O3"))
    assert len(set(grains)) == 18
    assert sum(g.is_alternate for g in grains) == 12


@pytest.mark.rule("A25.2311")
def test_alternate_grain_needs_meeting_hexsides() -> None:
    """An alternate grain alternates two hexsides that meet: 4 with 1 is refused."""
    with pytest.raises(HexError, match="meet"):
        HexGrain("O3", Hexside.S, Hexside.N)
    with pytest.raises(HexError, match="1-6"):
        HexGrain("O3", 7)


def test_grain_from_hexes_reads_both_kinds() -> None:
    """A repeated step is a normal grain, two alternating steps an alternate one."""
    assert HexGrain.from_hexes(["Q2", "P2", "O3", "N3"], "O3") == HexGrain("O3", Hexside.SW)
    assert HexGrain.from_hexes(["P1", "P2", "O3", "O4"], "O3") == HexGrain(
        "O3", Hexside.S, Hexside.SW
    )
    assert HexGrain.from_hexes(["R2", "Q3", "P2", "O3"], "O3") == HexGrain(
        "O3", Hexside.NW, Hexside.SW
    )


@pytest.mark.parametrize(
    ("line", "target", "match"),
    [
        (["O1", "O3"], "O3", "not adjacent"),
        (["O1", "O2", "O3", "P3"], "O3", "no hex grain"),
        (["O1", "O2", "P2", "Q3"], "Q3", "no hex grain"),
        (["O1", "O2"], "O3", "not one of"),
        (["O3"], "O3", "at least two"),
    ],
)
def test_grain_from_hexes_refuses_non_grains(line: list[str], target: str, match: str) -> None:
    """Gaps, bends and a missing target are HexErrors."""
    with pytest.raises(HexError, match=match):
        HexGrain.from_hexes(line, target)


def test_grain_hexes_run_both_ways() -> None:
    """Indexes run behind (negative) and beyond (positive) the target."""
    grain = HexGrain.from_hexes(["P1", "P2", "O3", "O4"], "O3")
    assert [str(h) for h in grain.hexes(-2, 3)] == ["P1", "P2", "O3", "O4", "N4"]
    assert str(grain) == "alternate hex grain Q1-P1-P2-O3-O4..."


@pytest.mark.rule("A25.2321")
def test_range_to_a_grain_is_to_its_closest_hex() -> None:
    """From Q2 the O column is two hexes away; from P3, one; from O9, none."""
    grain = HexGrain("O3", Hexside.S)
    assert [grain.range_from(Hex.parse(h)) for h in ("Q2", "P3", "O9")] == [2, 1, 0]
