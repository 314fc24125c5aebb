"""nn.init: fill a parameter in place with values from a distribution.

Samples come from the seeded generator (`og.rand`/`og.randn`), so `og.manual_seed(s)`
before building a model makes its initial weights reproducible. Each function writes into
the tensor's own memory (no new tensor, no graph), bumps its version, and returns it.

Fans: a 2-D weight uses opgrad's Linear layout (in_features, out_features), so fan_in is
`shape[0]`; a weight with more axes uses the convolution layout (out, in, *kernel), so
fan_in is `shape[1] * prod(kernel)` and fan_out `shape[0] * prod(kernel)`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from opgrad.runtime import argcheck as checks
from opgrad.runtime.creation import rand, randn
from opgrad.runtime.nn._update import bump_version
from opgrad.runtime.tensor import Tensor

__all__ = [
    "calculate_gain",
    "constant_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended scale of the weights for a nonlinearity (as in PyTorch)."""
    linear = ("linear", "identity", "conv1d", "conv2d", "conv3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"calculate_gain: unsupported nonlinearity {nonlinearity!r}")


def _fans(t: Tensor, what: str) -> tuple[int, int]:
    shape = _target(t, what).shape
    if len(shape) < 2:
        raise ValueError(f"{what}: fan in/out need a tensor with at least 2 axes, got shape {shape}")
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _target(t: Any, what: str) -> Tensor:
    """The tensor an init function fills (checked before anything is drawn or written)."""
    if not isinstance(t, Tensor):
        raise TypeError(f"{what}: expected a Tensor, got {type(t).__name__}")
    return t


def _write(t: Tensor, sample: Tensor, what: str) -> Tensor:
    t._data[...] = sample._data
    bump_version(t)
    return t


def _uniform(t: Tensor, low: float, high: float) -> Tensor:
    return rand(t.shape, dtype=_float_dtype(t), device=t.device) * (high - low) + low


def _normal(t: Tensor, mean: float, std: float) -> Tensor:
    return randn(t.shape, dtype=_float_dtype(t), device=t.device) * std + mean


def _float_dtype(t: Tensor) -> Any:
    return t.dtype if t.dtype.kind == "f" else "float64"


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    """Samples from U(a, b)."""
    _target(tensor, "uniform_")
    checks.real("uniform_", "a", a)
    checks.real("uniform_", "b", b)
    return _write(tensor, _uniform(tensor, a, b), "uniform_")


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    """Samples from N(mean, std**2)."""
    _target(tensor, "normal_")
    checks.real("normal_", "mean", mean)
    checks.real("normal_", "std", std, 0.0)
    return _write(tensor, _normal(tensor, mean, std), "normal_")


def constant_(tensor: Tensor, value: float, what: str = "constant_") -> Tensor:
    _target(tensor, what)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what}: value must be a real number, got {type(value).__name__}")
    tensor._data[...] = value
    bump_version(tensor)
    return tensor


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0.0, "zeros_")


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0, "ones_")


def xavier_uniform_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio)."""
    fan_in, fan_out = _fans(tensor, "xavier_uniform_")
    _check_fan("xavier_uniform_", fan_in + fan_out, "fan_in + fan_out")
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return _write(tensor, _uniform(tensor, -bound, bound), "xavier_uniform_")


def xavier_normal_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    """N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _fans(tensor, "xavier_normal_")
    _check_fan("xavier_normal_", fan_in + fan_out, "fan_in + fan_out")
    std = gain * math.sqrt(2.0 / (fan_in + fan_out))
    return _write(tensor, _normal(tensor, 0.0, std), "xavier_normal_")


def _check_fan(what: str, fan: int, name: str) -> None:
    if fan == 0:
        raise ValueError(f"{what}: {name} is 0 (the tensor has a zero-size axis); the scale is undefined")


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str, what: str) -> float:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"{what}: mode must be 'fan_in' or 'fan_out', got {mode!r}")
    fan_in, fan_out = _fans(tensor, what)
    fan = fan_in if mode == "fan_in" else fan_out
    _check_fan(what, fan, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> Tensor:
    """U(-b, b) with b = gain * sqrt(3 / fan) (He et al.); `a` is leaky_relu's slope."""
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity, "kaiming_uniform_")
    return _write(tensor, _uniform(tensor, -bound, bound), "kaiming_uniform_")


def kaiming_normal_(
    tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> Tensor:
    """N(0, std**2) with std = gain / sqrt(fan) (He et al.)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity, "kaiming_normal_")
    return _write(tensor, _normal(tensor, 0.0, std), "kaiming_normal_")
