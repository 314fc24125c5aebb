"""The backward graph's nodes: Edge, TensorMeta, GradNode and AccumulateGrad.

A forward op that records history creates one `GradNode` subclass instance (generated from
backward.yaml). The node holds one `Edge` per flat input position — a `Tensor[]` argument
takes one position per element — pointing at the node that produced that input (or the
input's `AccumulateGrad` when it is a leaf), plus the metadata of each input so the engine
can check every gradient the node returns. Outputs point back at their node through
`set_history(tensor, node, pos)`; the node never holds its outputs (no cycles).
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from opgrad.runtime import anomaly as _anomaly
from opgrad.runtime import device as _device

if TYPE_CHECKING:
    from opgrad.runtime.tensor import Tensor

_SEQ = itertools.count()
_ACCUMULATE_LOCK = threading.Lock()
LEAF_SEQ = 1 << 62  # accumulators run as soon as they are ready


class TensorMeta:
    """Shape, dtype and device of a tensor, without its data (what `no_need_buffer` keeps)."""

    __slots__ = ("shape", "dtype", "_where")

    def __init__(self, shape: Sequence[int], dtype: Any, device: Any = "cpu") -> None:
        self.shape = tuple(shape)
        self.dtype = dtype
        self._where = device  # a device string, or the array type it was taken from

    @classmethod
    def of(cls, array: Any) -> TensorMeta:
        """The metadata of `array` (an instance of `cls`: subclasses reuse this)."""
        meta = cls.__new__(cls)
        meta.shape = array.shape
        meta.dtype = array.dtype
        meta._where = array.__class__
        return meta

    @property
    def device(self) -> str:
        where = self._where
        if isinstance(where, str):
            return where
        return _device.backend_of_type(where)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def matches(self, array: Any) -> bool:
        where = self._where
        return (
            array.shape == self.shape
            and array.dtype == self.dtype
            and (array.__class__ is where if not isinstance(where, str) else True)
        )

    def describe(self) -> str:
        return f"shape {self.shape}, dtype {self.dtype}, device {self.device}"

    def __repr__(self) -> str:
        return f"TensorMeta(shape={self.shape}, dtype={self.dtype}, device={self.device!r})"


# An edge is a plain tuple (node, pos): "the gradient goes to output position `pos` of
# `node`". Tuples cost a fraction of an object on the hot path; `Edge` names the type.
Edge = tuple  # tuple[GradNode, int]

# Output metadata is a plain tuple too: (shape, dtype, array type).
OutputMeta = tuple  # tuple[tuple[int, ...], np.dtype, type]


def meta_from_tuple(meta: tuple[Any, ...]) -> TensorMeta:
    m = TensorMeta.__new__(TensorMeta)
    m.shape, m.dtype, m._where = meta
    return m


class RemovableHandle:
    """Returned by `register_hook`; `remove()` unregisters the hook (idempotent)."""

    __slots__ = ("_container", "_key")

    def __init__(self, container: dict[int, Any], key: int) -> None:
        self._container = container
        self._key = key

    def remove(self) -> None:
        self._container.pop(self._key, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


_HOOK_IDS = itertools.count()


class NodeHooks:
    """The rarely used per-node state (hook tables, Tensor[] slot layout), allocated on
    first use so that creating a node stays cheap."""

    __slots__ = ("tensor", "retain", "pre", "post", "output_slots")

    def __init__(self) -> None:
        self.output_slots: list[tuple[int, int]] | None = None
        self.tensor: dict[int, dict[int, Callable[[Any], Any]]] = {}  # pos -> tensor hooks
        self.retain: dict[int, weakref.ref[Tensor]] = {}  # pos -> non-leaf retaining .grad
        self.pre: dict[int, Callable[..., Any]] = {}
        self.post: dict[int, Callable[..., Any]] = {}


class GradNode:
    """Base of every backward node.

    Subclasses (generated) define `name`, `apply(grads, create_graph)` and, when they save
    tensors, `release_saved()`. `apply` receives one gradient per output position and
    returns one gradient (or None) per input position.
    """

    __slots__ = ("next_edges", "output_meta", "seq", "_released", "_hooks", "trace", "__weakref__")
    name = "GradNode"
    # Output positions that never carry gradient (filled with None rather than zeros).
    non_differentiable_outputs: tuple[int, ...] = ()
    # For multi-output forwards: how many gradients `apply` reads (the engine pads with None).
    n_outputs = 0

    def __init__(self, inputs: Sequence[Tensor | None]) -> None:
        if len(inputs) == 1:  # the common arities without a loop; non-leaf inputs inline
            t = inputs[0]
            if t is None or not t._requires_grad:
                self.next_edges: tuple[tuple[GradNode, int] | None, ...] = (None,)
            elif t._node is not None:
                self.next_edges = ((t._node, t._pos),)
            else:
                self.next_edges = (edge_to(t),)
        elif len(inputs) == 2:
            a, b = inputs
            self.next_edges = (
                None
                if a is None or not a._requires_grad
                else (a._node, a._pos)
                if a._node is not None
                else edge_to(a),
                None
                if b is None or not b._requires_grad
                else (b._node, b._pos)
                if b._node is not None
                else edge_to(b),
            )
        else:
            self.next_edges = tuple(
                [None if t is None or not t._requires_grad else edge_to(t) for t in inputs]
            )
        # One (shape, dtype, array type) per output position; set_history fills it.
        self.output_meta: tuple[tuple[Any, ...] | None, ...] = ()
        self.seq = next(_SEQ)
        self._released = False
        self._hooks: NodeHooks | None = None
        self.trace: str | None = _anomaly.capture_trace() if _anomaly.STATE.enabled else None

    # -- the part subclasses implement -------------------------------------------------
    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        raise NotImplementedError(f"{type(self).__name__} does not implement apply()")

    def release_saved(self) -> None:
        """Free saved tensors. Nodes that save nothing keep working after a backward."""

    # -- inspection --------------------------------------------------------------------
    @property
    def next_nodes(self) -> tuple[tuple[GradNode | None, int], ...]:
        """(node, output position) per input position, like PyTorch's next_functions."""
        return tuple((None, 0) if e is None else e for e in self.next_edges)

    next_functions = next_nodes

    @property
    def input_meta(self) -> tuple[TensorMeta | None, ...]:
        """Shape, dtype and device of each input, as the gradients for them must be."""
        return tuple(None if e is None else meta_from_tuple(e[0].output_meta[e[1]]) for e in self.next_edges)

    @property
    def output_slots(self) -> list[tuple[int, int]] | None:
        """(slot, rank) per output position when a Tensor[] output made several positions."""
        return None if self._hooks is None else self._hooks.output_slots

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} #{self.seq}>"

    # -- hooks -------------------------------------------------------------------------
    def _hook_tables(self) -> NodeHooks:
        hooks = self._hooks
        if hooks is None:
            hooks = self._hooks = NodeHooks()
        return hooks

    def register_prehook(self, fn: Callable[[list[Any]], Any]) -> RemovableHandle:
        """`fn(grad_outputs)` before the node runs; may return a replacement list."""
        table = self._hook_tables().pre
        key = next(_HOOK_IDS)
        table[key] = fn
        return RemovableHandle(table, key)

    def register_hook(self, fn: Callable[[Sequence[Any], list[Any]], Any]) -> RemovableHandle:
        """`fn(grad_inputs, grad_outputs)` after the node runs; may return replacements."""
        table = self._hook_tables().post
        key = next(_HOOK_IDS)
        table[key] = fn
        return RemovableHandle(table, key)


def set_history(tensor: Tensor, node: GradNode, pos: int) -> None:
    """Make `tensor` the output at position `pos` of `node` (it now requires grad)."""
    tensor._requires_grad = True
    tensor._node = node
    tensor._pos = pos
    metas = node.output_meta
    data = tensor._data
    meta = (data.shape, data.dtype, data.__class__)
    if pos == 0 and not metas:
        node.output_meta = (meta,)
    else:
        grown = list(metas) + [None] * (pos + 1 - len(metas))
        grown[pos] = meta
        node.output_meta = tuple(grown)


class AccumulateGrad(GradNode):
    """The node at a leaf: runs the leaf's hooks, then adds the gradient into `.grad`.

    It holds the leaf strongly; the leaf holds it weakly, so it lives exactly as long as
    some graph uses the leaf, and every use of the leaf in that time shares it.
    """

    __slots__ = ("variable",)
    name = "accumulate_grad"

    def __init__(self, variable: Tensor) -> None:
        super().__init__(())
        self.variable = variable
        self.seq = LEAF_SEQ
        data = variable._data
        self.output_meta = ((data.shape, data.dtype, data.__class__),)

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        from opgrad.runtime.grad_holder import accumulate_into_leaf

        grad = run_leaf_hooks(self.variable, grads[0])
        accumulate_into_leaf(self.variable, grad, create_graph, _ACCUMULATE_LOCK)
        return ()

    def __repr__(self) -> str:
        return f"<AccumulateGrad leaf shape={self.variable.shape}>"


def run_leaf_hooks(leaf: Tensor, grad: Any) -> Any:
    """A leaf's tensor hooks see the gradient before it is accumulated (or captured)."""
    extra = leaf._extra
    if extra is not None and extra.hooks:
        for fn in list(extra.hooks.values()):
            result = fn(grad)
            if result is not None:
                grad = check_hook_result(result, grad, "tensor hook")
    return grad


def check_hook_result(result: Any, grad: Any, what: str) -> Any:
    from opgrad.runtime.tensor import Tensor

    if not isinstance(result, Tensor):
        raise TypeError(f"{what} must return a Tensor or None, got {type(result).__name__}")
    if result.shape != grad.shape:
        raise ValueError(
            f"{what} returned a gradient of shape {result.shape}; "
            f"the gradient it replaces has shape {grad.shape}"
        )
    return result


def edge_to(t: Tensor) -> tuple[GradNode, int]:
    """The edge a gradient for `t` (which requires grad) travels: its node, or its leaf's
    accumulator."""
    node = t._node
    return (accumulator_of(t), 0) if node is None else (node, t._pos)


def accumulator_of(t: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad, created on first use and shared while it lives."""
    ref = t._acc
    acc = None if ref is None else ref()
    if acc is None:
        acc = AccumulateGrad(t)
        t._acc = weakref.ref(acc)
    return acc
