"""og.distributed, DistributedDataParallel and DistributedSampler.

The multi-process checks run tests/distributed/worker.py under `mpiexec -n 2` and `-n 3`
(a handful of launches, a few seconds each); they are skipped only when mpi4py (the
`distributed` extra: pip install -e '.[distributed]') is not installed. The rest runs in
this process without MPI."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import opgrad as og
import opgrad.distributed as dist
from opgrad.nn.parallel import DistributedDataParallel
from opgrad.utils.data import Dataset, DistributedSampler, TensorDataset

WORKER = Path(__file__).parent / "distributed" / "worker.py"
HAVE_MPI4PY = importlib.util.find_spec("mpi4py") is not None
MPIEXEC = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which("mpiexec")
needs_mpi = pytest.mark.skipif(
    not (HAVE_MPI4PY and MPIEXEC),
    reason="mpi4py / mpiexec not installed (pip install -e '.[distributed]': mpi4py and the mpich wheel)",
)


def launch(n, *args, timeout=120):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    t0 = time.monotonic()
    proc = subprocess.run(
        [MPIEXEC, "-n", str(n), sys.executable, str(WORKER), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    return proc, time.monotonic() - t0


def ok_lines(proc):
    """The ranks that reached the end of the worker."""
    return sorted(int(r) for r in re.findall(r"ok \w+ \w+ rank (\d+)", proc.stdout))


@needs_mpi
@pytest.mark.parametrize("n", [2, 3])
def test_collectives_against_numpy_on_every_rank(n):
    """all_reduce (4 ops, 4 dtypes, bool, non-contiguous, async), broadcast, all_gather,
    reduce_scatter, send/recv, the mismatch errors and the sampler; on MPI, then on the
    NCCL backend driven by the stand-in communicator."""
    proc, _ = launch(n, "collectives", "mpi")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ok_lines(proc) == list(range(n)), proc.stdout


@needs_mpi
@pytest.mark.parametrize(("n", "backend"), [(2, "mpi"), (3, "nccl")])
def test_ddp_equals_one_process_on_the_concatenated_batches(n, backend):
    """float64, 3 steps each: SGD+momentum and Adam; no_sync over micro-batches; an unused
    parameter; small buckets splitting the parameters unevenly; overlap of the first
    bucket's all-reduce with backward; the error for an unexpected unused parameter."""
    proc, _ = launch(n, "ddp", backend)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ok_lines(proc) == list(range(n)), proc.stdout
    assert "overlap: bucket starts" in proc.stdout


@needs_mpi
def test_a_rank_raising_in_forward_aborts_the_job_with_its_message():
    proc, elapsed = launch(2, "fault", "mpi", timeout=60)
    assert proc.returncode != 0
    assert elapsed < 30, elapsed  # rank 0 waits in backward's all-reduce: the abort ends it
    assert "boom in forward on rank 1" in proc.stderr
    assert "opgrad.distributed: rank 1 of 2: uncaught RuntimeError" in proc.stderr
    assert not ok_lines(proc)


@needs_mpi
def test_a_collective_that_times_out_aborts_the_job_with_a_message():
    proc, elapsed = launch(2, "timeout", "mpi", timeout=60)
    assert proc.returncode != 0
    assert elapsed < 30, elapsed
    assert "rank 0 of 2: all_reduce on rank 0" in proc.stderr and "did not complete within 1 s" in proc.stderr


@pytest.mark.gpu
@needs_mpi
def test_real_nccl_on_one_gpu():
    if not og.cuda_available():
        pytest.skip("needs CuPy and a CUDA device")
    script = (
        "import cupy, opgrad.distributed as d; d.init_process_group('nccl'); "
        "a = cupy.arange(4.0); d.all_reduce(a, 'max'); assert a.tolist() == [0, 1, 2, 3]; print('ok')"
    )
    proc = subprocess.run([MPIEXEC, "-n", "1", sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr


# --- in this process, without MPI ------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: dist.get_rank(),
        lambda: dist.get_world_size(),
        lambda: dist.barrier(),
        lambda: dist.all_reduce(og.zeros(2)),
        lambda: dist.broadcast(np.zeros(2), 0),
        lambda: dist.send(np.zeros(2), 1),
        lambda: dist.destroy_process_group(),
        lambda: DistributedDataParallel(og.nn.Linear(2, 2)),
        lambda: DistributedSampler(TensorDataset(og.zeros((4, 1)))),
    ],
)
def test_use_before_init_is_a_clear_error(call):
    assert not dist.is_initialized()
    with pytest.raises(RuntimeError, match="not initialised; call og.distributed.init_process_group"):
        call()


def test_init_checks_its_arguments_before_touching_mpi():
    with pytest.raises(ValueError, match="backend must be 'mpi' or 'nccl', got 'gloo'"):
        dist.init_process_group("gloo")
    with pytest.raises(ValueError, match="timeout must be a positive"):
        dist.init_process_group("mpi", timeout=0)
    assert not dist.is_initialized()


def test_distributed_sampler_shards_pads_and_reshuffles_per_epoch():
    data = TensorDataset(og.arange(10), og.arange(10) * 2)
    assert len(data) == 10 and [int(v) for v in data[3]] == [3, 6]
    shards = [DistributedSampler(data, num_replicas=3, rank=r, shuffle=False) for r in range(3)]
    assert [list(s) for s in shards] == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]  # padded to 12
    dropped = [list(DistributedSampler(data, 3, r, shuffle=False, drop_last=True)) for r in range(3)]
    assert dropped == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]
    a = [DistributedSampler(data, 2, r, seed=5) for r in range(2)]
    epoch0 = [s.indices() for s in a]
    assert sorted(np.concatenate(epoch0).tolist()) == list(range(10))
    for s in a:
        s.set_epoch(1)
    epoch1 = [s.indices() for s in a]
    assert sorted(np.concatenate(epoch1).tolist()) == list(range(10))
    assert not all(np.array_equal(x, y) for x, y in zip(epoch0, epoch1, strict=True))
    with pytest.raises(ValueError, match="rank must be an int in"):
        DistributedSampler(data, num_replicas=2, rank=2)
    with pytest.raises(ValueError, match="first dimensions differ"):
        TensorDataset(og.zeros(3), og.zeros(4))


# --- DDP's bookkeeping in this process, on a one-rank stand-in backend (no MPI) -----------


class OneRank:
    """The backend interface for a world of one: every collective is already done."""

    name = "one-rank"
    rank, size, timeout = 0, 1, None

    def __init__(self):
        self.reduced = []

    def _done(self, what, after=None):
        return dist.common.done_work(what, after)

    def all_reduce(self, arr, op, what, after=None):
        self.reduced.append(arr.size)
        return self._done(what, after)

    def broadcast(self, arr, src, what):
        return self._done(what)

    def barrier(self, what):
        return self._done(what)

    def close(self):
        pass


@pytest.fixture
def one_rank():
    backend = OneRank()
    dist.init_process_group(backend, abort_on_error=False)
    yield backend
    dist.destroy_process_group()


def test_double_init_is_a_clear_error(one_rank):
    with pytest.raises(RuntimeError, match="already initialised .*'one-rank'.*destroy_process_group"):
        dist.init_process_group("mpi")
    assert dist.get_backend() == "one-rank" and dist.get_world_size() == 1


def test_ddp_checks_its_arguments(one_rank):
    with pytest.raises(TypeError, match="module must be an og.nn.Module, got Tensor"):
        DistributedDataParallel(og.zeros(2))
    with pytest.raises(ValueError, match="bucket_cap_mb must be a positive number, got 0"):
        DistributedDataParallel(og.nn.Linear(2, 2), bucket_cap_mb=0)


def test_ddp_reduces_each_bucket_once_per_synchronised_backward(one_rank):
    og.manual_seed(0)
    model = og.nn.Sequential(og.nn.Linear(3, 4), og.nn.Tanh(), og.nn.Linear(4, 2))
    ddp = DistributedDataParallel(model, bucket_cap_mb=1e-6)  # one bucket per parameter
    x = og.randn((5, 3))
    with ddp.no_sync():
        ddp(x).sum().backward()
    assert one_rank.reduced == []  # no communication under no_sync
    grads = [p.grad.numpy().copy() for p in model.parameters()]
    ddp(x).sum().backward()  # accumulates, then reduces every bucket once, last layer first
    assert one_rank.reduced == [2, 8, 4, 12]
    for g, p in zip(grads, model.parameters(), strict=True):
        np.testing.assert_allclose(p.grad.numpy(), 2 * g)  # a world of one: the sum itself
    t = ddp.last_timings
    assert t["first_grad"] <= t["bucket_starts"][0] <= t["backward_end"] <= t["done"]


def test_ddp_one_pass_over_two_losses_reduces_once(one_rank):
    model = og.nn.Linear(2, 1)
    ddp = DistributedDataParallel(model)
    losses = [ddp(og.ones((1, 2))).sum(), ddp(og.full((1, 2), 2.0)).sum()]
    og.backward(losses)  # one pass: each parameter accumulates once, its bucket reduces once
    assert one_rank.reduced == [3]
    np.testing.assert_allclose(model.weight.grad.numpy().ravel(), [3.0, 3.0])


def test_dataset_base_class_asks_for_its_methods_by_the_subclass_name():
    class Empty(Dataset):
        pass

    with pytest.raises(NotImplementedError, match="Empty must define __getitem__"):
        Empty()[0]
    with pytest.raises(NotImplementedError, match="Empty must define __len__"):
        len(Empty())


def test_tensor_dataset_refuses_no_tensors_and_tensors_without_a_first_dimension():
    with pytest.raises(ValueError, match="TensorDataset: give at least one tensor"):
        TensorDataset()
    with pytest.raises(TypeError, match="argument 1 must be a Tensor with a first dimension"):
        TensorDataset(og.zeros(3), og.tensor(1.0))
    with pytest.raises(TypeError, match="argument 0 must be a Tensor with a first dimension"):
        TensorDataset(np.zeros(3))


def test_distributed_sampler_takes_world_size_and_rank_from_the_process_group(one_rank):
    data = TensorDataset(og.arange(5))
    sampler = DistributedSampler(data, shuffle=False)
    assert (sampler.num_replicas, sampler.rank) == (1, 0)
    assert list(sampler) == [0, 1, 2, 3, 4] and len(sampler) == 5
    with pytest.raises(ValueError, match="num_replicas must be a positive int, got 0"):
        DistributedSampler(data, num_replicas=0, rank=0)


def test_distributed_sampler_without_process_group_needs_explicit_replicas_and_rank():
    with pytest.raises(RuntimeError, match="get_world_size: the default process group is not initialised"):
        DistributedSampler(TensorDataset(og.arange(5)))
    with pytest.raises(RuntimeError, match="get_rank: the default process group is not initialised"):
        DistributedSampler(TensorDataset(og.arange(5)), num_replicas=2)
