"""Forward mode's kernel path reading the previous kernel path's array itself
(codegen/templates/jvp.py.jinja2: `_dual[1]` when it is a `KERNEL_TANGENT` at the open level,
else `plain_tangent`) and writing its output's pair itself (what `set_output_tangent` does),
and tanh_grad's kernel calling its three ufuncs directly on two real NumPy arrays.

Every kernel-path rule is run on inputs whose tangents are a kernel path's arrays (the
output of `abs`, itself a kernel path) and must give, bit for bit, the tangents of the
general path (the same chain with a tangent that requires grad), without calling
`plain_tangent` for those inputs. Then the inputs the inline read must hand to
`plain_tangent`: another level's array, an ndarray subclass, a Tensor tangent.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_fast_paths_jvp import KERNEL_PATHS, _cases
from test_ops import _as_list, _grad_setup

import opgrad as og
from op_samples import OPS
from opgrad.autograd import forward_ad as fw
from opgrad.generated import jvp as generated_jvp
from opgrad.runtime import dual
from opgrad.runtime.dual import FORWARD, KERNEL_TANGENT, set_output_tangent, tangent_of
from opgrad.runtime.kernels.generic import elementwise


def test_the_kernel_path_class_is_numpys_array_and_abs_has_a_kernel_path():
    assert KERNEL_TANGENT is np.ndarray
    assert KERNEL_PATHS["abs"] == "abs_grad"  # the chains below start with it


def _counting(calls: list[Any]) -> Any:
    """plain_tangent, noting each call in `calls` (patched into the generated rules)."""
    original = dual.plain_tangent

    def counted(t: Any) -> Any:
        calls.append(t)
        return original(t)

    return counted


def _chain_tangents(
    name: str, sample: Any, dtype: Any, general: bool, monkeypatch: Any
) -> tuple[list[Any], int]:
    """The op's output tangents on `abs` of every float input made dual (random tangents,
    seeded), and how many times the op's rule called plain_tangent. `general`: the tangents
    require grad (every rule then takes its general path)."""
    fn, leaves = _grad_setup(OPS[name], sample, dtype)
    rng = np.random.default_rng(0)
    xs = [x.numpy().copy() for x in leaves]
    vs = [rng.standard_normal(x.shape).astype(x.dtype) for x in xs]
    calls: list[Any] = []
    counted = _counting(calls)
    with fw.dual_level():
        pairs = zip(xs, vs, strict=True)
        duals = [fw.make_dual(og.tensor(x), og.tensor(v, requires_grad=general)) for x, v in pairs]
        inputs = [og.abs(d) for d in duals]  # kernel paths: their tangents are arrays (not general)
        if not general:
            assert all(i._dual[1].__class__ is np.ndarray for i in inputs)
        monkeypatch.setattr(generated_jvp, "plain_tangent", counted)
        outs = [o for o in _as_list(fn(*inputs)) if isinstance(o, og.Tensor)]
        monkeypatch.undo()
        found = [fw.unpack_dual(o).tangent for o in outs]
    return [None if t is None else (t.requires_grad, t.numpy().copy()) for t in found], len(calls)


@pytest.mark.parametrize("name, sample, dtype", _cases())
def test_a_kernel_path_on_kernel_path_arrays_gives_the_general_paths_tangents_bit_for_bit(
    name, sample, dtype, monkeypatch
):
    fast, fast_calls = _chain_tangents(name, sample, dtype, False, monkeypatch)
    general, _ = _chain_tangents(name, sample, dtype, True, monkeypatch)
    assert fast_calls == 0, f"{name}: the array was not read inline ({fast_calls} plain_tangent calls)"
    assert any(f is not None for f in fast), f"{name}: no tangent"
    # the same outputs with a tangent, recorded only on the general path, the same bits
    assert [f is None or not f[0] for f in fast] == [True] * len(fast)
    assert [g is None or g[0] for g in general] == [True] * len(general)
    described = [
        [None if t is None else (t[1].dtype, t[1].shape, t[1].tobytes()) for t in ts]
        for ts in (fast, general)
    ]
    assert described[0] == described[1], f"{name}: tangents differ"


def _expected_chain(x0: np.ndarray, v0: np.ndarray, n: int) -> np.ndarray:
    x, v = x0, v0
    for _ in range(n):
        x = np.tanh(x)
        v = v * (1 - x * x)
    return v


def test_a_tanh_chain_stores_arrays_at_the_level_and_matches_the_formula_bit_for_bit():
    x0, v0 = np.linspace(-1.0, 1.0, 16), np.linspace(0.5, 1.5, 16)
    with fw.dual_level():
        h = fw.make_dual(og.tensor(x0), og.tensor(v0))
        for _ in range(50):
            h = og.tanh(h)
            assert h._dual[0] == FORWARD.level and h._dual[1].__class__ is np.ndarray
        t = fw.unpack_dual(h).tangent
    assert t.numpy().tobytes() == _expected_chain(x0, v0, 50).tobytes()


def test_another_levels_array_is_no_tangent_and_is_dropped_as_before():
    with fw.dual_level():
        y = og.tanh(fw.make_dual(og.tensor(np.array([0.5, 1.0])), og.tensor(np.array([1.0, 1.0]))))
    assert y._dual is not None and y._dual[1].__class__ is np.ndarray  # stale, not read yet
    with fw.dual_level():
        z = og.tanh(y)  # the inline read sees another level: plain_tangent, then the general path
        assert fw.unpack_dual(z).tangent is None
        assert y._dual is None  # the general path's read dropped it, as before


class _Sub(np.ndarray):
    pass


def test_an_ndarray_subclass_tangent_goes_through_plain_tangent_with_the_same_bits(monkeypatch):
    x0, v0 = np.array([0.25, -0.5, 0.75]), np.array([1.0, 2.0, -3.0])
    calls: list[Any] = []
    counted = _counting(calls)
    with fw.dual_level():
        x = og.tensor(x0)
        set_output_tangent(x, v0.view(_Sub))
        monkeypatch.setattr(generated_jvp, "plain_tangent", counted)
        y = og.tanh(x)
        monkeypatch.undo()
        t = tangent_of(y)
    assert len(calls) == 1  # not KERNEL_TANGENT itself: read by plain_tangent
    expected = v0 * (1 - np.tanh(x0) * np.tanh(x0))
    assert t is not None and np.asarray(t.numpy()).tobytes() == expected.tobytes()


def test_a_tensor_tangent_is_read_by_plain_tangent_and_one_that_requires_grad_is_recorded():
    with fw.dual_level():
        v = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
        y = og.tanh(fw.make_dual(og.tensor(np.array([0.5, 1.0])), v))
        t = tangent_of(y)
        assert t.requires_grad and t.grad_fn is not None  # the general path
        w = og.tanh(fw.make_dual(og.tensor(np.array([0.5, 1.0])), og.tensor(np.array([1.0, 2.0]))))
        assert w._dual[1].__class__ is np.ndarray  # a plain Tensor tangent: the kernel path
        np.testing.assert_array_equal(tangent_of(w).numpy(), t.detach().numpy())


# -- tanh_grad's ufunc line against its general line ----------------------------------------------
def _general_tanh_grad(out: Any, out_grad: Any) -> Any:
    """The kernel's general line: the operators (what it was before the ufunc line)."""
    one = elementwise.ONES.get(out.dtype) if out.__class__ is np.ndarray else None
    r = out_grad * (one - out * out) if one is not None else out_grad * elementwise._conj(1 - out * out)
    return r if r.__class__ is np.ndarray else np.asarray(r)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("grad_dtype", [np.float16, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(), (7,), (2, 3)])
def test_tanh_grad_ufunc_line_is_bit_for_bit_the_operators(dtype, grad_dtype, shape):
    rng = np.random.default_rng(5)
    with np.errstate(all="ignore"):
        out = np.tanh(rng.standard_normal(shape) * 2).astype(dtype)
        g = (rng.standard_normal(shape) * 3).astype(grad_dtype)
        new, old = elementwise.tanh_grad(out, g), _general_tanh_grad(out, g)
    assert new.__class__ is np.ndarray and new.dtype == old.dtype and new.shape == old.shape
    assert new.tobytes() == old.tobytes()


def test_tanh_grad_with_other_operands_takes_the_general_line():
    out = np.tanh(np.linspace(-1.0, 1.0, 5))
    for out_grad in (2.5, np.float64(2.5), np.array(2.5), np.linspace(1, 2, 5).view(_Sub)):
        new, old = elementwise.tanh_grad(out, out_grad), _general_tanh_grad(out, out_grad)
        assert isinstance(new, np.ndarray) and new.dtype == old.dtype
        assert np.asarray(new).tobytes() == np.asarray(old).tobytes()
    sub = out.view(_Sub)  # out not NumPy's class itself: ONES unused, the Python 1
    assert np.asarray(elementwise.tanh_grad(sub, out)).tobytes() == (out * (1 - out * out)).tobytes()


def test_tanh_grad_finds_float64s_one_by_identity_and_other_byte_orders_by_the_general_line():
    out = np.tanh(np.linspace(-1.0, 1.0, 6))
    g = np.linspace(0.5, 3.0, 6)
    assert out.dtype is np.dtype(np.float64)  # NumPy's float64 dtype is one object
    swapped = out.astype(out.dtype.newbyteorder())  # '>f8' here: not ONES's float64
    for a, b in ((out, g), (swapped, g), (out, g.astype(g.dtype.newbyteorder())), (swapped, swapped)):
        new, old = elementwise.tanh_grad(a, b), _general_tanh_grad(a, b)
        assert new.dtype == old.dtype and new.tobytes() == old.tobytes()
        assert np.array_equal(new, b * (1 - a * a))
