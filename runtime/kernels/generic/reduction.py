"""Reduction kernels (sum, mean, max, min, prod, logsumexp, var, std, norm, argmax, argmin),
their grads and double grads, and the higher-order helper op reduce_as (sum a broadcast gradient back to
another tensor's shape).

`axis` is an int, a list, or empty/None for every axis (`normalize_axis`); a full reduction
gives a 0-d array. Grad kernels first reshape `out_grad` (and `out`) to the keepdim shape,
so one broadcast against `x` serves both `keepdim` settings; they return fresh, writable
arrays with x's exact shape and dtype.
"""

from __future__ import annotations

import math

import numpy as np

from opgrad.runtime.kernels.common import (
    array_module,
    as_int,
    check_float,
    keepdim_shape,
    nd,
    normalize_axis,
    normalize_one_axis,
    unbroadcast,
)
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel


def _check_nonempty(op, x, axes):
    if x.size == 0 and any(x.shape[a] == 0 for a in axes):
        raise ValueError(
            f"{op}: cannot reduce an empty dimension (x has shape {x.shape}, axis {list(axes)}); "
            "expected every reduced dimension to be non-empty"
        )


def _reduced_shape(shape, axes, keepdim):
    return keepdim_shape(shape, axes) if keepdim else tuple(d for i, d in enumerate(shape) if i not in axes)


def _spread(g, x, axes=None):
    """`g` (reduced, keepdim or not) broadcast back to x's shape, as a fresh array: an
    assignment into a new array casts each value as `broadcast_to(...).astype(x.dtype)`
    did, without broadcast_to's Python-level setup (~1.7 us of a 1,024-value sum_grad).
    `axes` None: g broadcasts against x as it is (the keepdim shape, or 0-d)."""
    if axes is not None:
        g = g.reshape(keepdim_shape(x.shape, axes))
    out = array_module(g).empty(x.shape, dtype=x.dtype)
    out[...] = g
    return out


@register_kernel("sum")
def sum_(x, axis=(), keepdim=False):
    if x.__class__ is np.ndarray and x.ndim and (axis is None or (axis.__class__ is tuple and not axis)):
        # every axis of a NumPy array: the ufunc's reduce over axis=None, which is what
        # np.sum calls with every axis listed, without its Python wrapper or the axes'
        # normalization (~1.5 us of a loss's sum on 1,024 values)
        return nd(np.add.reduce(x, axis=None, keepdims=keepdim))
    axes = normalize_axis(axis, x.ndim, "sum")
    return nd(array_module(x).sum(x, axis=axes, keepdims=keepdim))


@register_kernel("sum_grad")
def sum_grad(x, out_grad, axis=(), keepdim=False):
    if keepdim or axis is None or (axis.__class__ in (list, tuple) and not axis):
        # out_grad broadcasts against x as it is (the keepdim shape, or 0-d for a full
        # reduction): the spread without normalizing the axes (~0.8 us of a loss's backward)
        if out_grad.__class__ is np.ndarray and not out_grad.ndim and out_grad.dtype is x.dtype:
            out = np.empty(x.shape, dtype=x.dtype)
            out.fill(out_grad)  # one value of x's dtype copied into every element (~0.4 us less)
            return out
        return _spread(out_grad, x)
    return _spread(out_grad, x, normalize_axis(axis, x.ndim, "sum"))


@register_kernel("mean")
def mean(x, axis=(), keepdim=False):
    axes = normalize_axis(axis, x.ndim, "mean")
    _check_nonempty("mean", x, axes)
    return nd(array_module(x).mean(x, axis=axes, keepdims=keepdim))


@register_kernel("mean_grad")
def mean_grad(x, out_grad, axis=(), keepdim=False):
    axes = normalize_axis(axis, x.ndim, "mean")
    count = math.prod(x.shape[a] for a in axes)
    return _spread(out_grad / count, x, axes)


def _extremum(op, reduce_name):
    def kernel(x, axis=(), keepdim=False):
        axes = normalize_axis(axis, x.ndim, op)
        _check_nonempty(op, x, axes)
        return nd(getattr(array_module(x), reduce_name)(x, axis=axes, keepdims=keepdim))

    def grad(x, out, out_grad, axis=(), keepdim=False):
        # ties share the gradient equally; a NaN wins (the result is NaN), and NaNs share it
        xp = array_module(x)
        axes = normalize_axis(axis, x.ndim, op)
        shape = keepdim_shape(x.shape, axes)
        o = out.reshape(shape)
        hit = x == o
        if o.dtype.kind == "f" and bool(xp.isnan(o).any()):
            hit |= xp.isnan(x) & xp.isnan(o)
        count = hit.sum(axis=axes, keepdims=True)
        return xp.where(hit, out_grad.reshape(shape) / count.astype(out_grad.dtype), 0).astype(
            x.dtype, copy=False
        )

    kernel.__name__ = kernel.__qualname__ = op
    grad.__name__ = grad.__qualname__ = op + "_grad"
    return register_kernel(op)(kernel), register_kernel(op + "_grad")(grad)


max_, max_grad = _extremum("max", "max")
min_, min_grad = _extremum("min", "min")


def _extremum_double_grad(op):
    def kernel(x, out, x_grad_grad, axis=(), keepdim=False):
        axes = normalize_axis(axis, x.ndim, op)
        shape = keepdim_shape(x.shape, axes)
        hit = x == out.reshape(shape)
        count = hit.sum(axis=axes, keepdims=True).astype(x_grad_grad.dtype)
        g = (x_grad_grad * hit).sum(axis=axes, keepdims=True) / count
        return nd(g.reshape(out.shape).astype(out.dtype, copy=False))

    kernel.__name__ = kernel.__qualname__ = op + "_double_grad"
    return register_kernel(op + "_double_grad")(kernel)


max_double_grad = _extremum_double_grad("max")
min_double_grad = _extremum_double_grad("min")


@register_kernel("prod")
@float32_inside
def prod(x, axis=(), keepdim=False):
    axes = normalize_axis(axis, x.ndim, "prod")
    return nd(array_module(x).prod(x, axis=axes, keepdims=keepdim))


def _reduced_rows(x, axis):
    """How prod's kernels lay x out: (perm, kept_shape, n), where x.transpose(perm) reshaped
    to kept_shape + (n,) holds each reduced slice as one row of n entries."""
    axes = normalize_axis(axis, x.ndim, "prod")
    kept = [i for i in range(x.ndim) if i not in axes]
    return kept + list(axes), tuple(x.shape[i] for i in kept), math.prod(x.shape[a] for a in axes)


@register_kernel("prod_grad")
@float32_inside
def prod_grad(x, out_grad, axis=(), keepdim=False):
    # d prod / d x_i = product of the other entries of its slice: exclusive prefix times
    # exclusive suffix products, exact when the slice holds zeros (no division by x).
    if out_grad.dtype.kind == "c":  # the conjugate convention: conj of the formula at conj(g)
        return _prod_grad(x, out_grad.conj(), axis).conj()
    return _prod_grad(x, out_grad, axis)


def _prod_grad(x, out_grad, axis):
    xp = array_module(x)
    perm, kept_shape, n = _reduced_rows(x, axis)
    if n == 0 or x.size == 0:
        return xp.zeros(x.shape, x.dtype)
    xt = x.transpose(perm)
    flat = xt.reshape(kept_shape + (n,))
    ones = xp.ones(kept_shape + (1,), dtype=flat.dtype)
    left = xp.concatenate([ones, xp.cumprod(flat[..., :-1], axis=-1)], axis=-1)
    right = xp.concatenate([ones, xp.cumprod(flat[..., :0:-1], axis=-1)], axis=-1)[..., ::-1]
    grad = (left * right * out_grad.reshape(kept_shape + (1,))).reshape(xt.shape)
    return grad.transpose(np.argsort(perm)).astype(x.dtype)


@register_kernel("prod_double_grad")
@float32_inside
def prod_double_grad(x, out_grad, x_grad_grad, axis=(), keepdim=False):
    # prod_grad is x_grad_i = g * P_i with P_i = prod_{j != i} x_j. Its derivative in g is
    # sum_i a_i P_i; in x_k it is g * sum_{i != k} a_i M_ik, M_ik = prod_{j != i, k} x_j,
    # computed exactly (zeros allowed) from exclusive prefix/suffix products of rows of x
    # with one entry replaced by 1: O(n^2) per reduced slice.
    if out_grad.dtype.kind == "c":  # the conjugate convention: x's term is conj(formula at conj(g))
        grad_wrt_x, grad_wrt_out_grad = _prod_double_grad(x, out_grad.conj(), x_grad_grad, axis)
        return grad_wrt_x.conj(), grad_wrt_out_grad
    return _prod_double_grad(x, out_grad, x_grad_grad, axis)


def _prod_double_grad(x, out_grad, x_grad_grad, axis):
    xp = array_module(x)
    perm, kept_shape, n = _reduced_rows(x, axis)
    if n == 0 or x.size == 0:
        return xp.zeros(x.shape, x.dtype), xp.zeros(out_grad.shape, out_grad.dtype)
    flat = x.transpose(perm).reshape(kept_shape + (n,))
    a = x_grad_grad.transpose(perm).reshape(kept_shape + (n,))
    eye = xp.eye(n, dtype=bool)
    z = xp.where(eye, 1, flat[..., None, :])  # z[..., k, j] = x_j, or 1 where j == k
    ones = xp.ones(z.shape[:-1] + (1,), dtype=z.dtype)
    left = xp.concatenate([ones, xp.cumprod(z[..., :-1], axis=-1)], axis=-1)
    right = xp.concatenate([ones, xp.cumprod(z[..., :0:-1], axis=-1)], axis=-1)[..., ::-1]
    m = xp.where(eye, 0, left * right)  # m[..., k, i] = prod_{j != i, k} x_j (0 on the diagonal)
    g = out_grad.reshape(kept_shape + (1,))
    grad_wrt_x = g * (m * a[..., None, :]).sum(axis=-1)
    p = (
        xp.concatenate([ones[..., 0, :], xp.cumprod(flat[..., :-1], axis=-1)], axis=-1)
        * xp.concatenate([ones[..., 0, :], xp.cumprod(flat[..., :0:-1], axis=-1)], axis=-1)[..., ::-1]
    )
    grad_wrt_out_grad = (a * p).sum(axis=-1)
    grad_wrt_x = grad_wrt_x.reshape(tuple(x.shape[i] for i in perm)).transpose(np.argsort(perm))
    return grad_wrt_x.astype(x.dtype), nd(grad_wrt_out_grad.reshape(out_grad.shape).astype(out_grad.dtype))


@register_kernel("logsumexp")
@float32_inside
def logsumexp(x, axis=(), keepdim=False):
    xp = array_module(x)
    axes = normalize_axis(axis, x.ndim, "logsumexp")
    if x.size == 0:  # log of an empty sum: -inf (as PyTorch)
        return xp.full(_reduced_shape(x.shape, axes, keepdim), -xp.inf, dtype=x.dtype)
    m = xp.max(x, axis=axes, keepdims=True)
    m = xp.where(xp.isfinite(m), m, 0)
    out = xp.log(xp.sum(xp.exp(x - m), axis=axes, keepdims=True)) + m
    if not keepdim:
        out = out.reshape([d for i, d in enumerate(out.shape) if i not in axes])
    return nd(out)


@register_kernel("logsumexp_grad")
@float32_inside
def logsumexp_grad(x, out, out_grad, axis=(), keepdim=False):
    xp = array_module(x)
    shape = keepdim_shape(x.shape, normalize_axis(axis, x.ndim, "logsumexp"))
    return nd((out_grad.reshape(shape) * xp.exp(x - out.reshape(shape))).astype(x.dtype, copy=False))


@register_kernel("logsumexp_double_grad")
@float32_inside
def logsumexp_double_grad(x, out, out_grad, x_grad_grad, axis=(), keepdim=False):
    xp = array_module(x)
    axes = normalize_axis(axis, x.ndim, "logsumexp")
    shape = keepdim_shape(x.shape, axes)
    p = xp.exp(x - out.reshape(shape))
    g = out_grad.reshape(shape)
    ap = x_grad_grad * p
    grad_wrt_x = g * ap
    out_grad_wrt_out = -(g * ap.sum(axis=axes, keepdims=True))
    grad_wrt_out_grad = ap.sum(axis=axes, keepdims=True)
    return (
        nd(grad_wrt_x.astype(x.dtype, copy=False)),
        nd(out_grad_wrt_out.reshape(out.shape).astype(out.dtype, copy=False)),
        nd(grad_wrt_out_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


# --- var, std, norm ---------------------------------------------------------------------------


def _centered(op, x, axis, unbiased):
    """(axes, x - mean over axes, N - ddof)."""
    if x.dtype.kind != "c":
        check_float(op, "x", x)
    axes = normalize_axis(axis, x.ndim, op)
    if x.size == 0 and any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"{op}: cannot reduce an empty dimension (x has shape {x.shape}, axis {list(axes)})")
    n = math.prod(x.shape[a] for a in axes)
    d = x - x.mean(axis=axes, keepdims=True)
    return axes, d, n - (1 if unbiased else 0)


def _real_dot(d, v):
    """d * v elementwise; for complex tensors Re(conj(d) v), the real inner product's terms
    (the gradient of a real output, var or std, with respect to its real out_grad)."""
    return d * v if d.dtype.kind != "c" else (d.conj() * v).real


def _var(op, x, axis, unbiased, keepdim):
    xp = array_module(x)
    axes, d, denom = _centered(op, x, axis, unbiased)
    s = (d * d if d.dtype.kind != "c" else (d * d.conj()).real).sum(axis=axes, keepdims=keepdim)
    if denom <= 0:
        return xp.full(s.shape, np.nan, dtype=s.dtype)
    return nd(s / denom)


@register_kernel("var")
@float32_inside
def var(x, axis=(), unbiased=True, keepdim=False):
    return _var("var", x, axis, unbiased, keepdim)


@register_kernel("var_grad")
@float32_inside
def var_grad(x, out_grad, axis=(), unbiased=True, keepdim=False):
    xp = array_module(x)
    axes, d, denom = _centered("var", x, axis, unbiased)
    if denom <= 0:
        return xp.full(x.shape, np.nan, dtype=x.dtype)
    g = out_grad.reshape(keepdim_shape(x.shape, axes))
    return nd((d * (g * (2.0 / denom))).astype(x.dtype, copy=False))  # nd: 0-d x gives a scalar


@register_kernel("var_double_grad")
@float32_inside
def var_double_grad(x, out_grad, x_grad_grad, axis=(), unbiased=True, keepdim=False):
    # var_grad = 2 (x - mean x) g / denom is bilinear in (x, g).
    xp = array_module(x)
    axes, d, denom = _centered("var", x, axis, unbiased)
    shape = keepdim_shape(x.shape, axes)
    if denom <= 0:
        return xp.full(x.shape, xp.nan, dtype=x.dtype), xp.full(out_grad.shape, xp.nan, dtype=out_grad.dtype)
    a = x_grad_grad - x_grad_grad.mean(axis=axes, keepdims=True)
    grad_wrt_x = a * out_grad.reshape(shape) * (2.0 / denom)
    grad_wrt_out_grad = _real_dot(d, x_grad_grad).sum(axis=axes, keepdims=True) * (2.0 / denom)
    return (
        grad_wrt_x.astype(x.dtype, copy=False),
        nd(grad_wrt_out_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


@register_kernel("std")
@float32_inside
def std(x, axis=(), unbiased=True, keepdim=False):
    return nd(array_module(x).sqrt(_var("std", x, axis, unbiased, keepdim)))


@register_kernel("std_grad")
@float32_inside
def std_grad(x, out, out_grad, axis=(), unbiased=True, keepdim=False):
    xp = array_module(x)
    axes, d, denom = _centered("std", x, axis, unbiased)
    if denom <= 0:
        return xp.full(x.shape, np.nan, dtype=x.dtype)
    shape = keepdim_shape(x.shape, axes)
    o = out.reshape(shape)
    g = xp.where(o == 0, 0, out_grad.reshape(shape) / (denom * xp.where(o == 0, 1, o)))
    return nd((d * g).astype(x.dtype, copy=False))  # nd: 0-d x gives a scalar


@register_kernel("std_double_grad")
@float32_inside
def std_double_grad(x, out, out_grad, x_grad_grad, axis=(), unbiased=True, keepdim=False):
    # std_grad = d g / (denom o), d = x - mean x, o = std(x); o's dependence on x is folded in.
    xp = array_module(x)
    axes, d, denom = _centered("std", x, axis, unbiased)
    shape = keepdim_shape(x.shape, axes)
    if denom <= 0:
        return xp.full(x.shape, xp.nan, dtype=x.dtype), xp.full(out_grad.shape, xp.nan, dtype=out_grad.dtype)
    o = out.reshape(shape)
    zero = o == 0
    inv = xp.where(zero, 0, 1 / (denom * xp.where(zero, 1, o)))  # 1 / (denom o), 0 where o == 0
    g = out_grad.reshape(shape)
    a = x_grad_grad - x_grad_grad.mean(axis=axes, keepdims=True)
    s = _real_dot(d, x_grad_grad).sum(axis=axes, keepdims=True)  # sum of d * a
    grad_wrt_x = g * inv * (a - d * s * inv * xp.where(zero, 0, 1 / xp.where(zero, 1, o)))
    grad_wrt_out_grad = s * inv
    return (
        grad_wrt_x.astype(x.dtype, copy=False),
        nd(grad_wrt_out_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


def _check_p(p):
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise TypeError(f"norm: p must be a number (1, 2, inf or any p > 0), got {type(p).__name__} {p!r}")
    p = float(p)
    if not (p > 0):  # noqa: SIM201 - also rejects NaN
        raise ValueError(f"norm: p must be > 0 or inf, got {p!r}")
    return p


@register_kernel("norm")
@float32_inside
def norm(x, p=2.0, axis=(), keepdim=False):
    xp = array_module(x)
    check_float("norm", "x", x)
    p = _check_p(p)
    axes = normalize_axis(axis, x.ndim, "norm")
    ax = xp.abs(x)
    if p == math.inf:
        if x.size == 0:
            raise ValueError(f"norm: x is empty (shape {x.shape}); the inf-norm needs at least one element")
        return nd(ax.max(axis=axes, keepdims=keepdim))
    if p == 1:
        return nd(ax.sum(axis=axes, keepdims=keepdim))
    if p == 2:
        return nd(xp.sqrt((x * x).sum(axis=axes, keepdims=keepdim)))
    return nd((ax**p).sum(axis=axes, keepdims=keepdim) ** (1.0 / p))


@register_kernel("norm_grad")
@float32_inside
def norm_grad(x, out, out_grad, p=2.0, axis=(), keepdim=False):
    xp = array_module(x)
    p = float(p)
    shape = keepdim_shape(x.shape, normalize_axis(axis, x.ndim, "norm"))
    o = out.reshape(shape)
    g = out_grad.reshape(shape)
    if p == math.inf:  # ties share the gradient equally
        hit = xp.abs(x) == o
        count = hit.sum(axis=normalize_axis(axis, x.ndim, "norm"), keepdims=True)
        grad = xp.where(hit, xp.sign(x) * (g / count.astype(x.dtype)), 0)
    elif p == 1:
        grad = xp.sign(x) * g
    else:
        safe = xp.where(o == 0, 1, o)
        if p == 2:
            grad = x * xp.where(o == 0, 0, g / safe)
        else:
            grad = xp.sign(x) * xp.abs(x) ** (p - 1) * xp.where(o == 0, 0, g * safe ** (1 - p))
    return nd(grad.astype(x.dtype, copy=False))


@register_kernel("norm_double_grad")
@float32_inside
def norm_double_grad(x, out, out_grad, x_grad_grad, p=2.0, axis=(), keepdim=False):
    # With u = dN/dx (the gradient for out_grad 1): grad_wrt_out_grad = sum(ddx u); for finite p,
    # grad_wrt_x = g [(p - 1) |x|^(p-2) N^(1-p) ddx + (1 - p) / N u sum(ddx u)]. The 1- and inf-norm
    # gradients are piecewise constant in x.
    xp = array_module(x)
    p = float(p)
    axes = normalize_axis(axis, x.ndim, "norm")
    shape = keepdim_shape(x.shape, axes)
    o = out.reshape(shape)
    g = out_grad.reshape(shape)
    if p == math.inf:
        hit = xp.abs(x) == o
        count = hit.sum(axis=axes, keepdims=True).astype(x.dtype)
        u = xp.where(hit, xp.sign(x) / count, 0)
    else:
        safe = xp.where(o == 0, 1, o)
        u = xp.where(o == 0, 0, xp.sign(x) * xp.abs(x) ** (p - 1) * safe ** (1 - p))
    dot = (x_grad_grad * u).sum(axis=axes, keepdims=True)
    if p in (1.0, math.inf):
        grad_wrt_x = xp.zeros(x.shape, dtype=x.dtype)
    else:
        safe = xp.where(o == 0, 1, o)
        ax = xp.abs(x)
        curv = 1.0 if p == 2 else xp.where(ax == 0, 0, ax ** (p - 2))  # |x|^(p-2), 0 at x = 0
        first = (p - 1) * curv * safe ** (1 - p) * x_grad_grad
        grad_wrt_x = xp.where(o == 0, 0, g * (first + (1 - p) / safe * u * dot))
    return (
        grad_wrt_x.astype(x.dtype, copy=False),
        nd(dot.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


def _arg_extremum(op, reduce_name):
    def kernel(x, axis=None, keepdim=False):
        xp = array_module(x)
        if x.size == 0:
            raise ValueError(f"{op}: x is empty (shape {x.shape}); expected at least one element")
        fn = getattr(xp, reduce_name)
        if axis is None or x.ndim == 0:
            if axis is not None and as_int(axis, op, "axis") not in (0, -1):
                raise ValueError(
                    f"{op}: axis {axis} is out of range for a 0-d tensor; expected 0, -1 or None"
                )
            out = xp.asarray(fn(x), dtype=np.int64)
            return out.reshape((1,) * x.ndim) if keepdim else out
        a = normalize_one_axis(axis, x.ndim, op)
        return nd(fn(x, axis=a, keepdims=keepdim).astype(np.int64, copy=False))

    kernel.__name__ = kernel.__qualname__ = op
    return register_kernel(op)(kernel)


argmax = _arg_extremum("argmax", "argmax")
argmin = _arg_extremum("argmin", "argmin")


@register_kernel("reduce_as")
def reduce_as(x, target):
    try:
        out = unbroadcast(x, target.shape, target.dtype)
        # not a view op: a result that is x (or a view of it) must be copied
        return out.copy() if array_module(x).may_share_memory(out, x) else out
    except ValueError:
        raise ValueError(
            f"reduce_as: x has shape {x.shape} and target has shape {target.shape}; "
            "expected target's shape to broadcast to x's"
        ) from None


@register_kernel("reduce_as_grad")
def reduce_as_grad(x, out_grad):
    xp = array_module(out_grad)
    lead = len(x.shape) - out_grad.ndim
    g = out_grad.reshape((1,) * lead + out_grad.shape)
    return xp.broadcast_to(g, x.shape).astype(x.dtype)
