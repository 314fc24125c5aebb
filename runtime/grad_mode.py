"""Grad mode: whether ops record the backward graph, per thread.

`no_grad`, `enable_grad` and `set_grad_enabled` are context managers and decorators (and
`set_grad_enabled(flag)` also works as a plain call). The flag lives in a thread-local, so
one thread's `no_grad` never affects another's; generated ops read it via `grad_enabled()`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _State(threading.local):
    enabled: bool = True


_STATE = _State()
# How many threads have grad mode off right now. While none has (the common case), the
# answer is True without reading the thread-local. Changed under the lock, so it is exact;
# a thread that ends with grad mode off only leaves the check on its slower path.
_OFF = 0
_OFF_LOCK = threading.Lock()


def grad_enabled() -> bool:
    """True when ops should record the backward graph (this thread)."""
    return not _OFF or _STATE.enabled


is_grad_enabled = grad_enabled


class _GradModeContext:
    """Base for the grad-mode context managers: restores the previous mode on exit."""

    __slots__ = ("_prev", "_mode")

    def __init__(self, mode: bool) -> None:
        self._mode = mode
        self._prev: list[bool] = []

    def __enter__(self) -> None:
        self._prev.append(_set_enabled(self._mode))

    def __exit__(self, *exc: object) -> None:
        _set_enabled(self._prev.pop())

    def __call__(self, fn: F) -> F:
        mode = self._mode

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with _GradModeContext(mode):
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


class no_grad(_GradModeContext):
    """Disable graph recording inside the block / decorated function."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(False)


class enable_grad(_GradModeContext):
    """Enable graph recording inside the block / decorated function (e.g. within no_grad)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(True)


class set_grad_enabled(_GradModeContext):
    """`set_grad_enabled(flag)` sets the mode now; used with `with`, it restores it on exit."""

    __slots__ = ()

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled: mode must be a bool, got {type(mode).__name__}")
        super().__init__(mode)
        self._prev.append(_set_enabled(mode))

    def __enter__(self) -> None:
        pass  # the mode was already set by the constructor

    def __call__(self, fn: F) -> F:
        # Used as a decorator: undo the constructor's immediate switch, apply per call.
        _set_enabled(self._prev.pop())
        return super().__call__(fn)


def _set_enabled(flag: bool) -> bool:
    """Set the mode and return the previous one (for the engine)."""
    global _OFF
    prev = _STATE.enabled
    flag = bool(flag)
    if flag != prev:
        with _OFF_LOCK:
            _OFF += 1 if prev else -1
        _STATE.enabled = flag
    return prev
