"""The schemas of what `minors simulate`, `minors explore` and `minors log verify-many`
print with `--json` (docs/scale.md), by hand: `minors.scale` sits above this layer. The
tests validate the suite's outputs against them."""

from __future__ import annotations

from ..domain import Season, Status
from .shapes import SHA256, Shape, closed, document, moment, strings

__all__ = ["INVARIANTS", "exploration", "simulation", "verdicts"]

INVARIANTS = (
    "statuses_fit",
    "no_tie_with_an_enemy",
    "bars_hold",
    "no_units_of_conquered_minors",
    "deductions_undo_grants",
    "caches_agree",
    "eliminations_are_logged",
    "limits_hold_at_phase_end",
    "listed_commands_apply",
)
"""The invariants `minors explore` checks (`minors.scale.invariants`), in its order."""

SEASON = rf"^[0-9]{{4}}-({'|'.join(Season)})$"
"""A game turn, `1940-spring`."""

NOT_IN_PLAY = "not in play"
"""The status at the horizon of a minor not in play (Vichy France before rule 77)."""


def _counts(keys: Shape, description: str) -> Shape:
    return {
        "type": "object",
        "description": description,
        "propertyNames": keys,
        "additionalProperties": {"type": "integer", "minimum": 0},
    }


def _interval(description: str) -> Shape:
    end = {"type": ["number", "null"], "description": "null: unbounded (a mean of one value)."}
    body = closed(
        {
            "value": {"type": "number"},
            "low": end,
            "high": end,
            "method": {
                "enum": ["wilson", "t"],
                "description": "Wilson score (a share) or Student t (a mean, a paired mean).",
            },
        }
    )
    return {**body, "description": description}


def _p(description: str) -> Shape:
    return {"type": ["number", "null"], "minimum": 0, "maximum": 1, "description": description}


def _minor() -> Shape:
    statuses = {"enum": [*(s.value for s in Status), NOT_IN_PLAY]}
    when = {"anyOf": [{"pattern": SEASON}, {"const": "never"}]}
    season = closed(
        {
            "status": _counts({"enum": [s.value for s in Status]}, "Campaigns per status."),
            "major": _counts({"type": "string"}, "Campaigns per major tied to ('none')."),
        }
    )
    return closed(
        {
            "at_horizon": closed(
                {
                    "status": {
                        "type": "object",
                        "propertyNames": statuses,
                        "additionalProperties": _interval("The share in this status."),
                    },
                    "major": {
                        "type": "object",
                        "additionalProperties": _interval("The share tied to it ('none')."),
                    },
                }
            ),
            "examples": _counts(statuses, "For each status at the horizon, a campaign in it."),
            "attacked": _interval("The share of the campaigns in which a major attacked it."),
            "first_attack": _counts(when, "Campaigns per season of the first attack."),
            "conquered": _interval("The share in which it was conquered (82.11G)."),
            "conquest": _counts(when, "Campaigns per season of its conquest."),
            "seasons": {
                "type": "object",
                "description": "At the end of each season: the campaigns per status and major.",
                "additionalProperties": season,
            },
        }
    )


def _side(*, versus: bool) -> Shape:
    """The report of one side (`minors.scale.report.summary`)."""
    difference = closed(
        {
            "what": {"type": "string"},
            "kind": {"enum": ["proportion", "mean"]},
            "base": {"type": "number", "description": "The mean on the first side."},
            "versus": {"type": "number", "description": "The mean on this side."},
            "difference": _interval("The mean of the paired differences, versus - base."),
            "shows": {"type": "boolean", "description": "The interval excludes 0."},
            "p": _p("The paired t test's two-sided p-value; null: one campaign, no test."),
            "p_holm": _p("p adjusted by Holm's method over all the measures listed."),
        }
    )
    properties: Shape = {
        "label": {"enum": ["versus" if versus else "base"]},
        "campaigns": {"type": "integer", "minimum": 1},
        "completed": {
            "type": "integer",
            "minimum": 0,
            "description": "The campaigns the figures count: those that reached the horizon "
            "(on both sides, with two).",
        },
        "errors": {
            "type": "array",
            "items": closed(
                {
                    "campaign": {"type": "integer", "minimum": 0},
                    "seed": {"type": "integer", "minimum": 0},
                    "error": {"type": "string"},
                }
            ),
        },
        "seed": {"type": "integer"},
        "start": moment("The start position's moment."),
        "horizon": moment("The horizon, --until."),
        "policy": {"type": "string", "description": "module:function"},
        "confidence": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "rules": closed(
            {
                "tables": {"type": "string", "pattern": SHA256},
                "overlays": strings("The overlays, in the order merged."),
                "rulebook": {"type": "string"},
            }
        ),
        "seasons": strings("The seasons recorded: each that ended, then the horizon's."),
        "commands": _interval("The commands a campaign played."),
        "minors": {"type": "object", "additionalProperties": _minor()},
        "brps": {
            "type": "object",
            "additionalProperties": closed(
                {
                    "at_horizon": _interval("The major's BRP credits from rule 82."),
                    "seasons": {
                        "type": "object",
                        "additionalProperties": _interval("At the end of the season."),
                    },
                }
            ),
        },
        "clauses": {
            "type": "object",
            "additionalProperties": closed(
                {
                    "per_campaign": _interval("The times it fired in a campaign."),
                    "campaigns": _interval("The share of the campaigns in which it fired."),
                }
            ),
        },
    }
    if versus:
        properties["differences"] = {"type": "array", "items": difference}
        return closed(properties)
    properties["ran_on"] = {"type": "string", "description": "Where the work ran."}
    properties["versus"] = _side(versus=True)
    return closed(properties, optional=("versus",))


def simulation() -> Shape:
    """What `minors simulate --json` prints: the report, or (`--replay I`) one campaign."""
    from .documents import state

    replay = closed(
        {
            "campaign": {"type": "integer", "minimum": 0},
            "seed": {"type": "integer", "minimum": 0},
            "final": {
                "type": "string",
                "pattern": SHA256,
                "description": "The digest of the final state, as the report's campaign has.",
            },
            "state": {k: v for k, v in state().items() if k not in ("$schema", "title")},
            "scenario": {"type": "string", "description": "The campaign as a scenario file."},
        }
    )
    return document(
        "minors simulate --json",
        "What `minors simulate --json` prints: the report of N campaigns (per minor the "
        "shares of the statuses and majors with their 95 % intervals, the dates of the first "
        "attack and conquest, the BRP credits, the clauses fired; with --versus-*, the other "
        "side's report and the paired differences), or with --replay I the campaign I "
        "replayed (its final state and its scenario).",
        {"oneOf": [_side(versus=False), replay]},
    )


def exploration() -> Shape:
    """What `minors explore --json` prints."""
    violation = closed(
        {
            "invariant": {"enum": list(INVARIANTS)},
            "clause": {"type": "string", "description": "The clause it keeps ('': the API's)."},
            "problems": {**strings("What breaks it, in the position reached."), "minItems": 1},
            "depth": {"type": "integer", "minimum": 0, "description": "The steps taken."},
            "steps": strings("Each step: a command's repr, or 'pass' (the clock moves on)."),
            "until": {
                "anyOf": [moment(), {"type": "null"}],
                "description": "The --until of the replay; null: the run stops after the last "
                "command.",
            },
            "scenario": {"type": "string", "description": "A scenario that `minors run` replays."},
        }
    )
    return document(
        "minors explore --json",
        "What `minors explore --json` prints: the states visited (duplicates included), the "
        "distinct positions, the deepest level checked, whether --max-states stopped the "
        "search, and for each broken invariant the shortest sequence that breaks it (the "
        "first in legal_actions order) with its scenario.",
        closed(
            {
                "states": {"type": "integer", "minimum": 1},
                "positions": {"type": "integer", "minimum": 1},
                "depth": {"type": "integer", "minimum": 0},
                "max_states": {"type": "integer", "minimum": 1},
                "capped": {"type": "boolean"},
                "reduction": {
                    "enum": ["sleep sets", None],
                    "description": "The partial-order reduction; null: none.",
                },
                "kinds": {"anyOf": [strings("--kinds"), {"type": "null"}]},
                "violations": {"type": "array", "items": violation},
                "ran_on": {"type": "string", "description": "Where the work ran."},
            }
        ),
    )


def verdicts() -> Shape:
    """What `minors log verify-many --json` prints."""
    outcomes = ("ok", "failed", "unverifiable")
    log = closed(
        {
            "path": {"type": "string", "description": "As given."},
            "outcome": {"enum": list(outcomes)},
            "detail": {"type": "string", "description": "The first bad entry, or why not."},
            "entries": {"type": "integer", "minimum": 0},
            "head": {"type": "string", "description": "The last line's hash ('' if unread)."},
        }
    )
    summary = closed({o: {"type": "integer", "minimum": 0} for o in outcomes})
    return document(
        "minors log verify-many --json",
        "What `minors log verify-many --json` prints: each log's verdict in the order given "
        "(ok; failed, a check failed: exit 1; unverifiable, it cannot be verified here: exit "
        "2 unless one failed), and how many of each.",
        closed({"logs": {"type": "array", "items": log}, "summary": summary}),
    )
