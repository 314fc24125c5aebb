"""`og.linalg`: the linear-algebra ops of ops.yaml under their Paddle/PyTorch namespace.

Each name is the same function object as `og.<name>` (generated from ops.yaml); this module
only groups them.
"""

from opgrad.generated.ops import (
    bmm,
    cholesky,
    cholesky_solve,
    cross,
    det,
    diag_embed,
    diagonal,
    inv,
    kron,
    matmul,
    matrix_power,
    matrix_transpose,
    outer,
    slogdet,
    solve,
    trace,
    triangular_solve,
)

__all__ = [
    "bmm",
    "cholesky",
    "cholesky_solve",
    "cross",
    "det",
    "diag_embed",
    "diagonal",
    "inv",
    "kron",
    "matmul",
    "matrix_power",
    "matrix_transpose",
    "outer",
    "slogdet",
    "solve",
    "trace",
    "triangular_solve",
]
