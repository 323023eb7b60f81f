"""Rule 82's questions an engine asks before it resolves an action, each answered with its rule.

The public path of `minors.rules82.queries`."""

from __future__ import annotations

from ..rules82.queries import (
    Answer,
    ForcePool,
    Mission,
    Named,
    attack_costs_brps,
    attrition_nationality,
    force_pool,
    garrison_may_assist,
    geographic_restriction,
    in_automatic_supply,
    in_british_force_pool,
    may_assist,
    may_attack_from,
    may_fly,
    may_rebuild,
    zoc_extends,
)

__all__ = [
    "Answer",
    "ForcePool",
    "Mission",
    "Named",
    "attack_costs_brps",
    "attrition_nationality",
    "force_pool",
    "garrison_may_assist",
    "geographic_restriction",
    "in_automatic_supply",
    "in_british_force_pool",
    "may_assist",
    "may_attack_from",
    "may_fly",
    "may_rebuild",
    "zoc_extends",
]
