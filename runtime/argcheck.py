"""Argument checks for constructors: layers, optimizers and learning-rate schedulers.

Each check returns the value it accepted, or raises before anything changes: TypeError when
the value has the wrong kind (a str learning rate, a bool where a number is meant), and
ValueError when it is out of range or not finite. Messages read
"Adam: lr must be a real number >= 0, got '0.1' (str)", naming the owner and the argument.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

_REAL = (int, float, np.integer, np.floating)


def key(where: str, name: str) -> str:
    """How to name hyper-parameter `name` of a group: "lr" in the defaults (where == ""),
    "param_groups[1]['lr']" in a group."""
    return f"{where}[{name!r}]" if where else name


def _got(value: Any) -> str:
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} ({type(value).__name__})"


def _interval(low: float | None, high: float | None, high_open: bool) -> str:
    if low is not None and high is not None:
        return f" in [{low:g}, {high:g}{')' if high_open else ']'}"
    if low is not None:
        return f" >= {low:g}"
    return ""


def real(
    owner: str,
    name: str,
    value: Any,
    low: float | None = None,
    high: float | None = None,
    high_open: bool = False,
) -> float:
    """A finite real number (not a bool) in [low, high] (or [low, high) with high_open)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, _REAL):
        raise TypeError(
            f"{owner}: {name} must be a real number{_interval(low, high, high_open)}, got {_got(value)}"
        )
    bad: bool | np.bool_ = not math.isfinite(value)
    bad = bad or (low is not None and value < low)
    bad = bad or (high is not None and (value >= high if high_open else value > high))
    if bad:
        raise ValueError(
            f"{owner}: {name} must be a finite number{_interval(low, high, high_open)}, got {value!r}"
        )
    return value  # type: ignore[return-value]  # a NumPy scalar passes as it is


def is_int(value: Any) -> bool:
    """An int, Python or NumPy, that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def integer(owner: str, name: str, value: Any, low: int | None = None) -> int:
    """An int (Python or NumPy, not a bool), >= low when low is given."""
    at_least = "" if low is None else f" >= {low}"
    if not is_int(value):
        raise TypeError(f"{owner}: {name} must be an int{at_least}, got {_got(value)}")
    if low is not None and value < low:
        raise ValueError(f"{owner}: {name} must be an int{at_least}, got {value!r}")
    return int(value)


def int_tuple(owner: str, name: str, value: Any, low: int, length: int | None = None) -> tuple[int, ...]:
    """An int, or a tuple/list of ints, each >= low, as a tuple (an int is repeated
    `length` times, or is a 1-tuple when length is None). Floats are refused, not truncated."""
    if is_int(value):
        return (integer(owner, name, value, low),) * (length or 1)
    what = f"a tuple of {length} ints" if length else "a tuple of ints"
    if not isinstance(value, (tuple, list)) or (length is not None and len(value) != length):
        raise TypeError(f"{owner}: {name} must be an int or {what} >= {low}, got {_got(value)}")
    return tuple(integer(owner, f"{name}[{i}]", v, low) for i, v in enumerate(value))


def count(owner: str, name: str, value: Any) -> int:
    """A step count: an int >= 0, or a 0-d integer array (as read back from a file)."""
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{owner}: {name} must be an int >= 0, got {_got(value)}") from None
    if isinstance(value, (bool, np.bool_)) or n < 0:
        raise ValueError(f"{owner}: {name} must be an int >= 0, got {value!r}")
    return n


def flag(owner: str, name: str, value: Any) -> bool:
    """A bool (Python or NumPy)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{owner}: {name} must be a bool, got {_got(value)}")
    return bool(value)


def pair(owner: str, name: str, value: Any, low: float, high: float) -> tuple[float, float]:
    """A tuple or list of two reals, each in [low, high)."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(
            f"{owner}: {name} must be a pair of numbers in [{low:g}, {high:g}), got {_got(value)}"
        )
    return (
        real(owner, f"{name}[0]", value[0], low, high, high_open=True),
        real(owner, f"{name}[1]", value[1], low, high, high_open=True),
    )
