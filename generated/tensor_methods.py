# @generated tensor_methods from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Tensor methods and operators bound by `method:` and `operator:` in ops.yaml.
`opgrad.runtime.tensor.Tensor` inherits them from `TensorMethods`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from opgrad import generated as _generated
from opgrad.runtime import _accel

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
        """Negation -x, elementwise.

        Calls `opgrad.neg(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.neg(self)

    def __neg__(self: Tensor) -> Tensor:
        """Negation -x, elementwise.

        Calls `opgrad.neg(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.neg(self)

    def abs(self: Tensor) -> Tensor:
        """Absolute value, elementwise (gradient sign(x), 0 at 0); the magnitude of a complex tensor, as a real tensor.

        Calls `opgrad.abs(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape (a complex x gives its real dtype, float32 for complex64).

        Gradient:
            Flows to x. The subgradient at 0 is 0; for complex x, g x / |x| (0 at 0).
        """
        return _generated.ops.abs(self)

    def __abs__(self: Tensor) -> Tensor:
        """Absolute value, elementwise (gradient sign(x), 0 at 0); the magnitude of a complex tensor, as a real tensor.

        Calls `opgrad.abs(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape (a complex x gives its real dtype, float32 for complex64).

        Gradient:
            Flows to x. The subgradient at 0 is 0; for complex x, g x / |x| (0 at 0).
        """
        return _generated.ops.abs(self)

    def sign(self: Tensor) -> Tensor:
        """Sign of x (-1, 0 or 1) in x's dtype; its gradient is zero.

        Calls `opgrad.sign(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape and dtype holding -1, 0 or 1.

        Gradient:
            Flows to x. Zero everywhere (the step's derivative), so sign passes no gradient to x.
        """
        return _generated.ops.sign(self)

    def exp(self: Tensor) -> Tensor:
        """Exponential, elementwise.

        Calls `opgrad.exp(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.exp(self)

    def exp_(self: Tensor) -> Tensor:
        """Exponential, elementwise.

        Calls `opgrad.exp_(self)`: self is x.
        In place: writes the result into self and returns self.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x.
        """
        return _generated.ops.exp_(self)

    def expm1(self: Tensor) -> Tensor:
        """exp(x) - 1, accurate for small x.

        Calls `opgrad.expm1(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.expm1(self)

    def log(self: Tensor) -> Tensor:
        """Natural logarithm, elementwise.

        Calls `opgrad.log(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.log(self)

    def log1p(self: Tensor) -> Tensor:
        """log(1 + x), accurate for small x.

        Calls `opgrad.log1p(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.log1p(self)

    def sqrt(self: Tensor) -> Tensor:
        """Square root, elementwise.

        Calls `opgrad.sqrt(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. Infinite at 0.
        """
        return _generated.ops.sqrt(self)

    def rsqrt(self: Tensor) -> Tensor:
        """Reciprocal square root 1 / sqrt(x), elementwise.

        Calls `opgrad.rsqrt(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.rsqrt(self)

    def square(self: Tensor) -> Tensor:
        """x * x, elementwise.

        Calls `opgrad.square(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.square(self)

    def reciprocal(self: Tensor) -> Tensor:
        """1 / x, elementwise.

        Calls `opgrad.reciprocal(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.reciprocal(self)

    def sin(self: Tensor) -> Tensor:
        """Sine, elementwise.

        Calls `opgrad.sin(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.sin(self)

    def cos(self: Tensor) -> Tensor:
        """Cosine, elementwise.

        Calls `opgrad.cos(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.cos(self)

    def tanh(self: Tensor) -> Tensor:
        """Hyperbolic tangent, elementwise.

        Calls `opgrad.tanh(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape, in (-1, 1).

        Gradient:
            Flows to x.
        """
        return _generated.ops.tanh(self)

    def tanh_(self: Tensor) -> Tensor:
        """Hyperbolic tangent, elementwise.

        Calls `opgrad.tanh_(self)`: self is x.
        In place: writes the result into self and returns self.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x.
        """
        return _generated.ops.tanh_(self)

    def sigmoid(self: Tensor) -> Tensor:
        """Logistic sigmoid 1 / (1 + exp(-x)), elementwise.

        Calls `opgrad.sigmoid(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape, in (0, 1).

        Gradient:
            Flows to x.
        """
        return _generated.ops.sigmoid(self)

    def sigmoid_(self: Tensor) -> Tensor:
        """Logistic sigmoid 1 / (1 + exp(-x)), elementwise.

        Calls `opgrad.sigmoid_(self)`: self is x.
        In place: writes the result into self and returns self.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x.
        """
        return _generated.ops.sigmoid_(self)

    def relu(self: Tensor) -> Tensor:
        """Rectified linear unit max(x, 0), elementwise (gradient 0 at 0).

        Calls `opgrad.relu(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. The subgradient at 0 is 0.
        """
        return _generated.ops.relu(self)

    def relu_(self: Tensor) -> Tensor:
        """Rectified linear unit max(x, 0), elementwise (gradient 0 at 0).

        Calls `opgrad.relu_(self)`: self is x.
        In place: writes the result into self and returns self.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x. The subgradient at 0 is 0.
        """
        return _generated.ops.relu_(self)

    def gelu(self: Tensor, approximate: bool = False) -> Tensor:
        """Gaussian error linear unit; approximate=true uses the tanh approximation.

        Calls `opgrad.gelu(self, approximate)`: self is x.

        Args:
            approximate (bool, default False): False: the exact form x * Phi(x) with the Gauss error function; True: the tanh approximation.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.gelu(self, approximate)

    def silu(self: Tensor) -> Tensor:
        """SiLU (swish) x * sigmoid(x), elementwise.

        Calls `opgrad.silu(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.silu(self)

    def softplus(self: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
        """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold.

        Calls `opgrad.softplus(self, beta, threshold)`: self is x.

        Args:
            beta (float | int, default 1.0): The sharpness; larger beta is closer to relu.
            threshold (float | int, default 20.0): Above this value of beta * x the result is x itself (avoids overflow).

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.softplus(self, beta, threshold)

    def leaky_relu(self: Tensor, negative_slope: float = 0.01) -> Tensor:
        """x where x > 0, else negative_slope * x.

        Calls `opgrad.leaky_relu(self, negative_slope)`: self is x.

        Args:
            negative_slope (float | int, default 0.01): The slope for x <= 0.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. At 0 the gradient is negative_slope.
        """
        return _generated.ops.leaky_relu(self, negative_slope)

    def elu(self: Tensor, alpha: float = 1.0) -> Tensor:
        """x where x > 0, else alpha * (exp(x) - 1).

        Calls `opgrad.elu(self, alpha)`: self is x.

        Args:
            alpha (float | int, default 1.0): The value approached as x goes to -inf is -alpha.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.elu(self, alpha)

    def erf(self: Tensor) -> Tensor:
        """Gauss error function, elementwise.

        Calls `opgrad.erf(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape, in (-1, 1).

        Gradient:
            Flows to x.
        """
        return _generated.ops.erf(self)

    def scale(self: Tensor, scale: float = 1.0, bias: float = 0.0) -> Tensor:
        """x * scale + bias (scalars; x's dtype is kept).

        Calls `opgrad.scale(self, scale, bias)`: self is x.

        Args:
            scale (float | int, default 1.0): The factor x is multiplied by.
            bias (float | int, default 0.0): The number added after scaling.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x.
        """
        return _generated.ops.scale(self, scale, bias)

    def scale_(self: Tensor, scale: float = 1.0, bias: float = 0.0) -> Tensor:
        """x * scale + bias (scalars; x's dtype is kept).

        Calls `opgrad.scale_(self, scale, bias)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            scale (float | int, default 1.0): The factor x is multiplied by.
            bias (float | int, default 0.0): The number added after scaling.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x.
        """
        return _generated.ops.scale_(self, scale, bias)

    def pow(self: Tensor, y: float) -> Tensor:
        """x raised to the scalar power y, elementwise (x's dtype is kept).

        Calls `opgrad.pow(self, y)`: self is x.

        Args:
            y (float | int): The exponent, a Python number.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x. Gradient to x only; y is a number.
        """
        return _generated.ops.pow(self, y)

    def clip(self: Tensor, min: float | None = None, max: float | None = None) -> Tensor:
        """Clamp x to [min, max]; either bound may be None. The gradient passes where min <= x <= max (bounds included).

        Calls `opgrad.clip(self, min, max)`: self is x.

        Args:
            min (float | int | None, default None): The lower bound, or None for none.
            max (float | int | None, default None): The upper bound, or None for none.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x.
        """
        return _generated.ops.clip(self, min, max)

    def clip_(self: Tensor, min: float | None = None, max: float | None = None) -> Tensor:
        """Clamp x to [min, max]; either bound may be None. The gradient passes where min <= x <= max (bounds included).

        Calls `opgrad.clip_(self, min, max)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            min (float | int | None, default None): The lower bound, or None for none.
            max (float | int | None, default None): The upper bound, or None for none.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x.
        """
        return _generated.ops.clip_(self, min, max)

    def cast(self: Tensor, dtype: Any) -> Tensor:
        """x converted to dtype; the gradient is converted back to x's dtype.

        Calls `opgrad.cast(self, dtype)`: self is x.

        Args:
            dtype (str | numpy.dtype): The target dtype: a name such as 'float32' or 'int64', or a NumPy dtype.

        Returns:
            out (Tensor): A tensor of x's shape in dtype.

        Gradient:
            Flows to x. No gradient flows through a cast to an integer or bool dtype.
        """
        return _generated.ops.cast(self, dtype)

    def hardtanh(self: Tensor, min: float = -1.0, max: float = 1.0) -> Tensor:
        """x clamped to [min, max]; the gradient is 1 strictly inside and 0 outside.

        Calls `opgrad.hardtanh(self, min, max)`: self is x.

        Args:
            min (float | int, default -1.0): The lower bound.
            max (float | int, default 1.0): The upper bound.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. At min and max the subgradient is 0.
        """
        return _generated.ops.hardtanh(self, min, max)

    def hardswish(self: Tensor) -> Tensor:
        """x * min(max(x + 3, 0), 6) / 6, elementwise.

        Calls `opgrad.hardswish(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.hardswish(self)

    def hardsigmoid(self: Tensor) -> Tensor:
        """min(max(x / 6 + 0.5, 0), 1), elementwise (PyTorch's slope and offset).

        Calls `opgrad.hardsigmoid(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape, in [0, 1].

        Gradient:
            Flows to x.
        """
        return _generated.ops.hardsigmoid(self)

    def mish(self: Tensor) -> Tensor:
        """x * tanh(softplus(x)), elementwise.

        Calls `opgrad.mish(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.mish(self)

    def log_sigmoid(self: Tensor) -> Tensor:
        """log(sigmoid(x)) = -softplus(-x), computed stably.

        Calls `opgrad.log_sigmoid(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape, at most 0.

        Gradient:
            Flows to x.
        """
        return _generated.ops.log_sigmoid(self)

    def swish(self: Tensor) -> Tensor:
        """Swish x * sigmoid(x), the same function as silu.

        Calls `opgrad.swish(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.swish(self)

    def selu(self: Tensor, scale: float = 1.0507009873554805, alpha: float = 1.6732632423543772) -> Tensor:
        """scale * x where x > 0, else scale * alpha * (exp(x) - 1).

        Calls `opgrad.selu(self, scale, alpha)`: self is x.

        Args:
            scale (float | int, default 1.0507009873554805): The overall factor (default: the self-normalising constant).
            alpha (float | int, default 1.6732632423543772): The negative saturation factor (default: the self-normalising constant).

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.selu(self, scale, alpha)

    def celu(self: Tensor, alpha: float = 1.0) -> Tensor:
        """x where x > 0, else alpha * (exp(x / alpha) - 1).

        Calls `opgrad.celu(self, alpha)`: self is x.

        Args:
            alpha (float | int, default 1.0): The negative saturation value and scale; must not be 0.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.celu(self, alpha)

    def softsign(self: Tensor) -> Tensor:
        """x / (1 + |x|), elementwise.

        Calls `opgrad.softsign(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape, in (-1, 1).

        Gradient:
            Flows to x.
        """
        return _generated.ops.softsign(self)

    def tanhshrink(self: Tensor) -> Tensor:
        """x - tanh(x), elementwise.

        Calls `opgrad.tanhshrink(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.tanhshrink(self)

    def add(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x + y, elementwise with broadcasting.

        Calls `opgrad.add(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.add(self, y)

    def __add__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x + y, elementwise with broadcasting.

        Calls `opgrad.add(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.add(self, other)

    def __radd__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x + y, elementwise with broadcasting.

        Calls `opgrad.add(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): The first operand; broadcasts against y.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.add(other, self)

    def add_(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x + y, elementwise with broadcasting.

        Calls `opgrad.add_(self, y)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.add_(self, y)

    def __iadd__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x + y, elementwise with broadcasting.

        Calls `opgrad.add_(self, other)`: self is x, other is y.
        In place: writes the result into self and returns self.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.add_(self, other)

    def subtract(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x - y, elementwise with broadcasting.

        Calls `opgrad.subtract(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.subtract(self, y)

    def __sub__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x - y, elementwise with broadcasting.

        Calls `opgrad.subtract(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.subtract(self, other)

    def __rsub__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x - y, elementwise with broadcasting.

        Calls `opgrad.subtract(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): The first operand; broadcasts against y.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.subtract(other, self)

    def subtract_(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x - y, elementwise with broadcasting.

        Calls `opgrad.subtract_(self, y)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.subtract_(self, y)

    def __isub__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x - y, elementwise with broadcasting.

        Calls `opgrad.subtract_(self, other)`: self is x, other is y.
        In place: writes the result into self and returns self.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.subtract_(self, other)

    def multiply(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x * y, elementwise with broadcasting.

        Calls `opgrad.multiply(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.multiply(self, y)

    def __mul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x * y, elementwise with broadcasting.

        Calls `opgrad.multiply(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.multiply(self, other)

    def __rmul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x * y, elementwise with broadcasting.

        Calls `opgrad.multiply(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): The first operand; broadcasts against y.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.multiply(other, self)

    def multiply_(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x * y, elementwise with broadcasting.

        Calls `opgrad.multiply_(self, y)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.multiply_(self, y)

    def __imul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x * y, elementwise with broadcasting.

        Calls `opgrad.multiply_(self, other)`: self is x, other is y.
        In place: writes the result into self and returns self.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y. Each gradient is summed over the axes its input was broadcast along.
        """
        return _generated.ops.multiply_(self, other)

    def divide(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x / y, elementwise with broadcasting.

        Calls `opgrad.divide(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.divide(self, y)

    def __truediv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x / y, elementwise with broadcasting.

        Calls `opgrad.divide(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.divide(self, other)

    def __rtruediv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x / y, elementwise with broadcasting.

        Calls `opgrad.divide(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): The dividend; broadcasts against y.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.divide(other, self)

    def divide_(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x / y, elementwise with broadcasting.

        Calls `opgrad.divide_(self, y)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            y (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.divide_(self, y)

    def __itruediv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x / y, elementwise with broadcasting.

        Calls `opgrad.divide_(self, other)`: self is x, other is y.
        In place: writes the result into self and returns self.

        Args:
            other (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.divide_(self, other)

    def maximum(self: Tensor, y: Tensor | float | int) -> Tensor:
        """Elementwise maximum with broadcasting (ties split the gradient equally).

        Calls `opgrad.maximum(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Where x == y each input gets half of the gradient.
        """
        return _generated.ops.maximum(self, y)

    def minimum(self: Tensor, y: Tensor | float | int) -> Tensor:
        """Elementwise minimum with broadcasting (ties split the gradient equally).

        Calls `opgrad.minimum(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape of x and y.

        Gradient:
            Flows to x, y. Where x == y each input gets half of the gradient.
        """
        return _generated.ops.minimum(self, y)

    def tan(self: Tensor) -> Tensor:
        """Tangent, elementwise.

        Calls `opgrad.tan(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.tan(self)

    def asin(self: Tensor) -> Tensor:
        """Inverse sine (arcsine), elementwise; NaN outside [-1, 1].

        Calls `opgrad.asin(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. 1 / sqrt(1 - x^2): infinite at x = +-1.
        """
        return _generated.ops.asin(self)

    def acos(self: Tensor) -> Tensor:
        """Inverse cosine (arccosine), elementwise; NaN outside [-1, 1].

        Calls `opgrad.acos(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. -1 / sqrt(1 - x^2): infinite at x = +-1.
        """
        return _generated.ops.acos(self)

    def atan(self: Tensor) -> Tensor:
        """Inverse tangent (arctangent), elementwise.

        Calls `opgrad.atan(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.atan(self)

    def sinh(self: Tensor) -> Tensor:
        """Hyperbolic sine, elementwise.

        Calls `opgrad.sinh(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.sinh(self)

    def cosh(self: Tensor) -> Tensor:
        """Hyperbolic cosine, elementwise.

        Calls `opgrad.cosh(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.cosh(self)

    def asinh(self: Tensor) -> Tensor:
        """Inverse hyperbolic sine, elementwise.

        Calls `opgrad.asinh(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.asinh(self)

    def acosh(self: Tensor) -> Tensor:
        """Inverse hyperbolic cosine, elementwise; NaN below 1.

        Calls `opgrad.acosh(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. 1 / sqrt(x^2 - 1): infinite at x = 1.
        """
        return _generated.ops.acosh(self)

    def atanh(self: Tensor) -> Tensor:
        """Inverse hyperbolic tangent, elementwise; NaN outside [-1, 1].

        Calls `opgrad.atanh(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. 1 / (1 - x^2): infinite at x = +-1.
        """
        return _generated.ops.atanh(self)

    def log2(self: Tensor) -> Tensor:
        """Base-2 logarithm, elementwise.

        Calls `opgrad.log2(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.log2(self)

    def log10(self: Tensor) -> Tensor:
        """Base-10 logarithm, elementwise.

        Calls `opgrad.log10(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.log10(self)

    def exp2(self: Tensor) -> Tensor:
        """2 ** x, elementwise.

        Calls `opgrad.exp2(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.exp2(self)

    def deg2rad(self: Tensor) -> Tensor:
        """Degrees to radians (x * pi / 180), elementwise.

        Calls `opgrad.deg2rad(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.deg2rad(self)

    def rad2deg(self: Tensor) -> Tensor:
        """Radians to degrees (x * 180 / pi), elementwise.

        Calls `opgrad.rad2deg(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.rad2deg(self)

    def logit(self: Tensor) -> Tensor:
        """log(x / (1 - x)), the inverse of sigmoid, elementwise; NaN outside [0, 1].

        Calls `opgrad.logit(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. 1 / (x (1 - x)): infinite at 0 and 1.
        """
        return _generated.ops.logit(self)

    def frac(self: Tensor) -> Tensor:
        """The fractional part x - trunc(x), elementwise (it keeps x's sign).

        Calls `opgrad.frac(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. 1 (the jumps at integers are ignored, as in PyTorch).
        """
        return _generated.ops.frac(self)

    def floor(self: Tensor) -> Tensor:
        """The largest integer <= x, elementwise (integer tensors come back unchanged).

        Calls `opgrad.floor(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x. Zero everywhere (a step function), as in PyTorch.
        """
        return _generated.ops.floor(self)

    def ceil(self: Tensor) -> Tensor:
        """The smallest integer >= x, elementwise (integer tensors come back unchanged).

        Calls `opgrad.ceil(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x. Zero everywhere (a step function), as in PyTorch.
        """
        return _generated.ops.ceil(self)

    def trunc(self: Tensor) -> Tensor:
        """x rounded toward zero, elementwise (integer tensors come back unchanged).

        Calls `opgrad.trunc(self)`: self is x.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x. Zero everywhere (a step function), as in PyTorch.
        """
        return _generated.ops.trunc(self)

    def round(self: Tensor, decimals: int = 0) -> Tensor:
        """x rounded to the given number of decimals, halves to even (as PyTorch and NumPy), elementwise.

        Calls `opgrad.round(self, decimals)`: self is x.

        Args:
            decimals (int, default 0): Decimal places to keep (negative rounds to tens, hundreds, ...).

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x. Zero everywhere (a step function), as in PyTorch.
        """
        return _generated.ops.round(self, decimals)

    def atan2(self: Tensor, y: Tensor | float | int) -> Tensor:
        """atan2(x, y): the angle of the point (y, x) in (-pi, pi], elementwise with broadcasting (PyTorch's atan2(input, other)).

        Calls `opgrad.atan2(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The cosine side (denominator); broadcasts against x.

        Returns:
            out (Tensor): Angles in radians, of the broadcast shape.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.atan2(self, y)

    def logaddexp(self: Tensor, y: Tensor | float | int) -> Tensor:
        """log(exp(x) + exp(y)), elementwise with broadcasting, without overflow.

        Calls `opgrad.logaddexp(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.logaddexp(self, y)

    def logaddexp2(self: Tensor, y: Tensor | float | int) -> Tensor:
        """log2(2 ** x + 2 ** y), elementwise with broadcasting, without overflow.

        Calls `opgrad.logaddexp2(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.logaddexp2(self, y)

    def lerp(self: Tensor, end: Tensor | float | int, weight: Tensor | float | int) -> Tensor:
        """Linear interpolation x + weight * (end - x), elementwise with broadcasting (PyTorch's lerp(input, end, weight)).

        Calls `opgrad.lerp(self, end, weight)`: self is x.

        Args:
            end (Tensor | float | int): The end.
            weight (Tensor | float | int): The interpolation weight (a tensor or a number).

        Returns:
            out (Tensor): A tensor of the broadcast shape.

        Gradient:
            Flows to x, end, weight.
        """
        return _generated.ops.lerp(self, end, weight)

    def addcmul(self: Tensor, tensor1: Tensor | float | int, tensor2: Tensor | float | int, value: float = 1) -> Tensor:
        """x + value * (tensor1 * tensor2), elementwise with broadcasting.

        Calls `opgrad.addcmul(self, tensor1, tensor2, value)`: self is x.

        Args:
            tensor1 (Tensor | float | int): The first factor.
            tensor2 (Tensor | float | int): The second factor.
            value (float | int, default 1): The scale of the product.

        Returns:
            out (Tensor): A tensor of the broadcast shape.

        Gradient:
            Flows to x, tensor1, tensor2.
        """
        return _generated.ops.addcmul(self, tensor1, tensor2, value)

    def addcdiv(self: Tensor, tensor1: Tensor | float | int, tensor2: Tensor | float | int, value: float = 1) -> Tensor:
        """x + value * (tensor1 / tensor2), elementwise with broadcasting.

        Calls `opgrad.addcdiv(self, tensor1, tensor2, value)`: self is x.

        Args:
            tensor1 (Tensor | float | int): The first factor.
            tensor2 (Tensor | float | int): The second operand (the divisor).
            value (float | int, default 1): The scale of the product.

        Returns:
            out (Tensor): A tensor of the broadcast shape.

        Gradient:
            Flows to x, tensor1, tensor2.
        """
        return _generated.ops.addcdiv(self, tensor1, tensor2, value)

    def nansum(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Sum over axis treating NaN as zero.

        Calls `opgrad.nansum(self, axis, keepdim)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to reduce; empty or None reduces every axis.
            keepdim (bool, default False): Keep each reduced axis as size 1.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The reduced tensor.

        Gradient:
            Flows to x. The sum's gradient where x is a number, zero where x is NaN.
        """
        return _generated.ops.nansum(self, axis, keepdim, dim, keepdims)

    def count_nonzero(self: Tensor, axis: Sequence[int] | int = (), dim: Sequence[int] | int | None = None) -> Tensor:
        """The int64 count of non-zero elements over axis; no gradient.

        Calls `opgrad.count_nonzero(self, axis)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to count over; empty or None counts every element.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): An int64 tensor, x's shape without the counted axes.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.count_nonzero(self, axis, dim)

    def logcumsumexp(self: Tensor, axis: int | None = None, dim: int | None = None) -> Tensor:
        """log(cumsum(exp(x))) along axis, computed without overflow.

        Calls `opgrad.logcumsumexp(self, axis)`: self is x.

        Args:
            axis (int, default None): The axis to accumulate along.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.logcumsumexp(self, axis, dim)

    def cummax(self: Tensor, axis: int | None = None, dim: int | None = None) -> tuple[Tensor, Tensor]:
        """The running maximum along axis and the int64 index where each was attained (the latest on ties, as PyTorch).

        Calls `opgrad.cummax(self, axis)`: self is x.

        Args:
            axis (int, default None): The axis to scan.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            A tuple (values, indices):
            values (Tensor): The running maximum, of x's shape.
            indices (Tensor): int64 positions along axis, of x's shape.

        Gradient:
            Flows to x. Not differentiable: output indices. Each gradient goes to the position its maximum came from.
        """
        return _generated.ops.cummax(self, axis, dim)

    def cummin(self: Tensor, axis: int | None = None, dim: int | None = None) -> tuple[Tensor, Tensor]:
        """The running minimum along axis and the int64 index where each was attained (the latest on ties, as PyTorch).

        Calls `opgrad.cummin(self, axis)`: self is x.

        Args:
            axis (int, default None): The axis to scan.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            A tuple (values, indices):
            values (Tensor): The running minimum, of x's shape.
            indices (Tensor): int64 positions along axis, of x's shape.

        Gradient:
            Flows to x. Not differentiable: output indices. Each gradient goes to the position its minimum came from.
        """
        return _generated.ops.cummin(self, axis, dim)

    def histc(self: Tensor, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:
        """A histogram of x with bins equal bins over [min, max] (the data's range when min == max), elements outside ignored; no gradient.

        Calls `opgrad.histc(self, bins, min, max)`: self is x.

        Args:
            bins (int, default 100): The number of bins.
            min (float | int, default 0.0): The lower end of the range.
            max (float | int, default 0.0): The upper end of the range.

        Returns:
            out (Tensor): The counts, 1-D of length bins, in x's dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.histc(self, bins, min, max)

    def bincount(self: Tensor, weights: Tensor | float | int | None = None, minlength: int = 0) -> Tensor:
        """The number of occurrences (or the summed weights) of each value 0..max(x) of a 1-D non-negative integer tensor; no gradient.

        Calls `opgrad.bincount(self, weights, minlength)`: self is x.

        Args:
            weights (Tensor | float | int | None, default None): Optional weights of x's shape.
            minlength (int, default 0): The least length of the result.

        Returns:
            out (Tensor): int64 counts, or the weights' floating dtype, of length max(max(x) + 1, minlength).

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bincount(self, weights, minlength)

    def nonzero(self: Tensor) -> Tensor:
        """The int64 indices of the non-zero elements, one row per element in row-major order; no gradient.

        Calls `opgrad.nonzero(self)`: self is x.

        Returns:
            out (Tensor): An int64 tensor (number of non-zero elements, x.ndim).

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.nonzero(self)

    def argwhere(self: Tensor) -> Tensor:
        """The int64 indices of the non-zero elements (as nonzero), one row each; no gradient.

        Calls `opgrad.argwhere(self)`: self is x.

        Returns:
            out (Tensor): An int64 tensor (number of non-zero elements, x.ndim).

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.argwhere(self)

    def xlogy(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x * log(y), elementwise with broadcasting, and 0 where x is 0 (unless y is NaN), as PyTorch.

        Calls `opgrad.xlogy(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape.

        Gradient:
            Flows to x, y. log(y) for x (0 where x is 0, as PyTorch) and x / y for y.
        """
        return _generated.ops.xlogy(self, y)

    def fmod(self: Tensor, y: Tensor | float | int) -> Tensor:
        """The C-style remainder x - trunc(x / y) * y (it takes x's sign), elementwise with broadcasting.

        Calls `opgrad.fmod(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            out (Tensor): A tensor of the broadcast shape.

        Gradient:
            Flows to x, y. 1 for x and -trunc(x / y) for y (the jumps are ignored, as in PyTorch).
        """
        return _generated.ops.fmod(self, y)

    def copysign(self: Tensor, y: Tensor | float | int) -> Tensor:
        """|x| with the sign of y, elementwise with broadcasting.

        Calls `opgrad.copysign(self, y)`: self is x.

        Args:
            y (Tensor | float | int): Gives the sign (of -0.0 too); broadcasts against x.

        Returns:
            out (Tensor): A floating tensor of the broadcast shape.

        Gradient:
            Flows to x, y. sign(x) * sign(out) for x (0 at x = 0), none for y (a step).
        """
        return _generated.ops.copysign(self, y)

    def nan_to_num(self: Tensor, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> Tensor:
        """x with NaN replaced by nan, +inf by posinf and -inf by neginf (the dtype's largest and lowest finite values when None).

        Calls `opgrad.nan_to_num(self, nan, posinf, neginf)`: self is x.

        Args:
            nan (float | int, default 0.0): The value for NaN.
            posinf (float | int | None, default None): The value for +inf (None: the dtype's largest finite).
            neginf (float | int | None, default None): The value for -inf (None: the dtype's lowest finite).

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x. Passes the gradient where x is finite, zero where it was replaced.
        """
        return _generated.ops.nan_to_num(self, nan, posinf, neginf)

    def heaviside(self: Tensor, values: Tensor | float | int) -> Tensor:
        """The step function: 0 where x < 0, 1 where x > 0, values where x == 0, elementwise with broadcasting; no gradient (as PyTorch).

        Calls `opgrad.heaviside(self, values)`: self is x.

        Args:
            values (Tensor | float | int): The result where x is 0.

        Returns:
            out (Tensor): A tensor of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.heaviside(self, values)

    def logical_xor(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x xor y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.logical_xor(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.logical_xor(self, y)

    def isposinf(self: Tensor) -> Tensor:
        """True where x is +inf; a bool tensor without gradient.

        Calls `opgrad.isposinf(self)`: self is x.

        Returns:
            out (Tensor): A bool tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.isposinf(self)

    def isneginf(self: Tensor) -> Tensor:
        """True where x is -inf; a bool tensor without gradient.

        Calls `opgrad.isneginf(self)`: self is x.

        Returns:
            out (Tensor): A bool tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.isneginf(self)

    def signbit(self: Tensor) -> Tensor:
        """True where x's sign bit is set (negative numbers and -0.0); a bool tensor without gradient.

        Calls `opgrad.signbit(self)`: self is x.

        Returns:
            out (Tensor): A bool tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.signbit(self)

    def bitwise_left_shift(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x << y, the bits of x shifted left by y, elementwise with broadcasting (integer tensors).

        Calls `opgrad.bitwise_left_shift(self, y)`: self is x.

        Args:
            y (Tensor | float | int): Non-negative shift counts; broadcasts against x.

        Returns:
            out (Tensor): An integer tensor of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_left_shift(self, y)

    def bitwise_right_shift(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x >> y, the bits of x shifted right (arithmetic) by y, elementwise with broadcasting (integer tensors).

        Calls `opgrad.bitwise_right_shift(self, y)`: self is x.

        Args:
            y (Tensor | float | int): Non-negative shift counts; broadcasts against x.

        Returns:
            out (Tensor): An integer tensor of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_right_shift(self, y)

    def equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x == y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.equal(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.equal(self, y)

    def __eq__(self: Tensor, other: Tensor | float | int) -> Tensor:  # type: ignore[override]
        """x == y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.equal(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.equal(self, other)

    def not_equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x != y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.not_equal(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.not_equal(self, y)

    def __ne__(self: Tensor, other: Tensor | float | int) -> Tensor:  # type: ignore[override]
        """x != y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.not_equal(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.not_equal(self, other)

    def less_than(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x < y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.less_than(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.less_than(self, y)

    def __lt__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x < y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.less_than(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.less_than(self, other)

    def less_equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x <= y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.less_equal(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.less_equal(self, y)

    def __le__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x <= y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.less_equal(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.less_equal(self, other)

    def greater_than(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x > y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.greater_than(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.greater_than(self, y)

    def __gt__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x > y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.greater_than(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.greater_than(self, other)

    def greater_equal(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x >= y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.greater_equal(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.greater_equal(self, y)

    def __ge__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x >= y, elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.greater_equal(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.greater_equal(self, other)

    def logical_and(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x and y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.logical_and(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.logical_and(self, y)

    def logical_or(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x or y (nonzero counts as true), elementwise with broadcasting; a bool tensor without gradient.

        Calls `opgrad.logical_or(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The second operand; broadcasts against x.

        Returns:
            out (Tensor): A bool tensor of the broadcast shape of x and y.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.logical_or(self, y)

    def logical_not(self: Tensor) -> Tensor:
        """not x (nonzero counts as true), elementwise; a bool tensor without gradient.

        Calls `opgrad.logical_not(self)`: self is x.

        Returns:
            out (Tensor): A bool tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.logical_not(self)

    def isnan(self: Tensor) -> Tensor:
        """True where x is NaN; a bool tensor without gradient.

        Calls `opgrad.isnan(self)`: self is x.

        Returns:
            out (Tensor): A bool tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.isnan(self)

    def isinf(self: Tensor) -> Tensor:
        """True where x is +inf or -inf; a bool tensor without gradient.

        Calls `opgrad.isinf(self)`: self is x.

        Returns:
            out (Tensor): A bool tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.isinf(self)

    def isfinite(self: Tensor) -> Tensor:
        """True where x is neither NaN nor infinite; a bool tensor without gradient.

        Calls `opgrad.isfinite(self)`: self is x.

        Returns:
            out (Tensor): A bool tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.isfinite(self)

    def sum(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Sum over axis.

        Calls `opgrad.sum(self, axis, keepdim)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
            keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

        Gradient:
            Flows to x.
        """
        return _generated.ops.sum(self, axis, keepdim, dim, keepdims)

    def mean(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Arithmetic mean over axis.

        Calls `opgrad.mean(self, axis, keepdim)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
            keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

        Gradient:
            Flows to x. The gradient is out_grad / N, N the number of elements reduced.
        """
        return _generated.ops.mean(self, axis, keepdim, dim, keepdims)

    def max(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Maximum over axis (values only; ties share the gradient equally).

        Calls `opgrad.max(self, axis, keepdim)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
            keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

        Gradient:
            Flows to x.
        """
        return _generated.ops.max(self, axis, keepdim, dim, keepdims)

    def min(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Minimum over axis (values only; ties share the gradient equally).

        Calls `opgrad.min(self, axis, keepdim)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
            keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

        Gradient:
            Flows to x.
        """
        return _generated.ops.min(self, axis, keepdim, dim, keepdims)

    def prod(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Product over axis (the gradient is exact when x has zeros).

        Calls `opgrad.prod(self, axis, keepdim)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
            keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

        Gradient:
            Flows to x.
        """
        return _generated.ops.prod(self, axis, keepdim, dim, keepdims)

    def logsumexp(self: Tensor, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """log(sum(exp(x))) over axis, computed stably; -inf over an empty axis.

        Calls `opgrad.logsumexp(self, axis, keepdim)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The axis or axes to reduce (negative counts from the end); empty or None reduces every axis.
            keepdim (bool, default False): Keep each reduced axis as size 1, so the result broadcasts against x.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The reduced tensor: x's shape without the reduced axes (or with size 1 there under keepdim).

        Gradient:
            Flows to x.
        """
        return _generated.ops.logsumexp(self, axis, keepdim, dim, keepdims)

    def argmax(self: Tensor, axis: int | None = None, keepdim: bool = False, dim: int | None = None, keepdims: bool | None = None) -> Tensor:
        """int64 index of the maximum along axis (None means the flattened x); no gradient.

        Calls `opgrad.argmax(self, axis, keepdim)`: self is x.

        Args:
            axis (int | None, default None): The axis to search, or None for the flattened x.
            keepdim (bool, default False): Keep the searched axis as size 1 (with an axis).
            dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): An int64 tensor of indices: x's shape without axis (a 0-d tensor for None).

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.argmax(self, axis, keepdim, dim, keepdims)

    def argmin(self: Tensor, axis: int | None = None, keepdim: bool = False, dim: int | None = None, keepdims: bool | None = None) -> Tensor:
        """int64 index of the minimum along axis (None means the flattened x); no gradient.

        Calls `opgrad.argmin(self, axis, keepdim)`: self is x.

        Args:
            axis (int | None, default None): The axis to search, or None for the flattened x.
            keepdim (bool, default False): Keep the searched axis as size 1 (with an axis).
            dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.
            keepdims (bool | None, default None): Alias of keepdim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): An int64 tensor of indices: x's shape without axis (a 0-d tensor for None).

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.argmin(self, axis, keepdim, dim, keepdims)

    def var(self: Tensor, axis: Sequence[int] | int = (), unbiased: bool = True, keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Variance over axis; unbiased divides by N - 1 (NaN when N == 1), else by N.

        Calls `opgrad.var(self, axis, unbiased, keepdim)`: self is x.

        Args:
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
        return _generated.ops.var(self, axis, unbiased, keepdim, dim, keepdims)

    def std(self: Tensor, axis: Sequence[int] | int = (), unbiased: bool = True, keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Standard deviation over axis (sqrt of var); its gradient is 0 where the result is 0.

        Calls `opgrad.std(self, axis, unbiased, keepdim)`: self is x.

        Args:
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
        return _generated.ops.std(self, axis, unbiased, keepdim, dim, keepdims)

    def norm(self: Tensor, p: float = 2.0, axis: Sequence[int] | int = (), keepdim: bool = False, dim: Sequence[int] | int | None = None, keepdims: bool | None = None) -> Tensor:
        """Vector p-norm over axis (all of x by default), for p >= 1 or inf; the 2-norm's gradient is 0 where the norm is 0; for inf, ties share the gradient.

        Calls `opgrad.norm(self, p, axis, keepdim)`: self is x.

        Args:
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
        return _generated.ops.norm(self, p, axis, keepdim, dim, keepdims)

    def cumsum(self: Tensor, axis: int | None = None, dim: int | None = None) -> Tensor:
        """Cumulative sum along axis; axis None sums the flattened x (a 1-D result).

        Calls `opgrad.cumsum(self, axis)`: self is x.

        Args:
            axis (int | None, default None): The axis to accumulate along, or None for the flattened x.
            dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): x's shape (1-D for axis None).

        Gradient:
            Flows to x.
        """
        return _generated.ops.cumsum(self, axis, dim)

    def cumprod(self: Tensor, dim: int | None = None, axis: int | None = None) -> Tensor:
        """Cumulative product along dim; dim None works on the flattened x (a 1-D result). The gradient is exact when x has zeros.

        Calls `opgrad.cumprod(self, dim)`: self is x.

        Args:
            dim (int | None, default None): The axis to accumulate along, or None for the flattened x.
            axis (int | None | None, default None): Alias of dim (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): x's shape (1-D for dim None).

        Gradient:
            Flows to x.
        """
        return _generated.ops.cumprod(self, dim, axis)

    def topk(self: Tensor, k: int, axis: int = -1, largest: bool = True, sorted: bool = True, dim: int | None = None) -> tuple[Tensor, Tensor]:
        """The k largest (or smallest) values along axis and their int64 indices; results are always sorted (ties keep the lower index first); NaN counts as the largest value.

        Calls `opgrad.topk(self, k, axis, largest, sorted)`: self is x.

        Args:
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
        return _generated.ops.topk(self, k, axis, largest, sorted, dim)

    def sort(self: Tensor, axis: int = -1, descending: bool = False, dim: int | None = None) -> Tensor:
        """x sorted along axis (a stable sort, NaN last ascending and first descending); values only, argsort gives the indices.

        Calls `opgrad.sort(self, axis, descending)`: self is x.

        Args:
            axis (int, default -1): The axis to sort along.
            descending (bool, default False): Sort from the largest value down.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x. The gradient is scattered back to where each value came from.
        """
        return _generated.ops.sort(self, axis, descending, dim)

    def argsort(self: Tensor, axis: int = -1, descending: bool = False, dim: int | None = None) -> Tensor:
        """int64 indices that sort x along axis (stable; equal values keep their order); no gradient.

        Calls `opgrad.argsort(self, axis, descending)`: self is x.

        Args:
            axis (int, default -1): The axis to sort along.
            descending (bool, default False): Order from the largest value down (still stable).
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): An int64 tensor of x's shape.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.argsort(self, axis, descending, dim)

    def matmul(self: Tensor, y: Tensor | float | int, transpose_x: bool = False, transpose_y: bool = False) -> Tensor:
        """Matrix product with NumPy semantics (1-D operands, batch broadcasting); transpose_x/transpose_y swap the last two axes first.

        Calls `opgrad.matmul(self, y, transpose_x, transpose_y)`: self is x.

        Args:
            y (Tensor | float | int): The right operand, 1-D or more (batch axes first).
            transpose_x (bool, default False): Swap x's last two axes before multiplying.
            transpose_y (bool, default False): Swap y's last two axes before multiplying.

        Returns:
            out (Tensor): The product; batch axes broadcast, a 1-D operand's axis is removed.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.matmul(self, y, transpose_x, transpose_y)

    def __matmul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """Matrix product with NumPy semantics (1-D operands, batch broadcasting); transpose_x/transpose_y swap the last two axes first.

        Calls `opgrad.matmul(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The right operand, 1-D or more (batch axes first).

        Returns:
            out (Tensor): The product; batch axes broadcast, a 1-D operand's axis is removed.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.matmul(self, other)

    def __rmatmul__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """Matrix product with NumPy semantics (1-D operands, batch broadcasting); transpose_x/transpose_y swap the last two axes first.

        Calls `opgrad.matmul(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): The left operand, 1-D or more (batch axes first).

        Returns:
            out (Tensor): The product; batch axes broadcast, a 1-D operand's axis is removed.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.matmul(other, self)

    def squeeze(self: Tensor, axis: Sequence[int] | int = (), dim: Sequence[int] | int | None = None) -> Tensor:
        """x without the size-1 axes listed (empty means all size-1 axes); a view.

        Calls `opgrad.squeeze(self, axis)`: self is x.

        Args:
            axis (int | Sequence[int], default ()): The size-1 axes to remove (an int or a list); empty removes every size-1 axis.
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A view of x with fewer axes.

        Gradient:
            Flows to x.
        """
        return _generated.ops.squeeze(self, axis, dim)

    def unsqueeze(self: Tensor, axis: Sequence[int] | int | None = None, dim: Sequence[int] | int | None = None) -> Tensor:
        """x with size-1 axes inserted at axis (int or list); a view.

        Calls `opgrad.unsqueeze(self, axis)`: self is x.

        Args:
            axis (int | Sequence[int], default None): Where the new axes go, as positions in the result (an int or a list).
            dim (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A view of x with more axes.

        Gradient:
            Flows to x.
        """
        return _generated.ops.unsqueeze(self, axis, dim)

    def flatten(self: Tensor, start_axis: int = 0, stop_axis: int = -1, start_dim: int | None = None, end_dim: int | None = None) -> Tensor:
        """x with axes start_axis..stop_axis merged into one; a view where possible.

        Calls `opgrad.flatten(self, start_axis, stop_axis)`: self is x.

        Args:
            start_axis (int, default 0): The first axis merged.
            stop_axis (int, default -1): The last axis merged (inclusive; -1 is the last axis).
            start_dim (int | None, default None): Alias of start_axis (the PyTorch/NumPy spelling); give one or the other.
            end_dim (int | None, default None): Alias of stop_axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A tensor with the merged axes as one.

        Gradient:
            Flows to x.
        """
        return _generated.ops.flatten(self, start_axis, stop_axis, start_dim, end_dim)

    def split(self: Tensor, num_or_sections: Sequence[int] | int, axis: int = 0, dim: int | None = None) -> list[Tensor]:
        """x split along axis; an int gives that many equal sections, a list the section sizes (one may be -1).

        Calls `opgrad.split(self, num_or_sections, axis)`: self is x.

        Args:
            num_or_sections (int | Sequence[int]): An int: that many equal sections (it must divide the axis); a list: the size of each section, one may be -1.
            axis (int, default 0): The axis to split along.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (list[Tensor]): A list of views of x, one per section.

        Gradient:
            Flows to x.
        """
        return _generated.ops.split(self, num_or_sections, axis, dim)

    def gather(self: Tensor, index: Tensor | float | int, axis: int = 0, dim: int | None = None) -> Tensor:
        """The slices of x along axis picked by a 1-D integer index (like index_select); a 0-d index means [index].

        Calls `opgrad.gather(self, index, axis)`: self is x.

        Args:
            index (Tensor | float | int): A 1-D (or 0-d) integer tensor of positions along axis.
            axis (int, default 0): The axis to pick along.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): x's shape with axis of size len(index).

        Gradient:
            Flows to x. No gradient for: index. The gradient to x is scattered back and summed at repeated indices; none to index.
        """
        return _generated.ops.gather(self, index, axis, dim)

    def index_select(self: Tensor, index: Tensor | float | int, axis: int = 0, dim: int | None = None) -> Tensor:
        """The slices of x along axis picked by a 1-D integer index; a 0-d index means [index].

        Calls `opgrad.index_select(self, index, axis)`: self is x.

        Args:
            index (Tensor | float | int): A 1-D (or 0-d) integer tensor of positions along axis.
            axis (int, default 0): The axis to pick along.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): x's shape with axis of size len(index).

        Gradient:
            Flows to x. No gradient for: index. The gradient to x is summed at repeated indices; none to index.
        """
        return _generated.ops.index_select(self, index, axis, dim)

    def tile(self: Tensor, repeat_times: Sequence[int] | int) -> Tensor:
        """x repeated repeat_times[i] times along each axis.

        Calls `opgrad.tile(self, repeat_times)`: self is x.

        Args:
            repeat_times (int | Sequence[int]): How often to repeat x along each axis (an int or a list; a longer list adds leading axes).

        Returns:
            out (Tensor): The tiled tensor.

        Gradient:
            Flows to x.
        """
        return _generated.ops.tile(self, repeat_times)

    def scatter(self: Tensor, index: Tensor | float | int, updates: Tensor | float | int, overwrite: bool = True) -> Tensor:
        """x with the rows x[index[i]] (1-D index along axis 0) set to updates[i]; repeated indices keep the last update when overwrite, else the rows hit become the sum of their updates (Paddle's semantics).

        Calls `opgrad.scatter(self, index, updates, overwrite)`: self is x.

        Args:
            index (Tensor | float | int): A 1-D integer tensor of row positions in x (axis 0).
            updates (Tensor | float | int): The new rows: shape (len(index), *x.shape[1:]).
            overwrite (bool, default True): True: a repeated index keeps its last update; False: rows hit get the sum of their updates.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x, updates. No gradient for: index.
        """
        return _generated.ops.scatter(self, index, updates, overwrite)

    def index_add(self: Tensor, index: Tensor | float | int, axis: int, value: Tensor | float | int) -> Tensor:
        """x with value's slices added at the positions index (1-D) along axis; repeated indices add up.

        Calls `opgrad.index_add(self, index, axis, value)`: self is x.

        Args:
            index (Tensor | float | int): A 1-D integer tensor of positions along axis.
            axis (int): The axis index runs along.
            value (Tensor | float | int): The slices to add: x's shape with axis of size len(index).

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x, value. No gradient for: index.
        """
        return _generated.ops.index_add(self, index, axis, value)

    def masked_fill(self: Tensor, mask: Tensor | float | int, value: float) -> Tensor:
        """x with value where the bool mask (broadcastable to x's shape; the result keeps x's shape) is true.

        Calls `opgrad.masked_fill(self, mask, value)`: self is x.

        Args:
            mask (Tensor | float | int): A bool tensor broadcastable to x's shape; True marks the elements replaced.
            value (float | int): The number written where mask is True.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x. No gradient for: mask. The gradient to x is 0 where mask is True.
        """
        return _generated.ops.masked_fill(self, mask, value)

    def tril(self: Tensor, diagonal: int = 0) -> Tensor:
        """The lower triangle of the last two axes of x (on and below diagonal), zeros elsewhere.

        Calls `opgrad.tril(self, diagonal)`: self is x.

        Args:
            diagonal (int, default 0): Which diagonal bounds the kept part (on and below it): 0 the main one, positive above it, negative below.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x.
        """
        return _generated.ops.tril(self, diagonal)

    def triu(self: Tensor, diagonal: int = 0) -> Tensor:
        """The upper triangle of the last two axes of x (on and above diagonal), zeros elsewhere.

        Calls `opgrad.triu(self, diagonal)`: self is x.

        Args:
            diagonal (int, default 0): Which diagonal bounds the kept part (on and above it): 0 the main one, positive above it, negative below.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x.
        """
        return _generated.ops.triu(self, diagonal)

    def roll(self: Tensor, shifts: Sequence[int] | int, axis: Sequence[int] | int | None = None, dims: Sequence[int] | int | None = None) -> Tensor:
        """x with its elements shifted cyclically by shifts along axis; axis None (or []) rolls the flattened x and keeps its shape.

        Calls `opgrad.roll(self, shifts, axis)`: self is x.

        Args:
            shifts (int | Sequence[int]): How far to shift (an int, or one per axis in axis); positive moves elements to higher indices.
            axis (int | Sequence[int] | None, default None): The axes to roll along, or None (or empty) for the flattened x.
            dims (int | Sequence[int] | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x.
        """
        return _generated.ops.roll(self, shifts, axis, dims)

    def repeat_interleave(self: Tensor, repeats: int, axis: int | None = None, dim: int | None = None) -> Tensor:
        """Each element (slice along axis) of x repeated repeats times in place; axis None repeats the flattened x.

        Calls `opgrad.repeat_interleave(self, repeats, axis)`: self is x.

        Args:
            repeats (int): How many times each element (slice) is repeated.
            axis (int | None, default None): The axis to repeat along, or None for the flattened x.
            dim (int | None | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): x with axis repeats times longer (1-D for None).

        Gradient:
            Flows to x.
        """
        return _generated.ops.repeat_interleave(self, repeats, axis, dim)

    def flip(self: Tensor, axis: Sequence[int] | int | None = None, dims: Sequence[int] | int | None = None) -> Tensor:
        """x reversed along each axis listed.

        Calls `opgrad.flip(self, axis)`: self is x.

        Args:
            axis (int | Sequence[int], default None): The axes to reverse (an int or a list).
            dims (int | Sequence[int] | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x.
        """
        return _generated.ops.flip(self, axis, dims)

    def gather_nd(self: Tensor, index: Tensor | float | int) -> Tensor:
        """The slices of x at the positions in index (paddle.gather_nd): index (..., k) addresses x's first k axes; out[i...] = x[index[i..., 0], ..., index[i..., k - 1]].

        Calls `opgrad.gather_nd(self, index)`: self is x.

        Args:
            index (Tensor | float | int): An integer tensor (..., k), k <= x.ndim; negative entries count from the end; an entry out of range is an IndexError naming it.

        Returns:
            out (Tensor): A tensor of shape index.shape[:-1] + x.shape[k:].

        Gradient:
            Flows to x. No gradient for: index. scatter_nd_add of the gradient into zeros (repeated positions add up).
        """
        return _generated.ops.gather_nd(self, index)

    def scatter_nd_add(self: Tensor, index: Tensor | float | int, updates: Tensor | float | int) -> Tensor:
        """x with updates added at the positions in index (paddle.scatter_nd_add); repeated positions add up.

        Calls `opgrad.scatter_nd_add(self, index, updates)`: self is x.

        Args:
            index (Tensor | float | int): An integer tensor (..., k) of positions in x's first k axes.
            updates (Tensor | float | int): The values to add, of shape index.shape[:-1] + x.shape[k:].

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x, updates. No gradient for: index.
        """
        return _generated.ops.scatter_nd_add(self, index, updates)

    def index_put(self: Tensor, indices: Sequence[Tensor | float | int], values: Tensor | float | int, accumulate: bool = False) -> Tensor:
        """x with values written at x[indices] (torch.index_put): with accumulate, added, repeated positions adding up; without, a repeated position keeps the last value written (NumPy's order, PyTorch leaves it undefined).

        Calls `opgrad.index_put(self, indices, values, accumulate)`: self is x.

        Args:
            indices (list[Tensor] | tuple[Tensor, ...]): Integer tensors or bool masks, one per leading axis of x, as in index.
            values (Tensor | float | int): The values, broadcastable to the indexed shape; cast to x's dtype.
            accumulate (bool, default False): Add instead of writing.

        Returns:
            out (Tensor): A tensor of x's shape and dtype.

        Gradient:
            Flows to x, values. No gradient for: indices. x: the gradient, zero at the written positions unless accumulate; values: the gradient at the indexed positions, summed to values' shape (every repeated position passes its gradient, as PyTorch).
        """
        return _generated.ops.index_put(self, indices, values, accumulate)

    def index_put_(self: Tensor, indices: Sequence[Tensor | float | int], values: Tensor | float | int, accumulate: bool = False) -> Tensor:
        """x with values written at x[indices] (torch.index_put): with accumulate, added, repeated positions adding up; without, a repeated position keeps the last value written (NumPy's order, PyTorch leaves it undefined).

        Calls `opgrad.index_put_(self, indices, values, accumulate)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            indices (list[Tensor] | tuple[Tensor, ...]): Integer tensors or bool masks, one per leading axis of x, as in index.
            values (Tensor | float | int): The values, broadcastable to the indexed shape; cast to x's dtype.
            accumulate (bool, default False): Add instead of writing.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x, values. No gradient for: indices. x: the gradient, zero at the written positions unless accumulate; values: the gradient at the indexed positions, summed to values' shape (every repeated position passes its gradient, as PyTorch).
        """
        return _generated.ops.index_put_(self, indices, values, accumulate)

    def softmax(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        """exp(x) / sum(exp(x)) along axis, computed stably.

        Calls `opgrad.softmax(self, axis)`: self is x.

        Args:
            axis (int, default -1): The axis the probabilities sum to 1 along.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.softmax(self, axis, dim)

    def log_softmax(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        """log(softmax(x)) along axis, computed stably.

        Calls `opgrad.log_softmax(self, axis)`: self is x.

        Args:
            axis (int, default -1): The axis the probabilities sum to 1 along.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): A tensor of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.log_softmax(self, axis, dim)

    def glu(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        """Gated linear unit a * sigmoid(b), with a and b the two halves of x along axis (its size must be even).

        Calls `opgrad.glu(self, axis)`: self is x.

        Args:
            axis (int, default -1): The axis split into halves a (first) and b (second); its size must be even.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): x's shape with axis halved.

        Gradient:
            Flows to x.
        """
        return _generated.ops.glu(self, axis, dim)

    def fill(self: Tensor, value: float) -> Tensor:
        """A tensor shaped like x (and of its dtype) with every element set to value; no gradient flows to x.

        Calls `opgrad.fill(self, value)`: self is x.

        Args:
            value (float | int): The number every element is set to.

        Returns:
            out (Tensor): A new tensor of x's shape and dtype.

        Gradient:
            Flows to x. Zero: the result does not depend on x's values.
        """
        return _generated.ops.fill(self, value)

    def fill_(self: Tensor, value: float) -> Tensor:
        """A tensor shaped like x (and of its dtype) with every element set to value; no gradient flows to x.

        Calls `opgrad.fill_(self, value)`: self is x.
        In place: writes the result into self and returns self.

        Args:
            value (float | int): The number every element is set to.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x. Zero: the result does not depend on x's values.
        """
        return _generated.ops.fill_(self, value)

    def zero(self: Tensor) -> Tensor:
        """Zeros shaped like x (and of its dtype); no gradient flows to x.

        Calls `opgrad.zero(self)`: self is x.

        Returns:
            out (Tensor): A new tensor of x's shape and dtype.

        Gradient:
            Flows to x. Zero: the result does not depend on x's values.
        """
        return _generated.ops.zero(self)

    def zero_(self: Tensor) -> Tensor:
        """Zeros shaped like x (and of its dtype); no gradient flows to x.

        Calls `opgrad.zero_(self)`: self is x.
        In place: writes the result into self and returns self.

        Returns:
            self (Tensor): Written in place, holding the result.

        Gradient:
            Flows to x. Zero: the result does not depend on x's values.
        """
        return _generated.ops.zero_(self)

    def bitwise_and(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x & y, elementwise with broadcasting (integer or bool tensors; logical and on bool).

        Calls `opgrad.bitwise_and(self, y)`: self is x.

        Args:
            y (Tensor | float | int): An integer or bool tensor; broadcasts against x.

        Returns:
            out (Tensor): The bitwise and of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_and(self, y)

    def __and__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x & y, elementwise with broadcasting (integer or bool tensors; logical and on bool).

        Calls `opgrad.bitwise_and(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): An integer or bool tensor; broadcasts against x.

        Returns:
            out (Tensor): The bitwise and of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_and(self, other)

    def __rand__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x & y, elementwise with broadcasting (integer or bool tensors; logical and on bool).

        Calls `opgrad.bitwise_and(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): An integer or bool tensor.

        Returns:
            out (Tensor): The bitwise and of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_and(other, self)

    def bitwise_or(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x | y, elementwise with broadcasting (integer or bool tensors; logical or on bool).

        Calls `opgrad.bitwise_or(self, y)`: self is x.

        Args:
            y (Tensor | float | int): An integer or bool tensor; broadcasts against x.

        Returns:
            out (Tensor): The bitwise or of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_or(self, y)

    def __or__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x | y, elementwise with broadcasting (integer or bool tensors; logical or on bool).

        Calls `opgrad.bitwise_or(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): An integer or bool tensor; broadcasts against x.

        Returns:
            out (Tensor): The bitwise or of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_or(self, other)

    def __ror__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x | y, elementwise with broadcasting (integer or bool tensors; logical or on bool).

        Calls `opgrad.bitwise_or(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): An integer or bool tensor.

        Returns:
            out (Tensor): The bitwise or of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_or(other, self)

    def bitwise_xor(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x ^ y, elementwise with broadcasting (integer or bool tensors; logical xor on bool).

        Calls `opgrad.bitwise_xor(self, y)`: self is x.

        Args:
            y (Tensor | float | int): An integer or bool tensor; broadcasts against x.

        Returns:
            out (Tensor): The bitwise xor of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_xor(self, y)

    def __xor__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x ^ y, elementwise with broadcasting (integer or bool tensors; logical xor on bool).

        Calls `opgrad.bitwise_xor(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): An integer or bool tensor; broadcasts against x.

        Returns:
            out (Tensor): The bitwise xor of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_xor(self, other)

    def __rxor__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x ^ y, elementwise with broadcasting (integer or bool tensors; logical xor on bool).

        Calls `opgrad.bitwise_xor(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): An integer or bool tensor.

        Returns:
            out (Tensor): The bitwise xor of x and y (logical on bool), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_xor(other, self)

    def bitwise_not(self: Tensor) -> Tensor:
        """~x, elementwise (integer or bool tensors; logical not on bool).

        Calls `opgrad.bitwise_not(self)`: self is x.

        Returns:
            out (Tensor): The bitwise complement of x (logical not on bool), of x's shape and dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_not(self)

    def __invert__(self: Tensor) -> Tensor:
        """~x, elementwise (integer or bool tensors; logical not on bool).

        Calls `opgrad.bitwise_not(self)`: self is x.

        Returns:
            out (Tensor): The bitwise complement of x (logical not on bool), of x's shape and dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.bitwise_not(self)

    def floor_divide(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x // y, elementwise with broadcasting, rounded toward minus infinity; no gradient (zero almost everywhere).

        Calls `opgrad.floor_divide(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            out (Tensor): floor(x / y), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.floor_divide(self, y)

    def __floordiv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x // y, elementwise with broadcasting, rounded toward minus infinity; no gradient (zero almost everywhere).

        Calls `opgrad.floor_divide(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            out (Tensor): floor(x / y), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.floor_divide(self, other)

    def __rfloordiv__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x // y, elementwise with broadcasting, rounded toward minus infinity; no gradient (zero almost everywhere).

        Calls `opgrad.floor_divide(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): The dividend.

        Returns:
            out (Tensor): floor(x / y), of the broadcast shape and promoted dtype.

        Gradient:
            None: the outputs are not differentiable.
        """
        return _generated.ops.floor_divide(other, self)

    def remainder(self: Tensor, y: Tensor | float | int) -> Tensor:
        """x % y, elementwise with broadcasting; the result takes y's sign (Python's modulo).

        Calls `opgrad.remainder(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            out (Tensor): x - floor(x / y) * y, which has y's sign, of the broadcast shape and promoted dtype.

        Gradient:
            Flows to x, y. The gradient is 1 for x and -floor(x / y) for y (the floor's own gradient is zero almost everywhere).
        """
        return _generated.ops.remainder(self, y)

    def __mod__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x % y, elementwise with broadcasting; the result takes y's sign (Python's modulo).

        Calls `opgrad.remainder(self, other)`: self is x, other is y.

        Args:
            other (Tensor | float | int): The divisor; broadcasts against x.

        Returns:
            out (Tensor): x - floor(x / y) * y, which has y's sign, of the broadcast shape and promoted dtype.

        Gradient:
            Flows to x, y. The gradient is 1 for x and -floor(x / y) for y (the floor's own gradient is zero almost everywhere).
        """
        return _generated.ops.remainder(self, other)

    def __rmod__(self: Tensor, other: Tensor | float | int) -> Tensor:
        """x % y, elementwise with broadcasting; the result takes y's sign (Python's modulo).

        Calls `opgrad.remainder(other, self)`: self is y, other is x.

        Args:
            other (Tensor | float | int): The dividend.

        Returns:
            out (Tensor): x - floor(x / y) * y, which has y's sign, of the broadcast shape and promoted dtype.

        Gradient:
            Flows to x, y. The gradient is 1 for x and -floor(x / y) for y (the floor's own gradient is zero almost everywhere).
        """
        return _generated.ops.remainder(other, self)

    def matrix_transpose(self: Tensor) -> Tensor:
        """x with its last two axes swapped (a batch of transposed matrices).

        Calls `opgrad.matrix_transpose(self)`: self is x.

        Returns:
            out (Tensor): The transposed matrices, of shape (..., n, m).

        Gradient:
            Flows to x.
        """
        return _generated.ops.matrix_transpose(self)

    def trace(self: Tensor) -> Tensor:
        """The sum of the main diagonal of each matrix in the last two axes (batched; may be rectangular).

        Calls `opgrad.trace(self)`: self is x.

        Returns:
            out (Tensor): The traces, of shape x.shape[:-2].

        Gradient:
            Flows to x.
        """
        return _generated.ops.trace(self)

    def outer(self: Tensor, y: Tensor | float | int) -> Tensor:
        """The outer product x[i] * y[j] of two vectors.

        Calls `opgrad.outer(self, y)`: self is x.

        Args:
            y (Tensor | float | int): A 1-D tensor of length n.

        Returns:
            out (Tensor): The (m, n) matrix of products.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.outer(self, y)

    def diagonal(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dim1: int | None = None, dim2: int | None = None) -> Tensor:
        """The diagonal of x in the plane of axis1 and axis2, as a new last axis (a copy); offset > 0 is above the main diagonal, < 0 below.

        Calls `opgrad.diagonal(self, offset, axis1, axis2)`: self is x.

        Args:
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
        return _generated.ops.diagonal(self, offset, axis1, axis2, dim1, dim2)

    def diag_embed(self: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
        """Matrices with the last axis of x on their offset diagonal and zeros elsewhere, placed at the output axes dim1 (rows) and dim2 (columns).

        Calls `opgrad.diag_embed(self, offset, dim1, dim2)`: self is x.

        Args:
            offset (int, default 0): Which diagonal to fill; 0 is the main one.
            dim1 (int, default -2): The output axis of the rows (counted in the output, which has one more axis than x).
            dim2 (int, default -1): The output axis of the columns; not dim1.

        Returns:
            out (Tensor): A tensor of x.ndim + 1 axes whose dim1 and dim2 have size x.shape[-1] + abs(offset).

        Gradient:
            Flows to x.
        """
        return _generated.ops.diag_embed(self, offset, dim1, dim2)

    def cross(self: Tensor, y: Tensor | float | int, axis: int = -1, dim: int | None = None) -> Tensor:
        """The cross product of 3-vectors along axis, with broadcasting (axis counts in the broadcast shape).

        Calls `opgrad.cross(self, y, axis)`: self is x.

        Args:
            y (Tensor | float | int): The right operand; broadcasts against x.
            axis (int, default -1): The axis of the 3-vectors.
            dim (int | None, default None): Alias of axis (the PyTorch/NumPy spelling); give one or the other.

        Returns:
            out (Tensor): The cross product x x y, of the broadcast shape.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.cross(self, y, axis, dim)

    def inv(self: Tensor) -> Tensor:
        """The inverse of each square matrix in the last two axes; a singular matrix raises a ValueError naming the batch element.

        Calls `opgrad.inv(self)`: self is x.

        Returns:
            out (Tensor): The inverses, of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.inv(self)

    def det(self: Tensor) -> Tensor:
        """The determinant of each square matrix in the last two axes. The gradient det * inv(x)^T needs an invertible x; at a singular x it raises (as inv does).

        Calls `opgrad.det(self)`: self is x.

        Returns:
            out (Tensor): The determinants, of shape x.shape[:-2].

        Gradient:
            Flows to x.
        """
        return _generated.ops.det(self)

    def slogdet(self: Tensor) -> tuple[Tensor, Tensor]:
        """The sign and log of the absolute value of the determinant of each square matrix in the last two axes; only logabsdet has a gradient (inv(x)^T, which needs an invertible x).

        Calls `opgrad.slogdet(self)`: self is x.

        Returns:
            A tuple (sign, logabsdet):
            sign (Tensor): -1, 0 or 1, of shape x.shape[:-2].
            logabsdet (Tensor): log|det x| (-inf for a singular matrix), of shape x.shape[:-2].

        Gradient:
            Flows to x. Not differentiable: output sign.
        """
        return _generated.ops.slogdet(self)

    def cholesky(self: Tensor, upper: bool = False) -> Tensor:
        """The Cholesky factor of each symmetric positive-definite matrix in the last two axes, of (x + x^T) / 2 (so the gradient is symmetric); a matrix that is not positive definite raises a ValueError naming the batch element.

        Calls `opgrad.cholesky(self, upper)`: self is x.

        Args:
            upper (bool, default False): False gives the lower factor L (x = L L^T), True the upper factor U = L^T (x = U^T U).

        Returns:
            out (Tensor): The triangular factors, of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.cholesky(self, upper)

    def matrix_power(self: Tensor, n: int) -> Tensor:
        """Each square matrix in the last two axes to the integer power n (n = 0 gives the identity, n < 0 powers of the inverse).

        Calls `opgrad.matrix_power(self, n)`: self is x.

        Args:
            n (int): The power, any integer.

        Returns:
            out (Tensor): x @ x @ ... (n factors), of x's shape.

        Gradient:
            Flows to x.
        """
        return _generated.ops.matrix_power(self, n)

    def kron(self: Tensor, y: Tensor | float | int) -> Tensor:
        """The Kronecker product (blocks x[i, j, ...] * y), with the shorter shape padded with leading 1s.

        Calls `opgrad.kron(self, y)`: self is x.

        Args:
            y (Tensor | float | int): The right operand, of any shape.

        Returns:
            out (Tensor): A tensor whose shape is the elementwise product of the padded shapes of x and y.

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.kron(self, y)

    def bmm(self: Tensor, y: Tensor | float | int) -> Tensor:
        """The batched matrix product of two 3-D tensors with the same batch size (no broadcasting; matmul broadcasts).

        Calls `opgrad.bmm(self, y)`: self is x.

        Args:
            y (Tensor | float | int): A tensor (b, m, p).

        Returns:
            out (Tensor): The products, of shape (b, n, p).

        Gradient:
            Flows to x, y.
        """
        return _generated.ops.bmm(self, y)

    def conj(self: Tensor) -> Tensor:
        """The complex conjugate, elementwise (a copy for a complex tensor; a real tensor is returned as it is, as a view).

        Calls `opgrad.conj(self)`: self is x.

        Returns:
            out (Tensor): x with its imaginary part negated, of x's shape and dtype.

        Gradient:
            Flows to x. conj(g).
        """
        return _generated.ops.conj(self)

    def angle(self: Tensor) -> Tensor:
        """The argument (phase) of each element in (-pi, pi], as a real tensor; a real x gives 0 or pi.

        Calls `opgrad.angle(self)`: self is x.

        Returns:
            out (Tensor): A real tensor of x's shape (float32 for complex64, float64 for complex128).

        Gradient:
            Flows to x. For complex x, 1j g / conj(x) (infinite at 0, where the angle is not defined); 0 for real x.
        """
        return _generated.ops.angle(self)


# The methods whose body is one call of an op of ops.py's driver table (codegen/plan_fast.py):
# (name, what the body calls, whether it swaps the operands). With the optional C primitives
# built, `_accel.methods` replaces each by a C callable that runs the op's common case
# without this frame and calls the method for everything else.
_accel.methods(
    TensorMethods,
    [
        ("neg", ("_generated", "ops", "neg"), False),
        ("__neg__", ("_generated", "ops", "neg"), False),
        ("abs", ("_generated", "ops", "abs"), False),
        ("__abs__", ("_generated", "ops", "abs"), False),
        ("sign", ("_generated", "ops", "sign"), False),
        ("exp", ("_generated", "ops", "exp"), False),
        ("exp_", ("_generated", "ops", "exp_"), False),
        ("expm1", ("_generated", "ops", "expm1"), False),
        ("log", ("_generated", "ops", "log"), False),
        ("log1p", ("_generated", "ops", "log1p"), False),
        ("sqrt", ("_generated", "ops", "sqrt"), False),
        ("rsqrt", ("_generated", "ops", "rsqrt"), False),
        ("square", ("_generated", "ops", "square"), False),
        ("reciprocal", ("_generated", "ops", "reciprocal"), False),
        ("sin", ("_generated", "ops", "sin"), False),
        ("cos", ("_generated", "ops", "cos"), False),
        ("tanh", ("_generated", "ops", "tanh"), False),
        ("tanh_", ("_generated", "ops", "tanh_"), False),
        ("sigmoid", ("_generated", "ops", "sigmoid"), False),
        ("relu", ("_generated", "ops", "relu"), False),
        ("silu", ("_generated", "ops", "silu"), False),
        ("erf", ("_generated", "ops", "erf"), False),
        ("pow", ("_generated", "ops", "pow"), False),
        ("hardswish", ("_generated", "ops", "hardswish"), False),
        ("hardsigmoid", ("_generated", "ops", "hardsigmoid"), False),
        ("mish", ("_generated", "ops", "mish"), False),
        ("log_sigmoid", ("_generated", "ops", "log_sigmoid"), False),
        ("swish", ("_generated", "ops", "swish"), False),
        ("softsign", ("_generated", "ops", "softsign"), False),
        ("tanhshrink", ("_generated", "ops", "tanhshrink"), False),
        ("add", ("_generated", "ops", "add"), False),
        ("__add__", ("_generated", "ops", "add"), False),
        ("__radd__", ("_generated", "ops", "add"), True),
        ("add_", ("_generated", "ops", "add_"), False),
        ("__iadd__", ("_generated", "ops", "add_"), False),
        ("subtract", ("_generated", "ops", "subtract"), False),
        ("__sub__", ("_generated", "ops", "subtract"), False),
        ("__rsub__", ("_generated", "ops", "subtract"), True),
        ("subtract_", ("_generated", "ops", "subtract_"), False),
        ("__isub__", ("_generated", "ops", "subtract_"), False),
        ("multiply", ("_generated", "ops", "multiply"), False),
        ("__mul__", ("_generated", "ops", "multiply"), False),
        ("__rmul__", ("_generated", "ops", "multiply"), True),
        ("multiply_", ("_generated", "ops", "multiply_"), False),
        ("__imul__", ("_generated", "ops", "multiply_"), False),
        ("divide", ("_generated", "ops", "divide"), False),
        ("__truediv__", ("_generated", "ops", "divide"), False),
        ("__rtruediv__", ("_generated", "ops", "divide"), True),
        ("divide_", ("_generated", "ops", "divide_"), False),
        ("__itruediv__", ("_generated", "ops", "divide_"), False),
        ("maximum", ("_generated", "ops", "maximum"), False),
        ("minimum", ("_generated", "ops", "minimum"), False),
        ("tan", ("_generated", "ops", "tan"), False),
        ("asin", ("_generated", "ops", "asin"), False),
        ("acos", ("_generated", "ops", "acos"), False),
        ("atan", ("_generated", "ops", "atan"), False),
        ("sinh", ("_generated", "ops", "sinh"), False),
        ("cosh", ("_generated", "ops", "cosh"), False),
        ("asinh", ("_generated", "ops", "asinh"), False),
        ("acosh", ("_generated", "ops", "acosh"), False),
        ("atanh", ("_generated", "ops", "atanh"), False),
        ("log2", ("_generated", "ops", "log2"), False),
        ("log10", ("_generated", "ops", "log10"), False),
        ("exp2", ("_generated", "ops", "exp2"), False),
        ("deg2rad", ("_generated", "ops", "deg2rad"), False),
        ("rad2deg", ("_generated", "ops", "rad2deg"), False),
        ("logit", ("_generated", "ops", "logit"), False),
        ("frac", ("_generated", "ops", "frac"), False),
        ("floor", ("_generated", "ops", "floor"), False),
        ("ceil", ("_generated", "ops", "ceil"), False),
        ("trunc", ("_generated", "ops", "trunc"), False),
        ("atan2", ("_generated", "ops", "atan2"), False),
        ("logaddexp", ("_generated", "ops", "logaddexp"), False),
        ("logaddexp2", ("_generated", "ops", "logaddexp2"), False),
        ("xlogy", ("_generated", "ops", "xlogy"), False),
        ("fmod", ("_generated", "ops", "fmod"), False),
        ("copysign", ("_generated", "ops", "copysign"), False),
        ("__matmul__", ("_generated", "ops", "matmul"), False),
        ("__rmatmul__", ("_generated", "ops", "matmul"), True),
        ("gather_nd", ("_generated", "ops", "gather_nd"), False),
        ("fill", ("_generated", "ops", "fill"), False),
        ("zero", ("_generated", "ops", "zero"), False),
        ("zero_", ("_generated", "ops", "zero_"), False),
        ("remainder", ("_generated", "ops", "remainder"), False),
        ("__mod__", ("_generated", "ops", "remainder"), False),
        ("__rmod__", ("_generated", "ops", "remainder"), True),
        ("matrix_transpose", ("_generated", "ops", "matrix_transpose"), False),
        ("trace", ("_generated", "ops", "trace"), False),
        ("outer", ("_generated", "ops", "outer"), False),
        ("inv", ("_generated", "ops", "inv"), False),
        ("det", ("_generated", "ops", "det"), False),
        ("kron", ("_generated", "ops", "kron"), False),
        ("bmm", ("_generated", "ops", "bmm"), False),
        ("angle", ("_generated", "ops", "angle"), False),
    ],
)
