"""Train a small LeNet-style CNN on scikit-learn's handwritten digits with opgrad.

The digits data set (1,797 8x8 grey images, 10 classes) ships with scikit-learn, so nothing is
downloaded. The model, sized for 8x8 input:

    conv 3x3 (1 -> 16, pad 1) -> BatchNorm -> ReLU -> max-pool 2   # 16 x 4 x 4
    conv 3x3 (16 -> 32, pad 1) -> BatchNorm -> ReLU -> max-pool 2  # 32 x 2 x 2
    flatten -> linear 128 -> 64 -> ReLU -> dropout -> linear 64 -> 10

It is trained with `optim.AdamW` on `nn.functional.cross_entropy`, the learning rate halved
every few epochs by `optim.lr_scheduler.StepLR`, on images shifted by up to one pixel at random
(a cheap augmentation done with NumPy on each batch).

    pip install -e ".[examples]"          # scikit-learn, tqdm
    python examples/train_cnn.py                  # 20 epochs, ~98-99% test accuracy
    python examples/train_cnn.py --epochs 10 --seed 1
    python examples/train_cnn.py --quick          # a few steps (used by the tests)
    python examples/train_cnn.py --plot loss.png  # also the loss curve (needs matplotlib)
    mpiexec -n 2 python examples/train_cnn.py --distributed   # data-parallel (needs .[distributed])

With `--distributed` every rank draws the same global batches and trains on its shard of each
(positions r, r + n, ...) through `nn.parallel.DistributedDataParallel`; rank 0 prints. The
BatchNorm layers normalise with each rank's local batch statistics (running statistics are
rank 0's, broadcast before each forward) and dropout masks differ per rank, so unlike
train_digits.py this is not bit-for-bit the one-process run (docs/distributed.md).

The last line printed is a summary such as
`test accuracy 0.986 (1797 samples, 20 epochs, 25.3 s)`.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time

# The models multiply small matrices, for which one BLAS thread is about as fast as several, and
# several are many times slower when the cores are shared with other work. Set the variables
# yourself to override. (Before NumPy is imported: BLAS reads them once, at load time.)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _plot import epoch_means, write_loss_plot  # noqa: E402  (examples/_plot.py)

import opgrad as og  # noqa: E402
import opgrad.distributed as dist  # noqa: E402
from opgrad import nn, optim  # noqa: E402
from opgrad.utils.data import DataLoader, TensorDataset  # noqa: E402

try:
    from tqdm import tqdm
except ImportError:  # progress bars are optional; plain prints instead
    tqdm = None


def load_data(seed: int, test_fraction: float):
    """(x_train, y_train, x_test, y_test, n_samples): NCHW images in [0, 1], stratified split."""
    try:
        from sklearn.datasets import load_digits
        from sklearn.model_selection import train_test_split
    except ImportError:
        sys.exit(
            "this example needs scikit-learn: pip install -e '.[examples]' (or pip install scikit-learn)"
        )
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None, :, :]  # (N, 1, 8, 8)
    y = digits.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(
        x, y, test_size=test_fraction, random_state=seed, stratify=y
    )
    return x_train, y_train, x_test, y_test, len(x)


def build_model(channels: tuple[int, int], hidden: int, dropout: float) -> nn.Sequential:
    """Two conv blocks (8x8 -> 4x4 -> 2x2) and a two-layer classifier head."""
    c1, c2 = channels
    model = nn.Sequential(
        nn.Conv2d(1, c1, 3, padding=1),
        nn.BatchNorm2d(c1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, padding=1),
        nn.BatchNorm2d(c2),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(c2 * 2 * 2, hidden),
        nn.ReLU(),
        nn.Dropout(dropout),
        nn.Linear(hidden, 10),
    )
    for module in model.modules():
        if isinstance(module, (nn.Conv2d, nn.Linear)):
            nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
            nn.init.zeros_(module.bias)
    return model


def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> optim.AdamW:
    """AdamW with weight decay on the conv kernels and weight matrices only."""
    params = list(model.parameters())
    return optim.AdamW(
        [
            {"params": [p for p in params if p.ndim > 1], "weight_decay": weight_decay},
            {"params": [p for p in params if p.ndim <= 1], "weight_decay": 0.0},
        ],
        lr=lr,
    )


def random_shift(x: np.ndarray, rng: np.random.Generator, max_shift: int = 1) -> np.ndarray:
    """Each image translated by up to max_shift pixels in each direction (zero fill)."""
    if max_shift == 0:
        return x
    n, _, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (max_shift, max_shift), (max_shift, max_shift)))
    dy, dx = rng.integers(0, 2 * max_shift + 1, size=(2, n))
    rows = dy[:, None] + np.arange(h)[None, :]  # (n, h)
    cols = dx[:, None] + np.arange(w)[None, :]  # (n, w)
    shifted = padded[:, 0][np.arange(n)[:, None, None], rows[:, :, None], cols[:, None, :]]
    return shifted[:, None]


def accuracy(model: nn.Module, x: np.ndarray, y: np.ndarray) -> float:
    model.eval()
    with og.no_grad():
        logits = model(og.tensor(x))
    model.train()
    return float((logits.numpy().argmax(axis=1) == y).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train a small CNN on scikit-learn's digits with opgrad.")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="for the split, the init and the shuffling")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--lr-step", type=int, default=8, help="halve the learning rate every N epochs")
    parser.add_argument("--channels", type=int, nargs=2, default=(16, 32), metavar=("C1", "C2"))
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--weight-decay", type=float, default=1e-3)
    parser.add_argument("--shift", type=int, default=1, help="random translation in pixels (0: none)")
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--quick", action="store_true", help="1 epoch of 5 steps: a smoke test")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars, one line per epoch")
    parser.add_argument(
        "--plot", metavar="PATH", help="write the training-loss curve as a PNG (needs matplotlib)"
    )
    parser.add_argument("--distributed", action="store_true", help="data-parallel over the mpiexec ranks")
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
    epochs = 1 if args.quick else args.epochs
    steps_per_epoch = math.ceil(len(x_train) / args.batch_size)
    if args.quick:
        steps_per_epoch = min(steps_per_epoch, 5)
    c1, c2 = args.channels
    print(
        f"digits: {len(x_train)} train / {len(x_test)} test images, CNN conv{c1}-conv{c2}-"
        f"{args.hidden}-10, AdamW lr {args.lr}, batch {args.batch_size}, "
        f"{epochs} epochs x {steps_per_epoch} steps" + (f", {world} ranks" if args.distributed else "")
    )

    model = build_model((c1, c2), args.hidden, args.dropout)
    net = nn.parallel.DistributedDataParallel(model) if args.distributed else model
    opt = make_optimizer(model, args.lr, args.weight_decay)
    sched = optim.lr_scheduler.StepLR(opt, step_size=args.lr_step, gamma=0.5)
    losses: list[float] = []
    use_bar = tqdm is not None and not args.no_progress
    # every rank draws the same global batches and shifts (one seeded generator)
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
            shifted = random_shift(xs.numpy(), rng, args.shift)  # same draws on every rank
            xb = og.tensor(shifted[rank::world])  # this rank's shard of the global batch
            yb = ys[rank::world]
            opt.zero_grad()
            # the sum scaled by world / global batch: DDP's average is the global batch's mean
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
        sched.step()
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
            "opgrad: CNN on digits",
            "cross-entropy loss",
            epoch_means(losses, steps_per_epoch),
            log_scale=True,
        )
    print(f"test accuracy {test_acc:.3f} ({n_samples} samples, {epochs} epochs, {elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
