"""conv_transpose2d and conv1d kernels, reusing conv2d's (runtime/kernels/generic/cnn.py).

conv_transpose2d is the adjoint of conv2d in its input: conv2d_grad's input gradient for an
input of the transposed convolution's output size (its shape comes from stride, padding,
dilation and output_padding), with the same weight layout (in, out / groups, kh, kw) as
PyTorch and Paddle. conv1d is conv2d over (N, C, 1, L). Their gradients are composites of
conv2d and conv2d_grad in backward.yaml, so every order works.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from opgrad.runtime.kernels.common import array_module, pair
from opgrad.runtime.kernels.generic.cnn import conv2d, conv2d_grad
from opgrad.runtime.kernels.registry import register_kernel

_LEADING_OP = re.compile(r"(\w+): ")


def _named(op: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The kernels here run conv2d's: an error it raises names conv2d (`conv2d: padding=...
    asks for a result too large`), which the caller of conv1d never called. Re-raised with
    `op` in its place, of the same type."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def kernel(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except (ValueError, TypeError, IndexError, RuntimeError, MemoryError) as exc:
                text = str(exc)
                m = _LEADING_OP.match(text)
                if m is None or m.group(1) == op or not m.group(1).startswith("conv"):
                    raise
                raise type(exc)(f"{op}: {text[m.end() :]}") from None

        return kernel

    return decorate


@register_kernel("conv_transpose2d")
@_named("conv_transpose2d")
def conv_transpose2d(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    op = "conv_transpose2d"
    if x.ndim != 4 or weight.ndim != 4:
        raise ValueError(
            f"{op}: x must be (N, C_in, H, W) and weight (C_in, C_out / groups, kh, kw), "
            f"got {x.shape} and {weight.shape}"
        )
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1 or x.shape[1] % groups:
        raise ValueError(
            f"{op}: groups must be a positive divisor of the input channels ({x.shape[1]}), got {groups!r}"
        )
    if weight.shape[0] != x.shape[1]:
        raise ValueError(f"{op}: weight has {weight.shape[0]} input channels (axis 0) but x has {x.shape[1]}")
    sh, sw = pair(stride, op, "stride", 1)
    ph, pw = pair(padding, op, "padding", 0)
    oh, ow = pair(output_padding, op, "output_padding", 0)
    dh, dw = pair(dilation, op, "dilation", 1)
    if oh >= max(sh, dh) or ow >= max(sw, dw):
        raise ValueError(
            f"{op}: output_padding ({oh}, {ow}) must be smaller than stride ({sh}, {sw}) or "
            f"dilation ({dh}, {dw})"
        )
    n, _, h, w = x.shape
    kh, kw = weight.shape[2:]
    ho = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oh + 1
    wo = (w - 1) * sw - 2 * pw + dw * (kw - 1) + ow + 1
    if ho <= 0 or wo <= 0:
        raise ValueError(f"{op}: the output would be empty ({ho}, {wo}); padding is too large")
    shape = (n, weight.shape[1] * groups, ho, wo)
    placeholder = array_module(x).empty(shape, dtype=x.dtype)  # conv2d_grad reads only its shape
    out, _, _ = conv2d_grad(
        placeholder, weight, None, x, (sh, sw), (ph, pw), (dh, dw), groups, (True, False, False)
    )
    if bias is not None:
        if bias.shape != (shape[1],):
            raise ValueError(f"{op}: bias must have shape ({shape[1]},) (output channels), got {bias.shape}")
        out = out + bias.reshape(1, -1, 1, 1)
    return out


@register_kernel("conv1d")
@_named("conv1d")
def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if x.ndim != 3 or weight.ndim != 3:
        raise ValueError(
            f"conv1d: x must be (N, C, L) and weight (O, C / groups, k), got {x.shape} and {weight.shape}"
        )
    s, p, d = (
        pair(v, "conv1d", name, lo)[0]
        for v, name, lo in ((stride, "stride", 1), (padding, "padding", 0), (dilation, "dilation", 1))
    )
    out = conv2d(x[:, :, None, :], weight[:, :, None, :], bias, (1, s), (0, p), (1, d), groups)
    return out[:, :, 0, :]


@register_kernel("conv_transpose1d")
@_named("conv_transpose1d")
def conv_transpose1d(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    if x.ndim != 3 or weight.ndim != 3:
        raise ValueError(
            f"conv_transpose1d: x must be (N, C_in, L) and weight (C_in, C_out / groups, k), "
            f"got {x.shape} and {weight.shape}"
        )
    out = conv_transpose2d(
        x[:, :, None, :],
        weight[:, :, None, :],
        bias,
        (1, stride),
        (0, padding),
        (0, output_padding),
        groups,
        (1, dilation),
    )
    return out[:, :, 0, :]


def _triple(value, op, arg, minimum):
    v = [value] * 3 if isinstance(value, int) and not isinstance(value, bool) else list(value)
    if len(v) == 1:
        v = v * 3
    if len(v) != 3 or any(isinstance(a, bool) or not isinstance(a, int) or a < minimum for a in v):
        raise ValueError(f"{op}: {arg} must be an int >= {minimum} or a list of 3 such ints, got {value!r}")
    return tuple(v)


def _conv3d_geometry(x, weight, bias, stride, padding, dilation, groups):
    op = "conv3d"
    if x.ndim != 5 or weight.ndim != 5:
        raise ValueError(
            f"{op}: x must be (N, C, D, H, W) and weight (O, C / groups, kd, kh, kw), "
            f"got {x.shape} and {weight.shape}"
        )
    if bias is not None and bias.shape != (weight.shape[0],):
        raise ValueError(
            f"{op}: bias must have shape ({weight.shape[0]},) (output channels), got {bias.shape}"
        )
    s = _triple(stride, op, "stride", 1)
    p = _triple(padding, op, "padding", 0)
    d = _triple(dilation, op, "dilation", 1)
    kd = weight.shape[2]
    if min(weight.shape[2:]) < 1:
        raise ValueError(f"{op}: weight has shape {weight.shape}; expected a kernel of at least 1 x 1 x 1")
    depth = (x.shape[2] + 2 * p[0] - d[0] * (kd - 1) - 1) // s[0] + 1
    if depth <= 0:
        raise ValueError(
            f"{op}: the depth axis ({x.shape[2]}, padding {p[0]}) is smaller than the kernel ({kd})"
        )
    return s, p, d, kd, depth


def _depth_slices(xp, x, s, p, d, kd, depth):
    """For each kernel depth i: the input depths it meets, as a (N * D_out, C, H, W) batch."""
    xpad = xp.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (0, 0), (0, 0))) if p[0] else x
    n, c, _, h, w = x.shape
    for i in range(kd):
        xs = xpad[:, :, i * d[0] : i * d[0] + s[0] * (depth - 1) + 1 : s[0]]
        yield i, xs.transpose(0, 2, 1, 3, 4).reshape(n * depth, c, h, w)


@register_kernel("conv3d")
@_named("conv3d")
def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv2d over the (N * D_out) depth slices, once per kernel depth, summed."""
    xp = array_module(x)
    s, p, d, kd, depth = _conv3d_geometry(x, weight, bias, stride, padding, dilation, groups)
    out = None
    for i, xs in _depth_slices(xp, x, s, p, d, kd, depth):
        r = conv2d(xs, weight[:, :, i], None, s[1:], p[1:], d[1:], groups)
        out = r if out is None else out + r
    n = x.shape[0]
    out = out.reshape(n, depth, *out.shape[1:]).transpose(0, 2, 1, 3, 4)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1, 1)
    return xp.ascontiguousarray(out)


@register_kernel("conv3d_grad")
def conv3d_grad(x, weight, bias, out_grad, stride=1, padding=0, dilation=1, groups=1, needs=None):
    xp = array_module(x)
    want_x, want_w, want_b = (True, True, True) if needs is None else needs
    s, p, d, kd, depth = _conv3d_geometry(x, weight, bias, stride, padding, dilation, groups)
    n, c, d_in, h, w = x.shape
    g2 = out_grad.transpose(0, 2, 1, 3, 4).reshape(n * depth, out_grad.shape[1], *out_grad.shape[3:])
    x_grad_pad = xp.zeros((n, c, d_in + 2 * p[0], h, w), dtype=x.dtype) if want_x else None
    weight_grad = xp.empty(weight.shape, dtype=weight.dtype) if want_w else None
    for i, xs in _depth_slices(xp, x, s, p, d, kd, depth):
        xg, wg, _ = conv2d_grad(
            xs, weight[:, :, i], None, g2, s[1:], p[1:], d[1:], groups, (want_x, want_w, False)
        )
        if want_w:
            weight_grad[:, :, i] = wg
        if want_x:
            xg = xg.reshape(n, depth, c, h, w).transpose(0, 2, 1, 3, 4)
            x_grad_pad[:, :, i * d[0] : i * d[0] + s[0] * (depth - 1) + 1 : s[0]] += xg
    x_grad = xp.ascontiguousarray(x_grad_pad[:, :, p[0] : p[0] + d_in]) if want_x else None
    bias_grad = out_grad.sum(axis=(0, 2, 3, 4)).astype(bias.dtype) if bias is not None and want_b else None
    return x_grad, weight_grad, bias_grad


# --- first-order gradients (the composites in backward.yaml serve the recorded path) ---------


@register_kernel("conv_transpose2d_grad")
def conv_transpose2d_grad(
    x, weight, out_grad, stride=1, padding=0, output_padding=0, groups=1, dilation=1, needs=None
):
    want_x, want_w, want_b = (True, True, True) if needs is None else needs
    s, p, d = (
        pair(stride, "conv_transpose2d", "stride", 1),
        pair(padding, "conv_transpose2d", "padding", 0),
        pair(dilation, "conv_transpose2d", "dilation", 1),
    )
    x_grad = conv2d(out_grad, weight, None, s, p, d, groups) if want_x else None
    weight_grad = None
    if want_w:
        _, weight_grad, _ = conv2d_grad(out_grad, weight, None, x, s, p, d, groups, (False, True, False))
    bias_grad = out_grad.sum(axis=(0, 2, 3)) if want_b else None
    return x_grad, weight_grad, bias_grad


@register_kernel("conv_transpose1d_grad")
def conv_transpose1d_grad(
    x, weight, out_grad, stride=1, padding=0, output_padding=0, groups=1, dilation=1, needs=None
):
    r = conv_transpose2d_grad(
        x[:, :, None, :],
        weight[:, :, None, :],
        out_grad[:, :, None, :],
        (1, stride),
        (0, padding),
        (0, output_padding),
        groups,
        (1, dilation),
        needs,
    )
    return tuple(None if a is None else (a[:, :, 0, :] if a.ndim == 4 else a) for a in r)


@register_kernel("conv1d_grad")
def conv1d_grad(x, weight, out_grad, stride=1, padding=0, dilation=1, groups=1, needs=None):
    want_x, want_w, want_b = (True, True, True) if needs is None else needs
    xg, wg, _ = conv2d_grad(
        x[:, :, None, :],
        weight[:, :, None, :],
        None,
        out_grad[:, :, None, :],
        (1, stride),
        (0, padding),
        (1, dilation),
        groups,
        (want_x, want_w, False),
    )
    return (
        None if xg is None else xg[:, :, 0, :],
        None if wg is None else wg[:, :, 0, :],
        out_grad.sum(axis=(0, 2)) if want_b else None,
    )
