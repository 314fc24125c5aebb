"""Creating tensors: og.tensor and the zeros/ones/full/arange/rand/randn family."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from opgrad.runtime import device as _device
from opgrad.runtime import random as _random
from opgrad.runtime.dtypes import as_dtype
from opgrad.runtime.tensor import Tensor, wrap

ShapeLike = int | Sequence[int]


def _python_default_dtype(data: Any) -> np.dtype | None:
    """float32 for Python floats, int64 for ints, bool for bools (nested lists included)."""
    kinds: set[type] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, bool):
            kinds.add(bool)
        elif isinstance(item, int):
            kinds.add(int)
        elif isinstance(item, float):
            kinds.add(float)
        else:
            return None  # NumPy scalars, tensors...: let NumPy decide
    if float in kinds:
        return np.dtype(np.float32)
    if int in kinds:
        return np.dtype(np.int64)
    if bool in kinds:
        return np.dtype(np.bool_)
    return np.dtype(np.float32)  # an empty list


def _to_array(data: Any, dtype: Any, device: Any, op: str) -> Any:
    """A fresh array (a copy) for `data` on `device`, with clear errors for bad input."""
    if isinstance(data, Tensor):
        arr = data._data
    elif isinstance(data, (list, tuple)) and any(isinstance(v, Tensor) for v in data):
        arr = np.asarray([v.numpy() if isinstance(v, Tensor) else v for v in data])
    elif isinstance(data, (list, tuple, int, float, bool)):
        default = _python_default_dtype(data) if dtype is None else None
        try:
            arr = np.array(data, dtype=default)
        except ValueError as exc:
            raise ValueError(
                f"{op}: could not build a tensor from this nested list: {exc}. Every row must have "
                "the same length (ragged lists are not tensors)"
            ) from None
    elif isinstance(data, np.ndarray) or _device.module_of_type(type(data)) is not None:
        arr = data
    elif isinstance(data, np.generic):
        arr = np.asarray(data)
    else:
        raise TypeError(
            f"{op}: cannot make a tensor from {type(data).__name__}; give a number, a (nested) list, "
            "a NumPy array or a Tensor"
        )
    if arr.dtype == object:
        raise TypeError(
            f"{op}: the data has dtype object (mixed or non-numeric values); give numbers of one kind"
        )
    if dtype is not None:
        arr = arr.astype(as_dtype(dtype, f"{op}: dtype"))
    else:
        as_dtype(arr.dtype, f"{op}: dtype")  # rejects strings, complex, ...
    return _place(arr, device, op)


def _place(arr: Any, device: Any, op: str) -> Any:
    """`arr` copied onto `device` (None: where it is)."""
    if device is None:
        return arr.copy()
    try:
        moved = _device.move_array(arr, _device.normalize_device(device))
    except ValueError as exc:
        raise ValueError(f"{op}: {exc}") from None
    return moved.copy() if moved is arr else moved


def _shape(shape: Any, op: str) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    if isinstance(shape, (str, bytes)):
        raise TypeError(f"{op}: shape must be an int or a sequence of ints, got {shape!r}")
    try:
        dims = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise TypeError(f"{op}: shape must be an int or a sequence of ints, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"{op}: shape {dims} has a negative dimension")
    return dims


def _finish(arr: Any, requires_grad: bool, stop_gradient: bool | None) -> Tensor:
    t = wrap(arr)
    if stop_gradient is not None:
        requires_grad = not stop_gradient
    if requires_grad:
        t.requires_grad = True
    return t


def tensor(
    data: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    stop_gradient: bool | None = None,
) -> Tensor:
    """A new tensor holding a copy of `data`.

    Python floats give float32, ints int64, bools bool; NumPy arrays keep their dtype.
    """
    return _finish(_to_array(data, dtype, device, "tensor"), requires_grad, stop_gradient)


def to_tensor(
    data: Any, dtype: Any = None, place: Any = None, stop_gradient: bool = True
) -> Tensor:  # Paddle's spelling
    return tensor(data, dtype=dtype, device=place, stop_gradient=stop_gradient)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with a NumPy array."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"from_numpy: expected a NumPy array, got {type(array).__name__}")
    return wrap(_to_array(array, None, None, "from_numpy") if array.dtype == object else array)


def _filled(op: str, shape: Any, value: Any, dtype: Any, device: Any, requires_grad: bool) -> Tensor:
    dims = _shape(shape, op)
    dt = as_dtype(dtype if dtype is not None else "float32", f"{op}: dtype")
    xp = np if device is None or _device.normalize_device(device) == "cpu" else _device.require_cupy()
    return _finish(xp.full(dims, value, dtype=dt), requires_grad, None)


def zeros(shape: ShapeLike, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled("zeros", shape, 0, dtype, device, requires_grad)


def ones(shape: ShapeLike, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled("ones", shape, 1, dtype, device, requires_grad)


def full(
    shape: ShapeLike, fill_value: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    if dtype is None:
        dtype = _python_default_dtype(fill_value) or np.asarray(fill_value).dtype
    return _filled("full", shape, fill_value, dtype, device, requires_grad)


def zeros_like(x: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _like("zeros_like", x, 0, dtype, requires_grad)


def ones_like(x: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _like("ones_like", x, 1, dtype, requires_grad)


def full_like(x: Tensor, fill_value: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _like("full_like", x, fill_value, dtype, requires_grad)


def _like(op: str, x: Tensor, value: Any, dtype: Any, requires_grad: bool) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: x must be a Tensor, got {type(x).__name__}")
    from opgrad.runtime.kernels.registry import get_array_module

    dt = x.dtype if dtype is None else as_dtype(dtype, f"{op}: dtype")
    return _finish(get_array_module(x._data).full(x.shape, value, dtype=dt), requires_grad, None)


def arange(
    start: Any,
    end: Any = None,
    step: Any = 1,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Values from start (0 if only one bound is given) up to, not including, end."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("arange: step must not be zero")
    if dtype is None:
        dtype = "int64" if all(isinstance(v, (int, np.integer)) for v in (start, end, step)) else "float32"
    arr = np.arange(start, end, step, dtype=as_dtype(dtype, "arange: dtype"))
    return _finish(_place(arr, device, "arange") if device is not None else arr, requires_grad, None)


def _random_tensor(op: str, shape: Any, dtype: Any, device: Any, requires_grad: bool, normal: bool) -> Tensor:
    dims = _shape(shape, op)
    dt = as_dtype(dtype if dtype is not None else "float32", f"{op}: dtype")
    if dt.kind != "f":
        raise TypeError(f"{op}: dtype must be floating, got {dt}")
    on_gpu = device is not None and _device.normalize_device(device) != "cpu"
    xp = _device.require_cupy() if on_gpu else np
    gen = _random.generator_for(xp)
    arr = gen.standard_normal(dims) if normal else gen.random(dims)
    return _finish(arr.astype(dt), requires_grad, None)


def rand(shape: ShapeLike, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Uniform samples in [0, 1) from the seeded generator (og.manual_seed)."""
    return _random_tensor("rand", shape, dtype, device, requires_grad, normal=False)


def randn(shape: ShapeLike, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Standard normal samples from the seeded generator (og.manual_seed)."""
    return _random_tensor("randn", shape, dtype, device, requires_grad, normal=True)
