"""Data-parallel scaling of the CNN demo's training step (examples/train_cnn.py's model) on
1 and 2 MPI ranks, and the effect of DDP's bucket size.

    pip install -e ".[examples,distributed]"
    python benchmarks/distributed.py                      # 1 vs 2 ranks, three bucket sizes
    python benchmarks/distributed.py --ranks 1 2 --bucket-mb 0.001 0.02 25 --steps 30
    python benchmarks/distributed.py --json dist.json

The driver launches `mpiexec -n R python benchmarks/distributed.py --worker ...` for each rank
count and bucket size (and one plain process without DDP as the baseline). Each run trains
the CNN on random 8x8 images with a fixed global batch (`--batch`, split evenly over the
ranks) for `--warmup` + `--steps` steps and reports medians over the timed steps:

- step ms: forward + backward (including the gradient all-reduces) + AdamW step;
- samples/s: global batch / step time;
- comm wait ms: the time backward's final callback waits for the buckets' all-reduces after
  the last gradient was produced (communication that did not overlap with backward);
- buckets: how many buckets DDP made;
- all-reduce ms: one (checked) all_reduce of all the parameters' worth of float32 right
  after a barrier: the transfer itself, without waiting for a slower rank.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

import opgrad as og  # noqa: E402
from opgrad import nn, optim  # noqa: E402


def cnn() -> nn.Module:
    from train_cnn import build_model  # examples/train_cnn.py (sys.path above)

    return build_model((16, 32), 64, 0.0)


def worker(args: argparse.Namespace) -> None:
    import opgrad.distributed as dist

    rank, world = 0, 1
    if not args.no_ddp:
        dist.init_process_group("mpi")
        rank, world = dist.get_rank(), dist.get_world_size()
    og.manual_seed(0)
    model = cnn()
    net = nn.parallel.DistributedDataParallel(model, bucket_cap_mb=args.cap) if not args.no_ddp else model
    opt = optim.AdamW(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(rank)
    local = args.batch // world
    x = og.tensor(rng.random((local, 1, 8, 8), dtype=np.float32))
    y = og.tensor(rng.integers(0, 10, local))
    steps, waits = [], []
    for i in range(args.warmup + args.steps):
        t0 = time.perf_counter()
        opt.zero_grad()
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
        t1 = time.perf_counter()
        if i >= args.warmup:
            steps.append(t1 - t0)
            t = getattr(net, "last_timings", None)
            waits.append(t["done"] - t["backward_end"] if t else 0.0)
    allreduce = 0.0
    if not args.no_ddp:  # the transfer alone: all parameters' worth of float32, after a barrier
        flat = np.ones(sum(int(p.numel()) for p in model.parameters()), np.float32)
        times = []
        for _ in range(30):
            dist.barrier()
            t0 = time.perf_counter()
            dist.all_reduce(flat)
            times.append(time.perf_counter() - t0)
        allreduce = statistics.median(times)
    if rank == 0:
        step = statistics.median(steps)
        row = {
            "ranks": world,
            "ddp": not args.no_ddp,
            "bucket_mb": None if args.no_ddp else args.cap,
            "buckets": len(net.bucket_sizes) if not args.no_ddp else 0,
            "step_ms": step * 1e3,
            "samples_per_s": args.batch / step,
            "comm_wait_ms": statistics.median(waits) * 1e3,
            "allreduce_ms": allreduce * 1e3,
        }
        print("RESULT " + json.dumps(row), flush=True)


def launch(ranks: int | None, cap: float, args: argparse.Namespace) -> dict:
    cmd = [sys.executable, __file__, "--worker", "--cap", str(cap)]
    cmd += ["--batch", str(args.batch), "--steps", str(args.steps), "--warmup", str(args.warmup)]
    if ranks is None:
        cmd.append("--no-ddp")
    else:
        cmd = [str(Path(sys.executable).parent / "mpiexec"), "-n", str(ranks), *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"benchmark run failed: {' '.join(cmd)}\n{done.stdout}\n{done.stderr}")
    line = next(s for s in done.stdout.splitlines() if s.startswith("RESULT "))
    return json.loads(line[len("RESULT ") :])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    p.add_argument("--bucket-mb", type=float, nargs="+", default=[0.001, 0.02, 25.0])
    p.add_argument("--batch", type=int, default=128, help="global batch (split over the ranks)")
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--json", metavar="PATH")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--no-ddp", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--cap", type=float, default=25.0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args)
        return
    n_params = sum(int(q.numel()) for q in cnn().parameters())
    print(
        f"CNN step (conv16-conv32-64-10, {n_params} float32 parameters = {n_params * 4 / 1024:.0f} KiB), "
        f"global batch {args.batch}, median of {args.steps} steps; {os.cpu_count()} cores"
    )
    rows = [launch(None, 25.0, args)]
    rows += [launch(r, cap, args) for r in args.ranks for cap in args.bucket_mb]
    head = ("ranks", "DDP bucket MB", "buckets", "step ms", "samples/s", "comm wait ms", "all-reduce ms")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (5, 14, 7, 8, 10, 13, 14), strict=True)))
    for r in rows:
        cap = "no DDP" if not r["ddp"] else f"{r['bucket_mb']:g}"
        print(
            f"{r['ranks']:>5} {cap:>14} {r['buckets']:>7} {r['step_ms']:>8.2f} "
            f"{r['samples_per_s']:>10.0f} {r['comm_wait_ms']:>13.3f} {r['allreduce_ms']:>14.3f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
