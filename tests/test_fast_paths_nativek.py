"""The op driver's and the in-place write's kernel call without the kernel's Python frame
(runtime/_speedups.c, "kernels run as their ufunc"): a kernel marked `same_as_ufunc`
(kernels/common.py: add, subtract, multiply, divide, matmul, the `ufunc(name)` kernels and
the `ufunc_into` variants) is run as its NumPy ufunc, and the results, errors, warnings,
version counts and gradients are the Python function's (`__wrapped__`), bit for bit. Also
the no_grad update's other costs: a number operand's 0-d array kept between calls, the
writeable flag and the version bump read in C. Its helpers are test_fast_paths_cop*.py's.
Without the extension (or with OPGRAD_PURE set) the comparisons run a function against
itself and the C-only tests skip.
"""

from __future__ import annotations

import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import test_fast_paths_cop as cop
import test_fast_paths_cop3 as cop3
import test_fast_paths_cop4 as cop4

import opgrad as og
from opgrad.generated import ops
from opgrad.runtime import _accel
from opgrad.runtime.kernels import common
from opgrad.runtime.kernels.generic import binary, elementwise, linalg
from opgrad.runtime.kernels.registry import _INTO, register_kernel

DRIVEN = cop.DRIVEN
needs_c = cop.needs_c
FLOATS = cop.FLOATS
MARKED = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide}
MARKED |= {"matmul": np.matmul, "tanh": np.tanh, "exp": np.exp, "log": np.log, "sqrt": np.sqrt}
INPLACE = ("add_", "subtract_", "multiply_", "divide_", "tanh_", "exp_")


def test_the_marked_kernels_name_their_ufuncs():
    kernels = {"add": binary.add, "subtract": binary.subtract, "multiply": binary.multiply}
    kernels |= {"divide": binary.divide, "matmul": linalg.matmul, "tanh": elementwise.tanh}
    kernels |= {"exp": elementwise.exp, "log": elementwise.log, "sqrt": elementwise.sqrt}
    for name, k in kernels.items():
        assert k.as_ufunc is MARKED[name], name
    for k in (binary.add, binary.subtract, binary.divide, elementwise.tanh, elementwise.exp):
        into = _INTO[k]
        assert into.as_ufunc is k.as_ufunc
        g, filename, line = into.ufunc_call_site
        assert g is vars(common) and filename == common.__file__
        assert "np_fn(" in open(filename).read().splitlines()[line - 1]
    assert _INTO[binary.multiply] is binary.multiply_into and binary.multiply_into.as_ufunc is np.multiply
    assert binary.multiply_into.ufunc_call_site == _INTO[binary.add].ufunc_call_site
    assert not hasattr(binary.add_grad, "as_ufunc") and not hasattr(linalg.matmul_grad, "as_ufunc")
    if DRIVEN:
        from opgrad.runtime import _speedups

        assert _speedups.kernel_ufunc(binary.add) is np.add
        assert _speedups.kernel_ufunc(binary.multiply_into) is np.multiply
        assert _speedups.kernel_ufunc(binary.add_grad) is None
        assert _speedups.kernel_ufunc(np.add) is None  # (not a Python function)


# --- out-of-place: the op driver's kernel call ----------------------------------------------------


def outcome_and_warnings(fn: Callable[..., Any], *args: Any) -> Any:
    """fn's outcome (cop.outcome) and the warnings it gave: category, message, file, line."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = cop.outcome(fn, *args)
    return out, [(x.category, str(x.message), x.filename, x.lineno) for x in w]


def _arrays(dtype: Any, shapes: tuple[tuple[int, ...], ...], layout: str, lo: float, hi: float) -> list[Any]:
    rng = np.random.default_rng(sum(map(len, shapes)) + 3)
    out = []
    for s in shapes:
        if layout == "strided" and s:  # every other element of a bigger array, reversed
            a = rng.uniform(lo, hi, (*s[:-1], 2 * s[-1])).astype(dtype)[..., ::-2]
        elif layout == "transposed" and len(s) == 2:
            a = rng.uniform(lo, hi, s[::-1]).astype(dtype).T
        else:
            a = rng.uniform(lo, hi, s).astype(dtype)
        out.append(a)
    return out


def _both(name: str, make: Callable[[], list[Any]]) -> tuple[Any, Any]:
    return outcome_and_warnings(getattr(ops, name), *make()), outcome_and_warnings(
        cop.python_of(name), *make()
    )


ELEMENTWISE_SHAPES = [
    ((), ()),
    ((5,), (5,)),
    ((3, 4), (3, 4)),
    ((3, 4), (4,)),
    ((3, 1), (1, 4)),
    ((), (2, 3)),
]
MATMUL_SHAPES = cop4.MATMUL_SHAPES  # (bad shapes among them: the same error)


@pytest.mark.parametrize("name", sorted(MARKED))
def test_the_driven_op_is_the_python_function_bit_for_bit(name):
    n = 1 if name in ("tanh", "exp", "log", "sqrt") else 2
    shapes_list = MATMUL_SHAPES if name == "matmul" else ELEMENTWISE_SHAPES
    for dtype in FLOATS:
        for shapes in shapes_list:
            shapes = shapes[:n]
            for layout in ("plain", "strided", "transposed"):
                for grads in [(False,) * n, (True,) * n, (True, False)[:n]]:
                    for grad_on in (True, False):
                        arrays = _arrays(dtype, shapes, layout, 0.2, 1.5)

                        def make(arrays=arrays, grads=grads) -> list[Any]:
                            ts = [
                                og.tensor(a.copy(), requires_grad=g)
                                for a, g in zip(arrays, grads, strict=True)
                            ]
                            for t, a in zip(ts, arrays, strict=True):  # the arrays' layouts, as they are
                                t._data = _fresh(a)
                            return ts

                        with og.set_grad_enabled(grad_on):
                            c, py = _both(name, make)
                        assert c == py, (dtype, shapes, layout, grads, grad_on)


def _noncontig(a: Any) -> Any:
    """A non-contiguous array equal to `a` (a view into a fresh buffer)."""
    if a.ndim == 0:
        return a.copy()
    big = np.empty((*a.shape[:-1], 2 * a.shape[-1]), a.dtype)
    v = big[..., ::2]
    v[...] = a
    return v


def _fresh(a: Any) -> Any:
    """A new array equal to `a`, laid out as it is (contiguous, transposed or strided)."""
    if a.flags.c_contiguous:
        return a.copy()
    if a.flags.f_contiguous:
        return np.asfortranarray(a)
    return _noncontig(a)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "matmul"])
def test_the_shape_errors_are_the_python_functions(name):
    shapes = (
        [((3, 4), (5, 4)), ((3,), (4,)), ((2, 3), (4, 3))]
        if name != "matmul"
        else [((3, 4), (3, 4)), ((), (3,))]
    )
    for dtype in FLOATS:
        for shapes_ in shapes:
            c, py = _both(
                name,
                lambda s=shapes_, dtype=dtype: [og.tensor(a) for a in _arrays(dtype, s, "plain", 0.2, 1.0)],
            )
            assert c == py and c[0][0] == "raised", (dtype, shapes_)


FP_CASES = [  # operands that raise floating-point events (float16 overflows, 1/0, 0/0, log(0), sqrt(-1))
    ("add", [[60000.0, 1.0], [60000.0, 2.0]]),
    ("subtract", [[-60000.0, np.inf], [60000.0, np.inf]]),
    ("multiply", [[300.0, 0.0], [300.0, np.inf]]),
    ("divide", [[1.0, 0.0, 1e-3], [0.0, 0.0, 1e4]]),
    ("matmul", [[[300.0, 300.0]], [[300.0], [300.0]]]),
    ("exp", [[100.0, 12.0]]),
    ("log", [[0.0, -1.0]]),
    ("sqrt", [[-1.0, 4.0]]),
]


@pytest.mark.parametrize(("name", "values"), FP_CASES, ids=[c[0] for c in FP_CASES])
def test_floating_point_events_are_reported_where_the_python_function_reports_them(name, values):
    for dtype in FLOATS:
        make = lambda dtype=dtype: [og.tensor(np.array(v, dtype)) for v in values]  # noqa: E731
        for errstate in ({}, {"all": "ignore"}, {"all": "raise"}, {"divide": "ignore", "under": "warn"}):
            with np.errstate(**errstate):
                c, py = _both(name, make)
            assert c == py, (dtype, errstate)
        calls: list[Any] = []
        with np.errstate(all="call", call=lambda *a, calls=calls: calls.append(a)):
            c, py = _both(name, make)
        assert c == py and calls[: len(calls) // 2] == calls[len(calls) // 2 :], dtype
        old = np.seterr(under="ignore")  # (an errstate equal to the default, in another object)
        try:
            c, py = _both(name, make)
        finally:
            np.seterr(**old)
        assert c == py, dtype
        with warnings.catch_warnings():  # warnings as errors: the same error, from the same place
            warnings.simplefilter("error")
            got = [cop.outcome(fn, *make()) for fn in (getattr(ops, name), cop.python_of(name))]
        assert got[0] == got[1]


def test_a_warning_is_shown_once_per_place_as_before():
    # the default filter ("default": once per file and line): the kernel's line, on both paths
    import subprocess

    code = (
        "import warnings, numpy as np, opgrad as og\n"
        "x = og.tensor(np.array([1.0, 2.0], np.float32)); z = og.tensor(np.zeros(2, np.float32))\n"
        "for _ in range(3): og.divide(x, z)\n"
        "for _ in range(2): getattr(og.divide, '__wrapped__', og.divide)(x, z)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = [ln for ln in r.stderr.splitlines() if "RuntimeWarning" in ln]
    assert len(lines) == 1 and "binary.py" in lines[0], r.stderr


def test_int_and_bool_operands_take_the_general_path():
    for name in ("add", "multiply", "divide", "matmul"):
        for dtype in (np.int64, np.int32, np.bool_):
            c, py = _both(
                name,
                lambda dtype=dtype: [og.tensor(np.arange(1, 5).reshape(2, 2).astype(dtype)) for _ in "xy"],
            )
            assert c == py, (name, dtype)
    for name in ("tanh", "exp"):
        c, py = _both(name, lambda: [og.tensor(np.arange(4))])
        assert c == py


def test_matmuls_transpose_flags_are_the_python_functions():
    for dtype in FLOATS:
        a, b = _arrays(dtype, ((3, 4), (3, 4)), "plain", 0.2, 1.0)
        for tx, ty in ((False, True), (True, False), (True, True), (False, False)):
            c = cop.outcome(ops.matmul, og.tensor(a), og.tensor(b.T.copy() if not ty else b), tx, ty)
            py = cop.outcome(
                cop.python_of("matmul"), og.tensor(a), og.tensor(b.T.copy() if not ty else b), tx, ty
            )
            assert c == py


def _kernel_calls(fn: Callable[[], Any], *kernels: Any) -> int:
    return cop3._python_calls(fn, *(k.__code__ for k in kernels))


@needs_c
def test_the_common_case_calls_the_ufunc_without_the_kernels_frame():
    x = og.tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32), requires_grad=True)
    w = og.tensor(np.ones((3, 2), np.float32), requires_grad=True)
    b = og.tensor(np.ones(2, np.float32))
    assert _kernel_calls(lambda: og.tanh(x @ w + b), linalg.matmul, binary.add, elementwise.tanh) == 0
    assert (
        _kernel_calls(lambda: (x * 0.5, x / b[:1], x - 1.0), binary.multiply, binary.divide, binary.subtract)
        == 0
    )
    with og.no_grad():
        assert _kernel_calls(lambda: x * 0.05, binary.multiply) == 0
    assert _kernel_calls(lambda: og.matmul(x, w, False, False), linalg.matmul) == 0
    assert _kernel_calls(lambda: og.matmul(x, x, False, True), linalg.matmul) == 1  # a transpose: the kernel
    assert _kernel_calls(lambda: og.tensor(np.arange(3)) + og.tensor(np.arange(3)), binary.add) == 1  # ints
    # the events NumPy reports, and another errstate: the kernel (which reports them)
    z = og.tensor(np.zeros(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _kernel_calls(lambda: og.divide(og.ones_like(z), z), binary.divide) == 1
        assert _kernel_calls(lambda: og.divide(z + 1, z + 1), binary.divide) == 0
    with np.errstate(all="ignore"):
        assert _kernel_calls(lambda: og.divide(z + 1, z + 1), binary.divide) == 1
    og.tanh(z)
    old = np.seterr(under="warn")
    try:
        assert _kernel_calls(lambda: og.tanh(z), elementwise.tanh) == 1
    finally:
        np.seterr(**old)  # (another object, equal to the default: the ufunc again)
    assert _kernel_calls(lambda: og.tanh(z), elementwise.tanh) == 0


@needs_c
def test_a_replaced_or_reregistered_kernel_is_what_the_driver_calls(monkeypatch):
    x = og.tensor(np.array([1.0, 2.0]))
    y = og.tensor(np.array([10.0, 20.0]))
    assert (x + y).tolist() == [11.0, 22.0]
    calls = []

    def other(a: Any, b: Any) -> Any:
        calls.append(1)
        return a - b

    with monkeypatch.context() as m:  # the table's entry replaced: the new function, called
        m.setitem(ops._k_add, np.ndarray, other)
        assert (x + y).tolist() == [-9.0, -18.0] and calls == [1]
        m.setattr(other, "as_ufunc", np.multiply, raising=False)  # marked: its ufunc
        assert (x + y).tolist() == [10.0, 40.0] and calls == [1]
        m.setattr(other, "as_ufunc", "not a ufunc")
        assert (x + y).tolist() == [-9.0, -18.0] and calls == [1, 1]
        m.setattr(other, "as_ufunc", np.modf)  # (two outputs: ignored)
        assert (x + y).tolist() == [-9.0, -18.0] and calls == [1, 1, 1]
    assert (x + y).tolist() == [11.0, 22.0]
    with monkeypatch.context() as m:  # marked, but taking fewer arguments than the op passes: its error

        def two(a: Any, b: Any) -> Any:
            return a @ b

        two.as_ufunc = np.matmul
        m.setitem(ops._k_matmul, np.ndarray, two)
        a = og.tensor(np.ones((2, 2)))
        got = cop.outcome(ops.matmul, a, a)
        assert got == cop.outcome(cop.python_of("matmul"), a, a) and got[0] == "raised"
    with monkeypatch.context() as m:  # the mark changed on the kernel itself
        m.setattr(binary.add, "as_ufunc", np.subtract)
        assert (x + y).tolist() == [-9.0, -18.0]
        m.delattr(binary.add, "as_ufunc")
        assert (x + y).tolist() == [11.0, 22.0] and _kernel_calls(lambda: x + y, binary.add) == 1
    assert _kernel_calls(lambda: x + y, binary.add) == 0
    with monkeypatch.context() as m:  # other code: read again (the mark is the function's)
        m.setattr(binary.add, "__code__", binary.subtract.__code__)
        m.setattr(binary.add, "as_ufunc", np.add)
        assert (x + y).tolist() == [11.0, 22.0]  # still marked: the mark says what it computes
    from opgrad.runtime.kernels import registry

    try:  # re-registered: the tables are emptied, dispatch finds the new kernel
        register_kernel("add")(other)
        assert (x + y).tolist() == [-9.0, -18.0]
        assert ops._k_add[np.ndarray] is other
    finally:
        register_kernel("add")(binary.add)
        registry._BY_TYPE["add"].clear()
    assert (x + y).tolist() == [11.0, 22.0]


# --- in-place: the into variant's call and the write's reads ---------------------------------------


def _inplace_state(t: Any) -> Any:
    return (t._data.tobytes(), t._data.shape, None if t._vc is None else (t._vc.value, t._vc.shared))


def _inplace_both(name: str, make: Callable[[], list[Any]], grad_on: bool = False) -> tuple[Any, Any]:
    got = []
    for fn in (getattr(ops, name), cop.python_of(name)):
        args = make()
        with og.set_grad_enabled(grad_on):
            out = outcome_and_warnings(fn, *args)
        got.append((out, [_inplace_state(a) for a in args if isinstance(a, og.Tensor)]))
    return got[0], got[1]


@pytest.mark.parametrize("name", INPLACE)
def test_the_inplace_write_is_the_python_functions(name):
    n = 1 if name in ("tanh_", "exp_") else 2
    for dtype in FLOATS:
        for xs, ys in [
            ((), ()),
            ((5,), (5,)),
            ((3, 4), (4,)),
            ((3, 4), ()),
            ((3, 1), (1, 4)),
            ((4,), (3, 4)),
        ]:
            for layout in ("plain", "strided", "counted", "overlap", "same"):

                def make(dtype=dtype, xs=xs, ys=ys, layout=layout) -> list[Any]:
                    x, y = _arrays(dtype, (xs, ys), "plain", 0.2, 1.5)
                    tx = og.tensor(x, requires_grad=True)
                    if layout == "strided":
                        tx._data = _noncontig(x)
                    if layout == "counted":
                        with og.no_grad():
                            tx.add_(0.0)
                    ty = og.tensor(y)
                    if layout == "overlap" and xs and xs == ys:  # y reads x's memory backwards
                        ty._data = tx._data[..., ::-1]
                    if layout == "same":
                        ty._data = tx._data if xs == ys else ty._data
                    return [tx, ty][:n]

                c, py = _inplace_both(name, make)
                assert c == py, (dtype, xs, ys, layout)


@pytest.mark.parametrize("name", INPLACE)
def test_the_inplace_writes_floating_point_events_are_the_python_functions(name):
    cases = {
        "add_": [[60000.0, 1.0], [60000.0, 2.0]],
        "subtract_": [[np.inf, -60000.0], [np.inf, 60000.0]],
        "multiply_": [[300.0, 0.0], [300.0, np.inf]],
        "divide_": [[1.0, 0.0, 1e-3], [0.0, 0.0, 1e4]],
        "tanh_": [[np.inf, 1.0]],
        "exp_": [[100.0, 1.0]],
    }[name]
    for dtype in FLOATS:
        make = lambda dtype=dtype: [og.tensor(np.array(v, dtype)) for v in cases]  # noqa: E731
        for errstate in ({}, {"all": "ignore"}, {"all": "raise"}, {"over": "ignore"}, {"under": "warn"}):
            with np.errstate(**errstate):
                c, py = _inplace_both(name, make)
            assert c == py, (dtype, errstate)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            c, py = _inplace_both(name, make)
        assert c == py, dtype


def test_the_inplace_shape_errors_and_read_only_arrays_are_the_python_functions():
    for name in ("add_", "subtract_", "multiply_", "divide_"):
        for xs, ys in (((3,), (4,)), ((4,), (3, 4)), ((2, 3), (3, 2))):
            c, py = _inplace_both(name, lambda xs=xs, ys=ys: [og.tensor(np.ones(xs)), og.tensor(np.ones(ys))])
            assert c == py and c[0][0][0] == "raised"

        def readonly() -> list[Any]:
            x = og.tensor(np.ones(3))
            x._data.flags.writeable = False
            return [x, og.tensor(np.ones(3))]

        c, py = _inplace_both(name, readonly)
        assert c == py and c[0][0][0] == "raised"
        c, py = _inplace_both(
            name, lambda: [og.tensor(np.broadcast_to(np.ones(()), (3,))), og.tensor(np.ones(3))]
        )
        assert c == py


@needs_c
def test_the_inplace_write_calls_the_ufunc_without_the_into_frame():
    into = _INTO[binary.subtract]
    p = og.tensor(np.ones(4, np.float32), requires_grad=True)
    g = og.tensor(np.full(4, 0.5, np.float32))
    with og.no_grad():
        assert cop3._python_calls(lambda: p.subtract_(g), into.__code__) == 0
        assert cop3._python_calls(lambda: p.multiply_(g), binary.multiply_into.__code__) == 0
        assert cop3._python_calls(lambda: p.tanh_(), _INTO[elementwise.tanh].__code__) == 0
        with np.errstate(over="ignore"):  # another errstate: the into variant
            assert cop3._python_calls(lambda: p.subtract_(g), into.__code__) == 1
    assert p._vc.value == 4


@needs_c
def test_a_replaced_into_variant_is_what_the_write_calls(monkeypatch):
    x = og.tensor(np.array([1.0, 2.0]))
    y = og.tensor(np.array([10.0, 20.0]))
    calls = []

    def into(out: Any, a: Any, b: Any) -> bool:
        calls.append(1)
        np.multiply(a, b, out)
        return True

    monkeypatch.setitem(_INTO, binary.subtract, into)
    x.subtract_(y)
    assert x.tolist() == [10.0, 40.0] and calls == [1]
    into.as_ufunc = np.add  # marked, but no call site: still the function
    x.subtract_(y)
    assert x.tolist() == [100.0, 800.0] and calls == [1, 1]
    into.ufunc_call_site = _INTO[binary.add].ufunc_call_site
    x.subtract_(y)
    assert x.tolist() == [110.0, 820.0] and calls == [1, 1] and x._vc.value == 3


def test_the_version_counter_is_made_and_bumped_as_before(monkeypatch):
    from opgrad.runtime import version

    for fn in (ops.subtract_, cop.python_of("subtract_")):
        x = og.tensor(np.ones(3))
        assert x._vc is None
        fn(x, og.tensor(np.ones(3)))
        assert type(x._vc) is version.VersionCounter and x._vc.value == 1
        x._vc.value = 2**70  # (a big int)
        fn(x, og.tensor(np.ones(3)))
        assert x._vc.value == 2**70 + 1


# --- g * number under no_grad: the number's array kept ---------------------------------------------


def test_a_number_operand_is_the_python_functions():
    for name in ("multiply", "add", "subtract", "divide"):
        for dtype in FLOATS:
            for value in (0.05, -0.0, 0.0, 1e-300, 70000.0, float("nan"), float("inf"), 3, 0.1):
                for rg in (False, True):
                    for side in (0, 1):
                        make = lambda dtype=dtype, value=value, rg=rg, side=side: (  # noqa: E731
                            [og.tensor(np.linspace(-2, 2, 5).astype(dtype), requires_grad=rg), value][
                                :: 1 - 2 * side
                            ]
                        )
                        c, py = _both(name, make)
                        assert c == py, (name, dtype, value, rg, side)


@needs_c
def test_the_kept_number_arrays_are_read_only_and_never_given_out():
    g = og.tensor(np.ones(3, np.float32))
    with og.no_grad():
        a = g * 0.05
        b = g * 0.05
    assert a._data is not b._data and a._data.flags.writeable and a.tolist() == b.tolist()
    with og.no_grad():
        c = g * np.float64(0.05)  # a NumPy scalar: the body's conversion
    assert c.tolist() == cop.python_of("multiply")(g, np.float64(0.05)).tolist()


# --- reference counts and a model's gradients ------------------------------------------------------


@needs_c
def test_reference_counts_do_not_leak():
    x = og.tensor(np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32), requires_grad=True)
    w = og.tensor(np.ones((4, 4), np.float32), requires_grad=True)
    b = og.tensor(np.ones(4, np.float32))
    p = og.tensor(np.ones((3, 4), np.float32), requires_grad=True)
    with og.no_grad():
        p.subtract_(b)
    g = og.tensor(np.full((3, 4), 0.5, np.float32))
    z = og.tensor(np.zeros(2))
    kernels = [binary.add, binary.multiply, linalg.matmul, elementwise.tanh, _INTO[binary.subtract]]
    watched = [x, w, b, p, g, x._data, w._data, p._data, p._vc, np.add, np.multiply, np.matmul, np.tanh]
    watched += [np.subtract, x._data.dtype, *kernels, np.float32(0.05).dtype]

    def calls() -> tuple[Any, ...]:
        out = og.tanh(x @ w + b)
        with og.no_grad():
            p.subtract_(g * 0.05)
            q = g * 0.05
            p.subtract_(q)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = og.divide(z, z)  # (the kernel runs again)
        return out, q, r, og.matmul(x, w)

    calls()  # (the kernels resolved and their marks read)
    cop.assert_no_leaks(watched, calls)


def _mlp_run() -> list[bytes]:
    rng = np.random.default_rng(0)
    shapes = ((6, 8), (8,), (8, 3), (3,))
    ps = [og.tensor((rng.standard_normal(s) * 0.5).astype(np.float32), requires_grad=True) for s in shapes]
    x = og.tensor(rng.standard_normal((5, 6)).astype(np.float32))
    y = og.tensor(rng.integers(0, 3, 5))
    out = []
    for _ in range(3):
        h = og.tanh(x @ ps[0] + ps[1])
        loss = og.nn.functional.cross_entropy(h @ ps[2] + ps[3], y)
        loss.backward()
        out += [p.grad._data.tobytes() for p in ps] + [loss._data.tobytes()]
        with og.no_grad():
            for p in ps:
                p.subtract_(p.grad * 0.1)
                p.grad = None
        out += [p._data.tobytes() for p in ps] + [bytes([ps[0]._vc.value])]
    return out


@contextmanager
def _everything_python() -> Iterator[None]:
    saved = [(name, getattr(ops, name)) for name in dir(ops) if hasattr(getattr(ops, name), "__wrapped__")]
    try:
        for name, fn in saved:
            setattr(ops, name, fn.__wrapped__)
        with cop3.all_python():
            yield
    finally:
        for name, fn in saved:
            setattr(ops, name, fn)


def test_a_small_models_gradients_and_updates_are_the_python_paths():
    got = _mlp_run()
    with _everything_python():
        assert _mlp_run() == got


def test_threads_running_the_ops_at_once_get_the_python_functions_results():
    rng = np.random.default_rng(1)
    a = og.tensor(rng.standard_normal((200, 200)))
    b = og.tensor(rng.standard_normal((200, 200)))
    want = (cop.python_of("matmul")(a, b) + b).tolist()
    got: list[Any] = []

    def run() -> None:
        for _ in range(20):
            got.append((og.matmul(a, b) + b).tolist() == want)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [True] * 60


def test_pure_python_has_no_c_kernel_calls():
    if _accel.ACTIVE:
        assert isinstance(ops.add, types.BuiltinFunctionType) or not isinstance(ops.add, types.FunctionType)
    else:
        assert isinstance(ops.add, types.FunctionType)
