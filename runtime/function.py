"""`og.autograd.Function`: user-defined ops with a hand-written backward.

```python
class Cube(og.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return og.tensor(x.numpy() ** 3)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x          # opgrad ops: differentiable again under create_graph

y = Cube.apply(x)
```
`forward` runs without recording; `apply` then builds one node whose edges are the tensor
arguments. Saved tensors go through `TensorWrapper` (version checks and
`saved_tensors_hooks` apply; an output saved by its own node is held without a cycle).
`backward` receives one gradient per `forward` output, non-differentiable ones and ones
nothing used included (zeros of the output's shape and dtype; None after
`ctx.set_materialize_grads(False)`), and returns one gradient per `forward` argument (None
for non-tensors or where no gradient is needed). Keyword arguments are bound to `forward`'s
parameters first, so a tensor passed by keyword gets its gradient too; `backward` then
returns one gradient per parameter of `forward` (defaults included).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.runtime.device import module_of_type
from opgrad.runtime.dual import FORWARD, rule_scope, set_tangent, tangent_of
from opgrad.runtime.grad_mode import grad_enabled, no_grad
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.later import later
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.tensor_wrapper import Saved, TensorWrapper, unpack


class FunctionCtx:
    """The `ctx` passed to forward and backward."""

    def __init__(self) -> None:
        self.needs_input_grad: tuple[bool, ...] = ()
        self._to_save: tuple[Tensor | None, ...] = ()
        self._saved: list[Saved | None] = []
        self._non_differentiable: set[int] = set()
        self._node: GradNode | None = None
        self._released = False
        self.materialize_grads = True
        self._for_forward: tuple[Tensor | None, ...] | None = None  # save_for_forward, read in jvp

    def set_materialize_grads(self, value: bool) -> None:
        """With False, `backward` gets None (not zeros) for outputs that received no gradient."""
        self.materialize_grads = bool(value)

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    f"save_for_backward: argument {i} is a {type(t).__name__}; only Tensors (or None) "
                    "can be saved — keep other values as attributes of ctx"
                )
        self._to_save = tensors

    def save_for_forward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for `jvp` (forward mode), where `ctx.saved_tensors` returns them."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    f"save_for_forward: argument {i} is a {type(t).__name__}; only Tensors (or None) "
                    "can be saved — keep other values as attributes of ctx"
                )
        self._for_forward = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        self._non_differentiable.update(id(t) for t in tensors)

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        if self._released:
            raise RuntimeError(
                "saved_tensors: they were freed after the first backward; pass retain_graph=True "
                "to the first backward()/grad() call to backward through this function again"
            )
        if self._for_forward is not None and FORWARD.paused:  # inside jvp
            return self._for_forward
        node = self._node
        if node is None:
            return tuple(self._to_save)  # inside forward, or no graph was recorded
        return tuple(None if w is None else unpack(w, node) for w in self._saved)


class FunctionNode(GradNode):
    """The node of one `Function.apply` call."""

    __slots__ = ("ctx", "function", "tensor_positions", "n_args", "outputs_meta")
    ctx: FunctionCtx
    function: type[Function]
    tensor_positions: tuple[int, ...]  # the forward arguments that are tensors
    n_args: int
    outputs_meta: tuple[tuple[Any, ...] | None, ...]  # (shape, dtype, array type) per output
    foreign_grads = True

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"{self.function.__name__}.backward"

    @property
    def non_differentiable_outputs(self) -> Sequence[int]:  # type: ignore[override]
        # Without materialized grads the engine must leave missing gradients as None.
        return () if self.ctx.materialize_grads else range(len(self.outputs_meta))

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        ctx = self.ctx
        metas = self.outputs_meta
        if len(grads) < len(metas):
            grads = [*grads, *([None] * (len(metas) - len(grads)))]
        if ctx.materialize_grads:
            for k, meta in enumerate(metas):
                if grads[k] is None and meta is not None:
                    grads[k] = wrap(_zeros(meta))
        ctx._node = self
        try:
            result = self.function.backward(ctx, *grads)
        finally:
            ctx._node = None
        if not isinstance(result, tuple):
            result = (result,)
        fname = self.function.__name__
        if len(result) > self.n_args and all(g is None for g in result[self.n_args :]):
            result = result[: self.n_args]  # trailing Nones for defaulted parameters, as PyTorch allows
        if len(result) != self.n_args:
            raise RuntimeError(
                f"{fname}.backward returned {len(result)} gradients but forward took {self.n_args} "
                "arguments; return one per forward argument (None where there is none)"
            )
        out = []
        for pos in self.tensor_positions:
            g = result[pos]
            if g is not None and not isinstance(g, Tensor):
                g = wrap(g) if hasattr(g, "shape") else None
                if g is None:
                    raise TypeError(f"{fname}.backward: gradient {pos} must be a Tensor or None")
            out.append(g)
        return tuple(out)

    def release_saved(self) -> None:
        self.ctx._saved = []
        self.ctx._released = True
        self._released = True


def _zeros(meta: tuple[Any, ...]) -> Any:
    shape, dtype, cls = meta
    return (module_of_type(cls) or np).zeros(shape, dtype=dtype)


# forward's signature per Function class, for binding keyword arguments.
_SIGNATURES: dict[type, inspect.Signature] = {}


def _bind(
    cls: type, forward: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """`args` and `kwargs` as positional arguments of `forward` (defaults filled in), so that
    every tensor argument has a position and so an edge; what remains are keyword-only
    arguments. A tensor among those would get no gradient: that is an error."""
    sig = _SIGNATURES.get(cls)
    if sig is None:
        sig = _SIGNATURES[cls] = inspect.signature(forward)
    try:
        bound = sig.bind(None, *args, **kwargs)
    except TypeError as exc:
        raise TypeError(f"{cls.__name__}.apply: {exc}") from None
    bound.apply_defaults()
    for name, value in bound.kwargs.items():
        values = value.values() if isinstance(value, dict) else (value,)
        if any(isinstance(v, Tensor) for v in values):
            raise TypeError(
                f"{cls.__name__}.apply: the tensor passed as {name!r} can only be given by keyword "
                "(a keyword-only or **kwargs parameter of forward), so it could get no gradient; make "
                "it a positional parameter of forward"
            )
    return bound.args[1:], bound.kwargs


class _FunctionMeta(type):
    def __repr__(cls) -> str:
        return f"<Function {cls.__name__}>"


class Function(metaclass=_FunctionMeta):
    """Subclass with static `forward(ctx, *args)` and `backward(ctx, *grads)`; call `apply`."""

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("a Function subclass must define a static forward(ctx, ...)")

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> Any:
        raise NotImplementedError("a Function subclass must define a static backward(ctx, *grads)")

    @staticmethod
    def jvp(ctx: FunctionCtx, *tangents: Any) -> Any:
        """Forward mode: the outputs' tangents from the inputs' (a subclass defines it)."""
        raise NotImplementedError("a Function subclass defines a static jvp(ctx, *tangents) for forward mode")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        if "forward" not in cls.__dict__ and cls.forward is Function.forward:
            raise NotImplementedError(f"{cls.__name__} must define a static forward(ctx, ...)")
        if kwargs:
            args, kwargs = _bind(cls, cls.forward, args, kwargs)
        ctx = FunctionCtx()
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        dual = FORWARD.active and any(tangent_of(args[i]) is not None for i in positions)
        if dual and cls.jvp is Function.jvp:
            raise RuntimeError(
                f"{cls.__name__}: a tangent (forward-mode AD) reached this custom Function, which has "
                "no jvp; define a static jvp(ctx, *tangents) returning one tangent per forward output "
                "(ctx.save_for_forward keeps what it needs), as in PyTorch"
            )
        with no_grad():
            if dual:  # forward sees primals: its own ops carry no tangents (jvp gives them)
                with rule_scope():
                    result = cls.forward(ctx, *args, **kwargs)
            else:
                result = cls.forward(ctx, *args, **kwargs)
        single = not isinstance(result, tuple)
        outputs = (result,) if single else result
        for k, o in enumerate(outputs):
            if o is not None and not isinstance(o, Tensor):
                raise TypeError(
                    f"{cls.__name__}.forward must return Tensors; output {k} is a {type(o).__name__}"
                )
        if not (grad_enabled() and any(ctx.needs_input_grad)):
            if dual:
                return _with_tangents(cls, ctx, args, outputs, single)
            return result
        node = FunctionNode([args[i] for i in positions])
        node.ctx = ctx
        node.function = cls
        node.tensor_positions = tuple(positions)
        node.n_args = len(args)
        node.outputs_meta = tuple(
            None if o is None else (o._data.shape, o._data.dtype, o._data.__class__) for o in outputs
        )
        marked = ctx._non_differentiable
        inputs = {id(args[i]) for i in positions}
        final: list[Any] = []
        for k, o in enumerate(outputs):
            if o is None:
                final.append(o)
                continue
            if id(o) in inputs:  # an input returned as is: give the output its own identity
                alias = wrap(o._data)
                alias._vc = o._vc
                o = alias
            if id(outputs[k]) not in marked and o._data.dtype.kind in "fc":
                set_history(o, node, k)
            final.append(o)
        by_id = {id(o): o for o in final if o is not None}
        saved: list[Saved | None] = []
        for t in ctx._to_save:
            if t is None:
                saved.append(None)
            elif t._node is node:
                saved.append(TensorWrapper.of_output(by_id.get(id(t), t), node))
            else:
                saved.append(TensorWrapper.of_input(t))
        ctx._saved = saved
        ctx._to_save = ()
        if dual:
            return _with_tangents(cls, ctx, args, tuple(final), single)
        return final[0] if single else tuple(final)


def _tangent_or_zeros(a: Any) -> Tensor | None:
    if not isinstance(a, Tensor) or a._data.dtype.kind not in "fc":
        return None
    t = tangent_of(a)
    return later.creation.zeros_like(a) if t is None else t


def _with_tangents(
    cls: type[Function], ctx: FunctionCtx, args: Sequence[Any], outputs: Sequence[Any], single: bool
) -> Any:
    """The outputs with the tangents `cls.jvp` gives them. jvp gets one tangent per forward
    argument, as PyTorch passes them: the tangent of a tensor that has one, zeros for a
    floating tensor that has none, None for anything else."""
    ins = {id(a) for a in args if isinstance(a, Tensor)}
    outs = []
    for o in outputs:
        if o is not None and id(o) in ins:  # an input returned as is: its own tangent stays
            alias = wrap(o._data)
            alias._vc = o._vc
            o = alias
        outs.append(o)
    tans = [_tangent_or_zeros(a) for a in args]
    name = cls.__name__
    with rule_scope():  # grad mode as the caller has it: tangents may be recorded (forward-over-reverse)
        got = cls.jvp(ctx, *tans)
    ctx._for_forward = None
    got = got if isinstance(got, tuple) else (got,)
    if len(got) != len(outs):
        raise RuntimeError(f"{name}.jvp returned {len(got)} tangents but forward has {len(outs)} outputs")
    marked = ctx._non_differentiable
    for k, (o, t) in enumerate(zip(outs, got, strict=True)):
        if t is None or o is None or id(outputs[k]) in marked or o._data.dtype.kind not in "fc":
            continue
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}.jvp: tangent {k} must be a Tensor or None, got {type(t).__name__}")
        if t.shape != o.shape or t._data.dtype != o._data.dtype:
            raise RuntimeError(
                f"{name}.jvp: tangent {k} has shape {tuple(t.shape)} and dtype {t._data.dtype}; output {k} "
                f"has shape {tuple(o.shape)} and dtype {o._data.dtype}, which its tangent must match"
            )
        set_tangent(o, t)
    return outs[0] if single else tuple(outs)
