"""A leaf's turn in C (runtime/_speedups.c, `el_leaf` in the engine loop's section, wt-leafc,
issue 11): in its common case (an AccumulateGrad without hooks, a leaf with `_extra`, no
tensor or post-accumulate hooks, `.grad` None, not create_graph, a fresh writeable ndarray
gradient without history whose memory block is not in the pass's `held`) the C loop makes
the gradient `.grad` itself, as `_accumulate` -> `accumulate_into_leaf` -> `take_as_grad`
decide; every other case calls `_accumulate`. Each scenario runs three ways: the C loop as
built (the fast path), the C loop with engine_loop's `_accumulate` replaced by a wrapper
(which turns the fast path off: the Python leaf path inside the C loop), and the Python
loop (the `PURE` original); all three must give the same `.grad` bits, the same adopt-or-copy
decisions (the gradient object itself, or a private copy), the same reference counts, and
the same errors with the same leaves written (these need the C build: skipped in the pure
run). The tests that need no C build (threads, the lock, references) run both ways, as do
those of `backward()`'s lean path for a loss (engine.backward, pure Python) at the end.
"""

from __future__ import annotations

import gc
import sys
import threading
import weakref

import numpy as np
import pytest
from test_fast_paths_ceng import _same

import opgrad as og
from opgrad.runtime import _accel, engine, engine_loop
from opgrad.runtime.grad_holder import ACCUMULATE_LOCK, GradTensorHolder

C_LOOP = engine_loop.run_backward
PY_LOOP = _accel.PURE.get("run_backward")
ACCUMULATE = engine_loop._accumulate
ADD = GradTensorHolder.add


class _Count:
    """Counts the calls of engine_loop._accumulate (its code object) while active, through
    a profile function, which does not replace it (replacing it turns the fast path off)."""

    def __init__(self) -> None:
        self.n = 0
        self.adds = 0  # and of GradTensorHolder.add
        self.paused = False

    def __enter__(self) -> _Count:
        code = ACCUMULATE.__code__

        def prof(frame, event, arg):
            if event == "call" and not self.paused:
                if frame.f_code is code:
                    self.n += 1
                elif frame.f_code is ADD.__code__:
                    self.adds += 1

        sys.setprofile(prof)
        _COUNTS.append(self)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)
        _COUNTS.remove(self)


_COUNTS: list[_Count] = []  # the one active, if any (a leaf's warm-up pass is not counted)


def _forced(node, grads, create_graph, held):
    """`_accumulate` under another name: the C loop then calls it for every leaf."""
    return ACCUMULATE(node, grads, create_graph, held)


def _forced_add(self, node, pos, grad):
    """GradTensorHolder.add under another name: the C loop then calls it for every sum."""
    return ADD(self, node, pos, grad)


@pytest.fixture
def three(monkeypatch):
    """`three(scenario, calls, adds)`: the scenario's results with the C fast paths, then
    with the C loop calling the Python `_accumulate` and `GradTensorHolder.add`, then with
    the Python loop; all three must be the same, and the first run must have called
    `_accumulate` `calls` times (None: any) and `add` `adds` times (None: any)."""

    if PY_LOOP is None:
        pytest.skip("needs the C loop")

    def run(scenario, calls, adds=None):
        results = []
        with _Count() as count:
            results.append(scenario())
        with monkeypatch.context() as m:
            m.setattr(engine_loop, "_accumulate", _forced)
            m.setattr(GradTensorHolder, "add", _forced_add)
            results.append(scenario())
        with monkeypatch.context() as m:
            m.setattr(engine, "run_backward", PY_LOOP)
            m.setattr(engine, "run_grad", PY_LOOP)
            results.append(scenario())
        for other in results[1:]:
            _same(results[0], other)
        assert calls is None or count.n == calls
        assert adds is None or count.adds == adds
        return results

    return run


def _leaves(shapes, dtype, seed=0, warm=True):
    """Leaves requiring grad, integer-valued (sums exact in any order); `warm`: each has had
    a backward pass (so it has `_extra`, as in training after the first step) and `.grad` None."""
    rng = np.random.default_rng(seed)
    leaves = [og.tensor(rng.integers(-3, 4, size=s).astype(dtype), requires_grad=True) for s in shapes]
    if warm:
        for c in _COUNTS:
            c.paused = True
        sum(og.sum(t * 1.0) for t in leaves).backward()
        for c in _COUNTS:
            c.paused = False
        for t in leaves:
            t.grad = None
    return leaves


def _state(leaves, *others):
    """Per leaf: its `.grad` array, whether it owns its memory, its strides and writeable
    flag, the engine's `grad_owned`, the references to the gradient and its array; and no
    two gradients (or a gradient and any of `others`) share memory."""
    out = []
    arrays = [t.grad._data for t in leaves if t.grad is not None]
    arrays += [o._data if isinstance(o, og.Tensor) else o for o in others]
    n = len([t for t in leaves if t.grad is not None])
    for i in range(n):
        for j in range(len(arrays)):
            if i != j:
                assert not np.shares_memory(arrays[i], arrays[j])
    for t in leaves:
        g = t.grad
        if g is None:
            out.append(None)
            continue
        out.append(
            (
                g._data.copy(),
                g._data.base is None,
                g._data.strides,
                g._data.flags.writeable,
                t._extra.grad_owned,
                sys.getrefcount(t._grad),
                sys.getrefcount(t._grad._data),
            )
        )
    return out


def _mlp(dtype, seed=0, warm=True):
    rng = np.random.default_rng(seed + 1)
    params = _leaves([(5, 7), (7,), (7, 4), (4,)], dtype, seed, warm)
    x = og.tensor(rng.integers(-2, 3, size=(3, 5)).astype(dtype))
    y = og.tensor(np.array([1, 0, 3]))
    return params, x, y


def _mlp_loss(params, x, y):
    w1, b1, w2, b2 = params
    h = og.tanh(x @ w1 + b1)
    return og.nn.functional.cross_entropy(h @ w2 + b2, y)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_mlp_step_takes_the_fast_path(three, dtype):
    def scenario():
        params, x, y = _mlp(dtype)
        loss = _mlp_loss(params, x, y)
        loss.backward()
        return _state(params, x)

    results = three(scenario, 0)  # every leaf's turn ran in C
    assert all(r is not None and r[4] is True for r in results[0])  # grad_owned


def test_first_pass_without_extra_goes_to_python(three):
    def scenario():
        params, x, y = _mlp(np.float32, warm=False)
        _mlp_loss(params, x, y).backward()
        return _state(params, x)

    three(scenario, 4)  # no `_extra` yet


def test_one_array_to_two_leaves_is_adopted_once_and_copied_once(three):
    """add's backward hands one gradient to both leaves: the first adopts it (fresh, from
    mul's backward), the second finds its block in `held` and copies (the Python path)."""

    def scenario():
        a, b = _leaves([(4,), (4,)], np.float64)
        c = og.tensor(np.arange(4.0))
        ((a + b) * c).sum().backward()
        assert a.grad is not b.grad
        return _state([a, b], c)

    three(scenario, 1)


def test_read_only_gradient_is_copied(three, monkeypatch):
    """A node that gives a read-only gradient (tanh's apply made to): the leaf copies it."""

    def scenario():
        (a,) = _leaves([(3,)], np.float64)
        t = og.tanh(a)
        cls = type(t.grad_fn)
        original = cls.apply

        def apply(self, grads, create_graph):
            outs = original(self, grads, create_graph)
            outs[0]._data.flags.writeable = False
            return outs

        with monkeypatch.context() as m:
            m.setattr(cls, "apply", apply)
            t.sum().backward()
        assert a.grad._data.flags.writeable
        return _state([a])

    three(scenario, 1)


def test_seed_of_a_leaf_is_copied(three):
    """A user's seed is in `held`: the leaf takes a copy (the Python path)."""

    def scenario():
        (b,) = _leaves([(3,)], np.float32)
        seed = og.tensor(np.array([1.0, 2.0, 3.0], np.float32))
        b.backward(seed)
        assert b.grad is not seed
        return _state([b], seed)

    three(scenario, 1)


def test_leaf_used_twice_takes_the_sum(three):
    def scenario():
        (w,) = _leaves([(3, 3)], np.float64)
        x = og.tensor(np.eye(3) * 2.0)
        (og.tanh(w @ x) * w).sum().backward()
        return _state([w], x)

    three(scenario, 0)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_sums_of_a_leaf_used_many_times(three, dtype):
    """A chain through shared leaves (a and b at every link): their accumulators sum 20
    gradients each; the holder makes the first sum (the Python `add`, once per buffer), the
    others are added into it in place in C; x is used twice per link (a diamond)."""

    def scenario():
        x, a, b = _leaves([(6,), (6,), (6,)], dtype)
        y = x
        for _ in range(20):
            y = og.tanh(y * a + b) * 0.5 + y * 0.25
        y.sum().backward()
        return _state([x, a, b])

    three(scenario, 0, 22)  # the first sum in each buffer: a, b, x and the 19 links y used twice


def test_sum_into_a_buffer_the_user_holds(three):
    """A hook on a non-leaf sees its summed gradient: the sums before it are the holder's,
    the hook's view does not change after (a later sum is not written into it)."""

    def scenario():
        (a,) = _leaves([(4,)], np.float64)
        h = a * 1.0
        seen = []
        h.register_hook(lambda g: seen.append(g))
        (og.tanh(h) + h * 2.0 + h * h).sum().backward()
        return _state([a]), [g.numpy().copy() for g in seen]

    three(scenario, 0)


def test_views_and_non_contiguous_gradients(three):
    """A transpose's backward gives the leaf a view of a fresh array: adopted as it is (its
    strides), exactly when the Python path adopts it."""

    def scenario():
        w, v = _leaves([(4, 3), (6,)], np.float32)
        x = og.tensor(np.arange(12.0, dtype=np.float32).reshape(3, 4))
        loss = (og.tanh(w.T @ x.T)).sum() + (og.tanh(v[::2]) * 3.0).sum()
        loss.backward()
        return _state([w, v], x)

    results = three(scenario, 0)
    _w_grad, w_owns_memory, w_strides = results[0][0][:3]
    assert w_strides == (4, 16) and not w_owns_memory  # the view itself, not a copy


def test_retain_graph_second_pass_accumulates_in_place(three):
    def scenario():
        params, x, y = _mlp(np.float64)
        loss = _mlp_loss(params, x, y)
        loss.backward(retain_graph=True)
        first = [t.grad for t in params]
        loss.backward()
        same_objects = [t.grad is g for t, g in zip(params, first, strict=True)]
        kept = params[0].grad  # a reference the user keeps: the next sum goes to a new buffer
        loss2 = _mlp_loss(params, x, y)
        loss2.backward()
        return _state(params, x), same_objects, params[0].grad is kept, kept._data.copy()

    # the second pass (the user keeps the first gradients: new buffers), and w1 in the third
    # (kept); the other three add in place in C
    three(scenario, 5)


def test_second_pass_adds_in_place(three):
    """Gradients accumulated over passes (no zeroing): an engine-made `.grad` only its leaf
    refers to takes the sum in place (the same tensor and array); a `.grad` the user set or
    keeps a reference to, or one that requires grad, gets a new buffer (the Python path)."""

    def scenario():
        params, x, y = _mlp(np.float64)
        out = []
        for step in range(3):
            ids = [(id(t.grad), id(t.grad._data)) if t.grad is not None else None for t in params]
            _mlp_loss(params, x, y).backward()
            out.append(([(id(t.grad), id(t.grad._data)) for t in params] == ids, _state(params, x)))
            if step == 0:
                params[1].grad = og.tensor(params[1].grad.numpy() * 1.0)  # the user's: not owned
        return out

    three(scenario, 1)  # b1's second pass only: the user's `.grad`


def test_in_place_error_leaves_nothing_half_written(three):
    """A `.grad` of another dtype than the gradient (set by the user as engine-made, so the
    in-place add is tried): NumPy's casting error, from both paths, `.grad` unchanged."""

    def scenario():
        (w,) = _leaves([(3,)], np.float64)
        w._grad = og.tensor(np.ones(3, np.int64))  # (the setter refuses it)
        w._extra.grad_owned = True
        with pytest.raises(Exception) as info:
            (w * 2.0).sum().backward()
        return type(info.value).__name__, w.grad.numpy().tolist(), w.grad.numpy().dtype.str

    three(scenario, 0)


def test_hooks_post_accumulate_hooks_and_retain_grad(three):
    def scenario():
        params, x, y = _mlp(np.float32)
        w1, b1, w2, b2 = params
        seen = []
        w1.register_hook(lambda g: seen.append(("w1", g.numpy().copy())))
        b1.register_hook(lambda g: g * 2.0)
        w2.register_post_accumulate_grad_hook(lambda t: seen.append(("w2", t.grad.numpy().copy())))
        h = og.tanh(x @ w1 + b1)
        h.retain_grads()
        loss = og.nn.functional.cross_entropy(h @ w2 + b2, y)
        loss.backward()
        return _state(params, x, h.grad), seen, h.grad.numpy().copy()

    three(scenario, 3)  # b2 only took the fast path


def test_node_hooks_on_accumulate_grad(three):
    def scenario():
        a, b = _leaves([(3,), (3,)], np.float64)
        log = []
        loss = (og.tanh(a) * og.tanh(b)).sum()
        acc = loss.grad_fn
        while acc is not None and type(acc).__name__ != "AccumulateGrad":
            acc = next(c for c in acc.edges()[0] if c is not None)
        acc.register_hook(lambda grads_in, grads_out: log.append(grads_out[0].numpy().copy()))
        loss.backward()
        return _state([a, b]), log

    three(scenario, 1)


def test_create_graph_goes_to_python(three):
    def scenario():
        (w,) = _leaves([(3,)], np.float64)
        (og.tanh(w) ** 2).sum().backward(create_graph=True)
        g = w.grad
        w.grad = None
        return g.numpy().copy(), g.requires_grad

    three(scenario, 1)


def test_error_leaves_the_same_leaves_written(three):
    """A hook on a later leaf raises: the leaves whose turn came before hold their gradient
    (the fast path wrote it), the others nothing, in every path."""

    def scenario():
        params, x, y = _mlp(np.float64)
        w1 = params[0]

        def bad(g):
            raise ValueError("hook failed")

        w1.register_hook(bad)
        with pytest.raises(ValueError, match="hook failed"):
            _mlp_loss(params, x, y).backward()
        return _state(params, x)

    results = three(scenario, None)
    written = [r is not None for r in results[0]]
    assert any(written) and not all(written)


def test_references_are_stable_and_gradients_die():
    params, x, y = _mlp(np.float32)
    _mlp_loss(params, x, y).backward()
    refs = [(sys.getrefcount(t._grad), sys.getrefcount(t._grad._data)) for t in params]
    for t in params:
        t.grad = None
    gc.collect()
    before = [sys.getrefcount(t) for t in params], sys.getrefcount(x), sys.getrefcount(True)
    dead = []
    for _ in range(200):
        _mlp_loss(params, x, y).backward()
        assert [(sys.getrefcount(t._grad), sys.getrefcount(t._grad._data)) for t in params] == refs
        dead.append(weakref.ref(params[1].grad))
        for t in params:
            t.grad = None
    gc.collect()
    after = [sys.getrefcount(t) for t in params], sys.getrefcount(x), sys.getrefcount(True)
    assert before[:2] == after[:2]
    assert abs(before[2] - after[2]) < 50  # (True is shared by the whole interpreter)
    assert all(r() is None for r in dead)


def test_threads_lose_no_update():
    """Passes in several threads on the same leaves: every gradient arrives (integer values:
    the sums are exact in any order)."""
    (w,) = _leaves([(8,)], np.float64)
    x = og.tensor(np.arange(8.0))
    n_threads, passes = 4, 50
    barrier = threading.Barrier(n_threads)

    def work():
        barrier.wait()
        for _ in range(passes):
            (w * x).sum().backward()

    threads = [threading.Thread(target=work) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert w.grad.numpy().tolist() == (np.arange(8.0) * n_threads * passes).tolist()


def test_lock_held_elsewhere_waits():
    """While another thread holds the accumulate lock, a pass does not write `.grad`: the
    fast path sees the lock taken and goes to the Python path, which waits for it."""
    (w,) = _leaves([(3,)], np.float64)
    x = og.tensor(np.array([1.0, 2.0, 3.0]))
    loss = (w * x).sum()
    started = threading.Event()

    def work():
        started.set()
        loss.backward()

    ACCUMULATE_LOCK.acquire()
    try:
        t = threading.Thread(target=work)
        t.start()
        started.wait()
        t.join(0.2)
        assert w.grad is None
    finally:
        ACCUMULATE_LOCK.release()
    t.join()
    assert w.grad.numpy().tolist() == [1.0, 2.0, 3.0]


def test_replaced_helpers_turn_the_fast_path_off(monkeypatch):
    params, x, y = _mlp(np.float32)
    calls = []
    into = engine_loop.accumulate_into_leaf

    def logged(leaf, grad, create_graph, lock, held):
        calls.append(1)
        return into(leaf, grad, create_graph, lock, held)

    monkeypatch.setattr(engine_loop, "accumulate_into_leaf", logged)
    _mlp_loss(params, x, y).backward()
    assert len(calls) == 4


def test_nn_parameters_take_the_fast_path(three):
    def scenario():
        og.manual_seed(0)
        model = og.nn.Sequential(og.nn.Linear(5, 6), og.nn.Tanh(), og.nn.Linear(6, 3))
        opt = og.optim.SGD(model.parameters(), lr=0.5)
        x = og.tensor(np.linspace(-1, 1, 20).reshape(4, 5))
        y = og.tensor(np.array([0, 2, 1, 2]))
        out = []
        for _ in range(3):
            opt.zero_grad()
            og.nn.functional.cross_entropy(model(x), y).backward()
            out.append(_state(list(model.parameters()), x))
            opt.step()
        return out

    three(scenario, 4)


# --- backward() of a loss: the lean path in engine.backward ------------------------------


@pytest.fixture
def runs(monkeypatch):
    """Counts the passes that went through engine._run (the general way)."""
    calls = []
    original = engine._run

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, "_run", counted)
    return calls


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_loss_backward_matches_the_general_way(runs, dtype):
    grads = []
    for seed in (None, "ones"):
        params, x, y = _mlp(dtype)
        loss = _mlp_loss(params, x, y)
        if seed is None:
            loss.backward()
            assert not runs  # the lean path
        else:
            loss.backward(og.tensor(np.ones((), dtype)))  # a seed: the general way
            assert runs
        grads.append([t.grad.numpy().copy() for t in params])
        assert all(t._extra.grad_owned for t in params)
    _same(grads[0], grads[1])


def test_loss_backward_pass_state(runs):
    """During the lean pass grad mode is off and the pass is registered (callbacks run after
    it); afterwards both are as before, also when the pass raises."""
    (w,) = _leaves([(3,)], np.float64)
    seen = []

    def hook(g):
        seen.append((og.is_grad_enabled(), engine.running_accumulates()))
        engine.queue_callback(lambda: seen.append(("callback", w.grad is not None)))

    handle = w.register_hook(hook)
    (og.tanh(w) * 2.0).sum().backward()
    assert seen == [(False, True), ("callback", True)]
    assert og.is_grad_enabled() and engine.running_accumulates() is None
    handle.remove()

    def bad(g):
        raise ValueError("hook failed")

    w.register_hook(bad)
    with pytest.raises(ValueError, match="hook failed"):
        (og.tanh(w) * 2.0).sum().backward()
    assert og.is_grad_enabled() and engine.running_accumulates() is None
    assert not runs


def test_loss_backward_retain_graph(runs):
    (w,) = _leaves([(3,)], np.float64)
    loss = (og.tanh(w) * 2.0).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    first = w.grad.numpy().copy()
    with pytest.raises(RuntimeError, match="a second time"):
        loss.backward()
    assert w.grad.numpy().tolist() == first.tolist()
    assert not runs


def test_loss_backward_general_cases(runs):
    """create_graph, anomaly mode, a leaf or an output without grad: the general way (its
    errors)."""
    (w,) = _leaves([(3,)], np.float64)
    (og.tanh(w) * 2.0).sum().backward(create_graph=True)
    assert len(runs) == 1
    with og.autograd.detect_anomaly():
        (og.tanh(w) * 2.0).sum().backward()
    assert len(runs) == 2
    w.backward()  # a leaf (seeded with ones)
    assert len(runs) == 3
    with pytest.raises(RuntimeError, match="does not require grad"):
        og.tensor(np.ones(3)).sum().backward()
