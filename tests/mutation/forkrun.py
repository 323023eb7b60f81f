"""A pytest plugin that runs mutants instead of the tests: collect once, then for each
mutant fork, put the mutant in force in the child (`mutants.apply`) and run the tests
selected for it, fastest first, stopping at the first failure.

Loaded by run_semantic.py (`-p forkrun`) with `MINORS_MUTANT_JOB` naming a JSON file:
`{"jobs": N, "timeout": S, "mutants": [{"mutant": {...}, "tests": [nodeid, ...], "budget": S}]}`;
one result line per mutant is appended to `MINORS_MUTANT_OUT`: `{"id", "status", "test",
"seconds", "ran", "budget"}` with status `killed`, `survived`, `timeout` or `error` (the
mutant could not be put in force), `ran` the number of its tests run (the killing one
included) and `budget` the baseline budget its tests were chosen with. The parent never
runs a test: every child starts from the collected, untouched session. The children's
verdicts pass through files in `MINORS_MUTANT_REPORTS` (a folder, removed at the end).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import mutants as mutation
import pytest
from _pytest.runner import runtestprotocol


def _child(mutant: mutation.Mutant, items: list[pytest.Item], report: Path) -> None:
    """In the forked child: apply the mutant, run the items, leave the verdict in `report`."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        mutation.apply(mutant)
    except Exception as exc:  # a mutant that cannot be put in force: say why
        report.write_text(json.dumps({"status": "error", "test": repr(exc)[:200]}))
        os._exit(0)
    for i, item in enumerate(items):
        nextitem = items[i + 1] if i + 1 < len(items) else None
        try:
            reports = runtestprotocol(item, nextitem=nextitem, log=False)
        except BaseException as exc:  # the mutant broke the harness itself: killed
            verdict = {"status": "killed", "test": f"{item.nodeid} ({exc!r})", "ran": i + 1}
            report.write_text(json.dumps(verdict))
            os._exit(0)
        if any(r.failed for r in reports):
            report.write_text(json.dumps({"status": "killed", "test": item.nodeid, "ran": i + 1}))
            os._exit(0)
    report.write_text(json.dumps({"status": "survived", "test": "", "ran": len(items)}))
    os._exit(0)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool:
    """Run the mutants of the job instead of the session's tests."""
    job = json.loads(Path(os.environ["MINORS_MUTANT_JOB"]).read_text(encoding="utf-8"))
    out = Path(os.environ["MINORS_MUTANT_OUT"])
    by_id = {item.nodeid: item for item in session.items}
    queue: list[dict[str, Any]] = list(job["mutants"])
    running: dict[int, tuple[dict[str, Any], float, Path]] = {}
    reports = Path(os.environ.get("MINORS_MUTANT_REPORTS") or out.parent)
    folder = reports / f"reports-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    jobs, timeout = int(job["jobs"]), float(job["timeout"])
    serial = 0

    def finish(entry: dict[str, Any], started: float, verdict: dict[str, Any]) -> None:
        line = {
            "id": entry["mutant"]["id"],
            **verdict,
            "seconds": round(time.monotonic() - started, 2),
        }
        if "budget" in entry:
            line["budget"] = entry["budget"]
        with out.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(line) + "\n")

    # the collected session is shared by every child: keep the collector from touching (and
    # so copying) its pages in each of them; nothing the tests or the mutants read changes
    gc.freeze()
    while queue or running:
        while queue and len(running) < jobs:
            entry = queue.pop(0)
            items = [by_id[t] for t in entry["tests"] if t in by_id]
            if not items:
                finish(entry, time.monotonic(), {"status": "no-test", "test": ""})
                continue
            serial += 1
            report = folder / f"{serial}.json"
            pid = os.fork()
            if pid == 0:
                _child(mutation.Mutant(**entry["mutant"]), items, report)
            budget = timeout + 2 * float(entry.get("baseline", 0))
            running[pid] = (entry, time.monotonic(), report, budget)  # type: ignore[assignment]
        time.sleep(0.005)
        for pid, (entry, started, report, budget) in list(running.items()):  # type: ignore[misc]
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done == 0:
                if time.monotonic() - started > budget:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    del running[pid]
                    finish(entry, started, {"status": "timeout", "test": ""})
                continue
            del running[pid]
            try:
                verdict = json.loads(report.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                verdict = {"status": "killed", "test": "(the child died)"}
            finish(entry, started, verdict)
    shutil.rmtree(folder, ignore_errors=True)
    return True
