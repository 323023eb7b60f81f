"""The three jobs at scale as the command line runs them: a simulation of one or two sets
of rules (`simulate`), an exploration (`minors.scale.explore.explore`) and a batch of logs
verified (`minors.scale.verify.verify_many`)."""

from __future__ import annotations

from typing import Any

from ..errors import ScaleInputError
from .report import Side, differences, summary
from .runner import Runner
from .simulate import Campaigns, run_campaigns

__all__ = ["simulate"]


def simulate(
    base: Campaigns, count: int, runner: Runner, versus: Campaigns | None = None
) -> dict[str, Any]:
    """`count` campaigns of `base` (and of `versus`, with the same seeds), reported as
    `minors simulate --json` prints them: the base side's report, with `versus` (the other
    side's report and the paired `differences`) when there is another side.

    Raises:
        ScaleInputError: the two sides are seeded differently (they would not be paired).
    """
    if versus is not None and versus.seed != base.seed:
        raise ScaleInputError(
            f"both sides play the same seeds: --seed {base.seed} against {versus.seed}"
        )
    first = Side("base", base, tuple(run_campaigns(base, count, runner)))
    if versus is None:
        return {**summary(first), "ran_on": runner.setup.describe()}
    other = Side("versus", versus, tuple(run_campaigns(versus, count, runner)))
    # the figures of both sides over the same campaigns: those that completed on both
    failed = frozenset(r.index for side in (first, other) for r in side.results if r.error)
    document = summary(first, failed)
    document["ran_on"] = runner.setup.describe()
    document["versus"] = {**summary(other, failed), "differences": differences(first, other)}
    return document
