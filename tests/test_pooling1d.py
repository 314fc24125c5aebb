"""F.max_pool1d / avg_pool1d / adaptive_avg_pool1d and their modules against PyTorch, with
gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
import opgrad.nn.functional as F

RNG = np.random.default_rng(4)


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("max_pool1d", (3,), {}),
        ("max_pool1d", (3,), {"stride": 2, "padding": 1}),
        ("avg_pool1d", (2,), {"stride": 1}),
        ("avg_pool1d", (3,), {"stride": 2, "padding": 1}),
        ("adaptive_avg_pool1d", (4,), {}),
    ],
)
def test_pool1d_matches_torch_and_finite_differences(name, args, kwargs):
    torch = pytest.importorskip("torch")
    x = RNG.permutation(2 * 3 * 9).reshape(2, 3, 9) * 0.1  # distinct values: no ties for the max
    got = getattr(F, name)(og.tensor(x), *args, **kwargs)
    want = getattr(torch.nn.functional, name)(torch.tensor(x), *args, **kwargs)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    xt = og.tensor(x, requires_grad=True)
    assert og.testing.gradcheck(lambda z: getattr(F, name)(z, *args, **kwargs), [xt])
    unbatched = getattr(F, name)(og.tensor(x[0]), *args, **kwargs)
    np.testing.assert_allclose(unbatched.numpy(), want.numpy()[0], rtol=1e-12)


def test_pool1d_modules_and_errors():
    x = og.tensor(RNG.standard_normal((1, 2, 8)))
    assert og.nn.MaxPool1d(2)(x).shape == (1, 2, 4)
    assert og.nn.AvgPool1d(4, stride=2)(x).shape == (1, 2, 3)
    assert og.nn.AdaptiveAvgPool1d(3)(x).shape == (1, 2, 3)
    with pytest.raises(ValueError, match="max_pool1d: input must be \\(N, C, L\\) or \\(C, L\\)"):
        F.max_pool1d(og.zeros((1, 2, 3, 4)), 2)
    with pytest.raises(ValueError, match="avg_pool1d: kernel_size must be an int >= 1"):
        F.avg_pool1d(x, 0)
