"""The rulebook: minor-country statuses and their transitions, declared once as data.

One module-level `transitions.Machine` holds them; it is the authority on statuses and
transitions, and what diagrams and introspection read. The kernel never triggers it on the
hot path: `fire` reads a dispatch table compiled once *from that Machine* (a trigger costs
about 8 µs, a table lookup a fraction of one). A property test checks that both agree for
every status, trigger and context.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen
from transitions import Machine

from ..domain import Status

__all__ = ["CONDITIONS", "MACHINE", "TRANSITIONS", "Context", "fire", "table"]

S = Status
AT_PEACE = [S.NEUTRAL.value, S.BRPS_ATTRIBUTED.value, S.HEXES_CONTROLLED.value]
ATTACKABLE = [*AT_PEACE, S.INDEPENDENT.value]
CONQUERABLE = [
    *ATTACKABLE,
    S.ASSOCIATED.value,
    S.ALLIED.value,
    S.COLONY.value,
    S.COMMONWEALTH.value,
    S.CONQUERED.value,  # reconquest by an enemy of its conqueror (82.42)
]

CONDITIONS = ("garrison_partner", "partner_free", "attacker_at_war", "refused")
"""The facts a transition may depend on, computed by the kernel for each event:

- garrison_partner: a garrisoning major at war with the attacker may take the minor (82.34);
- partner_free: the would-be partner is not barred by 82.351;
- attacker_at_war: the attacker is at war with an opposing faction (82.81B, 82.82);
- refused: the partner refused the association (82.81D).
"""

TRANSITIONS: list[dict[str, object]] = [
    # 82.41 / 82.34 / 82.35: an attack (a declaration of war or a border war).
    {
        "trigger": "attack",
        "source": ATTACKABLE,
        "dest": S.ASSOCIATED.value,
        "conditions": ["garrison_partner"],
    },
    {"trigger": "attack", "source": ATTACKABLE, "dest": S.INDEPENDENT.value},
    # 82.21 / 82.31 and the diplomatic scale: a new standing result for a minor at peace.
    {"trigger": "result_none", "source": AT_PEACE, "dest": S.NEUTRAL.value},
    {"trigger": "result_brps", "source": AT_PEACE, "dest": S.BRPS_ATTRIBUTED.value},
    {"trigger": "result_control", "source": AT_PEACE, "dest": S.HEXES_CONTROLLED.value},
    {
        "trigger": "result_association",
        "source": AT_PEACE,
        "dest": S.ASSOCIATED.value,
        "conditions": ["partner_free"],
    },
    {"trigger": "result_association", "source": AT_PEACE, "dest": S.HEXES_CONTROLLED.value},
    {
        "trigger": "result_alliance",
        "source": AT_PEACE,
        "dest": S.ALLIED.value,
        "conditions": ["partner_free"],
    },
    {"trigger": "result_alliance", "source": AT_PEACE, "dest": S.HEXES_CONTROLLED.value},
    # 82.81 / 82.82 / 82.91D: a surviving minor associates, unless barred or refused.
    {
        "trigger": "associate",
        "source": S.INDEPENDENT.value,
        "dest": S.ASSOCIATED.value,
        "conditions": ["partner_free", "attacker_at_war"],
        "unless": ["refused"],
    },
    {"trigger": "associate", "source": S.INDEPENDENT.value, "dest": S.INDEPENDENT.value},
    # 82.12 (Poland), 82.91C (Communist China): a surviving minor becomes an ally.
    {
        "trigger": "ally",
        "source": S.INDEPENDENT.value,
        "dest": S.ALLIED.value,
        "conditions": ["partner_free", "attacker_at_war"],
        "unless": ["refused"],
    },
    {"trigger": "ally", "source": S.INDEPENDENT.value, "dest": S.INDEPENDENT.value},
    # 82.91D: Thailand associates with Japan; 82.91F: the French islands turn Free French.
    {
        "trigger": "align",
        "source": AT_PEACE,
        "dest": S.ASSOCIATED.value,
        "conditions": ["partner_free"],
    },
    {"trigger": "free_french", "source": S.COLONY.value, "dest": S.ASSOCIATED.value},
    # Conquest: the minor's units are removed; it is at war with no one.
    {"trigger": "conquer", "source": CONQUERABLE, "dest": S.CONQUERED.value},
]

MACHINE = Machine(
    model=None,
    states=[s.value for s in Status],
    transitions=TRANSITIONS,
    initial=None,
    auto_transitions=False,
)
"""The one Machine of the rulebook, shared by all minors (none is added as a model)."""


@frozen
class Context:
    """The facts of one event, as the Machine's conditions read them."""

    garrison_partner: bool = False
    partner_free: bool = True
    attacker_at_war: bool = True
    refused: bool = False


Route = tuple[tuple[tuple[str, bool], ...], Status]


def _compile(machine: Machine) -> dict[tuple[Status, str], tuple[Route, ...]]:
    compiled: dict[tuple[Status, str], tuple[Route, ...]] = {}
    for trigger, event in machine.events.items():
        for source, transitions in event.transitions.items():
            compiled[(Status(source), trigger)] = tuple(
                (tuple((str(c.func), c.target) for c in t.conditions), Status(t.dest or source))
                for t in transitions
            )
    return compiled


_TABLE = _compile(MACHINE)


def table() -> Mapping[tuple[Status, str], tuple[Route, ...]]:
    """The dispatch table compiled from `MACHINE`: (status, trigger) -> routes in order."""
    return _TABLE


def _route(status: Status, trigger: str, context: Context) -> Status | None:
    for conditions, dest in _TABLE.get((status, trigger), ()):
        if all(getattr(context, name) is target for name, target in conditions):
            return dest
    return None


_FIRED: dict[tuple[Status, str, Context], Status | None] = {}


def fire(status: Status, trigger: str, context: Context = Context()) -> Status | None:
    """The status `trigger` leads to from `status` in `context`; None if it cannot fire.
    (Each answer is worked out from the table once: there are few statuses and contexts.)"""
    key = (status, trigger, context)
    try:
        return _FIRED[key]
    except KeyError:
        dest = _FIRED[key] = _route(status, trigger, context)
        return dest
