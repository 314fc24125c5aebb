"""The backward engine: `backward()` and `grad()`.

One call owns all its state (dependency counts, gradient holders, the ready queue), so
threads can run backward concurrently. Dependencies are counted by an iterative walk from
the roots; a node runs once every edge into it has delivered (or been found empty), the
most recently created node first, so memory is freed early and nothing recurses: a chain of
millions of nodes is fine. Without `retain_graph` each node's saved tensors are released as
soon as it has run. `grad()` runs only nodes on a path from the outputs to the inputs and
captures the inputs' gradients instead of accumulating them.
"""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.runtime import anomaly as _anomaly
from opgrad.runtime.batching import apply_batched, batch_size, grad_row_by_row, needs_row_loop
from opgrad.runtime.device import array_module, device_of, module_of_type
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
from opgrad.runtime.grad_mode import _set_enabled
from opgrad.runtime.grad_node import GradNode, check_hook_result, check_replacement, edge_to, meta_from_tuple
from opgrad.runtime.hooks import hook_name
from opgrad.runtime.tensor import Tensor, as_tensor_arg, wrap


class _Callbacks(threading.local):
    """Per thread, for every backward pass running (innermost last): its queued callbacks,
    and whether it accumulates into leaves' `.grad` (backward()) or returns gradients (grad())."""

    stack: list[list[Callable[[], Any]]]
    accumulating: list[bool]

    def __init__(self) -> None:
        self.stack = []
        self.accumulating = []


_CALLBACKS = _Callbacks()


def running_accumulates() -> bool | None:
    """Whether the innermost backward pass running in this thread accumulates into `.grad`
    (backward(), or grad(only_inputs=False)): True; grad() returning gradients: False; no
    pass running: None."""
    acc = _CALLBACKS.accumulating
    return acc[-1] if acc else None


def queue_callback(fn: Callable[[], Any]) -> None:
    """Run `fn()` once when the backward pass now running (in this thread) ends."""
    if not _CALLBACKS.stack:
        raise RuntimeError("queue_callback: no backward pass is running in this thread; call it from a hook")
    _CALLBACKS.stack[-1].append(fn)


def _as_list(value: Any, what: str) -> list[Any]:
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise TypeError(f"{what} must be a Tensor or a list of Tensors, got {type(value).__name__}")


def _check_distinct(tensors: list[Any], what: str) -> None:
    seen: dict[int, int] = {}
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"{what}[{i}] must be a Tensor, got {type(t).__name__}")
        j = seen.setdefault(id(t), i)
        if j != i:
            raise ValueError(f"{what}[{j}] and {what}[{i}] are the same tensor; list each tensor once")


def _seeds(
    outputs: list[Tensor],
    grads: list[Any] | None,
    what: str,
    create_graph: bool,
    held: Held,
    batched: bool = False,
) -> list[Tensor]:
    """One seed per output (ones where none is given); the memory of every seed the user
    gave is entered in `held`, so no leaf's `.grad` will share it. `batched`: each seed has
    one more leading dimension than its output (grad's `is_grads_batched`)."""
    if grads is None:
        grads = [None] * len(outputs)
    if len(grads) != len(outputs):
        raise ValueError(
            f"{what} has {len(grads)} entries but there are {len(outputs)} outputs; give one per output"
        )
    seeds = []
    for i, (out, g) in enumerate(zip(outputs, grads, strict=True)):
        if not out._requires_grad:
            raise RuntimeError(
                f"output {i} does not require grad and has no grad_fn: nothing to differentiate. "
                "Make sure some input has requires_grad=True and grad mode is on (not inside no_grad())"
            )
        if g is None and batched:
            raise ValueError(
                f"grad: with is_grads_batched=True every grad_outputs entry must be a Tensor with a leading "
                f"batch dimension; {what}[{i}] is None"
            )
        if g is None:
            data = out._data
            if data.dtype.kind == "c":
                raise RuntimeError(
                    f"output {i} is complex ({data.dtype}): a gradient seed of ones is defined only for real "
                    f"outputs; reduce it to a real loss first (og.real, og.abs) or pass {what}"
                )
            seeds.append(wrap(_ones_like(data)))
            continue
        if not isinstance(g, Tensor):
            g = as_tensor_arg(g, out, "backward", f"{what}[{i}]")
        if batched:
            if g.ndim != out.ndim + 1 or g.shape[1:] != out.shape:
                raise ValueError(
                    f"{what}[{i}] has shape {g.shape} but output {i} has shape {out.shape}; with "
                    f"is_grads_batched=True it must be (batch, *{out.shape})"
                )
        elif g.shape != out.shape:
            raise ValueError(f"{what}[{i}] has shape {g.shape} but output {i} has shape {out.shape}")
        if g._data.dtype != out._data.dtype:
            if g._data.dtype.kind == "c" and out._data.dtype.kind != "c":
                raise TypeError(
                    f"{what}[{i}] is complex ({g._data.dtype}) but output {i} is real ({out._data.dtype}); "
                    "a real output's gradient is real"
                )
            g = wrap(g._data.astype(out._data.dtype))
        hold(held, g)
        seeds.append(g if create_graph else (g.detach() if g._node is not None else g))
    return seeds


def _ones_like(data: Any) -> Any:
    return array_module(data).ones(data.shape, dtype=data.dtype)


def backward(
    tensors: Tensor | Sequence[Tensor],
    grad_tensors: Tensor | Sequence[Any] | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
) -> None:
    """Accumulate the gradients of `tensors` into the `.grad` of every leaf they depend on."""
    outputs = _as_list(tensors, "backward: tensors")
    _check_distinct(outputs, "tensors")
    grads = None if grad_tensors is None else _as_list(grad_tensors, "backward: grad_tensors")
    held: Held = {}
    seeds = _seeds(outputs, grads, "grad_tensors", create_graph, held)
    if retain_graph is None:
        retain_graph = create_graph
    roots = [edge_to(t) for t in outputs]
    _run(roots, seeds, held, retain_graph, create_graph, targets=None, blocked=None, accumulate=True)


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Tensor | Sequence[Any] | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool = False,
    no_grad_vars: Tensor | Sequence[Tensor] | None = None,
    is_grads_batched: bool = False,
) -> list[Tensor | None]:
    """d(outputs)/d(inputs), one entry per input; `.grad` is left untouched.

    `grad_outputs` entries of None mean ones. Inputs the outputs do not depend on give
    None under `allow_unused`, an error otherwise. `no_grad_vars` are treated as constants.
    With `only_inputs=False` the other leaves also accumulate into their `.grad`.
    `is_grads_batched`: every grad_outputs entry has a leading batch dimension B and each
    result has one too; row b is what grad_outputs[...][b] would give, computed in one pass
    (nodes without a batching rule, runtime/batching.py, run once per row).
    """
    outs = _as_list(outputs, "grad: outputs")
    ins = _as_list(inputs, "grad: inputs")
    _check_distinct(outs, "outputs")
    _check_distinct(ins, "inputs")
    for i, t in enumerate(ins):
        if not t._requires_grad:
            raise RuntimeError(
                f"grad: inputs[{i}] does not require grad, so it cannot have a gradient; "
                "set requires_grad=True on it (or remove it from inputs)"
            )
    gos = None if grad_outputs is None else _as_list(grad_outputs, "grad: grad_outputs")
    batch = 0
    if is_grads_batched:
        batch = batch_size(gos, only_inputs)
    held: Held = {}
    seeds = _seeds(outs, gos, "grad_outputs", create_graph, held, batched=is_grads_batched)
    if retain_graph is None:
        retain_graph = create_graph
    blocked: set[tuple[int, int]] | None = None
    if no_grad_vars is not None:
        blocked = set()
        for t in _as_list(no_grad_vars, "grad: no_grad_vars"):
            if isinstance(t, Tensor) and t._requires_grad:
                node, pos = edge_to(t)
                blocked.add((id(node), pos))
    targets: dict[tuple[int, int], list[int]] = {}
    target_nodes: dict[int, GradNode] = {}
    for i, t in enumerate(ins):
        node, pos = edge_to(t)
        targets.setdefault((id(node), pos), []).append(i)
        target_nodes[id(node)] = node
    roots = [edge_to(t) for t in outs]
    if batch and needs_row_loop(roots, ins):
        return grad_row_by_row(outs, ins, seeds, retain_graph, create_graph, allow_unused, no_grad_vars)
    captured = _run(
        roots,
        seeds,
        held,
        retain_graph,
        create_graph,
        targets=(targets, target_nodes),
        blocked=blocked,
        accumulate=not only_inputs,
        batch=batch,
    )
    result: list[Tensor | None] = []
    for i, t in enumerate(ins):
        g = captured.get(i)
        if g is None and not allow_unused:
            raise RuntimeError(
                f"grad: inputs[{i}] (shape {t.shape}) was not used to compute the outputs, so it has no "
                "gradient; pass allow_unused=True to get None for it"
            )
        result.append(g)
    return result


def _run(
    roots: list[tuple[GradNode, int]],
    seeds: list[Tensor],
    held: Held,
    retain_graph: bool,
    create_graph: bool,
    targets: tuple[dict[tuple[int, int], list[int]], dict[int, GradNode]] | None,
    blocked: set[tuple[int, int]] | None,
    accumulate: bool,
    batch: int = 0,
) -> dict[int, Tensor]:
    # 1. Count, for every reachable node, the edges into it (iteratively). A node is walked
    # when its first edge is counted (it enters `deps`), a root at the start: no `seen` set.
    deps: dict[GradNode, int] = {}
    root_nodes = {node: None for node, _pos in roots}  # in order, each once
    stack: list[GradNode] = list(root_nodes)
    while stack:
        node = stack.pop()
        for child in node._next if blocked is None else _unblocked(node, blocked):
            if child is not None:
                n = deps.get(child)
                if n is None:
                    deps[child] = 1
                    if child not in root_nodes:
                        stack.append(child)
                else:
                    deps[child] = n + 1

    # 2. For grad(): which nodes lie on a path to an input (the others are skipped).
    needed: set[GradNode] | None = None
    runners: set[GradNode] | None = None
    target_map: dict[tuple[int, int], list[int]] = {}
    capture_nodes: dict[int, GradNode] = {}
    if targets is not None:
        target_map, capture_nodes = targets
        if not accumulate:
            needed, runners = _needed_nodes(roots, deps, blocked, capture_nodes)

    # 3. Execute.
    holder = GradTensorHolder(create_graph, held)
    buffers = holder.buffers
    for (node, pos), seed in zip(roots, seeds, strict=True):
        holder.add(node, pos, seed)
    ready: list[tuple[int, int, GradNode]] = []
    order = 0
    for node in buffers:
        if node not in deps:
            ready.append((-node.seq, order, node))
            order += 1
    heapq.heapify(ready)

    captured: dict[int, Tensor] = {}
    callbacks: list[Callable[[], Any]] = []
    _CALLBACKS.stack.append(callbacks)
    _CALLBACKS.accumulating.append(accumulate)
    prev_mode = _set_enabled(create_graph)
    check = _anomaly.STATE.enabled
    capturing = targets is not None
    heappop, heappush = heapq.heappop, heapq.heappush
    try:
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
                elif batch:
                    if runners is None or node in runners:
                        outs = _apply_batched(node, grads, create_graph, retain_graph, check, batch)
                elif runners is None or node in runners:
                    # What a node's turn costs is this loop's cost per op, so the common case
                    # (one output, no hooks, a generated node) runs inline; the rest is in
                    # `_prepare` and `_after_apply`, and each gradient is checked below as it
                    # is delivered (a bad one aborts the pass before any leaf's `.grad` sees
                    # anything: leaves accumulate only when their own turn comes).
                    if node._released:
                        raise _freed_error(node)
                    if node.n_outputs or node._more is not None or node.foreign_grads:
                        grads = _prepare(node, grads, held)
                    outs = node.apply(grads, create_graph)
                    if len(outs) != len(node._next):  # before the saved tensors go
                        raise _count_error(node, outs)
                    if not retain_graph:
                        node.release_saved()
                    if node.foreign_grads or (node._hooks is not None and node._hooks.post):
                        outs = _after_apply(node, outs, grads, held)
            grads = None  # the node's own incoming gradients: freed before its outputs are summed
            # Deliver gradient i along edge i (or, for a node that produced nothing, just
            # count down its edges), checking it against the metadata of the output it goes
            # to; a child whose dependencies are all met becomes ready.
            # This loop and the dependency count above read the node's slots directly
            # (`_next`, `_at`, `_more`, output 0's `_shape`/`_dtype`/`_atype`, see
            # GradNode) rather than through accessor methods (`edges()`, an
            # output-metadata check, a one-output test): those calls measured 0.5-0.8 us
            # more per node in backward (~10%). Everything else uses `edges()` and
            # `output_meta_at()`.
            i = 0
            n_outs = len(outs)
            at = node._at
            for child in node._next:
                if child is not None:
                    pos = at[i]
                    g = outs[i] if i < n_outs else None
                    if g is not None and not batch:  # a batched pass checked them in _apply_batched
                        data = g._data
                        if pos == 0:
                            if (
                                data.__class__ is not child._atype
                                or data.shape != child._shape
                                or (data.dtype is not child._dtype and data.dtype != child._dtype)
                            ):
                                _bad_gradient(node, i, g, child.output_meta_at(0))
                        else:
                            # not None: edges lead to recorded outputs
                            meta: Any = child.output_meta_at(pos)
                            shape, dtype, cls = meta
                            if data.__class__ is not cls or data.shape != shape or data.dtype != dtype:
                                _bad_gradient(node, i, g, meta)
                        if check:
                            _anomaly.check_gradient(node, i, data)
                    if blocked is None or (id(child), pos) not in blocked:
                        if g is not None and (needed is None or child in needed):
                            buf = buffers.get(child)
                            if buf is None and pos == 0 and child._more is None:
                                buffers[child] = [g]
                            else:
                                holder.add(child, pos, g)
                        left = deps[child] - 1
                        deps[child] = left
                        if left == 0:
                            heappush(ready, (-child.seq, order, child))
                            order += 1
                i += 1
            # The last gradient delivered may have been summed into a new buffer: drop the
            # loop's references so that it is freed now, not after the next node's apply.
            g = data = None
            outs = ()
    finally:
        _set_enabled(prev_mode)
        _CALLBACKS.stack.pop()
        _CALLBACKS.accumulating.pop()
    for fn in callbacks:
        fn()
    return captured


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


def _count_error(node: GradNode, outs: Sequence[Any]) -> RuntimeError:
    edges = node._next
    return RuntimeError(
        f"{node.name}: the node has {len(edges)} inputs (one gradient each), its apply returned "
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
    _check_not_released(node)
    outs = apply_batched(node, grads, create_graph, batch)
    edges = node._next
    if len(outs) != len(edges):
        raise RuntimeError(
            f"{node.name}: the node has {len(edges)} inputs (one gradient each), its batched apply returned "
            f"{len(outs)} gradients ({type(node).__name__})"
        )
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


def _check_not_released(node: GradNode) -> None:
    if node._released:
        raise _freed_error(node)


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


def _unblocked(node: GradNode, blocked: set[tuple[int, int]] | None) -> list[GradNode]:
    """The nodes `node`'s gradients go to, less those of edges in `blocked` (no_grad_vars)."""
    if blocked is None:
        return [c for c in node.edges()[0] if c is not None]
    edges = zip(*node.edges(), strict=True)
    return [c for c, p in edges if c is not None and (id(c), p) not in blocked]


def _needed_nodes(
    roots: list[tuple[GradNode, int]],
    deps: dict[GradNode, int],
    blocked: set[tuple[int, int]] | None,
    capture_nodes: dict[int, GradNode],
) -> tuple[set[GradNode], set[GradNode]]:
    """For grad(): the nodes on a path to some input's node (those nodes included), and the
    ones among them that must run (they have a child on such a path). No recursion."""
    # Topological order (parents first) by Kahn's algorithm on a copy of the counts.
    remaining = dict(deps)
    order: list[GradNode] = []
    frontier = list({id(n): n for n, _ in roots if n not in remaining}.values())
    while frontier:
        node = frontier.pop()
        order.append(node)
        for child in _unblocked(node, blocked):
            left = remaining[child] - 1
            remaining[child] = left
            if left == 0:
                frontier.append(child)
    needed: set[GradNode] = set()
    runners: set[GradNode] = set()
    for node in reversed(order):
        if any(child in needed for child in _unblocked(node, blocked)):
            runners.add(node)
            needed.add(node)
        if id(node) in capture_nodes:
            needed.add(node)
    return needed, runners
