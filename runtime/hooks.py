"""Hook bookkeeping shared by tensors and grad nodes: handles, ids and the per-node tables.

Kept apart from `grad_node` so that `tensor` (which registers hooks) does not import the
graph: the graph imports `tensor`, never the other way round.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opgrad.runtime.tensor import Tensor

# Every registered hook's key: unique across tensors and nodes, in registration order.
HOOK_IDS = itertools.count()


class RemovableHandle:
    """Returned by `register_hook`; `remove()` unregisters the hook (idempotent)."""

    __slots__ = ("_container", "_key")

    def __init__(self, container: dict[int, Any], key: int) -> None:
        self._container = container
        self._key = key

    def remove(self) -> None:
        self._container.pop(self._key, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


class NodeHooks:
    """The rarely used per-node state (hook tables, Tensor[] slot layout), allocated on
    first use so that creating a node stays cheap."""

    __slots__ = ("tensor", "retain", "pre", "post", "output_slots")

    def __init__(self) -> None:
        self.output_slots: list[tuple[int, int]] | None = None
        self.tensor: dict[int, dict[int, Callable[[Any], Any]]] = {}  # pos -> tensor hooks
        self.retain: dict[int, weakref.ref[Tensor]] = {}  # pos -> non-leaf retaining .grad
        self.pre: dict[int, Callable[..., Any]] = {}
        self.post: dict[int, Callable[..., Any]] = {}


def hook_name(fn: Any) -> str:
    """How an error names a hook: its qualified name, else its repr."""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    return repr(name) if isinstance(name, str) else repr(fn)
