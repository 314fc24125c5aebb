"""The Tensor class's own API (runtime/tensor.py) beyond test_tensor.py: Python conversions
and protocols, repr, copies, the autograd fields' setters and their errors, hooks' argument
checks, and how operands that are not tensors are converted."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.tensor import as_tensor_arg, tensors_of


class Sub(np.ndarray):
    """An ndarray subclass, as a user's array type might be."""


def _sub_tensor(values, dtype=np.float64) -> og.Tensor:
    t = og.tensor(np.asarray(values, dtype=dtype).view(Sub))  # og.tensor keeps the array's class
    assert type(t._data) is Sub
    return t


def test_size_numel_and_inplace_version():
    x = og.tensor(np.zeros((2, 3)))
    assert x.size == 6 and x.numel() == 6 and isinstance(x.size, int)
    assert x.inplace_version == 0
    x.add_(og.tensor(1.0, dtype="float64"))
    assert x.inplace_version == 1 == x._version


def test_numpy_and_array_protocol_give_plain_ndarrays_for_a_subclass():
    t = _sub_tensor([1.0, 2.0])
    arr = t.numpy()
    assert type(arr) is np.ndarray and np.shares_memory(arr, t._data)
    shared = np.asarray(t)
    assert type(shared) is np.ndarray and np.shares_memory(shared, t._data)
    copied = np.array(t)
    assert type(copied) is np.ndarray and not np.shares_memory(copied, t._data)
    np.testing.assert_array_equal(copied, [1.0, 2.0])


def test_array_protocol_dtype_conversion_copies_and_copy_false_refuses_it():
    t = og.tensor([1.5, 2.5], dtype="float64")
    as32 = t.__array__(np.float32)
    assert as32.dtype == np.float32 and not np.shares_memory(as32, t.numpy())
    np.testing.assert_array_equal(as32, [1.5, 2.5])
    same = t.__array__(np.float64, copy=False)
    assert np.shares_memory(same, t.numpy())
    with pytest.raises(ValueError, match="converting a tensor of dtype float64 to float32 needs a copy"):
        t.__array__(np.float32, copy=False)


def test_python_number_conversions():
    assert int(og.tensor([7.9])) == 7
    assert float(og.tensor(2, dtype="int64")) == 2.0
    assert math.floor(og.tensor(2.5, dtype="float64").item()) == 2
    assert [10, 20, 30][og.tensor(1, dtype="int64")] == 20  # __index__
    with pytest.raises(TypeError, match="only integer tensors can be used as an index, this one is float32"):
        [1, 2][og.tensor(1.0)]
    assert bool(og.tensor([0.0])) is False and bool(og.tensor(3.0)) is True
    with pytest.raises(ValueError, match="truth value of a tensor with 2 elements is ambiguous"):
        bool(og.tensor([1.0, 1.0]))
    with pytest.raises(ValueError, match=r"only a tensor with one element .* shape \(2,\)"):
        og.tensor([1.0, 2.0]).item()


def test_len_and_iteration_follow_the_first_axis():
    x = og.tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
    assert len(x) == 3
    rows = list(x)
    assert [r.numpy().tolist() for r in rows] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    (rows[0].sum() + 2 * rows[2].sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]])
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(og.tensor(1.0))
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        list(og.tensor(1.0))


def test_repr_says_dtype_and_how_the_tensor_takes_part_in_autograd():
    plain = og.tensor([1.0, 2.0])
    assert repr(plain) == "Tensor([1., 2.], dtype=float32)"
    leaf = og.tensor([1.0], requires_grad=True)
    assert repr(leaf) == "Tensor([1.], dtype=float32, requires_grad=True)"
    out = leaf * 2.0
    assert repr(out).startswith("Tensor([2.], dtype=float32, grad_fn=<") and "requires_grad" not in repr(out)


def test_deepcopy_of_a_leaf_copies_values_grad_and_name():
    x = og.tensor([1.0, 2.0], requires_grad=True)
    (x * 3.0).sum().backward()
    x.name = "weight"
    y = copy.deepcopy(x)
    assert y.requires_grad and y.is_leaf and y.name == "weight"
    assert not np.shares_memory(y.numpy(), x.numpy())
    assert not np.shares_memory(y.grad.numpy(), x.grad.numpy())
    np.testing.assert_array_equal(y.grad.numpy(), [3.0, 3.0])
    (y * 2.0).sum().backward()  # the copy's .grad is its own: it accumulates without touching x's
    np.testing.assert_array_equal(y.grad.numpy(), [5.0, 5.0])
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    plain = copy.deepcopy(og.tensor([4.0]))
    assert plain.grad is None and plain.name is None and not plain.requires_grad


def test_to_converts_dtype_only_when_it_differs_and_is_differentiable():
    x = og.tensor([1.0, 2.0], requires_grad=True)
    assert x.to(dtype="float32") is x
    assert x.to() is x
    y = x.to(dtype="float64")
    assert y.dtype == np.float64 and y.grad_fn is not None
    (y * y).sum().backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])
    assert x.cpu().device == "cpu"


def test_requires_grad_on_a_non_leaf_can_be_confirmed_but_not_cleared():
    x = og.tensor([1.0], requires_grad=True)
    y = x * 2.0
    y.requires_grad = True  # already true: nothing changes
    assert y.requires_grad and y.grad_fn is not None
    with pytest.raises(
        RuntimeError, match="requires_grad can only be changed on leaf tensors; .* Use .detach"
    ):
        y.requires_grad = False
    with pytest.raises(RuntimeError, match="only be changed on leaf tensors"):
        y.stop_gradient = True
    z = og.tensor([1.0])
    assert z.requires_grad_() is z and z.requires_grad
    assert z.requires_grad_(False) is z and not z.requires_grad
    with pytest.raises(
        TypeError, match="only floating-point and complex tensors can require grad, this one is int64"
    ):
        og.tensor([1]).requires_grad_()


def test_grad_setter_checks_type_dtype_and_device_and_accepts_none():
    x = og.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(TypeError, match="grad must be a Tensor or None, got ndarray"):
        x.grad = np.zeros(2, dtype=np.float32)
    with pytest.raises(TypeError, match="grad has dtype float64; the tensor has dtype float32"):
        x.grad = og.tensor([1.0, 1.0], dtype="float64")
    with pytest.raises(TypeError, match="grad holds a Sub array; the tensor holds a ndarray array"):
        x.grad = _sub_tensor([1.0, 1.0], np.float32)
    assert x.grad is None
    g = og.tensor([5.0, 6.0])
    x.grad = g
    assert x.grad is g
    (x * 1.0).sum().backward()  # a .grad the user set is not written in place
    np.testing.assert_array_equal(g.numpy(), [5.0, 6.0])
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 7.0])
    x.grad = None
    assert x.grad is None


def test_hook_registration_checks_its_arguments():
    x = og.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match="register_hook: hook must be callable, got int"):
        x.register_hook(3)
    with pytest.raises(RuntimeError, match="register_hook: this tensor does not require grad"):
        og.tensor([1.0]).register_hook(lambda g: None)
    with pytest.raises(TypeError, match="register_post_accumulate_grad_hook: hook must be callable, got str"):
        x.register_post_accumulate_grad_hook("f")
    with pytest.raises(RuntimeError, match="only a leaf accumulates into .grad"):
        (x * 2.0).register_post_accumulate_grad_hook(lambda t: None)
    with pytest.raises(
        RuntimeError, match="this tensor does not require grad, so no gradient will be accumulated"
    ):
        og.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None)


def test_two_post_accumulate_hooks_share_the_table_and_are_removed_one_by_one():
    x = og.tensor([1.0], requires_grad=True)
    seen = []
    h1 = x.register_post_accumulate_grad_hook(lambda t: seen.append(("a", t.grad.item())))
    x.register_post_accumulate_grad_hook(lambda t: seen.append(("b", t.grad.item())))
    (x * 2.0).sum().backward()
    h1.remove()
    (x * 2.0).sum().backward()
    assert seen == [("a", 2.0), ("b", 2.0), ("b", 4.0)]


def test_retain_grads_twice_and_on_a_leaf():
    x = og.tensor([1.0], requires_grad=True)
    x.retain_grads()  # a leaf keeps its gradient anyway
    y = x * 3.0
    y.retain_grads()
    y.retain_grads()
    (y * y).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [6.0])
    np.testing.assert_array_equal(x.grad.numpy(), [18.0])
    with pytest.raises(RuntimeError, match="retain_grads\\(\\) on a tensor that does not require grad"):
        og.tensor([1.0]).retain_grads()


def test_clear_grad_without_a_grad_and_zero_grad():
    x = og.tensor([1.0, 2.0], requires_grad=True)
    x.clear_grad()
    assert x.grad is None
    (x * 2.0).sum().backward()
    held = x.grad
    x.clear_gradient()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(held.numpy(), [2.0, 2.0])  # the old .grad is not written
    x.zero_grad()
    assert x.grad is None


def test_reflected_power_and_transpose():
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    y = 2.0**x
    np.testing.assert_allclose(y.numpy(), [2.0, 4.0])
    assert og.testing.gradcheck(lambda t: 3.0**t, [x])
    assert og.testing.gradcheck(lambda t: t ** og.tensor([2.0, 3.0], dtype="float64"), [x])
    m = og.tensor(np.arange(24.0).reshape(2, 3, 4))
    np.testing.assert_array_equal(m.T.numpy(), np.arange(24.0).reshape(2, 3, 4).T)


def test_operands_that_are_not_tensors_are_converted_to_the_tensors_dtype_or_their_own():
    like = og.tensor([1.0], dtype="float32")
    assert as_tensor_arg(2, like, "op", "y").dtype == np.float32
    # a NumPy scalar never widens a tensor (docs/dtypes.md), as a Python one does not
    assert as_tensor_arg(np.float64(2.0), like, "op", "y").dtype == np.float32
    assert as_tensor_arg(og.tensor([1]).__class__(np.array([1])), None, "op", "y").dtype == np.int64
    assert as_tensor_arg(True, None, "op", "y").dtype == np.bool_
    assert as_tensor_arg(np.bool_(True), None, "op", "y").dtype == np.bool_
    assert as_tensor_arg(3, None, "op", "y").dtype == np.int64
    assert as_tensor_arg(3.0, None, "op", "y").dtype == np.float32
    assert as_tensor_arg(np.int8(3), None, "op", "y").dtype == np.int8
    arr = np.array([1.0, 2.0])
    t = as_tensor_arg(arr, None, "op", "y")
    assert not np.shares_memory(t.numpy(), arr)
    with pytest.raises(
        TypeError, match="op: argument 'y' is a NumPy array of dtype object; expected numbers"
    ):
        as_tensor_arg(np.array([1, "a"], dtype=object), None, "op", "y")
    with pytest.raises(
        TypeError,
        match=r"op: argument 'y' must be a Tensor \(or a Python number / NumPy array / list\), got str",
    ):
        as_tensor_arg("1", like, "op", "y")
    with pytest.raises(TypeError, match="add: argument 'y' must be a Tensor"):
        og.add(like, {1.0})
    assert og.add(like, [1.0]).tolist() == [2.0]  # a (nested) list is read as og.tensor reads it
    with pytest.raises(TypeError, match="add: data holds a str"):
        og.add(like, ["a"])


def test_tensor_list_arguments_convert_numbers_and_refuse_other_containers():
    a = og.tensor([1.0, 2.0], dtype="float64")
    out = og.concat([a, np.array([3.0]), og.tensor([4.0], dtype="float64")], axis=0)
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0, 3.0, 4.0])
    mixed = tensors_of([2, a], "op", "xs")
    assert mixed[0].dtype == np.float64 and mixed[1] is a
    with pytest.raises(
        TypeError, match="concat: argument 'x' must be a list or tuple of Tensors, got Tensor"
    ):
        og.concat(a, axis=0)
    with pytest.raises(TypeError, match="op: argument 'xs' must be a list or tuple of Tensors, got set"):
        tensors_of({a}, "op", "xs")
    with pytest.raises(ValueError, match="op: argument 'xs' must not be empty"):
        tensors_of([], "op", "xs")
    with pytest.raises(TypeError, match=r"op: argument 'xs\[1\]' must be a Tensor"):
        tensors_of([a, "b"], "op", "xs")


def test_the_constructor_takes_requires_grad_and_checks_the_dtype():
    x = og.Tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    assert x.requires_grad and x.is_leaf and x.dtype == np.float64
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])
    with pytest.raises(
        TypeError, match="only floating-point and complex tensors can require grad, this one is int64"
    ):
        og.Tensor([1, 2], requires_grad=True)


def test_a_hook_on_a_non_leaf_replaces_its_gradient_and_its_handle_removes_it():
    x = og.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    handle = y.register_hook(lambda g: g * 10.0)
    y.sum().backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 20.0])
    handle.remove()
    x.grad = None
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
