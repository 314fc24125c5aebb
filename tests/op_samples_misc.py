"""OpInfos of the indexing, loss and activation ops of issue 5B (take_along_axis ... isfinite).

The references are written directly in NumPy (small Python loops where that is clearest, as
for scatter's last-update-wins rule) and never call opgrad. Inputs keep away from kinks
(|x| at 0, hardtanh's bounds, smooth_l1's delta) and ties (sort, topk, the inf-norm) in the
samples that are gradchecked; samples that sit on them set `grad=False`. Tensor arguments
are given positionally (None where absent) up to the last differentiable one, since
test_ops.py tensorises positional arrays only.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, away, distinct, ints, pos, randn

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


# --- references: reductions and losses -------------------------------------------------------------


def _axes(axis: Any) -> Any:
    if axis is None or (isinstance(axis, (list, tuple)) and not axis):
        return None
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def _var(x: np.ndarray, axis: Any = None, unbiased: bool = True, keepdim: bool = False) -> np.ndarray:
    a = _axes(axis)
    n = x.size if a is None else math.prod(x.shape[i] for i in np.atleast_1d(a))
    if unbiased and n == 1:
        return np.full(np.var(x, axis=a, keepdims=keepdim).shape, np.nan, dtype=x.dtype)
    return np.asarray(np.var(x, axis=a, ddof=int(unbiased), keepdims=keepdim))


def _std(x: np.ndarray, axis: Any = None, unbiased: bool = True, keepdim: bool = False) -> np.ndarray:
    return np.sqrt(_var(x, axis, unbiased, keepdim))


def _norm(x: np.ndarray, p: float = 2.0, axis: Any = None, keepdim: bool = False) -> np.ndarray:
    a = _axes(axis)
    if p == math.inf:
        return np.asarray(np.max(np.abs(x), axis=a, keepdims=keepdim))
    return np.asarray(np.sum(np.abs(x) ** p, axis=a, keepdims=keepdim) ** (1 / p)).astype(x.dtype)


def _reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return np.asarray(loss.mean())
    if reduction == "sum":
        return np.asarray(loss.sum())
    return loss


def _nll_loss(
    input: np.ndarray,
    label: np.ndarray,
    weight: np.ndarray | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
) -> np.ndarray:  # noqa: A002
    a = 0 if input.ndim == 1 else 1
    logp = np.moveaxis(input, a, -1)  # (..., C)
    w = np.ones(logp.shape[-1], dtype=input.dtype) if weight is None else weight
    valid = label != ignore_index
    lab = np.where(valid, label, 0)
    wi = np.where(valid, w[lab], 0).astype(input.dtype)
    loss = -wi * np.take_along_axis(logp, lab[..., None], axis=-1)[..., 0]
    if reduction == "mean":
        return np.asarray(loss.sum() / wi.sum())
    return _reduce(loss, reduction)


def _bce_logits(
    logit: np.ndarray,
    label: np.ndarray,
    weight: np.ndarray | None = None,
    reduction: str = "mean",
    pos_weight: np.ndarray | None = None,
) -> np.ndarray:
    pw = 1 if pos_weight is None else pos_weight
    loss = (1 - label) * logit + (1 + (pw - 1) * label) * np.logaddexp(0, -logit)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss.astype(logit.dtype), reduction)


def _l1_loss(input: np.ndarray, label: np.ndarray, reduction: str = "mean") -> np.ndarray:  # noqa: A002
    return _reduce(np.abs(input - label), reduction)


def _smooth_l1_loss(
    input: np.ndarray, label: np.ndarray, reduction: str = "mean", delta: float = 1.0
) -> np.ndarray:  # noqa: A002
    d = np.abs(input - label)
    return _reduce(np.where(d < delta, 0.5 * d * d, delta * d - 0.5 * delta * delta), reduction)


def _kl_div(
    input: np.ndarray, label: np.ndarray, reduction: str = "mean", log_target: bool = False
) -> np.ndarray:  # noqa: A002
    if log_target:
        loss = np.exp(label) * (label - input)
    else:
        safe = np.where(label > 0, label, 1)
        loss = np.where(label > 0, label * (np.log(safe) - input), 0)
    if reduction == "batchmean":
        return np.asarray(loss.sum() / (loss.shape[0] if loss.ndim else 1))
    return _reduce(loss, reduction)


# --- references: activations ---------------------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _selu(x: np.ndarray, scale: float = 1.0507009873554805, alpha: float = 1.6732632423543772) -> np.ndarray:
    return scale * np.where(x > 0, x, alpha * (np.exp(np.minimum(x, 0)) - 1))


def _celu(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    return np.where(x > 0, x, alpha * (np.exp(np.minimum(x, 0) / alpha) - 1))


def _prelu(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    w = weight.reshape((1, -1) + (1,) * (x.ndim - 2)) if weight.size > 1 else weight.reshape(())
    return np.where(x > 0, x, w * x)


def _glu(x: np.ndarray, axis: int = -1) -> np.ndarray:
    a, b = np.split(x, 2, axis=axis)
    return a * _sigmoid(b)


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0, -x)


def _mish(x: np.ndarray) -> np.ndarray:
    return x * np.tanh(np.logaddexp(0, x))


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
# do; tests/test_misc_ops.py gradchecks topk's values on these same samples instead.


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


# --- samples: reductions and losses ----------------------------------------------------------------

MOMENT_AXES: list[dict[str, Any]] = [
    {},
    {"axis": 1},
    {"axis": -1, "keepdim": True},
    {"axis": [0, 2], "unbiased": False},
    {"axis": None, "unbiased": False, "keepdim": True},
]


def moment_samples(rng: np.random.Generator) -> Iterator[Sample]:
    for kw in MOMENT_AXES:
        yield Sample((randn(rng, 2, 3, 4),), dict(kw))
    yield Sample((randn(rng, 5), 0, False))
    yield Sample((randn(rng, 3, 1),), {"axis": 1}, grad=False, note="N == 1: NaN")


def norm_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4),))
    yield Sample((randn(rng, 2, 3, 4), 2.0, [0, 2]))
    yield Sample((away(rng, 3, 4),), {"p": 1.0, "axis": 1})
    yield Sample((distinct(rng, 3, 4),), {"p": math.inf, "axis": -1, "keepdim": True})
    yield Sample((distinct(rng, 3, 4), math.inf))
    yield Sample((away(rng, 3, 4), 3.0, 0))
    yield Sample((np.zeros((2, 3)), 2.0, 1), grad=False, note="zero norm")


def _log_probs(rng: np.random.Generator, *shape: int, axis: int) -> np.ndarray:
    x = randn(rng, *shape)
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def nll_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((_log_probs(rng, 4, 3, axis=1), ints(rng, 3, 4)))
    yield Sample((_log_probs(rng, 4, 3, axis=1), ints(rng, 3, 4), pos(rng, 3)), note="weight")
    yield Sample((_log_probs(rng, 4, 3, axis=1), np.array([0, -100, 2, -100]), None, -100, "sum"))
    yield Sample((_log_probs(rng, 5, 3, axis=1), np.array([0, 1, 2, 1, 1]), pos(rng, 3), 1), note="ignore 1")
    yield Sample((_log_probs(rng, 2, 3, 2, axis=1), ints(rng, 3, 2, 2), None, -100, "none"))
    yield Sample((_log_probs(rng, 2, 3, 2, axis=1), ints(rng, 3, 2, 2), pos(rng, 3)), {"reduction": "mean"})
    yield Sample((_log_probs(rng, 4, axis=0), np.array(2)), note="(C,) input")


def bce_samples(rng: np.random.Generator) -> Iterator[Sample]:
    def soft(*shape: int) -> np.ndarray:
        return np.asarray(rng.uniform(0.0, 1.0, shape))

    yield Sample((randn(rng, 3, 4) * 2, soft(3, 4)))
    yield Sample((randn(rng, 3, 4) * 2, soft(3, 4), pos(rng, 3, 4), "sum"))
    yield Sample((randn(rng, 3, 4) * 2, soft(3, 4), pos(rng, 4), "none", pos(rng, 4)))
    yield Sample((randn(rng, 2, 3) * 2, soft(2, 3), None, "mean", pos(rng, 3)))
    yield Sample((np.array([-40.0, -5.0, 0.0, 5.0, 40.0]), np.array([1.0, 0.0, 0.5, 1.0, 0.0])), note="large")


def l1_samples(rng: np.random.Generator) -> Iterator[Sample]:
    label = randn(rng, 3, 4)
    yield Sample((label + away(rng, 3, 4), label))
    label = randn(rng, 4)
    yield Sample((label + away(rng, 3, 4), label), {"reduction": "none"}, note="label broadcast")
    label = randn(rng, 3, 1)
    yield Sample((label + away(rng, 3, 4), label, "sum"), note="label broadcast along axis 1")


def _huber_offsets(rng: np.random.Generator, delta: float, *shape: int) -> np.ndarray:
    """Differences in (0.1, 0.8) * delta or (1.2, 2.5) * delta: away from 0 and from delta."""
    inside = rng.uniform(0.1, 0.8, shape)
    outside = rng.uniform(1.2, 2.5, shape)
    return np.where(rng.random(shape) > 0.5, inside, outside) * delta * rng.choice([-1.0, 1.0], shape)


def smooth_l1_samples(rng: np.random.Generator) -> Iterator[Sample]:
    label = randn(rng, 3, 4)
    yield Sample((label + _huber_offsets(rng, 1.0, 3, 4), label))
    label = randn(rng, 3, 4)
    yield Sample((label + _huber_offsets(rng, 0.5, 3, 4), label, "sum", 0.5))
    label = randn(rng, 4)
    yield Sample((label + _huber_offsets(rng, 2.0, 2, 4), label), {"reduction": "none", "delta": 2.0})


def kl_samples(rng: np.random.Generator) -> Iterator[Sample]:
    def probs(*shape: int) -> np.ndarray:
        return np.exp(_log_probs(rng, *shape, axis=-1))

    yield Sample((_log_probs(rng, 3, 4, axis=-1), probs(3, 4)))
    yield Sample((_log_probs(rng, 3, 4, axis=-1), probs(3, 4), "batchmean"))
    yield Sample((_log_probs(rng, 3, 4, axis=-1), probs(3, 4)), {"reduction": "sum"})
    yield Sample((_log_probs(rng, 2, 3, axis=-1), probs(3), "none"), note="label broadcast")
    yield Sample((_log_probs(rng, 3, 4, axis=-1), _log_probs(rng, 3, 4, axis=-1), "batchmean", True))
    yield Sample((_log_probs(rng, 2, 3, axis=-1), _log_probs(rng, 2, 3, axis=-1)), {"log_target": True})
    label = probs(3, 4)
    label[0, 1] = label[2, 3] = 0.0
    yield Sample((_log_probs(rng, 3, 4, axis=-1), label, "sum"), grad=False, note="zero labels")


# --- samples: activations ------------------------------------------------------------------------

ACT_SHAPES = [(), (5,), (2, 3)]


def act(make: Any = randn, *attrs: dict[str, Any]) -> Any:
    def gen(rng: np.random.Generator) -> Iterator[Sample]:
        for shape in ACT_SHAPES:
            yield Sample((make(rng, *shape),))
        for kw in attrs:
            yield Sample((make(rng, 2, 3),), dict(kw))

    return gen


def _wide(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return randn(rng, *shape) * 3


def _off_grid(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Values in (-5, 5) at least 0.05 away from every multiple of 0.5 (kinks at +-1, +-3, 0, ...)."""
    return np.asarray((rng.integers(-10, 10, shape) + rng.uniform(0.1, 0.9, shape)) * 0.5)


def prelu_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((away(rng, 2, 3, 4), pos(rng, 3, lo=0.1, hi=0.5)))
    yield Sample((away(rng, 2, 3), pos(rng, 1)), note="one weight")
    yield Sample((away(rng, 4), pos(rng, 1)))
    yield Sample((away(rng, 2, 2, 3, 3), randn(rng, 2)), note="NCHW")


def glu_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 4),))
    yield Sample((randn(rng, 4, 3), 0))
    yield Sample((randn(rng, 2, 6, 2),), {"axis": 1})


def logical_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((rng.random((2, 3)) > 0.5, rng.random((2, 3)) > 0.5))
    yield Sample((rng.random((2, 3)) > 0.5, rng.random(3) > 0.5), note="broadcast")
    yield Sample((np.asarray(rng.integers(-1, 2, (2, 3)), dtype=np.float64), np.array([0.0, 2.0, -1.0])))


def logical_not_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((rng.random((2, 3)) > 0.5,))
    yield Sample((np.asarray(rng.integers(-1, 2, (5,)), dtype=np.float64),))


def special_values(rng: np.random.Generator) -> Iterator[Sample]:
    x = randn(rng, 2, 4)
    x[0, 1], x[1, 2], x[1, 3] = np.nan, np.inf, -np.inf
    yield Sample((x,))
    yield Sample((randn(rng, 3),))
    yield Sample((np.array([1, 2, 3]),), note="int")


# --- the table ----------------------------------------------------------------------------------

INFOS: list[OpInfo] = [
    # indexing and shape
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
    # reductions and losses
    OpInfo("var", _var, moment_samples),
    OpInfo("std", _std, moment_samples),
    OpInfo("norm", _norm, norm_samples),
    OpInfo("nll_loss", _nll_loss, nll_samples),
    OpInfo("binary_cross_entropy_with_logits", _bce_logits, bce_samples, (0, 1)),
    OpInfo("l1_loss", _l1_loss, l1_samples, (0, 1)),
    OpInfo("smooth_l1_loss", _smooth_l1_loss, smooth_l1_samples, (0, 1)),
    OpInfo("kl_div", _kl_div, kl_samples, (0, 1)),
    # activations
    OpInfo(
        "hardtanh",
        lambda x, min=-1.0, max=1.0: np.clip(x, min, max),  # noqa: A006
        act(_off_grid, {"min": -2.0, "max": 0.5}, {"min": 0.0}),
    ),
    OpInfo("hardswish", lambda x: x * np.clip(x + 3, 0, 6) / 6, act(_off_grid)),
    OpInfo("hardsigmoid", lambda x: np.clip(x / 6 + 0.5, 0, 1), act(_off_grid)),
    OpInfo("mish", _mish, act(_wide)),
    OpInfo("log_sigmoid", _log_sigmoid, act(_wide)),
    OpInfo("swish", lambda x: x * _sigmoid(x), act(_wide)),
    OpInfo("prelu", _prelu, prelu_samples, (0, 1)),
    OpInfo("selu", _selu, act(away, {"scale": 2.0, "alpha": 0.5})),
    OpInfo("celu", _celu, act(away, {"alpha": 2.0}, {"alpha": 0.5})),
    OpInfo("glu", _glu, glu_samples),
    OpInfo("softsign", lambda x: x / (1 + np.abs(x)), act(_wide)),
    OpInfo("tanhshrink", lambda x: x - np.tanh(x), act()),
    OpInfo("logical_and", np.logical_and, logical_samples, (), differentiable=False),
    OpInfo("logical_or", np.logical_or, logical_samples, (), differentiable=False),
    OpInfo("logical_not", np.logical_not, logical_not_samples, (), differentiable=False),
    OpInfo("isnan", np.isnan, special_values, (), differentiable=False),
    OpInfo("isinf", np.isinf, special_values, (), differentiable=False),
    OpInfo("isfinite", np.isfinite, special_values, (), differentiable=False),
]
