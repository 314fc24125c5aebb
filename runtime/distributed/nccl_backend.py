"""The NCCL backend: collectives on CuPy arrays through `cupy.cuda.nccl`.

The ranks come from the launcher through MPI (mpiexec), which also carries NCCL's unique
id from rank 0 to the others, the small metadata messages of the checked mode and the
barrier; the data goes through NCCL on CuPy's current stream, so a collective is ordered
after the kernels that produced its input. `Work.wait()` synchronises that stream.

The calls it makes on the communicator are exactly: `NcclCommunicator(size, uid, rank)`,
`allReduce`, `broadcast`, `allGather`, `reduceScatter`, `send`, `recv`, `destroy`, and
the module's `get_unique_id` and NCCL_* constants. The CPU test suite drives this class
with a stand-in module that implements those calls over MPI on host memory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opgrad.runtime.device import require_cupy
from opgrad.runtime.distributed.common import ReduceOp, Work
from opgrad.runtime.distributed.mpi_backend import MPIBackend

_DTYPES = {
    "float16": "NCCL_FLOAT16",
    "float32": "NCCL_FLOAT32",
    "float64": "NCCL_FLOAT64",
    "int8": "NCCL_INT8",
    "uint8": "NCCL_UINT8",
    "bool": "NCCL_UINT8",
    "int32": "NCCL_INT32",
    "int64": "NCCL_INT64",
}
_OPS = {
    ReduceOp.SUM: "NCCL_SUM",
    ReduceOp.MEAN: "NCCL_SUM",
    ReduceOp.MAX: "NCCL_MAX",
    ReduceOp.MIN: "NCCL_MIN",
}


def pointer(arr: Any) -> int:
    """The address of an array's first element (device memory for CuPy, host for NumPy)."""
    iface = getattr(arr, "__cuda_array_interface__", None) or arr.__array_interface__
    return iface["data"][0]


class NCCLBackend:
    name = "nccl"

    def __init__(
        self, nccl: Any = None, stream: Callable[[], Any] | None = None, timeout: float | None = None
    ) -> None:
        if nccl is None:
            cupy = require_cupy()
            nccl = cupy.cuda.nccl
            stream = cupy.cuda.get_current_stream
        if stream is None:
            raise ValueError("NCCLBackend: a stand-in nccl module needs a stream provider too")
        self._mpi = MPIBackend(timeout)
        self.rank, self.size, self.timeout = self._mpi.rank, self._mpi.size, None
        uid = nccl.get_unique_id() if self.rank == 0 else None
        uid = self._mpi.comm.bcast(uid, root=0)  # a small tuple of ints, once
        self.nccl = nccl
        self.comm = nccl.NcclCommunicator(self.size, uid, self.rank)
        self._stream = stream

    def _dtype(self, arr: Any, what: str) -> int:
        name = _DTYPES.get(np.dtype(arr.dtype).name)
        if name is None:
            raise TypeError(f"{what}: NCCL has no type for {arr.dtype}")
        return getattr(self.nccl, name)

    def _op(self, op: ReduceOp, arr: Any) -> int:
        if arr.dtype == np.bool_:
            return self.nccl.NCCL_MIN if op is ReduceOp.MIN else self.nccl.NCCL_MAX
        return getattr(self.nccl, _OPS[op])

    def _work(self, stream: Any, what: str, after: Any = None) -> Work:
        return Work(lambda: bool(stream.done), stream.synchronize, what, after)

    def abort(self, message: str) -> None:
        self._mpi.abort(message)

    def meta_allgather(self, row: np.ndarray, what: str) -> np.ndarray:
        return self._mpi.meta_allgather(row, what)

    def meta_send(self, row: np.ndarray, dst: int, tag: int) -> Work:
        return self._mpi.meta_send(row, dst, tag)

    def meta_recv(self, row: np.ndarray, src: int, tag: int) -> Work:
        return self._mpi.meta_recv(row, src, tag)

    def all_reduce(self, arr: Any, op: ReduceOp, what: str, after: Any = None) -> Work:
        s = self._stream()
        p = pointer(arr)
        self.comm.allReduce(p, p, arr.size, self._dtype(arr, what), self._op(op, arr), s.ptr)
        return self._work(s, what, after)

    def broadcast(self, arr: Any, src: int, what: str) -> Work:
        s = self._stream()
        p = pointer(arr)
        self.comm.broadcast(p, p, arr.size, self._dtype(arr, what), src, s.ptr)
        return self._work(s, what)

    def all_gather(self, send: Any, recv: Any, what: str, after: Any = None) -> Work:
        s = self._stream()
        self.comm.allGather(pointer(send), pointer(recv), send.size, self._dtype(send, what), s.ptr)
        return self._work(s, what, after)

    def reduce_scatter(self, send: Any, recv: Any, op: ReduceOp, what: str, after: Any = None) -> Work:
        s = self._stream()
        dt, nop = self._dtype(send, what), self._op(op, send)
        self.comm.reduceScatter(pointer(send), pointer(recv), recv.size, dt, nop, s.ptr)
        return self._work(s, what, after)

    def send(self, arr: Any, dst: int, tag: int, what: str) -> Work:
        s = self._stream()
        self.comm.send(pointer(arr), arr.size, self._dtype(arr, what), dst, s.ptr)
        return self._work(s, what)

    def recv(self, arr: Any, src: int, tag: int, what: str, after: Any = None) -> Work:
        s = self._stream()
        self.comm.recv(pointer(arr), arr.size, self._dtype(arr, what), src, s.ptr)
        return self._work(s, what, after)

    def barrier(self, what: str) -> Work:
        self._stream().synchronize()
        return self._mpi.barrier(what)

    def close(self) -> None:
        self.comm.destroy()
        self._mpi.close()
