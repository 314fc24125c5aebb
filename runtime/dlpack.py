"""DLPack both ways, and watching memory that another library can write to.

`og.from_dlpack(obj)` wraps any object with `__dlpack__` (a NumPy array, a PyTorch CPU
tensor, a CuPy array) without copying, and `Tensor.__dlpack__` lets `np.from_dlpack`,
`torch.from_dlpack` and `cupy.from_dlpack` do the same with an opgrad tensor. The device
the producer names picks the array module: CPU memory becomes a NumPy array, CUDA memory a
CuPy array (through the device registry, which loads CuPy on first use).

Shared memory and saved tensors: opgrad counts its own in-place writes (version counters),
but a write made by the other library through its view is invisible to those counters. So
memory shared this way (from_dlpack, from_numpy, and a tensor handed out by __dlpack__) is
*watched*: its version counter becomes a `Watched` counter whose value also rises when a
CRC-32 of the host memory changed since it was last read. A tensor saved for backward is
then refused at backward ("modified by an in-place operation") after such a foreign write,
as after an opgrad one. The checksum is taken when the counter is read (when the tensor is
saved, unpacked, or written in place), so only watched tensors pay for it, one pass over
their bytes each time. Not caught: GPU memory (no checksum is taken there; only opgrad's
own writes count), and arrays from `t.numpy()` / `np.asarray(t)`, which are not watched
(as in PyTorch). docs/nn.md lists this too.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from opgrad.runtime import device as _device
from opgrad.runtime.dtypes import as_dtype
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.tensor_wrapper import _Output
from opgrad.runtime.version import VersionCounter, share_version

_VALUE = VersionCounter.__dict__["value"]  # the slot behind `value`, under the property

# DLPack device types (dlpack.h DLDeviceType)
_CPU, _CUDA, _CUDA_HOST, _CUDA_MANAGED = 1, 2, 3, 13


def _fingerprint(arrays: list[Any]) -> int:
    """CRC-32 over the host arrays' bytes (0 for device arrays, which are not checked)."""
    crc = 0
    for a in arrays:
        if isinstance(a, np.ndarray):
            flat = a if a.flags.c_contiguous else np.ascontiguousarray(a)
            crc = zlib.crc32(flat.reshape(-1).view(np.uint8).data, crc)
    return crc


def _get(self: Any) -> int:
    n = _VALUE.__get__(self)
    arrays, crc = self.watch
    now = _fingerprint(arrays)
    if now != crc:  # someone wrote into the memory without telling opgrad: one more version
        n += 1
        _VALUE.__set__(self, n)
        self.watch = (arrays, now)
    return n


def _set(self: Any, value: int) -> None:
    _get(self)  # a foreign write made before this one still counts
    _VALUE.__set__(self, value)
    self.watch = (self.watch[0], _fingerprint(self.watch[0]))


class Watched(VersionCounter):
    """A version counter that also counts writes made outside opgrad (see the module doc)."""

    __slots__ = ()
    value = property(_get, _set)


class _WatchedOutput(_Output):
    """A node's saved output (its own counter) whose memory is watched the same way."""

    __slots__ = ()
    value = property(_get, _set)


def watch(t: Tensor) -> Tensor:
    """Mark `t`'s memory as shared with another library: its version counter (and every
    view's, which share it) then also counts writes made through the other library."""
    array = t._data
    vc = t._vc
    if vc is None:
        vc = t._vc = VersionCounter()
    if vc.__class__ is VersionCounter:
        vc.watch = ([], 0)
        vc.__class__ = Watched
    elif vc.__class__ is _Output:
        vc.watch = ([], 0)
        vc.__class__ = _WatchedOutput
    elif not isinstance(vc, (Watched, _WatchedOutput)):  # pragma: no cover - no other kind today
        raise RuntimeError(f"cannot watch a tensor whose version counter is a {type(vc).__name__}")
    value = vc.value  # settles a foreign write made before now
    arrays = vc.watch[0]
    if not any(a is array for a in arrays):
        arrays = [*arrays, array]
    vc.watch = (arrays, _fingerprint(arrays))
    _VALUE.__set__(vc, value)
    return t


def from_dlpack(obj: Any) -> Tensor:
    """A tensor sharing memory with `obj` (anything with `__dlpack__`: a NumPy array, a
    PyTorch tensor, a CuPy array, another library's tensor). CPU memory gives a CPU tensor,
    CUDA memory a CUDA one (CuPy needed). The memory is watched (see the module doc)."""
    if isinstance(obj, Tensor):
        out = wrap(obj._data)
        share_version(out, obj)
        return watch(out)
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(
            f"from_dlpack: expected an object with __dlpack__ (a NumPy array, a PyTorch or CuPy tensor), "
            f"got {type(obj).__name__}"
        )
    kind = obj.__dlpack_device__()[0] if hasattr(obj, "__dlpack_device__") else _CPU
    if kind in (_CPU, _CUDA_HOST):
        try:
            array = np.from_dlpack(obj)
        except (BufferError, TypeError, RuntimeError) as exc:
            raise ValueError(f"from_dlpack: NumPy cannot view this {type(obj).__name__}: {exc}") from None
    elif kind in (_CUDA, _CUDA_MANAGED):
        array = _device.require_cupy().from_dlpack(obj)
    else:
        raise ValueError(
            f"from_dlpack: the {type(obj).__name__} lives on DLPack device type {kind}; "
            "opgrad reads CPU (1, 3) and CUDA (2, 13) memory"
        )
    as_dtype(array.dtype, "from_dlpack: dtype")  # a view cannot convert: refuse complex, ...
    return watch(wrap(array))


def export(t: Tensor, kwargs: dict[str, Any]) -> Any:
    """`t.__dlpack__(**kwargs)`: the array's own capsule, after watching `t`'s memory."""
    if t._requires_grad:
        raise RuntimeError(
            "__dlpack__: this tensor requires grad; the other library could write into it behind "
            "autograd. Export t.detach() (it shares the memory and is watched the same way)"
        )
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if not kwargs.get("copy"):
        watch(t)
    return t._data.__dlpack__(**kwargs)


def device(t: Tensor) -> tuple[int, int]:
    """`t.__dlpack_device__()`: (DLPack device type, index)."""
    data = t._data
    if isinstance(data, np.ndarray):
        return (_CPU, 0)
    return tuple(data.__dlpack_device__())
