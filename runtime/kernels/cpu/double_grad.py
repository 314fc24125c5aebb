"""Kernels for higher-order gradients: the higher-order helper ops and the double-grad kernels.

Most double-grad entries in backward.yaml are `composite:` expressions over ops (so they are
differentiable again, to any order). The kernels here serve the rest:

- helper ops (ops.yaml, `# --- higher-order helper ops`) that composites call: `reduce_as`
  (sum a broadcast gradient back to another tensor's shape), `softmax_vjp` /
  `softmax_vjp_dp` (softmax's vector-Jacobian product and its derivative in the
  probabilities), `matmul_xg` / `matmul_yg` / `matmul_jvp` (matmul's two gradients and its
  directional derivative), each with its own grad kernel where the grad is not a composite;
- double-grad kernels for ops whose second derivative a one-line composite cannot express
  (attribute-dependent branches, masks, long formulas): gelu, silu, softplus, elementwise_pow,
  max/min, prod, logsumexp, cross_entropy and mse_loss. A double-grad kernel takes the grad
  op's tensors, then the gradients of the grad op's outputs (`x_grad_grad`), then the forward
  op's attributes, and returns one gradient per grad-op input it differentiates.
"""

from __future__ import annotations

import math

import numpy as np

from opgrad.runtime.kernels.common import (
    array_module,
    erf,
    keepdim_shape,
    nd,
    normalize_axis,
    unbroadcast,
)
from opgrad.runtime.kernels.cpu.linalg import matmul as _matmul
from opgrad.runtime.kernels.cpu.linalg import matmul_grad as _matmul_grad
from opgrad.runtime.kernels.cpu.nn import _class_labels, _softmax
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_K = math.sqrt(2.0 / math.pi)
_GELU_C = 0.044715


def _sigmoid(xp, x):
    return xp.exp(-xp.logaddexp(0, -x))


# --- helper ops --------------------------------------------------------------------------------


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


def _row_axis(p, axis, op):
    return normalize_axis(axis, p.ndim, op) if p.ndim else ()


@register_kernel("softmax_vjp")
@float32_inside
def softmax_vjp(p, g, axis=-1):
    a = _row_axis(p, axis, "softmax_vjp")
    return nd(p * (g - (g * p).sum(axis=a, keepdims=True)))


@register_kernel("softmax_vjp_dp")
@float32_inside
def softmax_vjp_dp(p, g, r, axis=-1):
    a = _row_axis(p, axis, "softmax_vjp_dp")
    return nd(g * r - g * (p * r).sum(axis=a, keepdims=True) - r * (p * g).sum(axis=a, keepdims=True))


@register_kernel("matmul_xg")
def matmul_xg(x, y, g, transpose_x=False, transpose_y=False):
    return _matmul_grad(x, y, g, transpose_x, transpose_y)[0]


@register_kernel("matmul_yg")
def matmul_yg(x, y, g, transpose_x=False, transpose_y=False):
    return _matmul_grad(x, y, g, transpose_x, transpose_y)[1]


@register_kernel("matmul_jvp")
def matmul_jvp(x, y, a, b, transpose_x=False, transpose_y=False):
    return nd(_matmul(a, y, transpose_x, transpose_y) + _matmul(x, b, transpose_x, transpose_y))


# --- double-grad kernels ------------------------------------------------------------------------


@register_kernel("gelu_double_grad")
def gelu_double_grad(x, out_grad, x_grad_grad, approximate=False):
    xp = array_module(x)
    if approximate:
        u = _GELU_K * (x + _GELU_C * x * x * x)
        du = _GELU_K * (1 + 3 * _GELU_C * x * x)
        ddu = _GELU_K * 6 * _GELU_C * x
        t = xp.tanh(u)
        s = 1 - t * t
        first = 0.5 * (1 + t) + 0.5 * x * s * du
        second = s * (du + 0.5 * x * (ddu - 2 * t * du * du))
    else:
        pdf = _INV_SQRT_2PI * xp.exp(-0.5 * x * x)
        first = 0.5 * (1 + erf(x * _SQRT_HALF)) + x * pdf
        second = pdf * (2 - x * x)
    return nd(x_grad_grad * out_grad * second), nd(x_grad_grad * first)


@register_kernel("silu_double_grad")
def silu_double_grad(x, out_grad, x_grad_grad):
    s = _sigmoid(array_module(x), x)
    first = s * (1 + x * (1 - s))
    second = s * (1 - s) * (2 + x * (1 - 2 * s))
    return nd(x_grad_grad * out_grad * second), nd(x_grad_grad * first)


@register_kernel("softplus_double_grad")
def softplus_double_grad(x, out_grad, x_grad_grad, beta=1.0, threshold=20.0):
    xp = array_module(x)
    bx = x * beta
    linear = bx > threshold
    s = _sigmoid(xp, bx)
    x_grad = xp.where(linear, 0, x_grad_grad * out_grad * beta * s * (1 - s))
    return nd(x_grad.astype(x.dtype, copy=False)), nd(xp.where(linear, x_grad_grad, x_grad_grad * s))


@register_kernel("elementwise_pow_double_grad")
def elementwise_pow_double_grad(x, y, out_grad, x_grad_grad, y_grad_grad):
    xp = array_module(x, y)
    positive = x > 0
    log_x = xp.log(xp.where(positive, x, 1))
    # where x <= 0 the y-derivatives are 0 (x == 0) or NaN (x < 0), as in elementwise_pow_grad
    undefined = xp.where(x == 0, 0, xp.nan)
    d_x = y * x ** (y - 1)
    d_y = xp.where(positive, x**y * log_x, undefined)
    d_xx = y * (y - 1) * x ** (y - 2)
    d_xy = xp.where(positive, x ** (y - 1) * (1 + y * log_x), undefined)
    d_yy = xp.where(positive, x**y * log_x * log_x, undefined)
    a, b = x_grad_grad, y_grad_grad
    x_grad = out_grad * (a * d_xx + b * d_xy)
    y_grad = out_grad * (a * d_xy + b * d_yy)
    out_grad_grad = a * d_x + b * d_y
    return (
        unbroadcast(x_grad, x.shape, x.dtype),
        unbroadcast(y_grad, y.shape, y.dtype),
        unbroadcast(out_grad_grad, out_grad.shape, out_grad.dtype),
    )


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


@register_kernel("prod_double_grad")
@float32_inside
def prod_double_grad(x, out_grad, x_grad_grad, axis=(), keepdim=False):
    # prod_grad is x_grad_i = g * P_i with P_i = prod_{j != i} x_j. Its derivative in g is
    # sum_i a_i P_i; in x_k it is g * sum_{i != k} a_i M_ik, M_ik = prod_{j != i, k} x_j,
    # computed exactly (zeros allowed) from exclusive prefix/suffix products of rows of x
    # with one entry replaced by 1: O(n^2) per reduced slice.
    xp = array_module(x)
    axes = normalize_axis(axis, x.ndim, "prod")
    kept = [i for i in range(x.ndim) if i not in axes]
    perm = kept + list(axes)
    kept_shape = tuple(x.shape[i] for i in kept)
    n = math.prod(x.shape[a] for a in axes)
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
    x_grad = g * (m * a[..., None, :]).sum(axis=-1)
    p = (
        xp.concatenate([ones[..., 0, :], xp.cumprod(flat[..., :-1], axis=-1)], axis=-1)
        * xp.concatenate([ones[..., 0, :], xp.cumprod(flat[..., :0:-1], axis=-1)], axis=-1)[..., ::-1]
    )
    out_grad_grad = (a * p).sum(axis=-1)
    x_grad = x_grad.reshape(tuple(x.shape[i] for i in perm)).transpose(np.argsort(perm))
    return x_grad.astype(x.dtype), nd(out_grad_grad.reshape(out_grad.shape).astype(out_grad.dtype))


@register_kernel("logsumexp_double_grad")
@float32_inside
def logsumexp_double_grad(x, out, out_grad, x_grad_grad, axis=(), keepdim=False):
    xp = array_module(x)
    axes = normalize_axis(axis, x.ndim, "logsumexp")
    shape = keepdim_shape(x.shape, axes)
    p = xp.exp(x - out.reshape(shape))
    g = out_grad.reshape(shape)
    ap = x_grad_grad * p
    x_grad = g * ap
    out_grad_wrt_out = -(g * ap.sum(axis=axes, keepdims=True))
    out_grad_grad = ap.sum(axis=axes, keepdims=True)
    return (
        nd(x_grad.astype(x.dtype, copy=False)),
        nd(out_grad_wrt_out.reshape(out.shape).astype(out.dtype, copy=False)),
        nd(out_grad_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


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
    input_grad = g * p * (h - (h * p).sum(axis=a, keepdims=True))
    classes = xp.arange(input.shape[a]).reshape((-1,) + (1,) * (input.ndim - a - 1))
    target = (classes == xp.expand_dims(lab, a)) * (1 - label_smoothing) + label_smoothing / input.shape[a]
    # d/d out_grad: the per-sample directional derivative along h, masked, then the reduction
    q = xp.where(valid, ((p - target) * h).sum(axis=a), 0)
    if reduction == "sum":
        q = q.sum()
    elif reduction == "mean":
        q = q.sum() / count
    return (
        nd(input_grad.astype(input.dtype, copy=False)),
        nd(xp.asarray(q).reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


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
