"""The example house rule, as data (`limit_of_eight.toml`, an overlay: 82.32's limit of ten
foreign factors lowered to eight) and as code (`winter_truce`, a rulebook: rule 82 plus H1)."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["LIMIT_OF_EIGHT", "limit_of_eight"]


def limit_of_eight() -> Traversable:
    """The overlay file that lowers the 82.32 foreign-factor limit to eight factors."""
    return files(__name__) / "limit_of_eight.toml"


LIMIT_OF_EIGHT = ("limit_of_eight.toml", limit_of_eight().read_bytes())
"""That overlay as (name, TOML bytes), as `load_ruleset` and `Game.new(ruleset=...)` take it."""
