"""Typed commands, with `command(name, **fields)` as their factory.

The vocabulary and fields are those of scenario files (scenario-format.md). A command is
checked for form here (malformed: `CommandError`, a `ValueError`); whether it is legal now is
the game's question (`Game.check`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
from attrs import frozen

from .errors import MinorsError
from .units import UnitKind

__all__ = [
    "BorderWar",
    "ChooseLosses",
    "Command",
    "CommandError",
    "Conquer",
    "DeclareWar",
    "Deploy",
    "DiplomaticResult",
    "Move",
    "Place",
    "Placement",
    "ReenterWar",
    "RefuseAssociation",
    "Remove",
    "Subvert",
    "Surrender",
    "TraceSupply",
    "UnitSpec",
    "command",
]


class CommandError(MinorsError, ValueError):
    """A command that is malformed: unknown name, missing or wrong field, unknown country."""


@frozen
class UnitSpec:
    """A new unit as a `place` command gives it."""

    id: str
    owner: str
    kind: UnitKind
    factors: int


@frozen
class Placement:
    """One unit of a `deploy` set-up: the minor's unit and the hex it deploys in."""

    id: str
    kind: UnitKind
    factors: int
    hex: str


@frozen
class Deploy:
    """The deploying power's own set-up of an attacked minor's forces (82.5)."""

    name: ClassVar[str] = "deploy"
    minor: str
    placements: tuple[Placement, ...]


@frozen
class DiplomaticResult:
    """The modified diplomatic result of `major`'s roll on `minor` (82.21, 82.31)."""

    name: ClassVar[str] = "diplomatic_result"
    minor: str
    major: str
    result: int
    roll: int | None = None
    modifiers: tuple[int, ...] = ()


@frozen
class DeclareWar:
    """`attacker` declares war on `target`, a minor country or a major power (82.41)."""

    name: ClassVar[str] = "declare_war"
    attacker: str
    target: str
    displace: str | None = None
    """82.56: the hex next to the capital the attacker's units there move to."""


@frozen
class BorderWar:
    """Russia attacks Finland or Rumania without a declaration (82.41 exception, 66.2, 67.2)."""

    name: ClassVar[str] = "border_war"
    attacker: str
    target: str


@frozen
class Subvert:
    """Communist subversion of a minor (82.36): legal despite a German garrison."""

    name: ClassVar[str] = "subvert"
    major: str
    minor: str


@frozen
class Conquer:
    """`by` has conquered `minor`."""

    name: ClassVar[str] = "conquer"
    minor: str
    by: str


@frozen
class RefuseAssociation:
    """82.81D: `major` refuses the association of `minor`."""

    name: ClassVar[str] = "refuse_association"
    major: str
    minor: str


@frozen
class Surrender:
    """The major power surrenders (82.81C; France's fall, 82.91F)."""

    name: ClassVar[str] = "surrender"
    major: str


@frozen
class ReenterWar:
    """A surrendered major power re-enters the war (82.81C)."""

    name: ClassVar[str] = "reenter_war"
    major: str


@frozen
class Place:
    """Put new units on the map in a minor country or a major power's home country."""

    name: ClassVar[str] = "place"
    units: tuple[UnitSpec, ...]
    in_: str
    hex: str | None = None


@frozen
class Move:
    """Move units to a country (and hex)."""

    name: ClassVar[str] = "move"
    units: tuple[str, ...]
    to: str
    hex: str | None = None


@frozen
class TraceSupply:
    """82.32B: `units` trace supply through the minor `through` this phase."""

    name: ClassVar[str] = "trace_supply"
    units: tuple[str, ...]
    through: str


@frozen
class ChooseLosses:
    """82.321B: the owner's choice of which of its units in `minor` go first when the
    foreign-factor limit is exceeded at the end of this phase."""

    name: ClassVar[str] = "choose_losses"
    minor: str
    units: tuple[str, ...]


@frozen
class Remove:
    """Take units off the map."""

    name: ClassVar[str] = "remove"
    units: tuple[str, ...]


Command = (
    DiplomaticResult
    | DeclareWar
    | BorderWar
    | Subvert
    | Conquer
    | RefuseAssociation
    | Surrender
    | ReenterWar
    | Place
    | Move
    | Remove
    | Deploy
    | TraceSupply
    | ChooseLosses
)
KINDS: dict[str, type[Any]] = {
    cls.name: cls
    for cls in (
        DiplomaticResult,
        DeclareWar,
        BorderWar,
        Subvert,
        Conquer,
        RefuseAssociation,
        Surrender,
        ReenterWar,
        Place,
        Move,
        Remove,
        Deploy,
        TraceSupply,
        ChooseLosses,
    )
}


def _text(name: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CommandError(f"{name}: field {key!r} must be a non-empty string, not {value!r}")
    return value


def _integer(name: str, key: str, value: Any) -> int:
    if type(value) is not int:
        raise CommandError(f"{name}: field {key!r} must be a whole number, not {value!r}")
    return value


def _unit_spec(name: str, value: Any) -> UnitSpec:
    if isinstance(value, UnitSpec):
        return value
    if not isinstance(value, dict):
        raise CommandError(
            f"{name}: a unit must be a table like "
            "{ id = 'ger-1', owner = 'Germany', kind = 'infantry', factors = 3 }"
        )
    unknown = sorted(set(value) - {"id", "owner", "kind", "factors"})
    if unknown:
        raise CommandError(
            f"{name}: unit field {unknown[0]!r} is not known (fields: id, owner, kind, factors)"
        )
    for key in ("id", "owner", "kind", "factors"):
        if key not in value:
            raise CommandError(f"{name}: a unit needs {key!r}")
    try:
        kind = UnitKind(value["kind"])
    except ValueError:
        raise CommandError(
            f"{name}: unit kind {value['kind']!r} is not one of "
            + ", ".join(k.value for k in UnitKind)
        ) from None
    factors = _integer(name, "factors", value["factors"])
    if factors < 0:
        raise CommandError(f"{name}: unit factors must not be negative, not {factors}")
    return UnitSpec(
        _text(name, "id", value["id"]), _text(name, "owner", value["owner"]), kind, factors
    )


def _placement(name: str, value: Any) -> Placement:
    if isinstance(value, Placement):
        return value
    if not isinstance(value, dict) or set(value) != {"id", "kind", "factors", "hex"}:
        raise CommandError(
            f"{name}: a placement is a table with exactly id, kind, factors and hex, not {value!r}"
        )
    spec = _unit_spec(
        name, {"id": value["id"], "owner": "-", "kind": value["kind"], "factors": value["factors"]}
    )
    return Placement(spec.id, spec.kind, spec.factors, _text(name, "hex", value["hex"]))


def _ids(name: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not value:
        raise CommandError(f"{name}: field 'units' must be a non-empty list of unit ids")
    return tuple(_text(name, "units", v) for v in value)


def command(name: str, /, **fields: Any) -> Command:
    """Build a typed command from the scenario vocabulary: `command("declare_war",
    attacker="Germany", target="Sweden")`.

    Raises:
        CommandError: unknown command, unknown or missing field, or a value of the wrong type.
    """
    cls = KINDS.get(name)
    if cls is None:
        raise CommandError(f"unknown command {name!r}; commands are {', '.join(sorted(KINDS))}")
    attributes = {a.name: a for a in attrs.fields(cls)}
    given = {("in_" if key == "in" else key): value for key, value in fields.items()}
    unknown = sorted(set(given) - set(attributes))
    if unknown:
        shown = ", ".join("in" if a == "in_" else a for a in attributes)
        raise CommandError(f"{name}: unknown field {unknown[0]!r} (fields: {shown})")
    missing = [a for a, f in attributes.items() if f.default is attrs.NOTHING and a not in given]
    if missing:
        raise CommandError(f"{name}: missing field {'in' if missing[0] == 'in_' else missing[0]!r}")
    values: dict[str, Any] = {}
    for key, value in given.items():
        if key == "units":
            values[key] = (
                tuple(_unit_spec(name, v) for v in _as_list(name, value))
                if cls is Place
                else _ids(name, value)
            )
        elif key in ("result", "roll"):
            values[key] = None if value is None and key == "roll" else _integer(name, key, value)
        elif key == "placements":
            values[key] = tuple(_placement(name, v) for v in _as_list(name, value))
        elif key == "modifiers":
            values[key] = tuple(_integer(name, key, v) for v in _as_list(name, value, empty=True))
        elif value is None and attributes[key].default is None:
            values[key] = None
        else:
            values[key] = _text(name, "in" if key == "in_" else key, value)
    built: Command = cls(**values)
    return built


def _as_list(name: str, value: Any, *, empty: bool = False) -> list[Any]:
    if not isinstance(value, list | tuple) or (not value and not empty):
        raise CommandError(
            f"{name}: expected a {'list' if empty else 'non-empty list'}, not {value!r}"
        )
    return list(value)


_FIELDS: dict[type[Any], tuple[tuple[str, str, bool], ...]] = {}


def fields_of(cmd: Command) -> dict[str, Any]:
    """A command as the scenario vocabulary writes it (`command` plus its fields)."""
    cls = type(cmd)
    layout = _FIELDS.get(cls)
    if layout is None:  # (attribute, key, optional) per field, computed once per class
        layout = _FIELDS[cls] = tuple(
            (a.name, "in" if a.name == "in_" else a.name, a.default is not attrs.NOTHING)
            for a in attrs.fields(cls)
        )
    out: dict[str, Any] = {"command": cmd.name}
    for attribute, key, optional in layout:
        value = getattr(cmd, attribute)
        if optional and (value is None or value == ()):
            continue
        if attribute == "placements" and isinstance(cmd, Deploy):
            value = [
                {"id": p.id, "kind": p.kind.value, "factors": p.factors, "hex": p.hex}
                for p in cmd.placements
            ]
        elif attribute == "units" and isinstance(cmd, Place):
            value = [
                {"id": u.id, "owner": u.owner, "kind": u.kind.value, "factors": u.factors}
                for u in cmd.units
            ]
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out
