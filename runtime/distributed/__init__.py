"""opgrad.distributed: data-parallel training across processes on MPI (mpi4py, CPU) or
NCCL (CuPy, GPU). Launch with `mpiexec -n N python script.py`; see docs/distributed.md.

    import opgrad as og
    import opgrad.distributed as dist

    dist.init_process_group("mpi")
    dist.all_reduce(t, op="mean")        # in place, on every rank
    model = og.nn.parallel.DistributedDataParallel(model)
"""

from opgrad.runtime.distributed.common import ReduceOp, Work
from opgrad.runtime.distributed.group import (
    all_gather,
    all_reduce,
    barrier,
    broadcast,
    destroy_process_group,
    get_backend,
    get_rank,
    get_world_size,
    init_process_group,
    is_initialized,
    recv,
    reduce_scatter,
    send,
)

__all__ = [
    "ReduceOp",
    "Work",
    "all_gather",
    "all_reduce",
    "barrier",
    "broadcast",
    "destroy_process_group",
    "get_backend",
    "get_rank",
    "get_world_size",
    "init_process_group",
    "is_initialized",
    "recv",
    "reduce_scatter",
    "send",
]
