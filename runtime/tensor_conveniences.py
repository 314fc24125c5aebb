"""Tensor methods composed of ops: the PyTorch spellings (and Paddle's) that ops.yaml does not
generate one to one.

Each method here calls generated ops (through `later.ops`), so everything differentiable in
PyTorch is differentiable here, by the ops' own gradients: `view`/`reshape`/`permute`/
`expand` take sizes as varargs (`x.view(3, 2)`), `clone` and `contiguous` copy through `cast`,
`chunk` is a `split`, `float()`/`double()`/... are `astype`. `Tensor` inherits
`TensorConveniences` beside the generated `TensorMethods`. How `x.size` serves both Paddle
(an element count) and PyTorch (`x.size()`, `x.size(d)`) is explained in
docs/coming_from_pytorch_paddle.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from opgrad.runtime.device import array_module
from opgrad.runtime.dtypes import as_dtype
from opgrad.runtime.later import later

if TYPE_CHECKING:
    from opgrad.runtime.tensor import Tensor

__all__ = ["ElementCount", "TensorConveniences", "sizes_arg"]


class ElementCount(int):
    """`x.size`: the number of elements (Paddle's `size`, an int in every way), and callable
    as PyTorch's `size()`: `x.size()` is the shape tuple, `x.size(d)` one dimension."""

    _shape: tuple[int, ...]  # (an int subclass cannot have slots)

    def __new__(cls, shape: tuple[int, ...]) -> ElementCount:
        self = super().__new__(cls, math.prod(shape))
        self._shape = shape
        return self

    def __call__(self, dim: int | None = None) -> Any:
        if dim is None:
            return self._shape
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
            raise TypeError(f"size: dim must be an int, got {type(dim).__name__}")
        n = len(self._shape)
        if not -n <= dim < n:
            raise IndexError(f"size: dim {dim} is out of range for a tensor of {n} dimension(s)")
        return self._shape[dim]

    def __repr__(self) -> str:
        return int.__repr__(self)


def sizes_arg(method: str, args: tuple[Any, ...]) -> Any:
    """Sizes given as varargs (`x.view(3, 2)`) or as one sequence (`x.view((3, 2))`); the
    ops check each size (an int, never a truncated float)."""
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
        return args[0]
    for i, value in enumerate(args):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(
                f"{method}: size {i} must be an int, got {type(value).__name__} {value!r}; give ints "
                f"({method}(3, 2)) or one sequence ({method}((3, 2)))"
            )
    return args


class TensorConveniences:
    """Mixin for `Tensor` (see the module docstring)."""

    __slots__ = ()

    # -- size and shape --------------------------------------------------------------------
    @property
    def size(self: Any) -> ElementCount:
        """The element count (Paddle), callable as PyTorch's `size()` / `size(dim)`."""
        return ElementCount(self._data.shape)

    def dim(self: Any) -> int:
        return int(self._data.ndim)

    ndimension = dim

    def reshape(self: Any, *shape: Any) -> Tensor:
        """`x.reshape(3, 2)` or `x.reshape((3, 2))`; -1 infers one size."""
        return later.ops.reshape(self, sizes_arg("reshape", shape))

    def view(self: Any, *shape: Any) -> Tensor:
        """A reshape (a view when NumPy can make one). A dtype (PyTorch's reinterpreting
        `view(dtype)`) is refused: it would expose raw bytes."""
        if len(shape) == 1 and isinstance(shape[0], (str, np.dtype, type)):
            raise TypeError("view: reinterpreting memory as another dtype is not supported; use astype")
        return later.ops.reshape(self, sizes_arg("view", shape))

    def expand(self: Any, *shape: Any) -> Tensor:
        """`x.expand(2, 3)` or `x.expand((2, 3))`; -1 keeps a size. A read-only view."""
        return later.ops.expand(self, sizes_arg("expand", shape))

    def permute(self: Any, *dims: Any) -> Tensor:
        """`x.permute(1, 0)` or `x.permute((1, 0))`: the axes in this order."""
        return later.ops.transpose(self, sizes_arg("permute", dims))

    def transpose(self: Any, *args: Any, **kwargs: Any) -> Tensor:
        """Paddle's `x.transpose(perm)`, or PyTorch's `x.transpose(dim0, dim1)` (two ints:
        swap those two axes)."""
        if len(args) == 2 and not kwargs and all(isinstance(a, (int, np.integer)) for a in args):
            perm = list(range(self._data.ndim))
            try:
                perm[args[0]], perm[args[1]] = perm[args[1]], perm[args[0]]
            except IndexError:
                raise IndexError(
                    f"transpose: dims {args[0]}, {args[1]} out of range for {self._data.ndim} dimension(s)"
                ) from None
            return later.ops.transpose(self, perm)
        return later.ops.transpose(self, *args, **kwargs)

    # -- complex numbers --------------------------------------------------------------------
    @property
    def real(self: Any) -> Tensor:
        """The real part (og.real): a view of a complex tensor; a real tensor as a view of itself."""
        return later.ops.real(self)

    @property
    def imag(self: Any) -> Tensor:
        """The imaginary part (og.imag): a view of a complex tensor; refused for a real one."""
        return later.ops.imag(self)

    def is_complex(self: Any) -> bool:
        return bool(self._data.dtype.kind == "c")

    def is_floating_point(self: Any) -> bool:
        return bool(self._data.dtype.kind == "f")

    @property
    def mT(self: Any) -> Tensor:  # noqa: N802 - PyTorch's name
        """The last two axes swapped (a batch of matrices transposed)."""
        if self._data.ndim < 2:
            raise ValueError(f"mT: needs at least 2 dimensions, this tensor has {self._data.ndim}")
        return self.transpose(-2, -1)

    def unflatten(self: Any, dim: int, sizes: Sequence[int]) -> Tensor:
        """Axis `dim` split into `sizes` (one may be -1)."""
        shape = list(self._data.shape)
        n = len(shape)
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)) or not -n <= dim < n:
            raise IndexError(f"unflatten: dim {dim!r} is not an axis of a tensor of {n} dimension(s)")
        dim = int(dim) % n
        return later.ops.reshape(
            self, [*shape[:dim], *sizes_arg("unflatten", tuple(sizes)), *shape[dim + 1 :]]
        )

    def expand_as(self: Any, other: Tensor) -> Tensor:
        return later.ops.expand(self, list(other.shape))

    def repeat(self: Any, *sizes: Any) -> Tensor:
        """PyTorch's repeat: tile the tensor `sizes` times along each axis (NumPy's tile)."""
        reps = sizes_arg("repeat", sizes)
        if len(reps) < self._data.ndim:
            raise ValueError(
                f"repeat: {len(reps)} repeat counts for a tensor of {self._data.ndim} dimensions; "
                "give at least one per dimension"
            )
        return later.ops.tile(self, reps)

    def chunk(self: Any, chunks: int, dim: int = 0) -> list[Tensor]:
        """At most `chunks` pieces along `dim`, each ceil(n / chunks) long but the last."""
        if isinstance(chunks, bool) or not isinstance(chunks, (int, np.integer)) or chunks < 1:
            raise ValueError(f"chunk: chunks must be an int >= 1, got {chunks!r}")
        n = self._data.shape[dim]
        step = max(1, -(-n // int(chunks)))
        sections = [step] * (n // step) + ([n % step] if n % step else [])
        return later.ops.split(self, sections or [0], dim)

    # -- copies and dtypes -----------------------------------------------------------------
    def clone(self: Any) -> Tensor:
        """A copy in new memory, differentiable (gradients flow back to self)."""
        return later.ops.cast(self, self._data.dtype)

    def contiguous(self: Any) -> Tensor:
        """Self when its memory is C-contiguous, else a contiguous (differentiable) copy."""
        if self._data.flags.c_contiguous:
            return self
        out = self.clone()
        # cast keeps the memory order; the copy is new and its node saves no output, so its
        # array may be swapped for a C-ordered one of the same values
        out._data = array_module(out._data).ascontiguousarray(out._data)
        return out

    def detach_(self: Any) -> Tensor:
        """Cut this tensor from the graph in place: it becomes a leaf that does not require grad."""
        t: Any = self  # Tensor's slots, which a type checker must not take as declared here
        t._node = None
        t._pos = 0
        t._acc = None
        t._requires_grad = False
        return t

    def type_as(self: Any, other: Tensor) -> Tensor:
        return self.astype(other.dtype)

    def double(self: Any) -> Tensor:
        return self.astype("float64")

    def half(self: Any) -> Tensor:
        return self.astype("float16")

    def long(self: Any) -> Tensor:
        return self.astype("int64")

    # -- creation like self ----------------------------------------------------------------
    def new_zeros(self: Any, *size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
        return self.new_full(sizes_arg("new_zeros", size), 0, dtype=dtype, requires_grad=requires_grad)

    def new_ones(self: Any, *size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
        return self.new_full(sizes_arg("new_ones", size), 1, dtype=dtype, requires_grad=requires_grad)

    def new_full(
        self: Any, size: Any, fill_value: Any, dtype: Any = None, requires_grad: bool = False
    ) -> Tensor:
        """A tensor of `size` filled with `fill_value`, with self's dtype (or `dtype`) and device."""
        dt = self._data.dtype if dtype is None else as_dtype(dtype, "new_full: dtype")
        return later.creation.full(
            size, fill_value, dtype=dt, device=self.device, requires_grad=requires_grad
        )

    # -- selection and reductions --------------------------------------------------------------
    def clamp(self: Any, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002 - PyTorch's names
        return later.ops.clip(self, min, max)

    def where(self: Any, condition: Any, y: Any) -> Tensor:
        """`x.where(condition, y)`: x where condition holds, else y (PyTorch's method)."""
        return later.ops.where(condition, self, y)

    def any(self: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
        """Whether any element (along `dim`) is nonzero; a bool tensor."""
        b = later.ops.cast(self, "bool")
        return later.ops.greater_than(later.ops.sum(b, dim, keepdim), 0)

    def all(self: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
        """Whether every element (along `dim`) is nonzero; a bool tensor."""
        b = later.ops.logical_not(later.ops.cast(self, "bool"))
        return later.ops.equal(later.ops.sum(b, dim, keepdim), 0)

    # -- formatting and the operators the spec does not bind -----------------------------------
    def __format__(self: Any, spec: str) -> str:
        """`f"{t:.2f}"` formats a one-element tensor's value; other tensors take no spec."""
        if self._data.size == 1 and spec:
            return format(self.item(), spec)
        if spec:
            raise TypeError(
                f"format spec {spec!r} needs a one-element tensor; this one has shape {self.shape}"
            )
        return str(self)

    def __pos__(self: Any) -> Tensor:
        if self._data.dtype.kind == "b":
            raise TypeError("unary +: not supported for a bool tensor")
        return self

    # PyTorch's dtype conversions, defined last: inside the class body these names would
    # shadow the builtins for the methods after them.
    def float(self: Any) -> Tensor:
        return self.astype("float32")

    def int(self: Any) -> Tensor:
        return self.astype("int32")

    def bool(self: Any) -> Tensor:
        return self.astype("bool")
