"""The rule tables as validated records: `loader`, `records` (rule 82's) and `a25`, the
merged and cross-checked whole (`tables.Ruleset`) and its rendering (`render`)."""

from __future__ import annotations

from .tables import Ruleset, load_ruleset, normalize_clause

__all__ = ["Ruleset", "load_ruleset", "normalize_clause"]
