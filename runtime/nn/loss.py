"""Loss modules: each holds its options and calls the loss op of the same name.

`loss = nn.CrossEntropyLoss()(logits, labels)`. `reduction` is "mean", "sum" or "none"
everywhere (KLDivLoss also "batchmean"). Where PyTorch and Paddle differ, the choice is
documented in docs/nn.md: CrossEntropyLoss takes the class axis as `axis` (Paddle's -1,
which for (N, C) input is PyTorch's 1), and SmoothL1Loss takes either PyTorch's `beta`
or Paddle's `delta` (the two formulas differ by a factor).
"""

from __future__ import annotations

from typing import Any

from opgrad.generated import ops
from opgrad.runtime import argcheck as checks
from opgrad.runtime.nn.module import Module
from opgrad.runtime.tensor import Tensor

_REDUCTIONS = ("mean", "sum", "none")


def _reduction(owner: str, value: Any, allowed: tuple[str, ...] = _REDUCTIONS) -> str:
    if value not in allowed:
        raise ValueError(f"{owner}: reduction must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def _weight(owner: str, name: str, value: Any) -> Tensor | None:
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"{owner}: {name} must be a Tensor or None, got {type(value).__name__}")
    return value


class _Loss(Module):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = _reduction(type(self).__name__, reduction)

    def extra_repr(self) -> str:
        return f"reduction={self.reduction!r}"


class CrossEntropyLoss(_Loss):
    """Softmax cross entropy of logits against integer class labels over the class axis
    `axis` (default -1); `weight` (C,) rescales classes (then computed as log_softmax +
    nll_loss), `ignore_index` labels count for nothing, `label_smoothing` mixes in a
    uniform target."""

    weight: Tensor | None  # a buffer (register_buffer)

    def __init__(
        self,
        weight: Tensor | None = None,
        ignore_index: int = -100,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
        axis: int = -1,
    ) -> None:
        super().__init__(reduction)
        self.register_buffer("weight", _weight("CrossEntropyLoss", "weight", weight))
        self.ignore_index = checks.integer("CrossEntropyLoss", "ignore_index", ignore_index)
        self.label_smoothing = checks.real("CrossEntropyLoss", "label_smoothing", label_smoothing, 0.0, 1.0)
        self.axis = checks.integer("CrossEntropyLoss", "axis", axis)
        if weight is not None and label_smoothing:
            raise ValueError("CrossEntropyLoss: weight together with label_smoothing is not supported")

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        if self.weight is None:
            return ops.cross_entropy(
                input, label, self.axis, self.reduction, self.ignore_index, self.label_smoothing
            )
        logp = ops.log_softmax(input, self.axis)
        axis = self.axis % input.ndim
        if input.ndim > 1 and axis != 1:  # nll_loss reads classes from axis 1
            perm = [0, axis, *[i for i in range(1, input.ndim) if i != axis]]
            logp = ops.transpose(logp, perm)
        return ops.nll_loss(logp, label, self.weight, self.ignore_index, self.reduction)


class NLLLoss(_Loss):
    """Negative log-likelihood of log-probabilities (N, C, ...) against integer labels."""

    weight: Tensor | None  # a buffer (register_buffer)

    def __init__(
        self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean"
    ) -> None:
        super().__init__(reduction)
        self.register_buffer("weight", _weight("NLLLoss", "weight", weight))
        self.ignore_index = checks.integer("NLLLoss", "ignore_index", ignore_index)

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return ops.nll_loss(input, label, self.weight, self.ignore_index, self.reduction)


class MSELoss(_Loss):
    """Squared error (input - label) ** 2."""

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return ops.mse_loss(input, label, self.reduction)


class L1Loss(_Loss):
    """Absolute error |input - label|."""

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return ops.l1_loss(input, label, self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Sigmoid binary cross entropy of logits; `weight` scales each element, `pos_weight`
    (broadcast along the last axis) the positive term."""

    weight: Tensor | None  # a buffer (register_buffer)
    pos_weight: Tensor | None  # a buffer (register_buffer)

    def __init__(
        self, weight: Tensor | None = None, reduction: str = "mean", pos_weight: Tensor | None = None
    ) -> None:
        super().__init__(reduction)
        self.register_buffer("weight", _weight("BCEWithLogitsLoss", "weight", weight))
        self.register_buffer("pos_weight", _weight("BCEWithLogitsLoss", "pos_weight", pos_weight))

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return ops.binary_cross_entropy_with_logits(
            input, label, self.weight, self.reduction, self.pos_weight
        )


class SmoothL1Loss(_Loss):
    """Smooth L1 of d = input - label. With PyTorch's `beta` (the default, 1):
    0.5 * d**2 / beta where |d| < beta, else |d| - 0.5 * beta (beta = 0 is L1). With
    Paddle's `delta` (keyword only): the Huber loss 0.5 * d**2 where |d| < delta, else
    delta * (|d| - 0.5 * delta). Giving both is an error."""

    def __init__(
        self, reduction: str = "mean", beta: float | None = None, *, delta: float | None = None
    ) -> None:
        super().__init__(reduction)
        if beta is not None and delta is not None:
            raise ValueError("SmoothL1Loss: give beta (PyTorch's) or delta (Paddle's), not both")
        self.delta = None if delta is None else checks.real("SmoothL1Loss", "delta", delta, low=0.0)
        self.beta = (
            None
            if delta is not None
            else checks.real("SmoothL1Loss", "beta", 1.0 if beta is None else beta, 0.0)
        )
        if self.delta == 0:
            raise ValueError("SmoothL1Loss: delta must be > 0, got 0")

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        if self.delta is not None:
            return ops.smooth_l1_loss(input, label, self.reduction, self.delta)
        beta = self.beta
        assert beta is not None  # set whenever delta is not
        if beta == 0:
            return ops.l1_loss(input, label, self.reduction)
        return ops.smooth_l1_loss(input, label, self.reduction, beta) * (1.0 / beta)

    def extra_repr(self) -> str:
        what = f"delta={self.delta}" if self.delta is not None else f"beta={self.beta}"
        return f"reduction={self.reduction!r}, {what}"


class KLDivLoss(_Loss):
    """KL divergence label * (log(label) - input) of log-probabilities `input`; "batchmean"
    divides the sum by the batch size (the mathematically right mean); log_target takes
    label as log-probabilities."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        Module.__init__(self)
        self.reduction = _reduction("KLDivLoss", reduction, (*_REDUCTIONS, "batchmean"))
        self.log_target = checks.flag("KLDivLoss", "log_target", log_target)

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return ops.kl_div(input, label, self.reduction, self.log_target)
