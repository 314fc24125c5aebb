"""Learning-rate schedulers: change each parameter group's `lr` once per `step()`.

Call `scheduler.step()` after `optimizer.step()`, once per epoch (or per iteration, as the
schedule is meant). Each scheduler computes the rate in closed form from the group's
`initial_lr` and the epoch count, so resuming from `state_dict()` gives the same rates.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from opgrad.runtime.optim.optimizer import Optimizer


class LRScheduler:
    """Base: `get_lr()` returns the rates for `last_epoch`; `step()` advances and applies them."""

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(self).__name__}: expected an Optimizer, got {type(optimizer).__name__}")
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
        lrs = self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            group["lr"] = lr
        self._last_lr = lrs

    def get_last_lr(self) -> list[float]:
        return list(self._last_lr)

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer" and not callable(v)}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    """lr = initial_lr * gamma ** (epoch // step_size)."""

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        if step_size < 1:
            raise ValueError(f"StepLR: step_size must be >= 1, got {step_size}")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        factor = self.gamma ** (self.last_epoch // self.step_size)
        return [base * factor for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr = initial_lr * gamma ** epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * self.gamma**self.last_epoch for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """lr = eta_min + (initial_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:  # noqa: N803
        if T_max < 1:
            raise ValueError(f"CosineAnnealingLR: T_max must be >= 1, got {T_max}")
        self.T_max = T_max
        self.eta_min = eta_min
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
        n = len(optimizer.param_groups)
        self.lr_lambdas = list(lr_lambda) if isinstance(lr_lambda, (list, tuple)) else [lr_lambda] * n
        if len(self.lr_lambdas) != n:
            raise ValueError(f"LambdaLR: {len(self.lr_lambdas)} functions for {n} parameter groups")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * fn(self.last_epoch) for base, fn in zip(self.base_lrs, self.lr_lambdas, strict=True)]

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
