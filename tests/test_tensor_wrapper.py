"""Saved tensors: release after backward, no reference cycles, hooks, version checks."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import opgrad as og
from handmade_ops import mul, tanh, total
from opgrad.runtime.inplace import write_inplace
from opgrad.runtime.tensor_wrapper import TensorWrapper


def leaf(values):
    return og.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def test_saved_tensors_are_released_after_backward():
    x = leaf([1.0, 2.0])
    h = mul(x, x)
    node = h.grad_fn
    assert isinstance(node.a, TensorWrapper)
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
    meta = y.grad_fn.x.unpack(y.grad_fn)
    assert meta.shape == (3,) and meta.dtype == np.float64
    assert not hasattr(meta, "_data")
    # The node keeps x's AccumulateGrad (and so x) alive, but not through the wrapper:
    assert data_ref() is x
