"""backward()'s fixed and per-node costs in C (runtime/_speedups.c, wt-engfix, issue 11):
engine.backward's lean one-loss path (`_speedups.backward`: the seed, the dependency count,
the holder, grad mode and the pass's callbacks), the C loop's ready heap (`ElHeap`, in place
of heapq on a list of tuples) and its skipped call of GradNode's no-op `release_saved`, each
against the Python functions they stand for (`_accel.PURE`) on the same graphs: the same
order of the nodes' turns and hooks, the same `.grad` bits, the same errors with grad mode
restored and nothing half-written, callbacks, threads, and no reference leaks. Tests of the
C paths skip in the pure run; the others run both ways.
"""

from __future__ import annotations

import gc
import sys
import threading

import numpy as np
import pytest
from test_fast_paths_ceng import _grads, _log_turns, _nodes, _random_graph, _random_leaves, _same

import opgrad as og
from opgrad.runtime import _accel, engine, grad_mode
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.tensor import Tensor

needs_c = pytest.mark.skipif("backward" not in _accel.PURE, reason="needs the C backward")

C_BACKWARD = engine.backward
C_LOOP = engine.run_backward
C_COUNT = engine._count_deps
PY_BACKWARD = _accel.PURE.get("backward", engine.backward)
PY_LOOP = _accel.PURE.get("run_backward", engine.run_backward)
PY_COUNT = _accel.PURE.get("_count_deps", engine._count_deps)
C_TENSOR_BACKWARD = Tensor.__dict__["backward"]
PY_TENSOR_BACKWARD = _accel.PURE.get("Tensor.backward", C_TENSOR_BACKWARD)


@pytest.fixture
def both(monkeypatch):
    """`both(scenario)`: the scenario's results with the C backward (and the C loop and
    count), then with the Python ones; the C backward must have taken its lean path (the
    Python one is never called then) at least once."""

    def run(scenario):
        py_calls = []

        def counted_py(*args, **kwargs):
            py_calls.append(1)
            return PY_BACKWARD(*args, **kwargs)

        results = []
        with monkeypatch.context() as m:
            m.setattr(engine, "backward", C_BACKWARD)
            results.append(scenario(m))
        c_reached = "backward" not in _accel.PURE or not py_calls
        with monkeypatch.context() as m:
            m.setattr(engine, "backward", PY_BACKWARD)
            m.setattr(engine, "run_backward", PY_LOOP)
            m.setattr(engine, "run_grad", PY_LOOP)
            m.setattr(engine, "_count_deps", PY_COUNT)
            m.setattr(Tensor, "backward", PY_TENSOR_BACKWARD)
            results.append(scenario(m))
        assert c_reached
        return results

    return run


def _mlp(seed=0, batch=4):
    rng = np.random.default_rng(seed)
    shapes = [(3, 5), (5,), (5, 5), (5,), (5, 4), (4,)]
    params = [og.tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True) for s in shapes]
    x = og.tensor(rng.standard_normal((batch, 3)).astype(np.float32))
    y = og.tensor(rng.integers(0, 4, batch))
    return params, x, y


def _mlp_loss(params, x, y):
    w1, b1, w2, b2, w3, b3 = params
    h = og.tanh(x @ w1 + b1)
    h = og.tanh(h @ w2 + b2)
    return og.nn.functional.cross_entropy(h @ w3 + b3, y)


def test_the_mlp_step_matches_in_order_and_bits(both) -> None:
    def scenario(m):
        params, x, y = _mlp()
        log: list = []
        out = []
        first: list = []
        for i in range(3):
            loss = _mlp_loss(params, x, y)
            if i == 0:
                _log_turns(m, [loss], log, params)
            loss.backward()
            if i == 0:  # (the first pass's log: its ranks are by node id, which later graphs reuse)
                first = list(log)
            out.append(_grads(params))  # (accumulated: the in-place sum from the 2nd pass on)
        return first, out

    fast, python = both(scenario)
    _same(fast, python)
    first = [("CrossEntropyGradNode", 8), ("AddGradNode", 7), ("leaf", 5), ("MatmulGradNode", 6)]
    assert fast[0][:4] == first  # (b3's accumulator runs as soon as it is ready)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("mode", ["one_root", "retain_twice", "several_roots", "grad"])
def test_random_graphs_match(both, seed, mode) -> None:
    def scenario(m):
        leaves = _random_leaves(seed)
        tracked = [t for t in _random_graph(seed, leaves) if t.requires_grad]
        losses = [og.sum(t * t) for t in tracked[-3:]]
        log: list = []
        _log_turns(m, losses, log, leaves)
        if mode == "grad":
            got = og.autograd.grad(losses, [t for t in leaves if t.requires_grad], allow_unused=True)
            return log, [None if g is None else g.numpy().copy() for g in got]
        if mode == "several_roots":  # several initial keys: the C heap takes them
            engine.backward(losses)
        else:
            losses[-1].backward(retain_graph=mode == "retain_twice")
            if mode == "retain_twice":
                losses[-1].backward()
        return log, _grads(leaves)

    fast, python = both(scenario)
    _same(fast, python)


@pytest.mark.parametrize("seq", [2**70, -(2**63), 2**63 - 1, 1.5, "late"])
def test_a_seq_that_does_not_fit_keeps_heapq_order(both, seq) -> None:
    """A node's `seq` that is no int of 63 bits (here set by hand on a node, so the C heap
    moves its keys into the list and heapq goes on; a string's key fails to compare, the same
    TypeError both ways) gives the order the Python loop gives."""

    def scenario(m):
        leaves = _random_leaves(3)
        pool = _random_graph(3, leaves)
        loss = og.sum(pool[-1] * pool[-2]) + og.sum(pool[-3])
        log: list = []
        _log_turns(m, [loss], log, leaves)  # (its ranks: by the seqs as made)
        nodes = sorted((n for n in _nodes([loss]) if not isinstance(n, AccumulateGrad)), key=lambda n: n.seq)
        for i, n in enumerate(nodes[1 : len(nodes) // 2 : 2]):
            n.seq = seq if not isinstance(seq, int) else seq - i % 3 if seq > 0 else seq + i % 3
        try:
            loss.backward()
        except TypeError as e:
            return "TypeError", str(e), log, _grads(leaves), og.is_grad_enabled()
        return log, _grads(leaves)

    fast, python = both(scenario)
    _same(fast, python)


def test_keys_equal_in_seq_are_ordered_by_their_order(both) -> None:
    """Nodes of one `seq` (set by hand) run in the order they became ready, both ways."""

    def scenario(m):
        x = og.tensor(np.ones(3), requires_grad=True)
        parts = [og.tanh(x * float(i + 1)) for i in range(6)]
        loss = og.sum(og.stack(parts))
        for n in _nodes([loss]):
            if not isinstance(n, AccumulateGrad) and n.seq != loss.grad_fn.seq:
                n.seq = 5
        log: list = []
        _log_turns(m, [loss], log, [x])
        loss.backward()
        return log, _grads([x])

    fast, python = both(scenario)
    _same(fast, python)


def test_hooks_callbacks_and_grad_mode_match(both) -> None:
    def scenario(m):
        x = og.tensor(np.linspace(-1, 1, 4), requires_grad=True)
        w = og.tensor(np.full(4, 0.5), requires_grad=True)
        seen: list = []
        h = og.tanh(x * w)
        h.register_hook(lambda g: seen.append(("tensor", og.is_grad_enabled(), g.numpy().tobytes())))
        h.grad_fn.register_prehook(lambda gs: seen.append(("pre", og.is_grad_enabled())))
        w.register_post_accumulate_grad_hook(lambda t: seen.append(("post", t.grad.numpy().tobytes())))

        def queue(g):
            passes = engine._CALLBACKS.passes
            engine.queue_callback(lambda: seen.append(("callback", og.is_grad_enabled(), len(passes))))

        x.register_hook(queue)
        loss = og.sum(h * h)
        loss.backward()
        with og.no_grad():  # grad mode off before: off after, and off in the hooks
            loss2 = og.sum(og.tanh(x * w))
        with og.enable_grad():
            loss2 = og.sum(og.tanh(x * w))
        with og.no_grad():
            loss2.backward()
            seen.append(("after, in no_grad", og.is_grad_enabled()))
        seen.append(("after", og.is_grad_enabled(), len(engine._CALLBACKS.passes)))
        return seen, _grads([x, w])

    fast, python = both(scenario)
    _same(fast, python)
    assert ("after", True, 0) in fast[0]


@pytest.mark.parametrize("where", ["node", "leaf", "callback", "count"])
def test_an_error_mid_pass_restores_grad_mode_and_leaves_nothing_half_updated(both, where) -> None:
    def scenario(m):
        params, x, y = _mlp(1)
        w1, b1, w2, b2, w3, b3 = params
        loss = _mlp_loss(params, x, y)

        def boom(*a):
            raise ValueError("boom")

        if where == "node":
            loss.grad_fn._next0._next0.register_prehook(boom)  # Add3 ran, Matmul3 fails
        elif where == "leaf":
            b2.register_hook(boom)
        elif where == "callback":
            w3.register_hook(lambda g: engine.queue_callback(boom))
        else:
            m.setattr(engine, "_count_deps", lambda *a: boom())
        with pytest.raises(ValueError, match="boom"):
            loss.backward()
        return _grads(params), og.is_grad_enabled(), len(engine._CALLBACKS.passes), grad_mode._OFF

    fast, python = both(scenario)
    _same(fast, python)
    assert fast[1] is True and fast[2] == 0 and fast[3] == []


@needs_c
def test_other_calls_go_to_the_python_backward(monkeypatch) -> None:
    """Anything but the lean case (a seed given, create_graph, several tensors, keywords, a
    tuple, anomaly mode) and a replaced name of engine take the Python path (seen through
    `_execute`, which only the Python path calls); `run_backward` is read at each call."""
    c_fn = engine.backward
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)

    def fresh():
        return og.sum(og.tanh(x) * 2.0)

    counted: list = []
    real_execute = engine._execute

    def counting(*a):
        counted.append(1)
        return real_execute(*a)

    monkeypatch.setattr(engine, "_execute", counting)
    c_fn([fresh()])  # _execute replaced: the Python path, which calls it
    assert counted == [1]
    monkeypatch.setattr(engine, "_execute", real_execute)
    counted.clear()
    c_fn([fresh()])
    assert counted == []  # the lean C path

    seen: list = []
    real_loop = engine.run_backward
    monkeypatch.setattr(engine, "run_backward", lambda *a: (seen.append(1), real_loop(*a))[1])
    c_fn([fresh()])
    assert seen == [1]
    monkeypatch.setattr(engine, "run_backward", real_loop)

    calls = [
        lambda: c_fn([fresh()], [og.tensor(np.array(2.0))]),
        lambda: c_fn([fresh()], None, None, True),
        lambda: c_fn([fresh(), og.sum(x * 3.0)]),
        lambda: c_fn([fresh()], retain_graph=False),
        lambda: c_fn((fresh(),)),
    ]
    for call in calls:
        monkeypatch.setattr(engine, "_execute", counting)
        counted.clear()
        call()
        assert counted, "the Python path runs"
        monkeypatch.setattr(engine, "_execute", real_execute)
    before = x.grad.numpy().copy()
    runs: list = []
    real_run = engine._run
    monkeypatch.setattr(engine, "_run", lambda *a: (runs.append(1), real_run(*a))[1])
    with og.autograd.detect_anomaly():
        c_fn([fresh()])  # anomaly mode: the general path
    assert runs == [1]
    assert np.array_equal(x.grad.numpy(), before + (1 - np.tanh(np.array([1.0, 2.0])) ** 2) * 2.0)


def test_a_replaced_release_saved_is_called_and_the_base_one_skipped(both, monkeypatch) -> None:
    """GradNode's no-op `release_saved` is not called by the C loop; a class's own, or the
    base one replaced, is (both loops then log the same calls)."""

    def scenario(m):
        released: list = []
        base = GradNode.release_saved
        m.setattr(GradNode, "release_saved", lambda n: (released.append(type(n).__name__), base(n))[1])
        x = og.tensor(np.array([0.5, 1.5]), requires_grad=True)
        loss = og.sum(og.tanh(x + 1.0) * x)
        log: list = []
        _log_turns(m, [loss], log, [x])
        loss.backward()
        return sorted(released), log, _grads([x])

    fast, python = both(scenario)
    _same(fast, python)
    assert fast[0], "the replaced base method was called"


def test_threads_run_lean_passes_concurrently() -> None:
    params, x, y = _mlp(2, batch=8)
    ref = []
    for p in params:
        p.grad = None
    _mlp_loss(params, x, y).backward()
    ref = _grads(params)
    errors: list = []

    def work():
        try:
            ps = [og.tensor(p.numpy().copy(), requires_grad=True) for p in params]
            for _ in range(40):
                for p in ps:
                    p.grad = None
                _mlp_loss(ps, x, y).backward()
                _same(_grads(ps), ref)
                assert og.is_grad_enabled()
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    with og.no_grad():  # this thread's grad mode is its own
        for t in threads:
            t.join()
        assert not og.is_grad_enabled()
    assert not errors, errors
    assert og.is_grad_enabled() and grad_mode._OFF == []


@needs_c
def test_no_reference_leaks_over_many_passes() -> None:
    params, x, y = _mlp(3)
    watched = [*params, x, y, True, False, None, engine._CALLBACKS, grad_mode._STATE, grad_mode._OFF]
    watched += [p._data for p in params] + [engine.ONES[np.dtype(np.float32)]]

    def passes():
        for i in range(30):
            loss = _mlp_loss(params, x, y)
            if i % 3 == 0:
                loss.backward(retain_graph=True)
            loss.backward()
            for p in params:
                p.grad = None
            one = og.tensor(np.float32(1.5), requires_grad=True)
            (one * 2.0).backward()  # a 0-d float32 seed from ONES
            seeds = og.tensor(np.ones((2, 2)), requires_grad=True)
            (seeds * 1.0).backward(og.tensor(np.ones((2, 2))))

    passes()
    gc.collect()
    before = [sys.getrefcount(o) for o in watched]
    n_objects = len(gc.get_objects())
    passes()
    gc.collect()
    assert [sys.getrefcount(o) for o in watched] == before
    assert len(gc.get_objects()) <= n_objects + 5


def test_seeds_and_results_match_for_every_loss_kind(both) -> None:
    """0-d losses of each float dtype (the seed copied from ONES), a 1-element and an integer
    ... a complex loss's error, and a 1-element non-0-d loss (the general `_ones_like`)."""

    def scenario(m):
        out = []
        for dtype in (np.float16, np.float32, np.float64):
            x = og.tensor(np.array([0.25, -1.0], dtype=dtype), requires_grad=True)
            og.sum(og.tanh(x)).backward()
            out.append((x.grad.dtype, x.grad.numpy().tobytes()))
            z = og.tanh(x[:1])  # shape (1,): not 0-d
            z.backward()
            out.append(x.grad.numpy().tobytes())
        c = og.tensor(np.array([1 + 2j, 3j]), requires_grad=True)
        with pytest.raises(RuntimeError, match="complex") as e:
            og.sum(c * c).backward()
        out.append(str(e.value))
        x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
        with pytest.raises(RuntimeError, match="does not require grad"):
            og.sum(x.detach()).backward()
        freed = og.sum(og.tanh(x))
        freed.backward()
        with pytest.raises(RuntimeError, match="second time") as e:
            freed.backward()
        out.append((str(e.value), og.is_grad_enabled(), len(engine._CALLBACKS.passes)))
        return out

    fast, python = both(scenario)
    _same(fast, python)


@needs_c
def test_the_holder_and_seed_are_what_the_python_path_makes(monkeypatch) -> None:
    """The holder the C path makes (no __init__ call) has the slots __init__ sets, and the seed
    is a fresh writeable copy, not ONES' read-only scalar."""
    got: list = []
    real = engine.run_backward

    def spy(ready, order, deps, holder, retain, create, *rest):
        seed = holder.buffers[ready[0][2]][0]
        made = (type(holder), set(holder.owned), holder.create_graph, dict(holder.held))
        got.append((*made, order, retain, create))
        got.append((seed._data.flags.writeable, seed._data is engine.ONES[np.dtype(np.float64)], seed._node))
        got.append((ready[0][0], ready[0][1], dict(deps)))
        return real(ready, order, deps, holder, retain, create, *rest)

    monkeypatch.setattr(engine, "run_backward", spy)
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
    loss = og.sum(x * 2.0)
    loss.backward(None, True)
    holder_info, seed_info, key_info = got
    assert holder_info == (engine.GradTensorHolder, set(), False, {}, 1, True, False)
    assert seed_info == (True, False, None)
    assert key_info[:2] == (-loss.grad_fn.seq, 0) and key_info[2] == PY_COUNT([(loss.grad_fn, 0)], None)[0]


@needs_c
def test_tensor_backward_passes_its_arguments_as_the_method_does(monkeypatch) -> None:
    """The C Tensor.backward calls `later.engine.backward` with what the Python method passes,
    for every way of giving the arguments; arguments the method rejects raise its TypeError."""
    calls: list = []

    def spy(*args, **kwargs):
        calls.append((args, kwargs))

    monkeypatch.setattr(engine, "backward", spy)
    x = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
    g = og.tensor(np.array([1.0, 3.0]))
    ways = [
        ((), {}),
        ((g,), {}),
        ((None, True), {}),
        ((g, False, True), {}),
        ((), {"retain_graph": True}),
        ((), {"create_graph": 1, "grad_tensor": g}),
        ((None,), {"create_graph": True, "retain_graph": 0}),
        ((), {"grad_tensor": None}),
    ]
    for args, kwargs in ways:
        got = []
        for method in (C_TENSOR_BACKWARD, PY_TENSOR_BACKWARD):
            calls.clear()
            assert method(x, *args, **kwargs) is None
            ((a, k),) = calls
            got.append((len(a), [e[0] is x if isinstance(e, list) else e for e in a], k))
            if isinstance(a[1], list):
                assert a[1] == [g]
        assert got[0] == got[1]
    bad = [
        ((1, 2, 3, 4), {}),
        ((), {"seed": g}),
        ((g,), {"grad_tensor": g}),
        ((), {"grad_tensor": g, **{"x": 1}}),
    ]
    for args, kwargs in bad:
        errors = []
        for method in (C_TENSOR_BACKWARD, PY_TENSOR_BACKWARD):
            with pytest.raises(TypeError) as e:
                method(x, *args, **kwargs)
            errors.append(str(e.value))
        assert errors[0] == errors[1]
    assert x.backward.__self__ is x  # bound like a method


def test_grad_modes_state_replaced_is_read_at_each_use(both) -> None:
    """grad_mode's `_OFF` and `_STATE` are read at each switch (as `_set_enabled` reads
    them): replaced by other objects, both ways give the same modes inside and after."""

    def scenario(m):
        class State:
            enabled = True

        state = State()
        m.setattr(grad_mode, "_STATE", state)
        m.setattr(grad_mode, "_OFF", [])
        x = og.tensor(np.array([0.5, 2.0]), requires_grad=True)
        seen: list = []
        h = og.tanh(x * 3.0)
        h.register_hook(lambda g: seen.append((state.enabled, list(grad_mode._OFF), og.is_grad_enabled())))
        og.sum(h).backward(retain_graph=True)
        seen.append((state.enabled, list(grad_mode._OFF)))
        loss = og.sum(h * 2.0)
        state.enabled = False  # grad mode off in this thread, through the replaced objects
        grad_mode._OFF.append(None)
        loss.backward()
        seen.append((state.enabled, list(grad_mode._OFF), _grads([x])))
        return seen

    fast, python = both(scenario)
    _same(fast, python)
    assert fast[0] == (False, [None], False) and fast[1] == (True, [])


def test_signatures_and_first_doc_line_are_the_python_ones() -> None:
    import inspect

    def params(fn):  # (the C text signatures carry no annotations)
        return [(p.name, p.default, p.kind) for p in inspect.signature(fn).parameters.values()]

    x = og.tensor(np.ones(2), requires_grad=True)
    for c_fn, py_fn in ((og.autograd.backward, PY_BACKWARD), (Tensor.backward, PY_TENSOR_BACKWARD)):
        assert params(c_fn) == params(py_fn)
        assert c_fn.__doc__.splitlines()[0] == py_fn.__doc__.splitlines()[0]
    assert params(x.backward) == params(PY_TENSOR_BACKWARD.__get__(x))
