"""Version counters: how many in-place writes a tensor's memory has seen.

A tensor gets a counter on first need (most never do); views and detached aliases share
their base's counter, so a write through any of them is seen by all. Saved tensors compare
the counter with its value at save time (see `tensor_wrapper`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opgrad.runtime.tensor import Tensor


class VersionCounter:
    """Counts in-place writes to a tensor's memory; views share their base's counter.

    `shared` is set once a second tensor (a view, a detached alias) uses the counter: the
    memory then has several tensors, which in-place ops must respect. `watch` is set only
    on memory shared with another library (`runtime/dlpack.py`).
    """

    __slots__ = ("value", "shared", "watch")
    watch: Any  # (arrays, fingerprint), only on watched counters

    def __init__(self) -> None:
        self.value = 0
        self.shared = False


def counter_of(t: Tensor) -> VersionCounter:
    """`t`'s version counter, created on first need (most tensors never need one)."""
    vc = t._vc
    if vc is None:
        vc = t._vc = VersionCounter()
    return vc


def bump_version(t: Tensor) -> None:
    """Record one in-place write into `t`'s memory (after the write)."""
    counter_of(t).value += 1


def bump_versions(*tensors: Tensor | None) -> None:
    """After a kernel wrote into these tensors' memory (an op's `mutates:` arguments, such
    as batch_norm's running statistics): one version each; None entries are skipped."""
    for t in tensors:
        if t is not None:
            bump_version(t)


def share_version(view: Tensor, base: Tensor) -> None:
    """Make `view` (which shares memory with `base`) count versions with `base`."""
    vc = counter_of(base)
    vc.shared = True
    view._vc = vc
