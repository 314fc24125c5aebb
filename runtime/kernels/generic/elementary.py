"""Kernels of the elementary functions added for issue 15 beyond elementwise.py: inverse
trigonometric and hyperbolic functions, base-2/10 logs and exp2, degree conversions,
rounding (floor, ceil, round, trunc, frac), logit, the binary atan2/logaddexp/logaddexp2 and
the blends lerp/addcmul/addcdiv, nansum and count_nonzero, the scans logcumsumexp and
cummax/cummin, pixel_shuffle/pixel_unshuffle, and the gradient-free searches and counts
(searchsorted, bucketize, histc, bincount, nonzero, argwhere).

Gradients are composites in backward.yaml (every order for free); only logcumsumexp has a
first-order grad kernel, for its sign-split stable form. Integer inputs to the rounding ops
come back unchanged (a copy), as PyTorch does.
"""

from __future__ import annotations

import numpy as np

from opgrad.runtime.kernels.common import (
    array_module,
    broadcast_shapes,
    nd,
    normalize_axis,
    normalize_one_axis,
    ufunc,
)
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel

for _name, _fn in (
    ("tan", "tan"),
    ("asin", "arcsin"),
    ("acos", "arccos"),
    ("atan", "arctan"),
    ("sinh", "sinh"),
    ("cosh", "cosh"),
    ("asinh", "arcsinh"),
    ("acosh", "arccosh"),
    ("atanh", "arctanh"),
    ("log2", "log2"),
    ("log10", "log10"),
    ("exp2", "exp2"),
    ("deg2rad", "deg2rad"),
    ("rad2deg", "rad2deg"),
):
    register_kernel(_name)(ufunc(_fn))


def _rounding(name: str):
    def kernel(x):
        if x.dtype.kind in "iub":
            return x.copy()  # already whole: unchanged, as PyTorch
        return nd(getattr(array_module(x), name)(x))

    kernel.__name__ = kernel.__qualname__ = name
    return kernel


for _name in ("floor", "ceil", "trunc"):
    register_kernel(_name)(_rounding(_name))


@register_kernel("round")
def round_(x, decimals=0):
    if x.dtype.kind in "iub" and decimals >= 0:
        return x.copy()
    return nd(array_module(x).round(x, decimals))  # half to even, as PyTorch


@register_kernel("frac")
def frac(x):
    return nd(x - array_module(x).trunc(x))


@register_kernel("logit")
def logit(x):
    xp = array_module(x)
    return nd(xp.log(x) - xp.log1p(-x))


@register_kernel("atan2")
def atan2(x, y):
    return nd(array_module(x).arctan2(x, y))


@register_kernel("logaddexp")
def logaddexp(x, y):
    return nd(array_module(x).logaddexp(x, y))


@register_kernel("logaddexp2")
def logaddexp2(x, y):
    return nd(array_module(x).logaddexp2(x, y))


@register_kernel("lerp")
def lerp(x, end, weight):
    return nd(x + weight * (end - x))


@register_kernel("addcmul")
def addcmul(x, tensor1, tensor2, value=1):
    return nd(x + value * (tensor1 * tensor2))


@register_kernel("addcdiv")
def addcdiv(x, tensor1, tensor2, value=1):
    return nd(x + value * (tensor1 / tensor2))


@register_kernel("nansum")
def nansum(x, axis=(), keepdim=False):
    axes = normalize_axis(axis, x.ndim, "nansum")
    return nd(array_module(x).nansum(x, axis=axes, keepdims=keepdim))


@register_kernel("count_nonzero")
def count_nonzero(x, axis=()):
    axes = normalize_axis(axis, x.ndim, "count_nonzero")
    return nd(array_module(x).count_nonzero(x, axis=axes).astype(np.int64))


# --- scans ------------------------------------------------------------------------------------


def _scan_axis(op, x, axis):
    if x.ndim == 0:  # one entry along axis 0 (or -1), as PyTorch; any other axis is refused
        if axis is not None and axis not in (0, -1):
            raise ValueError(f"{op}: axis {axis} is out of range for a 0-d tensor; expected 0 or -1")
        return x.reshape(1), 0
    return x, normalize_one_axis(axis, x.ndim, op)


@register_kernel("logcumsumexp")
@float32_inside
def logcumsumexp(x, axis):
    xp = array_module(x)
    a, ax = _scan_axis("logcumsumexp", x, axis)
    return nd(xp.logaddexp.accumulate(a, axis=ax).reshape(x.shape))


def _rev_lcse(xp, v, ax):
    return xp.flip(xp.logaddexp.accumulate(xp.flip(v, ax), axis=ax), ax)


@register_kernel("logcumsumexp_grad")
@float32_inside
def logcumsumexp_grad(x, out, out_grad, axis):
    """x_grad[j] = sum over i >= j of g[i] exp(x[j] - out[i]), with the positive and negative
    parts of g summed in log space (a reversed logcumsumexp each), so nothing overflows. out
    is recomputed from x at the working precision (float32 for float16 data, whose rounded out
    would cost the gradient up to its own relative error times |x|)."""
    xp = array_module(x)
    shape = x.shape
    a, ax = _scan_axis("logcumsumexp", x, axis)
    o, g = xp.logaddexp.accumulate(a, axis=ax), out_grad.reshape(a.shape)
    with np.errstate(divide="ignore"):
        pos = _rev_lcse(xp, xp.log(xp.maximum(g, 0)) - o, ax)
        neg = _rev_lcse(xp, xp.log(xp.maximum(-g, 0)) - o, ax)
    return nd((xp.exp(a + pos) - xp.exp(a + neg)).reshape(shape))


def _cum_extreme(op, better, x, axis):
    xp = array_module(x)
    a, ax = _scan_axis(op, x, axis)
    values = better.accumulate(a, axis=ax) if a.shape[ax] else a.copy()
    # the index of the latest position holding the running extreme (PyTorch's choice on ties)
    shape = [1] * a.ndim
    shape[ax] = a.shape[ax]
    idx = xp.arange(a.shape[ax]).reshape(shape)
    hit = xp.where(a == values, idx, 0)
    if a.dtype.kind == "f":  # a NaN propagates: its position stays the index from there on
        hit = xp.where(xp.isnan(values), xp.where(xp.isnan(a), idx, 0), hit)
    indices = np.maximum.accumulate(hit, axis=ax) if a.shape[ax] else hit
    return values.reshape(x.shape), indices.astype(np.int64).reshape(x.shape)


@register_kernel("cummax")
def cummax(x, axis):
    return _cum_extreme("cummax", np.maximum, x, axis)


@register_kernel("cummin")
def cummin(x, axis):
    return _cum_extreme("cummin", np.minimum, x, axis)


# --- pixel shuffle ----------------------------------------------------------------------------


def _factor(op, arg, r):
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or r < 1:
        raise ValueError(f"{op}: {arg} must be a positive int, got {r!r}")
    return int(r)


def _own(x, y):
    """y, copied when the reshapes left it a view of x (r == 1, or a size-1 axis): these ops
    are not views, so their results never share x's memory."""
    return y.copy() if array_module(x).may_share_memory(x, y) else y


@register_kernel("pixel_shuffle")
def pixel_shuffle(x, upscale_factor):
    r = _factor("pixel_shuffle", "upscale_factor", upscale_factor)
    if x.ndim < 3 or x.shape[-3] % (r * r):
        raise ValueError(
            f"pixel_shuffle: x must have shape (..., C * {r * r}, H, W) (channels divisible by "
            f"upscale_factor ** 2 = {r * r}), got {x.shape}"
        )
    *lead, c, h, w = x.shape
    n = len(lead)
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    y = y.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return _own(x, y.reshape(*lead, c // (r * r), h * r, w * r))


@register_kernel("pixel_unshuffle")
def pixel_unshuffle(x, downscale_factor):
    r = _factor("pixel_unshuffle", "downscale_factor", downscale_factor)
    if x.ndim < 3 or x.shape[-2] % r or x.shape[-1] % r:
        raise ValueError(
            f"pixel_unshuffle: x must have shape (..., C, H, W) with H and W divisible by "
            f"downscale_factor = {r}, got {x.shape}"
        )
    *lead, c, h, w = x.shape
    n = len(lead)
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    y = y.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return _own(x, y.reshape(*lead, c * r * r, h // r, w // r))


# --- searches and counts (no gradient) ---------------------------------------------------------


def _side(op, right, side):
    if side is None:
        return "right" if right else "left"
    if side not in ("left", "right"):
        raise ValueError(f"{op}: side must be 'left' or 'right', got {side!r}")
    if right and side == "left":
        raise ValueError(f"{op}: right=True and side='left' contradict each other")
    return side


@register_kernel("searchsorted")
def searchsorted(sorted_sequence, values, sorter=None, right=False, side=None):
    xp = array_module(sorted_sequence)
    s = _side("searchsorted", right, side)
    seq = sorted_sequence
    if sorter is not None:
        if sorter.shape != seq.shape or sorter.dtype.kind not in "iu":
            raise ValueError(
                f"searchsorted: sorter must be an integer tensor of sorted_sequence's shape {seq.shape}, "
                f"got {sorter.dtype} {sorter.shape}"
            )
        seq = xp.take_along_axis(seq, sorter, axis=-1)
    if seq.ndim == 0:
        raise ValueError("searchsorted: sorted_sequence must have at least one dimension")
    if seq.ndim == 1:  # nd: 0-d values give a 0-d array, not a NumPy scalar
        return nd(xp.asarray(xp.searchsorted(seq, values, side=s), dtype=np.int64))
    if values.ndim != seq.ndim or values.shape[:-1] != seq.shape[:-1]:
        raise ValueError(
            f"searchsorted: an N-D sorted_sequence {seq.shape} needs values with the same leading "
            f"dimensions {seq.shape[:-1]}, got {values.shape}"
        )
    rows = seq.reshape(-1, seq.shape[-1])
    vals = values.reshape(-1, values.shape[-1])
    out = xp.empty(vals.shape, dtype=np.int64)
    for k in range(rows.shape[0]):
        out[k] = xp.searchsorted(rows[k], vals[k], side=s)
    return out.reshape(values.shape)


@register_kernel("bucketize")
def bucketize(x, boundaries, right=False):
    if boundaries.ndim != 1:
        raise ValueError(f"bucketize: boundaries must be 1-D, got shape {boundaries.shape}")
    return nd(array_module(x).searchsorted(boundaries, x, side="right" if right else "left").astype(np.int64))


@register_kernel("histc")
def histc(x, bins=100, min=0, max=0):  # noqa: A002 - PyTorch's names
    xp = array_module(x)
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"histc: bins must be a positive int, got {bins!r}")
    if x.dtype.kind != "f":
        raise TypeError(f"histc: x must be a floating tensor, got dtype {x.dtype}")
    lo, hi = float(min), float(max)
    if lo == hi and x.size:  # PyTorch: the data's range
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise ValueError(f"histc: max ({max}) must not be less than min ({min})")
    counts, _ = xp.histogram(x.ravel(), bins=int(bins), range=(lo, hi))
    return counts.astype(x.dtype)


@register_kernel("bincount")
def bincount(x, weights=None, minlength=0):
    xp = array_module(x)
    if x.ndim != 1 or x.dtype.kind not in "iu":
        raise ValueError(f"bincount: x must be a 1-D integer tensor, got {x.dtype} of shape {x.shape}")
    if x.size and int(x.min()) < 0:
        raise ValueError(f"bincount: x must be non-negative, got a minimum of {int(x.min())}")
    if weights is not None and weights.shape != x.shape:
        raise ValueError(f"bincount: weights must have x's shape {x.shape}, got {weights.shape}")
    if isinstance(minlength, bool) or not isinstance(minlength, (int, np.integer)) or minlength < 0:
        raise ValueError(f"bincount: minlength must be a non-negative int, got {minlength!r}")
    out = xp.bincount(x, weights=weights, minlength=int(minlength))
    if weights is None:
        return out.astype(np.int64)
    return out.astype(weights.dtype if weights.dtype.kind == "f" else np.float64)


@register_kernel("nonzero")
def nonzero(x):
    xp = array_module(x)
    if x.ndim == 0:
        return xp.zeros((1 if x else 0, 0), dtype=np.int64)
    return xp.stack(xp.nonzero(x), axis=1).astype(np.int64)


register_kernel("argwhere")(nonzero)


# --- more binary ops, replacements and tests ----------------------------------------------------


@register_kernel("xlogy")
def xlogy(x, y):
    xp = array_module(x, y)
    broadcast_shapes("xlogy", x.shape, y.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = x * xp.log(y)
    return nd(xp.where((x == 0) & ~xp.isnan(y), xp.zeros((), r.dtype), r))


@register_kernel("fmod")
def fmod(x, y):
    broadcast_shapes("fmod", x.shape, y.shape)
    return nd(array_module(x, y).fmod(x, y))


@register_kernel("copysign")
def copysign(x, y):
    broadcast_shapes("copysign", x.shape, y.shape)
    return nd(array_module(x, y).copysign(x, y))


@register_kernel("nan_to_num")
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    if x.dtype.kind != "f":
        return x.copy()
    return nd(array_module(x).nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf))


@register_kernel("heaviside")
def heaviside(x, values):
    broadcast_shapes("heaviside", x.shape, values.shape)
    if x.dtype.kind == "b":
        raise TypeError("heaviside: x must be a numeric tensor, got dtype bool")
    return nd(array_module(x, values).heaviside(x, values).astype(np.result_type(x, values), copy=False))


@register_kernel("logical_xor")
def logical_xor(x, y):
    broadcast_shapes("logical_xor", x.shape, y.shape)
    return nd(array_module(x, y).logical_xor(x, y))


def _float_or_false(op, fn, x):
    xp = array_module(x)
    if x.dtype.kind != "f":  # integers and bools are never infinite; their sign bit is their sign
        return nd(xp.less(x, 0)) if op == "signbit" else xp.zeros(x.shape, dtype=np.bool_)
    return nd(getattr(xp, fn)(x))


@register_kernel("isposinf")
def isposinf(x):
    return _float_or_false("isposinf", "isposinf", x)


@register_kernel("isneginf")
def isneginf(x):
    return _float_or_false("isneginf", "isneginf", x)


@register_kernel("signbit")
def signbit(x):
    return _float_or_false("signbit", "signbit", x)


def _shift(op, fn, x, y):
    broadcast_shapes(op, x.shape, y.shape)
    if x.dtype.kind not in "iu" or y.dtype.kind not in "iu":
        raise TypeError(f"{op}: x and y must be integer tensors, got {x.dtype} and {y.dtype}")
    return nd(getattr(array_module(x, y), fn)(x, y))


@register_kernel("bitwise_left_shift")
def bitwise_left_shift(x, y):
    return _shift("bitwise_left_shift", "left_shift", x, y)


@register_kernel("bitwise_right_shift")
def bitwise_right_shift(x, y):
    return _shift("bitwise_right_shift", "right_shift", x, y)
