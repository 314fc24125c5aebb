"""Linear-algebra functions composed of generated ops, so every order of derivative comes
from the ops': tensordot, vector_norm, matrix_norm, linalg.norm, pinv, lstsq, matrix_rank,
cond, multi_dot and linalg.solve (a vector right-hand side, left=False), with PyTorch's
argument conventions. Exposed as
`og.tensordot` and in `og.linalg`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from opgrad.generated import ops
from opgrad.runtime.tensor import Tensor, wrap

__all__ = [
    "LstsqResult",
    "cond",
    "lstsq",
    "matrix_norm",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "solve",
    "tensordot",
    "vector_norm",
]


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
    if x.dtype.kind == "c":  # the norm of the magnitudes, as torch.linalg.vector_norm
        x = ops.abs(x)
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
    if x.dtype.kind == "c":  # the entries' magnitudes give fro, 1 and inf (svdvals takes real input)
        if ord in (2, -2, "nuc"):
            raise TypeError(f"matrix_norm: ord={ord!r} needs singular values, not supported for complex x")
        x = ops.abs(x)
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


def _vector_rhs(a: Tensor, b: Tensor) -> bool:
    """PyTorch's rule: b is a batch of vectors when it is 1-D, or has one axis fewer than a
    with a's leading shape."""
    return b.ndim == 1 or (b.ndim == a.ndim - 1 and tuple(b.shape) == tuple(a.shape[:-1]))


def solve(a: Tensor, b: Tensor, *, left: bool = True) -> Tensor:
    """torch.linalg.solve: X with a @ X = b (left) or X @ a = b (left=False). b may be a
    vector (or a batch of vectors: one axis fewer than a), as PyTorch allows; og.solve itself
    takes matrices (..., n, k) only."""
    a, b = _tensor("solve", "a", a), _tensor("solve", "b", b)
    if not left:  # X a = b  <=>  a^T X^T = b^T
        if b.ndim < 2:
            raise ValueError(f"solve: left=False needs b of shape (..., k, n), got {tuple(b.shape)}")
        return ops.matrix_transpose(ops.solve(ops.matrix_transpose(a), ops.matrix_transpose(b)))
    if _vector_rhs(a, b):
        return ops.squeeze(ops.solve(a, ops.unsqueeze(b, [-1])), [-1])
    return ops.solve(a, b)


def pinv(x: Tensor, atol: float | None = None, rtol: float | None = None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse of each matrix (torch.linalg.pinv), from the reduced
    SVD: singular values at or below max(atol, rtol * largest) count as 0 (rtol defaults to
    eps * max(m, n) when atol is not given, as PyTorch). hermitian=True uses eigh instead.
    The gradient is that of the composition (exact away from the threshold)."""
    x = _tensor("pinv", "x", x)
    if x.ndim < 2:
        raise ValueError(f"pinv: x must have at least 2 dimensions, got shape {tuple(x.shape)}")
    m, n = x.shape[-2:]
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else float(np.finfo(x.dtype).eps) * max(m, n)
    atol = 0.0 if atol is None else float(atol)
    if hermitian:
        w, v = ops.eigh(x)
        mag = ops.abs(w)
        keep = ops.greater_than(mag, ops.maximum(ops.scale(ops.max(mag, [-1], True), rtol), atol))
        inv_w = ops.where(keep, ops.reciprocal(ops.where(keep, w, 1.0)), 0.0)
        return ops.matmul(v * ops.unsqueeze(inv_w, [-2]), ops.matrix_transpose(v))
    u, s, vh = ops.svd(x)
    keep = ops.greater_than(s, ops.maximum(ops.scale(ops.max(s, [-1], True), rtol), atol))
    inv_s = ops.where(keep, ops.reciprocal(ops.where(keep, s, 1.0)), 0.0)
    return ops.matmul(ops.matrix_transpose(vh) * ops.unsqueeze(inv_s, [-2]), ops.matrix_transpose(u))


class LstsqResult(NamedTuple):
    """torch.linalg.lstsq's fields."""

    solution: Tensor
    residuals: Tensor
    rank: Tensor
    singular_values: Tensor


def lstsq(a: Tensor, b: Tensor, rcond: float | None = None) -> LstsqResult:
    """The least-squares solution of a @ X = b for each matrix (torch.linalg.lstsq's gelsd
    driver): X = pinv(a, rtol=rcond) @ b, so it differentiates in a and b; residuals (the
    squared residual norms, for tall full-rank a; empty otherwise), rank and singular values
    as PyTorch returns them. A vector b is allowed as in solve."""
    a, b = _tensor("lstsq", "a", a), _tensor("lstsq", "b", b)
    if a.ndim < 2:
        raise ValueError(f"lstsq: a must have at least 2 dimensions, got shape {tuple(a.shape)}")
    vector = b.ndim == a.ndim - 1
    bm = ops.unsqueeze(b, [-1]) if vector else b
    if bm.shape[-2] != a.shape[-2]:
        raise ValueError(f"lstsq: a has {a.shape[-2]} rows but b has {bm.shape[-2]}; they must match")
    m, n = a.shape[-2:]
    s = ops.svdvals(a)
    tol = (float(np.finfo(a.dtype).eps) * max(m, n)) if rcond is None else float(rcond)
    rank = ops.sum(ops.cast(ops.greater_than(s, ops.scale(ops.max(s, [-1], True), tol)), np.int64), [-1])
    x = ops.matmul(pinv(a, rtol=tol), bm)
    if m > n and bool(np.all(rank.numpy() == n)):
        residuals = ops.sum(ops.square(ops.matmul(a, x) - bm), [-2])
        residuals = ops.squeeze(residuals, [-1]) if vector else residuals
    else:
        residuals = wrap(np.zeros((*tuple(s.shape[:-1]), 0), dtype=s.dtype))  # as PyTorch: empty
    return LstsqResult(ops.squeeze(x, [-1]) if vector else x, residuals, rank, s)


def matrix_rank(
    x: Tensor, atol: float | None = None, rtol: float | None = None, hermitian: bool = False
) -> Tensor:
    """The number of singular values above max(atol, rtol * largest) per matrix, as
    torch.linalg.matrix_rank (rtol defaults to eps * max(m, n) when atol is not given); int64,
    no gradient."""
    x = _tensor("matrix_rank", "x", x)
    if x.ndim < 2:
        raise ValueError(f"matrix_rank: x must have at least 2 dimensions, got shape {tuple(x.shape)}")
    m, n = x.shape[-2:]
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else float(np.finfo(x.dtype).eps) * max(m, n)
    s = ops.abs(ops.eigvalsh(x)) if hermitian else ops.svdvals(x)
    tol = ops.maximum(ops.scale(ops.max(s, [-1], True), float(rtol)), 0.0 if atol is None else float(atol))
    return ops.sum(ops.cast(ops.greater_than(s, tol), np.int64), [-1])


def cond(x: Tensor, p: Any = None) -> Tensor:
    """The condition number of each matrix in the norm p (torch.linalg.cond): None or 2 (the
    ratio of the largest to the smallest singular value), -2 (its inverse), and for square
    matrices "fro", "nuc", 1, -1, inf, -inf (norm(x) * norm(inv(x)))."""
    x = _tensor("cond", "x", x)
    if x.ndim < 2:
        raise ValueError(f"cond: x must have at least 2 dimensions, got shape {tuple(x.shape)}")
    if p is None or p in (2, -2):
        s = ops.svdvals(x)
        big, small = ops.max(s, [-1]), ops.min(s, [-1])
        return ops.divide(small, big) if p == -2 else ops.divide(big, small)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"cond: p={p!r} needs square matrices, got shape {tuple(x.shape)}")
    return ops.multiply(matrix_norm(x, p), matrix_norm(ops.inv(x), p))


def multi_dot(tensors: Sequence[Tensor]) -> Tensor:
    """The product of two or more matrices (torch.linalg.multi_dot): the first may be a 1-D
    row vector and the last a 1-D column vector; multiplied in the order that needs the fewest
    scalar multiplications (dynamic programming over the chain, as NumPy's multi_dot)."""
    ts = [_tensor("multi_dot", f"tensors[{i}]", t) for i, t in enumerate(tensors)]
    if len(ts) < 2:
        raise ValueError(f"multi_dot: needs at least 2 tensors, got {len(ts)}")
    first_vec, last_vec = ts[0].ndim == 1, ts[-1].ndim == 1
    mats = [ops.unsqueeze(ts[0], [0]) if first_vec else ts[0], *ts[1:-1]]
    mats.append(ops.unsqueeze(ts[-1], [1]) if last_vec else ts[-1])
    for i, t in enumerate(mats):
        if t.ndim != 2:
            raise ValueError(
                f"multi_dot: tensors[{i}] must be 2-D (the first and last may be 1-D), got {tuple(t.shape)}"
            )
    for i in range(len(mats) - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise ValueError(
                f"multi_dot: tensors[{i}] has {mats[i].shape[1]} columns but tensors[{i + 1}] has "
                f"{mats[i + 1].shape[0]} rows"
            )
    dims = [mats[0].shape[0]] + [t.shape[1] for t in mats]
    k = len(mats)
    cost = [[0] * k for _ in range(k)]
    split = [[0] * k for _ in range(k)]
    for length in range(1, k):
        for i in range(k - length):
            j = i + length
            cost[i][j], split[i][j] = min(
                (cost[i][s] + cost[s + 1][j] + dims[i] * dims[s + 1] * dims[j + 1], s) for s in range(i, j)
            )

    def product(i: int, j: int) -> Tensor:
        return mats[i] if i == j else ops.matmul(product(i, split[i][j]), product(split[i][j] + 1, j))

    out = product(0, k - 1)
    if first_vec:
        out = ops.squeeze(out, [0])
    if last_vec:
        out = ops.squeeze(out, [-1])
    return out
