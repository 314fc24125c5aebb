"""Forward mode, function transforms and gradient checkpointing, paired with PyTorch.

    python benchmarks/forward_ad.py                    # all three workloads
    python benchmarks/forward_ad.py --json fwd.json    # also write the numbers
    python benchmarks/forward_ad.py --chain 400 --width 16 --mlp-width 128 --no-torch   # small

Workloads (medians of --repeat runs after a warm-up, opgrad and PyTorch taking turns):
1. jvp: a --chain (2,000) tanh chain on a 16-element float64 tensor, then a sum (2,001 ops),
   under `og.autograd.forward_ad` and `torch.autograd.forward_ad`: µs per op.
2. hessian: the 64 x 64 Hessian of sum(tanh(tanh(x @ W1) @ W2)) (x of 64 inputs, width
   --width 64, float64) with `og.func.hessian` (reverse-over-reverse, all rows in one batched
   backward pass), `og.func.jacfwd(og.func.jacrev)` (torch.func.hessian's composition) and
   `og.autograd.functional.hessian` (one vjp per row; with
   vectorize=True batched like og.func), against `torch.func.hessian`: ms per Hessian, and
   the median (range) of the per-round ratios to torch.
3. checkpoint: a 20-layer tanh MLP of width --mlp-width (1,024; batch --batch 256, float32),
   forward + backward with and without `checkpoint_sequential(4 segments)`: seconds, and the
   peak memory above the start of the step (tracemalloc sees NumPy's allocations), after a
   first step has allocated every .grad; then, on Linux, the peak resident memory of the same
   step in fresh processes for opgrad and for torch, `--no-rss` to skip. Both checkpoint with
   `use_reentrant=False` (PyTorch's re-entrant variant computes no parameter gradients of a
   segment whose input does not require grad).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

# One BLAS thread, as torch below (training.py does the same): on a shared machine two
# OpenBLAS threads made the Hessian's 64 x 256 products 5-10x slower now and then.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _rss import AVAILABLE, child_peak_mib, report_step_peak  # noqa: E402

import opgrad as og  # noqa: E402
from opgrad.autograd import forward_ad as fw  # noqa: E402

try:
    import torch
except Exception:  # not installed: opgrad alone
    torch = None


def turns(workloads: dict[str, Callable[[], float] | None], repeat: int) -> dict[str, list[float]]:
    """Each workload's timings, the workloads taking turns round by round (after a warm-up)."""
    active = {k: f for k, f in workloads.items() if f is not None}
    for f in active.values():
        f()  # warm-up
    runs: dict[str, list[float]] = {k: [] for k in active}
    for _ in range(repeat):
        for k, f in active.items():
            gc.collect()
            runs[k].append(f())
    return runs


def paired_ratios(runs: dict[str, list[float]], reference: str) -> dict[str, tuple[float, float, float]]:
    """Per workload: (median, min, max) of its time over the reference's in the same round."""
    if reference not in runs:
        return {}
    ref = runs[reference]
    out = {}
    for k, v in runs.items():
        ratios = [a / b for a, b in zip(v, ref, strict=True)]
        out[k] = (statistics.median(ratios), min(ratios), max(ratios))
    return out


# -- 1. jvp through a tanh chain ---------------------------------------------------------------
def jvp_opgrad(n: int) -> float:
    x, v = og.tensor(np.linspace(-1.0, 1.0, 16)), og.tensor(np.ones(16))
    t0 = time.perf_counter()
    with fw.dual_level():
        h = fw.make_dual(x, v)
        for _ in range(n):
            h = og.tanh(h)
        fw.unpack_dual(og.sum(h))
    return (time.perf_counter() - t0) / (n + 1) * 1e6


def jvp_torch(n: int) -> float:
    tfw = torch.autograd.forward_ad
    x, v = torch.linspace(-1.0, 1.0, 16, dtype=torch.float64), torch.ones(16, dtype=torch.float64)
    t0 = time.perf_counter()
    with tfw.dual_level():
        h = tfw.make_dual(x, v)
        for _ in range(n):
            h = torch.tanh(h)
        tfw.unpack_dual(torch.sum(h))
    return (time.perf_counter() - t0) / (n + 1) * 1e6


# -- 2. hessian of a small MLP -------------------------------------------------------------------
def mlp_weights(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return (
        rng.standard_normal(64) * 0.5,
        rng.standard_normal((64, width)) / 8,
        rng.standard_normal((width, width)) / np.sqrt(width),
    )


def hessian_opgrad(width: int, how: str) -> Callable[[], float]:
    x, w1, w2 = (og.tensor(a) for a in mlp_weights(width))

    def f(z: og.Tensor) -> og.Tensor:
        return og.sum(og.tanh(og.tanh(z @ w1) @ w2))

    def run() -> float:
        t0 = time.perf_counter()
        if how == "func":
            og.func.hessian(f)(x)
        elif how == "jacfwd":
            og.func.jacfwd(og.func.jacrev(f))(x)
        else:
            og.autograd.functional.hessian(f, x, vectorize=how == "functional-vectorize")
        return (time.perf_counter() - t0) * 1e3

    return run


def hessian_torch(width: int) -> Callable[[], float]:
    x, w1, w2 = (torch.tensor(a) for a in mlp_weights(width))

    def f(z: Any) -> Any:
        return torch.sum(torch.tanh(torch.tanh(z @ w1) @ w2))

    def run() -> float:
        t0 = time.perf_counter()
        torch.func.hessian(f)(x)
        return (time.perf_counter() - t0) * 1e3

    return run


def check_hessians(width: int) -> None:
    x, w1, w2 = mlp_weights(width)
    ours = og.func.hessian(lambda z: og.sum(og.tanh(og.tanh(z @ og.tensor(w1)) @ og.tensor(w2))))(
        og.tensor(x)
    )
    for vectorize in (False, True):
        other = og.autograd.functional.hessian(
            lambda z: og.sum(og.tanh(og.tanh(z @ og.tensor(w1)) @ og.tensor(w2))),
            og.tensor(x),
            vectorize=vectorize,
        )
        if not np.allclose(ours.numpy(), other.numpy(), atol=1e-10):
            raise SystemExit("hessian: og.func.hessian and og.autograd.functional.hessian disagree")
    scalar = lambda z: og.sum(og.tanh(og.tanh(z @ og.tensor(w1)) @ og.tensor(w2)))  # noqa: E731
    composed = og.func.jacfwd(og.func.jacrev(scalar))(og.tensor(x))
    if not np.allclose(ours.numpy(), composed.numpy(), atol=1e-10):
        raise SystemExit("hessian: og.func.hessian and og.func.jacfwd(og.func.jacrev) disagree")
    if torch is not None:
        tx, t1, t2 = (torch.tensor(a) for a in (x, w1, w2))
        theirs = torch.func.hessian(lambda z: torch.sum(torch.tanh(torch.tanh(z @ t1) @ t2)))(tx)
        if not np.allclose(ours.numpy(), theirs.numpy(), atol=1e-10):
            raise SystemExit("hessian: opgrad and PyTorch disagree")


# -- 3. checkpointing ---------------------------------------------------------------------------------
def checkpoint_model(framework: str, width: int, batch: int, segments: int | None) -> Callable[[], None]:
    """One training step (forward + backward) of 20 x (Linear(width) + tanh) on a float32 batch,
    plain or through `checkpoint_sequential(segments)`, in opgrad or torch (the same weights).
    The step has run once, so every .grad exists and later steps add into it."""
    rng = np.random.default_rng(1)
    weights = [(rng.standard_normal((width, width)) / np.sqrt(width)).astype(np.float32) for _ in range(20)]
    xa = rng.standard_normal((batch, width)).astype(np.float32)
    if framework == "torch":
        from torch.utils.checkpoint import checkpoint_sequential

        tlayers = [torch.nn.Linear(width, width) for _ in range(20)]
        with torch.no_grad():
            for layer, w in zip(tlayers, weights, strict=True):
                layer.weight.copy_(torch.from_numpy(w))
        seq = torch.nn.Sequential(*[m for layer in tlayers for m in (layer, torch.nn.Tanh())])
        tx = torch.from_numpy(xa)

        def torch_step() -> None:
            # use_reentrant=False: the reentrant variant computes no parameter gradients of a
            # checkpointed segment whose input does not require grad (torch warns about it)
            h = seq(tx) if segments is None else checkpoint_sequential(seq, segments, tx, use_reentrant=False)
            torch.mean(h * h).backward()

        torch_step()
        return torch_step
    layers = [og.nn.Linear(width, width) for _ in range(20)]
    for layer, w in zip(layers, weights, strict=True):
        layer.weight.data.numpy()[...] = w
    fns: list[Any] = []
    for layer in layers:
        fns += [layer, og.tanh]
    x = og.tensor(xa)

    def step() -> None:
        if segments is None:
            h = x
            for f in fns:
                h = f(h)
        else:
            h = og.utils.checkpoint_sequential(fns, segments, x, use_reentrant=False)
        og.mean(h * h).backward()

    step()
    return step


def checkpoint_step(width: int, batch: int, segments: int | None) -> Callable[[], tuple[float, float]]:
    """opgrad's step: (seconds, peak MiB that tracemalloc saw above the start of the step)."""
    step = checkpoint_model("opgrad", width, batch, segments)

    def run() -> tuple[float, float]:
        gc.collect()
        tracemalloc.start()
        t0 = time.perf_counter()
        step()
        seconds = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return seconds, peak / 2**20

    return run


def rss_child(spec: str, width: int, batch: int) -> None:
    """In a fresh process: one step's peak resident memory (see benchmarks/_rss.py)."""
    framework, segments = spec.split(":")
    report_step_peak(checkpoint_model(framework, width, batch, int(segments) or None))


def checkpoint_rss(framework: str, width: int, batch: int, segments: int) -> float:
    args = [
        __file__,
        "--rss-child",
        f"{framework}:{segments}",
        "--mlp-width",
        str(width),
        "--batch",
        str(batch),
    ]
    return child_peak_mib(args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", type=int, default=2000, help="tanh ops in the jvp chain (default 2000)")
    parser.add_argument(
        "--width", type=int, default=64, help="hidden width of the Hessian's MLP (default 64)"
    )
    parser.add_argument(
        "--mlp-width", type=int, default=1024, help="width of the checkpointed MLP (default 1024)"
    )
    parser.add_argument("--batch", type=int, default=256, help="batch of the checkpointed MLP (default 256)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per workload (median; at least 3)")
    parser.add_argument("--no-torch", action="store_true", help="skip the PyTorch comparison")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    parser.add_argument("--no-rss", action="store_true", help="skip the resident-memory runs of workload 3")
    parser.add_argument("--rss-child", metavar="FRAMEWORK:SEGMENTS", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        rss_child(args.rss_child, args.mlp_width, args.batch)
        return 0
    repeat = max(3, args.repeat)
    use_torch = torch is not None and not args.no_torch
    if use_torch:
        torch.set_num_threads(1)  # opgrad's NumPy runs the small ops on one thread too
    result: dict[str, Any] = {
        "torch": torch.__version__ if use_torch else None,
        "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
    }
    threads = f"torch {torch.__version__}, {torch.get_num_threads()} thread" if use_torch else "no torch"
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, {threads}")

    jvp_workloads: dict[str, Callable[[], float] | None] = {
        "opgrad": lambda: jvp_opgrad(args.chain),
        "torch": (lambda: jvp_torch(args.chain)) if use_torch else None,
    }
    jvp_runs = turns(jvp_workloads, repeat)
    jvp = {k: statistics.median(jvp_runs[k]) if k in jvp_runs else None for k in jvp_workloads}
    result["jvp_us_per_op"] = jvp
    # the per-round ratios too, as for the Hessian: on a shared machine the two medians can come
    # from rounds of different load
    jvp_paired = paired_ratios(jvp_runs, "torch").get("opgrad")
    result["jvp_vs_torch"] = (
        None if jvp_paired is None else dict(zip(("median", "min", "max"), jvp_paired, strict=True))
    )
    print(f"1. jvp through {args.chain + 1} ops (tanh chain + sum), µs per op (median of {repeat})")
    paired_text = "" if jvp_paired is None else "   paired {:.2f}x ({:.2f}-{:.2f})".format(*jvp_paired)
    print(
        f"   opgrad {jvp['opgrad']:.2f}   torch {_fmt(jvp['torch'])}   "
        f"ratio {_ratio(jvp['opgrad'], jvp['torch'])}{paired_text}"
    )

    check_hessians(args.width)
    hess_runs = turns(
        {
            "opgrad func.hessian": hessian_opgrad(args.width, "func"),
            "opgrad func.jacfwd(func.jacrev)": hessian_opgrad(args.width, "jacfwd"),
            "opgrad functional.hessian": hessian_opgrad(args.width, "functional"),
            "opgrad functional.hessian(vectorize=True)": hessian_opgrad(args.width, "functional-vectorize"),
            "torch func.hessian": hessian_torch(args.width) if use_torch else None,
        },
        repeat,
    )
    hess = {k: statistics.median(v) for k, v in hess_runs.items()}
    paired = paired_ratios(hess_runs, "torch func.hessian")
    result["hessian_ms"] = hess
    result["hessian_vs_torch"] = {k: {"median": m, "min": lo, "max": hi} for k, (m, lo, hi) in paired.items()}
    print(
        f"2. 64x64 Hessian through a 2-layer tanh MLP (width {args.width}), ms (median of {repeat}); "
        "vs torch: median of the paired ratios (range)"
    )
    for k, v in hess.items():
        ratio = f"{paired[k][0]:.2f}x ({paired[k][1]:.2f}-{paired[k][2]:.2f})" if k in paired else "-"
        print(f"   {k:42s} {_fmt(v):>8s}   vs torch {ratio}")

    plain = checkpoint_step(args.mlp_width, args.batch, None)
    ckpt = checkpoint_step(args.mlp_width, args.batch, 4)
    runs: dict[str, list[tuple[float, float]]] = {"plain": [], "checkpoint": []}
    for _ in range(max(3, repeat // 2)):
        runs["plain"].append(plain())
        runs["checkpoint"].append(ckpt())
    cp = {
        k: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for k, v in runs.items()
    }
    result["checkpoint"] = {k: {"seconds": s, "peak_mib": m} for k, (s, m) in cp.items()}
    print(f"3. 20-layer tanh MLP, width {args.mlp_width}, batch {args.batch}: forward + backward")
    for k, (s, m) in cp.items():
        print(f"   {k:11s} {s:8.3f} s   peak {m:8.1f} MiB")
    print(
        f"   checkpoint / plain: time {cp['checkpoint'][0] / cp['plain'][0]:.2f}x, "
        f"peak memory {cp['checkpoint'][1] / cp['plain'][1]:.0%}"
    )
    if not args.no_rss and AVAILABLE:
        frameworks = ["opgrad", "torch"] if use_torch else ["opgrad"]
        rss = {
            f: {
                k: checkpoint_rss(f, args.mlp_width, args.batch, s)
                for k, s in (("plain", 0), ("checkpoint", 4))
            }
            for f in frameworks
        }
        result["checkpoint_rss_mib"] = rss
        print("   peak resident memory above the step's start (fresh processes, median of 3):")
        for f, r in rss.items():
            share = f"{r['checkpoint'] / r['plain']:.0%}" if r["plain"] else "-"
            print(f"   {f:8s} plain {r['plain']:6.1f} MiB, checkpoint {r['checkpoint']:6.1f} MiB: {share}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=2)
    return 0


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None else f"{a / b:.2f}x"


if __name__ == "__main__":
    sys.exit(main())
