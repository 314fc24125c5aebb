"""Matrix decomposition kernels (issue 15): eigh / eigvalsh (symmetric eigendecomposition,
reading one triangle) and svd / svdvals (the reduced singular value decomposition).

Only the forwards are kernels: the gradients are composites in backward.yaml over ops
(matmul, diag_embed, ...), so every order differentiates. Batched over leading axes; float16
is computed in float32 (LAPACK has no half precision).
"""

from __future__ import annotations

import numpy as np

from opgrad.runtime.kernels.common import array_module, check_float, nd
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel


def _check(op, x, square):
    check_float(op, "x", x)
    if x.ndim < 2:
        raise ValueError(f"{op}: x has shape {x.shape}; expected at least 2 dimensions (..., m, n)")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{op}: x has shape {x.shape}; expected square matrices in the last two axes")


def _uplo(op, uplo):
    if uplo not in ("L", "U"):
        raise ValueError(f"{op}: UPLO must be 'L' or 'U', got {uplo!r}")
    return uplo


def _finite(op, x):
    if not np.isfinite(x).all():  # LAPACK may hang or return garbage on NaN/inf
        raise ValueError(f"{op}: x has NaN or infinite entries")


@register_kernel("eigh")
@float32_inside
def eigh(x, UPLO="L"):  # noqa: N803 - PyTorch's name
    _check("eigh", x, True)
    _finite("eigh", x)
    w, v = array_module(x).linalg.eigh(x, UPLO=_uplo("eigh", UPLO))
    return nd(w), nd(v)


@register_kernel("eigvalsh")
@float32_inside
def eigvalsh(x, UPLO="L"):  # noqa: N803
    _check("eigvalsh", x, True)
    _finite("eigvalsh", x)
    return nd(array_module(x).linalg.eigvalsh(x, UPLO=_uplo("eigvalsh", UPLO)))


@register_kernel("svd")
@float32_inside
def svd(x, full_matrices=False):
    _check("svd", x, False)
    if full_matrices:
        raise ValueError(
            "svd: full_matrices=True is not supported (the extra singular vectors of a non-square "
            "matrix have no gradient); use full_matrices=False, the reduced decomposition"
        )
    _finite("svd", x)
    u, s, vh = array_module(x).linalg.svd(x, full_matrices=False)
    return nd(u), nd(s), nd(vh)


@register_kernel("svdvals")
@float32_inside
def svdvals(x):
    _check("svdvals", x, False)
    _finite("svdvals", x)
    return nd(array_module(x).linalg.svd(x, compute_uv=False))
