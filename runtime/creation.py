"""Creating tensors: og.tensor and the zeros/ones/full/arange/rand/randn family."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from opgrad.runtime import device as _device
from opgrad.runtime import random as _random
from opgrad.runtime.dtypes import as_dtype, complex_of
from opgrad.runtime.later import later
from opgrad.runtime.promotion import get_default_dtype
from opgrad.runtime.tensor import Tensor, wrap

ShapeLike = int | Sequence[int]


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _python_default_dtype(
    data: Any, op: str = "tensor", what: str = "data", int64_only: bool = True, numpy_decides: bool = True
) -> np.dtype | None:
    """The default float dtype (float32 unless `og.set_default_dtype` changed it) for Python
    floats, int64 for ints, bool for bools (nested lists included).

    None when NumPy scalars or arrays are inside (NumPy decides: `tensor([np.float64(1.5)])`
    is float64, as in PyTorch, although np.float64 is a Python float too). With
    `numpy_decides=False` a NumPy float, complex or bool scalar counts as the Python number it
    subclasses (`full`'s fill value, as PyTorch's). Raises TypeError for
    a value that is not a number (a str, None, ...) and ValueError for an int outside
    int64 when no float makes the result floating (with `int64_only`: no dtype was given)."""
    kinds: set[type] = set()
    huge: int | None = None
    numpy_inside = False
    stack = [data]
    while stack:
        item = stack.pop()
        cls = item.__class__
        if cls is list or cls is tuple or isinstance(item, (list, tuple)):
            stack.extend(item)
        elif numpy_decides and isinstance(item, (np.generic, np.ndarray)):  # first: np.float64 is a float too
            numpy_inside = True
        elif isinstance(item, bool):
            kinds.add(bool)
        elif isinstance(item, int):
            kinds.add(int)
            if huge is None and not _INT64_MIN <= item <= _INT64_MAX:
                huge = item
        elif isinstance(item, float):
            kinds.add(float)
        elif isinstance(item, complex):
            kinds.add(complex)
        elif isinstance(item, (np.generic, np.ndarray)):
            numpy_inside = True
        else:
            raise TypeError(
                f"{op}: {what} holds a {cls.__name__} ({_short(item)}); expected numbers "
                "(bool, int, float, complex), nested lists of them, NumPy arrays or Tensors"
            )
    if huge is not None and int64_only and float not in kinds:
        raise ValueError(
            f"{op}: {what} holds the integer {_short(huge)}, outside the int64 range "
            f"[-2**63, 2**63 - 1]; pass a float or dtype='float64' to store it as a float"
        )
    if numpy_inside:
        return None
    if complex in kinds:
        return complex_of(get_default_dtype())
    if float in kinds:
        return get_default_dtype()
    if int in kinds:
        return np.dtype(np.int64)
    if bool in kinds:
        return np.dtype(np.bool_)
    return get_default_dtype()  # an empty list


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _describe(value: Any) -> str:
    """`value` and its type, for error messages: "2.5 (float)"."""
    return f"{_short(value)} ({type(value).__name__})"


def to_array(data: Any, dtype: Any, device: Any, op: str) -> Any:
    """A fresh array (a copy) for `data` on `device`, with clear errors for bad input."""
    if isinstance(data, Tensor):
        arr = data._data
    elif isinstance(data, (list, tuple)) and any(isinstance(v, Tensor) for v in data):
        arr = np.asarray([v.numpy() if isinstance(v, Tensor) else v for v in data])
    elif isinstance(data, np.generic):  # before the Python numbers: np.float64 is a float too
        arr = np.asarray(data)
    elif isinstance(data, (list, tuple, int, float, bool, complex)):
        default = _python_default_dtype(data, op, int64_only=dtype is None)
        target = default if dtype is None else as_dtype(dtype, f"{op}: dtype")
        try:
            arr = np.array(data, dtype=target)
        except OverflowError:
            info = np.iinfo(target) if target is not None and target.kind in "iu" else None
            span = f" [{info.min}, {info.max}]" if info is not None else ""
            raise ValueError(f"{op}: a value in data does not fit in dtype {target}{span}") from None
        except ValueError:
            raise ValueError(
                f"{op}: data is a ragged nested list (rows of different lengths, or numbers "
                "beside lists); every row must have the same length"
            ) from None
        dtype = None  # already built in the target dtype
    elif isinstance(data, np.ndarray) or _device.module_of_type(type(data)) is not None:
        arr = data
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
        as_dtype(arr.dtype, f"{op}: dtype")  # rejects strings, objects, ...
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
    """`shape` (an int or a sequence of ints, NumPy ints included) as a tuple of sizes >= 0.

    Floats, bools and strings are refused, not truncated: `randn((2.5, 2))` is an error."""
    if _is_size(shape):
        shape = (shape,)
    elif isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
        raise TypeError(f"{op}: shape must be an int or a sequence of ints, got {_describe(shape)}")
    for i, d in enumerate(shape):
        if not _is_size(d):
            raise TypeError(f"{op}: shape[{i}] must be an int, got {_describe(d)} in shape {_short(shape)}")
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError(f"{op}: shape {dims} has a negative dimension; sizes must be >= 0")
    return dims


def _is_size(value: Any) -> bool:
    """An int (Python or NumPy) that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def sizes(op: str, args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
    """(shape, the positionals after it) of a shape-taking function: PyTorch's varargs sizes
    (`randn(2, 3)`: the leading ints) or one sequence, then Paddle's positional dtype and the
    rest (`randn((2, 3), "float64")`, `zeros(2, "float64")`). A number that is not an int
    where a size may stand (`randn(2, 3.5)`) is refused, never truncated."""
    if not args:
        raise TypeError(f"{op}: missing the shape: {op}(2, 3) or {op}((2, 3))")
    if not _is_size(args[0]):
        return args[0], args[1:]
    n = next((i for i, value in enumerate(args) if not _is_size(value)), len(args))
    if n < len(args) and isinstance(args[n], (float, bool, complex, np.number, np.bool_)):
        raise TypeError(
            f"{op}: size {n} must be an int, got {_describe(args[n])}; give the sizes as ints "
            f"({op}(2, 3)) or as one sequence ({op}((2, 3)))"
        )
    return tuple(args[:n]), args[n:]


def _positional(op: str, rest: tuple[Any, ...], *keywords: tuple[str, Any]) -> list[Any]:
    """The values of `keywords` (name, value given by keyword) with `rest`, the positionals
    after a shape sequence, filling the first ones; one given both ways is a TypeError."""
    if len(rest) > len(keywords):
        raise TypeError(f"{op}: takes at most {len(keywords)} arguments after the shape, got {len(rest)}")
    values = [v for _, v in keywords]
    for i, value in enumerate(rest):
        name, given = keywords[i]
        if given is not None and given is not False:
            raise TypeError(f"{op}: got {name} both by position and by keyword")
        values[i] = value
    return values


def _creation_dtype(op: str, dtype: Any, default: Any) -> np.dtype:
    """The dtype argument of a shape-taking creation function; an int there is most likely a
    second size (`og.randn(2, 3)`), so say that sizes go in one tuple."""
    if _is_size(dtype):
        raise TypeError(
            f"{op}: dtype got the int {dtype}; sizes go in one tuple, e.g. {op}((2, 3)), "
            "and dtype is the argument after the shape"
        )
    return as_dtype(dtype if dtype is not None else default, f"{op}: dtype")


def _check_scalar(op: str, arg: str, value: Any, allow_bool: bool = True) -> None:
    """`value` must be a real number (int, float, NumPy scalar; bool if allow_bool)."""
    is_bool = isinstance(value, (bool, np.bool_))
    if (allow_bool or not is_bool) and isinstance(value, (int, float, np.bool_, np.integer, np.floating)):
        return
    kinds = "a real number" if allow_bool else "an int or a float"
    raise TypeError(f"{op}: {arg} must be {kinds}, got {_describe(value)}")


def _check_fill(op: str, value: Any) -> None:
    """A fill value is a real number or a complex one (`_full` checks it fits the dtype)."""
    if not isinstance(value, (complex, np.complexfloating)):
        _check_scalar(op, "fill_value", value)


def _finish(op: str, arr: Any, requires_grad: Any, stop_gradient: Any) -> Tensor:
    if stop_gradient is not None:
        if not isinstance(stop_gradient, (bool, np.bool_)):
            raise TypeError(f"{op}: stop_gradient must be a bool, got {_describe(stop_gradient)}")
        requires_grad = not stop_gradient
    if not isinstance(requires_grad, (bool, np.bool_)):
        raise TypeError(f"{op}: requires_grad must be a bool, got {_describe(requires_grad)}")
    if requires_grad and arr.dtype.kind not in "fc":
        raise TypeError(
            f"{op}: only floating-point and complex tensors can require grad; requires_grad=True was given "
            f"with dtype {arr.dtype}"
        )
    t = wrap(arr)
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

    Python floats give the default float dtype (float32), ints int64, bools bool; NumPy
    arrays and NumPy scalars keep their dtype (`tensor(np.float64(1.5))` is float64, as in
    PyTorch).
    """
    return _finish("tensor", to_array(data, dtype, device, "tensor"), requires_grad, stop_gradient)


def to_tensor(
    data: Any, dtype: Any = None, place: Any = None, stop_gradient: bool = True
) -> Tensor:  # Paddle's spelling
    return tensor(data, dtype=dtype, device=place, stop_gradient=stop_gradient)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with a NumPy array (watched for writes made through the
    array: see runtime/dlpack.py)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"from_numpy: expected a NumPy array, got {type(array).__name__}")
    if array.dtype == object:
        return wrap(to_array(array, None, None, "from_numpy"))
    as_dtype(array.dtype, "from_numpy: dtype")  # a view cannot convert: refuse complex, str, ...
    return later.dlpack.watch(wrap(array))


def _filled(op: str, shape: Any, value: Any, dtype: Any, device: Any, requires_grad: bool) -> Tensor:
    dims = _shape(shape, op)
    dt = _creation_dtype(op, dtype, get_default_dtype())
    xp = np if device is None or _device.normalize_device(device) == "cpu" else _device.require_cupy()
    return _finish(op, _full(op, xp, dims, value, dt), requires_grad, None)


def _full(op: str, xp: Any, dims: tuple[int, ...], value: Any, dt: np.dtype) -> Any:
    if dt.kind != "c" and isinstance(value, (complex, np.complexfloating)):
        raise TypeError(
            f"{op}: fill_value {_short(value)} is complex but dtype is {dt}; give a complex dtype "
            "(complex64, complex128) or a real fill_value"
        )
    try:
        return xp.full(dims, value, dtype=dt)
    except OverflowError:
        raise ValueError(f"{op}: fill_value {_short(value)} does not fit in dtype {dt}") from None


def zeros(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Zeros of the given shape: `zeros(2, 3)` or `zeros((2, 3), dtype)` (see `sizes`)."""
    shape, rest = sizes("zeros", size)
    dtype, device, requires_grad = _positional(
        "zeros", rest, ("dtype", dtype), ("device", device), ("requires_grad", requires_grad)
    )
    return _filled("zeros", shape, 0, dtype, device, requires_grad)


def ones(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Ones of the given shape: `ones(2, 3)` or `ones((2, 3), dtype)` (see `sizes`)."""
    shape, rest = sizes("ones", size)
    dtype, device, requires_grad = _positional(
        "ones", rest, ("dtype", dtype), ("device", device), ("requires_grad", requires_grad)
    )
    return _filled("ones", shape, 1, dtype, device, requires_grad)


def empty(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of the given shape whose values are not set (here: zeros, so nothing reads
    uninitialised memory): `empty(2, 3)` or `empty((2, 3), dtype)`."""
    shape, rest = sizes("empty", size)
    dtype, device, requires_grad = _positional(
        "empty", rest, ("dtype", dtype), ("device", device), ("requires_grad", requires_grad)
    )
    return _filled("empty", shape, 0, dtype, device, requires_grad)


def full(
    shape: ShapeLike, fill_value: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    _check_fill("full", fill_value)
    if dtype is None:
        dtype = (
            _python_default_dtype(fill_value, "full", "fill_value", numpy_decides=False)
            or np.asarray(fill_value).dtype
        )
    return _filled("full", shape, fill_value, dtype, device, requires_grad)


def zeros_like(x: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _like("zeros_like", x, 0, dtype, requires_grad)


def ones_like(x: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _like("ones_like", x, 1, dtype, requires_grad)


def full_like(x: Tensor, fill_value: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    _check_fill("full_like", fill_value)
    return _like("full_like", x, fill_value, dtype, requires_grad)


def _like(op: str, x: Tensor, value: Any, dtype: Any, requires_grad: bool) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: x must be a Tensor, got {type(x).__name__}")
    dt = x.dtype if dtype is None else as_dtype(dtype, f"{op}: dtype")
    return _finish(op, _full(op, _device.array_module(x._data), x.shape, value, dt), requires_grad, None)


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
    for arg, value in (("start", start), ("end", end), ("step", step)):
        _check_scalar("arange", arg, value, allow_bool=False)
        if not math.isfinite(value):
            raise ValueError(f"arange: {arg} must be finite, got {value}")
    if step == 0:
        raise ValueError("arange: step must not be zero")
    if dtype is None:
        integral = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = "int64" if integral else get_default_dtype()
    arr = np.arange(start, end, step, dtype=as_dtype(dtype, "arange: dtype"))
    return _finish(
        "arange", _place(arr, device, "arange") if device is not None else arr, requires_grad, None
    )


def _count(op: str, arg: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise TypeError(f"{op}: {arg} must be an int >= 0, got {_describe(value)}")
    return int(value)


def eye(
    n: int, m: int | None = None, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """The (n, m) identity matrix (m = n by default): ones on the main diagonal, zeros elsewhere.
    Paddle's spelling `eye(num_rows, num_columns)` is the same call."""
    rows = _count("eye", "n", n)
    cols = rows if m is None else _count("eye", "m", m)
    dt = _creation_dtype("eye", dtype, get_default_dtype())
    arr = np.eye(rows, cols, dtype=dt)
    return _finish("eye", _place(arr, device, "eye") if device is not None else arr, requires_grad, None)


def linspace(
    start: Any, end: Any, steps: int, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """`steps` evenly spaced values from start to end, both included (PyTorch's and Paddle's
    linspace; NumPy's with `num=steps`)."""
    for arg, value in (("start", start), ("end", end)):
        _check_scalar("linspace", arg, value, allow_bool=False)
        if not math.isfinite(value):
            raise ValueError(f"linspace: {arg} must be finite, got {value}")
    count = _count("linspace", "steps", steps)
    dt = _creation_dtype("linspace", dtype, get_default_dtype())
    arr = np.linspace(start, end, count).astype(dt, copy=False)
    return _finish(
        "linspace", _place(arr, device, "linspace") if device is not None else arr, requires_grad, None
    )


def _random_tensor(op: str, shape: Any, dtype: Any, device: Any, requires_grad: bool, normal: bool) -> Tensor:
    dims = _shape(shape, op)
    dt = _creation_dtype(op, dtype, get_default_dtype())
    if dt.kind not in "fc":
        raise TypeError(f"{op}: dtype must be floating or complex, got {dt}")
    on_gpu = device is not None and _device.normalize_device(device) != "cpu"
    xp = _device.require_cupy() if on_gpu else np
    gen = _random.generator_for(xp)
    if dt.kind == "c":  # as PyTorch: independent parts, each of variance 1/2 (randn) or uniform in [0, 1)
        draw = gen.standard_normal if normal else gen.random
        scale = np.sqrt(0.5) if normal else 1.0
        arr = (draw(dims) * scale) + 1j * (draw(dims) * scale)
    else:
        arr = gen.standard_normal(dims) if normal else gen.random(dims)
    return _finish(op, arr.astype(dt), requires_grad, None)


def rand(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Uniform samples in [0, 1) from the seeded generator (og.manual_seed): `rand(2, 3)` or
    `rand((2, 3), dtype)`."""
    shape, rest = sizes("rand", size)
    dtype, device, requires_grad = _positional(
        "rand", rest, ("dtype", dtype), ("device", device), ("requires_grad", requires_grad)
    )
    return _random_tensor("rand", shape, dtype, device, requires_grad, normal=False)


def randn(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Standard normal samples from the seeded generator (og.manual_seed): `randn(2, 3)` or
    `randn((2, 3), dtype)`."""
    shape, rest = sizes("randn", size)
    dtype, device, requires_grad = _positional(
        "randn", rest, ("dtype", dtype), ("device", device), ("requires_grad", requires_grad)
    )
    return _random_tensor("randn", shape, dtype, device, requires_grad, normal=True)
