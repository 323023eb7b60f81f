"""The OpenSpiel game over the kernel: the sides play their phases, a diplomatic attempt is
a chance node, and the game ends at a horizon with an evaluation of the BRPs each side
gained (docs/embedding.md, "OpenSpiel")."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from minors import DiplomaticResult, Game, Moment, Side
from minors.errors import MomentError, ParameterError

from .encoding import PASS, Encoding

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as exc:  # the extra is not installed
    raise ModuleNotFoundError(
        "minors.openspiel needs OpenSpiel: pip install 'minors[openspiel]' "
        "(from a checkout: pip install -e '.[openspiel]')",
        name="pyspiel",
    ) from exc

__all__ = [
    "GAME_TYPE",
    "PARAMETERS",
    "PLAYERS",
    "MinorsGame",
    "MinorsState",
    "Settings",
    "evaluation",
    "illustrative_weights",
    "register",
    "score",
]

PARAMETERS: dict[str, Any] = {
    "horizon": "1939-winter/axis/diplomacy",
    "max_actions_per_phase": 4,
    "die_weights": "",
    "brp_scale": 50.0,
}
"""The game parameters and their defaults: the moment the game ends, the actions a side may
take in one phase, the diplomatic results' weights low to high separated by spaces (empty:
`illustrative_weights`), and the BRP difference that `evaluation` maps to tanh(1)."""

PLAYERS = (Side.AXIS, Side.ALLIES)
"""The players: the Axis is player 0, the Allies player 1."""
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

GAME_TYPE = pyspiel.GameType(
    short_name="python_minors_awaw",
    long_name="Python A World at War rule 82: minor countries",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=PARAMETERS,
)


def illustrative_weights(results: int) -> tuple[float, ...]:
    """ILLUSTRATIVE weights of the diplomatic results, low to high: a triangle peaking in the
    middle of the scale (1, 2, ... 7, 7, ... 2, 1 on the 14 results -3..10). The rulebook's
    dice and modifiers are not public; pass `die_weights` for your own."""
    return tuple(float(min(i + 1, results - i)) for i in range(results))


def score(game: Game, side: Side) -> int:
    """What `side` holds in BRPs: its majors' credits from rule 82 (grants less deductions
    and costs) and the BRP value of every minor in play tied to one of its majors."""
    rs = game.ruleset
    credits = sum(game.brps(m) for m in rs.majors if rs.side_of[m] is side)
    tied = sum(
        rs.minors[name].brps
        for name, m in game.raw_state.minors.items()
        if m.active and m.major is not None and rs.side_of[m.major] is side
    )
    return credits + tied


def _margin(game: Game) -> int:
    return score(game, Side.AXIS) - score(game, Side.ALLIES)


@frozen(eq=False)
class Settings:
    """The rules of one OpenSpiel game: its encoding, horizon, cap and chance weights."""

    encoding: Encoding
    horizon: Moment
    cap: int
    low: int
    """The lowest diplomatic result: chance outcome `a` is the result `low + a`."""
    weights: tuple[float, ...]
    brp_scale: float
    baseline: int
    """The Axis margin of `score` at the start."""

    @classmethod
    def of(cls, start: Game, values: Mapping[str, Any]) -> Settings:
        """The settings of a game from `start` with the parameters `values`.

        Raises:
            ParameterError: a parameter that cannot be used.
            MomentError: a horizon that is not a moment, or after the calendar's end.
        """
        low, high = start.ruleset.scale
        cap, brp_scale = int(values["max_actions_per_phase"]), float(values["brp_scale"])
        if cap < 1:
            raise ParameterError(f"max_actions_per_phase must be at least 1, not {cap}")
        if not brp_scale > 0:
            raise ParameterError(f"brp_scale must be above 0, not {brp_scale}")
        weights = _weights(str(values["die_weights"]), high - low + 1)
        horizon = Moment.parse(str(values["horizon"]))
        if horizon > start.last_moment:
            raise MomentError(
                f"horizon {horizon} is after the calendar's last moment {start.last_moment}"
            )
        return cls(Encoding(start), horizon, cap, low, weights, brp_scale, _margin(start))


def _weights(text: str, results: int) -> tuple[float, ...]:
    if not text.strip():
        return illustrative_weights(results)
    try:
        weights = tuple(float(w) for w in text.split())
    except ValueError:
        raise ParameterError(f"die_weights {text!r}: numbers separated by spaces") from None
    if len(weights) != results:
        raise ParameterError(
            f"die_weights {text!r}: one weight per diplomatic result ({results}), "
            f"not {len(weights)}"
        )
    if not all(math.isfinite(w) and w >= 0 for w in weights) or sum(weights) <= 0:
        raise ParameterError(f"die_weights {text!r}: non-negative, and not all zero")
    return weights


def evaluation(game: Game, settings: Settings) -> float:
    """The Axis return: tanh of the Axis `score` margin gained since the start over
    `brp_scale` (the Allies' is its negative)."""
    return math.tanh((_margin(game) - settings.baseline) / settings.brp_scale)


class _Play:
    """What a state holds: the kernel's game, the attempt awaiting its roll, the actions
    taken in this phase, and the legal actions once worked out. OpenSpiel clones a state by
    deep-copying its attributes; this one copies as `Game.clone`, which copies nothing."""

    __slots__ = ("game", "legal", "moves", "pending", "settings")

    def __init__(
        self,
        settings: Settings,
        game: Game,
        pending: tuple[str, str] | None = None,
        moves: int = 0,
        legal: tuple[int, ...] | None = None,
    ) -> None:
        self.settings, self.game, self.pending = settings, game, pending
        self.moves, self.legal = moves, legal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        return _Play(self.settings, self.game.clone(), self.pending, self.moves, self.legal)

    def legal_actions(self) -> tuple[int, ...]:
        """The pass and the actions of the commands legal now that belong to the side to
        move (its majors', its units', its deployments), while the cap allows more."""
        if self.legal is None:
            self.legal = self._legal()
        return self.legal

    def _legal(self) -> tuple[int, ...]:
        s, game = self.settings, self.game
        if self.moves >= s.cap:
            return (PASS,)
        side, found = game.clock.side, {PASS}
        for cmd in game.legal_actions():
            action = s.encoding.encode(cmd)
            if action is None or action in found:
                continue  # a command with no action, or an attempt already offered
            if isinstance(cmd, DiplomaticResult) and not self._weight(cmd.result) > 0:
                continue
            if s.encoding.actor(cmd, game) is side:
                found.add(action)
        return tuple(sorted(found))

    def _weight(self, result: int) -> float:
        index = result - self.settings.low
        return self.settings.weights[index] if 0 <= index < len(self.settings.weights) else 0.0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The legal results of the pending attempt, their weights scaled to sum to 1."""
        assert self.pending is not None
        minor, major = self.pending
        low = self.settings.low
        weighted = [
            (result - low, weight)
            for result, weight in enumerate(self.settings.weights, start=low)
            if weight > 0 and not self.game.check(DiplomaticResult(minor, major, result))
        ]
        total = sum(w for _, w in weighted)
        return [(a, w / total) for a, w in weighted]

    def apply(self, action: int) -> None:
        """Roll the pending attempt, pass, or apply the command of `action`."""
        s, game = self.settings, self.game
        if self.pending is not None:
            minor, major = self.pending
            game.apply(DiplomaticResult(minor, major, s.low + action))
            self.pending = None
        elif action == PASS:
            game.advance_to(game.clock.next())
            self.moves = 0
        else:
            if s.encoding.block(action).kind is DiplomaticResult:
                fields = s.encoding.fields(action)
                self.pending = (fields["minor"], fields["major"])
            else:
                game.apply(s.encoding.command(action, game))
            self.moves += 1
        self.legal = None


class MinorsState(pyspiel.State):  # type: ignore[misc]
    """A position: the kernel's game and where the OpenSpiel turn stands in its phase."""

    def __init__(self, game: MinorsGame, play: _Play) -> None:
        super().__init__(game)
        self._play = play

    @property
    def position(self) -> Game:
        """The kernel's game at this state (clone it before changing it)."""
        return self._play.game

    def current_player(self) -> int:
        play = self._play
        if self.is_terminal():
            return _TERMINAL
        if play.pending is not None:
            return _CHANCE
        return PLAYERS.index(play.game.clock.side)

    def is_terminal(self) -> bool:
        return self._play.game.clock >= self._play.settings.horizon

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._play.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._play.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._play.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"diplomatic result {self._play.settings.low + action}"
        return self._play.settings.encoding.describe(action)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        axis = evaluation(self._play.game, self._play.settings)
        return [axis, -axis]

    def __str__(self) -> str:
        play = self._play
        game, rs = play.game, play.game.ruleset
        lines = [f"{game.clock}: {game.clock.side.value}, {play.moves} actions in this phase"]
        if play.pending is not None:
            lines.append(f"diplomatic attempt of {play.pending[1]} on {play.pending[0]}")
        lines.append("brps: " + ", ".join(f"{m} {game.brps(m)}" for m in rs.majors))
        for name, m in game.raw_state.minors.items():
            if m.active:
                wars = f" at war with {','.join(m.at_war_with)}" if m.at_war_with else ""
                lines.append(f"{name}: {m.status.value} {m.major or '-'}{wars}")
        units = sorted(game.raw_state.units.values(), key=lambda u: u.id)
        lines.append("units: " + " ".join(f"{u.id}@{u.country}" for u in units))
        return "\n".join(lines)


class _StateObserver:
    """The observation of a perfect-information game: the state's text, no tensor."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: MinorsState, player: int) -> None:
        pass

    def string_from(self, state: MinorsState, player: int) -> str:
        return str(state)


class MinorsGame(pyspiel.Game):  # type: ignore[misc]
    """Rule 82 as an OpenSpiel game of `params` (`PARAMETERS`) from `start` (the 1939
    campaign by default); `die_weights` is that parameter as numbers.

    Raises:
        ParameterError: an unknown or unusable parameter.
    """

    def __init__(
        self,
        params: Mapping[str, Any] | None = None,
        *,
        start: Game | None = None,
        die_weights: Sequence[float] | None = None,
    ) -> None:
        values = {**PARAMETERS, **(params or {})}
        unknown = sorted(set(values) - set(PARAMETERS))
        if unknown:
            raise ParameterError(f"unknown parameters {unknown}; known: {sorted(PARAMETERS)}")
        if die_weights is not None:
            values["die_weights"] = " ".join(str(float(w)) for w in die_weights)
        position = start.clone() if start is not None else Game.new()
        settings = Settings.of(position, values)
        values.update(max_actions_per_phase=settings.cap, brp_scale=settings.brp_scale)
        phases = max(0, settings.horizon.index - position.clock.index)
        info = pyspiel.GameInfo(
            num_distinct_actions=settings.encoding.size,
            max_chance_outcomes=len(settings.weights),
            num_players=len(PLAYERS),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max(1, phases * (settings.cap + 1)),
        )
        super().__init__(GAME_TYPE, info, values)
        self.settings = settings
        self._start = position

    def new_initial_state(self, state: Any = None) -> MinorsState:
        """The start position (a state to rebuild is not supported: pass `start=`)."""
        if state is not None:
            raise ParameterError("a state to start from is given as MinorsGame(start=game)")
        return MinorsState(self, _Play(self.settings, self._start.clone()))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Any:
        """The state's text as observation; the history as information state."""
        if params:
            raise ParameterError(f"observation parameters are not supported: {dict(params)}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _StateObserver()
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


def register() -> None:
    """Register the game with OpenSpiel as `python_minors_awaw` (once)."""
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, MinorsGame)
