"""og.autograd.Function: custom forward/backward, saved tensors, needs_input_grad."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from handmade_ops import mul, total
from opgrad.runtime.inplace import write_inplace
from opgrad.runtime.tensor import wrap


class Cube(og.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return wrap(x.numpy() ** 3 * scale)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        three = og.tensor(np.asarray(3.0 * ctx.scale, dtype=x.dtype))
        return mul(grad, mul(three, mul(x, x))), None  # opgrad ops: recorded under create_graph


def leaf(values):
    return og.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def test_custom_function_forward_and_backward():
    x = leaf([1.0, 2.0])
    y = Cube.apply(x, 2.0)
    np.testing.assert_allclose(y.numpy(), [2.0, 16.0])
    assert y.grad_fn is not None and "Cube" in y.grad_fn.name
    total(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 24.0])


def test_custom_function_gradcheck_and_create_graph():
    x = leaf([0.5, -1.5])
    og.testing.gradcheck(lambda t: Cube.apply(t, 1.0), [x])
    (gx,) = og.grad([total(Cube.apply(x, 1.0))], [x], create_graph=True)
    (ggx,) = og.grad([total(gx)], [x])
    np.testing.assert_allclose(ggx.numpy(), 6 * np.array([0.5, -1.5]))


def test_needs_input_grad_and_no_graph_without_grad():
    seen = {}

    class Probe(og.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            seen["needs"] = ctx.needs_input_grad
            return wrap(a.numpy() + b.numpy())

        @staticmethod
        def backward(ctx, g):
            return g, g

    a, b = leaf([1.0]), og.tensor(np.array([2.0]))
    out = Probe.apply(a, b)
    assert seen["needs"] == (True, False)
    assert out.requires_grad
    with og.no_grad():
        assert not Probe.apply(a, b).requires_grad


def test_mark_non_differentiable_output():
    class ArgSort(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = wrap(np.argsort(x.numpy()).astype(np.float64))
            ctx.mark_non_differentiable(idx)
            return wrap(np.sort(x.numpy())), idx

        @staticmethod
        def backward(ctx, g_values, g_idx):
            assert g_idx is None
            return g_values

    x = leaf([3.0, 1.0, 2.0])
    values, idx = ArgSort.apply(x)
    assert values.requires_grad and not idx.requires_grad


def test_saved_tensor_version_check_applies():
    x = leaf([1.0, 2.0])
    y = Cube.apply(x, 1.0)
    write_inplace("test", x, np.array([5.0, 2.0]))  # what every in-place op does
    with pytest.raises(RuntimeError, match=r"modified by an in-place operation.*version 0.*version 1"):
        total(y).backward()


def test_saved_output_does_not_form_a_cycle_and_saved_hooks_apply():
    import gc
    import weakref

    class Exp(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = wrap(np.exp(x.numpy()))
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, g):
            (out,) = ctx.saved_tensors
            return mul(g, out)

    packed = []
    x = leaf([0.0, 1.0])
    gc.disable()
    try:
        with og.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
            y = Exp.apply(x)
        ref = weakref.ref(y.grad_fn)
        total(y).backward()
        np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]))
        assert len(packed) == 1
        del y
        packed.clear()
        assert ref() is None
    finally:
        gc.enable()


def test_wrong_number_of_gradients_is_explained():
    class Bad(og.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return wrap(x.numpy() * 2)

        @staticmethod
        def backward(ctx, g):
            return g

    x = leaf([1.0])
    with pytest.raises(RuntimeError, match=r"Bad.backward returned 1 gradients but forward took 2 arguments"):
        total(Bad.apply(x, 3)).backward()


def test_second_backward_without_retain_graph():
    x = leaf([1.0])
    y = total(Cube.apply(x, 1.0))
    y.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()


def test_a_tensor_passed_by_keyword_gets_its_gradient():
    class Mul(og.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, scale=1.0):
            ctx.save_for_backward(x, w)
            ctx.scale = scale
            return x * w * scale

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            return g * w * ctx.scale, g * x * ctx.scale, None

    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    w = og.tensor([3.0, 4.0], dtype="float64", requires_grad=True)
    Mul.apply(x, w=w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 4.0])
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 2.0])
    xs = [og.tensor(v.numpy(), requires_grad=True) for v in (x, w)]
    assert og.testing.gradcheck(lambda a, b: Mul.apply(a, scale=2.0, w=b), xs)


def test_a_keyword_only_tensor_argument_is_refused():
    class KwOnly(og.autograd.Function):
        @staticmethod
        def forward(ctx, x, *, w):
            return x * w

        @staticmethod
        def backward(ctx, g):
            return g

    x = og.tensor([1.0], requires_grad=True)
    w = og.tensor([2.0], requires_grad=True)
    with pytest.raises(TypeError, match="KwOnly.apply.*'w'.*no gradient"):
        KwOnly.apply(x, w=w)
    out = KwOnly.apply(x, w=2.0)  # a non-tensor keyword-only argument is fine
    np.testing.assert_allclose(out.numpy(), [2.0])
    with pytest.raises(TypeError, match="KwOnly.apply"):
        KwOnly.apply(x, v=w)


def test_backward_gets_one_gradient_per_output_non_differentiable_ones_as_zeros():
    got = []

    class WithIndex(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = og.tensor([int(np.argmax(x.numpy()))])
            ctx.mark_non_differentiable(idx)
            return x * 2.0, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            got.append(g_idx)
            return g * 2.0

    x = og.tensor([1.0, 3.0, 2.0], dtype="float64", requires_grad=True)
    y, idx = WithIndex.apply(x)
    assert not idx.requires_grad
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0, 2.0])
    assert got[0].dtype == np.int64 and got[0].shape == (1,)
    np.testing.assert_array_equal(got[0].numpy(), [0])


def test_unused_outputs_get_zeros_or_none_with_materialize_grads_off():
    got = []

    class Two(og.autograd.Function):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx, g1, g2):
            got.append((g1, g2))
            return g1 * 2.0, None

    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    a, _ = Two.apply(x, True)
    a.sum().backward()
    np.testing.assert_array_equal(got[-1][1].numpy(), [0.0, 0.0])
    a, _ = Two.apply(x, False)
    a.sum().backward()
    assert got[-1][1] is None


def test_backward_may_return_trailing_nones_for_parameters_left_at_their_default():
    class Scale(og.autograd.Function):
        @staticmethod
        def forward(ctx, x, factor=1.0):
            ctx.factor = factor
            return x * factor

        @staticmethod
        def backward(ctx, g):
            return g * ctx.factor, None

    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    Scale.apply(x).sum().backward()  # forward took 1 argument; the extra None is dropped
    Scale.apply(x, factor=2.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])
