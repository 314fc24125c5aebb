"""Who owns a gradient buffer, and in which order leaves accumulate and their hooks run.

The rule: backward writes in place only into an array it made itself. A user's seed, a
`.grad` the user holds or assigned, another leaf's `.grad`: never written.
"""

from __future__ import annotations

import weakref

import numpy as np
import pytest

import opgrad as og


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def const(values):
    """A float64 constant, like the leaves (a float32 seed would be cast, hence copied)."""
    return og.tensor(np.asarray(values, dtype="float64"))


def ones(n):
    return og.tensor(np.ones(n))


def test_grad_held_before_zero_grad_is_not_written_by_later_backward():
    x = leaf([1.0, 2.0])
    for _ in range(3):  # the third backward accumulates into the buffer the second made
        og.sum(og.multiply(x, x)).backward()
    held = x.grad
    np.testing.assert_allclose(held.numpy(), [6.0, 12.0])
    x.zero_grad()
    assert x.grad is None
    og.sum(og.multiply(x, x)).backward()
    og.sum(og.multiply(x, x)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])
    np.testing.assert_allclose(held.numpy(), [6.0, 12.0])


def test_later_backward_adds_into_the_buffer_it_made():
    x = leaf([1.0, 2.0])
    og.sum(og.multiply(x, x)).backward()
    og.sum(og.multiply(x, x)).backward()
    buffer = weakref.ref(x.grad)  # watched without holding it
    og.sum(og.multiply(x, x)).backward()
    assert x.grad is buffer()  # owned: accumulated in place, no new array per step
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])


def test_later_backward_never_writes_a_grad_the_user_holds():
    x = leaf([1.0, 2.0])
    og.sum(og.multiply(x, x)).backward()
    og.sum(og.multiply(x, x)).backward()
    held = x.grad
    og.sum(og.multiply(x, x)).backward()
    assert x.grad is not held and not np.shares_memory(x.grad.numpy(), held.numpy())
    np.testing.assert_allclose(held.numpy(), [4.0, 8.0])
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])


def test_a_read_only_owned_buffer_is_replaced_not_written():
    x = leaf([1.0, 2.0])
    og.sum(og.multiply(x, x)).backward()
    og.sum(og.multiply(x, x)).backward()
    frozen = x.grad
    frozen._data.flags.writeable = False
    og.sum(og.multiply(x, x)).backward()
    assert x.grad is not frozen
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])
    np.testing.assert_allclose(frozen.numpy(), [4.0, 8.0])


def test_assigned_grad_is_never_written():
    x = leaf([1.0, 2.0])
    og.sum(og.multiply(x, x)).backward()
    og.sum(og.multiply(x, x)).backward()  # x.grad is now owned
    mine = const([100.0, 100.0])
    x.grad = mine
    og.sum(og.multiply(x, x)).backward()
    np.testing.assert_allclose(mine.numpy(), [100.0, 100.0])
    np.testing.assert_allclose(x.grad.numpy(), [102.0, 104.0])


def test_clear_grad_zeroes_a_new_buffer_and_leaves_the_held_one():
    x = leaf([1.0, 2.0])
    og.sum(og.multiply(x, x)).backward()
    held = x.grad
    x.clear_grad()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0])
    og.sum(og.multiply(x, x)).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(held.numpy(), [2.0, 4.0])


def test_seed_is_never_written_by_accumulation_into_its_node():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, const([2.0, 2.0]))
    seed = const([1.0, 1.0])
    # y's node receives the seed, then two more gradients through y1 and y2.
    y1 = og.multiply(y, const([3.0, 3.0]))
    y2 = og.multiply(y, const([5.0, 5.0]))
    og.backward([y, y1, y2], [seed, const([1.0, 1.0]), const([1.0, 1.0])])
    np.testing.assert_allclose(seed.numpy(), [1.0, 1.0])
    np.testing.assert_allclose(x.grad.numpy(), [18.0, 18.0])


def test_gradients_from_three_paths_sum_into_one_buffer():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, const([1.0, 1.0]))
    z = og.add(og.add(y, og.multiply(y, y)), og.multiply(y, const([3.0, 3.0])))
    og.sum(z).backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 + 2 * np.array([1.0, 2.0]) + 3)


def test_held_grad_is_not_written_under_create_graph_accumulation():
    x = leaf([1.0, 2.0])
    og.sum(og.multiply(og.multiply(x, x), x)).backward(create_graph=True)
    first = x.grad
    np.testing.assert_allclose(first.numpy(), [3.0, 12.0])
    assert first.requires_grad  # differentiable: it was recorded
    og.sum(og.multiply(og.multiply(x, x), x)).backward(create_graph=True)
    np.testing.assert_allclose(first.numpy(), [3.0, 12.0])
    second = x.grad
    np.testing.assert_allclose(second.numpy(), [6.0, 24.0])
    assert second.grad_fn is not None and second.grad_fn.name == "sum_grads"
    (g2,) = og.grad(og.sum(second), [x])  # d/dx of 2 * 3x^2 summed
    np.testing.assert_allclose(g2.numpy(), [12.0, 24.0])


def test_plain_backward_after_create_graph_makes_a_new_buffer():
    x = leaf([1.0, 2.0])
    og.sum(og.multiply(x, x)).backward(create_graph=True)
    first = x.grad
    og.sum(og.multiply(x, x)).backward()
    np.testing.assert_allclose(first.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


def test_create_graph_seed_is_kept_differentiable():
    x = leaf([1.0, 2.0])
    s = leaf([1.0, 1.0])
    seed = og.multiply(s, const([3.0, 3.0]))
    (gx,) = og.grad([og.multiply(x, x)], [x], [seed], create_graph=True)
    np.testing.assert_allclose(gx.numpy(), [6.0, 12.0])
    (gs,) = og.grad(og.sum(gx), [s])  # through the seed: d(2x * 3s)/ds
    np.testing.assert_allclose(gs.numpy(), [6.0, 12.0])


def test_second_order_through_a_diamond_uses_the_recorded_sum():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, x)
    z = og.add(y, y)  # two paths into y's node: the holder sums them
    (gx,) = og.grad(og.sum(og.multiply(z, x)), [x], create_graph=True)  # d(2x^3)
    np.testing.assert_allclose(gx.numpy(), 6 * np.array([1.0, 4.0]))
    (ggx,) = og.grad(og.sum(gx), [x])
    np.testing.assert_allclose(ggx.numpy(), 12 * np.array([1.0, 2.0]))


def test_seed_of_another_dtype_is_cast_and_a_list_seed_is_accepted():
    x = leaf([1.0, 2.0], dtype="float32")
    y = og.multiply(x, x)
    y.backward(og.tensor(np.array([1.0, 2.0], dtype="float64")))
    assert x.grad.dtype == np.float32
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 8.0])
    x2 = leaf([1.0, 2.0])
    og.backward(og.multiply(x2, x2), [np.array([3.0, 3.0])])  # an array seed is converted
    np.testing.assert_allclose(x2.grad.numpy(), [6.0, 12.0])


def test_a_seed_with_history_is_detached_without_create_graph():
    x = leaf([1.0, 2.0])
    s = leaf([1.0, 1.0])
    seed = og.multiply(s, const([2.0, 2.0]))
    og.multiply(x, x).backward(seed)
    assert not x.grad.requires_grad and x.grad.grad_fn is None
    assert s.grad is None


class Log:
    def __init__(self):
        self.events = []

    def leaf_hook(self, name):
        def hook(g):
            self.events.append(name)

        return hook

    def node_hook(self, name):
        def hook(grads):
            self.events.append(name)

        return hook


def test_leaves_accumulate_as_soon_as_they_are_ready():
    # x feeds only the last op, w only the start of a long chain: x's accumulator is ready
    # after the first node and runs before any node of the chain, although it was created
    # before them (x was used earlier).
    x = leaf([1.0])
    w = leaf([2.0])
    earlier = og.multiply(x, x)  # noqa: F841  (keeps x's accumulator alive)
    log = Log()
    chain = w
    nodes = []
    for _ in range(3):
        chain = og.multiply(chain, const([1.0]))
        nodes.append(chain.grad_fn)
    out = og.multiply(x, chain)
    x.register_hook(log.leaf_hook("x"))
    w.register_hook(log.leaf_hook("w"))
    for i, node in enumerate(nodes):
        node.register_prehook(log.node_hook(f"chain{i}"))
    out.grad_fn.register_prehook(log.node_hook("out"))
    out.backward(ones(1))
    assert log.events == ["out", "x", "chain2", "chain1", "chain0", "w"]


def test_ready_nodes_run_newest_first_and_leaves_in_edge_order():
    x = leaf([1.0])
    y = leaf([2.0])
    log = Log()
    a = og.multiply(x, const([2.0]))  # created first
    b = og.multiply(y, const([3.0]))  # created second
    c = og.multiply(x, y)
    a.grad_fn.register_prehook(log.node_hook("a"))
    b.grad_fn.register_prehook(log.node_hook("b"))
    x.register_hook(log.leaf_hook("x"))
    y.register_hook(log.leaf_hook("y"))
    og.backward([a, b], [ones(1), ones(1)])
    og.backward([c], [ones(1)])
    assert log.events == ["b", "y", "a", "x", "x", "y"]


def test_two_leaves_never_share_a_grad_buffer():
    a = leaf([1.0, 2.0])
    b = leaf([3.0, 4.0])
    og.sum(og.add(a, b)).backward()
    a.grad.zero_()
    np.testing.assert_allclose(b.grad.numpy(), [1.0, 1.0])


def test_a_grad_never_shares_the_seed():
    x = leaf([1.0, 2.0])
    g = og.ones((2,), dtype="float64")
    og.add(x, const([0.0, 0.0])).backward(g)
    g.zero_()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 1.0])


def test_retained_grad_after_an_in_place_op_is_the_gradient_of_the_current_value():
    x = leaf([1.0, 2.0])
    y = og.multiply(x, const([2.0, 2.0]))
    y.retain_grads()
    y.multiply_(const([3.0, 3.0]))
    og.sum(og.multiply(y, y)).backward()
    np.testing.assert_allclose(y.grad.numpy(), [12.0, 24.0])


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_a_hook_returning_another_dtype_is_refused(dtype):
    x = leaf([1.0, 2.0], dtype="float32")
    x.register_hook(lambda g: og.tensor(np.ones(2, dtype=dtype)))
    with pytest.raises((TypeError, ValueError, RuntimeError), match="hook"):
        og.sum(og.multiply(x, x)).backward()


def test_zero_dimensional_gradients_sum_to_arrays():
    x = og.tensor(np.float64(2.0), requires_grad=True)
    y = og.multiply(x, x)
    z = og.add(og.add(y, y), y)  # three 0-d gradients meet at y's node
    z.backward()
    z2 = og.multiply(x, og.tensor(np.float64(3.0)))
    z2.backward()  # and two at x's .grad
    assert x.grad.shape == () and isinstance(x.grad.numpy(), np.ndarray)
    assert x.grad.item() == 3 * 2 * 2.0 + 3.0


def test_create_graph_sum_of_a_constant_and_a_differentiable_gradient_is_recorded():
    x = leaf([1.0, 2.0])
    y = og.add(og.multiply(x, x), og.multiply(x, const([3.0, 3.0])))
    (gx,) = og.grad([og.sum(y)], [x], create_graph=True)  # 2x (recorded) + 3 (constant)
    np.testing.assert_allclose(gx.numpy(), [5.0, 7.0])
    assert gx.requires_grad
    (ggx,) = og.grad([og.sum(gx)], [x])
    np.testing.assert_allclose(ggx.numpy(), [2.0, 2.0])
    og.sum(og.multiply(x, const([3.0, 3.0]))).backward(create_graph=True)  # constant .grad
    og.sum(og.multiply(x, x)).backward(create_graph=True)  # + 2x: recorded
    (g3,) = og.grad([og.sum(x.grad)], [x])
    np.testing.assert_allclose(g3.numpy(), [2.0, 2.0])


def test_seed_that_became_grad_after_zero_grad_is_not_written():
    x = leaf([1.0, 2.0])
    for _ in range(3):
        og.sum(og.multiply(x, x)).backward()  # x.grad is a buffer backward owns
    x.zero_grad()
    seed = const([1.0, 1.0])
    og.backward([x], [seed])  # x.grad is now the seed's array, which the user holds
    og.sum(og.multiply(x, x)).backward()
    np.testing.assert_allclose(seed.numpy(), [1.0, 1.0])
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 5.0])


def test_create_graph_sums_record_exactly_when_some_term_requires_grad():
    x = leaf([1.0, 2.0])
    og.backward([x], [const([1.0, 1.0])], create_graph=True)  # .grad: the seed, a constant
    og.backward([x], [const([2.0, 2.0])], create_graph=True)  # constant + constant
    assert not x.grad.requires_grad
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])
    og.sum(og.multiply(x, x)).backward(create_graph=True)  # constant + 2x: recorded
    assert x.grad.requires_grad
    (g,) = og.grad([og.sum(x.grad)], [x])
    np.testing.assert_allclose(g.numpy(), [2.0, 2.0])


def test_create_graph_sum_in_a_node_buffer_of_a_constant_and_a_differentiable_gradient():
    x = leaf([1.0, 2.0])
    # x's accumulator receives the seed of root x (a constant) and 2x through x * x.
    (gx,) = og.grad([x, og.multiply(x, x)], [x], [const([1.0, 1.0]), const([1.0, 1.0])], create_graph=True)
    np.testing.assert_allclose(gx.numpy(), [3.0, 5.0])
    (ggx,) = og.grad([og.sum(gx)], [x])
    np.testing.assert_allclose(ggx.numpy(), [2.0, 2.0])


def test_create_graph_grad_taken_from_a_differentiable_seed_is_a_recorded_private_copy():
    x = leaf([1.0, 2.0])
    s = leaf([3.0, 4.0])
    seed = og.multiply(s, const([2.0, 2.0]))
    og.add(x, const([0.0, 0.0])).backward(seed, create_graph=True)  # add passes the seed through
    assert not np.shares_memory(x.grad.numpy(), seed.numpy())  # the user holds the seed
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 8.0])
    assert x.grad.requires_grad  # the copy is recorded: the gradient still reaches s
    (gs,) = og.grad(og.sum(og.multiply(x.grad, const([1.0, 10.0]))), [s])
    np.testing.assert_array_equal(gs.numpy(), [2.0, 20.0])


def test_accumulate_grad_called_directly_runs_hooks_and_copies_the_gradient():
    x = leaf([1.0, 2.0])
    seen = []

    def hook(g):
        seen.append(g.numpy().copy())
        return og.multiply(g, const([10.0, 10.0]))

    x.register_hook(hook)
    x.register_hook(lambda g: None)  # a hook returning None keeps the gradient
    acc = og.multiply(x, const([2.0, 2.0])).grad_fn.next_functions[0][0]
    assert repr(acc) == "<AccumulateGrad leaf shape=(2,)>"
    g = const([1.0, 2.0])
    assert acc.apply([g], False) == ()
    np.testing.assert_array_equal(seen[0], [1.0, 2.0])
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 20.0])
    acc.apply([g], False)  # a second call adds
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 40.0])
    np.testing.assert_array_equal(g.numpy(), [1.0, 2.0])

    y = leaf([1.0])
    acc_y = og.multiply(y, const([2.0])).grad_fn.next_functions[0][0]
    h = const([5.0])
    acc_y.apply([h], False)  # no pass to ask whether the caller keeps h: always a copy
    assert not np.shares_memory(y.grad.numpy(), h.numpy())
    h.numpy()[0] = -1.0
    np.testing.assert_array_equal(y.grad.numpy(), [5.0])
