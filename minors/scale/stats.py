"""The intervals `minors simulate` reports (docs/scale.md): Wilson for proportions, Student
t for means and paired differences, and the paired t test's p-values with Holm's
adjustment; no SciPy needed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from attrs import frozen

__all__ = [
    "CONFIDENCE",
    "Interval",
    "holm",
    "mean_interval",
    "paired_p",
    "t_cdf",
    "t_quantile",
    "wilson",
]

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

    def to_json(self) -> dict[str, float | str | None]:
        """As `--json` prints it: an unbounded end (a mean of one value) is null."""
        return {
            "value": round(self.value, 6),
            "low": round(self.low, 6) if math.isfinite(self.low) else None,
            "high": round(self.high, 6) if math.isfinite(self.high) else None,
            "method": self.method,
        }


Z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
"""The normal quantile of the Wilson intervals."""


def wilson(successes: int, trials: int) -> Interval:
    """The Wilson score interval of a proportion `successes / trials` (sound near 0 and 1,
    where the normal approximation is not); (0, 0, 1) when there are no trials."""
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0, "wilson")
    p = successes / trials
    denominator = 1 + Z * Z / trials
    centre = (p + Z * Z / (2 * trials)) / denominator
    half = Z * math.sqrt(p * (1 - p) / trials + Z * Z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high, "wilson")


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: int) -> float:
    """The distribution function of Student's t with `df` degrees of freedom."""
    tail = 0.5 * _incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The `p` quantile of Student's t with `df` degrees of freedom (0 < p < 1): the
    distribution function inverted by bisection, to 1e-12."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if not 0 < p < 1:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    low, high = -1.0, 1.0
    while t_cdf(low, df) > p:
        low *= 2
    while t_cdf(high, df) < p:
        high *= 2
    while high - low > 1e-12:
        middle = (low + high) / 2
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of `values` with its Student t interval; unbounded (-inf, inf) with fewer than
    two values, which give no estimate of the spread."""
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    if n < 2:
        return Interval(mean, -math.inf, math.inf, "t")
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + CONFIDENCE / 2, n - 1) * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half, "t")


def paired_p(values: Sequence[float]) -> float | None:
    """The two-sided p-value of Student's t test that the mean of `values` (paired
    differences) is 0: 1 when they are all 0, 0 when they are all one other value; None
    with fewer than two values (no test)."""
    n = len(values)
    if n < 2:
        return None
    mean = math.fsum(values) / n
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    if variance == 0:
        return 1.0 if mean == 0 else 0.0
    t = abs(mean) / math.sqrt(variance / n)
    return min(1.0, 2 * t_cdf(-t, n - 1))


def holm(ps: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of p-values for testing them together (the chance that
    any true null is rejected stays within the level); None stays None and is not counted."""
    known = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    out: list[float | None] = [None] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (len(known) - rank) * p))
        out[i] = running
    return out
