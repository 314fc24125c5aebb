"""Attention kernels: two-operand einsum and scaled_dot_product_attention, their grads and
double grads.

einsum's gradient for one operand is an einsum of the output gradient with the other
operand, into the first operand's subscripts; an index that only that operand has (summed
away on its own) gets the gradient broadcast along it.

scaled_dot_product_attention saves the attention weights (after softmax, before dropout)
and the dropout keep-mask as intermediates, so its grad kernel needs no second softmax.
Masked scores are -inf; a row whose every score is masked gets weights 0 (PyTorch's "safe
softmax"), so its output and gradients are 0 rather than NaN. dropout_p > 0 drops weights
with probability dropout_p and scales the rest by 1 / (1 - dropout_p), drawing from
`generator_for(xp)` (`og.manual_seed`); pass dropout_p=0 outside training.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from opgrad.runtime.kernels.common import array_module, nd, unbroadcast
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel
from opgrad.runtime.random import generator_for

# --- einsum ---------------------------------------------------------------------------------


def _parse_equation(equation: Any, x: Any, y: Any) -> tuple[str, str, str]:
    """(x subscripts, y subscripts, output subscripts), after checking them against x and y."""
    if not isinstance(equation, str):
        raise TypeError(
            f"einsum: equation must be a string like 'bij,bjk->bik', got {type(equation).__name__}"
        )
    eq = equation.replace(" ", "")
    if "." in eq:
        raise ValueError(f"einsum: ellipsis ('...') is not supported; got {equation!r}")
    lhs, arrow, out = eq.partition("->")
    operands = lhs.split(",")
    if len(operands) != 2:
        raise ValueError(
            f"einsum: equation must have exactly two operands (like 'bij,bjk->bik'), "
            f"got {len(operands)} in {equation!r}"
        )
    xs, ys = operands
    for name, subs in (("x", xs), ("y", ys), ("output", out)):
        if not all(ch.isascii() and ch.isalpha() for ch in subs):
            raise ValueError(f"einsum: subscripts must be letters; {name} has {subs!r} in {equation!r}")
        repeated = sorted({ch for ch in subs if subs.count(ch) > 1})
        if repeated:
            raise ValueError(
                f"einsum: index {repeated[0]!r} is repeated within the {name} subscripts {subs!r} of "
                f"{equation!r} (diagonals and traces are not supported)"
            )
    if not arrow:  # NumPy's implicit output: the indices that appear once, sorted
        both = xs + ys
        out = "".join(sorted(ch for ch in set(both) if both.count(ch) == 1))
    unknown = sorted(set(out) - set(xs) - set(ys))
    if unknown:
        raise ValueError(f"einsum: output index {unknown[0]!r} of {equation!r} appears in neither operand")
    sizes: dict[str, int] = {}
    for name, subs, arr in (("x", xs, x), ("y", ys, y)):
        if len(subs) != arr.ndim:
            raise ValueError(
                f"einsum: {name} has {arr.ndim} dimensions (shape {tuple(arr.shape)}) but "
                f"{len(subs)} subscripts {subs!r} in {equation!r}"
            )
        for ch, n in zip(subs, arr.shape, strict=True):
            if sizes.setdefault(ch, n) != n:
                raise ValueError(
                    f"einsum: index {ch!r} of {equation!r} has size {sizes[ch]} in x and {n} in y "
                    f"(x shape {tuple(x.shape)}, y shape {tuple(y.shape)})"
                )
    return xs, ys, out


def _einsum(xp: Any, eq: str, a: Any, b: Any) -> Any:
    if a.size == 0 or b.size == 0:
        # Each output entry sums products that all take a factor from an empty axis: 0, or
        # the output is empty. A contraction order that sums one operand first gives
        # 0 * nan = nan next to a nan or inf in the other (PyTorch too, there).
        lhs, _, out = eq.partition("->")
        xs, ys = lhs.split(",")
        sizes = dict(zip(xs, a.shape, strict=True)) | dict(zip(ys, b.shape, strict=True))
        return xp.zeros(tuple(sizes[ch] for ch in out), xp.result_type(a, b))
    if xp is np:
        return nd(np.einsum(eq, a, b, optimize=True))
    return xp.einsum(eq, a, b)


@register_kernel("einsum")
def einsum(x, y, equation):
    xs, ys, out = _parse_equation(equation, x, y)
    return _einsum(array_module(x, y), f"{xs},{ys}->{out}", x, y)


def _operand_grad(xp: Any, out_grad: Any, out: str, other: Any, os_: str, mine: str, like: Any) -> Any:
    """Gradient for the operand with subscripts `mine` (shape/dtype of `like`)."""
    reachable = "".join(ch for ch in mine if ch in out or ch in os_)
    g = _einsum(xp, f"{out},{os_}->{reachable}", out_grad, other)
    if reachable != mine:  # indices summed in this operand alone: broadcast the gradient along them
        shape = tuple(n if ch in reachable else 1 for ch, n in zip(mine, like.shape, strict=True))
        g = xp.broadcast_to(g.reshape(shape), like.shape)
    return xp.ascontiguousarray(g).astype(like.dtype, copy=False)


@register_kernel("einsum_grad")
def einsum_grad(x, y, out_grad, equation):
    xs, ys, out = _parse_equation(equation, x, y)
    xp = array_module(x, y)
    return (
        _operand_grad(xp, out_grad, out, y, ys, xs, x),
        _operand_grad(xp, out_grad, out, x, xs, ys, y),
    )


@register_kernel("einsum_double_grad")
def einsum_double_grad(x, y, out_grad, x_grad_grad, y_grad_grad, equation):
    # einsum is bilinear: d(out_grad) is the forward applied to the incoming grads, and each
    # operand's gradient is einsum_grad with the other operand replaced by its incoming grad.
    grad_wrt_x = einsum_grad(x, y_grad_grad, out_grad, equation)[0]
    grad_wrt_y = einsum_grad(x_grad_grad, y, out_grad, equation)[1]
    grad_wrt_out_grad = einsum(x_grad_grad, y, equation) + einsum(x, y_grad_grad, equation)
    return grad_wrt_x, grad_wrt_y, nd(unbroadcast(grad_wrt_out_grad, out_grad.shape, out_grad.dtype))


# --- scaled_dot_product_attention ------------------------------------------------------------


def _check_attention(query: Any, key: Any, value: Any, mask: Any, dropout_p: Any) -> None:
    op = "scaled_dot_product_attention"
    for name, t in (("query", query), ("key", key), ("value", value)):
        if t.ndim < 2:
            raise ValueError(f"{op}: {name} must be at least 2-D (..., seq, head_dim), got shape {t.shape}")
        if t.dtype.kind != "f":
            raise TypeError(f"{op}: {name} must be a floating tensor, got dtype {t.dtype}")
    if query.shape[-1] != key.shape[-1]:
        raise ValueError(
            f"{op}: query has shape {query.shape} and key has shape {key.shape}; expected equal head_dim "
            f"(last axis): {query.shape[-1]} != {key.shape[-1]}"
        )
    if key.shape[-2] != value.shape[-2]:
        raise ValueError(
            f"{op}: key has shape {key.shape} and value has shape {value.shape}; expected the same "
            f"sequence length (axis -2): {key.shape[-2]} != {value.shape[-2]}"
        )
    try:
        batch = np.broadcast_shapes(query.shape[:-2], key.shape[:-2], value.shape[:-2])
    except ValueError:
        raise ValueError(
            f"{op}: query has shape {query.shape}, key {key.shape} and value {value.shape}; expected "
            "batch dimensions (all but the last two) that broadcast together"
        ) from None
    scores = batch + (query.shape[-2], key.shape[-2])
    if mask is not None:
        if mask.dtype.kind not in "bf":
            raise TypeError(f"{op}: mask must be a bool or floating tensor, got dtype {mask.dtype}")
        try:
            np.broadcast_shapes(mask.shape, scores)
        except ValueError:
            raise ValueError(
                f"{op}: mask has shape {mask.shape}; expected a shape that broadcasts to the scores' {scores}"
            ) from None
    if isinstance(dropout_p, bool) or not isinstance(dropout_p, (int, float)) or not 0 <= dropout_p < 1:
        raise ValueError(f"{op}: dropout_p must be a number in [0, 1), got {dropout_p!r}")


def _row_sum(xp: Any, a: Any, b: Any = None) -> Any:
    """sum(a, axis=-1) or sum(a * b, axis=-1), keepdims, through einsum: no product array,
    and on rows as short as attention's several times faster than `sum(axis=-1)`."""
    total = xp.einsum("...k->...", a) if b is None else xp.einsum("...k,...k->...", a, b)
    return total[..., None]


def _scale(query: Any, scale: Any) -> float:
    return 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)


@register_kernel("scaled_dot_product_attention")
@float32_inside
def scaled_dot_product_attention(query, key, value, mask=None, dropout_p=0.0, causal=False, scale=None):
    _check_attention(query, key, value, mask, dropout_p)
    xp = array_module(query, key, value)
    scores = xp.matmul(query, xp.swapaxes(key, -1, -2))
    scores *= _scale(query, scale)
    if mask is not None and mask.dtype.kind == "b":
        scores = xp.where(mask, scores, -xp.inf)
    elif mask is not None:
        scores = scores + mask
    if causal:  # copyto broadcasts the (Lq, Lk) mask: no index arrays over the batch
        lq, lk = scores.shape[-2:]
        xp.copyto(scores, -xp.inf, where=~xp.tri(lq, lk, dtype=bool))
    top = scores.max(axis=-1, keepdims=True)
    top[~xp.isfinite(top)] = 0  # a fully masked row: exp(-inf) = 0 everywhere
    scores -= top
    weights = xp.exp(scores, out=scores)
    total = _row_sum(xp, weights)
    total[total == 0] = 1  # fully masked rows keep weights 0
    weights /= total
    if dropout_p > 0:
        keep = generator_for(xp).random(weights.shape, dtype=np.float32) >= dropout_p
        dropped = weights * keep * (1.0 / (1.0 - dropout_p))
    else:
        keep = xp.broadcast_to(xp.ones((), dtype=bool), weights.shape)
        dropped = weights
    out = xp.matmul(dropped, value)
    return out, weights, keep


@register_kernel("scaled_dot_product_attention_grad")
@float32_inside
def scaled_dot_product_attention_grad(
    query, key, value, mask, weights, keep, out_grad, dropout_p=0.0, causal=False, scale=None
):
    xp = array_module(query, key, value)
    s = _scale(query, scale)
    dropped = weights * keep * (1.0 / (1.0 - dropout_p)) if dropout_p > 0 else weights
    value_grad = xp.matmul(xp.swapaxes(dropped, -1, -2), out_grad)
    d_weights = xp.matmul(out_grad, xp.swapaxes(value, -1, -2))
    if dropout_p > 0:
        d_weights = d_weights * keep * (1.0 / (1.0 - dropout_p))
    # d_scores = weights * (d_weights - rowsum(d_weights * weights)), in d_weights' buffer
    # when it is a fresh array of the weights' shape (no dropout, no broadcast batch)
    row = _row_sum(xp, d_weights, weights)
    if d_weights.shape == weights.shape and d_weights.dtype == weights.dtype:
        d_weights -= row
        d_weights *= weights
        d_scores = d_weights
    else:
        d_scores = weights * (d_weights - row)
    query_grad = xp.matmul(d_scores, key)
    query_grad *= s
    key_grad = xp.matmul(xp.swapaxes(d_scores, -1, -2), query)
    key_grad *= s
    mask_grad = None
    if mask is not None and mask.dtype.kind == "f":
        mask_grad = unbroadcast(d_scores, mask.shape, mask.dtype)
    return (
        unbroadcast(query_grad, query.shape, query.dtype),
        unbroadcast(key_grad, key.shape, key.dtype),
        unbroadcast(value_grad, value.shape, value.dtype),
        mask_grad,
    )


@register_kernel("scaled_dot_product_attention_double_grad")
@float32_inside
def scaled_dot_product_attention_double_grad(
    query,
    key,
    value,
    mask,
    weights,
    keep,
    out_grad,
    query_grad_grad,
    key_grad_grad,
    value_grad_grad,
    mask_grad_grad,
    dropout_p=0.0,
    causal=False,
    scale=None,
):
    # S = s q k^T + mask, P = softmax(S) (saved), D = P * K (dropout), out = D v. The first-order
    # gradients of q, k and mask all come from dS, so the incoming grads act through
    # dS_dot = s (ddq k^T + q ddk^T) + ddm, the directional derivative of S; P_dot is its
    # image under softmax's (symmetric) Jacobian.
    xp = array_module(query, key, value)
    s = _scale(query, scale)
    kf = keep * (1.0 / (1.0 - dropout_p)) if dropout_p > 0 else None

    def t(a: Any) -> Any:
        return xp.swapaxes(a, -1, -2)

    def drop(a: Any) -> Any:
        return a if kf is None else a * kf

    def svjp(p: Any, a: Any) -> Any:
        return p * (a - (a * p).sum(axis=-1, keepdims=True))

    p = weights
    d = drop(p)
    dp = drop(xp.matmul(out_grad, t(value)))  # dL/dP
    ds = svjp(p, dp)  # dL/dS
    s_dot = s * (xp.matmul(query_grad_grad, t(key)) + xp.matmul(query, t(key_grad_grad)))
    if mask_grad_grad is not None:
        s_dot = s_dot + mask_grad_grad
    p_dot = svjp(p, s_dot)
    grad_wrt_out_grad = xp.matmul(drop(p_dot), value) + xp.matmul(d, value_grad_grad)
    grad_wrt_value = xp.matmul(t(drop(p_dot)), out_grad)
    # d/dS of <ds, s_dot> (through P) plus of <P, E> with E = (g ddv^T) * K
    e = drop(xp.matmul(out_grad, t(value_grad_grad)))
    through_p = (
        e
        + dp * s_dot
        - s_dot * (dp * p).sum(axis=-1, keepdims=True)
        - dp * (p * s_dot).sum(axis=-1, keepdims=True)
    )
    h = svjp(p, through_p)
    grad_wrt_query = s * (xp.matmul(h, key) + xp.matmul(ds, key_grad_grad))
    grad_wrt_key = s * (xp.matmul(t(h), query) + xp.matmul(t(ds), query_grad_grad))
    grad_wrt_mask = None
    if mask is not None and mask.dtype.kind == "f":
        grad_wrt_mask = unbroadcast(h, mask.shape, mask.dtype)
    return (
        unbroadcast(grad_wrt_query, query.shape, query.dtype),
        unbroadcast(grad_wrt_key, key.shape, key.dtype),
        unbroadcast(grad_wrt_value, value.shape, value.dtype),
        grad_wrt_mask,
        unbroadcast(grad_wrt_out_grad, out_grad.shape, out_grad.dtype),
    )
