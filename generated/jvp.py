# @generated jvp from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Forward-mode rules: one function per op and differentiable grad op, called by its forward function while
a dual level is open (`jvp:` in ops.yaml, else derived from the backward).
"""

from __future__ import annotations

from opgrad.generated import grad_ops as _grad_ops
from opgrad.generated import ops as _ops
from opgrad.runtime.dual import (
    FORWARD,
    KERNEL_TANGENT,
    derive,
    no_tangent_rule,
    pause_rules,
    plain_tangent,
    resume_rules,
    set_tangent,
    tangent_of,
    tangents,
)
from opgrad.runtime.kernels.registry import (
    dispatch,
    kernel_error,
    kernel_table,
)
from opgrad.runtime.promotion import conj_if_complex

# Kernels called with one array: {array type -> kernel}, filled by dispatch (kernel_table).
_k_abs_grad = kernel_table("abs_grad")
_k_celu_grad = kernel_table("celu_grad")
_k_clip_grad = kernel_table("clip_grad")
_k_dropout_grad = kernel_table("dropout_grad")
_k_elu_grad = kernel_table("elu_grad")
_k_erf_grad = kernel_table("erf_grad")
_k_expm1_grad = kernel_table("expm1_grad")
_k_gelu_grad = kernel_table("gelu_grad")
_k_hardsigmoid_grad = kernel_table("hardsigmoid_grad")
_k_hardswish_grad = kernel_table("hardswish_grad")
_k_hardtanh_grad = kernel_table("hardtanh_grad")
_k_leaky_relu_grad = kernel_table("leaky_relu_grad")
_k_log1p_grad = kernel_table("log1p_grad")
_k_log_grad = kernel_table("log_grad")
_k_log_sigmoid_grad = kernel_table("log_sigmoid_grad")
_k_mish_grad = kernel_table("mish_grad")
_k_pow_grad = kernel_table("pow_grad")
_k_reciprocal_grad = kernel_table("reciprocal_grad")
_k_relu_grad = kernel_table("relu_grad")
_k_rsqrt_grad = kernel_table("rsqrt_grad")
_k_selu_grad = kernel_table("selu_grad")
_k_sigmoid_grad = kernel_table("sigmoid_grad")
_k_silu_grad = kernel_table("silu_grad")
_k_softplus_grad = kernel_table("softplus_grad")
_k_softsign_grad = kernel_table("softsign_grad")
_k_sqrt_grad = kernel_table("sqrt_grad")
_k_tanh_grad = kernel_table("tanh_grad")
_k_tanhshrink_grad = kernel_table("tanhshrink_grad")

__all__ = [
    "abs",
    "abs_grad",
    "acos",
    "acosh",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool2d_grad",
    "add",
    "add_grad",
    "addcdiv",
    "addcmul",
    "angle",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "avg_pool2d",
    "avg_pool2d_grad",
    "batch_norm",
    "batch_norm_grad",
    "binary_cross_entropy_with_logits",
    "binary_cross_entropy_with_logits_grad",
    "bmm",
    "cast",
    "cast_grad",
    "ceil",
    "celu",
    "celu_grad",
    "cholesky",
    "cholesky_solve",
    "clip",
    "clip_grad",
    "complex",
    "concat",
    "concat_grad",
    "conj",
    "conv1d",
    "conv2d",
    "conv2d_grad",
    "conv3d",
    "conv3d_grad",
    "conv_transpose1d",
    "conv_transpose2d",
    "copysign",
    "cos",
    "cos_grad",
    "cosh",
    "cross",
    "cross_entropy",
    "cross_entropy_double_grad",
    "cross_entropy_grad",
    "cummax",
    "cummin",
    "cumprod",
    "cumprod_double_grad",
    "cumprod_grad",
    "cumsum",
    "cumsum_grad",
    "deg2rad",
    "det",
    "diag_embed",
    "diagonal",
    "diagonal_grad",
    "divide",
    "divide_grad",
    "dropout",
    "dropout_grad",
    "eigh",
    "eigvalsh",
    "einsum",
    "einsum_grad",
    "elementwise_pow",
    "elementwise_pow_grad",
    "elu",
    "elu_grad",
    "embedding",
    "embedding_grad",
    "erf",
    "erf_grad",
    "exp",
    "exp2",
    "exp_grad",
    "expand",
    "expand_grad",
    "expm1",
    "expm1_grad",
    "fftn",
    "fftn_grad",
    "fill",
    "fill_grad",
    "flatten",
    "flatten_grad",
    "flip",
    "flip_grad",
    "floor",
    "fmod",
    "fold",
    "frac",
    "gather",
    "gather_grad",
    "gather_nd",
    "gelu",
    "gelu_grad",
    "glu",
    "glu_grad",
    "group_norm",
    "group_norm_grad",
    "hardsigmoid",
    "hardsigmoid_grad",
    "hardswish",
    "hardswish_grad",
    "hardtanh",
    "hardtanh_grad",
    "ifftn",
    "ifftn_grad",
    "imag",
    "imag_grad",
    "index",
    "index_add",
    "index_add_grad",
    "index_put",
    "index_select",
    "index_select_grad",
    "inv",
    "irfftn",
    "irfftn_grad",
    "kl_div",
    "kl_div_grad",
    "kron",
    "kron_grad",
    "l1_loss",
    "l1_loss_grad",
    "layer_norm",
    "layer_norm_grad",
    "leaky_relu",
    "leaky_relu_grad",
    "lerp",
    "linear",
    "linear_grad",
    "log",
    "log10",
    "log1p",
    "log1p_grad",
    "log2",
    "log_grad",
    "log_sigmoid",
    "log_sigmoid_grad",
    "log_softmax",
    "log_softmax_grad",
    "logaddexp",
    "logaddexp2",
    "logcumsumexp",
    "logit",
    "logsumexp",
    "logsumexp_grad",
    "lstm_cell",
    "masked_fill",
    "masked_fill_grad",
    "matmul",
    "matmul_grad",
    "matmul_jvp",
    "matmul_xg",
    "matmul_yg",
    "matrix_exp",
    "matrix_power",
    "matrix_transpose",
    "max",
    "max_grad",
    "max_pool2d",
    "max_pool2d_double_grad",
    "max_pool2d_grad",
    "maximum",
    "maximum_grad",
    "mean",
    "mean_grad",
    "min",
    "min_grad",
    "minimum",
    "minimum_grad",
    "mish",
    "mish_grad",
    "mse_loss",
    "mse_loss_grad",
    "multiply",
    "multiply_grad",
    "nan_to_num",
    "nansum",
    "narrow_as",
    "neg",
    "neg_grad",
    "nll_loss",
    "nll_loss_grad",
    "norm",
    "norm_grad",
    "outer",
    "pad",
    "pad_as",
    "pad_grad",
    "pixel_shuffle",
    "pixel_unshuffle",
    "polar",
    "pow",
    "pow_grad",
    "prelu",
    "prelu_grad",
    "prod",
    "prod_double_grad",
    "prod_grad",
    "qr",
    "qr_square_block",
    "rad2deg",
    "real",
    "real_grad",
    "reciprocal",
    "reciprocal_grad",
    "reduce_as",
    "reduce_as_grad",
    "relu",
    "relu_grad",
    "remainder",
    "repeat_interleave",
    "repeat_interleave_grad",
    "reshape",
    "reshape_grad",
    "rfftn",
    "rfftn_grad",
    "roll",
    "roll_grad",
    "round",
    "rsqrt",
    "rsqrt_grad",
    "scale",
    "scale_grad",
    "scaled_dot_product_attention",
    "scaled_dot_product_attention_grad",
    "scatter",
    "scatter_grad",
    "scatter_nd",
    "scatter_nd_add",
    "selu",
    "selu_grad",
    "sigmoid",
    "sigmoid_grad",
    "sign",
    "sign_grad",
    "silu",
    "silu_grad",
    "sin",
    "sin_grad",
    "sinh",
    "slogdet",
    "smooth_l1_loss",
    "smooth_l1_loss_grad",
    "softmax",
    "softmax_grad",
    "softmax_vjp",
    "softmax_vjp_dp",
    "softplus",
    "softplus_grad",
    "softsign",
    "softsign_grad",
    "solve",
    "sort",
    "sort_grad",
    "split",
    "split_grad",
    "sqrt",
    "sqrt_grad",
    "square",
    "square_grad",
    "squeeze",
    "squeeze_grad",
    "stack",
    "stack_grad",
    "std",
    "std_grad",
    "subtract",
    "subtract_grad",
    "sum",
    "sum_grad",
    "svd",
    "svdvals",
    "swish",
    "swish_grad",
    "take_along_axis",
    "take_along_axis_grad",
    "tan",
    "tanh",
    "tanh_grad",
    "tanhshrink",
    "tanhshrink_grad",
    "tile",
    "tile_grad",
    "topk",
    "topk_grad",
    "trace",
    "transpose",
    "transpose_grad",
    "triangular_solve",
    "tril",
    "tril_grad",
    "triu",
    "triu_grad",
    "trunc",
    "unfold",
    "unfold_grad",
    "unsqueeze",
    "unsqueeze_grad",
    "var",
    "var_grad",
    "view_as_complex",
    "view_as_real",
    "where",
    "where_grad",
    "xlogy",
    "zero",
    "zero_grad",
]


def neg(
    x,
    out,
) -> None:
    """Tangents of neg (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = -x_t
    finally:
        resume_rules()
    set_tangent(out, out_t)


def abs(
    x,
    out,
) -> None:
    """Tangents of abs (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad and x._data.dtype.kind != "c":
        # nothing to record: abs_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_abs_grad.get(x._data.__class__)
            or dispatch("abs_grad", "abs_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("abs_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.real(conj_if_complex(x_t) * x) / _ops.abs(x) if x._data.dtype.kind == "c" else _grad_ops.abs_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def sign(
    x,
    out,
) -> None:
    """Tangents of sign, derived from its backward (double-vjp)."""
    derive(_ops.sign, (x,), (out,))


def exp(
    x,
    out,
) -> None:
    """Tangents of exp (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * out
    finally:
        resume_rules()
    set_tangent(out, out_t)


def expm1(
    x,
    out,
) -> None:
    """Tangents of expm1 (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not out._requires_grad:
        # nothing to record: expm1_grad's kernel, as its grad op would call it
        _kernel = (
            out._data.__class__
            is _tangent.__class__
            and _k_expm1_grad.get(out._data.__class__)
            or dispatch("expm1_grad", "expm1_grad", out._data, _tangent)
        )
        try:
            out_t = _kernel(out._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("expm1_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.expm1_grad(out, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def log(
    x,
    out,
) -> None:
    """Tangents of log (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad and x._data.dtype.kind != "c":
        # nothing to record: log_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_log_grad.get(x._data.__class__)
            or dispatch("log_grad", "log_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("log_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t / x if x._data.dtype.kind == "c" else _grad_ops.log_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def log1p(
    x,
    out,
) -> None:
    """Tangents of log1p (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: log1p_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_log1p_grad.get(x._data.__class__)
            or dispatch("log1p_grad", "log1p_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("log1p_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.log1p_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def sqrt(
    x,
    out,
) -> None:
    """Tangents of sqrt (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not out._requires_grad and out._data.dtype.kind != "c":
        # nothing to record: sqrt_grad's kernel, as its grad op would call it
        _kernel = (
            out._data.__class__
            is _tangent.__class__
            and _k_sqrt_grad.get(out._data.__class__)
            or dispatch("sqrt_grad", "sqrt_grad", out._data, _tangent)
        )
        try:
            out_t = _kernel(out._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sqrt_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = 0.5 * x_t / out if out._data.dtype.kind == "c" else _grad_ops.sqrt_grad(out, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def rsqrt(
    x,
    out,
) -> None:
    """Tangents of rsqrt (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not out._requires_grad:
        # nothing to record: rsqrt_grad's kernel, as its grad op would call it
        _kernel = (
            out._data.__class__
            is _tangent.__class__
            and _k_rsqrt_grad.get(out._data.__class__)
            or dispatch("rsqrt_grad", "rsqrt_grad", out._data, _tangent)
        )
        try:
            out_t = _kernel(out._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("rsqrt_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.rsqrt_grad(out, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def square(
    x,
    out,
) -> None:
    """Tangents of square (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = 2 * x * x_t
    finally:
        resume_rules()
    set_tangent(out, out_t)


def reciprocal(
    x,
    out,
) -> None:
    """Tangents of reciprocal (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not out._requires_grad and out._data.dtype.kind != "c":
        # nothing to record: reciprocal_grad's kernel, as its grad op would call it
        _kernel = (
            out._data.__class__
            is _tangent.__class__
            and _k_reciprocal_grad.get(out._data.__class__)
            or dispatch("reciprocal_grad", "reciprocal_grad", out._data, _tangent)
        )
        try:
            out_t = _kernel(out._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("reciprocal_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = -x_t * out * out if out._data.dtype.kind == "c" else _grad_ops.reciprocal_grad(out, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def sin(
    x,
    out,
) -> None:
    """Tangents of sin (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * _ops.cos(x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def cos(
    x,
    out,
) -> None:
    """Tangents of cos (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = -x_t * _ops.sin(x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def tanh(
    x,
    out,
) -> None:
    """Tangents of tanh (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not out._requires_grad and out._data.dtype.kind != "c":
        # nothing to record: tanh_grad's kernel, as its grad op would call it
        _kernel = (
            out._data.__class__
            is _tangent.__class__
            and _k_tanh_grad.get(out._data.__class__)
            or dispatch("tanh_grad", "tanh_grad", out._data, _tangent)
        )
        try:
            out_t = _kernel(out._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("tanh_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * (1 - out * out) if out._data.dtype.kind == "c" else _grad_ops.tanh_grad(out, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def sigmoid(
    x,
    out,
) -> None:
    """Tangents of sigmoid (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not out._requires_grad and out._data.dtype.kind != "c":
        # nothing to record: sigmoid_grad's kernel, as its grad op would call it
        _kernel = (
            out._data.__class__
            is _tangent.__class__
            and _k_sigmoid_grad.get(out._data.__class__)
            or dispatch("sigmoid_grad", "sigmoid_grad", out._data, _tangent)
        )
        try:
            out_t = _kernel(out._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sigmoid_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * out * (1 - out) if out._data.dtype.kind == "c" else _grad_ops.sigmoid_grad(out, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def relu(
    x,
    out,
) -> None:
    """Tangents of relu (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not out._requires_grad:
        # nothing to record: relu_grad's kernel, as its grad op would call it
        _kernel = (
            out._data.__class__
            is _tangent.__class__
            and _k_relu_grad.get(out._data.__class__)
            or dispatch("relu_grad", "relu_grad", out._data, _tangent)
        )
        try:
            out_t = _kernel(out._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("relu_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.relu_grad(out, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def gelu(
    x,
    approximate,
    out,
) -> None:
    """Tangents of gelu (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: gelu_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_gelu_grad.get(x._data.__class__)
            or dispatch("gelu_grad", "gelu_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, approximate)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("gelu_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.gelu_grad(x, x_t, approximate)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def silu(
    x,
    out,
) -> None:
    """Tangents of silu (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: silu_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_silu_grad.get(x._data.__class__)
            or dispatch("silu_grad", "silu_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("silu_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.silu_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def softplus(
    x,
    beta,
    threshold,
    out,
) -> None:
    """Tangents of softplus (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: softplus_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_softplus_grad.get(x._data.__class__)
            or dispatch("softplus_grad", "softplus_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, beta, threshold)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("softplus_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.softplus_grad(x, x_t, beta, threshold)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def leaky_relu(
    x,
    negative_slope,
    out,
) -> None:
    """Tangents of leaky_relu (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: leaky_relu_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_leaky_relu_grad.get(x._data.__class__)
            or dispatch("leaky_relu_grad", "leaky_relu_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, negative_slope)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("leaky_relu_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.leaky_relu_grad(x, x_t, negative_slope)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def elu(
    x,
    alpha,
    out,
) -> None:
    """Tangents of elu (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: elu_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_elu_grad.get(x._data.__class__)
            or dispatch("elu_grad", "elu_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, alpha)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("elu_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.elu_grad(x, x_t, alpha)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def erf(
    x,
    out,
) -> None:
    """Tangents of erf (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: erf_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_erf_grad.get(x._data.__class__)
            or dispatch("erf_grad", "erf_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("erf_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.erf_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def scale(
    x,
    scale,
    bias,
    out,
) -> None:
    """Tangents of scale (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.scale(x_t, scale, 0.0)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def pow(
    x,
    y,
    out,
) -> None:
    """Tangents of pow (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad and x._data.dtype.kind != "c":
        # nothing to record: pow_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_pow_grad.get(x._data.__class__)
            or dispatch("pow_grad", "pow_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, y)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("pow_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * (y * _ops.pow(x, y - 1)) if x._data.dtype.kind == "c" else _grad_ops.pow_grad(x, x_t, y)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def clip(
    x,
    min,
    max,
    out,
) -> None:
    """Tangents of clip (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: clip_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_clip_grad.get(x._data.__class__)
            or dispatch("clip_grad", "clip_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, min, max)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("clip_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.clip_grad(x, x_t, min, max)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def cast(
    x,
    dtype,
    out,
) -> None:
    """Tangents of cast (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.cast(x_t, dtype)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def hardtanh(
    x,
    min,
    max,
    out,
) -> None:
    """Tangents of hardtanh (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: hardtanh_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_hardtanh_grad.get(x._data.__class__)
            or dispatch("hardtanh_grad", "hardtanh_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, min, max)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("hardtanh_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.hardtanh_grad(x, x_t, min, max)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def hardswish(
    x,
    out,
) -> None:
    """Tangents of hardswish (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: hardswish_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_hardswish_grad.get(x._data.__class__)
            or dispatch("hardswish_grad", "hardswish_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("hardswish_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.hardswish_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def hardsigmoid(
    x,
    out,
) -> None:
    """Tangents of hardsigmoid (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: hardsigmoid_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_hardsigmoid_grad.get(x._data.__class__)
            or dispatch("hardsigmoid_grad", "hardsigmoid_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("hardsigmoid_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.hardsigmoid_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def mish(
    x,
    out,
) -> None:
    """Tangents of mish (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: mish_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_mish_grad.get(x._data.__class__)
            or dispatch("mish_grad", "mish_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("mish_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.mish_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def log_sigmoid(
    x,
    out,
) -> None:
    """Tangents of log_sigmoid (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: log_sigmoid_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_log_sigmoid_grad.get(x._data.__class__)
            or dispatch("log_sigmoid_grad", "log_sigmoid_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("log_sigmoid_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.log_sigmoid_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def swish(
    x,
    out,
) -> None:
    """Tangents of swish, derived from its backward (double-vjp)."""
    derive(_ops.swish, (x,), (out,))


def selu(
    x,
    scale,
    alpha,
    out,
) -> None:
    """Tangents of selu (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: selu_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_selu_grad.get(x._data.__class__)
            or dispatch("selu_grad", "selu_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, scale, alpha)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("selu_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.selu_grad(x, x_t, scale, alpha)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def celu(
    x,
    alpha,
    out,
) -> None:
    """Tangents of celu (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: celu_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_celu_grad.get(x._data.__class__)
            or dispatch("celu_grad", "celu_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent, alpha)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("celu_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.celu_grad(x, x_t, alpha)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def softsign(
    x,
    out,
) -> None:
    """Tangents of softsign (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: softsign_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_softsign_grad.get(x._data.__class__)
            or dispatch("softsign_grad", "softsign_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("softsign_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.softsign_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def tanhshrink(
    x,
    out,
) -> None:
    """Tangents of tanhshrink (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not x._requires_grad and not out._requires_grad:
        # nothing to record: tanhshrink_grad's kernel, as its grad op would call it
        _kernel = (
            x._data.__class__
            is _tangent.__class__
            and _k_tanhshrink_grad.get(x._data.__class__)
            or dispatch("tanhshrink_grad", "tanhshrink_grad", x._data, _tangent)
        )
        try:
            out_t = _kernel(x._data, _tangent)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("tanhshrink_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.tanhshrink_grad(x, x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def add(
    x,
    y,
    out,
) -> None:
    """Tangents of add (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t + y_t
    finally:
        resume_rules()
    set_tangent(out, out_t)


def subtract(
    x,
    y,
    out,
) -> None:
    """Tangents of subtract (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t - y_t
    finally:
        resume_rules()
    set_tangent(out, out_t)


def multiply(
    x,
    y,
    out,
) -> None:
    """Tangents of multiply (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t * y + x * y_t
    finally:
        resume_rules()
    set_tangent(out, out_t)


def divide(
    x,
    y,
    out,
) -> None:
    """Tangents of divide (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = (x_t - out * y_t) / y
    finally:
        resume_rules()
    set_tangent(out, out_t)


def maximum(
    x,
    y,
    out,
) -> None:
    """Tangents of maximum, derived from its backward (double-vjp)."""
    derive(_ops.maximum, (x, y), (out,))


def minimum(
    x,
    y,
    out,
) -> None:
    """Tangents of minimum, derived from its backward (double-vjp)."""
    derive(_ops.minimum, (x, y), (out,))


def elementwise_pow(
    x,
    y,
    out,
) -> None:
    """Tangents of elementwise_pow, derived from its backward (double-vjp)."""
    derive(_ops.elementwise_pow, (x, y), (out,))


def where(
    condition,
    x,
    y,
    out,
) -> None:
    """Tangents of where (its `jvp:` rule in ops.yaml)."""
    _t = tangents(condition, x, y)
    if _t is None:
        return
    condition_t, x_t, y_t = _t
    pause_rules()
    try:
        out_t = _ops.where(condition, x_t, y_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def tan(
    x,
    out,
) -> None:
    """Tangents of tan (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * (1 + out * out)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def asin(
    x,
    out,
) -> None:
    """Tangents of asin (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * _ops.rsqrt(1 - x * x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def acos(
    x,
    out,
) -> None:
    """Tangents of acos (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = -x_t * _ops.rsqrt(1 - x * x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def atan(
    x,
    out,
) -> None:
    """Tangents of atan (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t / (1 + x * x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def sinh(
    x,
    out,
) -> None:
    """Tangents of sinh (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * _ops.cosh(x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def cosh(
    x,
    out,
) -> None:
    """Tangents of cosh (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * _ops.sinh(x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def asinh(
    x,
    out,
) -> None:
    """Tangents of asinh (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * _ops.rsqrt(x * x + 1)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def acosh(
    x,
    out,
) -> None:
    """Tangents of acosh (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * _ops.rsqrt(x * x - 1)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def atanh(
    x,
    out,
) -> None:
    """Tangents of atanh (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t / (1 - x * x)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def log2(
    x,
    out,
) -> None:
    """Tangents of log2 (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t / (x * 0.6931471805599453)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def log10(
    x,
    out,
) -> None:
    """Tangents of log10 (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t / (x * 2.302585092994046)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def exp2(
    x,
    out,
) -> None:
    """Tangents of exp2 (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * out * 0.6931471805599453
    finally:
        resume_rules()
    set_tangent(out, out_t)


def deg2rad(
    x,
    out,
) -> None:
    """Tangents of deg2rad (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * 0.017453292519943295
    finally:
        resume_rules()
    set_tangent(out, out_t)


def rad2deg(
    x,
    out,
) -> None:
    """Tangents of rad2deg (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t * 57.29577951308232
    finally:
        resume_rules()
    set_tangent(out, out_t)


def logit(
    x,
    out,
) -> None:
    """Tangents of logit (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t / (x * (1 - x))
    finally:
        resume_rules()
    set_tangent(out, out_t)


def frac(
    x,
    out,
) -> None:
    """Tangents of frac (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t
    finally:
        resume_rules()
    set_tangent(out, out_t)


def floor(
    x,
    out,
) -> None:
    """Tangents of floor (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.zero(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def ceil(
    x,
    out,
) -> None:
    """Tangents of ceil (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.zero(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def trunc(
    x,
    out,
) -> None:
    """Tangents of trunc (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.zero(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def round(
    x,
    decimals,
    out,
) -> None:
    """Tangents of round (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.zero(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def atan2(
    x,
    y,
    out,
) -> None:
    """Tangents of atan2 (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = (x_t * y - y_t * x) / (x * x + y * y)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def logaddexp(
    x,
    y,
    out,
) -> None:
    """Tangents of logaddexp (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t * _ops.exp(x - out) + y_t * _ops.exp(y - out)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def logaddexp2(
    x,
    y,
    out,
) -> None:
    """Tangents of logaddexp2 (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t * _ops.exp2(x - out) + y_t * _ops.exp2(y - out)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def lerp(
    x,
    end,
    weight,
    out,
) -> None:
    """Tangents of lerp (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, end, weight)
    if _t is None:
        return
    x_t, end_t, weight_t = _t
    pause_rules()
    try:
        out_t = x_t + weight_t * (end - x) + weight * (end_t - x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def addcmul(
    x,
    tensor1,
    tensor2,
    value,
    out,
) -> None:
    """Tangents of addcmul (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, tensor1, tensor2)
    if _t is None:
        return
    x_t, tensor1_t, tensor2_t = _t
    pause_rules()
    try:
        out_t = x_t + value * (tensor1_t * tensor2 + tensor1 * tensor2_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def addcdiv(
    x,
    tensor1,
    tensor2,
    value,
    out,
) -> None:
    """Tangents of addcdiv (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, tensor1, tensor2)
    if _t is None:
        return
    x_t, tensor1_t, tensor2_t = _t
    pause_rules()
    try:
        out_t = x_t + value * (tensor1_t / tensor2 - tensor1 * tensor2_t / (tensor2 * tensor2))
    finally:
        resume_rules()
    set_tangent(out, out_t)


def nansum(
    x,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of nansum, derived from its backward (double-vjp)."""
    derive(_ops.nansum, (x, axis, keepdim), (out,))


def logcumsumexp(
    x,
    axis,
    out,
) -> None:
    """Tangents of logcumsumexp, derived from its backward (double-vjp)."""
    derive(_ops.logcumsumexp, (x, axis), (out,))


def cummax(
    x,
    axis,
    values,
    indices,
) -> None:
    """Tangents of cummax (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        values_t = _ops.take_along_axis(x_t, indices, axis)
    finally:
        resume_rules()
    set_tangent(values, values_t)


def cummin(
    x,
    axis,
    values,
    indices,
) -> None:
    """Tangents of cummin (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        values_t = _ops.take_along_axis(x_t, indices, axis)
    finally:
        resume_rules()
    set_tangent(values, values_t)


def pixel_shuffle(
    x,
    upscale_factor,
    out,
) -> None:
    """Tangents of pixel_shuffle (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.pixel_shuffle(x_t, upscale_factor)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def pixel_unshuffle(
    x,
    downscale_factor,
    out,
) -> None:
    """Tangents of pixel_unshuffle (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.pixel_unshuffle(x_t, downscale_factor)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def xlogy(
    x,
    y,
    out,
) -> None:
    """Tangents of xlogy (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t * _ops.xlogy(_ops.where(_ops.equal(x, 0.0), 0.0, 1.0), y) + x * y_t / y
    finally:
        resume_rules()
    set_tangent(out, out_t)


def fmod(
    x,
    y,
    out,
) -> None:
    """Tangents of fmod (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t - _ops.trunc(x / y) * y_t
    finally:
        resume_rules()
    set_tangent(out, out_t)


def copysign(
    x,
    y,
    out,
) -> None:
    """Tangents of copysign (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = x_t * _ops.sign(x) * _ops.sign(out)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def nan_to_num(
    x,
    nan,
    posinf,
    neginf,
    out,
) -> None:
    """Tangents of nan_to_num (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.where(_ops.isfinite(x), x_t, 0.0)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def sum(
    x,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of sum (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.sum(x_t, axis, keepdim)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def mean(
    x,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of mean (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.mean(x_t, axis, keepdim)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def max(
    x,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of max, derived from its backward (double-vjp)."""
    derive(_ops.max, (x, axis, keepdim), (out,))


def min(
    x,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of min, derived from its backward (double-vjp)."""
    derive(_ops.min, (x, axis, keepdim), (out,))


def prod(
    x,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of prod, derived from its backward (double-vjp, not recorded)."""
    derive(_ops.prod, (x, axis, keepdim), (out,), recorded=False)


def logsumexp(
    x,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of logsumexp, derived from its backward (double-vjp)."""
    derive(_ops.logsumexp, (x, axis, keepdim), (out,))


def var(
    x,
    axis,
    unbiased,
    keepdim,
    out,
) -> None:
    """Tangents of var, derived from its backward (double-vjp)."""
    derive(_ops.var, (x, axis, unbiased, keepdim), (out,))


def std(
    x,
    axis,
    unbiased,
    keepdim,
    out,
) -> None:
    """Tangents of std, derived from its backward (double-vjp)."""
    derive(_ops.std, (x, axis, unbiased, keepdim), (out,))


def norm(
    x,
    p,
    axis,
    keepdim,
    out,
) -> None:
    """Tangents of norm, derived from its backward (double-vjp)."""
    derive(_ops.norm, (x, p, axis, keepdim), (out,))


def cumsum(
    x,
    axis,
    out,
) -> None:
    """Tangents of cumsum (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.cumsum(x_t, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def cumprod(
    x,
    dim,
    out,
) -> None:
    """Tangents of cumprod, derived from its backward (double-vjp, not recorded)."""
    derive(_ops.cumprod, (x, dim), (out,), recorded=False)


def topk(
    x,
    k,
    axis,
    largest,
    sorted,
    out,
    indices,
) -> None:
    """Tangents of topk, derived from its backward (double-vjp)."""
    derive(_ops.topk, (x, k, axis, largest, sorted), (out, indices))


def sort(
    x,
    axis,
    descending,
    out,
    indices,
) -> None:
    """Tangents of sort, derived from its backward (double-vjp)."""
    derive(_ops.sort, (x, axis, descending), (out,))


def matmul(
    x,
    y,
    transpose_x,
    transpose_y,
    out,
) -> None:
    """Tangents of matmul (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = _ops.matmul_jvp(x, y, x_t, y_t, transpose_x, transpose_y)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def reshape(
    x,
    shape,
    out,
) -> None:
    """Tangents of reshape (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.reshape(x_t, shape)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def transpose(
    x,
    perm,
    out,
) -> None:
    """Tangents of transpose (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.transpose(x_t, perm)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def squeeze(
    x,
    axis,
    out,
) -> None:
    """Tangents of squeeze (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.squeeze(x_t, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def unsqueeze(
    x,
    axis,
    out,
) -> None:
    """Tangents of unsqueeze (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.unsqueeze(x_t, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def flatten(
    x,
    start_axis,
    stop_axis,
    out,
) -> None:
    """Tangents of flatten (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.flatten(x_t, start_axis, stop_axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def expand(
    x,
    shape,
    out,
) -> None:
    """Tangents of expand (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.expand(x_t, shape)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def concat(
    x,
    axis,
    out,
) -> None:
    """Tangents of concat (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x)
    if _t is None:
        return
    (x_t,) = _t
    pause_rules()
    try:
        out_t = _ops.concat(x_t, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def stack(
    x,
    axis,
    out,
) -> None:
    """Tangents of stack (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x)
    if _t is None:
        return
    (x_t,) = _t
    pause_rules()
    try:
        out_t = _ops.stack(x_t, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def split(
    x,
    num_or_sections,
    axis,
    out,
) -> None:
    """Tangents of split (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.split(x_t, num_or_sections, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def gather(
    x,
    index,
    axis,
    out,
) -> None:
    """Tangents of gather (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, index)
    if _t is None:
        return
    x_t, index_t = _t
    pause_rules()
    try:
        out_t = _ops.gather(x_t, index, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def index_select(
    x,
    index,
    axis,
    out,
) -> None:
    """Tangents of index_select (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, index)
    if _t is None:
        return
    x_t, index_t = _t
    pause_rules()
    try:
        out_t = _ops.index_select(x_t, index, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def tile(
    x,
    repeat_times,
    out,
) -> None:
    """Tangents of tile (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.tile(x_t, repeat_times)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def take_along_axis(
    arr,
    indices,
    axis,
    out,
) -> None:
    """Tangents of take_along_axis (its `jvp:` rule in ops.yaml)."""
    _t = tangents(arr, indices)
    if _t is None:
        return
    arr_t, indices_t = _t
    pause_rules()
    try:
        out_t = _ops.take_along_axis(arr_t, indices, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def scatter(
    x,
    index,
    updates,
    overwrite,
    out,
) -> None:
    """Tangents of scatter, derived from its backward (double-vjp)."""
    derive(_ops.scatter, (x, index, updates, overwrite), (out,))


def index_add(
    x,
    index,
    axis,
    value,
    out,
) -> None:
    """Tangents of index_add, derived from its backward (double-vjp)."""
    derive(_ops.index_add, (x, index, axis, value), (out,))


def masked_fill(
    x,
    mask,
    value,
    out,
) -> None:
    """Tangents of masked_fill (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, mask)
    if _t is None:
        return
    x_t, mask_t = _t
    pause_rules()
    try:
        out_t = _ops.masked_fill(x_t, mask, 0.0)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def tril(
    x,
    diagonal,
    out,
) -> None:
    """Tangents of tril (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.tril(x_t, diagonal)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def triu(
    x,
    diagonal,
    out,
) -> None:
    """Tangents of triu (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.triu(x_t, diagonal)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def pad(
    x,
    pad,
    mode,
    value,
    out,
) -> None:
    """Tangents of pad (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.pad(x_t, pad, mode, 0.0)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def roll(
    x,
    shifts,
    axis,
    out,
) -> None:
    """Tangents of roll (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.roll(x_t, shifts, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def repeat_interleave(
    x,
    repeats,
    axis,
    out,
) -> None:
    """Tangents of repeat_interleave, derived from its backward (double-vjp)."""
    derive(_ops.repeat_interleave, (x, repeats, axis), (out,))


def flip(
    x,
    axis,
    out,
) -> None:
    """Tangents of flip (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.flip(x_t, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def gather_nd(
    x,
    index,
    out,
) -> None:
    """Tangents of gather_nd (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, index)
    if _t is None:
        return
    x_t, index_t = _t
    pause_rules()
    try:
        out_t = _ops.gather_nd(x_t, index)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def scatter_nd_add(
    x,
    index,
    updates,
    out,
) -> None:
    """Tangents of scatter_nd_add (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, index, updates)
    if _t is None:
        return
    x_t, index_t, updates_t = _t
    pause_rules()
    try:
        out_t = _ops.scatter_nd_add(x_t, index, updates_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def scatter_nd(
    index,
    updates,
    shape,
    out,
) -> None:
    """Tangents of scatter_nd (its `jvp:` rule in ops.yaml)."""
    _t = tangents(index, updates)
    if _t is None:
        return
    index_t, updates_t = _t
    pause_rules()
    try:
        out_t = _ops.scatter_nd(index, updates_t, shape)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def index(
    x,
    indices,
    out,
) -> None:
    """Tangents of index (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, indices)
    if _t is None:
        return
    x_t, indices_t = _t
    pause_rules()
    try:
        out_t = _ops.index(x_t, indices)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def index_put(
    x,
    indices,
    values,
    accumulate,
    out,
) -> None:
    """Tangents of index_put (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, indices, values)
    if _t is None:
        return
    x_t, indices_t, values_t = _t
    pause_rules()
    try:
        out_t = _ops.index_put(x_t, indices, values_t, accumulate)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def softmax(
    x,
    axis,
    out,
) -> None:
    """Tangents of softmax (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.softmax_vjp(out, x_t, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def log_softmax(
    x,
    axis,
    out,
) -> None:
    """Tangents of log_softmax (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = x_t - _ops.sum(_ops.exp(out) * x_t, axis, True)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def dropout(
    x,
    p,
    training,
    out,
    mask,
) -> None:
    """Tangents of dropout (its `jvp:` rule in ops.yaml)."""
    # plain_tangent(x), without the call when it is a kernel path's array
    _dual = x._dual
    _tangent = (
        _dual[1]
        if _dual is not None and _dual[1].__class__ is KERNEL_TANGENT and _dual[0] == FORWARD.level
        else plain_tangent(x)
    )
    if _tangent is not None and not mask._requires_grad and not out._requires_grad:
        # nothing to record: dropout_grad's kernel, as its grad op would call it
        _kernel = (
            mask._data.__class__
            is _tangent.__class__
            and _k_dropout_grad.get(mask._data.__class__)
            or dispatch("dropout_grad", "dropout_grad", mask._data, _tangent)
        )
        try:
            out_t = _kernel(mask._data, _tangent, p, training)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("dropout_grad", _e) from None
        out._dual = (FORWARD.level, out_t)  # set_output_tangent
        return
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _grad_ops.dropout_grad(mask, x_t, p, training)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def embedding(
    x,
    weight,
    out,
) -> None:
    """Tangents of embedding (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, weight)
    if _t is None:
        return
    x_t, weight_t = _t
    pause_rules()
    try:
        out_t = _ops.embedding(x, weight_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def prelu(
    x,
    weight,
    out,
) -> None:
    """Tangents of prelu, derived from its backward (double-vjp)."""
    derive(_ops.prelu, (x, weight), (out,))


def glu(
    x,
    axis,
    out,
) -> None:
    """Tangents of glu, derived from its backward (double-vjp)."""
    derive(_ops.glu, (x, axis), (out,))


def cross_entropy(
    input,
    label,
    axis,
    reduction,
    ignore_index,
    label_smoothing,
    out,
    prob,
) -> None:
    """Tangents of cross_entropy (its `jvp:` rule in ops.yaml)."""
    _t = tangents(input, label)
    if _t is None:
        return
    input_t, label_t = _t
    pause_rules()
    try:
        g = _grad_ops.cross_entropy_grad(input, label, prob, _ops.fill(out, 1.0), axis, reduction, ignore_index, label_smoothing)
        out_t = _ops.sum(g * input_t, axis) if reduction == "none" else _ops.sum(g * input_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def mse_loss(
    input,
    label,
    reduction,
    out,
) -> None:
    """Tangents of mse_loss, derived from its backward (double-vjp)."""
    derive(_ops.mse_loss, (input, label, reduction), (out,))


def nll_loss(
    input,
    label,
    weight,
    ignore_index,
    reduction,
    out,
) -> None:
    """Tangents of nll_loss, derived from its backward (double-vjp)."""
    derive(_ops.nll_loss, (input, label, weight, ignore_index, reduction), (out,))


def binary_cross_entropy_with_logits(
    logit,
    label,
    weight,
    reduction,
    pos_weight,
    out,
) -> None:
    """Tangents of binary_cross_entropy_with_logits, derived from its backward (double-vjp)."""
    derive(_ops.binary_cross_entropy_with_logits, (logit, label, weight, reduction, pos_weight), (out,))


def l1_loss(
    input,
    label,
    reduction,
    out,
) -> None:
    """Tangents of l1_loss, derived from its backward (double-vjp)."""
    derive(_ops.l1_loss, (input, label, reduction), (out,))


def smooth_l1_loss(
    input,
    label,
    reduction,
    delta,
    out,
) -> None:
    """Tangents of smooth_l1_loss, derived from its backward (double-vjp)."""
    derive(_ops.smooth_l1_loss, (input, label, reduction, delta), (out,))


def kl_div(
    input,
    label,
    reduction,
    log_target,
    out,
) -> None:
    """Tangents of kl_div, derived from its backward (double-vjp)."""
    derive(_ops.kl_div, (input, label, reduction, log_target), (out,))


def conv2d(
    x,
    weight,
    bias,
    stride,
    padding,
    dilation,
    groups,
    out,
) -> None:
    """Tangents of conv2d (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, weight, bias)
    if _t is None:
        return
    x_t, weight_t, bias_t = _t
    pause_rules()
    try:
        a = _ops.conv2d(x_t, weight, None, stride, padding, dilation, groups) + _ops.conv2d(x, weight_t, None, stride, padding, dilation, groups)
        out_t = a + _ops.reshape(bias_t, [1, -1, 1, 1]) if bias is not None else a
    finally:
        resume_rules()
    set_tangent(out, out_t)


def conv_transpose2d(
    x,
    weight,
    bias,
    stride,
    padding,
    output_padding,
    groups,
    dilation,
    out,
) -> None:
    """Tangents of conv_transpose2d, derived from its backward (double-vjp)."""
    derive(_ops.conv_transpose2d, (x, weight, bias, stride, padding, output_padding, groups, dilation), (out,))


def conv_transpose1d(
    x,
    weight,
    bias,
    stride,
    padding,
    output_padding,
    groups,
    dilation,
    out,
) -> None:
    """Tangents of conv_transpose1d, derived from its backward (double-vjp)."""
    derive(_ops.conv_transpose1d, (x, weight, bias, stride, padding, output_padding, groups, dilation), (out,))


def conv1d(
    x,
    weight,
    bias,
    stride,
    padding,
    dilation,
    groups,
    out,
) -> None:
    """Tangents of conv1d, derived from its backward (double-vjp)."""
    derive(_ops.conv1d, (x, weight, bias, stride, padding, dilation, groups), (out,))


def conv3d(
    x,
    weight,
    bias,
    stride,
    padding,
    dilation,
    groups,
    out,
) -> None:
    """Tangents of conv3d (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, weight, bias)
    if _t is None:
        return
    x_t, weight_t, bias_t = _t
    pause_rules()
    try:
        a = _ops.conv3d(x_t, weight, None, stride, padding, dilation, groups) + _ops.conv3d(x, weight_t, None, stride, padding, dilation, groups)
        out_t = a + _ops.reshape(bias_t, [1, -1, 1, 1, 1]) if bias is not None else a
    finally:
        resume_rules()
    set_tangent(out, out_t)


def max_pool2d(
    x,
    kernel_size,
    stride,
    padding,
    out,
    argmax,
) -> None:
    """Tangents of max_pool2d, derived from its backward (double-vjp, not recorded)."""
    derive(_ops.max_pool2d, (x, kernel_size, stride, padding), (out,), recorded=False)


def avg_pool2d(
    x,
    kernel_size,
    stride,
    padding,
    out,
) -> None:
    """Tangents of avg_pool2d, derived from its backward (double-vjp)."""
    derive(_ops.avg_pool2d, (x, kernel_size, stride, padding), (out,))


def adaptive_avg_pool2d(
    x,
    output_size,
    out,
) -> None:
    """Tangents of adaptive_avg_pool2d, derived from its backward (double-vjp)."""
    derive(_ops.adaptive_avg_pool2d, (x, output_size), (out,))


def layer_norm(
    x,
    normalized_shape,
    weight,
    bias,
    epsilon,
    out,
    mean,
    rstd,
) -> None:
    """Tangents of layer_norm (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, weight, bias)
    if _t is None:
        return
    x_t, weight_t, bias_t = _t
    pause_rules()
    try:
        n = _ops.reduce_as(_ops.fill(x, 1.0), mean)
        xhat = (x - mean) * rstd
        xhat_t = rstd * (x_t - _ops.reduce_as(x_t, mean) / n - xhat * (_ops.reduce_as(x_t * xhat, mean) / n))
        a = xhat_t * weight + xhat * weight_t if weight is not None else xhat_t
        out_t = a + bias_t if bias is not None else a
    finally:
        resume_rules()
    set_tangent(out, out_t)


def batch_norm(
    x,
    running_mean,
    running_var,
    weight,
    bias,
    training,
    momentum,
    epsilon,
    out,
    saved_mean,
    saved_rstd,
) -> None:
    """Tangents of batch_norm, derived from its backward (double-vjp)."""
    derive(_ops.batch_norm, (x, running_mean, running_var, weight, bias, training, momentum, epsilon), (out,))


def group_norm(
    x,
    num_groups,
    weight,
    bias,
    epsilon,
    out,
    mean,
    rstd,
) -> None:
    """Tangents of group_norm, derived from its backward (double-vjp)."""
    derive(_ops.group_norm, (x, num_groups, weight, bias, epsilon), (out,))


def linear(
    x,
    weight,
    bias,
    out,
) -> None:
    """Tangents of linear (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, weight, bias)
    if _t is None:
        return
    x_t, weight_t, bias_t = _t
    pause_rules()
    try:
        a = _ops.matmul(x_t, weight) + _ops.matmul(x, weight_t)
        out_t = a + bias_t if bias is not None else a
    finally:
        resume_rules()
    set_tangent(out, out_t)


def einsum(
    equation,
    x,
    y,
    out,
) -> None:
    """Tangents of einsum, derived from its backward (double-vjp)."""
    derive(_ops.einsum, (equation, x, y), (out,))


def scaled_dot_product_attention(
    query,
    key,
    value,
    mask,
    dropout_p,
    causal,
    scale,
    out,
    weights,
    keep,
) -> None:
    """Tangents of scaled_dot_product_attention (its `jvp:` rule in ops.yaml)."""
    _t = tangents(query, key, value, mask)
    if _t is None:
        return
    query_t, key_t, value_t, mask_t = _t
    pause_rules()
    try:
        c = _ops.rsqrt(_ops.sum(_ops.fill(query, 1.0), -1, True)) if scale is None else scale
        s_t = (_ops.matmul(query_t, key, False, True) + _ops.matmul(query, key_t, False, True)) * c
        scores_t = s_t + mask_t if mask_t is not None else s_t
        w_t = _ops.softmax_vjp(weights, scores_t, -1)
        kept_t = _ops.where(keep, w_t, 0.0) / (1 - dropout_p)
        out_t = _ops.matmul(kept_t, value) + _ops.matmul(_ops.where(keep, weights, 0.0) / (1 - dropout_p), value_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def unfold(
    x,
    kernel_size,
    dilation,
    padding,
    stride,
    out,
) -> None:
    """Tangents of unfold (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.unfold(x_t, kernel_size, dilation, padding, stride)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def fold(
    x,
    output_size,
    kernel_size,
    dilation,
    padding,
    stride,
    out,
) -> None:
    """Tangents of fold (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.fold(x_t, output_size, kernel_size, dilation, padding, stride)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def fill(
    x,
    value,
    out,
) -> None:
    """Tangents of fill, derived from its backward (double-vjp)."""
    derive(_ops.fill, (x, value), (out,))


def zero(
    x,
    out,
) -> None:
    """Tangents of zero, derived from its backward (double-vjp)."""
    derive(_ops.zero, (x,), (out,))


def reduce_as(
    x,
    target,
    out,
) -> None:
    """Tangents of reduce_as, derived from its backward (double-vjp)."""
    derive(_ops.reduce_as, (x, target), (out,))


def narrow_as(
    x,
    like,
    axis,
    out,
) -> None:
    """Tangents of narrow_as (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, like)
    if _t is None:
        return
    x_t, like_t = _t
    pause_rules()
    try:
        out_t = _ops.narrow_as(x_t, like, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def pad_as(
    x,
    like,
    axis,
    out,
) -> None:
    """Tangents of pad_as (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, like)
    if _t is None:
        return
    x_t, like_t = _t
    pause_rules()
    try:
        out_t = _ops.pad_as(x_t, like, axis)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def qr_square_block(
    x,
    q,
    mode,
    out,
) -> None:
    """Tangents of qr_square_block (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, q)
    if _t is None:
        return
    x_t, q_t = _t
    pause_rules()
    try:
        out_t = _ops.qr_square_block(x_t, q, mode)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def softmax_vjp(
    p,
    g,
    axis,
    o,
) -> None:
    """Tangents of softmax_vjp, derived from its backward (double-vjp)."""
    derive(_ops.softmax_vjp, (p, g, axis), (o,))


def softmax_vjp_dp(
    p,
    g,
    r,
    axis,
    o,
) -> None:
    """Tangents of softmax_vjp_dp, derived from its backward (double-vjp)."""
    derive(_ops.softmax_vjp_dp, (p, g, r, axis), (o,))


def matmul_xg(
    x,
    y,
    g,
    transpose_x,
    transpose_y,
    o,
) -> None:
    """Tangents of matmul_xg, derived from its backward (double-vjp)."""
    derive(_ops.matmul_xg, (x, y, g, transpose_x, transpose_y), (o,))


def matmul_yg(
    x,
    y,
    g,
    transpose_x,
    transpose_y,
    o,
) -> None:
    """Tangents of matmul_yg, derived from its backward (double-vjp)."""
    derive(_ops.matmul_yg, (x, y, g, transpose_x, transpose_y), (o,))


def matmul_jvp(
    x,
    y,
    a,
    b,
    transpose_x,
    transpose_y,
    o,
) -> None:
    """Tangents of matmul_jvp, derived from its backward (double-vjp)."""
    derive(_ops.matmul_jvp, (x, y, a, b, transpose_x, transpose_y), (o,))


def lstm_cell(
    gates,
    c,
    h,
    c_next,
    act,
) -> None:
    """Tangents of lstm_cell, derived from its backward (double-vjp)."""
    derive(_ops.lstm_cell, (gates, c), (h, c_next))


def remainder(
    x,
    y,
    out,
) -> None:
    """Tangents of remainder, derived from its backward (double-vjp)."""
    derive(_ops.remainder, (x, y), (out,))


def matrix_transpose(
    x,
    out,
) -> None:
    """Tangents of matrix_transpose (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.matrix_transpose(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def trace(
    x,
    out,
) -> None:
    """Tangents of trace (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.trace(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def outer(
    x,
    y,
    out,
) -> None:
    """Tangents of outer, derived from its backward (double-vjp)."""
    derive(_ops.outer, (x, y), (out,))


def diagonal(
    x,
    offset,
    axis1,
    axis2,
    out,
) -> None:
    """Tangents of diagonal (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.diagonal(x_t, offset, axis1, axis2)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def diag_embed(
    x,
    offset,
    dim1,
    dim2,
    out,
) -> None:
    """Tangents of diag_embed (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.diag_embed(x_t, offset, dim1, dim2)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def cross(
    x,
    y,
    axis,
    out,
) -> None:
    """Tangents of cross, derived from its backward (double-vjp)."""
    derive(_ops.cross, (x, y, axis), (out,))


def inv(
    x,
    out,
) -> None:
    """Tangents of inv (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = -_ops.matmul(_ops.matmul(out, x_t), out)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def det(
    x,
    out,
) -> None:
    """Tangents of det (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = out * _ops.trace(_ops.solve(x, x_t))
    finally:
        resume_rules()
    set_tangent(out, out_t)


def slogdet(
    x,
    sign,
    logabsdet,
) -> None:
    """Tangents of slogdet (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        logabsdet_t = _ops.trace(_ops.solve(x, x_t))
    finally:
        resume_rules()
    set_tangent(logabsdet, logabsdet_t)


def solve(
    a,
    b,
    out,
) -> None:
    """Tangents of solve (its `jvp:` rule in ops.yaml)."""
    _t = tangents(a, b)
    if _t is None:
        return
    a_t, b_t = _t
    pause_rules()
    try:
        out_t = _ops.solve(a, b_t - _ops.matmul(a_t, out))
    finally:
        resume_rules()
    set_tangent(out, out_t)


def cholesky(
    x,
    upper,
    out,
) -> None:
    """Tangents of cholesky, derived from its backward (double-vjp)."""
    derive(_ops.cholesky, (x, upper), (out,))


def matrix_power(
    x,
    n,
    out,
) -> None:
    """Tangents of matrix_power, derived from its backward (double-vjp)."""
    derive(_ops.matrix_power, (x, n), (out,))


def kron(
    x,
    y,
    out,
) -> None:
    """Tangents of kron, derived from its backward (double-vjp)."""
    derive(_ops.kron, (x, y), (out,))


def triangular_solve(
    x,
    y,
    upper,
    transpose,
    unitriangular,
    out,
) -> None:
    """Tangents of triangular_solve, derived from its backward (double-vjp)."""
    derive(_ops.triangular_solve, (x, y, upper, transpose, unitriangular), (out,))


def cholesky_solve(
    x,
    y,
    upper,
    out,
) -> None:
    """Tangents of cholesky_solve, derived from its backward (double-vjp)."""
    derive(_ops.cholesky_solve, (x, y, upper), (out,))


def bmm(
    x,
    y,
    out,
) -> None:
    """Tangents of bmm (its `jvp:` rule in ops.yaml)."""
    _t = tangents(x, y)
    if _t is None:
        return
    x_t, y_t = _t
    pause_rules()
    try:
        out_t = _ops.matmul(x_t, y) + _ops.matmul(x, y_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def eigh(
    x,
    UPLO,
    eigenvalues,
    eigenvectors,
) -> None:
    """Tangents of eigh, derived from its backward (double-vjp)."""
    derive(_ops.eigh, (x, UPLO), (eigenvalues, eigenvectors))


def eigvalsh(
    x,
    UPLO,
    out,
) -> None:
    """Tangents of eigvalsh, derived from its backward (double-vjp)."""
    derive(_ops.eigvalsh, (x, UPLO), (out,))


def svd(
    x,
    full_matrices,
    u,
    s,
    vh,
) -> None:
    """Tangents of svd, derived from its backward (double-vjp)."""
    derive(_ops.svd, (x, full_matrices), (u, s, vh))


def svdvals(
    x,
    out,
) -> None:
    """Tangents of svdvals, derived from its backward (double-vjp)."""
    derive(_ops.svdvals, (x,), (out,))


def qr(
    x,
    mode,
    q,
    r,
) -> None:
    """Tangents of qr, derived from its backward (double-vjp)."""
    derive(_ops.qr, (x, mode), (q, r))


def matrix_exp(
    x,
    out,
) -> None:
    """Tangents of matrix_exp, derived from its backward (double-vjp)."""
    derive(_ops.matrix_exp, (x,), (out,))


def conj(
    x,
    out,
) -> None:
    """Tangents of conj (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = conj_if_complex(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def real(
    x,
    out,
) -> None:
    """Tangents of real (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.real(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def imag(
    x,
    out,
) -> None:
    """Tangents of imag (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.imag(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def complex(
    real,
    imag,
    out,
) -> None:
    """Tangents of complex (its `jvp:` rule in ops.yaml)."""
    _t = tangents(real, imag)
    if _t is None:
        return
    real_t, imag_t = _t
    pause_rules()
    try:
        out_t = _ops.complex(real_t, imag_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def polar(
    abs,
    angle,
    out,
) -> None:
    """Tangents of polar, derived from its backward (double-vjp)."""
    derive(_ops.polar, (abs, angle), (out,))


def angle(
    x,
    out,
) -> None:
    """Tangents of angle, derived from its backward (double-vjp)."""
    derive(_ops.angle, (x,), (out,))


def view_as_real(
    x,
    out,
) -> None:
    """Tangents of view_as_real (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.view_as_real(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def view_as_complex(
    x,
    out,
) -> None:
    """Tangents of view_as_complex (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.view_as_complex(x_t)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def fftn(
    x,
    s,
    axes,
    norm,
    out,
) -> None:
    """Tangents of fftn (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.fftn(x_t, s, axes, norm)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def ifftn(
    x,
    s,
    axes,
    norm,
    out,
) -> None:
    """Tangents of ifftn (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.ifftn(x_t, s, axes, norm)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def rfftn(
    x,
    s,
    axes,
    norm,
    out,
) -> None:
    """Tangents of rfftn (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.rfftn(x_t, s, axes, norm)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def irfftn(
    x,
    s,
    axes,
    norm,
    out,
) -> None:
    """Tangents of irfftn (its `jvp:` rule in ops.yaml)."""
    x_t = tangent_of(x)
    if x_t is None:
        return
    pause_rules()
    try:
        out_t = _ops.irfftn(x_t, s, axes, norm)
    finally:
        resume_rules()
    set_tangent(out, out_t)


def neg_grad(
    out_grad,
    x_grad,
) -> None:
    """Tangents of neg_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.neg_grad, (out_grad,), (x_grad,))


def abs_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of abs_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.abs_grad, (x, out_grad), (x_grad,))


def sign_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of sign_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.sign_grad, (x, out_grad), (x_grad,))


def exp_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of exp_grad (its `jvp:` rule in backward.yaml)."""
    _t = tangents(out, out_grad)
    if _t is None:
        return
    out_t, out_grad_t = _t
    pause_rules()
    try:
        x_grad_t = out_grad_t * conj_if_complex(out) + out_grad * conj_if_complex(out_t)
    finally:
        resume_rules()
    set_tangent(x_grad, x_grad_t)


def expm1_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of expm1_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.expm1_grad, (out, out_grad), (x_grad,))


def log_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of log_grad (its `jvp:` rule in backward.yaml)."""
    _t = tangents(x, out_grad)
    if _t is None:
        return
    x_t, out_grad_t = _t
    pause_rules()
    try:
        x_grad_t = out_grad_t / conj_if_complex(x) - out_grad * conj_if_complex(x_t / (x * x))
    finally:
        resume_rules()
    set_tangent(x_grad, x_grad_t)


def log1p_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of log1p_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.log1p_grad, (x, out_grad), (x_grad,))


def sqrt_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of sqrt_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.sqrt_grad, (out, out_grad), (x_grad,))


def rsqrt_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of rsqrt_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.rsqrt_grad, (out, out_grad), (x_grad,))


def square_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of square_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.square_grad, (x, out_grad), (x_grad,))


def reciprocal_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of reciprocal_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.reciprocal_grad, (out, out_grad), (x_grad,))


def sin_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of sin_grad (its `jvp:` rule in backward.yaml)."""
    _t = tangents(x, out_grad)
    if _t is None:
        return
    x_t, out_grad_t = _t
    pause_rules()
    try:
        x_grad_t = out_grad_t * conj_if_complex(_ops.cos(x)) - out_grad * conj_if_complex(_ops.sin(x) * x_t)
    finally:
        resume_rules()
    set_tangent(x_grad, x_grad_t)


def cos_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of cos_grad (its `jvp:` rule in backward.yaml)."""
    _t = tangents(x, out_grad)
    if _t is None:
        return
    x_t, out_grad_t = _t
    pause_rules()
    try:
        x_grad_t = -out_grad_t * conj_if_complex(_ops.sin(x)) - out_grad * conj_if_complex(_ops.cos(x) * x_t)
    finally:
        resume_rules()
    set_tangent(x_grad, x_grad_t)


def tanh_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of tanh_grad (its `jvp:` rule in backward.yaml)."""
    _t = tangents(out, out_grad)
    if _t is None:
        return
    out_t, out_grad_t = _t
    pause_rules()
    try:
        x_grad_t = out_grad_t * conj_if_complex(1 - out * out) - 2 * out_grad * conj_if_complex(out * out_t)
    finally:
        resume_rules()
    set_tangent(x_grad, x_grad_t)


def sigmoid_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of sigmoid_grad (its `jvp:` rule in backward.yaml)."""
    _t = tangents(out, out_grad)
    if _t is None:
        return
    out_t, out_grad_t = _t
    pause_rules()
    try:
        x_grad_t = out_grad_t * conj_if_complex(out * (1 - out)) + out_grad * conj_if_complex(out_t * (1 - 2 * out))
    finally:
        resume_rules()
    set_tangent(x_grad, x_grad_t)


def relu_grad(
    out,
    out_grad,
    x_grad,
) -> None:
    """Tangents of relu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.relu_grad, (out, out_grad), (x_grad,))


def gelu_grad(
    x,
    out_grad,
    approximate,
    x_grad,
) -> None:
    """Tangents of gelu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.gelu_grad, (x, out_grad, approximate), (x_grad,))


def silu_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of silu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.silu_grad, (x, out_grad), (x_grad,))


def softplus_grad(
    x,
    out_grad,
    beta,
    threshold,
    x_grad,
) -> None:
    """Tangents of softplus_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.softplus_grad, (x, out_grad, beta, threshold), (x_grad,))


def leaky_relu_grad(
    x,
    out_grad,
    negative_slope,
    x_grad,
) -> None:
    """Tangents of leaky_relu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.leaky_relu_grad, (x, out_grad, negative_slope), (x_grad,))


def elu_grad(
    x,
    out_grad,
    alpha,
    x_grad,
) -> None:
    """Tangents of elu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.elu_grad, (x, out_grad, alpha), (x_grad,))


def erf_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of erf_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.erf_grad, (x, out_grad), (x_grad,))


def scale_grad(
    out_grad,
    scale,
    bias,
    x_grad,
) -> None:
    """Tangents of scale_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.scale_grad, (out_grad, scale, bias), (x_grad,))


def pow_grad(
    x,
    out_grad,
    y,
    x_grad,
) -> None:
    """Tangents of pow_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.pow_grad, (x, out_grad, y), (x_grad,))


def clip_grad(
    x,
    out_grad,
    min,
    max,
    x_grad,
) -> None:
    """Tangents of clip_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.clip_grad, (x, out_grad, min, max), (x_grad,))


def cast_grad(
    x,
    out_grad,
    dtype,
    x_grad,
) -> None:
    """Tangents of cast_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.cast_grad, (x, out_grad, dtype), (x_grad,))


def hardtanh_grad(
    x,
    out_grad,
    min,
    max,
    x_grad,
) -> None:
    """Tangents of hardtanh_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.hardtanh_grad, (x, out_grad, min, max), (x_grad,))


def hardswish_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of hardswish_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.hardswish_grad, (x, out_grad), (x_grad,))


def hardsigmoid_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of hardsigmoid_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.hardsigmoid_grad, (x, out_grad), (x_grad,))


def mish_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of mish_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.mish_grad, (x, out_grad), (x_grad,))


def log_sigmoid_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of log_sigmoid_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.log_sigmoid_grad, (x, out_grad), (x_grad,))


def swish_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of swish_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.swish_grad, (x, out_grad), (x_grad,))


def selu_grad(
    x,
    out_grad,
    scale,
    alpha,
    x_grad,
) -> None:
    """Tangents of selu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.selu_grad, (x, out_grad, scale, alpha), (x_grad,))


def celu_grad(
    x,
    out_grad,
    alpha,
    x_grad,
) -> None:
    """Tangents of celu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.celu_grad, (x, out_grad, alpha), (x_grad,))


def softsign_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of softsign_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.softsign_grad, (x, out_grad), (x_grad,))


def tanhshrink_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of tanhshrink_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.tanhshrink_grad, (x, out_grad), (x_grad,))


def add_grad(
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of add_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.add_grad, (x, y, out_grad), (x_grad, y_grad))


def subtract_grad(
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of subtract_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.subtract_grad, (x, y, out_grad), (x_grad, y_grad))


def multiply_grad(
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of multiply_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.multiply_grad, (x, y, out_grad), (x_grad, y_grad))


def divide_grad(
    x,
    y,
    out,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of divide_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.divide_grad, (x, y, out, out_grad), (x_grad, y_grad))


def maximum_grad(
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of maximum_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.maximum_grad, (x, y, out_grad), (x_grad, y_grad))


def minimum_grad(
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of minimum_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.minimum_grad, (x, y, out_grad), (x_grad, y_grad))


def elementwise_pow_grad(
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of elementwise_pow_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.elementwise_pow_grad, (x, y, out_grad), (x_grad, y_grad))


def where_grad(
    condition,
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of where_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.where_grad, (condition, x, y, out_grad), (x_grad, y_grad))


def sum_grad(
    x,
    out_grad,
    axis,
    keepdim,
    x_grad,
) -> None:
    """Tangents of sum_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.sum_grad, (x, out_grad, axis, keepdim), (x_grad,))


def mean_grad(
    x,
    out_grad,
    axis,
    keepdim,
    x_grad,
) -> None:
    """Tangents of mean_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.mean_grad, (x, out_grad, axis, keepdim), (x_grad,))


def max_grad(
    x,
    out,
    out_grad,
    axis,
    keepdim,
    x_grad,
) -> None:
    """Tangents of max_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.max_grad, (x, out, out_grad, axis, keepdim), (x_grad,))


def min_grad(
    x,
    out,
    out_grad,
    axis,
    keepdim,
    x_grad,
) -> None:
    """Tangents of min_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.min_grad, (x, out, out_grad, axis, keepdim), (x_grad,))


def prod_grad(
    x,
    out_grad,
    axis,
    keepdim,
    x_grad,
) -> None:
    """Tangents of prod_grad, derived from its backward (row by row)."""
    derive(_grad_ops.prod_grad, (x, out_grad, axis, keepdim), (x_grad,), twice=False)


def prod_double_grad(
    x,
    out_grad,
    x_grad_grad,
    axis,
    keepdim,
    grad_wrt_x,
    grad_wrt_out_grad,
) -> None:
    """prod_double_grad has no backward: a tangent reaching it is an error."""
    no_tangent_rule("prod_double_grad", (x, out_grad, x_grad_grad, axis, keepdim))


def logsumexp_grad(
    x,
    out,
    out_grad,
    axis,
    keepdim,
    x_grad,
) -> None:
    """Tangents of logsumexp_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.logsumexp_grad, (x, out, out_grad, axis, keepdim), (x_grad,))


def var_grad(
    x,
    out_grad,
    axis,
    unbiased,
    keepdim,
    x_grad,
) -> None:
    """Tangents of var_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.var_grad, (x, out_grad, axis, unbiased, keepdim), (x_grad,))


def std_grad(
    x,
    out,
    out_grad,
    axis,
    unbiased,
    keepdim,
    x_grad,
) -> None:
    """Tangents of std_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.std_grad, (x, out, out_grad, axis, unbiased, keepdim), (x_grad,))


def norm_grad(
    x,
    out,
    out_grad,
    p,
    axis,
    keepdim,
    x_grad,
) -> None:
    """Tangents of norm_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.norm_grad, (x, out, out_grad, p, axis, keepdim), (x_grad,))


def cumsum_grad(
    x,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of cumsum_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.cumsum_grad, (x, out_grad, axis), (x_grad,))


def cumprod_grad(
    x,
    out,
    out_grad,
    dim,
    x_grad,
) -> None:
    """Tangents of cumprod_grad, derived from its backward (row by row)."""
    derive(_grad_ops.cumprod_grad, (x, out, out_grad, dim), (x_grad,), twice=False)


def cumprod_double_grad(
    x,
    out_grad,
    x_grad_grad,
    dim,
    grad_wrt_x,
    grad_wrt_out_grad,
) -> None:
    """cumprod_double_grad has no backward: a tangent reaching it is an error."""
    no_tangent_rule("cumprod_double_grad", (x, out_grad, x_grad_grad, dim))


def topk_grad(
    x,
    indices,
    out_grad,
    k,
    axis,
    largest,
    sorted,
    x_grad,
) -> None:
    """Tangents of topk_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.topk_grad, (x, indices, out_grad, k, axis, largest, sorted), (x_grad,))


def sort_grad(
    x,
    indices,
    out_grad,
    axis,
    descending,
    x_grad,
) -> None:
    """Tangents of sort_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.sort_grad, (x, indices, out_grad, axis, descending), (x_grad,))


def matmul_grad(
    x,
    y,
    out_grad,
    transpose_x,
    transpose_y,
    x_grad,
    y_grad,
) -> None:
    """Tangents of matmul_grad (its `jvp:` rule in backward.yaml)."""
    _t = tangents(x, y, out_grad)
    if _t is None:
        return
    x_t, y_t, out_grad_t = _t
    pause_rules()
    try:
        x_grad_t = _ops.matmul_xg(x, y_t, out_grad, transpose_x, transpose_y) + _ops.matmul_xg(x, y, out_grad_t, transpose_x, transpose_y)
        y_grad_t = _ops.matmul_yg(x_t, y, out_grad, transpose_x, transpose_y) + _ops.matmul_yg(x, y, out_grad_t, transpose_x, transpose_y)
    finally:
        resume_rules()
    set_tangent(x_grad, x_grad_t)
    set_tangent(y_grad, y_grad_t)


def reshape_grad(
    x,
    out_grad,
    shape,
    x_grad,
) -> None:
    """Tangents of reshape_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.reshape_grad, (x, out_grad, shape), (x_grad,))


def transpose_grad(
    x,
    out_grad,
    perm,
    x_grad,
) -> None:
    """Tangents of transpose_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.transpose_grad, (x, out_grad, perm), (x_grad,))


def squeeze_grad(
    x,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of squeeze_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.squeeze_grad, (x, out_grad, axis), (x_grad,))


def unsqueeze_grad(
    x,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of unsqueeze_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.unsqueeze_grad, (x, out_grad, axis), (x_grad,))


def flatten_grad(
    x,
    out_grad,
    start_axis,
    stop_axis,
    x_grad,
) -> None:
    """Tangents of flatten_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.flatten_grad, (x, out_grad, start_axis, stop_axis), (x_grad,))


def expand_grad(
    x,
    out_grad,
    shape,
    x_grad,
) -> None:
    """Tangents of expand_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.expand_grad, (x, out_grad, shape), (x_grad,))


def concat_grad(
    x,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of concat_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.concat_grad, (x, out_grad, axis), (x_grad,))


def stack_grad(
    x,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of stack_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.stack_grad, (x, out_grad, axis), (x_grad,))


def split_grad(
    x,
    out_grad,
    num_or_sections,
    axis,
    x_grad,
) -> None:
    """Tangents of split_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.split_grad, (x, out_grad, num_or_sections, axis), (x_grad,))


def gather_grad(
    x,
    index,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of gather_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.gather_grad, (x, index, out_grad, axis), (x_grad,))


def index_select_grad(
    x,
    index,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of index_select_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.index_select_grad, (x, index, out_grad, axis), (x_grad,))


def tile_grad(
    x,
    out_grad,
    repeat_times,
    x_grad,
) -> None:
    """Tangents of tile_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.tile_grad, (x, out_grad, repeat_times), (x_grad,))


def take_along_axis_grad(
    arr,
    indices,
    out_grad,
    axis,
    arr_grad,
) -> None:
    """Tangents of take_along_axis_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.take_along_axis_grad, (arr, indices, out_grad, axis), (arr_grad,))


def scatter_grad(
    x,
    index,
    updates,
    out_grad,
    overwrite,
    x_grad,
    updates_grad,
) -> None:
    """Tangents of scatter_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.scatter_grad, (x, index, updates, out_grad, overwrite), (x_grad, updates_grad))


def index_add_grad(
    x,
    index,
    value,
    out_grad,
    axis,
    x_grad,
    value_grad,
) -> None:
    """Tangents of index_add_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.index_add_grad, (x, index, value, out_grad, axis), (x_grad, value_grad))


def masked_fill_grad(
    mask,
    out_grad,
    value,
    x_grad,
) -> None:
    """Tangents of masked_fill_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.masked_fill_grad, (mask, out_grad, value), (x_grad,))


def tril_grad(
    out_grad,
    diagonal,
    x_grad,
) -> None:
    """Tangents of tril_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.tril_grad, (out_grad, diagonal), (x_grad,))


def triu_grad(
    out_grad,
    diagonal,
    x_grad,
) -> None:
    """Tangents of triu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.triu_grad, (out_grad, diagonal), (x_grad,))


def pad_grad(
    x,
    out_grad,
    pad,
    mode,
    value,
    x_grad,
) -> None:
    """Tangents of pad_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.pad_grad, (x, out_grad, pad, mode, value), (x_grad,))


def roll_grad(
    out_grad,
    shifts,
    axis,
    x_grad,
) -> None:
    """Tangents of roll_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.roll_grad, (out_grad, shifts, axis), (x_grad,))


def repeat_interleave_grad(
    x,
    out_grad,
    repeats,
    axis,
    x_grad,
) -> None:
    """Tangents of repeat_interleave_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.repeat_interleave_grad, (x, out_grad, repeats, axis), (x_grad,))


def flip_grad(
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of flip_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.flip_grad, (out_grad, axis), (x_grad,))


def softmax_grad(
    out,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of softmax_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.softmax_grad, (out, out_grad, axis), (x_grad,))


def log_softmax_grad(
    out,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of log_softmax_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.log_softmax_grad, (out, out_grad, axis), (x_grad,))


def dropout_grad(
    mask,
    out_grad,
    p,
    training,
    x_grad,
) -> None:
    """Tangents of dropout_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.dropout_grad, (mask, out_grad, p, training), (x_grad,))


def embedding_grad(
    x,
    weight,
    out_grad,
    weight_grad,
) -> None:
    """Tangents of embedding_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.embedding_grad, (x, weight, out_grad), (weight_grad,))


def prelu_grad(
    x,
    weight,
    out_grad,
    x_grad,
    weight_grad,
) -> None:
    """Tangents of prelu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.prelu_grad, (x, weight, out_grad), (x_grad, weight_grad))


def glu_grad(
    x,
    out_grad,
    axis,
    x_grad,
) -> None:
    """Tangents of glu_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.glu_grad, (x, out_grad, axis), (x_grad,))


def cross_entropy_grad(
    input,
    label,
    prob,
    out_grad,
    axis,
    reduction,
    ignore_index,
    label_smoothing,
    input_grad,
) -> None:
    """Tangents of cross_entropy_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.cross_entropy_grad, (input, label, prob, out_grad, axis, reduction, ignore_index, label_smoothing), (input_grad,))


def cross_entropy_double_grad(
    input,
    label,
    out_grad,
    input_grad_grad,
    axis,
    reduction,
    ignore_index,
    label_smoothing,
    grad_wrt_input,
    grad_wrt_out_grad,
) -> None:
    """Tangents of cross_entropy_double_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.cross_entropy_double_grad, (input, label, out_grad, input_grad_grad, axis, reduction, ignore_index, label_smoothing), (grad_wrt_input, grad_wrt_out_grad))


def mse_loss_grad(
    input,
    label,
    out_grad,
    reduction,
    input_grad,
    label_grad,
) -> None:
    """Tangents of mse_loss_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.mse_loss_grad, (input, label, out_grad, reduction), (input_grad, label_grad))


def nll_loss_grad(
    input,
    label,
    weight,
    out_grad,
    ignore_index,
    reduction,
    input_grad,
) -> None:
    """Tangents of nll_loss_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.nll_loss_grad, (input, label, weight, out_grad, ignore_index, reduction), (input_grad,))


def binary_cross_entropy_with_logits_grad(
    logit,
    label,
    weight,
    pos_weight,
    out_grad,
    reduction,
    logit_grad,
    label_grad,
) -> None:
    """Tangents of binary_cross_entropy_with_logits_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.binary_cross_entropy_with_logits_grad, (logit, label, weight, pos_weight, out_grad, reduction), (logit_grad, label_grad))


def l1_loss_grad(
    input,
    label,
    out_grad,
    reduction,
    input_grad,
    label_grad,
) -> None:
    """Tangents of l1_loss_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.l1_loss_grad, (input, label, out_grad, reduction), (input_grad, label_grad))


def smooth_l1_loss_grad(
    input,
    label,
    out_grad,
    reduction,
    delta,
    input_grad,
    label_grad,
) -> None:
    """Tangents of smooth_l1_loss_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.smooth_l1_loss_grad, (input, label, out_grad, reduction, delta), (input_grad, label_grad))


def kl_div_grad(
    input,
    label,
    out_grad,
    reduction,
    log_target,
    input_grad,
    label_grad,
) -> None:
    """Tangents of kl_div_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.kl_div_grad, (input, label, out_grad, reduction, log_target), (input_grad, label_grad))


def conv2d_grad(
    x,
    weight,
    bias,
    out_grad,
    stride,
    padding,
    dilation,
    groups,
    x_grad,
    weight_grad,
    bias_grad,
) -> None:
    """Tangents of conv2d_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.conv2d_grad, (x, weight, bias, out_grad, stride, padding, dilation, groups), (x_grad, weight_grad, bias_grad))


def conv3d_grad(
    x,
    weight,
    bias,
    out_grad,
    stride,
    padding,
    dilation,
    groups,
    x_grad,
    weight_grad,
    bias_grad,
) -> None:
    """Tangents of conv3d_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.conv3d_grad, (x, weight, bias, out_grad, stride, padding, dilation, groups), (x_grad, weight_grad, bias_grad))


def max_pool2d_grad(
    x,
    argmax,
    out_grad,
    kernel_size,
    stride,
    padding,
    x_grad,
) -> None:
    """Tangents of max_pool2d_grad, derived from its backward (row by row)."""
    derive(_grad_ops.max_pool2d_grad, (x, argmax, out_grad, kernel_size, stride, padding), (x_grad,), twice=False)


def max_pool2d_double_grad(
    argmax,
    x_grad_grad,
    kernel_size,
    stride,
    padding,
    grad_wrt_out_grad,
) -> None:
    """max_pool2d_double_grad has no backward: a tangent reaching it is an error."""
    no_tangent_rule("max_pool2d_double_grad", (argmax, x_grad_grad, kernel_size, stride, padding))


def avg_pool2d_grad(
    x,
    out_grad,
    kernel_size,
    stride,
    padding,
    x_grad,
) -> None:
    """Tangents of avg_pool2d_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.avg_pool2d_grad, (x, out_grad, kernel_size, stride, padding), (x_grad,))


def adaptive_avg_pool2d_grad(
    x,
    out_grad,
    output_size,
    x_grad,
) -> None:
    """Tangents of adaptive_avg_pool2d_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.adaptive_avg_pool2d_grad, (x, out_grad, output_size), (x_grad,))


def layer_norm_grad(
    x,
    weight,
    bias,
    mean,
    rstd,
    out_grad,
    normalized_shape,
    epsilon,
    x_grad,
    weight_grad,
    bias_grad,
) -> None:
    """Tangents of layer_norm_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.layer_norm_grad, (x, weight, bias, mean, rstd, out_grad, normalized_shape, epsilon), (x_grad, weight_grad, bias_grad))


def batch_norm_grad(
    x,
    weight,
    bias,
    saved_mean,
    saved_rstd,
    out_grad,
    training,
    momentum,
    epsilon,
    x_grad,
    weight_grad,
    bias_grad,
) -> None:
    """Tangents of batch_norm_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.batch_norm_grad, (x, weight, bias, saved_mean, saved_rstd, out_grad, training, momentum, epsilon), (x_grad, weight_grad, bias_grad))


def group_norm_grad(
    x,
    weight,
    bias,
    mean,
    rstd,
    out_grad,
    num_groups,
    epsilon,
    x_grad,
    weight_grad,
    bias_grad,
) -> None:
    """Tangents of group_norm_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.group_norm_grad, (x, weight, bias, mean, rstd, out_grad, num_groups, epsilon), (x_grad, weight_grad, bias_grad))


def linear_grad(
    x,
    weight,
    bias,
    out_grad,
    x_grad,
    weight_grad,
    bias_grad,
) -> None:
    """Tangents of linear_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.linear_grad, (x, weight, bias, out_grad), (x_grad, weight_grad, bias_grad))


def einsum_grad(
    x,
    y,
    out_grad,
    equation,
    x_grad,
    y_grad,
) -> None:
    """Tangents of einsum_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.einsum_grad, (x, y, out_grad, equation), (x_grad, y_grad))


def scaled_dot_product_attention_grad(
    query,
    key,
    value,
    mask,
    weights,
    keep,
    out_grad,
    dropout_p,
    causal,
    scale,
    query_grad,
    key_grad,
    value_grad,
    mask_grad,
) -> None:
    """Tangents of scaled_dot_product_attention_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.scaled_dot_product_attention_grad, (query, key, value, mask, weights, keep, out_grad, dropout_p, causal, scale), (query_grad, key_grad, value_grad, mask_grad))


def unfold_grad(
    x,
    out_grad,
    kernel_size,
    dilation,
    padding,
    stride,
    x_grad,
) -> None:
    """Tangents of unfold_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.unfold_grad, (x, out_grad, kernel_size, dilation, padding, stride), (x_grad,))


def fill_grad(
    x,
    out_grad,
    value,
    x_grad,
) -> None:
    """Tangents of fill_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.fill_grad, (x, out_grad, value), (x_grad,))


def zero_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of zero_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.zero_grad, (x, out_grad), (x_grad,))


def reduce_as_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of reduce_as_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.reduce_as_grad, (x, out_grad), (x_grad,))


def diagonal_grad(
    x,
    out_grad,
    offset,
    axis1,
    axis2,
    x_grad,
) -> None:
    """Tangents of diagonal_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.diagonal_grad, (x, out_grad, offset, axis1, axis2), (x_grad,))


def kron_grad(
    x,
    y,
    out_grad,
    x_grad,
    y_grad,
) -> None:
    """Tangents of kron_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.kron_grad, (x, y, out_grad), (x_grad, y_grad))


def real_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of real_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.real_grad, (x, out_grad), (x_grad,))


def imag_grad(
    x,
    out_grad,
    x_grad,
) -> None:
    """Tangents of imag_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.imag_grad, (x, out_grad), (x_grad,))


def fftn_grad(
    x,
    out_grad,
    s,
    axes,
    norm,
    x_grad,
) -> None:
    """Tangents of fftn_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.fftn_grad, (x, out_grad, s, axes, norm), (x_grad,))


def ifftn_grad(
    x,
    out_grad,
    s,
    axes,
    norm,
    x_grad,
) -> None:
    """Tangents of ifftn_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.ifftn_grad, (x, out_grad, s, axes, norm), (x_grad,))


def rfftn_grad(
    x,
    out_grad,
    s,
    axes,
    norm,
    x_grad,
) -> None:
    """Tangents of rfftn_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.rfftn_grad, (x, out_grad, s, axes, norm), (x_grad,))


def irfftn_grad(
    x,
    out_grad,
    s,
    axes,
    norm,
    x_grad,
) -> None:
    """Tangents of irfftn_grad, derived from its backward (double-vjp)."""
    derive(_grad_ops.irfftn_grad, (x, out_grad, s, axes, norm), (x_grad,))
