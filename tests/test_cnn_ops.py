"""Behaviour of the cnn-and-attention ops that the op table (op_samples_cnn.py) cannot express:
batch_norm's running statistics, conv2d against a naive loop over many geometries, where
max_pool2d sends its gradient, attention masks and dropout, and the errors bad input raises.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import opgrad as og
from op_samples import OPS

# the table's NumPy references (importing op_samples_cnn directly would be an import cycle)
conv2d_ref = OPS["conv2d"].ref
avg_pool2d_ref = OPS["avg_pool2d"].ref
attention_ref = OPS["scaled_dot_product_attention"].ref

# --- batch_norm -------------------------------------------------------------------------------


def test_batch_norm_training_updates_running_stats_in_place_and_eval_uses_them():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3, 2, 2)) * 2 + 1
    mean0, var0 = rng.standard_normal(3), rng.uniform(0.5, 2.0, 3)
    running_mean, running_var = og.tensor(mean0.copy()), og.tensor(var0.copy())
    buffer = running_mean._data

    xt = og.tensor(x, requires_grad=True)
    out = og.batch_norm(xt, running_mean, running_var, training=True, momentum=0.9)
    batch_mean = x.mean(axis=(0, 2, 3))
    unbiased_var = x.var(axis=(0, 2, 3), ddof=1)
    np.testing.assert_allclose(running_mean.numpy(), 0.9 * mean0 + 0.1 * batch_mean, rtol=1e-12)
    np.testing.assert_allclose(running_var.numpy(), 0.9 * var0 + 0.1 * unbiased_var, rtol=1e-12)
    assert running_mean._data is buffer  # updated in place, not replaced
    assert not running_mean.requires_grad and not running_var.requires_grad
    # training normalises with the batch statistics and the biased variance
    biased = x.var(axis=(0, 2, 3))
    expected = (x - batch_mean.reshape(1, 3, 1, 1)) / np.sqrt(biased.reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10, atol=1e-12)
    out.sum().backward()  # the gradient of a sum of normalised values is ~0
    np.testing.assert_allclose(xt.grad.numpy(), 0, atol=1e-10)

    # eval: the running statistics, which are left alone
    rm, rv = running_mean.numpy().copy(), running_var.numpy().copy()
    y = rng.standard_normal((2, 3, 2, 2))
    w, b = og.tensor(rng.standard_normal(3)), og.tensor(rng.standard_normal(3))
    got = og.batch_norm(og.tensor(y), running_mean, running_var, w, b, training=False)
    expected = (y - rm.reshape(1, 3, 1, 1)) / np.sqrt(rv.reshape(1, 3, 1, 1) + 1e-5)
    expected = expected * w.numpy().reshape(1, 3, 1, 1) + b.numpy().reshape(1, 3, 1, 1)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10)
    np.testing.assert_array_equal(running_mean.numpy(), rm)
    np.testing.assert_array_equal(running_var.numpy(), rv)


def test_batch_norm_training_2d_and_repeated_steps_converge_to_the_data_statistics():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((50, 2)) * np.array([1.0, 3.0]) + np.array([5.0, -2.0])
    running_mean, running_var = og.zeros((2,), dtype="float64"), og.ones((2,), dtype="float64")
    for _ in range(200):
        og.batch_norm(og.tensor(x), running_mean, running_var, training=True, momentum=0.9)
    np.testing.assert_allclose(running_mean.numpy(), x.mean(axis=0), rtol=1e-6)
    np.testing.assert_allclose(running_var.numpy(), x.var(axis=0, ddof=1), rtol=1e-6)


def test_batch_norm_records_its_writes_into_the_running_statistics():
    rng = np.random.default_rng(2)
    running_mean, running_var = og.zeros((3,), dtype="float64"), og.ones((3,), dtype="float64")
    w = og.tensor(np.ones(3), requires_grad=True)
    z = og.sum(og.multiply(running_mean, w))  # saves running_mean at version 0
    x = og.tensor(rng.standard_normal((4, 3)))
    og.batch_norm(x, running_mean, running_var, training=False)
    assert running_mean._version == 0 and running_var._version == 0  # eval writes nothing
    z.backward(retain_graph=True)
    og.batch_norm(x, running_mean, running_var, training=True)
    assert running_mean._version == 1 and running_var._version == 1
    with pytest.raises(RuntimeError, match=r"multiply_grad.*argument 'x'.*modified by an in-place operation"):
        z.backward()


def test_batch_norm_errors():
    x = og.tensor(np.zeros((1, 3)))
    stats = og.tensor(np.zeros(3)), og.tensor(np.ones(3))
    with pytest.raises(ValueError, match="more than one value per channel"):
        og.batch_norm(x, *stats, training=True)
    with pytest.raises(ValueError, match="running_mean must have shape"):
        og.batch_norm(og.tensor(np.zeros((2, 4))), *stats)
    with pytest.raises(ValueError, match="momentum"):
        og.batch_norm(og.tensor(np.zeros((2, 3))), *stats, training=True, momentum=1.5)


# --- conv2d -------------------------------------------------------------------------------------

GEOMETRIES = list(
    itertools.product(
        [1, 2, [2, 1]],  # stride
        [0, 1, [0, 2]],  # padding
        [1, 2],  # dilation
        [1, 2],  # groups
    )
)


@pytest.mark.parametrize("stride, padding, dilation, groups", GEOMETRIES)
def test_conv2d_matches_a_naive_loop(stride, padding, dilation, groups):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 4, 7, 6))
    weight = rng.standard_normal((6, 4 // groups, 3, 2))
    bias = rng.standard_normal(6)
    xt, wt, bt = (og.tensor(a, requires_grad=True) for a in (x, weight, bias))
    out = og.conv2d(xt, wt, bt, stride, padding, dilation, groups)
    expected = conv2d_ref(x, weight, bias, stride, padding, dilation, groups)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10, atol=1e-12)
    # the gradients against those of the naive loop, through a random projection
    g = rng.standard_normal(expected.shape)
    (out * og.tensor(g)).sum().backward()
    eps = 1e-6
    for t, a in ((xt, x), (wt, weight)):
        idx = tuple(rng.integers(0, n) for n in a.shape)
        plus, minus = a.copy(), a.copy()
        plus[idx] += eps
        minus[idx] -= eps
        args = [(plus if b is a else b) for b in (x, weight)]
        f_plus = (conv2d_ref(*args, bias, stride, padding, dilation, groups) * g).sum()
        args = [(minus if b is a else b) for b in (x, weight)]
        f_minus = (conv2d_ref(*args, bias, stride, padding, dilation, groups) * g).sum()
        np.testing.assert_allclose(t.grad.numpy()[idx], (f_plus - f_minus) / (2 * eps), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(bt.grad.numpy(), g.sum(axis=(0, 2, 3)), rtol=1e-12)


def test_conv2d_errors_name_the_argument():
    x = og.tensor(np.zeros((1, 4, 5, 5)))
    with pytest.raises(ValueError, match=r"weight must have shape \(2, 2, kh, kw\)"):
        og.conv2d(x, og.tensor(np.zeros((2, 3, 3, 3))), groups=2)
    with pytest.raises(ValueError, match="groups must be a positive divisor"):
        og.conv2d(x, og.tensor(np.zeros((2, 4, 3, 3))), groups=3)
    with pytest.raises(ValueError, match="x must be 4-D"):
        og.conv2d(og.tensor(np.zeros((4, 5, 5))), og.tensor(np.zeros((2, 4, 3, 3))))
    with pytest.raises(ValueError, match="output would be empty"):
        og.conv2d(x, og.tensor(np.zeros((2, 4, 7, 7))))
    with pytest.raises(ValueError, match="stride must be >= 1"):
        og.conv2d(x, og.tensor(np.zeros((2, 4, 3, 3))), stride=0)


# --- pooling ------------------------------------------------------------------------------------


def test_max_pool2d_gradient_goes_to_the_max_position_first_on_ties():
    x = np.array(
        [
            [1.0, 5.0, 2.0, 2.0],
            [3.0, 4.0, 2.0, 2.0],
            [0.0, -1.0, 7.0, 6.0],
            [9.0, 8.0, 6.0, 7.0],
        ]
    ).reshape(1, 1, 4, 4)
    xt = og.tensor(x, requires_grad=True)
    out = og.max_pool2d(xt, 2)
    np.testing.assert_array_equal(out.numpy().reshape(2, 2), [[5.0, 2.0], [9.0, 7.0]])
    (out * og.tensor(np.array([10.0, 20.0, 30.0, 40.0]).reshape(1, 1, 2, 2))).sum().backward()
    expected = np.zeros((4, 4))
    expected[0, 1] = 10  # the 5
    expected[0, 2] = 20  # four 2s tie: the first one (row-major) takes it
    expected[3, 0] = 30  # the 9
    expected[2, 2] = 40  # 7 twice: the first one
    np.testing.assert_array_equal(xt.grad.numpy().reshape(4, 4), expected)


def test_max_pool2d_overlapping_windows_accumulate_and_padding_never_wins():
    x = -np.arange(1.0, 10.0).reshape(1, 1, 3, 3)  # all negative: the -inf padding must lose
    xt = og.tensor(x, requires_grad=True)
    out = og.max_pool2d(xt, 3, 1, 1)
    assert np.isfinite(out.numpy()).all()
    out.sum().backward()
    # x[0, 0] = -1 is the maximum of the four windows that contain it
    assert xt.grad.numpy()[0, 0, 0, 0] == 4
    assert xt.grad.numpy().sum() == 9


def test_max_pool2d_propagates_nan():
    x = np.array([[1.0, np.nan], [3.0, 2.0]]).reshape(1, 1, 2, 2)
    assert np.isnan(og.max_pool2d(og.tensor(x), 2).item())


def test_avg_pool2d_counts_padding_zeros():
    x = np.ones((1, 1, 2, 2))
    out = og.avg_pool2d(og.tensor(x), 2, 2, 1)
    np.testing.assert_allclose(out.numpy(), np.full((1, 1, 2, 2), 0.25))
    np.testing.assert_allclose(out.numpy(), avg_pool2d_ref(x, 2, 2, 1))


def test_adaptive_avg_pool2d_equals_avg_pool2d_when_sizes_divide():
    x = np.random.default_rng(3).standard_normal((2, 3, 6, 4))
    got = og.adaptive_avg_pool2d(og.tensor(x), [3, 2])
    np.testing.assert_allclose(got.numpy(), og.avg_pool2d(og.tensor(x), [2, 2]).numpy(), rtol=1e-12)


def test_pool_errors():
    x = og.tensor(np.zeros((1, 1, 4, 4)))
    with pytest.raises(ValueError, match="padding must be at most half the kernel size"):
        og.max_pool2d(x, 2, padding=2)
    with pytest.raises(ValueError, match="kernel_size must be an int or a list of 2 ints"):
        og.avg_pool2d(x, [2, 2, 2])
    with pytest.raises(TypeError, match="x must be a floating tensor"):
        og.max_pool2d(og.tensor(np.zeros((1, 1, 4, 4), dtype=np.int64)), 2)


# --- norms and linear ---------------------------------------------------------------------------


def test_layer_norm_and_group_norm_normalise():
    x = np.random.default_rng(4).standard_normal((2, 6, 3)) * 3 + 2
    ln = og.layer_norm(og.tensor(x), [6, 3]).numpy()
    np.testing.assert_allclose(ln.mean(axis=(1, 2)), 0, atol=1e-12)
    np.testing.assert_allclose(ln.var(axis=(1, 2)), 1, rtol=1e-4)
    gn = og.group_norm(og.tensor(x), 2).numpy().reshape(2, 2, 9)
    np.testing.assert_allclose(gn.mean(axis=2), 0, atol=1e-12)
    with pytest.raises(ValueError, match="suffix of x's shape"):
        og.layer_norm(og.tensor(x), [6])
    with pytest.raises(ValueError, match="num_groups must be a positive divisor"):
        og.group_norm(og.tensor(x), 4)


@pytest.mark.parametrize("groups", [0, -2, 4])
def test_group_norm_refuses_a_group_count_that_does_not_divide_the_channels(groups):
    # 0 must not reach `C % groups` (ZeroDivisionError), nor -2 pass as a divisor of 6
    with pytest.raises(ValueError, match=rf"group_norm: num_groups .* channel count 6, got {groups}$"):
        og.group_norm(og.ones((2, 6, 3)), groups)


def test_linear_uses_paddle_weight_layout():
    rng = np.random.default_rng(5)
    x, w, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), rng.standard_normal(4)
    np.testing.assert_allclose(og.linear(og.tensor(x), og.tensor(w), og.tensor(b)).numpy(), x @ w + b)
    with pytest.raises(ValueError, match=r"x.shape\[-1\] == weight.shape\[0\]"):
        og.linear(og.tensor(x), og.tensor(w.T))


# --- einsum ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "equation, match",
    [
        ("ij,jk,kl->il", "exactly two operands"),
        ("ij->ji", "exactly two operands"),
        ("...ij,...jk->...ik", "ellipsis"),
        ("ii,ij->j", "repeated within the x subscripts"),
        ("ij,jk->iik", "repeated within the output subscripts"),
        ("ij,jk->iz", "appears in neither operand"),
        ("ijk,jk->i", "x has 2 dimensions"),
    ],
)
def test_einsum_rejects_unsupported_equations(equation, match):
    x, y = og.tensor(np.zeros((2, 3))), og.tensor(np.zeros((3, 4)))
    with pytest.raises(ValueError, match=match):
        og.einsum(equation, x, y)


def test_einsum_size_mismatch_names_the_index():
    with pytest.raises(ValueError, match="index 'j'"):
        og.einsum("ij,jk->ik", og.tensor(np.zeros((2, 3))), og.tensor(np.zeros((4, 2))))


# --- scaled_dot_product_attention -----------------------------------------------------------------


def test_attention_causal_equals_an_explicit_lower_triangular_mask():
    rng = np.random.default_rng(6)
    q, k, v = (og.tensor(rng.standard_normal((2, 2, 4, 3))) for _ in range(3))
    tril = og.tensor(np.tril(np.ones((4, 4), dtype=bool)))
    causal = og.scaled_dot_product_attention(q, k, v, causal=True)
    masked = og.scaled_dot_product_attention(q, k, v, tril)
    np.testing.assert_allclose(causal.numpy(), masked.numpy(), rtol=1e-12)
    additive = og.tensor(np.where(np.tril(np.ones((4, 4))) > 0, 0.0, -np.inf))
    np.testing.assert_allclose(og.scaled_dot_product_attention(q, k, v, additive).numpy(), causal.numpy())


def test_attention_fully_masked_rows_give_zero_output_and_gradients():
    rng = np.random.default_rng(7)
    q, k, v = (og.tensor(rng.standard_normal((1, 3, 2)), requires_grad=True) for _ in range(3))
    mask = np.ones((3, 3), dtype=bool)
    mask[1] = False
    out = og.scaled_dot_product_attention(q, k, v, og.tensor(mask))
    np.testing.assert_array_equal(out.numpy()[0, 1], 0)
    out.sum().backward()
    assert all(np.isfinite(t.grad.numpy()).all() for t in (q, k, v))
    np.testing.assert_array_equal(q.grad.numpy()[0, 1], 0)


def test_attention_dropout_is_seeded_and_scales_the_kept_weights():
    rng = np.random.default_rng(8)
    q, k, v = (og.tensor(rng.standard_normal((2, 5, 4))) for _ in range(3))
    og.manual_seed(11)
    a = og.scaled_dot_product_attention(q, k, v, dropout_p=0.5).numpy()
    og.manual_seed(11)
    b = og.scaled_dot_product_attention(q, k, v, dropout_p=0.5).numpy()
    np.testing.assert_array_equal(a, b)
    full = attention_ref(q.numpy(), k.numpy(), v.numpy())
    assert not np.allclose(a, full)
    # identity value: the output row is the sum of the kept weights / (1 - p); its mean is 1
    eye = og.tensor(np.broadcast_to(np.eye(5), (2, 5, 5)).copy())
    og.manual_seed(12)
    rows = og.scaled_dot_product_attention(q, k, eye, dropout_p=0.5).numpy().sum(axis=-1)
    assert set(np.round(rows, 12).ravel()) - {0.0} and 0.5 < rows.mean() < 1.5
    with pytest.raises(ValueError, match=r"dropout_p must be a number in \[0, 1\)"):
        og.scaled_dot_product_attention(q, k, v, dropout_p=1.0)


def test_attention_errors():
    q = og.tensor(np.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match="equal head_dim"):
        og.scaled_dot_product_attention(q, og.tensor(np.zeros((2, 3, 5))), og.tensor(np.zeros((2, 3, 5))))
    with pytest.raises(ValueError, match="same sequence length"):
        og.scaled_dot_product_attention(q, q, og.tensor(np.zeros((2, 4, 4))))
    with pytest.raises(ValueError, match="mask has shape"):
        og.scaled_dot_product_attention(q, q, q, og.tensor(np.ones((4, 4), dtype=bool)))
