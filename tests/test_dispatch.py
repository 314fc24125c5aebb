"""Kernel registry and device dispatch, including a NumPy-backed stand-in backend."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import device
from opgrad.runtime.kernels import registry
from opgrad.runtime.tensor import wrap


class FakeArray(np.ndarray):
    """Arrays of a pretend accelerator: NumPy memory, their own backend name."""


@pytest.fixture
def fake_backend():
    device.register_backend("fake", FakeArray)
    calls = []

    @registry.register_kernel("dispatch_probe", backends=("cpu",))
    def probe_cpu(x):
        calls.append("cpu")
        return x + 1

    @registry.register_kernel("dispatch_probe", backends=("fake",))
    def probe_fake(x):
        calls.append("fake")
        return (np.asarray(x) + 2).view(FakeArray)

    yield calls
    device.unregister_backend(FakeArray)
    registry.unregister_kernel("dispatch_probe", ("cpu", "fake"))


def test_dispatch_picks_the_kernel_of_the_inputs_device(fake_backend):
    cpu = np.zeros(3)
    fake = np.zeros(3).view(FakeArray)
    assert registry.dispatch("probe", "dispatch_probe", cpu)(cpu).tolist() == [1, 1, 1]
    assert registry.dispatch("probe", "dispatch_probe", fake)(fake).tolist() == [2, 2, 2]
    assert fake_backend == ["cpu", "fake"]
    assert wrap(fake).device == "fake"


def test_mixed_devices_raise_naming_op_and_devices(fake_backend):
    cpu = np.zeros(3)
    fake = np.zeros(3).view(FakeArray)
    with pytest.raises(
        RuntimeError, match=r"probe: all tensor arguments must be on the same device.*cpu.*fake"
    ):
        registry.dispatch("probe", "dispatch_probe", cpu, fake)


def test_generic_kernel_serves_a_registered_backend(fake_backend):
    registry.register_kernel("dispatch_generic", backends=("cpu", "fake"))(lambda x: x * 3)
    try:
        fake = np.ones(2).view(FakeArray)
        assert registry.dispatch("g", "dispatch_generic", fake)(fake).tolist() == [3, 3]
    finally:
        registry.unregister_kernel("dispatch_generic", ("cpu", "fake"))


def test_missing_kernel_names_the_kernel_and_its_backends(fake_backend):
    fake = np.zeros(1).view(FakeArray)
    registry.register_kernel("cpu_only_probe", backends=("cpu",))(lambda x: x)
    try:
        with pytest.raises(
            NotImplementedError, match=r"kernel 'cpu_only_probe' has no 'fake'.*registered for: cpu"
        ):
            registry.dispatch("cpu_only_probe", "cpu_only_probe", fake)
    finally:
        registry.unregister_kernel("cpu_only_probe", ("cpu",))
    with pytest.raises(NotImplementedError, match="no kernel named 'nope'"):
        registry.lookup("nope", "cpu")


def test_none_arrays_are_skipped_for_optional_inputs():
    registry.register_kernel("optional_probe", backends=("cpu",))(lambda x, b: x if b is None else x + b)
    try:
        x = np.ones(2)
        assert registry.dispatch("o", "optional_probe", x, None)(x, None).tolist() == [1, 1]
    finally:
        registry.unregister_kernel("optional_probe", ("cpu",))


@pytest.mark.skipif(og.cuda_available(), reason="checks the error shown when there is no GPU")
def test_cuda_without_cupy_or_gpu_is_a_clear_error():
    with pytest.raises(RuntimeError, match=r"device 'cuda' is not available.*CuPy"):
        og.tensor([1.0], device="cuda")
    with pytest.raises(RuntimeError, match=r"device 'cuda' is not available"):
        og.tensor([1.0]).to("cuda")


def test_unknown_device_string():
    with pytest.raises(ValueError, match=r"unknown device 'tpu'"):
        og.tensor([1.0], device="tpu")


@pytest.mark.gpu
@pytest.mark.skipif(not og.cuda_available(), reason="needs CuPy and a CUDA device")
def test_gpu_roundtrip_and_gradient():
    x = og.tensor([1.0, 2.0], dtype="float64", device="cuda", requires_grad=True)
    assert x.device == "cuda:0"
    y = og.tanh(x).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh([1.0, 2.0]) ** 2)
    z = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    w = z.to("cuda")
    (w * w).sum().backward()
    assert z.grad.device == "cpu"
    np.testing.assert_allclose(z.grad.numpy(), [2.0, 4.0])


def test_generated_binary_op_with_a_warm_table_still_refuses_mixed_devices(fake_backend):
    a = og.tensor([1.0, 2.0, 3.0])
    og.multiply(a, a)  # fills multiply's table for NumPy arrays
    fake = wrap(np.zeros(3).view(FakeArray))
    for x, y in ((a, fake), (fake, a)):
        with pytest.raises(RuntimeError, match=r"multiply: all tensor arguments must be on the same device"):
            og.multiply(x, y)
