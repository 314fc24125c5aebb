"""A kernel that returns a different number of arrays than its spec declares outputs is
named with the op and both counts, before anything is wrapped, recorded or accumulated."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.kernels import registry


@pytest.fixture
def swap_kernel():
    """swap_kernel(name, fn): `fn` serves kernel `name` on the CPU until the test ends."""
    saved: list[tuple[str, object]] = []

    def swap(name, fn):
        saved.append((name, registry.lookup(name, "cpu")))
        registry.register_kernel(name, ("cpu",))(fn)

    yield swap
    for name, fn in reversed(saved):
        registry.register_kernel(name, ("cpu",))(fn)


def leaf(values):
    return og.tensor(np.asarray(values, dtype="float64"), requires_grad=True)


@pytest.mark.parametrize(
    "result, got",
    [(lambda v: v, r"returned 1 \(ndarray, not a tuple of 2\)"), (lambda v: (v, v, v), "returned 3")],
    ids=["one-array", "three"],
)
def test_a_forward_kernel_returning_the_wrong_count_is_named(swap_kernel, result, got):
    swap_kernel("topk", lambda x, k, axis=-1, largest=True, sorted=True: result(x[:k]))  # noqa: A006
    x = leaf([3.0, 1.0, 2.0])
    with pytest.raises(RuntimeError, match=rf"topk: the YAML declares 2 outputs, the kernel {got}"):
        og.topk(x, 2)


def test_a_two_row_array_is_not_taken_for_two_results(swap_kernel):
    """Unpacking would split a (2, n) array into rows; only a tuple is unpacked."""
    swap_kernel("topk", lambda x, k, axis=-1, largest=True, sorted=True: np.zeros((2, k)))  # noqa: A006
    with pytest.raises(RuntimeError, match=r"topk: the YAML declares 2 outputs, the kernel returned 1"):
        og.topk(leaf([3.0, 1.0, 2.0]), 2)


def test_a_grad_kernel_returning_one_array_for_two_gradients_is_named(swap_kernel):
    swap_kernel("multiply_grad", lambda x, y, out_grad, needs=None: out_grad * y)
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    loss = og.multiply(x, y).sum()
    with pytest.raises(
        RuntimeError, match=r"multiply_grad: the YAML declares 2 outputs, the kernel returned 1"
    ):
        loss.backward()
    assert x.grad is None and y.grad is None


def test_a_grad_kernel_returning_two_arrays_for_one_gradient_is_named(swap_kernel):
    swap_kernel("tanh_grad", lambda out, out_grad: (out_grad, out_grad))
    x = leaf([0.5, 1.0])
    loss = og.tanh(x).sum()
    with pytest.raises(RuntimeError, match=r"tanh_grad: the YAML declares 1 output, the kernel returned 2"):
        loss.backward()
    assert x.grad is None


def test_a_recorded_grad_op_returning_two_arrays_for_one_output_is_named(swap_kernel):
    """create_graph: the grad op's function records its result, and refuses a tuple first."""
    swap_kernel("tanh_grad", lambda out, out_grad: (out_grad, out_grad))
    x = leaf([0.5, 1.0])
    loss = og.tanh(x).sum()
    with pytest.raises(
        RuntimeError, match=r"tanh_double_grad: the YAML declares 1 output, its kernel returned 2"
    ):
        og.grad([loss], [x], create_graph=True)


def test_a_recorded_forward_returning_two_arrays_for_one_output_is_named(swap_kernel):
    swap_kernel("tanh", lambda x: (x, x))
    x = leaf([0.5, 1.0])
    with pytest.raises(RuntimeError, match=r"tanh_grad: the YAML declares 1 output, its kernel returned 2"):
        og.tanh(x)
    assert x.grad is None
