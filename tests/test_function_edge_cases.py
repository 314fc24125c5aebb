"""og.autograd.Function at its edges: odd outputs, odd gradients, saved tensors after release."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.tensor import wrap


def leaf(values):
    return og.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


class IndexThenValue(og.autograd.Function):
    """(argmax index, 2 * x): the first output is marked non-differentiable."""

    received: list = []

    @staticmethod
    def forward(ctx, x):
        idx = wrap(np.asarray(np.argmax(x.numpy()), dtype=np.float64))
        ctx.mark_non_differentiable(idx)
        return idx, wrap(x.numpy() * 2)

    @staticmethod
    def backward(ctx, g_idx, g_y):
        IndexThenValue.received.append((g_idx, g_y))
        return og.multiply(g_y, og.tensor(np.full(g_y.shape, 2.0)))


def test_first_output_non_differentiable():
    x = leaf([1.0, 3.0, 2.0])
    IndexThenValue.received.clear()
    idx, y = IndexThenValue.apply(x)
    assert not idx.requires_grad and idx.grad_fn is None
    assert y.requires_grad and y.grad_fn is not None
    og.sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0, 2.0])
    ((g_idx, g_y),) = IndexThenValue.received
    assert g_idx is None or not np.any(g_idx.numpy())
    np.testing.assert_allclose(g_y.numpy(), [1.0, 1.0, 1.0])


class ValueThenIndex(og.autograd.Function):
    """(2 * x, argmax index) with the index marked non-differentiable (issue 9 item 17)."""

    @staticmethod
    def forward(ctx, x):
        idx = wrap(np.asarray(np.argmax(x.numpy()), dtype=np.float64))
        ctx.mark_non_differentiable(idx)
        return wrap(x.numpy() * 2), idx

    @staticmethod
    def backward(ctx, g_y, g_idx):
        assert g_idx is None or not np.any(g_idx.numpy())
        return og.multiply(g_y, og.tensor(np.full(g_y.shape, 2.0)))


def test_backward_gets_one_gradient_per_output_when_the_last_is_non_differentiable():
    x = leaf([1.0, 3.0])
    y, idx = ValueThenIndex.apply(x)
    assert not idx.requires_grad
    og.sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])


class IntegerOutput(og.autograd.Function):
    """An integer output is never differentiable, marked or not."""

    @staticmethod
    def forward(ctx, x):
        return wrap(x.numpy() * 3), wrap(np.argsort(x.numpy()))

    @staticmethod
    def backward(ctx, g, *rest):  # one gradient per output once item 17 is fixed
        return og.multiply(g, og.tensor(np.full(g.shape, 3.0)))


def test_integer_output_gets_no_history():
    x = leaf([2.0, 1.0])
    y, order = IntegerOutput.apply(x)
    assert not order.requires_grad and order.grad_fn is None
    og.sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


class ReturnsNone(og.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return None

    @staticmethod
    def backward(ctx, g):
        raise AssertionError("never called")


def test_function_returning_none():
    x = leaf([1.0])
    assert ReturnsNone.apply(x) is None


class ValueAndNone(og.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return wrap(x.numpy() * 4), None

    @staticmethod
    def backward(ctx, g, *rest):
        return og.multiply(g, og.tensor(np.full(g.shape, 4.0)))


def test_function_returning_a_tensor_and_none():
    x = leaf([1.0, 2.0])
    y, nothing = ValueAndNone.apply(x)
    assert nothing is None
    og.sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 4.0])


class PassThrough(og.autograd.Function):
    """Returns its first input unchanged and saves it."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, None, w)
        return x

    @staticmethod
    def backward(ctx, g):
        x, nothing, w = ctx.saved_tensors
        assert nothing is None
        return og.multiply(g, og.tensor(np.full(g.shape, 5.0))), og.multiply(g, x)


def test_function_returning_an_input_unchanged_gives_a_new_tensor_with_history():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    y = PassThrough.apply(x, w)
    assert y is not x and x.grad_fn is None and x.is_leaf
    assert y.grad_fn is not None and y.grad_fn.name == "PassThrough.backward"
    assert np.shares_memory(y.numpy(), x.numpy())
    og.sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0, 5.0])
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 2.0])


def test_an_input_returned_unchanged_keeps_counting_versions_with_the_input():
    x = og.tensor([1.0, 2.0])
    x.multiply_(og.tensor([1.0, 1.0]))  # version 1
    w = leaf([3.0, 4.0])
    y = PassThrough.apply(x, w)
    assert y is not x and y._version == x._version == 1
    loss = og.sum(y)
    x.multiply_(og.tensor([2.0, 2.0]))  # x was saved: backward must notice
    with pytest.raises(RuntimeError, match="in-place"):
        loss.backward()


class Keeper(og.autograd.Function):
    """Keeps its ctx where the test can reach it; saves its input and its output."""

    ctxs: list = []
    unpacked: list = []

    @staticmethod
    def forward(ctx, x):
        y = wrap(x.numpy() ** 2)
        ctx.save_for_backward(x, y)
        assert ctx.saved_tensors == (x, y)  # inside forward: what was given
        Keeper.ctxs.append(ctx)
        return y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        Keeper.unpacked.append((x, y, ctx._node))
        return og.multiply(g, og.multiply(og.tensor(np.full(x.shape, 2.0)), x))


def test_saved_tensors_after_release_raise_and_a_second_backward_explains():
    Keeper.ctxs.clear()
    Keeper.unpacked.clear()
    x = leaf([1.0, 2.0])
    y = Keeper.apply(x)
    ctx = Keeper.ctxs[-1]
    y.backward(og.tensor([1.0, 1.0]))
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])
    ((x_saved, y_saved, node),) = Keeper.unpacked
    assert x_saved is x
    np.testing.assert_allclose(y_saved.numpy(), [1.0, 4.0])
    assert y_saved.grad_fn is node is y.grad_fn  # the saved output is attached to its node again
    with pytest.raises(RuntimeError, match="saved_tensors: they were freed"):
        _ = ctx.saved_tensors
    with pytest.raises(RuntimeError, match=r"Keeper\.backward.*a second time.*retain_graph=True"):
        y.backward(og.tensor([1.0, 1.0]))


def test_saved_tensors_survive_with_retain_graph():
    Keeper.unpacked.clear()
    x = leaf([1.0, 2.0])
    loss = og.sum(Keeper.apply(x))
    loss.backward(retain_graph=True)
    loss.backward()
    assert len(Keeper.unpacked) == 2 and all(entry[0] is x for entry in Keeper.unpacked)
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


def test_saved_tensors_without_a_graph_are_what_was_given():
    Keeper.ctxs.clear()
    x = og.tensor([1.0, 2.0])  # no input requires grad: no node
    y = Keeper.apply(x)
    assert y.grad_fn is None
    assert Keeper.ctxs[-1].saved_tensors[0] is x


class Scaled(og.autograd.Function):
    """Non-tensor arguments around the tensor; backward may return arrays."""

    @staticmethod
    def forward(ctx, scale, x, name):
        ctx.scale = scale
        assert ctx.needs_input_grad == (False, True, False)
        return wrap(x.numpy() * scale)

    @staticmethod
    def backward(ctx, g):
        return None, g.numpy() * ctx.scale, None  # a bare array is accepted


def test_tensor_after_non_tensor_arguments_gets_its_gradient():
    x = leaf([1.0, 2.0])
    og.sum(Scaled.apply(3.0, x, "s")).backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


class BadGradient(og.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return wrap(x.numpy() * 1)

    @staticmethod
    def backward(ctx, g):
        return [1.0, 1.0]


def test_backward_returning_a_non_array_is_refused():
    x = leaf([1.0, 2.0])
    with pytest.raises(TypeError, match=r"BadGradient\.backward: gradient 0 must be a Tensor or None"):
        og.sum(BadGradient.apply(x)).backward()


def test_save_for_backward_refuses_non_tensors():
    class SavesAnInt(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x

    with pytest.raises(TypeError, match="save_for_backward: argument 1 is a int"):
        SavesAnInt.apply(leaf([1.0]))


def test_forward_must_return_tensors():
    class ReturnsAList(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return wrap(x.numpy()), [1.0]

    with pytest.raises(TypeError, match="ReturnsAList.forward must return Tensors; output 1 is a list"):
        ReturnsAList.apply(leaf([1.0]))


def test_a_function_without_forward_or_backward():
    class Empty(og.autograd.Function):
        pass

    class NoBackward(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return wrap(x.numpy() * 2)

    assert repr(Empty) == "<Function Empty>"
    with pytest.raises(NotImplementedError, match="Empty must define a static forward"):
        Empty.apply(leaf([1.0]))
    y = NoBackward.apply(leaf([1.0]))
    with pytest.raises(NotImplementedError, match="must define a static backward"):
        og.sum(y).backward()


class Mul(og.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return wrap(x.numpy() * w.numpy())

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return og.multiply(g, w), og.multiply(g, x)


def test_keyword_tensor_argument_gets_its_gradient_or_is_refused():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    try:
        y = Mul.apply(x, w=w)
    except (TypeError, ValueError, RuntimeError):
        return  # refusing is allowed
    og.sum(y).backward()
    assert w.grad is not None
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 2.0])


class SavesATemporary(og.autograd.Function):
    refs: list = []

    @staticmethod
    def forward(ctx, x):
        tmp = wrap(x.numpy() * 2)
        SavesATemporary.refs.append(weakref.ref(tmp))
        ctx.save_for_backward(tmp)
        return wrap(x.numpy() ** 2)

    @staticmethod
    def backward(ctx, g):
        (tmp,) = ctx.saved_tensors
        return og.multiply(g, tmp)


def test_backward_frees_what_forward_saved():
    SavesATemporary.refs.clear()
    x = leaf([1.0, 2.0])
    y = SavesATemporary.apply(x)
    gc.collect()
    assert SavesATemporary.refs[0]() is not None  # the graph keeps it until backward
    y.backward(og.tensor([1.0, 1.0]), retain_graph=True)
    gc.collect()
    assert SavesATemporary.refs[0]() is not None
    y.backward(og.tensor([1.0, 1.0]))
    gc.collect()
    assert SavesATemporary.refs[0]() is None
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


class Doubled(og.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return wrap(x.numpy() * 2)

    @staticmethod
    def backward(ctx, g):
        return og.multiply(g, og.tensor(np.full(g.shape, 2.0)))


class DoubledAgain(Doubled):
    """Inherits forward and backward from another Function."""


def test_a_function_inheriting_forward_from_another_function():
    x = leaf([1.0, 2.0])
    y = DoubledAgain.apply(x)
    assert y.grad_fn.name == "DoubledAgain.backward"
    og.sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])
