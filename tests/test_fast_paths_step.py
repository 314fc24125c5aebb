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
