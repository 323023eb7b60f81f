"""The rulebook Machine is the authority; the compiled dispatch table must agree with it."""

from __future__ import annotations

import itertools

import attrs
import pytest
from transitions import MachineError

from minors import Status
from minors.rules82.machine import CONDITIONS, MACHINE, Context, fire, table
from tests.paths import DOCS


class _Model:
    """A throwaway model carrying one context's facts, for the Machine to read."""

    def __init__(self, context: Context) -> None:
        for name in CONDITIONS:
            setattr(self, name, lambda name=name: getattr(context, name))


CONTEXTS = [
    Context(**dict(zip(CONDITIONS, values, strict=True)))
    for values in itertools.product([False, True], repeat=len(CONDITIONS))
]


@pytest.mark.rule("82.11")
@pytest.mark.parametrize("status", list(Status))
def test_machine_and_table_agree(status: Status) -> None:
    """For every status, trigger and context the Machine and the table give one outcome."""
    for trigger in MACHINE.events:
        for context in CONTEXTS:
            model = _Model(context)
            MACHINE.add_model(model, initial=status.value)
            try:
                fired = getattr(model, trigger)()  # False when no condition held
                machine = Status(model.state) if fired else None  # type: ignore[attr-defined]
            except MachineError:
                machine = None
            finally:
                MACHINE.remove_model(model)
            assert fire(status, trigger, context) == machine, (status, trigger, context)


def test_table_is_compiled_from_the_machine() -> None:
    """Every transition of the Machine appears in the table and nothing else does."""
    expected = {
        (Status(src), trig) for trig, ev in MACHINE.events.items() for src in ev.transitions
    }
    assert set(table()) == expected


@pytest.mark.rule("82.11")
def test_statuses_are_the_nine_categories() -> None:
    """The Machine's states are exactly the nine categories of 82.11."""
    assert sorted(MACHINE.states) == sorted(s.value for s in Status)
    assert len(Status) == 9


@pytest.mark.rule("82.34")
def test_attack_on_a_garrisoned_minor_goes_to_associated() -> None:
    """The attack trigger leads to associated only with a garrison partner."""
    assert fire(Status.NEUTRAL, "attack") is Status.INDEPENDENT
    assert fire(Status.NEUTRAL, "attack", Context(garrison_partner=True)) is Status.ASSOCIATED
    assert fire(Status.CONQUERED, "attack") is None


@pytest.mark.rule("82.81D")
@pytest.mark.rule("82.351")
def test_survival_needs_a_free_willing_partner() -> None:
    """associate: barred (82.351) or refused (82.81D) partners leave the minor independent."""
    base = Context()
    assert fire(Status.INDEPENDENT, "associate", base) is Status.ASSOCIATED
    assert (
        fire(Status.INDEPENDENT, "associate", attrs.evolve(base, refused=True))
        is Status.INDEPENDENT
    )
    barred = attrs.evolve(base, partner_free=False)
    assert fire(Status.INDEPENDENT, "associate", barred) is Status.INDEPENDENT


def test_a_misspelt_trigger_is_an_error_naming_the_closest() -> None:
    """fire() refuses a trigger the Machine does not have, suggesting the closest."""
    from minors import UnknownNameError

    with pytest.raises(UnknownNameError, match="'atack'; did you mean 'attack'"):
        fire(Status.NEUTRAL, "atack")  # type: ignore[arg-type]
    # at most the two closest, as everywhere else, though three results are close
    with pytest.raises(UnknownNameError) as raised:
        fire(Status.NEUTRAL, "result")  # type: ignore[arg-type]
    assert raised.value.suggestions == ("result_none", "result_brps")


def test_the_typed_table_is_what_the_machine_holds() -> None:
    """Every transition of TRANSITIONS is an event of the Machine, in order, and the states
    are the Status enum's."""
    from minors.rules82.machine import TRANSITIONS, Trigger

    assert set(MACHINE.events) == {t.value for t in Trigger}
    for trigger in Trigger:
        typed = [t for t in TRANSITIONS if t.trigger is trigger]
        for source in {s for t in typed for s in t.source}:
            held = MACHINE.events[trigger.value].transitions[source.value]
            assert [t.dest for t in held] == [t.dest.value for t in typed if source in t.source]


def test_the_diagram_is_drawn_from_the_machine() -> None:
    """`minors rules diagram` prints a digraph of the nine statuses whose arrows are the
    Machine's transitions, as dot and as mermaid; the committed picture in docs has them."""

    from click.testing import CliRunner

    from minors.cli import main

    dot = CliRunner().invoke(main, ["rules", "diagram", "--format", "dot"])
    assert dot.exit_code == 0
    assert dot.output.startswith("digraph statuses {")
    assert all(f'"{s.value}";' in dot.output for s in Status)
    arrows = {
        (s, t.dest or s)
        for e in MACHINE.events.values()
        for s, ts in e.transitions.items()
        for t in ts
    }
    assert dot.output.count(" -> ") == len(arrows)
    assert '"independent" -> "associated" [label="' in dot.output
    mermaid = CliRunner().invoke(main, ["rules", "diagram", "--format", "mermaid"])
    assert mermaid.output.startswith("stateDiagram-v2\n")
    assert mermaid.output.count(" --> ") == len(arrows)
    svg = (DOCS / "statuses.svg").read_text(encoding="utf-8")
    for source, dest in arrows:
        assert f"<title>{source}&#45;&gt;{dest}</title>" in svg, (source, dest)


def test_svg_needs_graphviz_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Graphviz's dot program, --format svg exits 2 with one line saying what to
    install; with it, it prints an SVG."""
    import shutil

    from click.testing import CliRunner

    from minors.cli import main

    if shutil.which("dot"):
        drawn = CliRunner().invoke(main, ["rules", "diagram", "--format", "svg"])
        assert drawn.exit_code == 0
        assert "<svg" in drawn.output
    monkeypatch.setattr(shutil, "which", lambda name: None)
    missing = CliRunner().invoke(main, ["rules", "diagram", "--format", "svg"])
    assert missing.exit_code == 2
    assert "apt-get install graphviz" in missing.output
