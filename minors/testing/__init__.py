"""Property-based testing of `minors` and of house rules (docs/testing.md): the kit of
`minors.testing.kit`, re-exported. Without Hypothesis this package still imports, and
asking it for a name of the kit says what to install.
"""

from __future__ import annotations

from typing import Any

NEEDS_HYPOTHESIS = (
    "needs Hypothesis, which the testing extra installs: pip install 'minors[testing]' "
    "(from a checkout: pip install -e '.[testing]'; from a built wheel: "
    "pip install 'dist/minors-VERSION-py3-none-any.whl[testing]')"
)
"""What to install for the kit, as its import errors say (docs/testing.md)."""

try:
    import hypothesis  # noqa: F401  (the kit's one requirement beyond minors)
except ImportError:

    def __getattr__(name: str) -> Any:
        raise ModuleNotFoundError(f"minors.testing.{name} {NEEDS_HYPOTHESIS}", name="hypothesis")

else:
    from .kit import (
        UNIT_IDS,
        MinorsStateMachine,
        broken_bars,
        commands,
        conquered_units,
        exceeded_limits,
        fits,
        games,
        known_kinds,
        ledger_problems,
        legal_commands,
        majors,
        minors,
        moments,
        rulesets,
        seesaw,
        stale_caches,
        state_problems,
        ties_with_enemies,
        unbatched_legal_actions,
        units,
        unlogged_eliminations,
    )


__all__ = [
    "UNIT_IDS",
    "MinorsStateMachine",
    "broken_bars",
    "commands",
    "conquered_units",
    "exceeded_limits",
    "fits",
    "games",
    "known_kinds",
    "ledger_problems",
    "legal_commands",
    "majors",
    "minors",
    "moments",
    "rulesets",
    "seesaw",
    "stale_caches",
    "state_problems",
    "ties_with_enemies",
    "unbatched_legal_actions",
    "units",
    "unlogged_eliminations",
]
