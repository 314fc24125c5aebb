"""Array-module generic kernels (NumPy on the CPU; most also serve CuPy).

Importing this package registers every kernel; each module groups one family of ops.
"""

from opgrad.runtime.kernels.cpu import binary, elementwise, linalg, nn, reduction, shape
from opgrad.runtime.kernels.cpu import attention, cnn  # noqa: F401, I001 - registers the kernels
from opgrad.runtime.kernels.cpu import activations, indexing, losses  # noqa: F401, I001 - issue 5B kernels
from opgrad.runtime.kernels.cpu import fill  # noqa: F401, I001 - in-place support ops
from opgrad.runtime.kernels.cpu import double_grad  # noqa: F401, I001 - higher-order gradients

__all__ = ["binary", "elementwise", "linalg", "nn", "reduction", "shape"]
