"""The A25 nationality profiles: per-nationality, date-dependent troop traits, as data with
a query API.

The public path of `minors.asl.nationality`."""

from __future__ import annotations

from ..asl.nationality import (
    EVERY,
    CountryMapping,
    NoNationalityError,
    Profile,
    ProfileError,
    Projection,
    QueryContext,
    QueryUnit,
    Trait,
    TraitCondition,
    country_nationality,
    lineage,
    profile,
    resolve,
    thresholds,
)

__all__ = [
    "EVERY",
    "CountryMapping",
    "NoNationalityError",
    "Profile",
    "ProfileError",
    "Projection",
    "QueryContext",
    "QueryUnit",
    "Trait",
    "TraitCondition",
    "country_nationality",
    "lineage",
    "profile",
    "resolve",
    "thresholds",
]
