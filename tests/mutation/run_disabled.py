"""Disabled-clause run: which tests notice a clause switched off?

For each rule and procedure of rule 82 and A25 (`tables/clauses.toml`), switch the clause
off and run the tests that cite it (`@pytest.mark.rule`, the rulebook situations, the A25
cases): `MINORS_DISABLE=<clause>` makes `tests/conftest.py` build every `Game` with the
clause disabled (its checks and effects off, as `Game.new(disabled=...)` does), give the
code marked with it (`minors.domain.marks`) the body `return otherwise`, and build the
tables with the rows that carry it removed or changed (`minors.rules82.carriers`: the status
transitions, start statuses, A25 trait rows, counters, class lists ...);
`MINORS_CITING=<clause>` keeps only the tests that cite it. A test counts for the clause
only if it fails.

The results are written to tests/mutation/disabled.json (checked in): for each clause, the
digest of its code and rows when it ran (`minors.cli.coverage.clause_digest`), the tests
that failed and those that passed. `minors rules coverage --check` (CI) reads the file: a
clause whose digest no longer matches is stale, one with no failing test is missed, and
either fails CI.

    python tests/mutation/run_disabled.py [--jobs N] [--only CLAUSE ...] [--stale] [-- ARG ...]

`--stale` runs only the clauses whose results are missing or stale (after a change of rule
code), `--only` the clauses named; the others' results are kept. Each clause's result is
written as soon as it is found (runs side by side share the file under a lock).
`--no-baseline` skips the unchanged run when the suite has just passed. The suite runs unchanged
first on the same tests (a failing baseline would make every clause look caught). Each run
is `python -m pytest -p no:cacheprovider -n 0` over the test files that cite the clause,
from a temporary folder. Exit 0 when every clause run was caught, 1 when some were missed,
2 when the baseline fails. Given pytest arguments after `--`, it runs those instead, with
each clause switched off and no test left out, and writes no results (a trial of the run
itself). On a terminal a progress bar counts the runs under the clause lines; into a pipe
or a file only the lines are printed. Not collected by pytest (tests/conftest.py ignores
this folder).
"""

from __future__ import annotations

import argparse
import fcntl
import json
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

RESULTS = ROOT / "tests" / "mutation" / "disabled.json"
DEPENDS = "tests/rules82/test_scenarios.py::test_situation_depends_on_its_rule"
# reads this run's own results, stale until the run ends: left out of every run
READS_RESULTS = "tests/cli/test_coverage.py::test_only_tests_that_fail_switched_off_count"


def plan() -> dict[str, list[str]]:
    """Each rule or procedure clause -> the test files that cite it."""
    from minors.cli.coverage import CASE_TEST, CHECKED, SITUATION_TEST, citations
    from minors.ruleset.tables import load_ruleset

    rs = load_ruleset()
    wanted = {c for c, record in rs.clauses.items() if record.kind in CHECKED}
    files: dict[str, set[str]] = {c: set() for c in wanted}
    for citation in citations(ROOT / "tests"):
        if citation.clause not in files:
            continue
        path = citation.test.split("::")[0]
        if path.startswith("tests/data/scenarios/"):
            path = SITUATION_TEST.split("::")[0]
        elif path.startswith("tests/data/"):
            path = CASE_TEST.split("::")[0]  # the A25 cases
        files[citation.clause].add(path)
    return {c: sorted(f) for c, f in sorted(files.items())}


def run(
    clause: str | None, files: Sequence[str], citing: bool = True
) -> tuple[str | None, dict[str, str], float]:
    """Run the tests of `files` that cite `clause` (all of them unless `citing`), with it
    switched off (None: the baseline, unchanged); (clause, {test: outcome}, seconds)."""
    env = {**os.environ, "MINORS_PROFILE": os.environ.get("MINORS_PROFILE", "minors-ci")}
    env.pop("MINORS_DISABLE", None)
    env.pop("MINORS_CITING", None)
    if citing:  # the baseline runs every test that cites some clause
        env["MINORS_CITING"] = clause or "*"
    if clause is not None:
        env["MINORS_DISABLE"] = clause
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="minors-disabled-") as cwd:
        out = Path(cwd) / "outcomes.jsonl"
        env["MINORS_OUTCOMES"] = str(out)
        args = [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
            "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT),
            "--deselect", DEPENDS, "--deselect", READS_RESULTS,
            *(str(ROOT / f) if f.startswith("tests/") else f for f in files),
        ]  # fmt: skip
        done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
        outcomes: dict[str, str] = {}
        if out.exists():
            for line in out.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                if outcomes.get(entry["test"]) != "failed":
                    outcomes[entry["test"]] = entry["outcome"]
    if done.returncode not in (0, 5) and "failed" not in outcomes.values():
        # no outcome was written (a suite outside tests/, without its conftest): the exit
        # status, or an error of collection, still says the run failed
        failed = [ln for ln in done.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        outcomes[failed[0] if failed else f"(pytest exit {done.returncode})"] = "failed"
    return clause, outcomes, time.monotonic() - started


ABOUT = (
    "tests/mutation/run_disabled.py: per clause, the digest of its code and rows when it ran, "
    "the citing tests that failed with it switched off, and those that passed"
)


def _save(clause: str, entry: dict[str, object]) -> None:
    """Write one clause's result into the results file at once (runs side by side each
    write theirs, under a lock): a run stopped midway keeps what it found."""
    with open(Path(tempfile.gettempdir()) / "minors-disabled.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        known = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
        clauses = {**known.get("clauses", {}), clause: entry}
        document = {"about": ABOUT, "clauses": dict(sorted(clauses.items()))}
        RESULTS.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the baseline, then every clause asked for; write the results."""
    from minors.cli.coverage import clause_code, clause_digest
    from minors.ruleset.tables import load_ruleset

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="runs at once")
    parser.add_argument("--only", nargs="+", metavar="CLAUSE", help="only these clauses")
    parser.add_argument("--stale", action="store_true", help="only missing or stale clauses")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the unchanged run (just made)"
    )
    parser.add_argument("pytest_args", nargs="*", help="a trial: run these instead")
    options = parser.parse_args(argv)
    trial = list(options.pytest_args)

    rs = load_ruleset()
    code = clause_code()
    files = plan()
    known = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    results: dict[str, dict[str, object]] = dict(known.get("clauses", {}))
    digests = {c: clause_digest(c, rs, code=code) for c in files}
    wanted = [c for c in files if files[c]]
    if options.only:
        wanted = [c for c in options.only if c in files or trial]
    if trial:
        files = dict.fromkeys(wanted, trial)
    if options.stale:
        wanted = [c for c in wanted if results.get(c, {}).get("digest") != digests[c]]
    every_file = sorted({f for c in wanted for f in files[c]})
    caught: list[str] = []
    missed: list[str] = []
    every_file = trial or every_file
    with progress("mutation runs", "runs", stderr=False) as advance:
        if not options.no_baseline:
            _, base, seconds = run(None, every_file, citing=not trial)
            broken = sorted(t for t, o in base.items() if o == "failed")
            if broken:
                print(f"baseline fails: {', '.join(broken[:5])}; fix the suite", file=sys.stderr)
                return 2
            print(f"baseline passes in {seconds:.0f} s ({len(base)} tests)", flush=True)
        advance(1, len(wanted) + 1)
        with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
            for done, (clause, outcomes, seconds) in enumerate(
                pool.map(lambda c: run(c, files[c], citing=not trial), wanted), start=2
            ):
                assert clause is not None
                failed = sorted(t for t, o in outcomes.items() if o == "failed")
                passed = sorted(t for t, o in outcomes.items() if o != "failed")
                if not trial:
                    digest = digests[clause]
                    results[clause] = {"digest": digest, "failed": failed, "passed": passed}
                    _save(clause, results[clause])
                (caught if failed else missed).append(clause)
                if failed:
                    line = (
                        f"caught  ({seconds:.0f} s) {len(failed)} of {len(outcomes)}: {failed[0]}"
                    )
                else:
                    line = f"MISSED  ({seconds:.0f} s) no test failed"
                print(f"{clause:>8}  {line}", flush=True)
                advance(done, len(wanted) + 1)
    print(f"caught {len(caught)} of {len(wanted)}")
    if missed:
        print(f"not caught: {', '.join(missed)}")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
