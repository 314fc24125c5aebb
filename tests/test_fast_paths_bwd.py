"""The backward fast paths (issue 11) give exactly what the general paths give.

- `engine_loop.run_backward` (the loop of backward(): inline plain nodes, a chain handed
  over without the heap) against `run_general` on the same graphs: the same gradients bit
  for bit, the same node order, hooks and errors raised the same way.
- The tanh and pow double-grad kernels (the first-order path of a double backward) against
  backward.yaml's composites (the create_graph path), bit for bit on float32, float64 and
  the complex types; sum_grad's spread against broadcast_to(...).astype(...).
- Double backward against finite differences in float64.
"""

from __future__ import annotations

import numpy as np
import pytest
from finite_differences import central
from test_node_results import node_output

import opgrad as og
from opgrad.runtime import engine, engine_loop
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.kernels.common import keepdim_shape
from opgrad.runtime.kernels.generic import reduction
from opgrad.runtime.tensor import wrap

RNG = np.random.default_rng(1111)


def _same(a, b) -> None:
    """Same class, shape, dtype and bits (NaN equal to NaN)."""
    assert a.__class__ is b.__class__
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.array_equal(a, b, equal_nan=True)


def _general(ready, order, deps, holder, retain_graph, create_graph):
    """run_backward's signature, served by the general loop (a backward() pass: accumulate,
    no targets, nothing blocked, not batched)."""
    args = (True, None, None, None, None, 0)  # accumulate, targets, blocked, needed, runners, batch
    engine_loop.run_general(ready, order, deps, holder, retain_graph, create_graph, *args)


@pytest.fixture
def loops(monkeypatch):
    """Run a scenario with run_backward, then with the general loop in its place."""

    def both(scenario):
        calls = []
        real = engine_loop.run_backward

        def counted(*args):
            calls.append(1)
            real(*args)

        monkeypatch.setattr(engine, "run_backward", counted)
        fast = scenario()
        assert calls, "the scenario never reached run_backward"
        monkeypatch.setattr(engine, "run_backward", _general)
        general = scenario()
        monkeypatch.setattr(engine, "run_backward", real)
        return fast, general

    return both


def _compare(fast, general) -> None:
    assert fast.keys() == general.keys()
    for k in fast:
        if isinstance(fast[k], np.ndarray):
            _same(fast[k], general[k])
        else:
            assert fast[k] == general[k], k


class Logged(GradNode):
    """A plain node that logs its turn and passes its gradient (times `scale`) to each input."""

    __slots__ = ("log", "scale")
    name = "logged_grad"

    def apply(self, grads, create_graph):
        self.log.append(self.seq)
        g = grads[0]
        return tuple(wrap(g._data * self.scale) for _ in self._next)


def _logged(inputs, log, scale=1.0):
    node = Logged(inputs)
    node.log = log
    node.scale = scale
    out = wrap(np.ones(inputs[0].shape))
    set_history(out, node, 0)
    return out


def _leaves(n=3, size=5, dtype=np.float64):
    """n leaves of `size` values, the same ones at every call (each loop gets the same data)."""
    rng = np.random.default_rng(size)
    return [og.tensor(rng.standard_normal(size).astype(dtype), requires_grad=True) for _ in range(n)]


def _grads(leaves) -> dict:
    return {f"g{i}": t.grad.numpy().copy() for i, t in enumerate(leaves) if t.grad is not None}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_chain_gives_the_general_loops_gradients(loops, dtype) -> None:
    data = RNG.standard_normal(16).astype(dtype)
    c, d = RNG.standard_normal(16).astype(dtype), RNG.standard_normal(16).astype(dtype)

    def scenario():
        x = og.tensor(data, requires_grad=True)
        y = x
        for _ in range(50):
            y = og.tanh(og.add(og.multiply(y, og.tensor(c)), og.tensor(d)))
        loss = og.real(og.sum(y * og.conj(y))) if dtype == np.complex128 else og.sum(y)
        loss.backward()
        return {"x": x.grad.numpy().copy()}

    _compare(*loops(scenario))


def test_diamonds_and_node_order_match(loops) -> None:
    def scenario():
        log: list[int] = []
        a, b, c = _leaves()
        u = _logged([a], log, 2.0)
        v = _logged([u, b], log, 3.0)
        w = _logged([u, v], log, 0.5)  # a diamond: u reaches w directly and through v
        z = _logged([w, c, v], log, 1.5)
        t = _logged([z, z], log, 1.25)  # both edges to one node
        seq0 = u.grad_fn.seq
        t.backward(og.tensor(np.ones(5)))
        return {**_grads([a, b, c]), "order": [s - seq0 for s in log]}

    fast, general = loops(scenario)
    _compare(fast, general)
    assert len(fast["order"]) == 5


def test_several_roots_and_shared_leaves_match(loops) -> None:
    def scenario():
        log: list[int] = []
        a, b, c = _leaves()
        p = og.tanh(a) * b
        q = _logged([og.sin(b), a], log, 2.0)
        r = og.exp(c) + p
        og.backward([og.sum(p), og.sum(q), og.sum(r * q)])
        return {**_grads([a, b, c]), "n": len(log)}

    _compare(*loops(scenario))


def test_leaves_run_in_the_same_order_with_equal_keys(loops) -> None:
    """Leaves share one seq: their order comes from the heap's insertion counter."""

    def scenario():
        seen: list[int] = []
        leaves = _leaves(5)
        for i, t in enumerate(leaves):
            t.register_hook(lambda g, i=i: seen.append(i))
        total = leaves[0] * leaves[1] + leaves[2] * leaves[3] * leaves[4] + leaves[1] * leaves[4]
        og.sum(total).backward()
        return {**_grads(leaves), "seen": seen}

    _compare(*loops(scenario))


def test_hooks_retain_grad_and_post_hooks_match(loops) -> None:
    def scenario():
        calls: list[str] = []
        a, b, c = _leaves()
        u = og.tanh(a * b)
        u.retain_grads()
        u.register_hook(lambda g: (calls.append("tensor"), g * 2)[1])
        v = og.sigmoid(u) * c
        v.grad_fn.register_prehook(lambda grads: (calls.append("pre"), [g * 3 for g in grads])[1])
        v.grad_fn.register_hook(lambda ins, outs: (calls.append("post"), None)[1])
        a.register_post_accumulate_grad_hook(lambda t: calls.append("acc"))
        og.sum(v * v).backward()
        return {**_grads([a, b, c]), "u": u.grad.numpy().copy(), "calls": calls}

    _compare(*loops(scenario))


def test_create_graph_then_backward_again_matches(loops) -> None:
    def scenario():
        (x,) = _leaves(1)
        y = og.sum(og.tanh(x) ** 3)
        y.backward(create_graph=True)
        first = x.grad.numpy().copy()
        g = x.grad
        x.grad = None
        og.sum(g * g).backward()
        return {"first": first, "second": x.grad.numpy().copy()}

    _compare(*loops(scenario))


def test_multi_output_nodes_match(loops) -> None:
    def scenario():
        (x,) = _leaves(1, size=6)
        p, q, r = og.split(x, 3)
        og.sum(p * og.tanh(r)).backward()  # q gets no gradient: zeros are filled in
        return _grads([x])

    _compare(*loops(scenario))


def test_gradient_buffers_alias_nothing(loops) -> None:
    def scenario():
        a, b = _leaves(2)
        seed = og.tensor(np.linspace(-1.0, 1.0, 5))
        y = og.add(a, b)
        y.backward(seed)
        assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
        assert not np.shares_memory(a.grad.numpy(), seed.numpy())
        assert not np.shares_memory(b.grad.numpy(), seed.numpy())
        return _grads([a, b])

    _compare(*loops(scenario))


@pytest.mark.parametrize(
    "make",
    [
        lambda grads: (grads[0],) * 3,  # the wrong count
        lambda grads: (wrap(np.zeros(3)), None),  # the wrong shape
        lambda grads: (wrap(np.zeros(2, dtype=np.float32)), None),  # the wrong dtype
        lambda grads: (wrap(np.float64(1.0)), None),  # a NumPy scalar
    ],
    ids=["count", "shape", "dtype", "scalar"],
)
def test_errors_are_raised_the_same_way(loops, make) -> None:
    def scenario():
        x, w = (og.tensor(np.array(v), requires_grad=True) for v in ([1.0, 2.0], [3.0, 4.0]))
        y = node_output([og.tanh(x), w], make)
        with pytest.raises((RuntimeError, TypeError)) as info:
            og.sum(y * 2.0).backward()
        return {"error": (type(info.value), str(info.value)), "x": x.grad, "w": w.grad}

    fast, general = loops(scenario)
    assert fast == general
    assert fast["x"] is None and fast["w"] is None


def test_freed_graph_error_is_the_same(loops) -> None:
    def scenario():
        (x,) = _leaves(1)
        y = og.sum(og.tanh(x))
        y.backward()
        with pytest.raises(RuntimeError) as info:
            y.backward()
        return {"error": str(info.value)}

    _compare(*loops(scenario))


# --- double-grad kernels against the composites ------------------------------------------

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def _values(shape, dtype, positive=False):
    v = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * RNG.standard_normal(shape)
    if positive:
        v = np.abs(v) + 0.25
    return v.astype(dtype)


def _both_paths(node, grads):
    """The node's create_graph path (the composite on Tensors) and its first-order path (the
    kernel on arrays), on the same saved tensors."""
    with og.no_grad():
        composite = node.apply([wrap(g) for g in grads], True)
    kernel = node.apply([wrap(g) for g in grads], False)
    return composite, kernel


def _double_grad_node(make, x, v, v_grad):
    """The node recorded for d/dx <make(x), v> with create_graph (v a constant or not)."""
    xt = og.tensor(x, requires_grad=True)
    (g,) = og.grad(make(xt), xt, og.tensor(v, requires_grad=v_grad), create_graph=True)
    return g.grad_fn


@pytest.mark.parametrize("dtype", DTYPES)
def test_tanh_double_grad_kernel_is_the_composite_bit_for_bit(dtype) -> None:
    x, v, w = (_values((4, 5), dtype) for _ in range(3))
    for v_grad in (True, False):
        node = _double_grad_node(og.tanh, x, v, v_grad)
        assert node.name == "tanh_double_grad"
        composite, kernel = _both_paths(node, [w])
        assert len(composite) == len(kernel) == 2
        # a constant v needs no gradient: the kernel skips it, the composite computes it
        assert (kernel[1] is None) is not v_grad
        for c, k in zip(composite, kernel, strict=True):
            if k is not None:
                _same(c.numpy(), k.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("y", [3, 2, 2.5, 0, -1.5])
def test_pow_double_grad_kernel_is_the_composite_bit_for_bit(dtype, y) -> None:
    x, v, w = _values((4, 5), dtype, positive=True), _values((4, 5), dtype), _values((4, 5), dtype)
    for v_grad in (True, False):
        node = _double_grad_node(lambda t: t**y, x, v, v_grad)
        assert node.name == "pow_double_grad"
        composite, kernel = _both_paths(node, [w])
        assert (kernel[1] is None) is not v_grad
        for c, k in zip(composite, kernel, strict=True):
            if k is not None:
                _same(c.numpy(), k.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    ("shape", "axis", "keepdim"),
    [
        ((1024,), (), False),
        ((3, 4), (1,), False),
        ((3, 4), (0,), True),
        ((2, 3, 4), (0, 2), True),
        ((), (), False),
        ((3, 4), (), True),
        ((2, 3, 4), (1,), True),
        ((2, 3), (-1,), False),
    ],
)
def test_sum_grad_spread_is_broadcast_to_astype(dtype, shape, axis, keepdim) -> None:
    x = _values(shape, dtype)
    out = np.asarray(x.sum(axis=axis or None, keepdims=keepdim))
    g = _values(out.shape, dtype)
    axes = tuple(a % len(shape) for a in axis) if axis else tuple(range(len(shape)))

    def old_spread(g):
        return np.broadcast_to(g.reshape(keepdim_shape(x.shape, axes)), x.shape).astype(x.dtype)

    old = old_spread(g)
    news = [reduction.sum_grad(x, g, list(axis), keepdim), reduction._spread(g, x, axes)]
    if not axis:
        news.append(reduction.sum_grad(x, g, None, keepdim))
    for new in news:
        _same(new, old)
        assert new.flags.c_contiguous and new.flags.writeable and new.flags.owndata
        assert not np.shares_memory(new, g)
    # a float32 gradient spread into float64 casts each value as astype does
    g32 = g.astype(np.complex64 if np.dtype(dtype).kind == "c" else np.float32)
    _same(reduction._spread(g32, x, axes), old_spread(g32))


# --- double backward against finite differences -----------------------------------------


def _first_derivative(f, x):
    xt = og.tensor(x, requires_grad=True)
    (g,) = og.grad(og.sum(f(xt)), xt, create_graph=True)
    return xt, g


@pytest.mark.parametrize(
    "f",
    [lambda t: og.tanh(t) ** 3, lambda t: og.tanh(t * t) ** 2.5, lambda t: og.tanh(t) * og.tanh(t) ** 2],
    ids=["tanh_cubed", "tanh_sq_pow", "products"],
)
def test_double_backward_matches_finite_differences(f) -> None:
    x = np.linspace(-1.2, 1.3, 9)
    xt, g = _first_derivative(f, x)
    og.sum(g).backward()
    second = xt.grad.numpy()
    expected = central(lambda values: _first_derivative(f, values)[1].numpy().sum(), x)
    np.testing.assert_allclose(second, expected, rtol=1e-6, atol=1e-8)


def test_tanh_cubed_second_derivative_is_the_closed_form() -> None:
    x = np.linspace(-1.0, 1.0, 1024)
    xt, g = _first_derivative(lambda t: og.tanh(t) ** 3, x)
    og.sum(g).backward()
    t = np.tanh(x)
    np.testing.assert_allclose(g.numpy(), 3 * t**2 * (1 - t**2), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(xt.grad.numpy(), (6 * t - 12 * t**3) * (1 - t**2), rtol=1e-12, atol=1e-14)
