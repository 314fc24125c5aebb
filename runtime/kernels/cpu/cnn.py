"""Convolution, pooling, normalisation and linear kernels (NCHW), and their grads.

conv2d is im2col: `sliding_window_view` of the zero-padded input, strided and dilated by
slicing, copied once into a (groups, C/groups*kh*kw, N*Ho*Wo) matrix and multiplied by the
weight as one batched matmul; its input gradient is col2im, a loop over the kh*kw kernel
positions that adds strided slices. Pooling loops over kernel positions the same way, in
both directions (no window copies, no scatter). max_pool2d saves, as an intermediate, the
index (uint8) of each window's first maximum, row-major in the window. adaptive_avg_pool2d
multiplies by two bin-averaging matrices (one per spatial axis), so the general case
(sizes that do not divide) is exact.

The norms save mean and 1/std (`rstd`) as intermediates. batch_norm follows Paddle:
running = momentum * running + (1 - momentum) * batch statistic, the running variance
from the unbiased batch variance; in training it updates the running arrays IN PLACE
(they are buffers without gradient); in eval its saved mean/rstd come from them, so one
grad kernel serves both modes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from opgrad.runtime.kernels.common import array_module, as_int, as_int_list, nd, unbroadcast
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel

# --- argument checks ------------------------------------------------------------------------


def pair(value: Any, op: str, arg: str, minimum: int) -> tuple[int, int]:
    """An int or a 2-list as (h, w), each at least `minimum`."""
    v = as_int_list(value, op, arg)
    if len(v) == 1:
        v = v * 2
    if len(v) != 2:
        raise ValueError(f"{op}: {arg} must be an int or a list of 2 ints, got {value!r}")
    if min(v) < minimum:
        raise ValueError(f"{op}: {arg} must be >= {minimum}, got {value!r}")
    return v[0], v[1]


def _check_4d(x: Any, op: str, arg: str = "x") -> None:
    if x.ndim != 4:
        raise ValueError(f"{op}: {arg} must be 4-D (N, C, H, W), got shape {x.shape}")


def _check_float(x: Any, op: str, arg: str = "x") -> None:
    if x.dtype.kind != "f":
        raise TypeError(f"{op}: {arg} must be a floating tensor, got dtype {x.dtype}")


def _out_size(op: str, size: int, k: int, s: int, p: int, d: int, axis: str) -> int:
    n = (size + 2 * p - d * (k - 1) - 1) // s + 1
    if n <= 0:
        raise ValueError(
            f"{op}: the {axis} axis of the input ({size}, padding {p}) is smaller than the "
            f"kernel ({k}, dilation {d}); the output would be empty"
        )
    return n


def _pad(xp: Any, x: Any, ph: int, pw: int, value: float = 0.0) -> Any:
    if ph == 0 and pw == 0:
        return x
    return xp.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=value)


def _windows(
    xp: Any, xpad: Any, kh: int, kw: int, sh: int, sw: int, dh: int, dw: int, ho: int, wo: int
) -> Any:
    """A view (N, C, Ho, Wo, kh, kw) of the (dilated, strided) windows of the padded input."""
    eh, ew = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    v = xp.lib.stride_tricks.sliding_window_view(xpad, (eh, ew), axis=(2, 3))
    return v[:, :, : sh * (ho - 1) + 1 : sh, : sw * (wo - 1) + 1 : sw, ::dh, ::dw]


def _window_slice(i: int, j: int, sh: int, sw: int, dh: int, dw: int, ho: int, wo: int) -> tuple[Any, ...]:
    """The padded-input positions (last two axes) that kernel position (i, j) reads, for every output."""
    r, c = i * dh, j * dw
    return (Ellipsis, slice(r, r + sh * (ho - 1) + 1, sh), slice(c, c + sw * (wo - 1) + 1, sw))


# --- conv2d ---------------------------------------------------------------------------------


def _conv_geometry(
    x: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any, groups: Any
) -> tuple:
    op = "conv2d"
    _check_4d(x, op)
    _check_4d(weight, op, "weight")
    g = as_int(groups, op, "groups")
    n, c, h, w = x.shape
    o, cg, kh, kw = weight.shape
    if g < 1 or c % g or o % g:
        raise ValueError(
            f"conv2d: groups must be a positive divisor of the input channels ({c}) and of the "
            f"output channels ({o}), got {groups!r}"
        )
    if cg * g != c:
        raise ValueError(
            f"conv2d: x has {c} channels and groups is {g}, so weight must have shape "
            f"({o}, {c // g}, kh, kw); got {weight.shape}"
        )
    if bias is not None and bias.shape != (o,):
        raise ValueError(f"conv2d: bias must have shape ({o},) (output channels), got {bias.shape}")
    if kh < 1 or kw < 1:  # a zero-size kernel made the output larger than x, full of zeros
        raise ValueError(f"conv2d: weight has shape {weight.shape}; expected a kernel of at least 1 x 1")
    sh, sw = pair(stride, op, "stride", 1)
    ph, pw = pair(padding, op, "padding", 0)
    dh, dw = pair(dilation, op, "dilation", 1)
    ho = _out_size(op, h, kh, sh, ph, dh, "height")
    wo = _out_size(op, w, kw, sw, pw, dw, "width")
    return g, kh, kw, sh, sw, ph, pw, dh, dw, ho, wo


def _bmm(xp: Any, a: Any, b: Any) -> Any:
    """Batched matmul over the group axis; one group is a plain 2-D product (NumPy's batched
    matmul is up to 2x slower for a batch of one)."""
    if a.shape[0] == 1:
        return xp.matmul(a[0], b[0])[None]
    return xp.matmul(a, b)


def _im2col(xp: Any, x: Any, geo: tuple) -> Any:
    """(groups, C/groups*kh*kw, N*Ho*Wo): each column one receptive field of one group."""
    g, kh, kw, sh, sw, ph, pw, dh, dw, ho, wo = geo
    n, c = x.shape[:2]
    win = _windows(xp, _pad(xp, x, ph, pw), kh, kw, sh, sw, dh, dw, ho, wo)
    win = win.reshape(n, g, c // g, ho, wo, kh, kw).transpose(1, 2, 5, 6, 0, 3, 4)
    return win.reshape(g, (c // g) * kh * kw, n * ho * wo)


@register_kernel("conv2d")
def conv2d(x, weight, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    xp = array_module(x)
    geo = _conv_geometry(x, weight, bias, stride, padding, dilation, groups)
    g, ho, wo = geo[0], geo[-2], geo[-1]
    n, o = x.shape[0], weight.shape[0]
    k = math.prod(weight.shape[1:])  # not -1: reshape cannot infer it when O is 0
    out = _bmm(xp, weight.reshape(g, o // g, k), _im2col(xp, x, geo))  # (g, O/g, N*Ho*Wo)
    out = out.reshape(g, o // g, n, ho, wo).transpose(2, 0, 1, 3, 4).reshape(n, o, ho, wo)
    if bias is not None:
        out = out + bias.reshape(1, o, 1, 1)
    return xp.ascontiguousarray(out)


@register_kernel("conv2d_grad")
def conv2d_grad(x, weight, bias, out_grad, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    xp = array_module(x)
    geo = _conv_geometry(x, weight, None, stride, padding, dilation, groups)
    g, kh, kw, sh, sw, ph, pw, dh, dw, ho, wo = geo
    n, c, h, w = x.shape
    o = weight.shape[0]
    gmat = out_grad.reshape(n, g, o // g, ho * wo).transpose(1, 2, 0, 3).reshape(g, o // g, n * ho * wo)
    cols = _im2col(xp, x, geo)
    weight_grad = _bmm(xp, gmat, cols.transpose(0, 2, 1)).reshape(weight.shape)
    del cols
    # col2im: the gradient of every receptive field, added back where it was read, laid out
    # (g, C/g, N, H, W) so that each kernel position adds contiguous rows
    k = math.prod(weight.shape[1:])
    cols = _bmm(xp, weight.reshape(g, o // g, k).transpose(0, 2, 1), gmat)  # (g, K, N*Ho*Wo)
    cols = cols.reshape(g, c // g, kh, kw, n, ho, wo)
    gpad = xp.zeros((g, c // g, n, h + 2 * ph, w + 2 * pw), dtype=cols.dtype)
    for i in range(kh):
        for j in range(kw):
            gpad[_window_slice(i, j, sh, sw, dh, dw, ho, wo)] += cols[:, :, i, j]
    x_grad = gpad.reshape(c, n, h + 2 * ph, w + 2 * pw)[:, :, ph : ph + h, pw : pw + w].transpose(1, 0, 2, 3)
    bias_grad = None if bias is None else out_grad.sum(axis=(0, 2, 3)).astype(bias.dtype, copy=False)
    return (
        xp.ascontiguousarray(x_grad).astype(x.dtype, copy=False),
        weight_grad.astype(weight.dtype, copy=False),
        bias_grad,
    )


# --- pooling --------------------------------------------------------------------------------


def _pool_geometry(op: str, x: Any, kernel_size: Any, stride: Any, padding: Any) -> tuple:
    _check_4d(x, op)
    kh, kw = pair(kernel_size, op, "kernel_size", 1)
    sh, sw = (kh, kw) if stride is None else pair(stride, op, "stride", 1)
    ph, pw = pair(padding, op, "padding", 0)
    if ph > kh // 2 or pw > kw // 2:
        raise ValueError(
            f"{op}: padding must be at most half the kernel size ({kh // 2}, {kw // 2}), got {padding!r}"
        )
    ho = _out_size(op, x.shape[2], kh, sh, ph, 1, "height")
    wo = _out_size(op, x.shape[3], kw, sw, pw, 1, "width")
    return kh, kw, sh, sw, ph, pw, ho, wo


@register_kernel("max_pool2d")
def max_pool2d(x, kernel_size, stride=None, padding=(0, 0)):
    _check_float(x, "max_pool2d")
    xp = array_module(x)
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry("max_pool2d", x, kernel_size, stride, padding)
    xpad = _pad(xp, x, ph, pw, -math.inf)
    # a running maximum over the kernel positions; strictly greater wins, so ties keep the
    # first position (row-major in the window), and a NaN wins once and then stays
    out = xpad[_window_slice(0, 0, sh, sw, 1, 1, ho, wo)].copy()
    argmax = xp.zeros(out.shape, dtype=np.uint8 if kh * kw <= 256 else np.int64)
    for k in range(1, kh * kw):
        cand = xpad[_window_slice(k // kw, k % kw, sh, sw, 1, 1, ho, wo)]
        better = (cand > out) | (xp.isnan(cand) & ~xp.isnan(out))
        out = xp.where(better, cand, out)
        argmax = xp.where(better, k, argmax).astype(argmax.dtype, copy=False)
    return out, argmax


@register_kernel("max_pool2d_grad")
def max_pool2d_grad(x, argmax, out_grad, kernel_size, stride=None, padding=(0, 0)):
    xp = array_module(out_grad)
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry("max_pool2d", x, kernel_size, stride, padding)
    n, c, h, w = x.shape
    gpad = xp.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=out_grad.dtype)
    zero = xp.zeros((), dtype=out_grad.dtype)
    for i in range(kh):
        for j in range(kw):
            gpad[_window_slice(i, j, sh, sw, 1, 1, ho, wo)] += xp.where(argmax == i * kw + j, out_grad, zero)
    return xp.ascontiguousarray(gpad[:, :, ph : ph + h, pw : pw + w]).astype(x.dtype, copy=False)


@register_kernel("avg_pool2d")
def avg_pool2d(x, kernel_size, stride=None, padding=(0, 0)):
    _check_float(x, "avg_pool2d")
    xp = array_module(x)
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry("avg_pool2d", x, kernel_size, stride, padding)
    xpad = _pad(xp, x, ph, pw)
    total = xpad[_window_slice(0, 0, sh, sw, 1, 1, ho, wo)].copy()
    for k in range(1, kh * kw):
        total += xpad[_window_slice(k // kw, k % kw, sh, sw, 1, 1, ho, wo)]
    total *= 1.0 / (kh * kw)
    return total


@register_kernel("avg_pool2d_grad")
def avg_pool2d_grad(x, out_grad, kernel_size, stride=None, padding=(0, 0)):
    xp = array_module(out_grad)
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry("avg_pool2d", x, kernel_size, stride, padding)
    n, c, h, w = x.shape
    gpad = xp.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=out_grad.dtype)
    share = out_grad / (kh * kw)
    for i in range(kh):
        for j in range(kw):
            gpad[_window_slice(i, j, sh, sw, 1, 1, ho, wo)] += share
    return xp.ascontiguousarray(gpad[:, :, ph : ph + h, pw : pw + w]).astype(x.dtype, copy=False)


def _bin_matrix(xp: Any, size: int, out: int, dtype: Any) -> Any:
    """(out, size): row i averages [floor(i * size / out), ceil((i + 1) * size / out))."""
    i = np.arange(out)
    start = (i * size) // out
    end = -((-(i + 1) * size) // out)
    cols = np.arange(size)
    inside = (cols >= start[:, None]) & (cols < end[:, None])
    return xp.asarray(inside / (end - start)[:, None], dtype=dtype)


def _adaptive_bins(xp: Any, x: Any, output_size: Any, dtype: Any) -> tuple[Any, Any]:
    """The row and column bin-averaging matrices for x (N, C, H, W) and output_size."""
    _check_4d(x, "adaptive_avg_pool2d")
    if x.shape[1] == 0 or x.shape[2] == 0 or x.shape[3] == 0:
        raise ValueError(
            f"adaptive_avg_pool2d: x has shape {tuple(x.shape)}; expected non-zero channel, height and width"
        )
    oh, ow = pair(output_size, "adaptive_avg_pool2d", "output_size", 1)
    return _bin_matrix(xp, x.shape[2], oh, dtype), _bin_matrix(xp, x.shape[3], ow, dtype)


def _bin_ranges(size: int, out: int) -> list[tuple[int, int]]:
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def _adaptive_pool_by_bins(xp: Any, x: Any, oh: int, ow: int) -> Any:
    """The bin means one bin at a time: the matrix products spread a nan or inf of one bin
    to every bin (0 * inf is nan), so non-finite input takes this slower path."""
    out = xp.empty((*x.shape[:2], oh, ow), dtype=x.dtype)
    for i, (r0, r1) in enumerate(_bin_ranges(x.shape[2], oh)):
        for j, (c0, c1) in enumerate(_bin_ranges(x.shape[3], ow)):
            out[:, :, i, j] = x[:, :, r0:r1, c0:c1].mean(axis=(2, 3))
    return out


def _adaptive_pool_grad_by_bins(xp: Any, x: Any, out_grad: Any) -> Any:
    g = xp.zeros(x.shape, dtype=out_grad.dtype)
    oh, ow = out_grad.shape[2:]
    for i, (r0, r1) in enumerate(_bin_ranges(x.shape[2], oh)):
        for j, (c0, c1) in enumerate(_bin_ranges(x.shape[3], ow)):
            g[:, :, r0:r1, c0:c1] += out_grad[:, :, i : i + 1, j : j + 1] / ((r1 - r0) * (c1 - c0))
    return g


@register_kernel("adaptive_avg_pool2d")
def adaptive_avg_pool2d(x, output_size):
    _check_float(x, "adaptive_avg_pool2d")
    xp = array_module(x)
    rows, cols = _adaptive_bins(xp, x, output_size, x.dtype)
    if not xp.isfinite(x).all():
        return _adaptive_pool_by_bins(xp, x, rows.shape[0], cols.shape[0])
    return rows @ x @ cols.T


@register_kernel("adaptive_avg_pool2d_grad")
def adaptive_avg_pool2d_grad(x, out_grad, output_size):
    xp = array_module(out_grad)
    rows, cols = _adaptive_bins(xp, x, output_size, out_grad.dtype)
    if not xp.isfinite(out_grad).all():
        return _adaptive_pool_grad_by_bins(xp, x, out_grad).astype(x.dtype, copy=False)
    return (rows.T @ out_grad @ cols).astype(x.dtype, copy=False)


# --- normalisation --------------------------------------------------------------------------


def _check_affine(op: str, arg: str, t: Any, shape: tuple[int, ...]) -> None:
    if t is not None and tuple(t.shape) != tuple(shape):
        raise ValueError(f"{op}: {arg} must have shape {tuple(shape)}, got {tuple(t.shape)}")


def _norm_backward(xhat: Any, rstd: Any, gxhat: Any, axes: tuple[int, ...]) -> Any:
    """d/dx of (x - mean(x)) * rstd over `axes`, given the gradient of xhat."""
    m1 = gxhat.mean(axis=axes, keepdims=True)
    m2 = (gxhat * xhat).mean(axis=axes, keepdims=True)
    return rstd * (gxhat - m1 - xhat * m2)


def _affine_grads(
    weight: Any, bias: Any, xhat: Any, out_grad: Any, axes: tuple[int, ...], shape: tuple
) -> tuple:
    weight_grad = None if weight is None else (out_grad * xhat).sum(axis=axes).reshape(shape)
    bias_grad = None if bias is None else out_grad.sum(axis=axes).reshape(shape)
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
    _check_float(x, "layer_norm")
    _check_epsilon("layer_norm", epsilon)
    xp = array_module(x)
    shape, axes = _layer_axes(x, normalized_shape)
    _check_affine("layer_norm", "weight", weight, shape)
    _check_affine("layer_norm", "bias", bias, shape)
    mean = x.mean(axis=axes, keepdims=True)
    centered = x - mean
    rstd = 1.0 / xp.sqrt((centered * centered).mean(axis=axes, keepdims=True) + epsilon)
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
    xhat = (x - mean) * rstd
    gxhat = out_grad if weight is None else out_grad * weight
    x_grad = _norm_backward(xhat, rstd, gxhat, axes).astype(x.dtype, copy=False)
    lead = tuple(range(x.ndim - len(shape)))
    return (x_grad, *_affine_grads(weight, bias, xhat, out_grad, lead, shape))


def _channel_shape(x: Any) -> tuple[int, ...]:
    """Broadcast shape of a per-channel (axis 1) vector against x."""
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


@register_kernel("batch_norm")
@float32_inside
def batch_norm(
    x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9, epsilon=1e-5
):
    op = "batch_norm"
    _check_float(x, op)
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
        mean = x.mean(axis=axes, keepdims=True)
        centered = x - mean
        var = (centered * centered).mean(axis=axes, keepdims=True)
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
    xhat = (x - saved_mean) * saved_rstd
    gxhat = out_grad if weight is None else out_grad * weight.reshape(cshape)
    if training:
        x_grad = _norm_backward(xhat, saved_rstd, gxhat, axes)
    else:  # the statistics are constants
        x_grad = gxhat * saved_rstd
    return (
        x_grad.astype(x.dtype, copy=False),
        *_affine_grads(weight, bias, xhat, out_grad, axes, (x.shape[1],)),
    )


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
    _check_float(x, "group_norm")
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


# --- linear ---------------------------------------------------------------------------------


def _check_linear(x: Any, weight: Any, bias: Any) -> None:
    if weight.ndim != 2:
        raise ValueError(f"linear: weight must be 2-D (in_features, out_features), got shape {weight.shape}")
    if x.ndim < 1 or x.shape[-1] != weight.shape[0]:
        raise ValueError(
            f"linear: x has shape {x.shape} and weight has shape {weight.shape}; "
            f"expected x.shape[-1] == weight.shape[0] (in_features)"
        )
    if bias is not None and bias.shape != (weight.shape[1],):
        raise ValueError(
            f"linear: bias must have shape ({weight.shape[1]},) (out_features), got {bias.shape}"
        )


@register_kernel("linear")
def linear(x, weight, bias=None):
    _check_linear(x, weight, bias)
    out = array_module(x).matmul(x, weight)
    if bias is not None:
        out = out + bias
    return nd(out)


@register_kernel("linear_grad")
def linear_grad(x, weight, bias, out_grad):
    xp = array_module(x)
    fan_in, fan_out = weight.shape
    rows = math.prod(x.shape[:-1])  # not -1: reshape cannot infer it when fan_in or fan_out is 0
    g2 = out_grad.reshape(rows, fan_out)
    x_grad = xp.matmul(out_grad, weight.T).reshape(x.shape).astype(x.dtype, copy=False)
    weight_grad = xp.matmul(x.reshape(rows, fan_in).T, g2).astype(weight.dtype, copy=False)
    bias_grad = None if bias is None else unbroadcast(g2.sum(axis=0), bias.shape, bias.dtype)
    return x_grad, weight_grad, bias_grad
