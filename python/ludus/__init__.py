"""Ludus from Python: exact values of games, by the engines of the Ludus framework.

Every built-in game of the ``ludus`` command line is here by the same name and parameters, its positions are
objects in the shape ``pyspiel`` users know, and an analysis is the report of ``ludus analyze --format json``
as typed objects::

    >>> import ludus
    >>> game = ludus.load_game("connect-four", width=5, height=4)
    >>> position = game.start().play("3")
    >>> analysis = game.analyze(position)
    >>> analysis.value.kind, [move.move for move in analysis.best_moves]
    ('draw', ['1', '2', '3', '4', '5'])

Budgets are keyword arguments (``table_mb``, ``memory_mb``, ``max_positions``); an error is an exception of
one class per kind, all subclasses of :class:`LudusError`. Searches release the GIL, and Ctrl-C stops one
(``KeyboardInterrupt``) within a step of 65,536 positions.

The contest plugins (``ludus list``) solve inputs in their official formats: :func:`solve`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from os import PathLike
from typing import Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple, Union

from . import _ludus
from ._ludus import (
    BudgetExceeded,
    ContractBroken,
    DatabaseError,
    GameOver,
    LimitExceeded,
    LudusError,
    NoRecord,
    NotSolved,
    ParameterError,
    ParseError,
    UnsupportedOperation,
)

__version__: str = _ludus.__version__

#: The memory of an engine's table when none is given, in MiB (the CLI's ``--table-mb`` default).
DEFAULT_TABLE_MB: int = _ludus.DEFAULT_TABLE_MB

__all__ = [
    "Analysis",
    "BudgetExceeded",
    "BuiltinGame",
    "CaseAnswer",
    "ContractBroken",
    "Database",
    "DatabaseError",
    "Game",
    "GameInfo",
    "GameOver",
    "LimitExceeded",
    "LudusError",
    "MoveValue",
    "NoRecord",
    "NotSolved",
    "Parameter",
    "ParameterError",
    "ParseError",
    "PluginInfo",
    "Position",
    "UnsupportedOperation",
    "Value",
    "Values",
    "games",
    "load_game",
    "plugins",
    "solve",
    "solve_database",
]


@dataclass(frozen=True)
class Parameter:
    """A game's parameter or a plugin's option: its name, kind (``whole``, ``choice``, ``text`` or ``switch``),
    default (as written), range (``(min, max)`` for a whole number, the words for a choice, ``None`` for text)
    and help."""

    name: str
    kind: str
    default: str
    range: Union[Tuple[int, int], Tuple[str, ...], None]
    help: str

    @staticmethod
    def _of(raw: Mapping[str, Any]) -> "Parameter":
        taken = raw.get("range")
        if taken is None:
            range_: Union[Tuple[int, int], Tuple[str, ...], None] = None
        elif "min" in taken:
            range_ = (taken["min"], taken["max"])
        else:
            range_ = tuple(taken["choices"])
        return Parameter(raw["name"], raw["kind"], raw["default"], range_, raw["help"])


@dataclass(frozen=True)
class GameInfo:
    """A built-in game as ``ludus games`` lists it: what its registration declares, read without making it."""

    name: str
    summary: str
    #: ``win-loss``, ``scored`` or ``impartial``.
    family: str
    #: Whether the game has chance nodes (dice).
    chance: bool
    #: Whether a position may come back (a loopy game).
    positions_repeat: bool
    #: ``tiered``, ``whole-game`` or ``None``: the kind of database the game has.
    database: Optional[str]
    #: ``grid``, ``heaps``, ``pits``, ``panel`` or ``None``: how the explorer draws it.
    board: Optional[str]
    #: The engine an analysis uses by default.
    engine: str
    #: The commands of the ``ludus`` command line that take it.
    commands: Tuple[str, ...]
    parameters: Tuple[Parameter, ...]

    @staticmethod
    def _of(raw: Mapping[str, Any]) -> "GameInfo":
        return GameInfo(
            name=raw["name"],
            summary=raw["summary"],
            family=raw["family"],
            chance=raw["chance"],
            positions_repeat=raw["positions_repeat"],
            database=raw.get("database"),
            board=raw.get("board"),
            engine=raw["engine"],
            commands=tuple(raw["commands"]),
            parameters=tuple(Parameter._of(parameter) for parameter in raw["parameters"]),
        )


def games() -> List[GameInfo]:
    """Every built-in game, with its typed parameters and its capabilities."""
    return [GameInfo._of(raw) for raw in _ludus.games()]


def _written(value: Any) -> str:
    """A parameter's value as the spec string writes it: ``on``/``off`` for a switch, ``3-5-7`` for heaps."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return "-".join(str(item) for item in value)
    return str(value)


def _positive(name: str, value: Optional[int]) -> Optional[int]:
    """``value``, checked: a whole number of at least 1 (or ``None``), as the command line's flags take them."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} is a whole number of at least 1, not {value!r}")
    return value


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


@dataclass(frozen=True)
class Value:
    """A value for the player it belongs to, typed by what the engine found.

    ``kind`` is ``win``, ``loss`` or ``draw`` (with ``remoteness``, the plies to the end under perfect play, where
    the engine counts them), or ``chance`` for a game of chance (``expected_score`` with its ``error`` bound, and
    ``probability`` of winning for a game scored by win or loss). A scored game adds ``score`` (a margin), an
    impartial game under normal play ``nimber``.
    """

    kind: str
    remoteness: Optional[int] = None
    score: Optional[int] = None
    nimber: Optional[int] = None
    expected_score: Optional[float] = None
    probability: Optional[float] = None
    error: Optional[float] = None

    @staticmethod
    def _of(raw: Mapping[str, Any]) -> "Value":
        return Value(
            kind=raw["value"],
            remoteness=raw.get("remoteness"),
            score=raw.get("score"),
            nimber=raw.get("nimber"),
            expected_score=raw.get("expected_score"),
            probability=raw.get("probability"),
            error=raw.get("error"),
        )

    def __str__(self) -> str:
        if self.kind == "chance":
            if self.probability is not None:
                return f"wins with probability {self.probability:.10f}"
            return f"expected score {self.expected_score}"
        words = self.kind
        if self.score is not None:
            words += f" by {abs(self.score)}"
        if self.nimber is not None:
            words += f" (nimber {self.nimber})"
        if self.remoteness is not None:
            words += f" in {self.remoteness} " + ("ply" if self.remoteness == 1 else "plies")
        return words


@dataclass(frozen=True)
class MoveValue:
    """A move (at a chance node, an outcome) with its value for the player who makes it."""

    move: str
    value: Value
    #: Whether it is among the best moves (never at a chance node, where no one chooses).
    best: bool


@dataclass(frozen=True)
class Analysis:
    """The analysis of a position: the report of ``ludus analyze --format json`` (``raw``), typed."""

    game: str
    drawing: str
    value: Value
    moves: Tuple[MoveValue, ...]
    #: The principal variation: a best move for each side in turn, to the end or the first chance node.
    line: Tuple[str, ...]
    #: The engine's statistics (positions visited, table entries, hits).
    stats: Dict[str, int]
    #: For value iteration: positions, sweeps, the residual, whether it converged.
    convergence: Optional[Dict[str, Any]]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @property
    def best_moves(self) -> List[MoveValue]:
        """The moves marked best."""
        return [move for move in self.moves if move.best]

    @staticmethod
    def _of(raw: Dict[str, Any]) -> "Analysis":
        return Analysis(
            game=raw["game"],
            drawing=raw["drawing"],
            value=Value._of(raw),
            moves=tuple(MoveValue(move["move"], Value._of(move), move["best"]) for move in raw["moves"]),
            line=tuple(raw["line"]),
            stats=dict(raw["stats"]),
            convergence=raw.get("convergence"),
            raw=raw,
        )


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
        max_line: int = 200,
    ) -> "Analysis":
        """The value of ``position`` (``None``: the start), every move's value and the best line, by Ludus'
        engines; the budgets are those of :meth:`BuiltinGame.analyze`. An exception raised by the game's methods
        is raised here, once the search has stopped; Ctrl-C stops the search."""
        _positive("table_mb", table_mb)
        _positive("max_line", max_line)
        memory_mb = _positive("memory_mb", memory_mb)
        max_positions = _positive("max_positions", max_positions)
        raw = _ludus.analyze_python_game(
            self,
            position,
            engine,
            table_mb,
            memory_mb if memory_mb is not None else _ludus.default_memory_mb(),
            max_positions if max_positions is not None else 2**64 - 1,
            max_line,
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
        max_line: int = 200,
    ) -> Analysis:
        """The value of ``position`` (a :class:`Position`, its text, or ``None`` for the start), every move's
        value and the best line. ``engine``: ``auto``, ``alpha-beta``, ``memo-negamax`` or ``retrograde``.
        ``table_mb``: the table's memory; ``memory_mb``: the whole analysis' memory (default: half the
        machine's); ``max_positions``: the most positions one search expands. Past a budget:
        :class:`BudgetExceeded`. Ctrl-C stops the search (``KeyboardInterrupt``)."""
        base, moves = self._located(position)
        _positive("table_mb", table_mb)
        _positive("max_line", max_line)
        memory_mb = _positive("memory_mb", memory_mb)
        max_positions = _positive("max_positions", max_positions)
        raw = self._raw.analyze(
            base,
            list(moves),
            engine,
            table_mb,
            memory_mb if memory_mb is not None else _ludus.default_memory_mb(),
            max_positions if max_positions is not None else 2**64 - 1,
            max_line,
        )
        return Analysis._of(raw)

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


@dataclass(frozen=True)
class PluginInfo:
    """A contest plugin as ``ludus list`` shows it: its solvers (the default first) and its own options."""

    name: str
    kind: str
    summary: str
    solvers: Tuple[str, ...]
    options: Tuple[Parameter, ...]


def plugins() -> List[PluginInfo]:
    """Every contest plugin."""
    return [
        PluginInfo(
            name=raw["name"],
            kind=raw["kind"],
            summary=raw["summary"],
            solvers=tuple(solver["name"] for solver in raw["solvers"]),
            options=tuple(Parameter._of(option) for option in raw["options"]),
        )
        for raw in _ludus.plugins()
    ]


@dataclass(frozen=True)
class CaseAnswer:
    """One case's answer: its number (from 1), its official text (what follows ``Case #x:``), the part every
    solver must agree on (``verdict``: the whole answer for games, ``POSSIBLE``/``IMPOSSIBLE`` for puzzles), and
    the typed answer of ``ludus solve --format json``."""

    case: int
    text: str
    verdict: str
    answer: Any


def solve(
    plugin: str,
    text: str,
    *,
    solver: str = "fast",
    threads: int = 0,
    options: Union[Iterable[str], Mapping[str, Any]] = (),
    table_mb: int = DEFAULT_TABLE_MB,
    memory_mb: Optional[int] = None,
    max_positions: Optional[int] = None,
    no_limit: bool = False,
) -> List[CaseAnswer]:
    """Solves ``text``, an input in the official format of ``plugin`` (``"bacterial-tactics"``), with
    ``solver``; ``options`` are the plugin's own (``["witness"]`` or ``{"weak": True}``). A malformed input is a
    :class:`ParseError` naming its line; Ctrl-C stops the solve."""
    _positive("table_mb", table_mb)
    memory_mb = _positive("memory_mb", memory_mb)
    max_positions = _positive("max_positions", max_positions)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads is a whole number (0: every core), not {threads!r}")
    if isinstance(options, Mapping):
        given = [f"{name}={_written(value)}" for name, value in options.items()]
    else:
        given = [str(option) for option in options]
    raw = _ludus.solve(
        plugin,
        text,
        solver,
        threads,
        given,
        table_mb,
        memory_mb if memory_mb is not None else _ludus.default_memory_mb(),
        max_positions,
        no_limit,
    )
    return [CaseAnswer(case["case"], case["text"], case["class"], case["answer"]) for case in raw]


class Values(NamedTuple):
    """A batch of stored values, one entry a key, as numpy arrays: ``outcome`` (``int8``: 1 won, 0 drawn, -1
    lost for the player to move, -2 no record of the key) and ``detail`` (``int32``: a win/loss game's
    remoteness, -1 for a draw; a scored game's score)."""

    outcome: Any
    detail: Any


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as missing:
        raise ImportError("Database.values needs numpy: pip install numpy") from missing
    return numpy


class Database:
    """A game's solved database in a directory (``ludus db``): queries, a summary, a check, and values read by
    key in a batch. :func:`solve_database` writes one."""

    def __init__(self, path: Union[str, "PathLike[str]"], game: Union["BuiltinGame", str]) -> None:
        if isinstance(game, Game) and not isinstance(game, BuiltinGame):
            raise UnsupportedOperation(f"{game.name}: a database is for a built-in game (ludus db)")
        spec = game.name if isinstance(game, BuiltinGame) else game
        self._raw = _ludus.open_database(spec, path)
        self.game = game if isinstance(game, BuiltinGame) else load_game(spec)

    @property
    def path(self) -> str:
        """The directory."""
        return str(self._raw.directory)

    @property
    def kind(self) -> str:
        """``tiered`` (a win/loss game, a file a tier) or ``whole-game`` (a scored game, one file)."""
        return self._raw.kind

    def query(self, position: _PositionLike = None, *, max_line: int = 200) -> Analysis:
        """The analysis of ``position`` with every value read from the database (``ludus db query``): the
        value, every move's value, the best line. A position the database has no record of:
        :class:`NoRecord`; a database not solved: :class:`NotSolved`."""
        base, moves = self.game._located(position)
        _positive("max_line", max_line)
        return Analysis._of(self._raw.query(base, list(moves), max_line))

    def summary(self) -> Dict[str, Any]:
        """What the database holds (``ludus db analyze --format json``): counts by value, remoteness and tier,
        or by score."""
        return self._raw.summary()

    def check(self, *, threads: int = 0) -> Dict[str, Any]:
        """Re-derives every record from its children's records (``ludus db check --format json``)."""
        return self._raw.check(threads)

    def values(self, keys: Any) -> Values:
        """The stored values of ``keys`` (canonical keys, as :meth:`Position.key` gives them): a numpy array of
        unsigned integers, or any sequence of ints (keys up to 128 bits). Files are opened once for the batch."""
        numpy = _numpy()
        array = numpy.asarray(keys)
        if array.dtype.kind in "ui" and array.dtype.itemsize <= 8:
            if array.dtype.kind == "i" and (array < 0).any():
                raise ValueError("a key is a whole number of at least 0")
            wide = numpy.zeros((array.size, 2), dtype="<u8")
            wide[:, 0] = array.reshape(-1).astype("<u8")
            packed = wide.tobytes()
        else:
            packed = b"".join(int(key).to_bytes(16, "little") for key in array.reshape(-1).tolist())
        outcomes, details = self._raw.values_of_keys(packed)
        return Values(numpy.frombuffer(outcomes, dtype="i1"), numpy.frombuffer(details, dtype="<i4"))

    def __repr__(self) -> str:
        return f"ludus.Database({self.path!r}, {self._raw.name!r})"


def solve_database(
    game: Union["BuiltinGame", str],
    path: Union[str, "PathLike[str]"],
    *,
    threads: int = 0,
    memory_mb: Optional[int] = None,
    max_positions: Optional[int] = None,
    progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
) -> Database:
    """Solves every position reachable from the start of ``game`` into the directory ``path`` (``ludus db
    solve``), resuming from the tiers already there, and returns the database. ``progress`` is called with
    each tier's report as it ends (``tier``, ``positions``, ``bytes``, ``seconds``, ``resumed``), which can
    drive a tqdm bar::

        with tqdm(unit="positions") as bar:
            ludus.solve_database("connect-four:width=5,height=4", "c4", progress=lambda t: bar.update(t["positions"]))

    Past ``memory_mb`` (default: half the machine's memory): :class:`BudgetExceeded`; a game without a
    database: :class:`UnsupportedOperation`. An exception of ``progress`` is raised when the solve ends.
    Ctrl-C stops a tiered solve after the tier it is writing (``KeyboardInterrupt``); the tiers written stay,
    and a second call resumes from them."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads is a whole number (0: every core), not {threads!r}")
    memory_mb = _positive("memory_mb", memory_mb)
    max_positions = _positive("max_positions", max_positions)
    database = Database(path, game)
    database._raw.solve(
        threads,
        memory_mb if memory_mb is not None else _ludus.default_memory_mb(),
        max_positions if max_positions is not None else 2**64 - 1,
        progress,
    )
    return database
