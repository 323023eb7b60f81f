"""Format 2's view of a game state (docs/audit-log.md): its digest, made of its parts'
digests, and the changes between two states that a snapshot line carries.

`tree_digest` and `apply_changes` work on the JSON of `Game.state()`, as an outside checker
does; `Digests` and `changes` on `Game.raw_state`'s records, incrementally: a record that
is the same object as last time keeps its digest."""

from __future__ import annotations

import hashlib
import typing
from collections.abc import Mapping
from typing import Any

from .._kernel.convert import CONVERTER
from ..domain.chain import Chain
from ..domain.state import GameState
from .lines import GENESIS, canonical

__all__ = ["Digests", "apply_changes", "changes", "tree_digest"]

HINTS: dict[str, Any] = typing.get_type_hints(GameState)
"""Each field of the state and its type."""

RECORDS = ("minors", "units")
"""The dicts of records, each record's digest kept while it is the same object."""

_MISSING: Any = object()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _chain(start: str, items: Any) -> str:
    h = start
    for item in items:
        h = _sha(h.encode() + canonical(item))
    return h


def _part(value: Any) -> str:
    """The digest of one part of a state, as JSON."""
    if isinstance(value, dict):
        return _sha(canonical({k: _sha(canonical(v)) for k, v in value.items()}))
    if isinstance(value, list):
        return _chain(GENESIS, value)
    return _sha(canonical(value))


def tree_digest(data: Mapping[str, Any]) -> str:
    """Format 2's `state_digest` of a state as JSON (docs/audit-log.md, "The state digest")."""
    return _sha(canonical({name: _part(value) for name, value in data.items()}))


def _json(name: str, value: Any) -> Any:
    return CONVERTER.unstructure(value, HINTS[name])


def _items(name: str, value: Any) -> tuple[Any, ...]:
    """The items of a part whose JSON is an array, as records."""
    if isinstance(value, Chain):
        return value.entries()
    if isinstance(value, tuple):
        return value
    return tuple(_json(name, value))


def _prefix(old: tuple[Any, ...], new: tuple[Any, ...]) -> int:
    """How many leading items `old` and `new` share."""
    if len(new) >= len(old) and new[: len(old)] == old:
        return len(old)
    n = 0
    for a, b in zip(old, new, strict=False):
        if a is not b and a != b:
            break
        n += 1
    return n


class Digests:
    """`state_digest` of one game's states in turn, what did not change not hashed again."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[Any, str]] = {}  # the value last seen, its digest
        self._records: dict[str, dict[str, tuple[Any, str]]] = {name: {} for name in RECORDS}
        # per array part: the value, its items (None for a chain), their count and hash
        self._lists: dict[str, tuple[Any, tuple[Any, ...] | None, int, str]] = {}

    def __call__(self, state: GameState) -> str:
        parts = {}
        for name in HINTS:
            value = getattr(state, name)
            seen = self._parts.get(name)
            if seen is not None and seen[0] is value:
                parts[name] = seen[1]
                continue
            if name in RECORDS:
                found = self._record_part(name, value)
            elif isinstance(value, Chain | tuple) or name == "wars":
                found = self._list_part(name, value)
            else:
                found = _part(_json(name, value))
            self._parts[name] = (value, found)
            parts[name] = found
        return _sha(canonical(parts))

    def _record_part(self, name: str, records: dict[str, Any]) -> str:
        old = self._records[name]
        new: dict[str, tuple[Any, str]] = {}
        for key, record in records.items():
            seen = old.get(key)
            if seen is None or seen[0] is not record:
                seen = (record, _sha(canonical(CONVERTER.unstructure(record, type(record)))))
            new[key] = seen
        self._records[name] = new
        return _sha(canonical({key: seen[1] for key, seen in new.items()}))

    def _list_part(self, name: str, value: Any) -> str:
        seen = self._lists.get(name)
        added: tuple[Any, ...] | None = None
        start, count = GENESIS, 0
        if seen is not None:
            old, old_items, old_count, old_hash = seen
            if isinstance(value, Chain) and isinstance(old, Chain):
                added = value.since(old)
            elif isinstance(value, tuple) and old_items is not None:
                added = value[old_count:] if value[:old_count] == old_items else None
            if added is not None:
                start, count = old_hash, old_count
        if added is None:
            added = _items(name, value)
        if isinstance(value, Chain):
            found = _chain(start, [CONVERTER.unstructure(item) for item in added])
        else:
            found = _chain(start, added)
        items = value if isinstance(value, tuple) else None
        self._lists[name] = (value, items, count + len(added), found)
        return found


def _dict_changes(old: Mapping[str, Any], new: Mapping[str, Any], encode: Any) -> Any:
    put = {
        key: encode(value)
        for key, value in new.items()
        if (was := old.get(key, _MISSING)) is not value and was != value
    }
    drop = sorted(key for key in old if key not in new)
    return {"set": put, "drop": drop} if put or drop else None


def changes(old: GameState, new: GameState) -> dict[str, Any]:
    """The `changes` a snapshot carries from `old` to `new` (docs/audit-log.md)."""
    out: dict[str, Any] = {}
    for name in HINTS:
        before, after = getattr(old, name), getattr(new, name)
        if before is after:
            continue
        if name in RECORDS:
            found = _dict_changes(before, after, lambda r: CONVERTER.unstructure(r, type(r)))
        elif isinstance(after, Chain | tuple) or name == "wars":
            was, now = _items(name, before), _items(name, after)
            added = after.since(before) if isinstance(after, Chain) else None
            keep = len(was) if added is not None else _prefix(was, now)
            tail = now[keep:]
            if keep == len(was) and not tail:
                continue
            chain = isinstance(after, Chain)
            add = [CONVERTER.unstructure(item) for item in tail] if chain else list(tail)
            found = {"keep": keep, "add": add}
        else:
            a, b = _json(name, before), _json(name, after)
            if a == b:
                continue
            found = _dict_changes(a, b, lambda v: v) if isinstance(b, dict) else b
        if found is not None:
            out[name] = found
    return out


def apply_changes(data: dict[str, Any], delta: Mapping[str, Any]) -> dict[str, Any]:
    """The state as JSON after a snapshot's `delta`, in a new dict (ValueError if the delta
    names a part the state does not have, or is not of its form)."""
    out = dict(data)
    for name, change in delta.items():
        if name not in out:
            raise ValueError(f"the changes name a part {name!r} the state does not have")
        value = out[name]
        if isinstance(value, dict):
            match change:
                case {"set": dict(put), "drop": list(drop)} if len(change) == 2:
                    dropped = set(map(str, drop))
                    out[name] = {k: v for k, v in value.items() if k not in dropped} | put
                case _:
                    raise ValueError(f"the changes of {name!r} are not {{set, drop}}")
        elif isinstance(value, list):
            if not isinstance(change, dict) or set(change) != {"keep", "add"}:
                raise ValueError(f"the changes of {name!r} are not {{keep, add}}")
            match change:
                case {"keep": int(keep), "add": list(add)} if 0 <= keep <= len(value):
                    out[name] = value[:keep] + add
                case _:
                    raise ValueError(f"the changes of {name!r} keep or add what is not there")
        else:
            out[name] = change
    return out
