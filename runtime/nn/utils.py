"""nn.utils: gradient clipping over a model's parameters."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from opgrad.runtime import argcheck as checks
from opgrad.runtime.device import array_module
from opgrad.runtime.tensor import Tensor, wrap


def _grads(parameters: Iterable[Tensor] | Tensor, what: str) -> list[Tensor]:
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    for i, p in enumerate(params):
        if not isinstance(p, Tensor):
            raise TypeError(f"{what}: parameters[{i}] is a {type(p).__name__}, not a Tensor")
    return [p for p in params if p._grad is not None]


def _scale_grad(p: Tensor, factor: float) -> None:
    """Multiply p's gradient by `factor`, in place when the buffer is the engine's own."""
    g = p._grad
    assert g is not None
    extra = p._extra
    if extra is not None and extra.grad_owned and g._data.flags.writeable and not g._requires_grad:
        g._data *= factor
    else:
        # The gradient may share memory with another tensor (or be read-only): replace it.
        p._grad = wrap(g._data * g._data.dtype.type(factor))
        p._extra_state().grad_owned = True


def clip_grad_norm_(
    parameters: Iterable[Tensor] | Tensor,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
) -> Tensor:
    """Scale all gradients together so that their joint norm is at most max_norm.

    The norm is taken over all gradients as if concatenated into one vector (`norm_type`
    may be `math.inf`). Returns that total norm (before clipping) as a 0-d float tensor."""
    max_norm = checks.real("clip_grad_norm_", "max_norm", max_norm, 0.0)
    if norm_type != math.inf:
        checks.real("clip_grad_norm_", "norm_type", norm_type, 0.0)
        if norm_type == 0:
            raise ValueError("clip_grad_norm_: norm_type must be > 0 (or math.inf), got 0")
    params = _grads(parameters, "clip_grad_norm_")
    if not params:
        return wrap(np.zeros((), dtype="float32"))
    xp = array_module(params[0]._grad._data)  # type: ignore[union-attr]
    norm_type = float(norm_type)
    per_param = []
    for p in params:
        g = p._grad._data  # type: ignore[union-attr]
        if norm_type == math.inf:
            per_param.append(xp.abs(g).max() if g.size else xp.zeros((), dtype=g.dtype))
        elif norm_type == 2.0:
            flat = g.reshape(-1)
            per_param.append(xp.sqrt(xp.dot(flat, flat)))
        else:
            per_param.append((xp.abs(g) ** norm_type).sum() ** (1.0 / norm_type))
    norms = xp.stack([xp.asarray(n, dtype=xp.float64) for n in per_param])
    if norm_type == math.inf:
        total = norms.max()
    else:
        total = (norms**norm_type).sum() ** (1.0 / norm_type)
    total_f = float(total)
    if error_if_nonfinite and not math.isfinite(total_f):
        raise RuntimeError(
            f"clip_grad_norm_: the total norm of the gradients is {total_f}; "
            "pass error_if_nonfinite=False to clip anyway"
        )
    coef = float(max_norm) / (total_f + 1e-6)
    if coef < 1.0:
        for p in params:
            _scale_grad(p, coef)
    dtype = params[0]._grad._data.dtype  # type: ignore[union-attr]
    return wrap(xp.asarray(total, dtype=dtype))


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float) -> None:
    """Clamp every gradient element to [-clip_value, clip_value]."""
    c = float(checks.real("clip_grad_value_", "clip_value", clip_value, 0.0))
    for p in _grads(parameters, "clip_grad_value_"):
        g = p._grad._data  # type: ignore[union-attr]
        xp = array_module(g)
        p._grad = wrap(xp.clip(g, -c, c))
        p._extra_state().grad_owned = True
