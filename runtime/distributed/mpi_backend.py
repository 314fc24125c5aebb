"""The MPI backend: every collective is mpi4py's non-blocking call on the array's own
buffer (`Iallreduce` with MPI_IN_PLACE, `Ibcast`, `Iallgather`, `Ireduce_scatter_block`,
`Isend`/`Irecv`, `Ibarrier`), so NumPy arrays travel without a copy or pickling.

Importing this module initialises MPI (mpi4py does so on import), which is why
`init_process_group` imports it only when the "mpi" backend is asked for."""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
from mpi4py import MPI

from opgrad.runtime.distributed.common import ReduceOp, Work

_OPS = {ReduceOp.SUM: MPI.SUM, ReduceOp.MEAN: MPI.SUM, ReduceOp.MAX: MPI.MAX, ReduceOp.MIN: MPI.MIN}
# MPI defines no arithmetic on C bool: any/all stand in for sum/max and min.
_BOOL_OPS = {ReduceOp.SUM: MPI.LOR, ReduceOp.MEAN: MPI.LOR, ReduceOp.MAX: MPI.LOR, ReduceOp.MIN: MPI.LAND}


def _op(op: ReduceOp, arr: Any) -> Any:
    return (_BOOL_OPS if arr.dtype == np.bool_ else _OPS)[op]


def _host(arr: Any, what: str) -> Any:
    if not isinstance(arr, np.ndarray):
        raise TypeError(
            f"{what}: the mpi backend takes NumPy arrays (CPU tensors), got {type(arr).__name__}; "
            "use init_process_group('nccl') for CuPy arrays"
        )
    return arr


def abort_world(message: str) -> None:
    """Print `message` and end every rank of the job (MPI_Abort on COMM_WORLD)."""
    sys.stdout.flush()
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    # mpiexec's proxy forwards our stderr asynchronously and stops forwarding once the job is
    # torn down: without a pause the message was sometimes lost (seen on a loaded CI machine)
    time.sleep(0.5)
    MPI.COMM_WORLD.Abort(1)


class MPIBackend:
    """Collectives over (a private duplicate of) MPI.COMM_WORLD; `meta` is a second
    duplicate for the small metadata messages of the checked mode, so they never match a
    data message."""

    name = "mpi"

    def __init__(self, timeout: float | None = None) -> None:
        self.comm = MPI.COMM_WORLD.Dup()
        self.meta = MPI.COMM_WORLD.Dup()
        self.rank = self.comm.Get_rank()
        self.size = self.comm.Get_size()
        self.timeout = timeout

    def _work(self, req: Any, what: str, after: Any = None) -> Work:
        return Work(req.Test, req.Wait, what, after, self.timeout, self.abort)

    def abort(self, message: str) -> None:
        abort_world(f"opgrad.distributed: rank {self.rank} of {self.size}: {message}; aborting all ranks")

    def meta_allgather(self, row: np.ndarray, what: str) -> np.ndarray:
        rows = np.empty((self.size, row.size), row.dtype)
        self._work(self.meta.Iallgather(row, rows), what).wait()
        return rows

    def meta_send(self, row: np.ndarray, dst: int, tag: int) -> Work:
        return self._work(self.meta.Isend(row, dst, tag), f"send of metadata to rank {dst}")

    def meta_recv(self, row: np.ndarray, src: int, tag: int) -> Work:
        return self._work(self.meta.Irecv(row, src, tag), f"recv of metadata from rank {src}")

    def all_reduce(self, arr: Any, op: ReduceOp, what: str, after: Any = None) -> Work:
        req = self.comm.Iallreduce(MPI.IN_PLACE, _host(arr, what), _op(op, arr))
        return self._work(req, what, after)

    def broadcast(self, arr: Any, src: int, what: str) -> Work:
        return self._work(self.comm.Ibcast(_host(arr, what), root=src), what)

    def all_gather(self, send: Any, recv: Any, what: str, after: Any = None) -> Work:
        return self._work(self.comm.Iallgather(_host(send, what), recv), what, after)

    def reduce_scatter(self, send: Any, recv: Any, op: ReduceOp, what: str, after: Any = None) -> Work:
        req = self.comm.Ireduce_scatter_block(_host(send, what), recv, _op(op, send))
        return self._work(req, what, after)

    def send(self, arr: Any, dst: int, tag: int, what: str) -> Work:
        return self._work(self.comm.Isend(_host(arr, what), dst, tag), what)

    def recv(self, arr: Any, src: int, tag: int, what: str, after: Any = None) -> Work:
        return self._work(self.comm.Irecv(_host(arr, what), src, tag), what, after)

    def barrier(self, what: str) -> Work:
        return self._work(self.comm.Ibarrier(), what)

    def close(self) -> None:
        self.comm.Free()
        self.meta.Free()
