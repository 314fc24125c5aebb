"""Saved tensors: release after backward, no reference cycles, hooks, version checks."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import opgrad as og
from handmade_ops import mul, tanh, total
from opgrad.runtime import tensor_wrapper
from opgrad.runtime.inplace import write_inplace
from opgrad.runtime.tensor import wrap
from opgrad.runtime.tensor_wrapper import TensorWrapper, unpack


def leaf(values):
    return og.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def test_saved_tensors_are_released_after_backward():
    x = leaf([1.0, 2.0])
    h = mul(x, x)
    node = h.grad_fn
    assert node.a is x  # an input at version 0 is saved as the tensor itself
    total(h).backward()
    assert node.a is None and node.b is None and node._released


def test_saved_tensors_kept_with_retain_graph():
    x = leaf([1.0, 2.0])
    h = tanh(x)
    node = h.grad_fn
    total(h).backward(retain_graph=True)
    assert node.out is not None and not node._released


def test_no_reference_cycles_forward_backward_del():
    gc.collect()
    gc.disable()
    try:
        x = leaf([0.1, 0.2, 0.3])
        w = leaf([1.0, 2.0, 3.0])
        h = tanh(mul(x, w))  # tanh saves its own output: the classic cycle risk
        y = total(mul(h, h))
        refs = [weakref.ref(n) for n in (h.grad_fn, y.grad_fn, h.grad_fn.next_edges[0][0])]
        acc = weakref.ref(h.grad_fn.next_edges[0][0].next_edges[0][0])  # x's AccumulateGrad
        y.backward()
        del h, y
        assert all(r() is None for r in refs), "a node outlived its graph without gc"
        assert acc() is None
        assert x.grad is not None
    finally:
        gc.enable()


def test_no_cycles_even_without_backward():
    gc.collect()
    gc.disable()
    try:
        x = leaf([0.5])
        y = tanh(tanh(x))
        ref = weakref.ref(y.grad_fn)
        data_ref = weakref.ref(y)
        del y
        assert ref() is None and data_ref() is None
    finally:
        gc.enable()


def test_accumulator_is_shared_while_the_graph_lives():
    x = leaf([1.0])
    a = mul(x, x)
    b = tanh(x)
    acc_a = a.grad_fn.next_edges[0][0]
    assert b.grad_fn.next_edges[0][0] is acc_a
    assert acc_a.variable is x


def test_saved_tensors_hooks_pack_and_unpack_are_called():
    log = []

    def pack(t):
        log.append(("pack", t.shape))
        return t.numpy().copy()

    def unpack(arr):
        log.append(("unpack", arr.shape))
        return og.tensor(arr)

    x = leaf([0.5, 1.5])
    with og.saved_tensors_hooks(pack, unpack):
        y = total(tanh(x))  # tanh saves its output
    assert log == [("pack", (2,))]
    y.backward()
    assert log == [("pack", (2,)), ("unpack", (2,))]
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh([0.5, 1.5]) ** 2)


def test_saved_tensor_modified_in_place_names_node_and_versions():
    x = leaf([1.0, 2.0])
    a = og.tensor(np.array([3.0, 4.0]))
    y = total(mul(x, a))
    write_inplace("test", a, np.array([10.0, 4.0]))  # what every in-place op does
    with pytest.raises(
        RuntimeError,
        match=r"MulNode \(mul_grad\).*argument 'b'.*modified by an in-place operation.*version 0.*version 1",
    ):
        y.backward()


def test_meta_only_wrapper_does_not_hold_the_data():
    x = leaf([1.0, 2.0, 3.0])
    y = total(x)
    data_ref = weakref.ref(x)
    meta = unpack(y.grad_fn.x, y.grad_fn)
    assert meta.shape == (3,) and meta.dtype == np.float64
    assert not hasattr(meta, "_data")
    # The node keeps x's AccumulateGrad (and so x) alive, but not through the wrapper:
    assert data_ref() is x


# -- what a saved tensor costs: one object at most ---------------------------------------


def test_input_at_version_zero_is_saved_as_itself_and_still_checked():
    x = leaf([0.5, 1.5])
    y = og.multiply(x, x)
    assert y.grad_fn.x is x and y.grad_fn.y is x  # no wrapper object
    x.data.add_(1.0)  # an in-place write through an alias: version 1
    with pytest.raises(RuntimeError, match=r"multiply_grad.*argument 'x'.*version 0 and is now at version 1"):
        og.sum(y).backward()


def test_input_written_before_it_is_saved_keeps_its_version():
    x = leaf([0.5, 1.5])
    a = og.multiply(x, 1.0)
    a.add_(1.0)  # version 1 before multiply saves it
    y = og.multiply(a, x)
    saved = y.grad_fn.x
    assert saved is not a and unpack(saved, y.grad_fn) is a  # a wrapper remembering version 1
    og.sum(y).backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.array([0.5, 1.5]) + 1.0)
    a.add_(1.0)
    with pytest.raises(RuntimeError, match=r"saved at version 1 and is now at version 2"):
        og.sum(y).backward()


def test_a_parameter_is_saved_through_a_wrapper():
    w = og.nn.Parameter(og.tensor([1.0, 2.0]))
    y = og.multiply(w, w)
    assert y.grad_fn.x is not w and unpack(y.grad_fn.x, y.grad_fn) is w
    og.sum(y).backward()
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0])


def test_saved_output_is_its_tensors_version_counter():
    x = leaf([0.25, -0.5])
    y = og.tanh(x)
    node = y.grad_fn
    assert y._vc is node.out  # the wrapper doubles as y's counter: one object, not two
    assert y._version == 0
    with og.no_grad():
        y.reshape([2]).add_(1.0)  # a view shares the counter, so this write is seen
    assert y._version == 1
    with pytest.raises(RuntimeError, match=r"tanh_grad.*argument 'out'.*version 0 and is now at version 1"):
        og.sum(y).backward()


def test_output_that_already_had_a_counter_is_saved_with_its_version():
    x = leaf([0.25, -0.5])
    v = og.multiply(x, 1.0)
    v.add_(1.0)  # v now has a counter at version 1
    og.tanh_(v)  # saves its result, v itself, at version 2
    assert v.grad_fn.out is not v._vc
    og.sum(v).backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh(np.array([0.25, -0.5]) + 1.0) ** 2)
    v.add_(1.0)
    with pytest.raises(RuntimeError, match=r"saved at version 2 and is now at version 3"):
        og.sum(v).backward()


def test_no_need_buffer_metadata_is_shared_between_nodes():
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    a, b = og.add(x, y), og.add(y, x)
    assert a.grad_fn.x is b.grad_fn.x is a.grad_fn.y  # one object per (shape, dtype, array type)
    c = og.add(x, leaf([[1.0, 2.0]]))
    assert c.grad_fn.y is not a.grad_fn.y and c.grad_fn.y.shape == (1, 2)


def test_no_need_buffer_metadata_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(tensor_wrapper, "_METAS_MAX", 3)
    tensor_wrapper._METAS.clear()
    for n in range(1, 8):
        x = leaf(np.ones(n))
        y = og.add(x, x)
        assert y.grad_fn.x.shape == (n,)
        og.sum(y).backward()
        np.testing.assert_allclose(x.grad.numpy(), 2 * np.ones(n))
        assert len(tensor_wrapper._METAS) <= 3


@pytest.mark.parametrize(
    ("op", "most"),
    [
        # output tensor, node, saved output (the shape tuple is h's node's; the edges are
        # slots of the node, see Edge in runtime/grad_node.py)
        (lambda h, c: og.tanh(h), 3),
        (lambda h, c: og.multiply(h, c), 2),  # h is saved as tanh's saved output, c as itself
        (lambda h, c: og.add(h, c), 2),  # metadata is shared
        (lambda h, c: og.sin(h), 2),
    ],
)
def test_a_recorded_op_keeps_few_objects_for_the_cyclic_gc(op, most):
    # Every object a live graph keeps is walked by each cyclic-GC pass; this count is what
    # makes recording cheap on small tensors (see GradNode). It counts net allocations of
    # GC-tracked objects per op while the results are kept alive.
    h = og.tanh(leaf(np.linspace(-1.0, 1.0, 16)))
    c = og.tensor(np.full(16, 0.5))
    keep = [op(h, c) for _ in range(5)]  # warm up caches (kernel tables, metadata)
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        for _ in range(100):
            keep.append(op(h, c))
        per_op = (gc.get_count()[0] - before) / 100
    finally:
        gc.enable()
    assert per_op <= most + 0.1, f"{per_op} GC-tracked objects per op (at most {most} expected)"


def test_a_live_chain_keeps_the_tensors_between_ops_only_as_saved_outputs():
    # In y = tanh(y * c + d) each link keeps three nodes and tanh's saved output, which
    # multiply's node keeps again as its saved input: the Tensor y itself is not kept, and
    # the edges are slots of the nodes (4 objects per 3 ops; 7 with a tuple of nodes per
    # node, 8 when multiply also kept y).
    y = leaf(np.linspace(-1.0, 1.0, 16))
    c, d = og.tensor(np.full(16, 0.9)), og.tensor(np.full(16, 0.1))
    y = og.tanh(og.add(og.multiply(y, c), d))  # warm up caches
    gc.collect()
    gc.disable()
    try:  # live objects, counted: gc.get_count() also counts tuples a free list kept
        before = len(gc.get_objects())
        for _ in range(50):
            y = og.tanh(og.add(og.multiply(y, c), d))
        per_op = (len(gc.get_objects()) - before) / 150
    finally:
        gc.enable()
    assert per_op <= 4 / 3 + 0.05, f"{per_op} GC-tracked objects per op (4/3 expected)"


def test_no_need_buffer_metadata_by_shape_checks_dtype_and_array_type():
    """meta_of answers from the metadata last used for a shape only when its dtype and array
    type are the very same; otherwise from the full (shape, dtype, array type) key."""
    # an empty cache: a full one (4096 keys, after other test files) starts over between reads
    tensor_wrapper._METAS.clear()
    tensor_wrapper._LAST.clear()
    shape = (3, 7)
    arrays = [
        np.zeros(shape),
        np.zeros(shape, dtype="float32"),
        np.zeros(shape, dtype=">f8"),  # equal kind and size, another byte order
        np.zeros(shape),
        np.zeros(shape, dtype="float32"),
    ]
    metas = [TensorWrapper.meta_of(og.tensor(a) if a.dtype.isnative else wrap(a)) for a in arrays]
    for a, m in zip(arrays, metas, strict=True):
        assert m.shape == shape and m.dtype == a.dtype and m.dtype.byteorder == a.dtype.byteorder
        assert m.matches(a) and m is TensorWrapper.meta_of(wrap(a))
    assert metas[0] is metas[3] and metas[1] is metas[4] and metas[0] is not metas[2]
