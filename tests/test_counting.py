"""og.unique / og.unique_consecutive against NumPy and PyTorch's conventions."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og


def test_unique_with_inverse_and_counts():
    x = og.tensor(np.array([[3, 1, 3], [2, 1, 1]]))
    values, inverse, counts = og.unique(x, return_inverse=True, return_counts=True)
    assert values.tolist() == [1, 2, 3] and counts.tolist() == [3, 1, 2]
    assert inverse.shape == (2, 3) and np.array_equal(values.numpy()[inverse.numpy()], x.numpy())
    assert og.unique(x).tolist() == [1, 2, 3]


def test_unique_along_a_dim_and_no_gradient():
    x = og.tensor(np.array([[1.0, 2.0], [0.0, 5.0], [1.0, 2.0]]), requires_grad=True)
    rows, inverse = og.unique(x, dim=0, return_inverse=True)
    assert rows.tolist() == [[0.0, 5.0], [1.0, 2.0]] and inverse.tolist() == [1, 0, 1]
    assert not rows.requires_grad and rows.grad_fn is None


def test_unique_consecutive_matches_pytorch():
    torch = pytest.importorskip("torch")
    data = np.array([1, 1, 2, 2, 3, 1, 1, 2])
    ours = og.unique_consecutive(og.tensor(data), return_inverse=True, return_counts=True)
    theirs = torch.unique_consecutive(torch.tensor(data), return_inverse=True, return_counts=True)
    for a, b in zip(ours, theirs, strict=True):
        assert a.tolist() == b.tolist()
    m = np.array([[1, 2], [1, 2], [3, 4]])
    assert (
        og.unique_consecutive(og.tensor(m), dim=0).tolist()
        == torch.unique_consecutive(torch.tensor(m), dim=0).tolist()
    )


def test_unique_refuses_a_bad_dim_naming_it():
    with pytest.raises(ValueError, match="unique: dim must be an axis of the 1-D input, got 3"):
        og.unique(og.tensor([1.0]), dim=3)
