"""Graph nodes as users inspect them: edges, output metadata, hooks tables, reprs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.grad_node import GradNode, new_node, set_history
from opgrad.runtime.tensor import wrap
from opgrad.runtime.tensor_wrapper import TensorWrapper, bump_versions, unpack, unpack_data


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def test_a_bare_node_has_no_outputs_until_set_history():
    x = leaf([1.0, 2.0])
    node = GradNode([x])
    assert node.output_meta == () and node.n_positions == 0
    assert node.output_meta_at(0) is None and node.output_meta_at(1) is None
    assert node.output_slots is None
    out2 = wrap(np.zeros((3,), dtype="float32"))
    set_history(out2, node, 2)  # positions 0 and 1 stay unset
    assert node.n_positions == 3
    assert node.output_meta == (None, None, ((3,), np.dtype("float32"), np.ndarray))
    assert out2.grad_fn is node and out2.requires_grad
    out0 = wrap(np.zeros((2,)))
    set_history(out0, node, 0)
    assert node.output_meta[0] == ((2,), np.dtype("float64"), np.ndarray)
    out1 = wrap(np.zeros((4,), dtype="int64"))
    set_history(out1, node, 1)  # fills a position below the highest set one
    assert node.n_positions == 3
    assert node.output_meta[1] == ((4,), np.dtype("int64"), np.ndarray)
    assert node.output_meta[2] == ((3,), np.dtype("float32"), np.ndarray)
    assert node.output_meta_at(4) is None
    with pytest.raises(NotImplementedError, match="GradNode does not implement apply"):
        node.apply([None], False)
    node.release_saved()  # saves nothing: a no-op


def test_edges_of_inputs_that_need_no_gradient_are_none():
    x = leaf([1.0])
    c = og.tensor([2.0])
    one = GradNode([c])
    assert one.next_edges == (None,) and one.next_nodes == ((None, 0),)
    two = GradNode([c, x])
    assert two.next_edges[0] is None and two.next_edges[1][0].variable is x
    three = GradNode([None, c, x])
    assert three.next_edges[:2] == (None, None)
    assert three.next_nodes[:2] == ((None, 0), (None, 0))
    assert [m is None for m in three.input_meta] == [True, True, False]
    assert three.input_meta[2].shape == (1,)


def test_a_leaf_shares_one_accumulator_while_a_graph_uses_it():
    x = leaf([1.0, 2.0])
    a = og.multiply(x, x).grad_fn.next_edges[0][0]
    b = og.exp(x).grad_fn.next_edges[0][0]
    assert a is b and a.variable is x
    assert repr(a) == "<AccumulateGrad leaf shape=(2,)>"
    assert a.name == "accumulate_grad"


def test_output_positions_of_one_and_two_output_nodes():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    assert og.multiply(x, x).grad_fn.n_positions == 1
    a, b = og.split(x, 2)
    assert a.grad_fn.n_positions == 2 and len(a.grad_fn.output_meta) == 2


def test_node_repr_and_names():
    x = leaf([1.0])
    node = og.multiply(x, x).grad_fn
    assert repr(node) == f"<MultiplyGradNode multiply_grad #{node.seq}>"


def test_saved_output_with_a_counter_already_is_checked_on_both_reads():
    x = leaf([0.0, 1.0])
    y = og.exp(x)
    y.multiply_(og.tensor([1.0, 1.0]))  # now y has a counter at version 1 (and a new node)
    node = y.grad_fn
    saved = TensorWrapper.of_output(y, node)
    np.testing.assert_array_equal(unpack_data(saved, node), y.numpy())
    rebuilt = unpack(saved, node)
    assert rebuilt.grad_fn is node and rebuilt._version == 1
    with og.no_grad():
        y.multiply_(og.tensor([2.0, 2.0]))
    for read in (unpack, unpack_data):
        with pytest.raises(RuntimeError, match="saved at version 1 and is now at version 2"):
            read(saved, node)


def test_the_base_saved_tensor_kind_has_no_reader():
    with pytest.raises(NotImplementedError):
        TensorWrapper().unpack(None)
    with pytest.raises(NotImplementedError):
        TensorWrapper().unpack_data(None)


def test_bump_versions_skips_none_and_counts_each_tensor_once():
    a = og.tensor([1.0])
    b = og.tensor([2.0])
    bump_versions(a, None, b)
    bump_versions(None, b)
    assert a._version == 1 and b._version == 2


class TwoOutputs(og.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return wrap(x.numpy() * 2), wrap(x.numpy() * 3)

    @staticmethod
    def backward(ctx, g0, g1):
        zero = og.zeros(g0.shape, dtype="float64") if g0 is None else g0
        one = og.zeros(g1.shape, dtype="float64") if g1 is None else g1
        return og.add(
            og.multiply(zero, og.tensor(np.full(zero.shape, 2.0))),
            og.multiply(one, og.tensor(np.full(one.shape, 3.0))),
        )


def test_an_in_place_op_on_a_second_output_makes_it_output_0_of_the_new_node():
    x = leaf([0.0, 1.0])
    y0, y1 = TwoOutputs.apply(x)
    assert y1._pos == 1  # output 1 of the Function's node
    y1.exp_()  # y1 is now output 0 of exp_'s node
    assert y1._pos == 0 and y1.grad_fn.name != "TwoOutputs.backward"
    og.sum(y1).backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * np.exp([0.0, 3.0]))


def test_a_gradient_with_history_returned_by_a_hook_is_detached_into_grad():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    h = og.multiply(w, w)  # has history
    x.register_hook(lambda g: h)
    og.sum(og.multiply(x, x)).backward()
    assert x.grad is not h and x.grad.grad_fn is None and not x.grad.requires_grad
    np.testing.assert_allclose(x.grad.numpy(), [9.0, 16.0])


def test_new_node_makes_out_its_output_0():
    x = leaf([1.0, 2.0])
    y0, y1 = TwoOutputs.apply(x)
    assert y1._pos == 1
    node = new_node(GradNode, [x], y1)  # what GradNode([x]) + set_history(y1, node, 0) do
    assert y1.grad_fn is node and y1._pos == 0 and y1.requires_grad
    assert node.output_meta == (((2,), np.dtype("float64"), np.ndarray),)
    assert node.next_edges[0][0].variable is x


def test_new_node_links_like_the_general_path_for_every_arity():
    """new_node spells out one and two inputs; GradNode(...) takes _link's general loop.
    Both must give the same edges, positions and state for every kind of input."""
    x = leaf([1.0, 2.0])
    y0, y1 = TwoOutputs.apply(x)  # y1 sits at output position 1 of its node
    const = og.tensor(np.array([3.0, 4.0]))
    kinds = [x, y0, y1, const, None]
    out = wrap(np.zeros((2,)))
    for n in (0, 1, 2, 3):
        for inputs in itertools.product(kinds, repeat=n):
            fast = new_node(GradNode, list(inputs), wrap(np.zeros((2,))))
            general = GradNode(list(inputs))
            set_history(out, general, 0)
            assert fast.edges() == general.edges()
            assert fast.output_meta == general.output_meta
            assert (fast._more, fast._released, fast._hooks, fast.trace) == (None, False, None, None)
            assert fast.seq + 1 == general.seq
    with og.detect_anomaly():
        assert new_node(GradNode, [x], wrap(np.zeros((2,)))).trace is not None


def test_a_node_shares_its_first_inputs_shape_tuple_only_when_equal():
    x = leaf([1.0, 2.0, 3.0])
    y = og.tanh(og.multiply(x, x))
    z = og.sum(y)  # another shape: its own tuple
    assert y.grad_fn._shape is y.grad_fn.next_edges[0][0]._shape == (3,)
    assert z.grad_fn._shape == () and y.grad_fn.output_meta_at(0) == ((3,), np.dtype("float64"), np.ndarray)
    c = og.add(og.tensor(np.ones(3)), y)  # a constant first input: nothing to share
    assert c.grad_fn._shape == (3,)
    z.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.numpy() * (1 - np.tanh(x.numpy() ** 2) ** 2))
