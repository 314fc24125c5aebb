"""A leaf's edge and an op's saved inputs in C (runtime/_speedups.c, the section after
`recorded`, wt-leafacc, issue 11): a leaf's AccumulateGrad, which every step makes again for
every parameter (the leaf holds it weakly: the last step's graph took it along), is made by
`acc_make` (from `recorded`'s edges and the C `grad_node.accumulator_of`) with exactly the
slots `AccumulateGrad.__init__` sets; `TensorWrapper.of_input` has a C version, which the C
`of_edge` runs for an input with a version counter (a parameter after its first update);
`recorded(..., out=out)` (new_node_of) stays in C. Each C result is compared with the Python
function's (`_accel.PURE`); the tests that need the C build are skipped in the pure run, the
others (sharing, freeing, hooks, anomaly mode, threads, reference counts) run both ways.
"""

from __future__ import annotations

import gc
import os
import pickle
import subprocess
import sys
import threading
import tracemalloc
import types
import weakref
from typing import Any

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import _accel, grad_holder, grad_node
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import LEAF_SEQ, accumulator_of
from opgrad.runtime.tensor import wrap
from opgrad.runtime.tensor_wrapper import TensorWrapper, _Hooked, _Input, saved_tensors_hooks
from opgrad.runtime.version import counter_of

needs_c = pytest.mark.skipif(
    "accumulator_of" not in _accel.PURE or "of_input" not in _accel.PURE,
    reason="runtime/_speedups not built, or OPGRAD_PURE set",
)
PY_ACC_OF = _accel.PURE.get("accumulator_of", accumulator_of)
SLOTS = [n for c in AccumulateGrad.__mro__ for n in c.__dict__.get("__slots__", ()) if n != "__weakref__"]


def _leaf(shape=(3, 4), dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return og.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)


class _Calls:
    """Counts the Python calls of the given functions' code objects while active (a profile
    function: the functions themselves stay as they are)."""

    def __init__(self, *fns) -> None:
        self.codes = {f.__code__: 0 for f in fns}

    def __enter__(self) -> _Calls:
        def prof(frame, event, arg):
            if event == "call" and frame.f_code in self.codes:
                self.codes[frame.f_code] += 1

        sys.setprofile(prof)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)

    def __getitem__(self, fn) -> int:
        return self.codes[fn.__code__]


def _same_slots(a: AccumulateGrad, b: AccumulateGrad, leaf_a, leaf_b) -> None:
    """a and b (made for leaves leaf_a and leaf_b, equal arrays) hold the same slots."""
    assert type(a) is type(b) is AccumulateGrad
    assert len(SLOTS) == 13  # GradNode's 12 and `variable`: a new slot must be added to acc_make
    for name in SLOTS:
        va, vb = getattr(a, name), getattr(b, name)
        if name == "variable":
            assert va is leaf_a and vb is leaf_b
        elif name == "_shape":
            assert va == vb and type(va) is tuple
        else:
            assert va is vb or (va == vb and type(va) is type(vb)), name
    assert a.seq is LEAF_SEQ and a._nexts == a._at == () and a._atype is np.ndarray
    assert a._dtype is leaf_a._data.dtype and a.trace is None and a._released is False


@needs_c
def test_the_c_versions_are_bound():
    assert type(grad_node.accumulator_of).__name__ == "builtin_function_or_method"
    assert type(TensorWrapper.of_input).__name__ == "builtin_function_or_method"
    assert _accel.PURE["accumulator_of"].__module__.endswith("grad_node")
    assert _accel.PURE["of_input"].__module__.endswith("tensor_wrapper")


@needs_c
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64])
def test_the_c_made_accumulator_is_the_python_ones_slot_for_slot(dtype):
    arr = np.arange(12).reshape(3, 4).astype(dtype)
    w_c, w_py = og.tensor(arr), og.tensor(arr.copy())
    for w in (w_c, w_py):
        w._requires_grad = True  # (an integer tensor's accumulator is made the same way)
    accumulator_of(_leaf())  # the first one in a process sets `later.grad_holder` (Python)
    with _Calls(AccumulateGrad.__init__, PY_ACC_OF) as calls:
        acc_c = accumulator_of(w_c)
    assert calls[AccumulateGrad.__init__] == 0 and calls[PY_ACC_OF] == 0  # made in C
    acc_py = PY_ACC_OF(w_py)
    _same_slots(acc_c, acc_py, w_c, w_py)
    assert w_c._acc() is acc_c and type(w_c._acc) is weakref.ReferenceType
    # recorded's edge to a leaf (edge_of) makes the same
    if dtype is not np.int64:
        w_rec = _leaf(dtype=dtype)
        with _Calls(AccumulateGrad.__init__, PY_ACC_OF) as calls:
            y = og.tensor(np.ones((2, 3), dtype)) @ w_rec
        assert calls[AccumulateGrad.__init__] == 0 and calls[PY_ACC_OF] == 0
        other = _leaf(dtype=dtype)
        _same_slots(y._node._next1, PY_ACC_OF(other), w_rec, other)


def test_a_live_accumulator_is_shared_and_dies_with_the_graph():
    w = _leaf()
    x = og.tensor(np.ones((2, 3), np.float32))
    y1 = x @ w
    y2 = w * 2.0
    acc = y1._node._next1
    assert isinstance(acc, AccumulateGrad) and y2._node._next0 is acc and accumulator_of(w) is acc
    assert w._acc() is acc and acc.variable is w
    ref = weakref.ref(acc)
    del acc, y1
    assert ref() is not None  # y2's graph still uses it
    del y2
    assert ref() is None and w._acc() is None  # freed with the graph, without the collector
    y3 = x @ w
    assert y3._node._next1 is w._acc() and y3._node._next1 is not None


def test_a_leaf_used_in_several_graphs_gets_one_accumulator_per_lifetime():
    w = _leaf()
    x = og.tensor(np.ones((2, 3), np.float32))
    losses = [(x @ w).sum() for _ in range(3)]
    accs = {id(loss._node._next0._next1) for loss in losses}
    assert len(accs) == 1
    for loss in losses:
        loss.backward()
    assert np.array_equal(w.grad.numpy(), 3 * (x.numpy().T @ np.ones((2, 4), np.float32)))
    del losses, loss
    assert w._acc() is None
    loss = (x @ w).sum()
    assert loss._node._next0._next1 is w._acc()


def test_hooks_registered_on_the_leaf_before_and_after_the_forward():
    seen = []
    w = _leaf()
    x = og.tensor(np.ones((2, 3), np.float32))
    w.register_hook(lambda g: seen.append("before") or g * 2.0)
    loss = (x @ w).sum()
    w.register_hook(lambda g: seen.append("after") or g + 1.0)
    post = []
    w.register_post_accumulate_grad_hook(lambda t: post.append(t.grad.numpy().copy()))
    loss.backward()
    expect = (x.numpy().T @ np.ones((2, 4), np.float32)) * 2.0 + 1.0
    assert seen == ["before", "after"] and np.array_equal(w.grad.numpy(), expect)
    assert len(post) == 1 and np.array_equal(post[0], expect)
    # the accumulator's own hooks (on the node) run too
    loss = (x @ w).sum()
    calls = []
    loss._node._next0._next1.register_prehook(lambda grads: calls.append(1))
    w.grad = None
    loss.backward()
    assert calls == [1] and seen == ["before", "after", "before", "after"]


def test_anomaly_mode_gets_the_python_accumulator_with_its_trace():
    w = _leaf()
    x = og.tensor(np.ones((2, 3), np.float32))
    with og.autograd.detect_anomaly():
        with _Calls(AccumulateGrad.__init__) as calls:
            y = x @ w
        acc = y._node._next1
        assert acc.trace is not None and "test_fast_paths_leafacc" in acc.trace
    assert calls[AccumulateGrad.__init__] == 1
    del y, acc
    y = x @ w
    assert y._node._next1.trace is None


def test_a_changed_class_or_init_takes_the_python_path(monkeypatch):
    w = _leaf()
    x = og.tensor(np.ones((2, 3), np.float32))
    made = []
    init = AccumulateGrad.__init__

    def counting_init(self, variable):
        made.append(variable)
        init(self, variable)

    monkeypatch.setattr(AccumulateGrad, "__init__", counting_init)
    y = x @ w
    assert made == [w] and isinstance(y._node._next1, AccumulateGrad)
    del y
    assert accumulator_of(w).variable is w and made == [w, w]
    monkeypatch.undo()
    del made[:]

    class Sub(AccumulateGrad):
        __slots__ = ()

    monkeypatch.setattr(grad_holder, "AccumulateGrad", Sub)
    y = x @ w
    assert type(y._node._next1) is Sub
    del y
    assert type(accumulator_of(w)) is Sub
    monkeypatch.undo()
    y = x @ w
    assert type(y._node._next1) is AccumulateGrad


def test_a_tensor_subclass_leaf_and_other_arrays():
    class MyTensor(og.Tensor):
        pass

    w = _leaf()
    sub = MyTensor.__new__(MyTensor)
    sub._init_fields(w.numpy().copy())
    sub._requires_grad = True
    acc = accumulator_of(sub)
    assert type(acc) is AccumulateGrad and acc.variable is sub and sub._acc() is acc
    # a 0-d leaf, a non-contiguous one
    for data in (np.float64(2.0) * np.ones(()), np.ones((4, 6))[:, ::2]):
        t = og.tensor(data, requires_grad=True)
        assert accumulator_of(t)._shape == data.shape


def _train(steps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    sizes = [(8, 16), (16,), (16, 4), (4,)]
    params = [og.tensor((rng.standard_normal(s) * 0.3).astype(np.float32), requires_grad=True) for s in sizes]
    w1, b1, w2, b2 = params
    x = og.tensor(rng.standard_normal((5, 8)).astype(np.float32))
    y = og.tensor(rng.integers(0, 4, size=5))
    grads = []
    for _ in range(steps):
        loss = og.nn.functional.cross_entropy(og.tanh(x @ w1 + b1) @ w2 + b2, y)
        loss.backward()
        del loss  # (as in a step function: the next forward makes new accumulators)
        grads.append([p.grad.numpy().copy() for p in params])
        with og.no_grad():
            for p in params:
                p.subtract_(p.grad * 0.1)
                p.grad = None
    return params, grads


def _train_nn(steps: int, seed: int = 0):
    """The same with nn.Linear layers (nn.Parameter leaves: a Tensor subclass) and optim.SGD."""
    og.manual_seed(seed)
    nn = og.nn
    model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 4))
    opt = og.optim.SGD(model.parameters(), lr=0.1)
    rng = np.random.default_rng(seed)
    x = og.tensor(rng.standard_normal((5, 8)).astype(np.float32))
    y = og.tensor(rng.integers(0, 4, size=5))
    grads = []
    for _ in range(steps):
        opt.zero_grad()
        og.nn.functional.cross_entropy(model(x), y).backward()
        grads.append([p.grad.numpy().copy() for p in model.parameters()])
        opt.step()
    return grads


@pytest.mark.parametrize("train", ["_train", "_train_nn"])
def test_grads_over_training_steps_are_the_pure_runs_bit_for_bit(train):
    result = globals()[train](5)
    grads = result[1] if train == "_train" else result
    code = (
        "import sys, pickle\nsys.path.insert(0, sys.argv[1])\n"
        "import test_fast_paths_leafacc as t\n"
        f"r = t.{train}(5)\n"
        f"sys.stdout.buffer.write(pickle.dumps(r[1] if {train == '_train'} else r))"
    )
    env = {**os.environ, "OPGRAD_PURE": "1"}
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, "-c", code, here], env=env, capture_output=True, check=True)
    pure = pickle.loads(out.stdout)
    for step, pure_step in zip(grads, pure, strict=True):
        for g, p in zip(step, pure_step, strict=True):
            assert g.dtype == p.dtype and g.tobytes() == p.tobytes()


def test_a_parameter_leaf_gets_the_same_accumulator_and_saves():
    """nn.Parameter (a Tensor subclass with Tensor's slots) takes the C paths too."""
    p, q = og.nn.Parameter(np.ones((3, 4), np.float32)), og.nn.Parameter(np.ones((3, 4), np.float32))
    accumulator_of(_leaf())  # (the first one in a process is made in Python)
    with _Calls(AccumulateGrad.__init__) as calls:
        acc = accumulator_of(p)
    if "accumulator_of" in _accel.PURE:
        assert calls[AccumulateGrad.__init__] == 0
    _same_slots(acc, PY_ACC_OF(q), p, q)
    py_input = _accel.PURE.get("of_input", TensorWrapper.of_input)
    py_edge = _accel.PURE.get("of_edge", TensorWrapper.of_edge)
    py_meta = _accel.PURE.get("meta_of", TensorWrapper.meta_of)
    if "recorded" in _accel.PURE:  # an op on a Parameter is recorded in C too
        y = p * 2.0  # (the op driver takes exact Tensors: the Python op calls recorded)
        with _Calls(_accel.PURE["recorded"], AccumulateGrad.__init__) as calls:
            y = og.ops.multiply(p, og.tensor(np.float32(2.0)))
        assert calls[_accel.PURE["recorded"]] == calls[AccumulateGrad.__init__] == 0
        assert y._node._next0 is p._acc() and y._requires_grad
        del y
    TensorWrapper.meta_of(p)  # (a shape's first metadata is made in Python)
    for version in (0, 0, 2):
        with og.no_grad():
            for _ in range(version):
                p.add_(1.0)
        with _Calls(py_input, py_edge, py_meta) as calls:
            got = [TensorWrapper.of_input(p), TensorWrapper.of_edge(p), TensorWrapper.meta_of(p)]
        if "of_input" in _accel.PURE:
            assert calls[py_input] == calls[py_edge] == calls[py_meta] == 0
        want = [py_input(p), py_edge(p), py_meta(p)]
        _same_saved(got[0], want[0], p)
        _same_saved(got[1], want[1], p)
        assert got[2] is want[2]
        assert type(got[0]) is _Input and got[0]._seen == (p._vc.value if p._vc is not None else 0)
        if p._vc is None:
            counter_of(p)  # the second round: a counter at 0


def test_edge_to_is_the_python_ones():
    py_edge_to = _accel.PURE.get("edge_to", grad_node.edge_to)
    w = _leaf()
    p = og.nn.Parameter(np.ones(3))
    y = w * 2.0
    parts = og.split(og.tensor(np.arange(6.0), requires_grad=True), 2)
    assert len(parts) > 1
    for t in (w, p, y, parts[-1]):
        got, want = grad_node.edge_to(t), py_edge_to(t)
        assert type(got) is tuple and len(got) == 2 and got[0] is want[0] and got[1] == want[1]
    assert grad_node.edge_to(parts[-1])[1] == len(parts) - 1 and grad_node.edge_to(w)[0] is w._acc()


def test_a_rebound_accumulator_of_is_what_edge_to_calls(monkeypatch):
    w = _leaf()
    monkeypatch.setattr(grad_node, "accumulator_of", lambda t: "marker")
    assert grad_node.edge_to(w) == ("marker", 0)
    monkeypatch.undo()
    assert isinstance(grad_node.edge_to(w)[0], AccumulateGrad)


def test_a_rebound_accumulator_of_is_what_recorded_calls(monkeypatch):
    """recorded's edge to a leaf calls grad_node's accumulator_of as it is bound now (the
    Python recorded reads the global), whether the leaf's accumulator is alive or not."""
    w = _leaf()
    x = og.tensor(np.ones((3, 4), np.float32))
    keep = x * w  # (an op of the C driver: w's accumulator alive while keep lives)
    alive = keep.grad_fn.next_functions[1][0]
    assert isinstance(alive, AccumulateGrad)
    seen = []

    def counted(t: Any) -> Any:
        seen.append(t)
        return alive

    monkeypatch.setattr(grad_node, "accumulator_of", counted)
    y = x * w
    assert seen == [w] and y.grad_fn.next_functions[1][0] is alive
    del keep, y
    seen.clear()
    y = x * w  # (no accumulator alive now: what the rebound function returns)
    assert seen == [w] and y.grad_fn.next_functions[1][0] is alive
    monkeypatch.undo()
    z = x * w
    assert seen == [w] and isinstance(z.grad_fn.next_functions[1][0], AccumulateGrad)


def test_reference_counts_stay_over_a_thousand_steps():
    """And no memory is left behind (a leaked shape tuple, say)."""
    params, _ = _train(3)
    # (AccumulateGrad: a heap type, which each instance holds a reference to)
    objs = [*params, *(p._data for p in params), LEAF_SEQ, AccumulateGrad, ()]

    def counts():
        return [sys.getrefcount(o) for o in objs]

    x = og.tensor(np.ones((5, 8), np.float32))
    w1, b1, w2, b2 = params
    gc.collect()
    before, n_objects = counts(), len(gc.get_objects())
    tracemalloc.start()
    start = tracemalloc.take_snapshot()
    for _ in range(1000):
        loss = (og.tanh(x @ w1 + b1) @ w2 + b2).sum()
        loss.backward()
        del loss  # (the next step's forward then makes new accumulators)
        with og.no_grad():
            for p in params:
                p.subtract_(p.grad * 0.01)
                p.grad = None
    del p
    gc.collect()
    grown = sum(d.size_diff for d in tracemalloc.take_snapshot().compare_to(start, "filename"))
    tracemalloc.stop()
    assert grown < 50_000  # a leaked shape tuple per accumulator would be ~330 KB
    assert counts() == before
    assert len(gc.get_objects()) <= n_objects + 5
    assert all(p._acc() is None for p in params)


def test_threads_share_the_leaves():
    w = _leaf((6, 6), np.float64)
    x = og.tensor(np.ones((2, 6)))
    errors = []
    barrier = threading.Barrier(4)

    def work():
        try:
            barrier.wait()
            for _ in range(200):
                (og.tanh(x @ w) * 0.5).sum().backward()
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    one = w.grad.numpy().copy()
    w.grad = None
    (og.tanh(x @ w) * 0.5).sum().backward()
    np.testing.assert_allclose(one, 800 * w.grad.numpy(), rtol=1e-12)
    assert w._acc() is None


# -- of_input and of_edge ------------------------------------------------------------------


def _same_saved(a, b, t) -> None:
    assert type(a) is type(b)
    if type(a) is _Input:
        assert a.tensor is b.tensor is t and a._seen == b._seen and type(a._seen) is int
    else:
        assert a is b


@pytest.mark.parametrize("version", [None, 0, 1, 5])
def test_of_input_and_of_edge_of_a_tensor_with_a_version_counter(version):
    t = _leaf()
    if version is not None:
        with og.no_grad():
            for _ in range(version):
                t.add_(1.0)
        if version == 0:
            counter_of(t)  # a counter at 0
    py_input = _accel.PURE.get("of_input", TensorWrapper.of_input)
    py_edge = _accel.PURE.get("of_edge", TensorWrapper.of_edge)
    with _Calls(py_input, py_edge) as calls:
        got_input = TensorWrapper.of_input(t)
        got_edge = TensorWrapper.of_edge(t)
    if "of_input" in _accel.PURE:
        assert calls[py_input] == 0 and calls[py_edge] == 0  # all in C
    _same_saved(got_input, py_input(t), t)
    _same_saved(got_edge, py_edge(t), t)
    _same_saved(got_edge, got_input, t)
    if version:
        assert type(got_edge) is _Input and got_edge._seen == version
        with og.no_grad():
            t.add_(1.0)
        node = (t * 2.0)._node
        with pytest.raises(RuntimeError, match="modified by an in-place operation"):
            got_edge.unpack(node)
    else:
        assert got_edge is t


def test_of_input_under_saved_tensors_hooks_and_for_other_kinds():
    t = _leaf()
    with og.no_grad():
        t.add_(1.0)
    with saved_tensors_hooks(lambda x: x, lambda x: x):
        assert type(TensorWrapper.of_input(t)) is _Hooked
        assert type(TensorWrapper.of_edge(t)) is _Hooked

    class MyTensor(og.Tensor):
        pass

    sub = MyTensor.__new__(MyTensor)
    sub._init_fields(np.ones(3))
    w = TensorWrapper.of_input(sub)
    assert type(w) is _Input and w.tensor is sub and w._seen == 0
    fresh = wrap(np.ones(2))
    assert TensorWrapper.of_input(fresh) is fresh


def test_a_parameter_saved_by_matmul_after_an_update_is_checked_on_use():
    w = _leaf()
    x = og.tensor(np.ones((2, 3), np.float32))
    with og.no_grad():
        w.subtract_(w * 0.1)
    loss = (x @ w).sum()
    assert type(loss._node._next0.y) is _Input
    loss.backward()  # saved at version 1, still 1
    loss = (x @ w).sum()
    with og.no_grad():
        w.subtract_(w * 0.1)
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        loss.backward()


# -- recorded(..., out=out) ------------------------------------------------------------------


@needs_c
def test_new_node_of_stays_in_c_and_makes_what_the_python_recorded_makes():
    py_recorded = _accel.PURE["recorded"]
    logits = _leaf((4, 3), np.float64)
    label = og.tensor(np.array([0, 2, 1, 1]))
    with _Calls(py_recorded) as calls:
        loss = og.nn.functional.cross_entropy(logits, label)
    assert calls[py_recorded] == 0
    node = loss._node
    out = wrap(loss._data)
    out2, node2 = py_recorded(type(node), out._data, logits, None, out=out)
    assert out2 is out and out._node is node2 and out._requires_grad is True and out._pos == 0
    for name in (
        "_next0",
        "_next1",
        "_nexts",
        "_at",
        "_more",
        "_released",
        "_hooks",
        "trace",
        "_dtype",
        "_atype",
    ):
        a, b = getattr(node, name), getattr(node2, name)
        assert a is b or a == b, name
    assert node._shape == node2._shape
    # out=None is a fresh output, as without the keyword
    o, n = grad_node.recorded(type(node), np.ones(()), logits, None, out=None)
    assert o._node is n and o is not out
    with pytest.raises(TypeError):
        grad_node.recorded(type(node), np.ones(()), logits, None, out=out, extra=1)


# -- wrap ------------------------------------------------------------------------------------


@needs_c
def test_the_c_wrap_is_bound_where_generated_code_reads_it_and_makes_what_wrap_makes():
    from opgrad.generated import nodes, ops
    from opgrad.runtime import tensor

    py_wrap = _accel.PURE["wrap"]
    assert tensor.wrap is ops.wrap is nodes.wrap is wrap
    assert type(wrap).__name__ == "builtin_function_or_method"
    assert not isinstance(nodes.TanhGradNode.apply, types.FunctionType)  # node_apply still takes it
    data = np.arange(6.0).reshape(2, 3)
    a, b = wrap(data), py_wrap(data)
    assert type(a) is type(b) is og.Tensor
    for name in ("_data", "_requires_grad", "_node", "_pos", "_grad", "_vc", "_acc", "_extra", "_dual"):
        assert getattr(a, name) is getattr(b, name), name
    assert wrap(data=data)._data is data  # (a keyword: the Python function)
    with pytest.raises(TypeError):
        wrap()

    # the names the Python function reads: rebinding them sends the call there
    class Marker:
        pass

    saved = tensor.Tensor
    tensor.Tensor = Marker
    try:
        out = wrap(data)
    finally:
        tensor.Tensor = saved
    assert type(out) is Marker and out._data is data and out._requires_grad is False
    assert type(wrap(data)) is og.Tensor


@needs_c
def test_a_training_step_calls_no_python_wrap_accumulator_or_of_input():
    params, _ = _train(2)
    w1, b1, w2, b2 = params
    x = og.tensor(np.ones((5, 8), np.float32))
    y = og.tensor(np.array([0, 1, 2, 3, 0]))
    fns = [_accel.PURE[n] for n in ("wrap", "accumulator_of", "of_input", "of_edge", "recorded", "edge_to")]
    with _Calls(AccumulateGrad.__init__, *fns) as calls:
        loss = og.nn.functional.cross_entropy(og.tanh(x @ w1 + b1) @ w2 + b2, y)
        loss.backward()
    assert calls[AccumulateGrad.__init__] == 0
    for fn in fns:
        assert calls[fn] == 0, fn.__name__
