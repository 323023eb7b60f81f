"""Russian Commissars (A25.22-A25.223): substitution, leadership, rally and berserk."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest

from minors import MinorsError, RuleViolation, Side
from minors.asl import commissar as commissar_module
from minors.asl import dyo
from minors.asl.commissar import (
    RUSSIAN_REPLACEMENTS,
    CommissarError,
    CommissarRating,
    Personnel,
    RallyOutcome,
    RallyResult,
    Substitution,
    berserk_spread,
    check_substitution,
    leader_loss_reaches,
    leadership_applies,
    mc_order,
    morale_with_commissar,
    rally_outcome,
    rally_terms,
    substitute,
)
from minors.asl.personnel import PersonnelError, PersonnelKind, check_rating
from tests.paths import DOCS

K = PersonnelKind
OCT_42 = datetime.date(1942, 10, 31)
NINE, TEN = CommissarRating.NINE_ZERO, CommissarRating.TEN_ZERO


def leader(uid: str, rating: str, **facts: Any) -> Personnel:
    return Personnel(uid, K.LEADER, rating, int(rating.split("-")[0].split("+")[0]), **facts)


def commissar(uid: str = "com", rating: str = "9-0", **facts: Any) -> Personnel:
    return leader(uid, rating, is_commissar=True, **facts)


def squad(
    uid: str, rating: str = "4-4-7", kind: PersonnelKind = K.SQUAD, **facts: Any
) -> Personnel:
    return Personnel(uid, kind, rating, int(rating.rsplit("-", 1)[1]), **facts)


def ob(*ratings: str) -> list[Personnel]:
    """An order of battle: leaders `l0`, `l1` ... with these ratings, and two squads."""
    return [*(leader(f"l{i}", r) for i, r in enumerate(ratings)), squad("s1"), squad("s2")]


def messages(violations: tuple[Any, ...]) -> list[str]:
    assert all(v.rule == "A25.22" for v in violations)
    return [v.message for v in violations]


# ---- substitution (A25.22) ------------------------------------------------------------------


@pytest.mark.rule("A25.22")
@pytest.mark.parametrize(
    ("day", "ok"),
    [
        (datetime.date(1941, 6, 22), True),
        (OCT_42, True),
        (datetime.date(1942, 11, 1), False),
        (datetime.date(1944, 6, 1), False),
    ],
)
def test_substitution_only_up_to_october_1942(day: datetime.date, ok: bool) -> None:
    """10/42 is the last month in which an 8-0 may become a 9-0 Commissar."""
    found = check_substitution(day, ob("8-0", "9-1"), [Substitution("l0", NINE)])
    assert (found == ()) is ok
    assert ok or "up to 10/42" in messages(found)[0]


@pytest.mark.rule("A25.22")
def test_one_of_each_commissar() -> None:
    """An 8-0 to a 9-0 and an 8-1 to a 10-0 together are allowed."""
    units = ob("8-0", "8-1", "9-1", "7-0")
    assert (
        check_substitution(OCT_42, units, [Substitution("l0", NINE), Substitution("l1", TEN)]) == ()
    )


@pytest.mark.rule("A25.22")
def test_at_most_one_of_each_rating() -> None:
    """Two 8-0 leaders cannot both become 9-0 Commissars."""
    units = ob("8-0", "8-0", "9-1", "9-2", "7-0")
    found = check_substitution(OCT_42, units, [Substitution("l0", NINE), Substitution("l1", "9-0")])
    assert messages(found) == ["2 leaders become 9-0 Commissars; at most one 8-0 may be replaced"]


@pytest.mark.rule("A25.22")
@pytest.mark.parametrize(
    ("rating", "commissar_rating", "ok"),
    [
        ("8-0", NINE, True),
        ("8-1", NINE, False),
        ("8-1", TEN, True),
        ("8-0", TEN, False),
        ("9-1", TEN, False),
    ],
)
def test_which_leader_each_commissar_replaces(
    rating: str, commissar_rating: CommissarRating, ok: bool
) -> None:
    """A 9-0 replaces an 8-0 and a 10-0 replaces an 8-1, nothing else."""
    found = check_substitution(OCT_42, ob(rating, "9-1"), [Substitution("l0", commissar_rating)])
    assert (found == ()) is ok


@pytest.mark.rule("A25.22")
def test_only_a_leader_is_replaced() -> None:
    """A squad or a Commissar already in the order of battle cannot be substituted."""
    units = [*ob("9-1", "9-2"), commissar("c0")]
    assert (
        "s1 is a squad 4-4-7"
        in messages(check_substitution(OCT_42, units, [Substitution("s1", NINE)]))[0]
    )
    assert (
        "c0 is a Commissar"
        in messages(check_substitution(OCT_42, units, [Substitution("c0", NINE)]))[0]
    )


@pytest.mark.rule("A25.22")
@pytest.mark.parametrize(
    ("ratings", "subs", "ok"),
    [
        (("8-0",), {"l0": NINE}, False),
        (("8-0", "9-1"), {"l0": NINE}, True),
        (("8-0", "8-1", "9-1"), {"l0": NINE, "l1": TEN}, False),
        (("8-0", "8-1", "9-1", "7-0"), {"l0": NINE, "l1": TEN}, True),
    ],
)
def test_no_more_commissars_than_other_leaders(
    ratings: tuple[str, ...], subs: dict[str, CommissarRating], ok: bool
) -> None:
    """As many Commissars as other leaders is allowed; one more is not."""
    found = check_substitution(OCT_42, ob(*ratings), [Substitution(k, v) for k, v in subs.items()])
    assert (found == ()) is ok
    assert ok or "may not outnumber" in messages(found)[-1]


@pytest.mark.rule("A25.22")
def test_commissars_already_present_count() -> None:
    """A Commissar in the scenario's order of battle counts against the other leaders."""
    units = [*ob("8-0", "9-1"), commissar("c0")]
    found = check_substitution(OCT_42, units, [Substitution("l0", NINE)])
    assert "2 Commissar(s) and 1 other leader(s)" in messages(found)[0]


@pytest.mark.rule("A25.22")
def test_substitute_makes_the_commissars() -> None:
    """The substituted 8-0 and 8-1 become 9-0 and 10-0 Commissars; the rest is untouched."""
    units = ob("8-0", "8-1", "9-1", "7-0")
    after = substitute(OCT_42, units, [Substitution("l0", NINE), Substitution("l1", TEN)])
    assert [(u.rating, u.morale, u.is_commissar) for u in after[:2]] == [
        ("9-0", 9, True),
        ("10-0", 10, True),
    ]
    assert after[2:] == tuple(units[2:])


@pytest.mark.rule("A25.22")
def test_substitute_raises_every_violation() -> None:
    """An illegal substitution raises RuleViolation carrying all its violations."""
    with pytest.raises(RuleViolation) as caught:
        substitute(datetime.date(1943, 1, 1), ob("8-0"), [Substitution("l0", NINE)])
    assert caught.value.rule == "A25.22"
    assert len(caught.value.violations) == 2


@pytest.mark.rule("A25.22")
def test_malformed_substitutions_raise() -> None:
    """An unknown unit, or one named twice, is a CommissarError (MinorsError, ValueError)."""
    with pytest.raises(CommissarError, match="not in the order of battle") as caught:
        check_substitution(OCT_42, ob("8-0"), [Substitution("nobody", NINE)])
    assert isinstance(caught.value, MinorsError)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(CommissarError, match="twice"):
        check_substitution(OCT_42, ob("8-0", "9-1"), [Substitution("l0", NINE)] * 2)
    with pytest.raises(ValueError, match="'9-1'"):
        Substitution("l0", "9-1")  # type: ignore[arg-type]


@pytest.mark.rule("A25.22")
def test_a_commissar_is_a_9_0_or_10_0_leader() -> None:
    """A Commissar rated 8-1, or a bad rating, is refused."""
    with pytest.raises(CommissarError, match="9-0 or 10-0"):
        commissar("c", "8-1")
    with pytest.raises(CommissarError, match="not a squad rating"):
        Personnel("x", K.SQUAD, "4-4", 7)
    with pytest.raises(CommissarError, match="morale"):
        Personnel("x", K.SQUAD, "4-4-7", 11)


def test_ratings_by_kind() -> None:
    """Leaders read `8-1` or `6+1`; other counters `4-2-6`; a mismatch is a PersonnelError."""
    assert check_rating(K.LEADER, "6+1") == "6+1"
    assert check_rating(K.HALF_SQUAD, "2-2-6") == "2-2-6"
    with pytest.raises(PersonnelError):
        check_rating(K.LEADER, "4-2-6")
    assert [k for k in K if k.is_mmc] == [K.SQUAD, K.HALF_SQUAD, K.CREW]


# ---- leadership and morale (A25.221) --------------------------------------------------------


@pytest.mark.rule("A25.221")
def test_commissar_takes_the_mc_first() -> None:
    """A 9-0 Commissar checks before a 10-2 leader, who checks before an 8-1 and the squads."""
    units = [squad("s"), leader("l8", "8-1"), leader("l10", "10-2"), commissar("c")]
    assert [u.id for u in mc_order(units)] == ["c", "l10", "l8", "s"]
    with pytest.raises(CommissarError, match="one side"):
        mc_order([squad("s"), squad("g", side=Side.AXIS)])


@pytest.mark.rule("A25.221")
@pytest.mark.parametrize(
    ("lost", "other", "reached"),
    [
        (leader("l8", "8-1"), leader("l9", "9-2"), False),
        (leader("l8", "8-1"), leader("l7", "7-0"), True),
        (leader("l8", "8-1"), leader("m8", "8-0"), True),
        (commissar("c"), leader("l10", "10-2"), True),
        (commissar("c"), squad("s"), True),
        (commissar("c"), squad("g", side=Side.AXIS), False),
    ],
)
def test_leader_loss_reaches_higher_morale_leaders_only_for_a_commissar(
    lost: Personnel, other: Personnel, reached: bool
) -> None:
    """A lost 8-1 spares a 9-2, not an 8-0 (only a higher Morale Level spares); a lost
    Commissar spares no friendly unit, however steady."""
    assert leader_loss_reaches(lost, other) is reached


@pytest.mark.rule("A25.221")
def test_leader_loss_needs_a_leader() -> None:
    """Only a leader causes an LLMC, and not to itself."""
    with pytest.raises(CommissarError, match="not a leader"):
        leader_loss_reaches(squad("s"), squad("t"))
    with pytest.raises(CommissarError, match="own loss"):
        leader_loss_reaches(commissar("c"), commissar("c"))


@pytest.mark.rule("A25.221")
def test_morale_raised_by_an_unbroken_commissar() -> None:
    """Friendly squads, leaders and Cavalry gain one; the enemy and berserk units do not."""
    units = [
        commissar("c"),
        squad("s"),
        leader("l", "8-1"),
        squad("cav", mounted=True),
        squad("z", berserk=True),
        squad("g", side=Side.AXIS),
    ]
    assert [morale_with_commissar(u, units) for u in units] == [9, 8, 9, 8, 7, 7]


@pytest.mark.rule("A25.221")
def test_no_lift_from_a_broken_commissar_nor_for_one() -> None:
    """A broken Commissar lifts no one; a Commissar gains nothing from another."""
    units = [commissar("c", broken=True), squad("s")]
    assert morale_with_commissar(units[1], units) == 7
    pair = [commissar("c1"), commissar("c2", "10-0")]
    assert [morale_with_commissar(u, pair) for u in pair] == [9, 10]
    with pytest.raises(CommissarError, match="not in the Location"):
        morale_with_commissar(squad("x"), units)
    with pytest.raises(CommissarError, match="twice"):
        morale_with_commissar(units[1], [*units, units[1]])


@pytest.mark.rule("A25.221")
def test_leadership_never_modifies_a_commissar() -> None:
    """A leader's modifier applies to a squad or a leader, never to a Commissar."""
    assert [leadership_applies(u) for u in (squad("s"), leader("l", "8-0"), commissar())] == [
        True,
        True,
        False,
    ]


@pytest.mark.rule("A25.221")
def test_broken_commissar_rallies_himself_unaided() -> None:
    """A broken Commissar must try to Self-Rally, and no leader may help, even another Commissar."""
    units = [commissar("c", broken=True), commissar("c2", "10-0"), leader("l", "9-2")]
    terms = rally_terms(units[0], units)
    assert (terms.must_attempt, terms.self_rally, terms.leader_may_aid) == (True, True, False)
    assert (terms.directed_by, terms.drm, terms.dm_immune) == (None, 0, False)


# ---- rally (A25.222) ------------------------------------------------------------------------


@pytest.mark.rule("A25.222")
def test_commissar_must_rally_with_minus_one_and_no_dm() -> None:
    """An unbroken Commissar rallies a broken squad: compulsory, −1, immune to DM."""
    units = [commissar("c"), squad("s", broken=True)]
    terms = rally_terms(units[1], units)
    assert (terms.directed_by, terms.must_attempt, terms.drm, terms.dm_immune) == (
        "c",
        True,
        -1,
        True,
    )


@pytest.mark.rule("A25.222")
@pytest.mark.parametrize(
    "present",
    [
        [],
        [commissar("c", broken=True)],
        [commissar("c", berserk=True)],
        [commissar("g", side=Side.AXIS)],
    ],
)
def test_no_commissar_rally_without_a_fit_friendly_commissar(present: list[Personnel]) -> None:
    """Without an unbroken, non-berserk friendly Commissar the rally is the usual one."""
    units = [*present, squad("s", broken=True)]
    terms = rally_terms(units[-1], units)
    assert (terms.directed_by, terms.must_attempt, terms.drm, terms.dm_immune) == (
        None,
        False,
        0,
        False,
    )


@pytest.mark.rule("A25.222")
def test_rally_of_an_unbroken_unit_is_malformed() -> None:
    """Only a broken unit rallies."""
    with pytest.raises(CommissarError, match="not broken"):
        rally_terms(squad("s"), [squad("s")])
    with pytest.raises(CommissarError, match="not broken"):
        rally_outcome(squad("s"), True, False)


@pytest.mark.rule("A25.222")
@pytest.mark.parametrize(
    ("unit", "present", "passed", "result"),
    [
        (
            squad("s", "4-4-7", broken=True),
            True,
            True,
            RallyResult(RallyOutcome.RALLIED, K.SQUAD, "4-4-7"),
        ),
        (
            squad("s", "4-4-7", broken=True),
            False,
            False,
            RallyResult(RallyOutcome.STAYS_BROKEN, K.SQUAD, "4-4-7"),
        ),
        (
            squad("s", "4-2-6", broken=True),
            True,
            False,
            RallyResult(RallyOutcome.REDUCED, K.HALF_SQUAD, "2-2-6"),
        ),
        (
            squad("h", "2-2-6", K.HALF_SQUAD, broken=True),
            True,
            False,
            RallyResult(RallyOutcome.ELIMINATED, None, None),
        ),
        (
            squad("s", "4-4-7", broken=True),
            True,
            False,
            RallyResult(RallyOutcome.REPLACED, K.SQUAD, "4-2-6"),
        ),
        (
            squad("s", "6-2-8", broken=True),
            True,
            False,
            RallyResult(RallyOutcome.REPLACED, K.SQUAD, "5-2-7"),
        ),
        (
            squad("h", "2-2-7", K.HALF_SQUAD, broken=True),
            True,
            False,
            RallyResult(RallyOutcome.REPLACED, K.HALF_SQUAD, "2-2-6"),
        ),
        (
            leader("l", "8-1", broken=True),
            True,
            False,
            RallyResult(RallyOutcome.ELIMINATED, None, None),
        ),
        (
            squad("c", "2-2-8", K.CREW, broken=True),
            True,
            False,
            RallyResult(RallyOutcome.ELIMINATED, None, None),
        ),
        (
            commissar("c", broken=True),
            True,
            False,
            RallyResult(RallyOutcome.STAYS_BROKEN, K.LEADER, "9-0"),
        ),
    ],
    ids=[
        "passed",
        "failed-alone",
        "4-2-6-reduced",
        "2-2-6-eliminated",
        "4-4-7-replaced",
        "6-2-8-replaced",
        "hs-replaced",
        "smc-eliminated",
        "no-poorer-unit",
        "commissar-self-rally",
    ],
)
def test_failed_rally_under_a_commissar(
    unit: Personnel, present: bool, passed: bool, result: RallyResult
) -> None:
    """A failure under a Commissar Replaces, Reduces a 4-2-6, or eliminates 2-2-6 and SMC."""
    assert rally_outcome(unit, present, passed) == result


@pytest.mark.rule("A25.222")
def test_replacement_table_is_replaceable() -> None:
    """Another table changes the assumed rows; 4-2-6, 2-2-6 and SMC results stay as stated."""
    table = {**RUSSIAN_REPLACEMENTS, "6-2-8": "4-4-7", "4-2-6": "3-3-7"}
    elite = squad("s", "6-2-8", broken=True)
    assert rally_outcome(elite, True, False, replacements=table).rating == "4-4-7"
    conscript = squad("s", "4-2-6", broken=True)
    assert rally_outcome(conscript, True, False, replacements=table).outcome is RallyOutcome.REDUCED
    assert rally_outcome(elite, True, False, replacements={}).outcome is RallyOutcome.ELIMINATED
    hero = squad("h", "1-4-9", K.HERO, broken=True)
    with_hero = {"1-4-9": "1-3-8"}
    assert (
        rally_outcome(hero, True, False, replacements=with_hero).outcome is RallyOutcome.ELIMINATED
    )


# ---- berserk (A25.223) ----------------------------------------------------------------------


@pytest.mark.rule("A25.223")
def test_berserk_commissar_carries_his_infantry_along() -> None:
    """Friendly Infantry beside a berserk Commissar go berserk; Cavalry and the enemy do not."""
    units = [
        commissar("c", berserk=True),
        squad("s"),
        leader("l", "9-1"),
        squad("cav", mounted=True),
        squad("g", side=Side.AXIS),
    ]
    after = berserk_spread(units)
    assert [u.berserk for u in after] == [True, True, True, False, False]
    assert [u.id for u in after] == [u.id for u in units]


@pytest.mark.rule("A25.223")
def test_no_spread_without_a_berserk_commissar() -> None:
    """A berserk squad, or a calm Commissar, spreads nothing."""
    units = [commissar("c"), squad("s", berserk=True), squad("t")]
    assert berserk_spread(units) == tuple(units)


def test_docs_name_only_exported_functions() -> None:
    """Every function docs/commissar.md calls is exported by minors.commissar or minors.dyo."""
    text = (DOCS / "commissar.md").read_text(encoding="utf-8")
    called = set(re.findall(r"`(\w+)\(", text))
    assert {"check_substitution", "rally_outcome", "check_purchases"} <= called
    assert called <= {*commissar_module.__all__, *dyo.__all__}
