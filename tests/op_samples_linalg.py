"""OpInfos of the linear-algebra ops (issue 15): matrix_transpose, trace, outer, diagonal,
diag_embed, cross, inv, det, slogdet, solve, cholesky.

References are numpy.linalg (or plain NumPy indexing) and never call opgrad. The matrices
are well conditioned, random + n * I or B B^T + n * I, so that finite differences are
accurate; batches exercise the leading axes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, randn


def well(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Random square matrices plus n * I: invertible, condition number near 1."""
    n = shape[-1]
    return randn(rng, *shape) + n * np.eye(n)


def spd(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Symmetric positive-definite matrices B B^T + n * I."""
    b = randn(rng, *shape)
    return b @ b.swapaxes(-1, -2) + shape[-1] * np.eye(shape[-1])


# --- references -------------------------------------------------------------------------------


def half_ok(fn: Callable[..., Any]) -> Callable[..., Any]:
    """numpy.linalg has no float16: compute such input in float32 and give float16 back."""

    def ref(*args: Any, **kwargs: Any) -> Any:
        half = any(isinstance(a, np.ndarray) and a.dtype == np.float16 for a in args)
        if not half:
            return fn(*args, **kwargs)
        out = fn(*(a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args), **kwargs)
        if isinstance(out, tuple):
            return tuple(np.asarray(o).astype(np.float16) for o in out)
        return np.asarray(out).astype(np.float16)

    return ref


def diag_embed_ref(x: np.ndarray, offset: int = 0, dim1: int = -2, dim2: int = -1) -> np.ndarray:
    n = x.shape[-1] + abs(offset)
    out = np.zeros((*x.shape[:-1], n, n), dtype=x.dtype)
    for k in range(x.shape[-1]):
        i, j = (k, k + offset) if offset >= 0 else (k - offset, k)
        out[..., i, j] = x[..., k]
    # rows (axis -2) go to dim1 and columns (axis -1) to dim2
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


def cross_ref(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    xb, yb = np.broadcast_arrays(x, y)
    return np.cross(xb, yb, axis=axis)


def solve_ref(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


def cholesky_ref(x: np.ndarray, upper: bool = False) -> np.ndarray:
    low = np.linalg.cholesky((x + x.swapaxes(-1, -2)) / 2)
    return low.swapaxes(-1, -2) if upper else low


# --- samples ----------------------------------------------------------------------------------


def transpose_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4),))
    yield Sample((randn(rng, 2, 3, 2, 4),), note="batched")


def trace_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 4, 4),))
    yield Sample((randn(rng, 2, 3, 3),), note="batched")
    yield Sample((randn(rng, 3, 5),), note="rectangular")


def outer_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3), randn(rng, 4)))
    yield Sample((randn(rng, 1), randn(rng, 2)))


def diagonal_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 4, 4),))
    yield Sample((randn(rng, 3, 5), 1), note="above")
    yield Sample((randn(rng, 5, 3), -2), note="below")
    yield Sample((randn(rng, 2, 3, 4),), {"axis1": -2, "axis2": -1}, note="batched")
    yield Sample((randn(rng, 3, 2, 4), 1, 2, 0), note="axes reversed")


def diag_embed_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3),))
    yield Sample((randn(rng, 2, 3), 1), note="batched, above")
    yield Sample((randn(rng, 2, 3), -1, 0, 2), note="below, rows at axis 0")
    yield Sample((randn(rng, 2, 3), 0, -1, 0), note="rows at the last axis")


def cross_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3), randn(rng, 3)))
    yield Sample((randn(rng, 4, 3), randn(rng, 3)), note="broadcast")
    yield Sample((randn(rng, 3, 2), randn(rng, 3, 2), 0), note="axis 0")


def inv_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((well(rng, 3, 3),))
    yield Sample((well(rng, 2, 2, 2),), note="batched")
    yield Sample((well(rng, 1, 1),))


def det_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((well(rng, 3, 3),))
    yield Sample((well(rng, 2, 3, 3) * 0.5,), note="batched")
    yield Sample((-well(rng, 3, 3),), note="negative determinant")


def solve_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((well(rng, 3, 3), randn(rng, 3, 2)))
    yield Sample((well(rng, 2, 3, 3), randn(rng, 3, 1)), note="batched a")
    yield Sample((well(rng, 3, 3), randn(rng, 2, 3, 2)), note="batched b")


def cholesky_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((spd(rng, 3, 3),))
    yield Sample((spd(rng, 2, 3, 3),), note="batched")
    yield Sample((spd(rng, 3, 3), True), note="upper")


INFOS = [
    OpInfo("matrix_transpose", lambda x: x.swapaxes(-1, -2), transpose_samples),
    OpInfo("trace", lambda x: np.trace(x, axis1=-2, axis2=-1), trace_samples),
    OpInfo("outer", np.outer, outer_samples, (0, 1)),
    OpInfo(
        "diagonal",
        lambda x, offset=0, axis1=0, axis2=1: np.diagonal(x, offset, axis1, axis2),
        diagonal_samples,
    ),
    OpInfo("diag_embed", diag_embed_ref, diag_embed_samples),
    OpInfo("cross", cross_ref, cross_samples, (0, 1)),
    OpInfo("inv", half_ok(np.linalg.inv), inv_samples, atol32=1e-4),
    OpInfo("det", half_ok(np.linalg.det), det_samples, atol32=1e-3, rtol32=1e-3),
    OpInfo("slogdet", half_ok(lambda x: tuple(np.linalg.slogdet(x))), det_samples, atol32=1e-4),
    OpInfo("solve", half_ok(solve_ref), solve_samples, (0, 1), atol32=1e-4),
    OpInfo("cholesky", half_ok(cholesky_ref), cholesky_samples, atol32=1e-4),
]


def matrix_power_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((well(rng, 3, 3) / 3, 3))
    yield Sample((well(rng, 2, 2, 2) / 2, 2), note="batched")
    yield Sample((well(rng, 3, 3), -2), note="negative power")
    yield Sample((well(rng, 2, 2), 0), note="identity")
    yield Sample((well(rng, 2, 2), 1))


def kron_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), randn(rng, 3, 2)))
    yield Sample((randn(rng, 3), randn(rng, 2)), note="vectors")
    yield Sample((randn(rng, 2), randn(rng, 2, 3)), note="padded x")
    yield Sample((randn(rng, 2, 1, 2), randn(rng, 2, 2)), note="3-D with padded y")


INFOS += [
    OpInfo("matrix_power", half_ok(np.linalg.matrix_power), matrix_power_samples, atol32=1e-4),
    OpInfo("kron", np.kron, kron_samples, (0, 1)),
]


def triangle_ref(x: np.ndarray, upper: bool, unit: bool) -> np.ndarray:
    t = np.triu(x, 1 if unit else 0) if upper else np.tril(x, -1 if unit else 0)
    return t + np.eye(x.shape[-1], dtype=x.dtype) if unit else t


def triangular_solve_ref(
    x: np.ndarray, y: np.ndarray, upper: bool = True, transpose: bool = False, unitriangular: bool = False
) -> np.ndarray:
    t = triangle_ref(x, upper, unitriangular)
    return solve_ref(t.swapaxes(-1, -2) if transpose else t, y)


def cholesky_solve_ref(x: np.ndarray, y: np.ndarray, upper: bool = False) -> np.ndarray:
    t = triangle_ref(y, upper, False)
    return solve_ref(t.swapaxes(-1, -2) @ t if upper else t @ t.swapaxes(-1, -2), x)


def triangular_solve_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # the unread triangle holds random values: the gradient there must be 0
    yield Sample((well(rng, 3, 3), randn(rng, 3, 2)))
    yield Sample((well(rng, 3, 3), randn(rng, 3, 2), False), note="lower")
    yield Sample((well(rng, 2, 3, 3), randn(rng, 3, 1), True, True), note="batched, transpose")
    # unit diagonal: small off-diagonal entries keep I + strict triangle well conditioned
    yield Sample(
        (0.3 * randn(rng, 3, 3), randn(rng, 2, 3, 2), False, True, True), note="lower, transpose, unit"
    )
    yield Sample((0.3 * randn(rng, 3, 3), randn(rng, 3, 2)), {"unitriangular": True}, note="unit")


def cholesky_solve_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 2), well(rng, 3, 3)))
    yield Sample((randn(rng, 3, 1), well(rng, 2, 3, 3), True), note="batched, upper")
    yield Sample((randn(rng, 2, 3, 2), well(rng, 3, 3)), note="batched x")


INFOS += [
    OpInfo("triangular_solve", half_ok(triangular_solve_ref), triangular_solve_samples, (0, 1), atol32=1e-4),
    OpInfo("cholesky_solve", half_ok(cholesky_solve_ref), cholesky_solve_samples, (0, 1), atol32=1e-4),
]


def bmm_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4), randn(rng, 2, 4, 2)))
    yield Sample((randn(rng, 1, 1, 3), randn(rng, 1, 3, 1)))


INFOS += [OpInfo("bmm", np.matmul, bmm_samples, (0, 1))]
