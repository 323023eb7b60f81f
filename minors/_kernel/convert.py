"""The kernel's one converter (cattrs): states, commands and effects to plain data and back.

Built on the domain converter (strict scalars, enums, moments, levels). A state's ledger
and wars have hooks of their own; effects are a tagged union keyed by `effect` (the
record's class name); commands a tagged union keyed by `command` (the kind's name), one per
set of kinds (a rulebook's), every kind structured strictly with its keys as the scenario
vocabulary writes them (`in`, not `in_`) and written back without its fields at their
default.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Union

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union

from ..domain import convert
from ..domain.clock import Moment, MomentError
from ..errors import CommandError
from .chain import Chain
from .effects import Effect
from .kind import Command, Names, field_names, per_kind, vocabulary_key
from .state import GameState, LedgerEntry

__all__ = [
    "CONVERTER",
    "build_command",
    "effect_data",
    "effect_from_data",
    "fields_of",
    "state_dict",
    "structure_state",
]


def _is_command(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Command) and attrs.has(kind)


def _renames(kind: type[Any]) -> dict[str, Any]:
    trailing = [a.name for a in attrs.fields(kind) if a.name.endswith("_")]
    return {name: override(rename=vocabulary_key(name)) for name in trailing}


def _converter() -> cattrs.Converter:
    conv = convert.converter()

    def wars_out(wars: dict[tuple[str, str], Moment]) -> list[list[str]]:
        return [[a, b, str(m)] for (a, b), m in sorted(wars.items())]

    def wars_in(value: Any, _: Any) -> dict[tuple[str, str], Moment]:
        return {(a, b): Moment.parse(m) for a, b, m in value}

    def chain_out(chain: Chain[LedgerEntry]) -> list[Any]:
        return [conv.unstructure(entry) for entry in chain]

    def chain_in(value: Any, _: Any) -> Chain[LedgerEntry]:
        if not isinstance(value, list):
            raise TypeError(f"the ledger is a list of entries, not {type(value).__name__}")
        return Chain(conv.structure(entry, LedgerEntry) for entry in value)

    conv.register_unstructure_hook_func(lambda t: t == Chain[LedgerEntry], chain_out)
    conv.register_structure_hook_func(lambda t: t == Chain[LedgerEntry], chain_in)
    wars_type = dict[tuple[str, str], Moment]
    conv.register_unstructure_hook_func(lambda t: t == wars_type, wars_out)
    conv.register_structure_hook_func(lambda t: t == wars_type, wars_in)

    conv.register_structure_hook_factory(
        _is_command,
        lambda kind: make_dict_structure_fn(
            kind, conv, _cattrs_forbid_extra_keys=True, **_renames(kind)
        ),
    )
    conv.register_unstructure_hook_factory(
        _is_command,
        lambda kind: make_dict_unstructure_fn(
            kind, conv, _cattrs_omit_if_default=True, **_renames(kind)
        ),
    )
    configure_tagged_union(Effect, conv, tag_generator=lambda cls: cls.__name__, tag_name="effect")
    return conv


CONVERTER = _converter()
"""States, commands and effects to plain data and back."""


# ---- states ---------------------------------------------------------------------------------


def state_dict(state: GameState) -> dict[str, Any]:
    """The complete canonical state as plain data."""
    data: dict[str, Any] = CONVERTER.unstructure(state)
    return data


def structure_state(data: Mapping[str, Any]) -> GameState:
    """The state `state_dict` wrote (cattrs errors propagate: the caller says where). A
    minor's single `deadline` of states written before deadlines were kept per reversal is
    read as a list of one."""
    minors = data.get("minors")
    if isinstance(minors, Mapping) and any(
        isinstance(m, Mapping) and "deadline" in m for m in minors.values()
    ):
        data = {**data, "minors": {name: _deadlines(m) for name, m in minors.items()}}
    state: GameState = CONVERTER.structure(data, GameState)
    return state


def _deadlines(minor: Any) -> Any:
    if not isinstance(minor, Mapping) or "deadline" not in minor:
        return minor
    old = {k: v for k, v in minor.items() if k != "deadline"}
    return {**old, "deadlines": [minor["deadline"]] if minor["deadline"] else []}


# ---- effects ----------------------------------------------------------------------------------


_EFFECT_DATA: Callable[[Effect], dict[str, Any]] = CONVERTER.get_unstructure_hook(Effect)
"""The tagged union's hook, what `CONVERTER.unstructure(effect, Effect)` calls (found once,
not at every effect of a log)."""


def effect_data(effect: Effect) -> dict[str, Any]:
    """An effect as plain data, its class name as `effect` (what the tagged union's hook
    writes, through the record's own hook: a log writes one per effect)."""
    kind = type(effect)
    found = _EFFECT_WRITERS.get(kind)
    if found is None:
        if kind not in _EFFECT_KINDS:
            return _EFFECT_DATA(effect)  # not a member of the union: cattrs says why
        found = _EFFECT_WRITERS[kind] = (CONVERTER.get_unstructure_hook(kind), kind.__name__)
    data = found[0](effect)
    data["effect"] = found[1]
    return data


_EFFECT_KINDS = frozenset(typing.get_args(Effect))
_EFFECT_WRITERS: dict[type[Any], tuple[Callable[[Any], dict[str, Any]], str]] = {}


def effect_from_data(data: Mapping[str, Any]) -> Effect:
    """The effect `effect_data` wrote (for reading a log file)."""
    effect: Effect = CONVERTER.structure(data, typing.cast(Any, Effect))
    return effect


# ---- commands --------------------------------------------------------------------------------


def fields_of(cmd: Command) -> dict[str, Any]:
    """A command as the scenario vocabulary writes it (`command` plus its fields); optional
    fields at their default are left out."""
    name, hook = _writer(type(cmd))
    return {"command": name, **hook(cmd)}


@per_kind
def _writer(kind: type[Any]) -> tuple[str, Callable[[Any], dict[str, Any]]]:
    """A kind's name as text and the hook `CONVERTER.unstructure` calls for it (found once
    per kind, not at every command a log holds)."""
    return str(kind.name), CONVERTER.get_unstructure_hook(kind)


def _tag(kind: Any) -> str:
    name: str = kind.name
    return name


@functools.cache
def _union(kinds: tuple[tuple[str, type[Any]], ...]) -> tuple[cattrs.Converter, Any]:
    """A converter with the tagged union of `kinds`, once per set of kinds."""
    conv = CONVERTER.copy()
    classes = tuple(cls for _, cls in kinds)
    union = Union[classes] if len(classes) > 1 else classes[0]  # noqa: UP007  (built at run time)
    if len(classes) > 1:
        configure_tagged_union(union, conv, tag_generator=_tag, tag_name="command")
    return conv, union


@per_kind
def _required(kind: type[Any]) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, key, is a unit list) of the fields `build` checks are not empty: the
    required texts and lists of a kind and of its nested records."""
    hints = typing.get_type_hints(kind)
    units = {name for name, what in field_names(kind).items() if what is Names.UNITS}
    out = []
    for a in attrs.fields(kind):
        hint = hints[a.name]
        if (hint is str or typing.get_origin(hint) is tuple) and a.default is attrs.NOTHING:
            out.append((a.name, vocabulary_key(a.name), a.name in units))
    return tuple(out)


def _empty(name: str, record: Any) -> None:
    for attribute, key, _ in _required(type(record)):
        value = getattr(record, attribute)
        if isinstance(value, str) and not value.strip():
            raise CommandError(f"{name}: field {key!r} must be a non-empty string")
        if isinstance(value, tuple):
            if not value:
                raise CommandError(f"{name}: field {key!r} must be a non-empty list")
            for item in value:
                if attrs.has(type(item)):
                    _empty(name, item)


def build_command(kinds: Mapping[str, type[Any]], name: str, fields: Mapping[str, Any]) -> Any:
    """The command `name` of `kinds` from its fields in the scenario vocabulary.

    Well-formed fields are read by the kind's generated builder (`_builder`); anything else
    goes through cattrs, which names what is wrong.

    Raises:
        CommandError: unknown command, unknown or missing field, or a value of the wrong type
            (named with its path: `units.0.kind`).
    """
    cls = kinds.get(name) if isinstance(name, str) else None
    if cls is None:
        raise CommandError(f"unknown command {name!r}; commands are {', '.join(sorted(kinds))}")
    fast = _COMMAND_BUILDER(cls)
    if fast is not None:
        built = fast(fields)
        if built is not None:
            return built
    return _structured(kinds, cls, name, fields)


def _structured(
    kinds: Mapping[str, type[Any]], cls: type[Any], name: str, fields: Mapping[str, Any]
) -> Any:
    """`build_command` through cattrs: the command, or the error naming what is wrong."""
    data = dict(fields)
    for _, key, units in _required(cls):
        if units and isinstance(data.get(key), str):
            data[key] = [data[key]]  # one unit id for a list of one
    conv, union = _union(tuple(kinds.items()))
    if len(kinds) > 1:
        data["command"] = name  # the tag of the union
    try:
        built = conv.structure(data, union)
    except (cattrs.BaseValidationError, CommandError, KeyError, TypeError, ValueError) as exc:
        where, problem, _ = convert.first_problem(exc)
        known = ", ".join(vocabulary_key(a.name) for a in attrs.fields(cls))
        if problem == "required field is missing":
            raise CommandError(f"{name}: missing field {where!r}") from None
        if problem.startswith("unknown field"):
            raise CommandError(f"{name}: {problem} (fields: {known})") from None
        raise CommandError(f"{name}: field {where!r}: {problem}") from None
    _empty(name, built)
    return built


# ---- the generated builders ------------------------------------------------------------------

_MISSING: Any = object()

_SCALARS = (str, int, bool)
"""Types whose values cattrs takes only as exactly that type (`True` is no count)."""


def _reader(hint: Any, var: str, slot: str, namespace: dict[str, Any]) -> str | None:
    """The expression reading a present value `var` of type `hint` as cattrs does (`_BAD`
    where it refuses it); None for a type no builder reads."""
    if hint in _SCALARS:
        namespace[slot] = hint
        return f"{var} if type({var}) is {slot} else _BAD"
    if isinstance(hint, type) and issubclass(hint, str | int) and issubclass(hint, enum.Enum):
        namespace[slot] = hint  # the str and int hooks read their enums by value
        return f"_member({slot}, {var})"
    if hint is Moment:
        return f"_moment({var})"
    return None


def _builder(kind: type[Any], command: bool) -> Callable[[Mapping[str, Any]], Any] | None:
    """A function that builds a `kind` (a command kind, or a record in one) from
    well-formed fields exactly as cattrs and `_empty` do, and returns None for anything
    else: an unknown or missing field, a value of another type, an empty text or list
    (`build_command` then lets cattrs name the problem). Straight-line code generated once
    per kind; None for a kind with a field of a type it does not read."""
    return _BUILDERS[command](kind)


def _field_lines(
    i: int, a: attrs.Attribute[Any], hint: Any, key: str, one_id: bool, ns: dict[str, Any]
) -> list[str] | None:
    """The lines reading field `a` (number `i`) into `a{i}`; None if no builder reads it."""
    optional = False
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (Union, types.UnionType) and type(None) in args:
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) != 1:
            return None
        optional, hint = True, rest[0]
    required = a.default is attrs.NOTHING
    out = [f"    v = f.get({key!r}, _MISSING)"]
    if required:
        out += ["    if v is _MISSING:", "        return None"]
        if one_id:  # one unit id for a list of one
            out += ["    if isinstance(v, str):", "        v = [v]"]
        out.append("    if v is None:")
    else:
        ns[f"_d{i}"] = a.default
        out += ["    if v is _MISSING:", f"        v = _d{i}", "    elif v is None:"]
    out.append("        pass" if optional else "        return None")
    if typing.get_origin(hint) is tuple:
        item = typing.get_args(hint)
        if len(item) != 2 or item[1] is not Ellipsis:
            return None
        out += ["    elif not isinstance(v, list | tuple):", "        return None", "    else:"]
        record = _builder(item[0], False) if attrs.has(item[0]) else None
        if record is not None:
            ns[f"_r{i}"] = record
            out += [
                "        w = []",
                "        for x in v:",
                f"            x = _r{i}(x)",
                "            if x is None:",
                "                return None",
                "            w.append(x)",
                "        v = tuple(w)",
            ]
        else:
            read = _reader(item[0], "x", f"_t{i}", ns) or ""
            if not read:
                return None
            out += [
                f"        v = tuple([{read} for x in v])",
                "        if _BAD in v:",
                "            return None",
            ]
        if required and not optional:  # `_empty`: a required list is not empty
            out += ["    if not v:", "        return None"]
    else:
        read = _reader(hint, "v", f"_t{i}", ns) or ""
        if not read:
            return None
        out += ["    else:", f"        v = {read}", "        if v is _BAD:"]
        out.append("            return None")
        if hint is str and required and not optional:  # `_empty`: a required text is not blank
            out += ["    if not v.strip():", "        return None"]
    out.append(f"    a{i} = v")
    return out


def _generate(kind: type[Any], command: bool) -> Callable[[Mapping[str, Any]], Any] | None:
    if not attrs.has(kind):
        return None
    hints = typing.get_type_hints(kind)
    units = {name for name, what in field_names(kind).items() if what is Names.UNITS}
    ns: dict[str, Any] = {"_cls": kind, "_MISSING": _MISSING, "_BAD": _MISSING}
    ns.update(_member=_member, _moment=_moment)
    keys: list[str] = []
    body: list[str] = []
    call: list[str] = []
    for i, a in enumerate(attrs.fields(kind)):
        if not a.init or isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]
            return None
        key = vocabulary_key(a.name) if command else a.name
        one_id = command and a.name in units and a.default is attrs.NOTHING
        lines = _field_lines(i, a, hints[a.name], key, one_id, ns)
        if lines is None:
            return None
        keys.append(key)
        body += lines
        call.append(f"{a.alias}=a{i}")
    ns["_KEYS"] = frozenset(keys)
    source = [
        "def build(f):",
        "    if type(f) is not dict or not f.keys() <= _KEYS:",
        "        return None",
        *body,
        "    try:",
        f"        return _cls({', '.join(call)})",
        "    except Exception:",  # a validator refused a value: cattrs says which
        "        return None",
    ]
    exec("\n".join(source) + "\n", ns)
    found: Callable[[Mapping[str, Any]], Any] = ns["build"]
    return found


def _member(members: Any, value: Any) -> Any:
    """The enum member `value` is or names, `_MISSING` if none (a strict scalar's hook).
    A value that names a member is found in the table `members(value)` looks in first."""
    try:
        return members._value2member_map_[value]
    except (KeyError, TypeError):
        pass
    try:
        return members(value)
    except (ValueError, TypeError):
        return _MISSING


def _moment(value: Any) -> Any:
    """The moment a text names, `_MISSING` if none (the domain converter's hook)."""
    if type(value) is not str:
        return _MISSING
    try:
        return Moment.parse(value)
    except MomentError:
        return _MISSING


_BUILDERS = (
    per_kind(lambda kind: _generate(kind, False)),
    per_kind(lambda kind: _generate(kind, True)),
)
"""The builders of records (keys as the attributes) and of command kinds (keys in the
scenario vocabulary: `in`), once per class."""

_COMMAND_BUILDER = _BUILDERS[True]
"""`_builder(kind, True)`, called straight: `build_command` runs once per command a log
holds."""
