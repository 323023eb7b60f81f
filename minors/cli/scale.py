"""`minors simulate`, `minors explore` and `minors log verify-many`: the command line of
`minors.scale` (docs/scale.md), a job of which a `Runner` runs."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..errors import ScaleInputError
from .common import errors_exit_2
from .output import echo_json, fail, show
from .progress import progress

__all__ = ["explore", "simulate", "verify_many"]

F = TypeVar("F", bound=Callable[..., Any])

NEEDS = (
    "needs the scale extra (dask, distributed, Hypothesis): pip install 'minors[scale]' "
    "(from a checkout: pip install -e '.[scale]')"
)


def _scale() -> Any:
    """`minors.scale`, or exit 2 saying what to install."""
    try:
        import minors.scale as scale
    except ModuleNotFoundError as exc:
        fail(f"error: this command {NEEDS} ({exc.name} is missing)")
    return scale


def _run_options(func: F) -> F:
    """`--workers N` and `--scheduler ADDRESS`, shared by the three commands."""
    func = click.option(
        "--scheduler",
        metavar="ADDRESS",
        help="An existing Dask scheduler (tcp://host:8786): its workers do the work.",
    )(func)
    return click.option(
        "--workers",
        type=int,
        metavar="N",
        help="Worker processes of a local Dask cluster; 1 runs in this process. Default: one "
        "per core, or this process's threads for a small job.",
    )(func)


def _rulebook(spec: str | None) -> Any:
    """The rulebook `--rulebook` names, None without one."""
    if spec is None:
        return None
    from ..rules82 import find_rulebook

    return find_rulebook(spec)


@click.command("simulate")
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--campaigns", "count", type=int, default=100, show_default=True, metavar="N")
@click.option("--until", "until", required=True, metavar="MOMENT", help="The horizon.")
@click.option("--at", "at", metavar="MOMENT", help="Start from the scenario played to MOMENT.")
@click.option("--seed", type=int, default=0, show_default=True, metavar="S")
@click.option("--policy", metavar="MODULE:FUNCTION", help="(game, rng) -> command | None.")
@click.option("--ruleset", "overlays", multiple=True, metavar="FILE", help="Overlay (repeatable).")
@click.option("--rulebook", "rulebook_spec", metavar="RULEBOOK", help="rule82, winter-truce ...")
@click.option(
    "--versus-ruleset",
    "versus_overlays",
    multiple=True,
    metavar="FILE",
    help="The other side: these overlays over the first side's (repeatable).",
)
@click.option(
    "--versus-rulebook", "versus_rulebook", metavar="RULEBOOK", help="The other side's rulebook."
)
@click.option("--logs", "logs", metavar="DIR", help="Keep each campaign's audit log in DIR.")
@click.option(
    "--replay",
    "replay",
    type=int,
    metavar="I",
    help="Play campaign I again, alone, and print it as a scenario file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--html", "html_path", metavar="OUT.html", help="Also draw the report as a page.")
@_run_options
@errors_exit_2
def simulate(
    scenario: str | None,
    count: int,
    until: str,
    at: str | None,
    seed: int,
    policy: str | None,
    overlays: tuple[str, ...],
    rulebook_spec: str | None,
    versus_overlays: tuple[str, ...],
    versus_rulebook: str | None,
    logs: str | None,
    replay: int | None,
    as_json: bool,
    html_path: str | None,
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Play N campaigns from SCENARIO (the 1939 start without one) to the horizon, each
    with its own seed, and report per minor and season the statuses and majors,
    first-attack and conquest dates, BRP credits and the clauses fired, with 95 %
    intervals. With --versus-ruleset or --versus-rulebook the other rules play the same
    seeds, and the paired differences are reported.

    Exit 0; 1 when a campaign stopped on an error (a command the rules refused or a rule
    that failed: each is named on stderr, left out of the figures, and replays alone with
    --replay I); 2 for bad input."""
    scale = _scale()
    book = _rulebook(rulebook_spec)
    root = scale.root_game(scenario, at, overlays, book)
    spec = scale.Campaigns.of(root, until, seed, policy or scale.DEFAULT_POLICY, logs)
    if replay is not None:
        result, game, text = scale.replay_campaign(spec, replay)
        if as_json:
            echo_json(
                {
                    "campaign": replay,
                    "seed": result.seed,
                    "final": result.final,
                    "state": game.to_json(),
                    "scenario": text,
                }
            )
        else:
            click.echo(text, nl=False)
        return
    versus = None
    if versus_overlays or versus_rulebook:
        other_book = _rulebook(versus_rulebook) if versus_rulebook else book
        # over the first side's overlays: its --ruleset, or else its scenario file's own
        first = [str(source) for source in root.ruleset.sources]
        other_root = scale.root_game(scenario, at, (*first, *versus_overlays), other_book)
        other_logs = str(Path(logs) / "versus") if logs else None
        versus = scale.Campaigns.of(other_root, until, seed, spec.policy, other_logs)
    sides = 2 if versus is not None else 1
    with (
        progress("campaigns", "tasks") as advance,
        scale.Runner(
            workers=workers, scheduler=scheduler, small=count * sides < 32, progress=advance
        ) as runner,
    ):
        document = scale.simulate(spec, count, runner, versus)
    if html_path is not None:
        from ..scale.page import write

        write(document, root.ruleset, html_path)
        click.echo(f"minors: wrote {html_path}", err=True)
    if as_json:
        echo_json(document)
    else:
        show(_simulation_tables(document))
    played = [side for side in (document, document.get("versus")) if side is not None]
    for side in played:
        # --replay plays the first side: the other's campaigns replay under its rules
        rules = "" if side is document else _as_first(side["rules"])
        for error in side["errors"]:  # a rulebook's (or a policy's) bug: each replays alone
            click.echo(
                f"minors: {'' if side is document else 'versus '}campaign {error['campaign']} "
                f"(seed {error['seed']}) stopped: {error['error']}; replay it with "
                f"--replay {error['campaign']}{rules}",
                err=True,
            )
    sys.exit(1 if any(side["errors"] for side in played) else 0)


def _as_first(rules: dict[str, Any]) -> str:
    """The options that make the other side's rules the first side's, for `--replay`."""
    options = "".join(f" --ruleset {shlex.quote(overlay)}" for overlay in rules["overlays"])
    return f"{options} --rulebook {shlex.quote(rules['rulebook'])} (instead of the --versus-*)"


def _simulation_tables(document: dict[str, Any]) -> Any:
    """The report of `minors simulate` as rich tables (without --json)."""
    from rich.console import Group
    from rich.table import Table

    from ..scale.report import difference_cells, shown

    head = (
        f"{document['campaigns']} campaigns ({document['completed']} to the horizon), "
        f"{document['start']} -> {document['horizon']}, "
        f"seed {document['seed']}, policy {document['policy']}; ran on {document['ran_on']}; "
        "95% intervals (Wilson for shares, t for means)"
    )
    parts: list[Any] = [head]
    columns = ("Minor", "Statuses", "Majors", "Attacked", "Conquered", "Example")
    outcomes = Table(*columns, title="At the horizon, per minor", title_justify="left")
    for name, m in document["minors"].items():
        statuses = ", ".join(f"{k} {shown(v, True)}" for k, v in m["at_horizon"]["status"].items())
        majors = ", ".join(f"{k} {v['value']:.0%}" for k, v in m["at_horizon"]["major"].items())
        examples = ", ".join(f"{k}: #{i}" for k, i in m["examples"].items())
        dates = shown(m["attacked"], True), shown(m["conquered"], True)
        outcomes.add_row(name, statuses, majors, *dates, examples)
    parts.append(outcomes)
    brps = Table("Major", "BRPs", title="BRP credits at the horizon (mean)", title_justify="left")
    for major, b in document["brps"].items():
        brps.add_row(major, shown(b["at_horizon"]))
    parts.append(brps)
    heads = ("Clause", "Mean", "Campaigns")
    clauses = Table(*heads, title="Clauses fired, per campaign", title_justify="left")
    for rule, c in document["clauses"].items():
        clauses.add_row(rule, shown(c["per_campaign"]), shown(c["campaigns"], True))
    parts.append(clauses)
    versus = document.get("versus")
    if versus is not None:
        diff = Table(
            *("Measure", "Base", "Versus", "Difference", "p (Holm)"),
            title="Versus - base, paired by seed (differences whose interval excludes 0)",
            title_justify="left",
        )
        showing = [d for d in versus["differences"] if d["shows"]]
        for d in showing:
            diff.add_row(d["what"], *difference_cells(d))
        parts.append(diff)
        held = sum(1 for d in showing if d["p_holm"] is not None and d["p_holm"] < 0.05)
        parts.append(
            f"{len(showing)} of {len(versus['differences'])} measures that differ show a "
            f"difference, each at 95 %; {held} with Holm's correction for them all "
            "(p below 0.05; --json lists every measure)"
        )
    parts.append("replay any campaign: minors simulate ... --replay I")
    return Group(*parts)


@click.command("explore")
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--depth", type=int, metavar="D", help="At most D steps (a command or a pass).")
@click.option("--until", "until", metavar="MOMENT", help="Steps until the clock reaches MOMENT.")
@click.option("--at", "at", metavar="MOMENT", help="Start from the scenario played to MOMENT.")
@click.option(
    "--kinds",
    "kinds",
    metavar="K1,K2",
    help="Only commands of these kinds (comma-separated); default: every kind.",
)
@click.option(
    "--max-states", "max_states", type=int, default=100_000, show_default=True, metavar="N"
)
@click.option(
    "--no-reduction",
    "no_reduction",
    is_flag=True,
    help="Explore commuting commands in every order (no sleep sets).",
)
@click.option("--ruleset", "overlays", multiple=True, metavar="FILE", help="Overlay (repeatable).")
@click.option("--rulebook", "rulebook_spec", metavar="RULEBOOK", help="rule82, winter-truce ...")
@click.option(
    "--write",
    "folder",
    metavar="DIR",
    help="Write each violation's scenario to DIR/INVARIANT.toml.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_run_options
@errors_exit_2
def explore(
    scenario: str | None,
    depth: int | None,
    until: str | None,
    at: str | None,
    kinds: str | None,
    max_states: int,
    no_reduction: bool,
    overlays: tuple[str, ...],
    rulebook_spec: str | None,
    folder: str | None,
    as_json: bool,
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Explore every legal sequence of commands (and passes, which advance the clock a
    phase) from SCENARIO (the 1939 start without one) to a depth or a moment, positions
    deduplicated by key, every invariant of minors.testing checked in every position.
    Prints the positions, and for each broken invariant the shortest sequence that breaks
    it as a scenario file (`minors run` replays it). Exit 1 when an invariant breaks."""
    scale = _scale()
    book = _rulebook(rulebook_spec)
    root = scale.root_game(scenario, at, overlays, book)
    wanted = [k.strip() for k in kinds.split(",") if k.strip()] if kinds else None
    search = scale.Search.of(
        root, kinds=wanted, depth=depth, until=until, reduction=not no_reduction
    )
    runner = scale.Runner(workers=workers, scheduler=scheduler, small=max_states <= 5000)
    with progress("positions", "positions") as advance, runner:
        found = scale.explore(search, runner, max_states=max_states, progress=advance)
    where = runner.setup.describe()
    if folder is not None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for v in found.violations:
            path = Path(folder) / f"{v.invariant}.toml"
            path.write_text(v.scenario, encoding="utf-8")
            click.echo(f"minors: wrote {path}", err=True)
    if as_json:
        echo_json({**found.to_json(), "ran_on": where})
    else:
        lines = [
            f"{found.positions} positions, {found.states} states visited, to depth "
            f"{found.depth}; partial-order reduction: "
            f"{'sleep sets' if found.reduction else 'none'}; ran on {where}"
        ]
        if found.capped:
            lines.append(f"--max-states {found.max_states} reached: the search stopped there")
        if not found.violations:
            lines.append("no invariant broken")
        for v in found.violations:
            lines.append(
                f"\n{v.invariant} ({v.clause or 'the API'}) broken after {len(v.steps)} "
                f"steps: {'; '.join(v.problems)}"
            )
            lines.append(v.scenario.rstrip("\n"))
        show("\n".join(lines))
    sys.exit(1 if found.violations else 0)


@click.command("verify-many")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--rulebook", "rulebook_spec", metavar="RULEBOOK", help="As `log verify` takes it.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
@_run_options
@errors_exit_2
def verify_many(
    paths: tuple[str, ...],
    rulebook_spec: str | None,
    as_json: bool,
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Verify many logs in parallel (files, or folders of *.jsonl): one line per log and a summary.
    Exit 0 when all verify, 1 when any fails a check, else 2 when any cannot be verified here."""
    scale = _scale()
    from ..scale.verify import is_small

    book = _rulebook(rulebook_spec)
    logs = scale.logs_in(paths)
    if not logs:
        raise ScaleInputError(f"no logs: {', '.join(paths)} hold no *.jsonl file")
    with (
        progress("logs", "logs") as advance,
        scale.Runner(
            workers=workers, scheduler=scheduler, small=is_small(logs), progress=advance
        ) as runner,
    ):
        checked = scale.verify_many(logs, runner, book)
    counts = {
        o: sum(1 for c in checked if c.outcome == o) for o in ("ok", "failed", "unverifiable")
    }
    summary = (
        f"{len(checked)} logs: {counts['ok']} ok, {counts['failed']} failed, "
        f"{counts['unverifiable']} could not be verified"
    )
    if as_json:
        echo_json({"logs": [c.to_json() for c in checked], "summary": counts})
    else:
        for c in checked:
            click.echo(c.line())
        click.echo(summary)
    sys.exit(scale.exit_status(checked))
