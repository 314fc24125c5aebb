# @generated ops from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Forward operators: one function per ops.yaml entry."""

from __future__ import annotations

import builtins as _builtins
from collections.abc import Sequence
from typing import Any

import numpy as _np

from opgrad.generated import nodes as _nodes
from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import set_history
from opgrad.runtime.kernels.registry import dispatch
from opgrad.runtime.tensor import Tensor, as_tensor_arg, tensors_of, wrap
from opgrad.runtime.tensor_wrapper import TensorWrapper

__all__ = [
    "abs",
    "add",
    "argmax",
    "argmin",
    "cast",
    "clip",
    "concat",
    "cos",
    "cross_entropy",
    "divide",
    "dropout",
    "elementwise_pow",
    "elu",
    "embedding",
    "equal",
    "erf",
    "exp",
    "expand",
    "expm1",
    "flatten",
    "gather",
    "gelu",
    "greater_equal",
    "greater_than",
    "index_select",
    "leaky_relu",
    "less_equal",
    "less_than",
    "log",
    "log1p",
    "log_softmax",
    "logsumexp",
    "matmul",
    "max",
    "maximum",
    "mean",
    "min",
    "minimum",
    "mse_loss",
    "multiply",
    "neg",
    "not_equal",
    "one_hot",
    "pow",
    "prod",
    "reciprocal",
    "relu",
    "reshape",
    "rsqrt",
    "scale",
    "sigmoid",
    "sign",
    "silu",
    "sin",
    "softmax",
    "softplus",
    "split",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "subtract",
    "sum",
    "tanh",
    "tile",
    "transpose",
    "unsqueeze",
    "where",
]


def neg(x: Tensor) -> Tensor:
    """Negation -x, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "neg", "x")
    out = wrap(dispatch("neg", "neg", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.NegGradNode((x,))
        set_history(out, node, 0)
    return out


def abs(x: Tensor) -> Tensor:
    """Absolute value, elementwise (gradient sign(x), 0 at 0)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "abs", "x")
    out = wrap(dispatch("abs", "abs", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.AbsGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def sign(x: Tensor) -> Tensor:
    """Sign of x (-1, 0 or 1) in x's dtype; its gradient is zero."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sign", "x")
    out = wrap(dispatch("sign", "sign", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.SignGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
    return out


def exp(x: Tensor) -> Tensor:
    """Exponential, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "exp", "x")
    out = wrap(dispatch("exp", "exp", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.ExpGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def expm1(x: Tensor) -> Tensor:
    """exp(x) - 1, accurate for small x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "expm1", "x")
    out = wrap(dispatch("expm1", "expm1", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.Expm1GradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def log(x: Tensor) -> Tensor:
    """Natural logarithm, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log", "x")
    out = wrap(dispatch("log", "log", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.LogGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def log1p(x: Tensor) -> Tensor:
    """log(1 + x), accurate for small x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log1p", "x")
    out = wrap(dispatch("log1p", "log1p", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.Log1pGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def sqrt(x: Tensor) -> Tensor:
    """Square root, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sqrt", "x")
    out = wrap(dispatch("sqrt", "sqrt", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.SqrtGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def rsqrt(x: Tensor) -> Tensor:
    """Reciprocal square root 1 / sqrt(x), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "rsqrt", "x")
    out = wrap(dispatch("rsqrt", "rsqrt", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.RsqrtGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def square(x: Tensor) -> Tensor:
    """x * x, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "square", "x")
    out = wrap(dispatch("square", "square", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.SquareGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def reciprocal(x: Tensor) -> Tensor:
    """1 / x, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "reciprocal", "x")
    out = wrap(dispatch("reciprocal", "reciprocal", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.ReciprocalGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def sin(x: Tensor) -> Tensor:
    """Sine, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sin", "x")
    out = wrap(dispatch("sin", "sin", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.SinGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def cos(x: Tensor) -> Tensor:
    """Cosine, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cos", "x")
    out = wrap(dispatch("cos", "cos", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.CosGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def tanh(x: Tensor) -> Tensor:
    """Hyperbolic tangent, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tanh", "x")
    out = wrap(dispatch("tanh", "tanh", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.TanhGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def sigmoid(x: Tensor) -> Tensor:
    """Logistic sigmoid 1 / (1 + exp(-x)), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sigmoid", "x")
    out = wrap(dispatch("sigmoid", "sigmoid", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.SigmoidGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def relu(x: Tensor) -> Tensor:
    """Rectified linear unit max(x, 0), elementwise (gradient 0 at 0)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "relu", "x")
    out = wrap(dispatch("relu", "relu", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.ReluGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


def gelu(x: Tensor, approximate: bool = False) -> Tensor:
    """Gaussian error linear unit; approximate=true uses the tanh approximation."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "gelu", "x")
    out = wrap(dispatch("gelu", "gelu", x._data)(x._data, approximate))
    if x._requires_grad and grad_enabled():
        node = _nodes.GeluGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.approximate = approximate
    return out


def silu(x: Tensor) -> Tensor:
    """SiLU (swish) x * sigmoid(x), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "silu", "x")
    out = wrap(dispatch("silu", "silu", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.SiluGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def softplus(x: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softplus", "x")
    out = wrap(dispatch("softplus", "softplus", x._data)(x._data, beta, threshold))
    if x._requires_grad and grad_enabled():
        node = _nodes.SoftplusGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.beta = beta
        node.threshold = threshold
    return out


def leaky_relu(x: Tensor, negative_slope: float = 0.01) -> Tensor:
    """x where x > 0, else negative_slope * x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "leaky_relu", "x")
    out = wrap(dispatch("leaky_relu", "leaky_relu", x._data)(x._data, negative_slope))
    if x._requires_grad and grad_enabled():
        node = _nodes.LeakyReluGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.negative_slope = negative_slope
    return out


def elu(x: Tensor, alpha: float = 1.0) -> Tensor:
    """x where x > 0, else alpha * (exp(x) - 1)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "elu", "x")
    out = wrap(dispatch("elu", "elu", x._data)(x._data, alpha))
    if x._requires_grad and grad_enabled():
        node = _nodes.EluGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.alpha = alpha
    return out


def erf(x: Tensor) -> Tensor:
    """Gauss error function, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "erf", "x")
    out = wrap(dispatch("erf", "erf", x._data)(x._data))
    if x._requires_grad and grad_enabled():
        node = _nodes.ErfGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
    return out


def scale(x: Tensor, scale: float = 1.0, bias: float = 0.0) -> Tensor:
    """x * scale + bias (scalars; x's dtype is kept)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "scale", "x")
    out = wrap(dispatch("scale", "scale", x._data)(x._data, scale, bias))
    if x._requires_grad and grad_enabled():
        node = _nodes.ScaleGradNode((x,))
        set_history(out, node, 0)
        node.scale = scale
        node.bias = bias
    return out


def pow(x: Tensor, y: float) -> Tensor:
    """x raised to the scalar power y, elementwise (x's dtype is kept)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "pow", "x")
    out = wrap(dispatch("pow", "pow", x._data)(x._data, y))
    if x._requires_grad and grad_enabled():
        node = _nodes.PowGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.y = y
    return out


def clip(x: Tensor, min: float | None = None, max: float | None = None) -> Tensor:
    """Clamp x to [min, max]; either bound may be None. The gradient passes where min <= x <= max (bounds
    included).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "clip", "x")
    out = wrap(dispatch("clip", "clip", x._data)(x._data, min, max))
    if x._requires_grad and grad_enabled():
        node = _nodes.ClipGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.min = min
        node.max = max
    return out


def cast(x: Tensor, dtype: Any) -> Tensor:
    """x converted to dtype; the gradient is converted back to x's dtype."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cast", "x")
    dtype = _np.dtype(dtype)
    out = wrap(dispatch("cast", "cast", x._data)(x._data, dtype))
    if x._requires_grad and grad_enabled():
        node = _nodes.CastGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.dtype = dtype
    return out


def add(x: Tensor, y: Tensor) -> Tensor:
    """x + y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "add", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "add", "y")
    out = wrap(dispatch("add", "add", x._data, y._data)(x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.AddGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    return out


def subtract(x: Tensor, y: Tensor) -> Tensor:
    """x - y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "subtract", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "subtract", "y")
    out = wrap(dispatch("subtract", "subtract", x._data, y._data)(x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.SubtractGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    return out


def multiply(x: Tensor, y: Tensor) -> Tensor:
    """x * y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "multiply", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "multiply", "y")
    out = wrap(dispatch("multiply", "multiply", x._data, y._data)(x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.MultiplyGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    return out


def divide(x: Tensor, y: Tensor) -> Tensor:
    """x / y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "divide", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "divide", "y")
    out = wrap(dispatch("divide", "divide", x._data, y._data)(x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.DivideGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.of_input(y)
        node.out = TensorWrapper.of_output(out, node)
    return out


def maximum(x: Tensor, y: Tensor) -> Tensor:
    """Elementwise maximum with broadcasting (ties split the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "maximum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "maximum", "y")
    out = wrap(dispatch("maximum", "maximum", x._data, y._data)(x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.MaximumGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    return out


def minimum(x: Tensor, y: Tensor) -> Tensor:
    """Elementwise minimum with broadcasting (ties split the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "minimum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "minimum", "y")
    out = wrap(dispatch("minimum", "minimum", x._data, y._data)(x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.MinimumGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    return out


def elementwise_pow(x: Tensor, y: Tensor) -> Tensor:
    """x ** y, elementwise with broadcasting (both may require grad)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "elementwise_pow", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "elementwise_pow", "y")
    out = wrap(dispatch("elementwise_pow", "elementwise_pow", x._data, y._data)(x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.ElementwisePowGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    return out


def where(condition: Tensor, x: Tensor, y: Tensor) -> Tensor:
    """x where condition (a bool tensor, no gradient) is true, else y; broadcasting."""
    if not isinstance(condition, Tensor):
        condition = as_tensor_arg(condition, x, "where", "condition")
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "where", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "where", "y")
    _kernel = dispatch("where", "where", condition._data, x._data, y._data)
    out = wrap(_kernel(condition._data, x._data, y._data))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.WhereGradNode((None, x, y))
        set_history(out, node, 0)
        node.condition = TensorWrapper.of_input(condition)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    return out


def equal(x: Tensor, y: Tensor) -> Tensor:
    """x == y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "equal", "y")
    out = wrap(dispatch("equal", "equal", x._data, y._data)(x._data, y._data))
    return out


def not_equal(x: Tensor, y: Tensor) -> Tensor:
    """x != y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "not_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "not_equal", "y")
    out = wrap(dispatch("not_equal", "not_equal", x._data, y._data)(x._data, y._data))
    return out


def less_than(x: Tensor, y: Tensor) -> Tensor:
    """x < y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "less_than", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "less_than", "y")
    out = wrap(dispatch("less_than", "less_than", x._data, y._data)(x._data, y._data))
    return out


def less_equal(x: Tensor, y: Tensor) -> Tensor:
    """x <= y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "less_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "less_equal", "y")
    out = wrap(dispatch("less_equal", "less_equal", x._data, y._data)(x._data, y._data))
    return out


def greater_than(x: Tensor, y: Tensor) -> Tensor:
    """x > y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "greater_than", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "greater_than", "y")
    out = wrap(dispatch("greater_than", "greater_than", x._data, y._data)(x._data, y._data))
    return out


def greater_equal(x: Tensor, y: Tensor) -> Tensor:
    """x >= y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "greater_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "greater_equal", "y")
    out = wrap(dispatch("greater_equal", "greater_equal", x._data, y._data)(x._data, y._data))
    return out


def sum(x: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False) -> Tensor:
    """Sum over axis."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sum", "x")
    out = wrap(dispatch("sum", "sum", x._data)(x._data, axis, keepdim))
    if x._requires_grad and grad_enabled():
        node = _nodes.SumGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
        node.keepdim = keepdim
    return out


def mean(x: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False) -> Tensor:
    """Arithmetic mean over axis."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "mean", "x")
    out = wrap(dispatch("mean", "mean", x._data)(x._data, axis, keepdim))
    if x._requires_grad and grad_enabled():
        node = _nodes.MeanGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
        node.keepdim = keepdim
    return out


def max(x: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False) -> Tensor:
    """Maximum over axis (values only; ties share the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "max", "x")
    out = wrap(dispatch("max", "max", x._data)(x._data, axis, keepdim))
    if x._requires_grad and grad_enabled():
        node = _nodes.MaxGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    return out


def min(x: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False) -> Tensor:
    """Minimum over axis (values only; ties share the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "min", "x")
    out = wrap(dispatch("min", "min", x._data)(x._data, axis, keepdim))
    if x._requires_grad and grad_enabled():
        node = _nodes.MinGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    return out


def prod(x: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False) -> Tensor:
    """Product over axis (the gradient is exact when x has zeros)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "prod", "x")
    out = wrap(dispatch("prod", "prod", x._data)(x._data, axis, keepdim))
    if x._requires_grad and grad_enabled():
        node = _nodes.ProdGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.axis = axis
        node.keepdim = keepdim
    return out


def logsumexp(x: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False) -> Tensor:
    """log(sum(exp(x))) over axis, computed stably."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "logsumexp", "x")
    out = wrap(dispatch("logsumexp", "logsumexp", x._data)(x._data, axis, keepdim))
    if x._requires_grad and grad_enabled():
        node = _nodes.LogsumexpGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    return out


def argmax(x: Tensor, axis: int | None = None, keepdim: bool = False) -> Tensor:
    """int64 index of the maximum along axis (None means the flattened x); no gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argmax", "x")
    out = wrap(dispatch("argmax", "argmax", x._data)(x._data, axis, keepdim))
    return out


def argmin(x: Tensor, axis: int | None = None, keepdim: bool = False) -> Tensor:
    """int64 index of the minimum along axis (None means the flattened x); no gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argmin", "x")
    out = wrap(dispatch("argmin", "argmin", x._data)(x._data, axis, keepdim))
    return out


def matmul(x: Tensor, y: Tensor, transpose_x: bool = False, transpose_y: bool = False) -> Tensor:
    """Matrix product with NumPy semantics (1-D operands, batch broadcasting); transpose_x/transpose_y swap
    the last two axes first.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "matmul", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "matmul", "y")
    out = wrap(dispatch("matmul", "matmul", x._data, y._data)(x._data, y._data, transpose_x, transpose_y))
    if (x._requires_grad or y._requires_grad) and grad_enabled():
        node = _nodes.MatmulGradNode((x, y))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    return out


def reshape(x: Tensor, shape: Sequence[int] | int) -> Tensor:
    """x with a new shape (one entry may be -1); a view where possible."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "reshape", "x")
    out = wrap(dispatch("reshape", "reshape", x._data)(x._data, shape))
    if x._requires_grad and grad_enabled():
        node = _nodes.ReshapeGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.shape = shape
    return out


def transpose(x: Tensor, perm: Sequence[int] | int) -> Tensor:
    """x with its axes permuted by perm; a view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "transpose", "x")
    out = wrap(dispatch("transpose", "transpose", x._data)(x._data, perm))
    if x._requires_grad and grad_enabled():
        node = _nodes.TransposeGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.perm = perm
    return out


def squeeze(x: Tensor, axis: Sequence[int] | int = ()) -> Tensor:
    """x without the size-1 axes listed (empty means all size-1 axes); a view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "squeeze", "x")
    out = wrap(dispatch("squeeze", "squeeze", x._data)(x._data, axis))
    if x._requires_grad and grad_enabled():
        node = _nodes.SqueezeGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    return out


def unsqueeze(x: Tensor, axis: Sequence[int] | int) -> Tensor:
    """x with size-1 axes inserted at axis (int or list); a view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "unsqueeze", "x")
    out = wrap(dispatch("unsqueeze", "unsqueeze", x._data)(x._data, axis))
    if x._requires_grad and grad_enabled():
        node = _nodes.UnsqueezeGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    return out


def flatten(x: Tensor, start_axis: int = 0, stop_axis: int = -1) -> Tensor:
    """x with axes start_axis..stop_axis merged into one; a view where possible."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "flatten", "x")
    out = wrap(dispatch("flatten", "flatten", x._data)(x._data, start_axis, stop_axis))
    if x._requires_grad and grad_enabled():
        node = _nodes.FlattenGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.start_axis = start_axis
        node.stop_axis = stop_axis
    return out


def expand(x: Tensor, shape: Sequence[int] | int) -> Tensor:
    """x broadcast to shape (-1 keeps a dimension); a read-only view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "expand", "x")
    out = wrap(dispatch("expand", "expand", x._data)(x._data, shape))
    if x._requires_grad and grad_enabled():
        node = _nodes.ExpandGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.shape = shape
    return out


def concat(x: list[Tensor], axis: int = 0) -> Tensor:
    """The tensors of x joined along axis."""
    x = tensors_of(x, "concat", "x")
    _x_data = [_t._data for _t in x]
    out = wrap(dispatch("concat", "concat", *_x_data)(_x_data, axis))
    if _builtins.any(_t._requires_grad for _t in x) and grad_enabled():
        node = _nodes.ConcatGradNode((*x,))
        set_history(out, node, 0)
        node.x = [TensorWrapper.meta_of(_t) for _t in x]
        node.axis = axis
    return out


def stack(x: list[Tensor], axis: int = 0) -> Tensor:
    """The tensors of x (equal shapes) stacked along a new axis."""
    x = tensors_of(x, "stack", "x")
    _x_data = [_t._data for _t in x]
    out = wrap(dispatch("stack", "stack", *_x_data)(_x_data, axis))
    if _builtins.any(_t._requires_grad for _t in x) and grad_enabled():
        node = _nodes.StackGradNode((*x,))
        set_history(out, node, 0)
        node.x = [TensorWrapper.meta_of(_t) for _t in x]
        node.axis = axis
    return out


def split(x: Tensor, num_or_sections: Sequence[int] | int, axis: int = 0) -> list[Tensor]:
    """x split along axis; an int gives that many equal sections, a list the section sizes (one may be -1)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "split", "x")
    _result = dispatch("split", "split", x._data)(x._data, num_or_sections, axis)
    out = [wrap(_a) for _a in _result]
    if x._requires_grad and grad_enabled():
        node = _nodes.SplitGradNode((x,))
        for _i, _t in _builtins.enumerate(out):
            set_history(_t, node, _i)
        node.x = TensorWrapper.meta_of(x)
        node.num_or_sections = num_or_sections
        node.axis = axis
    return out


def gather(x: Tensor, index: Tensor, axis: int = 0) -> Tensor:
    """The slices of x along axis picked by a 1-D integer index (like index_select)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, index, "gather", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "gather", "index")
    out = wrap(dispatch("gather", "gather", x._data, index._data)(x._data, index._data, axis))
    if x._requires_grad and grad_enabled():
        node = _nodes.GatherGradNode((x, None))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    return out


def index_select(x: Tensor, index: Tensor, axis: int = 0) -> Tensor:
    """The slices of x along axis picked by a 1-D integer index."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, index, "index_select", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "index_select", "index")
    out = wrap(dispatch("index_select", "index_select", x._data, index._data)(x._data, index._data, axis))
    if x._requires_grad and grad_enabled():
        node = _nodes.IndexSelectGradNode((x, None))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    return out


def tile(x: Tensor, repeat_times: Sequence[int] | int) -> Tensor:
    """x repeated repeat_times[i] times along each axis."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tile", "x")
    out = wrap(dispatch("tile", "tile", x._data)(x._data, repeat_times))
    if x._requires_grad and grad_enabled():
        node = _nodes.TileGradNode((x,))
        set_history(out, node, 0)
        node.x = TensorWrapper.meta_of(x)
        node.repeat_times = repeat_times
    return out


def softmax(x: Tensor, axis: int = -1) -> Tensor:
    """exp(x) / sum(exp(x)) along axis, computed stably."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softmax", "x")
    out = wrap(dispatch("softmax", "softmax", x._data)(x._data, axis))
    if x._requires_grad and grad_enabled():
        node = _nodes.SoftmaxGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
    return out


def log_softmax(x: Tensor, axis: int = -1) -> Tensor:
    """log(softmax(x)) along axis, computed stably."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log_softmax", "x")
    out = wrap(dispatch("log_softmax", "log_softmax", x._data)(x._data, axis))
    if x._requires_grad and grad_enabled():
        node = _nodes.LogSoftmaxGradNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
    return out


def cross_entropy(input: Tensor, label: Tensor, axis: int = -1, reduction: str = "mean") -> Tensor:
    """Softmax cross entropy of logits input against integer class labels (input's shape without axis, or
    with size 1 there); reduction is 'mean', 'sum' or 'none'.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "cross_entropy", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "cross_entropy", "label")
    _kernel = dispatch("cross_entropy", "cross_entropy", input._data, label._data)
    out = wrap(_kernel(input._data, label._data, axis, reduction))
    if input._requires_grad and grad_enabled():
        node = _nodes.CrossEntropyGradNode((input, None))
        set_history(out, node, 0)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.axis = axis
        node.reduction = reduction
    return out


def mse_loss(input: Tensor, label: Tensor, reduction: str = "mean") -> Tensor:
    """Squared error (input - label) ** 2 with broadcasting; reduction is 'mean', 'sum' or 'none'."""
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "mse_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "mse_loss", "label")
    _kernel = dispatch("mse_loss", "mse_loss", input._data, label._data)
    out = wrap(_kernel(input._data, label._data, reduction))
    if (input._requires_grad or label._requires_grad) and grad_enabled():
        node = _nodes.MseLossGradNode((input, label))
        set_history(out, node, 0)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.reduction = reduction
    return out


def dropout(x: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero each element with probability p and scale the rest by 1 / (1 - p); identity when not training."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "dropout", "x")
    _results = dispatch("dropout", "dropout", x._data)(x._data, p, training)
    out = wrap(_results[0])
    if x._requires_grad and grad_enabled():
        node = _nodes.DropoutGradNode((x,))
        set_history(out, node, 0)
        node.mask = TensorWrapper.of_input(wrap(_results[1]))
        node.p = p
        node.training = training
    return out


def one_hot(x: Tensor, num_classes: int) -> Tensor:
    """float32 one-hot encoding of the integer tensor x, with a new last axis of num_classes; no gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "one_hot", "x")
    out = wrap(dispatch("one_hot", "one_hot", x._data)(x._data, num_classes))
    return out


def embedding(x: Tensor, weight: Tensor) -> Tensor:
    """Rows of weight (num_embeddings, dim) picked by the integer ids x; gradient for weight only."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "embedding", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "embedding", "weight")
    out = wrap(dispatch("embedding", "embedding", x._data, weight._data)(x._data, weight._data))
    if weight._requires_grad and grad_enabled():
        node = _nodes.EmbeddingGradNode((None, weight))
        set_history(out, node, 0)
        node.x = TensorWrapper.of_input(x)
        node.weight = TensorWrapper.meta_of(weight)
    return out
