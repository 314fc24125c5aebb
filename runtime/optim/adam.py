"""Adam (Kingma & Ba, with L2 weight decay added to the gradient) and AdamW (Loshchilov &
Hutter, weight decay applied to the parameter, decoupled from the adaptive step).

Per parameter, in place on its arrays: m = b1*m + (1-b1)*g, v = b2*v + (1-b2)*g*g,
p -= lr / (1 - b1**t) * m / (sqrt(v) / sqrt(1 - b2**t) + eps). With amsgrad the running
maximum of v replaces v in the denominator.
"""

from __future__ import annotations

import math
from typing import Any

from opgrad.runtime.kernels.registry import get_array_module
from opgrad.runtime.optim.optimizer import Optimizer, ParamsArg


class Adam(Optimizer):
    """Adam; weight_decay adds weight_decay * p to the gradient (L2 regularisation)."""

    decoupled = False

    def __init__(
        self,
        params: ParamsArg,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        amsgrad: bool = False,
    ) -> None:
        if not (0.0 <= betas[0] < 1.0 and 0.0 <= betas[1] < 1.0):
            raise ValueError(f"{type(self).__name__}: betas must be in [0, 1), got {betas}")
        if eps < 0 or weight_decay < 0:
            raise ValueError(f"{type(self).__name__}: eps and weight_decay must be >= 0")
        defaults = {
            "lr": lr,
            "betas": tuple(betas),
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
        }
        super().__init__(params, defaults)

    def _update(self, param: Any, grad: Any, state: dict[str, Any], group: dict[str, Any]) -> None:
        lr = group["lr"]
        b1, b2 = group["betas"]
        wd = group["weight_decay"]
        if wd:
            if self.decoupled:
                param *= 1.0 - lr * wd
            else:
                grad = grad + wd * param
        m = state.get("exp_avg")
        if m is None:
            zeros_like = get_array_module(param).zeros_like
            state["step"] = 0
            m = state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(param)
        v = state["exp_avg_sq"]
        t = state["step"] = state["step"] + 1
        m *= b1
        m += (1.0 - b1) * grad
        v *= b2
        sq = grad * grad
        sq *= 1.0 - b2
        v += sq
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]
            get_array_module(vmax).maximum(vmax, v, out=vmax)
            v = vmax
        denom = get_array_module(v).sqrt(v)
        denom *= 1.0 / math.sqrt(1.0 - b2**t)
        denom += group["eps"]
        step = m / denom
        step *= lr / (1.0 - b1**t)
        param -= step


class AdamW(Adam):
    """Adam with decoupled weight decay: p *= 1 - lr * weight_decay before the Adam step."""

    decoupled = True

    def __init__(
        self,
        params: ParamsArg,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
    ) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad)
