"""The direct write of in-place ops (`inplace_into: true`, runtime/inplace.py `write_into`).

Driven by ops.yaml: every op with `inplace:` needs samples in `SAMPLES` here, and an op has
`inplace_into:` exactly when its kernel has an into variant (kernels/registry.py). For each
sample and dtype, the in-place op with the into variants switched off (the general path:
compute a new array, copy it in) and with them on must agree bit for bit, in value, dtype,
version and memory, or raise the same error with x untouched. The autograd cases (a
recorded node, forward mode) must not take the direct write at all.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from finite_differences import central
from test_codegen_validation import BACKWARD, OPS, _with, assert_error, errors, line_of, write_spec

import opgrad as og
from opgrad.autograd import forward_ad as fw
from opgrad.codegen import generate, load_spec
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import LEAF_SEQ, GradNode
from opgrad.runtime.kernels import common, registry
from opgrad.runtime.kernels.common import separate, ufunc_into
from opgrad.runtime.kernels.generic import nn as nn_kernels

ROOT = Path(__file__).resolve().parents[1]
SPEC_INPLACE = [op for op in load_spec(ROOT).ops if op.inplace is not None]
INPLACE_OPS = [op.name for op in SPEC_INPLACE]
INTO_OPS = [op.name for op in SPEC_INPLACE if op.inplace_into]
RNG = np.random.default_rng(11)

# op -> argument lists after x; arrays become tensors, numbers stay numbers. Each list is
# tried with x of every dtype in DTYPES (and, where it broadcasts, of a 0-d x).
SAMPLES: dict[str, list[tuple[Any, ...]]] = {
    "add": [
        (RNG.standard_normal((3, 4)),),
        (RNG.standard_normal(4),),
        (2.5,),
        (3,),
        (RNG.standard_normal((2, 3, 4)),),
    ],
    "subtract": [(RNG.standard_normal((3, 4)),), (RNG.standard_normal((1, 4)),), (-1.0,), (True,)],
    "multiply": [(RNG.standard_normal((3, 4)),), (RNG.standard_normal(4),), (3.0,), (np.array(2 + 1j),)],
    "divide": [(RNG.uniform(0.5, 2.0, (3, 4)),), (4.0,), (0.0,), (2,)],
    "scale": [(2.0, 0.5), (-1.5, 0.0)],
    "clip": [(-0.45, 0.45), (None, 0.2), (-0.2, None), (None, None), (1, 2)],
    "relu": [()],
    "tanh": [()],
    "sigmoid": [()],
    "exp": [()],
    "fill": [(1.5,), (-3,), (True,), (2 + 1j,)],
    "zero": [()],
    "index_put": [([og.tensor(np.array([0, 2]))], RNG.standard_normal(4))],
}
DTYPES = [np.float32, np.float64, np.float16, np.int64, np.uint8, np.bool_, np.complex128]


def _x(dtype: Any, shape: tuple[int, ...] = (3, 4)) -> np.ndarray:
    v = RNG.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        v = v + 1j * RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "u":
        v = np.abs(v)
    return v.astype(dtype)


def _args(extras: tuple[Any, ...], dtype: Any) -> list[Any]:
    out = []
    for e in extras:
        if isinstance(e, np.ndarray) and e.dtype.kind == "f":
            out.append(og.tensor(e.astype(dtype if np.dtype(dtype).kind in "fc" else np.float64)))
        elif isinstance(e, np.ndarray):
            out.append(og.tensor(e))
        else:
            out.append(e)
    return out


@contextlib.contextmanager
def general_path() -> Iterator[None]:
    """The in-place ops as before the direct write: no kernel has an into variant."""
    saved = dict(registry._INTO)
    registry._INTO.clear()
    try:
        yield
    finally:
        registry._INTO.update(saved)


@contextlib.contextmanager
def counted() -> Iterator[list[bool]]:
    """Every into variant wrapped to record what it returned (True: it wrote)."""
    saved = dict(registry._INTO)
    calls: list[bool] = []

    def wrapper(fn: Any) -> Any:
        def into(*a: Any) -> bool:
            done = fn(*a)
            calls.append(bool(done))
            return done

        return into

    registry._INTO.update({k: wrapper(fn) for k, fn in saved.items()})
    try:
        yield calls
    finally:
        registry._INTO.clear()
        registry._INTO.update(saved)


def _run(name: str, x: og.Tensor, args: list[Any]) -> tuple[str, Any]:
    try:
        r = getattr(og, name + "_")(x, *args)
    except Exception as e:  # noqa: BLE001 - compared between the two paths
        return "error", (type(e), str(e))
    assert r is x
    return "ok", None


def _case(name: str, extras: tuple[Any, ...], dtype: Any, shape: tuple[int, ...]) -> tuple[bool, list[bool]]:
    """Run op_ both ways on equal inputs and compare everything; True when it wrote."""
    base = _x(dtype, shape)
    args = _args(extras, dtype)
    x_old = og.tensor(base.copy())
    x_new = og.tensor(base.copy())
    memory = x_new._data.__array_interface__["data"][0]
    before = x_new._data.tobytes()
    with np.errstate(all="ignore"):
        with general_path():
            got_old = _run(name, x_old, args)
        with counted() as calls:
            got_new = _run(name, x_new, args)
    assert got_new == got_old, (name, extras, dtype, shape)
    assert x_new._data.dtype == x_old._data.dtype and x_new.shape == x_old.shape
    assert x_new._data.tobytes() == x_old._data.tobytes(), (name, extras, dtype)  # bit for bit
    assert x_new._version == x_old._version == (1 if got_old[0] == "ok" else 0)
    assert x_new._data.__array_interface__["data"][0] == memory
    if got_old[0] == "error":
        assert x_new._data.tobytes() == before  # nothing written before the error
    return got_old[0] == "ok", calls


def test_every_inplace_op_has_samples() -> None:
    missing = [n for n in INPLACE_OPS if n not in SAMPLES]
    assert not missing, f"add samples for {missing} to SAMPLES in tests/test_fast_paths_sgd.py"


@pytest.mark.parametrize("name", INPLACE_OPS)
def test_inplace_into_key_matches_the_kernel(name: str) -> None:
    """`inplace_into: true` in ops.yaml exactly when the cpu kernel has an into variant."""
    op = next(o for o in SPEC_INPLACE if o.name == name)
    has = registry.into_of(registry.lookup(op.kernel, "cpu")) is not None
    assert has == op.inplace_into, (
        f"{name}: the kernel {'has' if has else 'has no'} into variant but ops.yaml says "
        f"inplace_into: {op.inplace_into}; make them agree (ops.yaml, kernels/registry.py register_into)"
    )


@pytest.mark.parametrize("name", INPLACE_OPS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_direct_write_equals_compute_then_copy(name: str, dtype: Any) -> None:
    wrote_direct = False
    for extras in SAMPLES[name]:
        for shape in [(3, 4), ()] if not any(isinstance(e, np.ndarray) for e in extras) else [(3, 4)]:
            ok, calls = _case(name, extras, dtype, shape)
            assert not (calls and calls[-1] and not ok)  # never writes where the general path refuses
            wrote_direct |= ok and bool(calls) and calls[-1]
            if name not in INTO_OPS:
                assert not calls
    if name in INTO_OPS and np.dtype(dtype).kind == "f":
        assert wrote_direct, f"{name}_ on {np.dtype(dtype).name} never took the direct write"


@pytest.mark.parametrize("name", INTO_OPS)
def test_the_direct_write_is_taken_for_float32(name: str) -> None:
    x = og.tensor(_x(np.float32))
    with counted() as calls:
        getattr(x, name + "_")(*_args(SAMPLES[name][0], np.float32))
    assert calls == [True]


def test_broadcast_shape_change_is_refused_before_anything_is_written() -> None:
    x = og.tensor(np.arange(3.0))
    with counted() as calls, pytest.raises(ValueError, match=r"add_: the result has shape \(2, 3\)"):
        x.add_(og.tensor(np.ones((2, 3))))
    assert calls == []  # NumPy refused the output before its loop (the wrapper saw the raise)
    assert x.tolist() == [0.0, 1.0, 2.0] and x._version == 0


def test_dtype_that_cannot_be_stored_is_refused_before_anything_is_written() -> None:
    ints = og.tensor(np.array([1, 2, 3]))
    with pytest.raises(TypeError, match="add_: the result has dtype float64"):
        ints.add_(og.tensor(np.array([0.5, 0.5, 0.5])))
    with pytest.raises(TypeError, match="divide_"):
        ints.divide_(2)
    with pytest.raises(TypeError, match="tanh_"):
        ints.tanh_()
    assert ints.tolist() == [1, 2, 3] and ints._version == 0


def test_a_read_only_view_is_refused_before_anything_is_written() -> None:
    base = og.tensor(np.arange(3.0))
    e = base.expand((2, 3))
    with counted() as calls, pytest.raises(RuntimeError, match="read-only view"):
        e.add_(1.0)
    assert calls == [] and base.tolist() == [0.0, 1.0, 2.0]


def test_a_leaf_that_requires_grad_is_refused_and_untouched() -> None:
    w = og.tensor(np.arange(3.0), requires_grad=True)
    with counted() as calls, pytest.raises(RuntimeError, match="leaf tensor that requires grad"):
        w.subtract_(og.tensor(np.ones(3)))
    assert calls == [] and w.tolist() == [0.0, 1.0, 2.0] and w._version == 0


# --- aliasing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "how",
    [
        "x.add_(x)",
        "x.subtract_(x[::-1])",
        "x.multiply_(x)",
        "x.divide_(x[::-1])",
        "x[1:].add_(x[:-1])",
        "x[:-1].subtract_(x[1:])",
        "x.T.add_(x)",
    ],
)
def test_aliased_operands_give_what_the_general_path_gives(how: str) -> None:
    def run(direct: bool) -> tuple[bytes, int]:
        x = og.tensor(np.arange(1.0, 17.0).reshape(4, 4) * 0.37)
        with contextlib.nullcontext() if direct else general_path():
            eval(how)  # noqa: S307 - a fixed expression of this test
        return x._data.tobytes(), x._version

    assert run(True) == run(False)


def test_aliased_operands_match_numpy_on_copies() -> None:
    x = og.tensor(np.arange(8.0))
    expected = np.arange(8.0) - np.arange(8.0)[::-1]
    with counted() as calls:
        x.subtract_(x[::-1])
    assert calls == [True]
    np.testing.assert_array_equal(x.numpy(), expected)


def test_separate_refuses_overlap_but_not_the_array_itself() -> None:
    """The check an into variant makes before CuPy writes (CuPy does not copy overlapping
    inputs); here on NumPy arrays, through the same code."""
    a = np.arange(6.0)
    assert separate(a, (a, np.ones(6)))
    assert not separate(a, (a[::-1],))
    assert not separate(a[1:], (a[:-1],))
    assert separate(a[:3], (a[3:],))


class _Other(np.ndarray):
    """An array class that is not exactly numpy.ndarray: takes the into variants' generic
    (array-module) branch, the one CuPy arrays take."""


def test_generic_branch_of_ufunc_into_declines_overlap_and_writes_otherwise() -> None:
    into = ufunc_into("subtract")
    out = np.arange(6.0).view(_Other)
    assert into(out, out, out[::-1]) is False
    np.testing.assert_array_equal(np.asarray(out), np.arange(6.0))  # declined: nothing written
    y = np.ones(6)
    assert into(out, out, y) is True
    np.testing.assert_array_equal(np.asarray(out), np.arange(6.0) - 1)
    with pytest.raises(TypeError):  # casting checked before the write
        into(np.arange(3).view(_Other), np.arange(3), np.ones(3))


def test_zero_d_and_integer_and_bool_targets() -> None:
    z = og.tensor(np.array(2.5, dtype=np.float32))
    with counted() as calls:
        z.multiply_(2.0)
    assert calls == [True] and z.item() == 5.0 and z.shape == () and z._version == 1
    i = og.tensor(np.array([1, 2, 3]))
    i.add_(2)
    assert i.tolist() == [3, 4, 5] and i._data.dtype == np.int64
    b = og.tensor(np.array([True, False]))
    b.add_(og.tensor(np.array([False, False])))
    assert b.tolist() == [True, False] and b._version == 1


# --- autograd and forward mode are as before ---------------------------------------------------


def _non_leaf_step(name: str, direct: bool, x0: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, ...]:
    x = og.tensor(x0, requires_grad=True)
    y = og.tensor(other, requires_grad=True)
    with contextlib.nullcontext() if direct else general_path():
        h = x * 1.5
        if name == "tanh":
            h.tanh_()
        else:
            getattr(h, name + "_")(y)
        loss = (h * h).sum()
    loss.backward()
    return h.numpy(), x.grad.numpy(), (y.grad.numpy() if y.grad is not None else None)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "tanh"])
def test_recorded_inplace_ops_keep_the_general_path_and_their_gradients(name: str) -> None:
    x0 = RNG.standard_normal((3, 4))
    y0 = RNG.uniform(0.5, 2.0, (3, 4))
    with counted() as calls:
        new = _non_leaf_step(name, True, x0, y0)
    assert calls == []  # a node is recorded: no direct write
    old = _non_leaf_step(name, False, x0, y0)
    for a, b in zip(new, old, strict=True):
        assert (a is None and b is None) or a.tobytes() == b.tobytes()

    def f(xv: np.ndarray) -> float:
        h = xv * 1.5
        h = {"add": h + y0, "subtract": h - y0, "multiply": h * y0, "divide": h / y0, "tanh": np.tanh(h)}[
            name
        ]
        return float((h * h).sum())

    numeric = central(f, x0)
    np.testing.assert_allclose(new[1], numeric, rtol=1e-6, atol=1e-7)


def test_version_counter_bumped_once_per_direct_write_and_seen_by_views() -> None:
    x = og.tensor(np.arange(4.0))
    v = x[1:]
    with counted() as calls:
        x.add_(1.0)
        v.multiply_(2.0)
        x.exp_()
        x.clip_(0.0, 50.0)
        x.fill_(3.0)
        x.zero_()
    assert calls == [True] * 6
    assert x._version == v._version == 6


def test_a_saved_tensor_written_directly_is_still_caught() -> None:
    w = og.tensor(np.arange(1.0, 4.0), requires_grad=True)
    x = og.tensor(np.arange(3.0))
    loss = (w * x).sum()  # saves x
    x.add_(1.0)  # nothing recorded here (x needs no grad): the direct write, version bumped
    with pytest.raises(RuntimeError, match="has been modified by an in-place operation"):
        loss.backward()


def test_forward_mode_keeps_the_general_path_and_the_tangent() -> None:
    with fw.dual_level():
        x = fw.make_dual(og.tensor(np.array([0.1, 0.2])), og.tensor(np.array([1.0, 1.0])))
        with counted() as calls:
            x.tanh_()
        primal, tangent = fw.unpack_dual(x)
    assert calls == []
    np.testing.assert_array_equal(primal.numpy(), np.tanh([0.1, 0.2]))
    np.testing.assert_allclose(tangent.numpy(), 1 - np.tanh([0.1, 0.2]) ** 2)


def test_a_floating_point_error_after_the_loop_finds_x_whole_and_its_version_bumped() -> None:
    """The documented departure: NumPy reports an overflow after its loop, so with errors
    raised the direct write has already written the whole result (inf) and bumps the version;
    the general path raised before writing."""
    x = og.tensor(np.array([1e308, 1.0]))
    with np.errstate(over="raise"), pytest.raises(FloatingPointError):
        x.multiply_(10.0)
    assert x.tolist() == [np.inf, 10.0] and x._version == 1


# --- the key in the generator --------------------------------------------------------------------


def test_inplace_into_needs_inplace(tmp_path: Path) -> None:
    ops = _with(OPS, "mul", "  inplace_into: true\n")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "inplace_into"), "mul", "needs `inplace:")
    ops = _with(OPS, "mul", "  inplace: (x -> out)\n  inplace_into: yes please\n")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "inplace_into"), "mul", "true or false")


def test_inplace_into_generates_the_direct_write_only_where_asked(tmp_path: Path) -> None:
    ops = _with(
        _with(OPS, "mul", "  inplace: (x -> out)\n  inplace_into: true\n"), "tanh", "  inplace: (x -> out)\n"
    )
    text = generate(write_spec(tmp_path, ops, BACKWARD))["ops.py"]
    mul_ = text[text.index("def mul_(") :]
    tanh_ = text[text.index("def tanh_(") :]
    assert "write_into(x, _k_mul, (x._data, y._data))" in mul_[: mul_.index("\ndef ")]
    assert "write_into" not in tanh_[: tanh_.index("\ndef ")]


# --- cross_entropy's fast path: one maximum for the label range, reductions called directly ------


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64])
def test_cross_entropy_label_range_check_by_one_maximum(dtype: Any) -> None:
    x = RNG.standard_normal((4, 5)).astype(np.float32)
    ok = np.array([0, 4, 2, 1], dtype=dtype)
    assert nn_kernels._plain_labels(x, ok, -1, "mean", -100, 0.0) is ok
    too_big = np.array([0, 5, 2, 1], dtype=dtype)
    assert nn_kernels._plain_labels(x, too_big, -1, "mean", -100, 0.0) is None
    if np.dtype(dtype).kind == "i":
        negative = np.array([0, -1, 2, 1], dtype=dtype)
        assert nn_kernels._plain_labels(x, negative, -1, "mean", -100, 0.0) is None
        lowest = np.array([0, np.iinfo(dtype).min, 2, 1], dtype=dtype)
        assert nn_kernels._plain_labels(x, lowest, -1, "mean", -100, 0.0) is None
        with pytest.raises(ValueError, match="cross_entropy"):
            og.nn.functional.cross_entropy(og.tensor(x), og.tensor(negative))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_softmax_is_the_general_one_bit_for_bit(dtype: Any) -> None:
    for shape in [(32, 10), (3, 1), (1, 7), (5, 300)]:
        x = (RNG.standard_normal(shape) * 20).astype(dtype)
        x.flat[0] = 80.0
        assert nn_kernels._softmax_rows(x).tobytes() == nn_kernels._softmax(np, x, 1).tobytes()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.int64])
def test_unbroadcast_of_a_bias_is_the_general_sum(dtype: Any) -> None:
    for shape in [(32, 10), (7, 3, 5), (1000, 4)]:
        g = (RNG.standard_normal(shape) * 10).astype(dtype)
        fast = common.unbroadcast(g, shape[1:], g.dtype)
        assert fast.tobytes() == g.sum(axis=0).tobytes()
        assert fast.tobytes() == common._unbroadcast_general(g, shape[1:], g.dtype).tobytes()
        assert fast.dtype == g.dtype and fast.shape == shape[1:]


def test_a_kernel_override_without_an_into_variant_is_never_bypassed() -> None:
    original = registry.lookup("add", "cpu")
    seen: list[int] = []

    def add(x: Any, y: Any) -> Any:
        seen.append(1)
        return x + y

    registry.register_kernel("add", ["cpu"])(add)
    try:
        x = og.tensor(np.arange(3.0))
        x.add_(1.0)
        x.add_(1.0)
    finally:
        registry.register_kernel("add", ["cpu"])(original)
    assert seen == [1, 1] and x.tolist() == [2.0, 3.0, 4.0] and x._version == 2
    with counted() as calls:
        x.add_(1.0)  # the table was emptied: this call resolves the kernel (general path)
        x.add_(1.0)
    assert calls == [True]  # the original kernel is back, with its variant


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide"])
def test_mixed_dtypes_give_what_the_general_path_gives(name: str) -> None:
    """y of another dtype than x: NumPy's loop follows the inputs (float32 with float64
    computes in float64) and the output is cast on the way into x, as the copy did."""
    for x_dtype in DTYPES:
        for y_dtype in DTYPES:
            for y_shape in [(3, 4), (4,), ()]:
                y = og.tensor(_x(y_dtype, y_shape))
                _case_with(name, x_dtype, y)


def _case_with(name: str, x_dtype: Any, y: og.Tensor) -> None:
    base = _x(x_dtype)
    x_old, x_new = og.tensor(base.copy()), og.tensor(base.copy())
    with np.errstate(all="ignore"):
        with general_path():
            got_old = _run(name, x_old, [y])
        got_new = _run(name, x_new, [y])
    assert got_new == got_old, (name, x_dtype, y._data.dtype)
    assert x_new._data.tobytes() == x_old._data.tobytes(), (name, x_dtype, y._data.dtype)
    assert x_new._version == x_old._version


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_cross_entropy_mean_in_float64_is_the_general_paths_bits(monkeypatch, dtype: Any) -> None:
    cases = []
    for n, scale in [(1, 1.0), (32, 4.0), (32, 1e4), (999, 30.0), (5, 1e-30)]:
        x = (RNG.standard_normal((n, 10)) * scale).astype(dtype)
        cases.append((x, RNG.integers(0, 10, n)))
    x = RNG.standard_normal((4, 3)).astype(dtype)
    x[1, 2] = np.inf  # a NaN loss
    cases.append((x, np.array([0, 1, 2, 0])))
    x = RNG.standard_normal((4, 3)).astype(dtype)
    x[0, 0] = -np.inf  # an infinite loss for label 0
    cases.append((x, np.array([0, 1, 2, 0])))
    fast = [nn_kernels.cross_entropy(x, y) for x, y in cases]
    monkeypatch.setattr(nn_kernels, "_plain_labels", lambda *args: None)
    for (x, y), f in zip(cases, fast, strict=True):
        general = nn_kernels.cross_entropy(x, y)
        assert f.tobytes() == general.tobytes() and f.dtype == general.dtype
        assert f.shape == general.shape == ()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_grad_fast_path_is_the_general_paths_bits(monkeypatch, dtype: Any, reduction: str):
    cases = []
    for n, scale in [(1, 1.0), (32, 4.0), (33, 1e4), (999, 30.0)]:
        x = (RNG.standard_normal((n, 10)) * scale).astype(dtype)
        cases.append((x, RNG.integers(0, 10, n), np.asarray(RNG.standard_normal() * 3, dtype=dtype)))
    x = np.asfortranarray(RNG.standard_normal((6, 4)).astype(dtype))  # logits in column order
    cases.append((x, np.array([0, 1, 2, 3, 3, 0]), np.asarray(0.7, dtype=dtype)))
    cases.append((x.T, np.array([5, 0, 1, 2]), np.asarray(-1.5, dtype=dtype)))
    fast = [nn_kernels.cross_entropy_grad(x, y, g, -1, reduction) for x, y, g in cases]
    monkeypatch.setattr(nn_kernels, "_plain_labels", lambda *args: None)
    for (x, y, g), f in zip(cases, fast, strict=True):
        general = nn_kernels.cross_entropy_grad(x, y, g, -1, reduction)
        assert f.tobytes() == general.tobytes() and f.dtype == general.dtype and f.shape == general.shape


# --- AccumulateGrad: GradNode.__init__ spelled out ---------------------------------------------


def _slots(cls: type) -> list[str]:
    return [s for c in cls.__mro__ for s in getattr(c, "__slots__", ()) if s != "__weakref__"]


@pytest.mark.parametrize("anomaly", [False, True])
def test_accumulate_grad_sets_what_grad_node_init_sets(anomaly: bool) -> None:
    leaf = og.tensor(np.ones((2, 3), np.float32), requires_grad=True)
    with og.detect_anomaly() if anomaly else contextlib.nullcontext():
        acc = AccumulateGrad(leaf)
        reference = AccumulateGrad.__new__(AccumulateGrad)
        GradNode.__init__(reference, ())
    for slot in _slots(GradNode):
        assert hasattr(acc, slot) == hasattr(reference, slot), slot
        if slot in ("seq", "trace", "_shape", "_dtype", "_atype") or not hasattr(acc, slot):
            continue
        assert getattr(acc, slot) == getattr(reference, slot), slot
    assert (acc.trace is None) == (reference.trace is None) == (not anomaly)
    assert acc.seq == LEAF_SEQ and acc.variable is leaf
    assert (acc._shape, acc._dtype, acc._atype) == ((2, 3), np.float32, np.ndarray)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_fast_path_on_random_shapes_layouts_and_specials(monkeypatch, reduction: str) -> None:
    """The fast forward picks the N label entries before the last subtraction: the same
    subtraction on the values picked, so the same bits (signed zeros, inf and NaN too)."""
    rng = np.random.default_rng(5)
    cases = []
    for i in range(300):
        n, c = int(rng.integers(1, 60)), int(rng.integers(1, 30))
        x = (rng.standard_normal((n, c)) * rng.choice([1e-3, 1.0, 30.0, 1e4])).astype(rng.choice(DTYPES[:3]))
        if i % 7 == 0:
            x[0, 0] = rng.choice([np.inf, -np.inf, np.nan, 0.0, -0.0])
        if i % 5 == 0:
            x = np.asfortranarray(x)
        cases.append((x, rng.integers(0, c, n)))
    with np.errstate(all="ignore"):
        fast = [nn_kernels.cross_entropy(x, y, -1, reduction) for x, y in cases]
        monkeypatch.setattr(nn_kernels, "_plain_labels", lambda *args: None)
        for (x, y), f in zip(cases, fast, strict=True):
            general = nn_kernels.cross_entropy(x, y, -1, reduction)
            assert f.tobytes() == general.tobytes() and f.dtype == general.dtype
