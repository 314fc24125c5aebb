"""Central differences for the tests' gradient checks (float64, the reference every
analytic gradient is compared with)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def central(fn: Callable[[np.ndarray], Any], x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """d fn / d x at `x` by central differences, shape `fn(x).shape + x.shape`: the
    gradient for a scalar `fn`, the Jacobian for an array-valued one."""
    out = np.asarray(fn(x))
    jac = np.zeros(out.shape + x.shape)
    for idx in np.ndindex(*x.shape):
        e = np.zeros_like(x)
        e[idx] = eps
        jac[(...,) + idx] = (np.asarray(fn(x + e)) - np.asarray(fn(x - e))) / (2 * eps)
    return jac
