"""The referee's workflow with audit logs (docs/audit-log.md): files never overwritten,
turn-by-turn continuation, logs opened mid-game, filters of `log show`, `--json`, replay
bounds, locking, failed writes, repair, the head hash and seals, and format 1 still read."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import minors
from minors import auditlog
from minors.cli import main
from tests.paths import DATA

FORMAT_1 = DATA / "logs" / "format-1-sweden.jsonl"
SWEDEN = DATA / "contract" / "sweden.toml"


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample campaign's log."""
    path = tmp_path_factory.mktemp("sample") / "sample.jsonl"
    minors.run_scenario(minors.scenario.SAMPLE, log=path)
    return path


def records_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def resealed(records: list[dict[str, Any]]) -> bytes:
    prev, out = auditlog.GENESIS, []
    for record in records:
        body = {k: v for k, v in record.items() if k not in ("hash", "prev")}
        line, prev = auditlog.seal(body, prev)
        out.append(line)
    return b"".join(out)


def orders(path: Path, *commands: dict[str, Any], start: bool = False) -> Path:
    """A scenario file (with `start`) or an orders file (without) of `commands`."""
    head = '[scenario]\nname = "turn"\n' + ('start = "1939-fall"\n' if start else "")
    body = ""
    for command in commands:
        body += "\n[[do]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in command.items())
    path.write_text(head + body, encoding="utf-8")
    return path


TURNS = [
    (
        {
            "at": "1939-fall/axis/diplomacy",
            "command": "diplomatic_result",
            "minor": "Rumania",
            "major": "Germany",
            "result": 7,
        },
        "1939-fall/allies/diplomacy",
    ),
    (
        {
            "at": "1939-fall/allies/declarations",
            "command": "declare_war",
            "attacker": "Britain",
            "target": "Norway",
        },
        "1939-winter/axis/diplomacy",
    ),
    (
        {
            "at": "1939-winter/axis/declarations",
            "command": "declare_war",
            "attacker": "Germany",
            "target": "Denmark",
        },
        "1939-winter/allies/diplomacy",
    ),
]
"""Three player turns of orders, each with the moment that ends it."""


# ---- files are never destroyed --------------------------------------------------------------


def test_outputs_never_overwrite_what_they_should_not(tmp_path: Path, sample: Path) -> None:
    """A non-empty output needs --force; a file the command reads is never written, even
    with it; an empty existing file is written; two outputs may not share a file."""
    scenario = tmp_path / "s.toml"
    scenario.write_bytes(SWEDEN.read_bytes())
    log = tmp_path / "s.jsonl"
    log.write_text("precious\n")
    refused = cli("run", scenario, "--log", log)
    assert refused.exit_code == 2
    assert "exists and is not empty: pass --force" in refused.stderr
    assert log.read_text() == "precious\n"
    assert cli("run", scenario, "--log", log, "--force").exit_code == 0
    assert auditlog.verify(log).ok
    for args in (
        ["run", scenario, "--log", scenario, "--force"],
        ["run", scenario, "--log", log, "--html", log, "--force"],
        ["replay", log, "--until", "1940-spring/axis/diplomacy", "--log", log, "--force"],
        ["report", log, "--html", log, "--force"],
        ["continue", log, scenario, "--log", log, "--force"],
    ):
        before = {p: p.read_bytes() for p in (scenario, log)}
        result = cli(*args)
        assert result.exit_code == 2, args
        assert "file this command reads" in result.stderr or "writes that file" in result.stderr
        assert {p: p.read_bytes() for p in (scenario, log)} == before
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    assert cli("run", scenario, "--log", empty).exit_code == 0
    assert auditlog.verify(empty).ok
    page = tmp_path / "page.html"
    page.write_text("mine")
    assert cli("report", sample, "--html", page).exit_code == 2
    assert page.read_text() == "mine"


# ---- turn by turn ------------------------------------------------------------------------


def test_turn_by_turn_three_turns_each_extends_the_one_before(tmp_path: Path) -> None:
    """Three player turns, each a re-run with more orders: each log verifies with --extends
    the one before (a byte-for-byte prefix); `minors continue` with only the turn's orders
    writes the very same log."""
    previous: Path | None = None
    played: list[dict[str, Any]] = []
    for turn, (command, end) in enumerate(TURNS, start=1):
        played.append(command)
        scenario = orders(tmp_path / f"t{turn}.toml", *played, start=True)
        log = tmp_path / f"g-t{turn}.jsonl"
        assert cli("run", scenario, "--until", end, "--log", log).exit_code == 0
        verdict = cli("log", "verify", log, *(["--extends", previous] if previous else []))
        assert verdict.exit_code == 0, verdict.stdout
        if previous is not None:
            assert ", 3 new;" in verdict.stdout or " new;" in verdict.stdout
            turn_orders = orders(tmp_path / f"o{turn}.toml", command)
            continued = tmp_path / f"c-t{turn}.jsonl"
            done = cli("continue", previous, turn_orders, "--until", end, "--log", continued)
            assert done.exit_code == 0, done.stderr
            assert continued.read_bytes() == log.read_bytes()
        previous = log


def test_no_advance_crosses_the_end_of_a_player_turn(sample: Path) -> None:
    """Every advance of a run stays within one player turn (the cost: an entry more per
    player turn passed)."""
    at = None
    for record in records_of(sample):
        if record["kind"] == "header":
            at = minors.Moment.parse(record["at"])
        if record["kind"] == "entry":
            moment = minors.Moment.parse(record["at"])
            if record["command"]["command"] == "advance":
                assert at is not None
                assert (moment.index - 1) // 6 == at.index // 6, record["command"]
            at = moment


def test_continue_refuses_bad_orders_writing_nothing(tmp_path: Path) -> None:
    """An orders file with a start, or stamped before the log's clock: exit 2, no log."""
    log = tmp_path / "g.jsonl"
    minors.run_scenario(SWEDEN, log=log)
    new = tmp_path / "new.jsonl"
    early = orders(tmp_path / "early.toml", TURNS[0][0])
    result = cli("continue", log, early, "--log", new)
    assert result.exit_code == 2
    assert "before the log's clock" in result.stderr
    started = orders(tmp_path / "start.toml", TURNS[2][0], start=True)
    result = cli("continue", log, started, "--log", new)
    assert result.exit_code == 2
    assert "an orders file has no 'start'" in result.stderr
    assert not new.exists()


def test_continue_stops_before_an_order_that_breaks_a_rule(tmp_path: Path) -> None:
    """An order that breaks a rule: exit 3, the new log ends before it and still extends."""
    log = tmp_path / "g.jsonl"
    minors.run_scenario(SWEDEN, log=log)
    at = "1940-spring/axis/declarations"
    legal = {**TURNS[2][0], "at": at}
    again = {**TURNS[2][0], "at": at, "target": "Sweden"}  # at war with Sweden already
    bad = orders(tmp_path / "bad.toml", legal, again)
    new = tmp_path / "new.jsonl"
    result = cli("continue", log, bad, "--log", new, "--json")
    assert result.exit_code == 3, result.stderr
    assert json.loads(result.stdout)["error"]["command"] == 2
    verdict = auditlog.verify(new, extends=log)
    assert verdict.ok, verdict.describe()
    assert verdict.extends == 1


# ---- a log opened mid-game ------------------------------------------------------------------


def test_a_log_opened_mid_game_verifies_from_the_state_it_records(tmp_path: Path) -> None:
    """`auditlog.open` on a game that has entries records its state in the header: the log
    verifies from there (said so) and replays to the game's state."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    path = tmp_path / "mid.jsonl"
    with auditlog.open(game, path):
        game.advance_to("1940-summer/axis/declarations")
        game.apply(minors.command("declare_war", attacker="Italy", target="Greece"))
    header = records_of(path)[0]
    assert header["seq"] == 2
    assert header["state"]["clock"] == "1940-spring/axis/declarations"
    verdict = auditlog.verify(path)
    assert verdict.ok, verdict.describe()
    assert verdict.origin == "state"
    assert "from the state its header records at 1940-spring/axis/declarations" in (
        verdict.describe()
    )
    assert auditlog.replay(path).state() == game.state()


def test_a_log_from_the_start_says_so(sample: Path) -> None:
    """A log opened on a new game verifies from the start position."""
    verdict = auditlog.verify(sample)
    assert verdict.ok
    assert verdict.origin == "start"


# ---- log show ------------------------------------------------------------------------------


def test_show_filters_effects_and_reads_names_as_everywhere(sample: Path) -> None:
    """--minor keeps the effects about that minor only, in any case or alias; an unknown
    name, turn or entry exits 2 with the closest name."""
    greece = cli("log", "show", sample, "--minor", "Greece")
    assert greece.exit_code == 0
    assert "Greece" in greece.stdout
    assert "Canada" not in greece.stdout
    assert "Dutch East Indies" not in greece.stdout
    assert "placed in Germany" not in greece.stdout
    assert cli("log", "show", sample, "--minor", "greece").stdout == greece.stdout
    romania = cli("log", "show", sample, "--minor", "Romania", "--json")
    assert romania.exit_code == 0
    assert json.loads(romania.stdout)["filters"]["minor"] == "Rumania"
    for args, needle in (
        (["--minor", "Grece"], "did you mean 'Greece'"),
        (["--turn", "bogus"], "is not a moment"),
        (["--turn", "1950-spring"], "no entry of that turn"),
        (["--since", "99999"], "entries run from 1 to"),
    ):
        result = cli("log", "show", sample, *args)
        assert result.exit_code == 2, args
        assert needle in result.stderr


def test_show_json_keeps_the_matching_effects(sample: Path) -> None:
    """`log show --json --minor Greece --turn 1940-fall`: every effect listed concerns Greece
    and happened in that turn (the schema is checked by conftest)."""
    result = cli("log", "show", sample, "--minor", "Greece", "--turn", "1940-FALL", "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    effects = [e for entry in document["entries"] for e in entry["effects"]]
    assert effects
    assert all(e["at"].startswith("1940-fall/") for e in effects)
    assert all("Greece" in json.dumps(e["effect"]) for e in effects)


def test_verify_json(sample: Path, tmp_path: Path) -> None:
    """`log verify --json`: the verdict as JSON, exit 0 or 1; exit 2 prints the error
    document."""
    ok = cli("log", "verify", sample, "--json")
    assert ok.exit_code == 0
    assert json.loads(ok.stdout)["ok"] is True
    lines = sample.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:-1]))
    failed = cli("log", "verify", cut, "--json")
    assert failed.exit_code == 1
    assert "no closing line" in json.loads(failed.stdout)["problem"]
    missing = cli("log", "verify", tmp_path / "none.jsonl", "--json")
    assert missing.exit_code == 2
    assert json.loads(missing.stdout)["error"]["exit"] == 2


@pytest.mark.parametrize(
    "moment",
    ["1940-fall/axis/movement", "1940-fall/axis/declarations", "1941-spring/allies/combat"],
)
def test_replay_until_any_moment_gives_the_runs_state(sample: Path, moment: str) -> None:
    """replay --until a moment between the log's entries (a phase after commands, a phase of
    commands) gives the state `run --until` gives."""
    expected = minors.run_scenario(minors.scenario.SAMPLE, moment).state()
    assert auditlog.replay(sample, moment).state() == expected


def test_replay_until_past_the_end_says_so(sample: Path) -> None:
    """--until past the log's end (or before its start) exits 2 and says where it ends."""
    result = cli("replay", sample, "--until", "1950-spring/axis/diplomacy")
    assert result.exit_code == 2
    assert "past the end of the log" in result.stderr
    before = cli("replay", sample, "--until", "1939-summer/axis/diplomacy")
    assert before.exit_code == 2
    assert "before the start" in before.stderr


# ---- locking, failed writes, repair ------------------------------------------------------


def test_a_second_writer_gets_a_clear_error(tmp_path: Path) -> None:
    """While a writer holds a log, a second API writer and a CLI run get an error naming the
    lock, and the first log is intact."""
    path = tmp_path / "g.jsonl"
    game = minors.Game.new()
    with auditlog.open(game, path):
        game.advance_to("1939-fall/axis/declarations")
        with pytest.raises(minors.errors.LogLocked, match="being written by another writer"):
            auditlog.open(minors.Game.new(), path)
        result = cli("run", SWEDEN, "--log", path, "--force")
        assert result.exit_code == 2
        assert "being written by another writer" in result.stderr
        unclosed = auditlog.verify(path)
        assert "a writer holds it" in unclosed.problem
        game.advance_to("1939-fall/axis/movement")
    assert auditlog.verify(path).ok


def _failing(
    monkeypatch: pytest.MonkeyPatch, name: str, sink: auditlog.FileSink, half: bool
) -> None:
    """Make the next `os.write` or `os.fsync` on the sink's file fail (a write after writing
    half its bytes, with `half`)."""
    original = getattr(os, name)
    state = {"armed": True}

    def broken(fd: int, *args: Any) -> Any:
        if state["armed"] and os.path.samestat(os.fstat(fd), os.stat(sink.path)):
            state["armed"] = False
            if half:
                original(fd, args[0][: len(args[0]) // 2])
            raise OSError(28, "No space left on device")
        return original(fd, *args)

    monkeypatch.setattr(os, name, broken)


@pytest.mark.parametrize(
    ("name", "half"), [("fsync", False), ("write", True)], ids=["fsync", "partial-write"]
)
def test_a_failed_write_is_cut_back_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, half: bool
) -> None:
    """After a failed fsync or a partial write the file is cut back to its last complete
    line, the game is unchanged, and the log goes on and verifies."""
    path = tmp_path / "g.jsonl"
    game = minors.Game.new()
    sink = auditlog.open(game, path)
    game.advance_to("1939-fall/axis/declarations")
    size = path.stat().st_size
    _failing(monkeypatch, name, sink, half)
    before = game.state()
    with pytest.raises(auditlog.LogWriteError):
        game.apply(minors.command("declare_war", attacker="Germany", target="Denmark"))
    assert game.state() == before
    assert path.stat().st_size == size
    game.apply(minors.command("declare_war", attacker="Germany", target="Denmark"))
    game.attach(None)
    sink.close(game)
    assert auditlog.verify(path).ok


def test_a_failed_write_of_held_lines_refuses_later_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With durability `close`, a failed write loses lines the game already holds: the sink
    refuses every later write, and what is on disk reads up to its last complete entry."""
    path = tmp_path / "g.jsonl"
    game = minors.Game.new()
    sink = auditlog.open(game, path, durability="close")
    game.advance_to("1939-fall/axis/declarations")
    monkeypatch.setattr(minors.audit.sink, "_CHUNK", 1)  # hand lines over at once
    _failing(monkeypatch, "write", sink, half=True)
    with pytest.raises(auditlog.LogWriteError):
        game.apply(minors.command("declare_war", attacker="Germany", target="Denmark"))
    with pytest.raises(auditlog.LogWriteError, match="lost entries"):
        game.apply(minors.command("declare_war", attacker="Germany", target="Denmark"))
    game.attach(None)
    sink.close(game)
    entries, _ = auditlog.read_entries(path)  # whole lines only: the chain reads
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))


def test_repair_trims_a_torn_last_line(sample: Path, tmp_path: Path) -> None:
    """A log cut inside its last line: replay refuses it, `log repair` drops the torn line
    saying so, replay reads it again; a log damaged elsewhere is left alone (exit 1)."""
    data = sample.read_bytes()
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(data[: len(data) - 40])
    assert cli("replay", torn).exit_code == 2
    result = cli("log", "repair", torn)
    assert result.exit_code == 0
    assert "dropped the torn line" in result.stdout
    assert "close" in result.stdout
    assert cli("replay", torn).exit_code == 0
    assert "nothing to repair" in cli("log", "repair", torn).stdout
    damaged = tmp_path / "damaged.jsonl"
    lines = data.splitlines(keepends=True)
    damaged.write_bytes(b"".join([*lines[:3], lines[3].replace(b'"', b"'", 1), *lines[4:-1]]))
    before = damaged.read_bytes()
    result = cli("log", "repair", damaged)
    assert result.exit_code == 1
    assert "repair trims only a torn last line" in result.stderr
    assert damaged.read_bytes() == before


WRITER = """
import sys, minors
from minors import auditlog
game = minors.Game.new()
auditlog.open(game, sys.argv[1], durability="entry")
game.advance_to("1939-fall/axis/movement")
for n in range(100000):
    unit = {"id": f"u{n}", "owner": "Germany", "kind": "infantry", "factors": 1}
    game.apply(minors.command("place", units=[unit], **{"in": "Germany"}))
    print(game.next_seq - 1, flush=True)
"""


def test_durability_entry_loses_nothing_to_kill_9(tmp_path: Path) -> None:
    """A writer killed with SIGKILL: every entry it applied is on disk; the log repairs (if
    torn) and replays."""
    path = tmp_path / "killed.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    applied = 0
    for line in proc.stdout:
        applied = int(line)
        if applied >= 40:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    assert cli("log", "repair", path).exit_code == 0
    entries, _ = auditlog.read_entries(path)
    assert entries[-1].seq >= applied
    assert auditlog.replay(path).next_seq - 1 == entries[-1].seq


# ---- head and seals ------------------------------------------------------------------------


def test_head_and_verify_head_catch_a_log_cut_and_closed_again(
    sample: Path, tmp_path: Path
) -> None:
    """`log head` prints the head; a log cut in half with a new closing line verifies on its
    own but not against the published head."""
    head = cli("log", "head", sample).stdout.strip()
    assert head == auditlog.verify(sample).head
    assert cli("log", "verify", sample, "--head", head).exit_code == 0
    game = auditlog.replay(sample, "1940-fall/axis/diplomacy", log=tmp_path / "half.jsonl")
    sink = game.attach(None)
    assert isinstance(sink, auditlog.FileSink)
    sink.close(game)
    half = tmp_path / "half.jsonl"
    assert cli("log", "verify", half).exit_code == 0
    result = cli("log", "verify", half, "--head", head)
    assert result.exit_code == 1
    assert "not the published" in result.stdout
    assert cli("log", "verify", half, "--head", "xyz").exit_code == 2


def test_seals_say_who_sealed_a_log(sample: Path, tmp_path: Path) -> None:
    """keygen writes a key pair; seal signs the head; verify --public-key accepts that key
    and refuses another, an edited seal, and sealing an unclosed log."""
    log = tmp_path / "turn.jsonl"
    log.write_bytes(sample.read_bytes())
    key, other = tmp_path / "referee", tmp_path / "other"
    assert cli("log", "keygen", key).exit_code == 0
    assert cli("log", "keygen", other).exit_code == 0
    assert cli("log", "keygen", key).exit_code == 2  # never over a key
    assert (key.stat().st_mode & 0o777) == 0o600
    head = auditlog.verify(log).head
    assert cli("log", "seal", log, "--key", key).exit_code == 0
    sealed = cli("log", "verify", log, "--public-key", f"{key}.pub")
    assert sealed.exit_code == 0, sealed.stdout
    assert f"head {head}" in sealed.stdout
    refused = cli("log", "verify", log, "--public-key", f"{other}.pub")
    assert refused.exit_code == 1
    assert "no seal by that public key" in refused.stdout
    records = records_of(log)
    records[-1]["signature"] = "0" * 128
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(resealed(records))
    result = cli("log", "verify", forged)
    assert result.exit_code == 1
    assert "signature does not match" in result.stdout
    open_log = tmp_path / "open.jsonl"
    open_log.write_bytes(b"".join(sample.read_bytes().splitlines(keepends=True)[:-1]))
    assert cli("log", "seal", open_log, "--key", key).exit_code == 2


# ---- integrity -------------------------------------------------------------------------------


def _edited(sample: Path, tmp_path: Path, kind: str, change: Any) -> auditlog.Verdict:
    """Verify the sample with the first line of `kind` changed and every hash resealed."""
    records = records_of(sample)
    index = next(i for i, r in enumerate(records) if r["kind"] == kind and change(r) is not False)
    path = tmp_path / "edited.jsonl"
    path.write_bytes(resealed(records))
    verdict = auditlog.verify(path)
    assert not verdict.ok
    assert verdict.line == index + 1, verdict.describe()
    return verdict


def test_a_snapshot_moved_and_resealed_is_caught(sample: Path, tmp_path: Path) -> None:
    """A snapshot's `at` or `seq` changed and resealed fails at that line (replay trusts
    both)."""

    def move(record: dict[str, Any]) -> None:
        record["at"] = str(minors.Moment.parse(record["at"]).next())

    def renumber(record: dict[str, Any]) -> None:
        record["seq"] += 1

    assert "moment" in _edited(sample, tmp_path, "snapshot", move).problem
    assert "entry number" in _edited(sample, tmp_path, "snapshot", renumber).problem


def test_a_snapshots_changes_edited_and_resealed_are_caught(sample: Path, tmp_path: Path) -> None:
    """A snapshot whose changes claim another state, resealed, fails at that line."""

    def change(record: dict[str, Any]) -> bool:
        if "minors" not in record["changes"]:
            return False
        minor = next(iter(record["changes"]["minors"]["set"].values()))
        minor["status"] = "neutral" if minor["status"] != "neutral" else "conquered"
        return True

    assert "changes" in _edited(sample, tmp_path, "snapshot", change).problem


def test_written_effects_edited_and_resealed_are_caught(sample: Path, tmp_path: Path) -> None:
    """An entry whose effects were edited (and their digest and every hash worked out
    again) fails at that entry."""

    def change(record: dict[str, Any]) -> bool:
        placed = [e for e in record["effects"] if e["effect"] == "UnitPlaced"]
        if not placed:
            return False
        placed[0]["country"] = "Sweden"
        record["effects_digest"] = auditlog.digest(record["effects"])
        return True

    assert "effects recorded differ" in _edited(sample, tmp_path, "entry", change).problem


def test_an_advances_state_digest_edited_and_resealed_is_caught(
    sample: Path, tmp_path: Path
) -> None:
    """The per-entry state digest is checked: an advance claiming another state fails."""

    def change(record: dict[str, Any]) -> bool:
        if "state_digest" not in record:
            return False
        record["state_digest"] = "0" * 64
        return True

    assert "state recorded differs" in _edited(sample, tmp_path, "entry", change).problem


def test_extends_with_no_new_entry_says_so(sample: Path, tmp_path: Path) -> None:
    """A log checked as an extension of itself: exit 1, "0 new entries"; --extends of a file
    that is not a log: exit 2."""
    result = cli("log", "verify", sample, "--extends", sample)
    assert result.exit_code == 1
    assert "0 new entries" in result.stdout
    result = cli("log", "verify", sample, "--extends", SWEDEN)
    assert result.exit_code == 2
    assert "not a log" in result.stderr


# ---- format 1 -------------------------------------------------------------------------------


def test_a_format_1_log_is_still_read(tmp_path: Path) -> None:
    """A log of format 1, written before format 2 by a build whose tables and rules differ
    from these, is still shown; verifying or replaying it here exits 2 naming the build and
    format that wrote it, and it is not continued."""
    shown = cli("log", "show", FORMAT_1)
    assert shown.exit_code == 0
    assert "12 units are placed in W. Poland" in shown.stdout
    for args in (("log", "verify", FORMAT_1), ("replay", FORMAT_1)):
        result = cli(*args)
        assert result.exit_code == 2
        assert "written by minors 0.1.0 (log format 1)" in result.stderr
    result = cli("replay", FORMAT_1, "--log", tmp_path / "new.jsonl")
    assert result.exit_code == 2


# ---- format 2's digests and changes ------------------------------------------------------


def test_incremental_digests_and_changes_match_the_outside_checkers(tmp_path: Path) -> None:
    """The writer's incremental state digests and snapshot changes are what an outside
    checker computes from the JSON alone: every snapshot's state, rebuilt from the header's
    state and the changes, has the digest the snapshot names."""
    from minors.audit.state import apply_changes, tree_digest

    path = tmp_path / "g.jsonl"
    minors.run_scenario(minors.scenario.SAMPLE, log=path)
    records = records_of(path)
    state = records[0]["state"]
    assert tree_digest(state) == records[0]["state_digest"]
    snapshots = 0
    for record in records[1:]:
        if record["kind"] == "snapshot":
            state = apply_changes(state, record["changes"])
            assert tree_digest(state) == record["state_digest"]
            snapshots += 1
    assert snapshots > 5
    last = next(r for r in reversed(records) if r["kind"] == "snapshot")
    replayed = auditlog.replay(path, last["at"]).state()
    assert state == json.loads(auditlog.canonical(replayed))


def test_a_long_phase_gets_snapshots_that_replay_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phase of many commands gets a snapshot every EVERY entries (lowered here to 100);
    replay --until that phase leaves all its commands out, --until the next phase plays them
    all; both, and a log branched after them, agree with the game played and verify."""
    monkeypatch.setattr(minors.audit.record, "EVERY", 100)
    path = tmp_path / "long.jsonl"
    game = minors.Game.new()
    start = "1939-fall/axis/movement"
    with auditlog.open(game, path, durability="close"):
        game.advance_to(start)
        bare = game.clone()
        for n in range(120):
            unit = {"id": f"u{n}", "owner": "Germany", "kind": "infantry", "factors": 1}
            game.apply(minors.command("place", units=[unit], **{"in": "Germany"}))
            game.apply(minors.command("remove", units=[f"u{n}"]))
        game.advance_to("1939-fall/axis/combat")
    snapshots = [r["seq"] for r in records_of(path) if r["kind"] == "snapshot"]
    assert snapshots == [100, 200]
    assert auditlog.verify(path).ok
    assert auditlog.replay(path, start).state() == bare.state()
    assert auditlog.replay(path, "1939-fall/axis/combat").state() == game.state()
    branch = tmp_path / "branch.jsonl"
    replayed = auditlog.replay(path, "1939-fall/axis/combat", log=branch)
    replayed.advance_to("1939-fall/allies/declarations")
    replayed.apply(minors.command("declare_war", attacker="Britain", target="Norway"))
    sink = replayed.attach(None)
    assert isinstance(sink, auditlog.FileSink)
    sink.close(replayed)
    assert auditlog.verify(branch).ok
