"""Parameter: a Tensor that a Module registers as one of its learnable weights.

It is an ordinary leaf tensor (same slots, same ops) that requires grad by default; the
only difference is that assigning it as a Module attribute registers it, so it shows up in
`parameters()` and `state_dict()`. Ops on a Parameter return plain Tensors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opgrad.runtime.creation import to_array
from opgrad.runtime.device import move_array
from opgrad.runtime.tensor import Tensor


class Parameter(Tensor):
    """A learnable tensor. `Parameter(tensor)` shares the tensor's memory (as in PyTorch);
    other data (arrays, lists) is copied. Floating data requires grad unless told not to."""

    __slots__ = ()

    def __init__(self, data: Any = None, requires_grad: bool = True) -> None:
        if data is None:
            array = np.empty((0,), dtype=np.float32)
        elif isinstance(data, Tensor):
            array = data._data
        else:
            array = to_array(data, None, None, "Parameter")
        self._init_fields(array)
        if requires_grad:
            self.requires_grad = True

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol: Any) -> Any:
        # Pickling/deepcopy: the data and the flag; the autograd state starts fresh.
        return (_rebuild_parameter, (self.numpy().copy(), self._requires_grad, self.device))


def _rebuild_parameter(array: Any, requires_grad: bool, device: str) -> Parameter:
    p = Parameter(array, requires_grad=requires_grad)
    if device != "cpu":
        p._data = move_array(p._data, device)
    return p
