"""GradTensorHolder: per-node buffers summing the gradients that arrive from many paths;
the ownership rules that keep gradient buffers private; and the leaf's end of the graph,
`AccumulateGrad` with `accumulate_into_leaf`, which applies those rules to `.grad`.

The first gradient for a position is kept as it came (no copy); the second makes a new
sum the holder owns; later ones add into that owned buffer in place. Under `create_graph`
sums are recorded (a small differentiable sum node) so higher-order gradients see them.

Ownership. A gradient array may be reachable from outside the engine: a user-supplied
seed, a tensor a hook saw or returned, a retained non-leaf `.grad`, a `grad()` result, a
custom Function's result, or another leaf's `.grad` (a pass-through backward such as
add's hands one array to both inputs). Each pass records in `held` the memory blocks (an
array's base, or the array when it owns its memory) that left the engine, and whether a
`.grad` has them. A leaf takes its first gradient without a copy only when its block has
not left the engine (the array is the engine's own, e.g. a kernel's fresh result);
otherwise it takes a private copy (`take_as_grad`). User code gets a copy only of memory a
`.grad` has (`hand_out`), so a hook's in-place edit never reaches a `.grad`. So a leaf's
`.grad` never shares memory with another `.grad` or with anything the user holds, and no
blanket copy is made. `grad_owned` (on the tensor) marks a `.grad` the engine made; a
later pass adds into it in place only while nothing but the leaf refers to it (its tensor
and its array), so a `.grad` the user set, or one the user keeps a reference to
(`g = x.grad`), is never written: the sum goes to a new buffer.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from opgrad.runtime import _accel
from opgrad.runtime import anomaly as _anomaly
from opgrad.runtime.dual import FORWARD, sum_tangents
from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import LEAF_SEQ, GradNode, check_hook_result, set_history
from opgrad.runtime.hooks import hook_name
from opgrad.runtime.tensor import Tensor, wrap

# One lock for every leaf's `.grad` update, so concurrent passes lose no update.
ACCUMULATE_LOCK = threading.Lock()
_ANOMALY = _anomaly.STATE  # one object for the life of the process


def array_sum(a: Any, b: Any) -> Any:
    """a + b as an array (NumPy gives a scalar for two 0-d arrays; tensors hold arrays)."""
    out = a + b
    if out.__class__ is np.ndarray:
        return out
    return np.asarray(out) if isinstance(out, np.generic) else out


# A pass's record of gradient memory that left the engine: memory block (see `block_of`)
# -> True when a `.grad` (a leaf's, or a retained one) has it, False when only user code
# (a seed, a hook, a custom Function, a grad() result) may hold it.
Held = dict[int, bool]


def block_of(data: Any) -> int:
    """Identifies the memory `data` lives in: its base's id for a view, else its own."""
    base = data.base
    return id(data if base is None else base)


def hold(held: Held, t: Tensor | None) -> None:
    """Record that user code may hold `t`'s memory (None is skipped)."""
    if t is not None:
        held.setdefault(block_of(t._data), False)


def _writeable(data: Any) -> bool:
    return data.__class__ is not np.ndarray or data.flags.writeable


class _Probe:
    __slots__ = ("_grad", "_data")
    _grad: Any
    _data: Any


def _grad_refs(leaf: Any) -> int:
    """References to leaf._grad or to its array, whichever has more (read without binding
    either to a local, so the count is the same in every caller)."""
    return max(sys.getrefcount(leaf._grad), sys.getrefcount(leaf._grad._data))


def _one_ref() -> int:
    """What `_grad_refs` reads for a gradient that only its leaf refers to (measured once,
    so it holds for whatever this interpreter adds for the call)."""
    leaf = _Probe()
    leaf._grad = _Probe()
    leaf._grad._data = _Probe()
    return _grad_refs(leaf)


_ONE_REF = _one_ref()


class SumGradNode(GradNode):
    """Backward of the recorded sum of two gradients: both inputs get the output's grad."""

    __slots__ = ()
    name = "sum_grads"
    _plain = True  # run inline by the engine (GradNode._plain)

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        g = grads[0]
        return (g, g)


class CopyGradNode(GradNode):
    """Backward of a recorded private copy of a gradient: the gradient passes through."""

    __slots__ = ()
    name = "copy_grad"
    _plain = True  # run inline by the engine (GradNode._plain)

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        return (grads[0],)


def add_recorded(a: Tensor, b: Tensor) -> Tensor:
    """a + b as a new tensor; recorded when grad mode is on and either requires grad."""
    out = wrap(array_sum(a._data, b._data))
    if (a._requires_grad or b._requires_grad) and grad_enabled():
        set_history(out, SumGradNode((a, b)), 0)
    if FORWARD.active:
        sum_tangents(out, a, b)
    return out


def private_copy(t: Tensor) -> Tensor:
    """A copy of `t` in fresh memory; recorded (differentiable) when grad mode is on and
    `t` requires grad, as under create_graph."""
    out = wrap(t._data.copy())
    if t._requires_grad and grad_enabled():
        set_history(out, CopyGradNode((t,)), 0)
    if FORWARD.active:
        sum_tangents(out, t, None)
    return out


def hand_out(held: Held, g: Tensor) -> Tensor:
    """`g` for user code that may keep it or edit it in place (a hook, a custom Function's
    backward, a grad() result): `g` itself, recorded in `held`, unless a `.grad` already has
    its memory; then a private copy."""
    block = block_of(g._data)
    if held.get(block):
        g = private_copy(g)
        block = id(g._data)
    held.setdefault(block, False)
    return g


def take_as_grad(held: Held | None, g: Tensor) -> Tensor:
    """`g` to become a `.grad` (a leaf's first gradient, a retained one): `g` itself when
    its memory left the engine to nobody yet and is writeable (a kernel's fresh result),
    else a private copy; either way recorded in `held` as a `.grad`'s. `held` None (no pass
    to ask): always a copy."""
    data = g._data
    base = data.base  # block_of and _writeable, spelled out: every parameter of a training
    block = id(data if base is None else base)  # step takes its first gradient here (~0.1 us a leaf)
    if held is None or block in held or (data.__class__ is np.ndarray and not data.flags.writeable):
        g = private_copy(g)
        if held is None:
            return g
        block = id(g._data)
    held[block] = True
    return g


def run_leaf_hooks(leaf: Tensor, grad: Tensor, held: Held | None) -> Tensor:
    """A leaf's tensor hooks see the gradient before it is accumulated (or captured by
    grad()). Each gets it through `hand_out` (a copy when it is another `.grad`'s memory, so
    a hook's in-place edit reaches only the gradient it was given); what a hook returns is
    checked and recorded in `held`. `held` None: no pass (a direct call), no tracking."""
    extra = leaf._extra
    if extra is not None and extra.hooks:
        for fn in list(extra.hooks.values()):
            if held is not None:
                grad = hand_out(held, grad)
            result = fn(grad)
            if result is not None:
                grad = check_hook_result(result, grad, f"tensor hook {hook_name(fn)} on a leaf")
                if held is not None:
                    hold(held, grad)
    return grad


class GradTensorHolder:
    """The gradients received so far in one backward pass: one buffer list per node, one
    entry per output position of that node. `owned` marks the entries this holder made
    (sums), which later arrivals may add into in place; `held` is the pass's set of memory
    blocks reachable from outside the engine (see the module docstring)."""

    __slots__ = ("buffers", "owned", "create_graph", "held")

    def __init__(self, create_graph: bool, held: Held) -> None:
        self.buffers: dict[GradNode, list[Any]] = {}
        self.owned: set[tuple[int, int]] = set()
        self.create_graph = create_graph
        self.held = held

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
        if key in self.owned and _writeable(old._data):
            old._data += grad._data
        else:
            buffers[pos] = wrap(array_sum(old._data, grad._data))
            self.owned.add(key)


def accumulate_into_leaf(
    leaf: Tensor, grad: Tensor, create_graph: bool, lock: threading.Lock, held: Held | None
) -> None:
    """Add `grad` into `leaf.grad` (thread-safe: concurrent passes lose no update).

    `held` is the pass's record of memory that left the engine (see `Held`); None means
    unknown, and the leaf then always takes a private copy of its first gradient."""
    lock.acquire()  # not `with lock:`, whose two method calls cost ~55 ns more per leaf
    try:
        extra = leaf._extra
        if extra is None:
            extra = leaf._extra_state()
        if leaf._grad is None:
            if not create_graph and grad._node is not None:
                grad = grad.detach()
            grad = take_as_grad(held, grad)
            leaf._grad = grad
            extra.grad_owned = not grad._requires_grad
            return
        private = extra.grad_owned and _grad_refs(leaf) <= _ONE_REF
        old = leaf._grad
        if create_graph or old._requires_grad:
            leaf._grad = add_recorded(old, grad)
            extra.grad_owned = not leaf._grad._requires_grad
        elif private and _writeable(old._data):
            old._data += grad._data
        else:
            leaf._grad = wrap(array_sum(old._data, grad._data))
            extra.grad_owned = True
    finally:
        lock.release()


class AccumulateGrad(GradNode):
    """The node at a leaf: runs the leaf's hooks, then adds the gradient into `.grad`
    (`accumulate_into_leaf`; the engine calls that with its pass's `held`, `apply` is for
    direct calls).

    It holds the leaf strongly; the leaf holds it weakly, so it lives exactly as long as
    some graph uses the leaf, and every use of the leaf in that time shares it
    (`grad_node.accumulator_of`).
    """

    __slots__ = ("variable",)
    name = "accumulate_grad"

    def __init__(self, variable: Tensor) -> None:
        # GradNode.__init__(()) spelled out for a node without edges: every leaf gets a fresh
        # accumulator each pass (the leaf holds it weakly, as PyTorch's AutogradMeta does),
        # and the generic path took about half of its ~0.8 us. tests/test_fast_paths_sgd.py
        # checks this sets every slot GradNode.__init__ sets, to the same values. With the C
        # primitives, accumulator_of makes it in C (runtime/_speedups.c's acc_make: these
        # stores, in this order; tests/test_fast_paths_leafacc.py compares the two).
        self._next0 = self._next1 = None
        self._nexts = ()
        self._at = ()
        self._more = None
        self._released = False
        self._hooks = None
        self.trace = _anomaly.capture_trace() if _ANOMALY.enabled else None
        self.variable = variable
        self.seq = LEAF_SEQ
        data = variable._data
        self._shape = data.shape
        self._dtype = data.dtype
        self._atype = data.__class__

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        grad = run_leaf_hooks(self.variable, grads[0], None)
        accumulate_into_leaf(self.variable, grad, create_graph, ACCUMULATE_LOCK, None)
        return ()

    def __repr__(self) -> str:
        return f"<AccumulateGrad leaf shape={self.variable.shape}>"


_accel.accumulators(sys.modules[__name__])  # accumulator_of makes AccumulateGrad in C when built
