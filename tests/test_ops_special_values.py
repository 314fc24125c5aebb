"""Shapes, NaN, infinities and empty tensors at the edges of the op table.

- Losses that compare an input with a float label refuse a label whose broadcast would grow
  the input (input (3,) against label (3, 1) would average 9 differences, not 3).
- Binary ops name the op and both shapes when the shapes do not broadcast.
- NaN is the largest value for max/min/sort/topk/argmax and gets the gradient; every
  elementwise op propagates NaN in its output and its gradient (as PyTorch does).
- Empty axes and 0-d tensors behave as in PyTorch.
Compared with PyTorch 2.13 by hand (torch is not a dependency): the expected values are
written out.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from test_ops import _as_list, _grad_setup, _gradcheck_case, _require

import opgrad as og
from op_samples import OPS, YAML_OPS

NAN, INF = float("nan"), float("inf")


def _t(values, requires_grad=False, dtype="float64"):
    return og.tensor(np.asarray(values, dtype=dtype), requires_grad=requires_grad)


# --- losses: the label's shape ------------------------------------------------------------------

# every loss comparing an input with a float label of its shape (class-index labels excluded)
FLOAT_LABEL_LOSSES = [
    name
    for name, e in YAML_OPS.items()
    if re.match(r"\(Tensor (input|logit), Tensor label", e["args"])
    and name not in ("cross_entropy", "nll_loss")
]


def test_the_float_label_losses_are_found():
    assert {"mse_loss", "l1_loss", "smooth_l1_loss", "kl_div", "binary_cross_entropy_with_logits"} <= set(
        FLOAT_LABEL_LOSSES
    )


@pytest.mark.parametrize("name", FLOAT_LABEL_LOSSES)
@pytest.mark.parametrize("shapes", [((3,), (3, 1)), ((3, 1), (3,)), ((4,), (3, 4)), ((2, 3), (2,))])
def test_losses_refuse_a_label_that_grows_the_input(name, shapes):
    x_shape, label_shape = shapes
    x = _t(np.full(x_shape, 0.5), requires_grad=True)
    label = _t(np.full(label_shape, 0.25))
    pattern = rf"^{name}: (?=.*{re.escape(str(x_shape))})(?=.*{re.escape(str(label_shape))})"
    with pytest.raises(ValueError, match=pattern):
        getattr(og, name)(x, label)
    assert x.grad is None


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss", "smooth_l1_loss", "kl_div"])
def test_losses_accept_a_label_that_broadcasts_to_the_input(name):
    rng = np.random.default_rng(0)
    x = _t(rng.uniform(0.1, 1.0, (3, 4)), requires_grad=True)
    row = rng.uniform(0.1, 1.0, (4,))
    loss = getattr(og, name)(x, _t(row), reduction="sum")
    full = getattr(og, name)(x, _t(np.broadcast_to(row, (3, 4))), reduction="sum")
    np.testing.assert_allclose(loss.numpy(), full.numpy())


# --- binary ops: the shape-mismatch message --------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["add", "subtract", "multiply", "divide", "maximum", "minimum", "elementwise_pow"]
)
def test_binary_ops_name_op_and_both_shapes(name):
    with pytest.raises(ValueError, match=rf"^{name}: x has shape \(2, 3\) and y has shape \(4,\); expected"):
        getattr(og, name)(_t(np.ones((2, 3))), _t(np.ones(4)))


# --- NaN: every elementwise op of the table -------------------------------------------------------


def _largest_grad_sample(name):
    """The op's gradcheck sample whose first differentiable array is largest (None if none)."""
    info = OPS[name]
    best, size = None, -1
    for s in info.sample_list():
        p = _first_diff_array(info, s)
        if p is not None and _gradcheck_case(info, s) and s.forward and s.args[p].size > size:
            best, size = s, s.args[p].size
    return best


def _first_diff_array(info, sample):
    for i in info.diff_args:
        if (
            i < len(sample.args)
            and isinstance(sample.args[i], np.ndarray)
            and sample.args[i].dtype.kind == "f"
        ):
            return i
    return None


def _nan_cases():
    """The ops that are elementwise at x's first entry: NumPy's reference, given a NaN there,
    gives an output of x's shape that is NaN there and only there."""
    params = []
    for name in YAML_OPS:
        s = _largest_grad_sample(name)
        if s is None:
            continue
        info = OPS[name]
        x = s.args[_first_diff_array(info, s)]
        with np.errstate(all="ignore"):
            nan_sample = _with_nan(s, _first_diff_array(info, s))
            want = np.asarray(_as_list(info.ref(*nan_sample.args, **nan_sample.kwargs))[0])
        if want.shape == x.shape and np.array_equal(np.isnan(want), _first_only(x.shape)):
            params.append(pytest.param(name, s, id=name))
    return params


def _first_only(shape):
    mask = np.zeros(shape, bool)
    mask.reshape(-1)[0] = True
    return mask


def test_the_nan_test_covers_the_elementwise_ops():
    names = {p.values[0] for p in _nan_cases()}
    assert {
        "exp",
        "relu",
        "abs",
        "sign",
        "hardtanh",
        "clip",
        "elu",
        "selu",
        "celu",
        "maximum",
        "softsign",
    } <= names


def _with_nan(sample, position):
    args = list(sample.args)
    x = args[position].copy()
    x.reshape(-1)[0] = NAN
    args[position] = x
    return dataclasses.replace(sample, args=tuple(args))


def _grads(info, sample, gos_seed=5):
    fn, leaves = _grad_setup(info, sample)
    out = _as_list(fn(*leaves))[0]
    go = og.tensor(np.random.default_rng(gos_seed).uniform(0.5, 1.5, out.shape))
    return out, og.grad([out], leaves, [go], allow_unused=True), go.numpy()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, sample", _nan_cases())
def test_nan_propagates_through_elementwise_ops(name, sample):
    """NaN at x's first entry: the output is NaN there (where NumPy's reference says so) and
    the gradient there is NaN, except for an op linear in x (the gradient does not depend on
    x: it is unchanged) and for an op selecting x (relu, clip, maximum...: the gradient at a
    normal point is 0 or the incoming one; a NaN wins and gets the incoming gradient)."""
    info = _require(name, sample)
    p = _first_diff_array(info, sample)
    nan_sample = _with_nan(sample, p)
    expected_nan = _first_only(sample.args[p].shape)
    out, grads, go = _grads(info, nan_sample)
    np.testing.assert_array_equal(np.isnan(out.numpy()), expected_nan, err_msg="forward NaN pattern")
    k = _leaf_index(info, sample, p)
    g_nan = grads[k].numpy().reshape(-1)[0]
    assert not np.any(np.isnan(grads[k].numpy().reshape(-1)[1:])), "the NaN leaked into other gradients"

    # classify the op by its gradient at x and at moved copies of x (both signs, both sides of 1)
    ds = []
    for f in (lambda a: a, lambda a: -a, lambda a: 0.3 * a, lambda a: 1.37 * a + 0.1, lambda a: 3 * a):
        moved = dataclasses.replace(
            sample, args=tuple(f(a) if i == p else a for i, a in enumerate(sample.args))
        )
        ds.append(_grads(info, moved)[1][k].numpy() / go)
    if all(np.allclose(d, ds[0]) for d in ds):  # linear in x: the NaN does not matter
        assert g_nan == pytest.approx(ds[0].reshape(-1)[0] * go.reshape(-1)[0]), "linear op: gradient changed"
    elif all(np.all(np.isclose(d, 0) | np.isclose(d, 1)) for d in ds):  # selects x
        assert g_nan == pytest.approx(go.reshape(-1)[0]), "selecting op: the NaN must get the gradient"
    else:
        assert np.isnan(g_nan), f"gradient at the NaN is {g_nan}, expected NaN"


def _leaf_index(info, sample, p):
    """Which of _grad_setup's leaves is the array at position p."""
    k = 0
    for i in info.diff_args:
        if i >= len(sample.args) or i == p:
            break
        a = sample.args[i]
        k += len(a) if isinstance(a, list) else int(isinstance(a, np.ndarray) and a.dtype.kind == "f")
    return k


# --- NaN is the largest value: sort, topk, max, min, argmax, max_pool2d (values from PyTorch) ------


def test_sort_and_argsort_put_nan_last_ascending_and_first_descending():
    x = _t([1.0, NAN, 3.0, NAN], requires_grad=True)
    values = og.sort(x, descending=True)
    np.testing.assert_array_equal(values.numpy(), [NAN, NAN, 3.0, 1.0])
    np.testing.assert_array_equal(og.argsort(x, descending=True).numpy(), [1, 3, 2, 0])
    np.testing.assert_array_equal(og.argsort(x).numpy(), [0, 2, 1, 3])
    (values * _t([1.0, 2.0, 3.0, 4.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 1.0, 3.0, 2.0])


def test_descending_sort_keeps_ties_in_order_for_every_dtype():
    for dtype in ("float64", "int64", "uint8", "bool"):
        x = _t([1, 0, 1, 1, 0], dtype=dtype)
        np.testing.assert_array_equal(og.argsort(x, descending=True).numpy(), [0, 2, 3, 1, 4], err_msg=dtype)


def test_topk_keeps_nan_as_the_largest():
    x = _t([1.0, NAN, 3.0], requires_grad=True)
    values, indices = og.topk(x, 2)
    np.testing.assert_array_equal(values.numpy(), [NAN, 3.0])
    np.testing.assert_array_equal(indices.numpy(), [1, 2])
    values, indices = og.topk(x, 2, largest=False)
    np.testing.assert_array_equal(values.numpy(), [1.0, 3.0])
    og.topk(x, 1)[0].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 0.0])


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_give_the_nan_positions_the_gradient(name):
    x = _t([1.0, NAN, 3.0, NAN], requires_grad=True)
    out = getattr(og, name)(x)
    assert np.isnan(out.item())
    out.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.5, 0.0, 0.5])
    x = _t([[1.0, NAN], [3.0, 2.0]], requires_grad=True)
    getattr(og, name)(x, axis=1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 1.0], [0.0, 1.0] if name == "min" else [1.0, 0.0]])


def test_maximum_and_minimum_give_a_nan_the_gradient_and_two_nans_share_it():
    for name in ("maximum", "minimum"):
        x = _t([1.0, NAN, 3.0, NAN], requires_grad=True)
        y = _t([2.0, 2.0, NAN, NAN], requires_grad=True)
        out = getattr(og, name)(x, y)
        assert np.all(np.isnan(out.numpy()[1:]))
        out.sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), [float(name == "minimum"), 1.0, 0.0, 0.5])
        np.testing.assert_array_equal(y.grad.numpy(), [float(name == "maximum"), 0.0, 1.0, 0.5])


def test_argmax_argmin_and_max_pool2d_pick_the_nan():
    x = _t([1.0, NAN, 3.0, NAN])
    assert og.argmax(x).item() == 1 and og.argmin(x).item() == 1
    x = _t(np.array([1.0, NAN, 3.0, 0.0]).reshape(1, 1, 2, 2), requires_grad=True)
    out = og.max_pool2d(x, 2)
    assert np.isnan(out.item())
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy().ravel(), [0.0, 1.0, 0.0, 0.0])


# --- infinities ------------------------------------------------------------------------------------


def test_softsign_takes_its_limits_at_infinity():
    x = _t([INF, -INF, 2.0], requires_grad=True)
    out = og.softsign(x)
    np.testing.assert_array_equal(out.numpy(), [1.0, -1.0, 2.0 / 3.0])
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 1.0 / 9.0])


# --- empty tensors, 0-d tensors, negative indices (PyTorch's own sample inputs) ---------------------


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape, axis", [((5, 0, 0), -1), ((0, 3), 1), ((2, 0), 0)])
def test_softmax_family_on_an_empty_tensor_is_empty(name, shape, axis):
    x = _t(np.zeros(shape), requires_grad=True)
    out = getattr(og, name)(x, axis)
    assert out.shape == shape and out.dtype == np.float64
    out.sum().backward()
    assert x.grad.shape == shape


def test_group_norm_with_an_empty_batch():
    x = _t(np.zeros((0, 2)), requires_grad=True)
    w, b = _t([1.0, 2.0], requires_grad=True), _t([0.5, 0.0], requires_grad=True)
    out = og.group_norm(x, 1, w, b)
    assert out.shape == (0, 2)
    out.sum().backward()
    assert x.grad.shape == (0, 2)
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(b.grad.numpy(), [0.0, 0.0])
    x = _t(np.zeros((0, 4, 3)), requires_grad=True)
    assert og.group_norm(x, 2).shape == (0, 4, 3)


def test_elementwise_pow_gradients_at_zero_and_below():
    # PyTorch: d/dx x**y is 0 at y == 0 (x**0 == 1), y * x**(y - 1) elsewhere; d/dy is
    # x**y log x: 0 at x == 0 for y >= 0, -inf for y < 0, NaN for x < 0
    x = _t([0.0, 0.0, 0.0, -2.0, -2.0], requires_grad=True)
    y = _t([0.0, -1.0, 2.0, 2.0, 0.5], requires_grad=True)
    with np.errstate(all="ignore"):
        out = og.elementwise_pow(x, y)
        out.sum().backward()
    np.testing.assert_array_equal(out.numpy(), [1.0, INF, 0.0, 4.0, NAN])
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, -INF, 0.0, -4.0, NAN])
    np.testing.assert_array_equal(y.grad.numpy(), [0.0, -INF, 0.0, NAN, NAN])


@pytest.mark.parametrize(
    "exponent, expected",
    [(0.0, [0.0, 0.0, 0.0]), (2.0, [0.0, -2.0, -6.0]), (0.5, [INF, NAN, NAN]), (-1.0, [-INF, -1.0, -1 / 9])],
)
def test_pow_gradient_at_zero_and_negative_x(exponent, expected):
    x = _t([0.0, -1.0, -3.0], requires_grad=True)
    with np.errstate(all="ignore"):
        og.pow(x, exponent).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), expected)


def test_logsumexp_over_an_empty_axis_is_minus_infinity():
    x = _t(np.zeros((2, 0)), requires_grad=True)
    out = og.logsumexp(x, 1)
    np.testing.assert_array_equal(out.numpy(), [-INF, -INF])
    out.sum().backward()
    assert x.grad.shape == (2, 0)
    assert og.logsumexp(_t(np.zeros((2, 0))), [0, 1], keepdim=True).shape == (1, 1)
    assert og.logsumexp(_t(np.zeros(0))).item() == -INF


@pytest.mark.parametrize(
    "values, out, grad",
    [
        ([INF, 1.0], INF, [NAN, 0.0]),
        ([-INF, 1.0], 1.0, [0.0, 1.0]),
        ([-INF, -INF], -INF, [NAN, NAN]),
        ([INF, INF], INF, [NAN, NAN]),
        ([NAN, 1.0], NAN, [NAN, NAN]),
    ],
)
def test_logsumexp_with_infinities_matches_pytorch(values, out, grad):
    x = _t(values, requires_grad=True)
    with np.errstate(all="ignore"):
        y = og.logsumexp(x)
        y.backward()
    np.testing.assert_array_equal(y.numpy(), out)
    np.testing.assert_array_equal(x.grad.numpy(), grad)


def test_mean_of_an_empty_tensor_is_refused_naming_the_axis():
    with pytest.raises(ValueError, match=r"mean: cannot reduce an empty dimension \(x has shape \(0,\)"):
        og.mean(_t(np.zeros(0)))
    with pytest.raises(
        ValueError, match=r"mean: cannot reduce an empty dimension \(x has shape \(2, 0\), axis \[1\]"
    ):
        og.mean(_t(np.zeros((2, 0))), 1)
    assert og.mean(_t(np.zeros((0, 3))), 1).shape == (0,)  # nothing empty is reduced


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_of_a_0d_tensor(name):
    x = _t(3.0)
    for kwargs, shape in (({}, ()), ({"axis": 0}, ()), ({"axis": -1, "keepdim": True}, ())):
        out = getattr(og, name)(x, **kwargs)
        assert out.shape == shape and out.dtype == np.int64 and out.item() == 0
    with pytest.raises(ValueError, match=rf"{name}: axis 1 is out of range for a 0-d tensor"):
        getattr(og, name)(x, 1)


def test_take_along_axis_accepts_negative_indices_and_a_0d_arr():
    x = _t([[1.0, 2.0, 3.0]], requires_grad=True)
    out = og.take_along_axis(x, og.tensor(np.array([[-1, -1, 0]])), 1)
    np.testing.assert_array_equal(out.numpy(), [[3.0, 3.0, 1.0]])
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1.0, 0.0, 2.0]])
    with pytest.raises(ValueError, match=r"take_along_axis: indices contains -4, outside \[-3, 3\)"):
        og.take_along_axis(x, og.tensor(np.array([[-4]])), 1)
    assert og.testing.gradgradcheck(lambda a: og.take_along_axis(a, og.tensor(np.array([[-1, 0]])), 1), [x])
    s = _t(3.0, requires_grad=True)
    out = og.take_along_axis(s, og.tensor(np.array(0)), 0)
    assert out.shape == () and out.item() == 3.0
    assert og.testing.gradgradcheck(lambda a: og.take_along_axis(a, og.tensor(np.array(0)), 0), [s])


@pytest.mark.parametrize("name", ["index_select", "gather"])
def test_index_select_accepts_a_0d_x_and_a_0d_index(name):
    s = _t(3.0, requires_grad=True)
    for index in (np.array(0), np.array([0])):
        out = getattr(og, name)(s, og.tensor(index))
        assert out.shape == () and out.item() == 3.0
    assert og.testing.gradgradcheck(lambda a: getattr(og, name)(a, og.tensor(np.array(0))), [s])
    with pytest.raises(ValueError, match=rf"{name}: x is 0-d, so index must hold one entry"):
        getattr(og, name)(s, og.tensor(np.array([0, 0])))
    x = _t([1.0, 2.0, 3.0], requires_grad=True)
    out = getattr(og, name)(x, og.tensor(np.array(1)))
    np.testing.assert_array_equal(out.numpy(), [2.0])  # a 0-d index is [index], as PyTorch
    assert og.testing.gradgradcheck(lambda a: getattr(og, name)(a, og.tensor(np.array(2))), [x])


def test_index_add_accepts_a_0d_x():
    x, v = _t(3.0, requires_grad=True), _t(2.0, requires_grad=True)
    for index in (np.array(0), np.array([0])):
        assert og.index_add(x, og.tensor(index), 0, v).item() == 5.0
    assert og.testing.gradgradcheck(lambda a, b: og.index_add(a, og.tensor(np.array(0)), 0, b), [x, v])
    with pytest.raises(ValueError, match=r"index_add: x is 0-d, so value must be 0-d"):
        og.index_add(x, og.tensor(np.array(0)), 0, _t([2.0]))


def test_masked_fill_refuses_a_mask_that_grows_x():
    # documented refusal (docs/contracts.md): the result keeps x's shape
    x = _t([1.0, 2.0], requires_grad=True)
    with pytest.raises(ValueError, match=r"masked_fill: mask has shape \(2, 2\).*expand x"):
        og.masked_fill(x, og.tensor(np.array([[True, False], [False, False]])), 0.0)
