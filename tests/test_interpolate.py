"""F.interpolate / nn.Upsample against PyTorch 2.13 for every mode, size and scale factor,
align_corners, and its gradients against finite differences to second order."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
import opgrad.nn.functional as F

RNG = np.random.default_rng(7)

CASES = [
    # (input shape, kwargs)
    ((1, 2, 5), {"size": 8, "mode": "nearest"}),
    ((1, 2, 5), {"scale_factor": 1.7, "mode": "nearest"}),
    ((1, 2, 7), {"size": 3, "mode": "nearest-exact"}),
    ((1, 2, 5), {"size": 9, "mode": "linear"}),
    ((1, 2, 5), {"size": 9, "mode": "linear", "align_corners": True}),
    ((1, 2, 9), {"size": 4, "mode": "linear"}),
    ((2, 1, 4, 5), {"size": (7, 3), "mode": "bilinear"}),
    ((2, 1, 4, 5), {"scale_factor": 2, "mode": "bilinear", "align_corners": True}),
    ((2, 1, 4, 5), {"scale_factor": (1.5, 0.6), "mode": "bilinear"}),
    ((1, 2, 4, 4), {"size": (9, 6), "mode": "bicubic"}),
    ((1, 2, 6, 5), {"size": (3, 8), "mode": "bicubic", "align_corners": True}),
    ((1, 2, 4, 4), {"scale_factor": 2.5, "mode": "bicubic"}),
    ((1, 1, 3, 4, 5), {"size": (5, 2, 7), "mode": "trilinear"}),
    ((1, 1, 3, 4, 5), {"scale_factor": 2, "mode": "nearest"}),
    ((1, 2, 7, 5), {"size": (3, 2), "mode": "area"}),
    ((1, 2, 6, 6), {"scale_factor": 0.5, "mode": "area"}),
    ((1, 2, 4, 4), {"scale_factor": 1.5, "mode": "bilinear", "recompute_scale_factor": True}),
]


@pytest.mark.parametrize(("shape", "kwargs"), CASES)
def test_interpolate_matches_pytorch(shape, kwargs):
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal(shape)
    got = F.interpolate(og.tensor(x), **kwargs).numpy()
    want = torch.nn.functional.interpolate(torch.tensor(x), **kwargs).numpy()
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("shape", "kwargs"), [CASES[4], CASES[6], CASES[9], CASES[12], CASES[14]])
def test_interpolate_gradients_match_finite_differences(shape, kwargs):
    x = og.tensor(RNG.standard_normal(shape), requires_grad=True)
    assert og.testing.gradcheck(lambda z: F.interpolate(z, **kwargs), [x])
    assert og.testing.gradgradcheck(lambda z: F.interpolate(z, **kwargs), [x])


def test_interpolate_keeps_float32_and_upsample_modules_work():
    x = og.tensor(RNG.standard_normal((1, 1, 2, 2)).astype(np.float32))
    up = og.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
    assert up(x).dtype == np.float32 and up(x).shape == (1, 1, 4, 4)
    np.testing.assert_allclose(
        og.nn.UpsamplingNearest2d(scale_factor=2)(x).numpy(), np.kron(x.numpy(), np.ones((2, 2)))
    )
    bil = og.nn.UpsamplingBilinear2d(size=(3, 3))(x).numpy()
    np.testing.assert_allclose(bil[0, 0, 1, 1], x.numpy().mean(), rtol=1e-6)  # align_corners=True: the centre
    assert og.nn.PixelShuffle(2)(og.zeros((1, 8, 2, 2))).shape == (1, 2, 4, 4)
    assert og.nn.PixelUnshuffle(2)(og.zeros((1, 2, 4, 4))).shape == (1, 8, 2, 2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"size": 4, "scale_factor": 2}, "give exactly one of size and scale_factor"),
        ({}, "give exactly one of size and scale_factor"),
        ({"size": 4, "mode": "bilinear"}, "mode 'bilinear' needs 4-D input, got 3-D"),
        (
            {"size": 4, "mode": "nearest", "align_corners": True},
            "align_corners can only be set with the interpolating modes",
        ),
        ({"size": 4, "mode": "cubic"}, "mode must be one of"),
        ({"size": (4, 4)}, "size must have 1 entries for 1 spatial dimensions"),
        ({"scale_factor": -1.0}, "scale_factor must hold positive floats"),
    ],
)
def test_bad_arguments_name_what_is_wrong(kwargs, match):
    with pytest.raises(ValueError, match=f"interpolate: {match}"):
        F.interpolate(og.zeros((1, 1, 3)), **kwargs)


@pytest.mark.parametrize(
    "kwargs", [{"kernel_size": 2}, {"kernel_size": (2, 3), "dilation": 2, "padding": 1, "stride": (2, 1)}]
)
def test_unfold_and_fold_match_pytorch_and_their_modules(kwargs):
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((2, 3, 6, 7))
    cols = og.nn.Unfold(**kwargs)(og.tensor(x))
    want = torch.nn.functional.unfold(torch.tensor(x), **kwargs)
    np.testing.assert_allclose(cols.numpy(), want.numpy(), rtol=1e-12)
    back = og.nn.Fold((6, 7), **kwargs)(cols)
    np.testing.assert_allclose(
        back.numpy(), torch.nn.functional.fold(want, (6, 7), **kwargs).numpy(), rtol=1e-12
    )


def test_fold_refuses_columns_of_the_wrong_shape():
    with pytest.raises(
        ValueError,
        match=r"fold: x has shape \(1, 8, 5\); for output_size \(4, 4\) .* \(N, C \* 4, 9\)",
    ):
        og.fold(og.zeros((1, 8, 5)), [4, 4], [2, 2])
