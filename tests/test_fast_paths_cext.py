"""The optional C primitives (runtime/_speedups.c, bound by runtime/_accel.py) against the
Python functions they replace: the same objects, slots, reference counts and errors.

Skipped unless the extension is built (`python tools/build_speedups.py`) and OPGRAD_PURE
is unset; `test_pure_is_the_default_without_the_extension` runs either way.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import subprocess
import sys
import weakref
from pathlib import Path
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

needs_c = pytest.mark.skipif(not _accel.ACTIVE, reason="runtime/_speedups not built, or OPGRAD_PURE set")

# every slot a node has but `seq` (one counter: the C node is the next number)
NODE_SLOTS = tuple(n for n in GradNode.__slots__ if n not in ("seq", "__weakref__"))
TENSOR_SLOTS = ("_data", "_requires_grad", "_node", "_pos", "_grad", "_vc", "_acc", "_extra", "_dual")
_UNSET = object()


def slots(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: getattr(obj, n, _UNSET) for n in names}


def c_and_py(name: str) -> tuple[Any, Any]:
    c = grad_node.recorded if name == "recorded" else getattr(TensorWrapper, name)
    return c, _accel.PURE[name]


def same_node(n1: GradNode, n2: GradNode) -> None:
    """Two nodes made by the two paths from the same inputs hold the same objects."""
    assert type(n1) is type(n2)
    s1, s2 = slots(n1, NODE_SLOTS), slots(n2, NODE_SLOTS)
    for k in NODE_SLOTS:
        if k == "_shape":
            assert s1[k] == s2[k]
        else:
            assert s1[k] is s2[k] or (isinstance(s1[k], tuple) and s1[k] == s2[k]), k
    # the positions are the shared all-zero tuple on both paths, or equal fresh ones
    assert (n1._at is n2._at) == (not any(n1._at))
    assert n2.seq == n1.seq + 1  # one counter


def same_tensor(t1: Tensor, t2: Tensor, n1: GradNode, n2: GradNode) -> None:
    assert type(t1) is type(t2) is Tensor
    s1, s2 = slots(t1, TENSOR_SLOTS), slots(t2, TENSOR_SLOTS)
    assert s1.pop("_node") is n1 and s2.pop("_node") is n2
    assert s1 == s2 and all(s1[k] is s2[k] for k in s1)


def inputs() -> list[Any]:
    """Tensors of every kind `recorded` distinguishes: constants, leaves, outputs at
    position 0 and 1, a leaf of another shape, None."""
    leaf = og.tensor(np.linspace(-1, 1, 6), requires_grad=True)
    const = og.tensor(np.full(6, 0.5))
    out0 = og.tanh(leaf)
    out1 = og.split(leaf * 2.0, 2)[1]  # output position 1 of its node
    other = og.tensor(np.ones(3), requires_grad=True)
    return [None, const, leaf, out0, out1, other]


@needs_c
def test_the_c_versions_are_bound_where_generated_code_reads_them():
    assert type(ops.recorded).__name__ == "builtin_function_or_method"
    assert ops.recorded is grad_node.recorded
    for name in ("of_output", "of_edge", "meta_of"):
        assert type(getattr(TensorWrapper, name)).__name__ == "builtin_function_or_method"
        assert callable(_accel.PURE[name]) and _accel.PURE[name].__module__.endswith("tensor_wrapper")


def test_pure_is_the_default_without_the_extension():
    code = "from opgrad.runtime import _accel, grad_node as g\n"
    code += "print(_accel.ACTIVE, type(g.recorded).__name__)"
    env = {**os.environ, "OPGRAD_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "function"]


def test_another_python_runs_pure_and_the_build_script_says_why(monkeypatch, capsys):
    """The C file reads CPython 3.11's object layouts: on another version _accel never
    imports a build (even one made by hand), and tools/build_speedups.py refuses to build."""
    # (NumPy imported first: it reads the version to choose its own imports)
    code = "import sys\nimport numpy\nsys.version_info = (3, 12, 0, 'final', 0)\n"
    code += "from opgrad.runtime import _accel, grad_node as g\n"
    code += "print(_accel.ACTIVE, type(g.recorded).__name__)"
    env = {k: v for k, v in os.environ.items() if k != "OPGRAD_PURE"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "function"]

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("build_speedups", root / "tools" / "build_speedups.py")
    assert spec is not None and spec.loader is not None
    build_speedups = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_speedups)
    monkeypatch.setattr(build_speedups, "build", lambda: pytest.fail("built on another Python"))
    monkeypatch.setattr(sys, "version_info", (3, 12, 0, "final", 0))
    assert build_speedups.main([]) == 2
    assert "CPython 3.11" in capsys.readouterr().err


@needs_c
@pytest.mark.parametrize("arity", [1, 2])
def test_recorded_makes_what_the_python_function_makes(arity):
    c, py = c_and_py("recorded")
    data = np.linspace(0.0, 1.0, 6)
    ins = inputs()
    cls = N.TanhGradNode if arity == 1 else N.MultiplyGradNode
    pairs = [(a,) for a in ins] if arity == 1 else [(a, b) for a in ins for b in ins]
    for args in pairs:
        t1, n1 = py(cls, data, *args)
        t2, n2 = c(cls, data, *args)
        same_node(n1, n2)
        same_tensor(t1, t2, n1, n2)
        # an elementwise output shares its first input's node's shape tuple when equal
        a = args[0]
        if a is not None and a._requires_grad and a.shape == (6,):
            src = a._node if a._node is not None else grad_node.accumulator_of(a)
            assert n1._shape is src._shape and n2._shape is src._shape


@needs_c
def test_recorded_with_out_and_errors_are_the_python_ones():
    c, py = c_and_py("recorded")
    x = og.tensor(np.ones(3), requires_grad=True)
    out = og.tensor(np.zeros(3))
    t, n = c(N.NegGradNode, out._data, x, out=out)
    assert t is out and out._node is n and n._next0 is x._acc()
    for bad in ([1.0, 2.0], 3.0):
        with pytest.raises(RuntimeError) as e1:
            py(N.NegGradNode, bad, x)
        with pytest.raises(RuntimeError) as e2:
            c(N.NegGradNode, bad, x)
        assert str(e1.value) == str(e2.value)
    for args in [(), (N.NegGradNode,), (N.NegGradNode, x._data, x, x, x)]:
        with pytest.raises(TypeError) as e1:
            py(*args)
        with pytest.raises(TypeError) as e2:
            c(*args)
        assert str(e1.value) == str(e2.value)


class _Shape:
    """An 'array' whose dtype raises: the node is made and linked before it is read."""

    shape = (2,)

    @property
    def dtype(self) -> Any:
        raise ValueError("no dtype")


@needs_c
def test_an_error_midway_is_raised_as_python_raises_it():
    c, py = c_and_py("recorded")
    x = og.tensor(np.ones(2), requires_grad=True)
    for fn in (py, c):
        with pytest.raises(ValueError, match="no dtype"):
            fn(N.NegGradNode, _Shape(), x)


@needs_c
def test_subclasses_and_changed_classes_take_the_python_path():
    c, py = c_and_py("recorded")
    calls = []

    class Sub(Tensor):
        __slots__ = ()

    class Logged(N.TanhGradNode):
        __slots__ = ()

    x = Sub.__new__(Sub)
    base = og.tensor(np.ones(4), requires_grad=True)
    for k in TENSOR_SLOTS:
        setattr(x, k, getattr(base, k))
    t1, n1 = py(N.TanhGradNode, base._data, x)
    t2, n2 = c(N.TanhGradNode, base._data, x)
    same_node(n1, n2)
    same_tensor(t1, t2, n1, n2)
    c(Logged, base._data, base)  # checked and cached as taking the C path
    Logged.__setattr__ = lambda self, k, v: (calls.append(k), object.__setattr__(self, k, v))  # type: ignore[method-assign]
    t, n = c(Logged, base._data, base)
    assert "_next0" in calls and "trace" in calls and type(n) is Logged and t._node is n
    del Logged.__setattr__
    calls.clear()
    c(Logged, base._data, base)
    assert calls == []

    class NotANode:  # not a GradNode: its attributes are set through its __dict__
        pass

    _, m1 = py(NotANode, base._data, base)
    _, m2 = c(NotANode, base._data, base)
    v1, v2 = vars(m1), vars(m2)
    assert v1.pop("seq") + 1 == v2.pop("seq") and v1 == v2


@needs_c
def test_anomaly_mode_records_the_trace():
    x = og.tensor(np.ones(2), requires_grad=True)
    with detect_anomaly():
        y = og.tanh(x)
    assert y._node.trace is not None
    assert og.tanh(x)._node.trace is None


@needs_c
def test_reference_counts_and_nothing_leaks():
    x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    c = og.tensor(np.full(16, 0.9))
    d = og.tensor(np.full(16, 0.1))
    watched = [x, c, d, x._data, c._data, d._data, N.TanhGradNode, N.MultiplyGradNode, N.AddGradNode]
    watched += [grad_node._ZEROS[1], grad_node._ZEROS[2], grad_node._ONE]

    def chain(n: int) -> tuple[Any, list[Any]]:
        y = x
        refs = []  # every array and node the chain made (a saved wrapper holds its array)
        for _ in range(n):
            for t in (m := og.multiply(y, c), s := og.add(m, d), y := og.tanh(s)):
                refs += [weakref.ref(t._data), weakref.ref(t._node)]
        return y, refs

    chain(3)  # x's accumulator, metadata caches
    gc.collect()
    acc = x._acc()
    before = [sys.getrefcount(o) for o in watched]
    gc.disable()  # freed by reference counting, not by the cyclic collector
    try:
        for backward in (True, False):
            y, refs = chain(50)
            if backward:
                y.sum().backward()
            del y
            assert all(r() is None for r in refs)
    finally:
        gc.enable()
    x.grad = None
    gc.collect()
    assert x._acc() is acc or x._acc() is None
    after = [sys.getrefcount(o) for o in watched]
    assert after == before


@needs_c
def test_the_graph_keeps_as_many_gc_objects_as_on_the_python_path(monkeypatch):
    x = og.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    c = og.tensor(np.full(16, 0.9))

    def count(n: int) -> int:
        y = og.tanh(og.multiply(x, c))
        gc.collect()
        gc.disable()
        try:
            start = gc.get_count()[0]
            keep = []
            for _ in range(n):
                y = og.tanh(og.add(og.multiply(y, c), c))
                keep.append(y)
            return gc.get_count()[0] - start
        finally:
            gc.enable()

    def per_30_links() -> int:  # the fixed part (the first calls fill caches) cancels
        return [count(60) - count(30) for _ in range(3)][-1]

    n_c = per_30_links()
    use_pure(monkeypatch)
    assert per_30_links() == n_c


def use_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bind the Python primitives where the C ones were bound."""
    monkeypatch.setattr(grad_node, "recorded", _accel.PURE["recorded"])
    monkeypatch.setattr(ops, "recorded", _accel.PURE["recorded"])
    for name in ("of_output", "of_edge", "meta_of"):
        monkeypatch.setattr(TensorWrapper, name, staticmethod(_accel.PURE[name]))


def chain_grads(n: int, size: int) -> tuple[np.ndarray, ...]:
    x = og.tensor(np.linspace(-1, 1, size), requires_grad=True)
    c = og.tensor(np.full(size, 0.9), requires_grad=True)
    d = og.tensor(np.full(size, 0.1), requires_grad=True)
    y = x
    for _ in range(n):
        y = og.tanh(og.add(og.multiply(y, c), d))
    z = og.sum(og.multiply(y, y))
    gx, gc_, gd = og.autograd.grad(z, [x, c, d], create_graph=True)
    (hx,) = og.autograd.grad(og.sum(gx), [x], retain_graph=True)
    z.backward()
    return y._data, gx._data, gc_._data, gd._data, hx._data, x.grad._data, c.grad._data, d.grad._data


@needs_c
def test_gradients_are_bit_for_bit_the_python_paths(monkeypatch):
    got = chain_grads(20, 16)
    use_pure(monkeypatch)
    want = chain_grads(20, 16)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes()
    # no gradient buffer aliases another
    for i, g in enumerate(got):
        for h in got[i + 1 :]:
            assert not np.shares_memory(g, h)


@needs_c
def test_saved_tensor_wrappers_are_the_python_ones():
    c_out, py_out = c_and_py("of_output")
    c_edge, py_edge = c_and_py("of_edge")
    c_meta, py_meta = c_and_py("meta_of")
    x = og.tensor(np.linspace(-1, 1, 5), requires_grad=True)
    for make in (py_out, c_out):
        t, node = grad_node.recorded(N.TanhGradNode, np.tanh(x._data), x)
        w = make(t, node)
        assert type(w).__name__ == "_Output" and t._vc is w
        assert (w.value, w.shared, w.data, w.pos, w.seq) == (0, False, t._data, 0, node.seq)
        assert make(t, node).__class__.__name__ == "_OutputSeen"  # the counter exists now
        node.out = w
        # a fresh output saved by the next node is that wrapper; a written one is not
        assert c_edge(t) is py_edge(t) is w
        w.value = 1
        e1, e2 = py_edge(t), c_edge(t)
        assert type(e1) is type(e2) and e1.tensor is e2.tensor is t and e1._seen == e2._seen == 1
        w.value = 0
    const = og.tensor(np.ones(5))
    assert c_edge(const) is py_edge(const) is const
    assert c_meta(x) is py_meta(x) is c_meta(const)
    y32 = og.tensor(np.ones(5, dtype=np.float32))
    m = c_meta(y32)
    assert m is py_meta(y32) and m.dtype == np.float32 and m is not c_meta(x)
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        t, node = grad_node.recorded(N.TanhGradNode, np.tanh(x._data), x)
        assert type(c_out(t, node)) is type(py_out(t, node))
        assert type(c_edge(x)) is type(py_edge(x))


@needs_c
def test_a_subclass_output_is_saved_as_python_saves_it():
    c_out, py_out = c_and_py("of_output")
    c_edge, py_edge = c_and_py("of_edge")

    class Sub(Tensor):
        __slots__ = ()

    for make in (py_out, c_out):
        t = Sub.__new__(Sub)
        base = og.tensor(np.ones(2), requires_grad=True)
        for k in TENSOR_SLOTS:
            setattr(t, k, getattr(base, k))
        node = og.tanh(base)._node
        w = make(t, node)
        assert type(w).__name__ == "_Output" and t._vc is w
        e1, e2 = py_edge(t), c_edge(t)
        assert type(e1) is type(e2)


@needs_c
def test_every_entry_point_raises_before_its_setup_instead_of_crashing():
    """A fresh copy of the extension (a process that never imports opgrad): each function whose
    Python fallback its setup binds raises a RuntimeError when called before that setup
    (it used to call through a NULL fallback: the process died)."""
    path = Path(_accel._speedups.__file__)
    script = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("_speedups", {str(path)!r})
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
assert "opgrad" not in sys.modules
calls = {{
    "run_backward": ([], 0, {{}}, None, False, False),
    "count_deps": ([], None),
    "backward": ([None],),
    "tensor_backward": (None,),
    "of_output": (None, None),
    "of_edge": (None,),
    "meta_of": (None,),
    "recorded": (None, None, None),
    "accumulator_of": (None,),
    "edge_to": (None,),
    "of_input": (None,),
    "wrap": (None,),
}}
for name, args in calls.items():
    try:
        getattr(m, name)(*args)
    except RuntimeError:
        continue
    raise SystemExit(name + " did not raise RuntimeError")
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stdout, r.stderr)
