"""The backward engine's own cost, measured with the hand-written test nodes.

The nodes in tests/handmade_ops.py have the generated nodes' shape but need no generated
code, so this benchmark isolates the runtime (Tensor, GradNode, TensorWrapper, engine).
Tensors are tiny (16 float64 elements), so the times are Python overhead, not kernels.

    python benchmarks/engine.py            # 100,000-node chain, 7 runs
    python benchmarks/engine.py --nodes 10000 --repeat 5 --json out.json

Printed numbers (medians over the runs, in µs):
- forward / node: building the chain (one op call: kernel, node, saved tensors, history);
- backward / node: one `backward()` through the whole chain, divided by its length;
- fwd+bwd / op: the two together, i.e. the cost of one differentiable op;
- no-grad / op: the same forward under `og.no_grad()` (no autograd bookkeeping at all);
- free / node: dropping the last reference to a graph that was not backwarded
  (the retain case: graph teardown).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import opgrad as og  # noqa: E402
from handmade_ops import CALLS, add, mul, tanh, total  # noqa: E402


def build_chain(x, c, n: int):
    """n ops alternating tanh(y), mul(y, c), add(y, c), then a sum: n + 1 nodes."""
    y = x
    for i in range(n):
        k = i % 3
        if k == 0:
            y = tanh(y)
        elif k == 1:
            y = mul(y, c)
        else:
            y = add(y, c)
    return total(y)


def run_once(n: int) -> dict[str, float]:
    x = og.tensor(np.linspace(-1.0, 1.0, 16), requires_grad=True)
    c = og.tensor(np.full(16, 0.5))  # a constant: no gradient flows to it
    gc.collect()
    gc.disable()  # timing the engine, not the cycle collector's passes over a big graph
    try:
        t0 = time.perf_counter()
        loss = build_chain(x, c, n)
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        del loss
        t3 = time.perf_counter()

        with og.no_grad():
            t4 = time.perf_counter()
            build_chain(x, c, n)
            t5 = time.perf_counter()

        loss = build_chain(x, c, n)  # never backwarded: the whole graph is freed on del
        t6 = time.perf_counter()
        del loss
        t7 = time.perf_counter()
    finally:
        gc.enable()
    assert x.grad is not None and np.isfinite(x.grad.numpy()).all()
    nodes = n + 1
    return {
        "forward_us_per_node": (t1 - t0) / nodes * 1e6,
        "backward_us_per_node": (t2 - t1) / nodes * 1e6,
        "fwd_bwd_us_per_op": (t2 - t0) / nodes * 1e6,
        "free_after_backward_us_per_node": (t3 - t2) / nodes * 1e6,
        "no_grad_forward_us_per_op": (t5 - t4) / nodes * 1e6,
        "free_unbackwarded_us_per_node": (t7 - t6) / nodes * 1e6,
    }


LABELS = {
    "forward_us_per_node": "forward / node",
    "backward_us_per_node": "backward / node",
    "fwd_bwd_us_per_op": "fwd+bwd / op",
    "no_grad_forward_us_per_op": "no-grad forward / op",
    "free_after_backward_us_per_node": "free after backward / node",
    "free_unbackwarded_us_per_node": "free unbackwarded graph / node",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000, help="chain length (default 100000)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs (default 7, at least 5)")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    repeat = max(args.repeat, 5)

    run_once(min(args.nodes, 2_000))  # warm-up: imports, caches, allocator pools
    runs = [run_once(args.nodes) for _ in range(repeat)]
    CALLS.clear()
    medians = {key: statistics.median(r[key] for r in runs) for key in LABELS}
    spread = {key: (min(r[key] for r in runs), max(r[key] for r in runs)) for key in LABELS}

    print(f"opgrad engine benchmark: chain of {args.nodes:,} hand-written nodes (16 x float64)")
    print(f"python {platform.python_version()}, numpy {np.__version__}; median of {repeat} runs")
    print(f"{'':32s}{'median µs':>10s}{'min':>9s}{'max':>9s}")
    for key, label in LABELS.items():
        lo, hi = spread[key]
        print(f"{label:32s}{medians[key]:10.3f}{lo:9.3f}{hi:9.3f}")

    if args.json:
        payload = {
            "benchmark": "engine",
            "nodes": args.nodes,
            "repeat": repeat,
            "python": platform.python_version(),
            "numpy": np.__version__,
            "median": medians,
            "runs": runs,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
