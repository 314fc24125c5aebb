"""OpInfos of the in-place support ops `fill` and `zero` (their out-of-place forms; the
in-place `fill_`/`zero_` are tested against them in tests/test_inplace.py)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from op_samples import OpInfo, Sample, randn


def _fill_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), 2.5))
    yield Sample((randn(rng, 5), -1))
    yield Sample((randn(rng), 0.0), note="0-d")


def _zero_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3),))
    yield Sample((randn(rng),), note="0-d")


INFOS: list[OpInfo] = [
    OpInfo("fill", lambda x, value: np.full(x.shape, value, dtype=x.dtype), _fill_samples),
    OpInfo("zero", lambda x: np.zeros_like(x), _zero_samples),
]
