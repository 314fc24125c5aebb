"""dtypes: opgrad's dtypes are NumPy dtypes; strings are accepted wherever a dtype is."""

from __future__ import annotations

from typing import Any

import numpy as np

float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")
int32 = np.dtype("int32")
int64 = np.dtype("int64")
bool_ = np.dtype("bool")
uint8 = np.dtype("uint8")
int8 = np.dtype("int8")
int16 = np.dtype("int16")
complex64 = np.dtype("complex64")
complex128 = np.dtype("complex128")

_ALIASES: dict[str, np.dtype] = {
    "float": float32,
    "double": float64,
    "half": float16,
    "int": int64,
    "long": int64,
    "bool": bool_,
    "cfloat": complex64,
    "cdouble": complex128,
}
_SUPPORTED: set[np.dtype] = {
    float16,
    float32,
    float64,
    complex64,
    complex128,
    int8,
    int16,
    int32,
    int64,
    uint8,
    bool_,
}


def as_dtype(dtype: Any, what: str = "dtype") -> np.dtype:
    """A NumPy dtype from a dtype, a NumPy scalar type or a name ('float64', 'float32', ...).

    None is refused (NumPy would read it as float64): callers substitute their default."""
    if dtype is None:
        raise TypeError(f"{what}: expected a dtype, got None")
    if isinstance(dtype, str):
        key = dtype.strip().lower()
        if key.startswith("paddle.") or key.startswith("torch."):
            key = key.split(".", 1)[1]
        found = _ALIASES.get(key)
        if found is not None:
            return found
        try:
            result = np.dtype(key)
        except TypeError:
            result = None
    else:
        try:
            result = np.dtype(dtype)
        except TypeError:
            result = None
    if result is None or result not in _SUPPORTED:
        names = ", ".join(sorted(d.name for d in _SUPPORTED))
        raise TypeError(f"{what}: unsupported dtype {dtype!r}; expected one of {names}")
    return result


def is_floating(dtype: np.dtype) -> bool:
    return dtype.kind == "f"


def is_complex(x: Any) -> bool:
    """Whether a tensor (torch.is_complex, paddle.is_complex) or a dtype is complex."""
    data = getattr(x, "_data", None)
    if data is not None:
        return bool(data.dtype.kind == "c")
    try:
        return as_dtype(x, "is_complex").kind == "c"
    except TypeError:
        raise TypeError(f"is_complex: expected a Tensor or a dtype, got {type(x).__name__}") from None


def complex_of(dtype: np.dtype) -> np.dtype:
    """The complex dtype that holds a float dtype's values (float16 and float32: complex64)."""
    if dtype.kind == "c":
        return dtype
    return complex128 if dtype == float64 else complex64


def real_of(dtype: np.dtype) -> np.dtype:
    """The float dtype of a complex dtype's parts (complex64: float32); a real dtype as it is."""
    if dtype.kind != "c":
        return dtype
    return float64 if dtype == complex128 else float32
