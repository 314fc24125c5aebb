"""The backward engine's loop: each node's turn (hooks, `apply`, releasing its saved
tensors) and the delivery of its gradients along its edges, each checked against the
metadata of the output it goes to.

`engine._run` sets a pass up (dependency counts, the seeds in a `GradTensorHolder`, the
ready heap) and hands it to one of two loops. `run_backward` serves `backward()` without
anomaly mode, the common case, where no node needs skipping: a node whose
gradients make exactly one node ready hands over to it directly when it is the next one
due (a chain), instead of through the heap, and a node without hooks, several outputs or
user code runs inline; through `run_grad` it also serves a `grad()` pass in which every
node lies on a path to an input and every input is a leaf (nothing to skip: the leaves'
gradients are captured instead of accumulated). `run_general` serves everything else
(other `grad()` passes, `no_grad_vars`, batched passes, anomaly mode). Both run the nodes
in the same order, the most recently created first (the heap's key, `(-seq, order)`, is
unique), so they give the same results.

With the C primitives built, `run_backward` and `run_grad` are bound (at the end of this
module, runtime/_accel.py) to a C version of `run_backward`'s loop, statement for statement,
which calls the helpers below (read from this module at each use) for every case it does
not run inline; the Python function stays the definition and the fallback. The C loop keeps
the ready keys `(-seq, order)` as C integers in a heap of its own (the same pops: the keys
are unique), and moves them into `ready` for heapq if a `seq` does not fit 63 bits.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

import numpy as np

from opgrad.runtime import _accel
from opgrad.runtime import anomaly as _anomaly
from opgrad.runtime.batching import apply_batched
from opgrad.runtime.device import device_of, module_of_type
from opgrad.runtime.grad_holder import (
    ACCUMULATE_LOCK,
    AccumulateGrad,
    GradTensorHolder,
    Held,
    accumulate_into_leaf,
    array_sum,
    hand_out,
    hold,
    run_leaf_hooks,
    take_as_grad,
)
from opgrad.runtime.grad_node import GradNode, check_hook_result, check_replacement, meta_from_tuple
from opgrad.runtime.hooks import hook_name
from opgrad.runtime.tensor import Tensor, wrap

Ready = list[tuple[int, int, GradNode]]


def run_backward(
    ready: Ready,
    order: int,
    deps: dict[GradNode, int],
    holder: GradTensorHolder,
    retain_graph: bool,
    create_graph: bool,
    capture: dict[tuple[int, int], list[int]] | None = None,
) -> dict[int, Tensor]:
    """The loop of `backward()` (every node runs, leaves accumulate, no anomaly checks),
    and of a `grad()` pass in which every node lies on a path to an input and every input
    is a leaf (`capture` maps the inputs' edges to their indices): leaves are captured,
    not accumulated. Returns the captured gradients by input index.
    Each gradient is checked as it is delivered, so a bad one aborts the pass before any
    leaf's `.grad` sees anything (leaves accumulate only when their own turn comes).

    What a node's turn costs is a backward's cost per op, so the common node (one output,
    no hooks, a class with `_plain`) runs inline and a chain skips the heap: the one node its
    gradients made ready runs next when its key is below every key in the heap, which is
    when `heappop` would have returned it. This loop and the dependency count read the
    node's slots directly (`_next0`/`_next1`/`_nexts`, `_at`, `_more`, output 0's
    `_shape`/`_dtype`/`_atype`, see GradNode) rather than through accessor methods
    (`edges()`, an output-metadata check, a one-output test): those calls measured 0.5-0.8
    us more per node (~10%)."""
    buffers = holder.buffers
    held = holder.held
    captured: dict[int, Tensor] = {}
    heappop, heappush, heappushpop = heapq.heappop, heapq.heappush, heapq.heappushpop
    node: GradNode | None = heappop(ready)[2] if ready else None
    direct: list[Any] | None = None  # the gradients of `node`, when not in `buffers`
    while node is not None:
        if direct is None:
            grads = buffers.pop(node, None)
        else:
            grads, direct = direct, None
        outs: Sequence[Any] = ()
        if grads is not None:
            if node._plain and node._hooks is None and node._more is None:
                if node._released:
                    raise _freed_error(node)
                outs = node.apply(grads, create_graph)
                if len(outs) != len(node._at):  # before the saved tensors go (one per input position)
                    raise _count_error(node, outs, "apply")
                if not retain_graph:
                    node.release_saved()
            else:
                if node._hooks is not None:
                    grads = _pre_hooks(node, grads, held)
                if node.__class__ is not AccumulateGrad:
                    outs = _apply(node, grads, held, retain_graph, create_graph)
                elif capture is None:
                    _accumulate(node, grads, create_graph, held)
                else:
                    _capture(node, grads, capture, captured, held)
        grads = None  # the node's own incoming gradients: freed before its outputs are summed
        # Deliver gradient i along edge i (or, for a node that produced nothing, just count
        # down its edges). The first child made ready is kept in `nxt` (its heap key, which
        # its order `nxt_order` completes, is built only if the heap is not empty), any
        # other is pushed; when that first child's one gradient is the first it gets, it is
        # kept in `direct` rather than in `buffers`.
        nxt: GradNode | None = None
        nxt_order = 0
        i = 0
        n_outs = len(outs)
        at = node._at
        # The edges are read from the node's slots one at a time (see Edge in grad_node):
        # `_next0`, then `_next1` if it is set, or each entry of `_nexts` for a node with more
        # positions. Timed alone, a `for` over a tuple of the two slots made per node took
        # 55-60 ns per node, the old `for` over a stored tuple ~52 ns, this loop ~40 ns.
        kids = node._nexts
        child = kids[0] if kids else node._next0
        while True:
            if child is not None:
                pos = at[i]
                left = deps[child] - 1
                if left:  # at 0 the child is due: nothing reads its count again
                    deps[child] = left
                g = outs[i] if i < n_outs else None
                if g is not None:
                    data = g._data
                    if pos or (  # output 0's metadata is in the child's slots: compared inline
                        data.__class__ is not child._atype
                        or data.shape != child._shape
                        or (data.dtype is not child._dtype and data.dtype != child._dtype)
                    ):
                        _check_gradient(node, i, g, child, pos)
                    if pos or child._more is not None or child in buffers:
                        holder.add(child, pos, g)
                    elif left or nxt is not None:
                        buffers[child] = [g]
                    else:
                        direct = [g]
                if left == 0:
                    if nxt is None:
                        nxt = child
                        nxt_order = order
                    else:
                        heappush(ready, (-child.seq, order, child))
                    order += 1
            i += 1
            if kids:
                if i == len(kids):
                    break
                child = kids[i]
            elif i == 1 and node._next1 is not None:
                child = node._next1
            else:
                break
        # The last gradient delivered may have been summed into a new buffer: drop the
        # loop's references so that it is freed now, not after the next node's apply.
        g = data = None
        outs = ()
        if nxt is None:
            node = heappop(ready)[2] if ready else None
        elif ready and ready[0] < (key := (-nxt.seq, nxt_order, nxt)):
            if direct is not None:
                buffers[nxt] = direct
                direct = None
            node = heappushpop(ready, key)[2]
        else:
            node = nxt
    return captured


# A grad() pass in which every node lies on a path to an input and every input is a leaf
# (engine._all_on_paths) runs run_backward's loop with `capture` (its own name, so that a
# pass of each kind can be told apart and replaced on its own).
run_grad = run_backward


def run_general(
    ready: Ready,
    order: int,
    deps: dict[GradNode, int],
    holder: GradTensorHolder,
    retain_graph: bool,
    create_graph: bool,
    accumulate: bool,
    targets: tuple[dict[tuple[int, int], list[int]], dict[int, GradNode]] | None,
    blocked: set[tuple[int, int]] | None,
    needed: set[GradNode] | None,
    runners: set[GradNode] | None,
    batch: int,
) -> dict[int, Tensor]:
    """The loop of every other pass: `grad()` (capturing the inputs' gradients, running
    only the nodes in `runners`, delivering only to those in `needed`), `no_grad_vars`
    (`blocked` edges), a batched pass (`batch` rows), anomaly mode's checks. Returns the
    captured gradients by input index."""
    buffers = holder.buffers
    held = holder.held
    target_map, capture_nodes = targets if targets is not None else ({}, {})
    captured: dict[int, Tensor] = {}
    check = _anomaly.STATE.enabled
    capturing = targets is not None
    heappop, heappush = heapq.heappop, heapq.heappush
    while ready:
        node = heappop(ready)[2]
        grads = buffers.pop(node, None)
        outs: Sequence[Any] = ()
        if grads is not None:
            if node._hooks is not None:
                grads = _pre_hooks(node, grads, held)
            is_target = capturing and id(node) in capture_nodes
            if is_target:
                _capture(node, grads, target_map, captured, held)
            if node.__class__ is AccumulateGrad:
                if accumulate and not is_target:
                    _accumulate(node, grads, create_graph, held)
            elif runners is None or node in runners:
                if batch:
                    outs = _apply_batched(node, grads, create_graph, retain_graph, check, batch)
                else:
                    outs = _apply(node, grads, held, retain_graph, create_graph)
        grads = None  # freed before the node's outputs are summed (see run_backward)
        i = 0
        n_outs = len(outs)
        at = node._at
        for child in node._nexts or (node._next0, node._next1):  # see Edge in grad_node
            if child is not None:
                pos = at[i]
                g = outs[i] if i < n_outs else None
                if g is not None and not batch:  # a batched pass checked them in _apply_batched
                    _check_gradient(node, i, g, child, pos)
                    if check:
                        _anomaly.check_gradient(node, i, g._data)
                if blocked is None or (id(child), pos) not in blocked:
                    if g is not None and (needed is None or child in needed):
                        if pos == 0 and child._more is None and child not in buffers:
                            buffers[child] = [g]
                        else:
                            holder.add(child, pos, g)
                    left = deps[child] - 1
                    deps[child] = left
                    if left == 0:
                        heappush(ready, (-child.seq, order, child))
                        order += 1
            i += 1
        g = None
        outs = ()
    return captured


def _apply(
    node: GradNode, grads: list[Any], held: Held, retain_graph: bool, create_graph: bool
) -> Sequence[Any]:
    """A node's turn after its pre-hooks: `apply` (on padded gradients for several outputs,
    on gradients the user may keep for a custom Function), then the release of its saved
    tensors and its post-hooks."""
    if node._released:
        raise _freed_error(node)
    if node.n_outputs or node._more is not None or node.foreign_grads:
        grads = _prepare(node, grads, held)
    outs = node.apply(grads, create_graph)
    if len(outs) != len(node._at):  # before the saved tensors go (one per input position)
        raise _count_error(node, outs, "apply")
    if not retain_graph:
        node.release_saved()
    if node.foreign_grads or (node._hooks is not None and node._hooks.post):
        outs = _after_apply(node, outs, grads, held)
    return outs


def _check_gradient(node: GradNode, i: int, g: Tensor, child: GradNode, pos: int) -> None:
    """Gradient i of `node`, for output `pos` of `child`: its array type, shape and dtype."""
    meta: Any = child.output_meta_at(pos)  # not None: edges lead to recorded outputs
    shape, dtype, cls = meta
    data = g._data
    if data.__class__ is not cls or data.shape != shape or data.dtype != dtype:
        _bad_gradient(node, i, g, meta)


def _accumulate(node: AccumulateGrad, grads: list[Any], create_graph: bool, held: Held) -> None:
    """A leaf's turn: its hooks, then the sum into `.grad`, then the node's post-hooks."""
    leaf = node.variable
    grad = run_leaf_hooks(leaf, grads[0], held)
    accumulate_into_leaf(leaf, grad, create_graph, ACCUMULATE_LOCK, held)
    post_accumulate = leaf._extra.post_accumulate  # type: ignore[union-attr]  # accumulate_into_leaf made _extra
    if post_accumulate:
        for fn in list(post_accumulate.values()):
            if fn(leaf) is not None:
                raise RuntimeError(
                    f"post-accumulate-grad hook {hook_name(fn)} returned a value; it must return None "
                    "(it may read or edit the leaf's .grad in place)"
                )
    hooks = node._hooks
    if hooks is not None and hooks.post:
        for fn in list(hooks.post.values()):
            if fn((), grads) is not None:
                raise RuntimeError(
                    f"post-hook {hook_name(fn)} of a leaf's accumulate_grad node returned a value; "
                    "a leaf has no inputs to give gradients to, so it must return None"
                )


def _freed_error(node: GradNode) -> RuntimeError:
    return RuntimeError(
        f"trying to backward through {type(node).__name__} ({node.name}) a second time, but its saved "
        "tensors were already freed by the first backward. Pass retain_graph=True to the first "
        "backward()/grad() call if you need to backward through the graph again."
    )


def _count_error(node: GradNode, outs: Sequence[Any], what: str) -> RuntimeError:
    """`node`'s `what` ("apply", "batched apply") returned the wrong number of gradients."""
    return RuntimeError(
        f"{node.name}: the node has {len(node._at)} inputs (one gradient each), its {what} returned "
        f"{len(outs)} gradients ({type(node).__name__})"
    )


def _prepare(node: GradNode, grads: list[Any], held: Held) -> list[Any]:
    """The gradients a node with several outputs or a custom Function's node is applied to:
    None for trailing outputs that got no history, zeros for outputs nothing reached, and
    (a custom Function: user code sees them) entered in `held`."""
    if len(grads) < node.n_outputs:  # trailing outputs that got no history (optional, None)
        grads.extend([None] * (node.n_outputs - len(grads)))
    if node._more is not None:  # several outputs: the ones nothing reached get zeros
        metas = node.output_meta
        if len(grads) < len(metas):
            grads.extend([None] * (len(metas) - len(grads)))
        for i, meta in enumerate(metas):
            if grads[i] is None and meta is not None and i not in node.non_differentiable_outputs:
                grads[i] = wrap(_zeros(meta))
    if node.foreign_grads:  # a custom Function: user code sees and returns gradients
        grads = [None if g is None else hand_out(held, g) for g in grads]
    return grads


def _after_apply(node: GradNode, outs: Sequence[Any], grads: list[Any], held: Held) -> Sequence[Any]:
    """What a node returned, once a custom Function's results are entered in `held` (user
    code may keep them) and the node's post-hooks have run."""
    if node.foreign_grads:
        for g in outs:
            if g is not None:
                hold(held, g)
    hooks = node._hooks
    if hooks is not None and hooks.post:
        outs = _post_hooks(node, outs, grads, held)
    return outs


def _apply_batched(
    node: GradNode, grads: list[Any], create_graph: bool, retain_graph: bool, check: bool, batch: int
) -> Sequence[Any]:
    """`_apply` for a batched pass: the node's batching rule or its row loop
    (runtime/batching.py); each gradient has the batch dimension in front of its input's shape."""
    if node._released:
        raise _freed_error(node)
    outs = apply_batched(node, grads, create_graph, batch)
    edges = node._next
    if len(outs) != len(edges):
        raise _count_error(node, outs, "batched apply")
    if not retain_graph:
        node.release_saved()
    for i, g in enumerate(outs):
        child = edges[i]
        if g is not None and child is not None:
            meta = child.output_meta_at(node._at[i])
            assert meta is not None  # edges lead to recorded outputs
            want = ((batch, *meta[0]), meta[1], meta[2])
            data = g._data
            if data.__class__ is not want[2] or data.shape != want[0] or data.dtype != want[1]:
                _bad_gradient(node, i, g, want)
            if check:
                _anomaly.check_gradient(node, i, data)
    return outs


def _bad_gradient(node: GradNode, i: int, g: Any, meta: Any) -> None:
    data = g._data if isinstance(g, Tensor) else g
    if isinstance(data, tuple | list):  # a kernel with several results wrapped as one
        raise RuntimeError(
            f"{node.name}: the YAML declares 1 output, the kernel returned {len(data)} (the gradient "
            f"for input {i} of {type(node).__name__} holds a {type(data).__name__} of {len(data)}); make "
            "the kernel return one array, or declare every output in backward.yaml's `output:`"
        )
    if not isinstance(g, Tensor) or not hasattr(data, "shape") or isinstance(data, np.generic):
        raise TypeError(
            f"{type(node).__name__} ({node.name}) returned a {type(data).__name__} as the gradient for "
            f"input {i}; expected an array wrapped in a Tensor (a 0-d result must stay an array: "
            "wrap NumPy scalars with `nd` from runtime/kernels/common.py)"
        )
    raise RuntimeError(
        f"{type(node).__name__} ({node.name}) returned an invalid gradient for input {i}: got shape "
        f"{g.shape}, dtype {g.dtype}, device {device_of(g._data)}; "
        f"expected {meta_from_tuple(meta).describe()}"
    )


def _zeros(meta: Any) -> Any:
    shape, dtype, cls = meta
    return (module_of_type(cls) or np).zeros(shape, dtype=dtype)


def _pre_hooks(node: GradNode, grads: list[Any], held: Held) -> list[Any]:
    """Before `node` runs: the tensor hooks of its outputs, the retained `.grad`s, then its
    pre-hooks. Everything a hook sees or returns is entered in `held` (the user may keep it)."""
    hooks = node._hooks
    assert hooks is not None
    for pos, table in hooks.tensor.items():
        if pos < len(grads) and grads[pos] is not None:
            for fn in list(table.values()):
                grads[pos] = hand_out(held, grads[pos])
                result = fn(grads[pos])
                if result is not None:
                    what = f"tensor hook {hook_name(fn)} on output {pos} of {node.name}"
                    grads[pos] = check_hook_result(result, grads[pos], what)
                    hold(held, result)
    for pos, ref in hooks.retain.items():
        t = ref()
        if t is not None and pos < len(grads) and grads[pos] is not None:
            g = grads[pos]
            t._grad = take_as_grad(held, g) if t._grad is None else wrap(array_sum(t._grad._data, g._data))
    for fn in list(hooks.pre.values()):
        grads = [None if g is None else hand_out(held, g) for g in grads]
        result = fn(grads)
        if result is not None:
            grads = _check_replacements(node, fn, result, grads, "pre-hook", held)
    return grads


def _post_hooks(node: GradNode, outs: Sequence[Any], grads: list[Any], held: Held) -> Sequence[Any]:
    """After `node` ran: its post-hooks, which may replace the gradients for its inputs."""
    hooks = node._hooks
    assert hooks is not None
    for fn in list(hooks.post.values()):
        outs = tuple([None if g is None else hand_out(held, g) for g in outs])
        for g in grads:
            hold(held, g)
        replaced = fn(outs, grads)
        if replaced is not None:
            outs = tuple(_check_replacements(node, fn, replaced, outs, "post-hook", held))
    return outs


def _check_replacements(
    node: GradNode, fn: Any, result: Any, old: Sequence[Any], kind: str, held: Held
) -> list[Any]:
    """A node hook's replacement gradients, checked entry by entry against what they
    replace (or, where that is None, the slot's metadata) before any is used."""
    what = f"{kind} {hook_name(fn)} of {node.name}"
    if not isinstance(result, (list, tuple)) or len(result) != len(old):
        got = f"{len(result)} entries" if isinstance(result, (list, tuple)) else f"a {type(result).__name__}"
        raise TypeError(
            f"{what} must return None or a list of {len(old)} gradients (one per "
            f"{'output' if kind == 'pre-hook' else 'input'} of the node), got {got}"
        )
    new = list(result)
    children, at = node.edges()
    for i, g in enumerate(new):
        if g is None:
            continue
        if kind == "pre-hook":
            meta = old[i]._data if old[i] is not None else node.output_meta_at(i)
        else:
            child = children[i]
            meta = None if child is None else child.output_meta_at(at[i])
        if meta is None:
            continue
        if not isinstance(meta, tuple):
            meta = (meta.shape, meta.dtype, meta.__class__)
        check_replacement(g, meta, f"{what} (gradient {i})")
        hold(held, g)
    return new


def _capture(
    node: GradNode,
    grads: list[Any],
    target_map: dict[tuple[int, int], list[int]],
    captured: dict[int, Tensor],
    held: Held,
) -> None:
    """grad(): record the gradients of the inputs at `node`; they are returned to the user,
    so their memory is entered in `held`."""
    if isinstance(node, AccumulateGrad):
        g = grads[0]
        if g is not None:
            g = run_leaf_hooks(node.variable, g, held)
            for i in target_map.get((id(node), 0), ()):
                captured[i] = hand_out(held, g)
        return
    for pos, g in enumerate(grads):
        if g is not None:
            for i in target_map.get((id(node), pos), ()):
                captured[i] = hand_out(held, g)


_accel.engine_loop(globals())  # run_backward and run_grad in C when built (runtime/_accel.py)
