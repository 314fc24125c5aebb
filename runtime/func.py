"""`og.func`: composable function transforms (grad, grad_and_value, vjp, jvp, jacrev, jacfwd,
hessian, vmap), in the spelling of `torch.func` and JAX, and `functional_call` (a module as a
function of its parameters, runtime/nn/stateless.py).

opgrad records an eager tape, so the transforms compose by recording every derivative
(`create_graph=True`): an inner transform's result is an ordinary recorded function of its
inputs, which an outer transform differentiates again. Each call differentiates with respect
to fresh aliases of its own arguments, so nested levels never confuse one another's
perturbations: `grad(lambda x: x * grad(lambda y: x + y)(c))(a)` is 1. `jacfwd` and `jvp` use
forward mode (`og.autograd.forward_ad`); opgrad has one dual level at a time, so inside an
open level they fall back to the double-vjp trick in reverse mode. `jacfwd` uses that trick
batched over all columns whenever it can (`functional.jacobian_columns`), forward mode otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from opgrad.generated import ops
from opgrad.runtime.creation import zeros_like
from opgrad.runtime.dual import FORWARD
from opgrad.runtime.functional import (
    as_tuple,
    basis,
    forward_tangents,
    grads_or_zeros,
    jacobian_columns,
    jacobian_reverse,
    prepare_inputs,
    recording_needed,
    unpack,
)
from opgrad.runtime.grad_mode import enable_grad
from opgrad.runtime.nn.stateless import functional_call
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.vmap import vmap

Argnums = int | tuple[int, ...]

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "vjp", "vmap"]


def _argnums(argnums: int | tuple[int, ...], n: int, fn: str) -> tuple[bool, tuple[int, ...]]:
    many = isinstance(argnums, tuple)
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for a in nums:
        if not isinstance(a, int) or isinstance(a, bool):
            raise TypeError(f"{fn}: argnums must be an int or a tuple of ints, got {argnums!r}")
        if not -n <= a < n:
            raise IndexError(f"{fn}: argnums {a} is out of range for {n} positional arguments")
    return many, tuple(a % n for a in nums)


def _split_aux(result: Any, has_aux: bool, fn: str) -> tuple[Any, Any]:
    if not has_aux:
        return result, None
    if not isinstance(result, tuple) or len(result) != 2:
        raise TypeError(f"{fn}: with has_aux=True the function must return a pair (output, aux)")
    return result


def _aliased(args: tuple[Any, ...], nums: tuple[int, ...], fn: str) -> tuple[list[Any], tuple[Tensor, ...]]:
    new = list(args)
    for i in nums:
        if not isinstance(args[i], Tensor):
            raise TypeError(
                f"{fn}: argument {i} is differentiated, so it must be a Tensor, got {type(args[i]).__name__}"
            )
    xs = prepare_inputs(tuple(args[i] for i in nums), True, fn)
    for i, x in zip(nums, xs, strict=True):
        new[i] = x
    return new, xs


def grad_and_value(
    func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """A function returning (gradient, value) of `func` (a one-element result) with respect
    to the arguments `argnums`; with `has_aux`, func returns (value, aux) and the result is
    (gradient, (value, aux))."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        many, nums = _argnums(argnums, len(args), "grad")
        new, xs = _aliased(args, nums, "grad")
        with enable_grad():
            out, aux = _split_aux(func(*new, **kwargs), has_aux, "grad")
        if not isinstance(out, Tensor) or out.size != 1:
            raise RuntimeError(
                "grad: the function must return a tensor with a single element, got "
                f"{out.shape if isinstance(out, Tensor) else type(out).__name__}"
            )
        gs = grads_or_zeros([out], xs, [ops.scale(zeros_like(out), 1.0, 1.0)], True, False, "grad")
        g = tuple(gs) if many else gs[0]
        return (g, (out, aux)) if has_aux else (g, out)

    return wrapper


def grad(func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False) -> Callable[..., Any]:
    """A function returning the gradient of `func` (a one-element result) with respect to
    the arguments `argnums` (a tuple of gradients for a tuple); with `has_aux`, (grad, aux)."""
    inner = grad_and_value(func, argnums, has_aux)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g, value = inner(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def vjp(func: Callable[..., Any], *primals: Tensor, has_aux: bool = False) -> tuple[Any, ...]:
    """(func(*primals), vjp_fn[, aux]); `vjp_fn(cotangents)` returns one gradient per primal
    (a tuple) and may be called many times."""
    _, xs = _aliased(primals, tuple(range(len(primals))), "vjp")
    with enable_grad():
        out, aux = _split_aux(func(*xs), has_aux, "vjp")
    out_tuple, ys = as_tuple(out, "vjp", "the value returned by func")

    def vjp_fn(cotangents: Any) -> tuple[Tensor, ...]:
        _, vs = as_tuple(cotangents, "vjp_fn", "cotangents")
        if len(vs) != len(ys):
            raise ValueError(f"vjp_fn: got {len(vs)} cotangents for {len(ys)} outputs")
        for i, (v, y) in enumerate(zip(vs, ys, strict=True)):
            if v.shape != y.shape:
                raise ValueError(
                    f"vjp_fn: cotangents[{i}] has shape {v.shape} but output {i} has shape {y.shape}"
                )
        return tuple(grads_or_zeros(ys, xs, vs, True, False, "vjp"))

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def jvp(
    func: Callable[..., Any], primals: tuple[Tensor, ...], tangents: tuple[Tensor, ...], has_aux: bool = False
) -> tuple[Any, ...]:
    """(func(*primals), J tangents[, aux]) in forward mode (reverse-mode double-vjp when a
    dual level is already open)."""
    if not isinstance(primals, tuple) or not isinstance(tangents, tuple):
        raise TypeError("jvp: primals and tangents must be tuples of Tensors")
    if len(primals) != len(tangents):
        raise ValueError(
            f"jvp: {len(primals)} primals but {len(tangents)} tangents; give one tangent per primal"
        )
    for i, (p, t) in enumerate(zip(primals, tangents, strict=True)):
        if not isinstance(p, Tensor) or not isinstance(t, Tensor):
            raise TypeError(f"jvp: primals[{i}] and tangents[{i}] must be Tensors")
        if p.shape != t.shape:
            raise ValueError(f"jvp: tangents[{i}] has shape {t.shape} but primals[{i}] has shape {p.shape}")
    _, xs = _aliased(primals, tuple(range(len(primals))), "jvp")
    aux_box: list[Any] = []

    def body(*a: Tensor) -> Any:
        out, aux = _split_aux(func(*a), has_aux, "jvp")
        aux_box.append(aux)
        return out

    out_tuple, ys, ts = _tangents(body, xs, tangents)
    ts = [zeros_like(y) if t is None else t for y, t in zip(ys, ts, strict=True)]
    result = (unpack(out_tuple, ys), unpack(out_tuple, ts))
    return (*result, aux_box[-1]) if has_aux else result


def _tangents(
    func: Callable[..., Any], xs: tuple[Tensor, ...], vs: tuple[Tensor, ...]
) -> tuple[bool, tuple[Tensor, ...], list[Tensor | None]]:
    """Output tangents for input tangents vs: forward mode, or the double-vjp trick when a
    dual level is already open (one level at a time)."""
    if not FORWARD.level:
        return forward_tangents(func, xs, vs, "jvp")
    with enable_grad():
        out_tuple, ys = as_tuple(func(*xs), "jvp", "the value returned by func")
        us = [zeros_like(y).requires_grad_() for y in ys]
        gs = grads_or_zeros(ys, xs, us, True, False, "jvp")
        ts = grads_or_zeros(gs, us, list(vs), True, False, "jvp")
    return out_tuple, ys, list(ts)


def jacrev(
    func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False, *, chunk_size: int | None = None
) -> Callable[..., Any]:
    """A function returning the Jacobian of `func` with respect to `argnums`: shape
    `out.shape + in.shape`, tuples for tuples. All rows of an output come from one batched
    vjp (`og.grad(..., is_grads_batched=True)`), as torch.func.jacrev vectorises them;
    `chunk_size` rows at a time when given (less memory for large Jacobians)."""
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise ValueError(f"jacrev: chunk_size must be a positive int or None, got {chunk_size!r}")

    def wrapper(*args: Any) -> Any:
        many, nums = _argnums(argnums, len(args), "jacrev")
        new, xs = _aliased(args, nums, "jacrev")
        with enable_grad():
            out, aux = _split_aux(func(*new), has_aux, "jacrev")
        out_tuple, ys = as_tuple(out, "jacrev", "the value returned by func")
        table = jacobian_reverse(
            ys, xs, recording_needed(ys, xs), False, vectorize=True, chunk_size=chunk_size
        )
        rows = [tuple(row) if many else row[0] for row in table]
        jac = unpack(out_tuple, rows)
        return (jac, aux) if has_aux else jac

    return wrapper


def jacfwd(func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False) -> Callable[..., Any]:
    """A function returning the Jacobian of `func` with respect to `argnums`: the same layout
    as `jacrev`, built column by column. For real tensors all columns of an input come from
    one batched pass (`functional.jacobian_columns`); otherwise, or when some op's backward cannot be
    differentiated, one forward-mode jvp per input element."""

    def wrapper(*args: Any) -> Any:
        many, nums = _argnums(argnums, len(args), "jacfwd")
        new, xs = _aliased(args, nums, "jacfwd")
        aux_box: list[Any] = []

        def body(*a: Tensor) -> Any:
            call = list(new)
            for i, x in zip(nums, a, strict=True):
                call[i] = x
            out, aux = _split_aux(func(*call), has_aux, "jacfwd")
            aux_box.append(aux)
            return out

        if all(x.dtype.kind == "f" for x in xs):
            with enable_grad():
                returned_tuple, returned = as_tuple(body(*xs), "jacfwd", "the value returned by func")
            blocks = jacobian_columns(returned, xs, recording_needed(returned, xs))
            if blocks is not None:
                jac = unpack(returned_tuple, [tuple(row) if many else row[0] for row in blocks])
                return (jac, aux_box[-1]) if has_aux else jac

        columns: list[list[list[Tensor | None]]] = []
        ys: tuple[Tensor, ...] = ()
        out_tuple = False
        for j, x in enumerate(xs):
            cols = []
            for k in range(x.size):
                vs = tuple(basis(x, k) if i == j else zeros_like(xi) for i, xi in enumerate(xs))
                out_tuple, ys, ts = _tangents(body, xs, vs)
                cols.append(ts)
            columns.append(cols)
        if not ys:
            with enable_grad():
                out_tuple, ys = as_tuple(body(*xs), "jacfwd", "the value returned by func")
        table = []
        for i, y in enumerate(ys):
            row = []
            for j, x in enumerate(xs):
                filled = [zeros_like(y) if (ci := c[i]) is None else ci for c in columns[j]]
                flat = [ops.reshape(c, [-1]) for c in filled]
                stacked = ops.stack(flat, 1) if flat else ops.reshape(zeros_like(y), [-1, 0])
                row.append(ops.reshape(stacked, list(y.shape) + list(x.shape)))
            table.append(tuple(row) if many else row[0])
        jac = unpack(out_tuple, table)
        return (jac, aux_box[-1]) if has_aux else jac

    return wrapper


def hessian(func: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., Any]:
    """The Hessian of `func` (a one-element result) with respect to `argnums`:
    `jacrev(jacrev(func))`: the gradient, then all its rows in one batched backward pass
    through the gradient's recorded graph. `jacfwd(jacrev(func))` (torch.func.hessian's
    composition) gives the same matrix through a third-order graph, so it is slower here."""
    return jacrev(jacrev(func, argnums), argnums)
