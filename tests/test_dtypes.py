"""dtypes: names, aliases and NumPy types accepted wherever a dtype is, and clear refusals."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.dtypes import as_dtype, is_floating


@pytest.mark.parametrize(
    ("given", "want"),
    [("float32", og.float32), (" Float64 ", og.float64), ("paddle.float16", og.float16),
     ("torch.int64", og.int64), ("float", og.float32), ("double", og.float64), ("half", og.float16),
     ("int", og.int64), ("long", og.int64), ("bool", og.bool_), (np.uint8, og.uint8),
     (np.dtype("int16"), og.int16), (og.int8, og.int8),
     (float, og.float64), (bool, og.bool_), ("cfloat", og.complex64), ("torch.complex128", og.complex128),
     ("cdouble", og.complex128), (np.complex64, og.complex64), (complex, og.complex128)],
)  # fmt: skip
def test_accepted_spellings(given, want):
    assert as_dtype(given) == want


@pytest.mark.parametrize(
    "bad", ["foo", "complex256", "U3", "torch.cdouble2", np.clongdouble, object(), 3, [1], "uint16"]
)
def test_unsupported_dtypes_list_what_is_supported(bad):
    with pytest.raises(
        TypeError,
        match=r"cast: dtype: unsupported dtype .*; expected one of bool, complex128, complex64, float16",
    ):
        as_dtype(bad, "cast: dtype")


def test_none_is_not_silently_float64():
    # Before: as_dtype(None) returned float64 (NumPy's reading), so x.astype(None) cast to float64.
    with pytest.raises(TypeError, match="astype: expected a dtype, got None"):
        og.ones((2,)).astype(None)
    with pytest.raises(TypeError, match="dtype: expected a dtype, got None"):
        as_dtype(None)
    assert og.ones((2,)).to(dtype=None).dtype == og.float32  # to(): None means "keep"


def test_is_floating():
    assert is_floating(og.float16) and is_floating(og.float64)
    assert not is_floating(og.int32) and not is_floating(og.bool_)
