"""Recover an unknown blur from blurred digits: a filter learned in the Fourier domain.

scikit-learn's handwritten digits (8x8 images) are blurred by a hidden 3x3 kernel (a
circular convolution) and noised. The model is the blur's transfer function: one complex
number per frequency of `og.fft.rfft2` (8 x 5 = 40 complex parameters, the half spectrum of
a real 8x8 filter), applied as

    prediction = irfft2(rfft2(image) * H)

and learned by `optim.Adam` on the mean squared error against the blurred images. The loss
is real and H is complex: the gradient is PyTorch's conjugate-convention one, and Adam moves
H's real and imaginary parts. The recovered kernel, irfft2(H), is compared with the hidden
one; the target is a relative error below 2% (the noise allows about 1%: the demo prints
the error of the least-squares filter, solved in closed form, beside it).

    python examples/train_deblur.py            # 300 steps on all 1,797 images
    python examples/train_deblur.py --quick    # 20 steps (used by the tests)

The last line printed is a summary such as
`kernel error 0.0096 (hidden 3x3 blur, 1797 images, loss 1.7e-04 -> 4.0e-06, 300 steps, 1.1 s)`.
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
from train_digits import load_data  # noqa: E402  (the digits, as the other demos load them)

import opgrad as og  # noqa: E402
from opgrad import optim  # noqa: E402

SIZE = 8  # the digits are 8x8
HIDDEN = np.array([[0.00, 0.10, 0.05], [0.15, 0.40, 0.10], [0.05, 0.10, 0.05]])  # sums to 1


def blur_kernel() -> np.ndarray:
    """The hidden kernel as an 8x8 circular filter (centred on pixel (0, 0))."""
    kernel = np.zeros((SIZE, SIZE))
    for i in range(3):
        for j in range(3):
            kernel[(i - 1) % SIZE, (j - 1) % SIZE] = HIDDEN[i, j]
    return kernel


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Recover a hidden blur of the digits in the Fourier domain.")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--noise", type=float, default=0.002, help="the noise added to the blurred images")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="20 steps: a smoke test")
    parser.add_argument(
        "--no-progress", action="store_true", help="no effect: a line every 50 steps either way"
    )
    parser.add_argument("--plot", metavar="PATH", help="write the loss curve as a PNG (needs matplotlib)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    x_train, _, x_test, _, _ = load_data(args.seed, 0.2)
    images = np.concatenate([x_train, x_test]).reshape(-1, SIZE, SIZE).astype(np.float64) / 16.0
    rng = np.random.default_rng(args.seed)
    kernel = blur_kernel()
    blurred = np.fft.irfft2(np.fft.rfft2(images) * np.fft.rfft2(kernel), s=(SIZE, SIZE))
    blurred += args.noise * rng.standard_normal(blurred.shape)

    x, y = og.tensor(images), og.tensor(blurred)
    spectrum = og.fft.rfft2(x)  # fixed: computed once
    transfer = og.ones((SIZE, SIZE // 2 + 1), dtype=og.complex128, requires_grad=True)  # the identity
    opt = optim.Adam([transfer], lr=args.lr)
    steps = 20 if args.quick else args.steps
    print(
        f"digits: {len(images)} images blurred by a hidden 3x3 kernel, noise {args.noise}; "
        f"learning {transfer.size} complex frequency responses with Adam lr {args.lr}, {steps} steps"
    )
    history: list[float] = []
    for step in range(1, steps + 1):
        opt.zero_grad()
        prediction = og.fft.irfft2(spectrum * transfer, s=(SIZE, SIZE))
        loss = ((prediction - y) ** 2).mean()
        loss.backward()
        opt.step()
        history.append(loss.item())
        if step % 50 == 0 or step == steps:
            print(f"step {step:4d}  loss {history[-1]:.3e}")

    with og.no_grad():
        learned = og.fft.irfft2(transfer, s=(SIZE, SIZE)).numpy()
    error = float(np.linalg.norm(learned - kernel) / np.linalg.norm(kernel))
    # the best any filter can do on these noisy images: least squares, frequency by frequency
    spec_x, spec_y = np.fft.fft2(images), np.fft.fft2(blurred)
    best = np.fft.ifft2((np.conj(spec_x) * spec_y).sum(0) / (np.abs(spec_x) ** 2).sum(0)).real
    floor = float(np.linalg.norm(best - kernel) / np.linalg.norm(kernel))
    print(f"kernel error {error:.4f}; the least-squares filter of the same data has {floor:.4f}")
    centre = np.roll(np.roll(learned, 1, 0), 1, 1)[:3, :3]
    print("recovered kernel (the 3x3 around its centre):")
    for row in centre:
        print("  " + "  ".join(f"{v:6.3f}" for v in row))
    if args.plot:
        write_loss_plot(args.plot, history, "opgrad: recovering a blur", "mean squared error")
    elapsed = time.perf_counter() - start
    print(
        f"kernel error {error:.4f} (hidden 3x3 blur, {len(images)} images, loss {history[0]:.1e} -> "
        f"{history[-1]:.1e}, {steps} steps, {elapsed:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
