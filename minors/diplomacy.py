"""The diplomatic scale as a function: a minor's standing result and a new one give its new
standing, status and BRP share (82.21, 82.31; the scale itself is from public material)."""

from __future__ import annotations

from attrs import frozen

from .domain import DiplomaticLevel, Side, Status, Theater
from .records import LevelEffect
from .ruleset import Ruleset

__all__ = ["Standing", "clamp", "effect_of", "next_standing", "status_of"]


@frozen
class Standing:
    """The diplomatic result standing for a minor: which side holds it, and how far it goes."""

    side: Side
    level: DiplomaticLevel


def clamp(ruleset: Ruleset, result: int) -> int:
    """Results beyond the scale count as its nearest end."""
    scale = ruleset.diplomatic_results
    return max(min(scale), min(max(scale), result))


def next_standing(ruleset: Ruleset, current: Standing | None, result: int) -> Standing | None:
    """The standing after a new (modified) result: a result of 7+ / 0− sets a new standing,
    5–6 keep a pro-Axis one, 1–2 a pro-Allied one, 3–4 keep whatever stands."""
    entry = ruleset.diplomatic_results[clamp(ruleset, result)]
    if entry.effect == "set":
        assert entry.side is not None
        return Standing(entry.side, entry.level)
    if entry.effect == "keep" or current is None:
        return current
    kept = Side.AXIS if entry.effect == "keep_axis" else Side.ALLIES
    return current if current.side is kept else None


def effect_of(ruleset: Ruleset, level: DiplomaticLevel, theater: Theater) -> LevelEffect | None:
    """What a standing level gives in a theater: a Europe-only level (association) falls back
    to its `otherwise` level in the Pacific. None for no standing."""
    effect = ruleset.diplomatic_levels.get(level)
    while effect is not None and effect.europe_only and theater is not Theater.EUROPE:
        effect = ruleset.diplomatic_levels.get(effect.otherwise) if effect.otherwise else None
    return effect


def status_of(ruleset: Ruleset, standing: Standing | None, theater: Theater) -> Status:
    """The 82.11 status a standing gives a minor at peace."""
    if standing is None:
        return Status.NEUTRAL
    effect = effect_of(ruleset, standing.level, theater)
    return effect.status if effect is not None else Status.NEUTRAL
