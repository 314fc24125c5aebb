"""The performance fast paths (issue 11) give exactly what the general paths give: the same
values bit for bit, the same dtypes, fresh arrays that alias nothing, and correct gradients."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import opgrad as og
from opgrad.generated import nodes
from opgrad.runtime import tensor as tensor_module
from opgrad.runtime.kernels import common
from opgrad.runtime.kernels.generic import binary, elementwise, linalg
from opgrad.runtime.kernels.generic import nn as nn_kernels

RNG = np.random.default_rng(11)


def _same(a, b) -> None:
    """Same class, shape, dtype and bits (NaN equal to NaN)."""
    assert a.__class__ is b.__class__ is np.ndarray
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.array_equal(a, b, equal_nan=True)


# --- cross_entropy -----------------------------------------------------------------------


def _general_only(monkeypatch) -> None:
    monkeypatch.setattr(nn_kernels, "_plain_labels", lambda *args: None)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("axis", [-1, 1])
def test_cross_entropy_fast_path_matches_general_path(monkeypatch, dtype, reduction, axis) -> None:
    x = (RNG.standard_normal((7, 5)) * 4).astype(dtype)
    label = RNG.integers(0, 5, 7)
    g = np.asarray(RNG.standard_normal(), dtype=dtype)
    assert nn_kernels._plain_labels(x, label, axis, reduction, -100, 0.0) is label  # the fast path runs
    fast = nn_kernels.cross_entropy(x, label, axis, reduction)
    fast_grad = nn_kernels.cross_entropy_grad(x, label, g, axis, reduction)
    _general_only(monkeypatch)
    _same(fast, nn_kernels.cross_entropy(x, label, axis, reduction))
    _same(fast_grad, nn_kernels.cross_entropy_grad(x, label, g, axis, reduction))
    assert not np.shares_memory(fast_grad, x) and not np.shares_memory(fast_grad, g)


@pytest.mark.parametrize(
    ("shape", "label", "kwargs"),
    [
        ((4, 3), [0, 1, 2, 1], {"reduction": "none"}),
        ((4, 3), [0, 1, 2, 1], {"label_smoothing": 0.1}),
        ((4, 3), [0, 1, 2, 1], {"ignore_index": 1}),  # an ignore_index a label can equal
        ((4, 3), [[0], [1], [2], [1]], {}),  # labels with the class axis kept
        ((4, 3), [0, 1, 3, 1], {}),  # out of range: the general path raises
        ((4, 3), [0, -1, 2, 1], {}),
        ((2, 3, 4), [[0, 1, 2, 0], [1, 1, 1, 1]], {"axis": 1}),
        ((0, 3), [], {}),
    ],
)
def test_cross_entropy_uncommon_calls_take_the_general_path(shape, label, kwargs) -> None:
    x = RNG.standard_normal(shape)
    lab = np.asarray(label, dtype=np.int64)
    axis = kwargs.get("axis", -1)
    args = (
        kwargs.get("reduction", "mean"),
        kwargs.get("ignore_index", -100),
        kwargs.get("label_smoothing", 0.0),
    )
    assert nn_kernels._plain_labels(x, lab, axis, *args) is None


def test_cross_entropy_fast_path_still_refuses_out_of_range_labels() -> None:
    x = og.tensor(RNG.standard_normal((3, 4)))
    with pytest.raises(ValueError, match="cross_entropy: label contains 4"):
        og.nn.functional.cross_entropy(x, og.tensor([0, 4, 1]))


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_fast_path_gradients(reduction) -> None:
    label = og.tensor(RNG.integers(0, 6, 5))
    x = og.tensor(RNG.standard_normal((5, 6)), requires_grad=True)
    f = lambda z: og.nn.functional.cross_entropy(z, label, reduction=reduction)  # noqa: E731
    assert og.testing.gradcheck(f, (x,))
    assert og.testing.gradgradcheck(f, (x,))


# --- matmul_grad and unbroadcast ----------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_grad_fast_path_matches_general_path(dtype) -> None:
    x = RNG.standard_normal((5, 3)).astype(dtype)
    y = RNG.standard_normal((3, 4)).astype(dtype)
    g = RNG.standard_normal((5, 4)).astype(dtype)
    fast = linalg.matmul_grad(x, y, g)
    general = linalg._matmul_grad_general(x, y, g, False, False)
    for f, r in zip(fast, general, strict=True):
        _same(f, r)
    for a, b in itertools.combinations([*fast, x, y, g], 2):
        assert not np.shares_memory(a, b)


def test_matmul_grad_mixed_dtypes_keep_each_operands_dtype() -> None:
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    y = RNG.standard_normal((3, 4))
    xg, yg = linalg.matmul_grad(x, y, RNG.standard_normal((5, 4)))
    assert xg.dtype == np.float32 and yg.dtype == np.float64


def test_matmul_gradients_in_float64() -> None:
    x = og.tensor(RNG.standard_normal((4, 3)), requires_grad=True)
    y = og.tensor(RNG.standard_normal((3, 2)), requires_grad=True)
    assert og.testing.gradcheck(og.matmul, (x, y))
    assert og.testing.gradgradcheck(og.matmul, (x, y))


@pytest.mark.parametrize(
    ("gshape", "shape"),
    [((6, 4), (4,)), ((2, 3, 4), (3, 4)), ((6, 4), (6, 4)), ((6, 4), (1, 4)), ((3, 1), (1,)), ((5,), ())],
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unbroadcast_fast_paths_match_general_path(gshape, shape, dtype) -> None:
    g = RNG.standard_normal(gshape).astype(dtype)
    _same(common.unbroadcast(g, shape, dtype), common._unbroadcast_general(g, shape, dtype))


def test_bias_gradient_is_a_fresh_array() -> None:
    x = og.tensor(RNG.standard_normal((6, 4)), requires_grad=True)
    b = og.tensor(RNG.standard_normal(4), requires_grad=True)
    og.sum(og.tanh(x + b)).backward()
    assert not np.shares_memory(b.grad.numpy(), x.grad.numpy())
    np.testing.assert_array_equal(b.grad.numpy(), x.grad.numpy().sum(axis=0))


# --- a Python float next to a tensor ----------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # 1e300, both paths
@pytest.mark.parametrize("value", [0.05, -0.0, 1e300, float("nan"), float("inf"), 3.0])
def test_float_scalar_fast_path_matches_general_path(dtype, value) -> None:
    like = og.tensor(np.ones(3, dtype=dtype))
    fast = tensor_module.as_tensor_arg(value, like, "multiply", "y")
    general = tensor_module.as_tensor_arg(value, like._data, "multiply", "y")  # raw array: general path
    _same(fast._data, general._data)
    assert not fast._requires_grad and fast._node is None


# --- the whole MLP step --------------------------------------------------------------------


def test_mlp_step_gradients_equal_the_general_paths_and_alias_nothing(monkeypatch) -> None:
    """One step of the benchmark's MLP through every fast path above, against the same step
    with the general paths forced: identical .grad bits, and no .grad shares memory."""
    sizes = (8, 16, 16, 4)
    arrays = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        arrays += [RNG.standard_normal((fan_in, fan_out)).astype(np.float32), np.zeros(fan_out, np.float32)]
    x, y = RNG.standard_normal((6, 8)).astype(np.float32), RNG.integers(0, 4, 6)

    def step() -> list[np.ndarray]:
        params = [og.tensor(a, requires_grad=True) for a in arrays]
        w1, b1, w2, b2, w3, b3 = params
        h = og.tanh(og.tensor(x) @ w1 + b1)
        h = og.tanh(h @ w2 + b2)
        og.nn.functional.cross_entropy(h @ w3 + b3, og.tensor(y)).backward()
        return [p.grad.numpy() for p in params]

    fast = step()
    for a, b in itertools.combinations(fast, 2):
        assert not np.shares_memory(a, b)
    _general_only(monkeypatch)
    monkeypatch.setitem(nodes._k_matmul_grad, np.ndarray, linalg._matmul_grad_general)
    monkeypatch.setattr(binary, "unbroadcast", common._unbroadcast_general)
    general = step()
    for f, r in zip(fast, general, strict=True):
        _same(f, r)


# --- gelu in place, attention, linear on n-d input -------------------------------------------


def _gelu_reference(x, g, approximate):
    """gelu and gelu_grad by the general expressions in float64 (the kernels' other branch)."""
    x64, g64 = x.astype(np.float64)[None], g.astype(np.float64)[None]  # n-d: the in-place branch
    if approximate:
        t = np.tanh(np.sqrt(2 / np.pi) * (x64 + 0.044715 * x64**3))
        out = 0.5 * x64 * (1 + t)
        dt = (1 - t * t) * np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x64**2)
        grad = g64 * (0.5 * (1 + t) + 0.5 * x64 * dt)
    else:
        cdf = 0.5 * (1 + common.erf(x64 / np.sqrt(2)))
        out = x64 * cdf
        grad = g64 * (cdf + x64 * np.exp(-0.5 * x64 * x64) / np.sqrt(2 * np.pi))
    return out[0], grad[0]


@pytest.mark.parametrize("approximate", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gelu_in_place_path_matches_the_float64_reference(approximate, dtype) -> None:
    from opgrad.runtime.kernels.generic import elementwise

    x = np.concatenate([RNG.standard_normal(3000) * 3, np.linspace(-12, 12, 2001), [0.0, 1e-30, -1e-30]])
    x = x.astype(dtype)
    g = RNG.standard_normal(x.shape).astype(dtype)
    ref_out, ref_grad = _gelu_reference(x, g, approximate)
    out = elementwise.gelu(x, approximate)
    grad = elementwise.gelu_grad(x, g, approximate)
    assert out.dtype == grad.dtype == dtype and out.shape == grad.shape == x.shape
    tol = 1e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(out, ref_out, rtol=tol, atol=tol)
    np.testing.assert_allclose(grad, ref_grad, rtol=tol, atol=tol * np.abs(g).max())
    # the general branch (0-d input) gives the same numbers
    general = [
        float(elementwise.gelu_grad(np.asarray(v), np.asarray(w), approximate))
        for v, w in zip(x[:50], g[:50], strict=True)
    ]
    np.testing.assert_allclose(grad[:50], general, rtol=tol, atol=tol)
    for a in (out, grad):
        assert not np.shares_memory(a, x) and not np.shares_memory(a, g)


def test_gelu_keeps_nan_and_infinities() -> None:
    from opgrad.runtime.kernels.generic import elementwise

    x = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30], dtype=np.float32)
    for approximate in (False, True):
        with np.errstate(over="ignore", invalid="ignore"):
            out = elementwise.gelu(x, approximate)
            general = elementwise.gelu(x.astype(np.float64), approximate)
        np.testing.assert_array_equal(out, general.astype(np.float32))


def _attention_general(q, k, v, causal):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        s = np.where(np.tri(s.shape[-2], s.shape[-1], dtype=bool), s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return w @ v, w


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_attention_in_place_paths_match_the_float64_reference(causal, dtype) -> None:
    from opgrad.runtime.kernels.generic import attention

    q, k, v = (RNG.standard_normal((2, 3, 5, 4)).astype(dtype) for _ in range(3))
    g = RNG.standard_normal((2, 3, 5, 4)).astype(dtype)
    out, weights, keep = attention.scaled_dot_product_attention(q, k, v, None, 0.0, causal)
    ref_out, ref_w = _attention_general(*(a.astype(np.float64) for a in (q, k, v)), causal)
    tol = 2e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(out, ref_out, rtol=tol, atol=tol)
    np.testing.assert_allclose(weights, ref_w, rtol=tol, atol=tol)
    grads = attention.scaled_dot_product_attention_grad(q, k, v, None, weights, keep, g, 0.0, causal)
    ref = attention.scaled_dot_product_attention_grad(
        *(a.astype(np.float64) for a in (q, k, v)), None, ref_w, keep, g.astype(np.float64), 0.0, causal
    )
    for got, want in zip(grads[:3], ref[:3], strict=True):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=10 * tol, atol=10 * tol)
    # a batch that broadcasts (key and value shared by the heads) takes the general branch
    k1, v1 = k[:, :1], v[:, :1]
    _, w1, keep1 = attention.scaled_dot_product_attention(q, k1, v1, None, 0.0, causal)
    g1 = attention.scaled_dot_product_attention_grad(q, k1, v1, None, w1, keep1, g, 0.0, causal)
    assert [a.shape for a in g1[:3]] == [q.shape, k1.shape, v1.shape]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_linear_on_nd_input_matches_the_batched_product(dtype) -> None:
    from opgrad.runtime.kernels.generic import cnn

    x = RNG.standard_normal((3, 4, 5)).astype(dtype)
    w = RNG.standard_normal((5, 6)).astype(dtype)
    b = RNG.standard_normal(6).astype(dtype)
    out = cnn.linear(x, w, b)
    np.testing.assert_allclose(out, np.matmul(x, w) + b, rtol=1e-5 if dtype == np.float32 else 1e-13)
    np.testing.assert_allclose(cnn.linear(np.swapaxes(x, 0, 1), w, b), np.swapaxes(out, 0, 1), rtol=1e-5)
    assert cnn.linear(np.zeros((2, 0, 5), dtype), w, b).shape == (2, 0, 6)
    assert cnn.linear(np.zeros((2, 3, 0), dtype), np.zeros((0, 6), dtype)).shape == (2, 3, 6)


# --- layer_norm and batch_norm in their own buffers -----------------------------------------


def _norm_cases(norm, dtype, affine):
    from opgrad.runtime.kernels.generic import normalization as nk

    if norm == "layer":
        x = (RNG.standard_normal((3, 4, 6)) * 3 + 1).astype(dtype)
        w, b = (RNG.standard_normal(6).astype(dtype) for _ in range(2))
        w, b = (w, b) if affine else (None, None)
        out = nk.layer_norm(x, w, b, [6])
        g = RNG.standard_normal(x.shape).astype(dtype)
        return [out, nk.layer_norm_grad(x, w, b, out[1], out[2], g, [6])]
    x = (RNG.standard_normal((5, 3, 2, 2)) * 3 + 1).astype(dtype)
    w, b = (RNG.standard_normal(3).astype(dtype) for _ in range(2))
    w, b = (w, b) if affine else (None, None)
    results = []
    for training in (True, False):
        rm, rv = np.zeros(3, dtype), np.ones(3, dtype)
        out = nk.batch_norm(x, rm, rv, w, b, training)
        g = RNG.standard_normal(x.shape).astype(dtype)
        results += [out, nk.batch_norm_grad(x, w, b, out[1], out[2], g, training), (rm, rv)]
    return results


@pytest.mark.parametrize("norm", ["layer", "batch"])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_norms_in_their_own_buffers_match_the_general_path(monkeypatch, norm, affine, dtype) -> None:
    from opgrad.runtime.kernels.generic import normalization as nk

    state = RNG.bit_generator.state
    fast = _norm_cases(norm, dtype, affine)
    RNG.bit_generator.state = state
    monkeypatch.setattr(nk, "_owns_result", lambda *arrays: False)
    general = _norm_cases(norm, dtype, affine)
    for f_group, g_group in zip(fast, general, strict=True):
        for f, g in zip(f_group, g_group, strict=True):
            if g is None:
                assert f is None
            else:
                _same(f, g)


# --- conv2d's channels-last rows -----------------------------------------------------------


@pytest.mark.parametrize(
    ("xshape", "wshape", "stride", "padding", "dilation"),
    [
        ((2, 16, 4, 4), (8, 16, 3, 3), 1, 1, 1),  # the CNN demo's second layer: rows by choice
        ((3, 5, 7, 6), (4, 5, 3, 2), (1, 2), (2, 1), (1, 2)),
        ((2, 3, 9, 8), (2, 3, 2, 3), 2, 0, (2, 1)),
        ((1, 4, 5, 5), (3, 4, 1, 1), 1, 0, 1),
        ((0, 4, 5, 5), (3, 4, 3, 3), 1, 1, 1),  # an empty batch
        ((2, 5, 7, 7), (3, 5, 3, 3), 1, (1, 2), 2),  # stride 1, dilated: the flipped-kernel gradient
        ((2, 6, 5, 5), (3, 6, 1, 1), 1, 1, 1),  # padding wider than the kernel: strided additions
    ],
)
@pytest.mark.parametrize("bias", [True, False])
def test_conv2d_rows_layout_matches_the_columns_layout(
    monkeypatch, xshape, wshape, stride, padding, dilation, bias
):
    from opgrad.runtime.kernels.generic import cnn

    x = RNG.standard_normal(xshape)
    w = RNG.standard_normal(wshape)
    b = RNG.standard_normal(wshape[0]) if bias else None
    args = (stride, padding, dilation, 1)
    results = {}
    for rows in (True, False):
        monkeypatch.setattr(cnn, "_rows_layout", lambda *a, rows=rows: rows)
        out = cnn.conv2d(x, w, b, *args)
        g = np.cos(np.arange(out.size)).reshape(out.shape)
        results[rows] = (
            out,
            *cnn.conv2d_grad(x, w, b, g, *args),
            *cnn.conv2d_grad(x, w, b, g, *args, (True, False, False)),
        )
    for fast, general in zip(results[True], results[False], strict=True):
        if general is None:
            assert fast is None
            continue
        assert fast.shape == general.shape and fast.dtype == general.dtype and fast.flags.c_contiguous
        np.testing.assert_allclose(fast, general, rtol=1e-12, atol=1e-12)


def test_conv2d_chooses_rows_for_many_channels_and_columns_for_few() -> None:
    from opgrad.runtime.kernels.generic import cnn

    def rows(xshape, wshape, groups=1):
        x, w = np.zeros(xshape, np.float32), np.zeros(wshape, np.float32)
        return cnn._rows_layout(x, w, cnn._conv_geometry(x, w, None, 1, 1, 1, groups))

    assert rows((64, 16, 4, 4), (32, 16, 3, 3))  # runs of 48 channel values against 4
    assert not rows((64, 1, 8, 8), (16, 1, 3, 3))  # runs of 3 against 8
    assert not rows((2, 16, 4, 4), (32, 8, 3, 3), groups=2)  # one group only


# --- max_pool2d without NaN --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kernel", "stride", "padding"), [(2, None, 0), (3, 1, 1), ((2, 3), (1, 2), (1, 1)), (1, 1, 0)]
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_pool2d_without_nan_matches_the_running_maximum(kernel, stride, padding, dtype) -> None:
    from opgrad.runtime.kernels.generic import cnn

    x = RNG.integers(1, 4, (2, 3, 7, 6)).astype(dtype)  # many ties: the first position must win
    x[0, 0, 0, :3] = -np.inf
    x[1, 2] = -np.inf  # whole windows of -inf (and of -inf padding)
    out, argmax = cnn.max_pool2d(x, kernel, stride, padding)
    kh, kw, sh, sw, ph, pw, ho, wo = cnn._pool_geometry("max_pool2d", x, kernel, stride, padding)
    xpad = cnn._pad(np, x, ph, pw, -np.inf)
    cands = [xpad[cnn._window_slice(k // kw, k % kw, sh, sw, 1, 1, ho, wo)] for k in range(kh * kw)]
    ref_out, ref_argmax = cnn._max_pool_running(np, cands, np.uint8)
    _same(out, ref_out)
    _same(argmax, ref_argmax)
    assert not np.shares_memory(out, x)


@pytest.mark.parametrize(
    ("shape", "axes"),
    [
        ((64, 16, 8, 8), (0, 2, 3)),
        ((32, 64, 64), (2,)),
        ((4, 6, 5), (0, 1)),
        ((3, 0, 4), (0, 2)),
        ((2, 9000), (1,)),
    ],
)
def test_norm_sums_match_numpy_in_float64(shape, axes) -> None:
    from opgrad.runtime.kernels.generic import normalization as nk

    a = RNG.standard_normal(shape) + 3
    b = RNG.standard_normal(shape)
    want = a.sum(axis=axes, keepdims=True)
    np.testing.assert_allclose(nk._sum_over(np, axes, a), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(
        nk._sum_over(np, axes, a, b), (a * b).sum(axis=axes, keepdims=True), atol=1e-10
    )
    np.testing.assert_allclose(nk._mean_over(np, axes, a), a.mean(axis=axes, keepdims=True), rtol=1e-12)
    a32 = a.astype(np.float32)
    got = nk._mean_over(np, axes, a32)
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, a.mean(axis=axes, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cube_as_products_is_within_one_ulp_of_pow(dtype) -> None:
    rng = np.random.default_rng(3)
    x = np.concatenate(
        [
            rng.standard_normal(4096) * 10.0 ** rng.integers(-30, 30, 4096),
            [0.0, -0.0, np.inf, -np.inf, np.nan, 1e200, -1e200, 1e-200, 2.0, -3.0],
        ]
    ).astype(dtype)
    with np.errstate(all="ignore"):
        general = x**3
        fast = elementwise.pow_(x, 3)
        fast_float = elementwise.pow_(x, 3.0)
    assert fast.dtype == general.dtype == np.dtype(dtype)
    np.testing.assert_array_max_ulp(fast, general, maxulp=1)
    np.testing.assert_array_equal(fast, fast_float)
    assert np.array_equal(np.signbit(fast), np.signbit(general))  # -0.0 stays -0.0
    exact = np.arange(-50, 50, dtype=dtype)  # small integers cube exactly either way
    _same(elementwise.pow_(exact, 3), exact**3)


def test_cube_fast_path_leaves_other_exponents_and_dtypes_to_pow() -> None:
    x = np.linspace(-2.0, 2.0, 10)  # no zero: -3 would divide by it
    with np.errstate(invalid="ignore"):  # negative x to a fractional power: NaN
        for y in (2, 2.5, 4, -3, 3.5):
            _same(elementwise.pow_(x, y), (x**y).astype(x.dtype))
    h = x.astype("float16")
    _same(elementwise.pow_(h, 3), h**3)  # float16: pow, which rounds once
    c = (x + 1j * x[::-1]).astype("complex128")
    _same(elementwise.pow_(c, 3), c**3)


def test_cube_gradients_through_pow_grad() -> None:
    x = og.tensor(np.linspace(-1.5, 1.5, 7), requires_grad=True)
    (g,) = og.grad(og.sum(x**4), x, create_graph=True)  # pow_grad computes x ** 3
    np.testing.assert_allclose(g.numpy(), 4 * x.numpy() ** 3, rtol=1e-15)
    og.sum(g).backward()
    np.testing.assert_allclose(x.grad.numpy(), 12 * x.numpy() ** 2, rtol=1e-15)


@pytest.mark.parametrize("name", ["add_grad", "subtract_grad", "multiply_grad", "divide_grad"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize(("xshape", "yshape"), [((3, 4), (3, 4)), ((3, 4), (4,)), ((1, 4), (3, 1))])
def test_binary_grad_kernels_skip_unneeded_gradients_only(name, dtype, xshape, yshape) -> None:
    """With `needs`, each wanted gradient is the array the general call (needs=None) gives,
    bit for bit; the others are None."""
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(xshape) + 2).astype(dtype)
    y = (rng.standard_normal(yshape) + 2).astype(dtype)
    out_grad = rng.standard_normal(np.broadcast_shapes(xshape, yshape)).astype(dtype)
    if dtype.startswith("complex"):
        x, y, out_grad = x + 1j, y - 0.5j, out_grad + 0.25j
    kernel = getattr(binary, name)
    args = (x, y, x / y, out_grad) if name == "divide_grad" else (x, y, out_grad)
    general = kernel(*args)
    for needs in itertools.product((True, False), repeat=2):
        got = kernel(*args, needs)
        for want, g, ref in zip(needs, got, general, strict=True):
            if want:
                _same(g, ref)
            else:
                assert g is None


def test_a_constant_operand_gets_no_gradient_and_the_rest_is_unchanged() -> None:
    """y = tanh(x * c + b) with constant c and b: x's gradient is what the kernels give
    when every gradient is computed, and no gradient shares memory with another."""
    x = og.tensor(np.linspace(-1.0, 1.0, 6), requires_grad=True)
    c, b = og.tensor(np.full(6, 0.9)), og.tensor(np.full(6, 0.1))
    w = og.tensor(np.full(6, 0.5), requires_grad=True)
    y = x
    for _ in range(4):
        y = og.tanh(og.subtract(og.divide(og.add(og.multiply(y, c), b), w), b))
    og.sum(y).backward()
    expected_x, expected_w = _chain_grads_by_hand(x.numpy(), c.numpy(), b.numpy(), w.numpy(), 4)
    np.testing.assert_allclose(x.grad.numpy(), expected_x, rtol=1e-14)
    np.testing.assert_allclose(w.grad.numpy(), expected_w, rtol=1e-14)
    assert not np.shares_memory(x.grad.numpy(), w.grad.numpy())
    node = y.grad_fn.next_edges[0][0]  # subtract: its constant b gets None
    assert node.name == "subtract_grad" and node.next_edges[1] is None


def _chain_grads_by_hand(x, c, b, w, n):
    ys = [x]
    for _ in range(n):
        ys.append(np.tanh((ys[-1] * c + b) / w - b))
    g = np.ones_like(x)
    gw = np.zeros_like(x)
    for i in range(n, 0, -1):
        g = g * (1 - ys[i] ** 2)  # through tanh, then subtract (b: nothing)
        pre = ys[i - 1] * c + b
        gw += -g * pre / (w * w)
        g = g / w * c  # through divide, add, multiply
    return g, gw
