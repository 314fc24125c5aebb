"""OpInfos of conv_transpose2d and conv1d (issue 15). References are direct loops in NumPy:
the transposed convolution scatters each input pixel times the kernel into the output."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, randn


def _two(v: Any) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else (v[0], v[-1])


def conv_transpose2d_ref(
    x: np.ndarray,
    w: np.ndarray,
    b: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> np.ndarray:
    (sh, sw), (ph, pw), (oh, ow), (dh, dw) = map(_two, (stride, padding, output_padding, dilation))
    n, cin, h, wd = x.shape
    _, cog, kh, kw = w.shape
    ho = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oh + 1
    wo = (wd - 1) * sw - 2 * pw + dw * (kw - 1) + ow + 1
    full = np.zeros((n, cog * groups, ho + 2 * ph, wo + 2 * pw), dtype=x.dtype)
    cig = cin // groups
    for g in range(groups):
        for ci in range(g * cig, (g + 1) * cig):
            for i in range(h):
                for j in range(wd):
                    patch = x[:, ci, i, j][:, None, None, None] * w[ci][None]  # (n, cog, kh, kw)
                    full[
                        :,
                        g * cog : (g + 1) * cog,
                        i * sh : i * sh + dh * (kh - 1) + 1 : dh,
                        j * sw : j * sw + dw * (kw - 1) + 1 : dw,
                    ] += patch
    out = full[:, :, ph : ph + ho, pw : pw + wo]
    return out if b is None else out + b.reshape(1, -1, 1, 1)


def conv1d_ref(
    x: np.ndarray,
    w: np.ndarray,
    b: Any = None,
    stride: int = 1,
    padding: int = 0,
    dilation: int = 1,
    groups: int = 1,
) -> np.ndarray:
    xp = np.pad(x, ((0, 0), (0, 0), (padding, padding)))
    n, c, length = xp.shape
    o, cg, k = w.shape
    lo = (length - dilation * (k - 1) - 1) // stride + 1
    out = np.zeros((n, o, lo), dtype=x.dtype)
    og_ = o // groups
    for oc in range(o):
        g = oc // og_
        for t in range(lo):
            window = xp[:, g * cg : (g + 1) * cg, t * stride : t * stride + dilation * (k - 1) + 1 : dilation]
            out[:, oc, t] = (window * w[oc][None]).sum(axis=(1, 2))
    return out if b is None else out + b.reshape(1, -1, 1)


def conv_transpose2d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 3, 4), randn(rng, 3, 2, 2, 3), randn(rng, 2)))
    yield Sample(
        (randn(rng, 1, 2, 3, 3), randn(rng, 2, 2, 3, 3), None, 2, 1, 1),
        note="stride, padding, output_padding",
    )
    yield Sample(
        (randn(rng, 1, 4, 2, 3), randn(rng, 4, 1, 2, 2)),
        {"groups": 2, "dilation": 2},
        note="groups, dilation",
    )


def conv1d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 7), randn(rng, 4, 3, 3), randn(rng, 4)))
    yield Sample(
        (randn(rng, 1, 4, 9), randn(rng, 2, 2, 2)), {"stride": 2, "padding": 1, "dilation": 2, "groups": 2}
    )


INFOS = [
    OpInfo("conv_transpose2d", conv_transpose2d_ref, conv_transpose2d_samples, (0, 1, 2), atol32=1e-4),
    OpInfo("conv1d", conv1d_ref, conv1d_samples, (0, 1, 2), atol32=1e-4),
]


def conv_transpose1d_ref(
    x: np.ndarray,
    w: np.ndarray,
    b: Any = None,
    stride: int = 1,
    padding: int = 0,
    output_padding: int = 0,
    groups: int = 1,
    dilation: int = 1,
) -> np.ndarray:
    out = conv_transpose2d_ref(
        x[:, :, None, :],
        w[:, :, None, :],
        b,
        (1, stride),
        (0, padding),
        (0, output_padding),
        groups,
        (1, dilation),
    )
    return out[:, :, 0, :]


def conv_transpose1d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 5), randn(rng, 3, 2, 3), randn(rng, 2)))
    yield Sample(
        (randn(rng, 1, 4, 4), randn(rng, 4, 1, 2)),
        {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "dilation": 2},
    )


INFOS += [OpInfo("conv_transpose1d", conv_transpose1d_ref, conv_transpose1d_samples, (0, 1, 2), atol32=1e-4)]


def conv3d_ref(
    x: np.ndarray,
    w: np.ndarray,
    b: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> np.ndarray:
    def three(v: Any) -> tuple[int, int, int]:
        return (v, v, v) if isinstance(v, int) else tuple(v)

    (sd, sh, sw), (pd, ph, pw), (dd, dh, dw) = three(stride), three(padding), three(dilation)
    xp = np.pad(x, ((0, 0), (0, 0), (pd, pd), (ph, ph), (pw, pw)))
    n, c, depth, h, wd = xp.shape
    o, cg, kd, kh, kw = w.shape
    do = (depth - dd * (kd - 1) - 1) // sd + 1
    ho = (h - dh * (kh - 1) - 1) // sh + 1
    wo = (wd - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, do, ho, wo), dtype=x.dtype)
    og_ = o // groups
    for oc in range(o):
        g = oc // og_
        for a in range(do):
            for i in range(ho):
                for j in range(wo):
                    win = xp[
                        :,
                        g * cg : (g + 1) * cg,
                        a * sd : a * sd + dd * (kd - 1) + 1 : dd,
                        i * sh : i * sh + dh * (kh - 1) + 1 : dh,
                        j * sw : j * sw + dw * (kw - 1) + 1 : dw,
                    ]
                    out[:, oc, a, i, j] = (win * w[oc][None]).sum(axis=(1, 2, 3, 4))
    return out if b is None else out + b.reshape(1, -1, 1, 1, 1)


def conv3d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 2, 3, 3, 4), randn(rng, 3, 2, 2, 2, 2), randn(rng, 3)))
    yield Sample(
        (randn(rng, 1, 4, 5, 4, 4), randn(rng, 2, 2, 2, 2, 2)),
        {"stride": [2, 1, 2], "padding": 1, "dilation": [2, 1, 1], "groups": 2},
    )


INFOS += [OpInfo("conv3d", conv3d_ref, conv3d_samples, (0, 1, 2), atol32=1e-4)]
