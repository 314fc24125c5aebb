"""F.interpolate and the Upsample modules, with PyTorch's output for every mode.

Interpolation along one axis is a linear map, so `interpolate` builds, per spatial axis, the
(out, in) matrix of PyTorch's source indices and weights (nearest, nearest-exact, linear with
or without align_corners, cubic convolution with A = -0.75 and clamped borders, area =
adaptive averaging) and applies it with a matrix product: the result is made of ops, so it
differentiates to any order, and the gradient is the transposed map. The dense matrices cost
O(in * out) per axis, fine for the feature-map sizes of small models.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from opgrad.generated import ops
from opgrad.runtime.nn.module import Module
from opgrad.runtime.tensor import Tensor, wrap

__all__ = [
    "PixelShuffle",
    "PixelUnshuffle",
    "Upsample",
    "UpsamplingBilinear2d",
    "UpsamplingNearest2d",
    "interpolate",
]

_MODES = {
    "nearest": None,
    "nearest-exact": None,
    "linear": 1,
    "bilinear": 2,
    "bicubic": 2,
    "trilinear": 3,
    "area": None,
}
_CUBIC_A = -0.75


def _cubic(t: np.ndarray) -> np.ndarray:
    """The four cubic-convolution weights of the taps at offsets -1, 0, 1, 2 from floor(src)."""
    a = _CUBIC_A

    def near(x: np.ndarray) -> np.ndarray:  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x: np.ndarray) -> np.ndarray:  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return np.stack([far(t + 1), near(t), near(1 - t), far(2 - t)], axis=-1)


def _matrix(mode: str, n_in: int, n_out: int, scale: float | None, align_corners: bool) -> np.ndarray:
    """The (n_out, n_in) interpolation matrix of one axis, as PyTorch computes its sources."""
    m = np.zeros((n_out, n_in))
    dst = np.arange(n_out, dtype=np.float64)
    rows = np.arange(n_out)
    if mode == "area":  # adaptive average pooling's bins
        for i in range(n_out):
            lo, hi = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
            m[i, lo:hi] = 1.0 / (hi - lo)
        return m
    if mode in ("nearest", "nearest-exact"):
        step = (1.0 / scale) if scale is not None else n_in / n_out
        offset = 0.5 if mode == "nearest-exact" else 0.0
        src = np.minimum(np.floor((dst + offset) * step).astype(np.int64), n_in - 1)
        m[rows, src] = 1.0
        return m
    if align_corners:
        step = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        src = dst * step
    else:
        step = (1.0 / scale) if scale is not None else n_in / n_out
        src = (dst + 0.5) * step - 0.5
    if mode == "bicubic":
        base = np.floor(src).astype(np.int64)
        weights = _cubic(src - base)
        for k in range(4):
            np.add.at(m, (rows, np.clip(base - 1 + k, 0, n_in - 1)), weights[:, k])
        return m
    if not align_corners:
        src = np.maximum(src, 0.0)  # PyTorch clamps linear sources below 0
    base = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    upper = np.minimum(base + 1, n_in - 1)
    frac = src - base
    np.add.at(m, (rows, base), 1.0 - frac)
    np.add.at(m, (rows, upper), frac)
    return m


def _per_axis(name: str, value: Any, dims: int, kind: type) -> list[Any] | None:
    if value is None:
        return None
    values = list(value) if isinstance(value, (list, tuple)) else [value] * dims
    if len(values) != dims:
        raise ValueError(
            f"interpolate: {name} must have {dims} entries for {dims} spatial dimensions, got {value!r}"
        )
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0 or (kind is int and v != int(v)):
            raise ValueError(f"interpolate: {name} must hold positive {kind.__name__}s, got {value!r}")
    return [kind(v) for v in values]


def interpolate(
    input: Tensor,  # noqa: A002 - PyTorch's name
    size: int | Sequence[int] | None = None,
    scale_factor: float | Sequence[float] | None = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resample the spatial axes of input (N, C, *spatial) to `size` or by `scale_factor`, as
    torch.nn.functional.interpolate: modes nearest, nearest-exact, linear (3-D input),
    bilinear and bicubic (4-D), trilinear (5-D), area; align_corners for the interpolating
    modes."""
    if not isinstance(input, Tensor):
        raise TypeError(f"interpolate: input must be a Tensor, got {type(input).__name__}")
    if mode not in _MODES:
        raise ValueError(f"interpolate: mode must be one of {sorted(_MODES)}, got {mode!r}")
    dims = input.ndim - 2
    if dims < 1 or dims > 3:
        raise ValueError(
            f"interpolate: input must be 3-D, 4-D or 5-D (N, C, *spatial), got shape {tuple(input.shape)}"
        )
    need = _MODES[mode]
    if need is not None and need != dims:
        raise ValueError(
            f"interpolate: mode {mode!r} needs {need + 2}-D input, got {dims + 2}-D "
            f"(shape {tuple(input.shape)})"
        )
    interpolating = mode in ("linear", "bilinear", "bicubic", "trilinear")
    if align_corners is not None and not interpolating:
        raise ValueError(
            "interpolate: align_corners can only be set with the interpolating modes linear, bilinear, "
            f"bicubic and trilinear, not {mode!r}"
        )
    if antialias:
        raise ValueError("interpolate: antialias=True is not supported")
    if (size is None) == (scale_factor is None):
        raise ValueError("interpolate: give exactly one of size and scale_factor")
    spatial = list(input.shape[2:])
    sizes = _per_axis("size", size, dims, int)
    scales = _per_axis("scale_factor", scale_factor, dims, float)
    if sizes is None:
        assert scales is not None
        sizes = [math.floor(n * s) for n, s in zip(spatial, scales, strict=True)]
        if any(s < 1 for s in sizes):
            raise ValueError(
                f"interpolate: scale_factor {scale_factor!r} makes an empty output from {spatial}"
            )
    use_scales = scales if scales is not None and not recompute_scale_factor else [None] * dims
    x = input
    for axis in range(dims):
        n_in, n_out = spatial[axis], sizes[axis]
        if n_in == n_out and mode != "bicubic" and use_scales[axis] in (None, 1.0):
            continue  # the identity map
        m = _matrix(mode, n_in, n_out, use_scales[axis], bool(align_corners))
        mt = wrap(m.T.astype(input.dtype))
        pos = 2 + axis
        perm = [i for i in range(x.ndim) if i != pos] + [pos]
        back = list(np.argsort(perm))
        x = ops.transpose(ops.matmul(ops.transpose(x, perm), mt), back)
    return x if x is not input else ops.scale(input, 1.0)


class Upsample(Module):
    """interpolate as a module (torch.nn.Upsample): size or scale_factor, mode, align_corners."""

    def __init__(
        self,
        size: int | Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        if mode not in _MODES:
            raise ValueError(f"Upsample: mode must be one of {sorted(_MODES)}, got {mode!r}")
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return interpolate(
            input, self.size, self.scale_factor, self.mode, self.align_corners, self.recompute_scale_factor
        )

    def extra_repr(self) -> str:
        what = f"size={self.size}" if self.size is not None else f"scale_factor={self.scale_factor}"
        return f"{what}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "bilinear", align_corners=True)


class PixelShuffle(Module):
    """og.pixel_shuffle as a module: (N, C * r^2, H, W) -> (N, C, H * r, W * r)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """og.pixel_unshuffle as a module: (N, C, H * r, W * r) -> (N, C * r^2, H, W)."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class Unfold(Module):
    """og.unfold (im2col) as a module, torch.nn.Unfold's arguments."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(Module):
    """og.fold (col2im) as a module, torch.nn.Fold's arguments."""

    def __init__(
        self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
    ) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)
