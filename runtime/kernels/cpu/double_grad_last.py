"""Double-grad kernels for the norms, attention, cumprod, norm and three losses (second order).

Each kernel differentiates a grad op of backward.yaml (`# --- higher-order for the last ops`):
it takes the grad op's tensors, then the gradients of the grad op's outputs (None for the
gradient of an absent optional input's gradient: `weight_grad_grad` without a weight), then
the forward op's attributes. Saved statistics and weights (`mean`, `rstd`, attention
`weights`, `out`) are functions of the inputs: their dependence is folded into the inputs'
gradients (total derivatives), so they get no gradient of their own.
"""

from __future__ import annotations

import math
from typing import Any

from opgrad.runtime.kernels.common import (
    array_module,
    broadcast_shapes,
    keepdim_shape,
    nd,
    normalize_axis,
    unbroadcast,
)
from opgrad.runtime.kernels.cpu.activations import _halves, _sigmoid
from opgrad.runtime.kernels.cpu.attention import _scale
from opgrad.runtime.kernels.cpu.cnn import _channel_shape, _grouped, _groups, _layer_axes
from opgrad.runtime.kernels.cpu.indexing import _reverse_cumsum, _scan_axis, _scan_view
from opgrad.runtime.kernels.cpu.indexing import cumprod_grad as _cumprod_grad
from opgrad.runtime.kernels.cpu.losses import _kl_count, _softplus_neg, _spread
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import register_kernel

# --- layer_norm, group_norm, batch_norm ----------------------------------------------------------


def _norm_double(xhat: Any, r: Any, g: Any, w: Any, ddx: Any, ddw: Any, ddb: Any, axes: tuple) -> tuple:
    """Second-order terms of xhat = (x - mean) * r normalised over `axes`, out = xhat * w + b.

    The grad op is dx = J (g w) with J = r (I - mean - xhat mean(xhat .)) (symmetric),
    dw = sum(g xhat), db = sum(g). `w`, `ddw`, `ddb` are broadcast against x (or None).
    Returns (x_grad, the weight gradient before its reduction over the non-weight axes,
    out_grad_grad), all broadcast against x.
    """

    def m(t: Any) -> Any:
        return t.mean(axis=axes, keepdims=True)

    gh = g if w is None else g * w
    c = m(ddx * xhat)
    jd = r * (ddx - m(ddx) - xhat * c)  # J ddx
    out_grad_grad = jd if w is None else w * jd
    if ddw is not None:
        out_grad_grad = out_grad_grad + ddw * xhat
    if ddb is not None:
        out_grad_grad = out_grad_grad + ddb
    a = m(gh)
    b = m(gh * xhat)
    ga = gh - a
    x_grad = -(r * r) * (m(ddx * ga) * xhat + b * (ddx - m(ddx) - 2 * c * xhat) + c * (ga - b * xhat))
    if ddw is not None:
        h = g * ddw
        x_grad = x_grad + r * (h - m(h) - xhat * m(h * xhat))
    return x_grad, g * jd, out_grad_grad


def _weight_sum(w: Any, raw: Any, axes: tuple) -> Any:
    return None if w is None else raw.sum(axis=axes).reshape(w.shape).astype(w.dtype, copy=False)


@register_kernel("layer_norm_double_grad")
@float32_inside
def layer_norm_double_grad(
    x,
    weight,
    mean,
    rstd,
    out_grad,
    x_grad_grad,
    weight_grad_grad,
    bias_grad_grad,
    normalized_shape,
    epsilon=1e-5,
):
    shape, axes = _layer_axes(x, normalized_shape)
    xhat = (x - mean) * rstd
    ddw = None if weight is None else weight_grad_grad
    x_grad, raw_w, out_grad_grad = _norm_double(
        xhat, rstd, out_grad, weight, x_grad_grad, ddw, bias_grad_grad, axes
    )
    lead = tuple(range(x.ndim - len(shape)))
    return (
        x_grad.astype(x.dtype, copy=False),
        _weight_sum(weight, raw_w, lead),
        out_grad_grad.astype(out_grad.dtype, copy=False),
    )


@register_kernel("group_norm_double_grad")
@float32_inside
def group_norm_double_grad(
    x, weight, mean, rstd, out_grad, x_grad_grad, weight_grad_grad, bias_grad_grad, num_groups, epsilon=1e-5
):
    xp = array_module(x)
    g = _groups(x, num_groups)
    cshape = _channel_shape(x)
    grouped = _grouped(x, g)

    def per_group(t: Any) -> Any:  # a per-channel vector (or None) as (N, G, -1)
        return None if t is None else xp.broadcast_to(t.reshape(cshape), x.shape).reshape(grouped)

    xhat = (x.reshape(grouped) - mean) * rstd
    ddw = None if weight is None else weight_grad_grad
    x_grad, raw_w, out_grad_grad = _norm_double(
        xhat,
        rstd,
        out_grad.reshape(grouped),
        per_group(weight),
        x_grad_grad.reshape(grouped),
        per_group(ddw),
        per_group(bias_grad_grad),
        (2,),
    )
    axes = (0,) + tuple(range(2, x.ndim))
    return (
        x_grad.reshape(x.shape).astype(x.dtype, copy=False),
        _weight_sum(weight, raw_w.reshape(x.shape), axes),
        out_grad_grad.reshape(x.shape).astype(out_grad.dtype, copy=False),
    )


@register_kernel("batch_norm_double_grad")
@float32_inside
def batch_norm_double_grad(
    x,
    weight,
    saved_mean,
    saved_rstd,
    out_grad,
    x_grad_grad,
    weight_grad_grad,
    bias_grad_grad,
    training=False,
    momentum=0.9,
    epsilon=1e-5,
):
    xp = array_module(x)
    cshape = _channel_shape(x)
    axes = (0,) + tuple(range(2, x.ndim))
    xhat = (x - saved_mean) * saved_rstd
    w = None if weight is None else weight.reshape(cshape)
    ddw = None if weight is None or weight_grad_grad is None else weight_grad_grad.reshape(cshape)
    ddb = None if bias_grad_grad is None else bias_grad_grad.reshape(cshape)
    if training:
        x_grad, raw_w, out_grad_grad = _norm_double(
            xhat, saved_rstd, out_grad, w, x_grad_grad, ddw, ddb, axes
        )
    else:  # affine in x with constant statistics: dx = g w r, dw = sum(g xhat), db = sum(g)
        jd = saved_rstd * x_grad_grad
        raw_w = out_grad * jd
        out_grad_grad = jd if w is None else w * jd
        if ddw is not None:
            out_grad_grad = out_grad_grad + ddw * xhat
        if ddb is not None:
            out_grad_grad = out_grad_grad + ddb
        x_grad = xp.zeros(x.shape, x.dtype) if ddw is None else out_grad * saved_rstd * ddw
    return (
        x_grad.astype(x.dtype, copy=False),
        _weight_sum(weight, raw_w, axes),
        out_grad_grad.astype(out_grad.dtype, copy=False),
    )


# --- scaled_dot_product_attention ------------------------------------------------------------------


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
    out_grad_grad = xp.matmul(drop(p_dot), value) + xp.matmul(d, value_grad_grad)
    value_grad = xp.matmul(t(drop(p_dot)), out_grad)
    # d/dS of <ds, s_dot> (through P) plus of <P, E> with E = (g ddv^T) * K
    e = drop(xp.matmul(out_grad, t(value_grad_grad)))
    through_p = (
        e
        + dp * s_dot
        - s_dot * (dp * p).sum(axis=-1, keepdims=True)
        - dp * (p * s_dot).sum(axis=-1, keepdims=True)
    )
    h = svjp(p, through_p)
    query_grad = s * (xp.matmul(h, key) + xp.matmul(ds, key_grad_grad))
    key_grad = s * (xp.matmul(t(h), query) + xp.matmul(t(ds), query_grad_grad))
    mask_grad = None
    if mask is not None and mask.dtype.kind == "f":
        mask_grad = unbroadcast(h, mask.shape, mask.dtype)
    return (
        unbroadcast(query_grad, query.shape, query.dtype),
        unbroadcast(key_grad, key.shape, key.dtype),
        unbroadcast(value_grad, value.shape, value.dtype),
        mask_grad,
        unbroadcast(out_grad_grad, out_grad.shape, out_grad.dtype),
    )


# --- cumprod, norm ---------------------------------------------------------------------------------


@register_kernel("cumprod_double_grad")
@float32_inside
def cumprod_double_grad(x, out_grad, x_grad_grad, dim=None):
    # out_grad_grad is cumprod's JVP along x_grad_grad: sum_k [cumprod of x with x_k := ddx_k]_i
    # (i >= k); x_grad differentiates <out_grad, that> in x, slot k excluded. Without zeros in
    # x it has the closed form y_i C_i, C = cumsum(ddx / x).
    xp = array_module(x)
    scan = _scan_axis("cumprod", "dim", x.shape, dim)
    xv, a = _scan_view(x, scan)
    dv, _ = _scan_view(x_grad_grad, scan)
    g, _ = _scan_view(out_grad, scan)
    y = xp.cumprod(xv, axis=a)
    if not bool((xv == 0).any()):
        q = dv / xv
        cs = xp.cumsum(q, axis=a)
        out_grad_grad = y * cs
        gy = g * y
        x_grad = (_reverse_cumsum(xp, gy * cs, a) - q * _reverse_cumsum(xp, gy, a)) / xv
    else:
        n = xv.shape[a]
        idx = xp.arange(n).reshape((-1,) + (1,) * (xv.ndim - 1 - a))
        out_grad_grad = xp.zeros(y.shape, dtype=y.dtype)
        x_grad = xp.zeros(xv.shape, dtype=y.dtype)
        for k in range(n):
            slot = idx == k
            xk = xp.where(slot, dv, xv)
            yk = xp.cumprod(xk, axis=a)
            later = idx >= k
            out_grad_grad = out_grad_grad + xp.where(later, yk, 0)
            gk = xp.where(later, g, 0)
            x_grad = x_grad + xp.where(slot, 0, _cumprod_grad(xk, yk, gk, a))
    return (
        x_grad.reshape(x.shape).astype(x.dtype, copy=False),
        nd(out_grad_grad.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


@register_kernel("norm_double_grad")
@float32_inside
def norm_double_grad(x, out, out_grad, x_grad_grad, p=2.0, axis=(), keepdim=False):
    # With u = dN/dx (the gradient for out_grad 1): out_grad_grad = sum(ddx u); for finite p,
    # x_grad = g [(p - 1) |x|^(p-2) N^(1-p) ddx + (1 - p) / N u sum(ddx u)]. The 1- and inf-norm
    # gradients are piecewise constant in x.
    xp = array_module(x)
    p = float(p)
    axes = normalize_axis(axis, x.ndim, "norm")
    shape = keepdim_shape(x.shape, axes)
    o = out.reshape(shape)
    g = out_grad.reshape(shape)
    if p == math.inf:
        hit = xp.abs(x) == o
        count = hit.sum(axis=axes, keepdims=True).astype(x.dtype)
        u = xp.where(hit, xp.sign(x) / count, 0)
    else:
        safe = xp.where(o == 0, 1, o)
        u = xp.where(o == 0, 0, xp.sign(x) * xp.abs(x) ** (p - 1) * safe ** (1 - p))
    dot = (x_grad_grad * u).sum(axis=axes, keepdims=True)
    if p in (1.0, math.inf):
        x_grad = xp.zeros(x.shape, dtype=x.dtype)
    else:
        safe = xp.where(o == 0, 1, o)
        ax = xp.abs(x)
        curv = 1.0 if p == 2 else xp.where(ax == 0, 0, ax ** (p - 2))  # |x|^(p-2), 0 at x = 0
        first = (p - 1) * curv * safe ** (1 - p) * x_grad_grad
        x_grad = xp.where(o == 0, 0, g * (first + (1 - p) / safe * u * dot))
    return (
        x_grad.astype(x.dtype, copy=False),
        nd(dot.reshape(out_grad.shape).astype(out_grad.dtype, copy=False)),
    )


# --- losses ----------------------------------------------------------------------------------------


def _gather(t: Any, out_grad: Any, reduction: str, count: int | None = None) -> Any:
    """The adjoint of `_spread`: an elementwise term summed back to out_grad's shape."""
    if reduction == "none":
        return nd(t.astype(out_grad.dtype, copy=False))
    total = t.sum()
    if reduction != "sum":
        total = total / (t.size if count is None else count)
    return nd(array_module(t).asarray(total, dtype=out_grad.dtype).reshape(out_grad.shape))


@register_kernel("binary_cross_entropy_with_logits_double_grad")
@float32_inside
def binary_cross_entropy_with_logits_double_grad(
    logit, label, weight, pos_weight, out_grad, logit_grad_grad, label_grad_grad, reduction="mean"
):
    # logit_grad = G (1 - y - c q), label_grad = G (-l + (pw - 1) softplus(-l)), with
    # G = spread(g) w, c = 1 + (pw - 1) y, q = sigmoid(-l) and dq/dl = -q (1 - q).
    xp = array_module(logit)
    shape = logit.shape
    big_g = _spread(out_grad, shape, reduction)
    w = 1.0 if weight is None else weight
    big_g = big_g * w
    q = _sigmoid(xp, -logit)
    pw1 = 0.0 if pos_weight is None else pos_weight - 1
    c = 1 + pw1 * label
    a, b = logit_grad_grad, label_grad_grad
    logit_grad = big_g * (a * c * q * (1 - q) - b * (1 + pw1 * q))
    label_grad = big_g * a * -(1 + pw1 * q)
    term = w * (a * (1 - label - c * q) + b * (-logit + pw1 * _softplus_neg(xp, logit)))
    return (
        unbroadcast(logit_grad, logit.shape, logit.dtype),
        unbroadcast(label_grad, label.shape, label.dtype),
        _gather(xp.broadcast_to(term, shape), out_grad, reduction),
    )


@register_kernel("kl_div_double_grad")
@float32_inside
def kl_div_double_grad(
    input, label, out_grad, input_grad_grad, label_grad_grad, reduction="mean", log_target=False
):  # noqa: A002
    xp = array_module(input)
    shape = broadcast_shapes("kl_div", input.shape, label.shape, names=("input", "label"))
    count = _kl_count(shape, reduction) if reduction in ("mean", "batchmean") else None
    g = _spread(out_grad, shape, "mean", count) if count is not None else _spread(out_grad, shape, reduction)
    a, b = input_grad_grad, label_grad_grad
    if log_target:
        pr = xp.exp(label)
        input_grad = -b * pr * g
        label_grad = pr * g * (-a + b * (label - input + 2))
        term = a * -pr + b * pr * (label - input + 1)
    else:
        positive = label > 0
        safe = xp.where(positive, label, 1)
        input_grad = xp.where(positive, -b * g, 0)
        label_grad = xp.where(positive, g * (-a + b / safe), 0)
        term = a * -xp.where(positive, label, 0) + b * xp.where(positive, xp.log(safe) + 1 - input, 0)
    term = xp.broadcast_to(term, shape)
    if count is not None:
        out_grad_grad = _gather(term, out_grad, "mean", count)
    else:
        out_grad_grad = _gather(term, out_grad, reduction)
    return (
        unbroadcast(input_grad, input.shape, input.dtype),
        unbroadcast(label_grad, label.shape, label.dtype),
        out_grad_grad,
    )


# --- glu -------------------------------------------------------------------------------------------


@register_kernel("glu_double_grad")
def glu_double_grad(x, out_grad, x_grad_grad, axis=-1):
    # out = a s(b); glu_grad = [g s, g a s'] with s' = s (1 - s), s'' = s' (1 - 2 s).
    xp = array_module(x)
    ax, first, second = _halves(x, axis)
    da, db = xp.split(x_grad_grad, 2, axis=ax)
    s = _sigmoid(xp, second)
    s1 = s * (1 - s)
    s2 = s1 * (1 - 2 * s)
    x_grad = xp.concatenate([db * out_grad * s1, out_grad * (da * s1 + db * first * s2)], axis=ax)
    out_grad_grad = da * s + db * first * s1
    return x_grad.astype(x.dtype, copy=False), nd(out_grad_grad.astype(out_grad.dtype, copy=False))
