"""Fit a Gaussian process to scikit-learn's handwritten digits by maximising its marginal likelihood.

A GP regression on the digits' one-hot labels (centred), with an ARD squared-exponential kernel

    k(a, b) = s^2 exp(-sum_d (a_d - b_d)^2 / (2 l_d^2)) + noise^2 [a == b],

one length scale l_d per pixel (64), a signal scale s and a noise level, all learned by
gradient descent (`optim.Adam`) on the negative log marginal likelihood

    NLML = 1/2 tr(Y^T K^-1 Y) + (outputs / 2) log det K + const,

computed the standard way through the Cholesky factor K = L L^T: `og.cholesky`, then
`og.cholesky_solve` for K^-1 Y and `og.diagonal(L)` for log det K = 2 sum log diag L. The
gradient flows back through the Cholesky factorisation and the solve to the 66 kernel
parameters. A test image is classified by the largest posterior-mean output. Everything is
float64; the split is train_digits.py's (stratified 80/20).

    python examples/train_gp.py                 # 30 steps on all 1,437 training images
    python examples/train_gp.py --steps 30 --train-size 600
    python examples/train_gp.py --quick         # a few steps on 300 images (used by the tests)

The last line printed is a summary such as
`test accuracy 0.989 (360 test images, NLML -2.207 -> -18.088 per point, 30 steps, 43.0 s)`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# One BLAS thread, as in the other demos (before NumPy is imported).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _plot import write_loss_plot  # noqa: E402  (examples/_plot.py)
from train_digits import load_data  # noqa: E402  (the same stratified split)

import opgrad as og  # noqa: E402
from opgrad import optim  # noqa: E402


class ARDKernelGP:
    """The GP's log-parameters and the quantities built from them."""

    def __init__(self, features: int) -> None:
        self.log_scales = og.zeros(features, dtype=og.float64, requires_grad=True)  # l_d = 1
        self.log_signal = og.tensor(0.0, dtype=og.float64, requires_grad=True)
        self.log_noise = og.tensor(np.log(0.3), dtype=og.float64, requires_grad=True)

    def parameters(self) -> list[og.Tensor]:
        return [self.log_scales, self.log_signal, self.log_noise]

    def cross(self, a: og.Tensor, b: og.Tensor) -> og.Tensor:
        """s^2 exp(-|a/l - b/l|^2 / 2) for every pair of rows of a and b."""
        inv = og.exp(-self.log_scales)
        za, zb = a * inv, b * inv
        d2 = og.unsqueeze((za * za).sum(1), 1) + og.unsqueeze((zb * zb).sum(1), 0) - 2.0 * (za @ zb.T)
        return og.exp(2.0 * self.log_signal - 0.5 * d2)

    def factor(self, x: og.Tensor) -> og.Tensor:
        """The Cholesky factor L of K = k(x, x) + noise^2 I."""
        n = x.shape[0]
        noise = og.exp(2.0 * self.log_noise) + 1e-4  # a floor keeps K well conditioned
        return og.cholesky(self.cross(x, x) + noise * og.eye(n, dtype=og.float64))

    def nlml(self, x: og.Tensor, y: og.Tensor) -> og.Tensor:
        """The negative log marginal likelihood per training point (without the constant)."""
        n, outputs = y.shape
        chol = self.factor(x)
        alpha = og.cholesky_solve(y, chol)  # K^-1 Y
        log_det = 2.0 * og.log(og.diagonal(chol)).sum()
        return (0.5 * (y * alpha).sum() + 0.5 * outputs * log_det) / n

    def predict(self, x: og.Tensor, y: og.Tensor, x_new: og.Tensor) -> np.ndarray:
        """The posterior mean at x_new."""
        with og.no_grad():
            alpha = og.cholesky_solve(y, self.factor(x))
            return (self.cross(x_new, x) @ alpha).numpy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Fit a GP to the digits by maximising its marginal likelihood."
    )
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0, help="for the split and the training subset")
    parser.add_argument("--train-size", type=int, default=0, help="use this many training images (0: all)")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--quick", action="store_true", help="5 steps on 300 images: a smoke test")
    parser.add_argument(
        "--no-progress", action="store_true", help="no effect: a line every 10 steps either way"
    )
    parser.add_argument("--plot", metavar="PATH", help="write the NLML curve as a PNG (needs matplotlib)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    x_train, y_train, x_test, y_test, _ = load_data(args.seed, 0.2)
    size = 300 if args.quick else args.train_size
    if size:
        keep = np.random.default_rng(args.seed).permutation(len(x_train))[:size]
        x_train, y_train = x_train[keep], y_train[keep]
    steps = 5 if args.quick else args.steps
    onehot = np.eye(10)[y_train] - 0.1  # centred one-hot targets
    x = og.tensor(x_train.astype(np.float64))
    y = og.tensor(onehot)
    xt = og.tensor(x_test.astype(np.float64))

    gp = ARDKernelGP(x.shape[1])
    opt = optim.Adam(gp.parameters(), lr=args.lr)
    print(
        f"digits: {len(x_train)} train / {len(x_test)} test images; GP with an ARD kernel "
        f"({x.shape[1] + 2} parameters), Adam lr {args.lr}, {steps} steps"
    )
    first = last = float("nan")
    history: list[float] = []
    for step in range(1, steps + 1):
        opt.zero_grad()
        loss = gp.nlml(x, y)
        loss.backward()
        opt.step()
        last = loss.item()
        first = last if step == 1 else first
        history.append(last)
        if step % 10 == 0 or step == steps:
            acc = float((gp.predict(x, y, xt).argmax(1) == y_test).mean())
            print(f"step {step:4d}  NLML {last:.3f} per point  test accuracy {acc:.3f}")
    acc = float((gp.predict(x, y, xt).argmax(1) == y_test).mean())
    scales = np.exp(gp.log_scales.numpy())
    print(
        f"learned: signal scale {np.exp(gp.log_signal.item()):.3f}, noise {np.exp(gp.log_noise.item()):.4f}, "
        f"length scales {scales.min():.2f} to {scales.max():.2f} (median {np.median(scales):.2f})"
    )
    elapsed = time.perf_counter() - start
    if args.plot:
        write_loss_plot(args.plot, history, "opgrad: GP on digits", "NLML per training point")
    print(
        f"test accuracy {acc:.3f} ({len(x_test)} test images, NLML {first:.3f} -> {last:.3f} per point, "
        f"{steps} steps, {elapsed:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
