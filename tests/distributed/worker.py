"""Run under `mpiexec -n N python worker.py SECTION BACKEND` by tests/test_distributed.py.

Each check compares against NumPy computed on this rank from every rank's (deterministic)
input. A failed assertion aborts the whole job (opgrad.distributed's abort_on_error) with the
message, so the launching test sees a non-zero exit and the reason. The last line each rank
prints is `ok SECTION BACKEND rank R`.

SECTION: collectives | ddp | fault | timeout.  BACKEND: mpi | nccl (the stand-in NCCL).
"""

import sys
import time

import numpy as np

import opgrad as og
import opgrad.distributed as dist
from opgrad import nn, optim
from opgrad.nn.parallel import DistributedDataParallel
from opgrad.runtime.distributed.nccl_backend import NCCLBackend
from opgrad.utils.data import DistributedSampler, TensorDataset

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fake_nccl  # noqa: E402


def init(backend, **kwargs):
    if backend == "nccl":
        dist.init_process_group(NCCLBackend(nccl=fake_nccl, stream=fake_nccl.current_stream), **kwargs)
    else:
        dist.init_process_group("mpi", **kwargs)


def data(rank, shape, dtype=np.float64):
    rng = np.random.default_rng(100 + rank)
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(-50, 50, shape).astype(dtype)


def expect_error(exc, match, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        assert match in str(e), f"expected {match!r} in {e}"
        return
    raise AssertionError(f"{fn.__name__} did not raise {exc.__name__}")


class DeviceArray:
    """Looks like a CuPy array to the collectives (what the MPI backend must refuse)."""

    __cuda_array_interface__ = {"data": (0, False), "shape": (2,), "typestr": "<f8", "version": 3}
    dtype, shape, ndim, size = np.dtype(np.float64), (2,), 1, 2
    flags = np.zeros(2).flags


def collectives(backend):
    expect_error(RuntimeError, "not initialised", dist.all_reduce, og.zeros(2))
    assert not dist.is_initialized()
    init(backend)
    expect_error(RuntimeError, "already initialised", dist.init_process_group, "mpi")
    rank, n = dist.get_rank(), dist.get_world_size()
    assert dist.is_initialized() and dist.get_backend() == backend
    every = [data(r, (3, 4)) for r in range(n)]
    for op, ref in [("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min)]:
        t = og.tensor(every[rank].copy())
        dist.all_reduce(t, op=op)
        np.testing.assert_allclose(t.numpy(), ref(every, axis=0), rtol=1e-12, err_msg=op)
    for dtype in (np.int32, np.int64, np.float32):
        ints = [data(r, (5,), dtype) for r in range(n)]
        for op, ref in [("sum", np.sum), ("max", np.max), ("min", np.min)]:
            a = ints[rank].copy()
            dist.all_reduce(a, op=dist.ReduceOp(op))  # a bare NumPy array, in place
            assert a.dtype == dtype
            np.testing.assert_allclose(a, ref(ints, axis=0).astype(dtype), rtol=1e-6, err_msg=f"{dtype} {op}")
    flags = np.array([rank == 0, True, False])
    dist.all_reduce(flags, "max")
    assert flags.tolist() == [True, True, False]
    # a non-contiguous tensor is reduced in place through a contiguous copy; async returns a Work
    t = og.tensor(every[rank].copy()).T
    version = t._vc.value if t._vc is not None else 0
    work = dist.all_reduce(t, "sum", async_op=True)
    work.wait()
    assert work.is_completed()
    np.testing.assert_allclose(t.numpy(), np.sum(every, axis=0).T, rtol=1e-12)
    assert t._vc is not None and t._vc.value > version, "the in-place write bumps the version"
    # broadcast from the last rank
    src = n - 1
    t = og.tensor(data(rank, (2, 3)))
    dist.broadcast(t, src=src)
    np.testing.assert_array_equal(t.numpy(), data(src, (2, 3)))
    # all_gather
    outs = [og.zeros((2, 2), dtype=og.float64) for _ in range(n)]
    dist.all_gather(outs, og.tensor(data(rank, (2, 2))))
    for r in range(n):
        np.testing.assert_array_equal(outs[r].numpy(), data(r, (2, 2)))
    # reduce_scatter: rank r gets the reduction of every rank's input_list[r]
    inputs = {r: [data(10 * r + k, (4,)) for k in range(n)] for r in range(n)}
    for op, ref in [("sum", np.sum), ("mean", np.mean), ("max", np.max)]:
        out = og.zeros(4, dtype=og.float64)
        dist.reduce_scatter(out, [og.tensor(a) for a in inputs[rank]], op=op)
        want = ref([inputs[r][rank] for r in range(n)], axis=0)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, err_msg=f"reduce_scatter {op}")
    # send / recv: rank 0 sends to each rank, which sends back twice what it got
    if rank == 0:
        for r in range(1, n):
            dist.send(og.tensor(data(r, (3,))), dst=r, tag=7)
            back = np.empty(3)
            dist.recv(back, src=r, tag=7)
            np.testing.assert_array_equal(back, 2 * data(r, (3,)))
    else:
        got = og.zeros(3, dtype=og.float64)
        dist.recv(got, src=0, tag=7)
        np.testing.assert_array_equal(got.numpy(), data(rank, (3,)))
        dist.send(got.numpy() * 2, dst=0, tag=7)
    # mismatches: the same clear error on every rank, not a hang
    shape = (3,) if rank == 1 else (2,)
    expect_error(ValueError, "mismatched collectives", dist.all_reduce, np.zeros(shape))
    dtype = np.float32 if rank == n - 1 else np.float64
    expect_error(ValueError, "mismatched collectives", dist.broadcast, np.zeros(2, dtype), 0)
    expect_error(ValueError, "mismatched collectives", dist.all_reduce, np.zeros(2), "max" if rank else "sum")
    if rank == 0:
        dist.send(np.zeros(2), dst=1)
        dist.send(np.arange(3.0), dst=1)  # the next message arrives intact after the mismatch
    elif rank == 1:
        expect_error(ValueError, "rank 0 sent", dist.recv, np.zeros(2, np.float32), 0)
        got = np.empty(3)
        dist.recv(got, 0)
        np.testing.assert_array_equal(got, [0.0, 1.0, 2.0])
    if rank == 0:  # one rank in a barrier, the others in an all_reduce: detected, not a hang
        expect_error(ValueError, "rank 0: barrier; rank 1: all_reduce", dist.barrier)
    else:
        expect_error(ValueError, "mismatched collectives", dist.all_reduce, np.zeros(2))
    expect_error(ValueError, "not a rank", dist.broadcast, np.zeros(2), n)
    expect_error(TypeError, "op=mean needs a floating-point", dist.all_reduce, np.zeros(2, np.int64), "mean")
    expect_error(ValueError, "list of", dist.all_gather, [np.zeros(2)], np.zeros(2))
    if backend == "mpi":
        expect_error(TypeError, "the mpi backend takes NumPy arrays", dist.all_reduce, DeviceArray())
    dist.barrier()
    if backend == "nccl":
        used = set(fake_nccl.calls)
        assert {"allReduce", "broadcast", "allGather", "reduceScatter"} <= used, used
        if rank < 2:
            assert {"send", "recv"} <= used, used
    # the sampler: disjoint shards covering the data, the same permutation on every rank
    sampler = DistributedSampler(TensorDataset(og.zeros((10, 2))), shuffle=True, seed=3)
    sampler.set_epoch(1)
    mine = sampler.indices()
    shards = [np.empty(len(sampler), np.int64) for _ in range(n)]
    dist.all_gather(shards, mine)
    flat = np.stack(shards, 1).reshape(-1)
    assert len(sampler) == -(-10 // n) and sorted(set(flat.tolist())) == list(range(10))
    sampler.set_epoch(2)
    assert not np.array_equal(sampler.indices(), mine) or n == 10
    dist.destroy_process_group()
    assert not dist.is_initialized()


class Net(nn.Module):
    def __init__(self, unused=False):
        super().__init__()
        self.l1 = nn.Linear(5, 16)
        self.l2 = nn.Linear(16, 16)
        self.l3 = nn.Linear(16, 3)
        self.extra = nn.Linear(16, 16) if unused else None

    def forward(self, x):
        return self.l3(og.tanh(self.l2(og.tanh(self.l1(x)))))


def make(unused=False):
    og.manual_seed(0)
    return Net(unused).double()


def batches(steps, k, n, per_rank=4):
    rng = np.random.default_rng(7)
    return [
        [(rng.standard_normal((n * per_rank, 5)), rng.standard_normal((n * per_rank, 3))) for _ in range(k)]
        for _ in range(steps)
    ]


def loss_fn(model, x, y):
    return ((model(og.tensor(x)) - og.tensor(y)) ** 2).mean()


def train_reference(data_, n, unused, opt_cls):
    model = make(unused)
    opt = opt_cls(model.parameters())
    for step in data_:
        opt.zero_grad()
        for x, y in step:
            loss_fn(model, x, y).backward()
        opt.step()
    return model


def train_ddp(data_, rank, n, unused, opt_cls, **ddp_kwargs):
    model = make(unused)
    if rank:  # different starting values: the construction broadcast must fix them
        for p in model.parameters():
            p._data += rank
    ddp = DistributedDataParallel(model, find_unused_parameters=unused, **ddp_kwargs)
    opt = opt_cls(ddp.parameters())
    for step in data_:
        opt.zero_grad()
        for k, (x, y) in enumerate(step):
            xs, ys = x[rank::n], y[rank::n]  # this rank's shard of the global micro-batch
            if k < len(step) - 1:
                with ddp.no_sync():
                    loss_fn(ddp, xs, ys).backward()
            else:
                loss_fn(ddp, xs, ys).backward()
        opt.step()
    return ddp


def same_params(ref, ddp):
    for (name, p), (_, q) in zip(ref.named_parameters(), ddp.module.named_parameters(), strict=True):
        np.testing.assert_allclose(q.numpy(), p.numpy(), atol=1e-6, rtol=0, err_msg=name)
        assert (p.grad is None) == (q.grad is None), name


def ddp(backend):
    init(backend)
    rank, n = dist.get_rank(), dist.get_world_size()
    sgd = lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9)  # noqa: E731
    adam = lambda ps: optim.Adam(ps, lr=0.01)  # noqa: E731
    # one bucket; no_sync over 3 micro-batches; an unused parameter; uneven small buckets
    bytes_l2 = 16 * 16 * 8
    cases = [
        dict(micro=1, unused=False, opt=sgd, cap=25),
        dict(micro=3, unused=False, opt=adam, cap=25),
        dict(micro=1, unused=True, opt=sgd, cap=25),
        dict(micro=2, unused=True, opt=adam, cap=1.2 * bytes_l2 / 2**20),
    ]
    for case in cases:
        data_ = batches(3, case["micro"], n)
        ref = train_reference(data_, n, case["unused"], case["opt"])
        model = train_ddp(data_, rank, n, case["unused"], case["opt"], bucket_cap_mb=case["cap"])
        same_params(ref, model)
        if case["unused"]:
            assert model.module.extra.weight.grad is None
        if case["cap"] != 25:
            sizes = model.bucket_sizes
            assert len(sizes) >= 3 and len(set(sizes)) > 1, sizes  # e.g. [3, 2, 2, 1]
    # overlap: one bucket per parameter; the first all-reduce starts before the last gradient
    model = DistributedDataParallel(make(), bucket_cap_mb=1e-6)
    x, y = batches(1, 1, n)[0][0]
    loss_fn(model, x[rank::n], y[rank::n]).backward()
    t = model.last_timings
    assert len(t["bucket_starts"]) == 6
    assert t["bucket_starts"][0] < t["last_grad"] < t["backward_end"], t
    if rank == 0:
        print(
            "overlap: bucket starts (ms before backward end):",
            [round((t["backward_end"] - s) * 1e3, 3) for s in t["bucket_starts"]],
        )
    # buffers: rank 0's BatchNorm running statistics reach every rank before each forward
    bn = nn.Sequential(nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2)).double()
    model = DistributedDataParallel(bn)
    bn.eval()
    bn[1].running_mean._data[...] = [rank, -rank]
    model(og.ones((1, 1, 2, 2), dtype=og.float64))
    np.testing.assert_array_equal(bn[1].running_mean.numpy(), [0.0, 0.0])
    # a parameter that gets no gradient without find_unused_parameters: a clear error
    model = DistributedDataParallel(make(unused=True))
    expect_error(RuntimeError, "find_unused_parameters=True", loss_fn(model, x, y).backward)
    dist.destroy_process_group()


def fault(backend):
    init(backend)
    rank = dist.get_rank()
    model = DistributedDataParallel(make())
    x, y = batches(1, 1, 2)[0][0]
    if rank == 1:
        raise RuntimeError("boom in forward on rank 1")
    loss_fn(model, x, y).backward()  # waits for rank 1's gradients, which never come
    time.sleep(60)


def timeout(backend):
    init(backend, timeout=1.0)
    if dist.get_rank() == 0:
        dist.all_reduce(np.zeros(3))  # rank 1 never joins
    time.sleep(60)


if __name__ == "__main__":
    section, backend = sys.argv[1], sys.argv[2]
    {"collectives": collectives, "ddp": ddp, "fault": fault, "timeout": timeout}[section](backend)
    if backend == "mpi" and section == "collectives":
        collectives("nccl")  # the stand-in NCCL backend in the same job
    from mpi4py import MPI

    sys.stdout.write(f"ok {section} {backend} rank {MPI.COMM_WORLD.Get_rank()}\n")  # one write
    sys.stdout.flush()
