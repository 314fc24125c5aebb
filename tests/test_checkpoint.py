"""og.utils.checkpoint / checkpoint_sequential: recompute in backward, same gradients
bitwise (dropout included), nested checkpoints, create_graph, bad arguments."""

from __future__ import annotations

import numpy as np
import pytest
from finite_differences import central

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
    out = checkpoint(lambda h: fns[1](fns[0](h)), x, preserve_rng_state=False, use_reentrant=True)
    og.sum(out).backward()
    kept = weights[0].grad.numpy().copy()
    weights[0].grad = weights[1].grad = None
    og.manual_seed(3)
    out = checkpoint(lambda h: fns[1](fns[0](h)), x, use_reentrant=True)
    og.sum(out).backward()
    assert not np.array_equal(kept, weights[0].grad.numpy())


def test_nested_checkpoints_and_grad():
    weights, fns, calls = make_layers(n=4, p=0.0)
    x = og.tensor(np.random.default_rng(7).standard_normal((3, 8)), requires_grad=True)

    def inner(h):
        return fns[2](fns[1](h))

    def outer(h):
        return fns[3](checkpoint(inner, fns[0](h), use_reentrant=True))

    og.sum(fns[3](fns[2](fns[1](fns[0](x))))).backward()
    expected = grads_of(weights, x)
    calls[0] = 0
    og.sum(checkpoint(outer, x, use_reentrant=True)).backward()
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
    (g,) = og.grad(
        [og.sum(checkpoint(lambda z: og.tanh(z) ** 3, x, use_reentrant=True))], [x], create_graph=True
    )
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
    og.sum(checkpoint_sequential(model, 2, x, use_reentrant=True)).backward()
    for a, p in zip(reference, model.parameters(), strict=True):
        np.testing.assert_array_equal(a, p.grad.numpy())
    with og.no_grad():
        assert not checkpoint_sequential(model, 2, x, use_reentrant=False).requires_grad


def test_bad_arguments():
    with pytest.raises(TypeError, match="fn must be callable"):
        checkpoint(3, og.tensor([1.0]))
    with pytest.raises(TypeError, match="use_reentrant must be a bool"):
        checkpoint(og.tanh, og.tensor([1.0]), use_reentrant="yes")
    with pytest.raises(TypeError, match="preserve_rng_state must be a bool"):
        checkpoint(og.tanh, og.tensor([1.0]), preserve_rng_state=1, use_reentrant=True)
    with pytest.raises(ValueError, match="segments must be an int >= 1"):
        checkpoint_sequential([og.tanh], 0, og.tensor([1.0]), use_reentrant=True)
    with pytest.raises(ValueError, match="2 segments for 1 functions"):
        checkpoint_sequential([og.tanh], 2, og.tensor([1.0]), use_reentrant=True)


@pytest.mark.parametrize("call", ["checkpoint", "checkpoint_sequential"])
def test_use_reentrant_not_given_warns_as_pytorch_does_and_means_true(call):
    """PyTorch 2.13 warns when use_reentrant is not passed and runs re-entrant: so do we."""
    w = og.tensor(np.linspace(0.5, 1.5, 3), requires_grad=True)
    x = og.tensor(np.linspace(-1.0, 1.0, 3), requires_grad=True)
    with pytest.warns(UserWarning, match=f"{call}: use_reentrant was not given; it defaults to True"):
        if call == "checkpoint":
            y = checkpoint(lambda z: og.tanh(z * w), x)
        else:
            y = checkpoint_sequential([lambda z: z * w, og.tanh], 2, x)
    with pytest.raises(RuntimeError, match="pass use_reentrant=False"):  # re-entrant: see below
        og.grad([og.sum(y)], [x, w])


def _closed_over_parameter(use_reentrant):
    w = og.tensor(np.linspace(0.5, 1.5, 3), requires_grad=True)
    x = og.tensor(np.linspace(-1.0, 1.0, 3), requires_grad=True)
    return w, x, checkpoint(lambda z: og.tanh(z * w), x, use_reentrant=use_reentrant)


def test_grad_through_a_reentrant_checkpoint_that_uses_a_parameter_raises_before_touching_grad():
    """The re-entrant recomputation could only accumulate w's gradient into w.grad, a side
    effect og.grad() must not have (PyTorch raises too): a clear error, and .grad untouched."""
    w, x, y = _closed_over_parameter(True)
    with pytest.raises(
        RuntimeError,
        match=r"og.grad\(\) cannot differentiate through this checkpoint: its function uses 1 tensor",
    ):
        og.grad([og.sum(y)], [x])
    assert w.grad is None and x.grad is None
    og.sum(y).backward()  # backward() is what re-entrant checkpointing is for
    expected = (1 - np.tanh(x.numpy() * w.numpy()) ** 2) * x.numpy()
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=1e-12)


def test_grad_reaches_the_parameters_of_a_non_reentrant_checkpoint():
    w, x, y = _closed_over_parameter(False)
    gx, gw = og.grad([og.sum(y)], [x, w])
    d = 1 - np.tanh(x.numpy() * w.numpy()) ** 2
    np.testing.assert_allclose(gw.numpy(), d * x.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gx.numpy(), d * w.numpy(), rtol=1e-12)
    assert w.grad is None and x.grad is None


def test_grad_through_a_non_reentrant_checkpoint_over_a_non_leaf_reaches_it():
    """fn closes over a tensor computed before the checkpoint: the graph is fn's own, so
    og.grad() reaches w through it (the re-entrant variant can only refuse)."""
    w = og.tensor(np.linspace(0.5, 1.5, 3), requires_grad=True)
    x = og.tensor(np.linspace(-1.0, 1.0, 3), requires_grad=True)
    scaled = w * 2
    y = checkpoint(lambda z: og.tanh(z * scaled), x, use_reentrant=False)
    gx, gw = og.grad([og.sum(y)], [x, w])
    d = 1 - np.tanh(x.numpy() * 2 * w.numpy()) ** 2
    np.testing.assert_allclose(gw.numpy(), d * 2 * x.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gx.numpy(), d * 2 * w.numpy(), rtol=1e-12)
    assert w.grad is None and x.grad is None
    y = checkpoint(lambda z: og.tanh(z * scaled), x, use_reentrant=True)
    with pytest.raises(
        RuntimeError, match="a tensor computed before the checkpoint .* pass use_reentrant=False"
    ):
        og.grad([og.sum(y)], [x])
    assert w.grad is None


def _deep(n_layers, use_reentrant, size=512):
    """n_layers tanh layers on a (size, size) float64 input (2 MiB an activation)."""
    rng = np.random.default_rng(12)
    ws = [
        og.tensor(rng.standard_normal((size, size)) / size**0.5, requires_grad=True) for _ in range(n_layers)
    ]
    x = og.tensor(rng.standard_normal((size, size)))

    def fn(h):
        for w in ws:
            h = og.tanh(h @ w)
        return h

    return ws, x, fn


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_a_checkpoint_keeps_no_activation_after_forward(use_reentrant):
    """Without checkpointing the graph holds every layer's output; with it, only what the
    caller holds (the output). Measured with tracemalloc: deterministic, not a timing."""
    import gc
    import tracemalloc

    ws, x, fn = _deep(5, use_reentrant)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        plain = fn(x)
        kept_plain = tracemalloc.get_traced_memory()[0] - base
        del plain
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
        out = checkpoint(fn, x, use_reentrant=use_reentrant)
        kept_ckpt = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    activation = 512 * 512 * 8
    assert kept_plain >= 5 * activation  # the five outputs, each saved for backward
    assert kept_ckpt < 1.5 * activation  # the output alone
    og.sum(out).backward()
    assert all(w.grad is not None for w in ws)


def test_non_reentrant_recomputes_once_per_backward_and_again_with_retain_graph():
    weights, fns, calls = make_layers(n=3, p=0.4)
    x = og.tensor(np.random.default_rng(13).standard_normal((4, 8)), requires_grad=True)

    def fn(h):
        return fns[2](fns[1](fns[0](h)))

    og.manual_seed(2)
    og.sum(fn(x) ** 2).backward()
    expected = grads_of(weights, x)
    calls[0] = 0
    og.manual_seed(2)
    out = checkpoint(fn, x, use_reentrant=False)
    loss = og.sum(out**2)
    loss.backward(retain_graph=True)
    assert calls[0] == 3 + 3  # the forward, then one recomputation for every saved tensor
    for a, b in zip(expected, grads_of(weights, x), strict=True):
        np.testing.assert_array_equal(a, b)
    loss.backward()  # a second pass recomputes again, with the same dropout masks
    assert calls[0] == 3 + 3 + 3
    for a, b in zip(expected, grads_of(weights, x), strict=True):
        np.testing.assert_array_equal(a, b)


def test_non_reentrant_double_backward_against_finite_differences():
    x0 = np.array([0.2, -0.5, 0.9])
    w = og.tensor(np.array([0.7, -1.1, 0.4]), requires_grad=True)

    def f(z):
        return og.tanh(z * w) ** 3

    def grad_sum(xv):
        x = og.tensor(xv, requires_grad=True)
        (g,) = og.grad([og.sum(checkpoint(f, x, use_reentrant=False))], [x], create_graph=True)
        return x, g

    x, g = grad_sum(x0)
    (gg,) = og.grad([og.sum(g)], [x])
    fd = central(lambda v: grad_sum(v)[1].numpy().sum(), x0)
    np.testing.assert_allclose(gg.numpy(), fd, rtol=1e-6, atol=1e-8)


def test_non_reentrant_recomputation_that_saves_differently_raises():
    flip = [False]
    x = og.tensor(np.array([0.3, -0.2]), requires_grad=True)

    def fn(z):
        return og.tanh(og.tanh(z)) if flip[0] else og.tanh(z)

    out = checkpoint(fn, x, use_reentrant=False)
    flip[0] = True
    with pytest.raises(
        RuntimeError, match="recomputing fn saved 2 tensors for backward where its first run saved 1"
    ):
        og.sum(out).backward()
    assert x.grad is None


def test_non_reentrant_input_changed_in_place_after_forward_raises():
    x = og.tensor(np.array([0.3, -0.2, 0.8]))
    w = og.tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    out = checkpoint(lambda z: og.tanh(z * w), x, use_reentrant=False)
    with og.no_grad():
        x.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an in-place operation|in-place"):
        og.sum(out).backward()


def test_running_accumulates_tells_backward_from_grad():
    from opgrad.runtime.engine import running_accumulates

    seen = []
    x = og.tensor([1.0, 2.0], requires_grad=True)
    assert running_accumulates() is None
    y = og.tanh(x)
    y.register_hook(lambda g: seen.append(running_accumulates()))
    og.sum(y).backward(retain_graph=True)
    og.grad([og.sum(y)], [x], retain_graph=True)
    og.grad([og.sum(y)], [x], only_inputs=False)
    assert seen == [True, False, True]
    assert running_accumulates() is None
