"""DistributedDataParallel: averages gradients across ranks while backward runs.

At construction the parameters and buffers are broadcast from rank 0 (checked: models
whose parameter shapes differ across ranks fail there with a clear error). The
parameters that require grad are split, in reverse registration order (roughly the order
backward produces their gradients), into buckets of at most `bucket_cap_mb` MiB of one
dtype and array type. Each parameter's post-accumulate-grad hook marks it ready; when a
bucket is complete (and every bucket before it has started, so all ranks start the same
collectives in the same order) its gradients are copied into one flat array and its
non-blocking all-reduce starts. A final engine callback (`queue_callback`) starts what is
left, waits for every bucket, divides by the world size and sets each `.grad` to its slice
of the averaged bucket. Any `og.optim` optimizer then steps as usual.

Buffers (e.g. BatchNorm running statistics) are broadcast from rank 0 before every forward
when `broadcast_buffers=True` (the default, as PyTorch does), so all ranks use rank 0's.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from opgrad.runtime.device import module_of_type
from opgrad.runtime.distributed import group
from opgrad.runtime.distributed.common import Work
from opgrad.runtime.engine import queue_callback
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_mode import grad_enabled, no_grad
from opgrad.runtime.nn.module import Module
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.version import bump_version


class _Bucket:
    __slots__ = (
        "index",
        "params",
        "offsets",
        "numel",
        "dtype",
        "xp",
        "ready",
        "got",
        "pending",
        "flat",
        "work",
    )

    def __init__(self, index: int, params: list[Any], xp: Any) -> None:
        self.index = index
        self.params = params
        self.offsets = []
        n = 0
        for p in params:
            self.offsets.append(n)
            n += p._data.size
        self.numel = n
        self.dtype = params[0]._data.dtype
        self.xp = xp
        self.ready = [False] * len(params)  # its slice may be copied into the bucket
        self.got = [False] * len(params)  # a gradient arrived in this pass
        self.pending = len(params)
        self.flat: Any = None
        self.work: Work | None = None


def _buckets(params: list[Any], cap_bytes: int) -> list[_Bucket]:
    groups: dict[tuple[Any, Any], list[list[Any]]] = {}
    sizes: dict[tuple[Any, Any], int] = {}
    order: list[list[Any]] = []
    for p in reversed(params):
        key = (p._data.dtype, p._data.__class__)
        nbytes = p._data.nbytes
        runs = groups.setdefault(key, [])
        if not runs or (sizes[key] + nbytes > cap_bytes and runs[-1]):
            runs.append([])
            order.append(runs[-1])
            sizes[key] = 0
        runs[-1].append(p)
        sizes[key] += nbytes
    return [_Bucket(i, ps, module_of_type(ps[0]._data.__class__) or np) for i, ps in enumerate(order)]


def _reachable_leaves(out: Any) -> set[int]:
    """ids of the leaves the autograd graph of `out` (tensors in nested lists/tuples/dicts)
    reaches: the parameters this forward used."""
    stack = []
    todo = [out]
    while todo:
        x = todo.pop()
        if isinstance(x, Tensor):
            if x._node is not None:
                stack.append(x._node)
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
    seen: set[int] = set()
    found: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.__class__ is AccumulateGrad:
            found.add(id(node.variable))
        for child in node._next:
            if child is not None:
                stack.append(child)
    return found


class DistributedDataParallel(Module):
    """Wraps `module` for data-parallel training; call it as the module. See the module
    docstring and docs/distributed.md. `last_timings` holds, after each synchronised
    backward, perf_counter times: `first_grad`, `last_grad` (hooks), `bucket_starts` (one
    per bucket, in launch order) and `backward_end` (the engine's final callback)."""

    # Kept in __dict__ past Module.__setattr__, which would register them (see __init__).
    _backend: Any
    _find_unused: bool
    _broadcast_buffers: bool
    _sync: bool
    _active: bool
    _unused: Sequence[Tensor]
    _names: dict[int, str]
    _buckets: list[_Bucket]
    _slot: dict[int, tuple[_Bucket, int]]
    _handles: list[Any]
    _next: int  # the next bucket to launch
    _t: dict[str, Any]  # this backward's timings, `last_timings` once it ends

    def __init__(
        self,
        module: Module,
        bucket_cap_mb: float = 25,
        find_unused_parameters: bool = False,
        broadcast_buffers: bool = True,
    ) -> None:
        super().__init__()
        where = "DistributedDataParallel"
        if not isinstance(module, Module):
            raise TypeError(f"{where}: module must be an og.nn.Module, got {type(module).__name__}")
        cap = bucket_cap_mb
        if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not cap > 0:
            raise ValueError(f"{where}: bucket_cap_mb must be a positive number, got {bucket_cap_mb!r}")
        backend = group._backend(where)
        self.module = module
        d = self.__dict__
        d["_backend"] = backend
        d["_find_unused"] = bool(find_unused_parameters)
        d["_broadcast_buffers"] = bool(broadcast_buffers)
        d["_sync"] = True
        d["_active"] = False
        d["_unused"] = ()
        d["last_timings"] = None
        with no_grad():
            for p in module.parameters():
                group.broadcast(p, 0)
            for b in module.buffers():
                group.broadcast(b, 0)
        params: list[Any] = []
        names: dict[int, str] = {}
        for name, p in module.named_parameters():
            if p._requires_grad and id(p) not in names:
                params.append(p)
                names[id(p)] = name
        d["_names"] = names
        d["_buckets"] = _buckets(params, int(bucket_cap_mb * 2**20))
        d["_slot"] = {id(p): (b, i) for b in self._buckets for i, p in enumerate(b.params)}
        d["_handles"] = [p.register_post_accumulate_grad_hook(self._on_grad) for p in params]

    @property
    def bucket_sizes(self) -> list[int]:
        """Parameters per bucket, in launch order."""
        return [len(b.params) for b in self._buckets]

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        backend = self._backend
        # a backward that raised never reached the final callback: start the next one afresh
        self.__dict__["_active"] = False
        if self._broadcast_buffers and backend.size > 1:
            for b in self.module.buffers():
                backend.broadcast(b._data, 0, "DDP buffer broadcast").wait()
                bump_version(b)
        out = self.module(*args, **kwargs)
        if self._find_unused and self._sync and grad_enabled():
            used = _reachable_leaves(out)
            self.__dict__["_unused"] = [p for b in self._buckets for p in b.params if id(p) not in used]
        return out

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """Backward passes inside accumulate gradients locally, without communication; the
        first synchronised backward after it averages the accumulated gradients."""
        old = self._sync
        self.__dict__["_sync"] = False
        try:
            yield
        finally:
            self.__dict__["_sync"] = old

    # -- the reducer -------------------------------------------------------------------
    def _begin(self) -> None:
        d = self.__dict__
        d["_active"] = True
        d["_next"] = 0
        d["_t"] = {"first_grad": time.perf_counter(), "bucket_starts": []}
        for b in self._buckets:
            b.ready = [False] * len(b.params)
            b.got = [False] * len(b.params)
            b.pending = len(b.params)
            b.flat = b.work = None
        queue_callback(self._end)
        for p in self._unused:
            self._mark(p)
        d["_unused"] = ()

    def _on_grad(self, p: Any) -> None:
        if not self._sync:
            return
        if not self._active:
            self._begin()
        b, i = self._slot[id(p)]
        if b.got[i]:
            raise RuntimeError(
                f"DistributedDataParallel: parameter {self._names[id(p)]!r} received a gradient twice in one "
                "synchronised backward (backward ran twice through it); use no_sync() for "
                "all but the last backward of an accumulation"
            )
        b.got[i] = True
        self._mark(p)
        self._t["last_grad"] = time.perf_counter()

    def _mark(self, p: Any) -> None:
        b, i = self._slot[id(p)]
        if not b.ready[i]:
            b.ready[i] = True
            b.pending -= 1
        buckets = self._buckets
        while self._next < len(buckets) and buckets[self._next].pending == 0:
            self._launch(buckets[self._next])

    def _launch(self, b: _Bucket) -> None:
        flat = b.xp.empty(b.numel, b.dtype)
        for p, off in zip(b.params, b.offsets, strict=True):
            n = p._data.size
            g = p._grad
            if g is None:
                flat[off : off + n] = 0
            else:
                flat[off : off + n] = g._data.reshape(-1)
        b.flat = flat
        self._t["bucket_starts"].append(time.perf_counter())
        what = f"DDP all_reduce of bucket {b.index} on rank {self._backend.rank}"
        b.work = group.raw_all_reduce(flat, what)
        self.__dict__["_next"] = b.index + 1
        for earlier in self._buckets[: b.index]:  # let MPI progress the ones under way
            if earlier.work is not None:
                earlier.work.is_completed()

    def _end(self) -> None:
        t = self._t
        t["backward_end"] = time.perf_counter()
        self.__dict__["_active"] = False
        names = self._names
        missing = [names[id(p)] for b in self._buckets for p, g in zip(b.params, b.got, strict=True) if not g]
        if missing and not self._find_unused:
            raise RuntimeError(
                "DistributedDataParallel: these parameters got no gradient in this backward pass: "
                f"{', '.join(missing)}; pass find_unused_parameters=True if the forward does not use them all"
            )
        used = used_work = None
        if self._find_unused:
            # which parameters got a gradient on some rank: those whose .grad is set
            used = np.array([g for b in self._buckets for g in b.got], np.int32)
            for b in self._buckets:  # every bucket starts before the map, in the same order on all ranks
                for p, r in zip(b.params, b.ready, strict=True):
                    if not r:
                        self._mark(p)
            used_work = group.raw_all_reduce(used, f"DDP used-parameter map on rank {self._backend.rank}")
        size = self._backend.size
        for b in self._buckets:
            assert b.work is not None
            b.work.wait()
        if used_work is not None:
            used_work.wait()
        k = 0
        for b in self._buckets:
            flat = b.flat
            if size > 1:
                flat /= size
            for p, off in zip(b.params, b.offsets, strict=True):
                if used is None or used[k]:
                    p._grad = wrap(flat[off : off + p._data.size].reshape(p._data.shape))
                    p._extra_state().grad_owned = False
                k += 1
        t["done"] = time.perf_counter()
        self.__dict__["last_timings"] = t
