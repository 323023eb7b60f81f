"""The `minors` command line."""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from typing import Any

import click

from ..ruleset import render
from ..ruleset.tables import load_ruleset
from .common import (
    errors_exit_2,
    force_option,
    load_rulebook,
    overlays_option,
    print_game,
    rulebook_option,
)
from .files import check_outputs
from .logs import continue_command, log, replay
from .output import echo_json, fail, one_line, show
from .pictures import report as picture_report
from .scale import explore, simulate, verify_many

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version("minors"), "--version", prog_name="minors")
def main() -> None:
    """A rules kernel for the minor countries of A World at War (rule 82) and ASL A25."""
    from .output import setup

    setup()  # a console that cannot encode "—" gets "-", never a UnicodeEncodeError


@main.command()
@click.argument("name", required=False)
@click.argument("entry", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON.")
@overlays_option
@errors_exit_2
def tables(name: str | None, entry: str | None, as_json: bool, overlays: tuple[str, ...]) -> None:
    """Show the rule tables (all, or the view or table NAME, or its ENTRY), with overlays
    merged in.

    NAME is a view (forces, commonwealth, minors, powers, diplomacy, limits, clauses) or a
    table of tables/*.toml (costs, limit_groups ...); ENTRY is one entry of it
    (`minors tables minors Sweden`). An unknown name exits 2 with the closest ones.
    """
    rs = load_ruleset(overlays)
    document: dict[str, Any] = {"digest": rs.digest, "overlays": list(rs.sources)}
    if name is not None and entry is not None:
        if as_json:
            echo_json({**document, "tables": render.entry_json(rs, name, entry)})
        else:
            show(render.entry_view(rs, name, entry))
            show(f"tables digest {rs.digest}")
        return
    names = [name] if name else list(render.VIEWS)
    sections = [s for n in names for s in render.table_sections(rs, n)]
    if as_json:
        echo_json({**document, "tables": render.sections_json(rs, tuple(sections))})
        return
    for n in names:
        if n.lower() in render.VIEWS:
            show(render.view(rs, n.lower()))
        else:
            data = render.sections_json(rs, render.table_sections(rs, n))
            click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    sources = f" (overlays: {', '.join(rs.sources)})" if rs.sources else ""
    show(f"tables digest {rs.digest}{sources}")


@main.command()
# click.Path() without dir_okay=False: the reader refuses a folder in one line, as any file
@click.argument("file", required=False, type=click.Path())
@click.option(
    "--until",
    "until",
    metavar="MOMENT",
    help="Apply the commands stamped before MOMENT, then advance to it.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON state.")
@click.option(
    "--log",
    "log_path",
    metavar="PATH",
    type=click.Path(dir_okay=False),
    help="Write the log of the run (JSON Lines).",
)
@click.option(
    "--ruleset",
    "overlays",
    multiple=True,
    metavar="FILE",
    help="Overlay tables; they replace the file's own overlays (repeatable).",
)
@rulebook_option
@click.option(
    "--html",
    "html_path",
    metavar="OUT.html",
    type=click.Path(dir_okay=False),
    help="Also write the picture of the run: one HTML page (see `minors report`).",
)
@force_option
@errors_exit_2
def run(
    file: str | None,
    until: str | None,
    as_json: bool,
    log_path: str | None,
    overlays: tuple[str, ...],
    rulebook_spec: str | None,
    html_path: str | None,
    force: bool,
) -> None:
    """Play a scenario FILE (without one, the built-in sample campaign) and report.

    Exit 0 when the run completes, 3 when a command breaks a rule (the state before it is
    printed, with the error), 2 when the file or its values are malformed.
    """
    from ..scenario import BUILT_IN, ScenarioRuleViolation, load_scenario, run_scenario

    book = load_rulebook(rulebook_spec)
    error: dict[str, Any] | None = None
    try:
        reads: list[str] = []  # never written over: the scenario and the overlays it reads
        if file is not None and (log_path or html_path):
            scenario = load_scenario(file, book.kinds if book is not None else None)
            reads = [file, *scenario.ruleset, *overlays]
        check_outputs([("--log", log_path), ("--html", html_path)], reads, force=force)
        source, ruleset = BUILT_IN if file is None else file, list(overlays) or None
        game = run_scenario(source, until, ruleset=ruleset, log=log_path, rulebook=book)
        code = 0
    except ScenarioRuleViolation as exc:
        game, error, code = exc.game, exc.error_object(), 3
    if html_path is not None:
        from .pictures import write_run_page

        write_run_page(game, file, error, html_path)
    print_game(game, as_json, error)
    if error is not None and not as_json:  # the state stops before the command; why: stderr
        click.echo(
            f"minors: command {error['command']} broke rule {error['rule']}: "
            f"{one_line(error['message'])}",
            err=True,
        )
    sys.exit(code)


@main.group()
def rules() -> None:
    """Traceability of the rules: the tests and code behind each clause."""


@rules.command("diagram")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["dot", "mermaid", "svg"]),
    default="dot",
    show_default=True,
    help="dot and mermaid are text; svg is drawn by Graphviz's `dot` program.",
)
def rules_diagram(fmt: str) -> None:
    """The statuses of a minor country (82.11) and their transitions, drawn from the
    rulebook's Machine: each arrow is a trigger with its conditions."""
    import shutil
    import subprocess

    from ..rules82.machine import dot, mermaid

    if fmt != "svg":
        click.echo(mermaid() if fmt == "mermaid" else dot(), nl=False)
        return
    program = shutil.which("dot")
    if program is None:
        fail(
            "error: --format svg needs Graphviz's dot program (Debian: apt-get install "
            "graphviz); --format dot prints its input"
        )
    drawn = subprocess.run(
        [program, "-Tsvg"], input=dot().encode(), capture_output=True, check=False
    )
    if drawn.returncode != 0:
        problem = drawn.stderr.decode(errors="replace").strip().splitlines()
        fail(f"error: dot failed: {problem[0] if problem else drawn.returncode}")
    click.echo(drawn.stdout.decode(), nl=False)


@rules.command("coverage")
@click.option("--json", "as_json", is_flag=True, help="Print {clause: {tests, code, kind}}.")
@click.option("--markdown", is_flag=True, help="Print the Markdown of docs/rules-coverage.md.")
@click.option(
    "--check",
    is_flag=True,
    help="Exit 1 listing each rule or procedure of rule 82 and A25 that no test cites, no code "
    "or data carries, or no test notices switched off (the disabled-clause run's results, "
    "stale when its code or rows changed).",
)
@click.option(
    "--tests",
    "tests_dir",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="The tests folder to read (default: the checkout's).",
)
def rules_coverage(as_json: bool, markdown: bool, check: bool, tests_dir: str | None) -> None:
    """Every clause of rule 82 and A25 with the tests that cite it and the code registered
    under it. Reads the tests of a checkout: exit 2 when there is none."""
    from pathlib import Path

    from . import coverage as cov

    try:
        tests = Path(tests_dir) if tests_dir else cov.checkout_tests()
        report = cov.coverage(tests)
    except cov.CoverageError as exc:
        fail(f"error: {exc}")
    if check:
        found = cov.problems(report)
        for line in found:
            click.echo(line)
        checked = {p.split(" ")[0] for p in found}
        click.echo(
            f"{len(found)} problems in {len(checked)} rules or procedures of rule 82 and A25"
            if found
            else "every rule and procedure of rule 82 and A25 is cited, carried, and caught"
        )
        sys.exit(1 if found else 0)
    if as_json:
        echo_json(cov.to_json(report))
    else:
        for line in cov.to_markdown(report) if markdown else cov.to_text(report):
            click.echo(line)


def _nationality_table(found: Any) -> Any:
    """A profile as rich tables: its traits with their clauses, and its projections."""
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table

    ctx = found.context
    lineage = " < ".join(found.lineage)
    via = f" (the troops of {found.country})" if found.country else ""
    title = (
        f"{lineage}{via} — {ctx.date}; class {ctx.unit_class or 'any'}; unit"
        f" {ctx.unit or 'any'}; vs {ctx.vs or 'any'}; {'at home' if ctx.home else 'abroad'};"
        f" SSR {', '.join(sorted(ctx.ssr)) or 'none'}; {ctx.scenario_kind.value}"
    )
    table = Table(title=escape(title), title_justify="left")
    for column in ("Trait", "Aspect", "Value", "Condition", "Clause", "Basis"):
        table.add_column(column, overflow="fold")
    for trait in found.traits:
        cells = (trait.kind.value, trait.aspect, trait.value_text, str(trait.condition))
        table.add_row(*map(escape, cells), trait.clause, trait.basis.value)
    summary = Table(title="Projections (for a squad unless --unit)", title_justify="left")
    summary.add_column("Projection")
    summary.add_column("Value", overflow="fold")
    document = found.to_json()
    for key in (
        "to_hit",
        "to_hit_by_weapon",
        "paatc",
        "broken_morale_delta",
        "lax",
        "stealthy",
        "cowering_immune",
        "self_rally",
        "may_deploy",
        "no_quarter",
        "panzerfaust",
    ):
        value = document[key]
        text = json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else str(value)
        varies = value is None and bool(found.by_class)
        summary.add_row(key, "varies by class" if varies else escape(text))
    summary.add_row("rules", ", ".join(found.rules))
    return Group(table, summary)


@main.command("nationality")
@click.argument("name")
@click.option(
    "--date", "when", metavar="YYYY-MM", help="The scenario's month (required unless --scenario)."
)
@click.option(
    "--class",
    "unit_class",
    metavar="CLASS",
    help="elite, first_line, second_line, green, conscript (or inexperienced, non_elite);"
    " British Conscripts only with --scenario-kind hypothetical (A25.41).",
)
@click.option(
    "--unit", metavar="TYPE", help="squad, half_squad, crew, leader, commissar, or a rating."
)
@click.option(
    "--vs",
    metavar="NAME",
    help="The opposing nationality or country (the whole opposing OB). Only opponent-bound"
    " traits read it; a country A25 does not describe (Japan) is an opponent no row"
    " names. With --scenario: the one opponent, instead of one profile per enemy.",
)
@click.option("--home", is_flag=True, help="They fight within their own borders.")
@click.option(
    "--ssr",
    "ssrs",
    multiple=True,
    metavar="NAME",
    help="A special rule in force (repeatable, or comma-separated).",
)
@click.option(
    "--scenario-kind",
    default="historical",
    show_default=True,
    metavar="KIND",
    help="historical, hypothetical or dyo.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the profile as JSON.")
@click.option(
    "--scenario",
    "scenario",
    metavar="FILE",
    type=click.Path(),
    help="Take the context from this scenario, played to --at.",
)
@click.option("--at", "at", metavar="MOMENT", help="The moment of the scenario (with --scenario).")
@click.option(
    "--in",
    "in_country",
    metavar="COUNTRY",
    help="Where the troops fight (with --scenario): at home or not.",
)
@overlays_option
@errors_exit_2
def nationality(
    name: str,
    when: str | None,
    unit_class: str | None,
    unit: str | None,
    vs: str | None,
    home: bool,
    ssrs: tuple[str, ...],
    scenario_kind: str,
    as_json: bool,
    scenario: str | None,
    at: str | None,
    in_country: str | None,
    overlays: tuple[str, ...],
) -> None:
    """The ASL A25 traits of NAME's troops: NAME is a nationality (Romanian, Free French) or a
    country of the strategic tables (Rumania). With --scenario FILE --at MOMENT the month,
    opponents, side and fate of the country come from the strategic game (one profile per opponent
    unless --vs names one). Exit 2 for an unknown name or an impossible date."""
    from ..asl.nationality import profile

    context: dict[str, Any] = {  # what profile and the bridge both take
        "unit_class": unit_class,
        "unit": unit,
        "vs": vs,
        "ssr": [s.strip() for item in ssrs for s in item.split(",") if s.strip()],
        "scenario_kind": scenario_kind,
    }
    # with a scenario, --at gives the month and --in the place; without, --date and --home
    given = {"--date": when, "--home": home} if scenario else {"--at": at, "--in": in_country}
    ignored = " and ".join(flag for flag, value in given.items() if value)
    if ignored:
        how = "with --scenario: use --at and --in" if scenario else "without --scenario"
        raise click.UsageError(f"{ignored} cannot apply {how}")
    if scenario is not None:
        _bridge(name, scenario, at, in_country, as_json, overlays, context)
        return
    if when is None:
        raise click.UsageError("give the scenario's month: --date YYYY-MM (or --scenario)")
    found = profile(name, when, home=home, ruleset=load_ruleset(overlays), **context)
    if as_json:
        echo_json(found.to_json())
    else:
        show(_nationality_table(found))


def _bridge(
    name: str,
    scenario: str,
    at: str | None,
    in_country: str | None,
    as_json: bool,
    overlays: tuple[str, ...],
    context: dict[str, Any],
) -> None:
    """`minors nationality NAME --scenario FILE --at MOMENT`: the bridge (minors.bridge)."""
    from ..asl.bridge import troops
    from ..scenario import ScenarioRuleViolation, run_scenario

    if at is None:
        raise click.UsageError("give the moment of the scenario: --at MOMENT")
    try:
        game = run_scenario(scenario, at, ruleset=list(overlays) if overlays else None)
    except ScenarioRuleViolation as exc:
        game = exc.game  # the state before the command that broke a rule
    found = troops(game, name, in_country=in_country, **context)
    if as_json:
        document = {
            "country": found[0].country,
            "moment": str(game.clock),
            "month": found[0].month,
            "nationality": found[0].nationality,
            "reason": found[0].reason,
            "changes_in_season": sorted({m for t in found for m in t.changes}),
            "profiles": [
                {
                    "vs": t.vs,
                    "home": t.home,
                    "changes_in_season": list(t.changes),
                    **(t.profile.to_json() if t.profile else {}),
                }
                for t in found
            ],
        }
        echo_json(document)
        return
    first = found[0]
    if first.nationality is None:
        show(f"{first.country}: {first.reason}")
        return
    show(f"{first.country} at {game.clock}: {first.nationality} ({first.clause}), {first.month}")
    for t in found:
        if t.profile is not None:
            line = f"against {t.vs or 'any opponent'}" + (" at home" if t.home else "")
            if t.changes:
                line += f"; the answer changes inside the season in {', '.join(t.changes)}"
            show(line)
            show(_nationality_table(t.profile))


@main.command("schema")
@click.argument("name", required=False)
@click.option(
    "--write",
    "folder",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Write every schema as DIR/NAME.schema.json (docs/schemas/ is made so).",
)
@errors_exit_2
def schema(name: str | None, folder: str | None) -> None:
    """Print the JSON Schema NAME: scenario (the file), state (run --json), error (the document of
    exit 2), log (a log line of this version's format; log-1 ...), tables, coverage, simulation
    (simulate --json), exploration (explore --json), verdicts (log verify-many --json). Without
    NAME, list them and which command's --json follows which."""
    from .. import schema as schemas

    if folder is not None:
        for path in schemas.write(folder):
            click.echo(str(path))
        return
    if name is not None:
        click.echo(schemas.text(name), nl=False)
        return
    for key in schemas.names():
        alias = f" (= {schemas.ALIASES[key]})" if key in schemas.ALIASES else ""
        click.echo(f"{key}{alias}: {schemas.get(key)['title']}")
    for command, key in schemas.OUTPUTS.items():
        click.echo(f"minors {command} --json: {key}")
    click.echo("any --json command that exits 2: error")


@main.command("init")
@click.argument("folder", default=".", type=click.Path(dir_okay=True))
@errors_exit_2
def init(folder: str) -> None:
    """Write a starter folder FOLDER (default: here): the sample campaign, the example house
    rule (the 82.32 limit lowered to eight) and a pytest file that tests it with the minors
    plugin. Then: cd FOLDER && pytest. Exit 2, writing nothing, if a file is there already."""
    from ..starter import write

    for path in write(folder):
        click.echo(f"wrote {path}")
    click.echo(f"next: cd {folder} && minors run campaign.toml && pytest")


# the commands of the other modules of minors.cli
for command in (picture_report, log, replay, continue_command, simulate, explore):
    main.add_command(command)
log.add_command(verify_many)
