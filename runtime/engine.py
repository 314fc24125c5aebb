"""The backward engine: `backward()` and `grad()`.

One call owns all its state (dependency counts, gradient holders, the ready queue), so
threads can run backward concurrently. Dependencies are counted by an iterative walk from
the roots; a node runs once every edge into it has delivered (or been found empty), the
most recently created node first, so memory is freed early and nothing recurses: a chain of
millions of nodes is fine. Without `retain_graph` each node's saved tensors are released as
soon as it has run. `grad()` runs only nodes on a path from the outputs to the inputs and
captures the inputs' gradients instead of accumulating them. This module sets a pass up;
the loop that runs it is in engine_loop.py.
"""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.runtime import _accel
from opgrad.runtime import anomaly as _anomaly
from opgrad.runtime.batching import batch_size, grad_row_by_row, needs_row_loop
from opgrad.runtime.device import array_module
from opgrad.runtime.engine_loop import run_backward, run_general, run_grad
from opgrad.runtime.grad_holder import AccumulateGrad, GradTensorHolder, Held, hold
from opgrad.runtime.grad_mode import _set_enabled
from opgrad.runtime.grad_node import GradNode, accumulator_of, edge_to
from opgrad.runtime.kernels.common import ONES
from opgrad.runtime.tensor import Tensor, as_tensor_arg, wrap


class _Callbacks(threading.local):
    """Per thread, for every backward pass running (innermost last): its queued callbacks,
    and whether it accumulates into leaves' `.grad` (backward()) or returns gradients (grad())."""

    passes: list[tuple[list[Callable[[], Any]], bool]]

    def __init__(self) -> None:
        self.passes = []


_CALLBACKS = _Callbacks()


def running_accumulates() -> bool | None:
    """Whether the innermost backward pass running in this thread accumulates into `.grad`
    (backward(), or grad(only_inputs=False)): True; grad() returning gradients: False; no
    pass running: None."""
    passes = _CALLBACKS.passes
    return passes[-1][1] if passes else None


def queue_callback(fn: Callable[[], Any]) -> None:
    """Run `fn()` once when the backward pass now running (in this thread) ends."""
    passes = _CALLBACKS.passes
    if not passes:
        raise RuntimeError("queue_callback: no backward pass is running in this thread; call it from a hook")
    passes[-1][0].append(fn)


def _as_list(value: Any, what: str) -> list[Any]:
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise TypeError(f"{what} must be a Tensor or a list of Tensors, got {type(value).__name__}")


def _check_distinct(tensors: list[Any], what: str) -> None:
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return  # the common case: one tensor, nothing to compare
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
    if grads is None:  # ones for every output (the common case, without the loop below)
        seeds = []
        for i, out in enumerate(outputs):
            if not out._requires_grad:
                raise _no_history_error(i)
            if batched:
                raise _batched_seed_error(what, i)
            seeds.append(wrap(_ones_like(out._data, i, what)))
        return seeds
    if len(grads) != len(outputs):
        raise ValueError(
            f"{what} has {len(grads)} entries but there are {len(outputs)} outputs; give one per output"
        )
    seeds = []
    for i, (out, g) in enumerate(zip(outputs, grads, strict=True)):
        if not out._requires_grad:
            raise _no_history_error(i)
        if g is None and batched:
            raise _batched_seed_error(what, i)
        if g is None:
            seeds.append(wrap(_ones_like(out._data, i, what)))
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


def _no_history_error(i: int) -> RuntimeError:
    return RuntimeError(
        f"output {i} does not require grad and has no grad_fn: nothing to differentiate. "
        "Make sure some input has requires_grad=True and grad mode is on (not inside no_grad())"
    )


def _batched_seed_error(what: str, i: int) -> ValueError:
    return ValueError(
        f"grad: with is_grads_batched=True every grad_outputs entry must be a Tensor with a leading "
        f"batch dimension; {what}[{i}] is None"
    )


def _ones_like(data: Any, i: int, what: str) -> Any:
    """A fresh array of ones like `data`, output i's seed (`what`: the argument that could
    have given it): a copy of the read-only 0-d one of a real float dtype for a NumPy scalar
    loss (~0.3 us less than the general way), else `fill` on an empty array (np.ones is a
    Python function around the same two steps, ~1 us more for a 0-d seed)."""
    if data.__class__ is np.ndarray and not data.ndim:
        one = ONES.get(data.dtype)
        if one is not None:
            return one.copy()
    if data.dtype.kind == "c":
        raise RuntimeError(
            f"output {i} is complex ({data.dtype}): a gradient seed of ones is defined only for real "
            f"outputs; reduce it to a real loss first (og.real, og.abs) or pass {what}"
        )
    ones = array_module(data).empty(data.shape, dtype=data.dtype)
    ones.fill(1)
    return ones


def backward(
    tensors: Tensor | Sequence[Tensor],
    grad_tensors: Tensor | Sequence[Any] | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
) -> None:
    """Accumulate the gradients of `tensors` into the `.grad` of every leaf they depend on."""
    if tensors.__class__ is list and len(tensors) == 1 and tensors[0].__class__ is Tensor:
        out = tensors[0]  # Tensor.backward's call: one tensor, nothing to compare
        node = out._node
        if (
            grad_tensors is None
            and not create_graph
            and node is not None
            and not out._pos
            and node._more is None
            and out._requires_grad
            and not _anomaly.STATE.enabled
        ):
            # A loss's backward(), the common case: what _seeds, _edges_to and _run make of
            # it, spelled out (~0.5 us less than the general way). With the C primitives this
            # path, with _execute's frame, runs in C (`_speedups.backward`, bound at the end of
            # this module): a change here is made there too (tests/test_fast_paths_engfix.py).
            seed = wrap(_ones_like(out._data, 0, "grad_tensors"))
            deps = _count_deps([(node, 0)], None)[0]
            holder = GradTensorHolder(False, {})
            holder.buffers[node] = [seed]
            ready = [(-node.seq, 0, node)]
            retain = False if retain_graph is None else retain_graph
            _execute(run_backward, (ready, 1, deps, holder, retain, False), True, False)
            return
        outputs = [out]
    else:
        outputs = _as_list(tensors, "backward: tensors")
        _check_distinct(outputs, "tensors")
    grads = None if grad_tensors is None else _as_list(grad_tensors, "backward: grad_tensors")
    held: Held = {}
    seeds = _seeds(outputs, grads, "grad_tensors", create_graph, held)
    if retain_graph is None:
        retain_graph = create_graph
    _run(_edges_to(outputs), seeds, held, retain_graph, create_graph, None, None, True)


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
    if outputs.__class__ is Tensor and inputs.__class__ is Tensor:  # (nothing to compare)
        outs, ins = [outputs], [inputs]
    else:
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
    edges = _edges_to(ins)
    if len(edges) == 1:  # (the common case, without the loop)
        node, pos = edges[0]
        targets: dict[tuple[int, int], list[int]] = {(id(node), pos): [0]}
        target_nodes: dict[int, GradNode] = {id(node): node}
    else:
        targets, target_nodes = {}, {}
        for i, (node, pos) in enumerate(edges):
            key = (id(node), pos)
            if key in targets:  # several non-leaf inputs of one node
                targets[key].append(i)
            else:
                targets[key] = [i]
            target_nodes[id(node)] = node
    roots = _edges_to(outs)
    if batch and needs_row_loop(roots, ins):
        return grad_row_by_row(outs, ins, seeds, retain_graph, create_graph, allow_unused, no_grad_vars)
    targeted = (targets, target_nodes)
    captured = _run(roots, seeds, held, retain_graph, create_graph, targeted, blocked, not only_inputs, batch)
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


def _edges_to(tensors: list[Tensor]) -> list[tuple[GradNode, int]]:
    """`edge_to` of each tensor (each requires grad), spelled out: a leaf's accumulator,
    else its node and output position."""
    edges = []
    for t in tensors:
        node = t._node
        edges.append((accumulator_of(t), 0) if node is None else (node, t._pos))
    return edges


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
    # 1. Count, for every reachable node, the edges into it (`_count_deps`, in C when built).
    deps, ends = _count_deps(roots, blocked)

    # 2. For grad(): which nodes lie on a path to an input (the others are skipped). When
    # every node reached does (`_all_on_paths`, from the walk's `ends`), nothing is skipped
    # and, nothing else differing from backward(), run_backward's loop serves the pass,
    # capturing at the leaves.
    needed: set[GradNode] | None = None
    runners: set[GradNode] | None = None
    capture: dict[tuple[int, int], list[int]] | None = None
    plain = blocked is None and not batch and not _anomaly.STATE.enabled
    if targets is not None:
        if not accumulate and plain and _all_on_paths(ends, targets[1]):
            capture = targets[0]
        else:  # (grad(only_inputs=False) captures and accumulates: run_general)
            plain = False
            if not accumulate:
                needed, runners = _needed_nodes(roots, deps, blocked, targets[1])

    # 3. Execute: `run_backward` for backward() (the common case, its loop specialised) and,
    # as `run_grad`, for a grad() pass with nothing to skip; `run_general` for the rest
    # (runtime/engine_loop.py).
    holder = GradTensorHolder(create_graph, held)
    ready: list[tuple[int, int, GradNode]]
    if len(roots) == 1 and roots[0][1] == 0 and roots[0][0]._more is None:
        # one root (not in deps: the graph has no cycles), its output 0: what holder.add
        # and the loop below make of it
        node = roots[0][0]
        holder.buffers[node] = [seeds[0]]
        ready, order = [(-node.seq, 0, node)], 1
    else:
        for (node, pos), seed in zip(roots, seeds, strict=True):
            holder.add(node, pos, seed)
        ready, order = [], 0
        for node in holder.buffers:
            if node not in deps:
                ready.append((-node.seq, order, node))
                order += 1
        heapq.heapify(ready)

    args: tuple[Any, ...] = (ready, order, deps, holder, retain_graph, create_graph)
    if plain and capture is not None:
        return _execute(run_grad, (*args, capture), accumulate, create_graph)
    if plain:
        return _execute(run_backward, args, accumulate, create_graph)  # ({})
    args += (accumulate, targets, blocked, needed, runners, batch)
    return _execute(run_general, args, accumulate, create_graph)


def _execute(
    loop: Callable[..., dict[int, Tensor]], args: tuple[Any, ...], accumulate: bool, create_graph: bool
) -> dict[int, Tensor]:
    """`loop(*args)` as a pass of this thread (its callbacks queued, then run after it),
    with grad mode set to `create_graph` while it runs."""
    callbacks: list[Callable[[], Any]] = []
    passes = _CALLBACKS.passes
    passes.append((callbacks, accumulate))
    prev_mode = _set_enabled(create_graph)
    try:
        captured = loop(*args)
    finally:
        _set_enabled(prev_mode)
        passes.pop()
    for fn in callbacks:
        fn()
    return captured


def _count_deps(
    roots: list[tuple[GradNode, int]], blocked: set[tuple[int, int]] | None
) -> tuple[dict[GradNode, int], list[GradNode]]:
    """Step 1 of `_run`: for every node reachable from the roots, the number of edges into
    it (`deps`), and the nodes walked that have no edge (`ends`).

    The walk is iterative. A node is walked when its first edge is counted (it enters
    `deps`), a root at the start: no `seen` set. The first new child of a node is walked
    next without going through the stack (a chain never touches it); the counts do not
    depend on the order of the walk. One root cannot be reached from itself (the graph has
    no cycles): only several roots need the test that keeps a root from being walked twice.
    The nodes walked that have no edge (leaves' accumulators, mostly) are kept in `ends`
    for grad()'s `_all_on_paths`. The C version (runtime/_speedups.c, bound at the end of
    this module) walks the same way when nothing is blocked."""
    deps: dict[GradNode, int] = {}
    ends: list[GradNode] = []
    get = deps.get
    node: GradNode | None
    root_nodes: dict[GradNode, None]  # (made and read only with several roots)
    if len(roots) == 1:  # the common case, without a comprehension's frame or the stack
        node = roots[0][0]
        several = False
        stack: list[GradNode] = []
    else:
        root_nodes = dict.fromkeys([node for node, _pos in roots])  # in order, each once
        several = len(root_nodes) > 1
        stack = list(root_nodes)
        node = stack.pop()
    while True:
        while node is not None:
            nxt = None
            if blocked is None and node._next1 is None and not node._nexts:
                # At most one edge, in `_next0` (see Edge in grad_node): a chain's link, counted
                # without making a tuple of the node's two edge slots to loop over.
                child = node._next0
                if child is not None:
                    n = get(child)
                    if n is None:
                        deps[child] = 1
                        if not several or child not in root_nodes:
                            nxt = child
                    else:
                        deps[child] = n + 1
                else:
                    ends.append(node)
            else:
                kids = node._nexts or (node._next0, node._next1)
                for child in kids if blocked is None else _unblocked(node, blocked):
                    if child is not None:
                        n = get(child)
                        if n is None:
                            deps[child] = 1
                            if not several or child not in root_nodes:
                                if nxt is None:
                                    nxt = child
                                else:
                                    stack.append(child)
                        else:
                            deps[child] = n + 1
                # (rare: a node of three or more positions none of which needs a gradient)
                if nxt is None and node._next0 is None and node._next1 is None:
                    if node._nexts.count(None) == len(node._nexts):
                        ends.append(node)
            node = nxt
        if not stack:
            break
        node = stack.pop()
    return deps, ends


def _unblocked(node: GradNode, blocked: set[tuple[int, int]]) -> list[GradNode]:
    """The nodes `node`'s gradients go to, less those of edges in `blocked` (no_grad_vars)."""
    edges = zip(*node.edges(), strict=True)
    return [c for c, p in edges if c is not None and (id(c), p) not in blocked]


def _all_on_paths(ends: list[GradNode], capture_nodes: dict[int, GradNode]) -> bool:
    """For grad(): whether every node reached lies on a path to an input, and every input
    is a leaf, so that the pass needs no skipping (`_needed_nodes` would keep every node)
    and captures only at leaves' accumulators. So it is when every node reached without an
    edge (`ends`, from the dependency count's walk; every leaf's accumulator is one) is an
    input's accumulator: each path then ends at an input."""
    for node in capture_nodes.values():
        if node.__class__ is not AccumulateGrad:
            return False
    for node in ends:
        if node.__class__ is not AccumulateGrad or id(node) not in capture_nodes:
            return False
    return True


def _needed_nodes(
    roots: list[tuple[GradNode, int]],
    deps: dict[GradNode, int],
    blocked: set[tuple[int, int]] | None,
    capture_nodes: dict[int, GradNode],
) -> tuple[set[GradNode], set[GradNode]]:
    """For grad(): the nodes on a path to some input's node (those nodes included), and the
    ones among them that must run (they have a child on such a path). No recursion. Like
    the dependency count, it reads the edge slots directly (None where an input needs no
    gradient, see Edge in grad_node)."""
    # Topological order (parents first) by Kahn's algorithm on a copy of the counts.
    remaining = dict(deps)
    order: list[GradNode] = []
    frontier = [n for n in dict.fromkeys(n for n, _ in roots) if n not in remaining]
    while frontier:
        node = frontier.pop()
        order.append(node)
        kids = node._nexts or (node._next0, node._next1)
        for child in kids if blocked is None else _unblocked(node, blocked):
            if child is not None:
                left = remaining[child] - 1
                remaining[child] = left
                if left == 0:
                    frontier.append(child)
    needed: set[GradNode] = set()
    runners: set[GradNode] = set()
    for node in reversed(order):
        kids = node._nexts or (node._next0, node._next1)
        for child in kids if blocked is None else _unblocked(node, blocked):
            if child in needed:
                runners.add(node)
                needed.add(node)
                break
        if id(node) in capture_nodes:
            needed.add(node)
    return needed, runners


_accel.engine_count(globals())  # _count_deps in C when built (runtime/_accel.py)
_accel.engine_backward(
    globals()
)  # backward's lean path and Tensor.backward in C when built (runtime/_accel.py)
