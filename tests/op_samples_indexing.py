"""OpInfos of the indexing, shape and scan ops (take_along_axis, scatter, index_add,
masked_fill, tril, triu, pad, roll, repeat_interleave, cumsum, cumprod, flip, topk, sort,
argsort).

The references are written directly in NumPy (small Python loops where that is clearest, as
for scatter's last-update-wins rule) and never call opgrad. Inputs keep away from kinks
and ties in the samples that are gradchecked; samples that sit on them set `grad=False`.
Tensor arguments are given positionally (None where absent) up to the last differentiable
one, since test_ops.py tensorises positional arrays only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, away, distinct, ints, randn

# --- references: indexing and shape ------------------------------------------------------------


def _scatter(x: np.ndarray, index: np.ndarray, updates: np.ndarray, overwrite: bool = True) -> np.ndarray:
    out = x.copy()
    if not overwrite:
        out[index] = 0
    for i, j in enumerate(index.tolist()):
        if overwrite:
            out[j] = updates[i]
        else:
            out[j] += updates[i]
    return out


def _index_add(x: np.ndarray, index: np.ndarray, axis: int, value: np.ndarray) -> np.ndarray:
    out = np.moveaxis(x.copy(), axis, 0)
    v = np.moveaxis(value, axis, 0)
    for i, j in enumerate(index.tolist()):
        out[j] += v[i]
    return np.moveaxis(out, 0, axis)


_NP_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def _pad(x: np.ndarray, pad: list[int], mode: str = "constant", value: float = 0.0) -> np.ndarray:
    widths = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):  # the first pair pads the last axis (PyTorch's F.pad)
        widths[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if mode == "constant":
        return np.pad(x, widths, constant_values=value)
    return np.pad(x, widths, mode=_NP_PAD_MODES[mode])


def _roll(x: np.ndarray, shifts: Any, axis: Any = None) -> np.ndarray:
    if axis is None:
        return np.roll(x, shifts if isinstance(shifts, int) else shifts[0])
    return np.roll(x, shifts, axis=axis)


def _order(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    return np.argsort(-x if descending else x, axis=axis, kind="stable").astype(np.int64)


def _topk(
    x: np.ndarray, k: int, axis: int = -1, largest: bool = True, sorted: bool = True
) -> tuple[np.ndarray, np.ndarray]:  # noqa: A002
    idx = np.take(_order(x, axis, largest), np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx


def _sort(x: np.ndarray, axis: int = -1, descending: bool = False) -> np.ndarray:
    return np.take_along_axis(x, _order(x, axis, descending), axis=axis)


# --- samples: indexing and shape -----------------------------------------------------------------


def take_along_axis_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), ints(rng, 4, 3, 2), 1))
    yield Sample((randn(rng, 3, 4), ints(rng, 3, 5, 4), 0), note="repeated")
    yield Sample((randn(rng, 2, 3, 4), ints(rng, 4, 2, 3, 4)), {"axis": -1})
    yield Sample((randn(rng, 1, 4), ints(rng, 4, 3, 2), 1), note="arr broadcast")
    yield Sample((randn(rng, 3, 4), ints(rng, 3, 2, 1), 0), note="indices broadcast")


def scatter_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 4, 3), np.array([2, 0]), randn(rng, 2, 3)))
    yield Sample((randn(rng, 3, 2), np.array([2, 1, 0, 1]), randn(rng, 4, 2)), note="repeated, last wins")
    yield Sample((randn(rng, 3, 2), np.array([2, 1, 0, 1]), randn(rng, 4, 2), False), note="repeated, summed")
    yield Sample((randn(rng, 4, 2, 2), np.array([3, 3, 1]), randn(rng, 3, 2, 2)), {"overwrite": False})
    yield Sample((randn(rng, 5), np.array([4, 0, 4]), randn(rng, 3)), {"overwrite": True})


def index_add_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 4, 3), np.array([0, 2]), 0, randn(rng, 2, 3)))
    yield Sample((randn(rng, 2, 4), np.array([3, 1, 3]), 1, randn(rng, 2, 3)), note="repeated")
    yield Sample((randn(rng, 2, 3, 2), np.array([1]), -2, randn(rng, 2, 1, 2)))


def masked_fill_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), rng.random((2, 3)) > 0.5, 0.5))
    yield Sample((randn(rng, 2, 3), rng.random(3) > 0.5, -2), note="mask broadcast")
    yield Sample((randn(rng, 2, 3, 2), rng.random((3, 1)) > 0.5), {"value": 1.25})
    yield Sample((randn(rng, 4), np.ones(4, dtype=bool), 0.0), note="all masked")


def triangle_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4),))
    yield Sample((randn(rng, 3, 4), 1))
    yield Sample((randn(rng, 4, 3),), {"diagonal": -1})
    yield Sample((randn(rng, 2, 3, 3), 0), note="batched")


def pad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), [1, 2]))
    yield Sample((randn(rng, 2, 3, 4), [1, 0, 2, 1], "constant", 1.5))
    yield Sample((randn(rng, 3),), {"pad": [0, 2], "value": -1.0})
    yield Sample((randn(rng, 2, 4), [2, 3], "reflect"))
    yield Sample((randn(rng, 2, 3, 4),), {"pad": [3, 1, 1, 2], "mode": "reflect"})
    yield Sample((randn(rng, 2, 3), [2, 1, 0, 1], "replicate"))
    yield Sample((randn(rng, 2, 3), [3, 2], "circular"))


def roll_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), 2))
    yield Sample((randn(rng, 3, 4), [1, -1], [0, 1]))
    yield Sample((randn(rng, 3, 4),), {"shifts": 5, "axis": 1})
    yield Sample((randn(rng, 2, 3, 2), [-2], [-2]))


def repeat_interleave_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), 2))
    yield Sample((randn(rng, 2, 3), 3, 1))
    yield Sample((randn(rng, 2, 3),), {"repeats": 2, "axis": 0})
    yield Sample((randn(rng, 2, 3, 2), 1, -1))


def cumsum_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3),))
    yield Sample((randn(rng, 2, 3), 1))
    yield Sample((randn(rng, 2, 3, 4),), {"axis": 0})
    yield Sample((randn(rng, 2, 3, 4), -1))
    yield Sample((randn(rng),), note="0-d, flattened")


def cumprod_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((away(rng, 2, 3, lo=0.5, hi=1.5),))
    yield Sample((away(rng, 2, 4, lo=0.5, hi=1.5), 1))
    yield Sample((away(rng, 3, 2, 2, lo=0.5, hi=1.5),), {"dim": 0})
    x = away(rng, 3, 5, lo=0.5, hi=1.5)
    x[0, 2] = 0.0
    x[1, 1] = x[1, 3] = 0.0
    x[2, 0] = 0.0
    yield Sample((x, 1), note="zeros")
    yield Sample((x.T.copy(),), {"dim": 0}, note="zeros")
    yield Sample((x,), note="zeros, flattened")


def flip_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), 0))
    yield Sample((randn(rng, 2, 3, 4), [0, 2]))
    yield Sample((randn(rng, 2, 3),), {"axis": [-1]})


# test_gradcheck asserts that every output requires grad, which topk's int64 indices never
# do; tests/test_op_edge_cases.py gradchecks topk's values on these same samples instead.


def topk_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((distinct(rng, 3, 5), 2))
    yield Sample((distinct(rng, 3, 5), 3, 0))
    yield Sample((distinct(rng, 2, 4, 3),), {"k": 2, "axis": 1, "largest": False})
    yield Sample((distinct(rng, 6), 6, -1, True, False), note="sorted=False still sorts")
    yield Sample((distinct(rng, 2, 5), 1, -1, False))


def sort_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((distinct(rng, 3, 5),))
    yield Sample((distinct(rng, 3, 5), 0))
    yield Sample((distinct(rng, 2, 4, 3),), {"axis": 1, "descending": True})
    yield Sample((distinct(rng, 6), -1, True))


def argsort_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from sort_samples(rng)
    ties = np.asarray(rng.integers(-2, 3, (3, 6)), dtype=np.float64)
    yield Sample((ties,), note="ties keep their order")
    yield Sample((ties, 1, True), note="ties keep their order")
    yield Sample((np.array([3, 1, 2, 1]),), {"descending": True}, note="int")


# --- the table --------------------------------------------------------------------------------

INFOS: list[OpInfo] = [
    OpInfo(
        "take_along_axis",
        lambda arr, indices, axis: np.take_along_axis(arr, indices, axis=axis),
        take_along_axis_samples,
    ),
    OpInfo("scatter", _scatter, scatter_samples, (0, 2)),
    OpInfo("index_add", _index_add, index_add_samples, (0, 3)),
    OpInfo(
        "masked_fill", lambda x, mask, value: np.where(mask, value, x).astype(x.dtype), masked_fill_samples
    ),
    OpInfo("tril", lambda x, diagonal=0: np.tril(x, diagonal), triangle_samples),
    OpInfo("triu", lambda x, diagonal=0: np.triu(x, diagonal), triangle_samples),
    OpInfo("pad", _pad, pad_samples),
    OpInfo("roll", _roll, roll_samples),
    OpInfo(
        "repeat_interleave",
        lambda x, repeats, axis=None: np.repeat(x, repeats, axis=axis),
        repeat_interleave_samples,
    ),
    OpInfo("cumsum", lambda x, axis=None: np.cumsum(x, axis=axis), cumsum_samples),
    OpInfo("cumprod", lambda x, dim=None: np.cumprod(x, axis=dim), cumprod_samples),
    OpInfo("flip", lambda x, axis: np.flip(x, axis=axis), flip_samples),
    OpInfo("topk", _topk, topk_samples),
    OpInfo("sort", _sort, sort_samples),
    OpInfo(
        "argsort",
        lambda x, axis=-1, descending=False: _order(x, axis, descending),
        argsort_samples,
        (),
        differentiable=False,
    ),
]
