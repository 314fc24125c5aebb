# @generated ops from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Forward operators: one function per ops.yaml entry."""

from __future__ import annotations

import builtins as _builtins
from collections.abc import Sequence
from typing import Any

from opgrad.generated import jvp as _jvp
from opgrad.generated import nodes as _nodes
from opgrad.runtime import _accel
from opgrad.runtime.arguments import (
    alias_arg,
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
    new_node_of,
    recorded,
    set_history,
)
from opgrad.runtime.inplace import (
    check_inplace,
    mark_view,
    saved_before_write,
    write_inplace,
    write_into,
)
from opgrad.runtime.kernels.registry import (
    dispatch,
    kernel_error,
    kernel_results_error,
    kernel_table,
)
from opgrad.runtime.promotion import (
    COMPLEX_DTYPES,
    COMPLEX_OPS,
    FLOAT_DTYPES,
    promote_args,
    promote_float,
    promote_list,
    refuse_complex,
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
_k_acos = kernel_table("acos")
_k_acosh = kernel_table("acosh")
_k_adaptive_avg_pool2d = kernel_table("adaptive_avg_pool2d")
_k_add = kernel_table("add")
_k_addcdiv = kernel_table("addcdiv")
_k_addcmul = kernel_table("addcmul")
_k_angle = kernel_table("angle")
_k_argmax = kernel_table("argmax")
_k_argmin = kernel_table("argmin")
_k_argsort = kernel_table("argsort")
_k_argwhere = kernel_table("argwhere")
_k_asin = kernel_table("asin")
_k_asinh = kernel_table("asinh")
_k_atan = kernel_table("atan")
_k_atan2 = kernel_table("atan2")
_k_atanh = kernel_table("atanh")
_k_avg_pool2d = kernel_table("avg_pool2d")
_k_batch_norm = kernel_table("batch_norm")
_k_binary_cross_entropy_with_logits = kernel_table("binary_cross_entropy_with_logits")
_k_bincount = kernel_table("bincount")
_k_bitwise_and = kernel_table("bitwise_and")
_k_bitwise_left_shift = kernel_table("bitwise_left_shift")
_k_bitwise_not = kernel_table("bitwise_not")
_k_bitwise_or = kernel_table("bitwise_or")
_k_bitwise_right_shift = kernel_table("bitwise_right_shift")
_k_bitwise_xor = kernel_table("bitwise_xor")
_k_bmm = kernel_table("bmm")
_k_bucketize = kernel_table("bucketize")
_k_cast = kernel_table("cast")
_k_ceil = kernel_table("ceil")
_k_celu = kernel_table("celu")
_k_cholesky = kernel_table("cholesky")
_k_cholesky_solve = kernel_table("cholesky_solve")
_k_clip = kernel_table("clip")
_k_complex = kernel_table("complex")
_k_conj = kernel_table("conj")
_k_conv1d = kernel_table("conv1d")
_k_conv2d = kernel_table("conv2d")
_k_conv3d = kernel_table("conv3d")
_k_conv_transpose1d = kernel_table("conv_transpose1d")
_k_conv_transpose2d = kernel_table("conv_transpose2d")
_k_copysign = kernel_table("copysign")
_k_cos = kernel_table("cos")
_k_cosh = kernel_table("cosh")
_k_count_nonzero = kernel_table("count_nonzero")
_k_cross = kernel_table("cross")
_k_cross_entropy_and_prob = kernel_table("cross_entropy_and_prob")
_k_cummax = kernel_table("cummax")
_k_cummin = kernel_table("cummin")
_k_cumprod = kernel_table("cumprod")
_k_cumsum = kernel_table("cumsum")
_k_deg2rad = kernel_table("deg2rad")
_k_det = kernel_table("det")
_k_diag_embed = kernel_table("diag_embed")
_k_diagonal = kernel_table("diagonal")
_k_divide = kernel_table("divide")
_k_dropout = kernel_table("dropout")
_k_eigh = kernel_table("eigh")
_k_eigvalsh = kernel_table("eigvalsh")
_k_einsum = kernel_table("einsum")
_k_elementwise_pow = kernel_table("elementwise_pow")
_k_elu = kernel_table("elu")
_k_embedding = kernel_table("embedding")
_k_equal = kernel_table("equal")
_k_erf = kernel_table("erf")
_k_exp = kernel_table("exp")
_k_exp2 = kernel_table("exp2")
_k_expand = kernel_table("expand")
_k_expm1 = kernel_table("expm1")
_k_fftn = kernel_table("fftn")
_k_fill = kernel_table("fill")
_k_flatten = kernel_table("flatten")
_k_flip = kernel_table("flip")
_k_floor = kernel_table("floor")
_k_floor_divide = kernel_table("floor_divide")
_k_fmod = kernel_table("fmod")
_k_fold = kernel_table("fold")
_k_frac = kernel_table("frac")
_k_gather = kernel_table("gather")
_k_gather_nd = kernel_table("gather_nd")
_k_gelu = kernel_table("gelu")
_k_glu = kernel_table("glu")
_k_greater_equal = kernel_table("greater_equal")
_k_greater_than = kernel_table("greater_than")
_k_group_norm = kernel_table("group_norm")
_k_hardsigmoid = kernel_table("hardsigmoid")
_k_hardswish = kernel_table("hardswish")
_k_hardtanh = kernel_table("hardtanh")
_k_heaviside = kernel_table("heaviside")
_k_histc = kernel_table("histc")
_k_ifftn = kernel_table("ifftn")
_k_imag = kernel_table("imag")
_k_index_add = kernel_table("index_add")
_k_index_select = kernel_table("index_select")
_k_inv = kernel_table("inv")
_k_irfftn = kernel_table("irfftn")
_k_isfinite = kernel_table("isfinite")
_k_isinf = kernel_table("isinf")
_k_isnan = kernel_table("isnan")
_k_isneginf = kernel_table("isneginf")
_k_isposinf = kernel_table("isposinf")
_k_kl_div = kernel_table("kl_div")
_k_kron = kernel_table("kron")
_k_l1_loss = kernel_table("l1_loss")
_k_layer_norm = kernel_table("layer_norm")
_k_leaky_relu = kernel_table("leaky_relu")
_k_lerp = kernel_table("lerp")
_k_less_equal = kernel_table("less_equal")
_k_less_than = kernel_table("less_than")
_k_linear = kernel_table("linear")
_k_log = kernel_table("log")
_k_log10 = kernel_table("log10")
_k_log1p = kernel_table("log1p")
_k_log2 = kernel_table("log2")
_k_log_sigmoid = kernel_table("log_sigmoid")
_k_log_softmax = kernel_table("log_softmax")
_k_logaddexp = kernel_table("logaddexp")
_k_logaddexp2 = kernel_table("logaddexp2")
_k_logcumsumexp = kernel_table("logcumsumexp")
_k_logical_and = kernel_table("logical_and")
_k_logical_not = kernel_table("logical_not")
_k_logical_or = kernel_table("logical_or")
_k_logical_xor = kernel_table("logical_xor")
_k_logit = kernel_table("logit")
_k_logsumexp = kernel_table("logsumexp")
_k_lstm_cell = kernel_table("lstm_cell")
_k_masked_fill = kernel_table("masked_fill")
_k_matmul = kernel_table("matmul")
_k_matmul_jvp = kernel_table("matmul_jvp")
_k_matmul_xg = kernel_table("matmul_xg")
_k_matmul_yg = kernel_table("matmul_yg")
_k_matrix_exp = kernel_table("matrix_exp")
_k_matrix_power = kernel_table("matrix_power")
_k_matrix_transpose = kernel_table("matrix_transpose")
_k_max = kernel_table("max")
_k_max_pool2d = kernel_table("max_pool2d")
_k_maximum = kernel_table("maximum")
_k_mean = kernel_table("mean")
_k_min = kernel_table("min")
_k_minimum = kernel_table("minimum")
_k_mish = kernel_table("mish")
_k_mse_loss = kernel_table("mse_loss")
_k_multiply = kernel_table("multiply")
_k_nan_to_num = kernel_table("nan_to_num")
_k_nansum = kernel_table("nansum")
_k_narrow_as = kernel_table("narrow_as")
_k_neg = kernel_table("neg")
_k_nll_loss = kernel_table("nll_loss")
_k_nonzero = kernel_table("nonzero")
_k_norm = kernel_table("norm")
_k_not_equal = kernel_table("not_equal")
_k_one_hot = kernel_table("one_hot")
_k_outer = kernel_table("outer")
_k_pad = kernel_table("pad")
_k_pad_as = kernel_table("pad_as")
_k_pixel_shuffle = kernel_table("pixel_shuffle")
_k_pixel_unshuffle = kernel_table("pixel_unshuffle")
_k_polar = kernel_table("polar")
_k_pow = kernel_table("pow")
_k_prelu = kernel_table("prelu")
_k_prod = kernel_table("prod")
_k_qr = kernel_table("qr")
_k_qr_square_block = kernel_table("qr_square_block")
_k_rad2deg = kernel_table("rad2deg")
_k_real = kernel_table("real")
_k_reciprocal = kernel_table("reciprocal")
_k_reduce_as = kernel_table("reduce_as")
_k_relu = kernel_table("relu")
_k_remainder = kernel_table("remainder")
_k_repeat_interleave = kernel_table("repeat_interleave")
_k_reshape = kernel_table("reshape")
_k_rfftn = kernel_table("rfftn")
_k_roll = kernel_table("roll")
_k_round = kernel_table("round")
_k_rsqrt = kernel_table("rsqrt")
_k_scale = kernel_table("scale")
_k_scaled_dot_product_attention = kernel_table("scaled_dot_product_attention")
_k_scatter = kernel_table("scatter")
_k_scatter_nd = kernel_table("scatter_nd")
_k_scatter_nd_add = kernel_table("scatter_nd_add")
_k_searchsorted = kernel_table("searchsorted")
_k_selu = kernel_table("selu")
_k_sigmoid = kernel_table("sigmoid")
_k_sign = kernel_table("sign")
_k_signbit = kernel_table("signbit")
_k_silu = kernel_table("silu")
_k_sin = kernel_table("sin")
_k_sinh = kernel_table("sinh")
_k_slogdet = kernel_table("slogdet")
_k_smooth_l1_loss = kernel_table("smooth_l1_loss")
_k_softmax = kernel_table("softmax")
_k_softmax_vjp = kernel_table("softmax_vjp")
_k_softmax_vjp_dp = kernel_table("softmax_vjp_dp")
_k_softplus = kernel_table("softplus")
_k_softsign = kernel_table("softsign")
_k_solve = kernel_table("solve")
_k_sort = kernel_table("sort")
_k_split = kernel_table("split")
_k_sqrt = kernel_table("sqrt")
_k_square = kernel_table("square")
_k_squeeze = kernel_table("squeeze")
_k_std = kernel_table("std")
_k_subtract = kernel_table("subtract")
_k_sum = kernel_table("sum")
_k_svd = kernel_table("svd")
_k_svdvals = kernel_table("svdvals")
_k_take_along_axis = kernel_table("take_along_axis")
_k_tan = kernel_table("tan")
_k_tanh = kernel_table("tanh")
_k_tanhshrink = kernel_table("tanhshrink")
_k_tile = kernel_table("tile")
_k_topk = kernel_table("topk")
_k_trace = kernel_table("trace")
_k_transpose = kernel_table("transpose")
_k_triangular_solve = kernel_table("triangular_solve")
_k_tril = kernel_table("tril")
_k_triu = kernel_table("triu")
_k_trunc = kernel_table("trunc")
_k_unfold = kernel_table("unfold")
_k_unsqueeze = kernel_table("unsqueeze")
_k_var = kernel_table("var")
_k_view_as_complex = kernel_table("view_as_complex")
_k_view_as_real = kernel_table("view_as_real")
_k_where = kernel_table("where")
_k_xlogy = kernel_table("xlogy")
_k_zero = kernel_table("zero")

__all__ = [
    "abs",
    "acos",
    "acosh",
    "adaptive_avg_pool2d",
    "add",
    "add_",
    "addcdiv",
    "addcmul",
    "angle",
    "argmax",
    "argmin",
    "argsort",
    "argwhere",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "avg_pool2d",
    "batch_norm",
    "binary_cross_entropy_with_logits",
    "bincount",
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "bmm",
    "bucketize",
    "cast",
    "ceil",
    "celu",
    "cholesky",
    "cholesky_solve",
    "clip",
    "clip_",
    "complex",
    "concat",
    "conj",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "copysign",
    "cos",
    "cosh",
    "count_nonzero",
    "cross",
    "cross_entropy",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "deg2rad",
    "det",
    "diag_embed",
    "diagonal",
    "divide",
    "divide_",
    "dropout",
    "eigh",
    "eigvalsh",
    "einsum",
    "elementwise_pow",
    "elu",
    "embedding",
    "equal",
    "erf",
    "exp",
    "exp2",
    "exp_",
    "expand",
    "expm1",
    "fftn",
    "fill",
    "fill_",
    "flatten",
    "flip",
    "floor",
    "floor_divide",
    "fmod",
    "fold",
    "frac",
    "gather",
    "gather_nd",
    "gelu",
    "glu",
    "greater_equal",
    "greater_than",
    "group_norm",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "heaviside",
    "histc",
    "ifftn",
    "imag",
    "index",
    "index_add",
    "index_put",
    "index_put_",
    "index_select",
    "inv",
    "irfftn",
    "isfinite",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "kl_div",
    "kron",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "lerp",
    "less_equal",
    "less_than",
    "linear",
    "log",
    "log10",
    "log1p",
    "log2",
    "log_sigmoid",
    "log_softmax",
    "logaddexp",
    "logaddexp2",
    "logcumsumexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logit",
    "logsumexp",
    "lstm_cell",
    "masked_fill",
    "matmul",
    "matmul_jvp",
    "matmul_xg",
    "matmul_yg",
    "matrix_exp",
    "matrix_power",
    "matrix_transpose",
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
    "nan_to_num",
    "nansum",
    "narrow_as",
    "neg",
    "nll_loss",
    "nonzero",
    "norm",
    "not_equal",
    "one_hot",
    "outer",
    "pad",
    "pad_as",
    "pixel_shuffle",
    "pixel_unshuffle",
    "polar",
    "pow",
    "prelu",
    "prod",
    "qr",
    "qr_square_block",
    "rad2deg",
    "real",
    "reciprocal",
    "reduce_as",
    "relu",
    "relu_",
    "remainder",
    "repeat_interleave",
    "reshape",
    "rfftn",
    "roll",
    "round",
    "rsqrt",
    "scale",
    "scale_",
    "scaled_dot_product_attention",
    "scatter",
    "scatter_nd",
    "scatter_nd_add",
    "searchsorted",
    "selu",
    "sigmoid",
    "sigmoid_",
    "sign",
    "signbit",
    "silu",
    "sin",
    "sinh",
    "slogdet",
    "smooth_l1_loss",
    "softmax",
    "softmax_vjp",
    "softmax_vjp_dp",
    "softplus",
    "softsign",
    "solve",
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
    "svd",
    "svdvals",
    "swish",
    "take_along_axis",
    "tan",
    "tanh",
    "tanh_",
    "tanhshrink",
    "tile",
    "topk",
    "trace",
    "transpose",
    "triangular_solve",
    "tril",
    "triu",
    "trunc",
    "unfold",
    "unsqueeze",
    "var",
    "view_as_complex",
    "view_as_real",
    "where",
    "xlogy",
    "zero",
    "zero_",
]


def _not_a_tensor(op: str, arg: str, value: object) -> TypeError:
    return TypeError(f"{op}: {arg} is written in place, so it must be a Tensor, got {type(value).__name__}")

# The ops with `complex: true` in ops.yaml: promotion keeps their complex operands complex.
COMPLEX_OPS.update(
    (
        "abs",
        "add",
        "angle",
        "cast",
        "complex",
        "concat",
        "conj",
        "cos",
        "cosh",
        "cumsum",
        "diag_embed",
        "diagonal",
        "divide",
        "elementwise_pow",
        "equal",
        "exp",
        "expand",
        "fftn",
        "fill",
        "flatten",
        "flip",
        "gather",
        "ifftn",
        "imag",
        "index",
        "index_put",
        "index_select",
        "irfftn",
        "isfinite",
        "isinf",
        "isnan",
        "log",
        "matmul",
        "matmul_jvp",
        "matmul_xg",
        "matmul_yg",
        "matrix_transpose",
        "mean",
        "multiply",
        "neg",
        "not_equal",
        "pad",
        "polar",
        "pow",
        "prod",
        "real",
        "reciprocal",
        "reduce_as",
        "repeat_interleave",
        "reshape",
        "rfftn",
        "roll",
        "sigmoid",
        "sin",
        "sinh",
        "split",
        "sqrt",
        "square",
        "squeeze",
        "stack",
        "std",
        "subtract",
        "sum",
        "take_along_axis",
        "tanh",
        "tile",
        "trace",
        "transpose",
        "tril",
        "triu",
        "unsqueeze",
        "var",
        "view_as_complex",
        "view_as_real",
        "where",
        "zero",
    )
)


def neg(x: Tensor | float | int) -> Tensor:
    """Negation -x, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "neg", "x")
    _kernel = _k_neg.get(x._data.__class__) or dispatch("neg", "neg", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("neg", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.NegGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.neg(x, out)
    return out


def abs(x: Tensor | float | int) -> Tensor:
    """Absolute value, elementwise (gradient sign(x), 0 at 0); the magnitude of a complex tensor, as a real tensor.

    Args:
        x (Tensor | float | int): The input tensor, of any shape, real or complex.

    Returns:
        out (Tensor): A tensor of x's shape (a complex x gives its real dtype, float32 for complex64).

    Gradient:
        Flows to x. The subgradient at 0 is 0; for complex x, g x / |x| (0 at 0).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "abs", "x")
    _kernel = _k_abs.get(x._data.__class__) or dispatch("abs", "abs", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("abs", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AbsGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.abs(x, out)
    return out


def sign(x: Tensor | float | int) -> Tensor:
    """Sign of x (-1, 0 or 1) in x's dtype; its gradient is zero.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape and dtype holding -1, 0 or 1.

    Gradient:
        Flows to x. Zero everywhere (the step's derivative), so sign passes no gradient to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sign", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("sign", x, arg="x")
    _kernel = _k_sign.get(x._data.__class__) or dispatch("sign", "sign", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sign", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SignGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.sign(x, out)
    return out


def exp(x: Tensor | float | int) -> Tensor:
    """Exponential, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "exp", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("exp", x)
    _kernel = _k_exp.get(x._data.__class__) or dispatch("exp", "exp", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("exp", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ExpGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.exp(x, out)
    return out


def exp_(x: Tensor) -> Tensor:
    """Exponential, elementwise.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The input tensor, of any shape.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("exp_", "x", x)
    record = check_inplace("exp_", x)
    if not (record or FORWARD.active) and write_into(x, _k_exp, (x._data,)):
        return x
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


def expm1(x: Tensor | float | int) -> Tensor:
    """exp(x) - 1, accurate for small x.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "expm1", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("expm1", x)
    _kernel = _k_expm1.get(x._data.__class__) or dispatch("expm1", "expm1", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("expm1", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.Expm1GradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.expm1(x, out)
    return out


def log(x: Tensor | float | int) -> Tensor:
    """Natural logarithm, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape; 0 gives -inf and negatives NaN.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("log", x)
    _kernel = _k_log.get(x._data.__class__) or dispatch("log", "log", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.LogGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.log(x, out)
    return out


def log1p(x: Tensor | float | int) -> Tensor:
    """log(1 + x), accurate for small x.

    Args:
        x (Tensor | float | int): The input tensor, of any shape; values below -1 give NaN.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log1p", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("log1p", x)
    _kernel = _k_log1p.get(x._data.__class__) or dispatch("log1p", "log1p", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log1p", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.Log1pGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.log1p(x, out)
    return out


def sqrt(x: Tensor | float | int) -> Tensor:
    """Square root, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape; negatives give NaN.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. Infinite at 0.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sqrt", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("sqrt", x)
    _kernel = _k_sqrt.get(x._data.__class__) or dispatch("sqrt", "sqrt", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sqrt", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SqrtGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.sqrt(x, out)
    return out


def rsqrt(x: Tensor | float | int) -> Tensor:
    """Reciprocal square root 1 / sqrt(x), elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape; 0 gives inf.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "rsqrt", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("rsqrt", x)
    _kernel = _k_rsqrt.get(x._data.__class__) or dispatch("rsqrt", "rsqrt", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("rsqrt", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.RsqrtGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.rsqrt(x, out)
    return out


def square(x: Tensor | float | int) -> Tensor:
    """x * x, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "square", "x")
    _kernel = _k_square.get(x._data.__class__) or dispatch("square", "square", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("square", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SquareGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.square(x, out)
    return out


def reciprocal(x: Tensor | float | int) -> Tensor:
    """1 / x, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "reciprocal", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("reciprocal", x)
    _kernel = _k_reciprocal.get(x._data.__class__) or dispatch("reciprocal", "reciprocal", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reciprocal", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ReciprocalGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.reciprocal(x, out)
    return out


def sin(x: Tensor | float | int) -> Tensor:
    """Sine, elementwise.

    Args:
        x (Tensor | float | int): The input tensor in radians, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sin", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("sin", x)
    _kernel = _k_sin.get(x._data.__class__) or dispatch("sin", "sin", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sin", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SinGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.sin(x, out)
    return out


def cos(x: Tensor | float | int) -> Tensor:
    """Cosine, elementwise.

    Args:
        x (Tensor | float | int): The input tensor in radians, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cos", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("cos", x)
    _kernel = _k_cos.get(x._data.__class__) or dispatch("cos", "cos", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cos", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.CosGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cos(x, out)
    return out


def tanh(x: Tensor | float | int) -> Tensor:
    """Hyperbolic tangent, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape, in (-1, 1).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tanh", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("tanh", x)
    _kernel = _k_tanh.get(x._data.__class__) or dispatch("tanh", "tanh", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tanh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TanhGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.tanh(x, out)
    return out


def tanh_(x: Tensor) -> Tensor:
    """Hyperbolic tangent, elementwise.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The input tensor, of any shape.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("tanh_", "x", x)
    record = check_inplace("tanh_", x)
    if not (record or FORWARD.active) and write_into(x, _k_tanh, (x._data,)):
        return x
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


def sigmoid(x: Tensor | float | int) -> Tensor:
    """Logistic sigmoid 1 / (1 + exp(-x)), elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape, in (0, 1).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sigmoid", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("sigmoid", x)
    _kernel = _k_sigmoid.get(x._data.__class__) or dispatch("sigmoid", "sigmoid", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sigmoid", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SigmoidGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.sigmoid(x, out)
    return out


def sigmoid_(x: Tensor) -> Tensor:
    """Logistic sigmoid 1 / (1 + exp(-x)), elementwise.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The input tensor, of any shape.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x.
    """
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


def relu(x: Tensor | float | int) -> Tensor:
    """Rectified linear unit max(x, 0), elementwise (gradient 0 at 0).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. The subgradient at 0 is 0.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "relu", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("relu", x, arg="x")
    _kernel = _k_relu.get(x._data.__class__) or dispatch("relu", "relu", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("relu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ReluGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.relu(x, out)
    return out


def relu_(x: Tensor) -> Tensor:
    """Rectified linear unit max(x, 0), elementwise (gradient 0 at 0).

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The input tensor, of any shape.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x. The subgradient at 0 is 0.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("relu_", "x", x)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("relu_", x, arg="x")
    record = check_inplace("relu_", x)
    if not (record or FORWARD.active) and write_into(x, _k_relu, (x._data,)):
        return x
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
    x: Tensor | float | int,
    approximate: bool = False,
) -> Tensor:
    """Gaussian error linear unit; approximate=true uses the tanh approximation.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        approximate (bool, default False): False: the exact form x * Phi(x) with the Gauss error function; True: the tanh approximation.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "gelu", "x")
    if approximate.__class__ is not bool:
        approximate = bool_arg(approximate, "gelu", "approximate")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("gelu", x)
    _kernel = _k_gelu.get(x._data.__class__) or dispatch("gelu", "gelu", x._data)
    try:
        _result = _kernel(x._data, approximate)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("gelu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.GeluGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.approximate = approximate
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.gelu(x, approximate, out)
    return out


def silu(x: Tensor | float | int) -> Tensor:
    """SiLU (swish) x * sigmoid(x), elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "silu", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("silu", x)
    _kernel = _k_silu.get(x._data.__class__) or dispatch("silu", "silu", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("silu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SiluGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.silu(x, out)
    return out


def softplus(
    x: Tensor | float | int,
    beta: float = 1.0,
    threshold: float = 20.0,
) -> Tensor:
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        beta (float | int, default 1.0): The sharpness; larger beta is closer to relu.
        threshold (float | int, default 20.0): Above this value of beta * x the result is x itself (avoids overflow).

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softplus", "x")
    if beta.__class__ is not float:
        beta = float_arg(beta, "softplus", "beta")
    if threshold.__class__ is not float:
        threshold = float_arg(threshold, "softplus", "threshold")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("softplus", x)
    _kernel = _k_softplus.get(x._data.__class__) or dispatch("softplus", "softplus", x._data)
    try:
        _result = _kernel(x._data, beta, threshold)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softplus", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SoftplusGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.beta = beta
        node.threshold = threshold
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.softplus(x, beta, threshold, out)
    return out


def leaky_relu(
    x: Tensor | float | int,
    negative_slope: float = 0.01,
) -> Tensor:
    """x where x > 0, else negative_slope * x.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        negative_slope (float | int, default 0.01): The slope for x <= 0.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. At 0 the gradient is negative_slope.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "leaky_relu", "x")
    if negative_slope.__class__ is not float:
        negative_slope = float_arg(negative_slope, "leaky_relu", "negative_slope")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("leaky_relu", x)
    _kernel = _k_leaky_relu.get(x._data.__class__) or dispatch("leaky_relu", "leaky_relu", x._data)
    try:
        _result = _kernel(x._data, negative_slope)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("leaky_relu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.LeakyReluGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.negative_slope = negative_slope
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.leaky_relu(x, negative_slope, out)
    return out


def elu(
    x: Tensor | float | int,
    alpha: float = 1.0,
) -> Tensor:
    """x where x > 0, else alpha * (exp(x) - 1).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        alpha (float | int, default 1.0): The value approached as x goes to -inf is -alpha.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "elu", "x")
    if alpha.__class__ is not float:
        alpha = float_arg(alpha, "elu", "alpha")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("elu", x)
    _kernel = _k_elu.get(x._data.__class__) or dispatch("elu", "elu", x._data)
    try:
        _result = _kernel(x._data, alpha)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("elu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.EluGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.alpha = alpha
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.elu(x, alpha, out)
    return out


def erf(x: Tensor | float | int) -> Tensor:
    """Gauss error function, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape, in (-1, 1).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "erf", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("erf", x)
    _kernel = _k_erf.get(x._data.__class__) or dispatch("erf", "erf", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("erf", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ErfGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.erf(x, out)
    return out


def scale(
    x: Tensor | float | int,
    scale: float = 1.0,
    bias: float = 0.0,
) -> Tensor:
    """x * scale + bias (scalars; x's dtype is kept).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        scale (float | int, default 1.0): The factor x is multiplied by.
        bias (float | int, default 0.0): The number added after scaling.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "scale", "x")
    if scale.__class__ is not float and scale.__class__ is not int:
        scale = scalar_arg(scale, "scale", "scale")
    if bias.__class__ is not float and bias.__class__ is not int:
        bias = scalar_arg(bias, "scale", "bias")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scale", x, arg="x")
    _kernel = _k_scale.get(x._data.__class__) or dispatch("scale", "scale", x._data)
    try:
        _result = _kernel(x._data, scale, bias)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scale", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ScaleGradNode, _result, x)
        node.scale = scale
        node.bias = bias
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.scale(x, scale, bias, out)
    return out


def scale_(
    x: Tensor,
    scale: float = 1.0,
    bias: float = 0.0,
) -> Tensor:
    """x * scale + bias (scalars; x's dtype is kept).

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The input tensor, of any shape.
        scale (float | int, default 1.0): The factor x is multiplied by.
        bias (float | int, default 0.0): The number added after scaling.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("scale_", "x", x)
    if scale.__class__ is not float and scale.__class__ is not int:
        scale = scalar_arg(scale, "scale_", "scale")
    if bias.__class__ is not float and bias.__class__ is not int:
        bias = scalar_arg(bias, "scale_", "bias")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scale_", x, arg="x")
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
    x: Tensor | float | int,
    y: float,
) -> Tensor:
    """x raised to the scalar power y, elementwise (x's dtype is kept).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        y (float | int): The exponent, a Python number.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x. Gradient to x only; y is a number.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "pow", "x")
    if y.__class__ is not float and y.__class__ is not int:
        y = scalar_arg(y, "pow", "y")
    if y.__class__ is float and x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("pow", x)
    _kernel = _k_pow.get(x._data.__class__) or dispatch("pow", "pow", x._data)
    try:
        _result = _kernel(x._data, y)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pow", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.PowGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.y = y
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.pow(x, y, out)
    return out


def clip(
    x: Tensor | float | int,
    min: float | None = None,
    max: float | None = None,
) -> Tensor:
    """Clamp x to [min, max]; either bound may be None. The gradient passes where min <= x <= max (bounds included).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        min (float | int | None, default None): The lower bound, or None for none.
        max (float | int | None, default None): The upper bound, or None for none.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "clip", "x")
    if min.__class__ is not float and min.__class__ is not int and min is not None:
        min = scalar_arg(min, "clip", "min")
    if max.__class__ is not float and max.__class__ is not int and max is not None:
        max = scalar_arg(max, "clip", "max")
    if (min.__class__ is float or max.__class__ is float) and x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("clip", x)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("clip", x, arg="x")
    _kernel = _k_clip.get(x._data.__class__) or dispatch("clip", "clip", x._data)
    try:
        _result = _kernel(x._data, min, max)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("clip", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ClipGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.min = min
        node.max = max
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.clip(x, min, max, out)
    return out


def clip_(
    x: Tensor,
    min: float | None = None,
    max: float | None = None,
) -> Tensor:
    """Clamp x to [min, max]; either bound may be None. The gradient passes where min <= x <= max (bounds included).

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The input tensor, of any shape.
        min (float | int | None, default None): The lower bound, or None for none.
        max (float | int | None, default None): The upper bound, or None for none.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("clip_", "x", x)
    if min.__class__ is not float and min.__class__ is not int and min is not None:
        min = scalar_arg(min, "clip_", "min")
    if max.__class__ is not float and max.__class__ is not int and max is not None:
        max = scalar_arg(max, "clip_", "max")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("clip_", x, arg="x")
    record = check_inplace("clip_", x)
    if not (record or FORWARD.active) and write_into(x, _k_clip, (x._data,), min, max):
        return x
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
    x: Tensor | float | int,
    dtype: Any,
) -> Tensor:
    """x converted to dtype; the gradient is converted back to x's dtype.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        dtype (str | numpy.dtype): The target dtype: a name such as 'float32' or 'int64', or a NumPy dtype.

    Returns:
        out (Tensor): A tensor of x's shape in dtype.

    Gradient:
        Flows to x. No gradient flows through a cast to an integer or bool dtype.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cast", "x")
    dtype = dtype_arg(dtype, "cast", "dtype")
    _kernel = _k_cast.get(x._data.__class__) or dispatch("cast", "cast", x._data)
    try:
        _result = _kernel(x._data, dtype)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cast", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.CastGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.dtype = dtype
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cast(x, dtype, out)
    return out


def hardtanh(
    x: Tensor | float | int,
    min: float = -1.0,
    max: float = 1.0,
) -> Tensor:
    """x clamped to [min, max]; the gradient is 1 strictly inside and 0 outside.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        min (float | int, default -1.0): The lower bound.
        max (float | int, default 1.0): The upper bound.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. At min and max the subgradient is 0.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "hardtanh", "x")
    if min.__class__ is not float:
        min = float_arg(min, "hardtanh", "min")
    if max.__class__ is not float:
        max = float_arg(max, "hardtanh", "max")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("hardtanh", x)
    _kernel = _k_hardtanh.get(x._data.__class__) or dispatch("hardtanh", "hardtanh", x._data)
    try:
        _result = _kernel(x._data, min, max)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardtanh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.HardtanhGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.min = min
        node.max = max
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.hardtanh(x, min, max, out)
    return out


def hardswish(x: Tensor | float | int) -> Tensor:
    """x * min(max(x + 3, 0), 6) / 6, elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "hardswish", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("hardswish", x)
    _kernel = _k_hardswish.get(x._data.__class__) or dispatch("hardswish", "hardswish", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardswish", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.HardswishGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.hardswish(x, out)
    return out


def hardsigmoid(x: Tensor | float | int) -> Tensor:
    """min(max(x / 6 + 0.5, 0), 1), elementwise (PyTorch's slope and offset).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape, in [0, 1].

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "hardsigmoid", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("hardsigmoid", x)
    _kernel = _k_hardsigmoid.get(x._data.__class__) or dispatch("hardsigmoid", "hardsigmoid", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("hardsigmoid", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.HardsigmoidGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.hardsigmoid(x, out)
    return out


def mish(x: Tensor | float | int) -> Tensor:
    """x * tanh(softplus(x)), elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "mish", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("mish", x)
    _kernel = _k_mish.get(x._data.__class__) or dispatch("mish", "mish", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mish", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.MishGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.mish(x, out)
    return out


def log_sigmoid(x: Tensor | float | int) -> Tensor:
    """log(sigmoid(x)) = -softplus(-x), computed stably.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape, at most 0.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log_sigmoid", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("log_sigmoid", x)
    _kernel = _k_log_sigmoid.get(x._data.__class__) or dispatch("log_sigmoid", "log_sigmoid", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log_sigmoid", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.LogSigmoidGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.log_sigmoid(x, out)
    return out


def swish(x: Tensor | float | int) -> Tensor:
    """Swish x * sigmoid(x), the same function as silu.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "swish", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("swish", x)
    _kernel = _k_silu.get(x._data.__class__) or dispatch("swish", "silu", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("swish", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SwishGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.swish(x, out)
    return out


def selu(
    x: Tensor | float | int,
    scale: float = 1.0507009873554805,
    alpha: float = 1.6732632423543772,
) -> Tensor:
    """scale * x where x > 0, else scale * alpha * (exp(x) - 1).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        scale (float | int, default 1.0507009873554805): The overall factor (default: the self-normalising constant).
        alpha (float | int, default 1.6732632423543772): The negative saturation factor (default: the self-normalising constant).

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "selu", "x")
    if scale.__class__ is not float:
        scale = float_arg(scale, "selu", "scale")
    if alpha.__class__ is not float:
        alpha = float_arg(alpha, "selu", "alpha")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("selu", x)
    _kernel = _k_selu.get(x._data.__class__) or dispatch("selu", "selu", x._data)
    try:
        _result = _kernel(x._data, scale, alpha)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("selu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SeluGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.scale = scale
        node.alpha = alpha
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.selu(x, scale, alpha, out)
    return out


def celu(
    x: Tensor | float | int,
    alpha: float = 1.0,
) -> Tensor:
    """x where x > 0, else alpha * (exp(x / alpha) - 1).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        alpha (float | int, default 1.0): The negative saturation value and scale; must not be 0.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "celu", "x")
    if alpha.__class__ is not float:
        alpha = float_arg(alpha, "celu", "alpha")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("celu", x)
    _kernel = _k_celu.get(x._data.__class__) or dispatch("celu", "celu", x._data)
    try:
        _result = _kernel(x._data, alpha)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("celu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.CeluGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.alpha = alpha
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.celu(x, alpha, out)
    return out


def softsign(x: Tensor | float | int) -> Tensor:
    """x / (1 + |x|), elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape, in (-1, 1).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softsign", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("softsign", x)
    _kernel = _k_softsign.get(x._data.__class__) or dispatch("softsign", "softsign", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softsign", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SoftsignGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.softsign(x, out)
    return out


def tanhshrink(x: Tensor | float | int) -> Tensor:
    """x - tanh(x), elementwise.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tanhshrink", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("tanhshrink", x)
    _kernel = _k_tanhshrink.get(x._data.__class__) or dispatch("tanhshrink", "tanhshrink", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tanhshrink", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TanhshrinkGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.tanhshrink(x, out)
    return out


def add(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x + y, elementwise with broadcasting.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape of x and y.

    Gradient:
        Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "add", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "add", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("add", False, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_add.get(x._data.__class__)
        or dispatch("add", "add", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("add", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.AddGradNode, _result, x, y)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.add(x, y, out)
    return out


def add_(
    x: Tensor,
    y: Tensor | float | int,
) -> Tensor:
    """x + y, elementwise with broadcasting.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("add_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "add_", "y")
    record = check_inplace("add_", x, y)
    if not (record or FORWARD.active) and write_into(x, _k_add, (x._data, y._data)):
        return x
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x - y, elementwise with broadcasting.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape of x and y.

    Gradient:
        Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "subtract", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "subtract", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("subtract", False, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_subtract.get(x._data.__class__)
        or dispatch("subtract", "subtract", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("subtract", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.SubtractGradNode, _result, x, y)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.subtract(x, y, out)
    return out


def subtract_(
    x: Tensor,
    y: Tensor | float | int,
) -> Tensor:
    """x - y, elementwise with broadcasting.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("subtract_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "subtract_", "y")
    record = check_inplace("subtract_", x, y)
    if not (record or FORWARD.active) and write_into(x, _k_subtract, (x._data, y._data)):
        return x
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x * y, elementwise with broadcasting.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape of x and y.

    Gradient:
        Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "multiply", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "multiply", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("multiply", False, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_multiply.get(x._data.__class__)
        or dispatch("multiply", "multiply", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("multiply", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.MultiplyGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.multiply(x, y, out)
    return out


def multiply_(
    x: Tensor,
    y: Tensor | float | int,
) -> Tensor:
    """x * y, elementwise with broadcasting.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("multiply_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "multiply_", "y")
    record = check_inplace("multiply_", x, y)
    if not (record or FORWARD.active) and write_into(x, _k_multiply, (x._data, y._data)):
        return x
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x / y, elementwise with broadcasting.

    Args:
        x (Tensor | float | int): The dividend; broadcasts against y.
        y (Tensor | float | int): The divisor; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape of x and y.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "divide", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "divide", "y")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("divide", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_divide.get(x._data.__class__)
        or dispatch("divide", "divide", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("divide", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.DivideGradNode, _result, x, y)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.of_edge(y)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.divide(x, y, out)
    return out


def divide_(
    x: Tensor,
    y: Tensor | float | int,
) -> Tensor:
    """x / y, elementwise with broadcasting.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The dividend; broadcasts against y.
        y (Tensor | float | int): The divisor; broadcasts against x.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("divide_", "x", x)
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "divide_", "y")
    record = check_inplace("divide_", x, y)
    if not (record or FORWARD.active) and write_into(x, _k_divide, (x._data, y._data)):
        return x
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """Elementwise maximum with broadcasting (ties split the gradient equally).

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape of x and y.

    Gradient:
        Flows to x, y. Where x == y each input gets half of the gradient.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "maximum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "maximum", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("maximum", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("maximum", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_maximum.get(x._data.__class__)
        or dispatch("maximum", "maximum", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("maximum", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.MaximumGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.maximum(x, y, out)
    return out


def minimum(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """Elementwise minimum with broadcasting (ties split the gradient equally).

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape of x and y.

    Gradient:
        Flows to x, y. Where x == y each input gets half of the gradient.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "minimum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "minimum", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("minimum", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("minimum", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_minimum.get(x._data.__class__)
        or dispatch("minimum", "minimum", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("minimum", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.MinimumGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.minimum(x, y, out)
    return out


def elementwise_pow(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x ** y, elementwise with broadcasting (both may require grad).

    Args:
        x (Tensor | float | int): The base; broadcasts against y.
        y (Tensor | float | int): The exponent; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape of x and y.

    Gradient:
        Flows to x, y. The gradient to y is log(x) * out, NaN for a negative base.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "elementwise_pow", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "elementwise_pow", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("elementwise_pow", False, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_elementwise_pow.get(x._data.__class__)
        or dispatch("elementwise_pow", "elementwise_pow", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("elementwise_pow", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.ElementwisePowGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.elementwise_pow(x, y, out)
    return out


def where(
    condition: Tensor | float | int,
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x where condition (a bool tensor, no gradient) is true, else y; broadcasting.

    Args:
        condition (Tensor | float | int): A bool tensor choosing x (True) or y (False); broadcasts against x and y.
        x (Tensor | float | int): The values taken where condition is True.
        y (Tensor | float | int): The values taken where condition is False.

    Returns:
        out (Tensor): A tensor of the broadcast shape of condition, x and y.

    Gradient:
        Flows to x, y. No gradient for: condition.
    """
    if not isinstance(condition, Tensor):
        condition = as_tensor_arg(condition, x, "where", "condition")
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "where", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "where", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("where", False, x, y)
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
    if (x._requires_grad or y._requires_grad) and grad_enabled() and out._data.dtype.kind in "fc":
        node = new_node(_nodes.WhereGradNode, (None, x, y), out)
        node.condition = TensorWrapper.of_input(condition)
        node.x = TensorWrapper.meta_of(x)
        node.y = TensorWrapper.meta_of(y)
    if FORWARD.active:
        _jvp.where(condition, x, y, out)
    return out


def tan(x: Tensor | float | int) -> Tensor:
    """Tangent, elementwise.

    Args:
        x (Tensor | float | int): The input in radians, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tan", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("tan", x)
    _kernel = _k_tan.get(x._data.__class__) or dispatch("tan", "tan", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tan", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TanGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.tan(x, out)
    return out


def asin(x: Tensor | float | int) -> Tensor:
    """Inverse sine (arcsine), elementwise; NaN outside [-1, 1].

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. 1 / sqrt(1 - x^2): infinite at x = +-1.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "asin", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("asin", x)
    _kernel = _k_asin.get(x._data.__class__) or dispatch("asin", "asin", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("asin", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AsinGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.asin(x, out)
    return out


def acos(x: Tensor | float | int) -> Tensor:
    """Inverse cosine (arccosine), elementwise; NaN outside [-1, 1].

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. -1 / sqrt(1 - x^2): infinite at x = +-1.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "acos", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("acos", x)
    _kernel = _k_acos.get(x._data.__class__) or dispatch("acos", "acos", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("acos", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AcosGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.acos(x, out)
    return out


def atan(x: Tensor | float | int) -> Tensor:
    """Inverse tangent (arctangent), elementwise.

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "atan", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("atan", x)
    _kernel = _k_atan.get(x._data.__class__) or dispatch("atan", "atan", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("atan", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AtanGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.atan(x, out)
    return out


def sinh(x: Tensor | float | int) -> Tensor:
    """Hyperbolic sine, elementwise.

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sinh", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("sinh", x)
    _kernel = _k_sinh.get(x._data.__class__) or dispatch("sinh", "sinh", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sinh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SinhGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.sinh(x, out)
    return out


def cosh(x: Tensor | float | int) -> Tensor:
    """Hyperbolic cosine, elementwise.

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cosh", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("cosh", x)
    _kernel = _k_cosh.get(x._data.__class__) or dispatch("cosh", "cosh", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cosh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.CoshGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cosh(x, out)
    return out


def asinh(x: Tensor | float | int) -> Tensor:
    """Inverse hyperbolic sine, elementwise.

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "asinh", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("asinh", x)
    _kernel = _k_asinh.get(x._data.__class__) or dispatch("asinh", "asinh", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("asinh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AsinhGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.asinh(x, out)
    return out


def acosh(x: Tensor | float | int) -> Tensor:
    """Inverse hyperbolic cosine, elementwise; NaN below 1.

    Args:
        x (Tensor | float | int): The input (>= 1), of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. 1 / sqrt(x^2 - 1): infinite at x = 1.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "acosh", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("acosh", x)
    _kernel = _k_acosh.get(x._data.__class__) or dispatch("acosh", "acosh", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("acosh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AcoshGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.acosh(x, out)
    return out


def atanh(x: Tensor | float | int) -> Tensor:
    """Inverse hyperbolic tangent, elementwise; NaN outside [-1, 1].

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. 1 / (1 - x^2): infinite at x = +-1.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "atanh", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("atanh", x)
    _kernel = _k_atanh.get(x._data.__class__) or dispatch("atanh", "atanh", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("atanh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AtanhGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.atanh(x, out)
    return out


def log2(x: Tensor | float | int) -> Tensor:
    """Base-2 logarithm, elementwise.

    Args:
        x (Tensor | float | int): The input (> 0), of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log2", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("log2", x)
    _kernel = _k_log2.get(x._data.__class__) or dispatch("log2", "log2", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log2", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.Log2GradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.log2(x, out)
    return out


def log10(x: Tensor | float | int) -> Tensor:
    """Base-10 logarithm, elementwise.

    Args:
        x (Tensor | float | int): The input (> 0), of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log10", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("log10", x)
    _kernel = _k_log10.get(x._data.__class__) or dispatch("log10", "log10", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log10", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.Log10GradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.log10(x, out)
    return out


def exp2(x: Tensor | float | int) -> Tensor:
    """2 ** x, elementwise.

    Args:
        x (Tensor | float | int): The exponent, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "exp2", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("exp2", x)
    _kernel = _k_exp2.get(x._data.__class__) or dispatch("exp2", "exp2", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("exp2", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.Exp2GradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.exp2(x, out)
    return out


def deg2rad(x: Tensor | float | int) -> Tensor:
    """Degrees to radians (x * pi / 180), elementwise.

    Args:
        x (Tensor | float | int): Angles in degrees, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "deg2rad", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("deg2rad", x)
    _kernel = _k_deg2rad.get(x._data.__class__) or dispatch("deg2rad", "deg2rad", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("deg2rad", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.Deg2radGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.deg2rad(x, out)
    return out


def rad2deg(x: Tensor | float | int) -> Tensor:
    """Radians to degrees (x * 180 / pi), elementwise.

    Args:
        x (Tensor | float | int): Angles in radians, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "rad2deg", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("rad2deg", x)
    _kernel = _k_rad2deg.get(x._data.__class__) or dispatch("rad2deg", "rad2deg", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("rad2deg", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.Rad2degGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.rad2deg(x, out)
    return out


def logit(x: Tensor | float | int) -> Tensor:
    """log(x / (1 - x)), the inverse of sigmoid, elementwise; NaN outside [0, 1].

    Args:
        x (Tensor | float | int): Probabilities in (0, 1), of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. 1 / (x (1 - x)): infinite at 0 and 1.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "logit", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("logit", x)
    _kernel = _k_logit.get(x._data.__class__) or dispatch("logit", "logit", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logit", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.LogitGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.logit(x, out)
    return out


def frac(x: Tensor | float | int) -> Tensor:
    """The fractional part x - trunc(x), elementwise (it keeps x's sign).

    Args:
        x (Tensor | float | int): A floating input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. 1 (the jumps at integers are ignored, as in PyTorch).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "frac", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("frac", x, arg="x")
    _kernel = _k_frac.get(x._data.__class__) or dispatch("frac", "frac", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("frac", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.FracGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.frac(x, out)
    return out


def floor(x: Tensor | float | int) -> Tensor:
    """The largest integer <= x, elementwise (integer tensors come back unchanged).

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x. Zero everywhere (a step function), as in PyTorch.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "floor", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("floor", x, arg="x")
    _kernel = _k_floor.get(x._data.__class__) or dispatch("floor", "floor", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("floor", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.FloorGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.floor(x, out)
    return out


def ceil(x: Tensor | float | int) -> Tensor:
    """The smallest integer >= x, elementwise (integer tensors come back unchanged).

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x. Zero everywhere (a step function), as in PyTorch.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "ceil", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("ceil", x, arg="x")
    _kernel = _k_ceil.get(x._data.__class__) or dispatch("ceil", "ceil", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("ceil", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.CeilGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.ceil(x, out)
    return out


def trunc(x: Tensor | float | int) -> Tensor:
    """x rounded toward zero, elementwise (integer tensors come back unchanged).

    Args:
        x (Tensor | float | int): The input, of any shape.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x. Zero everywhere (a step function), as in PyTorch.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "trunc", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("trunc", x, arg="x")
    _kernel = _k_trunc.get(x._data.__class__) or dispatch("trunc", "trunc", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("trunc", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TruncGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.trunc(x, out)
    return out


def round(
    x: Tensor | float | int,
    decimals: int = 0,
) -> Tensor:
    """x rounded to the given number of decimals, halves to even (as PyTorch and NumPy), elementwise.

    Args:
        x (Tensor | float | int): The input, of any shape.
        decimals (int, default 0): Decimal places to keep (negative rounds to tens, hundreds, ...).

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x. Zero everywhere (a step function), as in PyTorch.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "round", "x")
    if decimals.__class__ is not int:
        decimals = int_arg(decimals, "round", "decimals")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("round", x, arg="x")
    _kernel = _k_round.get(x._data.__class__) or dispatch("round", "round", x._data)
    try:
        _result = _kernel(x._data, decimals)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("round", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.RoundGradNode, _result, x)
        node.decimals = decimals
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.round(x, decimals, out)
    return out


def atan2(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """atan2(x, y): the angle of the point (y, x) in (-pi, pi], elementwise with broadcasting (PyTorch's atan2(input, other)).

    Args:
        x (Tensor | float | int): The sine side (numerator); broadcasts against y.
        y (Tensor | float | int): The cosine side (denominator); broadcasts against x.

    Returns:
        out (Tensor): Angles in radians, of the broadcast shape.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "atan2", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "atan2", "y")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("atan2", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_atan2.get(x._data.__class__)
        or dispatch("atan2", "atan2", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("atan2", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.Atan2GradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.atan2(x, y, out)
    return out


def logaddexp(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """log(exp(x) + exp(y)), elementwise with broadcasting, without overflow.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "logaddexp", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "logaddexp", "y")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("logaddexp", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_logaddexp.get(x._data.__class__)
        or dispatch("logaddexp", "logaddexp", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logaddexp", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.LogaddexpGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.logaddexp(x, y, out)
    return out


def logaddexp2(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """log2(2 ** x + 2 ** y), elementwise with broadcasting, without overflow.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "logaddexp2", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "logaddexp2", "y")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("logaddexp2", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_logaddexp2.get(x._data.__class__)
        or dispatch("logaddexp2", "logaddexp2", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logaddexp2", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.Logaddexp2GradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.logaddexp2(x, y, out)
    return out


def lerp(
    x: Tensor | float | int,
    end: Tensor | float | int,
    weight: Tensor | float | int,
) -> Tensor:
    """Linear interpolation x + weight * (end - x), elementwise with broadcasting (PyTorch's lerp(input, end, weight)).

    Args:
        x (Tensor | float | int): The start; broadcasts against end and weight.
        end (Tensor | float | int): The end.
        weight (Tensor | float | int): The interpolation weight (a tensor or a number).

    Returns:
        out (Tensor): A tensor of the broadcast shape.

    Gradient:
        Flows to x, end, weight.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, end, "lerp", "x")
    if not isinstance(end, Tensor):
        end = as_tensor_arg(end, x, "lerp", "end")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "lerp", "weight")
    if x._data.dtype is not end._data.dtype or x._data.dtype is not weight._data.dtype:
        x, end, weight = promote_args("lerp", False, x, end, weight)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("lerp", x, arg="x")
    _kernel = (
        x._data.__class__
        is end._data.__class__
        is weight._data.__class__
        and _k_lerp.get(x._data.__class__)
        or dispatch(
            "lerp",
            "lerp",
            x._data,
            end._data,
            weight._data,
        )
    )
    try:
        out = wrap(_kernel(
            x._data,
            end._data,
            weight._data,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("lerp", _e) from None
    if (x._requires_grad or end._requires_grad or weight._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.LerpGradNode, (x, end, weight), out)
        node.x = TensorWrapper.of_edge(x)
        node.end = TensorWrapper.of_edge(end)
        node.weight = TensorWrapper.of_edge(weight)
    if FORWARD.active:
        _jvp.lerp(x, end, weight, out)
    return out


def addcmul(
    x: Tensor | float | int,
    tensor1: Tensor | float | int,
    tensor2: Tensor | float | int,
    value: float = 1,
) -> Tensor:
    """x + value * (tensor1 * tensor2), elementwise with broadcasting.

    Args:
        x (Tensor | float | int): The tensor added to; broadcasts against tensor1 and tensor2.
        tensor1 (Tensor | float | int): The first factor.
        tensor2 (Tensor | float | int): The second factor.
        value (float | int, default 1): The scale of the product.

    Returns:
        out (Tensor): A tensor of the broadcast shape.

    Gradient:
        Flows to x, tensor1, tensor2.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, tensor1, "addcmul", "x")
    if not isinstance(tensor1, Tensor):
        tensor1 = as_tensor_arg(tensor1, x, "addcmul", "tensor1")
    if not isinstance(tensor2, Tensor):
        tensor2 = as_tensor_arg(tensor2, x, "addcmul", "tensor2")
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "addcmul", "value")
    if x._data.dtype is not tensor1._data.dtype or x._data.dtype is not tensor2._data.dtype:
        x, tensor1, tensor2 = promote_args("addcmul", False, x, tensor1, tensor2)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("addcmul", x, arg="x")
    _kernel = (
        x._data.__class__
        is tensor1._data.__class__
        is tensor2._data.__class__
        and _k_addcmul.get(x._data.__class__)
        or dispatch(
            "addcmul",
            "addcmul",
            x._data,
            tensor1._data,
            tensor2._data,
        )
    )
    try:
        out = wrap(_kernel(
            x._data,
            tensor1._data,
            tensor2._data,
            value,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("addcmul", _e) from None
    if (x._requires_grad or tensor1._requires_grad or tensor2._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.AddcmulGradNode, (x, tensor1, tensor2), out)
        node.x = TensorWrapper.of_edge(x)
        node.tensor1 = TensorWrapper.of_edge(tensor1)
        node.tensor2 = TensorWrapper.of_edge(tensor2)
        node.value = value
    if FORWARD.active:
        _jvp.addcmul(x, tensor1, tensor2, value, out)
    return out


def addcdiv(
    x: Tensor | float | int,
    tensor1: Tensor | float | int,
    tensor2: Tensor | float | int,
    value: float = 1,
) -> Tensor:
    """x + value * (tensor1 / tensor2), elementwise with broadcasting.

    Args:
        x (Tensor | float | int): The tensor added to; broadcasts against tensor1 and tensor2.
        tensor1 (Tensor | float | int): The first factor.
        tensor2 (Tensor | float | int): The second operand (the divisor).
        value (float | int, default 1): The scale of the product.

    Returns:
        out (Tensor): A tensor of the broadcast shape.

    Gradient:
        Flows to x, tensor1, tensor2.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, tensor1, "addcdiv", "x")
    if not isinstance(tensor1, Tensor):
        tensor1 = as_tensor_arg(tensor1, x, "addcdiv", "tensor1")
    if not isinstance(tensor2, Tensor):
        tensor2 = as_tensor_arg(tensor2, x, "addcdiv", "tensor2")
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "addcdiv", "value")
    if x._data.dtype is not tensor1._data.dtype or x._data.dtype is not tensor2._data.dtype:
        x, tensor1, tensor2 = promote_args("addcdiv", False, x, tensor1, tensor2)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("addcdiv", x, arg="x")
    _kernel = (
        x._data.__class__
        is tensor1._data.__class__
        is tensor2._data.__class__
        and _k_addcdiv.get(x._data.__class__)
        or dispatch(
            "addcdiv",
            "addcdiv",
            x._data,
            tensor1._data,
            tensor2._data,
        )
    )
    try:
        out = wrap(_kernel(
            x._data,
            tensor1._data,
            tensor2._data,
            value,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("addcdiv", _e) from None
    if (x._requires_grad or tensor1._requires_grad or tensor2._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.AddcdivGradNode, (x, tensor1, tensor2), out)
        node.x = TensorWrapper.of_edge(x)
        node.tensor1 = TensorWrapper.of_edge(tensor1)
        node.tensor2 = TensorWrapper.of_edge(tensor2)
        node.value = value
    if FORWARD.active:
        _jvp.addcdiv(x, tensor1, tensor2, value, out)
    return out


def nansum(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Sum over axis treating NaN as zero.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce; empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor.

    Gradient:
        Flows to x. The sum's gradient where x is a number, zero where x is NaN.
    """
    if dim is not None:
        axis = alias_arg("nansum", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("nansum", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "nansum", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "nansum", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "nansum", "keepdim")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("nansum", x, arg="x")
    _kernel = _k_nansum.get(x._data.__class__) or dispatch("nansum", "nansum", x._data)
    try:
        _result = _kernel(x._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("nansum", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.NansumGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.nansum(x, axis, keepdim, out)
    return out


def count_nonzero(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    dim: Sequence[int] | int | None = None,
) -> Tensor:
    """The int64 count of non-zero elements over axis; no gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to count over; empty or None counts every element.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): An int64 tensor, x's shape without the counted axes.

    Gradient:
        None: the outputs are not differentiable.
    """
    if dim is not None:
        axis = alias_arg("count_nonzero", "axis", axis, (), "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "count_nonzero", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "count_nonzero", "axis")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("count_nonzero", x, arg="x")
    _kernel = _k_count_nonzero.get(x._data.__class__) or dispatch("count_nonzero", "count_nonzero", x._data)
    try:
        out = wrap(_kernel(x._data, axis))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("count_nonzero", _e) from None
    return out


def logcumsumexp(
    x: Tensor | float | int,
    axis: int | None = None,
    dim: int | None = None,
) -> Tensor:
    """log(cumsum(exp(x))) along axis, computed without overflow.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default None): The axis to accumulate along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if dim is not None or axis is None:
        axis = alias_arg("logcumsumexp", "axis", axis, None, "dim", dim, True)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "logcumsumexp", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "logcumsumexp", "axis")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("logcumsumexp", x)
    _kernel = _k_logcumsumexp.get(x._data.__class__) or dispatch("logcumsumexp", "logcumsumexp", x._data)
    try:
        _result = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logcumsumexp", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.LogcumsumexpGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.logcumsumexp(x, axis, out)
    return out


def cummax(
    x: Tensor | float | int,
    axis: int | None = None,
    dim: int | None = None,
) -> tuple[Tensor, Tensor]:
    """The running maximum along axis and the int64 index where each was attained (the latest on ties, as PyTorch).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default None): The axis to scan.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        A tuple (values, indices):
        values (Tensor): The running maximum, of x's shape.
        indices (Tensor): int64 positions along axis, of x's shape.

    Gradient:
        Flows to x. Not differentiable: output indices. Each gradient goes to the position its maximum came from.
    """
    if dim is not None or axis is None:
        axis = alias_arg("cummax", "axis", axis, None, "dim", dim, True)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cummax", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "cummax", "axis")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("cummax", x, arg="x")
    _kernel = _k_cummax.get(x._data.__class__) or dispatch("cummax", "cummax", x._data)
    try:
        _results = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cummax", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("cummax", 2, _results) from None
    values = wrap(_r0)
    indices = wrap(_r1)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.CummaxGradNode, values, x)
        node.x = TensorWrapper.of_edge(x)
        node.indices = TensorWrapper.of_input(indices)
        node.axis = axis
    if FORWARD.active:
        _jvp.cummax(x, axis, values, indices)
    return (values, indices)


def cummin(
    x: Tensor | float | int,
    axis: int | None = None,
    dim: int | None = None,
) -> tuple[Tensor, Tensor]:
    """The running minimum along axis and the int64 index where each was attained (the latest on ties, as PyTorch).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default None): The axis to scan.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        A tuple (values, indices):
        values (Tensor): The running minimum, of x's shape.
        indices (Tensor): int64 positions along axis, of x's shape.

    Gradient:
        Flows to x. Not differentiable: output indices. Each gradient goes to the position its minimum came from.
    """
    if dim is not None or axis is None:
        axis = alias_arg("cummin", "axis", axis, None, "dim", dim, True)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cummin", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "cummin", "axis")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("cummin", x, arg="x")
    _kernel = _k_cummin.get(x._data.__class__) or dispatch("cummin", "cummin", x._data)
    try:
        _results = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cummin", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("cummin", 2, _results) from None
    values = wrap(_r0)
    indices = wrap(_r1)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.CumminGradNode, values, x)
        node.x = TensorWrapper.of_edge(x)
        node.indices = TensorWrapper.of_input(indices)
        node.axis = axis
    if FORWARD.active:
        _jvp.cummin(x, axis, values, indices)
    return (values, indices)


def pixel_shuffle(
    x: Tensor | float | int,
    upscale_factor: int,
) -> Tensor:
    """Rearranges (..., C * r^2, H, W) into (..., C, H * r, W * r), r = upscale_factor (sub-pixel convolution's upsampling).

    Args:
        x (Tensor | float | int): Input of shape (..., C * r^2, H, W).
        upscale_factor (int): The factor r.

    Returns:
        out (Tensor): A tensor of shape (..., C, H * r, W * r).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "pixel_shuffle", "x")
    if upscale_factor.__class__ is not int:
        upscale_factor = int_arg(upscale_factor, "pixel_shuffle", "upscale_factor")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("pixel_shuffle", x, arg="x")
    _kernel = _k_pixel_shuffle.get(x._data.__class__) or dispatch("pixel_shuffle", "pixel_shuffle", x._data)
    try:
        _result = _kernel(x._data, upscale_factor)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pixel_shuffle", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.PixelShuffleGradNode, _result, x)
        node.upscale_factor = upscale_factor
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.pixel_shuffle(x, upscale_factor, out)
    return out


def pixel_unshuffle(
    x: Tensor | float | int,
    downscale_factor: int,
) -> Tensor:
    """Rearranges (..., C, H * r, W * r) into (..., C * r^2, H, W), r = downscale_factor; the inverse of pixel_shuffle.

    Args:
        x (Tensor | float | int): Input of shape (..., C, H, W) with H and W divisible by r.
        downscale_factor (int): The factor r.

    Returns:
        out (Tensor): A tensor of shape (..., C * r^2, H / r, W / r).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "pixel_unshuffle", "x")
    if downscale_factor.__class__ is not int:
        downscale_factor = int_arg(downscale_factor, "pixel_unshuffle", "downscale_factor")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("pixel_unshuffle", x, arg="x")
    _kernel = _k_pixel_unshuffle.get(x._data.__class__) or dispatch("pixel_unshuffle", "pixel_unshuffle", x._data)
    try:
        _result = _kernel(x._data, downscale_factor)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pixel_unshuffle", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.PixelUnshuffleGradNode, _result, x)
        node.downscale_factor = downscale_factor
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.pixel_unshuffle(x, downscale_factor, out)
    return out


def searchsorted(
    sorted_sequence: Tensor | float | int,
    values: Tensor | float | int,
    right: bool = False,
    side: str | None = None,
    sorter: Tensor | float | int | None = None,
) -> Tensor:
    """int64 indices where values would be inserted into sorted_sequence (its last axis) to keep it sorted; no gradient.

    Args:
        sorted_sequence (Tensor | float | int): Sorted along its last axis: 1-D, or with the leading axes of values.
        values (Tensor | float | int): The values to place.
        right (bool, default False): Return the last suitable position instead of the first (as side='right').
        side (str | None, default None): 'left' or 'right'; overrides right (they must agree).
        sorter (Tensor | float | int | None, default None): Optional int64 indices that sort sorted_sequence along its last axis.

    Returns:
        out (Tensor): int64 indices of values' shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(sorted_sequence, Tensor):
        sorted_sequence = as_tensor_arg(sorted_sequence, values, "searchsorted", "sorted_sequence")
    if not isinstance(values, Tensor):
        values = as_tensor_arg(values, sorted_sequence, "searchsorted", "values")
    if sorter is not None and not isinstance(sorter, Tensor):
        sorter = as_tensor_arg(sorter, sorted_sequence, "searchsorted", "sorter")
    if right.__class__ is not bool:
        right = bool_arg(right, "searchsorted", "right")
    if side.__class__ is not str and side is not None:
        side = str_arg(side, "searchsorted", "side")
    if sorted_sequence._data.dtype in COMPLEX_DTYPES:
        refuse_complex("searchsorted", sorted_sequence, arg="sorted_sequence")
    if values._data.dtype in COMPLEX_DTYPES:
        refuse_complex("searchsorted", values, arg="values")
    if sorter is not None and sorter._data.dtype in COMPLEX_DTYPES:
        refuse_complex("searchsorted", sorter, arg="sorter")
    _sorter_data = None if sorter is None else sorter._data
    _kernel = (
        sorted_sequence._data.__class__
        is values._data.__class__
        is _sorter_data.__class__
        and _k_searchsorted.get(sorted_sequence._data.__class__)
        or dispatch(
            "searchsorted",
            "searchsorted",
            sorted_sequence._data,
            values._data,
            _sorter_data,
        )
    )
    try:
        out = wrap(_kernel(
            sorted_sequence._data,
            values._data,
            _sorter_data,
            right,
            side,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("searchsorted", _e) from None
    return out


def bucketize(
    x: Tensor | float | int,
    boundaries: Tensor | float | int,
    right: bool = False,
) -> Tensor:
    """int64 index of the bucket of each element of x among the sorted 1-D boundaries; no gradient.

    Args:
        x (Tensor | float | int): The values to bucket, of any shape.
        boundaries (Tensor | float | int): Sorted 1-D bucket boundaries.
        right (bool, default False): False: boundaries[i-1] < x <= boundaries[i]; True: boundaries[i-1] <= x < boundaries[i].

    Returns:
        out (Tensor): int64 indices of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, boundaries, "bucketize", "x")
    if not isinstance(boundaries, Tensor):
        boundaries = as_tensor_arg(boundaries, x, "bucketize", "boundaries")
    if right.__class__ is not bool:
        right = bool_arg(right, "bucketize", "right")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bucketize", x, arg="x")
    if boundaries._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bucketize", boundaries, arg="boundaries")
    _kernel = (
        x._data.__class__
        is boundaries._data.__class__
        and _k_bucketize.get(x._data.__class__)
        or dispatch("bucketize", "bucketize", x._data, boundaries._data)
    )
    try:
        out = wrap(_kernel(x._data, boundaries._data, right))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bucketize", _e) from None
    return out


def histc(
    x: Tensor | float | int,
    bins: int = 100,
    min: float = 0.0,
    max: float = 0.0,
) -> Tensor:
    """A histogram of x with bins equal bins over [min, max] (the data's range when min == max), elements outside ignored; no gradient.

    Args:
        x (Tensor | float | int): A floating tensor, of any shape.
        bins (int, default 100): The number of bins.
        min (float | int, default 0.0): The lower end of the range.
        max (float | int, default 0.0): The upper end of the range.

    Returns:
        out (Tensor): The counts, 1-D of length bins, in x's dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "histc", "x")
    if bins.__class__ is not int:
        bins = int_arg(bins, "histc", "bins")
    if min.__class__ is not float:
        min = float_arg(min, "histc", "min")
    if max.__class__ is not float:
        max = float_arg(max, "histc", "max")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("histc", x, arg="x")
    _kernel = _k_histc.get(x._data.__class__) or dispatch("histc", "histc", x._data)
    try:
        out = wrap(_kernel(x._data, bins, min, max))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("histc", _e) from None
    return out


def bincount(
    x: Tensor | float | int,
    weights: Tensor | float | int | None = None,
    minlength: int = 0,
) -> Tensor:
    """The number of occurrences (or the summed weights) of each value 0..max(x) of a 1-D non-negative integer tensor; no gradient.

    Args:
        x (Tensor | float | int): A 1-D tensor of non-negative integers.
        weights (Tensor | float | int | None, default None): Optional weights of x's shape.
        minlength (int, default 0): The least length of the result.

    Returns:
        out (Tensor): int64 counts, or the weights' floating dtype, of length max(max(x) + 1, minlength).

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weights, "bincount", "x")
    if weights is not None and not isinstance(weights, Tensor):
        weights = as_tensor_arg(weights, x, "bincount", "weights")
    if minlength.__class__ is not int:
        minlength = int_arg(minlength, "bincount", "minlength")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bincount", x, arg="x")
    if weights is not None and weights._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bincount", weights, arg="weights")
    _weights_data = None if weights is None else weights._data
    _kernel = (
        x._data.__class__
        is _weights_data.__class__
        and _k_bincount.get(x._data.__class__)
        or dispatch("bincount", "bincount", x._data, _weights_data)
    )
    try:
        out = wrap(_kernel(x._data, _weights_data, minlength))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bincount", _e) from None
    return out


def nonzero(x: Tensor | float | int) -> Tensor:
    """The int64 indices of the non-zero elements, one row per element in row-major order; no gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): An int64 tensor (number of non-zero elements, x.ndim).

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "nonzero", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("nonzero", x, arg="x")
    _kernel = _k_nonzero.get(x._data.__class__) or dispatch("nonzero", "nonzero", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("nonzero", _e) from None
    return out


def argwhere(x: Tensor | float | int) -> Tensor:
    """The int64 indices of the non-zero elements (as nonzero), one row each; no gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): An int64 tensor (number of non-zero elements, x.ndim).

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argwhere", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("argwhere", x, arg="x")
    _kernel = _k_argwhere.get(x._data.__class__) or dispatch("argwhere", "argwhere", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("argwhere", _e) from None
    return out


def xlogy(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x * log(y), elementwise with broadcasting, and 0 where x is 0 (unless y is NaN), as PyTorch.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape.

    Gradient:
        Flows to x, y. log(y) for x (0 where x is 0, as PyTorch) and x / y for y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "xlogy", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "xlogy", "y")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("xlogy", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_xlogy.get(x._data.__class__)
        or dispatch("xlogy", "xlogy", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("xlogy", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.XlogyGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.xlogy(x, y, out)
    return out


def fmod(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """The C-style remainder x - trunc(x / y) * y (it takes x's sign), elementwise with broadcasting.

    Args:
        x (Tensor | float | int): The dividend; broadcasts against y.
        y (Tensor | float | int): The divisor; broadcasts against x.

    Returns:
        out (Tensor): A tensor of the broadcast shape.

    Gradient:
        Flows to x, y. 1 for x and -trunc(x / y) for y (the jumps are ignored, as in PyTorch).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "fmod", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "fmod", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("fmod", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("fmod", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_fmod.get(x._data.__class__)
        or dispatch("fmod", "fmod", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fmod", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.FmodGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.fmod(x, y, out)
    return out


def copysign(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """|x| with the sign of y, elementwise with broadcasting.

    Args:
        x (Tensor | float | int): Gives the magnitude; broadcasts against y.
        y (Tensor | float | int): Gives the sign (of -0.0 too); broadcasts against x.

    Returns:
        out (Tensor): A floating tensor of the broadcast shape.

    Gradient:
        Flows to x, y. sign(x) * sign(out) for x (0 at x = 0), none for y (a step).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "copysign", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "copysign", "y")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("copysign", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_copysign.get(x._data.__class__)
        or dispatch("copysign", "copysign", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("copysign", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.CopysignGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.copysign(x, y, out)
    return out


def nan_to_num(
    x: Tensor | float | int,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
) -> Tensor:
    """x with NaN replaced by nan, +inf by posinf and -inf by neginf (the dtype's largest and lowest finite values when None).

    Args:
        x (Tensor | float | int): The input, of any shape.
        nan (float | int, default 0.0): The value for NaN.
        posinf (float | int | None, default None): The value for +inf (None: the dtype's largest finite).
        neginf (float | int | None, default None): The value for -inf (None: the dtype's lowest finite).

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x. Passes the gradient where x is finite, zero where it was replaced.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "nan_to_num", "x")
    if nan.__class__ is not float:
        nan = float_arg(nan, "nan_to_num", "nan")
    if posinf.__class__ is not float and posinf is not None:
        posinf = float_arg(posinf, "nan_to_num", "posinf")
    if neginf.__class__ is not float and neginf is not None:
        neginf = float_arg(neginf, "nan_to_num", "neginf")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("nan_to_num", x, arg="x")
    _kernel = _k_nan_to_num.get(x._data.__class__) or dispatch("nan_to_num", "nan_to_num", x._data)
    try:
        _result = _kernel(x._data, nan, posinf, neginf)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("nan_to_num", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.NanToNumGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.nan = nan
        node.posinf = posinf
        node.neginf = neginf
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.nan_to_num(x, nan, posinf, neginf, out)
    return out


def heaviside(
    x: Tensor | float | int,
    values: Tensor | float | int,
) -> Tensor:
    """The step function: 0 where x < 0, 1 where x > 0, values where x == 0, elementwise with broadcasting; no gradient (as PyTorch).

    Args:
        x (Tensor | float | int): The input; broadcasts against values.
        values (Tensor | float | int): The result where x is 0.

    Returns:
        out (Tensor): A tensor of the broadcast shape and promoted dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, values, "heaviside", "x")
    if not isinstance(values, Tensor):
        values = as_tensor_arg(values, x, "heaviside", "values")
    if x._data.dtype is not values._data.dtype:
        x, values = promote_args("heaviside", False, x, values)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("heaviside", x, arg="x")
    _kernel = (
        x._data.__class__
        is values._data.__class__
        and _k_heaviside.get(x._data.__class__)
        or dispatch("heaviside", "heaviside", x._data, values._data)
    )
    try:
        out = wrap(_kernel(x._data, values._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("heaviside", _e) from None
    return out


def logical_xor(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x xor y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "logical_xor", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "logical_xor", "y")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("logical_xor", x, arg="x")
    if y._data.dtype in COMPLEX_DTYPES:
        refuse_complex("logical_xor", y, arg="y")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_logical_xor.get(x._data.__class__)
        or dispatch("logical_xor", "logical_xor", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logical_xor", _e) from None
    return out


def isposinf(x: Tensor | float | int) -> Tensor:
    """True where x is +inf; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A bool tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isposinf", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("isposinf", x, arg="x")
    _kernel = _k_isposinf.get(x._data.__class__) or dispatch("isposinf", "isposinf", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isposinf", _e) from None
    return out


def isneginf(x: Tensor | float | int) -> Tensor:
    """True where x is -inf; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A bool tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isneginf", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("isneginf", x, arg="x")
    _kernel = _k_isneginf.get(x._data.__class__) or dispatch("isneginf", "isneginf", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isneginf", _e) from None
    return out


def signbit(x: Tensor | float | int) -> Tensor:
    """True where x's sign bit is set (negative numbers and -0.0); a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A bool tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "signbit", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("signbit", x, arg="x")
    _kernel = _k_signbit.get(x._data.__class__) or dispatch("signbit", "signbit", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("signbit", _e) from None
    return out


def bitwise_left_shift(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x << y, the bits of x shifted left by y, elementwise with broadcasting (integer tensors).

    Args:
        x (Tensor | float | int): An integer tensor.
        y (Tensor | float | int): Non-negative shift counts; broadcasts against x.

    Returns:
        out (Tensor): An integer tensor of the broadcast shape and promoted dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "bitwise_left_shift", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "bitwise_left_shift", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("bitwise_left_shift", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bitwise_left_shift", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_bitwise_left_shift.get(x._data.__class__)
        or dispatch("bitwise_left_shift", "bitwise_left_shift", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bitwise_left_shift", _e) from None
    return out


def bitwise_right_shift(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x >> y, the bits of x shifted right (arithmetic) by y, elementwise with broadcasting (integer tensors).

    Args:
        x (Tensor | float | int): An integer tensor.
        y (Tensor | float | int): Non-negative shift counts; broadcasts against x.

    Returns:
        out (Tensor): An integer tensor of the broadcast shape and promoted dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "bitwise_right_shift", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "bitwise_right_shift", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("bitwise_right_shift", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bitwise_right_shift", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_bitwise_right_shift.get(x._data.__class__)
        or dispatch("bitwise_right_shift", "bitwise_right_shift", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bitwise_right_shift", _e) from None
    return out


def equal(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x == y, elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x != y, elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x < y, elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "less_than", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "less_than", "y")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("less_than", x, arg="x")
    if y._data.dtype in COMPLEX_DTYPES:
        refuse_complex("less_than", y, arg="y")
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x <= y, elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "less_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "less_equal", "y")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("less_equal", x, arg="x")
    if y._data.dtype in COMPLEX_DTYPES:
        refuse_complex("less_equal", y, arg="y")
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x > y, elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "greater_than", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "greater_than", "y")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("greater_than", x, arg="x")
    if y._data.dtype in COMPLEX_DTYPES:
        refuse_complex("greater_than", y, arg="y")
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x >= y, elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "greater_equal", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "greater_equal", "y")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("greater_equal", x, arg="x")
    if y._data.dtype in COMPLEX_DTYPES:
        refuse_complex("greater_equal", y, arg="y")
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x and y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "logical_and", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "logical_and", "y")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("logical_and", x, arg="x")
    if y._data.dtype in COMPLEX_DTYPES:
        refuse_complex("logical_and", y, arg="y")
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
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x or y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The first operand; broadcasts against y.
        y (Tensor | float | int): The second operand; broadcasts against x.

    Returns:
        out (Tensor): A bool tensor of the broadcast shape of x and y.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "logical_or", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "logical_or", "y")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("logical_or", x, arg="x")
    if y._data.dtype in COMPLEX_DTYPES:
        refuse_complex("logical_or", y, arg="y")
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


def logical_not(x: Tensor | float | int) -> Tensor:
    """not x (nonzero counts as true), elementwise; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A bool tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "logical_not", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("logical_not", x, arg="x")
    _kernel = _k_logical_not.get(x._data.__class__) or dispatch("logical_not", "logical_not", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logical_not", _e) from None
    return out


def isnan(x: Tensor | float | int) -> Tensor:
    """True where x is NaN; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A bool tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isnan", "x")
    _kernel = _k_isnan.get(x._data.__class__) or dispatch("isnan", "isnan", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isnan", _e) from None
    return out


def isinf(x: Tensor | float | int) -> Tensor:
    """True where x is +inf or -inf; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A bool tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isinf", "x")
    _kernel = _k_isinf.get(x._data.__class__) or dispatch("isinf", "isinf", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isinf", _e) from None
    return out


def isfinite(x: Tensor | float | int) -> Tensor:
    """True where x is neither NaN nor infinite; a bool tensor without gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.

    Returns:
        out (Tensor): A bool tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "isfinite", "x")
    _kernel = _k_isfinite.get(x._data.__class__) or dispatch("isfinite", "isfinite", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("isfinite", _e) from None
    return out


def sum(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Sum over axis.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("sum", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("sum", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sum", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "sum", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "sum", "keepdim")
    _kernel = _k_sum.get(x._data.__class__) or dispatch("sum", "sum", x._data)
    try:
        _result = _kernel(x._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sum", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SumGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.sum(x, axis, keepdim, out)
    return out


def mean(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Arithmetic mean over axis.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x. The gradient is out_grad / N, N the number of elements reduced.
    """
    if dim is not None:
        axis = alias_arg("mean", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("mean", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "mean", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "mean", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "mean", "keepdim")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("mean", x)
    _kernel = _k_mean.get(x._data.__class__) or dispatch("mean", "mean", x._data)
    try:
        _result = _kernel(x._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mean", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.MeanGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.mean(x, axis, keepdim, out)
    return out


def max(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Maximum over axis (values only; ties share the gradient equally).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("max", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("max", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "max", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "max", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "max", "keepdim")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("max", x, arg="x")
    _kernel = _k_max.get(x._data.__class__) or dispatch("max", "max", x._data)
    try:
        _result = _kernel(x._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("max", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.MaxGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.max(x, axis, keepdim, out)
    return out


def min(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Minimum over axis (values only; ties share the gradient equally).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("min", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("min", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "min", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "min", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "min", "keepdim")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("min", x, arg="x")
    _kernel = _k_min.get(x._data.__class__) or dispatch("min", "min", x._data)
    try:
        _result = _kernel(x._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("min", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.MinGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.min(x, axis, keepdim, out)
    return out


def prod(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Product over axis (the gradient is exact when x has zeros).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("prod", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("prod", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "prod", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "prod", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "prod", "keepdim")
    _kernel = _k_prod.get(x._data.__class__) or dispatch("prod", "prod", x._data)
    try:
        _result = _kernel(x._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("prod", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ProdGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.prod(x, axis, keepdim, out)
    return out


def logsumexp(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """log(sum(exp(x))) over axis, computed stably; -inf over an empty axis.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("logsumexp", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("logsumexp", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "logsumexp", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "logsumexp", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "logsumexp", "keepdim")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("logsumexp", x)
    _kernel = _k_logsumexp.get(x._data.__class__) or dispatch("logsumexp", "logsumexp", x._data)
    try:
        _result = _kernel(x._data, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("logsumexp", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.LogsumexpGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.logsumexp(x, axis, keepdim, out)
    return out


def argmax(
    x: Tensor | float | int,
    axis: int | None = None,
    keepdim: bool = False,
    dim: int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """int64 index of the maximum along axis (None means the flattened x); no gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | None, default None): The axis to search, or None for the flattened x.
        keepdim (bool, default False): Keep the searched axis as size 1 (with an axis).
        dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): An int64 tensor of indices: x's shape without axis (a 0-d tensor for None).

    Gradient:
        None: the outputs are not differentiable.
    """
    if dim is not None:
        axis = alias_arg("argmax", "axis", axis, None, "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("argmax", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argmax", "x")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "argmax", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "argmax", "keepdim")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("argmax", x, arg="x")
    _kernel = _k_argmax.get(x._data.__class__) or dispatch("argmax", "argmax", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("argmax", _e) from None
    return out


def argmin(
    x: Tensor | float | int,
    axis: int | None = None,
    keepdim: bool = False,
    dim: int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """int64 index of the minimum along axis (None means the flattened x); no gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | None, default None): The axis to search, or None for the flattened x.
        keepdim (bool, default False): Keep the searched axis as size 1 (with an axis).
        dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): An int64 tensor of indices: x's shape without axis (a 0-d tensor for None).

    Gradient:
        None: the outputs are not differentiable.
    """
    if dim is not None:
        axis = alias_arg("argmin", "axis", axis, None, "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("argmin", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argmin", "x")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "argmin", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "argmin", "keepdim")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("argmin", x, arg="x")
    _kernel = _k_argmin.get(x._data.__class__) or dispatch("argmin", "argmin", x._data)
    try:
        out = wrap(_kernel(x._data, axis, keepdim))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("argmin", _e) from None
    return out


def var(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    unbiased: bool = True,
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Variance over axis; unbiased divides by N - 1 (NaN when N == 1), else by N.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        unbiased (bool, default True): True divides the squared deviations by N - 1 (Bessel's correction), False by N.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("var", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("var", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "var", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "var", "axis")
    if unbiased.__class__ is not bool:
        unbiased = bool_arg(unbiased, "var", "unbiased")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "var", "keepdim")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("var", x)
    _kernel = _k_var.get(x._data.__class__) or dispatch("var", "var", x._data)
    try:
        _result = _kernel(x._data, axis, unbiased, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("var", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.VarGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.axis = axis
        node.unbiased = unbiased
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.var(x, axis, unbiased, keepdim, out)
    return out


def std(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    unbiased: bool = True,
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Standard deviation over axis (sqrt of var); its gradient is 0 where the result is 0.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        unbiased (bool, default True): True divides the squared deviations by N - 1 (Bessel's correction), False by N.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("std", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("std", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "std", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "std", "axis")
    if unbiased.__class__ is not bool:
        unbiased = bool_arg(unbiased, "std", "unbiased")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "std", "keepdim")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("std", x)
    _kernel = _k_std.get(x._data.__class__) or dispatch("std", "std", x._data)
    try:
        _result = _kernel(x._data, axis, unbiased, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("std", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.StdGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
        node.unbiased = unbiased
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.std(x, axis, unbiased, keepdim, out)
    return out


def norm(
    x: Tensor | float | int,
    p: float = 2.0,
    axis: Sequence[int] | int = (),
    keepdim: bool = False,
    dim: Sequence[int] | int | None = None,
    keepdims: bool | None = None,
) -> Tensor:
    """Vector p-norm over axis (all of x by default), for p >= 1 or inf; the 2-norm's gradient is 0 where the norm is 0; for inf, ties share the gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        p (float | int, default 2.0): The order of the norm, at least 1, or float('inf') for the maximum absolute value.
        axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
        keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
        keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("norm", "axis", axis, (), "dim", dim, False)
    if keepdims is not None:
        keepdim = alias_arg("norm", "keepdim", keepdim, False, "keepdims", keepdims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "norm", "x")
    if p.__class__ is not float:
        p = float_arg(p, "norm", "p")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "norm", "axis")
    if keepdim.__class__ is not bool:
        keepdim = bool_arg(keepdim, "norm", "keepdim")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("norm", x)
    _kernel = _k_norm.get(x._data.__class__) or dispatch("norm", "norm", x._data)
    try:
        _result = _kernel(x._data, p, axis, keepdim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("norm", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.NormGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
        node.p = p
        node.axis = axis
        node.keepdim = keepdim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.norm(x, p, axis, keepdim, out)
    return out


def cumsum(
    x: Tensor | float | int,
    axis: int | None = None,
    dim: int | None = None,
) -> Tensor:
    """Cumulative sum along axis; axis None sums the flattened x (a 1-D result).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | None, default None): The axis to accumulate along, or None for the flattened x.
        dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): x's shape (1-D for axis None).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("cumsum", "axis", axis, None, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cumsum", "x")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "cumsum", "axis")
    _kernel = _k_cumsum.get(x._data.__class__) or dispatch("cumsum", "cumsum", x._data)
    try:
        _result = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cumsum", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.CumsumGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cumsum(x, axis, out)
    return out


def cumprod(
    x: Tensor | float | int,
    dim: int | None = None,
    axis: int | None = None,
) -> Tensor:
    """Cumulative product along dim; dim None works on the flattened x (a 1-D result). The gradient is exact when x has zeros.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        dim (int | None, default None): The axis to accumulate along, or None for the flattened x.
        axis (int | None | None, default None): Alias of dim (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): x's shape (1-D for dim None).

    Gradient:
        Flows to x.
    """
    if axis is not None:
        dim = alias_arg("cumprod", "dim", dim, None, "axis", axis, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cumprod", "x")
    if dim.__class__ is not int and dim is not None:
        dim = int_arg(dim, "cumprod", "dim")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("cumprod", x, arg="x")
    _kernel = _k_cumprod.get(x._data.__class__) or dispatch("cumprod", "cumprod", x._data)
    try:
        _result = _kernel(x._data, dim)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cumprod", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.CumprodGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
        node.dim = dim
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cumprod(x, dim, out)
    return out


def topk(
    x: Tensor | float | int,
    k: int,
    axis: int = -1,
    largest: bool = True,
    sorted: bool = True,
    dim: int | None = None,
) -> tuple[Tensor, Tensor]:
    """The k largest (or smallest) values along axis and their int64 indices; results are always sorted (ties keep the lower index first); NaN counts as the largest value.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        k (int): How many values to take; at most the size of axis.
        axis (int, default -1): The axis to select along.
        largest (bool, default True): True takes the largest values, False the smallest.
        sorted (bool, default True): Accepted for compatibility: the results are always sorted.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        A tuple (out, indices):
        out (Tensor): The values: x's shape with axis of size k.
        indices (Tensor): Their int64 positions along axis, the same shape.

    Gradient:
        Flows to x. Not differentiable: output indices. The gradient is scattered back to the positions in indices.
    """
    if dim is not None:
        axis = alias_arg("topk", "axis", axis, -1, "dim", dim, False)
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
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("topk", x, arg="x")
    _kernel = _k_topk.get(x._data.__class__) or dispatch("topk", "topk", x._data)
    try:
        _results = _kernel(x._data, k, axis, largest, sorted)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("topk", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("topk", 2, _results) from None
    out = wrap(_r0)
    indices = wrap(_r1)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.TopkGradNode, out, x)
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
    x: Tensor | float | int,
    axis: int = -1,
    descending: bool = False,
    dim: int | None = None,
) -> Tensor:
    """x sorted along axis (a stable sort, NaN last ascending and first descending); values only, argsort gives the indices.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default -1): The axis to sort along.
        descending (bool, default False): Sort from the largest value down.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. The gradient is scattered back to where each value came from.
    """
    if dim is not None:
        axis = alias_arg("sort", "axis", axis, -1, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "sort", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "sort", "axis")
    if descending.__class__ is not bool:
        descending = bool_arg(descending, "sort", "descending")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("sort", x, arg="x")
    _kernel = _k_sort.get(x._data.__class__) or dispatch("sort", "sort", x._data)
    try:
        _results = _kernel(x._data, axis, descending)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("sort", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("sort", 2, _results) from None
    out = wrap(_r0)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.SortGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.indices = TensorWrapper.of_input(wrap(_r1))
        node.axis = axis
        node.descending = descending
    if FORWARD.active:
        _jvp.sort(x, axis, descending, out, wrap(_results[1]))
    return out


def argsort(
    x: Tensor | float | int,
    axis: int = -1,
    descending: bool = False,
    dim: int | None = None,
) -> Tensor:
    """int64 indices that sort x along axis (stable; equal values keep their order); no gradient.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default -1): The axis to sort along.
        descending (bool, default False): Order from the largest value down (still stable).
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): An int64 tensor of x's shape.

    Gradient:
        None: the outputs are not differentiable.
    """
    if dim is not None:
        axis = alias_arg("argsort", "axis", axis, -1, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "argsort", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "argsort", "axis")
    if descending.__class__ is not bool:
        descending = bool_arg(descending, "argsort", "descending")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("argsort", x, arg="x")
    _kernel = _k_argsort.get(x._data.__class__) or dispatch("argsort", "argsort", x._data)
    try:
        out = wrap(_kernel(x._data, axis, descending))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("argsort", _e) from None
    return out


def matmul(
    x: Tensor | float | int,
    y: Tensor | float | int,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """Matrix product with NumPy semantics (1-D operands, batch broadcasting); transpose_x/transpose_y swap the last two axes first.

    Args:
        x (Tensor | float | int): The left operand, 1-D or more (batch axes first).
        y (Tensor | float | int): The right operand, 1-D or more (batch axes first).
        transpose_x (bool, default False): Swap x's last two axes before multiplying.
        transpose_y (bool, default False): Swap y's last two axes before multiplying.

    Returns:
        out (Tensor): The product; batch axes broadcast, a 1-D operand's axis is removed.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "matmul", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "matmul", "y")
    if transpose_x.__class__ is not bool:
        transpose_x = bool_arg(transpose_x, "matmul", "transpose_x")
    if transpose_y.__class__ is not bool:
        transpose_y = bool_arg(transpose_y, "matmul", "transpose_y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("matmul", False, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_matmul.get(x._data.__class__)
        or dispatch("matmul", "matmul", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data, transpose_x, transpose_y)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matmul", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.MatmulGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.matmul(x, y, transpose_x, transpose_y, out)
    return out


def reshape(
    x: Tensor | float | int,
    shape: Sequence[int] | int,
) -> Tensor:
    """x with a new shape (one entry may be -1); a view where possible.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        shape (int | Sequence[int]): The new shape; its product must equal x's size, one entry may be -1 (inferred).

    Returns:
        out (Tensor): A tensor of that shape with x's elements in row-major order.

    Gradient:
        Flows to x.
    """
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
        node = new_node_of(_nodes.ReshapeGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.shape = shape
    if FORWARD.active:
        _jvp.reshape(x, shape, out)
    return out


def transpose(
    x: Tensor | float | int,
    perm: Sequence[int] | int,
) -> Tensor:
    """x with its axes permuted by perm; a view.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        perm (int | Sequence[int]): A permutation of range(x.ndim): axis i of the result is axis perm[i] of x.

    Returns:
        out (Tensor): A view of x with permuted axes.

    Gradient:
        Flows to x.
    """
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
        node = new_node_of(_nodes.TransposeGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.perm = perm
    if FORWARD.active:
        _jvp.transpose(x, perm, out)
    return out


def squeeze(
    x: Tensor | float | int,
    axis: Sequence[int] | int = (),
    dim: Sequence[int] | int | None = None,
) -> Tensor:
    """x without the size-1 axes listed (empty means all size-1 axes); a view.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default ()): The size-1 axes to remove (an int or a list); empty removes every size-1 axis.
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A view of x with fewer axes.

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("squeeze", "axis", axis, (), "dim", dim, False)
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
        node = new_node_of(_nodes.SqueezeGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.squeeze(x, axis, out)
    return out


def unsqueeze(
    x: Tensor | float | int,
    axis: Sequence[int] | int | None = None,
    dim: Sequence[int] | int | None = None,
) -> Tensor:
    """x with size-1 axes inserted at axis (int or list); a view.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default None): Where the new axes go, as positions in the result (an int or a list).
        dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A view of x with more axes.

    Gradient:
        Flows to x.
    """
    if dim is not None or axis is None:
        axis = alias_arg("unsqueeze", "axis", axis, None, "dim", dim, True)
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
        node = new_node_of(_nodes.UnsqueezeGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.axis = axis
    if FORWARD.active:
        _jvp.unsqueeze(x, axis, out)
    return out


def flatten(
    x: Tensor | float | int,
    start_axis: int = 0,
    stop_axis: int = -1,
    start_dim: int | None = None,
    end_dim: int | None = None,
) -> Tensor:
    """x with axes start_axis..stop_axis merged into one; a view where possible.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        start_axis (int, default 0): The first axis merged.
        stop_axis (int, default -1): The last axis merged (inclusive; -1 is the last axis).
        start_dim (int | None, default None): Alias of start_axis (the PyTorch/NumPy spelling); give one or the other.
        end_dim (int | None, default None): Alias of stop_axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor with the merged axes as one.

    Gradient:
        Flows to x.
    """
    if start_dim is not None:
        start_axis = alias_arg("flatten", "start_axis", start_axis, 0, "start_dim", start_dim, False)
    if end_dim is not None:
        stop_axis = alias_arg("flatten", "stop_axis", stop_axis, -1, "end_dim", end_dim, False)
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
        node = new_node_of(_nodes.FlattenGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.start_axis = start_axis
        node.stop_axis = stop_axis
    if FORWARD.active:
        _jvp.flatten(x, start_axis, stop_axis, out)
    return out


def expand(
    x: Tensor | float | int,
    shape: Sequence[int] | int,
) -> Tensor:
    """x broadcast to shape (-1 keeps a dimension); a read-only view.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        shape (int | Sequence[int]): The target shape; -1 keeps x's size there, new leading axes may be added.

    Returns:
        out (Tensor): A read-only view of x broadcast to shape.

    Gradient:
        Flows to x. The gradient is summed over the expanded axes.
    """
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
        node = new_node_of(_nodes.ExpandGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.shape = shape
    if FORWARD.active:
        _jvp.expand(x, shape, out)
    return out


def concat(
    x: Sequence[Tensor | float | int],
    axis: int = 0,
    dim: int | None = None,
) -> Tensor:
    """The tensors of x joined along axis.

    Args:
        x (list[Tensor] | tuple[Tensor, ...]): The tensors to join; equal shapes except along axis.
        axis (int, default 0): The axis to join along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor whose axis is the sum of theirs.

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("concat", "axis", axis, 0, "dim", dim, False)
    x = tensors_of(x, "concat", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "concat", "axis")
    x = promote_list("concat", x)
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
    if _builtins.any(_t._requires_grad for _t in x) and grad_enabled() and out._data.dtype.kind in "fc":
        node = new_node(_nodes.ConcatGradNode, (*x,), out)
        node.x = [TensorWrapper.meta_of(_t) for _t in x]
        node.axis = axis
    if FORWARD.active:
        _jvp.concat(x, axis, out)
    return out


def stack(
    x: Sequence[Tensor | float | int],
    axis: int = 0,
    dim: int | None = None,
) -> Tensor:
    """The tensors of x (equal shapes) stacked along a new axis.

    Args:
        x (list[Tensor] | tuple[Tensor, ...]): The tensors to stack, all of the same shape.
        axis (int, default 0): Where the new axis goes in the result.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor with one more axis, of size len(x).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("stack", "axis", axis, 0, "dim", dim, False)
    x = tensors_of(x, "stack", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "stack", "axis")
    x = promote_list("stack", x)
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
    if _builtins.any(_t._requires_grad for _t in x) and grad_enabled() and out._data.dtype.kind in "fc":
        node = new_node(_nodes.StackGradNode, (*x,), out)
        node.x = [TensorWrapper.meta_of(_t) for _t in x]
        node.axis = axis
    if FORWARD.active:
        _jvp.stack(x, axis, out)
    return out


def split(
    x: Tensor | float | int,
    num_or_sections: Sequence[int] | int,
    axis: int = 0,
    dim: int | None = None,
) -> list[Tensor]:
    """x split along axis; an int gives that many equal sections, a list the section sizes (one may be -1).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        num_or_sections (int | Sequence[int]): An int: that many equal sections (it must divide the axis); a list: the size of each section, one may be -1.
        axis (int, default 0): The axis to split along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (list[Tensor]): A list of views of x, one per section.

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("split", "axis", axis, 0, "dim", dim, False)
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
    x: Tensor | float | int,
    index: Tensor | float | int,
    axis: int = 0,
    dim: int | None = None,
) -> Tensor:
    """The slices of x along axis picked by a 1-D integer index (like index_select); a 0-d index means [index].

    Args:
        x (Tensor | float | int): The tensor to pick from.
        index (Tensor | float | int): A 1-D (or 0-d) integer tensor of positions along axis.
        axis (int, default 0): The axis to pick along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): x's shape with axis of size len(index).

    Gradient:
        Flows to x. No gradient for: index. The gradient to x is scattered back and summed at repeated indices; none to index.
    """
    if dim is not None:
        axis = alias_arg("gather", "axis", axis, 0, "dim", dim, False)
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
        _result = _kernel(x._data, index._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("gather", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.GatherGradNode, _result, x, None)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.gather(x, index, axis, out)
    return out


def index_select(
    x: Tensor | float | int,
    index: Tensor | float | int,
    axis: int = 0,
    dim: int | None = None,
) -> Tensor:
    """The slices of x along axis picked by a 1-D integer index; a 0-d index means [index].

    Args:
        x (Tensor | float | int): The tensor to pick from.
        index (Tensor | float | int): A 1-D (or 0-d) integer tensor of positions along axis.
        axis (int, default 0): The axis to pick along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): x's shape with axis of size len(index).

    Gradient:
        Flows to x. No gradient for: index. The gradient to x is summed at repeated indices; none to index.
    """
    if dim is not None:
        axis = alias_arg("index_select", "axis", axis, 0, "dim", dim, False)
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
        _result = _kernel(x._data, index._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index_select", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.IndexSelectGradNode, _result, x, None)
        node.x = TensorWrapper.meta_of(x)
        node.index = TensorWrapper.of_input(index)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.index_select(x, index, axis, out)
    return out


def tile(
    x: Tensor | float | int,
    repeat_times: Sequence[int] | int,
) -> Tensor:
    """x repeated repeat_times[i] times along each axis.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        repeat_times (int | Sequence[int]): How often to repeat x along each axis (an int or a list; a longer list adds leading axes).

    Returns:
        out (Tensor): The tiled tensor.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tile", "x")
    if repeat_times.__class__ is not tuple and repeat_times.__class__ is not int:
        repeat_times = int_list_arg(repeat_times, "tile", "repeat_times")
    _kernel = _k_tile.get(x._data.__class__) or dispatch("tile", "tile", x._data)
    try:
        _result = _kernel(x._data, repeat_times)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tile", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TileGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.repeat_times = repeat_times
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.tile(x, repeat_times, out)
    return out


def take_along_axis(
    arr: Tensor | float | int,
    indices: Tensor | float | int,
    axis: int | None = None,
    dim: int | None = None,
) -> Tensor:
    """arr[..., indices[...], ...] along axis (NumPy's take_along_axis); indices has arr's ndim and broadcasts against arr on the other axes; negative indices count from the end.

    Args:
        arr (Tensor | float | int): The tensor to pick from.
        indices (Tensor | float | int): An integer tensor with arr's ndim; broadcasts against arr on every axis but axis.
        axis (int, default None): The axis to pick along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor of the broadcast shape, indices' size along axis.

    Gradient:
        Flows to arr. No gradient for: indices.
    """
    if dim is not None or axis is None:
        axis = alias_arg("take_along_axis", "axis", axis, None, "dim", dim, True)
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
        _result = _kernel(arr._data, indices._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("take_along_axis", _e) from None
    if arr._requires_grad and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.TakeAlongAxisGradNode, _result, arr, None)
        node.arr = TensorWrapper.meta_of(arr)
        node.indices = TensorWrapper.of_input(indices)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.take_along_axis(arr, indices, axis, out)
    return out


def scatter(
    x: Tensor | float | int,
    index: Tensor | float | int,
    updates: Tensor | float | int,
    overwrite: bool = True,
) -> Tensor:
    """x with the rows x[index[i]] (1-D index along axis 0) set to updates[i]; repeated indices keep the last update when overwrite, else the rows hit become the sum of their updates (Paddle's semantics).

    Args:
        x (Tensor | float | int): The tensor to update (not modified: the result is new).
        index (Tensor | float | int): A 1-D integer tensor of row positions in x (axis 0).
        updates (Tensor | float | int): The new rows: shape (len(index), *x.shape[1:]).
        overwrite (bool, default True): True: a repeated index keeps its last update; False: rows hit get the sum of their updates.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x, updates. No gradient for: index.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, updates, "scatter", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "scatter", "index")
    if not isinstance(updates, Tensor):
        updates = as_tensor_arg(updates, x, "scatter", "updates")
    if overwrite.__class__ is not bool:
        overwrite = bool_arg(overwrite, "scatter", "overwrite")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scatter", x, arg="x")
    if updates._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scatter", updates, arg="updates")
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
    x: Tensor | float | int,
    index: Tensor | float | int,
    axis: int,
    value: Tensor | float | int,
) -> Tensor:
    """x with value's slices added at the positions index (1-D) along axis; repeated indices add up.

    Args:
        x (Tensor | float | int): The tensor added into (not modified: the result is new).
        index (Tensor | float | int): A 1-D integer tensor of positions along axis.
        axis (int): The axis index runs along.
        value (Tensor | float | int): The slices to add: x's shape with axis of size len(index).

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x, value. No gradient for: index.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, value, "index_add", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "index_add", "index")
    if not isinstance(value, Tensor):
        value = as_tensor_arg(value, x, "index_add", "value")
    if axis.__class__ is not int:
        axis = int_arg(axis, "index_add", "axis")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("index_add", x, arg="x")
    if value._data.dtype in COMPLEX_DTYPES:
        refuse_complex("index_add", value, arg="value")
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
    x: Tensor | float | int,
    mask: Tensor | float | int,
    value: float,
) -> Tensor:
    """x with value where the bool mask (broadcastable to x's shape; the result keeps x's shape) is true.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        mask (Tensor | float | int): A bool tensor broadcastable to x's shape; True marks the elements replaced.
        value (float | int): The number written where mask is True.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x. No gradient for: mask. The gradient to x is 0 where mask is True.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, mask, "masked_fill", "x")
    if not isinstance(mask, Tensor):
        mask = as_tensor_arg(mask, x, "masked_fill", "mask")
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "masked_fill", "value")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("masked_fill", x, arg="x")
    _kernel = (
        x._data.__class__
        is mask._data.__class__
        and _k_masked_fill.get(x._data.__class__)
        or dispatch("masked_fill", "masked_fill", x._data, mask._data)
    )
    try:
        _result = _kernel(x._data, mask._data, value)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("masked_fill", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.MaskedFillGradNode, _result, x, None)
        node.mask = TensorWrapper.of_input(mask)
        node.value = value
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.masked_fill(x, mask, value, out)
    return out


def tril(
    x: Tensor | float | int,
    diagonal: int = 0,
) -> Tensor:
    """The lower triangle of the last two axes of x (on and below diagonal), zeros elsewhere.

    Args:
        x (Tensor | float | int): A tensor of at least 2 dimensions (the last two form the matrices).
        diagonal (int, default 0): Which diagonal bounds the kept part (on and below it): 0 the main one, positive above it, negative below.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "tril", "x")
    if diagonal.__class__ is not int:
        diagonal = int_arg(diagonal, "tril", "diagonal")
    _kernel = _k_tril.get(x._data.__class__) or dispatch("tril", "tril", x._data)
    try:
        _result = _kernel(x._data, diagonal)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("tril", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TrilGradNode, _result, x)
        node.diagonal = diagonal
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.tril(x, diagonal, out)
    return out


def triu(
    x: Tensor | float | int,
    diagonal: int = 0,
) -> Tensor:
    """The upper triangle of the last two axes of x (on and above diagonal), zeros elsewhere.

    Args:
        x (Tensor | float | int): A tensor of at least 2 dimensions (the last two form the matrices).
        diagonal (int, default 0): Which diagonal bounds the kept part (on and above it): 0 the main one, positive above it, negative below.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "triu", "x")
    if diagonal.__class__ is not int:
        diagonal = int_arg(diagonal, "triu", "diagonal")
    _kernel = _k_triu.get(x._data.__class__) or dispatch("triu", "triu", x._data)
    try:
        _result = _kernel(x._data, diagonal)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("triu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TriuGradNode, _result, x)
        node.diagonal = diagonal
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.triu(x, diagonal, out)
    return out


def pad(
    x: Tensor | float | int,
    pad: Sequence[int] | int,
    mode: str = "constant",
    value: float = 0.0,
) -> Tensor:
    """x padded like PyTorch's F.pad; pad holds (before, after) pairs, the first pair for the last axis, the next for the one before; mode is 'constant' (with value), 'reflect', 'replicate' or 'circular'.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        pad (int | Sequence[int]): (before, after) pairs: the first pair for the last axis, the next for the axis before, and so on.
        mode (str, default \"constant\"): 'constant', 'reflect', 'replicate' or 'circular'.
        value (float | int, default 0.0): The fill value of mode 'constant'.

    Returns:
        out (Tensor): x with each padded axis grown by before + after.

    Gradient:
        Flows to x.
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
        _result = _kernel(x._data, pad, mode, value)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pad", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.PadGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.pad = pad
        node.mode = mode
        node.value = value
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.pad(x, pad, mode, value, out)
    return out


def roll(
    x: Tensor | float | int,
    shifts: Sequence[int] | int,
    axis: Sequence[int] | int | None = None,
    dims: Sequence[int] | int | None = None,
) -> Tensor:
    """x with its elements shifted cyclically by shifts along axis; axis None (or []) rolls the flattened x and keeps its shape.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        shifts (int | Sequence[int]): How far to shift (an int, or one per axis in axis); positive moves elements to higher indices.
        axis (int | Sequence[int] | None, default None): The axes to roll along, or None (or empty) for the flattened x.
        dims (int | Sequence[int] | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x.
    """
    if dims is not None:
        axis = alias_arg("roll", "axis", axis, None, "dims", dims, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "roll", "x")
    if shifts.__class__ is not tuple and shifts.__class__ is not int:
        shifts = int_list_arg(shifts, "roll", "shifts")
    if axis.__class__ is not tuple and axis.__class__ is not int and axis is not None:
        axis = int_list_arg(axis, "roll", "axis")
    _kernel = _k_roll.get(x._data.__class__) or dispatch("roll", "roll", x._data)
    try:
        _result = _kernel(x._data, shifts, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("roll", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.RollGradNode, _result, x)
        node.shifts = shifts
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.roll(x, shifts, axis, out)
    return out


def repeat_interleave(
    x: Tensor | float | int,
    repeats: int,
    axis: int | None = None,
    dim: int | None = None,
) -> Tensor:
    """Each element (slice along axis) of x repeated repeats times in place; axis None repeats the flattened x.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        repeats (int): How many times each element (slice) is repeated.
        axis (int | None, default None): The axis to repeat along, or None for the flattened x.
        dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): x with axis repeats times longer (1-D for None).

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("repeat_interleave", "axis", axis, None, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "repeat_interleave", "x")
    if repeats.__class__ is not int:
        repeats = int_arg(repeats, "repeat_interleave", "repeats")
    if axis.__class__ is not int and axis is not None:
        axis = int_arg(axis, "repeat_interleave", "axis")
    _kernel = _k_repeat_interleave.get(x._data.__class__) or dispatch("repeat_interleave", "repeat_interleave", x._data)
    try:
        _result = _kernel(x._data, repeats, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("repeat_interleave", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.RepeatInterleaveGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.repeats = repeats
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.repeat_interleave(x, repeats, axis, out)
    return out


def flip(
    x: Tensor | float | int,
    axis: Sequence[int] | int | None = None,
    dims: Sequence[int] | int | None = None,
) -> Tensor:
    """x reversed along each axis listed.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int | Sequence[int], default None): The axes to reverse (an int or a list).
        dims (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x.
    """
    if dims is not None or axis is None:
        axis = alias_arg("flip", "axis", axis, None, "dims", dims, True)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "flip", "x")
    if axis.__class__ is not tuple and axis.__class__ is not int:
        axis = int_list_arg(axis, "flip", "axis")
    _kernel = _k_flip.get(x._data.__class__) or dispatch("flip", "flip", x._data)
    try:
        _result = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("flip", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.FlipGradNode, _result, x)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.flip(x, axis, out)
    return out


def gather_nd(
    x: Tensor | float | int,
    index: Tensor | float | int,
) -> Tensor:
    """The slices of x at the positions in index (paddle.gather_nd): index (..., k) addresses x's first k axes; out[i...] = x[index[i..., 0], ..., index[i..., k - 1]].

    Args:
        x (Tensor | float | int): The tensor gathered from.
        index (Tensor | float | int): An integer tensor (..., k), k <= x.ndim; negative entries count from the end; an entry out of range is an IndexError naming it.

    Returns:
        out (Tensor): A tensor of shape index.shape[:-1] + x.shape[k:].

    Gradient:
        Flows to x. No gradient for: index. scatter_nd_add of the gradient into zeros (repeated positions add up).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, index, "gather_nd", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "gather_nd", "index")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("gather_nd", x, arg="x")
    _kernel = (
        x._data.__class__
        is index._data.__class__
        and _k_gather_nd.get(x._data.__class__)
        or dispatch("gather_nd", "gather_nd", x._data, index._data)
    )
    try:
        _result = _kernel(x._data, index._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("gather_nd", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.GatherNdGradNode, _result, x, None)
        node.x = TensorWrapper.of_edge(x)
        node.index = TensorWrapper.of_input(index)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.gather_nd(x, index, out)
    return out


def scatter_nd_add(
    x: Tensor | float | int,
    index: Tensor | float | int,
    updates: Tensor | float | int,
) -> Tensor:
    """x with updates added at the positions in index (paddle.scatter_nd_add); repeated positions add up.

    Args:
        x (Tensor | float | int): The tensor added into (not modified; the result is new).
        index (Tensor | float | int): An integer tensor (..., k) of positions in x's first k axes.
        updates (Tensor | float | int): The values to add, of shape index.shape[:-1] + x.shape[k:].

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x, updates. No gradient for: index.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, updates, "scatter_nd_add", "x")
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, x, "scatter_nd_add", "index")
    if not isinstance(updates, Tensor):
        updates = as_tensor_arg(updates, x, "scatter_nd_add", "updates")
    if x._data.dtype is not updates._data.dtype:
        x, updates = promote_args("scatter_nd_add", False, x, updates)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scatter_nd_add", x, arg="x")
    _kernel = (
        x._data.__class__
        is index._data.__class__
        is updates._data.__class__
        and _k_scatter_nd_add.get(x._data.__class__)
        or dispatch(
            "scatter_nd_add",
            "scatter_nd_add",
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
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scatter_nd_add", _e) from None
    if (x._requires_grad or updates._requires_grad) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ScatterNdAddGradNode, (x, None, updates), out)
        node.index = TensorWrapper.of_input(index)
    if FORWARD.active:
        _jvp.scatter_nd_add(x, index, updates, out)
    return out


def scatter_nd(
    index: Tensor | float | int,
    updates: Tensor | float | int,
    shape: Sequence[int] | int,
) -> Tensor:
    """Zeros of the given shape with updates added at the positions in index (paddle.scatter_nd); repeated positions add up.

    Args:
        index (Tensor | float | int): An integer tensor (..., k) of positions in the result's first k axes.
        updates (Tensor | float | int): The values, of shape index.shape[:-1] + shape[k:].
        shape (int | Sequence[int]): The result's shape.

    Returns:
        out (Tensor): A tensor of the given shape, in updates' dtype.

    Gradient:
        Flows to updates. No gradient for: index.
    """
    if not isinstance(index, Tensor):
        index = as_tensor_arg(index, updates, "scatter_nd", "index")
    if not isinstance(updates, Tensor):
        updates = as_tensor_arg(updates, index, "scatter_nd", "updates")
    if shape.__class__ is not tuple and shape.__class__ is not int:
        shape = int_list_arg(shape, "scatter_nd", "shape")
    if updates._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scatter_nd", updates, arg="updates")
    _kernel = (
        index._data.__class__
        is updates._data.__class__
        and _k_scatter_nd.get(index._data.__class__)
        or dispatch("scatter_nd", "scatter_nd", index._data, updates._data)
    )
    try:
        _result = _kernel(index._data, updates._data, shape)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("scatter_nd", _e) from None
    if updates._requires_grad and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.ScatterNdGradNode, _result, None, updates)
        node.index = TensorWrapper.of_input(index)
        node.shape = shape
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.scatter_nd(index, updates, shape, out)
    return out


def index(
    x: Tensor | float | int,
    indices: Sequence[Tensor | float | int],
) -> Tensor:
    """x[indices[0], indices[1], ...]: NumPy/PyTorch advanced indexing of x's first len(indices) axes by integer (or bool mask) tensors, which broadcast together.

    Args:
        x (Tensor | float | int): The tensor indexed.
        indices (list[Tensor] | tuple[Tensor, ...]): Integer tensors (negative entries count from the end) or bool masks, one per leading axis of x.

    Returns:
        out (Tensor): The broadcast shape of the indices followed by x's remaining axes.

    Gradient:
        Flows to x. No gradient for: indices. The gradient added back at the indexed positions (repeated positions add up).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "index", "x")
    indices = tensors_of(indices, "index", "indices")
    _indices_data = [_t._data for _t in indices]
    _kernel = dispatch(
        "index",
        "index",
        x._data,
        *_indices_data,
    )
    try:
        out = wrap(_kernel(
            x._data,
            _indices_data,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index", _e) from None
    if x._requires_grad and grad_enabled() and out._data.dtype.kind in "fc":
        node = new_node(_nodes.IndexGradNode, (x, *[None] * _builtins.len(indices)), out)
        node._indices_count = _builtins.len(indices)
        node.x = TensorWrapper.of_edge(x)
        node.indices = [TensorWrapper.of_input(_t) for _t in indices]
    if FORWARD.active:
        _jvp.index(x, indices, out)
    return out


def index_put(
    x: Tensor | float | int,
    indices: Sequence[Tensor | float | int],
    values: Tensor | float | int,
    accumulate: bool = False,
) -> Tensor:
    """x with values written at x[indices] (torch.index_put): with accumulate, added, repeated positions adding up; without, a repeated position keeps the last value written (NumPy's order, PyTorch leaves it undefined).

    Args:
        x (Tensor | float | int): The tensor written into (the result is new; index_put_ writes into x).
        indices (list[Tensor] | tuple[Tensor, ...]): Integer tensors or bool masks, one per leading axis of x, as in index.
        values (Tensor | float | int): The values, broadcastable to the indexed shape; cast to x's dtype.
        accumulate (bool, default False): Add instead of writing.

    Returns:
        out (Tensor): A tensor of x's shape and dtype.

    Gradient:
        Flows to x, values. No gradient for: indices. x: the gradient, zero at the written positions unless accumulate; values: the gradient at the indexed positions, summed to values' shape (every repeated position passes its gradient, as PyTorch).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, values, "index_put", "x")
    indices = tensors_of(indices, "index_put", "indices")
    if not isinstance(values, Tensor):
        values = as_tensor_arg(values, x, "index_put", "values")
    if accumulate.__class__ is not bool:
        accumulate = bool_arg(accumulate, "index_put", "accumulate")
    _indices_data = [_t._data for _t in indices]
    _kernel = dispatch(
        "index_put",
        "index_put",
        x._data,
        values._data,
        *_indices_data,
    )
    try:
        out = wrap(_kernel(
            x._data,
            _indices_data,
            values._data,
            accumulate,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index_put", _e) from None
    if (x._requires_grad or values._requires_grad) and grad_enabled() and out._data.dtype.kind in "fc":
        node = new_node(_nodes.IndexPutGradNode, (x, *[None] * _builtins.len(indices), values), out)
        node._indices_count = _builtins.len(indices)
        node.indices = [TensorWrapper.of_input(_t) for _t in indices]
        node.values = TensorWrapper.of_edge(values)
        node.accumulate = accumulate
    if FORWARD.active:
        _jvp.index_put(x, indices, values, accumulate, out)
    return out


def index_put_(
    x: Tensor,
    indices: Sequence[Tensor | float | int],
    values: Tensor | float | int,
    accumulate: bool = False,
) -> Tensor:
    """x with values written at x[indices] (torch.index_put): with accumulate, added, repeated positions adding up; without, a repeated position keeps the last value written (NumPy's order, PyTorch leaves it undefined).

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): The tensor written into (the result is new; index_put_ writes into x).
        indices (list[Tensor] | tuple[Tensor, ...]): Integer tensors or bool masks, one per leading axis of x, as in index.
        values (Tensor | float | int): The values, broadcastable to the indexed shape; cast to x's dtype.
        accumulate (bool, default False): Add instead of writing.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x, values. No gradient for: indices. x: the gradient, zero at the written positions unless accumulate; values: the gradient at the indexed positions, summed to values' shape (every repeated position passes its gradient, as PyTorch).
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("index_put_", "x", x)
    indices = tensors_of(indices, "index_put_", "indices")
    if not isinstance(values, Tensor):
        values = as_tensor_arg(values, x, "index_put_", "values")
    if accumulate.__class__ is not bool:
        accumulate = bool_arg(accumulate, "index_put_", "accumulate")
    record = check_inplace("index_put_", x, values)
    _indices_data = [_t._data for _t in indices]
    _kernel = dispatch(
        "index_put_",
        "index_put",
        x._data,
        values._data,
        *_indices_data,
    )
    try:
        _result = _kernel(
            x._data,
            _indices_data,
            values._data,
            accumulate,
        )
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("index_put_", _e) from None
    if record:
        node = _nodes.IndexPutGradNode((x, *[None] * _builtins.len(indices), values))
        node._indices_count = _builtins.len(indices)
        node.indices = [TensorWrapper.of_input(saved_before_write(x) if _t is x else _t) for _t in indices]
        node.values = TensorWrapper.of_input(saved_before_write(x) if values is x else values)
        node.accumulate = accumulate
    _out = wrap(_result) if FORWARD.active else None
    if _out is not None:
        _jvp.index_put(x, indices, values, accumulate, _out)
    write_inplace("index_put_", x, _result)
    if record:
        set_history(x, node, 0)
    if _out is not None:
        write_tangent(x, _out)
    return x


def softmax(
    x: Tensor | float | int,
    axis: int = -1,
    dim: int | None = None,
) -> Tensor:
    """exp(x) / sum(exp(x)) along axis, computed stably.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default -1): The axis the probabilities sum to 1 along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("softmax", "axis", axis, -1, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "softmax", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "softmax", "axis")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("softmax", x)
    _kernel = _k_softmax.get(x._data.__class__) or dispatch("softmax", "softmax", x._data)
    try:
        _result = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softmax", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SoftmaxGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.softmax(x, axis, out)
    return out


def log_softmax(
    x: Tensor | float | int,
    axis: int = -1,
    dim: int | None = None,
) -> Tensor:
    """log(softmax(x)) along axis, computed stably.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default -1): The axis the probabilities sum to 1 along.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("log_softmax", "axis", axis, -1, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "log_softmax", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "log_softmax", "axis")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("log_softmax", x)
    _kernel = _k_log_softmax.get(x._data.__class__) or dispatch("log_softmax", "log_softmax", x._data)
    try:
        _result = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("log_softmax", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.LogSoftmaxGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.log_softmax(x, axis, out)
    return out


def dropout(
    x: Tensor | float | int,
    p: float = 0.5,
    training: bool = True,
) -> Tensor:
    """Zero each element with probability p and scale the rest by 1 / (1 - p); identity when not training.

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        p (float | int, default 0.5): The probability of zeroing an element, in [0, 1].
        training (bool, default True): False returns x unchanged.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x. The gradient uses the same mask and scale as the forward.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "dropout", "x")
    if p.__class__ is not float:
        p = float_arg(p, "dropout", "p")
    if training.__class__ is not bool:
        training = bool_arg(training, "dropout", "training")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("dropout", x, arg="x")
    _kernel = _k_dropout.get(x._data.__class__) or dispatch("dropout", "dropout", x._data)
    try:
        _results = _kernel(x._data, p, training)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("dropout", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("dropout", 2, _results) from None
    out = wrap(_r0)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.DropoutGradNode, out, x)
        node.mask = TensorWrapper.of_input(wrap(_r1))
        node.p = p
        node.training = training
    if FORWARD.active:
        _jvp.dropout(x, p, training, out, wrap(_results[1]))
    return out


def one_hot(
    x: Tensor | float | int,
    num_classes: int,
) -> Tensor:
    """float32 one-hot encoding of the integer tensor x, with a new last axis of num_classes; no gradient.

    Args:
        x (Tensor | float | int): An integer tensor of class ids in [0, num_classes).
        num_classes (int): The size of the new last axis.

    Returns:
        out (Tensor): A float32 tensor of shape (*x.shape, num_classes).

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "one_hot", "x")
    if num_classes.__class__ is not int:
        num_classes = int_arg(num_classes, "one_hot", "num_classes")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("one_hot", x, arg="x")
    _kernel = _k_one_hot.get(x._data.__class__) or dispatch("one_hot", "one_hot", x._data)
    try:
        out = wrap(_kernel(x._data, num_classes))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("one_hot", _e) from None
    return out


def embedding(
    x: Tensor | float | int,
    weight: Tensor | float | int,
) -> Tensor:
    """Rows of weight (num_embeddings, dim) picked by the integer ids x; gradient for weight only.

    Args:
        x (Tensor | float | int): An integer tensor of ids into weight's rows, of any shape.
        weight (Tensor | float | int): The embedding table, shape (num_embeddings, dim).

    Returns:
        out (Tensor): A tensor of shape (*x.shape, dim).

    Gradient:
        Flows to weight. No gradient for: x. Rows picked several times accumulate their gradients.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "embedding", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "embedding", "weight")
    if weight._data.dtype in COMPLEX_DTYPES:
        refuse_complex("embedding", weight, arg="weight")
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        and _k_embedding.get(x._data.__class__)
        or dispatch("embedding", "embedding", x._data, weight._data)
    )
    try:
        _result = _kernel(x._data, weight._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("embedding", _e) from None
    if weight._requires_grad and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.EmbeddingGradNode, _result, None, weight)
        node.x = TensorWrapper.of_input(x)
        node.weight = TensorWrapper.meta_of(weight)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.embedding(x, weight, out)
    return out


def prelu(
    x: Tensor | float | int,
    weight: Tensor | float | int,
) -> Tensor:
    """x where x > 0, else weight * x; weight has shape [1] or [C] for the channel axis 1 of x.

    Args:
        x (Tensor | float | int): The input, channel axis 1 when weight has C entries.
        weight (Tensor | float | int): The learned negative slope: shape [1] (shared) or [C] (one per channel).

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x, weight.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "prelu", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "prelu", "weight")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("prelu", x, arg="x")
    if weight._data.dtype in COMPLEX_DTYPES:
        refuse_complex("prelu", weight, arg="weight")
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        and _k_prelu.get(x._data.__class__)
        or dispatch("prelu", "prelu", x._data, weight._data)
    )
    try:
        _result = _kernel(x._data, weight._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("prelu", _e) from None
    if (x._requires_grad or weight._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.PreluGradNode, _result, x, weight)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.prelu(x, weight, out)
    return out


def glu(
    x: Tensor | float | int,
    axis: int = -1,
    dim: int | None = None,
) -> Tensor:
    """Gated linear unit a * sigmoid(b), with a and b the two halves of x along axis (its size must be even).

    Args:
        x (Tensor | float | int): The input tensor, of any shape.
        axis (int, default -1): The axis split into halves a (first) and b (second); its size must be even.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): x's shape with axis halved.

    Gradient:
        Flows to x.
    """
    if dim is not None:
        axis = alias_arg("glu", "axis", axis, -1, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "glu", "x")
    if axis.__class__ is not int:
        axis = int_arg(axis, "glu", "axis")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("glu", x, arg="x")
    _kernel = _k_glu.get(x._data.__class__) or dispatch("glu", "glu", x._data)
    try:
        _result = _kernel(x._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("glu", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.GluGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.glu(x, axis, out)
    return out


def cross_entropy(
    input: Tensor | float | int,
    label: Tensor | float | int,
    axis: int = -1,
    reduction: str = "mean",
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> Tensor:
    """Softmax cross entropy of logits input against integer class labels (input's shape without axis, or with size 1 there); reduction is 'mean', 'sum' or 'none'; labels equal to ignore_index count for nothing ('mean' divides by the labels that count); label_smoothing mixes that much of a uniform target in.

    Args:
        input (Tensor | float | int): The logits, the class axis at axis.
        label (Tensor | float | int): Integer class ids: input's shape without axis (or with size 1 there).
        axis (int, default -1): The class axis of input.
        reduction (str, default \"mean\"): How to reduce the per-element loss: 'mean', 'sum' or 'none' (keep every element).
        ignore_index (int, default -100): A label value that contributes no loss and no gradient.
        label_smoothing (float | int, default 0.0): In [0, 1]: the weight of a uniform target mixed into the one-hot target.

    Returns:
        out (Tensor): The loss: a 0-d tensor, or the per-element losses under reduction='none'.

    Gradient:
        Flows to input. No gradient for: label.
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
    if input._data.dtype in COMPLEX_DTYPES:
        refuse_complex("cross_entropy", input, arg="input")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_cross_entropy_and_prob.get(input._data.__class__)
        or dispatch("cross_entropy", "cross_entropy_and_prob", input._data, label._data)
    )
    try:
        _results = _kernel(input._data, label._data, axis, reduction, ignore_index, label_smoothing)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cross_entropy", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("cross_entropy", 2, _results) from None
    out = wrap(_r0)
    if input._requires_grad and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node_of(_nodes.CrossEntropyGradNode, out, input, None)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_input(label)
        node.prob = TensorWrapper.of_input(wrap(_r1))
        node.axis = axis
        node.reduction = reduction
        node.ignore_index = ignore_index
        node.label_smoothing = label_smoothing
    if FORWARD.active:
        _jvp.cross_entropy(input, label, axis, reduction, ignore_index, label_smoothing, out, wrap(_results[1]))
    return out


def mse_loss(
    input: Tensor | float | int,
    label: Tensor | float | int,
    reduction: str = "mean",
) -> Tensor:
    """Squared error (input - label) ** 2 with broadcasting; reduction is 'mean', 'sum' or 'none'.

    Args:
        input (Tensor | float | int): The prediction.
        label (Tensor | float | int): The target; broadcasts against input.
        reduction (str, default \"mean\"): How to reduce the per-element loss: 'mean', 'sum' or 'none' (keep every element).

    Returns:
        out (Tensor): The loss: a 0-d tensor, or the per-element losses under reduction='none'.

    Gradient:
        Flows to input, label.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "mse_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "mse_loss", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "mse_loss", "reduction")
    if input._data.dtype is not label._data.dtype:
        input, label = promote_args("mse_loss", False, input, label)
    if input._data.dtype in COMPLEX_DTYPES:
        refuse_complex("mse_loss", input, arg="input")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_mse_loss.get(input._data.__class__)
        or dispatch("mse_loss", "mse_loss", input._data, label._data)
    )
    try:
        _result = _kernel(input._data, label._data, reduction)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("mse_loss", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.MseLossGradNode, _result, input, label)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_edge(label)
        node.reduction = reduction
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.mse_loss(input, label, reduction, out)
    return out


def nll_loss(
    input: Tensor | float | int,
    label: Tensor | float | int,
    weight: Tensor | float | int | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
) -> Tensor:
    """Negative log-likelihood of log-probabilities input, (N, C) or (N, C, d1, ...) or (C,), against integer labels; weight (C,) rescales classes; labels equal to ignore_index count for nothing; 'mean' divides by the summed weights of the counted labels.

    Args:
        input (Tensor | float | int): Log-probabilities, (N, C), (N, C, d1, ...) or (C,).
        label (Tensor | float | int): Integer class ids: input's shape without the class axis.
        weight (Tensor | float | int | None, default None): Optional per-class weights, shape (C,).
        ignore_index (int, default -100): A label value that contributes no loss and no gradient.
        reduction (str, default \"mean\"): How to reduce the per-element loss: 'mean', 'sum' or 'none' (keep every element).

    Returns:
        out (Tensor): The loss: a 0-d tensor, or the per-element losses under reduction='none'.

    Gradient:
        Flows to input. No gradient for: label, weight.
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
    if input._data.dtype in COMPLEX_DTYPES:
        refuse_complex("nll_loss", input, arg="input")
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
    logit: Tensor | float | int,
    label: Tensor | float | int,
    weight: Tensor | float | int | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | float | int | None = None,
) -> Tensor:
    """Sigmoid binary cross entropy of logits against labels of the same shape, computed stably; weight (broadcast to logit) scales each element, pos_weight (broadcast along the last axis) the positive term.

    Args:
        logit (Tensor | float | int): The logits, of any shape.
        label (Tensor | float | int): Targets in [0, 1], logit's shape.
        weight (Tensor | float | int | None, default None): Optional per-element weights, broadcast to logit's shape.
        reduction (str, default \"mean\"): How to reduce the per-element loss: 'mean', 'sum' or 'none' (keep every element).
        pos_weight (Tensor | float | int | None, default None): Optional weight of the positive term, broadcast along the last axis.

    Returns:
        out (Tensor): The loss: a 0-d tensor, or the per-element losses under reduction='none'.

    Gradient:
        Flows to logit, label. No gradient for: weight, pos_weight.
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
    if logit._data.dtype in COMPLEX_DTYPES:
        refuse_complex("binary_cross_entropy_with_logits", logit, arg="logit")
    if label._data.dtype in COMPLEX_DTYPES:
        refuse_complex("binary_cross_entropy_with_logits", label, arg="label")
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
        node.logit = TensorWrapper.of_edge(logit)
        node.label = TensorWrapper.of_edge(label)
        node.weight = None if weight is None else TensorWrapper.of_input(weight)
        node.pos_weight = None if pos_weight is None else TensorWrapper.of_input(pos_weight)
        node.reduction = reduction
    if FORWARD.active:
        _jvp.binary_cross_entropy_with_logits(logit, label, weight, reduction, pos_weight, out)
    return out


def l1_loss(
    input: Tensor | float | int,
    label: Tensor | float | int,
    reduction: str = "mean",
) -> Tensor:
    """Absolute error |input - label| with broadcasting; reduction is 'mean', 'sum' or 'none'.

    Args:
        input (Tensor | float | int): The prediction.
        label (Tensor | float | int): The target; broadcasts against input.
        reduction (str, default \"mean\"): How to reduce the per-element loss: 'mean', 'sum' or 'none' (keep every element).

    Returns:
        out (Tensor): The loss: a 0-d tensor, or the per-element losses under reduction='none'.

    Gradient:
        Flows to input, label. The subgradient where input == label is 0.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "l1_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "l1_loss", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "l1_loss", "reduction")
    if input._data.dtype is not label._data.dtype:
        input, label = promote_args("l1_loss", False, input, label)
    if input._data.dtype in COMPLEX_DTYPES:
        refuse_complex("l1_loss", input, arg="input")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_l1_loss.get(input._data.__class__)
        or dispatch("l1_loss", "l1_loss", input._data, label._data)
    )
    try:
        _result = _kernel(input._data, label._data, reduction)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("l1_loss", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.L1LossGradNode, _result, input, label)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_edge(label)
        node.reduction = reduction
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.l1_loss(input, label, reduction, out)
    return out


def smooth_l1_loss(
    input: Tensor | float | int,
    label: Tensor | float | int,
    reduction: str = "mean",
    delta: float = 1.0,
) -> Tensor:
    """Paddle's smooth L1 (Huber) loss of d = input - label; 0.5 * d ** 2 where |d| < delta, else delta * (|d| - 0.5 * delta).

    Args:
        input (Tensor | float | int): The prediction.
        label (Tensor | float | int): The target.
        reduction (str, default \"mean\"): How to reduce the per-element loss: 'mean', 'sum' or 'none' (keep every element).
        delta (float | int, default 1.0): Where the loss turns from quadratic to linear; positive.

    Returns:
        out (Tensor): The loss: a 0-d tensor, or the per-element losses under reduction='none'.

    Gradient:
        Flows to input, label.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "smooth_l1_loss", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "smooth_l1_loss", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "smooth_l1_loss", "reduction")
    if delta.__class__ is not float:
        delta = float_arg(delta, "smooth_l1_loss", "delta")
    if input._data.dtype is not label._data.dtype:
        input, label = promote_args("smooth_l1_loss", False, input, label)
    if input._data.dtype in COMPLEX_DTYPES:
        refuse_complex("smooth_l1_loss", input, arg="input")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_smooth_l1_loss.get(input._data.__class__)
        or dispatch("smooth_l1_loss", "smooth_l1_loss", input._data, label._data)
    )
    try:
        _result = _kernel(input._data, label._data, reduction, delta)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("smooth_l1_loss", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.SmoothL1LossGradNode, _result, input, label)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_edge(label)
        node.reduction = reduction
        node.delta = delta
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.smooth_l1_loss(input, label, reduction, delta, out)
    return out


def kl_div(
    input: Tensor | float | int,
    label: Tensor | float | int,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """Kullback-Leibler divergence label * (log(label) - input) of log-probabilities input (0 where label is 0); log_target takes label as log-probabilities; reduction is 'mean', 'batchmean', 'sum' or 'none'.

    Args:
        input (Tensor | float | int): Log-probabilities.
        label (Tensor | float | int): Target probabilities (log-probabilities under log_target).
        reduction (str, default \"mean\"): 'mean', 'batchmean' (sum divided by the batch size), 'sum' or 'none'.
        log_target (bool, default False): Take label as log-probabilities.

    Returns:
        out (Tensor): The loss: a 0-d tensor, or the per-element losses under reduction='none'.

    Gradient:
        Flows to input, label.
    """
    if not isinstance(input, Tensor):
        input = as_tensor_arg(input, label, "kl_div", "input")
    if not isinstance(label, Tensor):
        label = as_tensor_arg(label, input, "kl_div", "label")
    if reduction.__class__ is not str:
        reduction = str_arg(reduction, "kl_div", "reduction")
    if log_target.__class__ is not bool:
        log_target = bool_arg(log_target, "kl_div", "log_target")
    if input._data.dtype is not label._data.dtype:
        input, label = promote_args("kl_div", False, input, label)
    if input._data.dtype in COMPLEX_DTYPES:
        refuse_complex("kl_div", input, arg="input")
    _kernel = (
        input._data.__class__
        is label._data.__class__
        and _k_kl_div.get(input._data.__class__)
        or dispatch("kl_div", "kl_div", input._data, label._data)
    )
    try:
        _result = _kernel(input._data, label._data, reduction, log_target)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("kl_div", _e) from None
    if (input._requires_grad or label._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.KlDivGradNode, _result, input, label)
        node.input = TensorWrapper.of_edge(input)
        node.label = TensorWrapper.of_edge(label)
        node.reduction = reduction
        node.log_target = log_target
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.kl_div(input, label, reduction, log_target, out)
    return out


def conv2d(
    x: Tensor | float | int,
    weight: Tensor | float | int,
    bias: Tensor | float | int | None = None,
    stride: Sequence[int] | int = (1, 1),
    padding: Sequence[int] | int = (0, 0),
    dilation: Sequence[int] | int = (1, 1),
    groups: int = 1,
) -> Tensor:
    """2-D convolution (cross-correlation) of x (N, C, H, W) with weight (O, C / groups, kh, kw), plus bias (O,); zero padding.

    Args:
        x (Tensor | float | int): The input batch, shape (N, C, H, W).
        weight (Tensor | float | int): The filters, shape (O, C / groups, kh, kw).
        bias (Tensor | float | int | None, default None): Optional per-output-channel bias, shape (O,).
        stride (int | Sequence[int], default (1, 1)): The step between windows: An int (the same for both spatial axes) or a 2-list (height, width).
        padding (int | Sequence[int], default (0, 0)): Zeros added on each side: An int (the same for both spatial axes) or a 2-list (height, width).
        dilation (int | Sequence[int], default (1, 1)): The spacing between kernel elements: An int (the same for both spatial axes) or a 2-list (height, width).
        groups (int, default 1): Split channels into this many groups; C and O must be multiples of it.

    Returns:
        out (Tensor): Shape (N, O, H_out, W_out).

    Gradient:
        Flows to x, weight, bias.
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
    if x._data.dtype is not weight._data.dtype or (bias is not None and x._data.dtype is not bias._data.dtype):
        x, weight, bias = promote_args("conv2d", False, x, weight, bias)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("conv2d", x, arg="x")
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
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.stride = stride
        node.padding = padding
        node.dilation = dilation
        node.groups = groups
    if FORWARD.active:
        _jvp.conv2d(x, weight, bias, stride, padding, dilation, groups, out)
    return out


def conv_transpose2d(
    x: Tensor | float | int,
    weight: Tensor | float | int,
    bias: Tensor | float | int | None = None,
    stride: Sequence[int] | int = (1, 1),
    padding: Sequence[int] | int = (0, 0),
    output_padding: Sequence[int] | int = (0, 0),
    groups: int = 1,
    dilation: Sequence[int] | int = (1, 1),
) -> Tensor:
    """Transposed 2-D convolution (the adjoint of conv2d in its input) of x (N, C_in, H, W) with weight (C_in, C_out / groups, kh, kw), plus bias; output (N, C_out, (H - 1) * stride - 2 * padding + dilation * (kh - 1) + output_padding + 1, ...), as torch.nn.functional.conv_transpose2d.

    Args:
        x (Tensor | float | int): The input batch, shape (N, C_in, H, W).
        weight (Tensor | float | int): The filters, shape (C_in, C_out / groups, kh, kw).
        bias (Tensor | float | int | None, default None): Optional per-output-channel bias, shape (C_out,).
        stride (int | Sequence[int], default (1, 1)): The stride of the convolution this is the adjoint of, an int or a pair.
        padding (int | Sequence[int], default (0, 0)): That convolution's padding, an int or a pair (cropped from the output).
        output_padding (int | Sequence[int], default (0, 0)): Extra rows and columns added to one side of the output, smaller than stride or dilation.
        groups (int, default 1): Split channels into this many groups.
        dilation (int | Sequence[int], default (1, 1)): That convolution's dilation, an int or a pair.

    Returns:
        out (Tensor): Shape (N, C_out, H_out, W_out).

    Gradient:
        Flows to x, weight, bias. conv2d of the gradient for x, conv2d_grad's weight gradient (with x and the gradient in swapped roles) for weight, so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "conv_transpose2d", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "conv_transpose2d", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "conv_transpose2d", "bias")
    if stride.__class__ is not tuple and stride.__class__ is not int:
        stride = int_list_arg(stride, "conv_transpose2d", "stride")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "conv_transpose2d", "padding")
    if output_padding.__class__ is not tuple and output_padding.__class__ is not int:
        output_padding = int_list_arg(output_padding, "conv_transpose2d", "output_padding")
    if groups.__class__ is not int:
        groups = int_arg(groups, "conv_transpose2d", "groups")
    if dilation.__class__ is not tuple and dilation.__class__ is not int:
        dilation = int_list_arg(dilation, "conv_transpose2d", "dilation")
    if x._data.dtype is not weight._data.dtype or (bias is not None and x._data.dtype is not bias._data.dtype):
        x, weight, bias = promote_args("conv_transpose2d", False, x, weight, bias)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("conv_transpose2d", x, arg="x")
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is _bias_data.__class__
        and _k_conv_transpose2d.get(x._data.__class__)
        or dispatch(
            "conv_transpose2d",
            "conv_transpose2d",
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
            output_padding,
            groups,
            dilation,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("conv_transpose2d", _e) from None
    if (x._requires_grad or weight._requires_grad or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ConvTranspose2dGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.stride = stride
        node.padding = padding
        node.output_padding = output_padding
        node.groups = groups
        node.dilation = dilation
    if FORWARD.active:
        _jvp.conv_transpose2d(x, weight, bias, stride, padding, output_padding, groups, dilation, out)
    return out


def conv_transpose1d(
    x: Tensor | float | int,
    weight: Tensor | float | int,
    bias: Tensor | float | int | None = None,
    stride: int = 1,
    padding: int = 0,
    output_padding: int = 0,
    groups: int = 1,
    dilation: int = 1,
) -> Tensor:
    """Transposed 1-D convolution of x (N, C_in, L) with weight (C_in, C_out / groups, k), plus bias, as torch.nn.functional.conv_transpose1d; conv_transpose2d over a height of 1.

    Args:
        x (Tensor | float | int): The input batch, shape (N, C_in, L).
        weight (Tensor | float | int): The filters, shape (C_in, C_out / groups, k).
        bias (Tensor | float | int | None, default None): Optional per-output-channel bias, shape (C_out,).
        stride (int, default 1): The stride of the convolution this is the adjoint of.
        padding (int, default 0): That convolution's padding (cropped from the output).
        output_padding (int, default 0): Extra positions added to one end of the output, smaller than stride or dilation.
        groups (int, default 1): Split channels into this many groups.
        dilation (int, default 1): That convolution's dilation.

    Returns:
        out (Tensor): Shape (N, C_out, (L - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1).

    Gradient:
        Flows to x, weight, bias. Through conv2d and conv2d_grad on the unsqueezed tensors, so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "conv_transpose1d", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "conv_transpose1d", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "conv_transpose1d", "bias")
    if stride.__class__ is not int:
        stride = int_arg(stride, "conv_transpose1d", "stride")
    if padding.__class__ is not int:
        padding = int_arg(padding, "conv_transpose1d", "padding")
    if output_padding.__class__ is not int:
        output_padding = int_arg(output_padding, "conv_transpose1d", "output_padding")
    if groups.__class__ is not int:
        groups = int_arg(groups, "conv_transpose1d", "groups")
    if dilation.__class__ is not int:
        dilation = int_arg(dilation, "conv_transpose1d", "dilation")
    if x._data.dtype is not weight._data.dtype or (bias is not None and x._data.dtype is not bias._data.dtype):
        x, weight, bias = promote_args("conv_transpose1d", False, x, weight, bias)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("conv_transpose1d", x, arg="x")
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is _bias_data.__class__
        and _k_conv_transpose1d.get(x._data.__class__)
        or dispatch(
            "conv_transpose1d",
            "conv_transpose1d",
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
            output_padding,
            groups,
            dilation,
        ))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("conv_transpose1d", _e) from None
    if (x._requires_grad or weight._requires_grad or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ConvTranspose1dGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.stride = stride
        node.padding = padding
        node.output_padding = output_padding
        node.groups = groups
        node.dilation = dilation
    if FORWARD.active:
        _jvp.conv_transpose1d(x, weight, bias, stride, padding, output_padding, groups, dilation, out)
    return out


def conv1d(
    x: Tensor | float | int,
    weight: Tensor | float | int,
    bias: Tensor | float | int | None = None,
    stride: int = 1,
    padding: int = 0,
    dilation: int = 1,
    groups: int = 1,
) -> Tensor:
    """1-D convolution (cross-correlation) of x (N, C, L) with weight (O, C / groups, k), plus bias (O,), as torch.nn.functional.conv1d; conv2d over a height of 1.

    Args:
        x (Tensor | float | int): The input batch, shape (N, C, L).
        weight (Tensor | float | int): The filters, shape (O, C / groups, k).
        bias (Tensor | float | int | None, default None): Optional per-output-channel bias, shape (O,).
        stride (int, default 1): The step between windows, an int.
        padding (int, default 0): Zeros added on each side, an int.
        dilation (int, default 1): The spacing between kernel elements, an int.
        groups (int, default 1): Split channels into this many groups.

    Returns:
        out (Tensor): Shape (N, O, L_out).

    Gradient:
        Flows to x, weight, bias. Through conv2d_grad on the unsqueezed tensors, so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "conv1d", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "conv1d", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "conv1d", "bias")
    if stride.__class__ is not int:
        stride = int_arg(stride, "conv1d", "stride")
    if padding.__class__ is not int:
        padding = int_arg(padding, "conv1d", "padding")
    if dilation.__class__ is not int:
        dilation = int_arg(dilation, "conv1d", "dilation")
    if groups.__class__ is not int:
        groups = int_arg(groups, "conv1d", "groups")
    if x._data.dtype is not weight._data.dtype or (bias is not None and x._data.dtype is not bias._data.dtype):
        x, weight, bias = promote_args("conv1d", False, x, weight, bias)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("conv1d", x, arg="x")
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is _bias_data.__class__
        and _k_conv1d.get(x._data.__class__)
        or dispatch(
            "conv1d",
            "conv1d",
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
        raise kernel_error("conv1d", _e) from None
    if (x._requires_grad or weight._requires_grad or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.Conv1dGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.stride = stride
        node.padding = padding
        node.dilation = dilation
        node.groups = groups
    if FORWARD.active:
        _jvp.conv1d(x, weight, bias, stride, padding, dilation, groups, out)
    return out


def conv3d(
    x: Tensor | float | int,
    weight: Tensor | float | int,
    bias: Tensor | float | int | None = None,
    stride: Sequence[int] | int = (1, 1, 1),
    padding: Sequence[int] | int = (0, 0, 0),
    dilation: Sequence[int] | int = (1, 1, 1),
    groups: int = 1,
) -> Tensor:
    """3-D convolution (cross-correlation) of x (N, C, D, H, W) with weight (O, C / groups, kd, kh, kw), plus bias (O,), as torch.nn.functional.conv3d.

    Args:
        x (Tensor | float | int): The input batch, shape (N, C, D, H, W).
        weight (Tensor | float | int): The filters, shape (O, C / groups, kd, kh, kw).
        bias (Tensor | float | int | None, default None): Optional per-output-channel bias, shape (O,).
        stride (int | Sequence[int], default (1, 1, 1)): The step between windows, an int or a list of 3.
        padding (int | Sequence[int], default (0, 0, 0)): Zeros added on each side, an int or a list of 3.
        dilation (int | Sequence[int], default (1, 1, 1)): The spacing between kernel elements, an int or a list of 3.
        groups (int, default 1): Split channels into this many groups.

    Returns:
        out (Tensor): Shape (N, O, D_out, H_out, W_out).

    Gradient:
        Flows to x, weight, bias.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "conv3d", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "conv3d", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "conv3d", "bias")
    if stride.__class__ is not tuple and stride.__class__ is not int:
        stride = int_list_arg(stride, "conv3d", "stride")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "conv3d", "padding")
    if dilation.__class__ is not tuple and dilation.__class__ is not int:
        dilation = int_list_arg(dilation, "conv3d", "dilation")
    if groups.__class__ is not int:
        groups = int_arg(groups, "conv3d", "groups")
    if x._data.dtype is not weight._data.dtype or (bias is not None and x._data.dtype is not bias._data.dtype):
        x, weight, bias = promote_args("conv3d", False, x, weight, bias)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("conv3d", x, arg="x")
    _bias_data = None if bias is None else bias._data
    _kernel = (
        x._data.__class__
        is weight._data.__class__
        is _bias_data.__class__
        and _k_conv3d.get(x._data.__class__)
        or dispatch(
            "conv3d",
            "conv3d",
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
        raise kernel_error("conv3d", _e) from None
    if (x._requires_grad or weight._requires_grad or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.Conv3dGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.stride = stride
        node.padding = padding
        node.dilation = dilation
        node.groups = groups
    if FORWARD.active:
        _jvp.conv3d(x, weight, bias, stride, padding, dilation, groups, out)
    return out


def max_pool2d(
    x: Tensor | float | int,
    kernel_size: Sequence[int] | int,
    stride: Sequence[int] | int | None = None,
    padding: Sequence[int] | int = (0, 0),
) -> Tensor:
    """Maximum over each window of x (N, C, H, W); stride None means kernel_size, padding is -inf; the gradient goes to the first maximum of each window.

    Args:
        x (Tensor | float | int): The input batch, shape (N, C, H, W).
        kernel_size (int | Sequence[int]): The window: An int (the same for both spatial axes) or a 2-list (height, width).
        stride (int | Sequence[int] | None, default None): The step between windows: An int (the same for both spatial axes) or a 2-list (height, width). None means kernel_size.
        padding (int | Sequence[int], default (0, 0)): -inf added on each side: An int (the same for both spatial axes) or a 2-list (height, width).

    Returns:
        out (Tensor): Shape (N, C, H_out, W_out).

    Gradient:
        Flows to x. Each window's gradient goes to its first maximum.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "max_pool2d", "x")
    if kernel_size.__class__ is not tuple and kernel_size.__class__ is not int:
        kernel_size = int_list_arg(kernel_size, "max_pool2d", "kernel_size")
    if stride.__class__ is not tuple and stride.__class__ is not int and stride is not None:
        stride = int_list_arg(stride, "max_pool2d", "stride")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "max_pool2d", "padding")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("max_pool2d", x, arg="x")
    _kernel = _k_max_pool2d.get(x._data.__class__) or dispatch("max_pool2d", "max_pool2d", x._data)
    try:
        _results = _kernel(x._data, kernel_size, stride, padding)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("max_pool2d", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("max_pool2d", 2, _results) from None
    out = wrap(_r0)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.MaxPool2dGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
        node.argmax = TensorWrapper.of_input(wrap(_r1))
        node.kernel_size = kernel_size
        node.stride = stride
        node.padding = padding
    if FORWARD.active:
        _jvp.max_pool2d(x, kernel_size, stride, padding, out, wrap(_results[1]))
    return out


def avg_pool2d(
    x: Tensor | float | int,
    kernel_size: Sequence[int] | int,
    stride: Sequence[int] | int | None = None,
    padding: Sequence[int] | int = (0, 0),
) -> Tensor:
    """Mean over each window of x (N, C, H, W); stride None means kernel_size; zero padding counts in the mean (count_include_pad=True).

    Args:
        x (Tensor | float | int): The input batch, shape (N, C, H, W).
        kernel_size (int | Sequence[int]): The window: An int (the same for both spatial axes) or a 2-list (height, width).
        stride (int | Sequence[int] | None, default None): The step between windows: An int (the same for both spatial axes) or a 2-list (height, width). None means kernel_size.
        padding (int | Sequence[int], default (0, 0)): Zeros added on each side (counted in the mean): An int (the same for both spatial axes) or a 2-list (height, width).

    Returns:
        out (Tensor): Shape (N, C, H_out, W_out).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "avg_pool2d", "x")
    if kernel_size.__class__ is not tuple and kernel_size.__class__ is not int:
        kernel_size = int_list_arg(kernel_size, "avg_pool2d", "kernel_size")
    if stride.__class__ is not tuple and stride.__class__ is not int and stride is not None:
        stride = int_list_arg(stride, "avg_pool2d", "stride")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "avg_pool2d", "padding")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("avg_pool2d", x, arg="x")
    _kernel = _k_avg_pool2d.get(x._data.__class__) or dispatch("avg_pool2d", "avg_pool2d", x._data)
    try:
        _result = _kernel(x._data, kernel_size, stride, padding)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("avg_pool2d", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AvgPool2dGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.kernel_size = kernel_size
        node.stride = stride
        node.padding = padding
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.avg_pool2d(x, kernel_size, stride, padding, out)
    return out


def adaptive_avg_pool2d(
    x: Tensor | float | int,
    output_size: Sequence[int] | int,
) -> Tensor:
    """Mean of x (N, C, H, W) over output_size bins per spatial axis, bin i spanning [floor(i * H / out), ceil((i + 1) * H / out)).

    Args:
        x (Tensor | float | int): The input batch, shape (N, C, H, W).
        output_size (int | Sequence[int]): The output's (H_out, W_out): An int (the same for both spatial axes) or a 2-list (height, width).

    Returns:
        out (Tensor): Shape (N, C, H_out, W_out).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "adaptive_avg_pool2d", "x")
    if output_size.__class__ is not tuple and output_size.__class__ is not int:
        output_size = int_list_arg(output_size, "adaptive_avg_pool2d", "output_size")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("adaptive_avg_pool2d", x, arg="x")
    _kernel = _k_adaptive_avg_pool2d.get(x._data.__class__) or dispatch("adaptive_avg_pool2d", "adaptive_avg_pool2d", x._data)
    try:
        _result = _kernel(x._data, output_size)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("adaptive_avg_pool2d", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AdaptiveAvgPool2dGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.output_size = output_size
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.adaptive_avg_pool2d(x, output_size, out)
    return out


def layer_norm(
    x: Tensor | float | int,
    normalized_shape: Sequence[int] | int,
    weight: Tensor | float | int | None = None,
    bias: Tensor | float | int | None = None,
    epsilon: float = 1e-05,
) -> Tensor:
    """x normalised over its last len(normalized_shape) axes (biased variance), then * weight + bias (both of shape normalized_shape).

    Args:
        x (Tensor | float | int): The input; its trailing axes match normalized_shape.
        normalized_shape (int | Sequence[int]): The trailing axes to normalise over (an int or a list).
        weight (Tensor | float | int | None, default None): Optional scale, shape normalized_shape.
        bias (Tensor | float | int | None, default None): Optional shift, shape normalized_shape.
        epsilon (float | int, default 1e-05): Added to the variance before the square root.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x, weight, bias.
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
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("layer_norm", x, arg="x")
    if weight is not None and weight._data.dtype in COMPLEX_DTYPES:
        refuse_complex("layer_norm", weight, arg="weight")
    if bias is not None and bias._data.dtype in COMPLEX_DTYPES:
        refuse_complex("layer_norm", bias, arg="bias")
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
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("layer_norm", 3, _results) from None
    out = wrap(_r0)
    if (x._requires_grad or (weight is not None and weight._requires_grad) or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.LayerNormGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_edge(x)
        node.weight = None if weight is None else TensorWrapper.of_edge(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.mean = TensorWrapper.of_input(wrap(_r1))
        node.rstd = TensorWrapper.of_input(wrap(_r2))
        node.normalized_shape = normalized_shape
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.layer_norm(x, normalized_shape, weight, bias, epsilon, out, wrap(_results[1]), wrap(_results[2]))
    return out


def batch_norm(
    x: Tensor | float | int,
    running_mean: Tensor,
    running_var: Tensor,
    weight: Tensor | float | int | None = None,
    bias: Tensor | float | int | None = None,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
) -> Tensor:
    """Per-channel (axis 1) normalisation of x (N, C, ...); training uses batch statistics and updates running_mean/running_var in place (running = momentum * running + (1 - momentum) * batch, unbiased variance), eval uses the running ones.

    Args:
        x (Tensor | float | int): The input (N, C, ...), channels on axis 1.
        running_mean (Tensor): Per-channel running mean (C,); updated in place when training.
        running_var (Tensor): Per-channel running variance (C,); updated in place when training.
        weight (Tensor | float | int | None, default None): Optional per-channel scale (C,).
        bias (Tensor | float | int | None, default None): Optional per-channel shift (C,).
        training (bool, default False): True: normalise with batch statistics and update the running ones; False: use the running ones.
        momentum (float | int, default 0.9): The weight of the old running value in each update.
        epsilon (float | int, default 1e-05): Added to the variance before the square root.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x, weight, bias. No gradient for: running_mean, running_var.
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
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("batch_norm", x, arg="x")
    if weight is not None and weight._data.dtype in COMPLEX_DTYPES:
        refuse_complex("batch_norm", weight, arg="weight")
    if bias is not None and bias._data.dtype in COMPLEX_DTYPES:
        refuse_complex("batch_norm", bias, arg="bias")
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
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("batch_norm", 3, _results) from None
    out = wrap(_r0)
    if training:
        bump_versions(running_mean, running_var)
    if (x._requires_grad or (weight is not None and weight._requires_grad) or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.BatchNormGradNode, (x, None, None, weight, bias), out)
        node.x = TensorWrapper.of_edge(x)
        node.weight = None if weight is None else TensorWrapper.of_edge(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.saved_mean = TensorWrapper.of_input(wrap(_r1))
        node.saved_rstd = TensorWrapper.of_input(wrap(_r2))
        node.training = training
        node.momentum = momentum
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, epsilon, out, wrap(_results[1]), wrap(_results[2]))
    return out


def group_norm(
    x: Tensor | float | int,
    num_groups: int,
    weight: Tensor | float | int | None = None,
    bias: Tensor | float | int | None = None,
    epsilon: float = 1e-05,
) -> Tensor:
    """x (N, C, ...) normalised over each of num_groups channel groups (biased variance), then * weight + bias per channel (C,).

    Args:
        x (Tensor | float | int): The input (N, C, ...), channels on axis 1.
        num_groups (int): How many channel groups; it must divide C.
        weight (Tensor | float | int | None, default None): Optional per-channel scale (C,).
        bias (Tensor | float | int | None, default None): Optional per-channel shift (C,).
        epsilon (float | int, default 1e-05): Added to the variance before the square root.

    Returns:
        out (Tensor): A tensor of x's shape.

    Gradient:
        Flows to x, weight, bias.
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
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("group_norm", x, arg="x")
    if weight is not None and weight._data.dtype in COMPLEX_DTYPES:
        refuse_complex("group_norm", weight, arg="weight")
    if bias is not None and bias._data.dtype in COMPLEX_DTYPES:
        refuse_complex("group_norm", bias, arg="bias")
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
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("group_norm", 3, _results) from None
    out = wrap(_r0)
    if (x._requires_grad or (weight is not None and weight._requires_grad) or (bias is not None and bias._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.GroupNormGradNode, (x, weight, bias), out)
        node.x = TensorWrapper.of_edge(x)
        node.weight = None if weight is None else TensorWrapper.of_edge(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
        node.mean = TensorWrapper.of_input(wrap(_r1))
        node.rstd = TensorWrapper.of_input(wrap(_r2))
        node.num_groups = num_groups
        node.epsilon = epsilon
    if FORWARD.active:
        _jvp.group_norm(x, num_groups, weight, bias, epsilon, out, wrap(_results[1]), wrap(_results[2]))
    return out


def linear(
    x: Tensor | float | int,
    weight: Tensor | float | int,
    bias: Tensor | float | int | None = None,
) -> Tensor:
    """x @ weight + bias with Paddle's weight layout (in_features, out_features).

    Args:
        x (Tensor | float | int): The input, shape (..., in_features).
        weight (Tensor | float | int): Shape (in_features, out_features).
        bias (Tensor | float | int | None, default None): Optional, shape (out_features,).

    Returns:
        out (Tensor): Shape (..., out_features).

    Gradient:
        Flows to x, weight, bias.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, weight, "linear", "x")
    if not isinstance(weight, Tensor):
        weight = as_tensor_arg(weight, x, "linear", "weight")
    if bias is not None and not isinstance(bias, Tensor):
        bias = as_tensor_arg(bias, x, "linear", "bias")
    if x._data.dtype is not weight._data.dtype or (bias is not None and x._data.dtype is not bias._data.dtype):
        x, weight, bias = promote_args("linear", False, x, weight, bias)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("linear", x, arg="x")
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
        node.x = TensorWrapper.of_edge(x)
        node.weight = TensorWrapper.of_edge(weight)
        node.bias = None if bias is None else TensorWrapper.meta_of(bias)
    if FORWARD.active:
        _jvp.linear(x, weight, bias, out)
    return out


def einsum(
    equation: str,
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """Two-operand Einstein summation ('bij,bjk->bik'; without '->' the output is NumPy's implicit one); no ellipsis, no index repeated within an operand.

    Args:
        equation (str): The subscripts, such as 'bij,bjk->bik'.
        x (Tensor | float | int): The first operand.
        y (Tensor | float | int): The second operand.

    Returns:
        out (Tensor): The contraction the equation describes.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "einsum", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "einsum", "y")
    if equation.__class__ is not str:
        equation = str_arg(equation, "einsum", "equation")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("einsum", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("einsum", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_einsum.get(x._data.__class__)
        or dispatch("einsum", "einsum", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data, equation)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("einsum", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.EinsumGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.equation = equation
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.einsum(equation, x, y, out)
    return out


def scaled_dot_product_attention(
    query: Tensor | float | int,
    key: Tensor | float | int,
    value: Tensor | float | int,
    mask: Tensor | float | int | None = None,
    dropout_p: float = 0.0,
    causal: bool = False,
    scale: float | None = None,
) -> Tensor:
    """softmax(query @ key^T * scale + mask) @ value over (..., seq, head_dim) tensors; scale None means 1 / sqrt(head_dim); a bool mask keeps True, a float mask is added; causal keeps key j <= query i; dropout_p drops attention weights; fully masked rows give 0.

    Args:
        query (Tensor | float | int): Shape (..., L, head_dim).
        key (Tensor | float | int): Shape (..., S, head_dim).
        value (Tensor | float | int): Shape (..., S, value_dim).
        mask (Tensor | float | int | None, default None): Optional, broadcast to (..., L, S): bool keeps True, float is added to the scores.
        dropout_p (float | int, default 0.0): The probability of dropping an attention weight.
        causal (bool, default False): Let query i attend only to keys j <= i.
        scale (float | int | None, default None): The factor of the scores; None means 1 / sqrt(head_dim).

    Returns:
        out (Tensor): Shape (..., L, value_dim).

    Gradient:
        Flows to query, key, value, mask.
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
    if query._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scaled_dot_product_attention", query, arg="query")
    if key._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scaled_dot_product_attention", key, arg="key")
    if value._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scaled_dot_product_attention", value, arg="value")
    if mask is not None and mask._data.dtype in COMPLEX_DTYPES:
        refuse_complex("scaled_dot_product_attention", mask, arg="mask")
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
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("scaled_dot_product_attention", 3, _results) from None
    out = wrap(_r0)
    if (query._requires_grad or key._requires_grad or value._requires_grad or (mask is not None and mask._requires_grad)) and grad_enabled() and out._data.dtype.kind == "f":
        node = new_node(_nodes.ScaledDotProductAttentionGradNode, (query, key, value, mask), out)
        node.query = TensorWrapper.of_edge(query)
        node.key = TensorWrapper.of_edge(key)
        node.value = TensorWrapper.of_edge(value)
        node.mask = None if mask is None else TensorWrapper.of_edge(mask)
        node.weights = TensorWrapper.of_input(wrap(_r1))
        node.keep = TensorWrapper.of_input(wrap(_r2))
        node.dropout_p = dropout_p
        node.causal = causal
        node.scale = scale
    if FORWARD.active:
        _jvp.scaled_dot_product_attention(query, key, value, mask, dropout_p, causal, scale, out, wrap(_results[1]), wrap(_results[2]))
    return out


def unfold(
    x: Tensor | float | int,
    kernel_size: Sequence[int] | int,
    dilation: Sequence[int] | int = (1,),
    padding: Sequence[int] | int = (0,),
    stride: Sequence[int] | int = (1,),
) -> Tensor:
    """im2col (torch.nn.functional.unfold): every sliding kernel_size block of x (N, C, H, W) as a column of (N, C * kh * kw, L), channel-major, L the block positions row by row.

    Args:
        x (Tensor | float | int): Input (N, C, H, W) or unbatched (C, H, W).
        kernel_size (int | Sequence[int]): The block's (kh, kw), an int or a pair.
        dilation (int | Sequence[int], default (1,)): Spacing of the block's elements, an int or a pair.
        padding (int | Sequence[int], default (0,)): Zeros added on both sides of each spatial axis, an int or a pair.
        stride (int | Sequence[int], default (1,)): Step between blocks, an int or a pair.

    Returns:
        out (Tensor): Shape (N, C * kh * kw, L).

    Gradient:
        Flows to x. fold of the gradient (the adjoint), so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "unfold", "x")
    if kernel_size.__class__ is not tuple and kernel_size.__class__ is not int:
        kernel_size = int_list_arg(kernel_size, "unfold", "kernel_size")
    if dilation.__class__ is not tuple and dilation.__class__ is not int:
        dilation = int_list_arg(dilation, "unfold", "dilation")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "unfold", "padding")
    if stride.__class__ is not tuple and stride.__class__ is not int:
        stride = int_list_arg(stride, "unfold", "stride")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("unfold", x, arg="x")
    _kernel = _k_unfold.get(x._data.__class__) or dispatch("unfold", "unfold", x._data)
    try:
        _result = _kernel(x._data, kernel_size, dilation, padding, stride)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("unfold", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.UnfoldGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.kernel_size = kernel_size
        node.dilation = dilation
        node.padding = padding
        node.stride = stride
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.unfold(x, kernel_size, dilation, padding, stride, out)
    return out


def fold(
    x: Tensor | float | int,
    output_size: Sequence[int] | int,
    kernel_size: Sequence[int] | int,
    dilation: Sequence[int] | int = (1,),
    padding: Sequence[int] | int = (0,),
    stride: Sequence[int] | int = (1,),
) -> Tensor:
    """col2im (torch.nn.functional.fold): sums the columns of x (N, C * kh * kw, L) into (N, C, *output_size), overlapping blocks adding up; the adjoint of unfold.

    Args:
        x (Tensor | float | int): Columns (N, C * kh * kw, L) or unbatched (C * kh * kw, L).
        output_size (int | Sequence[int]): The spatial (H, W) of the result, an int or a pair.
        kernel_size (int | Sequence[int]): The block's (kh, kw), an int or a pair.
        dilation (int | Sequence[int], default (1,)): Spacing of the block's elements, an int or a pair.
        padding (int | Sequence[int], default (0,)): Zeros added on both sides of each spatial axis (cropped from the result), an int or a pair.
        stride (int | Sequence[int], default (1,)): Step between blocks, an int or a pair.

    Returns:
        out (Tensor): Shape (N, C, H, W).

    Gradient:
        Flows to x. unfold of the gradient (the adjoint), so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "fold", "x")
    if output_size.__class__ is not tuple and output_size.__class__ is not int:
        output_size = int_list_arg(output_size, "fold", "output_size")
    if kernel_size.__class__ is not tuple and kernel_size.__class__ is not int:
        kernel_size = int_list_arg(kernel_size, "fold", "kernel_size")
    if dilation.__class__ is not tuple and dilation.__class__ is not int:
        dilation = int_list_arg(dilation, "fold", "dilation")
    if padding.__class__ is not tuple and padding.__class__ is not int:
        padding = int_list_arg(padding, "fold", "padding")
    if stride.__class__ is not tuple and stride.__class__ is not int:
        stride = int_list_arg(stride, "fold", "stride")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("fold", x, arg="x")
    _kernel = _k_fold.get(x._data.__class__) or dispatch("fold", "fold", x._data)
    try:
        _result = _kernel(x._data, output_size, kernel_size, dilation, padding, stride)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fold", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.FoldGradNode, _result, x)
        node.output_size = output_size
        node.kernel_size = kernel_size
        node.dilation = dilation
        node.padding = padding
        node.stride = stride
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.fold(x, output_size, kernel_size, dilation, padding, stride, out)
    return out


def fill(
    x: Tensor | float | int,
    value: float,
) -> Tensor:
    """A tensor shaped like x (and of its dtype) with every element set to value; no gradient flows to x.

    Args:
        x (Tensor | float | int): Gives the shape and dtype only.
        value (float | int): The number every element is set to.

    Returns:
        out (Tensor): A new tensor of x's shape and dtype.

    Gradient:
        Flows to x. Zero: the result does not depend on x's values.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "fill", "x")
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "fill", "value")
    _kernel = _k_fill.get(x._data.__class__) or dispatch("fill", "fill", x._data)
    try:
        _result = _kernel(x._data, value)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fill", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.FillGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.value = value
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.fill(x, value, out)
    return out


def fill_(
    x: Tensor,
    value: float,
) -> Tensor:
    """A tensor shaped like x (and of its dtype) with every element set to value; no gradient flows to x.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): Gives the shape and dtype only.
        value (float | int): The number every element is set to.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x. Zero: the result does not depend on x's values.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("fill_", "x", x)
    if value.__class__ is not float and value.__class__ is not int:
        value = scalar_arg(value, "fill_", "value")
    record = check_inplace("fill_", x)
    if not (record or FORWARD.active) and write_into(x, _k_fill, (x._data,), value):
        return x
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


def zero(x: Tensor | float | int) -> Tensor:
    """Zeros shaped like x (and of its dtype); no gradient flows to x.

    Args:
        x (Tensor | float | int): Gives the shape and dtype only.

    Returns:
        out (Tensor): A new tensor of x's shape and dtype.

    Gradient:
        Flows to x. Zero: the result does not depend on x's values.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "zero", "x")
    _kernel = _k_zero.get(x._data.__class__) or dispatch("zero", "zero", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("zero", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.ZeroGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.zero(x, out)
    return out


def zero_(x: Tensor) -> Tensor:
    """Zeros shaped like x (and of its dtype); no gradient flows to x.

    In place: writes the result into x and returns x.

    Args:
        x (Tensor): Gives the shape and dtype only.

    Returns:
        x (Tensor): Written in place, holding the result.

    Gradient:
        Flows to x. Zero: the result does not depend on x's values.
    """
    if not isinstance(x, Tensor):
        raise _not_a_tensor("zero_", "x", x)
    record = check_inplace("zero_", x)
    if not (record or FORWARD.active) and write_into(x, _k_zero, (x._data,)):
        return x
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
    x: Tensor | float | int,
    target: Tensor | float | int,
) -> Tensor:
    """x summed over its broadcast axes down to the shape of target, in target's dtype (double-grad composites use it).

    Args:
        x (Tensor | float | int): A tensor of the broadcast shape of target and something else.
        target (Tensor | float | int): Gives the shape and dtype only.

    Returns:
        out (Tensor): A tensor of target's shape and dtype.

    Gradient:
        Flows to x. No gradient for: target.
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
        _result = _kernel(x._data, target._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("reduce_as", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.ReduceAsGradNode, _result, x, None)
        node.x = TensorWrapper.meta_of(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.reduce_as(x, target, out)
    return out


def narrow_as(
    x: Tensor | float | int,
    like: Tensor | float | int,
    axis: int = -1,
) -> Tensor:
    """The leading like.shape[axis] entries of x along axis, x[..., :k] for the last axis (svd's gradient reads the leading singular vectors of full_matrices=True with it).

    Args:
        x (Tensor | float | int): The tensor narrowed.
        like (Tensor | float | int): Gives the length along axis only (at most x's); no gradient flows to it.
        axis (int, default -1): The axis narrowed, counted in x and in like alike (negative counts from the end).

    Returns:
        out (Tensor): x with axis cut to like's length.

    Gradient:
        Flows to x. No gradient for: like. pad_as of the gradient (zeros after the kept entries), so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, like, "narrow_as", "x")
    if not isinstance(like, Tensor):
        like = as_tensor_arg(like, x, "narrow_as", "like")
    if axis.__class__ is not int:
        axis = int_arg(axis, "narrow_as", "axis")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("narrow_as", x, arg="x")
    _kernel = (
        x._data.__class__
        is like._data.__class__
        and _k_narrow_as.get(x._data.__class__)
        or dispatch("narrow_as", "narrow_as", x._data, like._data)
    )
    try:
        _result = _kernel(x._data, like._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("narrow_as", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.NarrowAsGradNode, _result, x, None)
        node.x = TensorWrapper.of_edge(x)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.narrow_as(x, like, axis, out)
    return out


def pad_as(
    x: Tensor | float | int,
    like: Tensor | float | int,
    axis: int = -1,
) -> Tensor:
    """x followed by zeros along axis up to like.shape[axis] entries; the adjoint of narrow_as.

    Args:
        x (Tensor | float | int): The tensor padded.
        like (Tensor | float | int): Gives the length along axis only (at least x's); no gradient flows to it.
        axis (int, default -1): The axis padded, counted in x and in like alike (negative counts from the end).

    Returns:
        out (Tensor): x with axis grown to like's length, the new entries 0.

    Gradient:
        Flows to x. No gradient for: like. narrow_as of the gradient, so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, like, "pad_as", "x")
    if not isinstance(like, Tensor):
        like = as_tensor_arg(like, x, "pad_as", "like")
    if axis.__class__ is not int:
        axis = int_arg(axis, "pad_as", "axis")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("pad_as", x, arg="x")
    _kernel = (
        x._data.__class__
        is like._data.__class__
        and _k_pad_as.get(x._data.__class__)
        or dispatch("pad_as", "pad_as", x._data, like._data)
    )
    try:
        _result = _kernel(x._data, like._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("pad_as", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.PadAsGradNode, _result, x, None)
        node.x = TensorWrapper.of_edge(x)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.pad_as(x, like, axis, out)
    return out


def qr_square_block(
    x: Tensor | float | int,
    q: Tensor | float | int,
    mode: str = "reduced",
) -> Tensor:
    """The leading k columns x[..., :, :k], k = q.shape[-1], of qr's r (or its gradient): the square block U of r = [U | V] that qr's gradient inverts; refuses the modes without a gradient.

    Args:
        x (Tensor | float | int): qr's r or its gradient, (..., k, n) with n >= k.
        q (Tensor | float | int): qr's q, (..., m, k); gives k only, and gets no gradient.
        mode (str, default \"reduced\"): qr's mode; 'r' and a tall 'complete' (k > n) raise, as their qr has no gradient.

    Returns:
        out (Tensor): The leading square block, (..., k, k).

    Gradient:
        Flows to x. No gradient for: q. pad_as of the gradient (zero columns after the block), so every order works.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, q, "qr_square_block", "x")
    if not isinstance(q, Tensor):
        q = as_tensor_arg(q, x, "qr_square_block", "q")
    if mode.__class__ is not str:
        mode = str_arg(mode, "qr_square_block", "mode")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("qr_square_block", x, arg="x")
    _kernel = (
        x._data.__class__
        is q._data.__class__
        and _k_qr_square_block.get(x._data.__class__)
        or dispatch("qr_square_block", "qr_square_block", x._data, q._data)
    )
    try:
        _result = _kernel(x._data, q._data, mode)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("qr_square_block", _e) from None
    if x._requires_grad and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.QrSquareBlockGradNode, _result, x, None)
        node.x = TensorWrapper.of_edge(x)
        node.mode = mode
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.qr_square_block(x, q, mode, out)
    return out


def softmax_vjp(
    p: Tensor | float | int,
    g: Tensor | float | int,
    axis: int = -1,
) -> Tensor:
    """p * (g - sum(g * p, axis, keepdim)), softmax's gradient for its output p and output gradient g.

    Args:
        p (Tensor | float | int): The softmax output.
        g (Tensor | float | int): The gradient of the softmax output.
        axis (int, default -1): The softmax axis.

    Returns:
        o (Tensor): The gradient of softmax's input, p's shape.

    Gradient:
        Flows to p, g.
    """
    if not isinstance(p, Tensor):
        p = as_tensor_arg(p, g, "softmax_vjp", "p")
    if not isinstance(g, Tensor):
        g = as_tensor_arg(g, p, "softmax_vjp", "g")
    if axis.__class__ is not int:
        axis = int_arg(axis, "softmax_vjp", "axis")
    if p._data.dtype in COMPLEX_DTYPES:
        refuse_complex("softmax_vjp", p, arg="p")
    if g._data.dtype in COMPLEX_DTYPES:
        refuse_complex("softmax_vjp", g, arg="g")
    _kernel = (
        p._data.__class__
        is g._data.__class__
        and _k_softmax_vjp.get(p._data.__class__)
        or dispatch("softmax_vjp", "softmax_vjp", p._data, g._data)
    )
    try:
        _result = _kernel(p._data, g._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("softmax_vjp", _e) from None
    if (p._requires_grad or g._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        o, node = recorded(_nodes.SoftmaxVjpGradNode, _result, p, g)
        node.p = TensorWrapper.of_edge(p)
        node.g = TensorWrapper.of_edge(g)
        node.axis = axis
    else:
        o = wrap(_result)
    if FORWARD.active:
        _jvp.softmax_vjp(p, g, axis, o)
    return o


def softmax_vjp_dp(
    p: Tensor | float | int,
    g: Tensor | float | int,
    r: Tensor | float | int,
    axis: int = -1,
) -> Tensor:
    """The derivative of sum(softmax_vjp(p, g, axis) * r) with respect to p.

    Args:
        p (Tensor | float | int): The softmax output.
        g (Tensor | float | int): The gradient of the softmax output.
        r (Tensor | float | int): The direction the derivative is taken against.
        axis (int, default -1): The softmax axis.

    Returns:
        o (Tensor): A tensor of p's shape.

    Gradient:
        Flows to p, g, r.
    """
    if not isinstance(p, Tensor):
        p = as_tensor_arg(p, g, "softmax_vjp_dp", "p")
    if not isinstance(g, Tensor):
        g = as_tensor_arg(g, p, "softmax_vjp_dp", "g")
    if not isinstance(r, Tensor):
        r = as_tensor_arg(r, p, "softmax_vjp_dp", "r")
    if axis.__class__ is not int:
        axis = int_arg(axis, "softmax_vjp_dp", "axis")
    if p._data.dtype in COMPLEX_DTYPES:
        refuse_complex("softmax_vjp_dp", p, arg="p")
    if g._data.dtype in COMPLEX_DTYPES:
        refuse_complex("softmax_vjp_dp", g, arg="g")
    if r._data.dtype in COMPLEX_DTYPES:
        refuse_complex("softmax_vjp_dp", r, arg="r")
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
        node.p = TensorWrapper.of_edge(p)
        node.g = TensorWrapper.of_edge(g)
        node.r = TensorWrapper.of_edge(r)
        node.axis = axis
    if FORWARD.active:
        _jvp.softmax_vjp_dp(p, g, r, axis, o)
    return o


def matmul_xg(
    x: Tensor | float | int,
    y: Tensor | float | int,
    g: Tensor | float | int,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """The gradient for x of matmul(x, y, transpose_x, transpose_y) given the output gradient g; x gives only its shape.

    Args:
        x (Tensor | float | int): Gives the shape only.
        y (Tensor | float | int): The right operand of the matmul.
        g (Tensor | float | int): The gradient of the matmul's output.
        transpose_x (bool, default False): As given to matmul.
        transpose_y (bool, default False): As given to matmul.

    Returns:
        o (Tensor): A tensor of x's shape.

    Gradient:
        Flows to y, g. No gradient for: x.
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
    if (y._requires_grad or g._requires_grad) and grad_enabled() and o._data.dtype.kind in "fc":
        node = new_node(_nodes.MatmulXgGradNode, (None, y, g), o)
        node.y = TensorWrapper.of_edge(y)
        node.g = TensorWrapper.of_edge(g)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul_xg(x, y, g, transpose_x, transpose_y, o)
    return o


def matmul_yg(
    x: Tensor | float | int,
    y: Tensor | float | int,
    g: Tensor | float | int,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """The gradient for y of matmul(x, y, transpose_x, transpose_y) given the output gradient g; y gives only its shape.

    Args:
        x (Tensor | float | int): The left operand of the matmul.
        y (Tensor | float | int): Gives the shape only.
        g (Tensor | float | int): The gradient of the matmul's output.
        transpose_x (bool, default False): As given to matmul.
        transpose_y (bool, default False): As given to matmul.

    Returns:
        o (Tensor): A tensor of y's shape.

    Gradient:
        Flows to x, g. No gradient for: y.
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
    if (x._requires_grad or g._requires_grad) and grad_enabled() and o._data.dtype.kind in "fc":
        node = new_node(_nodes.MatmulYgGradNode, (x, None, g), o)
        node.x = TensorWrapper.of_edge(x)
        node.g = TensorWrapper.of_edge(g)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul_yg(x, y, g, transpose_x, transpose_y, o)
    return o


def matmul_jvp(
    x: Tensor | float | int,
    y: Tensor | float | int,
    a: Tensor | float | int,
    b: Tensor | float | int,
    transpose_x: bool = False,
    transpose_y: bool = False,
) -> Tensor:
    """matmul(a, y) + matmul(x, b) (same transposes), the directional derivative of matmul at (x, y) along (a, b).

    Args:
        x (Tensor | float | int): The left operand.
        y (Tensor | float | int): The right operand.
        a (Tensor | float | int): The direction for x (x's shape).
        b (Tensor | float | int): The direction for y (y's shape).
        transpose_x (bool, default False): As given to matmul.
        transpose_y (bool, default False): As given to matmul.

    Returns:
        o (Tensor): A tensor of the shape of matmul(x, y).

    Gradient:
        Flows to x, y, a, b.
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
    if (x._requires_grad or y._requires_grad or a._requires_grad or b._requires_grad) and grad_enabled() and o._data.dtype.kind in "fc":
        node = new_node(_nodes.MatmulJvpGradNode, (x, y, a, b), o)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.a = TensorWrapper.of_edge(a)
        node.b = TensorWrapper.of_edge(b)
        node.transpose_x = transpose_x
        node.transpose_y = transpose_y
    if FORWARD.active:
        _jvp.matmul_jvp(x, y, a, b, transpose_x, transpose_y, o)
    return o


def lstm_cell(
    gates: Tensor | float | int,
    c: Tensor | float | int,
) -> tuple[Tensor, Tensor]:
    """One LSTM step after its matmuls: with gates = x W_ih^T + b_ih + h W_hh^T + b_hh split into four blocks i, f, g, o along the last axis (PyTorch's order), c_next = sigmoid(f) * c + sigmoid(i) * tanh(g) and h = sigmoid(o) * tanh(c_next). Fuses the ten elementwise ops of a step into one forward and one backward kernel; nn.LSTM and nn.LSTMCell use it.

    Args:
        gates (Tensor | float | int): The pre-activation gates, (..., 4 * hidden); the blocks are input, forget, cell and output.
        c (Tensor | float | int): The cell state, (..., hidden), with the leading axes of gates.

    Returns:
        A tuple (h, c_next):
        h (Tensor): The new hidden state, (..., hidden).
        c_next (Tensor): The new cell state, (..., hidden).

    Gradient:
        Flows to gates, c.
    """
    if not isinstance(gates, Tensor):
        gates = as_tensor_arg(gates, c, "lstm_cell", "gates")
    if not isinstance(c, Tensor):
        c = as_tensor_arg(c, gates, "lstm_cell", "c")
    if gates._data.dtype is not c._data.dtype:
        gates, c = promote_args("lstm_cell", False, gates, c)
    if gates._data.dtype in COMPLEX_DTYPES:
        refuse_complex("lstm_cell", gates, arg="gates")
    _kernel = (
        gates._data.__class__
        is c._data.__class__
        and _k_lstm_cell.get(gates._data.__class__)
        or dispatch("lstm_cell", "lstm_cell", gates._data, c._data)
    )
    try:
        _results = _kernel(gates._data, c._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("lstm_cell", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("lstm_cell", 3, _results) from None
    h = wrap(_r0)
    c_next = wrap(_r1)
    if (gates._requires_grad or c._requires_grad) and grad_enabled() and h._data.dtype.kind == "f":
        node = new_node_of(_nodes.LstmCellGradNode, h, gates, c)
        set_history(c_next, node, 1)
        node.gates = TensorWrapper.of_edge(gates)
        node.c = TensorWrapper.of_edge(c)
        node.c_next = TensorWrapper.of_output(c_next, node)
        node.act = TensorWrapper.of_input(wrap(_r2))
    if FORWARD.active:
        _jvp.lstm_cell(gates, c, h, c_next, wrap(_results[2]))
    return (h, c_next)


def bitwise_and(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x & y, elementwise with broadcasting (integer or bool tensors; logical and on bool).

    Args:
        x (Tensor | float | int): An integer or bool tensor.
        y (Tensor | float | int): An integer or bool tensor; broadcasts against x.

    Returns:
        out (Tensor): The bitwise and of x and y (logical on bool), of the broadcast shape and promoted dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "bitwise_and", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "bitwise_and", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("bitwise_and", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bitwise_and", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_bitwise_and.get(x._data.__class__)
        or dispatch("bitwise_and", "bitwise_and", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bitwise_and", _e) from None
    return out


def bitwise_or(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x | y, elementwise with broadcasting (integer or bool tensors; logical or on bool).

    Args:
        x (Tensor | float | int): An integer or bool tensor.
        y (Tensor | float | int): An integer or bool tensor; broadcasts against x.

    Returns:
        out (Tensor): The bitwise or of x and y (logical on bool), of the broadcast shape and promoted dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "bitwise_or", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "bitwise_or", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("bitwise_or", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bitwise_or", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_bitwise_or.get(x._data.__class__)
        or dispatch("bitwise_or", "bitwise_or", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bitwise_or", _e) from None
    return out


def bitwise_xor(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x ^ y, elementwise with broadcasting (integer or bool tensors; logical xor on bool).

    Args:
        x (Tensor | float | int): An integer or bool tensor.
        y (Tensor | float | int): An integer or bool tensor; broadcasts against x.

    Returns:
        out (Tensor): The bitwise xor of x and y (logical on bool), of the broadcast shape and promoted dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "bitwise_xor", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "bitwise_xor", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("bitwise_xor", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bitwise_xor", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_bitwise_xor.get(x._data.__class__)
        or dispatch("bitwise_xor", "bitwise_xor", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bitwise_xor", _e) from None
    return out


def bitwise_not(x: Tensor | float | int) -> Tensor:
    """~x, elementwise (integer or bool tensors; logical not on bool).

    Args:
        x (Tensor | float | int): An integer or bool tensor.

    Returns:
        out (Tensor): The bitwise complement of x (logical not on bool), of x's shape and dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "bitwise_not", "x")
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bitwise_not", x, arg="x")
    _kernel = _k_bitwise_not.get(x._data.__class__) or dispatch("bitwise_not", "bitwise_not", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bitwise_not", _e) from None
    return out


def floor_divide(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x // y, elementwise with broadcasting, rounded toward minus infinity; no gradient (zero almost everywhere).

    Args:
        x (Tensor | float | int): The dividend.
        y (Tensor | float | int): The divisor; broadcasts against x.

    Returns:
        out (Tensor): floor(x / y), of the broadcast shape and promoted dtype.

    Gradient:
        None: the outputs are not differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "floor_divide", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "floor_divide", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("floor_divide", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("floor_divide", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_floor_divide.get(x._data.__class__)
        or dispatch("floor_divide", "floor_divide", x._data, y._data)
    )
    try:
        out = wrap(_kernel(x._data, y._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("floor_divide", _e) from None
    return out


def remainder(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """x % y, elementwise with broadcasting; the result takes y's sign (Python's modulo).

    Args:
        x (Tensor | float | int): The dividend.
        y (Tensor | float | int): The divisor; broadcasts against x.

    Returns:
        out (Tensor): x - floor(x / y) * y, which has y's sign, of the broadcast shape and promoted dtype.

    Gradient:
        Flows to x, y. The gradient is 1 for x and -floor(x / y) for y (the floor's own gradient is zero almost everywhere).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "remainder", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "remainder", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("remainder", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("remainder", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_remainder.get(x._data.__class__)
        or dispatch("remainder", "remainder", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("remainder", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.RemainderGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.remainder(x, y, out)
    return out


def matrix_transpose(x: Tensor | float | int) -> Tensor:
    """x with its last two axes swapped (a batch of transposed matrices).

    Args:
        x (Tensor | float | int): A tensor of at least 2 dimensions (..., m, n).

    Returns:
        out (Tensor): The transposed matrices, of shape (..., n, m).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "matrix_transpose", "x")
    _kernel = _k_matrix_transpose.get(x._data.__class__) or dispatch("matrix_transpose", "matrix_transpose", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matrix_transpose", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.MatrixTransposeGradNode, _result, x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.matrix_transpose(x, out)
    return out


def trace(x: Tensor | float | int) -> Tensor:
    """The sum of the main diagonal of each matrix in the last two axes (batched; may be rectangular).

    Args:
        x (Tensor | float | int): A tensor of at least 2 dimensions (..., m, n).

    Returns:
        out (Tensor): The traces, of shape x.shape[:-2].

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "trace", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("trace", x)
    _kernel = _k_trace.get(x._data.__class__) or dispatch("trace", "trace", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("trace", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.TraceGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.trace(x, out)
    return out


def outer(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """The outer product x[i] * y[j] of two vectors.

    Args:
        x (Tensor | float | int): A 1-D tensor of length m.
        y (Tensor | float | int): A 1-D tensor of length n.

    Returns:
        out (Tensor): The (m, n) matrix of products.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "outer", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "outer", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("outer", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("outer", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_outer.get(x._data.__class__)
        or dispatch("outer", "outer", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("outer", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.OuterGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.outer(x, y, out)
    return out


def diagonal(
    x: Tensor | float | int,
    offset: int = 0,
    axis1: int = 0,
    axis2: int = 1,
    dim1: int | None = None,
    dim2: int | None = None,
) -> Tensor:
    """The diagonal of x in the plane of axis1 and axis2, as a new last axis (a copy); offset > 0 is above the main diagonal, < 0 below.

    Args:
        x (Tensor | float | int): A tensor of at least 2 dimensions.
        offset (int, default 0): Which diagonal; 0 is the main one.
        axis1 (int, default 0): The axis of the rows.
        axis2 (int, default 1): The axis of the columns; not axis1.
        dim1 (int | None, default None): Alias of axis1 (the PyTorch/NumPy spelling); give one or the other.
        dim2 (int | None, default None): Alias of axis2 (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): x without axis1 and axis2, with the diagonal's entries as a new last axis.

    Gradient:
        Flows to x.
    """
    if dim1 is not None:
        axis1 = alias_arg("diagonal", "axis1", axis1, 0, "dim1", dim1, False)
    if dim2 is not None:
        axis2 = alias_arg("diagonal", "axis2", axis2, 1, "dim2", dim2, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "diagonal", "x")
    if offset.__class__ is not int:
        offset = int_arg(offset, "diagonal", "offset")
    if axis1.__class__ is not int:
        axis1 = int_arg(axis1, "diagonal", "axis1")
    if axis2.__class__ is not int:
        axis2 = int_arg(axis2, "diagonal", "axis2")
    _kernel = _k_diagonal.get(x._data.__class__) or dispatch("diagonal", "diagonal", x._data)
    try:
        _result = _kernel(x._data, offset, axis1, axis2)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("diagonal", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.DiagonalGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.offset = offset
        node.axis1 = axis1
        node.axis2 = axis2
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.diagonal(x, offset, axis1, axis2, out)
    return out


def diag_embed(
    x: Tensor | float | int,
    offset: int = 0,
    dim1: int = -2,
    dim2: int = -1,
) -> Tensor:
    """Matrices with the last axis of x on their offset diagonal and zeros elsewhere, placed at the output axes dim1 (rows) and dim2 (columns).

    Args:
        x (Tensor | float | int): A tensor of at least 1 dimension; its last axis is the diagonal.
        offset (int, default 0): Which diagonal to fill; 0 is the main one.
        dim1 (int, default -2): The output axis of the rows (counted in the output, which has one more axis than x).
        dim2 (int, default -1): The output axis of the columns; not dim1.

    Returns:
        out (Tensor): A tensor of x.ndim + 1 axes whose dim1 and dim2 have size x.shape[-1] + abs(offset).

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "diag_embed", "x")
    if offset.__class__ is not int:
        offset = int_arg(offset, "diag_embed", "offset")
    if dim1.__class__ is not int:
        dim1 = int_arg(dim1, "diag_embed", "dim1")
    if dim2.__class__ is not int:
        dim2 = int_arg(dim2, "diag_embed", "dim2")
    _kernel = _k_diag_embed.get(x._data.__class__) or dispatch("diag_embed", "diag_embed", x._data)
    try:
        _result = _kernel(x._data, offset, dim1, dim2)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("diag_embed", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.DiagEmbedGradNode, _result, x)
        node.offset = offset
        node.dim1 = dim1
        node.dim2 = dim2
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.diag_embed(x, offset, dim1, dim2, out)
    return out


def cross(
    x: Tensor | float | int,
    y: Tensor | float | int,
    axis: int = -1,
    dim: int | None = None,
) -> Tensor:
    """The cross product of 3-vectors along axis, with broadcasting (axis counts in the broadcast shape).

    Args:
        x (Tensor | float | int): The left operand; size 3 along axis.
        y (Tensor | float | int): The right operand; broadcasts against x.
        axis (int, default -1): The axis of the 3-vectors.
        dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

    Returns:
        out (Tensor): The cross product x x y, of the broadcast shape.

    Gradient:
        Flows to x, y.
    """
    if dim is not None:
        axis = alias_arg("cross", "axis", axis, -1, "dim", dim, False)
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "cross", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "cross", "y")
    if axis.__class__ is not int:
        axis = int_arg(axis, "cross", "axis")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("cross", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("cross", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_cross.get(x._data.__class__)
        or dispatch("cross", "cross", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data, axis)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cross", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.CrossGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.axis = axis
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cross(x, y, axis, out)
    return out


def inv(x: Tensor | float | int) -> Tensor:
    """The inverse of each square matrix in the last two axes; a singular matrix raises a ValueError naming the batch element.

    Args:
        x (Tensor | float | int): Square matrices (..., n, n).

    Returns:
        out (Tensor): The inverses, of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "inv", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("inv", x)
    _kernel = _k_inv.get(x._data.__class__) or dispatch("inv", "inv", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("inv", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.InvGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.inv(x, out)
    return out


def det(x: Tensor | float | int) -> Tensor:
    """The determinant of each square matrix in the last two axes. The gradient det * inv(x)^T needs an invertible x; at a singular x it raises (as inv does).

    Args:
        x (Tensor | float | int): Square matrices (..., n, n).

    Returns:
        out (Tensor): The determinants, of shape x.shape[:-2].

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "det", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("det", x)
    _kernel = _k_det.get(x._data.__class__) or dispatch("det", "det", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("det", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.DetGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.det(x, out)
    return out


def slogdet(x: Tensor | float | int) -> tuple[Tensor, Tensor]:
    """The sign and log of the absolute value of the determinant of each square matrix in the last two axes; only logabsdet has a gradient (inv(x)^T, which needs an invertible x).

    Args:
        x (Tensor | float | int): Square matrices (..., n, n).

    Returns:
        A tuple (sign, logabsdet):
        sign (Tensor): -1, 0 or 1, of shape x.shape[:-2].
        logabsdet (Tensor): log|det x| (-inf for a singular matrix), of shape x.shape[:-2].

    Gradient:
        Flows to x. Not differentiable: output sign.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "slogdet", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("slogdet", x)
    _kernel = _k_slogdet.get(x._data.__class__) or dispatch("slogdet", "slogdet", x._data)
    try:
        _results = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("slogdet", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("slogdet", 2, _results) from None
    sign = wrap(_r0)
    logabsdet = wrap(_r1)
    if x._requires_grad and grad_enabled():
        node = _nodes.SlogdetGradNode((x,))
        set_history(logabsdet, node, 1)
        node.x = TensorWrapper.of_edge(x)
    if FORWARD.active:
        _jvp.slogdet(x, sign, logabsdet)
    return (sign, logabsdet)


def solve(
    a: Tensor | float | int,
    b: Tensor | float | int,
) -> Tensor:
    """The solution X of a @ X = b for each square a in the last two axes, with broadcast batch axes; a singular a raises a ValueError naming the batch element.

    Args:
        a (Tensor | float | int): Square matrices (..., n, n).
        b (Tensor | float | int): Right-hand sides (..., n, k); a vector needs unsqueezing to (..., n, 1). Its batch axes broadcast against a's.

    Returns:
        out (Tensor): X, of shape (batch..., n, k).

    Gradient:
        Flows to a, b.
    """
    if not isinstance(a, Tensor):
        a = as_tensor_arg(a, b, "solve", "a")
    if not isinstance(b, Tensor):
        b = as_tensor_arg(b, a, "solve", "b")
    if a._data.dtype is not b._data.dtype or a._data.dtype not in FLOAT_DTYPES:
        a, b = promote_args("solve", True, a, b)
    _kernel = (
        a._data.__class__
        is b._data.__class__
        and _k_solve.get(a._data.__class__)
        or dispatch("solve", "solve", a._data, b._data)
    )
    try:
        _result = _kernel(a._data, b._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("solve", _e) from None
    if (a._requires_grad or b._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.SolveGradNode, _result, a, b)
        node.a = TensorWrapper.of_edge(a)
        node.b = TensorWrapper.of_edge(b)
        node.out = TensorWrapper.of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.solve(a, b, out)
    return out


def cholesky(
    x: Tensor | float | int,
    upper: bool = False,
) -> Tensor:
    """The Cholesky factor of each symmetric positive-definite matrix in the last two axes, of (x + x^T) / 2 (so the gradient is symmetric); a matrix that is not positive definite raises a ValueError naming the batch element.

    Args:
        x (Tensor | float | int): Symmetric positive-definite matrices (..., n, n).
        upper (bool, default False): False gives the lower factor L (x = L L^T), True the upper factor U = L^T (x = U^T U).

    Returns:
        out (Tensor): The triangular factors, of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "cholesky", "x")
    if upper.__class__ is not bool:
        upper = bool_arg(upper, "cholesky", "upper")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("cholesky", x)
    _kernel = _k_cholesky.get(x._data.__class__) or dispatch("cholesky", "cholesky", x._data)
    try:
        _result = _kernel(x._data, upper)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cholesky", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.CholeskyGradNode, _result, x)
        node.out = TensorWrapper.of_output(out, node)
        node.upper = upper
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cholesky(x, upper, out)
    return out


def matrix_power(
    x: Tensor | float | int,
    n: int,
) -> Tensor:
    """Each square matrix in the last two axes to the integer power n (n = 0 gives the identity, n < 0 powers of the inverse).

    Args:
        x (Tensor | float | int): Square matrices (..., m, m); invertible when n < 0.
        n (int): The power, any integer.

    Returns:
        out (Tensor): x @ x @ ... (n factors), of x's shape.

    Gradient:
        Flows to x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "matrix_power", "x")
    if n.__class__ is not int:
        n = int_arg(n, "matrix_power", "n")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("matrix_power", x)
    _kernel = _k_matrix_power.get(x._data.__class__) or dispatch("matrix_power", "matrix_power", x._data)
    try:
        _result = _kernel(x._data, n)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matrix_power", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.MatrixPowerGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.n = n
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.matrix_power(x, n, out)
    return out


def kron(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """The Kronecker product (blocks x[i, j, ...] * y), with the shorter shape padded with leading 1s.

    Args:
        x (Tensor | float | int): The left operand, of any shape.
        y (Tensor | float | int): The right operand, of any shape.

    Returns:
        out (Tensor): A tensor whose shape is the elementwise product of the padded shapes of x and y.

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "kron", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "kron", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("kron", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("kron", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_kron.get(x._data.__class__)
        or dispatch("kron", "kron", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("kron", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.KronGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.kron(x, y, out)
    return out


def triangular_solve(
    x: Tensor | float | int,
    y: Tensor | float | int,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
) -> Tensor:
    """The solution of t @ out = y (t^T @ out = y with transpose) where t is the upper or lower triangle of x, batched with broadcast batch axes; the other triangle is not read.

    Args:
        x (Tensor | float | int): Square matrices (..., n, n) holding the triangle.
        y (Tensor | float | int): Right-hand sides (..., n, k); batch axes broadcast against x's.
        upper (bool, default True): True reads the upper triangle, False the lower.
        transpose (bool, default False): True solves with the triangle's transpose.
        unitriangular (bool, default False): True takes the diagonal as ones (and does not read it).

    Returns:
        out (Tensor): The solutions, of shape (batch..., n, k).

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "triangular_solve", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "triangular_solve", "y")
    if upper.__class__ is not bool:
        upper = bool_arg(upper, "triangular_solve", "upper")
    if transpose.__class__ is not bool:
        transpose = bool_arg(transpose, "triangular_solve", "transpose")
    if unitriangular.__class__ is not bool:
        unitriangular = bool_arg(unitriangular, "triangular_solve", "unitriangular")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("triangular_solve", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_triangular_solve.get(x._data.__class__)
        or dispatch("triangular_solve", "triangular_solve", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data, upper, transpose, unitriangular)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("triangular_solve", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.TriangularSolveGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out = TensorWrapper.of_output(out, node)
        node.upper = upper
        node.transpose = transpose
        node.unitriangular = unitriangular
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.triangular_solve(x, y, upper, transpose, unitriangular, out)
    return out


def cholesky_solve(
    x: Tensor | float | int,
    y: Tensor | float | int,
    upper: bool = False,
) -> Tensor:
    """The solution of A @ out = x given A's Cholesky factor y (A = y y^T, or y^T y with upper), batched with broadcast batch axes; only y's triangle is read.

    Args:
        x (Tensor | float | int): Right-hand sides (..., n, k).
        y (Tensor | float | int): Cholesky factors (..., n, n), lower triangular (upper with upper=True).
        upper (bool, default False): Whether y is the upper factor.

    Returns:
        out (Tensor): The solutions, of shape (batch..., n, k).

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "cholesky_solve", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "cholesky_solve", "y")
    if upper.__class__ is not bool:
        upper = bool_arg(upper, "cholesky_solve", "upper")
    if x._data.dtype is not y._data.dtype or x._data.dtype not in FLOAT_DTYPES:
        x, y = promote_args("cholesky_solve", True, x, y)
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_cholesky_solve.get(x._data.__class__)
        or dispatch("cholesky_solve", "cholesky_solve", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data, upper)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("cholesky_solve", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.CholeskySolveGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
        node.out = TensorWrapper.of_output(out, node)
        node.upper = upper
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.cholesky_solve(x, y, upper, out)
    return out


def bmm(
    x: Tensor | float | int,
    y: Tensor | float | int,
) -> Tensor:
    """The batched matrix product of two 3-D tensors with the same batch size (no broadcasting; matmul broadcasts).

    Args:
        x (Tensor | float | int): A tensor (b, n, m).
        y (Tensor | float | int): A tensor (b, m, p).

    Returns:
        out (Tensor): The products, of shape (b, n, p).

    Gradient:
        Flows to x, y.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, y, "bmm", "x")
    if not isinstance(y, Tensor):
        y = as_tensor_arg(y, x, "bmm", "y")
    if x._data.dtype is not y._data.dtype:
        x, y = promote_args("bmm", False, x, y)
    if x._data.dtype in COMPLEX_DTYPES:
        refuse_complex("bmm", x, arg="x")
    _kernel = (
        x._data.__class__
        is y._data.__class__
        and _k_bmm.get(x._data.__class__)
        or dispatch("bmm", "bmm", x._data, y._data)
    )
    try:
        _result = _kernel(x._data, y._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("bmm", _e) from None
    if (x._requires_grad or y._requires_grad) and grad_enabled() and _result.dtype.kind == "f":
        out, node = recorded(_nodes.BmmGradNode, _result, x, y)
        node.x = TensorWrapper.of_edge(x)
        node.y = TensorWrapper.of_edge(y)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.bmm(x, y, out)
    return out


def eigh(
    x: Tensor | float | int,
    UPLO: str = "L",
) -> tuple[Tensor, Tensor]:
    """The eigenvalues (ascending) and orthonormal eigenvectors (columns) of symmetric matrices, read from one triangle (torch.linalg.eigh, paddle.linalg.eigh).

    Args:
        x (Tensor | float | int): Matrices (..., n, n); only the triangle UPLO names is read (the other is taken as its mirror).
        UPLO (str, default \"L\"): 'L' (the lower triangle) or 'U' (the upper).

    Returns:
        A tuple (eigenvalues, eigenvectors):
        eigenvalues (Tensor): The eigenvalues, (..., n), ascending.
        eigenvectors (Tensor): The eigenvectors as columns, (..., n, n); each is determined up to its sign.

    Gradient:
        Flows to x. V (diag(gL) + F * (V^T gV)) V^T with F[i, j] = 1 / (L[j] - L[i]) off the diagonal, folded onto the triangle read (the entries of the other have no effect, so their gradient is 0). Infinite where eigenvalues repeat: the eigenvectors are not unique there; a loss of the eigenvalues alone stays finite.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "eigh", "x")
    if UPLO.__class__ is not str:
        UPLO = str_arg(UPLO, "eigh", "UPLO")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("eigh", x)
    _kernel = _k_eigh.get(x._data.__class__) or dispatch("eigh", "eigh", x._data)
    try:
        _results = _kernel(x._data, UPLO)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("eigh", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("eigh", 2, _results) from None
    eigenvalues = wrap(_r0)
    eigenvectors = wrap(_r1)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.EighGradNode, eigenvalues, x)
        set_history(eigenvectors, node, 1)
        node.eigenvalues = TensorWrapper.of_output(eigenvalues, node)
        node.eigenvectors = TensorWrapper.of_output(eigenvectors, node)
        node.UPLO = UPLO
    if FORWARD.active:
        _jvp.eigh(x, UPLO, eigenvalues, eigenvectors)
    return (eigenvalues, eigenvectors)


def eigvalsh(
    x: Tensor | float | int,
    UPLO: str = "L",
) -> Tensor:
    """The eigenvalues (ascending) of symmetric matrices, read from one triangle.

    Args:
        x (Tensor | float | int): Matrices (..., n, n); only the triangle UPLO names is read.
        UPLO (str, default \"L\"): 'L' (the lower triangle) or 'U' (the upper).

    Returns:
        out (Tensor): The eigenvalues, (..., n), ascending.

    Gradient:
        Flows to x. V diag(g) V^T folded onto the triangle read; finite also where eigenvalues repeat.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "eigvalsh", "x")
    if UPLO.__class__ is not str:
        UPLO = str_arg(UPLO, "eigvalsh", "UPLO")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("eigvalsh", x)
    _kernel = _k_eigvalsh.get(x._data.__class__) or dispatch("eigvalsh", "eigvalsh", x._data)
    try:
        _result = _kernel(x._data, UPLO)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("eigvalsh", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.EigvalshGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
        node.UPLO = UPLO
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.eigvalsh(x, UPLO, out)
    return out


def svd(
    x: Tensor | float | int,
    full_matrices: bool = False,
) -> tuple[Tensor, Tensor, Tensor]:
    """The singular value decomposition x = u diag(s) vh of each matrix in the last two axes, reduced by default (paddle.linalg.svd's default; torch.linalg.svd with full_matrices=False), or full.

    Args:
        x (Tensor | float | int): Matrices (..., m, n).
        full_matrices (bool, default False): False: the reduced decomposition, k = min(m, n) singular vectors on each side; True: u (..., m, m) and vh (..., n, n), completed to orthonormal bases (by LAPACK, as numpy.linalg.svd and torch.linalg.svd do).

    Returns:
        A tuple (u, s, vh):
        u (Tensor): Left singular vectors as columns, (..., m, k), or (..., m, m) with full_matrices; each pair of singular vectors is determined up to a common sign.
        s (Tensor): The singular values, (..., k), descending.
        vh (Tensor): Right singular vectors as rows, (..., k, n), or (..., n, n) with full_matrices.

    Gradient:
        Flows to x. Townsend's formula for the reduced SVD, rectangular terms included: u (F * (u^T gu - gu^T u) s + diag(gs) + s F * (v^T gv - gv^T v)) vh + (I - u u^T) gu s^-1 vh + u s^-1 gv^T (I - v v^T), F[i, j] = 1 / (s[j]^2 - s[i]^2). With full_matrices it reads only the leading k columns of u and rows of vh and their gradients: the gradients of u[..., :, k:] and vh[..., k:, :] are ignored, as torch.linalg.svd documents (those vectors are not unique). Infinite where singular values repeat or are 0 (the vectors are not unique); a loss of s alone stays finite.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "svd", "x")
    if full_matrices.__class__ is not bool:
        full_matrices = bool_arg(full_matrices, "svd", "full_matrices")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("svd", x)
    _kernel = _k_svd.get(x._data.__class__) or dispatch("svd", "svd", x._data)
    try:
        _results = _kernel(x._data, full_matrices)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("svd", _e) from None
    try:
        _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("svd", 3, _results) from None
    u = wrap(_r0)
    s = wrap(_r1)
    vh = wrap(_r2)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.SvdGradNode, u, x)
        set_history(s, node, 1)
        set_history(vh, node, 2)
        node.u = TensorWrapper.of_output(u, node)
        node.s = TensorWrapper.of_output(s, node)
        node.vh = TensorWrapper.of_output(vh, node)
        node.full_matrices = full_matrices
    if FORWARD.active:
        _jvp.svd(x, full_matrices, u, s, vh)
    return (u, s, vh)


def svdvals(x: Tensor | float | int) -> Tensor:
    """The singular values (descending) of each matrix in the last two axes.

    Args:
        x (Tensor | float | int): Matrices (..., m, n).

    Returns:
        out (Tensor): The singular values, (..., min(m, n)), descending.

    Gradient:
        Flows to x. u diag(g) vh; finite also where singular values repeat.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "svdvals", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("svdvals", x)
    _kernel = _k_svdvals.get(x._data.__class__) or dispatch("svdvals", "svdvals", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("svdvals", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.SvdvalsGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.svdvals(x, out)
    return out


def qr(
    x: Tensor | float | int,
    mode: str = "reduced",
) -> tuple[Tensor, Tensor]:
    """The QR decomposition x = q r of each matrix in the last two axes (q with orthonormal columns, r upper triangular), of any shape, in torch.linalg.qr's three modes.

    Args:
        x (Tensor | float | int): Matrices (..., m, n), tall, square or wide.
        mode (str, default \"reduced\"): 'reduced' (k = min(m, n): q (..., m, k), r (..., k, n)), 'complete' (q (..., m, m), r (..., m, n)) or 'r' (r alone, (..., k, n); q is an empty tensor of shape (0,), as in torch.linalg.qr).

    Returns:
        A tuple (q, r):
        q (Tensor): Orthonormal columns, (..., m, k), or (..., m, m) in mode 'complete'; empty in mode 'r'.
        r (Tensor): Upper triangular (LAPACK's signs), (..., k, n), or (..., m, n) in mode 'complete'.

    Gradient:
        Flows to x. For square and tall x, (gq + q copyltu(M)) r^-T with M = r gr^T - gq^T q and copyltu(M) the symmetric matrix with M's lower triangle (Liao et al., 2019). For wide x = [X | Y] (X the leading m x m block, r = [U | V]): that formula for X = q U with gq + Y gV^T in place of gq, and q gV for Y. Needs an invertible leading block (x[..., :, :k] of full rank). Refused in backward, as torch.linalg.qr does, for mode 'r' (q is not computed) and for mode 'complete' with m > n (the completing columns of q are not unique).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "qr", "x")
    if mode.__class__ is not str:
        mode = str_arg(mode, "qr", "mode")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("qr", x)
    _kernel = _k_qr.get(x._data.__class__) or dispatch("qr", "qr", x._data)
    try:
        _results = _kernel(x._data, mode)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("qr", _e) from None
    try:
        _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
    except ValueError:
        raise kernel_results_error("qr", 2, _results) from None
    q = wrap(_r0)
    r = wrap(_r1)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.QrGradNode, q, x)
        set_history(r, node, 1)
        node.q = TensorWrapper.of_output(q, node)
        node.r = TensorWrapper.of_output(r, node)
        node.mode = mode
    if FORWARD.active:
        _jvp.qr(x, mode, q, r)
    return (q, r)


def matrix_exp(x: Tensor | float | int) -> Tensor:
    """The matrix exponential of each square matrix in the last two axes (scaling and squaring with a degree-13 Pade approximant).

    Args:
        x (Tensor | float | int): Square matrices (..., n, n).

    Returns:
        out (Tensor): exp(x), of x's shape.

    Gradient:
        Flows to x. The upper-right block of matrix_exp([[x^T, g], [0, x^T]]) (the block-triangular identity), itself differentiable.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "matrix_exp", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("matrix_exp", x)
    _kernel = _k_matrix_exp.get(x._data.__class__) or dispatch("matrix_exp", "matrix_exp", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("matrix_exp", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.MatrixExpGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.matrix_exp(x, out)
    return out


def conj(x: Tensor | float | int) -> Tensor:
    """The complex conjugate, elementwise (a copy for a complex tensor; a real tensor is returned as it is, as a view).

    Args:
        x (Tensor | float | int): The input tensor, real or complex.

    Returns:
        out (Tensor): x with its imaginary part negated, of x's shape and dtype.

    Gradient:
        Flows to x. conj(g).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "conj", "x")
    _kernel = _k_conj.get(x._data.__class__) or dispatch("conj", "conj", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("conj", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        new_node_of(_nodes.ConjGradNode, out, x)
    if FORWARD.active:
        _jvp.conj(x, out)
    return out


def real(x: Tensor | float | int) -> Tensor:
    """The real part of a complex tensor, a view of it (a real tensor is returned as it is, as a view).

    Args:
        x (Tensor | float | int): The input tensor, real or complex.

    Returns:
        out (Tensor): A real tensor of x's shape (float32 for complex64, float64 for complex128).

    Gradient:
        Flows to x. g as a complex tensor with imaginary part 0.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "real", "x")
    _kernel = _k_real.get(x._data.__class__) or dispatch("real", "real", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("real", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.RealGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
    if FORWARD.active:
        _jvp.real(x, out)
    return out


def imag(x: Tensor | float | int) -> Tensor:
    """The imaginary part of a complex tensor, a view of it (a real tensor is refused, as in PyTorch).

    Args:
        x (Tensor | float | int): A complex tensor.

    Returns:
        out (Tensor): A real tensor of x's shape (float32 for complex64, float64 for complex128).

    Gradient:
        Flows to x. 1j * g.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "imag", "x")
    _kernel = _k_imag.get(x._data.__class__) or dispatch("imag", "imag", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("imag", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        node = new_node_of(_nodes.ImagGradNode, out, x)
        node.x = TensorWrapper.meta_of(x)
    if FORWARD.active:
        _jvp.imag(x, out)
    return out


def complex(
    real: Tensor | float | int,
    imag: Tensor | float | int,
) -> Tensor:
    """The complex tensor real + 1j * imag (torch.complex): broadcast, floating inputs of one dtype.

    Args:
        real (Tensor | float | int): The real parts, a float32 or float64 tensor.
        imag (Tensor | float | int): The imaginary parts, of real's dtype; broadcasts against real.

    Returns:
        out (Tensor): complex64 for float32 parts, complex128 for float64.

    Gradient:
        Flows to real, imag. The real part of g to real and its imaginary part to imag (summed over broadcast axes).
    """
    if not isinstance(real, Tensor):
        real = as_tensor_arg(real, imag, "complex", "real")
    if not isinstance(imag, Tensor):
        imag = as_tensor_arg(imag, real, "complex", "imag")
    if real._data.dtype is not imag._data.dtype:
        real, imag = promote_args("complex", False, real, imag)
    _kernel = (
        real._data.__class__
        is imag._data.__class__
        and _k_complex.get(real._data.__class__)
        or dispatch("complex", "complex", real._data, imag._data)
    )
    try:
        _result = _kernel(real._data, imag._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("complex", _e) from None
    if (real._requires_grad or imag._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.ComplexGradNode, _result, real, imag)
        node.real = TensorWrapper.of_edge(real)
        node.imag = TensorWrapper.of_edge(imag)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.complex(real, imag, out)
    return out


def polar(
    abs: Tensor | float | int,
    angle: Tensor | float | int,
) -> Tensor:
    """The complex tensor abs * (cos(angle) + 1j * sin(angle)) (torch.polar): broadcast, floating inputs of one dtype.

    Args:
        abs (Tensor | float | int): The magnitudes, a float32 or float64 tensor.
        angle (Tensor | float | int): The angles in radians, of abs's dtype; broadcasts against abs.

    Returns:
        out (Tensor): complex64 for float32 inputs, complex128 for float64.

    Gradient:
        Flows to abs, angle. Re(g e^(-i angle)) to abs and abs Im(g e^(-i angle)) to angle.
    """
    if not isinstance(abs, Tensor):
        abs = as_tensor_arg(abs, angle, "polar", "abs")
    if not isinstance(angle, Tensor):
        angle = as_tensor_arg(angle, abs, "polar", "angle")
    if abs._data.dtype is not angle._data.dtype:
        abs, angle = promote_args("polar", False, abs, angle)
    _kernel = (
        abs._data.__class__
        is angle._data.__class__
        and _k_polar.get(abs._data.__class__)
        or dispatch("polar", "polar", abs._data, angle._data)
    )
    try:
        _result = _kernel(abs._data, angle._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("polar", _e) from None
    if (abs._requires_grad or angle._requires_grad) and grad_enabled() and _result.dtype.kind in "fc":
        out, node = recorded(_nodes.PolarGradNode, _result, abs, angle)
        node.abs = TensorWrapper.of_edge(abs)
        node.angle = TensorWrapper.of_edge(angle)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.polar(abs, angle, out)
    return out


def angle(x: Tensor | float | int) -> Tensor:
    """The argument (phase) of each element in (-pi, pi], as a real tensor; a real x gives 0 or pi.

    Args:
        x (Tensor | float | int): The input tensor, real or complex.

    Returns:
        out (Tensor): A real tensor of x's shape (float32 for complex64, float64 for complex128).

    Gradient:
        Flows to x. For complex x, 1j g / conj(x) (infinite at 0, where the angle is not defined); 0 for real x.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "angle", "x")
    if x._data.dtype not in FLOAT_DTYPES:
        x = promote_float("angle", x)
    _kernel = _k_angle.get(x._data.__class__) or dispatch("angle", "angle", x._data)
    try:
        _result = _kernel(x._data)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("angle", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.AngleGradNode, _result, x)
        node.x = TensorWrapper.of_edge(x)
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.angle(x, out)
    return out


def view_as_real(x: Tensor | float | int) -> Tensor:
    """A complex tensor's memory seen as a real tensor with a last axis of 2 (real, imaginary).

    Args:
        x (Tensor | float | int): A complex tensor.

    Returns:
        out (Tensor): A view of x, of shape x.shape + (2,), float32 for complex64 and float64 for complex128.

    Gradient:
        Flows to x. view_as_complex(g).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "view_as_real", "x")
    _kernel = _k_view_as_real.get(x._data.__class__) or dispatch("view_as_real", "view_as_real", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("view_as_real", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        new_node_of(_nodes.ViewAsRealGradNode, out, x)
    if FORWARD.active:
        _jvp.view_as_real(x, out)
    return out


def view_as_complex(x: Tensor | float | int) -> Tensor:
    """A real tensor with a last axis of 2 seen as a complex tensor (a view; the last axis must be contiguous).

    Args:
        x (Tensor | float | int): A float32 or float64 tensor of shape (..., 2) whose last axis is contiguous.

    Returns:
        out (Tensor): A view of x of shape x.shape[:-1], complex64 for float32 and complex128 for float64.

    Gradient:
        Flows to x. view_as_real(g).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "view_as_complex", "x")
    _kernel = _k_view_as_complex.get(x._data.__class__) or dispatch("view_as_complex", "view_as_complex", x._data)
    try:
        out = wrap(_kernel(x._data))
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("view_as_complex", _e) from None
    mark_view(out, x)
    if x._requires_grad and grad_enabled():
        new_node_of(_nodes.ViewAsComplexGradNode, out, x)
    if FORWARD.active:
        _jvp.view_as_complex(x, out)
    return out


def fftn(
    x: Tensor | float | int,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """The n-dimensional discrete Fourier transform over axes (numpy.fft.fftn); real input is transformed as complex.

    Args:
        x (Tensor | float | int): A real or complex tensor (float16 is refused).
        s (int | Sequence[int] | None, default None): The transform's length along each axis (x is cropped or zero-padded first), or None for x's lengths.
        axes (int | Sequence[int] | None, default None): The axes to transform; None means every axis (or the last len(s) axes when s is given).
        norm (str, default \"backward\"): 'backward' (no scaling; the default), 'ortho' (1/sqrt(n)) or 'forward' (1/n).

    Returns:
        out (Tensor): A complex tensor (complex64 for float32 or complex64 input, else complex128).

    Gradient:
        Flows to x. The adjoint transform, ifftn with the dual norm, cropped or padded back to x's shape (the real part for real x).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "fftn", "x")
    if s.__class__ is not tuple and s.__class__ is not int and s is not None:
        s = int_list_arg(s, "fftn", "s")
    if axes.__class__ is not tuple and axes.__class__ is not int and axes is not None:
        axes = int_list_arg(axes, "fftn", "axes")
    if norm.__class__ is not str:
        norm = str_arg(norm, "fftn", "norm")
    _kernel = _k_fftn.get(x._data.__class__) or dispatch("fftn", "fftn", x._data)
    try:
        _result = _kernel(x._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("fftn", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.FftnGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.fftn(x, s, axes, norm, out)
    return out


def ifftn(
    x: Tensor | float | int,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """The n-dimensional inverse discrete Fourier transform over axes (numpy.fft.ifftn).

    Args:
        x (Tensor | float | int): A real or complex tensor (float16 is refused).
        s (int | Sequence[int] | None, default None): The transform's length along each axis (x is cropped or zero-padded first), or None for x's lengths.
        axes (int | Sequence[int] | None, default None): The axes to transform; None means every axis (or the last len(s) axes when s is given).
        norm (str, default \"backward\"): 'backward' (1/n; the default), 'ortho' (1/sqrt(n)) or 'forward' (no scaling).

    Returns:
        out (Tensor): A complex tensor (complex64 for float32 or complex64 input, else complex128).

    Gradient:
        Flows to x. The adjoint transform, fftn with the dual norm, cropped or padded back to x's shape (the real part for real x).
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "ifftn", "x")
    if s.__class__ is not tuple and s.__class__ is not int and s is not None:
        s = int_list_arg(s, "ifftn", "s")
    if axes.__class__ is not tuple and axes.__class__ is not int and axes is not None:
        axes = int_list_arg(axes, "ifftn", "axes")
    if norm.__class__ is not str:
        norm = str_arg(norm, "ifftn", "norm")
    _kernel = _k_ifftn.get(x._data.__class__) or dispatch("ifftn", "ifftn", x._data)
    try:
        _result = _kernel(x._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("ifftn", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.IfftnGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.ifftn(x, s, axes, norm, out)
    return out


def rfftn(
    x: Tensor | float | int,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """The n-dimensional discrete Fourier transform of a real tensor, keeping the n // 2 + 1 non-negative frequencies of the last axis (numpy.fft.rfftn).

    Args:
        x (Tensor | float | int): A real tensor (float32 or float64).
        s (int | Sequence[int] | None, default None): The transform's length along each axis (x is cropped or zero-padded first), or None for x's lengths.
        axes (int | Sequence[int] | None, default None): The axes to transform, the half-spectrum one last; None means every axis (or the last len(s)).
        norm (str, default \"backward\"): 'backward' (no scaling; the default), 'ortho' (1/sqrt(n)) or 'forward' (1/n).

    Returns:
        out (Tensor): A complex tensor whose last transformed axis has n // 2 + 1 entries.

    Gradient:
        Flows to x. The real part of the adjoint full transform of g zero-filled to the full spectrum, cropped or padded back to x's shape.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "rfftn", "x")
    if s.__class__ is not tuple and s.__class__ is not int and s is not None:
        s = int_list_arg(s, "rfftn", "s")
    if axes.__class__ is not tuple and axes.__class__ is not int and axes is not None:
        axes = int_list_arg(axes, "rfftn", "axes")
    if norm.__class__ is not str:
        norm = str_arg(norm, "rfftn", "norm")
    _kernel = _k_rfftn.get(x._data.__class__) or dispatch("rfftn", "rfftn", x._data)
    try:
        _result = _kernel(x._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("rfftn", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.RfftnGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.rfftn(x, s, axes, norm, out)
    return out


def irfftn(
    x: Tensor | float | int,
    s: Sequence[int] | int | None = None,
    axes: Sequence[int] | int | None = None,
    norm: str = "backward",
) -> Tensor:
    """The inverse of rfftn, a real tensor from the half spectrum of its last axis (numpy.fft.irfftn; imaginary parts that a real signal cannot have are ignored).

    Args:
        x (Tensor | float | int): A complex (or real) half spectrum.
        s (int | Sequence[int] | None, default None): The output's length along each axis (default 2 * (m - 1) for the last axis of m entries), or None.
        axes (int | Sequence[int] | None, default None): The axes to transform, the half-spectrum one last; None means every axis (or the last len(s)).
        norm (str, default \"backward\"): 'backward' (1/n; the default), 'ortho' (1/sqrt(n)) or 'forward' (no scaling).

    Returns:
        out (Tensor): A real tensor (float32 for complex64 input, else float64).

    Gradient:
        Flows to x. rfftn of g with the dual norm, the bins that stand for two frequencies (all but 0 and n/2) doubled; the known special case of irfft's gradient.
    """
    if not isinstance(x, Tensor):
        x = as_tensor_arg(x, None, "irfftn", "x")
    if s.__class__ is not tuple and s.__class__ is not int and s is not None:
        s = int_list_arg(s, "irfftn", "s")
    if axes.__class__ is not tuple and axes.__class__ is not int and axes is not None:
        axes = int_list_arg(axes, "irfftn", "axes")
    if norm.__class__ is not str:
        norm = str_arg(norm, "irfftn", "norm")
    _kernel = _k_irfftn.get(x._data.__class__) or dispatch("irfftn", "irfftn", x._data)
    try:
        _result = _kernel(x._data, s, axes, norm)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e:
        raise kernel_error("irfftn", _e) from None
    if x._requires_grad and grad_enabled():
        out, node = recorded(_nodes.IrfftnGradNode, _result, x)
        node.x = TensorWrapper.meta_of(x)
        node.s = s
        node.axes = axes
        node.norm = norm
    else:
        out = wrap(_result)
    if FORWARD.active:
        _jvp.irfftn(x, s, axes, norm, out)
    return out


# The ops whose body has the one plain shape of codegen/plan_fast.py: (name, kernel table,
# node class, recorded's inputs, saves (slot, how, input or -1: the output), dtype test,
# jvp). With the optional C primitives built, `_accel.ops` replaces each by a C callable
# that runs that body's common case and calls this function for everything else.
_accel.ops(
    globals(),
    [
        ("neg", "_k_neg", "NegGradNode", (0,), (), "", True, (False,)),
        ("abs", "_k_abs", "AbsGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("sign", "_k_sign", "SignGradNode", (0,), (("x", "meta_of", 0),), "", True, (False,)),
        ("exp", "_k_exp", "ExpGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("expm1", "_k_expm1", "Expm1GradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("log", "_k_log", "LogGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("log1p", "_k_log1p", "Log1pGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("sqrt", "_k_sqrt", "SqrtGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("rsqrt", "_k_rsqrt", "RsqrtGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("square", "_k_square", "SquareGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("reciprocal", "_k_reciprocal", "ReciprocalGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("sin", "_k_sin", "SinGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("cos", "_k_cos", "CosGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("tanh", "_k_tanh", "TanhGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("sigmoid", "_k_sigmoid", "SigmoidGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("relu", "_k_relu", "ReluGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("silu", "_k_silu", "SiluGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("erf", "_k_erf", "ErfGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("hardswish", "_k_hardswish", "HardswishGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("hardsigmoid", "_k_hardsigmoid", "HardsigmoidGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("mish", "_k_mish", "MishGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("log_sigmoid", "_k_log_sigmoid", "LogSigmoidGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("swish", "_k_silu", "SwishGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("softsign", "_k_softsign", "SoftsignGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("tanhshrink", "_k_tanhshrink", "TanhshrinkGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("add", "_k_add", "AddGradNode", (0, 1), (("x", "meta_of", 0), ("y", "meta_of", 1)), "fc", True, (True, True)),
        ("subtract", "_k_subtract", "SubtractGradNode", (0, 1), (("x", "meta_of", 0), ("y", "meta_of", 1)), "fc", True, (True, True)),
        ("multiply", "_k_multiply", "MultiplyGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "fc", True, (True, True)),
        ("divide", "_k_divide", "DivideGradNode", (0, 1), (("x", "meta_of", 0), ("y", "of_edge", 1), ("out", "of_output", -1)), "fc", True, (True, True)),
        ("maximum", "_k_maximum", "MaximumGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("minimum", "_k_minimum", "MinimumGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("elementwise_pow", "_k_elementwise_pow", "ElementwisePowGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "fc", True, (True, True)),
        ("tan", "_k_tan", "TanGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("asin", "_k_asin", "AsinGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("acos", "_k_acos", "AcosGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("atan", "_k_atan", "AtanGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("sinh", "_k_sinh", "SinhGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("cosh", "_k_cosh", "CoshGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("asinh", "_k_asinh", "AsinhGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("acosh", "_k_acosh", "AcoshGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("atanh", "_k_atanh", "AtanhGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("log2", "_k_log2", "Log2GradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("log10", "_k_log10", "Log10GradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("exp2", "_k_exp2", "Exp2GradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("deg2rad", "_k_deg2rad", "Deg2radGradNode", (0,), (), "", True, (False,)),
        ("rad2deg", "_k_rad2deg", "Rad2degGradNode", (0,), (), "", True, (False,)),
        ("logit", "_k_logit", "LogitGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("frac", "_k_frac", "FracGradNode", (0,), (), "", True, (False,)),
        ("floor", "_k_floor", "FloorGradNode", (0,), (), "", True, (False,)),
        ("ceil", "_k_ceil", "CeilGradNode", (0,), (), "", True, (False,)),
        ("trunc", "_k_trunc", "TruncGradNode", (0,), (), "", True, (False,)),
        ("atan2", "_k_atan2", "Atan2GradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("logaddexp", "_k_logaddexp", "LogaddexpGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1), ("out", "of_output", -1)), "f", True, (True, True)),
        ("logaddexp2", "_k_logaddexp2", "Logaddexp2GradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1), ("out", "of_output", -1)), "f", True, (True, True)),
        ("xlogy", "_k_xlogy", "XlogyGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("fmod", "_k_fmod", "FmodGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("copysign", "_k_copysign", "CopysignGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1), ("out", "of_output", -1)), "f", True, (True, True)),
        ("gather_nd", "_k_gather_nd", "GatherNdGradNode", (0, -1), (("x", "of_edge", 0), ("index", "of_input", 1)), "f", True, (True, True)),
        ("embedding", "_k_embedding", "EmbeddingGradNode", (-1, 1), (("x", "of_input", 0), ("weight", "meta_of", 1)), "f", True, (True, True)),
        ("prelu", "_k_prelu", "PreluGradNode", (0, 1), (("x", "of_edge", 0), ("weight", "of_edge", 1)), "f", True, (True, True)),
        ("zero", "_k_zero", "ZeroGradNode", (0,), (("x", "meta_of", 0),), "", True, (False,)),
        ("reduce_as", "_k_reduce_as", "ReduceAsGradNode", (0, -1), (("x", "meta_of", 0),), "fc", True, (True, True)),
        ("remainder", "_k_remainder", "RemainderGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("matrix_transpose", "_k_matrix_transpose", "MatrixTransposeGradNode", (0,), (), "", True, (False,)),
        ("trace", "_k_trace", "TraceGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("outer", "_k_outer", "OuterGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("inv", "_k_inv", "InvGradNode", (0,), (("out", "of_output", -1),), "", True, (False,)),
        ("det", "_k_det", "DetGradNode", (0,), (("x", "of_edge", 0), ("out", "of_output", -1)), "", True, (False,)),
        ("solve", "_k_solve", "SolveGradNode", (0, 1), (("a", "of_edge", 0), ("b", "of_edge", 1), ("out", "of_output", -1)), "f", True, (True, True)),
        ("kron", "_k_kron", "KronGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("bmm", "_k_bmm", "BmmGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1)), "f", True, (True, True)),
        ("svdvals", "_k_svdvals", "SvdvalsGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("matrix_exp", "_k_matrix_exp", "MatrixExpGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
        ("complex", "_k_complex", "ComplexGradNode", (0, 1), (("real", "of_edge", 0), ("imag", "of_edge", 1)), "fc", True, (True, True)),
        ("polar", "_k_polar", "PolarGradNode", (0, 1), (("abs", "of_edge", 0), ("angle", "of_edge", 1)), "fc", True, (True, True)),
        ("angle", "_k_angle", "AngleGradNode", (0,), (("x", "of_edge", 0),), "", True, (False,)),
    ],
    [
        ("gelu", "_k_gelu", "GeluGradNode", (0,), (("x", "of_edge", 0), ("approximate", "value", 1)), "", True, (False,), 1, "b"),
        ("pow", "_k_pow", "PowGradNode", (0,), (("x", "of_edge", 0), ("y", "value", 1)), "", True, (False,), 1),
        ("matmul", "_k_matmul", "MatmulGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1), ("transpose_x", "value", 2), ("transpose_y", "value", 3)), "fc", True, (True, True), 2, "bb"),
        ("masked_fill", "_k_masked_fill", "MaskedFillGradNode", (0, -1), (("mask", "of_input", 1), ("value", "value", 2)), "f", True, (True, True), 1),
        ("fill", "_k_fill", "FillGradNode", (0,), (("x", "meta_of", 0), ("value", "value", 1)), "", True, (False,), 1),
        ("cholesky", "_k_cholesky", "CholeskyGradNode", (0,), (("out", "of_output", -1), ("upper", "value", 1)), "", True, (False,), 1, "b"),
        ("cholesky_solve", "_k_cholesky_solve", "CholeskySolveGradNode", (0, 1), (("x", "of_edge", 0), ("y", "of_edge", 1), ("out", "of_output", -1), ("upper", "value", 2)), "f", True, (True, True), 1, "b"),
    ],
    [
        ("exp_", "_k_exp"),
        ("tanh_", "_k_tanh"),
        ("add_", "_k_add"),
        ("subtract_", "_k_subtract"),
        ("multiply_", "_k_multiply"),
        ("divide_", "_k_divide"),
        ("zero_", "_k_zero"),
    ],
)
