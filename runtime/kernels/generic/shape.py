"""Shape and indexing kernels: reshape, transpose, squeeze, unsqueeze, flatten, expand,
concat, stack, split, gather, index_select, tile, and their grads; narrow_as / pad_as (the
leading entries of x along an axis, and x followed by zeros; each other's adjoint, so
composite gradients of any order can cut and grow a block to another tensor's length).

Forward kernels return views where NumPy does (reshape, transpose, squeeze, unsqueeze,
flatten, split; expand is a read-only broadcast view). Their grad kernels mostly need
only x's shape and dtype (`no_need_buffer: x`, x arrives as `TensorMeta`), and may return
views of `out_grad`.
"""

from __future__ import annotations

import math

import numpy as np

from opgrad.runtime.kernels.common import (
    array_module,
    as_int_list,
    check_index,
    nd,
    normalize_axis,
    normalize_one_axis,
    scatter_add,
    unbroadcast,
)
from opgrad.runtime.kernels.registry import register_kernel


def _same_shape_grad(x, out_grad):
    return out_grad.reshape(x.shape).astype(x.dtype, copy=False)


@register_kernel("reshape")
def reshape(x, shape):
    target = as_int_list(shape, "reshape", "shape")
    try:
        return x.reshape(target)
    except ValueError:
        raise ValueError(
            f"reshape: cannot reshape x of shape {x.shape} ({x.size} elements) into shape {target}; "
            f"expected sizes >= 0 with at most one -1 and {x.size} elements in all"
        ) from None


@register_kernel("reshape_grad")
def reshape_grad(x, out_grad, shape):
    return _same_shape_grad(x, out_grad)


def _check_perm(perm, ndim):
    p = as_int_list(perm, "transpose", "perm")
    if sorted(a % ndim if -ndim <= a < ndim else a for a in p) != list(range(ndim)) or len(p) != ndim:
        raise ValueError(
            f"transpose: perm {p} is not a permutation of the {ndim} axes of x; "
            f"expected each of 0..{ndim - 1} exactly once"
        )
    return [a % ndim for a in p]


@register_kernel("transpose")
def transpose(x, perm):
    if x.ndim == 0 and not as_int_list(perm, "transpose", "perm"):
        return x.reshape(())
    return x.transpose(_check_perm(perm, x.ndim))


@register_kernel("transpose_grad")
def transpose_grad(x, out_grad, perm):
    if x.ndim == 0:
        return _same_shape_grad(x, out_grad)
    inverse = np.argsort(_check_perm(perm, x.ndim)).tolist()
    return out_grad.transpose(inverse).astype(x.dtype, copy=False)


@register_kernel("squeeze")
def squeeze(x, axis=()):
    if axis is None or (isinstance(axis, (list, tuple)) and not axis):
        axes = {i for i, d in enumerate(x.shape) if d == 1}
    else:
        # Paddle's rule: listed axes whose size is not 1 are left alone
        axes = {a for a in normalize_axis(axis, x.ndim, "squeeze") if x.shape[a] == 1}
    return x.reshape([d for i, d in enumerate(x.shape) if i not in axes])


@register_kernel("squeeze_grad")
def squeeze_grad(x, out_grad, axis=()):
    return _same_shape_grad(x, out_grad)


@register_kernel("unsqueeze")
def unsqueeze(x, axis):
    axes = as_int_list(axis, "unsqueeze", "axis")
    if not axes:
        return x.reshape(x.shape)
    # NumPy's expand_dims rule: axes are positions in the result
    ndim = x.ndim + len(axes)
    if any(not -ndim <= a < ndim for a in axes):
        raise ValueError(
            f"unsqueeze: axis {axis!r} is out of range for x with {x.ndim} dimensions; expected "
            f"entries in [{-ndim}, {ndim}) (positions in the {ndim}-d result)"
        )
    positions = normalize_axis(axes, ndim, "unsqueeze")
    shape = list(x.shape)
    for a in positions:
        shape.insert(a, 1)
    return x.reshape(shape)


@register_kernel("unsqueeze_grad")
def unsqueeze_grad(x, out_grad, axis):
    return _same_shape_grad(x, out_grad)


@register_kernel("flatten")
def flatten(x, start_axis=0, stop_axis=-1):
    if x.ndim == 0:
        return x.reshape(1)
    start = normalize_one_axis(start_axis, x.ndim, "flatten", "start_axis")
    stop = normalize_one_axis(stop_axis, x.ndim, "flatten", "stop_axis")
    if start > stop:
        raise ValueError(
            f"flatten: start_axis {start_axis} comes after stop_axis {stop_axis} for x of shape {x.shape}; "
            "expected start_axis <= stop_axis"
        )
    merged = math.prod(x.shape[start : stop + 1])
    return x.reshape(x.shape[:start] + (merged,) + x.shape[stop + 1 :])


@register_kernel("flatten_grad")
def flatten_grad(x, out_grad, start_axis=0, stop_axis=-1):
    return _same_shape_grad(x, out_grad)


def _expand_shape(x, shape):
    target = as_int_list(shape, "expand", "shape")
    lead = len(target) - x.ndim
    if lead < 0:
        raise ValueError(
            f"expand: shape {target} has fewer dimensions than x of shape {x.shape}; "
            f"expected at least {x.ndim} entries"
        )
    out = []
    for i, t in enumerate(target):
        have = x.shape[i - lead] if i >= lead else None
        if t == -1 and have is not None:
            out.append(have)
        elif t >= 0 and (have is None or have == t or have == 1):
            out.append(t)
        else:
            expected = (
                "a size >= 0 (-1 only keeps an existing dimension)" if have is None else f"{have}, 1 or -1"
            )
            raise ValueError(
                f"expand: cannot expand x of shape {x.shape} to shape {target}: "
                f"entry {i} is {t}; expected {expected}"
            )
    return tuple(out)


@register_kernel("expand")
def expand(x, shape):
    return array_module(x).broadcast_to(x, _expand_shape(x, shape))


@register_kernel("expand_grad")
def expand_grad(x, out_grad, shape):
    return unbroadcast(out_grad, x.shape, x.dtype)


def _check_list(op, xs):
    if not isinstance(xs, (list, tuple)) or not xs:
        raise ValueError(f"{op}: x must be a non-empty list of tensors, got {xs!r}")


@register_kernel("concat")
def concat(x, axis=0):
    _check_list("concat", x)
    if x[0].ndim == 0:
        raise ValueError("concat: x[0] is 0-d; expected tensors with at least 1 dimension")
    a = normalize_one_axis(axis, x[0].ndim, "concat")
    try:
        return array_module(*x).concatenate(x, axis=a)
    except ValueError:
        first = x[0].shape
        for i, t in enumerate(x):
            if t.ndim != len(first) or any(
                d != e for j, (d, e) in enumerate(zip(t.shape, first, strict=True)) if j != a
            ):
                raise ValueError(
                    f"concat: x[{i}] has shape {t.shape} but x[0] has shape {first}; "
                    f"expected the same sizes except along axis {a}"
                ) from None
        raise


@register_kernel("concat_grad")
def concat_grad(x, out_grad, axis=0):
    a = normalize_one_axis(axis, len(x[0].shape), "concat")
    xp = array_module(out_grad)
    bounds = np.cumsum([t.shape[a] for t in x])[:-1].tolist()
    parts = xp.split(out_grad, bounds, axis=a)
    return [p.astype(t.dtype, copy=False) for p, t in zip(parts, x, strict=True)]


@register_kernel("stack")
def stack(x, axis=0):
    _check_list("stack", x)
    a = normalize_one_axis(axis, x[0].ndim + 1, "stack")
    first = x[0].shape
    for i, t in enumerate(x):
        if t.shape != first:
            raise ValueError(
                f"stack: x[{i}] has shape {t.shape} but x[0] has shape {first}; expected all shapes equal"
            )
    return array_module(*x).stack(x, axis=a)


@register_kernel("stack_grad")
def stack_grad(x, out_grad, axis=0):
    a = normalize_one_axis(axis, len(x[0].shape) + 1, "stack")
    lead = (slice(None),) * a
    return [nd(out_grad[lead + (i,)]).astype(t.dtype, copy=False) for i, t in enumerate(x)]


def _sections(x, num_or_sections, a):
    dim = x.shape[a]
    if isinstance(num_or_sections, (int, np.integer)) and not isinstance(num_or_sections, bool):
        n = int(num_or_sections)
        if n <= 0 or dim % n:
            raise ValueError(
                f"split: num_or_sections {n} does not divide x.shape[{a}] == {dim}; "
                f"expected a positive divisor of {dim} or a list of section sizes"
            )
        return [dim // n] * n
    sizes = as_int_list(num_or_sections, "split", "num_or_sections")
    unknown = [i for i, s in enumerate(sizes) if s == -1]
    if not sizes or len(unknown) > 1 or any(s < -1 for s in sizes):
        raise ValueError(
            f"split: num_or_sections {sizes} is not a valid list of section sizes; "
            "expected sizes >= 0 with at most one -1"
        )
    known = sum(s for s in sizes if s != -1)
    if unknown and known <= dim:
        sizes[unknown[0]] = dim - known
    if sum(sizes) != dim or -1 in sizes:  # -1 left when the known sizes exceed dim
        raise ValueError(
            f"split: num_or_sections {list(num_or_sections)} does not add up to x.shape[{a}] == {dim}; "
            f"expected section sizes summing to {dim}"
        )
    return sizes


@register_kernel("split")
def split(x, num_or_sections, axis=0):
    if x.ndim == 0:
        raise ValueError("split: x is 0-d; expected at least 1 dimension")
    a = normalize_one_axis(axis, x.ndim, "split")
    bounds = np.cumsum(_sections(x, num_or_sections, a))[:-1].tolist()
    return array_module(x).split(x, bounds, axis=a)


@register_kernel("split_grad")
def split_grad(x, out_grad, num_or_sections, axis=0):
    a = normalize_one_axis(axis, len(x.shape), "split")
    return array_module(*out_grad).concatenate(out_grad, axis=a).astype(x.dtype, copy=False)


def _select(op):
    # a 0-d index means [index]; a 0-d x is one entry along axis 0 (the result is 0-d too)
    def kernel(x, index, axis=0):
        if index.ndim > 1:
            raise ValueError(f"{op}: index must be 0-d or 1-D, got shape {index.shape}")
        if x.ndim == 0:
            normalize_axis(axis, 0, op)
            if index.size != 1:
                raise ValueError(f"{op}: x is 0-d, so index must hold one entry, got shape {index.shape}")
            check_index(index, 1, op, "index", "x is 0-d")
            return x.copy()
        a = normalize_one_axis(axis, x.ndim, op)
        check_index(index, x.shape[a], op, "index", f"x.shape[{a}] == {x.shape[a]}")
        return array_module(x).take(x, index.reshape(-1), axis=a)

    def grad(x, index, out_grad, axis=0):
        if len(x.shape) == 0:
            return out_grad.astype(x.dtype, copy=True)
        index = index.reshape(-1)
        a = normalize_one_axis(axis, len(x.shape), op)
        x_grad = array_module(out_grad).zeros(x.shape, out_grad.dtype)
        return scatter_add(x_grad, a, index, out_grad).astype(x.dtype, copy=False)

    kernel.__name__ = kernel.__qualname__ = op
    grad.__name__ = grad.__qualname__ = op + "_grad"
    return register_kernel(op)(kernel), register_kernel(op + "_grad")(grad)


gather, gather_grad = _select("gather")
index_select, index_select_grad = _select("index_select")


def _repeats(repeat_times):
    reps = as_int_list(repeat_times, "tile", "repeat_times")
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: repeat_times {reps} has a negative entry; expected counts >= 0")
    return reps


@register_kernel("tile")
def tile(x, repeat_times):
    return nd(array_module(x).tile(x, _repeats(repeat_times)))


@register_kernel("tile_grad")
def tile_grad(x, out_grad, repeat_times):
    reps = _repeats(repeat_times)
    n = max(len(reps), len(x.shape))
    sizes = (1,) * (n - len(x.shape)) + tuple(x.shape)
    reps = [1] * (n - len(reps)) + reps
    interleaved = [v for pair in zip(reps, sizes, strict=True) for v in pair]
    summed = out_grad.reshape(interleaved).sum(axis=tuple(range(0, 2 * n, 2)))
    return nd(summed).reshape(x.shape).astype(x.dtype, copy=False)


def _lengths(op, x, like, axis):
    """The axis (of x) and its length in like, which must have as many dimensions as x."""
    if len(like.shape) != len(x.shape):
        raise ValueError(
            f"{op}: like has shape {tuple(like.shape)} and x has shape {tuple(x.shape)}; "
            "expected as many dimensions"
        )
    a = normalize_one_axis(axis, len(x.shape), op)
    return a, like.shape[a]


@register_kernel("narrow_as")
def narrow_as(x, like, axis=-1):
    a, length = _lengths("narrow_as", x, like, axis)
    if length > x.shape[a]:
        raise ValueError(
            f"narrow_as: like has {length} entries along axis {axis}, x only {x.shape[a]}; "
            "expected like's length to be at most x's"
        )
    cut = (slice(None),) * a + (slice(0, length),)
    return x[cut].copy()  # not a view op: the result owns its data


@register_kernel("pad_as")
def pad_as(x, like, axis=-1):
    a, length = _lengths("pad_as", x, like, axis)
    if length < x.shape[a]:
        raise ValueError(
            f"pad_as: like has {length} entries along axis {axis}, x already {x.shape[a]}; "
            "expected like's length to be at least x's"
        )
    shape = list(x.shape)
    shape[a] = length
    out = array_module(x).zeros(shape, dtype=x.dtype)
    out[(slice(None),) * a + (slice(0, x.shape[a]),)] = x
    return out
