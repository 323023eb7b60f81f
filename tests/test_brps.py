"""BRP amounts: the 7 / 0 partial grant and 82.22 proration, in whole BRPs."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from minors import DiplomaticLevel, Rounding, Season, load_ruleset
from minors.brps import grants_by_level, partial_grant, prorate, round_brps

RS = load_ruleset()
PRORATION = RS.brp_rules["proration"]


@pytest.mark.rule("82.22")
@pytest.mark.parametrize(
    ("value", "season", "expected"),
    [
        (10, Season.SPRING, 10),
        (10, Season.SUMMER, 8),
        (10, Season.FALL, 5),
        (10, Season.WINTER, 3),
        (5, Season.SUMMER, 4),
        (5, Season.WINTER, 1),
        (3, Season.FALL, 2),
        (0, Season.SPRING, 0),
    ],
)
def test_default_proration(value: int, season: Season, expected: int) -> None:
    """value × turns left in the year (counting this one) / 4, rounded half up."""
    assert prorate(PRORATION, value, season) == expected


@pytest.mark.rule("82.22")
def test_rounding_modes() -> None:
    """Exact fractions are rounded once, as the table says."""
    amount = Fraction(5, 2)
    assert round_brps(amount, Rounding.FLOOR) == 2
    assert round_brps(amount, Rounding.CEILING) == 3
    assert round_brps(amount, Rounding.HALF_UP) == 3
    floor_rule = attrs.evolve(PRORATION, rounding=Rounding.FLOOR)
    assert prorate(floor_rule, 10, Season.SUMMER) == 7


@pytest.mark.rule("82.21A")
def test_partial_grant_fixed_or_fraction() -> None:
    """The illustrative 7 / 0 grant is 5 BRPs, capped at the value; a fraction rule halves."""
    rule = RS.brp_rules["partial"]
    assert rule.illustrative
    assert partial_grant(rule, 10) == 5
    assert partial_grant(rule, 3) == 3
    half = attrs.evolve(rule, kind="fraction", fraction=Fraction(1, 2))
    assert partial_grant(half, 9) == 4


@pytest.mark.rule("82.21B")
def test_control_grants_the_rest_of_the_value() -> None:
    """8 / −1 holds all the BRPs: the 7 / 0 grant plus the remainder."""
    assert grants_by_level(RS, 10) == {DiplomaticLevel.BRPS: 5, DiplomaticLevel.CONTROL: 5}
    assert grants_by_level(RS, 3) == {DiplomaticLevel.BRPS: 3, DiplomaticLevel.CONTROL: 0}
