"""Arguments checked before they reach the extension, as the command line's flags are."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from . import _ludus


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


def _whole(name: str, value: int, meaning: str = "") -> int:
    """``value``, checked: a whole number (0 included); ``meaning`` says what 0 means in the error."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} is a whole number{meaning}, not {value!r}")
    return value


def _threads(threads: int) -> int:
    """``threads``, checked: a whole number, 0 meaning one a core (``--threads``)."""
    return _whole("threads", threads, " (0: every core)")


#: The longest line an analysis follows unless told (``--line``'s default).
MAX_LINE = 200


def _line(max_line: Optional[int], value_only: bool) -> int:
    """``max_line``, checked, 200 by default; refused beside ``value_only``, which follows no line (as
    ``--line`` conflicts with ``--value-only``)."""
    if value_only and max_line is not None:
        raise ValueError(f"max_line={max_line!r} bounds the line, which value_only does not follow")
    return MAX_LINE if max_line is None else max_line


def _budgets(table_mb: int, memory_mb: Optional[int], max_positions: Optional[int], max_line: int) -> Tuple[int, int, int, int]:
    """An analysis' budgets, checked, with their defaults as the extension takes them: ``memory_mb`` half the
    machine's memory, ``max_positions`` none."""
    _positive("table_mb", table_mb)
    _positive("max_line", max_line)
    memory_mb = _positive("memory_mb", memory_mb)
    max_positions = _positive("max_positions", max_positions)
    return (
        table_mb,
        memory_mb if memory_mb is not None else _ludus.default_memory_mb(),
        max_positions if max_positions is not None else 2**64 - 1,
        max_line,
    )
