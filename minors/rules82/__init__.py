"""Rule 82 of *A World at War*, minor countries: its rules (one module per concept), the
rulebook that collects them (`RULEBOOK`, `book`), its command vocabulary (`commands`) and
`Game`, the kernel's game with rule 82 as its default rulebook."""

from __future__ import annotations

from .book import HOOKS, KERNEL_RULES, RULEBOOK, VARIANTS, find_rulebook
from .game import Game

__all__ = ["HOOKS", "KERNEL_RULES", "RULEBOOK", "VARIANTS", "Game", "find_rulebook"]
