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


class LinearLR(LRScheduler):
    """lr = initial_lr * factor, the factor moving linearly from start_factor to end_factor
    over total_iters steps and then staying at end_factor (a linear warm-up with the
    defaults start_factor < 1, end_factor = 1)."""

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        self.start_factor = _positive("LinearLR", "start_factor", start_factor, 1.0)
        self.end_factor = checks.real("LinearLR", "end_factor", end_factor, 0.0, 1.0)
        self.total_iters = checks.integer("LinearLR", "total_iters", total_iters, 1)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        t = min(self.last_epoch, self.total_iters) / self.total_iters
        factor = self.start_factor + (self.end_factor - self.start_factor) * t
        return [base * factor for base in self.base_lrs]


class LinearWarmup(LRScheduler):
    """Paddle's LinearWarmup: for the first warmup_steps steps the rate rises linearly from
    start_factor * initial_lr to initial_lr; afterwards `after` (another scheduler on the
    same optimizer, or none: the rate stays) takes over, counting its steps from the end
    of the warm-up."""

    def __init__(
        self,
        optimizer: Optimizer,
        warmup_steps: int,
        start_factor: float = 0.0,
        after: LRScheduler | None = None,
        last_epoch: int = -1,
    ) -> None:
        self.warmup_steps = checks.integer("LinearWarmup", "warmup_steps", warmup_steps, 1)
        self.start_factor = checks.real("LinearWarmup", "start_factor", start_factor, 0.0, 1.0)
        if after is not None and (not isinstance(after, LRScheduler) or after.optimizer is not optimizer):
            raise TypeError("LinearWarmup: after must be a scheduler of the same optimizer")
        self.after = after
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        e = self.last_epoch
        if e < self.warmup_steps:
            factor = self.start_factor + (1.0 - self.start_factor) * e / self.warmup_steps
            return [base * factor for base in self.base_lrs]
        if self.after is None:
            return list(self.base_lrs)
        self.after.last_epoch = e - self.warmup_steps
        lrs = self.after.get_lr()
        self.after._last_lr = lrs
        return lrs

    def state_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "after")}
        out["after"] = None if self.after is None else self.after.state_dict()
        return out

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state = dict(state_dict)
        after = state.pop("after", None)
        if (after is None) != (self.after is None):
            raise ValueError(
                "LinearWarmup.load_state_dict: saved with a different `after` scheduler (or none)"
            )
        if self.after is not None:
            self.after.load_state_dict(after)
        super().load_state_dict(state)


class OneCycleLR(LRScheduler):
    """The 1cycle policy (Smith & Topin): from max_lr / div_factor up to max_lr over the
    first pct_start of total_steps, then down to max_lr / (div_factor * final_div_factor),
    along a cosine (anneal_strategy="cos") or a line ("linear"). three_phase goes back
    to the start rate symmetrically before the final descent. Call step() once per batch,
    total_steps times in all (the last call stays at the final rate; one more raises).
    max_lr may be one rate per parameter group. Unlike PyTorch it does not cycle momentum."""

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr: float | list[float],
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: str = "cos",
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ) -> None:
        name = "OneCycleLR"
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{name}: expected an Optimizer, got {type(optimizer).__name__}")
        n = len(optimizer.param_groups)
        maxes = list(max_lr) if isinstance(max_lr, (list, tuple)) else [max_lr] * n
        if len(maxes) != n:
            raise ValueError(f"{name}: {len(maxes)} max_lr values for {n} parameter groups")
        self.max_lrs = [checks.real(name, f"max_lr[{i}]", m, low=0.0) for i, m in enumerate(maxes)]
        if total_steps is None:
            if epochs is None or steps_per_epoch is None:
                raise ValueError(f"{name}: give total_steps, or both epochs and steps_per_epoch")
            total_steps = checks.integer(name, "epochs", epochs, 1) * checks.integer(
                name, "steps_per_epoch", steps_per_epoch, 1
            )
        self.total_steps = checks.integer(name, "total_steps", total_steps, 2)
        self.pct_start = _positive(name, "pct_start", pct_start, 1.0, high_open=True)
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"{name}: anneal_strategy must be 'cos' or 'linear', got {anneal_strategy!r}")
        self.anneal_strategy = anneal_strategy
        self.div_factor = _positive(name, "div_factor", div_factor)
        self.final_div_factor = _positive(name, "final_div_factor", final_div_factor)
        self.three_phase = checks.flag(name, "three_phase", three_phase)
        for group, m in zip(optimizer.param_groups, self.max_lrs, strict=True):
            if last_epoch == -1:
                group["initial_lr"] = m / self.div_factor
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        step = self.last_epoch
        if step > self.total_steps:  # total_steps calls of step() after the constructor's
            raise ValueError(f"OneCycleLR: step() called {step} times, but total_steps is {self.total_steps}")
        up = self.pct_start * self.total_steps - 1
        out = []
        for start, peak in zip(self.base_lrs, self.max_lrs, strict=True):
            low = start / self.final_div_factor
            if self.three_phase:
                phases = [(up, start, peak), (2 * up, peak, start), (self.total_steps - 1, start, low)]
            else:
                phases = [(up, start, peak), (self.total_steps - 1, peak, low)]
            begin = 0.0
            for end, a, b in phases:
                if step <= end or end == phases[-1][0]:
                    pct = min((step - begin) / (end - begin), 1.0) if end > begin else 1.0
                    out.append(self._anneal(a, b, pct))
                    break
                begin = end
        return out

    def _anneal(self, a: float, b: float, pct: float) -> float:
        if self.anneal_strategy == "linear":
            return a + (b - a) * pct
        return b + (a - b) / 2.0 * (1.0 + math.cos(math.pi * pct))


class ReduceLROnPlateau:
    """Multiply each group's lr by `factor` when a metric has not improved for more than
    `patience` calls of `step(metric)`: "improved" is better than the best seen by a
    relative (threshold_mode="rel") or absolute ("abs") `threshold`, in `mode` "min" or
    "max". After a reduction, `cooldown` calls pass before counting again; no rate goes
    below min_lr (one value, or one per group), and a change smaller than eps is skipped."""

    def __init__(
        self,
        optimizer: Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float | list[float] = 0.0,
        eps: float = 1e-8,
    ) -> None:
        name = "ReduceLROnPlateau"
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{name}: expected an Optimizer, got {type(optimizer).__name__}")
        if mode not in ("min", "max"):
            raise ValueError(f"{name}: mode must be 'min' or 'max', got {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"{name}: threshold_mode must be 'rel' or 'abs', got {threshold_mode!r}")
        n = len(optimizer.param_groups)
        mins = list(min_lr) if isinstance(min_lr, (list, tuple)) else [min_lr] * n
        if len(mins) != n:
            raise ValueError(f"{name}: {len(mins)} min_lr values for {n} parameter groups")
        self.optimizer = optimizer
        self.mode = mode
        self.factor = checks.real(name, "factor", factor, 0.0, 1.0, high_open=True)
        self.patience = checks.integer(name, "patience", patience, 0)
        self.threshold = checks.real(name, "threshold", threshold, low=0.0)
        self.threshold_mode = threshold_mode
        self.cooldown = checks.integer(name, "cooldown", cooldown, 0)
        self.min_lrs = [checks.real(name, f"min_lr[{i}]", m, low=0.0) for i, m in enumerate(mins)]
        self.eps = checks.real(name, "eps", eps, low=0.0)
        self.best = math.inf if mode == "min" else -math.inf
        self.num_bad_epochs = 0
        self.cooldown_counter = 0
        self.last_epoch = 0
        self._last_lr = [g["lr"] for g in optimizer.param_groups]

    def _better(self, value: float) -> bool:
        best, th = self.best, self.threshold
        if self.mode == "min":
            return value < (best * (1.0 - th) if self.threshold_mode == "rel" else best - th)
        return value > (best * (1.0 + th) if self.threshold_mode == "rel" else best + th)

    def step(self, metric: Any) -> None:
        value = float(metric.item() if hasattr(metric, "item") else metric)
        if math.isnan(value):
            raise ValueError("ReduceLROnPlateau.step: the metric is nan")
        self.last_epoch += 1
        if self._better(value):
            self.best = value
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            for group, low in zip(self.optimizer.param_groups, self.min_lrs, strict=True):
                new = max(group["lr"] * self.factor, low)
                if group["lr"] - new > self.eps:
                    group["lr"] = new
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def get_last_lr(self) -> list[float]:
        return list(self._last_lr)

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        name = "ReduceLROnPlateau.load_state_dict"
        if not isinstance(state_dict, dict):
            raise TypeError(f"{name}: expected a dict from state_dict(), got {type(state_dict).__name__}")
        unknown = sorted(set(state_dict) - set(self.state_dict()))
        if unknown:
            raise ValueError(f"{name}: unknown entries {unknown}")
        self.__dict__.update(state_dict)


def _positive(owner: str, name: str, value: Any, high: float | None = None, high_open: bool = False) -> float:
    """A finite number > 0 (and <= high, or < high with high_open)."""
    checks.real(owner, name, value, 0.0, high, high_open)
    if value == 0:
        raise ValueError(f"{owner}: {name} must be > 0, got {value!r}")
    return value
