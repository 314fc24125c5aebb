"""Type promotion: the one table that says which dtype an op computes in (docs/dtypes.md).

The rules are PyTorch's (and Paddle's from 2.6), not NumPy's:

- a float tensor with an int or bool tensor gives the float tensor's dtype (float32 with
  int64 is float32; NumPy would say float64);
- tensors of one category (bool < integer < floating < complex) promote as usual (int32 with int64 is
  int64, float16 with float32 is float32);
- a 0-d tensor does not widen a tensor with dimensions of its own category or a higher one
  (float32 (3,) with float64 () is float32), but lifts it to its category (int64 (3,) with
  float64 () is float64);
- a Python or NumPy scalar never widens a tensor's dtype; a float scalar with an integer or
  bool tensor gives the default float dtype, an int scalar with a bool tensor int64
  (`scalar_dtype`, used by `tensor.as_tensor_arg`);
- ops that only make sense on floats (exp, tanh, sigmoid, divide, ...: `promote: float(...)`
  in ops.yaml) compute integer and bool inputs in the default float dtype;
- complex with floating keeps the wider precision (complex64 with float64 is complex128); a
  complex 0-d tensor or scalar makes a float tensor the complex dtype of its own precision
  (float32 with 1j is complex64), an integer or bool one the default complex dtype.

Generated forwards test the common case inline (`x._data.dtype is not y._data.dtype`,
`x._data.dtype.kind != "f"`) and call `promote_args`/`promote_float`/`promote_list` only when
something must change. Those convert with the differentiable `cast` op, so a gradient comes
back to each input in the input's own dtype. Kernels never decide a result dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from opgrad.runtime.dtypes import as_dtype, complex64, complex128, complex_of, float16, float32, float64
from opgrad.runtime.later import later

if TYPE_CHECKING:
    from opgrad.runtime.tensor import Tensor

__all__ = [
    "COMPLEX_DTYPES",
    "FLOAT_DTYPES",
    "conj_if_complex",
    "refuse_complex",
    "get_default_dtype",
    "promote_args",
    "promote_float",
    "promote_list",
    "result_dtype",
    "scalar_dtype",
    "set_default_dtype",
]

# The floating dtypes, for the generated inline test `x._data.dtype not in FLOAT_DTYPES` (a
# set: a dtype's hash is cached, so this costs less than `dtype.kind`, which builds a string).
FLOAT_DTYPES = frozenset({float16, float32, float64})
# ... and the complex ones, for the generated test of an op that refuses complex input.
COMPLEX_DTYPES = frozenset({complex64, complex128})

_DEFAULT = [float32]  # the default float dtype (a list: set_default_dtype replaces the entry)


def get_default_dtype() -> np.dtype:
    """The dtype of Python floats turned into tensors and of float results of integer inputs."""
    return _DEFAULT[0]


def set_default_dtype(dtype: Any) -> None:
    """Set the default float dtype (float16, float32 or float64), as PyTorch's function does."""
    d = as_dtype(dtype, "set_default_dtype")
    if d.kind != "f":
        raise TypeError(f"set_default_dtype: the default dtype must be floating, got {d}")
    _DEFAULT[0] = d


def _category(d: np.dtype) -> int:
    """0 bool, 1 integer, 2 floating, 3 complex."""
    kind = d.kind
    return 2 if kind == "f" else 0 if kind == "b" else 3 if kind == "c" else 1


def _promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """Two tensors' dtypes: within a category NumPy's promotion, across categories the
    higher category's dtype as it is (int64 with float16 is float16), except that complex
    with floating keeps the wider precision (complex64 with float64 is complex128)."""
    ca, cb = _category(a), _category(b)
    if ca == cb or ca + cb == 5:
        return np.promote_types(a, b)
    return a if ca > cb else b


def _combine(higher: np.dtype | None, lower: np.dtype | None) -> np.dtype | None:
    """`higher` (tensors of more dimensions) with `lower`: lower only lifts the category
    (a complex one lifts a float dtype to the complex dtype of the same precision)."""
    if higher is None:
        return lower
    if lower is None or _category(lower) <= _category(higher):
        return higher
    if lower.kind == "c" and higher.kind == "f":
        return complex_of(higher)
    return _promote(higher, lower)


def result_dtype(*dtypes_and_ndims: tuple[np.dtype, int]) -> np.dtype:
    """The dtype an op on tensors of these (dtype, ndim) computes in (rules above)."""
    dims: np.dtype | None = None
    zero: np.dtype | None = None
    for d, ndim in dtypes_and_ndims:
        if ndim:
            dims = d if dims is None else _promote(dims, d)
        else:
            zero = d if zero is None else _promote(zero, d)
    out = _combine(dims, zero)
    assert out is not None
    return out


def scalar_dtype(like: np.dtype, value: Any) -> np.dtype:
    """The dtype of a Python or NumPy scalar operand next to a tensor of dtype `like`: `like`
    unless the scalar's category is higher (a float with an integer tensor: the default
    float dtype; an int with a bool tensor: int64)."""
    if isinstance(value, (bool, np.bool_)):
        return like
    if isinstance(value, (int, np.integer)):
        return np.dtype(np.int64) if like.kind == "b" else like
    if isinstance(value, (float, np.floating)):
        return like if like.kind in "fc" else _DEFAULT[0]
    if isinstance(value, (complex, np.complexfloating)):
        return complex_of(like) if like.kind in "fc" else complex_of(_DEFAULT[0])
    return np.result_type(like, np.asarray(value).dtype)


def _cast(t: Any, dtype: np.dtype) -> Any:
    return t if t._data.dtype == dtype else later.ops.cast(t, dtype)


def promote_args(op: str, to_float: bool, *tensors: Any) -> tuple[Tensor, ...]:  # None stays None
    """`tensors` converted to the dtype the op computes in (`to_float`: a float op, integer
    results become the default float dtype; an absent optional one, None, stays None).
    Called when their dtypes differ (or, for a float op, when one is not floating)."""
    target = result_dtype(*[(t._data.dtype, t._data.ndim) for t in tensors if t is not None])
    if to_float and target.kind not in "fc":
        target = _DEFAULT[0]
    if target.kind == "c" and op not in COMPLEX_OPS:
        refuse_complex(op, *tensors)
    # typed as Tensors for the generated callers, which test an optional operand for None
    return cast("tuple[Tensor, ...]", tuple(None if t is None else _cast(t, target) for t in tensors))


def promote_float(op: str, x: Any) -> Tensor:
    """A float op's one input, converted to the default float dtype if it is not floating
    (a complex one stays complex when the op accepts complex input, and is refused otherwise)."""
    kind = x._data.dtype.kind
    if kind == "c":
        if op not in COMPLEX_OPS:
            refuse_complex(op, x)
        return cast("Tensor", x)
    return x if kind == "f" else _cast(x, _DEFAULT[0])


# The ops that accept complex tensors (`complex: true` in ops.yaml); the generated package
# fills it in when it is imported (generated/ops.py's COMPLEX_OPS).
COMPLEX_OPS: set[str] = set()


def refuse_complex(op: str, *tensors: Any, arg: str | None = None) -> None:
    """TypeError naming the op (and the argument, when the caller knows it) that got a
    complex tensor: only ops marked `complex: true` in ops.yaml compute on complex tensors
    (their gradients follow the conjugate convention; docs/dtypes.md)."""
    found = next((t._data.dtype for t in tensors if t is not None and t._data.dtype.kind == "c"), None)
    where = f"{op}: {arg}" if arg is not None else op
    raise TypeError(
        f"{where}: complex tensors are not supported (got {found}); {op} takes real tensors. "
        "docs/dtypes.md lists the ops that accept complex input (or take og.real/og.imag first)"
    )


def promote_list(op: str, xs: Sequence[Any]) -> list[Tensor]:
    """A `Tensor[]` argument (concat, stack) brought to one dtype; as it is when it has one."""
    first = xs[0]._data.dtype
    if all(t._data.dtype is first for t in xs):
        if first.kind == "c" and op not in COMPLEX_OPS:
            refuse_complex(op, *xs)
        return list(xs)
    return list(promote_args(op, False, *xs))


def conj_if_complex(t: Any) -> Any:
    """ops.conj for a complex tensor; a real one is its own conjugate and comes back as it is
    (the backward composites call conj where a holomorphic derivative appears)."""
    return later.ops.conj(t) if t._data.dtype.kind == "c" else t
