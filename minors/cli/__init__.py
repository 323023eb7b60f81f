"""The `minors` command line (`main`) and the tools behind it (`coverage`)."""

from __future__ import annotations

from .main import main

__all__ = ["main"]
