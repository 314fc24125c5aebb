"""Saved tensors: what a grad node keeps for backward, version-checked on use.

Three kinds, made by the constructors the generated code calls:
- `TensorWrapper.of_input(t)`: a forward input; what is kept holds the tensor itself.
  `TensorWrapper.of_edge(t)` is the same for an input the node has an edge to (a
  differentiable input), and may keep less (below).
- `TensorWrapper.meta_of(t)`: a `no_need_buffer` input; only its TensorMeta is kept, so the
  data can be freed as soon as nothing else holds it.
- `TensorWrapper.of_output(t, node)`: one of the node's own outputs. Holding that tensor
  would make tensor -> node -> wrapper -> tensor a cycle, so the wrapper keeps only the
  array and rebuilds a tensor attached to the node when unpacked (the node is passed in).
Each remembers the version counter's value at save time; `unpack(saved, node)` (the
Tensor) and `unpack_data(saved, node)` (its array only, for kernels) raise if an in-place
op changed it since (the counters are in `version.py`). Active `saved_tensors_hooks(pack,
unpack)` see every saved tensor. `bump_versions` is re-exported for generated code.

Two shortcuts keep a saved tensor to one object, because every object a graph keeps alive
is one more for each cyclic-GC pass to walk (see `GradNode`):
- an input still at version 0 (nearly all of them) is saved as the Tensor itself: "saved
  at version 0" needs no record, and `unpack` raises once the tensor's version is not 0;
- an output without a version counter yet (nearly all of them) gets the wrapper as its
  counter: the wrapper is then saved at version 0 of itself.
And a differentiable input that is such an output, still at version 0, is saved by the
next node as that same wrapper (`of_edge`), not as the Tensor: in a chain
`y = tanh(y * a + b)`, multiply then keeps tanh's wrapper and the Tensor `y` can die, one
object fewer per link. The wrapper remembers its node's `seq`, so a consumer unpacking it
for create_graph finds the producer among its own edges and rebuilds the tensor there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from opgrad.runtime import _accel
from opgrad.runtime.device import backend_of_type, device_of
from opgrad.runtime.dual import FORWARD, restore_tangent
from opgrad.runtime.grad_node import TensorMeta
from opgrad.runtime.hooks import hook_name
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.version import VersionCounter, bump_versions, counter_of

if TYPE_CHECKING:
    from opgrad.runtime.grad_node import GradNode

__all__ = ["Saved", "TensorWrapper", "bump_versions", "saved_tensors_hooks", "unpack", "unpack_data"]


class _HookStack(threading.local):
    stack: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]]

    def __init__(self) -> None:
        self.stack = []


_HOOKS = _HookStack()
_new = object.__new__  # the wrappers below set every slot themselves
# How many saved_tensors_hooks contexts are open in all threads: while none is, saving a
# tensor skips the (slower) thread-local look-up. Changed under the lock, so it is exact.
_ACTIVE_HOOKS = 0
_ACTIVE_LOCK = threading.Lock()


class saved_tensors_hooks:
    """Context manager: `pack(tensor)` runs when a tensor is saved, `unpack(packed)` when used.

    `unpack` must return a Tensor with the saved tensor's shape and dtype.
    """

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError("saved_tensors_hooks: pack_hook and unpack_hook must be callable")
        self.hooks = (pack_hook, unpack_hook)

    def __enter__(self) -> saved_tensors_hooks:
        global _ACTIVE_HOOKS
        with _ACTIVE_LOCK:
            _ACTIVE_HOOKS += 1
        _HOOKS.stack.append(self.hooks)
        return self

    def __exit__(self, *exc: object) -> None:
        global _ACTIVE_HOOKS
        _HOOKS.stack.pop()
        with _ACTIVE_LOCK:
            _ACTIVE_HOOKS -= 1


# What a node keeps for a saved tensor: a wrapper, its TensorMeta, or the Tensor itself.
Saved = Any


def unpack(saved: Saved, node: GradNode) -> Any:
    """The saved tensor as a Tensor (a TensorMeta for a no_need_buffer input), checked
    against in-place changes since it was saved."""
    if saved.__class__ is Tensor:  # an input saved at version 0
        vc = saved._vc
        if vc is not None and vc.value:
            raise _stale(node, saved, 0, vc.value)
        return saved
    return saved.unpack(node)


def unpack_data(saved: Saved, node: GradNode) -> Any:
    """What `unpack` checks and returns, as the array alone (a node's first-order path
    hands only arrays to its kernel, so no Tensor need be built)."""
    cls = saved.__class__
    if cls is Tensor:
        vc = saved._vc
        if vc is not None and vc.value:
            raise _stale(node, saved, 0, vc.value)
        return saved._data
    if cls is _Output:  # a saved output, or an input saved as its producer's (of_edge)
        if saved.value:
            raise _stale(node, saved, 0, saved.value)
        return saved.data
    if cls is _Input:  # an input saved after a write (a parameter after its first update)
        t = saved.tensor
        vc = t._vc
        if vc is not None and vc.value != saved._seen:
            raise _stale(node, saved, saved._seen, vc.value)
        return t._data
    return saved.unpack_data(node)


class TensorWrapper:
    """Base of the saved-tensor kinds; see the module docstring. Every kind has
    `unpack(node)` and `unpack_data(node)`; the static constructors below are what
    generated code calls, and the functions `unpack` and `unpack_data` what it reads
    them back with."""

    __slots__ = ()

    @staticmethod
    def of_input(t: Tensor) -> Saved:
        if _ACTIVE_HOOKS and _HOOKS.stack:
            return _Hooked(t, None, 0)
        vc = t._vc  # no counter yet means no in-place write yet: version 0
        if vc is None or not vc.value:
            if t.__class__ is Tensor:
                return t
            seen = 0
        else:
            seen = vc.value
        w = _new(_Input)
        w.tensor = t
        w._seen = seen
        return w

    @staticmethod
    def of_edge(t: Tensor) -> Saved:
        """`of_input(t)` for an input the node being made has an edge to (generated code
        calls it for differentiable inputs only): an op's fresh output that its node saved
        (an `_Output` at version 0) is kept as that wrapper itself. Not for a tensor with
        rarely used state (`_extra`: hooks, retain_grad, a name) or a tangent: the Tensor is
        kept for those, as `of_input` keeps it."""
        vc = t._vc
        if t.__class__ is Tensor and not _ACTIVE_HOOKS:
            if vc is None:  # never written: saved as itself, as of_input does (one call less)
                return t
            if vc.__class__ is _Output and not vc.value and t._extra is None and t._dual is None:
                node = t._node  # the node that saved it (not a view's, nor an in-place op's)
                if node is not None and node.seq == vc.seq and t._pos == vc.pos:
                    return vc
        return TensorWrapper.of_input(t)

    @staticmethod
    def meta_of(t: Tensor) -> TensorMeta:
        # Metadata never changes, so nodes share one object per (shape, dtype, array type).
        # `_LAST` answers first, by shape alone, with identity checks (hashing a dtype costs
        # ~40 ns, and add and subtract call this twice per op).
        data = t._data
        shape = data.shape
        meta = _LAST.get(shape)
        if meta is not None and meta.dtype is data.dtype and meta._where is data.__class__:
            return meta
        key = (shape, data.dtype, data.__class__)
        meta = _METAS.get(key)
        if meta is None:
            if len(_METAS) >= _METAS_MAX:  # many distinct shapes: start over
                _METAS.clear()
                _LAST.clear()
            meta = _METAS[key] = _Meta.of(data)
        _LAST[shape] = meta
        return meta

    @staticmethod
    def of_output(t: Tensor, node: GradNode) -> TensorWrapper:
        if _ACTIVE_HOOKS and _HOOKS.stack:
            return _Hooked(t, node, t._pos)
        if t._vc is None:  # a fresh output: the wrapper becomes its version counter
            o = _new(_Output)
            o.value = 0
            o.shared = False
            o.data = t._data
            o.pos = t._pos
            o.seq = node.seq
            t._vc = o
            return o
        w = _new(_OutputSeen)
        w.data = t._data
        w.pos = t._pos
        vc = w._counter = t._vc  # the wrapper does not hold `t`: it holds the counter
        w._seen = vc.value
        return w

    def unpack(self, node: GradNode) -> Any:
        raise NotImplementedError

    def unpack_data(self, node: GradNode) -> Any:
        """What `unpack` checks and returns, as the array alone (a node's first-order path
        hands only arrays to its kernel, so no Tensor need be built)."""
        raise NotImplementedError


def _stale(node: GradNode, wrapper: Any, seen: int, now: int) -> RuntimeError:
    return RuntimeError(
        f"one of the tensors saved by {type(node).__name__} ({node.name}) for backward, "
        f"argument {_slot_name(node, wrapper)!r}, has been modified by an in-place operation: "
        f"it was saved at version {seen} and is now at version {now}. "
        "Do the in-place update after backward, or apply it to a copy (.clone())."
    )


class _Input(TensorWrapper):
    __slots__ = ("tensor", "_seen")
    tensor: Tensor
    _seen: int

    def unpack(self, node: GradNode) -> Tensor:
        t = self.tensor
        vc = t._vc
        if vc is not None and vc.value != self._seen:
            raise _stale(node, self, self._seen, vc.value)
        return t

    def unpack_data(self, node: GradNode) -> Any:
        t = self.tensor
        vc = t._vc
        if vc is not None and vc.value != self._seen:
            raise _stale(node, self, self._seen, vc.value)
        return t._data


# The shared no_need_buffer metadata, by (shape, dtype, array type); see `meta_of`.
_METAS: dict[tuple[Any, ...], _Meta] = {}
_LAST: dict[tuple[int, ...], _Meta] = {}  # by shape: the entry of _METAS used last
_METAS_MAX = 4096


class _Meta(TensorMeta):
    """A `no_need_buffer` input: the wrapper is its own TensorMeta (no data, no version)."""

    __slots__ = ()

    def unpack(self, node: GradNode) -> TensorMeta:
        return self

    def unpack_data(self, node: GradNode) -> TensorMeta:
        return self


class _Output(VersionCounter, TensorWrapper):
    """A node's output saved as that output's own version counter (saved at version 0).
    `seq` is the node's: a later node that saved the output as an input (`of_edge`) is
    told apart from the node that made it."""

    __slots__ = ("data", "pos", "seq")
    data: Any
    pos: int
    seq: int

    def unpack(self, node: GradNode) -> Tensor:
        if self.value:
            raise _stale(node, self, 0, self.value)
        if node.seq != self.seq:  # saved as an input of `node`: one of its edges made it
            node = _producer(node, self.seq)
        return _attached(self.data, node, self.pos, self)

    def unpack_data(self, node: GradNode) -> Any:
        if self.value:
            raise _stale(node, self, 0, self.value)
        return self.data


def _producer(node: GradNode, seq: int) -> GradNode:
    """The node `node` has an edge to whose `seq` is `seq` (see `of_edge`)."""
    for n in node._nexts or (node._next0, node._next1):  # see Edge in grad_node
        if n is not None and n.seq == seq:
            return n
    raise RuntimeError(  # pragma: no cover - of_edge saves only inputs the node has edges to
        f"{node.name}: a saved input's node is not among its edges"
    )


def _attached(data: Any, node: GradNode, pos: int, vc: VersionCounter) -> Tensor:
    """A saved output's array as a tensor again: output `pos` of `node`, counting versions
    with `vc` (the create_graph path differentiates through it)."""
    t = wrap(data)
    t._requires_grad = True
    t._node = node
    t._pos = pos
    t._vc = vc
    if FORWARD.level:  # forward-over-reverse: the output's tangent comes back with it
        restore_tangent(t)
    return t


class _OutputSeen(TensorWrapper):
    """A node's output that already had a version counter (an in-place op's result, or a
    view sharing its base's counter): the counter and its value at save time."""

    __slots__ = ("data", "pos", "_counter", "_seen")
    data: Any
    pos: int
    _counter: VersionCounter
    _seen: int

    def unpack(self, node: GradNode) -> Tensor:
        if self._counter.value != self._seen:
            raise _stale(node, self, self._seen, self._counter.value)
        return _attached(self.data, node, self.pos, self._counter)

    def unpack_data(self, node: GradNode) -> Any:
        if self._counter.value != self._seen:
            raise _stale(node, self, self._seen, self._counter.value)
        return self.data


class _Hooked(TensorWrapper):
    """A tensor saved while saved_tensors_hooks were active: kept only in packed form."""

    __slots__ = ("packed", "unpack_hook", "pos", "output", "_counter", "_seen", "meta")

    def __init__(self, t: Tensor, node: GradNode | None, pos: int) -> None:
        pack_hook, unpack_hook = _HOOKS.stack[-1]
        data = t._data
        self.meta = (data.shape, data.dtype, data.__class__)
        self._counter = counter_of(t)
        self._seen = self._counter.value
        self.output = node is not None
        self.pos = pos
        # An output is packed detached so the packed form cannot hold its own node.
        self.packed = pack_hook(t.detach() if node is not None else t)
        self.unpack_hook = unpack_hook

    def unpack(self, node: GradNode) -> Tensor:
        if self._counter.value != self._seen:
            raise _stale(node, self, self._seen, self._counter.value)
        t = self.unpack_hook(self.packed)
        if not isinstance(t, Tensor):
            raise TypeError(
                f"saved_tensors_hooks: unpack_hook must return a Tensor, got {type(t).__name__} "
                f"(while unpacking for {node.name})"
            )
        data = t._data
        shape, dtype, cls = self.meta
        if data.shape != shape or data.dtype != dtype or data.__class__ is not cls:
            raise TypeError(
                f"saved_tensors_hooks: unpack_hook {hook_name(self.unpack_hook)} returned a tensor of "
                f"shape {data.shape}, dtype {data.dtype}, device {device_of(data)} for {node.name}; the "
                f"saved tensor had shape {shape}, dtype {dtype}, device {backend_of_type(cls)}"
            )
        if self.output:
            t = t.detach()
            t._requires_grad = True
            t._node = node
            t._pos = self.pos
        return t

    def unpack_data(self, node: GradNode) -> Any:
        return self.unpack(node)._data


def _slot_name(node: GradNode, wrapper: Saved) -> str:
    """Which attribute of `node` holds `wrapper` (error path only)."""
    for cls in type(node).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if getattr(node, name, None) is wrapper:
                return name
    return "?"


_accel.wrappers(globals())  # the C of_output, of_edge and meta_of when built (runtime/_accel.py)
_accel.input_wrapper(globals())  # and of_input
