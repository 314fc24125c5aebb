"""copy.deepcopy and pickle of tensors: a leaf copies (data, requires_grad, and for deepcopy
its .grad); a tensor an op produced is refused by deepcopy (it would copy the graph) and
pickles as a leaf that requires grad, as in PyTorch."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import opgrad as og


def used_leaf():
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    y = x * x
    y.sum().backward()
    return x, y


def test_deepcopy_of_a_non_leaf_is_refused():
    x, y = used_leaf()
    with pytest.raises(RuntimeError, match="only leaf tensors.*multiply_grad"):
        copy.deepcopy(y)
    with pytest.raises(RuntimeError, match="only leaf tensors"):
        copy.deepcopy([x, y])


def test_deepcopy_of_a_leaf_copies_data_flag_and_grad():
    x, y = used_leaf()
    d = copy.deepcopy(x)
    assert d.is_leaf and d.requires_grad and d.dtype == x.dtype
    np.testing.assert_array_equal(d.numpy(), x.numpy())
    np.testing.assert_array_equal(d.grad.numpy(), [2.0, 4.0])
    assert not np.shares_memory(d.numpy(), x.numpy())
    assert not np.shares_memory(d.grad.numpy(), x.grad.numpy())
    # The copy is a leaf of its own: its gradient goes to its own .grad.
    (d * 3.0).sum().backward()
    np.testing.assert_array_equal(d.grad.numpy(), [5.0, 7.0])
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_deepcopy_keeps_shared_references_shared():
    x = og.tensor([1.0], requires_grad=True)
    a, b = copy.deepcopy([x, x])
    assert a is b


def test_deepcopy_of_a_detached_non_leaf_works():
    _, y = used_leaf()
    d = copy.deepcopy(y.detach())
    np.testing.assert_array_equal(d.numpy(), [1.0, 4.0])
    assert not d.requires_grad


def test_pickle_of_a_leaf_used_in_a_graph():
    x, _ = used_leaf()
    x.name = "weights"
    r = pickle.loads(pickle.dumps(x))
    np.testing.assert_array_equal(r.numpy(), x.numpy())
    assert r.dtype == x.dtype and r.requires_grad and r.is_leaf
    assert r.grad is None  # as PyTorch: the gradient is not pickled
    (r * 2.0).sum().backward()
    np.testing.assert_array_equal(r.grad.numpy(), [2.0, 2.0])


def test_pickle_of_a_non_leaf_gives_a_leaf_that_requires_grad():
    _, y = used_leaf()
    r = pickle.loads(pickle.dumps(y))
    np.testing.assert_array_equal(r.numpy(), [1.0, 4.0])
    assert r.is_leaf and r.requires_grad and r.grad_fn is None


def test_pickle_of_a_plain_tensor_and_of_a_parameter():
    t = og.tensor([[1, 2], [3, 4]])
    r = pickle.loads(pickle.dumps(t))
    assert r.dtype == np.int64 and not r.requires_grad
    np.testing.assert_array_equal(r.numpy(), t.numpy())
    p = og.nn.Parameter(og.tensor([1.0, 2.0]))
    (p * p).sum().backward()
    q = pickle.loads(pickle.dumps(p))
    assert isinstance(q, og.nn.Parameter) and q.requires_grad


def test_shallow_copy_shares_memory_and_version_counter():
    x = og.tensor([1.0, 2.0], dtype="float64")
    w = og.tensor([3.0, 4.0], dtype="float64", requires_grad=True)
    loss = (x * w).sum()  # saves x
    c = copy.copy(x)
    assert np.shares_memory(c.numpy(), x.numpy()) and c.is_leaf and not c.requires_grad
    c.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        loss.backward()
