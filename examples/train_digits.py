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

Data-parallel on several processes (pip install -e ".[distributed]" for mpi4py and mpiexec):

    mpiexec -n 2 python examples/train_digits.py --distributed

Every rank draws the same global batch order; rank r trains on positions r, r + n, ... of each
global batch, through `nn.parallel.DistributedDataParallel`, whose averaged gradient is the
gradient of the mean loss over the whole global batch (each rank's loss is its sum scaled by
n / global batch size, so uneven shards weigh right). The trained parameters are those of the
one-process run over the same batches (to rounding; to 1e-6 in float64: `--float64`), and rank 0
prints the same summary line. `--save PATH` writes the final parameters (rank 0) as .npz.

The last line printed is a summary such as
`test accuracy 0.975 (1797 samples, 30 epochs, 3.1 s)`.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time

import numpy as np
from _plot import epoch_means, write_loss_plot  # examples/_plot.py

import opgrad as og
import opgrad.distributed as dist
from opgrad import nn, optim
from opgrad.utils.data import DataLoader, TensorDataset

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
    parser.add_argument("--distributed", action="store_true", help="data-parallel over the mpiexec ranks")
    parser.add_argument("--float64", action="store_true", help="train in float64")
    parser.add_argument("--save", metavar="PATH", help="write the final parameters as .npz")
    args = parser.parse_args(argv)
    rank, world = 0, 1
    if args.distributed:
        dist.init_process_group("mpi")
        rank, world = dist.get_rank(), dist.get_world_size()
    if rank:  # only rank 0 talks
        args.no_progress = True
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115

    start = time.perf_counter()
    og.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    x_train, y_train, x_test, y_test, n_samples = load_data(args.seed, args.test_fraction)
    if args.float64:
        x_train, x_test = x_train.astype(np.float64), x_test.astype(np.float64)
    epochs = 1 if args.quick else args.epochs
    steps_per_epoch = math.ceil(len(x_train) / args.batch_size)
    if args.quick:
        steps_per_epoch = min(steps_per_epoch, 5)
    print(
        f"digits: {len(x_train)} train / {len(x_test)} test images, MLP 64-{args.hidden}-10, "
        f"Adam lr {args.lr}, batch {args.batch_size}, {epochs} epochs x {steps_per_epoch} steps"
        + (f", {world} ranks" if args.distributed else "")
    )

    model = build_model((x_train.shape[1], args.hidden, 10))
    if args.float64:
        model = model.double()
    net = nn.parallel.DistributedDataParallel(model) if args.distributed else model
    opt = make_optimizer(model, args.lr, args.weight_decay)
    losses: list[float] = []
    use_bar = tqdm is not None and not args.no_progress
    # every rank draws the same global batches (one seeded generator)
    train = TensorDataset(og.tensor(x_train), og.tensor(y_train))
    loader = DataLoader(train, batch_size=args.batch_size, shuffle=True, generator=rng)
    for epoch in range(1, epochs + 1):
        batches = itertools.islice(loader, steps_per_epoch)
        bar = (
            tqdm(batches, total=steps_per_epoch, desc=f"epoch {epoch}/{epochs}", leave=False, ncols=80)
            if use_bar
            else batches
        )
        total_loss = 0.0
        for xs, ys in bar:
            xb, yb = xs[rank::world], ys[rank::world]  # this rank's shard of the global batch
            opt.zero_grad()
            loss = nn.functional.cross_entropy(net(xb), yb, reduction="sum") * (world / len(ys))
            loss.backward()
            opt.step()
            value = loss.item()
            if args.distributed:  # the global batch's mean loss, for the log
                total = np.array([value / world])
                dist.all_reduce(total)
                value = float(total[0])
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
    if args.save and rank == 0:
        np.savez(args.save, **{name: p.numpy() for name, p in model.named_parameters()})
    print(f"test accuracy {test_acc:.3f} ({n_samples} samples, {epochs} epochs, {elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
