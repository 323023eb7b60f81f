"""A refusal never prescribes an illegal move (issue 28, item 5): every refusal that tells a
power to declare war says whether `check` takes that declaration now, and why not."""

from __future__ import annotations

import random
import re

import pytest

import minors

SAYS = re.compile(r"([^\s(]+) (may|cannot) declare war on (.+?) now")


def _advised(game: minors.Game, message: str) -> None:
    """Each piece of advice in `message` is true of `game` now; no other text prescribes a
    declaration (the only other mention states what cannot be done)."""
    for attacker, verdict, target in SAYS.findall(message):
        refused = game.check(minors.command("declare_war", attacker=attacker, target=target))
        assert (verdict == "cannot") == bool(refused), message
    bare = SAYS.sub("", message)
    assert "declare war" not in bare or "cannot declare war on its own" in bare, message


@pytest.mark.rule("82.12")
def test_a_french_colony_after_the_fall_is_not_sent_to_france() -> None:
    """After France's surrender, Britain's declaration on Algeria is refused without
    telling Britain to declare war on France, which is refused too."""
    game = minors.Game.new()
    game.apply(minors.command("surrender", major="France"))
    game.advance_to("1939-fall/allies/declarations")
    found = game.check(minors.command("declare_war", attacker="Britain", target="Algeria"))
    assert found
    message = found[0].message
    assert "Britain cannot declare war on France now" in message
    _advised(game, message)


@pytest.mark.rule("82.41")
@pytest.mark.rule("82.34")
@pytest.mark.parametrize("seed", [1, 2])
def test_every_refusal_advises_only_legal_declarations(seed: int) -> None:
    """Over random playouts: declarations, border wars, conquests and moves of every power,
    refused or not; each piece of advice in their refusals holds at that position."""
    rng = random.Random(seed)
    game = minors.Game.new(log=False)
    majors = list(game.ruleset.majors)
    countries = [*game.ruleset.minors, *majors]
    seen = 0
    while game.clock < minors.Moment.parse("1941-summer/axis/diplomacy"):
        commands = [
            minors.command(kind, attacker=rng.choice(majors), target=rng.choice(countries))
            for kind in ("declare_war", "border_war")
            for _ in range(12)
        ]
        minor = rng.choice(list(game.ruleset.minors))
        commands.append(minors.command("conquer", by=rng.choice(majors), minor=minor))
        units = sorted(game.raw_state.units)
        if units:
            to = rng.choice(countries)
            commands.append(minors.command("move", units=[rng.choice(units)], to=to))
        for cmd in commands:
            for violation in game.check(cmd):
                seen += "declare war" in violation.message
                _advised(game, violation.message)
        actions = game.legal_actions()
        for _ in range(rng.randint(0, 3)):
            if actions:
                game.apply(rng.choice(actions))
                actions = game.legal_actions()
        game.advance_to(game.clock.next())
    assert seen > 20  # the advice was met often enough to mean something
