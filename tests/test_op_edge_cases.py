"""Checks that the OpInfo tables (tests/op_samples*.py) cannot express:
topk's gradient through its values, gradients at zeros and ties, and bad-input errors."""

from __future__ import annotations

import re

import numpy as np
import pytest
from finite_differences import central

import opgrad as og
from op_samples import OPS


@pytest.mark.parametrize("i", range(5))
def test_topk_values_gradcheck(i):
    sample = OPS["topk"].sample_list()[i]
    x = og.tensor(sample.args[0], requires_grad=True)
    rest = sample.args[1:]
    assert og.testing.gradcheck(lambda t: og.topk(t, *rest, **sample.kwargs)[0], [x])
    values, indices = og.topk(x, *rest, **sample.kwargs)
    assert values.requires_grad and not indices.requires_grad and indices.dtype == np.int64


def test_cumprod_gradient_at_zeros_matches_the_product_rule():
    xa = np.array([2.0, 0.0, 3.0, 0.0, 5.0])
    x = og.tensor(xa, requires_grad=True)
    og.cumprod(x, 0).sum().backward()
    expected = [sum(np.prod(np.delete(xa[: i + 1], k)) for i in range(k, len(xa))) for k in range(len(xa))]
    np.testing.assert_allclose(x.grad.numpy(), expected)


@pytest.mark.parametrize("dim", [0, 1, None])
def test_cumprod_second_derivatives_at_zeros(dim):
    # zeros take the kernel's slot-by-slot path (the closed form divides by x)
    xa = np.array([[2.0, 0.0, 3.0, -1.5], [0.5, 1.2, 0.0, 0.0]])
    x = og.tensor(xa, requires_grad=True)
    assert og.testing.gradgradcheck(lambda t: og.cumprod(t, dim=dim), [x])


def test_cumprod_double_backward_at_a_zero_matches_the_analytic_value():
    # y = cumprod([a, b, c]); L = sum(y) = a + ab + abc; dL/da = 1 + b + bc; d2L/dadb = 1 + c
    x = og.tensor(np.array([2.0, 0.0, 3.0]), requires_grad=True)
    (g,) = og.grad([og.cumprod(x, 0).sum()], [x], create_graph=True)
    np.testing.assert_allclose(g.numpy(), [1.0, 2.0 + 6.0, 0.0])
    (h,) = og.grad([g[0]], [x])  # row a of the Hessian: [0, 1 + c, b]
    np.testing.assert_allclose(h.numpy(), [0.0, 4.0, 0.0])


@pytest.mark.parametrize("axis, keepdim", [(1, False), (0, True), ((0, 2), False)])
def test_prod_second_derivatives_over_some_axes_at_zeros(axis, keepdim):
    # the op table's gradgrad sample reduces every axis; these keep some, one slice with a zero
    xa = np.random.default_rng(1).uniform(0.5, 1.5, (2, 3, 2))
    xa[1, 2, 0] = 0.0
    x = og.tensor(xa, requires_grad=True)
    assert og.testing.gradgradcheck(lambda t: og.prod(t, axis, keepdim), [x])


def test_matmul_of_a_0d_tensor_is_refused_with_both_shapes():
    with pytest.raises(ValueError, match=r"matmul: x has shape \(\) and y has shape \(2,\); expected both"):
        og.matmul(og.tensor(1.0), og.ones((2,)))
    with pytest.raises(ValueError, match=r"matmul: x has shape \(3,\) and y has shape \(\)"):
        og.matmul(og.ones((3,)), og.tensor(1.0))


@pytest.mark.parametrize(
    "x, y, kw, message",
    [
        (
            (2, 3),
            (2, 4),
            {"transpose_y": True},
            "x has shape (2, 3) and y has shape (2, 4) (after transpose_y);",
        ),
        (
            (3, 2),
            (4, 5),
            {"transpose_x": True},
            "x has shape (3, 2) (after transpose_x) and y",
        ),
        ((2, 3), (4,), {"transpose_y": True}, "x has shape (2, 3) and y has shape (4,); expected"),
        ((3,), (4, 5), {"transpose_x": True}, "x has shape (3,) and y has shape (4, 5); expected"),
    ],
)
def test_matmul_shape_error_says_which_operand_was_transposed(x, y, kw, message):
    # a 2-D operand is transposed first (the message says so); a 1-D one ignores the flag
    with pytest.raises(ValueError, match=re.escape(f"matmul: {message}")):
        og.matmul(og.ones(x), og.ones(y), **kw)


def test_cross_entropy_ignore_index_excluded_from_mean():
    logits = og.tensor(np.random.default_rng(0).standard_normal((4, 3)), requires_grad=True)
    label = og.tensor(np.array([0, -100, 2, -100]))
    full = og.cross_entropy(logits, label)
    kept = og.cross_entropy(og.tensor(logits.numpy()[[0, 2]]), og.tensor(np.array([0, 2])))
    np.testing.assert_allclose(full.numpy(), kept.numpy())
    full.backward()
    np.testing.assert_array_equal(logits.grad.numpy()[[1, 3]], 0.0)
    assert np.isnan(og.cross_entropy(logits, og.tensor(np.array([-100] * 4))).item())


def test_scatter_overwrite_keeps_the_last_update_and_its_gradient():
    x = og.tensor(np.zeros((3, 2)), requires_grad=True)
    updates = og.tensor(np.arange(8.0).reshape(4, 2), requires_grad=True)
    out = og.scatter(x, og.tensor(np.array([2, 1, 0, 1])), updates)
    np.testing.assert_array_equal(out.numpy(), [[4, 5], [6, 7], [0, 1]])
    out.sum().backward()
    np.testing.assert_array_equal(updates.grad.numpy()[:, 0], [1, 0, 1, 1])
    np.testing.assert_array_equal(x.grad.numpy(), 0.0)


def _t(*shape: int) -> og.Tensor:
    return og.tensor(np.ones(shape))


ERRORS = [
    (lambda: og.pad(_t(2, 3), [1]), ValueError, r"pad: pad \[1\] must hold \(before, after\) pairs"),
    (lambda: og.pad(_t(2, 3), [3, 0], "reflect"), ValueError, r"pad: reflect padding of \(3, 0\)"),
    (lambda: og.pad(_t(2, 3), [1, 1], "wrap"), ValueError, r"pad: mode must be one of"),
    (lambda: og.topk(_t(2, 3), 4), ValueError, r"topk: k 4 is out of range"),
    (lambda: og.glu(_t(2, 3)), ValueError, r"glu: x has size 3 along axis 1; expected an even size"),
    (
        lambda: og.masked_fill(_t(2, 3), og.tensor([1, 0, 1]), 0.0),
        TypeError,
        r"masked_fill: mask must be a bool",
    ),
    (lambda: og.masked_fill(_t(3), og.tensor(np.ones((2, 3), bool)), 0.0), ValueError, r"masked_fill: mask"),
    (lambda: og.norm(_t(3), p=0.0), ValueError, r"norm: p must be > 0 or inf"),
    (lambda: og.nll_loss(_t(2, 3), og.tensor([0, 3])), ValueError, r"nll_loss: label contains 3"),
    (lambda: og.prelu(_t(2, 3), _t(2)), ValueError, r"prelu: weight has shape \(2,\)"),
    (lambda: og.scatter(_t(3, 2), og.tensor([0, 1]), _t(3, 2)), ValueError, r"scatter: updates has shape"),
    (lambda: og.kl_div(_t(3), _t(3), "avg"), ValueError, r"kl_div: reduction must be one of"),
    (
        lambda: og.cross_entropy(_t(2, 3), og.tensor([0, 1]), label_smoothing=1.5),
        ValueError,
        r"label_smoothing",
    ),
    (lambda: og.tril(_t(3)), ValueError, r"tril: x has shape \(3,\); expected at least 2 dimensions"),
]


@pytest.mark.parametrize("make, exc, pattern", ERRORS)
def test_bad_inputs_raise_naming_op_and_argument(make, exc, pattern):
    with pytest.raises(exc, match=pattern):
        make()


LOSSES = {
    "cross_entropy": lambda r: og.cross_entropy(_t(2, 3), og.tensor([0, 1]), reduction=r),
    "mse_loss": lambda r: og.mse_loss(_t(3), _t(3), r),
    "nll_loss": lambda r: og.nll_loss(_t(2, 3), og.tensor([0, 1]), reduction=r),
    "binary_cross_entropy_with_logits": lambda r: og.binary_cross_entropy_with_logits(_t(3), _t(3), None, r),
    "l1_loss": lambda r: og.l1_loss(_t(3), _t(3), r),
    "smooth_l1_loss": lambda r: og.smooth_l1_loss(_t(3), _t(3), r),
    "kl_div": lambda r: og.kl_div(_t(3), _t(3), r),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_every_loss_refuses_an_unknown_reduction(name):
    # without the check an unknown name would fall through to the mean
    with pytest.raises(ValueError, match=rf"^{name}: reduction must be .*got 'avg'$"):
        LOSSES[name]("avg")


@pytest.mark.parametrize(
    "index, value_shape",
    [((slice(0, 2),), (2,)), ((slice(0, 2),), (1,)), ((np.array([0, 2]),), (2,)), ((1,), ())],
    ids=["slice", "slice-broadcast", "advanced", "int"],
)
def test_setitem_second_order(index, value_shape):
    # the value's gradient sums over broadcast axes only; with none, sum([]) would mean all axes
    rng = np.random.default_rng(1)

    def fn(x, v):
        y = x * 1
        y[index[0]] = v * v
        return y

    x = og.tensor(rng.standard_normal(3), requires_grad=True)
    v = og.tensor(rng.standard_normal(value_shape), requires_grad=True)
    assert og.testing.gradgradcheck(fn, [x, v])


def test_setitem_create_graph_gradient_keeps_the_value_dtype():
    v = og.tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    y = og.zeros((3,), dtype="float64")
    y[0:2] = v * v
    (g,) = og.grad((y * y).sum(), [v], create_graph=True)
    assert g.dtype == np.float32 and g.requires_grad
    np.testing.assert_allclose(g.numpy(), 4 * np.array([1.0, 8.0]))


@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_batchmean_of_a_0d_input_divides_by_one(log_target):
    # a 0-d input has no batch axis: batchmean is the loss itself (as PyTorch), never loss / 0
    x = og.tensor(-0.7, dtype="float64", requires_grad=True)
    label = og.tensor(-0.2 if log_target else 0.4, dtype="float64", requires_grad=True)
    lv = label.numpy()
    p, logp = (np.exp(lv), lv) if log_target else (lv, np.log(lv))
    np.testing.assert_allclose(og.kl_div(x, label, "batchmean", log_target).numpy(), p * (logp - -0.7))
    assert og.testing.gradcheck(lambda a, b: og.kl_div(a, b, "batchmean", log_target), [x, label])


PIECEWISE = {
    "hardswish": lambda x: x * np.clip(x + 3, 0, 6) / 6,
    "hardsigmoid": lambda x: np.clip(x / 6 + 0.5, 0, 1),
    "hardtanh": lambda x: np.clip(x, -1.0, 1.0),
    "relu": lambda x: np.maximum(x, 0),
}


@pytest.mark.parametrize("name", sorted(PIECEWISE))
def test_piecewise_activations_on_every_piece(name):
    # the op table's random samples can miss a piece (none of hardswish's reached x > 3)
    xa = np.array([-4.6, -3.4, -2.2, -0.6, 0.3, 1.7, 2.8, 3.3, 4.9])
    x = og.tensor(xa, requires_grad=True)
    fn = getattr(og, name)
    np.testing.assert_allclose(fn(x).numpy(), PIECEWISE[name](xa))
    assert og.testing.gradcheck(fn, [x])
    assert og.testing.gradgradcheck(fn, [x])


def test_transpose_takes_negative_perm_entries_and_refuses_out_of_range_ones():
    xa = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(og.transpose(og.tensor(xa), [-1, 0]).numpy(), xa.T)
    np.testing.assert_array_equal(og.transpose(og.tensor(xa), [1, -2]).numpy(), xa.T)  # -ndim itself
    for perm in ([0, 2], [0, -3], [1, 1]):  # 2 must not wrap to 0 (nor -3 to 1)
        with pytest.raises(
            ValueError, match=rf"transpose: perm \[{perm[0]}, {perm[1]}\] is not a permutation"
        ):
            og.transpose(og.tensor(xa), perm)


def test_unsqueeze_takes_the_lowest_position_of_the_result():
    x = og.ones((2, 3))
    assert og.unsqueeze(x, -3).shape == (1, 2, 3)  # -ndim of the 3-d result
    with pytest.raises(ValueError, match=r"unsqueeze: axis -4 is out of range .* entries in \[-3, 3\)"):
        og.unsqueeze(x, -4)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_scans_of_a_0d_tensor_keep_it_0d_along_dim_0_and_flatten_without_a_dim(op):
    x = og.tensor(3.0, dtype="float64", requires_grad=True)
    along = getattr(og, op)(x, 0)
    assert along.shape == () and along.item() == 3.0
    assert getattr(og, op)(x).shape == (1,)  # no dim: the flattened input, as NumPy
    assert og.testing.gradcheck(lambda t: getattr(og, op)(t, 0), [x])


@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_second_derivatives_both_forms(approximate):
    # the op table's gradgrad samples are the exact form's only
    x = og.tensor(np.linspace(-3.1, 2.9, 7), requires_grad=True)
    assert og.testing.gradgradcheck(lambda t: og.gelu(t, approximate), [x])


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_extremum_second_derivatives_over_one_axis_with_ties(op, axis):
    # count and sum must line up whichever axis is reduced (finite differences need no ties);
    # a tie splits the gradient evenly
    distinct = og.tensor(np.array([[0.3, -1.2, 2.5], [1.7, 1.1, -0.4]]), requires_grad=True)
    assert og.testing.gradgradcheck(lambda t: getattr(og, op)(t, axis), [distinct])
    xa = np.array([[0.3, -1.2, 2.5], [1.7, 1.7, -0.4], [-0.4, 0.0, -0.4]])
    x = og.tensor(xa, requires_grad=True)
    (g,) = og.grad([getattr(og, op)(x, 1).sum()], [x])
    hit = xa == getattr(np, op)(xa, axis=1, keepdims=True)
    np.testing.assert_allclose(g.numpy(), hit / hit.sum(axis=1, keepdims=True))


# --- found by the long fuzzing profile (nox -s fuzz), 2026-11-27 -----------------------------------


def test_zero_d_results_of_signbit_and_searchsorted_are_arrays():
    # a NumPy scalar inside a Tensor broke .numpy() copies, pickling and device moves
    out = og.signbit(og.tensor(np.array(-2)))
    assert type(out._data) is np.ndarray and out.shape == () and bool(out.item())
    found = og.searchsorted(og.tensor([1.0, 2.0, 3.0]), og.tensor(2.5))
    assert type(found._data) is np.ndarray and found.shape == () and found.item() == 2


@pytest.mark.parametrize("name", ["cummax", "cummin", "logcumsumexp"])
def test_a_scan_of_a_zero_d_tensor_refuses_an_axis_it_does_not_have(name):
    # before: the forward accepted axis -2 and the backward failed in take_along_axis
    x = og.tensor(0.5, dtype="float64", requires_grad=True)
    with pytest.raises(
        ValueError, match=rf"{name}: axis -2 is out of range for a 0-d tensor; expected 0 or -1"
    ):
        getattr(og, name)(x, -2)
    assert getattr(og, name)(x, -1) is not None


def test_conv3d_refuses_a_zero_size_kernel_cleanly():
    with pytest.raises(ValueError, match=r"conv3d: weight has shape \(2, 2, 0, 2, 2\); expected a kernel"):
        og.conv3d(og.zeros((1, 4, 5, 4, 4)), og.zeros((2, 2, 0, 2, 2)), groups=2)


def test_unfold_of_an_empty_batch_is_empty():
    out = og.unfold(og.zeros((0, 3, 4, 5)), [2, 3])
    assert out.shape == (0, 3 * 2 * 3, 3 * 3)


def test_matrix_power_of_one_does_not_share_memory_with_its_input():
    # NumPy returns x itself for n == 1: the output then aliased the input (an in-place write
    # into the result changed x, with no view relation recorded)
    x = og.tensor(np.eye(2))
    y = og.matrix_power(x, 1)
    assert not np.shares_memory(x.numpy(), y.numpy())
    y.add_(1.0)
    np.testing.assert_array_equal(x.numpy(), np.eye(2))


def test_a_triangular_solve_with_an_infinite_entry_gives_nan_both_ways():
    # before: the forward gave numbers and the backward raised "x is singular" (its transposed
    # triangle made LAPACK's pivoting fail); a non-finite matrix is not singular: NaN, as PyTorch
    x = np.triu(np.eye(3) * 2 + 0.1)
    x[0, 1] = np.inf
    xt = og.tensor(x, requires_grad=True)
    y = og.tensor(np.ones((3, 2)), requires_grad=True)
    og.triangular_solve(xt, y).sum().backward()
    assert np.isnan(y.grad.numpy()).any() and xt.grad.shape == (3, 3)
    with pytest.raises(ValueError, match="solve: a is singular"):
        og.solve(og.tensor(np.zeros((2, 2))), og.tensor(np.ones((2, 1))))


@pytest.mark.parametrize("n", [33, 50, -40])
def test_matrix_power_gradient_of_a_large_power_against_finite_differences(n):
    """Beyond 32 the gradient is the block matrix's power (O(log n) products), not the sum of
    n terms; both give the same values (checked here against finite differences, float64,
    a batch of two, a negative power through the inverse)."""
    rng = np.random.default_rng(4)
    base = np.eye(3) + rng.standard_normal((2, 3, 3)) * 0.03  # powers stay of order 1
    w = rng.standard_normal((2, 3, 3))

    def loss(v):
        return float(np.sum(np.linalg.matrix_power(v, n) * w))

    x = og.tensor(base, requires_grad=True)
    og.sum(og.matrix_power(x, n) * og.tensor(w)).backward()
    fd = central(loss, base)
    np.testing.assert_allclose(x.grad.numpy(), fd, rtol=1e-5, atol=1e-8)


def test_matrix_power_block_gradient_equals_the_term_by_term_sum(monkeypatch):
    from opgrad.runtime.kernels.generic import matrix as kernels

    rng = np.random.default_rng(5)
    a, g = rng.standard_normal((2, 4, 4)) * 0.3, rng.standard_normal((2, 4, 4))
    for n in (1, 2, 5, 33, 40):
        monkeypatch.setattr(kernels, "_POWER_SUM_MAX", 10**9)
        summed = kernels._power_grad(np, a, g, n)
        monkeypatch.setattr(kernels, "_POWER_SUM_MAX", 0)
        block = kernels._power_grad(np, a, g, n)
        np.testing.assert_allclose(block, summed, rtol=1e-12, atol=1e-14)


def test_matrix_power_backward_of_a_huge_power_keeps_no_list_of_powers():
    """The gradient of x^n once kept all n powers: n = 200,000 held ~40 MB of 3x3 matrices
    (and a million ran out of memory in the fuzzer). Now a few matrices of twice the size."""
    import tracemalloc

    x = og.tensor(np.eye(3) * 0.999 + 0.0005, requires_grad=True)
    tracemalloc.start()
    try:
        og.sum(og.matrix_power(x, 200_000)).backward()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, peak
    assert np.isfinite(x.grad.numpy()).all()


def test_gather_nd_of_zero_size_rows_has_a_gradient():
    """Found by the long fuzz profile: x (3, 4, 0) gathered by (3, 2) rows gave its backward
    `cannot reshape array of size 0` (scatter_nd_add reshaped its updates with -1)."""
    x = og.tensor(np.zeros((3, 4, 0)), requires_grad=True)
    index = og.tensor(np.array([[0, 1], [2, 3], [1, 0]]))
    out = og.gather_nd(x, index)
    assert out.shape == (3, 0)
    og.sum(out).backward()
    assert x.grad.shape == (3, 4, 0)
    added = og.scatter_nd_add(og.zeros((3, 4, 0)), index, og.zeros((3, 0)))
    assert added.shape == (3, 4, 0)


@pytest.mark.parametrize(
    "call",
    [
        lambda x, w: og.nn.functional.conv1d(x, w, padding=2**40),
        lambda x, w: og.nn.functional.conv1d(x, w, dilation=2**40),
    ],
)
def test_conv1d_errors_name_conv1d_not_the_conv2d_it_runs(call):
    """Found by the long fuzz profile: conv1d runs conv2d's kernel, whose errors named conv2d."""
    x, w = og.tensor(np.zeros((2, 3, 7))), og.tensor(np.zeros((4, 3, 3)))
    with pytest.raises((RuntimeError, ValueError)) as info:
        call(x, w)
    assert str(info.value).startswith("conv1d: ") and "conv2d" not in str(info.value)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_to_num_replaces_infinities_by_the_largest_value_of_the_tensors_dtype(dtype):
    """Found by the long fuzz profile, whose reference ran on float64-upcast inputs (so it
    expected float64's largest value): the op was right; the fuzzer's reference for it now
    runs on the case's own dtype (OpInfo.ref_upcast)."""
    a = np.array([np.inf, -np.inf, np.nan, 1.5], dtype=dtype)
    for x in (a, a[0]):  # 1-d and 0-d
        out = og.nan_to_num(og.tensor(np.array(x), requires_grad=True))
        assert out.dtype == dtype
        np.testing.assert_array_equal(out.numpy(), np.nan_to_num(np.array(x)))
    assert og.nan_to_num(og.tensor(a)).numpy()[0] == np.finfo(dtype).max
