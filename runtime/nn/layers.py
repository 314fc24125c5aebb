"""The basic layers: Linear, Embedding, Dropout, Flatten, Identity and the activations.

Each layer's forward is one or two generated ops, so a layer costs little beyond its ops.
Weights use Paddle's layout: Linear's weight is (in_features, out_features), so
`y = x @ weight + bias`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from opgrad.generated import ops
from opgrad.runtime import argcheck as checks
from opgrad.runtime.dtypes import as_dtype
from opgrad.runtime.nn import init
from opgrad.runtime.nn.module import Module
from opgrad.runtime.nn.parameter import Parameter
from opgrad.runtime.promotion import get_default_dtype
from opgrad.runtime.tensor import Tensor


def empty_parameter(shape: tuple[int, ...], dtype: Any) -> Parameter:
    """A zero Parameter of `dtype`, by default `og.get_default_dtype()` (as PyTorch's layers)."""
    dt = as_dtype(dtype, "dtype") if dtype is not None else get_default_dtype()
    return Parameter(np.zeros(shape, dtype=dt))


class Identity(Module):
    """Returns its input."""

    def forward(self, x: Any) -> Any:
        return x


class Linear(Module):
    """y = x @ weight + bias, with weight of shape (in_features, out_features).

    Initialised like PyTorch: weight and bias from U(-1/sqrt(in), 1/sqrt(in))."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = checks.integer("Linear", "in_features", in_features, 0)
        self.out_features = checks.integer("Linear", "out_features", out_features, 0)
        checks.flag("Linear", "bias", bias)
        self.weight = empty_parameter((in_features, out_features), dtype)
        if bias:
            self.bias = empty_parameter((out_features,), dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1.0 / math.sqrt(self.in_features) if self.in_features else 0.0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, x: Tensor) -> Tensor:
        return ops.linear(x, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
        )


class Embedding(Module):
    """A lookup table: integer ids (any shape) -> rows of weight (num_embeddings, dim).

    Weights start from N(0, 1); the row `padding_idx` (if given) starts at zero (unlike
    PyTorch, its gradient is not masked, so an optimizer may move it)."""

    def __init__(
        self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None, dtype: Any = None
    ) -> None:
        super().__init__()
        num_embeddings = checks.integer("Embedding", "num_embeddings", num_embeddings, 1)
        embedding_dim = checks.integer("Embedding", "embedding_dim", embedding_dim, 0)
        if padding_idx is not None:
            padding_idx = checks.integer("Embedding", "padding_idx", padding_idx)
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(
                f"Embedding: padding_idx {padding_idx} is out of range for {num_embeddings} embeddings"
            )
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.weight = empty_parameter((num_embeddings, embedding_dim), dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            self.weight._data[self.padding_idx] = 0

    def forward(self, x: Tensor) -> Tensor:
        return ops.embedding(x, self.weight)

    def extra_repr(self) -> str:
        pad = "" if self.padding_idx is None else f", padding_idx={self.padding_idx}"
        return f"{self.num_embeddings}, {self.embedding_dim}{pad}"


class Dropout(Module):
    """Zeroes each element with probability p while training (scaling the rest by 1/(1-p));
    the identity in eval mode. Draws from the seeded generator (og.manual_seed)."""

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = float(checks.real("Dropout", "p", p, 0.0, 1.0))

    def forward(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0.0:
            return x
        return ops.dropout(x, self.p, True)

    def extra_repr(self) -> str:
        return f"p={self.p}"


class Flatten(Module):
    """Flattens axes start_axis..stop_axis into one (by default all but the batch axis)."""

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis = checks.integer("Flatten", "start_axis", start_axis)
        self.stop_axis = checks.integer("Flatten", "stop_axis", stop_axis)

    def forward(self, x: Tensor) -> Tensor:
        return ops.flatten(x, self.start_axis, self.stop_axis)

    def extra_repr(self) -> str:
        return f"start_axis={self.start_axis}, stop_axis={self.stop_axis}"


class Unflatten(Module):
    """Splits axis `axis` into `sizes` (one entry may be -1): the inverse of Flatten."""

    def __init__(self, axis: int, sizes: Any) -> None:
        super().__init__()
        self.axis = checks.integer("Unflatten", "axis", axis)
        sizes = tuple(sizes) if isinstance(sizes, (list, tuple)) else None
        if not sizes or not all(checks.is_int(v) and (v >= 0 or v == -1) for v in sizes):
            raise TypeError("Unflatten: sizes must be a non-empty tuple of ints >= 0 (one may be -1)")
        if sum(v == -1 for v in sizes) > 1:
            raise ValueError(f"Unflatten: at most one of sizes may be -1, got {sizes}")
        self.sizes: tuple[int, ...] = tuple(int(v) for v in sizes)

    def forward(self, x: Tensor) -> Tensor:
        shape = list(x.shape)
        if not -len(shape) <= self.axis < len(shape):
            raise ValueError(f"Unflatten: axis {self.axis} is out of range for input of shape {x.shape}")
        axis = self.axis % len(shape)
        known = math.prod(v for v in self.sizes if v != -1)
        n = shape[axis]
        sizes = [v if v != -1 else (n // known if known else 0) for v in self.sizes]
        if math.prod(sizes) != n:
            raise ValueError(f"Unflatten: cannot split axis {self.axis} of size {n} into {self.sizes}")
        return ops.reshape(x, shape[:axis] + sizes + shape[axis + 1 :])

    def extra_repr(self) -> str:
        return f"axis={self.axis}, sizes={self.sizes}"


class ReLU(Module):
    def forward(self, x: Tensor) -> Tensor:
        return ops.relu(x)


class GELU(Module):
    """GELU; approximate=True uses the tanh approximation."""

    def __init__(self, approximate: bool = False) -> None:
        super().__init__()
        self.approximate = checks.flag("GELU", "approximate", approximate)

    def forward(self, x: Tensor) -> Tensor:
        return ops.gelu(x, self.approximate)

    def extra_repr(self) -> str:
        return "approximate=True" if self.approximate else ""


class Tanh(Module):
    def forward(self, x: Tensor) -> Tensor:
        return ops.tanh(x)


class Sigmoid(Module):
    def forward(self, x: Tensor) -> Tensor:
        return ops.sigmoid(x)


class SiLU(Module):
    def forward(self, x: Tensor) -> Tensor:
        return ops.silu(x)


class LeakyReLU(Module):
    def __init__(self, negative_slope: float = 0.01) -> None:
        super().__init__()
        self.negative_slope = checks.real("LeakyReLU", "negative_slope", negative_slope)

    def forward(self, x: Tensor) -> Tensor:
        return ops.leaky_relu(x, self.negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}"


class Softmax(Module):
    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = checks.integer("Softmax", "axis", axis)

    def forward(self, x: Tensor) -> Tensor:
        return ops.softmax(x, self.axis)

    def extra_repr(self) -> str:
        return f"axis={self.axis}"
