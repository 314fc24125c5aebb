"""OpInfos of the recurrent-cell ops (issue 15): lstm_cell.

The reference is the unfused step in NumPy: the four gate blocks, sigmoid and tanh, and the
two state updates, as PyTorch documents nn.LSTMCell.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from op_samples import OpInfo, Sample, randn


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def lstm_cell_ref(gates: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    i, f, g, o = np.split(gates, 4, axis=-1)
    c_next = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_next), c_next


def lstm_cell_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 8), randn(rng, 3, 2)))
    yield Sample((randn(rng, 2, 3, 12), randn(rng, 2, 3, 3)), note="leading axes")
    yield Sample((2 * randn(rng, 4), randn(rng, 1)), note="unbatched, one unit")


INFOS = [OpInfo("lstm_cell", lstm_cell_ref, lstm_cell_samples, (0, 1), atol32=1e-5)]
