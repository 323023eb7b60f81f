"""The winter truce, an example house rule as code: rule 82's rulebook extended with H1's
one check and clause table, `winter_truce.toml` (war on a major power and Russia's border
wars, which are no declarations, are unchanged)."""

from __future__ import annotations

import sys
from importlib.resources import files

from .._kernel.rulebook import Play, Refusal, check, refuse
from ..domain import Season
from ..rules82 import RULEBOOK as RULE_82
from ..rules82.war import DeclareWar
from ..ruleset.loader import clause_table

__all__ = ["CLAUSES", "RULEBOOK", "no_war_on_minors_in_winter"]


@check(DeclareWar, "H1")
def no_war_on_minors_in_winter(play: Play, cmd: DeclareWar) -> list[Refusal]:
    """H1: no declaration of war on a minor country in a winter turn."""
    clock = play.board.clock
    if cmd.target not in play.rs.minors or clock.season is not Season.WINTER:
        return []
    message = (
        f"winter truce: no declaration of war on {cmd.target} in {clock}; declare it from the "
        "spring"
    )
    return [refuse(message, target=cmd.target)]


CLAUSES = clause_table(
    "minors/examples/winter_truce.toml", (files(__package__) / "winter_truce.toml").read_bytes()
)
"""H1 and its title."""

RULEBOOK = RULE_82.extend("winter-truce", sys.modules[__name__], clauses=CLAUSES.values())
"""Rule 82 with the winter truce."""
