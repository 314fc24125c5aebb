"""og.autograd.functional: vjp, jvp, jacobian, hessian, hvp, vhp against finite differences
(float64) and, when installed, against torch.autograd.functional."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.autograd import functional as F

RNG = np.random.default_rng(0)


def t(a, requires_grad=False):
    return og.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def f_np(x, y):
    return np.tanh(x[:, None] * y[None, :]).sum(axis=1) + x**2


def f_og(x, y):
    return og.sum(og.tanh(og.unsqueeze(x, 1) * og.unsqueeze(y, 0)), axis=1) + x * x


def numeric_jacobian(fn, xs, eps=1e-6):
    """d fn / d xs[k] by central differences, as arrays of shape out + in."""
    out = np.asarray(fn(*xs))
    jacs = []
    for k, x in enumerate(xs):
        jac = np.zeros(out.shape + x.shape)
        for idx in np.ndindex(*x.shape):
            plus = [a.copy() for a in xs]
            minus = [a.copy() for a in xs]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            jac[(...,) + idx] = (np.asarray(fn(*plus)) - np.asarray(fn(*minus))) / (2 * eps)
        jacs.append(jac)
    return jacs


X = RNG.standard_normal(3)
Y = RNG.standard_normal(4)


def test_jacobian_both_strategies_match_finite_differences():
    jx, jy = numeric_jacobian(f_np, [X, Y])
    for strategy in ("reverse-mode", "forward-mode"):
        (gx, gy) = F.jacobian(f_og, (t(X), t(Y)), strategy=strategy)
        np.testing.assert_allclose(gx.numpy(), jx, atol=1e-7)
        np.testing.assert_allclose(gy.numpy(), jy, atol=1e-7)
        assert gx.grad_fn is None and not gx.requires_grad


def test_jacobian_single_input_single_output_is_a_tensor():
    j = F.jacobian(og.tanh, t(X))
    assert isinstance(j, og.Tensor) and j.shape == (3, 3)
    np.testing.assert_allclose(j.numpy(), np.diag(1 - np.tanh(X) ** 2), atol=1e-12)


def test_vjp_and_jvp_match_the_jacobian():
    jx, jy = numeric_jacobian(f_np, [X, Y])
    v = RNG.standard_normal(3)
    out, (gx, gy) = F.vjp(f_og, (t(X), t(Y)), t(v))
    np.testing.assert_allclose(out.numpy(), f_np(X, Y))
    np.testing.assert_allclose(gx.numpy(), v @ jx, atol=1e-7)
    np.testing.assert_allclose(gy.numpy(), v @ jy, atol=1e-7)
    u, w = RNG.standard_normal(3), RNG.standard_normal(4)
    out, jv = F.jvp(f_og, (t(X), t(Y)), (t(u), t(w)))
    np.testing.assert_allclose(jv.numpy(), jx @ u + jy @ w, atol=1e-7)


def g_np(x):
    return np.sum(np.tanh(x) * np.exp(0.3 * x)) + x[0] * x[1] ** 2


def g_og(x):
    return og.sum(og.tanh(x) * og.exp(x * 0.3)) + x[0] * x[1] ** 2


def numeric_hessian(fn, x, eps=1e-4):
    def grad(z):
        return numeric_jacobian(fn, [z], 1e-6)[0]

    h = np.zeros((x.size, x.size))
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        h[:, i] = (grad(x + e) - grad(x - e)) / (2 * eps)
    return h


def test_hessian_hvp_vhp_match_finite_differences_of_gradients():
    x = RNG.standard_normal(4)
    h_num = numeric_hessian(g_np, x)
    for strategy in ("reverse-mode", "forward-mode"):
        h = F.hessian(g_og, t(x), outer_jacobian_strategy=strategy)
        np.testing.assert_allclose(h.numpy(), h_num, atol=1e-5)
    v = RNG.standard_normal(4)
    value, hv = F.hvp(g_og, t(x), t(v))
    np.testing.assert_allclose(value.numpy(), g_np(x))
    np.testing.assert_allclose(hv.numpy(), h_num @ v, atol=1e-5)
    _, vh = F.vhp(g_og, t(x), t(v))
    np.testing.assert_allclose(vh.numpy(), v @ h_num, atol=1e-5)


def test_strict_raises_for_an_output_independent_of_an_input():
    def f(x, y):
        return x * 2

    with pytest.raises(RuntimeError, match="independent of input 1"):
        F.vjp(f, (t(X), t(X)), t(X), strict=True)
    with pytest.raises(RuntimeError, match="independent"):
        F.jacobian(f, (t(X), t(X)), strict=True)
    # not strict: zeros of the input's shape
    (jx, jy) = F.jacobian(f, (t(X), t(Y)))
    assert jy.shape == (3, 4) and not np.any(jy.numpy())
    _, (gx, gy) = F.vjp(f, (t(X), t(Y)), t(X))
    assert gy.shape == (4,) and not np.any(gy.numpy())


def test_constant_function():
    def f(x):
        return og.tensor(np.ones(2))

    with pytest.raises(RuntimeError, match="independent"):
        F.jacobian(f, t(X), strict=True)
    assert not np.any(F.jacobian(f, t(X)).numpy())
    _, jv = F.jvp(f, t(X), t(X))
    assert not np.any(jv.numpy())


def test_create_graph_keeps_the_result_differentiable():
    x = t(X, requires_grad=True)
    _, g = F.vjp(lambda z: og.sum(og.tanh(z)), x, create_graph=True)
    (gg,) = og.grad([og.sum(g)], [x])
    # d/dx sum(1 - tanh^2) = -2 tanh (1 - tanh^2)
    np.testing.assert_allclose(gg.numpy(), -2 * np.tanh(X) * (1 - np.tanh(X) ** 2), atol=1e-12)
    j = F.jacobian(og.tanh, x, create_graph=True)
    assert j.requires_grad
    h = F.hessian(g_og, x, create_graph=True)
    assert h.requires_grad
    # without create_graph nothing is recorded
    assert not F.jacobian(og.tanh, x).requires_grad


def test_bad_arguments():
    with pytest.raises(TypeError, match="inputs must be a Tensor or a tuple"):
        F.jacobian(og.tanh, [1.0, 2.0][0])
    with pytest.raises(ValueError, match="strategy"):
        F.jacobian(og.tanh, t(X), strategy="sideways")
    with pytest.raises(RuntimeError, match="v may be omitted only"):
        F.vjp(og.tanh, t(X))
    with pytest.raises(ValueError, match="shape"):
        F.vjp(og.tanh, t(X), t(Y))
    with pytest.raises(RuntimeError, match="single tensor with one element"):
        F.hessian(og.tanh, t(X))
    with pytest.raises(ValueError, match="create_graph"):
        F.jacobian(og.tanh, t(X), create_graph=True, strategy="forward-mode")
    # a scalar function of a scalar: v may be omitted
    out, g = F.vjp(lambda z: z * z, t(3.0))
    assert g.item() == 6.0


def test_against_torch():
    torch = pytest.importorskip("torch")
    tf = torch.autograd.functional
    tx, ty = torch.tensor(X), torch.tensor(Y)

    def f_torch(x, y):
        return torch.tanh(x[:, None] * y[None, :]).sum(dim=1) + x**2

    for ours, theirs in zip(F.jacobian(f_og, (t(X), t(Y))), tf.jacobian(f_torch, (tx, ty)), strict=True):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-12)
    v = RNG.standard_normal(3)
    _, ours = F.jvp(f_og, (t(X), t(Y)), (t(v), t(np.ones(4))))
    _, theirs = tf.jvp(f_torch, (tx, ty), (torch.tensor(v), torch.ones(4, dtype=torch.float64)))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-12)
    x = RNG.standard_normal(4)

    def g_torch(z):
        return torch.sum(torch.tanh(z) * torch.exp(0.3 * z)) + z[0] * z[1] ** 2

    np.testing.assert_allclose(
        F.hessian(g_og, t(x)).numpy(), tf.hessian(g_torch, torch.tensor(x)).numpy(), atol=1e-12
    )
    with pytest.raises(RuntimeError):
        tf.jacobian(lambda a, b: a * 2, (tx, tx), strict=True)
