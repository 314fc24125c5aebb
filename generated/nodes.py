# @generated nodes from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Grad nodes: one GradNode subclass per backward.yaml entry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from opgrad.generated import grad_ops as _grad_ops
from opgrad.generated import ops as _ops
from opgrad.runtime import _accel
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.kernels.registry import (
    dispatch,
    kernel_error,
    kernel_results_error,
    kernel_table,
)
from opgrad.runtime.promotion import conj_if_complex
from opgrad.runtime.tensor import (
    Tensor,
    wrap,
)
from opgrad.runtime.tensor_wrapper import (
    Saved,
    unpack,
    unpack_data,
)

# Kernels called with one array: {array type -> kernel}, filled by dispatch (kernel_table).
_k_abs_grad = kernel_table("abs_grad")
_k_adaptive_avg_pool2d_grad = kernel_table("adaptive_avg_pool2d_grad")
_k_add_grad = kernel_table("add_grad")
_k_avg_pool2d_grad = kernel_table("avg_pool2d_grad")
_k_batch_norm_double_grad = kernel_table("batch_norm_double_grad")
_k_batch_norm_grad = kernel_table("batch_norm_grad")
_k_binary_cross_entropy_with_logits_double_grad = kernel_table("binary_cross_entropy_with_logits_double_grad")
_k_binary_cross_entropy_with_logits_grad = kernel_table("binary_cross_entropy_with_logits_grad")
_k_cast_grad = kernel_table("cast_grad")
_k_celu_grad = kernel_table("celu_grad")
_k_clip_grad = kernel_table("clip_grad")
_k_concat_grad = kernel_table("concat_grad")
_k_conv1d_grad = kernel_table("conv1d_grad")
_k_conv2d_grad = kernel_table("conv2d_grad")
_k_conv3d_grad = kernel_table("conv3d_grad")
_k_conv_transpose1d_grad = kernel_table("conv_transpose1d_grad")
_k_conv_transpose2d_grad = kernel_table("conv_transpose2d_grad")
_k_cos_grad = kernel_table("cos_grad")
_k_cross_entropy_double_grad = kernel_table("cross_entropy_double_grad")
_k_cross_entropy_grad_saved = kernel_table("cross_entropy_grad_saved")
_k_cumprod_double_grad = kernel_table("cumprod_double_grad")
_k_cumprod_grad = kernel_table("cumprod_grad")
_k_cumsum_grad = kernel_table("cumsum_grad")
_k_diagonal_grad = kernel_table("diagonal_grad")
_k_divide_grad = kernel_table("divide_grad")
_k_dropout_grad = kernel_table("dropout_grad")
_k_einsum_double_grad = kernel_table("einsum_double_grad")
_k_einsum_grad = kernel_table("einsum_grad")
_k_elementwise_pow_double_grad = kernel_table("elementwise_pow_double_grad")
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
_k_gelu_double_grad = kernel_table("gelu_double_grad")
_k_gelu_grad = kernel_table("gelu_grad")
_k_glu_double_grad = kernel_table("glu_double_grad")
_k_glu_grad = kernel_table("glu_grad")
_k_group_norm_double_grad = kernel_table("group_norm_double_grad")
_k_group_norm_grad = kernel_table("group_norm_grad")
_k_hardsigmoid_grad = kernel_table("hardsigmoid_grad")
_k_hardswish_grad = kernel_table("hardswish_grad")
_k_hardtanh_grad = kernel_table("hardtanh_grad")
_k_ifftn_grad = kernel_table("ifftn_grad")
_k_imag_grad = kernel_table("imag_grad")
_k_index_add_grad = kernel_table("index_add_grad")
_k_index_select_grad = kernel_table("index_select_grad")
_k_irfftn_grad = kernel_table("irfftn_grad")
_k_kl_div_double_grad = kernel_table("kl_div_double_grad")
_k_kl_div_grad = kernel_table("kl_div_grad")
_k_kron_grad = kernel_table("kron_grad")
_k_l1_loss_double_grad = kernel_table("l1_loss_double_grad")
_k_l1_loss_grad = kernel_table("l1_loss_grad")
_k_layer_norm_double_grad = kernel_table("layer_norm_double_grad")
_k_layer_norm_grad = kernel_table("layer_norm_grad")
_k_leaky_relu_grad = kernel_table("leaky_relu_grad")
_k_linear_grad = kernel_table("linear_grad")
_k_log1p_grad = kernel_table("log1p_grad")
_k_log_grad = kernel_table("log_grad")
_k_log_sigmoid_grad = kernel_table("log_sigmoid_grad")
_k_log_softmax_grad = kernel_table("log_softmax_grad")
_k_logcumsumexp_grad = kernel_table("logcumsumexp_grad")
_k_logsumexp_double_grad = kernel_table("logsumexp_double_grad")
_k_logsumexp_grad = kernel_table("logsumexp_grad")
_k_lstm_cell_grad = kernel_table("lstm_cell_grad")
_k_masked_fill_grad = kernel_table("masked_fill_grad")
_k_matmul_grad = kernel_table("matmul_grad")
_k_matrix_power_grad = kernel_table("matrix_power_grad")
_k_max_double_grad = kernel_table("max_double_grad")
_k_max_grad = kernel_table("max_grad")
_k_max_pool2d_double_grad = kernel_table("max_pool2d_double_grad")
_k_max_pool2d_grad = kernel_table("max_pool2d_grad")
_k_maximum_grad = kernel_table("maximum_grad")
_k_mean_grad = kernel_table("mean_grad")
_k_min_double_grad = kernel_table("min_double_grad")
_k_min_grad = kernel_table("min_grad")
_k_minimum_grad = kernel_table("minimum_grad")
_k_mish_double_grad = kernel_table("mish_double_grad")
_k_mish_grad = kernel_table("mish_grad")
_k_mse_loss_double_grad = kernel_table("mse_loss_double_grad")
_k_mse_loss_grad = kernel_table("mse_loss_grad")
_k_multiply_grad = kernel_table("multiply_grad")
_k_neg_grad = kernel_table("neg_grad")
_k_nll_loss_grad = kernel_table("nll_loss_grad")
_k_norm_double_grad = kernel_table("norm_double_grad")
_k_norm_grad = kernel_table("norm_grad")
_k_pad_grad = kernel_table("pad_grad")
_k_pow_double_grad = kernel_table("pow_double_grad")
_k_pow_grad = kernel_table("pow_grad")
_k_prelu_double_grad = kernel_table("prelu_double_grad")
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
_k_scaled_dot_product_attention_double_grad = kernel_table("scaled_dot_product_attention_double_grad")
_k_scaled_dot_product_attention_grad = kernel_table("scaled_dot_product_attention_grad")
_k_scatter_grad = kernel_table("scatter_grad")
_k_selu_grad = kernel_table("selu_grad")
_k_sigmoid_grad = kernel_table("sigmoid_grad")
_k_sign_grad = kernel_table("sign_grad")
_k_silu_double_grad = kernel_table("silu_double_grad")
_k_silu_grad = kernel_table("silu_grad")
_k_sin_grad = kernel_table("sin_grad")
_k_smooth_l1_loss_double_grad = kernel_table("smooth_l1_loss_double_grad")
_k_smooth_l1_loss_grad = kernel_table("smooth_l1_loss_grad")
_k_softmax_grad = kernel_table("softmax_grad")
_k_softplus_double_grad = kernel_table("softplus_double_grad")
_k_softplus_grad = kernel_table("softplus_grad")
_k_softsign_grad = kernel_table("softsign_grad")
_k_sort_grad = kernel_table("sort_grad")
_k_sqrt_grad = kernel_table("sqrt_grad")
_k_square_grad = kernel_table("square_grad")
_k_squeeze_grad = kernel_table("squeeze_grad")
_k_stack_grad = kernel_table("stack_grad")
_k_std_double_grad = kernel_table("std_double_grad")
_k_std_grad = kernel_table("std_grad")
_k_subtract_grad = kernel_table("subtract_grad")
_k_sum_grad = kernel_table("sum_grad")
_k_take_along_axis_grad = kernel_table("take_along_axis_grad")
_k_tanh_double_grad = kernel_table("tanh_double_grad")
_k_tanh_grad = kernel_table("tanh_grad")
_k_tanhshrink_grad = kernel_table("tanhshrink_grad")
_k_tile_grad = kernel_table("tile_grad")
_k_topk_grad = kernel_table("topk_grad")
_k_transpose_grad = kernel_table("transpose_grad")
_k_tril_grad = kernel_table("tril_grad")
_k_triu_grad = kernel_table("triu_grad")
_k_unfold_grad = kernel_table("unfold_grad")
_k_unsqueeze_grad = kernel_table("unsqueeze_grad")
_k_var_double_grad = kernel_table("var_double_grad")
_k_var_grad = kernel_table("var_grad")
_k_where_grad = kernel_table("where_grad")
_k_zero_grad = kernel_table("zero_grad")

__all__ = [
    "AbsDoubleGradNode",
    "AbsGradNode",
    "AcosGradNode",
    "AcoshGradNode",
    "AdaptiveAvgPool2dDoubleGradNode",
    "AdaptiveAvgPool2dGradNode",
    "AddDoubleGradNode",
    "AddGradNode",
    "AddcdivGradNode",
    "AddcmulGradNode",
    "AngleGradNode",
    "AsinGradNode",
    "AsinhGradNode",
    "Atan2GradNode",
    "AtanGradNode",
    "AtanhGradNode",
    "AvgPool2dDoubleGradNode",
    "AvgPool2dGradNode",
    "BatchNormDoubleGradNode",
    "BatchNormGradNode",
    "BinaryCrossEntropyWithLogitsDoubleGradNode",
    "BinaryCrossEntropyWithLogitsGradNode",
    "BmmGradNode",
    "CastDoubleGradNode",
    "CastGradNode",
    "CeilGradNode",
    "CeluDoubleGradNode",
    "CeluGradNode",
    "CholeskyGradNode",
    "CholeskySolveGradNode",
    "ClipDoubleGradNode",
    "ClipGradNode",
    "ComplexGradNode",
    "ConcatDoubleGradNode",
    "ConcatGradNode",
    "ConjGradNode",
    "Conv1dGradNode",
    "Conv2dDoubleGradNode",
    "Conv2dGradNode",
    "Conv3dDoubleGradNode",
    "Conv3dGradNode",
    "ConvTranspose1dGradNode",
    "ConvTranspose2dGradNode",
    "CopysignGradNode",
    "CosDoubleGradNode",
    "CosGradNode",
    "CoshGradNode",
    "CrossEntropyDoubleGradNode",
    "CrossEntropyGradNode",
    "CrossEntropyTripleGradNode",
    "CrossGradNode",
    "CummaxGradNode",
    "CumminGradNode",
    "CumprodDoubleGradNode",
    "CumprodGradNode",
    "CumsumDoubleGradNode",
    "CumsumGradNode",
    "Deg2radGradNode",
    "DetGradNode",
    "DiagEmbedGradNode",
    "DiagonalDoubleGradNode",
    "DiagonalGradNode",
    "DivideDoubleGradNode",
    "DivideGradNode",
    "DropoutDoubleGradNode",
    "DropoutGradNode",
    "EighGradNode",
    "EigvalshGradNode",
    "EinsumDoubleGradNode",
    "EinsumGradNode",
    "ElementwisePowDoubleGradNode",
    "ElementwisePowGradNode",
    "EluDoubleGradNode",
    "EluGradNode",
    "EmbeddingDoubleGradNode",
    "EmbeddingGradNode",
    "ErfDoubleGradNode",
    "ErfGradNode",
    "Exp2GradNode",
    "ExpDoubleGradNode",
    "ExpGradNode",
    "ExpandDoubleGradNode",
    "ExpandGradNode",
    "Expm1DoubleGradNode",
    "Expm1GradNode",
    "FftnDoubleGradNode",
    "FftnGradNode",
    "FillDoubleGradNode",
    "FillGradNode",
    "FlattenDoubleGradNode",
    "FlattenGradNode",
    "FlipDoubleGradNode",
    "FlipGradNode",
    "FloorGradNode",
    "FmodGradNode",
    "FoldGradNode",
    "FracGradNode",
    "GatherDoubleGradNode",
    "GatherGradNode",
    "GatherNdGradNode",
    "GeluDoubleGradNode",
    "GeluGradNode",
    "GluDoubleGradNode",
    "GluGradNode",
    "GroupNormDoubleGradNode",
    "GroupNormGradNode",
    "HardsigmoidDoubleGradNode",
    "HardsigmoidGradNode",
    "HardswishDoubleGradNode",
    "HardswishGradNode",
    "HardtanhDoubleGradNode",
    "HardtanhGradNode",
    "IfftnDoubleGradNode",
    "IfftnGradNode",
    "ImagDoubleGradNode",
    "ImagGradNode",
    "IndexAddDoubleGradNode",
    "IndexAddGradNode",
    "IndexGradNode",
    "IndexPutGradNode",
    "IndexSelectDoubleGradNode",
    "IndexSelectGradNode",
    "InvGradNode",
    "IrfftnDoubleGradNode",
    "IrfftnGradNode",
    "KlDivDoubleGradNode",
    "KlDivGradNode",
    "KronDoubleGradNode",
    "KronGradNode",
    "L1LossDoubleGradNode",
    "L1LossGradNode",
    "LayerNormDoubleGradNode",
    "LayerNormGradNode",
    "LeakyReluDoubleGradNode",
    "LeakyReluGradNode",
    "LerpGradNode",
    "LinearDoubleGradNode",
    "LinearGradNode",
    "Log10GradNode",
    "Log1pDoubleGradNode",
    "Log1pGradNode",
    "Log2GradNode",
    "LogDoubleGradNode",
    "LogGradNode",
    "LogSigmoidDoubleGradNode",
    "LogSigmoidGradNode",
    "LogSoftmaxDoubleGradNode",
    "LogSoftmaxGradNode",
    "Logaddexp2GradNode",
    "LogaddexpGradNode",
    "LogcumsumexpGradNode",
    "LogitGradNode",
    "LogsumexpDoubleGradNode",
    "LogsumexpGradNode",
    "LstmCellGradNode",
    "MaskedFillDoubleGradNode",
    "MaskedFillGradNode",
    "MatmulDoubleGradNode",
    "MatmulGradNode",
    "MatmulJvpGradNode",
    "MatmulXgGradNode",
    "MatmulYgGradNode",
    "MatrixExpGradNode",
    "MatrixPowerGradNode",
    "MatrixTransposeGradNode",
    "MaxDoubleGradNode",
    "MaxGradNode",
    "MaxPool2dDoubleGradNode",
    "MaxPool2dGradNode",
    "MaximumDoubleGradNode",
    "MaximumGradNode",
    "MeanDoubleGradNode",
    "MeanGradNode",
    "MinDoubleGradNode",
    "MinGradNode",
    "MinimumDoubleGradNode",
    "MinimumGradNode",
    "MishDoubleGradNode",
    "MishGradNode",
    "MseLossDoubleGradNode",
    "MseLossGradNode",
    "MultiplyDoubleGradNode",
    "MultiplyGradNode",
    "NanToNumGradNode",
    "NansumGradNode",
    "NarrowAsGradNode",
    "NegDoubleGradNode",
    "NegGradNode",
    "NllLossDoubleGradNode",
    "NllLossGradNode",
    "NormDoubleGradNode",
    "NormGradNode",
    "OuterGradNode",
    "PadAsGradNode",
    "PadDoubleGradNode",
    "PadGradNode",
    "PixelShuffleGradNode",
    "PixelUnshuffleGradNode",
    "PolarGradNode",
    "PowDoubleGradNode",
    "PowGradNode",
    "PreluDoubleGradNode",
    "PreluGradNode",
    "ProdDoubleGradNode",
    "ProdGradNode",
    "QrGradNode",
    "QrSquareBlockGradNode",
    "Rad2degGradNode",
    "RealDoubleGradNode",
    "RealGradNode",
    "ReciprocalDoubleGradNode",
    "ReciprocalGradNode",
    "ReduceAsDoubleGradNode",
    "ReduceAsGradNode",
    "ReluDoubleGradNode",
    "ReluGradNode",
    "RemainderGradNode",
    "RepeatInterleaveDoubleGradNode",
    "RepeatInterleaveGradNode",
    "ReshapeDoubleGradNode",
    "ReshapeGradNode",
    "RfftnDoubleGradNode",
    "RfftnGradNode",
    "RollDoubleGradNode",
    "RollGradNode",
    "RoundGradNode",
    "RsqrtDoubleGradNode",
    "RsqrtGradNode",
    "ScaleDoubleGradNode",
    "ScaleGradNode",
    "ScaledDotProductAttentionDoubleGradNode",
    "ScaledDotProductAttentionGradNode",
    "ScatterDoubleGradNode",
    "ScatterGradNode",
    "ScatterNdAddGradNode",
    "ScatterNdGradNode",
    "SeluDoubleGradNode",
    "SeluGradNode",
    "SigmoidDoubleGradNode",
    "SigmoidGradNode",
    "SignDoubleGradNode",
    "SignGradNode",
    "SiluDoubleGradNode",
    "SiluGradNode",
    "SinDoubleGradNode",
    "SinGradNode",
    "SinhGradNode",
    "SlogdetGradNode",
    "SmoothL1LossDoubleGradNode",
    "SmoothL1LossGradNode",
    "SoftmaxDoubleGradNode",
    "SoftmaxGradNode",
    "SoftmaxVjpDpGradNode",
    "SoftmaxVjpGradNode",
    "SoftplusDoubleGradNode",
    "SoftplusGradNode",
    "SoftsignDoubleGradNode",
    "SoftsignGradNode",
    "SolveGradNode",
    "SortDoubleGradNode",
    "SortGradNode",
    "SplitDoubleGradNode",
    "SplitGradNode",
    "SqrtDoubleGradNode",
    "SqrtGradNode",
    "SquareDoubleGradNode",
    "SquareGradNode",
    "SqueezeDoubleGradNode",
    "SqueezeGradNode",
    "StackDoubleGradNode",
    "StackGradNode",
    "StdDoubleGradNode",
    "StdGradNode",
    "SubtractDoubleGradNode",
    "SubtractGradNode",
    "SumDoubleGradNode",
    "SumGradNode",
    "SvdGradNode",
    "SvdvalsGradNode",
    "SwishDoubleGradNode",
    "SwishGradNode",
    "TakeAlongAxisDoubleGradNode",
    "TakeAlongAxisGradNode",
    "TanGradNode",
    "TanhDoubleGradNode",
    "TanhGradNode",
    "TanhshrinkDoubleGradNode",
    "TanhshrinkGradNode",
    "TileDoubleGradNode",
    "TileGradNode",
    "TopkDoubleGradNode",
    "TopkGradNode",
    "TraceGradNode",
    "TransposeDoubleGradNode",
    "TransposeGradNode",
    "TriangularSolveGradNode",
    "TrilDoubleGradNode",
    "TrilGradNode",
    "TriuDoubleGradNode",
    "TriuGradNode",
    "TruncGradNode",
    "UnfoldDoubleGradNode",
    "UnfoldGradNode",
    "UnsqueezeDoubleGradNode",
    "UnsqueezeGradNode",
    "VarDoubleGradNode",
    "VarGradNode",
    "ViewAsComplexGradNode",
    "ViewAsRealGradNode",
    "WhereDoubleGradNode",
    "WhereGradNode",
    "XlogyGradNode",
    "ZeroDoubleGradNode",
    "ZeroGradNode",
]


class NegGradNode(GradNode):
    """Gradient of neg."""

    __slots__ = ()
    name = "neg_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.neg_grad(out_grad)
            return (x_grad,)
        _kernel = _k_neg_grad.get(out_grad._data.__class__) or dispatch("neg_grad", "neg_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("neg_grad", _e) from None
        return (x_grad,)


class NegDoubleGradNode(GradNode):
    """Gradient of neg_grad (second-order gradient of neg)."""

    __slots__ = ()
    name = "neg_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_out_grad = -x_grad_grad
        return (grad_wrt_out_grad,)


class AbsGradNode(GradNode):
    """Gradient of abs."""

    __slots__ = ("x",)
    x: Saved
    name = "abs_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.abs_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_abs_grad.get(x.__class__)
            or dispatch("abs_grad", "abs_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("abs_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class AbsDoubleGradNode(GradNode):
    """Gradient of abs_grad (second-order gradient of abs)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "abs_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = out_grad * (x_grad_grad - _ops.real(conj_if_complex(x_grad_grad) * x) * x / (_ops.abs(x) * _ops.abs(x))) / _ops.abs(x) if x._data.dtype.kind == "c" else _ops.zero(x)
        grad_wrt_out_grad = _ops.real(x_grad_grad * conj_if_complex(x)) / _ops.abs(x) if x._data.dtype.kind == "c" else x_grad_grad * _ops.sign(x)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class SignGradNode(GradNode):
    """Gradient of sign."""

    __slots__ = ("x",)
    x: Saved
    name = "sign_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.sign_grad(x, out_grad)
            return (x_grad,)
        x = self.x
        _kernel = _k_sign_grad.get(out_grad._data.__class__) or dispatch("sign_grad", "sign_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sign_grad", _e) from None
        return (x_grad,)


class SignDoubleGradNode(GradNode):
    """Gradient of sign_grad (second-order gradient of sign)."""

    __slots__ = ()
    name = "sign_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_out_grad = 0 * x_grad_grad
        return (None, grad_wrt_out_grad)


class ExpGradNode(GradNode):
    """Gradient of exp."""

    __slots__ = ("out",)
    out: Saved
    name = "exp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.exp_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_exp_grad.get(out.__class__)
            or dispatch("exp_grad", "exp_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("exp_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class ExpDoubleGradNode(GradNode):
    """Gradient of exp_grad (second-order gradient of exp)."""

    __slots__ = ("out", "out_grad")
    out: Saved
    out_grad: Saved
    name = "exp_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_out = conj_if_complex(x_grad_grad) * out_grad
        grad_wrt_out_grad = x_grad_grad * out
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class Expm1GradNode(GradNode):
    """Gradient of expm1."""

    __slots__ = ("out",)
    out: Saved
    name = "expm1_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.expm1_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_expm1_grad.get(out.__class__)
            or dispatch("expm1_grad", "expm1_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("expm1_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class Expm1DoubleGradNode(GradNode):
    """Gradient of expm1_grad (second-order gradient of expm1)."""

    __slots__ = ("out", "out_grad")
    out: Saved
    out_grad: Saved
    name = "expm1_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_out = x_grad_grad * out_grad
        grad_wrt_out_grad = x_grad_grad * (out + 1)
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class LogGradNode(GradNode):
    """Gradient of log."""

    __slots__ = ("x",)
    x: Saved
    name = "log_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.log_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_log_grad.get(x.__class__)
            or dispatch("log_grad", "log_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("log_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class LogDoubleGradNode(GradNode):
    """Gradient of log_grad (second-order gradient of log)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "log_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = conj_if_complex(-x_grad_grad * conj_if_complex(out_grad) / (x * x))
        grad_wrt_out_grad = x_grad_grad / x
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class Log1pGradNode(GradNode):
    """Gradient of log1p."""

    __slots__ = ("x",)
    x: Saved
    name = "log1p_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.log1p_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_log1p_grad.get(x.__class__)
            or dispatch("log1p_grad", "log1p_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("log1p_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class Log1pDoubleGradNode(GradNode):
    """Gradient of log1p_grad (second-order gradient of log1p)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "log1p_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = -x_grad_grad * out_grad / ((x + 1) * (x + 1))
        grad_wrt_out_grad = x_grad_grad / (x + 1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class SqrtGradNode(GradNode):
    """Gradient of sqrt."""

    __slots__ = ("out",)
    out: Saved
    name = "sqrt_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.sqrt_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_sqrt_grad.get(out.__class__)
            or dispatch("sqrt_grad", "sqrt_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sqrt_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class SqrtDoubleGradNode(GradNode):
    """Gradient of sqrt_grad (second-order gradient of sqrt)."""

    __slots__ = ("out", "out_grad")
    out: Saved
    out_grad: Saved
    name = "sqrt_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_out = conj_if_complex(-0.5 * x_grad_grad * conj_if_complex(out_grad) / (out * out))
        grad_wrt_out_grad = 0.5 * x_grad_grad / out
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class RsqrtGradNode(GradNode):
    """Gradient of rsqrt."""

    __slots__ = ("out",)
    out: Saved
    name = "rsqrt_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.rsqrt_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_rsqrt_grad.get(out.__class__)
            or dispatch("rsqrt_grad", "rsqrt_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("rsqrt_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class RsqrtDoubleGradNode(GradNode):
    """Gradient of rsqrt_grad (second-order gradient of rsqrt)."""

    __slots__ = ("out", "out_grad")
    out: Saved
    out_grad: Saved
    name = "rsqrt_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_out = -1.5 * x_grad_grad * out_grad * out * out
        grad_wrt_out_grad = -0.5 * x_grad_grad * out * out * out
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class SquareGradNode(GradNode):
    """Gradient of square."""

    __slots__ = ("x",)
    x: Saved
    name = "square_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.square_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_square_grad.get(x.__class__)
            or dispatch("square_grad", "square_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("square_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SquareDoubleGradNode(GradNode):
    """Gradient of square_grad (second-order gradient of square)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "square_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = 2 * conj_if_complex(x_grad_grad) * out_grad
        grad_wrt_out_grad = 2 * x_grad_grad * x
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class ReciprocalGradNode(GradNode):
    """Gradient of reciprocal."""

    __slots__ = ("out",)
    out: Saved
    name = "reciprocal_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.reciprocal_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_reciprocal_grad.get(out.__class__)
            or dispatch("reciprocal_grad", "reciprocal_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("reciprocal_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class ReciprocalDoubleGradNode(GradNode):
    """Gradient of reciprocal_grad (second-order gradient of reciprocal)."""

    __slots__ = ("out", "out_grad")
    out: Saved
    out_grad: Saved
    name = "reciprocal_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_out = conj_if_complex(-2 * x_grad_grad * conj_if_complex(out_grad) * out)
        grad_wrt_out_grad = -x_grad_grad * out * out
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class SinGradNode(GradNode):
    """Gradient of sin."""

    __slots__ = ("x",)
    x: Saved
    name = "sin_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.sin_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_sin_grad.get(x.__class__)
            or dispatch("sin_grad", "sin_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sin_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SinDoubleGradNode(GradNode):
    """Gradient of sin_grad (second-order gradient of sin)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "sin_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = conj_if_complex(-x_grad_grad * conj_if_complex(out_grad) * _ops.sin(x))
        grad_wrt_out_grad = x_grad_grad * _ops.cos(x)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class CosGradNode(GradNode):
    """Gradient of cos."""

    __slots__ = ("x",)
    x: Saved
    name = "cos_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.cos_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_cos_grad.get(x.__class__)
            or dispatch("cos_grad", "cos_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("cos_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class CosDoubleGradNode(GradNode):
    """Gradient of cos_grad (second-order gradient of cos)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "cos_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = conj_if_complex(-x_grad_grad * conj_if_complex(out_grad) * _ops.cos(x))
        grad_wrt_out_grad = -x_grad_grad * _ops.sin(x)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class TanhGradNode(GradNode):
    """Gradient of tanh."""

    __slots__ = ("out",)
    out: Saved
    name = "tanh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.tanh_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_tanh_grad.get(out.__class__)
            or dispatch("tanh_grad", "tanh_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("tanh_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class TanhDoubleGradNode(GradNode):
    """Gradient of tanh_grad (second-order gradient of tanh)."""

    __slots__ = ("out", "out_grad")
    out: Saved
    out_grad: Saved
    name = "tanh_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_out: Tensor | None
        grad_wrt_out_grad: Tensor | None
        if create_graph:
            out = unpack(self.out, self)
            out_grad = unpack(self.out_grad, self)
            grad_wrt_out = conj_if_complex(-2 * x_grad_grad * conj_if_complex(out_grad) * out)
            grad_wrt_out_grad = x_grad_grad * (1 - out * out)
            return (grad_wrt_out, grad_wrt_out_grad)
        out = unpack_data(self.out, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            out.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_tanh_double_grad.get(out.__class__)
            or dispatch(
                "tanh_double_grad",
                "tanh_double_grad",
                out,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                out,
                out_grad,
                x_grad_grad._data,
                (self._next0 is not None, self._next1 is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("tanh_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("tanh_double_grad", 2, _results) from None
        grad_wrt_out = None if _r0 is None else wrap(_r0)
        grad_wrt_out_grad = None if _r1 is None else wrap(_r1)
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class SigmoidGradNode(GradNode):
    """Gradient of sigmoid."""

    __slots__ = ("out",)
    out: Saved
    name = "sigmoid_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.sigmoid_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_sigmoid_grad.get(out.__class__)
            or dispatch("sigmoid_grad", "sigmoid_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sigmoid_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class SigmoidDoubleGradNode(GradNode):
    """Gradient of sigmoid_grad (second-order gradient of sigmoid)."""

    __slots__ = ("out", "out_grad")
    out: Saved
    out_grad: Saved
    name = "sigmoid_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_out = conj_if_complex(x_grad_grad * conj_if_complex(out_grad) * (1 - 2 * out))
        grad_wrt_out_grad = x_grad_grad * out * (1 - out)
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class ReluGradNode(GradNode):
    """Gradient of relu."""

    __slots__ = ("out",)
    out: Saved
    name = "relu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.relu_grad(out, out_grad)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_relu_grad.get(out.__class__)
            or dispatch("relu_grad", "relu_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("relu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class ReluDoubleGradNode(GradNode):
    """Gradient of relu_grad (second-order gradient of relu)."""

    __slots__ = ("out",)
    out: Saved
    name = "relu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        grad_wrt_out_grad = x_grad_grad * (out > 0)
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class GeluGradNode(GradNode):
    """Gradient of gelu."""

    __slots__ = ("x", "approximate")
    x: Saved
    approximate: bool
    name = "gelu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.gelu_grad(x, out_grad, self.approximate)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_gelu_grad.get(x.__class__)
            or dispatch("gelu_grad", "gelu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.approximate))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("gelu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class GeluDoubleGradNode(GradNode):
    """Gradient of gelu_grad (second-order gradient of gelu)."""

    __slots__ = ("x", "out_grad", "approximate")
    x: Saved
    out_grad: Saved
    approximate: bool
    name = "gelu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            approximate = self.approximate
            pdf = 0.3989422804014327 * _ops.exp(-0.5 * x * x)
            t = _ops.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))
            du = 0.7978845608028654 * (1 + 0.134145 * x * x)
            tanh_form = (1 - t * t) * (du + 0.5 * x * (0.21406444881780076 * x - 2 * t * du * du))
            grad_wrt_x = x_grad_grad * out_grad * (tanh_form if approximate else pdf * (2 - x * x))
            grad_wrt_out_grad = _grad_ops.gelu_grad(x, x_grad_grad, approximate)
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_gelu_double_grad.get(x.__class__)
            or dispatch(
                "gelu_double_grad",
                "gelu_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
                self.approximate,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("gelu_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("gelu_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class SiluGradNode(GradNode):
    """Gradient of silu."""

    __slots__ = ("x",)
    x: Saved
    name = "silu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.silu_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_silu_grad.get(x.__class__)
            or dispatch("silu_grad", "silu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("silu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SiluDoubleGradNode(GradNode):
    """Gradient of silu_grad (second-order gradient of silu)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "silu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            s = _ops.sigmoid(x)
            grad_wrt_x = x_grad_grad * out_grad * s * (1 - s) * (2 + x * (1 - 2 * s))
            grad_wrt_out_grad = _grad_ops.silu_grad(x, x_grad_grad)
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_silu_double_grad.get(x.__class__)
            or dispatch(
                "silu_double_grad",
                "silu_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("silu_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("silu_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class SoftplusGradNode(GradNode):
    """Gradient of softplus."""

    __slots__ = ("x", "beta", "threshold")
    x: Saved
    beta: float
    threshold: float
    name = "softplus_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.softplus_grad(x, out_grad, self.beta, self.threshold)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_softplus_grad.get(x.__class__)
            or dispatch("softplus_grad", "softplus_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.beta, self.threshold))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("softplus_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SoftplusDoubleGradNode(GradNode):
    """Gradient of softplus_grad (second-order gradient of softplus)."""

    __slots__ = ("x", "out_grad", "beta", "threshold")
    x: Saved
    out_grad: Saved
    beta: float
    threshold: float
    name = "softplus_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            beta = self.beta
            threshold = self.threshold
            s = _ops.sigmoid(beta * x)
            grad_wrt_x = _ops.where(beta * x > threshold, 0 * x, x_grad_grad * out_grad * beta * s * (1 - s))
            grad_wrt_out_grad = _grad_ops.softplus_grad(x, x_grad_grad, beta, threshold)
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_softplus_double_grad.get(x.__class__)
            or dispatch(
                "softplus_double_grad",
                "softplus_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
                self.beta,
                self.threshold,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("softplus_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("softplus_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class LeakyReluGradNode(GradNode):
    """Gradient of leaky_relu."""

    __slots__ = ("x", "negative_slope")
    x: Saved
    negative_slope: float
    name = "leaky_relu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.leaky_relu_grad(x, out_grad, self.negative_slope)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_leaky_relu_grad.get(x.__class__)
            or dispatch("leaky_relu_grad", "leaky_relu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.negative_slope))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("leaky_relu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class LeakyReluDoubleGradNode(GradNode):
    """Gradient of leaky_relu_grad (second-order gradient of leaky_relu)."""

    __slots__ = ("x", "negative_slope")
    x: Saved
    negative_slope: float
    name = "leaky_relu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        negative_slope = self.negative_slope
        grad_wrt_out_grad = _ops.where(x > 0, x_grad_grad, x_grad_grad * negative_slope)
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class EluGradNode(GradNode):
    """Gradient of elu."""

    __slots__ = ("x", "alpha")
    x: Saved
    alpha: float
    name = "elu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.elu_grad(x, out_grad, self.alpha)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_elu_grad.get(x.__class__)
            or dispatch("elu_grad", "elu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.alpha))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("elu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class EluDoubleGradNode(GradNode):
    """Gradient of elu_grad (second-order gradient of elu)."""

    __slots__ = ("x", "out_grad", "alpha")
    x: Saved
    out_grad: Saved
    alpha: float
    name = "elu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        alpha = self.alpha
        grad_wrt_x = x_grad_grad * out_grad * alpha * _ops.exp(_ops.clip(x, max=0.0)) * (x <= 0)
        grad_wrt_out_grad = x_grad_grad * _ops.where(x > 0, 1.0, alpha * _ops.exp(_ops.clip(x, max=0.0)))
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class ErfGradNode(GradNode):
    """Gradient of erf."""

    __slots__ = ("x",)
    x: Saved
    name = "erf_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.erf_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_erf_grad.get(x.__class__)
            or dispatch("erf_grad", "erf_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("erf_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ErfDoubleGradNode(GradNode):
    """Gradient of erf_grad (second-order gradient of erf)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "erf_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = -2.256758334191025 * x * x_grad_grad * out_grad * _ops.exp(-x * x)
        grad_wrt_out_grad = 1.1283791670955126 * x_grad_grad * _ops.exp(-x * x)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class ScaleGradNode(GradNode):
    """Gradient of scale."""

    __slots__ = ("scale", "bias")
    scale: float
    bias: float
    name = "scale_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.scale_grad(out_grad, self.scale, self.bias)
            return (x_grad,)
        _kernel = _k_scale_grad.get(out_grad._data.__class__) or dispatch("scale_grad", "scale_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(out_grad._data, self.scale, self.bias))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("scale_grad", _e) from None
        return (x_grad,)


class ScaleDoubleGradNode(GradNode):
    """Gradient of scale_grad (second-order gradient of scale)."""

    __slots__ = ("scale", "bias")
    scale: float
    bias: float
    name = "scale_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        scale = self.scale
        grad_wrt_out_grad = x_grad_grad * scale
        return (grad_wrt_out_grad,)


class PowGradNode(GradNode):
    """Gradient of pow."""

    __slots__ = ("x", "y")
    x: Saved
    y: float
    name = "pow_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.pow_grad(x, out_grad, self.y)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_pow_grad.get(x.__class__)
            or dispatch("pow_grad", "pow_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.y))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("pow_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class PowDoubleGradNode(GradNode):
    """Gradient of pow_grad (second-order gradient of pow)."""

    __slots__ = ("x", "out_grad", "y")
    x: Saved
    out_grad: Saved
    y: float
    name = "pow_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_x: Tensor | None
        grad_wrt_out_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            y = self.y
            grad_wrt_x = conj_if_complex(x_grad_grad * conj_if_complex(out_grad) * (y * (y - 1)) * _ops.pow(x, y - 2))
            grad_wrt_out_grad = x_grad_grad * y * _ops.pow(x, y - 1)
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_pow_double_grad.get(x.__class__)
            or dispatch(
                "pow_double_grad",
                "pow_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
                self.y,
                (self._next0 is not None, self._next1 is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("pow_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("pow_double_grad", 2, _results) from None
        grad_wrt_x = None if _r0 is None else wrap(_r0)
        grad_wrt_out_grad = None if _r1 is None else wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class ClipGradNode(GradNode):
    """Gradient of clip."""

    __slots__ = ("x", "min", "max")
    x: Saved
    min: float | None
    max: float | None
    name = "clip_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.clip_grad(x, out_grad, self.min, self.max)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_clip_grad.get(x.__class__)
            or dispatch("clip_grad", "clip_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.min, self.max))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("clip_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ClipDoubleGradNode(GradNode):
    """Gradient of clip_grad (second-order gradient of clip)."""

    __slots__ = ("x", "min", "max")
    x: Saved
    min: float | None
    max: float | None
    name = "clip_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        min = self.min
        max = self.max
        grad_wrt_out_grad = x_grad_grad * (_ops.clip(x, min, max) == x)
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class CastGradNode(GradNode):
    """Gradient of cast."""

    __slots__ = ("x", "dtype")
    x: Saved
    dtype: Any
    name = "cast_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.cast_grad(x, out_grad, self.dtype)
            return (x_grad,)
        x = self.x
        _kernel = _k_cast_grad.get(out_grad._data.__class__) or dispatch("cast_grad", "cast_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.dtype))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("cast_grad", _e) from None
        return (x_grad,)


class CastDoubleGradNode(GradNode):
    """Gradient of cast_grad (second-order gradient of cast)."""

    __slots__ = ("dtype",)
    dtype: Any
    name = "cast_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        dtype = self.dtype
        grad_wrt_out_grad = _ops.cast(x_grad_grad, dtype)
        return (None, grad_wrt_out_grad)


class HardtanhGradNode(GradNode):
    """Gradient of hardtanh."""

    __slots__ = ("x", "min", "max")
    x: Saved
    min: float
    max: float
    name = "hardtanh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.hardtanh_grad(x, out_grad, self.min, self.max)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_hardtanh_grad.get(x.__class__)
            or dispatch("hardtanh_grad", "hardtanh_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.min, self.max))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("hardtanh_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class HardtanhDoubleGradNode(GradNode):
    """Gradient of hardtanh_grad (second-order gradient of hardtanh)."""

    __slots__ = ("x", "min", "max")
    x: Saved
    min: float
    max: float
    name = "hardtanh_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        min = self.min
        max = self.max
        grad_wrt_out_grad = x_grad_grad * (x > min) * (x < max)
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class HardswishGradNode(GradNode):
    """Gradient of hardswish."""

    __slots__ = ("x",)
    x: Saved
    name = "hardswish_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.hardswish_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_hardswish_grad.get(x.__class__)
            or dispatch("hardswish_grad", "hardswish_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("hardswish_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class HardswishDoubleGradNode(GradNode):
    """Gradient of hardswish_grad (second-order gradient of hardswish)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "hardswish_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = x_grad_grad * out_grad * (x >= -3) * (x <= 3) / 3
        grad_wrt_out_grad = x_grad_grad * _ops.where(x < -3, 0.0, _ops.where(x > 3, 1.0, (2 * x + 3) / 6))
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class HardsigmoidGradNode(GradNode):
    """Gradient of hardsigmoid."""

    __slots__ = ("x",)
    x: Saved
    name = "hardsigmoid_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.hardsigmoid_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_hardsigmoid_grad.get(x.__class__)
            or dispatch("hardsigmoid_grad", "hardsigmoid_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("hardsigmoid_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class HardsigmoidDoubleGradNode(GradNode):
    """Gradient of hardsigmoid_grad (second-order gradient of hardsigmoid)."""

    __slots__ = ("x",)
    x: Saved
    name = "hardsigmoid_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        grad_wrt_out_grad = x_grad_grad * (x > -3) * (x < 3) / 6
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class MishGradNode(GradNode):
    """Gradient of mish."""

    __slots__ = ("x",)
    x: Saved
    name = "mish_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.mish_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_mish_grad.get(x.__class__)
            or dispatch("mish_grad", "mish_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("mish_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class MishDoubleGradNode(GradNode):
    """Gradient of mish_grad (second-order gradient of mish)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "mish_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            t = _ops.tanh(_ops.softplus(x))
            s = _ops.sigmoid(x)
            grad_wrt_x = x_grad_grad * out_grad * (1 - t * t) * s * (2 + x * (1 - s) - 2 * x * t * s)
            grad_wrt_out_grad = _grad_ops.mish_grad(x, x_grad_grad)
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_mish_double_grad.get(x.__class__)
            or dispatch(
                "mish_double_grad",
                "mish_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("mish_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("mish_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class LogSigmoidGradNode(GradNode):
    """Gradient of log_sigmoid."""

    __slots__ = ("x",)
    x: Saved
    name = "log_sigmoid_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.log_sigmoid_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_log_sigmoid_grad.get(x.__class__)
            or dispatch("log_sigmoid_grad", "log_sigmoid_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("log_sigmoid_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class LogSigmoidDoubleGradNode(GradNode):
    """Gradient of log_sigmoid_grad (second-order gradient of log_sigmoid)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "log_sigmoid_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = -x_grad_grad * out_grad * _ops.sigmoid(x) * _ops.sigmoid(-x)
        grad_wrt_out_grad = x_grad_grad * _ops.sigmoid(-x)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class SwishGradNode(GradNode):
    """Gradient of swish."""

    __slots__ = ("x",)
    x: Saved
    name = "swish_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.swish_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_silu_grad.get(x.__class__)
            or dispatch("swish_grad", "silu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("swish_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SwishDoubleGradNode(GradNode):
    """Gradient of swish_grad (second-order gradient of swish)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "swish_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            s = _ops.sigmoid(x)
            grad_wrt_x = x_grad_grad * out_grad * s * (1 - s) * (2 + x * (1 - 2 * s))
            grad_wrt_out_grad = _grad_ops.swish_grad(x, x_grad_grad)
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_silu_double_grad.get(x.__class__)
            or dispatch(
                "swish_double_grad",
                "silu_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("swish_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("swish_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class SeluGradNode(GradNode):
    """Gradient of selu."""

    __slots__ = ("x", "scale", "alpha")
    x: Saved
    scale: float
    alpha: float
    name = "selu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.selu_grad(x, out_grad, self.scale, self.alpha)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_selu_grad.get(x.__class__)
            or dispatch("selu_grad", "selu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.scale, self.alpha))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("selu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SeluDoubleGradNode(GradNode):
    """Gradient of selu_grad (second-order gradient of selu)."""

    __slots__ = ("x", "out_grad", "scale", "alpha")
    x: Saved
    out_grad: Saved
    scale: float
    alpha: float
    name = "selu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        scale = self.scale
        alpha = self.alpha
        grad_wrt_x = x_grad_grad * out_grad * scale * alpha * _ops.exp(_ops.clip(x, max=0.0)) * (x <= 0)
        grad_wrt_out_grad = x_grad_grad * scale * _ops.where(x > 0, 1.0, alpha * _ops.exp(-_ops.relu(-x)))
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class CeluGradNode(GradNode):
    """Gradient of celu."""

    __slots__ = ("x", "alpha")
    x: Saved
    alpha: float
    name = "celu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.celu_grad(x, out_grad, self.alpha)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_celu_grad.get(x.__class__)
            or dispatch("celu_grad", "celu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.alpha))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("celu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class CeluDoubleGradNode(GradNode):
    """Gradient of celu_grad (second-order gradient of celu)."""

    __slots__ = ("x", "out_grad", "alpha")
    x: Saved
    out_grad: Saved
    alpha: float
    name = "celu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        alpha = self.alpha
        grad_wrt_x = x_grad_grad * out_grad * _ops.exp(_ops.clip(x, max=0.0) / alpha) / alpha * (x <= 0)
        grad_wrt_out_grad = x_grad_grad * _ops.where(x > 0, 1.0, _ops.exp(_ops.clip(x, max=0.0) / alpha))
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class SoftsignGradNode(GradNode):
    """Gradient of softsign."""

    __slots__ = ("x",)
    x: Saved
    name = "softsign_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.softsign_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_softsign_grad.get(x.__class__)
            or dispatch("softsign_grad", "softsign_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("softsign_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SoftsignDoubleGradNode(GradNode):
    """Gradient of softsign_grad (second-order gradient of softsign)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "softsign_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = -2 * x_grad_grad * out_grad * _ops.sign(x) / (1 + _ops.abs(x)) ** 3
        grad_wrt_out_grad = x_grad_grad / ((1 + _ops.abs(x)) * (1 + _ops.abs(x)))
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class TanhshrinkGradNode(GradNode):
    """Gradient of tanhshrink."""

    __slots__ = ("x",)
    x: Saved
    name = "tanhshrink_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.tanhshrink_grad(x, out_grad)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_tanhshrink_grad.get(x.__class__)
            or dispatch("tanhshrink_grad", "tanhshrink_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("tanhshrink_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class TanhshrinkDoubleGradNode(GradNode):
    """Gradient of tanhshrink_grad (second-order gradient of tanhshrink)."""

    __slots__ = ("x", "out_grad")
    x: Saved
    out_grad: Saved
    name = "tanhshrink_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        x = unpack(self.x, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = 2 * x_grad_grad * out_grad * _ops.tanh(x) * (1 - _ops.tanh(x) * _ops.tanh(x))
        grad_wrt_out_grad = x_grad_grad * _ops.tanh(x) * _ops.tanh(x)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class AddGradNode(GradNode):
    """Gradient of add."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "add_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        y_grad: Tensor | None
        if create_graph:
            x = self.x
            y = self.y
            x_grad, y_grad = _grad_ops.add_grad(x, y, out_grad)
            return (x_grad, y_grad)
        x = self.x
        y = self.y
        _kernel = _k_add_grad.get(out_grad._data.__class__) or dispatch("add_grad", "add_grad", out_grad._data)
        try:
            _results = _kernel(x, y, out_grad._data, (self._next0 is not None, self._next1 is not None))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("add_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("add_grad", 2, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        y_grad = None if _r1 is None else wrap(_r1)
        return (x_grad, y_grad)


class AddDoubleGradNode(GradNode):
    """Gradient of add_grad (second-order gradient of add)."""

    __slots__ = ()
    name = "add_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        grad_wrt_out_grad = x_grad_grad + y_grad_grad
        return (None, None, grad_wrt_out_grad)


class SubtractGradNode(GradNode):
    """Gradient of subtract."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "subtract_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        y_grad: Tensor | None
        if create_graph:
            x = self.x
            y = self.y
            x_grad, y_grad = _grad_ops.subtract_grad(x, y, out_grad)
            return (x_grad, y_grad)
        x = self.x
        y = self.y
        _kernel = _k_subtract_grad.get(out_grad._data.__class__) or dispatch("subtract_grad", "subtract_grad", out_grad._data)
        try:
            _results = _kernel(x, y, out_grad._data, (self._next0 is not None, self._next1 is not None))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("subtract_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("subtract_grad", 2, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        y_grad = None if _r1 is None else wrap(_r1)
        return (x_grad, y_grad)


class SubtractDoubleGradNode(GradNode):
    """Gradient of subtract_grad (second-order gradient of subtract)."""

    __slots__ = ()
    name = "subtract_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        grad_wrt_out_grad = x_grad_grad - y_grad_grad
        return (None, None, grad_wrt_out_grad)


class MultiplyGradNode(GradNode):
    """Gradient of multiply."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "multiply_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        y_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            x_grad, y_grad = _grad_ops.multiply_grad(x, y, out_grad)
            return (x_grad, y_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad._data.__class__
            and _k_multiply_grad.get(x.__class__)
            or dispatch(
                "multiply_grad",
                "multiply_grad",
                x,
                y,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
                out_grad._data,
                (self._next0 is not None, self._next1 is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("multiply_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("multiply_grad", 2, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        y_grad = None if _r1 is None else wrap(_r1)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class MultiplyDoubleGradNode(GradNode):
    """Gradient of multiply_grad (second-order gradient of multiply)."""

    __slots__ = ("x", "y", "out_grad")
    x: Saved
    y: Saved
    out_grad: Saved
    name = "multiply_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = _ops.reduce_as(conj_if_complex(y_grad_grad) * out_grad, x)
        grad_wrt_y = _ops.reduce_as(conj_if_complex(x_grad_grad) * out_grad, y)
        grad_wrt_out_grad = x_grad_grad * y + x * y_grad_grad
        return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out_grad = None
        self._released = True


class DivideGradNode(GradNode):
    """Gradient of divide."""

    __slots__ = ("x", "y", "out")
    x: Saved
    y: Saved
    out: Saved
    name = "divide_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        y_grad: Tensor | None
        if create_graph:
            x = self.x
            y = unpack(self.y, self)
            out = unpack(self.out, self)
            x_grad, y_grad = _grad_ops.divide_grad(x, y, out, out_grad)
            return (x_grad, y_grad)
        x = self.x
        y = unpack_data(self.y, self)
        out = unpack_data(self.out, self)
        _kernel = (
            y.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_divide_grad.get(y.__class__)
            or dispatch(
                "divide_grad",
                "divide_grad",
                y,
                out,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
                out,
                out_grad._data,
                (self._next0 is not None, self._next1 is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("divide_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("divide_grad", 2, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        y_grad = None if _r1 is None else wrap(_r1)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.y = None
        self.out = None
        self._released = True


class DivideDoubleGradNode(GradNode):
    """Gradient of divide_grad (second-order gradient of divide)."""

    __slots__ = ("y", "out", "out_grad")
    y: Saved
    out: Saved
    out_grad: Saved
    name = "divide_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        y = unpack(self.y, self)
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_y = conj_if_complex(_ops.reduce_as(-conj_if_complex(out_grad) * (x_grad_grad - out * y_grad_grad) / (y * y), y))
        grad_wrt_out = conj_if_complex(-conj_if_complex(out_grad) * y_grad_grad / y)
        grad_wrt_out_grad = (x_grad_grad - out * y_grad_grad) / y
        return (None, grad_wrt_y, grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.y = None
        self.out = None
        self.out_grad = None
        self._released = True


class MaximumGradNode(GradNode):
    """Gradient of maximum."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "maximum_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            x_grad, y_grad = _grad_ops.maximum_grad(x, y, out_grad)
            return (x_grad, y_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad._data.__class__
            and _k_maximum_grad.get(x.__class__)
            or dispatch(
                "maximum_grad",
                "maximum_grad",
                x,
                y,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
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
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class MaximumDoubleGradNode(GradNode):
    """Gradient of maximum_grad (second-order gradient of maximum)."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "maximum_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        grad_wrt_out_grad = y_grad_grad + (x_grad_grad - y_grad_grad) * (0.5 + 0.5 * _ops.sign(x - y))
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class MinimumGradNode(GradNode):
    """Gradient of minimum."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "minimum_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            x_grad, y_grad = _grad_ops.minimum_grad(x, y, out_grad)
            return (x_grad, y_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad._data.__class__
            and _k_minimum_grad.get(x.__class__)
            or dispatch(
                "minimum_grad",
                "minimum_grad",
                x,
                y,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
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
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class MinimumDoubleGradNode(GradNode):
    """Gradient of minimum_grad (second-order gradient of minimum)."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "minimum_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        grad_wrt_out_grad = y_grad_grad + (x_grad_grad - y_grad_grad) * (0.5 + 0.5 * _ops.sign(y - x))
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class ElementwisePowGradNode(GradNode):
    """Gradient of elementwise_pow."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "elementwise_pow_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            x_grad, y_grad = _grad_ops.elementwise_pow_grad(x, y, out_grad)
            return (x_grad, y_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad._data.__class__
            and _k_elementwise_pow_grad.get(x.__class__)
            or dispatch(
                "elementwise_pow_grad",
                "elementwise_pow_grad",
                x,
                y,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
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
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class ElementwisePowDoubleGradNode(GradNode):
    """Gradient of elementwise_pow_grad (second-order gradient of elementwise_pow)."""

    __slots__ = ("x", "y", "out_grad")
    x: Saved
    y: Saved
    out_grad: Saved
    name = "elementwise_pow_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            out_grad = unpack(self.out_grad, self)
            log_x = _ops.log(x) if x._data.dtype.kind == "c" else _ops.log(_ops.where(x > 0, x, 1.0))
            d_y = _ops.elementwise_pow(x, y + _ops.zero(out_grad)) * log_x if x._data.dtype.kind == "c" else _grad_ops.elementwise_pow_grad(x, y + _ops.zero(out_grad), _ops.fill(out_grad, 1.0))[1]
            d_xx = y * (y - 1) * _ops.elementwise_pow(x, y - 2)
            d_xy = _ops.elementwise_pow(x, y - 1) * (1 + y * log_x) if x._data.dtype.kind == "c" else _ops.where(x > 0, _ops.elementwise_pow(x, y - 1) * (1 + y * log_x), d_y)
            d_yy = d_y * log_x if x._data.dtype.kind == "c" else _ops.where(x > 0, d_y * log_x, d_y)
            grad_wrt_x = _ops.reduce_as(out_grad * conj_if_complex(x_grad_grad * d_xx + y_grad_grad * d_xy), x)
            grad_wrt_y = _ops.reduce_as(out_grad * conj_if_complex(x_grad_grad * d_xy + y_grad_grad * d_yy), y)
            grad_wrt_out_grad = _ops.reduce_as(x_grad_grad * (y * _ops.elementwise_pow(x, y - 1)) + y_grad_grad * d_y, out_grad)
            return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            is y_grad_grad._data.__class__
            and _k_elementwise_pow_double_grad.get(x.__class__)
            or dispatch(
                "elementwise_pow_double_grad",
                "elementwise_pow_double_grad",
                x,
                y,
                out_grad,
                x_grad_grad._data,
                y_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
                out_grad,
                x_grad_grad._data,
                y_grad_grad._data,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("elementwise_pow_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("elementwise_pow_double_grad", 3, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_y = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out_grad = None
        self._released = True


class WhereGradNode(GradNode):
    """Gradient of where."""

    __slots__ = ("condition", "x", "y")
    condition: Saved
    x: Saved
    y: Saved
    name = "where_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            condition = unpack(self.condition, self)
            x = self.x
            y = self.y
            x_grad, y_grad = _grad_ops.where_grad(condition, x, y, out_grad)
            return (None, x_grad, y_grad)
        condition = unpack_data(self.condition, self)
        x = self.x
        y = self.y
        _kernel = (
            condition.__class__
            is out_grad._data.__class__
            and _k_where_grad.get(condition.__class__)
            or dispatch("where_grad", "where_grad", condition, out_grad._data)
        )
        try:
            _results = _kernel(condition, x, y, out_grad._data)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("where_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("where_grad", 2, _results) from None
        x_grad = wrap(_r0)
        y_grad = wrap(_r1)
        return (None, x_grad, y_grad)

    def release_saved(self) -> None:
        self.condition = None
        self._released = True


class WhereDoubleGradNode(GradNode):
    """Gradient of where_grad (second-order gradient of where)."""

    __slots__ = ("condition",)
    condition: Saved
    name = "where_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        condition = unpack(self.condition, self)
        grad_wrt_out_grad = _ops.where(condition, x_grad_grad, y_grad_grad)
        return (None, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.condition = None
        self._released = True


class TanGradNode(GradNode):
    """Gradient of tan."""

    __slots__ = ("out",)
    out: Saved
    name = "tan_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = unpack(self.out, self)
        x_grad = out_grad * (1 + out * out)
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class AsinGradNode(GradNode):
    """Gradient of asin."""

    __slots__ = ("x",)
    x: Saved
    name = "asin_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad * _ops.rsqrt(1 - x * x)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class AcosGradNode(GradNode):
    """Gradient of acos."""

    __slots__ = ("x",)
    x: Saved
    name = "acos_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = -out_grad * _ops.rsqrt(1 - x * x)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class AtanGradNode(GradNode):
    """Gradient of atan."""

    __slots__ = ("x",)
    x: Saved
    name = "atan_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad / (1 + x * x)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SinhGradNode(GradNode):
    """Gradient of sinh."""

    __slots__ = ("x",)
    x: Saved
    name = "sinh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad * conj_if_complex(_ops.cosh(x))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class CoshGradNode(GradNode):
    """Gradient of cosh."""

    __slots__ = ("x",)
    x: Saved
    name = "cosh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad * conj_if_complex(_ops.sinh(x))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class AsinhGradNode(GradNode):
    """Gradient of asinh."""

    __slots__ = ("x",)
    x: Saved
    name = "asinh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad * _ops.rsqrt(x * x + 1)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class AcoshGradNode(GradNode):
    """Gradient of acosh."""

    __slots__ = ("x",)
    x: Saved
    name = "acosh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad * _ops.rsqrt(x * x - 1)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class AtanhGradNode(GradNode):
    """Gradient of atanh."""

    __slots__ = ("x",)
    x: Saved
    name = "atanh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad / (1 - x * x)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class Log2GradNode(GradNode):
    """Gradient of log2."""

    __slots__ = ("x",)
    x: Saved
    name = "log2_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad / (x * 0.6931471805599453)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class Log10GradNode(GradNode):
    """Gradient of log10."""

    __slots__ = ("x",)
    x: Saved
    name = "log10_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad / (x * 2.302585092994046)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class Exp2GradNode(GradNode):
    """Gradient of exp2."""

    __slots__ = ("out",)
    out: Saved
    name = "exp2_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = unpack(self.out, self)
        x_grad = out_grad * out * 0.6931471805599453
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class Deg2radGradNode(GradNode):
    """Gradient of deg2rad."""

    __slots__ = ()
    name = "deg2rad_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = out_grad * 0.017453292519943295
        return (x_grad,)


class Rad2degGradNode(GradNode):
    """Gradient of rad2deg."""

    __slots__ = ()
    name = "rad2deg_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = out_grad * 57.29577951308232
        return (x_grad,)


class LogitGradNode(GradNode):
    """Gradient of logit."""

    __slots__ = ("x",)
    x: Saved
    name = "logit_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = out_grad / (x * (1 - x))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class FracGradNode(GradNode):
    """Gradient of frac."""

    __slots__ = ()
    name = "frac_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = out_grad
        return (x_grad,)


class FloorGradNode(GradNode):
    """Gradient of floor."""

    __slots__ = ()
    name = "floor_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = _ops.zero(out_grad)
        return (x_grad,)


class CeilGradNode(GradNode):
    """Gradient of ceil."""

    __slots__ = ()
    name = "ceil_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = _ops.zero(out_grad)
        return (x_grad,)


class TruncGradNode(GradNode):
    """Gradient of trunc."""

    __slots__ = ()
    name = "trunc_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = _ops.zero(out_grad)
        return (x_grad,)


class RoundGradNode(GradNode):
    """Gradient of round."""

    __slots__ = ("decimals",)
    decimals: int
    name = "round_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = _ops.zero(out_grad)
        return (x_grad,)


class Atan2GradNode(GradNode):
    """Gradient of atan2."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "atan2_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        x_grad = _ops.reduce_as(out_grad * y / (x * x + y * y), x)
        y_grad = _ops.reduce_as(-out_grad * x / (x * x + y * y), y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class LogaddexpGradNode(GradNode):
    """Gradient of logaddexp."""

    __slots__ = ("x", "y", "out")
    x: Saved
    y: Saved
    out: Saved
    name = "logaddexp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out = unpack(self.out, self)
        x_grad = _ops.reduce_as(out_grad * _ops.exp(x - out), x)
        y_grad = _ops.reduce_as(out_grad * _ops.exp(y - out), y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out = None
        self._released = True


class Logaddexp2GradNode(GradNode):
    """Gradient of logaddexp2."""

    __slots__ = ("x", "y", "out")
    x: Saved
    y: Saved
    out: Saved
    name = "logaddexp2_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out = unpack(self.out, self)
        x_grad = _ops.reduce_as(out_grad * _ops.exp2(x - out), x)
        y_grad = _ops.reduce_as(out_grad * _ops.exp2(y - out), y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out = None
        self._released = True


class LerpGradNode(GradNode):
    """Gradient of lerp."""

    __slots__ = ("x", "end", "weight")
    x: Saved
    end: Saved
    weight: Saved
    name = "lerp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        end = unpack(self.end, self)
        weight = unpack(self.weight, self)
        x_grad = _ops.reduce_as(out_grad * (1 - weight), x)
        end_grad = _ops.reduce_as(out_grad * weight, end)
        weight_grad = _ops.reduce_as(out_grad * (end - x), weight)
        return (x_grad, end_grad, weight_grad)

    def release_saved(self) -> None:
        self.x = None
        self.end = None
        self.weight = None
        self._released = True


class AddcmulGradNode(GradNode):
    """Gradient of addcmul."""

    __slots__ = ("x", "tensor1", "tensor2", "value")
    x: Saved
    tensor1: Saved
    tensor2: Saved
    value: float
    name = "addcmul_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        tensor1 = unpack(self.tensor1, self)
        tensor2 = unpack(self.tensor2, self)
        value = self.value
        x_grad = _ops.reduce_as(out_grad, x)
        tensor1_grad = _ops.reduce_as(out_grad * value * tensor2, tensor1)
        tensor2_grad = _ops.reduce_as(out_grad * value * tensor1, tensor2)
        return (x_grad, tensor1_grad, tensor2_grad)

    def release_saved(self) -> None:
        self.x = None
        self.tensor1 = None
        self.tensor2 = None
        self._released = True


class AddcdivGradNode(GradNode):
    """Gradient of addcdiv."""

    __slots__ = ("x", "tensor1", "tensor2", "value")
    x: Saved
    tensor1: Saved
    tensor2: Saved
    value: float
    name = "addcdiv_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        tensor1 = unpack(self.tensor1, self)
        tensor2 = unpack(self.tensor2, self)
        value = self.value
        x_grad = _ops.reduce_as(out_grad, x)
        tensor1_grad = _ops.reduce_as(out_grad * value / tensor2, tensor1)
        tensor2_grad = _ops.reduce_as(-out_grad * value * tensor1 / (tensor2 * tensor2), tensor2)
        return (x_grad, tensor1_grad, tensor2_grad)

    def release_saved(self) -> None:
        self.x = None
        self.tensor1 = None
        self.tensor2 = None
        self._released = True


class NansumGradNode(GradNode):
    """Gradient of nansum."""

    __slots__ = ("x", "axis", "keepdim")
    x: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "nansum_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        axis = self.axis
        keepdim = self.keepdim
        x_grad = _ops.where(_ops.isnan(x), 0.0, _grad_ops.sum_grad(x, out_grad, axis, keepdim))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class LogcumsumexpGradNode(GradNode):
    """Gradient of logcumsumexp."""

    __slots__ = ("x", "out", "axis")
    x: Saved
    out: Saved
    axis: int
    name = "logcumsumexp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            axis = self.axis
            c = _ops.max(out, [axis], True)
            x_grad = _ops.exp(x - c) * _ops.flip(_ops.cumsum(_ops.flip(out_grad * _ops.exp(c - out), [axis]), axis), [axis])
            return (x_grad,)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_logcumsumexp_grad.get(x.__class__)
            or dispatch(
                "logcumsumexp_grad",
                "logcumsumexp_grad",
                x,
                out,
                out_grad._data,
            )
        )
        try:
            x_grad = wrap(_kernel(
                x,
                out,
                out_grad._data,
                self.axis,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("logcumsumexp_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class CummaxGradNode(GradNode):
    """Gradient of cummax."""

    __slots__ = ("x", "indices", "axis")
    x: Saved
    indices: Saved
    axis: int
    name = "cummax_grad"
    non_differentiable_outputs = (1,)
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        values_grad = grads[0]
        x = unpack(self.x, self)
        indices = unpack(self.indices, self)
        axis = self.axis
        x_grad = _grad_ops.take_along_axis_grad(x, indices, values_grad, axis)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.indices = None
        self._released = True


class CumminGradNode(GradNode):
    """Gradient of cummin."""

    __slots__ = ("x", "indices", "axis")
    x: Saved
    indices: Saved
    axis: int
    name = "cummin_grad"
    non_differentiable_outputs = (1,)
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        values_grad = grads[0]
        x = unpack(self.x, self)
        indices = unpack(self.indices, self)
        axis = self.axis
        x_grad = _grad_ops.take_along_axis_grad(x, indices, values_grad, axis)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.indices = None
        self._released = True


class PixelShuffleGradNode(GradNode):
    """Gradient of pixel_shuffle."""

    __slots__ = ("upscale_factor",)
    upscale_factor: int
    name = "pixel_shuffle_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        upscale_factor = self.upscale_factor
        x_grad = _ops.pixel_unshuffle(out_grad, upscale_factor)
        return (x_grad,)


class PixelUnshuffleGradNode(GradNode):
    """Gradient of pixel_unshuffle."""

    __slots__ = ("downscale_factor",)
    downscale_factor: int
    name = "pixel_unshuffle_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        downscale_factor = self.downscale_factor
        x_grad = _ops.pixel_shuffle(out_grad, downscale_factor)
        return (x_grad,)


class XlogyGradNode(GradNode):
    """Gradient of xlogy."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "xlogy_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        x_grad = _ops.reduce_as(out_grad * _ops.xlogy(_ops.where(_ops.equal(x, 0.0), 0.0, 1.0), y), x)
        y_grad = _ops.reduce_as(out_grad * x / y, y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class FmodGradNode(GradNode):
    """Gradient of fmod."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "fmod_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        x_grad = _ops.reduce_as(out_grad, x)
        y_grad = _ops.reduce_as(-out_grad * _ops.trunc(x / y), y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class CopysignGradNode(GradNode):
    """Gradient of copysign."""

    __slots__ = ("x", "y", "out")
    x: Saved
    y: Saved
    out: Saved
    name = "copysign_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out = unpack(self.out, self)
        x_grad = _ops.reduce_as(out_grad * _ops.sign(x) * _ops.sign(out), x)
        y_grad = _ops.zero(y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out = None
        self._released = True


class NanToNumGradNode(GradNode):
    """Gradient of nan_to_num."""

    __slots__ = ("x", "nan", "posinf", "neginf")
    x: Saved
    nan: float
    posinf: float | None
    neginf: float | None
    name = "nan_to_num_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = _ops.where(_ops.isfinite(x), out_grad, 0.0)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SumGradNode(GradNode):
    """Gradient of sum."""

    __slots__ = ("x", "axis", "keepdim")
    x: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "sum_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.sum_grad(x, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        x = self.x
        _kernel = _k_sum_grad.get(out_grad._data.__class__) or dispatch("sum_grad", "sum_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis, self.keepdim))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sum_grad", _e) from None
        return (x_grad,)


class SumDoubleGradNode(GradNode):
    """Gradient of sum_grad (second-order gradient of sum)."""

    __slots__ = ("axis", "keepdim")
    axis: Sequence[int] | int
    keepdim: bool
    name = "sum_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        axis = self.axis
        keepdim = self.keepdim
        grad_wrt_out_grad = _ops.sum(x_grad_grad, axis, keepdim)
        return (None, grad_wrt_out_grad)


class MeanGradNode(GradNode):
    """Gradient of mean."""

    __slots__ = ("x", "axis", "keepdim")
    x: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "mean_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.mean_grad(x, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        x = self.x
        _kernel = _k_mean_grad.get(out_grad._data.__class__) or dispatch("mean_grad", "mean_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis, self.keepdim))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("mean_grad", _e) from None
        return (x_grad,)


class MeanDoubleGradNode(GradNode):
    """Gradient of mean_grad (second-order gradient of mean)."""

    __slots__ = ("axis", "keepdim")
    axis: Sequence[int] | int
    keepdim: bool
    name = "mean_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        axis = self.axis
        keepdim = self.keepdim
        grad_wrt_out_grad = _ops.mean(x_grad_grad, axis, keepdim)
        return (None, grad_wrt_out_grad)


class MaxGradNode(GradNode):
    """Gradient of max."""

    __slots__ = ("x", "out", "axis", "keepdim")
    x: Saved
    out: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "max_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            x_grad = _grad_ops.max_grad(
                x,
                out,
                out_grad,
                self.axis,
                self.keepdim,
            )
            return (x_grad,)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_max_grad.get(x.__class__)
            or dispatch(
                "max_grad",
                "max_grad",
                x,
                out,
                out_grad._data,
            )
        )
        try:
            x_grad = wrap(_kernel(
                x,
                out,
                out_grad._data,
                self.axis,
                self.keepdim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("max_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class MaxDoubleGradNode(GradNode):
    """Gradient of max_grad (second-order gradient of max)."""

    __slots__ = ("x", "out", "axis", "keepdim")
    x: Saved
    out: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "max_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            axis = self.axis
            keepdim = self.keepdim
            grad_wrt_out_grad = _ops.sum(x_grad_grad * _grad_ops.max_grad(x, out, _ops.fill(out, 1.0), axis, keepdim), axis, keepdim)
            return (None, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is x_grad_grad._data.__class__
            and _k_max_double_grad.get(x.__class__)
            or dispatch(
                "max_double_grad",
                "max_double_grad",
                x,
                out,
                x_grad_grad._data,
            )
        )
        try:
            grad_wrt_out_grad = wrap(_kernel(
                x,
                out,
                x_grad_grad._data,
                self.axis,
                self.keepdim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("max_double_grad", _e) from None
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class MinGradNode(GradNode):
    """Gradient of min."""

    __slots__ = ("x", "out", "axis", "keepdim")
    x: Saved
    out: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "min_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            x_grad = _grad_ops.min_grad(
                x,
                out,
                out_grad,
                self.axis,
                self.keepdim,
            )
            return (x_grad,)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_min_grad.get(x.__class__)
            or dispatch(
                "min_grad",
                "min_grad",
                x,
                out,
                out_grad._data,
            )
        )
        try:
            x_grad = wrap(_kernel(
                x,
                out,
                out_grad._data,
                self.axis,
                self.keepdim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("min_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class MinDoubleGradNode(GradNode):
    """Gradient of min_grad (second-order gradient of min)."""

    __slots__ = ("x", "out", "axis", "keepdim")
    x: Saved
    out: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "min_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            axis = self.axis
            keepdim = self.keepdim
            grad_wrt_out_grad = _ops.sum(x_grad_grad * _grad_ops.min_grad(x, out, _ops.fill(out, 1.0), axis, keepdim), axis, keepdim)
            return (None, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is x_grad_grad._data.__class__
            and _k_min_double_grad.get(x.__class__)
            or dispatch(
                "min_double_grad",
                "min_double_grad",
                x,
                out,
                x_grad_grad._data,
            )
        )
        try:
            grad_wrt_out_grad = wrap(_kernel(
                x,
                out,
                x_grad_grad._data,
                self.axis,
                self.keepdim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("min_double_grad", _e) from None
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class ProdGradNode(GradNode):
    """Gradient of prod."""

    __slots__ = ("x", "axis", "keepdim")
    x: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "prod_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.prod_grad(x, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_prod_grad.get(x.__class__)
            or dispatch("prod_grad", "prod_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis, self.keepdim))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("prod_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ProdDoubleGradNode(GradNode):
    """Gradient of prod_grad (second-order gradient of prod)."""

    __slots__ = ("x", "out_grad", "axis", "keepdim")
    x: Saved
    out_grad: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "prod_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            grad_wrt_x, grad_wrt_out_grad = _grad_ops.prod_double_grad(
                x,
                out_grad,
                x_grad_grad,
                self.axis,
                self.keepdim,
            )
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_prod_double_grad.get(x.__class__)
            or dispatch(
                "prod_double_grad",
                "prod_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
                self.axis,
                self.keepdim,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("prod_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("prod_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class LogsumexpGradNode(GradNode):
    """Gradient of logsumexp."""

    __slots__ = ("x", "out", "axis", "keepdim")
    x: Saved
    out: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "logsumexp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            x_grad = _grad_ops.logsumexp_grad(
                x,
                out,
                out_grad,
                self.axis,
                self.keepdim,
            )
            return (x_grad,)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_logsumexp_grad.get(x.__class__)
            or dispatch(
                "logsumexp_grad",
                "logsumexp_grad",
                x,
                out,
                out_grad._data,
            )
        )
        try:
            x_grad = wrap(_kernel(
                x,
                out,
                out_grad._data,
                self.axis,
                self.keepdim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("logsumexp_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class LogsumexpDoubleGradNode(GradNode):
    """Gradient of logsumexp_grad (second-order gradient of logsumexp)."""

    __slots__ = ("x", "out", "out_grad", "axis", "keepdim")
    x: Saved
    out: Saved
    out_grad: Saved
    axis: Sequence[int] | int
    keepdim: bool
    name = "logsumexp_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            out_grad = unpack(self.out_grad, self)
            axis = self.axis
            keepdim = self.keepdim
            grad_wrt_x = x_grad_grad * _grad_ops.logsumexp_grad(x, out, out_grad, axis, keepdim)
            p = _grad_ops.logsumexp_grad(x, out, _ops.fill(out_grad, 1.0), axis, keepdim)
            q = _ops.sum(x_grad_grad * p, axis, keepdim)
            grad_wrt_out = -out_grad * q
            grad_wrt_out_grad = q
            return (grad_wrt_x, grad_wrt_out, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_logsumexp_double_grad.get(x.__class__)
            or dispatch(
                "logsumexp_double_grad",
                "logsumexp_double_grad",
                x,
                out,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out,
                out_grad,
                x_grad_grad._data,
                self.axis,
                self.keepdim,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("logsumexp_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("logsumexp_double_grad", 3, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_x, grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self.out_grad = None
        self._released = True


class VarGradNode(GradNode):
    """Gradient of var."""

    __slots__ = ("x", "axis", "unbiased", "keepdim")
    x: Saved
    axis: Sequence[int] | int
    unbiased: bool
    keepdim: bool
    name = "var_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.var_grad(
                x,
                out_grad,
                self.axis,
                self.unbiased,
                self.keepdim,
            )
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_var_grad.get(x.__class__)
            or dispatch("var_grad", "var_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis, self.unbiased, self.keepdim))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("var_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class VarDoubleGradNode(GradNode):
    """Gradient of var_grad (second-order gradient of var)."""

    __slots__ = ("x", "out_grad", "axis", "unbiased", "keepdim")
    x: Saved
    out_grad: Saved
    axis: Sequence[int] | int
    unbiased: bool
    keepdim: bool
    name = "var_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            axis = self.axis
            unbiased = self.unbiased
            keepdim = self.keepdim
            grad_wrt_x = _grad_ops.var_grad(x_grad_grad, out_grad, axis, unbiased, keepdim)
            grad_wrt_out_grad = _ops.sum(_ops.real(x_grad_grad * conj_if_complex(_grad_ops.var_grad(x, _ops.fill(out_grad, 1.0), axis, unbiased, keepdim))), axis, keepdim)
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_var_double_grad.get(x.__class__)
            or dispatch(
                "var_double_grad",
                "var_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
                self.axis,
                self.unbiased,
                self.keepdim,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("var_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("var_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class StdGradNode(GradNode):
    """Gradient of std."""

    __slots__ = ("x", "out", "axis", "unbiased", "keepdim")
    x: Saved
    out: Saved
    axis: Sequence[int] | int
    unbiased: bool
    keepdim: bool
    name = "std_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            x_grad = _grad_ops.std_grad(
                x,
                out,
                out_grad,
                self.axis,
                self.unbiased,
                self.keepdim,
            )
            return (x_grad,)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_std_grad.get(x.__class__)
            or dispatch(
                "std_grad",
                "std_grad",
                x,
                out,
                out_grad._data,
            )
        )
        try:
            x_grad = wrap(_kernel(
                x,
                out,
                out_grad._data,
                self.axis,
                self.unbiased,
                self.keepdim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("std_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class StdDoubleGradNode(GradNode):
    """Gradient of std_grad (second-order gradient of std)."""

    __slots__ = ("x", "out", "out_grad", "axis", "unbiased", "keepdim")
    x: Saved
    out: Saved
    out_grad: Saved
    axis: Sequence[int] | int
    unbiased: bool
    keepdim: bool
    name = "std_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            out_grad = unpack(self.out_grad, self)
            axis = self.axis
            unbiased = self.unbiased
            keepdim = self.keepdim
            u = _grad_ops.std_grad(x, out, _ops.fill(out_grad, 1.0), axis, unbiased, keepdim)
            s = _ops.sum(_ops.real(x_grad_grad * conj_if_complex(u)), axis, keepdim)
            rout = _ops.where(out == 0, 0.0, 1 / _ops.where(out == 0, 1.0, out))
            first = _grad_ops.var_grad(x_grad_grad, 0.5 * out_grad * rout, axis, unbiased, keepdim)
            grad_wrt_x = first - _grad_ops.std_grad(x, out, out_grad * s * rout, axis, unbiased, keepdim)
            grad_wrt_out_grad = s
            return (grad_wrt_x, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_std_double_grad.get(x.__class__)
            or dispatch(
                "std_double_grad",
                "std_double_grad",
                x,
                out,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out,
                out_grad,
                x_grad_grad._data,
                self.axis,
                self.unbiased,
                self.keepdim,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("std_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("std_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self.out_grad = None
        self._released = True


class NormGradNode(GradNode):
    """Gradient of norm."""

    __slots__ = ("x", "out", "p", "axis", "keepdim")
    x: Saved
    out: Saved
    p: float
    axis: Sequence[int] | int
    keepdim: bool
    name = "norm_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            x_grad = _grad_ops.norm_grad(
                x,
                out,
                out_grad,
                self.p,
                self.axis,
                self.keepdim,
            )
            return (x_grad,)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_norm_grad.get(x.__class__)
            or dispatch(
                "norm_grad",
                "norm_grad",
                x,
                out,
                out_grad._data,
            )
        )
        try:
            x_grad = wrap(_kernel(
                x,
                out,
                out_grad._data,
                self.p,
                self.axis,
                self.keepdim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("norm_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class NormDoubleGradNode(GradNode):
    """Gradient of norm_grad (second-order gradient of norm; out is folded into x)."""

    __slots__ = ("x", "out", "out_grad", "p", "axis", "keepdim")
    x: Saved
    out: Saved
    out_grad: Saved
    p: float
    axis: Sequence[int] | int
    keepdim: bool
    name = "norm_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            out_grad = unpack(self.out_grad, self)
            p = self.p
            axis = self.axis
            keepdim = self.keepdim
            u = _grad_ops.norm_grad(x, out, _ops.fill(out_grad, 1.0), p, axis, keepdim)
            dot = _ops.sum(x_grad_grad * u, axis, True)
            ok = out if keepdim else _ops.unsqueeze(out, axis)
            gk = out_grad if keepdim else _ops.unsqueeze(out_grad, axis)
            fin = _ops.fill(x, p) != _ops.fill(x, p + 1.0)
            pq = _ops.where(fin, _ops.fill(x, p), 2.0)
            f = _ops.where(fin, pq - 1.0, 0.0)
            ax = _ops.abs(_ops.where(x == 0, 1.0, x))
            curv = _ops.where(x == 0, _ops.where(pq == 2, 1.0, 0.0), ax ** (pq - 2))
            safe = _ops.where(ok == 0, 1.0, ok)
            first = f * curv * safe ** (1 - pq) * x_grad_grad
            grad_wrt_x = _ops.where(ok == 0, 0.0, gk * (first - f / safe * u * dot))
            grad_wrt_out_grad = _ops.sum(x_grad_grad * u, axis, keepdim)
            return (grad_wrt_x, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_norm_double_grad.get(x.__class__)
            or dispatch(
                "norm_double_grad",
                "norm_double_grad",
                x,
                out,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out,
                out_grad,
                x_grad_grad._data,
                self.p,
                self.axis,
                self.keepdim,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("norm_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("norm_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self.out_grad = None
        self._released = True


class CumsumGradNode(GradNode):
    """Gradient of cumsum."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: int | None
    name = "cumsum_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.cumsum_grad(x, out_grad, self.axis)
            return (x_grad,)
        x = self.x
        _kernel = _k_cumsum_grad.get(out_grad._data.__class__) or dispatch("cumsum_grad", "cumsum_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("cumsum_grad", _e) from None
        return (x_grad,)


class CumsumDoubleGradNode(GradNode):
    """Gradient of cumsum_grad (second-order gradient of cumsum)."""

    __slots__ = ("axis",)
    axis: int | None
    name = "cumsum_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        axis = self.axis
        grad_wrt_out_grad = _ops.cumsum(x_grad_grad, axis)
        return (None, grad_wrt_out_grad)


class CumprodGradNode(GradNode):
    """Gradient of cumprod."""

    __slots__ = ("x", "out", "dim")
    x: Saved
    out: Saved
    dim: int | None
    name = "cumprod_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out = unpack(self.out, self)
            x_grad = _grad_ops.cumprod_grad(x, out, out_grad, self.dim)
            return (x_grad,)
        x = unpack_data(self.x, self)
        out = unpack_data(self.out, self)
        _kernel = (
            x.__class__
            is out.__class__
            is out_grad._data.__class__
            and _k_cumprod_grad.get(x.__class__)
            or dispatch(
                "cumprod_grad",
                "cumprod_grad",
                x,
                out,
                out_grad._data,
            )
        )
        try:
            x_grad = wrap(_kernel(
                x,
                out,
                out_grad._data,
                self.dim,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("cumprod_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class CumprodDoubleGradNode(GradNode):
    """Gradient of cumprod_grad (second-order gradient of cumprod; out is folded into x; exact with zeros)."""

    __slots__ = ("x", "out_grad", "dim")
    x: Saved
    out_grad: Saved
    dim: int | None
    name = "cumprod_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            grad_wrt_x, grad_wrt_out_grad = _grad_ops.cumprod_double_grad(x, out_grad, x_grad_grad, self.dim)
            return (grad_wrt_x, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_cumprod_double_grad.get(x.__class__)
            or dispatch(
                "cumprod_double_grad",
                "cumprod_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
                self.dim,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("cumprod_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("cumprod_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class TopkGradNode(GradNode):
    """Gradient of topk."""

    __slots__ = ("x", "indices", "k", "axis", "largest", "sorted")
    x: Saved
    indices: Saved
    k: int
    axis: int
    largest: bool
    sorted: bool
    name = "topk_grad"
    non_differentiable_outputs = (1,)
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            indices = unpack(self.indices, self)
            x_grad = _grad_ops.topk_grad(
                x,
                indices,
                out_grad,
                self.k,
                self.axis,
                self.largest,
                self.sorted,
            )
            return (x_grad,)
        x = self.x
        indices = unpack_data(self.indices, self)
        _kernel = (
            indices.__class__
            is out_grad._data.__class__
            and _k_topk_grad.get(indices.__class__)
            or dispatch("topk_grad", "topk_grad", indices, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, indices, out_grad._data, self.k, self.axis, self.largest, self.sorted))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("topk_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.indices = None
        self._released = True


class TopkDoubleGradNode(GradNode):
    """Gradient of topk_grad (second-order gradient of topk)."""

    __slots__ = ("indices", "k", "axis", "largest", "sorted")
    indices: Saved
    k: int
    axis: int
    largest: bool
    sorted: bool
    name = "topk_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        indices = unpack(self.indices, self)
        axis = self.axis
        grad_wrt_out_grad = _ops.take_along_axis(x_grad_grad, indices, axis)
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.indices = None
        self._released = True


class SortGradNode(GradNode):
    """Gradient of sort."""

    __slots__ = ("x", "indices", "axis", "descending")
    x: Saved
    indices: Saved
    axis: int
    descending: bool
    name = "sort_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            indices = unpack(self.indices, self)
            x_grad = _grad_ops.sort_grad(
                x,
                indices,
                out_grad,
                self.axis,
                self.descending,
            )
            return (x_grad,)
        x = self.x
        indices = unpack_data(self.indices, self)
        _kernel = (
            indices.__class__
            is out_grad._data.__class__
            and _k_sort_grad.get(indices.__class__)
            or dispatch("sort_grad", "sort_grad", indices, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, indices, out_grad._data, self.axis, self.descending))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("sort_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.indices = None
        self._released = True


class SortDoubleGradNode(GradNode):
    """Gradient of sort_grad (second-order gradient of sort)."""

    __slots__ = ("indices", "axis", "descending")
    indices: Saved
    axis: int
    descending: bool
    name = "sort_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        indices = unpack(self.indices, self)
        axis = self.axis
        grad_wrt_out_grad = _ops.take_along_axis(x_grad_grad, indices, axis)
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.indices = None
        self._released = True


class MatmulGradNode(GradNode):
    """Gradient of matmul."""

    __slots__ = ("x", "y", "transpose_x", "transpose_y")
    x: Saved
    y: Saved
    transpose_x: bool
    transpose_y: bool
    name = "matmul_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        y_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            x_grad, y_grad = _grad_ops.matmul_grad(
                x,
                y,
                out_grad,
                self.transpose_x,
                self.transpose_y,
            )
            return (x_grad, y_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad._data.__class__
            and _k_matmul_grad.get(x.__class__)
            or dispatch(
                "matmul_grad",
                "matmul_grad",
                x,
                y,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
                out_grad._data,
                self.transpose_x,
                self.transpose_y,
                (self._next0 is not None, self._next1 is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("matmul_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("matmul_grad", 2, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        y_grad = None if _r1 is None else wrap(_r1)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class MatmulDoubleGradNode(GradNode):
    """Gradient of matmul_grad (second-order gradient of matmul)."""

    __slots__ = ("x", "y", "out_grad", "transpose_x", "transpose_y")
    x: Saved
    y: Saved
    out_grad: Saved
    transpose_x: bool
    transpose_y: bool
    name = "matmul_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out_grad = unpack(self.out_grad, self)
        transpose_x = self.transpose_x
        transpose_y = self.transpose_y
        grad_wrt_x = _ops.matmul_xg(x, y_grad_grad, out_grad, transpose_x, transpose_y)
        grad_wrt_y = _ops.matmul_yg(x_grad_grad, y, out_grad, transpose_x, transpose_y)
        grad_wrt_out_grad = _ops.matmul_jvp(x, y, x_grad_grad, y_grad_grad, transpose_x, transpose_y)
        return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out_grad = None
        self._released = True


class ReshapeGradNode(GradNode):
    """Gradient of reshape."""

    __slots__ = ("x", "shape")
    x: Saved
    shape: Sequence[int] | int
    name = "reshape_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.reshape_grad(x, out_grad, self.shape)
            return (x_grad,)
        x = self.x
        _kernel = _k_reshape_grad.get(out_grad._data.__class__) or dispatch("reshape_grad", "reshape_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.shape))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("reshape_grad", _e) from None
        return (x_grad,)


class ReshapeDoubleGradNode(GradNode):
    """Gradient of reshape_grad (second-order gradient of reshape)."""

    __slots__ = ("shape",)
    shape: Sequence[int] | int
    name = "reshape_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        shape = self.shape
        grad_wrt_out_grad = _ops.reshape(x_grad_grad, shape)
        return (None, grad_wrt_out_grad)


class TransposeGradNode(GradNode):
    """Gradient of transpose."""

    __slots__ = ("x", "perm")
    x: Saved
    perm: Sequence[int] | int
    name = "transpose_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.transpose_grad(x, out_grad, self.perm)
            return (x_grad,)
        x = self.x
        _kernel = _k_transpose_grad.get(out_grad._data.__class__) or dispatch("transpose_grad", "transpose_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.perm))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("transpose_grad", _e) from None
        return (x_grad,)


class TransposeDoubleGradNode(GradNode):
    """Gradient of transpose_grad (second-order gradient of transpose)."""

    __slots__ = ("perm",)
    perm: Sequence[int] | int
    name = "transpose_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        perm = self.perm
        grad_wrt_out_grad = _ops.transpose(x_grad_grad, perm)
        return (None, grad_wrt_out_grad)


class SqueezeGradNode(GradNode):
    """Gradient of squeeze."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: Sequence[int] | int
    name = "squeeze_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.squeeze_grad(x, out_grad, self.axis)
            return (x_grad,)
        x = self.x
        _kernel = _k_squeeze_grad.get(out_grad._data.__class__) or dispatch("squeeze_grad", "squeeze_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("squeeze_grad", _e) from None
        return (x_grad,)


class SqueezeDoubleGradNode(GradNode):
    """Gradient of squeeze_grad (second-order gradient of squeeze)."""

    __slots__ = ("axis",)
    axis: Sequence[int] | int
    name = "squeeze_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        axis = self.axis
        grad_wrt_out_grad = _ops.squeeze(x_grad_grad, axis)
        return (None, grad_wrt_out_grad)


class UnsqueezeGradNode(GradNode):
    """Gradient of unsqueeze."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: Sequence[int] | int
    name = "unsqueeze_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.unsqueeze_grad(x, out_grad, self.axis)
            return (x_grad,)
        x = self.x
        _kernel = _k_unsqueeze_grad.get(out_grad._data.__class__) or dispatch("unsqueeze_grad", "unsqueeze_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("unsqueeze_grad", _e) from None
        return (x_grad,)


class UnsqueezeDoubleGradNode(GradNode):
    """Gradient of unsqueeze_grad (second-order gradient of unsqueeze)."""

    __slots__ = ("axis",)
    axis: Sequence[int] | int
    name = "unsqueeze_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        axis = self.axis
        grad_wrt_out_grad = _ops.unsqueeze(x_grad_grad, axis)
        return (None, grad_wrt_out_grad)


class FlattenGradNode(GradNode):
    """Gradient of flatten."""

    __slots__ = ("x", "start_axis", "stop_axis")
    x: Saved
    start_axis: int
    stop_axis: int
    name = "flatten_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.flatten_grad(x, out_grad, self.start_axis, self.stop_axis)
            return (x_grad,)
        x = self.x
        _kernel = _k_flatten_grad.get(out_grad._data.__class__) or dispatch("flatten_grad", "flatten_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.start_axis, self.stop_axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("flatten_grad", _e) from None
        return (x_grad,)


class FlattenDoubleGradNode(GradNode):
    """Gradient of flatten_grad (second-order gradient of flatten)."""

    __slots__ = ("start_axis", "stop_axis")
    start_axis: int
    stop_axis: int
    name = "flatten_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        start_axis = self.start_axis
        stop_axis = self.stop_axis
        grad_wrt_out_grad = _ops.flatten(x_grad_grad, start_axis, stop_axis)
        return (None, grad_wrt_out_grad)


class ExpandGradNode(GradNode):
    """Gradient of expand."""

    __slots__ = ("x", "shape")
    x: Saved
    shape: Sequence[int] | int
    name = "expand_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.expand_grad(x, out_grad, self.shape)
            return (x_grad,)
        x = self.x
        _kernel = _k_expand_grad.get(out_grad._data.__class__) or dispatch("expand_grad", "expand_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.shape))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("expand_grad", _e) from None
        return (x_grad,)


class ExpandDoubleGradNode(GradNode):
    """Gradient of expand_grad (second-order gradient of expand)."""

    __slots__ = ("shape",)
    shape: Sequence[int] | int
    name = "expand_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        shape = self.shape
        grad_wrt_out_grad = _ops.expand(x_grad_grad, shape)
        return (None, grad_wrt_out_grad)


class ConcatGradNode(GradNode):
    """Gradient of concat."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: int
    name = "concat_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = [unpack(_w, self) for _w in self.x]
            x_grad = _grad_ops.concat_grad(x, out_grad, self.axis)
            return (*x_grad,)
        x = [unpack_data(_w, self) for _w in self.x]
        _kernel = _k_concat_grad.get(out_grad._data.__class__) or dispatch("concat_grad", "concat_grad", out_grad._data)
        try:
            _result = _kernel(x, out_grad._data, self.axis)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("concat_grad", _e) from None
        x_grad = [wrap(_a) for _a in _result]
        return (*x_grad,)


class ConcatDoubleGradNode(GradNode):
    """Gradient of concat_grad (second-order gradient of concat); x is metadata only, so it gets none."""

    __slots__ = ("axis", "_x_count")
    axis: int
    _x_count: int
    name = "concat_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0:]
        axis = self.axis
        grad_wrt_out_grad = _ops.concat(x_grad_grad, axis)
        return (*[None] * self._x_count, grad_wrt_out_grad)


class StackGradNode(GradNode):
    """Gradient of stack."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: int
    name = "stack_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = [unpack(_w, self) for _w in self.x]
            x_grad = _grad_ops.stack_grad(x, out_grad, self.axis)
            return (*x_grad,)
        x = [unpack_data(_w, self) for _w in self.x]
        _kernel = _k_stack_grad.get(out_grad._data.__class__) or dispatch("stack_grad", "stack_grad", out_grad._data)
        try:
            _result = _kernel(x, out_grad._data, self.axis)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("stack_grad", _e) from None
        x_grad = [wrap(_a) for _a in _result]
        return (*x_grad,)


class StackDoubleGradNode(GradNode):
    """Gradient of stack_grad (second-order gradient of stack); x is metadata only, so it gets none."""

    __slots__ = ("axis", "_x_count")
    axis: int
    _x_count: int
    name = "stack_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0:]
        axis = self.axis
        grad_wrt_out_grad = _ops.stack(x_grad_grad, axis)
        return (*[None] * self._x_count, grad_wrt_out_grad)


class SplitGradNode(GradNode):
    """Gradient of split."""

    __slots__ = ("x", "num_or_sections", "axis")
    x: Saved
    num_or_sections: Sequence[int] | int
    axis: int
    name = "split_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0:]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.split_grad(x, out_grad, self.num_or_sections, self.axis)
            return (x_grad,)
        x = self.x
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
                self.num_or_sections,
                self.axis,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("split_grad", _e) from None
        return (x_grad,)


class SplitDoubleGradNode(GradNode):
    """Gradient of split_grad (second-order gradient of split)."""

    __slots__ = ("num_or_sections", "axis")
    num_or_sections: Sequence[int] | int
    axis: int
    name = "split_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        num_or_sections = self.num_or_sections
        axis = self.axis
        grad_wrt_out_grad = _ops.split(x_grad_grad, num_or_sections, axis)
        return (None, *grad_wrt_out_grad)


class GatherGradNode(GradNode):
    """Gradient of gather."""

    __slots__ = ("x", "index", "axis")
    x: Saved
    index: Saved
    axis: int
    name = "gather_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            index = unpack(self.index, self)
            x_grad = _grad_ops.gather_grad(x, index, out_grad, self.axis)
            return (x_grad, None)
        x = self.x
        index = unpack_data(self.index, self)
        _kernel = (
            index.__class__
            is out_grad._data.__class__
            and _k_gather_grad.get(index.__class__)
            or dispatch("gather_grad", "gather_grad", index, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, index, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("gather_grad", _e) from None
        return (x_grad, None)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class GatherDoubleGradNode(GradNode):
    """Gradient of gather_grad (second-order gradient of gather)."""

    __slots__ = ("index", "axis")
    index: Saved
    axis: int
    name = "gather_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        index = unpack(self.index, self)
        axis = self.axis
        grad_wrt_out_grad = _ops.gather(x_grad_grad, index, axis)
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class IndexSelectGradNode(GradNode):
    """Gradient of index_select."""

    __slots__ = ("x", "index", "axis")
    x: Saved
    index: Saved
    axis: int
    name = "index_select_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            index = unpack(self.index, self)
            x_grad = _grad_ops.index_select_grad(x, index, out_grad, self.axis)
            return (x_grad, None)
        x = self.x
        index = unpack_data(self.index, self)
        _kernel = (
            index.__class__
            is out_grad._data.__class__
            and _k_index_select_grad.get(index.__class__)
            or dispatch("index_select_grad", "index_select_grad", index, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, index, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("index_select_grad", _e) from None
        return (x_grad, None)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class IndexSelectDoubleGradNode(GradNode):
    """Gradient of index_select_grad (second-order gradient of index_select)."""

    __slots__ = ("index", "axis")
    index: Saved
    axis: int
    name = "index_select_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        index = unpack(self.index, self)
        axis = self.axis
        grad_wrt_out_grad = _ops.index_select(x_grad_grad, index, axis)
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class TileGradNode(GradNode):
    """Gradient of tile."""

    __slots__ = ("x", "repeat_times")
    x: Saved
    repeat_times: Sequence[int] | int
    name = "tile_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.tile_grad(x, out_grad, self.repeat_times)
            return (x_grad,)
        x = self.x
        _kernel = _k_tile_grad.get(out_grad._data.__class__) or dispatch("tile_grad", "tile_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.repeat_times))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("tile_grad", _e) from None
        return (x_grad,)


class TileDoubleGradNode(GradNode):
    """Gradient of tile_grad (second-order gradient of tile)."""

    __slots__ = ("repeat_times",)
    repeat_times: Sequence[int] | int
    name = "tile_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        repeat_times = self.repeat_times
        grad_wrt_out_grad = _ops.tile(x_grad_grad, repeat_times)
        return (None, grad_wrt_out_grad)


class TakeAlongAxisGradNode(GradNode):
    """Gradient of take_along_axis."""

    __slots__ = ("arr", "indices", "axis")
    arr: Saved
    indices: Saved
    axis: int
    name = "take_along_axis_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            arr = self.arr
            indices = unpack(self.indices, self)
            arr_grad = _grad_ops.take_along_axis_grad(arr, indices, out_grad, self.axis)
            return (arr_grad, None)
        arr = self.arr
        indices = unpack_data(self.indices, self)
        _kernel = (
            indices.__class__
            is out_grad._data.__class__
            and _k_take_along_axis_grad.get(indices.__class__)
            or dispatch("take_along_axis_grad", "take_along_axis_grad", indices, out_grad._data)
        )
        try:
            arr_grad = wrap(_kernel(arr, indices, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("take_along_axis_grad", _e) from None
        return (arr_grad, None)

    def release_saved(self) -> None:
        self.indices = None
        self._released = True


class TakeAlongAxisDoubleGradNode(GradNode):
    """Gradient of take_along_axis_grad (second-order gradient of take_along_axis)."""

    __slots__ = ("indices", "axis")
    indices: Saved
    axis: int
    name = "take_along_axis_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        arr_grad_grad = grads[0]
        indices = unpack(self.indices, self)
        axis = self.axis
        grad_wrt_out_grad = _ops.take_along_axis(arr_grad_grad, indices, axis)
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.indices = None
        self._released = True


class ScatterGradNode(GradNode):
    """Gradient of scatter."""

    __slots__ = ("x", "index", "updates", "overwrite")
    x: Saved
    index: Saved
    updates: Saved
    overwrite: bool
    name = "scatter_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            index = unpack(self.index, self)
            updates = self.updates
            x_grad, updates_grad = _grad_ops.scatter_grad(
                x,
                index,
                updates,
                out_grad,
                self.overwrite,
            )
            return (x_grad, None, updates_grad)
        x = self.x
        index = unpack_data(self.index, self)
        updates = self.updates
        _kernel = (
            index.__class__
            is out_grad._data.__class__
            and _k_scatter_grad.get(index.__class__)
            or dispatch("scatter_grad", "scatter_grad", index, out_grad._data)
        )
        try:
            _results = _kernel(x, index, updates, out_grad._data, self.overwrite)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("scatter_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("scatter_grad", 2, _results) from None
        x_grad = wrap(_r0)
        updates_grad = wrap(_r1)
        return (x_grad, None, updates_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class ScatterDoubleGradNode(GradNode):
    """Gradient of scatter_grad (second-order gradient of scatter)."""

    __slots__ = ("index", "overwrite")
    index: Saved
    overwrite: bool
    name = "scatter_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        updates_grad_grad = grads[1]
        index = unpack(self.index, self)
        overwrite = self.overwrite
        grad_wrt_out_grad = _ops.scatter(x_grad_grad, index, updates_grad_grad, overwrite)
        return (None, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class IndexAddGradNode(GradNode):
    """Gradient of index_add."""

    __slots__ = ("x", "index", "value", "axis")
    x: Saved
    index: Saved
    value: Saved
    axis: int
    name = "index_add_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            index = unpack(self.index, self)
            value = self.value
            x_grad, value_grad = _grad_ops.index_add_grad(
                x,
                index,
                value,
                out_grad,
                self.axis,
            )
            return (x_grad, None, value_grad)
        x = self.x
        index = unpack_data(self.index, self)
        value = self.value
        _kernel = (
            index.__class__
            is out_grad._data.__class__
            and _k_index_add_grad.get(index.__class__)
            or dispatch("index_add_grad", "index_add_grad", index, out_grad._data)
        )
        try:
            _results = _kernel(x, index, value, out_grad._data, self.axis)
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("index_add_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("index_add_grad", 2, _results) from None
        x_grad = wrap(_r0)
        value_grad = wrap(_r1)
        return (x_grad, None, value_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class IndexAddDoubleGradNode(GradNode):
    """Gradient of index_add_grad (second-order gradient of index_add)."""

    __slots__ = ("index", "axis")
    index: Saved
    axis: int
    name = "index_add_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        value_grad_grad = grads[1]
        index = unpack(self.index, self)
        axis = self.axis
        grad_wrt_out_grad = _ops.index_add(x_grad_grad, index, axis, value_grad_grad)
        return (None, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class MaskedFillGradNode(GradNode):
    """Gradient of masked_fill."""

    __slots__ = ("mask", "value")
    mask: Saved
    value: float
    name = "masked_fill_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            mask = unpack(self.mask, self)
            x_grad = _grad_ops.masked_fill_grad(mask, out_grad, self.value)
            return (x_grad, None)
        mask = unpack_data(self.mask, self)
        _kernel = (
            mask.__class__
            is out_grad._data.__class__
            and _k_masked_fill_grad.get(mask.__class__)
            or dispatch("masked_fill_grad", "masked_fill_grad", mask, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(mask, out_grad._data, self.value))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("masked_fill_grad", _e) from None
        return (x_grad, None)

    def release_saved(self) -> None:
        self.mask = None
        self._released = True


class MaskedFillDoubleGradNode(GradNode):
    """Gradient of masked_fill_grad (second-order gradient of masked_fill)."""

    __slots__ = ("mask", "value")
    mask: Saved
    value: float
    name = "masked_fill_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        mask = unpack(self.mask, self)
        grad_wrt_out_grad = _ops.masked_fill(x_grad_grad, mask, 0.0)
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.mask = None
        self._released = True


class TrilGradNode(GradNode):
    """Gradient of tril."""

    __slots__ = ("diagonal",)
    diagonal: int
    name = "tril_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.tril_grad(out_grad, self.diagonal)
            return (x_grad,)
        _kernel = _k_tril_grad.get(out_grad._data.__class__) or dispatch("tril_grad", "tril_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(out_grad._data, self.diagonal))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("tril_grad", _e) from None
        return (x_grad,)


class TrilDoubleGradNode(GradNode):
    """Gradient of tril_grad (second-order gradient of tril)."""

    __slots__ = ("diagonal",)
    diagonal: int
    name = "tril_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        diagonal = self.diagonal
        grad_wrt_out_grad = _ops.tril(x_grad_grad, diagonal)
        return (grad_wrt_out_grad,)


class TriuGradNode(GradNode):
    """Gradient of triu."""

    __slots__ = ("diagonal",)
    diagonal: int
    name = "triu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.triu_grad(out_grad, self.diagonal)
            return (x_grad,)
        _kernel = _k_triu_grad.get(out_grad._data.__class__) or dispatch("triu_grad", "triu_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(out_grad._data, self.diagonal))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("triu_grad", _e) from None
        return (x_grad,)


class TriuDoubleGradNode(GradNode):
    """Gradient of triu_grad (second-order gradient of triu)."""

    __slots__ = ("diagonal",)
    diagonal: int
    name = "triu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        diagonal = self.diagonal
        grad_wrt_out_grad = _ops.triu(x_grad_grad, diagonal)
        return (grad_wrt_out_grad,)


class PadGradNode(GradNode):
    """Gradient of pad."""

    __slots__ = ("x", "pad", "mode", "value")
    x: Saved
    pad: Sequence[int] | int
    mode: str
    value: float
    name = "pad_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.pad_grad(
                x,
                out_grad,
                self.pad,
                self.mode,
                self.value,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_pad_grad.get(out_grad._data.__class__) or dispatch("pad_grad", "pad_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.pad, self.mode, self.value))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("pad_grad", _e) from None
        return (x_grad,)


class PadDoubleGradNode(GradNode):
    """Gradient of pad_grad (second-order gradient of pad)."""

    __slots__ = ("pad", "mode", "value")
    pad: Sequence[int] | int
    mode: str
    value: float
    name = "pad_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        pad = self.pad
        mode = self.mode
        grad_wrt_out_grad = _ops.pad(x_grad_grad, pad, mode, 0.0)
        return (None, grad_wrt_out_grad)


class RollGradNode(GradNode):
    """Gradient of roll."""

    __slots__ = ("shifts", "axis")
    shifts: Sequence[int] | int
    axis: Sequence[int] | int | None
    name = "roll_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.roll_grad(out_grad, self.shifts, self.axis)
            return (x_grad,)
        _kernel = _k_roll_grad.get(out_grad._data.__class__) or dispatch("roll_grad", "roll_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(out_grad._data, self.shifts, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("roll_grad", _e) from None
        return (x_grad,)


class RollDoubleGradNode(GradNode):
    """Gradient of roll_grad (second-order gradient of roll)."""

    __slots__ = ("shifts", "axis")
    shifts: Sequence[int] | int
    axis: Sequence[int] | int | None
    name = "roll_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        shifts = self.shifts
        axis = self.axis
        grad_wrt_out_grad = _ops.roll(x_grad_grad, shifts, axis)
        return (grad_wrt_out_grad,)


class RepeatInterleaveGradNode(GradNode):
    """Gradient of repeat_interleave."""

    __slots__ = ("x", "repeats", "axis")
    x: Saved
    repeats: int
    axis: int | None
    name = "repeat_interleave_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.repeat_interleave_grad(x, out_grad, self.repeats, self.axis)
            return (x_grad,)
        x = self.x
        _kernel = _k_repeat_interleave_grad.get(out_grad._data.__class__) or dispatch("repeat_interleave_grad", "repeat_interleave_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.repeats, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("repeat_interleave_grad", _e) from None
        return (x_grad,)


class RepeatInterleaveDoubleGradNode(GradNode):
    """Gradient of repeat_interleave_grad (second-order gradient of repeat_interleave)."""

    __slots__ = ("repeats", "axis")
    repeats: int
    axis: int | None
    name = "repeat_interleave_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        repeats = self.repeats
        axis = self.axis
        grad_wrt_out_grad = _ops.repeat_interleave(x_grad_grad, repeats, axis)
        return (None, grad_wrt_out_grad)


class FlipGradNode(GradNode):
    """Gradient of flip."""

    __slots__ = ("axis",)
    axis: Sequence[int] | int
    name = "flip_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.flip_grad(out_grad, self.axis)
            return (x_grad,)
        _kernel = _k_flip_grad.get(out_grad._data.__class__) or dispatch("flip_grad", "flip_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("flip_grad", _e) from None
        return (x_grad,)


class FlipDoubleGradNode(GradNode):
    """Gradient of flip_grad (second-order gradient of flip)."""

    __slots__ = ("axis",)
    axis: Sequence[int] | int
    name = "flip_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        axis = self.axis
        grad_wrt_out_grad = _ops.flip(x_grad_grad, axis)
        return (grad_wrt_out_grad,)


class GatherNdGradNode(GradNode):
    """Gradient of gather_nd."""

    __slots__ = ("x", "index")
    x: Saved
    index: Saved
    name = "gather_nd_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        index = unpack(self.index, self)
        x_grad = _ops.scatter_nd_add(_ops.zero(x), index, out_grad)
        return (x_grad, None)

    def release_saved(self) -> None:
        self.x = None
        self.index = None
        self._released = True


class ScatterNdAddGradNode(GradNode):
    """Gradient of scatter_nd_add."""

    __slots__ = ("index",)
    index: Saved
    name = "scatter_nd_add_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        index = unpack(self.index, self)
        x_grad = out_grad
        updates_grad = _ops.gather_nd(out_grad, index)
        return (x_grad, None, updates_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class ScatterNdGradNode(GradNode):
    """Gradient of scatter_nd."""

    __slots__ = ("index", "shape")
    index: Saved
    shape: Sequence[int] | int
    name = "scatter_nd_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        index = unpack(self.index, self)
        updates_grad = _ops.gather_nd(out_grad, index)
        return (None, updates_grad)

    def release_saved(self) -> None:
        self.index = None
        self._released = True


class IndexGradNode(GradNode):
    """Gradient of index."""

    __slots__ = ("x", "indices", "_indices_count")
    x: Saved
    indices: Saved
    _indices_count: int
    name = "index_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        indices = [unpack(_w, self) for _w in self.indices]
        x_grad = _ops.index_put(_ops.zero(x), indices, out_grad, True)
        return (x_grad, *[None] * self._indices_count)

    def release_saved(self) -> None:
        self.x = None
        self.indices = None
        self._released = True


class IndexPutGradNode(GradNode):
    """Gradient of index_put."""

    __slots__ = ("indices", "values", "accumulate", "_indices_count")
    indices: Saved
    values: Saved
    accumulate: bool
    _indices_count: int
    name = "index_put_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        indices = [unpack(_w, self) for _w in self.indices]
        values = unpack(self.values, self)
        accumulate = self.accumulate
        x_grad = out_grad if accumulate else _ops.index_put(out_grad, indices, _ops.zero(values), False)
        values_grad = _ops.reduce_as(_ops.index(out_grad, indices), values)
        return (x_grad, *[None] * self._indices_count, values_grad)

    def release_saved(self) -> None:
        self.indices = None
        self.values = None
        self._released = True


class SoftmaxGradNode(GradNode):
    """Gradient of softmax."""

    __slots__ = ("out", "axis")
    out: Saved
    axis: int
    name = "softmax_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.softmax_grad(out, out_grad, self.axis)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_softmax_grad.get(out.__class__)
            or dispatch("softmax_grad", "softmax_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("softmax_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class SoftmaxDoubleGradNode(GradNode):
    """Gradient of softmax_grad (second-order gradient of softmax)."""

    __slots__ = ("out", "out_grad", "axis")
    out: Saved
    out_grad: Saved
    axis: int
    name = "softmax_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        axis = self.axis
        grad_wrt_out = _ops.softmax_vjp_dp(out, out_grad, x_grad_grad, axis)
        grad_wrt_out_grad = _ops.softmax_vjp(out, x_grad_grad, axis)
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class LogSoftmaxGradNode(GradNode):
    """Gradient of log_softmax."""

    __slots__ = ("out", "axis")
    out: Saved
    axis: int
    name = "log_softmax_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            out = unpack(self.out, self)
            x_grad = _grad_ops.log_softmax_grad(out, out_grad, self.axis)
            return (x_grad,)
        out = unpack_data(self.out, self)
        _kernel = (
            out.__class__
            is out_grad._data.__class__
            and _k_log_softmax_grad.get(out.__class__)
            or dispatch("log_softmax_grad", "log_softmax_grad", out, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(out, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("log_softmax_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class LogSoftmaxDoubleGradNode(GradNode):
    """Gradient of log_softmax_grad (second-order gradient of log_softmax)."""

    __slots__ = ("out", "out_grad", "axis")
    out: Saved
    out_grad: Saved
    axis: int
    name = "log_softmax_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out = unpack(self.out, self)
        out_grad = unpack(self.out_grad, self)
        axis = self.axis
        grad_wrt_out = -x_grad_grad * _ops.exp(out) * _ops.sum(out_grad, axis, True)
        grad_wrt_out_grad = x_grad_grad - _ops.sum(x_grad_grad * _ops.exp(out), axis, True)
        return (grad_wrt_out, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out = None
        self.out_grad = None
        self._released = True


class DropoutGradNode(GradNode):
    """Gradient of dropout."""

    __slots__ = ("mask", "p", "training")
    mask: Saved
    p: float
    training: bool
    name = "dropout_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            mask = unpack(self.mask, self)
            x_grad = _grad_ops.dropout_grad(mask, out_grad, self.p, self.training)
            return (x_grad,)
        mask = unpack_data(self.mask, self)
        _kernel = (
            mask.__class__
            is out_grad._data.__class__
            and _k_dropout_grad.get(mask.__class__)
            or dispatch("dropout_grad", "dropout_grad", mask, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(mask, out_grad._data, self.p, self.training))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("dropout_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.mask = None
        self._released = True


class DropoutDoubleGradNode(GradNode):
    """Gradient of dropout_grad (second-order gradient of dropout)."""

    __slots__ = ("mask", "p", "training")
    mask: Saved
    p: float
    training: bool
    name = "dropout_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            mask = unpack(self.mask, self)
            p = self.p
            training = self.training
            grad_wrt_out_grad = _grad_ops.dropout_grad(mask, x_grad_grad, p, training)
            return (None, grad_wrt_out_grad)
        mask = unpack_data(self.mask, self)
        _kernel = (
            mask.__class__
            is x_grad_grad._data.__class__
            and _k_dropout_grad.get(mask.__class__)
            or dispatch("dropout_double_grad", "dropout_grad", mask, x_grad_grad._data)
        )
        try:
            grad_wrt_out_grad = wrap(_kernel(mask, x_grad_grad._data, self.p, self.training))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("dropout_double_grad", _e) from None
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.mask = None
        self._released = True


class EmbeddingGradNode(GradNode):
    """Gradient of embedding."""

    __slots__ = ("x", "weight")
    x: Saved
    weight: Saved
    name = "embedding_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            weight = self.weight
            weight_grad = _grad_ops.embedding_grad(x, weight, out_grad)
            return (None, weight_grad)
        x = unpack_data(self.x, self)
        weight = self.weight
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_embedding_grad.get(x.__class__)
            or dispatch("embedding_grad", "embedding_grad", x, out_grad._data)
        )
        try:
            weight_grad = wrap(_kernel(x, weight, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("embedding_grad", _e) from None
        return (None, weight_grad)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class EmbeddingDoubleGradNode(GradNode):
    """Gradient of embedding_grad (second-order gradient of embedding)."""

    __slots__ = ("x",)
    x: Saved
    name = "embedding_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        weight_grad_grad = grads[0]
        x = unpack(self.x, self)
        grad_wrt_out_grad = _ops.embedding(x, weight_grad_grad)
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class PreluGradNode(GradNode):
    """Gradient of prelu."""

    __slots__ = ("x", "weight")
    x: Saved
    weight: Saved
    name = "prelu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            x_grad, weight_grad = _grad_ops.prelu_grad(x, weight, out_grad)
            return (x_grad, weight_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad._data.__class__
            and _k_prelu_grad.get(x.__class__)
            or dispatch(
                "prelu_grad",
                "prelu_grad",
                x,
                weight,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
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
        return (x_grad, weight_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True


class PreluDoubleGradNode(GradNode):
    """Gradient of prelu_grad (second-order gradient of prelu)."""

    __slots__ = ("x", "weight", "out_grad")
    x: Saved
    weight: Saved
    out_grad: Saved
    name = "prelu_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        weight_grad_grad = grads[1]
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            out_grad = unpack(self.out_grad, self)
            grad_wrt_x = _ops.where(x <= 0, _grad_ops.prelu_grad(x, weight_grad_grad, out_grad)[0], _ops.zero(out_grad))
            grad_wrt_weight = _grad_ops.prelu_grad(_ops.where(x <= 0, _ops.fill(x, -1.0), _ops.fill(x, 1.0)), weight, -x_grad_grad * out_grad)[1]
            grad_wrt_out_grad = _ops.where(x <= 0, _grad_ops.prelu_grad(x, weight, x_grad_grad)[0] + _ops.prelu(x, weight_grad_grad), x_grad_grad)
            return (grad_wrt_x, grad_wrt_weight, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            is weight_grad_grad._data.__class__
            and _k_prelu_double_grad.get(x.__class__)
            or dispatch(
                "prelu_double_grad",
                "prelu_double_grad",
                x,
                weight,
                out_grad,
                x_grad_grad._data,
                weight_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                out_grad,
                x_grad_grad._data,
                weight_grad_grad._data,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("prelu_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("prelu_double_grad", 3, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_weight = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_x, grad_wrt_weight, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.out_grad = None
        self._released = True


class GluGradNode(GradNode):
    """Gradient of glu."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: int
    name = "glu_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            x_grad = _grad_ops.glu_grad(x, out_grad, self.axis)
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_glu_grad.get(x.__class__)
            or dispatch("glu_grad", "glu_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.axis))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("glu_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class GluDoubleGradNode(GradNode):
    """Gradient of glu_grad (second-order gradient of glu)."""

    __slots__ = ("x", "out_grad", "axis")
    x: Saved
    out_grad: Saved
    axis: int
    name = "glu_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            out_grad = unpack(self.out_grad, self)
            axis = self.axis
            ones = _ops.fill(x, 1.0)
            lead = 2 * _ops.cumsum(ones, axis) <= _ops.sum(ones, [axis], True)
            a = _ops.sum(_ops.stack(_ops.split(_ops.where(lead, x, 0.0), 2, axis), 0), [0])
            b = _ops.sum(_ops.stack(_ops.split(_ops.where(lead, 0.0, x), 2, axis), 0), [0])
            da = _ops.sum(_ops.stack(_ops.split(_ops.where(lead, x_grad_grad, 0.0), 2, axis), 0), [0])
            db = _ops.sum(_ops.stack(_ops.split(_ops.where(lead, 0.0, x_grad_grad), 2, axis), 0), [0])
            s = _ops.sigmoid(b)
            s1 = s * (1 - s)
            s2 = s1 * (1 - 2 * s)
            grad_wrt_x = _ops.concat([db * out_grad * s1, out_grad * (da * s1 + db * a * s2)], axis)
            grad_wrt_out_grad = da * s + db * a * s1
            return (grad_wrt_x, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            and _k_glu_double_grad.get(x.__class__)
            or dispatch(
                "glu_double_grad",
                "glu_double_grad",
                x,
                out_grad,
                x_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                out_grad,
                x_grad_grad._data,
                self.axis,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("glu_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("glu_double_grad", 2, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_x, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.out_grad = None
        self._released = True


class CrossEntropyGradNode(GradNode):
    """Gradient of cross_entropy."""

    __slots__ = ("input", "label", "prob", "axis", "reduction", "ignore_index", "label_smoothing")
    input: Saved
    label: Saved
    prob: Saved
    axis: int
    reduction: str
    ignore_index: int
    label_smoothing: float
    name = "cross_entropy_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            prob = unpack(self.prob, self)
            input_grad = _grad_ops.cross_entropy_grad(
                input,
                label,
                prob,
                out_grad,
                self.axis,
                self.reduction,
                self.ignore_index,
                self.label_smoothing,
            )
            return (input_grad, None)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        prob = unpack_data(self.prob, self)
        _kernel = (
            input.__class__
            is label.__class__
            is prob.__class__
            is out_grad._data.__class__
            and _k_cross_entropy_grad_saved.get(input.__class__)
            or dispatch(
                "cross_entropy_grad",
                "cross_entropy_grad_saved",
                input,
                label,
                prob,
                out_grad._data,
            )
        )
        try:
            input_grad = wrap(_kernel(
                input,
                label,
                prob,
                out_grad._data,
                self.axis,
                self.reduction,
                self.ignore_index,
                self.label_smoothing,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("cross_entropy_grad", _e) from None
        return (input_grad, None)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self.prob = None
        self._released = True


class CrossEntropyDoubleGradNode(GradNode):
    """Gradient of cross_entropy_grad (second-order gradient of cross_entropy)."""

    __slots__ = ("input", "label", "out_grad", "axis", "reduction", "ignore_index", "label_smoothing")
    input: Saved
    label: Saved
    out_grad: Saved
    axis: int
    reduction: str
    ignore_index: int
    label_smoothing: float
    name = "cross_entropy_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        input_grad_grad = grads[0]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            out_grad = unpack(self.out_grad, self)
            grad_wrt_input, grad_wrt_out_grad = _grad_ops.cross_entropy_double_grad(
                input,
                label,
                out_grad,
                input_grad_grad,
                self.axis,
                self.reduction,
                self.ignore_index,
                self.label_smoothing,
            )
            return (grad_wrt_input, None, None, grad_wrt_out_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad.__class__
            is input_grad_grad._data.__class__
            and _k_cross_entropy_double_grad.get(input.__class__)
            or dispatch(
                "cross_entropy_double_grad",
                "cross_entropy_double_grad",
                input,
                label,
                out_grad,
                input_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad,
                input_grad_grad._data,
                self.axis,
                self.reduction,
                self.ignore_index,
                self.label_smoothing,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("cross_entropy_double_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("cross_entropy_double_grad", 2, _results) from None
        grad_wrt_input = wrap(_r0)
        grad_wrt_out_grad = wrap(_r1)
        return (grad_wrt_input, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self.out_grad = None
        self._released = True


class CrossEntropyTripleGradNode(GradNode):
    """Gradient of cross_entropy_double_grad (third-order gradient of cross_entropy)."""

    __slots__ = ("input", "label", "out_grad", "input_grad_grad", "axis", "reduction", "ignore_index", "label_smoothing")
    input: Saved
    label: Saved
    out_grad: Saved
    input_grad_grad: Saved
    axis: int
    reduction: str
    ignore_index: int
    label_smoothing: float
    name = "cross_entropy_triple_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        grad_wrt_input_grad = grads[0]
        grad_wrt_out_grad_grad = grads[1]
        input = unpack(self.input, self)
        label = unpack(self.label, self)
        out_grad = unpack(self.out_grad, self)
        input_grad_grad = unpack(self.input_grad_grad, self)
        axis = self.axis
        reduction = self.reduction
        ignore_index = self.ignore_index
        label_smoothing = self.label_smoothing
        r = _ops.softmax_vjp_dp(_ops.softmax(input, axis), input_grad_grad, grad_wrt_input_grad, axis)
        a = _grad_ops.cross_entropy_double_grad(input, label, grad_wrt_out_grad_grad, input_grad_grad, axis, reduction, ignore_index, label_smoothing)[0]
        grad_wrt_input = a + _grad_ops.cross_entropy_double_grad(input, label, out_grad, r, axis, reduction, ignore_index, label_smoothing)[0]
        w = _grad_ops.cross_entropy_double_grad(input, label, _ops.fill(out_grad, 1.0), input_grad_grad, axis, reduction, ignore_index, label_smoothing)[0]
        grad_wrt_out_grad = _ops.reduce_as(_ops.sum(grad_wrt_input_grad * w, axis), out_grad)
        b = _grad_ops.cross_entropy_double_grad(input, label, out_grad, grad_wrt_input_grad, axis, reduction, ignore_index, label_smoothing)[0]
        grad_wrt_input_grad_grad = b + _grad_ops.cross_entropy_grad(input, label, _ops.softmax(input, axis), grad_wrt_out_grad_grad, axis, reduction, ignore_index, label_smoothing)
        return (grad_wrt_input, None, grad_wrt_out_grad, grad_wrt_input_grad_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self.out_grad = None
        self.input_grad_grad = None
        self._released = True


class MseLossGradNode(GradNode):
    """Gradient of mse_loss."""

    __slots__ = ("input", "label", "reduction")
    input: Saved
    label: Saved
    reduction: str
    name = "mse_loss_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            input_grad, label_grad = _grad_ops.mse_loss_grad(input, label, out_grad, self.reduction)
            return (input_grad, label_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad._data.__class__
            and _k_mse_loss_grad.get(input.__class__)
            or dispatch(
                "mse_loss_grad",
                "mse_loss_grad",
                input,
                label,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad._data,
                self.reduction,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("mse_loss_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("mse_loss_grad", 2, _results) from None
        input_grad = wrap(_r0)
        label_grad = wrap(_r1)
        return (input_grad, label_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self._released = True


class MseLossDoubleGradNode(GradNode):
    """Gradient of mse_loss_grad (second-order gradient of mse_loss)."""

    __slots__ = ("input", "label", "out_grad", "reduction")
    input: Saved
    label: Saved
    out_grad: Saved
    reduction: str
    name = "mse_loss_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        input_grad_grad = grads[0]
        label_grad_grad = grads[1]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            out_grad = unpack(self.out_grad, self)
            reduction = self.reduction
            grad_wrt_input = _grad_ops.mse_loss_grad(input_grad_grad, label_grad_grad, out_grad, reduction)[0]
            grad_wrt_label = _grad_ops.mse_loss_grad(input_grad_grad, label_grad_grad, out_grad, reduction)[1]
            diff = input - label
            slope = _grad_ops.mse_loss_grad(diff, _ops.zero(diff), _ops.fill(out_grad, 1.0), reduction)[0]
            grad_wrt_out_grad = _ops.reduce_as(slope * (input_grad_grad - label_grad_grad), out_grad)
            return (grad_wrt_input, grad_wrt_label, grad_wrt_out_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad.__class__
            is input_grad_grad._data.__class__
            is label_grad_grad._data.__class__
            and _k_mse_loss_double_grad.get(input.__class__)
            or dispatch(
                "mse_loss_double_grad",
                "mse_loss_double_grad",
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
                self.reduction,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("mse_loss_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("mse_loss_double_grad", 3, _results) from None
        grad_wrt_input = wrap(_r0)
        grad_wrt_label = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_input, grad_wrt_label, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self.out_grad = None
        self._released = True


class NllLossGradNode(GradNode):
    """Gradient of nll_loss."""

    __slots__ = ("input", "label", "weight", "ignore_index", "reduction")
    input: Saved
    label: Saved
    weight: Saved
    ignore_index: int
    reduction: str
    name = "nll_loss_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            input = self.input
            label = unpack(self.label, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            input_grad = _grad_ops.nll_loss_grad(
                input,
                label,
                weight,
                out_grad,
                self.ignore_index,
                self.reduction,
            )
            return (input_grad, None, None)
        input = self.input
        label = unpack_data(self.label, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        _kernel = (
            label.__class__
            is out_grad._data.__class__
            is weight.__class__
            and _k_nll_loss_grad.get(label.__class__)
            or dispatch(
                "nll_loss_grad",
                "nll_loss_grad",
                label,
                out_grad._data,
                weight,
            )
        )
        try:
            input_grad = wrap(_kernel(
                input,
                label,
                weight,
                out_grad._data,
                self.ignore_index,
                self.reduction,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("nll_loss_grad", _e) from None
        return (input_grad, None, None)

    def release_saved(self) -> None:
        self.label = None
        self.weight = None
        self._released = True


class NllLossDoubleGradNode(GradNode):
    """Gradient of nll_loss_grad (second-order gradient of nll_loss)."""

    __slots__ = ("label", "weight", "ignore_index", "reduction")
    label: Saved
    weight: Saved
    ignore_index: int
    reduction: str
    name = "nll_loss_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        input_grad_grad = grads[0]
        label = unpack(self.label, self)
        weight = None if self.weight is None else unpack(self.weight, self)
        ignore_index = self.ignore_index
        reduction = self.reduction
        grad_wrt_out_grad = _ops.nll_loss(input_grad_grad, label, weight, ignore_index, reduction)
        return (None, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.label = None
        self.weight = None
        self._released = True


class BinaryCrossEntropyWithLogitsGradNode(GradNode):
    """Gradient of binary_cross_entropy_with_logits."""

    __slots__ = ("logit", "label", "weight", "pos_weight", "reduction")
    logit: Saved
    label: Saved
    weight: Saved
    pos_weight: Saved
    reduction: str
    name = "binary_cross_entropy_with_logits_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            logit = unpack(self.logit, self)
            label = unpack(self.label, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            pos_weight = None if self.pos_weight is None else unpack(self.pos_weight, self)
            logit_grad, label_grad = _grad_ops.binary_cross_entropy_with_logits_grad(
                logit,
                label,
                weight,
                pos_weight,
                out_grad,
                self.reduction,
            )
            return (logit_grad, label_grad, None, None)
        logit = unpack_data(self.logit, self)
        label = unpack_data(self.label, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        pos_weight = None if self.pos_weight is None else unpack_data(self.pos_weight, self)
        _kernel = (
            logit.__class__
            is label.__class__
            is out_grad._data.__class__
            is weight.__class__
            is pos_weight.__class__
            and _k_binary_cross_entropy_with_logits_grad.get(logit.__class__)
            or dispatch(
                "binary_cross_entropy_with_logits_grad",
                "binary_cross_entropy_with_logits_grad",
                logit,
                label,
                out_grad._data,
                weight,
                pos_weight,
            )
        )
        try:
            _results = _kernel(
                logit,
                label,
                weight,
                pos_weight,
                out_grad._data,
                self.reduction,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("binary_cross_entropy_with_logits_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("binary_cross_entropy_with_logits_grad", 2, _results) from None
        logit_grad = wrap(_r0)
        label_grad = wrap(_r1)
        return (logit_grad, label_grad, None, None)

    def release_saved(self) -> None:
        self.logit = None
        self.label = None
        self.weight = None
        self.pos_weight = None
        self._released = True


class BinaryCrossEntropyWithLogitsDoubleGradNode(GradNode):
    """Gradient of binary_cross_entropy_with_logits_grad (second-order gradient of
    binary_cross_entropy_with_logits).
    """

    __slots__ = ("logit", "label", "weight", "pos_weight", "out_grad", "reduction")
    logit: Saved
    label: Saved
    weight: Saved
    pos_weight: Saved
    out_grad: Saved
    reduction: str
    name = "binary_cross_entropy_with_logits_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        logit_grad_grad = grads[0]
        label_grad_grad = grads[1]
        if create_graph:
            logit = unpack(self.logit, self)
            label = unpack(self.label, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            pos_weight = None if self.pos_weight is None else unpack(self.pos_weight, self)
            out_grad = unpack(self.out_grad, self)
            reduction = self.reduction
            big_g = 2 * _grad_ops.binary_cross_entropy_with_logits_grad(_ops.zero(logit), _ops.zero(label), weight, pos_weight, out_grad, reduction)[0]
            g_pw = -2 * _grad_ops.binary_cross_entropy_with_logits_grad(_ops.zero(logit), _ops.fill(label, 1.0), weight, pos_weight, out_grad, reduction)[0]
            q = _ops.sigmoid(-logit)
            g_c = big_g * (1 - label) + g_pw * label
            g_r = big_g * (1 - q) + g_pw * q
            grad_wrt_logit = _ops.reduce_as(logit_grad_grad * g_c * q * (1 - q) - label_grad_grad * g_r, logit)
            grad_wrt_label = _ops.reduce_as(-logit_grad_grad * g_r, label)
            ones = _ops.fill(out_grad, 1.0)
            unit_logit = _grad_ops.binary_cross_entropy_with_logits_grad(logit, label, weight, pos_weight, ones, reduction)[0]
            unit_label = _grad_ops.binary_cross_entropy_with_logits_grad(logit, label, weight, pos_weight, ones, reduction)[1]
            grad_wrt_out_grad = _ops.reduce_as(logit_grad_grad * unit_logit + label_grad_grad * unit_label, out_grad)
            return (grad_wrt_logit, grad_wrt_label, None, None, grad_wrt_out_grad)
        logit = unpack_data(self.logit, self)
        label = unpack_data(self.label, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        pos_weight = None if self.pos_weight is None else unpack_data(self.pos_weight, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            logit.__class__
            is label.__class__
            is out_grad.__class__
            is logit_grad_grad._data.__class__
            is label_grad_grad._data.__class__
            is weight.__class__
            is pos_weight.__class__
            and _k_binary_cross_entropy_with_logits_double_grad.get(logit.__class__)
            or dispatch(
                "binary_cross_entropy_with_logits_double_grad",
                "binary_cross_entropy_with_logits_double_grad",
                logit,
                label,
                out_grad,
                logit_grad_grad._data,
                label_grad_grad._data,
                weight,
                pos_weight,
            )
        )
        try:
            _results = _kernel(
                logit,
                label,
                weight,
                pos_weight,
                out_grad,
                logit_grad_grad._data,
                label_grad_grad._data,
                self.reduction,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("binary_cross_entropy_with_logits_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("binary_cross_entropy_with_logits_double_grad", 3, _results) from None
        grad_wrt_logit = wrap(_r0)
        grad_wrt_label = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_logit, grad_wrt_label, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.logit = None
        self.label = None
        self.weight = None
        self.pos_weight = None
        self.out_grad = None
        self._released = True


class L1LossGradNode(GradNode):
    """Gradient of l1_loss."""

    __slots__ = ("input", "label", "reduction")
    input: Saved
    label: Saved
    reduction: str
    name = "l1_loss_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            input_grad, label_grad = _grad_ops.l1_loss_grad(input, label, out_grad, self.reduction)
            return (input_grad, label_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad._data.__class__
            and _k_l1_loss_grad.get(input.__class__)
            or dispatch(
                "l1_loss_grad",
                "l1_loss_grad",
                input,
                label,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad._data,
                self.reduction,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("l1_loss_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("l1_loss_grad", 2, _results) from None
        input_grad = wrap(_r0)
        label_grad = wrap(_r1)
        return (input_grad, label_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self._released = True


class L1LossDoubleGradNode(GradNode):
    """Gradient of l1_loss_grad (second-order gradient of l1_loss)."""

    __slots__ = ("input", "label", "out_grad", "reduction")
    input: Saved
    label: Saved
    out_grad: Saved
    reduction: str
    name = "l1_loss_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        input_grad_grad = grads[0]
        label_grad_grad = grads[1]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            out_grad = unpack(self.out_grad, self)
            reduction = self.reduction
            diff = input - label
            slope = _grad_ops.l1_loss_grad(diff, _ops.zero(diff), _ops.fill(out_grad, 1.0), reduction)[0]
            grad_wrt_out_grad = _ops.reduce_as(slope * (input_grad_grad - label_grad_grad), out_grad)
            return (None, None, grad_wrt_out_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad.__class__
            is input_grad_grad._data.__class__
            is label_grad_grad._data.__class__
            and _k_l1_loss_double_grad.get(input.__class__)
            or dispatch(
                "l1_loss_double_grad",
                "l1_loss_double_grad",
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
            )
        )
        try:
            grad_wrt_out_grad = wrap(_kernel(
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
                self.reduction,
            ))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("l1_loss_double_grad", _e) from None
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self.out_grad = None
        self._released = True


class SmoothL1LossGradNode(GradNode):
    """Gradient of smooth_l1_loss."""

    __slots__ = ("input", "label", "reduction", "delta")
    input: Saved
    label: Saved
    reduction: str
    delta: float
    name = "smooth_l1_loss_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            input_grad, label_grad = _grad_ops.smooth_l1_loss_grad(
                input,
                label,
                out_grad,
                self.reduction,
                self.delta,
            )
            return (input_grad, label_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad._data.__class__
            and _k_smooth_l1_loss_grad.get(input.__class__)
            or dispatch(
                "smooth_l1_loss_grad",
                "smooth_l1_loss_grad",
                input,
                label,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad._data,
                self.reduction,
                self.delta,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("smooth_l1_loss_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("smooth_l1_loss_grad", 2, _results) from None
        input_grad = wrap(_r0)
        label_grad = wrap(_r1)
        return (input_grad, label_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self._released = True


class SmoothL1LossDoubleGradNode(GradNode):
    """Gradient of smooth_l1_loss_grad (second-order gradient of smooth_l1_loss)."""

    __slots__ = ("input", "label", "out_grad", "reduction", "delta")
    input: Saved
    label: Saved
    out_grad: Saved
    reduction: str
    delta: float
    name = "smooth_l1_loss_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        input_grad_grad = grads[0]
        label_grad_grad = grads[1]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            out_grad = unpack(self.out_grad, self)
            reduction = self.reduction
            delta = self.delta
            diff = input - label
            spread = _grad_ops.l1_loss_grad(_ops.fill(diff, 1.0), _ops.zero(diff), out_grad, reduction)[0]
            h = (_ops.abs(diff) < delta) * (input_grad_grad - label_grad_grad) * spread
            grad_wrt_input = _ops.reduce_as(h, input)
            grad_wrt_label = _ops.reduce_as(-h, label)
            slope = _grad_ops.smooth_l1_loss_grad(diff, _ops.zero(diff), _ops.fill(out_grad, 1.0), reduction, delta)[0]
            grad_wrt_out_grad = _ops.reduce_as(slope * (input_grad_grad - label_grad_grad), out_grad)
            return (grad_wrt_input, grad_wrt_label, grad_wrt_out_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad.__class__
            is input_grad_grad._data.__class__
            is label_grad_grad._data.__class__
            and _k_smooth_l1_loss_double_grad.get(input.__class__)
            or dispatch(
                "smooth_l1_loss_double_grad",
                "smooth_l1_loss_double_grad",
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
                self.reduction,
                self.delta,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("smooth_l1_loss_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("smooth_l1_loss_double_grad", 3, _results) from None
        grad_wrt_input = wrap(_r0)
        grad_wrt_label = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_input, grad_wrt_label, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self.out_grad = None
        self._released = True


class KlDivGradNode(GradNode):
    """Gradient of kl_div."""

    __slots__ = ("input", "label", "reduction", "log_target")
    input: Saved
    label: Saved
    reduction: str
    log_target: bool
    name = "kl_div_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            input_grad, label_grad = _grad_ops.kl_div_grad(
                input,
                label,
                out_grad,
                self.reduction,
                self.log_target,
            )
            return (input_grad, label_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad._data.__class__
            and _k_kl_div_grad.get(input.__class__)
            or dispatch(
                "kl_div_grad",
                "kl_div_grad",
                input,
                label,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad._data,
                self.reduction,
                self.log_target,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("kl_div_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("kl_div_grad", 2, _results) from None
        input_grad = wrap(_r0)
        label_grad = wrap(_r1)
        return (input_grad, label_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self._released = True


class KlDivDoubleGradNode(GradNode):
    """Gradient of kl_div_grad (second-order gradient of kl_div)."""

    __slots__ = ("input", "label", "out_grad", "reduction", "log_target")
    input: Saved
    label: Saved
    out_grad: Saved
    reduction: str
    log_target: bool
    name = "kl_div_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        input_grad_grad = grads[0]
        label_grad_grad = grads[1]
        if create_graph:
            input = unpack(self.input, self)
            label = unpack(self.label, self)
            out_grad = unpack(self.out_grad, self)
            reduction = self.reduction
            log_target = self.log_target
            zb = _ops.zero(input + label)
            g = -_grad_ops.kl_div_grad(zb, _ops.fill(zb, 1.0), out_grad, reduction, False)[0]
            pr = _ops.exp(label)
            pos = label > 0
            safe = _ops.where(pos, label, 1.0)
            log_form = -label_grad_grad * pr * g
            prob_form = _ops.where(pos, -label_grad_grad * g, 0.0)
            grad_wrt_input = _ops.reduce_as(log_form if log_target else prob_form, input)
            log_form2 = pr * g * (-input_grad_grad + label_grad_grad * (label - input + 2))
            prob_form2 = _ops.where(pos, g * (-input_grad_grad + label_grad_grad / safe), 0.0)
            grad_wrt_label = _ops.reduce_as(log_form2 if log_target else prob_form2, label)
            g1 = -_grad_ops.kl_div_grad(zb, _ops.fill(zb, 1.0), _ops.fill(out_grad, 1.0), reduction, False)[0]
            log_term = input_grad_grad * -pr + label_grad_grad * pr * (label - input + 1)
            prob_term = input_grad_grad * -_ops.where(pos, label, 0.0) + label_grad_grad * _ops.where(pos, _ops.log(safe) + 1 - input, 0.0)
            grad_wrt_out_grad = _ops.reduce_as((log_term if log_target else prob_term) * g1, out_grad)
            return (grad_wrt_input, grad_wrt_label, grad_wrt_out_grad)
        input = unpack_data(self.input, self)
        label = unpack_data(self.label, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            input.__class__
            is label.__class__
            is out_grad.__class__
            is input_grad_grad._data.__class__
            is label_grad_grad._data.__class__
            and _k_kl_div_double_grad.get(input.__class__)
            or dispatch(
                "kl_div_double_grad",
                "kl_div_double_grad",
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                input,
                label,
                out_grad,
                input_grad_grad._data,
                label_grad_grad._data,
                self.reduction,
                self.log_target,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("kl_div_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("kl_div_double_grad", 3, _results) from None
        grad_wrt_input = wrap(_r0)
        grad_wrt_label = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_input, grad_wrt_label, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self.out_grad = None
        self._released = True


class Conv2dGradNode(GradNode):
    """Gradient of conv2d."""

    __slots__ = ("x", "weight", "bias", "stride", "padding", "dilation", "groups")
    x: Saved
    weight: Saved
    bias: Saved
    stride: Sequence[int] | int
    padding: Sequence[int] | int
    dilation: Sequence[int] | int
    groups: int
    name = "conv2d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        weight_grad: Tensor | None
        bias_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            bias = self.bias
            x_grad, weight_grad, bias_grad = _grad_ops.conv2d_grad(
                x,
                weight,
                bias,
                out_grad,
                self.stride,
                self.padding,
                self.dilation,
                self.groups,
            )
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        bias = self.bias
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad._data.__class__
            and _k_conv2d_grad.get(x.__class__)
            or dispatch(
                "conv2d_grad",
                "conv2d_grad",
                x,
                weight,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                bias,
                out_grad._data,
                self.stride,
                self.padding,
                self.dilation,
                self.groups,
                (self._next0 is not None, self._next1 is not None, self._nexts[2] is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("conv2d_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("conv2d_grad", 3, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        weight_grad = None if _r1 is None else wrap(_r1)
        bias_grad = None if _r2 is None else wrap(_r2)
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True


class Conv2dDoubleGradNode(GradNode):
    """Gradient of conv2d_grad (second-order gradient of conv2d)."""

    __slots__ = ("x", "weight", "out_grad", "stride", "padding", "dilation", "groups")
    x: Saved
    weight: Saved
    out_grad: Saved
    stride: Sequence[int] | int
    padding: Sequence[int] | int
    dilation: Sequence[int] | int
    groups: int
    name = "conv2d_double_grad"
    n_outputs = 3

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        weight_grad_grad = grads[1]
        bias_grad_grad = grads[2]
        x = unpack(self.x, self)
        weight = unpack(self.weight, self)
        out_grad = unpack(self.out_grad, self)
        stride = self.stride
        padding = self.padding
        dilation = self.dilation
        groups = self.groups
        grad_wrt_x = _grad_ops.conv2d_grad(x, weight_grad_grad, None, out_grad, stride, padding, dilation, groups)[0]
        grad_wrt_weight = _grad_ops.conv2d_grad(x_grad_grad, weight, None, out_grad, stride, padding, dilation, groups)[1]
        grad_wrt_out_grad = _ops.conv2d(x_grad_grad, weight, bias_grad_grad, stride, padding, dilation, groups) + _ops.conv2d(x, weight_grad_grad, None, stride, padding, dilation, groups)
        return (grad_wrt_x, grad_wrt_weight, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.out_grad = None
        self._released = True


class ConvTranspose2dGradNode(GradNode):
    """Gradient of conv_transpose2d."""

    __slots__ = ("x", "weight", "stride", "padding", "output_padding", "groups", "dilation")
    x: Saved
    weight: Saved
    stride: Sequence[int] | int
    padding: Sequence[int] | int
    output_padding: Sequence[int] | int
    groups: int
    dilation: Sequence[int] | int
    name = "conv_transpose2d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        weight_grad: Tensor | None
        bias_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            stride = self.stride
            padding = self.padding
            groups = self.groups
            dilation = self.dilation
            x_grad = _ops.conv2d(out_grad, weight, None, stride, padding, dilation, groups)
            weight_grad = _grad_ops.conv2d_grad(out_grad, weight, None, x, stride, padding, dilation, groups)[1]
            bias_grad = _ops.sum(out_grad, [0, 2, 3])
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad._data.__class__
            and _k_conv_transpose2d_grad.get(x.__class__)
            or dispatch(
                "conv_transpose2d_grad",
                "conv_transpose2d_grad",
                x,
                weight,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                out_grad._data,
                self.stride,
                self.padding,
                self.output_padding,
                self.groups,
                self.dilation,
                (self._next0 is not None, self._next1 is not None, self._nexts[2] is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("conv_transpose2d_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("conv_transpose2d_grad", 3, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        weight_grad = None if _r1 is None else wrap(_r1)
        bias_grad = None if _r2 is None else wrap(_r2)
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True


class ConvTranspose1dGradNode(GradNode):
    """Gradient of conv_transpose1d."""

    __slots__ = ("x", "weight", "stride", "padding", "output_padding", "groups", "dilation")
    x: Saved
    weight: Saved
    stride: int
    padding: int
    output_padding: int
    groups: int
    dilation: int
    name = "conv_transpose1d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        weight_grad: Tensor | None
        bias_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            stride = self.stride
            padding = self.padding
            groups = self.groups
            dilation = self.dilation
            x_grad = _ops.squeeze(_ops.conv2d(_ops.unsqueeze(out_grad, [2]), _ops.unsqueeze(weight, [2]), None, [1, stride], [0, padding], [1, dilation], groups), [2])
            weight_grad = _ops.squeeze(_grad_ops.conv2d_grad(_ops.unsqueeze(out_grad, [2]), _ops.unsqueeze(weight, [2]), None, _ops.unsqueeze(x, [2]), [1, stride], [0, padding], [1, dilation], groups)[1], [2])
            bias_grad = _ops.sum(out_grad, [0, 2])
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad._data.__class__
            and _k_conv_transpose1d_grad.get(x.__class__)
            or dispatch(
                "conv_transpose1d_grad",
                "conv_transpose1d_grad",
                x,
                weight,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                out_grad._data,
                self.stride,
                self.padding,
                self.output_padding,
                self.groups,
                self.dilation,
                (self._next0 is not None, self._next1 is not None, self._nexts[2] is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("conv_transpose1d_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("conv_transpose1d_grad", 3, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        weight_grad = None if _r1 is None else wrap(_r1)
        bias_grad = None if _r2 is None else wrap(_r2)
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True


class Conv1dGradNode(GradNode):
    """Gradient of conv1d."""

    __slots__ = ("x", "weight", "stride", "padding", "dilation", "groups")
    x: Saved
    weight: Saved
    stride: int
    padding: int
    dilation: int
    groups: int
    name = "conv1d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        weight_grad: Tensor | None
        bias_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            stride = self.stride
            padding = self.padding
            dilation = self.dilation
            groups = self.groups
            x_grad = _ops.squeeze(_grad_ops.conv2d_grad(_ops.unsqueeze(x, [2]), _ops.unsqueeze(weight, [2]), None, _ops.unsqueeze(out_grad, [2]), [1, stride], [0, padding], [1, dilation], groups)[0], [2])
            weight_grad = _ops.squeeze(_grad_ops.conv2d_grad(_ops.unsqueeze(x, [2]), _ops.unsqueeze(weight, [2]), None, _ops.unsqueeze(out_grad, [2]), [1, stride], [0, padding], [1, dilation], groups)[1], [2])
            bias_grad = _ops.sum(out_grad, [0, 2])
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad._data.__class__
            and _k_conv1d_grad.get(x.__class__)
            or dispatch(
                "conv1d_grad",
                "conv1d_grad",
                x,
                weight,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                out_grad._data,
                self.stride,
                self.padding,
                self.dilation,
                self.groups,
                (self._next0 is not None, self._next1 is not None, self._nexts[2] is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("conv1d_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("conv1d_grad", 3, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        weight_grad = None if _r1 is None else wrap(_r1)
        bias_grad = None if _r2 is None else wrap(_r2)
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True


class Conv3dGradNode(GradNode):
    """Gradient of conv3d."""

    __slots__ = ("x", "weight", "bias", "stride", "padding", "dilation", "groups")
    x: Saved
    weight: Saved
    bias: Saved
    stride: Sequence[int] | int
    padding: Sequence[int] | int
    dilation: Sequence[int] | int
    groups: int
    name = "conv3d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        weight_grad: Tensor | None
        bias_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            bias = self.bias
            x_grad, weight_grad, bias_grad = _grad_ops.conv3d_grad(
                x,
                weight,
                bias,
                out_grad,
                self.stride,
                self.padding,
                self.dilation,
                self.groups,
            )
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        bias = self.bias
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad._data.__class__
            and _k_conv3d_grad.get(x.__class__)
            or dispatch(
                "conv3d_grad",
                "conv3d_grad",
                x,
                weight,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                bias,
                out_grad._data,
                self.stride,
                self.padding,
                self.dilation,
                self.groups,
                (self._next0 is not None, self._next1 is not None, self._nexts[2] is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("conv3d_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("conv3d_grad", 3, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        weight_grad = None if _r1 is None else wrap(_r1)
        bias_grad = None if _r2 is None else wrap(_r2)
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True


class Conv3dDoubleGradNode(GradNode):
    """Gradient of conv3d_grad (second-order gradient of conv3d)."""

    __slots__ = ("x", "weight", "out_grad", "stride", "padding", "dilation", "groups")
    x: Saved
    weight: Saved
    out_grad: Saved
    stride: Sequence[int] | int
    padding: Sequence[int] | int
    dilation: Sequence[int] | int
    groups: int
    name = "conv3d_double_grad"
    n_outputs = 3

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        weight_grad_grad = grads[1]
        bias_grad_grad = grads[2]
        x = unpack(self.x, self)
        weight = unpack(self.weight, self)
        out_grad = unpack(self.out_grad, self)
        stride = self.stride
        padding = self.padding
        dilation = self.dilation
        groups = self.groups
        grad_wrt_x = _grad_ops.conv3d_grad(x, weight_grad_grad, None, out_grad, stride, padding, dilation, groups)[0]
        grad_wrt_weight = _grad_ops.conv3d_grad(x_grad_grad, weight, None, out_grad, stride, padding, dilation, groups)[1]
        grad_wrt_out_grad = _ops.conv3d(x_grad_grad, weight, bias_grad_grad, stride, padding, dilation, groups) + _ops.conv3d(x, weight_grad_grad, None, stride, padding, dilation, groups)
        return (grad_wrt_x, grad_wrt_weight, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.out_grad = None
        self._released = True


class MaxPool2dGradNode(GradNode):
    """Gradient of max_pool2d."""

    __slots__ = ("x", "argmax", "kernel_size", "stride", "padding")
    x: Saved
    argmax: Saved
    kernel_size: Sequence[int] | int
    stride: Sequence[int] | int | None
    padding: Sequence[int] | int
    name = "max_pool2d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            argmax = unpack(self.argmax, self)
            x_grad = _grad_ops.max_pool2d_grad(
                x,
                argmax,
                out_grad,
                self.kernel_size,
                self.stride,
                self.padding,
            )
            return (x_grad,)
        x = self.x
        argmax = unpack_data(self.argmax, self)
        _kernel = (
            argmax.__class__
            is out_grad._data.__class__
            and _k_max_pool2d_grad.get(argmax.__class__)
            or dispatch("max_pool2d_grad", "max_pool2d_grad", argmax, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, argmax, out_grad._data, self.kernel_size, self.stride, self.padding))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("max_pool2d_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.argmax = None
        self._released = True


class MaxPool2dDoubleGradNode(GradNode):
    """Gradient of max_pool2d_grad (second-order gradient of max_pool2d)."""

    __slots__ = ("argmax", "kernel_size", "stride", "padding")
    argmax: Saved
    kernel_size: Sequence[int] | int
    stride: Sequence[int] | int | None
    padding: Sequence[int] | int
    name = "max_pool2d_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        if create_graph:
            argmax = unpack(self.argmax, self)
            grad_wrt_out_grad = _grad_ops.max_pool2d_double_grad(
                argmax,
                x_grad_grad,
                self.kernel_size,
                self.stride,
                self.padding,
            )
            return (None, None, grad_wrt_out_grad)
        argmax = unpack_data(self.argmax, self)
        _kernel = (
            argmax.__class__
            is x_grad_grad._data.__class__
            and _k_max_pool2d_double_grad.get(argmax.__class__)
            or dispatch("max_pool2d_double_grad", "max_pool2d_double_grad", argmax, x_grad_grad._data)
        )
        try:
            grad_wrt_out_grad = wrap(_kernel(argmax, x_grad_grad._data, self.kernel_size, self.stride, self.padding))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("max_pool2d_double_grad", _e) from None
        return (None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.argmax = None
        self._released = True


class AvgPool2dGradNode(GradNode):
    """Gradient of avg_pool2d."""

    __slots__ = ("x", "kernel_size", "stride", "padding")
    x: Saved
    kernel_size: Sequence[int] | int
    stride: Sequence[int] | int | None
    padding: Sequence[int] | int
    name = "avg_pool2d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.avg_pool2d_grad(
                x,
                out_grad,
                self.kernel_size,
                self.stride,
                self.padding,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_avg_pool2d_grad.get(out_grad._data.__class__) or dispatch("avg_pool2d_grad", "avg_pool2d_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.kernel_size, self.stride, self.padding))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("avg_pool2d_grad", _e) from None
        return (x_grad,)


class AvgPool2dDoubleGradNode(GradNode):
    """Gradient of avg_pool2d_grad (second-order gradient of avg_pool2d)."""

    __slots__ = ("kernel_size", "stride", "padding")
    kernel_size: Sequence[int] | int
    stride: Sequence[int] | int | None
    padding: Sequence[int] | int
    name = "avg_pool2d_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        kernel_size = self.kernel_size
        stride = self.stride
        padding = self.padding
        grad_wrt_out_grad = _ops.avg_pool2d(x_grad_grad, kernel_size, stride, padding)
        return (None, grad_wrt_out_grad)


class AdaptiveAvgPool2dGradNode(GradNode):
    """Gradient of adaptive_avg_pool2d."""

    __slots__ = ("x", "output_size")
    x: Saved
    output_size: Sequence[int] | int
    name = "adaptive_avg_pool2d_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.adaptive_avg_pool2d_grad(x, out_grad, self.output_size)
            return (x_grad,)
        x = self.x
        _kernel = _k_adaptive_avg_pool2d_grad.get(out_grad._data.__class__) or dispatch("adaptive_avg_pool2d_grad", "adaptive_avg_pool2d_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.output_size))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("adaptive_avg_pool2d_grad", _e) from None
        return (x_grad,)


class AdaptiveAvgPool2dDoubleGradNode(GradNode):
    """Gradient of adaptive_avg_pool2d_grad (second-order gradient of adaptive_avg_pool2d)."""

    __slots__ = ("output_size",)
    output_size: Sequence[int] | int
    name = "adaptive_avg_pool2d_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        output_size = self.output_size
        grad_wrt_out_grad = _ops.adaptive_avg_pool2d(x_grad_grad, output_size)
        return (None, grad_wrt_out_grad)


class LayerNormGradNode(GradNode):
    """Gradient of layer_norm."""

    __slots__ = ("x", "weight", "bias", "mean", "rstd", "normalized_shape", "epsilon")
    x: Saved
    weight: Saved
    bias: Saved
    mean: Saved
    rstd: Saved
    normalized_shape: Sequence[int] | int
    epsilon: float
    name = "layer_norm_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            bias = self.bias
            mean = unpack(self.mean, self)
            rstd = unpack(self.rstd, self)
            x_grad, weight_grad, bias_grad = _grad_ops.layer_norm_grad(
                x,
                weight,
                bias,
                mean,
                rstd,
                out_grad,
                self.normalized_shape,
                self.epsilon,
            )
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        bias = self.bias
        mean = unpack_data(self.mean, self)
        rstd = unpack_data(self.rstd, self)
        _kernel = (
            x.__class__
            is mean.__class__
            is rstd.__class__
            is out_grad._data.__class__
            is weight.__class__
            and _k_layer_norm_grad.get(x.__class__)
            or dispatch(
                "layer_norm_grad",
                "layer_norm_grad",
                x,
                mean,
                rstd,
                out_grad._data,
                weight,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                bias,
                mean,
                rstd,
                out_grad._data,
                self.normalized_shape,
                self.epsilon,
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
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.mean = None
        self.rstd = None
        self._released = True


class LayerNormDoubleGradNode(GradNode):
    """Gradient of layer_norm_grad (second-order gradient of layer_norm; mean and rstd are folded into x)."""

    __slots__ = ("x", "weight", "mean", "rstd", "out_grad", "normalized_shape", "epsilon")
    x: Saved
    weight: Saved
    mean: Saved
    rstd: Saved
    out_grad: Saved
    normalized_shape: Sequence[int] | int
    epsilon: float
    name = "layer_norm_double_grad"
    n_outputs = 3

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        weight_grad_grad: Tensor | None = grads[1]
        bias_grad_grad: Tensor | None = grads[2]
        if create_graph:
            x = unpack(self.x, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            mean = unpack(self.mean, self)
            rstd = unpack(self.rstd, self)
            out_grad = unpack(self.out_grad, self)
            normalized_shape = self.normalized_shape
            epsilon = self.epsilon
            wgg = _ops.zero(x) if weight_grad_grad is None else weight_grad_grad
            ddw = _ops.zero(x) if weight is None else wgg
            ddb = _ops.zero(x) if bias_grad_grad is None else bias_grad_grad
            v = out_grad if weight is None else out_grad * weight
            xhat = _ops.layer_norm(x, normalized_shape, None, None, epsilon)
            cnt = _ops.reduce_as(_ops.fill(x, 1.0), mean)
            xc = x - _ops.reduce_as(x, mean) / cnt
            r = _ops.rsqrt(_ops.reduce_as(xc * xc, mean) / cnt + epsilon)
            ju = _grad_ops.layer_norm_grad(x, None, None, mean, rstd, x_grad_grad, normalized_shape, epsilon)[0]
            jv = _grad_ops.layer_norm_grad(x, None, None, mean, rstd, v, normalized_shape, epsilon)[0]
            jh = _grad_ops.layer_norm_grad(x, None, None, mean, rstd, out_grad * ddw, normalized_shape, epsilon)[0]
            b = _ops.reduce_as(v * xhat, mean) / cnt
            c = _ops.reduce_as(x_grad_grad * xhat, mean) / cnt
            d = _ops.reduce_as(x_grad_grad * jv, mean) / cnt
            grad_wrt_x = jh - r * (b * ju + c * jv + d * xhat)
            grad_wrt_weight = None if weight is None else _ops.reduce_as(out_grad * ju, weight)
            grad_wrt_out_grad = (ju if weight is None else weight * ju) + ddw * xhat + ddb
            return (grad_wrt_x, grad_wrt_weight, None, None, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        mean = unpack_data(self.mean, self)
        rstd = unpack_data(self.rstd, self)
        out_grad = unpack_data(self.out_grad, self)
        _weight_grad_grad_data = None if weight_grad_grad is None else weight_grad_grad._data
        _bias_grad_grad_data = None if bias_grad_grad is None else bias_grad_grad._data
        _kernel = (
            x.__class__
            is mean.__class__
            is rstd.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            is weight.__class__
            is _weight_grad_grad_data.__class__
            is _bias_grad_grad_data.__class__
            and _k_layer_norm_double_grad.get(x.__class__)
            or dispatch(
                "layer_norm_double_grad",
                "layer_norm_double_grad",
                x,
                mean,
                rstd,
                out_grad,
                x_grad_grad._data,
                weight,
                _weight_grad_grad_data,
                _bias_grad_grad_data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                mean,
                rstd,
                out_grad,
                x_grad_grad._data,
                _weight_grad_grad_data,
                _bias_grad_grad_data,
                self.normalized_shape,
                self.epsilon,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("layer_norm_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("layer_norm_double_grad", 3, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_weight = None if _r1 is None else wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_x, grad_wrt_weight, None, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.mean = None
        self.rstd = None
        self.out_grad = None
        self._released = True


class BatchNormGradNode(GradNode):
    """Gradient of batch_norm."""

    __slots__ = ("x", "weight", "bias", "saved_mean", "saved_rstd", "training", "momentum", "epsilon")
    x: Saved
    weight: Saved
    bias: Saved
    saved_mean: Saved
    saved_rstd: Saved
    training: bool
    momentum: float
    epsilon: float
    name = "batch_norm_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            bias = self.bias
            saved_mean = unpack(self.saved_mean, self)
            saved_rstd = unpack(self.saved_rstd, self)
            x_grad, weight_grad, bias_grad = _grad_ops.batch_norm_grad(
                x,
                weight,
                bias,
                saved_mean,
                saved_rstd,
                out_grad,
                self.training,
                self.momentum,
                self.epsilon,
            )
            return (x_grad, None, None, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        bias = self.bias
        saved_mean = unpack_data(self.saved_mean, self)
        saved_rstd = unpack_data(self.saved_rstd, self)
        _kernel = (
            x.__class__
            is saved_mean.__class__
            is saved_rstd.__class__
            is out_grad._data.__class__
            is weight.__class__
            and _k_batch_norm_grad.get(x.__class__)
            or dispatch(
                "batch_norm_grad",
                "batch_norm_grad",
                x,
                saved_mean,
                saved_rstd,
                out_grad._data,
                weight,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                bias,
                saved_mean,
                saved_rstd,
                out_grad._data,
                self.training,
                self.momentum,
                self.epsilon,
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
        return (x_grad, None, None, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.saved_mean = None
        self.saved_rstd = None
        self._released = True


class BatchNormDoubleGradNode(GradNode):
    """Gradient of batch_norm_grad (second-order gradient of batch_norm; the batch statistics are folded
    into x).
    """

    __slots__ = ("x", "weight", "saved_mean", "saved_rstd", "out_grad", "training", "momentum", "epsilon")
    x: Saved
    weight: Saved
    saved_mean: Saved
    saved_rstd: Saved
    out_grad: Saved
    training: bool
    momentum: float
    epsilon: float
    name = "batch_norm_double_grad"
    n_outputs = 3

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        weight_grad_grad: Tensor | None = grads[1]
        bias_grad_grad: Tensor | None = grads[2]
        if create_graph:
            x = unpack(self.x, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            saved_mean = unpack(self.saved_mean, self)
            saved_rstd = unpack(self.saved_rstd, self)
            out_grad = unpack(self.out_grad, self)
            training = self.training
            momentum = self.momentum
            epsilon = self.epsilon
            cnt = _ops.reduce_as(_ops.fill(x, 1.0), saved_mean)
            zv = _ops.flatten(_ops.zero(saved_mean))
            ones_v = _ops.flatten(_ops.fill(saved_mean, 1.0))
            wv = ones_v if weight is None else weight
            wgg = zv if weight_grad_grad is None else weight_grad_grad
            dwv = zv if weight is None else wgg
            dbv = zv if bias_grad_grad is None else bias_grad_grad
            wc = _grad_ops.reshape_grad(saved_mean, wv, [-1])
            ddw = _grad_ops.reshape_grad(saved_mean, dwv, [-1])
            ddb = _grad_ops.reshape_grad(saved_mean, dbv, [-1])
            v = out_grad * wc
            ju = _grad_ops.batch_norm_grad(x, None, None, saved_mean, saved_rstd, x_grad_grad, training, momentum, epsilon)[0]
            jv = _grad_ops.batch_norm_grad(x, None, None, saved_mean, saved_rstd, v, training, momentum, epsilon)[0]
            jh = _grad_ops.batch_norm_grad(x, None, None, saved_mean, saved_rstd, out_grad * ddw, training, momentum, epsilon)[0]
            xc = x - _ops.reduce_as(x, saved_mean) / cnt
            r = _ops.rsqrt(_ops.reduce_as(xc * xc, saved_mean) / cnt + epsilon)
            xhat_eval = (x - saved_mean) * saved_rstd
            xhat = xc * r if training else xhat_eval
            b = _ops.reduce_as(v * xhat, saved_mean) / cnt
            c = _ops.reduce_as(x_grad_grad * xhat, saved_mean) / cnt
            d = _ops.reduce_as(x_grad_grad * jv, saved_mean) / cnt
            main = r * (b * ju + c * jv + d * xhat)
            grad_wrt_x = jh - main if training else jh
            gw = _ops.flatten(_ops.reduce_as(out_grad * ju, saved_mean))
            grad_wrt_weight = None if weight is None else gw
            grad_wrt_out_grad = wc * ju + ddw * xhat + ddb
            return (grad_wrt_x, grad_wrt_weight, None, None, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        saved_mean = unpack_data(self.saved_mean, self)
        saved_rstd = unpack_data(self.saved_rstd, self)
        out_grad = unpack_data(self.out_grad, self)
        _weight_grad_grad_data = None if weight_grad_grad is None else weight_grad_grad._data
        _bias_grad_grad_data = None if bias_grad_grad is None else bias_grad_grad._data
        _kernel = (
            x.__class__
            is saved_mean.__class__
            is saved_rstd.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            is weight.__class__
            is _weight_grad_grad_data.__class__
            is _bias_grad_grad_data.__class__
            and _k_batch_norm_double_grad.get(x.__class__)
            or dispatch(
                "batch_norm_double_grad",
                "batch_norm_double_grad",
                x,
                saved_mean,
                saved_rstd,
                out_grad,
                x_grad_grad._data,
                weight,
                _weight_grad_grad_data,
                _bias_grad_grad_data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                saved_mean,
                saved_rstd,
                out_grad,
                x_grad_grad._data,
                _weight_grad_grad_data,
                _bias_grad_grad_data,
                self.training,
                self.momentum,
                self.epsilon,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("batch_norm_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("batch_norm_double_grad", 3, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_weight = None if _r1 is None else wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_x, grad_wrt_weight, None, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.saved_mean = None
        self.saved_rstd = None
        self.out_grad = None
        self._released = True


class GroupNormGradNode(GradNode):
    """Gradient of group_norm."""

    __slots__ = ("x", "weight", "bias", "mean", "rstd", "num_groups", "epsilon")
    x: Saved
    weight: Saved
    bias: Saved
    mean: Saved
    rstd: Saved
    num_groups: int
    epsilon: float
    name = "group_norm_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            bias = self.bias
            mean = unpack(self.mean, self)
            rstd = unpack(self.rstd, self)
            x_grad, weight_grad, bias_grad = _grad_ops.group_norm_grad(
                x,
                weight,
                bias,
                mean,
                rstd,
                out_grad,
                self.num_groups,
                self.epsilon,
            )
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        bias = self.bias
        mean = unpack_data(self.mean, self)
        rstd = unpack_data(self.rstd, self)
        _kernel = (
            x.__class__
            is mean.__class__
            is rstd.__class__
            is out_grad._data.__class__
            is weight.__class__
            and _k_group_norm_grad.get(x.__class__)
            or dispatch(
                "group_norm_grad",
                "group_norm_grad",
                x,
                mean,
                rstd,
                out_grad._data,
                weight,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                bias,
                mean,
                rstd,
                out_grad._data,
                self.num_groups,
                self.epsilon,
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
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.mean = None
        self.rstd = None
        self._released = True


class GroupNormDoubleGradNode(GradNode):
    """Gradient of group_norm_grad (second-order gradient of group_norm; mean and rstd are folded into x)."""

    __slots__ = ("x", "weight", "mean", "rstd", "out_grad", "num_groups", "epsilon")
    x: Saved
    weight: Saved
    mean: Saved
    rstd: Saved
    out_grad: Saved
    num_groups: int
    epsilon: float
    name = "group_norm_double_grad"
    n_outputs = 3

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        weight_grad_grad: Tensor | None = grads[1]
        bias_grad_grad: Tensor | None = grads[2]
        if create_graph:
            x = unpack(self.x, self)
            weight = None if self.weight is None else unpack(self.weight, self)
            mean = unpack(self.mean, self)
            rstd = unpack(self.rstd, self)
            out_grad = unpack(self.out_grad, self)
            num_groups = self.num_groups
            epsilon = self.epsilon
            o3 = _ops.fill(_ops.flatten(_ops.unsqueeze(x, [-1]), 2), 1.0)
            w3 = o3 if weight is None else o3 * _ops.unsqueeze(weight, [-1])
            zc = _ops.zero(_ops.sum(o3, [0, 2]))
            wgg = zc if weight_grad_grad is None else weight_grad_grad
            dwv = zc if weight is None else wgg
            dbv = zc if bias_grad_grad is None else bias_grad_grad
            wx = _grad_ops.flatten_grad(x, _ops.flatten(w3, 1), 1, -1)
            ddw = _grad_ops.flatten_grad(x, _ops.flatten(o3 * _ops.unsqueeze(dwv, [-1]), 1), 1, -1)
            ddb = _grad_ops.flatten_grad(x, _ops.flatten(o3 * _ops.unsqueeze(dbv, [-1]), 1), 1, -1)
            v = out_grad * wx
            xhat = _ops.group_norm(x, num_groups, None, None, epsilon)
            ju = _grad_ops.group_norm_grad(x, None, None, mean, rstd, x_grad_grad, num_groups, epsilon)[0]
            jv = _grad_ops.group_norm_grad(x, None, None, mean, rstd, v, num_groups, epsilon)[0]
            jh = _grad_ops.group_norm_grad(x, None, None, mean, rstd, out_grad * ddw, num_groups, epsilon)[0]
            xg = _ops.stack(_ops.split(_ops.flatten(x, 1), num_groups, 1), 1)
            cnt = _ops.reduce_as(_ops.fill(xg, 1.0), mean)
            xc = xg - _ops.reduce_as(xg, mean) / cnt
            r = _ops.rsqrt(_ops.reduce_as(xc * xc, mean) / cnt + epsilon)
            b = _ops.reduce_as(_ops.stack(_ops.split(_ops.flatten(v * xhat, 1), num_groups, 1), 1), mean) / cnt
            c = _ops.reduce_as(_ops.stack(_ops.split(_ops.flatten(x_grad_grad * xhat, 1), num_groups, 1), 1), mean) / cnt
            d = _ops.reduce_as(_ops.stack(_ops.split(_ops.flatten(x_grad_grad * jv, 1), num_groups, 1), 1), mean) / cnt
            gu = _ops.stack(_ops.split(_ops.flatten(ju, 1), num_groups, 1), 1)
            gv = _ops.stack(_ops.split(_ops.flatten(jv, 1), num_groups, 1), 1)
            gx = _ops.stack(_ops.split(_ops.flatten(xhat, 1), num_groups, 1), 1)
            grad_wrt_x = jh - _grad_ops.flatten_grad(x, _ops.flatten(r * (b * gu + c * gv + d * gx), 1), 1, -1)
            gw = _ops.sum(_ops.flatten(_ops.unsqueeze(out_grad * ju, [-1]), 2), [0, 2])
            grad_wrt_weight = None if weight is None else gw
            grad_wrt_out_grad = wx * ju + ddw * xhat + ddb
            return (grad_wrt_x, grad_wrt_weight, None, None, None, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        weight = None if self.weight is None else unpack_data(self.weight, self)
        mean = unpack_data(self.mean, self)
        rstd = unpack_data(self.rstd, self)
        out_grad = unpack_data(self.out_grad, self)
        _weight_grad_grad_data = None if weight_grad_grad is None else weight_grad_grad._data
        _bias_grad_grad_data = None if bias_grad_grad is None else bias_grad_grad._data
        _kernel = (
            x.__class__
            is mean.__class__
            is rstd.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            is weight.__class__
            is _weight_grad_grad_data.__class__
            is _bias_grad_grad_data.__class__
            and _k_group_norm_double_grad.get(x.__class__)
            or dispatch(
                "group_norm_double_grad",
                "group_norm_double_grad",
                x,
                mean,
                rstd,
                out_grad,
                x_grad_grad._data,
                weight,
                _weight_grad_grad_data,
                _bias_grad_grad_data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                mean,
                rstd,
                out_grad,
                x_grad_grad._data,
                _weight_grad_grad_data,
                _bias_grad_grad_data,
                self.num_groups,
                self.epsilon,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("group_norm_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("group_norm_double_grad", 3, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_weight = None if _r1 is None else wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_x, grad_wrt_weight, None, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.mean = None
        self.rstd = None
        self.out_grad = None
        self._released = True


class LinearGradNode(GradNode):
    """Gradient of linear."""

    __slots__ = ("x", "weight", "bias")
    x: Saved
    weight: Saved
    bias: Saved
    name = "linear_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad: Tensor | None
        weight_grad: Tensor | None
        bias_grad: Tensor | None
        if create_graph:
            x = unpack(self.x, self)
            weight = unpack(self.weight, self)
            bias = self.bias
            x_grad, weight_grad, bias_grad = _grad_ops.linear_grad(x, weight, bias, out_grad)
            return (x_grad, weight_grad, bias_grad)
        x = unpack_data(self.x, self)
        weight = unpack_data(self.weight, self)
        bias = self.bias
        _kernel = (
            x.__class__
            is weight.__class__
            is out_grad._data.__class__
            and _k_linear_grad.get(x.__class__)
            or dispatch(
                "linear_grad",
                "linear_grad",
                x,
                weight,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                weight,
                bias,
                out_grad._data,
                (self._next0 is not None, self._next1 is not None, self._nexts[2] is not None),
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("linear_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("linear_grad", 3, _results) from None
        x_grad = None if _r0 is None else wrap(_r0)
        weight_grad = None if _r1 is None else wrap(_r1)
        bias_grad = None if _r2 is None else wrap(_r2)
        return (x_grad, weight_grad, bias_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True


class LinearDoubleGradNode(GradNode):
    """Gradient of linear_grad (second-order gradient of linear)."""

    __slots__ = ("x", "weight", "out_grad")
    x: Saved
    weight: Saved
    out_grad: Saved
    name = "linear_double_grad"
    n_outputs = 3

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        weight_grad_grad = grads[1]
        bias_grad_grad = grads[2]
        x = unpack(self.x, self)
        weight = unpack(self.weight, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = _ops.matmul_xg(x, weight_grad_grad, out_grad)
        grad_wrt_weight = _ops.matmul_yg(x_grad_grad, weight, out_grad)
        grad_wrt_out_grad = _ops.linear(x_grad_grad, weight, bias_grad_grad) + x @ weight_grad_grad
        return (grad_wrt_x, grad_wrt_weight, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self.out_grad = None
        self._released = True


class EinsumGradNode(GradNode):
    """Gradient of einsum."""

    __slots__ = ("x", "y", "equation")
    x: Saved
    y: Saved
    equation: str
    name = "einsum_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            x_grad, y_grad = _grad_ops.einsum_grad(x, y, out_grad, self.equation)
            return (x_grad, y_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad._data.__class__
            and _k_einsum_grad.get(x.__class__)
            or dispatch(
                "einsum_grad",
                "einsum_grad",
                x,
                y,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
                out_grad._data,
                self.equation,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("einsum_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("einsum_grad", 2, _results) from None
        x_grad = wrap(_r0)
        y_grad = wrap(_r1)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class EinsumDoubleGradNode(GradNode):
    """Gradient of einsum_grad (second-order gradient of einsum)."""

    __slots__ = ("x", "y", "out_grad", "equation")
    x: Saved
    y: Saved
    out_grad: Saved
    equation: str
    name = "einsum_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            out_grad = unpack(self.out_grad, self)
            equation = self.equation
            grad_wrt_x = _grad_ops.einsum_grad(x, y_grad_grad, out_grad, equation)[0]
            grad_wrt_y = _grad_ops.einsum_grad(x_grad_grad, y, out_grad, equation)[1]
            grad_wrt_out_grad = _ops.reduce_as(_ops.einsum(equation, x_grad_grad, y) + _ops.einsum(equation, x, y_grad_grad), out_grad)
            return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        out_grad = unpack_data(self.out_grad, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad.__class__
            is x_grad_grad._data.__class__
            is y_grad_grad._data.__class__
            and _k_einsum_double_grad.get(x.__class__)
            or dispatch(
                "einsum_double_grad",
                "einsum_double_grad",
                x,
                y,
                out_grad,
                x_grad_grad._data,
                y_grad_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
                out_grad,
                x_grad_grad._data,
                y_grad_grad._data,
                self.equation,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("einsum_double_grad", _e) from None
        try:
            _r0, _r1, _r2 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("einsum_double_grad", 3, _results) from None
        grad_wrt_x = wrap(_r0)
        grad_wrt_y = wrap(_r1)
        grad_wrt_out_grad = wrap(_r2)
        return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out_grad = None
        self._released = True


class ScaledDotProductAttentionGradNode(GradNode):
    """Gradient of scaled_dot_product_attention."""

    __slots__ = ("query", "key", "value", "mask", "weights", "keep", "dropout_p", "causal", "scale")
    query: Saved
    key: Saved
    value: Saved
    mask: Saved
    weights: Saved
    keep: Saved
    dropout_p: float
    causal: bool
    scale: float | None
    name = "scaled_dot_product_attention_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            query = unpack(self.query, self)
            key = unpack(self.key, self)
            value = unpack(self.value, self)
            mask = None if self.mask is None else unpack(self.mask, self)
            weights = unpack(self.weights, self)
            keep = unpack(self.keep, self)
            query_grad, key_grad, value_grad, mask_grad = _grad_ops.scaled_dot_product_attention_grad(
                query,
                key,
                value,
                mask,
                weights,
                keep,
                out_grad,
                self.dropout_p,
                self.causal,
                self.scale,
            )
            return (query_grad, key_grad, value_grad, mask_grad)
        query = unpack_data(self.query, self)
        key = unpack_data(self.key, self)
        value = unpack_data(self.value, self)
        mask = None if self.mask is None else unpack_data(self.mask, self)
        weights = unpack_data(self.weights, self)
        keep = unpack_data(self.keep, self)
        _kernel = (
            query.__class__
            is key.__class__
            is value.__class__
            is weights.__class__
            is keep.__class__
            is out_grad._data.__class__
            is mask.__class__
            and _k_scaled_dot_product_attention_grad.get(query.__class__)
            or dispatch(
                "scaled_dot_product_attention_grad",
                "scaled_dot_product_attention_grad",
                query,
                key,
                value,
                weights,
                keep,
                out_grad._data,
                mask,
            )
        )
        try:
            _results = _kernel(
                query,
                key,
                value,
                mask,
                weights,
                keep,
                out_grad._data,
                self.dropout_p,
                self.causal,
                self.scale,
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
        return (query_grad, key_grad, value_grad, mask_grad)

    def release_saved(self) -> None:
        self.query = None
        self.key = None
        self.value = None
        self.mask = None
        self.weights = None
        self.keep = None
        self._released = True


class ScaledDotProductAttentionDoubleGradNode(GradNode):
    """Gradient of scaled_dot_product_attention_grad (second-order gradient of attention; the weights are
    folded into query, key and mask).
    """

    __slots__ = ("query", "key", "value", "mask", "weights", "keep", "out_grad", "dropout_p", "causal", "scale")
    query: Saved
    key: Saved
    value: Saved
    mask: Saved
    weights: Saved
    keep: Saved
    out_grad: Saved
    dropout_p: float
    causal: bool
    scale: float | None
    name = "scaled_dot_product_attention_double_grad"
    n_outputs = 4

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        query_grad_grad = grads[0]
        key_grad_grad = grads[1]
        value_grad_grad = grads[2]
        mask_grad_grad: Tensor | None = grads[3]
        if create_graph:
            query = unpack(self.query, self)
            key = unpack(self.key, self)
            value = unpack(self.value, self)
            mask = None if self.mask is None else unpack(self.mask, self)
            weights = unpack(self.weights, self)
            keep = unpack(self.keep, self)
            out_grad = unpack(self.out_grad, self)
            dropout_p = self.dropout_p
            causal = self.causal
            scale = self.scale
            eye_q = _ops.tril(_ops.triu(_ops.fill(_ops.matmul(weights, weights, False, True), 1.0)))
            eye_k = _ops.tril(_ops.triu(_ops.fill(_ops.matmul(weights, weights, True, False), 1.0)))
            zt = _ops.zero(_ops.matmul(weights, eye_q, True, False))
            pt = _grad_ops.scaled_dot_product_attention_grad(query, key, zt, mask, weights, keep, eye_q, 0.0, causal, scale)[2]
            p = _ops.matmul(pt, eye_k, True, False)
            kf = _ops.where(keep, _ops.fill(weights, 1.0 / (1.0 - dropout_p)), 0.0)
            hd = _ops.mean(_ops.sum(_ops.fill(query, 1.0), [-1]))
            s = _ops.rsqrt(hd) if scale is None else scale
            dp = _ops.matmul(out_grad, value, False, True) * kf
            ds = _ops.softmax_vjp(p, dp, -1)
            sd0 = s * (_ops.matmul(query_grad_grad, key, False, True) + _ops.matmul(query, key_grad_grad, False, True))
            s_dot = sd0 if mask_grad_grad is None else sd0 + mask_grad_grad
            e = _ops.matmul(out_grad, value_grad_grad, False, True) * kf
            through_p = e + dp * s_dot - s_dot * _ops.sum(dp * p, [-1], True) - dp * _ops.sum(p * s_dot, [-1], True)
            h = _ops.softmax_vjp(p, through_p, -1)
            grad_wrt_query = _ops.reduce_as(s * (_ops.matmul(h, key) + _ops.matmul(ds, key_grad_grad)), query)
            grad_wrt_key = _ops.reduce_as(s * (_ops.matmul(h, query, True, False) + _ops.matmul(ds, query_grad_grad, True, False)), key)
            pdd = _ops.softmax_vjp(p, s_dot, -1) * kf
            grad_wrt_value = _ops.reduce_as(_ops.matmul(pdd, out_grad, True, False), value)
            grad_wrt_mask = _grad_ops.scaled_dot_product_attention_grad(query, key, eye_k, mask, weights, keep, through_p, 0.0, causal, scale)[3]
            grad_wrt_out_grad = _ops.reduce_as(_ops.matmul(pdd, value) + _ops.matmul(p * kf, value_grad_grad), out_grad)
            return (grad_wrt_query, grad_wrt_key, grad_wrt_value, grad_wrt_mask, None, None, grad_wrt_out_grad)
        query = unpack_data(self.query, self)
        key = unpack_data(self.key, self)
        value = unpack_data(self.value, self)
        mask = None if self.mask is None else unpack_data(self.mask, self)
        weights = unpack_data(self.weights, self)
        keep = unpack_data(self.keep, self)
        out_grad = unpack_data(self.out_grad, self)
        _mask_grad_grad_data = None if mask_grad_grad is None else mask_grad_grad._data
        _kernel = (
            query.__class__
            is key.__class__
            is value.__class__
            is weights.__class__
            is keep.__class__
            is out_grad.__class__
            is query_grad_grad._data.__class__
            is key_grad_grad._data.__class__
            is value_grad_grad._data.__class__
            is mask.__class__
            is _mask_grad_grad_data.__class__
            and _k_scaled_dot_product_attention_double_grad.get(query.__class__)
            or dispatch(
                "scaled_dot_product_attention_double_grad",
                "scaled_dot_product_attention_double_grad",
                query,
                key,
                value,
                weights,
                keep,
                out_grad,
                query_grad_grad._data,
                key_grad_grad._data,
                value_grad_grad._data,
                mask,
                _mask_grad_grad_data,
            )
        )
        try:
            _results = _kernel(
                query,
                key,
                value,
                mask,
                weights,
                keep,
                out_grad,
                query_grad_grad._data,
                key_grad_grad._data,
                value_grad_grad._data,
                _mask_grad_grad_data,
                self.dropout_p,
                self.causal,
                self.scale,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("scaled_dot_product_attention_double_grad", _e) from None
        try:
            _r0, _r1, _r2, _r3, _r4 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("scaled_dot_product_attention_double_grad", 5, _results) from None
        grad_wrt_query = wrap(_r0)
        grad_wrt_key = wrap(_r1)
        grad_wrt_value = wrap(_r2)
        grad_wrt_mask = None if _r3 is None else wrap(_r3)
        grad_wrt_out_grad = wrap(_r4)
        return (grad_wrt_query, grad_wrt_key, grad_wrt_value, grad_wrt_mask, None, None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.query = None
        self.key = None
        self.value = None
        self.mask = None
        self.weights = None
        self.keep = None
        self.out_grad = None
        self._released = True


class UnfoldGradNode(GradNode):
    """Gradient of unfold."""

    __slots__ = ("x", "kernel_size", "dilation", "padding", "stride")
    x: Saved
    kernel_size: Sequence[int] | int
    dilation: Sequence[int] | int
    padding: Sequence[int] | int
    stride: Sequence[int] | int
    name = "unfold_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.unfold_grad(
                x,
                out_grad,
                self.kernel_size,
                self.dilation,
                self.padding,
                self.stride,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_unfold_grad.get(out_grad._data.__class__) or dispatch("unfold_grad", "unfold_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.kernel_size, self.dilation, self.padding, self.stride))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("unfold_grad", _e) from None
        return (x_grad,)


class UnfoldDoubleGradNode(GradNode):
    """Gradient of unfold_grad (second-order gradient of unfold)."""

    __slots__ = ("kernel_size", "dilation", "padding", "stride")
    kernel_size: Sequence[int] | int
    dilation: Sequence[int] | int
    padding: Sequence[int] | int
    stride: Sequence[int] | int
    name = "unfold_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        kernel_size = self.kernel_size
        dilation = self.dilation
        padding = self.padding
        stride = self.stride
        grad_wrt_out_grad = _ops.unfold(x_grad_grad, kernel_size, dilation, padding, stride)
        return (None, grad_wrt_out_grad)


class FoldGradNode(GradNode):
    """Gradient of fold."""

    __slots__ = ("output_size", "kernel_size", "dilation", "padding", "stride")
    output_size: Sequence[int] | int
    kernel_size: Sequence[int] | int
    dilation: Sequence[int] | int
    padding: Sequence[int] | int
    stride: Sequence[int] | int
    name = "fold_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        kernel_size = self.kernel_size
        dilation = self.dilation
        padding = self.padding
        stride = self.stride
        x_grad = _ops.unfold(out_grad, kernel_size, dilation, padding, stride)
        return (x_grad,)


class FillGradNode(GradNode):
    """Zeros shaped like x (fill's result does not depend on x)."""

    __slots__ = ("x", "value")
    x: Saved
    value: float
    name = "fill_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.fill_grad(x, out_grad, self.value)
            return (x_grad,)
        x = self.x
        _kernel = _k_fill_grad.get(out_grad._data.__class__) or dispatch("fill_grad", "fill_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.value))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("fill_grad", _e) from None
        return (x_grad,)


class FillDoubleGradNode(GradNode):
    """Gradient of fill_grad (second-order gradient of fill)."""

    __slots__ = ("value",)
    value: float
    name = "fill_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_out_grad = 0 * x_grad_grad
        return (None, grad_wrt_out_grad)


class ZeroGradNode(GradNode):
    """Zeros shaped like x (zero's result does not depend on x)."""

    __slots__ = ("x",)
    x: Saved
    name = "zero_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.zero_grad(x, out_grad)
            return (x_grad,)
        x = self.x
        _kernel = _k_zero_grad.get(out_grad._data.__class__) or dispatch("zero_grad", "zero_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("zero_grad", _e) from None
        return (x_grad,)


class ZeroDoubleGradNode(GradNode):
    """Gradient of zero_grad (second-order gradient of zero)."""

    __slots__ = ()
    name = "zero_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_out_grad = 0 * x_grad_grad
        return (None, grad_wrt_out_grad)


class ReduceAsGradNode(GradNode):
    """Gradient of reduce_as, out_grad broadcast back to the shape of x."""

    __slots__ = ("x",)
    x: Saved
    name = "reduce_as_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.reduce_as_grad(x, out_grad)
            return (x_grad, None)
        x = self.x
        _kernel = _k_reduce_as_grad.get(out_grad._data.__class__) or dispatch("reduce_as_grad", "reduce_as_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("reduce_as_grad", _e) from None
        return (x_grad, None)


class ReduceAsDoubleGradNode(GradNode):
    """Gradient of reduce_as_grad."""

    __slots__ = ("out_grad",)
    out_grad: Saved
    name = "reduce_as_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        out_grad = unpack(self.out_grad, self)
        grad_wrt_out_grad = _ops.reduce_as(x_grad_grad, out_grad)
        return (None, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.out_grad = None
        self._released = True


class NarrowAsGradNode(GradNode):
    """Gradient of narrow_as, out_grad followed by zeros up to the shape of x."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: int
    name = "narrow_as_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        axis = self.axis
        x_grad = _ops.pad_as(out_grad, x, axis)
        return (x_grad, None)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class PadAsGradNode(GradNode):
    """Gradient of pad_as, the leading entries of out_grad (x's length along axis)."""

    __slots__ = ("x", "axis")
    x: Saved
    axis: int
    name = "pad_as_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        axis = self.axis
        x_grad = _ops.narrow_as(out_grad, x, axis)
        return (x_grad, None)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class QrSquareBlockGradNode(GradNode):
    """Gradient of qr_square_block, out_grad followed by zero columns up to the shape of x."""

    __slots__ = ("x", "mode")
    x: Saved
    mode: str
    name = "qr_square_block_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = _ops.pad_as(out_grad, x, -1)
        return (x_grad, None)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SoftmaxVjpGradNode(GradNode):
    """Gradient of softmax_vjp."""

    __slots__ = ("p", "g", "axis")
    p: Saved
    g: Saved
    axis: int
    name = "softmax_vjp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        o_grad = grads[0]
        p = unpack(self.p, self)
        g = unpack(self.g, self)
        axis = self.axis
        p_grad = _ops.softmax_vjp_dp(p, g, o_grad, axis)
        g_grad = _ops.softmax_vjp(p, o_grad, axis)
        return (p_grad, g_grad)

    def release_saved(self) -> None:
        self.p = None
        self.g = None
        self._released = True


class SoftmaxVjpDpGradNode(GradNode):
    """Gradient of softmax_vjp_dp."""

    __slots__ = ("p", "g", "r", "axis")
    p: Saved
    g: Saved
    r: Saved
    axis: int
    name = "softmax_vjp_dp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        o_grad = grads[0]
        p = unpack(self.p, self)
        g = unpack(self.g, self)
        r = unpack(self.r, self)
        axis = self.axis
        p_grad = -g * _ops.sum(r * o_grad, axis, True) - r * _ops.sum(g * o_grad, axis, True)
        g_grad = r * o_grad - o_grad * _ops.sum(p * r, axis, True) - p * _ops.sum(r * o_grad, axis, True)
        r_grad = g * o_grad - o_grad * _ops.sum(p * g, axis, True) - p * _ops.sum(g * o_grad, axis, True)
        return (p_grad, g_grad, r_grad)

    def release_saved(self) -> None:
        self.p = None
        self.g = None
        self.r = None
        self._released = True


class MatmulXgGradNode(GradNode):
    """Gradient of matmul_xg."""

    __slots__ = ("y", "g", "transpose_x", "transpose_y")
    y: Saved
    g: Saved
    transpose_x: bool
    transpose_y: bool
    name = "matmul_xg_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        o_grad = grads[0]
        y = unpack(self.y, self)
        g = unpack(self.g, self)
        transpose_x = self.transpose_x
        transpose_y = self.transpose_y
        y_grad = _ops.matmul_yg(o_grad, y, g, transpose_x, transpose_y)
        g_grad = _ops.matmul(o_grad, y, transpose_x, transpose_y)
        return (None, y_grad, g_grad)

    def release_saved(self) -> None:
        self.y = None
        self.g = None
        self._released = True


class MatmulYgGradNode(GradNode):
    """Gradient of matmul_yg."""

    __slots__ = ("x", "g", "transpose_x", "transpose_y")
    x: Saved
    g: Saved
    transpose_x: bool
    transpose_y: bool
    name = "matmul_yg_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        o_grad = grads[0]
        x = unpack(self.x, self)
        g = unpack(self.g, self)
        transpose_x = self.transpose_x
        transpose_y = self.transpose_y
        x_grad = _ops.matmul_xg(x, o_grad, g, transpose_x, transpose_y)
        g_grad = _ops.matmul(x, o_grad, transpose_x, transpose_y)
        return (x_grad, None, g_grad)

    def release_saved(self) -> None:
        self.x = None
        self.g = None
        self._released = True


class MatmulJvpGradNode(GradNode):
    """Gradient of matmul_jvp."""

    __slots__ = ("x", "y", "a", "b", "transpose_x", "transpose_y")
    x: Saved
    y: Saved
    a: Saved
    b: Saved
    transpose_x: bool
    transpose_y: bool
    name = "matmul_jvp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        o_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        a = unpack(self.a, self)
        b = unpack(self.b, self)
        transpose_x = self.transpose_x
        transpose_y = self.transpose_y
        x_grad = _ops.matmul_xg(x, b, o_grad, transpose_x, transpose_y)
        y_grad = _ops.matmul_yg(a, y, o_grad, transpose_x, transpose_y)
        a_grad = _ops.matmul_xg(a, y, o_grad, transpose_x, transpose_y)
        b_grad = _ops.matmul_yg(x, b, o_grad, transpose_x, transpose_y)
        return (x_grad, y_grad, a_grad, b_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.a = None
        self.b = None
        self._released = True


class RemainderGradNode(GradNode):
    """Gradient of remainder."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "remainder_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        x_grad = _ops.reduce_as(out_grad, x)
        y_grad = _ops.reduce_as(-_ops.floor_divide(x, y) * out_grad, y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class LstmCellGradNode(GradNode):
    """Gradient of lstm_cell."""

    __slots__ = ("gates", "c", "c_next", "act")
    gates: Saved
    c: Saved
    c_next: Saved
    act: Saved
    name = "lstm_cell_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        h_grad = grads[0]
        c_next_grad = grads[1]
        if create_graph:
            gates = unpack(self.gates, self)
            c = unpack(self.c, self)
            c_next = unpack(self.c_next, self)
            act = unpack(self.act, self)
            i = _ops.sigmoid(_ops.split(gates, 4, -1)[0])
            f = _ops.sigmoid(_ops.split(gates, 4, -1)[1])
            g = _ops.tanh(_ops.split(gates, 4, -1)[2])
            o = _ops.sigmoid(_ops.split(gates, 4, -1)[3])
            tc = _ops.tanh(f * c + i * g)
            dc = c_next_grad + h_grad * o * (1 - tc * tc)
            gates_grad = _ops.concat([dc * g * i * (1 - i), dc * c * f * (1 - f), dc * i * (1 - g * g), h_grad * tc * o * (1 - o)], -1)
            c_grad = dc * f
            return (gates_grad, c_grad)
        gates = unpack_data(self.gates, self)
        c = unpack_data(self.c, self)
        c_next = unpack_data(self.c_next, self)
        act = unpack_data(self.act, self)
        _kernel = (
            gates.__class__
            is c.__class__
            is c_next.__class__
            is act.__class__
            is h_grad._data.__class__
            is c_next_grad._data.__class__
            and _k_lstm_cell_grad.get(gates.__class__)
            or dispatch(
                "lstm_cell_grad",
                "lstm_cell_grad",
                gates,
                c,
                c_next,
                act,
                h_grad._data,
                c_next_grad._data,
            )
        )
        try:
            _results = _kernel(
                gates,
                c,
                c_next,
                act,
                h_grad._data,
                c_next_grad._data,
            )
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("lstm_cell_grad", _e) from None
        try:
            _r0, _r1 = _results if _results.__class__ is tuple else (_results,)
        except ValueError:
            raise kernel_results_error("lstm_cell_grad", 2, _results) from None
        gates_grad = wrap(_r0)
        c_grad = wrap(_r1)
        return (gates_grad, c_grad)

    def release_saved(self) -> None:
        self.gates = None
        self.c = None
        self.c_next = None
        self.act = None
        self._released = True


class MatrixTransposeGradNode(GradNode):
    """Gradient of matrix_transpose."""

    __slots__ = ()
    name = "matrix_transpose_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = _ops.matrix_transpose(out_grad)
        return (x_grad,)


class TraceGradNode(GradNode):
    """Gradient of trace."""

    __slots__ = ("x",)
    x: Saved
    name = "trace_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = _ops.unsqueeze(out_grad, [-1, -2]) * _ops.tril(_ops.triu(_ops.fill(x, 1.0)))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class OuterGradNode(GradNode):
    """Gradient of outer."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "outer_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        x_grad = _ops.matmul(out_grad, y)
        y_grad = _ops.matmul(x, out_grad)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class DiagonalGradNode(GradNode):
    """Gradient of diagonal."""

    __slots__ = ("x", "offset", "axis1", "axis2")
    x: Saved
    offset: int
    axis1: int
    axis2: int
    name = "diagonal_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.diagonal_grad(
                x,
                out_grad,
                self.offset,
                self.axis1,
                self.axis2,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_diagonal_grad.get(out_grad._data.__class__) or dispatch("diagonal_grad", "diagonal_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.offset, self.axis1, self.axis2))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("diagonal_grad", _e) from None
        return (x_grad,)


class DiagonalDoubleGradNode(GradNode):
    """Gradient of diagonal_grad (second-order gradient of diagonal)."""

    __slots__ = ("offset", "axis1", "axis2")
    offset: int
    axis1: int
    axis2: int
    name = "diagonal_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        offset = self.offset
        axis1 = self.axis1
        axis2 = self.axis2
        grad_wrt_out_grad = _ops.diagonal(x_grad_grad, offset, axis1, axis2)
        return (None, grad_wrt_out_grad)


class DiagEmbedGradNode(GradNode):
    """Gradient of diag_embed."""

    __slots__ = ("offset", "dim1", "dim2")
    offset: int
    dim1: int
    dim2: int
    name = "diag_embed_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        offset = self.offset
        dim1 = self.dim1
        dim2 = self.dim2
        x_grad = _ops.diagonal(out_grad, offset, dim1, dim2)
        return (x_grad,)


class CrossGradNode(GradNode):
    """Gradient of cross."""

    __slots__ = ("x", "y", "axis")
    x: Saved
    y: Saved
    axis: int
    name = "cross_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        axis = self.axis
        x_grad = _ops.reduce_as(_ops.cross(y, out_grad, axis), x)
        y_grad = _ops.reduce_as(_ops.cross(out_grad, x, axis), y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class InvGradNode(GradNode):
    """Gradient of inv."""

    __slots__ = ("out",)
    out: Saved
    name = "inv_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = unpack(self.out, self)
        x_grad = -_ops.matmul(_ops.matmul(out, out_grad, True, False), out, False, True)
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class DetGradNode(GradNode):
    """Gradient of det."""

    __slots__ = ("x", "out")
    x: Saved
    out: Saved
    name = "det_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        out = unpack(self.out, self)
        x_grad = _ops.unsqueeze(out_grad * out, [-1, -2]) * _ops.matrix_transpose(_ops.inv(x))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class SlogdetGradNode(GradNode):
    """Gradient of slogdet."""

    __slots__ = ("x",)
    x: Saved
    name = "slogdet_grad"
    non_differentiable_outputs = (0,)
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        logabsdet_grad = grads[1]
        x = unpack(self.x, self)
        x_grad = _ops.unsqueeze(logabsdet_grad, [-1, -2]) * _ops.matrix_transpose(_ops.inv(x))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SolveGradNode(GradNode):
    """Gradient of solve."""

    __slots__ = ("a", "b", "out")
    a: Saved
    b: Saved
    out: Saved
    name = "solve_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        a = unpack(self.a, self)
        b = unpack(self.b, self)
        out = unpack(self.out, self)
        bg = _ops.solve(_ops.matrix_transpose(a), out_grad)
        a_grad = _ops.reduce_as(-_ops.matmul(bg, out, False, True), a)
        b_grad = _ops.reduce_as(bg, b)
        return (a_grad, b_grad)

    def release_saved(self) -> None:
        self.a = None
        self.b = None
        self.out = None
        self._released = True


class CholeskyGradNode(GradNode):
    """Gradient of cholesky."""

    __slots__ = ("out", "upper")
    out: Saved
    upper: bool
    name = "cholesky_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = unpack(self.out, self)
        upper = self.upper
        low = _ops.matrix_transpose(out) if upper else out
        gl = _ops.matrix_transpose(out_grad) if upper else out_grad
        m = _ops.matmul(low, gl, True, False)
        li = _ops.inv(low)
        s = _ops.matmul(_ops.matmul(li, 0.5 * (_ops.tril(m) + _ops.tril(m, -1)), True, False), li)
        x_grad = 0.5 * (s + _ops.matrix_transpose(s))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class MatrixPowerGradNode(GradNode):
    """Gradient of matrix_power."""

    __slots__ = ("x", "n")
    x: Saved
    n: int
    name = "matrix_power_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            n = self.n
            xt = _ops.matrix_transpose(x)
            zt = _ops.zero(xt)
            eye = _ops.tril(_ops.triu(_ops.fill(xt, 1.0)))
            m = _ops.concat([_ops.concat([xt, out_grad], -1), _ops.concat([zt, xt], -1)], -2)
            x_grad = _ops.matmul(_ops.matmul(_ops.concat([eye, zt], -1), _ops.matrix_power(m, n)), _ops.concat([zt, eye], -2))
            return (x_grad,)
        x = unpack_data(self.x, self)
        _kernel = (
            x.__class__
            is out_grad._data.__class__
            and _k_matrix_power_grad.get(x.__class__)
            or dispatch("matrix_power_grad", "matrix_power_grad", x, out_grad._data)
        )
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.n))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("matrix_power_grad", _e) from None
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class KronGradNode(GradNode):
    """Gradient of kron."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "kron_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = unpack(self.x, self)
            y = unpack(self.y, self)
            x_grad, y_grad = _grad_ops.kron_grad(x, y, out_grad)
            return (x_grad, y_grad)
        x = unpack_data(self.x, self)
        y = unpack_data(self.y, self)
        _kernel = (
            x.__class__
            is y.__class__
            is out_grad._data.__class__
            and _k_kron_grad.get(x.__class__)
            or dispatch(
                "kron_grad",
                "kron_grad",
                x,
                y,
                out_grad._data,
            )
        )
        try:
            _results = _kernel(
                x,
                y,
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
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class KronDoubleGradNode(GradNode):
    """Gradient of kron_grad (second-order gradient of kron)."""

    __slots__ = ("x", "y", "out_grad")
    x: Saved
    y: Saved
    out_grad: Saved
    name = "kron_double_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        y_grad_grad = grads[1]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out_grad = unpack(self.out_grad, self)
        grad_wrt_x = _grad_ops.kron_grad(x, y_grad_grad, out_grad)[0]
        grad_wrt_y = _grad_ops.kron_grad(x_grad_grad, y, out_grad)[1]
        grad_wrt_out_grad = _ops.kron(x_grad_grad, y) + _ops.kron(x, y_grad_grad)
        return (grad_wrt_x, grad_wrt_y, grad_wrt_out_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out_grad = None
        self._released = True


class TriangularSolveGradNode(GradNode):
    """Gradient of triangular_solve."""

    __slots__ = ("x", "y", "out", "upper", "transpose", "unitriangular")
    x: Saved
    y: Saved
    out: Saved
    upper: bool
    transpose: bool
    unitriangular: bool
    name = "triangular_solve_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out = unpack(self.out, self)
        upper = self.upper
        transpose = self.transpose
        unitriangular = self.unitriangular
        yg = _ops.triangular_solve(x, out_grad, upper, False, unitriangular) if transpose else _ops.triangular_solve(x, out_grad, upper, True, unitriangular)
        m = -_ops.matmul(out, yg, False, True) if transpose else -_ops.matmul(yg, out, False, True)
        k = (_ops.triu(m, 1) if unitriangular else _ops.triu(m)) if upper else (_ops.tril(m, -1) if unitriangular else _ops.tril(m))
        x_grad = _ops.reduce_as(k, x)
        y_grad = _ops.reduce_as(yg, y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out = None
        self._released = True


class CholeskySolveGradNode(GradNode):
    """Gradient of cholesky_solve."""

    __slots__ = ("x", "y", "out", "upper")
    x: Saved
    y: Saved
    out: Saved
    upper: bool
    name = "cholesky_solve_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        out = unpack(self.out, self)
        upper = self.upper
        xg = _ops.cholesky_solve(out_grad, y, upper)
        x_grad = _ops.reduce_as(xg, x)
        s = -(_ops.matmul(xg, out, False, True) + _ops.matmul(out, xg, False, True))
        y_grad = _ops.reduce_as(_ops.triu(_ops.matmul(_ops.triu(y), s)) if upper else _ops.tril(_ops.matmul(s, _ops.tril(y))), y)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out = None
        self._released = True


class BmmGradNode(GradNode):
    """Gradient of bmm."""

    __slots__ = ("x", "y")
    x: Saved
    y: Saved
    name = "bmm_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        y = unpack(self.y, self)
        x_grad = _ops.matmul(out_grad, y, False, True)
        y_grad = _ops.matmul(x, out_grad, True, False)
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class EighGradNode(GradNode):
    """Gradient of eigh."""

    __slots__ = ("eigenvalues", "eigenvectors", "UPLO")
    eigenvalues: Saved
    eigenvectors: Saved
    UPLO: str
    name = "eigh_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        eigenvalues_grad = grads[0]
        eigenvectors_grad = grads[1]
        eigenvalues = unpack(self.eigenvalues, self)
        eigenvectors = unpack(self.eigenvectors, self)
        UPLO = self.UPLO
        vt = _ops.matrix_transpose(eigenvectors)
        ident = _ops.diag_embed(_ops.fill(eigenvalues, 1.0))
        f = (1 - ident) / (_ops.unsqueeze(eigenvalues, [-2]) - _ops.unsqueeze(eigenvalues, [-1]) + ident)
        g = _ops.matmul(_ops.matmul(eigenvectors, _ops.diag_embed(eigenvalues_grad) + f * _ops.matmul(vt, eigenvectors_grad)), vt)
        d = _ops.diag_embed(_ops.diagonal(g, 0, -2, -1))
        x_grad = _ops.tril(g + _ops.matrix_transpose(g)) - d if UPLO == "L" else _ops.triu(g + _ops.matrix_transpose(g)) - d
        return (x_grad,)

    def release_saved(self) -> None:
        self.eigenvalues = None
        self.eigenvectors = None
        self._released = True


class EigvalshGradNode(GradNode):
    """Gradient of eigvalsh."""

    __slots__ = ("x", "UPLO")
    x: Saved
    UPLO: str
    name = "eigvalsh_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        UPLO = self.UPLO
        v = _ops.eigh(x, UPLO)[1]
        g = _ops.matmul(_ops.matmul(v, _ops.diag_embed(out_grad)), _ops.matrix_transpose(v))
        d = _ops.diag_embed(_ops.diagonal(g, 0, -2, -1))
        x_grad = _ops.tril(g + _ops.matrix_transpose(g)) - d if UPLO == "L" else _ops.triu(g + _ops.matrix_transpose(g)) - d
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SvdGradNode(GradNode):
    """Gradient of svd."""

    __slots__ = ("u", "s", "vh", "full_matrices")
    u: Saved
    s: Saved
    vh: Saved
    full_matrices: bool
    name = "svd_grad"
    n_outputs = 3

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        u_grad = grads[0]
        s_grad = grads[1]
        vh_grad = grads[2]
        u = unpack(self.u, self)
        s = unpack(self.s, self)
        vh = unpack(self.vh, self)
        full_matrices = self.full_matrices
        uk = _ops.narrow_as(u, _ops.unsqueeze(s, [-2]), -1) if full_matrices else u
        gu = _ops.narrow_as(u_grad, _ops.unsqueeze(s, [-2]), -1) if full_matrices else u_grad
        vhk = _ops.narrow_as(vh, _ops.unsqueeze(s, [-1]), -2) if full_matrices else vh
        gvh = _ops.narrow_as(vh_grad, _ops.unsqueeze(s, [-1]), -2) if full_matrices else vh_grad
        v = _ops.matrix_transpose(vhk)
        gv = _ops.matrix_transpose(gvh)
        ident = _ops.diag_embed(_ops.fill(s, 1.0))
        f = (1 - ident) / (_ops.unsqueeze(s, [-2]) - _ops.unsqueeze(s, [-1]) + ident) / (_ops.unsqueeze(s, [-2]) + _ops.unsqueeze(s, [-1]) + ident)
        ut_gu = _ops.matmul(_ops.matrix_transpose(uk), gu)
        vt_gv = _ops.matmul(vhk, gv)
        sd = _ops.diag_embed(s)
        inner = _ops.matmul(f * (ut_gu - _ops.matrix_transpose(ut_gu)), sd) + _ops.diag_embed(s_grad) + _ops.matmul(sd, f * (vt_gv - _ops.matrix_transpose(vt_gv)))
        sinv = _ops.diag_embed(1 / s)
        core = _ops.matmul(_ops.matmul(uk, inner), vhk)
        x_grad = core + _ops.matmul(_ops.matmul(gu - _ops.matmul(uk, ut_gu), sinv), vhk) + _ops.matmul(_ops.matmul(uk, sinv), _ops.matrix_transpose(gv - _ops.matmul(v, vt_gv)))
        return (x_grad,)

    def release_saved(self) -> None:
        self.u = None
        self.s = None
        self.vh = None
        self._released = True


class SvdvalsGradNode(GradNode):
    """Gradient of svdvals."""

    __slots__ = ("x",)
    x: Saved
    name = "svdvals_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = _ops.matmul(_ops.svd(x)[0] * _ops.unsqueeze(out_grad, [-2]), _ops.svd(x)[2])
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class QrGradNode(GradNode):
    """Gradient of qr."""

    __slots__ = ("q", "r", "mode")
    q: Saved
    r: Saved
    mode: str
    name = "qr_grad"
    n_outputs = 2

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        q_grad = grads[0]
        r_grad = grads[1]
        q = unpack(self.q, self)
        r = unpack(self.r, self)
        mode = self.mode
        u = _ops.qr_square_block(r, q, mode)
        gu = _ops.qr_square_block(r_grad, q, mode)
        gq = q_grad + _ops.matmul(q, _ops.matmul(r, _ops.matrix_transpose(r_grad)) - _ops.matmul(u, _ops.matrix_transpose(gu)))
        m = _ops.matmul(u, _ops.matrix_transpose(gu)) - _ops.matmul(_ops.matrix_transpose(gq), q)
        low = _ops.tril(m, -1)
        b = gq + _ops.matmul(q, low + _ops.matrix_transpose(low) + _ops.diag_embed(_ops.diagonal(m, 0, -2, -1)))
        gx = _ops.matrix_transpose(_ops.triangular_solve(u, _ops.matrix_transpose(b), True))
        x_grad = _ops.pad_as(gx, r, -1) + _ops.matmul(q, r_grad - _ops.pad_as(gu, r, -1))
        return (x_grad,)

    def release_saved(self) -> None:
        self.q = None
        self.r = None
        self._released = True


class MatrixExpGradNode(GradNode):
    """Gradient of matrix_exp."""

    __slots__ = ("x",)
    x: Saved
    name = "matrix_exp_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        at = _ops.matrix_transpose(x)
        big = _ops.concat([_ops.concat([at, out_grad], -1), _ops.concat([_ops.zero(at), at], -1)], -2)
        x_grad = _ops.split(_ops.split(_ops.matrix_exp(big), 2, -2)[0], 2, -1)[1]
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ConjGradNode(GradNode):
    """Gradient of conj."""

    __slots__ = ()
    name = "conj_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = conj_if_complex(out_grad)
        return (x_grad,)


class RealGradNode(GradNode):
    """Gradient of real."""

    __slots__ = ("x",)
    x: Saved
    name = "real_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.real_grad(x, out_grad)
            return (x_grad,)
        x = self.x
        _kernel = _k_real_grad.get(out_grad._data.__class__) or dispatch("real_grad", "real_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("real_grad", _e) from None
        return (x_grad,)


class RealDoubleGradNode(GradNode):
    """Gradient of real_grad (second-order gradient of real)."""

    __slots__ = ()
    name = "real_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_out_grad = _ops.real(x_grad_grad)
        return (None, grad_wrt_out_grad)


class ImagGradNode(GradNode):
    """Gradient of imag."""

    __slots__ = ("x",)
    x: Saved
    name = "imag_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.imag_grad(x, out_grad)
            return (x_grad,)
        x = self.x
        _kernel = _k_imag_grad.get(out_grad._data.__class__) or dispatch("imag_grad", "imag_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("imag_grad", _e) from None
        return (x_grad,)


class ImagDoubleGradNode(GradNode):
    """Gradient of imag_grad (second-order gradient of imag)."""

    __slots__ = ()
    name = "imag_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        grad_wrt_out_grad = _ops.imag(x_grad_grad)
        return (None, grad_wrt_out_grad)


class ComplexGradNode(GradNode):
    """Gradient of complex."""

    __slots__ = ("real", "imag")
    real: Saved
    imag: Saved
    name = "complex_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        real = unpack(self.real, self)
        imag = unpack(self.imag, self)
        real_grad = _ops.reduce_as(_ops.real(out_grad), real)
        imag_grad = _ops.reduce_as(_ops.imag(out_grad), imag)
        return (real_grad, imag_grad)

    def release_saved(self) -> None:
        self.real = None
        self.imag = None
        self._released = True


class PolarGradNode(GradNode):
    """Gradient of polar."""

    __slots__ = ("abs", "angle")
    abs: Saved
    angle: Saved
    name = "polar_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        abs = unpack(self.abs, self)
        angle = unpack(self.angle, self)
        abs_grad = _ops.reduce_as(_ops.real(out_grad) * _ops.cos(angle) + _ops.imag(out_grad) * _ops.sin(angle), abs)
        angle_grad = _ops.reduce_as(abs * (_ops.imag(out_grad) * _ops.cos(angle) - _ops.real(out_grad) * _ops.sin(angle)), angle)
        return (abs_grad, angle_grad)

    def release_saved(self) -> None:
        self.abs = None
        self.angle = None
        self._released = True


class AngleGradNode(GradNode):
    """Gradient of angle."""

    __slots__ = ("x",)
    x: Saved
    name = "angle_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = unpack(self.x, self)
        x_grad = _ops.complex(_ops.zero(out_grad), out_grad) / conj_if_complex(x) if x._data.dtype.kind == "c" else _ops.zero(x)
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ViewAsRealGradNode(GradNode):
    """Gradient of view_as_real."""

    __slots__ = ()
    name = "view_as_real_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = _ops.view_as_complex(out_grad)
        return (x_grad,)


class ViewAsComplexGradNode(GradNode):
    """Gradient of view_as_complex."""

    __slots__ = ()
    name = "view_as_complex_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x_grad = _ops.view_as_real(out_grad)
        return (x_grad,)


class FftnGradNode(GradNode):
    """Gradient of fftn."""

    __slots__ = ("x", "s", "axes", "norm")
    x: Saved
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "fftn_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.fftn_grad(
                x,
                out_grad,
                self.s,
                self.axes,
                self.norm,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_fftn_grad.get(out_grad._data.__class__) or dispatch("fftn_grad", "fftn_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.s, self.axes, self.norm))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("fftn_grad", _e) from None
        return (x_grad,)


class FftnDoubleGradNode(GradNode):
    """Gradient of fftn_grad (second-order gradient of fftn)."""

    __slots__ = ("s", "axes", "norm")
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "fftn_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        s = self.s
        axes = self.axes
        norm = self.norm
        grad_wrt_out_grad = _ops.fftn(x_grad_grad, s, axes, norm)
        return (None, grad_wrt_out_grad)


class IfftnGradNode(GradNode):
    """Gradient of ifftn."""

    __slots__ = ("x", "s", "axes", "norm")
    x: Saved
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "ifftn_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.ifftn_grad(
                x,
                out_grad,
                self.s,
                self.axes,
                self.norm,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_ifftn_grad.get(out_grad._data.__class__) or dispatch("ifftn_grad", "ifftn_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.s, self.axes, self.norm))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("ifftn_grad", _e) from None
        return (x_grad,)


class IfftnDoubleGradNode(GradNode):
    """Gradient of ifftn_grad (second-order gradient of ifftn)."""

    __slots__ = ("s", "axes", "norm")
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "ifftn_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        s = self.s
        axes = self.axes
        norm = self.norm
        grad_wrt_out_grad = _ops.ifftn(x_grad_grad, s, axes, norm)
        return (None, grad_wrt_out_grad)


class RfftnGradNode(GradNode):
    """Gradient of rfftn."""

    __slots__ = ("x", "s", "axes", "norm")
    x: Saved
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "rfftn_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.rfftn_grad(
                x,
                out_grad,
                self.s,
                self.axes,
                self.norm,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_rfftn_grad.get(out_grad._data.__class__) or dispatch("rfftn_grad", "rfftn_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.s, self.axes, self.norm))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("rfftn_grad", _e) from None
        return (x_grad,)


class RfftnDoubleGradNode(GradNode):
    """Gradient of rfftn_grad (second-order gradient of rfftn)."""

    __slots__ = ("s", "axes", "norm")
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "rfftn_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        s = self.s
        axes = self.axes
        norm = self.norm
        grad_wrt_out_grad = _ops.rfftn(x_grad_grad, s, axes, norm)
        return (None, grad_wrt_out_grad)


class IrfftnGradNode(GradNode):
    """Gradient of irfftn."""

    __slots__ = ("x", "s", "axes", "norm")
    x: Saved
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "irfftn_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x = self.x
            x_grad = _grad_ops.irfftn_grad(
                x,
                out_grad,
                self.s,
                self.axes,
                self.norm,
            )
            return (x_grad,)
        x = self.x
        _kernel = _k_irfftn_grad.get(out_grad._data.__class__) or dispatch("irfftn_grad", "irfftn_grad", out_grad._data)
        try:
            x_grad = wrap(_kernel(x, out_grad._data, self.s, self.axes, self.norm))
        except (TypeError, ValueError, OverflowError, MemoryError) as _e:
            raise kernel_error("irfftn_grad", _e) from None
        return (x_grad,)


class IrfftnDoubleGradNode(GradNode):
    """Gradient of irfftn_grad (second-order gradient of irfftn)."""

    __slots__ = ("s", "axes", "norm")
    s: Sequence[int] | int | None
    axes: Sequence[int] | int | None
    norm: str
    name = "irfftn_double_grad"
    _plain = True

    def apply(self, grads: list[Tensor], create_graph: bool) -> tuple[Tensor | None, ...]:
        x_grad_grad = grads[0]
        s = self.s
        axes = self.axes
        norm = self.norm
        grad_wrt_out_grad = _ops.irfftn(x_grad_grad, s, axes, norm)
        return (None, grad_wrt_out_grad)


# The nodes whose first-order `apply` has the one plain kernel shape of
# codegen/plan_fast_nodes.py: (class, kernel table, saves (slot, "data" or "meta"), kernel
# arguments (kind, value), arrays that pick the kernel (a save, or -1: the gradient's),
# result kinds ("": one, wrapped), returned entries (a result, or -1: None)). With the
# optional C primitives built, `_accel.nodes` makes each class's `apply` a C callable that
# runs that path's common case and calls this method for everything else.
_accel.nodes(
    globals(),
    [
        ("NegGradNode", "_k_neg_grad", (), (("grad", 0),), (-1,), "", (0,)),
        ("AbsGradNode", "_k_abs_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("SignGradNode", "_k_sign_grad", (("x", "meta"),), (("save", 0), ("grad", 0)), (-1,), "", (0,)),
        ("ExpGradNode", "_k_exp_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("Expm1GradNode", "_k_expm1_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("LogGradNode", "_k_log_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("Log1pGradNode", "_k_log1p_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("SqrtGradNode", "_k_sqrt_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("RsqrtGradNode", "_k_rsqrt_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("SquareGradNode", "_k_square_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("ReciprocalGradNode", "_k_reciprocal_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("SinGradNode", "_k_sin_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("CosGradNode", "_k_cos_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("TanhGradNode", "_k_tanh_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("TanhDoubleGradNode", "_k_tanh_double_grad", (("out", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("needs", (0, 1))), (0, 1, -1), "oo", (0, 1)),
        ("SigmoidGradNode", "_k_sigmoid_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("ReluGradNode", "_k_relu_grad", (("out", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("GeluGradNode", "_k_gelu_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "approximate")), (0, -1), "", (0,)),
        ("GeluDoubleGradNode", "_k_gelu_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "approximate")), (0, 1, -1), "tt", (0, 1)),
        ("SiluGradNode", "_k_silu_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("SiluDoubleGradNode", "_k_silu_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("SoftplusGradNode", "_k_softplus_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "beta"), ("attr", "threshold")), (0, -1), "", (0,)),
        ("SoftplusDoubleGradNode", "_k_softplus_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "beta"), ("attr", "threshold")), (0, 1, -1), "tt", (0, 1)),
        ("LeakyReluGradNode", "_k_leaky_relu_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "negative_slope")), (0, -1), "", (0,)),
        ("EluGradNode", "_k_elu_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "alpha")), (0, -1), "", (0,)),
        ("ErfGradNode", "_k_erf_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("ScaleGradNode", "_k_scale_grad", (), (("grad", 0), ("attr", "scale"), ("attr", "bias")), (-1,), "", (0,)),
        ("PowGradNode", "_k_pow_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "y")), (0, -1), "", (0,)),
        ("PowDoubleGradNode", "_k_pow_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "y"), ("needs", (0, 1))), (0, 1, -1), "oo", (0, 1)),
        ("ClipGradNode", "_k_clip_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "min"), ("attr", "max")), (0, -1), "", (0,)),
        ("CastGradNode", "_k_cast_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "dtype")), (-1,), "", (0,)),
        ("HardtanhGradNode", "_k_hardtanh_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "min"), ("attr", "max")), (0, -1), "", (0,)),
        ("HardswishGradNode", "_k_hardswish_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("HardsigmoidGradNode", "_k_hardsigmoid_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("MishGradNode", "_k_mish_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("MishDoubleGradNode", "_k_mish_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("LogSigmoidGradNode", "_k_log_sigmoid_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("SwishGradNode", "_k_silu_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("SwishDoubleGradNode", "_k_silu_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("SeluGradNode", "_k_selu_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "scale"), ("attr", "alpha")), (0, -1), "", (0,)),
        ("CeluGradNode", "_k_celu_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "alpha")), (0, -1), "", (0,)),
        ("SoftsignGradNode", "_k_softsign_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("TanhshrinkGradNode", "_k_tanhshrink_grad", (("x", "data"),), (("save", 0), ("grad", 0)), (0, -1), "", (0,)),
        ("AddGradNode", "_k_add_grad", (("x", "meta"), ("y", "meta")), (("save", 0), ("save", 1), ("grad", 0), ("needs", (0, 1))), (-1,), "oo", (0, 1)),
        ("SubtractGradNode", "_k_subtract_grad", (("x", "meta"), ("y", "meta")), (("save", 0), ("save", 1), ("grad", 0), ("needs", (0, 1))), (-1,), "oo", (0, 1)),
        ("MultiplyGradNode", "_k_multiply_grad", (("x", "data"), ("y", "data")), (("save", 0), ("save", 1), ("grad", 0), ("needs", (0, 1))), (0, 1, -1), "oo", (0, 1)),
        ("DivideGradNode", "_k_divide_grad", (("x", "meta"), ("y", "data"), ("out", "data")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("needs", (0, 1))), (1, 2, -1), "oo", (0, 1)),
        ("MaximumGradNode", "_k_maximum_grad", (("x", "data"), ("y", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("MinimumGradNode", "_k_minimum_grad", (("x", "data"), ("y", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("ElementwisePowGradNode", "_k_elementwise_pow_grad", (("x", "data"), ("y", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("WhereGradNode", "_k_where_grad", (("condition", "data"), ("x", "meta"), ("y", "meta")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0)), (0, -1), "tt", (-1, 0, 1)),
        ("LogcumsumexpGradNode", "_k_logcumsumexp_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis")), (0, 1, -1), "", (0,)),
        ("SumGradNode", "_k_sum_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (-1,), "", (0,)),
        ("MeanGradNode", "_k_mean_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (-1,), "", (0,)),
        ("MaxGradNode", "_k_max_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, 1, -1), "", (0,)),
        ("MaxDoubleGradNode", "_k_max_double_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, 1, -1), "", (-1, -1, 0)),
        ("MinGradNode", "_k_min_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, 1, -1), "", (0,)),
        ("MinDoubleGradNode", "_k_min_double_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, 1, -1), "", (-1, -1, 0)),
        ("ProdGradNode", "_k_prod_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, -1), "", (0,)),
        ("ProdDoubleGradNode", "_k_prod_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, 1, -1), "tt", (0, 1)),
        ("LogsumexpGradNode", "_k_logsumexp_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, 1, -1), "", (0,)),
        ("LogsumexpDoubleGradNode", "_k_logsumexp_double_grad", (("x", "data"), ("out", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "axis"), ("attr", "keepdim")), (0, 1, 2, -1), "ttt", (0, 1, 2)),
        ("VarGradNode", "_k_var_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "axis"), ("attr", "unbiased"), ("attr", "keepdim")), (0, -1), "", (0,)),
        ("VarDoubleGradNode", "_k_var_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "unbiased"), ("attr", "keepdim")), (0, 1, -1), "tt", (0, 1)),
        ("StdGradNode", "_k_std_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "unbiased"), ("attr", "keepdim")), (0, 1, -1), "", (0,)),
        ("StdDoubleGradNode", "_k_std_double_grad", (("x", "data"), ("out", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "axis"), ("attr", "unbiased"), ("attr", "keepdim")), (0, 1, 2, -1), "tt", (0, -1, 1)),
        ("NormGradNode", "_k_norm_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "p"), ("attr", "axis"), ("attr", "keepdim")), (0, 1, -1), "", (0,)),
        ("NormDoubleGradNode", "_k_norm_double_grad", (("x", "data"), ("out", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "p"), ("attr", "axis"), ("attr", "keepdim")), (0, 1, 2, -1), "tt", (0, -1, 1)),
        ("CumsumGradNode", "_k_cumsum_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "axis")), (-1,), "", (0,)),
        ("CumprodGradNode", "_k_cumprod_grad", (("x", "data"), ("out", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "dim")), (0, 1, -1), "", (0,)),
        ("CumprodDoubleGradNode", "_k_cumprod_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "dim")), (0, 1, -1), "tt", (0, -1, 1)),
        ("TopkGradNode", "_k_topk_grad", (("x", "meta"), ("indices", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "k"), ("attr", "axis"), ("attr", "largest"), ("attr", "sorted")), (1, -1), "", (0,)),
        ("SortGradNode", "_k_sort_grad", (("x", "meta"), ("indices", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis"), ("attr", "descending")), (1, -1), "", (0,)),
        ("MatmulGradNode", "_k_matmul_grad", (("x", "data"), ("y", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "transpose_x"), ("attr", "transpose_y"), ("needs", (0, 1))), (0, 1, -1), "oo", (0, 1)),
        ("ReshapeGradNode", "_k_reshape_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "shape")), (-1,), "", (0,)),
        ("TransposeGradNode", "_k_transpose_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "perm")), (-1,), "", (0,)),
        ("SqueezeGradNode", "_k_squeeze_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "axis")), (-1,), "", (0,)),
        ("UnsqueezeGradNode", "_k_unsqueeze_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "axis")), (-1,), "", (0,)),
        ("FlattenGradNode", "_k_flatten_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "start_axis"), ("attr", "stop_axis")), (-1,), "", (0,)),
        ("ExpandGradNode", "_k_expand_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "shape")), (-1,), "", (0,)),
        ("GatherGradNode", "_k_gather_grad", (("x", "meta"), ("index", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis")), (1, -1), "", (0, -1)),
        ("IndexSelectGradNode", "_k_index_select_grad", (("x", "meta"), ("index", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis")), (1, -1), "", (0, -1)),
        ("TileGradNode", "_k_tile_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "repeat_times")), (-1,), "", (0,)),
        ("TakeAlongAxisGradNode", "_k_take_along_axis_grad", (("arr", "meta"), ("indices", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis")), (1, -1), "", (0, -1)),
        ("ScatterGradNode", "_k_scatter_grad", (("x", "meta"), ("index", "data"), ("updates", "meta")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "overwrite")), (1, -1), "tt", (0, -1, 1)),
        ("IndexAddGradNode", "_k_index_add_grad", (("x", "meta"), ("index", "data"), ("value", "meta")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "axis")), (1, -1), "tt", (0, -1, 1)),
        ("MaskedFillGradNode", "_k_masked_fill_grad", (("mask", "data"),), (("save", 0), ("grad", 0), ("attr", "value")), (0, -1), "", (0, -1)),
        ("TrilGradNode", "_k_tril_grad", (), (("grad", 0), ("attr", "diagonal")), (-1,), "", (0,)),
        ("TriuGradNode", "_k_triu_grad", (), (("grad", 0), ("attr", "diagonal")), (-1,), "", (0,)),
        ("PadGradNode", "_k_pad_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "pad"), ("attr", "mode"), ("attr", "value")), (-1,), "", (0,)),
        ("RollGradNode", "_k_roll_grad", (), (("grad", 0), ("attr", "shifts"), ("attr", "axis")), (-1,), "", (0,)),
        ("RepeatInterleaveGradNode", "_k_repeat_interleave_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "repeats"), ("attr", "axis")), (-1,), "", (0,)),
        ("FlipGradNode", "_k_flip_grad", (), (("grad", 0), ("attr", "axis")), (-1,), "", (0,)),
        ("SoftmaxGradNode", "_k_softmax_grad", (("out", "data"),), (("save", 0), ("grad", 0), ("attr", "axis")), (0, -1), "", (0,)),
        ("LogSoftmaxGradNode", "_k_log_softmax_grad", (("out", "data"),), (("save", 0), ("grad", 0), ("attr", "axis")), (0, -1), "", (0,)),
        ("DropoutGradNode", "_k_dropout_grad", (("mask", "data"),), (("save", 0), ("grad", 0), ("attr", "p"), ("attr", "training")), (0, -1), "", (0,)),
        ("DropoutDoubleGradNode", "_k_dropout_grad", (("mask", "data"),), (("save", 0), ("grad", 0), ("attr", "p"), ("attr", "training")), (0, -1), "", (-1, 0)),
        ("EmbeddingGradNode", "_k_embedding_grad", (("x", "data"), ("weight", "meta")), (("save", 0), ("save", 1), ("grad", 0)), (0, -1), "", (-1, 0)),
        ("PreluGradNode", "_k_prelu_grad", (("x", "data"), ("weight", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("GluGradNode", "_k_glu_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "axis")), (0, -1), "", (0,)),
        ("GluDoubleGradNode", "_k_glu_double_grad", (("x", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "axis")), (0, 1, -1), "tt", (0, 1)),
        ("CrossEntropyGradNode", "_k_cross_entropy_grad_saved", (("input", "data"), ("label", "data"), ("prob", "data")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "axis"), ("attr", "reduction"), ("attr", "ignore_index"), ("attr", "label_smoothing")), (0, 1, 2, -1), "", (0, -1)),
        ("CrossEntropyDoubleGradNode", "_k_cross_entropy_double_grad", (("input", "data"), ("label", "data"), ("out_grad", "data")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "axis"), ("attr", "reduction"), ("attr", "ignore_index"), ("attr", "label_smoothing")), (0, 1, 2, -1), "tt", (0, -1, -1, 1)),
        ("MseLossGradNode", "_k_mse_loss_grad", (("input", "data"), ("label", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "reduction")), (0, 1, -1), "tt", (0, 1)),
        ("L1LossGradNode", "_k_l1_loss_grad", (("input", "data"), ("label", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "reduction")), (0, 1, -1), "tt", (0, 1)),
        ("SmoothL1LossGradNode", "_k_smooth_l1_loss_grad", (("input", "data"), ("label", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "reduction"), ("attr", "delta")), (0, 1, -1), "tt", (0, 1)),
        ("KlDivGradNode", "_k_kl_div_grad", (("input", "data"), ("label", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "reduction"), ("attr", "log_target")), (0, 1, -1), "tt", (0, 1)),
        ("Conv2dGradNode", "_k_conv2d_grad", (("x", "data"), ("weight", "data"), ("bias", "meta")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "stride"), ("attr", "padding"), ("attr", "dilation"), ("attr", "groups"), ("needs", (0, 1, 2))), (0, 1, -1), "ooo", (0, 1, 2)),
        ("ConvTranspose2dGradNode", "_k_conv_transpose2d_grad", (("x", "data"), ("weight", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "stride"), ("attr", "padding"), ("attr", "output_padding"), ("attr", "groups"), ("attr", "dilation"), ("needs", (0, 1, 2))), (0, 1, -1), "ooo", (0, 1, 2)),
        ("ConvTranspose1dGradNode", "_k_conv_transpose1d_grad", (("x", "data"), ("weight", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "stride"), ("attr", "padding"), ("attr", "output_padding"), ("attr", "groups"), ("attr", "dilation"), ("needs", (0, 1, 2))), (0, 1, -1), "ooo", (0, 1, 2)),
        ("Conv1dGradNode", "_k_conv1d_grad", (("x", "data"), ("weight", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "stride"), ("attr", "padding"), ("attr", "dilation"), ("attr", "groups"), ("needs", (0, 1, 2))), (0, 1, -1), "ooo", (0, 1, 2)),
        ("Conv3dGradNode", "_k_conv3d_grad", (("x", "data"), ("weight", "data"), ("bias", "meta")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("attr", "stride"), ("attr", "padding"), ("attr", "dilation"), ("attr", "groups"), ("needs", (0, 1, 2))), (0, 1, -1), "ooo", (0, 1, 2)),
        ("MaxPool2dGradNode", "_k_max_pool2d_grad", (("x", "meta"), ("argmax", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "kernel_size"), ("attr", "stride"), ("attr", "padding")), (1, -1), "", (0,)),
        ("MaxPool2dDoubleGradNode", "_k_max_pool2d_double_grad", (("argmax", "data"),), (("save", 0), ("grad", 0), ("attr", "kernel_size"), ("attr", "stride"), ("attr", "padding")), (0, -1), "", (-1, -1, 0)),
        ("AvgPool2dGradNode", "_k_avg_pool2d_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "kernel_size"), ("attr", "stride"), ("attr", "padding")), (-1,), "", (0,)),
        ("AdaptiveAvgPool2dGradNode", "_k_adaptive_avg_pool2d_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "output_size")), (-1,), "", (0,)),
        ("LinearGradNode", "_k_linear_grad", (("x", "data"), ("weight", "data"), ("bias", "meta")), (("save", 0), ("save", 1), ("save", 2), ("grad", 0), ("needs", (0, 1, 2))), (0, 1, -1), "ooo", (0, 1, 2)),
        ("EinsumGradNode", "_k_einsum_grad", (("x", "data"), ("y", "data")), (("save", 0), ("save", 1), ("grad", 0), ("attr", "equation")), (0, 1, -1), "tt", (0, 1)),
        ("UnfoldGradNode", "_k_unfold_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "kernel_size"), ("attr", "dilation"), ("attr", "padding"), ("attr", "stride")), (-1,), "", (0,)),
        ("FillGradNode", "_k_fill_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "value")), (-1,), "", (0,)),
        ("ZeroGradNode", "_k_zero_grad", (("x", "meta"),), (("save", 0), ("grad", 0)), (-1,), "", (0,)),
        ("ReduceAsGradNode", "_k_reduce_as_grad", (("x", "meta"),), (("save", 0), ("grad", 0)), (-1,), "", (0, -1)),
        ("DiagonalGradNode", "_k_diagonal_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "offset"), ("attr", "axis1"), ("attr", "axis2")), (-1,), "", (0,)),
        ("MatrixPowerGradNode", "_k_matrix_power_grad", (("x", "data"),), (("save", 0), ("grad", 0), ("attr", "n")), (0, -1), "", (0,)),
        ("KronGradNode", "_k_kron_grad", (("x", "data"), ("y", "data")), (("save", 0), ("save", 1), ("grad", 0)), (0, 1, -1), "tt", (0, 1)),
        ("RealGradNode", "_k_real_grad", (("x", "meta"),), (("save", 0), ("grad", 0)), (-1,), "", (0,)),
        ("ImagGradNode", "_k_imag_grad", (("x", "meta"),), (("save", 0), ("grad", 0)), (-1,), "", (0,)),
        ("FftnGradNode", "_k_fftn_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "s"), ("attr", "axes"), ("attr", "norm")), (-1,), "", (0,)),
        ("IfftnGradNode", "_k_ifftn_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "s"), ("attr", "axes"), ("attr", "norm")), (-1,), "", (0,)),
        ("RfftnGradNode", "_k_rfftn_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "s"), ("attr", "axes"), ("attr", "norm")), (-1,), "", (0,)),
        ("IrfftnGradNode", "_k_irfftn_grad", (("x", "meta"),), (("save", 0), ("grad", 0), ("attr", "s"), ("attr", "axes"), ("attr", "norm")), (-1,), "", (0,)),
    ],
)
