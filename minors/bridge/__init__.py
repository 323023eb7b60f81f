"""The bridge from a minor's strategic status to the A25 traits of its troops (docs/nationality.md).

The public path of `minors.asl.bridge`."""

from __future__ import annotations

from ..asl.bridge import (
    SEASON_MONTHS,
    Troops,
    month_of,
    troops,
)

__all__ = [
    "SEASON_MONTHS",
    "Troops",
    "month_of",
    "troops",
]
