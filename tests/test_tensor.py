"""Tensor: creation, dtypes, properties, conversion and the errors for bad input."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from handmade_ops import mul, total


def test_python_floats_give_float32_ints_int64_bools_bool():
    assert og.tensor([[1.0, 2.0], [3.0, 4.0]]).dtype == og.float32
    assert og.tensor([1, 2]).dtype == og.int64
    assert og.tensor([True, False]).dtype == og.bool
    assert og.tensor([1, 2.5]).dtype == og.float32
    assert og.tensor(3.0).shape == ()


def test_numpy_arrays_keep_their_dtype_and_are_copied():
    arr = np.arange(4, dtype=np.float64)
    t = og.tensor(arr)
    assert t.dtype == og.float64
    arr[0] = 99
    assert t.numpy()[0] == 0
    shared = og.from_numpy(arr)
    arr[1] = 42
    assert shared.numpy()[1] == 42


def test_dtype_argument_accepts_strings_and_numpy_types():
    assert og.tensor([1, 2], dtype="float64").dtype == og.float64
    assert og.tensor([1, 2], dtype=np.float16).dtype == og.float16
    assert og.zeros((2,), dtype="int32").dtype == og.int32
    assert og.tensor([1.0], dtype="complex128").dtype == og.complex128
    with pytest.raises(TypeError, match="unsupported dtype 'uint16'"):
        og.tensor([1.0], dtype="uint16")


def test_properties_and_conversions():
    t = og.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and t.device == "cpu"
    assert t.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert isinstance(t.numpy(), np.ndarray)
    assert og.tensor([7.0]).item() == 7.0
    with pytest.raises(ValueError, match=r"only a tensor with one element.*shape \(2, 3\)"):
        t.item()
    assert "Tensor(" in repr(t) and "dtype=float32" in repr(t)
    r = repr(og.tensor([1.0], requires_grad=True))
    assert "requires_grad=True" in r


def test_creation_functions():
    assert og.zeros((2, 3)).numpy().tolist() == [[0.0] * 3] * 2
    assert og.ones(3).dtype == og.float32
    assert og.full((2,), 7).dtype == og.int64
    assert og.full((2,), 7.5).numpy().tolist() == [7.5, 7.5]
    assert og.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert og.arange(1, 2, 0.5).dtype == og.float32
    x = og.tensor(np.ones((2, 2), dtype=np.float64))
    assert og.zeros_like(x).dtype == og.float64 and og.ones_like(x).numpy().sum() == 4
    assert og.full_like(x, 3.0).numpy().sum() == 12.0
    assert og.zeros((2,), requires_grad=True).requires_grad


def test_manual_seed_makes_rand_and_randn_repeatable():
    og.manual_seed(123)
    a, b = og.rand((3,)), og.randn((2, 2))
    og.manual_seed(123)
    assert np.array_equal(a.numpy(), og.rand((3,)).numpy())
    assert np.array_equal(b.numpy(), og.randn((2, 2)).numpy())
    assert a.dtype == og.float32 and (a.numpy() >= 0).all() and (a.numpy() < 1).all()


def test_requires_grad_and_stop_gradient_are_negations():
    t = og.tensor([1.0])
    assert t.stop_gradient and not t.requires_grad
    t.stop_gradient = False
    assert t.requires_grad
    t.requires_grad = False
    assert t.stop_gradient
    assert og.tensor([1.0], stop_gradient=False).requires_grad


def test_requires_grad_only_on_floating_tensors_and_leaves():
    with pytest.raises(TypeError, match=r"only floating-point and complex tensors can require grad.*int64"):
        og.tensor([1, 2], requires_grad=True)
    x = og.tensor([1.0], requires_grad=True)
    y = mul(x, x)
    with pytest.raises(RuntimeError, match="only be changed on leaf tensors"):
        y.requires_grad = False


def test_detach_shares_memory_and_leaves_the_graph():
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
    y = mul(x, x)
    d = y.detach()
    assert not d.requires_grad and d.grad_fn is None
    assert np.shares_memory(d.numpy(), y.numpy())


def test_clear_grad_zeroes_or_drops():
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
    total(mul(x, x)).backward()
    x.clear_grad()
    assert x.grad.numpy().tolist() == [0.0, 0.0]
    total(mul(x, x)).backward()
    assert x.grad.numpy().tolist() == [2.0, 4.0]
    x.clear_grad(set_to_zero=False)
    assert x.grad is None


def test_grad_setter_checks_shape():
    x = og.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(ValueError, match=r"grad has shape \(3,\); the tensor has shape \(2,\)"):
        x.grad = og.tensor([1.0, 2.0, 3.0])


def test_ragged_lists_are_rejected_with_advice():
    with pytest.raises(ValueError, match="same length"):
        og.tensor([[1.0, 2.0], [3.0]])


def test_object_arrays_and_strings_are_rejected():
    with pytest.raises(TypeError, match="dtype object"):
        og.tensor(np.array([1, "a", None], dtype=object))
    with pytest.raises(TypeError, match="cannot make a tensor from str"):
        og.tensor("abc")
    with pytest.raises(TypeError, match="data holds a str"):
        og.tensor(["a", "b"])


def test_bad_shapes_for_creation():
    with pytest.raises(ValueError, match="negative dimension"):
        og.zeros((2, -1))
    with pytest.raises(TypeError, match="shape must be an int or a sequence of ints"):
        og.ones("x3")


def test_tensors_hash_by_identity_and_support_weakrefs():
    import weakref

    a, b = og.tensor([1.0]), og.tensor([1.0])
    assert len({a, b}) == 2
    assert weakref.ref(a)() is a


def test_indexing_every_axis_with_an_int_gives_a_0d_tensor_with_gradient():
    a = og.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    y = a[1, 2]
    assert y.shape == () and isinstance(y._data, np.ndarray) and y.item() == 5.0
    y.backward()
    np.testing.assert_allclose(a.grad.numpy(), [[0, 0, 0], [0, 0, 1]])
    b = a * 1
    v = og.tensor(np.array(2.0), requires_grad=True)
    b[1, 1] = v
    (b * b).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), 4.0)
