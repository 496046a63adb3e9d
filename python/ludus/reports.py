"""The typed reports of the ``ludus`` package: what a game, a parameter, a value, an analysis, a plugin and a
case's answer are, read from the extension's dicts (the CLI's own reports as JSON)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union


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
    #: ``grid``, ``heaps``, ``pits``, ``edges``, ``panel`` or ``None``: how the explorer draws it.
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
    #: The position's value alone (``value_only``): ``moves`` and ``line`` are empty because they were not asked.
    value_only: bool
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
            value_only=bool(raw.get("value_only", False)),
            raw=raw,
        )


@dataclass(frozen=True)
class PluginInfo:
    """A contest plugin as ``ludus list`` shows it: its solvers (the default first) and its own options."""

    name: str
    kind: str
    summary: str
    solvers: Tuple[str, ...]
    options: Tuple[Parameter, ...]


@dataclass(frozen=True)
class CaseAnswer:
    """One case's answer: its number (from 1), its official text (what follows ``Case #x:``), the part every
    solver must agree on (``verdict``: the whole answer for games, ``POSSIBLE``/``IMPOSSIBLE`` for puzzles), and
    the typed answer of ``ludus solve --format json``."""

    case: int
    text: str
    verdict: str
    answer: Any
