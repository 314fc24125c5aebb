"""The MLP training step's fast paths (issue 11): grad mode's spelled-out no_grad and its
lock-free count of threads with grad mode off, the leaf accumulators, cross_entropy's saved
softmax. Each is checked to do what the general path does."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import grad_mode


def _off_count() -> int:
    return len(grad_mode._OFF)


def test_no_grad_same_instance_reentered_restores_each_level():
    ctx = og.no_grad()
    with ctx:
        assert not og.is_grad_enabled()
        with og.enable_grad():
            assert og.is_grad_enabled()
            with ctx:  # entered again, with grad mode on: restores on
                assert not og.is_grad_enabled()
            assert og.is_grad_enabled()
        with ctx:  # entered again with grad mode off: stays off after
            assert not og.is_grad_enabled()
        assert not og.is_grad_enabled()
    assert og.is_grad_enabled() and _off_count() == 0


def test_every_context_nests_in_every_other_and_the_count_stays_exact():
    makers = [
        og.no_grad,
        og.enable_grad,
        lambda: og.set_grad_enabled(False),
        lambda: og.set_grad_enabled(True),
    ]
    modes = [False, True, False, True]
    for i, outer in enumerate(makers):
        for j, inner in enumerate(makers):
            for start in (True, False):
                og.set_grad_enabled(start)
                try:
                    with outer():
                        assert og.is_grad_enabled() is modes[i]
                        with inner():
                            assert og.is_grad_enabled() is modes[j]
                            assert _off_count() == (0 if modes[j] else 1)
                        assert og.is_grad_enabled() is modes[i]
                    assert og.is_grad_enabled() is start
                    assert _off_count() == (0 if start else 1)
                finally:
                    og.set_grad_enabled(True)
    assert _off_count() == 0


def test_no_grad_exit_after_mode_changed_inside_the_block():
    with og.no_grad():
        og.set_grad_enabled(True)  # a plain call inside: exit still restores "on"
        assert og.is_grad_enabled()
    assert og.is_grad_enabled() and _off_count() == 0
    og.set_grad_enabled(False)
    try:
        with og.no_grad():
            og.set_grad_enabled(True)
        assert not og.is_grad_enabled() and _off_count() == 1  # restored "off"
    finally:
        og.set_grad_enabled(True)
    assert _off_count() == 0


def test_no_grad_restores_after_exception_and_as_decorator():
    @og.no_grad()
    def f(fail):
        if fail:
            raise KeyError("x")
        return og.is_grad_enabled()

    assert f(False) is False
    with pytest.raises(KeyError):
        f(True)
    assert og.is_grad_enabled() and _off_count() == 0


def test_set_enabled_takes_truth_and_returns_previous():
    from opgrad.runtime.grad_mode import _set_enabled

    assert _set_enabled(0) is True and _off_count() == 1
    assert _set_enabled([]) is False and _off_count() == 1  # already off: counted once
    assert _set_enabled(1) is False and og.is_grad_enabled() and _off_count() == 0
    assert _set_enabled("yes") is True and _off_count() == 0


def test_many_threads_toggling_keep_the_count_exact_and_modes_per_thread():
    errors = []

    def work(k):
        try:
            for n in range(2000):
                if (n + k) % 3 == 0:
                    with og.no_grad():
                        if og.is_grad_enabled():
                            errors.append("on inside no_grad")
                        with og.enable_grad():
                            if not og.is_grad_enabled():
                                errors.append("off inside enable_grad")
                elif (n + k) % 3 == 1:
                    prev = grad_mode._set_enabled(False)
                    if og.is_grad_enabled():
                        errors.append("on after _set_enabled(False)")
                    grad_mode._set_enabled(prev)
                elif not og.is_grad_enabled():
                    errors.append("off outside any block")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert _off_count() == 0 and og.is_grad_enabled()


def test_a_thread_with_grad_off_does_not_switch_another_thread():
    inside = threading.Event()
    release = threading.Event()
    seen = []

    def off():
        with og.no_grad():
            inside.set()
            release.wait(10)
            seen.append(og.is_grad_enabled())

    t = threading.Thread(target=off)
    t.start()
    inside.wait(10)
    assert og.is_grad_enabled() and _off_count() == 1  # this thread: still on
    x = og.tensor(np.ones(2), requires_grad=True)
    assert (x * x).requires_grad
    release.set()
    t.join()
    assert seen == [False] and _off_count() == 0


# --- cross_entropy's saved softmax ---------------------------------------------------------

from opgrad.runtime.kernels.generic import nn as nn_kernels  # noqa: E402

RNG = np.random.default_rng(11)


def _same(a, b) -> None:
    """Same class, shape, dtype and bits (NaN equal to NaN)."""
    assert a.__class__ is b.__class__ is np.ndarray
    assert a.shape == b.shape and a.dtype == b.dtype
    assert a.tobytes() == b.tobytes()


def _logits(dtype, n=9, c=6, layout="C", scale=4.0):
    x = (RNG.standard_normal((n, c)) * scale).astype(dtype)
    return np.asfortranarray(x) if layout == "F" else x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("layout", ["C", "F"])
def test_saved_prob_kernels_give_the_old_kernels_bits(dtype, reduction, layout):
    x = _logits(dtype, layout=layout)
    label = RNG.integers(0, 6, 9)
    x[2, 3] = x[2].max() + 0.0  # a tie
    x[4] = 0.0  # a row whose maximum is zero
    loss, prob = nn_kernels.cross_entropy_and_prob(x, label, -1, reduction)
    _same(loss, nn_kernels.cross_entropy(x, label, -1, reduction))
    _same(prob, nn_kernels._softmax_rows(x))
    kept = prob.copy()
    for g in (1.0, 0.37, -2.0, 3.0e-3):  # exact scales and not (float64 steps)
        g = np.asarray(g, dtype=dtype)
        grad = nn_kernels.cross_entropy_grad_saved(x, label, prob, g, -1, reduction)
        _same(grad, nn_kernels.cross_entropy_grad(x, label, g, -1, reduction))
        _same(prob, kept)  # never written: retain_graph runs the grad again
        assert not np.shares_memory(grad, prob) and not np.shares_memory(grad, x)


def test_saved_prob_is_empty_where_the_forward_does_not_compute_it():
    label = RNG.integers(0, 6, 9)
    cases = [
        (_logits(np.float16), label, -1, "mean", -100, 0.0),  # float16: computed in float32
        (_logits(np.float32), label, -1, "none", -100, 0.0),
        (_logits(np.float32), label, -1, "mean", 2, 0.0),  # an ignore_index a label can be
        (_logits(np.float32), label, -1, "mean", -100, 0.1),
        (_logits(np.float64).T.copy(), label, 0, "sum", -100, 0.0),  # classes on axis 0
        (RNG.standard_normal((3, 4, 5)), RNG.integers(0, 4, (3, 5)), 1, "mean", -100, 0.0),
    ]
    for x, lab, axis, reduction, ignore, smooth in cases:
        loss, prob = nn_kernels.cross_entropy_and_prob(x, lab, axis, reduction, ignore, smooth)
        _same(loss, nn_kernels.cross_entropy(x, lab, axis, reduction, ignore, smooth))
        assert prob.shape == (0,)
        g = np.ones(loss.shape, dtype=loss.dtype) * np.asarray(0.5, dtype=loss.dtype)
        _same(
            nn_kernels.cross_entropy_grad_saved(x, lab, prob, g, axis, reduction, ignore, smooth),
            nn_kernels.cross_entropy_grad(x, lab, g, axis, reduction, ignore, smooth),
        )


def _ce_grads(x_data, label, reduction="mean", steps=1, **kw):
    x = og.tensor(x_data, requires_grad=True)
    loss = og.cross_entropy(x, og.tensor(label), reduction=reduction, **kw)
    grads = []
    for _ in range(steps):
        x.grad = None
        (loss.sum() if reduction == "none" else loss).backward(retain_graph=True)
        grads.append(x.grad._data)
    return loss._data, grads


def _without_saving(monkeypatch):
    monkeypatch.setattr(nn_kernels, "_SAVED_PROB_DTYPES", ())


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"reduction": "sum"},
        {"reduction": "none"},
        {"ignore_index": 1},
        {"label_smoothing": 0.2},
    ],
)
def test_cross_entropy_backward_same_bits_with_and_without_the_saved_softmax(monkeypatch, dtype, kw):
    x = _logits(dtype)
    label = RNG.integers(0, 6, 9)
    loss, grads = _ce_grads(x, label, steps=2, **kw)  # twice: the saved softmax is reused
    _without_saving(monkeypatch)
    loss0, grads0 = _ce_grads(x, label, steps=2, **kw)
    _same(loss, loss0)
    for g, g0 in zip(grads, grads0, strict=True):
        _same(g, g0)
    assert not np.shares_memory(grads[0], grads[1]) and not np.shares_memory(grads[0], x)


def test_the_softmax_is_kept_only_on_a_recorded_node_and_released_by_backward():
    x = og.tensor(_logits(np.float32))
    label = og.tensor(RNG.integers(0, 6, 9))
    assert og.cross_entropy(x, label).grad_fn is None  # no node: nothing kept
    with og.no_grad():
        assert og.cross_entropy(og.tensor(x._data, requires_grad=True), label).grad_fn is None
    xr = og.tensor(x._data, requires_grad=True)
    loss = og.cross_entropy(xr, label)
    node = loss.grad_fn
    assert node.prob is not None
    loss.backward()
    assert node.prob is None  # released with the other saved tensors


def _higher_order(x_data, label, kw):
    x = og.tensor(x_data, requires_grad=True)
    loss = og.cross_entropy(x, og.tensor(label), **kw)
    (g,) = og.autograd.grad(loss, x, create_graph=True)
    v = og.tensor(np.linspace(-1, 1, g.numel()).reshape(g.shape).astype(x_data.dtype))
    (h,) = og.autograd.grad((g * v).sum(), x, create_graph=True)
    w = og.tensor(np.cos(np.arange(h.numel())).reshape(h.shape).astype(x_data.dtype))
    (t,) = og.autograd.grad((h * h * w).sum(), x)
    return g._data, h._data, t._data


@pytest.mark.parametrize("kw", [{}, {"reduction": "sum"}, {"label_smoothing": 0.1}])
def test_higher_orders_same_bits_with_and_without_the_saved_softmax(monkeypatch, kw):
    x = _logits(np.float64, n=5, c=4)
    label = RNG.integers(0, 4, 5)
    got = _higher_order(x, label, kw)
    _without_saving(monkeypatch)
    for a, b in zip(got, _higher_order(x, label, kw), strict=True):
        _same(a, b)


def test_gradients_against_finite_differences_through_third_order():
    from opgrad.runtime.testing import gradcheck, gradgradcheck

    x = og.tensor(_logits(np.float64, n=4, c=3, scale=1.0), requires_grad=True)
    label = og.tensor(np.array([0, 2, 1, 2]))
    assert gradcheck(lambda a: og.cross_entropy(a, label), (x,))
    assert gradgradcheck(lambda a: og.cross_entropy(a, label), (x,))

    def grad_of(a):  # cross_entropy's gradient; its gradgradcheck runs the third order
        (g,) = og.autograd.grad(og.cross_entropy(a, label), a, create_graph=True)
        return g

    assert gradgradcheck(grad_of, (x,))


def test_forward_mode_same_bits_with_and_without_the_saved_softmax(monkeypatch):
    x = og.tensor(_logits(np.float64, n=5, c=4))
    label = og.tensor(RNG.integers(0, 4, 5))
    t = og.tensor(np.sin(np.arange(20.0)).reshape(5, 4))
    out, tan = og.func.jvp(lambda a: og.cross_entropy(a, label), (x,), (t,))
    _without_saving(monkeypatch)
    out0, tan0 = og.func.jvp(lambda a: og.cross_entropy(a, label), (x,), (t,))
    _same(out._data, out0._data)
    _same(tan._data, tan0._data)


def test_set_grad_enabled_decorating_after_its_with_block_leaves_the_mode_alone():
    ctx = og.set_grad_enabled(False)
    with ctx:
        assert not og.is_grad_enabled()
    assert og.is_grad_enabled()
    og.set_grad_enabled(False)
    try:
        f = ctx(lambda: og.is_grad_enabled())  # its switch was undone already: no switch now
        assert not og.is_grad_enabled()
        with og.enable_grad():
            assert f() is False and og.is_grad_enabled()
    finally:
        og.set_grad_enabled(True)
    assert _off_count() == 0
