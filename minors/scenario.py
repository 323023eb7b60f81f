"""Scenario files (docs/scenario-format.md): read, check for form, run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from attrs import frozen

from ._kernel.convert import build_command
from ._kernel.kind import Command
from ._kernel.rulebook import Rulebook
from .domain.clock import Moment, MomentError
from .domain.reading import InputError, display, parse_toml, read_file
from .errors import (
    SHOWN,
    CommandError,
    MinorsError,
    RuleViolation,
    ScenarioError,
    ScenarioRuleViolation,
    shown,
)
from .rules82 import Game
from .rules82.commands import KINDS

__all__ = [
    "BUILT_IN",
    "SAMPLE",
    "Scenario",
    "ScenarioError",
    "ScenarioRuleViolation",
    "continue_log",
    "load_orders",
    "load_scenario",
    "play",
    "run_scenario",
]

SAMPLE = "campaign.toml"
"""The sample campaign (`minors run` without a file): a `campaign.toml` where there is one
(a `minors init` folder's), else `BUILT_IN`."""
BUILT_IN = f"<built-in {SAMPLE}>"
"""The built-in sample campaign, shipped in the package (`minors/samples`)."""


@frozen
class Step:
    at: Moment
    command: Command


@frozen
class Scenario:
    """A start, overlays, and the commands with their moments, in file order."""

    path: str
    name: str
    start: str
    ruleset: tuple[str, ...]
    steps: tuple[Step, ...]


def _read(path: str | Path) -> tuple[str, dict[str, Any]]:
    """The scenario's name for messages and its TOML document, read within the limits of
    `minors.domain.reading`."""
    if str(path) == BUILT_IN or (str(path) == SAMPLE and not Path(SAMPLE).exists()):
        name, data = BUILT_IN, (files("minors") / "samples" / SAMPLE).read_bytes()
    else:
        name = display(path)
        try:
            data = read_file(path, "the scenario")
        except InputError as exc:
            raise ScenarioError(f"{name or repr(name)}: {exc}", file=name or None) from None
    try:
        return name, parse_toml(data)
    except InputError as exc:
        raise ScenarioError(f"{name}: {exc}", file=name) from None


def load_scenario(path: str | Path, kinds: Mapping[str, type[Any]] | None = None) -> Scenario:
    """Read and check a scenario file for form (not for legality); its commands are of
    `kinds` (rule 82's by default).

    Raises:
        ScenarioError: naming the file, the command (1-based) and the problem.
    """
    return _load(path, kinds, orders=False)


def load_orders(path: str | Path, kinds: Mapping[str, type[Any]] | None = None) -> Scenario:
    """Read an orders file (`minors continue`): a scenario file without `start` and
    `ruleset`, played on the game a log holds (its `start` is empty).

    Raises:
        ScenarioError: as `load_scenario`; also a `start` or `ruleset` given.
    """
    return _load(path, kinds, orders=True)


def _load(path: str | Path, kinds: Mapping[str, type[Any]] | None, *, orders: bool) -> Scenario:
    name, document = _read(path)
    unknown = sorted(set(document) - {"scenario", "do"})
    if unknown:
        raise ScenarioError(
            f"{name}: unknown table {shown(unknown[0])} (tables: scenario, do)", file=name
        )
    head = document.get("scenario")
    if not isinstance(head, dict):
        raise ScenarioError(f"{name}: missing the [scenario] table", file=name)
    extra = sorted(set(head) - {"name", "start", "ruleset", "description"})
    if extra:
        raise ScenarioError(f"{name}: [scenario] has unknown field {shown(extra[0])}", file=name)
    for text in ("name", "description"):
        if not isinstance(head.get(text, ""), str):
            raise ScenarioError(f"{name}: [scenario] {text} must be text", file=name)
    start = head.get("start")
    if orders:
        given = sorted({"start", "ruleset"} & set(head))
        if given:
            raise ScenarioError(
                f"{name}: an orders file has no {given[0]!r}: the game and its tables are "
                "the log's",
                file=name,
            )
        start = ""
    elif not isinstance(start, str):
        raise ScenarioError(f'{name}: [scenario] needs start = "1939-fall"', file=name)
    ruleset = head.get("ruleset", [])
    if not isinstance(ruleset, list) or not all(isinstance(r, str) for r in ruleset):
        raise ScenarioError(f"{name}: [scenario] ruleset must be a list of file paths", file=name)
    base = Path(name).parent if not name.startswith("<") else Path(".")
    steps: list[Step] = []
    previous: Moment | None = None
    entries = document.get("do", [])
    if not isinstance(entries, list):
        raise ScenarioError(f"{name}: write commands as [[do]] tables", file=name)
    for index, entry in enumerate(entries, start=1):
        where = f"{name}: command {index}"
        if not isinstance(entry, dict):
            raise ScenarioError(f"{where}: not a table", file=name, command=index)
        fields = dict(entry)
        at, kind = fields.pop("at", None), fields.pop("command", None)
        if not isinstance(at, str):
            problem = "missing field 'at'" if at is None else f"'at' is {shown(at)}, not text"
            raise ScenarioError(
                f"{where}: {problem} (a moment like '1940-spring/axis/declarations')",
                file=name,
                command=index,
            )
        if not isinstance(kind, str):
            problem = "missing field" if kind is None else f"{shown(kind)}, not text, in field"
            raise ScenarioError(f"{where}: {problem} 'command'", file=name, command=index)
        label = kind if len(kind) <= SHOWN else shown(kind)
        try:
            moment = Moment.parse(at)
            built = build_command(KINDS if kinds is None else kinds, kind, fields)
        except (MomentError, CommandError) as exc:
            raise ScenarioError(f"{where} ({label}): {exc}", file=name, command=index) from None
        if previous is not None and moment < previous:
            raise ScenarioError(
                f"{where} ({kind}): at {moment} goes back before {previous}",
                file=name,
                command=index,
            )
        previous = moment
        steps.append(Step(moment, built))
    return Scenario(
        name, str(head.get("name", "")), start, tuple(str(base / r) for r in ruleset), tuple(steps)
    )


def _within_calendar(scenario: Scenario, game: Game, stop: Moment | None) -> None:
    """Every moment the run would reach lies between the start and the calendar's last
    moment, checked before anything is played or logged."""
    last = game.last_moment
    fix = "the start's last_moment in the tables ends it; an overlay can move it"
    if stop is not None and stop < game.clock:
        raise ScenarioError(f"--until {stop} is before the clock {game.clock}")
    if stop is not None and stop > last:
        raise ScenarioError(f"--until {stop} is after the calendar's last moment {last} ({fix})")
    for index, step in enumerate(scenario.steps, start=1):
        if step.at > last:
            raise ScenarioError(
                f"{scenario.path}: command {index} ({step.command.name}): at {step.at} is after"
                f" the calendar's last moment {last} ({fix})",
                file=scenario.path,
                command=index,
            )


def _until(until: str | Moment | None) -> Moment | None:
    if until is None or isinstance(until, Moment):
        return until
    try:
        return Moment.parse(until)
    except MomentError as exc:
        raise ScenarioError(f"--until: {exc}") from None


def _resolve(game: Game, scenario: Scenario) -> list[Step]:
    """The scenario's steps with every name in canonical spelling."""
    resolved: list[Step] = []
    for index, step in enumerate(scenario.steps, start=1):
        try:
            resolved.append(Step(step.at, game.resolve(step.command)))
        except CommandError as exc:
            raise ScenarioError(
                f"{scenario.path}: command {index}: {exc}", file=scenario.path, command=index
            ) from None
    return resolved


def run_scenario(
    path: str | Path,
    until: str | Moment | None = None,
    *,
    ruleset: list[str] | None = None,
    disabled: frozenset[str] = frozenset(),
    log: str | Path | None = None,
    durability: str = "entry",
    rulebook: Rulebook | None = None,
) -> Game:
    """What `minors run` does: play the scenario and return the game (docs/api.md).

    `ruleset` (--ruleset) replaces the file's overlays; `disabled` switches off those
    clauses; `log` writes the audit log as it goes (closed where the run ends); `rulebook`
    plays it under a variant.
    """
    scenario = load_scenario(path, rulebook.kinds if rulebook is not None else None)
    stop = _until(until)
    try:
        game = Game.new(
            scenario.ruleset if ruleset is None else ruleset,
            start=scenario.start,
            disabled=disabled,
            rulebook=rulebook,
        )
    except MinorsError as exc:
        raise ScenarioError(f"{scenario.path}: {exc}", file=scenario.path) from None
    resolved = _resolve(game, scenario)
    if resolved and game.clock > resolved[0].at:
        raise ScenarioError(
            f"{scenario.path}: command 1: at {resolved[0].at} is before the start {game.clock}",
            file=scenario.path,
            command=1,
        )
    _within_calendar(scenario, game, stop)
    from .audit.log import open_log

    sink = open_log(game, log, durability) if log is not None else None
    try:
        play(game, resolved, stop)
    finally:
        if sink is not None:
            game.attach(None)
            sink.close(game)  # the log ends where the run ends
    return game


def play(game: Game, steps: Sequence[Step], stop: Moment | None = None) -> None:
    """Play resolved `steps` on `game`, advancing one player turn at a time to each; with
    `stop`, only those stamped before it, then advance to it.

    Raises:
        ScenarioRuleViolation: a command broke a rule (`.game` is the state before it).
        ScenarioError: `stop` is before the clock.
    """
    from .audit.log import advance

    for index, step in enumerate(steps, start=1):
        if stop is not None and step.at >= stop:
            break
        advance(game, step.at)
        try:
            game.apply(step.command)
        except RuleViolation as exc:
            raise ScenarioRuleViolation(exc, index, game) from None
    if stop is not None:
        if stop < game.clock:
            raise ScenarioError(f"--until {stop} is before the clock {game.clock}")
        advance(game, stop)


def continue_log(
    path: str | Path,
    orders: str | Path,
    log: str | Path,
    until: str | Moment | None = None,
    *,
    rulebook: Rulebook | None = None,
    durability: str = "entry",
) -> Game:
    """What `minors continue LOG ORDERS --log NEW` does: play the orders on the game the
    log holds and write NEW, the log continued.

    Raises:
        ScenarioError: the orders are malformed, or stamped before the log's clock.
        ScenarioRuleViolation: an order broke a rule (NEW ends before it).
        LogUnavailable, LogFormatError: the log cannot be read or replayed here.
    """
    from .audit.log import replay

    scenario = load_orders(orders, rulebook.kinds if rulebook is not None else None)
    stop = _until(until)
    game = replay(path, rulebook=rulebook)
    steps = _resolve(game, scenario)
    if steps and steps[0].at < game.clock:
        raise ScenarioError(
            f"{scenario.path}: command 1: at {steps[0].at} is before the log's clock {game.clock}",
            file=scenario.path,
            command=1,
        )
    if stop is not None and stop < game.clock:
        raise ScenarioError(f"--until {stop} is before the log's clock {game.clock}")
    _within_calendar(scenario, game, stop)
    from .audit.log import open_continued

    sink = open_continued(game, path, log, durability)
    try:
        play(game, steps, stop)
    finally:
        game.attach(None)
        sink.close(game)
    return game
