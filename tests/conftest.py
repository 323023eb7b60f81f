"""Project test configuration: every `rule` marker must name a clause of the registry; the
Hypothesis profile (`MINORS_PROFILE`, default `minors-ci`); clauses switched off for the
mutation run (`MINORS_DISABLE`, tests/mutation/run_disabled.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

import minors
import minors.testing  # registers the minors-ci and minors-thorough profiles
from minors import Game, load_ruleset
from minors.rules82 import KERNEL_RULES
from minors.ruleset.tables import normalize_clause

pytest_plugins = ["pytester"]
collect_ignore = ["mutation"]

settings.load_profile(os.environ.get("MINORS_PROFILE", "minors-ci"))


@pytest.fixture(scope="session", autouse=True)
def _disabled_by_environment() -> Iterator[None]:
    """With `MINORS_DISABLE=82.34` (comma-separated ids), every game is built with those
    clauses switched off, as `Game.new(disabled=...)` does: the mutation run's lever.

    Session-wide, so that games made by module fixtures lose the clause too; and
    `Game.__init__` is patched rather than `Game.new`, so that games rebuilt by
    `from_state` and by a log's replay from a snapshot lose it as well.
    """
    clauses = frozenset(c for c in os.environ.get("MINORS_DISABLE", "").split(",") if c)
    with pytest.MonkeyPatch.context() as patch:
        if clauses:
            original = Game.__init__

            def init(
                self: Game, *args: Any, disabled: frozenset[str] = frozenset(), **kw: Any
            ) -> None:
                original(self, *args, disabled=disabled | clauses, **kw)

            patch.setattr(Game, "__init__", init)
            start = minors.game.start_state  # the start's own effects (82.92 ...) too

            def start_state(rs: Any, name: str, disabled: frozenset[str] = frozenset()) -> Any:
                return start(rs, name, disabled | clauses)

            patch.setattr(minors.game, "start_state", start_state)
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Fail the run when a `rule` marker cites a clause the registry does not hold (or a
    kernel rule id, K1 ..., for rules that are not clauses of rule 82 or A25)."""
    clauses = {*load_ruleset().clauses, *KERNEL_RULES}
    bad = []
    for item in items:
        for marker in item.iter_markers("rule"):
            for clause in marker.args:
                if normalize_clause(str(clause)) not in clauses:
                    bad.append(
                        f"{item.nodeid}: rule({clause!r}) is not in tables/clauses.toml"
                        " nor a kernel rule id"
                    )
    if bad:
        raise pytest.UsageError("unknown clause in a rule marker:\n" + "\n".join(bad))
