"""Array-module generic kernels (NumPy on the CPU; most also serve CuPy).

Importing this package registers every kernel; each module groups one family of ops.
"""

from opgrad.runtime.kernels.cpu import (
    activations,
    attention,
    binary,
    cnn,
    double_grad,
    double_grad_last,
    double_grad_more,
    elementwise,
    fill,
    indexing,
    linalg,
    losses,
    nn,
    reduction,
    shape,
)

__all__ = [
    "activations",
    "attention",
    "binary",
    "cnn",
    "double_grad",
    "double_grad_last",
    "double_grad_more",
    "elementwise",
    "fill",
    "indexing",
    "linalg",
    "losses",
    "nn",
    "reduction",
    "shape",
]
