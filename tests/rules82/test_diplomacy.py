"""The diplomatic scale as data: standing, new result -> new standing and status."""

from __future__ import annotations

import pytest

from minors import DiplomaticLevel, Side, Status, Theater, load_ruleset
from minors.rules82.diplomacy import Standing, clamp, next_standing, status_of

RS = load_ruleset()
AXIS_BRPS = Standing(Side.AXIS, DiplomaticLevel.BRPS)
AXIS_CONTROL = Standing(Side.AXIS, DiplomaticLevel.CONTROL)
ALLIED_BRPS = Standing(Side.ALLIES, DiplomaticLevel.BRPS)
ALLIED_CONTROL = Standing(Side.ALLIES, DiplomaticLevel.CONTROL)


@pytest.mark.rule("82.21A")
@pytest.mark.rule("82.21B")
@pytest.mark.rule("82.31")
@pytest.mark.parametrize(
    ("current", "result", "expected"),
    [
        (None, 7, AXIS_BRPS),
        (None, 8, AXIS_CONTROL),
        (None, 0, ALLIED_BRPS),
        (None, -1, ALLIED_CONTROL),
        (None, 9, Standing(Side.AXIS, DiplomaticLevel.ASSOCIATION)),
        (None, -3, Standing(Side.ALLIES, DiplomaticLevel.ALLIANCE)),
        (AXIS_CONTROL, 6, AXIS_CONTROL),  # 5-6: a pro-Axis result stands
        (ALLIED_CONTROL, 5, None),  # ... a pro-Allied one is cancelled
        (AXIS_BRPS, 4, AXIS_BRPS),  # 3-4: nothing changes
        (ALLIED_BRPS, 3, ALLIED_BRPS),
        (ALLIED_CONTROL, 2, ALLIED_CONTROL),  # 1-2: a pro-Allied result stands
        (AXIS_CONTROL, 1, None),  # ... a pro-Axis one is cancelled
        (AXIS_CONTROL, -1, ALLIED_CONTROL),  # reversal
        (AXIS_CONTROL, 7, AXIS_BRPS),
        (None, 14, Standing(Side.AXIS, DiplomaticLevel.ALLIANCE)),  # clamped
        (None, -9, Standing(Side.ALLIES, DiplomaticLevel.ALLIANCE)),
        (None, 4, None),
    ],
)
def test_next_standing(current: Standing | None, result: int, expected: Standing | None) -> None:
    """A new result sets, keeps or cancels the standing as the scale says."""
    assert next_standing(RS, current, result) == expected


def test_results_beyond_the_scale_are_clamped() -> None:
    """The scale runs from -3 to 10."""
    assert (clamp(RS, 12), clamp(RS, -5), clamp(RS, 4)) == (10, -3, 4)


@pytest.mark.rule("82.11C")
@pytest.mark.rule("82.11D")
@pytest.mark.rule("82.11E")
@pytest.mark.rule("82.11F")
def test_status_of_each_level() -> None:
    """7/0 BRPs attributed, 8/−1 hexes controlled, 9/−2 associated, 10/−3 allied."""
    statuses = [
        status_of(RS, Standing(Side.AXIS, level), Theater.EUROPE)
        for level in (
            DiplomaticLevel.BRPS,
            DiplomaticLevel.CONTROL,
            DiplomaticLevel.ASSOCIATION,
            DiplomaticLevel.ALLIANCE,
        )
    ]
    assert statuses == [
        Status.BRPS_ATTRIBUTED,
        Status.HEXES_CONTROLLED,
        Status.ASSOCIATED,
        Status.ALLIED,
    ]
    assert status_of(RS, None, Theater.EUROPE) is Status.NEUTRAL


@pytest.mark.rule("82.11E")
def test_association_is_europe_only() -> None:
    """In the Pacific a 9 / −2 has the effects of 8 / −1 (a documented reading)."""
    standing = Standing(Side.AXIS, DiplomaticLevel.ASSOCIATION)
    assert status_of(RS, standing, Theater.PACIFIC) is Status.HEXES_CONTROLLED


@pytest.mark.rule("82.21")
def test_a_result_for_the_other_side_counts_as_its_cancelling_band() -> None:
    """A result that favours the other side counts as the band keeping that side's
    standing and cancelling the roller's: 6 for the Axis, 1 for the Allies (a reading,
    docs/rules.md); Germany's 0 leaves neutral Sweden neutral, with a note saying so."""
    from minors import Game, Note, command
    from minors.rules82.diplomacy import cancelling

    rs = load_ruleset()
    assert (cancelling(rs, Side.AXIS), cancelling(rs, Side.ALLIES)) == (6, 1)
    game = Game.new()
    effects = game.apply(command("diplomatic_result", minor="Sweden", major="Germany", result=0))
    assert effects == [Note("Germany's result 0 favours the other side: it counts as 1", "82.21")]
    assert game.minor("Sweden").standing is None


@pytest.mark.rule("82.21")
@pytest.mark.rule("K4")
def test_a_result_with_its_roll_and_modifiers_counts_and_one_of_6_on_no_standing_is_nothing() -> (
    None
):
    """A result given with the roll and modifiers it adds up to is taken (K4); a 6 on a
    minor with no standing keeps nothing and cancels nothing: no effect at all."""
    from minors import Game, command

    game = Game.new()
    game.apply(
        command(
            "diplomatic_result", minor="Turkey", major="Germany", result=8, roll=6, modifiers=[2]
        )
    )
    assert game.minor("Turkey").status is Status.HEXES_CONTROLLED
    assert game.apply(command("diplomatic_result", minor="Greece", major="Germany", result=6)) == []
    assert game.minor("Greece").standing is None
