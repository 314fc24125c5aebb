# @generated grad_ops from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Grad ops as differentiable functions, one per backward.yaml entry that has a kernel; grad nodes call
them when create_graph=True so that the backward pass is recorded.
"""

from __future__ import annotations

import builtins as _builtins
from collections.abc import Sequence
from typing import Any

from opgrad.generated import jvp as _jvp
from opgrad.generated import nodes as _nodes
from opgrad.runtime import _accel
from opgrad.runtime.dual import FORWARD
from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import (
    TensorMeta,
    new_node,
    recorded,
    set_history,
)
from opgrad.runtime.kernels.registry import (
    dispatch,
    kernel_error,
    kernel_results_error,
    kernel_table,
)
from opgrad.runtime.tensor import (
    Tensor,
    wrap,
)
from opgrad.runtime.tensor_wrapper import TensorWrapper

# Kernels called with one array: {array type -> kernel}, filled by dispatch (kernel_table).
_k_abs_grad = kernel_table("abs_grad")
_k_adaptive_avg_pool2d_grad = kernel_table("adaptive_avg_pool2d_grad")
_k_add_grad = kernel_table("add_grad")
_k_avg_pool2d_grad = kernel_table("avg_pool2d_grad")
_k_batch_norm_grad = kernel_table("batch_norm_grad")
_k_binary_cross_entropy_with_logits_grad = kernel_table("binary_cross_entropy_with_logits_grad")
_k_cast_grad = kernel_table("cast_grad")
_k_celu_grad = kernel_table("celu_grad")
_k_clip_grad = kernel_table("clip_grad")
_k_concat_grad = kernel_table("concat_grad")
_k_conv2d_grad = kernel_table("conv2d_grad")
_k_conv3d_grad = kernel_table("conv3d_grad")
_k_cos_grad = kernel_table("cos_grad")
_k_cross_entropy_double_grad = kernel_table("cross_entropy_double_grad")
_k_cross_entropy_grad_saved = kernel_table("cross_entropy_grad_saved")
_k_cumprod_double_grad = kernel_table("cumprod_double_grad")
_k_cumprod_grad = kernel_table("cumprod_grad")
_k_cumsum_grad = kernel_table("cumsum_grad")
_k_diagonal_grad = kernel_table("diagonal_grad")
_k_divide_grad = kernel_table("divide_grad")
_k_dropout_grad = kernel_table("dropout_grad")
_k_einsum_grad = kernel_table("einsum_grad")
_k_elementwise_pow_grad = kernel_table("elementwise_pow_grad")
_k_elu_grad = kernel_table("elu_grad")
_k_embedding_grad = kernel_table("embedding_grad")
_k_erf_grad = kernel_table("erf_grad")
_k_exp_grad = kernel_table("exp_grad")
_k_expand_grad = kernel_table("expand_grad")
_k_expm1_grad = kernel_table("expm1_grad")
_k_fftn_grad = kernel_table("fftn_grad")
_k_fill_grad = kernel_table("fill_grad")
_k_flatten_grad = kernel_table("flatten_grad")
_k_flip_grad = kernel_table("flip_grad")
_k_gather_grad = kernel_table("gather_grad")
_k_gelu_grad = kernel_table("gelu_grad")
_k_glu_grad = kernel_table("glu_grad")
_k_group_norm_grad = kernel_table("group_norm_grad")
_k_hardsigmoid_grad = kernel_table("hardsigmoid_grad")
_k_hardswish_grad = kernel_table("hardswish_grad")
_k_hardtanh_grad = kernel_table("hardtanh_grad")
_k_ifftn_grad = kernel_table("ifftn_grad")
_k_imag_grad = kernel_table("imag_grad")
_k_index_add_grad = kernel_table("index_add_grad")
_k_index_select_grad = kernel_table("index_select_grad")
_k_irfftn_grad = kernel_table("irfftn_grad")
_k_kl_div_grad = kernel_table("kl_div_grad")
_k_kron_grad = kernel_table("kron_grad")
_k_l1_loss_grad = kernel_table("l1_loss_grad")
_k_layer_norm_grad = kernel_table("layer_norm_grad")
_k_leaky_relu_grad = kernel_table("leaky_relu_grad")
_k_linear_grad = kernel_table("linear_grad")
_k_log1p_grad = kernel_table("log1p_grad")
_k_log_grad = kernel_table("log_grad")
_k_log_sigmoid_grad = kernel_table("log_sigmoid_grad")
_k_log_softmax_grad = kernel_table("log_softmax_grad")
_k_logsumexp_grad = kernel_table("logsumexp_grad")
_k_masked_fill_grad = kernel_table("masked_fill_grad")
_k_matmul_grad = kernel_table("matmul_grad")
_k_max_grad = kernel_table("max_grad")
_k_max_pool2d_double_grad = kernel_table("max_pool2d_double_grad")
_k_max_pool2d_grad = kernel_table("max_pool2d_grad")
_k_maximum_grad = kernel_table("maximum_grad")
_k_mean_grad = kernel_table("mean_grad")
_k_min_grad = kernel_table("min_grad")
_k_minimum_grad = kernel_table("minimum_grad")
_k_mish_grad = kernel_table("mish_grad")
_k_mse_loss_grad = kernel_table("mse_loss_grad")
_k_multiply_grad = kernel_table("multiply_grad")
_k_neg_grad = kernel_table("neg_grad")
_k_nll_loss_grad = kernel_table("nll_loss_grad")
_k_norm_grad = kernel_table("norm_grad")
_k_pad_grad = kernel_table("pad_grad")
_k_pow_grad = kernel_table("pow_grad")
_k_prelu_grad = kernel_table("prelu_grad")
_k_prod_double_grad = kernel_table("prod_double_grad")
_k_prod_grad = kernel_table("prod_grad")
_k_real_grad = kernel_table("real_grad")
_k_reciprocal_grad = kernel_table("reciprocal_grad")
_k_reduce_as_grad = kernel_table("reduce_as_grad")
_k_relu_grad = kernel_table("relu_grad")
_k_repeat_interleave_grad = kernel_table("repeat_interleave_grad")
_k_reshape_grad = kernel_table("reshape_grad")
_k_rfftn_grad = kernel_table("rfftn_grad")
_k_roll_grad = kernel_table("roll_grad")
_k_rsqrt_grad = kernel_table("rsqrt_grad")
_k_scale_grad = kernel_table("scale_grad")
_k_scaled_dot_product_attention_grad = kernel_table("scaled_dot_product_attention_grad")
_k_scatter_grad = kernel_table("scatter_grad")
_k_selu_grad = kernel_table("selu_grad")
_k_sigmoid_grad = kernel_table("sigmoid_grad")
_k_sign_grad = kernel_table("sign_grad")
_k_silu_grad = kernel_table("silu_grad")
_k_sin_grad = kernel_table("sin_grad")
_k_smooth_l1_loss_grad = kernel_table("smooth_l1_loss_grad")
_k_softmax_grad = kernel_table("softmax_grad")
_k_softplus_grad = kernel_table("softplus_grad")
_k_softsign_grad = kernel_table("softsign_grad")
_k_sort_grad = kernel_table("sort_grad")
_k_sqrt_grad = kernel_table("sqrt_grad")
_k_square_grad = kernel_table("square_grad")
_k_squeeze_grad = kernel_table("squeeze_grad")
_k_stack_grad = kernel_table("stack_grad")
_k_std_grad = kernel_table("std_grad")
_k_subtract_grad = kernel_table("subtract_grad")
_k_sum_grad = kernel_table("sum_grad")
_k_take_along_axis_grad = kernel_table("take_along_axis_grad")
_k_tanh_grad = kernel_table("tanh_grad")
_k_tanhshrink_grad = kernel_table("tanhshrink_grad")
_k_tile_grad = kernel_table("tile_grad")
_k_topk_grad = kernel_table("topk_grad")
_k_transpose_grad = kernel_table("transpose_grad")
_k_tril_grad = kernel_table("tril_grad")
_k_triu_grad = kernel_table("triu_grad")
_k_unfold_grad = kernel_table("unfold_grad")
_k_unsqueeze_grad = kernel_table("unsqueeze_grad")
_k_var_grad = kernel_table("var_grad")
_k_where_grad = kernel_table("where_grad")
_k_zero_grad = kernel_table("zero_grad")

__all__ = [
    "abs_grad",
    "adaptive_avg_pool2d_grad",
    "add_grad",
    "avg_pool2d_grad",
    "batch_norm_grad",
    "binary_cross_entropy_with_logits_grad",
    "cast_grad",
    "celu_grad",
    "clip_grad",
    "concat_grad",
    "conv2d_grad",
    "conv3d_grad",
    "cos_grad",
    "cross_entropy_double_grad",
    "cross_entropy_grad",
    "cumprod_double_grad",
    "cumprod_grad",
    "cumsum_grad",
    "diagonal_grad",
    "divide_grad",
    "dropout_grad",
    "einsum_grad",
    "elementwise_pow_grad",
    "elu_grad",
    "embedding_grad",
    "erf_grad",
    "exp_grad",
    "expand_grad",
    "expm1_grad",
    "fftn_grad",
    "fill_grad",
    "flatten_grad",
    "flip_grad",
    "gather_grad",
    "gelu_grad",
    "glu_grad",
    "group_norm_grad",
    "hardsigmoid_grad",
    "hardswish_grad",
    "hardtanh_grad",
    "ifftn_grad",
    "imag_grad",
    "index_add_grad",
    "index_select_grad",
    "irfftn_grad",
    "kl_div_grad",
    "kron_grad",
    "l1_loss_grad",
    "layer_norm_grad",
    "leaky_relu_grad",
    "linear_grad",
    "log1p_grad",
    "log_grad",
    "log_sigmoid_grad",
    "log_softmax_grad",
    "logsumexp_grad",
    "masked_fill_grad",
    "matmul_grad",
    "max_grad",
    "max_pool2d_double_grad",
    "max_pool2d_grad",
    "maximum_grad",
    "mean_grad",
    "min_grad",
    "minimum_grad",
    "mish_grad",
    "mse_loss_grad",
    "multiply_grad",
    "neg_grad",
    "nll_loss_grad",
    "norm_grad",
    "pad_grad",
    "pow_grad",
    "prelu_grad",
    "prod_double_grad",
    "prod_grad",
    "real_grad",
    "reciprocal_grad",
    "reduce_as_grad",
    "relu_grad",
    "repeat_interleave_grad",
    "reshape_grad",
    "rfftn_grad",
    "roll_grad",
    "rsqrt_grad",
    "scale_grad",
    "scaled_dot_product_attention_grad",
    "scatter_grad",
    "selu_grad",
    "sigmoid_grad",
    "sign_grad",
    "silu_grad",
    "sin_grad",
    "smooth_l1_loss_grad",
    "softmax_grad",
    "softplus_grad",
    "softsign_grad",
    "sort_grad",
    "split_grad",
    "sqrt_grad",
    "square_grad",
    "squeeze_grad",
    "stack_grad",
    "std_grad",
    "subtract_grad",
    "sum_grad",
    "swish_grad",
    "take_along_axis_grad",
    "tanh_grad",
    "tanhshrink_grad",
    "tile_grad",
    "topk_grad",
    "transpose_grad",
    "tril_grad",
    "triu_grad",
    "unfold_grad",
    "unsqueeze_grad",
    "var_grad",
    "where_grad",
    "zero_grad",
]


def _no_backward(op: str) -> RuntimeError:
    return RuntimeError(
        f"cannot differentiate {op}: it has no backward, and create_graph=True records the backward pass. "
        f"Add `backward: <name>` to the {op} entry in backward.yaml together with a backward_op entry "
        f"whose forward is {op}, or write {op} as a `composite:` expression instead of a kernel."
    )


def neg_grad(out_grad: Tensor) -> Tensor:
    """Gradient of neg."""
    _kernel = _k_neg_grad.get(out_grad._data.__class__) or dispatch("neg_grad", "neg_grad", out_grad._data)
    try:
        _result = _kernel(out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("neg_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.NegDoubleGradNode, _result, out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.neg_grad(out_grad, x_grad)
    return x_grad


def abs_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of abs."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_abs_grad.get(x._data.__class__)
        or dispatch("abs_grad", "abs_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("abs_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.AbsDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.abs_grad(x, out_grad, x_grad)
    return x_grad


def sign_grad(
    x: TensorMeta,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of sign."""
    _kernel = _k_sign_grad.get(out_grad._data.__class__) or dispatch("sign_grad", "sign_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sign_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.SignDoubleGradNode, _result, None, out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.sign_grad(x, out_grad, x_grad)
    return x_grad


def exp_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of exp."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_exp_grad.get(out._data.__class__)
        or dispatch("exp_grad", "exp_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("exp_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.ExpDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.exp_grad(out, out_grad, x_grad)
    return x_grad


def expm1_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of expm1."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_expm1_grad.get(out._data.__class__)
        or dispatch("expm1_grad", "expm1_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("expm1_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.Expm1DoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.expm1_grad(out, out_grad, x_grad)
    return x_grad


def log_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of log."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_log_grad.get(x._data.__class__)
        or dispatch("log_grad", "log_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.LogDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.log_grad(x, out_grad, x_grad)
    return x_grad


def log1p_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of log1p."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_log1p_grad.get(x._data.__class__)
        or dispatch("log1p_grad", "log1p_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log1p_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.Log1pDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.log1p_grad(x, out_grad, x_grad)
    return x_grad


def sqrt_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of sqrt."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_sqrt_grad.get(out._data.__class__)
        or dispatch("sqrt_grad", "sqrt_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sqrt_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SqrtDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.sqrt_grad(out, out_grad, x_grad)
    return x_grad


def rsqrt_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of rsqrt."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_rsqrt_grad.get(out._data.__class__)
        or dispatch("rsqrt_grad", "rsqrt_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("rsqrt_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.RsqrtDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.rsqrt_grad(out, out_grad, x_grad)
    return x_grad


def square_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of square."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_square_grad.get(x._data.__class__)
        or dispatch("square_grad", "square_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("square_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SquareDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.square_grad(x, out_grad, x_grad)
    return x_grad


def reciprocal_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of reciprocal."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_reciprocal_grad.get(out._data.__class__)
        or dispatch("reciprocal_grad", "reciprocal_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reciprocal_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.ReciprocalDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.reciprocal_grad(out, out_grad, x_grad)
    return x_grad


def sin_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of sin."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_sin_grad.get(x._data.__class__)
        or dispatch("sin_grad", "sin_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sin_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SinDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.sin_grad(x, out_grad, x_grad)
    return x_grad


def cos_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of cos."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_cos_grad.get(x._data.__class__)
        or dispatch("cos_grad", "cos_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cos_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.CosDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.cos_grad(x, out_grad, x_grad)
    return x_grad


def tanh_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of tanh."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_tanh_grad.get(out._data.__class__)
        or dispatch("tanh_grad", "tanh_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tanh_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.TanhDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.tanh_grad(out, out_grad, x_grad)
    return x_grad


def sigmoid_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of sigmoid."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_sigmoid_grad.get(out._data.__class__)
        or dispatch("sigmoid_grad", "sigmoid_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sigmoid_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SigmoidDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.sigmoid_grad(out, out_grad, x_grad)
    return x_grad


def relu_grad(
    out: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of relu."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_relu_grad.get(out._data.__class__)
        or dispatch("relu_grad", "relu_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("relu_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ReluDoubleGradNode, _result, None, out_grad)
        node.out = TensorWrapper.of_input(out)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.relu_grad(out, out_grad, x_grad)
    return x_grad


def gelu_grad(
    x: Tensor,
    out_grad: Tensor,
    approximate: bool = False,
) -> Tensor:
    """Gradient of gelu."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_gelu_grad.get(x._data.__class__)
        or dispatch("gelu_grad", "gelu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, approximate)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("gelu_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.GeluDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.approximate = approximate
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.gelu_grad(x, out_grad, approximate, x_grad)
    return x_grad


def silu_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of silu."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_silu_grad.get(x._data.__class__)
        or dispatch("silu_grad", "silu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("silu_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SiluDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.silu_grad(x, out_grad, x_grad)
    return x_grad


def softplus_grad(
    x: Tensor,
    out_grad: Tensor,
    beta: float = 1.0,
    threshold: float = 20.0,
) -> Tensor:
    """Gradient of softplus."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_softplus_grad.get(x._data.__class__)
        or dispatch("softplus_grad", "softplus_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, beta, threshold)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softplus_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SoftplusDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.beta = beta
        node.threshold = threshold
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.softplus_grad(x, out_grad, beta, threshold, x_grad)
    return x_grad


def leaky_relu_grad(
    x: Tensor,
    out_grad: Tensor,
    negative_slope: float = 0.01,
) -> Tensor:
    """Gradient of leaky_relu."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_leaky_relu_grad.get(x._data.__class__)
        or dispatch("leaky_relu_grad", "leaky_relu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, negative_slope)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("leaky_relu_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.LeakyReluDoubleGradNode, _result, None, out_grad)
        node.x = TensorWrapper.of_input(x)
        node.negative_slope = negative_slope
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.leaky_relu_grad(x, out_grad, negative_slope, x_grad)
    return x_grad


def elu_grad(
    x: Tensor,
    out_grad: Tensor,
    alpha: float = 1.0,
) -> Tensor:
    """Gradient of elu."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_elu_grad.get(x._data.__class__)
        or dispatch("elu_grad", "elu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, alpha)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("elu_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.EluDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.alpha = alpha
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.elu_grad(x, out_grad, alpha, x_grad)
    return x_grad


def erf_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of erf."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_erf_grad.get(x._data.__class__)
        or dispatch("erf_grad", "erf_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("erf_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.ErfDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.erf_grad(x, out_grad, x_grad)
    return x_grad


def scale_grad(
    out_grad: Tensor,
    scale: float = 1.0,
    bias: float = 0.0,
) -> Tensor:
    """Gradient of scale."""
    _kernel = _k_scale_grad.get(out_grad._data.__class__) or dispatch("scale_grad", "scale_grad", out_grad._data)
    try:
        _result = _kernel(out_grad._data, scale, bias)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scale_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ScaleDoubleGradNode, _result, out_grad)
        node.scale = scale
        node.bias = bias
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.scale_grad(out_grad, scale, bias, x_grad)
    return x_grad


def pow_grad(
    x: Tensor,
    out_grad: Tensor,
    y: float,
) -> Tensor:
    """Gradient of pow."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_pow_grad.get(x._data.__class__)
        or dispatch("pow_grad", "pow_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, y)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pow_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.PowDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.y = y
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.pow_grad(x, out_grad, y, x_grad)
    return x_grad


def clip_grad(
    x: Tensor,
    out_grad: Tensor,
    min: float | None = None,
    max: float | None = None,
) -> Tensor:
    """Gradient of clip."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_clip_grad.get(x._data.__class__)
        or dispatch("clip_grad", "clip_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, min, max)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("clip_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ClipDoubleGradNode, _result, None, out_grad)
        node.x = TensorWrapper.of_input(x)
        node.min = min
        node.max = max
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.clip_grad(x, out_grad, min, max, x_grad)
    return x_grad


def cast_grad(
    x: TensorMeta,
    out_grad: Tensor,
    dtype: Any,
) -> Tensor:
    """Gradient of cast."""
    _kernel = _k_cast_grad.get(out_grad._data.__class__) or dispatch("cast_grad", "cast_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, dtype)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cast_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.CastDoubleGradNode, _result, None, out_grad)
        node.dtype = dtype
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.cast_grad(x, out_grad, dtype, x_grad)
    return x_grad


def hardtanh_grad(
    x: Tensor,
    out_grad: Tensor,
    min: float = -1.0,
    max: float = 1.0,
) -> Tensor:
    """Gradient of hardtanh."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_hardtanh_grad.get(x._data.__class__)
        or dispatch("hardtanh_grad", "hardtanh_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, min, max)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardtanh_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.HardtanhDoubleGradNode, _result, None, out_grad)
        node.x = TensorWrapper.of_input(x)
        node.min = min
        node.max = max
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.hardtanh_grad(x, out_grad, min, max, x_grad)
    return x_grad


def hardswish_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of hardswish."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_hardswish_grad.get(x._data.__class__)
        or dispatch("hardswish_grad", "hardswish_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardswish_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.HardswishDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.hardswish_grad(x, out_grad, x_grad)
    return x_grad


def hardsigmoid_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of hardsigmoid."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_hardsigmoid_grad.get(x._data.__class__)
        or dispatch("hardsigmoid_grad", "hardsigmoid_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardsigmoid_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.HardsigmoidDoubleGradNode, _result, None, out_grad)
        node.x = TensorWrapper.of_input(x)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.hardsigmoid_grad(x, out_grad, x_grad)
    return x_grad


def mish_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of mish."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_mish_grad.get(x._data.__class__)
        or dispatch("mish_grad", "mish_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mish_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.MishDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.mish_grad(x, out_grad, x_grad)
    return x_grad


def log_sigmoid_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of log_sigmoid."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_log_sigmoid_grad.get(x._data.__class__)
        or dispatch("log_sigmoid_grad", "log_sigmoid_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log_sigmoid_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.LogSigmoidDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.log_sigmoid_grad(x, out_grad, x_grad)
    return x_grad


def swish_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of swish."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_silu_grad.get(x._data.__class__)
        or dispatch("swish_grad", "silu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("swish_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SwishDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.swish_grad(x, out_grad, x_grad)
    return x_grad


def selu_grad(
    x: Tensor,
    out_grad: Tensor,
    scale: float = 1.0507009873554805,
    alpha: float = 1.6732632423543772,
) -> Tensor:
    """Gradient of selu."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_selu_grad.get(x._data.__class__)
        or dispatch("selu_grad", "selu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, scale, alpha)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("selu_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SeluDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.scale = scale
        node.alpha = alpha
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.selu_grad(x, out_grad, scale, alpha, x_grad)
    return x_grad


def celu_grad(
    x: Tensor,
    out_grad: Tensor,
    alpha: float = 1.0,
) -> Tensor:
    """Gradient of celu."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_celu_grad.get(x._data.__class__)
        or dispatch("celu_grad", "celu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, alpha)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("celu_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.CeluDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.alpha = alpha
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.celu_grad(x, out_grad, alpha, x_grad)
    return x_grad


def softsign_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of softsign."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_softsign_grad.get(x._data.__class__)
        or dispatch("softsign_grad", "softsign_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softsign_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SoftsignDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.softsign_grad(x, out_grad, x_grad)
    return x_grad


def tanhshrink_grad(
    x: Tensor,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of tanhshrink."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_tanhshrink_grad.get(x._data.__class__)
        or dispatch("tanhshrink_grad", "tanhshrink_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tanhshrink_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.TanhshrinkDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.tanhshrink_grad(x, out_grad, x_grad)
    return x_grad


def add_grad(
    x: TensorMeta,
    y: TensorMeta,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of add."""
    _kernel = _k_add_grad.get(out_grad._data.__class__) or dispatch("add_grad", "add_grad", out_grad._data)
    try:
        _results = _kernel(x, y, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("add_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("add_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.AddDoubleGradNode, (None, None, out_grad), x_grad)
        set_history(y_grad, node, 1)
    if FORWARD.active:
        _jvp.add_grad(x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def subtract_grad(
    x: TensorMeta,
    y: TensorMeta,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of subtract."""
    _kernel = _k_subtract_grad.get(out_grad._data.__class__) or dispatch("subtract_grad", "subtract_grad", out_grad._data)
    try:
        _results = _kernel(x, y, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("subtract_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("subtract_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.SubtractDoubleGradNode, (None, None, out_grad), x_grad)
        set_history(y_grad, node, 1)
    if FORWARD.active:
        _jvp.subtract_grad(x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def multiply_grad(
    x: Tensor,
    y: Tensor,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of multiply."""
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is out_grad._data.__class__
        and _k_multiply_grad.get(x._data.__class__)
        or dispatch(
            "multiply_grad",
            "multiply_grad",
            x._data,
            y._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            y._data,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("multiply_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("multiply_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.MultiplyDoubleGradNode, (x, y, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    if FORWARD.active:
        _jvp.multiply_grad(x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def divide_grad(
    x: TensorMeta,
    y: Tensor,
    out: Tensor,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of divide."""
    _kernel = (
        y._data.__class__
        is out._data.__class__
        is out_grad._data.__class__
        and _k_divide_grad.get(y._data.__class__)
        or dispatch(
            "divide_grad",
            "divide_grad",
            y._data,
            out._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x,
            y._data,
            out._data,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("divide_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("divide_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if (y._requires_grad or out._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.DivideDoubleGradNode, (None, y, out, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.y = TensorWrapper.of_edge(y)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    if FORWARD.active:
        _jvp.divide_grad(x, y, out, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def maximum_grad(
    x: Tensor,
    y: Tensor,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of maximum."""
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is out_grad._data.__class__
        and _k_maximum_grad.get(x._data.__class__)
        or dispatch(
            "maximum_grad",
            "maximum_grad",
            x._data,
            y._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            y._data,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("maximum_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("maximum_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.MaximumDoubleGradNode, (None, None, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    if FORWARD.active:
        _jvp.maximum_grad(x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def minimum_grad(
    x: Tensor,
    y: Tensor,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of minimum."""
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is out_grad._data.__class__
        and _k_minimum_grad.get(x._data.__class__)
        or dispatch(
            "minimum_grad",
            "minimum_grad",
            x._data,
            y._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            y._data,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("minimum_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("minimum_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.MinimumDoubleGradNode, (None, None, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.x = TensorWrapper.of_input(x)
        node.y = TensorWrapper.of_input(y)
    if FORWARD.active:
        _jvp.minimum_grad(x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def elementwise_pow_grad(
    x: Tensor,
    y: Tensor,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of elementwise_pow."""
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is out_grad._data.__class__
        and _k_elementwise_pow_grad.get(x._data.__class__)
        or dispatch(
            "elementwise_pow_grad",
            "elementwise_pow_grad",
            x._data,
            y._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            y._data,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("elementwise_pow_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("elementwise_pow_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.ElementwisePowDoubleGradNode, (x, y, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    if FORWARD.active:
        _jvp.elementwise_pow_grad(x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def where_grad(
    condition: Tensor,
    x: TensorMeta,
    y: TensorMeta,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of where."""
    _kernel = (
        condition._data.__class__
        is out_grad._data.__class__
        and _k_where_grad.get(condition._data.__class__)
        or dispatch("where_grad", "where_grad", condition._data, out_grad._data)
    )
    try:
        _results = _kernel(condition._data, x, y, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("where_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("where_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.WhereDoubleGradNode, (None, None, None, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.condition = TensorWrapper.of_input(condition)
    if FORWARD.active:
        _jvp.where_grad(condition, x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def sum_grad(
    x: TensorMeta,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Gradient of sum."""
    _kernel = _k_sum_grad.get(out_grad._data.__class__) or dispatch("sum_grad", "sum_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sum_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.SumDoubleGradNode, _result, None, out_grad)
        node.axis = axis
        node.keepdim = keepdim
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.sum_grad(x, out_grad, axis, keepdim, x_grad)
    return x_grad


def mean_grad(
    x: TensorMeta,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Gradient of mean."""
    _kernel = _k_mean_grad.get(out_grad._data.__class__) or dispatch("mean_grad", "mean_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mean_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.MeanDoubleGradNode, _result, None, out_grad)
        node.axis = axis
        node.keepdim = keepdim
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.mean_grad(x, out_grad, axis, keepdim, x_grad)
    return x_grad


def max_grad(
    x: Tensor,
    out: Tensor,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Gradient of max."""
    _kernel = (
        x._data.__class__
        is out._data.__class__
        is out_grad._data.__class__
        and _k_max_grad.get(x._data.__class__)
        or dispatch(
            "max_grad",
            "max_grad",
            x._data,
            out._data,
            out_grad._data,
        )
    )
    try:
        x_grad = wrap(_kernel(
            x._data,
            out._data,
            out_grad._data,
            axis,
            keepdim,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("max_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.MaxDoubleGradNode, (None, None, out_grad), x_grad)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_input(out)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.max_grad(x, out, out_grad, axis, keepdim, x_grad)
    return x_grad


def min_grad(
    x: Tensor,
    out: Tensor,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Gradient of min."""
    _kernel = (
        x._data.__class__
        is out._data.__class__
        is out_grad._data.__class__
        and _k_min_grad.get(x._data.__class__)
        or dispatch(
            "min_grad",
            "min_grad",
            x._data,
            out._data,
            out_grad._data,
        )
    )
    try:
        x_grad = wrap(_kernel(
            x._data,
            out._data,
            out_grad._data,
            axis,
            keepdim,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("min_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.MinDoubleGradNode, (None, None, out_grad), x_grad)
        node.x = TensorWrapper.of_input(x)
        node.out = TensorWrapper.of_input(out)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.min_grad(x, out, out_grad, axis, keepdim, x_grad)
    return x_grad


def prod_grad(
    x: Tensor,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Gradient of prod."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_prod_grad.get(x._data.__class__)
        or dispatch("prod_grad", "prod_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("prod_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.ProdDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
        node.keepdim = keepdim
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.prod_grad(x, out_grad, axis, keepdim, x_grad)
    return x_grad


def prod_double_grad(
    x: Tensor,
    out_grad: Tensor,
    x_grad_grad: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> tuple[Tensor, Tensor]:
    """Gradient of prod_grad (second-order gradient of prod)."""
    if (x._requires_grad or out_grad._requires_grad or x_grad_grad._requires_grad) and grad_enabled():
        raise _no_backward("prod_double_grad")
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        is x_grad_grad._data.__class__
        and _k_prod_double_grad.get(x._data.__class__)
        or dispatch(
            "prod_double_grad",
            "prod_double_grad",
            x._data,
            out_grad._data,
            x_grad_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            out_grad._data,
            x_grad_grad._data,
            axis,
            keepdim,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("prod_double_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("prod_double_grad", 2, _results) from None
    grad_wrt_x = wrap(_r0)
    grad_wrt_out_grad = wrap(_r1)
    if FORWARD.active:
        _jvp.prod_double_grad(x, out_grad, x_grad_grad, axis, keepdim, grad_wrt_x, grad_wrt_out_grad)
    return (grad_wrt_x, grad_wrt_out_grad)


def logsumexp_grad(
    x: Tensor,
    out: Tensor,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Gradient of logsumexp."""
    _kernel = (
        x._data.__class__
        is out._data.__class__
        is out_grad._data.__class__
        and _k_logsumexp_grad.get(x._data.__class__)
        or dispatch(
            "logsumexp_grad",
            "logsumexp_grad",
            x._data,
            out._data,
            out_grad._data,
        )
    )
    try:
        x_grad = wrap(_kernel(
            x._data,
            out._data,
            out_grad._data,
            axis,
            keepdim,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logsumexp_grad", _e) from None
    if (x._requires_grad or out._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.LogsumexpDoubleGradNode, (x, out, out_grad), x_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.logsumexp_grad(x, out, out_grad, axis, keepdim, x_grad)
    return x_grad


def var_grad(
    x: Tensor,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    unbiased: bool = True,
    keepdim: bool = False,
) -> Tensor:
    """Gradient of var."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_var_grad.get(x._data.__class__)
        or dispatch("var_grad", "var_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, axis, unbiased, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("var_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.VarDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
        node.unbiased = unbiased
        node.keepdim = keepdim
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.var_grad(x, out_grad, axis, unbiased, keepdim, x_grad)
    return x_grad


def std_grad(
    x: Tensor,
    out: Tensor,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
    unbiased: bool = True,
    keepdim: bool = False,
) -> Tensor:
    """Gradient of std."""
    _kernel = (
        x._data.__class__
        is out._data.__class__
        is out_grad._data.__class__
        and _k_std_grad.get(x._data.__class__)
        or dispatch(
            "std_grad",
            "std_grad",
            x._data,
            out._data,
            out_grad._data,
        )
    )
    try:
        x_grad = wrap(_kernel(
            x._data,
            out._data,
            out_grad._data,
            axis,
            unbiased,
            keepdim,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("std_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.StdDoubleGradNode, (x, None, out_grad), x_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_input(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
        node.unbiased = unbiased
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.std_grad(x, out, out_grad, axis, unbiased, keepdim, x_grad)
    return x_grad


def norm_grad(
    x: Tensor,
    out: Tensor,
    out_grad: Tensor,
    p: float = 2.0,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
) -> Tensor:
    """Gradient of norm."""
    _kernel = (
        x._data.__class__
        is out._data.__class__
        is out_grad._data.__class__
        and _k_norm_grad.get(x._data.__class__)
        or dispatch(
            "norm_grad",
            "norm_grad",
            x._data,
            out._data,
            out_grad._data,
        )
    )
    try:
        x_grad = wrap(_kernel(
            x._data,
            out._data,
            out_grad._data,
            p,
            axis,
            keepdim,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("norm_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.NormDoubleGradNode, (x, None, out_grad), x_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_input(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.p = p
        node.axis = axis
        node.keepdim = keepdim
    if FORWARD.active:
        _jvp.norm_grad(x, out, out_grad, p, axis, keepdim, x_grad)
    return x_grad


def cumsum_grad(
    x: TensorMeta,
    out_grad: Tensor,
    axis: int | None = None,
) -> Tensor:
    """Gradient of cumsum."""
    _kernel = _k_cumsum_grad.get(out_grad._data.__class__) or dispatch("cumsum_grad", "cumsum_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cumsum_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.CumsumDoubleGradNode, _result, None, out_grad)
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.cumsum_grad(x, out_grad, axis, x_grad)
    return x_grad


def cumprod_grad(
    x: Tensor,
    out: Tensor,
    out_grad: Tensor,
    dim: int | None = None,
) -> Tensor:
    """Gradient of cumprod."""
    _kernel = (
        x._data.__class__
        is out._data.__class__
        is out_grad._data.__class__
        and _k_cumprod_grad.get(x._data.__class__)
        or dispatch(
            "cumprod_grad",
            "cumprod_grad",
            x._data,
            out._data,
            out_grad._data,
        )
    )
    try:
        x_grad = wrap(_kernel(
            x._data,
            out._data,
            out_grad._data,
            dim,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cumprod_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.CumprodDoubleGradNode, (x, None, out_grad), x_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.dim = dim
    if FORWARD.active:
        _jvp.cumprod_grad(x, out, out_grad, dim, x_grad)
    return x_grad


def cumprod_double_grad(
    x: Tensor,
    out_grad: Tensor,
    x_grad_grad: Tensor,
    dim: int | None = None,
) -> tuple[Tensor, Tensor]:
    """Gradient of cumprod_grad (second-order gradient of cumprod; out is folded into x; exact with zeros)."""
    if (x._requires_grad or out_grad._requires_grad or x_grad_grad._requires_grad) and grad_enabled():
        raise _no_backward("cumprod_double_grad")
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        is x_grad_grad._data.__class__
        and _k_cumprod_double_grad.get(x._data.__class__)
        or dispatch(
            "cumprod_double_grad",
            "cumprod_double_grad",
            x._data,
            out_grad._data,
            x_grad_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            out_grad._data,
            x_grad_grad._data,
            dim,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cumprod_double_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("cumprod_double_grad", 2, _results) from None
    grad_wrt_x = wrap(_r0)
    grad_wrt_out_grad = wrap(_r1)
    if FORWARD.active:
        _jvp.cumprod_double_grad(x, out_grad, x_grad_grad, dim, grad_wrt_x, grad_wrt_out_grad)
    return (grad_wrt_x, grad_wrt_out_grad)


def topk_grad(
    x: TensorMeta,
    indices: Tensor,
    out_grad: Tensor,
    k: int,
    axis: int = -1,
    largest: bool = True,
    sorted: bool = True,
) -> Tensor:
    """Gradient of topk."""
    _kernel = (
        indices._data.__class__
        is out_grad._data.__class__
        and _k_topk_grad.get(indices._data.__class__)
        or dispatch("topk_grad", "topk_grad", indices._data, out_grad._data)
    )
    try:
        x_grad = wrap(_kernel(x, indices._data, out_grad._data, k, axis, largest, sorted))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("topk_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.TopkDoubleGradNode, (None, None, out_grad), x_grad)
        node.indices = TensorWrapper.of_input(indices)
        node.k = k
        node.axis = axis
        node.largest = largest
        node.sorted = sorted
    if FORWARD.active:
        _jvp.topk_grad(x, indices, out_grad, k, axis, largest, sorted, x_grad)
    return x_grad


def sort_grad(
    x: TensorMeta,
    indices: Tensor,
    out_grad: Tensor,
    axis: int = -1,
    descending: bool = False,
) -> Tensor:
    """Gradient of sort."""
    _kernel = (
        indices._data.__class__
        is out_grad._data.__class__
        and _k_sort_grad.get(indices._data.__class__)
        or dispatch("sort_grad", "sort_grad", indices._data, out_grad._data)
    )
    try:
        x_grad = wrap(_kernel(x, indices._data, out_grad._data, axis, descending))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sort_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.SortDoubleGradNode, (None, None, out_grad), x_grad)
        node.indices = TensorWrapper.of_input(indices)
        node.axis = axis
        node.descending = descending
    if FORWARD.active:
        _jvp.sort_grad(x, indices, out_grad, axis, descending, x_grad)
    return x_grad


def matmul_grad(
    x: Tensor,
    y: Tensor,
    out_grad: Tensor,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> tuple[Tensor, Tensor]:
    """Gradient of matmul."""
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is out_grad._data.__class__
        and _k_matmul_grad.get(x._data.__class__)
        or dispatch(
            "matmul_grad",
            "matmul_grad",
            x._data,
            y._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            y._data,
            out_grad._data,
            transpose_x,
            transpose_y,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matmul_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("matmul_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.MatmulDoubleGradNode, (x, y, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul_grad(x, y, out_grad, transpose_x, transpose_y, x_grad, y_grad)
    return (x_grad, y_grad)


def reshape_grad(
    x: TensorMeta,
    out_grad: Tensor,
    shape: Sequence[int] | int,
) -> Tensor:
    """Gradient of reshape."""
    _kernel = _k_reshape_grad.get(out_grad._data.__class__) or dispatch("reshape_grad", "reshape_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, shape)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reshape_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ReshapeDoubleGradNode, _result, None, out_grad)
        node.shape = shape
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.reshape_grad(x, out_grad, shape, x_grad)
    return x_grad


def transpose_grad(
    x: TensorMeta,
    out_grad: Tensor,
    perm: Sequence[int] | int,
) -> Tensor:
    """Gradient of transpose."""
    _kernel = _k_transpose_grad.get(out_grad._data.__class__) or dispatch("transpose_grad", "transpose_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, perm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("transpose_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.TransposeDoubleGradNode, _result, None, out_grad)
        node.perm = perm
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.transpose_grad(x, out_grad, perm, x_grad)
    return x_grad


def squeeze_grad(
    x: TensorMeta,
    out_grad: Tensor,
    axis: Sequence[int] | int = (),
) -> Tensor:
    """Gradient of squeeze."""
    _kernel = _k_squeeze_grad.get(out_grad._data.__class__) or dispatch("squeeze_grad", "squeeze_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("squeeze_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.SqueezeDoubleGradNode, _result, None, out_grad)
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.squeeze_grad(x, out_grad, axis, x_grad)
    return x_grad


def unsqueeze_grad(
    x: TensorMeta,
    out_grad: Tensor,
    axis: Sequence[int] | int,
) -> Tensor:
    """Gradient of unsqueeze."""
    _kernel = _k_unsqueeze_grad.get(out_grad._data.__class__) or dispatch("unsqueeze_grad", "unsqueeze_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("unsqueeze_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.UnsqueezeDoubleGradNode, _result, None, out_grad)
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.unsqueeze_grad(x, out_grad, axis, x_grad)
    return x_grad


def flatten_grad(
    x: TensorMeta,
    out_grad: Tensor,
    start_axis: int = 0,
    stop_axis: int = -1,
) -> Tensor:
    """Gradient of flatten."""
    _kernel = _k_flatten_grad.get(out_grad._data.__class__) or dispatch("flatten_grad", "flatten_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, start_axis, stop_axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("flatten_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.FlattenDoubleGradNode, _result, None, out_grad)
        node.start_axis = start_axis
        node.stop_axis = stop_axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.flatten_grad(x, out_grad, start_axis, stop_axis, x_grad)
    return x_grad


def expand_grad(
    x: TensorMeta,
    out_grad: Tensor,
    shape: Sequence[int] | int,
) -> Tensor:
    """Gradient of expand."""
    _kernel = _k_expand_grad.get(out_grad._data.__class__) or dispatch("expand_grad", "expand_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, shape)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("expand_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ExpandDoubleGradNode, _result, None, out_grad)
        node.shape = shape
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.expand_grad(x, out_grad, shape, x_grad)
    return x_grad


def concat_grad(
    x: list[TensorMeta],
    out_grad: Tensor,
    axis: int = 0,
) -> list[Tensor]:
    """Gradient of concat."""
    _kernel = _k_concat_grad.get(out_grad._data.__class__) or dispatch("concat_grad", "concat_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("concat_grad", _e) from None
    x_grad = [wrap(_a) for _a in _result]
    if out_grad._requires_grad and grad_enabled():
        node = _nodes.ConcatDoubleGradNode((*[None] * _builtins.len(x), out_grad))
        for _i, _t in _builtins.enumerate(x_grad):
            set_history(_t, node, _i)
        node._x_count = _builtins.len(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.concat_grad(x, out_grad, axis, x_grad)
    return x_grad


def stack_grad(
    x: list[TensorMeta],
    out_grad: Tensor,
    axis: int = 0,
) -> list[Tensor]:
    """Gradient of stack."""
    _kernel = _k_stack_grad.get(out_grad._data.__class__) or dispatch("stack_grad", "stack_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("stack_grad", _e) from None
    x_grad = [wrap(_a) for _a in _result]
    if out_grad._requires_grad and grad_enabled():
        node = _nodes.StackDoubleGradNode((*[None] * _builtins.len(x), out_grad))
        for _i, _t in _builtins.enumerate(x_grad):
            set_history(_t, node, _i)
        node._x_count = _builtins.len(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.stack_grad(x, out_grad, axis, x_grad)
    return x_grad


def split_grad(
    x: TensorMeta,
    out_grad: list[Tensor],
    num_or_sections: Sequence[int] | int,
    axis: int = 0,
) -> Tensor:
    """Gradient of split."""
    _out_grad_data = [_t._data for _t in out_grad]
    _kernel = dispatch(
        "split_grad",
        "split_grad",
        *_out_grad_data,
    )
    try:
        x_grad = wrap(_kernel(
            x,
            _out_grad_data,
            num_or_sections,
            axis,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("split_grad", _e) from None
    if _builtins.any(_t._requires_grad for _t in out_grad) and grad_enabled():
        node = new_node(_nodes.SplitDoubleGradNode, (None, *out_grad), x_grad)
        node.num_or_sections = num_or_sections
        node.axis = axis
    if FORWARD.active:
        _jvp.split_grad(x, out_grad, num_or_sections, axis, x_grad)
    return x_grad


def gather_grad(
    x: TensorMeta,
    index: Tensor,
    out_grad: Tensor,
    axis: int = 0,
) -> Tensor:
    """Gradient of gather."""
    _kernel = (
        index._data.__class__
        is out_grad._data.__class__
        and _k_gather_grad.get(index._data.__class__)
        or dispatch("gather_grad", "gather_grad", index._data, out_grad._data)
    )
    try:
        x_grad = wrap(_kernel(x, index._data, out_grad._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("gather_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.GatherDoubleGradNode, (None, None, out_grad), x_grad)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    if FORWARD.active:
        _jvp.gather_grad(x, index, out_grad, axis, x_grad)
    return x_grad


def index_select_grad(
    x: TensorMeta,
    index: Tensor,
    out_grad: Tensor,
    axis: int = 0,
) -> Tensor:
    """Gradient of index_select."""
    _kernel = (
        index._data.__class__
        is out_grad._data.__class__
        and _k_index_select_grad.get(index._data.__class__)
        or dispatch("index_select_grad", "index_select_grad", index._data, out_grad._data)
    )
    try:
        x_grad = wrap(_kernel(x, index._data, out_grad._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index_select_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.IndexSelectDoubleGradNode, (None, None, out_grad), x_grad)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    if FORWARD.active:
        _jvp.index_select_grad(x, index, out_grad, axis, x_grad)
    return x_grad


def tile_grad(
    x: TensorMeta,
    out_grad: Tensor,
    repeat_times: Sequence[int] | int,
) -> Tensor:
    """Gradient of tile."""
    _kernel = _k_tile_grad.get(out_grad._data.__class__) or dispatch("tile_grad", "tile_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, repeat_times)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tile_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.TileDoubleGradNode, _result, None, out_grad)
        node.repeat_times = repeat_times
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.tile_grad(x, out_grad, repeat_times, x_grad)
    return x_grad


def take_along_axis_grad(
    arr: TensorMeta,
    indices: Tensor,
    out_grad: Tensor,
    axis: int,
) -> Tensor:
    """Gradient of take_along_axis."""
    _kernel = (
        indices._data.__class__
        is out_grad._data.__class__
        and _k_take_along_axis_grad.get(indices._data.__class__)
        or dispatch("take_along_axis_grad", "take_along_axis_grad", indices._data, out_grad._data)
    )
    try:
        arr_grad = wrap(_kernel(arr, indices._data, out_grad._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("take_along_axis_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.TakeAlongAxisDoubleGradNode, (None, None, out_grad), arr_grad)
        node.indices = TensorWrapper.of_input(indices)
        node.axis = axis
    if FORWARD.active:
        _jvp.take_along_axis_grad(arr, indices, out_grad, axis, arr_grad)
    return arr_grad


def scatter_grad(
    x: TensorMeta,
    index: Tensor,
    updates: TensorMeta,
    out_grad: Tensor,
    overwrite: bool = True,
) -> tuple[Tensor, Tensor]:
    """Gradient of scatter."""
    _kernel = (
        index._data.__class__
        is out_grad._data.__class__
        and _k_scatter_grad.get(index._data.__class__)
        or dispatch("scatter_grad", "scatter_grad", index._data, out_grad._data)
    )
    try:
        _results = _kernel(x, index._data, updates, out_grad._data, overwrite)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scatter_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("scatter_grad", 2, _results) from None
    x_grad = wrap(_r0)
    updates_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.ScatterDoubleGradNode, (None, None, None, out_grad), x_grad)
        set_history(updates_grad, node, 1)
        node.index = TensorWrapper.of_input(index)
        node.overwrite = overwrite
    if FORWARD.active:
        _jvp.scatter_grad(x, index, updates, out_grad, overwrite, x_grad, updates_grad)
    return (x_grad, updates_grad)


def index_add_grad(
    x: TensorMeta,
    index: Tensor,
    value: TensorMeta,
    out_grad: Tensor,
    axis: int,
) -> tuple[Tensor, Tensor]:
    """Gradient of index_add."""
    _kernel = (
        index._data.__class__
        is out_grad._data.__class__
        and _k_index_add_grad.get(index._data.__class__)
        or dispatch("index_add_grad", "index_add_grad", index._data, out_grad._data)
    )
    try:
        _results = _kernel(x, index._data, value, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index_add_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("index_add_grad", 2, _results) from None
    x_grad = wrap(_r0)
    value_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.IndexAddDoubleGradNode, (None, None, None, out_grad), x_grad)
        set_history(value_grad, node, 1)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    if FORWARD.active:
        _jvp.index_add_grad(x, index, value, out_grad, axis, x_grad, value_grad)
    return (x_grad, value_grad)


def masked_fill_grad(
    mask: Tensor,
    out_grad: Tensor,
    value: float,
) -> Tensor:
    """Gradient of masked_fill."""
    _kernel = (
        mask._data.__class__
        is out_grad._data.__class__
        and _k_masked_fill_grad.get(mask._data.__class__)
        or dispatch("masked_fill_grad", "masked_fill_grad", mask._data, out_grad._data)
    )
    try:
        _result = _kernel(mask._data, out_grad._data, value)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("masked_fill_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.MaskedFillDoubleGradNode, _result, None, out_grad)
        node.mask = TensorWrapper.of_input(mask)
        node.value = value
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.masked_fill_grad(mask, out_grad, value, x_grad)
    return x_grad


def tril_grad(
    out_grad: Tensor,
    diagonal: int = 0,
) -> Tensor:
    """Gradient of tril."""
    _kernel = _k_tril_grad.get(out_grad._data.__class__) or dispatch("tril_grad", "tril_grad", out_grad._data)
    try:
        _result = _kernel(out_grad._data, diagonal)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tril_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.TrilDoubleGradNode, _result, out_grad)
        node.diagonal = diagonal
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.tril_grad(out_grad, diagonal, x_grad)
    return x_grad


def triu_grad(
    out_grad: Tensor,
    diagonal: int = 0,
) -> Tensor:
    """Gradient of triu."""
    _kernel = _k_triu_grad.get(out_grad._data.__class__) or dispatch("triu_grad", "triu_grad", out_grad._data)
    try:
        _result = _kernel(out_grad._data, diagonal)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("triu_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.TriuDoubleGradNode, _result, out_grad)
        node.diagonal = diagonal
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.triu_grad(out_grad, diagonal, x_grad)
    return x_grad


def pad_grad(
    x: TensorMeta,
    out_grad: Tensor,
    pad: Sequence[int] | int,
    mode: str = "constant",
    value: float = 0.0,
) -> Tensor:
    """Gradient of pad."""
    _kernel = _k_pad_grad.get(out_grad._data.__class__) or dispatch("pad_grad", "pad_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, pad, mode, value)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pad_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.PadDoubleGradNode, _result, None, out_grad)
        node.pad = pad
        node.mode = mode
        node.value = value
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.pad_grad(x, out_grad, pad, mode, value, x_grad)
    return x_grad


def roll_grad(
    out_grad: Tensor,
    shifts: Sequence[int] | int,
    axis: Sequence[int] | int | None = None,
) -> Tensor:
    """Gradient of roll."""
    _kernel = _k_roll_grad.get(out_grad._data.__class__) or dispatch("roll_grad", "roll_grad", out_grad._data)
    try:
        _result = _kernel(out_grad._data, shifts, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("roll_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.RollDoubleGradNode, _result, out_grad)
        node.shifts = shifts
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.roll_grad(out_grad, shifts, axis, x_grad)
    return x_grad


def repeat_interleave_grad(
    x: TensorMeta,
    out_grad: Tensor,
    repeats: int,
    axis: int | None = None,
) -> Tensor:
    """Gradient of repeat_interleave."""
    _kernel = _k_repeat_interleave_grad.get(out_grad._data.__class__) or dispatch("repeat_interleave_grad", "repeat_interleave_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, repeats, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("repeat_interleave_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.RepeatInterleaveDoubleGradNode, _result, None, out_grad)
        node.repeats = repeats
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.repeat_interleave_grad(x, out_grad, repeats, axis, x_grad)
    return x_grad


def flip_grad(
    out_grad: Tensor,
    axis: Sequence[int] | int,
) -> Tensor:
    """Gradient of flip."""
    _kernel = _k_flip_grad.get(out_grad._data.__class__) or dispatch("flip_grad", "flip_grad", out_grad._data)
    try:
        _result = _kernel(out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("flip_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.FlipDoubleGradNode, _result, out_grad)
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.flip_grad(out_grad, axis, x_grad)
    return x_grad


def softmax_grad(
    out: Tensor,
    out_grad: Tensor,
    axis: int = -1,
) -> Tensor:
    """Gradient of softmax."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_softmax_grad.get(out._data.__class__)
        or dispatch("softmax_grad", "softmax_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softmax_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.SoftmaxDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.softmax_grad(out, out_grad, axis, x_grad)
    return x_grad


def log_softmax_grad(
    out: Tensor,
    out_grad: Tensor,
    axis: int = -1,
) -> Tensor:
    """Gradient of log_softmax."""
    _kernel = (
        out._data.__class__
        is out_grad._data.__class__
        and _k_log_softmax_grad.get(out._data.__class__)
        or dispatch("log_softmax_grad", "log_softmax_grad", out._data, out_grad._data)
    )
    try:
        _result = _kernel(out._data, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log_softmax_grad", _e) from None
    if (out._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.LogSoftmaxDoubleGradNode, _result, out, out_grad)
        node.out = TensorWrapper.of_edge(out)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.log_softmax_grad(out, out_grad, axis, x_grad)
    return x_grad


def dropout_grad(
    mask: Tensor,
    out_grad: Tensor,
    p: float = 0.5,
    training: bool = True,
) -> Tensor:
    """Gradient of dropout."""
    _kernel = (
        mask._data.__class__
        is out_grad._data.__class__
        and _k_dropout_grad.get(mask._data.__class__)
        or dispatch("dropout_grad", "dropout_grad", mask._data, out_grad._data)
    )
    try:
        _result = _kernel(mask._data, out_grad._data, p, training)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("dropout_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.DropoutDoubleGradNode, _result, None, out_grad)
        node.mask = TensorWrapper.of_input(mask)
        node.p = p
        node.training = training
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.dropout_grad(mask, out_grad, p, training, x_grad)
    return x_grad


def embedding_grad(
    x: Tensor,
    weight: TensorMeta,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of embedding."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_embedding_grad.get(x._data.__class__)
        or dispatch("embedding_grad", "embedding_grad", x._data, out_grad._data)
    )
    try:
        weight_grad = wrap(_kernel(x._data, weight, out_grad._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("embedding_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.EmbeddingDoubleGradNode, (None, None, out_grad), weight_grad)
        node.x = TensorWrapper.of_input(x)
    if FORWARD.active:
        _jvp.embedding_grad(x, weight, out_grad, weight_grad)
    return weight_grad


def prelu_grad(
    x: Tensor,
    weight: Tensor,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of prelu."""
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is out_grad._data.__class__
        and _k_prelu_grad.get(x._data.__class__)
        or dispatch(
            "prelu_grad",
            "prelu_grad",
            x._data,
            weight._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            weight._data,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("prelu_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("prelu_grad", 2, _results) from None
    x_grad = wrap(_r0)
    weight_grad = wrap(_r1)
    if (x._requires_grad or weight._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.PreluDoubleGradNode, (x, weight, out_grad), x_grad)
        set_history(weight_grad, node, 1)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    if FORWARD.active:
        _jvp.prelu_grad(x, weight, out_grad, x_grad, weight_grad)
    return (x_grad, weight_grad)


def glu_grad(
    x: Tensor,
    out_grad: Tensor,
    axis: int = -1,
) -> Tensor:
    """Gradient of glu."""
    _kernel = (
        x._data.__class__
        is out_grad._data.__class__
        and _k_glu_grad.get(x._data.__class__)
        or dispatch("glu_grad", "glu_grad", x._data, out_grad._data)
    )
    try:
        _result = _kernel(x._data, out_grad._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("glu_grad", _e) from None
    if (x._requires_grad or out_grad._requires_grad) and grad_enabled():
        x_grad, node = recorded(_nodes.GluDoubleGradNode, _result, x, out_grad)
        node.x = TensorWrapper.of_edge(x)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.glu_grad(x, out_grad, axis, x_grad)
    return x_grad


def cross_entropy_grad(
    input: Tensor,
    label: Tensor,
    prob: Tensor,
    out_grad: Tensor,
    axis: int = -1,
    reduction: str = "mean",
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> Tensor:
    """Gradient of cross_entropy."""
    _kernel = (
        input._data.__class__
        is label._data.__class__
        is prob._data.__class__
        is out_grad._data.__class__
        and _k_cross_entropy_grad_saved.get(input._data.__class__)
        or dispatch(
            "cross_entropy_grad",
            "cross_entropy_grad_saved",
            input._data,
            label._data,
            prob._data,
            out_grad._data,
        )
    )
    try:
        input_grad = wrap(_kernel(
            input._data,
            label._data,
            prob._data,
            out_grad._data,
            axis,
            reduction,
            ignore_index,
            label_smoothing,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cross_entropy_grad", _e) from None
    if (input._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.CrossEntropyDoubleGradNode, (input, None, None, out_grad), input_grad)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_input(label)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.axis = axis
        node.reduction = reduction
        node.ignore_index = ignore_index
        node.label_smoothing = label_smoothing
    if FORWARD.active:
        _jvp.cross_entropy_grad(input, label, prob, out_grad, axis, reduction, ignore_index, label_smoothing, input_grad)
    return input_grad


def cross_entropy_double_grad(
    input: Tensor,
    label: Tensor,
    out_grad: Tensor,
    input_grad_grad: Tensor,
    axis: int = -1,
    reduction: str = "mean",
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> tuple[Tensor, Tensor]:
    """Gradient of cross_entropy_grad (second-order gradient of cross_entropy)."""
    _kernel = (
        input._data.__class__
        is label._data.__class__
        is out_grad._data.__class__
        is input_grad_grad._data.__class__
        and _k_cross_entropy_double_grad.get(input._data.__class__)
        or dispatch(
            "cross_entropy_double_grad",
            "cross_entropy_double_grad",
            input._data,
            label._data,
            out_grad._data,
            input_grad_grad._data,
        )
    )
    try:
        _results = _kernel(
            input._data,
            label._data,
            out_grad._data,
            input_grad_grad._data,
            axis,
            reduction,
            ignore_index,
            label_smoothing,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cross_entropy_double_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("cross_entropy_double_grad", 2, _results) from None
    grad_wrt_input = wrap(_r0)
    grad_wrt_out_grad = wrap(_r1)
    if (input._requires_grad or out_grad._requires_grad or input_grad_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.CrossEntropyTripleGradNode, (input, None, out_grad, input_grad_grad), grad_wrt_input)
        set_history(grad_wrt_out_grad, node, 1)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_input(label)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.input_grad_grad = TensorWrapper.of_edge(input_grad_grad)
        node.axis = axis
        node.reduction = reduction
        node.ignore_index = ignore_index
        node.label_smoothing = label_smoothing
    if FORWARD.active:
        _jvp.cross_entropy_double_grad(input, label, out_grad, input_grad_grad, axis, reduction, ignore_index, label_smoothing, grad_wrt_input, grad_wrt_out_grad)
    return (grad_wrt_input, grad_wrt_out_grad)


def mse_loss_grad(
    input: Tensor,
    label: Tensor,
    out_grad: Tensor,
    reduction: str = "mean",
) -> tuple[Tensor, Tensor]:
    """Gradient of mse_loss."""
    _kernel = (
        input._data.__class__
        is label._data.__class__
        is out_grad._data.__class__
        and _k_mse_loss_grad.get(input._data.__class__)
        or dispatch(
            "mse_loss_grad",
            "mse_loss_grad",
            input._data,
            label._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            input._data,
            label._data,
            out_grad._data,
            reduction,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mse_loss_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("mse_loss_grad", 2, _results) from None
    input_grad = wrap(_r0)
    label_grad = wrap(_r1)
    if (input._requires_grad or label._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.MseLossDoubleGradNode, (input, label, out_grad), input_grad)
        set_history(label_grad, node, 1)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_edge(label)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.reduction = reduction
    if FORWARD.active:
        _jvp.mse_loss_grad(input, label, out_grad, reduction, input_grad, label_grad)
    return (input_grad, label_grad)


def nll_loss_grad(
    input: TensorMeta,
    label: Tensor,
    weight: Tensor | None,
    out_grad: Tensor,
    ignore_index: int = -100,
    reduction: str = "mean",
) -> Tensor:
    """Gradient of nll_loss."""
    _weight_data = None if weight is None else weight._data
    _kernel = (
        label._data.__class__
        is out_grad._data.__class__
        is _weight_data.__class__
        and _k_nll_loss_grad.get(label._data.__class__)
        or dispatch(
            "nll_loss_grad",
            "nll_loss_grad",
            label._data,
            out_grad._data,
            _weight_data,
        )
    )
    try:
        input_grad = wrap(_kernel(
            input,
            label._data,
            _weight_data,
            out_grad._data,
            ignore_index,
            reduction,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("nll_loss_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.NllLossDoubleGradNode, (None, None, None, out_grad), input_grad)
        node.label = TensorWrapper.of_input(label)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.ignore_index = ignore_index
        node.reduction = reduction
    if FORWARD.active:
        _jvp.nll_loss_grad(input, label, weight, out_grad, ignore_index, reduction, input_grad)
    return input_grad


def binary_cross_entropy_with_logits_grad(
    logit: Tensor,
    label: Tensor,
    weight: Tensor | None,
    pos_weight: Tensor | None,
    out_grad: Tensor,
    reduction: str = "mean",
) -> tuple[Tensor, Tensor]:
    """Gradient of binary_cross_entropy_with_logits."""
    _weight_data = None if weight is None else weight._data
    _pos_weight_data = None if pos_weight is None else pos_weight._data
    _kernel = (
        logit._data.__class__
        is label._data.__class__
        is out_grad._data.__class__
        is _weight_data.__class__
        is _pos_weight_data.__class__
        and _k_binary_cross_entropy_with_logits_grad.get(logit._data.__class__)
        or dispatch(
            "binary_cross_entropy_with_logits_grad",
            "binary_cross_entropy_with_logits_grad",
            logit._data,
            label._data,
            out_grad._data,
            _weight_data,
            _pos_weight_data,
        )
    )
    try:
        _results = _kernel(
            logit._data,
            label._data,
            _weight_data,
            _pos_weight_data,
            out_grad._data,
            reduction,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("binary_cross_entropy_with_logits_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("binary_cross_entropy_with_logits_grad", 2, _results) from None
    logit_grad = wrap(_r0)
    label_grad = wrap(_r1)
    if (logit._requires_grad or label._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.BinaryCrossEntropyWithLogitsDoubleGradNode, (logit, label, None, None, out_grad), logit_grad)
        set_history(label_grad, node, 1)
        node.logit = TensorWrapper.of_edge(logit)
        node.label = TensorWrapper.of_edge(label)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.pos_weight = None if pos_weight is None else TensorWrapper.of_input(pos_weight)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.reduction = reduction
    if FORWARD.active:
        _jvp.binary_cross_entropy_with_logits_grad(logit, label, weight, pos_weight, out_grad, reduction, logit_grad, label_grad)
    return (logit_grad, label_grad)


def l1_loss_grad(
    input: Tensor,
    label: Tensor,
    out_grad: Tensor,
    reduction: str = "mean",
) -> tuple[Tensor, Tensor]:
    """Gradient of l1_loss."""
    _kernel = (
        input._data.__class__
        is label._data.__class__
        is out_grad._data.__class__
        and _k_l1_loss_grad.get(input._data.__class__)
        or dispatch(
            "l1_loss_grad",
            "l1_loss_grad",
            input._data,
            label._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            input._data,
            label._data,
            out_grad._data,
            reduction,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("l1_loss_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("l1_loss_grad", 2, _results) from None
    input_grad = wrap(_r0)
    label_grad = wrap(_r1)
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.L1LossDoubleGradNode, (None, None, out_grad), input_grad)
        set_history(label_grad, node, 1)
        node.input = TensorWrapper.of_input(input)
        node.label = TensorWrapper.of_input(label)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.reduction = reduction
    if FORWARD.active:
        _jvp.l1_loss_grad(input, label, out_grad, reduction, input_grad, label_grad)
    return (input_grad, label_grad)


def smooth_l1_loss_grad(
    input: Tensor,
    label: Tensor,
    out_grad: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
) -> tuple[Tensor, Tensor]:
    """Gradient of smooth_l1_loss."""
    _kernel = (
        input._data.__class__
        is label._data.__class__
        is out_grad._data.__class__
        and _k_smooth_l1_loss_grad.get(input._data.__class__)
        or dispatch(
            "smooth_l1_loss_grad",
            "smooth_l1_loss_grad",
            input._data,
            label._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            input._data,
            label._data,
            out_grad._data,
            reduction,
            delta,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("smooth_l1_loss_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("smooth_l1_loss_grad", 2, _results) from None
    input_grad = wrap(_r0)
    label_grad = wrap(_r1)
    if (input._requires_grad or label._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.SmoothL1LossDoubleGradNode, (input, label, out_grad), input_grad)
        set_history(label_grad, node, 1)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_edge(label)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.reduction = reduction
        node.delta = delta
    if FORWARD.active:
        _jvp.smooth_l1_loss_grad(input, label, out_grad, reduction, delta, input_grad, label_grad)
    return (input_grad, label_grad)


def kl_div_grad(
    input: Tensor,
    label: Tensor,
    out_grad: Tensor,
    reduction: str = "mean",
    log_target: bool = False,
) -> tuple[Tensor, Tensor]:
    """Gradient of kl_div."""
    _kernel = (
        input._data.__class__
        is label._data.__class__
        is out_grad._data.__class__
        and _k_kl_div_grad.get(input._data.__class__)
        or dispatch(
            "kl_div_grad",
            "kl_div_grad",
            input._data,
            label._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            input._data,
            label._data,
            out_grad._data,
            reduction,
            log_target,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("kl_div_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("kl_div_grad", 2, _results) from None
    input_grad = wrap(_r0)
    label_grad = wrap(_r1)
    if (input._requires_grad or label._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.KlDivDoubleGradNode, (input, label, out_grad), input_grad)
        set_history(label_grad, node, 1)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_edge(label)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.reduction = reduction
        node.log_target = log_target
    if FORWARD.active:
        _jvp.kl_div_grad(input, label, out_grad, reduction, log_target, input_grad, label_grad)
    return (input_grad, label_grad)


def conv2d_grad(
    x: Tensor,
    weight: Tensor,
    bias: TensorMeta | None,
    out_grad: Tensor,
    stride: Sequence[int] | int = (1, 1),
    padding: Sequence[int] | int = (0, 0),
    dilation: Sequence[int] | int = (1, 1),
    groups: int = 1,
) -> tuple[Tensor, Tensor, Tensor | None]:
    """Gradient of conv2d."""
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is out_grad._data.__class__
        and _k_conv2d_grad.get(x._data.__class__)
        or dispatch(
            "conv2d_grad",
            "conv2d_grad",
            x._data,
            weight._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            weight._data,
            bias,
            out_grad._data,
            stride,
            padding,
            dilation,
            groups,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("conv2d_grad", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("conv2d_grad", 3, _results) from None
    x_grad = wrap(_r0)
    weight_grad = wrap(_r1)
    bias_grad = None if _r2 is None else wrap(_r2)
    if (x._requires_grad or weight._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.Conv2dDoubleGradNode, (x, weight, None, out_grad), x_grad)
        set_history(weight_grad, node, 1)
        if bias_grad is not None:
            set_history(bias_grad, node, 2)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.stride = stride
        node.padding = padding
        node.dilation = dilation
        node.groups = groups
    if FORWARD.active:
        _jvp.conv2d_grad(x, weight, bias, out_grad, stride, padding, dilation, groups, x_grad, weight_grad, bias_grad)
    return (x_grad, weight_grad, bias_grad)


def conv3d_grad(
    x: Tensor,
    weight: Tensor,
    bias: TensorMeta | None,
    out_grad: Tensor,
    stride: Sequence[int] | int = (1, 1, 1),
    padding: Sequence[int] | int = (0, 0, 0),
    dilation: Sequence[int] | int = (1, 1, 1),
    groups: int = 1,
) -> tuple[Tensor, Tensor, Tensor | None]:
    """Gradient of conv3d."""
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is out_grad._data.__class__
        and _k_conv3d_grad.get(x._data.__class__)
        or dispatch(
            "conv3d_grad",
            "conv3d_grad",
            x._data,
            weight._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            weight._data,
            bias,
            out_grad._data,
            stride,
            padding,
            dilation,
            groups,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("conv3d_grad", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("conv3d_grad", 3, _results) from None
    x_grad = wrap(_r0)
    weight_grad = wrap(_r1)
    bias_grad = None if _r2 is None else wrap(_r2)
    if (x._requires_grad or weight._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.Conv3dDoubleGradNode, (x, weight, None, out_grad), x_grad)
        set_history(weight_grad, node, 1)
        if bias_grad is not None:
            set_history(bias_grad, node, 2)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.stride = stride
        node.padding = padding
        node.dilation = dilation
        node.groups = groups
    if FORWARD.active:
        _jvp.conv3d_grad(x, weight, bias, out_grad, stride, padding, dilation, groups, x_grad, weight_grad, bias_grad)
    return (x_grad, weight_grad, bias_grad)


def max_pool2d_grad(
    x: TensorMeta,
    argmax: Tensor,
    out_grad: Tensor,
    kernel_size: Sequence[int] | int,
    stride: Sequence[int] | int | None = None,
    padding: Sequence[int] | int = (0, 0),
) -> Tensor:
    """Gradient of max_pool2d."""
    _kernel = (
        argmax._data.__class__
        is out_grad._data.__class__
        and _k_max_pool2d_grad.get(argmax._data.__class__)
        or dispatch("max_pool2d_grad", "max_pool2d_grad", argmax._data, out_grad._data)
    )
    try:
        x_grad = wrap(_kernel(x, argmax._data, out_grad._data, kernel_size, stride, padding))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("max_pool2d_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        node = new_node(_nodes.MaxPool2dDoubleGradNode, (None, None, out_grad), x_grad)
        node.argmax = TensorWrapper.of_input(argmax)
        node.kernel_size = kernel_size
        node.stride = stride
        node.padding = padding
    if FORWARD.active:
        _jvp.max_pool2d_grad(x, argmax, out_grad, kernel_size, stride, padding, x_grad)
    return x_grad


def max_pool2d_double_grad(
    argmax: Tensor,
    x_grad_grad: Tensor,
    kernel_size: Sequence[int] | int,
    stride: Sequence[int] | int | None = None,
    padding: Sequence[int] | int = (0, 0),
) -> Tensor:
    """Gradient of max_pool2d_grad (second-order gradient of max_pool2d)."""
    if (argmax._requires_grad or x_grad_grad._requires_grad) and grad_enabled():
        raise _no_backward("max_pool2d_double_grad")
    _kernel = (
        argmax._data.__class__
        is x_grad_grad._data.__class__
        and _k_max_pool2d_double_grad.get(argmax._data.__class__)
        or dispatch("max_pool2d_double_grad", "max_pool2d_double_grad", argmax._data, x_grad_grad._data)
    )
    try:
        grad_wrt_out_grad = wrap(_kernel(argmax._data, x_grad_grad._data, kernel_size, stride, padding))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("max_pool2d_double_grad", _e) from None
    if FORWARD.active:
        _jvp.max_pool2d_double_grad(argmax, x_grad_grad, kernel_size, stride, padding, grad_wrt_out_grad)
    return grad_wrt_out_grad


def avg_pool2d_grad(
    x: TensorMeta,
    out_grad: Tensor,
    kernel_size: Sequence[int] | int,
    stride: Sequence[int] | int | None = None,
    padding: Sequence[int] | int = (0, 0),
) -> Tensor:
    """Gradient of avg_pool2d."""
    _kernel = _k_avg_pool2d_grad.get(out_grad._data.__class__) or dispatch("avg_pool2d_grad", "avg_pool2d_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, kernel_size, stride, padding)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("avg_pool2d_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.AvgPool2dDoubleGradNode, _result, None, out_grad)
        node.kernel_size = kernel_size
        node.stride = stride
        node.padding = padding
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.avg_pool2d_grad(x, out_grad, kernel_size, stride, padding, x_grad)
    return x_grad


def adaptive_avg_pool2d_grad(
    x: TensorMeta,
    out_grad: Tensor,
    output_size: Sequence[int] | int,
) -> Tensor:
    """Gradient of adaptive_avg_pool2d."""
    _kernel = _k_adaptive_avg_pool2d_grad.get(out_grad._data.__class__) or dispatch("adaptive_avg_pool2d_grad", "adaptive_avg_pool2d_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, output_size)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("adaptive_avg_pool2d_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.AdaptiveAvgPool2dDoubleGradNode, _result, None, out_grad)
        node.output_size = output_size
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.adaptive_avg_pool2d_grad(x, out_grad, output_size, x_grad)
    return x_grad


def layer_norm_grad(
    x: Tensor,
    weight: Tensor | None,
    bias: TensorMeta | None,
    mean: Tensor,
    rstd: Tensor,
    out_grad: Tensor,
    normalized_shape: Sequence[int] | int,
    epsilon: float = 1e-05,
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Gradient of layer_norm."""
    _weight_data = None if weight is None else weight._data
    _kernel = (
        x._data.__class__
        is mean._data.__class__
        is rstd._data.__class__
        is out_grad._data.__class__
        is _weight_data.__class__
        and _k_layer_norm_grad.get(x._data.__class__)
        or dispatch(
            "layer_norm_grad",
            "layer_norm_grad",
            x._data,
            mean._data,
            rstd._data,
            out_grad._data,
            _weight_data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            _weight_data,
            bias,
            mean._data,
            rstd._data,
            out_grad._data,
            normalized_shape,
            epsilon,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("layer_norm_grad", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("layer_norm_grad", 3, _results) from None
    x_grad = wrap(_r0)
    weight_grad = None if _r1 is None else wrap(_r1)
    bias_grad = None if _r2 is None else wrap(_r2)
    if (x._requires_grad or (weight is not None and weight._requires_grad) or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.LayerNormDoubleGradNode, (x, weight, None, None, None, out_grad), x_grad)
        if weight_grad is not None:
            set_history(weight_grad, node, 1)
        if bias_grad is not None:
            set_history(bias_grad, node, 2)
        node.x = TensorWrapper.of_edge(x)
        node.weight = None if weight is None else TensorWrapper.of_edge(weight)
        node.mean = TensorWrapper.of_input(mean)
        node.rstd = TensorWrapper.of_input(rstd)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.normalized_shape = normalized_shape
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.layer_norm_grad(x, weight, bias, mean, rstd, out_grad, normalized_shape, epsilon, x_grad, weight_grad, bias_grad)
    return (x_grad, weight_grad, bias_grad)


def batch_norm_grad(
    x: Tensor,
    weight: Tensor | None,
    bias: TensorMeta | None,
    saved_mean: Tensor,
    saved_rstd: Tensor,
    out_grad: Tensor,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Gradient of batch_norm."""
    _weight_data = None if weight is None else weight._data
    _kernel = (
        x._data.__class__
        is saved_mean._data.__class__
        is saved_rstd._data.__class__
        is out_grad._data.__class__
        is _weight_data.__class__
        and _k_batch_norm_grad.get(x._data.__class__)
        or dispatch(
            "batch_norm_grad",
            "batch_norm_grad",
            x._data,
            saved_mean._data,
            saved_rstd._data,
            out_grad._data,
            _weight_data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            _weight_data,
            bias,
            saved_mean._data,
            saved_rstd._data,
            out_grad._data,
            training,
            momentum,
            epsilon,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("batch_norm_grad", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("batch_norm_grad", 3, _results) from None
    x_grad = wrap(_r0)
    weight_grad = None if _r1 is None else wrap(_r1)
    bias_grad = None if _r2 is None else wrap(_r2)
    if (x._requires_grad or (weight is not None and weight._requires_grad) or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.BatchNormDoubleGradNode, (x, weight, None, None, None, out_grad), x_grad)
        if weight_grad is not None:
            set_history(weight_grad, node, 1)
        if bias_grad is not None:
            set_history(bias_grad, node, 2)
        node.x = TensorWrapper.of_edge(x)
        node.weight = None if weight is None else TensorWrapper.of_edge(weight)
        node.saved_mean = TensorWrapper.of_input(saved_mean)
        node.saved_rstd = TensorWrapper.of_input(saved_rstd)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.training = training
        node.momentum = momentum
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.batch_norm_grad(x, weight, bias, saved_mean, saved_rstd, out_grad, training, momentum, epsilon, x_grad, weight_grad, bias_grad)
    return (x_grad, weight_grad, bias_grad)


def group_norm_grad(
    x: Tensor,
    weight: Tensor | None,
    bias: TensorMeta | None,
    mean: Tensor,
    rstd: Tensor,
    out_grad: Tensor,
    num_groups: int,
    epsilon: float = 1e-05,
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Gradient of group_norm."""
    _weight_data = None if weight is None else weight._data
    _kernel = (
        x._data.__class__
        is mean._data.__class__
        is rstd._data.__class__
        is out_grad._data.__class__
        is _weight_data.__class__
        and _k_group_norm_grad.get(x._data.__class__)
        or dispatch(
            "group_norm_grad",
            "group_norm_grad",
            x._data,
            mean._data,
            rstd._data,
            out_grad._data,
            _weight_data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            _weight_data,
            bias,
            mean._data,
            rstd._data,
            out_grad._data,
            num_groups,
            epsilon,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("group_norm_grad", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("group_norm_grad", 3, _results) from None
    x_grad = wrap(_r0)
    weight_grad = None if _r1 is None else wrap(_r1)
    bias_grad = None if _r2 is None else wrap(_r2)
    if (x._requires_grad or (weight is not None and weight._requires_grad) or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.GroupNormDoubleGradNode, (x, weight, None, None, None, out_grad), x_grad)
        if weight_grad is not None:
            set_history(weight_grad, node, 1)
        if bias_grad is not None:
            set_history(bias_grad, node, 2)
        node.x = TensorWrapper.of_edge(x)
        node.weight = None if weight is None else TensorWrapper.of_edge(weight)
        node.mean = TensorWrapper.of_input(mean)
        node.rstd = TensorWrapper.of_input(rstd)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.num_groups = num_groups
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.group_norm_grad(x, weight, bias, mean, rstd, out_grad, num_groups, epsilon, x_grad, weight_grad, bias_grad)
    return (x_grad, weight_grad, bias_grad)


def linear_grad(
    x: Tensor,
    weight: Tensor,
    bias: TensorMeta | None,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor, Tensor | None]:
    """Gradient of linear."""
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is out_grad._data.__class__
        and _k_linear_grad.get(x._data.__class__)
        or dispatch(
            "linear_grad",
            "linear_grad",
            x._data,
            weight._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            weight._data,
            bias,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("linear_grad", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("linear_grad", 3, _results) from None
    x_grad = wrap(_r0)
    weight_grad = wrap(_r1)
    bias_grad = None if _r2 is None else wrap(_r2)
    if (x._requires_grad or weight._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.LinearDoubleGradNode, (x, weight, None, out_grad), x_grad)
        set_history(weight_grad, node, 1)
        if bias_grad is not None:
            set_history(bias_grad, node, 2)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    if FORWARD.active:
        _jvp.linear_grad(x, weight, bias, out_grad, x_grad, weight_grad, bias_grad)
    return (x_grad, weight_grad, bias_grad)


def einsum_grad(
    x: Tensor,
    y: Tensor,
    out_grad: Tensor,
    equation: str,
) -> tuple[Tensor, Tensor]:
    """Gradient of einsum."""
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is out_grad._data.__class__
        and _k_einsum_grad.get(x._data.__class__)
        or dispatch(
            "einsum_grad",
            "einsum_grad",
            x._data,
            y._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            y._data,
            out_grad._data,
            equation,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("einsum_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("einsum_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.EinsumDoubleGradNode, (x, y, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.equation = equation
    if FORWARD.active:
        _jvp.einsum_grad(x, y, out_grad, equation, x_grad, y_grad)
    return (x_grad, y_grad)


def scaled_dot_product_attention_grad(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    mask: Tensor | None,
    weights: Tensor,
    keep: Tensor,
    out_grad: Tensor,
    dropout_p: float = 0.0,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor | None]:
    """Gradient of scaled_dot_product_attention."""
    _mask_data = None if mask is None else mask._data
    _kernel = (
        query._data.__class__
        is key._data.__class__
        is value._data.__class__
        is weights._data.__class__
        is keep._data.__class__
        is out_grad._data.__class__
        is _mask_data.__class__
        and _k_scaled_dot_product_attention_grad.get(query._data.__class__)
        or dispatch(
            "scaled_dot_product_attention_grad",
            "scaled_dot_product_attention_grad",
            query._data,
            key._data,
            value._data,
            weights._data,
            keep._data,
            out_grad._data,
            _mask_data,
        )
    )
    try:
        _results = _kernel(
            query._data,
            key._data,
            value._data,
            _mask_data,
            weights._data,
            keep._data,
            out_grad._data,
            dropout_p,
            causal,
            scale,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scaled_dot_product_attention_grad", _e) from None
    try:
        _r0, _r1, _r2, _r3 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("scaled_dot_product_attention_grad", 4, _results) from None
    query_grad = wrap(_r0)
    key_grad = wrap(_r1)
    value_grad = wrap(_r2)
    mask_grad = None if _r3 is None else wrap(_r3)
    if (query._requires_grad or key._requires_grad or value._requires_grad or (mask is not None and mask._requires_grad) or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.ScaledDotProductAttentionDoubleGradNode, (query, key, value, mask, None, None, out_grad), query_grad)
        set_history(key_grad, node, 1)
        set_history(value_grad, node, 2)
        if mask_grad is not None:
            set_history(mask_grad, node, 3)
        node.query = TensorWrapper.of_edge(query)
        node.key = TensorWrapper.of_edge(key)
        node.value = TensorWrapper.of_edge(value)
        node.mask = None if mask is None else TensorWrapper.of_edge(mask)
        node.weights = TensorWrapper.of_input(weights)
        node.keep = TensorWrapper.of_input(keep)
        node.out_grad = TensorWrapper.of_edge(out_grad)
        node.dropout_p = dropout_p
        node.causal = causal
        node.scale = scale
    if FORWARD.active:
        _jvp.scaled_dot_product_attention_grad(query, key, value, mask, weights, keep, out_grad, dropout_p, causal, scale, query_grad, key_grad, value_grad, mask_grad)
    return (query_grad, key_grad, value_grad, mask_grad)


def unfold_grad(
    x: TensorMeta,
    out_grad: Tensor,
    kernel_size: Sequence[int] | int,
    dilation: Sequence[int] | int = (1,),
    padding: Sequence[int] | int = (0,),
    stride: Sequence[int] | int = (1,),
) -> Tensor:
    """Gradient of unfold."""
    _kernel = _k_unfold_grad.get(out_grad._data.__class__) or dispatch("unfold_grad", "unfold_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, kernel_size, dilation, padding, stride)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("unfold_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.UnfoldDoubleGradNode, _result, None, out_grad)
        node.kernel_size = kernel_size
        node.dilation = dilation
        node.padding = padding
        node.stride = stride
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.unfold_grad(x, out_grad, kernel_size, dilation, padding, stride, x_grad)
    return x_grad


def fill_grad(
    x: TensorMeta,
    out_grad: Tensor,
    value: float,
) -> Tensor:
    """Zeros shaped like x (fill's result does not depend on x)."""
    _kernel = _k_fill_grad.get(out_grad._data.__class__) or dispatch("fill_grad", "fill_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, value)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fill_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.FillDoubleGradNode, _result, None, out_grad)
        node.value = value
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.fill_grad(x, out_grad, value, x_grad)
    return x_grad


def zero_grad(
    x: TensorMeta,
    out_grad: Tensor,
) -> Tensor:
    """Zeros shaped like x (zero's result does not depend on x)."""
    _kernel = _k_zero_grad.get(out_grad._data.__class__) or dispatch("zero_grad", "zero_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("zero_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ZeroDoubleGradNode, _result, None, out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.zero_grad(x, out_grad, x_grad)
    return x_grad


def reduce_as_grad(
    x: TensorMeta,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of reduce_as, out_grad broadcast back to the shape of x."""
    _kernel = _k_reduce_as_grad.get(out_grad._data.__class__) or dispatch("reduce_as_grad", "reduce_as_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reduce_as_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ReduceAsDoubleGradNode, _result, None, out_grad)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.reduce_as_grad(x, out_grad, x_grad)
    return x_grad


def diagonal_grad(
    x: TensorMeta,
    out_grad: Tensor,
    offset: int = 0,
    axis1: int = 0,
    axis2: int = 1,
) -> Tensor:
    """Gradient of diagonal."""
    _kernel = _k_diagonal_grad.get(out_grad._data.__class__) or dispatch("diagonal_grad", "diagonal_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, offset, axis1, axis2)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("diagonal_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.DiagonalDoubleGradNode, _result, None, out_grad)
        node.offset = offset
        node.axis1 = axis1
        node.axis2 = axis2
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.diagonal_grad(x, out_grad, offset, axis1, axis2, x_grad)
    return x_grad


def kron_grad(
    x: Tensor,
    y: Tensor,
    out_grad: Tensor,
) -> tuple[Tensor, Tensor]:
    """Gradient of kron."""
    _kernel = (
        x._data.__class__
        is y._data.__class__
        is out_grad._data.__class__
        and _k_kron_grad.get(x._data.__class__)
        or dispatch(
            "kron_grad",
            "kron_grad",
            x._data,
            y._data,
            out_grad._data,
        )
    )
    try:
        _results = _kernel(
            x._data,
            y._data,
            out_grad._data,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("kron_grad", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("kron_grad", 2, _results) from None
    x_grad = wrap(_r0)
    y_grad = wrap(_r1)
    if (x._requires_grad or y._requires_grad or out_grad._requires_grad) and grad_enabled():
        node = new_node(_nodes.KronDoubleGradNode, (x, y, out_grad), x_grad)
        set_history(y_grad, node, 1)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out_grad = TensorWrapper.of_edge(out_grad)
    if FORWARD.active:
        _jvp.kron_grad(x, y, out_grad, x_grad, y_grad)
    return (x_grad, y_grad)


def real_grad(
    x: TensorMeta,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of real."""
    _kernel = _k_real_grad.get(out_grad._data.__class__) or dispatch("real_grad", "real_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("real_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.RealDoubleGradNode, _result, None, out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.real_grad(x, out_grad, x_grad)
    return x_grad


def imag_grad(
    x: TensorMeta,
    out_grad: Tensor,
) -> Tensor:
    """Gradient of imag."""
    _kernel = _k_imag_grad.get(out_grad._data.__class__) or dispatch("imag_grad", "imag_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("imag_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.ImagDoubleGradNode, _result, None, out_grad)
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.imag_grad(x, out_grad, x_grad)
    return x_grad


def fftn_grad(
    x: TensorMeta,
    out_grad: Tensor,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """Gradient of fftn."""
    _kernel = _k_fftn_grad.get(out_grad._data.__class__) or dispatch("fftn_grad", "fftn_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fftn_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.FftnDoubleGradNode, _result, None, out_grad)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.fftn_grad(x, out_grad, s, axes, norm, x_grad)
    return x_grad


def ifftn_grad(
    x: TensorMeta,
    out_grad: Tensor,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """Gradient of ifftn."""
    _kernel = _k_ifftn_grad.get(out_grad._data.__class__) or dispatch("ifftn_grad", "ifftn_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("ifftn_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.IfftnDoubleGradNode, _result, None, out_grad)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.ifftn_grad(x, out_grad, s, axes, norm, x_grad)
    return x_grad


def rfftn_grad(
    x: TensorMeta,
    out_grad: Tensor,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """Gradient of rfftn."""
    _kernel = _k_rfftn_grad.get(out_grad._data.__class__) or dispatch("rfftn_grad", "rfftn_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("rfftn_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.RfftnDoubleGradNode, _result, None, out_grad)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.rfftn_grad(x, out_grad, s, axes, norm, x_grad)
    return x_grad


def irfftn_grad(
    x: TensorMeta,
    out_grad: Tensor,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """Gradient of irfftn."""
    _kernel = _k_irfftn_grad.get(out_grad._data.__class__) or dispatch("irfftn_grad", "irfftn_grad", out_grad._data)
    try:
        _result = _kernel(x, out_grad._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("irfftn_grad", _e) from None
    if out_grad._requires_grad and grad_enabled():
        x_grad, node = recorded(_nodes.IrfftnDoubleGradNode, _result, None, out_grad)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        x_grad = wrap(_result)
    if FORWARD.active:
        _jvp.irfftn_grad(x, out_grad, s, axes, norm, x_grad)
    return x_grad


# The grad ops whose body has the one plain shape of codegen/plan_fast.py: (name, kernel
# table, node class, recorded's inputs, saves (slot, how, input or -1: the output), dtype
# test, jvp). With the optional C primitives built, `_accel.ops` replaces each by a C
# callable that runs that body's common case and calls this function for everything else.
_accel.ops(
    globals(),
    [
        ("neg_grad", "_k_neg_grad", "NegDoubleGradNode", (0,), (), "", True, (False,)),
        ("abs_grad", "_k_abs_grad", "AbsDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("exp_grad", "_k_exp_grad", "ExpDoubleGradNode", (0, 1), (("out", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("expm1_grad", "_k_expm1_grad", "Expm1DoubleGradNode", (0, 1), (("out", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("log_grad", "_k_log_grad", "LogDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("log1p_grad", "_k_log1p_grad", "Log1pDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("sqrt_grad", "_k_sqrt_grad", "SqrtDoubleGradNode", (0, 1), (("out", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("rsqrt_grad", "_k_rsqrt_grad", "RsqrtDoubleGradNode", (0, 1), (("out", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("square_grad", "_k_square_grad", "SquareDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("reciprocal_grad", "_k_reciprocal_grad", "ReciprocalDoubleGradNode", (0, 1), (("out", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("sin_grad", "_k_sin_grad", "SinDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("cos_grad", "_k_cos_grad", "CosDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("tanh_grad", "_k_tanh_grad", "TanhDoubleGradNode", (0, 1), (("out", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("sigmoid_grad", "_k_sigmoid_grad", "SigmoidDoubleGradNode", (0, 1), (("out", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("relu_grad", "_k_relu_grad", "ReluDoubleGradNode", (-1, 1), (("out", "of_input", 0),), "", True, (False, False)),
        ("silu_grad", "_k_silu_grad", "SiluDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("erf_grad", "_k_erf_grad", "ErfDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("hardswish_grad", "_k_hardswish_grad", "HardswishDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("hardsigmoid_grad", "_k_hardsigmoid_grad", "HardsigmoidDoubleGradNode", (-1, 1), (("x", "of_input", 0),), "", True, (False, False)),
        ("mish_grad", "_k_mish_grad", "MishDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("log_sigmoid_grad", "_k_log_sigmoid_grad", "LogSigmoidDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("swish_grad", "_k_silu_grad", "SwishDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("softsign_grad", "_k_softsign_grad", "SoftsignDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
        ("tanhshrink_grad", "_k_tanhshrink_grad", "TanhshrinkDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1)), "", True, (False, False)),
    ],
    [
        ("pow_grad", "_k_pow_grad", "PowDoubleGradNode", (0, 1), (("x", "of_edge", 0), ("out_grad", "of_edge", 1), ("y", "value", 2)), "", True, (False, False), 1),
        ("masked_fill_grad", "_k_masked_fill_grad", "MaskedFillDoubleGradNode", (-1, 1), (("mask", "of_input", 0), ("value", "value", 2)), "", True, (False, False), 1),
    ],
)
