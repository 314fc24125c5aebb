"""1-D pooling (torch.nn.functional.max_pool1d, avg_pool1d, adaptive_avg_pool1d and their
modules) as the 2-D pooling ops over a height of 1, so they differentiate to any order as
those do. Input (N, C, L) or unbatched (C, L)."""

from __future__ import annotations

from typing import Any

from opgrad.generated import ops
from opgrad.runtime.nn.module import Module
from opgrad.runtime.tensor import Tensor

__all__ = [
    "AdaptiveAvgPool1d",
    "AvgPool1d",
    "MaxPool1d",
    "adaptive_avg_pool1d",
    "avg_pool1d",
    "max_pool1d",
]


def _one(op: str, arg: str, v: Any, minimum: int) -> int:
    if isinstance(v, (list, tuple)) and len(v) == 1:
        v = v[0]
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise ValueError(f"{op}: {arg} must be an int >= {minimum} (or a 1-list), got {v!r}")
    return v


def _as_4d(op: str, x: Any) -> tuple[Tensor, bool]:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: input must be a Tensor, got {type(x).__name__}")
    if x.ndim not in (2, 3):
        raise ValueError(f"{op}: input must be (N, C, L) or (C, L), got shape {tuple(x.shape)}")
    batched = x.ndim == 3
    return ops.unsqueeze(x if batched else ops.unsqueeze(x, [0]), [2]), batched


def _back(out: Tensor, batched: bool) -> Tensor:
    out = ops.squeeze(out, [2])
    return out if batched else ops.squeeze(out, [0])


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0) -> Tensor:  # noqa: A002
    """The maximum over each window of length kernel_size (stride defaults to it; padding -inf)."""
    k = _one("max_pool1d", "kernel_size", kernel_size, 1)
    s = k if stride is None else _one("max_pool1d", "stride", stride, 1)
    p = _one("max_pool1d", "padding", padding, 0)
    x, batched = _as_4d("max_pool1d", input)
    return _back(ops.max_pool2d(x, [1, k], [1, s], [0, p]), batched)


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0) -> Tensor:  # noqa: A002
    """The mean over each window of length kernel_size (stride defaults to it; zero padding
    counts in the mean, as PyTorch's count_include_pad=True)."""
    k = _one("avg_pool1d", "kernel_size", kernel_size, 1)
    s = k if stride is None else _one("avg_pool1d", "stride", stride, 1)
    p = _one("avg_pool1d", "padding", padding, 0)
    x, batched = _as_4d("avg_pool1d", input)
    return _back(ops.avg_pool2d(x, [1, k], [1, s], [0, p]), batched)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Average pooling to a fixed output length (PyTorch's bins)."""
    n = _one("adaptive_avg_pool1d", "output_size", output_size, 1)
    x, batched = _as_4d("adaptive_avg_pool1d", input)
    return _back(ops.adaptive_avg_pool2d(x, [1, n]), batched)


class MaxPool1d(Module):
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return max_pool1d(input, self.kernel_size, self.stride, self.padding)


class AvgPool1d(Module):
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return avg_pool1d(input, self.kernel_size, self.stride, self.padding)


class AdaptiveAvgPool1d(Module):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return adaptive_avg_pool1d(input, self.output_size)
