"""Each kind of semantic mutant that survived the suite in issue 14 now fails a rulebook
situation (or a unit test): the mutant, written as a change of one function's source, is
put in force for the test's length, and the situation that shows the rule must then fail.

A mutant here is (module, function, old text, new text): the function's source with the
text replaced is compiled in its module and its code object swapped in (`__code__`), so
every caller runs it; the original comes back after the test.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import tests.asl.test_commissar as commissar_tests
import tests.tables.test_overlays as overlay_tests
from tests.rules82.test_scenarios import SCENARIOS, check_situation


def _plain(obj: Any) -> Any:
    if isinstance(obj, property):
        obj = obj.fget
    while True:
        spec = getattr(obj, "__minors_effect__", None)
        inner = spec.function if spec is not None else getattr(obj, "__wrapped__", None)
        if inner is None:
            return obj
        obj = inner


@contextmanager
def mutant(module: str, function: str, old: str, new: str) -> Iterator[None]:
    """Run `function` of `module` with `old` replaced by `new` in its source."""
    found = importlib.import_module(module)
    owner, _, name = function.rpartition(".")
    holder = getattr(found, owner) if owner else found
    original = _plain(vars(holder)[name])
    source = textwrap.dedent(inspect.getsource(original))
    assert source.count(old) == 1, f"{old!r} is not once in {function}"
    tree = ast.parse(source.replace(old, new))
    tree.body[0].decorator_list = []  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {}
    exec(compile(tree, inspect.getfile(original), "exec"), vars(found), namespace)
    saved = original.__code__
    original.__code__ = namespace[name].__code__
    try:
        yield
    finally:
        original.__code__ = saved


def _situation(name: str) -> Callable[[], Any]:
    path = SCENARIOS / f"{name}.toml"
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return lambda: check_situation(path, expected)


W, C, S, D, L = (
    "minors.rules82.war",
    "minors.rules82.conquest",
    "minors.rules82.survival",
    "minors.rules82.diplomacy",
    "minors.rules82.limits",
)
DEP = "minors.rules82.deployment"

KINDS = [
    # (clause, what the mutant gets wrong, the test that must fail, the mutant)
    ("82.351", "allies of an attacker barred", _situation("w_bar_falls_on_the_attackers_allies"),
     (W, "_bar", "*allies(p, attacker)", "attacker")),
    ("82.35", "another power of the controller's side declares war",
     _situation("w_declaration_by_the_controllers_ally"),
     (W, "_end_own_control", "side_of(p, holding.major) is not side_of(p, attacker)",
      "holding.major != attacker")),
    ("82.82", "a later attacker overwrites who attacked first",
     _situation("s_first_attacker_decides_the_join"),
     (W, "attack", '"attacked_by": attacker if first else state.attacked_by',
      '"attacked_by": attacker')),
    ("82.56", "82.56 supply when the attacker has no units there",
     _situation("w_no_invasion_supply_without_own_units"),
     (W, "_invasion_supply", "if not any(u.owner == attacker for u in here):", "if False:")),
    ("82.42", "reconquest under 82.42", _situation("w_reconquest_by_an_enemy"),
     (C, "_through_its_major", "state.status in _TIED_TO_FIGHT",
      "state.status in (Status.ASSOCIATED, Status.ALLIED)")),
    ("82.11G", "a defended capital", _situation("w_defended_capital_holds"),
     (C, "_capitals_fall", "if defended or len(holders) != 1:", "if len(holders) != 1:")),
    ("K5", "a capital held by air units only", _situation("w_k5_air_units_hold_no_capital"),
     (C, "_holds_the_capital", "u.owner == cmd.by and u.kind in GROUND", "u.owner == cmd.by")),
    ("82.91D", "Thailand when a power other than Japan holds Indochina",
     _situation("s_thailand_waits_for_japan_in_indochina"),
     (S, "_align", " or held.major != row.partner", "")),
    ("82.33", "a same-side downgrade taken for no reversal",
     _situation("w_same_side_downgrade_is_a_reversal"),
     (D, "_reversal", " and new.level >= DiplomaticLevel.CONTROL", "")),
    ("82.322", "the Finns/Swedes exemption deciding an elimination",
     _situation("l_finns_and_swedes_exempt_in_finland"),
     (L, "counts", " or unit.owner in limit.exempt_owners", "")),
    ("82.32C", "Benelux with one of the two controlled",
     _situation("l_benelux_with_one_controlled"),
     (L, "_controller", "map(p.board.minors.__getitem__, group)",
      "map(p.board.minors.__getitem__, group[:1])")),
    ("82.321A", "a tracer exactly at the allowance", _situation("l_limits_at_their_edge"),
     (L, "_supplied_first", "if unit.factors <= allowance:", "if unit.factors < allowance:")),
    ("82.321B", "units inside exactly at the limit", _situation("l_limits_at_their_edge"),
     (L, "_enforce_one", "if total <= limit.factors:", "if total < limit.factors:")),
    ("82.52", "82.52 while Britain is out of the war",
     _situation("d_us_sets_up_while_britain_is_out"),
     (DEP, "deploying_power", "if m not in p.board.surrendered", "if m")),
    ("82.54", "a ship in the capital", _situation("d_a_ship_is_no_ground_unit_in_the_capital"),
     (DEP, "_one_in_the_capital", "pl.hex == capital and pl.kind in GROUND", "pl.hex == capital")),
    ("82.21", "a result of 6 against a pro-Allied standing",
     _situation("w_six_cancels_a_pro_allied_standing"),
     (D, "next_standing", "return current if current.side is kept else None", "return current")),
    ("82.63", "the 82.63 share above 1",
     lambda: overlay_tests.test_a_forces_by_result_share_lies_between_none_and_all(
         Path(tempfile.mkdtemp()), "3/2", False),
     ("minors.ruleset.records", "ResultStep.__attrs_post_init__", "0 <= self.share <= 1",
      "0 <= self.share")),
    ("A25.221", "equal morale in the Commissar's leader-loss check",
     lambda: commissar_tests.test_leader_loss_reaches_higher_morale_leaders_only_for_a_commissar(
         commissar_tests.leader("l8", "8-1"), commissar_tests.leader("m8", "8-0"), True),
     ("minors.asl.commissar", "leader_loss_reaches", "unit.morale <= leader.morale",
      "unit.morale < leader.morale")),
]  # fmt: skip


@pytest.mark.parametrize(
    ("check", "change"),
    [pytest.param(k[2], k[3], id=k[1], marks=pytest.mark.rule(k[0])) for k in KINDS],
)
def test_the_situation_passes_and_fails_under_its_mutant(
    check: Callable[[], Any], change: tuple[str, str, str, str]
) -> None:
    """The test passes as the code stands and fails with the mutant in force."""
    check()
    with mutant(*change), pytest.raises((AssertionError, pytest.fail.Exception)):
        check()
