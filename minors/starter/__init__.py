"""`minors init [DIR]`: a starter folder that runs: the sample campaign, the example house
rule (82.32's limit lowered to eight) and a pytest file that tests it, with the pytest
plugin's state machine run under it (`pytest.ini`)."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from ..errors import StarterError

__all__ = ["FILES", "StarterError", "write"]


def _sources() -> dict[str, Traversable]:
    package = files("minors")
    template = files(__name__) / "template"
    return {
        "README.md": template / "README.md",
        "campaign.toml": package / "samples" / "campaign.toml",
        "limit_of_eight.toml": package / "examples" / "limit_of_eight.toml",
        "test_house_rule.py": template / "test_house_rule.py",
        "pytest.ini": template / "pytest.ini",
    }


FILES = tuple(_sources())
"""The files a starter folder holds."""


def write(folder: str | Path) -> list[Path]:
    """Write the starter files into `folder` (made if need be); the paths written. A
    StarterError if `folder` is a file or holds one of the files (nothing is written)."""
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise StarterError(f"{target}: not a folder")
    sources = _sources()
    taken = [name for name in sources if (target / name).exists()]
    if taken:
        raise StarterError(
            f"{target}: already holds {', '.join(taken)}; nothing was written "
            "(choose another folder, or move them away)"
        )
    target.mkdir(parents=True, exist_ok=True)
    for name, source in sources.items():
        (target / name).write_bytes(source.read_bytes())
    return [target / name for name in sources]
