"""conv_transpose2d and conv1d kernels, reusing conv2d's (runtime/kernels/generic/cnn.py).

conv_transpose2d is the adjoint of conv2d in its input: conv2d_grad's input gradient for an
input of the transposed convolution's output size (its shape comes from stride, padding,
dilation and output_padding), with the same weight layout (in, out / groups, kh, kw) as
PyTorch and Paddle. conv1d is conv2d over (N, C, 1, L). Their gradients are composites of
conv2d and conv2d_grad in backward.yaml, so every order works.
"""

from __future__ import annotations

from opgrad.runtime.kernels.common import array_module
from opgrad.runtime.kernels.generic.cnn import conv2d, conv2d_grad, pair
from opgrad.runtime.kernels.registry import register_kernel


@register_kernel("conv_transpose2d")
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
