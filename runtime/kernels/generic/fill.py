"""Kernels of the in-place support ops: `fill` (every element set to a value) and `zero`.

Their gradient for x is zero (the result does not depend on x's values), so the grad
kernels need x's shape and dtype only (`no_need_buffer: x`). On NumPy arrays both have
into variants (`fill_` and `zero_` write straight into x: kernels/registry.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opgrad.runtime.kernels.common import array_module
from opgrad.runtime.kernels.registry import register_into, register_kernel


def _check_value(x: Any, value: Any) -> None:
    if x.dtype.kind in "iub" and isinstance(value, float) and not float(value).is_integer():
        raise TypeError(f"fill: value {value!r} is not an integer, but x has dtype {x.dtype}")


@register_kernel("fill")
def fill(x: Any, value: Any) -> Any:
    _check_value(x, value)
    return array_module(x).full(x.shape, value, dtype=x.dtype)


@register_into(fill)
def fill_into(out: Any, x: Any, value: Any) -> bool:
    _check_value(x, value)
    if out.__class__ is not np.ndarray or out.shape != x.shape or isinstance(value, complex):
        return False  # (a complex value's warning for a real x: the general path warns before writing)
    np.copyto(out, value, casting="unsafe")  # what numpy.full does into its new array
    return True


@register_kernel("fill_grad")
def fill_grad(x: Any, out_grad: Any, value: Any) -> Any:
    return array_module(out_grad).zeros(x.shape, dtype=x.dtype)


@register_kernel("zero")
def zero(x: Any) -> Any:
    return array_module(x).zeros(x.shape, dtype=x.dtype)


@register_into(zero)
def zero_into(out: Any, x: Any) -> bool:
    if out.__class__ is not np.ndarray or out.shape != x.shape:
        return False
    out.fill(0)  # numpy.zeros's bytes: +0, False, 0j
    return True


@register_kernel("zero_grad")
def zero_grad(x: Any, out_grad: Any) -> Any:
    return array_module(out_grad).zeros(x.shape, dtype=x.dtype)
