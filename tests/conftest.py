"""Project test configuration: every `rule` marker must name a clause of the registry."""

from __future__ import annotations

import pytest

from minors import load_ruleset
from minors.registry import KERNEL_RULES
from minors.ruleset import normalize_clause

pytest_plugins = ["pytester"]


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
