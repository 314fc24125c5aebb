"""OpInfos of the matrix decompositions (issue 15): eigh, eigvalsh, svd, svdvals, qr (and
qr_square_block, the block of r its gradient inverts), matrix_exp.

References are numpy.linalg. Samples have well-separated eigenvalues / singular values
(built as Q diag(d) Q^T or U diag(s) V^T with spaced d, s), where the decompositions are
differentiable; eigh's samples carry random values in the triangle it does not read (their
gradient must be 0). Eigenvectors and singular vectors are unique up to sign; LAPACK's sign
choice is continuous under the tiny perturbations of the finite differences, so the
vectors' gradients are checked directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, randn


def orthogonal(rng: np.random.Generator, n: int) -> np.ndarray:
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))


def symmetric_with_noise(rng: np.random.Generator, *batch: int, n: int = 3, uplo: str = "L") -> np.ndarray:
    """Q diag(spaced) Q^T, plus noise in the triangle eigh does not read."""
    out = np.empty((*batch, n, n))
    for idx in np.ndindex(*batch):
        q = orthogonal(rng, n)
        d = np.arange(n) * 1.5 - 1.0 + rng.uniform(0, 0.3, n)
        out[idx] = q @ np.diag(d) @ q.T
    noise = randn(rng, *batch, n, n)
    return out + (np.triu(noise, 1) if uplo == "L" else np.tril(noise, -1))


def spaced(rng: np.random.Generator, *batch: int, m: int, n: int) -> np.ndarray:
    """U diag(s) V^T with singular values k, k - 1, ..., 1 (plus a little noise)."""
    k = min(m, n)
    out = np.empty((*batch, m, n))
    for idx in np.ndindex(*batch):
        u, v = orthogonal(rng, m)[:, :k], orthogonal(rng, n)[:, :k]
        s = np.arange(k, 0, -1) + rng.uniform(0, 0.2, k)
        out[idx] = (u * s) @ v.T
    return out


def eigh_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((symmetric_with_noise(rng),))
    yield Sample((symmetric_with_noise(rng, 2, n=2),), note="batched")
    yield Sample((symmetric_with_noise(rng, uplo="U"), "U"), note="upper")


def svd_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from svdvals_samples(rng)
    yield Sample((spaced(rng, 2, m=3, n=3), True), note="full_matrices, square: every vector is unique")
    # the completing vectors of a non-square full_matrices svd are not unique and get no
    # gradient, so the table checks their values only; test_decompositions.py checks the
    # gradients of a loss of the leading vectors at every order
    yield Sample((spaced(rng, m=4, n=2), True), grad=False, note="full_matrices, tall")
    yield Sample((spaced(rng, 2, m=2, n=3), True), grad=False, note="full_matrices, wide, batched")


def svdvals_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((spaced(rng, m=3, n=3),))
    yield Sample((spaced(rng, m=4, n=2),), note="tall")
    yield Sample((spaced(rng, 2, m=2, n=3),), note="wide, batched")


def nan_safe(fn: Callable[..., Any]) -> Callable[..., Any]:
    """numpy.linalg raises on NaN where LAPACK does not converge: give NaN results instead
    (of the shapes a finite input gives), so the tests that feed NaN can compare; float16
    is computed in float32."""

    def ref(x: np.ndarray, *args: Any) -> Any:
        if x.dtype == np.float16:  # numpy.linalg has no float16: float32, rounded back
            out = ref(x.astype(np.float32), *args)
            return (
                tuple(o.astype(np.float16) for o in out) if isinstance(out, tuple) else out.astype(np.float16)
            )
        if np.isfinite(x).all():
            return fn(x, *args)
        out = fn(np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0), *args)
        return (
            tuple(np.full_like(o, np.nan) for o in out)
            if isinstance(out, tuple)
            else np.full_like(out, np.nan)
        )

    return ref


INFOS = [
    OpInfo(
        "eigh",
        nan_safe(lambda x, UPLO="L": tuple(np.linalg.eigh(x, UPLO=UPLO))),
        eigh_samples,
        atol32=1e-4,
        rtol32=1e-3,
    ),
    OpInfo(
        "eigvalsh", nan_safe(lambda x, UPLO="L": np.linalg.eigvalsh(x, UPLO=UPLO)), eigh_samples, atol32=1e-4
    ),
    OpInfo(
        "svd",
        nan_safe(lambda x, full_matrices=False: tuple(np.linalg.svd(x, full_matrices=full_matrices))),
        svd_samples,
        atol32=1e-4,
        rtol32=1e-3,
    ),
    OpInfo("svdvals", nan_safe(lambda x: np.linalg.svd(x, compute_uv=False)), svdvals_samples, atol32=1e-4),
]


def qr_ref(x: np.ndarray, mode: str = "reduced") -> tuple[np.ndarray, np.ndarray]:
    if mode == "r":  # torch.linalg.qr's convention: q is empty
        return np.empty((0,), dtype=x.dtype), np.linalg.qr(x, mode="r")
    return tuple(np.linalg.qr(x, mode=mode))


def qr_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((spaced(rng, m=3, n=3),))
    yield Sample((spaced(rng, m=4, n=2),), note="tall")
    yield Sample((spaced(rng, 2, m=3, n=2),), note="batched")
    yield Sample((spaced(rng, m=2, n=4),), note="wide")
    yield Sample((spaced(rng, 2, m=2, n=3), "complete"), note="complete, wide, batched")
    yield Sample((spaced(rng, m=3, n=3), "complete"), note="complete, square")
    # no gradient (torch.linalg.qr refuses these too; test_decompositions.py checks the errors):
    # the completing columns of a tall complete q are not unique, and mode 'r' computes no q
    yield Sample((spaced(rng, m=4, n=2), "complete"), grad=False, note="complete, tall")
    yield Sample((spaced(rng, 2, m=4, n=2), "r"), grad=False, note="r, tall, batched")
    yield Sample((spaced(rng, m=2, n=3), "r"), grad=False, note="r, wide")


def qr_square_block_ref(x: np.ndarray, q: np.ndarray, mode: str = "reduced") -> np.ndarray:
    return x[..., : q.shape[-1]]


def qr_square_block_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 4), randn(rng, 2, 2)), note="wide r")
    yield Sample((randn(rng, 2, 3, 3), randn(rng, 2, 4, 3), "complete"), note="square r, batched")


def expm_ref(x: np.ndarray) -> np.ndarray:
    import scipy.linalg

    if x.dtype == np.float16:
        return expm_ref(x.astype(np.float32)).astype(np.float16)
    out = np.empty_like(x)
    for idx in np.ndindex(*x.shape[:-2]):
        out[idx] = scipy.linalg.expm(x[idx]) if np.isfinite(x[idx]).all() else np.nan
    return out


def expm_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 3),))
    yield Sample((randn(rng, 2, 2, 2) * 3,), note="batched, scaled and squared")
    yield Sample((randn(rng, 1, 1),), note="1 x 1: exp")


INFOS += [
    OpInfo("qr", nan_safe(qr_ref), qr_samples, atol32=1e-4, rtol32=1e-3),
    OpInfo("qr_square_block", qr_square_block_ref, qr_square_block_samples),
    OpInfo("matrix_exp", expm_ref, expm_samples, atol32=1e-4, rtol32=1e-4),
]
