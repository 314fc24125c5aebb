# @generated nodes from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Grad nodes: one GradNode subclass per backward.yaml entry."""

from __future__ import annotations

from opgrad.generated import grad_ops as _grad_ops
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.kernels.registry import dispatch
from opgrad.runtime.tensor import Tensor, wrap

__all__ = [
    "AbsGradNode",
    "AddGradNode",
    "CastGradNode",
    "ClipGradNode",
    "ConcatGradNode",
    "CosGradNode",
    "CrossEntropyGradNode",
    "DivideGradNode",
    "DropoutGradNode",
    "ElementwisePowGradNode",
    "EluGradNode",
    "EmbeddingGradNode",
    "ErfGradNode",
    "ExpGradNode",
    "ExpandGradNode",
    "Expm1GradNode",
    "FlattenGradNode",
    "GatherGradNode",
    "GeluGradNode",
    "IndexSelectGradNode",
    "LeakyReluGradNode",
    "Log1pGradNode",
    "LogGradNode",
    "LogSoftmaxGradNode",
    "LogsumexpGradNode",
    "MatmulGradNode",
    "MaxGradNode",
    "MaximumGradNode",
    "MeanGradNode",
    "MinGradNode",
    "MinimumGradNode",
    "MseLossGradNode",
    "MultiplyGradNode",
    "NegGradNode",
    "PowGradNode",
    "ProdGradNode",
    "ReciprocalGradNode",
    "ReluGradNode",
    "ReshapeGradNode",
    "RsqrtGradNode",
    "ScaleGradNode",
    "SigmoidGradNode",
    "SignGradNode",
    "SiluGradNode",
    "SinGradNode",
    "SoftmaxGradNode",
    "SoftplusGradNode",
    "SplitGradNode",
    "SqrtGradNode",
    "SquareGradNode",
    "SqueezeGradNode",
    "StackGradNode",
    "SubtractGradNode",
    "SumGradNode",
    "TanhGradNode",
    "TileGradNode",
    "TransposeGradNode",
    "UnsqueezeGradNode",
    "WhereGradNode",
]


class NegGradNode(GradNode):
    """Gradient of neg."""

    __slots__ = ()
    name = "neg_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.neg_grad(out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("neg_grad", "neg_grad", out_grad._data)(out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self._released = True


class AbsGradNode(GradNode):
    """Gradient of abs."""

    __slots__ = ("x",)
    name = "abs_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.abs_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("abs_grad", "abs_grad", x._data, out_grad._data)(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SignGradNode(GradNode):
    """Gradient of sign."""

    __slots__ = ("x",)
    name = "sign_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.sign_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("sign_grad", "sign_grad", out_grad._data)(x, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ExpGradNode(GradNode):
    """Gradient of exp."""

    __slots__ = ("out",)
    name = "exp_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.exp_grad(out, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("exp_grad", "exp_grad", out._data, out_grad._data)(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class Expm1GradNode(GradNode):
    """Gradient of expm1."""

    __slots__ = ("out",)
    name = "expm1_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.expm1_grad(out, out_grad)
            return (x_grad,)
        _kernel = dispatch("expm1_grad", "expm1_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class LogGradNode(GradNode):
    """Gradient of log."""

    __slots__ = ("x",)
    name = "log_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.log_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("log_grad", "log_grad", x._data, out_grad._data)(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class Log1pGradNode(GradNode):
    """Gradient of log1p."""

    __slots__ = ("x",)
    name = "log1p_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.log1p_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("log1p_grad", "log1p_grad", x._data, out_grad._data)(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SqrtGradNode(GradNode):
    """Gradient of sqrt."""

    __slots__ = ("out",)
    name = "sqrt_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.sqrt_grad(out, out_grad)
            return (x_grad,)
        _kernel = dispatch("sqrt_grad", "sqrt_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class RsqrtGradNode(GradNode):
    """Gradient of rsqrt."""

    __slots__ = ("out",)
    name = "rsqrt_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.rsqrt_grad(out, out_grad)
            return (x_grad,)
        _kernel = dispatch("rsqrt_grad", "rsqrt_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class SquareGradNode(GradNode):
    """Gradient of square."""

    __slots__ = ("x",)
    name = "square_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.square_grad(x, out_grad)
            return (x_grad,)
        _kernel = dispatch("square_grad", "square_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ReciprocalGradNode(GradNode):
    """Gradient of reciprocal."""

    __slots__ = ("out",)
    name = "reciprocal_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.reciprocal_grad(out, out_grad)
            return (x_grad,)
        _kernel = dispatch("reciprocal_grad", "reciprocal_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class SinGradNode(GradNode):
    """Gradient of sin."""

    __slots__ = ("x",)
    name = "sin_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.sin_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("sin_grad", "sin_grad", x._data, out_grad._data)(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class CosGradNode(GradNode):
    """Gradient of cos."""

    __slots__ = ("x",)
    name = "cos_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.cos_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("cos_grad", "cos_grad", x._data, out_grad._data)(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class TanhGradNode(GradNode):
    """Gradient of tanh."""

    __slots__ = ("out",)
    name = "tanh_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.tanh_grad(out, out_grad)
            return (x_grad,)
        _kernel = dispatch("tanh_grad", "tanh_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class SigmoidGradNode(GradNode):
    """Gradient of sigmoid."""

    __slots__ = ("out",)
    name = "sigmoid_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.sigmoid_grad(out, out_grad)
            return (x_grad,)
        _kernel = dispatch("sigmoid_grad", "sigmoid_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class ReluGradNode(GradNode):
    """Gradient of relu."""

    __slots__ = ("out",)
    name = "relu_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.relu_grad(out, out_grad)
            return (x_grad,)
        _kernel = dispatch("relu_grad", "relu_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class GeluGradNode(GradNode):
    """Gradient of gelu."""

    __slots__ = ("x", "approximate")
    name = "gelu_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.gelu_grad(x, out_grad, self.approximate)
            return (x_grad,)
        _kernel = dispatch("gelu_grad", "gelu_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data, self.approximate))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SiluGradNode(GradNode):
    """Gradient of silu."""

    __slots__ = ("x",)
    name = "silu_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.silu_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("silu_grad", "silu_grad", x._data, out_grad._data)(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SoftplusGradNode(GradNode):
    """Gradient of softplus."""

    __slots__ = ("x", "beta", "threshold")
    name = "softplus_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.softplus_grad(x, out_grad, self.beta, self.threshold)
            return (x_grad,)
        _kernel = dispatch("softplus_grad", "softplus_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data, self.beta, self.threshold))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class LeakyReluGradNode(GradNode):
    """Gradient of leaky_relu."""

    __slots__ = ("x", "negative_slope")
    name = "leaky_relu_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.leaky_relu_grad(x, out_grad, self.negative_slope)
            return (x_grad,)
        _kernel = dispatch("leaky_relu_grad", "leaky_relu_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data, self.negative_slope))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class EluGradNode(GradNode):
    """Gradient of elu."""

    __slots__ = ("x", "alpha")
    name = "elu_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.elu_grad(x, out_grad, self.alpha)
            return (x_grad,)
        _kernel = dispatch("elu_grad", "elu_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data, self.alpha))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ErfGradNode(GradNode):
    """Gradient of erf."""

    __slots__ = ("x",)
    name = "erf_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.erf_grad(x, out_grad)
            return (x_grad,)
        x_grad = wrap(dispatch("erf_grad", "erf_grad", x._data, out_grad._data)(x._data, out_grad._data))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ScaleGradNode(GradNode):
    """Gradient of scale."""

    __slots__ = ("scale", "bias")
    name = "scale_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        if create_graph:
            x_grad = _grad_ops.scale_grad(out_grad, self.scale, self.bias)
            return (x_grad,)
        _kernel = dispatch("scale_grad", "scale_grad", out_grad._data)
        x_grad = wrap(_kernel(out_grad._data, self.scale, self.bias))
        return (x_grad,)

    def release_saved(self) -> None:
        self._released = True


class PowGradNode(GradNode):
    """Gradient of pow."""

    __slots__ = ("x", "y")
    name = "pow_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.pow_grad(x, out_grad, self.y)
            return (x_grad,)
        _kernel = dispatch("pow_grad", "pow_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data, self.y))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ClipGradNode(GradNode):
    """Gradient of clip."""

    __slots__ = ("x", "min", "max")
    name = "clip_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.clip_grad(x, out_grad, self.min, self.max)
            return (x_grad,)
        _kernel = dispatch("clip_grad", "clip_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data, self.min, self.max))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class CastGradNode(GradNode):
    """Gradient of cast."""

    __slots__ = ("x", "dtype")
    name = "cast_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.cast_grad(x, out_grad, self.dtype)
            return (x_grad,)
        x_grad = wrap(dispatch("cast_grad", "cast_grad", out_grad._data)(x, out_grad._data, self.dtype))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class AddGradNode(GradNode):
    """Gradient of add."""

    __slots__ = ("x", "y")
    name = "add_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.add_grad(x, y, out_grad)
            return (x_grad, y_grad)
        _results = dispatch("add_grad", "add_grad", out_grad._data)(x, y, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class SubtractGradNode(GradNode):
    """Gradient of subtract."""

    __slots__ = ("x", "y")
    name = "subtract_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.subtract_grad(x, y, out_grad)
            return (x_grad, y_grad)
        _results = dispatch("subtract_grad", "subtract_grad", out_grad._data)(x, y, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class MultiplyGradNode(GradNode):
    """Gradient of multiply."""

    __slots__ = ("x", "y")
    name = "multiply_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.multiply_grad(x, y, out_grad)
            return (x_grad, y_grad)
        _kernel = dispatch("multiply_grad", "multiply_grad", x._data, y._data, out_grad._data)
        _results = _kernel(x._data, y._data, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class DivideGradNode(GradNode):
    """Gradient of divide."""

    __slots__ = ("x", "y", "out")
    name = "divide_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        out = self.out.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.divide_grad(x, y, out, out_grad)
            return (x_grad, y_grad)
        _kernel = dispatch("divide_grad", "divide_grad", y._data, out._data, out_grad._data)
        _results = _kernel(x, y._data, out._data, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self.out = None
        self._released = True


class MaximumGradNode(GradNode):
    """Gradient of maximum."""

    __slots__ = ("x", "y")
    name = "maximum_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.maximum_grad(x, y, out_grad)
            return (x_grad, y_grad)
        _kernel = dispatch("maximum_grad", "maximum_grad", x._data, y._data, out_grad._data)
        _results = _kernel(x._data, y._data, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class MinimumGradNode(GradNode):
    """Gradient of minimum."""

    __slots__ = ("x", "y")
    name = "minimum_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.minimum_grad(x, y, out_grad)
            return (x_grad, y_grad)
        _kernel = dispatch("minimum_grad", "minimum_grad", x._data, y._data, out_grad._data)
        _results = _kernel(x._data, y._data, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class ElementwisePowGradNode(GradNode):
    """Gradient of elementwise_pow."""

    __slots__ = ("x", "y")
    name = "elementwise_pow_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.elementwise_pow_grad(x, y, out_grad)
            return (x_grad, y_grad)
        _kernel = dispatch("elementwise_pow_grad", "elementwise_pow_grad", x._data, y._data, out_grad._data)
        _results = _kernel(x._data, y._data, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class WhereGradNode(GradNode):
    """Gradient of where."""

    __slots__ = ("condition", "x", "y")
    name = "where_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        condition = self.condition.unpack(self)
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.where_grad(condition, x, y, out_grad)
            return (None, x_grad, y_grad)
        _kernel = dispatch("where_grad", "where_grad", condition._data, out_grad._data)
        _results = _kernel(condition._data, x, y, out_grad._data)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (None, x_grad, y_grad)

    def release_saved(self) -> None:
        self.condition = None
        self.x = None
        self.y = None
        self._released = True


class SumGradNode(GradNode):
    """Gradient of sum."""

    __slots__ = ("x", "axis", "keepdim")
    name = "sum_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.sum_grad(x, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        _kernel = dispatch("sum_grad", "sum_grad", out_grad._data)
        x_grad = wrap(_kernel(x, out_grad._data, self.axis, self.keepdim))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class MeanGradNode(GradNode):
    """Gradient of mean."""

    __slots__ = ("x", "axis", "keepdim")
    name = "mean_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.mean_grad(x, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        _kernel = dispatch("mean_grad", "mean_grad", out_grad._data)
        x_grad = wrap(_kernel(x, out_grad._data, self.axis, self.keepdim))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class MaxGradNode(GradNode):
    """Gradient of max."""

    __slots__ = ("x", "out", "axis", "keepdim")
    name = "max_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.max_grad(x, out, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        _kernel = dispatch("max_grad", "max_grad", x._data, out._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out._data, out_grad._data, self.axis, self.keepdim))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class MinGradNode(GradNode):
    """Gradient of min."""

    __slots__ = ("x", "out", "axis", "keepdim")
    name = "min_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.min_grad(x, out, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        _kernel = dispatch("min_grad", "min_grad", x._data, out._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out._data, out_grad._data, self.axis, self.keepdim))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class ProdGradNode(GradNode):
    """Gradient of prod."""

    __slots__ = ("x", "axis", "keepdim")
    name = "prod_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.prod_grad(x, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        _kernel = dispatch("prod_grad", "prod_grad", x._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out_grad._data, self.axis, self.keepdim))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class LogsumexpGradNode(GradNode):
    """Gradient of logsumexp."""

    __slots__ = ("x", "out", "axis", "keepdim")
    name = "logsumexp_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.logsumexp_grad(x, out, out_grad, self.axis, self.keepdim)
            return (x_grad,)
        _kernel = dispatch("logsumexp_grad", "logsumexp_grad", x._data, out._data, out_grad._data)
        x_grad = wrap(_kernel(x._data, out._data, out_grad._data, self.axis, self.keepdim))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self.out = None
        self._released = True


class MatmulGradNode(GradNode):
    """Gradient of matmul."""

    __slots__ = ("x", "y", "transpose_x", "transpose_y")
    name = "matmul_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        y = self.y.unpack(self)
        if create_graph:
            x_grad, y_grad = _grad_ops.matmul_grad(x, y, out_grad, self.transpose_x, self.transpose_y)
            return (x_grad, y_grad)
        _kernel = dispatch("matmul_grad", "matmul_grad", x._data, y._data, out_grad._data)
        _results = _kernel(x._data, y._data, out_grad._data, self.transpose_x, self.transpose_y)
        x_grad = wrap(_results[0])
        y_grad = wrap(_results[1])
        return (x_grad, y_grad)

    def release_saved(self) -> None:
        self.x = None
        self.y = None
        self._released = True


class ReshapeGradNode(GradNode):
    """Gradient of reshape."""

    __slots__ = ("x", "shape")
    name = "reshape_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.reshape_grad(x, out_grad, self.shape)
            return (x_grad,)
        x_grad = wrap(dispatch("reshape_grad", "reshape_grad", out_grad._data)(x, out_grad._data, self.shape))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class TransposeGradNode(GradNode):
    """Gradient of transpose."""

    __slots__ = ("x", "perm")
    name = "transpose_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.transpose_grad(x, out_grad, self.perm)
            return (x_grad,)
        _kernel = dispatch("transpose_grad", "transpose_grad", out_grad._data)
        x_grad = wrap(_kernel(x, out_grad._data, self.perm))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SqueezeGradNode(GradNode):
    """Gradient of squeeze."""

    __slots__ = ("x", "axis")
    name = "squeeze_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.squeeze_grad(x, out_grad, self.axis)
            return (x_grad,)
        x_grad = wrap(dispatch("squeeze_grad", "squeeze_grad", out_grad._data)(x, out_grad._data, self.axis))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class UnsqueezeGradNode(GradNode):
    """Gradient of unsqueeze."""

    __slots__ = ("x", "axis")
    name = "unsqueeze_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.unsqueeze_grad(x, out_grad, self.axis)
            return (x_grad,)
        _kernel = dispatch("unsqueeze_grad", "unsqueeze_grad", out_grad._data)
        x_grad = wrap(_kernel(x, out_grad._data, self.axis))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class FlattenGradNode(GradNode):
    """Gradient of flatten."""

    __slots__ = ("x", "start_axis", "stop_axis")
    name = "flatten_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.flatten_grad(x, out_grad, self.start_axis, self.stop_axis)
            return (x_grad,)
        _kernel = dispatch("flatten_grad", "flatten_grad", out_grad._data)
        x_grad = wrap(_kernel(x, out_grad._data, self.start_axis, self.stop_axis))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ExpandGradNode(GradNode):
    """Gradient of expand."""

    __slots__ = ("x", "shape")
    name = "expand_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.expand_grad(x, out_grad, self.shape)
            return (x_grad,)
        x_grad = wrap(dispatch("expand_grad", "expand_grad", out_grad._data)(x, out_grad._data, self.shape))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class ConcatGradNode(GradNode):
    """Gradient of concat."""

    __slots__ = ("x", "axis")
    name = "concat_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = [_w.unpack(self) for _w in self.x]
        if create_graph:
            x_grad = _grad_ops.concat_grad(x, out_grad, self.axis)
            return (*x_grad,)
        _result = dispatch("concat_grad", "concat_grad", out_grad._data)(x, out_grad._data, self.axis)
        x_grad = [wrap(_a) for _a in _result]
        return (*x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class StackGradNode(GradNode):
    """Gradient of stack."""

    __slots__ = ("x", "axis")
    name = "stack_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = [_w.unpack(self) for _w in self.x]
        if create_graph:
            x_grad = _grad_ops.stack_grad(x, out_grad, self.axis)
            return (*x_grad,)
        _result = dispatch("stack_grad", "stack_grad", out_grad._data)(x, out_grad._data, self.axis)
        x_grad = [wrap(_a) for _a in _result]
        return (*x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SplitGradNode(GradNode):
    """Gradient of split."""

    __slots__ = ("x", "num_or_sections", "axis")
    name = "split_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0:]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.split_grad(x, out_grad, self.num_or_sections, self.axis)
            return (x_grad,)
        _out_grad_data = [_t._data for _t in out_grad]
        _kernel = dispatch("split_grad", "split_grad", *_out_grad_data)
        x_grad = wrap(_kernel(x, _out_grad_data, self.num_or_sections, self.axis))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class GatherGradNode(GradNode):
    """Gradient of gather."""

    __slots__ = ("x", "index", "axis")
    name = "gather_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        index = self.index.unpack(self)
        if create_graph:
            x_grad = _grad_ops.gather_grad(x, index, out_grad, self.axis)
            return (x_grad, None)
        _kernel = dispatch("gather_grad", "gather_grad", index._data, out_grad._data)
        x_grad = wrap(_kernel(x, index._data, out_grad._data, self.axis))
        return (x_grad, None)

    def release_saved(self) -> None:
        self.x = None
        self.index = None
        self._released = True


class IndexSelectGradNode(GradNode):
    """Gradient of index_select."""

    __slots__ = ("x", "index", "axis")
    name = "index_select_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        index = self.index.unpack(self)
        if create_graph:
            x_grad = _grad_ops.index_select_grad(x, index, out_grad, self.axis)
            return (x_grad, None)
        _kernel = dispatch("index_select_grad", "index_select_grad", index._data, out_grad._data)
        x_grad = wrap(_kernel(x, index._data, out_grad._data, self.axis))
        return (x_grad, None)

    def release_saved(self) -> None:
        self.x = None
        self.index = None
        self._released = True


class TileGradNode(GradNode):
    """Gradient of tile."""

    __slots__ = ("x", "repeat_times")
    name = "tile_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        if create_graph:
            x_grad = _grad_ops.tile_grad(x, out_grad, self.repeat_times)
            return (x_grad,)
        _kernel = dispatch("tile_grad", "tile_grad", out_grad._data)
        x_grad = wrap(_kernel(x, out_grad._data, self.repeat_times))
        return (x_grad,)

    def release_saved(self) -> None:
        self.x = None
        self._released = True


class SoftmaxGradNode(GradNode):
    """Gradient of softmax."""

    __slots__ = ("out", "axis")
    name = "softmax_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.softmax_grad(out, out_grad, self.axis)
            return (x_grad,)
        _kernel = dispatch("softmax_grad", "softmax_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data, self.axis))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class LogSoftmaxGradNode(GradNode):
    """Gradient of log_softmax."""

    __slots__ = ("out", "axis")
    name = "log_softmax_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        out = self.out.unpack(self)
        if create_graph:
            x_grad = _grad_ops.log_softmax_grad(out, out_grad, self.axis)
            return (x_grad,)
        _kernel = dispatch("log_softmax_grad", "log_softmax_grad", out._data, out_grad._data)
        x_grad = wrap(_kernel(out._data, out_grad._data, self.axis))
        return (x_grad,)

    def release_saved(self) -> None:
        self.out = None
        self._released = True


class CrossEntropyGradNode(GradNode):
    """Gradient of cross_entropy."""

    __slots__ = ("input", "label", "axis", "reduction")
    name = "cross_entropy_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        input = self.input.unpack(self)
        label = self.label.unpack(self)
        if create_graph:
            input_grad = _grad_ops.cross_entropy_grad(input, label, out_grad, self.axis, self.reduction)
            return (input_grad, None)
        _kernel = dispatch(
            "cross_entropy_grad", "cross_entropy_grad", input._data, label._data, out_grad._data
        )
        input_grad = wrap(_kernel(input._data, label._data, out_grad._data, self.axis, self.reduction))
        return (input_grad, None)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self._released = True


class MseLossGradNode(GradNode):
    """Gradient of mse_loss."""

    __slots__ = ("input", "label", "reduction")
    name = "mse_loss_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        input = self.input.unpack(self)
        label = self.label.unpack(self)
        if create_graph:
            input_grad, label_grad = _grad_ops.mse_loss_grad(input, label, out_grad, self.reduction)
            return (input_grad, label_grad)
        _kernel = dispatch("mse_loss_grad", "mse_loss_grad", input._data, label._data, out_grad._data)
        _results = _kernel(input._data, label._data, out_grad._data, self.reduction)
        input_grad = wrap(_results[0])
        label_grad = wrap(_results[1])
        return (input_grad, label_grad)

    def release_saved(self) -> None:
        self.input = None
        self.label = None
        self._released = True


class DropoutGradNode(GradNode):
    """Gradient of dropout."""

    __slots__ = ("mask", "p", "training")
    name = "dropout_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        mask = self.mask.unpack(self)
        if create_graph:
            x_grad = _grad_ops.dropout_grad(mask, out_grad, self.p, self.training)
            return (x_grad,)
        _kernel = dispatch("dropout_grad", "dropout_grad", mask._data, out_grad._data)
        x_grad = wrap(_kernel(mask._data, out_grad._data, self.p, self.training))
        return (x_grad,)

    def release_saved(self) -> None:
        self.mask = None
        self._released = True


class EmbeddingGradNode(GradNode):
    """Gradient of embedding."""

    __slots__ = ("x", "weight")
    name = "embedding_grad"

    def apply(self, grads: list[Tensor | None], create_graph: bool) -> tuple[Tensor | None, ...]:
        out_grad = grads[0]
        x = self.x.unpack(self)
        weight = self.weight.unpack(self)
        if create_graph:
            weight_grad = _grad_ops.embedding_grad(x, weight, out_grad)
            return (None, weight_grad)
        _kernel = dispatch("embedding_grad", "embedding_grad", x._data, out_grad._data)
        weight_grad = wrap(_kernel(x._data, weight, out_grad._data))
        return (None, weight_grad)

    def release_saved(self) -> None:
        self.x = None
        self.weight = None
        self._released = True
