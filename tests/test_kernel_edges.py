"""Kernel branches the op table does not reach: bad inputs (each error names op and
argument), 0-d inputs of the sort family and softmax family, and the float16 wrapper's
rarer paths (mixed dtypes, metadata inputs, list results)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import opgrad as og
import opgrad.runtime.kernels  # noqa: F401  (registers every CPU kernel)
from opgrad.runtime.grad_node import TensorMeta
from opgrad.runtime.kernels import common
from opgrad.runtime.kernels.precision import float32_inside
from opgrad.runtime.kernels.registry import lookup


def k(name):
    return lookup(name, "cpu")


def randn(*shape):
    return np.random.default_rng(0).standard_normal(shape)


I2 = np.array([[0]])
ERROR_CASES = [
    ("topk", (np.array(["a", "b"]), 1), TypeError, r"topk: x must be a bool, integer or floating tensor"),
    (
        "take_along_axis",
        (randn(3), np.array([0.0]), 0),
        TypeError,
        r"take_along_axis: indices must be an integer",
    ),
    ("take_along_axis", (randn(3), I2, 0), ValueError, r"take_along_axis: indices has shape \(1, 1\)"),
    ("scatter", (np.array(1.0), np.array([0]), np.array([1.0])), ValueError, r"scatter: x is 0-d"),
    ("scatter", (randn(3), I2, randn(1)), ValueError, r"scatter: index must be 1-D"),
    (
        "index_add",
        (np.array(1.0), np.array([0, 0]), np.array(1.0), 0),
        ValueError,
        r"index_add: x is 0-d, so index",
    ),
    ("index_add", (randn(3), I2, randn(1), 0), ValueError, r"index_add: index must be 1-D"),
    (
        "index_add",
        (randn(3, 2), np.array([0]), randn(2, 2), 0),
        ValueError,
        r"index_add: value has shape \(2, 2\)",
    ),
    ("pad", (randn(3), [1, -1]), ValueError, r"pad: pad \[1, -1\] must be non-negative"),
    ("roll", (randn(3), [1, 2]), ValueError, r"roll: shifts \[1, 2\] must be one int when axis is None"),
    (
        "roll",
        (randn(3, 2), [1, 2], [0]),
        ValueError,
        r"roll: shifts \[1, 2\] and axis \[0\] must have the same",
    ),
    ("flip", (randn(3, 2), [0, -2]), ValueError, r"flip: axis \[0, -2\] names a dimension twice"),
    ("repeat_interleave", (randn(3), -1), ValueError, r"repeat_interleave: repeats must be non-negative"),
    ("sort", (np.array(1.0), 1), ValueError, r"sort: axis 1 is out of range for a 0-d tensor"),
    ("var", (np.array([1, 2]),), TypeError, r"var: x must be a floating tensor"),
    ("std", (np.zeros((2, 0)), 1), ValueError, r"std: cannot reduce an empty dimension"),
    ("norm", (randn(3), "2"), TypeError, r"norm: p must be a number"),
    ("norm", (randn(3), -1.0), ValueError, r"norm: p must be > 0 or inf"),
    ("norm", (np.zeros((0,)), np.inf), ValueError, r"norm: x is empty \(shape \(0,\)\); the inf-norm"),
    ("nll_loss", (np.array(1.0), np.array(0)), ValueError, r"nll_loss: input is 0-d"),
    (
        "nll_loss",
        (randn(2, 3), np.array([0.0, 1.0])),
        TypeError,
        r"nll_loss: label must be an integer tensor",
    ),
    ("nll_loss", (randn(2, 3), np.array([0, 1, 2])), ValueError, r"nll_loss: label has shape \(3,\)"),
    ("nll_loss", (randn(2, 3), np.array([0, 1]), randn(2)), ValueError, r"nll_loss: weight has shape \(2,\)"),
    (
        "binary_cross_entropy_with_logits",
        (randn(2, 3), randn(2, 3), randn(2)),
        ValueError,
        r"binary_cross_entropy_with_logits: logit has shape \(2, 3\) and weight has shape \(2,\)",
    ),
    (
        "binary_cross_entropy_with_logits",
        (randn(3), randn(3), randn(2, 3)),
        ValueError,
        r"binary_cross_entropy_with_logits: weight has shape \(2, 3\), which does not broadcast",
    ),
    (
        "smooth_l1_loss",
        (randn(3), randn(3), "mean", 0.0),
        ValueError,
        r"smooth_l1_loss: delta must be a positive",
    ),
    ("cross_entropy", (np.array(1.0), np.array(0)), ValueError, r"cross_entropy: input is 0-d"),
    ("dropout", (np.array([1, 2]), 0.5), TypeError, r"dropout: x must be a floating tensor"),
    ("one_hot", (np.array([0]), 0), ValueError, r"one_hot: num_classes must be positive, got 0"),
    ("embedding", (np.array([0]), randn(3)), ValueError, r"embedding: weight must be 2-D"),
    ("einsum", (randn(2), randn(2), 3), TypeError, r"einsum: equation must be a string"),
    (
        "einsum",
        (randn(2), randn(2), "i1,i->i"),
        ValueError,
        r"einsum: subscripts must be letters; x has 'i1'",
    ),
    (
        "scaled_dot_product_attention",
        (randn(4), randn(2, 4), randn(2, 4)),
        ValueError,
        r"scaled_dot_product_attention: query must be at least 2-D",
    ),
    (
        "scaled_dot_product_attention",
        (randn(2, 4), np.ones((2, 4), int), randn(2, 4)),
        TypeError,
        r"scaled_dot_product_attention: key must be a floating tensor",
    ),
    (
        "scaled_dot_product_attention",
        (randn(2, 4), randn(2, 4), randn(2, 4), np.ones((2, 2), int)),
        TypeError,
        r"scaled_dot_product_attention: mask must be a bool or floating tensor",
    ),
    ("hardtanh", (randn(3), 1.0, -1.0), ValueError, r"hardtanh: min \(1.0\) must not exceed max \(-1.0\)"),
    ("prelu", (randn(2, 3), randn(3, 1)), ValueError, r"prelu: weight must be 1-D \(\[1\] or \[C\]\)"),
    ("celu", (randn(3), 0.0), ValueError, r"celu: alpha must be nonzero, got 0.0"),
    ("glu", (np.array(1.0),), ValueError, r"glu: x is 0-d"),
    ("argmax", (np.zeros((0, 2)),), ValueError, r"argmax: x is empty \(shape \(0, 2\)\)"),
    ("concat", ([np.array(1.0), np.array(2.0)], 0), ValueError, r"concat: x\[0\] is 0-d"),
    ("split", (np.array(1.0), 1, 0), ValueError, r"split: x is 0-d"),
    (
        "conv2d",
        (randn(1, 1, 3, 3), randn(2, 1, 2, 2), randn(3)),
        ValueError,
        r"conv2d: bias must have shape \(2,\)",
    ),
    (
        "layer_norm",
        (randn(2, 3), None, None, [3], -1.0),
        ValueError,
        r"layer_norm: epsilon must be a non-negative",
    ),
    (
        "batch_norm",
        (randn(3), randn(3), randn(3)),
        ValueError,
        r"batch_norm: x must have a batch and a channel axis",
    ),
    (
        "group_norm",
        (randn(3), None, None, 1),
        ValueError,
        r"group_norm: x must have a batch and a channel axis",
    ),
    ("linear", (randn(2, 3), randn(3)), ValueError, r"linear: weight must be 2-D"),
    (
        "linear",
        (randn(2, 3), randn(4, 2)),
        ValueError,
        r"linear: x has shape \(2, 3\) and weight has shape \(4, 2\)",
    ),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)])
def test_bad_inputs_raise_naming_op_and_argument(case):
    op, args, exc, pattern = case
    with pytest.raises(exc, match=pattern):
        k(op)(*args)


# --- 0-d inputs -----------------------------------------------------------------------------------


def test_the_sort_family_on_0d():
    x, g = np.array(2.5), np.array(3.0)
    for op in ("sort", "topk"):
        args = (x, 1) if op == "topk" else (x,)
        values, indices = k(op)(*args)
        assert values.shape == () and values == 2.5 and indices.shape == () and indices == 0
        assert not np.shares_memory(values, x)
        grad = k(op + "_grad")(x, indices, g, *args[1:])
        assert grad.shape == () and grad == 3.0 and not np.shares_memory(grad, g)
    assert k("argsort")(x).shape == () and k("argsort")(x, -1, True) == 0


def test_the_softmax_family_on_0d():
    x, g = np.array(2.5), np.array(3.0)
    assert k("softmax")(x) == 1.0 and k("softmax_grad")(np.array(1.0), g) == 0.0
    assert k("log_softmax")(x) == 0.0 and k("log_softmax_grad")(np.array(0.0), g) == 0.0


def test_var_and_std_of_one_entry_have_nan_gradients():
    x = np.array([[1.0], [2.0]])
    for op, extra in (("var_grad", ()), ("std_grad", (np.zeros((2,)),))):
        with np.errstate(all="ignore"):
            g = k(op)(x, *extra, np.ones(2), 1)
        assert g.shape == (2, 1) and np.all(np.isnan(g))


def test_axis_helpers_reject_what_they_should():
    assert common.as_int_list(np.array([1, 2]), "op", "axis") == [1, 2]
    with pytest.raises(TypeError, match=r"op: axis must contain only ints, got float 1.5"):
        common.as_int_list([1, 1.5], "op", "axis")
    with pytest.raises(ValueError, match=r"op: axis \[1\] is out of range for a 0-d tensor"):
        common.normalize_axis([1], 0, "op")
    with pytest.raises(
        ValueError, match=r"unbroadcast: gradient of shape \(3,\) cannot reduce to shape \(2, 3\)"
    ):
        common.unbroadcast(np.ones(3), (2, 3), np.float64)
    out = common.unbroadcast(np.ones((2, 3), np.float32), (2, 3), np.float64)
    assert out.dtype == np.float64 and out.shape == (2, 3)


def test_erf_without_scipy_matches_math_erf():
    import math

    x = np.array([-7.0, -1.3, -1e-8, 0.0, 0.4, 2.2, 5.99, 6.0, np.nan], np.float32)
    out = common.erf_chebyshev(x)
    assert out.dtype == np.float32
    want = np.array([math.erf(v) if not math.isnan(v) else np.nan for v in x.astype(np.float64)])
    np.testing.assert_allclose(out.astype(np.float64), want, rtol=1e-6, atol=1e-7)


# --- float32_inside -----------------------------------------------------------------------------


def test_float32_inside_computes_float16_in_float32_and_rounds_once():
    seen = []

    def fn(a, b, meta, pair=False):
        seen.append((a.dtype, b.dtype, meta.dtype, meta.shape, meta.ndim, meta.size))
        r = a * b
        return [r, r.sum()] if pair else r

    wrapped = float32_inside(fn)
    h = np.full(3, 300.0, np.float16)
    meta = TensorMeta.of(np.zeros((2, 3), np.float16))
    out = wrapped(h, h, meta)
    assert out.dtype == np.float16 and out[0] == np.float16(90000.0)  # inf: the result overflows
    assert seen[-1] == (np.float32, np.float32, np.float32, (2, 3), 2, 6)
    outs = wrapped(h / 300, h / 300, meta, pair=True)
    assert [o.dtype for o in outs] == [np.float16, np.float16] and outs[1] == 3.0
    # float16 mixed with float32: NumPy promotes, the wrapper leaves the call alone
    mixed = wrapped(h, np.ones(3, np.float32), meta)
    assert mixed.dtype == np.float32 and seen[-1][:2] == (np.float16, np.float32)
    # keyword array arguments are cast too
    out = wrapped(h, b=h, meta=meta)
    assert out.dtype == np.float16 and seen[-1][:2] == (np.float32, np.float32)
    # not float16: called as is
    wrapped(np.ones(3), np.ones(3), meta)
    assert seen[-1][:2] == (np.float64, np.float64)


def test_edge_shapes_of_reductions_and_shape_kernels():
    x = np.array(2.0)
    assert k("transpose")(x, []).shape == () and k("transpose_grad")(x, np.array(3.0), []) == 3.0
    assert np.array_equal(k("prod_grad")(np.zeros((2, 0)), np.ones(2), 1), np.zeros((2, 0)))
    with np.errstate(all="ignore"):
        for op, extra in (("var_double_grad", ()), ("std_double_grad", (np.zeros(2),))):
            a, b = k(op)(np.array([[1.0], [2.0]]), *extra, np.ones(2), np.ones((2, 1)), 1)
            assert a.shape == (2, 1) and b.shape == (2,) and np.all(np.isnan(a)) and np.all(np.isnan(b))


_P = np.full((2, 3), 1 / 3)
_X, _Y = randn(2, 3), randn(3, 4)


@pytest.mark.parametrize(
    ("name", "args", "error", "message"),
    [
        (
            "softmax_vjp",
            (_P, randn(2, 1)),
            ValueError,
            r"softmax_vjp: g has shape \(2, 1\); expected p's shape",
        ),
        ("softmax_vjp", (_P, _P.astype(np.float32)), TypeError, r"softmax_vjp: g has dtype float32"),
        ("softmax_vjp", (np.ones((2, 3), int), np.ones((2, 3), int)), TypeError, r"softmax_vjp: p must be"),
        ("softmax_vjp_dp", (_P, _P, randn(3)), ValueError, r"softmax_vjp_dp: r has shape \(3,\)"),
        (
            "matmul_xg",
            (_X, _Y, randn(2, 1)),
            ValueError,
            r"matmul_xg: g has shape \(2, 1\); expected .* \(2, 4\)",
        ),
        ("matmul_yg", (_X, _Y, randn(4, 2)), ValueError, r"matmul_yg: g has shape \(4, 2\)"),
        ("matmul_yg", (_X, randn(2, 4), randn(2, 4)), ValueError, r"matmul_yg: x has shape \(2, 3\) and y"),
        ("matmul_xg", (_X, _Y.astype(np.float32), randn(2, 4)), TypeError, r"matmul_xg: y has dtype float32"),
        ("matmul_xg", (_X, _Y, randn(2, 4).astype(np.float32)), TypeError, r"matmul_xg: g has dtype float32"),
        ("matmul_jvp", (_X, _Y, randn(2, 1), _Y), ValueError, r"matmul_jvp: a has shape \(2, 1\)"),
        ("matmul_jvp", (_X, _Y, _X, randn(3, 1)), ValueError, r"matmul_jvp: b has shape \(3, 1\)"),
    ],
)
def test_double_grad_helpers_refuse_what_would_give_a_gradient_of_the_wrong_shape(name, args, error, message):
    # before: g of shape (2, 1) broadcast silently, so matmul_xg returned x's gradient summed
    # over a wrong g, softmax_vjp a (2, 3) result from a (2, 1) g, and dtypes mixed freely
    with pytest.raises(error, match=message):
        k(name)(*args)


def test_double_grad_helpers_accept_what_matmul_gives_them():
    for x, y, out in [
        (randn(3), randn(3), ()),
        (randn(3), randn(3, 4), (4,)),
        (randn(5, 2, 3), randn(3), (5, 2)),
    ]:
        g = randn(*out)
        np.testing.assert_allclose(k("matmul_xg")(x, y, g), k("matmul_grad")(x, y, g)[0])
        np.testing.assert_allclose(k("matmul_yg")(x, y, g), k("matmul_grad")(x, y, g)[1])
    x, y = randn(2, 3, 4), randn(5, 4)
    g = randn(2, 3, 5)  # transpose_y: (2, 3, 4) @ (5, 4)^T
    assert k("matmul_xg")(x, y, g, False, True).shape == x.shape
    assert k("matmul_yg")(x, y, g, False, True).shape == y.shape


@pytest.mark.parametrize("beta", [1.0, 2.0])
def test_softplus_at_the_threshold_uses_the_smooth_branch_in_every_derivative(beta):
    # beta * x == threshold exactly is on the logaddexp side (the linear side is `>`), so the
    # forward, the gradient and both second derivatives all use the smooth formula there
    threshold = 0.5
    xa = np.array([threshold / beta, threshold / beta + 1.0])  # on the boundary, linear
    x = og.tensor(xa, requires_grad=True)
    g_out = og.tensor(np.array([1.5, 1.5]), requires_grad=True)
    y = og.softplus(x, beta, threshold)
    s = 1.0 / (1.0 + np.exp(-beta * xa[0]))
    np.testing.assert_allclose(y.numpy(), [np.logaddexp(0.0, beta * xa[0]) / beta, xa[1]])
    (gx,) = og.grad([y], [x], [g_out], create_graph=True)
    np.testing.assert_allclose(gx.numpy(), [1.5 * s, 1.5])
    ggx = og.tensor(np.array([2.0, 3.0]))
    dx, dg = og.grad([gx], [x, g_out], [ggx])
    np.testing.assert_allclose(dx.numpy(), [2.0 * 1.5 * beta * s * (1.0 - s), 0.0])
    np.testing.assert_allclose(dg.numpy(), [2.0 * s, 3.0])


@pytest.mark.parametrize("op", ["var", "std"])
def test_unbiased_spread_of_one_element_is_nan_without_a_numpy_warning(op):
    # N - 1 == 0: the kernels answer NaN themselves rather than dividing 0 by 0
    x = og.tensor(np.array([[3.0], [5.0]]), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = getattr(og, op)(x, axis=1)
        assert np.isnan(out.numpy()).all() and out.shape == (2,)
        out.sum().backward()
    assert np.isnan(x.grad.numpy()).all()
    np.testing.assert_array_equal(getattr(og, op)(x, axis=1, unbiased=False).numpy(), [0.0, 0.0])


@pytest.mark.parametrize("arg", ["min", "max"])
def test_clip_kernel_refuses_a_bound_that_is_not_a_number(arg):
    x = np.array([1.0, 5.0])
    with pytest.raises(TypeError, match=f"clip: {arg} must be a number or None, got str '3'"):
        k("clip")(x, **{arg: "3"})
    np.testing.assert_array_equal(k("clip")(x, **{arg: 3.0}), [1.0, 3.0] if arg == "max" else [3.0, 5.0])


@pytest.mark.parametrize("dtype", ["int64", "uint8", "bool"])
def test_fill_kernel_takes_an_integral_float_into_an_integer_array_but_not_a_fraction(dtype):
    x = np.zeros(3, dtype)
    np.testing.assert_array_equal(k("fill")(x, 1.0), np.ones(3, dtype))
    with pytest.raises(TypeError, match=rf"fill: value 1.5 is not an integer, but x has dtype {dtype}"):
        k("fill")(x, 1.5)
    np.testing.assert_array_equal(k("fill")(np.zeros(2), 1.5), [1.5, 1.5])  # a float array takes it


def test_index_add_on_a_0d_x_names_the_0d_axis_range():
    with pytest.raises(
        ValueError, match=r"index_add: axis 1 is out of range for a 0-d tensor; expected 0, -1"
    ):
        k("index_add")(np.array(1.0), np.array([0]), np.array(2.0), 1)
    assert k("index_add")(np.array(1.0), np.array([0]), np.array(2.0), -1) == 3.0


def test_pad_refuses_more_pairs_than_dimensions():
    # two pairs for a 1-D x: len(pad) // 2 > ndim
    with pytest.raises(
        ValueError, match=r"pad: pad \[1, 1, 1, 1\] must hold \(before, after\) pairs for at most the 1"
    ):
        k("pad")(randn(3), [1, 1, 1, 1])
    assert k("pad")(randn(3, 2), [1, 1, 1, 1]).shape == (5, 4)


@pytest.mark.parametrize("overwrite", [True, False])
def test_scatter_with_an_empty_index_passes_the_gradient_through(overwrite):
    x = og.tensor(randn(3, 2), requires_grad=True)
    updates = og.tensor(np.zeros((0, 2)), requires_grad=True)
    out = og.scatter(x, og.tensor(np.zeros(0, np.int64)), updates, overwrite)
    np.testing.assert_array_equal(out.numpy(), x.numpy())
    g = randn(3, 2) + 1
    out.backward(og.tensor(g))
    np.testing.assert_array_equal(x.grad.numpy(), g)
    assert updates.grad.shape == (0, 2)


def test_elementwise_pow_derivatives_in_y_where_x_is_zero_or_negative():
    # x == 0: 0 (the limit); x < 0: NaN; computed without a NumPy warning (log of a masked 0)
    xa, ya = np.array([0.0, -1.5, 2.0]), np.array([2.0, 3.0, 0.5])
    x, y = og.tensor(xa, requires_grad=True), og.tensor(ya, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gx, gy = og.grad([og.elementwise_pow(x, y).sum()], [x, y], create_graph=True)
        (hy,) = og.grad([gx.sum()], [y])  # d2/dx dy = x**(y-1) * (1 + y log x)
    np.testing.assert_allclose(gx.numpy(), ya * xa ** (ya - 1))
    np.testing.assert_allclose(gy.numpy(), [0.0, np.nan, 2.0**0.5 * np.log(2.0)])
    np.testing.assert_allclose(hy.numpy(), [0.0, np.nan, 2.0**-0.5 * (1 + 0.5 * np.log(2.0))])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_stable_sigmoid_is_accurate_everywhere_and_keeps_the_dtype(dtype):
    """The shared sigmoid (sigmoid, silu, swish, glu, log_sigmoid's gradient, mish): relative
    error of a few ulps against an extended-precision reference over the whole range, exact
    limits at +-inf, NaN through, no overflow warning, the input's dtype out."""
    x = np.concatenate([np.linspace(-700, 700, 20001), [-np.inf, np.inf, 0.0]]).astype(dtype)
    finite = np.isfinite(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = common.stable_sigmoid(np, x)
    assert got.dtype == dtype
    ref = 1 / (1 + np.exp(-x[finite].astype(np.longdouble)))
    keep = ref > np.finfo(dtype).tiny  # below that the result underflows to 0 in every formula
    rel = np.abs(got[finite][keep] - ref[keep]) / ref[keep]
    assert rel.max() <= 4 * np.finfo(dtype).eps
    assert got[-3] == 0 and got[-2] == 1 and got[-1] == 0.5
    assert np.isnan(common.stable_sigmoid(np, np.array([np.nan], dtype=dtype)))[0]
