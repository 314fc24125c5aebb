"""Gradient checkpointing: trade compute for memory.

`checkpoint(fn, *args)` runs `fn` without recording its graph, so none of its intermediate
activations stay alive; the result gets one node whose backward runs `fn` again (with grad
mode on, the random generators put back to where they were, so dropout draws the same
mask) and differentiates that recomputation. Under `create_graph=True` the recomputation is
recorded against the original inputs, so higher-order gradients work, and checkpoints nest.
`checkpoint_sequential(modules, segments, input)` checkpoints all but the last of
`segments` consecutive runs of modules (the last one's activations are needed at once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from opgrad.generated import ops
from opgrad.runtime.engine import grad as _grad
from opgrad.runtime.function import Function, FunctionCtx
from opgrad.runtime.grad_mode import enable_grad, grad_enabled
from opgrad.runtime.random import get_rng_state, set_rng_state
from opgrad.runtime.tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]


# Passed to every checkpoint node as an extra input that requires grad, so the node is
# recorded (and recomputes, accumulating into the parameters fn closes over) even when no
# argument requires grad: the usual case of a data batch into checkpointed layers. It never
# receives a gradient.
_ANCHOR = Tensor(0.0, requires_grad=True)
_FIRST = 3  # arguments of _Checkpoint.forward before fn's own: fn, preserve_rng_state, anchor


class _Checkpoint(Function):
    @staticmethod
    def forward(
        ctx: FunctionCtx, fn: Callable[..., Any], preserve_rng_state: bool, anchor: Tensor, *args: Any
    ) -> Any:
        ctx.fn = fn
        ctx.rng = get_rng_state() if preserve_rng_state else None
        ctx.args = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[a if isinstance(a, Tensor) else None for a in args])
        result = fn(*args)
        ctx.single = not isinstance(result, tuple)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> Any:
        create_graph = grad_enabled()  # a node's backward runs with grad mode == create_graph
        saved = ctx.saved_tensors
        args = list(ctx.args)
        inputs: list[tuple[int, Tensor]] = []
        with enable_grad():
            for i, t in enumerate(saved):
                if t is None:
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
            try:
                result = ctx.fn(*args)
            finally:
                if now is not None:
                    set_rng_state(now)
            outs = (result,) if ctx.single else tuple(result)
            pairs = [
                (o, g) for o, g in zip(outs, grads, strict=True) if isinstance(o, Tensor) and o.requires_grad
            ]
            found: list[Any] = [None] * len(inputs)
            if pairs:
                # Every leaf fn reached (parameters it closes over) accumulates into .grad, as
                # without checkpointing; the inputs' gradients are captured and returned. An
                # input aliased through a recorded view is a constant here (its gradient
                # reaches it through this node's edge, not twice).
                found = _grad(
                    [o for o, _ in pairs],
                    [a for _, a in inputs] or [_ANCHOR],
                    [g for _, g in pairs],
                    create_graph=create_graph,
                    allow_unused=True,
                    only_inputs=False,
                    no_grad_vars=[t for t in saved if t is not None and t.requires_grad] or None,
                )[: len(inputs)]
        result_grads: list[Any] = [None] * len(args)
        for (i, _), g in zip(inputs, found, strict=True):
            result_grads[i] = g
        return (None, None, None, *result_grads)


def checkpoint(fn: Callable[..., Any], *args: Any, preserve_rng_state: bool = True) -> Any:
    """fn(*args), keeping no intermediate activation for backward: they are recomputed."""
    if not callable(fn):
        raise TypeError(f"checkpoint: fn must be callable, got {type(fn).__name__}")
    if not isinstance(preserve_rng_state, bool):
        raise TypeError(
            f"checkpoint: preserve_rng_state must be a bool, got {type(preserve_rng_state).__name__}"
        )
    if not grad_enabled():
        return fn(*args)
    return _Checkpoint.apply(fn, preserve_rng_state, _ANCHOR, *args)


def checkpoint_sequential(
    functions: Sequence[Callable[[Any], Any]] | Any,
    segments: int,
    input: Any,
    preserve_rng_state: bool = True,
) -> Any:
    """Run `functions` (a list, or an `nn.Sequential`) one after another on `input`, in
    `segments` consecutive groups; every group but the last is checkpointed."""
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
        x = checkpoint(run(start, stop), x, preserve_rng_state=preserve_rng_state)
    start, stop = bounds[-1]
    return run(start, stop)(x)
