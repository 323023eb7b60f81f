"""DYO purchases (A25.57): Free French and Vichy French are never bought by one side."""

from __future__ import annotations

import pytest

from minors import MinorsError, Side
from minors.asl.dyo import DyoError, FrenchForce, Purchase, check_purchases, french_force

ALLIES, AXIS = Side.ALLIES, Side.AXIS


@pytest.mark.rule("A25.57")
def test_one_side_buying_both_is_refused() -> None:
    """Free French and Vichy squads on the Allied side: one violation naming both."""
    found = check_purchases(
        [
            Purchase("4-5-8 squad", ALLIES, "Free French"),
            Purchase("4-4-7 squad", ALLIES, "Vichy French"),
            Purchase("8-1 leader", ALLIES, "free-french"),
        ]
    )
    assert [v.rule for v in found] == ["A25.57"]
    assert found[0].data == {
        "side": "allies",
        "free_french": ["4-5-8 squad", "8-1 leader"],
        "vichy_french": ["4-4-7 squad"],
    }


@pytest.mark.rule("A25.57")
def test_opposite_sides_may_buy_one_each() -> None:
    """Free French for one side and Vichy for the other is allowed."""
    purchases = [Purchase("squad", ALLIES, "free_french"), Purchase("squad", AXIS, "Vichy")]
    assert check_purchases(purchases) == ()


@pytest.mark.rule("A25.57")
def test_each_offending_side_is_reported() -> None:
    """Both sides buying both gives one violation per side, in side order."""
    purchases = [
        Purchase(f"{force}-{side}", side, force)
        for side in (AXIS, ALLIES)
        for force in ("Free French", "Vichy French")
    ]
    assert [v.data["side"] for v in check_purchases(purchases)] == ["axis", "allies"]


@pytest.mark.rule("A25.57")
@pytest.mark.parametrize(
    "other", ["French", "British", "American", "Free French"], ids=lambda o: o.lower()
)
def test_other_nationalities_do_not_count(other: str) -> None:
    """1940 French, British or more Free French beside Free French break nothing."""
    purchases = [Purchase("squad", ALLIES, "Free French"), Purchase("other", ALLIES, other)]
    assert check_purchases(purchases) == ()


def test_names_of_the_two_forces() -> None:
    """Case, spaces and hyphens do not matter; plain French is neither force."""
    assert french_force("  FREE  french ") is FrenchForce.FREE_FRENCH
    assert french_force("vichy") is FrenchForce.VICHY_FRENCH
    assert french_force(FrenchForce.VICHY_FRENCH) is FrenchForce.VICHY_FRENCH
    assert french_force("French") is None


@pytest.mark.parametrize(("item", "side", "nation"), [("", "allies", "x"), ("a", "allies", " ")])
def test_malformed_purchases_raise(item: str, side: str, nation: str) -> None:
    """An empty item or nationality is a DyoError, a MinorsError and a ValueError."""
    with pytest.raises(DyoError) as caught:
        Purchase(item, side, nation)  # type: ignore[arg-type]
    assert isinstance(caught.value, MinorsError)
    assert isinstance(caught.value, ValueError)


def test_unknown_side_raises() -> None:
    """A side other than axis or allies is a ValueError."""
    with pytest.raises(ValueError, match="neutral"):
        Purchase("squad", "neutral", "Vichy")  # type: ignore[arg-type]
