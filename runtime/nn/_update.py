"""Writing into a tensor's memory outside autograd: what optimizers, `nn.init` and
`load_state_dict` share.

Every such write bumps the tensor's version counter (as `runtime.inplace.write_inplace`
does), so a graph that saved the tensor before the write refuses to use the stale value
("modified by an in-place operation") instead of silently computing a wrong gradient.
"""

from __future__ import annotations

from typing import Any

from opgrad.runtime.device import array_module
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.version import bump_version

__all__ = ["assign", "bump_version"]


def assign(t: Tensor, value: Any, what: str) -> None:
    """Copy `value` (an array of t's shape, on any device) into t's memory and bump its version."""
    data = t._data
    if tuple(value.shape) != tuple(data.shape):
        raise ValueError(f"{what}: expected shape {tuple(data.shape)}, got {tuple(value.shape)}")
    if type(value) is not type(data):
        xp = array_module(data)
        value = xp.asarray(value.get() if hasattr(value, "get") else value)
    data[...] = value
    bump_version(t)
