"""Linear-algebra kernels beyond matmul (issue 15): matrix_transpose, trace, outer,
diagonal (and its gradient, a scatter onto the diagonal), diag_embed, cross, inv, det,
slogdet, solve and cholesky.

Matrix ops work on the last two axes and are batched over every leading axis. Their
gradients are composites in backward.yaml over these ops (so every order is free); only
diagonal's gradient is a kernel, whose own gradient is diagonal again. A singular or
non-positive-definite input raises a ValueError naming the op and the batch element rather
than returning inf or NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opgrad.runtime.kernels.common import array_module, as_int, check_float, nd, normalize_one_axis
from opgrad.runtime.kernels.registry import register_kernel


def _check_matrix(op: str, arg: str, a: Any, square: bool = True, complex_ok: bool = False) -> None:
    """`a` must be floating (or complex, if `complex_ok`) with at least 2 axes (square in the
    last two if `square`)."""
    if not (complex_ok and a.dtype.kind == "c"):
        check_float(op, arg, a)
    if a.ndim < 2:
        raise ValueError(f"{op}: {arg} has shape {a.shape}; expected at least 2 dimensions (..., n, n)")
    if square and a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{op}: {arg} has shape {a.shape}; expected square matrices in the last two axes")


def _first_bad(op: str, arg: str, a: Any, what: str, fn: Any) -> ValueError:
    """The ValueError for the first batch element of `a` on which `fn` fails, by its index."""
    batch = a.shape[:-2]
    for idx in np.ndindex(*batch):
        try:
            fn(a[idx])
        except np.linalg.LinAlgError:
            where = f"{arg}[{', '.join(map(str, idx))}]" if batch else arg
            return ValueError(f"{op}: {where} is {what}")
    return ValueError(f"{op}: {arg} is {what}")


def _wide(a: Any) -> Any:
    """LAPACK has no float16: such input is computed in float32 (and cast back by `_back`)."""
    return a.astype("float32") if a.dtype == np.float16 else a


def _back(r: Any, like: Any) -> Any:
    return nd(r.astype(like.dtype) if r.dtype != like.dtype else r)


@register_kernel("matrix_transpose")
def matrix_transpose(x):
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: x has shape {x.shape}; expected at least 2 dimensions")
    return x.swapaxes(-1, -2).copy()


@register_kernel("trace")
def trace(x):
    _check_matrix("trace", "x", x, square=False, complex_ok=True)
    return nd(array_module(x).trace(x, axis1=-2, axis2=-1))


@register_kernel("outer")
def outer(x, y):
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"outer: x has shape {x.shape} and y has shape {y.shape}; expected 1-D tensors")
    return nd(array_module(x, y).multiply.outer(x, y))


def _diag_axes(op: str, ndim: int, axis1: Any, axis2: Any, names: tuple[str, str]) -> tuple[int, int]:
    a1 = normalize_one_axis(axis1, ndim, op, names[0])
    a2 = normalize_one_axis(axis2, ndim, op, names[1])
    if a1 == a2:
        raise ValueError(
            f"{op}: {names[0]} and {names[1]} are the same axis ({a1}); expected two different axes"
        )
    return a1, a2


def _diag_index(xp: Any, k: int, offset: int) -> tuple[Any, Any]:
    """Row and column indices of the k entries of the offset diagonal."""
    i = xp.arange(k)
    return (i, i + offset) if offset >= 0 else (i - offset, i)


@register_kernel("diagonal")
def diagonal(x, offset=0, axis1=0, axis2=1):
    if x.ndim < 2:
        raise ValueError(f"diagonal: x has shape {x.shape}; expected at least 2 dimensions")
    a1, a2 = _diag_axes("diagonal", x.ndim, axis1, axis2, ("axis1", "axis2"))
    return array_module(x).diagonal(x, as_int(offset, "diagonal", "offset"), a1, a2).copy()


@register_kernel("diagonal_grad")
def diagonal_grad(x, out_grad, offset=0, axis1=0, axis2=1):
    xp = array_module(x, out_grad)
    a1, a2 = _diag_axes("diagonal_grad", x.ndim, axis1, axis2, ("axis1", "axis2"))
    z = xp.zeros(x.shape, dtype=out_grad.dtype)
    rows, cols = _diag_index(xp, out_grad.shape[-1], offset)
    xp.moveaxis(z, (a1, a2), (-2, -1))[..., rows, cols] = out_grad
    return z


@register_kernel("diag_embed")
def diag_embed(x, offset=0, dim1=-2, dim2=-1):
    if x.ndim < 1:
        raise ValueError("diag_embed: x is 0-d; expected at least 1 dimension")
    xp = array_module(x)
    offset = as_int(offset, "diag_embed", "offset")
    d1, d2 = _diag_axes("diag_embed", x.ndim + 1, dim1, dim2, ("dim1", "dim2"))
    n = x.shape[-1] + abs(offset)
    z = xp.zeros((*x.shape[:-1], n, n), dtype=x.dtype)
    rows, cols = _diag_index(xp, x.shape[-1], offset)
    z[..., rows, cols] = x
    # rows go to output axis dim1 and columns to dim2 (either order)
    return xp.moveaxis(z, (-2, -1), (d1, d2)).copy()


@register_kernel("cross")
def cross(x, y, axis=-1):
    xp = array_module(x, y)
    try:
        xb, yb = xp.broadcast_arrays(x, y)
    except ValueError:
        raise ValueError(
            f"cross: x has shape {x.shape} and y has shape {y.shape}; expected shapes that broadcast"
        ) from None
    a = normalize_one_axis(axis, xb.ndim, "cross")
    if xb.shape[a] != 3:
        raise ValueError(
            f"cross: axis {axis} has size {xb.shape[a]} (shapes {x.shape}, {y.shape}); expected size 3"
        )
    return nd(xp.cross(xb, yb, axis=a))


@register_kernel("inv")
def inv(x):
    _check_matrix("inv", "x", x)
    xp = array_module(x)
    try:
        return _back(xp.linalg.inv(_wide(x)), x)
    except np.linalg.LinAlgError:
        raise _first_bad("inv", "x", x, "singular; expected invertible matrices", xp.linalg.inv) from None


@register_kernel("det")
def det(x):
    _check_matrix("det", "x", x)
    return _back(array_module(x).linalg.det(_wide(x)), x)


@register_kernel("slogdet")
def slogdet(x):
    _check_matrix("slogdet", "x", x)
    sign, logabsdet = array_module(x).linalg.slogdet(_wide(x))
    return _back(sign, x), _back(logabsdet, x)


def _system(op: str, a: Any, b: Any, names: tuple[str, str] = ("a", "b")) -> tuple[Any, Any]:
    """Check square matrices `a` and right-hand sides `b` (..., n, k); both broadcast to the
    common batch shape."""
    na, nb = names
    _check_matrix(op, na, a)
    check_float(op, nb, b)
    xp = array_module(a, b)
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError(
            f"{op}: {na} has shape {a.shape} and {nb} has shape {b.shape}; "
            f"expected {nb} of shape (..., {a.shape[-1]}, k) "
            "(unsqueeze a vector right-hand side to (..., n, 1))"
        )
    try:
        batch = xp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            f"{op}: {na} has shape {a.shape} and {nb} has shape {b.shape}; "
            "expected batch dimensions that broadcast"
        ) from None
    return xp.broadcast_to(a, batch + a.shape[-2:]), xp.broadcast_to(b, batch + b.shape[-2:])


def _solve(op: str, a: Any, b: Any, arg: str = "a") -> Any:
    """solve(a, b) on already broadcast operands; a singular a raises naming the element."""
    xp = array_module(a, b)
    try:
        return _back(xp.linalg.solve(_wide(a), _wide(b)), a)
    except np.linalg.LinAlgError:
        if not bool(xp.isfinite(a).all()):  # an inf or NaN entry, not a singular matrix: NaN out
            eye = xp.broadcast_to(xp.eye(a.shape[-1], dtype=_wide(a).dtype), a.shape)
            out = xp.linalg.solve(eye, _wide(b))  # the result's shape and dtype
            out[...] = xp.nan
            return _back(out, a)
        raise _first_bad(op, arg, a, "singular; expected invertible matrices", xp.linalg.inv) from None


@register_kernel("solve")
def solve(a, b):
    a, b = _system("solve", a, b)
    return _solve("solve", a, b)


def _triangle(xp: Any, a: Any, upper: bool, unit: bool) -> Any:
    """The triangle of `a` a triangular solve reads (unit diagonal if `unit`)."""
    t = xp.triu(a, 1 if unit else 0) if upper else xp.tril(a, -1 if unit else 0)
    return t + xp.eye(a.shape[-1], dtype=a.dtype) if unit else t


@register_kernel("triangular_solve")
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False):
    x, y = _system("triangular_solve", x, y, ("x", "y"))
    t = _triangle(array_module(x, y), x, upper, unitriangular)
    return _solve("triangular_solve", t.swapaxes(-1, -2) if transpose else t, y, "x")


@register_kernel("cholesky_solve")
def cholesky_solve(x, y, upper=False):
    y, x = _system("cholesky_solve", y, x, ("y", "x"))
    t = _triangle(array_module(x, y), y, upper, False)
    first, second = (t.swapaxes(-1, -2), t) if upper else (t, t.swapaxes(-1, -2))
    return _solve("cholesky_solve", second, _solve("cholesky_solve", first, x, "y"), "y")


@register_kernel("cholesky")
def cholesky(x, upper=False):
    _check_matrix("cholesky", "x", x)
    xp = array_module(x)
    s = (x + x.swapaxes(-1, -2)) * 0.5
    try:
        low = _back(xp.linalg.cholesky(_wide(s)), x)
    except np.linalg.LinAlgError:
        raise _first_bad("cholesky", "x", s, "not positive definite", xp.linalg.cholesky) from None
    return low.swapaxes(-1, -2).copy() if upper else low


@register_kernel("matrix_power")
def matrix_power(x, n):
    _check_matrix("matrix_power", "x", x)
    n = as_int(n, "matrix_power", "n")
    xp = array_module(x)
    try:
        r = _back(xp.linalg.matrix_power(_wide(x), n), x)
    except np.linalg.LinAlgError:
        raise _first_bad(
            "matrix_power", "x", x, "singular; a negative n needs invertible matrices", xp.linalg.inv
        ) from None
    return r.copy() if r is x else r  # n == 1: NumPy returns x itself, which the output must not share


# Up to this n the gradient's sum runs term by term (n powers kept, ~3n products of the
# matrix's size); beyond it, the block matrix's power (2 log2(n) products of twice the size):
# the sum's memory and time grow with n itself, so matrix_power(x, 10**6) would keep a
# million matrices.
_POWER_SUM_MAX = 32


def _power_grad(xp: Any, a: Any, g: Any, n: int) -> Any:
    """sum_k (a^T)^k g (a^T)^(n-1-k) for n >= 1: term by term for small n, else the top
    right block of [[a^T, g], [0, a^T]]^n (backward.yaml's composite does the same)."""
    at = a.swapaxes(-1, -2)
    if n > _POWER_SUM_MAX:
        m = a.shape[-1]
        block = xp.zeros((*a.shape[:-2], 2 * m, 2 * m), dtype=xp.result_type(a, g))
        block[..., :m, :m] = at
        block[..., :m, m:] = g
        block[..., m:, m:] = at
        return xp.linalg.matrix_power(block, n)[..., :m, m:]
    powers = [xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype), a.shape), at]
    for _ in range(2, n):
        powers.append(powers[-1] @ at)
    return sum(powers[k] @ g @ powers[n - 1 - k] for k in range(n))


@register_kernel("matrix_power_grad")
def matrix_power_grad(x, out_grad, n):
    """The first-order gradient on raw arrays (the composite's 2n x 2n power costs ~30 times
    more); for n < 0 the chain rule through inv."""
    xp = array_module(x, out_grad)
    if n == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    a, g = _wide(x), _wide(out_grad)
    if n > 0:
        return _back(_power_grad(xp, a, g, n), x)
    b = xp.linalg.inv(a)
    bt = b.swapaxes(-1, -2)
    return _back(-(bt @ _power_grad(xp, b, g, -n) @ bt), x)


def _kron_shapes(x: Any, y: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """x's and y's shapes padded with leading 1s to the same length (as kron aligns them)."""
    d = max(x.ndim, y.ndim)
    return (1,) * (d - x.ndim) + x.shape, (1,) * (d - y.ndim) + y.shape


@register_kernel("kron")
def kron(x, y):
    return nd(array_module(x, y).kron(x, y))


@register_kernel("kron_grad")
def kron_grad(x, y, out_grad):
    xs, ys = _kron_shapes(x, y)
    d = len(xs)
    # out[(i0, j0), (i1, j1), ...] = x[i0, i1, ...] * y[j0, j1, ...]: interleave the axes
    g = out_grad.reshape(tuple(v for pair in zip(xs, ys, strict=True) for v in pair))
    inter_x = tuple(v for s in xs for v in (s, 1))
    inter_y = tuple(v for s in ys for v in (1, s))
    x_grad = (g * y.reshape(inter_y)).sum(axis=tuple(range(1, 2 * d, 2))).reshape(x.shape)
    y_grad = (g * x.reshape(inter_x)).sum(axis=tuple(range(0, 2 * d, 2))).reshape(y.shape)
    return x_grad.astype(out_grad.dtype, copy=False), y_grad.astype(out_grad.dtype, copy=False)


@register_kernel("bmm")
def bmm(x, y):
    if x.ndim != 3 or y.ndim != 3 or x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
        raise ValueError(
            f"bmm: x has shape {x.shape} and y has shape {y.shape}; expected (b, n, m) and (b, m, p)"
        )
    return nd(x @ y)
