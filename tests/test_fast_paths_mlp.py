"""The fast paths of the MLP training step (issue 11's first row: matmul, add, tanh,
cross_entropy, their grads, the leaves' accumulation and the in-place SGD update) give what
the general paths give: the same values bit for bit (signed zeros included), the same
dtypes, and gradient buffers that alias no input, no other gradient and no parameter."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.kernels.generic import nn as nn_kernels

RNG = np.random.default_rng(2026)


def _same(a, b) -> None:
    """Same class, shape, dtype and bits (signed zeros and NaNs' sign bits included)."""
    assert a.__class__ is b.__class__ is np.ndarray
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.array_equal(a, b, equal_nan=True)
    assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def _general(monkeypatch) -> None:
    """Switch cross_entropy's fast path off: its kernels then take the general path."""
    monkeypatch.setattr(nn_kernels, "_plain_labels", lambda *args: None)


# --- cross_entropy and its gradient --------------------------------------------------------


def _logits(n: int, c: int, dtype, kind: str) -> np.ndarray:
    x = RNG.standard_normal((n, c)) * 3
    if kind == "spread":  # probabilities below 2**-30 and subnormal ones (the float32 scaling's edge)
        x = x * 40
    elif kind == "zeros":  # rows whose maximum is 0.0 and -0.0 at once (the row maximum's tie)
        x = -np.abs(x)
        x[:, ::3] = 0.0
        x[::2, 1::3] = -0.0
        x[1::2, ::3] = -0.0
    elif kind == "special":
        x[0, 1] = np.nan
        x[1, :] = -np.inf
        x[2, 0] = np.inf
        x[3, :] = 0.0
    return x.astype(dtype)


CASES = [(32, 10), (8, 4), (9, 32), (7, 5), (32, 3), (40, 33), (1, 10)]  # the row-max copy and not


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("shape", CASES)
@pytest.mark.parametrize("kind", ["normal", "spread", "zeros", "special"])
def test_cross_entropy_fast_path_is_the_general_path(monkeypatch, dtype, reduction, shape, kind) -> None:
    n, c = shape
    if kind == "special" and n < 4:
        pytest.skip("needs 4 rows")
    x = _logits(n, c, dtype, kind)
    label = RNG.integers(0, c, n)
    grads = [np.asarray(g, dtype=dtype) for g in (1.0, 0.5, 2.0**-7, -0.25, -3.0, 0.0, RNG.standard_normal())]
    assert nn_kernels._plain_labels(x, label, -1, reduction, -100, 0.0) is label  # the fast path runs
    with np.errstate(all="ignore"):
        fast = nn_kernels.cross_entropy(x, label, -1, reduction)
        fast_grads = [nn_kernels.cross_entropy_grad(x, label, g, -1, reduction) for g in grads]
        _general(monkeypatch)
        _same(fast, nn_kernels.cross_entropy(x, label, -1, reduction))
        for g, fast_grad in zip(grads, fast_grads, strict=True):
            _same(fast_grad, nn_kernels.cross_entropy_grad(x, label, g, -1, reduction))
            assert not np.shares_memory(fast_grad, x) and not np.shares_memory(fast_grad, g)


def test_cross_entropy_zero_loss_keeps_the_general_path_sign(monkeypatch) -> None:
    # every row certain of its label: each loss is a zero whose sign the general path's
    # -(picked - log_sum) sets and the fast path's log_sum - picked does not; the sums agree
    # because NumPy sums zeros to 0.0 whatever their signs (nn.py `_plain_loss_sum`)
    assert not np.signbit(np.add.reduce(np.full(3, -0.0, np.float32)))
    for n, top in itertools.product((1, 2, 3, 16), (0.0, -0.0)):
        x = np.full((n, 6), -np.inf, dtype=np.float32)
        x[:, 2] = top
        x[::2, 2] = -top
        label = np.full(n, 2)
        fast = [nn_kernels.cross_entropy(x, label, -1, r) for r in ("mean", "sum")]
        with monkeypatch.context() as m:
            _general(m)
            for r, f in zip(("mean", "sum"), fast, strict=True):
                _same(f, nn_kernels.cross_entropy(x, label, -1, r))


@pytest.mark.parametrize("layout", ["fortran", "strided", "transposed"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cross_entropy_fast_path_on_non_contiguous_logits(monkeypatch, layout, dtype) -> None:
    base = RNG.standard_normal((32, 20)).astype(dtype)
    x = {
        "fortran": np.asfortranarray(base[:, :10]),
        "strided": base[:, ::2],
        "transposed": base[:10].T,  # (20, 10) with the rows as columns
    }[layout]
    label = RNG.integers(0, x.shape[1], x.shape[0]).astype(np.int32)
    g = np.asarray(1.0, dtype=dtype)
    assert nn_kernels._plain_labels(x, label, -1, "mean", -100, 0.0) is label
    fast, fast_grad = nn_kernels.cross_entropy(x, label), nn_kernels.cross_entropy_grad(x, label, g)
    _general(monkeypatch)
    _same(fast, nn_kernels.cross_entropy(x, label))
    _same(fast_grad, nn_kernels.cross_entropy_grad(x, label, g))


def test_cross_entropy_row_starts_are_read_only_and_bounded() -> None:
    for n in range(1, 40):
        starts = nn_kernels._row_starts(n, 7)
        assert not starts.flags.writeable
        assert np.array_equal(starts, np.arange(0, 7 * n, 7))
    assert len(nn_kernels._STARTS) <= 16


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_fast_path_gradients_against_finite_differences(reduction) -> None:
    label = og.tensor(RNG.integers(0, 10, 12))
    x = og.tensor(RNG.standard_normal((12, 10)), requires_grad=True)
    assert nn_kernels._row_max(x.numpy()).shape == (12, 1)
    f = lambda z: og.nn.functional.cross_entropy(z, label, reduction=reduction)  # noqa: E731
    assert og.testing.gradcheck(f, (x,))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8])
def test_cross_entropy_label_range_check_by_argmax(dtype) -> None:
    x = RNG.standard_normal((6, 5)).astype(np.float32)
    good = np.array([0, 4, 2, 1, 3, 0], dtype=dtype)
    assert nn_kernels._plain_labels(x, good, -1, "mean", -100, 0.0) is good
    info = np.iinfo(dtype)
    for bad in {5, info.max, -1, info.min} - ({-1, info.min} if info.min == 0 else set()):
        lab = good.copy()
        lab[3] = bad
        assert nn_kernels._plain_labels(x, lab, -1, "mean", -100, 0.0) is None, bad
