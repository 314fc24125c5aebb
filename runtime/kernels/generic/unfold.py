"""unfold (im2col as an op) and fold (its adjoint, col2im), with torch.nn.functional's
arguments and layout: unfold maps (N, C, H, W) to (N, C * kh * kw, L), channel-major then
kernel row and column, L the number of sliding positions row by row; fold sums such columns
back into (N, C, H, W), overlapping positions adding up. Each one's gradient is the other.
"""

from __future__ import annotations

from opgrad.runtime.kernels.common import array_module, pair
from opgrad.runtime.kernels.registry import register_kernel


def _geometry(op, h, w, kernel_size, dilation, padding, stride):
    kh, kw = pair(kernel_size, op, "kernel_size", 1)
    dh, dw = pair(dilation, op, "dilation", 1)
    ph, pw = pair(padding, op, "padding", 0)
    sh, sw = pair(stride, op, "stride", 1)
    ho = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    wo = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if ho <= 0 or wo <= 0:
        raise ValueError(
            f"{op}: a ({kh}, {kw}) kernel with dilation ({dh}, {dw}) does not fit the padded input "
            f"({h + 2 * ph}, {w + 2 * pw}); no sliding position"
        )
    return kh, kw, dh, dw, ph, pw, sh, sw, ho, wo


def _slice(i, j, dh, dw, sh, sw, ho, wo):
    r, c = i * dh, j * dw
    return (Ellipsis, slice(r, r + sh * (ho - 1) + 1, sh), slice(c, c + sw * (wo - 1) + 1, sw))


def _unfold(x, kernel_size, dilation, padding, stride, op="unfold"):
    if x.ndim not in (3, 4):
        raise ValueError(f"{op}: x must be 3-D (C, H, W) or 4-D (N, C, H, W), got shape {x.shape}")
    batched = x.ndim == 4
    x4 = x if batched else x[None]
    n, c, h, w = x4.shape
    kh, kw, dh, dw, ph, pw, sh, sw, ho, wo = _geometry(op, h, w, kernel_size, dilation, padding, stride)
    xp = array_module(x)
    xpad = xp.pad(x4, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x4
    out = xp.empty((n, c, kh, kw, ho, wo), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i, j] = xpad[_slice(i, j, dh, dw, sh, sw, ho, wo)]
    out = out.reshape(n, c * kh * kw, ho * wo)
    return out if batched else out[0]


@register_kernel("unfold")
def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    return _unfold(x, kernel_size, dilation, padding, stride)


def _fold(x, output_size, kernel_size, dilation, padding, stride, op="fold"):
    if x.ndim not in (2, 3):
        raise ValueError(
            f"{op}: x must be 2-D (C * kh * kw, L) or 3-D (N, C * kh * kw, L), got shape {x.shape}"
        )
    h, w = pair(output_size, op, "output_size", 1)
    batched = x.ndim == 3
    x3 = x if batched else x[None]
    n, ck, length = x3.shape
    kh, kw, dh, dw, ph, pw, sh, sw, ho, wo = _geometry(op, h, w, kernel_size, dilation, padding, stride)
    if ck % (kh * kw) or length != ho * wo:
        raise ValueError(
            f"{op}: x has shape {x.shape}; for output_size ({h}, {w}) and a ({kh}, {kw}) kernel it must be "
            f"(N, C * {kh * kw}, {ho * wo})"
        )
    c = ck // (kh * kw)
    xp = array_module(x)
    cols = x3.reshape(n, c, kh, kw, ho, wo)
    out = xp.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[_slice(i, j, dh, dw, sh, sw, ho, wo)] += cols[:, :, i, j]
    out = xp.ascontiguousarray(out[:, :, ph : ph + h, pw : pw + w])
    return out if batched else out[0]


@register_kernel("fold")
def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    return _fold(x, output_size, kernel_size, dilation, padding, stride)


@register_kernel("unfold_grad")
def unfold_grad(x, out_grad, kernel_size, dilation=1, padding=0, stride=1):
    """fold of the gradient back to x's (H, W)."""
    return _fold(out_grad, x.shape[-2:], kernel_size, dilation, padding, stride, "unfold_grad")
