"""nn.functional: the layers' computations as functions.

Mostly the generated ops under their usual names (`F.relu is og.relu`); `layer_norm`
(which also checks the input shape) and `scaled_dot_product_attention` fall back to
compositions of other ops when their fused op is missing. Any other op is found by name
(`F.conv2d is og.conv2d`).
"""

from __future__ import annotations

from typing import Any

from opgrad.generated import ops
from opgrad.generated.ops import (
    cross_entropy,
    dropout,
    elu,
    embedding,
    gelu,
    leaky_relu,
    linear,
    log_softmax,
    mse_loss,
    one_hot,
    relu,
    sigmoid,
    silu,
    softmax,
    softplus,
    tanh,
)
from opgrad.runtime.nn.attention import scaled_dot_product_attention
from opgrad.runtime.nn.normalization import layer_norm
from opgrad.runtime.nn.pooling1d import adaptive_avg_pool1d, avg_pool1d, max_pool1d
from opgrad.runtime.nn.resampling import interpolate

__all__ = [
    "adaptive_avg_pool1d",
    "avg_pool1d",
    "cross_entropy",
    "dropout",
    "elu",
    "embedding",
    "gelu",
    "interpolate",
    "layer_norm",
    "leaky_relu",
    "linear",
    "log_softmax",
    "max_pool1d",
    "mse_loss",
    "one_hot",
    "relu",
    "scaled_dot_product_attention",
    "sigmoid",
    "silu",
    "softmax",
    "softplus",
    "tanh",
]


def __getattr__(name: str) -> Any:
    try:
        return getattr(ops, name)
    except AttributeError:
        raise AttributeError(f"opgrad.nn.functional has no {name!r} (and og.{name} does not exist)") from None
