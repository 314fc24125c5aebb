"""The process group (one per process) and the collectives on tensors.

Every collective takes an `og.Tensor` (its array is written in place, and its version is
bumped so autograd notices) or a bare NumPy/CuPy array, and goes to the backend without a
copy when the array is C-contiguous. With `check=True` (the default) each collective first
all-gathers a small int64 row (which collective, root or op, dtype, shape) and raises the
same ValueError on every rank when the ranks disagree, instead of hanging or reading
garbage; `send`/`recv` send that row ahead of the data and the receiver checks it. The
check costs one small extra message per call; `check=False` turns it off. DDP's per-step
gradient all-reduces never check (their layout is checked once, at construction).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.runtime.device import module_of_type
from opgrad.runtime.distributed.common import ReduceOp, Work, as_reduce_op
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.version import bump_version

_KINDS = ("all_reduce", "broadcast", "all_gather", "reduce_scatter", "send/recv", "barrier")
_OP_CODES = {op: i for i, op in enumerate(ReduceOp)}
_MAXDIM = 6
_ROW = 5 + _MAXDIM


class _State:
    __slots__ = ("backend", "check", "excepthook")

    def __init__(self) -> None:
        self.backend: Any = None
        self.check = True
        self.excepthook: Callable[..., Any] | None = None


_STATE = _State()


def init_process_group(
    backend: Any = "mpi",
    *,
    timeout: float | None = None,
    check: bool = True,
    abort_on_error: bool = True,
) -> None:
    """Join the job the launcher (mpiexec) started: rank and world size come from it.

    backend: "mpi" (mpi4py, NumPy arrays), "nccl" (CuPy arrays through cupy.cuda.nccl;
    MPI carries the setup), or a backend object (the tests' stand-in). timeout: seconds a
    collective may wait before every rank is aborted with a message (MPI only; None waits
    forever). check: compare shapes and dtypes across ranks before each collective.
    abort_on_error: an uncaught exception on any rank prints its traceback and aborts the
    whole job (MPI_Abort) so the other ranks do not wait forever in a collective."""
    if _STATE.backend is not None:
        raise RuntimeError(
            "init_process_group: the process group is already initialised "
            f"(backend {_STATE.backend.name!r}); call destroy_process_group() first"
        )
    if timeout is not None and not timeout > 0:
        raise ValueError(f"init_process_group: timeout must be a positive number of seconds, got {timeout!r}")
    if backend == "mpi":
        _STATE.backend = _mpi_module().MPIBackend(timeout)
    elif backend == "nccl":
        _STATE.backend = _nccl_module().NCCLBackend(timeout=timeout)
    elif isinstance(backend, str):
        raise ValueError(f"init_process_group: backend must be 'mpi' or 'nccl', got {backend!r}")
    else:
        _STATE.backend = backend
    _STATE.check = bool(check)
    if abort_on_error:
        _STATE.excepthook = sys.excepthook
        sys.excepthook = _abort_on_uncaught


def _mpi_module() -> Any:
    # mpi4py is an optional dependency (the `distributed` extra) and initialises MPI when it
    # is imported, so it is imported when a group is made, not with opgrad.
    try:
        from opgrad.runtime.distributed import mpi_backend
    except ImportError as e:
        raise RuntimeError(
            "init_process_group: the MPI backend needs mpi4py and an MPI library: "
            "pip install 'opgrad[distributed]' (mpi4py and the mpich wheel)"
        ) from e
    return mpi_backend


def _nccl_module() -> Any:
    _mpi_module()
    from opgrad.runtime.distributed import nccl_backend

    return nccl_backend


def _abort_on_uncaught(tp: type, value: BaseException, tb: Any) -> None:
    hook = _STATE.excepthook or sys.__excepthook__
    hook(tp, value, tb)
    backend = _STATE.backend
    if backend is not None and backend.size > 1:
        backend.abort(f"uncaught {tp.__name__}: {value}")


def destroy_process_group() -> None:
    """Leave the group (MPI itself is finalised when the process exits)."""
    backend = _backend("destroy_process_group")
    _STATE.backend = None
    if _STATE.excepthook is not None:
        sys.excepthook, _STATE.excepthook = _STATE.excepthook, None
    backend.close()


def is_initialized() -> bool:
    return _STATE.backend is not None


def _backend(where: str) -> Any:
    backend = _STATE.backend
    if backend is None:
        raise RuntimeError(
            f"{where}: the default process group is not initialised; call "
            "og.distributed.init_process_group() first (and launch with mpiexec -n N)"
        )
    return backend


def get_backend() -> str:
    return _backend("get_backend").name


def get_rank() -> int:
    return _backend("get_rank").rank


def get_world_size() -> int:
    return _backend("get_world_size").size


def barrier() -> None:
    backend = _backend("barrier")
    _check(backend, "barrier", 5, -1, None)
    backend.barrier(f"barrier on rank {backend.rank}").wait()


# --- argument handling and the metadata check ---------------------------------------------


def _array(x: Any, where: str, arg: str) -> Any:
    if isinstance(x, Tensor):
        return x._data
    if hasattr(x, "__array_interface__") or hasattr(x, "__cuda_array_interface__"):
        if not hasattr(x, "dtype"):
            raise TypeError(f"{where}: {arg} must be a Tensor or an array, got {type(x).__name__}")
        return x
    raise TypeError(f"{where}: {arg} must be an og.Tensor or a NumPy/CuPy array, got {type(x).__name__}")


def _contiguous(data: Any) -> Any:
    if data.flags.c_contiguous:
        return data
    return data.copy(order="C")


def _written(x: Any, data: Any, buf: Any) -> None:
    """After a collective wrote `buf` (maybe a contiguous copy of `data`, x's array)."""
    if buf is not data:
        data[...] = buf
    if isinstance(x, Tensor):
        bump_version(x)


def _describe(row: np.ndarray) -> str:
    kind = _KINDS[row[0]] if 0 <= row[0] < len(_KINDS) else "?"
    if row[0] == 5:
        return kind
    dtype = np.dtype(chr(row[2] % 256)) if row[2] >= 0 else "?"
    ndim = int(row[3])
    shape = tuple(int(s) for s in row[5 : 5 + min(ndim, _MAXDIM)])
    shown = str(shape) if ndim <= _MAXDIM else f"{ndim}-d, {row[4]} elements"
    return f"{kind}({dtype}, shape {shown}, op/root/peer {int(row[1])})"


def _meta(kind: int, extra: int, arr: Any) -> np.ndarray:
    row = np.full(_ROW, -1, np.int64)
    row[0], row[1] = kind, extra
    if arr is not None:
        row[2] = ord(arr.dtype.char) + 256 * arr.dtype.itemsize
        row[3], row[4] = arr.ndim, arr.size
        n = min(arr.ndim, _MAXDIM)
        row[5 : 5 + n] = arr.shape[:n]
    return row


def _check(backend: Any, where: str, kind: int, extra: int, arr: Any) -> None:
    if not _STATE.check or backend.size == 1:
        return
    row = _meta(kind, extra, arr)
    rows = backend.meta_allgather(row, f"{where} on rank {backend.rank} (its shape/dtype check)")
    if (rows != rows[0]).any():
        calls = "; ".join(f"rank {r}: {_describe(rows[r])}" for r in range(backend.size))
        raise ValueError(
            f"{where}: the ranks called mismatched collectives (all must pass the same shape, dtype, "
            f"op and root): {calls}"
        )


def _rank_arg(backend: Any, where: str, arg: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{where}: {arg} must be an int rank, got {type(value).__name__}")
    if not 0 <= value < backend.size:
        raise ValueError(f"{where}: {arg}={value} is not a rank of this group (0..{backend.size - 1})")
    return int(value)


def _mean_ok(op: ReduceOp, data: Any, where: str) -> None:
    if op is ReduceOp.MEAN and data.dtype.kind not in "fc":
        raise TypeError(f"{where}: op=mean needs a floating-point tensor, got {data.dtype}")


# --- collectives ----------------------------------------------------------------------------


def all_reduce(tensor: Any, op: Any = ReduceOp.SUM, async_op: bool = False) -> Work | None:
    """Combine `tensor` across ranks in place (sum, mean, max or min)."""
    where = "all_reduce"
    backend = _backend(where)
    data = _array(tensor, where, "tensor")
    rop = as_reduce_op(op, where)
    _check(backend, where, 0, _OP_CODES[rop], data)
    _mean_ok(rop, data, where)
    buf = _contiguous(data)
    size = backend.size

    def after() -> None:
        if rop is ReduceOp.MEAN:
            buf[...] /= size
        _written(tensor, data, buf)

    work = backend.all_reduce(buf, rop, f"all_reduce on rank {backend.rank}", after)
    return _finish(work, async_op)


def _finish(work: Work, async_op: bool) -> Work | None:
    if async_op:
        return work
    work.wait()
    return None


def broadcast(tensor: Any, src: int = 0, async_op: bool = False) -> Work | None:
    """Copy rank `src`'s tensor into every other rank's tensor (in place)."""
    where = "broadcast"
    backend = _backend(where)
    data = _array(tensor, where, "tensor")
    src = _rank_arg(backend, where, "src", src)
    _check(backend, where, 1, src, data)
    buf = _contiguous(data)
    work = backend.broadcast(buf, src, f"broadcast from rank {src} on rank {backend.rank}")
    work._after = lambda: _written(tensor, data, buf)
    return _finish(work, async_op)


def all_gather(tensor_list: Sequence[Any], tensor: Any, async_op: bool = False) -> Work | None:
    """Fill `tensor_list[r]` with rank r's `tensor` (the list has world-size entries, each of
    the input's shape and dtype)."""
    where = "all_gather"
    backend = _backend(where)
    data = _array(tensor, where, "tensor")
    outs = _out_list(backend, where, "tensor_list", tensor_list, data)
    _check(backend, where, 2, -1, data)
    recv = _empty_like(data, (backend.size, *data.shape))

    def after() -> None:
        for r, (t, out) in enumerate(outs):
            out[...] = recv[r]
            _written(t, out, out)

    work = backend.all_gather(_contiguous(data), recv, f"all_gather on rank {backend.rank}", after)
    return _finish(work, async_op)


def reduce_scatter(output: Any, input_list: Sequence[Any], op: Any = ReduceOp.SUM, async_op: bool = False):
    """`output` on rank r becomes the reduction over ranks of their `input_list[r]`."""
    where = "reduce_scatter"
    backend = _backend(where)
    data = _array(output, where, "output")
    rop = as_reduce_op(op, where)
    ins = _out_list(backend, where, "input_list", input_list, data)
    _check(backend, where, 3, _OP_CODES[rop], data)
    _mean_ok(rop, data, where)
    xp = _module_of(data)
    send = xp.stack([a for _, a in ins])
    buf = _contiguous(data)
    size = backend.size

    def after() -> None:
        if rop is ReduceOp.MEAN:
            buf[...] /= size
        _written(output, data, buf)

    work = backend.reduce_scatter(send, buf, rop, f"reduce_scatter on rank {backend.rank}", after)
    return _finish(work, async_op)


def send(tensor: Any, dst: int, tag: int = 0) -> None:
    """Send `tensor` to rank `dst` (blocks until the buffer may be reused)."""
    where = "send"
    backend = _backend(where)
    data = _array(tensor, where, "tensor")
    dst = _rank_arg(backend, where, "dst", dst)
    works = []
    if _STATE.check:
        works.append(backend.meta_send(_meta(4, backend.rank, data), dst, tag))
    works.append(backend.send(_contiguous(data), dst, tag, f"send to rank {dst} on rank {backend.rank}"))
    for w in works:
        w.wait()


def recv(tensor: Any, src: int, tag: int = 0) -> None:
    """Receive into `tensor` (in place) what rank `src` sends with `send(..., tag)`."""
    where = "recv"
    backend = _backend(where)
    data = _array(tensor, where, "tensor")
    src = _rank_arg(backend, where, "src", src)
    if _STATE.check:
        got = np.empty(_ROW, np.int64)
        backend.meta_recv(got, src, tag).wait()
        want = _meta(4, src, data)
        if (got != want).any():
            _drain(backend, got, src, tag)
            raise ValueError(
                f"recv: rank {src} sent {_describe(got)} but rank {backend.rank} expects {_describe(want)}"
            )
    buf = _contiguous(data)
    backend.recv(buf, src, tag, f"recv from rank {src} on rank {backend.rank}").wait()
    _written(tensor, data, buf)


def _drain(backend: Any, row: np.ndarray, src: int, tag: int) -> None:
    """Receive (and drop) the data message a mismatched header announced, so it cannot be
    matched by a later recv."""
    if row[0] != 4 or row[2] < 0:
        return
    scratch = np.empty(int(row[4]), np.dtype(chr(row[2] % 256)))
    backend.recv(scratch, src, tag, f"recv (discarding a mismatched message) from rank {src}").wait()


def _out_list(backend: Any, where: str, arg: str, items: Sequence[Any], like: Any) -> list[tuple[Any, Any]]:
    if not isinstance(items, (list, tuple)) or len(items) != backend.size:
        raise ValueError(f"{where}: {arg} must be a list of {backend.size} tensors (one per rank)")
    out = []
    for i, t in enumerate(items):
        a = _array(t, where, f"{arg}[{i}]")
        if a.shape != like.shape or a.dtype != like.dtype:
            raise ValueError(
                f"{where}: {arg}[{i}] is {a.dtype} {tuple(a.shape)}, "
                f"expected {like.dtype} {tuple(like.shape)}"
            )
        out.append((t, a))
    return out


def _module_of(data: Any) -> Any:
    return module_of_type(data.__class__) or np


def _empty_like(data: Any, shape: tuple[int, ...]) -> Any:
    return _module_of(data).empty(shape, data.dtype)


def raw_all_reduce(buf: Any, what: str) -> Work:
    """Start an unchecked in-place sum of a contiguous array (DDP's buckets)."""
    backend = _backend("all_reduce")
    return backend.all_reduce(buf, ReduceOp.SUM, what)
