"""Train a tiny character-level GPT (a decoder-only Transformer) with opgrad, then sample from it.

The text is the Book of Genesis, King James Version (public domain), shipped in
examples/data/kjv_genesis.txt (about 197 KB, one verse per line; see examples/data/README.md),
so nothing is downloaded and nothing beyond NumPy (and optionally tqdm) is needed.

The model: token + learned position embeddings (width 64, context 64), 2 pre-LayerNorm blocks
of causal self-attention (4 heads, one fused q/k/v projection and
`og.scaled_dot_product_attention(..., causal=True)`) and a GELU MLP (64 -> 256 -> 64), a final
LayerNorm and a linear read-out to the characters. It is trained on batches of random windows
of the text with `optim.AdamW` (weight decay on the weight matrices only), a linear warm-up and
cosine decay of the learning rate, and `optim.clip_grad_norm_`. Every position of every window
is predicted at once: no Python loop over positions.

    python examples/train_gpt.py                      # 1500 steps, ~3 min, loss ~1.34 nats/char
    python examples/train_gpt.py --steps 600 --seed 1
    python examples/train_gpt.py --prompt "And the LORD said" --temperature 0.7
    python examples/train_gpt.py --quick              # a few steps (used by the tests)
    python examples/train_gpt.py --plot loss.png      # also the loss curve (needs matplotlib)

The reported loss is the mean cross-entropy, in nats per character, on held-out text (the last
10% of the book, never trained on). The last line printed is a summary such as
`final loss 1.34 nats/char after 1500 steps (181.9 s)`.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

# The models multiply small matrices, for which one BLAS thread is about as fast as several, and
# several are many times slower when the cores are shared with other work. Set the variables
# yourself to override. (Before NumPy is imported: BLAS reads them once, at load time.)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _plot import write_loss_plot  # noqa: E402  (examples/_plot.py)

import opgrad as og  # noqa: E402
from opgrad import nn, optim  # noqa: E402

try:
    from tqdm import tqdm
except ImportError:  # progress bars are optional; plain prints instead
    tqdm = None

DATA = Path(__file__).resolve().parent / "data" / "kjv_genesis.txt"


class CharVocab:
    """The characters of a text, each mapped to an id."""

    def __init__(self, text: str) -> None:
        self.chars = sorted(set(text))
        self.index = {c: i for i, c in enumerate(self.chars)}

    def __len__(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> np.ndarray:
        return np.array([self.index[c] for c in text], dtype=np.int64)

    def decode(self, ids) -> str:
        return "".join(self.chars[int(i)] for i in ids)


class CausalSelfAttention(nn.Module):
    """Multi-head self-attention where position t sees positions <= t only."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        if width % heads:
            raise ValueError(f"width {width} is not divisible by heads {heads}")
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)

    def forward(self, x: og.Tensor) -> og.Tensor:
        b, t, c = x.shape
        # (B, T, 3C) -> (3, B, heads, T, head_dim): one matmul for q, k and v together.
        qkv = og.transpose(og.reshape(self.qkv(x), [b, t, 3, self.heads, c // self.heads]), [2, 0, 3, 1, 4])
        q, k, v = (og.squeeze(part, [0]) for part in og.split(qkv, 3, 0))
        y = og.scaled_dot_product_attention(q, k, v, causal=True)  # (B, heads, T, head_dim)
        y = og.reshape(og.transpose(y, [0, 2, 1, 3]), [b, t, c])
        return self.proj(y)


class Block(nn.Module):
    """Pre-LayerNorm Transformer block: x + attn(ln(x)), then x + mlp(ln(x))."""

    def __init__(self, width: int, heads: int, dropout: float) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(width)
        self.attn = CausalSelfAttention(width, heads)
        self.ln2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(
            nn.Linear(width, 4 * width),
            nn.GELU(approximate=True),
            nn.Linear(4 * width, width),
            nn.Dropout(dropout),
        )

    def forward(self, x: og.Tensor) -> og.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    """Characters (B, T) -> next-character logits (B, T, vocab)."""

    def __init__(self, vocab: int, context: int, width: int, heads: int, layers: int, dropout: float) -> None:
        super().__init__()
        self.context = context
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(context, width)
        self.blocks = nn.Sequential(*[Block(width, heads, dropout) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)
        # GPT-2's initialisation: N(0, 0.02) everywhere, the residual projections scaled down.
        for name, p in self.named_parameters():
            if p.ndim > 1:
                std = 0.02 / math.sqrt(2 * layers) if name.endswith(("proj.weight", "mlp.2.weight")) else 0.02
                nn.init.normal_(p, 0.0, std)
            elif name.endswith("bias"):
                nn.init.zeros_(p)
        self.register_buffer("positions", og.arange(context), persistent=False)

    def forward(self, ids: og.Tensor) -> og.Tensor:
        t = ids.shape[1]
        x = self.tok(ids) + self.pos(self.positions[:t])
        return self.head(self.ln_f(self.blocks(x)))


def batch(data: np.ndarray, batch_size: int, context: int, rng: np.random.Generator):
    """batch_size random windows of the text and the same windows shifted by one character."""
    starts = rng.integers(0, len(data) - context - 1, size=batch_size)
    windows = data[starts[:, None] + np.arange(context + 1)[None, :]]
    return og.tensor(windows[:, :-1]), og.tensor(windows[:, 1:])


def loss_fn(model: TinyGPT, x: og.Tensor, y: og.Tensor) -> og.Tensor:
    logits = model(x)
    b, t, v = logits.shape
    return nn.functional.cross_entropy(og.reshape(logits, [b * t, v]), og.reshape(y, [b * t]))


def evaluate(model: TinyGPT, data: np.ndarray, context: int, max_windows: int = 256) -> float:
    """Mean loss (nats/char) over consecutive, non-overlapping windows of held-out text."""
    n = min((len(data) - 1) // context, max_windows)
    starts = np.arange(n) * context
    windows = data[starts[:, None] + np.arange(context + 1)[None, :]]
    model.eval()
    total = 0.0
    with og.no_grad():
        for i in range(0, n, 64):
            w = windows[i : i + 64]
            total += loss_fn(model, og.tensor(w[:, :-1]), og.tensor(w[:, 1:])).item() * len(w)
    model.train()
    return total / n


def sample(
    model: TinyGPT,
    vocab: CharVocab,
    prompt: str,
    length: int,
    temperature: float,
    rng: np.random.Generator,
) -> str:
    """Continue prompt by `length` characters, each drawn from the model's softmax."""
    unknown = sorted(set(prompt) - set(vocab.chars))
    if unknown:
        raise SystemExit(f"--prompt has characters not in the text: {''.join(unknown)!r}")
    ids = list(vocab.encode(prompt))
    model.eval()
    with og.no_grad():
        for _ in range(length):
            window = np.array([ids[-model.context :]], dtype=np.int64)
            logits = model(og.tensor(window)).numpy()[0, -1].astype(np.float64) / temperature
            p = np.exp(logits - logits.max())
            ids.append(int(rng.choice(len(p), p=p / p.sum())))
    model.train()
    return vocab.decode(ids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train a tiny character-level GPT with opgrad.")
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0, help="for the init, the batches and the sampling")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--context", type=int, default=64)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--warmup", type=int, default=100, help="linear warm-up steps")
    parser.add_argument("--weight-decay", type=float, default=0.1)
    parser.add_argument("--clip", type=float, default=1.0, help="gradient-norm clipping threshold")
    parser.add_argument("--eval-every", type=int, default=250, help="held-out loss every N steps")
    parser.add_argument("--prompt", default="And God said")
    parser.add_argument("--sample-length", type=int, default=300)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--data", type=Path, default=DATA, help="a UTF-8 text file to train on")
    parser.add_argument("--quick", action="store_true", help="10 steps and a short sample: a smoke test")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar, a line per evaluation")
    parser.add_argument(
        "--plot", metavar="PATH", help="write the training-loss curve as a PNG (needs matplotlib)"
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    og.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    text = args.data.read_text(encoding="utf-8")
    vocab = CharVocab(text)
    data = vocab.encode(text)
    split = int(0.9 * len(data))
    train_data, val_data = data[:split], data[split:]
    steps = 10 if args.quick else args.steps
    sample_length = 40 if args.quick else args.sample_length
    eval_every = steps if args.quick else args.eval_every

    model = TinyGPT(len(vocab), args.context, args.width, args.heads, args.layers, args.dropout)
    params = list(model.parameters())
    opt = optim.AdamW(
        [
            {"params": [p for p in params if p.ndim > 1], "weight_decay": args.weight_decay},
            {"params": [p for p in params if p.ndim <= 1], "weight_decay": 0.0},
        ],
        lr=args.lr,
        betas=(0.9, 0.99),
    )
    warmup = max(1, min(args.warmup, steps // 10))

    def lr_factor(step: int) -> float:  # linear warm-up, then cosine decay to 10%
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / max(1, steps - warmup)
        return 0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress))

    sched = optim.lr_scheduler.LambdaLR(opt, lr_factor)
    n_params = sum(int(np.prod(p.shape)) for p in params)
    print(
        f"{args.data.name}: {len(train_data):,} train / {len(val_data):,} held-out characters, "
        f"vocab {len(vocab)}; GPT {args.layers} layers x {args.heads} heads, width {args.width}, "
        f"context {args.context}, {n_params:,} parameters; AdamW lr {args.lr}, "
        f"batch {args.batch_size}, {steps} steps"
    )

    losses: list[float] = []
    evals: list[tuple[int, float]] = []
    eval_times: list[float] = []
    use_bar = tqdm is not None and not args.no_progress
    bar = tqdm(total=steps, desc="training", leave=False, ncols=80) if use_bar else None
    say = tqdm.write if use_bar else print
    for step in range(1, steps + 1):
        x, y = batch(train_data, args.batch_size, args.context, rng)
        opt.zero_grad()
        loss = loss_fn(model, x, y)
        loss.backward()
        optim.clip_grad_norm_(params, args.clip)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if bar is not None:
            bar.update()
            bar.set_postfix(loss=f"{np.mean(losses[-20:]):.3f}", refresh=False)
        if step % eval_every == 0 or step == steps:
            val = evaluate(model, val_data, args.context)
            evals.append((step, val))
            eval_times.append(time.perf_counter() - start)
            train_recent = float(np.mean(losses[-50:]))
            elapsed = time.perf_counter() - start
            say(f"step {step:5d}  train loss {train_recent:.3f}  held-out loss {val:.3f}  ({elapsed:.0f} s)")
    if bar is not None:
        bar.close()
    train_time = time.perf_counter() - start
    final = evals[-1][1]
    below = next((i for i, (_, v) in enumerate(evals) if v < 2.0), None)
    if below is not None:
        print(
            f"held-out loss first below 2.0 nats/char at step {evals[below][0]} "
            f"({eval_times[below]:.1f} s; evaluated every {eval_every} steps)"
        )

    text_out = sample(model, vocab, args.prompt, sample_length, args.temperature, rng)
    print(f"--- sample (temperature {args.temperature}) ---")
    print(text_out)
    print("---")
    if args.plot:
        write_loss_plot(
            args.plot,
            losses,
            "opgrad: tiny GPT on KJV Genesis",
            "cross-entropy (nats/char)",
            evals,
            points_label="held-out",
            hline=2.0,
        )
    print(f"final loss {final:.2f} nats/char after {steps} steps ({train_time:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
