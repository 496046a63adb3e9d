"""Exact values for OpenSpiel's games, by Ludus' engines.

:func:`solve` takes a ``pyspiel`` game (and, if given, one of its states) and gives the exact value of the state
and of every legal action: any perfect-information, two-player, zero-sum game, with chance nodes by expectimax,
or by value iteration where states repeat::

    import pyspiel, ludus.openspiel
    result = ludus.openspiel.solve(pyspiel.load_game("tic_tac_toe"))
    result.value, result.action_values     # 0.0 and {0: 0.0, 1: -1.0, ...} for the player to move

A state is told apart by ``state.serialize()`` (its history: exact, whatever the game's ``str`` shows), or by
the ``key`` function given (``key=str`` merges transpositions where ``str(state)`` says everything, as in
``tic_tac_toe``; it must then say whose turn it is, and everything the rest of the game depends on).

The game is a :class:`ludus.Game` written in Python (:class:`OpenSpielGame`), so every engine and budget of
``ludus.Game.analyze`` applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import Analysis, Game, UnsupportedOperation

__all__ = ["OpenSpielGame", "Solution", "solve"]

# OpenSpiel's probabilities are floats; each is read as the nearest fraction of a denominator at most this large,
# exact for every die and coin (sixths, halves, thirds...).
MAX_DENOMINATOR = 1_000_000


class _Node:
    """An OpenSpiel state, and the player to move there: at a chance node or at the end, the player whose turn
    it was before (OpenSpiel names none)."""

    __slots__ = ("state", "mover")

    def __init__(self, state: Any, mover: int) -> None:
        self.state = state
        self.mover = mover

    def __str__(self) -> str:
        return str(self.state)


class OpenSpielGame(Game):
    """A ``pyspiel`` game as a :class:`ludus.Game`: its states and actions (a move is an action, an ``int``), its
    returns as the outcome (won 1, drawn 0, lost -1 for a game whose returns are those, else the returns as
    scores, which must be whole numbers), its chance outcomes with their probabilities as whole-number weights."""

    def __init__(self, game: Any, key: Optional[Callable[[Any], Any]] = None, alternating: bool = True) -> None:
        import pyspiel

        kind = game.get_type()
        if game.num_players() != 2:
            raise UnsupportedOperation(f"{kind.short_name}: {game.num_players()} players (Ludus solves two)")
        if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            raise UnsupportedOperation(f"{kind.short_name}: not a game of perfect information")
        if kind.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
            raise UnsupportedOperation(f"{kind.short_name}: not zero-sum")
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise UnsupportedOperation(f"{kind.short_name}: simultaneous moves")
        self.game = game
        self.short_name = kind.short_name
        self.scored = (game.min_utility(), game.max_utility()) != (-1.0, 1.0)
        self._key = key if key is not None else (lambda state: state.serialize())
        self._alternating = alternating
        self._sum = game.min_utility() + game.max_utility() if kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM else 0.0

    @property
    def name(self) -> str:
        return f"openspiel:{self.short_name}"

    def node(self, state: Any) -> _Node:
        """The node of an OpenSpiel state (its mover, if chance or the end is next, taken as player 0's turn)."""
        player = state.current_player()
        return _Node(state, player if player in (0, 1) else 0)

    def start(self) -> _Node:
        return self.node(self.game.new_initial_state())

    def moves(self, position: _Node) -> List[int]:
        return list(position.state.legal_actions())

    def play(self, position: _Node, move: int) -> _Node:
        child = position.state.child(move)
        player = child.current_player()
        if player in (0, 1):
            if self._alternating and player == position.mover:
                raise UnsupportedOperation(
                    f"{self.short_name}: player {player} moves twice in a row: solve it with alternating=False"
                )
            return _Node(child, player)
        # At the end of a game whose turns alternate, the turn has passed (the engines back values up so); in
        # one whose turns need not (`turn_passes`), and at a chance node, the mover stays.
        if self._alternating and child.is_terminal():
            return _Node(child, 1 - position.mover)
        return _Node(child, position.mover)

    def outcome(self, position: _Node) -> Optional[int]:
        state = position.state
        if not state.is_terminal():
            return None
        returns = state.returns()
        mine, theirs = returns[position.mover], returns[1 - position.mover]
        margin = (mine - theirs) / 2 if self._sum == 0.0 else mine - self._sum / 2
        if not self.scored:
            return (margin > 0) - (margin < 0)
        if margin != int(margin):
            raise UnsupportedOperation(f"{self.short_name}: a return of {mine}, not a whole number")
        return int(margin)

    def key(self, position: _Node) -> Any:
        key = self._key(position.state)
        if isinstance(key, (int, bytes, str)):
            return key
        return repr(key)


class _Free(OpenSpielGame):
    """A game whose turns need not alternate: who moves next is OpenSpiel's current player."""

    def __init__(self, game: Any, key: Optional[Callable[[Any], Any]] = None) -> None:
        super().__init__(game, key, alternating=False)

    def turn_passes(self, position: _Node, after: _Node) -> bool:
        return after.mover != position.mover


def _weights(outcomes: List[Tuple[int, float]]) -> List[Tuple[int, int]]:
    """Chance outcomes with float probabilities as whole-number weights of one common denominator."""
    fractions = [(action, Fraction(probability).limit_denominator(MAX_DENOMINATOR)) for action, probability in outcomes]
    denominator = 1
    for _, fraction in fractions:
        denominator = lcm(denominator, fraction.denominator)
    return [(action, int(fraction * denominator)) for action, fraction in fractions if fraction > 0]


class _WithChance(_Free):
    """A game with chance nodes."""

    def chance_outcomes(self, position: _Node) -> List[Tuple[int, int]]:
        state = position.state
        if not state.is_chance_node() or state.is_terminal():
            return []
        return _weights(state.chance_outcomes())


class _LoopyWithChance(_WithChance):
    positions_repeat = True


class _Loopy(OpenSpielGame):
    positions_repeat = True


class _LoopyFree(_Free):
    positions_repeat = True


@dataclass(frozen=True)
class Solution:
    """The exact value of a state and of each legal action, for the player to move there (OpenSpiel's returns:
    a win 1, a loss -1; with chance, the expected return), with Ludus' analysis behind it."""

    #: The state's value for its player to move.
    value: float
    #: Each legal action's value for the player who takes it (at a chance node, each outcome's).
    action_values: Dict[int, float]
    #: The actions of greatest value.
    best_actions: List[int]
    #: Ludus' analysis: remoteness where the engine counts it, the best line, the engine's statistics.
    analysis: Analysis


def _number(value: Any, scored: bool) -> float:
    """A Ludus value as OpenSpiel reads it: the expected return, or 1, 0, -1, or the score."""
    if value.kind == "chance":
        return float(value.expected_score)
    if scored and value.score is not None:
        return float(value.score)
    return {"win": 1.0, "draw": 0.0, "loss": -1.0}[value.kind]


def solve(
    game: Any,
    state: Any = None,
    *,
    key: Optional[Callable[[Any], Any]] = None,
    positions_repeat: bool = False,
    alternating: Optional[bool] = None,
    **budgets: Any,
) -> Solution:
    """The exact value of ``state`` (default: the initial state) of the ``pyspiel`` game ``game`` and of each
    legal action. ``key``: how states are told apart (default ``state.serialize()``); ``positions_repeat``: set
    it where a state can come back under ``key`` (value iteration, or the retrograde engine); ``alternating``:
    whether the players take turns strictly (default: yes without chance; a game found breaking it raises
    :class:`UnsupportedOperation`). ``budgets``: those of :meth:`ludus.Game.analyze` (``table_mb``,
    ``memory_mb``, ``max_positions``, ``engine``)."""
    import pyspiel

    chance = game.get_type().chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
    if chance:
        kind = _LoopyWithChance if positions_repeat else _WithChance
        bridge: OpenSpielGame = kind(game, key)
    elif alternating is False:
        bridge = (_LoopyFree if positions_repeat else _Free)(game, key)
    else:
        bridge = (_Loopy if positions_repeat else OpenSpielGame)(game, key)
    start = bridge.start() if state is None else bridge.node(state)
    analysis = bridge.analyze(start, **budgets)
    action_values = {int(move.move): _number(move.value, bridge.scored) for move in analysis.moves}
    best = [int(move.move) for move in analysis.moves if move.best]
    return Solution(_number(analysis.value, bridge.scored), action_values, best, analysis)
