"""The conversion of generated ops' non-tensor arguments (runtime/arguments.py), through the
ops that take each kind: what is accepted, what it becomes, and the message of a refusal."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import arguments


def test_a_long_refused_value_is_shortened_in_the_message():
    x = og.tensor([1.0, 2.0])
    with pytest.raises(TypeError) as info:
        og.scale(x, "a" * 60)
    message = str(info.value)
    assert message.startswith("scale: scale must be a number (int, float or bool), got str 'aaa")
    assert message.endswith("...")
    assert "a" * 45 not in message  # repr cut to 37 characters plus the ellipsis


def test_scalar_arguments_accept_numbers_and_bools_and_refuse_the_rest():
    x = og.tensor([1.0, 2.0], dtype="float64")
    np.testing.assert_array_equal(og.scale(x, np.float32(2.0), np.int64(1)).numpy(), [3.0, 5.0])
    np.testing.assert_array_equal(og.scale(x, True).numpy(), [1.0, 2.0])
    for bad in ("2", None, [2.0], og.tensor(2.0)):
        with pytest.raises(TypeError, match=r"scale: scale must be a number \(int, float or bool\)"):
            og.scale(x, bad)
    with pytest.raises(TypeError, match=r"use \.item\(\) for a one-element tensor"):
        og.scale(x, og.tensor(2.0))


def test_string_arguments_refuse_non_strings_and_accept_str_subclasses():
    x = og.tensor([1.0, 2.0], dtype="float64")
    y = og.tensor([0.0, 0.0], dtype="float64")
    with pytest.raises(TypeError, match="mse_loss: reduction must be a string, got int 3"):
        og.mse_loss(x, y, reduction=3)

    class Name(str):
        pass

    assert og.mse_loss(x, y, reduction=Name("sum")).item() == 5.0


def test_an_unhashable_dtype_like_is_converted_and_not_cached():
    class DtypeLike:  # NumPy reads any object with a .dtype attribute; this one cannot be hashed
        __hash__ = None
        dtype = np.dtype("float64")

    x = og.tensor([1.5, 2.5], dtype="float32")
    before = dict(arguments._DTYPES)
    y = og.cast(x, DtypeLike())
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y.numpy(), [1.5, 2.5])
    assert arguments._DTYPES == before


def test_the_dtype_cache_is_bounded(monkeypatch):
    full = {f"name{i}": np.dtype("float32") for i in range(256)}
    monkeypatch.setattr(arguments, "_DTYPES", full)
    x = og.tensor([1.0], dtype="float32")
    assert og.cast(x, "float64").dtype == np.float64
    assert len(full) == 256 and "float64" not in full
    monkeypatch.setattr(arguments, "_DTYPES", {})
    assert og.cast(x, "float64").dtype == np.float64
    assert arguments._DTYPES == {"float64": np.dtype("float64")}


def test_a_refused_dtype_names_the_op():
    x = og.tensor([1.0])
    with pytest.raises(TypeError, match="cast: dtype: unsupported dtype 'foo'"):
        og.cast(x, "foo")
    with pytest.raises(TypeError, match=r"cast: dtype: unsupported dtype \['float32'\]"):
        og.cast(x, ["float32"])  # unhashable and refused
