"""Packaging: the MIT licence in LICENSE and in pyproject.toml, the classifiers, and the
version from the package metadata."""

from __future__ import annotations

import tomllib
from importlib.metadata import version

from click.testing import CliRunner

import minors
from minors.cli import main
from tests.paths import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_licence_is_mit_in_both_places() -> None:
    """LICENSE holds the MIT licence, and pyproject.toml declares it (an SPDX expression,
    the file named); the sdist takes the file."""
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    sdist = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "LICENSE" in sdist["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]


def test_the_classifiers_say_typed_python_3() -> None:
    """The classifiers include `Typing :: Typed` (the package ships py.typed) and the
    Python versions; no licence classifier beside the SPDX expression."""
    classifiers = PROJECT["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert (ROOT / "minors" / "py.typed").exists()
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]
    assert classifiers == sorted(classifiers)


def test_the_version_comes_from_the_metadata() -> None:
    """`minors.__version__` is the installed distribution's version, as `--version` says."""
    assert minors.__version__ == version("minors")
    assert minors.__version__ == PROJECT["version"]
    assert minors.__version__ in CliRunner().invoke(main, ["--version"]).stdout
