"""eigh / eigvalsh / svd / svdvals / qr beyond the op table: the documented behaviour where the
gradients are not defined (repeated eigenvalues and singular values, the completing vectors
of a full_matrices svd), the triangle eigh reads, errors, and agreement with PyTorch's
conventions."""

from __future__ import annotations

import numpy as np
import pytest

import op_samples  # noqa: F401 - first: it imports every family module, this one included
import opgrad as og
from op_samples_decompositions import spaced

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
        (
            lambda: og.narrow_as(og.zeros((2, 3)), og.zeros((2, 4))),
            "narrow_as: like has 4 entries along axis -1, x only 3",
        ),
        (
            lambda: og.qr(og.zeros((2, 3)), mode="full"),
            "qr: mode must be 'reduced', 'complete' or 'r', got 'full'",
        ),
        (lambda: og.qr(og.zeros((3,))), "qr: x has shape \\(3,\\); expected at least 2 dimensions"),
        (lambda: og.pad_as(og.zeros((2, 3)), og.zeros((3,))), "pad_as: like has shape \\(3,\\)"),
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


@pytest.mark.parametrize(("m", "n"), [(4, 2), (2, 3), (3, 3)])
def test_full_matrices_svd_completes_the_bases_and_its_leading_vectors_have_every_order(m, n):
    """u (m, m) and vh (n, n) are orthogonal, and agree with numpy.linalg.svd; a loss of the
    leading k vectors (the completing ones are not unique) passes first-, second- and
    third-order checks against finite differences."""
    x = spaced(RNG, 2, m=m, n=n)
    k = min(m, n)
    u, s, vh = og.linalg.svd(og.tensor(x), full_matrices=True)
    assert u.shape == (2, m, m) and s.shape == (2, k) and vh.shape == (2, n, n)
    for got, want in zip((u, s, vh), np.linalg.svd(x, full_matrices=True), strict=True):
        np.testing.assert_allclose(got.numpy(), want, atol=1e-12)
    np.testing.assert_allclose(
        u.numpy() @ u.numpy().swapaxes(-1, -2), np.broadcast_to(np.eye(m), (2, m, m)), atol=1e-12
    )
    np.testing.assert_allclose(
        vh.numpy() @ vh.numpy().swapaxes(-1, -2), np.broadcast_to(np.eye(n), (2, n, n)), atol=1e-12
    )

    def leading(a):
        u, s, vh = og.linalg.svd(a, full_matrices=True)
        return u[..., :, :k], s, vh[..., :k, :]

    xt = og.tensor(x, requires_grad=True)
    assert og.testing.gradcheck(leading, [xt], check_directions=True)
    assert og.testing.gradgradcheck(leading, [xt])
    gos = [og.tensor(RNG.standard_normal(o.shape), requires_grad=True) for o in leading(xt)]

    def first_order(a, *gs):
        return og.grad(list(leading(a)), [a], list(gs), create_graph=True)

    assert og.testing.gradgradcheck(first_order, [xt, *gos], atol=1e-5, rtol=1e-3)


def test_full_matrices_svd_ignores_the_gradient_of_the_completing_vectors():
    """Gradients reaching u[..., :, k:] and vh[..., k:, :] are dropped: the input's gradient is
    the reduced svd's for the same gradients of the leading vectors."""
    for m, n in [(4, 2), (2, 4)]:
        x = spaced(RNG, m=m, n=n)
        k = min(m, n)
        gu, gs, gvh = RNG.standard_normal((m, m)), RNG.standard_normal(k), RNG.standard_normal((n, n))
        full = og.tensor(x, requires_grad=True)
        (g_full,) = og.grad(
            list(og.linalg.svd(full, full_matrices=True)), [full], [og.tensor(g) for g in (gu, gs, gvh)]
        )
        (g_reduced,) = og.grad(
            list(og.linalg.svd(full)), [full], [og.tensor(gu[:, :k]), og.tensor(gs), og.tensor(gvh[:k, :])]
        )
        np.testing.assert_allclose(g_full.numpy(), g_reduced.numpy(), atol=1e-12)


@pytest.mark.parametrize(("m", "n"), [(4, 2), (2, 3), (3, 3)])
def test_full_matrices_svd_matches_torch(m, n):
    torch = pytest.importorskip("torch")
    x = spaced(RNG, m=m, n=n)
    w = RNG.standard_normal((m, n))
    xo = og.tensor(x, requires_grad=True)
    u, s, vh = og.linalg.svd(xo, full_matrices=True)
    xt = torch.tensor(x, requires_grad=True)
    tu, ts, tvh = torch.linalg.svd(xt, full_matrices=True)
    np.testing.assert_allclose(s.numpy(), ts.detach().numpy(), rtol=1e-12)
    assert u.shape == tuple(tu.shape) and vh.shape == tuple(tvh.shape)
    # invariant to each pair's sign and blind to the completing vectors (whose gradients both
    # libraries ignore, though sum(u * u) reads them)
    (og.sum(og.matmul(u[:, 0:1], vh[0:1, :]) * og.tensor(w)) + og.sum(s * s) + og.sum(u * u)).backward()
    (
        torch.sum(tu[:, 0:1] @ tvh[0:1, :] * torch.tensor(w)) + torch.sum(ts * ts) + torch.sum(tu * tu)
    ).backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), atol=1e-10)


@pytest.mark.parametrize(("m", "n", "mode"), [(2, 4, "reduced"), (2, 3, "complete"), (3, 3, "complete")])
def test_wide_and_complete_qr_have_every_order(m, n, mode):
    """q (m, m) orthogonal, r (m, n) upper triangular, as numpy.linalg.qr; first-, second- and
    third-order gradients against finite differences (the op table checks third order on its
    first sample only)."""
    x = spaced(RNG, 2, m=m, n=n)
    q, r = og.linalg.qr(og.tensor(x), mode)
    assert q.shape == (2, m, m) and r.shape == (2, m, n)
    for got, want in zip((q, r), np.linalg.qr(x, mode=mode), strict=True):
        np.testing.assert_allclose(got.numpy(), want, atol=1e-12)
    np.testing.assert_allclose(np.tril(r.numpy(), -1), 0)

    def fn(a):
        return og.linalg.qr(a, mode)

    xt = og.tensor(x, requires_grad=True)
    assert og.testing.gradcheck(fn, [xt], check_directions=True)
    assert og.testing.gradgradcheck(fn, [xt])
    gos = [og.tensor(RNG.standard_normal(o.shape), requires_grad=True) for o in fn(xt)]

    def first_order(a, *gs):
        return og.grad(list(fn(a)), [a], list(gs), create_graph=True)

    assert og.testing.gradgradcheck(first_order, [xt, *gos], atol=1e-5, rtol=1e-3)


def test_wide_qr_gradient_splits_into_the_square_block_and_the_rest():
    """x = [X | Y], r = [U | V]: the gradient for Y is q gV, and X gets the square qr's gradient
    with gq + Y gV^T in place of gq."""
    x = spaced(RNG, m=2, n=4)
    gq, gr = RNG.standard_normal((2, 2)), RNG.standard_normal((2, 4))
    xt = og.tensor(x, requires_grad=True)
    (g,) = og.grad(list(og.linalg.qr(xt)), [xt], [og.tensor(gq), og.tensor(gr)])
    q = np.linalg.qr(x)[0]
    np.testing.assert_allclose(g.numpy()[:, 2:], q @ gr[:, 2:], atol=1e-12)
    square = og.tensor(x[:, :2], requires_grad=True)
    (g_square,) = og.grad(
        list(og.linalg.qr(square)), [square], [og.tensor(gq + x[:, 2:] @ gr[:, 2:].T), og.tensor(gr[:, :2])]
    )
    np.testing.assert_allclose(g.numpy()[:, :2], g_square.numpy(), atol=1e-12)


@pytest.mark.parametrize(
    ("mode", "match"),
    [
        ("r", "qr's gradient depends on q, which mode='r' does not compute; use mode='reduced'"),
        ("complete", "qr with mode='complete' has no gradient when x has more rows than columns"),
    ],
)
def test_qr_without_a_gradient_raises_in_backward(mode, match):
    """As torch.linalg.qr: the forward works (mode 'r' gives an empty q), backward refuses."""
    x = og.tensor(spaced(RNG, m=4, n=2), requires_grad=True)
    q, r = og.linalg.qr(x, mode)
    assert q.shape == ((0,) if mode == "r" else (4, 4)) and r.shape == (2 if mode == "r" else 4, 2)
    with pytest.raises(ValueError, match=match):
        og.sum(r).backward()


@pytest.mark.parametrize(
    ("m", "n", "mode"),
    [
        (4, 2, "reduced"),
        (2, 4, "reduced"),
        (3, 3, "reduced"),
        (2, 3, "complete"),
        (4, 2, "complete"),
        (4, 2, "r"),
        (2, 3, "r"),
    ],
)
def test_qr_matches_torch(m, n, mode):
    torch = pytest.importorskip("torch")
    x = spaced(RNG, 2, m=m, n=n)
    xo = og.tensor(x, requires_grad=True)
    q, r = og.linalg.qr(xo, mode)
    xt = torch.tensor(x, requires_grad=True)
    tq, tr = torch.linalg.qr(xt, mode=mode)
    assert q.shape == tuple(tq.shape) and r.shape == tuple(tr.shape)
    np.testing.assert_allclose(q.numpy(), tq.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(r.numpy(), tr.detach().numpy(), atol=1e-12)
    if mode == "r" or (mode == "complete" and m > n):
        return  # no gradient in either library
    wq, wr = RNG.standard_normal(q.shape), RNG.standard_normal(r.shape)
    (og.sum(q * og.tensor(wq)) + og.sum(r * og.tensor(wr))).backward()
    (torch.sum(tq * torch.tensor(wq)) + torch.sum(tr * torch.tensor(wr))).backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), atol=1e-10)
