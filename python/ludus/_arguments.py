"""Arguments checked before they reach the extension, as the command line's flags are."""

from __future__ import annotations

from typing import Any, Optional


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
