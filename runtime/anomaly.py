"""Anomaly mode: find the forward line behind a NaN or inf in backward.

Inside `detect_anomaly()`, every node records the user-code stack where it was created;
the engine checks each gradient a node returns, and a NaN (or, with `check_inf=True`, an
inf) raises an error that names the node and shows that forward stack.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

_RUNTIME_DIRS = (
    os.path.dirname(os.path.abspath(__file__)),
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "generated"),
)


class _State:
    __slots__ = ("enabled", "check_nan", "check_inf", "depth")

    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True
        self.check_inf = False
        self.depth = 0


STATE = _State()


def capture_trace() -> str:
    """The current stack without opgrad's own frames, formatted for an error message."""
    frames = [
        f
        for f in traceback.extract_stack()[:-1]
        if not f.filename.startswith(_RUNTIME_DIRS) and "/opgrad/" not in f.filename
    ]
    return "".join(traceback.format_list(frames))


class detect_anomaly:
    """Context manager: record forward sites and check backward gradients for NaN/inf."""

    def __init__(self, check_nan: bool = True, check_inf: bool = False) -> None:
        self.check_nan = check_nan
        self.check_inf = check_inf
        self._saved: tuple[bool, bool, bool] | None = None

    def __enter__(self) -> detect_anomaly:
        self._saved = (STATE.enabled, STATE.check_nan, STATE.check_inf)
        STATE.enabled = True
        STATE.check_nan = self.check_nan
        STATE.check_inf = self.check_inf
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._saved is not None
        STATE.enabled, STATE.check_nan, STATE.check_inf = self._saved


def is_enabled() -> bool:
    return STATE.enabled


def check_gradient(node: Any, index: int, array: Any) -> None:
    """Raise if `array` (gradient `index` returned by `node`) has NaN/inf under anomaly mode."""
    if array.dtype.kind not in "fc":
        return
    xp = _module_of(array)
    bad = None
    if STATE.check_nan and bool(xp.isnan(array).any()):
        bad = "NaN"
    elif STATE.check_inf and bool(xp.isinf(array).any()):
        bad = "inf"
    if bad is None:
        return
    site = node.trace or "  (the node was created outside detect_anomaly(), so its forward site is unknown)\n"
    raise FloatingPointError(
        f"{type(node).__name__} ({node.name}) returned {bad} values in its gradient for input {index}.\n"
        f"The forward call that created this node:\n{site}"
    )


def _module_of(array: Any) -> Any:
    from opgrad.runtime.kernels.registry import get_array_module

    return get_array_module(array)
