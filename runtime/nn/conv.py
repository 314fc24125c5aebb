"""Convolution and pooling layers over NCHW images: Conv2d, MaxPool2d, AvgPool2d,
AdaptiveAvgPool2d. Each forwards to the generated op of the same name."""

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
        in_channels = checks.integer("Conv2d", "in_channels", in_channels, 1)
        out_channels = checks.integer("Conv2d", "out_channels", out_channels, 1)
        groups = checks.integer("Conv2d", "groups", groups, 1)
        if in_channels % groups or out_channels % groups:
            raise ValueError(
                f"Conv2d: in_channels ({in_channels}) and out_channels ({out_channels}) must both be "
                f"divisible by groups ({groups})"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = checks.int_tuple("Conv2d", "kernel_size", kernel_size, 1, 2)
        self.stride = checks.int_tuple("Conv2d", "stride", stride, 1, 2)
        self.padding = checks.int_tuple("Conv2d", "padding", padding, 0, 2)
        self.dilation = checks.int_tuple("Conv2d", "dilation", dilation, 1, 2)
        self.groups = groups
        self.weight = empty_parameter((out_channels, in_channels // groups, *self.kernel_size), dtype)
        if bias:
            self.bias = empty_parameter((out_channels,), dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        fan_in = (self.in_channels // self.groups) * self.kernel_size[0] * self.kernel_size[1]
        bound = 1.0 / math.sqrt(fan_in) if fan_in else 0.0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, x: Tensor) -> Tensor:
        return ops.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


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
