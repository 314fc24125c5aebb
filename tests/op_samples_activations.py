"""OpInfos of the activations (hardtanh ... tanhshrink, prelu, glu) and the bool-valued
elementwise ops (logical_and/or/not, isnan, isinf, isfinite).

The references are written directly in NumPy and never call opgrad. Inputs keep away from kinks
and ties in the samples that are gradchecked; samples that sit on them set `grad=False`.
Tensor arguments are given positionally (None where absent) up to the last differentiable
one, since test_ops.py tensorises positional arrays only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, away, pos, randn

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


# --- the table --------------------------------------------------------------------------------

INFOS: list[OpInfo] = [
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
