"""The C driver of the generated ops of one plain shape (`_accel.ops`, runtime/_speedups.c)
against the Python functions it stands in for (`__wrapped__`): the same outputs, nodes,
saved tensors, gradients and errors, bit for bit, over every op of the table.

The table is generated/ops.py's own (`_accel.OPS_TABLES`), so a new op of the shape is
covered here without a change. Without the extension (or with OPGRAD_PURE set) the ops are
the Python functions: the comparisons then run the function against itself and the C-only
tests skip.
"""

from __future__ import annotations

import ast
import copy
import functools
import gc
import inspect
import pickle
import sys
import textwrap
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import opgrad as og
from opgrad.generated import nodes as N
from opgrad.generated import ops
from opgrad.runtime import _accel, grad_node
from opgrad.runtime.anomaly import detect_anomaly
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.tensor_wrapper import TensorWrapper, saved_tensors_hooks

TABLE = _accel.OPS_TABLES[ops.__name__]
BY_NAME = {row[0]: row for row in TABLE}
DRIVEN = _accel.ACTIVE and not inspect.isfunction(ops.tanh)
needs_c = pytest.mark.skipif(not DRIVEN, reason="runtime/_speedups not built, or OPGRAD_PURE set")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # acosh(0.5) and the like, on both paths
FLOATS = (np.float16, np.float32, np.float64)


def python_of(name: str) -> Callable[..., Any]:
    """The Python function behind ops.<name> (itself on the pure path)."""
    fn = getattr(ops, name)
    return getattr(fn, "__wrapped__", fn)


def test_the_table_lists_the_plain_ops_and_they_are_driven():
    assert {"tanh", "add", "multiply", "subtract", "divide", "exp", "relu", "sigmoid"} <= set(BY_NAME)
    for name in BY_NAME:
        fn = getattr(ops, name)
        assert getattr(og, name) is fn
        if DRIVEN:
            assert not inspect.isfunction(fn) and inspect.isfunction(fn.__wrapped__)
            assert type(fn).__name__ == "function"  # as messages that name an argument's type say
        else:
            assert inspect.isfunction(fn)


# --- each listed function's source has the shape the driver runs ----------------------------


def _expected_tail(row: tuple[Any, ...], names: list[str], out: str = "out") -> str:
    """The body from the kernel on, as codegen/plan_fast.py's docstring spells it (`out`:
    the output's name; grad_ops.py's is `x_grad`)."""
    name, table, node, inputs, saves, kind, jvp, _ = row
    arrays = ", ".join(f"{n}._data" for n in names)
    cls = [f"{names[0]}._data.__class__"]
    if len(names) == 1:
        lookup = f"_kernel = {table}.get({cls[0]}) or dispatch({name!r}, {{k}}, {arrays})"
    else:
        lookup = "\n".join(
            [
                "_kernel = (",
                f"    {names[0]}._data.__class__",
                f"    is {names[1]}._data.__class__",
                f"    and {table}.get({names[0]}._data.__class__)",
                f"    or dispatch({name!r}, {{k}}, {arrays})",
                ")",
            ]
        )
    lookup = lookup.replace("'", '"').replace("{k}", f'"{table.removeprefix("_k_")}"')
    rg = [f"{names[i]}._requires_grad" for i in inputs if i >= 0]
    tested = rg[0] if len(rg) == 1 else f"({' or '.join(rg)})"
    test = {"": "", "f": ' and _result.dtype.kind == "f"', "fc": ' and _result.dtype.kind in "fc"'}[kind]
    given = ", ".join("None" if i < 0 else names[i] for i in inputs)
    lines = [
        lookup,
        "try:",
        f"    _result = _kernel({arrays})",
        "except (TypeError, ValueError, OverflowError, MemoryError) as _e:",
        f'    raise kernel_error("{name}", _e) from None',
        f"if {tested} and grad_enabled(){test}:",
        f"    {out}, node = recorded(_nodes.{node}, _result, {given})",
    ]
    for slot, how, i in saves:
        lines.append(f"    node.{slot} = TensorWrapper.{how}({f'{out}, node' if i < 0 else names[i]})")
    lines += ["else:", f"    {out} = wrap(_result)"]
    if jvp:
        lines += ["if FORWARD.active:", f"    _jvp.{name}({', '.join(names)}, {out})"]
    lines.append(f"return {out}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_each_listed_body_has_the_driven_shape(name):
    fn = python_of(name)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    names = [a.arg for a in func.args.args]
    assert (
        not func.args.defaults and not func.args.kwonlyargs and not func.args.vararg and not func.args.kwarg
    )
    body = func.body[1:] if isinstance(func.body[0], ast.Expr) else func.body  # the docstring
    start = next(
        i for i, s in enumerate(body) if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "_kernel"
    )
    tail = "\n".join(ast.unparse(s) for s in body[start:])
    want = "\n".join(ast.unparse(s) for s in ast.parse(_expected_tail(BY_NAME[name], names)).body)
    assert tail == want
    # before the kernel: conversions and dtype tests that do nothing for Tensors of one float dtype
    for s in body[:start]:
        assert isinstance(s, ast.If) and not s.orelse
        test = compile(ast.Expression(s.test), "<test>", "eval")
        for dtype in FLOATS:
            env = {n: og.tensor(np.ones(2, dtype)) for n in names}
            assert eval(test, vars(ops), env) is False, ast.unparse(s)  # noqa: S307


# --- comparing the two paths ------------------------------------------------------------------


def describe(obj: Any, ins: list[Any], seen: dict[int, int] | None = None) -> Any:
    """What a path made, as plain values: arrays by dtype, shape and bytes, the inputs and
    their nodes by position, nodes and wrappers slot by slot (a node's `seq` by whether a
    wrapper names its node's)."""
    seen = {} if seen is None else seen
    for i, t in enumerate(ins):
        if obj is t:
            return ("input", i)
        if isinstance(t, Tensor) and t._node is not None and obj is t._node:
            return ("input node", i)
        if isinstance(t, Tensor) and t._acc is not None and obj is t._acc():
            return ("input accumulator", i)
    if isinstance(obj, np.ndarray):
        return ("array", type(obj).__name__, str(obj.dtype), obj.shape, obj.tobytes(), obj.flags.writeable)
    if isinstance(obj, tuple):
        return tuple(describe(o, ins, seen) for o in obj)
    if isinstance(obj, int | float | str | bool | type(None) | np.dtype | type):
        return (type(obj).__name__, obj)
    if id(obj) in seen:
        return ("seen", seen[id(obj)])
    seen[id(obj)] = len(seen)
    slots = [s for c in type(obj).__mro__ for s in getattr(c, "__slots__", ()) if s != "__weakref__"]
    fields = []
    for s in dict.fromkeys(slots):
        v = getattr(obj, s, "<unset>")
        if s == "seq" and isinstance(obj, GradNode):
            v = "<seq>"
        elif s == "seq":  # a wrapper's producer: its node's number
            v = ("seq of", [describe(n, ins, seen) for n in _nodes_with_seq(v)])
        elif s in ("_at", "_shape", "_nexts"):
            v = (v, any(v is z for z in grad_node._ZEROS))
        fields.append((s, describe(v, ins, seen) if not isinstance(v, str) or v == "<unset>" else v))
    return (type(obj).__name__, tuple(fields))


_NODES: list[GradNode] = []


def _nodes_with_seq(seq: int) -> list[GradNode]:
    return [n for n in _NODES if n.seq == seq]


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """fn's result described, or its error (class and message)."""
    try:
        out = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e), str(e))
    if isinstance(out, Tensor) and out._node is not None:
        _NODES.append(out._node)
    try:
        return describe(out, list(args))
    finally:
        _NODES.clear()


def inputs_for(
    row: tuple[Any, ...], dtype: Any, shapes: tuple[tuple[int, ...], ...], grads: tuple[bool, ...]
) -> list[Tensor]:
    rng = np.random.default_rng(len(row[0]) + len(shapes[0]))
    out = []
    for shape, rg in zip(shapes, grads, strict=True):
        data = rng.uniform(0.2, 0.8, shape).astype(dtype)
        out.append(og.tensor(data, requires_grad=rg))
    return out


def both(name: str, make: Callable[[], list[Any]], **kwargs: Any) -> tuple[Any, Any]:
    """(driver, Python) outcomes on fresh but equal inputs."""
    c = outcome(getattr(ops, name), *make(), **kwargs)
    py = outcome(python_of(name), *make(), **kwargs)
    return c, py


UNARY_SHAPES = [((),), ((4,),), ((3, 4),)]
BINARY_SHAPES = [((), ()), ((4,), (4,)), ((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((), (3, 4))]
GRADS = {1: [(False,), (True,)], 2: [(False, False), (True, False), (False, True), (True, True)]}


def _cases() -> list[Any]:
    cases = []
    for row in TABLE:
        n = len(row[3])
        for shapes in UNARY_SHAPES if n == 1 else BINARY_SHAPES:
            cases.append(pytest.param(row[0], shapes, id=f"{row[0]}-{'x'.join(map(str, shapes))}"))
    return cases


@pytest.mark.parametrize(("name", "shapes"), _cases())
def test_the_driver_makes_what_the_python_function_makes(name, shapes):
    row = BY_NAME[name]
    for dtype in FLOATS:
        for grads in GRADS[len(row[3])]:
            for grad_on in (True, False):
                with og.set_grad_enabled(grad_on):
                    c, py = both(name, lambda dtype=dtype, grads=grads: inputs_for(row, dtype, shapes, grads))
                assert c == py, (dtype, grads, grad_on)


BINARY_GRAD_SHAPES = ((3, 4), (4,))  # (test_fast_paths_cop2.py: grad ops get operands of one shape)


def _backward(name: str, ins: list[Tensor]) -> Any:
    out = getattr(ops, name)(*ins)
    if out.requires_grad:
        out.backward(og.ones_like(out))
    return [None if t.grad is None else t.grad._data for t in ins]


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_gradients_are_the_python_paths_and_never_alias(name):
    row = BY_NAME[name]
    n = len(row[3])
    shapes = ((3, 4),) if n == 1 else BINARY_GRAD_SHAPES
    if name in ("inv", "det", "solve", "matrix_exp", "svdvals", "trace", "matrix_transpose"):
        shapes = ((3, 3),) * n
    for dtype in FLOATS:
        ins_c = inputs_for(row, dtype, shapes, (True,) * n)
        ins_py = inputs_for(row, dtype, shapes, (True,) * n)
        try:
            got = _backward(name, ins_c)
        except Exception as e:  # noqa: BLE001
            got = ("raised", type(e), str(e))
        with _python_ops(name):
            try:
                want = _backward(name, ins_py)
            except Exception as e:  # noqa: BLE001
                want = ("raised", type(e), str(e))
        if isinstance(want, tuple):
            assert got == want
            continue
        for g, w in zip(got, want, strict=True):
            assert (g is None) == (w is None)
            if g is not None:
                assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes()
                assert not any(np.shares_memory(g, t._data) for t in ins_c)
        arrays = [g for g in got if g is not None]
        for i, g in enumerate(arrays):
            assert not any(np.shares_memory(g, h) for h in arrays[i + 1 :])


class _python_ops:
    """ops.<name> as the Python function for a while."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        self.saved = getattr(ops, self.name)
        setattr(ops, self.name, python_of(self.name))

    def __exit__(self, *exc: object) -> None:
        setattr(ops, self.name, self.saved)


def test_chain_gradients_and_double_backward_are_the_python_paths():
    def run() -> list[bytes]:
        x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
        c = og.tensor(np.full(16, 0.9), requires_grad=True)
        d = og.tensor(np.full(16, 0.1), requires_grad=True)
        y = x
        for _ in range(20):
            y = og.tanh(og.add(og.multiply(y, c), d))
        z = og.sum(og.divide(og.multiply(y, y), og.add(og.exp(y), c)))
        gx, gc_, gd = og.autograd.grad(z, [x, c, d], create_graph=True)
        (hx,) = og.autograd.grad(og.sum(gx), [x], retain_graph=True)
        z.backward()
        return [a._data.tobytes() for a in (y, gx, gc_, gd, hx, x.grad, c.grad, d.grad)]

    got = run()
    with (
        _python_ops("tanh"),
        _python_ops("add"),
        _python_ops("multiply"),
        _python_ops("divide"),
        _python_ops("exp"),
    ):
        want = run()
    assert got == want


# --- the cases the driver leaves to the Python function ---------------------------------------


class Sub(Tensor):
    __slots__ = ()


def _sub(t: Tensor) -> Sub:
    s = Sub.__new__(Sub)
    for k in ("_data", "_requires_grad", "_node", "_pos", "_grad", "_vc", "_acc", "_extra", "_dual"):
        setattr(s, k, getattr(t, k))
    return s


class ArraySub(np.ndarray):
    pass


def _fallback_inputs(kind: str, n: int, rg: bool) -> list[Any]:
    base = [og.tensor(np.linspace(0.2, 0.8, 4), requires_grad=rg) for _ in range(n)]
    if kind == "subclass":
        base[0] = _sub(base[0])
    elif kind == "scalar":
        base[-1] = 0.5
    elif kind == "int":
        base[0] = og.tensor(np.arange(1, 5))
    elif kind == "bool":
        base[0] = og.tensor(np.array([True, False, True, True]))
    elif kind == "mixed" and n == 2:
        base[1] = og.tensor(np.linspace(0.2, 0.8, 4).astype(np.float32), requires_grad=rg)
    elif kind == "array subclass":
        base[0]._data = base[0]._data.view(ArraySub)
    elif kind == "complex":
        base[0] = og.tensor(np.linspace(0.2, 0.8, 4) + 0.5j, requires_grad=rg)
    elif kind == "big endian":  # equal to float64, not FLOAT_DTYPES's member
        base[0]._data = base[0]._data.astype(">f8")
    return base


FALLBACKS = ["subclass", "scalar", "int", "bool", "mixed", "array subclass", "complex", "big endian"]


@pytest.mark.parametrize("kind", FALLBACKS)
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_other_arguments_give_the_python_functions_result_or_error(name, kind):
    n = len(BY_NAME[name][3])
    for rg in (False, True):
        c, py = both(name, lambda rg=rg: _fallback_inputs(kind, n, rg))
        assert c == py


def _python_calls(fn: Callable[[], Any], name: str) -> int:
    """How many times the Python function of ops.<name> ran during fn()."""
    code = python_of(name).__code__
    count = 0

    def prof(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call" and frame.f_code is code:
            count += 1

    sys.setprofile(prof)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


@needs_c
def test_the_common_case_runs_in_c_and_the_others_in_python():
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    y = og.tensor(np.linspace(0.5, 1, 4))
    assert _python_calls(lambda: og.tanh(x), "tanh") == 0
    assert _python_calls(lambda: og.multiply(x, y), "multiply") == 0
    with og.no_grad():
        assert _python_calls(lambda: og.add(x, y), "add") == 0
    assert _python_calls(lambda: og.add(x, 1.0), "add") == 0  # (test_fast_paths_cop2.py: numbers)
    assert _python_calls(lambda: og.add(x, True), "add") == 1
    assert _python_calls(lambda: og.tanh(x=x), "tanh") == 1
    assert _python_calls(lambda: og.add(x, y._data), "add") == 1
    assert _python_calls(lambda: og.tanh(_sub(x)), "tanh") == 1
    with og.autograd.forward_ad.dual_level():
        assert _python_calls(lambda: og.tanh(x), "tanh") == 1


@pytest.mark.parametrize("name", ["tanh", "multiply", "divide", "exp"])
def test_keyword_and_wrong_arguments_give_the_python_functions_result_or_error(name):
    n = len(BY_NAME[name][3])
    names = ["x", "y"][:n]
    c, py = both(name, lambda: [], **{k: og.tensor(np.full(3, 0.5)) for k in names})
    assert c == py and c[0] != "raised"
    for args in ([], [og.tensor(np.ones(2))] * (n + 1)):
        c, py = both(name, lambda args=args: list(args))
        assert c == py and c[0] == "raised"
    c, py = both(name, lambda: [og.tensor(np.ones(2))] * n, z=1)
    assert c == py and c[0] == "raised"


@pytest.mark.parametrize("name", ["tanh", "exp", "multiply", "divide"])
def test_forward_mode_gives_the_python_functions_tangents(name):
    n = len(BY_NAME[name][3])

    def run(fn: Callable[..., Any]) -> tuple[bytes, bytes]:
        fwd = og.autograd.forward_ad
        with fwd.dual_level():
            ins = [
                fwd.make_dual(og.tensor(np.linspace(0.2, 0.8, 4)), og.tensor(np.full(4, 0.5)))
                for _ in range(n)
            ]
            out = fn(*ins)
            p, t = fwd.unpack_dual(out)
            return p._data.tobytes(), t._data.tobytes()

    assert run(getattr(ops, name)) == run(python_of(name))


@pytest.mark.parametrize("name", ["tanh", "multiply", "divide"])
def test_anomaly_mode_and_saved_tensor_hooks_are_the_python_functions(name):
    n = len(BY_NAME[name][3])
    make = lambda: [og.tensor(np.linspace(0.2, 0.8, 4), requires_grad=True) for _ in range(n)]  # noqa: E731
    with detect_anomaly():
        c = getattr(ops, name)(*make())
        py = python_of(name)(*make())
        assert c._node.trace is not None and py._node.trace is not None
        assert type(c._node.trace) is type(py._node.trace)
    packed = []
    with saved_tensors_hooks(lambda t: (packed.append(t), t)[1], lambda t: t):
        c, py = both(name, make)
    assert c == py and len(packed) >= 2


@pytest.mark.parametrize(
    "exc", [TypeError, ValueError, OverflowError, MemoryError, ZeroDivisionError, KeyError]
)
@pytest.mark.parametrize("name", ["tanh", "add", "multiply"])
def test_a_kernel_error_is_the_python_functions_error(name, exc, monkeypatch):
    n = len(BY_NAME[name][3])
    table = getattr(ops, BY_NAME[name][1])
    ins = [og.tensor(np.ones(3), requires_grad=True) for _ in range(n)]
    getattr(ops, name)(*ins)  # resolved
    calls = []

    def broken(*arrays: Any) -> Any:
        calls.append(1)
        raise exc("broken kernel")

    monkeypatch.setitem(table, np.ndarray, broken)
    c, py = both(name, lambda: ins)
    assert c == py and c[0] == "raised"
    mapped = exc in (TypeError, ValueError, OverflowError, MemoryError)
    assert len(calls) == (3 if mapped and DRIVEN else 2)  # a mapped error: the Python body runs it again


# --- what the driver may read, changed --------------------------------------------------------


@needs_c
def test_a_changed_name_sends_every_op_to_its_python_function(monkeypatch):
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    calls = []
    pure = _accel.PURE["recorded"]

    def logged(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return pure(*args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(ops, "recorded", logged)
        og.tanh(x)
        og.multiply(x, x)
    assert calls == [N.TanhGradNode, N.MultiplyGradNode]
    og.tanh(x)
    assert len(calls) == 2 and _python_calls(lambda: og.tanh(x), "tanh") == 0
    saved = []
    with monkeypatch.context() as m:
        m.setattr(
            TensorWrapper,
            "of_output",
            staticmethod(lambda t, node: saved.append(t) or _accel.PURE["of_output"](t, node)),
        )
        y = og.tanh(x)
    assert saved == [y]
    with monkeypatch.context() as m:
        m.setattr(N, "TanhGradNode", N.SigmoidGradNode)
        assert type(og.tanh(x)._node) is N.SigmoidGradNode
    assert type(og.tanh(x)._node) is N.TanhGradNode
    with monkeypatch.context() as m:
        m.setattr(ops, "_k_tanh", {np.ndarray: lambda a: np.full_like(a, 7.0)})
        assert og.tanh(x)._data.tolist() == [7.0] * 4
    seen = []
    with monkeypatch.context() as m:
        m.setattr(ops, "grad_enabled", lambda: seen.append(1) or False)
        assert not og.tanh(x).requires_grad and seen == [1]


def test_grad_mode_off_in_another_thread_reads_this_threads_mode():
    import threading

    x = og.tensor(np.ones(3), requires_grad=True)
    entered, leave = threading.Event(), threading.Event()

    def other() -> None:
        with og.no_grad():
            entered.set()
            leave.wait(5)

    t = threading.Thread(target=other)
    t.start()
    entered.wait(5)
    try:
        assert og.tanh(x).requires_grad and og.add(x, x).requires_grad
        with og.no_grad():
            assert not og.tanh(x).requires_grad
    finally:
        leave.set()
        t.join()


# --- reference counts, weak references -------------------------------------------------------


@needs_c
def test_reference_counts_do_not_leak_and_outputs_die():
    x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    c = og.tensor(np.full(16, 0.9))
    plain = og.tensor(np.full(16, 0.5))
    og.tanh(og.add(og.multiply(x, c), c))
    og.tanh(plain)
    kernels = [ops._k_tanh[np.ndarray], ops._k_add[np.ndarray], ops._k_multiply[np.ndarray]]
    watched = [x, c, plain, x._data, c._data, plain._data, x._data.dtype, N.TanhGradNode, N.AddGradNode]
    watched += [N.MultiplyGradNode, ops._k_tanh, ops.tanh, ops.tanh.__wrapped__, *kernels]
    assert_no_leaks(
        watched,
        lambda: (og.tanh(og.add(og.multiply(x, c), c)), og.tanh(plain), og.multiply(plain, c), og.tanh(x)),
    )


def assert_no_leaks(watched: list[Any], calls: Callable[[], tuple[Tensor, ...]]) -> None:
    """1000 rounds of `calls` leave `watched`'s reference counts as they were, and the
    tensors they made (and their arrays) die without the collector."""
    gc.collect()
    before = [sys.getrefcount(o) for o in watched]
    refs = []
    gc.disable()
    try:
        for _ in range(1000):
            for t in calls():
                if len(refs) < 40:
                    refs += [weakref.ref(t), weakref.ref(t._data)]
        del t
        assert all(r() is None for r in refs)
    finally:
        gc.enable()
    gc.collect()
    assert [sys.getrefcount(o) for o in watched] == before


# --- the C object looks like the function ------------------------------------------------------


class _Holder:
    tanh = ops.tanh
    add = ops.add


def test_the_op_looks_like_its_function():
    for name in ("tanh", "add", "angle"):
        fn, py = getattr(ops, name), python_of(name)
        assert fn.__name__ == py.__name__ == name and fn.__qualname__ == py.__qualname__
        assert fn.__module__ == py.__module__ == "opgrad.generated.ops" and fn.__doc__ == py.__doc__
        assert inspect.signature(fn) == inspect.signature(py)
        assert inspect.getdoc(fn) == inspect.getdoc(py) and inspect.getsource(fn) == inspect.getsource(py)
        assert repr(fn) == repr(py) and fn.__annotations__ == py.__annotations__
        assert pickle.loads(pickle.dumps(fn)) is fn and copy.copy(fn) is fn and copy.deepcopy(fn) is fn
        assert callable(fn) and weakref.ref(fn)() is fn
    x = og.tensor(np.full(3, 0.5))
    h = _Holder()
    assert _Holder.tanh is ops.tanh and h.tanh.__func__ is ops.tanh and h.tanh.__self__ is h
    assert inspect.signature(h.add) == inspect.signature(python_of("add").__get__(h))
    bound = _Holder.__dict__["tanh"].__get__(x, type(x))
    assert bound()._data.tobytes() == og.tanh(x)._data.tobytes()
    assert _Holder.__dict__["add"].__get__(x)(x)._data.tolist() == [1.0] * 3

    @functools.wraps(ops.tanh)
    def wrapper(*args: Any) -> Any:
        return ops.tanh(*args)

    assert (
        wrapper.__name__ == "tanh" and wrapper.__wrapped__ is ops.tanh and wrapper.__doc__ == ops.tanh.__doc__
    )
    assert inspect.signature(wrapper) == inspect.signature(python_of("tanh"))


@needs_c
def test_another_generated_module_has_its_own_context(monkeypatch):
    """A second module generated with the table (a test's spec, a copy) binds its ops to its
    own namespace: what it changes never reaches these ops, nor the other way round."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("opgrad_ops_copy", ops.__file__)
    assert spec is not None and spec.loader is not None
    copy_ops = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy_ops)
    assert not inspect.isfunction(copy_ops.tanh) and copy_ops.tanh is not ops.tanh
    assert copy_ops.tanh.__wrapped__.__globals__ is vars(copy_ops)
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    calls = []
    pure = _accel.PURE["recorded"]
    monkeypatch.setattr(copy_ops, "recorded", lambda *a, **k: (calls.append(a[0]), pure(*a, **k))[1])
    og.tanh(x)
    assert calls == [] and _python_calls(lambda: og.tanh(x), "tanh") == 0
    copy_ops.tanh(x)
    assert calls == [N.TanhGradNode]
    monkeypatch.setattr(ops, "wrap", lambda data: pytest.fail("ops.wrap read by the copy"))
    assert not copy_ops.tanh(og.tensor(np.ones(2))).requires_grad


@needs_c
def test_a_module_that_does_not_fit_keeps_its_functions_and_the_others_stay_driven():
    """A generated module whose ops read no FLOAT_DTYPES (none tests a dtype) is driven all
    the same; one that lacks what the driver reads keeps its Python functions, with a
    warning, and nothing else changes."""
    namespace = dict(vars(ops))
    del namespace["FLOAT_DTYPES"]
    dtypes = tuple(np.dtype(n) for n in ("float16", "float32", "float64"))
    assert type(_accel._speedups.setup_ops(namespace, dtypes)).__name__ == "ops_context"
    fn = python_of("tanh")
    bogus = {"__name__": "bogus", "tanh": fn}
    with pytest.warns(RuntimeWarning, match="bogus does not fit"):
        _accel.ops(bogus, [BY_NAME["tanh"]])
    assert (
        bogus["tanh"] is fn
        and _accel.ACTIVE
        and _python_calls(lambda: og.tanh(og.tensor(np.ones(2))), "tanh") == 0
    )
