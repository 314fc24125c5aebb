"""Binary elementwise kernels with NumPy broadcasting (and elementwise_pow's double grad),
`where`, and the comparisons.

Forward kernels follow NumPy's type promotion (float32 with float64 gives float64); every
grad kernel hands its gradients to `unbroadcast`, which sums them back to each input's
shape and casts them to its dtype. Inputs listed under `no_need_buffer` (add's x and y,
say) arrive as `TensorMeta`: only `.shape` and `.dtype` are used. Comparisons return bool
arrays and have no gradient. add, subtract, multiply and divide have into variants (their
in-place forms write straight into x: kernels/registry.py).
"""

from __future__ import annotations

import operator

import numpy as np

from opgrad.runtime import _accel
from opgrad.runtime.kernels.common import (
    array_module,
    broadcast_shapes,
    nd,
    same_as_ufunc,
    ufunc_into,
    unbroadcast,
)
from opgrad.runtime.kernels.registry import register_into, register_kernel


def _shape_error(op, x, y, exc):
    """Re-raise a NumPy broadcasting failure as an error naming the op and both shapes."""
    broadcast_shapes(op, x.shape, y.shape)  # raises the descriptive error when shapes clash
    raise exc


# The grad kernels of add, subtract, multiply and divide take backward.yaml's `needs` (which
# gradients the graph uses; None: both) and skip the others: in `y * c + b` with constant
# c and b, half the backward's arrays were made only to be dropped.
_BOTH = (True, True)
_NDARRAY = np.ndarray
_ADD_REDUCE = np.add.reduce  # what ndarray.sum calls, behind a Python wrapper


def _pair(x_grad, y_grad, x, y):
    return unbroadcast(x_grad, x.shape, x.dtype), unbroadcast(y_grad, y.shape, y.dtype)


@register_kernel("add")
@same_as_ufunc(np.add)  # `x + y` on exact ndarrays
def add(x, y):
    try:
        r = x + y
    except ValueError as exc:
        _shape_error("add", x, y, exc)
    return r if r.__class__ is _NDARRAY else nd(r)  # nd's check, without the call


register_into(add)(ufunc_into("add"))


@register_kernel("add_grad")
def add_grad(x, y, out_grad, needs=None):
    want_x, want_y = needs or _BOTH
    if out_grad.__class__ is _NDARRAY:  # unbroadcast's first two cases inline (one call less)
        shape = out_grad.shape
        dtype = out_grad.dtype
        return (
            (out_grad if x.shape == shape and x.dtype == dtype else unbroadcast(out_grad, x.shape, x.dtype))
            if want_x
            else None,
            (
                out_grad
                if (y_shape := y.shape) == shape and y.dtype == dtype
                # a bias added to each row (`x @ w + b`): the sum over the rows, as unbroadcast's
                else _ADD_REDUCE(out_grad, 0)
                if len(shape) >= 2 and y_shape == shape[1:] and y.dtype == dtype
                else unbroadcast(out_grad, y_shape, y.dtype)
            )
            if want_y
            else None,
        )
    return (
        unbroadcast(out_grad, x.shape, x.dtype) if want_x else None,
        unbroadcast(out_grad, y.shape, y.dtype) if want_y else None,
    )


_accel.node_kernel("add_grad", add_grad)  # its common cases in the C node driver


@register_kernel("subtract")
@same_as_ufunc(np.subtract)  # `x - y` on exact ndarrays
def subtract(x, y):
    try:
        r = x - y
    except ValueError as exc:
        _shape_error("subtract", x, y, exc)
    return r if r.__class__ is _NDARRAY else nd(r)  # nd's check, without the call


register_into(subtract)(ufunc_into("subtract"))


@register_kernel("subtract_grad")
def subtract_grad(x, y, out_grad, needs=None):
    want_x, want_y = needs or _BOTH
    return (
        unbroadcast(out_grad, x.shape, x.dtype) if want_x else None,
        unbroadcast(-out_grad, y.shape, y.dtype) if want_y else None,
    )


@register_kernel("multiply")
@same_as_ufunc(np.multiply)  # `x * y` on exact ndarrays
def multiply(x, y):
    try:
        r = x * y
    except ValueError as exc:
        _shape_error("multiply", x, y, exc)
    return r if r.__class__ is _NDARRAY else nd(r)  # nd's check, without the call


_multiply_into = ufunc_into("multiply")


@register_into(multiply)
@same_as_ufunc(np.multiply, warns_from=_multiply_into)  # (the C write passes only real float arrays)
def multiply_into(out, x, y):
    """Declines complex x: NumPy's complex multiply into an operand's own memory of one
    element rounds differently from `x * y` (1 ulp; tests/test_inplace_layouts.py found it),
    so complex in-place products take the general path, which is `x * y` bit for bit."""
    return out.dtype.kind != "c" and _multiply_into(out, x, y)


@register_kernel("multiply_grad")
def multiply_grad(x, y, out_grad, needs=None):
    want_x, want_y = needs or _BOTH
    if out_grad.dtype.kind == "c":  # the conjugate convention: g * conj(dout/dx)
        x, y = x.conj(), y.conj()
    # unbroadcast's first case inline (one call less per gradient): nothing was broadcast
    x_grad = y_grad = None
    if want_x:
        x_grad = out_grad * y
        if x_grad.__class__ is not _NDARRAY or x_grad.shape != x.shape or x_grad.dtype != x.dtype:
            x_grad = unbroadcast(x_grad, x.shape, x.dtype)
    if want_y:
        y_grad = out_grad * x
        if y_grad.__class__ is not _NDARRAY or y_grad.shape != y.shape or y_grad.dtype != y.dtype:
            y_grad = unbroadcast(y_grad, y.shape, y.dtype)
    return x_grad, y_grad


@register_kernel("divide")
@same_as_ufunc(np.divide)  # `x / y` on exact ndarrays
def divide(x, y):
    try:
        r = x / y
    except ValueError as exc:
        _shape_error("divide", x, y, exc)
    return r if r.__class__ is _NDARRAY else nd(r)  # nd's check, without the call


register_into(divide)(ufunc_into("divide"))


@register_kernel("divide_grad")
def divide_grad(x, y, out, out_grad, needs=None):
    want_x, want_y = needs or _BOTH
    if out_grad.dtype.kind == "c":  # the conjugate convention: g * conj(dout/dx)
        y, out = y.conj(), out.conj()
    x_grad = out_grad / y
    return (
        unbroadcast(x_grad, x.shape, x.dtype) if want_x else None,
        unbroadcast(-x_grad * out, y.shape, y.dtype) if want_y else None,
    )


@register_kernel("maximum")
def maximum(x, y):
    try:
        return nd(array_module(x, y).maximum(x, y))
    except ValueError as exc:
        _shape_error("maximum", x, y, exc)


def _extremum_grad(x, y, out_grad, x_wins):
    # x takes the gradient where it wins, half of it on a tie; y takes the rest. A NaN wins
    # (it is the result), two NaNs tie (as PyTorch does).
    xp = array_module(x, y)
    x_nan, y_nan = xp.isnan(x), xp.isnan(y)
    x_wins = (x_wins & ~y_nan) | (x_nan & ~y_nan)
    tie = (x == y) | (x_nan & y_nan)
    x_grad = xp.where(x_wins, out_grad, xp.where(tie, out_grad * 0.5, 0))
    return _pair(x_grad, out_grad - x_grad, x, y)


@register_kernel("maximum_grad")
def maximum_grad(x, y, out_grad):
    return _extremum_grad(x, y, out_grad, x > y)


@register_kernel("minimum")
def minimum(x, y):
    try:
        return nd(array_module(x, y).minimum(x, y))
    except ValueError as exc:
        _shape_error("minimum", x, y, exc)


@register_kernel("minimum_grad")
def minimum_grad(x, y, out_grad):
    return _extremum_grad(x, y, out_grad, x < y)


@register_kernel("elementwise_pow")
def elementwise_pow(x, y):
    try:
        return nd(x**y)
    except ValueError as exc:
        _shape_error("elementwise_pow", x, y, exc)


@register_kernel("elementwise_pow_grad")
def elementwise_pow_grad(x, y, out_grad):
    xp = array_module(x, y)
    if out_grad.dtype.kind == "c":  # principal branch; the conjugate convention: g * conj(dout/dx)
        log_x = xp.log(xp.where(x == 0, 1, x))
        x_grad = out_grad * xp.conj(xp.where(y == 0, 0, y * x ** (y - 1)))
        y_grad = out_grad * xp.conj(xp.where(x == 0, 0, x**y * log_x))
        return _pair(x_grad, y_grad, x, y)
    # d/dx x**y = y * x**(y - 1), and 0 where y == 0 (x**0 is 1 everywhere: 0 * inf at x == 0)
    x_grad = out_grad * xp.where(y == 0, 0, y * x ** (y - 1))
    # d/dy x**y = x**y * log(x): NaN where x < 0; where x == 0, 0 for y >= 0 (the limit) and
    # -inf for y < 0 (inf * log 0), as PyTorch
    positive = x > 0
    log_x = xp.log(xp.where(positive, x, 1))
    at_zero = xp.where(y < 0, -xp.inf, 0)
    dy = xp.where(positive, x**y * log_x, xp.where(x == 0, at_zero, xp.nan))
    return _pair(x_grad, out_grad * dy, x, y)


@register_kernel("elementwise_pow_double_grad")
def elementwise_pow_double_grad(x, y, out_grad, x_grad_grad, y_grad_grad):
    xp = array_module(x, y)
    if out_grad.dtype.kind == "c":  # the principal branch: every derivative from log(x)
        log_x = xp.log(xp.where(x == 0, 1, x))
        d_x, d_y = y * x ** (y - 1), x**y * log_x
        d_xx, d_xy, d_yy = y * (y - 1) * x ** (y - 2), x ** (y - 1) * (1 + y * log_x), d_y * log_x
        a, b = x_grad_grad, y_grad_grad
        return (
            unbroadcast(out_grad * xp.conj(a * d_xx + b * d_xy), x.shape, x.dtype),
            unbroadcast(out_grad * xp.conj(a * d_xy + b * d_yy), y.shape, y.dtype),
            unbroadcast(a * d_x + b * d_y, out_grad.shape, out_grad.dtype),
        )
    positive = x > 0
    log_x = xp.log(xp.where(positive, x, 1))
    # where x <= 0 the y-derivatives are 0 (x == 0) or NaN (x < 0), as in elementwise_pow_grad
    undefined = xp.where(x == 0, 0, xp.nan)
    d_x = y * x ** (y - 1)
    d_y = xp.where(positive, x**y * log_x, undefined)
    d_xx = y * (y - 1) * x ** (y - 2)
    d_xy = xp.where(positive, x ** (y - 1) * (1 + y * log_x), undefined)
    d_yy = xp.where(positive, x**y * log_x * log_x, undefined)
    a, b = x_grad_grad, y_grad_grad
    grad_wrt_x = out_grad * (a * d_xx + b * d_xy)
    grad_wrt_y = out_grad * (a * d_xy + b * d_yy)
    grad_wrt_out_grad = a * d_x + b * d_y
    return (
        unbroadcast(grad_wrt_x, x.shape, x.dtype),
        unbroadcast(grad_wrt_y, y.shape, y.dtype),
        unbroadcast(grad_wrt_out_grad, out_grad.shape, out_grad.dtype),
    )


def _check_condition(condition, x, y):
    if condition.dtype.kind != "b":
        raise TypeError(f"where: condition must be a bool tensor, got dtype {condition.dtype}")
    broadcast_shapes("where", condition.shape, x.shape, y.shape, names=("condition", "x", "y"))


@register_kernel("where")
def where(condition, x, y):
    _check_condition(condition, x, y)
    return nd(array_module(condition, x, y).where(condition, x, y))


@register_kernel("where_grad")
def where_grad(condition, x, y, out_grad):
    xp = array_module(condition, out_grad)
    x_grad = xp.where(condition, out_grad, 0)
    y_grad = xp.where(condition, 0, out_grad)
    return _pair(x_grad, y_grad, x, y)


def _comparison(name, compare):
    def kernel(x, y):
        try:
            return nd(compare(x, y))
        except ValueError as exc:
            _shape_error(name, x, y, exc)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"x {name} y, elementwise with broadcasting; a bool array."
    return register_kernel(name)(kernel)


equal = _comparison("equal", operator.eq)
not_equal = _comparison("not_equal", operator.ne)
less_than = _comparison("less_than", operator.lt)
less_equal = _comparison("less_equal", operator.le)
greater_than = _comparison("greater_than", operator.gt)
greater_equal = _comparison("greater_equal", operator.ge)
