"""OpInfos of the higher-order helper ops (ops.yaml, `# --- higher-order helper ops`).

These ops exist so that double-grad `composite:` expressions can be written over
differentiable ops: `reduce_as` sums a broadcast gradient back to a shape, `softmax_vjp` /
`softmax_vjp_dp` are softmax's gradient and its derivative in the probabilities, and
`matmul_xg` / `matmul_yg` / `matmul_jvp` are matmul's two gradients and its directional
derivative; `narrow_as` / `pad_as` cut a block to another tensor's length along an axis
and grow it back with zeros (svd's and qr's gradients). The references are plain NumPy.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from op_samples import OpInfo, Sample, randn


def _unbroadcast(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    lead = g.ndim - len(shape)
    g = g.sum(axis=tuple(range(lead))) if lead else g
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
    return np.asarray(g.sum(axis=axes, keepdims=True) if axes else g).reshape(shape)


def _reduce_as(x: np.ndarray, target: np.ndarray) -> np.ndarray:
    return _unbroadcast(x, target.shape).astype(target.dtype)


def _softmax_vjp(p: np.ndarray, g: np.ndarray, axis: int = -1) -> np.ndarray:
    return p * (g - (g * p).sum(axis=axis, keepdims=True))


def _softmax_vjp_dp(p: np.ndarray, g: np.ndarray, r: np.ndarray, axis: int = -1) -> np.ndarray:
    s = lambda a: a.sum(axis=axis, keepdims=True)  # noqa: E731
    return g * r - g * s(p * r) - r * s(p * g)


def _mm(a: np.ndarray, b: np.ndarray, tx: bool, ty: bool) -> np.ndarray:
    if tx and a.ndim >= 2:
        a = np.swapaxes(a, -1, -2)
    if ty and b.ndim >= 2:
        b = np.swapaxes(b, -1, -2)
    return np.asarray(np.matmul(a, b))


def _matmul_grads(x, y, g, tx=False, ty=False):
    """Both gradients of <matmul(x, y), g>, one unit direction at a time (small shapes only)."""
    dtype = np.result_type(x, y, g)
    gx = np.zeros(x.shape, dtype)
    for i in np.ndindex(*x.shape):
        e = np.zeros(x.shape)
        e[i] = 1
        gx[i] = np.sum(_mm(e, y, tx, ty) * g)
    gy = np.zeros(y.shape, dtype)
    for i in np.ndindex(*y.shape):
        e = np.zeros(y.shape)
        e[i] = 1
        gy[i] = np.sum(_mm(x, e, tx, ty) * g)
    return gx, gy


def _matmul_xg(x, y, g, transpose_x=False, transpose_y=False):
    # complex: conj of the real formula at conj(g) (the conjugate convention); real: as it is
    return np.conj(_matmul_grads(x, y, np.conj(g), transpose_x, transpose_y)[0])


def _matmul_yg(x, y, g, transpose_x=False, transpose_y=False):
    return np.conj(_matmul_grads(x, y, np.conj(g), transpose_x, transpose_y)[1])


def _matmul_jvp(x, y, a, b, transpose_x=False, transpose_y=False):
    return _mm(a, y, transpose_x, transpose_y) + _mm(x, b, transpose_x, transpose_y)


def reduce_as_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4), randn(rng, 3, 1)))
    yield Sample((randn(rng, 3, 4), randn(rng, 3, 4)), note="same shape")
    yield Sample((randn(rng, 2, 3), np.asarray(rng.standard_normal(()))), note="to 0-d")


def _narrow_as(x: np.ndarray, like: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.take(x, np.arange(like.shape[axis]), axis=axis)


def _pad_as(x: np.ndarray, like: np.ndarray, axis: int = -1) -> np.ndarray:
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, like.shape[axis] - x.shape[axis])
    return np.pad(x, pad)


def narrow_as_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), randn(rng, 1, 2)))
    yield Sample((randn(rng, 2, 4, 3), randn(rng, 2, 2, 1), -2), note="rows, batched")
    yield Sample((randn(rng, 3, 2), randn(rng, 3, 2), 0), note="the whole axis")
    yield Sample((randn(rng, 3, 2), randn(rng, 3, 0)), note="to nothing")


def pad_as_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 2), randn(rng, 1, 4)))
    yield Sample((randn(rng, 2, 2, 3), randn(rng, 2, 4, 1), -2), note="rows, batched")
    yield Sample((randn(rng, 3, 2), randn(rng, 3, 2), 0), note="the same length")
    yield Sample((randn(rng, 3, 0), randn(rng, 3, 2)), grad=False, note="from nothing")


def softmax_vjp_samples(rng: np.random.Generator) -> Iterator[Sample]:
    p = np.exp(randn(rng, 3, 4))
    yield Sample((p / p.sum(-1, keepdims=True), randn(rng, 3, 4)))
    p = np.exp(randn(rng, 2, 3, 2))
    yield Sample((p / p.sum(1, keepdims=True), randn(rng, 2, 3, 2), 1))


def softmax_vjp_dp_samples(rng: np.random.Generator) -> Iterator[Sample]:
    p = np.exp(randn(rng, 3, 4))
    yield Sample((p / p.sum(-1, keepdims=True), randn(rng, 3, 4), randn(rng, 3, 4)))
    yield Sample((randn(rng, 2, 3), randn(rng, 2, 3), randn(rng, 2, 3), 0))


def _mm_cases(rng: np.random.Generator) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, dict]]:
    yield randn(rng, 3, 4), randn(rng, 4, 2), randn(rng, 3, 2), {}
    yield randn(rng, 4), randn(rng, 2, 4, 3), randn(rng, 2, 3), {}
    yield (
        randn(rng, 2, 4, 3),
        randn(rng, 2, 4),
        randn(rng, 2, 3, 2),
        {"transpose_x": True, "transpose_y": True},
    )


def matmul_grad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    for x, y, g, kw in _mm_cases(rng):
        yield Sample((x, y, g), kw)


def matmul_jvp_samples(rng: np.random.Generator) -> Iterator[Sample]:
    for x, y, _, kw in _mm_cases(rng):
        yield Sample((x, y, rng.standard_normal(x.shape), rng.standard_normal(y.shape)), kw)


INFOS: list[OpInfo] = [
    OpInfo("reduce_as", _reduce_as, reduce_as_samples, (0,)),
    OpInfo("narrow_as", _narrow_as, narrow_as_samples, (0,)),
    OpInfo("pad_as", _pad_as, pad_as_samples, (0,)),
    OpInfo("softmax_vjp", _softmax_vjp, softmax_vjp_samples, (0, 1)),
    OpInfo("softmax_vjp_dp", _softmax_vjp_dp, softmax_vjp_dp_samples, (0, 1, 2)),
    OpInfo("matmul_xg", _matmul_xg, matmul_grad_samples, (1, 2)),
    OpInfo("matmul_yg", _matmul_yg, matmul_grad_samples, (0, 2)),
    OpInfo("matmul_jvp", _matmul_jvp, matmul_jvp_samples, (0, 1, 2, 3)),
]
