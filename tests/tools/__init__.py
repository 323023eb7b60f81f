"""Maintainers' tools run from a checkout (not shipped in the package)."""
