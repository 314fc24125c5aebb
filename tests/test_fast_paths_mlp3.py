"""The MLP step's third round of fast paths (issue 11) gives what the general paths give:
the same bits (signed zeros and NaN payloads included), the same dtypes, and gradient
buffers that alias no input, no other gradient and no cached constant.

Covered: the inline first-gradient case of `accumulate_into_leaf`, the inline look-ups and
version bump of `write_into`, matmul's kernel and its 2-D gradient, add_grad's bias sum,
tanh_grad's products written into one new array."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import grad_holder
from opgrad.runtime.kernels.common import ONES, _unbroadcast_general
from opgrad.runtime.kernels.generic import binary, elementwise, linalg
from opgrad.runtime.tensor import wrap

RNG = np.random.default_rng(311)


def _same(a, b) -> None:
    """Same class, shape, dtype and bytes."""
    assert a.__class__ is b.__class__
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def _specials(shape, dtype) -> np.ndarray:
    """Random values with signed zeros, infinities and NaNs of several payloads and signs."""
    a = (RNG.standard_normal(shape) * 2).astype(dtype)
    flat = a.reshape(-1)
    if flat.size >= 8:
        flat[0], flat[1], flat[2], flat[3] = 0.0, -0.0, np.inf, -np.inf
        bits = flat.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])
        nan = np.array(np.nan, dtype).view(bits.dtype)
        sign = bits.dtype.type(1) << bits.dtype.type(8 * a.itemsize - 1)
        bits[4] = nan
        bits[5] = nan | sign
        bits[6] = nan | bits.dtype.type(3)  # another payload
        bits[7] = nan | sign | bits.dtype.type(5)
    return a


# --- accumulate_into_leaf: the first gradient, inline --------------------------------------


def _general_first(leaf, grad, held) -> None:
    """What accumulate_into_leaf did for a leaf's first gradient before the inline case."""
    extra = leaf._extra_state()
    g = grad_holder.take_as_grad(held, grad)
    leaf._grad = g
    extra.grad_owned = not g._requires_grad


def _leaf(shape=(4, 3), dtype=np.float32):
    return og.tensor(np.zeros(shape, dtype), requires_grad=True)


FIRST_CASES = ["fresh", "view_of_fresh", "held_by_user", "held_by_grad", "read_only", "requires_grad"]
FIRST_CASES += ["no_held"]


@pytest.mark.parametrize("case", FIRST_CASES)
def test_first_gradient_inline_is_take_as_grad(case) -> None:
    results = []
    values = RNG.standard_normal((4, 3)).astype(np.float32)
    for inline in (True, False):
        arr = values.copy()
        data = arr[:, :] if case == "view_of_fresh" else arr
        if case == "read_only":
            data.flags.writeable = False
        grad = wrap(data)
        if case == "requires_grad":
            grad._requires_grad = True
        held = None if case == "no_held" else {}
        if case == "held_by_user":
            held[id(arr)] = False
        elif case == "held_by_grad":
            held[id(arr)] = True
        leaf = _leaf()
        if inline:
            grad_holder.accumulate_into_leaf(leaf, grad, False, grad_holder.ACCUMULATE_LOCK, held)
        else:
            _general_first(leaf, grad, held)
        results.append((leaf, grad, held, arr))
    (a, ga, ha, arr_a), (b, gb, hb, arr_b) = results
    _same(a._grad._data, b._grad._data)
    assert (a._grad is ga) == (b._grad is gb)  # taken as it is in the same cases
    assert np.shares_memory(a._grad._data, arr_a) == np.shares_memory(b._grad._data, arr_b)
    assert a._extra.grad_owned == b._extra.grad_owned
    assert a._grad._data.flags.writeable
    if ha is not None:
        # the same record of what left the engine (keys are ids: compare by which array)
        def named(h, arr, g):
            return {("given" if k == id(arr) else "grad" if k == id(g._data) else k): v for k, v in h.items()}

        assert named(ha, arr_a, a._grad) == named(hb, arr_b, b._grad)
    expect_taken = case in ("fresh", "view_of_fresh", "requires_grad")
    assert (a._grad is ga) == expect_taken


def test_a_cached_constant_handed_as_a_gradient_is_copied() -> None:
    one = ONES[np.dtype(np.float32)]  # read-only, shared by every tanh_grad
    before = one.tobytes()
    leaf = og.tensor(np.float32(0.0), requires_grad=True)
    grad_holder.accumulate_into_leaf(leaf, wrap(one), False, grad_holder.ACCUMULATE_LOCK, {})
    assert leaf.grad._data is not one and not np.shares_memory(leaf.grad._data, one)
    leaf.grad.add_(2.0)  # a user's in-place edit of the .grad reaches only the copy
    assert one.tobytes() == before and float(leaf.grad) == 3.0


def test_one_array_for_two_leaves_gives_two_buffers() -> None:
    # add's gradient hands one array to both inputs: the first leaf takes it, the second a copy
    x, y = _leaf(), _leaf()
    (x + y).sum().backward()
    assert not np.shares_memory(x.grad._data, y.grad._data)
    _same(x.grad._data, y.grad._data)
    assert x._extra.grad_owned and y._extra.grad_owned


def test_mlp_step_gradients_own_their_memory() -> None:
    w1 = og.tensor(RNG.standard_normal((6, 5)).astype(np.float32), requires_grad=True)
    b1 = og.tensor(np.zeros(5, np.float32), requires_grad=True)
    w2 = og.tensor(RNG.standard_normal((5, 3)).astype(np.float32), requires_grad=True)
    b2 = og.tensor(np.zeros(3, np.float32), requires_grad=True)
    x = og.tensor(RNG.standard_normal((4, 6)).astype(np.float32))
    y = og.tensor(RNG.integers(0, 3, 4))
    params = [w1, b1, w2, b2]
    og.nn.functional.cross_entropy(og.tanh(x @ w1 + b1) @ w2 + b2, y).backward()
    arrays = [p.grad._data for p in params] + [p._data for p in params] + [x._data]
    for a, b in itertools.combinations(arrays, 2):
        assert not np.shares_memory(a, b)
    for p in params:
        assert p.grad._data.flags.writeable and p._extra.grad_owned
    del arrays, a, b
    # the second pass adds into those buffers in place (holding none of them here)
    first = [p.grad._data.copy() for p in params]
    where = [p.grad._data.ctypes.data for p in params]
    og.nn.functional.cross_entropy(og.tanh(x @ w1 + b1) @ w2 + b2, y).backward()
    for p, f, w in zip(params, first, where, strict=True):
        _same(p.grad._data, f + f)
        assert p.grad._data.ctypes.data == w


# --- write_into: the inline look-ups and version bump --------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_direct_subtract_is_the_general_subtract_and_bumps_once(dtype) -> None:
    x0 = _specials((8, 5), dtype)
    y0 = _specials((8, 5), dtype)
    p = og.tensor(x0.copy(), requires_grad=True)
    assert p._vc is None  # a counter is made on the first write
    with og.no_grad(), np.errstate(invalid="ignore"):
        assert og.subtract_(p, og.tensor(y0)) is p
        _same(p._data, x0 - y0)
    assert p._version == 1
    with og.no_grad(), np.errstate(invalid="ignore"):
        p.subtract_(og.tensor(y0))
    assert p._version == 2


def test_direct_write_declines_and_the_general_path_raises() -> None:
    p = og.tensor(np.ones((3, 2), np.float32), requires_grad=True)
    with og.no_grad(), pytest.raises(ValueError, match="shape"):
        p.subtract_(og.tensor(np.ones((4, 3, 2), np.float32)))
    assert p._version == 0 and np.array_equal(p._data, np.ones((3, 2), np.float32))
    ro = og.tensor(np.ones(3, np.float32)).expand([2, 3])
    with og.no_grad(), pytest.raises(RuntimeError, match="read-only"):
        ro.subtract_(1.0)


# --- matmul and its gradient -----------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64])
@pytest.mark.parametrize("shapes", [((5, 4), (4, 3)), ((4,), (4, 3)), ((2, 5, 4), (4, 3)), ((5, 4), (4,))])
def test_matmul_kernel_is_the_product(dtype, shapes) -> None:
    if dtype == np.int64:
        x, y = RNG.integers(-9, 9, shapes[0]), RNG.integers(-9, 9, shapes[1])
    else:
        x, y = _specials(shapes[0], np.float64).astype(dtype), RNG.standard_normal(shapes[1]).astype(dtype)
    with np.errstate(invalid="ignore"):
        _same(linalg.matmul(x, y), np.asarray(x @ y))
    with pytest.raises(ValueError, match="expected x.shape"):
        linalg.matmul(x, np.ones((7, 2), dtype))


NEEDS = [None, (True, True), (True, False), (False, True), (False, False)]


@pytest.mark.parametrize("needs", NEEDS)
@pytest.mark.parametrize(
    "case", ["f32", "f64", "mixed", "transpose_x", "transpose_y", "vector_x", "batched", "fortran", "complex"]
)
def test_matmul_grad_is_the_general_path(case, needs) -> None:
    dt = np.float64 if case in ("f64", "complex") else np.float32
    x = _specials((6, 4), dt)
    y = RNG.standard_normal((4, 3)).astype(np.float64 if case == "mixed" else dt)
    tx = ty = False
    if case == "transpose_x":
        x, tx = np.ascontiguousarray(x.T), True
    elif case == "transpose_y":
        y, ty = np.ascontiguousarray(y.T), True
    elif case == "vector_x":
        x = x[0]
    elif case == "batched":
        x = np.stack([x, x * 2])
    elif case == "fortran":
        x, y = np.asfortranarray(x), np.asfortranarray(y)
    elif case == "complex":
        x = x + 1j * RNG.standard_normal(x.shape)  # (the specials' NaNs stay in the real parts)
        y = y.astype(np.complex128)
    with np.errstate(invalid="ignore"):
        out_shape = np.matmul(x.swapaxes(-1, -2) if tx else x, y.T if ty else y).shape
    g = _specials(out_shape, np.result_type(x, y).type(0).real.dtype).astype(np.result_type(x, y))
    with np.errstate(invalid="ignore"):
        fast = linalg.matmul_grad(x, y, g, tx, ty, needs)
        want = needs or (True, True)
        if g.dtype.kind == "c":
            gx, gy = linalg._matmul_grad_general(x, y, g.conj(), tx, ty, *want)
            gx = None if gx is None else gx.conj()
            gy = None if gy is None else gy.conj()
        else:
            gx, gy = linalg._matmul_grad_general(x, y, g, tx, ty, *want)
    for f, s, inp in ((fast[0], gx, x), (fast[1], gy, y)):
        if s is None:
            assert f is None
            continue
        _same(f, s)
        assert not np.shares_memory(f, inp) and not np.shares_memory(f, g)
    if fast[0] is not None and fast[1] is not None:
        assert not np.shares_memory(fast[0], fast[1])


def test_matmul_gradients_against_finite_differences() -> None:
    x = og.tensor(RNG.standard_normal((5, 4)), requires_grad=True)
    w = og.tensor(RNG.standard_normal((4, 3)), requires_grad=True)
    b = og.tensor(RNG.standard_normal(3), requires_grad=True)
    assert og.testing.gradcheck(lambda x, w, b: og.tanh(x @ w + b), (x, w, b))


# --- add_grad's bias sum --------------------------------------------------------------------


@pytest.mark.parametrize("needs", NEEDS)
@pytest.mark.parametrize(
    "shapes",
    [
        ((32, 10), (10,)),
        ((7, 3, 5), (3, 5)),
        ((7, 3, 5), (5,)),
        ((7, 3, 5), (1, 5)),
        ((6, 4), (1, 4)),
        ((6, 4), (6, 1)),
        ((6, 4), ()),
        ((6, 4), (6, 4)),
        ((4,), (4,)),
        ((4,), ()),
    ],
)
@pytest.mark.parametrize("dtypes", [(np.float32,) * 2, (np.float64, np.float32), (np.float16,) * 2])
def test_add_grad_is_unbroadcast(shapes, dtypes, needs) -> None:
    (gs, bs), (gdt, bdt) = shapes, dtypes
    g = _specials(gs, gdt)
    x_meta = np.empty(gs, gdt)
    b_meta = np.empty(bs, bdt)
    with np.errstate(invalid="ignore", over="ignore"):
        fast = binary.add_grad(x_meta, b_meta, g, needs)
        want = needs or (True, True)
        general = [
            _unbroadcast_general(g, m.shape, m.dtype) if w else None
            for m, w in zip((x_meta, b_meta), want, strict=True)
        ]
    for f, s in zip(fast, general, strict=True):
        if s is None:
            assert f is None
        else:
            _same(f, s)
    if bs != gs and fast[1] is not None:
        assert not np.shares_memory(fast[1], g)


# --- tanh_grad into one new array -----------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("grad", ["same", "float64", "broadcast", "zero_d"])
@pytest.mark.parametrize("shape", [(32, 128), (5,), (3, 1, 4), ()])
def test_tanh_grad_is_the_general_formula(dtype, grad, shape) -> None:
    out = _specials(shape, dtype)
    g = {
        "same": lambda: _specials(shape, dtype),
        "float64": lambda: _specials(shape, np.float64),
        "broadcast": lambda: _specials((2,) + shape, dtype),
        "zero_d": lambda: np.asarray(-1.5, dtype),
    }[grad]()
    out_before, g_before = out.tobytes(), g.tobytes()
    with np.errstate(invalid="ignore", over="ignore"):
        r = elementwise.tanh_grad(out, g)
        general = np.asarray(g * (1 - out * out))
    _same(r, general)
    assert not np.shares_memory(r, out) and not np.shares_memory(r, g)
    assert out.tobytes() == out_before and g.tobytes() == g_before
    assert ONES[np.dtype(dtype)] == 1 and not ONES[np.dtype(dtype)].flags.writeable


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layouts", ["CF", "FC", "FF", "CC", "sliced"])
def test_tanh_grad_has_the_general_formulas_layout(dtype, layouts) -> None:
    # Large enough for the in-place steps: the result must take the layout a new array
    # would (a later reduction sums in the order of its strides), whatever out's layout.
    base_out, base_g = _specials((48, 40), dtype), _specials((48, 40), dtype)
    if layouts == "sliced":
        out, g = _specials((48, 80), dtype)[:, ::2], base_g
    else:
        out = np.asfortranarray(base_out) if layouts[0] == "F" else base_out
        g = np.asfortranarray(base_g) if layouts[1] == "F" else base_g
    with np.errstate(invalid="ignore", over="ignore"):
        r = elementwise.tanh_grad(out, g)
        general = np.asarray(g * (1 - out * out))
    _same(r, general)
    assert r.strides == general.strides
    assert not np.shares_memory(r, out) and not np.shares_memory(r, g)


@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_grad_takes_a_broadcasting_out_grad(approximate) -> None:
    # gelu_grad's in-place steps write into an array of x's shape: an out_grad that
    # broadcasts x to a larger shape takes the general formula (it used to raise)
    x = np.linspace(-2.0, 2.0, 4)
    g = RNG.standard_normal((3, 4))
    got = elementwise.gelu_grad(x, g, approximate)
    want = elementwise.gelu_grad(np.broadcast_to(x, (3, 4)).copy(), g, approximate)
    assert got.shape == (3, 4)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


def test_tanh_gradient_against_finite_differences() -> None:
    x = og.tensor(RNG.standard_normal((4, 3)), requires_grad=True)
    assert og.testing.gradcheck(og.tanh, (x,))
    assert og.testing.gradgradcheck(og.tanh, (x,))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(32, 128), (5,), ()])
def test_sigmoid_grad_is_the_general_formula(dtype, shape) -> None:
    out = _specials(shape, np.float64).astype(dtype)
    g = _specials(shape, np.float64).astype(dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        general = np.asarray(g * np.conj(out * (1 - out)))
        _same(elementwise.sigmoid_grad(out, g), general)
