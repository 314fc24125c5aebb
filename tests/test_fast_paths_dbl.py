"""The double-backward fast paths (issue 11) give exactly what the general paths give.

- `grad()` whose every node lies on a path to an input, every input a leaf: the pass runs
  `engine_loop.run_grad` (run_backward's loop, capturing at the leaves) instead of
  `_needed_nodes` + `run_general`. Against the general path (`engine._all_on_paths`
  forced to False) on the same graphs: the same gradients bit for bit, with retain_graph,
  allow_unused, several inputs and outputs, grad_outputs, hooks, create_graph; anomaly mode
  and graphs with other leaves or non-leaf inputs keep the general path.
- The sum kernel over every axis of a NumPy array (`add.reduce` over axis=None) against
  np.sum over the listed axes.
- Gradients handed out never alias an input, a seed or one another; the third derivative
  of the double-backward workload matches finite differences in float64.
"""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import engine, engine_loop
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.kernels.generic import reduction
from opgrad.runtime.tensor import wrap

RNG = np.random.default_rng(3333)


def _same(a, b) -> None:
    """Same class, shape, dtype and bits (NaN equal to NaN)."""
    assert a.__class__ is b.__class__
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.array_equal(a, b, equal_nan=True)


def _arrays(results) -> dict:
    """A scenario's results as arrays (None kept), copied so later passes cannot change them."""
    return {
        k: None if v is None else v if isinstance(v, list) else np.array(v.numpy(), copy=True)
        for k, v in results.items()
    }


def _compare(fast, general) -> None:
    assert fast.keys() == general.keys()
    for k in fast:
        if fast[k] is None or isinstance(fast[k], list):
            assert fast[k] == general[k], k
        else:
            _same(fast[k], general[k])


@pytest.fixture
def paths(monkeypatch):
    """`paths(scenario, fast=True)`: the scenario's results through the fast grad path (it
    must be taken when `fast`, never otherwise), then with the general path forced."""

    def both(scenario, fast=True):
        taken = []
        real = engine_loop.run_grad

        def counted(*args):
            taken.append(1)
            return real(*args)

        monkeypatch.setattr(engine, "run_grad", counted)
        first = _arrays(scenario())
        assert bool(taken) is fast, "the fast grad path was " + ("not taken" if fast else "taken")
        monkeypatch.setattr(engine, "_all_on_paths", lambda *args: False)
        taken.clear()
        second = _arrays(scenario())
        assert not taken
        monkeypatch.undo()
        return first, second

    return both


def _x(n=16, dtype=np.float64, seed=0):
    return og.tensor(np.random.default_rng(seed).uniform(-1.5, 1.5, n).astype(dtype), requires_grad=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_double_backward_workload_matches(paths, dtype) -> None:
    def scenario():
        x = _x(dtype=dtype)
        (g,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
        og.sum(g).backward()
        return {"g": g, "xgrad": x.grad}

    _compare(*paths(scenario))


def test_third_order_matches(paths) -> None:
    def scenario():
        x = _x()
        (g1,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
        (g2,) = og.grad(og.sum(g1 * g1), x, create_graph=True)
        (g3,) = og.grad(og.sum(og.tanh(g2)), x)
        return {"g1": g1, "g2": g2, "g3": g3}

    _compare(*paths(scenario))


def test_retain_graph_allows_a_second_pass(paths) -> None:
    def scenario():
        x = _x()
        y = og.sum(og.tanh(x) ** 3)
        (a,) = og.grad(y, x, retain_graph=True)
        (b,) = og.grad(y, x, retain_graph=True, create_graph=True)
        (c,) = og.grad(og.sum(b * b), x)
        return {"a": a, "b": b, "c": c}

    _compare(*paths(scenario))


def test_without_retain_graph_the_second_pass_raises() -> None:
    x = _x()
    y = og.sum(og.tanh(x) ** 3)
    og.grad(y, x)
    with pytest.raises(RuntimeError, match="second time"):
        og.grad(y, x)


def test_allow_unused_several_inputs_and_outputs(paths) -> None:
    def scenario():
        x, w, unused = _x(seed=1), _x(seed=2), _x(seed=3)
        y1 = og.sum(og.tanh(x * w))
        y2 = og.sum(x**3)
        gx, gw, gu = og.grad([y1, y2], [x, w, unused], allow_unused=True, create_graph=True)
        (h,) = og.grad(og.sum(gx * gw), [w])
        return {"gx": gx, "gw": gw, "gu": gu, "h": h}

    _compare(*paths(scenario))


def test_unused_input_without_allow_unused_raises_on_both_paths(paths) -> None:
    def scenario():
        x, unused = _x(seed=1), _x(seed=3)
        with pytest.raises(RuntimeError, match="was not used"):
            og.grad(og.sum(og.tanh(x)), [x, unused])
        return {}

    _compare(*paths(scenario))


def test_grad_outputs_given(paths) -> None:
    def scenario():
        x = _x()
        v = og.tensor(np.linspace(-1.0, 2.0, 16), requires_grad=True)
        y = og.tanh(x) ** 3
        (g,) = og.grad(y, x, grad_outputs=v, create_graph=True)
        gx, gv = og.grad(og.sum(g * g), [x, v])
        (plain,) = og.grad(og.tanh(x) * 2.0, x, grad_outputs=og.tensor(np.full(16, 0.5)))
        return {"g": g, "gx": gx, "gv": gv, "plain": plain}

    _compare(*paths(scenario))


def test_hooks_present(paths) -> None:
    def scenario():
        calls: list = []
        x = _x()
        x.register_hook(lambda g: calls.append("leaf") or g * 2.0)
        t = og.tanh(x)
        t.register_hook(lambda g: calls.append("t") or None)
        t.retain_grads()
        p = t**3
        p.grad_fn.register_prehook(lambda grads: calls.append("pre") or [g * 3.0 for g in grads])
        p.grad_fn.register_hook(lambda ins, outs: calls.append("post") or None)
        (g,) = og.grad(og.sum(p), x, create_graph=True)
        (h,) = og.grad(og.sum(g), x)
        return {"g": g, "h": h, "t_grad": t.grad, "calls": calls}

    _compare(*paths(scenario))


def test_gradients_alias_nothing(paths) -> None:
    """Results and inputs share no memory, nor results one another, on the fast path and the
    general; a result may be the user's seed itself (as PyTorch's), the same on both."""

    def scenario():
        x, w = _x(seed=1), _x(seed=2)
        seed = og.tensor(np.linspace(-1.0, 1.0, 16))
        y = x * 1.0 + w  # add's gradients are the seed itself
        gx, gw = og.grad(y, [x, w], grad_outputs=seed)
        gx2, gw2 = og.grad(og.sum(x) + og.sum(w), [x, w])
        gx3, gw3 = og.grad(og.sum(x * w), [x, w], create_graph=True)
        results = [gx, gw, gx2, gw2, gx3, gw3]
        arrays = [x.numpy(), w.numpy()] + [g.numpy() for g in results]
        for i, a in enumerate(arrays):
            for b in arrays[i + 1 :]:
                assert not np.shares_memory(a, b)
        shared = [bool(np.shares_memory(g.numpy(), seed.numpy())) for g in results]
        return {"gx": gx, "gw": gw, "gx2": gx2, "gw2": gw2, "gx3": gx3, "gw3": gw3, "shared": shared}

    _compare(*paths(scenario))


def test_anomaly_mode_keeps_the_general_path(paths) -> None:
    def scenario():
        x = _x()
        with og.detect_anomaly():
            (g,) = og.grad(og.sum(og.tanh(x) ** 3), x, create_graph=True)
            (h,) = og.grad(og.sum(g), x)
        return {"g": g, "h": h}

    _compare(*paths(scenario, fast=False))


def test_other_leaves_keep_the_general_path(paths) -> None:
    """A leaf that is not an input (a parameter) is not on a path to an input: skipped,
    its .grad untouched, by the general path only."""

    def scenario():
        x, w = _x(seed=1), _x(seed=2)
        (g,) = og.grad(og.sum(og.tanh(x * w)), x)
        assert w.grad is None
        return {"g": g}

    _compare(*paths(scenario, fast=False))


def test_non_leaf_inputs_keep_the_general_path(paths) -> None:
    def scenario():
        x = _x()
        t = og.tanh(x)
        (g,) = og.grad(og.sum(t**3), t)
        return {"g": g}

    _compare(*paths(scenario, fast=False))


def test_only_inputs_false_and_no_grad_vars_keep_the_general_path(paths) -> None:
    def scenario():
        x, w = _x(seed=1), _x(seed=2)
        (a,) = og.grad(og.sum(og.tanh(x) * w), x, no_grad_vars=[w])
        (b,) = og.grad(og.sum(og.tanh(x * w)), x, only_inputs=False)
        return {"a": a, "b": b, "wgrad": w.grad}

    _compare(*paths(scenario, fast=False))


def test_third_derivative_matches_finite_differences() -> None:
    """d/dx sum(d/dx sum(d/dx sum(tanh(x)^3))) in float64: f'''' by central differences of f'''."""
    x0 = np.linspace(-1.2, 1.3, 7)

    def third(x):
        xt = og.tensor(x, requires_grad=True)
        (g1,) = og.grad(og.sum(og.tanh(xt) ** 3), xt, create_graph=True)
        (g2,) = og.grad(og.sum(g1), xt, create_graph=True)
        return xt, g2

    xt, g2 = third(x0)
    (g3,) = og.grad(og.sum(g2), xt)
    h = 1e-5
    fd = (third(x0 + h)[1].numpy() - third(x0 - h)[1].numpy()) / (2 * h)
    np.testing.assert_allclose(g3.numpy(), fd, rtol=1e-6, atol=1e-8)
    # and the second derivative against the first, as the benchmark computes it
    xt = og.tensor(x0, requires_grad=True)
    (g1,) = og.grad(og.sum(og.tanh(xt) ** 3), xt, create_graph=True)
    og.sum(g1).backward()

    def first(x):
        xt = og.tensor(x, requires_grad=True)
        return og.grad(og.sum(og.tanh(xt) ** 3), xt)[0].numpy()

    fd2 = (first(x0 + h) - first(x0 - h)) / (2 * h)
    np.testing.assert_allclose(xt.grad.numpy(), fd2, rtol=1e-6, atol=1e-8)


# --- the sum kernel over every axis ------------------------------------------------------


@pytest.mark.parametrize(
    "dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int8, np.int64, np.bool_]
)
@pytest.mark.parametrize("shape", [(1,), (1024,), (3, 4), (2, 3, 5), (4, 0)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_over_every_axis_is_np_sum(dtype, shape, keepdim) -> None:
    x = (RNG.standard_normal(shape) * 50).astype(dtype)
    axes = tuple(range(len(shape)))
    for a in (x, x[..., ::-1], np.asfortranarray(x)):
        want = np.asarray(np.sum(a, axis=axes, keepdims=keepdim))
        for axis in ((), None):
            _same(reduction.sum_(a, axis, keepdim), want)
    # the general path still serves lists, ints and 0-d arrays
    _same(reduction.sum_(x, [], keepdim), np.asarray(np.sum(x, axis=axes, keepdims=keepdim)))
    x0 = np.asarray(x.reshape(-1)[0] if x.size else x.dtype.type(0))
    _same(reduction.sum_(x0, (), keepdim), np.asarray(np.sum(x0, axis=(), keepdims=keepdim)))


# --- the tanh and pow grad kernels on float64/float32 with 0-d constants ----------------


def _specials(dtype, n=64):
    """Random values with infinities, NaN, signed zeros, tiny and huge ones."""
    a = RNG.uniform(-3.0, 3.0, n)
    a[:8] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-30, -1e30, 3e12]
    return RNG.permutation(a).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tanh_double_grad_constants_are_python_numbers_bit_for_bit(dtype) -> None:
    from opgrad.runtime.kernels.generic import elementwise as ew

    out, og_, xgg = (np.tanh(_specials(dtype)), _specials(dtype), _specials(dtype))
    with np.errstate(all="ignore"):
        want = (-2 * xgg * og_ * out, xgg * (1 - out * out))
        for needs in (None, (True, True), (True, False), (False, True)):
            got = ew.tanh_double_grad(out, og_, xgg, needs)
            for g, w, wanted in zip(got, want, needs or (True, True), strict=True):
                assert (g is None) is not wanted
                if wanted:
                    _same(g, w)
        # 0-d arrays stay arrays; mixed dtypes take the general path, with its promotions
        _same(
            ew.tanh_double_grad(out[0:1].reshape(()), og_[0:1].reshape(()), xgg[0:1].reshape(()))[1],
            np.asarray(xgg[0] * (1 - out[0] * out[0])),
        )
        mixed = ew.tanh_double_grad(out, og_.astype(np.float64), xgg)
        _same(mixed[0], -2 * xgg * og_.astype(np.float64) * out)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("y", [3, 3.0, np.float64(3.0), 2, 2.5])
def test_pow_grads_of_a_cube_are_python_numbers_bit_for_bit(dtype, y) -> None:
    from opgrad.runtime.kernels.generic import elementwise as ew

    x, og_, xgg = (_specials(dtype), _specials(dtype), _specials(dtype))
    with np.errstate(all="ignore"):
        want_grad = (og_ * (y * x ** (y - 1))).astype(dtype, copy=False)
        # the composite's steps (with a NumPy y, in its dtype, as before the fast path)
        want_x = xgg * og_ * (y * (y - 1)) * (x if y == 3 else ew.pow_(x, y - 2))
        want_og = xgg * y * ew.pow_(x, y - 1)
        _same(ew.pow_grad(x, og_, y), want_grad)
        got = ew.pow_double_grad(x, og_, xgg, y)
        _same(got[0], want_x)
        _same(got[1], want_og)
        assert ew.pow_double_grad(x, og_, xgg, y, (False, True))[0] is None
        assert ew.pow_double_grad(x, og_, xgg, y, (True, False))[1] is None


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int64])
@pytest.mark.parametrize("shape", [(1024,), (3, 4), (), (2, 0)])
def test_sum_grad_fill_of_a_0d_gradient_is_the_assignment(dtype, shape) -> None:
    specials = [np.nan, -0.0, np.inf, 1e-300, 2.5] if np.dtype(dtype).kind != "i" else [7, -3]
    for v in specials:
        g = np.asarray(v).astype(dtype)
        x = np.zeros(shape, dtype)
        want = np.empty(shape, dtype)
        want[...] = g
        for keepdim, axis in ((False, ()), (False, None), (False, [])):
            got = reduction.sum_grad(x, g, axis, keepdim)
            _same(got, want)
            assert got.tobytes() == want.tobytes()  # NaN payloads too
            assert got.flags.writeable and got.flags.owndata and not np.shares_memory(got, g)
    # a NaN with a payload keeps it
    payload = np.array([0x7FF8000000000123], dtype=np.uint64).view(np.float64).reshape(())
    got = reduction.sum_grad(np.zeros(5), payload, (), False)
    assert (got.view(np.uint64) == 0x7FF8000000000123).all()
    # another dtype of gradient takes the assignment's cast
    _same(
        reduction.sum_grad(np.zeros(4), np.asarray(1.1, np.float32), (), False),
        np.full(4, np.float32(1.1), np.float64),
    )


class _Sink(GradNode):
    """A node none of whose inputs needs a gradient: a path from the outputs ends here."""

    __slots__ = ("log",)
    name = "sink_grad"

    def apply(self, grads, create_graph):
        self.log.append("ran")
        return tuple(None for _ in self._next)


def test_a_sink_that_is_not_an_input_keeps_the_general_path(paths) -> None:
    def scenario():
        log: list = []
        x = _x()
        node = _Sink([og.tensor(np.ones(16))])
        node.log = log
        out = wrap(np.ones(16))
        set_history(out, node, 0)
        (g,) = og.grad(og.sum(out) + og.sum(og.tanh(x)), x)
        return {"g": g, "log": log}  # the sink is not on a path to x: it never runs

    fast, general = paths(scenario, fast=False)
    _compare(fast, general)
    assert general["log"] == []


def test_double_grad_kernels_fresh_results_and_broadcast_shapes() -> None:
    from opgrad.runtime.kernels.generic import elementwise as ew

    out, og_, xgg = (
        np.tanh(RNG.standard_normal((4, 3))),
        RNG.standard_normal((4, 3)),
        RNG.standard_normal((4, 3)),
    )
    for got in (
        ew.tanh_double_grad(out, og_, xgg),
        ew.pow_double_grad(out, og_, xgg, 3),
        (ew.pow_grad(out, og_, 3),),
    ):
        for r in got:
            assert r.flags.owndata and r.flags.writeable
            assert not any(np.shares_memory(r, a) for a in (out, og_, xgg))
    # shapes that broadcast take the general path (the results' arrays are not any input's shape)
    col = out[:, :1].copy()
    _same(ew.tanh_double_grad(col, og_, xgg)[0], -2 * xgg * og_ * col)
    _same(ew.pow_double_grad(col, og_, xgg, 3)[1], xgg * 3 * ew.pow_(col, 2))
    _same(ew.pow_grad(col, og_[:, :1].copy(), 3.0), og_[:, :1] * (3.0 * col**2.0))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex128])
def test_seed_of_ones_is_fresh_and_writeable(dtype) -> None:
    """A 0-d float loss's seed is a copy of the read-only 1 in ONES: what empty + fill gave."""
    from opgrad.runtime.kernels.common import ONES

    x = og.tensor(np.linspace(-1.0, 1.0, 4).astype(dtype), requires_grad=True)
    y = og.sum(x * 2.0)
    if np.dtype(dtype).kind == "c":
        with pytest.raises(RuntimeError, match="complex"):
            og.grad(y, y)
        return
    (a,) = og.grad(y, y, retain_graph=True)
    (b,) = og.grad(y, y)
    for s in (a.numpy(), b.numpy()):
        want = np.empty((), dtype)
        want.fill(1)
        _same(s, want)
        assert s.flags.writeable and s.flags.owndata
        assert not np.shares_memory(s, ONES[np.dtype(dtype)])
    assert not np.shares_memory(a.numpy(), b.numpy())
    # a leaf that is its own output: x.grad gets a fresh 1 too
    z = og.tensor(np.asarray(3.0, dtype), requires_grad=True)
    z.backward()
    assert z.grad.numpy().flags.writeable and z.grad.numpy() == 1
