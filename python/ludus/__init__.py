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

from typing import Any, Iterable, List, Mapping, Optional, Union

from . import _ludus
from ._arguments import _positive, _threads, _written
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
from .database import Database, Values, solve_database
from .game import DEFAULT_TABLE_MB, GUESS_POSITIONS, BuiltinGame, Game, Position, games, load_game
from .reports import Analysis, CaseAnswer, GameInfo, MoveValue, Parameter, PluginInfo, Value

__version__: str = _ludus.__version__

__all__ = [
    "Analysis",
    "BudgetExceeded",
    "BuiltinGame",
    "CaseAnswer",
    "ContractBroken",
    "Database",
    "DatabaseError",
    "DEFAULT_TABLE_MB",
    "Game",
    "GameInfo",
    "GameOver",
    "GUESS_POSITIONS",
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
    _threads(threads)
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
