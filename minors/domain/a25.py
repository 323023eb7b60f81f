"""The vocabulary of ASL A25 nationality distinctions, which the A25 tables and the queries
of `minors.nationality` speak."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from attrs import frozen

from ..errors import YearMonthError

__all__ = [
    "CLASS_GROUPS",
    "KIND_SPECS",
    "UNIT_GROUPS",
    "Ammunition",
    "Basis",
    "ClassSelector",
    "Equipment",
    "Exemption",
    "Gear",
    "HeatOfBattle",
    "HobRoll",
    "KindSpec",
    "ObaAccuracy",
    "Paatc",
    "ScenarioKind",
    "Ssr",
    "ToHit",
    "TraitKind",
    "TraitValue",
    "UnitClass",
    "UnitType",
    "Weapon",
    "YearMonth",
    "YearMonthError",
    "expand_classes",
    "name_key",
]

TraitValue = bool | int | str | Fraction | tuple[str, ...]
"""What a trait's value may be: enum members are strings, a share is a `Fraction`."""


_YEAR_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


@frozen(order=True)
class YearMonth:
    """A scenario's month, `YYYY-MM`: A25 dates its distinctions by month (`7/44`)."""

    year: int
    month: int

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.month <= 12:
            raise YearMonthError(f"{self}: the month must be 01 to 12")
        if not 1900 <= self.year <= 2100:
            raise YearMonthError(f"{self}: the year must be a year of the twentieth century")

    @classmethod
    def parse(cls, text: str) -> YearMonth:
        """Read `YYYY-MM` (`1944-07`)."""
        match = _YEAR_MONTH.match(text.strip()) if isinstance(text, str) else None
        if not match:
            raise YearMonthError(f"{text!r} is not a year-month: write YYYY-MM, like '1944-07'")
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def of(cls, value: YearMonth | str | date) -> YearMonth:
        """A year-month from itself, `YYYY-MM` text or a date."""
        if isinstance(value, YearMonth):
            return value
        if isinstance(value, date):
            return cls(value.year, value.month)
        return cls.parse(value)

    def next(self) -> YearMonth:
        """The following month."""
        return YearMonth(self.year + self.month // 12, self.month % 12 + 1)

    def previous(self) -> YearMonth:
        """The month before."""
        return YearMonth(self.year - (self.month == 1), (self.month - 2) % 12 + 1)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


class UnitClass(StrEnum):
    """The quality class of a Multi-Man Counter; Partisans have no class at all (A25.24)."""

    ELITE = "elite"
    FIRST_LINE = "first_line"
    SECOND_LINE = "second_line"
    GREEN = "green"
    CONSCRIPT = "conscript"

    @property
    def inexperienced(self) -> bool:
        """Green and Conscript units are Inexperienced (A25.24, A25.91)."""
        return self in (UnitClass.GREEN, UnitClass.CONSCRIPT)


class ClassSelector(StrEnum):
    """A class, or a named group of classes, as a table row's condition gives it."""

    ELITE = "elite"
    FIRST_LINE = "first_line"
    SECOND_LINE = "second_line"
    GREEN = "green"
    CONSCRIPT = "conscript"
    NON_ELITE = "non_elite"
    """Every class but Elite (A25.63-A25.65, A25.8, A25.81, A25.91)."""
    INEXPERIENCED = "inexperienced"
    """Green and Conscript (A25.91)."""


CLASS_GROUPS: Mapping[str, frozenset[UnitClass]] = MappingProxyType(
    {
        ClassSelector.NON_ELITE: frozenset(UnitClass) - {UnitClass.ELITE},
        ClassSelector.INEXPERIENCED: frozenset(c for c in UnitClass if c.inexperienced),
    }
)


def expand_classes(selectors: tuple[str, ...]) -> frozenset[UnitClass]:
    """The classes that `selectors` (classes and group names) stand for."""
    return frozenset().union(*(CLASS_GROUPS.get(s) or {UnitClass(s)} for s in selectors))


class UnitType(StrEnum):
    """What a personnel counter is. A Commissar is a leader (A25.22)."""

    SQUAD = "squad"
    HALF_SQUAD = "half_squad"
    CREW = "crew"
    LEADER = "leader"
    COMMISSAR = "commissar"
    """A 9-0 or 10-0 Russian leader with the powers of A25.221-A25.223."""


UNIT_GROUPS: Mapping[str, frozenset[UnitType]] = MappingProxyType(
    {
        "mmc": frozenset({UnitType.SQUAD, UnitType.HALF_SQUAD, UnitType.CREW}),
        "smc": frozenset({UnitType.LEADER, UnitType.COMMISSAR}),
        "leader": frozenset({UnitType.LEADER, UnitType.COMMISSAR}),
    }
)
"""Unit selectors naming several types: a Commissar is also a leader."""


class ScenarioKind(StrEnum):
    """What kind of scenario is played: some clauses hold only in one kind."""

    HISTORICAL = "historical"
    HYPOTHETICAL = "hypothetical"
    """A25.41: British conscripts appear only in hypothetical scenarios."""
    DYO = "dyo"
    """Design Your Own (A25.12, A25.22, A25.53, A25.57)."""


class Ssr(StrEnum):
    """Scenario special rules that switch A25 distinctions on or off."""

    EARLY_WAR_DOCTRINE = "early_war_doctrine"
    """A25.212: the Russian early-war doctrine applies only when an SSR invokes it."""
    ASSAULT_FIRE = "assault_fire"
    """A25.9: Polish and Belgian elite and 1st Line squads get Assault Fire by SSR."""
    HOME_MORALE = "home_morale"
    """A25.8: Axis Minors at home get a better broken side by SSR."""
    PARTISAN_MOVEMENT = "partisan_movement"
    """A25.241: Partisans' movement advantages come by SSR."""
    AMMUNITION_OVERRIDE = "ammunition_override"
    """A25.33, A25.78: the scenario sets OBA ammunition itself ('unless specified')."""
    ELR_OVERRIDE = "elr_override"
    """A25.24, A25.31: the scenario sets the ELR itself ('unless indicated otherwise')."""


class Basis(StrEnum):
    """Where a trait comes from."""

    RULE = "rule"
    """A25 states it."""
    READING = "reading"
    """A documented reading of a defective or silent passage (docs/nationality.md)."""
    COUNTERS = "counters"
    """A fact printed on the counters (the SS broken side, A25.11)."""
    REFERENCE = "reference"
    """Defined outside A25: the trait names that rule and carries no figures of its own."""
    DEFAULT = "default"
    """The standard rule where A25 makes no distinction (it names that rule)."""
    ILLUSTRATIVE = "illustrative"
    """A labelled stand-in for text the rulebook lacks (the A25.72 chart)."""


class ToHit(StrEnum):
    """The To Hit numbers a weapon uses (A25.32, A25.52, A25.6, A25.79, A25.83, A25.242)."""

    RED = "red"
    BLACK = "black"


class Weapon(StrEnum):
    """What fires, for the To Hit colour."""

    ORDNANCE = "ordnance"
    """Guns and other ordnance, not MG or ATR."""
    AFV = "afv"
    """The main armament of armoured fighting vehicles."""
    MG_ATR = "mg_atr"
    """Machine guns (including an AFV's MG armament) and anti-tank rifles."""
    MARKED_A = "marked_a"
    """U.S.-built pieces in another nationality's colour, `(a)` (A25.32)."""
    MARKED_G = "marked_g"
    """German-built pieces, `(g)` (A25.83)."""
    MARKED_T = "marked_t"
    """Czech-built pieces, `(t)` (A25.83)."""


class Paatc(StrEnum):
    """The Pre-AFV Attack Task Check a unit takes (A25.65, A25.81, A25.91)."""

    NORMAL = "normal"
    ONE = "1paatc"


class ObaAccuracy(StrEnum):
    """Limits on an OBA battery's accuracy (C1.3)."""

    FINAL_DR_1_OR_LESS = "final_dr_1_or_less"
    """A25.52: accurate only on a Final Accuracy dr of 1 or less."""
    NEVER = "never"
    """A25.212: never accurate (except at a Pre-Registered hex)."""


class Ammunition(StrEnum):
    """An OBA battery's ammunition supply."""

    PLENTIFUL = "plentiful"
    NORMAL = "normal"
    SCARCE = "scarce"


class HeatOfBattle(StrEnum):
    """What a high Final Heat of Battle DR does to a unit (A25.82)."""

    SURRENDER = "surrender"
    BERSERK = "berserk"


class HobRoll(StrEnum):
    """The Final Heat of Battle DR a `heat_of_battle` trait is about: A25.82's Berserk
    exception covers 10 and 11 only, and a higher DR still surrenders."""

    DR_10_11 = "dr_10_11"
    DR_12_OR_MORE = "dr_12_or_more"


class Exemption(StrEnum):
    """What a unit may be exempt from (A25.23: a HW Unit)."""

    HEAT_OF_BATTLE = "heat_of_battle"
    PAATC = "paatc"
    PIN = "pin"
    """Pin results."""


class Equipment(StrEnum):
    """Equipment whose use may carry Captured penalties (A25.35, A25.54-A25.56, A25.75, A25.77)."""

    US_MG = "us_mg"
    """U.S.-colour machine guns (A25.35)."""
    A_SW = "a_sw"
    """U.S.-built support weapons printed in British or French colour, `(a)` (A25.35)."""
    US_MTR_BAZ = "us_mtr_baz"
    """U.S. mortars and bazookas of any colour (A25.35)."""
    SCROUNGED_MG = "scrounged_mg"
    """A MG scrounged from a U.S.- or British-built vehicle or wreck (A25.35)."""
    BRITISH_EQUIPMENT = "british_equipment"
    """The British (and British-colour `(f)`) SW, vehicles and Guns of A25.54."""
    BRITISH_AF_SW = "british_af_sw"
    """British-colour `(a)` and `(f)` support weapons (A25.55)."""
    US_VEHICLES_GUNS = "us_vehicles_guns"
    """The U.S. (and U.S.-colour `(f)`) vehicles and Guns of A25.55."""
    FRENCH_BUILT = "french_built"
    """French-colour or `(f)` SW, vehicles and Guns (A25.56)."""
    FRENCH_AB_SW = "french_ab_sw"
    """French-colour `(a)` and `(b)` support weapons (A25.56)."""
    VICHY_SW = "vichy_sw"
    """Vichy French support weapons (A25.56)."""
    RUSSIAN_MG = "russian_mg"
    """Russian machine guns other than LMG and the .50-cal HMG (A25.75)."""
    RUSSIAN_LMG = "russian_lmg"
    """Russian light machine guns (A25.75)."""
    RUSSIAN_50CAL = "russian_50cal"
    """The Russian .50-cal heavy machine gun (A25.75)."""
    FINNISH_R_MG = "finnish_r_mg"
    """Finnish-colour `(r)` machine guns (A25.75)."""
    FINNISH_PSK = "finnish_psk"
    """Finnish-colour Panzerschrecks (A25.75, A25.77)."""
    GERMAN_PSK = "german_psk"
    """German-colour Panzerschrecks (A25.75, A25.77)."""


class Gear(StrEnum):
    """A kind of equipment, for what a nationality fields and how a piece is represented."""

    PERSONNEL = "personnel"
    SW = "sw"
    VEHICLES = "vehicles"
    GUNS = "guns"
    MG = "mg"
    BAZ = "baz"


class TraitKind(StrEnum):
    """What a trait says. Values and aspects are typed by `KIND_SPECS`."""

    NATIONALITY = "nationality"
    """The nationality, or one whose rules it inherits (the tree; A25.4, A25.5, A25.58)."""
    USUAL_CLASSES = "usual_classes"
    """The classes the rules advise for some troops (A25.2, A25.3, A25.4, A25.8)."""
    COUNTS_AS_CONSCRIPT = "counts_as_conscript"
    """Whether Green troops count as Conscripts (A25.41, A25.51)."""
    COUNTS_AS_ELITE = "counts_as_elite"
    """Whether the unit counts as elite for any purpose (A25.24)."""
    COUNTS_AS_INEXPERIENCED = "counts_as_inexperienced"
    """Whether the unit counts as Inexperienced for any purpose (A25.24)."""
    ENTERS_BY_ELR_SUBSTITUTION = "enters_by_elr_substitution"
    """The unit usually enters play by ELR Unit Substitution (A25.51)."""
    LEADERSHIP_ACROSS = "leadership_across"
    """Whether leaders direct units of the other kind (Partisans and regulars, A25.24)."""
    ELITE_SQUAD = "elite_squad"
    """The squad that represents elite troops at the date (A25.1)."""
    SMG_SQUAD = "smg_squad"
    """An SMG squad available at the date (A25.84)."""
    REPLACEMENTS_TO_INEXPERIENCED = "replacements_to_inexperienced"
    """ELR Replacements a squad undergoes before it is Inexperienced (A25.1)."""
    ELR = "elr"
    """The unit's ELR, whatever the scenario gives others (A25.12, A25.24, A25.31, A25.42)."""
    ELR_REPLACED_BY = "elr_replaced_by"
    """What replaces the unit when it fails an ELR check (A25.62, A25.66, A25.72, A25.84)."""
    BATTLE_HARDENS_TO = "battle_hardens_to"
    """What the unit becomes when it Battle Hardens (A25.2, A25.211, A25.66, A25.72, A25.84)."""
    REARMED_AS = "rearmed_as"
    """What an Unarmed MMC becomes when it rearms (A25.72)."""
    REPLACEMENT_CHAIN = "replacement_chain"
    """The order of MMC Replacement, best first (A25.72: a labelled stand-in chart)."""
    BATTLE_HARDENING_CHAIN = "battle_hardening_chain"
    """The order of MMC Battle Hardening: the replacement chain reversed (A25.72)."""
    CHANGES_NATIONALITY = "changes_nationality"
    """Whether Heat of Battle or ELR can turn the unit into another nationality (A25.66)."""
    GUARDS_DEPLETION_DELTA = "guards_depletion_delta"
    """Change to the Depletion Numbers of a Guards formation's weapons (A25.2, C8.2)."""
    ASSAULT_ENGINEER = "assault_engineer"
    """Whether the unit is an Assault Engineer by itself (A25.12)."""
    ASSAULT_ENGINEER_DESIGNATION = "assault_engineer_designation"
    """Whether the unit may be designated an Assault Engineer (A25.12, H1.22)."""
    BROKEN_MORALE = "broken_morale"
    """The printed broken-side Morale Level minus the Good Order one (A25.3, A25.8, A25.9,
    A25.11, A25.24)."""
    BROKEN_MORALE_MODIFIER = "broken_morale_modifier"
    """A change to the printed broken-side Morale Level (A25.9); they add up."""
    BROKEN_MORALE_ABOVE_PRINTED = "broken_morale_above_printed"
    """The broken-side Morale Level set this much above the printed one (A25.8): the highest."""
    PAATC = "paatc"
    """Which PAATC the unit takes (A25.65, A25.66, A25.81, A25.91)."""
    LAX = "lax"
    """Whether the unit is always Lax (A25.64, A25.66)."""
    STEALTHY = "stealthy"
    """Whether the unit is Stealthy (A25.24, A25.44, A25.7)."""
    COWERING_IMMUNE = "cowering_immune"
    """Whether the unit is immune to Cowering (A25.45, A25.7)."""
    SELF_RALLY = "self_rally"
    """Whether the unit may attempt Self-Rally in any RPh (A25.7)."""
    RTPH_SURRENDER = "rtph_surrender"
    """Whether the unit may surrender by the RtPh method (A25.11, A25.24, A25.43)."""
    DISRUPTION = "disruption"
    """Whether the unit can become Disrupted (A25.11, A25.24, A25.43)."""
    ESCAPE = "escape"
    """Whether a captured unit attempts escape (A25.63, A25.82)."""
    CAPTURE_DRM_APPLIES = "capture_drm_applies"
    """Whether the +1 CC DRM of a capture attempt applies against the unit (A25.63)."""
    HEAT_OF_BATTLE = "heat_of_battle"
    """What a high Final Heat of Battle DR does (A25.82)."""
    NO_QUARTER = "no_quarter"
    """Whether No Quarter is in effect (A25.8)."""
    DEPLOY = "deploy"
    """Whether the squad may Deploy (A25.2, A25.61)."""
    RECOMBINE = "recombine"
    """Whether half-squads may Recombine (A25.2)."""
    LEADERLESS_DEPLOY = "leaderless_deploy"
    """The Task Check a squad passes to Deploy without a leader (A25.71)."""
    LEADERLESS_RECOMBINE = "leaderless_recombine"
    """Whether half-squads Recombine without a leader (A25.71)."""
    LEADER_RANKS = "leader_ranks"
    """The leader ranks, highest first (A25.71)."""
    LEADER_LOSS_MAX_MC = "leader_loss_max_mc"
    """The most severe Leader Loss MC/TC (A25.71)."""
    FIELD_PROMOTION = "field_promotion"
    """Whether Field Promotion is possible (A25.71)."""
    SKI_CAPABLE = "ski_capable"
    """Whether the unit may use skis (A25.7, E4.2)."""
    SSR_MOVEMENT_SHARED = "ssr_movement_shared"
    """Whether regulars stacked with Partisans share their SSR movement (A25.241)."""
    ENTRENCHING_DRM = "entrenching_drm"
    """The DRM of an entrenching attempt (A25.21)."""
    HUMAN_WAVE = "human_wave"
    """Whether the nationality may conduct a Human Wave (A25.23)."""
    HW_MORALE_BONUS = "hw_morale_bonus"
    """Morale Levels a HW Unit gains for the rest of the Player Turn, unless broken (A25.23)."""
    LOSES_CONCEALMENT = "loses_concealment"
    """Whether the unit loses any concealment (A25.23: on becoming a HW Unit)."""
    EXEMPT_FROM = "exempt_from"
    """Whether the unit is exempt from a rule, the aspect (A25.23: a HW Unit)."""
    AFV_MOVES_BEFORE_INFANTRY = "afv_moves_before_infantry"
    """Whether AFV must move before the Infantry (A25.212)."""
    ARMORED_ASSAULT = "armored_assault"
    """Whether Armored Assault is allowed (A25.212, D9.31)."""
    ASSAULT_FIRE = "assault_fire"
    """Whether the unit has Assault Fire (A25.11, A25.53, A25.9)."""
    CC_DRM_AGAINST = "cc_drm_against"
    """The DRM of CC attacks made against the unit (A25.212)."""
    HAND_TO_HAND = "hand_to_hand"
    """Whether the unit may make CC Hand-to-Hand (A25.43, J2.31)."""
    HAND_TO_HAND_DRM = "hand_to_hand_drm"
    """The extra DRM of the unit's Hand-to-Hand CC attacks (A25.43)."""
    COMMANDO = "commando"
    """Whether the unit is a Commando (A25.43, H1.24)."""
    SMOKE_GRENADES = "smoke_grenades"
    """Whether the squad may place smoke grenades (A25.34, A25.46)."""
    WP_GRENADES = "wp_grenades"
    """Whether the squad may place WP grenades (A25.34, A25.46, A25.53)."""
    FT_DC_AS_ELITE = "ft_dc_as_elite"
    """Whether the unit uses FT and DC as if elite (A25.74)."""
    TO_HIT = "to_hit"
    """The To Hit numbers of a weapon (A25.242, A25.32, A25.52, A25.6, A25.79, A25.83)."""
    HEAT = "heat"
    """Whether HEAT ammunition is available (A25.83)."""
    PF_RULES = "pf_rules"
    """The rule Panzerfaust use follows (C13.3)."""
    PF = "pf"
    """Whether the unit may make PF Checks (A25.76, A25.85)."""
    PF_RANGE = "pf_range"
    """The PF range in hexes (A25.76, A25.85)."""
    PF_CHECK_DR = "pf_check_dr"
    """The highest Final PF Check dr that gives a PF (A25.76, A25.85)."""
    PF_CHECK_DRM = "pf_check_drm"
    """A PF Check drm (A25.85); they add up."""
    PF_SHOT_CAP = "pf_shot_cap"
    """The most PF shots a scenario allows, per squad-equivalent (A25.76, A25.85)."""
    PSK = "psk"
    """Whether the unit may use Panzerschrecks (A25.77)."""
    ATMM = "atmm"
    """Whether the unit may roll for an ATMM (A25.87, C13.7)."""
    ATMM_CC_DRM = "atmm_cc_drm"
    """The CC DRM an ATMM adds (A25.87)."""
    ATMM_CHECK_DRM = "atmm_check_drm"
    """An ATMM Check drm (A25.87); they add up, and no others apply."""
    CAPTURED_PENALTIES = "captured_penalties"
    """Whether using the equipment carries Captured penalties (A25.35, A25.54-A25.56,
    A25.75, A25.77)."""
    EQUIPMENT_SOURCE = "equipment_source"
    """Whose counters and equipment the nationality fields (A25.53-A25.55, A25.58, A25.86)."""
    SCROUNGED_AS = "scrounged_as"
    """The counter a scrounged weapon becomes (A25.35)."""
    REMOVED_AS = "removed_as"
    """The counter a weapon removed from a vehicle becomes (A25.35)."""
    INHERENT_CREW_MORALE_AS = "inherent_crew_morale_as"
    """The nationality whose morale Inherent crews have (A25.55, D5.1)."""
    OBA_ACCURACY = "oba_accuracy"
    """A limit on OBA accuracy (A25.52, A25.212)."""
    OBA_AS = "oba_as"
    """The nationality whose OBA rules apply (A25.53)."""
    OBA_BLACK_CHITS = "oba_black_chits"
    """Black chits in an OBA Draw Pile (A25.78)."""
    OBA_RED_CHITS = "oba_red_chits"
    """Red chits in an OBA Draw Pile (A25.78)."""
    OBA_AMMUNITION = "oba_ammunition"
    """An OBA battery's ammunition (A25.33, A25.78)."""
    AIRCRAFT_SIGHTING_DRM = "aircraft_sighting_drm"
    """The Sighting TC DRM of the nationality's aircraft (A25.212, E7.3)."""
    COMMISSAR_SUBSTITUTION = "commissar_substitution"
    """Leaders that may be replaced by Commissars, `from:to` (A25.22)."""
    COMMISSAR_TAKES_MC_FIRST = "commissar_takes_mc_first"
    """Whether the Commissar takes an IFT MC first in his Location (A25.221)."""
    COMMISSAR_MORALE_BONUS = "commissar_morale_bonus"
    """Morale added to other friendly Infantry in the Commissar's Location (A25.221)."""
    LEADERSHIP_ALTERS_MORALE = "leadership_alters_morale"
    """Whether leadership changes the unit's morale (A25.221)."""
    MUST_SELF_RALLY = "must_self_rally"
    """Whether a broken unit must attempt Self-Rally (A25.221)."""
    AIDED_SELF_RALLY = "aided_self_rally"
    """Whether another leader may aid the unit's rally (A25.221)."""
    MUST_RALLY_OTHERS = "must_rally_others"
    """Whether the leader must try to rally the broken units with him (A25.222)."""
    RALLY_DRM_GIVEN = "rally_drm_given"
    """The effective Rally DRM the leader gives (A25.222)."""
    DM_IMMUNE_WHEN_RALLIED = "dm_immune_when_rallied"
    """Whether units he rallies are immune to DM (A25.222)."""
    FAILED_RALLY_REPLACED = "failed_rally_replaced"
    """Whether an MMC failing to rally under him is Replaced (A25.222)."""
    BERSERK_SPREADS = "berserk_spreads"
    """Whether his going berserk takes his Location's Infantry with him (A25.223)."""
    DYO_OWN_CHARTS = "dyo_own_charts"
    """Whether the nationality has its own DYO charts (A25.57)."""
    DYO_OP_TANKS = "dyo_op_tanks"
    """The rule for the nationality's OP tanks in DYO (A25.57, H1.463)."""
    DYO_EXCLUDES = "dyo_excludes"
    """The nationality a DYO side buying this one may not also buy (A25.57)."""
    RULES_AFTER_CONQUEST = "rules_after_conquest"
    """Whose rules govern the forces after their country's conquest (A25.92)."""


@frozen
class KindSpec:
    """A trait kind's value type, the enum of its aspect, and whether its rows add up."""

    value: type[object]
    """bool, int, str, Fraction, tuple (of strings), or a StrEnum class."""
    aspect: type[StrEnum] | None = None
    cumulative: bool = False


_B, _I, _S, _T = KindSpec(bool), KindSpec(int), KindSpec(str), KindSpec(tuple)
_SPECIAL: dict[TraitKind, KindSpec] = {
    TraitKind.NATIONALITY: _S,
    TraitKind.USUAL_CLASSES: _T,
    TraitKind.ELITE_SQUAD: _S,
    TraitKind.SMG_SQUAD: _S,
    TraitKind.REPLACEMENTS_TO_INEXPERIENCED: _I,
    TraitKind.ELR: _I,
    TraitKind.ELR_REPLACED_BY: _S,
    TraitKind.BATTLE_HARDENS_TO: _S,
    TraitKind.REARMED_AS: _S,
    TraitKind.REPLACEMENT_CHAIN: _T,
    TraitKind.BATTLE_HARDENING_CHAIN: _T,
    TraitKind.GUARDS_DEPLETION_DELTA: _I,
    TraitKind.BROKEN_MORALE: _I,
    TraitKind.BROKEN_MORALE_MODIFIER: KindSpec(int, cumulative=True),
    TraitKind.BROKEN_MORALE_ABOVE_PRINTED: KindSpec(int, cumulative=True),
    TraitKind.PAATC: KindSpec(Paatc),
    TraitKind.HEAT_OF_BATTLE: KindSpec(HeatOfBattle, aspect=HobRoll),
    TraitKind.HW_MORALE_BONUS: _I,
    TraitKind.EXEMPT_FROM: KindSpec(bool, aspect=Exemption),
    TraitKind.LEADERLESS_DEPLOY: _S,
    TraitKind.LEADER_RANKS: _T,
    TraitKind.LEADER_LOSS_MAX_MC: _I,
    TraitKind.ENTRENCHING_DRM: _I,
    TraitKind.CC_DRM_AGAINST: _I,
    TraitKind.HAND_TO_HAND_DRM: _I,
    TraitKind.TO_HIT: KindSpec(ToHit, aspect=Weapon),
    TraitKind.PF_RULES: _S,
    TraitKind.PF_RANGE: _I,
    TraitKind.PF_CHECK_DR: _I,
    TraitKind.PF_CHECK_DRM: KindSpec(int, cumulative=True),
    TraitKind.PF_SHOT_CAP: KindSpec(Fraction),
    TraitKind.ATMM_CC_DRM: _I,
    TraitKind.ATMM_CHECK_DRM: KindSpec(int, cumulative=True),
    TraitKind.CAPTURED_PENALTIES: KindSpec(bool, aspect=Equipment),
    TraitKind.EQUIPMENT_SOURCE: KindSpec(str, aspect=Gear),
    TraitKind.SCROUNGED_AS: KindSpec(str, aspect=Gear),
    TraitKind.REMOVED_AS: KindSpec(str, aspect=Gear),
    TraitKind.INHERENT_CREW_MORALE_AS: _S,
    TraitKind.OBA_ACCURACY: KindSpec(ObaAccuracy),
    TraitKind.OBA_AS: _S,
    TraitKind.OBA_BLACK_CHITS: _I,
    TraitKind.OBA_RED_CHITS: _I,
    TraitKind.OBA_AMMUNITION: KindSpec(Ammunition),
    TraitKind.AIRCRAFT_SIGHTING_DRM: _I,
    TraitKind.COMMISSAR_SUBSTITUTION: _T,
    TraitKind.COMMISSAR_MORALE_BONUS: _I,
    TraitKind.RALLY_DRM_GIVEN: _I,
    TraitKind.DYO_OP_TANKS: _S,
    TraitKind.DYO_EXCLUDES: _S,
    TraitKind.RULES_AFTER_CONQUEST: _T,
}
KIND_SPECS: Mapping[TraitKind, KindSpec] = MappingProxyType(
    {kind: _SPECIAL.get(kind, _B) for kind in TraitKind}
)
"""Every kind's spec; a kind not listed specially is a yes/no trait."""


def name_key(name: str) -> str:
    """How nationality names compare: case, spaces, hyphens and underscores do not matter."""
    return re.sub(r"[\s\-_]+", " ", name.strip()).casefold()
