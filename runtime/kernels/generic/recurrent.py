"""Recurrent-cell kernels: the elementwise part of one LSTM step (lstm_cell) and its grad.

The matmuls of a step stay separate ops (linear, add); this fuses what follows them, ten
elementwise ops in the unfused step, into one forward and one backward pass. The forward
keeps the activated gates (`act`, an intermediate output) so that the grad kernel does not
evaluate sigmoid and tanh again.
"""

from __future__ import annotations

from opgrad.runtime.kernels.common import array_module, stable_sigmoid
from opgrad.runtime.kernels.registry import register_kernel


def _check(gates, c):
    hidden = c.shape[-1] if c.ndim else 0
    if c.ndim == 0 or gates.shape != c.shape[:-1] + (4 * hidden,):
        raise ValueError(
            f"lstm_cell: gates must have shape c.shape[:-1] + (4 * hidden,) = "
            f"{c.shape[:-1] + (4 * hidden,)} for c of shape {c.shape}, got {gates.shape}"
        )
    if gates.dtype.kind != "f":
        raise TypeError(f"lstm_cell: gates must be a floating tensor, got dtype {gates.dtype}")
    return hidden


@register_kernel("lstm_cell")
def lstm_cell(gates, c):
    xp = array_module(gates)
    hidden = _check(gates, c)
    act = stable_sigmoid(xp, gates)
    g = slice(2 * hidden, 3 * hidden)
    act[..., g] = xp.tanh(gates[..., g])
    i, f, gg, o = (act[..., k * hidden : (k + 1) * hidden] for k in range(4))
    c_next = f * c
    c_next += i * gg
    h = xp.tanh(c_next)
    h *= o
    return h, c_next, act


@register_kernel("lstm_cell_grad")
def lstm_cell_grad(gates, c, c_next, act, h_grad, c_next_grad):
    xp = array_module(act)
    hidden = c.shape[-1]
    i, f, g, o = (act[..., k * hidden : (k + 1) * hidden] for k in range(4))
    tc = xp.tanh(c_next)
    go = h_grad * tc  # d/d(sigmoid(o))
    dc = tc * tc
    dc -= 1
    dc *= -o
    dc *= h_grad
    dc += c_next_grad
    out = xp.empty(act.shape, dtype=act.dtype)
    # each block: the activation's gradient times its derivative (s (1 - s) or 1 - t^2)
    xp.multiply(dc * g, i * (1 - i), out=out[..., :hidden])
    xp.multiply(dc * c, f * (1 - f), out=out[..., hidden : 2 * hidden])
    xp.multiply(dc * i, 1 - g * g, out=out[..., 2 * hidden : 3 * hidden])
    xp.multiply(go, o * (1 - o), out=out[..., 3 * hidden :])
    return out, dc * f
