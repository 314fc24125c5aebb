# @generated grad_ops from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Grad ops as differentiable functions, one per backward.yaml entry that has a kernel; grad nodes call
them when create_graph=True so that the backward pass is recorded.
"""

from __future__ import annotations

import builtins as _builtins
from collections.abc import Sequence
from typing import Any

from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import TensorMeta
from opgrad.runtime.kernels.registry import dispatch
from opgrad.runtime.tensor import Tensor, wrap

__all__ = [
    "abs_grad",
    "add_grad",
    "cast_grad",
    "clip_grad",
    "concat_grad",
    "cos_grad",
    "cross_entropy_grad",
    "divide_grad",
    "dropout_grad",
    "elementwise_pow_grad",
    "elu_grad",
    "embedding_grad",
    "erf_grad",
    "exp_grad",
    "expand_grad",
    "expm1_grad",
    "flatten_grad",
    "gather_grad",
    "gelu_grad",
    "index_select_grad",
    "leaky_relu_grad",
    "log1p_grad",
    "log_grad",
    "log_softmax_grad",
    "logsumexp_grad",
    "matmul_grad",
    "max_grad",
    "maximum_grad",
    "mean_grad",
    "min_grad",
    "minimum_grad",
    "mse_loss_grad",
    "multiply_grad",
    "neg_grad",
    "pow_grad",
    "prod_grad",
    "reciprocal_grad",
    "relu_grad",
    "reshape_grad",
    "rsqrt_grad",
    "scale_grad",
    "sigmoid_grad",
    "sign_grad",
    "silu_grad",
    "sin_grad",
    "softmax_grad",
    "softplus_grad",
    "split_grad",
    "sqrt_grad",
    "square_grad",
    "squeeze_grad",
    "stack_grad",
    "subtract_grad",
    "sum_grad",
    "tanh_grad",
    "tile_grad",
    "transpose_grad",
    "unsqueeze_grad",
    "where_grad",
]


def _no_backward(op: str) -> RuntimeError:
    return RuntimeError(
        f"cannot differentiate {op}: it has no backward, and create_graph=True records the backward pass. "
        f"Add `backward: <name>` to the {op} entry in backward.yaml together with a backward_op entry "
        f"whose forward is {op}, or write {op} as a `composite:` expression instead of a kernel."
    )


def neg_grad(out_grad: Tensor) -> Tensor:
    """Gradient of neg."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("neg_grad")
    x_grad = wrap(dispatch("neg_grad", "neg_grad", out_grad._data)(out_grad._data))
    return x_grad


def abs_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of abs."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("abs_grad")
    x_grad = wrap(dispatch("abs_grad", "abs_grad", x._data, out_grad._data)(x._data, out_grad._data))
    return x_grad


def sign_grad(x: TensorMeta, out_grad: Tensor) -> Tensor:
    """Gradient of sign."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("sign_grad")
    x_grad = wrap(dispatch("sign_grad", "sign_grad", out_grad._data)(x, out_grad._data))
    return x_grad


def exp_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of exp."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("exp_grad")
    x_grad = wrap(dispatch("exp_grad", "exp_grad", out._data, out_grad._data)(out._data, out_grad._data))
    return x_grad


def expm1_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of expm1."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("expm1_grad")
    _kernel = dispatch("expm1_grad", "expm1_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data))
    return x_grad


def log_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of log."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("log_grad")
    x_grad = wrap(dispatch("log_grad", "log_grad", x._data, out_grad._data)(x._data, out_grad._data))
    return x_grad


def log1p_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of log1p."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("log1p_grad")
    x_grad = wrap(dispatch("log1p_grad", "log1p_grad", x._data, out_grad._data)(x._data, out_grad._data))
    return x_grad


def sqrt_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of sqrt."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("sqrt_grad")
    _kernel = dispatch("sqrt_grad", "sqrt_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data))
    return x_grad


def rsqrt_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of rsqrt."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("rsqrt_grad")
    _kernel = dispatch("rsqrt_grad", "rsqrt_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data))
    return x_grad


def square_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of square."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("square_grad")
    _kernel = dispatch("square_grad", "square_grad", x._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out_grad._data))
    return x_grad


def reciprocal_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of reciprocal."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("reciprocal_grad")
    _kernel = dispatch("reciprocal_grad", "reciprocal_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data))
    return x_grad


def sin_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of sin."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("sin_grad")
    x_grad = wrap(dispatch("sin_grad", "sin_grad", x._data, out_grad._data)(x._data, out_grad._data))
    return x_grad


def cos_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of cos."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("cos_grad")
    x_grad = wrap(dispatch("cos_grad", "cos_grad", x._data, out_grad._data)(x._data, out_grad._data))
    return x_grad


def tanh_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of tanh."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("tanh_grad")
    _kernel = dispatch("tanh_grad", "tanh_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data))
    return x_grad


def sigmoid_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of sigmoid."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("sigmoid_grad")
    _kernel = dispatch("sigmoid_grad", "sigmoid_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data))
    return x_grad


def relu_grad(out: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of relu."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("relu_grad")
    _kernel = dispatch("relu_grad", "relu_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data))
    return x_grad


def gelu_grad(x: Tensor, out_grad: Tensor, approximate: bool = False) -> Tensor:
    """Gradient of gelu."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("gelu_grad")
    _kernel = dispatch("gelu_grad", "gelu_grad", x._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out_grad._data, approximate))
    return x_grad


def silu_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of silu."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("silu_grad")
    x_grad = wrap(dispatch("silu_grad", "silu_grad", x._data, out_grad._data)(x._data, out_grad._data))
    return x_grad


def softplus_grad(x: Tensor, out_grad: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """Gradient of softplus."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("softplus_grad")
    _kernel = dispatch("softplus_grad", "softplus_grad", x._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out_grad._data, beta, threshold))
    return x_grad


def leaky_relu_grad(x: Tensor, out_grad: Tensor, negative_slope: float = 0.01) -> Tensor:
    """Gradient of leaky_relu."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("leaky_relu_grad")
    _kernel = dispatch("leaky_relu_grad", "leaky_relu_grad", x._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out_grad._data, negative_slope))
    return x_grad


def elu_grad(x: Tensor, out_grad: Tensor, alpha: float = 1.0) -> Tensor:
    """Gradient of elu."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("elu_grad")
    _kernel = dispatch("elu_grad", "elu_grad", x._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out_grad._data, alpha))
    return x_grad


def erf_grad(x: Tensor, out_grad: Tensor) -> Tensor:
    """Gradient of erf."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("erf_grad")
    x_grad = wrap(dispatch("erf_grad", "erf_grad", x._data, out_grad._data)(x._data, out_grad._data))
    return x_grad


def scale_grad(out_grad: Tensor, scale: float = 1.0, bias: float = 0.0) -> Tensor:
    """Gradient of scale."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("scale_grad")
    x_grad = wrap(dispatch("scale_grad", "scale_grad", out_grad._data)(out_grad._data, scale, bias))
    return x_grad


def pow_grad(x: Tensor, out_grad: Tensor, y: float) -> Tensor:
    """Gradient of pow."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("pow_grad")
    x_grad = wrap(dispatch("pow_grad", "pow_grad", x._data, out_grad._data)(x._data, out_grad._data, y))
    return x_grad


def clip_grad(x: Tensor, out_grad: Tensor, min: float | None = None, max: float | None = None) -> Tensor:
    """Gradient of clip."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("clip_grad")
    _kernel = dispatch("clip_grad", "clip_grad", x._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out_grad._data, min, max))
    return x_grad


def cast_grad(x: TensorMeta, out_grad: Tensor, dtype: Any) -> Tensor:
    """Gradient of cast."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("cast_grad")
    x_grad = wrap(dispatch("cast_grad", "cast_grad", out_grad._data)(x, out_grad._data, dtype))
    return x_grad


def add_grad(x: TensorMeta, y: TensorMeta, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of add."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("add_grad")
    _results = dispatch("add_grad", "add_grad", out_grad._data)(x, y, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def subtract_grad(x: TensorMeta, y: TensorMeta, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of subtract."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("subtract_grad")
    _results = dispatch("subtract_grad", "subtract_grad", out_grad._data)(x, y, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def multiply_grad(x: Tensor, y: Tensor, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of multiply."""
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("multiply_grad")
    _kernel = dispatch("multiply_grad", "multiply_grad", x._data, y._data, out_grad._data)
    _results = _kernel(x._data, y._data, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def divide_grad(x: TensorMeta, y: Tensor, out: Tensor, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of divide."""
    if (y._requires_grad or out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("divide_grad")
    _kernel = dispatch("divide_grad", "divide_grad", y._data, out._data, out_grad._data)
    _results = _kernel(x, y._data, out._data, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def maximum_grad(x: Tensor, y: Tensor, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of maximum."""
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("maximum_grad")
    _kernel = dispatch("maximum_grad", "maximum_grad", x._data, y._data, out_grad._data)
    _results = _kernel(x._data, y._data, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def minimum_grad(x: Tensor, y: Tensor, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of minimum."""
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("minimum_grad")
    _kernel = dispatch("minimum_grad", "minimum_grad", x._data, y._data, out_grad._data)
    _results = _kernel(x._data, y._data, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def elementwise_pow_grad(x: Tensor, y: Tensor, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of elementwise_pow."""
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("elementwise_pow_grad")
    _kernel = dispatch("elementwise_pow_grad", "elementwise_pow_grad", x._data, y._data, out_grad._data)
    _results = _kernel(x._data, y._data, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def where_grad(condition: Tensor, x: TensorMeta, y: TensorMeta, out_grad: Tensor) -> tuple[Tensor, Tensor]:
    """Gradient of where."""
    if (condition._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("where_grad")
    _kernel = dispatch("where_grad", "where_grad", condition._data, out_grad._data)
    _results = _kernel(condition._data, x, y, out_grad._data)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def sum_grad(
    x: TensorMeta, out_grad: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False
) -> Tensor:
    """Gradient of sum."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("sum_grad")
    x_grad = wrap(dispatch("sum_grad", "sum_grad", out_grad._data)(x, out_grad._data, axis, keepdim))
    return x_grad


def mean_grad(
    x: TensorMeta, out_grad: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False
) -> Tensor:
    """Gradient of mean."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("mean_grad")
    x_grad = wrap(dispatch("mean_grad", "mean_grad", out_grad._data)(x, out_grad._data, axis, keepdim))
    return x_grad


def max_grad(
    x: Tensor, out: Tensor, out_grad: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False
) -> Tensor:
    """Gradient of max."""
    if (x._requires_grad or out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("max_grad")
    _kernel = dispatch("max_grad", "max_grad", x._data, out._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out._data, out_grad._data, axis, keepdim))
    return x_grad


def min_grad(
    x: Tensor, out: Tensor, out_grad: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False
) -> Tensor:
    """Gradient of min."""
    if (x._requires_grad or out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("min_grad")
    _kernel = dispatch("min_grad", "min_grad", x._data, out._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out._data, out_grad._data, axis, keepdim))
    return x_grad


def prod_grad(x: Tensor, out_grad: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False) -> Tensor:
    """Gradient of prod."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("prod_grad")
    _kernel = dispatch("prod_grad", "prod_grad", x._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out_grad._data, axis, keepdim))
    return x_grad


def logsumexp_grad(
    x: Tensor, out: Tensor, out_grad: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False
) -> Tensor:
    """Gradient of logsumexp."""
    if (x._requires_grad or out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("logsumexp_grad")
    _kernel = dispatch("logsumexp_grad", "logsumexp_grad", x._data, out._data, out_grad._data)
    x_grad = wrap(_kernel(x._data, out._data, out_grad._data, axis, keepdim))
    return x_grad


def matmul_grad(
    x: Tensor, y: Tensor, out_grad: Tensor, transpose_x: bool = False, transpose_y: bool = False
) -> tuple[Tensor, Tensor]:
    """Gradient of matmul."""
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("matmul_grad")
    _kernel = dispatch("matmul_grad", "matmul_grad", x._data, y._data, out_grad._data)
    _results = _kernel(x._data, y._data, out_grad._data, transpose_x, transpose_y)
    x_grad = wrap(_results[0])
    y_grad = wrap(_results[1])
    return (x_grad, y_grad)


def reshape_grad(x: TensorMeta, out_grad: Tensor, shape: Sequence[int] | int) -> Tensor:
    """Gradient of reshape."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("reshape_grad")
    x_grad = wrap(dispatch("reshape_grad", "reshape_grad", out_grad._data)(x, out_grad._data, shape))
    return x_grad


def transpose_grad(x: TensorMeta, out_grad: Tensor, perm: Sequence[int] | int) -> Tensor:
    """Gradient of transpose."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("transpose_grad")
    x_grad = wrap(dispatch("transpose_grad", "transpose_grad", out_grad._data)(x, out_grad._data, perm))
    return x_grad


def squeeze_grad(x: TensorMeta, out_grad: Tensor, axis: Sequence[int] | int = ()) -> Tensor:
    """Gradient of squeeze."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("squeeze_grad")
    x_grad = wrap(dispatch("squeeze_grad", "squeeze_grad", out_grad._data)(x, out_grad._data, axis))
    return x_grad


def unsqueeze_grad(x: TensorMeta, out_grad: Tensor, axis: Sequence[int] | int) -> Tensor:
    """Gradient of unsqueeze."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("unsqueeze_grad")
    x_grad = wrap(dispatch("unsqueeze_grad", "unsqueeze_grad", out_grad._data)(x, out_grad._data, axis))
    return x_grad


def flatten_grad(x: TensorMeta, out_grad: Tensor, start_axis: int = 0, stop_axis: int = -1) -> Tensor:
    """Gradient of flatten."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("flatten_grad")
    _kernel = dispatch("flatten_grad", "flatten_grad", out_grad._data)
    x_grad = wrap(_kernel(x, out_grad._data, start_axis, stop_axis))
    return x_grad


def expand_grad(x: TensorMeta, out_grad: Tensor, shape: Sequence[int] | int) -> Tensor:
    """Gradient of expand."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("expand_grad")
    x_grad = wrap(dispatch("expand_grad", "expand_grad", out_grad._data)(x, out_grad._data, shape))
    return x_grad


def concat_grad(x: TensorMeta, out_grad: Tensor, axis: int = 0) -> list[Tensor]:
    """Gradient of concat."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("concat_grad")
    _result = dispatch("concat_grad", "concat_grad", out_grad._data)(x, out_grad._data, axis)
    x_grad = [wrap(_a) for _a in _result]
    return x_grad


def stack_grad(x: TensorMeta, out_grad: Tensor, axis: int = 0) -> list[Tensor]:
    """Gradient of stack."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("stack_grad")
    _result = dispatch("stack_grad", "stack_grad", out_grad._data)(x, out_grad._data, axis)
    x_grad = [wrap(_a) for _a in _result]
    return x_grad


def split_grad(
    x: TensorMeta, out_grad: list[Tensor], num_or_sections: Sequence[int] | int, axis: int = 0
) -> Tensor:
    """Gradient of split."""
    if _builtins.any(_t._requires_grad for _t in out_grad) and grad_enabled():
        raise _no_backward("split_grad")
    _out_grad_data = [_t._data for _t in out_grad]
    _kernel = dispatch("split_grad", "split_grad", *_out_grad_data)
    x_grad = wrap(_kernel(x, _out_grad_data, num_or_sections, axis))
    return x_grad


def gather_grad(x: TensorMeta, index: Tensor, out_grad: Tensor, axis: int = 0) -> Tensor:
    """Gradient of gather."""
    if (index._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("gather_grad")
    _kernel = dispatch("gather_grad", "gather_grad", index._data, out_grad._data)
    x_grad = wrap(_kernel(x, index._data, out_grad._data, axis))
    return x_grad


def index_select_grad(x: TensorMeta, index: Tensor, out_grad: Tensor, axis: int = 0) -> Tensor:
    """Gradient of index_select."""
    if (index._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("index_select_grad")
    _kernel = dispatch("index_select_grad", "index_select_grad", index._data, out_grad._data)
    x_grad = wrap(_kernel(x, index._data, out_grad._data, axis))
    return x_grad


def tile_grad(x: TensorMeta, out_grad: Tensor, repeat_times: Sequence[int] | int) -> Tensor:
    """Gradient of tile."""
    if out_grad._requires_grad and grad_enabled():
        raise _no_backward("tile_grad")
    x_grad = wrap(dispatch("tile_grad", "tile_grad", out_grad._data)(x, out_grad._data, repeat_times))
    return x_grad


def softmax_grad(out: Tensor, out_grad: Tensor, axis: int = -1) -> Tensor:
    """Gradient of softmax."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("softmax_grad")
    _kernel = dispatch("softmax_grad", "softmax_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data, axis))
    return x_grad


def log_softmax_grad(out: Tensor, out_grad: Tensor, axis: int = -1) -> Tensor:
    """Gradient of log_softmax."""
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("log_softmax_grad")
    _kernel = dispatch("log_softmax_grad", "log_softmax_grad", out._data, out_grad._data)
    x_grad = wrap(_kernel(out._data, out_grad._data, axis))
    return x_grad


def cross_entropy_grad(
    input: Tensor, label: Tensor, out_grad: Tensor, axis: int = -1, reduction: str = "mean"
) -> Tensor:
    """Gradient of cross_entropy."""
    if (input._requires_grad or label._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("cross_entropy_grad")
    _kernel = dispatch("cross_entropy_grad", "cross_entropy_grad", input._data, label._data, out_grad._data)
    input_grad = wrap(_kernel(input._data, label._data, out_grad._data, axis, reduction))
    return input_grad


def mse_loss_grad(
    input: Tensor, label: Tensor, out_grad: Tensor, reduction: str = "mean"
) -> tuple[Tensor, Tensor]:
    """Gradient of mse_loss."""
    if (input._requires_grad or label._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("mse_loss_grad")
    _kernel = dispatch("mse_loss_grad", "mse_loss_grad", input._data, label._data, out_grad._data)
    _results = _kernel(input._data, label._data, out_grad._data, reduction)
    input_grad = wrap(_results[0])
    label_grad = wrap(_results[1])
    return (input_grad, label_grad)


def dropout_grad(mask: Tensor, out_grad: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Gradient of dropout."""
    if (mask._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("dropout_grad")
    _kernel = dispatch("dropout_grad", "dropout_grad", mask._data, out_grad._data)
    x_grad = wrap(_kernel(mask._data, out_grad._data, p, training))
    return x_grad


def embedding_grad(x: Tensor, weight: TensorMeta, out_grad: Tensor) -> Tensor:
    """Gradient of embedding."""
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        raise _no_backward("embedding_grad")
    _kernel = dispatch("embedding_grad", "embedding_grad", x._data, out_grad._data)
    weight_grad = wrap(_kernel(x._data, weight, out_grad._data))
    return weight_grad
