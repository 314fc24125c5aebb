"""og.unique and og.unique_consecutive (torch's): results whose number depends on the data,
so they are plain functions of the array, with no gradient (as in PyTorch); the input may
require grad, the outputs never do."""

from __future__ import annotations

from typing import Any

import numpy as np

from opgrad.runtime.device import array_module
from opgrad.runtime.tensor import Tensor, wrap

__all__ = ["unique", "unique_consecutive"]


def _check(op: str, x: Any, dim: Any) -> int | None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: input must be a Tensor, got {type(x).__name__}")
    if dim is None:
        return None
    if isinstance(dim, bool) or not isinstance(dim, int) or not -max(x.ndim, 1) <= dim < max(x.ndim, 1):
        raise ValueError(f"{op}: dim must be an axis of the {x.ndim}-D input, got {dim!r}")
    return dim % max(x.ndim, 1)


def _pack(values: Any, inverse: Any, counts: Any, return_inverse: bool, return_counts: bool) -> Any:
    out = [wrap(values)]
    if return_inverse:
        out.append(wrap(inverse.astype(np.int64)))
    if return_counts:
        out.append(wrap(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def unique(
    input: Tensor,  # noqa: A002 - PyTorch's name
    sorted: bool = True,  # noqa: A002
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The distinct elements of input (or distinct slices along dim), ascending; with
    return_inverse the index of each element's value in them (input's shape, or the length
    of dim), with return_counts how often each occurs. Returns a tensor, or a tuple when
    either flag is set, as torch.unique. (The result is always sorted, which sorted=False
    permits.)"""
    axis = _check("unique", input, dim)
    xp = array_module(input._data)
    data = input._data
    if axis is None:
        values, inverse, counts = xp.unique(data, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(data.shape)
    else:
        values, inverse, counts = xp.unique(data, return_inverse=True, return_counts=True, axis=axis)
        inverse = inverse.reshape(-1)
    return _pack(values, inverse, counts, return_inverse, return_counts)


def unique_consecutive(
    input: Tensor,  # noqa: A002
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """Each run of equal consecutive elements (or slices along dim) collapsed to one, as
    torch.unique_consecutive, with the same optional inverse and counts."""
    axis = _check("unique_consecutive", input, dim)
    xp = array_module(input._data)
    data = input._data.reshape(-1) if axis is None else xp.moveaxis(input._data, axis, 0)
    n = data.shape[0]
    if n == 0:
        empty = xp.zeros(0, dtype=np.int64)
        values = data if axis is None else xp.moveaxis(data, 0, axis)
        return _pack(
            values, empty.reshape(input.shape if axis is None else (0,)), empty, return_inverse, return_counts
        )
    flat = data.reshape(n, -1)
    new_run = xp.concatenate([xp.ones(1, dtype=bool), (flat[1:] != flat[:-1]).any(axis=1)])
    starts = xp.flatnonzero(new_run)
    values = data[starts]
    inverse = xp.cumsum(new_run) - 1
    counts = xp.diff(xp.concatenate([starts, xp.asarray([n])]))
    if axis is not None:
        values = xp.moveaxis(values, 0, axis)
    else:
        inverse = inverse.reshape(input.shape)
    return _pack(values, inverse, counts, return_inverse, return_counts)
