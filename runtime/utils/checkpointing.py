"""Gradient checkpointing: trade compute for memory.

`checkpoint(fn, *args)` runs `fn` once recording its graph only to find the leaves it closes
over (module parameters), then drops that graph, so none of its intermediate activations
stay alive; the result gets one node, with edges to the arguments and to those leaves, whose
backward runs `fn` again (the random generators put back to where they were, so dropout draws
the same mask) and differentiates that recomputation. Under `create_graph=True` the recomputation is
recorded against the original inputs, so higher-order gradients work, and checkpoints nest.
`checkpoint_sequential(modules, segments, input)` checkpoints all but the last of
`segments` consecutive runs of modules (the last one's activations are needed at once).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from opgrad.generated import ops
from opgrad.runtime.engine import grad as _grad
from opgrad.runtime.engine import running_accumulates
from opgrad.runtime.function import Function
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_mode import enable_grad, grad_enabled, no_grad
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.random import get_rng_state, set_rng_state
from opgrad.runtime.tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]


# Passed to every checkpoint node as an extra input that requires grad, so the node is
# recorded even when nothing it reaches requires grad. It never receives a gradient.
_ANCHOR = Tensor(0.0, requires_grad=True)
_FIRST = 7  # _Checkpoint.forward's arguments before fn's: fn, rng, values, single, fallback, n_leaves, anchor


class _Checkpoint(Function):
    """The node of one checkpoint: its edges are fn's tensor arguments and the leaves fn
    closes over (module parameters), so their gradients flow through it like any op's."""

    @staticmethod
    def forward(
        ctx: Any,  # FunctionCtx, which takes any attribute
        fn: Callable[..., Any],
        rng: Any,
        values: tuple[Any, ...],
        single: bool,
        fallback: bool,
        n_leaves: int,
        anchor: Tensor,
        *args: Any,
    ) -> Any:
        ctx.fn = fn
        ctx.rng = rng
        ctx.single = single
        ctx.fallback = fallback
        ctx.reentrant = n_leaves < 0
        n_leaves = max(n_leaves, 0)
        ctx.n_leaves = n_leaves
        ctx.args = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[a if isinstance(a, Tensor) else None for a in args])
        return values[0] if single else values  # fn's outputs, computed (and detached) by checkpoint

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:  # ctx: the FunctionCtx forward filled
        create_graph = grad_enabled()  # a node's backward runs with grad mode == create_graph
        saved = ctx.saved_tensors
        n_call = len(ctx.args) - ctx.n_leaves
        args = list(ctx.args)
        inputs: list[tuple[int, Tensor]] = []
        with enable_grad():
            for i, t in enumerate(saved):
                if t is None:
                    continue
                if i >= n_call:  # a leaf fn closes over: fn reads it itself
                    if ctx.needs_input_grad[i + _FIRST]:
                        inputs.append((i, t))
                    continue
                if create_graph and t.requires_grad:
                    alias = ops.reshape(t, t.shape)  # recorded: gradients stay functions of t
                elif t.dtype.kind in "fc" and ctx.needs_input_grad[i + _FIRST]:
                    alias = t.detach().requires_grad_()
                else:
                    alias = t.detach()
                args[i] = alias
                if ctx.needs_input_grad[i + _FIRST]:
                    inputs.append((i, alias))
            now = get_rng_state() if ctx.rng is not None else None
            if ctx.rng is not None:
                set_rng_state(ctx.rng)
            start = GradNode(()).seq  # every node the recomputation records comes after this
            try:
                result = ctx.fn(*args[:n_call])
            finally:
                if now is not None:
                    set_rng_state(now)
            outs = (result,) if ctx.single else tuple(result)
            if ctx.fallback and running_accumulates() is False:
                _refuse_grad(ctx.reentrant, *_closed_over(outs, args[:n_call], start))
            pairs = [
                (o, g) for o, g in zip(outs, grads, strict=True) if isinstance(o, Tensor) and o.requires_grad
            ]
            found: list[Any] = [None] * len(inputs)
            if pairs:
                # With `fallback` (fn closes over a tensor that is not a leaf), every leaf the
                # recomputation reaches accumulates into .grad (re-entrant checkpointing);
                # otherwise the gradients of the arguments and of the closed-over leaves are
                # captured and returned through this node.
                found = _grad(
                    [o for o, _ in pairs],
                    [a for _, a in inputs] or [_ANCHOR],
                    [g for _, g in pairs],
                    create_graph=create_graph,
                    allow_unused=True,
                    only_inputs=not ctx.fallback,
                    no_grad_vars=[t for t in saved[:n_call] if t is not None and t.requires_grad] or None,
                )[: len(inputs)]
        result_grads: list[Any] = [None] * len(args)
        for (i, _), g in zip(inputs, found, strict=True):
            result_grads[i] = g
        return (*[None] * _FIRST, *result_grads)


def _refuse_grad(reentrant: bool, leaves: list[Tensor], foreign: bool) -> None:
    """In a grad() pass (nothing may land in .grad), a re-entrant recomputation that reaches
    leaves other than fn's arguments can only accumulate their gradients into .grad: refuse,
    as PyTorch does, before anything is accumulated."""
    if not (leaves or foreign):
        return  # fn is a function of its arguments alone: grad() gets every gradient
    what = (
        f"{len(leaves)} tensor(s) that require grad (parameters) besides its arguments"
        if leaves
        else "a tensor computed before the checkpoint (not a leaf)"
    )
    fix = (
        "pass use_reentrant=False to checkpoint (the parameters then become inputs og.grad() reaches), "
        "or call .backward()"
        if reentrant
        else "make that tensor an argument of fn, or call .backward()"
    )
    raise RuntimeError(
        f"checkpoint: og.grad() cannot differentiate through this checkpoint: its function uses {what}, "
        f"whose gradients the recomputation could only accumulate into .grad; {fix}"
    )


def _closed_over(outs: Sequence[Any], probes: Sequence[Any], start: int) -> tuple[list[Tensor], bool]:
    """The leaves that require grad which fn's graph reached besides its arguments, and
    whether it also reached a graph made before it (a closed-over non-leaf tensor); an
    argument's own node (a recorded alias under create_graph) is not such a graph."""
    own = {id(p) for p in probes}
    own_nodes = {id(p._node) for p in probes if isinstance(p, Tensor) and p._node is not None}
    leaves: dict[int, Tensor] = {}
    foreign = False
    stack = [o._node for o in outs if isinstance(o, Tensor) and o._node is not None]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for nxt in node._next:
            if nxt is None:
                continue
            if isinstance(nxt, AccumulateGrad):
                if id(nxt.variable) not in own:
                    leaves.setdefault(id(nxt.variable), nxt.variable)
            elif id(nxt) in own_nodes:
                continue
            elif nxt.seq < start:
                foreign = True
            else:
                stack.append(nxt)
    return list(leaves.values()), foreign


_UNSET_WARNING = (
    "{op}: use_reentrant was not given; it defaults to True (re-entrant, as in PyTorch), where "
    "og.grad() cannot reach the parameters the checkpointed function uses. Pass use_reentrant=True "
    "or use_reentrant=False (recommended) explicitly to silence this warning."
)


def _reentrant(op: str, use_reentrant: Any) -> bool:
    """use_reentrant checked; None (not given) warns, as PyTorch does, and means True."""
    if use_reentrant is None:
        warnings.warn(_UNSET_WARNING.format(op=op), UserWarning, stacklevel=3)
        return True
    if not isinstance(use_reentrant, bool):
        raise TypeError(f"{op}: use_reentrant must be a bool, got {type(use_reentrant).__name__}")
    return use_reentrant


def checkpoint(
    fn: Callable[..., Any], *args: Any, preserve_rng_state: bool = True, use_reentrant: bool | None = None
) -> Any:
    """fn(*args), keeping no intermediate activation for backward: they are recomputed.

    `use_reentrant=True` (the default, as in PyTorch, which warns when it is not given, as
    this does): fn runs once without recording; in backward, the leaves fn closes over
    (parameters) accumulate into `.grad` inside the recomputation, one at a time. `og.grad()`
    through such a checkpoint works when fn uses only its arguments, and raises a
    RuntimeError otherwise (before anything is accumulated).
    `use_reentrant=False`: fn's first run records its graph to find those leaves, which
    become inputs of the checkpoint's node, so `og.grad()` reaches them and `.grad` is left
    alone; a segment's parameter gradients then leave the node together (more memory when
    parameters outweigh activations)."""
    if not callable(fn):
        raise TypeError(f"checkpoint: fn must be callable, got {type(fn).__name__}")
    if not isinstance(preserve_rng_state, bool):
        raise TypeError(
            f"checkpoint: preserve_rng_state must be a bool, got {type(preserve_rng_state).__name__}"
        )
    use_reentrant = _reentrant("checkpoint", use_reentrant)
    if not grad_enabled():
        return fn(*args)
    rng = get_rng_state() if preserve_rng_state else None
    if use_reentrant:
        with no_grad():
            result = fn(*args)
        values = result if isinstance(result, tuple) else (result,)
        single = not isinstance(result, tuple)
        return _Checkpoint.apply(fn, rng, values, single, True, -1, _ANCHOR, *args)  # -1: re-entrant
    start = GradNode(()).seq  # every node fn records comes after this one
    probes = [
        a.detach().requires_grad_() if isinstance(a, Tensor) and a.dtype.kind in "fc" else a for a in args
    ]
    # fn runs once with its graph recorded, to find the leaves it closes over; the graph (and
    # with it every activation) is dropped as soon as the outputs are detached from it.
    result = fn(*probes)
    outs = result if isinstance(result, tuple) else (result,)
    leaves, foreign = _closed_over(outs, probes, start)
    values = tuple(o.detach() if isinstance(o, Tensor) else o for o in outs)
    result_kind = () if isinstance(result, tuple) else None
    del result, outs, probes
    if foreign:
        leaves = []  # re-entrant fallback: see _Checkpoint.backward
    single = not isinstance(result_kind, tuple)
    return _Checkpoint.apply(fn, rng, values, single, foreign, len(leaves), _ANCHOR, *args, *leaves)


def checkpoint_sequential(
    functions: Sequence[Callable[[Any], Any]] | Any,
    segments: int,
    input: Any,
    preserve_rng_state: bool = True,
    use_reentrant: bool | None = None,
) -> Any:
    """Run `functions` (a list, or an `nn.Sequential`) one after another on `input`, in
    `segments` consecutive groups; every group but the last is checkpointed (`checkpoint`'s
    `preserve_rng_state` and `use_reentrant` apply to each)."""
    use_reentrant = _reentrant("checkpoint_sequential", use_reentrant)
    fns = list(functions)
    if isinstance(segments, bool) or not isinstance(segments, int) or segments < 1:
        raise ValueError(f"checkpoint_sequential: segments must be an int >= 1, got {segments!r}")
    if segments > len(fns):
        raise ValueError(
            f"checkpoint_sequential: {segments} segments for {len(fns)} functions; "
            "give at most one segment per function"
        )
    size = -(-len(fns) // segments)  # ceil: every segment but the last has this many
    bounds = [(s, min(s + size, len(fns))) for s in range(0, len(fns), size)]

    def run(start: int, stop: int) -> Callable[[Any], Any]:
        def segment(x: Any) -> Any:
            for f in fns[start:stop]:
                x = f(x)
            return x

        return segment

    x = input
    for start, stop in bounds[:-1]:
        x = checkpoint(
            run(start, stop), x, preserve_rng_state=preserve_rng_state, use_reentrant=use_reentrant
        )
    start, stop = bounds[-1]
    return run(start, stop)(x)
