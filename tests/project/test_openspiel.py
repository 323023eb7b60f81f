"""The OpenSpiel game (`minors.openspiel`): it loads by name, plays to its horizon under
random play and OpenSpiel's MCTS, gives every legal command an action that reads back as
that command, and rolls diplomatic attempts at chance nodes."""

from __future__ import annotations

import importlib
import math
import os
import random
import re
from types import ModuleType
from typing import Any

import pytest

import minors
from minors.errors import MomentError, ParameterError
from tests.paths import DOCS


def _needs(name: str) -> ModuleType:
    """The module, or a skip where OpenSpiel is not installed; CI installs the extra and
    never skips."""
    if os.environ.get("CI") == "true":
        return importlib.import_module(name)
    return pytest.importorskip(name, reason="needs OpenSpiel: pip install -e '.[openspiel]'")


pyspiel = _needs("pyspiel")
np = _needs("numpy")
mcts = _needs("open_spiel.python.algorithms.mcts")
mo = _needs("minors.openspiel")

SHORT = {"horizon": "1939-fall/allies/declarations", "max_actions_per_phase": 3}
"""The Axis player turn and the Allies' first two phases: both sides play, quickly."""


def _game(**params: Any) -> Any:
    return pyspiel.load_game("python_minors_awaw", {**SHORT, **params})


def _attempt(game: Any, minor: str, major: str) -> int:
    """The action of `major`'s diplomatic attempt on `minor`."""
    action: int = game.settings.encoding.encode(minors.DiplomaticResult(minor, major, 0))
    return action


def _play_out(state: Any, rng: random.Random, choose: Any = None) -> Any:
    """Play to the end: chance by its probabilities, players by `choose` (random if None)."""
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(actions, probs)[0]
        elif choose is not None and choose(state) is not None:
            action = choose(state)
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def test_the_game_loads_by_name_with_its_parameters() -> None:
    """`pyspiel.load_game` builds the game: two players, the encoding's actions, the
    results of the scale as chance outcomes, and a game string that loads it again."""
    game = pyspiel.load_game("python_minors_awaw")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == game.settings.encoding.size
    low, high = minors.Game.new().ruleset.scale
    assert game.max_chance_outcomes() == high - low + 1
    assert game.get_parameters() == mo.PARAMETERS
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    weighted = mo.MinorsGame(SHORT, die_weights=range(1, high - low + 2))
    again = pyspiel.load_game(str(weighted))
    assert again.settings.weights == weighted.settings.weights
    assert again.settings.horizon == minors.Moment.parse(SHORT["horizon"])


def test_random_games_end_at_the_horizon_zero_sum() -> None:
    """Random play from several seeds ends at the horizon within the game's length, with
    returns in [-1, 1] that sum to zero."""
    game = _game()
    for seed in range(3):
        state = _play_out(game.new_initial_state(), random.Random(seed))
        axis, allies = state.returns()
        assert axis + allies == 0.0
        assert -1.0 <= axis <= 1.0
        assert state.position.clock == minors.Moment.parse(SHORT["horizon"])
        players = [step.player for step in state.full_history() if step.player >= 0]
        assert len(players) <= game.max_game_length()
        assert set(players) == {0, 1}


def test_openspiel_random_simulation_checks_pass() -> None:
    """OpenSpiel's own checks of a game (sorted unique legal actions, clones, serialisation,
    chance probabilities, returns and lengths) pass."""
    pyspiel.random_sim_test(_game(), num_sims=1, serialize=True, verbose=False)


def test_mcts_plays_the_allies_against_random_axis() -> None:
    """OpenSpiel's MCTSBot with random rollouts plays unchanged: from the Axis construction
    phase to the Allied movement phase, each of its choices is legal and the game ends."""
    start = minors.Game.new()
    start.advance_to("1939-fall/axis/construction")
    game = mo.MinorsGame(
        {"horizon": "1939-fall/allies/movement", "max_actions_per_phase": 2}, start=start
    )
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=8,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(1),
    )
    chosen = []

    def allies(state: Any) -> int | None:
        if state.current_player() != 1:
            return None
        chosen.append(bot.step(state))
        return chosen[-1]

    state = _play_out(game.new_initial_state(), random.Random(2), allies)
    assert chosen
    assert sum(state.returns()) == 0.0


def _positions() -> list[minors.Game]:
    """Positions where, between them, every command kind with actions is legal."""
    found = []
    for moment in (
        "1939-fall/axis/diplomacy",  # diplomatic results, a refusal, surrenders, removals
        "1939-fall/axis/declarations",
        "1939-fall/axis/combat",  # conquests, supply traces
        "1939-fall/allies/diplomacy",  # subversion
        "1939-fall/allies/declarations",  # border wars
    ):
        game = minors.Game.new()
        game.advance_to(moment)
        found.append(game)
    losses = minors.Game.new()  # a Canadian unit in Norway, which Britain's −1 controls
    losses.advance_to("1939-fall/allies/diplomacy")
    losses.apply(minors.command("diplomatic_result", minor="Norway", major="Britain", result=-1))
    losses.advance_to("1939-fall/allies/movement")
    losses.apply(minors.command("move", units=["canada-2"], to="Norway"))
    deploying = minors.Game.new()  # Sweden's set-up due, and Italy out of the war
    deploying.advance_to("1940-spring/axis/declarations")
    deploying.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    deploying.apply(minors.command("surrender", major="Italy"))
    return [*found, losses, deploying]


def test_every_legal_command_has_an_action_that_reads_back() -> None:
    """At each sample position every command `legal_actions` lists encodes, and its action
    reads back as the same command (an attempt with its result); distinct commands have
    distinct actions, and every kind with actions occurs. Only `place`, which
    `legal_actions` does not list, is left out."""
    encoding = mo.Encoding(minors.Game.new())
    assert set(encoding.left_out) == {"place"}
    kinds = set()
    for game in _positions():
        seen: dict[int, minors.Command] = {}
        for cmd in game.legal_actions():
            action = encoding.encode(cmd)
            assert action is not None, cmd
            result = cmd.result if isinstance(cmd, minors.DiplomaticResult) else None
            assert encoding.command(action, game, result) == cmd
            if result is None:
                assert seen.setdefault(action, cmd) == cmd, (cmd, seen[action])
            kinds.add(cmd.name)
            name = "diplomatic attempt" if result is not None else cmd.name
            assert encoding.describe(action).startswith(f"{name} ")
    assert kinds == {block.kind.name for block in encoding.blocks}


def test_an_action_means_the_same_command_in_every_game_of_the_tables() -> None:
    """The encoding is fixed by the tables: built from two positions it is the same."""
    later = _positions()[-1]
    one, two = mo.Encoding(minors.Game.new()), mo.Encoding(later)
    assert one.size == two.size
    assert one.domains == two.domains
    assert [b.start for b in one.blocks] == [b.start for b in two.blocks]


def test_an_attempt_is_a_chance_node_over_the_scale() -> None:
    """A diplomatic attempt leads to a chance node whose outcomes are the results of the
    scale with the illustrative weights summing to 1; an outcome applies that result."""
    game = _game()
    state = game.new_initial_state()
    attempt = _attempt(game, "Sweden", "Germany")
    assert attempt in state.legal_actions()
    state.apply_action(attempt)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    weights = mo.illustrative_weights(len(outcomes))
    assert [p for _, p in outcomes] == pytest.approx([w / sum(weights) for w in weights])
    low = game.settings.low
    state.apply_action(7 - low)  # 7: the Axis gets Sweden's BRPs
    assert state.position.minor("Sweden").major == "Germany"
    assert state.current_player() == 0


def test_die_weights_shape_the_chance_outcomes() -> None:
    """Weights given as a parameter replace the illustrative ones; a result of weight zero
    is no outcome."""
    low, high = minors.Game.new().ruleset.scale
    weights = [1.0 if r == 7 else 0.0 for r in range(low, high + 1)]
    game = mo.MinorsGame(SHORT, die_weights=weights)
    state = game.new_initial_state()
    state.apply_action(_attempt(game, "Sweden", "Germany"))
    assert state.chance_outcomes() == [(7 - low, 1.0)]


def test_the_evaluation_counts_brps_won_for_each_side() -> None:
    """The Axis return is positive after Germany wins Sweden's BRPs and no other change:
    tanh of the Axis margin gained over the BRP scale, the Allies' its negative."""
    game = _game(horizon="1939-fall/axis/declarations")
    state = game.new_initial_state()
    state.apply_action(_attempt(game, "Sweden", "Germany"))
    state.apply_action(7 - game.settings.low)
    state.apply_action(mo.PASS)
    assert state.is_terminal()
    position, axis, allies = state.position, minors.Side.AXIS, minors.Side.ALLIES
    gained = mo.score(position, axis) - mo.score(position, allies) - game.settings.baseline
    assert gained > 10  # Sweden's 10 BRPs and Germany's grant
    assert state.returns() == [math.tanh(gained / 50.0), -math.tanh(gained / 50.0)]


def test_the_pass_ends_the_phase_and_the_cap_forces_it() -> None:
    """After the cap of actions in a phase (a roll is no action) only the pass is legal; the
    pass moves the clock to the next phase, and the player to move is the side of the
    clock's player turn, offered only its own commands."""
    game = _game(max_actions_per_phase=1)
    encoding = game.settings.encoding
    state = game.new_initial_state()
    remove = encoding.encode(minors.Remove(("india-1",)))  # a Commonwealth unit: Allied
    assert state.legal_actions()[0] == mo.PASS
    assert remove not in state.legal_actions()
    state.apply_action(_attempt(game, "Sweden", "Germany"))
    state.apply_action(3 - game.settings.low)  # 3: nothing changes
    assert state.legal_actions() == [mo.PASS]
    for _ in range(6):
        state.apply_action(mo.PASS)
    assert str(state.position.clock) == "1939-fall/allies/diplomacy"
    assert state.current_player() == 1
    assert remove in state.legal_actions()


def test_a_clone_is_independent() -> None:
    """A cloned state changes apart from the original, through `Game.clone`."""
    state = _game().new_initial_state()
    copy = state.clone()
    assert copy.position is not state.position
    assert str(copy) == str(state)
    copy.apply_action(mo.PASS)
    assert str(state.position.clock) == "1939-fall/axis/diplomacy"
    assert str(copy.position.clock) == "1939-fall/axis/declarations"


def test_bad_parameters_are_refused() -> None:
    """Unknown parameters, a cap below one, unreadable die weights, a horizon unreadable or
    past the calendar's last moment are refused with the error that says what to give."""
    for params, error in (
        ({"depth": 3}, ParameterError),
        ({"max_actions_per_phase": 0}, ParameterError),
        ({"die_weights": "1 2 x"}, ParameterError),
        ({"die_weights": "1 2 3"}, ParameterError),
        ({"horizon": "1940"}, MomentError),
        ({"horizon": "9999-winter/allies/construction"}, MomentError),  # past the calendar
    ):
        with pytest.raises(error):
            mo.MinorsGame(params)


def test_the_embedding_guide_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/embedding.md's OpenSpiel example runs and ends with zero-sum returns."""
    text = (DOCS / "embedding.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "pyspiel" in b]
    exec(compile(block, "docs/embedding.md", "exec"), {})
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("returns [")
