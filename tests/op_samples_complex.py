"""OpInfos of the complex-number ops and the FFTs (issue 15). Complex samples are complex128
arrays (the float32 run takes complex64); the references are NumPy's, numpy.fft's for the
transforms. Gradients are checked as pairs of reals (og.testing.gradcheck), so a complex
input's real and imaginary parts are each perturbed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, away, pos, randn


def crandn(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Complex normal values: independent real and imaginary parts."""
    return np.asarray(rng.standard_normal(shape) + 1j * rng.standard_normal(shape))


def _view_as_real(x: np.ndarray) -> np.ndarray:
    return np.stack([x.real, x.imag], axis=-1)


def _parts(real: np.ndarray, imag: np.ndarray) -> np.ndarray:
    """real + 1j * imag without arithmetic (1j * nan would make the real part NaN too)."""
    real, imag = np.broadcast_arrays(real, imag)
    out = np.empty(real.shape, np.complex128 if real.dtype == np.float64 else np.complex64)
    out.real, out.imag = real, imag
    return out


def _view_as_complex(x: np.ndarray) -> np.ndarray:
    return _parts(x[..., 0], x[..., 1])


def _polar(abs: np.ndarray, angle: np.ndarray) -> np.ndarray:  # noqa: A002 - torch.polar's names
    return abs * np.exp(1j * angle)


def _complex(real: np.ndarray, imag: np.ndarray) -> np.ndarray:
    return _parts(real, imag)


def _fft(name: str) -> Any:
    fn = getattr(np.fft, name)

    def ref(x: np.ndarray, s: Any = None, axes: Any = None, norm: str = "backward") -> np.ndarray:
        if axes is None and s is not None:  # the last len(s) axes (NumPy 2 wants them spelled out)
            axes = list(range(x.ndim - len(s), x.ndim))
        return fn(x, s, axes, norm)

    return ref


def parts_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((crandn(rng, 3, 4),))
    yield Sample((randn(rng, 5),), note="real input")


def imag_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((crandn(rng, 3, 4),))
    yield Sample((crandn(rng),), note="0-d")


def angle_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((crandn(rng, 3, 4),))
    yield Sample((away(rng, 5),), note="real input: 0 or pi")


def pair_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3), randn(rng, 3)))
    yield Sample((randn(rng, 2, 1, 3), randn(rng, 4, 1)), note="broadcast")


def polar_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((pos(rng, 3), randn(rng, 3)))
    yield Sample((pos(rng, 2, 3), randn(rng, 3)), note="broadcast")


def view_as_real_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((crandn(rng, 2, 3),))
    yield Sample((crandn(rng, 4),))


def view_as_complex_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 2),))
    yield Sample((randn(rng, 2),), note="0-d result")


def fft_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((crandn(rng, 4, 3),))
    yield Sample((randn(rng, 5),), {"s": [8]}, note="real input, zero-padded")
    yield Sample((crandn(rng, 2, 3, 4),), {"axes": [0, 2], "norm": "ortho"})
    yield Sample((randn(rng, 3, 4),), {"s": [2, 6], "norm": "forward"}, note="cropped and padded")


def rfft_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 6),))
    yield Sample((randn(rng, 3, 5),), {"axes": [0, 1]}, note="odd length")
    yield Sample((randn(rng, 4, 5),), {"s": [7], "norm": "ortho"})
    yield Sample((randn(rng, 2, 3, 4),), {"s": [3, 4], "axes": [0, 2], "norm": "forward"})


def irfft_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((crandn(rng, 5),), note="even output length 8")
    yield Sample((crandn(rng, 3, 4),), {"s": [3, 7]}, note="odd output length")
    yield Sample((crandn(rng, 4, 3),), {"axes": [0], "norm": "ortho"})
    yield Sample((crandn(rng, 2, 4),), {"s": [6], "norm": "forward"}, note="input longer than needed")


INFOS = [
    OpInfo("conj", np.conj, parts_samples, complex_io=True),
    OpInfo("real", np.real, parts_samples, complex_io=True),
    OpInfo("imag", np.imag, imag_samples, complex_io=True),
    OpInfo("angle", np.angle, angle_samples, complex_io=True),
    OpInfo("complex", _complex, pair_samples, diff_args=(0, 1), complex_io=True),
    OpInfo("polar", _polar, polar_samples, diff_args=(0, 1), complex_io=True),
    OpInfo("view_as_real", _view_as_real, view_as_real_samples, complex_io=True),
    OpInfo("view_as_complex", _view_as_complex, view_as_complex_samples, complex_io=True),
    OpInfo("fftn", _fft("fftn"), fft_samples, rtol32=1e-4, atol32=1e-4, complex_io=True),
    OpInfo("ifftn", _fft("ifftn"), fft_samples, rtol32=1e-4, atol32=1e-4, complex_io=True),
    OpInfo("rfftn", _fft("rfftn"), rfft_samples, rtol32=1e-4, atol32=1e-4, complex_io=True),
    OpInfo("irfftn", _fft("irfftn"), irfft_samples, rtol32=1e-4, atol32=1e-4, complex_io=True),
]
