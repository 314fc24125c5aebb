"""gather_nd / scatter_nd / scatter_nd_add errors and the accumulation rule (the op table
checks values and gradients)."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og


def idx(*rows):
    return og.tensor(np.array(rows, dtype=np.int64))


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda: og.gather_nd(og.zeros((3, 4)), idx([0, 4])),
            IndexError,
            r"gather_nd: index has 4 for axis 1 of size 4 \(row 0\)",
        ),
        (
            lambda: og.gather_nd(og.zeros((3, 4)), idx([-4, 0])),
            IndexError,
            "gather_nd: index has -4 for axis 0 of size 3",
        ),
        (
            lambda: og.gather_nd(og.zeros((3, 4)), og.tensor([[0.0, 1.0]])),
            TypeError,
            "gather_nd: index must be an integer tensor",
        ),
        (
            lambda: og.gather_nd(og.zeros((3,)), idx([0, 1])),
            ValueError,
            "gather_nd: index rows have 2 entries but the indexed tensor has only 1 axes",
        ),
        (
            lambda: og.scatter_nd_add(og.zeros((3, 4)), idx([0, 1]), og.zeros((2,))),
            ValueError,
            r"scatter_nd_add: updates must have shape .* = \(1,\), got \(2,\)",
        ),
        (
            lambda: og.scatter_nd(idx([0]), og.zeros((1,)), [-1]),
            ValueError,
            "scatter_nd: shape must be a list of non-negative ints",
        ),
    ],
)
def test_bad_index_is_a_clear_error_before_anything_changes(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_repeated_positions_accumulate_and_the_input_is_left_alone():
    x = og.zeros((2, 2), dtype=og.float64)
    out = og.scatter_nd_add(x, idx([0, 1], [0, 1], [1, 0]), og.tensor([1.0, 2.0, 5.0]))
    assert out.tolist() == [[0.0, 3.0], [5.0, 0.0]] and x.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert og.scatter_nd(idx([1], [1]), og.tensor([[1.0, 2.0], [3.0, 4.0]]), [3, 2]).tolist() == [
        [0.0, 0.0],
        [4.0, 6.0],
        [0.0, 0.0],
    ]


def test_gather_nd_gradient_adds_up_at_repeated_positions():
    x = og.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    og.sum(og.gather_nd(x, idx([0, 1], [0, 1], [1, 2]))).backward()
    assert x.grad.tolist() == [[0.0, 2.0, 0.0], [0.0, 0.0, 1.0]]


def test_index_put_in_place_and_torch_spelling():
    x = og.tensor(np.zeros((3, 2)), requires_grad=True)
    y = x * 1.0
    y.index_put_([idx(0, 2)], og.tensor([[1.0, 2.0]]))
    assert y.tolist() == [[1.0, 2.0], [0.0, 0.0], [1.0, 2.0]]
    og.sum(y * og.tensor(np.arange(6.0).reshape(3, 2))).backward()
    assert x.grad.tolist() == [[0.0, 0.0], [2.0, 3.0], [0.0, 0.0]]  # overwritten rows pass nothing


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: og.index(og.zeros((3, 2)), [idx(3)]), "index: indices\\[0\\] has 3 for axis 0 of size 3"),
        (
            lambda: og.index(og.zeros((3, 2)), [idx(0), idx(0), idx(0)]),
            "index: 3 index tensors for a 2-D tensor",
        ),
        (lambda: og.index(og.zeros((3, 2)), [idx(0, 1), idx(0, 1, 0)]), "index: indices: shape mismatch"),
        (
            lambda: og.index_put(og.zeros((3, 2)), [idx(0)], og.zeros((3,))),
            "index_put: values of shape \\(3,\\) do not broadcast",
        ),
    ],
)
def test_index_errors_name_the_op(call, match):
    with pytest.raises((IndexError, ValueError), match=match):
        call()
