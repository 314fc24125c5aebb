"""Fit the coefficients of the float32 erf in `runtime/kernels/common.py`: `python tools/fit_erf_float32.py`.

The float32 erf is `tanh(x * R(x*x))` with x clipped to [-4, 4] (erf rounds to ±1 in float32
beyond ±3.92), where R is a polynomial fitted to `atanh(erf(x)) / x`. Going through tanh
damps the fit's error where erf approaches ±1: a relative error e in `atanh(erf(x))` becomes
`e * (1 - erf**2) * atanh(erf) / erf` in erf, so the fit is weighted by that factor. The fit
is an iterated weighted least-squares (Lawson's reweighting towards the minimax solution) on
Chebyshev-spaced points, in float64, from `math.erfc`; it prints the coefficients, lowest
degree first, and the largest weighted relative error of the fit (before float32 rounding).
"""

from __future__ import annotations

import math

import numpy as np

DEGREE = 10
LIMIT = 4.0


def fit(degree: int = DEGREE, points: int = 6000, rounds: int = 40) -> tuple[np.ndarray, float]:
    x = LIMIT * (1 - np.cos(np.linspace(0, np.pi, points))) / 2
    x = x[1:]  # R(0) = 2/sqrt(pi) is the limit; the fit gets it from the points nearby
    erfc = np.array([math.erfc(v) for v in x.tolist()])
    erf = 1 - erfc
    g = 0.5 * np.log((2 - erfc) / erfc)  # atanh(erf(x)), accurate where erf is close to 1
    target = g / x
    sensitivity = (1 - erf * erf) * g / erf
    t = x * x
    basis = np.vander(t, degree + 1, increasing=True)
    weights = np.ones_like(t)
    for _ in range(rounds):
        w = weights * sensitivity / target
        coef, *_ = np.linalg.lstsq(basis * w[:, None], target * w, rcond=None)
        err = np.abs(basis @ coef - target) / target * sensitivity
        weights *= np.sqrt(err / err.max()) + 1e-3
        weights /= weights.max()
    return coef, float(err.max())


def main() -> None:
    coef, err = fit()
    print(f"# degree {DEGREE} on [0, {LIMIT}], weighted relative error {err:.2e}")
    print("_ERF32_COEFFICIENTS = (")
    for c in coef:
        print(f"    {float(c)!r},")
    print(")")


if __name__ == "__main__":
    main()
