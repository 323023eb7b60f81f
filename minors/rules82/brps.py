"""BRP amounts: the 7 / 0 partial grant (82.21A) and the proration of 82.22.

Whole BRPs only: amounts are computed exactly with `Fraction` and rounded once, as the
`brp_rules` table says. The rulebook's figures are not public; the defaults are illustrative.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from ..domain import BrpRuleKind, DiplomaticLevel, Rounding, Season
from ..ruleset.records import BrpRule
from ..ruleset.tables import Ruleset

__all__ = ["grants_by_level", "partial_grant", "prorate", "round_brps"]


def round_brps(amount: Fraction, rounding: Rounding) -> int:
    """Round an exact BRP amount to a whole number (82.22: BRPs are integers)."""
    if rounding is Rounding.FLOOR:
        return math.floor(amount)
    if rounding is Rounding.CEILING:
        return math.ceil(amount)
    return math.floor(amount + Fraction(1, 2))


def partial_grant(rule: BrpRule, value: int) -> int:
    """The BRPs a 7 / 0 result attributes (82.21A): a fixed amount or a share, never above
    the minor's value."""
    if rule.kind is BrpRuleKind.FIXED:
        return min(rule.amount, value)
    return min(round_brps(value * rule.fraction, rule.rounding), value)


def prorate(rule: BrpRule, value: int, season: Season) -> int:
    """The prorated value of `value` BRPs at `season` (82.22): value × weight / denominator."""
    return _prorated(value, rule.season_weights[season.value], rule.denominator, rule.rounding)


@functools.lru_cache(maxsize=4096)
def _prorated(value: int, weight: int, denominator: int, rounding: Rounding) -> int:
    # Exact with Fraction, and memoized: the same few figures recur all game long.
    return round_brps(Fraction(value * weight, denominator), rounding)


def grants_by_level(ruleset: Ruleset, value: int) -> dict[DiplomaticLevel, int]:
    """Split a minor's full BRP value into the grant of each level (before proration).

    A 7 / 0 result grants the partial amount; 8 / −1 grants the rest, so that a power holding
    control holds all of the minor's BRPs and each grant can be undone on its own (82.22).
    """
    partial = partial_grant(ruleset.brp_rules["partial"], value)
    return {DiplomaticLevel.BRPS: partial, DiplomaticLevel.CONTROL: value - partial}
