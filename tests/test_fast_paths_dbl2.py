"""The double-backward fast paths of the wt-dbl2 session (issue 11) give exactly what the
general paths give.

- tanh's and pow's first and double grad kernels (their float checks chained): bit for
  bit the step-by-step ufuncs (and so backward.yaml's composites), on float32/float64 with
  infinities, NaN, signed zeros and subnormals, every `needs`; mixed dtypes, broadcasts,
  0-d arrays and five memory layouts (strides too); results never share memory with an
  input or one another. (Writing the later steps into the first step's array was tried
  and measured no faster in the workload; these tests would hold it to the same bits.)
- The double-backward workload's `.grad` through those kernels against the composites
  (the create_graph path), and against central differences in float64.
- The engine: `_all_on_paths` from the dependency walk's edgeless nodes (`ends`) decides as
  the walk over every node did (the fast grad path taken exactly when it was); one tensor
  or a one-tensor list given to grad()/backward() (no normalisation) gives what the lists
  give, and a one-entry list holding something else still raises; several roots, one node
  reached twice, against `run_general`.
"""

from __future__ import annotations

import numpy as np
import pytest
from finite_differences import central

import opgrad as og
from opgrad.runtime import engine, engine_loop
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.kernels.generic import elementwise as ew
from opgrad.runtime.tensor import wrap

RNG = np.random.default_rng(2222)
BOTH_NEEDS = (None, (True, True), (True, False), (False, True))


def _same(a, b) -> None:
    """Same class, shape, dtype, layout and bits (NaN equal to NaN)."""
    assert a.__class__ is b.__class__
    assert a.shape == b.shape and a.dtype == b.dtype
    assert a.ndim == 0 or a.strides == b.strides  # (a later reduction's order follows it)
    assert np.array_equal(a, b, equal_nan=True)
    if a.dtype.kind == "f" and a.size:  # signed zeros and NaN payloads too
        assert a.tobytes() == b.tobytes()


def _specials(dtype, n=96):
    """Random values with infinities, NaN, signed zeros, subnormal, tiny and huge ones."""
    a = RNG.uniform(-3.0, 3.0, n)
    tiny = np.finfo(dtype).smallest_subnormal
    a[:12] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-30, -1e30, 3e12, tiny, -tiny, 1e-300, 1e300]
    with np.errstate(over="ignore", under="ignore"):  # (float32: 1e300 is inf, 1e-300 zero)
        return RNG.permutation(a).astype(dtype)


def _no_alias(results, inputs) -> None:
    arrays = [r for r in results if r is not None]
    for i, r in enumerate(arrays):
        for a in inputs:
            assert not np.shares_memory(r, a)
        for other in arrays[i + 1 :]:
            assert not np.shares_memory(r, other)


# --- the kernels, against their step-by-step ufuncs ------------------------------------


def _tanh_double_grad_steps(out, og_, xgg, dtype):
    m = np.multiply
    return (m(m(m(dtype(-2), xgg), og_), out), m(xgg, np.subtract(dtype(1), m(out, out))))


def _pow_double_grad_steps(x, og_, xgg, dtype):
    m = np.multiply
    return (m(m(m(xgg, og_), dtype(6)), x), m(m(xgg, dtype(3)), m(x, x)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "kernel, steps",
    [
        (lambda a, b, c, needs: ew.tanh_double_grad(np.tanh(a), b, c, needs), _tanh_double_grad_steps),
        (lambda a, b, c, needs: ew.pow_double_grad(a, b, c, 3, needs), _pow_double_grad_steps),
    ],
    ids=["tanh", "pow"],
)
def test_double_grads_are_their_steps_bit_for_bit(dtype, kernel, steps) -> None:
    a, og_, xgg = _specials(dtype), _specials(dtype), _specials(dtype)
    first = np.tanh(a) if steps is _tanh_double_grad_steps else a
    with np.errstate(all="ignore"):
        want = steps(first, og_, xgg, dtype)
        for needs in BOTH_NEEDS:
            got = kernel(a, og_, xgg, needs)
            for g, w, wanted in zip(got, want, needs or (True, True), strict=True):
                assert (g is None) is not wanted
                if wanted:
                    _same(g, w)
            _no_alias(got, (a, first, og_, xgg))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_first_grads_are_their_steps_bit_for_bit(dtype) -> None:
    out, x, og_ = np.tanh(_specials(dtype)), _specials(dtype), _specials(dtype)
    with np.errstate(all="ignore"):
        got = ew.tanh_grad(out, og_)
        _same(got, np.multiply(og_, np.subtract(dtype(1), np.multiply(out, out))))
        _no_alias([got], (out, og_))
        got = ew.pow_grad(x, og_, 3)
        _same(got, np.multiply(og_, np.multiply(dtype(3), np.multiply(x, x))))
        _no_alias([got], (x, og_))


def test_tanh_grad_other_dtypes_broadcasts_and_0d_arrays() -> None:
    """Where out_grad's dtype or shape is not the product's, a new array (NumPy's promotion
    and broadcast, as `out_grad * (1 - out * out)`); 0-d arrays stay arrays."""
    out64, out32 = np.tanh(_specials(np.float64)), np.tanh(_specials(np.float32))
    with np.errstate(all="ignore"):
        for out, og_ in (
            (out32, _specials(np.float64)),  # float32 product, float64 gradient
            (out64, _specials(np.float32)),
            (out64, np.asarray(0.75)),  # a 0-d gradient broadcast
            (out64[:1].reshape(()), _specials(np.float64)),  # a 0-d output broadcast
            (out64.reshape(8, 12), _specials(np.float64)[:12]),
            (out64[:1].reshape(()), np.asarray(-2.5)),  # both 0-d: an array back
            (out64.astype(np.float16), _specials(np.float16)),
        ):
            one = np.ones((), dtype=out.dtype)
            want = np.asarray(og_ * (one - out * out))
            got = ew.tanh_grad(out, og_)
            _same(got, want)
            _no_alias([got], (out, og_))


def _layouts(dtype):
    """One 2-D array of specials in five layouts: C, Fortran, transposed, reversed, strided."""
    base = _specials(dtype, 4 * 6 * 2).reshape(8, 6)
    return {
        "C": np.ascontiguousarray(base[:4]),
        "F": np.asfortranarray(base[:4]),
        "T": np.ascontiguousarray(base[:6, :4].T),
        "reversed": base[:4][::-1, ::-1],
        "strided": base[::2],
    }


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grads_keep_the_layout_of_their_steps(dtype) -> None:
    """Arrays of other layouts (a Fortran-ordered gradient, a transposed or strided view)
    give the results, values and strides, of the step-by-step ufuncs' new arrays."""
    m, one, three = np.multiply, dtype(1), dtype(3)
    arrays = _layouts(dtype)
    with np.errstate(all="ignore"):
        for ka, a in arrays.items():
            for kb, b in arrays.items():
                c = arrays["F" if kb == "C" else "C"]
                t = np.tanh(a)
                for got, want in (
                    (ew.tanh_grad(t, b), m(b, np.subtract(one, m(t, t)))),
                    (ew.pow_grad(a, b, 3), m(b, m(three, m(a, a)))),
                    (ew.tanh_double_grad(t, b, c), _tanh_double_grad_steps(t, b, c, dtype)),
                    (ew.tanh_double_grad(t, b, b), _tanh_double_grad_steps(t, b, b, dtype)),
                    (ew.pow_double_grad(a, b, c, 3), _pow_double_grad_steps(a, b, c, dtype)),
                    (ew.pow_double_grad(a, b, b, 3), _pow_double_grad_steps(a, b, b, dtype)),
                ):
                    for g, w in zip(got, want, strict=True) if isinstance(got, tuple) else [(got, want)]:
                        _same(g, w)
                        assert not np.shares_memory(g, a) and not np.shares_memory(g, b), (ka, kb)


# --- the workload, against the composites and finite differences -----------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_double_backward_kernels_are_the_composites(dtype) -> None:
    """backward() runs the double-grad kernels; grad(create_graph=True) runs backward.yaml's
    composites as recorded ops: the same bits."""
    x0 = _specials(dtype)
    x0[~np.isfinite(x0)] = 0.5  # (tanh(inf) ** 3's gradient is NaN either way; keep it finite)
    results = []
    for cg in (False, True):
        x = og.tensor(x0, requires_grad=True)
        (g,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
        if cg:
            (h,) = og.grad(og.sum(g), x, create_graph=True)
        else:
            og.sum(g).backward()
            h = x.grad
        results.append((g.numpy().copy(), h.numpy().copy()))
    _same(results[0][0], results[1][0])
    _same(results[0][1], results[1][1])


def test_double_backward_matches_central_differences() -> None:
    x0 = np.linspace(-1.4, 1.3, 9)
    x = og.tensor(x0, requires_grad=True)
    (g,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
    og.sum(g).backward()

    def first(v):  # sum of d/dx sum(tanh(x)^3), by opgrad's first-order pass
        xt = og.tensor(v, requires_grad=True)
        return float(og.grad(og.sum(og.tanh(xt) ** 3), xt)[0].numpy().sum())

    np.testing.assert_allclose(x.grad.numpy(), central(first, x0), rtol=1e-6, atol=1e-8)


# --- the engine ------------------------------------------------------------------------


@pytest.fixture
def fast_taken(monkeypatch):
    """`fast_taken(scenario)`: whether the scenario's grad() pass took run_grad, and its
    results."""

    def run(scenario):
        taken: list[int] = []
        real = engine_loop.run_grad

        def counted(*args):
            taken.append(1)
            return real(*args)

        monkeypatch.setattr(engine, "run_grad", counted)
        results = scenario()
        return bool(taken), results

    return run


def _walk_everything(roots, capture_nodes) -> bool:
    """The decision as it was made before `ends`: every node reached, walked again."""
    from opgrad.runtime.grad_holder import AccumulateGrad

    if any(n.__class__ is not AccumulateGrad for n in capture_nodes.values()):
        return False
    seen, stack = set(), [n for n, _ in roots]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kids = [k for k in (node._nexts or (node._next0, node._next1)) if k is not None]
        if node.__class__ is AccumulateGrad:
            if id(node) not in capture_nodes:
                return False
        elif not kids:
            return False
        stack.extend(kids)
    return True


class _Edgeless(GradNode):
    """A recorded node whose inputs need no gradient (every edge None): a dead end."""

    __slots__ = ()
    name = "edgeless_grad"

    def apply(self, grads, create_graph):
        return tuple(None for _ in self._at)


def _edgeless(n_inputs: int, like: og.Tensor) -> og.Tensor:
    out = wrap(np.ones_like(like.numpy()))
    consts = [og.tensor(np.ones(3)) for _ in range(n_inputs)]
    set_history(out, _Edgeless(consts), 0)
    return out


def _graphs():
    x, w = (og.tensor(RNG.uniform(-1, 1, 6), requires_grad=True) for _ in range(2))
    t = og.tanh(x)
    yield "chain", lambda: og.sum(og.tanh(x) ** 3), [x]
    yield "two inputs", lambda: og.sum(og.tanh(x * w)), [x, w]
    yield "other leaf", lambda: og.sum(og.tanh(x * w)), [x]
    yield "non-leaf input", lambda: og.sum(t * t), [t]
    yield "dead end, one position", lambda: og.sum(_edgeless(1, x) * x), [x]
    yield "dead end, three positions", lambda: og.sum(_edgeless(3, x) * x), [x]
    yield "dead end, two positions", lambda: og.sum(_edgeless(2, x) + x), [x]
    yield "input twice in the graph", lambda: og.sum(og.tanh(x) * x + x), [x]
    yield "leaf output", lambda: x, [x]


@pytest.mark.parametrize("name", [g[0] for g in _graphs()])
def test_all_on_paths_from_ends_decides_as_the_full_walk(name, fast_taken, monkeypatch) -> None:
    make, ins = next((m, i) for n, m, i in _graphs() if n == name)
    decided: list[bool] = []
    real = engine._all_on_paths
    roots_seen: list = []

    def spy(ends, capture_nodes):
        verdict = real(ends, capture_nodes)
        decided.append(verdict)
        assert verdict == _walk_everything(roots_seen[-1], capture_nodes), name
        return verdict

    real_run = engine._run

    def run_spy(roots, *args):
        roots_seen.append(list(roots))
        return real_run(roots, *args)

    monkeypatch.setattr(engine, "_all_on_paths", spy)
    monkeypatch.setattr(engine, "_run", run_spy)
    y = make()
    seed = None if y.ndim == 0 else og.tensor(np.ones(y.shape))
    taken, fast = fast_taken(lambda: og.grad(y, ins, grad_outputs=seed, retain_graph=True, allow_unused=True))
    assert decided and taken == decided[-1]
    monkeypatch.setattr(engine, "_all_on_paths", lambda *a: False)
    general = og.grad(y, ins, grad_outputs=seed, allow_unused=True)
    for a, b in zip(fast, general, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            _same(a.numpy(), b.numpy())


def test_one_tensor_or_a_list_give_the_same() -> None:
    x0 = RNG.uniform(-1, 1, 5)
    got = []
    for wrap_in in (lambda t: t, lambda t: [t], lambda t: (t,)):
        x = og.tensor(x0, requires_grad=True)
        y = og.sum(og.tanh(x) ** 3)
        (g,) = og.grad(wrap_in(y), wrap_in(x), create_graph=True)
        og.backward(wrap_in(og.sum(g)))
        got.append((g.numpy().copy(), x.grad.numpy().copy()))
    for g, h in got[1:]:
        _same(g, got[0][0])
        _same(h, got[0][1])


def test_a_one_entry_list_of_something_else_still_raises() -> None:
    x = og.tensor(np.ones(3), requires_grad=True)
    y = og.sum(x * 2.0)
    with pytest.raises(TypeError, match=r"outputs\[0\] must be a Tensor"):
        og.grad([3.0], x)
    with pytest.raises(TypeError, match=r"inputs\[0\] must be a Tensor"):
        og.grad(y, [3.0])
    with pytest.raises(TypeError, match=r"tensors\[0\] must be a Tensor"):
        og.backward([3.0])
    with pytest.raises(TypeError, match="must be a Tensor or a list"):
        og.grad(y, 3.0)
    with pytest.raises(ValueError, match="same tensor"):
        og.grad(y, [x, x])


def test_several_roots_one_node_twice_against_run_general(monkeypatch) -> None:
    """backward() of several outputs, two of them of one node (dict.fromkeys keeps it once),
    with hooks logging the order: run_backward and run_general give the same."""

    def scenario():
        calls: list[str] = []
        x = og.tensor(np.linspace(-1.0, 1.0, 12), requires_grad=True)
        a, b, c = og.split(og.tanh(x) * 2.0, 3)
        a.register_hook(lambda g: calls.append("a") or None)
        c.register_hook(lambda g: calls.append("c") or g * 3.0)
        x.register_hook(lambda g: calls.append("x") or None)
        og.backward([og.sum(a * a), c, og.sum(b)], [None, og.tensor(np.full(4, 0.5)), None])
        return x.grad.numpy().copy(), calls

    fast = scenario()

    def general(ready, order, deps, holder, retain_graph, create_graph):
        args = (True, None, None, None, None, 0)
        engine_loop.run_general(ready, order, deps, holder, retain_graph, create_graph, *args)

    monkeypatch.setattr(engine, "run_backward", general)
    slow = scenario()
    _same(fast[0], slow[0])
    assert fast[1] == slow[1]


def test_grad_results_alias_nothing_with_one_tensor() -> None:
    x = og.tensor(np.linspace(-1.0, 1.0, 8), requires_grad=True)
    (g,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
    og.sum(g).backward()
    arrays = [x.numpy(), g.numpy(), x.grad.numpy()]
    for i, a in enumerate(arrays):
        for b in arrays[i + 1 :]:
            assert not np.shares_memory(a, b)


# --- grad mode's switch --------------------------------------------------------------


def test_set_enabled_true_without_the_thread_local_only_while_no_thread_has_it_off() -> None:
    """`_set_enabled(True)` returns at once while `_OFF` is empty (every thread on); with a
    thread off, its own or another, it reads and sets this thread's flag as before."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from opgrad.runtime import grad_mode

    assert not grad_mode._OFF
    assert grad_mode._set_enabled(True) is True and og.is_grad_enabled() and not grad_mode._OFF
    with og.no_grad():  # this thread off: turned on, and back off
        assert grad_mode._set_enabled(True) is False
        assert og.is_grad_enabled() and not grad_mode._OFF
        assert grad_mode._set_enabled(False) is True
        assert not og.is_grad_enabled() and len(grad_mode._OFF) == 1
    assert og.is_grad_enabled() and not grad_mode._OFF

    inside, leave = threading.Event(), threading.Event()

    def off_in_another_thread() -> None:
        with og.no_grad():
            inside.set()
            leave.wait(10)

    with ThreadPoolExecutor(1) as pool:
        done = pool.submit(off_in_another_thread)
        try:
            assert inside.wait(10)
            assert len(grad_mode._OFF) == 1  # another thread off: this one still on
            assert grad_mode._set_enabled(True) is True and og.is_grad_enabled()
            assert grad_mode._set_enabled(False) is True and not og.is_grad_enabled()
            assert grad_mode._set_enabled(True) is False and og.is_grad_enabled()
            assert len(grad_mode._OFF) == 1
        finally:
            leave.set()
        done.result()
    assert not grad_mode._OFF and og.is_grad_enabled()
