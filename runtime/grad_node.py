"""The backward graph's nodes: Edge, TensorMeta, GradNode, and how nodes are linked.

A forward op that records history creates one `GradNode` subclass instance (generated from
backward.yaml). The node holds one `Edge` per flat input position — a `Tensor[]` argument
takes one position per element — pointing at the node that produced that input (or the
input's `AccumulateGrad`, in `grad_holder`, when it is a leaf), plus the metadata of each input so the engine
can check every gradient the node returns. Outputs point back at their node through
`set_history(tensor, node, pos)`; the node never holds its outputs (no cycles).
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar

from opgrad.runtime import _accel
from opgrad.runtime import anomaly as _anomaly
from opgrad.runtime import device as _device
from opgrad.runtime.hooks import HOOK_IDS, NodeHooks, RemovableHandle
from opgrad.runtime.later import later
from opgrad.runtime.tensor import Tensor

if TYPE_CHECKING:
    from opgrad.runtime.grad_holder import AccumulateGrad

_SEQ = itertools.count()
_new = object.__new__
_ANOMALY = _anomaly.STATE  # one object for the life of the process
LEAF_SEQ = 1 << 62  # accumulators run as soon as they are ready
N = TypeVar("N", bound="GradNode")


class TensorMeta:
    """Shape, dtype and device of a tensor, without its data (what `no_need_buffer` keeps)."""

    __slots__ = ("shape", "dtype", "_where")

    def __init__(self, shape: Sequence[int], dtype: Any, device: Any = "cpu") -> None:
        self.shape = tuple(shape)
        self.dtype = dtype
        self._where = device  # a device string, or the array type it was taken from

    @classmethod
    def of(cls, array: Any) -> Self:
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


# An edge is "the gradient goes to output position `pos` of `node`". A node keeps its edges
# without a container of its own when it has at most two input positions (nearly every
# node): `_next0` and `_next1` are the nodes of positions 0 and 1 (None for an input that
# needs no gradient, and for a position the node does not have). Only a node with more
# positions allocates `_nexts`, the tuple of all its nodes (the empty tuple otherwise;
# `_next0` and `_next1` are then its first two entries). `_at` is the output position per
# input, one of the shared all-zero tuples below unless some position is not 0, and its
# length is the node's number of input positions. So a node allocates nothing for its
# edges: every object a node keeps is one more for each cyclic-GC pass to walk while the
# graph is alive (a live chain y = tanh(y * a + b) keeps 4 objects per 3 ops; 7 when each
# node kept a tuple of nodes). `edges()` and `next_edges` are the public views; `_next`,
# the nodes as one tuple, serves code that read the old tuple slot. The engine reads the
# slots: `run_backward` one at a time, the dependency count a one-edge node's `_next0`
# alone, the other loops `node._nexts or (node._next0, node._next1)` (a trailing None for a
# node with one input or none, skipped like any None edge).
Edge = tuple  # tuple[GradNode, int]

_ZEROS = tuple((0,) * n for n in range(9))  # _ZEROS[n]: n positions, all 0

# Output metadata is a plain tuple too: (shape, dtype, array type).
OutputMeta = tuple  # tuple[tuple[int, ...], np.dtype, type]


def meta_from_tuple(meta: tuple[Any, ...]) -> TensorMeta:
    m = TensorMeta.__new__(TensorMeta)
    m.shape, m.dtype, m._where = meta
    return m


class GradNode:
    """Base of every backward node.

    Subclasses (generated) define `name`, `apply(grads, create_graph)` and, when they save
    tensors, `release_saved()`. `apply` receives one gradient per output position and
    returns one gradient (or None) per input position. Other code reads the rest through
    `edges()` and `output_meta_at(pos)`.

    What a node keeps is laid out for the cyclic GC as much as for speed: every object a
    node holds is one more for each collection to walk while the graph is alive, so the
    edges of up to two inputs take two slots (`_next0`, `_next1`, see Edge above) and output
    0's metadata lives in three slots (`_shape`, `_dtype`, `_atype`). Only nodes with
    several output positions allocate `_more`, the (shape, dtype, array type) of positions
    1, 2, ... (None where unset).
    """

    __slots__ = (
        "_next0",
        "_next1",
        "_nexts",
        "_at",
        "_shape",
        "_dtype",
        "_atype",
        "_more",
        "seq",
        "_released",
        "_hooks",
        "trace",
        "__weakref__",
    )
    _next0: GradNode | None
    _next1: GradNode | None
    _nexts: tuple[GradNode | None, ...]  # () unless the node has more than two input positions
    _at: tuple[int, ...]
    _shape: tuple[int, ...] | None
    _dtype: Any
    _atype: Any  # the output's array type (None until set)
    _more: tuple[tuple[Any, ...] | None, ...] | None
    seq: int
    _released: bool
    _hooks: NodeHooks | None
    trace: Any  # anomaly mode's stack summary of the forward, or None
    name = "GradNode"
    # Output positions that never carry gradient (filled with None rather than zeros).
    non_differentiable_outputs: tuple[int, ...] = ()
    # For multi-output forwards: how many gradients `apply` reads (the engine pads with None).
    n_outputs = 0
    # True when `apply` may return tensors that something outside the engine holds (a custom
    # Function's backward can return anything); the engine then never lets a leaf's `.grad`
    # share their memory. Generated nodes return kernel results or the gradients they got.
    foreign_grads = False
    # True for a class whose nodes the engine may run inline whenever they have no hooks
    # and one output position: its `apply` reads exactly its gradients, returns one per
    # input and gives no user code a gradient (engine_loop.run_backward: one class read in
    # place of `n_outputs`, `foreign_grads` and the AccumulateGrad test). Only a class that
    # sets it in its own body has it (generated nodes without `n_outputs`, the runtime's
    # one-output nodes of indexing, transfers and summed gradients); a subclass, which may
    # change what `apply` does, does not inherit it.
    _plain = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_plain" not in cls.__dict__:
            cls._plain = False

    def __init__(self, inputs: Sequence[Tensor | None]) -> None:
        _link(self, inputs)
        self._shape = None  # set_history fills output 0's metadata
        self._dtype = None
        self._atype = None

    # -- the part subclasses implement -------------------------------------------------
    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        raise NotImplementedError(f"{type(self).__name__} does not implement apply()")

    def release_saved(self) -> None:
        """Free saved tensors. Nodes that save nothing keep working after a backward."""

    # -- accessors -----------------------------------------------------------------------
    # How code outside this module reads the layout above (with `output_meta_at`). The
    # engine's inner loop is the one exception: it reads the slots directly, because
    # accessor calls cost it ~10% of a backward (see engine._run); its reads must follow
    # any layout change.
    def edges(self) -> tuple[tuple[GradNode | None, ...], tuple[int, ...]]:
        """The edges as two parallel tuples, one entry per input position: the node the
        gradient goes to (None for an input that needs no gradient), and which of that
        node's output positions it arrives at. `next_edges` gives them as pairs."""
        return self._next, self._at

    @property
    def _next(self) -> tuple[GradNode | None, ...]:
        """The node per input position as one tuple (None for an input that needs no
        gradient): for code that read the tuple slot of that name. A node with one or two
        inputs makes the tuple on each read, so loops that run per node read the slots."""
        return self._nexts or (self._next0, self._next1)[: len(self._at)]

    @_next.setter
    def _next(self, nodes: Sequence[GradNode | None]) -> None:
        # A subclass written for the tuple slot may set it (and `_at`) itself.
        _set_nexts(self, nodes)

    # -- inspection --------------------------------------------------------------------
    @property
    def next_edges(self) -> tuple[tuple[GradNode, int] | None, ...]:
        """One (node, output position) per input position, None for an input that needs
        no gradient."""
        return tuple(None if n is None else (n, p) for n, p in zip(self._next, self._at, strict=True))

    @property
    def next_nodes(self) -> tuple[tuple[GradNode | None, int], ...]:
        """(node, output position) per input position, like PyTorch's next_functions."""
        return tuple(zip(self._next, self._at, strict=True))

    next_functions = next_nodes

    @property
    def output_meta(self) -> tuple[tuple[Any, ...] | None, ...]:
        """(shape, dtype, array type) per output position (None where no tensor was set)."""
        if self._shape is None and self._more is None:
            return ()
        return (self.output_meta_at(0), *(self._more or ()))

    def output_meta_at(self, pos: int) -> tuple[Any, ...] | None:
        """(shape, dtype, array type) of output position `pos`, or None."""
        if pos == 0:
            return None if self._shape is None else (self._shape, self._dtype, self._atype)
        more = self._more
        return None if more is None or pos > len(more) else more[pos - 1]

    @property
    def n_positions(self) -> int:
        """How many output positions have been given a tensor (the highest one plus 1)."""
        more = self._more
        return 1 + len(more) if more is not None else (0 if self._shape is None else 1)

    @property
    def input_meta(self) -> tuple[TensorMeta | None, ...]:
        """Shape, dtype and device of each input, as the gradients for them must be."""
        return tuple(
            None if n is None or (meta := n.output_meta_at(p)) is None else meta_from_tuple(meta)
            for n, p in zip(self._next, self._at, strict=True)
        )

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
        key = next(HOOK_IDS)
        table[key] = fn
        return RemovableHandle(table, key)

    def register_hook(self, fn: Callable[[Sequence[Any], list[Any]], Any]) -> RemovableHandle:
        """`fn(grad_inputs, grad_outputs)` after the node runs; may return replacements."""
        table = self._hook_tables().post
        key = next(HOOK_IDS)
        table[key] = fn
        return RemovableHandle(table, key)


def set_history(tensor: Tensor, node: GradNode, pos: int) -> None:
    """Make `tensor` the output at position `pos` of `node` (it now requires grad).

    For a tensor that already had history (an in-place op's target), a `retain_grads()`
    follows it to the new node: `.grad` is the gradient for the tensor's current value."""
    extra = tensor._extra
    if extra is not None and extra.retain:
        _move_retain(tensor, node, pos)
    tensor._requires_grad = True
    tensor._node = node
    tensor._pos = pos
    data = tensor._data
    if pos == 0:
        node._shape = data.shape
        node._dtype = data.dtype
        node._atype = data.__class__
        return
    more = list(node._more or ())
    if len(more) < pos:
        more += [None] * (pos - len(more))
    more[pos - 1] = (data.shape, data.dtype, data.__class__)
    node._more = tuple(more)


def _move_retain(tensor: Tensor, node: GradNode, pos: int) -> None:
    old = tensor._node
    if old is not None and old._hooks is not None:
        ref = old._hooks.retain.get(tensor._pos)
        if ref is not None and ref() is tensor:
            del old._hooks.retain[tensor._pos]
    node._hook_tables().retain[pos] = weakref.ref(tensor)


def _link(node: GradNode, inputs: Sequence[Tensor | None]) -> None:
    """Fill a new node's edges (one per input) and the rest of its state but output 0's
    metadata, which the caller sets (`GradNode.__init__` to None). `new_node`, the generated
    ops' path, does the same with its one- and two-input cases spelled out."""
    edges = [(None, 0) if t is None or not t._requires_grad else edge_to(t) for t in inputs]
    _set_nexts(node, [e[0] for e in edges])
    at = tuple([e[1] for e in edges])
    node._at = _ZEROS[len(at)] if len(at) < len(_ZEROS) and not any(at) else at
    node._more = None
    node.seq = next(_SEQ)
    node._released = False
    node._hooks = None
    node.trace = _anomaly.capture_trace() if _anomaly.STATE.enabled else None


def _set_nexts(node: GradNode, nodes: Sequence[GradNode | None]) -> None:
    """Store the node per input position in the layout described at Edge above."""
    n = len(nodes)
    node._next0 = nodes[0] if n else None
    node._next1 = nodes[1] if n > 1 else None
    node._nexts = tuple(nodes) if n > 2 else ()


def new_node(cls: type[N], inputs: Sequence[Tensor | None], out: Tensor) -> N:
    """A `cls` node recording `inputs`, with `out` as its output 0: `cls(inputs)` followed
    by `set_history(out, node, 0)`, in one call (a Python `__init__` reached through
    `type.__call__` would cost more than the rest). One and two inputs go to `recorded`,
    which generated ops call directly; `tests/test_grad_node.py` checks both give the node
    `GradNode(...)` gives."""
    n = len(inputs)
    if n == 1:
        return new_node_of(cls, out, inputs[0])
    if n == 2:
        return new_node_of(cls, out, inputs[0], inputs[1])
    data = out._data
    if not hasattr(data, "shape"):  # checked before anything is linked
        raise _not_an_array(cls.name, data)
    node = _new(cls)
    _link(node, inputs)
    node._shape = None
    set_history(out, node, 0)
    prev = node._next0  # share an elementwise op's shape (see recorded)
    if prev is not None and prev._shape == node._shape:
        node._shape = prev._shape
    return node


class _OneInput:
    """The default of `recorded`'s second input: the node has one input."""


_ONE = _OneInput()


def new_node_of(cls: type[N], out: Tensor, a: Tensor | None, b: Any = _ONE) -> N:
    """`new_node(cls, (a,), out)` or `new_node(cls, (a, b), out)` without the tuple, for an
    output that exists before its node (a view, marked before the node is made)."""
    return recorded(cls, out._data, a, b, out=out)[1]


def recorded(
    cls: type[N], data: Any, a: Tensor | None, b: Any = _ONE, *, out: Tensor | None = None
) -> tuple[Tensor, N]:
    """A new `cls` node recording one input `a` or two, `a` and `b`, and its output 0: a
    fresh Tensor around the kernel's result `data`, or `out` when given. The generated
    ops' hot path (nearly every op has one or two inputs): what `wrap(data)` and then
    `new_node(cls, (a, b), out)` do, in one call. Returns (output, node).

    The edges are spelled out here rather than by `_link`'s loop: timing node creation by
    arity, the unrolled branches took 600-700 ns where the loop took 840-880 ns; passing
    the inputs as arguments rather than a tuple saves ~100 ns more, and making the output
    here rather than in `wrap` ~60 ns. An elementwise chain's outputs all have one shape:
    the node shares its first input's node's shape tuple, so the fresh one dies at once
    (one object less for each GC pass to walk)."""
    try:
        shape = data.shape
    except AttributeError:  # checked before anything is linked: try costs nothing in 3.11
        raise _not_an_array(cls.name, data) from None
    node = _new(cls)
    pa = pb = 0  # a and b are spelled out twice on purpose: no call per input
    if a is None or not a._requires_grad:
        na = None
    elif a._node is not None:
        na, pa = a._node, a._pos
        if na._shape == shape:
            shape = na._shape
    else:
        na = accumulator_of(a)
        if na._shape == shape:  # an accumulator's output 0 is its leaf
            shape = na._shape
    if b is _ONE:
        node._next0 = na
        node._next1 = None
        node._at = (pa,) if pa else _ZEROS[1]
    else:
        if b is None or not b._requires_grad:  # b: a Tensor or None
            nb = None
        elif b._node is not None:
            nb, pb = b._node, b._pos
        else:
            nb = accumulator_of(b)
        node._next0 = na
        node._next1 = nb
        node._at = (pa, pb) if pa or pb else _ZEROS[2]
    node._nexts = ()
    node._more = None
    node.seq = next(_SEQ)
    node._released = False
    node._hooks = None
    node.trace = _anomaly.capture_trace() if _ANOMALY.enabled else None
    node._shape = shape
    node._dtype = data.dtype
    node._atype = data.__class__
    if out is None:  # Tensor._init_fields' stores, for an output with history
        out = _new(Tensor)
        out._data = data
        out._grad = out._vc = out._acc = out._extra = out._dual = None
    out._requires_grad = True
    out._node = node
    out._pos = 0
    return out, node


def _not_an_array(backward: str, data: Any) -> RuntimeError:
    """The error for an output whose kernel returned something that is not one array."""
    if isinstance(data, tuple | list):
        return RuntimeError(
            f"the forward op of {backward}: the YAML declares 1 output, its kernel returned {len(data)}; "
            "make the kernel return one array, or declare every output in `output:`"
        )
    return RuntimeError(
        f"the forward op of {backward}: its kernel returned a {type(data).__name__}, not an array"
    )


def check_hook_result(result: Any, grad: Any, what: str) -> Any:
    """`result`, which a hook returned in place of `grad`, once it is known to have grad's
    shape, dtype and device."""
    data = grad._data
    return check_replacement(result, (data.shape, data.dtype, data.__class__), what)


def check_replacement(result: Any, meta: tuple[Any, ...], what: str) -> Any:
    """`result` (a replacement gradient) if it matches `meta`, (shape, dtype, array type);
    otherwise an error naming `what` (the hook) and the mismatch."""
    if not isinstance(result, Tensor):
        raise TypeError(f"{what} must return a Tensor or None, got {type(result).__name__}")
    shape, dtype, cls = meta
    data = result._data
    if data.shape != shape:
        raise ValueError(
            f"{what} returned a gradient of shape {data.shape}; the gradient it replaces has shape {shape}"
        )
    if data.dtype != dtype:
        raise TypeError(
            f"{what} returned a gradient of dtype {data.dtype}; the gradient it replaces has dtype "
            f"{dtype}. A hook must keep the gradient's dtype (convert it back with .astype('{dtype}'))"
        )
    if data.__class__ is not cls:
        raise TypeError(
            f"{what} returned a gradient on device {_device.device_of(data)}; the gradient it "
            f"replaces is on device {_device.backend_of_type(cls)}. A hook must keep the gradient's device"
        )
    return result


def edge_to(t: Tensor) -> tuple[GradNode, int]:
    """The edge a gradient for `t` (which requires grad) travels: its node, or its leaf's
    accumulator."""
    node = t._node
    return (accumulator_of(t), 0) if node is None else (node, t._pos)


def accumulator_of(t: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad, created on first use and shared while it lives (with the C
    primitives built, by its C version, which makes it in C: `_accel.accumulators`)."""
    ref = t._acc
    acc = None if ref is None else ref()
    if acc is None:  # the class lives with the leaf accumulation, which builds on this module
        acc = later.grad_holder.AccumulateGrad(t)
        t._acc = weakref.ref(acc)
    return acc


recorded = _accel.recorded(recorded)  # its C version when built (runtime/_accel.py)
_accel.leaf_edges(globals())  # accumulator_of and edge_to likewise (grad_holder binds its AccumulateGrad)
