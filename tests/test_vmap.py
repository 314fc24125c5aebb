"""og.func.vmap (torch.func.vmap's semantics, by the per-element fallback): equal to a Python
loop, in_dims/out_dims forms, nesting, per-sample gradients, randomness modes, errors."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og

vmap = og.func.vmap
RNG = np.random.default_rng(2)


def t(*shape, grad=False):
    return og.tensor(RNG.standard_normal(shape), requires_grad=grad)


def test_vmap_equals_the_loop_for_a_composition():
    x, w = t(5, 3), t(3, 4)

    def f(row, weight):
        return og.tanh(og.matmul(row, weight)) * og.sum(row)

    got = vmap(f, in_dims=(0, None))(x, w)
    want = np.stack([f(x[i], w).numpy() for i in range(5)])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-14)


@pytest.mark.parametrize(("in_dims", "out_dims"), [((1, None), 0), ((-1, None), 1), ((1, None), -1)])
def test_in_dims_and_out_dims_move_the_mapped_axis(in_dims, out_dims):
    x, v = t(2, 4, 3), t(2)
    got = vmap(lambda a, b: a * og.sum(b), in_dims=in_dims, out_dims=out_dims)(x, v)
    axis = in_dims[0] % 3
    want = np.stack(
        [np.take(x.numpy(), i, axis=axis) * v.numpy().sum() for i in range(x.shape[axis])], axis=out_dims
    )
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-14)


def test_nested_vmap_maps_two_axes_and_pytrees_work():
    a, b = t(2, 3, 4), t(2, 4)
    outer = vmap(vmap(lambda row, vec: og.sum(row * vec), in_dims=(0, None)), in_dims=(0, 0))
    np.testing.assert_allclose(outer(a, b).numpy(), np.einsum("ijk,ik->ij", a.numpy(), b.numpy()), rtol=1e-13)
    out = vmap(lambda d: {"s": og.sum(d["x"]), "p": (d["x"] * 2, d["y"])}, in_dims=({"x": 0, "y": None},))(
        {"x": t(3, 2), "y": t(5)}
    )
    assert (
        out["s"].shape == (3,) and out["p"][0].shape == (3, 2) and out["p"][1].shape == (3, 5)
    )  # out_dims=0 batches it too, as PyTorch


def test_vmap_of_grad_gives_per_sample_gradients_and_differentiates():
    w = t(3, grad=True)
    xs = t(4, 3)

    def loss(weight, x):
        return og.sum(og.tanh(x * weight) ** 2)

    per_sample = vmap(og.func.grad(loss), in_dims=(None, 0))(w, xs)
    for i in range(4):
        np.testing.assert_allclose(per_sample[i].numpy(), og.func.grad(loss)(w, xs[i]).numpy(), rtol=1e-13)
    assert og.testing.gradcheck(lambda weight: vmap(lambda x: og.sum(og.tanh(x * weight)))(xs), [w])
    assert og.testing.gradgradcheck(lambda weight: vmap(lambda x: og.sum(og.tanh(x * weight)))(xs), [w])


def test_randomness_modes():
    x = og.zeros((4, 3), dtype=og.float64)
    with pytest.raises(RuntimeError, match="vmap: func drew random numbers"):
        vmap(lambda a: a + og.randn(3, dtype=og.float64))(x)
    same = vmap(lambda a: a + og.randn(3, dtype=og.float64), randomness="same")(x).numpy()
    assert np.all(same == same[0])
    diff = vmap(lambda a: a + og.randn(3, dtype=og.float64), randomness="different")(x).numpy()
    assert not np.allclose(diff[0], diff[1])


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: vmap(lambda a, b: a + b)(t(3, 2), t(4, 2)),
            "all have one size: argument 0 has size 3 along axis 0, but argument 1 has size 4",
        ),
        (lambda: vmap(lambda a: a, in_dims=None)(t(3)), "at least one argument must be mapped"),
        (
            lambda: vmap(lambda a: a, in_dims=2)(t(3, 2)),
            "in_dims=2 is out of range for argument 0 with 2 dimensions",
        ),
        (
            lambda: vmap(lambda a, b: a, in_dims=(0,))(t(3), t(3)),
            "in_dims has 1 entries but the function got 2",
        ),
        (lambda: vmap(lambda a: 1.0)(t(3)), "output 0 is a float; a mapped output must be a Tensor"),
        (lambda: vmap(lambda a: a, randomness="sometimes"), "randomness must be one of"),
        (lambda: vmap(lambda a: a)(3.0), "argument 0 is mapped \\(in_dims=0\\) but holds a float"),
    ],
)
def test_errors_name_the_argument(call, match):
    with pytest.raises((ValueError, TypeError), match=match) as info:
        call()
    assert str(info.value).startswith("vmap: ")
