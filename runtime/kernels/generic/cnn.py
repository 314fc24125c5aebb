"""Convolution, pooling and linear kernels (NCHW), their grads, and max_pool2d's double
grad. The norms are in `normalization.py`.

conv2d is im2col: `sliding_window_view` of the zero-padded input, strided and dilated by
slicing, copied once into a (groups, C/groups*kh*kw, N*Ho*Wo) matrix and multiplied by the
weight as one batched matmul; its input gradient is col2im, a loop over the kh*kw kernel
positions that adds strided slices. With one group and more channels than output columns,
the same is done on channels-last rows (N*Ho*Wo, kh*kw*C), whose copy moves longer runs
(`_rows_layout`). Pooling loops over kernel positions the same way, in
both directions (no window copies, no scatter). max_pool2d saves, as an intermediate, the
index (uint8) of each window's first maximum, row-major in the window. adaptive_avg_pool2d
multiplies by two bin-averaging matrices (one per spatial axis), so the general case
(sizes that do not divide) is exact.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from opgrad.runtime.kernels.common import (
    allocation_error,
    array_module,
    as_int,
    check_float,
    nd,
    pair,
    unbroadcast,
)
from opgrad.runtime.kernels.registry import register_kernel

# --- argument checks ------------------------------------------------------------------------


def _check_4d(x: Any, op: str, arg: str = "x") -> None:
    if x.ndim != 4:
        raise ValueError(f"{op}: {arg} must be 4-D (N, C, H, W), got shape {x.shape}")


def _out_size(op: str, size: int, k: int, s: int, p: int, d: int, axis: str) -> int:
    n = (size + 2 * p - d * (k - 1) - 1) // s + 1
    if n <= 0:
        raise ValueError(
            f"{op}: the {axis} axis of the input ({size}, padding {p}) is smaller than the "
            f"kernel ({k}, dilation {d}); the output would be empty"
        )
    return n


def _pad(xp: Any, x: Any, ph: int, pw: int, value: float = 0.0) -> Any:
    """x (N, C, H, W) padded with `value` (a fill and one copy: `pad` costs ~20 us more)."""
    if ph == 0 and pw == 0:
        return x
    n, c, h, w = x.shape
    out = xp.full((n, c, h + 2 * ph, w + 2 * pw), value, dtype=x.dtype)
    out[:, :, ph : ph + h, pw : pw + w] = x
    return out


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


# Channels-last columns. The copy that builds the (K, N*Ho*Wo) columns above moves
# contiguous runs of Wo values (one output row); with many channels and small images (the
# CNN demo's second layer: 16 channels, 4x4) those runs are a few values long and the copy
# dominates. For one group, the columns can instead be rows (N*Ho*Wo, kh*kw*C) gathered from
# a channels-last copy of the padded input, where one kernel row of one window is kw*C
# contiguous values. `_rows_layout` picks whichever layout copies the longer runs; both give
# the same products in another order (tests/test_fast_paths.py compares them).


def _rows_layout(x: Any, weight: Any, geo: tuple) -> bool:
    g, sw, dw, wo = geo[0], geo[4], geo[8], geo[10]
    run_rows = weight.shape[1] * (weight.shape[3] if dw == 1 else 1)
    run_cols = wo if sw == 1 else 1
    return g == 1 and run_rows > run_cols


def _pad_channels_last(xp: Any, x: Any, ph: int, pw: int) -> Any:
    """x (N, C, H, W) as a zero-padded (N, H + 2ph, W + 2pw, C) array."""
    n, c, h, w = x.shape
    xpad = xp.zeros((n, h + 2 * ph, w + 2 * pw, c), dtype=x.dtype)
    xpad[:, ph : ph + h, pw : pw + w, :] = x.transpose(0, 2, 3, 1)
    return xpad


def _im2row(xp: Any, x: Any, geo: tuple) -> Any:
    """(N*Ho*Wo, kh*kw*C): each row one receptive field, (kernel row, kernel column, channel)."""
    _, kh, kw, sh, sw, ph, pw, dh, dw, ho, wo = geo
    n, c = x.shape[:2]
    eh, ew = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    v = xp.lib.stride_tricks.sliding_window_view(_pad_channels_last(xp, x, ph, pw), (eh, ew), axis=(1, 2))
    v = v[:, : sh * (ho - 1) + 1 : sh, : sw * (wo - 1) + 1 : sw, :, ::dh, ::dw]  # (N, Ho, Wo, C, kh, kw)
    return v.transpose(0, 1, 2, 4, 5, 3).reshape(n * ho * wo, kh * kw * c)


def _weight_rows(weight: Any) -> Any:
    """weight (O, C, kh, kw) as the (kh*kw*C, O) matrix that multiplies `_im2row`'s rows."""
    o, c, kh, kw = weight.shape
    return weight.transpose(2, 3, 1, 0).reshape(kh * kw * c, o)


def _conv2d_rows(xp: Any, x: Any, weight: Any, bias: Any, geo: tuple) -> Any:
    n, o, ho, wo = x.shape[0], weight.shape[0], geo[-2], geo[-1]
    out = xp.matmul(_im2row(xp, x, geo), _weight_rows(weight))  # (N*Ho*Wo, O)
    if bias is not None and bias.dtype == out.dtype:
        out += bias
    elif bias is not None:
        out = out + bias
    return xp.ascontiguousarray(out.reshape(n, ho, wo, o).transpose(0, 3, 1, 2))


def _conv2d_grad_rows(
    xp: Any, x: Any, weight: Any, out_grad: Any, geo: tuple, want_x: bool, want_w: bool
) -> tuple[Any, Any]:
    _, kh, kw, sh, sw, ph, pw, dh, dw, ho, wo = geo
    n, c, h, w = x.shape
    o = weight.shape[0]
    g2 = out_grad.transpose(0, 2, 3, 1).reshape(n * ho * wo, o)
    weight_grad = x_grad = None
    if want_w:
        wg = xp.matmul(_im2row(xp, x, geo).T, g2).reshape(kh, kw, c, o).transpose(3, 2, 0, 1)
        weight_grad = xp.ascontiguousarray(wg).astype(weight.dtype, copy=False)
    if want_x:  # row2im: each kernel position's gradient added where it was read
        rows = xp.matmul(g2, _weight_rows(weight).T).reshape(n, ho, wo, kh, kw, c)
        gpad = xp.zeros((n, h + 2 * ph, w + 2 * pw, c), dtype=rows.dtype)
        for i in range(kh):
            for j in range(kw):
                r, q = i * dh, j * dw
                gpad[:, r : r + sh * (ho - 1) + 1 : sh, q : q + sw * (wo - 1) + 1 : sw] += rows[:, :, :, i, j]
        x_grad = xp.ascontiguousarray(gpad[:, ph : ph + h, pw : pw + w].transpose(0, 3, 1, 2))
        x_grad = x_grad.astype(x.dtype, copy=False)
    return x_grad, weight_grad


@register_kernel("conv2d")
def conv2d(x, weight, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    xp = array_module(x)
    geo = _conv_geometry(x, weight, bias, stride, padding, dilation, groups)
    g, ho, wo = geo[0], geo[-2], geo[-1]
    n, o = x.shape[0], weight.shape[0]
    if _rows_layout(x, weight, geo):
        try:
            return _conv2d_rows(xp, x, weight, bias, geo)
        except (MemoryError, ValueError) as e:  # the padding sets the size of the rows
            raise allocation_error("conv2d", "padding", padding, e) from None
    k = math.prod(weight.shape[1:])  # not -1: reshape cannot infer it when O is 0
    try:
        cols = _im2col(xp, x, geo)
    except (MemoryError, ValueError) as e:  # the padding sets the size of the columns
        raise allocation_error("conv2d", "padding", padding, e) from None
    out = _bmm(xp, weight.reshape(g, o // g, k), cols)  # (g, O/g, N*Ho*Wo)
    out = out.reshape(g, o // g, n, ho, wo).transpose(2, 0, 1, 3, 4).reshape(n, o, ho, wo)
    if bias is not None:
        out = out + bias.reshape(1, o, 1, 1)
    return xp.ascontiguousarray(out)


@register_kernel("conv2d_grad")
def conv2d_grad(
    x, weight, bias, out_grad, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1, needs=None
):
    xp = array_module(x)
    want_x, want_w, want_b = (True, True, True) if needs is None else needs
    geo = _conv_geometry(x, weight, None, stride, padding, dilation, groups)
    g, kh, kw, sh, sw, ph, pw, dh, dw, ho, wo = geo
    n, c, h, w = x.shape
    o = weight.shape[0]
    bias_grad = None
    if bias is not None and want_b:
        bias_grad = out_grad.sum(axis=(0, 2, 3)).astype(bias.dtype, copy=False)
    if _rows_layout(x, weight, geo):
        x_grad, weight_grad = _conv2d_grad_rows(xp, x, weight, out_grad, geo, want_x, want_w)
        return x_grad, weight_grad, bias_grad
    gmat = out_grad.reshape(n, g, o // g, ho * wo).transpose(1, 2, 0, 3).reshape(g, o // g, n * ho * wo)
    weight_grad = None
    if want_w:
        cols = _im2col(xp, x, geo)
        weight_grad = (
            _bmm(xp, gmat, cols.transpose(0, 2, 1)).reshape(weight.shape).astype(weight.dtype, copy=False)
        )
        del cols
    if not want_x:  # the input's gradient (col2im) is the costly part: skip it when unused
        return None, weight_grad, bias_grad
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
    return xp.ascontiguousarray(x_grad).astype(x.dtype, copy=False), weight_grad, bias_grad


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


def _max_pool_running(xp: Any, cands: list[Any], index_dtype: Any) -> tuple[Any, Any]:
    """Max and first argmax over the kernel positions' views `cands`, NaN included: a running
    maximum where strictly greater wins, so ties keep the first position (row-major in the
    window), and a NaN wins once and then stays."""
    out = cands[0].copy()
    argmax = xp.zeros(out.shape, dtype=index_dtype)
    for k in range(1, len(cands)):
        cand = cands[k]
        better = (cand > out) | (xp.isnan(cand) & ~xp.isnan(out))
        out = xp.where(better, cand, out)
        argmax = xp.where(better, k, argmax).astype(index_dtype, copy=False)
    return out, argmax


@register_kernel("max_pool2d")
def max_pool2d(x, kernel_size, stride=None, padding=(0, 0)):
    check_float("max_pool2d", "x", x)
    xp = array_module(x)
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry("max_pool2d", x, kernel_size, stride, padding)
    xpad = _pad(xp, x, ph, pw, -math.inf)
    index_dtype = np.uint8 if kh * kw <= 256 else np.int64
    cands = [xpad[_window_slice(k // kw, k % kw, sh, sw, 1, 1, ho, wo)] for k in range(kh * kw)]
    if len(cands) == 1:
        return cands[0].copy(), xp.zeros(cands[0].shape, dtype=index_dtype)
    # without NaN, the same result in fewer passes: the maximum, then the first position
    # that holds it (a signed zero may come out as the other zero), as the Horner form
    # ne0 * (1 + ne1 * (1 + ... ne[K-2])) of ne_k = (position k is not the maximum)
    out = xp.maximum(cands[0], cands[1])
    for cand in cands[2:]:
        xp.maximum(out, cand, out=out)
    if xp.isnan(out).any():
        return _max_pool_running(xp, cands, index_dtype)
    argmax = (cands[-2] != out).astype(index_dtype)
    for cand in reversed(cands[:-2]):
        argmax += 1
        argmax *= cand != out
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


@register_kernel("avg_pool2d")
def avg_pool2d(x, kernel_size, stride=None, padding=(0, 0)):
    check_float("avg_pool2d", "x", x)
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
    check_float("adaptive_avg_pool2d", "x", x)
    xp = array_module(x)
    try:
        rows, cols = _adaptive_bins(xp, x, output_size, x.dtype)
    except (MemoryError, ValueError) as e:
        raise allocation_error("adaptive_avg_pool2d", "output_size", output_size, e) from None
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
    xp = array_module(x)
    if x.ndim > 2 and x.flags.c_contiguous:  # one (rows, in) @ (in, out) product, not a batch
        rows = math.prod(x.shape[:-1])
        out = xp.matmul(x.reshape(rows, x.shape[-1]), weight).reshape(*x.shape[:-1], weight.shape[1])
    else:
        out = xp.matmul(x, weight)
    if bias is not None:
        if bias.dtype == out.dtype:  # out is fresh: add in place (no second result buffer)
            out += bias
        else:
            out = out + bias
    return nd(out)


@register_kernel("linear_grad")
def linear_grad(x, weight, bias, out_grad, needs=None):
    xp = array_module(x)
    want_x, want_w, want_b = (True, True, True) if needs is None else needs
    fan_in, fan_out = weight.shape
    rows = math.prod(x.shape[:-1])  # not -1: reshape cannot infer it when fan_in or fan_out is 0
    g2 = out_grad.reshape(rows, fan_out)
    x_grad = weight_grad = bias_grad = None
    if want_x:
        x_grad = xp.matmul(g2, weight.T).reshape(x.shape).astype(x.dtype, copy=False)
    if want_w:
        weight_grad = xp.matmul(x.reshape(rows, fan_in).T, g2).astype(weight.dtype, copy=False)
    if bias is not None and want_b:
        bias_grad = unbroadcast(g2.sum(axis=0), bias.shape, bias.dtype)
    return x_grad, weight_grad, bias_grad
