"""`og.fft`: discrete Fourier transforms with PyTorch's and NumPy's names and arguments.

The four n-dimensional transforms are ops of ops.yaml (fftn, ifftn, rfftn, irfftn: kernels
in runtime/kernels/generic/spectral.py, gradients the adjoint transforms, so every order
works); the one- and two-dimensional names call them over the axes they name. `n`/`s` crop
or zero-pad the input before the transform, `dim`/`axis` pick the axes (PyTorch's and
NumPy's spelling; give one), and `norm` is "backward" (the default: no scaling forward, 1/n
inverse), "ortho" (1/sqrt(n) both ways) or "forward" (1/n forward, none inverse).
fftshift/ifftshift are `og.roll` by half of each axis, fftfreq/rfftfreq the sample
frequencies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.generated.ops import fftn as _fftn
from opgrad.generated.ops import ifftn as _ifftn
from opgrad.generated.ops import irfftn as _irfftn
from opgrad.generated.ops import rfftn as _rfftn
from opgrad.generated.ops import roll
from opgrad.runtime.arguments import alias_arg, int_arg, int_list_arg
from opgrad.runtime.creation import tensor
from opgrad.runtime.promotion import get_default_dtype
from opgrad.runtime.tensor import Tensor

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]


def _one_axis(op: str, dim: Any, axis: Any) -> int:
    chosen = alias_arg(op, "dim", dim, None, "axis", axis, False)  # both given: a TypeError
    return -1 if chosen is None else int_arg(chosen, op, "dim")


def _many_axes(op: str, dim: Any, default_dim: Any, axes: Any, fallback: Any) -> Any:
    """dim (PyTorch) or axes (NumPy), as a list; `fallback` when neither names any."""
    chosen = alias_arg(op, "dim", dim, default_dim, "axes", axes, False)
    if chosen is None:
        return fallback
    found = int_list_arg(chosen, op, "dim")
    return [found] if isinstance(found, int) else list(found)


def _length(op: str, n: Any) -> list[int] | None:
    return None if n is None else [int_arg(n, op, "n")]


def _lengths(op: str, s: Any) -> list[int] | None:
    if s is None:
        return None
    found = int_list_arg(s, op, "s")
    return [found] if isinstance(found, int) else list(found)


def _one_dimensional(kernel: Callable[..., Tensor], name: str, doc: str) -> Callable[..., Tensor]:
    """`name(x, n=None, dim=None, norm=None, *, axis=None)`: kernel over one axis (the last by default)."""

    def transform(
        x: Tensor,
        n: int | None = None,
        dim: int | None = None,
        norm: str | None = None,
        *,
        axis: int | None = None,
    ) -> Tensor:
        return kernel(x, _length(name, n), [_one_axis(name, dim, axis)], norm or "backward")

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = doc
    return transform


def _n_dimensional(
    kernel: Callable[..., Tensor], name: str, doc: str, dims: tuple[int, ...] | None
) -> Callable[..., Tensor]:
    """`name(x, s=None, dim=dims, norm=None, *, axes=None)`: kernel over the axes dim (or axes)."""

    def transform(
        x: Tensor,
        s: Sequence[int] | None = None,
        dim: Sequence[int] | None = dims,
        norm: str | None = None,
        *,
        axes: Sequence[int] | None = None,
    ) -> Tensor:
        chosen = _many_axes(name, dim, dims, axes, None)
        return kernel(x, _lengths(name, s), chosen, norm or "backward")

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = doc
    return transform


fft = _one_dimensional(
    _fftn, "fft", "The one-dimensional discrete Fourier transform along dim (default the last axis)."
)
ifft = _one_dimensional(_ifftn, "ifft", "The one-dimensional inverse discrete Fourier transform along dim.")
rfft = _one_dimensional(
    _rfftn, "rfft", "The transform of a real signal along dim: its n // 2 + 1 non-negative frequencies."
)
irfft = _one_dimensional(
    _irfftn, "irfft", "The real signal of length n (default 2 * (m - 1)) whose rfft along dim is x."
)
fft2 = _n_dimensional(
    _fftn,
    "fft2",
    "The two-dimensional discrete Fourier transform over dim (default the last two axes).",
    (-2, -1),
)
ifft2 = _n_dimensional(
    _ifftn, "ifft2", "The two-dimensional inverse transform over dim (default the last two axes).", (-2, -1)
)
rfft2 = _n_dimensional(
    _rfftn, "rfft2", "rfftn over dim (default the last two axes): the half spectrum along the last.", (-2, -1)
)
irfft2 = _n_dimensional(_irfftn, "irfft2", "irfftn over dim (default the last two axes).", (-2, -1))
fftn = _n_dimensional(
    _fftn,
    "fftn",
    "The n-dimensional discrete Fourier transform over dim (default every axis, or the last len(s)).",
    None,
)
ifftn = _n_dimensional(
    _ifftn, "ifftn", "The n-dimensional inverse discrete Fourier transform over dim.", None
)
rfftn = _n_dimensional(
    _rfftn,
    "rfftn",
    "The n-dimensional transform of a real tensor, the half spectrum along the last axis of dim.",
    None,
)
irfftn = _n_dimensional(
    _irfftn,
    "irfftn",
    "The inverse of rfftn: a real tensor from the half spectrum along the last axis of dim.",
    None,
)


def _shift_axes(op: str, x: Tensor, dim: Any, axes: Any) -> list[int]:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: x must be a Tensor, got {type(x).__name__}")
    chosen = _many_axes(op, dim, None, axes, list(range(x.ndim)))
    for a in chosen:
        if not -x.ndim <= a < max(x.ndim, 1):
            raise ValueError(f"{op}: axis {a} is out of range for x with {x.ndim} dimensions")
    return [a % x.ndim for a in chosen] if x.ndim else []


def fftshift(x: Tensor, dim: Any = None, *, axes: Any = None) -> Tensor:
    """x rolled by half of each axis in dim (default every axis): the zero frequency in the middle."""
    chosen = _shift_axes("fftshift", x, dim, axes)
    if not chosen:
        return roll(x, 0)  # a 0-d x (or no axes): a copy
    return roll(x, [x.shape[a] // 2 for a in chosen], chosen)


def ifftshift(x: Tensor, dim: Any = None, *, axes: Any = None) -> Tensor:
    """The inverse of fftshift: x rolled back by half of each axis in dim (default every axis)."""
    chosen = _shift_axes("ifftshift", x, dim, axes)
    if not chosen:
        return roll(x, 0)  # a 0-d x (or no axes): a copy
    return roll(x, [-(x.shape[a] // 2) for a in chosen], chosen)


def fftfreq(n: int, d: float = 1.0, *, dtype: Any = None) -> Tensor:
    """The sample frequencies of an n-point transform with sample spacing d (numpy.fft.fftfreq)."""
    n = int_arg(n, "fftfreq", "n")
    if n < 1:
        raise ValueError(f"fftfreq: n must be positive, got {n}")
    return tensor(np.fft.fftfreq(n, float(d)), dtype=get_default_dtype() if dtype is None else dtype)


def rfftfreq(n: int, d: float = 1.0, *, dtype: Any = None) -> Tensor:
    """The non-negative sample frequencies of an n-point rfft (numpy.fft.rfftfreq)."""
    n = int_arg(n, "rfftfreq", "n")
    if n < 1:
        raise ValueError(f"rfftfreq: n must be positive, got {n}")
    return tensor(np.fft.rfftfreq(n, float(d)), dtype=get_default_dtype() if dtype is None else dtype)
