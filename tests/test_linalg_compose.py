"""og.tensordot, og.linalg.vector_norm / matrix_norm / norm: compositions of ops, checked
against NumPy and, in float64, against finite differences to second order."""

from __future__ import annotations

import math

import numpy as np
import pytest

import opgrad as og

gradcheck, gradgradcheck = og.testing.gradcheck, og.testing.gradgradcheck

RNG = np.random.default_rng(3)


def t(*shape):
    return og.tensor(RNG.standard_normal(shape), requires_grad=True)


@pytest.mark.parametrize(
    ("sa", "sb", "dims"),
    [
        ((2, 3, 4), (3, 4, 5), 2),
        ((2, 3), (3, 4), 1),
        ((2, 3), (4, 5), 0),
        ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])),
        ((3,), (3,), ([0], [0])),
    ],
)
def test_tensordot_matches_numpy_and_differentiates(sa, sb, dims):
    a, b = t(*sa), t(*sb)
    np_dims = dims if isinstance(dims, int) else (dims[0], dims[1])
    np.testing.assert_allclose(
        og.tensordot(a, b, dims).numpy(), np.tensordot(a.numpy(), b.numpy(), np_dims), rtol=1e-12
    )
    assert gradcheck(lambda x, y: og.tensordot(x, y, dims), (a, b))
    assert gradgradcheck(lambda x, y: og.tensordot(x, y, dims), (a, b))


@pytest.mark.parametrize(
    ("dims", "match"),
    [
        (3, "dims=3 must be between 0 and"),
        (([0], [0]), "a's axis 0 \\(size 2\\) and b's axis 0 \\(size 3\\)"),
        (([0, 0], [0, 1]), "dims\\[0\\] repeats an axis"),
        ("x", "dims must be an int or a pair"),
    ],
)
def test_tensordot_errors_name_the_argument(dims, match):
    with pytest.raises(
        (ValueError, TypeError), match=f"tensordot: {match}" if not match.startswith("a's") else match
    ):
        og.tensordot(t(2, 3), t(3, 4), dims)


@pytest.mark.parametrize("ord", [2, 1, 3, 0.5, math.inf, -math.inf, -1.5])
@pytest.mark.parametrize(("dim", "keepdim"), [(None, False), (1, True), ((0, 2), False)])
def test_vector_norm_matches_numpy_and_finite_differences(ord, dim, keepdim):
    x = og.tensor(RNG.uniform(0.3, 2.0, (2, 3, 4)) * RNG.choice([-1, 1], (2, 3, 4)), requires_grad=True)
    got = og.linalg.vector_norm(x, ord, dim, keepdim)
    axes = None if dim is None else dim
    flat = np.abs(x.numpy())
    if ord == math.inf:
        want = flat.max(axis=axes, keepdims=keepdim)
    elif ord == -math.inf:
        want = flat.min(axis=axes, keepdims=keepdim)
    else:
        want = (flat**ord).sum(axis=axes, keepdims=keepdim) ** (1 / ord)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    assert gradcheck(lambda z: og.linalg.vector_norm(z, ord, dim, keepdim), (x,))
    if ord not in (math.inf, -math.inf):
        assert gradgradcheck(lambda z: og.linalg.vector_norm(z, ord, dim, keepdim), (x,))


def test_vector_norm_zero_counts_and_the_two_norm_has_a_zero_gradient_at_zero():
    x = og.tensor(np.array([0.0, 2.0, 0.0, -1.0]), requires_grad=True)
    assert og.linalg.vector_norm(x, 0).item() == 2.0
    z = og.zeros(3, dtype=og.float64, requires_grad=True)
    og.linalg.vector_norm(z).backward()
    assert z.grad.tolist() == [0.0, 0.0, 0.0]  # PyTorch's subgradient, not NaN


@pytest.mark.parametrize("ord", ["fro", 1, -1, math.inf, -math.inf])
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norm_matches_numpy_and_finite_differences(ord, keepdim):
    x = og.tensor(RNG.standard_normal((2, 3, 4)) + 0.1, requires_grad=True)
    got = og.linalg.matrix_norm(x, ord, keepdim=keepdim)
    want = np.stack([np.linalg.norm(m, ord) for m in x.numpy()])
    if keepdim:
        want = want[:, None, None]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    assert gradcheck(lambda z: og.linalg.matrix_norm(z, ord, keepdim=keepdim), (x,))


def test_matrix_norm_over_other_axes_and_linalg_norm_dispatch():
    x = og.tensor(RNG.standard_normal((3, 2, 4)))
    np.testing.assert_allclose(
        og.linalg.matrix_norm(x, 1, dim=(0, 2)).numpy(),
        [np.linalg.norm(x.numpy()[:, k, :], 1) for k in range(2)],
    )
    np.testing.assert_allclose(og.linalg.norm(x).item(), np.linalg.norm(x.numpy().ravel()))
    np.testing.assert_allclose(og.linalg.norm(x, 3, dim=1).numpy(), np.linalg.norm(x.numpy(), 3, axis=1))
    m = og.tensor(RNG.standard_normal((3, 4)))
    np.testing.assert_allclose(og.linalg.norm(m, math.inf).item(), np.linalg.norm(m.numpy(), math.inf))


@pytest.mark.parametrize("ord", [2, -2, "nuc"])
def test_spectral_and_nuclear_norms_come_from_the_singular_values(ord):
    x = og.tensor(RNG.standard_normal((2, 3, 4)), requires_grad=True)
    want = np.stack([np.linalg.norm(m, ord) for m in x.numpy()])
    np.testing.assert_allclose(og.linalg.matrix_norm(x, ord).numpy(), want, rtol=1e-12)
    assert og.linalg.matrix_norm(x, ord, keepdim=True).shape == (2, 1, 1)
    np.testing.assert_allclose(
        og.linalg.matrix_norm(x, ord, dim=(0, 2)).numpy(),
        [np.linalg.norm(x.numpy()[:, k], ord) for k in range(3)],
    )
    assert gradcheck(lambda z: og.linalg.matrix_norm(z, ord), (x,))
