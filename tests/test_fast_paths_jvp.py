"""Forward mode's kernel path (codegen/plan_jvp.py `kernel_path`, runtime/dual.py
`set_output_tangent`) against the general path, and the cases that must not take it.

A rule whose `jvp:` is one grad op's call (`tanh_grad(out, x_t)`) calls that grad op's kernel
directly when nothing is recorded. For every such rule (found in the generator's plan, so a
new op is covered as soon as it has samples in tests/op_samples*.py) the tangents must equal,
bit for bit, those of the general path (forced by a tangent that requires grad: the same
rule through the grad op, between pause_rules and resume_rules). Then the cases that take
the general path: a tangent or primal that requires grad (forward-over-reverse and
reverse-over-forward, against central differences in float64), complex tensors, in-place ops
and views of duals, nested levels; the lazy clean-up of kernel-path tangents; and the
tanh_grad kernel's 0-d ones (`ONES`) against the Python-number formula.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from finite_differences import central
from test_ops import _as_list, _grad_setup, _gradcheck_case

import opgrad as og
from op_samples import OPS
from opgrad.autograd import forward_ad as fw
from opgrad.codegen import load_spec
from opgrad.codegen.plan import build_plan
from opgrad.generated import grad_ops
from opgrad.runtime.dual import FORWARD, plain_tangent, set_tangent, tangent_of
from opgrad.runtime.kernels.common import ONES
from opgrad.runtime.kernels.generic import elementwise

ROOT = Path(__file__).resolve().parents[1]
_PLAN = build_plan(load_spec(ROOT))
# rule name -> the grad op its kernel path calls, from the plan (no hand list)
KERNEL_PATHS: dict[str, str] = {
    r.name: r.fast.kernel.op
    for m in _PLAN.modules
    for r in m.rules
    if r.fast is not None  # type: ignore[union-attr]
}
SAMPLES_PER_OP = 3


def test_the_plan_gives_kernel_paths_to_grad_op_rules_only():
    assert {"tanh", "sigmoid", "relu", "gelu", "softplus", "pow", "clip"} <= set(KERNEL_PATHS)
    assert KERNEL_PATHS["tanh"] == "tanh_grad" and KERNEL_PATHS["gelu"] == "gelu_grad"
    # arithmetic (`x_t * out`), an op (`cast(x_t, dtype)`), several tensors: the general path only
    for name in ("exp", "sin", "cast", "multiply", "add", "matmul", "tanh_grad"):
        assert name not in KERNEL_PATHS, name
    rules = {r.name: r for m in _PLAN.modules for r in m.rules}
    fast = rules["tanh"].fast
    assert fast.tensor == "x" and fast.untracked == ("out",) and fast.real == "out" and fast.output == "out"
    assert fast.kernel.args == ("out._data", fast.array) and fast.kernel.target == "out_t"
    assert not fast.kernel.wrap  # the array is kept (set_output_tangent)
    assert rules["relu"].fast.real is None  # no complex branch in relu's rule
    # dropout's grad op reads the mask, not the output: the output is checked too
    assert rules["dropout"].fast.untracked == ("mask", "out")


@pytest.mark.parametrize("name", sorted(KERNEL_PATHS))
def test_every_kernel_path_rule_has_samples(name):
    info = OPS.get(name)
    assert info is not None, f"{name}'s rule has a kernel path: add samples for it to tests/op_samples*.py"
    assert [s for s in info.sample_list() if _gradcheck_case(info, s)], f"{name}: no gradient sample"


def _cases() -> list[Any]:
    params = []
    for name in sorted(KERNEL_PATHS):
        info = OPS.get(name)
        if info is None:
            continue  # test_every_kernel_path_rule_has_samples names it
        kept = [s for s in info.sample_list() if _gradcheck_case(info, s)][:SAMPLES_PER_OP]
        for i, s in enumerate(kept):
            for dtype in (np.float64, np.float32):
                params.append(pytest.param(name, s, dtype, id=f"{name}-{i}-{np.dtype(dtype).name}"))
    return params


def _tangents(name: str, sample: Any, dtype: Any, general: bool, monkeypatch: Any) -> list[Any]:
    """The op's output tangents with every float input dual (random tangents, seeded), and
    how many times the grad op was called. `general`: the tangents require grad."""
    info = OPS[name]
    fn, leaves = _grad_setup(info, sample, dtype)
    rng = np.random.default_rng(0)
    xs = [x.numpy().copy() for x in leaves]
    vs = [rng.standard_normal(x.shape).astype(x.dtype) for x in xs]
    grad_op = KERNEL_PATHS[name]
    original = getattr(grad_ops, grad_op)
    calls = []

    def counted(*args: Any) -> Any:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(grad_ops, grad_op, counted)
    with fw.dual_level():
        pairs = zip(xs, vs, strict=True)
        duals = [fw.make_dual(og.tensor(x), og.tensor(v, requires_grad=general)) for x, v in pairs]
        outs = [o for o in _as_list(fn(*duals)) if isinstance(o, og.Tensor)]
        found = [fw.unpack_dual(o).tangent for o in outs]
    monkeypatch.undo()
    return [None if t is None else (t.requires_grad, t.numpy().copy()) for t in found] + [len(calls)]


@pytest.mark.parametrize("name, sample, dtype", _cases())
def test_the_kernel_path_gives_the_general_paths_tangents_bit_for_bit(name, sample, dtype, monkeypatch):
    *fast, fast_calls = _tangents(name, sample, dtype, False, monkeypatch)
    *general, general_calls = _tangents(name, sample, dtype, True, monkeypatch)
    assert fast_calls == 0, f"{name}: the kernel path was not taken ({KERNEL_PATHS[name]} called)"
    assert general_calls >= 1, f"{name}: a tangent that requires grad must go through the grad op"
    assert any(f is not None for f in fast), f"{name}: no tangent"
    for f, g in zip(fast, general, strict=True):
        assert (f is None) == (g is None)
        if f is None:
            continue
        (f_grad, f_arr), (g_grad, g_arr) = f, g
        assert not f_grad and g_grad  # only the general path's tangent is recorded
        assert f_arr.dtype == g_arr.dtype and f_arr.shape == g_arr.shape, (f_arr.dtype, g_arr.dtype)
        assert f_arr.tobytes() == g_arr.tobytes(), f"{name}: tangents differ\n{f_arr}\n{g_arr}"


def _dual_chain(x: og.Tensor, v: og.Tensor) -> tuple[og.Tensor, og.Tensor]:
    with fw.dual_level():
        y = og.sigmoid(og.tanh(fw.make_dual(x, v)) * 1.5)
        primal, tangent = fw.unpack_dual(y)
    return primal, tangent


def test_a_tangent_that_requires_grad_is_recorded_through_the_grad_op():
    x = og.tensor(np.linspace(-1.0, 1.0, 5))
    v = og.tensor(np.linspace(0.5, 2.0, 5), requires_grad=True)
    _, tangent = _dual_chain(x, v)
    assert tangent.requires_grad and tangent.grad_fn is not None
    (g,) = og.grad(og.sum(tangent), [v])  # the tangent is linear in v: its gradient is J^T 1
    t = np.tanh(x.numpy())
    s = 1 / (1 + np.exp(-1.5 * t))
    np.testing.assert_allclose(g.numpy(), s * (1 - s) * 1.5 * (1 - t * t), rtol=1e-12)
    _, plain = _dual_chain(x, v.detach())  # the kernel path: not recorded, the same values
    assert not plain.requires_grad
    np.testing.assert_array_equal(plain.numpy(), tangent.detach().numpy())


def _loss(x: og.Tensor) -> og.Tensor:
    return og.sum(og.softplus(og.tanh(x) * og.gelu(x)) + og.sigmoid(x) ** 3)


def test_forward_over_reverse_hvp_matches_central_differences():
    """H v by a forward pass through the backward (x requires grad: general paths) against
    (grad(x + e v) - grad(x - e v)) / 2e, in float64."""
    rng = np.random.default_rng(1)
    x0, v0 = rng.standard_normal(6), rng.standard_normal(6)

    def grad_at(a: np.ndarray) -> np.ndarray:
        x = og.tensor(a, requires_grad=True)
        (g,) = og.grad(_loss(x), [x])
        return g.numpy()

    with fw.dual_level():
        x = og.tensor(x0, requires_grad=True)
        dual = fw.make_dual(x, og.tensor(v0))
        (g,) = og.grad(_loss(dual), [dual], create_graph=True)
        hv = fw.unpack_dual(g).tangent
    assert hv is not None
    e = 1e-6
    expected = (grad_at(x0 + e * v0) - grad_at(x0 - e * v0)) / (2 * e)
    np.testing.assert_allclose(hv.numpy(), expected, rtol=1e-6, atol=1e-8)


def test_reverse_over_forward_differentiates_the_tangent_in_the_primal():
    """The primal requires grad, so out does: the general path records the tangent, and its
    gradient in x matches central differences of the tangent in float64."""
    rng = np.random.default_rng(2)
    x0, v0 = rng.standard_normal(5), rng.standard_normal(5)

    def tangent_sum(a: np.ndarray) -> float:
        with fw.dual_level():
            y = og.gelu(og.tanh(fw.make_dual(og.tensor(a), og.tensor(v0))))
            return float(fw.unpack_dual(y).tangent.numpy().sum())

    x = og.tensor(x0, requires_grad=True)
    with fw.dual_level():
        t = fw.unpack_dual(og.gelu(og.tanh(fw.make_dual(x, og.tensor(v0))))).tangent
        assert t.requires_grad
        (g,) = og.grad(og.sum(t), [x])
    fd = central(tangent_sum, x0)
    np.testing.assert_allclose(g.numpy(), fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_tangents_take_the_complex_branch(dtype, monkeypatch):
    """tanh's rule is `x_t * (1 - out * out) if is_complex(out) else tanh_grad(out, x_t)`:
    a complex output never reaches the kernel path (tanh_grad's kernel would conjugate)."""
    monkeypatch.setattr(grad_ops, "tanh_grad", None)  # called: a TypeError
    x = np.array([0.3 + 0.2j, -0.5 + 1.0j], dtype=dtype)
    v = np.array([1.0 - 0.5j, 0.25 + 2.0j], dtype=dtype)
    with fw.dual_level():
        y = og.tanh(fw.make_dual(og.tensor(x), og.tensor(v)))
        t = fw.unpack_dual(y).tangent.numpy()
    o = np.tanh(x)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t, v * (1 - o * o))


def test_in_place_on_a_dual_writes_the_kernel_paths_tangent_into_the_old_one():
    x0 = np.linspace(-1.0, 1.0, 4)
    v = og.tensor(np.array([1.0, 2.0, 3.0, 4.0]))
    with fw.dual_level():
        expected = fw.unpack_dual(og.tanh(fw.make_dual(og.tensor(x0), og.tensor(v.numpy().copy())))).tangent
        x = fw.make_dual(og.tensor(x0.copy()), v)
        part = x[1:3]  # a view: its tangent is the same view of x's tangent
        x.tanh_()
        t = fw.unpack_dual(x).tangent
        assert t is v  # written in the old tangent's memory
        assert t.numpy().tobytes() == expected.numpy().tobytes()
        np.testing.assert_array_equal(fw.unpack_dual(part).tangent.numpy(), expected.numpy()[1:3])


def test_views_of_a_kernel_path_output_share_its_tangent():
    with fw.dual_level():
        y = og.tanh(fw.make_dual(og.tensor(np.linspace(-1.0, 1.0, 6)), og.tensor(np.ones(6))))
        ty = fw.unpack_dual(y).tangent
        before = ty.numpy().copy()
        z = og.reshape(y, [2, 3])
        tz = fw.unpack_dual(z).tangent
        assert np.shares_memory(tz.numpy(), ty.numpy())
        z.multiply_(2.0)  # the view's tangent doubles, and so does y's (the same memory)
        np.testing.assert_array_equal(fw.unpack_dual(y).tangent.numpy(), 2 * before)
        np.testing.assert_array_equal(fw.unpack_dual(z).tangent.numpy().ravel(), 2 * before)


def test_a_nested_level_is_refused_and_the_outer_one_goes_on():
    with fw.dual_level():
        y = og.tanh(fw.make_dual(og.tensor(np.array([0.5])), og.tensor(np.array([1.0]))))
        with pytest.raises(RuntimeError, match="nested forward mode"), fw.dual_level():
            pass
        z = og.tanh(y)
        t = fw.unpack_dual(z).tangent.numpy()
    o1 = np.tanh(0.5)
    o2 = np.tanh(o1)
    np.testing.assert_allclose(t, [(1 - o1 * o1) * (1 - o2 * o2)], rtol=1e-15)
    assert not FORWARD.active and FORWARD.level == 0


def test_a_kernel_path_keeps_the_array_and_a_read_wraps_it_once():
    with fw.dual_level():
        v = og.tensor(np.array([1.0, 2.0]))
        x = fw.make_dual(og.tensor(np.array([0.5, 1.0])), v)
        assert plain_tangent(x) is v._data
        y = og.tanh(og.tanh(x))  # the second tanh reads the first one's array as it is
        assert y._dual[1].__class__ is np.ndarray
        assert plain_tangent(y) is y._dual[1]
        t = tangent_of(y)
        assert isinstance(t, og.Tensor) and not t.requires_grad
        assert fw.unpack_dual(y).tangent is t and tangent_of(y) is t  # the same Tensor from now on
        assert plain_tangent(y) is t._data
        recorded = fw.make_dual(og.tensor(np.array([0.5])), og.tensor(np.array([1.0]), requires_grad=True))
        assert plain_tangent(recorded) is None  # a tangent that requires grad: the general path
        assert plain_tangent(og.tensor(np.array([0.5]))) is None  # no tangent
    assert plain_tangent(x) is None  # the level closed


def test_a_kernel_path_tangent_is_invisible_after_its_level_and_freed_when_read():
    """set_output_tangent does not list the output for the level's clean-up: the tangent
    names its level, so it is gone for every reader once the level closes, and the first
    read drops it (its memory freed then, or with the output)."""
    with fw.dual_level():
        y = og.tanh(fw.make_dual(og.tensor(np.array([0.5, 1.0])), og.tensor(np.array([1.0, 1.0]))))
        kept = weakref.ref(fw.unpack_dual(y).tangent)
        assert y._dual is not None and all(r() is not y for r in FORWARD.set)
    assert tangent_of(y) is None
    assert y._dual is None  # the read dropped it
    gc.collect()
    assert kept() is None
    with fw.dual_level():
        assert fw.unpack_dual(y).tangent is None
        z = og.tanh(y)  # y has no tangent at this level: no rule output
        assert fw.unpack_dual(z).tangent is None
        w = og.tanh(fw.make_dual(og.tensor(np.array([0.1])), og.tensor(np.array([1.0]))))
    with fw.dual_level():
        assert w._dual is not None  # the closed level's tangent, not read since
        new = og.tensor(np.array([3.0]))
        set_tangent(w, new)  # a stale pair does not keep w off this level's list
        assert tangent_of(w) is new
    assert w._dual is None  # listed, so cleared when the level closed


# -- the tanh_grad kernel's 0-d one -------------------------------------------------------------
def _old_tanh_grad(out: np.ndarray, out_grad: np.ndarray) -> Any:
    """tanh_grad as it was before ONES: a Python 1."""
    r = out_grad * elementwise._conj(1 - out * out)
    return r if r.__class__ is np.ndarray else np.asarray(r)


_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 5e-324, 1e-8, np.nan, np.inf, -np.inf, 0.9999999, 3.0]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(), (13,), (3, 5)])
def test_tanh_grad_kernel_with_a_0d_one_is_bit_for_bit_the_python_number_formula(dtype, shape):
    rng = np.random.default_rng(3)
    with np.errstate(all="ignore"):
        n = int(np.prod(shape))
        vals = np.concatenate([np.array(_SPECIAL), rng.standard_normal(n) * 2])[:n] if n else np.array(0.7)
        out = np.asarray(vals).astype(dtype).reshape(shape)
        if np.dtype(dtype).kind == "c":
            out = out + 1j * out[::-1] if shape else out + 0.25j
        g = rng.standard_normal(shape).astype(dtype)
        others = (np.complex128, np.complex64) if np.dtype(dtype).kind == "c" else (np.float64, np.float32)
        for out_grad in (g, *(g.astype(o) for o in others)):
            new, old = elementwise.tanh_grad(out, out_grad), _old_tanh_grad(out, out_grad)
            assert isinstance(new, np.ndarray) and new.dtype == old.dtype and new.shape == old.shape
            assert new.tobytes() == old.tobytes(), (dtype, shape, new, old)
        strided = np.repeat(out, 2)[::2] if shape else out  # a non-contiguous array
        assert elementwise.tanh_grad(strided, strided).tobytes() == _old_tanh_grad(strided, strided).tobytes()


def test_the_0d_ones_are_read_only_and_real():
    for dtype, one in ONES.items():
        assert dtype.kind == "f" and one.shape == () and one == 1 and one.dtype == dtype
        with pytest.raises(ValueError):
            one[...] = 2
