"""Tests of the house rule in limit_of_eight.toml: the foreign-factor limit of rule 82.32
lowered from ten factors to eight.

`pytest` in this folder runs these tests, and the minors pytest plugin adds one more item
(pytest.ini: `--minors-ruleset limit_of_eight.toml`): the kernel's state machine plays
games under the house rule and checks every invariant after every step.
"""

from __future__ import annotations

from pathlib import Path

import minors

HERE = Path(__file__).parent
HOUSE = [str(HERE / "limit_of_eight.toml")]


def controlled_rumania(ruleset: list[str]) -> minors.Game:
    """Germany controls Rumania (result 8, 82.31) and moves three 3-factor units in; the
    movement phase ends, and the limit is enforced (82.321B)."""
    game = minors.Game.new(ruleset=ruleset)
    game.apply(minors.command("diplomatic_result", minor="Rumania", major="Germany", result=8))
    game.advance_to("1939-fall/axis/movement")
    units = [
        {"id": f"ger-{i}", "owner": "Germany", "kind": "infantry", "factors": 3} for i in (1, 2, 3)
    ]
    game.apply(minors.command("place", units=units, **{"in": "Rumania"}))
    game.advance_to("1939-fall/axis/combat")
    return game


def test_the_house_rule_lowers_the_limit_to_eight() -> None:
    """The tables with the house rule merged in hold a limit of eight factors, not ten."""
    assert minors.load_ruleset().limits["default"].factors == 10
    assert minors.load_ruleset(HOUSE).limits["default"].factors == 8


def test_nine_factors_are_one_unit_too_many() -> None:
    """Nine foreign factors are within rule 82's ten; under the house rule a unit goes at
    the end of the phase."""
    assert controlled_rumania([]).to_json()["eliminated"] == []
    assert controlled_rumania(HOUSE).to_json()["eliminated"] == ["ger-3"]


def test_the_sample_campaign_plays_under_the_house_rule() -> None:
    """campaign.toml runs to its end under the house rule, as it does without it."""
    plain = minors.run_scenario(HERE / "campaign.toml")
    house = minors.run_scenario(HERE / "campaign.toml", ruleset=HOUSE)
    assert house.clock == plain.clock
    assert house.ruleset.digest != plain.ruleset.digest
