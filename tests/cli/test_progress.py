"""Progress on long work: `minors log verify` of a big log and the mutation runs draw a rich
progress bar on a terminal (a pseudo-terminal here) and print nothing of it into a pipe."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

import minors
from minors import auditlog
from tests.paths import ROOT

MINORS = [sys.executable, "-m", "minors"]
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def on_terminal(args: list[str]) -> tuple[int, str]:
    """Run `args` with stdin, stdout and stderr on a new pseudo-terminal; (exit, what the
    terminal received, escape sequences removed)."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    for name in ("NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "FORCE_COLOR"):
        env.pop(name, None)
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    received = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(master)
    return proc.wait(timeout=120), ESCAPE.sub("", received.decode("utf-8", "replace"))


def in_pipes(args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run `args` with stdout and stderr to pipes."""
    return subprocess.run(
        args, capture_output=True, text=True, check=False, cwd=ROOT, stdin=subprocess.DEVNULL
    )


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log of some 1,500 entries: units placed and removed at every movement phase."""
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    game = minors.Game.new()
    sink = auditlog.open_log(game, path, durability="close")
    serial = 0
    while len(game.log) < 1_500:
        game.advance_to(game.clock.next_phase_of(game.clock.side, minors.Phase.MOVEMENT))
        owner = "Germany" if game.clock.side is minors.Side.AXIS else "Britain"
        for _ in range(40):
            serial += 1
            unit = {"id": f"u{serial}", "owner": owner, "kind": "infantry", "factors": 1}
            game.apply(minors.command("place", units=[unit], **{"in": owner}))
            game.apply(minors.command("remove", units=[f"u{serial}"]))
    game.attach(None)
    sink.close(game)
    return path


def test_log_verify_draws_a_bar_on_a_terminal(big_log: Path) -> None:
    """On a terminal `minors log verify` of a big log shows a bar counting the lines up to
    all of them, then the verdict."""
    lines = len(big_log.read_bytes().splitlines())
    code, screen = on_terminal([*MINORS, "log", "verify", str(big_log)])
    assert code == 0, screen
    assert f"verifying {big_log}" in screen
    assert "━" in screen
    assert f"{lines}/{lines} lines" in screen
    assert "entries verified; head " in screen


def test_log_verify_prints_no_bar_into_a_pipe(big_log: Path) -> None:
    """Into a pipe `minors log verify` prints its verdict and head, and nothing else on
    either stream."""
    done = in_pipes([*MINORS, "log", "verify", str(big_log)])
    assert done.returncode == 0
    verdict = auditlog.verify(big_log)
    assert done.stdout == f"{verdict.describe()}\nhead {verdict.head}\n"
    assert done.stderr == ""


def test_verify_reports_progress_line_by_line(big_log: Path) -> None:
    """`verify(progress=f)` calls f with the lines done and the lines in all, up to all."""
    seen: list[tuple[int, int]] = []
    verdict = auditlog.verify(big_log, progress=lambda done, total: seen.append((done, total)))
    assert verdict.ok
    total = len(big_log.read_bytes().splitlines())
    assert [done for done, _ in seen] == list(range(1, total + 1))
    assert {t for _, t in seen} == {total}


def test_verify_progress_never_goes_back_on_a_bad_log(big_log: Path, tmp_path: Path) -> None:
    """On a log edited near its end, checked twice (byte for byte, then line by line to say
    why), `progress` still counts each line once, in order, up to the bad line."""
    lines = big_log.read_bytes().splitlines(keepends=True)
    bad = len(lines) - 3
    lines[bad] = lines[bad].replace(b'"kind":"entry"', b'"kind":"entrY"')
    edited = tmp_path / "edited.log"
    edited.write_bytes(b"".join(lines))
    seen: list[int] = []
    verdict = auditlog.verify(edited, progress=lambda done, total: seen.append(done))
    assert not verdict.ok
    assert verdict.line == bad + 1
    assert seen == list(range(1, bad + 1))


def test_mutation_runs_draw_a_bar_on_a_terminal_and_none_into_a_pipe(tmp_path: Path) -> None:
    """The mutation run (tests/mutation/run_disabled.py) shows a bar of its runs on a
    terminal, with the clause lines above it; into a pipe, the lines alone. Its runs are of
    a one-test suite that notices 82.41 switched off and not 82.42, run without the minors
    and Hypothesis plugins, so that each takes a moment."""
    suite = tmp_path / "test_notices.py"
    suite.write_text(
        "import os\n\n\ndef test_notices() -> None:\n"
        '    """82.41 is on."""\n'
        '    assert os.environ.get("MINORS_DISABLE") != "82.41"\n',
        encoding="utf-8",
    )
    args = [
        sys.executable, str(ROOT / "tests" / "mutation" / "run_disabled.py"), "--jobs", "1",
        "--only", "82.41", "82.42", "--", "-p", "no:minors", "-p", "no:hypothesispytest",
        str(suite),
    ]  # fmt: skip
    piped = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    code, screen = on_terminal(args)
    out, err = piped.communicate(timeout=300)
    assert code == 1, screen  # 82.42 is not noticed by that suite
    assert "mutation runs" in screen
    assert "━" in screen
    assert "3/3 runs" in screen
    assert "82.41  caught" in screen
    assert "82.42  MISSED" in screen
    assert piped.returncode == 1, out + err
    lines = out.splitlines()
    assert lines[0].startswith("baseline passes in ")
    assert lines[1].startswith("   82.41  caught  (")
    assert lines[2].startswith("   82.42  MISSED  (")
    assert lines[3:] == ["caught 1 of 2", "not caught: 82.42"]
    assert "━" not in out + err
    assert "\x1b" not in out + err
