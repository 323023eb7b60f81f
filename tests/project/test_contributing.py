"""docs/contributing.md: each recipe runs as written, followed by its test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.paths import DOCS

DOC = DOCS / "contributing.md"


def _recipes() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## (Recipe \d+: .*)$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_doc_has_the_three_recipes() -> None:
    """A clause, a command kind and a house rulebook, each with code and a test."""
    recipes = _recipes()
    assert list(recipes) == [
        "Recipe 1: add a clause",
        "Recipe 2: add a command kind",
        "Recipe 3: a house rulebook",
    ]
    for body in recipes.values():
        assert len(re.findall(r"```python\n", body)) == 2
        assert "The test" in body


@pytest.mark.parametrize("recipe", list(_recipes()))
def test_recipe_runs_as_written(
    recipe: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recipe's code, then its test, run in a fresh folder (its TOML files written)."""
    body = _recipes()[recipe]
    for toml in re.findall(r"```toml\n(.*?)```", body, flags=re.S):
        name = re.match(r"# file: (\S+)\n", toml)
        if name:
            (tmp_path / name.group(1)).write_text(toml, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "test_contributing"}
    for block in re.findall(r"```python\n(.*?)```", body, flags=re.S):
        code = compile(block, f"docs/contributing.md ({recipe})", "exec", dont_inherit=True)
        exec(code, namespace)
