"""The rule tables as validated records: reading (`loader`), the records of rule 82's and
A25's tables (`records`), the merged and cross-checked whole (`tables.Ruleset`) and its
rendering (`render`)."""

from __future__ import annotations

from .tables import Ruleset, load_ruleset, normalize_clause

__all__ = ["Ruleset", "load_ruleset", "normalize_clause"]
