"""OpInfos of unfold (im2col) and fold (col2im), issue 15. The references loop over blocks
in plain NumPy, as torch.nn.functional documents the layout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, randn


def _two(v: Any) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else (v[0], v[-1])


def unfold_ref(
    x: np.ndarray, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> np.ndarray:
    batched = x.ndim == 4
    x = x if batched else x[None]
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(_two, (kernel_size, dilation, padding, stride))
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    ho, wo = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1, (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c * kh * kw, ho * wo), dtype=x.dtype)
    for r in range(ho):
        for q in range(wo):
            block = xp[
                :, :, r * sh : r * sh + dh * (kh - 1) + 1 : dh, q * sw : q * sw + dw * (kw - 1) + 1 : dw
            ]
            out[:, :, r * wo + q] = block.reshape(n, c * kh * kw)
    return out if batched else out[0]


def fold_ref(
    x: np.ndarray, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> np.ndarray:
    batched = x.ndim == 3
    x = x if batched else x[None]
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(
        _two, (output_size, kernel_size, dilation, padding, stride)
    )
    n = x.shape[0]
    c = x.shape[1] // (kh * kw)
    ho, wo = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1, (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=x.dtype)
    for r in range(ho):
        for q in range(wo):
            block = x[:, :, r * wo + q].reshape(n, c, kh, kw)
            out[:, :, r * sh : r * sh + dh * (kh - 1) + 1 : dh, q * sw : q * sw + dw * (kw - 1) + 1 : dw] += (
                block
            )
    out = out[:, :, ph : ph + h, pw : pw + w]
    return out if batched else out[0]


def unfold_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4, 5), [2, 3]))
    yield Sample(
        (randn(rng, 1, 2, 5, 5), 3),
        {"dilation": 2, "padding": 1, "stride": 2},
        note="dilated, padded, strided",
    )
    yield Sample((randn(rng, 2, 4, 3), [2, 2]), {"stride": [1, 2]}, note="unbatched")


def fold_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3 * 6, 3 * 3), [4, 5], [2, 3]), note="overlapping")
    yield Sample(
        (randn(rng, 1, 2 * 9, 4), [5, 5], 3),
        {"dilation": 2, "padding": 1, "stride": 2},
        note="dilated, padded",
    )
    yield Sample((randn(rng, 4 * 4, 4), [4, 3], [2, 2]), {"stride": [2, 1]}, note="unbatched")


INFOS = [
    OpInfo("unfold", unfold_ref, unfold_samples),
    OpInfo("fold", fold_ref, fold_samples),
]
