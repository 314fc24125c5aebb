"""CuPy-specific kernel overrides: fused elementwise kernels for a few activations.

The generic kernels in `kernels/generic/` already run on CuPy arrays; the overrides here fuse
the multi-step ones (gelu, silu, sigmoid, softplus and their grads) into one
`cupy.ElementwiseKernel` each, so a call makes one pass over memory instead of several.
They handle float32 and float64 and defer to the generic kernel for other dtypes and for
`gelu(approximate=True)`.

Nothing here imports CuPy at import time: the runtime calls `register_cuda_kernels()`
once CuPy has loaded; calling it again does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from opgrad.runtime import device as _device
from opgrad.runtime.kernels.generic import elementwise as generic
from opgrad.runtime.kernels.registry import register_kernel

_registered = False

# name -> (input params, output params, body); T is float32 or float64
_SOURCES: dict[str, tuple[str, str, str]] = {
    "sigmoid": ("T x", "T y", "y = 1 / (1 + exp(-x))"),
    "sigmoid_grad": ("T out, T g", "T dx", "dx = g * out * (1 - out)"),
    "silu": ("T x", "T y", "y = x / (1 + exp(-x))"),
    "silu_grad": ("T x, T g", "T dx", "T s = 1 / (1 + exp(-x)); dx = g * s * (1 + x * (1 - s))"),
    "gelu": ("T x", "T y", "y = (T)0.5 * x * (1 + erf(x * (T)0.70710678118654752))"),
    "gelu_grad": (
        "T x, T g",
        "T dx",
        "T cdf = (T)0.5 * (1 + erf(x * (T)0.70710678118654752));"
        " T pdf = (T)0.39894228040143268 * exp((T)-0.5 * x * x);"
        " dx = g * (cdf + x * pdf)",
    ),
    "softplus": (
        "T x, T beta, T threshold",
        "T y",
        "T bx = x * beta; y = bx > threshold ? x : (max(bx, (T)0) + log1p(exp(-fabs(bx)))) / beta",
    ),
    "softplus_grad": (
        "T x, T g, T beta, T threshold",
        "T dx",
        "T bx = x * beta; dx = bx > threshold ? g : g / (1 + exp(-bx))",
    ),
}


def _fused(cupy: Any, name: str) -> Any:
    params, outputs, body = _SOURCES[name]
    return cupy.ElementwiseKernel(params, outputs, body, f"opgrad_{name}")


def _is_fusable(a: Any) -> bool:
    return a.dtype.kind == "f" and a.dtype.itemsize in (4, 8)


def _build(cupy: Any) -> dict[str, Callable[..., Any]]:
    k = {name: _fused(cupy, name) for name in _SOURCES}

    def sigmoid(x):
        return k["sigmoid"](x) if _is_fusable(x) else generic.sigmoid(x)

    def sigmoid_grad(out, out_grad):
        if _is_fusable(out) and out.dtype == out_grad.dtype:
            return k["sigmoid_grad"](out, out_grad)
        return generic.sigmoid_grad(out, out_grad)

    def silu(x):
        return k["silu"](x) if _is_fusable(x) else generic.silu(x)

    def silu_grad(x, out_grad):
        if _is_fusable(x) and x.dtype == out_grad.dtype:
            return k["silu_grad"](x, out_grad)
        return generic.silu_grad(x, out_grad)

    def gelu(x, approximate=False):
        if approximate or not _is_fusable(x):
            return generic.gelu(x, approximate)
        return k["gelu"](x)

    def gelu_grad(x, out_grad, approximate=False):
        if approximate or not _is_fusable(x) or x.dtype != out_grad.dtype:
            return generic.gelu_grad(x, out_grad, approximate)
        return k["gelu_grad"](x, out_grad)

    def softplus(x, beta=1.0, threshold=20.0):
        if not _is_fusable(x):
            return generic.softplus(x, beta, threshold)
        return k["softplus"](x, x.dtype.type(beta), x.dtype.type(threshold))

    def softplus_grad(x, out_grad, beta=1.0, threshold=20.0):
        if not _is_fusable(x) or x.dtype != out_grad.dtype:
            return generic.softplus_grad(x, out_grad, beta, threshold)
        return k["softplus_grad"](x, out_grad, x.dtype.type(beta), x.dtype.type(threshold))

    return {
        "sigmoid": sigmoid,
        "sigmoid_grad": sigmoid_grad,
        "silu": silu,
        "silu_grad": silu_grad,
        "gelu": gelu,
        "gelu_grad": gelu_grad,
        "softplus": softplus,
        "softplus_grad": softplus_grad,
    }


def register_cuda_kernels() -> None:
    """Compile-on-first-use fused CuPy kernels and register them for the "cuda" backend."""
    global _registered
    if _registered:
        return
    for name, fn in _build(_device.require_cupy()).items():
        register_kernel(name, backends=("cuda",))(fn)
    _registered = True


# Registered once CuPy loads (device.cupy_module), which is never at import time.
_device.when_cupy_loads(register_cuda_kernels)

__all__ = ["register_cuda_kernels"]
