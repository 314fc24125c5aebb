"""The backward engine: accumulation, grad(), retain_graph, hooks, scale and threads."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import opgrad as og
from handmade_ops import CALLS, add, bad, mul, split2, tanh, total


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def test_leaf_gradient_accumulates_over_two_backward_calls():
    x = leaf([1.0, 2.0, 3.0])
    total(mul(x, x)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])
    total(mul(x, x)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0, 12.0])


def test_first_gradient_is_not_mutated_by_later_accumulation():
    x = leaf([1.0, 2.0])
    seed = og.tensor(np.array([1.0, 1.0]))
    add(x, x).backward(seed)  # both edges deliver the seed itself
    first = x.grad
    snapshot = first.numpy().copy()
    add(x, x).backward(seed)
    np.testing.assert_allclose(seed.numpy(), [1.0, 1.0])
    np.testing.assert_allclose(first.numpy(), snapshot)
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 4.0])


def test_non_leaf_grad_only_after_retain_grads():
    x = leaf([1.0, 2.0])
    y = mul(x, x)
    z = mul(x, x)
    z.retain_grads()
    total(add(y, z)).backward()
    with pytest.warns(UserWarning, match="retain_grads"):
        assert y.grad is None
    np.testing.assert_allclose(z.grad.numpy(), [1.0, 1.0])
    assert z.grad_fn is not None and not z.is_leaf


def test_diamond_graph_sums_both_paths():
    x = leaf([0.5, -1.0])
    a = tanh(x)
    b = mul(a, x)
    c = add(a, b)  # a feeds c directly and through b
    total(c).backward()
    t = np.tanh([0.5, -1.0])
    dt = 1 - t**2
    expected = dt + (dt * np.array([0.5, -1.0]) + t)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12)


def test_tensor_used_twice_by_one_node():
    x = leaf([3.0])
    mul(x, x).backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0])


def test_implicit_seed_is_ones_of_the_output_shape():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    y = mul(x, x)  # non-scalar output
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.numpy())


def test_explicit_seed_shape_is_checked():
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match=r"grad_tensors\[0\] has shape \(3,\) but output 0 has shape \(2,\)"):
        mul(x, x).backward(og.tensor(np.ones(3)))


def test_backward_on_a_leaf_accumulates_the_seed():
    x = leaf([1.0, 2.0])
    x.backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 1.0])


# -- grad() -------------------------------------------------------------------------------


def test_grad_leaf_and_non_leaf_inputs_leave_dot_grad_untouched():
    x = leaf([1.0, 2.0])
    h = mul(x, x)
    y = total(tanh(h))
    gx, gh = og.grad([y], [x, h])
    dh = 1 - np.tanh([1.0, 4.0]) ** 2
    np.testing.assert_allclose(gh.numpy(), dh)
    np.testing.assert_allclose(gx.numpy(), dh * 2 * np.array([1.0, 2.0]))
    assert x.grad is None


def test_grad_outputs_weight_the_outputs():
    x = leaf([1.0, 2.0])
    y = mul(x, x)
    (gx,) = og.grad([y], [x], grad_outputs=[og.tensor(np.array([10.0, 100.0]))])
    np.testing.assert_allclose(gx.numpy(), [20.0, 400.0])


def test_grad_allow_unused():
    x, unused = leaf([1.0]), leaf([5.0])
    y = mul(x, x)
    with pytest.raises(RuntimeError, match=r"inputs\[1\].*allow_unused=True"):
        og.grad([y], [x, unused], retain_graph=True)
    gx, gu = og.grad([y], [x, unused], allow_unused=True)
    assert gu is None
    np.testing.assert_allclose(gx.numpy(), [2.0])


def test_grad_no_grad_vars_are_constants():
    x = leaf([2.0])
    h = mul(x, x)  # 4
    y = mul(h, x)  # x^3, but h held constant: d/dx = h = 4
    (gx,) = og.grad([y], [x], no_grad_vars=[h])
    np.testing.assert_allclose(gx.numpy(), [4.0])


def test_grad_runs_only_nodes_between_outputs_and_inputs():
    x = leaf([1.0, 2.0])
    side = leaf([3.0, 4.0])
    h = tanh(x)
    branch = mul(side, side)  # not on a path from y to h
    y = total(add(mul(h, h), branch))
    CALLS.clear()
    (gh,) = og.grad([y], [h])
    np.testing.assert_allclose(gh.numpy(), 2 * np.tanh([1.0, 2.0]))
    assert CALLS["tanh_grad"] == 0  # below the input: never run
    assert CALLS["mul_grad"] == 1  # only mul(h, h); the side branch is skipped
    assert side.grad is None


def test_grad_only_inputs_false_also_accumulates_other_leaves():
    x, w = leaf([1.0]), leaf([3.0])
    y = mul(x, w)
    (gx,) = og.grad([y], [x], only_inputs=False)
    np.testing.assert_allclose(gx.numpy(), [3.0])
    np.testing.assert_allclose(w.grad.numpy(), [1.0])
    assert x.grad is None


def test_grad_create_graph_results_carry_history_second_derivative():
    x = leaf([0.3, -0.7])
    y = total(tanh(x))
    (gx,) = og.grad([y], [x], create_graph=True)
    assert gx.requires_grad and gx.grad_fn is not None
    (ggx,) = og.grad([total(gx)], [x])
    t = np.tanh([0.3, -0.7])
    np.testing.assert_allclose(ggx.numpy(), -2 * t * (1 - t**2), rtol=1e-12)


def test_grad_rejects_input_that_does_not_require_grad():
    x = leaf([1.0])
    c = og.tensor(np.array([1.0]))
    with pytest.raises(RuntimeError, match=r"inputs\[1\] does not require grad.*requires_grad=True"):
        og.grad([mul(x, x)], [x, c])


def test_grad_rejects_a_tensor_listed_twice():
    x = leaf([1.0])
    with pytest.raises(ValueError, match=r"inputs\[0\] and inputs\[1\] are the same tensor"):
        og.grad([mul(x, x)], [x, x])
    y = mul(x, x)
    with pytest.raises(ValueError, match=r"tensors\[0\] and tensors\[1\] are the same tensor"):
        og.backward([y, y])


def test_backward_on_tensor_without_grad_says_what_to_do():
    c = og.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="requires_grad=True"):
        c.backward()


def test_multi_output_node_fills_zeros_for_unused_output():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, _b = split2(x)
    total(mul(a, a)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 0.0, 0.0])


# -- retain_graph -------------------------------------------------------------------------


def test_second_backward_without_retain_graph_says_to_pass_it():
    x = leaf([0.5])
    y = total(tanh(x))
    y.backward()
    with pytest.raises(RuntimeError, match=r"second time.*retain_graph=True"):
        y.backward()


def test_second_backward_with_retain_graph_matches():
    x = leaf([0.5, 1.5])
    y = total(tanh(x))
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first)


# -- checks on what nodes return ------------------------------------------------------------


def test_wrong_gradient_shape_names_node_and_input():
    x = leaf([1.0, 2.0])
    with pytest.raises(
        RuntimeError, match=r"BadNode \(bad_grad\).*input 0.*shape \(7,\).*expected shape \(2,\)"
    ):
        total(bad(x)).backward()


# -- hooks ---------------------------------------------------------------------------------


def test_tensor_hook_replaces_gradient_and_can_be_removed():
    x = leaf([1.0, 2.0])
    h = mul(x, x)
    handle = h.register_hook(lambda g: mul(g, og.tensor(np.array([10.0, 10.0]))))
    total(h).backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 40.0])
    handle.remove()
    x.grad = None
    total(h).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])


def test_hook_returning_none_keeps_gradient_and_hooks_run_in_order():
    x = leaf([1.0])
    seen = []
    x.register_hook(lambda g: seen.append(("first", g.item())))
    x.register_hook(lambda g: mul(g, og.tensor(np.array([3.0]))))
    x.register_hook(lambda g: seen.append(("third", g.item())))
    mul(x, x).backward()
    assert seen == [("first", 2.0), ("third", 6.0)]
    np.testing.assert_allclose(x.grad.numpy(), [6.0])


def test_leaf_hook_sees_incoming_gradient_before_accumulation():
    x = leaf([1.0])
    x.grad = og.tensor(np.array([100.0]))
    seen = []
    x.register_hook(lambda g: seen.append((g.item(), x.grad.item())))
    mul(x, x).backward()
    assert seen == [(2.0, 100.0)]
    np.testing.assert_allclose(x.grad.numpy(), [102.0])


def test_exception_in_hook_propagates_and_fresh_graph_works():
    x = leaf([1.0])

    def boom(g):
        raise KeyError("from the hook")

    handle = x.register_hook(boom)
    with pytest.raises(KeyError, match="from the hook"):
        mul(x, x).backward()
    handle.remove()
    assert og.is_grad_enabled()
    mul(x, x).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0])


def test_register_hook_on_tensor_without_grad_raises():
    with pytest.raises(RuntimeError, match="does not require grad"):
        og.tensor([1.0]).register_hook(lambda g: g)


def test_node_pre_and_post_hooks():
    x = leaf([2.0])
    y = tanh(x)
    calls = []
    y.grad_fn.register_prehook(lambda grads: calls.append("pre"))
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: calls.append("post"))
    y.backward()
    assert calls == ["pre", "post"]


def test_queue_callback_runs_once_at_the_end():
    x = leaf([1.0])
    order = []

    def hook(g):
        og.autograd.queue_callback(lambda: order.append(("callback", x.grad is not None)))
        order.append("hook")

    y = mul(x, x)
    y.register_hook(hook)
    y.backward()
    assert order == ["hook", ("callback", True)]
    with pytest.raises(RuntimeError, match="no backward pass is running"):
        og.autograd.queue_callback(lambda: None)


# -- scale and threads -----------------------------------------------------------------------


def test_million_node_chain_backward_and_delete():
    x = leaf([1.0])
    one = og.tensor(np.array([1.0]))
    y = x
    for _ in range(1_000_000):
        y = add(y, one)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0])
    del y  # frees a million nodes without recursing


def test_threads_run_independent_backward_passes():
    results = {}
    errors = []

    def work(k):
        try:
            x = leaf([float(k), float(k + 1)])
            for _ in range(200):
                y = total(tanh(mul(x, x)))
                (g,) = og.grad([y], [x])
            results[k] = (x.numpy().copy(), g.numpy())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(4):
        xv, g = results[k]
        np.testing.assert_allclose(g, (1 - np.tanh(xv**2) ** 2) * 2 * xv, rtol=1e-12)


def test_concurrent_backward_into_one_leaf_loses_no_update():
    x = leaf([1.0])

    def work():
        for _ in range(300):
            mul(x, og.tensor(np.array([1.0]))).backward()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    np.testing.assert_allclose(x.grad.numpy(), [1200.0])


def test_no_grad_in_one_thread_does_not_affect_another():
    inside = threading.Event()
    release = threading.Event()
    seen = {}

    def other():
        inside.wait()
        x = leaf([1.0])
        seen["other"] = (og.is_grad_enabled(), mul(x, x).requires_grad)
        release.set()

    t = threading.Thread(target=other)
    t.start()
    with og.no_grad():
        inside.set()
        release.wait(10)
        x = leaf([1.0])
        seen["main"] = (og.is_grad_enabled(), mul(x, x).requires_grad)
    t.join()
    assert seen == {"main": (False, False), "other": (True, True)}


def test_edges_carry_output_positions_and_metadata():
    x = og.tensor(np.array([0.1, 0.2, 0.3, 0.4]), requires_grad=True)
    a, b = split2(x)
    node = a.grad_fn
    assert b.grad_fn is node and node.n_positions == 2
    assert node.output_meta == (((2,), np.dtype(np.float64), np.ndarray),) * 2
    assert node.output_meta_at(1) == ((2,), np.dtype(np.float64), np.ndarray)
    hand = tanh(b)  # a node built by GradNode.__init__
    made = og.tanh(b)  # a generated op's node (new_node)
    for y in (hand, made):
        assert y.grad_fn.next_edges == ((node, 1),)
        assert y.grad_fn.input_meta[0].shape == (2,)
    three = og.where(og.tensor(np.array([True, False])), a, made)  # three inputs, one without grad
    acc = node.next_edges[0][0]
    assert three.grad_fn.next_edges == (None, (node, 0), (made.grad_fn, 0))
    assert node.next_edges == ((acc, 0),) and acc.variable is x
    total(three).backward()
    t = np.tanh([0.3, 0.4])
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 0.0, 0.0, 1 - t[1] ** 2])


def test_node_edges_are_the_next_edges_as_parallel_tuples():
    leaf = og.ones([3], requires_grad=True)
    mid = leaf * 2
    const = og.ones([3])
    node = (mid + const).grad_fn
    children, positions = node.edges()
    assert children == (mid.grad_fn, None) and positions == (0, 0)
    assert node.next_edges == ((mid.grad_fn, 0), None)
    first = mid.grad_fn.edges()[0][0]
    assert first.name == "accumulate_grad" and first.variable is leaf


@pytest.mark.parametrize("how", ["backward", "grad"])  # engine_loop's two loops
def test_gradients_already_summed_are_freed_before_the_next_node_runs(how, monkeypatch):
    """A node's incoming gradients, and the gradients it delivered that were summed into a
    new buffer, must not outlive its turn: when the next node starts, they are gone (the
    engine's loop variables held one of them for a whole extra node before)."""
    import weakref

    alive = {}

    class Pair(og.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            ga, gb = og.tensor(g.numpy() * 2.0), og.tensor(g.numpy() * 3.0)
            alive["incoming"] = weakref.ref(g.numpy())
            alive["a"], alive["b"] = weakref.ref(ga.numpy()), weakref.ref(gb.numpy())
            return ga, gb

    from opgrad.runtime.grad_holder import GradTensorHolder

    summing = []  # when Pair's two gradients for h are summed: is Pair's incoming one gone?
    add = GradTensorHolder.add

    def watched_add(self, node, pos, grad):
        if "incoming" in alive:
            summing.append(alive["incoming"]() is None)
        return add(self, node, pos, grad)

    monkeypatch.setattr(GradTensorHolder, "add", watched_add)
    x = leaf(np.linspace(-1.0, 1.0, 1000))
    h = og.tanh(x)
    seen = []
    h.grad_fn.register_prehook(lambda grads: seen.append({k: r() is None for k, r in alive.items()}))
    loss = og.sum(Pair.apply(h, h))
    if how == "backward":
        loss.backward()
        got = x.grad
    else:
        (got,) = og.grad([loss], [x])
    assert summing and all(summing)  # freed before its node's outputs are summed
    assert seen == [{"incoming": True, "a": True, "b": True}]
    np.testing.assert_allclose(got.numpy(), 5.0 * (1 - np.tanh(x.numpy()) ** 2), rtol=1e-12)
