"""Double-grad kernels for CNN/attention/misc ops (second order only).

Each kernel differentiates a grad op of backward.yaml (`# --- higher-order for
CNN/attention/misc ops` entries point here): it takes the grad op's tensors, then the
gradients of the grad op's outputs (`x_grad_grad`, ...), then the forward op's attributes,
and returns one gradient per grad-op input it differentiates. Dependence on saved forward
outputs (`out` of std) is folded into the gradient of `x` (total derivative), so those
inputs get no gradient of their own.
"""

from __future__ import annotations

from opgrad.runtime.kernels.common import array_module, keepdim_shape, nd, unbroadcast
from opgrad.runtime.kernels.cpu.activations import _channel_weight, _sigmoid, _softplus
from opgrad.runtime.kernels.cpu.attention import einsum as _einsum
from opgrad.runtime.kernels.cpu.attention import einsum_grad as _einsum_grad
from opgrad.runtime.kernels.cpu.cnn import _pad, _pool_geometry, _window_slice
from opgrad.runtime.kernels.cpu.losses import _centered, _reduce, _spread
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel


@register_kernel("einsum_double_grad")
def einsum_double_grad(x, y, out_grad, x_grad_grad, y_grad_grad, equation):
    # einsum is bilinear: d(out_grad) is the forward applied to the incoming grads, and each
    # operand's gradient is einsum_grad with the other operand replaced by its incoming grad.
    x_grad = _einsum_grad(x, y_grad_grad, out_grad, equation)[0]
    y_grad = _einsum_grad(x_grad_grad, y, out_grad, equation)[1]
    out_grad_grad = _einsum(x_grad_grad, y, equation) + _einsum(x, y_grad_grad, equation)
    return x_grad, y_grad, nd(unbroadcast(out_grad_grad, out_grad.shape, out_grad.dtype))


@register_kernel("max_pool2d_double_grad")
def max_pool2d_double_grad(argmax, x_grad_grad, kernel_size, stride=None, padding=(0, 0)):
    # max_pool2d_grad routes each out_grad to its window's argmax: its derivative in out_grad
    # reads x_grad_grad back at the same positions.
    xp = array_module(x_grad_grad)
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry("max_pool2d", x_grad_grad, kernel_size, stride, padding)
    apad = _pad(xp, x_grad_grad, ph, pw)
    out = xp.zeros(argmax.shape, dtype=x_grad_grad.dtype)
    for i in range(kh):
        for j in range(kw):
            out = xp.where(argmax == i * kw + j, apad[_window_slice(i, j, sh, sw, 1, 1, ho, wo)], out)
    return out


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
    x_grad = a * out_grad.reshape(shape) * (2.0 / denom)
    out_grad_grad = (d * x_grad_grad).sum(axis=axes, keepdims=True) * (2.0 / denom)
    return (
        x_grad.astype(x.dtype, copy=False),
        nd(out_grad_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


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
    s = (d * x_grad_grad).sum(axis=axes, keepdims=True)  # sum of d * a
    x_grad = g * inv * (a - d * s * inv * xp.where(zero, 0, 1 / xp.where(zero, 1, o)))
    out_grad_grad = s * inv
    return (
        x_grad.astype(x.dtype, copy=False),
        nd(out_grad_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


@register_kernel("mish_double_grad")
def mish_double_grad(x, out_grad, x_grad_grad):
    xp = array_module(x)
    t = xp.tanh(_softplus(xp, x))
    s = _sigmoid(xp, x)
    sech2 = 1 - t * t
    first = t + x * s * sech2
    second = sech2 * s * (2 + x * (1 - s) - 2 * x * t * s)
    return nd(x_grad_grad * out_grad * second), nd(x_grad_grad * first)


@register_kernel("prelu_double_grad")
def prelu_double_grad(x, weight, out_grad, x_grad_grad, weight_grad_grad):
    xp = array_module(x)
    w = _channel_weight(x, weight)
    c = _channel_weight(x, weight_grad_grad)
    negative = x <= 0
    x_grad = xp.where(negative, out_grad * c, 0)
    weight_grad = unbroadcast(xp.where(negative, x_grad_grad * out_grad, 0), w.shape, weight.dtype)
    out_grad_grad = xp.where(negative, w * x_grad_grad + c * x, x_grad_grad)
    return (
        unbroadcast(x_grad, x.shape, x.dtype),
        weight_grad.reshape(weight.shape),
        unbroadcast(out_grad_grad, out_grad.shape, out_grad.dtype),
    )


def _loss_out_grad_grad(slope, input_grad_grad, label_grad_grad, out_grad, reduction):
    """d/d out_grad of <input_grad, a> + <label_grad, b> for input_grad = slope * spread(g)."""
    q = _reduce(slope * (input_grad_grad - label_grad_grad), reduction)
    return nd(array_module(q).asarray(q).reshape(out_grad.shape).astype(out_grad.dtype, copy=False))


@register_kernel("l1_loss_double_grad")
@float32_inside
def l1_loss_double_grad(input, label, out_grad, input_grad_grad, label_grad_grad, reduction="mean"):  # noqa: A002
    # sign(input - label) is piecewise constant: only out_grad has a second derivative
    slope = array_module(input).sign(input - label)
    return _loss_out_grad_grad(slope, input_grad_grad, label_grad_grad, out_grad, reduction)


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
        _loss_out_grad_grad(slope, input_grad_grad, label_grad_grad, out_grad, reduction),
    )
