"""Every hook that may replace a gradient (tensor hooks on leaves and non-leaves, node
pre-hooks and post-hooks) and the `.grad` setter keep the gradient's shape, dtype and
device: a mismatch is an error naming the hook, raised before anything changes."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og


def leaf(values, dtype="float32"):
    return og.tensor(np.asarray(values), dtype=dtype, requires_grad=True)


def widen(g):
    return g.astype("float64")


def truncate(g):
    return og.tensor(np.ones(g.shape, dtype=np.int64))


@pytest.mark.parametrize("hook", [widen, truncate])
def test_leaf_tensor_hook_changing_dtype_is_an_error_naming_it(hook):
    x = leaf([1.0, 2.0])
    x.register_hook(hook)
    with pytest.raises(TypeError, match=f"tensor hook '{hook.__name__}' on a leaf.*dtype"):
        (x * 2.0).sum().backward()
    assert x.grad is None  # nothing was accumulated


def test_non_leaf_tensor_hook_changing_dtype_is_an_error_naming_it():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.register_hook(widen)
    with pytest.raises(TypeError, match="tensor hook 'widen' on output 0 of multiply_grad.*float64"):
        y.sum().backward()
    assert x.grad is None


def test_leaf_hook_in_grad_is_checked_too():
    x = leaf([1.0, 2.0])
    x.register_hook(widen)
    with pytest.raises(TypeError, match="'widen'"):
        og.grad([(x * 2.0).sum()], [x])


def test_shape_is_still_checked():
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: og.ones((3,)))
    with pytest.raises(ValueError, match="<lambda>.*shape"):
        (x * 2.0).sum().backward()


def test_node_pre_hook_replacement_is_checked():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.grad_fn.register_prehook(lambda grads: [widen(grads[0])])
    with pytest.raises(TypeError, match=r"pre-hook '[^']*<lambda>' of multiply_grad \(gradient 0\).*float64"):
        y.sum().backward()
    assert x.grad is None


def test_node_pre_hook_with_the_wrong_count_is_an_error():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.grad_fn.register_prehook(lambda grads: [grads[0], grads[0]])
    with pytest.raises(TypeError, match="pre-hook.*1 gradients"):
        y.sum().backward()


def test_node_pre_hook_valid_replacement_is_used():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.grad_fn.register_prehook(lambda grads: [grads[0] * 10.0])
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 20.0])


def test_node_post_hook_replacement_is_checked():
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.grad_fn.register_hook(lambda outs, grads: (widen(outs[0]), None))
    with pytest.raises(
        TypeError, match=r"post-hook '[^']*<lambda>' of multiply_grad \(gradient 0\).*float64"
    ):
        y.sum().backward()
    assert x.grad is None


def test_grad_setter_checks_dtype():
    x = leaf([1.0, 2.0])
    with pytest.raises(TypeError, match="grad has dtype int64.*float32"):
        x.grad = og.tensor([1, 2])
    with pytest.raises(TypeError, match="grad has dtype float64"):
        x.grad = og.tensor([1.0, 2.0], dtype="float64")
    assert x.grad is None
    x.grad = og.tensor([1.0, 2.0])
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0])


def test_saved_tensors_unpack_hook_changing_dtype_is_an_error_naming_it():
    def to_double(t):
        return t.astype("float64")

    x = leaf([1.0, 2.0])
    with og.autograd.saved_tensors_hooks(lambda t: t, to_double):
        y = og.tanh(x)
    with pytest.raises(TypeError, match="unpack_hook 'test_saved[^']*to_double'.*float64.*float32"):
        y.sum().backward()
    assert x.grad is None
