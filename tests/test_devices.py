"""Devices without a GPU: device names, backend lookup, moving arrays and tensors, and the
seeded generators, checked against a NumPy-backed stand-in for CuPy (a module named
`cupy` whose arrays are an ndarray subclass). It exercises opgrad's own device logic
(lazy loading, the device count check, `cuda:N` placement, gradients moving back); the
real CuPy kernels are covered by the GPU-marked tests."""

from __future__ import annotations

import pickle
import sys
import types

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import device, random
from opgrad.runtime.kernels import cuda as cuda_kernels
from opgrad.runtime.nn import Parameter
from opgrad.runtime.tensor import wrap
from opgrad.runtime.transfer import to_device


class StandInCuArray(np.ndarray):
    """What the stand-in's arrays are: NumPy memory tagged with a device index."""

    def __array_finalize__(self, obj):
        self.device_id = getattr(obj, "device_id", _current[0])

    @property
    def device(self):
        return types.SimpleNamespace(id=self.device_id)

    def get(self):
        return np.array(self)


StandInCuArray.__module__ = "cupy"  # what device._lookup looks at to load the backend lazily
_current = [0]


class _Device:
    def __init__(self, index):
        self.index = index

    def __enter__(self):
        self.previous, _current[0] = _current[0], self.index

    def __exit__(self, *exc):
        _current[0] = self.previous


class _Generator:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def standard_normal(self, shape):
        return self.rng.standard_normal(shape).view(StandInCuArray)

    def random(self, shape):
        return self.rng.random(shape).view(StandInCuArray)


def make_cupy(device_count: int) -> types.ModuleType:
    mod = types.ModuleType("cupy")
    mod.ndarray = StandInCuArray
    mod.cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDeviceCount=lambda: device_count), Device=_Device
    )
    mod.asarray = lambda a: np.array(a).view(StandInCuArray)
    mod.full = lambda shape, value, dtype: np.full(shape, value, dtype=dtype).view(StandInCuArray)
    mod.random = types.SimpleNamespace(default_rng=_Generator)
    return mod


@pytest.fixture
def fresh_device_state(monkeypatch):
    """Forget any earlier CuPy probe, and restore every global the probe sets."""
    monkeypatch.setattr(device, "_cupy", None)
    monkeypatch.setattr(device, "_cupyx", None)
    monkeypatch.setattr(device, "_cupy_checked", False)
    monkeypatch.setattr(device, "_cupy_error", "")
    monkeypatch.setattr(device, "_TYPES", dict(device._TYPES))
    monkeypatch.setattr(random, "_cupy_gen", None)
    registered = []
    monkeypatch.setattr(device, "_ON_CUPY", [lambda: registered.append(True)])
    return registered


def test_the_cuda_kernels_register_once_cupy_loads():
    assert cuda_kernels.register_cuda_kernels in device._ON_CUPY


@pytest.fixture
def gpu(fresh_device_state, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", make_cupy(2))
    return fresh_device_state


def test_cupy_with_no_device_is_unavailable_and_says_why(fresh_device_state, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", make_cupy(0))
    assert not og.cuda_available()
    with pytest.raises(
        RuntimeError, match="device 'cuda' is not available.*RuntimeError: CuPy found no CUDA device"
    ):
        og.zeros((2,), device="cuda")
    assert fresh_device_state == []  # no kernels registered for a backend that is not there


def test_a_failing_cupy_import_is_reported(fresh_device_state, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # import raises ImportError
    with pytest.raises(
        RuntimeError, match="install opgrad\\[cuda\\]\\); the import said: ModuleNotFoundError"
    ):
        device.require_cupy()


def test_the_backend_loads_once_and_registers_its_kernels(gpu):
    assert og.cuda_available() and og.cuda_available()
    assert device.require_cupy() is sys.modules["cupy"]
    assert gpu == [True]
    assert device.backend_of_type(StandInCuArray) == "cuda"


def test_a_cupy_array_made_outside_opgrad_loads_the_backend(gpu):
    arr = np.arange(3.0).view(StandInCuArray)
    assert device.device_of(arr) == "cuda:0"  # looked up before anything probed CuPy
    assert gpu == [True]
    assert wrap(arr).device == "cuda:0"


def test_tensors_are_placed_on_the_requested_gpu(gpu):
    x = og.tensor([1.0, 2.0], device="cuda:1")
    assert type(x._data) is StandInCuArray and x.device == "cuda:1"
    assert og.tensor([3.0], device="gpu").device == "cuda:0"  # Paddle's spelling
    z = og.zeros((2, 2), dtype="float64", device="cuda")
    assert z.device == "cuda:0" and z.dtype == og.float64 and z.numpy().tolist() == [[0.0, 0.0]] * 2
    back = og.tensor(x, device="cpu")
    assert type(back._data) is np.ndarray and back.numpy().tolist() == [1.0, 2.0]
    assert device.describe_array(x._data) == "cuda:1 (StandInCuArray)"


def test_random_tensors_on_the_gpu_follow_the_seed(gpu):
    og.manual_seed(7)
    a = og.randn((3,), device="cuda")
    og.manual_seed(7)
    b = og.randn((3,), device="cuda")
    c = og.rand((3,), device="cuda")
    assert a.device == "cuda:0" and c.device == "cuda:0"
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(a.numpy(), np.random.default_rng(7).standard_normal(3).astype(np.float32))
    assert np.all((c.numpy() >= 0) & (c.numpy() < 1))


def test_moving_a_tensor_there_and_back_carries_the_gradient_back(gpu):
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    assert to_device(x, "cpu") is x  # already there: the same tensor
    y = x.to("cuda")
    assert y.device == "cuda:0" and y.grad_fn is not None and y.grad_fn.name == "to_device_grad"
    seed = wrap(np.array([3.0, 4.0]).view(StandInCuArray))
    (gx,) = og.grad([y], [x], [seed])
    assert gx.device == "cpu" and gx.numpy().tolist() == [3.0, 4.0]
    with og.no_grad():
        assert x.to("cuda").grad_fn is None
    assert x.cuda(1).device == "cuda:1" and x.cuda().cpu().device == "cpu"


def test_a_gpu_parameter_pickles_back_onto_the_gpu(gpu):
    p = Parameter(og.tensor([1.0, -1.0], device="cuda:1"))
    q = pickle.loads(pickle.dumps(p))
    assert isinstance(q, Parameter) and q.requires_grad
    assert q.device == "cuda:1"  # rebuilt on the GPU it came from
    assert q.numpy().tolist() == [1.0, -1.0]


def test_modules_move_their_parameters_in_place(gpu):
    lin = og.nn.Linear(2, 3)
    weight = lin.weight
    lin.cuda()
    assert lin.weight is weight and weight.device == "cuda:0" and lin.bias.device == "cuda:0"
    lin.cpu()
    assert weight.device == "cpu"


# -- without the stand-in ------------------------------------------------------------------------
def test_normalize_device_spellings():
    assert device.normalize_device(" CPU ") == "cpu"
    assert device.normalize_device("cuda") == "cuda:0"
    assert device.normalize_device("gpu:3") == "cuda:3"
    assert device.normalize_device("cuda:12") == "cuda:12"
    for bad in ("cuda:x", "cuda:-1", "tpu", "", None):
        with pytest.raises(ValueError, match="unknown device .*expected 'cpu', 'cuda' or 'cuda:N'"):
            device.normalize_device(bad)


class Pretend(np.ndarray):
    """A registered stand-in backend's arrays."""


class PretendChild(Pretend):
    pass


@pytest.fixture
def pretend(monkeypatch):
    monkeypatch.setattr(device, "_TYPES", dict(device._TYPES))
    device.register_backend("pretend", Pretend)
    return Pretend


def test_registered_backends_and_their_subclasses(pretend):
    assert device.normalize_device("pretend") == "pretend"
    assert device.backend_of_type(PretendChild) == "pretend"
    assert device.device_of(np.zeros(1).view(PretendChild)) == "pretend"
    assert device.module_of_type(Pretend) is np
    assert device.module_of_type(PretendChild) is None  # only exact types have a module entry
    device.unregister_backend(Pretend)
    assert device.backend_of_type(PretendChild) == "cpu"  # now just an ndarray subclass
    device.unregister_backend(Pretend)  # twice is harmless


def test_moving_to_the_cpu_copies_only_foreign_arrays(pretend):
    plain = np.arange(3.0)
    assert device.move_array(plain, "cpu") is plain
    moved = device.move_array(plain.view(Pretend), "cpu")
    assert type(moved) is np.ndarray and not np.shares_memory(moved, plain)
    with pytest.raises(
        ValueError, match="cannot move an array to device 'pretend'; expected 'cpu' or 'cuda:N'"
    ):
        device.move_array(plain, "pretend")


def test_unknown_array_types_are_named():
    with pytest.raises(TypeError, match="probe: unsupported array type builtins.list"):
        device.backend_of_type(list, "probe")
    with pytest.raises(TypeError, match="^unsupported array type builtins.str"):
        device.backend_of_type(str)


def test_manual_seed_needs_an_int():
    for bad in (1.5, "3", True, None):
        with pytest.raises(TypeError, match="manual_seed: seed must be an int"):
            og.manual_seed(bad)
    og.manual_seed(np.int64(3))
    first = og.rand((2,)).numpy()
    og.manual_seed(3)
    np.testing.assert_array_equal(og.rand((2,)).numpy(), first)


def test_a_gpu_state_dict_loads_into_a_cpu_module(gpu):
    src = og.nn.Linear(2, 3).cuda()
    dst = og.nn.Linear(2, 3)
    version = dst.weight._version
    dst.load_state_dict(src.state_dict())
    assert type(dst.weight._data) is np.ndarray and dst.weight.device == "cpu"
    np.testing.assert_array_equal(dst.weight.numpy(), src.weight.numpy())
    assert dst.weight._version == version + 1  # the write is recorded
