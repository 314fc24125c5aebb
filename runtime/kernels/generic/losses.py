"""Loss kernels (nll_loss, binary_cross_entropy_with_logits, l1_loss, smooth_l1_loss,
kl_div), their grads, and the double grads that are kernels. (cross_entropy and mse_loss
are in `nn.py`; var, std and norm in `reduction.py`.)

Every loss computes an elementwise loss, then reduces it (`_reduce`); its grad kernel first
turns `out_grad` into the gradient of that elementwise loss (`_spread`), so the reduction
logic lives in one place. Gradients of broadcast operands go through `unbroadcast`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from opgrad.runtime.kernels.common import (
    array_module,
    broadcast_shapes,
    check_float,
    check_index,
    check_loss_shapes,
    nd,
    stable_sigmoid,
    unbroadcast,
)
from opgrad.runtime.kernels.generic.indexing import grid_index
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(op, reduction, allowed=_REDUCTIONS):
    if reduction not in allowed:
        names = ", ".join(repr(r) for r in allowed)
        raise ValueError(f"{op}: reduction must be one of {names}; got {reduction!r}")


def _reduce(loss, reduction, count=None):
    """The elementwise `loss` reduced; 'mean' divides by `count` (default: loss.size)."""
    if reduction == "none":
        return nd(loss)
    total = loss.sum()
    if reduction == "sum":
        return nd(total)
    return nd(total / (loss.size if count is None else count))


def _spread(out_grad, shape, reduction, count=None):
    """out_grad as the gradient of the elementwise loss of `shape` (broadcast, not copied)."""
    xp = array_module(out_grad)
    if reduction == "none":
        return out_grad
    n = math.prod(shape) if count is None else count
    g = out_grad / n if reduction != "sum" else out_grad
    return xp.broadcast_to(g, shape)


# --- nll_loss --------------------------------------------------------------------------------


def _nll_layout(input, label, weight, ignore_index):  # noqa: A002 - Paddle's names
    """(class axis, safe labels, per-element weights with 0 at ignored labels)."""
    op = "nll_loss"
    xp = array_module(input)
    check_float(op, "input", input)
    if input.ndim == 0:
        raise ValueError(f"{op}: input is 0-d; expected (C,), (N, C) or (N, C, d1, ...) log-probabilities")
    a = 0 if input.ndim == 1 else 1
    if label.dtype.kind not in "iu":
        raise TypeError(f"{op}: label must be an integer tensor of class indices, got dtype {label.dtype}")
    want = input.shape[:a] + input.shape[a + 1 :]
    if tuple(label.shape) != want:
        raise ValueError(
            f"{op}: label has shape {label.shape} for input of shape {input.shape}; expected {want}"
        )
    classes = input.shape[a]
    valid = label != ignore_index
    safe = xp.where(valid, label, 0)
    check_index(safe, classes, op, "label", f"input has {classes} classes along axis {a}")
    if weight is None:
        w = valid.astype(input.dtype)
    else:
        if tuple(weight.shape) != (classes,):
            raise ValueError(f"{op}: weight has shape {weight.shape}; expected ({classes},), one per class")
        w = xp.where(valid, weight.astype(input.dtype, copy=False)[safe], 0)
    return a, safe, w


def _safe_total(xp, w):
    """(sum of w, the same with 0 replaced by 1): 'mean' of nothing counted is NaN, its grad 0."""
    total = w.sum()
    return total, xp.where(total == 0, 1, total)


@register_kernel("nll_loss")
@float32_inside
def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean"):  # noqa: A002
    _check_reduction("nll_loss", reduction)
    check_float("nll_loss", "input", input)  # integer input would give a truncated integer loss
    xp = array_module(input)
    a, safe, w = _nll_layout(input, label, weight, ignore_index)
    picked = xp.take_along_axis(input, xp.expand_dims(safe, a), axis=a).squeeze(a)
    loss = -w * picked
    if reduction != "mean":
        return _reduce(loss, reduction)
    total, safe_total = _safe_total(xp, w)
    return nd(xp.where(total == 0, np.nan, loss.sum() / safe_total).astype(input.dtype))


@register_kernel("nll_loss_grad")
@float32_inside
def nll_loss_grad(input, label, weight, out_grad, ignore_index=-100, reduction="mean"):  # noqa: A002
    xp = array_module(out_grad)
    a, safe, w = _nll_layout(input, label, weight, ignore_index)
    if reduction == "mean":
        _, safe_total = _safe_total(xp, w)
        g = out_grad / safe_total
    else:
        g = out_grad
    grad = xp.zeros(input.shape, input.dtype)
    grad[grid_index(xp, xp.expand_dims(safe, a), a)] = xp.expand_dims(-w * g, a)
    return grad


# --- binary_cross_entropy_with_logits --------------------------------------------------------


def _bce_check(logit, label, weight, pos_weight):
    op = "binary_cross_entropy_with_logits"
    check_float(op, "logit", logit)
    if tuple(label.shape) != tuple(logit.shape):
        raise ValueError(f"{op}: label has shape {label.shape}; expected logit's shape {logit.shape}")
    for name, t in (("weight", weight), ("pos_weight", pos_weight)):
        if t is not None and broadcast_shapes(op, logit.shape, t.shape, names=("logit", name)) != tuple(
            logit.shape
        ):
            raise ValueError(f"{op}: {name} has shape {t.shape}, which does not broadcast to {logit.shape}")


def _softplus_neg(xp, x):
    """softplus(-x) = -log(sigmoid(x)) = log1p(exp(-|x|)) + max(-x, 0), without overflow."""
    return xp.log1p(xp.exp(-xp.abs(x))) + xp.maximum(-x, 0)


@register_kernel("binary_cross_entropy_with_logits")
@float32_inside
def binary_cross_entropy_with_logits(logit, label, weight=None, pos_weight=None, reduction="mean"):
    # tensors first (optional ones as None), then attributes: contracts §1
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    _bce_check(logit, label, weight, pos_weight)
    xp = array_module(logit)
    sp = _softplus_neg(xp, logit)
    if pos_weight is None:
        loss = (1 - label) * logit + sp
    else:
        loss = (1 - label) * logit + (1 + (pos_weight - 1) * label) * sp
    if weight is not None:
        loss = loss * weight
    return _reduce(loss.astype(logit.dtype, copy=False), reduction)


@register_kernel("binary_cross_entropy_with_logits_grad")
@float32_inside
def binary_cross_entropy_with_logits_grad(logit, label, weight, pos_weight, out_grad, reduction="mean"):
    xp = array_module(logit)
    g = _spread(out_grad, logit.shape, reduction)
    if weight is not None:
        g = g * weight
    e = xp.exp(-xp.abs(logit))
    sig_neg = xp.where(logit >= 0, e, 1) / (1 + e)  # sigmoid(-logit)
    if pos_weight is None:
        logit_grad = (1 - label) - sig_neg
        label_grad = -logit
    else:
        logit_grad = (1 - label) - (1 + (pos_weight - 1) * label) * sig_neg
        label_grad = -logit + (pos_weight - 1) * _softplus_neg(xp, logit)
    return (
        unbroadcast(logit_grad * g, logit.shape, logit.dtype),
        unbroadcast(label_grad * g, label.shape, label.dtype),
    )


def _gather(t: Any, out_grad: Any, reduction: str, count: int | None = None) -> Any:
    """The adjoint of `_spread`: an elementwise term summed back to out_grad's shape."""
    if reduction == "none":
        return nd(t.astype(out_grad.dtype, copy=False))
    total = t.sum()
    if reduction != "sum":
        total = total / (t.size if count is None else count)
    return nd(array_module(t).asarray(total, dtype=out_grad.dtype).reshape(out_grad.shape))


@register_kernel("binary_cross_entropy_with_logits_double_grad")
@float32_inside
def binary_cross_entropy_with_logits_double_grad(
    logit, label, weight, pos_weight, out_grad, logit_grad_grad, label_grad_grad, reduction="mean"
):
    # grad_wrt_logit = G (1 - y - c q), grad_wrt_label = G (-l + (pw - 1) softplus(-l)), with
    # G = spread(g) w, c = 1 + (pw - 1) y, q = sigmoid(-l) and dq/dl = -q (1 - q).
    xp = array_module(logit)
    shape = logit.shape
    big_g = _spread(out_grad, shape, reduction)
    w = 1.0 if weight is None else weight
    big_g = big_g * w
    q = stable_sigmoid(xp, -logit)
    pw1 = 0.0 if pos_weight is None else pos_weight - 1
    c = 1 + pw1 * label
    a, b = logit_grad_grad, label_grad_grad
    grad_wrt_logit = big_g * (a * c * q * (1 - q) - b * (1 + pw1 * q))
    grad_wrt_label = big_g * a * -(1 + pw1 * q)
    term = w * (a * (1 - label - c * q) + b * (-logit + pw1 * _softplus_neg(xp, logit)))
    return (
        unbroadcast(grad_wrt_logit, logit.shape, logit.dtype),
        unbroadcast(grad_wrt_label, label.shape, label.dtype),
        _gather(xp.broadcast_to(term, shape), out_grad, reduction),
    )


# --- l1_loss, smooth_l1_loss -----------------------------------------------------------------


def _difference(op, input, label):  # noqa: A002
    check_loss_shapes(op, input, label)
    return input - label


@register_kernel("l1_loss")
@float32_inside
def l1_loss(input, label, reduction="mean"):  # noqa: A002
    _check_reduction("l1_loss", reduction)
    check_float("l1_loss", "input", input)  # integer input would give a truncated integer loss
    return _reduce(array_module(input).abs(_difference("l1_loss", input, label)), reduction)


@register_kernel("l1_loss_grad")
@float32_inside
def l1_loss_grad(input, label, out_grad, reduction="mean"):  # noqa: A002
    xp = array_module(input)
    d = input - label
    g = xp.sign(d) * _spread(out_grad, d.shape, reduction)
    return unbroadcast(g, input.shape, input.dtype), unbroadcast(-g, label.shape, label.dtype)


def _loss_grad_wrt_out_grad(slope, input_grad_grad, label_grad_grad, out_grad, reduction):
    """d/d out_grad of <input_grad, a> + <label_grad, b> for input_grad = slope * spread(g)."""
    q = _reduce(slope * (input_grad_grad - label_grad_grad), reduction)
    return nd(array_module(q).asarray(q).reshape(out_grad.shape).astype(out_grad.dtype, copy=False))


@register_kernel("l1_loss_double_grad")
@float32_inside
def l1_loss_double_grad(input, label, out_grad, input_grad_grad, label_grad_grad, reduction="mean"):  # noqa: A002
    # sign(input - label) is piecewise constant: only out_grad has a second derivative
    slope = array_module(input).sign(input - label)
    return _loss_grad_wrt_out_grad(slope, input_grad_grad, label_grad_grad, out_grad, reduction)


def _check_delta(delta):
    if (
        isinstance(delta, bool)
        or not isinstance(delta, (int, float, np.integer, np.floating))
        or not delta > 0
    ):
        raise ValueError(f"smooth_l1_loss: delta must be a positive number, got {delta!r}")


@register_kernel("smooth_l1_loss")
@float32_inside
def smooth_l1_loss(input, label, reduction="mean", delta=1.0):  # noqa: A002
    _check_reduction("smooth_l1_loss", reduction)
    check_float("smooth_l1_loss", "input", input)  # integer input would give a truncated integer loss
    _check_delta(delta)
    xp = array_module(input)
    d = _difference("smooth_l1_loss", input, label)
    ad = xp.abs(d)
    loss = xp.where(ad < delta, 0.5 * d * d, delta * (ad - 0.5 * delta))
    return _reduce(loss.astype(d.dtype, copy=False), reduction)


@register_kernel("smooth_l1_loss_grad")
@float32_inside
def smooth_l1_loss_grad(input, label, out_grad, reduction="mean", delta=1.0):  # noqa: A002
    xp = array_module(input)
    d = input - label
    g = xp.where(xp.abs(d) < delta, d, delta * xp.sign(d)) * _spread(out_grad, d.shape, reduction)
    return unbroadcast(g, input.shape, input.dtype), unbroadcast(-g, label.shape, label.dtype)


@register_kernel("smooth_l1_loss_double_grad")
@float32_inside
def smooth_l1_loss_double_grad(
    input, label, out_grad, input_grad_grad, label_grad_grad, reduction="mean", delta=1.0
):  # noqa: A002
    xp = array_module(input)
    d = input - label
    inside = xp.abs(d) < delta
    slope = xp.where(inside, d, delta * xp.sign(d))
    g = inside * (input_grad_grad - label_grad_grad) * _spread(out_grad, d.shape, reduction)
    return (
        unbroadcast(g, input.shape, input.dtype),
        unbroadcast(-g, label.shape, label.dtype),
        _loss_grad_wrt_out_grad(slope, input_grad_grad, label_grad_grad, out_grad, reduction),
    )


# --- kl_div ----------------------------------------------------------------------------------

_KL_REDUCTIONS = ("mean", "batchmean", "sum", "none")


def _kl_count(shape, reduction):
    """What 'mean' and 'batchmean' divide by: every element, or the batch size (axis 0)."""
    if reduction == "batchmean":
        return shape[0] if len(shape) else 1
    return math.prod(shape)


@register_kernel("kl_div")
@float32_inside
def kl_div(input, label, reduction="mean", log_target=False):  # noqa: A002
    _check_reduction("kl_div", reduction, _KL_REDUCTIONS)
    check_float("kl_div", "input", input)  # integer input would give a truncated integer loss
    xp = array_module(input)
    check_loss_shapes("kl_div", input, label)
    shape = tuple(input.shape)
    if log_target:
        loss = xp.exp(label) * (label - input)
    else:
        positive = label > 0
        loss = xp.where(positive, label * (xp.log(xp.where(positive, label, 1)) - input), 0)
    if reduction == "none":
        return nd(loss)
    count = _kl_count(shape, reduction) if reduction != "sum" else None
    return _reduce(loss, "mean" if count is not None else "sum", count)


@register_kernel("kl_div_grad")
@float32_inside
def kl_div_grad(input, label, out_grad, reduction="mean", log_target=False):  # noqa: A002
    xp = array_module(input)
    check_loss_shapes("kl_div", input, label)
    shape = tuple(input.shape)
    if reduction in ("mean", "batchmean"):
        g = _spread(out_grad, shape, "mean", _kl_count(shape, reduction))
    else:
        g = _spread(out_grad, shape, reduction)
    if log_target:
        p = xp.exp(label)
        input_grad = -p * g
        label_grad = p * (label - input + 1) * g
    else:
        positive = label > 0
        input_grad = -xp.where(positive, label, 0) * g
        label_grad = xp.where(positive, xp.log(xp.where(positive, label, 1)) + 1 - input, 0) * g
    return unbroadcast(input_grad, input.shape, input.dtype), unbroadcast(
        label_grad, label.shape, label.dtype
    )


@register_kernel("kl_div_double_grad")
@float32_inside
def kl_div_double_grad(
    input, label, out_grad, input_grad_grad, label_grad_grad, reduction="mean", log_target=False
):  # noqa: A002
    xp = array_module(input)
    shape = broadcast_shapes("kl_div", input.shape, label.shape, names=("input", "label"))
    count = _kl_count(shape, reduction) if reduction in ("mean", "batchmean") else None
    g = _spread(out_grad, shape, "mean", count) if count is not None else _spread(out_grad, shape, reduction)
    a, b = input_grad_grad, label_grad_grad
    if log_target:
        pr = xp.exp(label)
        grad_wrt_input = -b * pr * g
        grad_wrt_label = pr * g * (-a + b * (label - input + 2))
        term = a * -pr + b * pr * (label - input + 1)
    else:
        positive = label > 0
        safe = xp.where(positive, label, 1)
        grad_wrt_input = xp.where(positive, -b * g, 0)
        grad_wrt_label = xp.where(positive, g * (-a + b / safe), 0)
        term = a * -xp.where(positive, label, 0) + b * xp.where(positive, xp.log(safe) + 1 - input, 0)
    term = xp.broadcast_to(term, shape)
    if count is not None:
        grad_wrt_out_grad = _gather(term, out_grad, "mean", count)
    else:
        grad_wrt_out_grad = _gather(term, out_grad, reduction)
    return (
        unbroadcast(grad_wrt_input, input.shape, input.dtype),
        unbroadcast(grad_wrt_label, label.shape, label.dtype),
        grad_wrt_out_grad,
    )
