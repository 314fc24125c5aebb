"""OpInfos of the elementary ops of issue 15 (runtime/kernels/generic/elementary.py):
inverse trigonometric and hyperbolic functions, log2/log10/exp2, degree conversions,
rounding, logit, atan2/logaddexp/logaddexp2, lerp/addcmul/addcdiv, nansum, count_nonzero,
logcumsumexp, cummax/cummin, pixel_shuffle/unshuffle, and the gradient-free searches and
counts. References are NumPy (no opgrad); samples stay inside each function's domain and
away from its kinks (rounding samples away from the jumps, cummax/cummin without ties).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from op_samples import (
    BINARY_DIFF,
    OpInfo,
    Sample,
    _reduction,
    away,
    binary,
    distinct,
    pos,
    randn,
    reduction,
    unary,
)


def uniform(lo: float, hi: float) -> Callable[..., np.ndarray]:
    def make(rng: np.random.Generator, *shape: int) -> np.ndarray:
        return np.asarray(rng.uniform(lo, hi, shape))

    return make


def off_grid(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Values in (-3, 3) at least 0.1 from every multiple of 0.5 (the jumps of floor, ceil,
    trunc and round, and round's halves)."""
    base = rng.integers(-6, 6, shape) * 0.5
    return np.asarray(base + rng.uniform(0.1, 0.4, shape))


INFOS = [
    OpInfo("tan", np.tan, unary(uniform(-1.2, 1.2))),
    OpInfo("asin", np.arcsin, unary(uniform(-0.85, 0.85))),
    OpInfo("acos", np.arccos, unary(uniform(-0.85, 0.85))),
    OpInfo("atan", np.arctan, unary(lambda r, *s: randn(r, *s) * 2)),
    OpInfo("sinh", np.sinh, unary()),
    OpInfo("cosh", np.cosh, unary()),
    OpInfo("asinh", np.arcsinh, unary(lambda r, *s: randn(r, *s) * 2)),
    OpInfo("acosh", np.arccosh, unary(uniform(1.2, 3.0))),
    OpInfo("atanh", np.arctanh, unary(uniform(-0.85, 0.85))),
    OpInfo("log2", np.log2, unary(pos)),
    OpInfo("log10", np.log10, unary(pos)),
    OpInfo("exp2", np.exp2, unary()),
    OpInfo("deg2rad", np.deg2rad, unary(lambda r, *s: randn(r, *s) * 90)),
    OpInfo("rad2deg", np.rad2deg, unary()),
    OpInfo("logit", lambda x: np.log(x / (1 - x)), unary(uniform(0.1, 0.9))),
    OpInfo("frac", lambda x: x - np.trunc(x), unary(off_grid)),
    OpInfo("floor", np.floor, unary(off_grid)),
    OpInfo("ceil", np.ceil, unary(off_grid)),
    OpInfo("trunc", np.trunc, unary(off_grid)),
    OpInfo(
        "round",
        lambda x, decimals=0: np.round(x, decimals),
        unary(off_grid, {"decimals": 1}, {"decimals": -1}),
    ),
    OpInfo("atan2", np.arctan2, binary(away, away), BINARY_DIFF),
    OpInfo("logaddexp", np.logaddexp, binary(), BINARY_DIFF),
    OpInfo("logaddexp2", np.logaddexp2, binary(), BINARY_DIFF),
]


def lerp_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), randn(rng, 2, 3), randn(rng, 2, 3)))
    yield Sample((randn(rng, 2, 3), randn(rng, 3), randn(rng, 2, 1)), note="broadcast")
    yield Sample((randn(rng, 4), randn(rng, 4), 0.25), note="float weight")


def addc_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), randn(rng, 2, 3), away(rng, 2, 3)))
    yield Sample((randn(rng, 3), randn(rng, 2, 3), away(rng, 2, 1)), {"value": -0.5}, note="broadcast")
    yield Sample((randn(rng), randn(rng, 4), away(rng, 4)), {"value": 2}, note="0-d x")


def with_nans(rng: np.random.Generator, *shape: int) -> np.ndarray:
    x = randn(rng, *shape)
    if x.ndim:
        x.reshape(-1)[::3] = np.nan
    return x


def nansum_ref(x: np.ndarray, axis: Any = None, keepdim: bool = False) -> np.ndarray:
    return _reduction(np.nansum)(x, axis, keepdim)


def count_nonzero_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = np.where(rng.uniform(size=(2, 3, 4)) < 0.4, 0.0, randn(rng, 2, 3, 4))
    for kw in ({}, {"axis": 1}, {"axis": [0, 2]}, {"axis": None}):
        yield Sample((x,), kw)


def count_nonzero_ref(x: np.ndarray, axis: Any = None) -> np.ndarray:
    axes = None if axis is None or axis == [] else tuple(axis) if isinstance(axis, list) else axis
    return np.asarray(np.count_nonzero(x, axis=axes)).astype(np.int64)


INFOS += [
    OpInfo("lerp", lambda x, end, w: x + w * (end - x), lerp_samples, (0, 1, 2)),
    OpInfo("addcmul", lambda x, a, b, value=1: x + value * a * b, addc_samples, (0, 1, 2)),
    OpInfo("addcdiv", lambda x, a, b, value=1: x + value * a / b, addc_samples, (0, 1, 2)),
    OpInfo("nansum", nansum_ref, reduction(with_nans)),
    OpInfo("count_nonzero", count_nonzero_ref, count_nonzero_samples, (), differentiable=False),
]


def scan_samples(make: Callable[..., np.ndarray]) -> Callable[..., Iterator[Sample]]:
    def gen(rng: np.random.Generator) -> Iterator[Sample]:
        yield Sample((make(rng, 5), 0))
        yield Sample((make(rng, 2, 3, 4), 1))
        yield Sample((make(rng, 3, 4), -1))

    return gen


def logcumsumexp_ref(x: np.ndarray, axis: int) -> np.ndarray:
    return np.asarray(np.logaddexp.accumulate(x, axis=axis))


def cum_ref(better: Any) -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    def ref(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
        values = better.accumulate(x, axis=axis)
        xs, vs = np.moveaxis(x, axis, -1), np.moveaxis(values, axis, -1)
        idx = np.zeros(xs.shape, dtype=np.int64)
        for pos_ in np.ndindex(*xs.shape[:-1]):
            for k in range(xs.shape[-1]):
                seen = [xs[pos_ + (j,)] for j in range(k + 1)]
                if np.isnan(seen).any():  # NaN propagates: the latest NaN's position
                    idx[pos_ + (k,)] = max(j for j, v in enumerate(seen) if np.isnan(v))
                else:  # the latest position holding the running extreme
                    idx[pos_ + (k,)] = max(j for j, v in enumerate(seen) if v == vs[pos_ + (k,)])
        return values, np.moveaxis(idx, -1, axis)

    return ref


def pixel_shuffle_ref(x: np.ndarray, r: int) -> np.ndarray:
    *lead, c, h, w = x.shape
    out = np.empty((*lead, c // (r * r), h * r, w * r), dtype=x.dtype)
    for ch in range(c // (r * r)):
        for i in range(r):
            for j in range(r):
                out[..., ch, i::r, j::r] = x[..., ch * r * r + i * r + j, :, :]
    return out


def pixel_unshuffle_ref(x: np.ndarray, r: int) -> np.ndarray:
    *lead, c, h, w = x.shape
    out = np.empty((*lead, c * r * r, h // r, w // r), dtype=x.dtype)
    for ch in range(c):
        for i in range(r):
            for j in range(r):
                out[..., ch * r * r + i * r + j, :, :] = x[..., ch, i::r, j::r]
    return out


def pixel_shuffle_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 1, 8, 2, 3), 2))
    yield Sample((randn(rng, 9, 2, 2), 3), note="unbatched")


def pixel_unshuffle_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 1, 2, 4, 6), 2))
    yield Sample((randn(rng, 1, 3, 3), 3), note="unbatched")


INFOS += [
    OpInfo("logcumsumexp", logcumsumexp_ref, scan_samples(lambda r, *s: randn(r, *s) * 3)),
    OpInfo("cummax", cum_ref(np.maximum), scan_samples(distinct)),
    OpInfo("cummin", cum_ref(np.minimum), scan_samples(distinct)),
    OpInfo("pixel_shuffle", pixel_shuffle_ref, pixel_shuffle_samples),
    OpInfo("pixel_unshuffle", pixel_unshuffle_ref, pixel_unshuffle_samples),
]


def searchsorted_samples(rng: np.random.Generator) -> Iterator[Sample]:
    seq = np.sort(randn(rng, 6))
    vals = np.concatenate([randn(rng, 5), seq[[1, 3]]])  # some equal to entries: left != right
    yield Sample((seq, vals))
    yield Sample((seq, vals), {"right": True})
    yield Sample((seq, vals), {"side": "right"})
    rows = np.sort(randn(rng, 2, 5), axis=-1)
    yield Sample((rows, randn(rng, 2, 3)), note="batched")
    perm = rng.permutation(6)
    yield Sample((seq[perm], vals), {"sorter": np.argsort(seq[perm])}, note="sorter")


def searchsorted_ref(
    seq: np.ndarray, vals: np.ndarray, right: bool = False, side: Any = None, sorter: Any = None
) -> np.ndarray:
    s = side or ("right" if right else "left")
    if sorter is not None:
        seq = seq[sorter]
    if seq.ndim == 1:
        return np.searchsorted(seq, vals, side=s).astype(np.int64)
    return np.stack([np.searchsorted(a, v, side=s) for a, v in zip(seq, vals, strict=True)]).astype(np.int64)


def bucketize_samples(rng: np.random.Generator) -> Iterator[Sample]:
    b = np.array([-1.0, 0.0, 0.5, 2.0])
    x = np.array([[-2.0, -1.0, 0.2], [0.5, 3.0, 1.0]])
    yield Sample((x, b))
    yield Sample((x, b, True))


def histc_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = randn(rng, 40)
    yield Sample((x,), {"bins": 5, "min": -2.0, "max": 2.0})
    yield Sample((x,), {"bins": 7})
    yield Sample((randn(rng, 3, 4),), {"bins": 4, "min": -1.0, "max": 1.0}, note="outside ignored")


def histc_ref(x: np.ndarray, bins: int = 100, min: float = 0.0, max: float = 0.0) -> np.ndarray:  # noqa: A002
    lo, hi = (x.min(), x.max()) if min == max else (min, max)
    return np.histogram(x.ravel(), bins=bins, range=(lo, hi))[0].astype(x.dtype)


def bincount_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = rng.integers(0, 5, 12)
    yield Sample((x,))
    yield Sample((x, randn(rng, 12)), note="weights")
    yield Sample((x,), {"minlength": 9})
    yield Sample((np.zeros(0, dtype=np.int64),), {"minlength": 3}, note="empty")


def bincount_ref(x: np.ndarray, weights: Any = None, minlength: int = 0) -> np.ndarray:
    out = np.bincount(x, weights=weights, minlength=minlength)
    return out.astype(np.int64) if weights is None else out.astype(weights.dtype)


def nonzero_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((np.where(rng.uniform(size=(3, 4)) < 0.5, 0.0, 1.5),))
    yield Sample((np.array([0.0, 2.0, 0.0, -1.0]),))
    yield Sample((np.zeros((2, 2)),), note="none")


def nonzero_ref(x: np.ndarray) -> np.ndarray:
    return np.argwhere(x).astype(np.int64)


INFOS += [
    OpInfo("searchsorted", searchsorted_ref, searchsorted_samples, (), differentiable=False),
    OpInfo(
        "bucketize",
        lambda x, b, right=False: np.searchsorted(b, x, side="right" if right else "left").astype(np.int64),
        bucketize_samples,
        (),
        differentiable=False,
    ),
    OpInfo("histc", histc_ref, histc_samples, (), differentiable=False),
    OpInfo("bincount", bincount_ref, bincount_samples, (), differentiable=False),
    OpInfo("nonzero", nonzero_ref, nonzero_samples, (), differentiable=False),
    OpInfo("argwhere", nonzero_ref, nonzero_samples, (), differentiable=False),
]


def xlogy_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from binary(away, pos)(rng)


def xlogy_ref(x: Any, y: Any) -> np.ndarray:
    # a Python number takes the other operand's dtype (as NumPy and PyTorch promote it)
    x = x if isinstance(x, np.ndarray) else np.asarray(x, dtype=y.dtype)
    y = y if isinstance(y, np.ndarray) else np.asarray(y, dtype=x.dtype)
    x, y = np.broadcast_arrays(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.asarray(x * np.log(y))
    return np.where((x == 0) & ~np.isnan(y), np.zeros((), r.dtype), r)


def fmod_samples(rng: np.random.Generator) -> Iterator[Sample]:
    """Quotients at least 0.1 from an integer (fmod jumps there)."""
    for shape, ys in (((2, 3), (2, 3)), ((2, 3), (3,)), ((4,), ())):
        y = away(rng, *ys, lo=0.5, hi=1.5)
        q = rng.integers(-3, 3, shape) + rng.uniform(0.1, 0.9, shape)
        yield Sample((np.asarray(q * y), y))


def special(rng: np.random.Generator, *shape: int) -> np.ndarray:
    x = randn(rng, *shape)
    flat = x.reshape(-1)
    flat[:3] = [np.nan, np.inf, -np.inf][: flat.size]
    return x


def nan_to_num_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # the defaults for +-inf (the dtype's extremes) differ per dtype: tests/test_elementary_ops.py
    yield Sample((special(rng, 2, 4),), {"posinf": 100.0, "neginf": -100.0})
    yield Sample((special(rng, 5),), {"nan": 1.5, "posinf": 9.0, "neginf": -9.0})
    yield Sample((randn(rng, 3),), note="all finite, defaults")


def nan_to_num_ref(x: np.ndarray, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> np.ndarray:
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def heaviside_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = np.where(rng.random((2, 3)) < 0.3, 0.0, randn(rng, 2, 3))
    yield Sample((x, np.array([0.5, 2.0, -1.0])))
    yield Sample((np.array([-1.0, 0.0, 3.0]), 0.25), note="scalar values")


def ints(rng: np.random.Generator, *shape: int, lo: int = -40, hi: int = 40) -> np.ndarray:
    return np.asarray(rng.integers(lo, hi, shape), dtype=np.int64)


def shift_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((ints(rng, 2, 3), ints(rng, 2, 3, lo=0, hi=5)))
    yield Sample((ints(rng, 2, 3), ints(rng, 3, lo=0, hi=5)), note="broadcast")
    yield Sample((ints(rng, 4), 2), note="scalar y")


def logical_xor_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((rng.random((2, 3)) > 0.5, rng.random((2, 3)) > 0.5))
    yield Sample((np.asarray(rng.integers(-1, 2, (2, 3)), dtype=np.float64), np.array([0.0, 2.0, -1.0])))


def sign_tests(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((np.array([[np.nan, np.inf, -np.inf, 0.0], [-0.0, 1.5, -2.0, 3.0]]),))
    yield Sample((np.array([-2, 0, 3]),), note="int")


INFOS += [
    OpInfo("xlogy", xlogy_ref, xlogy_samples, BINARY_DIFF),
    OpInfo("fmod", np.fmod, fmod_samples, BINARY_DIFF),
    OpInfo("copysign", np.copysign, binary(away, away), BINARY_DIFF),
    OpInfo("nan_to_num", nan_to_num_ref, nan_to_num_samples, ref_upcast=False),
    OpInfo("heaviside", np.heaviside, heaviside_samples, (), differentiable=False),
    OpInfo("logical_xor", np.logical_xor, logical_xor_samples, (), differentiable=False),
    OpInfo(
        "isposinf",
        lambda x: np.isposinf(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool),
        sign_tests,
        (),
        differentiable=False,
    ),
    OpInfo(
        "isneginf",
        lambda x: np.isneginf(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool),
        sign_tests,
        (),
        differentiable=False,
    ),
    OpInfo("signbit", np.signbit, sign_tests, (), differentiable=False),
    OpInfo("bitwise_left_shift", np.left_shift, shift_samples, (), differentiable=False),
    OpInfo("bitwise_right_shift", np.right_shift, shift_samples, (), differentiable=False),
]
