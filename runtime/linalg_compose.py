"""Linear-algebra functions composed of generated ops, so every order of derivative comes
from the ops': tensordot, vector_norm, matrix_norm and linalg.norm (PyTorch's and Paddle's
argument conventions). Exposed as `og.tensordot` and in `og.linalg`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from opgrad.generated import ops
from opgrad.runtime.tensor import Tensor

__all__ = ["matrix_norm", "norm", "tensordot", "vector_norm"]


def _tensor(op: str, arg: str, x: Any) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: {arg} must be a Tensor, got {type(x).__name__}")
    return x


def _axes(op: str, arg: str, axes: Any, ndim: int) -> list[int]:
    out = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, int) or not -ndim <= a < ndim:
            raise ValueError(f"{op}: {arg} has {a!r}, not an axis of a {ndim}-D tensor")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: {arg} repeats an axis: {list(axes)}")
    return out


def tensordot(a: Tensor, b: Tensor, dims: int | Sequence[Any] = 2) -> Tensor:
    """Sum of products over the given axes of a and b (torch.tensordot / paddle.tensordot):
    `dims` an int k contracts a's last k axes with b's first k; a pair of lists contracts
    a's axes dims[0] with b's dims[1], in order. The result has a's free axes, then b's."""
    a, b = _tensor("tensordot", "a", a), _tensor("tensordot", "b", b)
    if isinstance(dims, int) and not isinstance(dims, bool):
        if not 0 <= dims <= min(a.ndim, b.ndim):
            raise ValueError(
                f"tensordot: dims={dims} must be between 0 and min(a.ndim, b.ndim) = {min(a.ndim, b.ndim)}"
            )
        ca, cb = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    elif isinstance(dims, (list, tuple)) and len(dims) == 2:
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
        ca, cb = _axes("tensordot", "dims[0]", da, a.ndim), _axes("tensordot", "dims[1]", db, b.ndim)
        if len(ca) != len(cb):
            raise ValueError(
                f"tensordot: dims[0] and dims[1] must have the same length, got {len(ca)} and {len(cb)}"
            )
    else:
        raise TypeError(f"tensordot: dims must be an int or a pair of axis lists, got {dims!r}")
    for i, j in zip(ca, cb, strict=True):
        if a.shape[i] != b.shape[j]:
            raise ValueError(
                f"tensordot: a's axis {i} (size {a.shape[i]}) and b's axis {j} (size {b.shape[j]}) are "
                "contracted together, so their sizes must match"
            )
    fa = [i for i in range(a.ndim) if i not in ca]
    fb = [j for j in range(b.ndim) if j not in cb]
    k = math.prod(a.shape[i] for i in ca)
    am = ops.reshape(ops.transpose(a, fa + ca), [math.prod(a.shape[i] for i in fa), k])
    bm = ops.reshape(ops.transpose(b, cb + fb), [k, math.prod(b.shape[j] for j in fb)])
    return ops.reshape(ops.matmul(am, bm), [a.shape[i] for i in fa] + [b.shape[j] for j in fb])


def _dims(op: str, dim: Any, ndim: int) -> list[int]:
    if dim is None:
        return list(range(ndim))
    return _axes(op, "dim", [dim] if isinstance(dim, int) else list(dim), ndim)


def vector_norm(x: Tensor, ord: float = 2, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """The vector ord-norm over dim (every axis when None), as torch.linalg.vector_norm: ord
    any real (inf: max |x|, -inf: min |x|, 0: the count of non-zeros, a float with no
    gradient). The gradient at x = 0 is 0 for ord >= 1, as in PyTorch (subgradient)."""
    x = _tensor("vector_norm", "x", x)
    axes = _dims("vector_norm", dim, x.ndim)
    if isinstance(ord, bool) or not isinstance(ord, (int, float)) or math.isnan(ord):
        raise TypeError(f"vector_norm: ord must be a real number, got {ord!r}")
    if x.dtype.kind != "f":
        raise TypeError(f"vector_norm: x must be a floating tensor, got dtype {x.dtype}")
    if ord == math.inf:
        return ops.norm(x, math.inf, axes, keepdim)
    if ord == -math.inf:
        return ops.min(ops.abs(x), axes, keepdim)
    if ord == 0:  # the count of non-zeros: piecewise constant, so no gradient
        return ops.sum(ops.cast(ops.not_equal(x, 0.0), x.dtype), axes, keepdim)
    if ord >= 1:
        return ops.norm(x, float(ord), axes, keepdim)
    # 0 < |ord| < 1 or negative: sum(|x|^ord)^(1/ord), straight from ops
    return ops.pow(ops.sum(ops.pow(ops.abs(x), float(ord)), axes, keepdim), 1.0 / ord)


_MATRIX_ORDS = ("fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf)


def matrix_norm(x: Tensor, ord: Any = "fro", dim: Sequence[int] = (-2, -1), keepdim: bool = False) -> Tensor:  # noqa: A002
    """The matrix norm over the two axes dim, as torch.linalg.matrix_norm: "fro" (Frobenius),
    "nuc" (the sum of the singular values), 2 / -2 (the largest / smallest singular value),
    1 / -1 (max / min column sum of |x|), inf / -inf (max / min row sum)."""
    x = _tensor("matrix_norm", "x", x)
    if x.ndim < 2:
        raise ValueError(f"matrix_norm: x must have at least 2 dimensions, got shape {tuple(x.shape)}")
    if not isinstance(dim, (list, tuple)) or len(dim) != 2:
        raise ValueError(f"matrix_norm: dim must be a pair of axes, got {dim!r}")
    r, c = _axes("matrix_norm", "dim", list(dim), x.ndim)
    if ord in (2, -2, "nuc"):  # from the singular values of the matrices moved to the end
        rest = [i for i in range(x.ndim) if i not in (r, c)]
        s = ops.svdvals(ops.transpose(x, rest + [r, c]))
        out = ops.sum(s, [-1]) if ord == "nuc" else (ops.max if ord == 2 else ops.min)(s, [-1])
        return ops.unsqueeze(out, sorted([r, c])) if keepdim else out
    if ord == "fro":
        return ops.norm(x, 2.0, [r, c], keepdim)
    if ord not in _MATRIX_ORDS or isinstance(ord, bool):
        raise ValueError(f"matrix_norm: ord must be one of {_MATRIX_ORDS}, got {ord!r}")
    summed, other = (r, c) if ord in (1, -1) else (c, r)  # column sums (1) or row sums (inf)
    sums = ops.sum(ops.abs(x), [summed], True)
    pick = ops.max if ord in (1, math.inf) else ops.min
    out = pick(sums, [other], True)
    return out if keepdim else ops.squeeze(out, sorted([r, c]))


def norm(x: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """torch.linalg.norm: a vector norm when dim is an int (or None with 1-D x, or ord None
    with dim None: the 2-norm of every entry), a matrix norm when dim is a pair (or None
    with 2-D x and an ord given)."""
    x = _tensor("norm", "x", x)
    if isinstance(dim, int) and not isinstance(dim, bool):
        return vector_norm(x, 2 if ord is None else ord, dim, keepdim)
    if dim is None and (ord is None or x.ndim == 1):
        return vector_norm(x, 2 if ord is None else ord, None, keepdim)
    if dim is None:
        if x.ndim != 2:
            raise ValueError(
                f"norm: ord={ord!r} without dim needs a 1-D or 2-D x, got shape {tuple(x.shape)}"
            )
        dim = (-2, -1)
    if len(dim) == 1:
        return vector_norm(x, 2 if ord is None else ord, dim, keepdim)
    return matrix_norm(x, "fro" if ord is None else ord, dim, keepdim)
