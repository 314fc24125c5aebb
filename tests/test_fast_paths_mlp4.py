"""The MLP step's fourth round (issue 11) gives what the general paths give: the same bits
(signed zeros and NaN payloads included), the same dtypes, and gradient buffers that alias
no input, no other gradient and no saved array.

Covered: cross_entropy's gradient from the forward's saved softmax when its weight is a
power of two (`_plain_grad`: the softmax scaled as it is copied, then the weight subtracted
at each label, in place of copying, subtracting 1 and scaling)."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.kernels.generic import nn as nn_kernels


@pytest.fixture(autouse=True)
def _python_kernels(monkeypatch):
    """These tests are about the Python kernels' fast paths: without cross_entropy's C path
    (tests/test_fast_paths_ce.py compares that one with them), which would otherwise take
    the calls they count."""
    monkeypatch.setattr(nn_kernels, "_PLAIN_C", None)
    monkeypatch.setattr(nn_kernels, "_PLAIN_GRAD_C", None)


RNG = np.random.default_rng(411)


def _same(a, b) -> None:
    """Same class, shape, dtype and bytes."""
    assert a.__class__ is b.__class__ is np.ndarray
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def _general_grad(x, label, g, reduction):
    """cross_entropy_grad's general path (masks, index arrays, float64 steps), whatever the call."""
    saved = nn_kernels._plain_labels
    nn_kernels._plain_labels = lambda *args: None
    try:
        return nn_kernels.cross_entropy_grad(x, label, g, -1, reduction)
    finally:
        nn_kernels._plain_labels = saved


def _logits(dtype, layout, n=12, c=7, scale=4.0):
    x = (RNG.standard_normal((n, c)) * scale).astype(dtype)
    x[2, 3] = x[2].max()  # a tie
    x[4] = 0.0  # a row whose maximum is zero
    x[5, 0] = -0.0
    if n > 7:
        x[6] = np.linspace(-200, 40, c).astype(dtype)  # probabilities far below 2**-25 (and subnormal)
        x[7, 1] = x[7].max() + 90  # one probability 1 and the rest underflowing
    if layout == "F":
        return np.asfortranarray(x)
    if layout == "sliced":
        wide = np.zeros((n, 2 * c), dtype)
        wide[:, ::2] = x
        return wide[:, ::2]
    return x


# the weights out_grad / n (mean, n = 12 or 8) or out_grad (sum): powers of two among them
# (every one under 'sum'), and others that take the float64 steps
_OUT_GRADS = (1.0, -1.0, 0.5, 2.0**-40, -(2.0**50), 2.0**-70, 2.0**70, 12.0, 0.37, -3.0, 0.0, np.inf, np.nan)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("layout", ["C", "F", "sliced"])
@pytest.mark.parametrize("label_dtype", [np.int64, np.int32, np.uint8])
@pytest.mark.parametrize("n", [12, 8])
def test_grad_from_the_saved_softmax_is_the_general_path(dtype, reduction, layout, label_dtype, n):
    x = _logits(dtype, layout)[:n]
    label = RNG.integers(0, 7, n).astype(label_dtype)
    label[6 % n] = 0  # a label at an underflowing probability
    label[7 % n] = 2  # and one beside the probability 1
    loss, prob = nn_kernels.cross_entropy_and_prob(x, label, -1, reduction)
    assert prob.shape == x.shape  # the saved softmax: the path under test
    kept = prob.copy()
    for value in _OUT_GRADS:
        g = np.asarray(value, dtype=dtype)
        with np.errstate(all="ignore"):
            grad = nn_kernels.cross_entropy_grad_saved(x, label, prob, g, -1, reduction)
            want = _general_grad(x, label, g, reduction)
        _same(grad, want)
        assert grad.flags.c_contiguous and grad.flags.writeable
        assert not np.shares_memory(grad, prob) and not np.shares_memory(grad, x)
        _same(prob, kept)  # never written: a retained graph runs the grad again


def test_the_exact_case_is_taken_and_not_for_other_weights(monkeypatch):
    """The test above compares the new steps, not the old ones twice: count the products."""
    calls = []
    real = np.multiply

    def counting(*args, **kw):
        calls.append(args[1])
        return real(*args, **kw)

    x = _logits(np.float32, "C")
    label = RNG.integers(0, 7, 12)
    _, prob = nn_kernels.cross_entropy_and_prob(x, label)
    monkeypatch.setattr(nn_kernels.np, "multiply", counting)
    nn_kernels.cross_entropy_grad_saved(x, label, prob, np.asarray(3.0, np.float32), -1, "mean")
    assert calls == [0.25]
    calls.clear()
    nn_kernels.cross_entropy_grad_saved(x, label, prob, np.asarray(0.37, np.float32), -1, "mean")
    assert calls == []


def test_bad_labels_still_raise_the_general_errors():
    x = _logits(np.float32, "C")
    label = RNG.integers(0, 7, 12)
    _, prob = nn_kernels.cross_entropy_and_prob(x, label)
    g = np.asarray(1.0, np.float32)
    bad = label.copy()
    bad[3] = 7
    with pytest.raises(ValueError, match="label"):
        nn_kernels.cross_entropy_grad_saved(x, bad, prob, g)
    bad[3] = -1
    with pytest.raises(ValueError, match="label"):
        nn_kernels.cross_entropy_grad_saved(x, bad, prob, g)
    with pytest.raises(TypeError, match="integer"):
        nn_kernels.cross_entropy_grad_saved(x, label.astype(np.float32), prob, g)


def test_backward_twice_through_a_retained_graph_gives_private_equal_gradients():
    x = og.tensor(_logits(np.float32, "C"), requires_grad=True)
    label = og.tensor(RNG.integers(0, 7, 12))
    loss = og.cross_entropy(x, label)
    prob = loss.grad_fn.prob
    loss.backward(retain_graph=True)
    first = x.grad
    x.grad = None
    loss.backward()
    _same(first._data, x.grad._data)
    assert not np.shares_memory(first._data, x.grad._data)
    assert not np.shares_memory(first._data, x._data)
    assert prob is not None


def test_cross_entropy_gradient_against_finite_differences():
    from opgrad.runtime.testing import gradcheck

    x = og.tensor(RNG.standard_normal((8, 5)), requires_grad=True)
    label = og.tensor(RNG.integers(0, 5, 8))
    for reduction in ("mean", "sum"):
        assert gradcheck(lambda a, r=reduction: og.cross_entropy(a, label, reduction=r), (x,))
        assert gradcheck(lambda a, r=reduction: og.cross_entropy(a, label, reduction=r) * 4.0, (x,))


# --- _plain_labels: the label dtype looked up once, the maximum read as a Python int -------


def _plain_rule(x, label, axis, reduction, ignore_index) -> bool:
    """When `_plain_labels` may take a call (logits (N, C), float; every argument but these
    plain): integer labels of shape (N,), every one in [0, C), that none equals ignore_index."""
    n, classes = x.shape
    if label.dtype.kind not in "iu" or label.shape != (n,) or axis not in (-1, 1) or reduction == "none":
        return False
    values = [int(v) for v in label.tolist()]
    return all(0 <= v < classes for v in values) and not 0 <= ignore_index < classes


_LABEL_DTYPES = [
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.intc, np.longlong, np.ulonglong, ">i8", ">u4", "<i2", np.bool_, np.float32, np.float64,
]  # fmt: skip


@pytest.mark.parametrize("label_dtype", _LABEL_DTYPES)
def test_plain_labels_takes_the_calls_it_took(label_dtype):
    x = _logits(np.float32, "C", n=6, c=5)
    dt = np.dtype(label_dtype)
    rows = [
        [0, 1, 2, 3, 4, 0],
        [4, 4, 4, 4, 4, 4],
        [0, 0, 0, 0, 0, 0],
        [0, 1, 5, 2, 3, 1],
        [1, 1, 1, 1, 1, 1],
    ]
    if dt.kind in "iub":
        info = np.iinfo(dt) if dt.kind != "b" else None
        if dt.kind == "i":
            rows += [[0, -1, 2, 3, 4, 0], [info.min, 0, 0, 0, 0, 0], [info.max, 0, 0, 0, 0, 0]]
        elif dt.kind == "u":
            rows += [[info.max, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, info.max]]
    for row in rows:
        label = np.array(row, dtype=np.int64 if dt.kind == "f" else object).astype(dt)
        for args in [
            (-1, "mean", -100, 0.0),
            (1, "sum", -100, 0.0),
            (-1, "none", -100, 0.0),
            (-1, "mean", 3, 0.0),
        ]:
            got = nn_kernels._plain_labels(x, label, *args)
            assert got is None or got is label
            want = _plain_rule(x, label, *args[:3])
            if dt.isnative:  # (another byte order may take the general path: it is read as native)
                assert (got is label) == want, (dt, row, args)
            else:
                assert got is None or want, (dt, row, args)
    assert nn_kernels._plain_labels(x, np.zeros(5, dt), -1, "mean", -100, 0.0) is None  # a short label


@pytest.mark.parametrize("label_dtype", [">i8", ">i4", ">u8", ">u2"])
def test_labels_of_another_byte_order_take_the_general_path(label_dtype):
    # 2**(8*(size-1)) in big-endian bytes reads as 1 through a native view: in range for a
    # label that is not (the native-view range check took it for a valid one)
    dt = np.dtype(label_dtype)
    big = 1 << (8 * (dt.itemsize - 1))
    x = _logits(np.float32, "C", n=6, c=5)
    for row in ([big, 0, 0, 0, 0, 0], [0, 1, 2, 3, 4, 0]):
        label = np.array(row, dtype=dt)
        assert nn_kernels._plain_labels(x, label, -1, "mean", -100, 0.0) is None


@pytest.mark.parametrize("label_dtype", [np.int64, np.int32, np.uint8, np.int8])
def test_bad_label_values_raise_the_general_errors_forward_and_backward(label_dtype):
    x = og.tensor(_logits(np.float32, "C", n=6, c=5), requires_grad=True)
    for row in ([0, 1, 5, 2, 3, 1], [0, -1, 2, 3, 4, 0]):
        label = np.array(row).astype(label_dtype)
        if np.dtype(label_dtype).kind == "u" and min(row) < 0:
            continue
        with pytest.raises(ValueError, match="label") as forward:
            og.cross_entropy(x, og.tensor(label))
        with pytest.raises(ValueError, match="label") as kernel:
            nn_kernels.cross_entropy(x._data, label)
        assert str(kernel.value) in str(forward.value)
    good = og.tensor(np.array([0, 1, 4, 2, 3, 1]).astype(label_dtype))
    loss = og.cross_entropy(x, good)
    loss.backward()
    with pytest.raises(TypeError, match="integer"):
        og.cross_entropy(x, og.tensor(np.zeros(6, np.float32)))
