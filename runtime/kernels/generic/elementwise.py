"""Unary elementwise kernels, their gradients, and the double grads of gelu, silu and
softplus (array-module generic: NumPy and CuPy).

Each forward kernel sits next to its grad kernel (and its double grad, where one is a
kernel). Grad kernels take the backward.yaml `args` (saved input `x` or output `out`, then
`out_grad`) followed by the forward op's attributes. Results pass through `nd` so a 0-d
input never yields a NumPy scalar.

exp, tanh, relu and clip have into variants (their in-place forms write straight into x:
kernels/registry.py): one ufunc each, so a floating-point error NumPy reports after its
loop finds x whole. sigmoid and scale take several passes and have none.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from opgrad.runtime import _accel
from opgrad.runtime.kernels.common import (
    ONES,
    array_module,
    erf,
    nan_where,
    nd,
    readonly_scalar,
    separate,
    stable_sigmoid,
    ufunc,
    ufunc_into,
)
from opgrad.runtime.kernels.registry import register_into, register_kernel

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_GELU_K = math.sqrt(2.0 / math.pi)
_GELU_C = 0.044715
_BOTH = (True, True)
_NDARRAY = np.ndarray
_MULTIPLY, _SUBTRACT = np.multiply, np.subtract
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_ONE_F64, _ONE_F32 = ONES[_F64], ONES[_F32]


def _conj(a):
    """conj(a) for a complex array (a holomorphic op's gradient is g * conj(f'(x))), a as it is otherwise."""
    return a.conj() if a.dtype.kind == "c" else a


@register_kernel("neg")
def neg(x):
    return nd(-x)


@register_kernel("neg_grad")
def neg_grad(out_grad):
    return nd(-out_grad)


abs_ = register_kernel("abs")(ufunc("abs"))


@register_kernel("abs_grad")
def abs_grad(x, out_grad):
    return nd(out_grad * array_module(x).sign(x))


sign = register_kernel("sign")(ufunc("sign"))


@register_kernel("sign_grad")
def sign_grad(x, out_grad):
    return array_module(out_grad).zeros(x.shape, x.dtype)


exp = register_kernel("exp")(ufunc("exp"))
register_into(exp)(ufunc_into("exp"))


@register_kernel("exp_grad")
def exp_grad(out, out_grad):
    return nd(out_grad * _conj(out))


expm1 = register_kernel("expm1")(ufunc("expm1"))


@register_kernel("expm1_grad")
def expm1_grad(out, out_grad):
    return nd(out_grad * (out + 1))


log = register_kernel("log")(ufunc("log"))


@register_kernel("log_grad")
def log_grad(x, out_grad):
    return nd(out_grad / _conj(x))


log1p = register_kernel("log1p")(ufunc("log1p"))


@register_kernel("log1p_grad")
def log1p_grad(x, out_grad):
    return nd(out_grad / (x + 1))


sqrt = register_kernel("sqrt")(ufunc("sqrt"))


@register_kernel("sqrt_grad")
def sqrt_grad(out, out_grad):
    return nd(out_grad * 0.5 / _conj(out))


@register_kernel("rsqrt")
def rsqrt(x):
    xp = array_module(x)
    return nd(1 / xp.sqrt(x))


@register_kernel("rsqrt_grad")
def rsqrt_grad(out, out_grad):
    return nd(out_grad * -0.5 * out * out * out)


@register_kernel("square")
def square(x):
    return nd(x * x)


@register_kernel("square_grad")
def square_grad(x, out_grad):
    return nd(out_grad * 2 * _conj(x))


@register_kernel("reciprocal")
def reciprocal(x):
    return nd(1 / x)


@register_kernel("reciprocal_grad")
def reciprocal_grad(out, out_grad):
    return nd(-out_grad * _conj(out * out))


sin = register_kernel("sin")(ufunc("sin"))


@register_kernel("sin_grad")
def sin_grad(x, out_grad):
    return nd(out_grad * _conj(array_module(x).cos(x)))


cos = register_kernel("cos")(ufunc("cos"))


@register_kernel("cos_grad")
def cos_grad(x, out_grad):
    return nd(-out_grad * _conj(array_module(x).sin(x)))


tanh = register_kernel("tanh")(ufunc("tanh"))
register_into(tanh)(ufunc_into("tanh"))


@register_kernel("tanh_grad")
def tanh_grad(out, out_grad):
    # two real NumPy arrays (every tanh of a chain, both modes): the three ufuncs called as
    # `*` and `-` would call them (the same bits), held here (no module look-up, no operator
    # dispatch: ~60 ns of the ~0.8 µs), 1 as a 0-d array of out's dtype (`ONES`; float64's
    # and float32's found by identity: hashing a dtype for the dict costs ~50 ns more; another
    # dtype object equal to them still finds its entry in ONES)
    if out.__class__ is _NDARRAY and out_grad.__class__ is _NDARRAY:
        dtype = out.dtype
        one = _ONE_F64 if dtype is _F64 else _ONE_F32 if dtype is _F32 else ONES.get(dtype)  # None: complex
        if one is not None:
            t = _MULTIPLY(out, out)
            if (
                t.__class__ is _NDARRAY
                and t.size > 256
                and t.shape == out_grad.shape
                and t.dtype is out_grad.dtype
                and t.strides == out_grad.strides
            ):
                # the same three steps into t, a new array of the result's shape, dtype and
                # layout (out_grad's strides: the layout a new result would take, which a
                # later reduction's order follows), two allocations fewer (~0.25 us at
                # 32x128; on small arrays the checks cost more than they save): IEEE
                # products and differences round the same whether or not they write over
                # an operand
                _SUBTRACT(one, t, t)
                return _MULTIPLY(out_grad, t, t)
            r = _MULTIPLY(out_grad, _SUBTRACT(one, t))
            return r if r.__class__ is _NDARRAY else nd(r)  # nd's check without the call
    one = ONES.get(out.dtype) if out.__class__ is _NDARRAY else None  # 1 in out's dtype, or None
    r = out_grad * (one - out * out) if one is not None else out_grad * _conj(1 - out * out)
    return r if r.__class__ is _NDARRAY else nd(r)


_accel.node_kernel("tanh_grad", tanh_grad)  # its real cases in the C node driver (the same ufunc calls)


def _float_dtype(a, b, c):
    """The dtype of three NumPy arrays of one shape (not 0-d) and of float64, or of float32
    (found by identity), or None. The double-grad kernels then call their ufuncs directly
    with 0-d constants of that dtype (`_CONSTS`; a Python number costs NumPy ~0.1-0.2 us per
    operation to find its dtype, for the same value and rounding: it is cast to the array's
    dtype). Not 0-d (a ufunc returns a NumPy scalar there) and without broadcasting."""
    dtype = a.dtype
    if (  # (chained `is`: each operand read once, ~0.1 us less than the tests one by one)
        (dtype is _F64 or dtype is _F32)
        and a.__class__ is b.__class__ is c.__class__ is _NDARRAY
        and b.dtype is dtype is c.dtype
        and a.ndim
        and a.shape == b.shape == c.shape
    ):
        return dtype
    return None


# float64's and float32's 0-d constants of the double grads: 1, -2 (tanh); 3 and 6 (pow, y = 3)
_CONSTS = {
    dt: (ONES[dt], readonly_scalar(-2, dt), readonly_scalar(3, dt), readonly_scalar(6, dt))
    for dt in (_F64, _F32)
}


@register_kernel("tanh_double_grad")
def tanh_double_grad(out, out_grad, x_grad_grad, needs=None):
    """backward.yaml's composite on arrays, step for step (the same roundings): the
    first-order path of a double backward through tanh, without an op call per step."""
    want_out, want_out_grad = needs or _BOTH
    dtype = _float_dtype(out, out_grad, x_grad_grad)
    if dtype is not None:  # conj is the identity; -2 and 1 as 0-d arrays of the dtype
        one, neg_two, _three, _six = _CONSTS[dtype]
        return (
            _MULTIPLY(_MULTIPLY(_MULTIPLY(neg_two, x_grad_grad), out_grad), out) if want_out else None,
            _MULTIPLY(x_grad_grad, _SUBTRACT(one, _MULTIPLY(out, out))) if want_out_grad else None,
        )
    return (
        nd(_conj(-2 * x_grad_grad * _conj(out_grad) * out)) if want_out else None,
        nd(x_grad_grad * (1 - out * out)) if want_out_grad else None,
    )


@register_kernel("sigmoid")
def sigmoid(x):
    return nd(stable_sigmoid(array_module(x), x))


@register_kernel("sigmoid_grad")
def sigmoid_grad(out, out_grad):
    one = ONES.get(out.dtype) if out.__class__ is _NDARRAY else None  # 1 in out's dtype (as in tanh_grad)
    if one is not None:
        return nd(out_grad * (out * (one - out)))
    return nd(out_grad * _conj(out * (1 - out)))


@register_kernel("relu")
def relu(x):
    return nd(array_module(x).maximum(x, 0))


@register_into(relu)
def relu_into(out, x):
    if out.__class__ is np.ndarray:
        np.maximum(x, 0, out=out)  # (np.maximum deprecates a positional out)
        return True
    if not separate(out, (x,)):
        return False
    array_module(x).maximum(x, 0, out=out, casting="same_kind")
    return True


@register_kernel("relu_grad")
def relu_grad(out, out_grad):
    # relu(NaN) is that NaN, passed through with its gradient (as PyTorch does)
    return nd(out_grad * ~(out <= 0))


# gelu and gelu_grad on floating arrays of one dtype work in place in one or two buffers
# (`_one_float_dtype`): on large arrays each fresh temporary costs more than the arithmetic.
# The expressions in the other branch are the reference they are tested against
# (tests/test_fast_paths.py); float32's exact form takes `erf_float32` through `erf`.


def _one_float_dtype(*arrays: Any) -> bool:
    """True when the arrays are n-d (not 0-d) float32 or float64 arrays of one dtype and
    one shape (the in-place steps write into an array of the first one's shape; float16
    keeps the general expressions, whose intermediate roundings are fewer)."""
    first = arrays[0]
    dt, shape = first.dtype, first.shape
    if dt.kind != "f" or dt.itemsize < 4:
        return False
    return all(a.dtype == dt and a.shape == shape and a.ndim for a in arrays)


def _gelu_tanh_arg(xp: Any, x: Any) -> Any:
    """K * (x + C * x**3), the argument of tanh in the approximate gelu, in a new array."""
    u = xp.multiply(x, x)
    u *= _GELU_K * _GELU_C
    u += _GELU_K
    u *= x
    return u


@register_kernel("gelu")
def gelu(x, approximate=False):
    xp = array_module(x)
    if _one_float_dtype(x):
        if approximate:
            y = _gelu_tanh_arg(xp, x)
            xp.tanh(y, out=y)
        else:
            y = erf(xp.multiply(x, _SQRT_HALF))
        y += 1
        y *= x
        y *= 0.5
        return y
    if approximate:
        return nd(0.5 * x * (1 + xp.tanh(_GELU_K * (x + _GELU_C * x * x * x))))
    return nd(0.5 * x * (1 + erf(x * _SQRT_HALF)))


@register_kernel("gelu_grad")
def gelu_grad(x, out_grad, approximate=False):
    xp = array_module(x)
    if _one_float_dtype(x, out_grad):
        if approximate:  # 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * K * (1 + 3 * C * x * x)
            t = _gelu_tanh_arg(xp, x)
            xp.tanh(t, out=t)
            a = xp.multiply(x, x)
            a *= 3 * _GELU_K * _GELU_C
            a += _GELU_K
            a *= x
            s = xp.multiply(t, t)
            a *= xp.subtract(1, s, out=s)
            a += t
            a += 1
            a *= 0.5
        else:  # cdf + x * pdf
            a = xp.multiply(x, x)
            a *= -0.5
            xp.exp(a, out=a)
            a *= _INV_SQRT_2PI
            a *= x
            cdf = erf(xp.multiply(x, _SQRT_HALF))
            cdf += 1
            cdf *= 0.5
            a += cdf
        a *= out_grad
        return a
    if approximate:
        t = xp.tanh(_GELU_K * (x + _GELU_C * x * x * x))
        dt = (1 - t * t) * (_GELU_K * (1 + 3 * _GELU_C * x * x))
        return nd(out_grad * (0.5 * (1 + t) + 0.5 * x * dt))
    cdf = 0.5 * (1 + erf(x * _SQRT_HALF))
    pdf = _INV_SQRT_2PI * xp.exp(-0.5 * x * x)
    return nd(out_grad * (cdf + x * pdf))


@register_kernel("gelu_double_grad")
def gelu_double_grad(x, out_grad, x_grad_grad, approximate=False):
    xp = array_module(x)
    if approximate:
        u = _GELU_K * (x + _GELU_C * x * x * x)
        du = _GELU_K * (1 + 3 * _GELU_C * x * x)
        ddu = _GELU_K * 6 * _GELU_C * x
        t = xp.tanh(u)
        s = 1 - t * t
        first = 0.5 * (1 + t) + 0.5 * x * s * du
        second = s * (du + 0.5 * x * (ddu - 2 * t * du * du))
    else:
        pdf = _INV_SQRT_2PI * xp.exp(-0.5 * x * x)
        first = 0.5 * (1 + erf(x * _SQRT_HALF)) + x * pdf
        second = pdf * (2 - x * x)
    return nd(x_grad_grad * out_grad * second), nd(x_grad_grad * first)


@register_kernel("silu")
def silu(x):
    return nd(x * stable_sigmoid(array_module(x), x))


@register_kernel("silu_grad")
def silu_grad(x, out_grad):
    s = stable_sigmoid(array_module(x), x)
    return nd(out_grad * (s * (1 + x * (1 - s))))


@register_kernel("silu_double_grad")
def silu_double_grad(x, out_grad, x_grad_grad):
    s = stable_sigmoid(array_module(x), x)
    first = s * (1 + x * (1 - s))
    second = s * (1 - s) * (2 + x * (1 - 2 * s))
    return nd(x_grad_grad * out_grad * second), nd(x_grad_grad * first)


@register_kernel("softplus")
def softplus(x, beta=1.0, threshold=20.0):
    xp = array_module(x)
    bx = x * beta
    return nd(xp.where(bx > threshold, x, xp.logaddexp(0, bx) / beta))


@register_kernel("softplus_grad")
def softplus_grad(x, out_grad, beta=1.0, threshold=20.0):
    xp = array_module(x)
    bx = x * beta
    return nd(xp.where(bx > threshold, out_grad, out_grad * stable_sigmoid(xp, bx)))


@register_kernel("softplus_double_grad")
def softplus_double_grad(x, out_grad, x_grad_grad, beta=1.0, threshold=20.0):
    xp = array_module(x)
    bx = x * beta
    linear = bx > threshold
    s = stable_sigmoid(xp, bx)
    grad_wrt_x = xp.where(linear, 0, x_grad_grad * out_grad * beta * s * (1 - s))
    return nd(grad_wrt_x.astype(x.dtype, copy=False)), nd(xp.where(linear, x_grad_grad, x_grad_grad * s))


@register_kernel("leaky_relu")
def leaky_relu(x, negative_slope=0.01):
    return nd(array_module(x).where(x > 0, x, x * negative_slope))


@register_kernel("leaky_relu_grad")
def leaky_relu_grad(x, out_grad, negative_slope=0.01):
    return nd(nan_where(x, array_module(x).where(x > 0, out_grad, out_grad * negative_slope)))


@register_kernel("elu")
def elu(x, alpha=1.0):
    xp = array_module(x)
    return nd(xp.where(x > 0, x, alpha * xp.expm1(xp.minimum(x, 0))))


@register_kernel("elu_grad")
def elu_grad(x, out_grad, alpha=1.0):
    xp = array_module(x)
    return nd(xp.where(x > 0, out_grad, out_grad * (alpha * xp.exp(xp.minimum(x, 0)))))


@register_kernel("erf")
def erf_(x):
    return nd(erf(x))


@register_kernel("erf_grad")
def erf_grad(x, out_grad):
    return nd(out_grad * (_TWO_OVER_SQRT_PI * array_module(x).exp(-(x * x))))


@register_kernel("scale")
def scale(x, scale=1.0, bias=0.0):
    return nd((x * scale + bias).astype(x.dtype, copy=False))


@register_kernel("scale_grad")
def scale_grad(out_grad, scale=1.0, bias=0.0):
    return nd((out_grad * scale).astype(out_grad.dtype, copy=False))


def _check_scalar(value: Any, op: str, arg: str, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        expected = "a number or None" if allow_none else "a number"
        raise TypeError(f"{op}: {arg} must be {expected}, got {type(value).__name__} {value!r}")


def _power(x, y):
    """x ** y. For y == 3 on float32/float64 arrays it is x * x * x, as PyTorch computes it:
    NumPy's ** has fast paths for 2, 1, 0.5, 0 and -1 only, and its general pow costs ~45 ns
    an element here against ~1 ns for the two products (d/dx sum(tanh(x) ** 3) on 1,024
    values spent a third of its time in it). The products round twice, so the result is
    within 1 ulp of pow's (`tests/test_fast_paths.py` checks it); infinities, NaN, signed
    zeros and overflow come out as pow gives them."""
    if y == 3 and x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        return x * x * x
    return x**y


@register_kernel("pow")
def pow_(x, y):
    _check_scalar(y, "pow", "y")
    out = _power(x, y)
    return nd(out.astype(x.dtype, copy=False) if x.dtype.kind == "f" else out)


def _cube(y):
    """Whether y is the Python number 3 (a NumPy number is not cast to an array's dtype as a
    Python one is): pow's grads on float64/float32 arrays are then products of x, with 3
    and 6 as 0-d constants of their dtype."""
    return (y.__class__ is int or y.__class__ is float) and y == 3


@register_kernel("pow_grad")
def pow_grad(x, out_grad, y):
    if y == 0:
        return array_module(x).zeros_like(x)
    dtype = _float_dtype(x, out_grad, out_grad) if _cube(y) else None
    if dtype is not None:  # out_grad * (3 * x ** 2), x ** 2 being NumPy's x * x
        return _MULTIPLY(out_grad, _MULTIPLY(_CONSTS[dtype][2], _MULTIPLY(x, x)))
    return nd((out_grad * _conj(y * _power(x, y - 1))).astype(out_grad.dtype, copy=False))


@register_kernel("pow_double_grad")
def pow_double_grad(x, out_grad, x_grad_grad, y, needs=None):
    """backward.yaml's composite on arrays, step for step (pow through the pow kernel, as
    the composite's op calls it; for y == 3, x ** 1 is x's own values, which the product
    takes without the copy)."""
    want_x, want_out_grad = needs or _BOTH
    dtype = _float_dtype(x, out_grad, x_grad_grad) if _cube(y) else None
    if dtype is not None:  # conj is the identity; y * (y - 1) = 6, x ** 2 is x * x
        _one, _neg_two, three, six = _CONSTS[dtype]
        return (
            _MULTIPLY(_MULTIPLY(_MULTIPLY(x_grad_grad, out_grad), six), x) if want_x else None,
            _MULTIPLY(_MULTIPLY(x_grad_grad, three), _MULTIPLY(x, x)) if want_out_grad else None,
        )
    return (
        nd(_conj(x_grad_grad * _conj(out_grad) * (y * (y - 1)) * (x if y == 3 else pow_(x, y - 2))))
        if want_x
        else None,
        nd(x_grad_grad * y * pow_(x, y - 1)) if want_out_grad else None,
    )


@register_kernel("clip")
def clip(x, min=None, max=None):  # noqa: A002 - Paddle's argument names
    _check_scalar(min, "clip", "min", allow_none=True)
    _check_scalar(max, "clip", "max", allow_none=True)
    xp = array_module(x)
    if min is None and max is None:
        return x.copy()
    return nd(xp.clip(x, min, max))


@register_into(clip)
def clip_into(out, x, min=None, max=None):  # noqa: A002
    _check_scalar(min, "clip", "min", allow_none=True)
    _check_scalar(max, "clip", "max", allow_none=True)
    if out.__class__ is not np.ndarray:  # CuPy's clip: the general path
        return False
    if min is None and max is None:
        np.copyto(out, x, casting="same_kind")
        return True
    np.clip(x, min, max, out=out, casting="same_kind")
    return True


@register_kernel("clip_grad")
def clip_grad(x, out_grad, min=None, max=None):  # noqa: A002
    if min is None and max is None:
        return out_grad
    # a NaN is not clipped: it is passed through, and so is its gradient
    if min is None:
        inside = ~(x > max)
    elif max is None:
        inside = ~(x < min)
    else:
        inside = ~((x < min) | (x > max))
    return nd(out_grad * inside)


@register_kernel("cast")
def cast(x, dtype):
    # always a copy: cast is not a view op, so its output must not share x's memory
    dtype = np.dtype(dtype)
    if x.dtype.kind == "c" and dtype.kind != "c":  # complex to real keeps the real part
        return nd(x.real.astype(dtype))
    return nd(x.astype(dtype))


@register_kernel("cast_grad")
def cast_grad(x, out_grad, dtype):
    if out_grad.dtype.kind == "c" and x.dtype.kind != "c":  # real to complex: the real part
        return nd(out_grad.real.astype(x.dtype))
    return nd(out_grad.astype(x.dtype, copy=False))
