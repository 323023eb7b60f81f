"""BRP amounts: the 7 / 0 partial grant and 82.22 proration, in whole BRPs."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

import minors
from minors import DiplomaticLevel, Rounding, Season, load_ruleset
from minors.rules82.brps import grants_by_level, partial_grant, prorate, round_brps
from minors.testing import ledger_problems, seesaw, stale_caches

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


# ---- the ledger over a long game --------------------------------------------------------


def _scanned(game: minors.Game, name: str) -> list[int]:
    """The active grants of `name` by a scan of the whole ledger."""
    ledger = game.raw_state.ledger
    undone = {e.undoes for e in ledger if e.undoes is not None}
    return [e.seq for e in ledger if e.kind == "grant" and e.minor == name and e.seq not in undone]


@pytest.mark.rule("82.22")
def test_deductions_name_the_active_grants_over_a_long_game() -> None:
    """Over many reversals, each deduction undoes the grant still standing (the kernel keeps
    the active grants beside the ledger instead of scanning it), also after a game is
    rebuilt from its state, whose ledger the index is built again from."""
    game = minors.Game.new()
    names = ["Sweden", "Turkey", "Spain"]
    seesaw(game, names, 4)
    rebuilt = minors.Game.from_state(game.state())
    assert rebuilt.play().board.grants == game.play().board.grants  # built again from the ledger
    for played in (game, rebuilt):
        seesaw(played, names, 3)
        ledger = played.raw_state.ledger
        assert len(ledger) > 40
        assert ledger_problems(played) == []
        assert stale_caches(played) == []
        grants = {e.seq: e for e in ledger if e.kind == "grant"}
        for deduction in (e for e in ledger if e.kind == "deduction"):
            assert deduction.undoes is not None
            grant = grants[deduction.undoes]
            assert (grant.major, grant.minor) == (deduction.major, deduction.minor)
        for name in names:
            standing = played.minor(name).standing
            assert standing is not None
            assert standing.major == "Britain"
            assert [e.major for e in ledger if e.seq in _scanned(played, name)] == ["Britain"] * 2
    assert game.state() == rebuilt.state()
