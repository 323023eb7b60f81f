"""Where the tests find the checkout: its root, the tests folder, their data and the docs.

Every test module reads these rather than counting parents of its own `__file__`, so that a
module may move between the sub-folders of `tests/` without losing its data.
"""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
"""The tests folder (`tests/`)."""
ROOT = TESTS.parent
"""The root of the checkout."""
DATA = TESTS / "data"
"""The tests' data (`tests/data/`)."""
SCENARIOS = DATA / "scenarios"
"""The rulebook situations (`tests/data/scenarios/*.toml`, their expected `.json`)."""
DOCS = ROOT / "docs"
"""The documentation (`docs/`)."""
