"""Array-module generic kernels (NumPy on the CPU; most also serve CuPy).

Importing this package registers every kernel; each module groups one family of ops.
"""

from opgrad.runtime.kernels.cpu import binary, elementwise, linalg, nn, reduction, shape

__all__ = ["binary", "elementwise", "linalg", "nn", "reduction", "shape"]
