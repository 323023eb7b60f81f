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
    (block,) = _blocks("embedding.md")
    exec(compile(block, "docs/embedding.md", "exec"), {})
    assert capsys.readouterr().out.startswith("best declaration: Germany on ")
