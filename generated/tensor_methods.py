# @generated tensor_methods from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Tensor methods and operators bound by `method:` and `operator:` in ops.yaml.
`opgrad.runtime.tensor.Tensor` inherits them from `TensorMethods`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from opgrad import generated as _generated

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from opgrad.runtime.tensor import Tensor

__all__ = [
    "TensorMethods",
]

# Every method's self is a Tensor (`self: Tensor`), which mypy reports as a self type that is
# not a supertype of this mixin.
# mypy: disable-error-code="misc"


class TensorMethods:
    """Mixin for `Tensor`: methods and Python operators that call the generated ops."""

    __slots__ = ()
    __hash__ = object.__hash__

    def neg(self: Tensor) -> Tensor:
        return _generated.ops.neg(self)

    def __neg__(self: Tensor) -> Tensor:
        return _generated.ops.neg(self)

    def abs(self: Tensor) -> Tensor:
        return _generated.ops.abs(self)

    def __abs__(self: Tensor) -> Tensor:
        return _generated.ops.abs(self)

    def sign(self: Tensor) -> Tensor:
        return _generated.ops.sign(self)

    def exp(self: Tensor) -> Tensor:
        return _generated.ops.exp(self)

    def exp_(self: Tensor) -> Tensor:
        return _generated.ops.exp_(self)

    def expm1(self: Tensor) -> Tensor:
        return _generated.ops.expm1(self)

    def log(self: Tensor) -> Tensor:
        return _generated.ops.log(self)

    def log1p(self: Tensor) -> Tensor:
        return _generated.ops.log1p(self)

    def sqrt(self: Tensor) -> Tensor:
        return _generated.ops.sqrt(self)

    def rsqrt(self: Tensor) -> Tensor:
        return _generated.ops.rsqrt(self)

    def square(self: Tensor) -> Tensor:
        return _generated.ops.square(self)

    def reciprocal(self: Tensor) -> Tensor:
        return _generated.ops.reciprocal(self)

    def sin(self: Tensor) -> Tensor:
        return _generated.ops.sin(self)

    def cos(self: Tensor) -> Tensor:
        return _generated.ops.cos(self)

    def tanh(self: Tensor) -> Tensor:
        return _generated.ops.tanh(self)

    def tanh_(self: Tensor) -> Tensor:
        return _generated.ops.tanh_(self)

    def sigmoid(self: Tensor) -> Tensor:
        return _generated.ops.sigmoid(self)

    def sigmoid_(self: Tensor) -> Tensor:
        return _generated.ops.sigmoid_(self)

    def relu(self: Tensor) -> Tensor:
        return _generated.ops.relu(self)

    def relu_(self: Tensor) -> Tensor:
        return _generated.ops.relu_(self)

    def gelu(self: Tensor, approximate: bool = False) -> Tensor:
        return _generated.ops.gelu(self, approximate)

    def silu(self: Tensor) -> Tensor:
        return _generated.ops.silu(self)

    def softplus(self: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
        return _generated.ops.softplus(self, beta, threshold)

    def leaky_relu(self: Tensor, negative_slope: float = 0.01) -> Tensor:
        return _generated.ops.leaky_relu(self, negative_slope)

    def elu(self: Tensor, alpha: float = 1.0) -> Tensor:
        return _generated.ops.elu(self, alpha)

    def erf(self: Tensor) -> Tensor:
        return _generated.ops.erf(self)

    def scale(self: Tensor, scale: float = 1.0, bias: float = 0.0) -> Tensor:
        return _generated.ops.scale(self, scale, bias)

    def scale_(self: Tensor, scale: float = 1.0, bias: float = 0.0) -> Tensor:
        return _generated.ops.scale_(self, scale, bias)

    def pow(self: Tensor, y: float) -> Tensor:
        return _generated.ops.pow(self, y)

    def clip(self: Tensor, min: float | None = None, max: float | None = None) -> Tensor:
        return _generated.ops.clip(self, min, max)

    def clip_(self: Tensor, min: float | None = None, max: float | None = None) -> Tensor:
        return _generated.ops.clip_(self, min, max)

    def cast(self: Tensor, dtype: Any) -> Tensor:
        return _generated.ops.cast(self, dtype)

    def hardtanh(self: Tensor, min: float = -1.0, max: float = 1.0) -> Tensor:
        return _generated.ops.hardtanh(self, min, max)

    def hardswish(self: Tensor) -> Tensor:
        return _generated.ops.hardswish(self)

    def hardsigmoid(self: Tensor) -> Tensor:
        return _generated.ops.hardsigmoid(self)

    def mish(self: Tensor) -> Tensor:
        return _generated.ops.mish(self)

    def log_sigmoid(self: Tensor) -> Tensor:
        return _generated.ops.log_sigmoid(self)

    def swish(self: Tensor) -> Tensor:
        return _generated.ops.swish(self)

    def selu(self: Tensor, scale: float = 1.0507009873554805, alpha: float = 1.6732632423543772) -> Tensor:
        return _generated.ops.selu(self, scale, alpha)

    def celu(self: Tensor, alpha: float = 1.0) -> Tensor:
        return _generated.ops.celu(self, alpha)

    def softsign(self: Tensor) -> Tensor:
        return _generated.ops.softsign(self)

    def tanhshrink(self: Tensor) -> Tensor:
        return _generated.ops.tanhshrink(self)

    def add(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.add(self, y)

    def __add__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.add(self, other)

    def __radd__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.add(other, self)

    def add_(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.add_(self, y)

    def __iadd__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.add_(self, other)

    def subtract(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.subtract(self, y)

    def __sub__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.subtract(self, other)

    def __rsub__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.subtract(other, self)

    def subtract_(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.subtract_(self, y)

    def __isub__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.subtract_(self, other)

    def multiply(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.multiply(self, y)

    def __mul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.multiply(self, other)

    def __rmul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.multiply(other, self)

    def multiply_(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.multiply_(self, y)

    def __imul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.multiply_(self, other)

    def divide(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.divide(self, y)

    def __truediv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.divide(self, other)

    def __rtruediv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.divide(other, self)

    def divide_(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.divide_(self, y)

    def __itruediv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.divide_(self, other)

    def maximum(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.maximum(self, y)

    def minimum(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.minimum(self, y)

    def equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.equal(self, y)

    def __eq__(self: Tensor, other: Tensor | float | int) -> Tensor:  # type: ignore[override]
        return _generated.ops.equal(self, other)

    def not_equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.not_equal(self, y)

    def __ne__(self: Tensor, other: Tensor | float | int) -> Tensor:  # type: ignore[override]
        return _generated.ops.not_equal(self, other)

    def less_than(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.less_than(self, y)

    def __lt__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.less_than(self, other)

    def less_equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.less_equal(self, y)

    def __le__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.less_equal(self, other)

    def greater_than(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.greater_than(self, y)

    def __gt__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.greater_than(self, other)

    def greater_equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.greater_equal(self, y)

    def __ge__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.greater_equal(self, other)

    def logical_and(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.logical_and(self, y)

    def logical_or(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.logical_or(self, y)

    def logical_not(self: Tensor) -> Tensor:
        return _generated.ops.logical_not(self)

    def isnan(self: Tensor) -> Tensor:
        return _generated.ops.isnan(self)

    def isinf(self: Tensor) -> Tensor:
        return _generated.ops.isinf(self)

    def isfinite(self: Tensor) -> Tensor:
        return _generated.ops.isfinite(self)

    def sum(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.sum(self, axis, keepdim, dim, keepdims)

    def mean(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.mean(self, axis, keepdim, dim, keepdims)

    def max(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.max(self, axis, keepdim, dim, keepdims)

    def min(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.min(self, axis, keepdim, dim, keepdims)

    def prod(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.prod(self, axis, keepdim, dim, keepdims)

    def logsumexp(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.logsumexp(self, axis, keepdim, dim, keepdims)

    def argmax(self: Tensor, axis: int | None = None, keepdim: bool = False, dim: int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.argmax(self, axis, keepdim, dim, keepdims)

    def argmin(self: Tensor, axis: int | None = None, keepdim: bool = False, dim: int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.argmin(self, axis, keepdim, dim, keepdims)

    def var(self: Tensor, axis: Sequence[int] | int = (), unbiased: bool = True, keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.var(self, axis, unbiased, keepdim, dim, keepdims)

    def std(self: Tensor, axis: Sequence[int] | int = (), unbiased: bool = True, keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.std(self, axis, unbiased, keepdim, dim, keepdims)

    def norm(self: Tensor, p: float = 2.0, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        return _generated.ops.norm(self, p, axis, keepdim, dim, keepdims)

    def cumsum(self: Tensor, axis: int | None = None, dim: int | None = None) -> Tensor:
        return _generated.ops.cumsum(self, axis, dim)

    def cumprod(self: Tensor, dim: int | None = None, axis: int | None = None) -> Tensor:
        return _generated.ops.cumprod(self, dim, axis)

    def topk(self: Tensor, k: int, axis: int = -1, largest: bool = True, sorted: bool = True, dim: int | None = None) -> tuple[Tensor, Tensor]:
        return _generated.ops.topk(self, k, axis, largest, sorted, dim)

    def sort(self: Tensor, axis: int = -1, descending: bool = False, dim: int | None = None) -> Tensor:
        return _generated.ops.sort(self, axis, descending, dim)

    def argsort(self: Tensor, axis: int = -1, descending: bool = False, dim: int | None = None) -> Tensor:
        return _generated.ops.argsort(self, axis, descending, dim)

    def matmul(self: Tensor, y: Tensor | float | int, transpose_x: bool = False, transpose_y: bool = False) -> Tensor:
        return _generated.ops.matmul(self, y, transpose_x, transpose_y)

    def __matmul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.matmul(self, other)

    def __rmatmul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.matmul(other, self)

    def squeeze(self: Tensor, axis: Sequence[int] | int = (), dim: Sequence[int] | int | None = None) -> Tensor:
        return _generated.ops.squeeze(self, axis, dim)

    def unsqueeze(self: Tensor, axis: Sequence[int] | int | None = None, dim: Sequence[int] | int | None = None) -> Tensor:
        return _generated.ops.unsqueeze(self, axis, dim)

    def flatten(self: Tensor, start_axis: int = 0, stop_axis: int = -1, start_dim: int | None = None, end_dim: int | None = None) -> Tensor:
        return _generated.ops.flatten(self, start_axis, stop_axis, start_dim, end_dim)

    def split(self: Tensor, num_or_sections: Sequence[int] | int, axis: int = 0, dim: int | None = None) -> list[Tensor]:
        return _generated.ops.split(self, num_or_sections, axis, dim)

    def gather(self: Tensor, index: Tensor | float | int, axis: int = 0, dim: int | None = None) -> Tensor:
        return _generated.ops.gather(self, index, axis, dim)

    def index_select(self: Tensor, index: Tensor | float | int, axis: int = 0, dim: int | None = None) -> Tensor:
        return _generated.ops.index_select(self, index, axis, dim)

    def tile(self: Tensor, repeat_times: Sequence[int] | int) -> Tensor:
        return _generated.ops.tile(self, repeat_times)

    def scatter(self: Tensor, index: Tensor | float | int, updates: Tensor | float | int, overwrite: bool = True) -> Tensor:
        return _generated.ops.scatter(self, index, updates, overwrite)

    def index_add(self: Tensor, index: Tensor | float | int, axis: int, value: Tensor | float | int) -> Tensor:
        return _generated.ops.index_add(self, index, axis, value)

    def masked_fill(self: Tensor, mask: Tensor | float | int, value: float) -> Tensor:
        return _generated.ops.masked_fill(self, mask, value)

    def tril(self: Tensor, diagonal: int = 0) -> Tensor:
        return _generated.ops.tril(self, diagonal)

    def triu(self: Tensor, diagonal: int = 0) -> Tensor:
        return _generated.ops.triu(self, diagonal)

    def roll(self: Tensor, shifts: Sequence[int] | int, axis: Sequence[int] | int | None = None, dims: Sequence[int] | int | None = None) -> Tensor:
        return _generated.ops.roll(self, shifts, axis, dims)

    def repeat_interleave(self: Tensor, repeats: int, axis: int | None = None, dim: int | None = None) -> Tensor:
        return _generated.ops.repeat_interleave(self, repeats, axis, dim)

    def flip(self: Tensor, axis: Sequence[int] | int | None = None, dims: Sequence[int] | int | None = None) -> Tensor:
        return _generated.ops.flip(self, axis, dims)

    def softmax(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        return _generated.ops.softmax(self, axis, dim)

    def log_softmax(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        return _generated.ops.log_softmax(self, axis, dim)

    def glu(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        return _generated.ops.glu(self, axis, dim)

    def fill(self: Tensor, value: float) -> Tensor:
        return _generated.ops.fill(self, value)

    def fill_(self: Tensor, value: float) -> Tensor:
        return _generated.ops.fill_(self, value)

    def zero(self: Tensor) -> Tensor:
        return _generated.ops.zero(self)

    def zero_(self: Tensor) -> Tensor:
        return _generated.ops.zero_(self)

    def bitwise_and(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_and(self, y)

    def __and__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_and(self, other)

    def __rand__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_and(other, self)

    def bitwise_or(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_or(self, y)

    def __or__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_or(self, other)

    def __ror__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_or(other, self)

    def bitwise_xor(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_xor(self, y)

    def __xor__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_xor(self, other)

    def __rxor__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.bitwise_xor(other, self)

    def bitwise_not(self: Tensor) -> Tensor:
        return _generated.ops.bitwise_not(self)

    def __invert__(self: Tensor) -> Tensor:
        return _generated.ops.bitwise_not(self)

    def floor_divide(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.floor_divide(self, y)

    def __floordiv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.floor_divide(self, other)

    def __rfloordiv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.floor_divide(other, self)

    def remainder(self: Tensor, y: Tensor | float | int) -> Tensor:
        return _generated.ops.remainder(self, y)

    def __mod__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.remainder(self, other)

    def __rmod__(self: Tensor, other: Tensor | float | int) -> Tensor:
        return _generated.ops.remainder(other, self)
