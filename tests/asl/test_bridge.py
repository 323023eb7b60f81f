"""The bridge from the strategic game to ASL A25 (minors.bridge)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import minors
from minors.bridge import month_of, troops
from minors.cli import main
from minors.errors import ProfileError
from minors.nationality import lineage
from minors.scenario import SAMPLE


@pytest.mark.parametrize(
    ("moment", "month"),
    [
        ("1940-spring/axis/diplomacy", "1940-03"),
        ("1940-summer/allies/combat", "1940-06"),
        ("1940-fall/axis/movement", "1940-09"),
        ("1943-winter/axis/diplomacy", "1943-12"),
    ],
)
def test_a_turn_reads_its_seasons_first_month(moment: str, month: str) -> None:
    """Spring is March, Summer June, Fall September, Winter Y December Y."""
    assert month_of(minors.Moment.parse(moment)) == month


@pytest.mark.rule("A25.8")
def test_one_profile_per_opponent_from_the_wars() -> None:
    """Associated Hungary fights Britain and Russia: one Hungarian profile against each."""
    game = minors.run_scenario(SAMPLE, "1943-winter/axis/diplomacy")
    found = troops(game, "Hungary")
    assert [(t.nationality, t.vs) for t in found] == [
        ("Hungarian", "Britain"),
        ("Hungarian", "Russia"),
    ]
    assert found[0].changes == ("1944-01",)  # traits that change inside Winter 1943
    assert found[0].profile is not None
    assert found[0].profile.context.vs == "British"


def test_one_special_rule_is_named_as_a_word_or_in_a_list() -> None:
    """`ssr="home_morale"` is the rule, as `profile` takes it, not eleven letters."""
    game = minors.run_scenario(SAMPLE, "1943-winter/axis/diplomacy")
    one = troops(game, "Hungary", in_country="Hungary", ssr="home_morale")
    listed = troops(game, "Hungary", in_country="Hungary", ssr=["home_morale"])
    assert one == listed
    assert one != troops(game, "Hungary", in_country="Hungary")  # the SSR changes the profile


@pytest.mark.rule("A25.92")
def test_a_conquered_allied_minor_fights_on_as_british() -> None:
    """Poland, conquered in Fall 1939, fields troops under British rules (organized_by):
    Free Polish, a British nationality, which A25.4 calls generally elite."""
    game = minors.run_scenario(SAMPLE, "1941-spring/axis/diplomacy")
    (poland,) = troops(game, "Poland")
    assert (poland.nationality, poland.clause) == ("Free Polish", "A25.92")
    assert lineage("Free Polish")[1] == "British"
    free = minors.Game.new()
    assert troops(free, "Poland")[0].nationality == "Polish"


@pytest.mark.rule("A25.5")
@pytest.mark.rule("A25.53")
def test_frances_fall_in_this_game_splits_its_forces() -> None:
    """Before its surrender France fields French troops; after it, Free French; Vichy
    France's are Vichy French — whenever France falls in the strategic game."""
    game = minors.Game.new()
    assert troops(game, "France")[0].nationality == "French"
    game.apply(minors.command("surrender", major="France"))
    assert troops(game, "France")[0].nationality == "Free French"
    assert troops(game, "Vichy France")[0].nationality == "Vichy French"


@pytest.mark.rule("A25.58")
def test_date_windows_hold_through_the_bridge() -> None:
    """Vichy France has no troops before France falls; French troops last as long as France
    does in this game, past June 1940; every other window holds (Polish troops end 12/45)."""
    game = minors.Game.new()
    (vichy,) = troops(game, "Vichy France")
    assert (vichy.nationality, vichy.profile) == (None, None)
    assert "not in play" in vichy.reason
    game.advance_to("1941-spring/axis/diplomacy")
    assert troops(game, "France")[0].profile is not None  # France stands: French rules hold
    game.advance_to("1946-spring/axis/diplomacy")
    with pytest.raises(ProfileError, match="impossible date 1946-03 for Polish troops"):
        troops(game, "Poland")


def test_countries_outside_a25_say_why() -> None:
    """Japan's troops are in another ASL chapter: no profile, and the reason."""
    (japan,) = troops(minors.Game.new(), "Japan")
    assert japan.profile is None
    assert "another ASL chapter" in japan.reason


@pytest.mark.rule("A25.8")
def test_fighting_at_home_and_a_named_opponent() -> None:
    """--in names where they fight; --vs replaces the opponents from the wars."""
    game = minors.run_scenario(SAMPLE, "1941-summer/axis/combat")
    (rumanians,) = troops(game, "Hungary", in_country="Hungary", vs="Rumania")
    assert rumanians.home
    assert rumanians.vs == "Rumania"


@pytest.mark.rule("A25.8")
def test_home_from_a_units_location() -> None:
    """A Hungarian unit standing in Hungary fights at home; one abroad does not."""
    game = minors.run_scenario(SAMPLE, "1941-summer/axis/combat")
    hungarian = next(i for i, u in game.to_json()["units"].items() if u["owner"] == "Hungary")
    assert troops(game, "Hungary", unit_id=hungarian)[0].home
    assert not troops(game, "Hungary")[0].home


def test_cli_scenario_at() -> None:
    """minors nationality NAME --scenario FILE --at MOMENT --json."""
    result = CliRunner().invoke(
        main,
        [
            "nationality",
            "Hungary",
            "--scenario",
            SAMPLE,
            "--at",
            "1943-winter/axis/diplomacy",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert (document["nationality"], document["month"]) == ("Hungarian", "1943-12")
    assert [p["vs"] for p in document["profiles"]] == ["Britain", "Russia"]
    bad = CliRunner().invoke(main, ["nationality", "Hungary", "--scenario", SAMPLE])
    assert bad.exit_code == 2
