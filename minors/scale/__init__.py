"""Work at scale on Dask (docs/scale.md): `minors simulate`, `minors explore` and `minors
log verify-many`, each run by a `Runner`. Needs `pip install 'minors[scale]'`."""

from __future__ import annotations

from .explore import PASS, Exploration, Search, Violation, explore
from .policy import DEFAULT_POLICY, Policy, load_policy, phase_kinds, random_policy
from .report import simulate
from .runner import Payload, Runner, Setup
from .simulate import (
    CampaignResult,
    Campaigns,
    campaign_seed,
    play_campaign,
    replay_campaign,
    root_game,
    run_campaigns,
)
from .stats import Interval, mean_interval, wilson
from .verify import Checked, exit_status, logs_in, verify_many

__all__ = [
    "DEFAULT_POLICY",
    "PASS",
    "CampaignResult",
    "Campaigns",
    "Checked",
    "Exploration",
    "Interval",
    "Payload",
    "Policy",
    "Runner",
    "Search",
    "Setup",
    "Violation",
    "campaign_seed",
    "exit_status",
    "explore",
    "load_policy",
    "logs_in",
    "mean_interval",
    "phase_kinds",
    "play_campaign",
    "random_policy",
    "replay_campaign",
    "root_game",
    "run_campaigns",
    "simulate",
    "verify_many",
    "wilson",
]
