"""Array-module generic kernels: written against the arrays' module (`xp`: NumPy on the
CPU, CuPy on a GPU), so most serve both backends.

Importing this package registers every kernel. Each module holds one family of ops, each
op's forward, grad and double-grad kernels side by side.
"""

from opgrad.runtime.kernels.generic import (
    activations,
    attention,
    binary,
    bitwise,
    cnn,
    conv_more,
    decompositions,
    elementary,
    elementwise,
    fill,
    index_nd,
    indexing,
    linalg,
    losses,
    matrix,
    nn,
    normalization,
    recurrent,
    reduction,
    scan,
    shape,
    spectral,
    unfold,
)

__all__ = [
    "activations",
    "attention",
    "binary",
    "bitwise",
    "cnn",
    "conv_more",
    "decompositions",
    "elementary",
    "elementwise",
    "fill",
    "index_nd",
    "indexing",
    "linalg",
    "losses",
    "matrix",
    "nn",
    "normalization",
    "recurrent",
    "reduction",
    "scan",
    "shape",
    "spectral",
    "unfold",
]
