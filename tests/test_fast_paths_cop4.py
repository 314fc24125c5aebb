"""The C driver's rows with bool attributes (`matmul(x, y, transpose_x=False, transpose_y=False)`,
`gelu`, `cholesky`, `cholesky_solve`: rows ending with their attributes' classes, a missing
bool read from the function's `__defaults__`) and the Tensor operators `@` they drive, against
the Python functions they stand in for: the same outputs, nodes, gradients, errors and warnings,
bit for bit. Helpers are tests/test_fast_paths_cop.py's. Without the extension (or with
OPGRAD_PURE set) the ops are the Python functions: the comparisons then run a function against
itself and the C-only tests skip.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import test_fast_paths_cop as cop
import test_fast_paths_cop3 as cop3

import opgrad as og
from opgrad.generated import ops, tensor_methods
from opgrad.generated.tensor_methods import TensorMethods
from opgrad.runtime import _accel, grad_mode
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.testing import gradcheck

BOOL_ROWS = {row[0]: row for row in _accel.NUMBER_OPS_TABLES[ops.__name__] if len(row) > 9}
METHODS = {row[0]: row for row in _accel.METHOD_TABLES[tensor_methods.__name__]}
DRIVEN = _accel.ACTIVE and not inspect.isfunction(ops.matmul)
needs_c = pytest.mark.skipif(not DRIVEN, reason="runtime/_speedups not built, or OPGRAD_PURE set")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def py(name: str) -> Callable[..., Any]:
    return cop.python_of(name)


def py_method(name: str) -> Callable[..., Any]:
    fn = TensorMethods.__dict__[name]
    return getattr(fn, "__wrapped__", fn)


def test_the_bool_rows_and_the_matmul_operators_are_listed():
    assert {"matmul", "gelu", "cholesky", "cholesky_solve"} <= set(BOOL_ROWS)
    assert BOOL_ROWS["matmul"][8:] == (2, "bb")
    assert METHODS["__matmul__"][1:] == (("_generated", "ops", "matmul"), False)
    assert METHODS["__rmatmul__"][1:] == (("_generated", "ops", "matmul"), True)
    if DRIVEN:
        for name in BOOL_ROWS:
            assert not inspect.isfunction(getattr(ops, name))
        assert not inspect.isfunction(TensorMethods.__dict__["__matmul__"])


@pytest.mark.parametrize("name", sorted(BOOL_ROWS))
def test_each_bool_row_body_has_the_driven_shape(name):
    row = BOOL_ROWS[name]
    func = ast.parse(textwrap.dedent(inspect.getsource(py(name)))).body[0]
    assert isinstance(func, ast.FunctionDef)
    a = func.args
    assert not (a.kwonlyargs or a.vararg or a.kwarg or a.posonlyargs)
    params = [p.arg for p in a.args]
    n = len(row[3])
    names, attrs = params[:n], params[n:]
    assert len(attrs) == row[8] == len(row[9])
    for p, code in zip(a.args[n:], row[9], strict=True):
        assert ast.unparse(p.annotation) == {"b": "bool", "n": "float"}[code]
    # only bools have defaults, False or True
    defaults = a.defaults
    assert all(isinstance(d, ast.Constant) and d.value in (False, True) for d in defaults)
    assert all(row[9][len(attrs) - len(defaults) + i] == "b" for i in range(len(defaults)))
    tensor_saves = tuple(s for s in row[4] if s[1] != "value")
    values = [s for s in row[4] if s[1] == "value"]
    assert row[4] == tensor_saves + tuple(values)
    want = cop._expected_tail((*row[:4], tensor_saves, *row[5:8]), names, "out")
    arrays = ", ".join(f"{n}._data" for n in names)
    want = want.replace(f"_kernel({arrays})", f"_kernel({', '.join([arrays, *attrs])})")
    want = want.replace(f"({', '.join(names)}, out)", f"({', '.join(names + attrs)}, out)")
    stores = "".join(f"\n    node.{slot} = {params[i]}" for slot, _, i in values)
    want = want.replace("\nelse:\n    out = wrap", f"{stores}\nelse:\n    out = wrap")
    body = func.body[1:] if isinstance(func.body[0], ast.Expr) else func.body
    start = next(
        i for i, s in enumerate(body) if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "_kernel"
    )
    assert "\n".join(ast.unparse(s) for s in body[start:]) == "\n".join(
        ast.unparse(s) for s in ast.parse(want).body
    )
    # before the kernel: tests that are false for Tensors of one float dtype and exact bools
    for s in body[:start]:
        assert isinstance(s, ast.If) and not s.orelse
        test = compile(ast.Expression(s.test), "<test>", "eval")
        for dtype in cop.FLOATS:
            for flag in (False, True):
                env = {n: og.tensor(np.ones(2, dtype)) for n in names} | {n: flag for n in attrs}
                assert eval(test, vars(ops), env) is False, ast.unparse(s)  # noqa: S307


# --- comparing the two paths ------------------------------------------------------------------

MATMUL_SHAPES = [
    ((3, 4), (4, 5)),
    ((4,), (4, 5)),
    ((3, 4), (4,)),
    ((4,), (4,)),
    ((2, 3, 4), (4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((5, 3, 4), (5, 4, 2)),
    ((), (4,)),
    ((3, 4), (3, 4)),  # bad shapes: the same error
    ((3, 4), (5, 2)),
]
FLAGS = [(), (False,), (True,), (False, False), (True, False), (False, True), (True, True)]


def _make(
    shapes: tuple[tuple[int, ...], ...], dtype: Any, grads: tuple[bool, ...]
) -> Callable[[], list[Any]]:
    def make() -> list[Any]:
        rng = np.random.default_rng(len(shapes[0]) * 7 + len(shapes[-1]))
        return [
            og.tensor(rng.uniform(-1, 1, s).astype(dtype), requires_grad=g)
            for s, g in zip(shapes, grads, strict=True)
        ]

    return make


def _both(
    fn: Callable[..., Any], pyfn: Callable[..., Any], make: Callable[[], list[Any]], *extra: Any, **kw: Any
):
    got = []
    for f in (fn, pyfn):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = cop.outcome(f, *make(), *extra, **kw)
        got.append((out, [(x.category, str(x.message)) for x in w]))
    return got[0], got[1]


@pytest.mark.parametrize("dtype", cop.FLOATS)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_is_the_python_functions(shapes, dtype):
    for grads in ((False, False), (True, False), (False, True), (True, True)):
        for flags in FLAGS:
            c, p = _both(ops.matmul, py("matmul"), _make(shapes, dtype, grads), *flags)
            assert c == p, (grads, flags)
        with og.no_grad():
            c, p = _both(ops.matmul, py("matmul"), _make(shapes, dtype, grads))
            assert c == p


@pytest.mark.parametrize("dtype", cop.FLOATS)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_the_matmul_operators_are_the_python_methods(shapes, dtype):
    for grads in ((False, False), (True, True), (False, True)):
        make = _make(shapes, dtype, grads)
        assert _both(TensorMethods.__dict__["__matmul__"], py_method("__matmul__"), make) == _both(
            py_method("__matmul__"), py_method("__matmul__"), make
        )
        c, p = _both(TensorMethods.__dict__["__matmul__"], py_method("__matmul__"), make)
        assert c == p
        c, p = _both(TensorMethods.__dict__["__rmatmul__"], py_method("__rmatmul__"), make)
        assert c == p
        c, p = _both(lambda x, y: x @ y, lambda x, y: py_method("__matmul__")(x, y), make)
        assert c == p


OTHERS = [
    ("flags as ints", lambda t: [t[0], t[1], 1, 0]),
    ("flags as numpy bools", lambda t: [t[0], t[1], np.bool_(True)]),
    ("flag None", lambda t: [t[0], t[1], None]),
    ("a number", lambda t: [2.0, t[1]]),
    ("an int", lambda t: [t[0], 3]),
    ("a bool operand", lambda t: [t[0], True]),
    ("an array", lambda t: [t[0], t[1]._data]),
    ("a list", lambda t: [t[0], t[1]._data.tolist()]),
    ("mixed dtypes", lambda t: [t[0], og.tensor(t[1]._data.astype(np.float64))]),
    ("ints", lambda t: [og.tensor(np.ones((3, 4), np.int64)), og.tensor(np.ones((4, 5), np.int64))]),
    ("complex", lambda t: [t[0].astype("complex128"), t[1].astype("complex128")]),
    ("too many", lambda t: [t[0], t[1], False, False, False]),
    ("too few", lambda t: [t[0]]),
    ("a string", lambda t: [t[0], "x"]),
    ("None", lambda t: [t[0], None]),
]


@pytest.mark.parametrize("case", [c for c, _ in OTHERS])
def test_other_arguments_give_the_python_functions_result_or_error(case):
    f = dict(OTHERS)[case]
    make = _make(((3, 4), (4, 5)), np.float32, (True, False))
    c, p = _both(ops.matmul, py("matmul"), lambda: f(make()))
    assert c == p
    if case not in ("too many", "too few"):
        args = f(make())
        if isinstance(args[0], Tensor) and len(args) == 2:
            c, p = _both(TensorMethods.__dict__["__matmul__"], py_method("__matmul__"), lambda: f(make()))
            assert c == p
            c, p = _both(
                TensorMethods.__dict__["__rmatmul__"], py_method("__rmatmul__"), lambda: f(make())[::-1]
            )
            assert c == p


def test_keywords_give_the_python_functions_result():
    make = _make(((4, 3), (4, 5)), np.float64, (True, True))
    assert _both(ops.matmul, py("matmul"), make, transpose_x=True) == _both(
        py("matmul"), py("matmul"), make, transpose_x=True
    )
    c, p = _both(ops.matmul, py("matmul"), make, transpose_x=True)
    assert c == p and c[0][0] != "raised"
    c, p = _both(ops.matmul, py("matmul"), make, nope=True)
    assert c == p and c[0][0] == "raised"


def test_operators_with_other_objects_are_the_python_methods():
    x = og.tensor(np.ones((2, 2), np.float32), requires_grad=True)
    for other in (object(), "s", None, [1, 2]):
        for name in ("__matmul__", "__rmatmul__"):
            c = cop.outcome(TensorMethods.__dict__[name], x, other)
            p = cop.outcome(py_method(name), x, other)
            assert c == p
    with pytest.raises(TypeError) as c_err:
        x @ object()
    with pytest.raises(TypeError) as p_err:
        py_method("__matmul__")(x, object())
    assert str(c_err.value) == str(p_err.value)


@pytest.mark.parametrize("name", ["gelu", "cholesky", "cholesky_solve"])
def test_the_other_bool_rows_are_the_python_functions(name):
    row = BOOL_ROWS[name]
    n = len(row[3])
    for dtype in cop.FLOATS:
        for grads in ((False,) * n, (True,) * n):

            def make(dtype: Any = dtype, grads: tuple[bool, ...] = grads) -> list[Any]:
                a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype)
                a = og.tensor(a, requires_grad=grads[0])
                if n == 1:
                    return [a]
                return [og.tensor(np.arange(6.0).reshape(3, 2).astype(dtype), requires_grad=grads[1]), a]

            for flags in ((), (False,), (True,), (1,)):
                c, p = _both(getattr(ops, name), py(name), make, *flags)
                assert c == p
    # not positive definite: the same error
    bad = lambda: [og.tensor(-np.eye(2))]  # noqa: E731
    assert _both(ops.cholesky, py("cholesky"), bad) == _both(py("cholesky"), py("cholesky"), bad)


def test_forward_mode_gives_the_python_functions_tangents():
    from opgrad.autograd import forward_ad as fwd

    rng = np.random.default_rng(3)
    a, b, ta, tb = (rng.uniform(-1, 1, s) for s in ((3, 4), (4, 2), (3, 4), (4, 2)))
    got = []
    for f in (ops.matmul, py("matmul")):
        with fwd.dual_level():
            x = fwd.make_dual(og.tensor(a), og.tensor(ta))
            y = fwd.make_dual(og.tensor(b), og.tensor(tb))
            out = f(x, y)
            got.append((out.numpy().tobytes(), fwd.unpack_dual(out).tangent.numpy().tobytes()))
    assert got[0] == got[1]


# --- gradients ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shapes", [s for s in MATMUL_SHAPES if s not in (((3, 4), (3, 4)), ((3, 4), (5, 2)), ((), (4,)))], ids=str
)
def test_matmul_gradients_are_the_python_paths_and_never_alias(shapes):
    for dtype in cop.FLOATS:
        results = []
        for fn in (lambda x, y: x @ y, lambda x, y: py("matmul")(x, y)):
            ins = _make(shapes, dtype, (True, True))()
            out = fn(*ins)
            out.backward(og.ones_like(out))
            results.append(([t.grad._data for t in ins], ins))
        (got, ins), (want, _) = results
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes()
            assert not any(np.shares_memory(g, t._data) for t in ins)
        assert not np.shares_memory(got[0], got[1])


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_matmul_gradients_match_finite_differences(flags):
    rng = np.random.default_rng(5)
    shape_x = (4, 3) if flags[:1] == (True,) else (3, 4)
    shape_y = (2, 4) if flags[1:] == (True,) else (4, 2)
    x = og.tensor(rng.uniform(-1, 1, (2, *shape_x)), requires_grad=True)
    y = og.tensor(rng.uniform(-1, 1, shape_y), requires_grad=True)
    assert gradcheck(lambda a, b: ops.matmul(a, b, *flags), [x, y])
    assert gradcheck(
        lambda a, b: a @ b,
        [
            og.tensor(rng.uniform(-1, 1, 4), requires_grad=True),
            og.tensor(rng.uniform(-1, 1, (4, 2)), requires_grad=True),
        ],
    )


# --- the common case runs in C; names read again ------------------------------------------------


_python_calls = cop3._python_calls  # (how many frames of the given code ran during fn())


@needs_c
def test_the_common_case_runs_in_c_and_the_others_in_python():
    x = og.tensor(np.ones((3, 4), np.float32), requires_grad=True)
    y = og.tensor(np.ones((4, 2), np.float32))
    code, mcode = py("matmul").__code__, py_method("__matmul__").__code__
    assert _python_calls(lambda: x @ y, code) == 0 and _python_calls(lambda: x @ y, mcode) == 0
    assert _python_calls(lambda: ops.matmul(x, y, False, False), code) == 0
    z = og.tensor(np.ones((4, 3), np.float32))
    assert _python_calls(lambda: ops.matmul(z, y, True), code) == 0
    with pytest.raises(ValueError, match="after transpose_x"):
        _python_calls(lambda: ops.matmul(x, y, True), code)  # (the kernel's error: the Python body's)
    assert _python_calls(lambda: ops.matmul(x, y, np.bool_(False)), code) == 1
    assert _python_calls(lambda: ops.matmul(x, y, transpose_y=False), code) == 1
    assert _python_calls(lambda: y.__rmatmul__(x), code) == 0
    assert _python_calls(lambda: x @ y._data, code) == 1
    with og.no_grad():
        assert _python_calls(lambda: x @ y, code) == 0


@needs_c
def test_changed_defaults_are_read_at_each_call(monkeypatch):
    x = og.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    y = og.tensor(np.arange(8.0).reshape(2, 4))
    fn = py("matmul")
    monkeypatch.setattr(fn, "__defaults__", (False, True))
    assert cop.outcome(ops.matmul, x, y) == cop.outcome(fn, x, y)
    assert (x @ y).shape == (3, 2)
    monkeypatch.setattr(
        fn, "__defaults__", (False, np.bool_(True))
    )  # not a bool: the Python function converts it
    assert _python_calls(lambda: ops.matmul(x, y), fn.__code__) == 1
    assert (x @ y).shape == (3, 2)
    monkeypatch.setattr(fn, "__defaults__", None)
    c, p = cop.outcome(ops.matmul, x, y), cop.outcome(fn, x, y)
    assert c == p and c[0] == "raised"


@needs_c
def test_a_rebound_op_or_name_is_seen(monkeypatch):
    x = og.tensor(np.ones((2, 2)), requires_grad=True)
    seen = []
    monkeypatch.setattr(ops, "matmul", lambda a, b: seen.append((a, b)) or "other")
    assert (x @ x) == "other" and len(seen) == 1
    monkeypatch.undo()
    calls = []
    table = dict(ops._k_matmul)
    kernel = table[np.ndarray]
    table[np.ndarray] = lambda *a: calls.append(a[2:]) or kernel(*a)
    monkeypatch.setattr(ops, "_k_matmul", table)
    x @ x
    ops.matmul(x, x, True, False)
    assert calls == [(False, False), (True, False)]
    monkeypatch.undo()
    monkeypatch.setattr(grad_mode, "_OFF", [None])  # another list: the Python functions from now on
    assert _python_calls(lambda: x @ x, py("matmul").__code__) == 1


def test_reference_counts_do_not_leak_and_outputs_die():
    x = og.tensor(np.linspace(-1, 1, 12).reshape(3, 4), requires_grad=True)
    y = og.tensor(np.full((4, 2), 0.5))
    v = og.tensor(np.full(4, 0.5), requires_grad=True)
    kernel = ops._k_matmul[np.ndarray]
    watched = [x, y, v, x._data, y._data, v._data, kernel, ops.matmul, py("matmul"), True, False]
    watched += [py("matmul").__defaults__, og.nodes.MatmulGradNode if hasattr(og, "nodes") else kernel]

    def calls() -> tuple[Tensor, ...]:
        return (
            x @ y,
            ops.matmul(x, y, False, False),
            v @ y,
            x @ v,
            ops.matmul(y, x, True, True),
            y.__rmatmul__(x),
        )

    calls()  # (a new epoch drops what the op held from earlier tests)
    cop.assert_no_leaks(watched, calls)


# --- grad mode read in C: `_STATE.enabled` while grad_enabled's code is the one set up ---------


def test_grad_mode_off_is_read_without_calling_grad_enabled_and_gives_the_same():
    x = og.tensor(np.ones(3), requires_grad=True)
    y = og.tensor(np.ones(3))
    code = grad_mode.grad_enabled.__code__
    og.multiply(x, y), x @ y, og.subtract_(og.tensor(np.ones(3)), y)  # (each kernel resolved)
    with og.no_grad():
        calls = _python_calls(lambda: (og.multiply(x, y), x @ y), code)
        out = og.multiply(x, y)
        assert out._node is None and not out.requires_grad
        with og.enable_grad():
            assert og.multiply(x, y)._node is not None
    assert calls == (0 if DRIVEN else 2)
    p = og.tensor(np.ones(3), requires_grad=True)
    with og.no_grad():
        assert _python_calls(lambda: p.subtract_(y), code) == (0 if DRIVEN else 1)
    assert p.numpy().tolist() == [0.0, 0.0, 0.0] and p._vc.value == 1
    with pytest.raises(RuntimeError):  # grad mode on: check_inplace's error, as before
        p.subtract_(y)


@needs_c
def test_a_changed_grad_enabled_or_state_is_seen(monkeypatch):
    x = og.tensor(np.ones(3), requires_grad=True)
    y = og.tensor(np.ones(3))
    monkeypatch.setattr(grad_mode.grad_enabled, "__code__", (lambda: True).__code__)
    with og.no_grad():  # grad_enabled() now says True: the C path calls it, and records
        assert og.multiply(x, y)._node is not None
    monkeypatch.undo()

    class State:
        enabled = True

    with og.no_grad():
        assert og.multiply(x, y)._node is None
        monkeypatch.setattr(grad_mode, "_STATE", State())  # (read again: the Python functions' answer)
        assert og.multiply(x, y)._node is not None
        monkeypatch.undo()
        assert og.multiply(x, y)._node is None


# --- Tensor.grad: a leaf's read and `grad = None` in C (_accel.grad_property) -------------------

GRAD_PROP = Tensor.__dict__["grad"]
PY_GRAD = getattr(GRAD_PROP, "__wrapped__", GRAD_PROP)


def test_the_grad_property_is_replaced_and_looks_like_the_property():
    assert isinstance(PY_GRAD, property)
    assert (GRAD_PROP is not PY_GRAD) == _accel.ACTIVE
    assert Tensor.grad is PY_GRAD  # (class access: the property)
    assert GRAD_PROP.fget is PY_GRAD.fget and GRAD_PROP.fset is PY_GRAD.fset and GRAD_PROP.fdel is None
    assert GRAD_PROP.__doc__ == PY_GRAD.__doc__
    # the fast cases' source: what the C getter and setter assume
    get = [ast.unparse(s) for s in ast.parse(textwrap.dedent(inspect.getsource(PY_GRAD.fget))).body[0].body]
    assert get[0].startswith("if self._node is not None and") and get[-1] == "return self._grad"
    put = ast.parse(textwrap.dedent(inspect.getsource(PY_GRAD.fset))).body[0].body
    assert ast.unparse(put[0]).startswith("if value is not None:") and not put[0].orelse
    assert [ast.unparse(s) for s in put[1:]] == [
        "self._grad = value",
        "if self._extra is not None:\n    self._extra.grad_owned = False",
    ]


class _Sub(Tensor):
    pass


def _grad_cases() -> list[tuple[str, Callable[[], Tensor]]]:
    def leaf() -> Tensor:
        return og.tensor(np.ones(3), requires_grad=True)

    def with_grad() -> Tensor:
        t = leaf()
        (t * 2.0).sum().backward()
        return t

    def nonleaf() -> Tensor:
        return leaf() * 2.0

    def retained() -> Tensor:
        t = leaf() * 2.0
        t.retain_grads()
        t.sum().backward()
        return t

    def named() -> Tensor:
        t = with_grad()
        t._extra_state().name = "w"
        return t

    def sub() -> Tensor:
        t = with_grad()
        s = _Sub.__new__(_Sub)
        for k in ("_data", "_requires_grad", "_node", "_pos", "_grad", "_vc", "_acc", "_extra", "_dual"):
            object.__setattr__(s, k, getattr(t, k))
        return s

    return [("leaf", leaf), ("with grad", with_grad), ("non-leaf", nonleaf), ("retained", retained)] + [
        ("with _extra", named),
        ("subclass", sub),
    ]


def _grad_outcome(prop: Any, make: Callable[[], Tensor], value: Any) -> Any:
    t = make()
    out = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = cop.outcome(lambda: prop.__get__(t, Tensor))
        out.append((got, [(x.category, str(x.message)) for x in w]))
    try:
        prop.__set__(t, value)
        out.append(("set", cop.outcome(lambda: t._grad), t._extra and t._extra.grad_owned))
    except Exception as e:  # noqa: BLE001
        out.append(("raised", type(e), str(e)))
    try:
        prop.__delete__(t)
    except Exception as e:  # noqa: BLE001
        out.append(("raised", type(e), str(e)))
    return out


VALUES = [
    ("None", lambda: None),
    ("a grad", lambda: og.tensor(np.full(3, 0.5))),
    ("a wrong shape", lambda: og.tensor(np.ones(2))),
    ("a wrong dtype", lambda: og.tensor(np.ones(3, np.float32))),
    ("an array", lambda: np.ones(3)),
    ("a number", lambda: 1.0),
]


@pytest.mark.parametrize("case", [c for c, _ in _grad_cases()])
@pytest.mark.parametrize("value", [v for v, _ in VALUES])
def test_the_grad_property_is_the_python_propertys(case, value):
    make = dict(_grad_cases())[case]
    v = dict(VALUES)[value]
    assert _grad_outcome(GRAD_PROP, make, v()) == _grad_outcome(PY_GRAD, make, v())
    t = make()  # and through attribute access
    g = v()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert cop.outcome(lambda: t.grad) == cop.outcome(lambda: PY_GRAD.fget(t))
    try:
        t.grad = g
    except (TypeError, ValueError):
        return
    assert t._grad is g


@needs_c
def test_the_grad_propertys_fast_cases_run_no_python_and_a_changed_code_is_seen(monkeypatch):
    t = og.tensor(np.ones(3), requires_grad=True)
    (t * 2.0).sum().backward()
    get, put = PY_GRAD.fget.__code__, PY_GRAD.fset.__code__
    assert _python_calls(lambda: t.grad, get) == 0
    assert _python_calls(lambda: setattr(t, "grad", None), put) == 0 and t._grad is None
    assert _python_calls(lambda: setattr(t, "grad", og.tensor(np.ones(3))), put) == 1
    n = t * 2.0
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert _python_calls(lambda: n.grad, get) == 1
    monkeypatch.setattr(PY_GRAD.fget, "__code__", (lambda self: "other").__code__)
    assert t.grad == "other"
    monkeypatch.setattr(PY_GRAD.fset, "__code__", (lambda self, value: None).__code__)
    t.grad = None
    assert t._grad is not None


def test_grad_reads_and_resets_do_not_leak():
    t = og.tensor(np.ones(3), requires_grad=True)
    g = og.tensor(np.ones(3))
    watched = [t, g, GRAD_PROP, PY_GRAD]

    def calls() -> tuple[Tensor, ...]:
        t.grad = g
        out = t.grad
        t.grad = None
        assert t.grad is None
        return (out * 1.0,)

    calls()
    cop.assert_no_leaks(watched, calls)
