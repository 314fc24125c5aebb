"""Op corner cases the op fuzzer (test_op_properties.py) found, pinned one by one.

Each test failed before its kernel fix: outputs of non-view ops that shared their input's
memory, reshape(-1) on zero-size axes, 0-d inputs that came back as NumPy scalars, NaN that
spread or vanished, buffers half-updated before an error, and integer losses.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime.kernels.registry import kernel_error


def _array(x):
    return x._data if isinstance(x, og.Tensor) else x


@pytest.mark.parametrize(
    "call",
    [
        lambda x: og.cast(x, "float64"),
        lambda x: og.dropout(x, training=False),
        lambda x: og.dropout(x, 0.0),
        lambda x: og.pad(x, [], mode="reflect"),
        lambda x: og.pad(x, [0, 0], mode="replicate"),
        lambda x: og.reduce_as(x, np.zeros((2, 3))),
    ],
    ids=["cast-same-dtype", "dropout-eval", "dropout-p0", "pad-none", "pad-zero", "reduce_as-same"],
)
@pytest.mark.parametrize("raw", [False, True], ids=["tensor", "ndarray"])
def test_ops_that_are_not_views_return_new_memory(call, raw):
    data = np.arange(6.0).reshape(2, 3)
    x = data.copy() if raw else og.tensor(data)
    out = call(x)
    assert not np.shares_memory(out._data, _array(x))
    out._data[...] = -1  # what an in-place op on out writes
    np.testing.assert_array_equal(_array(x), data)


@pytest.mark.parametrize("x_shape, w_shape", [((2, 3, 4), (4, 0)), ((2, 0), (0, 3))])
def test_linear_backward_with_zero_features(x_shape, w_shape):
    x = og.tensor(np.ones(x_shape), requires_grad=True)
    w = og.tensor(np.ones(w_shape), requires_grad=True)
    b = og.tensor(np.ones(w_shape[1:]), requires_grad=True)
    og.linear(x, w, b).sum().backward()
    assert x.grad.shape == x_shape and w.grad.shape == w_shape and b.grad.shape == w_shape[1:]
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros(x_shape))  # no output depends on x
    np.testing.assert_array_equal(w.grad.numpy(), np.full(w_shape, x_shape[0] * np.prod(x_shape[1:-1])))


def test_adaptive_avg_pool2d_keeps_a_nan_in_its_own_bin():
    x = np.arange(12.0).reshape(1, 1, 3, 4)
    x[0, 0, 0, 0] = np.nan
    t = og.tensor(x, requires_grad=True)
    out = og.adaptive_avg_pool2d(t, [3, 2])
    expected = x.reshape(1, 1, 3, 2, 2).mean(axis=4)
    np.testing.assert_array_equal(out.numpy(), expected)  # nan only in bin (0, 0)
    seed = np.ones((1, 1, 3, 2))
    seed[0, 0, 1, 1] = np.inf
    out.backward(og.tensor(seed))
    want = np.full((1, 1, 3, 4), 0.5)
    want[0, 0, 1, 2:] = np.inf
    np.testing.assert_array_equal(t.grad.numpy(), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_softmax_of_a_0d_nan_or_inf_is_nan(dtype):
    for v in (np.nan, np.inf, -np.inf):
        x = og.tensor(np.array(v, dtype=dtype))
        assert np.isnan(og.softmax(x).item()) and np.isnan(og.log_softmax(x).item())
    x = og.tensor(np.array(2.0, dtype=dtype))
    assert og.softmax(x).item() == 1 and og.log_softmax(x).item() == 0


def test_split_refuses_sections_whose_minus_one_would_be_negative():
    # [1, -1, 2] on an axis of 2: the -1 cannot be resolved; it used to pass through to
    # np.split and return overlapping pieces of shapes (2, 1, 6), (2, 0, 6), (2, 2, 6)
    with pytest.raises(ValueError, match="split: num_or_sections"):
        og.split(og.tensor(np.zeros((2, 2, 6))), [1, -1, 2], 1)


@pytest.mark.parametrize("op", ["std", "var"])
def test_std_and_var_backward_of_a_0d_tensor(op):
    x = og.tensor(np.array(2.0), requires_grad=True)
    getattr(og, op)(x, [], False).backward()
    assert x.grad.shape == () and x.grad.item() == 0.0


def test_zero_size_axes_in_conv2d_embedding_and_repeat_interleave_backward():
    x = og.tensor(np.ones((1, 2, 5, 5)), requires_grad=True)
    w = og.tensor(np.ones((0, 2, 3, 3)), requires_grad=True)
    out = og.conv2d(x, w, stride=[2, 2], padding=[1, 1])
    assert out.shape == (1, 0, 3, 3)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((1, 2, 5, 5)))
    assert w.grad.shape == (0, 2, 3, 3)
    weight = og.tensor(np.ones((5, 0)), requires_grad=True)
    og.embedding(og.tensor(np.array([1, 2, 3])), weight).sum().backward()
    assert weight.grad.shape == (5, 0)
    for axis in (None, 0):
        x = og.tensor(np.ones((2, 3)), requires_grad=True)
        og.repeat_interleave(x, 0, axis).sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), np.zeros((2, 3)))


@pytest.mark.parametrize("bad", ["readonly-var", "int-mean"])
def test_batch_norm_refuses_running_stats_it_cannot_update_before_writing_any(bad):
    running_mean, running_var = np.zeros(2), np.ones(2)
    if bad == "readonly-var":
        running_var.flags.writeable = False
    else:
        running_mean = np.zeros(2, dtype=np.int32)
    x = og.tensor(np.arange(6.0).reshape(3, 2))
    with pytest.raises(TypeError, match="batch_norm: running_.* in place in training"):
        og.batch_norm(x, og.from_numpy(running_mean), og.from_numpy(running_var), training=True)
    np.testing.assert_array_equal(running_mean, np.zeros(2))  # not half-updated
    np.testing.assert_array_equal(running_var, np.ones(2))


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_refuses_arrays_for_the_statistics_it_writes(training):
    # a NumPy array would be converted to a copy, which would take the update silently
    running_mean, running_var = np.zeros(2), np.ones(2)
    x = og.tensor(np.arange(6.0).reshape(3, 2))
    with pytest.raises(
        TypeError, match="batch_norm: running_mean is written in place, so it must be a Tensor"
    ):
        og.batch_norm(x, running_mean, og.from_numpy(running_var), training=training)
    with pytest.raises(
        TypeError, match="batch_norm: running_var is written in place, so it must be a Tensor"
    ):
        og.batch_norm(x, og.from_numpy(running_mean), running_var, training=training)
    mean, var = og.from_numpy(running_mean), og.from_numpy(running_var)
    og.batch_norm(x, mean, var, training=True)
    assert not np.array_equal(running_mean, np.zeros(2))  # the update reached the caller's memory


@pytest.mark.parametrize("mode", ["constant", "reflect"])
def test_pad_of_a_0d_tensor_with_no_padding(mode):
    x = og.tensor(np.array(2.0), requires_grad=True)
    out = og.pad(x, [], mode=mode)
    assert out.shape == () and out.item() == 2.0 and not np.shares_memory(out._data, x._data)
    out.backward(og.tensor(np.array(3.0)))
    assert x.grad.shape == () and x.grad.item() == 3.0


def test_adaptive_avg_pool2d_refuses_an_empty_plane():
    with pytest.raises(ValueError, match="adaptive_avg_pool2d: x has shape"):
        og.adaptive_avg_pool2d(og.tensor(np.zeros((1, 1, 3, 0))), [1, 1])
    assert og.adaptive_avg_pool2d(og.tensor(np.zeros((0, 1, 3, 3))), [1, 1]).shape == (0, 1, 1, 1)


@pytest.mark.parametrize(
    "name, call",
    [
        ("cross_entropy", lambda x: og.cross_entropy(x, og.tensor(np.array([0, 1, 2])))),
        ("nll_loss", lambda x: og.nll_loss(x, og.tensor(np.array([0, 1, 2])))),
        ("mse_loss", lambda x: og.mse_loss(x, x)),
        ("l1_loss", lambda x: og.l1_loss(x, x)),
        ("smooth_l1_loss", lambda x: og.smooth_l1_loss(x, x * 0, "sum", 0.5)),
        ("kl_div", lambda x: og.kl_div(x, x)),
    ],
)
def test_losses_refuse_integer_input(name, call):
    # they used to compute in integer arithmetic: cross_entropy of int64 logits was an int64
    # loss, smooth_l1_loss(..., "sum", 0.5) of int32 input 1 where the true value is 7.375
    x = og.tensor(np.array([[1, -2, 3], [0, 2, 1], [3, 1, -1]]))
    with pytest.raises(TypeError, match=rf"{name}: input must be a floating tensor"):
        call(x)


@pytest.mark.parametrize("kernel", [(2, 0), (0, 3)])
def test_conv2d_refuses_a_zero_size_kernel(kernel):
    # a (2, 0) kernel gave an output of shape (2, 2, 5, 6) for a (2, 1, 6, 5) input: wider than x
    x = og.tensor(np.ones((2, 1, 6, 5)))
    with pytest.raises(ValueError, match="conv2d: weight has shape"):
        og.conv2d(x, og.tensor(np.ones((2, 1, *kernel))))


_HUGE = 2**40  # elements: far more than any machine can allocate
_IMAGE = np.ones((1, 2, 3, 3))


@pytest.mark.parametrize(
    ("op", "call"),
    [
        ("neg", lambda: og.neg(og.tensor([True, False]))),
        ("glu", lambda: og.glu(og.tensor([True, False]))),
        ("pow", lambda: og.pow(og.tensor([2, 3]), -1)),
        ("elementwise_pow", lambda: og.elementwise_pow(og.tensor([2, 3]), og.tensor([-1, 2]))),
        (
            "scaled_dot_product_attention",
            lambda: og.scaled_dot_product_attention(np.ones((2, 3, 4)), *[np.ones((3, 3, 4))] * 2),
        ),
        ("one_hot", lambda: og.one_hot(og.tensor([0, 1]), _HUGE)),
        ("repeat_interleave", lambda: og.repeat_interleave(og.tensor([1.0, 2.0]), _HUGE)),
        ("adaptive_avg_pool2d", lambda: og.adaptive_avg_pool2d(_IMAGE, [_HUGE, _HUGE])),
        ("pad", lambda: og.pad(og.tensor([1.0, 2.0]), [_HUGE, _HUGE])),
        ("conv2d", lambda: og.conv2d(_IMAGE, np.ones((1, 2, 1, 1)), None, 1, _HUGE)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_numpy_errors_inside_a_kernel_name_the_op(op, call):
    # NumPy's own messages ("boolean negative", "Integers to negative integer powers", a
    # failed broadcast, "Unable to allocate", "array is too big") do not say which op failed.
    with pytest.raises((TypeError, ValueError, RuntimeError)) as info:
        call()
    assert re.match(rf"{op}\b", str(info.value)), str(info.value)


@pytest.mark.parametrize(
    ("op", "arg", "call"),
    [
        ("one_hot", "num_classes", lambda: og.one_hot(og.tensor([0, 1]), _HUGE)),
        ("repeat_interleave", "repeats", lambda: og.repeat_interleave(og.tensor([1.0, 2.0]), _HUGE)),
        ("adaptive_avg_pool2d", "output_size", lambda: og.adaptive_avg_pool2d(_IMAGE, [_HUGE, _HUGE])),
        ("pad", "pad", lambda: og.pad(og.tensor([1.0, 2.0]), [_HUGE, _HUGE])),
        ("conv2d", "padding", lambda: og.conv2d(_IMAGE, np.ones((1, 2, 1, 1)), None, 1, _HUGE)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_size_too_large_to_allocate_names_the_op_and_the_argument(op, arg, call):
    # before: MemoryError ("Unable to allocate 8.00 TiB") or NumPy's "array is too big"
    with pytest.raises(RuntimeError, match=rf"^{op}: {arg}=.* too large to allocate"):
        call()


def test_kernel_error_keeps_named_messages_and_error_subclasses():
    named = ValueError("pad: padding must be non-negative")
    assert kernel_error("pad", named) is named
    axis_error = np.exceptions.AxisError(3, 2)
    assert kernel_error("sum", axis_error) is axis_error  # callers may catch it as IndexError
    overflow = kernel_error("one_hot", OverflowError("Python int too large to convert to C long"))
    assert type(overflow) is ValueError and str(overflow).startswith("one_hot: ")
    memory = kernel_error("pad", MemoryError())
    assert type(memory) is RuntimeError and "too large to allocate" in str(memory)


def test_a_kernel_error_in_an_inplace_op_names_it_and_writes_nothing():
    x = og.tensor([True, False])
    version = x._version
    with pytest.raises(TypeError, match=r"^sigmoid_\b"):
        og.sigmoid_(x)
    np.testing.assert_array_equal(x._data, [True, False])
    assert x._version == version


@pytest.mark.parametrize(
    ("equation", "x_shape", "y"),
    [
        ("ij,k->ik", (2, 0), [np.nan, 1.0]),
        ("ij,k->i", (2, 0), [np.inf, -np.inf]),
        ("ij,jk->ik", (2, 0), np.zeros((0, 3))),
    ],
)
def test_einsum_over_an_empty_axis_sums_to_zero_next_to_nan_and_inf(equation, x_shape, y):
    # before: optimize=True summed x over its empty axis first, then 0 * nan gave nan
    x = og.tensor(np.zeros(x_shape), requires_grad=True)
    y = og.tensor(np.asarray(y, dtype=np.float64), requires_grad=True)
    out = og.einsum(equation, x, y)
    np.testing.assert_array_equal(out._data, np.einsum(equation, x._data, y._data, optimize=False))
    assert not np.isnan(out._data).any()
    out.sum().backward()
    assert x.grad.shape == x_shape and y.grad.shape == y.shape
    np.testing.assert_array_equal(y.grad._data, np.zeros(y.shape))


def test_attention_batch_shapes_that_do_not_broadcast_name_every_argument():
    q, kv = np.ones((2, 3, 4)), np.ones((3, 3, 4))
    with pytest.raises(
        ValueError, match=r"scaled_dot_product_attention: query has shape \(2, 3, 4\), key \(3, 3, 4\)"
    ):
        og.scaled_dot_product_attention(q, kv, kv)
    with pytest.raises(ValueError, match=r"value \(3, 5, 4\); expected batch dimensions"):
        og.scaled_dot_product_attention(np.ones((2, 5, 4)), np.ones((2, 5, 4)), np.ones((3, 5, 4)))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32])
def test_a_python_scalar_before_a_raw_array_is_weak_as_before_a_tensor(dtype):
    # before: add(2, float16 array) gave float32 (the scalar was converted before the array,
    # with no Tensor to take its dtype from); with a Tensor it was already float16
    data = np.ones(3, dtype)
    for raw in (data, og.tensor(data)):
        assert og.add(2, raw).dtype == dtype
        assert og.multiply(raw, 3).dtype == dtype
    ints = np.ones(3, np.int32)
    assert og.add(2.5, ints).dtype == og.add(2.5, og.tensor(ints)).dtype  # a float never truncates
