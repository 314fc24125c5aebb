"""Adam (Kingma & Ba, with L2 weight decay added to the gradient) and AdamW (Loshchilov &
Hutter, weight decay applied to the parameter, decoupled from the adaptive step).

Per parameter, in place on its arrays: m = b1*m + (1-b1)*g, v = b2*v + (1-b2)*g*g,
p -= lr / (1 - b1**t) * m / (sqrt(v) / sqrt(1 - b2**t) + eps). With amsgrad the running
maximum of v replaces v in the denominator.
"""

from __future__ import annotations

import math
from typing import Any

from opgrad.runtime import argcheck as checks
from opgrad.runtime.device import array_module
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
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
        }
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any], where: str) -> None:
        super()._check_group(group, where)
        name = type(self).__name__
        group["betas"] = checks.pair(name, checks.key(where, "betas"), group["betas"], 0.0, 1.0)
        checks.real(name, checks.key(where, "eps"), group["eps"], low=0.0)
        checks.real(name, checks.key(where, "weight_decay"), group["weight_decay"], low=0.0)
        checks.flag(name, checks.key(where, "amsgrad"), group["amsgrad"])

    def _state_spec(self, group: dict[str, Any]) -> dict[str, str]:
        spec = {"step": "count", "exp_avg": "moment", "exp_avg_sq": "moment"}
        if group["amsgrad"]:
            spec["max_exp_avg_sq"] = "moment"
        return spec

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
            zeros_like = array_module(param).zeros_like
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
            array_module(vmax).maximum(vmax, v, out=vmax)
            v = vmax
        denom = array_module(v).sqrt(v)
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
