"""Convolution and pooling layers: Conv2d, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d over NCHW
images (each forwards to the generated op of the same name), and Conv1d and ConvTranspose2d,
built from conv2d and other differentiable ops."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from opgrad.generated import ops
from opgrad.runtime import argcheck as checks
from opgrad.runtime.nn import init
from opgrad.runtime.nn.layers import empty_parameter
from opgrad.runtime.nn.module import Module
from opgrad.runtime.tensor import Tensor

IntOrPair = int | Sequence[int]


class Conv2d(Module):
    """2-D convolution (cross-correlation) of NCHW input; weight (out, in / groups, kh, kw).

    Initialised like PyTorch: weight and bias from U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""

    _dims = 2  # spatial axes (Conv1d: 1)

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: IntOrPair,
        stride: IntOrPair = 1,
        padding: IntOrPair = 0,
        dilation: IntOrPair = 1,
        groups: int = 1,
        bias: bool = True,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        name, n = type(self).__name__, self._dims
        in_channels, out_channels, groups = channels(name, in_channels, out_channels, groups)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = checks.int_tuple(name, "kernel_size", kernel_size, 1, n)
        self.stride = checks.int_tuple(name, "stride", stride, 1, n)
        self.padding = checks.int_tuple(name, "padding", padding, 0, n)
        self.dilation = checks.int_tuple(name, "dilation", dilation, 1, n)
        self.groups = groups
        self.weight = empty_parameter((out_channels, in_channels // groups, *self.kernel_size), dtype)
        if bias:
            self.bias = empty_parameter((out_channels,), dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        fan_in = (self.in_channels // self.groups) * math.prod(self.kernel_size)
        uniform_init(self.weight, self.bias, fan_in)

    def forward(self, x: Tensor) -> Tensor:
        return ops.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if any(self.padding):
            s += f", padding={self.padding}"
        if any(d != 1 for d in self.dilation):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


def channels(owner: str, in_channels: Any, out_channels: Any, groups: Any) -> tuple[int, int, int]:
    """Checked channel counts: ints >= 1, both divisible by groups."""
    in_channels = checks.integer(owner, "in_channels", in_channels, 1)
    out_channels = checks.integer(owner, "out_channels", out_channels, 1)
    groups = checks.integer(owner, "groups", groups, 1)
    if in_channels % groups or out_channels % groups:
        raise ValueError(
            f"{owner}: in_channels ({in_channels}) and out_channels ({out_channels}) must both be "
            f"divisible by groups ({groups})"
        )
    return in_channels, out_channels, groups


def uniform_init(weight: Tensor, bias: Tensor | None, fan_in: int) -> None:
    """PyTorch's convolution initialisation: weight and bias from U(-1/sqrt(fan_in), ...)."""
    bound = 1.0 / math.sqrt(fan_in) if fan_in else 0.0
    init.uniform_(weight, -bound, bound)
    if bias is not None:
        init.uniform_(bias, -bound, bound)


class _Pool2d(Module):
    _op: Callable[..., Tensor]

    def __init__(
        self, kernel_size: IntOrPair, stride: IntOrPair | None = None, padding: IntOrPair = 0
    ) -> None:
        super().__init__()
        name = type(self).__name__
        self.kernel_size = checks.int_tuple(name, "kernel_size", kernel_size, 1, 2)
        self.stride = self.kernel_size if stride is None else checks.int_tuple(name, "stride", stride, 1, 2)
        self.padding = checks.int_tuple(name, "padding", padding, 0, 2)

    def forward(self, x: Tensor) -> Tensor:
        return self._op(x, self.kernel_size, self.stride, self.padding)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool2d(_Pool2d):
    """The maximum over each kernel_size window (stride defaults to kernel_size; padding
    counts as -inf)."""

    _op = staticmethod(ops.max_pool2d)


class AvgPool2d(_Pool2d):
    """The mean over each kernel_size window (stride defaults to kernel_size; zero padding
    counts in the mean)."""

    _op = staticmethod(ops.avg_pool2d)


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed output size (H_out, W_out)."""

    def __init__(self, output_size: IntOrPair) -> None:
        super().__init__()
        self.output_size = checks.int_tuple("AdaptiveAvgPool2d", "output_size", output_size, 1, 2)

    def forward(self, x: Tensor) -> Tensor:
        return ops.adaptive_avg_pool2d(x, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class Conv1d(Conv2d):
    """1-D convolution (cross-correlation) of (N, C, L) input; weight (out, in / groups, k).

    The op og.conv1d (conv2d over (N, C, 1, L) with a (out, in / groups, 1, k) kernel), so it
    is differentiable to any order as conv2d is. Arguments and initialisation as Conv2d's,
    with one number per size."""

    _dims = 1

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 3:
            raise ValueError(f"Conv1d: expected (N, C, L) input (3 axes), got shape {x.shape}")
        return ops.conv1d(
            x, self.weight, self.bias, self.stride[0], self.padding[0], self.dilation[0], self.groups
        )


class Conv3d(Conv2d):
    """3-D convolution (cross-correlation) of (N, C, D, H, W) input; weight (out, in / groups,
    kd, kh, kw): the op og.conv3d. Arguments and initialisation as Conv2d's, three numbers
    per size."""

    _dims = 3

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 5:
            raise ValueError(f"Conv3d: expected (N, C, D, H, W) input (5 axes), got shape {x.shape}")
        return ops.conv3d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class ConvTranspose2d(Module):
    """Transposed 2-D convolution (the gradient of conv2d with respect to its input) of NCHW
    input; weight (in, out / groups, kh, kw) as in PyTorch and Paddle. Output size:
    (H - 1) * stride - 2 * padding + dilation * (kh - 1) + output_padding + 1.

    The op og.conv_transpose2d (ops.yaml), whose gradients are conv2d and conv2d_grad, so it
    differentiates to any order."""

    _dims = 2

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: IntOrPair,
        stride: IntOrPair = 1,
        padding: IntOrPair = 0,
        output_padding: IntOrPair = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: IntOrPair = 1,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        name, n = type(self).__name__, self._dims
        in_channels, out_channels, groups = channels(name, in_channels, out_channels, groups)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = checks.int_tuple(name, "kernel_size", kernel_size, 1, n)
        self.stride = checks.int_tuple(name, "stride", stride, 1, n)
        self.padding = checks.int_tuple(name, "padding", padding, 0, n)
        self.output_padding = checks.int_tuple(name, "output_padding", output_padding, 0, n)
        self.dilation = checks.int_tuple(name, "dilation", dilation, 1, n)
        for i in range(n):
            if self.output_padding[i] >= max(self.stride[i], self.dilation[i]):
                raise ValueError(
                    f"{name}: output_padding {self.output_padding} must be smaller than stride "
                    f"{self.stride} or dilation {self.dilation}"
                )
        self.groups = groups
        self.weight = empty_parameter((in_channels, out_channels // groups, *self.kernel_size), dtype)
        if bias:
            self.bias = empty_parameter((out_channels,), dtype)
        else:
            self.register_parameter("bias", None)
        uniform_init(self.weight, self.bias, (out_channels // groups) * math.prod(self.kernel_size))

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 4 or x.shape[1] != self.in_channels:
            raise ValueError(
                f"ConvTranspose2d: expected (N, {self.in_channels}, H, W) input, got shape {x.shape}"
            )
        return ops.conv_transpose2d(
            x,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self.output_padding,
            self.groups,
            self.dilation,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, padding={self.padding}, output_padding={self.output_padding}"
        )


class ConvTranspose1d(ConvTranspose2d):
    """Transposed 1-D convolution of (N, C, L) input; weight (in, out / groups, k): the op
    og.conv_transpose1d. Arguments and initialisation as ConvTranspose2d's, one number per size."""

    _dims = 1

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 3 or x.shape[1] != self.in_channels:
            raise ValueError(
                f"ConvTranspose1d: expected (N, {self.in_channels}, L) input, got shape {x.shape}"
            )
        return ops.conv_transpose1d(
            x,
            self.weight,
            self.bias,
            self.stride[0],
            self.padding[0],
            self.output_padding[0],
            self.groups,
            self.dilation[0],
        )
