"""The backward fast paths of wt-bwd2 (issue 11) give exactly what the general paths give.

- `GradNode._plain`: which node classes `run_backward` runs inline (generated nodes with
  one output position; never a subclass that does not set it itself, a custom Function's
  node or a leaf's accumulator).
- `run_backward` (the chain's next node kept without a heap key) against `run_general` on
  chains of generated nodes, diamonds, several roots, multi-output nodes, hooks,
  create_graph, retain_graph, and the errors (freed graph, in-place change of a saved
  tensor, a bad gradient from a subclass of a generated node).
- The dependency count (a chain walked without the stack) against a plain count.
- add_grad and multiply_grad (unbroadcast's first case inline) against unbroadcast, and
  tanh_grad (1 found by dtype identity) against the expression with ONES, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from finite_differences import central
from test_fast_paths_bwd import _compare, _general, _grads, _leaves, _same

import opgrad as og
from opgrad.generated import nodes as gen_nodes
from opgrad.runtime import engine, engine_loop
from opgrad.runtime.function import Function
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import GradNode
from opgrad.runtime.kernels.common import ONES, unbroadcast
from opgrad.runtime.kernels.generic import binary, elementwise
from opgrad.runtime.tensor import wrap

RNG = np.random.default_rng(2222)


@pytest.fixture
def loops(monkeypatch):
    """`loops(scenario)`: the scenario's results with run_backward, then with the general loop."""

    def both(scenario):
        reached = []
        real = engine_loop.run_backward
        monkeypatch.setattr(engine, "run_backward", lambda *args: (reached.append(1), real(*args))[1])
        results = [scenario()]
        monkeypatch.setattr(engine, "run_backward", _general)
        results.append(scenario())
        monkeypatch.setattr(engine, "run_backward", real)
        assert reached, "the scenario never reached run_backward"
        return results

    return both


# --- which classes run inline ------------------------------------------------------------


def test_generated_nodes_are_plain_exactly_when_they_have_one_output_position() -> None:
    classes = [c for c in vars(gen_nodes).values() if isinstance(c, type) and issubclass(c, GradNode)]
    classes = [c for c in classes if c is not GradNode]
    assert len(classes) > 100
    for cls in classes:
        assert cls._plain is (not cls.n_outputs and not cls.foreign_grads), cls.__name__
    assert gen_nodes.TanhGradNode._plain and gen_nodes.MultiplyGradNode._plain
    assert not gen_nodes.AddDoubleGradNode._plain  # n_outputs = 2


def test_other_nodes_are_not_plain() -> None:
    assert GradNode._plain is False
    assert AccumulateGrad._plain is False

    class Sub(gen_nodes.TanhGradNode):  # may change what apply does: not inherited
        __slots__ = ()

    class Own(GradNode):
        __slots__ = ()

    assert Sub._plain is False and Own._plain is False

    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = og.tensor(np.ones(3), requires_grad=True)
    y = Square.apply(x)
    assert y.grad_fn.foreign_grads and y.grad_fn._plain is False
    assert og.tanh(x).grad_fn._plain is True


def test_runtime_one_output_nodes_are_plain() -> None:
    from opgrad.runtime import grad_holder, indexing, transfer

    for cls in (
        indexing.GetItemGradNode,
        indexing.ScatterGradNode,
        indexing.SetItemGradNode,
        transfer.ToDeviceGradNode,
        grad_holder.SumGradNode,
        grad_holder.CopyGradNode,
    ):
        assert cls._plain is True and not cls.n_outputs and not cls.foreign_grads, cls.__name__


def test_indexing_and_summed_gradients_match(loops) -> None:
    def scenario():
        a, b = _leaves(2, size=6)
        y = og.tanh(a[1:5]) * b[2:]
        z = og.sum(y[::2]) + og.sum(og.tanh(a)[[0, 3, 3]])
        z.backward(create_graph=True)  # a's gradient is a recorded sum of several
        first = _grads([a, b])
        g = a.grad
        a.grad = b.grad = None
        og.sum(g * g).backward()
        return {**{f"first_{k}": v for k, v in first.items()}, **_grads([a, b])}

    _compare(*loops(scenario))


# --- run_backward against run_general ----------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("retain", [False, True])
def test_generated_chain_matches_the_general_loop(loops, dtype, retain) -> None:
    """The benchmark's chain and its neighbours (subtract, divide), with the graph kept
    for a second pass or freed."""
    data, c, d = (RNG.standard_normal(16).astype(dtype) for _ in range(3))
    steps = [
        lambda y, c, d: og.tanh(og.add(og.multiply(y, c), d)),
        lambda y, c, d: og.tanh(og.subtract(og.divide(y, c), d)),
    ]

    def scenario():
        x = og.tensor(data, requires_grad=True)
        y, cc, dd = x, og.tensor(c), og.tensor(d)
        for k in range(30):
            y = steps[k % 2](y, cc, dd)
        loss = og.sum(og.abs(y)) if dtype == np.complex128 else og.sum(y)
        loss.backward(retain_graph=retain)
        out = {"x": x.grad.numpy().copy()}
        if retain:
            loss.backward()
            out["again"] = x.grad.numpy().copy()
        return out

    _compare(*loops(scenario))


def test_chain_with_broadcast_constants_and_parameters_matches(loops) -> None:
    data = RNG.standard_normal((4, 3))

    def scenario():
        x = og.tensor(data, requires_grad=True)
        w = og.tensor(np.linspace(0.5, 1.5, 3), requires_grad=True)
        b = og.tensor(np.float64(0.25), requires_grad=True)  # 0-d: its gradient is summed
        c = og.tensor(np.full((1, 3), 0.75))
        y = x
        for _ in range(5):
            y = og.tanh(og.add(og.multiply(og.multiply(y, w), c), b))
        og.sum(y).backward()
        return _grads([x, w, b])

    _compare(*loops(scenario))


def test_diamonds_and_interleaved_branches_match(loops) -> None:
    """Nodes made ready while an older one waits in the heap: the kept next node goes
    through the heap (heappushpop) when it is not the one due."""

    def scenario():
        a, b, c = _leaves()
        u = og.tanh(a * b)
        v = og.sin(u) + og.exp(c)
        w = og.tanh(u) * v  # a diamond through u
        z = og.multiply(w, og.cos(v)) + og.tanh(b)
        branches = [og.tanh(z * float(k)) for k in range(1, 4)]
        og.sum(branches[0] + branches[1] * branches[2]).backward()
        return _grads([a, b, c])

    _compare(*loops(scenario))


def test_several_roots_multi_output_and_create_graph_match(loops) -> None:
    def scenario():
        (x,) = _leaves(1, size=6)
        p, q, r = og.split(x, 3)
        s = og.sum(p * og.tanh(r))
        t = og.sum(og.tanh(x) ** 3)
        og.backward([s, t], create_graph=True)
        results = {"first": x.grad.numpy().copy()}
        (second,) = og.grad([og.sum(og.tanh(x.grad))], [x])  # through the recorded first pass
        results["second"] = second.numpy().copy()
        return results

    _compare(*loops(scenario))


def test_hooks_on_generated_nodes_match(loops) -> None:
    """Generated nodes with hooks leave the inline path; their neighbours stay on it."""

    def scenario():
        calls: list[str] = []
        a, b = _leaves(2)
        m = og.multiply(a, og.tensor(np.full(5, 0.5)))
        m.register_hook(lambda g: calls.append("m") or None)
        s = og.add(og.tanh(m), b)
        s.grad_fn.register_prehook(lambda grads: calls.append("add-pre") or [g * 2 for g in grads])
        t = og.tanh(s)
        t.retain_grads()
        t.grad_fn.register_hook(lambda ins, outs: calls.append("tanh-post") or None)
        og.sum(og.tanh(t) * 3.0).backward()
        return {**_grads([a, b]), "t": t.grad.numpy().copy(), "calls": calls}

    _compare(*loops(scenario))


def test_gradients_alias_nothing_they_should_not(loops) -> None:
    def scenario():
        a, b = _leaves(2)
        c = og.tensor(np.full(5, 0.5))
        y = og.tanh(og.add(og.multiply(a, c), b))
        seed = og.tensor(np.linspace(-1.0, 1.0, 5))
        y.backward(seed)
        ga, gb = a.grad.numpy(), b.grad.numpy()
        assert not np.shares_memory(ga, gb)
        assert not np.shares_memory(ga, seed.numpy()) and not np.shares_memory(gb, seed.numpy())
        return _grads([a, b])

    _compare(*loops(scenario))


def _freed():
    (x,) = _leaves(1)
    y = og.sum(og.tanh(og.multiply(x, og.tensor(np.full(5, 2.0)))))
    y.backward()
    y.backward()


def _modified():
    (x,) = _leaves(1)
    h = og.tanh(x)
    y = og.sum(og.tanh(h * 2.0))
    with og.no_grad():
        h.multiply_(2.0)
    y.backward()


def _bad_subclass_gradient():
    class Bad(gen_nodes.TanhGradNode):  # not plain: the general _apply path in both loops
        __slots__ = ()

        def apply(self, grads, create_graph):
            return (wrap(np.zeros(2)),)

    (x,) = _leaves(1)
    y = og.tanh(x)
    y.grad_fn.__class__ = Bad
    og.sum(y * 2.0).backward()


@pytest.mark.parametrize(
    "make", [_freed, _modified, _bad_subclass_gradient], ids=["freed", "modified", "bad"]
)
def test_errors_are_raised_the_same_way(loops, make) -> None:
    def scenario():
        with pytest.raises((RuntimeError, TypeError)) as info:
            make()
        return {"error": (type(info.value), str(info.value))}

    fast, general = loops(scenario)
    assert fast == general


# --- the dependency count ----------------------------------------------------------------


def _plain_count(roots):
    deps: dict[GradNode, int] = {}
    seen = set()
    stack = list(dict.fromkeys(n for n, _ in roots))
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for child in node._next:
            if child is not None:
                deps[child] = deps.get(child, 0) + 1
                stack.append(child)
    return deps


@pytest.mark.parametrize("shape", ["chain", "diamond", "roots"])
def test_dependency_count_is_a_plain_count(monkeypatch, shape) -> None:
    a, b, c = _leaves()
    if shape == "chain":
        outs = [og.sum(og.tanh(og.add(og.multiply(og.tanh(a), b), c)))]
    elif shape == "diamond":
        u = og.tanh(a * b)
        v = u * og.sin(u) + og.tanh(u) * c
        outs = [og.sum(v * u)]
    else:
        u = og.tanh(a)
        outs = [og.sum(u * b), og.sum(u), og.sum(og.exp(u) * c)]
    got = []
    real = engine_loop.run_backward

    def spy(ready, order, deps, *rest):
        got.append(dict(deps))
        real(ready, order, deps, *rest)

    roots = [(t.grad_fn, 0) for t in outs]
    want = _plain_count(roots)
    monkeypatch.setattr(engine, "run_backward", spy)
    og.backward(outs)
    assert got == [want]


# --- kernels -----------------------------------------------------------------------------


def _values(shape, dtype):
    v = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * RNG.standard_normal(shape)
    return np.asarray(v.astype(dtype))


SHAPES = [  # (x, y, out): broadcast or not, 0-d
    ((4,), (4,), (4,)),
    ((3, 4), (4,), (3, 4)),
    ((3, 1), (1, 4), (3, 4)),
    ((), (3,), (3,)),
    ((), (), ()),
]
NEEDS = [None, (True, True), (True, False), (False, True), (False, False)]


def _reference_pair(gx, gy, x, y, needs):
    want_x, want_y = needs or (True, True)
    return (
        unbroadcast(gx, x.shape, x.dtype) if want_x else None,
        unbroadcast(gy, y.shape, y.dtype) if want_y else None,
    )


def _same_results(got, want) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        if w is None:
            assert g is None
        else:
            _same(g, w)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("needs", NEEDS)
def test_add_and_multiply_grads_are_unbroadcast_bit_for_bit(dtype, shapes, needs) -> None:
    x, y, g = (_values(s, dtype) for s in shapes)
    got = binary.add_grad(x, y, g, needs)
    _same_results(got, _reference_pair(g, g, x, y, needs))
    for r in got:  # no-broadcast results are the gradient itself, as unbroadcast returns it
        if r is not None and r.shape == g.shape:
            assert r is g
    xc, yc = (x.conj(), y.conj()) if g.dtype.kind == "c" else (x, y)
    got = binary.multiply_grad(x, y, g, needs)
    _same_results(got, _reference_pair(g * yc, g * xc, x, y, needs))
    for r in got:
        if r is not None:
            assert not np.shares_memory(r, g) and not np.shares_memory(r, x) and not np.shares_memory(r, y)


def test_add_and_multiply_grads_cast_to_the_inputs_dtype() -> None:
    x = _values((4,), np.float32)
    y = _values((4,), np.float64)
    g = _values((4,), np.float64)
    _same_results(binary.add_grad(x, y, g), _reference_pair(g, g, x, y, None))
    _same_results(binary.multiply_grad(x, y, g), _reference_pair(g * y, g * x, x, y, None))
    assert binary.add_grad(x, y, g)[0].dtype == np.float32


def test_add_grad_reads_only_metadata() -> None:
    """add's inputs are no_need_buffer: the kernel gets TensorMeta-like objects."""
    from opgrad.runtime.grad_node import TensorMeta

    g = _values((3, 4), np.float64)
    x, y = TensorMeta((3, 4), g.dtype), TensorMeta((4,), g.dtype)
    gx, gy = binary.add_grad(x, y, g, None)
    assert gx is g
    _same(gy, unbroadcast(g, (4,), g.dtype))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(), (7,), (3, 5)])
def test_tanh_grad_is_the_expression_bit_for_bit(dtype, shape) -> None:
    out, g = np.tanh(_values(shape, dtype)), _values(shape, dtype)
    out, g = np.asarray(out), np.asarray(g)
    got = elementwise.tanh_grad(out, g)
    one = ONES.get(out.dtype)
    want = g * (one - out * out) if one is not None else g * np.conj(1 - out * out)
    _same(got, np.asarray(want))


def test_tanh_grad_with_an_equal_dtype_that_is_another_object() -> None:
    dt = np.dtype(np.float64, metadata={"tag": 1})  # equal to float64, not the same object
    assert dt == np.float64 and dt is not np.dtype(np.float64)
    out = np.tanh(RNG.standard_normal(9)).astype(dt)
    g = RNG.standard_normal(9).astype(dt)
    assert out.dtype is not np.dtype(np.float64)
    _same(elementwise.tanh_grad(out, g), g * (ONES[np.dtype(np.float64)] - out * out))


def test_chain_gradient_matches_finite_differences() -> None:
    c, d = np.full(6, 0.9), np.full(6, 0.1)
    x0 = np.linspace(-1.0, 1.0, 6)

    def f(v):
        y = v
        for _ in range(30):
            y = np.tanh(y * c + d)
        return y.sum()

    x = og.tensor(x0, requires_grad=True)
    y = x
    for _ in range(30):
        y = og.tanh(og.add(og.multiply(y, og.tensor(c)), og.tensor(d)))
    og.sum(y).backward()
    fd = central(f, x0)
    np.testing.assert_allclose(x.grad.numpy(), fd, rtol=1e-6, atol=1e-9)
