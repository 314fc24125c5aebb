"""RMSprop (Hinton's lecture 6e; centered: Graves 2013) and Adagrad (Duchi et al. 2011), with
PyTorch's published update rules and defaults. Every hyper-parameter may differ per
parameter group; the per-parameter state is created on a parameter's first step.

RMSprop, per parameter (g = grad + weight_decay * p):
    v = alpha * v + (1 - alpha) * g * g
    centered: m = alpha * m + (1 - alpha) * g and v~ = v - m * m, else v~ = v
    d = g / (sqrt(v~) + eps)
    momentum > 0: buf = momentum * buf + d, p -= lr * buf; otherwise p -= lr * d

Adagrad, on step t (g = grad + weight_decay * p):
    sum += g * g      (sum starts at initial_accumulator_value)
    p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(sum) + eps)
"""

from __future__ import annotations

from typing import Any

from opgrad.runtime import argcheck as checks
from opgrad.runtime.device import array_module
from opgrad.runtime.optim.optimizer import Optimizer, ParamsArg


class RMSprop(Optimizer):
    """RMSprop with optional momentum, centering and L2 weight decay (see the module doc)."""

    def __init__(
        self,
        params: ParamsArg,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        momentum: float = 0.0,
        centered: bool = False,
    ) -> None:
        defaults = {
            "lr": lr,
            "alpha": alpha,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum": momentum,
            "centered": centered,
        }
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any], where: str) -> None:
        super()._check_group(group, where)
        checks.real("RMSprop", checks.key(where, "alpha"), group["alpha"], low=0.0, high=1.0)
        checks.real("RMSprop", checks.key(where, "eps"), group["eps"], low=0.0)
        checks.real("RMSprop", checks.key(where, "weight_decay"), group["weight_decay"], low=0.0)
        checks.real("RMSprop", checks.key(where, "momentum"), group["momentum"], low=0.0)
        checks.flag("RMSprop", checks.key(where, "centered"), group["centered"])

    def _state_spec(self, group: dict[str, Any]) -> dict[str, str]:
        spec = {"step": "count", "square_avg": "moment"}
        if group["momentum"]:
            spec["momentum_buffer"] = "moment"
        if group["centered"]:
            spec["grad_avg"] = "moment"
        return spec

    def _update(self, param: Any, grad: Any, state: dict[str, Any], group: dict[str, Any]) -> None:
        xp = array_module(param)
        alpha, wd, momentum = group["alpha"], group["weight_decay"], group["momentum"]
        if wd:
            grad = grad + wd * param
        if "square_avg" not in state:
            state["step"] = 0
            state["square_avg"] = xp.zeros_like(param)
            if momentum:
                state["momentum_buffer"] = xp.zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = xp.zeros_like(param)
        state["step"] += 1
        v = state["square_avg"]
        v *= alpha
        v += (1.0 - alpha) * grad * grad
        if group["centered"]:
            m = state["grad_avg"]
            m *= alpha
            m += (1.0 - alpha) * grad
            denom = xp.sqrt(v - m * m)
        else:
            denom = xp.sqrt(v)
        denom += group["eps"]
        if momentum:
            buf = state["momentum_buffer"]
            buf *= momentum
            buf += grad / denom
            param -= group["lr"] * buf
        else:
            param -= group["lr"] * (grad / denom)


class Adagrad(Optimizer):
    """Adagrad with learning-rate decay and L2 weight decay (see the module doc)."""

    def __init__(
        self,
        params: ParamsArg,
        lr: float = 1e-2,
        lr_decay: float = 0.0,
        weight_decay: float = 0.0,
        initial_accumulator_value: float = 0.0,
        eps: float = 1e-10,
    ) -> None:
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "eps": eps,
        }
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any], where: str) -> None:
        super()._check_group(group, where)
        for key in ("lr_decay", "weight_decay", "initial_accumulator_value", "eps"):
            checks.real("Adagrad", checks.key(where, key), group[key], low=0.0)

    def _state_spec(self, group: dict[str, Any]) -> dict[str, str]:
        return {"step": "count", "sum": "moment"}

    def _update(self, param: Any, grad: Any, state: dict[str, Any], group: dict[str, Any]) -> None:
        xp = array_module(param)
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * param
        if "sum" not in state:
            state["step"] = 0
            state["sum"] = xp.full_like(param, group["initial_accumulator_value"])
        t = state["step"] = state["step"] + 1
        acc = state["sum"]
        acc += grad * grad
        clr = group["lr"] / (1.0 + (t - 1) * group["lr_decay"])
        denom = xp.sqrt(acc)
        denom += group["eps"]
        param -= clr * (grad / denom)
