"""Grad nodes (in progress)."""

from __future__ import annotations

from typing import Any


class TensorMeta:
    """Shape, dtype and device of a tensor, without its data."""

    __slots__ = ("shape", "dtype", "device")

    def __init__(self, shape: tuple[int, ...], dtype: Any, device: str = "cpu") -> None:
        self.shape = tuple(shape)
        self.dtype = dtype
        self.device = device

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self) -> str:
        return f"TensorMeta(shape={self.shape}, dtype={self.dtype}, device={self.device!r})"
