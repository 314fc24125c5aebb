"""The float32 erf (`common.erf_float32`, what `erf` uses for float32 arrays) against SciPy's
erf in float64: within 3.5 ulp of float32 over the whole line, tails, tiny and special values
included; other dtypes keep the accurate path."""

from __future__ import annotations

import numpy as np
import pytest

from opgrad.runtime.kernels import common

scipy_special = pytest.importorskip("scipy.special")

_TINY = np.finfo(np.float32).tiny


def _grid() -> np.ndarray:
    dense = np.linspace(-6.0, 6.0, 1_200_001)
    tails = np.geomspace(1e-38, 3e38, 200_001)  # tiny through huge, both signs
    return np.concatenate([dense, tails, -tails, [0.0, -0.0]]).astype(np.float32)


def _ulps(got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """|got - ref| in units of the float32 spacing at |ref| (the spacing below 1 at 1)."""
    spacing = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
    spacing = np.where(np.abs(ref) >= 1, np.spacing(np.float32(1)) / 2, spacing)
    return np.abs(got.astype(np.float64) - ref) / spacing


def test_float32_erf_is_within_a_few_ulp_of_scipy_in_float64() -> None:
    x = _grid()
    with np.errstate(all="raise"):  # no underflow or overflow warning from the evaluation
        got = common.erf(x)
    assert got.dtype == np.float32 and got.shape == x.shape
    ref = scipy_special.erf(x.astype(np.float64))
    normal = np.abs(ref) >= _TINY  # below, the result is a subnormal with its own spacing
    assert _ulps(got[normal], ref[normal]).max() <= 3.5
    rel = np.abs(got[normal].astype(np.float64) - ref[normal]) / np.abs(ref[normal])
    assert rel.max() <= 2.5e-7
    assert np.abs(got[~normal].astype(np.float64) - ref[~normal]).max() <= 2 * 2.0**-149


def test_float32_erf_tails_and_special_values() -> None:
    x = np.array([0.0, -0.0, 3.92, 4.0, 4.5, 10.0, 3e38, np.inf, np.nan], dtype=np.float32)
    got = common.erf_float32(x)
    assert got[0] == 0 and got[1] == 0 and np.signbit(got[1])
    assert np.all(got[5:8] == 1) and np.all(common.erf_float32(-x[5:8]) == -1)
    assert np.all(np.abs(got[2:5] - 1) <= np.spacing(np.float32(1)))  # erf rounds to 1 from 3.92
    assert np.isnan(got[-1])
    assert np.all(np.diff(common.erf_float32(np.linspace(-5, 5, 100_001, dtype=np.float32))) >= 0)


def test_float32_erf_writes_into_out() -> None:
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    out = np.empty_like(x)
    assert common.erf_float32(x, out=out) is out
    np.testing.assert_array_equal(out, common.erf_float32(x))


@pytest.mark.parametrize("dtype", [np.float64, np.float16])
def test_other_dtypes_keep_the_accurate_erf(dtype) -> None:
    x = np.linspace(-5, 5, 1001).astype(dtype)
    ref = scipy_special.erf(x.astype(np.float64))
    got = common.erf(x)
    assert got.dtype == dtype
    if dtype == np.float64:
        np.testing.assert_allclose(got, ref, rtol=1e-15, atol=0)
    else:
        np.testing.assert_array_equal(got, ref.astype(dtype))


def test_a_0d_float32_array_gets_an_array() -> None:
    got = common.erf(np.asarray(0.5, dtype=np.float32))
    assert got.dtype == np.float32
    assert abs(float(got) - float(scipy_special.erf(np.float64(np.float32(0.5))))) <= 6e-8
