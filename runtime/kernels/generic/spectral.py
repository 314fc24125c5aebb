"""Kernels of the complex-number ops (conj, real, imag, complex, polar, view_as_real,
view_as_complex) and of the FFTs (fftn, ifftn, rfftn, irfftn; og.fft builds fft, fft2,
rfft, irfft2, ... on them), issue 15.

Gradients follow PyTorch's convention: the gradient of a real loss L with respect to a
complex z = a + ib is dL/da + i dL/db (the conjugate Wirtinger derivative, times two), so
that gradient descent on a real loss of complex parameters works unchanged. For a linear map
that is the adjoint: the FFT's gradient is the inverse transform with the dual norm, and a
real input keeps the real part of it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opgrad.runtime.dtypes import complex_of, real_of
from opgrad.runtime.kernels.common import array_module, nd
from opgrad.runtime.kernels.registry import register_kernel


def _need_complex(op: str, x: Any) -> None:
    if x.dtype.kind != "c":
        raise TypeError(f"{op}: x must be a complex tensor (complex64 or complex128), got {x.dtype}")


def _need_float(op: str, arg: str, x: Any) -> None:
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"{op}: {arg} must be a float32 or float64 tensor, got {x.dtype}")


@register_kernel("conj")
def conj(x):
    return x if x.dtype.kind != "c" else nd(array_module(x).conj(x))


@register_kernel("real")
def real(x):
    return x if x.dtype.kind != "c" else x.real  # a view, as in PyTorch


@register_kernel("real_grad")
def real_grad(x, out_grad):
    return nd(out_grad.astype(x.dtype))  # the imaginary part of a complex input gets 0


@register_kernel("angle")
def angle(x):
    if x.dtype.kind not in "fc":
        raise TypeError(f"angle: x must be a floating or complex tensor, got {x.dtype}")
    out = array_module(x).angle(x)  # a real x: pi where it is negative, else 0 (NaN stays NaN)
    return nd(out if x.dtype.kind == "c" else out.astype(x.dtype, copy=False))


@register_kernel("imag")
def imag(x):
    _need_complex("imag", x)
    return x.imag  # a view, as in PyTorch


@register_kernel("imag_grad")
def imag_grad(x, out_grad):
    out = array_module(out_grad).zeros(out_grad.shape, x.dtype)
    out.imag = out_grad
    return out


@register_kernel("complex")
def complex_(real, imag):  # noqa: A002 - torch.complex's argument names
    _need_float("complex", "real", real)
    _need_float("complex", "imag", imag)
    xp = array_module(real, imag)
    try:
        shape = np.broadcast_shapes(real.shape, imag.shape)
    except ValueError:
        shapes = f"real of shape {tuple(real.shape)} and imag of shape {tuple(imag.shape)}"
        raise ValueError(f"complex: {shapes} do not broadcast") from None
    out = xp.empty(shape, complex_of(real.dtype))
    out.real = real
    out.imag = imag
    return out


@register_kernel("polar")
def polar(abs, angle):  # noqa: A002 - torch.polar's argument names
    _need_float("polar", "abs", abs)
    _need_float("polar", "angle", angle)
    xp = array_module(abs, angle)
    try:
        return nd((abs * xp.exp(1j * angle)).astype(complex_of(abs.dtype), copy=False))
    except ValueError:
        shapes = f"abs of shape {tuple(abs.shape)} and angle of shape {tuple(angle.shape)}"
        raise ValueError(f"polar: {shapes} do not broadcast") from None


@register_kernel("view_as_real")
def view_as_real(x):
    _need_complex("view_as_real", x)
    if x.ndim and x.strides[-1] % x.itemsize:  # pragma: no cover - NumPy keeps complex items aligned
        raise ValueError("view_as_real: x's items are not aligned; pass a contiguous copy")
    return x[..., None].view(real_of(x.dtype))  # (..., 1) complex seen as (..., 2) real: a view


@register_kernel("view_as_complex")
def view_as_complex(x):
    _need_float("view_as_complex", "x", x)
    if x.ndim == 0 or x.shape[-1] != 2:
        raise ValueError(f"view_as_complex: x's last axis must have length 2, got shape {tuple(x.shape)}")
    if x.strides[-1] != x.itemsize or any(s % (2 * x.itemsize) for s in x.strides[:-1]):
        x = array_module(x).ascontiguousarray(x)  # a gradient may come in strided; copy it
    return x.view(complex_of(x.dtype))[..., 0]


# --- FFT ----------------------------------------------------------------------------------

_NORMS = ("backward", "ortho", "forward")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _fft_args(op: str, x: Any, s: Any, axes: Any, norm: str) -> tuple[Any, Any]:
    """(s, axes) as numpy.fft takes them, with errors that name the op and the argument."""
    if norm not in _NORMS:
        raise ValueError(f"{op}: norm must be 'backward', 'ortho' or 'forward', got {norm!r}")
    if x.dtype == np.float16:
        raise TypeError(f"{op}: float16 is not supported; cast x to float32 first")
    if x.dtype.kind not in "fc":
        raise TypeError(f"{op}: x must be a floating or complex tensor, got {x.dtype}")
    if axes is not None:
        axes = [int(a) for a in axes]
        for a in axes:
            if not -x.ndim <= a < x.ndim:
                raise ValueError(f"{op}: axis {a} is out of range for x with {x.ndim} dimensions")
        if len({a % x.ndim for a in axes}) != len(axes):
            raise ValueError(f"{op}: axes {axes} repeat an axis")
    if s is not None:
        s = [int(n) for n in s]
        if axes is not None and len(s) != len(axes):
            raise ValueError(f"{op}: s has {len(s)} lengths but axes names {len(axes)} axes")
        if len(s) > x.ndim:
            raise ValueError(f"{op}: s has {len(s)} lengths but x has only {x.ndim} dimensions")
        if any(n < 1 for n in s):
            raise ValueError(f"{op}: every length in s must be positive, got {s}")
    if axes is None:
        axes = list(range(x.ndim)) if s is None else list(range(x.ndim - len(s), x.ndim))
    axes = [a % x.ndim for a in axes]
    if not axes:
        raise ValueError(f"{op}: there is no axis to transform (x is 0-d or axes is empty)")
    if s is None:
        s = [x.shape[a] for a in axes]
    if any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"{op}: x has an empty axis among the transformed ones (shape {tuple(x.shape)})")
    return s, axes


def _fit(a: Any, shape: tuple[int, ...], axes: Any) -> Any:
    """`a` cropped or zero-padded along `axes` to `shape`'s lengths there (an adjoint of the
    crop-or-pad that numpy.fft applies to its input)."""
    if all(a.shape[ax] == shape[ax] for ax in axes):
        return a
    xp = array_module(a)
    crop = tuple(slice(0, min(a.shape[ax], shape[ax])) if ax in axes else slice(None) for ax in range(a.ndim))
    out_shape = tuple(shape[ax] if ax in axes else a.shape[ax] for ax in range(a.ndim))
    out = xp.zeros(out_shape, a.dtype)
    out[crop] = a[crop]
    return out


def _to_input(x: Any, g: Any, axes: Any) -> Any:
    """An adjoint transform's result as x's gradient: cropped or padded to x's shape along
    axes, and its real part when x is real (a real input's gradient is real)."""
    g = _fit(g, x.shape, axes)
    return nd(g.real.astype(x.dtype) if x.dtype.kind != "c" else g.astype(x.dtype, copy=False))


def _fft_module(x: Any) -> Any:
    return array_module(x).fft


def _as_complex(x: Any) -> Any:
    return x if x.dtype.kind == "c" else x.astype(complex_of(x.dtype))


@register_kernel("fftn")
def fftn(x, s=None, axes=None, norm="backward"):
    s, axes = _fft_args("fftn", x, s, axes, norm)
    return nd(_fft_module(x).fftn(_as_complex(x), s, axes, norm))


@register_kernel("fftn_grad")
def fftn_grad(x, out_grad, s=None, axes=None, norm="backward"):
    s, axes = _fft_args("fftn", x, s, axes, norm)
    return _to_input(x, _fft_module(out_grad).ifftn(out_grad, s, axes, _DUAL[norm]), axes)


@register_kernel("ifftn")
def ifftn(x, s=None, axes=None, norm="backward"):
    s, axes = _fft_args("ifftn", x, s, axes, norm)
    return nd(_fft_module(x).ifftn(_as_complex(x), s, axes, norm))


@register_kernel("ifftn_grad")
def ifftn_grad(x, out_grad, s=None, axes=None, norm="backward"):
    s, axes = _fft_args("ifftn", x, s, axes, norm)
    return _to_input(x, _fft_module(out_grad).fftn(out_grad, s, axes, _DUAL[norm]), axes)


@register_kernel("rfftn")
def rfftn(x, s=None, axes=None, norm="backward"):
    if x.dtype.kind == "c":
        raise TypeError(f"rfftn: x must be a real tensor, got {x.dtype}; use fftn for complex input")
    s, axes = _fft_args("rfftn", x, s, axes, norm)
    return nd(_fft_module(x).rfftn(x, s, axes, norm))


@register_kernel("rfftn_grad")
def rfftn_grad(x, out_grad, s=None, axes=None, norm="backward"):
    s, axes = _fft_args("rfftn", x, s, axes, norm)
    xp = array_module(out_grad)
    # rfftn is the full transform with the negative frequencies of the last axis dropped:
    # its adjoint fills them with zeros and applies the full adjoint; x is real, so the real part
    full_shape = list(out_grad.shape)
    full_shape[axes[-1]] = s[-1]
    full = _fit(out_grad, tuple(full_shape), [axes[-1]])  # zero-filled to the full spectrum
    return _to_input(x, xp.fft.ifftn(full, s, axes, _DUAL[norm]), axes)


@register_kernel("irfftn")
def irfftn(x, s=None, axes=None, norm="backward"):
    s, axes = _irfftn_lengths(x, s, axes, norm)
    return nd(_fft_module(x).irfftn(_as_complex(x), s, axes, norm))


def _irfftn_lengths(x: Any, s: Any, axes: Any, norm: str) -> tuple[list[int], list[int]]:
    """(s, axes) of irfftn: s as given, or x's lengths with 2 * (m - 1) for the last axis."""
    given = s is not None
    s, axes = _fft_args("irfftn", x, s, axes, norm)
    if not given:
        s = [*s[:-1], 2 * (x.shape[axes[-1]] - 1)]
    if s[-1] < 1:
        raise ValueError(f"irfftn: the output length of the last axis must be positive, got {s[-1]}")
    return s, axes


@register_kernel("irfftn_grad")
def irfftn_grad(x, out_grad, s=None, axes=None, norm="backward"):
    s, axes = _irfftn_lengths(x, s, axes, norm)
    xp = array_module(out_grad)
    # irfft reads bins 0..n//2 of its input; every bin but 0 and (for even n) n/2 stands
    # for a frequency and its mirror image, so its gradient is twice the adjoint's
    g = xp.fft.rfftn(out_grad, s, axes, _DUAL[norm])
    n = s[-1]
    last = axes[-1]
    weight_shape = [1] * g.ndim
    weight_shape[last] = g.shape[last]
    weight = xp.full(weight_shape[last], 2.0, dtype=g.real.dtype)
    weight[0] = 1.0
    if n % 2 == 0:
        weight[-1] = 1.0
    return _to_input(x, g * weight.reshape(weight_shape), axes)
