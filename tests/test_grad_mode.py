"""Grad mode: context managers, decorators, set_grad_enabled as a call."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from handmade_ops import mul


def leaf():
    return og.tensor(np.array([2.0]), requires_grad=True)


def test_no_grad_context_records_nothing_and_restores():
    x = leaf()
    with og.no_grad():
        y = mul(x, x)
        assert not og.is_grad_enabled()
    assert og.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None


def test_no_grad_and_enable_grad_as_decorators_and_nested():
    x = leaf()

    @og.no_grad()
    def f():
        with og.enable_grad():
            inner = mul(x, x)
        return inner, mul(x, x)

    inner, outer = f()
    assert inner.requires_grad and not outer.requires_grad
    assert og.is_grad_enabled()


def test_set_grad_enabled_call_context_and_decorator():
    x = leaf()
    og.set_grad_enabled(False)
    try:
        assert not mul(x, x).requires_grad
    finally:
        og.set_grad_enabled(True)
    with og.set_grad_enabled(False):
        assert not og.is_grad_enabled()
    assert og.is_grad_enabled()

    @og.set_grad_enabled(False)
    def f():
        return og.is_grad_enabled()

    assert og.is_grad_enabled()  # decorating did not switch the mode
    assert f() is False
    assert og.is_grad_enabled()


def test_mode_restored_after_exception():
    with pytest.raises(ZeroDivisionError):
        with og.no_grad():
            raise ZeroDivisionError("inside no_grad")
    assert og.is_grad_enabled()


def test_set_grad_enabled_rejects_non_bool():
    with pytest.raises(TypeError, match="mode must be a bool"):
        og.set_grad_enabled("yes")


def test_threads_switching_modes_leave_the_global_fast_path_consistent():
    import threading

    from opgrad.runtime import grad_mode

    barrier = threading.Barrier(4)
    seen = []

    def work(off):
        with og.set_grad_enabled(not off):
            barrier.wait()
            seen.append((off, og.is_grad_enabled()))
            barrier.wait()

    threads = [threading.Thread(target=work, args=(i % 2 == 0,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == [(False, True), (False, True), (True, False), (True, False)]
    assert not grad_mode._OFF and og.is_grad_enabled()
