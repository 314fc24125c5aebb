"""What the backends share: reduce operations, the handle of an asynchronous collective
(`Work`) and the helpers that turn a stuck or failed rank into an abort with a message."""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from typing import Any


class ReduceOp(enum.Enum):
    """How `all_reduce` / `reduce_scatter` combine the ranks' values (strings work too)."""

    SUM = "sum"
    MEAN = "mean"
    MAX = "max"
    MIN = "min"


def as_reduce_op(op: Any, where: str) -> ReduceOp:
    if isinstance(op, ReduceOp):
        return op
    if isinstance(op, str):
        try:
            return ReduceOp(op.lower())
        except ValueError:
            pass
    raise ValueError(f"{where}: op must be one of sum, mean, max, min (or a ReduceOp), got {op!r}")


class Work:
    """An asynchronous collective under way. `wait()` blocks until it is done (then runs its
    completion step, e.g. the division of a mean) and `is_completed()` asks without blocking.

    `test()` / `block()` come from the backend: `test()` says whether the transfer is done
    and `block()` waits for it. With a `timeout` (seconds), `wait()` polls `test()` and calls
    `on_timeout(what)` (an abort with a message) once the time is up."""

    __slots__ = ("_test", "_block", "_after", "_done", "what", "_timeout", "_on_timeout")

    def __init__(
        self,
        test: Callable[[], bool],
        block: Callable[[], None],
        what: str,
        after: Callable[[], None] | None = None,
        timeout: float | None = None,
        on_timeout: Callable[[str], None] | None = None,
    ) -> None:
        self._test = test
        self._block = block
        self._after = after
        self._done = False
        self.what = what
        self._timeout = timeout
        self._on_timeout = on_timeout

    def is_completed(self) -> bool:
        if not self._done and self._test():
            self._finish()
        return self._done

    def wait(self) -> None:
        if self._done:
            return
        if self._timeout is None:
            self._block()
        else:
            deadline = time.monotonic() + self._timeout
            pause = 1e-5
            while not self._test():
                if time.monotonic() > deadline:
                    assert self._on_timeout is not None
                    self._on_timeout(f"{self.what} did not complete within {self._timeout:g} s")
                time.sleep(pause)
                pause = min(pause * 2, 1e-3)
        self._finish()

    def _finish(self) -> None:
        self._done = True
        if self._after is not None:
            after, self._after = self._after, None
            after()


def done_work(what: str, after: Callable[[], None] | None = None) -> Work:
    """A Work for an operation that already finished (e.g. a one-rank group)."""
    work = Work(lambda: True, lambda: None, what, after)
    work.wait()
    return work
