"""eigh / eigvalsh / svd / svdvals beyond the op table: the documented behaviour where the
gradients are not defined (repeated eigenvalues and singular values), the triangle eigh
reads, errors, and agreement with PyTorch's conventions."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og

RNG = np.random.default_rng(11)


def test_eigenvalue_gradients_stay_finite_where_eigenvalues_repeat():
    """d sum(eigvalsh(A)) / dA = I (the trace), also for A = I, where every eigenvalue repeats;
    the eigenvectors are not unique there, so eigh's vector gradient is not finite."""
    a = og.tensor(np.eye(3), requires_grad=True)
    og.sum(og.eigvalsh(a)).backward()
    np.testing.assert_allclose(a.grad.numpy(), np.eye(3), atol=1e-12)
    s = og.tensor(np.eye(3) * 2.0, requires_grad=True)
    og.sum(og.svdvals(s)).backward()  # the nuclear norm's gradient u vh: here I
    np.testing.assert_allclose(s.grad.numpy(), np.eye(3), atol=1e-12)


def test_eigh_reads_one_triangle_and_the_other_gets_no_gradient():
    base = RNG.standard_normal((3, 3))
    sym = base + base.T
    noisy = np.tril(sym) + np.triu(RNG.standard_normal((3, 3)), 1)
    lower = og.tensor(noisy, requires_grad=True)
    w, v = og.eigh(lower)
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(sym), rtol=1e-12)
    og.sum(w * og.tensor([1.0, 2.0, 3.0])).backward()
    assert np.all(np.triu(lower.grad.numpy(), 1) == 0)
    w_u, _ = og.eigh(og.tensor(noisy.T), UPLO="U")
    np.testing.assert_allclose(w_u.numpy(), w.numpy(), rtol=1e-12)


def test_eigh_and_svd_reconstruct_their_input_batched():
    x = og.tensor(RNG.standard_normal((2, 4, 3)))
    u, s, vh = og.linalg.svd(x)
    np.testing.assert_allclose((u.numpy() * s.numpy()[:, None, :]) @ vh.numpy(), x.numpy(), atol=1e-12)
    assert u.shape == (2, 4, 3) and s.shape == (2, 3) and vh.shape == (2, 3, 3)
    a = og.tensor(RNG.standard_normal((2, 3, 3)))
    sym = a.numpy() + a.numpy().swapaxes(-1, -2)
    w, v = og.linalg.eigh(og.tensor(sym))
    np.testing.assert_allclose(
        v.numpy() @ (w.numpy()[..., None] * v.numpy().swapaxes(-1, -2)), sym, atol=1e-12
    )


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: og.eigh(og.zeros((2, 3))), "eigh: x has shape \\(2, 3\\); expected square matrices"),
        (lambda: og.eigh(og.zeros((3, 3)), UPLO="X"), "eigh: UPLO must be 'L' or 'U'"),
        (lambda: og.svd(og.zeros((3,))), "svd: x has shape \\(3,\\); expected at least 2 dimensions"),
        (lambda: og.svd(og.zeros((2, 3)), full_matrices=True), "svd: full_matrices=True is not supported"),
        (lambda: og.svdvals(og.tensor(np.full((2, 2), np.nan))), "svdvals: x has NaN or infinite entries"),
    ],
)
def test_bad_input_is_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_svd_matches_torch_up_to_the_sign_of_each_vector_pair():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((4, 3))
    u, s, vh = og.linalg.svd(og.tensor(x))
    tu, ts, tvh = torch.linalg.svd(torch.tensor(x), full_matrices=False)
    np.testing.assert_allclose(s.numpy(), ts.numpy(), rtol=1e-12)
    signs = np.sign(np.sum(u.numpy() * tu.numpy(), axis=0))
    np.testing.assert_allclose(u.numpy(), tu.numpy() * signs, atol=1e-12)
    np.testing.assert_allclose(vh.numpy(), tvh.numpy() * signs[:, None], atol=1e-12)
    # a gauge-invariant loss has the same gradient in both
    xt = torch.tensor(x, requires_grad=True)
    tu, ts, tvh = torch.linalg.svd(xt, full_matrices=False)
    (torch.sum(tu[:, 0:1] @ tvh[0:1, :] * torch.tensor(x)) + ts.sum()).backward()
    xo = og.tensor(x, requires_grad=True)
    u, s, vh = og.linalg.svd(xo)
    (og.sum(og.matmul(u[:, 0:1], vh[0:1, :]) * og.tensor(x)) + og.sum(s)).backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), atol=1e-10)
