"""`og.autograd.forward_ad`: forward-mode automatic differentiation, PyTorch's spelling.

```python
with forward_ad.dual_level():
    x = forward_ad.make_dual(primal, tangent)
    y = f(x)
    value, jvp = forward_ad.unpack_dual(y)   # jvp = J(primal) @ tangent
```
Every op carries tangents forward while the level is open (explicit `jvp:` rules from
ops.yaml, or rules derived from the op's backward: see `runtime/dual.py`), in-place ops and
views included, also under `no_grad()` (grad mode controls reverse mode only). Tangent
computations are themselves recorded for reverse mode, so forward-over-reverse works. One
level at a time: opening a second one raises, as in PyTorch.
"""

from __future__ import annotations

from typing import NamedTuple

from opgrad.generated import ops
from opgrad.runtime.device import device_of
from opgrad.runtime.dual import FORWARD, rule_scope, set_tangent, tangent_of
from opgrad.runtime.tensor import Tensor

__all__ = [
    "UnpackedDualTensor",
    "dual_level",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
]

_levels = 0  # ids handed out so far; a closed level's tangents never match a later id


class UnpackedDualTensor(NamedTuple):
    primal: Tensor
    tangent: Tensor | None


def enter_dual_level() -> int:
    """Open a dual level (a second one while one is open is an error)."""
    global _levels
    if FORWARD.level:
        raise RuntimeError(
            "dual_level: nested forward mode AD is not supported; close the open dual_level first"
        )
    _levels += 1
    FORWARD.level = _levels
    FORWARD.set = []
    FORWARD.active = True
    return _levels


def exit_dual_level() -> None:
    """Close the open level; every tangent set in it is dropped."""
    if not FORWARD.level:
        raise RuntimeError("exit_dual_level: no dual level is open")
    for ref in FORWARD.set:
        t = ref()
        if t is not None:
            t._dual = None
    FORWARD.set = []
    FORWARD.outputs = {}
    FORWARD.level = 0
    FORWARD.active = False


class dual_level:  # noqa: N801  (PyTorch's spelling)
    """Context manager: forward mode is on inside; tangents are dropped on exit."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: object) -> None:
        exit_dual_level()


def make_dual(tensor: Tensor, tangent: Tensor) -> Tensor:
    """A view of `tensor` whose tangent is `tangent` (same shape, dtype and device; the
    tangent is kept as given, not copied). Differentiable in reverse mode like a view."""
    if not FORWARD.level:
        raise RuntimeError("make_dual: no dual level is open; call it inside `with forward_ad.dual_level():`")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"make_dual: tensor must be a Tensor, got {type(tensor).__name__}")
    if not isinstance(tangent, Tensor):
        raise TypeError(f"make_dual: tangent must be a Tensor, got {type(tangent).__name__}")
    if tensor.dtype.kind not in "fc":
        raise TypeError(
            f"make_dual: tensor must be floating or complex to carry a tangent, got {tensor.dtype}"
        )
    if tangent.shape != tensor.shape:
        raise ValueError(
            f"make_dual: tangent has shape {tangent.shape} but tensor has shape {tensor.shape}; "
            "they must be equal"
        )
    if tangent.dtype != tensor.dtype:
        raise TypeError(
            f"make_dual: tangent has dtype {tangent.dtype} but tensor has dtype {tensor.dtype}; "
            "they must be equal"
        )
    if device_of(tangent._data) != device_of(tensor._data):
        raise ValueError(
            f"make_dual: tangent is on {device_of(tangent._data)} but tensor is on "
            f"{device_of(tensor._data)}; they must be on one device"
        )
    if tangent_of(tangent) is not None:
        raise RuntimeError(
            "make_dual: the tangent is itself a dual tensor; nested forward mode is not supported"
        )
    with rule_scope():
        out = ops.reshape(tensor, tensor.shape)
    set_tangent(out, tangent)
    return out


def unpack_dual(tensor: Tensor) -> UnpackedDualTensor:
    """(primal, tangent): the primal is a view of `tensor` without tangent (still recorded
    for reverse mode); the tangent is None when there is none at the open level."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"unpack_dual: tensor must be a Tensor, got {type(tensor).__name__}")
    t = tangent_of(tensor)
    if t is None:
        return UnpackedDualTensor(tensor, None)
    with rule_scope():
        primal = ops.reshape(tensor, tensor.shape)
    return UnpackedDualTensor(primal, t)
