"""GradTensorHolder: per-node buffers summing the gradients that arrive from many paths.

The first gradient for a position is kept as it came (no copy); the second makes a new
sum the holder owns; later ones add into that owned buffer in place. Under `create_graph`
sums are recorded (a small differentiable sum node) so higher-order gradients see them.
Leaf accumulation into `.grad` follows the same ownership rule.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import GradNode, set_history

if TYPE_CHECKING:
    from opgrad.runtime.tensor import Tensor


def array_sum(a: Any, b: Any) -> Any:
    """a + b as an array (NumPy gives a scalar for two 0-d arrays; tensors hold arrays)."""
    out = a + b
    if out.__class__ is np.ndarray:
        return out
    return np.asarray(out) if isinstance(out, np.generic) else out


class SumGradNode(GradNode):
    """Backward of the recorded sum of two gradients: both inputs get the output's grad."""

    __slots__ = ()
    name = "sum_grads"

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        g = grads[0]
        return (g, g)


def add_recorded(a: Tensor, b: Tensor) -> Tensor:
    """a + b as a new tensor; recorded when grad mode is on and either requires grad."""
    from opgrad.runtime.tensor import wrap

    out = wrap(array_sum(a._data, b._data))
    if (a._requires_grad or b._requires_grad) and grad_enabled():
        set_history(out, SumGradNode((a, b)), 0)
    return out


class GradTensorHolder:
    """The gradients received so far in one backward pass: one buffer list per node, one
    entry per output position of that node. `owned` marks the entries this holder made
    (sums), which later arrivals may add into in place."""

    __slots__ = ("buffers", "owned", "create_graph")

    def __init__(self, create_graph: bool) -> None:
        self.buffers: dict[GradNode, list[Any]] = {}
        self.owned: set[tuple[int, int]] = set()
        self.create_graph = create_graph

    def add(self, node: GradNode, pos: int, grad: Tensor) -> None:
        buffers = self.buffers.get(node)
        if buffers is None:
            buffers = self.buffers[node] = [None] * max(node.n_positions, pos + 1)
        elif pos >= len(buffers):
            buffers.extend([None] * (pos + 1 - len(buffers)))
        old = buffers[pos]
        if old is None:
            buffers[pos] = grad
            return
        if self.create_graph:
            buffers[pos] = add_recorded(old, grad)
            return
        key = (id(node), pos)
        if key in self.owned and old._data.flags.writeable:
            old._data += grad._data
        else:
            from opgrad.runtime.tensor import wrap

            buffers[pos] = wrap(array_sum(old._data, grad._data))
            self.owned.add(key)


def accumulate_into_leaf(leaf: Tensor, grad: Tensor, create_graph: bool, lock: threading.Lock) -> None:
    """Add `grad` into `leaf.grad` (thread-safe: concurrent passes lose no update)."""
    from opgrad.runtime.tensor import wrap

    with lock:
        old = leaf._grad
        extra = leaf._extra_state()
        if old is None:
            # Not owned: the same array may be another tensor's data or the user's seed.
            leaf._grad = grad if create_graph else (grad.detach() if grad._node is not None else grad)
            extra.grad_owned = False
        elif create_graph or old._requires_grad:
            leaf._grad = add_recorded(old, grad)
            extra.grad_owned = False
        elif extra.grad_owned and old._data.flags.writeable:
            old._data += grad._data
        else:
            leaf._grad = wrap(array_sum(old._data, grad._data))
            extra.grad_owned = True
