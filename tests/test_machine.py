"""The rulebook Machine is the authority; the compiled dispatch table must agree with it."""

from __future__ import annotations

import itertools

import attrs
import pytest
from transitions import MachineError

from minors import Status
from minors.rules82.machine import CONDITIONS, MACHINE, Context, fire, table


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
