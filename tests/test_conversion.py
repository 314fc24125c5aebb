"""NumPy interop never aliases memory by surprise: an array passed to an op is copied (the
graph may save it), and `np.array(t)` follows NumPy 2's `__array__(dtype, copy)` protocol."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og


def test_an_array_argument_saved_for_backward_is_not_read_after_the_caller_changes_it():
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    buf = np.array([3.0, 4.0])
    loss = (x * buf).sum()
    buf[:] = 100.0
    loss.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])


@pytest.mark.parametrize("position", ["x", "y"])
def test_array_arguments_in_either_position_and_in_ops_with_one_input(position):
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    buf = np.array([3.0, 4.0])
    loss = (og.multiply(x, buf) if position == "y" else og.multiply(buf, x)).sum()
    buf[:] = -1.0
    loss.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])
    arr = np.array([0.5, 1.5])
    out = og.reshape(arr, [2, 1])
    arr[:] = 7.0
    np.testing.assert_array_equal(out.numpy().ravel(), [0.5, 1.5])


def test_an_array_seed_is_copied_too():
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    seed = np.array([1.0, 2.0])
    (x + 0.0).backward(seed)
    seed[:] = 0.0
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0])


def test_tensor_copies_and_from_numpy_shares():
    arr = np.array([1.0, 2.0])
    t = og.tensor(arr)
    s = og.from_numpy(arr)
    arr[0] = 9.0
    assert t.numpy()[0] == 1.0
    assert s.numpy()[0] == 9.0


def test_np_array_of_a_tensor_is_a_copy():
    t = og.tensor([1.0, 2.0])
    a = np.array(t)
    a[0] = 9.0
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])
    assert a.dtype == np.float32
    b = np.array(t, copy=True)
    assert not np.shares_memory(b, t.numpy())


def test_np_asarray_of_a_tensor_shares_memory_when_it_can():
    t = og.tensor([1.0, 2.0])
    assert np.shares_memory(np.asarray(t), t.numpy())
    assert np.shares_memory(np.array(t, copy=False), t.numpy())
    converted = np.asarray(t, dtype=np.float64)
    assert converted.dtype == np.float64 and not np.shares_memory(converted, t.numpy())


def test_copy_false_raises_when_a_copy_is_needed():
    t = og.tensor([1.0, 2.0])
    with pytest.raises(ValueError, match="copy=False"):
        np.array(t, dtype=np.float64, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        t.__array__(np.float64, copy=False)


def test_array_protocol_keeps_values_and_dtype():
    t = og.tensor([[1, 2], [3, 4]])
    np.testing.assert_array_equal(np.array(t), [[1, 2], [3, 4]])
    assert np.array(t, dtype=np.float32).dtype == np.float32


def test_an_index_array_or_tensor_is_not_read_after_the_caller_changes_it():
    for make in (np.array, og.tensor):
        x = og.tensor([1.0, 2.0, 3.0], dtype="float64", requires_grad=True)
        idx = make([0, 1])
        y = x[idx]
        with og.no_grad():
            idx[0] = 2
        y.sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0, 0.0])
    x = og.tensor([1.0, 2.0, 3.0], dtype="float64", requires_grad=True)
    mask = np.array([True, False, True])
    y = x[mask]
    mask[:] = False
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 0.0, 1.0])
