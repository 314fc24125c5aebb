"""Devices and backends: which array type lives where.

A backend is a name in the kernel registry ("cpu" for NumPy, "cuda" for CuPy); a device is
what users see (`"cpu"`, `"cuda:0"`). CuPy is imported lazily and is optional: without it,
or without a GPU, everything CPU works and asking for "cuda" raises a clear error.
Further backends (a NumPy-backed stand-in in the tests, say) register an array type.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

_NDARRAY = np.ndarray
# array type -> (backend name, array module)
_TYPES: dict[type, tuple[str, ModuleType]] = {np.ndarray: ("cpu", np)}
_cupy: ModuleType | None = None
_cupyx: ModuleType | None = None  # with cupyx.scipy.special loaded
_cupy_checked = False
_cupy_error = ""
# Called once CuPy has loaded (the CUDA kernels register themselves here).
_ON_CUPY: list[Callable[[], None]] = []


def register_backend(name: str, array_type: type, module: ModuleType = np) -> None:
    """Make arrays of `array_type` belong to backend `name` (their kernels: `module`)."""
    _TYPES[array_type] = (name, module)


def unregister_backend(array_type: type) -> None:
    _TYPES.pop(array_type, None)


def when_cupy_loads(fn: Callable[[], None]) -> None:
    """Call `fn()` once CuPy has loaded (now, if it already has)."""
    _ON_CUPY.append(fn)
    if _cupy is not None:
        fn()


def cupy_module() -> ModuleType | None:
    """CuPy if it imports and sees a GPU, else None (the reason is kept for errors). The
    one place that imports CuPy (an optional dependency, so only when first asked)."""
    global _cupy, _cupyx, _cupy_checked, _cupy_error
    if not _cupy_checked:
        _cupy_checked = True
        try:
            import cupy

            if cupy.cuda.runtime.getDeviceCount() < 1:
                raise RuntimeError("CuPy found no CUDA device")
        except Exception as exc:  # ImportError, CUDARuntimeError, ...
            _cupy_error = f"{type(exc).__name__}: {exc}"
        else:
            _cupy = cupy
            try:  # part of every CuPy install; a stand-in CuPy may lack it
                import cupyx.scipy.special

                _cupyx = cupyx
            except ImportError:
                _cupyx = None
            _TYPES[cupy.ndarray] = ("cuda", cupy)
            for fn in _ON_CUPY:
                fn()
    return _cupy


def cupyx_module() -> ModuleType:
    """cupyx (with `cupyx.scipy.special`), for CuPy arrays' scatter-add and erf; only
    reached with CuPy arrays, so CuPy has loaded."""
    require_cupy()
    if _cupyx is None:
        raise RuntimeError("this CuPy has no cupyx.scipy.special (scatter-add and erf need it)")
    return _cupyx


def cuda_available() -> bool:
    return cupy_module() is not None


def require_cupy() -> ModuleType:
    mod = cupy_module()
    if mod is None:
        raise RuntimeError(
            "device 'cuda' is not available: CuPy with a CUDA GPU is needed "
            f"(install opgrad[cuda]); the import said: {_cupy_error}"
        )
    return mod


def _lookup(cls: type) -> tuple[str, ModuleType] | None:
    entry = _TYPES.get(cls)
    if entry is None and not _cupy_checked and cls.__module__.split(".")[0] == "cupy":
        cupy_module()  # a CuPy array made outside opgrad: load the backend now
        entry = _TYPES.get(cls)
    return entry


def backend_of_type(cls: type, op: str = "") -> str:
    entry = _lookup(cls)
    if entry is None:
        for base, found in _TYPES.items():
            if issubclass(cls, base) and base is not np.ndarray:
                entry = found
                break
        else:
            if issubclass(cls, np.ndarray):
                entry = _TYPES[np.ndarray]
    if entry is None:
        where = f"{op}: " if op else ""
        raise TypeError(f"{where}unsupported array type {cls.__module__}.{cls.__qualname__}")
    return entry[0]


def module_of_type(cls: type) -> ModuleType | None:
    """The array module of arrays of type `cls`, or None when `cls` is no registered array
    type (`array_module` is the same question asked of arrays)."""
    entry = _lookup(cls)
    return None if entry is None else entry[1]


def array_module(*arrays: Any) -> ModuleType:
    """The array module (NumPy, CuPy, a registered backend's) of these arrays: the first
    array that is not a NumPy array decides, NumPy when none is; None entries are skipped.
    The runtime and the kernels ask this one function. Kernels pass arrays that dispatch
    already put on one device, so a NumPy first array answers at once."""
    a = arrays[0]
    if a.__class__ is _NDARRAY:
        return np
    for a in arrays:
        if a is None or isinstance(a, np.ndarray):
            continue
        mod = module_of_type(a.__class__)
        if mod is not None:
            return mod
    return np


def device_of(array: Any) -> str:
    """The user-facing device string of an array: 'cpu', 'cuda:0', or a registered name."""
    backend = backend_of_type(type(array))
    if backend == "cuda":
        return f"cuda:{array.device.id}"
    return backend


def move_array(array: Any, target: str) -> Any:
    """`array` on device `target` ('cpu' or 'cuda:N', as from normalize_device): the same
    array when it is already there, else a copy on the target."""
    if target == "cpu":
        if type(array) is np.ndarray:
            return array
        return np.array(array) if isinstance(array, np.ndarray) else array.get()
    if target.startswith("cuda:"):
        cp = require_cupy()
        with cp.cuda.Device(int(target.split(":")[1])):
            return cp.asarray(array)
    raise ValueError(f"cannot move an array to device {target!r}; expected 'cpu' or 'cuda:N'")


def describe_array(array: Any) -> str:
    return f"{device_of(array)} ({type(array).__name__})"


def normalize_device(device: Any) -> str:
    """'cpu', 'cuda', 'cuda:N', 'gpu', 'gpu:N' (Paddle's spelling) -> 'cpu' or 'cuda:N'."""
    text = str(device).strip().lower()
    if text == "cpu":
        return "cpu"
    if text in ("cuda", "gpu"):
        return "cuda:0"
    for prefix in ("cuda:", "gpu:"):
        if text.startswith(prefix) and text[len(prefix) :].isdigit():
            return "cuda:" + text[len(prefix) :]
    if text in {b for (b, _m) in _TYPES.values()}:
        return text
    raise ValueError(f"unknown device {device!r}; expected 'cpu', 'cuda' or 'cuda:N'")
