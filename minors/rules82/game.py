"""`minors.Game`: the kernel's game with rule 82 as its rulebook unless told otherwise
(docs/api.md): its start from the tables, and what rule 82 answers of a game (who is at war,
a major's BRPs, a minor's record, the JSON of a scenario run)."""

from __future__ import annotations

from typing import Any

from .._kernel.game import BaseGame, ClockError, Sink, StateError
from ..domain.clock import Moment
from ..domain.records import MinorState, Pending
from ..domain.state import GameState
from ..errors import UnknownNameError
from ..ruleset.tables import Ruleset
from .book import RULEBOOK

__all__ = ["ClockError", "Game", "Sink", "StateError"]


class Game(BaseGame):
    """A game of minor countries under rule 82, or the rulebook given (as python-chess's
    `Board` is standard chess, and its variants subclass it): apply commands, advance the
    clock, clone, inspect."""

    default_rulebook = RULEBOOK
    __slots__ = ()

    @classmethod
    def start_position(cls, rs: Ruleset, start: str) -> GameState:
        """The start position `start` as the tables give it, before any rule ran: the
        clock, the wars, each minor's status, major, wars, attack and pending alignment."""
        if start not in rs.starts:
            raise UnknownNameError("start", start, tuple(rs.starts))
        spec = rs.starts[start]
        clock = Moment.parse(spec.clock)
        wars = {(a, b) if a < b else (b, a): clock for a, b in spec.wars}
        attacked_at = Moment.parse(spec.attacked_at) if spec.attacked_at else None
        pending = {
            p.minor: Pending(p.partner, p.level, p.rule, Moment.parse(p.due)) for p in spec.pending
        }
        minors: dict[str, MinorState] = {}
        for name, m in rs.minors.items():
            direct = tuple(sorted(m.start_at_war_with))
            first = m.start_at_war_with[0] if m.start_at_war_with else None  # as listed (82.81)
            minors[name] = MinorState(
                name=name, status=m.start_status, major=m.start_major or None,
                direct_wars=direct, at_war_with=direct, attacked_by=first,
                attacked_at=attacked_at if direct else None, pending=pending.get(name),
                active=m.active,
            )  # fmt: skip
        return GameState(clock=clock, minors=minors, units={}, wars=wars)

    def __repr__(self) -> str:
        """The rulebook, the clock, the tables (digest, overlays), what is switched off, and how
        much is going on: `<Game rulebook 'rule82'; at 1940-spring/axis/diplomacy ...>`."""
        board, rs = self.play().board, self.ruleset
        at_war = sum(1 for m in board.minors.values() if m.active and m.at_war_with)
        parts = [f"rulebook {self.rulebook.name!r}", f"at {board.clock}"]
        parts.append(f"tables {rs.digest[:12]}")
        if rs.sources:
            parts.append(f"overlays {list(rs.sources)}")
        if self.disabled:
            parts.append(f"disabled {sorted(self.disabled)}")
        counts = ((at_war, "minor", "at war"), (len(board.units), "unit", "on the map"))
        parts.append(
            ", ".join(f"{n} {word}{'' if n == 1 else 's'} {what}" for n, word, what in counts)
        )
        entries = len(self.log)
        parts.append(f"{entries} log {'entry' if entries == 1 else 'entries'}")
        return f"<{type(self).__name__} {'; '.join(parts)}>"

    def minor(self, name: str) -> MinorState:
        """A minor country's frozen record."""
        return self.play().board.minors[self.ruleset.minor(name).name].view()

    def at_war(self, a: str, b: str) -> bool:
        """Whether two countries (majors, or a major and a minor) are at war."""
        rs, board = self.ruleset, self.play().board
        a, b = rs.resolve(a), rs.resolve(b)
        if a in rs.majors and b in rs.majors:
            return ((a, b) if a < b else (b, a)) in board.wars
        minor, major = (a, b) if a in rs.minors else (b, a)
        return major in board.minors[minor].at_war_with if minor in rs.minors else False

    def brps(self, major: str) -> int:
        """The major's BRP credits from rule 82: grants less deductions and costs (kept
        beside the ledger: O(1) however long the game)."""
        return self.play().board.totals.get(self.ruleset.major(major).name, 0)

    def to_json(self) -> dict[str, Any]:
        """The JSON state of docs/scenario-format.md: what `minors run --json` prints, a
        summary for readers (its schema: `minors schema state`). `state()` is the complete
        state, `raw_state` its records. `units` are sorted by id, so that a game and its
        replay from a log print them alike."""
        board = self.play().board
        return {
            "clock": str(board.clock),
            "minors": {
                name: {
                    "status": m.status.value,
                    "major": m.major,
                    "at_war_with": list(m.at_war_with),
                }
                for name, m in board.minors.items()
                if m.active
            },
            "units": {
                u.id: {
                    "owner": u.owner,
                    "kind": u.kind.value,
                    "factors": u.factors,
                    "in": u.country,
                    **({"hex": u.hex} if u.hex else {}),
                }
                for u in sorted(board.units.values(), key=lambda u: u.id)
            },
            "eliminated": [i for i, why in board.gone.items() if why == "eliminated"],
            "brps": {m: self.brps(m) for m in self.ruleset.majors},
            "error": None,
        }
