"""The C driver over generated/grad_ops.py's functions of the plain shape (the ones the nodes'
`apply` calls under create_graph=True) against the Python functions they stand in for:
the same outputs, nodes, saved tensors, gradients and errors, bit for bit, over every function
of that module's table (`_accel.OPS_TABLES`). Its helpers are tests/test_fast_paths_cop.py's
(which covers ops.py's table). Without the extension (or with OPGRAD_PURE set) the functions
are the Python ones: the comparisons then run a function against itself and the C-only tests
skip.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import test_fast_paths_cop as cop

import opgrad as og
from opgrad.generated import grad_ops, ops
from opgrad.generated import nodes as N
from opgrad.runtime import _accel

TABLE = _accel.OPS_TABLES[grad_ops.__name__]
BY_NAME = {row[0]: row for row in TABLE}
DRIVEN = _accel.ACTIVE and not inspect.isfunction(grad_ops.tanh_grad)
needs_c = pytest.mark.skipif(not DRIVEN, reason="runtime/_speedups not built, or OPGRAD_PURE set")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def python_of(name: str) -> Callable[..., Any]:
    fn = getattr(grad_ops, name)
    return getattr(fn, "__wrapped__", fn)


@contextmanager
def python_functions() -> Iterator[None]:
    """Every driven function of ops.py and grad_ops.py as its Python function for a while."""
    saved = []
    for module in (ops, grad_ops):
        for row in _accel.OPS_TABLES[module.__name__]:
            fn = getattr(module, row[0])
            saved.append((module, row[0], fn))
            setattr(module, row[0], getattr(fn, "__wrapped__", fn))
    try:
        yield
    finally:
        for module, name, fn in saved:
            setattr(module, name, fn)


def test_the_table_lists_the_plain_grad_ops_and_they_are_driven():
    assert {"tanh_grad", "sigmoid_grad", "exp_grad", "relu_grad", "neg_grad", "sin_grad"} <= set(BY_NAME)
    assert "pow_grad" not in BY_NAME and "multiply_grad" not in BY_NAME  # a float argument; two outputs
    for name in BY_NAME:
        fn = getattr(grad_ops, name)
        if DRIVEN:
            assert not inspect.isfunction(fn) and inspect.isfunction(fn.__wrapped__)
            assert fn.__wrapped__.__globals__ is vars(grad_ops)
        else:
            assert inspect.isfunction(fn)
    assert "pow_grad" in {row[0] for row in _accel.NUMBER_OPS_TABLES[grad_ops.__name__]}  # (see cop3)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_each_listed_body_has_the_driven_shape(name):
    func = ast.parse(textwrap.dedent(inspect.getsource(python_of(name)))).body[0]
    assert isinstance(func, ast.FunctionDef)
    names = [a.arg for a in func.args.args]
    assert all(a.annotation is not None and ast.unparse(a.annotation) == "Tensor" for a in func.args.args)
    assert (
        not func.args.defaults and not func.args.kwonlyargs and not func.args.vararg and not func.args.kwarg
    )
    body = func.body[1:] if isinstance(func.body[0], ast.Expr) else func.body  # the docstring
    got = "\n".join(ast.unparse(s) for s in body)
    want = ast.parse(cop._expected_tail(BY_NAME[name], names, "x_grad")).body
    assert got == "\n".join(ast.unparse(s) for s in want)


@pytest.fixture
def on_grad_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/test_fast_paths_cop.py's comparisons, over grad_ops.py's table: its helpers read
    the module, the table and the operands' shapes from its globals."""
    monkeypatch.setattr(cop, "ops", grad_ops)
    monkeypatch.setattr(cop, "BY_NAME", BY_NAME)
    monkeypatch.setattr(cop, "BINARY_GRAD_SHAPES", ((3, 4), (3, 4)))  # as a node calls them


def _cases() -> list[Any]:
    return [
        pytest.param(row[0], shapes, id=f"{row[0]}-{'x'.join(map(str, shapes))}")
        for row in TABLE
        for shapes in (cop.UNARY_SHAPES if len(row[3]) == 1 else cop.BINARY_SHAPES)
    ]


@pytest.mark.parametrize(("name", "shapes"), _cases())
def test_the_driver_makes_what_the_python_function_makes(name, shapes, on_grad_ops):
    cop.test_the_driver_makes_what_the_python_function_makes(name, shapes)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_gradients_are_the_python_paths_and_never_alias(name, on_grad_ops):
    cop.test_gradients_are_the_python_paths_and_never_alias(name)


@pytest.mark.parametrize("kind", cop.FALLBACKS)
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_other_arguments_give_the_python_functions_result_or_error(name, kind, on_grad_ops):
    cop.test_other_arguments_give_the_python_functions_result_or_error(name, kind)


@pytest.mark.parametrize("name", ["tanh_grad", "exp_grad", "neg_grad", "relu_grad"])
def test_forward_mode_gives_the_python_functions_tangents(name, on_grad_ops):
    cop.test_forward_mode_gives_the_python_functions_tangents(name)


UNARY = ["tanh", "sigmoid", "exp", "sin", "cos", "log", "sqrt", "relu", "silu", "erf", "reciprocal", "square"]


@pytest.mark.parametrize("fn", UNARY)
def test_double_and_triple_backward_are_the_python_paths(fn):
    """create_graph=True runs the grad ops (driven) and records their nodes; the gradients of
    the gradients, and those of the next order, are the Python functions' bit for bit."""

    def run() -> list[bytes]:
        x = og.tensor(np.linspace(0.1, 0.9, 16), requires_grad=True)
        c = og.tensor(np.full(16, 0.7), requires_grad=True)
        y = getattr(og, fn)(og.multiply(x, c))
        (g,) = og.grad(og.sum(og.multiply(y, y)), x, create_graph=True)
        h, hc = og.grad(og.sum(g), [x, c], create_graph=True)
        (k,) = og.grad(og.sum(og.multiply(h, h)), x, retain_graph=True)
        og.sum(g).backward()
        return [a._data.tobytes() for a in (y, g, h, hc, k, x.grad, c.grad)]

    got = run()
    with python_functions():
        want = run()
    assert got == want


def test_double_backward_of_the_workload_is_the_python_paths():
    def run() -> list[bytes]:
        x = og.tensor(np.linspace(-1.0, 1.0, 64), requires_grad=True)
        (g,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
        og.sum(g).backward()
        return [g._data.tobytes(), x.grad._data.tobytes()]

    got = run()
    with python_functions():
        assert run() == got


@pytest.mark.parametrize("name", ["tanh_grad", "neg_grad", "relu_grad"])
def test_keyword_and_wrong_arguments_give_the_python_functions_result_or_error(name, on_grad_ops):
    names = list(inspect.signature(python_of(name)).parameters)
    c, py = cop.both(name, lambda: [], **{k: og.tensor(np.full(3, 0.5)) for k in names})
    assert c == py and c[0] != "raised"
    for args in ([], [og.tensor(np.ones(2))] * (len(names) + 1), [None] * len(names)):
        c, py = cop.both(name, lambda args=args: list(args))
        assert c == py and c[0] == "raised"


@needs_c
def test_the_common_case_runs_in_c_and_the_others_in_python(on_grad_ops):
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    y = og.tensor(np.linspace(0.5, 1, 4))
    assert cop._python_calls(lambda: grad_ops.tanh_grad(x, y), "tanh_grad") == 0
    assert cop._python_calls(lambda: og.grad(og.sum(og.tanh(x)), x, create_graph=True), "tanh_grad") == 0
    assert (
        cop._python_calls(lambda: grad_ops.tanh_grad(x, og.tensor(np.ones(4, np.float32))), "tanh_grad") == 1
    )
    assert cop._python_calls(lambda: grad_ops.tanh_grad(cop._sub(x), y), "tanh_grad") == 1
    with og.autograd.forward_ad.dual_level():
        assert cop._python_calls(lambda: grad_ops.tanh_grad(x, y), "tanh_grad") == 1


@needs_c
def test_grad_ops_have_their_own_context(monkeypatch, on_grad_ops):
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    y = og.tensor(np.linspace(0.5, 1, 4))
    calls = []
    pure = _accel.PURE["recorded"]
    with monkeypatch.context() as m:
        m.setattr(grad_ops, "recorded", lambda *a, **k: (calls.append(a[0]), pure(*a, **k))[1])
        og.tanh(x)
        assert calls == [] and type(grad_ops.tanh_grad(x, y)._node) is N.TanhDoubleGradNode
        assert calls == [N.TanhDoubleGradNode]
    assert cop._python_calls(lambda: grad_ops.tanh_grad(x, y), "tanh_grad") == 0
    monkeypatch.setattr(ops, "recorded", lambda *a, **k: pytest.fail("ops.recorded read by a grad op"))
    assert cop._python_calls(lambda: grad_ops.tanh_grad(x, y), "tanh_grad") == 0


@needs_c
def test_reference_counts_do_not_leak_and_outputs_die():
    x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    y = og.tensor(np.full(16, 0.9))
    grad_ops.tanh_grad(x, y)
    grad_ops.relu_grad(x, y)
    watched = [x, y, x._data, y._data, N.TanhDoubleGradNode, N.ReluDoubleGradNode, grad_ops._k_tanh_grad]
    watched += [grad_ops.tanh_grad, grad_ops._k_tanh_grad[np.ndarray], grad_ops._k_relu_grad[np.ndarray]]
    cop.assert_no_leaks(
        watched, lambda: (grad_ops.tanh_grad(x, y), grad_ops.relu_grad(x, y), grad_ops.tanh_grad(y, y))
    )


# --- a Python number operand (ops.py's `as_tensor_arg(v, the other, ...)`) ---------------------

OPS_TABLE = _accel.OPS_TABLES[ops.__name__]
TAKES_NUMBERS = sorted(row[0] for row in OPS_TABLE if any(row[7]))
NUMBERS = [0.05, -2.5, 3, -7, 0, -0.0, float("nan"), float("inf"), -float("inf"), 1e300, -1e300, 70000.0]
NUMBERS += [65504.0, 65520.0, 3.5e38, 70000, 2**53 + 1, 10**400, -(10**400), 1e-300, 5e-324]
NUMBERS += [True, False, np.float64(0.5), np.float32(0.5), np.int64(3), np.bool_(True), 1j]


def test_the_rows_say_which_arguments_take_a_number():
    assert {"add", "subtract", "multiply", "divide", "maximum", "atan2"} <= set(TAKES_NUMBERS)
    for row in OPS_TABLE:
        src = inspect.getsource(cop.python_of(row[0]))
        names = list(inspect.signature(cop.python_of(row[0])).parameters)
        for i, n in enumerate(names):
            if len(names) == 1:  # `as_tensor_arg(x, None, ...)`: the Python function converts it
                assert row[7] == (False,)
                continue
            converts = f'{n} = as_tensor_arg({n}, {names[1 - i]}, "{row[0]}", "{n}")' in src
            assert row[7][i] is converts, (row[0], n)


def _number_outcomes(name: str, value: Any, side: int, dtype: Any, rg: bool) -> list[Any]:
    """(driver, Python): what each made and warned, on fresh but equal inputs."""
    got = []
    for fn in (getattr(ops, name), cop.python_of(name)):
        t = og.tensor(np.linspace(0.2, 0.8, 4).astype(dtype), requires_grad=rg)
        args = [t, value] if side else [value, t]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = cop.outcome(fn, *args)
        got.append((out, [(x.category, str(x.message), x.filename, x.lineno) for x in w]))
    return got


@pytest.mark.parametrize("name", TAKES_NUMBERS)
def test_a_number_on_either_side_is_the_python_functions(name):
    row = BY_NAME_OPS[name]
    for side in (0, 1):
        if not row[7][1 - side]:
            continue
        for dtype in cop.FLOATS:
            for value in NUMBERS:
                for rg in (False, True):
                    c, py = _number_outcomes(name, value, side, dtype, rg)
                    assert c == py, (side, dtype, value, rg)


BY_NAME_OPS = {row[0]: row for row in OPS_TABLE}


@pytest.mark.parametrize("name", ["multiply", "add", "subtract", "divide"])
def test_the_converted_tensors_alias_nothing_and_gradients_are_the_python_paths(name):
    for dtype in cop.FLOATS:
        for value in (0.05, 3, -0.0):
            runs = []
            for fn in (getattr(ops, name), cop.python_of(name)):
                x = og.tensor(np.linspace(0.2, 0.8, 4).astype(dtype), requires_grad=True)
                outs = [fn(x, value), fn(value, x)]
                saved = [
                    w._data
                    for o in outs
                    for s in type(o._node).__slots__
                    if isinstance(w := getattr(o._node, s, None), og.runtime.tensor_wrapper.TensorWrapper)
                    and isinstance(getattr(w, "_data", None), np.ndarray)
                    and w._data.ndim == 0
                ]
                arrays = [x._data, *(o._data for o in outs), *saved]
                for i, a in enumerate(arrays):
                    assert not any(np.shares_memory(a, b) for b in arrays[i + 1 :])
                og.sum(outs[0] + outs[1]).backward()
                assert not np.shares_memory(x.grad._data, x._data)
                runs.append([o._data.tobytes() for o in outs] + [x.grad._data.tobytes(), len(saved)])
            assert runs[0] == runs[1], (dtype, value)


@needs_c
def test_a_number_runs_in_c_and_the_others_in_python(monkeypatch):
    x = og.tensor(np.linspace(-1, 1, 4).astype(np.float32), requires_grad=True)
    with monkeypatch.context() as m:
        m.setattr(cop, "ops", ops)
        for value, calls in ((0.05, 0), (3, 0), (-0.0, 0), (True, 1), (np.float64(0.5), 1), (1e300, 1)):
            assert cop._python_calls(lambda value=value: og.multiply(x, value), "multiply") == calls
            assert cop._python_calls(lambda value=value: og.subtract(value, x), "subtract") == calls
        assert cop._python_calls(lambda: og.multiply(0.5, 0.5), "multiply") == 1
        assert cop._python_calls(lambda: cop.outcome(og.multiply, x, 10**400), "multiply") == 1
        assert cop._python_calls(lambda: x * 0.05, "multiply") == 0
        assert cop._python_calls(lambda: og.tanh(0.5), "tanh") == 1  # as_tensor_arg(x, None, ...)
        seen = []
        pure = ops.as_tensor_arg
        m.setattr(ops, "as_tensor_arg", lambda *a: (seen.append(a[0]), pure(*a))[1])
        assert cop._python_calls(lambda: og.multiply(x, 0.25), "multiply") == 1 and seen == [0.25]
