"""Generated ops end to end: per-op overhead on tiny tensors, kernel time on large ones.

    python benchmarks/ops.py                       # both workloads, table on stdout
    python benchmarks/ops.py --json bench.json     # also write the numbers
    python benchmarks/ops.py --repeat 9 --chain 4000

Workloads (each timed after a warm-up; medians over --repeat runs):
1. chain: --chain (2,000) elementwise ops on a 16-element float64 tensor, cycling
   tanh, multiply by a constant tensor, add a constant tensor, sin; then sum. Reports µs
   per op for the forward with grad recording, the backward, and the forward under no_grad.
2. matmul: mean(tanh(a @ b)) with a, b --size (1024) square float32, both requiring grad: ms for
   the forward and for forward+backward.
The same math runs in NumPy (forward, and the backward derived by hand) and, when
`import torch` works, in PyTorch on the CPU with its default thread count. Ratios are
opgrad / NumPy and opgrad / PyTorch (lower is better; 1.0 means as fast).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import opgrad as og

try:
    import torch
except Exception:  # not installed, or a broken build: compare with NumPy only
    torch = None

N_ELEM = 16
MM = 1024

# ---------------------------------------------------------------------------------------
# 1. A chain of tiny elementwise ops


def chain_opgrad(n: int, backward: bool = True) -> tuple[float, float]:
    """(forward s, backward s); the input requires grad, so under no_grad this times the skip."""
    x = og.tensor(np.linspace(-1.0, 1.0, N_ELEM), requires_grad=True)
    c = og.tensor(np.full(N_ELEM, 0.9))
    d = og.tensor(np.full(N_ELEM, 0.1))
    tanh, multiply, add, sin = og.tanh, og.multiply, og.add, og.sin
    t0 = time.perf_counter()
    y = x
    for i in range(n):
        k = i & 3
        if k == 0:
            y = tanh(y)
        elif k == 1:
            y = multiply(y, c)
        elif k == 2:
            y = add(y, d)
        else:
            y = sin(y)
    loss = og.sum(y)
    t1 = time.perf_counter()
    if backward:
        loss.backward()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def chain_opgrad_nograd(n: int) -> float:
    with og.no_grad():
        return chain_opgrad(n, backward=False)[0]


def chain_numpy(n: int) -> tuple[float, float]:
    return _chain_numpy(n)[:2]


def _chain_numpy(n: int) -> tuple[float, float, np.ndarray]:
    """Forward keeping what backward needs, then the backward derived by hand."""
    x = np.linspace(-1.0, 1.0, N_ELEM)
    c = np.full(N_ELEM, 0.9)
    d = np.full(N_ELEM, 0.1)
    saved: list[np.ndarray | None] = [None] * n
    t0 = time.perf_counter()
    y = x
    for i in range(n):
        k = i & 3
        if k == 0:
            y = np.tanh(y)
            saved[i] = y
        elif k == 1:
            y = y * c
        elif k == 2:
            y = y + d
        else:
            saved[i] = y
            y = np.sin(y)
    loss = y.sum()
    t1 = time.perf_counter()
    g = np.ones_like(y) * np.ones_like(loss)  # d loss / d y
    for i in range(n - 1, -1, -1):
        k = i & 3
        if k == 0:
            out = saved[i]
            g = g * (1 - out * out)
        elif k == 1:
            g = g * c
        elif k == 2:
            pass  # d(y + d)/dy = 1: the gradient passes through unchanged
        else:
            g = g * np.cos(saved[i])
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, g


def chain_torch(n: int, backward: bool = True) -> tuple[float, float]:
    x = torch.linspace(-1.0, 1.0, N_ELEM, dtype=torch.float64, requires_grad=True)
    c = torch.full((N_ELEM,), 0.9, dtype=torch.float64)
    d = torch.full((N_ELEM,), 0.1, dtype=torch.float64)
    tanh, mul, add, sin = torch.tanh, torch.mul, torch.add, torch.sin
    t0 = time.perf_counter()
    y = x
    for i in range(n):
        k = i & 3
        if k == 0:
            y = tanh(y)
        elif k == 1:
            y = mul(y, c)
        elif k == 2:
            y = add(y, d)
        else:
            y = sin(y)
    loss = torch.sum(y)
    t1 = time.perf_counter()
    if backward:
        loss.backward()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def chain_torch_nograd(n: int) -> float:
    with torch.no_grad():
        return chain_torch(n, backward=False)[0]


# ---------------------------------------------------------------------------------------
# 2. mean(tanh(a @ b)) on 1024x1024 float32


def mm_inputs(size: int = MM, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    scale = np.float32(1.0 / np.sqrt(size))
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32) * scale
    return a, b


class MatmulOpgrad:
    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.a = og.tensor(a, requires_grad=True)
        self.b = og.tensor(b, requires_grad=True)

    def __call__(self) -> tuple[float, float]:
        a, b = self.a, self.b
        a.grad = None
        b.grad = None
        t0 = time.perf_counter()
        loss = og.mean(og.tanh(a @ b))
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1

    def grads(self) -> tuple[np.ndarray, np.ndarray]:
        return self.a.grad.numpy(), self.b.grad.numpy()


class MatmulNumpy:
    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.a, self.b = a, b
        self.ga = self.gb = None

    def __call__(self) -> tuple[float, float]:
        a, b = self.a, self.b
        t0 = time.perf_counter()
        t = np.tanh(a @ b)
        loss = t.mean()
        t1 = time.perf_counter()
        gz = (1 - t * t) * np.float32(1.0 / t.size) * np.ones_like(loss)
        self.ga = gz @ b.T
        self.gb = a.T @ gz
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1


class MatmulTorch:
    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.a = torch.from_numpy(a.copy()).requires_grad_()
        self.b = torch.from_numpy(b.copy()).requires_grad_()

    def __call__(self) -> tuple[float, float]:
        a, b = self.a, self.b
        a.grad = None
        b.grad = None
        t0 = time.perf_counter()
        loss = torch.tanh(a @ b).mean()
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1


# ---------------------------------------------------------------------------------------
# Timing and reporting


Timed = Callable[[], "tuple[float, ...] | float"]


def interleaved(
    workloads: dict[str, Timed | None], repeat: int, warmup: int = 2
) -> dict[str, list[float] | None]:
    """Per-part medians of each workload (None for a None workload).

    The workloads take turns, one run each per round, so a change in machine load during
    the benchmark hits all of them alike and the ratios stay meaningful.
    """
    active = {k: fn for k, fn in workloads.items() if fn is not None}
    for _ in range(warmup):
        for fn in active.values():
            fn()
    runs: dict[str, list[tuple[float, ...]]] = {k: [] for k in active}
    for _ in range(repeat):
        for k, fn in active.items():
            gc.collect()
            r = fn()
            runs[k].append(r if isinstance(r, tuple) else (r,))
    return {
        k: ([statistics.median(part) for part in zip(*runs[k], strict=True)] if k in runs else None)
        for k in workloads
    }


def blas_info() -> str:
    """numpy's BLAS library, its CPU kernels and thread count; OPENBLAS_CORETYPE."""
    parts = []
    try:
        from threadpoolctl import threadpool_info

        pools = [p for p in threadpool_info() if p.get("user_api") == "blas"]
        for pool in pools:
            parts.append(
                f"{pool.get('internal_api')} {pool.get('version')} ({pool.get('architecture')} kernels, "
                f"{pool.get('threading_layer')}), {pool.get('num_threads')} threads "
                f"[{Path(pool.get('filepath', '')).name}]"
            )
    except ImportError:
        pass
    if not parts:
        try:
            blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
            parts.append(f"{blas.get('name')} {blas.get('version')} (threads: pip install threadpoolctl)")
        except Exception:
            parts.append("unknown (pip install threadpoolctl to see it)")
    parts.append(f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}")
    return "; ".join(parts)


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", type=int, default=2000, help="ops in the elementwise chain (default 2000)")
    parser.add_argument(
        "--repeat", type=int, default=7, help="timed runs per workload (default 7, at least 5)"
    )
    parser.add_argument("--size", type=int, default=MM, help=f"matmul side (default {MM})")
    parser.add_argument("--no-torch", action="store_true", help="skip the PyTorch comparison")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    repeat = max(args.repeat, 5)
    n = args.chain
    have_torch = torch is not None and not args.no_torch

    print(
        f"python {platform.python_version()}, numpy {np.__version__}"
        + (f", torch {torch.__version__} ({torch.get_num_threads()} threads)" if have_torch else ", no torch")
        + f", {os.cpu_count()} cpus"
    )
    print(f"BLAS: {blas_info()}")
    print(f"medians of {repeat} runs after warm-up\n")

    # -- 1. chain ----------------------------------------------------------------------
    # sanity first: opgrad's gradient is NumPy's hand-derived one
    x = og.tensor(np.linspace(-1.0, 1.0, N_ELEM), requires_grad=True)
    np.testing.assert_allclose(_chain_grad(x, n), _chain_numpy(n)[2], rtol=1e-10, atol=1e-12)
    m = interleaved(
        {
            "opgrad": lambda: chain_opgrad(n),
            "opgrad_no_grad": lambda: chain_opgrad_nograd(n),
            "numpy": lambda: chain_numpy(n),
            "torch": (lambda: chain_torch(n)) if have_torch else None,
            "torch_no_grad": (lambda: chain_torch_nograd(n)) if have_torch else None,
        },
        repeat,
    )
    per_op = 1e6 / (n + 1)  # s per chain -> µs per op (the n elementwise ops and the sum)
    chain = _rows(
        m,
        per_op,
        {
            "forward_us_per_op": ("opgrad", 0, "numpy", 0, "torch", 0),
            "backward_us_per_op": ("opgrad", 1, "numpy", 1, "torch", 1),
            "fwd_bwd_us_per_op": ("opgrad", None, "numpy", None, "torch", None),
            "no_grad_forward_us_per_op": ("opgrad_no_grad", 0, "numpy", 0, "torch_no_grad", 0),
        },
    )

    # -- 2. matmul -----------------------------------------------------------------------
    a, b = mm_inputs(args.size)
    og_mm, np_mm = MatmulOpgrad(a, b), MatmulNumpy(a, b)
    og_mm()
    np_mm()
    ga, gb = og_mm.grads()
    np.testing.assert_allclose(ga, np_mm.ga, rtol=1e-3, atol=1e-7)
    np.testing.assert_allclose(gb, np_mm.gb, rtol=1e-3, atol=1e-7)
    m = interleaved(
        {"opgrad": og_mm, "numpy": np_mm, "torch": MatmulTorch(a, b) if have_torch else None}, repeat
    )
    matmul = _rows(
        m,
        1e3,
        {
            "forward_ms": ("opgrad", 0, "numpy", 0, "torch", 0),
            "backward_ms": ("opgrad", 1, "numpy", 1, "torch", 1),
            "fwd_bwd_ms": ("opgrad", None, "numpy", None, "torch", None),
        },
    )

    # -- report ----------------------------------------------------------------------------
    head = f"{'':28s}{'opgrad':>9s}{'numpy':>9s}{'torch':>9s}{'og/np':>8s}{'og/torch':>9s}"
    print(f"1. chain of {n} elementwise ops on {N_ELEM} x float64 (µs per op)")
    print(head)
    for name, row in chain.items():
        _print_row(name.replace("_us_per_op", ""), row)
    print(f"\n2. mean(tanh(a @ b)), a and b {args.size}x{args.size} float32 (ms)")
    print(head)
    for name, row in matmul.items():
        _print_row(name.replace("_ms", ""), row)
    print(
        "\nnumpy = the same math by hand (hand-derived backward); no_grad numpy = plain forward."
        "\nratios: lower is better, 1.00 = as fast."
    )

    if args.json:
        payload = {
            "benchmark": "ops",
            "repeat": repeat,
            "chain_length": n,
            "matmul_size": args.size,
            "python": platform.python_version(),
            "numpy": np.__version__,
            "torch": None if not have_torch else torch.__version__,
            "torch_threads": None if not have_torch else torch.get_num_threads(),
            "blas": blas_info(),
            "chain": chain,
            "matmul": matmul,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


def _chain_grad(x: og.Tensor, n: int) -> np.ndarray:
    y = x
    c = og.tensor(np.full(N_ELEM, 0.9))
    d = og.tensor(np.full(N_ELEM, 0.1))
    for i in range(n):
        k = i & 3
        y = og.tanh(y) if k == 0 else og.multiply(y, c) if k == 1 else og.add(y, d) if k == 2 else og.sin(y)
    og.sum(y).backward()
    return x.grad.numpy()


def _rows(
    medians: dict[str, list[float] | None], scale: float, spec: dict[str, tuple]
) -> dict[str, dict[str, float | None]]:
    """Table rows: for each column (opgrad, numpy, torch) a workload and the part to show
    (0 forward, 1 backward, None their sum), scaled; then the two ratios."""
    rows = {}
    for name, (og_key, og_i, np_key, np_i, th_key, th_i) in spec.items():
        row: dict[str, float | None] = {}
        for col, key, i in (("opgrad", og_key, og_i), ("numpy", np_key, np_i), ("torch", th_key, th_i)):
            parts = medians.get(key)
            row[col] = None if parts is None else (sum(parts[:2]) if i is None else parts[i]) * scale
        row["opgrad/numpy"] = ratio(row["opgrad"], row["numpy"])
        row["opgrad/torch"] = ratio(row["opgrad"], row["torch"])
        rows[name] = row
    return rows


def _print_row(name: str, row: dict[str, float | None]) -> None:
    print(
        f"{name:28s}{fmt(row['opgrad'], '9.2f')}{fmt(row['numpy'], '9.2f')}{fmt(row['torch'], '9.2f')}"
        f"{fmt(row['opgrad/numpy'], '8.2f')}{fmt(row['opgrad/torch'], '9.2f')}"
    )


if __name__ == "__main__":
    sys.exit(main())
