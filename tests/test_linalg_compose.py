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


def well(*shape):
    return RNG.standard_normal(shape) + shape[-1] * np.eye(shape[-1])


@pytest.mark.parametrize(
    ("sa", "sb"), [((3, 3), (3,)), ((2, 3, 3), (2, 3)), ((3, 3), (3, 2)), ((2, 3, 3), (3, 1))]
)
def test_linalg_solve_takes_vectors_as_pytorch_and_differentiates(sa, sb):
    a, b = og.tensor(well(*sa), requires_grad=True), og.tensor(RNG.standard_normal(sb), requires_grad=True)
    got = og.linalg.solve(a, b)
    if len(sb) == 1 or sb == sa[:-1]:  # vectors, by PyTorch's rule
        want = np.linalg.solve(a.numpy(), b.numpy()[..., None])[..., 0]
    else:
        want = np.linalg.solve(a.numpy(), b.numpy())
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    assert gradcheck(og.linalg.solve, (a, b)) and gradgradcheck(og.linalg.solve, (a, b))


def test_linalg_solve_left_false_solves_x_a_equals_b():
    a, b = og.tensor(well(3, 3)), og.tensor(RNG.standard_normal((2, 3)))
    x = og.linalg.solve(a, b, left=False)
    np.testing.assert_allclose(x.numpy() @ a.numpy(), b.numpy(), atol=1e-12)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_pinv_matches_numpy_and_differentiates(shape):
    x = og.tensor(RNG.standard_normal(shape), requires_grad=True)
    np.testing.assert_allclose(og.linalg.pinv(x).numpy(), np.linalg.pinv(x.numpy()), atol=1e-12)
    assert gradcheck(og.linalg.pinv, (x,)) and gradgradcheck(og.linalg.pinv, (x,))


def test_pinv_of_a_rank_deficient_and_of_a_hermitian_matrix():
    u = RNG.standard_normal((4, 2))
    low = u @ u.T  # rank 2, symmetric
    np.testing.assert_allclose(og.linalg.pinv(og.tensor(low)).numpy(), np.linalg.pinv(low), atol=1e-10)
    np.testing.assert_allclose(
        og.linalg.pinv(og.tensor(low), hermitian=True).numpy(),
        np.linalg.pinv(low, hermitian=True),
        atol=1e-10,
    )


def test_lstsq_matches_numpy_and_differentiates():
    a, b = (
        og.tensor(RNG.standard_normal((5, 3)), requires_grad=True),
        og.tensor(RNG.standard_normal((5, 2)), requires_grad=True),
    )
    got = og.linalg.lstsq(a, b)
    sol, res, rank, sv = np.linalg.lstsq(a.numpy(), b.numpy(), rcond=None)
    np.testing.assert_allclose(got.solution.numpy(), sol, atol=1e-12)
    np.testing.assert_allclose(got.residuals.numpy(), res, rtol=1e-10)
    assert got.rank.item() == rank
    np.testing.assert_allclose(got.singular_values.numpy(), sv, rtol=1e-12)
    assert gradcheck(lambda x, y: og.linalg.lstsq(x, y).solution, (a, b))
    vec = og.linalg.lstsq(a, og.tensor(b.numpy()[:, 0]))
    np.testing.assert_allclose(vec.solution.numpy(), sol[:, 0], atol=1e-12)
    assert og.linalg.lstsq(
        og.tensor(RNG.standard_normal((2, 3))), og.tensor(RNG.standard_normal((2, 1)))
    ).residuals.shape == (0,)


def test_matrix_rank_matches_numpy_including_rank_deficient_and_batched():
    u = RNG.standard_normal((2, 5, 2))
    low = u @ RNG.standard_normal((2, 2, 4))  # rank 2
    x = og.tensor(np.concatenate([low, RNG.standard_normal((1, 5, 4))]))
    assert (
        og.linalg.matrix_rank(x).tolist() == [int(np.linalg.matrix_rank(m)) for m in x.numpy()] == [2, 2, 4]
    )
    sym = og.tensor(low[0] @ low[0].T)
    assert og.linalg.matrix_rank(sym, hermitian=True).item() == 2
    assert og.linalg.matrix_rank(og.tensor(np.diag([1.0, 1e-3, 0.0])), atol=1e-2).item() == 1


@pytest.mark.parametrize("p", [None, 2, -2, "fro", "nuc", 1, -1, math.inf, -math.inf])
def test_cond_matches_numpy_and_differentiates(p):
    x = og.tensor(RNG.standard_normal((2, 3, 3)) + 2 * np.eye(3), requires_grad=True)
    np.testing.assert_allclose(og.linalg.cond(x, p).numpy(), np.linalg.cond(x.numpy(), p), rtol=1e-10)
    assert gradcheck(lambda z: og.linalg.cond(z, p), (x,))


@pytest.mark.parametrize("shapes", [[(3, 4), (4, 5), (5, 2)], [(4,), (4, 6), (6, 3), (3,)], [(2, 9), (9, 1)]])
def test_multi_dot_matches_numpy_and_differentiates(shapes):
    ts = [og.tensor(RNG.standard_normal(s), requires_grad=True) for s in shapes]
    np.testing.assert_allclose(
        og.linalg.multi_dot(ts).numpy(), np.linalg.multi_dot([t.numpy() for t in ts]), rtol=1e-12
    )
    assert gradcheck(lambda *a: og.linalg.multi_dot(a), ts)


def test_multi_dot_errors_name_the_tensor():
    with pytest.raises(
        ValueError, match="multi_dot: tensors\\[0\\] has 4 columns but tensors\\[1\\] has 3 rows"
    ):
        og.linalg.multi_dot([t(3, 4), t(3, 2)])
    with pytest.raises(ValueError, match="multi_dot: needs at least 2 tensors"):
        og.linalg.multi_dot([t(3, 4)])
