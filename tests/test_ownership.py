"""Gradient buffers are private: a leaf's `.grad` never shares memory with another leaf's
`.grad`, with a seed the user gave, or with any tensor the user holds (a hook's argument or
result, a retained non-leaf `.grad`, a `grad()` result, a custom Function's result), and a
`.grad` the user holds is never written in place; yet a buffer the engine owns alone is
taken without a copy."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import grad_holder


def leaf(values):
    return og.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def shares(a, b) -> bool:
    return np.shares_memory(a.numpy(), b.numpy())


def test_two_leaves_of_an_add_get_separate_buffers():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (a + b).sum().backward()
    assert not shares(a.grad, b.grad)
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.numpy(), [1.0, 1.0])


@pytest.mark.parametrize("create_graph", [False, True])
def test_a_pass_through_gradient_is_not_the_seed(create_graph):
    x = leaf([1.0, 2.0])
    g = og.ones((2,), dtype="float64")
    (x + 0.0).backward(g, create_graph=create_graph)
    assert not shares(x.grad, g)
    g.zero_()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])


def test_pass_through_under_create_graph_stays_differentiable():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    ((a * a) + (b * 1.0)).sum().backward(create_graph=True)
    assert not shares(a.grad, b.grad)
    # a.grad = 2a is still in the graph: d(sum(a.grad))/da = 2.
    (ga,) = og.grad([a.grad.sum()], [a])
    np.testing.assert_allclose(ga.numpy(), [2.0, 2.0])


def test_grad_with_other_leaves_accumulating_never_aliases_the_seed_or_the_result():
    x, w = leaf([1.0, 2.0]), leaf([5.0, 6.0])
    g = og.tensor([1.0, 1.0], dtype="float64")
    y = x + w  # both get g itself through add's backward
    (gx,) = og.grad([y], [x], grad_outputs=[g], only_inputs=False)
    assert not shares(w.grad, g)
    assert not shares(w.grad, gx)
    g.zero_()
    gx.zero_()
    np.testing.assert_array_equal(w.grad.numpy(), [1.0, 1.0])


def test_a_tensor_a_hook_returned_and_the_user_keeps_is_not_the_grad():
    kept = og.tensor([7.0, 7.0], dtype="float64")
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: kept)
    (x * 3.0).sum().backward()
    assert not shares(x.grad, kept)
    kept.zero_()
    np.testing.assert_array_equal(x.grad.numpy(), [7.0, 7.0])


def test_a_gradient_a_hook_saw_and_kept_is_not_the_grad():
    seen = []
    x = leaf([1.0, 2.0])
    y = x + 0.0  # add's backward hands y's gradient to x unchanged
    y.register_hook(seen.append)  # returns None: the gradient flows on unchanged
    (y * 3.0).sum().backward()
    assert not shares(x.grad, seen[0])
    seen[0].zero_()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_a_leaf_hook_argument_the_user_kept_is_not_the_grad():
    seen = []
    x = leaf([1.0, 2.0])
    x.register_hook(seen.append)
    (x * 3.0).sum().backward()
    assert not shares(x.grad, seen[0])


def test_a_retained_non_leaf_grad_is_not_the_leaf_grad():
    x = leaf([1.0, 2.0])
    y = x + 0.0  # add's backward hands y's gradient to x unchanged
    y.retain_grads()
    (y * 3.0).sum().backward()
    assert not shares(x.grad, y.grad)
    y.grad.zero_()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_a_leaf_that_took_a_buffer_first_does_not_share_it_with_a_retained_grad():
    # The leaf x runs first (leaves run as soon as ready) and takes add's gradient; y's
    # retained gradient is the same array and must then be a copy.
    x, b = leaf([1.0, 2.0]), leaf([0.5, 0.5])
    s = x + b
    y = s * 1.0
    y.retain_grads()
    z = s + 0.0
    (z * 2.0 + y * 0.0 + s * 0.0).sum().backward()
    assert not shares(x.grad, b.grad)
    assert not shares(x.grad, y.grad)


def test_function_backward_returning_a_user_tensor_is_copied():
    kept = og.tensor([2.0, 2.0], dtype="float64")

    class Through(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            return kept

    x = leaf([1.0, 2.0])
    Through.apply(x).sum().backward()
    assert not shares(x.grad, kept)
    kept.zero_()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_concat_leaves_get_separate_buffers():
    a, b = leaf([1.0, 2.0]), leaf([3.0])
    (og.concat([a, b]) * 2.0).sum().backward()
    assert not np.may_share_memory(a.grad.numpy(), b.grad.numpy())
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.numpy(), [2.0])


def test_held_grad_is_never_written_by_later_accumulation():
    x = leaf([1.0, 2.0])
    (x * x).sum().backward()
    held = x.grad
    held_array = x.grad.numpy()
    (x * x).sum().backward()
    np.testing.assert_array_equal(held.numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(held_array, [2.0, 4.0])
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])


def test_held_grad_and_seed_are_never_written_under_create_graph_accumulation():
    x = leaf([1.0, 2.0])
    g = og.tensor([1.0, 1.0], dtype="float64")
    (x * 1.0).backward(g, create_graph=True)
    held = x.grad
    (x * x).sum().backward(create_graph=True)
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(held.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 5.0])


def test_zero_grad_keeps_a_held_grad_and_the_next_backward_writes_a_fresh_buffer():
    w = leaf([1.0, 2.0])
    opt = og.optim.SGD([w], lr=0.1)
    (w * w).sum().backward()
    held = w.grad
    opt.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(held.numpy(), [2.0, 4.0])
    (w * 3.0).sum().backward()
    np.testing.assert_array_equal(held.numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 3.0])


def test_an_exclusively_owned_buffer_is_taken_and_added_into_without_copies(monkeypatch):
    copies = []
    real = grad_holder.private_copy
    monkeypatch.setattr(grad_holder, "private_copy", lambda t: copies.append(t) or real(t))
    w1 = leaf(np.linspace(-1, 1, 6).reshape(2, 3))
    w2 = leaf(np.linspace(0, 1, 3).reshape(3, 1))
    x = og.tensor(np.ones((4, 2)))
    for _ in range(2):
        (og.tanh(x @ w1) @ w2).mean().backward()
    assert copies == []
    first = id(w1.grad._data)
    (og.tanh(x @ w1) @ w2).mean().backward()
    assert id(w1.grad._data) == first  # added in place: nobody else holds it


def test_a_hook_editing_its_gradient_in_place_does_not_reach_another_leafs_grad():
    # a and b get the same array from add's backward; a (a leaf) takes it first, then b's
    # hook scales its argument in place.
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])

    def scale_in_place(g):
        g.multiply_(10.0)

    b.register_hook(scale_in_place)
    (a + b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(b.grad.numpy(), [10.0, 10.0])


def test_a_function_backward_editing_its_gradient_in_place_does_not_reach_a_leaf():
    class Double(og.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            return g.multiply_(2.0)

    # add's backward hands one array to a's accumulator (a leaf: it runs first and takes
    # it) and to Double's backward, which edits its argument in place.
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (a + Double.apply(b)).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(b.grad.numpy(), [2.0, 2.0])


def test_grad_results_do_not_share_memory_with_an_accumulated_grad():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (ga,) = og.grad([(a + b).sum()], [a], only_inputs=False)
    assert not shares(ga, b.grad)
