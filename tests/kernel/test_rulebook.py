"""Rulebooks: rules marked where they are written, collected and validated per instance;
variants beside the base; the kernel knowing no clause."""

from __future__ import annotations

import ast
import json
import re
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen
from click.testing import CliRunner

import minors
from minors import (
    Command,
    MajorName,
    MinorName,
    Play,
    Refusal,
    RulebookError,
    at_phase_end,
    auditlog,
    candidates,
    check,
    handles,
    refuse,
    rule,
)
from minors.cli import main
from minors.domain import ClauseKind, Side
from minors.domain.clock import Phase
from minors.errors import clause_key
from minors.examples import LIMIT_OF_EIGHT, winter_truce
from minors.rules82 import RULEBOOK as RULE_82
from minors.rules82.conquest import conquer
from minors.rules82.war import DeclareWar
from minors.ruleset.records import Clause

WINTER = "1939-winter/axis/declarations"
SPRING = "1940-spring/axis/declarations"
PACKAGE = Path(minors.__file__).parent


def _clause(cid: str, title: str = "a house rule") -> Clause:
    return Clause(id=cid, title=title, kind=ClauseKind.RULE, source="house")


def _declare(target: str = "Sweden") -> minors.Command:
    return minors.command("declare_war", attacker="Germany", target=target)


# ---- collecting ---------------------------------------------------------------------------


def test_a_check_written_after_the_first_game_is_seen_by_a_rulebook_built_after_it() -> None:
    """A check marked after games have played is collected by a rulebook built afterwards;
    the rulebooks built before are untouched."""
    before = minors.Game.new()
    before.advance_to(SPRING)
    assert before.check(_declare()) == []
    house = types.ModuleType("late_house_rule")

    @check(DeclareWar, "H9")
    def no_war_on_sweden(play: Play, cmd: DeclareWar) -> Iterator[Refusal]:
        if cmd.target == "Sweden":
            yield refuse("Sweden is off limits")

    no_war_on_sweden.__module__ = house.__name__
    house.no_war_on_sweden = no_war_on_sweden  # type: ignore[attr-defined]
    book = RULE_82.extend("late", house, clauses=[_clause("H9")])
    game = minors.Game.new(rulebook=book)
    game.advance_to(SPRING)
    assert [v.rule for v in game.check(_declare())] == ["H9"]
    assert before.check(_declare()) == []
    assert len(RULE_82.entries) == len(book.entries) - 1


def test_rule_82_collects_every_rule_module_with_its_kinds_in_one_place() -> None:
    """Rule 82's rulebook holds the fourteen kinds of the scenario vocabulary, each with one
    handler, and a candidate generator for all but `place`."""
    assert set(RULE_82.kinds) == set(minors.commands.KINDS)
    active = RULE_82.in_force()
    assert set(active.handlers) == set(RULE_82.kinds.values())
    assert {k.name for k in active.candidates} == set(RULE_82.kinds) - {"place"}
    assert all(kind in active.checks for kind in RULE_82.kinds.values() if kind.name != "place")


def test_phase_hooks_run_in_the_order_of_the_sources() -> None:
    """At the start of a diplomacy phase associations come before the Commonwealth's
    arrivals; at the end of combat conquest comes before the limits."""
    keys = {
        phase: [fn.__qualname__.rsplit(".", 1)[-1] for fn in fns]
        for phase, fns in RULE_82.in_force().phase_end.items()
    }
    assert keys[Phase.COMBAT] == ["_capitals_fall", "_enforce"]
    assert keys[Phase.REDEPLOYMENT] == ["_deadline_passes", "_enforce"]
    starts = [
        f"{fn.__module__}.{fn.__qualname__}"
        for fn in RULE_82.in_force().phase_start[Phase.DIPLOMACY]
    ]
    assert starts == [
        "minors.rules82.survival._associations_due",
        "minors.rules82.deployment._commonwealth_arrivals",
    ]


def test_marked_functions_keep_their_names() -> None:
    """Every rule is a named module-level function: coverage shows no `<locals>`, and each
    name it shows can be looked up in its module."""
    for entries in RULE_82.registered().values():
        for name, _ in entries:
            assert "<locals>" not in name
            module, _, qualname = name.rpartition(".")
            assert getattr(__import__(module, fromlist=["x"]), qualname).__name__ == qualname
    names = {name for found in RULE_82.registered().values() for name, _ in found}
    assert "minors.rules82.war._no_war_on_a_colony" in names


# ---- validation ---------------------------------------------------------------------------


class _Sealed(minors.Command):
    """A command kind no rulebook handles."""

    name = "sealed"


def test_every_bad_definition_fails_at_build_each_with_its_fix() -> None:
    """An unknown clause, a second handler, a check for a kind nothing handles, a phase hook
    for an unknown phase and one that is no rule: one error lists them all."""

    class Broken:
        @check(DeclareWar, "82.99")
        def typo(play: Play, cmd: DeclareWar) -> Iterator[Refusal]:
            yield from ()

        @handles(DeclareWar)
        def second_handler(play: Play, cmd: DeclareWar) -> None:
            pass

        @check(_Sealed, "H1")
        def sealed(play: Play, cmd: Any) -> Iterator[Refusal]:
            yield from ()

        @at_phase_end("redeploy")  # type: ignore[arg-type]
        @rule("H1")
        def misspelt(play: Play, side: Side) -> None:
            pass

        @at_phase_end(Phase.COMBAT)
        def not_a_rule(play: Play, side: Side) -> None:
            pass

    with pytest.raises(RulebookError) as info:
        RULE_82.extend("broken", Broken, clauses=[_clause("H1")])
    problems = info.value.problems
    assert len(problems) == 5
    text = str(info.value)
    assert "cites clause '82.99', which is not in the clause table (did you mean" in text
    assert "add the clause to the rulebook's clauses" in text
    assert "two handlers for DeclareWar" in text
    assert "extend(replace=...)" in text
    assert "a check for _Sealed, which nothing handles: mark its handler with @handles" in text
    assert "phase hook for 'redeploy', which is not a phase: use one of Phase.DIPLOMACY" in text
    assert "not_a_rule runs at a phase or the start but is not a rule" in text
    assert isinstance(info.value, minors.MinorsError)
    assert isinstance(info.value, ValueError)


def test_a_clause_of_the_base_cannot_be_defined_again_nor_a_missing_rule_replaced() -> None:
    """A variant's clause table has ids of its own; replace and remove name existing rules."""
    with pytest.raises(RulebookError) as info:
        RULE_82.extend(
            "clash",
            clauses=[_clause("82.34")],
            replace={"minors.rules82.war._garison_needs_war": lambda play, cmd: ()},
        )
    text = str(info.value)
    assert "clause '82.34' is in the base's table already" in text
    assert "no rule 'minors.rules82.war._garison_needs_war' in the base" in text
    assert "did you mean 'minors.rules82.war._garrison_needs_war'" in text


def test_an_unknown_clause_to_switch_off_names_the_closest() -> None:
    """`disabled` takes the rulebook's ids that something is marked with; an unknown id names
    the closest, a clause nothing is marked with (an A25 clause, by its short form too)
    names those that can be switched off."""
    with pytest.raises(minors.UnknownNameError, match=r"'82\.99'.*did you mean '82\.9'"):
        minors.Game.new(disabled={"82.99"})
    with pytest.raises(minors.UnknownNameError, match="H1"):
        minors.Game.new(disabled={"H1"})
    with pytest.raises(minors.ClauseError, match=r"'A25\.85' cannot be switched off.*82\.12"):
        minors.Game.new(disabled={"K1", "25.85"})
    assert minors.Game.new(disabled={"K1", "82.34"}).disabled == {"K1", "82.34"}
    truce = minors.Game.new(rulebook=winter_truce.RULEBOOK, disabled={"H1"})
    truce.advance_to(WINTER)
    assert truce.check(_declare()) == []


def test_clause_order_is_the_order_of_the_texts() -> None:
    """Clause ids sort as the registry lists them (82.32 < 82.321B < 82.33), rule 82 before
    A25, house ids, then the kernel ids."""
    ids = [cid for cid in minors.load_ruleset().clauses if cid != "A25.231-1E"]
    assert sorted(ids, key=clause_key) == ids
    assert sorted(["K1", "H1", "A25.85", "82.33", "82.321B", "K10", "K2"], key=clause_key) == [
        "82.321B", "82.33", "A25.85", "H1", "K1", "K2", "K10",
    ]  # fmt: skip


# ---- rules keep their type ---------------------------------------------------------------


def _fits(value: Any, hint: Any) -> bool:
    if hint is None or hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in typing.get_args(hint))
    return isinstance(value, origin or hint)


def test_a_switched_off_rule_returns_a_value_of_its_own_type() -> None:
    """Every `rule` function's `otherwise` is a value of the type the function returns."""
    marked = [e for e in RULE_82.entries if e.role.value == "rule"]
    assert len(marked) > 30
    for entry in marked:
        module = vars(__import__(entry.function.__module__, fromlist=["x"]))
        hint = typing.get_type_hints(entry.function, module)["return"]
        assert _fits(entry.otherwise, hint), (entry.key, entry.otherwise, hint)


@pytest.mark.rule("82.322")
def test_a_switched_off_rule_does_nothing_and_says_so_in_its_type() -> None:
    """With 82.322 off, Finland's own limit is an empty tuple, not None."""
    from minors.rules82.limits import limits_on

    game = minors.Game.new(disabled={"82.322"})
    assert limits_on(game.play(), ("Finland",)) == []


# ---- variants -------------------------------------------------------------------------------


def test_the_winter_truce_plays_beside_rule_82_with_different_results() -> None:
    """In one process, the same declaration in winter is legal under rule 82 and refused
    under H1; in spring both take it; legal_actions differ only by winter declarations."""
    base = minors.Game.new()
    truce = minors.Game.new(rulebook=winter_truce.RULEBOOK)
    for game in (base, truce):
        game.advance_to(WINTER)
    assert base.check(_declare()) == []
    with pytest.raises(minors.RuleViolation) as info:
        truce.apply(_declare())
    assert info.value.rule == "H1"
    assert "winter truce" in info.value.message
    assert truce.check(minors.command("declare_war", attacker="Germany", target="Russia")) == []
    on_minors = [a for a in base.legal_actions(["declare_war"]) if a.target in base.ruleset.minors]
    assert on_minors
    assert not [a for a in truce.legal_actions(["declare_war"]) if a.target in truce.ruleset.minors]
    base.apply(_declare())
    assert base.minor("Sweden").status is minors.Status.INDEPENDENT
    assert truce.minor("Sweden").status is minors.Status.NEUTRAL
    truce.advance_to(SPRING)
    truce.apply(_declare())
    assert truce.minor("Sweden").status is minors.Status.INDEPENDENT


def test_a_log_names_its_rulebook_and_is_refused_under_another(tmp_path: Path) -> None:
    """The header names the rulebook and its digest; the log verifies under that rulebook,
    and under rule 82 it is refused, exit 2, naming the rulebook that wrote it."""
    game = minors.Game.new(rulebook=winter_truce.RULEBOOK)
    path = tmp_path / "truce.jsonl"
    sink = auditlog.open(game, path)
    game.advance_to(WINTER)
    with pytest.raises(minors.RuleViolation):
        game.apply(_declare())
    game.advance_to(SPRING)
    game.apply(_declare())
    game.attach(None)
    sink.close(game)
    header = json.loads(path.read_text().splitlines()[0])
    book = winter_truce.RULEBOOK
    assert header["rulebook"] == {"name": "winter-truce", "digest": book.digest}
    assert auditlog.verify(path, rulebook=book).ok
    with pytest.raises(auditlog.LogUnavailable, match="written under rulebook 'winter-truce'"):
        auditlog.verify(path)
    runner = CliRunner()
    refused = runner.invoke(main, ["log", "verify", str(path)])
    assert refused.exit_code == 2
    assert "--rulebook" in refused.output
    for name in ("winter-truce", "minors.examples.winter_truce:RULEBOOK"):
        done = runner.invoke(main, ["log", "verify", str(path), "--rulebook", name])
        assert done.exit_code == 0, done.output
    replayed = runner.invoke(main, ["replay", str(path), "--json", "--rulebook", "winter-truce"])
    assert json.loads(replayed.output)["minors"]["Sweden"]["status"] == "independent"


def test_a_rule_82_log_is_refused_under_the_truce_and_an_old_header_means_rule_82(
    tmp_path: Path,
) -> None:
    """A log of rule 82 does not verify under another rulebook; a header without a rulebook
    (written before rulebooks) is rule 82's."""
    game = minors.Game.new()
    path = tmp_path / "base.jsonl"
    sink = auditlog.open(game, path)
    game.advance_to(SPRING)
    game.attach(None)
    sink.close(game)
    with pytest.raises(auditlog.LogUnavailable, match="not 'winter-truce'"):
        auditlog.verify(path, rulebook=winter_truce.RULEBOOK)
    lines = path.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    del header["rulebook"], header["hash"], header["prev"]
    line, prev = auditlog.seal(header, auditlog.GENESIS)
    rest = [json.loads(raw) for raw in lines[1:]]
    rebuilt = [line]
    for record in rest:
        record.pop("hash"), record.pop("prev")
        sealed, prev = auditlog.seal(record, prev)
        rebuilt.append(sealed)
    path.write_bytes(b"".join(rebuilt))
    assert auditlog.verify(path).ok


@pytest.mark.rule("82.36")
def test_a_named_rule_is_replaced_by_a_variant() -> None:
    """Replacing `subversion` with extend(replace=...) runs the replacement in its place."""
    calls: list[str] = []

    def noisy(play: Play, major: str, minor: str) -> None:
        calls.append(minor)

    book = RULE_82.extend("quiet-subversion", replace={"subversion": noisy})
    game = minors.Game.new(rulebook=book)
    game.advance_to("1939-fall/allies/diplomacy")
    game.apply(minors.command("subvert", major="Russia", minor="Sweden"))
    assert game.minor("Sweden").status is minors.Status.NEUTRAL
    assert calls == ["Sweden"]
    assert game.rulebook.name == "quiet-subversion"
    assert minors.Game.new().check(minors.command("subvert", major="Russia", minor="Sweden"))


@pytest.mark.rule("82.34")
def test_a_variant_removes_a_check_of_the_base() -> None:
    """Without 82.34's check a garrisoned minor can be attacked by a power at peace with
    its garrison; the base still refuses it."""
    book = RULE_82.extend("no-garrison-rule", remove=["minors.rules82.war._garrison_needs_war"])
    cmd = minors.command("declare_war", attacker="Russia", target="Rumania")
    unit = {"id": "g1", "owner": "Germany", "kind": "infantry", "factors": 1}
    for rulebook, expected in ((RULE_82, ["82.34"]), (book, [])):
        game = minors.Game.new(rulebook=rulebook)
        game.apply(minors.command("diplomatic_result", minor="Rumania", major="Germany", result=8))
        game.advance_to("1939-fall/axis/movement")
        game.apply(minors.command("place", units=[unit], **{"in": "Rumania"}))
        game.advance_to("1939-fall/allies/declarations")
        assert [v.rule for v in game.check(cmd)] == expected


@pytest.mark.rule("82.32")
@pytest.mark.rule("82.321B")
def test_the_overlay_of_eight_changes_a_phase_end_elimination() -> None:
    """Nine German factors in a minor Germany controls stand under rule 82's limit of ten;
    under the house overlay of eight one unit is eliminated at the end of movement."""
    units = [
        {"id": f"g{i}", "owner": "Germany", "kind": "infantry", "factors": 3} for i in range(3)
    ]
    eliminated = {}
    for label, overlays in (("base", []), ("eight", [LIMIT_OF_EIGHT])):
        game = minors.Game.new(overlays)
        game.apply(minors.command("diplomatic_result", minor="Rumania", major="Germany", result=8))
        game.advance_to("1939-fall/axis/movement")
        game.apply(minors.command("place", units=units, **{"in": "Rumania"}))
        effects = game.advance_to("1939-fall/axis/combat")
        eliminated[label] = [e.unit for e in effects if isinstance(e, minors.UnitEliminated)]
    assert eliminated == {"base": [], "eight": ["g2"]}


def test_rulebooks_are_found_by_name_or_module_and_attribute() -> None:
    """`find_rulebook` knows the shipped rulebooks and loads module:attribute; what it cannot
    load is a RulebookError saying why."""
    assert minors.find_rulebook("rule82") is RULE_82
    assert minors.find_rulebook("winter-truce") is winter_truce.RULEBOOK
    assert minors.find_rulebook("minors.examples.winter_truce:RULEBOOK") is winter_truce.RULEBOOK
    for spec, message in [
        ("winter", "no rulebook 'winter': name one of rule82, winter-truce"),
        ("minors.examples.winter_truce", "no rulebook"),
        ("nowhere.at.all:RULES", "cannot import 'nowhere.at.all': ModuleNotFoundError"),
        ("minors.examples.winter_truce:RULEBOK", "has no 'RULEBOK' (did you mean 'RULEBOOK'?)"),
        ("minors.examples.winter_truce:CLAUSES", "CLAUSES is a dict, not a Rulebook"),
        (":RULEBOOK", "write module:attribute"),
    ]:
        with pytest.raises(RulebookError, match=re.escape(message)):
            minors.find_rulebook(spec)
    result = CliRunner().invoke(main, ["run", "--rulebook", "nowhere:x"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "cannot import 'nowhere'" in result.output


def test_a_pickled_game_keeps_its_rulebook() -> None:
    """A game of a variant crosses processes as itself: the rulebook is built again there,
    once, with the same digest."""
    import pickle

    game = minors.Game.new(rulebook=winter_truce.RULEBOOK)
    first, second = pickle.loads(pickle.dumps(game)), pickle.loads(pickle.dumps(game))
    assert first.rulebook is second.rulebook
    assert first.rulebook.digest == winter_truce.RULEBOOK.digest
    first.advance_to(WINTER)
    assert [v.rule for v in first.check(_declare())] == ["H1"]


# ---- the kernel knows no clause ----------------------------------------------------------------

KERNEL = sorted(p.name for p in (PACKAGE / "_kernel").glob("*.py"))


def _clause_literals(tree: ast.AST) -> list[str]:
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"(82|A25|K\d|H\d)[\w.\-]*", node.value)
    ]


@pytest.mark.parametrize("name", KERNEL)
def test_the_kernel_names_no_clause_and_imports_no_rule(name: str) -> None:
    """The game engine, board, state, log, kinds, events and rulebook hold no
    rule id and import nothing above the kernel (import-linter checks the layers in CI)."""
    tree = ast.parse((PACKAGE / "_kernel" / name).read_text(encoding="utf-8"))
    assert _clause_literals(tree) == []
    above = {"rules82", "asl", "audit", "cli", "testing", "examples", "scenario"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 2:
            assert (node.module or "").split(".")[0] not in above, ast.unparse(node)


@frozen
class Annex(Command):
    """A house kind for the test below: a major annexes a neutral minor."""

    name: typing.ClassVar[str] = "annex"
    major: MajorName
    minor: MinorName


class Annexation:
    """Its checks, handler and candidates, in one class."""

    @check(Annex, "H2")
    def only_the_neutral(play: Play, cmd: Annex) -> Iterator[Refusal]:
        if play.board.minors[cmd.minor].status is not minors.Status.NEUTRAL:
            yield refuse(f"{cmd.minor} is not neutral")

    @handles(Annex)
    def annex(play: Play, cmd: Annex) -> None:
        conquer(play, cmd.minor, cmd.major, f"{cmd.major} annexes {cmd.minor}")

    @candidates(Annex)
    def annexations(play: Play) -> Iterator[Annex]:
        yield Annex("Russia", "Estonia")


def test_a_new_kind_is_declared_once_and_the_game_knows_it() -> None:
    """A kind with its fields, checks, handler and candidates in one class is built, listed,
    checked and applied by a game of that rulebook, and unknown to rule 82's games."""
    book = RULE_82.extend("baltic", Annexation, clauses=[_clause("H2")])
    game = minors.Game.new(rulebook=book)
    cmd = game.command("annex", major="russia", minor="estonia")
    assert game.resolve(cmd) == Annex("Russia", "Estonia")
    assert game.legal_actions(["annex"]) == [Annex("Russia", "Estonia")]
    game.apply(cmd)
    assert game.minor("Estonia").status is minors.Status.CONQUERED
    assert game.log[-1].command == {"command": "annex", "major": "Russia", "minor": "Estonia"}
    assert game.legal_actions(["annex"]) == []
    with pytest.raises(minors.CommandError, match="not a command of rulebook 'rule82'"):
        minors.Game.new().apply(cmd)
    with pytest.raises(minors.CommandError, match="unknown command 'annex'"):
        minors.command("annex", major="Russia", minor="Estonia")
