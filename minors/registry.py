"""The rule registry: every check and effect is registered under its clause id.

`Game.new(disabled={"82.34"})` switches entries off (for tests that prove the suite
catches a rule's absence), and `minors rules coverage` reads what is registered.
Rules that are not clauses of rule 82 or A25 have kernel ids `K1` ... (docs/rules.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import field, frozen

from .errors import MinorsError

if TYPE_CHECKING:
    from .tx import Tx

__all__ = [
    "CHECKS",
    "KERNEL_RULES",
    "REGISTRY",
    "RuleViolation",
    "Violation",
    "check",
    "clause_order",
    "effect",
]

KERNEL_RULES: dict[str, str] = {
    "K1": "Sequence of play: a command only in the phase and player turn that allow it",
    "K2": "War between major powers: no second declaration, no acts by a surrendered power",
    "K3": "Units: ids are unique, a moved or removed unit exists, placement in a known country",
    "K4": "Dice: a diplomatic result given with its roll and modifiers must be their sum",
    "K5": "Conquest conditions: the conqueror's ground units hold the capital or key hexes",
    "K6": "Costs: declaring war costs BRPs (10 on a minor, 35 on a major power)",
    "K7": "Status: a command needs a minor in a status it can act on",
}


@frozen
class Violation:
    """One broken rule: its id, what is wrong (with the values), and the data involved."""

    rule: str
    message: str
    data: Mapping[str, Any] = field(factory=dict)


def clause_order(rule: str) -> tuple[int, tuple[Any, ...]]:
    """Sort key: rule 82 numerically, then A25, then the kernel's own ids."""
    text = rule.removeprefix("A")
    family = 0 if rule.startswith("82") else 1 if rule.startswith("A25") else 2
    parts: list[Any] = []
    for token in re.findall(r"\d+|[A-Z]+|-\w+", text):
        parts.append((0, int(token), "") if token.isdigit() else (1, 0, token))
    return family, tuple(parts)


class RuleViolation(MinorsError):
    """An illegal command; `.violations` lists every broken rule, `.rule` the first in clause
    order. The game is left exactly as it was."""

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = sorted(violations, key=lambda v: clause_order(v.rule))
        first = self.violations[0]
        self.rule = first.rule
        self.message = first.message
        more = f" (and {len(self.violations) - 1} more)" if len(self.violations) > 1 else ""
        super().__init__(f"{first.rule}: {first.message}{more}")


@frozen
class Registered:
    """A function registered under a clause: a check of a command, or an effect."""

    clause: str
    kind: str
    name: str


REGISTRY: dict[str, list[Registered]] = {}
"""clause id -> what is registered under it (the coverage report reads this)."""

CheckFn = Callable[["Tx", Any], Iterable[Violation]]
CHECKS: dict[str, list[tuple[str, CheckFn]]] = {}
"""command name -> (clause, check) in clause order."""

F = TypeVar("F", bound=Callable[..., Any])


def _register(clause: str, kind: str, fn: Callable[..., Any]) -> None:
    REGISTRY.setdefault(clause, []).append(
        Registered(clause, kind, f"{fn.__module__}.{fn.__qualname__}")
    )


def check(command: str, clause: str) -> Callable[[F], F]:
    """Register a legality check of `command` under `clause`."""

    def decorate(fn: F) -> F:
        _register(clause, "check", fn)
        entries = CHECKS.setdefault(command, [])
        entries.append((clause, fn))
        entries.sort(key=lambda e: clause_order(e[0]))
        return fn

    return decorate


def effect(clause: str) -> Callable[[F], F]:
    """Register an effect under `clause`: it does nothing while the clause is disabled.

    The function's first argument is the transaction (`Tx`), which knows what is disabled.
    """

    def decorate(fn: F) -> F:
        _register(clause, "effect", fn)

        def run(tx: Tx, *args: Any, **kwargs: Any) -> Any:
            if clause in tx.disabled:
                return None
            return fn(tx, *args, **kwargs)

        run.__name__ = fn.__name__
        run.__qualname__ = fn.__qualname__
        run.__doc__ = fn.__doc__
        run.clause = clause  # type: ignore[attr-defined]
        return run  # type: ignore[return-value]

    return decorate


Handler = Callable[["Tx", Any], None]
HANDLERS: dict[str, Handler] = {}
"""command name -> the function that applies it (after its checks passed)."""

PhaseFn = Callable[["Tx", Any], None]
PHASE_START: dict[str, list[PhaseFn]] = {}
PHASE_END: dict[str, list[PhaseFn]] = {}
"""phase name -> what the rules run when a phase starts or ends (argument: the side)."""


def handles(command: str) -> Callable[[F], F]:
    """Register the function that applies `command`."""

    def decorate(fn: F) -> F:
        HANDLERS[command] = fn
        return fn

    return decorate


def at_phase_start(phase: str) -> Callable[[F], F]:
    """Register an effect run when every `phase` starts (it should be an `effect`)."""

    def decorate(fn: F) -> F:
        PHASE_START.setdefault(phase, []).append(fn)
        return fn

    return decorate


def at_phase_end(phase: str) -> Callable[[F], F]:
    """Register an effect run when every `phase` ends (it should be an `effect`)."""

    def decorate(fn: F) -> F:
        PHASE_END.setdefault(phase, []).append(fn)
        return fn

    return decorate


_ACTIVE: dict[tuple[str, frozenset[str]], tuple[CheckFn, ...]] = {}


def active_checks(command: str, disabled: frozenset[str]) -> tuple[CheckFn, ...]:
    """The checks of `command` in clause order, less those under `disabled` clauses (worked
    out once per command and disabled set: `apply` and `legal_actions` ask all the time)."""
    key = (command, disabled)
    found = _ACTIVE.get(key)
    if found is None:
        found = _ACTIVE[key] = tuple(
            fn for clause, fn in CHECKS.get(command, ()) if clause not in disabled
        )
    return found
