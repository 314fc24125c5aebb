"""Hooks: node pre- and post-hooks, tensor hooks, retain_grads and saved_tensors_hooks."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import tensor_wrapper


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def test_node_prehook_sees_the_output_gradients_and_may_replace_them():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, og.tensor([3.0, 3.0]))
    seen = []

    def double(grads):
        seen.append([g.numpy().copy() for g in grads])
        return [og.multiply(grads[0], og.tensor([2.0, 2.0]))]

    y.grad_fn.register_prehook(double)
    y.backward(og.tensor([1.0, 10.0]))
    np.testing.assert_allclose(seen[0][0], [1.0, 10.0])
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 60.0])


def test_node_prehook_returning_none_keeps_the_gradients():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, x)
    calls = []
    y.grad_fn.register_prehook(lambda grads: calls.append(len(grads)))
    og.sum(y).backward()
    assert calls == [1]
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])


def test_node_posthook_sees_inputs_and_outputs_gradients_and_may_replace_them():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    y = og.multiply(x, w)
    seen = {}

    def post(grad_inputs, grad_outputs):
        seen["in"] = [g.numpy().copy() for g in grad_inputs]
        seen["out"] = [g.numpy().copy() for g in grad_outputs]
        return (grad_inputs[0], og.zeros((2,), dtype="float64"))

    y.grad_fn.register_hook(post)
    y.backward(og.tensor([1.0, 1.0]))
    np.testing.assert_allclose(seen["in"][0], [3.0, 4.0])
    np.testing.assert_allclose(seen["in"][1], [1.0, 2.0])
    np.testing.assert_allclose(seen["out"][0], [1.0, 1.0])
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 4.0])
    np.testing.assert_allclose(w.grad.numpy(), [0.0, 0.0])


@pytest.mark.parametrize("kind", ["register_prehook", "register_hook"])
def test_removing_a_node_hook_through_its_handle(kind):
    x = leaf([1.0, 2.0])
    y = og.multiply(x, x)
    calls = []

    def hook(*args):
        calls.append(1)
        return [og.zeros((2,), dtype="float64")] * len(args[0])

    handle = getattr(y.grad_fn, kind)(hook)
    handle.remove()
    handle.remove()  # idempotent
    og.sum(y).backward(retain_graph=True)
    assert calls == []
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])
    with getattr(y.grad_fn, kind)(hook):  # the handle as a context manager removes on exit
        pass
    og.sum(y).backward()
    assert calls == []
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


def test_removing_one_node_hook_leaves_the_others():
    x = leaf([1.0])
    y = og.multiply(x, x)
    calls = []
    first = y.grad_fn.register_prehook(lambda g: calls.append("first"))
    y.grad_fn.register_prehook(lambda g: calls.append("second"))
    first.remove()
    og.sum(y).backward()
    assert calls == ["second"]


def test_tensor_hooks_on_a_non_leaf_run_in_order_each_seeing_the_last_replacement():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, og.tensor([1.0, 1.0]))
    seen = []

    def plus_one(g):
        seen.append(g.numpy().copy())
        return og.add(g, og.ones((2,), dtype="float64"))

    y.register_hook(plus_one)
    y.register_hook(plus_one)
    y.backward(og.tensor([1.0, 1.0]))
    np.testing.assert_allclose(seen[0], [1.0, 1.0])
    np.testing.assert_allclose(seen[1], [2.0, 2.0])
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


def test_hook_on_one_output_of_a_multi_output_node_sees_only_that_output():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = og.split(x, 2)
    seen = []
    b.register_hook(lambda g: seen.append(g.numpy().copy()))
    og.sum(og.multiply(b, og.tensor([5.0, 6.0]))).backward()
    assert len(seen) == 1
    np.testing.assert_allclose(seen[0], [5.0, 6.0])
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0, 5.0, 6.0])


@pytest.mark.parametrize("on_leaf", [True, False], ids=["leaf", "non-leaf"])
def test_hook_returning_a_bad_value_is_refused(on_leaf):
    x = leaf([1.0, 2.0])
    t = x if on_leaf else og.multiply(x, x)
    handle = t.register_hook(lambda g: g.numpy())
    with pytest.raises(TypeError, match="must return a Tensor or None"):
        og.sum(og.multiply(t, t)).backward()
    handle.remove()
    t.register_hook(lambda g: og.zeros((3,), dtype="float64"))
    with pytest.raises(ValueError, match=r"shape \(3,\).*shape \(2,\)"):
        og.sum(og.multiply(t, t)).backward()


def test_leaf_hooks_run_for_grad_as_for_backward():
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: og.multiply(g, og.tensor([10.0, 10.0])))
    (gx,) = og.grad(og.sum(og.multiply(x, x)), [x])
    np.testing.assert_allclose(gx.numpy(), [20.0, 40.0])
    assert x.grad is None


def test_retained_grad_accumulates_over_backward_calls():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, og.tensor([3.0, 3.0]))
    y.retain_grads()
    y.retain_grads()  # a second call changes nothing
    z = og.sum(og.multiply(y, y))
    z.backward(retain_graph=True)
    first = y.grad
    np.testing.assert_allclose(first.numpy(), [6.0, 12.0])
    z.backward()
    np.testing.assert_allclose(y.grad.numpy(), [12.0, 24.0])
    np.testing.assert_allclose(first.numpy(), [6.0, 12.0])


def test_retain_grads_on_a_leaf_or_a_constant():
    x = leaf([1.0])
    x.retain_grads()  # a leaf keeps its gradient anyway: nothing to register
    og.sum(og.multiply(x, x)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0])
    with pytest.raises(RuntimeError, match="does not require grad"):
        og.tensor([1.0]).retain_grads()


def test_retain_grads_of_a_second_output_only():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = og.split(x, 2)
    b.retain_grads()
    og.sum(og.multiply(b, b)).backward()
    np.testing.assert_allclose(b.grad.numpy(), [6.0, 8.0])
    with pytest.warns(UserWarning, match="retain_grads"):
        assert a.grad is None


class Recorder:
    """pack/unpack hooks that log what they see under a name."""

    def __init__(self, name, log, scale=1.0):
        self.name, self.log, self.scale = name, log, scale

    def pack(self, t):
        self.log.append((self.name, "pack", t.numpy().copy()))
        return (self.name, t)

    def unpack(self, packed):
        name, t = packed
        assert name == self.name
        self.log.append((self.name, "unpack", t.numpy().copy()))
        return og.multiply(t, og.tensor(np.full(t.shape, self.scale)))

    def hooks(self):
        return og.autograd.saved_tensors_hooks(self.pack, self.unpack)


def test_saved_tensors_hooks_pack_and_unpack_saved_inputs():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    log = []
    with Recorder("r", log, scale=2.0).hooks():
        y = og.multiply(x, w)  # saves both inputs
    packed = sorted(tuple(entry[2]) for entry in log if entry[1] == "pack")
    assert packed == [(1.0, 2.0), (3.0, 4.0)]
    og.sum(y).backward()
    assert sum(1 for entry in log if entry[1] == "unpack") == 2
    # What unpack returns is what backward uses: both saved inputs came back doubled.
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 8.0])
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0])


def test_saved_input_under_hooks_is_still_version_checked():
    base = leaf([1.0, 2.0])
    x = og.multiply(base, og.tensor([1.0, 1.0]))
    log = []
    with Recorder("r", log).hooks():
        y = og.multiply(x, x)
    x.multiply_(og.tensor([2.0, 2.0]))
    with pytest.raises(RuntimeError, match="saved at version 0 and is now at version 1"):
        og.sum(y).backward()


def test_saved_output_under_hooks_is_attached_to_its_node_for_double_backward():
    x = leaf([0.5, 1.0])
    log = []
    with Recorder("r", log).hooks():
        y = og.exp(x)  # saves its output
    (gx,) = og.grad(og.sum(y), [x], create_graph=True)
    np.testing.assert_allclose(gx.numpy(), np.exp([0.5, 1.0]))
    (ggx,) = og.grad(og.sum(gx), [x])
    np.testing.assert_allclose(ggx.numpy(), np.exp([0.5, 1.0]))
    # The packed output was detached: the packed form does not keep the graph alive.
    packed = [entry for entry in log if entry[1] == "pack"]
    assert len(packed) == 1


def test_unpack_hook_must_return_a_tensor():
    x = leaf([1.0, 2.0])
    with og.autograd.saved_tensors_hooks(lambda t: t, lambda p: p.numpy()):
        y = og.multiply(x, x)
    with pytest.raises(TypeError, match="unpack_hook must return a Tensor, got ndarray"):
        og.sum(y).backward()


def test_saved_tensors_hooks_must_be_callable():
    with pytest.raises(TypeError, match="must be callable"):
        og.autograd.saved_tensors_hooks(lambda t: t, None)
    with pytest.raises(TypeError, match="must be callable"):
        og.autograd.saved_tensors_hooks(None, lambda t: t)


def test_nested_hook_contexts_the_inner_one_wins_and_the_outer_one_returns():
    x = leaf([1.0, 2.0])
    log = []
    with Recorder("outer", log).hooks():
        with Recorder("inner", log).hooks():
            y = og.multiply(x, x)
        z = og.exp(x)
    names = [(entry[0], entry[1]) for entry in log]
    assert names == [("inner", "pack"), ("inner", "pack"), ("outer", "pack")]
    og.sum(og.add(y, z)).backward()
    unpacked = [entry[0] for entry in log if entry[1] == "unpack"]
    assert sorted(unpacked) == ["inner", "inner", "outer"]
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.array([1.0, 2.0]) + np.exp([1.0, 2.0]))


def test_no_hooks_once_every_context_has_closed():
    x = leaf([1.0])
    log = []
    before = tensor_wrapper._ACTIVE_HOOKS
    with Recorder("r", log).hooks():
        assert tensor_wrapper._ACTIVE_HOOKS == before + 1
    assert tensor_wrapper._ACTIVE_HOOKS == before
    y = og.multiply(x, x)
    assert type(y.grad_fn.x) is og.Tensor  # saved as is, not packed
    og.sum(y).backward()
    assert log == []


def test_hooks_active_in_another_thread_do_not_apply_here():
    entered, release = threading.Event(), threading.Event()
    log = []

    def other():
        with Recorder("other", log).hooks():
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        assert entered.wait(10)
        x = leaf([1.0, 2.0])
        y = og.multiply(x, x)
        e = og.exp(x)
        og.sum(og.add(y, e)).backward()
    finally:
        release.set()
        thread.join()
    assert log == []
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0] + np.exp([1.0, 2.0]))


def test_hooks_entered_in_a_thread_apply_in_that_thread():
    log = []
    result = {}

    def worker():
        x = leaf([1.0, 2.0])
        with Recorder("mine", log, scale=0.0).hooks():
            y = og.multiply(x, x)
        og.sum(y).backward()
        result["grad"] = x.grad.numpy()

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert [entry[1] for entry in log] == ["pack", "pack", "unpack", "unpack"]
    np.testing.assert_allclose(result["grad"], [0.0, 0.0])


def test_hooked_saved_input_keeps_its_history_for_double_backward():
    x = leaf([1.0, 2.0])
    with og.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = og.multiply(og.multiply(x, x), x)
    (gx,) = og.grad([og.sum(y)], [x], create_graph=True)
    np.testing.assert_allclose(gx.numpy(), [3.0, 12.0])
    (ggx,) = og.grad([og.sum(gx)], [x])
    np.testing.assert_allclose(ggx.numpy(), [6.0, 12.0])


def test_unpacking_a_saved_output_does_not_change_the_packed_tensor():
    x = leaf([0.5, 1.0])
    packed = []

    def pack(t):
        packed.append(t)
        return t

    with og.autograd.saved_tensors_hooks(pack, lambda t: t):
        y = og.exp(x)  # saves its output, packed detached
    og.sum(y).backward()
    (out,) = packed
    assert out.grad_fn is None and not out.requires_grad
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.5, 1.0]))
