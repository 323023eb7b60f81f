"""The bridge from the strategic game to ASL A25: what a country's troops are like follows
from what happened to the country (docs/nationality.md).

Given a game (or a scenario played to a moment) and a country, the context of the A25 query
comes from the strategic state: the month from the season (its first month; the months in
which some trait changes inside the season are reported), fighting at home from where the
troops stand, the opponent from who is at war with the country (one profile for each,
unless one is named), the side the country fights on (Germany's allies may be other
nationalities), a conquered Allied minor's forces fighting on as British or Russian (A25.92,
the `organized_by` column), and France's fall in this game — not a fixed June 1940 —
splitting French forces into Free French and Vichy French.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attrs import frozen

from .._kernel.game import BaseGame
from ..domain import Season, Side, Status
from ..domain.arguments import checked
from ..domain.clock import Moment
from ..errors import ProfileError, UnknownNameError
from .nationality import country_nationality, profile, thresholds
from .traits import Profile

__all__ = ["SEASON_MONTHS", "Troops", "month_of", "troops"]

SEASON_MONTHS = {
    Season.SPRING: (3, 4, 5),
    Season.SUMMER: (6, 7, 8),
    Season.FALL: (9, 10, 11),
    Season.WINTER: (12, 13, 14),  # December of the year, then January and February after
}
"""The months of each season (public material): Winter Y runs December Y to February Y+1."""


def _month(year: int, month: int) -> str:
    return f"{year + (month - 1) // 12}-{(month - 1) % 12 + 1:02d}"


@checked(ProfileError)
def month_of(moment: Moment) -> str:
    """The month a date-dependent trait is read at for a turn: the season's first."""
    return _month(moment.year, SEASON_MONTHS[moment.season][0])


@frozen
class Troops:
    """A country's troops at a moment of the strategic game, against one opponent."""

    country: str
    nationality: str | None
    reason: str
    clause: str
    month: str
    vs: str | None
    home: bool
    changes: tuple[str, ...]
    """Months inside the season in which this profile's answer changes (`thresholds`)."""
    profile: Profile | None


def _side(game: BaseGame, name: str) -> Side | None:
    rs = game.ruleset
    if name in rs.majors:
        return rs.side_of[name]
    state = game.raw_state.minors[name]
    return rs.side_of[state.major] if state.major is not None else None


def _conquered(game: BaseGame, name: str) -> bool:
    if name in game.ruleset.majors:
        return name in game.raw_state.surrendered  # France's fall in this game
    return game.raw_state.minors[name].status is Status.CONQUERED


def _enemies(game: BaseGame, name: str) -> list[str]:
    if name in game.ruleset.majors:
        return sorted({b if a == name else a for a, b in game.raw_state.wars if name in (a, b)})
    return list(game.raw_state.minors[name].at_war_with)


def _named(game: BaseGame, name: str) -> str:
    """A country's canonical name, or a name that is no country (a nationality) as given."""
    try:
        return game.ruleset.resolve(name)
    except UnknownNameError:
        return name


def _against(game: BaseGame, name: str) -> str:
    """What a profile opposes: a country's troops as the nationality they are in this
    game (its side, its fate), a country whose troops A25 does not describe by its own
    name (the profile takes it as an opponent no opponent-bound row names), a nationality
    as named."""
    rs = game.ruleset
    if name not in rs.minors and name not in rs.majors:
        return name
    mapping = country_nationality(
        name, side=_side(game, name), conquered=_conquered(game, name), ruleset=rs
    )
    return mapping.nationality or name


@checked(ProfileError)
def troops(
    game: BaseGame,
    country: str,
    *,
    in_country: str | None = None,
    unit_id: str | None = None,
    vs: str | None = None,
    unit_class: str | None = None,
    unit: str | None = None,
    ssr: Iterable[str] = (),
    scenario_kind: str = "historical",
) -> list[Troops]:
    """The A25 profile of `country`'s troops now, one per opponent (or against `vs`).
    Whether they fight at home comes from `in_country`, or from where the unit `unit_id`
    stands.

    Raises:
        UnknownNameError: an unknown country.
    """
    rs = game.ruleset
    name = rs.resolve(country)
    mapping = country_nationality(
        name, side=_side(game, name), conquered=_conquered(game, name), ruleset=rs
    )
    month = month_of(game.clock)
    if unit_id is not None:
        in_country = game.unit(unit_id).country
    home = in_country is not None and rs.resolve(in_country) == name
    if mapping.nationality is None:
        return [Troops(name, None, mapping.reason, "", month, vs, home, (), None)]
    _, *rest = SEASON_MONTHS[game.clock.season]
    inside = {_month(game.clock.year, m) for m in rest}
    opponents: list[str | None] = [vs] if vs is not None else [*_enemies(game, name)]
    out = []
    for opponent in opponents or [None]:
        named = _named(game, opponent) if opponent is not None else None
        against = _against(game, named) if named is not None else None
        query: dict[str, Any] = {
            "unit_class": unit_class,
            "unit": unit,
            "vs": against,
            "home": home,
            "ssr": tuple(ssr),
            "scenario_kind": scenario_kind,
            "ruleset": rs,
            "window": False,  # the game, not a fixed June 1940, says when France has fallen
        }
        found = profile(mapping.nationality, month, **query)
        changes = tuple(
            str(m) for m in thresholds(mapping.nationality, **query) if str(m) in inside
        )
        out.append(
            Troops(
                name,
                mapping.nationality,
                mapping.reason,
                mapping.clause,
                month,
                named,
                home,
                changes,
                found,
            )
        )
    return out
