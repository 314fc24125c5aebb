"""DLPack both ways (NumPy, PyTorch, CuPy's dispatch on CPU) and watched shared memory."""

from __future__ import annotations

import types

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import device
from opgrad.runtime.dlpack import Watched


def test_from_dlpack_numpy_shares_memory_both_ways():
    a = np.arange(6.0).reshape(2, 3)
    t = og.from_dlpack(a)
    assert t.shape == (2, 3) and t.dtype == np.float64
    a[1, 2] = 42.0
    assert t.numpy()[1, 2] == 42.0
    t[0, 0] = 1.5  # an opgrad write is seen by NumPy
    assert a[0, 0] == 1.5


def test_numpy_from_dlpack_of_a_tensor_is_zero_copy():
    t = og.arange(5).astype("float32")
    a = np.from_dlpack(t)
    assert np.shares_memory(a, t.numpy())
    assert t.__dlpack_device__() == (1, 0)


def test_from_dlpack_refuses_non_dlpack_and_unsupported_devices():
    with pytest.raises(TypeError, match="from_dlpack: expected an object with __dlpack__"):
        og.from_dlpack([1, 2])

    class OnOpenCL:
        def __dlpack__(self, **kw):
            raise AssertionError("never asked")

        def __dlpack_device__(self):
            return (4, 0)

    with pytest.raises(ValueError, match="DLPack device type 4"):
        og.from_dlpack(OnOpenCL())
    with pytest.raises(TypeError, match="from_dlpack: dtype"):
        og.from_dlpack(np.zeros(2, dtype=np.uint16))


def test_export_refuses_a_tensor_that_requires_grad():
    w = og.ones((2,), requires_grad=True)
    with pytest.raises(RuntimeError, match=r"requires grad.*detach"):
        np.from_dlpack(w)
    assert np.from_dlpack(w.detach()).shape == (2,)


def test_foreign_write_after_save_is_caught_at_backward():
    a = np.array([1.0, 2.0, 3.0])
    x = og.from_dlpack(a)
    w = og.tensor([1.0, 1.0, 1.0], dtype="float64", requires_grad=True)
    loss = (w * x).sum()  # saves x for w's gradient
    a[0] = 100.0  # NumPy writes through its view
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        loss.backward()


def test_foreign_write_through_an_exported_view_is_caught():
    x = og.tensor([1.0, 2.0], dtype="float64")
    w = og.tensor([3.0, 4.0], dtype="float64", requires_grad=True)
    loss = (w * x).sum()  # x saved at version 0, before it was exported
    view = np.from_dlpack(x)
    view[1] = -1.0
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        loss.backward()


def test_from_numpy_is_watched_and_untouched_memory_still_works():
    a = np.array([1.0, 2.0])
    x = og.from_numpy(a)
    assert isinstance(x._vc, Watched)
    w = og.tensor([3.0, 4.0], dtype="float64", requires_grad=True)
    (w * x).sum().backward()  # nothing written: the gradient is x
    np.testing.assert_array_equal(w.grad.numpy(), a)
    assert x._version == 0
    a[0] = 5.0
    assert x._version == 1  # the foreign write counts as one version


def test_opgrad_in_place_write_on_watched_memory_raises_the_version():
    a = np.zeros(3)
    x = og.from_dlpack(a)
    x[0] = 1.0  # opgrad's own write (it may count as two: the checksum sees it too)
    v = x._version
    assert v >= 1 and a[0] == 1.0
    assert x._version == v  # reading again without a write changes nothing


def test_saved_output_exported_later_is_watched():
    w = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    y = og.exp(w)  # exp saves its output
    loss = y.sum()
    view = np.from_dlpack(y.detach())
    view[0] = 0.0
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        loss.backward()


def test_torch_both_ways():
    torch = pytest.importorskip("torch")
    tt = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    t = og.from_dlpack(tt)
    assert t.shape == (2, 3) and t.dtype == np.float32
    tt[0, 0] = 7.0
    assert t.numpy()[0, 0] == 7.0
    back = torch.from_dlpack(og.arange(4).astype("float64"))
    assert back.dtype == torch.float64 and back.tolist() == [0.0, 1.0, 2.0, 3.0]
    src = og.zeros((3,), dtype="float32")
    tv = torch.from_dlpack(src)
    tv[2] = 5.0
    assert src.numpy()[2] == 5.0
    w = og.ones((3,), requires_grad=True)
    loss = (w * src).sum()
    tv[0] = 1.0  # torch writes after opgrad saved src
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        loss.backward()


def test_cuda_memory_goes_through_cupy_from_the_device_registry(monkeypatch):
    """The CUDA path on a machine without a GPU: a stand-in CuPy module receives the call."""

    class FakeGpuArray(np.ndarray):
        pass

    calls = []

    def fake_from_dlpack(obj):
        calls.append(obj)
        return np.zeros(3, dtype=np.float32).view(FakeGpuArray)

    fake = types.SimpleNamespace(from_dlpack=fake_from_dlpack)
    monkeypatch.setattr(device, "require_cupy", lambda: fake)
    device.register_backend("fakecuda", FakeGpuArray)
    try:

        class OnCuda:
            def __dlpack__(self, **kw):
                raise AssertionError("CuPy reads it, not NumPy")

            def __dlpack_device__(self):
                return (2, 0)

        src = OnCuda()
        t = og.from_dlpack(src)
        assert calls == [src]
        assert type(t._data) is FakeGpuArray and t.device == "fakecuda"
    finally:
        device.unregister_backend(FakeGpuArray)


def test_without_cupy_cuda_memory_gives_the_registry_error(monkeypatch):
    monkeypatch.setattr(device, "_cupy_checked", True)
    monkeypatch.setattr(device, "_cupy", None)

    class OnCuda:
        def __dlpack__(self, **kw):
            raise AssertionError

        def __dlpack_device__(self):
            return (2, 0)

    with pytest.raises(RuntimeError, match="device 'cuda' is not available"):
        og.from_dlpack(OnCuda())


def test_cupy_round_trip_on_a_gpu():
    if not og.cuda_available():
        pytest.skip("no CUDA GPU")
    cp = device.require_cupy()
    a = cp.arange(4, dtype=cp.float32)
    t = og.from_dlpack(a)
    a[0] = 9
    assert t.numpy()[0] == 9
    assert cp.from_dlpack(t).shape == (4,)
