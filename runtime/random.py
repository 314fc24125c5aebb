"""The seeded random generator behind rand/randn/dropout (`og.manual_seed`)."""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

import numpy as np

_seed: int | None = None
_numpy_gen = np.random.default_rng()
_cupy_gen: Any = None


def manual_seed(seed: int) -> None:
    """Seed every backend's generator; the same seed gives the same numbers."""
    global _seed, _numpy_gen, _cupy_gen
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"manual_seed: seed must be an int, got {type(seed).__name__}")
    _seed = int(seed)
    _numpy_gen = np.random.default_rng(_seed)
    _cupy_gen = None


def generator_for(xp: ModuleType) -> Any:
    """The generator to draw from for array module `xp` (NumPy's Generator API)."""
    global _cupy_gen
    if xp is np:
        return _numpy_gen
    if _cupy_gen is None:
        _cupy_gen = xp.random.default_rng(_seed)
    return _cupy_gen


def get_rng_state() -> tuple[Any, Any]:
    """A snapshot of every backend's generator (for `set_rng_state`: gradient checkpointing
    replays a forward with the random numbers it drew the first time)."""
    cupy_state = None if _cupy_gen is None else copy.deepcopy(_cupy_gen)
    return copy.deepcopy(_numpy_gen.bit_generator.state), cupy_state


def set_rng_state(state: tuple[Any, Any]) -> None:
    """Put the generators back to a snapshot from `get_rng_state`."""
    global _cupy_gen
    numpy_state, cupy_gen = state
    _numpy_gen.bit_generator.state = copy.deepcopy(numpy_state)
    if cupy_gen is not None:
        _cupy_gen = copy.deepcopy(cupy_gen)
