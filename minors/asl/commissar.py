"""Russian Commissars (A25.22-A25.223): who may take one, and what one does in his Location.

Pure functions over personnel counters (`Personnel`): a Location is the sequence of counters
in it; what rules outside A25 decide (the dice, the LOS) is the caller's (docs/commissar.md).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType

import attrs
from attrs import field, frozen

from ..domain import Side
from ..domain.arguments import checked, typed
from ..domain.marks import clause
from ..errors import CommissarError, RuleViolation, Violation
from .personnel import PersonnelKind, check_rating

__all__ = [
    "LAST_SUBSTITUTION_MONTH",
    "REDUCTION",
    "RUSSIAN_REPLACEMENTS",
    "CommissarError",
    "CommissarRating",
    "Personnel",
    "RallyOutcome",
    "RallyResult",
    "RallyTerms",
    "Substitution",
    "berserk_spread",
    "check_substitution",
    "leader_loss_reaches",
    "leadership_applies",
    "mc_order",
    "morale_with_commissar",
    "rally_outcome",
    "rally_terms",
    "substitute",
]


class CommissarRating(StrEnum):
    """The two Political Commissars of A25.22 and the leader each one replaces."""

    NINE_ZERO = "9-0"
    """Replaces one 8-0 leader."""
    TEN_ZERO = "10-0"
    """Replaces one 8-1 leader."""

    @property
    def replaces(self) -> str:
        """The rating of the leader this Commissar stands in for."""
        return "8-0" if self is CommissarRating.NINE_ZERO else "8-1"

    @property
    def morale(self) -> int:
        """The Commissar's Morale Level."""
        return 9 if self is CommissarRating.NINE_ZERO else 10


@frozen(field_transformer=typed(CommissarError))
class Personnel:
    """A personnel counter, as much of it as the Commissar rules need: `morale` is the
    Morale Level it shows now (its broken side when broken); `mounted` marks Cavalry, which
    A25.221 counts with Infantry and A25.223 does not."""

    id: str
    kind: PersonnelKind
    rating: str
    morale: int
    side: Side = Side.ALLIES
    broken: bool = False
    berserk: bool = False
    is_commissar: bool = False
    mounted: bool = False

    def __attrs_post_init__(self) -> None:
        try:
            check_rating(self.kind, self.rating)
        except ValueError as error:
            raise CommissarError(f"{self.id}: {error}") from None
        if not 1 <= self.morale <= 10:
            raise CommissarError(f"{self.id}: morale {self.morale!r} is not 1-10")
        if self.is_commissar and self.rating not in set(CommissarRating):
            raise CommissarError(
                f"{self.id}: a Commissar is a 9-0 or 10-0 leader, not a {self.kind.value} "
                f"{self.rating}"
            )


def _location(units: Iterable[Personnel]) -> tuple[Personnel, ...]:
    out = tuple(units)
    ids = [u.id for u in out]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise CommissarError(f"unit ids {twice} are given twice; each counter once")
    return out


def _in(unit: Personnel, location: Sequence[Personnel]) -> None:
    if unit not in location:
        raise CommissarError(f"{unit.id} is not in the Location given")


def _directing(location: Iterable[Personnel], side: Side) -> list[Personnel]:
    """The unbroken, non-berserk Commissars of `side` in the Location."""
    return [
        u for u in location if u.is_commissar and u.side is side and not u.broken and not u.berserk
    ]


# ---- substitution (A25.22) -----------------------------------------------------------------

LAST_SUBSTITUTION_MONTH = (1942, 10)
"""A25.22: Commissars may be substituted in scenarios set in or before October 1942."""


@frozen(field_transformer=typed(CommissarError))
class Substitution:
    """A25.22: the Russian player's proposal to replace leader `leader` by a Commissar."""

    leader: str
    commissar: CommissarRating = field(converter=CommissarRating)


@checked(CommissarError)
@clause("A25.22", otherwise=())
def check_substitution(
    scenario_date: datetime.date,
    order_of_battle: Iterable[Personnel],
    substitutions: Iterable[Substitution],
) -> tuple[Violation, ...]:
    """A25.22: every reason the Russian player may not make these Commissar substitutions
    (any scenario up to 10/42, DYO and Russian Partisans included, no SSR needed); a
    CommissarError for a leader named twice or not in the order of battle, or an id twice."""
    units = {u.id: u for u in _location(order_of_battle)}
    proposed = tuple(substitutions)
    if not proposed:
        return ()
    out: list[Violation] = []

    def violation(message: str, **data: object) -> None:
        out.append(Violation("A25.22", message, data))

    named = [s.leader for s in proposed]
    for name in named:
        if name not in units:
            raise CommissarError(f"{name!r} is not in the order of battle")
        if named.count(name) > 1:
            raise CommissarError(f"{name!r} is substituted twice; name each leader once")
    if (scenario_date.year, scenario_date.month) > LAST_SUBSTITUTION_MONTH:
        violation(
            f"the scenario is set in {scenario_date:%m/%y}; Commissars may be substituted "
            "only in scenarios up to 10/42",
            date=scenario_date.isoformat(),
        )
    for sub in proposed:
        unit = units[sub.leader]
        wanted = sub.commissar.replaces
        if unit.kind is not PersonnelKind.LEADER or unit.is_commissar or unit.rating != wanted:
            what = "Commissar" if unit.is_commissar else f"{unit.kind.value} {unit.rating}"
            violation(
                f"a {sub.commissar.value} Commissar replaces an {wanted} leader, and "
                f"{unit.id} is a {what}",
                leader=unit.id,
                commissar=sub.commissar.value,
            )
    for rating in CommissarRating:
        count = sum(s.commissar is rating for s in proposed)
        if count > 1:
            violation(
                f"{count} leaders become {rating.value} Commissars; at most one "
                f"{rating.replaces} may be replaced",
                commissar=rating.value,
                count=count,
            )
    leaders = [u for u in units.values() if u.kind is PersonnelKind.LEADER]
    commissars = sum(u.is_commissar or u.id in named for u in leaders)
    others = len(leaders) - commissars
    if commissars > others:
        violation(
            f"the scenario would begin with {commissars} Commissar(s) and {others} other "
            "leader(s); Commissars may not outnumber the other leaders",
            commissars=commissars,
            others=others,
        )
    return tuple(out)


@checked(CommissarError)
@clause("A25.22")
def substitute(
    scenario_date: datetime.date,
    order_of_battle: Iterable[Personnel],
    substitutions: Iterable[Substitution],
) -> tuple[Personnel, ...]:
    """A25.22: the order of battle with the substitutions made, or a RuleViolation carrying
    every violation `check_substitution` finds."""
    units = _location(order_of_battle)
    proposed = tuple(substitutions)
    violations = check_substitution(scenario_date, units, proposed)
    if violations:
        raise RuleViolation(violations)
    chosen = {s.leader: s.commissar for s in proposed}
    return tuple(
        attrs.evolve(u, rating=r.value, morale=r.morale, is_commissar=True)
        if (r := chosen.get(u.id)) is not None
        else u
        for u in units
    )


# ---- leadership and morale (A25.221) -------------------------------------------------------


@checked(CommissarError)
@clause("A25.221", otherwise=())
def mc_order(location: Iterable[Personnel]) -> tuple[Personnel, ...]:
    """A25.221: the order in which one side's units in a Location take an IFT-dictated MC:
    Commissars first, whatever the Morale Levels; then as 10.2 has it (a CommissarError
    for units of both sides)."""
    units = _location(location)
    if len({u.side for u in units}) > 1:
        raise CommissarError("give one side's units: each side takes its own MCs")

    def rank(unit: Personnel) -> tuple[int, int]:
        if unit.is_commissar:
            return 0, -unit.morale
        if unit.kind is PersonnelKind.LEADER:
            return 1, -unit.morale
        return 2, 0

    return tuple(sorted(units, key=rank))


@checked(CommissarError)
@clause("A25.221", otherwise=False)
def leader_loss_reaches(leader: Personnel, unit: Personnel) -> bool:
    """A25.221: whether the breaking or loss of `leader` subjects `unit` to an LLMC/LLTC: a
    lost Commissar spares no one, where 10.2 spares a leader of higher Morale Level (a
    CommissarError if `leader` is no leader, or is `unit`)."""
    if leader.kind is not PersonnelKind.LEADER:
        raise CommissarError(f"{leader.id} is a {leader.kind.value}, not a leader")
    if leader.id == unit.id:
        raise CommissarError(f"{leader.id} does not check for its own loss")
    if unit.side is not leader.side:
        return False
    if leader.is_commissar or unit.kind is not PersonnelKind.LEADER:
        return True
    return unit.morale <= leader.morale


@checked(CommissarError)
@clause("A25.221", otherwise=True)
def leadership_applies(unit: Personnel) -> bool:
    """A25.221: whether a leader's leadership can modify `unit`'s DR: never a Commissar's."""
    return not unit.is_commissar


@checked(CommissarError)
@clause("A25.221")
def morale_with_commissar(unit: Personnel, location: Sequence[Personnel]) -> int:
    """A25.221: `unit`'s Morale Level in `location`: one higher with an unbroken friendly
    Commissar there, unless `unit` is itself a Commissar or berserk."""
    units = _location(location)
    _in(unit, units)
    if unit.is_commissar or unit.berserk:
        return unit.morale
    lifted = any(
        c.is_commissar and c.side is unit.side and not c.broken and c.id != unit.id for c in units
    )
    return unit.morale + 1 if lifted else unit.morale


# ---- rally (A25.221, A25.222) --------------------------------------------------------------


@frozen
class RallyTerms:
    """How a broken unit's rally goes under A25.221-A25.222. The −1 `drm` of A25.222 is the
    +1 Morale Level of A25.221 seen as a DRM: apply it or `morale_with_commissar`, not both."""

    directed_by: str | None
    """The Commissar rallying the unit, if one is."""
    must_attempt: bool
    """A rally attempt is compulsory: a Commissar rallies everyone broken in his Location,
    and a broken Commissar always tries to Self-Rally."""
    self_rally: bool
    """The unit rallies itself (a broken Commissar)."""
    leader_may_aid: bool
    """Another leader may help; never for a broken Commissar."""
    drm: int
    dm_immune: bool
    """Desperation Morale does not count while a Commissar rallies the unit."""


@checked(CommissarError)
@clause("A25.221", "A25.222")
def rally_terms(unit: Personnel, location: Sequence[Personnel]) -> RallyTerms:
    """A25.221-A25.222: who rallies the broken `unit`, and on what terms."""
    units = _location(location)
    _in(unit, units)
    if not unit.broken:
        raise CommissarError(f"{unit.id} is not broken: there is nothing to rally")
    if unit.is_commissar:
        return RallyTerms(None, True, True, False, 0, False)
    commissars = _directing((u for u in units if u.id != unit.id), unit.side)
    if commissars:
        chief = max(commissars, key=lambda c: c.morale)
        return RallyTerms(chief.id, True, False, True, -1, True)
    return RallyTerms(None, False, False, True, 0, False)


class RallyOutcome(StrEnum):
    """What a rally attempt leaves (A25.222)."""

    RALLIED = "rallied"
    STAYS_BROKEN = "stays_broken"
    """A failed rally not directed by a Commissar: the usual result."""
    REPLACED = "replaced"
    """Failed under a Commissar: the next lower quality unit of its size, still broken."""
    REDUCED = "reduced"
    """A broken 4-2-6 that failed under a Commissar: a broken 2-2-6 half-squad."""
    ELIMINATED = "eliminated"
    """Failed under a Commissar with no poorer unit to become: a 2-2-6, or an SMC."""


@frozen
class RallyResult:
    """The outcome of a rally, and the counter that is left (kind and rating)."""

    outcome: RallyOutcome
    kind: PersonnelKind | None
    rating: str | None


RUSSIAN_REPLACEMENTS: Mapping[str, str] = MappingProxyType(
    {
        "6-2-8": "5-2-7",
        "5-2-7": "4-2-6",
        "4-4-7": "4-2-6",
        "3-2-8": "2-2-7",
        "2-2-7": "2-2-6",
        "2-3-7": "2-2-6",
    }
)
"""The next lower quality Russian MMC of the same size, for A25.222. ASSUMED, NOT STATED: A25.222
names only the 4-2-6 and 2-2-6 cases (see `REDUCTION`). These rows reverse the Battle Hardening
steps of A25.2 (4-2-6 → 5-2-7, 2-2-7 → 3-2-8) and A25.211 (2-2-6 → 2-2-7, Conscripts to the
4-4-7/2-3-7 SMG line), the pairs squad/half-squad being those A25.211 prints. Pass another table to
`rally_outcome` to change them; an MMC with no row has no poorer unit and is eliminated."""

REDUCTION: Mapping[str, str] = MappingProxyType({"4-2-6": "2-2-6"})
"""A25.222 EXC: a broken 4-2-6 that fails a Commissar's rally is Reduced to a 2-2-6 HS."""
LOWEST = frozenset({"2-2-6"})
"""A25.222: a broken 2-2-6 that fails a Commissar's rally is eliminated."""


@checked(CommissarError)
@clause("A25.222")
def rally_outcome(
    unit: Personnel,
    commissar_present: bool,
    rally_roll_passed: bool,
    *,
    replacements: Mapping[str, str] = RUSSIAN_REPLACEMENTS,
) -> RallyResult:
    """A25.222: what a broken unit becomes after its rally DR; `commissar_present`: a
    Commissar directed it (`rally_terms`; never his own Self-Rally). `replacements` gives
    the next lower quality MMC of each (docs/commissar.md, "The Replacement table")."""
    if not unit.broken:
        raise CommissarError(f"{unit.id} is not broken: there is nothing to rally")
    if rally_roll_passed:
        return RallyResult(RallyOutcome.RALLIED, unit.kind, unit.rating)
    if not commissar_present or unit.is_commissar:
        return RallyResult(RallyOutcome.STAYS_BROKEN, unit.kind, unit.rating)
    if unit.kind.is_smc or unit.rating in LOWEST:
        return RallyResult(RallyOutcome.ELIMINATED, None, None)
    if unit.kind is PersonnelKind.SQUAD and unit.rating in REDUCTION:
        return RallyResult(RallyOutcome.REDUCED, PersonnelKind.HALF_SQUAD, REDUCTION[unit.rating])
    poorer = replacements.get(unit.rating)
    if poorer is None:
        return RallyResult(RallyOutcome.ELIMINATED, None, None)
    return RallyResult(RallyOutcome.REPLACED, unit.kind, poorer)


# ---- berserk (A25.223) ---------------------------------------------------------------------


@checked(CommissarError)
@clause("A25.223", otherwise=())
def berserk_spread(location: Iterable[Personnel]) -> tuple[Personnel, ...]:
    """A25.223: the Location after a Commissar in it goes berserk: every friendly Infantry
    unit there is berserk too (Cavalry, being mounted, and enemy units are not)."""
    units = _location(location)
    frenzied = {u.side for u in units if u.is_commissar and u.berserk}
    return tuple(
        attrs.evolve(u, berserk=True) if u.side in frenzied and not u.mounted else u for u in units
    )
