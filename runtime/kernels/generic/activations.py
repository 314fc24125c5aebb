"""Activation kernels (hardtanh, hardswish, hardsigmoid, mish, log_sigmoid, prelu, selu,
celu, glu, softsign, tanhshrink) with their grads (and the double grads of mish, prelu and
glu), and the bool-valued elementwise kernels (logical_and/or/not, isnan, isinf, isfinite),
which have none.

swish has no kernel of its own: ops.yaml points it at silu's kernels. Every forward keeps
x's dtype (Python-float constants do not widen float32), and piecewise functions take
the gradient of the open piece at a breakpoint.
"""

from __future__ import annotations

import numpy as np

from opgrad.runtime.kernels.common import (
    array_module,
    broadcast_shapes,
    nan_where,
    nd,
    normalize_one_axis,
    stable_sigmoid,
    ufunc,
    unbroadcast,
)
from opgrad.runtime.kernels.registry import register_kernel


def _softplus(xp, x):
    return xp.logaddexp(0, x)


@register_kernel("hardtanh")
def hardtanh(x, min=-1.0, max=1.0):  # noqa: A002 - Paddle's names
    if not min <= max:
        raise ValueError(f"hardtanh: min ({min}) must not exceed max ({max})")
    return nd(array_module(x).clip(x, min, max))


@register_kernel("hardtanh_grad")
def hardtanh_grad(x, out_grad, min=-1.0, max=1.0):  # noqa: A002
    # a NaN is not clipped: it is passed through, and so is its gradient (as PyTorch does)
    return nd(out_grad * ~((x <= min) | (x >= max)))


@register_kernel("hardswish")
def hardswish(x):
    xp = array_module(x)
    return nd(x * xp.clip(x + 3, 0, 6) / 6)


@register_kernel("hardswish_grad")
def hardswish_grad(x, out_grad):
    xp = array_module(x)
    slope = xp.where(x < -3, 0, xp.where(x > 3, 1, (2 * x + 3) / 6))
    return nd(out_grad * slope)


@register_kernel("hardsigmoid")
def hardsigmoid(x):
    return nd(array_module(x).clip(x / 6 + 0.5, 0, 1))


@register_kernel("hardsigmoid_grad")
def hardsigmoid_grad(x, out_grad):
    slope = (((x > -3) & (x < 3)) / 6).astype(out_grad.dtype, copy=False)
    return nd(nan_where(x, out_grad * slope))


@register_kernel("mish")
def mish(x):
    xp = array_module(x)
    return nd(x * xp.tanh(_softplus(xp, x)))


@register_kernel("mish_grad")
def mish_grad(x, out_grad):
    xp = array_module(x)
    t = xp.tanh(_softplus(xp, x))
    return nd(out_grad * (t + x * stable_sigmoid(xp, x) * (1 - t * t)))


@register_kernel("mish_double_grad")
def mish_double_grad(x, out_grad, x_grad_grad):
    xp = array_module(x)
    t = xp.tanh(_softplus(xp, x))
    s = stable_sigmoid(xp, x)
    sech2 = 1 - t * t
    first = t + x * s * sech2
    second = sech2 * s * (2 + x * (1 - s) - 2 * x * t * s)
    return nd(x_grad_grad * out_grad * second), nd(x_grad_grad * first)


@register_kernel("log_sigmoid")
def log_sigmoid(x):
    xp = array_module(x)
    return nd(-_softplus(xp, -x))


@register_kernel("log_sigmoid_grad")
def log_sigmoid_grad(x, out_grad):
    return nd(out_grad * stable_sigmoid(array_module(x), -x))


def _channel_weight(x, weight):
    """weight reshaped to broadcast along x's channel axis 1 (or shape [1])."""
    if weight.ndim != 1:
        raise ValueError(f"prelu: weight must be 1-D ([1] or [C]), got shape {weight.shape}")
    n = weight.shape[0]
    if n == 1:
        return weight.reshape((1,) * max(x.ndim, 1) if x.ndim else ())
    if x.ndim < 2 or x.shape[1] != n:
        raise ValueError(
            f"prelu: weight has shape {weight.shape} for x of shape {x.shape}; "
            "expected [1] or [C] with C == x.shape[1]"
        )
    return weight.reshape((1, n) + (1,) * (x.ndim - 2))


@register_kernel("prelu")
def prelu(x, weight):
    xp = array_module(x)
    w = _channel_weight(x, weight)
    return nd(xp.where(x > 0, x, w * x).astype(x.dtype, copy=False))


@register_kernel("prelu_grad")
def prelu_grad(x, weight, out_grad):
    xp = array_module(x)
    w = _channel_weight(x, weight)
    positive = x > 0
    x_grad = nan_where(x, xp.where(positive, out_grad, w * out_grad))
    w_grad = unbroadcast(xp.where(positive, 0, x * out_grad), w.shape, weight.dtype)
    return unbroadcast(x_grad, x.shape, x.dtype), w_grad.reshape(weight.shape)


@register_kernel("prelu_double_grad")
def prelu_double_grad(x, weight, out_grad, x_grad_grad, weight_grad_grad):
    xp = array_module(x)
    w = _channel_weight(x, weight)
    c = _channel_weight(x, weight_grad_grad)
    negative = x <= 0
    grad_wrt_x = xp.where(negative, out_grad * c, 0)
    grad_wrt_weight = unbroadcast(xp.where(negative, x_grad_grad * out_grad, 0), w.shape, weight.dtype)
    grad_wrt_out_grad = xp.where(negative, w * x_grad_grad + c * x, x_grad_grad)
    return (
        unbroadcast(grad_wrt_x, x.shape, x.dtype),
        grad_wrt_weight.reshape(weight.shape),
        unbroadcast(grad_wrt_out_grad, out_grad.shape, out_grad.dtype),
    )


@register_kernel("selu")
def selu(x, scale=1.0507009873554805, alpha=1.6732632423543772):
    xp = array_module(x)
    return nd(scale * xp.where(x > 0, x, alpha * xp.expm1(xp.minimum(x, 0))))


@register_kernel("selu_grad")
def selu_grad(x, out_grad, scale=1.0507009873554805, alpha=1.6732632423543772):
    xp = array_module(x)
    return nd(out_grad * (scale * xp.where(x > 0, 1, alpha * xp.exp(xp.minimum(x, 0)))))


def _check_alpha(alpha):
    if not alpha != 0:  # noqa: SIM202 - also rejects NaN
        raise ValueError(f"celu: alpha must be nonzero, got {alpha!r}")


@register_kernel("celu")
def celu(x, alpha=1.0):
    _check_alpha(alpha)
    xp = array_module(x)
    return nd(xp.where(x > 0, x, alpha * xp.expm1(xp.minimum(x, 0) / alpha)))


@register_kernel("celu_grad")
def celu_grad(x, out_grad, alpha=1.0):
    xp = array_module(x)
    return nd(out_grad * xp.where(x > 0, 1, xp.exp(xp.minimum(x, 0) / alpha)))


def _halves(x, axis):
    if x.ndim == 0:
        raise ValueError("glu: x is 0-d; expected an axis of even size")
    a = normalize_one_axis(axis, x.ndim, "glu")
    n = x.shape[a]
    if n % 2:
        raise ValueError(f"glu: x has size {n} along axis {a}; expected an even size")
    xp = array_module(x)
    first, second = xp.split(x, 2, axis=a)
    return a, first, second


@register_kernel("glu")
def glu(x, axis=-1):
    _, first, second = _halves(x, axis)
    return nd(first * stable_sigmoid(array_module(x), second))


@register_kernel("glu_grad")
def glu_grad(x, out_grad, axis=-1):
    xp = array_module(x)
    a, first, second = _halves(x, axis)
    s = stable_sigmoid(xp, second)
    return xp.concatenate([out_grad * s, out_grad * first * s * (1 - s)], axis=a).astype(x.dtype, copy=False)


@register_kernel("glu_double_grad")
def glu_double_grad(x, out_grad, x_grad_grad, axis=-1):
    # out = a s(b); glu_grad = [g s, g a s'] with s' = s (1 - s), s'' = s' (1 - 2 s).
    xp = array_module(x)
    ax, first, second = _halves(x, axis)
    da, db = xp.split(x_grad_grad, 2, axis=ax)
    s = stable_sigmoid(xp, second)
    s1 = s * (1 - s)
    s2 = s1 * (1 - 2 * s)
    grad_wrt_x = xp.concatenate([db * out_grad * s1, out_grad * (da * s1 + db * first * s2)], axis=ax)
    grad_wrt_out_grad = da * s + db * first * s1
    return grad_wrt_x.astype(x.dtype, copy=False), nd(grad_wrt_out_grad.astype(out_grad.dtype, copy=False))


@register_kernel("softsign")
def softsign(x):
    xp = array_module(x)
    # inf / (1 + inf) is NaN: take the limits, softsign(±inf) = ±1 (and the gradient 0)
    return nd(xp.where(xp.isinf(x), xp.sign(x), x / (1 + xp.abs(x))).astype(x.dtype, copy=False))


@register_kernel("softsign_grad")
def softsign_grad(x, out_grad):
    d = 1 + array_module(x).abs(x)
    return nd(out_grad / (d * d))


@register_kernel("tanhshrink")
def tanhshrink(x):
    return nd(x - array_module(x).tanh(x))


@register_kernel("tanhshrink_grad")
def tanhshrink_grad(x, out_grad):
    t = array_module(x).tanh(x)
    return nd(out_grad * (t * t))


# --- bool-valued, no gradient ----------------------------------------------------------------


@register_kernel("logical_and")
def logical_and(x, y):
    broadcast_shapes("logical_and", x.shape, y.shape)
    return nd(array_module(x).logical_and(x, y))


@register_kernel("logical_or")
def logical_or(x, y):
    broadcast_shapes("logical_or", x.shape, y.shape)
    return nd(array_module(x).logical_or(x, y))


logical_not = register_kernel("logical_not")(ufunc("logical_not"))


def _float_test(op, fn, x):
    xp = array_module(x)
    if x.dtype.kind in "biu":
        fill = op == "isfinite"
        return xp.full(x.shape, fill, dtype=np.bool_)
    return nd(getattr(xp, fn)(x))


@register_kernel("isnan")
def isnan(x):
    return _float_test("isnan", "isnan", x)


@register_kernel("isinf")
def isinf(x):
    return _float_test("isinf", "isinf", x)


@register_kernel("isfinite")
def isfinite(x):
    return _float_test("isfinite", "isfinite", x)
