"""Databases: :class:`Database` (a built-in game's solved database: queries, a summary, a check, values read by
key in numpy batches) and :func:`solve_database`, which writes one."""

from __future__ import annotations

from os import PathLike
from typing import Any, Callable, Dict, NamedTuple, Optional, Union

from . import _ludus
from ._arguments import _positive, _threads
from ._ludus import UnsupportedOperation
from .game import BuiltinGame, Game, _PositionLike, load_game
from .reports import Analysis


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

    def check(self, *, threads: int = 0, memory_mb: Optional[int] = None) -> Dict[str, Any]:
        """Re-derives every record from its children's records (``ludus db check --format json``), holding at
        most ``memory_mb`` (default: half the machine's memory; past it, :class:`LimitExceeded` before the
        records are read)."""
        _threads(threads)
        memory_mb = _positive("memory_mb", memory_mb)
        return self._raw.check(threads, memory_mb if memory_mb is not None else _ludus.default_memory_mb())

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
    _threads(threads)
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
