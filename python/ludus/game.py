"""Games: :class:`Game` (the base of a game written in Python, and of the built-in ones), :class:`BuiltinGame`
(a game of the ``ludus`` command line), its :class:`Position` objects, :func:`games` and :func:`load_game`."""

from __future__ import annotations

import os
from fractions import Fraction
from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _ludus
from ._arguments import _budgets, _line, _positive, _threads, _whole, _written
from ._ludus import ParameterError
from .reports import Analysis, GameInfo

#: The memory of an engine's table when none is given, in MiB (the CLI's ``--table-mb`` default).
DEFAULT_TABLE_MB: int = _ludus.DEFAULT_TABLE_MB
#: The positions a scored game's first guess may expand by default (``--guess-positions``).
GUESS_POSITIONS: int = _ludus.GUESS_POSITIONS


def games() -> List[GameInfo]:
    """Every built-in game, with its typed parameters and its capabilities."""
    return [GameInfo._of(raw) for raw in _ludus.games()]


def load_game(name: str, **parameters: Any) -> "BuiltinGame":
    """The game ``name`` with ``parameters`` (``load_game("connect-four", width=5, height=4)``), or the spec
    string of the command line (``load_game("connect-four:width=5,height=4")``). A parameter left out takes
    its default; an unknown one or a value out of range is a :class:`ParameterError` that says what is taken.
    """
    if parameters:
        if ":" in name:
            raise ParameterError(f"give the parameters in the spec `{name}` or as keywords, not both")
        name = name + ":" + ",".join(f"{key}={_written(value)}" for key, value in parameters.items())
    return BuiltinGame(_ludus.load_game(name))


_PositionLike = Union["Position", str, None]


class Game:
    """A game: a built-in one (:func:`load_game`), or one written in Python.

    To solve a game of your own with Ludus' engines, subclass it and define ``start()``, ``moves(position)``,
    ``play(position, move)`` (a new position), ``outcome(position)`` and ``key(position)``:

    - ``outcome``: ``None`` while the game goes on; at its end, for the player to move there, ``1`` won, ``0``
      drawn, ``-1`` lost, or with ``scored = True`` the score (a margin: discs, points). A position without moves
      and without an outcome is lost for the player to move.
    - ``key``: an ``int`` from 0 below 2**128, ``bytes`` or a ``str``; equal keys must mean equal values (map
      symmetric positions to one key to solve fewer). Positions and moves are any Python objects; a move is
      written (and told apart) by ``str(move)``.
    - Optional: ``positions_repeat = True`` for a game whose positions can come back (solved by the retrograde
      engine, or by value iteration with chance or scores); ``chance_outcomes(position)``, a list of
      ``(move, weight)`` with whole-number weights at a chance node and an empty list elsewhere (expectimax, or
      value iteration); ``turn_passes(position, after)``, ``False`` where the same player moves again.

    Then ``MyGame().analyze()`` gives the exact value of the start (or of any position), every move's value and
    the best line, by the engine of its family: alpha-beta (or ``engine="memo-negamax"``) for a win/loss game,
    the retrograde engine where positions repeat, the scored alpha-beta for a scored game or one whose turns
    need not alternate, expectimax or value iteration with chance. Every call crosses into Python (about a
    microsecond or two on top of the method's own time, BENCHMARKS.md "Python"), so a game of Python is solved
    at Python's speed, with the engines' pruning, tables and budgets."""

    #: Whether ``outcome`` gives a score (a margin) rather than won (1), drawn (0) or lost (-1).
    scored: bool = False
    #: Whether a position can come back.
    positions_repeat: bool = False

    @property
    def name(self) -> str:
        """The game's name: its class's."""
        return type(self).__name__

    def start(self) -> Any:
        """The starting position."""
        raise NotImplementedError(f"{type(self).__name__} defines no start()")

    def moves(self, position: Any) -> List[Any]:
        """The legal moves at ``position``."""
        raise NotImplementedError(f"{type(self).__name__} defines no moves()")

    def play(self, position: Any, move: Any) -> Any:
        """The position after ``move`` (``position`` itself unchanged)."""
        raise NotImplementedError(f"{type(self).__name__} defines no play()")

    def outcome(self, position: Any) -> Optional[int]:
        """``None`` while the game goes on; at its end, the result for the player to move."""
        raise NotImplementedError(f"{type(self).__name__} defines no outcome()")

    def key(self, position: Any) -> Union[int, bytes, str]:
        """The canonical key of ``position``: equal keys, equal values."""
        raise NotImplementedError(f"{type(self).__name__} defines no key()")

    def analyze(
        self,
        position: Any = None,
        *,
        engine: str = "auto",
        table_mb: int = DEFAULT_TABLE_MB,
        memory_mb: Optional[int] = None,
        max_positions: Optional[int] = None,
        max_line: Optional[int] = None,
        value_only: bool = False,
    ) -> "Analysis":
        """The value of ``position`` (``None``: the start), every move's value and the best line, by Ludus'
        engines; the budgets and ``value_only`` are those of :meth:`BuiltinGame.analyze`. An exception raised by
        the game's methods is raised here, once the search has stopped; Ctrl-C stops the search."""
        raw = _ludus.analyze_python_game(
            self,
            position,
            engine,
            *_budgets(table_mb, memory_mb, max_positions, _line(max_line, value_only)),
            bool(value_only),
        )
        return Analysis._of(raw)


class BuiltinGame(Game):
    """A built-in game made by :func:`load_game`: its positions (:class:`Position`) and their analysis."""

    def __init__(self, raw: Any) -> None:
        self._raw = raw

    @property
    def name(self) -> str:
        """The canonical name, every parameter written (``connect-four:width=5,height=4``)."""
        return self._raw.name

    @property
    def info(self) -> GameInfo:
        """What the game is and has, as :func:`games` lists it."""
        return GameInfo._of(self._raw.listing())

    def moves(self, position: "Position") -> List[str]:
        return position.moves()

    def play(self, position: "Position", move: Any) -> "Position":
        return position.play(str(move))

    def outcome(self, position: "Position") -> Optional[int]:
        winner = position.winner()
        if winner is None:
            return None
        if winner == "draw":
            return 0
        return 1 if (winner == "first") == (position._view()["mover"] == 0) else -1

    def key(self, position: "Position") -> Union[int, str]:
        return position.key()

    def start(self) -> "Position":
        """The starting position."""
        return Position(self, None, ())

    def position(self, text: str) -> "Position":
        """The position written ``text`` in the game's notation (``"4453"``: moves from the start, for Connect
        Four; a board for Kalah or Othello). A text that is not a position is a :class:`ParseError`."""
        position = Position(self, text, ())
        position._view()
        return position

    def analyze(
        self,
        position: _PositionLike = None,
        *,
        engine: str = "auto",
        table_mb: int = DEFAULT_TABLE_MB,
        memory_mb: Optional[int] = None,
        max_positions: Optional[int] = None,
        max_line: Optional[int] = None,
        threads: int = 1,
        book: Optional[Union[str, "PathLike[str]"]] = None,
        endgame: Optional[Union[str, "PathLike[str]"]] = None,
        guess_positions: int = GUESS_POSITIONS,
        value_only: bool = False,
    ) -> Analysis:
        """The value of ``position`` (a :class:`Position`, its text, or ``None`` for the start), every move's
        value and the best line. ``engine``: ``auto``, ``alpha-beta``, ``memo-negamax`` or ``retrograde``.
        ``table_mb``: the table's memory; ``memory_mb``: the whole analysis' memory (default: half the
        machine's); ``max_positions``: the most positions one search expands; ``max_line``: the most moves of the
        best line (200 unless given; refused with ``value_only``, which follows no line). Past a budget:
        :class:`BudgetExceeded`. ``threads``: the threads of a game whose fastest solver searches on several
        (0: one a core). ``book``: an opening book file (``ludus book build``), consulted before a search;
        ``endgame``: an endgame database's directory (``ludus db solve GAME --up-to N``), probed inside its
        tiers, within ``memory_mb`` less ``table_mb`` (a file of another game: :class:`DatabaseError`).
        ``guess_positions``: the positions a scored game's first guess may expand before the exact search (0:
        no guess; a search of minutes gains from more). ``value_only``: the position's value alone, one search
        (``moves`` and ``line`` empty; ``--value-only``). Ctrl-C stops the search (``KeyboardInterrupt``)."""
        _threads(threads)
        _whole("guess_positions", guess_positions)
        base, moves = self._located(position)
        raw = self._raw.analyze(
            base,
            list(moves),
            engine,
            *_budgets(table_mb, memory_mb, max_positions, _line(max_line, value_only)),
            threads,
            None if book is None else os.fspath(book),
            None if endgame is None else os.fspath(endgame),
            guess_positions,
            bool(value_only),
        )
        return Analysis._of(raw)

    def solve_endgame(
        self,
        path: Union[str, "PathLike[str]"],
        up_to: int,
        *,
        threads: int = 0,
        memory_mb: Optional[int] = None,
        progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
    ) -> None:
        """Solves the game's endgame database into the directory ``path`` (``ludus db solve GAME --up-to N``):
        every position of the tiers 0 to ``up_to`` (Kalah: the seeds left in the pits), whatever the start,
        resuming from the tiers already there. :meth:`analyze` probes it with ``endgame=path``; one database
        serves every game of the same family (Kalah: the same pits and capture rule). ``progress`` is called with
        each tier's report as it ends (``tier``, ``positions``, ``bytes``, ``seconds``, ``resumed``). Past
        ``memory_mb`` (default: half the machine's memory; checked before the solve starts):
        :class:`LimitExceeded`; a game without endgame databases: :class:`UnsupportedOperation`. Ctrl-C stops
        it after the tier it is writing (``KeyboardInterrupt``); a second call resumes."""
        if isinstance(up_to, bool) or not isinstance(up_to, int) or not 0 <= up_to <= 127:
            raise ValueError(f"up_to is a tier from 0 to 127, not {up_to!r}")
        _threads(threads)
        memory_mb = _positive("memory_mb", memory_mb)
        self._raw.solve_endgame(
            os.fspath(path),
            up_to,
            threads,
            memory_mb if memory_mb is not None else _ludus.default_memory_mb(),
            progress,
        )

    def _located(self, position: _PositionLike) -> Tuple[Optional[str], Tuple[str, ...]]:
        if position is None:
            return None, ()
        if isinstance(position, str):
            return position, ()
        if isinstance(position, Position):
            if position.game is not self and position.game.name != self.name:
                raise ParameterError(f"a position of {position.game.name}, not of {self.name}")
            return position._base, position._moves
        raise TypeError(f"a position is a Position, its text or None, not {type(position).__name__}")

    def __repr__(self) -> str:
        return f"ludus.load_game({self.name!r})"


class Position:
    """A position of a game: immutable; :meth:`play` gives a new one.

    It is a position text (or the start) and the moves played from it, read again by the game on each query,
    so every position made here is one the game's rules reach."""

    def __init__(self, game: "BuiltinGame", base: Optional[str], moves: Tuple[str, ...]) -> None:
        self.game = game
        self._base = base
        self._moves = moves
        self._seen: Optional[Dict[str, Any]] = None

    def _view(self) -> Dict[str, Any]:
        if self._seen is None:
            self._seen = self.game._raw.inspect(self._base, list(self._moves))
        return self._seen

    def moves(self) -> List[str]:
        """The legal moves, as the game writes them (at a chance node, the outcomes; none once over)."""
        return list(self._view()["moves"])

    def play(self, move: str) -> "Position":
        """The position after ``move`` (its text, as :meth:`moves` writes it). An illegal move is a
        :class:`ParseError` that says why."""
        after = Position(self.game, self._base, self._moves + (move,))
        after._view()
        return after

    def is_over(self) -> bool:
        """Whether the game is over."""
        return self._view()["finish"] is not None

    def is_chance(self) -> bool:
        """Whether chance moves next (dice): see :meth:`outcomes`."""
        return bool(self._view()["outcomes"])

    def outcomes(self) -> List[Tuple[str, Fraction]]:
        """At a chance node, every outcome with its exact probability; else empty."""
        return [(text, Fraction(numerator, denominator)) for text, numerator, denominator in self._view()["outcomes"]]

    def player(self) -> Optional[int]:
        """Who is to move: 0 for the player to move where this position's moves start (the start, or the
        position text given: a text need not say whose turn it is, so its mover is player 0), 1 for the
        other; ``None`` once the game is over. The rules decide when the turn
        passes (a sowing that ends in Kalah's store leaves the same player to move)."""
        view = self._view()
        return None if view["finish"] is not None else view["mover"]

    def winner(self) -> Optional[str]:
        """How the game ended: ``"first"`` (player 0 won), ``"second"``, ``"draw"``, or ``None`` while it goes
        on."""
        return self._view()["finish"]

    def key(self) -> Union[int, str]:
        """The canonical key: equal keys have equal values (symmetric positions share one). A whole number for
        every built-in game."""
        text = self._view()["key"]
        return int(text) if text.isdigit() else text

    @property
    def history(self) -> Tuple[str, ...]:
        """The moves played from the start or from the position text."""
        return self._moves

    def analyze(self, **budgets: Any) -> Analysis:
        """:meth:`Game.analyze` of this position."""
        return self.game.analyze(self, **budgets)

    def __str__(self) -> str:
        return self._view()["drawing"]

    def __repr__(self) -> str:
        where = "start" if self._base is None else repr(self._base)
        return f"<ludus.Position of {self.game.name} at {where} after {list(self._moves)}>"
