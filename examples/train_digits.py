"""Train a small MLP on scikit-learn's handwritten digits with opgrad.

The digits data set (1,797 8x8 images, 10 classes) ships with scikit-learn, so nothing is
downloaded. The model is 64 -> 128 -> 10 with ReLU, trained with Adam written inline:
parameters are updated under `og.no_grad()`, and everything else is the public API
(`og.tensor`, `og.randn`, `@`, `og.relu`, `og.cross_entropy`, `.backward()`, `.grad`).

    pip install -e ".[examples]"          # scikit-learn, tqdm
    python examples/train_digits.py                 # 30 epochs, ~97-98% test accuracy
    python examples/train_digits.py --epochs 10 --seed 1
    python examples/train_digits.py --quick         # a few steps (used by the tests)

The last line printed is a summary such as
`test accuracy 0.975 (1797 samples, 30 epochs, 3.1 s)`.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

import opgrad as og

try:
    from tqdm import tqdm
except ImportError:  # progress bars are optional; plain prints instead
    tqdm = None


def load_data(seed: int, test_fraction: float):
    """(x_train, y_train, x_test, y_test, n_samples): pixels scaled to [0, 1], stratified split."""
    try:
        from sklearn.datasets import load_digits
        from sklearn.model_selection import train_test_split
    except ImportError:
        sys.exit(
            "this example needs scikit-learn: pip install -e '.[examples]' (or pip install scikit-learn)"
        )
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(
        x, y, test_size=test_fraction, random_state=seed, stratify=y
    )
    return x_train, y_train, x_test, y_test, len(x)


class MLP:
    """Two affine layers with a ReLU between them; He-initialised weights, zero biases."""

    def __init__(self, sizes: tuple[int, ...]) -> None:
        self.params: list[og.Tensor] = []
        for fan_in, fan_out in zip(sizes[:-1], sizes[1:], strict=True):
            w = og.randn((fan_in, fan_out)) * math.sqrt(2.0 / fan_in)
            b = og.zeros((fan_out,))
            self.params += [w.requires_grad_(), b.requires_grad_()]

    def __call__(self, x: og.Tensor) -> og.Tensor:
        p = self.params
        h = x
        for i in range(0, len(p), 2):
            h = h @ p[i] + p[i + 1]
            if i + 2 < len(p):
                h = og.relu(h)
        return h


class Adam:
    """Adam (Kingma & Ba) over a model's parameter list, updated out of place under no_grad.

    opgrad has no in-place ops yet, so each step rebinds `model.params[i]` to a fresh leaf.
    """

    def __init__(self, model: MLP, lr: float, betas=(0.9, 0.999), eps: float = 1e-8, weight_decay=0.0):
        self.model, self.lr, self.eps, self.weight_decay = model, lr, eps, weight_decay
        self.b1, self.b2 = betas
        self.m = [og.zeros_like(p) for p in model.params]
        self.v = [og.zeros_like(p) for p in model.params]
        self.t = 0

    def step(self) -> None:
        self.t += 1
        b1, b2 = self.b1, self.b2
        lr_t = self.lr * math.sqrt(1 - b2**self.t) / (1 - b1**self.t)  # bias corrections folded in
        params = self.model.params
        with og.no_grad():
            for i, p in enumerate(params):
                g = p.grad
                if g is None:
                    continue
                if self.weight_decay and p.ndim > 1:
                    g = g + self.weight_decay * p
                self.m[i] = b1 * self.m[i] + (1 - b1) * g
                self.v[i] = b2 * self.v[i] + (1 - b2) * (g * g)
                new = p - lr_t * self.m[i] / (og.sqrt(self.v[i]) + self.eps)
                params[i] = new.requires_grad_()  # a new leaf; its .grad starts empty


def accuracy(model: MLP, x: np.ndarray, y: np.ndarray) -> float:
    with og.no_grad():
        logits = model(og.tensor(x))
    return float((logits.numpy().argmax(axis=1) == y).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train an MLP on scikit-learn's digits with opgrad.")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0, help="for the split, the init and the shuffling")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--quick", action="store_true", help="1 epoch of 5 steps: a smoke test")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars, one line per epoch")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    og.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    x_train, y_train, x_test, y_test, n_samples = load_data(args.seed, args.test_fraction)
    epochs = 1 if args.quick else args.epochs
    steps_per_epoch = math.ceil(len(x_train) / args.batch_size)
    if args.quick:
        steps_per_epoch = min(steps_per_epoch, 5)
    print(
        f"digits: {len(x_train)} train / {len(x_test)} test images, MLP 64-{args.hidden}-10, "
        f"Adam lr {args.lr}, batch {args.batch_size}, {epochs} epochs x {steps_per_epoch} steps"
    )

    model = MLP((x_train.shape[1], args.hidden, 10))
    opt = Adam(model, args.lr, weight_decay=args.weight_decay)
    use_bar = tqdm is not None and not args.no_progress
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(x_train))
        batches = range(steps_per_epoch)
        bar = tqdm(batches, desc=f"epoch {epoch}/{epochs}", leave=False, ncols=80) if use_bar else batches
        total_loss = 0.0
        for step in bar:
            idx = order[step * args.batch_size : (step + 1) * args.batch_size]
            xb, yb = og.tensor(x_train[idx]), og.tensor(y_train[idx])
            loss = og.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            total_loss += loss.item()
            if use_bar:
                bar.set_postfix(loss=f"{loss.item():.4f}", refresh=False)
        mean_loss = total_loss / steps_per_epoch
        if use_bar:
            bar.close()
        if use_bar or epoch == epochs or epoch % 5 == 0 or epoch == 1:
            test_acc = accuracy(model, x_test, y_test)
            line = f"epoch {epoch:3d}  loss {mean_loss:.4f}  test accuracy {test_acc:.3f}"
            (tqdm.write if use_bar else print)(line)

    test_acc = accuracy(model, x_test, y_test)
    elapsed = time.perf_counter() - start
    print(f"test accuracy {test_acc:.3f} ({n_samples} samples, {epochs} epochs, {elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
