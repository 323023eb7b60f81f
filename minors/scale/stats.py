"""The intervals `minors simulate` reports (docs/scale.md): Wilson score intervals for
proportions, Student t intervals for means and for the mean of paired differences (the two
sides of `--versus-*` play the same seeds, so each campaign is its own control). All at 95 %
unless told otherwise; no SciPy needed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from attrs import frozen

__all__ = ["CONFIDENCE", "Interval", "mean_interval", "t_quantile", "wilson"]

CONFIDENCE = 0.95
"""The confidence level of every interval reported."""


@frozen
class Interval:
    """An estimate with its interval: `low <= value <= high`, at `CONFIDENCE`."""

    value: float
    low: float
    high: float
    method: str
    """`wilson` (a proportion) or `t` (a mean, or a mean of paired differences)."""

    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of 0 (a difference that shows)."""
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict[str, float | str]:
        return {
            "value": round(self.value, 6),
            "low": round(self.low, 6),
            "high": round(self.high, 6),
            "method": self.method,
        }


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """The Wilson score interval of a proportion `successes / trials` (sound near 0 and 1,
    where the normal approximation is not); (0, 0, 1) when there are no trials."""
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0, "wilson")
    z = _z(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), "wilson")


def t_quantile(p: float, df: int) -> float:
    """The `p` quantile of Student's t with `df` degrees of freedom: exact for 1 and 2,
    else the Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5), within 1e-4 of the
    exact value from 3 degrees of freedom on."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = NormalDist().inv_cdf(p)
    n = float(df)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / n ** (i + 1) for i, term in enumerate(terms))


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean of `values` with its Student t interval; with fewer than two values, or
    none that differ, the interval is the mean itself."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0, "t")
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, mean, mean, "t")
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half, "t")
