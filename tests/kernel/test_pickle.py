"""Games cross processes: pickled like a clone, their tables loaded again from overlays."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import pickle
from pathlib import Path

import pytest

import minors

OVERLAY = b'[minors."Sweden"]\nbrps = 40\n'


def _declared() -> minors.Game:
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    return game


def test_a_pickled_game_is_a_clone() -> None:
    """State, log and tables come back; the copy plays on without touching the original."""
    game = _declared()
    copy = pickle.loads(pickle.dumps(game))
    assert copy.state() == game.state()
    assert copy.log == game.log
    assert copy.ruleset is game.ruleset  # the built-in tables, from the cache
    copy.apply(minors.command("declare_war", attacker="Germany", target="Norway"))
    assert (len(copy.log), len(game.log)) == (len(game.log) + 1, 2)
    assert game.minor("Norway").status is minors.Status.NEUTRAL


def test_overlay_tables_travel_with_the_game(tmp_path: Path) -> None:
    overlay = tmp_path / "sweden.toml"
    overlay.write_bytes(OVERLAY)
    game = minors.Game.new(ruleset=[overlay])
    overlay.unlink()  # the pickle carries the overlay's text, not its path
    copy = pickle.loads(pickle.dumps(game))
    assert copy.ruleset.digest == game.ruleset.digest
    assert copy.ruleset.minors["Sweden"].brps == 40


def test_other_tables_are_refused_when_unpickling(tmp_path: Path) -> None:
    """Tables that digest differently (another version of minors) are named, not used: the
    pickle of tables with an overlay, its digest changed."""
    overlay = tmp_path / "sweden.toml"
    overlay.write_bytes(OVERLAY)
    ruleset = minors.load_ruleset([overlay])
    pickled, digest = pickle.dumps(ruleset), ruleset.digest.encode()
    assert pickled.count(digest) == 1
    with pytest.raises(minors.TableError, match="pickled tables had digest"):
        pickle.loads(pickled.replace(digest, b"0" * 64))


def _play(game: minors.Game) -> dict[str, object]:
    game.apply(minors.command("declare_war", attacker="Germany", target="Norway"))
    return game.to_json()


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)
def test_a_worker_process_plays_a_game() -> None:
    """An engine's process pool: the game goes to a worker and its result comes back."""
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        result = pool.submit(_play, _declared()).result(timeout=60)
    local = _declared()
    assert result == _play(local)
