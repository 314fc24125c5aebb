"""`Tensor.__getitem__` / `__setitem__` beyond the first-order cases of test_ops.py: second
derivatives through indexing (the recorded scatter and its own backward), the index kinds
that are converted (tensors, lists, bools, 0-d arrays) and the errors of bad indices."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og

RNG = np.random.default_rng(11)


def _x(*shape: int) -> og.Tensor:
    return og.tensor(RNG.standard_normal(shape), requires_grad=True)


@pytest.mark.parametrize(
    "index",
    [
        (1, slice(0, 3)),  # basic: a view, scattered by assignment
        (np.array([0, 2, 0]),),  # advanced with a repeat: scattered by adding
        (slice(None), [3, 0, 3]),
    ],
    ids=["basic", "repeated rows", "list on axis 1"],
)
def test_second_derivatives_through_getitem(index):
    x = _x(3, 4)
    # cube so the second derivative depends on x: the recorded scatter and its backward run
    assert og.testing.gradgradcheck(lambda t: t[index] ** 3, [x])


def test_double_backward_of_getitem_matches_the_analytic_hessian_diagonal():
    xa = np.array([1.0, 2.0, 3.0])
    x = og.tensor(xa, requires_grad=True)
    y = (x[[0, 0, 2]] ** 3).sum()  # d/dx: 3x^2 times how often each element is picked
    (g,) = og.grad([y], [x], create_graph=True)
    np.testing.assert_allclose(g.numpy(), [6.0, 0.0, 27.0])
    assert g.requires_grad
    g.sum().backward()  # d/dx of sum(g): 6x times the count
    np.testing.assert_allclose(x.grad.numpy(), [12.0, 0.0, 18.0])


def test_the_gradient_of_a_gradient_seed_goes_through_the_scatter_backward():
    x = _x(4)
    seed = og.tensor(RNG.standard_normal(2), requires_grad=True)
    (g,) = og.grad([x[1:3]], [x], grad_outputs=[seed], create_graph=True)
    np.testing.assert_array_equal(g.numpy(), np.concatenate([[0.0], seed.numpy(), [0.0]]))
    w = og.tensor([1.0, 2.0, 3.0, 4.0])
    (g * w).sum().backward()  # d/dseed: w at the positions the seed filled
    np.testing.assert_array_equal(seed.grad.numpy(), [2.0, 3.0])


def test_tensor_list_bool_and_0d_indices_match_numpy():
    xa = RNG.standard_normal((3, 4))
    x = og.tensor(xa)
    np.testing.assert_array_equal(x[og.tensor([2, 0])].numpy(), xa[[2, 0]])
    np.testing.assert_array_equal(x[[1, 1], [0, 3]].numpy(), xa[[1, 1], [0, 3]])
    np.testing.assert_array_equal(x[True].numpy(), xa[True])
    np.testing.assert_array_equal(x[np.bool_(False)].numpy(), xa[np.bool_(False)])
    view = x[np.array(1)]  # a 0-d integer array is an int: basic indexing, a view
    np.testing.assert_array_equal(view.numpy(), xa[1])
    assert np.shares_memory(view.numpy(), x.numpy())
    copy = x[np.array([1])]
    assert not np.shares_memory(copy.numpy(), x.numpy())


def test_bool_index_gradient():
    x = _x(3)
    assert og.testing.gradcheck(lambda t: t[True] * 2.0, [x])


def test_bad_indices_are_index_errors_that_say_what_is_allowed():
    x = og.tensor(np.zeros((3, 4)))
    with pytest.raises(IndexError, match="getitem: index arrays must be integer or bool, got dtype float64"):
        x[np.array([0.0, 1.0])]
    with pytest.raises(IndexError, match="getitem: index arrays must be integer or bool, got dtype float32"):
        x[og.tensor([0.0], dtype="float32")]
    with pytest.raises(IndexError, match="getitem: unsupported index str; use ints, slices"):
        x["a"]
    with pytest.raises(IndexError, match="getitem: unsupported index float"):
        x[1.0]
    with pytest.raises(IndexError, match=r"getitem: index 5 does not fit a tensor of shape \(3, 4\)"):
        x[5]
    with pytest.raises(IndexError, match=r"does not fit a tensor of shape \(3, 4\)"):
        x[0, [7]]


def test_setitem_errors_name_the_shapes_and_leave_the_tensor_unchanged():
    x = og.tensor(np.arange(6.0).reshape(2, 3))
    with pytest.raises(
        ValueError,
        match=r"setitem: cannot assign a value of shape \(4,\) to index 0 of a tensor of shape \(2, 3\)",
    ):
        x[0] = og.tensor(np.ones(4))
    with pytest.raises(IndexError, match=r"setitem: cannot assign .* to index 5"):
        x[5] = 1.0
    with pytest.raises(IndexError, match="getitem: unsupported index str"):
        x["a"] = 1.0
    np.testing.assert_array_equal(x.numpy(), np.arange(6.0).reshape(2, 3))
    assert x._version == 0


def test_setitem_double_backward_with_a_broadcast_value_and_one_that_needs_no_grad():
    def f(base, v):
        y = base * 1.0
        y[:, 1:3] = v * v  # v of shape (2,) broadcast over both rows
        return y * y

    base = _x(2, 4)
    v = _x(2)
    assert og.testing.gradcheck(f, [base, v])
    assert og.testing.gradgradcheck(f, [base, v])

    def g(base):
        y = base * 1.0
        y[0] = og.tensor(np.array([1.0, 2.0, 3.0, 4.0]))  # the value needs no gradient
        return y * y

    assert og.testing.gradgradcheck(g, [base])


def test_setitem_into_float64_of_a_float32_value_returns_a_float32_value_gradient():
    x = og.tensor(np.zeros(3), requires_grad=True)
    v = og.tensor(np.array([2.0], dtype=np.float32), requires_grad=True)
    y = x * 1.0
    y[1:] = v  # v broadcast along the two positions and cast to float64
    (gx, gv) = og.grad([(y * y).sum()], [x, v], create_graph=True)
    assert gv.dtype == np.float32 and gv.shape == (1,)
    np.testing.assert_array_equal(gv.numpy(), [8.0])  # 2 * v at each of two positions
    np.testing.assert_array_equal(gx.numpy(), [0.0, 0.0, 0.0])
