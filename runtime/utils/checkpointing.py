"""Gradient checkpointing: trade compute for memory.

`checkpoint(fn, *args)` keeps none of fn's intermediate activations for backward; they are
recomputed there, the random generators put back to where they were, so dropout draws the
same mask. Two ways, as in PyTorch:
- re-entrant (`use_reentrant=True`): fn runs without recording; the result gets one node
  whose backward runs fn again and differentiates that recomputation, its closed-over
  leaves (parameters) accumulating into `.grad` from inside it.
- non-re-entrant (`use_reentrant=False`): fn runs once, recorded as usual, under
  saved-tensor hooks that keep only each saved tensor's place in the order of saving. The
  first time backward needs one of them, fn runs again (recorded, the same ops saving the
  same tensors in the same order) and every saved tensor of that run is kept until backward
  takes it, once. The graph is fn's own, so og.grad() reaches everything it uses and leaves
  accumulate one at a time, as without checkpointing.
Under `create_graph=True` the recomputation is recorded against the original inputs, so
higher-order gradients work, and checkpoints nest.
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
from opgrad.runtime.tensor_wrapper import saved_tensors_hooks

__all__ = ["checkpoint", "checkpoint_sequential"]


# Passed to every re-entrant checkpoint node as an extra input that requires grad, so the
# node is recorded even when nothing it reaches requires grad. It never receives a gradient.
_ANCHOR = Tensor(0.0, requires_grad=True)
_FIRST = 5  # _Checkpoint.forward's arguments before fn's: fn, rng, values, single, anchor


class _Checkpoint(Function):
    """The node of one re-entrant checkpoint: its edges are fn's tensor arguments; the leaves
    fn closes over (parameters) accumulate into .grad from inside its backward."""

    @staticmethod
    def forward(
        ctx: Any,  # FunctionCtx, which takes any attribute
        fn: Callable[..., Any],
        rng: Any,
        values: tuple[Any, ...],
        single: bool,
        anchor: Tensor,
        *args: Any,
    ) -> Any:
        ctx.fn = fn
        ctx.rng = rng
        ctx.single = single
        ctx.args = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[a if isinstance(a, Tensor) else None for a in args])
        return values[0] if single else values  # fn's outputs, computed (and detached) by checkpoint

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:  # ctx: the FunctionCtx forward filled
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
            start = GradNode(()).seq  # every node the recomputation records comes after this
            try:
                result = ctx.fn(*args)
            finally:
                if now is not None:
                    set_rng_state(now)
            outs = (result,) if ctx.single else tuple(result)
            if running_accumulates() is False:
                _refuse_grad(*_closed_over(outs, args, start))
            pairs = [
                (o, g) for o, g in zip(outs, grads, strict=True) if isinstance(o, Tensor) and o.requires_grad
            ]
            found: list[Any] = [None] * len(inputs)
            if pairs:
                # Every leaf the recomputation reaches accumulates into .grad (only_inputs=False);
                # the gradients of the arguments are captured and returned through this node.
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
        return (*[None] * _FIRST, *result_grads)


def _refuse_grad(leaves: list[Tensor], foreign: bool) -> None:
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
    raise RuntimeError(
        f"checkpoint: og.grad() cannot differentiate through this checkpoint: its function uses {what}, "
        "whose gradients the recomputation could only accumulate into .grad; pass use_reentrant=False "
        "to checkpoint (og.grad() then reaches everything fn uses), or call .backward()"
    )


def _closed_over(outs: Sequence[Any], probes: Sequence[Any], start: int) -> tuple[list[Tensor], bool]:
    """The leaves that require grad which fn's recomputed graph reached besides its
    arguments, and whether it also reached a graph made before it (a closed-over non-leaf
    tensor); an argument's own node (a recorded alias under create_graph) is not such a graph."""
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
    `use_reentrant=False` (recommended): fn's graph is recorded as usual, but the tensors
    its ops save for backward are not kept; backward runs fn again the first time it needs
    one (see the module docstring). `og.grad()` reaches everything fn uses, parameters and
    tensors computed before the checkpoint alike."""
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
        return _Checkpoint.apply(fn, rng, values, single, _ANCHOR, *args)
    frame = _Recomputation(fn, args, rng)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        return fn(*args)


class _Recomputation:
    """One non-re-entrant checkpoint: the forward's saved tensors are numbered, not kept;
    the first unpack runs fn again and keeps what that run saves, each until it is taken."""

    __slots__ = ("fn", "args", "rng", "count", "kept")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], rng: Any) -> None:
        self.fn, self.args, self.rng = fn, args, rng
        self.count = 0  # tensors the forward saved
        self.kept: dict[int, Tensor] = {}

    def pack(self, t: Tensor) -> int:
        self.count += 1
        return self.count - 1

    def unpack(self, i: int) -> Tensor:
        t = self.kept.pop(i, None)
        if t is None:  # the first use in this pass, or a second pass (retain_graph): run fn again
            self.kept = self._recompute()
            t = self.kept.pop(i)
        return t

    def _recompute(self) -> dict[int, Tensor]:
        saved: list[Tensor] = []

        def keep(t: Tensor) -> Tensor:
            saved.append(t)
            return t  # the recomputation's own graph reads it back (double backward)

        now = get_rng_state() if self.rng is not None else None
        if self.rng is not None:
            set_rng_state(self.rng)
        try:
            with enable_grad(), saved_tensors_hooks(keep, _same):
                self.fn(*self.args)
        finally:
            if now is not None:
                set_rng_state(now)
        if len(saved) != self.count:
            raise RuntimeError(
                f"checkpoint: recomputing fn saved {len(saved)} tensors for backward where its first run "
                f"saved {self.count}; fn must run the same ops each time it is called with the same "
                "inputs (use_reentrant=False)"
            )
        return dict(enumerate(saved))


def _same(t: Tensor) -> Tensor:
    return t


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
