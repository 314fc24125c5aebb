"""Train a small MLP on scikit-learn's handwritten digits with opgrad.

The digits data set (1,797 8x8 images, 10 classes) ships with scikit-learn, so nothing is
downloaded. The model is an `nn.Sequential` MLP 64 -> 128 -> 10 with ReLU (He-initialised through
`nn.init`), trained with `optim.Adam` (weight decay on the weight matrices only, through two
parameter groups) on `nn.functional.cross_entropy`.

    pip install -e ".[examples]"          # scikit-learn, tqdm
    python examples/train_digits.py                 # 30 epochs, ~97-98% test accuracy
    python examples/train_digits.py --epochs 10 --seed 1
    python examples/train_digits.py --quick         # a few steps (used by the tests)
    python examples/train_digits.py --plot loss.png # also the loss curve (needs matplotlib)

The last line printed is a summary such as
`test accuracy 0.975 (1797 samples, 30 epochs, 3.1 s)`.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from _plot import epoch_means, write_loss_plot  # examples/_plot.py

import opgrad as og
from opgrad import nn, optim

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


def build_model(sizes: tuple[int, ...]) -> nn.Sequential:
    """Affine layers with ReLUs between them; He-initialised weights, zero biases."""
    layers: list[nn.Module] = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:], strict=True):
        linear = nn.Linear(fan_in, fan_out)
        nn.init.kaiming_normal_(linear.weight, nonlinearity="relu")
        nn.init.zeros_(linear.bias)
        layers += [linear, nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> optim.Adam:
    """Adam with weight decay on the weight matrices only (two parameter groups)."""
    params = list(model.parameters())
    return optim.Adam(
        [
            {"params": [p for p in params if p.ndim > 1], "weight_decay": weight_decay},
            {"params": [p for p in params if p.ndim <= 1], "weight_decay": 0.0},
        ],
        lr=lr,
    )


def accuracy(model: nn.Module, x: np.ndarray, y: np.ndarray) -> float:
    model.eval()
    with og.no_grad():
        logits = model(og.tensor(x))
    model.train()
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
    parser.add_argument(
        "--plot", metavar="PATH", help="write the training-loss curve as a PNG (needs matplotlib)"
    )
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

    model = build_model((x_train.shape[1], args.hidden, 10))
    opt = make_optimizer(model, args.lr, args.weight_decay)
    losses: list[float] = []
    use_bar = tqdm is not None and not args.no_progress
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(x_train))
        batches = range(steps_per_epoch)
        bar = tqdm(batches, desc=f"epoch {epoch}/{epochs}", leave=False, ncols=80) if use_bar else batches
        total_loss = 0.0
        for step in bar:
            idx = order[step * args.batch_size : (step + 1) * args.batch_size]
            xb, yb = og.tensor(x_train[idx]), og.tensor(y_train[idx])
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            value = loss.item()
            losses.append(value)
            total_loss += value
            if use_bar:
                bar.set_postfix(loss=f"{value:.4f}", refresh=False)
        mean_loss = total_loss / steps_per_epoch
        if use_bar:
            bar.close()
        if use_bar or epoch == epochs or epoch % 5 == 0 or epoch == 1:
            test_acc = accuracy(model, x_test, y_test)
            line = f"epoch {epoch:3d}  loss {mean_loss:.4f}  test accuracy {test_acc:.3f}"
            (tqdm.write if use_bar else print)(line)

    test_acc = accuracy(model, x_test, y_test)
    elapsed = time.perf_counter() - start
    if args.plot:
        write_loss_plot(
            args.plot,
            losses,
            "opgrad: MLP on digits",
            "cross-entropy loss",
            epoch_means(losses, steps_per_epoch),
            log_scale=True,
        )
    print(f"test accuracy {test_acc:.3f} ({n_samples} samples, {epochs} epochs, {elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
