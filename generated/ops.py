# @generated ops from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Forward operators: one function per ops.yaml entry."""

from __future__ import annotations

import builtins as _builtins
from collections.abc import Sequence
from typing import Any

from opgrad.generated import jvp as _jvp
from opgrad.generated import nodes as _nodes
from opgrad.runtime.arguments import (
    bool_arg,
    dtype_arg,
    float_arg,
    int_arg,
    int_list_arg,
    scalar_arg,
    str_arg,
)
from opgrad.runtime.dual import (
    FORWARD,
    write_tangent,
)
from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import (
    new_node,
    set_history,
)
from opgrad.runtime.inplace import (
    check_inplace,
    mark_view,
    saved_before_write,
    write_inplace,
)
from opgrad.runtime.kernels.registry import (
    dispatch,
    kernel_error,
    kernel_table,
)
from opgrad.runtime.tensor import (
    Tensor,
    as_tensor_arg,
    tensors_of,
    wrap,
)
from opgrad.runtime.tensor_wrapper import (
    TensorWrapper,
    bump_versions,
)

# Kernels called with one array: {array type -> kernel}, filled by dispatch (kernel_table).
_k_abs = kernel_table("abs")
_k_adaptive_avg_pool2d = kernel_table("adaptive_avg_pool2d")
_k_add = kernel_table("add")
_k_argmax = kernel_table("argmax")
_k_argmin = kernel_table("argmin")
_k_argsort = kernel_table("argsort")
_k_avg_pool2d = kernel_table("avg_pool2d")
_k_batch_norm = kernel_table("batch_norm")
_k_binary_cross_entropy_with_logits = kernel_table("binary_cross_entropy_with_logits")
_k_cast = kernel_table("cast")
_k_celu = kernel_table("celu")
_k_clip = kernel_table("clip")
_k_conv2d = kernel_table("conv2d")
_k_cos = kernel_table("cos")
_k_cross_entropy = kernel_table("cross_entropy")
_k_cumprod = kernel_table("cumprod")
_k_cumsum = kernel_table("cumsum")
_k_divide = kernel_table("divide")
_k_dropout = kernel_table("dropout")
_k_einsum = kernel_table("einsum")
_k_elementwise_pow = kernel_table("elementwise_pow")
_k_elu = kernel_table("elu")
_k_embedding = kernel_table("embedding")
_k_equal = kernel_table("equal")
_k_erf = kernel_table("erf")
_k_exp = kernel_table("exp")
_k_expand = kernel_table("expand")
_k_expm1 = kernel_table("expm1")
_k_fill = kernel_table("fill")
_k_flatten = kernel_table("flatten")
_k_flip = kernel_table("flip")
_k_gather = kernel_table("gather")
_k_gelu = kernel_table("gelu")
_k_glu = kernel_table("glu")
_k_greater_equal = kernel_table("greater_equal")
_k_greater_than = kernel_table("greater_than")
_k_group_norm = kernel_table("group_norm")
_k_hardsigmoid = kernel_table("hardsigmoid")
_k_hardswish = kernel_table("hardswish")
_k_hardtanh = kernel_table("hardtanh")
_k_index_add = kernel_table("index_add")
_k_index_select = kernel_table("index_select")
_k_isfinite = kernel_table("isfinite")
_k_isinf = kernel_table("isinf")
_k_isnan = kernel_table("isnan")
_k_kl_div = kernel_table("kl_div")
_k_l1_loss = kernel_table("l1_loss")
_k_layer_norm = kernel_table("layer_norm")
_k_leaky_relu = kernel_table("leaky_relu")
_k_less_equal = kernel_table("less_equal")
_k_less_than = kernel_table("less_than")
_k_linear = kernel_table("linear")
_k_log = kernel_table("log")
_k_log1p = kernel_table("log1p")
_k_log_sigmoid = kernel_table("log_sigmoid")
_k_log_softmax = kernel_table("log_softmax")
_k_logical_and = kernel_table("logical_and")
_k_logical_not = kernel_table("logical_not")
_k_logical_or = kernel_table("logical_or")
_k_logsumexp = kernel_table("logsumexp")
_k_masked_fill = kernel_table("masked_fill")
_k_matmul = kernel_table("matmul")
_k_matmul_jvp = kernel_table("matmul_jvp")
_k_matmul_xg = kernel_table("matmul_xg")
_k_matmul_yg = kernel_table("matmul_yg")
_k_max = kernel_table("max")
_k_max_pool2d = kernel_table("max_pool2d")
_k_maximum = kernel_table("maximum")
_k_mean = kernel_table("mean")
_k_min = kernel_table("min")
_k_minimum = kernel_table("minimum")
_k_mish = kernel_table("mish")
_k_mse_loss = kernel_table("mse_loss")
_k_multiply = kernel_table("multiply")
_k_neg = kernel_table("neg")
_k_nll_loss = kernel_table("nll_loss")
_k_norm = kernel_table("norm")
_k_not_equal = kernel_table("not_equal")
_k_one_hot = kernel_table("one_hot")
_k_pad = kernel_table("pad")
_k_pow = kernel_table("pow")
_k_prelu = kernel_table("prelu")
_k_prod = kernel_table("prod")
_k_reciprocal = kernel_table("reciprocal")
_k_reduce_as = kernel_table("reduce_as")
_k_relu = kernel_table("relu")
_k_repeat_interleave = kernel_table("repeat_interleave")
_k_reshape = kernel_table("reshape")
_k_roll = kernel_table("roll")
_k_rsqrt = kernel_table("rsqrt")
_k_scale = kernel_table("scale")
_k_scaled_dot_product_attention = kernel_table("scaled_dot_product_attention")
_k_scatter = kernel_table("scatter")
_k_selu = kernel_table("selu")
_k_sigmoid = kernel_table("sigmoid")
_k_sign = kernel_table("sign")
_k_silu = kernel_table("silu")
_k_sin = kernel_table("sin")
_k_smooth_l1_loss = kernel_table("smooth_l1_loss")
_k_softmax = kernel_table("softmax")
_k_softmax_vjp = kernel_table("softmax_vjp")
_k_softmax_vjp_dp = kernel_table("softmax_vjp_dp")
_k_softplus = kernel_table("softplus")
_k_softsign = kernel_table("softsign")
_k_sort = kernel_table("sort")
_k_split = kernel_table("split")
_k_sqrt = kernel_table("sqrt")
_k_square = kernel_table("square")
_k_squeeze = kernel_table("squeeze")
_k_std = kernel_table("std")
_k_subtract = kernel_table("subtract")
_k_sum = kernel_table("sum")
_k_take_along_axis = kernel_table("take_along_axis")
_k_tanh = kernel_table("tanh")
_k_tanhshrink = kernel_table("tanhshrink")
_k_tile = kernel_table("tile")
_k_topk = kernel_table("topk")
_k_transpose = kernel_table("transpose")
_k_tril = kernel_table("tril")
_k_triu = kernel_table("triu")
_k_unsqueeze = kernel_table("unsqueeze")
_k_var = kernel_table("var")
_k_where = kernel_table("where")
_k_zero = kernel_table("zero")

__all__ = [
    "abs",
    "adaptive_avg_pool2d",
    "add",
    "add_",
    "argmax",
    "argmin",
    "argsort",
    "avg_pool2d",
    "batch_norm",
    "binary_cross_entropy_with_logits",
    "cast",
    "celu",
    "clip",
    "clip_",
    "concat",
    "conv2d",
    "cos",
    "cross_entropy",
    "cumprod",
    "cumsum",
    "divide",
    "divide_",
    "dropout",
    "einsum",
    "elementwise_pow",
    "elu",
    "embedding",
    "equal",
    "erf",
    "exp",
    "exp_",
    "expand",
    "expm1",
    "fill",
    "fill_",
    "flatten",
    "flip",
    "gather",
    "gelu",
    "glu",
    "greater_equal",
    "greater_than",
    "group_norm",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "index_add",
    "index_select",
    "isfinite",
    "isinf",
    "isnan",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "less_equal",
    "less_than",
    "linear",
    "log",
    "log1p",
    "log_sigmoid",
    "log_softmax",
    "logical_and",
    "logical_not",
    "logical_or",
    "logsumexp",
    "masked_fill",
    "matmul",
    "matmul_jvp",
    "matmul_xg",
    "matmul_yg",
    "max",
    "max_pool2d",
    "maximum",
    "mean",
    "min",
    "minimum",
    "mish",
    "mse_loss",
    "multiply",
    "multiply_",
    "neg",
    "nll_loss",
    "norm",
    "not_equal",
    "one_hot",
    "pad",
    "pow",
    "prelu",
    "prod",
    "reciprocal",
    "reduce_as",
    "relu",
    "relu_",
    "repeat_interleave",
    "reshape",
    "roll",
    "rsqrt",
    "scale",
    "scale_",
    "scaled_dot_product_attention",
    "scatter",
    "selu",
    "sigmoid",
    "sigmoid_",
    "sign",
    "silu",
    "sin",
    "smooth_l1_loss",
    "softmax",
    "softmax_vjp",
    "softmax_vjp_dp",
    "softplus",
    "softsign",
    "sort",
    "split",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "std",
    "subtract",
    "subtract_",
    "sum",
    "swish",
    "take_along_axis",
    "tanh",
    "tanh_",
    "tanhshrink",
    "tile",
    "topk",
    "transpose",
    "tril",
    "triu",
    "unsqueeze",
    "var",
    "where",
    "zero",
    "zero_",
]


def _not_a_tensor(op: str, arg: str, value: object) -> TypeError:
    return TypeError(f"{op}: {arg} is written in place, so it must be a Tensor, got {type(value).__name__}")


def neg(x: Tensor) -> Tensor:
    """Negation -x, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "neg", "x")
    _kernel = _k_neg.get(x._data.__class__) or dispatch("neg", "neg", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("neg", _e) from None
    if x._requires_grad and grad_enabled():
        new_node(_nodes.NegGradNode, (x,), out)
    if FORWARD.active:
        _jvp.neg(x, out)
    return out


def abs(x: Tensor) -> Tensor:
    """Absolute value, elementwise (gradient sign(x), 0 at 0)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "abs", "x")
    _kernel = _k_abs.get(x._data.__class__) or dispatch("abs", "abs", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("abs", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.AbsGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.abs(x, out)
    return out


def sign(x: Tensor) -> Tensor:
    """Sign of x (-1, 0 or 1) in x's dtype; its gradient is zero."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sign", "x")
    _kernel = _k_sign.get(x._data.__class__) or dispatch("sign", "sign", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sign", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SignGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
    if FORWARD.active:
        _jvp.sign(x, out)
    return out


def exp(x: Tensor) -> Tensor:
    """Exponential, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "exp", "x")
    _kernel = _k_exp.get(x._data.__class__) or dispatch("exp", "exp", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("exp", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ExpGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.exp(x, out)
    return out


def exp_(x: Tensor) -> Tensor:
    """Exponential, elementwise. In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("exp_", "x", x)
    record = check_inplace("exp_", x)
    _kernel = _k_exp.get(x._data.__class__) or dispatch("exp_", "exp", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("exp_", _e) from None
    if record:
        node = _nodes.ExpGradNode((x,))
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.exp(x, _out)
    write_inplace("exp_", x, _result)
    if record:
        set_history(x, node, 0)
        node.out = TensorWrapper.of_output(x, node)
    if _out is not None:
        write_tangent(x, _out)
    return x


def expm1(x: Tensor) -> Tensor:
    """exp(x) - 1, accurate for small x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "expm1", "x")
    _kernel = _k_expm1.get(x._data.__class__) or dispatch("expm1", "expm1", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("expm1", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.Expm1GradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.expm1(x, out)
    return out


def log(x: Tensor) -> Tensor:
    """Natural logarithm, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log", "x")
    _kernel = _k_log.get(x._data.__class__) or dispatch("log", "log", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.LogGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.log(x, out)
    return out


def log1p(x: Tensor) -> Tensor:
    """log(1 + x), accurate for small x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log1p", "x")
    _kernel = _k_log1p.get(x._data.__class__) or dispatch("log1p", "log1p", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log1p", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.Log1pGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.log1p(x, out)
    return out


def sqrt(x: Tensor) -> Tensor:
    """Square root, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sqrt", "x")
    _kernel = _k_sqrt.get(x._data.__class__) or dispatch("sqrt", "sqrt", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sqrt", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SqrtGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.sqrt(x, out)
    return out


def rsqrt(x: Tensor) -> Tensor:
    """Reciprocal square root 1 / sqrt(x), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "rsqrt", "x")
    _kernel = _k_rsqrt.get(x._data.__class__) or dispatch("rsqrt", "rsqrt", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("rsqrt", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.RsqrtGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.rsqrt(x, out)
    return out


def square(x: Tensor) -> Tensor:
    """x * x, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "square", "x")
    _kernel = _k_square.get(x._data.__class__) or dispatch("square", "square", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("square", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SquareGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.square(x, out)
    return out


def reciprocal(x: Tensor) -> Tensor:
    """1 / x, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "reciprocal", "x")
    _kernel = _k_reciprocal.get(x._data.__class__) or dispatch("reciprocal", "reciprocal", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reciprocal", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ReciprocalGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.reciprocal(x, out)
    return out


def sin(x: Tensor) -> Tensor:
    """Sine, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sin", "x")
    _kernel = _k_sin.get(x._data.__class__) or dispatch("sin", "sin", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sin", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SinGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.sin(x, out)
    return out


def cos(x: Tensor) -> Tensor:
    """Cosine, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cos", "x")
    _kernel = _k_cos.get(x._data.__class__) or dispatch("cos", "cos", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cos", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.CosGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.cos(x, out)
    return out


def tanh(x: Tensor) -> Tensor:
    """Hyperbolic tangent, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tanh", "x")
    _kernel = _k_tanh.get(x._data.__class__) or dispatch("tanh", "tanh", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tanh", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.TanhGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.tanh(x, out)
    return out


def tanh_(x: Tensor) -> Tensor:
    """Hyperbolic tangent, elementwise. In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("tanh_", "x", x)
    record = check_inplace("tanh_", x)
    _kernel = _k_tanh.get(x._data.__class__) or dispatch("tanh_", "tanh", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tanh_", _e) from None
    if record:
        node = _nodes.TanhGradNode((x,))
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.tanh(x, _out)
    write_inplace("tanh_", x, _result)
    if record:
        set_history(x, node, 0)
        node.out = TensorWrapper.of_output(x, node)
    if _out is not None:
        write_tangent(x, _out)
    return x


def sigmoid(x: Tensor) -> Tensor:
    """Logistic sigmoid 1 / (1 + exp(-x)), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sigmoid", "x")
    _kernel = _k_sigmoid.get(x._data.__class__) or dispatch("sigmoid", "sigmoid", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sigmoid", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SigmoidGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.sigmoid(x, out)
    return out


def sigmoid_(x: Tensor) -> Tensor:
    """Logistic sigmoid 1 / (1 + exp(-x)), elementwise. In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("sigmoid_", "x", x)
    record = check_inplace("sigmoid_", x)
    _kernel = _k_sigmoid.get(x._data.__class__) or dispatch("sigmoid_", "sigmoid", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sigmoid_", _e) from None
    if record:
        node = _nodes.SigmoidGradNode((x,))
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.sigmoid(x, _out)
    write_inplace("sigmoid_", x, _result)
    if record:
        set_history(x, node, 0)
        node.out = TensorWrapper.of_output(x, node)
    if _out is not None:
        write_tangent(x, _out)
    return x


def relu(x: Tensor) -> Tensor:
    """Rectified linear unit max(x, 0), elementwise (gradient 0 at 0)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "relu", "x")
    _kernel = _k_relu.get(x._data.__class__) or dispatch("relu", "relu", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("relu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ReluGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.relu(x, out)
    return out


def relu_(x: Tensor) -> Tensor:
    """Rectified linear unit max(x, 0), elementwise (gradient 0 at 0). In place: writes the result into x
    and returns x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("relu_", "x", x)
    record = check_inplace("relu_", x)
    _kernel = _k_relu.get(x._data.__class__) or dispatch("relu_", "relu", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("relu_", _e) from None
    if record:
        node = _nodes.ReluGradNode((x,))
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.relu(x, _out)
    write_inplace("relu_", x, _result)
    if record:
        set_history(x, node, 0)
        node.out = TensorWrapper.of_output(x, node)
    if _out is not None:
        write_tangent(x, _out)
    return x


def gelu(
    x: Tensor,
    approximate: bool = False,
) -> Tensor:
    """Gaussian error linear unit; approximate=true uses the tanh approximation."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "gelu", "x")
    if approximate.__class__ is not bool:
        approximate = bool_arg(approximate, "gelu", "approximate")
    _kernel = _k_gelu.get(x._data.__class__) or dispatch("gelu", "gelu", x._data)
    try:
        out = wrap(_kernel(x._data, approximate))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("gelu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.GeluGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.approximate = approximate
    if FORWARD.active:
        _jvp.gelu(x, approximate, out)
    return out


def silu(x: Tensor) -> Tensor:
    """SiLU (swish) x * sigmoid(x), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "silu", "x")
    _kernel = _k_silu.get(x._data.__class__) or dispatch("silu", "silu", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("silu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SiluGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.silu(x, out)
    return out


def softplus(
    x: Tensor,
    beta: float = 1.0,
    threshold: float = 20.0,
) -> Tensor:
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softplus", "x")
    if beta.__class__ is not float:
        beta = float_arg(beta, "softplus", "beta")
    if threshold.__class__ is not float:
        threshold = float_arg(threshold, "softplus", "threshold")
    _kernel = _k_softplus.get(x._data.__class__) or dispatch("softplus", "softplus", x._data)
    try:
        out = wrap(_kernel(x._data, beta, threshold))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softplus", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SoftplusGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.beta = beta
        node.threshold = threshold
    if FORWARD.active:
        _jvp.softplus(x, beta, threshold, out)
    return out


def leaky_relu(
    x: Tensor,
    negative_slope: float = 0.01,
) -> Tensor:
    """x where x > 0, else negative_slope * x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "leaky_relu", "x")
    if negative_slope.__class__ is not float:
        negative_slope = float_arg(negative_slope, "leaky_relu", "negative_slope")
    _kernel = _k_leaky_relu.get(x._data.__class__) or dispatch("leaky_relu", "leaky_relu", x._data)
    try:
        out = wrap(_kernel(x._data, negative_slope))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("leaky_relu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.LeakyReluGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.negative_slope = negative_slope
    if FORWARD.active:
        _jvp.leaky_relu(x, negative_slope, out)
    return out


def elu(
    x: Tensor,
    alpha: float = 1.0,
) -> Tensor:
    """x where x > 0, else alpha * (exp(x) - 1)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "elu", "x")
    if alpha.__class__ is not float:
        alpha = float_arg(alpha, "elu", "alpha")
    _kernel = _k_elu.get(x._data.__class__) or dispatch("elu", "elu", x._data)
    try:
        out = wrap(_kernel(x._data, alpha))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("elu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.EluGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.alpha = alpha
    if FORWARD.active:
        _jvp.elu(x, alpha, out)
    return out


def erf(x: Tensor) -> Tensor:
    """Gauss error function, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "erf", "x")
    _kernel = _k_erf.get(x._data.__class__) or dispatch("erf", "erf", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("erf", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ErfGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.erf(x, out)
    return out


def scale(
    x: Tensor,
    scale: float = 1.0,
    bias: float = 0.0,
) -> Tensor:
    """x * scale + bias (scalars; x's dtype is kept)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "scale", "x")
    if scale.__class__ is not float and scale.__class__ is not int:
        scale = scalar_arg(scale, "scale", "scale")
    if bias.__class__ is not float and bias.__class__ is not int:
        bias = scalar_arg(bias, "scale", "bias")
    _kernel = _k_scale.get(x._data.__class__) or dispatch("scale", "scale", x._data)
    try:
        out = wrap(_kernel(x._data, scale, bias))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scale", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ScaleGradNode, (x,), out)
        node.scale = scale
        node.bias = bias
    if FORWARD.active:
        _jvp.scale(x, scale, bias, out)
    return out


def scale_(
    x: Tensor,
    scale: float = 1.0,
    bias: float = 0.0,
) -> Tensor:
    """x * scale + bias (scalars; x's dtype is kept). In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("scale_", "x", x)
    if scale.__class__ is not float and scale.__class__ is not int:
        scale = scalar_arg(scale, "scale_", "scale")
    if bias.__class__ is not float and bias.__class__ is not int:
        bias = scalar_arg(bias, "scale_", "bias")
    record = check_inplace("scale_", x)
    _kernel = _k_scale.get(x._data.__class__) or dispatch("scale_", "scale", x._data)
    try:
        _result = _kernel(x._data, scale, bias)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scale_", _e) from None
    if record:
        node = _nodes.ScaleGradNode((x,))
        node.scale = scale
        node.bias = bias
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.scale(x, scale, bias, _out)
    write_inplace("scale_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def pow(
    x: Tensor,
    y: float,
) -> Tensor:
    """x raised to the scalar power y, elementwise (x's dtype is kept)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "pow", "x")
    if y.__class__ is not float and y.__class__ is not int:
        y = scalar_arg(y, "pow", "y")
    _kernel = _k_pow.get(x._data.__class__) or dispatch("pow", "pow", x._data)
    try:
        out = wrap(_kernel(x._data, y))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pow", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.PowGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.y = y
    if FORWARD.active:
        _jvp.pow(x, y, out)
    return out


def clip(
    x: Tensor,
    min: float | None = None,
    max: float | None = None,
) -> Tensor:
    """Clamp x to [min, max]; either bound may be None. The gradient passes where min <= x <= max (bounds
    included).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "clip", "x")
    if min.__class__ is not float and min.__class__ is not int and min is not None:
        min = scalar_arg(min, "clip", "min")
    if max.__class__ is not float and max.__class__ is not int and max is not None:
        max = scalar_arg(max, "clip", "max")
    _kernel = _k_clip.get(x._data.__class__) or dispatch("clip", "clip", x._data)
    try:
        out = wrap(_kernel(x._data, min, max))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("clip", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ClipGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.min = min
        node.max = max
    if FORWARD.active:
        _jvp.clip(x, min, max, out)
    return out


def clip_(
    x: Tensor,
    min: float | None = None,
    max: float | None = None,
) -> Tensor:
    """Clamp x to [min, max]; either bound may be None. The gradient passes where min <= x <= max (bounds
    included). In place: writes the result into x and returns x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("clip_", "x", x)
    if min.__class__ is not float and min.__class__ is not int and min is not None:
        min = scalar_arg(min, "clip_", "min")
    if max.__class__ is not float and max.__class__ is not int and max is not None:
        max = scalar_arg(max, "clip_", "max")
    record = check_inplace("clip_", x)
    _kernel = _k_clip.get(x._data.__class__) or dispatch("clip_", "clip", x._data)
    try:
        _result = _kernel(x._data, min, max)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("clip_", _e) from None
    if record:
        node = _nodes.ClipGradNode((x,))
        node.x = TensorWrapper.of_input(saved_before_write(x))
        node.min = min
        node.max = max
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.clip(x, min, max, _out)
    write_inplace("clip_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def cast(
    x: Tensor,
    dtype: Any,
) -> Tensor:
    """x converted to dtype; the gradient is converted back to x's dtype."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cast", "x")
    dtype = dtype_arg(dtype, "cast", "dtype")
    _kernel = _k_cast.get(x._data.__class__) or dispatch("cast", "cast", x._data)
    try:
        out = wrap(_kernel(x._data, dtype))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cast", _e) from None
    if x._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.CastGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.dtype = dtype
    if FORWARD.active:
        _jvp.cast(x, dtype, out)
    return out


def hardtanh(
    x: Tensor,
    min: float = -1.0,
    max: float = 1.0,
) -> Tensor:
    """x clamped to [min, max]; the gradient is 1 strictly inside and 0 outside."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "hardtanh", "x")
    if min.__class__ is not float:
        min = float_arg(min, "hardtanh", "min")
    if max.__class__ is not float:
        max = float_arg(max, "hardtanh", "max")
    _kernel = _k_hardtanh.get(x._data.__class__) or dispatch("hardtanh", "hardtanh", x._data)
    try:
        out = wrap(_kernel(x._data, min, max))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardtanh", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.HardtanhGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.min = min
        node.max = max
    if FORWARD.active:
        _jvp.hardtanh(x, min, max, out)
    return out


def hardswish(x: Tensor) -> Tensor:
    """x * min(max(x + 3, 0), 6) / 6, elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "hardswish", "x")
    _kernel = _k_hardswish.get(x._data.__class__) or dispatch("hardswish", "hardswish", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardswish", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.HardswishGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.hardswish(x, out)
    return out


def hardsigmoid(x: Tensor) -> Tensor:
    """min(max(x / 6 + 0.5, 0), 1), elementwise (PyTorch's slope and offset)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "hardsigmoid", "x")
    _kernel = _k_hardsigmoid.get(x._data.__class__) or dispatch("hardsigmoid", "hardsigmoid", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardsigmoid", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.HardsigmoidGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.hardsigmoid(x, out)
    return out


def mish(x: Tensor) -> Tensor:
    """x * tanh(softplus(x)), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "mish", "x")
    _kernel = _k_mish.get(x._data.__class__) or dispatch("mish", "mish", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mish", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.MishGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.mish(x, out)
    return out


def log_sigmoid(x: Tensor) -> Tensor:
    """log(sigmoid(x)) = -softplus(-x), computed stably."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log_sigmoid", "x")
    _kernel = _k_log_sigmoid.get(x._data.__class__) or dispatch("log_sigmoid", "log_sigmoid", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log_sigmoid", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.LogSigmoidGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.log_sigmoid(x, out)
    return out


def swish(x: Tensor) -> Tensor:
    """Swish x * sigmoid(x), the same function as silu."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "swish", "x")
    _kernel = _k_silu.get(x._data.__class__) or dispatch("swish", "silu", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("swish", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SwishGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.swish(x, out)
    return out


def selu(
    x: Tensor,
    scale: float = 1.0507009873554805,
    alpha: float = 1.6732632423543772,
) -> Tensor:
    """scale * x where x > 0, else scale * alpha * (exp(x) - 1)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "selu", "x")
    if scale.__class__ is not float:
        scale = float_arg(scale, "selu", "scale")
    if alpha.__class__ is not float:
        alpha = float_arg(alpha, "selu", "alpha")
    _kernel = _k_selu.get(x._data.__class__) or dispatch("selu", "selu", x._data)
    try:
        out = wrap(_kernel(x._data, scale, alpha))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("selu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SeluGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.scale = scale
        node.alpha = alpha
    if FORWARD.active:
        _jvp.selu(x, scale, alpha, out)
    return out


def celu(
    x: Tensor,
    alpha: float = 1.0,
) -> Tensor:
    """x where x > 0, else alpha * (exp(x / alpha) - 1)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "celu", "x")
    if alpha.__class__ is not float:
        alpha = float_arg(alpha, "celu", "alpha")
    _kernel = _k_celu.get(x._data.__class__) or dispatch("celu", "celu", x._data)
    try:
        out = wrap(_kernel(x._data, alpha))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("celu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.CeluGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.alpha = alpha
    if FORWARD.active:
        _jvp.celu(x, alpha, out)
    return out


def softsign(x: Tensor) -> Tensor:
    """x / (1 + |x|), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softsign", "x")
    _kernel = _k_softsign.get(x._data.__class__) or dispatch("softsign", "softsign", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softsign", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SoftsignGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.softsign(x, out)
    return out


def tanhshrink(x: Tensor) -> Tensor:
    """x - tanh(x), elementwise."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tanhshrink", "x")
    _kernel = _k_tanhshrink.get(x._data.__class__) or dispatch("tanhshrink", "tanhshrink", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tanhshrink", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.TanhshrinkGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.tanhshrink(x, out)
    return out


def add(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x + y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "add", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "add", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_add.get(x._data.__class__)
        or dispatch("add", "add", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("add", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.AddGradNode, (x, y), out)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    if FORWARD.active:
        _jvp.add(x, y, out)
    return out


def add_(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x + y, elementwise with broadcasting. In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("add_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "add_", "y")
    record = check_inplace("add_", x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_add.get(x._data.__class__)
        or dispatch("add_", "add", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("add_", _e) from None
    if record:
        node = _nodes.AddGradNode((x, y))
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.add(x, y, _out)
    write_inplace("add_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def subtract(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x - y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "subtract", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "subtract", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_subtract.get(x._data.__class__)
        or dispatch("subtract", "subtract", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("subtract", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.SubtractGradNode, (x, y), out)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    if FORWARD.active:
        _jvp.subtract(x, y, out)
    return out


def subtract_(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x - y, elementwise with broadcasting. In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("subtract_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "subtract_", "y")
    record = check_inplace("subtract_", x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_subtract.get(x._data.__class__)
        or dispatch("subtract_", "subtract", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("subtract_", _e) from None
    if record:
        node = _nodes.SubtractGradNode((x, y))
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.subtract(x, y, _out)
    write_inplace("subtract_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def multiply(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x * y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "multiply", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "multiply", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_multiply.get(x._data.__class__)
        or dispatch("multiply", "multiply", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("multiply", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.MultiplyGradNode, (x, y), out)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    if FORWARD.active:
        _jvp.multiply(x, y, out)
    return out


def multiply_(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x * y, elementwise with broadcasting. In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("multiply_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "multiply_", "y")
    record = check_inplace("multiply_", x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_multiply.get(x._data.__class__)
        or dispatch("multiply_", "multiply", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("multiply_", _e) from None
    if record:
        node = _nodes.MultiplyGradNode((x, y))
        node.x = TensorWrapper.of_input(saved_before_write(x))
        node.y = TensorWrapper.of_input(saved_before_write(x) if y is x else y)
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.multiply(x, y, _out)
    write_inplace("multiply_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def divide(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x / y, elementwise with broadcasting."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "divide", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "divide", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_divide.get(x._data.__class__)
        or dispatch("divide", "divide", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("divide", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.DivideGradNode, (x, y), out)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.of_input(y)
        node.out = TensorWrapper.of_output(out, node)
    if FORWARD.active:
        _jvp.divide(x, y, out)
    return out


def divide_(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x / y, elementwise with broadcasting. In place: writes the result into x and returns x."""
    if not isinstance(x, Tensor):
        raise _not_a_tensor("divide_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "divide_", "y")
    record = check_inplace("divide_", x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_divide.get(x._data.__class__)
        or dispatch("divide_", "divide", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("divide_", _e) from None
    if record:
        node = _nodes.DivideGradNode((x, y))
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.of_input(saved_before_write(x) if y is x else y)
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.divide(x, y, _out)
    write_inplace("divide_", x, _result)
    if record:
        set_history(x, node, 0)
        node.out = TensorWrapper.of_output(x, node)
    if _out is not None:
        write_tangent(x, _out)
    return x


def maximum(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """Elementwise maximum with broadcasting (ties split the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "maximum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "maximum", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_maximum.get(x._data.__class__)
        or dispatch("maximum", "maximum", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("maximum", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.MaximumGradNode, (x, y), out)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    if FORWARD.active:
        _jvp.maximum(x, y, out)
    return out


def minimum(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """Elementwise minimum with broadcasting (ties split the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "minimum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "minimum", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_minimum.get(x._data.__class__)
        or dispatch("minimum", "minimum", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("minimum", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.MinimumGradNode, (x, y), out)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    if FORWARD.active:
        _jvp.minimum(x, y, out)
    return out


def elementwise_pow(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x ** y, elementwise with broadcasting (both may require grad)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "elementwise_pow", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "elementwise_pow", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_elementwise_pow.get(x._data.__class__)
        or dispatch("elementwise_pow", "elementwise_pow", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("elementwise_pow", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ElementwisePowGradNode, (x, y), out)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    if FORWARD.active:
        _jvp.elementwise_pow(x, y, out)
    return out


def where(
    condition: Tensor,
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x where condition (a bool tensor, no gradient) is true, else y; broadcasting."""
    if not isinstance(condition, Tensor):
        condition = as_tensor_arg(condition, x, "where", "condition")
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "where", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "where", "y")
    _kernel = (
        condition._data.__class__
        is x._data.__class__
        is y._data.__class__
        and _k_where.get(condition._data.__class__)
        or dispatch(
            "where",
            "where",
            condition._data,
            x._data,
            y._data,
        )
    )
    try:
        out = wrap(_kernel(
            condition._data,
            x._data,
            y._data,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("where", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.WhereGradNode, (None, x, y), out)
        node.condition = TensorWrapper.of_input(condition)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    if FORWARD.active:
        _jvp.where(condition, x, y, out)
    return out


def equal(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x == y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "equal", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_equal.get(x._data.__class__)
        or dispatch("equal", "equal", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("equal", _e) from None
    return out


def not_equal(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x != y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "not_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "not_equal", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_not_equal.get(x._data.__class__)
        or dispatch("not_equal", "not_equal", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("not_equal", _e) from None
    return out


def less_than(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x < y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "less_than", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "less_than", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_less_than.get(x._data.__class__)
        or dispatch("less_than", "less_than", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("less_than", _e) from None
    return out


def less_equal(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x <= y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "less_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "less_equal", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_less_equal.get(x._data.__class__)
        or dispatch("less_equal", "less_equal", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("less_equal", _e) from None
    return out


def greater_than(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x > y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "greater_than", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "greater_than", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_greater_than.get(x._data.__class__)
        or dispatch("greater_than", "greater_than", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("greater_than", _e) from None
    return out


def greater_equal(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x >= y, elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "greater_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "greater_equal", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_greater_equal.get(x._data.__class__)
        or dispatch("greater_equal", "greater_equal", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("greater_equal", _e) from None
    return out


def logical_and(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x and y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "logical_and", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "logical_and", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_logical_and.get(x._data.__class__)
        or dispatch("logical_and", "logical_and", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logical_and", _e) from None
    return out


def logical_or(
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """x or y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "logical_or", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "logical_or", "y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_logical_or.get(x._data.__class__)
        or dispatch("logical_or", "logical_or", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logical_or", _e) from None
    return out


def logical_not(x: Tensor) -> Tensor:
    """not x (nonzero counts as true), elementwise; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "logical_not", "x")
    _kernel = _k_logical_not.get(x._data.__class__) or dispatch("logical_not", "logical_not", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logical_not", _e) from None
    return out


def isnan(x: Tensor) -> Tensor:
    """True where x is NaN; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isnan", "x")
    _kernel = _k_isnan.get(x._data.__class__) or dispatch("isnan", "isnan", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isnan", _e) from None
    return out


def isinf(x: Tensor) -> Tensor:
    """True where x is +inf or -inf; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isinf", "x")
    _kernel = _k_isinf.get(x._data.__class__) or dispatch("isinf", "isinf", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isinf", _e) from None
    return out


def isfinite(x: Tensor) -> Tensor:
    """True where x is neither NaN nor infinite; a bool tensor without gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isfinite", "x")
    _kernel = _k_isfinite.get(x._data.__class__) or dispatch("isfinite", "isfinite", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isfinite", _e) from None
    return out


def sum(
    x: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Sum over axis."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sum", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "sum", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "sum", "keepdim")
    _kernel = _k_sum.get(x._data.__class__) or dispatch("sum", "sum", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sum", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SumGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.sum(x, axis, keepdim, out)
    return out


def mean(
    x: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Arithmetic mean over axis."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "mean", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "mean", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "mean", "keepdim")
    _kernel = _k_mean.get(x._data.__class__) or dispatch("mean", "mean", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mean", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.MeanGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.mean(x, axis, keepdim, out)
    return out


def max(
    x: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Maximum over axis (values only; ties share the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "max", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "max", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "max", "keepdim")
    _kernel = _k_max.get(x._data.__class__) or dispatch("max", "max", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("max", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.MaxGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.max(x, axis, keepdim, out)
    return out


def min(
    x: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Minimum over axis (values only; ties share the gradient equally)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "min", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "min", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "min", "keepdim")
    _kernel = _k_min.get(x._data.__class__) or dispatch("min", "min", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("min", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.MinGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.min(x, axis, keepdim, out)
    return out


def prod(
    x: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Product over axis (the gradient is exact when x has zeros)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "prod", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "prod", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "prod", "keepdim")
    _kernel = _k_prod.get(x._data.__class__) or dispatch("prod", "prod", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("prod", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ProdGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.prod(x, axis, keepdim, out)
    return out


def logsumexp(
    x: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """log(sum(exp(x))) over axis, computed stably; -inf over an empty axis."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "logsumexp", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "logsumexp", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "logsumexp", "keepdim")
    _kernel = _k_logsumexp.get(x._data.__class__) or dispatch("logsumexp", "logsumexp", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logsumexp", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.LogsumexpGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.logsumexp(x, axis, keepdim, out)
    return out


def argmax(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
) -> Tensor:
    """int64 index of the maximum along axis (None means the flattened x); no gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argmax", "x")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "argmax", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "argmax", "keepdim")
    _kernel = _k_argmax.get(x._data.__class__) or dispatch("argmax", "argmax", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("argmax", _e) from None
    return out


def argmin(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
) -> Tensor:
    """int64 index of the minimum along axis (None means the flattened x); no gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argmin", "x")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "argmin", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "argmin", "keepdim")
    _kernel = _k_argmin.get(x._data.__class__) or dispatch("argmin", "argmin", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("argmin", _e) from None
    return out


def var(
    x: Tensor,
    axis: Sequence[int] | int = (),
    unbiased: bool = True,
    keepdim: bool = False,
) -> Tensor:
    """Variance over axis; unbiased divides by N - 1 (NaN when N == 1), else by N."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "var", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "var", "axis")
    if unbiased.__class__ is not bool:
        unbiased = bool_arg(unbiased, "var", "unbiased")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "var", "keepdim")
    _kernel = _k_var.get(x._data.__class__) or dispatch("var", "var", x._data)
    try:
        out = wrap(_kernel(x._data, axis, unbiased, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("var", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.VarGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.axis = axis
        node.unbiased = unbiased
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.var(x, axis, unbiased, keepdim, out)
    return out


def std(
    x: Tensor,
    axis: Sequence[int] | int = (),
    unbiased: bool = True,
    keepdim: bool = False,
) -> Tensor:
    """Standard deviation over axis (sqrt of var); its gradient is 0 where the result is 0."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "std", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "std", "axis")
    if unbiased.__class__ is not bool:
        unbiased = bool_arg(unbiased, "std", "unbiased")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "std", "keepdim")
    _kernel = _k_std.get(x._data.__class__) or dispatch("std", "std", x._data)
    try:
        out = wrap(_kernel(x._data, axis, unbiased, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("std", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.StdGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.unbiased = unbiased
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.std(x, axis, unbiased, keepdim, out)
    return out


def norm(
    x: Tensor,
    p: float = 2.0,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Vector p-norm over axis (all of x by default), for p >= 1 or inf; the 2-norm's gradient is 0 where
    the norm is 0; for inf, ties share the gradient.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "norm", "x")
    if p.__class__ is not float:
        p = float_arg(p, "norm", "p")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "norm", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "norm", "keepdim")
    _kernel = _k_norm.get(x._data.__class__) or dispatch("norm", "norm", x._data)
    try:
        out = wrap(_kernel(x._data, p, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("norm", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.NormGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.p = p
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.norm(x, p, axis, keepdim, out)
    return out


def cumsum(
    x: Tensor,
    axis: int | None = None,
) -> Tensor:
    """Cumulative sum along axis; axis None sums the flattened x (a 1-D result)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cumsum", "x")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "cumsum", "axis")
    _kernel = _k_cumsum.get(x._data.__class__) or dispatch("cumsum", "cumsum", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cumsum", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.CumsumGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.cumsum(x, axis, out)
    return out


def cumprod(
    x: Tensor,
    dim: int | None = None,
) -> Tensor:
    """Cumulative product along dim; dim None works on the flattened x (a 1-D result). The gradient is
    exact when x has zeros.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cumprod", "x")
    if dim.__class__ is not int and dim is not None:
        dim = int_arg(dim, "cumprod", "dim")
    _kernel = _k_cumprod.get(x._data.__class__) or dispatch("cumprod", "cumprod", x._data)
    try:
        out = wrap(_kernel(x._data, dim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cumprod", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.CumprodGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_output(out, node)
        node.dim = dim
    if FORWARD.active:
        _jvp.cumprod(x, dim, out)
    return out


def topk(
    x: Tensor,
    k: int,
    axis: int = -1,
    largest: bool = True,
    sorted: bool = True,
) -> tuple[Tensor, Tensor]:
    """The k largest (or smallest) values along axis and their int64 indices; results are always sorted
    (ties keep the lower index first); NaN counts as the largest value.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "topk", "x")
    if k.__class__ is not int:
        k = int_arg(k, "topk", "k")
    if axis.__class__ is not int:
        axis = int_arg(axis, "topk", "axis")
    if largest.__class__ is not bool:
        largest = bool_arg(largest, "topk", "largest")
    if sorted.__class__ is not bool:
        sorted = bool_arg(sorted, "topk", "sorted")
    _kernel = _k_topk.get(x._data.__class__) or dispatch("topk", "topk", x._data)
    try:
        _results = _kernel(x._data, k, axis, largest, sorted)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("topk", _e) from None
    out = wrap(_results[0])
    indices = wrap(_results[1])
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.TopkGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.indices = TensorWrapper.of_input(indices)
        node.k = k
        node.axis = axis
        node.largest = largest
        node.sorted = sorted
    if FORWARD.active:
        _jvp.topk(x, k, axis, largest, sorted, out, indices)
    return (out, indices)


def sort(
    x: Tensor,
    axis: int = -1,
    descending: bool = False,
) -> Tensor:
    """x sorted along axis (a stable sort, NaN last ascending and first descending); values only, argsort
    gives the indices.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sort", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "sort", "axis")
    if descending.__class__ is not bool:
        descending = bool_arg(descending, "sort", "descending")
    _kernel = _k_sort.get(x._data.__class__) or dispatch("sort", "sort", x._data)
    try:
        _results = _kernel(x._data, axis, descending)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sort", _e) from None
    out = wrap(_results[0])
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SortGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.indices = TensorWrapper.of_input(wrap(_results[1]))
        node.axis = axis
        node.descending = descending
    if FORWARD.active:
        _jvp.sort(x, axis, descending, out, wrap(_results[1]))
    return out


def argsort(
    x: Tensor,
    axis: int = -1,
    descending: bool = False,
) -> Tensor:
    """int64 indices that sort x along axis (stable; equal values keep their order); no gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argsort", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "argsort", "axis")
    if descending.__class__ is not bool:
        descending = bool_arg(descending, "argsort", "descending")
    _kernel = _k_argsort.get(x._data.__class__) or dispatch("argsort", "argsort", x._data)
    try:
        out = wrap(_kernel(x._data, axis, descending))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("argsort", _e) from None
    return out


def matmul(
    x: Tensor,
    y: Tensor,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """Matrix product with NumPy semantics (1-D operands, batch broadcasting); transpose_x/transpose_y swap
    the last two axes first.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "matmul", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "matmul", "y")
    if transpose_x.__class__ is not bool:
        transpose_x = bool_arg(transpose_x, "matmul", "transpose_x")
    if transpose_y.__class__ is not bool:
        transpose_y = bool_arg(transpose_y, "matmul", "transpose_y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_matmul.get(x._data.__class__)
        or dispatch("matmul", "matmul", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data, transpose_x, transpose_y))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matmul", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.MatmulGradNode, (x, y), out)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul(x, y, transpose_x, transpose_y, out)
    return out


def reshape(
    x: Tensor,
    shape: Sequence[int] | int,
) -> Tensor:
    """x with a new shape (one entry may be -1); a view where possible."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "reshape", "x")
    if shape.__class__ is not tuple and shape.__class__ is not int:
        shape = int_list_arg(shape, "reshape", "shape")
    _kernel = _k_reshape.get(x._data.__class__) or dispatch("reshape", "reshape", x._data)
    try:
        out = wrap(_kernel(x._data, shape))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reshape", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ReshapeGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.shape = shape
    if FORWARD.active:
        _jvp.reshape(x, shape, out)
    return out


def transpose(
    x: Tensor,
    perm: Sequence[int] | int,
) -> Tensor:
    """x with its axes permuted by perm; a view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "transpose", "x")
    if perm.__class__ is not tuple and perm.__class__ is not int:
        perm = int_list_arg(perm, "transpose", "perm")
    _kernel = _k_transpose.get(x._data.__class__) or dispatch("transpose", "transpose", x._data)
    try:
        out = wrap(_kernel(x._data, perm))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("transpose", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.TransposeGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.perm = perm
    if FORWARD.active:
        _jvp.transpose(x, perm, out)
    return out


def squeeze(
    x: Tensor,
    axis: Sequence[int] | int = (),
) -> Tensor:
    """x without the size-1 axes listed (empty means all size-1 axes); a view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "squeeze", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "squeeze", "axis")
    _kernel = _k_squeeze.get(x._data.__class__) or dispatch("squeeze", "squeeze", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("squeeze", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SqueezeGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.squeeze(x, axis, out)
    return out


def unsqueeze(
    x: Tensor,
    axis: Sequence[int] | int,
) -> Tensor:
    """x with size-1 axes inserted at axis (int or list); a view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "unsqueeze", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "unsqueeze", "axis")
    _kernel = _k_unsqueeze.get(x._data.__class__) or dispatch("unsqueeze", "unsqueeze", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("unsqueeze", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.UnsqueezeGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.unsqueeze(x, axis, out)
    return out


def flatten(
    x: Tensor,
    start_axis: int = 0,
    stop_axis: int = -1,
) -> Tensor:
    """x with axes start_axis..stop_axis merged into one; a view where possible."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "flatten", "x")
    if start_axis.__class__ is not int:
        start_axis = int_arg(start_axis, "flatten", "start_axis")
    if stop_axis.__class__ is not int:
        stop_axis = int_arg(stop_axis, "flatten", "stop_axis")
    _kernel = _k_flatten.get(x._data.__class__) or dispatch("flatten", "flatten", x._data)
    try:
        out = wrap(_kernel(x._data, start_axis, stop_axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("flatten", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.FlattenGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.start_axis = start_axis
        node.stop_axis = stop_axis
    if FORWARD.active:
        _jvp.flatten(x, start_axis, stop_axis, out)
    return out


def expand(
    x: Tensor,
    shape: Sequence[int] | int,
) -> Tensor:
    """x broadcast to shape (-1 keeps a dimension); a read-only view."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "expand", "x")
    if shape.__class__ is not tuple and shape.__class__ is not int:
        shape = int_list_arg(shape, "expand", "shape")
    _kernel = _k_expand.get(x._data.__class__) or dispatch("expand", "expand", x._data)
    try:
        out = wrap(_kernel(x._data, shape))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("expand", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ExpandGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.shape = shape
    if FORWARD.active:
        _jvp.expand(x, shape, out)
    return out


def concat(
    x: list[Tensor],
    axis: int = 0,
) -> Tensor:
    """The tensors of x joined along axis."""
    x = tensors_of(x, "concat", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "concat", "axis")
    _x_data = [_t._data for _t in x]
    _kernel = dispatch(
        "concat",
        "concat",
        *_x_data,
    )
    try:
        out = wrap(_kernel(
            _x_data,
            axis,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("concat", _e) from None
    if _builtins.any(_t._requires_grad for _t in x) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ConcatGradNode, (*x,), out)
        node.x = [TensorWrapper.meta_of(_t) for _t in x]
        node.axis = axis
    if FORWARD.active:
        _jvp.concat(x, axis, out)
    return out


def stack(
    x: list[Tensor],
    axis: int = 0,
) -> Tensor:
    """The tensors of x (equal shapes) stacked along a new axis."""
    x = tensors_of(x, "stack", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "stack", "axis")
    _x_data = [_t._data for _t in x]
    _kernel = dispatch(
        "stack",
        "stack",
        *_x_data,
    )
    try:
        out = wrap(_kernel(
            _x_data,
            axis,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("stack", _e) from None
    if _builtins.any(_t._requires_grad for _t in x) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.StackGradNode, (*x,), out)
        node.x = [TensorWrapper.meta_of(_t) for _t in x]
        node.axis = axis
    if FORWARD.active:
        _jvp.stack(x, axis, out)
    return out


def split(
    x: Tensor,
    num_or_sections: Sequence[int] | int,
    axis: int = 0,
) -> list[Tensor]:
    """x split along axis; an int gives that many equal sections, a list the section sizes (one may be -1)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "split", "x")
    if num_or_sections.__class__ is not tuple and num_or_sections.__class__ is not int:
        num_or_sections = int_list_arg(num_or_sections, "split", "num_or_sections")
    if axis.__class__ is not int:
        axis = int_arg(axis, "split", "axis")
    _kernel = _k_split.get(x._data.__class__) or dispatch("split", "split", x._data)
    try:
        _result = _kernel(x._data, num_or_sections, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("split", _e) from None
    out = [wrap(_a) for _a in _result]
    for _t in out:
        mark_view(_t, x)
    if x._requires_grad and grad_enabled():
        node = _nodes.SplitGradNode((x,))
        for _i, _t in _builtins.enumerate(out):
            set_history(_t, node, _i)
        node.x = TensorWrapper.meta_of(x)
        node.num_or_sections = num_or_sections
        node.axis = axis
    if FORWARD.active:
        _jvp.split(x, num_or_sections, axis, out)
    return out


def gather(
    x: Tensor,
    index: Tensor,
    axis: int = 0,
) -> Tensor:
    """The slices of x along axis picked by a 1-D integer index (like index_select); a 0-d index means
    [index].
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, index, "gather", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "gather", "index")
    if axis.__class__ is not int:
        axis = int_arg(axis, "gather", "axis")
    _kernel = (
        x._data.__class__
        is index._data.__class__
        and _k_gather.get(x._data.__class__)
        or dispatch("gather", "gather", x._data, index._data)
    )
    try:
        out = wrap(_kernel(x._data, index._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("gather", _e) from None
    if x._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.GatherGradNode, (x, None), out)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    if FORWARD.active:
        _jvp.gather(x, index, axis, out)
    return out


def index_select(
    x: Tensor,
    index: Tensor,
    axis: int = 0,
) -> Tensor:
    """The slices of x along axis picked by a 1-D integer index; a 0-d index means [index]."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, index, "index_select", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "index_select", "index")
    if axis.__class__ is not int:
        axis = int_arg(axis, "index_select", "axis")
    _kernel = (
        x._data.__class__
        is index._data.__class__
        and _k_index_select.get(x._data.__class__)
        or dispatch("index_select", "index_select", x._data, index._data)
    )
    try:
        out = wrap(_kernel(x._data, index._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index_select", _e) from None
    if x._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.IndexSelectGradNode, (x, None), out)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    if FORWARD.active:
        _jvp.index_select(x, index, axis, out)
    return out


def tile(
    x: Tensor,
    repeat_times: Sequence[int] | int,
) -> Tensor:
    """x repeated repeat_times[i] times along each axis."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tile", "x")
    if repeat_times.__class__ is not tuple and repeat_times.__class__ is not int:
        repeat_times = int_list_arg(repeat_times, "tile", "repeat_times")
    _kernel = _k_tile.get(x._data.__class__) or dispatch("tile", "tile", x._data)
    try:
        out = wrap(_kernel(x._data, repeat_times))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tile", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.TileGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.repeat_times = repeat_times
    if FORWARD.active:
        _jvp.tile(x, repeat_times, out)
    return out


def take_along_axis(
    arr: Tensor,
    indices: Tensor,
    axis: int,
) -> Tensor:
    """arr[..., indices[...], ...] along axis (NumPy's take_along_axis); indices has arr's ndim and
    broadcasts against arr on the other axes; negative indices count from the end.
    """
    if not isinstance(arr, Tensor):
        arr = as_tensor_arg(arr, indices, "take_along_axis", "arr")
    if not isinstance(indices, Tensor):
        indices = as_tensor_arg(indices, arr, "take_along_axis", "indices")
    if axis.__class__ is not int:
        axis = int_arg(axis, "take_along_axis", "axis")
    _kernel = (
        arr._data.__class__
        is indices._data.__class__
        and _k_take_along_axis.get(arr._data.__class__)
        or dispatch("take_along_axis", "take_along_axis", arr._data, indices._data)
    )
    try:
        out = wrap(_kernel(arr._data, indices._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("take_along_axis", _e) from None
    if arr._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.TakeAlongAxisGradNode, (arr, None), out)
        node.arr = TensorWrapper.meta_of(arr)
        node.indices = TensorWrapper.of_input(indices)
        node.axis = axis
    if FORWARD.active:
        _jvp.take_along_axis(arr, indices, axis, out)
    return out


def scatter(
    x: Tensor,
    index: Tensor,
    updates: Tensor,
    overwrite: bool = True,
) -> Tensor:
    """x with the rows x[index[i]] (1-D index along axis 0) set to updates[i]; repeated indices keep the
    last update when overwrite, else the rows hit become the sum of their updates (Paddle's semantics).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, updates, "scatter", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "scatter", "index")
    if not isinstance(updates, Tensor):
        updates = as_tensor_arg(updates, x, "scatter", "updates")
    if overwrite.__class__ is not bool:
        overwrite = bool_arg(overwrite, "scatter", "overwrite")
    _kernel = (
        x._data.__class__
        is index._data.__class__
        is updates._data.__class__
        and _k_scatter.get(x._data.__class__)
        or dispatch(
            "scatter",
            "scatter",
            x._data,
            index._data,
            updates._data,
        )
    )
    try:
        out = wrap(_kernel(
            x._data,
            index._data,
            updates._data,
            overwrite,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scatter", _e) from None
    if (x._requires_grad or updates._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ScatterGradNode, (x, None, updates), out)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.updates = TensorWrapper.meta_of(updates)
        node.overwrite = overwrite
    if FORWARD.active:
        _jvp.scatter(x, index, updates, overwrite, out)
    return out


def index_add(
    x: Tensor,
    index: Tensor,
    axis: int,
    value: Tensor,
) -> Tensor:
    """x with value's slices added at the positions index (1-D) along axis; repeated indices add up."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, value, "index_add", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "index_add", "index")
    if not isinstance(value, Tensor):
        value = as_tensor_arg(value, x, "index_add", "value")
    if axis.__class__ is not int:
        axis = int_arg(axis, "index_add", "axis")
    _kernel = (
        x._data.__class__
        is index._data.__class__
        is value._data.__class__
        and _k_index_add.get(x._data.__class__)
        or dispatch(
            "index_add",
            "index_add",
            x._data,
            index._data,
            value._data,
        )
    )
    try:
        out = wrap(_kernel(
            x._data,
            index._data,
            value._data,
            axis,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index_add", _e) from None
    if (x._requires_grad or value._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.IndexAddGradNode, (x, None, value), out)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.value = TensorWrapper.meta_of(value)
        node.axis = axis
    if FORWARD.active:
        _jvp.index_add(x, index, axis, value, out)
    return out


def masked_fill(
    x: Tensor,
    mask: Tensor,
    value: float,
) -> Tensor:
    """x with value where the bool mask (broadcastable to x's shape; the result keeps x's shape) is true."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, mask, "masked_fill", "x")
    if not isinstance(mask, Tensor):
        mask = as_tensor_arg(mask, x, "masked_fill", "mask")
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "masked_fill", "value")
    _kernel = (
        x._data.__class__
        is mask._data.__class__
        and _k_masked_fill.get(x._data.__class__)
        or dispatch("masked_fill", "masked_fill", x._data, mask._data)
    )
    try:
        out = wrap(_kernel(x._data, mask._data, value))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("masked_fill", _e) from None
    if x._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.MaskedFillGradNode, (x, None), out)
        node.mask = TensorWrapper.of_input(mask)
        node.value = value
    if FORWARD.active:
        _jvp.masked_fill(x, mask, value, out)
    return out


def tril(
    x: Tensor,
    diagonal: int = 0,
) -> Tensor:
    """The lower triangle of the last two axes of x (on and below diagonal), zeros elsewhere."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tril", "x")
    if diagonal.__class__ is not int:
        diagonal = int_arg(diagonal, "tril", "diagonal")
    _kernel = _k_tril.get(x._data.__class__) or dispatch("tril", "tril", x._data)
    try:
        out = wrap(_kernel(x._data, diagonal))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tril", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.TrilGradNode, (x,), out)
        node.diagonal = diagonal
    if FORWARD.active:
        _jvp.tril(x, diagonal, out)
    return out


def triu(
    x: Tensor,
    diagonal: int = 0,
) -> Tensor:
    """The upper triangle of the last two axes of x (on and above diagonal), zeros elsewhere."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "triu", "x")
    if diagonal.__class__ is not int:
        diagonal = int_arg(diagonal, "triu", "diagonal")
    _kernel = _k_triu.get(x._data.__class__) or dispatch("triu", "triu", x._data)
    try:
        out = wrap(_kernel(x._data, diagonal))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("triu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.TriuGradNode, (x,), out)
        node.diagonal = diagonal
    if FORWARD.active:
        _jvp.triu(x, diagonal, out)
    return out


def pad(
    x: Tensor,
    pad: Sequence[int] | int,
    mode: str = "constant",
    value: float = 0.0,
) -> Tensor:
    """x padded like PyTorch's F.pad; pad holds (before, after) pairs, the first pair for the last axis,
    the next for the one before; mode is 'constant' (with value), 'reflect', 'replicate' or 'circular'.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "pad", "x")
    if pad.__class__ is not tuple and pad.__class__ is not int:
        pad = int_list_arg(pad, "pad", "pad")
    if mode.__class__ is not str:
        mode = str_arg(mode, "pad", "mode")
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "pad", "value")
    _kernel = _k_pad.get(x._data.__class__) or dispatch("pad", "pad", x._data)
    try:
        out = wrap(_kernel(x._data, pad, mode, value))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pad", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.PadGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.pad = pad
        node.mode = mode
        node.value = value
    if FORWARD.active:
        _jvp.pad(x, pad, mode, value, out)
    return out


def roll(
    x: Tensor,
    shifts: Sequence[int] | int,
    axis: Sequence[int] | int | None = None,
) -> Tensor:
    """x with its elements shifted cyclically by shifts along axis; axis None (or []) rolls the flattened x
    and keeps its shape.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "roll", "x")
    if shifts.__class__ is not tuple and shifts.__class__ is not int:
        shifts = int_list_arg(shifts, "roll", "shifts")
    if axis.__class__ is not tuple and axis.__class__ is not int and axis is not None:
        axis = int_list_arg(axis, "roll", "axis")
    _kernel = _k_roll.get(x._data.__class__) or dispatch("roll", "roll", x._data)
    try:
        out = wrap(_kernel(x._data, shifts, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("roll", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.RollGradNode, (x,), out)
        node.shifts = shifts
        node.axis = axis
    if FORWARD.active:
        _jvp.roll(x, shifts, axis, out)
    return out


def repeat_interleave(
    x: Tensor,
    repeats: int,
    axis: int | None = None,
) -> Tensor:
    """Each element (slice along axis) of x repeated repeats times in place; axis None repeats the
    flattened x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "repeat_interleave", "x")
    if repeats.__class__ is not int:
        repeats = int_arg(repeats, "repeat_interleave", "repeats")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "repeat_interleave", "axis")
    _kernel = _k_repeat_interleave.get(x._data.__class__) or dispatch("repeat_interleave", "repeat_interleave", x._data)
    try:
        out = wrap(_kernel(x._data, repeats, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("repeat_interleave", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.RepeatInterleaveGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.repeats = repeats
        node.axis = axis
    if FORWARD.active:
        _jvp.repeat_interleave(x, repeats, axis, out)
    return out


def flip(
    x: Tensor,
    axis: Sequence[int] | int,
) -> Tensor:
    """x reversed along each axis listed."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "flip", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "flip", "axis")
    _kernel = _k_flip.get(x._data.__class__) or dispatch("flip", "flip", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("flip", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.FlipGradNode, (x,), out)
        node.axis = axis
    if FORWARD.active:
        _jvp.flip(x, axis, out)
    return out


def softmax(
    x: Tensor,
    axis: int = -1,
) -> Tensor:
    """exp(x) / sum(exp(x)) along axis, computed stably."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softmax", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "softmax", "axis")
    _kernel = _k_softmax.get(x._data.__class__) or dispatch("softmax", "softmax", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softmax", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.SoftmaxGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
    if FORWARD.active:
        _jvp.softmax(x, axis, out)
    return out


def log_softmax(
    x: Tensor,
    axis: int = -1,
) -> Tensor:
    """log(softmax(x)) along axis, computed stably."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log_softmax", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "log_softmax", "axis")
    _kernel = _k_log_softmax.get(x._data.__class__) or dispatch("log_softmax", "log_softmax", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log_softmax", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.LogSoftmaxGradNode, (x,), out)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
    if FORWARD.active:
        _jvp.log_softmax(x, axis, out)
    return out


def dropout(
    x: Tensor,
    p: float = 0.5,
    training: bool = True,
) -> Tensor:
    """Zero each element with probability p and scale the rest by 1 / (1 - p); identity when not training."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "dropout", "x")
    if p.__class__ is not float:
        p = float_arg(p, "dropout", "p")
    if training.__class__ is not bool:
        training = bool_arg(training, "dropout", "training")
    _kernel = _k_dropout.get(x._data.__class__) or dispatch("dropout", "dropout", x._data)
    try:
        _results = _kernel(x._data, p, training)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("dropout", _e) from None
    out = wrap(_results[0])
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.DropoutGradNode, (x,), out)
        node.mask = TensorWrapper.of_input(wrap(_results[1]))
        node.p = p
        node.training = training
    if FORWARD.active:
        _jvp.dropout(x, p, training, out, wrap(_results[1]))
    return out


def one_hot(
    x: Tensor,
    num_classes: int,
) -> Tensor:
    """float32 one-hot encoding of the integer tensor x, with a new last axis of num_classes; no gradient."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "one_hot", "x")
    if num_classes.__class__ is not int:
        num_classes = int_arg(num_classes, "one_hot", "num_classes")
    _kernel = _k_one_hot.get(x._data.__class__) or dispatch("one_hot", "one_hot", x._data)
    try:
        out = wrap(_kernel(x._data, num_classes))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("one_hot", _e) from None
    return out


def embedding(
    x: Tensor,
    weight: Tensor,
) -> Tensor:
    """Rows of weight (num_embeddings, dim) picked by the integer ids x; gradient for weight only."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "embedding", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "embedding", "weight")
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        and _k_embedding.get(x._data.__class__)
        or dispatch("embedding", "embedding", x._data, weight._data)
    )
    try:
        out = wrap(_kernel(x._data, weight._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("embedding", _e) from None
    if weight._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.EmbeddingGradNode, (None, weight), out)
        node.x = TensorWrapper.of_input(x)
        node.weight = TensorWrapper.meta_of(weight)
    if FORWARD.active:
        _jvp.embedding(x, weight, out)
    return out


def prelu(
    x: Tensor,
    weight: Tensor,
) -> Tensor:
    """x where x > 0, else weight * x; weight has shape [1] or [C] for the channel axis 1 of x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "prelu", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "prelu", "weight")
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        and _k_prelu.get(x._data.__class__)
        or dispatch("prelu", "prelu", x._data, weight._data)
    )
    try:
        out = wrap(_kernel(x._data, weight._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("prelu", _e) from None
    if (x._requires_grad or weight._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.PreluGradNode, (x, weight), out)
        node.x = TensorWrapper.of_input(x)
        node.weight = TensorWrapper.of_input(weight)
    if FORWARD.active:
        _jvp.prelu(x, weight, out)
    return out


def glu(
    x: Tensor,
    axis: int = -1,
) -> Tensor:
    """Gated linear unit a * sigmoid(b), with a and b the two halves of x along axis (its size must be
    even).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "glu", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "glu", "axis")
    _kernel = _k_glu.get(x._data.__class__) or dispatch("glu", "glu", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("glu", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.GluGradNode, (x,), out)
        node.x = TensorWrapper.of_input(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.glu(x, axis, out)
    return out


def cross_entropy(
    input: Tensor,
    label: Tensor,
    axis: int = -1,
    reduction: str = "mean",
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> Tensor:
    """Softmax cross entropy of logits input against integer class labels (input's shape without axis, or
    with size 1 there); reduction is 'mean', 'sum' or 'none'; labels equal to ignore_index count for
    nothing ('mean' divides by the labels that count); label_smoothing mixes that much of a uniform
    target in.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "cross_entropy", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "cross_entropy", "label")
    if axis.__class__ is not int:
        axis = int_arg(axis, "cross_entropy", "axis")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "cross_entropy", "reduction")
    if ignore_index.__class__ is not int:
        ignore_index = int_arg(ignore_index, "cross_entropy", "ignore_index")
    if label_smoothing.__class__ is not float:
        label_smoothing = float_arg(label_smoothing, "cross_entropy", "label_smoothing")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_cross_entropy.get(input._data.__class__)
        or dispatch("cross_entropy", "cross_entropy", input._data, label._data)
    )
    try:
        out = wrap(_kernel(input._data, label._data, axis, reduction, ignore_index, label_smoothing))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cross_entropy", _e) from None
    if input._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.CrossEntropyGradNode, (input, None), out)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.axis = axis
        node.reduction = reduction
        node.ignore_index = ignore_index
        node.label_smoothing = label_smoothing
    if FORWARD.active:
        _jvp.cross_entropy(input, label, axis, reduction, ignore_index, label_smoothing, out)
    return out


def mse_loss(
    input: Tensor,
    label: Tensor,
    reduction: str = "mean",
) -> Tensor:
    """Squared error (input - label) ** 2 with broadcasting; reduction is 'mean', 'sum' or 'none'."""
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "mse_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "mse_loss", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "mse_loss", "reduction")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_mse_loss.get(input._data.__class__)
        or dispatch("mse_loss", "mse_loss", input._data, label._data)
    )
    try:
        out = wrap(_kernel(input._data, label._data, reduction))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mse_loss", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.MseLossGradNode, (input, label), out)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.reduction = reduction
    if FORWARD.active:
        _jvp.mse_loss(input, label, reduction, out)
    return out


def nll_loss(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
) -> Tensor:
    """Negative log-likelihood of log-probabilities input, (N, C) or (N, C, d1, ...) or (C,), against
    integer labels; weight (C,) rescales classes; labels equal to ignore_index count for nothing; 'mean'
    divides by the summed weights of the counted labels.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "nll_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "nll_loss", "label")
    if weight is not None and not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, input, "nll_loss", "weight")
    if ignore_index.__class__ is not int:
        ignore_index = int_arg(ignore_index, "nll_loss", "ignore_index")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "nll_loss", "reduction")
    _weight_data = None if weight is None else weight._data
    _kernel = (
        input._data.__class__
        is label._data.__class__
        is _weight_data.__class__
        and _k_nll_loss.get(input._data.__class__)
        or dispatch(
            "nll_loss",
            "nll_loss",
            input._data,
            label._data,
            _weight_data,
        )
    )
    try:
        out = wrap(_kernel(
            input._data,
            label._data,
            _weight_data,
            ignore_index,
            reduction,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("nll_loss", _e) from None
    if input._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.NllLossGradNode, (input, None, None), out)
        node.input = TensorWrapper.meta_of(input)
        node.label = TensorWrapper.of_input(label)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.ignore_index = ignore_index
        node.reduction = reduction
    if FORWARD.active:
        _jvp.nll_loss(input, label, weight, ignore_index, reduction, out)
    return out


def binary_cross_entropy_with_logits(
    logit: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Sigmoid binary cross entropy of logits against labels of the same shape, computed stably; weight
    (broadcast to logit) scales each element, pos_weight (broadcast along the last axis) the positive
    term.
    """
    if not isinstance(logit, Tensor):
        logit = as_tensor_arg(logit, label, "binary_cross_entropy_with_logits", "logit")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, logit, "binary_cross_entropy_with_logits", "label")
    if weight is not None and not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, logit, "binary_cross_entropy_with_logits", "weight")
    if pos_weight is not None and not isinstance(pos_weight, Tensor):
        pos_weight = as_tensor_arg(pos_weight, logit, "binary_cross_entropy_with_logits", "pos_weight")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "binary_cross_entropy_with_logits", "reduction")
    _weight_data = None if weight is None else weight._data
    _pos_weight_data = None if pos_weight is None else pos_weight._data
    _kernel = (
        logit._data.__class__
        is label._data.__class__
        is _weight_data.__class__
        is _pos_weight_data.__class__
        and _k_binary_cross_entropy_with_logits.get(logit._data.__class__)
        or dispatch(
            "binary_cross_entropy_with_logits",
            "binary_cross_entropy_with_logits",
            logit._data,
            label._data,
            _weight_data,
            _pos_weight_data,
        )
    )
    try:
        out = wrap(_kernel(
            logit._data,
            label._data,
            _weight_data,
            _pos_weight_data,
            reduction,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("binary_cross_entropy_with_logits", _e) from None
    if (logit._requires_grad or label._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.BinaryCrossEntropyWithLogitsGradNode, (logit, label, None, None), out)
        node.logit = TensorWrapper.of_input(logit)
        node.label = TensorWrapper.of_input(label)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.pos_weight = None if pos_weight is None else TensorWrapper.of_input(pos_weight)
        node.reduction = reduction
    if FORWARD.active:
        _jvp.binary_cross_entropy_with_logits(logit, label, weight, reduction, pos_weight, out)
    return out


def l1_loss(
    input: Tensor,
    label: Tensor,
    reduction: str = "mean",
) -> Tensor:
    """Absolute error |input - label| with broadcasting; reduction is 'mean', 'sum' or 'none'."""
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "l1_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "l1_loss", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "l1_loss", "reduction")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_l1_loss.get(input._data.__class__)
        or dispatch("l1_loss", "l1_loss", input._data, label._data)
    )
    try:
        out = wrap(_kernel(input._data, label._data, reduction))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("l1_loss", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.L1LossGradNode, (input, label), out)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.reduction = reduction
    if FORWARD.active:
        _jvp.l1_loss(input, label, reduction, out)
    return out


def smooth_l1_loss(
    input: Tensor,
    label: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
) -> Tensor:
    """Paddle's smooth L1 (Huber) loss of d = input - label; 0.5 * d ** 2 where |d| < delta, else delta *
    (|d| - 0.5 * delta).
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "smooth_l1_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "smooth_l1_loss", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "smooth_l1_loss", "reduction")
    if delta.__class__ is not float:
        delta = float_arg(delta, "smooth_l1_loss", "delta")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_smooth_l1_loss.get(input._data.__class__)
        or dispatch("smooth_l1_loss", "smooth_l1_loss", input._data, label._data)
    )
    try:
        out = wrap(_kernel(input._data, label._data, reduction, delta))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("smooth_l1_loss", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.SmoothL1LossGradNode, (input, label), out)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.reduction = reduction
        node.delta = delta
    if FORWARD.active:
        _jvp.smooth_l1_loss(input, label, reduction, delta, out)
    return out


def kl_div(
    input: Tensor,
    label: Tensor,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """Kullback-Leibler divergence label * (log(label) - input) of log-probabilities input (0 where label
    is 0); log_target takes label as log-probabilities; reduction is 'mean', 'batchmean', 'sum' or
    'none'.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "kl_div", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "kl_div", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "kl_div", "reduction")
    if log_target.__class__ is not bool:
        log_target = bool_arg(log_target, "kl_div", "log_target")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_kl_div.get(input._data.__class__)
        or dispatch("kl_div", "kl_div", input._data, label._data)
    )
    try:
        out = wrap(_kernel(input._data, label._data, reduction, log_target))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("kl_div", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.KlDivGradNode, (input, label), out)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.reduction = reduction
        node.log_target = log_target
    if FORWARD.active:
        _jvp.kl_div(input, label, reduction, log_target, out)
    return out


def conv2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Sequence[int] | int = (1, 1),
    padding: Sequence[int] | int = (0, 0),
    dilation: Sequence[int] | int = (1, 1),
    groups: int = 1,
) -> Tensor:
    """2-D convolution (cross-correlation) of x (N, C, H, W) with weight (O, C / groups, kh, kw), plus bias
    (O,); zero padding.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "conv2d", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "conv2d", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "conv2d", "bias")
    if stride.__class__ is not tuple and stride.__class__ is not int:
        stride = int_list_arg(stride, "conv2d", "stride")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "conv2d", "padding")
    if dilation.__class__ is not tuple and dilation.__class__ is not int:
        dilation = int_list_arg(dilation, "conv2d", "dilation")
    if groups.__class__ is not int:
        groups = int_arg(groups, "conv2d", "groups")
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is _bias_data.__class__
        and _k_conv2d.get(x._data.__class__)
        or dispatch(
            "conv2d",
            "conv2d",
            x._data,
            weight._data,
            _bias_data,
        )
    )
    try:
        out = wrap(_kernel(
            x._data,
            weight._data,
            _bias_data,
            stride,
            padding,
            dilation,
            groups,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("conv2d", _e) from None
    if (x._requires_grad or weight._requires_grad or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.Conv2dGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_input(x)
        node.weight = TensorWrapper.of_input(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.stride = stride
        node.padding = padding
        node.dilation = dilation
        node.groups = groups
    if FORWARD.active:
        _jvp.conv2d(x, weight, bias, stride, padding, dilation, groups, out)
    return out


def max_pool2d(
    x: Tensor,
    kernel_size: Sequence[int] | int,
    stride: Sequence[int] | int | None = None,
    padding: Sequence[int] | int = (0, 0),
) -> Tensor:
    """Maximum over each window of x (N, C, H, W); stride None means kernel_size, padding is -inf; the
    gradient goes to the first maximum of each window.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "max_pool2d", "x")
    if kernel_size.__class__ is not tuple and kernel_size.__class__ is not int:
        kernel_size = int_list_arg(kernel_size, "max_pool2d", "kernel_size")
    if stride.__class__ is not tuple and stride.__class__ is not int and stride is not None:
        stride = int_list_arg(stride, "max_pool2d", "stride")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "max_pool2d", "padding")
    _kernel = _k_max_pool2d.get(x._data.__class__) or dispatch("max_pool2d", "max_pool2d", x._data)
    try:
        _results = _kernel(x._data, kernel_size, stride, padding)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("max_pool2d", _e) from None
    out = wrap(_results[0])
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.MaxPool2dGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.argmax = TensorWrapper.of_input(wrap(_results[1]))
        node.kernel_size = kernel_size
        node.stride = stride
        node.padding = padding
    if FORWARD.active:
        _jvp.max_pool2d(x, kernel_size, stride, padding, out, wrap(_results[1]))
    return out


def avg_pool2d(
    x: Tensor,
    kernel_size: Sequence[int] | int,
    stride: Sequence[int] | int | None = None,
    padding: Sequence[int] | int = (0, 0),
) -> Tensor:
    """Mean over each window of x (N, C, H, W); stride None means kernel_size; zero padding counts in the
    mean (count_include_pad=True).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "avg_pool2d", "x")
    if kernel_size.__class__ is not tuple and kernel_size.__class__ is not int:
        kernel_size = int_list_arg(kernel_size, "avg_pool2d", "kernel_size")
    if stride.__class__ is not tuple and stride.__class__ is not int and stride is not None:
        stride = int_list_arg(stride, "avg_pool2d", "stride")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "avg_pool2d", "padding")
    _kernel = _k_avg_pool2d.get(x._data.__class__) or dispatch("avg_pool2d", "avg_pool2d", x._data)
    try:
        out = wrap(_kernel(x._data, kernel_size, stride, padding))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("avg_pool2d", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.AvgPool2dGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.kernel_size = kernel_size
        node.stride = stride
        node.padding = padding
    if FORWARD.active:
        _jvp.avg_pool2d(x, kernel_size, stride, padding, out)
    return out


def adaptive_avg_pool2d(
    x: Tensor,
    output_size: Sequence[int] | int,
) -> Tensor:
    """Mean of x (N, C, H, W) over output_size bins per spatial axis, bin i spanning [floor(i * H / out),
    ceil((i + 1) * H / out)).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "adaptive_avg_pool2d", "x")
    if output_size.__class__ is not tuple and output_size.__class__ is not int:
        output_size = int_list_arg(output_size, "adaptive_avg_pool2d", "output_size")
    _kernel = _k_adaptive_avg_pool2d.get(x._data.__class__) or dispatch("adaptive_avg_pool2d", "adaptive_avg_pool2d", x._data)
    try:
        out = wrap(_kernel(x._data, output_size))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("adaptive_avg_pool2d", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.AdaptiveAvgPool2dGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.output_size = output_size
    if FORWARD.active:
        _jvp.adaptive_avg_pool2d(x, output_size, out)
    return out


def layer_norm(
    x: Tensor,
    normalized_shape: Sequence[int] | int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    epsilon: float = 1e-05,
) -> Tensor:
    """x normalised over its last len(normalized_shape) axes (biased variance), then * weight + bias (both
    of shape normalized_shape).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "layer_norm", "x")
    if weight is not None and not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "layer_norm", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "layer_norm", "bias")
    if normalized_shape.__class__ is not tuple and normalized_shape.__class__ is not int:
        normalized_shape = int_list_arg(normalized_shape, "layer_norm", "normalized_shape")
    if epsilon.__class__ is not float:
        epsilon = float_arg(epsilon, "layer_norm", "epsilon")
    _weight_data = None if weight is None else weight._data
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is _weight_data.__class__
        is _bias_data.__class__
        and _k_layer_norm.get(x._data.__class__)
        or dispatch(
            "layer_norm",
            "layer_norm",
            x._data,
            _weight_data,
            _bias_data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            _weight_data,
            _bias_data,
            normalized_shape,
            epsilon,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("layer_norm", _e) from None
    out = wrap(_results[0])
    if (x._requires_grad or (weight is not None and weight._requires_grad) or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.LayerNormGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_input(x)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.mean = TensorWrapper.of_input(wrap(_results[1]))
        node.rstd = TensorWrapper.of_input(wrap(_results[2]))
        node.normalized_shape = normalized_shape
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.layer_norm(x, normalized_shape, weight, bias, epsilon, out, wrap(_results[1]), wrap(_results[2]))
    return out


def batch_norm(
    x: Tensor,
    running_mean: Tensor,
    running_var: Tensor,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
) -> Tensor:
    """Per-channel (axis 1) normalisation of x (N, C, ...); training uses batch statistics and updates
    running_mean/running_var in place (running = momentum * running + (1 - momentum) * batch, unbiased
    variance), eval uses the running ones.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "batch_norm", "x")
    if not isinstance(running_mean, Tensor):
        raise _not_a_tensor("batch_norm", "running_mean", running_mean)
    if not isinstance(running_var, Tensor):
        raise _not_a_tensor("batch_norm", "running_var", running_var)
    if weight is not None and not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "batch_norm", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "batch_norm", "bias")
    if training.__class__ is not bool:
        training = bool_arg(training, "batch_norm", "training")
    if momentum.__class__ is not float:
        momentum = float_arg(momentum, "batch_norm", "momentum")
    if epsilon.__class__ is not float:
        epsilon = float_arg(epsilon, "batch_norm", "epsilon")
    _weight_data = None if weight is None else weight._data
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is running_mean._data.__class__
        is running_var._data.__class__
        is _weight_data.__class__
        is _bias_data.__class__
        and _k_batch_norm.get(x._data.__class__)
        or dispatch(
            "batch_norm",
            "batch_norm",
            x._data,
            running_mean._data,
            running_var._data,
            _weight_data,
            _bias_data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            running_mean._data,
            running_var._data,
            _weight_data,
            _bias_data,
            training,
            momentum,
            epsilon,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("batch_norm", _e) from None
    out = wrap(_results[0])
    if training:
        bump_versions(running_mean, running_var)
    if (x._requires_grad or (weight is not None and weight._requires_grad) or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.BatchNormGradNode, (x, None, None, weight, bias), out)
        node.x = TensorWrapper.of_input(x)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.saved_mean = TensorWrapper.of_input(wrap(_results[1]))
        node.saved_rstd = TensorWrapper.of_input(wrap(_results[2]))
        node.training = training
        node.momentum = momentum
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, epsilon, out, wrap(_results[1]), wrap(_results[2]))
    return out


def group_norm(
    x: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    epsilon: float = 1e-05,
) -> Tensor:
    """x (N, C, ...) normalised over each of num_groups channel groups (biased variance), then * weight +
    bias per channel (C,).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "group_norm", "x")
    if weight is not None and not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "group_norm", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "group_norm", "bias")
    if num_groups.__class__ is not int:
        num_groups = int_arg(num_groups, "group_norm", "num_groups")
    if epsilon.__class__ is not float:
        epsilon = float_arg(epsilon, "group_norm", "epsilon")
    _weight_data = None if weight is None else weight._data
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is _weight_data.__class__
        is _bias_data.__class__
        and _k_group_norm.get(x._data.__class__)
        or dispatch(
            "group_norm",
            "group_norm",
            x._data,
            _weight_data,
            _bias_data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            _weight_data,
            _bias_data,
            num_groups,
            epsilon,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("group_norm", _e) from None
    out = wrap(_results[0])
    if (x._requires_grad or (weight is not None and weight._requires_grad) or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.GroupNormGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_input(x)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.mean = TensorWrapper.of_input(wrap(_results[1]))
        node.rstd = TensorWrapper.of_input(wrap(_results[2]))
        node.num_groups = num_groups
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.group_norm(x, num_groups, weight, bias, epsilon, out, wrap(_results[1]), wrap(_results[2]))
    return out


def linear(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
) -> Tensor:
    """x @ weight + bias with Paddle's weight layout (in_features, out_features)."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "linear", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "linear", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "linear", "bias")
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is _bias_data.__class__
        and _k_linear.get(x._data.__class__)
        or dispatch(
            "linear",
            "linear",
            x._data,
            weight._data,
            _bias_data,
        )
    )
    try:
        out = wrap(_kernel(
            x._data,
            weight._data,
            _bias_data,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("linear", _e) from None
    if (x._requires_grad or weight._requires_grad or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.LinearGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_input(x)
        node.weight = TensorWrapper.of_input(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
    if FORWARD.active:
        _jvp.linear(x, weight, bias, out)
    return out


def einsum(
    equation: str,
    x: Tensor,
    y: Tensor,
) -> Tensor:
    """Two-operand Einstein summation ('bij,bjk->bik'; without '->' the output is NumPy's implicit one); no
    ellipsis, no index repeated within an operand.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "einsum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "einsum", "y")
    if equation.__class__ is not str:
        equation = str_arg(equation, "einsum", "equation")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_einsum.get(x._data.__class__)
        or dispatch("einsum", "einsum", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data, equation))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("einsum", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.EinsumGradNode, (x, y), out)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
        node.equation = equation
    if FORWARD.active:
        _jvp.einsum(equation, x, y, out)
    return out


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    mask: Tensor | None = None,
    dropout_p: float = 0.0,
    causal: bool = False,
    scale: float | None = None,
) -> Tensor:
    """softmax(query @ key^T * scale + mask) @ value over (..., seq, head_dim) tensors; scale None means 1
    / sqrt(head_dim); a bool mask keeps True, a float mask is added; causal keeps key j <= query i;
    dropout_p drops attention weights; fully masked rows give 0.
    """
    if not isinstance(query, Tensor):
        query = as_tensor_arg(query, key, "scaled_dot_product_attention", "query")
    if not isinstance(key, Tensor):
        key = as_tensor_arg(key, query, "scaled_dot_product_attention", "key")
    if not isinstance(value, Tensor):
        value = as_tensor_arg(value, query, "scaled_dot_product_attention", "value")
    if mask is not None and not isinstance(mask, Tensor):
        mask = as_tensor_arg(mask, query, "scaled_dot_product_attention", "mask")
    if dropout_p.__class__ is not float:
        dropout_p = float_arg(dropout_p, "scaled_dot_product_attention", "dropout_p")
    if causal.__class__ is not bool:
        causal = bool_arg(causal, "scaled_dot_product_attention", "causal")
    if scale.__class__ is not float and scale is not None:
        scale = float_arg(scale, "scaled_dot_product_attention", "scale")
    _mask_data = None if mask is None else mask._data
    _kernel = (
        query._data.__class__
        is key._data.__class__
        is value._data.__class__
        is _mask_data.__class__
        and _k_scaled_dot_product_attention.get(query._data.__class__)
        or dispatch(
            "scaled_dot_product_attention",
            "scaled_dot_product_attention",
            query._data,
            key._data,
            value._data,
            _mask_data,
        )
    )
    try:
        _results = _kernel(
            query._data,
            key._data,
            value._data,
            _mask_data,
            dropout_p,
            causal,
            scale,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scaled_dot_product_attention", _e) from None
    out = wrap(_results[0])
    if (query._requires_grad or key._requires_grad or value._requires_grad or (mask is not None and mask._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ScaledDotProductAttentionGradNode, (query, key, value, mask), out)
        node.query = TensorWrapper.of_input(query)
        node.key = TensorWrapper.of_input(key)
        node.value = TensorWrapper.of_input(value)
        node.mask = None if mask is None else TensorWrapper.of_input(mask)
        node.weights = TensorWrapper.of_input(wrap(_results[1]))
        node.keep = TensorWrapper.of_input(wrap(_results[2]))
        node.dropout_p = dropout_p
        node.causal = causal
        node.scale = scale
    if FORWARD.active:
        _jvp.scaled_dot_product_attention(query, key, value, mask, dropout_p, causal, scale, out, wrap(_results[1]), wrap(_results[2]))
    return out


def fill(
    x: Tensor,
    value: float,
) -> Tensor:
    """A tensor shaped like x (and of its dtype) with every element set to value; no gradient flows to x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "fill", "x")
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "fill", "value")
    _kernel = _k_fill.get(x._data.__class__) or dispatch("fill", "fill", x._data)
    try:
        out = wrap(_kernel(x._data, value))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fill", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.FillGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
        node.value = value
    if FORWARD.active:
        _jvp.fill(x, value, out)
    return out


def fill_(
    x: Tensor,
    value: float,
) -> Tensor:
    """A tensor shaped like x (and of its dtype) with every element set to value; no gradient flows to x.
    In place: writes the result into x and returns x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("fill_", "x", x)
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "fill_", "value")
    record = check_inplace("fill_", x)
    _kernel = _k_fill.get(x._data.__class__) or dispatch("fill_", "fill", x._data)
    try:
        _result = _kernel(x._data, value)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fill_", _e) from None
    if record:
        node = _nodes.FillGradNode((x,))
        node.x = TensorWrapper.meta_of(x)
        node.value = value
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.fill(x, value, _out)
    write_inplace("fill_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def zero(x: Tensor) -> Tensor:
    """Zeros shaped like x (and of its dtype); no gradient flows to x."""
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "zero", "x")
    _kernel = _k_zero.get(x._data.__class__) or dispatch("zero", "zero", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("zero", _e) from None
    if x._requires_grad and grad_enabled():
        node = new_node(_nodes.ZeroGradNode, (x,), out)
        node.x = TensorWrapper.meta_of(x)
    if FORWARD.active:
        _jvp.zero(x, out)
    return out


def zero_(x: Tensor) -> Tensor:
    """Zeros shaped like x (and of its dtype); no gradient flows to x. In place: writes the result into x
    and returns x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("zero_", "x", x)
    record = check_inplace("zero_", x)
    _kernel = _k_zero.get(x._data.__class__) or dispatch("zero_", "zero", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("zero_", _e) from None
    if record:
        node = _nodes.ZeroGradNode((x,))
        node.x = TensorWrapper.meta_of(x)
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.zero(x, _out)
    write_inplace("zero_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def reduce_as(
    x: Tensor,
    target: Tensor,
) -> Tensor:
    """x summed over its broadcast axes down to the shape of target, in target's dtype (double-grad
    composites use it).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, target, "reduce_as", "x")
    if not isinstance(target, Tensor):
        target = as_tensor_arg(target, x, "reduce_as", "target")
    _kernel = (
        x._data.__class__
        is target._data.__class__
        and _k_reduce_as.get(x._data.__class__)
        or dispatch("reduce_as", "reduce_as", x._data, target._data)
    )
    try:
        out = wrap(_kernel(x._data, target._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reduce_as", _e) from None
    if x._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ReduceAsGradNode, (x, None), out)
        node.x = TensorWrapper.meta_of(x)
    if FORWARD.active:
        _jvp.reduce_as(x, target, out)
    return out


def softmax_vjp(
    p: Tensor,
    g: Tensor,
    axis: int = -1,
) -> Tensor:
    """p * (g - sum(g * p, axis, keepdim)), softmax's gradient for its output p and output gradient g."""
    if not isinstance(p, Tensor):
        p = as_tensor_arg(p, g, "softmax_vjp", "p")
    if not isinstance(g, Tensor):
        g = as_tensor_arg(g, p, "softmax_vjp", "g")
    if axis.__class__ is not int:
        axis = int_arg(axis, "softmax_vjp", "axis")
    _kernel = (
        p._data.__class__
        is g._data.__class__
        and _k_softmax_vjp.get(p._data.__class__)
        or dispatch("softmax_vjp", "softmax_vjp", p._data, g._data)
    )
    try:
        o = wrap(_kernel(p._data, g._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softmax_vjp", _e) from None
    if (p._requires_grad or g._requires_grad) and grad_enabled() and o._data.dtype.kind == "f":
        node = new_node(_nodes.SoftmaxVjpGradNode, (p, g), o)
        node.p = TensorWrapper.of_input(p)
        node.g = TensorWrapper.of_input(g)
        node.axis = axis
    if FORWARD.active:
        _jvp.softmax_vjp(p, g, axis, o)
    return o


def softmax_vjp_dp(
    p: Tensor,
    g: Tensor,
    r: Tensor,
    axis: int = -1,
) -> Tensor:
    """The derivative of sum(softmax_vjp(p, g, axis) * r) with respect to p."""
    if not isinstance(p, Tensor):
        p = as_tensor_arg(p, g, "softmax_vjp_dp", "p")
    if not isinstance(g, Tensor):
        g = as_tensor_arg(g, p, "softmax_vjp_dp", "g")
    if not isinstance(r, Tensor):
        r = as_tensor_arg(r, p, "softmax_vjp_dp", "r")
    if axis.__class__ is not int:
        axis = int_arg(axis, "softmax_vjp_dp", "axis")
    _kernel = (
        p._data.__class__
        is g._data.__class__
        is r._data.__class__
        and _k_softmax_vjp_dp.get(p._data.__class__)
        or dispatch(
            "softmax_vjp_dp",
            "softmax_vjp_dp",
            p._data,
            g._data,
            r._data,
        )
    )
    try:
        o = wrap(_kernel(
            p._data,
            g._data,
            r._data,
            axis,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softmax_vjp_dp", _e) from None
    if (p._requires_grad or g._requires_grad or r._requires_grad) and grad_enabled() and o._data.dtype.kind == "f":
        node = new_node(_nodes.SoftmaxVjpDpGradNode, (p, g, r), o)
        node.p = TensorWrapper.of_input(p)
        node.g = TensorWrapper.of_input(g)
        node.r = TensorWrapper.of_input(r)
        node.axis = axis
    if FORWARD.active:
        _jvp.softmax_vjp_dp(p, g, r, axis, o)
    return o


def matmul_xg(
    x: Tensor,
    y: Tensor,
    g: Tensor,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """The gradient for x of matmul(x, y, transpose_x, transpose_y) given the output gradient g; x gives
    only its shape.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "matmul_xg", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, g, "matmul_xg", "y")
    if not isinstance(g, Tensor):
        g = as_tensor_arg(g, y, "matmul_xg", "g")
    if transpose_x.__class__ is not bool:
        transpose_x = bool_arg(transpose_x, "matmul_xg", "transpose_x")
    if transpose_y.__class__ is not bool:
        transpose_y = bool_arg(transpose_y, "matmul_xg", "transpose_y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is g._data.__class__
        and _k_matmul_xg.get(x._data.__class__)
        or dispatch(
            "matmul_xg",
            "matmul_xg",
            x._data,
            y._data,
            g._data,
        )
    )
    try:
        o = wrap(_kernel(
            x._data,
            y._data,
            g._data,
            transpose_x,
            transpose_y,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matmul_xg", _e) from None
    if (y._requires_grad or g._requires_grad) and grad_enabled() and o._data.dtype.kind == "f":
        node = new_node(_nodes.MatmulXgGradNode, (None, y, g), o)
        node.y = TensorWrapper.of_input(y)
        node.g = TensorWrapper.of_input(g)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul_xg(x, y, g, transpose_x, transpose_y, o)
    return o


def matmul_yg(
    x: Tensor,
    y: Tensor,
    g: Tensor,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """The gradient for y of matmul(x, y, transpose_x, transpose_y) given the output gradient g; y gives
    only its shape.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, g, "matmul_yg", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "matmul_yg", "y")
    if not isinstance(g, Tensor):
        g = as_tensor_arg(g, x, "matmul_yg", "g")
    if transpose_x.__class__ is not bool:
        transpose_x = bool_arg(transpose_x, "matmul_yg", "transpose_x")
    if transpose_y.__class__ is not bool:
        transpose_y = bool_arg(transpose_y, "matmul_yg", "transpose_y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is g._data.__class__
        and _k_matmul_yg.get(x._data.__class__)
        or dispatch(
            "matmul_yg",
            "matmul_yg",
            x._data,
            y._data,
            g._data,
        )
    )
    try:
        o = wrap(_kernel(
            x._data,
            y._data,
            g._data,
            transpose_x,
            transpose_y,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matmul_yg", _e) from None
    if (x._requires_grad or g._requires_grad) and grad_enabled() and o._data.dtype.kind == "f":
        node = new_node(_nodes.MatmulYgGradNode, (x, None, g), o)
        node.x = TensorWrapper.of_input(x)
        node.g = TensorWrapper.of_input(g)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul_yg(x, y, g, transpose_x, transpose_y, o)
    return o


def matmul_jvp(
    x: Tensor,
    y: Tensor,
    a: Tensor,
    b: Tensor,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """matmul(a, y) + matmul(x, b) (same transposes), the directional derivative of matmul at (x, y) along
    (a, b).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "matmul_jvp", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "matmul_jvp", "y")
    if not isinstance(a, Tensor):
        a = as_tensor_arg(a, x, "matmul_jvp", "a")
    if not isinstance(b, Tensor):
        b = as_tensor_arg(b, x, "matmul_jvp", "b")
    if transpose_x.__class__ is not bool:
        transpose_x = bool_arg(transpose_x, "matmul_jvp", "transpose_x")
    if transpose_y.__class__ is not bool:
        transpose_y = bool_arg(transpose_y, "matmul_jvp", "transpose_y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is a._data.__class__
        is b._data.__class__
        and _k_matmul_jvp.get(x._data.__class__)
        or dispatch(
            "matmul_jvp",
            "matmul_jvp",
            x._data,
            y._data,
            a._data,
            b._data,
        )
    )
    try:
        o = wrap(_kernel(
            x._data,
            y._data,
            a._data,
            b._data,
            transpose_x,
            transpose_y,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matmul_jvp", _e) from None
    if (x._requires_grad or y._requires_grad or a._requires_grad or b._requires_grad) and grad_enabled() and o._data.dtype.kind == "f":
        node = new_node(_nodes.MatmulJvpGradNode, (x, y, a, b), o)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
        node.a = TensorWrapper.of_input(a)
        node.b = TensorWrapper.of_input(b)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul_jvp(x, y, a, b, transpose_x, transpose_y, o)
    return o
