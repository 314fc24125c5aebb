"""Learning-rate schedulers: change each parameter group's `lr` once per `step()`.

Call `scheduler.step()` after `optimizer.step()`, once per epoch (or per iteration, as the
schedule is meant). Each scheduler computes the rate in closed form from the group's
`initial_lr` and the epoch count, so resuming from `state_dict()` gives the same rates.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from opgrad.runtime import argcheck as checks
from opgrad.runtime.optim.optimizer import Optimizer


class LRScheduler:
    """Base: `get_lr()` returns the rates for `last_epoch`; `step()` advances and applies them."""

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(self).__name__}: expected an Optimizer, got {type(optimizer).__name__}")
        last_epoch = checks.integer(type(self).__name__, "last_epoch", last_epoch, -1)
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group.setdefault("initial_lr", group["lr"])
        self.base_lrs: list[float] = [g["initial_lr"] for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._last_lr: list[float] = []
        self.step()

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def step(self) -> None:
        self.last_epoch += 1
        try:
            lrs = self.get_lr()
            for i, lr in enumerate(lrs):
                checks.real(
                    type(self).__name__, f"the rate for param_groups[{i}] at epoch {self.last_epoch}", lr, 0.0
                )
        except BaseException:
            self.last_epoch -= 1
            raise
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            group["lr"] = lr
        self._last_lr = lrs

    def get_last_lr(self) -> list[float]:
        return list(self._last_lr)

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer" and not callable(v)}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what `state_dict()` saved (the epoch count, base rates, settings)."""
        name = f"{type(self).__name__}.load_state_dict"
        if not isinstance(state_dict, dict):
            raise TypeError(f"{name}: expected a dict from state_dict(), got {type(state_dict).__name__}")
        unknown = sorted(set(state_dict) - set(self.state_dict()))
        if unknown:
            raise ValueError(
                f"{name}: unknown entries {unknown}; expected some of {sorted(self.state_dict())}"
            )
        if "last_epoch" in state_dict:
            checks.integer(name, "last_epoch", state_dict["last_epoch"], -1)
        base = state_dict.get("base_lrs", self.base_lrs)
        if not isinstance(base, list) or len(base) != len(self.optimizer.param_groups):
            raise ValueError(
                f"{name}: base_lrs must be a list of one rate per parameter group "
                f"({len(self.optimizer.param_groups)}), got {base!r}"
            )
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    """lr = initial_lr * gamma ** (epoch // step_size)."""

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = checks.integer("StepLR", "step_size", step_size, 1)
        self.gamma = checks.real("StepLR", "gamma", gamma, low=0.0)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        factor = self.gamma ** (self.last_epoch // self.step_size)
        return [base * factor for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr = initial_lr * gamma ** epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = checks.real("ExponentialLR", "gamma", gamma, low=0.0)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * self.gamma**self.last_epoch for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """lr = eta_min + (initial_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:  # noqa: N803
        self.T_max = checks.integer("CosineAnnealingLR", "T_max", T_max, 1)
        self.eta_min = checks.real("CosineAnnealingLR", "eta_min", eta_min, low=0.0)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        cos = (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
        return [self.eta_min + (base - self.eta_min) * cos for base in self.base_lrs]


class LambdaLR(LRScheduler):
    """lr = initial_lr * lr_lambda(epoch) (one function, or one per group)."""

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"LambdaLR: expected an Optimizer, got {type(optimizer).__name__}")
        n = len(optimizer.param_groups)
        self.lr_lambdas = list(lr_lambda) if isinstance(lr_lambda, (list, tuple)) else [lr_lambda] * n
        if len(self.lr_lambdas) != n:
            raise ValueError(f"LambdaLR: {len(self.lr_lambdas)} functions for {n} parameter groups")
        for i, fn in enumerate(self.lr_lambdas):
            if not callable(fn):
                raise TypeError(
                    f"LambdaLR: lr_lambda[{i}] must be callable (epoch -> factor), got {type(fn).__name__}"
                )
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        factors = [fn(self.last_epoch) for fn in self.lr_lambdas]
        for i, factor in enumerate(factors):
            checks.real("LambdaLR", f"lr_lambda[{i}]({self.last_epoch})", factor)
        return [base * factor for base, factor in zip(self.base_lrs, factors, strict=True)]

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
