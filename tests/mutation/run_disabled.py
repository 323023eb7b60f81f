"""Mutation run: does some test notice when a clause's code is switched off?

For each clause rule 82's rulebook holds code under (`minors.rules82.RULEBOOK.registered()`:
rule 82, A25 and the K ids), run the test suite with `MINORS_DISABLE=<clause>`:
`tests/conftest.py` then builds every `Game` with that clause disabled, as
`Game.new(disabled={clause})` does, so the rulebook situations (tests/data/scenarios, played
by tests/test_scenarios.py), the contract tests and the property tests all play without it.
A clause is *caught* when the run fails.
The suite first runs unchanged: a baseline that fails would make every clause look caught.
`test_situation_depends_on_its_rule`, which switches clauses off itself, is left out of the
mutant runs (it would fail by construction).

    python tests/mutation/run_disabled.py [--jobs N] [--only CLAUSE ...] [PYTEST_ARG ...]

Each run is `python -m pytest -q -x -p no:cacheprovider` from a temporary folder (so
Hypothesis's example database of the checkout is not filled with the mutants' failures).
It prints one line per clause and `caught N of M` (on a terminal, under a progress bar of
the runs; into a pipe or a file, the lines alone); exit 0 when every clause was caught,
1 when some were not, 2 when the baseline fails. Not collected by pytest (tests/conftest.py
ignores this folder).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from minors.cli.progress import progress  # noqa: E402  (the checkout's, as the runs use)

DEPENDS = "tests/test_scenarios.py::test_situation_depends_on_its_rule"


def clauses() -> list[str]:
    """Every clause with code registered under it, in clause order."""
    from minors._kernel.rulebook import clause_key
    from minors.rules82 import RULEBOOK

    return sorted(RULEBOOK.registered(), key=clause_key)


def run(clause: str | None, extra: Sequence[str]) -> tuple[str | None, int, str, float]:
    """Run the suite with `clause` disabled (None: unchanged); (clause, exit, first
    failure, seconds)."""
    env = {**os.environ, "MINORS_PROFILE": os.environ.get("MINORS_PROFILE", "minors-ci")}
    env.pop("MINORS_DISABLE", None)
    if clause is not None:
        env["MINORS_DISABLE"] = clause
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    args = [
        sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-n", "0",
        "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT),
        *(extra or [str(ROOT / "tests")]),
    ]  # fmt: skip
    if clause is not None:
        # That test switches a situation's clauses off itself and expects a change: with
        # the clause already off for the whole run it fails by construction, not because
        # the suite noticed the clause missing.
        args += ["--deselect", DEPENDS]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="minors-mutant-") as cwd:
        done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return clause, done.returncode, (failed[0] if failed else ""), time.monotonic() - started


def main(argv: Sequence[str] | None = None) -> int:
    """Run the baseline, then every clause; print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once")
    parser.add_argument("--only", nargs="+", metavar="CLAUSE", help="only these clauses")
    parser.add_argument("pytest_args", nargs="*", help="what to run (default: tests/)")
    options = parser.parse_args(argv)

    wanted = options.only or clauses()
    caught: list[str] = []
    missed: list[str] = []
    # a bar on a terminal (the lines print above it), nothing when stdout is a pipe or file
    with progress("mutation runs", "runs", stderr=False) as advance:
        _, code, failure, seconds = run(None, options.pytest_args)
        if code != 0:
            print(f"baseline fails (exit {code}): {failure}; fix the suite first", file=sys.stderr)
            return 2
        print(f"baseline passes in {seconds:.0f} s", flush=True)
        advance(1, len(wanted) + 1)
        with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
            for done, (clause, code, failure, seconds) in enumerate(
                pool.map(lambda c: run(c, options.pytest_args), wanted), start=2
            ):
                assert clause is not None
                if code == 1:
                    caught.append(clause)
                    print(f"{clause:>8}  caught  ({seconds:.0f} s) {failure}", flush=True)
                elif code == 0:
                    missed.append(clause)
                    print(f"{clause:>8}  MISSED  ({seconds:.0f} s) no test failed", flush=True)
                else:
                    missed.append(clause)
                    print(f"{clause:>8}  ERROR   exit {code}: {failure}", flush=True)
                advance(done, len(wanted) + 1)
    print(f"caught {len(caught)} of {len(wanted)}")
    if missed:
        print(f"not caught: {', '.join(missed)}")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
