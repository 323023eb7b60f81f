"""The layout shows the architecture: few top-level modules, rule code that names no country
and no figure the tables hold, and tables that drive the rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import minors
from minors import command

PACKAGE = Path(minors.__file__).parent


def test_at_most_five_modules_sit_at_the_top() -> None:
    """`minors/` holds at most five .py files; everything else is in a sub-package."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 5, top
    assert {"__init__.py", "__main__.py", "errors.py"} <= set(top)


def _names() -> set[str]:
    rs = minors.load_ruleset()
    found = set(rs.majors) | set(rs.minors)
    for record in (*rs.majors.values(), *rs.minors.values()):
        found.update(record.aliases)
    return found


@pytest.mark.parametrize(
    "package", ["_kernel", "rules82", "asl", "ruleset", "audit", "cli", "domain", "examples"]
)
def test_rule_code_names_no_country(package: str) -> None:
    """No string in the code of the package is the name of a country or major power: the
    rules read who does what from the tables."""
    names = _names()
    found = []
    for path in sorted((PACKAGE / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in names:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
    assert found == []


def _overlay(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return [str(path)]


@pytest.mark.rule("82.41")
def test_the_border_war_table_says_who_needs_no_declaration(tmp_path: Path) -> None:
    """A border war the tables give is legal, one they do not is refused (82.41)."""
    estonia = command("border_war", attacker="Russia", target="Estonia")
    base = minors.Game.new()
    base.advance_to("1939-fall/allies/declarations")
    assert [v.rule for v in base.check(estonia)] == ["82.41"]
    house = minors.Game.new(_overlay(tmp_path, '[border_wars.Estonia]\nattacker = "Russia"\n'))
    house.advance_to("1939-fall/allies/declarations")
    assert house.check(estonia) == []
    assert estonia in house.legal_actions(["border_war"])


@pytest.mark.rule("82.36")
def test_who_subverts_is_the_tables_word(tmp_path: Path) -> None:
    """Communist subversion is the subversion of a major the tables mark communist."""
    overlay = _overlay(
        tmp_path, "[majors.Russia]\ncommunist = false\n[majors.Italy]\ncommunist = true\n"
    )
    for game, major, legal in (
        (minors.Game.new(), "Russia", True),
        (minors.Game.new(overlay), "Russia", False),
        (minors.Game.new(overlay), "Italy", True),
    ):
        game.advance_to(f"1939-fall/{'axis' if major == 'Italy' else 'allies'}/diplomacy")
        problems = game.check(command("subvert", major=major, minor="Sweden"))
        assert (problems == []) is legal, (major, problems)


@pytest.mark.rule("82.52")
def test_the_deploying_power_is_the_association_tables(tmp_path: Path) -> None:
    """82.52: the first power of the attacker faction's row still in the war sets up the
    minor; a row naming another power changes who does."""
    overlay = _overlay(tmp_path, '[association.axis]\ndeployed_by = ["U.S."]\n')
    for overlays, expected in (([], "Britain"), (overlay, "U.S.")):
        game = minors.Game.new(overlays)
        game.advance_to("1940-spring/axis/declarations")
        game.apply(command("declare_war", attacker="Germany", target="Sweden"))
        assert game.minor("Sweden").deployment is not None
        assert game.minor("Sweden").deployment.by == expected


@pytest.mark.rule("82.91C")
def test_a_pacific_alignment_is_a_row_of_the_tables(tmp_path: Path) -> None:
    """Removing Communist China's row leaves it independent when Russia goes to war with
    Japan; with the row it becomes Russia's ally (82.91C)."""
    declare = command("declare_war", attacker="Russia", target="Japan")
    removed = _overlay(tmp_path, '[alignments."Communist China"]\nremove = true\n')
    for overlays, expected in (([], minors.Status.ALLIED), (removed, minors.Status.INDEPENDENT)):
        game = minors.Game.new(overlays)
        game.advance_to("1939-fall/allies/declarations")
        game.apply(declare)
        assert game.minor("Communist China").status is expected
