"""What the engine checks in the gradients a node returns, before passing them on."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.tensor import wrap


def leaf(values, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=True)


class Returns(GradNode):
    """A node returning whatever `make(grads)` gives."""

    __slots__ = ("make",)
    name = "returns_grad"

    def apply(self, grads, create_graph):
        return self.make(grads)


def node_output(inputs, make):
    node = Returns(inputs)
    node.make = make
    out = wrap(np.ones(inputs[0].shape))
    set_history(out, node, 0)
    return out


class ReturnsAndSaves(Returns):
    """A Returns node that counts its release_saved calls (it saves something)."""

    __slots__ = ("released",)

    def release_saved(self):
        self.released += 1


@pytest.mark.parametrize("returned", [1, 3])
def test_a_node_returning_the_wrong_number_of_gradients_names_op_and_counts(returned):
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    node = ReturnsAndSaves([x, w])
    node.make = lambda grads: (grads[0],) * returned
    node.released = 0
    y = wrap(np.ones(2))
    set_history(y, node, 0)
    with pytest.raises(
        RuntimeError,
        match=rf"returns_grad: the node has 2 inputs \(one gradient each\), its apply returned {returned}",
    ):
        y.backward(og.tensor([1.0, 1.0]))
    # raised before anything changed: nothing accumulated, the saved state kept
    assert x.grad is None and w.grad is None
    assert node.released == 0


def test_a_node_returning_a_numpy_scalar_is_named():
    x = leaf([1.0])
    y = node_output([x], lambda grads: (wrap(np.float64(1.0)),))
    with pytest.raises(
        TypeError,
        match="returned a float64 as the gradient for input 0; expected an array.*NumPy scalars with `nd`",
    ):
        y.backward(og.tensor([1.0]))


@pytest.mark.parametrize(
    "bad, what",
    [
        (np.zeros((3,)), r"got shape \(3,\), dtype float64"),
        (np.zeros((2,), dtype="float32"), r"got shape \(2,\), dtype float32"),
    ],
    ids=["shape", "dtype"],
)
@pytest.mark.parametrize("position", [0, 1])
def test_a_wrong_gradient_for_an_input_at_any_output_position_is_named(bad, what, position):
    x = leaf([1.0, 2.0, 3.0, 4.0])
    parts = og.split(x, 2)  # parts[1] is output position 1 of split's node
    y = node_output([parts[position]], lambda grads: (wrap(bad),))
    with pytest.raises(RuntimeError, match=rf"invalid gradient for input 0: {what}.*expected shape \(2,\)"):
        y.backward(og.tensor([1.0, 1.0]))


def test_a_right_gradient_at_output_position_1_passes():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    a, b = og.split(x, 2)
    y = node_output([b], lambda grads: (wrap(np.array([5.0, 6.0])),))
    y.backward(og.tensor([1.0, 1.0]))
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0, 5.0, 6.0])


def test_anomaly_mode_names_the_node_that_returned_nan():
    x = leaf([1.0])
    y = node_output([x], lambda grads: (wrap(np.array([np.nan])),))
    with og.detect_anomaly():
        with pytest.raises(
            FloatingPointError, match=r"returns_grad\) returned NaN values in its gradient for input 0"
        ):
            y.backward(og.tensor([1.0]))
    x2 = leaf([1.0])
    node_output([x2], lambda grads: (wrap(np.array([np.nan])),)).backward(og.tensor([1.0]))
    assert np.isnan(x2.grad.item())  # without anomaly mode: not checked
