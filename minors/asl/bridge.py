"""The bridge from the strategic game to ASL A25: what a country's troops are like follows
from what happened to the country in this game, France's fall included (docs/bridge.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs
from attrs import frozen

from .._kernel.game import BaseGame
from ..domain import Season, Side, Status
from ..domain.arguments import checked
from ..domain.clock import Moment
from ..errors import ProfileError, UnknownNameError
from .nationality import CountryMapping, country_nationality, profile, thresholds
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


def _enemies(game: BaseGame, name: str) -> list[str]:
    if name in game.ruleset.majors:
        return sorted({b if a == name else a for a, b in game.raw_state.wars if name in (a, b)})
    return list(game.raw_state.minors[name].at_war_with)


def _mapping(game: BaseGame, name: str) -> CountryMapping:
    """The nationality of a country's troops in this game: its side, its fate."""
    rs, state = game.ruleset, game.raw_state
    side: Side | None
    if name in rs.majors:
        side, conquered = rs.side_of[name], name in state.surrendered  # France's fall in this game
    else:
        minor = state.minors[name]
        side = rs.side_of[minor.major] if minor.major is not None else None
        conquered = minor.status is Status.CONQUERED
    return country_nationality(name, side=side, conquered=conquered, ruleset=rs)


def _fall_dated(rs: Any, nation: str) -> bool:
    """Whether France's fall (in tables: `successors`) bounds `nation`'s A25 dates."""
    records = rs.nationalities
    return bool(records[nation].successors) or any(nation in r.successors for r in records.values())


def _opponent(game: BaseGame, name: str) -> tuple[str, str]:
    """A country's canonical name and what a profile opposes: its troops as the nationality
    they are in this game (else the country, which no opponent-bound row names); a name
    that is no country (a nationality), as given, twice."""
    try:
        country = game.ruleset.resolve(name)
    except UnknownNameError:
        return name, name
    return country, _mapping(game, country).nationality or country


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
    ssr: Iterable[str] | str = (),
    scenario_kind: str = "historical",
) -> list[Troops]:
    """The A25 profile of `country`'s troops now, one per opponent (or against `vs`); they
    fight at home by `in_country`, or where the unit `unit_id` stands (docs/bridge.md)."""
    rs = game.ruleset
    name = rs.resolve(country)
    mapping = _mapping(game, name)
    month = month_of(game.clock)
    if unit_id is not None:
        in_country = game.unit(unit_id).country
    home = in_country is not None and rs.resolve(in_country) == name
    nation, reason, clause = mapping.nationality, mapping.reason, mapping.clause
    minor = game.raw_state.minors.get(name)
    if nation is not None and minor is not None and not minor.active:  # Vichy before the fall
        nation, reason = None, f"{name} is not in play in this game yet: it has no troops"
    alone = Troops(name, nation, reason, clause, month, vs, home, (), None)
    if nation is None:
        return [alone]
    inside = {_month(game.clock.year, m) for m in SEASON_MONTHS[game.clock.season][1:]}
    opponents: list[str | None] = [vs] if vs is not None else [*_enemies(game, name)]
    out = []
    for opponent in opponents or [None]:
        named, against = _opponent(game, opponent) if opponent is not None else (None, None)
        query: dict[str, Any] = {
            "unit_class": unit_class,
            "unit": unit,
            "vs": against,
            "home": home,
            "ssr": ssr if isinstance(ssr, str) else tuple(ssr),  # one rule, or several
            "scenario_kind": scenario_kind,
            "ruleset": rs,
            "window": not _fall_dated(rs, nation),
        }
        found = profile(nation, month, **query)
        changes = tuple(str(m) for m in thresholds(nation, **query) if str(m) in inside)
        out.append(attrs.evolve(alone, vs=named, changes=changes, profile=found))
    return out
