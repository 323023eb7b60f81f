"""Semantic mutation run over the rule modules of rule 82 and A25 (on demand, not in CI).

    python tests/mutation/run_semantic.py map            # which tests run which function
    python tests/mutation/run_semantic.py run [--jobs N] [--module M ...] [--budget S]
                                              [--only ID ...] [--survivors]
                                              [--equivalent-budget S] [--out FILE]
                                              [--no-reorder]
    python tests/mutation/run_semantic.py report         # docs/mutation.md from the results
    python tests/mutation/run_semantic.py show ID        # a mutant's change, and its tests

`map` runs the suite once under coverage.py with a context per test (`pytest-cov`,
`--cov-context=test`, two workers) and keeps, for every function of the rule modules, the
tests that execute it, and every test's duration (build/mutation/, with its own time in
map.json). `run` makes every mutant of `mutants.MODULES` (`mutants.py` says which) and runs
each against the tests of its function only, those citing the function's clauses first,
then fastest first, until one fails, within a budget of baseline test time per mutant
(`--budget`, default 20 s: the tests that fit, and at least one; `--survivors` runs the
last survivors again). The mutants judged equivalent get `--equivalent-budget` (default
2 s) and run last. The test that killed a mutant in the last results is always among its
tests (chosen first, inside the budget), and its tests run with the earlier killers first:
that test, then those that killed most of its function's other mutants (`--no-reorder`:
neither). One pytest process per module
collects once and forks a child per mutant (`forkrun.py`), `--jobs` children at once.
Results go to tests/mutation/semantic.jsonl (checked in; `--out` for a trial), one line per
mutant, and the run's wall and CPU time and settings to semantic-run.json beside it.
`report` writes docs/mutation.md: the kill rate of the mutants not judged equivalent, every
survivor, every mutant judged equivalent with its reason (`equivalent.toml`, beside this
file: id -> reason), and the run's time.

Requires coverage and pytest-cov (`pip install -e '.[mutation]'`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tomllib
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "build" / "mutation"
RESULTS = HERE / "semantic.jsonl"
"""The results of the last run, one line per mutant, checked in beside this file: the
evidence docs/mutation.md is generated from."""
sys.path.insert(0, str(HERE))

import mutants as mutation  # noqa: E402

DOC = ROOT / "docs" / "mutation.md"
SITUATIONS = (
    "tests/rules82/test_scenarios.py::test_situation[",
    "tests/rules82/test_survivor_kinds.py::",
    "tests/rules82/test_fidelity.py::",
    "tests/rules82/test_war_checks.py::",
    "tests/rules82/test_movement_situations.py::",
    "tests/rules82/test_rule82_situations.py::",
    "tests/asl/test_a25_situations.py::",
)
A25_SITUATIONS = ("tests/asl/test_a25_situations.py::",)
"""The situation files about A25: tried on the mutants of minors.asl, the others on rule 82's."""
EQUIVALENT = HERE / "equivalent.toml"


def _env() -> dict[str, str]:
    env = {**os.environ, "MINORS_PROFILE": os.environ.get("MINORS_PROFILE", "minors-ci")}
    env.pop("MINORS_DISABLE", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), str(HERE), env.get("PYTHONPATH")]))
    return env


def build_map() -> int:
    """Run the suite under coverage with a context per test; keep the map and durations."""
    BUILD.mkdir(parents=True, exist_ok=True)
    args = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
        *(f"--cov={m}" for m in ("minors.rules82", "minors.asl")),
        "--cov-context=test", "--cov-report=", f"--junitxml={BUILD / 'junit.xml'}",
        str(ROOT / "tests"),
    ]  # fmt: skip
    env = {**_env(), "COVERAGE_FILE": str(BUILD / "coverage.db")}
    started, cpu = time.monotonic(), _cpu()
    sources = {m: (ROOT / (m.replace(".", "/") + ".py")).read_text() for m in mutation.MODULES}
    done = subprocess.run(args, cwd=ROOT, env=env)
    wall, cpu = time.monotonic() - started, _cpu() - cpu
    print(f"suite under coverage: exit {done.returncode} in {wall:.0f} s (CPU {cpu:.0f} s)")
    timing = {"date": _now(), "wall": round(wall, 1), "cpu": round(cpu, 1), "load": _load()}
    (BUILD / "map.json").write_text(json.dumps(timing) + "\n")
    # the sources as they were measured: the map is kept by function, not by line
    (BUILD / "sources.json").write_text(json.dumps(sources))
    return done.returncode


def _durations(junit: Path = BUILD / "junit.xml") -> dict[str, float]:
    """Each test's duration (s) from the map run's JUnit XML, by pytest node id."""
    found: dict[str, float] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        parts = classname.split(".")
        # tests.rules82.test_x[.Class] -> tests/rules82/test_x.py[::Class]
        index = next((i for i, p in enumerate(parts) if p.startswith("test_")), None)
        if index is None:
            continue  # a module that could not be collected (a skip)
        nodeid = "/".join(parts[: index + 1]) + ".py"
        for cls in parts[index + 1 :]:
            nodeid += f"::{cls}"
        found[f"{nodeid}::{name}"] = float(case.get("time", "0") or 0)
    return found


def _tests_by_scope() -> dict[tuple[str, str], set[str]]:
    """(module, scope) -> the tests that execute a line of it."""
    from coverage import CoverageData

    data = CoverageData(basename=str(BUILD / "coverage.db"))
    data.read()
    sources = json.loads((BUILD / "sources.json").read_text())
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for module in mutation.MODULES:
        path = str(ROOT / (module.replace(".", "/") + ".py"))
        by_line = data.contexts_by_lineno(path)
        for scope, (first, last) in mutation.scope_lines(module, sources.get(module)).items():
            for line in range(first, last + 1):
                for context in by_line.get(line, ()):
                    if context:
                        out[(module, scope)].add(context.rsplit("|", 1)[0])
                        out[(module, "<any>")].add(context.rsplit("|", 1)[0])
    return out


def _clauses_of(module: str) -> dict[str, set[str]]:
    """Scope -> the clauses its function is registered or marked under."""
    import importlib

    from minors.cli.coverage import clause_code
    from minors.rules82 import RULEBOOK

    found: dict[str, set[str]] = defaultdict(set)
    for entry in RULEBOOK.entries:
        fn = entry.function
        if entry.clause and getattr(fn, "__module__", "") == module:
            found[fn.__qualname__].add(entry.clause)
    for clause, functions in clause_code().items():
        for name, _ in functions:
            if name.startswith(module + "."):
                found[name.removeprefix(module + ".")].add(clause)
    importlib.import_module(module)
    return found


def _citing(clauses: set[str]) -> set[str]:
    """The tests (function-level ids) that cite any of `clauses`."""
    from minors.cli.coverage import citations

    if not hasattr(_citing, "by_clause"):
        by_clause: dict[str, set[str]] = defaultdict(set)
        for c in citations(ROOT / "tests"):
            by_clause[c.clause].add(c.test)
        _citing.by_clause = by_clause  # type: ignore[attr-defined]
    table = _citing.by_clause  # type: ignore[attr-defined]
    return {t for c in clauses for t in table.get(c, ())}


def _not_mapped() -> set[str]:
    """The tests of the situation files (`SITUATIONS`) written since the map was made: they
    are tried on every mutant of rule 82's modules, those of `A25_SITUATIONS` on A25's."""
    files = sorted(p for p in {ROOT / p.split("::")[0] for p in SITUATIONS} if p.is_file())
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *map(str, files)],
        cwd=ROOT, env=_env(), capture_output=True, text=True,
    )  # fmt: skip
    known = set(_durations())
    return {
        line.strip()
        for line in done.stdout.splitlines()
        if "::" in line and line.strip() not in known
    }


def _select(
    tests: set[str],
    durations: dict[str, float],
    budget: float,
    first: set[str] = frozenset(),
    new: set[str] = frozenset(),
) -> list[str]:
    """The tests of `tests` whose durations fit in `budget` (at least one): the situations
    written since the map (`new`, for the survivors), then those that cite the function's
    clauses (`first`: function-level ids, or situation files), then the rest, each part
    fastest first."""

    def cites(test: str) -> bool:
        if any(test == f or test.startswith(f + "[") for f in first):
            return True
        name = test.rsplit("[", 1)[-1].rstrip("]")
        return f"tests/data/scenarios/{name}.json" in first

    def rank(test: str) -> tuple[int, float, str]:
        # the function's own clauses first, then the rulebook situations and the findings
        # of issue 14 (small, each about one rule), then the rest, fastest first
        situation = test.startswith(SITUATIONS)
        order = -1 if test in new else 0 if cites(test) else 1 if situation else 2
        return (order, durations.get(test, 0.5), test)

    ordered = sorted(tests, key=rank)
    chosen: list[str] = []
    spent = 0.0
    for test in ordered:
        cost = durations.get(test, 0.5)
        if chosen and spent + cost > budget:
            break
        chosen.append(test)
        spent += cost
    return chosen


def _cpu() -> float:
    """CPU seconds (user and system) of this process and of its children waited for so far:
    the pytest processes and the children they forked, each mutant's included."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _record_path(results: Path) -> Path:
    """Where a run keeps its own time and settings: beside its results (semantic-run.json)."""
    return results.with_name(results.stem + "-run.json")


def _read_record(results: Path) -> dict[str, Any]:
    path = _record_path(results)
    if not path.exists():
        return {"modules": {}}
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def _killers(
    kept: list[dict[str, Any]], mutants: list[mutation.Mutant]
) -> tuple[dict[str, str], dict[str, Counter[str]]]:
    """From earlier results: the test that killed each of `mutants`, and for each function
    (scope) the tests that killed its mutants, each with the number it killed."""
    scope_of = {m.id: m.scope for m in mutants}
    own: dict[str, str] = {}
    by_scope: dict[str, Counter[str]] = defaultdict(Counter)
    for r in kept:
        test = str(r.get("test", "")).split(" (", 1)[0]
        if r.get("status") != "killed" or "::" not in test or r["id"] not in scope_of:
            continue
        own[r["id"]] = test
        by_scope[scope_of[r["id"]]][test] += 1
    return own, by_scope


def _order(chosen: list[str], own: str | None, siblings: Counter[str]) -> list[str]:
    """The tests `chosen` in the order to run them: the one that killed this mutant last
    time, then those that killed most of its function's other mutants, then as chosen. The
    set is the one the budget chose: the order only makes a kill come sooner."""
    place = {t: i for i, t in enumerate(chosen)}
    return sorted(chosen, key=lambda t: (t != own, -siblings.get(t, 0), place[t]))


def run(
    modules: list[str],
    jobs: int,
    budget: float,
    only: list[str] | None,
    survivors: bool = False,
    equivalent_budget: float | None = None,
    results: Path = RESULTS,
    reorder: bool = True,
) -> int:
    """Run the mutants of `modules` (or the mutants `only` names), module by module.

    The mutants judged equivalent (`equivalent.toml`) run last in their module, their tests
    chosen within `equivalent_budget` (`budget` when None); the others, earlier survivors
    first (the longest runs, so that no child is left running alone at a module's end).
    Each mutant's tests are run in the order `_order` gives. The run's own wall and CPU time
    and its settings go to `_record_path(results)`, per module and in all."""
    started_at, cpu_at, load_at = time.monotonic(), _cpu(), _load()
    equivalent_budget = budget if equivalent_budget is None else equivalent_budget
    equivalents = set(_equivalents())
    durations = _durations()
    tests = _tests_by_scope()
    added = _not_mapped()
    if added:  # time the situations written since the map, so that the budget counts them
        timed = BUILD / "added.xml"
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
             f"--junitxml={timed}", *sorted(added)],
            cwd=ROOT, env=_env(), capture_output=True,
        )  # fmt: skip
        if timed.exists():
            durations.update(_durations(timed))
    kept: list[dict[str, Any]] = []
    if results.exists():
        kept = [json.loads(line) for line in results.read_text().splitlines() if line]
        if survivors:  # the survivors of the modules named, not every module's
            named = {m.id for module in modules for m in mutation.mutants(module)}
            only = [
                r["id"] for r in kept if r["status"] in ("survived", "no-test") and r["id"] in named
            ]
        drop = (
            set(only)
            if only is not None
            else {m.id for module in modules for m in mutation.mutants(module)}
        )
        results.write_text("".join(json.dumps(r) + "\n" for r in kept if r["id"] not in drop))
    earlier = {r["id"]: r for r in kept}
    record = _read_record(results)
    settings = {
        "jobs": jobs,
        "budget": budget,
        "equivalent_budget": equivalent_budget,
        "partial": only is not None,
    }
    prepared = {"wall": time.monotonic() - started_at, "cpu": _cpu() - cpu_at}
    total_started = time.monotonic()
    for module in modules:
        found = [m for m in mutation.mutants(module) if only is None or m.id in only]
        if not found:
            continue
        module_started, module_cpu = time.monotonic(), _cpu()
        clause_of = _clauses_of(module)
        own, siblings = _killers(kept, mutation.mutants(module)) if reorder else ({}, {})
        entries: list[dict[str, Any]] = []
        files: set[str] = set()
        for m in found:
            # a function added since the map was made: the tests of its module
            found_tests = tests.get((module, m.scope)) or tests.get((module, "<any>"), set())
            a25 = not module.startswith("minors.rules82")
            new = {t for t in added if t.startswith(A25_SITUATIONS) == a25}
            found_tests = found_tests | new
            first = _citing(clause_of.get(m.scope, set()))
            allowed = equivalent_budget if m.id in equivalents else budget
            # the test that killed it in the last results is chosen first, inside the
            # budget: a situation written for it would otherwise rank behind the tests
            # citing its clauses once the map knows it, and may not fit
            killer = own.get(m.id)
            prior = new | ({killer} if killer in found_tests else set())
            chosen = _select(found_tests, durations, allowed, first, prior)
            if reorder:
                chosen = _order(chosen, own.get(m.id), siblings.get(m.scope, Counter()))
            files.update(t.split("::")[0] for t in chosen)
            entries.append(
                {
                    "mutant": m.__dict__,
                    "tests": chosen,
                    "baseline": sum(durations.get(t, 0) for t in chosen),
                    "budget": allowed,
                }
            )

        def queue_rank(entry: dict[str, Any]) -> int:
            ident = entry["mutant"]["id"]
            if ident in equivalents:
                return 2
            return 1 if earlier.get(ident, {}).get("status") == "killed" else 0

        entries.sort(key=queue_rank)  # stable: source order within each part
        job = BUILD / f"job-{module}.json"
        job.write_text(json.dumps({"jobs": jobs, "timeout": 30, "mutants": entries}))
        env = {
            **_env(),
            "MINORS_MUTANT_JOB": str(job),
            "MINORS_MUTANT_OUT": str(results),
            "MINORS_MUTANT_REPORTS": str(BUILD),
        }
        args = [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
            "-p", "forkrun", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT),
            *sorted(str(ROOT / f) for f in files),
        ]  # fmt: skip
        if files:
            subprocess.run(args, cwd=ROOT, env=env, capture_output=True)
        else:  # no test runs any of these functions
            with results.open("a") as stream:
                for e in entries:
                    line = {"id": e["mutant"]["id"], "status": "no-test", "test": "", "seconds": 0}
                    stream.write(json.dumps(line) + "\n")
        wall, cpu = time.monotonic() - module_started, _cpu() - module_cpu
        record["modules"][module] = {
            "date": _now(),
            **settings,
            "mutants": len(found),
            "wall": round(wall, 1),
            "cpu": round(cpu, 1),
        }
        _record_path(results).write_text(json.dumps(record, indent=1) + "\n")
        print(
            f"{module}: {len(found)} mutants in {wall:.0f} s (CPU {cpu:.0f} s)",
            flush=True,
        )
    wall, cpu = time.monotonic() - started_at, _cpu() - cpu_at
    if only is None and set(modules) >= set(mutation.MODULES):
        # a run of every module: the figures docs/mutation.md gives for the run
        record["run"] = {
            "date": _now(),
            **settings,
            "cpus": os.cpu_count(),
            "load": [load_at, _load()],
            "mutants": sum(record["modules"][m]["mutants"] for m in mutation.MODULES),
            "prepare": {k: round(v, 1) for k, v in prepared.items()},
            "wall": round(wall, 1),
            "cpu": round(cpu, 1),
            "map": _map_record(),
        }
        _record_path(results).write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"all modules: {time.monotonic() - total_started:.0f} s; with the preparation "
        f"{wall:.0f} s wall, {cpu:.0f} s CPU (load {load_at} -> {_load()})"
    )
    return 0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _map_record() -> dict[str, Any]:
    """The time and date of the map the run used (`build_map` keeps them)."""
    path = BUILD / "map.json"
    found: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    return found


def _equivalents() -> dict[str, str]:
    if not EQUIVALENT.exists():
        return {}
    return {
        k: str(v) for k, v in tomllib.loads(EQUIVALENT.read_text()).get("equivalent", {}).items()
    }


def report(path: Path = RESULTS) -> int:
    """Write docs/mutation.md from the results, the judged equivalents and the run's record."""
    results = {}
    for line in path.read_text().splitlines():
        if line:
            entry = json.loads(line)
            results[entry["id"]] = entry
    every = {m.id: m for m in mutation.all_mutants()}
    equivalent = {k: v for k, v in _equivalents().items() if k in every}
    judged = [i for i in every if i not in equivalent and i in results]
    killed = [i for i in judged if results[i]["status"] in ("killed", "timeout")]
    survived = [i for i in judged if results[i]["status"] not in ("killed", "timeout")]
    missing = [i for i in every if i not in results and i not in equivalent]
    rate = 100 * len(killed) / len(judged) if judged else 0.0
    per_module: dict[str, Counter[str]] = defaultdict(Counter)
    for i in judged:
        per_module[every[i].module]["killed" if i in killed else "survived"] += 1
    wrongly = [i for i in equivalent if results.get(i, {}).get("status") in ("killed", "timeout")]
    lines = [
        "# Semantic mutation run",
        "",
        "Generated by `python tests/mutation/run_semantic.py report` from the last run of",
        "`tests/mutation/run_semantic.py` (docs/testing.md says how to run it); do not edit by",
        "hand. The mutants are the small changes `tests/mutation/mutants.py` makes to the rule",
        "modules of rule 82 and A25: flipped comparisons, `and`/`or` swapped, dropped conditions",
        "and `not`s, off-by-ones, `True`/`False` and the sides swapped, `min`/`max` and",
        "`any`/`all` swapped, `+`/`-` swapped, call statements deleted, `continue`/`break`",
        "swapped. Each runs against the tests that execute its function, fastest first, those",
        "that killed its function's other mutants before ahead of them.",
        "",
        f"**{len(killed)} of {len(judged)} mutants killed ({rate:.1f} %)**, not counting the",
        f"{len(equivalent)} judged equivalent (below, each with its reason); "
        f"{len(every)} mutants in all.",
        "",
        "| module | killed | survived | rate |",
        "|---|---|---|---|",
    ]
    for module in mutation.MODULES:
        c = per_module[module]
        n = c["killed"] + c["survived"]
        lines.append(
            f"| `{module}` | {c['killed']} | {c['survived']} | "
            f"{100 * c['killed'] / n if n else 0:.0f} % |"
        )
    if missing:
        lines += ["", f"Not run yet: {len(missing)} mutants."]
    if wrongly:
        lines += [
            "",
            "Judged equivalent but killed (the judgement is wrong): " + ", ".join(wrongly),
        ]
    lines += [
        "",
        f"## Survivors ({len(survived)})",
        "",
        "| mutant | line | status |",
        "|---|---|---|",
    ]
    for i in sorted(survived, key=lambda i: (every[i].module, every[i].line)):
        m = every[i]
        lines.append(f"| `{_cell(i)}` | {m.path}:{m.line} | {results[i]['status']} |")
    budgets = sorted({results[i].get("budget") for i in equivalent if i in results} - {None})
    lines += ["", f"## Judged equivalent ({len(equivalent)})", ""]
    if budgets:
        lines += [
            "They run last in their module, their tests chosen within "
            + " or ".join(f"{b:g} s" for b in budgets)
            + " of baseline time (`--equivalent-budget`), not the full budget: they are not",
            "counted in the rate, and a kill within that budget still shows a judgement wrong.",
            "",
        ]
    lines += ["| mutant | why |", "|---|---|"]
    for i, why in sorted(equivalent.items()):
        lines.append(f"| `{_cell(i)}` | {why} |")
    lines += _timing(_read_record(path))
    DOC.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(killed)} of {len(judged)} killed ({rate:.1f} %); {len(equivalent)} equivalent")
    return 0


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"


def _timing(record: dict[str, Any]) -> list[str]:
    """The section of docs/mutation.md on the run's own time and settings (`run` records
    them): the last run of every module, and each module's last run since."""
    lines = ["", "## The run's time", ""]
    modules = record.get("modules", {})
    last = record.get("run")
    if not modules:
        lines += [
            "Not recorded: these results predate the run's record of its own time",
            "(tests/mutation/semantic-run.json, written by `run`).",
        ]
        return lines
    if last:
        mapped = last.get("map") or {}
        whole = last["wall"] + mapped.get("wall", 0)
        cpu = last["cpu"] + mapped.get("cpu", 0)
        lines += [
            f"The last run of every module ({last['date']}, {last['mutants']} mutants, "
            f"`--jobs {last['jobs']}`, `--budget {last['budget']:g}`, "
            f"`--equivalent-budget {last['equivalent_budget']:g}`, on {last['cpus']} cores, "
            f"load {last['load'][0]:g} at the start and {last['load'][1]:g} at the end): "
            f"**{_minutes(whole)} wall, {_minutes(cpu)} CPU**, of which the map "
            + (
                f"{_minutes(mapped['wall'])} wall ({_minutes(mapped['cpu'])} CPU, {mapped['date']})"
                if mapped
                else "(not recorded)"
            )
            + f" and the run {_minutes(last['wall'])} wall ({_minutes(last['cpu'])} CPU).",
        ]
        since = [m for m in mutation.MODULES if modules.get(m, {}).get("date", "") > last["date"]]
        if since:
            lines += [
                "",
                "Run again since, alone (their results replace that run's): "
                + ", ".join(f"`{m}`" for m in since)
                + ".",
            ]
    else:
        lines += ["No run of every module recorded yet: each module's last run below."]
    lines += [
        "",
        "| module | mutants | wall | CPU | jobs | budget | when |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in mutation.MODULES:
        e = modules.get(m)
        if e is None:
            lines.append(f"| `{m}` | | | | | | not run |")
            continue
        budget = f"{e['budget']:g} s / {e['equivalent_budget']:g} s"
        what = e["date"] + (" (some mutants)" if e.get("partial") else "")
        lines.append(
            f"| `{m}` | {e['mutants']} | {e['wall']:.0f} s | {e['cpu']:.0f} s | {e['jobs']} | "
            f"{budget} | {what} |"
        )
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def show(ident: str) -> int:
    """Print one mutant and the tests its function selects."""
    for m in mutation.all_mutants():
        if m.id == ident or ident in m.id:
            print(json.dumps(m.__dict__, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["map", "run", "report", "show"])
    parser.add_argument("ident", nargs="?")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", type=float, default=20.0)
    parser.add_argument("--module", nargs="+", default=list(mutation.MODULES))
    parser.add_argument("--only", nargs="+", help="mutant ids")
    parser.add_argument("--survivors", action="store_true", help="run the survivors again")
    parser.add_argument(
        "--equivalent-budget",
        type=float,
        default=2.0,
        help="the budget of the mutants judged equivalent (seconds; they run last)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=RESULTS,
        help="the results file (a trial run: not the checked-in one)",
    )
    parser.add_argument(
        "--no-reorder",
        action="store_true",
        help="run each mutant's tests in the order chosen, not earlier killers first",
    )
    options = parser.parse_args(argv)
    if options.step == "map":
        return build_map()
    if options.step == "run":
        return run(
            options.module,
            options.jobs,
            options.budget,
            options.only,
            options.survivors,
            equivalent_budget=options.equivalent_budget,
            results=options.out,
            reorder=not options.no_reorder,
        )
    if options.step == "report":
        return report(options.out)
    return show(options.ident or "")


if __name__ == "__main__":
    sys.exit(main())
