"""The issue-11 targets: small-model training steps and chains, opgrad against PyTorch and NumPy.

    python benchmarks/training.py                    # every workload, table on stdout
    python benchmarks/training.py mlp_sgd chain2001  # only these workloads
    python benchmarks/training.py --quick            # tiny sizes, 3 rounds: a smoke test
    python benchmarks/training.py --json out.json    # also write the numbers

Each workload is timed for opgrad, PyTorch and (where the row says so) NumPy by hand in the
same process, interleaved round by round (the order rotates each round), so that machine drift
hits them alike. Per round the script takes the ratio opgrad / reference; the table shows the
median of those paired ratios over the rounds and their range. One BLAS thread and one torch
thread (the environment variables are set before NumPy loads unless already set;
`torch.set_num_threads(1)` unless `--torch-threads`). `gc.collect()` runs before each timed
run; the collector stays on, as users have it. Lower is better; 1.0 means as fast.

Workloads (names for the command line):
- mlp_sgd: MLP 64-128-128-10, tanh, softmax cross-entropy, batch 32 of digits, plain SGD step
  written by hand (``p.subtract_(p.grad * lr)`` under no_grad, then ``p.grad = None``).
- mlp_nn: the same model as ``nn.Linear`` layers with ``optim.SGD`` (``zero_grad``/``step``).
- chain2001: ``y = tanh(y * a + b)`` 667 times (2,001 ops) on 16 float64, then sum: forward
  and backward, each per op.
- chain50001: the same chain with 50,001 ops on 1 element: forward + backward + freeing the graph.
- double_backward: d/dx of sum(d/dx sum(tanh(x)^3)), 1,024 float64.
- matmul: mean(tanh(x @ W)), x and W 1024x1024 float32 requiring grad, forward + backward.
- memory: peak traced memory (tracemalloc, over the state before the step) of forward +
  backward through 20 tanh layers of 1024x1024 float32, batch 256, against NumPy by hand
  (which keeps each layer's output for backward and every weight gradient, as opgrad does).
  Deterministic, so measured in one round.
- memory_rss: the same step's peak resident memory in fresh processes, for opgrad, NumPy by hand
  and PyTorch (tracemalloc does not see torch's allocations; benchmarks/_rss.py says how).
  Linux only.
- adam: one Adam step over 100 float32 tensors of 10,000 elements (grads already there), against
  ``torch.optim.Adam(foreach=False)``.
- cnn: the CNN demo's training step (examples/train_cnn.py's model and AdamW), batch 64.
- gpt: the char-GPT demo's training step (examples/train_gpt.py's TinyGPT, AdamW, gradient
  clipping), batch 32 of 64 characters.
- lstm: the char-LSTM demo's training step (examples/train_char_lstm.py's CharLSTM: embedding
  32, nn.LSTM hidden 256; Adam, gradient clipping), batch 32 of 64 characters (issue 15).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _rss import AVAILABLE, child_peak_mib, report_step_peak  # noqa: E402

import opgrad as og  # noqa: E402

if "--no-torch" in sys.argv:
    torch = None
else:
    try:
        import torch
    except Exception:  # not installed, or a broken build: compare with NumPy only
        torch = None

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))  # the demos' models

Runner = Callable[[], dict[str, float]]  # one timed run: row -> seconds (or bytes) per unit


class Workload:
    """Named setups: each builds the state and returns a runner for one timed run."""

    def __init__(self, title: str, unit: str, setups: dict[str, Callable[[argparse.Namespace], Runner]]):
        self.title, self.unit, self.setups = title, unit, setups


def _digits(batch: int, quick: bool) -> tuple[np.ndarray, np.ndarray]:
    """(images flattened to 64 float32 in [0, 1], int64 labels), or random data in quick mode."""
    if not quick:
        try:
            from sklearn.datasets import load_digits

            d = load_digits()
            return (d.data / 16.0).astype(np.float32), d.target.astype(np.int64)
        except ImportError:
            pass
    rng = np.random.default_rng(0)
    return rng.random((batch * 4, 64), dtype=np.float32), rng.integers(0, 10, batch * 4)


def _init_mlp(sizes: tuple[int, ...]) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:], strict=True):
        params.append((rng.standard_normal((fan_in, fan_out)) / math.sqrt(fan_in)).astype(np.float32))
        params.append(np.zeros(fan_out, np.float32))
    return params


def _batches(a: argparse.Namespace) -> list[tuple[np.ndarray, np.ndarray]]:
    x, y = _digits(32, a.quick)
    return [(x[i : i + 32], y[i : i + 32]) for i in range(0, len(x) - 31, 32)]


def _timed(steps: int, step: Callable[[int], None]) -> float:
    gc.collect()
    t0 = time.perf_counter()
    for i in range(steps):
        step(i)
    return (time.perf_counter() - t0) / steps


# ---------------------------------------------------------------------------------------
# MLP 64-128-128-10 SGD step

MLP = (64, 128, 128, 10)
LR = 0.05


def mlp_sgd_opgrad(a: argparse.Namespace) -> Runner:
    params = [og.tensor(p, requires_grad=True) for p in _init_mlp(MLP)]
    data = [(og.tensor(x), og.tensor(y)) for x, y in _batches(a)]
    cross_entropy, tanh, no_grad = og.nn.functional.cross_entropy, og.tanh, og.no_grad
    w1, b1, w2, b2, w3, b3 = params

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        h = tanh(x @ w1 + b1)
        h = tanh(h @ w2 + b2)
        loss = cross_entropy(h @ w3 + b3, y)
        loss.backward()
        with no_grad():
            for p in params:
                p.subtract_(p.grad * LR)
                p.grad = None

    return lambda: {"step": _timed(a.steps, step)}


def mlp_sgd_torch(a: argparse.Namespace) -> Runner:
    params = [torch.tensor(p, requires_grad=True) for p in _init_mlp(MLP)]
    data = [(torch.from_numpy(x), torch.from_numpy(y)) for x, y in _batches(a)]
    cross_entropy, tanh, no_grad = torch.nn.functional.cross_entropy, torch.tanh, torch.no_grad
    w1, b1, w2, b2, w3, b3 = params

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        h = tanh(x @ w1 + b1)
        h = tanh(h @ w2 + b2)
        loss = cross_entropy(h @ w3 + b3, y)
        loss.backward()
        with no_grad():
            for p in params:
                p.subtract_(p.grad * LR)
                p.grad = None

    return lambda: {"step": _timed(a.steps, step)}


def mlp_sgd_numpy(a: argparse.Namespace) -> Runner:
    params = _init_mlp(MLP)
    data = _batches(a)
    w1, b1, w2, b2, w3, b3 = params

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        h1 = np.tanh(x @ w1 + b1)
        h2 = np.tanh(h1 @ w2 + b2)
        z = h2 @ w3 + b3
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=1, keepdims=True)
        n = len(y)
        _loss = -np.log(p[np.arange(n), y]).mean()
        gz = p
        gz[np.arange(n), y] -= 1.0
        gz /= n
        grads = [None] * 6
        grads[4], grads[5] = h2.T @ gz, gz.sum(axis=0)
        g2 = (gz @ w3.T) * (1.0 - h2 * h2)
        grads[2], grads[3] = h1.T @ g2, g2.sum(axis=0)
        g1 = (g2 @ w2.T) * (1.0 - h1 * h1)
        grads[0], grads[1] = x.T @ g1, g1.sum(axis=0)
        for p_, g in zip(params, grads, strict=True):
            p_ -= g * np.float32(LR)

    return lambda: {"step": _timed(a.steps, step)}


def mlp_nn_opgrad(a: argparse.Namespace) -> Runner:
    nn = og.nn
    model = nn.Sequential(nn.Linear(64, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(), nn.Linear(128, 10))
    opt = og.optim.SGD(model.parameters(), lr=LR)
    data = [(og.tensor(x), og.tensor(y)) for x, y in _batches(a)]
    cross_entropy = nn.functional.cross_entropy

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        cross_entropy(model(x), y).backward()
        opt.step()

    return lambda: {"step": _timed(a.steps, step)}


def mlp_nn_torch(a: argparse.Namespace) -> Runner:
    nn = torch.nn
    model = nn.Sequential(nn.Linear(64, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(), nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    data = [(torch.from_numpy(x), torch.from_numpy(y)) for x, y in _batches(a)]
    cross_entropy = nn.functional.cross_entropy

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        cross_entropy(model(x), y).backward()
        opt.step()

    return lambda: {"step": _timed(a.steps, step)}


# ---------------------------------------------------------------------------------------
# Chains of tiny elementwise ops


def _chain(lib, tensor: Callable, n_ops: int, size: int, free: bool, a: argparse.Namespace) -> Runner:
    x = tensor(np.linspace(-1.0, 1.0, size), requires_grad=True)
    c = tensor(np.full(size, 0.9))
    d = tensor(np.full(size, 0.1))
    tanh, multiply, add = lib.tanh, lib.multiply, lib.add
    reps = n_ops // 3

    def run() -> dict[str, float]:
        gc.collect()
        t0 = time.perf_counter()
        y = x
        for _ in range(reps):
            y = tanh(add(multiply(y, c), d))
        loss = y.sum()
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        del y, loss
        t3 = time.perf_counter()
        x.grad = None
        ops = 3 * reps
        if free:
            return {"fwd+bwd+free": (t3 - t0) / ops}
        return {"forward": (t1 - t0) / ops, "backward": (t2 - t1) / ops}

    return run


def chain2001_opgrad(a):
    return _chain(og, og.tensor, a.chain, 16, False, a)


def chain2001_torch(a):
    return _chain(torch, torch.tensor, a.chain, 16, False, a)


def chain50001_opgrad(a):
    return _chain(og, og.tensor, a.long_chain, 1, True, a)


def chain50001_torch(a):
    return _chain(torch, torch.tensor, a.long_chain, 1, True, a)


# ---------------------------------------------------------------------------------------
# Double backward


def double_backward_opgrad(a: argparse.Namespace) -> Runner:
    x = og.tensor(np.linspace(-1.0, 1.0, 1024), requires_grad=True)

    def step(_: int) -> None:
        (g,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
        og.sum(g).backward()
        x.grad = None

    return lambda: {"step": _timed(a.steps, step)}


def double_backward_torch(a: argparse.Namespace) -> Runner:
    x = torch.linspace(-1.0, 1.0, 1024, dtype=torch.float64, requires_grad=True)

    def step(_: int) -> None:
        (g,) = torch.autograd.grad(torch.sum(torch.tanh(x) ** 3), x, create_graph=True)
        torch.sum(g).backward()
        x.grad = None

    return lambda: {"step": _timed(a.steps, step)}


# ---------------------------------------------------------------------------------------
# mean(tanh(x @ W)), large


def _mm_inputs(a: argparse.Namespace) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    n = a.size
    return (rng.standard_normal((n, n), dtype=np.float32), rng.standard_normal((n, n), dtype=np.float32) / n)


def matmul_opgrad(a: argparse.Namespace) -> Runner:
    xa, wa = _mm_inputs(a)
    x, w = og.tensor(xa, requires_grad=True), og.tensor(wa, requires_grad=True)

    def step(_: int) -> None:
        og.mean(og.tanh(x @ w)).backward()
        x.grad = w.grad = None

    return lambda: {"fwd+bwd": _timed(max(1, a.steps // 10), step)}


def matmul_torch(a: argparse.Namespace) -> Runner:
    xa, wa = _mm_inputs(a)
    x, w = torch.tensor(xa, requires_grad=True), torch.tensor(wa, requires_grad=True)

    def step(_: int) -> None:
        torch.mean(torch.tanh(x @ w)).backward()
        x.grad = w.grad = None

    return lambda: {"fwd+bwd": _timed(max(1, a.steps // 10), step)}


def matmul_numpy(a: argparse.Namespace) -> Runner:
    x, w = _mm_inputs(a)

    def step(_: int) -> None:
        t = np.tanh(x @ w)
        _loss = t.mean()
        g = (1.0 - t * t) * np.float32(1.0 / t.size)
        _gx, _gw = g @ w.T, x.T @ g

    return lambda: {"fwd+bwd": _timed(max(1, a.steps // 10), step)}


# ---------------------------------------------------------------------------------------
# Peak memory of a deep tanh MLP


def _deep_inputs(a: argparse.Namespace) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(0)
    w = a.width
    x = rng.standard_normal((a.batch, w), dtype=np.float32)
    return x, [rng.standard_normal((w, w), dtype=np.float32) / math.sqrt(w) for _ in range(a.layers)]


def _peak(run: Callable[[], None]) -> dict[str, float]:
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return {"peak bytes": float(tracemalloc.get_traced_memory()[1])}
    finally:
        tracemalloc.stop()


def _deep_autograd(a: argparse.Namespace, lib: Any) -> Callable[[], None]:
    """The step in opgrad or torch (`lib`), which spell these calls alike."""
    xa, ws = _deep_inputs(a)
    x = lib.tensor(xa)
    params = [lib.tensor(w, requires_grad=True) for w in ws]

    def run() -> None:
        h = x
        for w in params:
            h = lib.tanh(h @ w)
        lib.sum(h).backward()
        for p in params:
            p.grad = None

    return run


def deep_opgrad(a: argparse.Namespace) -> Callable[[], None]:
    return _deep_autograd(a, og)


def deep_torch(a: argparse.Namespace) -> Callable[[], None]:
    return _deep_autograd(a, torch)


def deep_numpy(a: argparse.Namespace) -> Callable[[], None]:
    x, ws = _deep_inputs(a)

    def run() -> None:
        hs = [x]
        for w in ws:
            hs.append(np.tanh(hs[-1] @ w))
        g = np.ones_like(hs[-1])
        grads = [None] * len(ws)
        for i in range(len(ws) - 1, -1, -1):
            h = hs.pop()
            g = g * (1.0 - h * h)
            grads[i] = hs[-1].T @ g
            g = g @ ws[i].T
        del grads

    return run


DEEP = {"opgrad": deep_opgrad, "numpy": deep_numpy, "torch": deep_torch}


def memory_setup(lib: str) -> Callable[[argparse.Namespace], Runner]:
    """tracemalloc's peak: sees NumPy's allocations (so opgrad's and NumPy's), not torch's."""
    return lambda a: (lambda run: lambda: _peak(run))(DEEP[lib](a))


def rss_setup(lib: str) -> Callable[[argparse.Namespace], Runner]:
    """The same step's peak resident memory, in fresh processes (benchmarks/_rss.py)."""

    def setup(a: argparse.Namespace) -> Runner:
        args = [__file__, "--rss-child", lib, *(["--quick"] if a.quick else [])]
        return lambda: {"peak bytes": child_peak_mib(args) * 2**20}

    return setup


# ---------------------------------------------------------------------------------------
# Adam over many float32 tensors


def _adam_arrays(a: argparse.Namespace) -> tuple[list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(0)
    shape = (a.adam_size,)
    params = [rng.standard_normal(shape, dtype=np.float32) for _ in range(a.adam_tensors)]
    return params, [rng.standard_normal(shape, dtype=np.float32) for _ in params]


def adam_opgrad(a: argparse.Namespace) -> Runner:
    ps, gs = _adam_arrays(a)
    params = [og.tensor(p, requires_grad=True) for p in ps]
    for p, g in zip(params, gs, strict=True):
        p.grad = og.tensor(g)
    opt = og.optim.Adam(params, lr=1e-3)
    return lambda: {"step": _timed(a.steps, lambda _: opt.step())}


def adam_torch(a: argparse.Namespace) -> Runner:
    ps, gs = _adam_arrays(a)
    params = [torch.tensor(p, requires_grad=True) for p in ps]
    for p, g in zip(params, gs, strict=True):
        p.grad = torch.tensor(g)
    opt = torch.optim.Adam(params, lr=1e-3, foreach=False)
    return lambda: {"step": _timed(a.steps, lambda _: opt.step())}


# ---------------------------------------------------------------------------------------
# The demos' training steps


def _cnn_batches(a: argparse.Namespace) -> list[tuple[np.ndarray, np.ndarray]]:
    x, y = _digits(64, a.quick)
    x = x.reshape(-1, 1, 8, 8)
    return [(x[i : i + 64], y[i : i + 64]) for i in range(0, len(x) - 63, 64)]


def cnn_opgrad(a: argparse.Namespace) -> Runner:
    import train_cnn

    og.manual_seed(0)
    model = train_cnn.build_model((16, 32), 64, 0.2)
    opt = train_cnn.make_optimizer(model, 3e-3, 1e-3)
    data = [(og.tensor(x), og.tensor(y)) for x, y in _cnn_batches(a)]
    cross_entropy = og.nn.functional.cross_entropy

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        loss = cross_entropy(model(x), y, reduction="sum") * (1.0 / len(y))
        loss.backward()
        opt.step()
        loss.item()

    return lambda: {"step": _timed(a.steps, step)}


def cnn_torch(a: argparse.Namespace) -> Runner:
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1),
        nn.BatchNorm2d(32),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(128, 64),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(64, 10),
    )
    params = list(model.parameters())
    opt = torch.optim.AdamW(
        [
            {"params": [p for p in params if p.ndim > 1], "weight_decay": 1e-3},
            {"params": [p for p in params if p.ndim <= 1], "weight_decay": 0.0},
        ],
        lr=3e-3,
    )
    data = [(torch.from_numpy(x), torch.from_numpy(y)) for x, y in _cnn_batches(a)]
    cross_entropy = nn.functional.cross_entropy

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        loss = cross_entropy(model(x), y, reduction="sum") * (1.0 / len(y))
        loss.backward()
        opt.step()
        loss.item()

    return lambda: {"step": _timed(a.steps, step)}


GPT = {"context": 64, "width": 64, "heads": 4, "layers": 2, "batch": 32}


def _gpt_batches(a: argparse.Namespace, vocab: int = 65) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(0)
    t = GPT["context"]
    out = []
    for _ in range(4):
        w = rng.integers(0, vocab, (GPT["batch"], t + 1))
        out.append((w[:, :-1], w[:, 1:]))
    return out


def gpt_opgrad(a: argparse.Namespace) -> Runner:
    import train_gpt

    og.manual_seed(0)
    g = GPT
    model = train_gpt.TinyGPT(65, g["context"], g["width"], g["heads"], g["layers"], 0.0)
    params = list(model.parameters())
    opt = og.optim.AdamW(
        [
            {"params": [p for p in params if p.ndim > 1], "weight_decay": 0.1},
            {"params": [p for p in params if p.ndim <= 1], "weight_decay": 0.0},
        ],
        lr=3e-3,
        betas=(0.9, 0.99),
    )
    data = [(og.tensor(x), og.tensor(y)) for x, y in _gpt_batches(a)]

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        loss = train_gpt.loss_fn(model, x, y)
        loss.backward()
        og.optim.clip_grad_norm_(params, 1.0)
        opt.step()
        loss.item()

    return lambda: {"step": _timed(max(1, a.steps // 4), step)}


def _torch_gpt(vocab: int):
    nn, F = torch.nn, torch.nn.functional
    g = GPT

    class Attention(nn.Module):
        def __init__(self, width: int, heads: int) -> None:
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(width, 3 * width)
            self.proj = nn.Linear(width, width)

        def forward(self, x):
            b, t, c = x.shape
            qkv = self.qkv(x).reshape(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.proj(y.transpose(1, 2).reshape(b, t, c))

    class Block(nn.Module):
        def __init__(self, width: int, heads: int) -> None:
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.attn = Attention(width, heads)
            self.mlp = nn.Sequential(
                nn.Linear(width, 4 * width), nn.GELU(approximate="tanh"), nn.Linear(4 * width, width)
            )

        def forward(self, x):
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))

    class TinyGPT(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            w = g["width"]
            self.tok, self.pos = nn.Embedding(vocab, w), nn.Embedding(g["context"], w)
            self.blocks = nn.Sequential(*[Block(w, g["heads"]) for _ in range(g["layers"])])
            self.ln_f = nn.LayerNorm(w)
            self.head = nn.Linear(w, vocab)
            self.register_buffer("positions", torch.arange(g["context"]), persistent=False)

        def forward(self, ids):
            x = self.tok(ids) + self.pos(self.positions[: ids.shape[1]])
            return self.head(self.ln_f(self.blocks(x)))

    return TinyGPT()


def gpt_torch(a: argparse.Namespace) -> Runner:
    torch.manual_seed(0)
    model = _torch_gpt(65)
    params = list(model.parameters())
    opt = torch.optim.AdamW(
        [
            {"params": [p for p in params if p.ndim > 1], "weight_decay": 0.1},
            {"params": [p for p in params if p.ndim <= 1], "weight_decay": 0.0},
        ],
        lr=3e-3,
        betas=(0.9, 0.99),
    )
    data = [(torch.from_numpy(x), torch.from_numpy(y)) for x, y in _gpt_batches(a)]
    cross_entropy = torch.nn.functional.cross_entropy

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        logits = model(x)
        b, t, v = logits.shape
        loss = cross_entropy(logits.reshape(b * t, v), y.reshape(b * t))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        loss.item()

    return lambda: {"step": _timed(max(1, a.steps // 4), step)}


LSTM = {"width": 32, "hidden": 256}


def lstm_opgrad(a: argparse.Namespace) -> Runner:
    import train_char_lstm

    og.manual_seed(0)
    model = train_char_lstm.CharLSTM(65, LSTM["width"], LSTM["hidden"], 1, 0.0)
    params = list(model.parameters())
    opt = og.optim.Adam(params, lr=5e-3)
    data = [(og.tensor(x), og.tensor(y)) for x, y in _gpt_batches(a)]

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        loss = train_char_lstm.loss_fn(model, x, y)
        loss.backward()
        og.optim.clip_grad_norm_(params, 1.0)
        opt.step()
        loss.item()

    return lambda: {"step": _timed(max(1, a.steps // 4), step)}


def lstm_torch(a: argparse.Namespace) -> Runner:
    torch.manual_seed(0)
    nn = torch.nn

    class CharLSTM(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(65, LSTM["width"])
            self.lstm = nn.LSTM(LSTM["width"], LSTM["hidden"], batch_first=True)
            self.head = nn.Linear(LSTM["hidden"], 65)

        def forward(self, ids):
            return self.head(self.lstm(self.embed(ids))[0])

    model = CharLSTM()
    params = list(model.parameters())
    opt = torch.optim.Adam(params, lr=5e-3)
    data = [(torch.from_numpy(x), torch.from_numpy(y)) for x, y in _gpt_batches(a)]

    def step(i: int) -> None:
        x, y = data[i % len(data)]
        opt.zero_grad()
        logits = model(x)
        b, t, v = logits.shape
        loss = torch.nn.functional.cross_entropy(logits.reshape(b * t, v), y.reshape(b * t))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        loss.item()

    return lambda: {"step": _timed(max(1, a.steps // 4), step)}


# ---------------------------------------------------------------------------------------

WORKLOADS = {
    "mlp_sgd": Workload(
        "MLP 64-128-128-10 SGD step by hand, batch 32",
        "µs",
        {"opgrad": mlp_sgd_opgrad, "torch": mlp_sgd_torch, "numpy": mlp_sgd_numpy},
    ),
    "mlp_nn": Workload(
        "MLP 64-128-128-10 with nn.Linear + optim.SGD, batch 32",
        "µs",
        {"opgrad": mlp_nn_opgrad, "torch": mlp_nn_torch},
    ),
    "chain2001": Workload(
        "chain y = tanh(y*a + b), 2,001 ops on 16 float64, per op",
        "µs",
        {"opgrad": chain2001_opgrad, "torch": chain2001_torch},
    ),
    "chain50001": Workload(
        "chain of 50,001 ops on 1 element, per op",
        "µs",
        {"opgrad": chain50001_opgrad, "torch": chain50001_torch},
    ),
    "double_backward": Workload(
        "d/dx sum(d/dx sum(tanh(x)^3)), 1,024 float64",
        "µs",
        {"opgrad": double_backward_opgrad, "torch": double_backward_torch},
    ),
    "matmul": Workload(
        "mean(tanh(x @ W)) fwd+bwd, 1024x1024 float32",
        "ms",
        {"opgrad": matmul_opgrad, "numpy": matmul_numpy, "torch": matmul_torch},
    ),
    "memory": Workload(
        "peak memory, 20 tanh layers 1024x1024 float32, batch 256, fwd+bwd",
        "MiB",
        {"opgrad": memory_setup("opgrad"), "numpy": memory_setup("numpy")},
    ),
    **(
        {
            "memory_rss": Workload(
                "peak resident memory of the same step, fresh processes",
                "MiB",
                {lib: rss_setup(lib) for lib in DEEP},
            )
        }
        if AVAILABLE
        else {}
    ),
    "adam": Workload("Adam step, 100 x 10,000 float32", "µs", {"opgrad": adam_opgrad, "torch": adam_torch}),
    "cnn": Workload("CNN demo training step, batch 64", "µs", {"opgrad": cnn_opgrad, "torch": cnn_torch}),
    "gpt": Workload(
        "char-GPT demo training step, batch 32x64", "µs", {"opgrad": gpt_opgrad, "torch": gpt_torch}
    ),
    "lstm": Workload(
        "char-LSTM demo training step, batch 32x64", "µs", {"opgrad": lstm_opgrad, "torch": lstm_torch}
    ),
}
SCALE = {"µs": 1e6, "ms": 1e3, "MiB": 1.0 / 2**20}


def measure(name: str, a: argparse.Namespace) -> dict:
    """Interleaved rounds; per row, each library's median and the median/min/max paired ratio."""
    w = WORKLOADS[name]
    libs = [lib for lib in w.setups if lib != "torch" or torch is not None]
    runners = {lib: w.setups[lib](a) for lib in libs}
    rounds = 1 if w.unit == "MiB" else a.repeat  # memory is deterministic: no warm-up, one round
    if rounds > 1:
        for run in runners.values():  # warm-up
            run()
    samples: dict[str, list[dict[str, float]]] = {lib: [] for lib in libs}
    for r in range(rounds):
        for k in range(len(libs)):
            lib = libs[(r + k) % len(libs)]  # rotate the order so no library always goes first
            samples[lib].append(runners[lib]())
    rows = {}
    for row in samples["opgrad"][0]:
        entry: dict = {}
        for lib in libs:
            entry[lib] = statistics.median(s[row] for s in samples[lib]) * SCALE[w.unit]
        for ref in libs[1:]:
            pairs = zip(samples["opgrad"], samples[ref], strict=True)
            ratios = [o[row] / s[row] if s[row] else math.nan for o, s in pairs]  # 0: a tiny --quick peak
            entry[f"opgrad/{ref}"] = {
                "median": statistics.median(ratios),
                "min": min(ratios),
                "max": max(ratios),
            }
        rows[row] = entry
    return {"title": w.title, "unit": w.unit, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "workloads", nargs="*", choices=[[], *WORKLOADS], metavar="WORKLOAD", help=", ".join(WORKLOADS)
    )
    p.add_argument("--repeat", type=int, default=7, help="interleaved rounds (default 7)")
    p.add_argument("--steps", type=int, default=40, help="steps per timed run of the step workloads")
    p.add_argument("--quick", action="store_true", help="tiny sizes and 3 rounds: checks the script runs")
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--no-torch", action="store_true", help="compare with NumPy only (torch is not imported)")
    p.add_argument("--json", type=Path, help="also write the numbers here")
    p.add_argument("--rss-child", choices=list(DEEP), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    global torch
    if a.no_torch:
        torch = None
    a.chain, a.long_chain, a.size, a.width, a.layers, a.batch = 2001, 50001, 1024, 1024, 20, 256
    a.adam_tensors, a.adam_size = 100, 10_000
    if a.quick:
        a.repeat, a.steps, a.chain, a.long_chain, a.size, a.width, a.layers, a.batch = (
            3,
            2,
            60,
            300,
            32,
            32,
            3,
            8,
        )
        a.adam_tensors, a.adam_size = 5, 100
    if torch is not None:
        torch.set_num_threads(a.torch_threads)
    if a.rss_child:
        report_step_peak(DEEP[a.rss_child](a))
        return 0
    names = a.workloads or list(WORKLOADS)
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, "
        + (f"torch {torch.__version__} ({torch.get_num_threads()} threads)" if torch else "no torch")
        + f", OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}; {a.repeat} rounds"
    )
    results = {}
    for name in names:
        res = results[name] = measure(name, a)
        print(f"\n{name}: {res['title']} ({res['unit']})")
        for row, entry in res["rows"].items():
            cells = [f"{lib} {entry[lib]:.4g}" for lib in entry if "/" not in lib]
            cells += [
                f"{k} {v['median']:.2f}x ({v['min']:.2f}-{v['max']:.2f})"
                for k, v in entry.items()
                if "/" in k
            ]
            print(f"  {row:13s} " + "   ".join(cells))
    if a.json:
        a.json.write_text(json.dumps({"quick": a.quick, "repeat": a.repeat, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
