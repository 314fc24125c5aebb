"""What backward() and grad() accept, and what they refuse with a clear message."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def test_seed_count_must_match_the_outputs():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, x)
    with pytest.raises(ValueError, match="grad_tensors has 2 entries but there are 1 outputs"):
        og.backward([y], [og.ones((2,)), og.ones((2,))])
    with pytest.raises(ValueError, match="grad_outputs has 0 entries but there are 1 outputs"):
        og.grad([y], [x], [])
    assert x.grad is None


def test_outputs_must_be_tensors():
    x = leaf([1.0])
    with pytest.raises(
        TypeError, match="backward: tensors must be a Tensor or a list of Tensors, got ndarray"
    ):
        og.backward(np.ones(1))
    with pytest.raises(TypeError, match=r"tensors\[1\] must be a Tensor, got float"):
        og.backward([og.multiply(x, x), 1.0])
    with pytest.raises(TypeError, match=r"inputs\[0\] must be a Tensor, got str"):
        og.grad([og.multiply(x, x)], ["x"])


def test_a_single_tensor_or_a_tuple_is_accepted_everywhere():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, x)
    (gx,) = og.grad(y, x, og.tensor([1.0, 1.0]), retain_graph=True)
    np.testing.assert_allclose(gx.numpy(), [2.0, 4.0])
    (gx,) = og.grad((y,), (x,), (og.tensor([1.0, 1.0]),))
    np.testing.assert_allclose(gx.numpy(), [2.0, 4.0])


def test_several_leaves_as_outputs_of_one_backward():
    a = leaf([1.0])
    b = leaf([2.0])
    c = leaf([3.0])
    order = []
    for t, name in ((a, "a"), (b, "b"), (c, "c")):
        t.register_hook(lambda g, name=name: order.append(name))
    og.backward([a, b, c], [og.tensor([1.0]), og.tensor([2.0]), og.tensor([3.0])])
    assert order == ["a", "b", "c"]  # leaves that are ready together run in the order given
    np.testing.assert_allclose([a.grad.item(), b.grad.item(), c.grad.item()], [1.0, 2.0, 3.0])
    ga, gb = og.grad([a, b], [a, b], [og.tensor([4.0]), og.tensor([5.0])])
    np.testing.assert_allclose([ga.item(), gb.item()], [4.0, 5.0])


def test_no_grad_vars_accepts_tensors_that_need_no_gradient():
    x = leaf([1.0, 2.0])
    c = og.tensor([3.0, 4.0])  # needs no gradient: nothing to block
    y = og.multiply(x, c)
    (gx,) = og.grad([og.sum(y)], [x], no_grad_vars=[c])
    np.testing.assert_allclose(gx.numpy(), [3.0, 4.0])


def test_no_grad_vars_block_a_non_leaf_path():
    x = leaf([1.0, 2.0])
    h = og.multiply(x, og.tensor([2.0, 2.0]))
    y = og.add(og.multiply(h, h), og.multiply(x, og.tensor([5.0, 5.0])))
    (gx,) = og.grad([og.sum(y)], [x], no_grad_vars=[h])
    np.testing.assert_allclose(gx.numpy(), [5.0, 5.0])
    (gx,) = og.grad([og.sum(og.multiply(h, h))], [x], no_grad_vars=[h], allow_unused=True)
    assert gx is None


def test_grad_of_a_non_leaf_and_of_a_second_output():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = og.split(x, 2)
    y = og.add(og.multiply(a, a), og.multiply(b, og.tensor([10.0, 10.0])))
    ga, gb = og.grad([og.sum(y)], [a, b])
    np.testing.assert_allclose(ga.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(gb.numpy(), [10.0, 10.0])
    assert x.grad is None


def test_grad_of_the_same_node_output_twice_via_two_inputs_that_alias():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, x)
    z = og.multiply(y, og.tensor([3.0, 3.0]))
    gy, gx = og.grad([og.sum(z)], [y, x])
    np.testing.assert_allclose(gy.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(gx.numpy(), [6.0, 12.0])


def test_grad_with_only_inputs_false_runs_the_other_leaves_hooks_once():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    seen = []
    w.register_hook(lambda g: seen.append(g.numpy().copy()))
    x.register_hook(lambda g: og.multiply(g, og.tensor([2.0, 2.0])))
    (gx,) = og.grad([og.sum(og.multiply(x, w))], [x], only_inputs=False)
    np.testing.assert_allclose(gx.numpy(), [6.0, 8.0])  # x's hook ran for the captured gradient
    assert x.grad is None  # an input is captured, not accumulated
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 2.0])
    assert len(seen) == 1


def test_queue_callback_outside_a_backward_is_refused():
    with pytest.raises(RuntimeError, match="no backward pass is running in this thread"):
        og.autograd.queue_callback(lambda: None)


def test_callbacks_of_a_pass_run_after_it_in_queue_order():
    x = leaf([1.0])
    order = []

    def hook(g):
        og.autograd.queue_callback(lambda: order.append(("first", x.grad)))
        og.autograd.queue_callback(lambda: order.append(("second", None)))

    x.register_hook(hook)
    og.sum(og.multiply(x, x)).backward()
    assert [name for name, _ in order] == ["first", "second"]
    np.testing.assert_allclose(order[0][1].numpy(), [2.0])  # the pass had finished accumulating


def test_nodes_with_nine_and_more_inputs():
    for n in (8, 9, 10):
        xs = [leaf([float(i)]) for i in range(n)]
        y = og.concat(xs)
        og.sum(og.multiply(y, y)).backward()
        np.testing.assert_allclose([x.grad.item() for x in xs], [2.0 * i for i in range(n)])


def test_nodes_with_an_input_from_a_second_output():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = og.split(x, 2)
    y = og.multiply(b, b)  # one input, at position 1 of split's node
    assert y.grad_fn.next_edges[0] == (b.grad_fn, 1)
    z = og.multiply(b, a)  # two inputs, one at position 1
    assert [e[1] for e in z.grad_fn.next_edges] == [1, 0]
    w = og.concat([a, b, a])  # three or more inputs
    assert [e[1] for e in w.grad_fn.next_edges] == [0, 1, 0]
    og.add(og.sum(og.add(y, z)), og.sum(w)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0 + 2, 4.0 + 2, 2 * 3 + 1 + 1, 2 * 4 + 2 + 1])


def test_grad_of_an_unused_output_of_a_multi_output_node():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = og.split(x, 2)
    ga, gb = og.grad([og.sum(og.multiply(b, b))], [a, b], allow_unused=True)
    assert ga is None
    np.testing.assert_allclose(gb.numpy(), [6.0, 8.0])


def test_hooks_and_retain_grads_of_an_output_no_gradient_reached():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = og.split(x, 2)
    calls = []
    a.register_hook(lambda g: calls.append(g))
    a.retain_grads()
    og.sum(og.multiply(b, b)).backward()
    assert calls == [] and a.grad is None
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0, 6.0, 8.0])


def test_an_output_listed_twice_is_refused():
    x = leaf([1.0])
    y = og.multiply(x, x)
    with pytest.raises(ValueError, match=r"outputs\[0\] and outputs\[1\] are the same tensor"):
        og.grad([y, y], [x])
    with pytest.raises(ValueError, match=r"tensors\[0\] and tensors\[1\] are the same tensor"):
        og.backward([y, y])


def test_a_callback_queued_in_a_nested_backward_runs_when_that_backward_ends():
    x = leaf([1.0])
    w = leaf([2.0])
    events = []
    inner = og.sum(og.multiply(w, w))  # built here: hooks run with grad mode off

    def inner_hook(g):
        og.autograd.queue_callback(lambda: events.append("inner callback"))

    def outer_hook(g):
        og.autograd.queue_callback(lambda: events.append("outer callback"))
        inner.backward()  # a backward pass inside a hook
        events.append("inner backward returned")

    w.register_hook(inner_hook)
    x.register_hook(outer_hook)
    og.sum(og.multiply(x, x)).backward()
    assert events == ["inner callback", "inner backward returned", "outer callback"]
    np.testing.assert_allclose(w.grad.numpy(), [4.0])
