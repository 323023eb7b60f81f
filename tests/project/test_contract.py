"""The public contracts, line by line: docs/api.md and docs/scenario-format.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import minors
from minors.cli import main
from minors.testing import unbatched_legal_actions
from tests import paths

DATA = paths.DATA / "contract"


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


HEAD = '[scenario]\nname = "t"\nstart = "1939-fall"\n'


def do(at: str, command: str, **fields: object) -> str:
    body = "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items())
    return f'\n[[do]]\nat = "{at}"\ncommand = "{command}"\n{body}'


# ---- api.md -------------------------------------------------------------------------------


def test_game_new_is_the_campaign_start() -> None:
    """Game.new() is the built-in start 1939-fall at 1939-fall/axis/diplomacy."""
    game = minors.Game.new()
    assert str(game.clock) == "1939-fall/axis/diplomacy"
    assert game.to_json()["clock"] == "1939-fall/axis/diplomacy"


def test_game_new_with_overlay_tables(tmp_path: Path) -> None:
    """Game.new(ruleset=[...]) merges overlay tables."""
    path = write(tmp_path, "[costs.declare_war_minor]\nbrps = 12\n", "my.toml")
    game = minors.Game.new(ruleset=[str(path)])
    game.advance_to("1939-fall/axis/declarations")
    game.apply(minors.command("declare_war", attacker="Germany", target="Sweden"))
    assert game.brps("Germany") == -12


def test_command_check_apply_clone() -> None:
    """command(), check() (empty when legal), apply() (effects), clone() (independent)."""
    game = minors.Game.new()
    cmd = minors.command("declare_war", attacker="Germany", target="Sweden")
    assert isinstance(cmd, minors.DeclareWar)
    problems = game.check(cmd)
    assert [p.rule for p in problems] == ["K1"]
    assert problems[0].message
    assert problems[0].data == {"major": "Germany"}
    game.advance_to("1940-spring/axis/declarations")
    assert game.check(cmd) == []
    other = game.clone()
    effects = game.apply(cmd)
    assert any(isinstance(e, minors.StatusChanged) for e in effects)
    assert game.to_json()["minors"]["Sweden"]["status"] == "independent"
    assert other.to_json()["minors"]["Sweden"]["status"] == "neutral"


def test_illegal_apply_raises_and_leaves_the_game_as_it_was() -> None:
    """apply() of an illegal command raises RuleViolation with .violations; nothing changes."""
    game = minors.Game.new()
    before, log = game.state(), game.log
    with pytest.raises(minors.RuleViolation) as info:
        game.apply(minors.command("conquer", minor="Sweden", by="Germany"))
    assert {v.rule for v in info.value.violations} == {"K1", "82.41"}
    assert info.value.rule == "82.41"  # ascending clause order: rule 82 before kernel ids
    assert game.state() == before
    assert game.log == log


def test_advance_to_goes_forward_only() -> None:
    """advance_to moves the clock forward; backwards is an error that is a ValueError."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    assert str(game.clock) == "1940-spring/axis/declarations"
    with pytest.raises(minors.ClockError) as info:
        game.advance_to("1939-fall/axis/combat")
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, minors.MinorsError)


def test_legal_actions_are_legal() -> None:
    """Every command legal_actions() lists passes check()."""
    game = minors.Game.new()
    game.advance_to("1940-spring/axis/declarations")
    actions = game.legal_actions()
    assert minors.command("declare_war", attacker="Germany", target="Sweden") in actions
    assert all(game.check(a) == [] for a in actions)
    assert not any(isinstance(a, minors.DiplomaticResult) for a in actions)


@pytest.mark.parametrize("disabled", [set(), {"82.83C"}, {"K1"}])
def test_legal_actions_skip_nothing_a_disabled_rule_would_allow(disabled: set[str]) -> None:
    """With a rule switched off (82.83C keeps a minor's units with no major at home; K1
    the phases), what it refused is listed: the list still equals trying everything."""
    game = minors.Game.new(disabled=disabled)
    game.advance_to("1940-spring/axis/movement")
    listed = game.legal_actions()
    assert listed == unbatched_legal_actions(game)

    def untied(cmd: minors.Command) -> bool:
        owner = game.unit(cmd.units[0]).owner if isinstance(cmd, minors.Move) else None
        if owner is None or owner in game.ruleset.majors:
            return False
        state = game.minor(owner)
        return state.major is None and state.pending is None

    assert any(map(untied, listed)) == ("82.83C" in disabled)


def test_state_is_a_superset_of_to_json() -> None:
    """state() holds the ledger, bars, pending associations and deadlines besides the JSON."""
    game = minors.run_scenario(DATA / "sweden.toml")
    state, public = game.state(), game.to_json()
    assert state["clock"] == public["clock"]
    sweden = state["minors"]["Sweden"]
    assert sweden["status"] == public["minors"]["Sweden"]["status"]
    for key in ("barred", "pending", "deadlines", "standing", "at_war_with"):
        assert key in sweden
    assert state["ledger"][0]["amount"] == -10
    assert minors.Game.from_state(state).state() == state


def _state_with(**changes: object) -> dict[str, object]:
    state = minors.Game.new().state()
    state.update(changes)
    return {k: v for k, v in state.items() if v is not None}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ([], "a mapping, not list"),
        (_state_with(clock="1939-fall/axis/nope"), "expected Moment @ state.clock"),
        (_state_with(ledger=3), "@ state.ledger"),
        (_state_with(units=None), "required field missing @ state.units"),
        (
            _state_with(minors={"Sweden": {"name": "Sweden", "status": "neutral"}}),
            "minors differ from the tables' (missing ['Albania', 'Algeria', 'Arabia'] ..., "
            "unknown [])",
        ),
        (_state_with(extra=1), "extra"),
    ],
)
def test_a_state_that_cannot_be_read_is_refused_with_where(data: object, expected: str) -> None:
    """`from_state` refuses what is not a state with a `StateError` naming what is wrong and
    where, never a traceback."""
    with pytest.raises(minors.StateError, match="not a minors state") as caught:
        minors.Game.from_state(data)  # type: ignore[arg-type]
    assert expected in str(caught.value)


def test_an_unknown_unit_is_named() -> None:
    game = minors.Game.new()
    with pytest.raises(minors.UnknownNameError, match="unknown unit 'australia-2x'; did you"):
        game.unit("australia-2x")
    assert game.unit("australia-2").owner == "Australia"


def test_log_holds_the_entries() -> None:
    """game.log lists the applied commands and clock advances: a run advances one player
    turn at a time (docs/audit-log.md), five advances to 1940-spring/axis/declarations."""
    game = minors.run_scenario(DATA / "sweden.toml")
    kinds = [entry.command["command"] for entry in game.log]
    assert kinds == ["advance"] * 5 + ["declare_war"]


def test_errors_derive_from_minors_error(tmp_path: Path) -> None:
    """Malformed command, table, file: MinorsError and ValueError; illegal: RuleViolation."""
    with pytest.raises(minors.CommandError) as info:
        minors.command("declare_war", attacker="Germany")
    assert isinstance(info.value, ValueError)
    with pytest.raises(minors.CommandError):
        minors.Game.new().check(minors.command("declare_war", attacker="Prussia", target="Sweden"))
    with pytest.raises(minors.TableError):
        minors.Game.new(ruleset=[str(write(tmp_path, "[minors.Sweden]\nbrps = -1\n"))])
    with pytest.raises(minors.ScenarioError) as scen:
        minors.run_scenario(write(tmp_path, "[scenario]\n"))
    assert isinstance(scen.value, ValueError)
    assert issubclass(minors.RuleViolation, minors.MinorsError)


def test_documented_names_are_exported() -> None:
    """Every name api.md and scenario-format.md use is in minors.__all__."""
    for name in ("Game", "command", "run_scenario", "MinorsError", "RuleViolation"):
        assert name in minors.__all__
    game = minors.Game.new()
    for method in (
        "advance_to",
        "check",
        "apply",
        "clone",
        "legal_actions",
        "to_json",
        "state",
        "log",
    ):
        assert hasattr(game, method)


# ---- scenario-format.md ---------------------------------------------------------------------


@pytest.mark.rule("82.12")
def test_the_start_of_82_12() -> None:
    """Germany is at war with Poland, Britain, France and the Commonwealth, at no BRP cost."""
    game = minors.Game.new()
    state = game.to_json()
    for enemy in ("W. Poland", "Britain", "France", "Canada", "South Africa", "Australia", "India"):
        assert game.at_war("Germany", enemy), enemy
    assert state["minors"]["W. Poland"]["status"] == "independent"
    assert all(v == 0 for v in state["brps"].values())


@pytest.mark.rule("82.12")
def test_poland_allies_with_britain_unless_conquered(tmp_path: Path) -> None:
    """Poland is Britain's ally at the start of 1939-winter/axis/diplomacy, not before."""
    path = write(tmp_path, HEAD)
    before = minors.run_scenario(path, "1939-fall/allies/construction").to_json()
    after = minors.run_scenario(path, "1939-winter/axis/diplomacy").to_json()
    assert before["minors"]["W. Poland"]["status"] == "independent"
    assert after["minors"]["W. Poland"] == {
        "status": "allied",
        "major": "Britain",
        "at_war_with": ["Germany"],
    }
    fallen = write(
        tmp_path,
        HEAD + do("1939-fall/axis/combat", "conquer", minor="Poland", by="Germany"),
        "fallen.toml",
    )
    state = minors.run_scenario(fallen, "1939-winter/axis/diplomacy").to_json()
    assert state["minors"]["W. Poland"]["status"] == "conquered"


def test_moments_order_and_phases() -> None:
    """Seasons spring..winter, sides axis then allies, phases diplomacy..construction."""
    order = [
        minors.Moment.parse(m)
        for m in (
            "1940-spring/axis/diplomacy",
            "1940-spring/axis/declarations",
            "1940-spring/axis/movement",
            "1940-spring/axis/combat",
            "1940-spring/axis/redeployment",
            "1940-spring/axis/construction",
            "1940-spring/allies/diplomacy",
            "1940-summer/axis/diplomacy",
            "1940-fall/axis/diplomacy",
            "1940-winter/axis/diplomacy",
            "1941-spring/axis/diplomacy",
        )
    ]
    assert order == sorted(order)
    assert [m.index for m in order[:7]] == list(range(order[0].index, order[0].index + 7))
    assert str(minors.Moment.parse("1940-spring/axis/declarations")) == (
        "1940-spring/axis/declarations"
    )


def test_names_match_case_insensitively_with_aliases(tmp_path: Path) -> None:
    """Poland = W. Poland, Romania = Rumania, USA = U.S., any case."""
    text = (
        HEAD
        + do("1939-fall/axis/declarations", "declare_war", attacker="GERMANY", target="romania")
        + do("1939-winter/axis/declarations", "declare_war", attacker="germany", target="usa")
    )
    state = minors.run_scenario(write(tmp_path, text)).to_json()
    assert "Germany" in state["minors"]["Rumania"]["at_war_with"]
    assert minors.Game.new().at_war("poland", "germany")


def test_every_required_command_is_accepted() -> None:
    """The contract's vocabulary builds: each command with its fields."""
    unit = {"id": "g1", "owner": "Germany", "kind": "infantry", "factors": 3}
    built = [
        minors.command("diplomatic_result", minor="Sweden", major="Germany", result=7),
        minors.command(
            "diplomatic_result", minor="Sweden", major="Germany", result=7, roll=5, modifiers=[2]
        ),
        minors.command("declare_war", attacker="Germany", target="Sweden"),
        minors.command("conquer", minor="Sweden", by="Germany"),
        minors.command("refuse_association", major="Britain", minor="Sweden"),
        minors.command("surrender", major="Britain"),
        minors.command("reenter_war", major="Britain"),
        minors.command("place", units=[unit], **{"in": "Germany"}),
        minors.command("place", units=[unit], hex="Stockholm", **{"in": "Sweden"}),
        minors.command("move", units=["g1"], to="Sweden", hex="Stockholm"),
        minors.command("remove", units=["g1"]),
        minors.command("border_war", attacker="Russia", target="Finland"),
        minors.command("subvert", major="Russia", minor="Estonia"),
    ]
    assert [c.name for c in built][-1] == "subvert"


@pytest.mark.rule("82.21")
def test_roll_and_modifiers_must_add_up(tmp_path: Path) -> None:
    """A diplomatic_result with roll and modifiers is checked against their sum."""
    text = HEAD + do(
        "1939-fall/axis/diplomacy",
        "diplomatic_result",
        minor="Sweden",
        major="Germany",
        result=8,
        roll=5,
        modifiers=[2],
    )
    code, out, _ = cli("run", str(write(tmp_path, text)), "--json")
    assert code == 3
    assert json.loads(out)["error"]["rule"] == "K4"


def test_run_stops_after_the_last_command() -> None:
    """Without --until the clock stands at the last command's moment."""
    code, out, _ = cli("run", str(DATA / "sweden.toml"), "--json")
    assert code == 0
    assert json.loads(out)["clock"] == "1940-spring/axis/declarations"


def test_until_applies_earlier_commands_and_advances() -> None:
    """--until applies the commands stamped before it, then moves the clock there."""
    code, out, _ = cli(
        "run", str(DATA / "sweden.toml"), "--until", "1940-spring/allies/diplomacy", "--json"
    )
    state = json.loads(out)
    assert code == 0
    assert state["clock"] == "1940-spring/allies/diplomacy"
    assert state["minors"]["Sweden"] == {
        "status": "associated",
        "major": "Britain",
        "at_war_with": ["Germany"],
    }
    code, out, _ = cli(
        "run", str(DATA / "sweden.toml"), "--until", "1940-spring/axis/declarations", "--json"
    )
    state = json.loads(out)
    assert state["minors"]["Sweden"]["status"] == "neutral"  # stamped at MOMENT: not applied
    assert state["clock"] == "1940-spring/axis/declarations"


def test_json_state_fields() -> None:
    """clock, minors (status, major, at_war_with sorted), units, eliminated, error."""
    code, out, _ = cli("run", str(DATA / "units.toml"), "--json")
    state = json.loads(out)
    assert code == 0
    assert state["error"] is None
    assert state["units"]["ger-1"] == {
        "owner": "Germany",
        "kind": "infantry",
        "factors": 3,
        "in": "Rumania",
    }
    assert state["eliminated"] == []
    statuses = {m["status"] for m in state["minors"].values()}
    assert statuses <= {
        "neutral",
        "independent",
        "brps_attributed",
        "hexes_controlled",
        "associated",
        "allied",
        "conquered",
        "colony",
        "commonwealth",
    }
    for minor in state["minors"].values():
        assert minor["at_war_with"] == sorted(minor["at_war_with"])


@pytest.mark.rule("82.41")
def test_exit_3_names_the_rule_and_the_command() -> None:
    """A command breaking a rule: exit 3, the state before it, the error object."""
    code, out, _ = cli("run", str(DATA / "illegal.toml"), "--json")
    state = json.loads(out)
    assert code == 3
    assert state["error"]["rule"] == "82.41"
    assert state["error"]["command"] == 2
    assert state["error"]["message"]
    assert [v["rule"] for v in state["error"]["violations"]] == ["82.41"]
    assert state["minors"]["Sweden"]["status"] == "independent"  # command 1 applied
    assert state["minors"]["Norway"]["status"] == "neutral"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (
            HEAD
            + do(
                "1940-spring/axis/declarations",
                "declare_war",
                attacker="Germany",
                target="Atlantis",
            ),
            "command 1",
        ),
        (
            HEAD
            + do(
                "1940-sprung/axis/declarations", "declare_war", attacker="Germany", target="Sweden"
            ),
            "command 1",
        ),
        (
            HEAD + do("1940-spring/axis/declarations", "declare_war", attacker="Germany"),
            "missing field 'target'",
        ),
        (
            HEAD
            + do(
                "1940-spring/axis/declarations", "declare_war", attacker="Germany", target="Sweden"
            )
            + do("1939-fall/axis/declarations", "declare_war", attacker="Germany", target="Norway"),
            "command 2",
        ),
        ("[scenario]\nname = 'x'\n", "start"),
        (HEAD + do("1940-spring/axis/declarations", "annex", minor="Sweden"), "unknown command"),
    ],
)
def test_malformed_files_exit_2_in_one_line(tmp_path: Path, text: str, needle: str) -> None:
    """Unknown country, bad moment, missing field, going back, no start: exit 2, one line."""
    path = write(tmp_path, text)
    proc = subprocess.run(
        [sys.executable, "-m", "minors", "run", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(path) in lines[0]
    assert needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_readable_report_without_json() -> None:
    """Without --json the run prints a report with rule ids."""
    code, out, _ = cli("run", str(DATA / "sweden.toml"))
    assert code == 0
    assert "Sweden: neutral → independent" in out
    assert "[82.41]" in out


def test_log_option_writes_the_log(tmp_path: Path) -> None:
    """--log PATH writes the log of the run."""
    path = tmp_path / "run.log"
    code, _, _ = cli("run", str(DATA / "sweden.toml"), "--log", str(path))
    assert code == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    entries = [line for line in lines if line["kind"] == "entry"]
    assert (lines[0]["kind"], lines[-1]["kind"]) == ("header", "close")
    assert [e["command"]["command"] for e in entries] == ["advance"] * 5 + ["declare_war"]


def test_the_built_in_sample_campaign() -> None:
    """`minors run` without a file plays the shipped sample and reports it turn by turn."""
    code, out, _ = cli("run")
    assert code == 0
    assert "Spring 1940" in out
    assert "Finland: independent → associated (Germany)" in out


@pytest.mark.parametrize(
    "moment",
    [
        "1939-fall/axis/diplomacy",
        "1940-spring/axis/declarations",
        "1940-spring/axis/movement",
        "1940-summer/axis/combat",
        "1940-fall/allies/redeployment",
        "1941-summer/axis/construction",
    ],
)
def test_legal_actions_skip_only_what_check_refuses(moment: str) -> None:
    """Asking a batch's batched checks once loses no legal command."""
    game = minors.run_scenario(minors.scenario.SAMPLE, moment)
    assert game.legal_actions() == unbatched_legal_actions(game)


@pytest.mark.rule("K1")
@pytest.mark.parametrize(
    "disabled",
    ["K1", "K2", "K3", "K4", "K7", "82.12", "82.13", "82.34", "82.41", "82.42", "82.56",
     "82.83A", "82.93", "82.13A"],
)  # fmt: skip
def test_legal_actions_vouch_only_for_checks_in_force(disabled: str) -> None:
    """With a check switched off, legal_actions still lists exactly the candidates check
    passes, at moments of the sample campaign before and after France's surrender."""
    for moment in ("1940-spring/axis/declarations", "1940-spring/axis/movement",
                   "1940-summer/allies/combat", "1941-spring/axis/declarations"):  # fmt: skip
        game = minors.run_scenario(minors.scenario.SAMPLE, moment, disabled={disabled})
        assert game.legal_actions() == unbatched_legal_actions(game), moment
