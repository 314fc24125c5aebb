"""Saved tensors are version-checked: an in-place write between forward and backward raises."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import tensor_wrapper
from opgrad.runtime.tensor_wrapper import TensorWrapper, unpack, unpack_data

STALE = "modified by an in-place operation"


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def test_parameter_saved_at_version_0_then_stepped_before_backward_raises():
    w = og.nn.Parameter(og.tensor([1.0, 2.0]))
    x = og.tensor([3.0, 4.0])
    loss = og.sum(og.multiply(w, x))
    opt = og.optim.SGD([w], lr=0.1)
    og.sum(og.multiply(w, w)).backward()  # some other loss filled w.grad
    opt.step()  # the classic mistake: step between forward and backward
    with pytest.raises(RuntimeError, match=r"argument 'x'.*saved at version 0 and is now at version 1"):
        loss.backward()


def test_parameter_saved_at_version_1_then_stepped_raises_with_both_versions():
    w = og.nn.Parameter(og.tensor([1.0, 2.0]))
    opt = og.optim.SGD([w], lr=0.1)
    og.sum(og.multiply(w, w)).backward()
    opt.step()
    loss = og.sum(og.multiply(w, og.tensor([3.0, 4.0])))
    opt.step()
    with pytest.raises(RuntimeError, match="saved at version 1 and is now at version 2"):
        loss.backward()


def test_parameter_stepped_after_backward_is_fine():
    w = og.nn.Parameter(og.tensor([1.0, 2.0]))
    opt = og.optim.SGD([w], lr=0.5)
    loss = og.sum(og.multiply(w, og.tensor([3.0, 4.0])))
    loss.backward()
    opt.step()
    np.testing.assert_allclose(w.numpy(), [1.0 - 1.5, 2.0 - 2.0])


def test_saved_output_written_in_place_raises():
    x = leaf([0.0, 1.0])
    y = og.exp(x)  # saves y itself
    z = og.sum(y)
    y.multiply_(og.tensor([2.0, 2.0]))
    with pytest.raises(RuntimeError, match=r"ExpGradNode.*argument 'out'.*saved at version 0"):
        z.backward()


def test_saved_output_of_an_in_place_op_is_checked_against_its_counter():
    x = leaf([0.0, 1.0])
    y = og.multiply(x, og.tensor([1.0, 1.0]))
    y.exp_()  # y's counter is now 1; exp_ saved y at version 1
    loss = og.sum(y)
    loss.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]))
    y.multiply_(og.tensor([3.0, 3.0]))
    with pytest.raises(RuntimeError, match="saved at version 1 and is now at version 2"):
        loss.backward()


def test_writing_a_view_bumps_the_version_its_base_was_saved_at():
    x = leaf([1.0, 2.0, 3.0])
    base = og.multiply(x, og.tensor([1.0, 1.0, 1.0]))
    y = og.multiply(base, base)
    view = base[0:2]
    with og.no_grad():
        view.multiply_(og.tensor([5.0, 5.0]))
    assert base._version == 1
    with pytest.raises(RuntimeError, match=STALE):
        og.sum(y).backward()


def test_version_checked_during_double_backward_after_an_in_place_write():
    x = leaf([1.0, 2.0])
    h = og.multiply(x, og.tensor([1.0, 1.0]))
    y = og.multiply(og.multiply(h, h), h)  # h**3
    (gh,) = og.grad(og.sum(y), [h], create_graph=True)
    np.testing.assert_allclose(gh.numpy(), [3.0, 12.0])
    h.multiply_(og.tensor([2.0, 2.0]))  # gh's graph saved h
    with pytest.raises(RuntimeError, match=STALE):
        og.sum(gh).backward()


def test_saved_output_rebuilt_under_create_graph_counts_versions_with_the_output():
    x = leaf([0.0, 1.0])
    y = og.exp(x)
    (gx,) = og.grad(og.sum(y), [x], create_graph=True)  # gx's graph holds y rebuilt from the save
    np.testing.assert_allclose(gx.numpy(), np.exp([0.0, 1.0]))
    y.multiply_(og.tensor([2.0, 2.0]))
    with pytest.raises(RuntimeError, match=STALE):
        og.sum(gx).backward()


def test_create_graph_after_an_in_place_write_before_the_save_is_fine():
    x = leaf([1.0, 2.0])
    h = og.multiply(x, og.tensor([1.0, 1.0]))
    h.multiply_(og.tensor([2.0, 2.0]))  # version 1 before anything saves it
    y = og.multiply(h, h)
    (gx,) = og.grad(og.sum(y), [x], create_graph=True)
    np.testing.assert_allclose(gx.numpy(), [8.0, 16.0])
    (ggx,) = og.grad(og.sum(gx), [x])
    np.testing.assert_allclose(ggx.numpy(), [8.0, 8.0])


def test_unpack_and_unpack_data_check_an_input_saved_at_version_0():
    t = og.tensor([1.0, 2.0])
    node = og.multiply(leaf([1.0, 1.0]), t).grad_fn
    saved = TensorWrapper.of_input(t)
    assert saved is t  # version 0, exact Tensor: kept as is
    assert unpack(saved, node) is t
    assert unpack_data(saved, node) is t._data
    t.multiply_(og.tensor([2.0, 2.0]))
    with pytest.raises(RuntimeError, match="saved at version 0 and is now at version 1"):
        unpack(saved, node)
    with pytest.raises(RuntimeError, match="saved at version 0 and is now at version 1"):
        unpack_data(saved, node)


def test_unpack_and_unpack_data_check_an_input_saved_at_a_later_version():
    t = og.tensor([1.0, 2.0])
    t.multiply_(og.tensor([2.0, 2.0]))
    node = og.multiply(leaf([1.0, 1.0]), t).grad_fn
    saved = TensorWrapper.of_input(t)
    assert saved is not t
    assert unpack(saved, node) is t
    np.testing.assert_array_equal(unpack_data(saved, node), [2.0, 4.0])
    t.multiply_(og.tensor([2.0, 2.0]))
    for read in (unpack, unpack_data):
        with pytest.raises(RuntimeError, match="saved at version 1 and is now at version 2"):
            read(saved, node)


def test_a_parameter_is_saved_in_a_wrapper_and_checked():
    p = og.nn.Parameter(og.tensor([1.0, 2.0]))
    node = og.multiply(p, p).grad_fn
    saved = TensorWrapper.of_input(p)
    assert saved is not p  # not the exact Tensor class: wrapped
    assert unpack(saved, node) is p
    with og.no_grad():
        p.multiply_(og.tensor([2.0, 2.0]))
    with pytest.raises(RuntimeError, match="saved at version 0 and is now at version 1"):
        unpack_data(saved, node)


def test_unpack_data_of_a_saved_output_checks_its_version():
    x = leaf([0.0, 1.0])
    y = og.exp(x)
    saved = y.grad_fn.out
    np.testing.assert_array_equal(unpack_data(saved, y.grad_fn), np.exp([0.0, 1.0]))
    rebuilt = unpack(saved, y.grad_fn)
    assert rebuilt.grad_fn is y.grad_fn and rebuilt.requires_grad
    y.multiply_(og.tensor([2.0, 2.0]))
    for read in (unpack, unpack_data):
        with pytest.raises(RuntimeError, match="saved at version 0 and is now at version 1"):
            read(saved, y.grad_fn)


def test_hooked_saved_data_is_unpacked_through_the_hook_and_checked():
    x = leaf([1.0, 2.0])
    t = og.tensor([3.0, 4.0])
    with og.autograd.saved_tensors_hooks(lambda v: v.numpy().copy(), lambda a: og.tensor(a * 10)):
        node = og.multiply(x, t).grad_fn
        saved = TensorWrapper.of_input(t)
    np.testing.assert_array_equal(unpack_data(saved, node), [30.0, 40.0])
    t.multiply_(og.tensor([2.0, 2.0]))
    with pytest.raises(RuntimeError, match="saved at version 0 and is now at version 1"):
        unpack_data(saved, node)


def test_no_need_buffer_meta_is_shared_and_describes_the_tensor():
    a = og.tensor(np.zeros((2, 3), dtype="float32"))
    b = og.tensor(np.ones((2, 3), dtype="float32"))
    meta = TensorWrapper.meta_of(a)
    assert TensorWrapper.meta_of(b) is meta
    other = TensorWrapper.meta_of(og.tensor(np.zeros((5,), dtype="float32")))
    assert other is not meta and TensorWrapper.meta_of(a) is meta  # one object per key, kept
    assert meta.shape == (2, 3) and meta.dtype == np.float32 and meta.device == "cpu"
    assert meta.ndim == 2 and meta.size == 6
    assert meta.matches(b._data) and not meta.matches(np.zeros((3, 2), dtype="float32"))
    assert not meta.matches(np.zeros((2, 3), dtype="float64"))
    assert unpack(meta, None) is meta and unpack_data(meta, None) is meta
    assert TensorWrapper.meta_of(og.tensor(np.zeros((2, 3)))) is not meta


def test_tensor_meta_from_a_device_string():
    meta = og.autograd.TensorMeta([2, 0], np.dtype("float64"))
    assert meta.shape == (2, 0) and meta.size == 0 and meta.device == "cpu"
    assert meta.matches(np.zeros((2, 0)))  # a device string matches any array type
    assert repr(meta) == "TensorMeta(shape=(2, 0), dtype=float64, device='cpu')"
    assert meta.describe() == "shape (2, 0), dtype float64, device cpu"


def test_the_no_need_buffer_metadata_cache_is_bounded():
    for n in range(tensor_wrapper._METAS_MAX + 10):
        TensorWrapper.meta_of(og.tensor(np.zeros((1, n))))
    assert 0 < len(tensor_wrapper._METAS) <= tensor_wrapper._METAS_MAX
