"""The engine core (docs/embedding.md): push / pop at any depth, the position key, games
without a log, and `legal_actions` by batches against the brute-force reference."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minors
import minors.auditlog
from minors.examples.winter_truce import RULEBOOK as WINTER_TRUCE
from minors.testing import stale_caches, unbatched_legal_actions

MOMENTS = [
    "1939-fall/axis/diplomacy",
    "1940-spring/axis/declarations",
    "1940-spring/axis/movement",
    "1940-summer/axis/combat",
    "1940-fall/allies/redeployment",
]


def random_play(game: minors.Game, rng: random.Random, steps: int) -> Iterator[None]:
    """`steps` random steps with push (a legal action) or advance (to the next phase)."""
    for _ in range(steps):
        actions = game.legal_actions() if rng.random() < 0.6 else []
        if actions:
            game.push(rng.choice(actions))
        else:
            game.advance_to(game.clock.next())
        yield


def position(game: minors.Game) -> str:
    """What the key stands for, as canonical text: the state without the ledger's history
    (its entries' numbers and order) but with each major's BRP total, and the eliminated
    units as a set."""
    data = game.state()
    data.pop("ledger")
    data["eliminated"] = sorted(data["eliminated"])
    data["totals"] = {m: game.brps(m) for m in game.ruleset.majors if game.brps(m)}
    return json.dumps(data, sort_keys=True)


# ---- push and pop ---------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 30))
def test_pop_restores_state_key_and_log_at_any_depth(seed: int, steps: int) -> None:
    game = minors.Game.new()
    seen = []
    for _ in random_play(game, random.Random(seed), steps):
        seen.append((game.state(), game.key(), list(game.log), game.clock))
    for state, key, log, clock in reversed(seen):
        assert (game.state(), game.key(), list(game.log), game.clock) == (state, key, log, clock)
        game.pop()
    assert game.depth == 0
    assert game.state() == minors.Game.new().state()
    assert stale_caches(game) == []


def test_pop_with_nothing_to_undo_or_a_file_log_is_refused(tmp_path: Any) -> None:
    game = minors.Game.new()
    with pytest.raises(minors.StateError, match="nothing to undo"):
        game.pop()
    game.advance_to(game.clock.next())
    sink = minors.auditlog.open(game, tmp_path / "g.jsonl")
    try:
        game.advance_to(game.clock.next())
        with pytest.raises(minors.StateError, match="file log is attached"):
            game.pop()
    finally:
        sink.close(game)
    assert str(game.clock) != "1939-fall/axis/diplomacy"


def test_a_clone_pops_back_to_where_it_was_made() -> None:
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    clone = game.clone()
    clone.push(minors.command("declare_war", attacker="Germany", target="Sweden"))
    clone.pop()
    assert clone.state() == game.state()
    assert clone.depth == 0
    assert game.depth == 1  # the original keeps its own history


def test_a_cleared_stack_pops_back_to_where_it_was_cleared() -> None:
    """`clear_stack` keeps the game, its key and its log as they are; `pop` undoes only the
    steps made after it, then says there is nothing to undo."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    before = (game.state(), game.key(), list(game.log))
    game.clear_stack()
    assert game.depth == 0
    assert (game.state(), game.key(), list(game.log)) == before
    game.push(minors.command("declare_war", attacker="Germany", target="Sweden"))
    assert game.depth == 1
    game.pop()
    assert (game.state(), game.key(), list(game.log)) == before
    with pytest.raises(minors.StateError, match="nothing to undo"):
        game.pop()


def test_push_unchecked_does_what_push_does() -> None:
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    other = game.clone()
    for cmd in game.legal_actions(kinds=["declare_war"])[:5]:
        assert game.push_unchecked(cmd) == other.push(cmd)
        assert game.state() == other.state()
        assert game.key() == other.key()
        game.pop()
        other.pop()


def test_a_game_without_a_log_plays_and_undoes_the_same() -> None:
    logged, bare = minors.Game.new(), minors.Game.new(log=False)
    rng_a, rng_b = random.Random(7), random.Random(7)
    for _ in zip(random_play(logged, rng_a, 25), random_play(bare, rng_b, 25), strict=True):
        assert bare.key() == logged.key()
        assert bare.brps("Germany") == logged.brps("Germany")
    assert len(bare.log) == 0
    assert len(logged.log) == 25
    assert bare.to_json() == logged.to_json()
    bare.pop()
    logged.pop()
    assert bare.state() == logged.state()


@pytest.mark.rule("82.22")
def test_brps_are_the_sum_of_the_ledger_however_long() -> None:
    game = minors.Game.new()
    for _ in random_play(game, random.Random(3), 60):
        for major in game.ruleset.majors:
            assert game.brps(major) == sum(
                e.amount for e in game.raw_state.ledger if e.major == major
            )


# ---- the position key ------------------------------------------------------------------


def test_two_orders_reaching_one_position_have_one_key() -> None:
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    declarations = [c for c in game.legal_actions(kinds=["declare_war"]) if c.attacker == "Germany"]
    pairs = 0
    for a, b in itertools.pairwise(declarations):
        one, two = game.clone(), game.clone()
        try:
            one.push(a), one.push(b), two.push(b), two.push(a)
        except minors.RuleViolation:
            continue  # the first closed the way for the second
        if position(one) == position(two):
            pairs += 1
            assert one.key() == two.key()
            assert list(one.log) != list(two.log)  # a different history
    assert pairs >= 5


def test_different_positions_have_different_keys() -> None:
    keys: dict[int, str] = {}
    for seed in range(6):
        game = minors.Game.new()
        for _ in random_play(game, random.Random(seed), 40):
            text = position(game)
            assert keys.setdefault(game.key(), text) == text
    assert len(set(keys.values())) == len(keys) > 150


def test_the_key_is_the_same_in_every_process() -> None:
    script = (
        "import random, minors\n"
        "g = minors.Game.new()\n"
        "rng = random.Random(5)\n"
        "for _ in range(30):\n"
        "    a = g.legal_actions()\n"
        "    g.push(rng.choice(a)) if a and rng.random() < .6 else g.advance_to(g.clock.next())\n"
        "print(g.key())\n"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "4242")
    }
    assert len(keys) == 1
    assert int(keys.pop()) > 0


# ---- legal_actions against the brute-force reference -----------------------------------


SETTINGS = [
    pytest.param({}, id="rule82"),
    pytest.param({"disabled": {"82.41"}}, id="82.41-off"),
    pytest.param({"disabled": {"K1", "82.13A"}}, id="K1-82.13A-off"),
    pytest.param({"disabled": {"K7", "82.83A"}}, id="K7-82.83A-off"),
    pytest.param({"rulebook": WINTER_TRUCE}, id="winter-truce"),
]


@pytest.mark.parametrize("options", SETTINGS)
def test_generated_legal_actions_equal_the_brute_force(options: dict[str, Any]) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        game = minors.Game.new(**options)
        for moment in MOMENTS:
            if game.clock < minors.Moment.parse(moment):
                game.advance_to(moment)
            for _ in random_play(game, rng, 3):
                assert game.legal_actions() == unbatched_legal_actions(game)


def enumerated(game: minors.Game) -> dict[str, list[minors.Command]]:
    """Every command of each kind whose fields range over small sets (the major powers,
    the countries, the units on the map, the diplomatic scale), built here without any
    generator, kept if `check` accepts it: a reference no pruning of a generator can hide
    a command from."""
    rs = game.ruleset
    majors, minors_ = tuple(rs.majors), tuple(rs.minors)
    units = sorted(game.raw_state.units)
    low, high = rs.scale
    universe: dict[str, list[minors.Command]] = {
        "declare_war": [minors.DeclareWar(a, t) for a in majors for t in (*majors, *minors_)],
        "border_war": [minors.BorderWar(a, t) for a in majors for t in minors_],
        "subvert": [minors.Subvert(a, t) for a in majors for t in minors_],
        "conquer": [minors.Conquer(t, a) for a in majors for t in minors_],
        "refuse_association": [minors.RefuseAssociation(a, t) for a in majors for t in minors_],
        "surrender": [minors.Surrender(a) for a in majors],
        "reenter_war": [minors.ReenterWar(a) for a in majors],
        "diplomatic_result": [
            minors.DiplomaticResult(t, a, r)
            for a in majors
            for t in minors_
            for r in range(low, high + 1)
        ],
        "move": [minors.Move((u,), c) for u in units for c in (*minors_, *majors)],
    }
    return {kind: [cmd for cmd in cmds if not game.check(cmd)] for kind, cmds in universe.items()}


@pytest.mark.parametrize("options", SETTINGS)
def test_legal_actions_list_every_command_check_accepts(options: dict[str, Any]) -> None:
    """Over random play, `legal_actions` of each kind lists exactly the commands of an
    enumeration that `check` accepts (moves of units to where they stand, which change
    nothing, left aside)."""
    rng = random.Random(7)
    game = minors.Game.new(**options)
    for moment in MOMENTS:
        if game.clock < minors.Moment.parse(moment):
            game.advance_to(moment)
        for _ in random_play(game, rng, 2):
            for kind, accepted in enumerated(game).items():
                listed = set(game.legal_actions([kind]))
                if kind == "move":
                    accepted = [c for c in accepted if game.unit(c.units[0]).country != c.to]
                assert listed == set(accepted), (kind, game.clock, set(accepted) ^ listed)


@pytest.mark.parametrize("moment", ["1939-fall/allies/movement", "1940-summer/allies/combat"])
def test_what_generation_keeps_per_political_state_follows_push_pop_and_clones(
    moment: str,
) -> None:
    """Through moves, pops and clones in one phase (the generators keep each owner's moves,
    the minors in play and under a limit while the minors and wars stand), the generated
    actions stay equal to the brute force."""
    game = minors.Game.new()
    game.advance_to(moment)
    rng = random.Random(5)
    for _ in range(12):
        actions = game.legal_actions()
        assert actions == unbatched_legal_actions(game)
        game.push(rng.choice(actions))
        if rng.random() < 0.3:
            game.pop()
            assert game.legal_actions() == unbatched_legal_actions(game)
        if rng.random() < 0.2:
            game = game.clone()


@pytest.mark.rule("82.83C")
def test_a_unit_abroad_whose_minor_has_no_major_may_go_home() -> None:
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/movement")
    data = game.state()
    unit = data["units"]["thailand-1"]
    unit["country"], unit["hex"] = "French Indochina", None
    moved = minors.Game.from_state(data)
    home = minors.command("move", units=["thailand-1"], to="Thailand")
    assert moved.check(home) == []
    listed = moved.legal_actions(kinds=["move"])
    assert home in listed
    assert not [c for c in listed if "thailand-1" in c.units and c.to != "Thailand"]


# ---- the board's layout ---------------------------------------------------------------


def test_a_clone_and_its_original_change_their_own_rows() -> None:
    """Rows written in place are copied first by a board that shares them: a clone and the
    original that declare different wars on one minor, then pop, never see each other's."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.push(minors.command("declare_war", attacker="Germany", target="Sweden"))
    clone = game.clone()
    before = clone.state()
    game.pop()  # undoes Germany's war on the original's copy of Sweden's row
    assert clone.state() == before
    assert clone.minor("Sweden").at_war_with == ("Germany",)
    assert game.minor("Sweden").at_war_with == ()
    clone.advance_to("1940-spring/allies/declarations")
    clone.push(minors.command("declare_war", attacker="Britain", target="Norway"))
    assert game.minor("Norway").at_war_with == ()
    assert stale_caches(game) == []
    assert stale_caches(clone) == []


def test_what_users_read_of_a_minor_never_changes_later() -> None:
    """`game.minor`, `raw_state` and `state()` give frozen records that later steps and pops
    leave as they were."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    record, snapshot, data = game.minor("Sweden"), game.raw_state, game.state()
    game.push(minors.command("declare_war", attacker="Germany", target="Sweden"))
    assert record.status is minors.Status.NEUTRAL
    assert snapshot.minors["Sweden"] == record
    assert game.minor("Sweden").status is minors.Status.INDEPENDENT
    with pytest.raises(AttributeError):
        record.status = minors.Status.ALLIED  # type: ignore[misc]
    game.pop()
    assert game.state() == data


def test_effects_are_an_immutable_sequence_of_their_own() -> None:
    """`apply` returns the step's effects as a sequence that equals the log entry's, compares
    with a list, and no later step changes."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    effects = game.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    assert list(effects) == list(game.log[-1].effects)
    assert effects == list(effects)
    assert effects == tuple(effects)
    assert [type(e).__name__ for e in effects] == ["BrpChange", "StatusChanged", "Note"]
    first = list(effects)
    game.apply(minors.command("declare_war", attacker="Germany", target="Norway"))
    assert list(effects) == first
    assert "Sweden will associate with Britain" in effects[2].text  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        effects[0] = effects[1]  # type: ignore[index]


def test_pop_returns_to_the_political_era_it_left() -> None:
    """What the rules worked out from the minors and wars before a step is found again after
    `pop` (the board's era comes back with the state), never across a change."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    board = game.play().board
    era = board.era
    board.politics()["probe"] = 1
    game.push(minors.command("declare_war", attacker="Germany", target="Sweden"))
    assert board.era is not era
    assert "probe" not in board.politics()
    game.pop()
    assert board.era is era
    assert board.politics()["probe"] == 1


def test_an_update_of_no_field_changes_nothing() -> None:
    """An update that names no field writes nothing: no journal entry, no new era."""
    game = minors.Game.new()
    board = game.play().board
    era, journal = board.era, list(board.journal)
    assert board.update("Sweden") is board.minors["Sweden"]
    assert (board.era, board.journal) == (era, journal)


NO_CODE_MADE = """
import builtins, random
import minors

game = minors.Game.new(log=False)
made = []
real_exec, real_compile = builtins.exec, builtins.compile


def watch_exec(*args, **kwargs):
    made.append("exec")
    return real_exec(*args, **kwargs)


def watch_compile(*args, **kwargs):
    made.append("compile")
    return real_compile(*args, **kwargs)


builtins.exec, builtins.compile = watch_exec, watch_compile
end = minors.Moment.parse("1942-spring/axis/diplomacy")
for seed in range(8):
    rng = random.Random(seed)
    play = game.clone()
    while play.clock < end:
        for _ in range(3):
            if rng.random() >= 0.5:
                break
            actions = play.legal_actions()
            if not actions:
                break
            play.push(rng.choice(actions))
        play.advance_to(play.clock.next())
    while play.depth:
        play.pop()
print(len(made))
"""


def test_a_search_generates_no_code_after_the_game_is_made() -> None:
    """In a fresh process, random playouts of every kind (push, advance, pop) from a new
    game run no `exec` or `compile`: what is worked out per command kind (how its names
    are made canonical) is made with the rulebook, not on a first use mid-search (where it
    cost 150-700 µs)."""
    found = subprocess.run(
        [sys.executable, "-c", NO_CODE_MADE], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "0", found.stderr
