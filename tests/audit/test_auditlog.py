"""The audit log: canonical, chained, verified by replay, branchable (docs/audit-log.md)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minors
import minors.audit.sink
from minors import auditlog
from minors.audit.lines import entry_line, seal, text
from minors.cli import main
from minors.domain.clock import Moment
from minors.scenario import SAMPLE
from tests.paths import DATA

SCENARIOS = sorted((DATA / "scenarios").glob("*.toml"))


@pytest.fixture(scope="module")
def sample_log(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("log") / "sample.log"
    minors.run_scenario(SAMPLE, log=path)
    return path.read_bytes()


def _check(data: bytes, tmp_path: Path) -> auditlog.Verdict:
    path = tmp_path / "t.log"
    path.write_bytes(data)
    return auditlog.verify(path)


def test_the_sample_log_verifies(sample_log: bytes, tmp_path: Path) -> None:
    """A log written while playing verifies: chain, replay and every digest."""
    verdict = _check(sample_log, tmp_path)
    assert verdict.ok, verdict.describe()
    assert verdict.entries == sum(
        1 for line in sample_log.splitlines() if b'"kind":"entry"' in line
    )
    assert verdict.head == json.loads(sample_log.splitlines()[-1])["hash"]


def test_lines_are_canonical_and_chained(sample_log: bytes) -> None:
    """Each line is canonical JSON with its own hash and the previous line's."""
    lines = sample_log.splitlines()
    prev = "0" * 64
    for line in lines:
        record = json.loads(line)
        assert (
            json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
            == line
        )
        assert record["prev"] == prev
        unsealed = {k: v for k, v in record.items() if k != "hash"}
        own = json.dumps(unsealed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(own.encode()).hexdigest() == record["hash"]
        prev = record["hash"]
    header = json.loads(lines[0])
    assert header["kind"] == "header"
    assert header["tables"] == minors.load_ruleset().digest
    assert set(header["hooks"]) == {"subversion", "vichy", "vichy_colony", "limit_exempt"}
    assert json.loads(lines[-1])["kind"] == "close"


@pytest.mark.parametrize("state", [None, "ab" * 32])
def test_an_entry_line_is_its_record_sealed(state: str | None) -> None:
    """The writer's entry line, assembled from its parts, is byte for byte what sealing the
    entry's record gives (non-ASCII text, a state digest, a long sequence number)."""
    command = {"command": "note", "text": 'Côte d\'Ivoire — "ü"\n', "units": ["u1"]}
    effects = [{"effect": "Note", "rule": "82.3", "text": "Österreich ✓"}]
    encoded = text(effects)
    record = {
        "kind": "entry", "seq": 12345678901, "at": "1940-spring/allies/movement",
        "command": command, "effects": effects,
        "effects_digest": hashlib.sha256(encoded.encode()).hexdigest(),
    }  # fmt: skip
    if state is not None:
        record["state_digest"] = state
    moment = Moment.parse("1940-spring/allies/movement")
    made = entry_line(12345678901, moment, command, encoded, state, "cd" * 32)
    assert made == seal(record, "cd" * 32)


def test_events_are_written_as_canonical_json_tagged_with_their_class() -> None:
    """A log line's events are canonical JSON (what `text` writes again byte for byte: the
    form format 2 hashes), each tagged `effect` with its class: every event of a sample
    campaign and of random play, and events of every class with non-ASCII and escaped
    text."""
    import json

    import minors as kinds
    from minors.audit.record import effects_text

    odd = 'Côte d\'Ivoire — "ü"\n\t\\ \x01'
    records: list[Any] = [
        kinds.Note(odd, "82.3"),
        kinds.WarBegan("Germany", odd, "K2"),
        kinds.WarEnded(odd, "Poland", "82.43", cause=odd),
        kinds.UnitPlaced("u1", odd, "K3"),
        kinds.UnitMoved(odd, "Sweden", "K3"),
        kinds.UnitRemoved("u1", "K3"),
        kinds.UnitEliminated("u1", "82.42", odd),
        kinds.DeadlineSet(odd, "axis", "1940-spring/axis/movement", "82.33"),
        kinds.PhaseEnded("a", "b", "K1"),
    ]
    games = [minors.run_scenario(SAMPLE)]
    for seed in range(3):  # random play: declarations, results, moves, conquests ...
        rng, game = random.Random(seed), minors.Game.new()
        while game.clock < Moment.parse("1941-spring/axis/diplomacy"):
            for _ in range(rng.randrange(3)):
                actions = game.legal_actions()
                if actions:
                    game.apply(rng.choice(actions))
            game.advance_to(game.clock.next())
        games.append(game)
    for game in games:
        for entry in game.log:
            records.extend(entry.effects)
    assert {type(r) for r in records} >= {
        kinds.Note,
        kinds.WarBegan,
        kinds.StatusChanged,
        kinds.BrpChange,
        kinds.PhaseEnded,
    }
    for record in records:
        written = effects_text([record])
        (data,) = json.loads(written)
        assert text([data]) == written
        assert data["effect"] == type(record).__name__
        assert {k for k in data if k != "effect"} == set(attrs.fields_dict(type(record)))
    assert effects_text(records) == text(json.loads(effects_text(records)))


def _line_of(data: bytes, offset: int) -> int:
    return data[:offset].count(b"\n") + 1


@given(st.data())
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_flipped_byte_is_caught(sample_log: bytes, tmp_path: Path, data: st.DataObject) -> None:
    """Flipping any single byte fails verification at the line that holds it."""
    offset = data.draw(st.integers(0, len(sample_log) - 1))
    flipped = bytearray(sample_log)
    flipped[offset] ^= data.draw(st.sampled_from([0x01, 0x20, 0x40]))
    verdict = _check(bytes(flipped), tmp_path)
    assert not verdict.ok
    assert verdict.line == _line_of(sample_log, offset)


@given(st.data())
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_deleted_swapped_duplicated_lines_are_caught(
    sample_log: bytes, tmp_path: Path, data: st.DataObject
) -> None:
    """Removing, swapping or duplicating any line is caught where the chain breaks."""
    lines = sample_log.splitlines(keepends=True)
    index = data.draw(st.integers(1, len(lines) - 1))
    action = data.draw(st.sampled_from(["delete", "swap", "duplicate"]))
    edited = list(lines)
    if action == "delete":
        del edited[index]
        expected = index + 1 if index < len(lines) - 1 else len(edited)
    elif action == "swap":
        index = min(index, len(lines) - 2)
        edited[index], edited[index + 1] = edited[index + 1], edited[index]
        expected = index + 1
    else:
        edited.insert(index, lines[index])
        expected = index + 2
    verdict = _check(b"".join(edited), tmp_path)
    assert not verdict.ok
    assert verdict.line == expected, verdict.describe()


@given(st.data())
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_truncation_is_caught(sample_log: bytes, tmp_path: Path, data: st.DataObject) -> None:
    """A log cut anywhere fails: a cut line, or no closing line."""
    cut = data.draw(st.integers(len(sample_log.splitlines()[0]) + 1, len(sample_log) - 1))
    verdict = _check(sample_log[:cut], tmp_path)
    assert not verdict.ok
    assert "truncated" in verdict.problem


def test_a_rewritten_entry_resealed_is_caught_by_replay(sample_log: bytes, tmp_path: Path) -> None:
    """A referee who changes a command and recomputes every hash is caught by the replay."""
    lines = sample_log.splitlines()
    records = [json.loads(line) for line in lines]
    target = next(
        i for i, r in enumerate(records) if r.get("command", {}).get("minor") == "Hungary"
    )
    records[target]["command"]["result"] = 10  # the log says 9 and its effects are a 9's
    prev, out = "0" * 64, []
    for record in records:
        record.pop("hash")
        line, prev = auditlog.seal({k: v for k, v in record.items() if k != "prev"}, prev)
        out.append(line)
    verdict = _check(b"".join(out), tmp_path)
    assert not verdict.ok
    assert verdict.line == target + 1
    assert "effects" in verdict.problem


def test_extends_accepts_a_true_extension_and_rejects_a_rewrite(tmp_path: Path) -> None:
    """--extends: a log continued from an old one extends it; a rewritten one does not."""
    old = tmp_path / "old.log"
    minors.run_scenario(SAMPLE, "1940-fall/axis/diplomacy", log=old)
    new = tmp_path / "new.log"
    game = auditlog.replay(old, log=new)
    game.advance_to("1940-fall/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Italy", target="Greece"))
    sink = game.attach(None)
    assert isinstance(sink, auditlog.FileSink)
    sink.close(game)
    assert auditlog.verify(new, extends=old).ok
    # A referee rewrites history: Poland is not conquered in Fall 1939 (a legal log on
    # its own, sealed afresh) and play goes on from there.
    other = tmp_path / "other.log"
    rewritten = minors.Game.new()
    sink2 = auditlog.open_log(rewritten, other)
    rewritten.advance_to("1940-fall/axis/declarations")
    rewritten.apply(minors.command("declare_war", attacker="Italy", target="Greece"))
    rewritten.attach(None)
    sink2.close(rewritten)
    assert auditlog.verify(other).ok
    verdict = auditlog.verify(other, extends=old)
    assert not verdict.ok
    assert "does not extend" in verdict.problem


def test_replay_until_and_branch(tmp_path: Path) -> None:
    """replay gives the state at any moment (the run's --until state) and branches a log."""
    path = tmp_path / "s.log"
    minors.run_scenario(SAMPLE, log=path)
    for moment in (
        "1939-winter/axis/diplomacy",
        "1940-summer/allies/diplomacy",
        "1941-winter/axis/combat",
        "1942-summer/allies/diplomacy",
    ):
        expected = minors.run_scenario(SAMPLE, moment).state()
        assert auditlog.replay(path, moment).state() == expected, moment
    assert auditlog.replay(path).state() == minors.run_scenario(SAMPLE).state()


def test_a_failed_write_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a disk that fills up, apply raises LogWriteError and the game is unchanged."""
    game = minors.Game.new()
    sink = auditlog.open_log(game, tmp_path / "x.log")
    write = os.write

    def full(fd: int, data: bytes) -> int:
        if os.path.samestat(os.fstat(fd), os.stat(sink.path)):  # the log's file
            raise OSError(28, "No space left on device")
        return write(fd, data)

    monkeypatch.setattr(os, "write", full)
    before, log = game.state(), game.log
    with pytest.raises(auditlog.LogWriteError) as info:
        game.advance_to("1939-fall/axis/declarations")
    assert isinstance(info.value, OSError)
    assert isinstance(info.value, minors.MinorsError)
    assert "No space left on device" in str(info.value)
    assert game.state() == before
    assert game.log == log
    monkeypatch.undo()
    sink.close(game)


def test_an_in_memory_game_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a sink no line is encoded or hashed."""
    calls: list[Any] = []
    monkeypatch.setattr(minors.audit.sink, "seal", lambda *a: calls.append(a))
    minors.run_scenario(SAMPLE)
    assert calls == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_log_verifies(path: Path, tmp_path: Path) -> None:
    """`minors run FILE --log L` then `minors log verify L` exits 0 for every scenario."""
    log = tmp_path / "run.log"
    expected = json.loads(path.with_suffix(".json").read_text())
    runner = CliRunner()
    args = ["run", str(path), "--log", str(log), "--json"]
    if expected.get("until"):
        args += ["--until", expected["until"]]
    assert runner.invoke(main, args).exit_code == expected.get("exit", 0)
    result = runner.invoke(main, ["log", "verify", str(log)])
    assert result.exit_code == 0, result.stdout
    assert "head " in result.stdout


def test_verify_exit_codes(sample_log: bytes, tmp_path: Path) -> None:
    """0 when all holds, 1 naming the entry when a check fails, 2 when it cannot verify."""
    runner = CliRunner()
    good = tmp_path / "good.log"
    good.write_bytes(sample_log)
    assert runner.invoke(main, ["log", "verify", str(good)]).exit_code == 0
    bad = tmp_path / "bad.log"
    lines = sample_log.splitlines(keepends=True)
    bad.write_bytes(b"".join(lines[:5] + lines[6:]))
    result = runner.invoke(main, ["log", "verify", str(bad)])
    assert result.exit_code == 1
    assert "FAILED at" in result.stdout
    assert runner.invoke(main, ["log", "verify", str(tmp_path / "none.log")]).exit_code == 2


def _reheader(sample_log: bytes, **changes: Any) -> bytes:
    lines = sample_log.splitlines()
    records = [json.loads(line) for line in lines]
    records[0].update(changes)
    prev, out = "0" * 64, []
    for record in records:
        body = {k: v for k, v in record.items() if k not in ("hash", "prev")}
        line, prev = auditlog.seal(body, prev)
        out.append(line)
    return b"".join(out)


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"library": "0.0.1"}, "written by minors 0.0.1"),
        ({"format": 99}, "unknown log format"),
        ({"tables": "f" * 64}, "tables"),
        ({"hooks": {}}, "hooks"),
    ],
)
def test_unverifiable_here_is_exit_2_never_tampering(
    sample_log: bytes, tmp_path: Path, changes: dict[str, Any], needle: str
) -> None:
    """Another library version, format, tables or hooks: exit 2, said as such."""
    path = tmp_path / "other.log"
    path.write_bytes(_reheader(sample_log, **changes))
    result = CliRunner().invoke(main, ["log", "verify", str(path)])
    assert result.exit_code == 2
    assert needle in result.stderr


def test_log_show_filters(sample_log: bytes, tmp_path: Path) -> None:
    """log show prints turns with rule ids; --minor, --turn and --since filter."""
    path = tmp_path / "s.log"
    path.write_bytes(sample_log)
    runner = CliRunner()
    out = runner.invoke(main, ["log", "show", str(path)]).stdout
    assert "── Spring 1940 ──" in out
    assert "[82.81]" in out
    finland = runner.invoke(main, ["log", "show", str(path), "--minor", "Finland"]).stdout
    assert "Finland" in finland
    assert "Denmark" not in finland
    spring = runner.invoke(main, ["log", "show", str(path), "--turn", "1940-spring"]).stdout
    assert "── Summer 1940 ──" not in spring
    assert "── Spring 1940 ──" in spring
    late = runner.invoke(main, ["log", "show", str(path), "--since", "30"]).stdout
    assert "Fall 1939" not in late


def test_replay_cli_branches_a_new_log(sample_log: bytes, tmp_path: Path) -> None:
    """minors replay --until --log NEW writes a log that verifies and shares the prefix."""
    path, new = tmp_path / "s.log", tmp_path / "branch.log"
    path.write_bytes(sample_log)
    result = CliRunner().invoke(
        main,
        [
            "replay",
            str(path),
            "--until",
            "1940-fall/axis/declarations",
            "--json",
            "--log",
            str(new),
        ],
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout)["clock"] == "1940-fall/axis/declarations"
    assert auditlog.verify(new).ok
    branch = new.read_bytes().splitlines()
    assert branch[0] == sample_log.splitlines()[0]
    assert json.loads(branch[-2])["command"] == {
        "command": "advance",
        "to": "1940-fall/axis/declarations",
    }


def test_logs_do_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    """The same run writes the same bytes under two PYTHONHASHSEED values."""
    outputs = []
    for seed in ("0", "999"):
        path = tmp_path / f"{seed}.log"
        code = (
            f"import minors; from minors.scenario import SAMPLE; "
            f"minors.run_scenario(SAMPLE, log={str(path)!r})"
        )
        subprocess.run(
            [sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONHASHSEED": seed}
        )
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]


KINDS = [
    "declare_war",
    "conquer",
    "border_war",
    "refuse_association",
    "surrender",
    "reenter_war",
    "move",
    "remove",
]


@given(ops=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10_000)), max_size=20))
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_random_legal_campaigns_replay_exactly(tmp_path: Path, ops: list[tuple[int, int]]) -> None:
    """For random legal play the log verifies and replays to the same state() at every
    checkpoint (each clock advance) and at the end."""
    path = tmp_path / "random.log"
    game = minors.Game.new()
    sink = auditlog.open_log(game, path, durability="close")
    checkpoints: list[tuple[str, dict[str, Any]]] = []
    for op, pick in ops:
        if op == 0:
            game.advance_to(minors.Moment(game.clock.index + 1 + pick % 9))
            checkpoints.append((str(game.clock), game.state()))
        elif op == 1 and game.clock.phase.value == "diplomacy":
            legal = game.legal_actions(["diplomatic_result"])
            if legal:
                game.apply(legal[pick % len(legal)])
        else:
            legal = game.legal_actions(KINDS)
            if legal:
                game.apply(legal[pick % len(legal)])
    game.attach(None)
    sink.close(game)
    assert auditlog.verify(path).ok
    for moment, state in checkpoints[-3:]:
        assert auditlog.replay(path, moment).state() == state
    assert auditlog.replay(path).state() == game.state()
