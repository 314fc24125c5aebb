"""The C loop of the backward engine (runtime/_speedups.c, `run_backward`/`run_grad`, wt-ceng,
issue 11) gives exactly what engine_loop's Python `run_backward` gives, both run on the same
graphs: the same `.grad` bits, the same order of the nodes' turns and of every hook, the same
errors with nothing half-written, the same moments at which intermediate gradients die, and
no reference leaks over many passes. Every test here needs the C build (skipped in the pure run).
"""

from __future__ import annotations

import gc
import sys
import weakref

import numpy as np
import pytest
from test_node_results import node_output

import opgrad as og
from opgrad.runtime import _accel, engine, engine_loop
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.tensor import wrap

pytestmark = pytest.mark.skipif("run_backward" not in _accel.PURE, reason="needs the C loop")

C_LOOP = engine_loop.run_backward
PY_LOOP = _accel.PURE.get("run_backward")


@pytest.fixture
def both(monkeypatch):
    """`both(scenario)`: the scenario's results with the C loop, then with the Python loop
    (as engine._run's `run_backward` and `run_grad`); the C loop must have run."""

    def run(scenario):
        calls = []

        def counted(*args):
            calls.append(1)
            return C_LOOP(*args)

        results = []
        for loop in (counted, PY_LOOP):
            monkeypatch.setattr(engine, "run_backward", loop)
            monkeypatch.setattr(engine, "run_grad", loop)
            with monkeypatch.context() as m:
                results.append(scenario(m))
        monkeypatch.setattr(engine, "run_backward", C_LOOP)
        monkeypatch.setattr(engine, "run_grad", C_LOOP)
        assert calls, "the scenario never reached the C loop"
        return results

    return run


def _same(a, b) -> None:
    if isinstance(a, np.ndarray):
        assert a.__class__ is b.__class__ and a.shape == b.shape and a.dtype == b.dtype
        assert a.tobytes() == b.tobytes()
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif a is None or b is None:
        assert a is None and b is None
    else:
        assert a == b


def _nodes(roots):
    """Every node reachable from `roots` (tensors)."""
    seen, stack = {}, [t.grad_fn for t in roots if t.grad_fn is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen[id(n)] = n
        stack.extend(c for c in n.edges()[0] if c is not None)
    return list(seen.values())


def _log_turns(m, roots, log, leaves=()):
    """Log each node's turn (its class and position in creation order) by wrapping `apply`
    of the classes in the graph (the inline path stays inline: `_plain` is unchanged), and
    each leaf's accumulation through engine_loop's `_accumulate` (the C loop reads it at each
    use)."""
    nodes = [n for n in _nodes(roots) if not isinstance(n, AccumulateGrad)]
    rank = {id(n): i for i, n in enumerate(sorted(nodes, key=lambda n: n.seq))}
    for cls in {type(n) for n in nodes}:
        original = cls.apply

        def apply(self, grads, create_graph, original=original):
            log.append((type(self).__name__, rank.get(id(self))))
            return original(self, grads, create_graph)

        m.setattr(cls, "apply", apply)
    names = {id(t): i for i, t in enumerate(leaves)}
    accumulate = engine_loop._accumulate

    def logged(node, grads, create_graph, held):
        log.append(("leaf", names.get(id(node.variable))))
        return accumulate(node, grads, create_graph, held)

    m.setattr(engine_loop, "_accumulate", logged)


def _grads(leaves):
    return [None if t.grad is None else t.grad.numpy().copy() for t in leaves]


# --- random graphs -----------------------------------------------------------------------


def _random_graph(seed, leaves):
    """A random DAG over `leaves` (6 values each): unary and binary ops, diamonds, a
    multi-output split with unused parts, constants, leaves reached several times; returns
    the tensors made (the last ones are candidates for roots)."""
    rng = np.random.default_rng(seed)
    pool = list(leaves) + [og.tensor(rng.standard_normal(6))]  # a constant
    for _ in range(int(rng.integers(8, 30))):
        kind = int(rng.integers(0, 7))
        a = pool[int(rng.integers(0, len(pool)))]
        b = pool[int(rng.integers(0, len(pool)))]
        if kind == 0:
            pool.append(og.tanh(a))
        elif kind == 1:
            pool.append(a * b)
        elif kind == 2:
            pool.append(a + b)
        elif kind == 3:
            pool.append(og.sin(a) * 0.5)
        elif kind == 4:  # several outputs, some unused
            p, q, r = og.split(a, 3)
            pool.append(og.concat([r, p, p]) if rng.integers(0, 2) else og.concat([q, q, p]))
        elif kind == 5:
            pool.append(og.sum(a) * b)  # a scalar broadcast back
        else:
            pool.append(og.maximum(a, b))
    return pool


def _random_leaves(seed):
    rng = np.random.default_rng(seed + 1000)
    leaves = [og.tensor(rng.standard_normal(6), requires_grad=bool(i != 2)) for i in range(4)]
    return leaves


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("mode", ["one_root", "several_roots", "grad", "retain_twice"])
def test_random_graphs_match(both, seed, mode) -> None:
    def scenario(m):
        leaves = _random_leaves(seed)
        pool = _random_graph(seed, leaves)
        outs = [t for t in pool[-3:] if t.requires_grad] or [t for t in pool if t.requires_grad][-1:]
        log: list = []
        losses = [og.sum(t * t) for t in outs]
        _log_turns(m, losses, log, leaves)
        if mode == "one_root":
            losses[-1].backward()
        elif mode == "several_roots":
            og.autograd.backward(losses, [og.tensor(np.array(float(i + 1))) for i in range(len(losses))])
        elif mode == "grad":
            wanted = [t for t in leaves if t.requires_grad]
            got = og.autograd.grad(losses[-1], wanted, allow_unused=True)
            return log, [None if g is None else g.numpy().copy() for g in got], _grads(leaves)
        else:
            losses[-1].backward(retain_graph=True)
            losses[-1].backward()
        return log, _grads(leaves)

    fast, python = both(scenario)
    _same(fast, python)


# --- hooks, custom Functions, create_graph ------------------------------------------------


class Scale(og.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


class Twice(og.autograd.Function):  # two outputs
    @staticmethod
    def forward(ctx, x):
        return x * 2.0, x * 3.0

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2.0 + (0.0 if g2 is None else g2 * 3.0)


def test_hooks_of_every_kind_run_in_the_same_order(both) -> None:
    def scenario(m):
        a, b, c = _random_leaves(7)[0:2] + [og.tensor(np.linspace(0.5, 1.5, 6), requires_grad=True)]
        log: list = []
        y = og.tanh(a * b)
        z = Scale.apply(y + c, 3.0)
        u, v = Twice.apply(z)
        w = og.sin(u) * v + y
        y.register_hook(lambda g: (log.append(("tensor y", g.numpy().sum())), g * 2.0)[1])
        z.register_hook(lambda g: log.append(("tensor z", g.numpy().sum())))
        y.retain_grads()
        w.retain_grads()
        w.grad_fn.register_prehook(lambda gs: (log.append(("pre w", len(gs))), None)[1])
        y.grad_fn.register_hook(lambda gin, gout: (log.append(("post y", len(gin))), None)[1])
        u.grad_fn.register_hook(lambda gin, gout: [None if g is None else g * 0.5 for g in gin])
        a.register_hook(lambda g: (log.append(("leaf a", g.numpy().sum())), g + 1.0)[1])
        b.register_post_accumulate_grad_hook(lambda t: log.append(("post-acc b", t.grad.numpy().sum())))
        loss = og.sum(w * w)
        _log_turns(m, [loss], log, [a, b, c])
        loss.backward()
        return log, _grads([a, b, c]), y.grad.numpy().copy(), w.grad.numpy().copy()

    fast, python = both(scenario)
    _same(fast, python)
    assert any(e[0] == "post-acc b" for e in fast[0])


def test_create_graph_and_higher_order_match(both) -> None:
    def scenario(m):
        (x,) = _random_leaves(3)[:1]
        y = og.sum(og.tanh(x) ** 3 * og.sin(x))
        (g1,) = og.autograd.grad(y, x, create_graph=True)
        (g2,) = og.autograd.grad(og.sum(g1 * g1), x, create_graph=True)
        og.sum(g2 * x).backward(create_graph=True)
        first = x.grad.numpy().copy()
        x.grad = None
        og.sum(g1 * g2).backward()
        return g1.numpy().copy(), g2.numpy().copy(), first, x.grad.numpy().copy()

    _same(*both(scenario))


def test_reentrant_backward_inside_a_hook_matches(both) -> None:
    def scenario(m):
        a, b = _random_leaves(5)[:2]
        inner = og.tensor(np.linspace(-1.0, 1.0, 6), requires_grad=True)
        log: list = []

        def hook(g):
            with og.enable_grad():
                og.sum(og.tanh(inner) * g).backward()  # a whole pass from inside this one
            log.append(inner.grad.numpy().sum())
            return g * 0.5

        y = og.tanh(a * b)
        y.register_hook(hook)
        loss = og.sum(og.sin(y) * a)
        _log_turns(m, [loss], log, [a, b])
        loss.backward()
        return log, _grads([a, b, inner])

    _same(*both(scenario))


def test_leaf_reached_twice_and_grad_capture_of_many_inputs(both) -> None:
    def scenario(m):
        a, b, _c, d = _random_leaves(9)
        y = a * a + og.tanh(a) * b + d
        loss = og.sum(y * y)
        got = og.autograd.grad(loss, [b, a, d], retain_graph=True)
        loss.backward()
        return [g.numpy().copy() for g in got], _grads([a, b, d])

    _same(*both(scenario))


# --- errors: the same ones, nothing half-written -----------------------------------------


class Wrong(og.autograd.Function):
    """Returns `bad` as the gradient for x."""

    @staticmethod
    def forward(ctx, x, bad):
        ctx.bad = bad
        return x * 1.0

    @staticmethod
    def backward(ctx, g):
        return og.tensor(ctx.bad), None


def _node_returning(first):
    """A loss through a node whose gradient for its input 0 (tanh(x)) is `first` (for w: None)."""
    return lambda x, w: og.sum(node_output([og.tanh(x), w], lambda grads: (first, None)) * 2.0)


@pytest.mark.parametrize(
    "make",
    [
        lambda x, w: og.sum(og.tanh(Wrong.apply(x, np.zeros(2))) * w),
        lambda x, w: og.sum(og.tanh(Wrong.apply(x, np.zeros(6, dtype=np.float32))) * w),
        lambda x, w: og.sum(node_output([og.tanh(x), w], lambda grads: (grads[0],) * 3) * 2.0),  # the count
        _node_returning(wrap(np.zeros(3))),
        _node_returning(wrap(np.float64(1.0))),
        _node_returning(np.zeros(6)),  # not a Tensor
        _node_returning(wrap(np.zeros((6, 1)))),
        _node_returning(wrap(np.zeros(()))),
        _node_returning(wrap(np.zeros(6, ">f8"))),
    ],
    ids=["shape", "dtype", "count", "node-shape", "scalar", "not-a-tensor", "ndim", "0d", "byte-order"],
)
def test_errors_are_the_same_and_leave_no_grad(both, make) -> None:
    def scenario(m):
        x, w = (og.tensor(np.linspace(0.1, 0.6, 6) * k, requires_grad=True) for k in (1.0, 2.0))
        loss = make(x, w)
        with pytest.raises((RuntimeError, TypeError, AttributeError)) as info:
            loss.backward()
        return type(info.value).__name__, str(info.value), _grads([x, w])

    fast, python = both(scenario)
    _same(fast, python)
    assert fast[2][0] is None  # x's gradient is the bad one (w's accumulator may run first)


@pytest.mark.parametrize("kind", ["view", "fortran", "0d", "float32"])
def test_gradients_of_every_array_layout_pass_the_inline_check(both, kind) -> None:
    """Gradients for output 0 (checked inline, from the array's fields in C) that are views,
    Fortran-ordered, 0-d or of another float dtype: accepted by both loops alike."""

    def scenario(m):
        base = {"view": np.zeros((4, 3, 10))[1:, :, ::3], "fortran": np.asfortranarray(np.zeros((3, 4)))}
        shape = {"view": (3, 3, 4), "fortran": (3, 4), "0d": (), "float32": (5,)}[kind]
        dtype = np.float32 if kind == "float32" else np.float64
        values = np.linspace(0.1, 0.9, int(np.prod(shape))).reshape(shape)
        x = og.tensor(values.astype(dtype), requires_grad=True)

        def make(grads):
            g = base.get(kind, np.zeros(shape, dtype))
            g[...] = grads[0]._data * 3.0
            return (wrap(g),)

        loss = og.sum(node_output([og.tanh(x)], make) * 2.0)
        loss.backward()
        return _grads([x])

    _same(*both(scenario))


def test_freed_graph_error_is_the_same(both) -> None:
    def scenario(m):
        (x,) = _random_leaves(1)[:1]
        y = og.sum(og.tanh(og.tanh(x)))
        y.backward()
        first = x.grad.numpy().copy()
        with pytest.raises(RuntimeError) as info:
            y.backward()
        return str(info.value), first, x.grad.numpy().copy()

    _same(*both(scenario))


def test_replaced_helpers_are_seen(monkeypatch) -> None:
    """The C loop reads engine_loop's helpers at each use: a replaced `_apply`/`_check_gradient`
    is called (here: counted)."""
    seen = []
    real_apply, real_check = engine_loop._apply, engine_loop._check_gradient
    monkeypatch.setattr(engine_loop, "_apply", lambda *a: (seen.append("apply"), real_apply(*a))[1])
    monkeypatch.setattr(engine_loop, "_check_gradient", lambda *a: (seen.append("check"), real_check(*a))[1])
    x = og.tensor(np.ones(3), requires_grad=True)
    y = Scale.apply(og.tanh(x), 2.0)  # a custom Function's node: through _apply
    og.sum(og.tanh(x) + y).backward()  # add's gradient for position 0 of tanh... and the rest
    assert "apply" in seen
    seen.clear()
    x.grad = None
    og.sum(og.split(og.tanh(x * 1.0), 3)[1]).backward()  # a gradient for output 1: checked in Python
    assert "check" in seen


# --- memory: when gradients die, no leaks -------------------------------------------------


class Probe(GradNode):
    """A plain node (run inline) that passes its gradient on (a new array) and records, at
    its turn, which gradient arrays seen so far are still alive."""

    __slots__ = ("log", "refs")
    name = "probe_grad"
    _plain = True

    def apply(self, grads, create_graph):
        self.log.append((self.seq, [r() is not None for r in self.refs]))
        self.refs.append(weakref.ref(grads[0]._data))
        out = wrap(grads[0]._data * 1.0)
        self.refs.append(weakref.ref(out._data))
        return tuple(out if c is not None else None for c in self._next)


def _probe(inputs, log, refs):
    node = Probe(inputs)
    node.log, node.refs = log, refs
    out = wrap(np.ones(inputs[0].shape))
    set_history(out, node, 0)
    return out


def test_intermediate_gradients_die_when_the_python_loops_do(both) -> None:
    def scenario(m):
        a, b = _random_leaves(11)[:2]
        log: list = []
        refs: list = []
        y = _probe([a], log, refs)
        z = _probe([y, b], log, refs)
        w1, w2 = _probe([z], log, refs), _probe([z], log, refs)
        top = _probe([og.add(w1, w2)], log, refs)
        for _ in range(20):  # a chain
            top = _probe([top], log, refs)
        top.backward(og.tensor(np.linspace(1.0, 2.0, 6)))
        alive_after = [r() is not None for r in refs]
        return [entry[1] for entry in log], alive_after, _grads([a, b])

    fast, python = both(scenario)
    _same(fast, python)


@pytest.mark.parametrize("mode", ["backward", "grad", "create_graph"])
def test_no_reference_leaks_over_many_passes(mode) -> None:
    a = og.tensor(np.linspace(-1.0, 1.0, 8), requires_grad=True)
    b = og.tensor(np.linspace(0.5, 1.5, 8), requires_grad=True)
    data_a, data_b = a._data, b._data

    def one_pass():
        y = og.tanh(a * b)
        z = og.split(y, 2)[0]
        loss = og.sum(og.concat([z, z]) * y[:4].sum()) + og.sum(y)
        nodes = _nodes([loss])
        if mode == "backward":
            loss.backward()
        elif mode == "grad":
            og.autograd.grad(loss, [a, b])
        else:
            (g,) = og.autograd.grad(loss, a, create_graph=True)
            og.sum(g).backward()
        a.grad = b.grad = None
        return [weakref.ref(n) for n in nodes]

    for _ in range(5):
        one_pass()
    gc.collect()
    counts = [sys.getrefcount(o) for o in (a, b, data_a, data_b)]
    objects = len(gc.get_objects())
    for _ in range(200):
        refs = one_pass()
    gc.collect()
    assert [sys.getrefcount(o) for o in (a, b, data_a, data_b)] == counts
    assert len(gc.get_objects()) - objects < 100  # nothing kept per pass (a leak would keep 200+)
    assert all(r() is None for r in refs)  # every node of the last pass is gone (no cycle kept them)
    node = og.tanh(a * b).grad_fn
    before = sys.getrefcount(node)
    for _ in range(50):
        out = og.tanh(a * b)
        og.sum(out).backward(retain_graph=True)
    assert sys.getrefcount(node) == before


def test_other_arguments_go_to_the_python_loop() -> None:
    """Arguments of other types than the engine passes (a ready heap as a tuple, keywords)
    are served by the Python function, whose errors they get."""
    with pytest.raises(AttributeError):
        C_LOOP((), 0, {}, None, False, False)
    assert C_LOOP([], 0, {}, engine.GradTensorHolder(False, {}), False, False) == {}
    assert C_LOOP([], 0, {}, engine.GradTensorHolder(False, {}), False, create_graph=False) == {}


# --- the dependency count's walk ------------------------------------------------------------


def _counts_match(roots) -> None:
    c_deps, c_ends = engine._count_deps(roots, None)
    p_deps, p_ends = _accel.PURE["_count_deps"](roots, None)
    assert [(id(n), k) for n, k in c_deps.items()] == [(id(n), k) for n, k in p_deps.items()]  # in order
    assert [id(n) for n in c_ends] == [id(n) for n in p_ends]


@pytest.mark.parametrize("seed", range(12))
def test_dependency_count_matches_the_python_walk(seed) -> None:
    assert engine._count_deps is not _accel.PURE["_count_deps"]
    leaves = _random_leaves(seed)
    pool = _random_graph(seed, leaves)
    rng = np.random.default_rng(seed)
    wanted = [t for t in pool if t.requires_grad]
    picks = [wanted[int(i)] for i in rng.integers(0, len(wanted), 4)]  # duplicates, leaves
    for k in range(1, 5):
        _counts_match(engine._edges_to(picks[:k]))
    _counts_match(engine._edges_to([wanted[-1], wanted[-1]]))  # one root twice: one walk


def test_dependency_count_of_nodes_of_many_positions() -> None:
    x = og.tensor(np.linspace(0.0, 1.0, 3), requires_grad=True)
    consts = [og.tensor(np.full(3, float(k))) for k in range(4)]
    none_needed = node_output(consts[:3], lambda grads: (None, None, None))  # three edges, all None
    mixed = node_output([consts[0], og.tanh(x), x, consts[1]], lambda grads: (None, grads[0], grads[0], None))
    cat = og.concat([og.tanh(x), x, og.sin(x), x])
    for roots in ([none_needed], [mixed], [cat, mixed], [none_needed, mixed, cat], [mixed, x]):
        _counts_match(engine._edges_to(roots))
    with pytest.raises(IndexError):  # no roots: the Python walk's error
        engine._count_deps([], None)
