"""OpInfos of the cnn-and-attention ops: conv2d, pooling, norms, linear, einsum, attention.

The references are written directly in NumPy (loops over output positions where that is
clearest) and never call opgrad. Sizes are small so that float64 gradcheck stays fast.
batch_norm's table samples use momentum=1.0 in training, which leaves the running buffers
unchanged (the forward test checks that an op does not modify its inputs); the in-place
update itself is tested in tests/test_cnn_ops.py. Every tensor argument up to the last
differentiable one is given positionally (None where absent): test_ops.py tensorises only
positional arrays and indexes `sample.args` by every `diff_args` position.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from op_samples import OpInfo, Sample, distinct, pos, randn

# --- references -------------------------------------------------------------------------------


def _pair(v: Any) -> tuple[int, int]:
    if isinstance(v, int):
        return v, v
    v = list(v)
    return (v[0], v[0]) if len(v) == 1 else (v[0], v[1])


def conv2d_ref(
    x: np.ndarray,
    weight: np.ndarray,
    bias: np.ndarray | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> np.ndarray:
    """A loop over output channels and positions."""
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    n, c, h, w = x.shape
    o, cg, kh, kw = weight.shape
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    ho = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    wo = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, ho, wo), dtype=np.result_type(x, weight))
    og_ = o // groups
    for oc in range(o):
        g = oc // og_
        for i in range(ho):
            for j in range(wo):
                patch = xp[
                    :,
                    g * cg : (g + 1) * cg,
                    i * sh : i * sh + dh * (kh - 1) + 1 : dh,
                    j * sw : j * sw + dw * (kw - 1) + 1 : dw,
                ]
                out[:, oc, i, j] = (patch * weight[oc]).sum(axis=(1, 2, 3))
    if bias is not None:
        out = out + bias.reshape(1, o, 1, 1)
    return out


def _pool_ref(reduce: Any, fill: float) -> Any:
    def ref(x: np.ndarray, kernel_size: Any, stride: Any = None, padding: Any = 0) -> np.ndarray:
        kh, kw = _pair(kernel_size)
        sh, sw = (kh, kw) if stride is None else _pair(stride)
        ph, pw = _pair(padding)
        xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=fill)
        ho = (x.shape[2] + 2 * ph - kh) // sh + 1
        wo = (x.shape[3] + 2 * pw - kw) // sw + 1
        out = np.empty(x.shape[:2] + (ho, wo), dtype=x.dtype)
        for i in range(ho):
            for j in range(wo):
                out[:, :, i, j] = reduce(xp[:, :, i * sh : i * sh + kh, j * sw : j * sw + kw], axis=(2, 3))
        return out

    return ref


max_pool2d_ref = _pool_ref(np.max, -np.inf)
avg_pool2d_ref = _pool_ref(np.mean, 0.0)


def adaptive_avg_pool2d_ref(x: np.ndarray, output_size: Any) -> np.ndarray:
    oh, ow = _pair(output_size)
    h, w = x.shape[2:]
    out = np.empty(x.shape[:2] + (oh, ow), dtype=x.dtype)
    for i in range(oh):
        for j in range(ow):
            hs, he = (i * h) // oh, math.ceil((i + 1) * h / oh)
            ws, we = (j * w) // ow, math.ceil((j + 1) * w / ow)
            out[:, :, i, j] = x[:, :, hs:he, ws:we].mean(axis=(2, 3))
    return out


def _normalize(x: np.ndarray, axes: tuple[int, ...], epsilon: float) -> np.ndarray:
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon)


def _affine(y: np.ndarray, weight: Any, bias: Any, shape: tuple[int, ...]) -> np.ndarray:
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


def layer_norm_ref(
    x: np.ndarray, normalized_shape: Any, weight: Any = None, bias: Any = None, epsilon: float = 1e-5
) -> np.ndarray:
    k = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    y = _normalize(x, tuple(range(x.ndim - k, x.ndim)), epsilon)
    return _affine(y, weight, bias, x.shape[x.ndim - k :])


def batch_norm_ref(
    x: np.ndarray,
    running_mean: np.ndarray,
    running_var: np.ndarray,
    weight: Any = None,
    bias: Any = None,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-5,
) -> np.ndarray:
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if training:
        y = _normalize(x, (0,) + tuple(range(2, x.ndim)), epsilon)
    else:
        y = (x - running_mean.reshape(shape)) / np.sqrt(running_var.reshape(shape) + epsilon)
    return _affine(y.astype(x.dtype), weight, bias, shape)


def group_norm_ref(
    x: np.ndarray, num_groups: int, weight: Any = None, bias: Any = None, epsilon: float = 1e-5
) -> np.ndarray:
    y = _normalize(x.reshape(x.shape[0], num_groups, -1), (2,), epsilon).reshape(x.shape)
    return _affine(y, weight, bias, (1, x.shape[1]) + (1,) * (x.ndim - 2))


def linear_ref(x: np.ndarray, weight: np.ndarray, bias: Any = None) -> np.ndarray:
    out = np.asarray(x @ weight)
    return out if bias is None else out + bias


def einsum_ref(equation: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.asarray(np.einsum(equation, x, y))


def attention_ref(
    query: np.ndarray,
    key: np.ndarray,
    value: np.ndarray,
    mask: Any = None,
    dropout_p: float = 0.0,
    causal: bool = False,
    scale: float | None = None,
) -> np.ndarray:
    assert dropout_p == 0
    s = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = query @ np.swapaxes(key, -1, -2) * s
    if mask is not None:
        scores = np.where(mask, scores, -np.inf) if mask.dtype == bool else scores + mask
    if causal:
        scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)
    out = np.zeros(scores.shape[:-1] + (value.shape[-1],), dtype=np.result_type(scores, value))
    weights = np.zeros_like(scores)
    for idx in np.ndindex(scores.shape[:-1]):  # a plain softmax per row; fully masked rows stay 0
        row = scores[idx]
        if np.isfinite(row).any():
            e = np.exp(row - row.max())
            weights[idx] = e / e.sum()
    return np.matmul(weights, value).astype(out.dtype)


# --- samples -----------------------------------------------------------------------------------


def conv2d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 1, 2, 5, 5), randn(rng, 3, 2, 3, 3), randn(rng, 3)))
    yield Sample((randn(rng, 1, 2, 5, 5), randn(rng, 3, 2, 3, 3), None), {"stride": 2, "padding": 1})
    yield Sample(
        (randn(rng, 2, 1, 6, 5), randn(rng, 2, 1, 2, 3), randn(rng, 2)),
        {"stride": [1, 2], "padding": [2, 1], "dilation": 2},
        note="asymmetric stride/padding, dilation",
    )
    yield Sample((randn(rng, 1, 4, 4, 4), randn(rng, 2, 2, 2, 2), randn(rng, 2), 1, 0, 1, 2), note="groups=2")
    yield Sample(
        (randn(rng, 1, 4, 3, 3), randn(rng, 4, 1, 3, 3), None),
        {"padding": 1, "groups": 4},
        note="depthwise",
    )
    yield Sample((randn(rng, 2, 3, 2, 2), randn(rng, 2, 3, 1, 1), randn(rng, 2)), note="1x1 kernel")


def max_pool2d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((distinct(rng, 1, 2, 4, 4), 2))
    yield Sample((distinct(rng, 1, 2, 5, 5), 3), {"stride": 2, "padding": 1})
    yield Sample((distinct(rng, 2, 1, 4, 5), [2, 3], [1, 2]), note="overlapping windows")
    yield Sample((distinct(rng, 1, 1, 3, 3), [2, 2], 1, [1, 1]), note="padding, stride 1")
    ties = np.array([[[[1.0, 1.0, 0.0], [1.0, 0.5, 2.0], [2.0, 2.0, 2.0]]]])
    yield Sample((ties, 2, 1), grad=False, note="ties")


def avg_pool2d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 1, 2, 4, 4), 2))
    yield Sample((randn(rng, 1, 2, 5, 5), 3), {"stride": 2, "padding": 1})
    yield Sample((randn(rng, 2, 1, 4, 5), [2, 3], [1, 2]), note="overlapping windows")
    yield Sample((randn(rng, 1, 1, 3, 3), [3, 3], None, 1), note="padding counts")


def adaptive_avg_pool2d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 2, 4, 4), 2))
    yield Sample((randn(rng, 1, 2, 5, 7), [3, 4]), note="sizes do not divide")
    yield Sample((randn(rng, 1, 1, 3, 4), [1, 1]), note="global")
    yield Sample((randn(rng, 1, 1, 3, 2), [4, 3]), note="output larger than input")


def layer_norm_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4), [4], randn(rng, 4), randn(rng, 4)))
    yield Sample((randn(rng, 2, 3, 4), [3, 4], None, None))
    yield Sample((randn(rng, 3, 5), 5, randn(rng, 5), None), {"epsilon": 1e-3})
    yield Sample((randn(rng, 4), [4], None, randn(rng, 4)), note="bias only")


def batch_norm_samples(rng: np.random.Generator) -> Iterator[Sample]:
    def stats(c: int) -> tuple[np.ndarray, np.ndarray]:
        return randn(rng, c), pos(rng, c)

    yield Sample((randn(rng, 2, 3, 2, 2), *stats(3), randn(rng, 3), randn(rng, 3)), note="eval")
    yield Sample(
        (randn(rng, 2, 3, 2, 2), *stats(3), randn(rng, 3), randn(rng, 3)),
        {"training": True, "momentum": 1.0},
        note="training",
    )
    yield Sample(
        (randn(rng, 4, 3), *stats(3), None, None), {"training": True, "momentum": 1.0, "epsilon": 1e-3}
    )
    yield Sample((randn(rng, 4, 2), *stats(2), pos(rng, 2), None), note="(N, C), eval, weight only")
    yield Sample((randn(rng, 3, 2, 3), *stats(2), None, randn(rng, 2), True, 1.0), note="(N, C, L)")


def group_norm_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 4, 2, 2), 2, randn(rng, 4), randn(rng, 4)))
    yield Sample((randn(rng, 2, 6, 3), 3, None, None), {"epsilon": 1e-3})
    yield Sample((randn(rng, 3, 4), 1, randn(rng, 4), None), note="(N, C)")
    yield Sample((randn(rng, 1, 3, 2, 2), 3, None, randn(rng, 3)), note="one channel per group")


def linear_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), randn(rng, 4, 5), randn(rng, 5)))
    yield Sample((randn(rng, 2, 3, 4), randn(rng, 4, 2), None))
    yield Sample((randn(rng, 4), randn(rng, 4, 2), randn(rng, 2)), note="1-D x")


def einsum_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(("bij,bjk->bik", randn(rng, 2, 3, 4), randn(rng, 2, 4, 2)))
    yield Sample(("bhqd,bhkd->bhqk", randn(rng, 1, 2, 3, 4), randn(rng, 1, 2, 2, 4)))
    yield Sample(("i,j->ij", randn(rng, 3), randn(rng, 4)))
    yield Sample(("bi,ij->bj", randn(rng, 2, 3), randn(rng, 3, 4)))
    yield Sample(("ij,jk", randn(rng, 2, 3), randn(rng, 3, 2)), note="implicit output")
    yield Sample(("ij,j->j", randn(rng, 2, 3), randn(rng, 3)), note="i summed in x alone")
    yield Sample(("i,i->", randn(rng, 4), randn(rng, 4)), note="scalar output")
    yield Sample(("bik,bjk->kji", randn(rng, 2, 2, 3), randn(rng, 2, 4, 3)), note="permuted output")


def attention_samples(rng: np.random.Generator) -> Iterator[Sample]:
    q, k, v = randn(rng, 2, 2, 3, 4), randn(rng, 2, 2, 5, 4), randn(rng, 2, 2, 5, 3)
    yield Sample((q, k, v, None))
    keep = rng.random((3, 5)) > 0.4
    keep[:, 0] = True
    yield Sample((q, k, v, keep), note="bool mask, broadcast")
    yield Sample((q, k, v, randn(rng, 2, 1, 3, 5)), note="float mask")
    x = randn(rng, 1, 2, 4, 3)
    yield Sample((x, x * 0.5, randn(rng, 1, 2, 4, 2), None), {"causal": True, "scale": 0.7}, note="causal")
    keep = np.ones((1, 1, 4, 4), dtype=bool)
    keep[..., 1, :] = False
    yield Sample((x, x, x, keep, 0.0, True), note="a fully masked row gives 0")
    yield Sample((randn(rng, 3, 4), randn(rng, 2, 4), randn(rng, 2, 2), None), note="no batch axes")
    yield Sample((q, k, v, None), {"dropout_p": 0.3}, forward=False, seed=7, note="seeded dropout")


INFOS = [
    OpInfo("conv2d", conv2d_ref, conv2d_samples, (0, 1, 2), atol32=1e-4),
    OpInfo("max_pool2d", max_pool2d_ref, max_pool2d_samples),
    OpInfo("avg_pool2d", avg_pool2d_ref, avg_pool2d_samples),
    OpInfo("adaptive_avg_pool2d", adaptive_avg_pool2d_ref, adaptive_avg_pool2d_samples),
    OpInfo("layer_norm", layer_norm_ref, layer_norm_samples, (0, 2, 3), atol32=1e-4),
    OpInfo("batch_norm", batch_norm_ref, batch_norm_samples, (0, 3, 4), atol32=1e-4),
    OpInfo("group_norm", group_norm_ref, group_norm_samples, (0, 2, 3), atol32=1e-4),
    OpInfo("linear", linear_ref, linear_samples, (0, 1, 2), atol32=1e-4),
    OpInfo("einsum", einsum_ref, einsum_samples, (1, 2), atol32=1e-4),
    OpInfo("scaled_dot_product_attention", attention_ref, attention_samples, (0, 1, 2, 3), atol32=1e-4),
]
