"""`og.autograd.functional`: derivatives of whole Python functions (vjp, jvp, jacobian,
hessian, hvp, vhp), with PyTorch's argument conventions.

`inputs` is a Tensor or a tuple of Tensors, and so is what `func` returns; a result has the
same structure (a single Tensor stays a Tensor). Each call detaches the inputs into fresh
leaves that require grad (or, under `create_graph=True`, differentiable aliases of them, so
the result can itself be differentiated with respect to the caller's tensors). Results are
detached unless `create_graph` is set. An output that does not depend on an input gives
zeros, or, with `strict=True`, a RuntimeError naming both. `jvp` uses forward mode
(`og.autograd.forward_ad`); `jacobian(strategy="forward-mode")` builds columns with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from opgrad.generated import ops
from opgrad.runtime import forward_ad
from opgrad.runtime.batching import needs_row_loop
from opgrad.runtime.creation import zeros, zeros_like
from opgrad.runtime.device import array_module
from opgrad.runtime.dual import FORWARD
from opgrad.runtime.engine import grad as _grad
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_mode import enable_grad
from opgrad.runtime.grad_node import edge_to
from opgrad.runtime.tensor import Tensor

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


# -- structure: a Tensor or a tuple of Tensors ---------------------------------------------
def as_tuple(value: Any, fn: str, arg: str) -> tuple[bool, tuple[Tensor, ...]]:
    """(was it a tuple/list, the tensors as a tuple); anything else is a TypeError."""
    if isinstance(value, Tensor):
        return False, (value,)
    if isinstance(value, (tuple, list)):
        for i, t in enumerate(value):
            if not isinstance(t, Tensor):
                raise TypeError(f"{fn}: {arg}[{i}] must be a Tensor, got {type(t).__name__}")
        return True, tuple(value)
    raise TypeError(f"{fn}: {arg} must be a Tensor or a tuple of Tensors, got {type(value).__name__}")


def unpack(is_tuple: bool, values: Sequence[Any]) -> Any:
    """The inverse of `as_tuple`: a tuple, or its only element."""
    return tuple(values) if is_tuple else values[0]


def prepare_inputs(inputs: tuple[Tensor, ...], create_graph: bool, fn: str) -> tuple[Tensor, ...]:
    """Leaves to differentiate with respect to: under `create_graph` an input that requires
    grad is aliased through a recorded identity (the result stays a function of it)."""
    out = []
    for i, t in enumerate(inputs):
        if t.dtype.kind not in "fc":
            raise TypeError(f"{fn}: inputs[{i}] must be floating to be differentiated, got {t.dtype}")
        if create_graph and t.requires_grad:
            with enable_grad():
                out.append(ops.reshape(t, t.shape))
        else:
            out.append(t.detach().requires_grad_())
    return tuple(out)


def recording_needed(ys: Sequence[Tensor], xs: Sequence[Tensor]) -> bool:
    """Whether derivatives of ys with respect to xs (leaves or aliases `prepare_inputs` made)
    must be recorded for something outside to differentiate them again: a dual level is open
    (tangents travel through the backward, forward-over-reverse), or the graph of ys reaches
    a leaf that requires grad other than xs (the caller's tensors, through an alias or a
    closure). Otherwise the result would be a function of xs alone, which nobody outside
    can reach, so the backward may run unrecorded."""
    if FORWARD.level:
        return True
    ours = {edge_to(x)[0] for x in xs}  # a leaf's AccumulateGrad (an alias's node is walked past)
    stack = [edge_to(y)[0] for y in ys if y.requires_grad]
    seen = set(stack)
    while stack:
        node = stack.pop()
        for child in node.edges()[0]:
            if child is None or child in seen:
                continue
            if child.__class__ is AccumulateGrad and child not in ours:
                return True
            seen.add(child)
            stack.append(child)
    return False


def check_vector(v: Any, like: tuple[Tensor, ...], fn: str, arg: str, against: str) -> tuple[Tensor, ...]:
    """`v` given with the structure of `like` (shapes checked)."""
    _, vs = as_tuple(v, fn, arg)
    if len(vs) != len(like):
        raise ValueError(
            f"{fn}: {arg} has {len(vs)} tensors but {against} has {len(like)}; give one per tensor"
        )
    for i, (a, b) in enumerate(zip(vs, like, strict=True)):
        if a.shape != b.shape:
            raise ValueError(f"{fn}: {arg}[{i}] has shape {a.shape} but {against}[{i}] has shape {b.shape}")
    return vs


def call(func: Callable[..., Any], inputs: tuple[Tensor, ...], fn: str) -> tuple[bool, tuple[Tensor, ...]]:
    with enable_grad():
        result = func(*inputs)
    return as_tuple(result, fn, "the value returned by func")


def grads_or_zeros(
    outputs: Sequence[Tensor],
    inputs: Sequence[Tensor],
    grad_outputs: Sequence[Tensor],
    create_graph: bool,
    strict: bool,
    fn: str,
    independence: str = "output",
    batch: int = 0,
) -> list[Tensor]:
    """sum_j grad_outputs[j]^T d outputs[j] / d inputs, zeros where an input is unused
    (`strict`: a RuntimeError instead). `batch`: the grad_outputs carry a leading batch
    dimension of that size, and so do the results (one batched backward pass)."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs, strict=True) if o.requires_grad]
    found: list[Tensor | None] = [None] * len(inputs)
    if pairs:
        with enable_grad():
            found = _grad(
                [o for o, _ in pairs],
                list(inputs),
                [g for _, g in pairs],
                retain_graph=True,
                create_graph=create_graph,
                allow_unused=True,
                is_grads_batched=batch > 0,
            )
    result = []
    for i, (g, x) in enumerate(zip(found, inputs, strict=True)):
        if g is None:
            if strict:
                raise RuntimeError(
                    f"{fn}: the {independence} of the user-provided function is independent of input {i}; "
                    "this is not allowed in strict mode"
                )
            g = zeros((batch, *x.shape), dtype=x.dtype) if batch else zeros_like(x)
        result.append(g)
    return result


def check_outputs_depend(outputs: Sequence[Tensor], fn: str) -> None:
    for i, o in enumerate(outputs):
        if not o.requires_grad:
            raise RuntimeError(
                f"{fn}: output {i} of the user-provided function does not require grad "
                "(it is independent of every input); this is not allowed in strict mode"
            )


def finish(values: Sequence[Tensor], create_graph: bool) -> tuple[Tensor, ...]:
    return tuple(values) if create_graph else tuple(v.detach() for v in values)


# -- vjp / jvp --------------------------------------------------------------------------------
def vjp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(*inputs), vᵀ J): the vector-Jacobian product. `v` may be omitted only when
    func returns a single one-element tensor."""
    in_tuple, xs = as_tuple(inputs, "vjp", "inputs")
    xs = prepare_inputs(xs, create_graph, "vjp")
    out_tuple, ys = call(func, xs, "vjp")
    if strict:
        check_outputs_depend(ys, "vjp")
    vs = default_vector(v, ys, "vjp")
    gs = grads_or_zeros(ys, xs, vs, create_graph, strict, "vjp")
    return unpack(out_tuple, finish(ys, create_graph)), unpack(in_tuple, finish(gs, create_graph))


def default_vector(v: Any, ys: tuple[Tensor, ...], fn: str) -> tuple[Tensor, ...]:
    if v is not None:
        return check_vector(v, ys, fn, "v", "the output")
    if len(ys) != 1 or ys[0].size != 1:
        raise RuntimeError(
            f"{fn}: v may be omitted only when func returns one tensor with a single element; "
            f"it returned shapes {[y.shape for y in ys]}"
        )
    return (ops.scale(zeros_like(ys[0]), 1.0, 1.0),)


def jvp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(*inputs), J v): the Jacobian-vector product, computed in forward mode. `v` may
    be omitted only when there is a single one-element input."""
    in_tuple, xs = as_tuple(inputs, "jvp", "inputs")
    if v is None:
        if len(xs) != 1 or xs[0].size != 1:
            raise RuntimeError(
                "jvp: v may be omitted only when there is one input with a single element; "
                f"the inputs have shapes {[x.shape for x in xs]}"
            )
        vs: tuple[Tensor, ...] = (ops.scale(zeros_like(xs[0]), 1.0, 1.0),)
    else:
        vs = check_vector(v, xs, "jvp", "v", "inputs")
    xs = prepare_inputs(xs, create_graph, "jvp")
    out_tuple, ys, ts = forward_tangents(func, xs, vs, "jvp")
    result = []
    for i, (y, t) in enumerate(zip(ys, ts, strict=True)):
        if t is None:
            if strict:
                raise RuntimeError(
                    f"jvp: output {i} of the user-provided function is independent of the inputs; "
                    "this is not allowed in strict mode"
                )
            t = zeros_like(y)
        result.append(t)
    return unpack(out_tuple, finish(ys, create_graph)), unpack(out_tuple, finish(result, create_graph))


def forward_tangents(
    func: Callable[..., Any], xs: tuple[Tensor, ...], vs: tuple[Tensor, ...], fn: str
) -> tuple[bool, tuple[Tensor, ...], list[Tensor | None]]:
    """Run func on dual inputs (xs, vs); (tuple?, primal outputs, their tangents)."""
    with forward_ad.dual_level():
        duals = tuple(forward_ad.make_dual(x, t) for x, t in zip(xs, vs, strict=True))
        out_tuple, ys = call(func, duals, fn)
        unpacked = [forward_ad.unpack_dual(y) for y in ys]
    return out_tuple, tuple(p for p, _ in unpacked), [t for _, t in unpacked]


# -- jacobian / hessian -------------------------------------------------------------------------
def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """d func(*inputs) / d inputs: for one input and one output a tensor of shape
    `out.shape + in.shape`; otherwise a tuple (per output) of tuples (per input).
    `strategy="reverse-mode"` builds one row per output element (a vjp each), or with
    `vectorize=True` all rows of an output in one batched backward pass (`og.grad(...,
    is_grads_batched=True)`); `"forward-mode"` one column per input element (a jvp each), or
    with `vectorize=True` (and not `strict`) all columns of an input in one batched pass
    (`jacobian_columns`) where it can."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError(f'jacobian: strategy must be "reverse-mode" or "forward-mode", got {strategy!r}')
    if not isinstance(vectorize, bool):
        raise TypeError(f"jacobian: vectorize must be a bool, got {type(vectorize).__name__}")
    in_tuple, xs = as_tuple(inputs, "jacobian", "inputs")
    xs = prepare_inputs(xs, create_graph, "jacobian")
    if strategy == "forward-mode":
        if create_graph:
            raise ValueError(
                'jacobian: strategy="forward-mode" does not support create_graph=True, as in PyTorch'
            )
        columns = None
        if vectorize and not strict and all(x.dtype.kind == "f" for x in xs):
            out_tuple, ys = call(func, xs, "jacobian")
            columns = jacobian_columns(ys, xs, False)
        if columns is None:
            out_tuple, ys, table = jacobian_forward(func, xs, strict)
        else:
            table = columns
    else:
        out_tuple, ys = call(func, xs, "jacobian")
        table = jacobian_reverse(ys, xs, create_graph, strict, vectorize)
    table = [[j if create_graph else j.detach() for j in row] for row in table]
    rows = [unpack(in_tuple, row) for row in table]
    return unpack(out_tuple, rows)


def jacobian_reverse(
    ys: tuple[Tensor, ...],
    xs: tuple[Tensor, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool = False,
    chunk_size: int | None = None,
) -> list[list[Tensor]]:
    """[output][input] Jacobian blocks by reverse mode: one vjp per output element, or with
    `vectorize` one batched vjp per output (its identity as the batch of seeds; `chunk_size`
    rows per pass when given). An output of one element takes the ordinary pass either way."""
    table = []
    for i, y in enumerate(ys):
        if strict and not y.requires_grad:
            raise RuntimeError(
                f"jacobian: output {i} of the user-provided function is independent of every input; "
                "this is not allowed in strict mode"
            )
        if vectorize and y.size > 1:
            table.append(_batched_rows(y, xs, create_graph, strict, f"output {i}", chunk_size or y.size))
            continue
        rows: list[list[Tensor]] = [[] for _ in xs]
        for k in range(y.size):
            seed = basis(y, k)
            gs = grads_or_zeros([y], xs, [seed], create_graph, strict, "jacobian", f"output {i}")
            for j, g in enumerate(gs):
                rows[j].append(g)
        table.append([stack_rows(rows[j], y.shape, x.shape, x) for j, x in enumerate(xs)])
    return table


def _batched_rows(
    y: Tensor, xs: tuple[Tensor, ...], create_graph: bool, strict: bool, what: str, chunk: int
) -> list[Tensor]:
    """The Jacobian blocks of y, `chunk` rows per batched backward pass."""
    n = y.size
    parts: list[list[Tensor]] = []
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        seeds = zeros((stop - start, n), dtype=y.dtype)
        xp = array_module(seeds._data)
        seeds._data[...] = xp.eye(stop - start, n, start, dtype=y.dtype)
        seeds = ops.reshape(seeds, [stop - start, *y.shape])
        parts.append(
            grads_or_zeros([y], xs, [seeds], create_graph, strict, "jacobian", what, batch=stop - start)
        )
    blocks = []
    for j, x in enumerate(xs):
        rows = parts[0][j] if len(parts) == 1 else ops.concat([p[j] for p in parts], 0)
        blocks.append(ops.reshape(rows, list(y.shape) + list(x.shape)))
    return blocks


def jacobian_columns(
    ys: tuple[Tensor, ...], xs: tuple[Tensor, ...], record: bool
) -> list[list[Tensor]] | None:
    """[output][input] Jacobian blocks by the transpose trick, batched: with u a zero
    cotangent that requires grad, g(u) = Jᵀu is linear in u, so the gradient of g with respect
    to u seeded with e_k is column k of J; one batched pass gives all columns of an input,
    recorded when `record`. None when an output is not real, hooks or custom Functions are
    on the way, or some op's backward has no backward of its own: the caller then runs
    forward mode column by column."""
    if any(y.dtype.kind not in "fiub" for y in ys):
        return None
    if needs_row_loop([edge_to(y) for y in ys if y.requires_grad], list(xs)):
        return None  # hooks or custom Functions on the way: keep them out of a forward-mode call
    try:
        with enable_grad():
            us = [zeros_like(y).requires_grad_() for y in ys]
            gs = grads_or_zeros(ys, xs, us, True, False, "jacfwd")
            table: list[list[Tensor]] = [[] for _ in ys]
            for x, g in zip(xs, gs, strict=True):
                n = x.size
                seeds = zeros((n, n), dtype=x.dtype)
                seeds._data[...] = array_module(seeds._data).eye(n, dtype=x.dtype)
                seeds = ops.reshape(seeds, [n, *x.shape])
                if n:
                    cols = grads_or_zeros([g], us, [seeds], record, False, "jacfwd", batch=n)
                else:
                    cols = [zeros((0, *y.shape), dtype=y.dtype) for y in ys]
                for i, (y, c) in enumerate(zip(ys, cols, strict=True)):
                    flat = ops.transpose(ops.reshape(c, [n, y.size]), [1, 0])
                    table[i].append(ops.reshape(flat, list(y.shape) + list(x.shape)))
    except RuntimeError:
        return None  # a backward that cannot be differentiated (no double backward)
    if not record:
        table = [[b.detach() for b in row] for row in table]
    return table


def jacobian_forward(
    func: Callable[..., Any], xs: tuple[Tensor, ...], strict: bool
) -> tuple[bool, tuple[Tensor, ...], list[list[Tensor]]]:
    columns: list[list[list[Tensor | None]]] = []  # [input][element][output]
    out_tuple, ys = False, cast("tuple[Tensor, ...]", ())
    for j, x in enumerate(xs):
        cols: list[list[Tensor | None]] = []
        for k in range(max(x.size, 1) if x.size else 0):
            vs = tuple(basis(x, k) if i == j else zeros_like(xi) for i, xi in enumerate(xs))
            out_tuple, ys, ts = forward_tangents(func, xs, vs, "jacobian")
            cols.append(ts)
        columns.append(cols)
    if not ys:
        out_tuple, ys = call(func, xs, "jacobian")
    table: list[list[Tensor]] = []
    for i, y in enumerate(ys):
        row: list[Tensor] = []
        for j, x in enumerate(xs):
            if strict and any(c[i] is None for c in columns[j]):
                raise RuntimeError(
                    f"jacobian: output {i} of the user-provided function is independent of input {j}; "
                    "this is not allowed in strict mode"
                )
            filled = [zeros_like(y) if (ci := c[i]) is None else ci for c in columns[j]]
            if filled:
                stacked = ops.stack([ops.reshape(c, [-1]) for c in filled], 1)
            else:
                stacked = zeros((y.size, 0), dtype=y.dtype)
            row.append(ops.reshape(stacked, list(y.shape) + list(x.shape)))
        table.append(row)
    return out_tuple, tuple(y.detach() for y in ys), table


def basis(like: Tensor, k: int) -> Tensor:
    """A tensor of `like`'s shape and dtype, one at flat index k, zeros elsewhere."""
    flat = zeros((like.size,), dtype=like.dtype)
    flat._data[k] = 1
    return ops.reshape(flat, list(like.shape))


def stack_rows(
    rows: list[Tensor], out_shape: tuple[int, ...], in_shape: tuple[int, ...], x: Tensor
) -> Tensor:
    if not rows:
        return zeros(tuple(out_shape) + tuple(in_shape), dtype=x.dtype)
    return ops.reshape(ops.stack(rows, 0), list(out_shape) + list(in_shape))


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a function returning a one-element tensor: for one input a tensor of
    shape `in.shape + in.shape`, otherwise a tuple of tuples H[i][j]."""
    in_tuple, xs = as_tuple(inputs, "hessian", "inputs")

    def gradient(*args: Tensor) -> Any:
        out_tuple, ys = call(func, args, "hessian")
        if out_tuple or len(ys) != 1 or ys[0].size != 1:
            raise RuntimeError(
                "hessian: func must return a single tensor with one element; "
                f"it returned shapes {[y.shape for y in ys]}"
            )
        if strict:
            check_outputs_depend(ys, "hessian")
        gs = grads_or_zeros(ys, args, [ops.scale(zeros_like(ys[0]), 1.0, 1.0)], True, strict, "hessian")
        return unpack(in_tuple, gs)

    return jacobian(gradient, unpack(in_tuple, xs), create_graph, strict, vectorize, outer_jacobian_strategy)


def vhp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(*inputs), vᵀ H) for a function returning a one-element tensor."""
    return second_order(func, inputs, v, create_graph, strict, "vhp")


def hvp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(*inputs), H v) for a function returning a one-element tensor (H is symmetric
    for twice-differentiable functions, so this equals vhp; computed the same way)."""
    return second_order(func, inputs, v, create_graph, strict, "hvp")


def second_order(
    func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, strict: bool, fn: str
) -> tuple[Any, Any]:
    in_tuple, xs = as_tuple(inputs, fn, "inputs")
    xs = prepare_inputs(xs, create_graph, fn)
    if v is None:
        if len(xs) != 1 or xs[0].size != 1:
            raise RuntimeError(f"{fn}: v may be omitted only when there is one input with a single element")
        vs: tuple[Tensor, ...] = (ops.scale(zeros_like(xs[0]), 1.0, 1.0),)
    else:
        vs = check_vector(v, xs, fn, "v", "inputs")
    out_tuple, ys = call(func, xs, fn)
    if out_tuple or len(ys) != 1 or ys[0].size != 1:
        raise RuntimeError(
            f"{fn}: func must return a single tensor with one element; it returned {len(ys)} tensors"
        )
    if strict:
        check_outputs_depend(ys, fn)
    gs = grads_or_zeros(ys, xs, [ops.scale(zeros_like(ys[0]), 1.0, 1.0)], True, strict, fn)
    hs = grads_or_zeros(gs, xs, list(vs), create_graph, strict, fn, "gradient")
    return finish(ys, create_graph)[0], unpack(in_tuple, finish(hs, create_graph))
