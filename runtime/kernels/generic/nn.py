"""Neural-network kernels: softmax, log_softmax, cross_entropy, mse_loss, dropout, one_hot,
embedding, their grads, cross_entropy's and mse_loss's double grads, and the higher-order
helper ops softmax_vjp / softmax_vjp_dp (softmax's vector-Jacobian product and its
derivative in the probabilities), which double-grad composites call.

softmax-like kernels subtract the maximum along `axis` first. cross_entropy takes logits
and integer class labels (those equal to `ignore_index` count for nothing, and
`label_smoothing` mixes a uniform target in) and recomputes the softmax in its grad kernel
rather than saving it. dropout's `mask` (a bool array, True where x is kept) is an
intermediate output that its grad kernel reads; its randomness comes from
`generator_for(xp)` (`og.manual_seed`).
"""

from __future__ import annotations

import math

import numpy as np

from opgrad.runtime import _accel
from opgrad.runtime.kernels.common import (
    allocation_error,
    array_module,
    as_int,
    check_float,
    check_index,
    check_like,
    check_loss_shapes,
    nd,
    normalize_axis,
    normalize_one_axis,
    scatter_add,
    unbroadcast,
)
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel
from opgrad.runtime.random import generator_for

_REDUCTIONS = ("mean", "sum", "none")


def _softmax(xp, x, a):
    e = xp.exp(x - x.max(axis=a, keepdims=True))
    return e / e.sum(axis=a, keepdims=True)


def _log_softmax(xp, x, a):
    shifted = x - x.max(axis=a, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=a, keepdims=True))


# cross_entropy's fast path (NumPy, (N, C) logits): the softmax (and log-softmax) along
# axis 1 with the ufuncs' reductions called directly. `x.max(...)`/`x.sum(...)` are these same
# reductions behind a Python wrapper each (~0.5 us a call on 32x10 logits), so the bits are
# the same.
_ROW_MAX = np.maximum.reduce
_ROW_SUM = np.add.reduce
_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# A label dtype -> the unsigned dtype `_plain_labels` reads its values as (a negative label
# read as unsigned is huge), None for an unsigned one: the native integer dtypes, looked up
# in one step (dtype objects: `view` converts a scalar type on every call). Any other dtype
# (floats, bools, another byte order, whose bytes a native view would misread) takes the
# general path.
_LABEL_VIEWS: dict[np.dtype, np.dtype | None] = {}
for _size, _unsigned in _UNSIGNED.items():
    _LABEL_VIEWS[np.dtype(f"int{8 * _size}")] = np.dtype(_unsigned)
    _LABEL_VIEWS[np.dtype(_unsigned)] = None
_NOT_LISTED = object()
_F64 = np.dtype(np.float64)


def _exact_scale(w):
    """w is plus or minus a power of two, 2**-60 to 2**60. Then (p - t) * w rounded once to float32 (the
    general path: p a float32 probability, t 0 or 1, the arithmetic in float64, one rounding
    at the end) is the same float32 as the arithmetic done in float32: p * w and the scaling
    are exact (no underflow or overflow in this range), and p - 1 is either exact in float64
    or, for p below 2**-30, rounds to values whose float32 rounding is 1 both ways."""
    m, e = math.frexp(w)
    return abs(m) == 0.5 and -60 <= e <= 60


def _row_max(x):
    """The maximum of each row of (N, C) logits, shape (N, 1). With few classes NumPy's
    reduction along the rows runs its inner loop once per row (~2 us for 32x10); on a
    transposed copy it runs once per class over all rows (~1.4 us). Maxima are exact, so
    the two agree except in which of two equal values a row returns: -0.0 or 0.0 for a row
    whose maximum is zero. Subtracting either from the row leaves every entry the same but
    -0.0 there (0.0 or -0.0), which exp maps to 1 both ways; cross_entropy's loss reads such
    an entry only when it is exactly zero (see `_plain_loss_sum`)."""
    n, classes = x.shape
    if 4 <= classes <= 32 and n >= 8:
        return _ROW_MAX(x.T.copy(), axis=0)[:, None]
    return _ROW_MAX(x, axis=1, keepdims=True)


_STARTS: dict[tuple[int, int], np.ndarray] = {}  # (N, C) -> the flat index of each row's start


def _row_starts(n, classes):
    """0, C, 2C, ... (N values, read-only): the flat indices of the rows of (N, C) logits, to
    which the labels add (one index per row instead of two index arrays). Kept for a few shapes."""
    starts = _STARTS.get((n, classes))
    if starts is None:
        starts = np.arange(0, n * classes, classes)
        starts.flags.writeable = False
        if len(_STARTS) < 16:
            _STARTS[(n, classes)] = starts
    return starts


_U64 = np.dtype(np.uint64)


def _flat_labels(n, classes, lab):
    """The flat index of each row's label in (N, C) logits, for `_plain_labels`' labels (uint64
    ones read as int64, which they fit: the int64 row starts plus uint64 would be float64)."""
    return _row_starts(n, classes) + (lab.view(np.int64) if lab.dtype == _U64 else lab)


def _softmax_rows(x):
    """softmax along axis 1 of (N, C) logits, bit for bit `_softmax(np, x, 1)`, in one new array."""
    e = np.exp(x - _row_max(x))
    return np.divide(e, _ROW_SUM(e, axis=1, keepdims=True), out=e)


@register_kernel("softmax")
@float32_inside
def softmax(x, axis=-1):
    xp = array_module(x)
    if x.ndim == 0:  # 1, or nan for a nan or infinite x (as a 1-element axis would give)
        return xp.asarray(xp.where(xp.isfinite(x), 1, np.nan), dtype=x.dtype)
    if x.size == 0:  # no maximum to subtract; nothing to normalise
        normalize_one_axis(axis, x.ndim, "softmax")
        return xp.empty_like(x)
    return _softmax(xp, x, normalize_one_axis(axis, x.ndim, "softmax"))


@register_kernel("softmax_grad")
@float32_inside
def softmax_grad(out, out_grad, axis=-1):
    if out.ndim == 0:
        return array_module(out).zeros_like(out_grad)
    a = normalize_one_axis(axis, out.ndim, "softmax")
    return out * (out_grad - (out_grad * out).sum(axis=a, keepdims=True))


@register_kernel("log_softmax")
@float32_inside
def log_softmax(x, axis=-1):
    xp = array_module(x)
    if x.ndim == 0:  # 0, or nan for a nan or infinite x (as a 1-element axis would give)
        return xp.asarray(xp.where(xp.isfinite(x), 0, np.nan), dtype=x.dtype)
    if x.size == 0:
        normalize_one_axis(axis, x.ndim, "log_softmax")
        return xp.empty_like(x)
    return _log_softmax(xp, x, normalize_one_axis(axis, x.ndim, "log_softmax"))


@register_kernel("log_softmax_grad")
@float32_inside
def log_softmax_grad(out, out_grad, axis=-1):
    xp = array_module(out)
    if out.ndim == 0:
        return xp.zeros_like(out_grad)
    a = normalize_one_axis(axis, out.ndim, "log_softmax")
    return out_grad - xp.exp(out) * out_grad.sum(axis=a, keepdims=True)


def _row_axis(p, axis, op):
    return normalize_axis(axis, p.ndim, op) if p.ndim else ()


@register_kernel("softmax_vjp")
@float32_inside
def softmax_vjp(p, g, axis=-1):
    check_like("softmax_vjp", "p", p, g=g)
    a = _row_axis(p, axis, "softmax_vjp")
    return nd(p * (g - (g * p).sum(axis=a, keepdims=True)))


@register_kernel("softmax_vjp_dp")
@float32_inside
def softmax_vjp_dp(p, g, r, axis=-1):
    check_like("softmax_vjp_dp", "p", p, g=g, r=r)
    a = _row_axis(p, axis, "softmax_vjp_dp")
    return nd(g * r - g * (p * r).sum(axis=a, keepdims=True) - r * (p * g).sum(axis=a, keepdims=True))


def _check_reduction(op, reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{op}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _class_labels(input, label, axis, ignore_index=-100):
    """The class axis, the labels (input's shape minus that axis; ignored ones set to 0)
    and a bool mask of the labels that count, after checking both."""
    if input.ndim == 0:
        raise ValueError("cross_entropy: input is 0-d; expected logits with a class axis")
    a = normalize_one_axis(axis, input.ndim, "cross_entropy")
    if label.dtype.kind not in "iu":
        raise TypeError(
            f"cross_entropy: label must be an integer tensor of class indices, got dtype {label.dtype}"
        )
    without = input.shape[:a] + input.shape[a + 1 :]
    with_one = input.shape[:a] + (1,) + input.shape[a + 1 :]
    if label.shape not in (without, with_one):
        raise ValueError(
            f"cross_entropy: label has shape {label.shape} for input of shape {input.shape} and axis {a}; "
            f"expected {without} or {with_one}"
        )
    xp = array_module(label)
    lab = label.reshape(without)
    valid = lab != as_int(ignore_index, "cross_entropy", "ignore_index")
    lab = xp.where(valid, lab, 0)
    classes = input.shape[a]
    check_index(lab, classes, "cross_entropy", "label", f"input has {classes} classes along axis {a}")
    return a, lab, valid


def _check_smoothing(label_smoothing):
    eps = label_smoothing
    if (
        isinstance(eps, bool)
        or not isinstance(eps, (int, float, np.integer, np.floating))
        or not 0 <= eps <= 1
    ):
        raise ValueError(f"cross_entropy: label_smoothing must be a number in [0, 1], got {eps!r}")


def _plain_labels(input, label, axis, reduction, ignore_index, label_smoothing):  # noqa: A002
    """The labels when the call is the common one: (N, C) NumPy logits, class axis last,
    1-D labels all in [0, C), an ignore_index no label can equal (so every label counts),
    no smoothing, reduction 'mean' or 'sum'. None otherwise, and then the general path
    (which also raises every error) runs. Both paths give the same bits: the fast one only
    skips the masks and index arrays that are all-true or all-zero in this case."""
    if (
        input.__class__ is not np.ndarray
        or label.__class__ is not np.ndarray
        or input.ndim != 2
        or label.ndim != 1
        or (axis != -1 and axis != 1)
        or (reduction != "mean" and reduction != "sum")
        or label_smoothing != 0.0
        or ignore_index.__class__ is not int
        or input.dtype.kind != "f"
    ):
        return None
    view = _LABEL_VIEWS.get(label.dtype, _NOT_LISTED)
    if view is _NOT_LISTED:
        return None
    n, classes = input.shape
    if n == 0 or label.shape[0] != n or 0 <= ignore_index < classes:
        return None
    # every label in [0, classes): one maximum, a negative label read as unsigned being huge;
    # found by argmax (a plain loop; the ufunc reduction's setup took ~1 us more per call)
    unsigned = label if view is None else label.view(view)
    if unsigned.item(unsigned.argmax()) >= classes:  # (a Python int: no NumPy scalar made)
        return None
    return label


def _plain_loss_sum(input, lab, row_max=None):  # noqa: A002
    """The sum over rows of -log_softmax(input)[i, lab[i]] for `_plain_labels` calls, the
    general path's numbers: the same subtraction of the row maximum, on the N values picked
    (one flat index) instead of all N*C of them.

    Each loss is written log_sum - picked, which is -(picked - log_sum) but for the sign of
    a zero or a NaN (and `_row_max` may flip a zero's sign too). The losses are zero or
    positive, so the sum sees zeros' signs only when every loss is zero, and NumPy's sum of
    zeros is 0.0 whatever their signs (it starts from 0.0; tests/test_fast_paths_mlp.py
    checks both paths on such logits). A NaN sum is redone with the general path's steps
    (`row_max` given), so that its sign bit is theirs too.

    Returns the sum, and the rows' exponentials `e` (a new array) with their sums (N, 1):
    `np.divide(e, sums, out=e)` is then `_softmax_rows(input)`, the same steps on the same
    numbers (the row sums with or without keepdims are the same reduction)."""
    n, classes = input.shape
    shifted = input - (_row_max(input) if row_max is None else row_max)
    e = np.exp(shifted)
    sums = _ROW_SUM(e, axis=1, keepdims=True)
    log_sum = np.log(sums.reshape(n))
    picked = shifted.reshape(-1)[_flat_labels(n, classes, lab)]
    if row_max is not None:
        return _ROW_SUM(-(picked - log_sum)), e, sums
    total = _ROW_SUM(np.subtract(log_sum, picked, out=log_sum))
    if total != total:  # NaN; the softmax stays the one from `_row_max`, as `_softmax_rows`'s
        return _plain_loss_sum(input, lab, _ROW_MAX(input, axis=1, keepdims=True))[0], e, sums
    return total, e, sums


def _plain_reduced(input, lab, reduction, total):  # noqa: A002
    """The loss of a `_plain_labels` call from its sum over rows."""
    if reduction == "sum":
        return nd(total)
    # the mean in float64, stored in input's dtype: what dividing the NumPy scalar by
    # np.int64(n) and astype gave (the same conversions), ~3 us less in scalar objects
    return np.asarray(float(total) / len(lab), dtype=input.dtype)


@register_kernel("cross_entropy")
@float32_inside
def cross_entropy(input, label, axis=-1, reduction="mean", ignore_index=-100, label_smoothing=0.0):  # noqa: A002
    # loss = (1 - eps) * -log p[label] + eps * mean over classes of -log p; 0 for ignored labels;
    # 'mean' divides by the number of labels that count (NaN when none does)
    lab = _plain_labels(input, label, axis, reduction, ignore_index, label_smoothing)
    if lab is not None:  # the common call: the steps below without masks or index arrays
        return _plain_reduced(input, lab, reduction, _plain_loss_sum(input, lab)[0])
    _check_reduction("cross_entropy", reduction)
    check_float("cross_entropy", "input", input)  # an integer input would give a truncated integer loss
    _check_smoothing(label_smoothing)
    xp = array_module(input)
    a, lab, valid = _class_labels(input, label, axis, ignore_index)
    logp = _log_softmax(xp, input, a)
    loss = -xp.take_along_axis(logp, xp.expand_dims(lab, a), axis=a).squeeze(a)
    if label_smoothing:
        loss = (1 - label_smoothing) * loss - label_smoothing * logp.mean(axis=a)
    loss = xp.where(valid, loss, 0).astype(input.dtype, copy=False)
    if reduction == "sum":
        return nd(loss.sum())
    if reduction == "mean":
        count = valid.sum()
        return nd(xp.where(count == 0, np.nan, loss.sum() / xp.maximum(count, 1)).astype(input.dtype))
    return nd(loss)


def _plain_grad(input, lab, out_grad, reduction, prob):  # noqa: A002
    """cross_entropy_grad of a `_plain_labels` call: (softmax - one-hot) * g, no masks.
    prob: `_softmax_rows(input)` when the forward kept it (it is copied, never written:
    a graph kept by retain_graph runs this again), or None to compute it."""
    n, classes = input.shape
    # the mean's weight: out_grad in float64 over n, as `out_grad / np.int64(n)` gave it
    weight = float(out_grad) / n if reduction == "mean" else float(out_grad)
    # (a negative w takes the float64 steps: p * w - w is +0.0 where p is 1, (p - 1) * w is -0.0)
    exact = weight > 0 and _exact_scale(weight)
    if prob is not None and exact:
        # scaled as it is copied, then w subtracted at the labels: for w a power of two
        # (`_exact_scale`) p * w - w rounds to (p - 1) * w rounded, as below, in either dtype
        # (p * w is exact, and scaling by w commutes with rounding; where p * w underflows,
        # p is far below the dtype's epsilon and both give -w); one pass over the N x C
        # values less than a copy and a scaling.
        d = np.multiply(prob, weight, order="C")  # a new array, rows contiguous for the flat index
        d.reshape(-1)[_flat_labels(n, classes, lab)] -= weight
        return d if d.dtype is input.dtype else d.astype(input.dtype, copy=False)
    d = _softmax_rows(input) if prob is None else prob  # a new array, or the saved one
    if d.dtype is not _F64 and d.dtype != _F64 and not exact:
        d = d.astype(np.float64, order="C")  # the general path's float64 steps, rounded once at the end
    elif prob is not None:
        d = prob.copy(order="C")  # ours to write into, rows contiguous for the flat index
    elif not d.flags.c_contiguous:  # (logits in another layout) the flat index below needs rows
        d = np.ascontiguousarray(d)
    d.reshape(-1)[_flat_labels(n, classes, lab)] -= 1.0  # d[i, lab[i]], one flat index
    d *= weight
    return d if d.dtype is input.dtype else d.astype(input.dtype, copy=False)  # (no call for a no-op)


# Where cross_entropy's forward keeps its softmax for the grad: NumPy float32 / float64
# logits (float16 runs in float32 inside, and would keep a rounded copy).
_SAVED_PROB_DTYPES = (np.dtype(np.float32), _F64)
# The two kernels below in one C call each for their `_plain_labels` calls on C-contiguous
# logits (runtime/_speedups.c's cross_entropy section: the same numbers bit for bit, NumPy's
# exp and log; ~8 -> ~3 us forward and ~3.4 -> ~1 us grad on 32x10 float32), returning None for
# any other call; (None, None) without the C primitives.
_PLAIN_C, _PLAIN_GRAD_C = _accel.cross_entropy()


@register_kernel("cross_entropy_and_prob")
def cross_entropy_and_prob(input, label, axis=-1, reduction="mean", ignore_index=-100, label_smoothing=0.0):  # noqa: A002
    """The op cross_entropy's kernel: the loss (the `cross_entropy` kernel's), and `prob`,
    the intermediate output its grad reads. For a `_plain_labels` call on NumPy float32 or
    float64 logits, that is the softmax the loss computed anyway (one divide more, N x C
    values; the generated op keeps it only when it records a node, until backward), which
    spares the grad the row maximum, exp and sums (~5 us of the MLP step, issue 11).
    Elsewhere (the general path computes log-softmax, float16 runs in float32) it is an
    empty array, and the grad computes the softmax as it always did."""
    if _PLAIN_C is not None:
        both = _PLAIN_C(input, label, axis, reduction, ignore_index, label_smoothing)
        if both is not None:
            return both
    if input.__class__ is np.ndarray and input.dtype in _SAVED_PROB_DTYPES:
        lab = _plain_labels(input, label, axis, reduction, ignore_index, label_smoothing)
        if lab is not None:
            total, e, sums = _plain_loss_sum(input, lab)
            return _plain_reduced(input, lab, reduction, total), np.divide(e, sums, out=e)
    loss = cross_entropy(input, label, axis, reduction, ignore_index, label_smoothing)
    return loss, array_module(loss).empty((0,), dtype=loss.dtype)


@register_kernel("cross_entropy_grad_saved")
def cross_entropy_grad_saved(
    input, label, prob, out_grad, axis=-1, reduction="mean", ignore_index=-100, label_smoothing=0.0
):  # noqa: A002
    """The grad op cross_entropy_grad's kernel: the `cross_entropy_grad` kernel's result,
    starting from prob, the forward's softmax (`cross_entropy_and_prob`), where it has
    input's shape, dtype and array type and the call is a `_plain_labels` one (the softmax
    that path computes, bit for bit); otherwise (prob empty) computing it."""
    if _PLAIN_GRAD_C is not None:
        d = _PLAIN_GRAD_C(input, label, prob, out_grad, axis, reduction, ignore_index, label_smoothing)
        if d is not None:
            return d
    if (
        prob.__class__ is np.ndarray
        and input.__class__ is np.ndarray
        and prob.shape == input.shape
        and prob.dtype == input.dtype
        and input.dtype in _SAVED_PROB_DTYPES
    ):
        lab = _plain_labels(input, label, axis, reduction, ignore_index, label_smoothing)
        if lab is not None:
            return _plain_grad(input, lab, out_grad, reduction, prob)
    return cross_entropy_grad(input, label, out_grad, axis, reduction, ignore_index, label_smoothing)


@register_kernel("cross_entropy_grad")
@float32_inside
def cross_entropy_grad(
    input, label, out_grad, axis=-1, reduction="mean", ignore_index=-100, label_smoothing=0.0
):  # noqa: A002
    lab = _plain_labels(input, label, axis, reduction, ignore_index, label_smoothing)
    if lab is not None:  # the common call: (softmax - one-hot) * g as below, no masks
        return _plain_grad(input, lab, out_grad, reduction, None)
    xp = array_module(input)
    a, lab, valid = _class_labels(input, label, axis, ignore_index)
    classes = xp.arange(input.shape[a]).reshape((-1,) + (1,) * (input.ndim - a - 1))
    target = (classes == xp.expand_dims(lab, a)) * (1 - label_smoothing) + label_smoothing / input.shape[a]
    if reduction == "none":
        g = out_grad
    elif reduction == "mean":
        g = out_grad / xp.maximum(valid.sum(), 1)
    else:
        g = out_grad
    g = xp.expand_dims(xp.where(valid, g, 0), a)
    return ((_softmax(xp, input, a) - target) * g).astype(input.dtype, copy=False)


@register_kernel("cross_entropy_double_grad")
@float32_inside
def cross_entropy_double_grad(
    input, label, out_grad, input_grad_grad, axis=-1, reduction="mean", ignore_index=-100, label_smoothing=0.0
):  # noqa: A002
    # cross_entropy_grad is (softmax(input) - target) * g with g the per-sample weight (from
    # out_grad, the reduction and the ignored labels); target does not depend on input.
    xp = array_module(input)
    a, lab, valid = _class_labels(input, label, axis, ignore_index)
    p = _softmax(xp, input, a)
    count = xp.maximum(valid.sum(), 1)
    g = out_grad / count if reduction == "mean" else out_grad
    g = xp.expand_dims(xp.where(valid, g, 0), a)
    h = input_grad_grad
    grad_wrt_input = g * p * (h - (h * p).sum(axis=a, keepdims=True))
    classes = xp.arange(input.shape[a]).reshape((-1,) + (1,) * (input.ndim - a - 1))
    target = (classes == xp.expand_dims(lab, a)) * (1 - label_smoothing) + label_smoothing / input.shape[a]
    # d/d out_grad: the per-sample directional derivative along h, masked, then the reduction
    q = xp.where(valid, ((p - target) * h).sum(axis=a), 0)
    if reduction == "sum":
        q = q.sum()
    elif reduction == "mean":
        q = q.sum() / count
    return (
        nd(grad_wrt_input.astype(input.dtype, copy=False)),
        nd(xp.asarray(q).reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


@register_kernel("mse_loss")
@float32_inside
def mse_loss(input, label, reduction="mean"):  # noqa: A002
    _check_reduction("mse_loss", reduction)
    check_float("mse_loss", "input", input)  # an integer input would give a truncated integer loss
    check_loss_shapes("mse_loss", input, label)
    diff = input - label
    sq = diff * diff
    if reduction == "sum":
        return nd(sq.sum())
    if reduction == "mean":
        return nd(sq.mean())
    return nd(sq)


@register_kernel("mse_loss_grad")
@float32_inside
def mse_loss_grad(input, label, out_grad, reduction="mean"):  # noqa: A002
    diff = input - label
    g = out_grad / diff.size if reduction == "mean" else out_grad
    d = diff * (2 * g)
    return unbroadcast(d, input.shape, input.dtype), unbroadcast(-d, label.shape, label.dtype)


@register_kernel("mse_loss_double_grad")
@float32_inside
def mse_loss_double_grad(input, label, out_grad, input_grad_grad, label_grad_grad, reduction="mean"):  # noqa: A002
    diff = input - label
    g = out_grad / diff.size if reduction == "mean" else out_grad
    d = input_grad_grad - label_grad_grad
    x_grad = 2 * g * d
    q = 2 * diff * d
    if reduction == "sum":
        q = q.sum()
    elif reduction == "mean":
        q = q.sum() / diff.size
    xp = array_module(diff)
    return (
        unbroadcast(x_grad, input.shape, input.dtype),
        unbroadcast(-x_grad, label.shape, label.dtype),
        nd(xp.asarray(q).reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


def _check_p(p, x):
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) or not 0 <= p <= 1:
        raise ValueError(f"dropout: p must be a number in [0, 1], got {p!r}")
    if x.dtype.kind != "f":
        raise TypeError(f"dropout: x must be a floating tensor, got dtype {x.dtype}")


@register_kernel("dropout")
def dropout(x, p=0.5, training=True):
    _check_p(p, x)
    xp = array_module(x)
    if not training or p == 0:
        # a copy: dropout is not a view op, so out must not share x's memory (or its writes)
        return x.copy(), xp.broadcast_to(xp.ones((), dtype=bool), x.shape)
    if p == 1:
        return xp.zeros_like(x), xp.zeros(x.shape, dtype=bool)
    mask = generator_for(xp).random(x.shape, dtype=np.float32) >= p
    out = x * mask
    out *= 1.0 / (1.0 - p)
    return nd(out), nd(mask)


@register_kernel("dropout_grad")
def dropout_grad(mask, out_grad, p=0.5, training=True):
    if not training or p == 0:
        return out_grad
    if p == 1:
        return array_module(out_grad).zeros_like(out_grad)
    x_grad = out_grad * mask
    x_grad *= 1.0 / (1.0 - p)
    return nd(x_grad)


@register_kernel("one_hot")
def one_hot(x, num_classes):
    n = as_int(num_classes, "one_hot", "num_classes")
    if n <= 0:
        raise ValueError(f"one_hot: num_classes must be positive, got {n}")
    check_index(x, n, "one_hot", "x", f"num_classes == {n}")
    xp = array_module(x)
    try:
        return (x[..., None] == xp.arange(n)).astype(np.float32)
    except (MemoryError, ValueError) as e:
        raise allocation_error("one_hot", "num_classes", n, e) from None


@register_kernel("embedding")
def embedding(x, weight):
    if weight.ndim != 2:
        raise ValueError(f"embedding: weight must be 2-D (num_embeddings, dim), got shape {weight.shape}")
    check_index(x, weight.shape[0], "embedding", "x", f"weight has {weight.shape[0]} rows")
    return array_module(weight).take(weight, x, axis=0)


@register_kernel("embedding_grad")
def embedding_grad(x, weight, out_grad):
    xp = array_module(out_grad)
    weight_grad = xp.zeros(weight.shape, out_grad.dtype)
    # (x.size, D), not (-1, D): reshape cannot infer -1 when D is 0
    scatter_add(weight_grad, 0, x.reshape(-1), out_grad.reshape(x.size, weight.shape[1]))
    return weight_grad.astype(weight.dtype, copy=False)
