"""Kernels: pure array functions registered by name (see `registry`).

Importing this package registers every CPU kernel; CuPy overrides are registered by
`opgrad.runtime.kernels.cuda.register_cuda_kernels()`, which the runtime calls once CuPy
has loaded (nothing here imports CuPy).
"""

from opgrad.runtime.kernels import cpu

__all__ = ["cpu"]
