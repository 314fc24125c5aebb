"""The C driver of the generated nodes' first-order `apply` (`_accel.nodes`,
runtime/_speedups.c) against the Python methods it stands in for (`__wrapped__`): the same
gradients (values, dtypes, shapes, aliasing), bit for bit, and the same errors, over every
class of the table.

The table is generated/nodes.py's own (`_accel.NODES_TABLES`), and the nodes come from the
op table of tests/op_samples*.py (every sample's graph, in float16/32/64, with every subset
of its differentiable inputs requiring grad: every `needs` combination), so a new node of
the shape is covered here without a change. Without the extension (or with OPGRAD_PURE
set) the classes keep their Python methods: the comparisons then run the method against
itself and the C-only tests skip.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import itertools
import pickle
import sys
import textwrap
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from test_fast_paths_cop import assert_no_leaks

import opgrad as og
from op_samples import OPS, OpInfo, Sample
from opgrad.generated import nodes as N
from opgrad.runtime import _accel
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.tensor_wrapper import saved_tensors_hooks

TABLE = _accel.NODES_TABLES[N.__name__]
BY_CLASS = {row[0]: row for row in TABLE}
DRIVEN = _accel.ACTIVE and not inspect.isfunction(N.TanhGradNode.__dict__["apply"])
needs_c = pytest.mark.skipif(not DRIVEN, reason="runtime/_speedups not built, or OPGRAD_PURE set")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # log(0) and the like, on both paths
FLOATS = (np.float16, np.float32, np.float64)


def python_apply(cls: type) -> Callable[..., Any]:
    """The Python method behind cls.apply (itself on the pure path)."""
    fn = cls.__dict__["apply"]
    return getattr(fn, "__wrapped__", fn)


@contextlib.contextmanager
def python_methods() -> Iterator[None]:
    """Every listed class runs its Python `apply` (the driver off) inside the block."""
    classes = [getattr(N, row[0]) for row in TABLE]
    saved = [c.__dict__["apply"] for c in classes]
    for c in classes:
        c.apply = python_apply(c)
    try:
        yield
    finally:
        for c, f in zip(classes, saved, strict=True):
            c.apply = f


def test_the_table_lists_the_plain_nodes_and_they_are_driven():
    assert {"TanhGradNode", "AddGradNode", "MultiplyGradNode", "MatmulGradNode", "LinearGradNode"} <= set(
        BY_CLASS
    )
    assert len(TABLE) >= 120
    for name in BY_CLASS:
        cls = getattr(N, name)
        assert issubclass(cls, GradNode) and cls.__name__ == name
        if DRIVEN:
            fn = cls.__dict__["apply"]
            assert not inspect.isfunction(fn) and inspect.isfunction(fn.__wrapped__)
            assert fn.__wrapped__.__qualname__ == f"{name}.apply"
        else:
            assert inspect.isfunction(cls.__dict__["apply"])


# --- each listed method's source has the shape the driver runs --------------------------------


def expected_first_order(cls: type, row: tuple[Any, ...], grad: str, locals_: list[str]) -> str:
    """The first-order path, as codegen/plan_fast_nodes.py's docstring spells it, from the row
    (`locals_`: the gradients' names, by result)."""
    _, table, saves, args, arrays, results, returns = row
    op, kernel = cls.name, table.removeprefix("_k_")
    lines = [
        f"{s} = unpack_data(self.{s}, self)" if form == "data" else f"{s} = self.{s}" for s, form in saves
    ]
    names = [f"{grad}._data" if a < 0 else saves[a][0] for a in arrays]
    resolve = f"dispatch({op!r}, {kernel!r}, {', '.join(names)})"
    if len(names) == 1:
        lines.append(f"_kernel = {table}.get({names[0]}.__class__) or {resolve}")
    else:
        alike = " is ".join(f"{n}.__class__" for n in names)
        lines.append(f"_kernel = {alike} and {table}.get({names[0]}.__class__) or {resolve}")

    def arg(kind: str, value: Any) -> str:
        if kind == "save":
            return saves[value][0]
        if kind == "grad":
            return f"{grad}._data"
        if kind == "attr":
            return f"self.{value}"
        edges = [f"self._next{p} is not None" if p < 2 else f"self._nexts[{p}] is not None" for p in value]
        return "(" + ", ".join(edges) + ("," if len(edges) == 1 else "") + ")"

    call = f"_kernel({', '.join(arg(k, v) for k, v in args)})"
    errors = "(TypeError, ValueError, OverflowError, MemoryError)"
    target = f"{locals_[0]} = wrap({call})" if results == "" else f"_results = {call}"
    lines += [
        "try:",
        f"    {target}",
        f"except {errors} as _e:",
        f"    raise kernel_error({op!r}, _e) from None",
    ]
    if results:
        rs = [f"_r{i}" for i in range(len(results))]
        lines += [
            "try:",
            f"    {', '.join(rs)} = _results if _results.__class__ is tuple else (_results,)",
            "except ValueError:",
            f"    raise kernel_results_error({op!r}, {len(rs)}, _results) from None",
        ]
        for r, kind, local in zip(rs, results, locals_, strict=True):
            lines.append(
                f"{local} = wrap({r})" if kind == "t" else f"{local} = None if {r} is None else wrap({r})"
            )
    entries = ["None" if i < 0 else locals_[i] for i in returns]
    lines.append(f"return ({', '.join(entries)}{',' if len(entries) == 1 else ''})")
    return "\n".join(lines)


def shape_mismatch(cls: type, row: tuple[Any, ...]) -> str | None:
    """None when `cls.apply`'s Python source has the shape `row` describes; else what differs."""
    source = textwrap.dedent(inspect.getsource(python_apply(cls)))
    body = ast.parse(source).body[0].body  # type: ignore[attr-defined]
    first = ast.unparse(body[0])
    if not first.endswith(" = grads[0]"):
        return f"first statement {first!r}"
    grad = first.removesuffix(" = grads[0]")
    at = 1
    while isinstance(body[at], ast.AnnAssign) and body[at].value is None:
        at += 1
    if ast.unparse(body[at].test) != "create_graph":  # type: ignore[attr-defined]
        return "no create_graph branch"
    rest = body[at + 1 :]
    returned = rest[-1].value
    if not isinstance(returned, ast.Tuple) or len(returned.elts) != len(row[6]):
        return "returns"
    locals_ = [""] * max(len(row[5]), 1)
    for e, i in zip(returned.elts, row[6], strict=True):
        if (i < 0) != (isinstance(e, ast.Constant) and e.value is None):
            return "returned None"
        if i >= 0:
            locals_[i] = ast.unparse(e)
    if "" in locals_:
        return "a result not returned"
    expected = ast.parse(expected_first_order(cls, row, grad, locals_)).body
    got = "\n".join(ast.dump(s) for s in rest)
    want = "\n".join(ast.dump(s) for s in expected)
    return None if got == want else "\n".join(ast.unparse(s) for s in rest)


@pytest.mark.parametrize("name", sorted(BY_CLASS))
def test_each_listed_method_has_the_driven_shape(name):
    assert shape_mismatch(getattr(N, name), BY_CLASS[name]) is None


def test_the_shape_check_rejects_a_broken_row():
    row = BY_CLASS["MultiplyGradNode"]
    cls = N.MultiplyGradNode
    swapped = (*row[:3], (row[3][1], row[3][0], *row[3][2:]), *row[4:])
    assert shape_mismatch(cls, swapped) is not None
    assert shape_mismatch(cls, (*row[:5], "to", *row[6:])) is not None
    assert shape_mismatch(cls, (*row[:6], (1, 0))) is not None
    assert (
        shape_mismatch(N.TanhGradNode, (*BY_CLASS["TanhGradNode"][:2], (("out", "meta"),), *row[3:]))
        is not None
    )


# --- the nodes of every op sample: C apply against the Python method --------------------------


def _cast(a: Any, dtype: Any) -> Any:
    if isinstance(a, np.ndarray) and a.dtype.kind == "f":
        return a.astype(dtype)
    if isinstance(a, list) and a and all(isinstance(v, np.ndarray) for v in a):
        return [_cast(v, dtype) for v in a]
    return a


def _tensors(a: Any, rg: bool) -> Any:
    if isinstance(a, np.ndarray):
        return og.tensor(a, requires_grad=rg and a.dtype.kind in "fc")
    if isinstance(a, list) and a and all(isinstance(v, np.ndarray) for v in a):
        return [og.tensor(v, requires_grad=rg and v.dtype.kind in "fc") for v in a]
    return a


def run_sample(
    info: OpInfo, sample: Sample, dtype: Any, grad_args: tuple[int, ...]
) -> tuple[list[Any], list[Tensor]]:
    """The inputs and tensor outputs of one call, `grad_args` requiring grad."""
    args = [_tensors(_cast(a, dtype), i in grad_args) for i, a in enumerate(sample.args)]
    if sample.seed is not None:
        og.manual_seed(sample.seed)
    out = info.op(*args, **sample.kwargs)
    outs = list(out) if isinstance(out, tuple | list) else [out]
    return args, [o for o in outs if isinstance(o, Tensor)]


def graph_nodes(outs: list[Tensor]) -> list[GradNode]:
    seen: dict[int, GradNode] = {}
    stack = [o._node for o in outs if o._node is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen[id(n)] = n
        stack += [m for m in (n._next0, n._next1, *(n._nexts or ())) if isinstance(m, GradNode)]
    return list(seen.values())


def grad_subsets(info: OpInfo) -> list[tuple[int, ...]]:
    diff = tuple(info.diff_args)
    subsets = [s for r in range(1, len(diff) + 1) for s in itertools.combinations(diff, r)]
    return subsets if len(diff) <= 3 else [diff, *((d,) for d in diff)]


def same_outcome(call_c: Callable[[], Any], call_py: Callable[[], Any], grads_c: Any, grads_py: Any) -> None:
    """Both calls return the same gradients (or raise the same error), bit for bit, aliasing
    their gradient's array alike."""
    try:
        py = call_py()
    except Exception as e:  # noqa: BLE001 - compared with the C path's below
        with pytest.raises(type(e)) as info:
            call_c()
        assert str(info.value) == str(e)
        return
    c = call_c()
    assert type(c) is tuple and len(c) == len(py)
    for a, b in zip(c, py, strict=True):
        assert (a is None) == (b is None)
        if a is None:
            continue
        assert type(a) is type(b) is Tensor and type(a._data) is type(b._data)
        assert not a.requires_grad and a._node is None and a._vc is None and a._extra is None
        assert a._data.dtype == b._data.dtype and a._data.shape == b._data.shape
        assert np.asarray(a._data).tobytes() == np.asarray(b._data).tobytes()
        assert np.shares_memory(a._data, grads_c) == np.shares_memory(b._data, grads_py)


def check_nodes(nodes: list[GradNode], rng: np.random.Generator) -> set[str]:
    """Each listed node's apply, C against Python; the classes checked."""
    done = set()
    for node in nodes:
        cls = type(node)
        if cls.__name__ not in BY_CLASS or node._shape is None:
            continue
        g = rng.standard_normal(node._shape)
        if node._dtype.kind == "c":  # (the driver leaves these to the method)
            g = g + 1j * rng.standard_normal(node._shape)
        g = g.astype(node._dtype)
        gc_, gp = og.tensor(g.copy()), og.tensor(g.copy())
        same_outcome(
            lambda n=node, a=gc_: n.apply([a], False),
            lambda n=node, b=gp, k=cls: python_apply(k)(n, [b], False),
            gc_._data,
            gp._data,
        )
        done.add(cls.__name__)
    return done


def _samples(info: OpInfo) -> list[Sample]:
    return [s for s in info.sample_list() if s.forward or s.seed is not None][:3]


REACHED: set[str] = set()


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_node_of_the_op_samples_applies_as_the_python_method(name):
    info = OPS[name]
    rng = np.random.default_rng(7)
    for sample, dtype, grad_args in itertools.product(_samples(info), FLOATS, grad_subsets(info)):
        try:
            args, outs = run_sample(info, sample, dtype, grad_args)
        except Exception:  # noqa: BLE001 - a sample an op refuses in this dtype: nothing to compare
            continue
        REACHED.update(check_nodes(graph_nodes(outs), rng))
        if dtype is not np.float64:
            continue
        # the first gradients, recorded: their graph holds the grad ops' nodes (second order)
        outs = [o for o in outs if o.requires_grad and o.dtype.kind == "f"]
        leaves = [t for a in args for t in (a if isinstance(a, list) else [a]) if isinstance(t, Tensor)]
        leaves = [t for t in leaves if t.requires_grad]
        try:
            firsts = og.grad(sum(_weighted(o) for o in outs), leaves, create_graph=True, allow_unused=True)
        except Exception:  # noqa: BLE001 - an op without a second order: nothing to compare
            continue
        REACHED.update(check_nodes(graph_nodes([f for f in firsts if f is not None]), rng))


def test_the_op_samples_reach_the_table():
    if not REACHED:  # run alone: reach them here
        for name in sorted(OPS):
            test_every_node_of_the_op_samples_applies_as_the_python_method(name)
    assert set(BY_CLASS) <= REACHED, sorted(set(BY_CLASS) - REACHED)


def _weighted(o: Tensor) -> Tensor:
    w = np.linspace(0.5, 1.5, o.size).reshape(o.shape).astype(o.dtype)
    return (o * og.tensor(w)).sum()


@pytest.mark.parametrize("name", sorted(OPS))
def test_backward_passes_give_the_python_methods_gradients(name):
    """A whole backward pass of each sample, with and without the driver: the same leaf
    gradients, bit for bit, none aliasing an input or another gradient."""
    info = OPS[name]
    for sample, dtype in itertools.product(_samples(info)[:2], (np.float32, np.float64)):
        results = []
        for driver in (True, False):
            with contextlib.nullcontext() if driver else python_methods():
                try:
                    args, outs = run_sample(info, sample, dtype, tuple(info.diff_args))
                    outs = [o for o in outs if o.requires_grad and o.dtype.kind == "f"]
                    if not outs:
                        raise LookupError
                    loss = sum(_weighted(o) for o in outs)
                    loss.backward()
                except Exception as e:  # noqa: BLE001 - compared across the two runs
                    results.append((type(e), str(e)))
                    continue
            leaves = [t for a in args for t in (a if isinstance(a, list) else [a]) if isinstance(t, Tensor)]
            grads = [t.grad for t in leaves]
            arrays = [t._data for t in leaves] + [g._data for g in grads if g is not None]
            for g in grads:
                if g is not None:
                    assert not any(np.shares_memory(g._data, a) for a in arrays if a is not g._data)
            results.append([None if g is None else (g._data.dtype, g._data.tobytes()) for g in grads])
        assert results[0] == results[1]


# --- the chain, the MLP, higher order ---------------------------------------------------------


def _chain(n: int = 50) -> tuple[list[Tensor], Tensor]:
    a = og.tensor(np.linspace(0.1, 0.9, 16), requires_grad=True)
    b = og.tensor(np.linspace(-0.3, 0.3, 16), requires_grad=True)
    y = og.tensor(np.linspace(-1, 1, 16))
    for _ in range(n):
        y = og.tanh(y * a + b)
    return [a, b], y.sum()


def _mlp() -> tuple[list[Tensor], Tensor]:
    rng = np.random.default_rng(0)
    w1 = og.tensor(rng.standard_normal((8, 16)) * 0.3, requires_grad=True)
    b1 = og.tensor(np.zeros(16), requires_grad=True)
    w2 = og.tensor(rng.standard_normal((16, 4)) * 0.3, requires_grad=True)
    x = og.tensor(rng.standard_normal((5, 8)))
    h = og.relu(og.matmul(x, w1) + b1)
    out = og.matmul(og.tanh(h), w2)
    return [w1, b1, w2], (out * out).mean()


@pytest.mark.parametrize("make", [_chain, _mlp])
def test_first_and_higher_order_gradients_are_the_python_methods(make):
    results = []
    for driver in (True, False):
        with contextlib.nullcontext() if driver else python_methods():
            params, loss = make()
            first = og.grad(loss, params, create_graph=True)
            second = og.grad(
                sum(g.sum() for g in first[1:]) + (first[0] * first[0]).sum(), params, allow_unused=True
            )
            params2, loss2 = make()
            loss2.backward()
            results.append(
                [g._data.tobytes() for g in first]
                + [None if g is None else g._data.tobytes() for g in second]
                + [p.grad._data.tobytes() for p in params2]
            )
    assert results[0] == results[1]


@needs_c
def test_create_graph_goes_to_the_python_method():
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    node = og.tanh(x * x)._node
    g = og.tensor(np.linspace(0.5, 1, 4), requires_grad=True)
    node.apply([g], False)  # resolves the kernel
    assert _python_calls(lambda: node.apply([g], True)) == 1
    c, py = node.apply([g], True)[0], python_apply(N.TanhGradNode)(node, [g], True)[0]
    assert c.requires_grad and py.requires_grad and type(c._node) is type(py._node)
    assert c._data.tobytes() == py._data.tobytes()


APPLY_CODES = {python_apply(getattr(N, row[0])).__code__ for row in TABLE}


def _python_calls(fn: Callable[[], Any]) -> int:
    """How many times a listed class's Python `apply` ran during fn()."""
    calls: list[str] = []
    sys.setprofile(lambda frame, event, _: calls.append(event) if frame.f_code in APPLY_CODES else None)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls.count("call")


@needs_c
def test_the_common_case_runs_in_c_and_the_others_in_python():
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    a = og.tensor(np.linspace(0.5, 1, 4), requires_grad=True)
    y = og.tanh(x * a + a)
    g = og.tensor(np.ones(4))
    for node in graph_nodes([y]):
        if type(node).__name__ in BY_CLASS:
            node.apply([g], False)
            assert _python_calls(lambda n=node: n.apply([g], False)) == 0, type(node)
            assert _python_calls(lambda n=node: n.apply((g,), False)) == 0
    node = y._node
    cases = [
        lambda: node.apply([g], True),  # create_graph
        lambda: node.apply([g], 0),  # not exactly False
        lambda: node.apply(grads=[g], create_graph=False),  # keywords
        lambda: node.apply([og.tensor(np.ones(4, dtype=np.int64))], False),  # another dtype
        lambda: node.apply([og.tensor(np.ones(4, dtype=np.complex128))], False),
    ]
    for case in cases:
        assert _python_calls(case) == 1
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        hooked = og.tanh(x)
    assert _python_calls(lambda: hooked._node.apply([g], False)) == 1

    class Sub(N.TanhGradNode):
        __slots__ = ()

    sub = og.tanh(x)._node
    sub.__class__ = Sub
    assert _python_calls(lambda: sub.apply([g], False)) == 1


@needs_c
@pytest.mark.parametrize("op", [og.tanh, og.exp, og.sqrt])
def test_a_stale_saved_output_raises_the_python_error(op):
    x = og.tensor(np.linspace(0.5, 1, 4), requires_grad=True)
    y = op(x * 1.0)
    node = y._node
    g = og.tensor(np.ones(4))
    node.apply([g], False)
    y.add_(1.0)
    with pytest.raises(RuntimeError) as py:
        python_apply(type(node))(node, [g], False)
    with pytest.raises(RuntimeError) as c:
        node.apply([g], False)
    assert str(c.value) == str(py.value) and "modified by an in-place operation" in str(c.value)


@needs_c
def test_a_stale_saved_input_raises_the_python_error():
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    h = x * 1.0
    y = h * x
    node = y._node
    g = og.tensor(np.ones(4))
    node.apply([g], False)
    h.add_(1.0)
    with pytest.raises(RuntimeError) as py:
        python_apply(N.MultiplyGradNode)(node, [g], False)
    with pytest.raises(RuntimeError) as c:
        node.apply([g], False)
    assert str(c.value) == str(py.value) and "modified by an in-place operation" in str(c.value)


@needs_c
@pytest.mark.parametrize("exc", [ValueError("bad"), TypeError("worse"), KeyError("other")])
def test_a_kernel_error_is_the_python_methods_error(exc, monkeypatch):
    for cls, make in ((N.TanhGradNode, og.tanh), (N.MultiplyGradNode, lambda x: x * x)):
        x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
        y = make(x)
        g = og.tensor(np.ones(4))
        y._node.apply([g], False)
        table = getattr(N, BY_CLASS[cls.__name__][1])

        def boom(*args: Any) -> Any:
            raise exc

        monkeypatch.setitem(table, np.ndarray, boom)
        with pytest.raises(type(exc)) as py:
            python_apply(cls)(y._node, [g], False)
        with pytest.raises(type(exc)) as c:
            y._node.apply([g], False)
        assert str(c.value) == str(py.value) and type(c.value) is type(py.value)
        assert (c.value.__cause__, c.value.__suppress_context__) == (
            py.value.__cause__,
            py.value.__suppress_context__,
        )


@needs_c
@pytest.mark.parametrize("result", [(np.ones(4),), np.ones(4), [np.ones(4), np.ones(4)], (np.ones(4),) * 3])
def test_a_kernel_returning_another_count_is_the_python_methods_error(result, monkeypatch):
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    y = x * x
    g = og.tensor(np.ones(4))
    y._node.apply([g], False)
    monkeypatch.setitem(N._k_multiply_grad, np.ndarray, lambda *a: result)
    with pytest.raises(Exception) as py:
        python_apply(N.MultiplyGradNode)(y._node, [g], False)
    with pytest.raises(type(py.value)) as c:
        y._node.apply([g], False)
    assert str(c.value) == str(py.value)


@needs_c
def test_monkeypatched_names_are_read(monkeypatch):
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    y = og.tanh(x)
    g = og.tensor(np.ones(4))
    node = y._node
    node.apply([g], False)
    marker = np.full(4, 7.0)
    # a new table object in nodes.py's namespace, and a new kernel in the table itself
    monkeypatch.setattr(N, "_k_tanh_grad", {np.ndarray: lambda out, grad: marker})
    assert node.apply([g], False)[0]._data is marker
    monkeypatch.setitem(N._k_tanh_grad, np.ndarray, lambda out, grad: marker * 2)
    assert node.apply([g], False)[0]._data.tolist() == [14.0] * 4
    monkeypatch.undo()
    assert (
        node.apply([g], False)[0]._data.tobytes()
        == python_apply(N.TanhGradNode)(node, [g], False)[0]._data.tobytes()
    )
    for name in ("unpack_data", "wrap", "dispatch", "kernel_error", "kernel_results_error"):
        calls = []
        original = getattr(N, name)
        monkeypatch.setattr(N, name, lambda *a, o=original, c=calls: (c.append(1), o(*a))[1])
        out = node.apply([g], False)
        # what the C path itself stands for sends it to the method; the names only the
        # method's other branches read (a kernel not resolved, an error) change nothing here
        expect = {"unpack_data": 1, "wrap": 1}.get(name, 0)
        assert len(calls) == expect and _python_calls(lambda: node.apply([g], False)) == expect
        assert out[0]._data.tobytes() == python_apply(N.TanhGradNode)(node, [g], False)[0]._data.tobytes()
        monkeypatch.undo()
        assert _python_calls(lambda: node.apply([g], False)) == 0
    calls = []
    monkeypatch.setattr(N, "dispatch", lambda *a, o=N.dispatch: (calls.append(a[0]), o(*a))[1])
    monkeypatch.delitem(N._k_tanh_grad, np.ndarray)  # not resolved: the method's dispatch resolves it
    node.apply([g], False)
    node.apply([g], False)
    assert calls == ["tanh_grad"] and _python_calls(lambda: node.apply([g], False)) == 0
    monkeypatch.undo()
    # tensor_wrapper's names, which unpack_data reads
    from opgrad.runtime import tensor_wrapper

    monkeypatch.setattr(tensor_wrapper, "Tensor", tensor_wrapper.Tensor)  # rebinding alone: checked again
    assert _python_calls(lambda: node.apply([g], False)) == 0
    monkeypatch.setattr(tensor_wrapper, "_Output", type("Other", (), {}))
    assert _python_calls(lambda: node.apply([g], False)) == 1


def test_every_needs_combination_of_a_binary_node():
    rng = np.random.default_rng(3)
    for dtype, (sx, sy) in itertools.product(
        FLOATS, [((2, 3), (2, 3)), ((2, 3), (3,)), ((), (2, 3)), ((2, 1, 3), (4, 1))]
    ):
        for rx, ry in ((True, True), (True, False), (False, True)):
            x = og.tensor(rng.standard_normal(sx).astype(dtype), requires_grad=rx)
            y = og.tensor(rng.standard_normal(sy).astype(dtype), requires_grad=ry)
            for op in (og.multiply, og.add, og.subtract, og.divide, og.maximum):
                out = op(x, y)
                g = rng.standard_normal(out.shape).astype(dtype)
                gc_, gp = og.tensor(g.copy()), og.tensor(g.copy())
                node = out._node
                same_outcome(
                    lambda n=node, a=gc_: n.apply([a], False),
                    lambda n=node, b=gp: python_apply(type(n))(n, [b], False),
                    gc_._data,
                    gp._data,
                )


# --- reference counts, the object ---------------------------------------------------------------


@needs_c
def test_reference_counts_do_not_leak_and_gradients_die():
    x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    c = og.tensor(np.full(16, 0.9), requires_grad=True)
    y = og.tanh(x * c + c)
    nodes = graph_nodes([y])
    lin_w = og.tensor(np.ones((3, 2)), requires_grad=True)
    lin = og.linear(og.tensor(np.ones((4, 3))), lin_w, og.tensor(np.zeros(2), requires_grad=True))
    nodes += [lin._node]
    g16 = og.tensor(np.ones(16))
    g_lin = og.tensor(np.ones((4, 2)))
    grads = {id(n): (g_lin if n is lin._node else g16) for n in nodes}
    for n in nodes:
        n.apply([grads[id(n)]], False)
    watched = [*nodes, g16, g16._data, g_lin, x, c, x._data, c._data, N.TanhGradNode, N.MultiplyGradNode]
    watched += [
        N.AddGradNode,
        N.LinearGradNode,
        N._k_tanh_grad,
        N._k_tanh_grad[np.ndarray],
        N.TanhGradNode.apply,
    ]
    watched += [np.dtype("float64"), True, False]

    def calls() -> tuple[Tensor, ...]:
        outs = [t for n in nodes for t in n.apply([grads[id(n)]], False) if t is not None]
        # (add_grad passes its gradient's array on: that one lives on)
        return tuple(t for t in outs if not any(np.shares_memory(t._data, g._data) for g in (g16, g_lin)))

    assert_no_leaks(watched, calls)


def test_the_apply_looks_like_its_method():
    for name in ("TanhGradNode", "MultiplyGradNode", "LinearGradNode"):
        cls = getattr(N, name)
        fn, py = cls.__dict__["apply"], python_apply(cls)
        assert fn.__name__ == "apply" and fn.__qualname__ == py.__qualname__ == f"{name}.apply"
        assert fn.__module__ == py.__module__ == N.__name__ and fn.__doc__ == py.__doc__
        assert inspect.signature(fn) == inspect.signature(py) and repr(fn) == repr(py)
        assert inspect.getsource(fn) == inspect.getsource(py)
        assert cls.apply is fn and pickle.loads(pickle.dumps(fn)) is fn and weakref.ref(fn)() is fn
    x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    node = og.tanh(x)._node
    bound = node.apply
    assert bound.__self__ is node and bound.__func__ is N.TanhGradNode.__dict__["apply"]
    g = og.tensor(np.ones(4))
    assert bound([g], False)[0]._data.tobytes() == N.TanhGradNode.apply(node, [g], False)[0]._data.tobytes()


@needs_c
def test_a_module_that_does_not_fit_keeps_its_methods():
    namespace = {"__name__": "bogus", "TanhGradNode": N.TanhGradNode}
    before = N.TanhGradNode.__dict__["apply"]
    with pytest.warns(RuntimeWarning, match="bogus does not fit"):
        _accel.nodes(
            namespace, [(*BY_CLASS["TanhGradNode"][:2], (("out", "bad"),), *BY_CLASS["TanhGradNode"][3:])]
        )
    assert N.TanhGradNode.__dict__["apply"] is before


@needs_c
def test_a_broken_row_gives_other_gradients():
    """The planted mutation: a row whose kernel arguments are swapped runs (the driver trusts
    its table) and gives other gradients, which the comparisons above catch."""
    row = BY_CLASS["MultiplyGradNode"]
    swapped = (*row[:3], (row[3][1], row[3][0], *row[3][2:]), *row[4:])
    dtypes = tuple(np.dtype(n) for n in ("float16", "float32", "float64"))
    py = python_apply(N.MultiplyGradNode)
    bad = _accel._speedups.node_apply(N.MultiplyGradNode, py, swapped, dtypes, N.wrap, N.unpack_data)
    x = og.tensor(np.linspace(1, 2, 4), requires_grad=True)
    y = og.tensor(np.linspace(2, 3, 4), requires_grad=True)
    node = (x * y)._node
    g = og.tensor(np.linspace(-1, 1, 4))
    node.apply([g], False)
    with pytest.raises(AssertionError):
        same_outcome(
            lambda: bad(node, [g], False),
            lambda: python_apply(N.MultiplyGradNode)(node, [g], False),
            g._data,
            g._data,
        )
