"""OpInfos of the N-d index ops (issue 15): gather_nd, scatter_nd, scatter_nd_add, with
Paddle's semantics. The references loop over index rows in plain NumPy; the samples have
negative and repeated positions (which add up in the scatters)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from op_samples import OpInfo, Sample, randn


def gather_nd_ref(x: np.ndarray, index: np.ndarray) -> np.ndarray:
    k = index.shape[-1]
    rows = index.reshape(-1, k)
    out = np.stack([x[tuple(r)] for r in rows]) if len(rows) else np.zeros((0, *x.shape[k:]), x.dtype)
    return out.reshape(index.shape[:-1] + x.shape[k:])


def scatter_nd_add_ref(x: np.ndarray, index: np.ndarray, updates: np.ndarray) -> np.ndarray:
    out = x.astype(np.result_type(x, updates)).copy()
    k = index.shape[-1]
    ups = updates.reshape((-1, *x.shape[k:]))
    for r, u in zip(index.reshape(-1, k), ups, strict=True):
        out[tuple(r)] += u
    return out


def scatter_nd_ref(index: np.ndarray, updates: np.ndarray, shape: list[int]) -> np.ndarray:
    return scatter_nd_add_ref(np.zeros(shape, updates.dtype), index, updates)


def gather_nd_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = randn(rng, 3, 4, 2)
    yield Sample((x, np.array([[0, 1], [2, -1], [1, 3]])), note="k=2")
    yield Sample((x, np.array([[[1], [0]], [[2], [2]]])), note="k=1, batched index, repeated")
    yield Sample((x, np.array([[0, 1, 1], [2, 3, 0]])), note="k=ndim: scalars")


def scatter_nd_add_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = randn(rng, 3, 4)
    yield Sample((x, np.array([[0, 1], [2, -1], [0, 1]]), randn(rng, 3)), note="repeated position")
    yield Sample((x, np.array([[1], [-3]]), randn(rng, 2, 4)), note="rows")


def scatter_nd_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((np.array([[0, 1], [2, 0], [0, 1]]), randn(rng, 3), [3, 2]))
    yield Sample((np.array([[1], [0]]), randn(rng, 2, 3), [4, 3]), note="rows")


INFOS = [
    OpInfo("gather_nd", gather_nd_ref, gather_nd_samples, (0,)),
    OpInfo("scatter_nd_add", scatter_nd_add_ref, scatter_nd_add_samples, (0, 2)),
    OpInfo("scatter_nd", scatter_nd_ref, scatter_nd_samples, (1,)),
]


def index_ref(x: np.ndarray, indices: list[np.ndarray]) -> np.ndarray:
    return x[tuple(indices)]


def index_put_ref(
    x: np.ndarray, indices: list[np.ndarray], values: np.ndarray, accumulate: bool = False
) -> np.ndarray:
    out = x.copy()
    where = tuple(indices)
    if accumulate:
        np.add.at(out, where, np.broadcast_to(values, out[where].shape))
    else:
        out[where] = values
    return out


def index_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = randn(rng, 4, 3, 2)
    yield Sample((x, [np.array([0, 3, -1, 0])]), note="one axis, repeated")
    yield Sample((x, [np.array([[0], [2]]), np.array([1, 2])]), note="two axes, broadcast")
    yield Sample((x, [np.array([True, False, True, True])]), note="bool mask")


def index_put_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = randn(rng, 4, 3)
    yield Sample((x, [np.array([0, 2]), np.array([1, -1])], randn(rng, 2)))
    yield Sample((x, [np.array([1, 3])], randn(rng, 3)), note="rows, values broadcast")
    yield Sample(
        (x, [np.array([0, 2, 0]), np.array([1, 1, 1])], randn(rng, 3), True), note="accumulate, repeated"
    )
    yield Sample((x, [np.array([True, False, True, False])], randn(rng, 1, 3)), note="mask")


INFOS += [
    OpInfo("index", index_ref, index_samples, (0,)),
    OpInfo("index_put", index_put_ref, index_put_samples, (0, 2)),
]
