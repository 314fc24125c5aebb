"""cross_entropy's plain path in C (runtime/_speedups.c's cross_entropy section, bound in
runtime/kernels/generic/nn.py as `_PLAIN_C` and `_PLAIN_GRAD_C`) gives what the Python paths
give, bit for bit: the loss, the saved softmax and the gradient, for every call it takes; it
returns None for every call it does not take (then the Python runs, errors and warnings
included). Tests that call the C functions skip without the C build (OPGRAD_PURE=1); the
end-to-end ones run both ways."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.kernels.generic import nn as nn_kernels

needs_c = pytest.mark.skipif(nn_kernels._PLAIN_C is None, reason="needs the C build: tools/build_speedups.py")
LABEL_DTYPES = [np.dtype(c) for c in "bhilqBHILQ"]


def _same(a, b) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes(), (a, b)


def _python(monkeypatch, general: bool = False) -> None:
    """The kernels without their C path (general: without the Python fast path either)."""
    monkeypatch.setattr(nn_kernels, "_PLAIN_C", None)
    monkeypatch.setattr(nn_kernels, "_PLAIN_GRAD_C", None)
    if general:
        monkeypatch.setattr(nn_kernels, "_plain_labels", lambda *args: None)


def _both_ways(monkeypatch, run):
    """run() as the kernels are, then on their general Python path."""
    results = [run()]
    with monkeypatch.context() as m:
        _python(m, True)
        results.append(run())
    return results


def _logits(rng, shape, dtype, scale):
    x = rng.standard_normal(shape) * scale
    x[rng.random(shape) < 0.1] = 0.0  # ties at a row's maximum, zeros of both signs
    x[rng.random(shape) < 0.05] = -0.0
    return x.astype(dtype)


def _reference(monkeypatch, general, x, label, reduction, g):
    with monkeypatch.context() as m:
        _python(m, general)
        loss, prob = nn_kernels.cross_entropy_and_prob(x, label, -1, reduction)
        grad = nn_kernels.cross_entropy_grad_saved(x, label, prob, g, -1, reduction)
    return loss, prob, grad


@needs_c
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("scale", [0.01, 1.0, 8.0, 30.0])
def test_c_plain_path_is_the_python_paths_bit_for_bit(monkeypatch, dtype, reduction, scale) -> None:
    rng = np.random.default_rng(7)
    shapes = [(1, 1), (1, 10), (32, 10), (3, 7), (8, 8), (9, 17), (300, 3), (5, 129), (4, 300), (64, 33)]
    ran = 0
    for (n, c), label_dtype in itertools.product(shapes, LABEL_DTYPES):
        if c > np.iinfo(label_dtype).max:
            continue
        x = _logits(rng, (n, c), dtype, scale)
        label = rng.integers(0, c, n).astype(label_dtype)
        weight = 1.0 if reduction == "sum" else float(n)  # a power-of-two weight or not, with n
        for g in (np.asarray(weight, dtype), np.asarray(0.3, dtype), np.asarray(-2.0, np.float64)):
            # the C path runs, but where an exp or divide underflows (logits far apart)
            assert nn_kernels._PLAIN_C(x, label, -1, reduction, -100, 0.0) is not None or scale == 30.0
            both = nn_kernels.cross_entropy_and_prob(x, label, -1, reduction)
            ran += nn_kernels._PLAIN_GRAD_C(x, label, both[1], g, -1, reduction, -100, 0.0) is not None
            grad = nn_kernels.cross_entropy_grad_saved(x, label, both[1], g, -1, reduction)
            assert not np.shares_memory(grad, both[1]) and not np.shares_memory(grad, x)
            for general in (False, True):
                loss, prob, ref_grad = _reference(monkeypatch, general, x, label, reduction, g)
                _same(both[0], loss)
                if not general:  # (the general path saves no softmax)
                    _same(both[1], prob)
                _same(grad, ref_grad)
    assert ran > 100


@needs_c
def test_c_plain_path_axis_one_sum_and_other_arguments() -> None:
    x = np.random.default_rng(1).standard_normal((6, 4)).astype(np.float32)
    label = np.array([0, 1, 2, 3, 0, 1])
    ref = nn_kernels._PLAIN_C(x, label, -1, "mean", -100, 0.0)
    for axis, ignore, smoothing in [(1, -100, 0.0), (-1, 4, 0.0), (-1, 2**70, 0), (-1, -1, 0.0)]:
        both = nn_kernels._PLAIN_C(x, label, axis, "mean", ignore, smoothing)
        _same(both[0], ref[0])
        _same(both[1], ref[1])


@needs_c
def test_c_plain_path_declines_other_calls() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 4)).astype(np.float32)
    label = np.array([0, 1, 2, 3, 0, 1])
    declined = [
        (x.astype(np.float16), label, -1, "mean", -100, 0.0),
        (np.asfortranarray(x), label, -1, "mean", -100, 0.0),  # not C-contiguous
        (x[:, ::2], label, -1, "mean", -100, 0.0),
        (x.astype(">f4"), label, -1, "mean", -100, 0.0),
        (x, label.astype(">i8"), -1, "mean", -100, 0.0),  # another byte order: the general path
        (x, label.astype(np.float32), -1, "mean", -100, 0.0),
        (x, label.astype(bool), -1, "mean", -100, 0.0),
        (x, label[:5], -1, "mean", -100, 0.0),
        (x, label.reshape(6, 1), -1, "mean", -100, 0.0),
        (x, label, 0, "mean", -100, 0.0),
        (x, label, 2**70, "mean", -100, 0.0),
        (x, label, -1, "none", -100, 0.0),
        (x, label, -1, "Mean", -100, 0.0),
        (x, label, -1, "mean", 3, 0.0),  # an ignore_index a label may equal
        (x, label, -1, "mean", 0, 0.0),
        (x, label, -1, "mean", -100, 0.1),
        (x, label, -1, "mean", -100, 1),
        (x, label, -1, "mean", np.int64(-100), 0.0),
        (x[:0], label[:0], -1, "mean", -100, 0.0),
        (x.reshape(6, 4, 1), label.reshape(6, 1), -1, "mean", -100, 0.0),
        (x.tolist(), label, -1, "mean", -100, 0.0),
    ]
    for bad in (4, -1, 2**40, -(2**40)):
        lab = label.astype(np.int64)
        lab[3] = bad
        declined.append((x, lab, -1, "mean", -100, 0.0))
        declined.append((x, lab.view(np.uint64), -1, "mean", -100, 0.0))
    for value in (np.nan, np.inf, -np.inf):  # (the grad reads prob, not the logits)
        y = x.copy()
        y[2, 1] = value
        assert nn_kernels._PLAIN_C(y, label, -1, "mean", -100, 0.0) is None
    for args in declined:
        assert nn_kernels._PLAIN_C(*args) is None, args
    ref = nn_kernels._PLAIN_C(x, label, -1, "mean", -100, 0.0)[0]
    for other in (">i8", ">u2", "<i8", "q", "Q"):  # the loss is the native labels' all the same
        _same(nn_kernels.cross_entropy_and_prob(x, label.astype(other))[0], ref)
    loss, prob = nn_kernels._PLAIN_C(x, label, -1, "mean", -100, 0.0)
    g = np.asarray(1.0, np.float32)
    for args in declined:
        if isinstance(args[0], np.ndarray) and args[0].shape == prob.shape and args[0].dtype == prob.dtype:
            assert nn_kernels._PLAIN_GRAD_C(args[0], args[1], prob, g, *args[2:]) is None, args
    declined_grads = [
        (x, label, prob.astype(np.float64), g),
        (x, label, prob[:5], g),
        (x, label, np.asfortranarray(prob), g),
        (x, label, prob, np.asarray([1.0], np.float32)),
        (x, label, prob, np.asarray(1.0, np.float16)),
        (x, label, prob, np.asarray(np.nan, np.float32)),
        (x, label, prob, np.asarray(np.inf)),
        (x, label, np.where(prob > 0.5, np.nan, prob).astype(np.float32), g),
        (x, label, prob, 1.0),
    ]
    for args in declined_grads:
        assert nn_kernels._PLAIN_GRAD_C(*args, -1, "mean", -100, 0.0) is None, args


@needs_c
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_c_plain_path_floating_point_flags_send_calls_to_python(monkeypatch, dtype) -> None:
    # logits far apart: the exp underflows (NumPy's exp, under its error state), and so does
    # the C divide (e / sum): C gives None, and the Python path does what NumPy does
    big = 95.0 if dtype == np.float32 else 709.7  # (an inexact quotient)
    x = np.array([[0.0, 0.0, 0.0, -big], [1.0, 2.0, 3.0, 4.0]], dtype)
    label = np.array([1, 2])
    assert nn_kernels._PLAIN_C(x, label, -1, "mean", -100, 0.0) is None
    assert nn_kernels._PLAIN_C(x[:, :3].copy(), label, -1, "mean", -100, 0.0) is not None
    loss, prob = nn_kernels.cross_entropy_and_prob(x, label)
    ref_loss, ref_prob, _ = _reference(monkeypatch, False, x, label, "mean", np.asarray(1.0, dtype))
    _same(loss, ref_loss)
    _same(prob, ref_prob)
    with np.errstate(under="raise"), pytest.raises(FloatingPointError):
        nn_kernels.cross_entropy_and_prob(x, label)
    huge = np.finfo(dtype).max
    x = np.array([[huge, -huge]], dtype)  # the shift overflows: NumPy warns
    assert nn_kernels._PLAIN_C(x, np.array([0]), -1, "mean", -100, 0.0) is None
    with pytest.warns(RuntimeWarning, match="overflow"):
        nn_kernels.cross_entropy_and_prob(x, np.array([0]))
    # a weight whose product with a probability underflows
    x = np.array([[0.0, -60.0], [0.0, 0.0]], dtype)
    loss, prob = nn_kernels._PLAIN_C(x, np.array([0, 1]), -1, "sum", -100, 0.0)
    tiny = np.asarray(np.finfo(dtype).tiny, dtype)
    assert nn_kernels._PLAIN_GRAD_C(x, np.array([0, 1]), prob, tiny, -1, "sum", -100, 0.0) is None
    with np.errstate(under="raise"), pytest.raises(FloatingPointError):
        nn_kernels.cross_entropy_grad_saved(x, np.array([0, 1]), prob, tiny, -1, "sum")


def _op_run(x, label, **kwargs):
    z = og.tensor(x, requires_grad=True)
    loss = og.nn.functional.cross_entropy(z, og.tensor(label), **kwargs)
    loss.backward()
    return loss.numpy().copy(), z.grad.numpy().copy()


CASES = [
    dict(),
    dict(reduction="sum"),
    dict(reduction="none"),
    dict(ignore_index=2),
    dict(label_smoothing=0.2),
    dict(axis=0),
]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("kwargs", CASES)
@pytest.mark.parametrize("label_dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8])  # a tensor's
def test_the_op_with_and_without_c_bit_for_bit(monkeypatch, dtype, kwargs, label_dtype) -> None:
    rng = np.random.default_rng(3)
    x = _logits(rng, (5, 12) if kwargs.get("axis") == 0 else (12, 5), dtype, 3.0)  # 5 classes
    label = rng.integers(0, 5, 12).astype(label_dtype)
    fast = _op_run(x, label, **kwargs)
    for general in (False, True):
        with monkeypatch.context() as m:
            _python(m, general)
            ref = _op_run(x, label, **kwargs)
        _same(fast[0], ref[0])
        _same(fast[1], ref[1])


@pytest.mark.parametrize("label_dtype", [np.int64, np.uint8, np.int32])
def test_out_of_range_labels_raise_the_same_error_before_anything_changes(monkeypatch, label_dtype) -> None:
    x = np.random.default_rng(4).standard_normal((4, 3)).astype(np.float32)
    for bad in (3, 200, -1):
        label = np.array([0, 1, 2, 0]).astype(np.int64)
        label[2] = bad
        label = label.astype(label_dtype)

        def run(label=label):
            z = og.tensor(x, requires_grad=True)
            with pytest.raises((IndexError, ValueError)) as e:
                og.nn.functional.cross_entropy(z, og.tensor(label))
            assert z.grad is None and z._version == 0
            return type(e.value), str(e.value)

        errors = _both_ways(monkeypatch, run)
        assert errors[0] == errors[1]


def test_labels_changed_between_forward_and_backward(monkeypatch) -> None:
    # the grad reads the labels again: a change not seen by their version counter (the
    # array written directly) gives what the Python paths give
    x = np.random.default_rng(5).standard_normal((8, 4))

    def run():
        z = og.tensor(x, requires_grad=True)
        y = og.tensor(np.array([0, 1, 2, 3, 0, 1, 2, 3]))
        loss = og.nn.functional.cross_entropy(z, y)
        y._data[0] = 3  # in range: the grad of the new labels
        loss.backward(retain_graph=True)
        first = z.grad.numpy().copy()
        y._data[1] = 4  # out of range: the grad's error
        with pytest.raises((IndexError, ValueError)) as e:
            loss.backward()
        return first, type(e.value), str(e.value)

    results = _both_ways(monkeypatch, run)
    _same(results[0][0], results[1][0])
    assert results[0][1:] == results[1][1:]


def test_labels_changed_in_place_by_an_op_are_refused() -> None:
    z = og.tensor(np.zeros((4, 3)), requires_grad=True)
    y = og.tensor(np.array([0, 1, 2, 0]))
    loss = og.nn.functional.cross_entropy(z, y)
    y.fill_(1)
    with pytest.raises(RuntimeError):
        loss.backward()


def test_retained_graph_gives_the_same_gradient_twice() -> None:
    x = np.random.default_rng(6).standard_normal((32, 10)).astype(np.float32)
    z = og.tensor(x, requires_grad=True)
    loss = og.nn.functional.cross_entropy(z, og.tensor(np.arange(32) % 10))
    loss.backward(retain_graph=True)
    first = z.grad.numpy().copy()
    z.grad = None
    loss.backward()
    _same(z.grad.numpy(), first)
    assert not np.shares_memory(z.grad.numpy(), x)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("n", [4, 5])  # the mean's weight a power of two, or not
def test_gradients_against_finite_differences(reduction, n) -> None:
    rng = np.random.default_rng(8)
    x = rng.standard_normal((n, 6))
    label = og.tensor(rng.integers(0, 6, n))
    z = og.tensor(x, requires_grad=True)
    og.nn.functional.cross_entropy(z, label, reduction=reduction).backward()

    def f(v):
        return float(og.nn.functional.cross_entropy(og.tensor(v), label, reduction=reduction).numpy())

    h = 1e-6
    for direction in [*np.eye(x.size).reshape(-1, *x.shape), *rng.standard_normal((3, *x.shape))]:
        numeric = (f(x + h * direction) - f(x - h * direction)) / (2 * h)
        assert abs(numeric - float((z.grad.numpy() * direction).sum())) < 1e-7


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_python_fast_path_uint64_labels_and_negative_weights(monkeypatch, dtype) -> None:
    # uint64 labels (int64 row starts plus uint64 made float64 indices) and a negative weight
    # where a probability is 1 ((p - 1) * w is -0.0, p * w - w was +0.0): the general path's bits
    x = np.array([[0.0, -200.0], [3.0, 1.0], [0.0, 0.0], [1.0, 2.0]], dtype)
    for label_dtype, reduction, g in itertools.product(["L", "Q"], ["mean", "sum"], [-2.0, -0.25, 1.0, 0.3]):
        label = np.array([0, 1, 1, 0], label_dtype)
        out_grad = np.asarray(g, dtype)
        got = _reference(monkeypatch, False, x, label, reduction, out_grad)
        ref = _reference(monkeypatch, True, x, label, reduction, out_grad)
        _same(got[0], ref[0])
        _same(got[2], ref[2])
        assert nn_kernels._plain_labels(x, label, -1, reduction, -100, 0.0) is not None
