"""In-place ops: the checks and the write that every generated `op_` shares.

An in-place op computes its result like the out-of-place op, then writes it into the
target's memory, bumps the memory's version counter, and (when recording) makes the target
the output of the new node, so later uses see the new history. What it refuses, before
changing anything:
- a leaf that requires grad, while grad mode is on (its `.grad` would be meaningless);
- memory shared with another tensor (a view or its base) while anything involved requires
  grad: only one of the aliases could get the new history, so the others' gradients would
  silently be wrong. Use the out-of-place op, or write under `og.no_grad()`.
- a result whose shape differs from the target's (in-place ops cannot broadcast the target).

The direct write. An op with `inplace_into: true` (ops.yaml) first offers the write to its
kernel's *into* variant (`write_into`, kernels/registry.py): when no node is recorded and
forward mode is off, the result is computed straight into x's memory, with no new array and
no copy back. The variant writes nothing unless the result has x's shape and a dtype x can
hold (same_kind), as NumPy's `out=` checks before its loop; when it declines or raises,
nothing has been written and the op takes the general path above, which raises the error it
always raised. One exception, a NumPy one: a floating-point error NumPy reports after its
loop (`numpy.seterr(...='raise')`, or a RuntimeWarning turned into an error) comes after x
holds the whole result; `write_into` then bumps x's version and lets the error through.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opgrad.runtime.device import array_module
from opgrad.runtime.dual import FORWARD, note_view
from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.kernels.registry import _INTO, Kernel
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.version import VersionCounter, bump_version, share_version


def check_inplace(op: str, x: Tensor, *others: Tensor | None) -> bool:
    """Validate an in-place write into `x`; True when the op must record a node."""
    if not grad_enabled():
        return False
    needs = x._requires_grad or any(o is not None and o._requires_grad for o in others)
    if not needs:
        return False
    if x._requires_grad and x._node is None:
        raise RuntimeError(
            f"{op}: x is a leaf tensor that requires grad and cannot be modified in place while "
            "gradients are recorded; use the out-of-place op, or update it under og.no_grad() "
            "(as optimizers do)"
        )
    vc = x._vc
    if vc is not None and vc.shared:
        raise RuntimeError(
            f"{op}: x shares its memory with another tensor (a view such as a slice or reshape, or "
            "the tensor it is a view of) and autograd is recording, so the other tensor's "
            "gradient would be wrong; use the out-of-place op, or clone the tensor first"
        )
    return True


def saved_before_write(x: Tensor) -> Tensor:
    """A copy of `x` as it is now, with its current history, for a backward that needs the
    value `x` had before the write."""
    t = wrap(x._data.copy())
    t._requires_grad = x._requires_grad
    t._node = x._node
    t._pos = x._pos
    t._acc = x._acc
    return t


def _can_cast(src: Any, dst: Any) -> bool:
    return bool(np.can_cast(src, dst, casting="same_kind"))


def write_inplace(op: str, x: Tensor, result: Any) -> None:
    """Copy `result` into x's memory and bump its version."""
    data = x._data
    if result.shape != data.shape:
        raise ValueError(
            f"{op}: the result has shape {tuple(result.shape)} but x has shape {tuple(data.shape)}; "
            "an in-place op cannot change (or broadcast) the shape of x"
        )
    if result.dtype != data.dtype and not _can_cast(result.dtype, data.dtype):
        raise TypeError(
            f"{op}: the result has dtype {result.dtype}, which cannot be stored in x of dtype "
            f"{data.dtype} without losing information; convert x first (x.astype(...))"
        )
    if not data.flags.writeable:
        raise RuntimeError(
            f"{op}: x is a read-only view (e.g. made by expand); clone it before writing in place"
        )
    if result is not data:
        data[...] = result
    bump_version(x)


def write_into(x: Tensor, table: dict[type, Kernel], arrays: tuple[Any, ...], *attrs: Any) -> bool:
    """Compute an op straight into x's memory with the into variant of its kernel (`table`,
    the op's resolved kernels by array type); `arrays` and `attrs` are the kernel's
    arguments. True: written, x's version bumped. False: nothing written, and the caller
    takes the general path (see the module docstring).

    Every optimizer step of a hand-written update runs this (`p.subtract_(p.grad * lr)`),
    so the look-ups and the version bump are inline (`into_of`, `bump_version`: ~0.1 us a
    call less)."""
    data = x._data
    cls = data.__class__
    for a in arrays:
        if a.__class__ is not cls:  # mixed devices: the general path explains
            return False
    kernel = table.get(cls)
    into = None if kernel is None else _INTO.get(kernel)
    if into is None or not data.flags.writeable:
        return False
    try:
        done = into(data, *arrays, *attrs)
    except (TypeError, ValueError, OverflowError):  # refused before writing (shape, dtype, an argument)
        return False
    except BaseException:  # reported after the loop: x holds the whole result
        bump_version(x)
        raise
    if not done:
        return False
    vc = x._vc  # bump_version(x), inline
    if vc is None:
        vc = x._vc = VersionCounter()
    vc.value += 1
    return True


def mark_view(out: Tensor, base: Tensor) -> None:
    """After a view op: if `out` shares memory with `base` (NumPy returned a view), make them
    share one version counter, so an in-place write through either is seen by both."""
    a, b = out._data, base._data
    if a is b or array_module(a).may_share_memory(a, b):
        share_version(out, base)
        if FORWARD.level:
            note_view(out, base)
