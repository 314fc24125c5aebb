"""Custom og.autograd.Function in forward mode: a static jvp(ctx, *tangents) as PyTorch's,
ctx.save_for_forward, and a clear error when a tangent reaches a Function without one."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.autograd import forward_ad as fw


class NumpyCube(og.autograd.Function):
    """x ** 3 * k computed in NumPy (no ops: no tangent could flow without jvp)."""

    forwards = 0

    @staticmethod
    def forward(ctx, x, k):
        NumpyCube.forwards += 1
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        ctx.k = k
        return og.tensor(x.numpy() ** 3 * k)

    @staticmethod
    def jvp(ctx, x_t, k_t):
        assert k_t is None  # not a tensor: None, as PyTorch passes it
        (x,) = ctx.saved_tensors
        return 3 * ctx.k * x * x * x_t  # ops: recorded when x requires grad

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * ctx.k * x * x, None


class NoJvp(og.autograd.Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        NoJvp.calls += 1
        return og.tensor(x.numpy() * 2)

    @staticmethod
    def backward(ctx, g):
        return g * 2


def _x():
    return np.linspace(-1.2, 0.9, 5)


def test_jvp_of_a_custom_function_matches_central_differences():
    x, v = _x(), np.cos(np.arange(5.0))
    with fw.dual_level():
        out = NumpyCube.apply(fw.make_dual(og.tensor(x), og.tensor(v)), 2.0)
        primal, tangent = fw.unpack_dual(out)
    eps = 1e-6
    fd = ((x + eps * v) ** 3 * 2 - (x - eps * v) ** 3 * 2) / (2 * eps)
    np.testing.assert_allclose(primal.numpy(), x**3 * 2, rtol=1e-14)
    np.testing.assert_allclose(tangent.numpy(), fd, rtol=1e-8, atol=1e-10)
    assert fw.unpack_dual(out)[1] is None  # the level closed


def test_tensors_without_a_tangent_get_zeros_and_the_result_mixes_with_ops():
    class Mul(og.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_forward(a, b)
            return og.tensor(a.numpy() * b.numpy())

        @staticmethod
        def jvp(ctx, a_t, b_t):
            a, b = ctx.saved_tensors
            np.testing.assert_array_equal(b_t.numpy(), np.zeros(3))  # b has no tangent: zeros
            return a_t * b + a * b_t

        @staticmethod
        def backward(ctx, g):
            raise AssertionError("not reached")

    a, b, v = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.0, -1.0])
    with fw.dual_level():
        y = og.tanh(Mul.apply(fw.make_dual(og.tensor(a), og.tensor(v)), og.tensor(b)))
        tangent = fw.unpack_dual(y)[1].numpy()
    np.testing.assert_allclose(tangent, (1 - np.tanh(a * b) ** 2) * v * b, rtol=1e-14)


def test_a_tangent_reaching_a_function_without_jvp_raises_before_forward_runs():
    NoJvp.calls = 0
    with fw.dual_level():
        x = fw.make_dual(og.tensor(_x()), og.tensor(np.ones(5)))
        with pytest.raises(
            RuntimeError, match="NoJvp: a tangent .* reached this custom Function, which has no jvp"
        ):
            NoJvp.apply(x)
        assert NoJvp.calls == 0
        out = NoJvp.apply(og.tensor(_x()))  # no tangent flows in: fine, as in PyTorch
        assert fw.unpack_dual(out)[1] is None and NoJvp.calls == 1


@pytest.mark.parametrize(
    ("result", "match"),
    [
        ("two", "Bad.jvp returned 2 tangents but forward has 1 outputs"),
        ("shape", r"Bad.jvp: tangent 0 has shape \(2,\) and dtype float64; output 0 has shape \(5,\)"),
        ("array", "Bad.jvp: tangent 0 must be a Tensor or None, got ndarray"),
    ],
)
def test_a_wrong_jvp_result_is_a_clear_error(result, match):
    class Bad(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return og.tensor(x.numpy() * 2)

        @staticmethod
        def jvp(ctx, x_t):
            if result == "two":
                return x_t, x_t
            if result == "shape":
                return og.tensor(np.ones(2))
            return np.ones(5)

        @staticmethod
        def backward(ctx, g):
            return g

    with fw.dual_level():
        with pytest.raises((RuntimeError, TypeError), match=match):
            Bad.apply(fw.make_dual(og.tensor(_x()), og.tensor(np.ones(5))))


def test_an_input_returned_as_is_keeps_its_own_tangent():
    class Pass(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def jvp(ctx, x_t):
            return x_t * 3

        @staticmethod
        def backward(ctx, g):
            return g

    with fw.dual_level():
        x = fw.make_dual(og.tensor(_x()), og.tensor(np.ones(5)))
        y = Pass.apply(x)
        assert y is not x
        np.testing.assert_array_equal(fw.unpack_dual(y)[1].numpy(), np.full(5, 3.0))
        np.testing.assert_array_equal(fw.unpack_dual(x)[1].numpy(), np.ones(5))


def test_non_differentiable_outputs_get_no_tangent():
    class Split(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = og.tensor(np.argsort(x.numpy()).astype(np.float64))
            ctx.mark_non_differentiable(idx)
            return og.tensor(x.numpy() * 2), idx

        @staticmethod
        def jvp(ctx, x_t):
            return x_t * 2, x_t

        @staticmethod
        def backward(ctx, g, g_idx):
            return g * 2

    with fw.dual_level():
        out, idx = Split.apply(fw.make_dual(og.tensor(_x(), requires_grad=True), og.tensor(np.ones(5))))
        assert fw.unpack_dual(idx)[1] is None
        np.testing.assert_array_equal(fw.unpack_dual(out)[1].numpy(), np.full(5, 2.0))


def test_forward_over_reverse_through_jvp_matches_finite_differences():
    """jvp's ops are recorded like any rule's: the tangent 3 k x^2 v differentiates in x."""
    x0, v = _x(), np.sin(np.arange(5.0)) + 1.5
    x = og.tensor(x0, requires_grad=True)
    with fw.dual_level():
        tangent = fw.unpack_dual(NumpyCube.apply(fw.make_dual(x, og.tensor(v)), 2.0))[1]
        (g,) = og.grad([og.sum(tangent)], [x])
    eps = 1e-6
    fd = (3 * 2 * (x0 + eps) ** 2 * v - 3 * 2 * (x0 - eps) ** 2 * v) / (2 * eps)
    np.testing.assert_allclose(g.numpy(), fd, rtol=1e-7)
