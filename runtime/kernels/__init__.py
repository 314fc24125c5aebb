"""Kernels: pure array functions registered by name (see `registry`).

Importing this package registers every CPU kernel, and has the CuPy overrides in `cuda`
registered once CuPy loads (`device.when_cupy_loads`; nothing here imports CuPy).
"""

from opgrad.runtime.kernels import cuda, generic

__all__ = ["cuda", "generic"]
