"""Kernels of the in-place support ops: `fill` (every element set to a value) and `zero`.

Their gradient for x is zero (the result does not depend on x's values), so the grad
kernels need x's shape and dtype only (`no_need_buffer: x`).
"""

from __future__ import annotations

from typing import Any

from opgrad.runtime.kernels.common import array_module
from opgrad.runtime.kernels.registry import register_kernel


@register_kernel("fill")
def fill(x: Any, value: Any) -> Any:
    xp = array_module(x)
    if x.dtype.kind in "iub" and isinstance(value, float) and not float(value).is_integer():
        raise TypeError(f"fill: value {value!r} is not an integer, but x has dtype {x.dtype}")
    return xp.full(x.shape, value, dtype=x.dtype)


@register_kernel("fill_grad")
def fill_grad(x: Any, out_grad: Any, value: Any) -> Any:
    return array_module(out_grad).zeros(x.shape, dtype=x.dtype)


@register_kernel("zero")
def zero(x: Any) -> Any:
    return array_module(x).zeros(x.shape, dtype=x.dtype)


@register_kernel("zero_grad")
def zero_grad(x: Any, out_grad: Any) -> Any:
    return array_module(out_grad).zeros(x.shape, dtype=x.dtype)
