"""SGD with optional momentum (heavy-ball or Nesterov) and L2 weight decay (PyTorch's rule)."""

from __future__ import annotations

from typing import Any

from opgrad.runtime import argcheck as checks
from opgrad.runtime.optim.optimizer import Optimizer, ParamsArg


class SGD(Optimizer):
    """p -= lr * d, where d = grad + weight_decay * p, and with momentum
    buf = momentum * buf + (1 - dampening) * d (buf = d on the first step),
    d = buf (or d + momentum * buf with nesterov)."""

    def __init__(
        self,
        params: ParamsArg,
        lr: float = 1e-3,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
    ) -> None:
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
        }
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any], where: str) -> None:
        super()._check_group(group, where)
        momentum = checks.real("SGD", checks.key(where, "momentum"), group["momentum"], low=0.0)
        dampening = checks.real("SGD", checks.key(where, "dampening"), group["dampening"], low=0.0, high=1.0)
        checks.real("SGD", checks.key(where, "weight_decay"), group["weight_decay"], low=0.0)
        if checks.flag("SGD", checks.key(where, "nesterov"), group["nesterov"]) and (
            momentum <= 0 or dampening != 0
        ):
            raise ValueError(
                f"SGD: nesterov needs momentum > 0 and dampening == 0, got momentum={momentum!r}, "
                f"dampening={dampening!r}" + (f" in {where}" if where else "")
            )

    def _state_spec(self, group: dict[str, Any]) -> dict[str, str]:
        return {"momentum_buffer": "moment"} if group["momentum"] else {}

    def _update(self, param: Any, grad: Any, state: dict[str, Any], group: dict[str, Any]) -> None:
        wd = group["weight_decay"]
        momentum = group["momentum"]
        d = grad + wd * param if wd else grad
        if momentum:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = d.copy()
            else:
                buf *= momentum
                buf += (1.0 - group["dampening"]) * d
            d = d + momentum * buf if group["nesterov"] else buf
        param -= group["lr"] * d
