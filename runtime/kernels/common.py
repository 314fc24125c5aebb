"""Helpers shared by the kernels: axis normalisation, broadcast reduction, scatter-add, erf.

`unbroadcast` is the one place where a gradient computed for a broadcast result is summed
back to an input's shape (and cast back to its dtype); `normalize_axis` is the one place
where Paddle-style axis arguments (an int, a list, or empty/None for all axes) are checked.
Everything here works on NumPy and CuPy arrays alike; the CuPy-specific functions come from
`device.cupyx_module()`, reached only with CuPy arrays.
"""

from __future__ import annotations

import dis
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.polynomial import chebyshev

from opgrad.runtime import device as _device
from opgrad.runtime.device import array_module

Shape = tuple[int, ...]


def as_int(value: Any, op: str, arg: str) -> int:
    """`value` as a Python int, or a TypeError naming op and argument."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op}: {arg} must be an int, got {type(value).__name__} {value!r}")
    return int(value)


def as_int_list(value: Any, op: str, arg: str) -> list[int]:
    """An int or a sequence of ints as a list of ints, or a TypeError naming op and argument."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)]
    if isinstance(value, np.ndarray) and value.ndim <= 1:
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{op}: {arg} must be an int or a list of ints, got {type(value).__name__} {value!r}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{op}: {arg} must contain only ints, got {type(v).__name__} {v!r} in {value!r}")
        out.append(int(v))
    return out


def normalize_one_axis(axis: Any, ndim: int, op: str, arg: str = "axis") -> int:
    """A single axis in [0, ndim) (negative counts from the end); errors name op and arg."""
    a = as_int(axis, op, arg)
    if not -ndim <= a < ndim:
        raise ValueError(
            f"{op}: {arg} {a} is out of range for a tensor with {ndim} dimensions; "
            f"expected {-ndim} <= {arg} < {ndim}"
        )
    return a % ndim


def normalize_axis(axis: Any, ndim: int, op: str, arg: str = "axis") -> tuple[int, ...]:
    """Paddle-style `axis` as a sorted tuple of distinct non-negative axes.

    `axis` is an int, a list/tuple of ints, or None/empty meaning every axis. A 0-d tensor
    accepts 0 and -1 (Paddle's convention) and reduces over nothing. Raises ValueError
    naming the op, the axis and ndim when an axis is out of range or repeated.
    """
    if axis is None:
        return tuple(range(ndim))
    axes = as_int_list(axis, op, arg)
    if not axes:
        return tuple(range(ndim))
    if ndim == 0:
        for a in axes:
            if a not in (0, -1):
                raise ValueError(
                    f"{op}: {arg} {axis!r} is out of range for a 0-d tensor; expected 0, -1, [] or None"
                )
        return ()
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"{op}: {arg} {axis!r} is out of range for a tensor with {ndim} dimensions; "
                f"expected every entry in [{-ndim}, {ndim})"
            )
        a %= ndim
        if a in out:
            raise ValueError(f"{op}: {arg} {axis!r} names dimension {a} twice (tensor has {ndim} dimensions)")
        out.append(a)
    return tuple(sorted(out))


def keepdim_shape(shape: Sequence[int], axes: tuple[int, ...]) -> Shape:
    """`shape` with the reduced `axes` set to 1 (the shape of a keepdim reduction)."""
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def unbroadcast(g: Any, shape: Sequence[int], dtype: Any) -> Any:
    """Sum the broadcast gradient `g` back to `shape` and cast it to `dtype`.

    Leading axes that broadcasting added are summed away; axes where `shape` has 1 and `g`
    does not are summed with keepdims. The result is always an array (0-d for shape ()).
    """
    if g.__class__ is np.ndarray and g.shape == shape and g.dtype == dtype:
        return g  # the common case: nothing was broadcast
    if g.__class__ is np.ndarray and g.ndim >= 2 and g.shape[1:] == shape and g.dtype == dtype:
        return _ADD_REDUCE(g, axis=0)  # next most common: a bias added to each row (g.sum, one frame less)
    return _unbroadcast_general(g, shape, dtype)


def _unbroadcast_general(g: Any, shape: Sequence[int], dtype: Any) -> Any:
    """unbroadcast for every case (the fast paths above give the same arrays)."""
    if isinstance(g, np.generic):
        g = np.asarray(g)
    shape = tuple(shape)
    if g.shape != shape:
        lead = g.ndim - len(shape)
        if lead < 0:
            raise ValueError(f"unbroadcast: gradient of shape {g.shape} cannot reduce to shape {shape}")
        axes = tuple(range(lead)) + tuple(
            lead + i for i, d in enumerate(shape) if d == 1 and g.shape[lead + i] != 1
        )
        if axes:
            g = g.sum(axis=axes)
        g = g.reshape(shape)
    xp = array_module(g)
    return xp.asarray(g).astype(dtype, copy=False)


_NDARRAY = np.ndarray
_ADD_REDUCE = np.add.reduce  # what ndarray.sum calls, behind a Python wrapper


def nd(r: Any) -> Any:
    """`r` as an array: NumPy ufuncs and reductions return scalars for 0-d results."""
    if r.__class__ is _NDARRAY:  # the hot path: an exact class check is ~3x cheaper
        return r
    return np.asarray(r) if isinstance(r, np.generic) else r


def nan_where(x: Any, grad: Any) -> Any:
    """`grad` with NaN wherever `x` is NaN: a piecewise function's gradient at a NaN input.

    `where(x > 0, a, b)` sends a NaN to the `b` piece, as if it were negative; the NaN
    policy (docs/contracts.md) is that a NaN input gives a NaN gradient instead. A NaN-free
    x (the common case) costs one `isnan` pass and returns `grad` itself.
    """
    xp = array_module(grad)
    nan = xp.isnan(x)
    if not nan.any():
        return grad
    return xp.where(nan, x, grad)


def readonly_scalar(value: Any, dtype: Any) -> Any:
    """`value` as a read-only 0-d NumPy array of `dtype`: a constant hot kernels pass to their
    ufuncs instead of a Python number, whose dtype NumPy would work out on every call."""
    c = np.full((), value, dtype)
    c.flags.writeable = False
    return c


# 1 as a read-only 0-d NumPy array, by real floating dtype: `1 - a` with a Python 1 costs NumPy
# ~0.25 µs more than `ONES[a.dtype] - a` (it finds the Python number's dtype on every call),
# for the same array bit for bit (the same subtraction in a's dtype). Hot grad kernels on small
# arrays (tanh_grad) use it: `ONES.get(a.dtype) if a.__class__ is np.ndarray else None`.
ONES: dict[Any, Any] = {np.dtype(t): readonly_scalar(1, t) for t in (np.float16, np.float32, np.float64)}


def same_as_ufunc(np_fn: Any, warns_from: Any = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark the decorated kernel or into variant as NumPy's ufunc `np_fn` on exact ndarrays
    of one real floating dtype (what the C op driver and in-place write pass it): a kernel
    computes exactly `np_fn(*arrays)` made an array as `nd` makes it, its trailing arguments
    being False (matmul's transpose flags); an into variant is `np_fn(*arrays, out)`, then
    True. The C driver (runtime/_speedups.c) then calls `np_fn` itself, without the
    function's frame; it reads the mark per function object (a kernel re-registered or
    replaced is read again). An into variant also needs `ufunc_call_site` (ufunc_into's):
    where NumPy's warnings of floating-point events name the frame that calls `np_fn`, which
    the C write names too; `warns_from`: the into variant whose frame calls it (its site)."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        setattr(fn, "as_ufunc", np_fn)  # noqa: B010  (function attributes mypy does not know)
        if warns_from is not None:
            setattr(fn, "ufunc_call_site", warns_from.ufunc_call_site)  # noqa: B010
        return fn

    return mark


def ufunc(name: str) -> Callable[[Any], Any]:
    """A one-array kernel applying the array module's ufunc `name` (`np.tanh`, `cupy.tanh`).

    The NumPy path calls the ufunc held here with no module look-up and no `nd` call
    unless the result is a NumPy scalar (a 0-d input): these kernels are the innermost
    step of every small op, where those two calls cost about as much as the ufunc itself.
    """
    np_fn = getattr(np, name)

    def kernel(x: Any) -> Any:
        if x.__class__ is _NDARRAY:
            r = np_fn(x)
            return r if r.__class__ is _NDARRAY else nd(r)
        return nd(getattr(array_module(x), name)(x))

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"{name}(x), elementwise (the array module's ufunc)."
    return same_as_ufunc(np_fn)(kernel)


def separate(out: Any, arrays: Sequence[Any]) -> bool:
    """No array in `arrays` overlaps `out` except by being `out` itself: what an into
    variant checks before a non-NumPy module (CuPy) writes into `out` (NumPy's ufuncs copy
    an overlapping input themselves; CuPy's elementwise kernels do not)."""
    xp = array_module(out)
    return all(a is out or not xp.may_share_memory(a, out) for a in arrays)


def ufunc_into(name: str) -> Callable[..., bool]:
    """The into variant (kernels/registry.py) of a kernel that is the array module's ufunc
    `name` on its one or two arrays: `ufunc(*arrays, out)`. NumPy and CuPy check the
    output's shape and that the result's dtype casts to it (same_kind, the ufuncs' default)
    before they write. The NumPy path passes `out` by position: ~0.2 us less a call than
    `out=` on small arrays, where that is about what the copy it saves costs."""
    np_fn = getattr(np, name)

    def generic(out: Any, *arrays: Any) -> bool:
        if not separate(out, arrays):
            return False
        getattr(array_module(out), name)(*arrays, out=out, casting="same_kind")
        return True

    if np_fn.nin == 1:

        def into(out: Any, x: Any) -> bool:
            if out.__class__ is _NDARRAY:
                np_fn(x, out)
                return True
            return generic(out, x)

    else:
        assert np_fn.nin == 2, name

        def into(out: Any, x: Any, y: Any) -> bool:  # type: ignore[misc]  # (the other arity)
            if out.__class__ is _NDARRAY:
                np_fn(x, y, out)
                return True
            return generic(out, x, y)

    into.__name__ = into.__qualname__ = f"{name}_into"
    # where NumPy's warnings of floating-point events name this function's frame (its call of
    # the ufunc): the C in-place write names it too (same_as_ufunc)
    site = (globals(), into.__code__.co_filename, _line_of_call(into, "np_fn"))
    setattr(into, "ufunc_call_site", site)  # noqa: B010
    return same_as_ufunc(np_fn)(into)


def _line_of_call(fn: Callable[..., Any], name: str) -> int:
    """The line in `fn` where it first reads the free variable `name` (to call it)."""
    lines = (i.positions.lineno for i in dis.get_instructions(fn) if i.argval == name and i.positions)
    return next(n for n in lines if n is not None)


def pair(value: Any, op: str, arg: str, minimum: int) -> tuple[int, int]:
    """An int or a 2-list as (h, w), each at least `minimum` (the 2-D convolution, pooling and
    unfold kernels' size arguments)."""
    v = as_int_list(value, op, arg)
    if len(v) == 1:
        v = v * 2
    if len(v) != 2:
        raise ValueError(f"{op}: {arg} must be an int or a list of 2 ints, got {value!r}")
    if min(v) < minimum:
        raise ValueError(f"{op}: {arg} must be >= {minimum}, got {value!r}")
    return v[0], v[1]


def stable_sigmoid(xp: Any, x: Any) -> Any:
    """1 / (1 + exp(-x)), accurate to a few ulps over the whole range: exp(-x) keeps full
    relative precision, and where it overflows to inf (very negative x) the result is 0, the
    value below the dtype's smallest normal that every formula gives there. The overflow
    warning is silenced. The one sigmoid the kernels share; three passes over the data, about
    2.5x faster than a `where` of two branches on large arrays."""
    with np.errstate(over="ignore"):
        r = xp.exp(-x)
    if r.__class__ is not _NDARRAY and isinstance(r, np.generic):  # 0-d NumPy input: a scalar
        return np.reciprocal(np.add(r, 1))
    r += 1
    return xp.reciprocal(r, out=r)


def check_float(op: str, arg: str, a: Any) -> None:
    """Raise a TypeError naming op and arg unless `a` is a floating array."""
    if a.dtype.kind != "f":
        raise TypeError(f"{op}: {arg} must be a floating tensor, got dtype {a.dtype}")


def check_like(op: str, ref_arg: str, ref: Any, complex_ok: bool = False, **others: Any) -> None:
    """Raise naming op and the argument unless `ref` is floating (or, with `complex_ok`,
    complex) and every array in `others` has its shape and dtype (what a gradient helper op
    must be given: a gradient of another shape or dtype must never come out of it)."""
    if not (complex_ok and ref.dtype.kind == "c"):
        check_float(op, ref_arg, ref)
    for arg, a in others.items():
        if a.shape != ref.shape:
            raise ValueError(f"{op}: {arg} has shape {a.shape}; expected {ref_arg}'s shape {ref.shape}")
        if a.dtype != ref.dtype:
            raise TypeError(f"{op}: {arg} has dtype {a.dtype}; expected {ref_arg}'s dtype {ref.dtype}")


def allocation_error(op: str, arg: str, value: Any, exc: BaseException) -> BaseException:
    """The error for `exc`, raised while allocating the result of `op` whose size `arg`
    (given `value`) sets: a RuntimeError naming both when the result is too large
    (MemoryError, or NumPy's "array is too big"); `exc` itself otherwise."""
    if isinstance(exc, MemoryError) or "too big" in str(exc):
        return RuntimeError(f"{op}: {arg}={value!r} asks for a result too large to allocate ({exc})")
    return exc


def add_at(target: Any, index: Any, values: Any) -> Any:
    """target[index] += values in place, repeated positions summed (NumPy's `add.at`,
    cupyx's `scatter_add`); returns target."""
    if array_module(target) is np:
        np.add.at(target, index, values)
    else:
        _device.cupyx_module().scatter_add(target, index, values)
    return target


def scatter_add(target: Any, axis: int, index: Any, values: Any) -> Any:
    """target[..., index[i], ...] += values[..., i, ...] along `axis`, repeated indices summed."""
    xp = array_module(target)
    add_at(xp.moveaxis(target, axis, 0), index, xp.moveaxis(values, axis, 0))
    return target


def check_index(index: Any, size: int, op: str, arg: str, what: str) -> None:
    """Raise naming op and arg unless `index` is an integer array with entries in [0, size)."""
    if index.dtype.kind not in "iu":
        raise TypeError(f"{op}: {arg} must be an integer tensor, got dtype {index.dtype}")
    if index.size:
        lo, hi = int(index.min()), int(index.max())
        if lo < 0 or hi >= size:
            bad = lo if lo < 0 else hi
            raise ValueError(f"{op}: {arg} contains {bad}, outside [0, {size}) ({what})")


def broadcast_shapes(op: str, *shapes: Sequence[int], names: Sequence[str] = ("x", "y")) -> Shape:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        described = " and ".join(f"{n} has shape {tuple(s)}" for n, s in zip(names, shapes, strict=False))
        raise ValueError(f"{op}: {described}; expected shapes that broadcast together") from None


def check_loss_shapes(op: str, input: Any, label: Any) -> None:  # noqa: A002 - Paddle's name
    """Raise unless `label` broadcasts to `input`'s shape without growing it.

    A loss is taken over input's elements: input (3,) against label (3, 1) would broadcast
    to (3, 3) and average nine differences instead of three, a silent wrong result
    (PyTorch only warns). A label of input's shape, or one that broadcasts to it (a row
    shared by every sample), is accepted.
    """
    if label.shape == input.shape:
        return
    shape = broadcast_shapes(op, input.shape, label.shape, names=("input", "label"))
    if shape != tuple(input.shape):
        raise ValueError(
            f"{op}: input has shape {tuple(input.shape)} and label has shape {tuple(label.shape)}, which "
            f"broadcast to {shape}; expected label of input's shape (or one that broadcasts to it)"
        )


# --- erf ----------------------------------------------------------------------------------
# NumPy has no erf, and SciPy is not a dependency. erf(x)/x is an even, entire function, so
# piecewise Chebyshev interpolation of it on [0, 6] (12 pieces of width 0.5, degree 12)
# gives erf to ~2e-15 relative everywhere, tiny arguments included; |x| >= 6 rounds to ±1.
# The coefficients are computed here from math.erf when the module loads (about 1 ms).

_ERF_WIDTH = 0.5
_ERF_PIECES = 12
_ERF_DEGREE = 12


def _erf_table() -> np.ndarray:
    two_over_sqrt_pi = 2.0 / math.sqrt(math.pi)

    def ratio(x: np.ndarray) -> np.ndarray:
        return np.array([math.erf(v) / v if v != 0.0 else two_over_sqrt_pi for v in x.tolist()])

    table = np.empty((_ERF_DEGREE + 1, _ERF_PIECES))
    for i in range(_ERF_PIECES):
        left = i * _ERF_WIDTH

        def piece(t: np.ndarray, left: float = left) -> Any:  # [-1, 1] -> this piece of [0, ...)
            return ratio(left + (t + 1.0) * (_ERF_WIDTH / 2))

        table[:, i] = chebyshev.chebinterpolate(piece, _ERF_DEGREE)
    return table


_ERF_TABLE = _erf_table()


try:  # optional: SciPy is not a dependency, but when present its erf is much faster
    from scipy.special import erf as _scipy_erf
except ImportError:  # pragma: no cover - depends on the environment
    _scipy_erf = None


# --- float32 erf ------------------------------------------------------------------------
# erf(x) = tanh(x * R(x*x)), x clipped to [-4, 4] (beyond 3.92 erf rounds to ±1 in float32),
# R a degree-10 polynomial fitted to atanh(erf(x)) / x by tools/fit_erf_float32.py (which
# explains the weighting and prints these numbers). tanh damps R's error where erf nears ±1,
# so evaluated in float32 the result is within 3.5 ulp of erf (2.4e-7 relative, the largest
# near |x| = 0.06 from tanh's own rounding); tests/test_kernels_erf.py checks it against
# SciPy's in float64. About 7x faster than SciPy's float32 erf (which computes in float64).

_ERF32_LIMIT = 4.0
_ERF32_COEFFICIENTS = (
    1.1283791693888856,
    0.10277251886019831,
    -0.00020874074706479076,
    -0.0005909125480920416,
    6.49655163609152e-05,
    3.6360164834805863e-06,
    -1.986759927152229e-06,
    2.78786505183504e-07,
    -2.0752846560147253e-08,
    8.234209321333896e-10,
    -1.3648610019956209e-11,
)
_ERF32_F32 = tuple(np.float32(a) for a in _ERF32_COEFFICIENTS)


def erf_float32(x: Any, out: Any = None) -> Any:
    """erf of a float32 array (NumPy or CuPy), computed in float32 into `out` (a float32
    array of x's shape, not x itself) or a new array; within 3.5 ulp, see above."""
    xp = array_module(x)
    t = xp.clip(x, -_ERF32_LIMIT, _ERF32_LIMIT)  # NaN stays NaN
    with np.errstate(under="ignore"):  # tiny x: powers of t flush to 0, as they should
        t *= t
        p = xp.multiply(t, _ERF32_F32[-1], out=out)
        for a in _ERF32_F32[-2:0:-1]:  # Horner in t
            p += a
            p *= t
        p += _ERF32_F32[0]
        # beyond the limit R stays R(16) ~ 2.3 and x keeps growing to 2 * limit, so that
        # tanh, whose float32 result reaches 1 only from 10 on, gives erf(±inf) = ±1
        p *= xp.clip(x, -2 * _ERF32_LIMIT, 2 * _ERF32_LIMIT, out=t)
    return xp.tanh(p, out=p)


def erf(x: Any) -> Any:
    """The Gauss error function, elementwise, in x's (floating) dtype. float32 arrays take
    `erf_float32`; other dtypes SciPy's erf (or the Chebyshev fit without SciPy)."""
    xp = array_module(x)
    if x.dtype == np.float32 and x.ndim:
        return erf_float32(x)
    if xp is not np:
        return _device.cupyx_module().scipy.special.erf(x)
    if _scipy_erf is not None:  # SciPy's is ~5x faster; both are accurate to ~1e-15
        out = nd(_scipy_erf(x))
        # SciPy widens float16 (to float32 or float64): round back to x's dtype
        return out.astype(x.dtype) if x.dtype.kind == "f" and out.dtype != x.dtype else out
    return erf_chebyshev(x)


def erf_chebyshev(x: Any) -> Any:
    """erf for NumPy arrays without SciPy: piecewise Chebyshev fits, ~2e-15 relative."""
    x64 = np.asarray(x, dtype=np.float64)
    limit = _ERF_PIECES * _ERF_WIDTH
    ax = np.fmin(np.abs(x64), limit)  # NaN -> limit; the final where() puts NaN back
    idx = np.minimum((ax * (1.0 / _ERF_WIDTH)).astype(np.intp), _ERF_PIECES - 1)
    t = (ax - idx * _ERF_WIDTH) * (2.0 / _ERF_WIDTH) - 1.0
    two_t = 2.0 * t
    b1 = np.zeros_like(t)
    b2 = np.zeros_like(t)
    for k in range(_ERF_DEGREE, 0, -1):  # Clenshaw recurrence, coefficients per piece
        b1, b2 = _ERF_TABLE[k].take(idx) + two_t * b1 - b2, b1
    ratio = _ERF_TABLE[0].take(idx) + t * b1 - b2
    out = np.where(np.abs(x64) >= limit, np.sign(x64), x64 * ratio)
    return out.astype(x.dtype, copy=False) if x.dtype.kind == "f" else out


__all__ = [
    "as_int",
    "as_int_list",
    "array_module",
    "broadcast_shapes",
    "check_index",
    "check_loss_shapes",
    "erf",
    "erf_float32",
    "keepdim_shape",
    "nan_where",
    "nd",
    "normalize_axis",
    "normalize_one_axis",
    "scatter_add",
    "unbroadcast",
]
