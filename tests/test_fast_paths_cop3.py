"""The C versions of the Tensor methods that are one call of a driven op (generated/
tensor_methods.py's table, `_accel.methods`: `x * y`, `1 - x`, `-x`, `x.tanh()` skip the
method's Python frame) against the Python methods they stand in for: the same outputs, nodes,
gradients, errors and warnings, bit for bit, and every name the body reads read again. Its
helpers are tests/test_fast_paths_cop.py's. Without the extension (or with OPGRAD_PURE set)
the methods are the Python ones: the comparisons then run a method against itself and the
C-only tests skip.
"""

from __future__ import annotations

import ast
import inspect
import pickle
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import test_fast_paths_cop as cop
import test_fast_paths_cop2 as cop2

import opgrad as og
from opgrad.generated import grad_ops, ops, tensor_methods
from opgrad.generated.tensor_methods import TensorMethods
from opgrad.runtime import _accel
from opgrad.runtime.tensor import Tensor

TABLE = _accel.METHOD_TABLES[tensor_methods.__name__]
BY_NAME = {row[0]: row for row in TABLE}
OPS_ROWS = {row[0]: row for t in (_accel.OPS_TABLES, _accel.NUMBER_OPS_TABLES) for row in t[ops.__name__]}
DRIVEN = _accel.ACTIVE and not inspect.isfunction(TensorMethods.__dict__["__mul__"])
needs_c = pytest.mark.skipif(not DRIVEN, reason="runtime/_speedups not built, or OPGRAD_PURE set")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def python_method(name: str) -> Callable[..., Any]:
    fn = TensorMethods.__dict__[name]
    return getattr(fn, "__wrapped__", fn)


@contextmanager
def python_methods() -> Iterator[None]:
    """Every listed method as its Python function for a while."""
    saved = {row[0]: TensorMethods.__dict__[row[0]] for row in TABLE}
    try:
        for name in saved:
            setattr(TensorMethods, name, python_method(name))
        yield
    finally:
        for name, fn in saved.items():
            setattr(TensorMethods, name, fn)


def test_the_table_lists_the_operators_and_they_are_driven():
    assert {"__mul__", "__rmul__", "__add__", "__radd__", "__sub__", "__rsub__", "__neg__"} <= set(BY_NAME)
    assert {"__truediv__", "__rtruediv__", "tanh", "exp", "multiply"} <= set(BY_NAME)
    assert BY_NAME["__rsub__"][1:] == (("_generated", "ops", "subtract"), True)
    assert BY_NAME["__sub__"][1:] == (("_generated", "ops", "subtract"), False)
    # ops with other arguments (sum, clip_): not listed (matmul is: test_fast_paths_cop4.py)
    assert not {"sum", "clip_"} & set(BY_NAME)
    assert BY_NAME["pow"][1:] == (("_generated", "ops", "pow"), False)
    for name in BY_NAME:
        fn = TensorMethods.__dict__[name]
        assert getattr(Tensor, name) is fn
        if DRIVEN:
            py = fn.__wrapped__
            assert not inspect.isfunction(fn) and inspect.isfunction(py)
            assert py.__globals__ is vars(tensor_methods)
            assert (fn.__name__, fn.__qualname__, fn.__module__, fn.__doc__) == (
                py.__name__,
                py.__qualname__,
                py.__module__,
                py.__doc__,
            )
            assert inspect.signature(fn) == inspect.signature(py)
            assert repr(fn) == repr(py)
        else:
            assert inspect.isfunction(fn)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_each_listed_method_is_one_call_of_a_driven_op(name):
    _, (alias, module, op), swapped = BY_NAME[name]
    func = ast.parse(textwrap.dedent(inspect.getsource(python_method(name)))).body[0]
    assert isinstance(func, ast.FunctionDef) and func.name == name
    a = func.args
    assert not (a.defaults or a.kwonlyargs or a.vararg or a.kwarg or a.posonlyargs)
    params = [p.arg for p in a.args]
    assert params[0] == "self" and len(params) in (1, 2)
    body = func.body[1:] if isinstance(func.body[0], ast.Expr) else func.body  # the docstring
    args = params[::-1] if swapped else params
    assert [ast.unparse(s) for s in body] == [f"return {alias}.{module}.{op}({', '.join(args)})"]
    assert swapped == (len(params) == 2 and name.startswith("__r"))
    assert (alias, module) == ("_generated", "ops") and tensor_methods._generated.ops is ops
    if op in _accel.INPLACE_OPS_TABLES[ops.__name__] or op.endswith("_"):
        assert op in dict(_accel.INPLACE_OPS_TABLES[ops.__name__]) and not swapped
        assert len(inspect.signature(cop.python_of(op)).parameters) == len(params)
    else:
        row = OPS_ROWS[op]
        n = len(row[3]) + (row[8:] or (0,))[0]  # (fewer when the last are bools with defaults: cop4)
        assert op in OPS_ROWS and n - (row[9:] or ("",))[0].count("b") <= len(params) <= n


# --- comparing the two paths ------------------------------------------------------------------


def _both(name: str, make: Callable[[], list[Any]]) -> tuple[Any, Any]:
    """(C method, Python method): what each made and warned, on fresh but equal inputs."""
    got = []
    for fn in (TensorMethods.__dict__[name], python_method(name)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = cop.outcome(fn, *make())
        got.append((out, [(x.category, str(x.message)) for x in w]))
    return got[0], got[1]


def _cases() -> list[Any]:
    cases = []
    for name, (_, _, op), _ in TABLE:
        if op not in OPS_ROWS or len(OPS_ROWS[op]) > 8:  # in-place ops, number arguments: below
            continue
        n = len(OPS_ROWS[op][3])
        for shapes in cop.UNARY_SHAPES if n == 1 else cop.BINARY_SHAPES:
            cases.append(pytest.param(name, shapes, id=f"{name}-{'x'.join(map(str, shapes))}"))
    return cases


@pytest.mark.parametrize(("name", "shapes"), _cases())
def test_the_method_makes_what_the_python_method_makes(name, shapes):
    row = OPS_ROWS[BY_NAME[name][1][2]]
    for dtype in cop.FLOATS:
        for grads in cop.GRADS[len(shapes)]:
            for grad_on in (True, False):
                with og.set_grad_enabled(grad_on):
                    c, py = _both(name, lambda d=dtype, g=grads: cop.inputs_for(row, d, shapes, g))
                assert c == py, (dtype, grads, grad_on)


BINARY_NUMBER_METHODS = sorted(
    name
    for name, (_, _, op), _ in TABLE
    if op in OPS_ROWS and len(OPS_ROWS[op][3]) == 2 and any(OPS_ROWS[op][7]) and name.startswith("__")
)


@pytest.mark.parametrize("name", BINARY_NUMBER_METHODS)
def test_a_number_operand_is_the_python_methods(name):
    assert {"__mul__", "__rmul__", "__rsub__", "__radd__", "__truediv__", "__rtruediv__"} <= set(
        BINARY_NUMBER_METHODS
    )
    for dtype in cop.FLOATS:
        for value in cop2.NUMBERS:
            for rg in (False, True):
                for shape in ((), (4,), (2, 3)):

                    def make(dtype=dtype, value=value, rg=rg, shape=shape) -> list[Any]:
                        data = np.linspace(0.2, 0.8, int(np.prod(shape))).reshape(shape).astype(dtype)
                        return [og.tensor(data, requires_grad=rg), value]

                    c, py = _both(name, make)
                    assert c == py, (dtype, value, rg, shape)


NOT_NUMBERS = ["a", object(), [1, 2], None, (1.5,), {1: 2}, np.arange(2.0), b"x", 1j]


def _operator_outcomes(expr: Callable[[Tensor], Any]) -> tuple[Any, Any]:
    got = []
    for ctx in (contextmanager(lambda: (yield))(), python_methods()):
        with ctx, warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t = og.tensor(np.linspace(0.2, 0.8, 2), requires_grad=True)
            out = cop.outcome(expr, t)
        got.append((out, [(x.category, str(x.message)) for x in w]))
    return got[0], got[1]


@pytest.mark.parametrize("other", NOT_NUMBERS, ids=lambda v: type(v).__name__)
def test_other_operands_give_the_python_methods_result_or_error(other):
    exprs = [
        lambda t: t * other,
        lambda t: other * t,
        lambda t: t + other,
        lambda t: other + t,
        lambda t: t - other,
        lambda t: other - t,
        lambda t: t / other,
        lambda t: other / t,
        lambda t: t.multiply(other),
        lambda t: t.__rsub__(other),
        lambda t: TensorMethods.__mul__(other, t),
        lambda t: TensorMethods.__neg__(other),
        lambda t: t.tanh(other),
        lambda t: t.__mul__(),
        lambda t: t.__mul__(t, t),
        lambda t: t.__mul__(other=t),
        lambda t: t.multiply(y=t),
    ]
    for i, expr in enumerate(exprs):
        c, py = _operator_outcomes(expr)
        assert c == py, i


def test_the_errors_of_objects_without_a_number_are_typeerrors():
    t = og.tensor(np.linspace(0.2, 0.8, 2))
    for expr in (lambda: t * "a", lambda: t * object(), lambda: "a" - t, lambda: t / None):
        with pytest.raises(TypeError):
            expr()


def test_a_subclass_and_other_arrays_are_the_python_methods():
    for expr in (
        lambda t: t * cop._sub(t),
        lambda t: cop._sub(t) * 2.0,
        lambda t: 2.0 - cop._sub(t),
        lambda t: -cop._sub(t),
        lambda t: t * np.float32(2),
        lambda t: t * og.tensor(np.arange(2, dtype=np.int64)),
        lambda t: t * True,
        lambda t: og.tensor(t._data.astype(np.complex128)) * 1.5,
        lambda t: og.tensor(t._data.astype(np.float32)) * t,
    ):
        c, py = _operator_outcomes(expr)
        assert c == py


# --- what the body reads ----------------------------------------------------------------------


def _python_calls(fn: Callable[[], Any], *codes: Any) -> int:
    """How many frames of these code objects ran during fn()."""
    called: list[Any] = []
    sys.setprofile(lambda frame, event, _: called.append(frame.f_code) if event == "call" else None)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return sum(c in codes for c in called)


def _codes(method: str, op: str) -> tuple[Any, Any]:
    return python_method(method).__code__, cop.python_of(op).__code__


@needs_c
def test_the_common_case_runs_in_c_and_the_others_in_python():
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    y = og.tensor(np.linspace(0.5, 1, 4))
    assert _python_calls(lambda: x * y, *_codes("__mul__", "multiply")) == 0
    assert _python_calls(lambda: 1 - x, *_codes("__rsub__", "subtract")) == 0
    assert _python_calls(lambda: x.__rsub__(1.5), *_codes("__rsub__", "subtract")) == 0
    assert _python_calls(lambda: -x, *_codes("__neg__", "neg")) == 0
    assert _python_calls(lambda: x.tanh(), *_codes("tanh", "tanh")) == 0
    assert _python_calls(lambda: x.multiply(y), *_codes("multiply", "multiply")) == 0
    # keywords: the method's frame (its call of ops.multiply is positional: the op's C path)
    assert _python_calls(lambda: x.multiply(y=y), *_codes("multiply", "multiply")) == 1
    assert _python_calls(lambda: x * True, *_codes("__mul__", "multiply")) == 2  # a bool: the body's
    assert _python_calls(lambda: x * cop._sub(y), *_codes("__mul__", "multiply")) == 2
    assert _python_calls(lambda: x * y._data, *_codes("__mul__", "multiply")) == 2
    assert _python_calls(lambda: cop.outcome(lambda: x * "a"), *_codes("__mul__", "multiply")) == 2
    with og.autograd.forward_ad.dual_level():
        assert _python_calls(lambda: x * y, *_codes("__mul__", "multiply")) == 2


@needs_c
def test_a_rebound_op_or_module_is_what_the_method_calls(monkeypatch):
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    seen: list[Any] = []

    def logged(*args: Any) -> str:
        seen.append(args)
        return "logged"

    with monkeypatch.context() as m:
        m.setattr(ops, "multiply", logged)
        assert x * 2.0 == "logged" and 3 * x == "logged" and x.multiply(x) == "logged"
        assert seen == [(x, 2.0), (3, x), (x, x)]
    assert _python_calls(lambda: x * 2.0, *_codes("__mul__", "multiply")) == 0
    with monkeypatch.context() as m:  # ops.tanh as its Python function: the method calls it
        m.setattr(ops, "tanh", cop.python_of("tanh"))
        assert _python_calls(lambda: x.tanh(), *_codes("tanh", "tanh")) == 2
    assert _python_calls(lambda: x.tanh(), *_codes("tanh", "tanh")) == 0

    class FakeGenerated:
        class ops:  # noqa: N801
            @staticmethod
            def subtract(a: Any, b: Any) -> str:
                return f"subtract {a!r} {b!r}"

    with monkeypatch.context() as m:  # `_generated` rebound in tensor_methods: read again
        m.setattr(tensor_methods, "_generated", FakeGenerated)
        assert 1 - x == f"subtract 1 {x!r}"
    assert _python_calls(lambda: 1 - x, *_codes("__rsub__", "subtract")) == 0
    with monkeypatch.context() as m:  # `_generated.ops` rebound
        m.setattr(og.generated, "ops", FakeGenerated.ops)
        assert 2 - x == f"subtract 2 {x!r}"
    with monkeypatch.context() as m:  # the name gone: the Python method's NameError
        m.delattr(tensor_methods, "_generated")
        with pytest.raises(NameError, match="_generated"):
            x - 1
    assert np.array_equal((x - 1)._data, x._data - 1)


@needs_c
def test_the_method_objects_are_methods():
    x = og.tensor(np.linspace(-1, 1, 4))
    bound = x.__mul__
    assert bound.__self__ is x and bound.__func__ is TensorMethods.__dict__["__mul__"]
    assert np.array_equal(bound(2.0)._data, x._data * 2)
    assert TensorMethods.__mul__ is TensorMethods.__dict__["__mul__"]
    assert pickle.loads(pickle.dumps(TensorMethods.__mul__)) is TensorMethods.__mul__
    assert sum([x, x, x])._data.tobytes() == (x._data * 3).tobytes()  # 0 + x: __radd__


@needs_c
def test_reference_counts_do_not_leak_and_outputs_die():
    x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    y = og.tensor(np.full(16, 0.9))
    _ = (x * y, 1 - x, 1.5 * y, -x, x.tanh(), x / 2.0, x.multiply(y))  # (each method reads its op once)
    watched = [x, y, x._data, y._data, ops.multiply, ops.subtract, TensorMethods.__dict__["__mul__"]]
    watched += [TensorMethods.__dict__["__rsub__"], tensor_methods._generated, ops]
    cop.assert_no_leaks(watched, lambda: (x * y, 1 - x, 1.5 * y, -x, x.tanh(), x / 2.0))
    cop.assert_no_leaks(watched, lambda: (x * True, 0.5 - x, x.multiply(y=y)))


# --- gradients through the methods --------------------------------------------------------------


def _double_backward_run(x0: np.ndarray) -> list[bytes]:
    x = og.tensor(x0, requires_grad=True)
    c = og.tensor(np.full(x0.shape, 0.7), requires_grad=True)
    y = (x * c - 1 / (x + 2)) * 3.0
    z = ((1 - y.tanh()) * y + -x / c).sum()
    (gx,) = og.autograd.grad(z, [x], create_graph=True)
    (hx,) = og.autograd.grad((gx * gx).sum(), [x], retain_graph=True)
    z.backward()
    return [a._data.tobytes() for a in (y, z, gx, hx, x.grad, c.grad)]


def test_double_backward_through_the_methods_is_the_python_paths_and_finite_differences():
    x0 = np.linspace(-0.9, 0.8, 7)
    got = _double_backward_run(x0)
    with python_methods(), cop2.python_functions():
        want = _double_backward_run(x0)
    assert got == want

    def first(x1: np.ndarray) -> np.ndarray:
        x = og.tensor(x1, requires_grad=True)
        c = og.tensor(np.full(x1.shape, 0.7))
        y = (x * c - 1 / (x + 2)) * 3.0
        z = ((1 - y.tanh()) * y + -x / c).sum()
        (gx,) = og.autograd.grad(z, [x])
        return gx._data

    eps = 1e-6
    gx = np.frombuffer(got[2])
    hx = np.frombuffer(got[3])
    numeric = np.array(
        [
            ((first(x0 + eps * e) ** 2).sum() - (first(x0 - eps * e) ** 2).sum()) / (2 * eps)
            for e in np.eye(len(x0))
        ]
    )
    assert np.allclose(hx, numeric, rtol=1e-6, atol=1e-8)
    assert np.array_equal(gx, first(x0))


def test_gradients_through_the_methods_never_alias():
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    y = og.tensor(np.linspace(0.5, 1, 4), requires_grad=True)
    ((x * y) + (1 - y) + -x).sum().backward()
    arrays = [x._data, y._data, x.grad._data, y.grad._data]
    for i, a in enumerate(arrays):
        assert not any(np.shares_memory(a, b) for b in arrays[i + 1 :])


# --- ops with number arguments (`pow(x, y)`, `pow_grad(x, out_grad, y)`) ------------------------

NUMBER_ROWS = {  # (rows with bool attributes, whose rows end with their classes: test_fast_paths_cop4.py)
    (module, row[0]): row
    for module in (ops, grad_ops)
    for row in _accel.NUMBER_OPS_TABLES[module.__name__]
    if len(row) == 9
}
NUMBER_IDS = [f"{module.__name__.rsplit('.', 1)[1]}.{name}" for module, name in NUMBER_ROWS]


def _py(module: Any, name: str) -> Callable[..., Any]:
    fn = getattr(module, name)
    return getattr(fn, "__wrapped__", fn)


def test_the_number_rows_list_pow_and_pow_grad():
    assert {(ops, "pow"), (grad_ops, "pow_grad")} <= set(NUMBER_ROWS)
    assert NUMBER_ROWS[ops, "pow"][8] == 1 and NUMBER_ROWS[grad_ops, "pow_grad"][8] == 1
    for module, name in NUMBER_ROWS:
        assert inspect.isfunction(getattr(module, name)) is not DRIVEN
        assert name not in {row[0] for row in _accel.OPS_TABLES[module.__name__]}


@pytest.mark.parametrize(("module", "name"), list(NUMBER_ROWS), ids=NUMBER_IDS)
def test_each_number_row_body_has_the_driven_shape(module, name):
    row = NUMBER_ROWS[module, name]
    func = ast.parse(textwrap.dedent(inspect.getsource(_py(module, name)))).body[0]
    assert isinstance(func, ast.FunctionDef)
    a = func.args
    assert not (a.defaults or a.kwonlyargs or a.vararg or a.kwarg or a.posonlyargs)
    params = [p.arg for p in a.args]
    n = len(row[3])
    names, attrs = params[:n], params[n:]
    assert len(attrs) == row[8]
    if module is grad_ops:  # Tensors as they are, then the numbers
        assert [ast.unparse(p.annotation) for p in a.args] == ["Tensor"] * n + ["float"] * len(attrs)
    tensor_saves = tuple(s for s in row[4] if s[1] != "value")
    values = [s for s in row[4] if s[1] == "value"]
    assert row[4] == tensor_saves + tuple(values)  # the numbers stored after the tensors
    out = "out" if module is ops else "x_grad"
    want = cop._expected_tail((*row[:4], tensor_saves, *row[5:8]), names, out)
    arrays = ", ".join(f"{n}._data" for n in names)
    assert f"_kernel({arrays})" in want
    want = want.replace(f"_kernel({arrays})", f"_kernel({', '.join([arrays, *attrs])})")
    want = want.replace(f"({', '.join(names)}, {out})", f"({', '.join(names + attrs)}, {out})")
    stores = "".join(f"\n    node.{slot} = {params[i]}" for slot, _, i in values)
    want = want.replace(f"\nelse:\n    {out} = wrap", f"{stores}\nelse:\n    {out} = wrap")
    body = func.body[1:] if isinstance(func.body[0], ast.Expr) else func.body  # the docstring
    start = next(
        i for i, s in enumerate(body) if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "_kernel"
    )
    assert "\n".join(ast.unparse(s) for s in body[start:]) == "\n".join(
        ast.unparse(s) for s in ast.parse(want).body
    )
    assert module is ops or start == 0
    # before the kernel: tests that are false for Tensors of one float dtype and exact numbers
    for s in body[:start]:
        assert isinstance(s, ast.If) and not s.orelse
        test = compile(ast.Expression(s.test), "<test>", "eval")
        for dtype in cop.FLOATS:
            for number in (0.5, 3, -2.0, 0, -0.0, 2**70):
                env = {n: og.tensor(np.ones(2, dtype)) for n in names} | {n: number for n in attrs}
                assert eval(test, vars(ops), env) is False, ast.unparse(s)  # noqa: S307


NUMBER_VALUES = [2, 3, 0, 1, -1, 0.5, 2.5, -1.5, 0.0, -0.0, 3.0, 1e300, -1e300, 65520.0, 70000, 1e-300]
NUMBER_VALUES += [float("nan"), float("inf"), -float("inf"), 2**53 + 1, 10**400, -(10**400), 2**63]
NUMBER_VALUES += [True, False, np.float64(2.0), np.float32(0.5), np.int64(3), np.bool_(True), 1j, "2", None]


def _number_inputs(
    module: Any, name: str, dtype: Any, shape: tuple[int, ...], grads: tuple[bool, ...]
) -> list[Any]:
    params = list(inspect.signature(_py(module, name)).parameters)
    n = len(NUMBER_ROWS[module, name][3])
    rng = np.random.default_rng(len(shape))
    out = []
    for p, rg in zip(params[:n], grads, strict=True):
        if p == "mask":
            out.append(og.tensor(rng.uniform(size=shape) > 0.5))
        else:
            out.append(og.tensor(rng.uniform(-1.5, 1.5, shape).astype(dtype), requires_grad=rg))
    return out


@pytest.mark.parametrize(("module", "name"), list(NUMBER_ROWS), ids=NUMBER_IDS)
def test_the_number_ops_make_what_the_python_functions_make(module, name):
    n = len(NUMBER_ROWS[module, name][3])
    for dtype in cop.FLOATS:
        for shape in ((), (4,), (3, 4)):
            for grads in cop.GRADS[n]:
                for grad_on in (True, False):
                    for value in NUMBER_VALUES:
                        got = []
                        for fn in (getattr(module, name), _py(module, name)):
                            ins = _number_inputs(module, name, dtype, shape, grads)
                            with og.set_grad_enabled(grad_on), warnings.catch_warnings(record=True) as w:
                                warnings.simplefilter("always")
                                out = cop.outcome(fn, *ins, value)
                            got.append((out, [(x.category, str(x.message)) for x in w]))
                        assert got[0] == got[1], (dtype, shape, grads, grad_on, value)


@pytest.mark.parametrize(("module", "name"), list(NUMBER_ROWS), ids=NUMBER_IDS)
def test_the_number_ops_other_calls_are_the_python_functions(module, name):
    n = len(NUMBER_ROWS[module, name][3])
    for make in (
        lambda: [*_number_inputs(module, name, np.float64, (3,), (True,) * n), 2.0, 3.0],  # one too many
        lambda: _number_inputs(module, name, np.float64, (3,), (True,) * n),  # one too few
        lambda: [*(cop._sub(t) for t in _number_inputs(module, name, np.float32, (3,), (True,) * n)), 2.0],
        lambda: [
            *(
                og.tensor(t._data.astype(np.int64))
                for t in _number_inputs(module, name, np.float64, (3,), (False,) * n)
            ),
            2.5,
        ],
        lambda: [*_number_inputs(module, name, np.float64, (3,), (True,) * n), 2.0],
    ):
        c = cop.outcome(getattr(module, name), *make())
        assert c == cop.outcome(_py(module, name), *make())
    ins = _number_inputs(module, name, np.float64, (3,), (True,) * n)
    keyword = list(inspect.signature(_py(module, name)).parameters)[-1]
    assert cop.outcome(getattr(module, name), *ins, **{keyword: 2.0}) == cop.outcome(
        _py(module, name), *ins, **{keyword: 2.0}
    )


@needs_c
def test_pow_runs_in_c_and_the_others_in_python():
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    g = og.tensor(np.linspace(0.5, 1, 4))
    pow_code, grad_code = _py(ops, "pow").__code__, _py(grad_ops, "pow_grad").__code__
    for value, calls in ((3, 0), (2.5, 0), (-0.0, 0), (True, 1), (np.float64(2), 1), (10**400, 1)):
        assert _python_calls(lambda value=value: cop.outcome(og.pow, x, value), pow_code) == calls
        assert (
            _python_calls(lambda value=value: cop.outcome(grad_ops.pow_grad, x, g, value), grad_code) == calls
        )
    assert _python_calls(lambda: x**3, pow_code) == 0
    assert _python_calls(lambda: x.pow(3), pow_code, python_method("pow").__code__) == 0
    assert _python_calls(lambda: og.pow(x, y=3), pow_code) == 1
    with og.autograd.forward_ad.dual_level():
        assert _python_calls(lambda: og.pow(x, 3), pow_code) == 1


@needs_c
def test_the_number_ops_do_not_leak():
    x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    g = og.tensor(np.full(16, 0.9), requires_grad=True)
    y = 2.5
    _ = (x**3, grad_ops.pow_grad(x, g, 3), x.pow(y))
    watched = [x, g, x._data, g._data, y, ops.pow, grad_ops.pow_grad, ops._k_pow, grad_ops._k_pow_grad]
    cop.assert_no_leaks(watched, lambda: (x**3, x.pow(y), grad_ops.pow_grad(x, g, y), og.pow(g, y)))


@contextmanager
def all_python() -> Iterator[None]:
    """Every driven function of ops.py and grad_ops.py (both tables) and every listed method as
    its Python function for a while."""
    saved = [
        (module, row[0], getattr(module, row[0]))
        for module in (ops, grad_ops)
        for t in (_accel.OPS_TABLES, _accel.NUMBER_OPS_TABLES)
        for row in t[module.__name__]
    ]
    try:
        for module, name, fn in saved:
            setattr(module, name, getattr(fn, "__wrapped__", fn))
        with python_methods():
            yield
    finally:
        for module, name, fn in saved:
            setattr(module, name, fn)


def _cube_run(x0: np.ndarray, y: Any) -> list[bytes]:
    x = og.tensor(x0, requires_grad=True)
    z = (og.tanh(x) ** y).sum()
    (gx,) = og.autograd.grad(z, [x], create_graph=True)
    (hx,) = og.autograd.grad(gx.sum(), [x], create_graph=True)
    (tx,) = og.autograd.grad((hx * hx).sum(), [x])
    return [a._data.tobytes() for a in (z, gx, hx, tx)]


@pytest.mark.parametrize("y", [3, 2.5, 4.0])
def test_double_backward_of_tanh_cubed_is_the_python_paths_and_finite_differences(y):
    x0 = np.linspace(-0.9, 0.8, 6)
    got = _cube_run(x0, y)
    with all_python():
        want = _cube_run(x0, y)
    assert got == want
    x0 = np.abs(x0) + 0.1  # (y = 2.5: a real power)

    def grad_sum(x1: np.ndarray) -> float:
        x = og.tensor(x1, requires_grad=True)
        (gx,) = og.autograd.grad((og.tanh(x) ** y).sum(), [x])
        return float(gx._data.sum())

    x = og.tensor(x0, requires_grad=True)
    (gx,) = og.autograd.grad((og.tanh(x) ** y).sum(), [x], create_graph=True)
    (hx,) = og.autograd.grad(gx.sum(), [x])
    eps = 1e-6
    numeric = [(grad_sum(x0 + eps * e) - grad_sum(x0 - eps * e)) / (2 * eps) for e in np.eye(len(x0))]
    assert np.allclose(hx._data, numeric, rtol=1e-6, atol=1e-8)


# --- in-place ops: the direct write (`p.subtract_(g)` under no_grad) --------------------------------

INPLACE = dict(_accel.INPLACE_OPS_TABLES[ops.__name__])


def test_the_inplace_table_lists_the_direct_writes():
    assert {"subtract_", "add_", "multiply_", "divide_", "tanh_", "exp_"} <= set(INPLACE)
    assert INPLACE["subtract_"] == "_k_subtract"
    assert {"subtract_", "__isub__", "add_", "__iadd__", "multiply_", "__imul__"} <= set(BY_NAME)
    for name in INPLACE:
        assert inspect.isfunction(getattr(ops, name)) is not DRIVEN


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_each_inplace_body_starts_with_the_direct_write(name):
    func = ast.parse(textwrap.dedent(inspect.getsource(_py(ops, name)))).body[0]
    assert isinstance(func, ast.FunctionDef)
    a = func.args
    assert not (a.defaults or a.kwonlyargs or a.vararg or a.kwarg or a.posonlyargs)
    names = [p.arg for p in a.args]
    body = func.body[1:] if isinstance(func.body[0], ast.Expr) else func.body  # the docstring
    x = names[0]
    want = [
        f"if not isinstance({x}, Tensor):\n    raise _not_a_tensor({name!r}, {x!r}, {x})",
        *(
            f"if not isinstance({y}, Tensor):\n    {y} = as_tensor_arg({y}, {x}, {name!r}, {y!r})"
            for y in names[1:]
        ),
        f"record = check_inplace({name!r}, {', '.join(names)})",
        f"if not (record or FORWARD.active) and write_into({x}, {INPLACE[name]}, "
        f"({', '.join(f'{n}._data' for n in names)}{',' if len(names) == 1 else ''})):\n    return {x}",
    ]
    want = [ast.unparse(ast.parse(w)) for w in want]
    assert [ast.unparse(s) for s in body[: len(want)]] == want
    assert vars(ops)["check_inplace"].__module__ == "opgrad.runtime.inplace"
    assert vars(ops)["write_into"].__module__ == "opgrad.runtime.inplace"


def _state(x: Any, base: Any) -> Any:
    return [
        (
            t._data.tobytes(),
            str(t._data.dtype),
            t._data.shape,
            None if t._vc is None else (t._vc.value, t._vc.shared),
        )
        for t in (x, base)
        if isinstance(t, Tensor)
    ]


def _inplace_outcomes(name: str, make: Callable[[], list[Any]], grad_on: bool = True) -> tuple[Any, Any]:
    """(C, Python): what each returned, raised and warned, and the written tensors after."""
    got = []
    for fn in (getattr(ops, name), _py(ops, name)):
        args, base = make()
        with og.set_grad_enabled(grad_on), warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = cop.outcome(fn, *args)
        got.append((out, _state(args[0], base), [(x.category, str(x.message)) for x in w]))
    return got[0], got[1]


def _operands(
    n: int, dtype: Any, xshape: tuple[int, ...], yshape: tuple[int, ...], rg: tuple[bool, bool], how: str
) -> Callable[[], tuple[list[Any], Any]]:
    def make() -> tuple[list[Any], Any]:
        rng = np.random.default_rng(7)
        base = None
        data = rng.uniform(0.2, 0.8, xshape).astype(dtype)
        if how == "view":  # x a slice of a base tensor: they share a version counter
            base = og.tensor(rng.uniform(0.2, 0.8, (2, *xshape)).astype(dtype), requires_grad=rg[0])
            with og.no_grad():
                x = base[0]
        elif how == "readonly":
            data.flags.writeable = False
            x = og.from_numpy(data) if hasattr(og, "from_numpy") else og.tensor(data)
            x._data.flags.writeable = False
        elif how == "counted":  # x has a version counter already
            x = og.tensor(data, requires_grad=rg[0])
            with og.no_grad():
                x.add_(0.0)
        elif how == "nonleaf":
            leaf = og.tensor(data, requires_grad=True)
            x = leaf * 1.0
        else:
            x = og.tensor(data, requires_grad=rg[0])
        args: list[Any] = [x]
        if n == 2:
            args.append(og.tensor(rng.uniform(0.2, 0.8, yshape).astype(dtype), requires_grad=rg[1]))
        return args, base

    return make


INPLACE_SHAPES = [
    ((), ()),
    ((4,), (4,)),
    ((3, 4), (3, 4)),
    ((3, 4), (4,)),
    ((3, 4), ()),
    ((4,), (3, 4)),
    ((3, 1), (1, 4)),
]


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_the_inplace_ops_make_what_the_python_functions_make(name):
    n = len(inspect.signature(_py(ops, name)).parameters)
    for dtype in cop.FLOATS:
        for xshape, yshape in INPLACE_SHAPES if n == 2 else [((), ()), ((4,), ()), ((3, 4), ())]:
            for rg in ((False, False), (True, False), (False, True), (True, True)):
                for grad_on in (False, True):
                    for how in ("plain", "view", "readonly", "counted", "nonleaf"):
                        c, py = _inplace_outcomes(name, _operands(n, dtype, xshape, yshape, rg, how), grad_on)
                        assert c == py, (dtype, xshape, yshape, rg, grad_on, how)


@pytest.mark.parametrize("name", ["subtract_", "add_", "multiply_", "divide_"])
def test_the_inplace_ops_other_operands_are_the_python_functions(name):
    def make(x: Any, y: Any) -> Callable[[], tuple[list[Any], Any]]:
        return lambda: ([x() if callable(x) else x, y() if callable(y) else y], None)

    t64 = lambda: og.tensor(np.linspace(0.2, 0.8, 4))  # noqa: E731
    t32 = lambda: og.tensor(np.linspace(0.2, 0.8, 4).astype(np.float32))  # noqa: E731
    i64 = lambda: og.tensor(np.arange(4))  # noqa: E731
    for x, y in [
        (t64, 0.5),
        (t64, 3),
        (t64, True),
        (t64, np.float64(2)),
        (t64, "a"),
        (t64, None),
        (t64, [1, 2, 3, 4]),
        (t64, t32),
        (t32, t64),
        (i64, t64),
        (t64, i64),
        (1.5, t64),
        (lambda: t64()._data, t64),
        (lambda: cop._sub(t64()), t64),
        (t64, lambda: cop._sub(t64())),
        (t64, lambda: t64()._data),
    ]:
        for grad_on in (False, True):
            c, py = _inplace_outcomes(name, make(x, y), grad_on)
            assert c == py, (x, y, grad_on)
    args = [og.tensor(np.ones(3)), og.tensor(np.ones(3))]
    assert cop.outcome(getattr(ops, name), *args, y=args[1]) == cop.outcome(_py(ops, name), *args, y=args[1])
    assert cop.outcome(getattr(ops, name), args[0]) == cop.outcome(_py(ops, name), args[0])


def test_a_view_write_is_seen_by_its_base_and_counted_once():
    for fn in (ops.subtract_, _py(ops, "subtract_")):
        base = og.tensor(np.arange(6.0).reshape(2, 3))
        v = base[1]
        with og.no_grad():
            assert fn(v, og.tensor(np.ones(3))) is v
        assert base._data[1].tolist() == [2.0, 3.0, 4.0] and v._vc is base._vc and base._vc.value == 1


@needs_c
def test_the_direct_write_runs_in_c_and_the_others_in_python():
    p = og.tensor(np.linspace(-1, 1, 4).astype(np.float32), requires_grad=True)
    g = og.tensor(np.full(4, 0.5, np.float32))
    codes = _codes("subtract_", "subtract_")
    inplace_codes = (vars(ops)["check_inplace"].__code__, vars(ops)["write_into"].__code__)
    with og.no_grad():
        assert _python_calls(lambda: p.subtract_(g), *codes, *inplace_codes) == 0
        assert _python_calls(lambda: ops.subtract_(p, g), *codes, *inplace_codes) == 0
        q = p.detach()
        assert _python_calls(lambda: q.tanh_(), *_codes("tanh_", "tanh_"), *inplace_codes) == 0
        assert _python_calls(lambda: p.subtract_(0.5), *codes) == 2  # a number: the body's conversion
        assert _python_calls(lambda: p.subtract_(y=g), *codes) == 1
        assert _python_calls(lambda: p.subtract_(g.double()), *codes) == 2
    x = og.tensor(np.ones(4, np.float32))
    assert _python_calls(lambda: x.subtract_(g), *codes, *inplace_codes) == 0  # nothing requires grad
    assert _python_calls(lambda: cop.outcome(p.subtract_, g), *codes) == 2  # check_inplace's error
    with og.autograd.forward_ad.dual_level():
        assert _python_calls(lambda: x.subtract_(g), *codes) == 2


@needs_c
def test_a_rebound_helper_sends_the_inplace_ops_to_python(monkeypatch):
    from opgrad.runtime import inplace, version

    x = og.tensor(np.ones(4))
    y = og.tensor(np.ones(4))
    codes = _codes("subtract_", "subtract_")
    for module, attr in (
        (ops, "check_inplace"),
        (ops, "write_into"),
        (inplace, "VersionCounter"),
        (inplace, "_INTO"),
    ):
        with monkeypatch.context() as m:
            m.setattr(module, attr, getattr(module, attr))  # the same object: still C
            assert _python_calls(lambda: x.subtract_(y), *codes) == 0
            m.setattr(module, attr, copy_of(getattr(module, attr)))
            assert _python_calls(lambda: x.subtract_(y), *codes) == 2, attr
    with monkeypatch.context() as m:  # a new code object for write_into: its behaviour may differ
        m.setattr(inplace.write_into, "__code__", inplace.write_into.__code__.replace())
        assert _python_calls(lambda: x.subtract_(y), *codes) == 2
    assert _python_calls(lambda: x.subtract_(y), *codes) == 0
    with monkeypatch.context() as m:  # grad_enabled patched in inplace: check_inplace reads it
        m.setattr(inplace, "grad_enabled", lambda: False)
        assert _python_calls(lambda: x.subtract_(y), *codes) == 2
    assert version.VersionCounter is inplace.VersionCounter


def copy_of(obj: Any) -> Any:
    import copy
    import types

    if isinstance(obj, types.FunctionType):
        return types.FunctionType(
            obj.__code__, obj.__globals__, obj.__name__, obj.__defaults__, obj.__closure__
        )
    if isinstance(obj, type):
        return type(obj.__name__, (obj,), {"__slots__": ()})
    return copy.copy(obj)


@pytest.mark.parametrize("kind", ["refused", "declined", "raised"])
def test_the_into_kernels_outcomes_are_the_python_functions(kind, monkeypatch):
    from opgrad.runtime.kernels.registry import _INTO

    kernel = ops._k_subtract[np.ndarray]
    real = _INTO[kernel]

    def into(out: Any, *arrays: Any) -> Any:
        if kind == "refused":
            raise ValueError("refused")
        if kind == "declined":
            return False
        real(out, *arrays)
        raise KeyboardInterrupt("after writing")

    monkeypatch.setitem(_INTO, kernel, into)
    got = []
    for fn in (ops.subtract_, _py(ops, "subtract_")):
        x, y = og.tensor(np.linspace(0.2, 0.8, 4)), og.tensor(np.full(4, 0.5))
        try:
            out = cop.outcome(fn, x, y)
        except KeyboardInterrupt as e:
            out = ("interrupted", str(e))
        got.append((out, _state(x, None)))
    assert got[0] == got[1]
    if kind == "raised":
        assert got[0][1][0][3] == (1, False)  # bumped, as write_into does


@needs_c
def test_the_inplace_ops_do_not_leak():
    p = og.tensor(np.linspace(-1, 1, 16).astype(np.float32), requires_grad=True)
    g = og.tensor(np.full(16, 1e-3, np.float32))
    q = og.tensor(np.linspace(-1, 1, 16))
    with og.no_grad():
        p.subtract_(g)
        p -= g
        q.tanh_()
        vc = p._vc
        watched = [p, g, q, p._data, g._data, vc, ops.subtract_, ops._k_subtract, q._vc]
        watched += [TensorMethods.__dict__["subtract_"], TensorMethods.__dict__["__isub__"]]

        def calls() -> tuple[Any, ...]:
            nonlocal p
            p.subtract_(g)
            p -= g
            ops.add_(p, g)
            q.tanh_()
            return (p * 1.0,)

        cop.assert_no_leaks(watched, calls)
    assert p._vc is vc and vc.value == 2 + 3000


def test_the_sgd_update_is_the_python_paths():
    def run() -> list[bytes]:
        rng = np.random.default_rng(0)
        ps = [
            og.tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True) for s in ((5, 3), (3,))
        ]
        x = og.tensor(rng.standard_normal((4, 5)).astype(np.float32))
        out = []
        for _ in range(3):
            loss = og.tanh(x @ ps[0] + ps[1]).sum()
            loss.backward()
            with og.no_grad():
                for p in ps:
                    p.subtract_(p.grad * 0.1)
                    p.grad = None
            out += [p._data.tobytes() for p in ps] + [loss._data.tobytes(), bytes([ps[0]._vc.value])]
        return out

    got = run()
    with all_python():
        assert run() == got
