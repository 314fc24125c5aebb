"""OpInfos of the statistical reductions (var, std, norm) and the losses (nll_loss,
binary_cross_entropy_with_logits, l1_loss, smooth_l1_loss, kl_div).

The references are written directly in NumPy and never call opgrad. Inputs keep away from kinks
and ties in the samples that are gradchecked; samples that sit on them set `grad=False`.
Tensor arguments are given positionally (None where absent) up to the last differentiable
one, since test_ops.py tensorises positional arrays only.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, away, distinct, ints, pos, randn

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


# --- the table --------------------------------------------------------------------------------

INFOS: list[OpInfo] = [
    OpInfo("var", _var, moment_samples),
    OpInfo("std", _std, moment_samples),
    OpInfo("norm", _norm, norm_samples),
    OpInfo("nll_loss", _nll_loss, nll_samples),
    OpInfo("binary_cross_entropy_with_logits", _bce_logits, bce_samples, (0, 1)),
    OpInfo("l1_loss", _l1_loss, l1_samples, (0, 1)),
    OpInfo("smooth_l1_loss", _smooth_l1_loss, smooth_l1_samples, (0, 1)),
    OpInfo("kl_div", _kl_div, kl_samples, (0, 1)),
]
