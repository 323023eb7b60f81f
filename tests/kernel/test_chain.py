"""The persistent append-only sequence behind the log and the BRP ledger, read through the
public `minors.Log` (the log is such a sequence, of `LogEntry`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import minors
from minors import Log, LogEntry
from minors.domain.clock import START


def _entry(seq: int) -> LogEntry:
    """A log entry of its own (entries compare by identity): an `advance` numbered `seq`."""
    return LogEntry(seq, START, {"command": "advance"}, ())


@given(st.lists(st.tuples(st.booleans(), st.lists(st.integers(), max_size=3)), max_size=30))
def test_a_chain_reads_as_the_tuple_of_what_was_added(steps: list[tuple[bool, list[int]]]) -> None:
    """Every version reads as the tuple of its items, and later appends never change it."""
    chain = Log()
    versions: list[tuple[Log, tuple[LogEntry, ...]]] = [(chain, ())]
    for single, numbers in steps:
        items = [_entry(n) for n in numbers]
        added = (items[0] if items else _entry(0),) if single else tuple(items)
        chain = chain.append(added[0]) if single else chain.extend(added)
        versions.append((chain, versions[-1][1] + added))
    for version, expected in versions:
        assert version.entries() == expected
        assert len(version) == len(expected)
        assert list(version) == list(expected)
        assert version == Log(expected)
        if expected:
            assert version[-1] == expected[-1]
            assert version[1:] == expected[1:]


def test_extending_by_nothing_gives_the_same_chain() -> None:
    chain = Log([_entry(1), _entry(2)])
    assert chain.extend([]) is chain
    assert chain.append(_entry(3)) is not chain


def test_a_log_stays_a_log() -> None:
    """`Log` appends return logs, with their short repr."""
    entry = LogEntry(1, START, {"command": "advance"}, ())
    log = Log().append(entry)
    assert isinstance(log, Log)
    assert isinstance(log.extend([entry]), Log)
    assert repr(log) == "Log(1 entries)"


def test_clones_share_the_ledger_and_never_see_each_others_entries() -> None:
    """82.22's ledger is shared by clones; each clone's entries stay its own."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    other = game.clone()
    game.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    other.apply(minors.command("declare_war", attacker="Italy", target="Greece"))
    assert [e.major for e in game.raw_state.ledger] == ["Germany"]
    assert [e.major for e in other.raw_state.ledger] == ["Italy"]


@pytest.mark.parametrize("ledger", [{"seq": 1}, "entries", 3])
def test_a_state_whose_ledger_is_not_a_list_is_refused(ledger: object) -> None:
    state = minors.Game.new().state()
    state["ledger"] = ledger
    with pytest.raises(minors.StateError, match="not a minors state"):
        minors.Game.from_state(state)
