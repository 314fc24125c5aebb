"""Matrix decomposition kernels (issue 15): eigh / eigvalsh (symmetric eigendecomposition,
reading one triangle), svd / svdvals (the singular value decomposition, reduced or full), qr
and matrix_exp.

Only the forwards are kernels: the gradients are composites in backward.yaml over ops
(matmul, diag_embed, ...), so every order differentiates. Batched over leading axes; float16
is computed in float32 (LAPACK has no half precision).
"""

from __future__ import annotations

import math

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
    _finite("svd", x)
    u, s, vh = array_module(x).linalg.svd(x, full_matrices=bool(full_matrices))
    return nd(u), nd(s), nd(vh)


@register_kernel("svdvals")
@float32_inside
def svdvals(x):
    _check("svdvals", x, False)
    _finite("svdvals", x)
    return nd(array_module(x).linalg.svd(x, compute_uv=False))


_QR_MODES = ("reduced", "complete", "r")


@register_kernel("qr")
@float32_inside
def qr(x, mode="reduced"):
    _check("qr", x, False)
    if mode not in _QR_MODES:
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    _finite("qr", x)
    xp = array_module(x)
    if mode == "r":  # as torch.linalg.qr: q is an empty tensor
        return xp.empty((0,), dtype=x.dtype), nd(xp.linalg.qr(x, mode="r"))
    q, r = xp.linalg.qr(x, mode=mode)
    return nd(q), nd(r)


@register_kernel("qr_square_block")
def qr_square_block(x, q, mode="reduced"):
    """x[..., :, :k], k = q's columns: the block of r that qr's gradient inverts. The checks
    here are qr's gradient refusing the cases torch.linalg.qr refuses, with its reasons."""
    if mode not in _QR_MODES:
        raise ValueError(f"qr_square_block: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    if mode == "r":
        raise ValueError(
            "qr_square_block: qr's gradient depends on q, which mode='r' does not compute; "
            "use mode='reduced' to differentiate qr"
        )
    for name, a in (("x", x), ("q", q)):
        if a.ndim < 2:
            raise ValueError(
                f"qr_square_block: {name} has shape {a.shape}; expected at least 2 dimensions (..., m, n)"
            )
    k = q.shape[-1]
    if k > x.shape[-1]:
        raise ValueError(
            f"qr_square_block: qr with mode='complete' has no gradient when x has more rows than "
            f"columns (q has {k} columns, r {x.shape[-1]}): the last columns of q are not unique; "
            "use mode='reduced'"
        )
    return x[..., :k].copy()


# Higham (2005), "The scaling and squaring method for the matrix exponential revisited": the
# degree-13 Pade approximant's coefficients and the 1-norm up to which it is accurate to
# double precision without scaling.
_PADE13 = (
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
)
_THETA13 = 5.371920351148152


@register_kernel("matrix_exp")
@float32_inside
def matrix_exp(x):
    """exp(x) of each square matrix by scaling and squaring with the [13/13] Pade approximant;
    one squaring count for the whole batch (the largest any matrix needs)."""
    _check("matrix_exp", x, True)
    _finite("matrix_exp", x)
    xp = array_module(x)
    n = x.shape[-1]
    if n == 0:
        return x.copy()
    norm = float(xp.abs(x).sum(axis=-2).max()) if x.size else 0.0
    s = max(0, math.ceil(math.log2(norm / _THETA13))) if norm > _THETA13 else 0
    a = x / (2.0**s) if s else x
    b = _PADE13
    ident = xp.broadcast_to(xp.eye(n, dtype=x.dtype), x.shape)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * ident)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * ident
    r = xp.linalg.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return nd(r.astype(x.dtype, copy=False))
