"""og.testing.gradcheck and gradgradcheck themselves: they accept correct gradients, catch
wrong ones (element by element and along a random direction), refuse inputs they cannot
check honestly (float32, non-contiguous), and restore the inputs they perturb."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.tensor import wrap
from opgrad.runtime.testing import GradcheckError, gradcheck, gradgradcheck


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


class WrongSquare(og.autograd.Function):
    """x**2 with the derivative off by a factor 1.5 (3x instead of 2x)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return wrap(x.numpy() ** 2)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x * 3.0


class Kink(og.autograd.Function):
    """f(a, b) = a**2 * b / (a**2 + b**2) (0 at the origin): both partial derivatives at
    the origin are 0, which backward reports, but f is not differentiable there: f is odd
    and along u it grows like f(u), so only the random-direction check can see the lie."""

    @staticmethod
    def forward(ctx, x):
        a, b = x.numpy()
        r2 = a * a + b * b
        return wrap(np.asarray(0.0 if r2 == 0 else a * a * b / r2))

    @staticmethod
    def backward(ctx, g):
        return g * og.tensor(np.zeros(2))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_low_precision_inputs_are_refused_with_advice(dtype):
    # Before: a float32 input made gradcheck fail correct gradients with a Jacobian mismatch.
    x = leaf([1.0, 2.0], dtype)
    with pytest.raises(
        ValueError, match=f"gradcheck: input 0 has dtype {dtype}; finite differences need float64"
    ):
        gradcheck(lambda a: (a * a).sum(), [x])
    with pytest.raises(ValueError, match=f"gradgradcheck: input 0 has dtype {dtype}; .*cast\\('float64'\\)"):
        gradgradcheck(lambda a: (a * a).sum(), [x])


def test_float32_inputs_that_do_not_require_grad_are_fine():
    x = leaf([1.0, 2.0])
    c = og.tensor([3.0, 4.0])  # float32 constant
    assert gradcheck(lambda a, k: (a * k.cast("float64")).sum(), [x, c])


def test_gradgradcheck_refuses_low_precision_or_non_tensor_grad_outputs():
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match="gradgradcheck: grad_outputs 0 has dtype float32"):
        gradgradcheck(lambda a: a * a, [x], grad_outputs=[og.tensor([1.0, 1.0], requires_grad=True)])
    with pytest.raises(TypeError, match="gradgradcheck: grad_outputs 0 must be a Tensor, got list"):
        gradgradcheck(lambda a: a * a, [x], grad_outputs=[[1.0, 1.0]])


def test_gradgradcheck_with_given_grad_outputs_passes_a_correct_function():
    x = leaf([0.5, -1.5])
    go = leaf([1.0, -2.0])
    assert gradgradcheck(lambda a: og.tanh(a) * a, [x], grad_outputs=[go])


def test_correct_gradients_pass_and_inputs_are_restored():
    x = leaf([[0.3, -1.2], [2.0, 0.7]])
    before = x.numpy().copy()
    assert gradcheck(lambda a: (og.sin(a) * a).sum(axis=0), [x])
    assert gradcheck(lambda a: og.exp(a), x)  # one tensor instead of a list
    np.testing.assert_array_equal(x.numpy(), before)


def test_a_wrong_gradient_is_caught_and_named():
    x = leaf([1.0, -2.0])
    with pytest.raises(
        GradcheckError, match=r"Jacobian mismatch for input 0 at element \(0,\), output 0"
    ) as info:
        gradcheck(WrongSquare.apply, [x])
    assert "analytic np.float64(3.0)" in str(info.value) and "numeric np.float64(2.0" in str(info.value)
    assert gradcheck(WrongSquare.apply, [x], raise_exception=False) is False
    np.testing.assert_array_equal(x.numpy(), [1.0, -2.0])


def test_the_random_direction_check_catches_what_elements_miss():
    x = leaf([0.0, 0.0])
    assert gradcheck(Kink.apply, [x], check_directions=False)  # every partial derivative agrees
    with pytest.raises(GradcheckError, match="random-direction product v·J·u differs"):
        gradcheck(Kink.apply, [x])
    assert gradcheck(Kink.apply, [x], raise_exception=False) is False
    np.testing.assert_array_equal(x.numpy(), [0.0, 0.0])


def test_argument_errors():
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match="gradcheck: no input requires grad"):
        gradcheck(lambda a: a * 2, [og.tensor([1.0], dtype="float64")])
    with pytest.raises(
        TypeError, match="gradcheck: fn must return a Tensor or a sequence of Tensors, got float"
    ):
        gradcheck(lambda a: 1.0, [x])
    strided = og.tensor(np.arange(6.0).reshape(2, 3)).transpose([1, 0]).detach()
    strided.requires_grad = True
    if not strided._data.flags.c_contiguous:
        with pytest.raises(ValueError, match="gradcheck: input 0 is not contiguous"):
            gradcheck(lambda a: a * 2, [strided])


def test_multiple_outputs_and_an_integer_output_are_handled():
    x = leaf([0.5, 1.5, -0.5])
    assert gradcheck(lambda a: (a * a, og.argmax(a), None), [x])
    assert gradcheck(lambda a, b: [a * b, a + b], [x, leaf([1.0, 2.0, 3.0])])
