"""OpInfos of the integer-style binary ops: bitwise_and/or/xor/not (integer and bool
tensors, no gradient), floor_divide (no gradient) and remainder (differentiable away from the
points where x / y is an integer, where it jumps).

The references are NumPy's own functions; float samples of floor_divide and remainder keep
x / y at least 0.1 from an integer so that finite differences never straddle a jump.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from op_samples import OpInfo, Sample, away


def _ints(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.integers(-8, 9, shape), dtype=np.int64)


def bitwise_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((_ints(rng, 2, 3), _ints(rng, 2, 3)))
    yield Sample((_ints(rng, 2, 3), _ints(rng, 3)), note="broadcast")
    yield Sample((rng.random((2, 3)) > 0.5, rng.random((2, 3)) > 0.5), note="bool")
    yield Sample((_ints(rng, 4), 3), note="scalar y")


def bitwise_not_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((_ints(rng, 2, 3),))
    yield Sample((rng.random((5,)) > 0.5,), note="bool")


def _off_integer_quotients(rng: np.random.Generator, *shape: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) floats with x / y at least 0.1 away from every integer."""
    y = away(rng, *shape, lo=0.5, hi=2.0)
    q = rng.integers(-3, 4, shape) + rng.uniform(0.1, 0.9, shape)
    return q * y, y


def division_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(_off_integer_quotients(rng, 2, 3))
    x, y = _off_integer_quotients(rng, 2, 3)
    yield Sample((x, y[0]), note="broadcast y")
    yield Sample(
        (_ints(rng, 2, 3), np.asarray(rng.integers(1, 5, (2, 3)), dtype=np.int64)), grad=False, note="ints"
    )
    yield Sample((_ints(rng, 2, 3), -3), grad=False, note="negative int divisor")


INFOS = [
    OpInfo("bitwise_and", np.bitwise_and, bitwise_samples, (), differentiable=False),
    OpInfo("bitwise_or", np.bitwise_or, bitwise_samples, (), differentiable=False),
    OpInfo("bitwise_xor", np.bitwise_xor, bitwise_samples, (), differentiable=False),
    OpInfo("bitwise_not", np.invert, bitwise_not_samples, (), differentiable=False),
    OpInfo("floor_divide", np.floor_divide, division_samples, (), differentiable=False),
    OpInfo("remainder", np.remainder, division_samples, (0, 1)),
]
