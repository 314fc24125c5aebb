"""The complex-number ops and FFTs (issue 15) against NumPy and PyTorch.

    python benchmarks/spectral.py                 # 256 x 256, medians of 7 runs
    python benchmarks/spectral.py --size 64 --repeat 15

For each op: the forward, and the forward plus the backward of a real loss (the sum of the
result's real part times a fixed weight) in opgrad; NumPy computes the same forward and the
same gradient by hand (the adjoint transform); PyTorch (when `import torch` works, one
thread) runs the same forward and backward. Ratios are opgrad / NumPy and opgrad / PyTorch
(lower is better). Before timing, each op's gradient is checked against the by-hand one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import opgrad as og  # noqa: E402

try:
    import torch

    torch.set_num_threads(1)
except Exception:  # not installed: compare with NumPy only
    torch = None


def _median(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cases(n: int) -> dict[str, Any]:
    """name -> (opgrad fn, numpy forward, numpy forward + gradient, torch fn, complex input?)."""
    fft = np.fft
    return {
        "fft2": (
            og.fft.fft2,
            fft.fft2,
            lambda x, w: (fft.fft2(x), fft.ifft2(w, norm="forward")),
            "fft2",
            True,
        ),
        "ifft2": (
            og.fft.ifft2,
            fft.ifft2,
            lambda x, w: (fft.ifft2(x), fft.fft2(w, norm="forward")),
            "ifft2",
            True,
        ),
        "rfft2": (
            og.fft.rfft2,
            fft.rfft2,
            lambda x, w: (fft.rfft2(x), _rfft2_adjoint(w, n)),
            "rfft2",
            False,
        ),
        "irfft2": (
            lambda z: og.fft.irfft2(z, s=(n, n)),
            lambda z: fft.irfft2(z, s=(n, n)),
            lambda z, w: (fft.irfft2(z, s=(n, n)), fft.rfft2(w, norm="forward") * _twice(n)),
            "irfft2",
            True,
        ),
        "view_as_real": (og.view_as_real, lambda z: z.view(np.float64), None, "view_as_real", True),
        "abs": (og.abs, np.abs, lambda z, w: (np.abs(z), w * z / np.abs(z)), "abs", True),
        "multiply": (lambda z: z * z, lambda z: z * z, lambda z, w: (z * z, 2 * w * np.conj(z)), "mul", True),
    }


def _rfft2_adjoint(w: np.ndarray, n: int) -> np.ndarray:
    """rfft2's gradient: the half spectrum zero-filled, the adjoint transform, its real part."""
    full = np.zeros((n, n), dtype=np.complex128)
    full[:, : n // 2 + 1] = w
    return np.fft.ifft2(full, norm="forward").real


def _twice(n: int) -> np.ndarray:
    """rfft's adjoint doubles the bins that stand for two frequencies (not 0 and n/2)."""
    weight = np.full(n // 2 + 1, 2.0)
    weight[0] = 1.0
    if n % 2 == 0:
        weight[-1] = 1.0
    return weight


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-torch", action="store_true", help="compare with NumPy only")
    args = parser.parse_args()
    use_torch = torch is not None and not args.no_torch
    n = args.size
    rng = np.random.default_rng(0)
    print(f"{n} x {n}, medians of {args.repeat}; opgrad / NumPy and opgrad / PyTorch (lower is better)")
    print(
        f"{'op':14} {'fwd ms':>8} {'/NumPy':>7} {'/torch':>7} {'fwd+bwd ms':>11} {'/NumPy':>7} {'/torch':>7}"
    )
    for name, (op, np_fwd, np_both, torch_name, cplx) in cases(n).items():
        shape = (n, n // 2 + 1) if name == "irfft2" else (n, n)
        data = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if cplx else 0)
        x = og.tensor(data, requires_grad=True)
        out_shape = op(x).shape
        weight = rng.standard_normal(out_shape)
        w = og.tensor(weight)

        def og_both(x: Any = x, w: Any = w, op: Any = op) -> None:
            x.grad = None
            y = op(x)
            (og.real(y) * w).sum().backward()

        og_both()
        if np_both is not None:  # the by-hand gradient is the same gradient
            np.testing.assert_allclose(x.grad.numpy(), np_both(data, weight)[1], rtol=1e-9, atol=1e-9)
        fwd = _median(lambda x=x, op=op: op(x), args.repeat)
        both = _median(og_both, args.repeat)
        np_f = _median(lambda d=data, f=np_fwd: f(d), args.repeat)
        np_b = (
            _median(lambda d=data, wt=weight, f=np_both: f(d, wt), args.repeat) if np_both else float("nan")
        )
        t_f = t_b = float("nan")
        if use_torch:
            tfn = {
                "fft2": torch.fft.fft2,
                "ifft2": torch.fft.ifft2,
                "rfft2": torch.fft.rfft2,
                "irfft2": lambda z: torch.fft.irfft2(z, s=(n, n)),
                "view_as_real": torch.view_as_real,
                "abs": torch.abs,
                "mul": lambda z: z * z,
            }[torch_name]
            xt = torch.tensor(data, requires_grad=True)
            wt = torch.tensor(weight)

            def t_both(xt: Any = xt, wt: Any = wt, tfn: Any = tfn) -> None:
                xt.grad = None
                y = tfn(xt)
                ((y.real if y.is_complex() else y) * wt).sum().backward()

            t_f = _median(lambda xt=xt, tfn=tfn: tfn(xt), args.repeat)
            t_b = _median(t_both, args.repeat)
        print(
            f"{name:14} {fwd * 1e3:8.3f} {fwd / np_f:7.2f} {fwd / t_f:7.2f} "
            f"{both * 1e3:11.3f} {both / np_b:7.2f} {both / t_b:7.2f}"
        )


if __name__ == "__main__":
    main()
