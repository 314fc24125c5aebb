"""N-dimensional index kernels with Paddle's semantics (issue 15): gather_nd, scatter_nd and
scatter_nd_add. An index of shape (..., k) addresses x's first k axes: each row of its last
axis is one position (negative entries count from the end); the leading axes of index
become the result's leading axes. Repeated positions accumulate in scatter_nd and
scatter_nd_add. The gradients are each other (composites in backward.yaml).
"""

from __future__ import annotations

import math

import numpy as np

from opgrad.runtime.kernels.common import add_at, array_module, nd
from opgrad.runtime.kernels.registry import register_kernel


def _positions(op, shape, index):
    """index as a tuple of 1-D position arrays over shape's first k axes, and index's lead."""
    if index.dtype.kind not in "iu":
        raise TypeError(f"{op}: index must be an integer tensor, got dtype {index.dtype}")
    if index.ndim == 0:
        raise ValueError(f"{op}: index must have at least 1 dimension (..., k), got a 0-d tensor")
    k = index.shape[-1]
    if k > len(shape):
        raise ValueError(
            f"{op}: index rows have {k} entries but the indexed tensor has only {len(shape)} axes"
        )
    xp = array_module(index)
    rows = index.reshape(-1, k).astype(np.int64)
    dims = xp.asarray(shape[:k], dtype=np.int64)
    bad = (rows < -dims) | (rows >= dims)
    if bool(bad.any()):
        r, c = (int(v) for v in xp.argwhere(bad)[0])
        raise IndexError(
            f"{op}: index has {int(rows[r, c])} for axis {c} of size {shape[c]} (row {r}); expected "
            f"-{shape[c]} <= i < {shape[c]}"
        )
    rows = xp.where(rows < 0, rows + dims, rows)
    return tuple(rows.T), index.shape[:-1], k


@register_kernel("gather_nd")
def gather_nd(x, index):
    pos, lead, k = _positions("gather_nd", x.shape, index)
    rest = x.shape[k:]
    if k == 0:  # every row addresses all of x
        return array_module(x).broadcast_to(x, lead + rest).copy()
    return nd(x[pos].reshape(lead + rest))


def _scatter(op, out, index, updates):
    pos, lead, k = _positions(op, out.shape, index)
    want = lead + out.shape[k:]
    if updates.shape != want:
        raise ValueError(
            f"{op}: updates must have shape index.shape[:-1] + x.shape[k:] = {want}, got {updates.shape}"
        )
    if k == 0:
        out += updates.reshape((math.prod(lead), *out.shape)).sum(axis=0)
        return out
    return add_at(out, pos, updates.reshape((math.prod(lead), *out.shape[k:])))  # not -1: zero-size rows


@register_kernel("scatter_nd_add")
def scatter_nd_add(x, index, updates):
    return nd(_scatter("scatter_nd_add", x.astype(np.result_type(x, updates)), index, updates))


@register_kernel("scatter_nd")
def scatter_nd(index, updates, shape):
    if any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0 for s in shape):
        raise ValueError(f"scatter_nd: shape must be a list of non-negative ints, got {list(shape)}")
    out = array_module(updates).zeros(tuple(int(s) for s in shape), dtype=updates.dtype)
    return nd(_scatter("scatter_nd", out, index, updates))


def _index_tuple(op, shape, indices):
    """indices as a tuple for NumPy indexing, checked: integer or bool tensors, at most one per
    axis, integer entries in range (negative from the end)."""
    if len(indices) > len(shape):
        raise IndexError(f"{op}: {len(indices)} index tensors for a {len(shape)}-D tensor")
    axis = 0
    for k, ind in enumerate(indices):
        if ind.dtype.kind == "b":
            if ind.shape != tuple(shape[axis : axis + ind.ndim]):
                raise IndexError(
                    f"{op}: indices[{k}] is a bool mask of shape {ind.shape}; expected the shape of the "
                    f"axes it covers, {tuple(shape[axis : axis + ind.ndim])}"
                )
            axis += ind.ndim
            continue
        if ind.dtype.kind not in "iu":
            raise IndexError(f"{op}: indices[{k}] must be an integer or bool tensor, got dtype {ind.dtype}")
        size = shape[axis]
        if ind.size and (int(ind.min()) < -size or int(ind.max()) >= size):
            bad = int(ind.min()) if int(ind.min()) < -size else int(ind.max())
            raise IndexError(f"{op}: indices[{k}] has {bad} for axis {axis} of size {size}")
        axis += 1
    return tuple(indices)


def _take(op, x, where):
    try:
        return x[where]
    except IndexError as e:  # the index tensors do not broadcast together
        raise IndexError(f"{op}: indices: {e}") from None


@register_kernel("index")
def index(x, indices):
    return nd(_take("index", x, _index_tuple("index", x.shape, indices)).copy())


@register_kernel("index_put")
def index_put(x, indices, values, accumulate=False):
    where = _index_tuple("index_put", x.shape, indices)
    target_shape = _take("index_put", x, where).shape
    out = x.copy()
    try:
        vals = array_module(x).broadcast_to(values.astype(x.dtype, copy=False), target_shape)
    except ValueError:
        raise ValueError(
            f"index_put: values of shape {values.shape} do not broadcast to the indexed shape {target_shape}"
        ) from None
    if accumulate:
        if any(i.dtype.kind == "b" for i in indices):
            out[where] += vals  # a mask selects each position once
        else:
            add_at(out, where, vals)
    else:
        out[where] = vals
    return nd(out)
