"""og.utils.checkpoint / checkpoint_sequential: recompute in backward, same gradients
bitwise (dropout included), nested checkpoints, create_graph, bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.utils import checkpoint, checkpoint_sequential


def make_layers(n=6, width=8, p=0.3):
    rng = np.random.default_rng(5)
    weights = [og.tensor(rng.standard_normal((width, width)) * 0.4, requires_grad=True) for _ in range(n)]
    calls = [0]

    def layer(w):
        def f(h):
            calls[0] += 1
            return og.dropout(og.tanh(h @ w), p)

        return f

    return weights, [layer(w) for w in weights], calls


def grads_of(weights, x):
    out = [w.grad.numpy().copy() for w in weights] + ([x.grad.numpy().copy()] if x.grad is not None else [])
    for w in weights:
        w.grad = None
    x.grad = None
    return out


@pytest.mark.parametrize("use_reentrant", [True, False])
@pytest.mark.parametrize("x_requires_grad", [True, False])
def test_checkpoint_sequential_recomputes_and_gives_bitwise_equal_gradients(x_requires_grad, use_reentrant):
    weights, fns, calls = make_layers()
    x = og.tensor(np.random.default_rng(6).standard_normal((4, 8)), requires_grad=x_requires_grad)
    og.manual_seed(11)
    h = x
    for f in fns:
        h = f(h)
    og.sum(h * h).backward()
    reference = grads_of(weights, x)
    forward_value = h.numpy().copy()

    calls[0] = 0
    og.manual_seed(11)
    out = checkpoint_sequential(fns, 3, x, use_reentrant=use_reentrant)
    assert calls[0] == 6
    np.testing.assert_array_equal(out.numpy(), forward_value)  # the same dropout masks
    og.sum(out * out).backward()
    assert calls[0] == 10  # the first two segments (4 layers) ran again in backward
    for a, b in zip(reference, grads_of(weights, x), strict=True):
        np.testing.assert_array_equal(a, b)


def test_without_preserved_rng_state_the_masks_differ():
    weights, fns, _ = make_layers(n=2, p=0.5)
    x = og.tensor(np.ones((4, 8)))
    og.manual_seed(3)
    out = checkpoint(lambda h: fns[1](fns[0](h)), x, preserve_rng_state=False)
    og.sum(out).backward()
    kept = weights[0].grad.numpy().copy()
    weights[0].grad = weights[1].grad = None
    og.manual_seed(3)
    out = checkpoint(lambda h: fns[1](fns[0](h)), x)
    og.sum(out).backward()
    assert not np.array_equal(kept, weights[0].grad.numpy())


def test_nested_checkpoints_and_grad():
    weights, fns, calls = make_layers(n=4, p=0.0)
    x = og.tensor(np.random.default_rng(7).standard_normal((3, 8)), requires_grad=True)

    def inner(h):
        return fns[2](fns[1](h))

    def outer(h):
        return fns[3](checkpoint(inner, fns[0](h)))

    og.sum(fns[3](fns[2](fns[1](fns[0](x))))).backward()
    expected = grads_of(weights, x)
    calls[0] = 0
    og.sum(checkpoint(outer, x)).backward()
    assert calls[0] == 4 + 4 + 2  # forward, outer recompute, inner recompute
    for a, b in zip(expected, grads_of(weights, x), strict=True):
        np.testing.assert_array_equal(a, b)

    # grad() with respect to the inputs and to the parameters fn closes over (non-reentrant),
    # .grad untouched
    def outer_nr(h):
        return fns[3](checkpoint(inner, fns[0](h), use_reentrant=False))

    got = og.grad([og.sum(checkpoint(outer_nr, x, use_reentrant=False))], [x, *weights])
    for a, b in zip([*expected[-1:], *expected[:-1]], got, strict=True):
        np.testing.assert_array_equal(a, b.numpy())
    assert all(w.grad is None for w in weights)


def test_closing_over_a_non_leaf_tensor_falls_back_to_accumulating():
    w = og.tensor(np.array([0.5, -1.5]), requires_grad=True)
    scaled = w * 2  # a non-leaf fn closes over
    x = og.tensor(np.array([0.3, 0.7]), requires_grad=True)
    og.sum(checkpoint(lambda z: og.tanh(z * scaled), x, use_reentrant=False)).backward()
    th = np.tanh(x.numpy() * 2 * w.numpy())
    np.testing.assert_allclose(w.grad.numpy(), (1 - th**2) * x.numpy() * 2, atol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), (1 - th**2) * 2 * w.numpy(), atol=1e-12)


def test_create_graph_through_a_checkpoint():
    x = og.tensor(np.array([0.2, -0.5, 0.9]), requires_grad=True)
    (g,) = og.grad([og.sum(checkpoint(lambda z: og.tanh(z) ** 3, x))], [x], create_graph=True)
    (gg,) = og.grad([og.sum(g)], [x])
    th = np.tanh(x.numpy())
    sech2 = 1 - th**2
    np.testing.assert_allclose(g.numpy(), 3 * th**2 * sech2, atol=1e-12)
    np.testing.assert_allclose(gg.numpy(), 6 * th * sech2**2 - 6 * th**3 * sech2, atol=1e-12)


def test_module_sequence_and_no_grad():
    model = og.nn.Sequential(og.nn.Linear(4, 4), og.nn.Tanh(), og.nn.Linear(4, 2))
    x = og.tensor(np.random.default_rng(8).standard_normal((5, 4)).astype(np.float32))
    og.sum(model(x)).backward()
    reference = [p.grad.numpy().copy() for p in model.parameters()]
    model.zero_grad()
    og.sum(checkpoint_sequential(model, 2, x)).backward()
    for a, p in zip(reference, model.parameters(), strict=True):
        np.testing.assert_array_equal(a, p.grad.numpy())
    with og.no_grad():
        assert not checkpoint_sequential(model, 2, x).requires_grad


def test_bad_arguments():
    with pytest.raises(TypeError, match="fn must be callable"):
        checkpoint(3, og.tensor([1.0]))
    with pytest.raises(TypeError, match="use_reentrant must be a bool"):
        checkpoint(og.tanh, og.tensor([1.0]), use_reentrant=None)
    with pytest.raises(TypeError, match="preserve_rng_state must be a bool"):
        checkpoint(og.tanh, og.tensor([1.0]), preserve_rng_state=1)
    with pytest.raises(ValueError, match="segments must be an int >= 1"):
        checkpoint_sequential([og.tanh], 0, og.tensor([1.0]))
    with pytest.raises(ValueError, match="2 segments for 1 functions"):
        checkpoint_sequential([og.tanh], 2, og.tensor([1.0]))
