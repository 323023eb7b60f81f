"""Rule 82 of *A World at War* as a rulebook: `RULEBOOK`, the default of every game.

Its rules are the marked functions of the rule modules, collected in the order below (phase
hooks and start effects run in that order: at the start of a diplomacy phase associations
before the Commonwealth's arrivals, at the end of combat conquest before the limits). Its
clause table is the registry `tables/clauses.toml` (rule 82 and A25) and the ids of the
rules that are not clauses of rule 82, K1 ... K7 (docs/rules.md).

Rule 82 defers some rules to rules it does not give; each is a named rule of the rulebook
that a variant replaces (`RULEBOOK.extend(name, replace={"subversion": fn})`): `HOOKS` lists
them.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Mapping

from .._kernel.rulebook import Rulebook, RulebookError
from ..domain import ClauseKind
from ..ruleset.loader import builtin_clauses
from ..ruleset.records import Clause
from . import conquest, deployment, diplomacy, limits, movement, survival, ties, war

__all__ = ["HOOKS", "KERNEL_RULES", "RULEBOOK", "VARIANTS", "find_rulebook", "load"]


_KERNEL = {
    "K1": "Sequence of play: a command only in the phase and player turn that allow it",
    "K2": "War between major powers: no second declaration, no acts by a surrendered power",
    "K3": "Units: ids are unique, a moved or removed unit exists, placement in a known country",
    "K4": "Dice: a diplomatic result given with its roll and modifiers must be their sum",
    "K5": "Conquest conditions: the conqueror's ground units hold the capital or key hexes",
    "K6": "Costs: declaring war costs BRPs (10 on a minor, 35 on a major power)",
    "K7": "Status: a command needs a minor in a status it can act on",
}
KERNEL_RULES: Mapping[str, Clause] = {
    cid: Clause(id=cid, title=title, kind=ClauseKind.RULE, source="kernel")
    for cid, title in _KERNEL.items()
}
"""Rules that are not clauses of rule 82 (sequence of play, costs, conquest conditions
from public material): ids of rule 82's rulebook, documented in docs/rules.md."""

RULEBOOK = Rulebook(
    "rule82",
    ties,
    war,
    survival,
    diplomacy,
    deployment,
    conquest,
    limits,
    movement,
    clauses=(*builtin_clauses().values(), *KERNEL_RULES.values()),
    sequence="K1",
)
"""Rule 82 of A World at War: the rulebook of `Game.new()`."""

VARIANTS = {
    "rule82": "minors.rules82:RULEBOOK",
    "winter-truce": "minors.examples.winter_truce:RULEBOOK",
}
"""The rulebooks that ship with minors, by name (as python-chess finds its variants)."""


def find_rulebook(name: str) -> Rulebook:
    """A rulebook that ships with minors by its name (`VARIANTS`), or any rulebook by
    `module:attribute`.

    Raises:
        RulebookError: no such rulebook (the names are listed), or it cannot be loaded.
    """
    if name in VARIANTS:
        return load(VARIANTS[name])
    if ":" in name:
        return load(name)
    raise RulebookError(
        name,
        [f"no rulebook {name!r}: name one of {', '.join(VARIANTS)}, or give module:attribute"],
    )


HOOKS = ("subversion", "vichy", "vichy_colony", "limit_exempt")
"""The named rules of rule 82 that stand for rules it does not give."""


def load(spec: str) -> Rulebook:
    """The rulebook `module:attribute` names (the CLI's `--rulebook`): imported from the
    caller's word, never from a log's.

    Raises:
        RulebookError: the spec is malformed, the module cannot be imported, or the
            attribute is missing or not a `Rulebook`.
    """
    module_name, colon, attribute = spec.partition(":")
    where = f"--rulebook {spec!r}"
    if not colon or not module_name or not attribute:
        raise RulebookError(
            spec, [f"{where}: write module:attribute, like minors.examples.winter_truce:RULEBOOK"]
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a user's module may fail in any way: report it, no traceback
        raise RulebookError(
            spec, [f"{where}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"]
        ) from None
    found = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            names = [n for n in dir(found) if isinstance(getattr(found, n, None), Rulebook)]
            raise RulebookError(
                spec,
                [f"{where}: {module_name} has no {attribute!r}{_closest(part, names)}"],
            )
        found = getattr(found, part)
    if not isinstance(found, Rulebook):
        raise RulebookError(
            spec, [f"{where}: {attribute} is a {type(found).__name__}, not a Rulebook"]
        )
    return found


def _closest(word: str, options: list[str]) -> str:
    close = difflib.get_close_matches(word, options, n=3)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
