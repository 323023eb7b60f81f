"""The documentation's examples run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).parent.parent / "docs"


def _blocks(name: str) -> list[str]:
    text = (DOCS / name).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_embedding_search_loop_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/embedding.md's search loop runs and finds a declaration."""
    # The OpenSpiel example needs the openspiel extra: tests/test_openspiel.py runs it.
    (block,) = [b for b in _blocks("embedding.md") if "pyspiel" not in b]
    exec(compile(block, "docs/embedding.md", "exec"), {})
    assert capsys.readouterr().out.startswith("best declaration: Germany on ")
