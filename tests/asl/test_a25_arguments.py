"""Every public entry point of the A25 modules (`minors.nationality`, `minors.bridge` and
the rest of `minors.asl`) meets arguments of any type with the library's own errors
(issue 14, item 11): Hypothesis draws each argument either good or arbitrary, so that
every argument is tried wrong on its own and together with others."""

from __future__ import annotations

import contextlib
import datetime
import enum
import inspect
import tempfile
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minors
from minors import MinorsError, load_ruleset
from minors.asl import (
    bridge,
    cascade,
    commissar,
    dyo,
    hexgrid,
    humanwave,
    nationality,
    personnel,
    traits,
)
from minors.domain import Side
from minors.domain.a25 import TraitKind, UnitClass
from tests.tools import nationality_doc

RS = load_ruleset()
GAME = minors.Game.new()
INDEX = cascade.index_of(RS)
FOUND = nationality.profile("Finnish", "1944-08", ruleset=RS)
ROW = INDEX.rows["Finnish"][(TraitKind.SELF_RALLY, "")][0]
LEADER = commissar.Personnel("r1", personnel.PersonnelKind.LEADER, "8-1", 8)
SQUAD = commissar.Personnel("r2", personnel.PersonnelKind.SQUAD, "4-2-6", 6, broken=True)
CANDIDATE = humanwave.HWCandidate("a", personnel.PersonnelKind.SQUAD, "O1", los_to_target=True)
GRAIN = hexgrid.HexGrain("O3", 4, 5)
HEX = hexgrid.Hex.parse("P2")
MOVE = humanwave.HWMove(humanwave.HWMoveKind.FORWARD, "O3")
STATE = humanwave.HWUnitState("P2")
FACTS = humanwave.ImpulseFacts(cost={"O3": 1, "P3": 2}, enemy=["O3"], known_enemy=["O3"])
PURCHASE = dyo.Purchase("MMG", "allies", "Free French")

GOOD: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "nationality.country_nationality": (
        nationality.country_nationality,
        {"country": "Rumania", "side": "axis", "conquered": True, "ruleset": RS},
    ),
    "nationality.resolve": (nationality.resolve, {"name": "Rumania", "ruleset": RS}),
    "nationality.lineage": (nationality.lineage, {"nationality": "SS", "ruleset": RS}),
    "nationality.profile": (
        nationality.profile,
        {
            "nationality": "Romanian",
            "date": "1944-06",
            "unit_class": "elite",
            "unit": "squad",
            "vs": "Hungarian",
            "home": True,
            "ssr": ["home_morale"],
            "scenario_kind": "hypothetical",
            "ruleset": RS,
            "window": False,
        },
    ),
    "nationality.thresholds": (
        nationality.thresholds,
        {
            "nationality": "Finnish",
            "unit_class": "first_line",
            "unit": "squad",
            "vs": "Russian",
            "home": True,
            "ssr": "ammunition_override",
            "scenario_kind": "historical",
            "ruleset": RS,
            "window": True,
        },
    ),
    "bridge.month_of": (bridge.month_of, {"moment": GAME.clock}),
    "bridge.troops": (
        bridge.troops,
        {
            "game": GAME,
            "country": "Britain",
            "in_country": "Britain",
            "unit_id": None,
            "vs": "Germany",
            "unit_class": "elite",
            "unit": "squad",
            "ssr": ["assault_fire"],
            "scenario_kind": "historical",
        },
    ),
    "cascade.index_of": (cascade.index_of, {"rs": RS}),
    "cascade.resolve_rows": (
        cascade.resolve_rows,
        {
            "index": INDEX,
            "nationality": "Finnish",
            "ctx": FOUND.context,
            "cls": UnitClass.ELITE,
            "closed": False,
        },
    ),
    "cascade.trait": (cascade.trait, {"r": ROW, "cls": UnitClass.GREEN, "node": "Finnish"}),
    "cascade.project": (cascade.project, {"rows": [ROW]}),
    "cascade.merge": (cascade.merge, {"projections": [FOUND.projection]}),
    "dyo.Purchase": (dyo.Purchase, {"item": "MMG", "side": "axis", "nationality": "Vichy"}),
    "dyo.check_purchases": (dyo.check_purchases, {"purchases": [PURCHASE]}),
    "dyo.french_force": (dyo.french_force, {"nationality": "Free French"}),
    "commissar.Personnel": (
        commissar.Personnel,
        {
            "id": "r3",
            "kind": personnel.PersonnelKind.LEADER,
            "rating": "9-0",
            "morale": 9,
            "side": Side.AXIS,
            "broken": True,
            "berserk": False,
            "is_commissar": True,
            "mounted": False,
        },
    ),
    "commissar.Substitution": (commissar.Substitution, {"leader": "r1", "commissar": "10-0"}),
    "commissar.check_substitution": (
        commissar.check_substitution,
        {
            "scenario_date": datetime.date(1942, 6, 1),
            "order_of_battle": [LEADER, SQUAD],
            "substitutions": [commissar.Substitution("r1", "10-0")],
        },
    ),
    "commissar.substitute": (
        commissar.substitute,
        {
            "scenario_date": datetime.date(1942, 6, 1),
            "order_of_battle": [LEADER, SQUAD, LEADER.__class__("r4", LEADER.kind, "8-0", 8)],
            "substitutions": [commissar.Substitution("r1", "10-0")],
        },
    ),
    "commissar.mc_order": (commissar.mc_order, {"location": [LEADER, SQUAD]}),
    "commissar.leader_loss_reaches": (
        commissar.leader_loss_reaches,
        {"leader": LEADER, "unit": SQUAD},
    ),
    "commissar.leadership_applies": (commissar.leadership_applies, {"unit": LEADER}),
    "commissar.morale_with_commissar": (
        commissar.morale_with_commissar,
        {"unit": SQUAD, "location": [LEADER, SQUAD]},
    ),
    "commissar.rally_terms": (commissar.rally_terms, {"unit": SQUAD, "location": [SQUAD]}),
    "commissar.rally_outcome": (
        commissar.rally_outcome,
        {
            "unit": SQUAD,
            "commissar_present": True,
            "rally_roll_passed": False,
            "replacements": {"4-2-6": "2-2-6"},
        },
    ),
    "commissar.berserk_spread": (commissar.berserk_spread, {"location": [LEADER, SQUAD]}),
    "hexgrid.Hex": (hexgrid.Hex, {"column": 15, "row": 3}),
    "hexgrid.Hex.parse": (hexgrid.Hex.parse, {"text": "GG10"}),
    "hexgrid.Hex.from_doubled": (hexgrid.Hex.from_doubled, {"column": 15, "y": 6}),
    "hexgrid.Hex.neighbour": (HEX.neighbour, {"side": hexgrid.Hexside.S}),
    "hexgrid.Hex.side_towards": (HEX.side_towards, {"other": hexgrid.Hex.parse("P3")}),
    "hexgrid.Hexside.turned": (hexgrid.Hexside.S.turned, {"steps": -1}),
    "hexgrid.Hexside.is_beside": (hexgrid.Hexside.S.is_beside, {"other": hexgrid.Hexside.SW}),
    "hexgrid.HexGrain": (hexgrid.HexGrain, {"target": "O3", "direction": 4, "alternate": 5}),
    "hexgrid.HexGrain.from_hexes": (
        hexgrid.HexGrain.from_hexes,
        {"hexes": ["P1", "P2", "O3", "O4"], "target": "O3"},
    ),
    "hexgrid.HexGrain.hex_at": (GRAIN.hex_at, {"k": -2}),
    "hexgrid.HexGrain.hexes": (GRAIN.hexes, {"start": -3, "stop": 2}),
    "hexgrid.HexGrain.range_from": (GRAIN.range_from, {"hex_": HEX}),
    "hexgrid.HexGrain.approaches_target": (GRAIN.approaches_target, {"hex_": HEX}),
    "hexgrid.distance": (hexgrid.distance, {"a": HEX, "b": hexgrid.Hex.parse("O3")}),
    "hexgrid.grains_through": (hexgrid.grains_through, {"target": HEX}),
    "humanwave.HWCandidate": (
        humanwave.HWCandidate,
        {
            "id": "b",
            "kind": personnel.PersonnelKind.LEADER,
            "hex": "P1",
            "good_order": True,
            "free_to_move": True,
            "started_mph": False,
            "guard": False,
            "prc": False,
            "near_enemy": False,
            "los_to_target": True,
        },
    ),
    "humanwave.HWMove": (humanwave.HWMove, {"kind": humanwave.HWMoveKind.FORWARD, "hex": "O3"}),
    "humanwave.HWUnitState": (
        humanwave.HWUnitState,
        {"hex": "P2", "left": frozenset({HEX}), "range_marked": True},
    ),
    "humanwave.ImpulseFacts": (
        humanwave.ImpulseFacts,
        {
            "mf_left": 4.5,
            "cost": {"O3": 1},
            "enemy": ["O3"],
            "known_enemy": ["O3"],
            "armed_known_enemy": ["O3"],
            "friendly_armed": [],
            "lone_enemy_smc": [],
            "in_hex": [humanwave.HWMoveKind.BELOW_ENTRENCHMENT_OR_CREST],
        },
    ),
    "humanwave.UnitCondition": (
        humanwave.UnitCondition,
        {
            "eliminated": False,
            "broken": False,
            "guard": False,
            "mf_left": 2,
            "armed_known_enemy_here": True,
            "going_below_enemy_entrenchment": False,
        },
    ),
    "humanwave.check_declaration": (
        humanwave.check_declaration,
        {"units": [CANDIDATE], "target": "O3", "wave": humanwave.WaveKind.BANZAI},
    ),
    "humanwave.hw_directions": (humanwave.hw_directions, {"target": "O3", "units": [CANDIDATE]}),
    "humanwave.check_direction": (
        humanwave.check_direction,
        {"grain": GRAIN, "units": [CANDIDATE]},
    ),
    "humanwave.forward_hexes": (humanwave.forward_hexes, {"hex_": "P2", "grain": GRAIN}),
    "humanwave.side_hexes": (humanwave.side_hexes, {"hex_": "P2", "grain": GRAIN}),
    "humanwave.legal_moves": (
        humanwave.legal_moves,
        {"state": STATE, "grain": GRAIN, "facts": FACTS},
    ),
    "humanwave.after_move": (humanwave.after_move, {"state": STATE, "move": MOVE, "grain": GRAIN}),
    "humanwave.entry_effects": (humanwave.entry_effects, {"move": MOVE, "facts": FACTS}),
    "humanwave.stops_being_hw_unit": (
        humanwave.stops_being_hw_unit,
        {"condition": humanwave.UnitCondition(), "at": humanwave.ImpulseEdge.START},
    ),
    "humanwave.human_wave_ends": (humanwave.human_wave_ends, {"options": {"a": [MOVE]}}),
    "personnel.check_rating": (
        personnel.check_rating,
        {"kind": personnel.PersonnelKind.SQUAD, "rating": "4-2-6"},
    ),
    "nationality_doc.markdown": (nationality_doc.markdown, {"rs": RS}),
    "nationality_doc.replace_generated": (
        nationality_doc.replace_generated,
        {"document": f"a\n{nationality_doc.BEGIN}\nx\n{nationality_doc.END}\n", "generated": "y"},
    ),
    "nationality_doc.generated_part": (
        nationality_doc.generated_part,
        {"document": f"{nationality_doc.BEGIN}\nx\n{nationality_doc.END}"},
    ),
    "nationality_doc.main": (nationality_doc.main, {"argv": ["--nothing"]}),
}
"""Each entry point with a good value for every argument."""

MODULES: tuple[ModuleType, ...] = (
    nationality,
    bridge,
    cascade,
    commissar,
    dyo,
    hexgrid,
    humanwave,
    nationality_doc,
    personnel,
)
RESULTS = {
    "nationality.CountryMapping",
    "nationality.Profile",
    "nationality.Projection",
    "nationality.QueryContext",
    "nationality.QueryUnit",
    "nationality.Trait",
    "nationality.TraitCondition",
    "bridge.Troops",
    "cascade.Index",
    "cascade.Row",
    "commissar.RallyResult",
    "commissar.RallyTerms",
}
"""Records the library builds and hands out: answers, not entry points."""
INPUT_RECORDS = (hexgrid.Hex, hexgrid.HexGrain, hexgrid.Hexside)
"""Records a caller builds, whose public methods are entry points too."""


def _public_callables() -> Iterator[str]:
    for module in MODULES:
        short = module.__name__.rsplit(".", 1)[-1]
        for name in module.__all__:
            value = getattr(module, name)
            if not callable(value) or f"{short}.{name}" in RESULTS:
                continue
            if isinstance(value, type) and issubclass(value, (enum.Enum, Exception)):
                continue
            if getattr(value, "__module__", module.__name__) != module.__name__:
                continue  # a re-export: tested where it is defined
            yield f"{short}.{name}"
    for record in INPUT_RECORDS:
        short = record.__module__.rsplit(".", 1)[-1]
        for name, member in vars(record).items():
            function = getattr(member, "__func__", member)
            if name.startswith("_") or not inspect.isfunction(function):
                continue
            if len(inspect.signature(function).parameters) > 1:
                yield f"{short}.{record.__name__}.{name}"


def test_every_entry_point_is_tried() -> None:
    """The Hypothesis run covers every public function and input record of the modules."""
    assert set(_public_callables()) - {*GOOD, "hexgrid.Hexside"} == set()
    assert set(GOOD) - set(_public_callables()) == set()


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_arguments_are_answered(name: str) -> None:
    """The good arguments of each entry point are answered without an error: the
    arbitrary values below are tried against a call that works."""
    function, good = GOOD[name]
    with _elsewhere():
        function(**good)


def _junk(depth: int = 2) -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**12), 10**12),
        st.floats(allow_nan=True),
        st.text(max_size=12),
        st.binary(max_size=4),
        st.sampled_from(["O3", "German", "1944-06", "squad", "elite", "axis", "4-2-6", "9-0"]),
        st.builds(object),
        st.just(datetime.date(1941, 1, 1)),
        st.just(HEX),
        st.just(LEADER),
    )
    if depth == 0:
        return leaves
    inner = _junk(depth - 1)
    return st.one_of(
        leaves,
        st.lists(inner, max_size=3),
        st.tuples(inner, inner),
        st.frozensets(st.one_of(st.integers(), st.text(max_size=3)), max_size=3),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), inner, max_size=2),
    )


JUNK = _junk()


def _arguments(function: Callable[..., Any], good: dict[str, Any]) -> st.SearchStrategy[Any]:
    required, optional = {}, {}
    for name, parameter in inspect.signature(function).parameters.items():
        either = st.one_of(st.just(good[name]), JUNK)
        if parameter.default is inspect.Parameter.empty:
            required[name] = either
        else:
            optional[name] = either
    return st.fixed_dictionaries(required, optional=optional)


@contextlib.contextmanager
def _elsewhere() -> Iterator[None]:
    """Run in an empty folder: nothing an entry point writes lands in the project."""
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        yield


@pytest.mark.parametrize("name", sorted(GOOD))
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_arbitrary_arguments_raise_the_librarys_errors(name: str, data: st.DataObject) -> None:
    """Any value of any type in any argument is answered, or refused with a
    `MinorsError` (the module's malformed-input error for a wrong type), never with an
    `AttributeError`, `TypeError`, `KeyError` or the like."""
    function, good = GOOD[name]
    arguments = data.draw(_arguments(function, good))
    with _elsewhere(), contextlib.suppress(MinorsError):
        function(**arguments)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: nationality.profile(None, "1944-06"), nationality.ProfileError, "nationality"),
        (lambda: nationality.profile("German", "1944-06", vs=5), nationality.ProfileError, "vs"),
        (lambda: nationality.profile("German", "1944-06", ssr=5), nationality.ProfileError, "ssr"),
        (
            lambda: nationality.profile("German", "1944-06", ssr=[5]),
            nationality.ProfileError,
            "ssr[0]",
        ),
        (lambda: bridge.troops(None, "Hungary"), nationality.ProfileError, "game"),
        (lambda: commissar.mc_order([5]), commissar.CommissarError, "location[0]"),
        (lambda: hexgrid.distance("O3", 5), hexgrid.HexError, "a must be Hex"),
        (lambda: humanwave.ImpulseFacts(cost=5), humanwave.HumanWaveError, "cost"),
        (lambda: dyo.Purchase("MMG", "neutral", "Free French"), dyo.DyoError, "side"),
    ],
)
def test_a_wrong_type_names_the_argument(
    call: Callable[[], Any], error: type[MinorsError], message: str
) -> None:
    """The error names the function, the argument and what it must be."""
    with pytest.raises(error, match=r"must be") as info:
        call()
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_traits_module_reexports_nothing_to_try() -> None:
    """`minors.asl.traits` holds only the answers (Profile, Trait ...)."""
    assert {f"nationality.{n}" for n in traits.__all__} <= RESULTS
