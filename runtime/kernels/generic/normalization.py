"""Normalisation kernels (NCHW): layer_norm, batch_norm, group_norm, their grads and
double grads.

The norms save mean and 1/std (`rstd`) as intermediates. batch_norm follows Paddle:
running = momentum * running + (1 - momentum) * batch statistic, the running variance
from the unbiased batch variance; in training it updates the running arrays IN PLACE
(they are buffers without gradient); in eval its saved mean/rstd come from them, so one
grad kernel serves both modes.

The double-grad kernels take the grad op's tensors, then the gradients of the grad op's
outputs (None for the gradient of an absent weight's gradient), then the forward op's
attributes. The saved statistics are functions of the inputs: their dependence is folded
into the inputs' gradients (total derivatives), so they get no gradient of their own.
"""

from __future__ import annotations

import math
import string
from typing import Any

from opgrad.runtime.kernels.common import array_module, as_int, as_int_list, check_float
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel


def _check_affine(op: str, arg: str, t: Any, shape: tuple[int, ...]) -> None:
    if t is not None and tuple(t.shape) != tuple(shape):
        raise ValueError(f"{op}: {arg} must have shape {tuple(shape)}, got {tuple(t.shape)}")


# einsum adds in SIMD lanes straight through a row, NumPy's sum pairwise along a contiguous
# axis: on a million float32 values that is ~4e-6 relative error against ~3e-8. Up to this
# many values per sum the difference is below float32's rounding of the result's use.
_EINSUM_MAX_COUNT = 8192


def _sum_over(xp: Any, axes: tuple[int, ...], a: Any, b: Any = None) -> Any:
    """sum(a) or sum(a * b) over `axes`, keepdims, through einsum: no product array, and
    several times faster than sum() over the non-contiguous axes (0, 2, 3) of NCHW."""
    count = math.prod(a.shape[i] for i in axes)
    if (b is not None and b.shape != a.shape) or count > _EINSUM_MAX_COUNT:  # einsum does not broadcast
        return (a if b is None else a * b).sum(axis=axes, keepdims=True)
    names = string.ascii_letters[: a.ndim]
    kept = "".join(c for i, c in enumerate(names) if i not in axes)
    total = xp.einsum(f"{names}->{kept}", a) if b is None else xp.einsum(f"{names},{names}->{kept}", a, b)
    return total.reshape([1 if i in axes else n for i, n in enumerate(a.shape)])


def _mean_over(xp: Any, axes: tuple[int, ...], a: Any, b: Any = None) -> Any:
    """mean(a) or mean(a * b) over `axes`, keepdims (`_sum_over`; NumPy's mean when empty)."""
    count = math.prod(a.shape[i] for i in axes)
    if count == 0:
        return (a if b is None else a * b).mean(axis=axes, keepdims=True)
    total = _sum_over(xp, axes, a, b)
    total /= count
    return total


def _norm_backward(xhat: Any, rstd: Any, gxhat: Any, axes: tuple[int, ...], scratch: bool = False) -> Any:
    """d/dx of (x - mean(x)) * rstd over `axes`, given the gradient of xhat. With `scratch`
    (xhat and gxhat are fresh arrays of the result's shape and dtype, not needed after) the
    result is computed in their buffers, with the same roundings in the same order."""
    xp = array_module(xhat)
    m1 = _mean_over(xp, axes, gxhat)
    m2 = _mean_over(xp, axes, gxhat, xhat)
    if not scratch:
        return rstd * (gxhat - m1 - xhat * m2)
    gxhat -= m1
    xhat *= m2
    gxhat -= xhat
    gxhat *= rstd
    return gxhat


def _owns_result(x: Any, *others: Any) -> bool:
    """True when in-place arithmetic on fresh arrays shaped like x gives the general path's
    values: x is float32 or float64 and every other array (or None) has its dtype."""
    dt = x.dtype
    return dt.kind == "f" and dt.itemsize >= 4 and all(a is None or a.dtype == dt for a in others)


def _affine_grads(
    weight: Any, bias: Any, xhat: Any, out_grad: Any, axes: tuple[int, ...], shape: tuple
) -> tuple:
    xp = array_module(xhat)
    weight_grad: Any = None if weight is None else _sum_over(xp, axes, out_grad, xhat).reshape(shape)
    bias_grad: Any = None if bias is None else _sum_over(xp, axes, out_grad).reshape(shape)
    return (
        None if weight is None else weight_grad.astype(weight.dtype, copy=False),
        None if bias is None else bias_grad.astype(bias.dtype, copy=False),
    )


def _check_epsilon(op: str, epsilon: Any) -> None:
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or epsilon < 0:
        raise ValueError(f"{op}: epsilon must be a non-negative number, got {epsilon!r}")


def _layer_axes(x: Any, normalized_shape: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = tuple(as_int_list(normalized_shape, "layer_norm", "normalized_shape"))
    k = len(shape)
    if k == 0 or k > x.ndim or tuple(x.shape[x.ndim - k :]) != shape:
        raise ValueError(
            f"layer_norm: normalized_shape {list(shape)} must be a non-empty suffix of "
            f"x's shape {tuple(x.shape)}"
        )
    return shape, tuple(range(x.ndim - k, x.ndim))


@register_kernel("layer_norm")
@float32_inside
def layer_norm(x, weight, bias, normalized_shape, epsilon=1e-5):
    check_float("layer_norm", "x", x)
    _check_epsilon("layer_norm", epsilon)
    xp = array_module(x)
    shape, axes = _layer_axes(x, normalized_shape)
    _check_affine("layer_norm", "weight", weight, shape)
    _check_affine("layer_norm", "bias", bias, shape)
    mean = _mean_over(xp, axes, x)
    centered = x - mean
    rstd = 1.0 / xp.sqrt(_mean_over(xp, axes, centered, centered) + epsilon)
    if _owns_result(x, mean, rstd, weight, bias):  # the same steps in centered's buffer
        centered *= rstd
        if weight is not None:
            centered *= weight
        if bias is not None:
            centered += bias
        return centered, mean, rstd
    out = centered * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out.astype(x.dtype, copy=False), mean, rstd.astype(x.dtype, copy=False)


@register_kernel("layer_norm_grad")
@float32_inside
def layer_norm_grad(x, weight, bias, mean, rstd, out_grad, normalized_shape, epsilon=1e-5):
    shape, axes = _layer_axes(x, normalized_shape)
    own = _owns_result(x, mean, rstd, weight, out_grad)
    xhat = x - mean
    if own:
        xhat *= rstd
    else:
        xhat = xhat * rstd
    gxhat = out_grad if weight is None else out_grad * weight
    lead = tuple(range(x.ndim - len(shape)))
    affine = _affine_grads(weight, bias, xhat, out_grad, lead, shape)  # before xhat is reused
    scratch = own and weight is not None  # gxhat is then a fresh array too
    x_grad = _norm_backward(xhat, rstd, gxhat, axes, scratch).astype(x.dtype, copy=False)
    return (x_grad, *affine)


def _channel_shape(x: Any) -> tuple[int, ...]:
    """Broadcast shape of a per-channel (axis 1) vector against x."""
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


@register_kernel("batch_norm")
@float32_inside
def batch_norm(
    x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9, epsilon=1e-5
):
    op = "batch_norm"
    check_float(op, "x", x)
    _check_epsilon(op, epsilon)
    if x.ndim < 2:
        raise ValueError(
            f"batch_norm: x must have a batch and a channel axis (N, C, ...), got shape {x.shape}"
        )
    c = x.shape[1]
    for arg, t in (
        ("running_mean", running_mean),
        ("running_var", running_var),
        ("weight", weight),
        ("bias", bias),
    ):
        _check_affine(op, arg, t, (c,))
    if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
        raise ValueError(f"batch_norm: momentum must be a number in [0, 1], got {momentum!r}")
    xp = array_module(x)
    axes = (0,) + tuple(range(2, x.ndim))
    cshape = _channel_shape(x)
    if training:
        for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
            # checked before either is written: an error must leave both as they were
            if t.dtype.kind != "f" or not getattr(t.flags, "writeable", True):
                kind = "read-only" if t.dtype.kind == "f" else f"{t.dtype}"
                raise TypeError(
                    f"batch_norm: {arg} is updated in place in training; expected a writeable "
                    f"float array, got a {kind} array"
                )
        count = x.size // c
        if count < 2:
            raise ValueError(
                f"batch_norm: training needs more than one value per channel, got x of shape {x.shape}"
            )
        mean = _mean_over(xp, axes, x)
        centered = x - mean
        var = _mean_over(xp, axes, centered, centered)
        # the running buffers are updated in place (Paddle's momentum convention)
        running_mean *= momentum
        running_mean += (1 - momentum) * mean.reshape(c)
        running_var *= momentum
        running_var += (1 - momentum) * var.reshape(c) * (count / (count - 1))
    else:
        mean = xp.array(running_mean, dtype=x.dtype).reshape(cshape)  # a copy: the buffers may change
        centered = x - mean
        var = running_var.reshape(cshape).astype(x.dtype, copy=False)
    rstd = (1.0 / xp.sqrt(var + epsilon)).astype(x.dtype, copy=False)
    if _owns_result(x, centered, rstd, weight, bias):  # the same steps in centered's buffer
        out = centered
        out *= rstd
        if weight is not None:
            out *= weight.reshape(cshape)
        if bias is not None:
            out += bias.reshape(cshape)
        return out, mean, rstd
    out = centered * rstd
    if weight is not None:
        out = out * weight.reshape(cshape)
    if bias is not None:
        out = out + bias.reshape(cshape)
    return out.astype(x.dtype, copy=False), mean, rstd


@register_kernel("batch_norm_grad")
@float32_inside
def batch_norm_grad(
    x, weight, bias, saved_mean, saved_rstd, out_grad, training=False, momentum=0.9, epsilon=1e-5
):
    axes = (0,) + tuple(range(2, x.ndim))
    cshape = _channel_shape(x)
    own = _owns_result(x, saved_mean, saved_rstd, weight, out_grad)
    xhat = x - saved_mean
    if own:
        xhat *= saved_rstd
    else:
        xhat = xhat * saved_rstd
    gxhat = out_grad if weight is None else out_grad * weight.reshape(cshape)
    affine = _affine_grads(weight, bias, xhat, out_grad, axes, (x.shape[1],))  # before xhat is reused
    if training:
        x_grad = _norm_backward(xhat, saved_rstd, gxhat, axes, own and weight is not None)
    else:  # the statistics are constants
        x_grad = gxhat * saved_rstd
    return (x_grad.astype(x.dtype, copy=False), *affine)


def _groups(x: Any, num_groups: Any) -> int:
    g = as_int(num_groups, "group_norm", "num_groups")
    if x.ndim < 2:
        raise ValueError(
            f"group_norm: x must have a batch and a channel axis (N, C, ...), got shape {x.shape}"
        )
    if g < 1 or x.shape[1] % g:
        raise ValueError(
            f"group_norm: num_groups must be a positive divisor of the channel count {x.shape[1]}, "
            f"got {num_groups!r}"
        )
    return g


def _grouped(x: Any, g: int) -> tuple[int, int, int]:
    """(N, G, entries per group): x's shape for per-group statistics (also when N is 0,
    where a -1 in reshape would be ambiguous)."""
    return (x.shape[0], g, math.prod(x.shape[1:]) // g)


@register_kernel("group_norm")
@float32_inside
def group_norm(x, weight, bias, num_groups, epsilon=1e-5):
    check_float("group_norm", "x", x)
    _check_epsilon("group_norm", epsilon)
    xp = array_module(x)
    g = _groups(x, num_groups)
    _check_affine("group_norm", "weight", weight, (x.shape[1],))
    _check_affine("group_norm", "bias", bias, (x.shape[1],))
    xg = x.reshape(_grouped(x, g))
    mean = xg.mean(axis=2, keepdims=True)
    centered = xg - mean
    rstd = (1.0 / xp.sqrt((centered * centered).mean(axis=2, keepdims=True) + epsilon)).astype(
        x.dtype, copy=False
    )
    out = (centered * rstd).reshape(x.shape)
    cshape = _channel_shape(x)
    if weight is not None:
        out = out * weight.reshape(cshape)
    if bias is not None:
        out = out + bias.reshape(cshape)
    return out.astype(x.dtype, copy=False), mean, rstd


@register_kernel("group_norm_grad")
@float32_inside
def group_norm_grad(x, weight, bias, mean, rstd, out_grad, num_groups, epsilon=1e-5):
    g = _groups(x, num_groups)
    cshape = _channel_shape(x)
    grouped = _grouped(x, g)
    xhat = ((x.reshape(grouped) - mean) * rstd).reshape(x.shape)
    gxhat = out_grad if weight is None else out_grad * weight.reshape(cshape)
    x_grad = _norm_backward(xhat.reshape(grouped), rstd, gxhat.reshape(grouped), (2,)).reshape(x.shape)
    axes = (0,) + tuple(range(2, x.ndim))
    return (
        x_grad.astype(x.dtype, copy=False),
        *_affine_grads(weight, bias, xhat, out_grad, axes, (x.shape[1],)),
    )


def _norm_double(xhat: Any, r: Any, g: Any, w: Any, ddx: Any, ddw: Any, ddb: Any, axes: tuple) -> tuple:
    """Second-order terms of xhat = (x - mean) * r normalised over `axes`, out = xhat * w + b.

    The grad op is dx = J (g w) with J = r (I - mean - xhat mean(xhat .)) (symmetric),
    dw = sum(g xhat), db = sum(g). `w`, `ddw`, `ddb` are broadcast against x (or None).
    Returns (grad_wrt_x, the weight gradient before its reduction over the non-weight axes,
    grad_wrt_out_grad), all broadcast against x.
    """

    def m(t: Any) -> Any:
        return t.mean(axis=axes, keepdims=True)

    gh = g if w is None else g * w
    c = m(ddx * xhat)
    jd = r * (ddx - m(ddx) - xhat * c)  # J ddx
    grad_wrt_out_grad = jd if w is None else w * jd
    if ddw is not None:
        grad_wrt_out_grad = grad_wrt_out_grad + ddw * xhat
    if ddb is not None:
        grad_wrt_out_grad = grad_wrt_out_grad + ddb
    a = m(gh)
    b = m(gh * xhat)
    ga = gh - a
    grad_wrt_x = -(r * r) * (m(ddx * ga) * xhat + b * (ddx - m(ddx) - 2 * c * xhat) + c * (ga - b * xhat))
    if ddw is not None:
        h = g * ddw
        grad_wrt_x = grad_wrt_x + r * (h - m(h) - xhat * m(h * xhat))
    return grad_wrt_x, g * jd, grad_wrt_out_grad


def _weight_sum(w: Any, raw: Any, axes: tuple) -> Any:
    return None if w is None else raw.sum(axis=axes).reshape(w.shape).astype(w.dtype, copy=False)


@register_kernel("layer_norm_double_grad")
@float32_inside
def layer_norm_double_grad(
    x,
    weight,
    mean,
    rstd,
    out_grad,
    x_grad_grad,
    weight_grad_grad,
    bias_grad_grad,
    normalized_shape,
    epsilon=1e-5,
):
    shape, axes = _layer_axes(x, normalized_shape)
    xhat = (x - mean) * rstd
    ddw = None if weight is None else weight_grad_grad
    grad_wrt_x, raw_w, grad_wrt_out_grad = _norm_double(
        xhat, rstd, out_grad, weight, x_grad_grad, ddw, bias_grad_grad, axes
    )
    lead = tuple(range(x.ndim - len(shape)))
    return (
        grad_wrt_x.astype(x.dtype, copy=False),
        _weight_sum(weight, raw_w, lead),
        grad_wrt_out_grad.astype(out_grad.dtype, copy=False),
    )


@register_kernel("group_norm_double_grad")
@float32_inside
def group_norm_double_grad(
    x, weight, mean, rstd, out_grad, x_grad_grad, weight_grad_grad, bias_grad_grad, num_groups, epsilon=1e-5
):
    xp = array_module(x)
    g = _groups(x, num_groups)
    cshape = _channel_shape(x)
    grouped = _grouped(x, g)

    def per_group(t: Any) -> Any:  # a per-channel vector (or None) as (N, G, -1)
        return None if t is None else xp.broadcast_to(t.reshape(cshape), x.shape).reshape(grouped)

    xhat = (x.reshape(grouped) - mean) * rstd
    ddw = None if weight is None else weight_grad_grad
    grad_wrt_x, raw_w, grad_wrt_out_grad = _norm_double(
        xhat,
        rstd,
        out_grad.reshape(grouped),
        per_group(weight),
        x_grad_grad.reshape(grouped),
        per_group(ddw),
        per_group(bias_grad_grad),
        (2,),
    )
    axes = (0,) + tuple(range(2, x.ndim))
    return (
        grad_wrt_x.reshape(x.shape).astype(x.dtype, copy=False),
        _weight_sum(weight, raw_w.reshape(x.shape), axes),
        grad_wrt_out_grad.reshape(x.shape).astype(out_grad.dtype, copy=False),
    )


@register_kernel("batch_norm_double_grad")
@float32_inside
def batch_norm_double_grad(
    x,
    weight,
    saved_mean,
    saved_rstd,
    out_grad,
    x_grad_grad,
    weight_grad_grad,
    bias_grad_grad,
    training=False,
    momentum=0.9,
    epsilon=1e-5,
):
    xp = array_module(x)
    cshape = _channel_shape(x)
    axes = (0,) + tuple(range(2, x.ndim))
    xhat = (x - saved_mean) * saved_rstd
    w = None if weight is None else weight.reshape(cshape)
    ddw = None if weight is None or weight_grad_grad is None else weight_grad_grad.reshape(cshape)
    ddb = None if bias_grad_grad is None else bias_grad_grad.reshape(cshape)
    if training:
        grad_wrt_x, raw_w, grad_wrt_out_grad = _norm_double(
            xhat, saved_rstd, out_grad, w, x_grad_grad, ddw, ddb, axes
        )
    else:  # affine in x with constant statistics: dx = g w r, dw = sum(g xhat), db = sum(g)
        jd = saved_rstd * x_grad_grad
        raw_w = out_grad * jd
        grad_wrt_out_grad = jd if w is None else w * jd
        if ddw is not None:
            grad_wrt_out_grad = grad_wrt_out_grad + ddw * xhat
        if ddb is not None:
            grad_wrt_out_grad = grad_wrt_out_grad + ddb
        grad_wrt_x = xp.zeros(x.shape, x.dtype) if ddw is None else out_grad * saved_rstd * ddw
    return (
        grad_wrt_x.astype(x.dtype, copy=False),
        _weight_sum(weight, raw_w, axes),
        grad_wrt_out_grad.astype(out_grad.dtype, copy=False),
    )
