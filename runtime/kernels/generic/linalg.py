"""matmul and its gradient, with NumPy's semantics for 1-D and batched operands; and the
higher-order helper ops matmul_xg / matmul_yg (matmul's two gradients as ops) and
matmul_jvp (its directional derivative), which matmul's double-grad composites call.

A 1-D x acts as a row (1, K) and a 1-D y as a column (K, 1), and the added axis is
dropped from the result, so 1-D @ 1-D gives a 0-d array. Batch axes broadcast.
`transpose_x` / `transpose_y` swap the last two axes of an operand first (ignored for
1-D operands, as in Paddle). The gradient works on the promoted 2-D-or-more forms and
`unbroadcast` sums batch broadcasting back.
"""

from __future__ import annotations

import numpy as np

from opgrad.runtime import _accel
from opgrad.runtime.kernels.common import array_module, check_like, nd, same_as_ufunc, unbroadcast
from opgrad.runtime.kernels.registry import register_kernel

_BOTH = (True, True)  # backward.yaml's `needs` when the graph wants both gradients (None)


def _swap(a):
    return a.swapaxes(-1, -2) if a.ndim >= 2 else a


def _check(x, y, transpose_x, transpose_y, op="matmul"):
    tx = " (after transpose_x)" if transpose_x and x.ndim >= 2 else ""
    ty = " (after transpose_y)" if transpose_y and y.ndim >= 2 else ""
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(
            f"{op}: x has shape {x.shape} and y has shape {y.shape}; "
            "expected both to have at least 1 dimension"
        )
    xs = x.shape[-2] if transpose_x and x.ndim >= 2 else x.shape[-1]
    ys = y.shape[-1] if transpose_y and y.ndim >= 2 else y.shape[0 if y.ndim == 1 else -2]
    if xs != ys:
        raise ValueError(
            f"{op}: x has shape {x.shape}{tx} and y has shape {y.shape}{ty}; "
            f"expected x.shape[-1] == y.shape[-2] ({xs} != {ys})"
        )
    try:
        array_module(x, y).broadcast_shapes(x.shape[:-2], y.shape[:-2])
    except ValueError:
        raise ValueError(
            f"{op}: x has shape {x.shape} and y has shape {y.shape}; expected batch dimensions "
            f"that broadcast ({x.shape[:-2]} vs {y.shape[:-2]})"
        ) from None


_NDARRAY = np.ndarray


@register_kernel("matmul")
@same_as_ufunc(np.matmul)  # `x @ y` on exact ndarrays, with both transpose flags False
def matmul(x, y, transpose_x=False, transpose_y=False):
    a = _swap(x) if transpose_x else x
    b = _swap(y) if transpose_y else y
    try:
        r = a @ b
    except ValueError:
        _check(x, y, transpose_x, transpose_y)
        raise
    return r if r.__class__ is _NDARRAY else nd(r)  # nd's check, without the call


@register_kernel("matmul_grad")
def matmul_grad(x, y, out_grad, transpose_x=False, transpose_y=False, needs=None):
    if out_grad.dtype.kind == "c":  # the conjugate convention: conj of the real formula at conj(g)
        x_grad, y_grad = _matmul_grad(x, y, out_grad.conj(), transpose_x, transpose_y, needs)
        return (None if x_grad is None else x_grad.conj()), (None if y_grad is None else y_grad.conj())
    return _matmul_grad(x, y, out_grad, transpose_x, transpose_y, needs)


def _matmul_grad(x, y, out_grad, transpose_x, transpose_y, needs):
    want_x, want_y = needs or _BOTH
    if (
        x.__class__ is _NDARRAY
        and y.__class__ is _NDARRAY
        and out_grad.__class__ is _NDARRAY
        and x.ndim == 2
        and y.ndim == 2
        and not transpose_x
        and not transpose_y
        and (dtype := x.dtype) == y.dtype
        and dtype == out_grad.dtype
    ):  # the common case: what the general path computes, without its reshapes and sums
        return (out_grad @ y.T if want_x else None), (x.T @ out_grad if want_y else None)
    return _matmul_grad_general(x, y, out_grad, transpose_x, transpose_y, want_x, want_y)


_accel.node_kernel("matmul_grad", matmul_grad)  # _matmul_grad's common case in the C node driver


def _matmul_grad_general(x, y, out_grad, transpose_x, transpose_y, want_x=True, want_y=True):
    """matmul_grad for every case: 1-D operands, batch broadcasting, transposes, mixed dtypes."""
    a = _swap(x) if transpose_x else x
    b = _swap(y) if transpose_y else y
    a2 = a[None, :] if a.ndim == 1 else a  # (1, K)
    b2 = b[:, None] if b.ndim == 1 else b  # (K, 1)
    g = out_grad
    if a.ndim == 1 and b.ndim == 1:
        g = g.reshape(1, 1)
    elif a.ndim == 1:
        g = g[..., None, :]
    elif b.ndim == 1:
        g = g[..., None]
    x_grad = y_grad = None
    if want_x:
        a_grad = unbroadcast(g @ b2.swapaxes(-1, -2), a2.shape, x.dtype).reshape(a.shape)
        x_grad = _swap(a_grad) if transpose_x else a_grad
    if want_y:
        b_grad = unbroadcast(a2.swapaxes(-1, -2) @ g, b2.shape, y.dtype).reshape(b.shape)
        y_grad = _swap(b_grad) if transpose_y else b_grad
    return x_grad, y_grad


def _out_shape(x, y, transpose_x, transpose_y, op):
    """matmul(x, y)'s shape, after checking that x and y multiply (raising naming `op`)."""
    _check(x, y, transpose_x, transpose_y, op)
    a = _swap(x).shape if transpose_x else x.shape
    b = _swap(y).shape if transpose_y else y.shape
    batch = array_module(x, y).broadcast_shapes(a[:-2], b[:-2])
    return batch + a[-2:-1] + b[-1:] if len(b) >= 2 else batch + a[-2:-1]


def _check_helper(op, x, y, g, transpose_x, transpose_y):
    """The helper ops get what matmul's gradient is built from: floating x and y of one
    dtype that multiply, and a g of matmul(x, y)'s shape and that dtype."""
    if x.dtype.kind not in "fc":
        raise TypeError(f"{op}: x must be a floating or complex tensor, got dtype {x.dtype}")
    if y.dtype != x.dtype:
        raise TypeError(f"{op}: y has dtype {y.dtype}; expected x's dtype {x.dtype}")
    out = _out_shape(x, y, transpose_x, transpose_y, op)
    if g.shape != out:
        raise ValueError(f"{op}: g has shape {g.shape}; expected matmul(x, y)'s shape {out}")
    if g.dtype != x.dtype:
        raise TypeError(f"{op}: g has dtype {g.dtype}; expected x's dtype {x.dtype}")


@register_kernel("matmul_xg")
def matmul_xg(x, y, g, transpose_x=False, transpose_y=False):
    _check_helper("matmul_xg", x, y, g, transpose_x, transpose_y)
    return matmul_grad(x, y, g, transpose_x, transpose_y, (True, False))[0]  # x's product only


@register_kernel("matmul_yg")
def matmul_yg(x, y, g, transpose_x=False, transpose_y=False):
    _check_helper("matmul_yg", x, y, g, transpose_x, transpose_y)
    return matmul_grad(x, y, g, transpose_x, transpose_y, (False, True))[1]  # y's product only


@register_kernel("matmul_jvp")
def matmul_jvp(x, y, a, b, transpose_x=False, transpose_y=False):
    check_like("matmul_jvp", "x", x, complex_ok=True, a=a)
    check_like("matmul_jvp", "y", y, complex_ok=True, b=b)
    if y.dtype != x.dtype:
        raise TypeError(f"matmul_jvp: y has dtype {y.dtype}; expected x's dtype {x.dtype}")
    _check(x, y, transpose_x, transpose_y, "matmul_jvp")
    return nd(matmul(a, y, transpose_x, transpose_y) + matmul(x, b, transpose_x, transpose_y))
