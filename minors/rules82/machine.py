"""The statuses of a minor country (82.11) and their transitions, declared once as data.

The states are the `Status` enum, the transitions a typed table (`TRANSITIONS`), fed to one
module-level `transitions.Machine`: the authority on statuses and transitions, what the
diagram (`minors rules diagram`) is drawn from, and the oracle of the tests. The rules
never trigger it on the hot path: `fire` reads a dispatch table compiled once *from that
Machine* (a trigger costs about 8 µs, a table lookup a fraction of one). A test checks that
both agree for every status, trigger and context.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterator, Mapping
from enum import StrEnum

from attrs import frozen
from transitions import Machine

from ..domain import Status
from ..errors import UnknownNameError

__all__ = [
    "CONDITIONS",
    "MACHINE",
    "TRANSITIONS",
    "Condition",
    "Context",
    "Transition",
    "Trigger",
    "dot",
    "fire",
    "fired",
    "mermaid",
    "table",
]


class Trigger(StrEnum):
    """What happens to a minor, as the Machine's events."""

    ATTACK = "attack"
    """82.41, 82.34, 82.35: a declaration of war or a border war."""
    RESULT_NONE = "result_none"
    """82.21, 82.31: a result that leaves no standing."""
    RESULT_BRPS = "result_brps"
    """82.21A: a standing that attributes BRPs."""
    RESULT_CONTROL = "result_control"
    """82.21B, 82.31: a standing that gives control of the minor's hexes."""
    RESULT_ASSOCIATION = "result_association"
    """A standing of association (Europe only)."""
    RESULT_ALLIANCE = "result_alliance"
    """A standing that makes the minor an activated ally."""
    ASSOCIATE = "associate"
    """82.81, 82.82, 82.91D: a surviving minor associates with its partner."""
    ALLY = "ally"
    """82.12 (Poland), 82.91C (Communist China): a surviving minor becomes an ally."""
    ALIGN = "align"
    """82.91D: a minor at peace associates (Thailand with Japan)."""
    FREE_FRENCH = "free_french"
    """82.91F: a fallen power's colony turns to the power controlling it."""
    CONQUER = "conquer"
    """82.11G: the minor is conquered."""


class Condition(StrEnum):
    """The facts a transition may depend on, worked out by the rules for each event."""

    GARRISON_PARTNER = "garrison_partner"
    """82.34: a garrisoning major at war with the attacker may take the minor."""
    PARTNER_FREE = "partner_free"
    """82.351: the would-be partner is not barred."""
    ATTACKER_AT_WAR = "attacker_at_war"
    """82.81B, 82.82: the attacker is at war with an opposing faction."""
    REFUSED = "refused"
    """82.81D: the partner refused the association."""


CONDITIONS = tuple(c.value for c in Condition)
"""The conditions' names, as the Machine and `Context` spell them."""


@frozen
class Transition:
    """One transition of the table: from any of `source` to `dest` on `trigger`, when every
    condition holds and none of `unless` does. The first that applies wins."""

    trigger: Trigger
    source: tuple[Status, ...]
    dest: Status
    clause: str
    conditions: tuple[Condition, ...] = ()
    unless: tuple[Condition, ...] = ()

    def for_machine(self) -> dict[str, object]:
        """The transition as `transitions.Machine` takes it."""
        return {
            "trigger": self.trigger.value,
            "source": [s.value for s in self.source],
            "dest": self.dest.value,
            "conditions": [c.value for c in self.conditions],
            "unless": [c.value for c in self.unless],
        }


S, C, T = Status, Condition, Trigger
AT_PEACE = (S.NEUTRAL, S.BRPS_ATTRIBUTED, S.HEXES_CONTROLLED)
ATTACKABLE = (*AT_PEACE, S.INDEPENDENT)
CONQUERABLE = (*ATTACKABLE, S.ASSOCIATED, S.ALLIED, S.COLONY, S.COMMONWEALTH, S.CONQUERED)
"""A conquered minor can be conquered again by an enemy of its conqueror (82.42)."""

TRANSITIONS: tuple[Transition, ...] = (
    Transition(T.ATTACK, ATTACKABLE, S.ASSOCIATED, "82.34", (C.GARRISON_PARTNER,)),
    Transition(T.ATTACK, ATTACKABLE, S.INDEPENDENT, "82.41"),
    Transition(T.RESULT_NONE, AT_PEACE, S.NEUTRAL, "82.11A"),
    Transition(T.RESULT_BRPS, AT_PEACE, S.BRPS_ATTRIBUTED, "82.21A"),
    Transition(T.RESULT_CONTROL, AT_PEACE, S.HEXES_CONTROLLED, "82.31"),
    Transition(T.RESULT_ASSOCIATION, AT_PEACE, S.ASSOCIATED, "82.11E", (C.PARTNER_FREE,)),
    Transition(T.RESULT_ASSOCIATION, AT_PEACE, S.HEXES_CONTROLLED, "82.351"),
    Transition(T.RESULT_ALLIANCE, AT_PEACE, S.ALLIED, "82.11F", (C.PARTNER_FREE,)),
    Transition(T.RESULT_ALLIANCE, AT_PEACE, S.HEXES_CONTROLLED, "82.351"),
    Transition(
        T.ASSOCIATE, (S.INDEPENDENT,), S.ASSOCIATED, "82.81",
        (C.PARTNER_FREE, C.ATTACKER_AT_WAR), (C.REFUSED,),
    ),
    Transition(T.ASSOCIATE, (S.INDEPENDENT,), S.INDEPENDENT, "82.81D"),
    Transition(
        T.ALLY, (S.INDEPENDENT,), S.ALLIED, "82.12",
        (C.PARTNER_FREE, C.ATTACKER_AT_WAR), (C.REFUSED,),
    ),
    Transition(T.ALLY, (S.INDEPENDENT,), S.INDEPENDENT, "82.81D"),
    Transition(T.ALIGN, AT_PEACE, S.ASSOCIATED, "82.91D", (C.PARTNER_FREE,)),
    Transition(T.FREE_FRENCH, (S.COLONY,), S.ASSOCIATED, "82.91F"),
    Transition(T.CONQUER, CONQUERABLE, S.CONQUERED, "82.11G"),
)  # fmt: skip
"""The transitions in the order they are tried: the first whose conditions hold wins."""

MACHINE = Machine(
    model=None,
    states=[s.value for s in Status],
    transitions=[t.for_machine() for t in TRANSITIONS],
    initial=None,
    auto_transitions=False,
)
"""The one Machine of rule 82's statuses, shared by all minors (none is added as a model)."""


@frozen
class Context:
    """The facts of one event, as the Machine's conditions read them."""

    garrison_partner: bool = False
    partner_free: bool = True
    attacker_at_war: bool = True
    refused: bool = False


Route = tuple[tuple[tuple[str, bool], ...], Status]


def _routes_of(machine: Machine) -> dict[tuple[Status, Trigger], tuple[Route, ...]]:
    compiled: dict[tuple[Status, Trigger], tuple[Route, ...]] = {}
    for trigger, event in machine.events.items():
        for source, transitions in event.transitions.items():
            compiled[(Status(source), Trigger(trigger))] = tuple(
                (tuple((str(c.func), c.target) for c in t.conditions), Status(t.dest or source))
                for t in transitions
            )
    return compiled


_TABLE = _routes_of(MACHINE)


def table() -> Mapping[tuple[Status, Trigger], tuple[Route, ...]]:
    """The dispatch table compiled from `MACHINE`: (status, trigger) -> routes in order."""
    return _TABLE


def _route(status: Status, trigger: Trigger, context: Context) -> Status | None:
    for conditions, dest in _TABLE.get((status, trigger), ()):
        if all(getattr(context, name) is target for name, target in conditions):
            return dest
    return None


def fire(status: Status, trigger: Trigger, context: Context = Context()) -> Status | None:
    """The status `trigger` leads to from `status` in `context`; None if it cannot fire.
    (Each answer is worked out from the table once: there are few statuses and contexts.)

    Raises:
        UnknownNameError: `trigger` is not a `Trigger` (a misspelt one names the closest).
    """
    return _fired(status, trigger, context)


_FIRED: dict[tuple[Status, Trigger, bool, bool, bool, bool], Status | None] = {}


def fired(
    status: Status,
    trigger: Trigger,
    garrison_partner: bool = False,
    partner_free: bool = True,
    attacker_at_war: bool = True,
    refused: bool = False,
) -> Status | None:
    """`fire` with the facts of `Context` given one by one (the rules' hot path: no
    `Context` is made; each answer is read from the table once)."""
    key = (status, trigger, garrison_partner, partner_free, attacker_at_war, refused)
    try:
        return _FIRED[key]
    except KeyError:
        found = _FIRED[key] = _fired(
            status, trigger, Context(garrison_partner, partner_free, attacker_at_war, refused)
        )
        return found


@functools.cache
def _fired(status: Status, trigger: Trigger, context: Context) -> Status | None:
    try:
        known = Trigger(trigger)
    except ValueError:
        close = tuple(difflib.get_close_matches(str(trigger), [t.value for t in Trigger], n=2))
        raise UnknownNameError("trigger", str(trigger), close) from None
    return _route(Status(status), known, context)


# ---- the diagram -------------------------------------------------------------------------


def _edges() -> Iterator[tuple[str, str, list[str]]]:
    """(source, dest, labels) of each arrow of the Machine: the triggers that lead from one
    status to another, each with its conditions."""
    arrows: dict[tuple[str, str], list[str]] = {}
    for trigger, event in MACHINE.events.items():
        for source, transitions in event.transitions.items():
            for t in transitions:
                guards = [str(c.func) if c.target else f"not {c.func}" for c in t.conditions]
                label = trigger + (f" [{', '.join(guards)}]" if guards else "")
                arrows.setdefault((source, t.dest or source), []).append(label)
    for (source, dest), labels in arrows.items():
        yield source, dest, labels


def dot() -> str:
    """The status diagram in Graphviz's dot language."""
    lines = [
        "digraph statuses {",
        "  rankdir=LR;",
        '  node [shape=box, style=rounded, fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
        *(f'  "{s.value}";' for s in Status),
    ]
    for source, dest, labels in _edges():
        label = "\\n".join(labels)
        lines.append(f'  "{source}" -> "{dest}" [label="{label}"];')
    return "\n".join([*lines, "}"]) + "\n"


def mermaid() -> str:
    """The status diagram as a Mermaid state diagram."""
    lines = ["stateDiagram-v2"]
    for source, dest, labels in _edges():
        lines.append(f"  {source} --> {dest}: {'<br>'.join(labels)}")
    return "\n".join(lines) + "\n"
