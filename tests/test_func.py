"""og.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian and their compositions,
in float64 against finite differences (and torch.func when installed)."""

from __future__ import annotations

import numpy as np
import pytest
from finite_differences import central

import opgrad as og
from opgrad import func

RNG = np.random.default_rng(2)


def t(a, requires_grad=False):
    return og.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def f_np(x):
    return np.tanh(x) * np.exp(0.5 * x[::-1])


def f_og(x):
    return og.tanh(x) * og.exp(og.flip(x, [0]) * 0.5)


def s_np(x):
    return float(np.sum(f_np(x)) + x[0] * x[-1])


def s_og(x):
    return og.sum(f_og(x)) + x[0] * x[-1]


X = RNG.standard_normal(4)


def test_grad_grad_and_value_argnums_has_aux():
    g = func.grad(s_og)(t(X))
    np.testing.assert_allclose(g.numpy(), central(s_np, X), atol=1e-8)
    g, value = func.grad_and_value(s_og)(t(X))
    assert value.item() == pytest.approx(s_np(X))

    def two(a, b):
        return og.sum(a * b * b), "aux"

    (ga, gb), aux = func.grad(two, argnums=(0, 1), has_aux=True)(t([1.0, 2.0]), t([3.0, 4.0]))
    assert aux == "aux"
    assert ga.numpy().tolist() == [9.0, 16.0] and gb.numpy().tolist() == [6.0, 16.0]
    gb = func.grad(lambda a, b: og.sum(a * b), argnums=-1)(t([1.0, 2.0]), t([3.0, 4.0]))
    assert gb.numpy().tolist() == [1.0, 2.0]


def test_grad_errors():
    with pytest.raises(RuntimeError, match="single element"):
        func.grad(f_og)(t(X))
    with pytest.raises(IndexError, match="argnums 2"):
        func.grad(s_og, argnums=2)(t(X))
    with pytest.raises(TypeError, match="must be a Tensor"):
        func.grad(lambda a: a * 2)(3.0)
    with pytest.raises(TypeError, match="pair"):
        func.grad(s_og, has_aux=True)(t(X))


def test_vjp_and_jvp():
    jac = central(f_np, X)
    v = RNG.standard_normal(4)
    out, vjp_fn = func.vjp(f_og, t(X))
    (g,) = vjp_fn(t(v))
    np.testing.assert_allclose(g.numpy(), v @ jac, atol=1e-8)
    (g2,) = vjp_fn(t(2 * v))  # callable again
    np.testing.assert_allclose(g2.numpy(), 2 * v @ jac, atol=1e-8)
    out, jv = func.jvp(f_og, (t(X),), (t(v),))
    np.testing.assert_allclose(out.numpy(), f_np(X))
    np.testing.assert_allclose(jv.numpy(), jac @ v, atol=1e-8)
    with pytest.raises(ValueError, match="shape"):
        func.jvp(f_og, (t(X),), (t(v[:2]),))


def test_jacrev_jacfwd_hessian_and_compositions():
    jac = central(f_np, X)
    np.testing.assert_allclose(func.jacrev(f_og)(t(X)).numpy(), jac, atol=1e-8)
    np.testing.assert_allclose(func.jacfwd(f_og)(t(X)).numpy(), jac, atol=1e-8)
    hess = central(lambda z: central(s_np, z), X, 1e-4)
    for h in (
        func.hessian(s_og)(t(X)),
        func.jacfwd(func.jacrev(s_og))(t(X)),
        func.jacrev(func.jacrev(s_og))(t(X)),
        func.jacfwd(func.jacfwd(s_og))(t(X)),  # the inner level falls back to double-vjp
        func.jacrev(func.grad(s_og))(t(X)),
    ):
        np.testing.assert_allclose(h.numpy(), hess, atol=1e-5)


def test_nested_levels_do_not_confuse_perturbations():
    # d/dx [x * d/dy (x + y)] = d/dx [x] = 1 (perturbation confusion would give 2)
    def inner(x):
        return func.grad(lambda y: og.sum(x + y))(t([0.0]))

    outer = func.grad(lambda x: og.sum(x * inner(x)))(t([3.0]))
    assert outer.item() == 1.0
    # and with forward mode outside: jacfwd of a function calling grad
    j = func.jacfwd(lambda x: x * inner(x))(t([3.0]))
    assert j.numpy().tolist() == [[1.0]]


def test_closure_over_a_tensor_that_requires_grad_keeps_its_gradient():
    w = t([2.0, 3.0], requires_grad=True)
    g = func.grad(lambda x: og.sum(og.tanh(x * w)))(t([0.1, 0.2]))
    og.sum(g).backward()  # d/dw sum(w * (1 - tanh(x w)^2))
    x, wv = np.array([0.1, 0.2]), np.array([2.0, 3.0])
    th = np.tanh(x * wv)
    np.testing.assert_allclose(w.grad.numpy(), (1 - th**2) - 2 * wv * th * (1 - th**2) * x, atol=1e-12)


@pytest.mark.slow  # importing torch.func takes tens of seconds on a loaded machine
def test_against_torch_func():
    torch = pytest.importorskip("torch")

    def s_torch(z):
        return torch.sum(torch.tanh(z) * torch.exp(0.5 * torch.flip(z, [0]))) + z[0] * z[-1]

    theirs = torch.func.hessian(s_torch)(torch.tensor(X)).numpy()
    np.testing.assert_allclose(func.hessian(s_og)(t(X)).numpy(), theirs, atol=1e-12)
