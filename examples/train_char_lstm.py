"""Train a character-level LSTM language model with opgrad, then sample from it.

The same text and held-out split as `train_gpt.py` (the Book of Genesis, King James Version,
shipped in examples/data/), so the two models' losses compare directly. The model: a character
embedding (width 32), `nn.LSTM` (hidden 256; `--layers` stacks more), and a linear read-out
to the characters. Each step trains on 32 random 64-character windows with truncated
backpropagation through time (every window starts from a zero state), `optim.Adam` with a
cosine-decayed learning rate and `optim.clip_grad_norm_`. Sampling carries the LSTM state
(h, c) from one character to the next, one step at a time.

    python examples/train_char_lstm.py                 # 600 steps, ~65 s, ~1.29 nats/char
    python examples/train_char_lstm.py --steps 400 --seed 1
    python examples/train_char_lstm.py --prompt "And Jacob said" --temperature 0.6
    python examples/train_char_lstm.py --quick         # a few steps (used by the tests)

The reported loss is the mean cross-entropy, in nats per character, on held-out text (the last
10% of the book, never trained on). The last line printed is a summary such as
`final loss 1.29 nats/char after 600 steps (63.6 s)`.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

# One BLAS thread, as in train_gpt.py (before NumPy is imported: BLAS reads them at load time).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _plot import write_loss_plot  # noqa: E402  (examples/_plot.py)
from train_gpt import DATA, CharVocab, batch, tqdm  # noqa: E402  (the same text, vocabulary, batches)

import opgrad as og  # noqa: E402
from opgrad import nn, optim  # noqa: E402

TARGET = 1.5  # held-out nats/char the default run gets below (by step 200 with seed 0)


class CharLSTM(nn.Module):
    """Characters -> embedding -> LSTM -> logits over the next character."""

    def __init__(self, vocab: int, width: int, hidden: int, layers: int, dropout: float) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.lstm = nn.LSTM(width, hidden, num_layers=layers, batch_first=True, dropout=dropout)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, ids: og.Tensor, state=None):
        out, state = self.lstm(self.embed(ids), state)
        return self.head(out), state


def loss_fn(model: CharLSTM, x: og.Tensor, y: og.Tensor) -> og.Tensor:
    logits, _ = model(x)
    b, t, v = logits.shape
    return nn.functional.cross_entropy(og.reshape(logits, [b * t, v]), og.reshape(y, [b * t]))


def evaluate(model: CharLSTM, data: np.ndarray, context: int, max_windows: int = 256) -> float:
    """Mean loss (nats/char) over consecutive, non-overlapping windows of held-out text, each
    from a zero state as in training."""
    n = min((len(data) - 1) // context, max_windows)
    windows = data[(np.arange(n) * context)[:, None] + np.arange(context + 1)[None, :]]
    model.eval()
    with og.no_grad():
        loss = loss_fn(model, og.tensor(windows[:, :-1]), og.tensor(windows[:, 1:])).item()
    model.train()
    return loss


def sample(model: CharLSTM, vocab: CharVocab, prompt: str, length: int, temperature: float, rng) -> str:
    """Read the prompt, then draw `length` characters one at a time, carrying (h, c) along."""
    unknown = sorted(set(prompt) - set(vocab.chars))
    if unknown:
        raise SystemExit(f"--prompt has characters not in the text: {''.join(unknown)!r}")
    ids = list(vocab.encode(prompt))
    model.eval()
    with og.no_grad():
        logits, state = model(og.tensor(np.array([ids], dtype=np.int64)))
        for _ in range(length):
            z = logits.numpy()[0, -1].astype(np.float64) / temperature
            p = np.exp(z - z.max())
            ids.append(int(rng.choice(len(p), p=p / p.sum())))
            logits, state = model(og.tensor(np.array([[ids[-1]]], dtype=np.int64)), state)
    model.train()
    return vocab.decode(ids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train a character-level LSTM with opgrad.")
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0, help="for the init, the batches and the sampling")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--context", type=int, default=64)
    parser.add_argument("--width", type=int, default=32, help="character embedding width")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--dropout", type=float, default=0.0, help="between stacked layers")
    parser.add_argument("--lr", type=float, default=5e-3)
    parser.add_argument("--clip", type=float, default=1.0, help="gradient-norm clipping threshold")
    parser.add_argument("--eval-every", type=int, default=200, help="held-out loss every N steps")
    parser.add_argument("--prompt", default="And God said")
    parser.add_argument("--sample-length", type=int, default=300)
    parser.add_argument("--temperature", type=float, default=0.7)
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
    eval_every = steps if args.quick else args.eval_every

    model = CharLSTM(len(vocab), args.width, args.hidden, args.layers, args.dropout)
    params = list(model.parameters())
    opt = optim.Adam(params, lr=args.lr)
    sched = optim.lr_scheduler.LambdaLR(opt, lambda s: 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * s / steps)))
    n_params = sum(int(np.prod(p.shape)) for p in params)
    print(
        f"{args.data.name}: {len(train_data):,} train / {len(val_data):,} held-out characters, "
        f"vocab {len(vocab)}; LSTM {args.layers} x {args.hidden}, embedding {args.width}, "
        f"{n_params:,} parameters; Adam lr {args.lr}, batch {args.batch_size} x {args.context}, {steps} steps"
    )

    losses: list[float] = []
    evals: list[tuple[int, float]] = []
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
            elapsed = time.perf_counter() - start
            train_recent = float(np.mean(losses[-50:]))
            say(f"step {step:5d}  train loss {train_recent:.3f}  held-out loss {val:.3f}  ({elapsed:.0f} s)")
    if bar is not None:
        bar.close()
    train_time = time.perf_counter() - start
    final = evals[-1][1]
    below = next((s for s, v in evals if v < TARGET), None)
    if below is not None:
        print(f"held-out loss first below {TARGET} nats/char at step {below} (every {eval_every} steps)")

    text_out = sample(
        model, vocab, args.prompt, 40 if args.quick else args.sample_length, args.temperature, rng
    )
    print(f"--- sample (temperature {args.temperature}) ---")
    print(text_out)
    print("---")
    if args.plot:
        write_loss_plot(
            args.plot,
            losses,
            "opgrad: character LSTM on KJV Genesis",
            "cross-entropy (nats/char)",
            evals,
            points_label="held-out",
            hline=TARGET,
        )
    print(f"final loss {final:.2f} nats/char after {steps} steps ({train_time:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
