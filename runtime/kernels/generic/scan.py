"""Scan kernels: cumsum and cumprod, their grads, and cumprod's double grad.

With `axis=None` (`dim=None`) they work on the flattened x; their grads reshape back to
x's shape. cumsum's gradient is a reversed cumsum of `out_grad`.
"""

from __future__ import annotations

from opgrad.runtime.kernels.common import array_module, nd, normalize_one_axis
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel


def _scan_axis(op, arg, x_shape, axis):
    """None: the flattened x (axis 0 of a 1-D view); else the normalised axis (0-d: 0)."""
    if axis is None:
        return None
    return normalize_one_axis(axis, max(len(x_shape), 1), op, arg)


def _scan_view(x, a):
    return (x.reshape(-1), 0) if a is None or x.ndim == 0 else (x, a)


def _reverse_cumsum(xp, g, a):
    return xp.flip(xp.cumsum(xp.flip(g, axis=a), axis=a), axis=a)


@register_kernel("cumsum")
@float32_inside
def cumsum(x, axis=None):
    xp = array_module(x)
    a = _scan_axis("cumsum", "axis", x.shape, axis)
    v, a = _scan_view(x, a)
    out = xp.cumsum(v, axis=a, dtype=x.dtype if x.dtype.kind == "f" else None)
    return out.reshape(x.shape) if axis is not None and x.ndim == 0 else out


@register_kernel("cumsum_grad")
@float32_inside
def cumsum_grad(x, out_grad, axis=None):
    xp = array_module(out_grad)
    a = _scan_axis("cumsum", "axis", x.shape, axis)
    g, a = _scan_view(out_grad, a)
    return _reverse_cumsum(xp, g, a).reshape(x.shape).astype(x.dtype, copy=False)


@register_kernel("cumprod")
@float32_inside
def cumprod(x, dim=None):
    xp = array_module(x)
    a = _scan_axis("cumprod", "dim", x.shape, dim)
    v, a = _scan_view(x, a)
    out = xp.cumprod(v, axis=a, dtype=x.dtype if x.dtype.kind == "f" else None)
    return out.reshape(x.shape) if dim is not None and x.ndim == 0 else out


@register_kernel("cumprod_grad")
@float32_inside
def cumprod_grad(x, out, out_grad, dim=None):
    # y_i = x_0 ... x_i. Before a slice's first zero, dL/dx_k = sum_{i>=k} g_i y_i / x_k (x_k != 0).
    # At the first zero z, dL/dx_z = sum_{i>=z} g_i y'_i with y' the products of x where x_z
    # is replaced by 1 (exact, later zeros included). After it every gradient is 0.
    xp = array_module(x)
    a = _scan_axis("cumprod", "dim", x.shape, dim)
    xv, a = _scan_view(x, a)
    ov, _ = _scan_view(out, a)
    g, _ = _scan_view(out_grad, a)
    zeros_so_far = xp.cumsum(xv == 0, axis=a)
    before = zeros_so_far == 0
    first_zero = (xv == 0) & (zeros_so_far == 1)
    safe_x = xp.where(before, xv, 1)
    grad = xp.where(before, _reverse_cumsum(xp, g * ov, a) / safe_x, 0)
    if bool(first_zero.any()):
        y1 = xp.cumprod(xp.where(first_zero, 1, xv), axis=a)
        grad = xp.where(first_zero, _reverse_cumsum(xp, g * y1, a), grad)
    return grad.reshape(x.shape).astype(x.dtype, copy=False)


@register_kernel("cumprod_double_grad")
@float32_inside
def cumprod_double_grad(x, out_grad, x_grad_grad, dim=None):
    # grad_wrt_out_grad is cumprod's JVP along x_grad_grad: sum_k [cumprod of x with x_k := ddx_k]_i
    # (i >= k); grad_wrt_x differentiates <out_grad, that> in x, slot k excluded. Without zeros in
    # x it has the closed form y_i C_i, C = cumsum(ddx / x).
    xp = array_module(x)
    scan = _scan_axis("cumprod", "dim", x.shape, dim)
    xv, a = _scan_view(x, scan)
    dv, _ = _scan_view(x_grad_grad, scan)
    g, _ = _scan_view(out_grad, scan)
    y = xp.cumprod(xv, axis=a)
    if not bool((xv == 0).any()):
        q = dv / xv
        cs = xp.cumsum(q, axis=a)
        grad_wrt_out_grad = y * cs
        gy = g * y
        grad_wrt_x = (_reverse_cumsum(xp, gy * cs, a) - q * _reverse_cumsum(xp, gy, a)) / xv
    else:
        n = xv.shape[a]
        idx = xp.arange(n).reshape((-1,) + (1,) * (xv.ndim - 1 - a))
        grad_wrt_out_grad = xp.zeros(y.shape, dtype=y.dtype)
        grad_wrt_x = xp.zeros(xv.shape, dtype=y.dtype)
        for k in range(n):
            slot = idx == k
            xk = xp.where(slot, dv, xv)
            yk = xp.cumprod(xk, axis=a)
            later = idx >= k
            grad_wrt_out_grad = grad_wrt_out_grad + xp.where(later, yk, 0)
            gk = xp.where(later, g, 0)
            grad_wrt_x = grad_wrt_x + xp.where(slot, 0, cumprod_grad(xk, yk, gk, a))
    return (
        grad_wrt_x.reshape(x.shape).astype(x.dtype, copy=False),
        nd(grad_wrt_out_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )
