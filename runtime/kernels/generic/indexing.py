"""Indexing and shape kernels: take_along_axis, scatter, index_add, masked_fill, tril, triu,
pad, roll, repeat_interleave, flip, topk, sort, argsort, and their grads (the scans are
in `scan.py`).

Gradients of gathers are scatter-adds into zeros (`add_at`, repeated indices summed);
gradients of permutations (roll, flip, sort, topk) move `out_grad` back to where each
value came from. Ops that accept `axis=None` work on the flattened x (repeat_interleave,
roll); their grads reshape back to x's shape.
"""

from __future__ import annotations

import numpy as np

from opgrad.runtime.kernels.common import (
    add_at,
    allocation_error,
    array_module,
    as_int,
    as_int_list,
    broadcast_shapes,
    check_index,
    nd,
    normalize_axis,
    normalize_one_axis,
    scatter_add,
    unbroadcast,
)
from opgrad.runtime.kernels.registry import register_kernel


def _check_float_or_int(op, arg, a):
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{op}: {arg} must be a bool, integer or floating tensor, got dtype {a.dtype}")


# --- take_along_axis -------------------------------------------------------------------------


def _along_axis_shapes(arr, indices, axis):
    """The axis, the broadcast shapes of arr and indices, and indices with negative entries
    (counting from the end, as PyTorch allows) made non-negative. A 0-d arr is one entry.
    `arr` may be metadata only (its shape is all that is read)."""
    op = "take_along_axis"
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{op}: indices must be an integer tensor, got dtype {indices.dtype}")
    if indices.ndim != len(arr.shape):
        raise ValueError(
            f"{op}: indices has shape {indices.shape} and arr has shape {tuple(arr.shape)}; "
            "expected the same number of dimensions"
        )
    shape = tuple(arr.shape)
    if not shape:
        normalize_axis(axis, 0, op)
        shape, indices = (1,), indices.reshape(1)
    a = normalize_one_axis(axis, len(shape), op)
    n = shape[a]
    if indices.size and indices.dtype.kind == "i" and int(indices.min()) < 0:
        if int(indices.min()) < -n:
            raise ValueError(
                f"{op}: indices contains {int(indices.min())}, outside [{-n}, {n}) "
                f"(arr has {n} entries along axis {a})"
            )
        indices = array_module(indices).where(indices < 0, indices + n, indices)
    rest = broadcast_shapes(
        op,
        shape[:a] + (1,) + shape[a + 1 :],
        indices.shape[:a] + (1,) + indices.shape[a + 1 :],
        names=("arr", "indices"),
    )
    check_index(indices, n, op, "indices", f"arr has {n} entries along axis {a}")
    arr_shape = rest[:a] + (n,) + rest[a + 1 :]
    idx_shape = rest[:a] + (indices.shape[a],) + rest[a + 1 :]
    return a, arr_shape, idx_shape, indices


def grid_index(xp, indices, a):
    """A full fancy index tuple: aranges on every axis but `a`, where `indices` goes."""
    idx = []
    for d, n in enumerate(indices.shape):
        if d == a:
            idx.append(indices)
        else:
            shape = [1] * indices.ndim
            shape[d] = n
            idx.append(xp.arange(n).reshape(shape))
    return tuple(idx)


@register_kernel("take_along_axis")
def take_along_axis(arr, indices, axis):
    xp = array_module(arr)
    a, arr_shape, idx_shape, indices = _along_axis_shapes(arr, indices, axis)
    if arr.ndim == 0:
        return arr.copy()
    arr_b = xp.broadcast_to(arr, arr_shape)
    return nd(xp.take_along_axis(arr_b, xp.broadcast_to(indices, idx_shape), axis=a))


@register_kernel("take_along_axis_grad")
def take_along_axis_grad(arr, indices, out_grad, axis):
    xp = array_module(out_grad)
    a, arr_shape, idx_shape, indices = _along_axis_shapes(arr, indices, axis)
    if len(arr.shape) == 0:
        return out_grad.astype(arr.dtype, copy=True)
    g = xp.zeros(arr_shape, out_grad.dtype)
    add_at(g, grid_index(xp, xp.broadcast_to(indices, idx_shape), a), out_grad)
    return unbroadcast(g, arr.shape, arr.dtype)


# --- scatter, index_add, masked_fill ---------------------------------------------------------


def _check_scatter(x, index, updates):
    op = "scatter"
    if x.ndim == 0:
        raise ValueError(f"{op}: x is 0-d; expected at least one dimension")
    if index.ndim != 1:
        raise ValueError(f"{op}: index must be 1-D, got shape {index.shape}")
    check_index(index, x.shape[0], op, "index", f"x has {x.shape[0]} rows")
    want = (index.shape[0],) + tuple(x.shape[1:])
    if tuple(updates.shape) != want:
        raise ValueError(
            f"{op}: updates has shape {tuple(updates.shape)}; expected {want} (len(index),) + x.shape[1:]"
        )


def _last_occurrence(xp, index):
    """A bool mask: True at the last position where each distinct index value occurs."""
    n = index.shape[0]
    if n == 0:
        return xp.zeros(0, dtype=bool)
    order = xp.argsort(index, kind="stable")
    s = index[order]
    last_sorted = xp.concatenate([s[1:] != s[:-1], xp.ones(1, dtype=bool)])
    mask = xp.zeros(n, dtype=bool)
    mask[order] = last_sorted
    return mask


@register_kernel("scatter")
def scatter(x, index, updates, overwrite=True):
    _check_scatter(x, index, updates)
    xp = array_module(x)
    out = x.copy()
    updates = updates.astype(x.dtype, copy=False)
    if overwrite:
        keep = _last_occurrence(xp, index)
        out[index[keep]] = updates[keep]
    else:
        out[index] = 0
        scatter_add(out, 0, index, updates)
    return out


@register_kernel("scatter_grad")
def scatter_grad(x, index, updates, out_grad, overwrite=True):
    xp = array_module(out_grad)
    x_grad = out_grad.astype(x.dtype, copy=True)
    x_grad[index] = 0
    updates_grad = out_grad[index]
    if overwrite:
        mask = _last_occurrence(xp, index).reshape((-1,) + (1,) * (out_grad.ndim - 1))
        updates_grad = updates_grad * mask
    return x_grad, updates_grad.astype(updates.dtype, copy=False)


def _check_index_add(x, index, axis, value):
    """The axis, after checking the shapes; None for a 0-d x (one entry, index 0 or [0],
    a 0-d value), as PyTorch allows."""
    op = "index_add"
    if x.ndim == 0:
        normalize_axis(axis, 0, op)
        if index.ndim > 1 or index.size != 1:
            raise ValueError(f"{op}: x is 0-d, so index must hold one entry, got shape {index.shape}")
        check_index(index, 1, op, "index", "x is 0-d")
        if value.shape != ():
            raise ValueError(f"{op}: x is 0-d, so value must be 0-d, got shape {tuple(value.shape)}")
        return None
    a = normalize_one_axis(axis, x.ndim, op)
    if index.ndim != 1:
        raise ValueError(f"{op}: index must be 1-D, got shape {index.shape}")
    check_index(index, x.shape[a], op, "index", f"x has {x.shape[a]} entries along axis {a}")
    want = x.shape[:a] + (index.shape[0],) + x.shape[a + 1 :]
    if tuple(value.shape) != want:
        raise ValueError(f"{op}: value has shape {tuple(value.shape)}; expected {want}")
    return a


@register_kernel("index_add")
def index_add(x, index, value, axis):  # tensors first, then attributes (contracts §1)
    a = _check_index_add(x, index, axis, value)
    if a is None:
        return nd(x + value.astype(x.dtype, copy=False))
    return scatter_add(x.copy(), a, index, value.astype(x.dtype, copy=False))


@register_kernel("index_add_grad")
def index_add_grad(x, index, value, out_grad, axis):
    xp = array_module(out_grad)
    if len(x.shape) == 0:
        return out_grad.astype(x.dtype, copy=True), out_grad.astype(value.dtype, copy=True)
    a = normalize_one_axis(axis, len(x.shape), "index_add")
    value_grad = xp.take(out_grad, index, axis=a).astype(value.dtype, copy=False)
    return out_grad.astype(x.dtype, copy=False), value_grad


def _check_mask(x, mask):
    if mask.dtype.kind != "b":
        raise TypeError(f"masked_fill: mask must be a bool tensor, got dtype {mask.dtype}")
    if broadcast_shapes("masked_fill", x.shape, mask.shape, names=("x", "mask")) != tuple(x.shape):
        raise ValueError(
            f"masked_fill: mask has shape {mask.shape}, which does not broadcast to x's shape {x.shape}; "
            "the result keeps x's shape (expand x to the larger shape first)"
        )


@register_kernel("masked_fill")
def masked_fill(x, mask, value):
    _check_mask(x, mask)
    xp = array_module(x)
    return nd(xp.where(mask, xp.asarray(value, dtype=x.dtype), x))


@register_kernel("masked_fill_grad")
def masked_fill_grad(mask, out_grad, value):
    xp = array_module(out_grad)
    return nd(xp.where(mask, xp.zeros((), out_grad.dtype), out_grad))


# --- tril, triu ------------------------------------------------------------------------------


def _triangle(op, x, diagonal):
    if x.ndim < 2:
        raise ValueError(f"{op}: x has shape {x.shape}; expected at least 2 dimensions")
    xp = array_module(x)
    k = as_int(diagonal, op, "diagonal")
    return xp.tril(x, k) if op == "tril" else xp.triu(x, k)


@register_kernel("tril")
def tril(x, diagonal=0):
    return _triangle("tril", x, diagonal)


@register_kernel("tril_grad")
def tril_grad(out_grad, diagonal=0):
    return _triangle("tril", out_grad, diagonal)


@register_kernel("triu")
def triu(x, diagonal=0):
    return _triangle("triu", x, diagonal)


@register_kernel("triu_grad")
def triu_grad(out_grad, diagonal=0):
    return _triangle("triu", out_grad, diagonal)


# --- pad -------------------------------------------------------------------------------------

_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def _pad_widths(x_shape, pad, mode):
    """[(before, after)] per axis of x, from PyTorch-style pairs that start at the last axis."""
    op = "pad"
    p = as_int_list(pad, op, "pad")
    ndim = len(x_shape)
    if len(p) % 2 or len(p) // 2 > ndim:
        raise ValueError(
            f"pad: pad {p} must hold (before, after) pairs for at most the {ndim} dimensions of x "
            "(an even length <= 2 * x.ndim)"
        )
    if mode not in _PAD_MODES:
        raise ValueError(f"pad: mode must be one of {', '.join(_PAD_MODES)}; got {mode!r}")
    if any(v < 0 for v in p):
        raise ValueError(f"pad: pad {p} must be non-negative")
    widths = [(0, 0)] * ndim
    for i in range(len(p) // 2):
        widths[ndim - 1 - i] = (p[2 * i], p[2 * i + 1])
    for d, (b, a) in enumerate(widths):
        n = x_shape[d]
        if (b or a) and mode != "constant":
            limit = n - 1 if mode == "reflect" else n
            if n == 0 or max(b, a) > limit:
                raise ValueError(
                    f"pad: {mode} padding of ({b}, {a}) on dimension {d} of size {n}; "
                    f"expected each side at most {limit}"
                )
    return widths


def _source_index(xp, n, before, after, mode):
    """For every output position along one axis, the input position it copies."""
    i = xp.arange(-before, n + after)
    if mode == "replicate":
        return xp.clip(i, 0, n - 1)
    if mode == "circular":
        return i % n
    period = 2 * (n - 1)  # reflect: ... 2 1 [0 1 2 ... n-1] n-2 ...
    if period == 0:
        return xp.zeros_like(i)
    i = xp.abs(i) % period
    return xp.where(i >= n, period - i, i)


@register_kernel("pad")
def pad(x, pad, mode="constant", value=0.0):
    xp = array_module(x)
    widths = _pad_widths(x.shape, pad, mode)
    try:
        if mode == "constant" and x.ndim:  # (np.pad refuses a 0-d x; the loop below copies it)
            return xp.pad(x, widths, mode="constant", constant_values=xp.asarray(value, dtype=x.dtype))
        out = x
        for d, (b, a) in enumerate(widths):
            if b or a:
                out = xp.take(out, _source_index(xp, x.shape[d], b, a, mode), axis=d)
    except (MemoryError, ValueError) as e:
        raise allocation_error("pad", "pad", pad, e) from None
    return nd(out) if out is not x else x.copy()  # no padding at all: still a new array


@register_kernel("pad_grad")
def pad_grad(x, out_grad, pad, mode="constant", value=0.0):
    xp = array_module(out_grad)
    widths = _pad_widths(x.shape, pad, mode)
    if mode == "constant":
        window = tuple(slice(b, b + n) for (b, _), n in zip(widths, x.shape, strict=True))
        return nd(out_grad[window].astype(x.dtype, copy=True))  # nd: a 0-d x gives a scalar
    g = out_grad
    for d in reversed(range(len(widths))):
        b, a = widths[d]
        if b or a:
            shape = g.shape[:d] + (x.shape[d],) + g.shape[d + 1 :]
            g = scatter_add(xp.zeros(shape, g.dtype), d, _source_index(xp, x.shape[d], b, a, mode), g)
    return g.astype(x.dtype, copy=False)


# --- roll, flip, repeat_interleave -----------------------------------------------------------


def _roll_args(x, shifts, axis):
    op = "roll"
    s = as_int_list(shifts, op, "shifts")
    if axis is None or (isinstance(axis, (list, tuple)) and not axis):
        if len(s) != 1:
            raise ValueError(f"roll: shifts {s} must be one int when axis is None")
        return s, None
    axes = [normalize_one_axis(a, max(x.ndim, 1), op) for a in as_int_list(axis, op, "axis")]
    if len(axes) != len(s):
        raise ValueError(f"roll: shifts {s} and axis {axes} must have the same length")
    return s, axes


def _roll(x, shifts, axis, sign):
    xp = array_module(x)
    s, axes = _roll_args(x, shifts, axis)
    if axes is None:
        return xp.roll(x.reshape(-1), sign * s[0]).reshape(x.shape)
    if x.ndim == 0:
        return x.copy()
    return xp.roll(x, [sign * v for v in s], axis=axes)


@register_kernel("roll")
def roll(x, shifts, axis=None):
    return _roll(x, shifts, axis, 1)


@register_kernel("roll_grad")
def roll_grad(out_grad, shifts, axis=None):
    return _roll(out_grad, shifts, axis, -1)


def _flip(x, axis):
    xp = array_module(x)
    if x.ndim == 0:
        return x.copy()
    axes = [normalize_one_axis(a, x.ndim, "flip") for a in as_int_list(axis, "flip", "axis")]
    if len(set(axes)) != len(axes):
        raise ValueError(f"flip: axis {axis!r} names a dimension twice")
    return xp.flip(x, axis=tuple(axes)).copy()


@register_kernel("flip")
def flip(x, axis):
    return _flip(x, axis)


@register_kernel("flip_grad")
def flip_grad(out_grad, axis):
    return _flip(out_grad, axis)


def _repeat_args(shape, repeats, axis, op="repeat_interleave"):
    r = as_int(repeats, op, "repeats")
    if r < 0:
        raise ValueError(f"{op}: repeats must be non-negative, got {r}")
    if axis is None:
        return r, None
    return r, normalize_one_axis(axis, max(len(shape), 1), op)


@register_kernel("repeat_interleave")
def repeat_interleave(x, repeats, axis=None):
    xp = array_module(x)
    r, a = _repeat_args(x.shape, repeats, axis)
    try:
        if a is None or x.ndim == 0:
            return xp.repeat(x.reshape(-1), r)
        return xp.repeat(x, r, axis=a)
    except (MemoryError, ValueError) as e:
        raise allocation_error("repeat_interleave", "repeats", repeats, e) from None


@register_kernel("repeat_interleave_grad")
def repeat_interleave_grad(x, out_grad, repeats, axis=None):
    r, a = _repeat_args(x.shape, repeats, axis)
    if a is None or len(x.shape) == 0:
        g = out_grad.reshape(int(np.prod(x.shape)), r).sum(axis=1)  # not -1: it fails when r is 0
    else:
        g = out_grad.reshape(x.shape[: a + 1] + (r,) + x.shape[a + 1 :]).sum(axis=a + 1)
    return g.reshape(x.shape).astype(x.dtype, copy=False)


# --- cumsum, cumprod -------------------------------------------------------------------------


# --- topk, sort, argsort ---------------------------------------------------------------------


def _sort_axis(op, x, axis):
    if x.ndim == 0:
        if as_int(axis, op, "axis") not in (0, -1):
            raise ValueError(f"{op}: axis {axis} is out of range for a 0-d tensor; expected 0 or -1")
        return None
    return normalize_one_axis(axis, x.ndim, op)


def _argsort(xp, x, a, descending):
    """Stable argsort along a; NaN is the largest value (last ascending, first descending).

    Descending keeps equal values in their original order too: a stable ascending sort of
    the reversed axis, read backwards, with positions mapped back (n - 1 - j)."""
    if not descending:
        return xp.argsort(x, axis=a, kind="stable")
    n = x.shape[a]
    return (n - 1) - xp.flip(xp.argsort(xp.flip(x, axis=a), axis=a, kind="stable"), axis=a)


def _put_along(xp, shape, dtype, indices, values, a):
    """Zeros of `shape` with `values` put at `indices` along a (no index repeats in a slice)."""
    g = xp.zeros(shape, dtype)
    g[grid_index(xp, indices, a)] = values
    return g


@register_kernel("topk")
def topk(x, k, axis=-1, largest=True, sorted=True):  # noqa: A002 - Paddle's names
    xp = array_module(x)
    _check_float_or_int("topk", "x", x)
    a = _sort_axis("topk", x, axis)
    n = 1 if a is None else x.shape[a]
    k = as_int(k, "topk", "k")
    if not 0 <= k <= n:
        raise ValueError(
            f"topk: k {k} is out of range for {n} entries along axis {axis}; expected 0 <= k <= {n}"
        )
    if a is None:
        return x.copy(), xp.zeros((), dtype=np.int64)
    idx = xp.take(_argsort(xp, x, a, largest), xp.arange(k), axis=a).astype(np.int64, copy=False)
    return xp.take_along_axis(x, idx, axis=a), idx


@register_kernel("topk_grad")
def topk_grad(x, indices, out_grad, k, axis=-1, largest=True, sorted=True):  # noqa: A002
    xp = array_module(out_grad)
    a = _sort_axis("topk", x, axis)
    if a is None:
        return out_grad.astype(x.dtype, copy=True)
    return _put_along(xp, x.shape, x.dtype, indices, out_grad, a)


@register_kernel("sort")
def sort(x, axis=-1, descending=False):
    xp = array_module(x)
    _check_float_or_int("sort", "x", x)
    a = _sort_axis("sort", x, axis)
    if a is None:
        return x.copy(), xp.zeros((), dtype=np.int64)
    idx = _argsort(xp, x, a, descending).astype(np.int64, copy=False)
    return xp.take_along_axis(x, idx, axis=a), idx


@register_kernel("sort_grad")
def sort_grad(x, indices, out_grad, axis=-1, descending=False):
    xp = array_module(out_grad)
    a = _sort_axis("sort", x, axis)
    if a is None:
        return out_grad.astype(x.dtype, copy=True)
    return _put_along(xp, x.shape, x.dtype, indices, out_grad, a)


@register_kernel("argsort")
def argsort(x, axis=-1, descending=False):
    xp = array_module(x)
    _check_float_or_int("argsort", "x", x)
    a = _sort_axis("argsort", x, axis)
    if a is None:
        return xp.zeros((), dtype=np.int64)
    return _argsort(xp, x, a, descending).astype(np.int64, copy=False)
