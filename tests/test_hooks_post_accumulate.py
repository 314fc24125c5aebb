"""Tensor.register_post_accumulate_grad_hook: runs after the sum into a leaf's .grad."""

import numpy as np
import pytest

import opgrad as og


def test_hook_sees_the_accumulated_grad_each_pass():
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.numpy().copy()))
    (x * 3.0).sum().backward()
    (x * 2.0).sum().backward()  # accumulates: the hook sees 3 + 2
    np.testing.assert_array_equal(seen[0], [3.0, 3.0])
    np.testing.assert_array_equal(seen[1], [5.0, 5.0])


def test_hook_runs_once_per_pass_for_a_leaf_used_twice_after_the_tensor_hooks():
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
    order = []
    x.register_hook(lambda g: order.append(("pre", g.numpy().tolist())))
    x.register_post_accumulate_grad_hook(lambda t: order.append(("post", t.grad.numpy().tolist())))
    (x * x + x).sum().backward()
    assert order == [("pre", [3.0, 5.0]), ("post", [3.0, 5.0])]


def test_hook_may_edit_grad_in_place_and_can_be_removed():
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)

    def halve(t):
        t.grad._data *= 0.5

    handle = x.register_post_accumulate_grad_hook(halve)
    (x * 4.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
    handle.remove()
    x.grad = None
    (x * 4.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 4.0])


def test_hook_does_not_run_for_grad_which_does_not_accumulate():
    x = og.tensor(np.array([1.0]), requires_grad=True)
    calls = []
    x.register_post_accumulate_grad_hook(calls.append)
    (g,) = og.grad((x * 2.0).sum(), [x])
    assert calls == [] and x.grad is None
    np.testing.assert_array_equal(g.numpy(), [2.0])


def test_hook_can_queue_a_callback_that_runs_when_the_pass_ends():
    x = og.tensor(np.array([1.0]), requires_grad=True)
    y = og.tensor(np.array([1.0]), requires_grad=True)
    events = []

    def hook(t):
        events.append("hook")
        og.autograd.queue_callback(lambda: events.append("end"))

    x.register_post_accumulate_grad_hook(hook)
    y.register_post_accumulate_grad_hook(lambda t: events.append("y"))
    (x * y).sum().backward()
    assert sorted(events[:2]) == ["hook", "y"] and events[2:] == ["end"]


def test_bad_registrations_and_results_are_clear_errors():
    x = og.tensor(np.array([1.0]), requires_grad=True)
    with pytest.raises(TypeError, match="must be callable"):
        x.register_post_accumulate_grad_hook(3)
    with pytest.raises(RuntimeError, match="only a leaf"):
        (x * 2.0).register_post_accumulate_grad_hook(lambda t: None)
    with pytest.raises(RuntimeError, match="does not require grad"):
        og.tensor(np.array([1.0])).register_post_accumulate_grad_hook(lambda t: None)
    x.register_post_accumulate_grad_hook(lambda t: t)
    with pytest.raises(RuntimeError, match="must return None"):
        (x * 2.0).sum().backward()
