"""Batched backward: one engine pass for a batch of gradient seeds (`og.grad(...,
is_grads_batched=True)`, as in PyTorch), which og.func.jacrev/hessian and
og.autograd.functional.jacobian(vectorize=True) use to build a Jacobian in one pass instead
of one pass per row.

In such a pass every gradient carries a leading batch dimension B in front of the shape the
graph recorded: row b is the gradient an ordinary pass seeded with row b would give. The
engine hands each node's batched gradients to `apply_batched`, which runs the node's
batching rule if it has one and the rule covers the case at hand, and otherwise falls back
to the node's own `apply` once per row, stacking the results: slower, never different.

A rule is a function `(node, grads, batch, create_graph) -> gradients | None`, registered
under the node's `name` (its backward.yaml entry) with `@batching_rule(...)`. It computes
with recorded ops, so under `create_graph` its results are differentiable like the node's
own; it returns None to decline (a layout or dtype it was not written for), and then the
row loop runs. `tests/test_batched_grad.py` checks every rule against that loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.generated import grad_ops, ops
from opgrad.runtime.device import module_of_type
from opgrad.runtime.grad_mode import set_grad_enabled
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.kernels.common import normalize_axis
from opgrad.runtime.later import later
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.tensor_wrapper import unpack

Grads = list[Tensor | None]
Rule = Callable[[GradNode, Grads, int, bool], Sequence[Tensor | None] | None]

__all__ = ["RULES", "apply_batched", "batch_size", "batching_rule", "grad_row_by_row", "needs_row_loop"]

RULES: dict[str, Rule] = {}


def batching_rule(*names: str) -> Callable[[Rule], Rule]:
    """Register `rule` for the nodes of the backward.yaml entries `names`."""

    def register(rule: Rule) -> Rule:
        for name in names:
            RULES[name] = rule
        return rule

    return register


def apply_batched(node: GradNode, grads: Grads, create_graph: bool, batch: int) -> Sequence[Tensor | None]:
    """The node's gradients for its inputs, each with the leading batch dimension, given
    its outputs' batched gradients (None where nothing arrived)."""
    metas = node.output_meta
    n = max(node.n_outputs, len(metas))  # trailing outputs that got no history: None, as in _apply
    if len(grads) < n:
        grads = grads + [None] * (n - len(grads))
    rule = RULES.get(node.name)  # a rule reads a None gradient as zeros
    outs = None if rule is None else rule(node, grads, batch, create_graph)
    if outs is None:
        outs = _row_by_row(node, grads, create_graph, batch)
    return outs


def _row_by_row(node: GradNode, grads: Grads, create_graph: bool, batch: int) -> Sequence[Tensor | None]:
    """The fallback: the node's own apply once per row, the results stacked along axis 0."""
    if node._more is not None:  # several outputs: as the engine does, zeros where none arrived
        grads = list(grads)
        for i, meta in enumerate(node.output_meta):
            if grads[i] is None and meta is not None and i not in node.non_differentiable_outputs:
                shape, dtype, cls = meta
                grads[i] = wrap((module_of_type(cls) or np).zeros((batch, *shape), dtype=dtype))
    rows: list[Sequence[Tensor | None]] = []
    for b in range(batch):
        if create_graph:
            row = [None if g is None else g[b] for g in grads]
        else:
            row = [None if g is None else wrap(g._data[b, ...]) for g in grads]  # a 0-d row stays an array
        rows.append(node.apply(row, create_graph))
    children = node._next
    outs: list[Tensor | None] = []
    for i in range(len(rows[0]) if rows else 0):
        column = [r[i] for r in rows]
        if all(c is None for c in column) or i >= len(children) or children[i] is None:
            outs.append(None)
            continue
        shape, dtype, cls = children[i].output_meta_at(node._at[i])  # type: ignore[union-attr,misc]
        xp = module_of_type(cls) or np
        filled = [c if c is not None else wrap(xp.zeros(shape, dtype)) for c in column]
        if create_graph:
            outs.append(ops.stack(filled, 0))
        else:
            outs.append(wrap(xp.stack([c._data for c in filled])))
    return outs


# -- helpers for rules ----------------------------------------------------------------------
def _input_shape(node: GradNode, i: int) -> tuple[int, ...] | None:
    """The recorded shape of input i (None when it gets no gradient)."""
    child = node._next[i]
    if child is None:
        return None
    meta = child.output_meta_at(node._at[i])
    return None if meta is None else tuple(meta[0])


def _real(*tensors: Any) -> bool:
    """Every one None or a real floating Tensor (not metadata saved in its place)."""
    return all(t is None or (isinstance(t, Tensor) and t._data.dtype.kind == "f") for t in tensors)


# -- pointwise ops --------------------------------------------------------------------------
@batching_rule("tanh_grad", "sigmoid_grad", "exp_grad", "log_grad", "sin_grad", "cos_grad", "relu_grad")
def _unary_pointwise(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """A unary op whose gradient is `out_grad` times a pointwise function of one saved
    tensor of the same shape: broadcasting the saved tensor over the batch is the batched
    gradient. Under create_graph the saved tensor is expanded first, so the recorded grad op
    sees inputs of one shape (its own backward does not reduce a broadcast)."""
    g = grads[0]
    shape = _input_shape(node, 0)
    if g is None or shape is None or tuple(g.shape) != (batch, *shape):
        return None
    slots = type(node).__slots__
    if len(slots) != 1:
        return None
    saved = unpack(getattr(node, slots[0]), node)
    if not isinstance(saved, Tensor) or tuple(saved.shape) != shape:
        return None
    if not create_graph:
        return node.apply(grads, False)
    return (getattr(grad_ops, node.name)(ops.expand(saved, [batch, *shape]), g),)


@batching_rule("tanh_double_grad", "neg_grad", "scale_grad")
def _pointwise_apply(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """A gradient that is pointwise in the incoming gradients and saves no tensor of another
    shape (a composite of broadcasting ops, or a kernel of out_grad alone), every input of one
    shape: its apply computes the batched gradients as they are."""
    shape = None
    for i in range(len(node._next)):
        s = _input_shape(node, i)
        if s is not None:
            if shape is not None and s != shape:
                return None
            shape = s
    for g in grads:
        if g is not None and (shape is None or tuple(g.shape) != (batch, *shape)):
            return None
    return node.apply(grads, create_graph)


def _reduce_to(g: Tensor, shape: tuple[int, ...], batch: int) -> Tensor:
    """`unbroadcast` behind the batch axis: g (batch, *broadcast shape) summed to (batch, *shape)."""
    lead = g.ndim - 1 - len(shape)
    axes = list(range(1, lead + 1))
    axes += [lead + 1 + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + 1 + i] != 1]
    if axes:
        g = ops.sum(g, axes, True)
    return g if tuple(g.shape) == (batch, *shape) else ops.reshape(g, [batch, *shape])


@batching_rule("add_grad", "subtract_grad", "multiply_grad", "divide_grad")
def _binary(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """x (op) y with NumPy broadcasting: the pointwise gradients, each summed back to its
    input's shape behind the batch axis."""
    g = grads[0]
    if g is None or not _real(g):
        return None
    name = node.name
    if name == "multiply_grad":
        x, y = unpack(node.x, node), unpack(node.y, node)  # type: ignore[attr-defined]
        if not _real(x, y):
            return None
        to_x, to_y = ops.multiply(g, y), ops.multiply(g, x)
    elif name == "divide_grad":  # x_grad = g / y, y_grad = -x_grad * out (x itself is not needed)
        y, out = unpack(node.y, node), unpack(node.out, node)  # type: ignore[attr-defined]
        if not _real(y, out):
            return None
        to_x = ops.divide(g, y)
        to_y = ops.neg(ops.multiply(to_x, out))
    else:
        to_x, to_y = g, (g if name == "add_grad" else ops.neg(g))
    shapes = (_input_shape(node, 0), _input_shape(node, 1))
    for i, shape in enumerate(shapes):
        meta = None if shape is None else node._next[i].output_meta_at(node._at[i])  # type: ignore[union-attr]
        if meta is not None and meta[1] != g._data.dtype:  # a mixed-dtype op: the row loop casts
            return None
    return tuple(
        None if shape is None else _reduce_to(full, shape, batch)
        for full, shape in zip((to_x, to_y), shapes, strict=True)
    )


# -- shape ops --------------------------------------------------------------------------------
@batching_rule("reshape_grad", "flatten_grad", "squeeze_grad", "unsqueeze_grad")
def _reshape_like(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """The gradient of a C-order reshape is the gradient reshaped back, row by row."""
    g, shape = grads[0], _input_shape(node, 0)
    if g is None or shape is None:
        return None
    return (ops.reshape(g, [batch, *shape]), *([None] * (len(node._next) - 1)))


@batching_rule("reshape_double_grad", "flatten_double_grad", "squeeze_double_grad", "unsqueeze_double_grad")
def _reshape_like_double(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """A reshape-like grad op (inputs x, out_grad): its gradient for out_grad is the incoming
    one reshaped to out_grad's shape; x gets none."""
    g = grads[0]
    if g is None or len(node._next) != 2:
        return None
    shape = _input_shape(node, 1)
    if shape is None:
        return (None, None)
    return (None, ops.reshape(g, [batch, *shape]))


@batching_rule("transpose_grad")
def _transpose(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """transpose by `perm`: the gradient transposed back, the batch axis kept first."""
    g = grads[0]
    if g is None or g.ndim == 1:
        return None
    perm = [p % (g.ndim - 1) for p in node.perm]  # type: ignore[attr-defined]
    inverse = np.argsort(perm).tolist()
    return (ops.transpose(g, [0, *[i + 1 for i in inverse]]),)


@batching_rule("stack_grad")
def _stack(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """stack along `axis`: input i's gradient is position i of the incoming one along that
    axis, one further right for the batch."""
    g = grads[0]
    if g is None:
        return None
    axis = node.axis % (g.ndim - 1)  # type: ignore[attr-defined]  # the stacked output's axis
    lead = (slice(None),) * (axis + 1)
    return tuple(None if child is None else g[(*lead, i)] for i, child in enumerate(node._next))


# -- reductions ---------------------------------------------------------------------------------
def _kept_shape(node: GradNode, shape: tuple[int, ...]) -> tuple[tuple[int, ...], list[int]]:
    axes = normalize_axis(getattr(node, "axis", ()), len(shape), node.name)
    return axes, [1 if i in axes else n for i, n in enumerate(shape)]


@batching_rule("sum_grad", "mean_grad")
def _sum_like(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """sum/mean: each row's gradient spread back over the reduced axes (divided by their
    size for mean)."""
    g, shape = grads[0], _input_shape(node, 0)
    if g is None or shape is None or not _real(g):
        return None
    axes, kept = _kept_shape(node, shape)
    x_grad = ops.expand(ops.reshape(g, [batch, *kept]), [batch, *shape])
    if node.name == "mean_grad":
        count = int(np.prod([shape[a] for a in axes])) if axes else 1
        x_grad = ops.scale(x_grad, 1.0 / count, 0.0) if count else x_grad
    return (x_grad,)


@batching_rule("sum_double_grad", "mean_double_grad")
def _sum_like_double(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """sum_grad/mean_grad (inputs x, out_grad): the gradient for out_grad is the incoming
    one reduced like the forward, one axis further right."""
    g = grads[0]
    shape = _input_shape(node, 1)
    if g is None or shape is None or len(node._next) != 2 or not _real(g):
        return None
    x_shape = tuple(g.shape[1:])
    axes = normalize_axis(getattr(node, "axis", ()), len(x_shape), node.name)
    reduce = ops.sum if node.name == "sum_double_grad" else ops.mean
    out = reduce(g, [a + 1 for a in axes], True) if axes else g
    return (None, ops.reshape(out, [batch, *shape]))


# -- matmul -------------------------------------------------------------------------------------
def _matmul_operands(node: GradNode) -> tuple[Tensor, Tensor] | None:
    """x and y of a plain matmul (no transposes) with y a matrix and x of any dims, both
    real: the layouts the rules below are written for (x as rows of k, M = x.size // k)."""
    if node.transpose_x or node.transpose_y:  # type: ignore[attr-defined]
        return None
    x, y = unpack(node.x, node), unpack(node.y, node)  # type: ignore[attr-defined]
    if not isinstance(x, Tensor) or not isinstance(y, Tensor) or not _real(x, y):
        return None
    if y.ndim != 2 or x.ndim < 1 or x._data.dtype != y._data.dtype:
        return None
    return x, y


@batching_rule("matmul_grad")
def _matmul(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """out = x @ y: x_grad[b] = g[b] @ yᵀ and y_grad[b] = xᵀ @ g[b] (x as M x k rows)."""
    g = grads[0]
    operands = _matmul_operands(node)
    if g is None or operands is None or not _real(g):
        return None
    x, y = operands
    k, n = y.shape
    rows = x.size // k
    x_grad = ops.matmul(g, y, False, True) if node._next[0] is not None else None
    y_grad = None
    if node._next[1] is not None:
        y_grad = ops.matmul(ops.reshape(x, [rows, k]), ops.reshape(g, [batch, rows, n]), True, False)
    return (x_grad, y_grad)


def _xg(g: Tensor, w: Tensor) -> Tensor:
    """Rows of g (batch, ..., n) times wᵀ (w a k x n matrix): x's gradient in x @ w."""
    return ops.matmul(g, w, False, True)


def _yg(x: Tensor, g: Tensor, batch: int, n: int) -> Tensor:
    """xᵀ g per row (x as M rows of k): the matrix's gradient in x @ w, (batch, k, n)."""
    k = x.shape[-1]
    rows = x.size // k
    return ops.matmul(ops.reshape(x, [rows, k]), ops.reshape(g, [batch, rows, n]), True, False)


@batching_rule("matmul_jvp_grad")
def _matmul_jvp(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """matmul_jvp(x, y, a, b) = a @ y + x @ b (no transposes, y and b matrices): each input's
    gradient is one of the two matmul gradients of the term it is in."""
    o_grad = grads[0]
    if o_grad is None or node.transpose_x or node.transpose_y:  # type: ignore[attr-defined]
        return None
    x, y, a, b = (unpack(getattr(node, k), node) for k in ("x", "y", "a", "b"))
    if not _real(o_grad, x, y, a, b) or y.ndim != 2 or b.ndim != 2 or x.ndim < 1 or a.shape != x.shape:
        return None
    n = y.shape[1]
    edges = node._next
    return (
        _xg(o_grad, b) if edges[0] is not None else None,
        _yg(a, o_grad, batch, n) if edges[1] is not None else None,
        _xg(o_grad, y) if edges[2] is not None else None,
        _yg(x, o_grad, batch, n) if edges[3] is not None else None,
    )


@batching_rule("sum_grads")
def _sum_of_gradients(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """The engine's recorded sum of two gradients of one shape: both get the incoming one."""
    g = grads[0]
    if g is None:
        return None
    for i in range(len(node._next)):
        shape = _input_shape(node, i)
        if shape is not None and (batch, *shape) != tuple(g.shape):
            return None
    return (g, g)


@batching_rule("stack_double_grad")
def _stack_double(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """stack_grad's gradient for out_grad: the incoming gradients stacked along `axis`, one
    further right for the batch (zeros for a piece that got none)."""
    metas = node.output_meta
    if not metas or any(m is None for m in metas) or len(grads) < len(metas):
        return None
    pieces = []
    for g, meta in zip(grads, metas, strict=False):
        shape, dtype, cls = meta  # type: ignore[misc]  # checked not None above
        pieces.append(g if g is not None else wrap((module_of_type(cls) or np).zeros((batch, *shape), dtype)))
    axis = node.axis % (len(metas[0][0]) + 1)  # type: ignore[attr-defined,index]
    return (*[None] * node._x_count, ops.stack(pieces, axis + 1))  # type: ignore[attr-defined]


@batching_rule("linear_grad")
def _linear(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """out = x @ weight + bias (weight (in, out), Paddle's layout): x_grad[b] = g[b] @ weightᵀ,
    weight_grad[b] = xᵀ @ g[b] and bias_grad[b] = g[b] summed over x's rows."""
    g = grads[0]
    x, weight = unpack(node.x, node), unpack(node.weight, node)  # type: ignore[attr-defined]
    if g is None or not _real(g, x, weight) or weight.ndim != 2 or x.ndim < 1:
        return None
    k, n = weight.shape
    rows = x.size // k
    bias_shape = _input_shape(node, 2)
    if bias_shape is not None and bias_shape != (n,):
        return None
    x_grad = ops.matmul(g, weight, False, True) if node._next[0] is not None else None
    flat_g = ops.reshape(g, [batch, rows, n])
    w_grad = None
    if node._next[1] is not None:
        w_grad = ops.matmul(ops.reshape(x, [rows, k]), flat_g, True, False)
    b_grad = ops.sum(flat_g, [1]) if bias_shape is not None else None
    return (x_grad, w_grad, b_grad)


@batching_rule("matmul_double_grad", "linear_double_grad")
def _matmul_double(node: GradNode, grads: Grads, batch: int, create_graph: bool) -> Any:
    """matmul_grad (inputs x, y, out_grad) or linear_grad (x, weight, bias, out_grad), batched
    over the gradients of its outputs x_gg, y_gg (and bias_gg): grad_wrt_x = out_grad @
    y_ggᵀ, grad_wrt_y = x_ggᵀ @ out_grad, grad_wrt_out_grad = x_gg @ y + x @ y_gg (+ bias_gg)."""
    linear = node.name == "linear_double_grad"
    if linear:
        x, y = unpack(node.x, node), unpack(node.weight, node)  # type: ignore[attr-defined]
        if not _real(x, y) or y.ndim != 2 or x.ndim < 1:
            return None
    else:
        operands = _matmul_operands(node)
        if operands is None:
            return None
        x, y = operands
    out_grad = unpack(node.out_grad, node)  # type: ignore[attr-defined]
    x_gg, y_gg = grads[0], grads[1]
    b_gg = grads[2] if linear else None
    if not _real(out_grad, x_gg, y_gg, b_gg):
        return None
    k, n = y.shape
    rows = x.size // k
    at_out = 3 if linear else 2
    to_x = to_y = to_out = None
    out_shape = [batch, *out_grad.shape]
    flat_out_grad = ops.reshape(out_grad, [rows, n])
    if node._next[0] is not None and y_gg is not None:
        to_x = ops.reshape(ops.matmul(flat_out_grad, y_gg, False, True), [batch, *x.shape])
    if node._next[1] is not None and x_gg is not None:
        to_y = ops.matmul(ops.reshape(x_gg, [batch, rows, k]), flat_out_grad, True, False)
    if node._next[at_out] is not None:
        terms = []
        if x_gg is not None:
            terms.append(ops.reshape(ops.matmul(ops.reshape(x_gg, [batch, rows, k]), y), out_shape))
        if y_gg is not None:
            terms.append(ops.reshape(ops.matmul(ops.reshape(x, [rows, k]), y_gg), out_shape))
        if b_gg is not None:
            bias = ops.reshape(b_gg, [batch] + [1] * (out_grad.ndim - 1) + [n])
            terms.append(ops.expand(bias, out_shape) if not terms else bias)
        for term in terms:
            to_out = term if to_out is None else ops.add(to_out, term)
    return (to_x, to_y, None, to_out) if linear else (to_x, to_y, to_out)


# -- the engine's entry points --------------------------------------------------------------
def batch_size(gos: list[Any] | None, only_inputs: bool) -> int:
    """The common leading dimension of grad()'s grad_outputs under is_grads_batched."""
    if not only_inputs:
        raise ValueError("grad: is_grads_batched=True needs only_inputs=True (nothing goes into .grad)")
    if not gos:
        raise ValueError("grad: is_grads_batched=True needs grad_outputs (each with a batch dimension)")
    if not all(isinstance(g, Tensor) and g.ndim > 0 for g in gos):
        raise ValueError(
            "grad: with is_grads_batched=True every grad_outputs entry must be a Tensor with a leading batch "
            f"dimension; got {[tuple(g.shape) if isinstance(g, Tensor) else type(g).__name__ for g in gos]}"
        )
    sizes = {g.shape[0] for g in gos}
    if len(sizes) != 1:
        raise ValueError(
            "grad: with is_grads_batched=True every grad_outputs entry must have the same leading batch "
            f"dimension; got shapes {[tuple(g.shape) for g in gos]}"
        )
    (batch,) = sizes
    if batch == 0:
        raise ValueError("grad: is_grads_batched=True with a batch of size 0; there is nothing to compute")
    return int(batch)


def needs_row_loop(roots: list[tuple[GradNode, int]], inputs: list[Tensor]) -> bool:
    """Whether a batched grad() must run as one ordinary pass per row: when a node it may
    reach has hooks or is a custom Function's (user code that expects one row's gradients),
    or an input is a leaf with tensor hooks."""
    for t in inputs:
        extra = t._extra
        if t._node is None and extra is not None and extra.hooks:
            return True
    stack = [node for node, _ in roots]
    seen = set(stack)
    while stack:
        node = stack.pop()
        if node._hooks is not None or node.foreign_grads:
            return True
        for child in node._next:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return False


def grad_row_by_row(
    outputs: list[Tensor],
    inputs: list[Tensor],
    seeds: list[Tensor],
    retain_graph: bool,
    create_graph: bool,
    allow_unused: bool,
    no_grad_vars: Any,
) -> list[Tensor | None]:
    """A batched grad() as one ordinary grad() per row of the seeds, the results stacked."""
    batch = seeds[0].shape[0]
    rows = []
    with set_grad_enabled(create_graph):
        for b in range(batch):
            rows.append(
                later.engine.grad(
                    outputs,
                    inputs,
                    [g[b] for g in seeds],
                    retain_graph=retain_graph or b < batch - 1,
                    create_graph=create_graph,
                    allow_unused=allow_unused,
                    no_grad_vars=no_grad_vars,
                )
            )
        return [
            None if any(row[i] is None for row in rows) else ops.stack([row[i] for row in rows], 0)
            for i in range(len(inputs))
        ]
