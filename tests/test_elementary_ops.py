"""Behaviour of the elementary ops of issue 15 that the op table does not pin: errors that
name the op and the argument, integer inputs to the rounding ops, logcumsumexp's gradient
where a naive formula overflows, cummax/cummin on ties and NaN, the Tensor methods."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og


@pytest.mark.parametrize("op", ["floor", "ceil", "trunc", "round"])
def test_rounding_an_integer_tensor_gives_it_back_unchanged(op):
    x = og.tensor(np.array([-3, 0, 7], dtype=np.int64))
    out = getattr(og, op)(x)
    assert out.dtype == np.int64 and out.tolist() == [-3, 0, 7]
    assert out._data is not x._data  # a copy, not an alias


def test_round_halves_to_even_and_takes_decimals_as_pytorch():
    x = og.tensor(np.array([0.5, 1.5, 2.5, -0.5, 1.25, 1234.5]))
    assert og.round(x).tolist() == [0.0, 2.0, 2.0, -0.0, 1.0, 1234.0]
    np.testing.assert_allclose(og.round(x, decimals=1).numpy(), [0.5, 1.5, 2.5, -0.5, 1.2, 1234.5])
    np.testing.assert_allclose(og.round(x, decimals=-2).numpy(), [0, 0, 0, 0, 0, 1200])


def test_rounding_ops_pass_a_zero_gradient():
    x = og.tensor(np.array([0.3, -1.7, 2.2]), requires_grad=True)
    og.sum(og.floor(x) + og.ceil(x) + og.trunc(x) + og.round(x) + og.frac(x)).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0, 1.0])  # frac's 1, the rest 0


def test_logcumsumexp_gradient_stays_finite_where_a_naive_formula_overflows():
    x0 = np.array([1000.0, -1000.0, 999.0, 0.0])
    x = og.tensor(x0, requires_grad=True)
    g = np.array([1.0, -2.0, 0.5, 3.0])
    out = og.logcumsumexp(x, 0)
    (og.sum(out * og.tensor(g))).backward()
    ref = np.zeros(4)  # x_grad[j] = sum_{i >= j} g[i] softmax(x[:i+1])[j]
    for i in range(4):
        w = np.exp(x0[: i + 1] - np.max(x0[: i + 1]))
        ref[: i + 1] += g[i] * w / w.sum()
    assert np.all(np.isfinite(x.grad.numpy()))
    np.testing.assert_allclose(x.grad.numpy(), ref, rtol=1e-12, atol=1e-300)


def test_cummax_takes_the_latest_index_on_ties_and_propagates_nan():
    values, indices = og.cummax(og.tensor(np.array([1.0, 3.0, 3.0, 2.0, np.nan, 5.0])), 0)
    assert indices.tolist() == [0, 1, 2, 2, 4, 4]
    assert np.isnan(values.numpy()[4:]).all()
    values, indices = og.cummin(og.tensor(np.array([2.0, 1.0, 1.0, 3.0])), 0)
    assert values.tolist() == [2.0, 1.0, 1.0, 1.0] and indices.tolist() == [0, 1, 2, 2]


def test_cummax_gradient_goes_to_where_each_maximum_came_from():
    x = og.tensor(np.array([1.0, 3.0, 2.0, 4.0]), requires_grad=True)
    values, _ = og.cummax(x, 0)
    og.sum(values * og.tensor(np.array([1.0, 10.0, 100.0, 1000.0]))).backward()
    assert x.grad.tolist() == [1.0, 110.0, 0.0, 1000.0]


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda: og.pixel_shuffle(og.zeros((1, 6, 2, 2)), 2),
            ValueError,
            r"pixel_shuffle: x must have shape \(\.\.\., C \* 4, H, W\)",
        ),
        (
            lambda: og.pixel_shuffle(og.zeros((1, 8, 2, 2)), 0),
            ValueError,
            "pixel_shuffle: upscale_factor must be a positive int",
        ),
        (
            lambda: og.pixel_unshuffle(og.zeros((1, 1, 3, 4)), 2),
            ValueError,
            "pixel_unshuffle: x must have shape .* divisible by downscale_factor = 2",
        ),
        (
            lambda: og.searchsorted(og.tensor([1.0, 2.0]), og.tensor([1.5]), right=True, side="left"),
            ValueError,
            "searchsorted: right=True and side='left' contradict",
        ),
        (
            lambda: og.searchsorted(og.tensor([1.0, 2.0]), og.tensor([1.5]), side="middle"),
            ValueError,
            "searchsorted: side must be 'left' or 'right'",
        ),
        (
            lambda: og.searchsorted(og.zeros((2, 3)), og.zeros((3, 1))),
            ValueError,
            "searchsorted: an N-D sorted_sequence",
        ),
        (
            lambda: og.bucketize(og.tensor([1.0]), og.zeros((2, 2))),
            ValueError,
            "bucketize: boundaries must be 1-D",
        ),
        (lambda: og.bincount(og.tensor(np.array([1, -1]))), ValueError, "bincount: x must be non-negative"),
        (lambda: og.bincount(og.tensor([1.0, 2.0])), ValueError, "bincount: x must be a 1-D integer tensor"),
        (
            lambda: og.bincount(og.tensor(np.array([1, 2])), og.tensor([1.0])),
            ValueError,
            "bincount: weights must have x's shape",
        ),
        (lambda: og.histc(og.tensor([1.0]), bins=0), ValueError, "histc: bins must be a positive int"),
        (
            lambda: og.histc(og.tensor([1.0]), min=2.0, max=1.0),
            ValueError,
            r"histc: max \(1.0\) must not be less than min \(2.0\)",
        ),
        (lambda: og.cummax(og.zeros((2, 3)), 2), ValueError, "cummax: axis"),
    ],
)
def test_bad_arguments_name_the_op_and_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_search_and_count_results_never_require_grad_and_have_data_dependent_shapes():
    x = og.tensor(np.array([[0.0, 1.0], [2.0, 0.0]]), requires_grad=True)
    nz = og.nonzero(x)
    assert nz.tolist() == [[0, 1], [1, 0]] and not nz.requires_grad
    assert og.argwhere(x).tolist() == nz.tolist()
    assert og.nonzero(og.zeros((2, 3))).shape == (0, 2)
    counts = og.bincount(og.tensor(np.array([0, 3, 3])), minlength=2)
    assert counts.tolist() == [1, 0, 0, 2] and counts.dtype == np.int64
    assert og.count_nonzero(x).item() == 2


def test_tensor_methods_exist_for_the_pytorch_spellings():
    x = og.tensor(np.array([0.2, 0.4]))
    for name in (
        "tan",
        "asin",
        "acos",
        "atan",
        "sinh",
        "cosh",
        "asinh",
        "atanh",
        "log2",
        "log10",
        "exp2",
        "deg2rad",
        "rad2deg",
        "logit",
        "frac",
        "floor",
        "ceil",
        "trunc",
        "round",
        "nansum",
        "count_nonzero",
        "nonzero",
        "argwhere",
    ):
        np.testing.assert_allclose(getattr(x, name)().numpy(), getattr(og, name)(x).numpy())
    np.testing.assert_allclose(x.atan2(x + 1).numpy(), np.arctan2([0.2, 0.4], [1.2, 1.4]))
    np.testing.assert_allclose(x.lerp(x * 3, 0.5).numpy(), [0.4, 0.8])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_to_num_defaults_to_the_dtypes_own_extremes(dtype):
    x = og.tensor(np.array([np.nan, np.inf, -np.inf, 1.0], dtype=dtype), requires_grad=True)
    out = og.nan_to_num(x)
    info = np.finfo(dtype)
    assert out.dtype == dtype and out.tolist() == [0.0, float(info.max), float(info.min), 1.0]
    og.sum(out).backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 1.0]


def test_shifts_refuse_floats_naming_the_op():
    with pytest.raises(TypeError, match="bitwise_left_shift: x and y must be integer tensors"):
        og.bitwise_left_shift(og.tensor([1.0]), og.tensor(np.array([1])))
