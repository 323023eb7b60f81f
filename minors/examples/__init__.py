"""The example house rule, as data and as code, used across the docs, tests and tools.

- `limit_of_eight.toml`, an overlay (data): the 82.32 foreign-factor limit lowered from ten
  factors to eight. Pass it as `--ruleset` or `Game.new(ruleset=[LIMIT_OF_EIGHT])`.
- `winter_truce`, a rulebook (code): rule 82 plus H1, no declaration of war on a minor
  country in a winter turn. Pass it as `--rulebook winter-truce` or
  `Game.new(rulebook=winter_truce.RULEBOOK)`.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["LIMIT_OF_EIGHT", "limit_of_eight"]


def limit_of_eight() -> Traversable:
    """The overlay file that lowers the 82.32 foreign-factor limit to eight factors."""
    return files(__name__) / "limit_of_eight.toml"


LIMIT_OF_EIGHT = ("limit_of_eight.toml", limit_of_eight().read_bytes())
"""That overlay as (name, TOML bytes), as `load_ruleset` and `Game.new(ruleset=...)` take it."""
