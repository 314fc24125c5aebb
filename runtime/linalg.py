"""`og.linalg`: the linear-algebra ops of ops.yaml under their Paddle/PyTorch namespace.

Each op is the same function object as `og.<name>` (generated from ops.yaml); tensordot and
the norms are compositions of ops (runtime/linalg_compose.py).
"""

from opgrad.generated.ops import (
    bmm,
    cholesky,
    cholesky_solve,
    cross,
    det,
    diag_embed,
    diagonal,
    eigh,
    eigvalsh,
    inv,
    kron,
    matmul,
    matrix_power,
    matrix_transpose,
    outer,
    slogdet,
    solve,
    svd,
    svdvals,
    trace,
    triangular_solve,
)
from opgrad.runtime.linalg_compose import matrix_norm, norm, tensordot, vector_norm

__all__ = [
    "bmm",
    "cholesky",
    "cholesky_solve",
    "cross",
    "det",
    "diag_embed",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "kron",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_transpose",
    "norm",
    "outer",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "triangular_solve",
    "vector_norm",
]
