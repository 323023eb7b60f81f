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
    """docs/embedding.md's examples run: push / pop with the position key, and the search
    loop finds a declaration."""
    # The OpenSpiel example needs the openspiel extra: tests/test_openspiel.py runs it.
    push_pop, search = [b for b in _blocks("embedding.md") if "pyspiel" not in b]
    exec(compile(push_pop, "docs/embedding.md", "exec"), {})
    exec(compile(search, "docs/embedding.md", "exec"), {})
    assert capsys.readouterr().out.startswith("best declaration: Germany on ")
