"""Normalization layers: LayerNorm, BatchNorm1d, BatchNorm2d, GroupNorm.

BatchNorm2d (and BatchNorm1d) keeps `running_mean`/`running_var` (and `num_batches_tracked`) as buffers: in
training mode it normalises with the batch's statistics and `og.batch_norm` folds them into
the running ones in place (running = (1 - momentum) * running + momentum * batch, the batch
variance unbiased; `momentum` here is PyTorch's, the op's is Paddle's 1 - momentum); in
eval mode it normalises with the running statistics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from opgrad.generated import ops
from opgrad.runtime import argcheck as checks
from opgrad.runtime.creation import ones, zeros
from opgrad.runtime.nn import init
from opgrad.runtime.nn._update import bump_version
from opgrad.runtime.nn.layers import empty_parameter
from opgrad.runtime.nn.module import Module
from opgrad.runtime.promotion import get_default_dtype
from opgrad.runtime.tensor import Tensor


class LayerNorm(Module):
    """Normalise over the trailing `normalized_shape` axes, then scale and shift elementwise."""

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        shape = checks.int_tuple("LayerNorm", "normalized_shape", normalized_shape, 0)
        self.normalized_shape: tuple[int, ...] = shape
        self.eps = float(checks.real("LayerNorm", "eps", eps, 0.0))
        self.elementwise_affine = checks.flag("LayerNorm", "elementwise_affine", elementwise_affine)
        if elementwise_affine:
            self.weight = empty_parameter(shape, dtype)
            self.bias = empty_parameter(shape, dtype)
            init.ones_(self.weight)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        return layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


def layer_norm(
    x: Tensor,
    normalized_shape: Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Layer normalisation over the trailing axes named by normalized_shape."""
    n = len(normalized_shape)
    if tuple(x.shape[x.ndim - n :]) != tuple(normalized_shape):
        raise ValueError(
            f"layer_norm: input of shape {x.shape} does not end with "
            f"normalized_shape {tuple(normalized_shape)}"
        )
    return ops.layer_norm(x, list(normalized_shape), weight, bias, eps)


class BatchNorm2d(Module):
    """Batch normalisation of NCHW input over (N, H, W) per channel."""

    _ndims: tuple[int, ...] = (4,)
    _layout = "NCHW input (4 axes)"
    # Buffers (register_buffer); None without track_running_stats.
    running_mean: Tensor | None
    running_var: Tensor | None
    num_batches_tracked: Tensor | None

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        name = type(self).__name__
        self.num_features = checks.integer(name, "num_features", num_features, 1)
        self.eps = float(checks.real(name, "eps", eps, 0.0))
        self.momentum = float(checks.real(name, "momentum", momentum, 0.0, 1.0))
        self.affine = checks.flag(name, "affine", affine)
        self.track_running_stats = checks.flag(name, "track_running_stats", track_running_stats)
        dt = dtype if dtype is not None else get_default_dtype()
        if affine:
            self.weight = empty_parameter((num_features,), dt)
            self.bias = empty_parameter((num_features,), dt)
            init.ones_(self.weight)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros((num_features,), dtype=dt))
            self.register_buffer("running_var", ones((num_features,), dtype=dt))
            self.register_buffer("num_batches_tracked", zeros((), dtype="int64"))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim not in self._ndims:
            raise ValueError(f"{type(self).__name__}: expected {self._layout}, got shape {x.shape}")
        if x.ndim != 4:  # (N, C) or (N, C, L): normalised as (N, C, L, 1) images
            n, c = x.shape[0], x.shape[1]
            out = self._normalize(ops.reshape(x, [n, c, -1, 1]))
            return ops.reshape(out, list(x.shape))
        return self._normalize(x)

    def _normalize(self, x: Tensor) -> Tensor:
        rm, rv = self.running_mean, self.running_var
        if rm is None or rv is None:  # no running statistics: always the batch's, kept nowhere
            rm = zeros((self.num_features,), dtype=x.dtype, device=x.device)
            rv = ones((self.num_features,), dtype=x.dtype, device=x.device)
            return ops.batch_norm(x, rm, rv, self.weight, self.bias, True, 1.0 - self.momentum, self.eps)
        # The op takes Paddle's momentum (the running statistics' weight) and, in training,
        # updates the running arrays in place (and records those writes: `mutates:`).
        out = ops.batch_norm(x, rm, rv, self.weight, self.bias, self.training, 1.0 - self.momentum, self.eps)
        if self.training:
            nbt = self.num_batches_tracked
            if nbt is not None:
                nbt._data += 1
                bump_version(nbt)
        return out

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
            f"track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(BatchNorm2d):
    """Batch normalisation of (N, C) or (N, C, L) input over N (and L) per channel; the same
    running statistics and momentum as BatchNorm2d."""

    _ndims = (2, 3)
    _layout = "(N, C) or (N, C, L) input"


class GroupNorm(Module):
    """Normalise NC... input over groups of channels (and all spatial axes), then scale and
    shift per channel."""

    def __init__(
        self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, dtype: Any = None
    ) -> None:
        super().__init__()
        num_groups = checks.integer("GroupNorm", "num_groups", num_groups, 1)
        num_channels = checks.integer("GroupNorm", "num_channels", num_channels, 1)
        if num_channels % num_groups:
            raise ValueError(
                f"GroupNorm: num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = float(checks.real("GroupNorm", "eps", eps, 0.0))
        self.affine = checks.flag("GroupNorm", "affine", affine)
        if affine:
            self.weight = empty_parameter((num_channels,), dtype)
            self.bias = empty_parameter((num_channels,), dtype)
            init.ones_(self.weight)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        return ops.group_norm(x, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"
