"""Moving a tensor between devices, differentiably (the gradient moves back)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from opgrad.runtime import device as _device
from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.tensor import Tensor, wrap


class ToDeviceGradNode(GradNode):
    __slots__ = ("source",)
    source: str  # the device x was on
    name = "to_device_grad"
    _plain = True  # run inline by the engine (GradNode._plain)

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        return (to_device(grads[0], self.source),)


def to_device(x: Tensor, device: Any) -> Tensor:
    """`x` on `device`; the same tensor when it is already there."""
    target = _device.normalize_device(device)
    source = x.device
    if source == target:
        return x
    out = wrap(_device.move_array(x._data, target))
    if x._requires_grad and grad_enabled():
        node = ToDeviceGradNode((x,))
        node.source = source
        set_history(out, node, 0)
    return out
