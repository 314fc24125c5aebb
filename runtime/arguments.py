"""Checking and converting the non-tensor arguments of generated ops.

A generated forward tests an attribute's class inline and calls one of these only when it
is not already the exact type the kernel takes (`if scale.__class__ is not float: scale =
float_arg(scale, "scale", "scale")`), so the common call pays one class comparison. Each
function returns the value in that type or raises a `TypeError`/`ValueError` naming the
op, the argument and what was expected.

What is accepted (close to PyTorch, stricter where a mistake is likely):

- `float`: Python and NumPy real numbers (ints too), not bool, str or tensors;
- `Scalar`: the same, plus bool; ints stay ints (an integer tensor keeps its dtype);
- `int`: Python and NumPy integers (anything with `__index__`), not bool or floats;
- `bool`: `True`/`False` and NumPy bools, not ints;
- `str`: strings;
- `int[]`: an integer (kept as it is: `split(x, 3)` differs from `split(x, [3])`), None
  (as NumPy, `axis=None` is every axis) or a sequence of integers, returned as a tuple:
  a node that records it holds a value the caller cannot change afterwards (a list
  mutated after the forward would change the gradient);
- `DataType`: whatever `dtypes.as_dtype` accepts.
"""

from __future__ import annotations

import operator
from typing import Any, overload

import numpy as np

from opgrad.runtime.dtypes import as_dtype

__all__ = [
    "alias_arg",
    "bool_arg",
    "dtype_arg",
    "float_arg",
    "int_arg",
    "int_list_arg",
    "scalar_arg",
    "str_arg",
]


def _got(value: Any) -> str:
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"


def _is_tensor(value: Any) -> bool:
    return hasattr(value, "_data") and hasattr(value, "_requires_grad")


def _refuse(value: Any, op: str, arg: str, expected: str) -> TypeError:
    hint = " (use .item() for a one-element tensor)" if _is_tensor(value) else ""
    return TypeError(f"{op}: {arg} must be {expected}, got {_got(value)}{hint}")


def alias_arg(
    op: str, arg: str, value: Any, default: Any, alias: str, alias_value: Any, required: bool
) -> Any:
    """The value of `arg` when the caller may also have spelled it `alias` (`axis` / `dim`,
    from `alias:` in ops.yaml). Generated code calls this only when the alias was given (or,
    for a required `arg`, when `arg` is missing), so a call without aliases pays one `is`
    test. Both given is a TypeError naming the op and both names; a value of `arg` equal to
    its default counts as not given (a default passed explicitly cannot be told apart)."""
    if required:
        given = value is not None
    else:
        given = not (value is default or (type(value) is type(default) and value == default))
    if alias_value is None:
        if required and not given:
            raise TypeError(f"{op}: missing required argument {arg!r} (or its alias {alias!r})")
        return value
    if given:
        raise TypeError(
            f"{op}: got both {arg!r} and its alias {alias!r}; pass one of them "
            f"({arg}={_got(value)}, {alias}={_got(alias_value)})"
        )
    return alias_value


def float_arg(value: Any, op: str, arg: str) -> float:
    """A real number as a Python float."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        raise _refuse(value, op, arg, "a real number (float or int)")
    return float(value)


def scalar_arg(value: Any, op: str, arg: str) -> int | float | bool:
    """A number: a Python bool, int or float (NumPy scalars converted)."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value)
    raise _refuse(value, op, arg, "a number (int, float or bool)")


def int_arg(value: Any, op: str, arg: str) -> int:
    """An integer as a Python int."""
    if isinstance(value, bool | np.bool_) or isinstance(value, float | np.floating):
        raise _refuse(value, op, arg, "an integer")
    try:
        return operator.index(value)
    except TypeError:
        raise _refuse(value, op, arg, "an integer") from None


def bool_arg(value: Any, op: str, arg: str) -> bool:
    """True or False (NumPy bools converted)."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise _refuse(value, op, arg, "True or False")


def str_arg(value: Any, op: str, arg: str) -> str:
    """A string (a str subclass becomes a plain str)."""
    if isinstance(value, str):
        return str(value)
    raise _refuse(value, op, arg, "a string")


@overload
def int_list_arg(value: None, op: str, arg: str) -> None: ...
@overload
def int_list_arg(value: Any, op: str, arg: str) -> int | tuple[int, ...]: ...


def int_list_arg(value: Any, op: str, arg: str) -> int | tuple[int, ...] | None:
    """An integer as it is, or a sequence of integers as a tuple of Python ints; None
    passes (the kernels read `axis=None` as every axis, as NumPy does)."""
    if value is None:
        return None
    expected = "an integer or a sequence of integers"
    if value.__class__ is list or value.__class__ is tuple:
        items = value
    elif isinstance(value, bool | np.bool_ | str | bytes | float | np.floating) or _is_tensor(value):
        raise _refuse(value, op, arg, expected)
    elif isinstance(value, np.ndarray):
        if value.ndim > 1 or value.dtype.kind not in "iu":
            raise _refuse(value, op, arg, expected)
        return tuple(int(v) for v in value.reshape(-1))
    elif hasattr(value, "__index__"):
        return operator.index(value)
    else:
        try:
            items = tuple(value)
        except TypeError:
            raise _refuse(value, op, arg, expected) from None
    for item in items:
        if item.__class__ is not int:
            return tuple(_int_item(item, i, op, arg) for i, item in enumerate(items))
    return tuple(items)


def _int_item(item: Any, i: int, op: str, arg: str) -> int:
    if not isinstance(item, bool | np.bool_):
        try:
            return operator.index(item)
        except TypeError:
            pass
    raise TypeError(f"{op}: {arg}[{i}] must be an integer, got {_got(item)}")


# Conversions already made, by the value passed (a name, a NumPy type or dtype); bounded.
_DTYPES: dict[Any, np.dtype] = {}


def dtype_arg(value: Any, op: str, arg: str) -> np.dtype:
    """A supported dtype (a name, a NumPy dtype or scalar type), as a NumPy dtype."""
    try:
        found = _DTYPES.get(value)
    except TypeError:  # unhashable
        found = None
    if found is not None:
        return found
    try:
        result = as_dtype(value, arg)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{op}: {exc}") from None
    if len(_DTYPES) < 256:
        try:
            _DTYPES[value] = result
        except TypeError:
            pass
    return result
