"""Typical user code that a type checker must accept, and mistakes it must reject.

Not a test module that pytest runs: mypy checks it, in `nox -s lint` and CI (it is in
pyproject's `[tool.mypy] files`) and in tests/test_typing.py. Each line that must be rejected
carries `# type: ignore[<code>]`: under `warn_unused_ignores` mypy fails if that line is
accepted (the ignore is then unused) or is rejected for another reason (another code).
`reveal_type` is avoided: its notes would fail the run.
"""

from __future__ import annotations

import numpy as np

import opgrad as og
from opgrad import nn, optim


def ops_take_numbers(x: og.Tensor) -> og.Tensor:
    # Numbers pass wherever a tensor argument is converted, in either operand position.
    a = og.maximum(x, 2.0) + og.where(x > 0, x, 0.0) + og.pow(x, 2)
    b = x * 2.0 + 2.0 * x - 1 + 1 / x + x**2 + (-x) + abs(x)
    c = og.add(1, x) + og.concat([x, x], axis=0).sum() + og.stack([x.sum(), 2.0]).sum()
    return a + b + c


def attributes(x: og.Tensor) -> og.Tensor:
    # int[] arguments take an int or a sequence of ints; attributes their own types.
    total = og.sum(x, axis=1).sum() + x.sum(axis=(0, 1)) + og.mean(x, axis=[0], keepdim=True).sum()
    y = x.reshape([2, 3]).transpose([1, 0]).reshape((3, 2)).reshape(6)
    values, indices = og.topk(y, 2, axis=-1)
    parts: list[og.Tensor] = og.split(y, [2, 4], axis=0)
    z = og.cast(x, "float64") + og.clip(x, min=0.0) + og.softplus(x, beta=2)
    return total + values.sum() + indices.sum() + parts[0].sum() + z.sum()


def tensors_and_autograd() -> float:
    x = og.tensor(np.ones((2, 3)), requires_grad=True)
    y = (x * x).sum()
    y.backward()
    grad = x.grad
    assert grad is not None
    inplace = og.zeros((2, 3))
    inplace += 1.0
    inplace.add_(x.detach())
    with og.no_grad():
        doubled = x * 2
    flag: bool = doubled.requires_grad
    return float(grad.numpy().sum()) + float(flag) + x.shape[0]


def training_step() -> float:
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=10)
    inputs = og.randn((8, 3))
    loss = og.mse_loss(model(inputs), og.zeros((8, 1)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    return float(loss.item())


def rejected(x: og.Tensor) -> None:
    og.sum(x, axis=1.5)  # type: ignore[arg-type]
    og.exp("x")  # type: ignore[arg-type]
    og.reshape(x, "2, 3")  # type: ignore[arg-type]
    og.mean(x, keepdim="yes")  # type: ignore[arg-type]
    x + "1"  # type: ignore[operator]
    og.topk(x, 2).shape()  # type: ignore[attr-defined]
