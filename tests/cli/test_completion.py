"""Shell completion as docs/cli.md documents it: click's scripts for bash, zsh and fish,
and the bash one completing commands and choices in a real bash."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import paths

DOCS = paths.DOCS / "cli.md"
MINORS = Path(sys.executable).parent / "minors"


def _documented(shell: str) -> str:
    """The line docs/cli.md gives for `shell`."""
    block = re.search(r"```sh\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"# {shell}:")))
    return lines[start + 1]


def _env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{MINORS.parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def _bash_completes(*lines: list[str]) -> list[list[str]]:
    """What the documented bash line makes <Tab> offer after each command line (its last
    word being completed), in one bash."""
    if not MINORS.exists() or shutil.which("bash") is None:
        pytest.skip("needs bash and the installed `minors` script beside the interpreter")
    script = [_documented("bash")]
    for words in lines:
        script += [
            "COMPREPLY=()",
            f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}",
            f"_minors_completion minors {words[-1]!r} {words[-2]!r}",
            'echo "${COMPREPLY[*]}"',
        ]
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)], capture_output=True, text=True, env=_env(), check=True
    )
    return [line.split() for line in done.stdout.splitlines()]


def test_bash_completes_commands_subcommands_and_choices() -> None:
    """With the documented line, bash offers `replay` and `report` for `minors re`,
    `verify` and `verify-many` for `minors log v`, and the diagram's formats for
    `--format`."""
    assert _bash_completes(
        ["minors", "re"], ["minors", "log", "v"], ["minors", "rules", "diagram", "--format", ""]
    ) == [["replay", "report"], ["verify", "verify-many"], ["dot", "mermaid", "svg"]]


@pytest.mark.parametrize(
    ("shell", "marks"),
    [
        ("zsh", ["#compdef minors", "_minors_completion"]),
        ("fish", ["function _minors_completion", "complete --no-files --command minors"]),
    ],
)
def test_each_documented_shell_gets_its_script(shell: str, marks: list[str]) -> None:
    """`_MINORS_COMPLETE={shell}_source minors`, as docs/cli.md writes it, prints that
    shell's completion script (bash's is run by the test above)."""
    line = _documented(shell)
    assert f"_MINORS_COMPLETE={shell}_source minors" in line
    if not MINORS.exists():
        pytest.skip("needs the installed `minors` script beside the interpreter")
    done = subprocess.run(
        [str(MINORS)],
        capture_output=True,
        text=True,
        env={**_env(), "_MINORS_COMPLETE": f"{shell}_source"},
        check=True,
    )
    for mark in marks:
        assert mark in done.stdout
