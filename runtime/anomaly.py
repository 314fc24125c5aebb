"""Anomaly mode: find the forward line behind a NaN or inf in backward.

Inside `detect_anomaly()`, every node records the user-code stack where it was created;
the engine checks each gradient a node returns, and a NaN (or, with `check_inf=True`, an
inf) raises an error that names the node and shows that forward stack. The mode is per
thread, like grad mode: one thread's detect_anomaly() never raises in another's backward
(while any thread has it on, other threads' nodes also record their stack; that only costs
time).
"""

from __future__ import annotations

import os
import threading
import traceback
from typing import Any

from opgrad.runtime.device import array_module

_HERE = os.path.dirname(os.path.abspath(__file__))
_PARENT = os.path.dirname(_HERE)  # the source tree's root, or the installed `opgrad` package
# opgrad's own folders: runtime/, generated/ and the facade opgrad/ (source tree), or the
# installed package's subfolders; a user's folder that happens to be named opgrad is not one
_OWN_DIRS = tuple(os.path.join(_PARENT, d) + os.sep for d in ("runtime", "generated", "opgrad")) + (
    _HERE + os.sep,
)
_INSTALLED = os.path.isfile(os.path.join(_PARENT, "__init__.py"))  # opgrad/__init__.py beside runtime/


def _own_frame(filename: str) -> bool:
    return filename.startswith(_OWN_DIRS) or (_INSTALLED and os.path.dirname(filename) == _PARENT)


class _State:
    """`enabled`: whether any thread has anomaly mode on. Hot paths (node creation, the
    engine) read only this plain flag, so with anomaly mode off everywhere they pay one
    attribute read. `depth` counts the threads inside detect_anomaly(), under the lock."""

    __slots__ = ("enabled", "depth")

    def __init__(self) -> None:
        self.enabled = False
        self.depth = 0


class _ThreadState(threading.local):
    """This thread's mode: what `detect_anomaly()` set here (and nowhere else)."""

    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True
        self.check_inf = False


STATE = _State()
_LOCAL = _ThreadState()
_LOCK = threading.Lock()


def capture_trace() -> str:
    """The current stack without opgrad's own frames, formatted for an error message."""
    frames = [f for f in traceback.extract_stack()[:-1] if not _own_frame(f.filename)]
    return "".join(traceback.format_list(frames))


class detect_anomaly:
    """Context manager: record forward sites and check backward gradients for NaN/inf."""

    def __init__(self, check_nan: bool = True, check_inf: bool = False) -> None:
        self.check_nan = check_nan
        self.check_inf = check_inf
        self._saved: tuple[bool, bool, bool] | None = None

    def __enter__(self) -> detect_anomaly:
        local = _LOCAL
        self._saved = (local.enabled, local.check_nan, local.check_inf)
        local.check_nan = self.check_nan
        local.check_inf = self.check_inf
        _set_enabled(True)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._saved is not None
        enabled, _LOCAL.check_nan, _LOCAL.check_inf = self._saved
        _set_enabled(enabled)


def _set_enabled(flag: bool) -> None:
    """Switch this thread's mode, keeping STATE.enabled true while any thread has it on."""
    if flag == _LOCAL.enabled:
        return
    _LOCAL.enabled = flag
    with _LOCK:
        STATE.depth += 1 if flag else -1
        STATE.enabled = STATE.depth > 0


def is_enabled() -> bool:
    """Whether anomaly mode is on in this thread."""
    return _LOCAL.enabled


def settings() -> tuple[bool, bool]:
    """This thread's (check_nan, check_inf)."""
    return _LOCAL.check_nan, _LOCAL.check_inf


def check_gradient(node: Any, index: int, array: Any) -> None:
    """Raise if `array` (gradient `index` returned by `node`) has NaN/inf under anomaly mode."""
    local = _LOCAL
    if not local.enabled or array.dtype.kind not in "fc":
        return  # another thread's anomaly mode, or integers (never NaN)
    xp = array_module(array)
    bad = None
    if local.check_nan and bool(xp.isnan(array).any()):
        bad = "NaN"
    elif local.check_inf and bool(xp.isinf(array).any()):
        bad = "inf"
    if bad is None:
        return
    site = node.trace or "  (the node was created outside detect_anomaly(), so its forward site is unknown)\n"
    raise FloatingPointError(
        f"{type(node).__name__} ({node.name}) returned {bad} values in its gradient for input {index}.\n"
        f"The forward call that created this node:\n{site}"
    )
