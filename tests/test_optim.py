"""opgrad.optim: each optimizer's steps against the same update written in NumPy, parameter
groups, state dicts, in-place updates and version bumps, LR schedules, gradient clipping."""

from __future__ import annotations

import math

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import nn, optim
from opgrad.runtime.optim import lr_scheduler

W0 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
B0 = np.array([0.1, -0.2, 0.3])
X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7], [2.0, 1.0]])


def arr(t: og.Tensor) -> np.ndarray:
    return np.array(t.numpy())


def params() -> tuple[nn.Parameter, nn.Parameter]:
    return nn.Parameter(og.tensor(W0)), nn.Parameter(og.tensor(B0))


def loss_and_grads(w: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """loss = sum(tanh(X @ w + b) ** 2) and its gradients, by hand."""
    h = np.tanh(X @ w + b)
    dz = 2 * h * (1 - h**2)
    return float((h**2).sum()), X.T @ dz, dz.sum(0)


def og_step(opt: optim.Optimizer, w: og.Tensor, b: og.Tensor) -> float:
    opt.zero_grad()
    loss = (og.tanh(og.tensor(X) @ w + b) ** 2).sum()
    loss.backward()
    opt.step()
    return loss.item()


def run(opt_factory, numpy_update, steps: int = 3) -> None:
    """Three steps of the optimizer against three steps of `numpy_update(p, g, state, i)`."""
    w, b = params()
    opt = opt_factory([w, b])
    ref = [W0.copy(), B0.copy()]
    states: list[dict] = [{}, {}]
    for t in range(1, steps + 1):
        _, gw, gb = loss_and_grads(*ref)
        og_step(opt, w, b)
        for i, g in enumerate((gw, gb)):
            ref[i] = numpy_update(ref[i], g, states[i], t)
        np.testing.assert_allclose(arr(w), ref[0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(arr(b), ref[1], rtol=1e-10, atol=1e-12)


def test_plain_sgd():
    run(lambda ps: optim.SGD(ps, lr=0.1), lambda p, g, s, t: p - 0.1 * g)


def test_sgd_with_weight_decay():
    run(lambda ps: optim.SGD(ps, lr=0.1, weight_decay=0.01), lambda p, g, s, t: p - 0.1 * (g + 0.01 * p))


def sgd_momentum(lr, mu, dampening=0.0, wd=0.0, nesterov=False):
    def update(p, g, s, t):
        d = g + wd * p
        if "buf" not in s:
            s["buf"] = d.copy()
        else:
            s["buf"] = mu * s["buf"] + (1 - dampening) * d
        d = d + mu * s["buf"] if nesterov else s["buf"]
        return p - lr * d

    return update


def test_sgd_momentum():
    run(lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9), sgd_momentum(0.1, 0.9))


def test_sgd_momentum_dampening_weight_decay():
    run(
        lambda ps: optim.SGD(ps, lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.1),
        sgd_momentum(0.05, 0.8, dampening=0.3, wd=0.1),
    )


def test_sgd_nesterov():
    run(
        lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
        sgd_momentum(0.1, 0.9, wd=0.01, nesterov=True),
    )


def adam(lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, decoupled=False, amsgrad=False):
    def update(p, g, s, t):
        if wd and decoupled:
            p = p * (1 - lr * wd)
        elif wd:
            g = g + wd * p
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
        v = s["v"]
        if amsgrad:
            s["vmax"] = v = np.maximum(s.get("vmax", 0), v)
        m_hat = s["m"] / (1 - b1**t)
        v_hat = v / (1 - b2**t)
        return p - lr * m_hat / (np.sqrt(v_hat) + eps)

    return update


def test_adam():
    run(lambda ps: optim.Adam(ps, lr=0.01), adam(0.01))


def test_adam_betas_eps_and_l2_weight_decay():
    run(
        lambda ps: optim.Adam(ps, lr=0.05, betas=(0.8, 0.99), eps=1e-3, weight_decay=0.1),
        adam(0.05, 0.8, 0.99, 1e-3, wd=0.1),
    )


def test_adam_amsgrad():
    run(lambda ps: optim.Adam(ps, lr=0.05, amsgrad=True), adam(0.05, amsgrad=True), steps=4)


def test_adamw_decouples_weight_decay():
    run(lambda ps: optim.AdamW(ps, lr=0.01, weight_decay=0.1), adam(0.01, wd=0.1, decoupled=True))
    assert optim.AdamW([nn.Parameter(og.zeros((1,)))]).param_groups[0]["weight_decay"] == 1e-2


def test_updates_are_in_place_and_bump_the_version():
    w, b = params()
    data = w._data
    opt = optim.SGD([w, b], lr=0.1)
    x = og.tensor(X)
    out = (x @ w + b).sum()
    out.backward(retain_graph=True)
    version = w._version
    opt.step()
    assert w._data is data and w._version == version + 1
    y = og.tensor(X, requires_grad=True)
    stale = (y @ w).sum()  # matmul saved w for y's gradient
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        stale.backward()


def test_parameters_without_gradients_are_skipped():
    w, b = params()
    opt = optim.Adam([w, b], lr=0.1)
    (og.tensor(X) @ w).sum().backward()
    opt.step()
    np.testing.assert_array_equal(arr(b), B0)
    assert b not in opt.state and "exp_avg" in opt.state[w]


def test_zero_grad():
    w, b = params()
    opt = optim.SGD([w, b], lr=0.1)
    (og.tensor(X) @ w + b).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert not arr(w.grad).any() and not arr(b.grad).any()
    opt.zero_grad()
    assert w.grad is None and b.grad is None


def test_param_groups_have_their_own_hyper_parameters():
    w, b = params()
    opt = optim.SGD([{"params": [w]}, {"params": b, "lr": 1.0}], lr=0.1, momentum=0.5)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 1.0]
    assert opt.param_groups[1]["momentum"] == 0.5
    _, gw, gb = loss_and_grads(W0, B0)
    og_step(opt, w, b)
    np.testing.assert_allclose(arr(w), W0 - 0.1 * gw)
    np.testing.assert_allclose(arr(b), B0 - 1.0 * gb)
    assert "Parameter Group 1" in repr(opt)


def test_bad_arguments_are_rejected():
    w, b = params()
    with pytest.raises(ValueError, match="more than one"):
        optim.SGD([w, w], lr=0.1)
    with pytest.raises(ValueError, match="empty"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="wrap it in a list"):
        optim.SGD(w, lr=0.1)
    with pytest.raises(ValueError, match="not a leaf"):
        optim.SGD([w * 2], lr=0.1)
    with pytest.raises(ValueError, match="unknown"):
        optim.SGD([{"params": [w], "lr": 0.1, "betas": (0.9, 0.9)}], lr=0.1)
    with pytest.raises(ValueError, match="nesterov"):
        optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="lr"):
        optim.Adam([w], lr=-1)


def test_state_dict_round_trip_resumes_identically():
    w1, b1 = params()
    opt1 = optim.Adam([w1, b1], lr=0.05)
    og_step(opt1, w1, b1)
    sd = opt1.state_dict()
    assert sd["param_groups"][0]["params"] == [0, 1]
    assert sd["state"][0]["step"] == 1
    w2, b2 = nn.Parameter(og.tensor(arr(w1))), nn.Parameter(og.tensor(arr(b1)))
    opt2 = optim.Adam([w2, b2], lr=0.5)
    opt2.load_state_dict(sd)
    assert opt2.param_groups[0]["lr"] == 0.05
    sd["state"][0]["exp_avg"][...] = 0  # the optimizer holds its own copy
    og_step(opt1, w1, b1)
    og_step(opt2, w2, b2)
    np.testing.assert_array_equal(arr(w1), arr(w2))
    np.testing.assert_array_equal(arr(b1), arr(b2))
    with pytest.raises(ValueError, match="groups"):
        optim.Adam([{"params": [w2]}, {"params": [b2]}]).load_state_dict(sd)


def test_closure_is_evaluated_with_grad_enabled():
    w, b = params()
    opt = optim.SGD([w, b], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (og.tanh(og.tensor(X) @ w + b) ** 2).sum()
        loss.backward()
        return loss

    with og.no_grad():
        loss = opt.step(closure)
    assert loss.item() == pytest.approx(loss_and_grads(W0, B0)[0])


def test_float32_parameters_stay_float32():
    lin = nn.Linear(3, 2)
    opt = optim.Adam(lin.parameters(), lr=0.1, weight_decay=0.1)
    lin(og.randn((4, 3))).sum().backward()
    opt.step()
    assert all(p.dtype == np.float32 for p in lin.parameters())
    assert all(s["exp_avg"].dtype == np.float32 for s in opt.state.values())


# -- schedules ----------------------------------------------------------------------------------
def test_step_lr():
    w, b = params()
    opt = optim.SGD([{"params": [w]}, {"params": [b], "lr": 1.0}], lr=0.1)
    sched = lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    seen = []
    for _ in range(8):
        seen.append(sched.get_last_lr())
        opt.step()
        sched.step()
    expected = [[0.1 * 0.5 ** (e // 3), 1.0 * 0.5 ** (e // 3)] for e in range(8)]
    np.testing.assert_allclose(seen, expected)
    assert opt.param_groups[0]["lr"] == pytest.approx(0.1 * 0.5**2)


def test_step_lr_state_dict_resumes():
    w, _ = params()
    opt = optim.SGD([w], lr=1.0)
    sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
    for _ in range(3):
        sched.step()
    state = sched.state_dict()
    opt2 = optim.SGD([nn.Parameter(og.tensor(W0))], lr=1.0)
    sched2 = lr_scheduler.StepLR(opt2, step_size=5)
    sched2.load_state_dict(state)
    sched.step()
    sched2.step()
    assert sched2.get_last_lr() == pytest.approx(sched.get_last_lr())
    assert sched2.get_last_lr() == pytest.approx([0.01])


def test_cosine_exponential_and_lambda_schedules():
    w, _ = params()
    opt = optim.SGD([w], lr=1.0)
    cos = lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.1)
    got = [cos.get_last_lr()[0]]
    for _ in range(4):
        cos.step()
        got.append(cos.get_last_lr()[0])
    np.testing.assert_allclose(got, [0.1 + 0.9 * (1 + math.cos(math.pi * e / 4)) / 2 for e in range(5)])
    opt = optim.SGD([w], lr=2.0)
    exp = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    exp.step()
    exp.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(0.5)
    opt = optim.SGD([w], lr=2.0)
    lam = lr_scheduler.LambdaLR(opt, lambda e: 1 / (e + 1))
    lam.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(1.0)


# -- gradient clipping ----------------------------------------------------------------------------
def grads_of(*shapes_and_values):
    ps = []
    for values in shapes_and_values:
        p = nn.Parameter(og.zeros(np.shape(values), dtype="float64"))
        p.grad = og.tensor(np.asarray(values, dtype=np.float64))
        ps.append(p)
    return ps


def test_clip_grad_norm_scales_all_gradients_together():
    ps = grads_of([3.0, 0.0], [[0.0, 4.0]])  # total norm 5
    originals = [p.grad for p in ps]
    total = nn.utils.clip_grad_norm_(ps, max_norm=1.0)
    assert isinstance(total, og.Tensor) and total.item() == pytest.approx(5.0)
    np.testing.assert_allclose(arr(ps[0].grad), [0.6, 0.0], rtol=1e-5)
    np.testing.assert_allclose(arr(ps[1].grad), [[0.0, 0.8]], rtol=1e-5)
    np.testing.assert_array_equal(arr(originals[0]), [3.0, 0.0])  # a user's tensor is not overwritten
    assert optim.clip_grad_norm_ is nn.utils.clip_grad_norm_


def test_clip_grad_norm_leaves_small_gradients_alone_and_supports_inf_norm():
    ps = grads_of([0.3, -0.4])
    assert nn.utils.clip_grad_norm_(ps, max_norm=1.0).item() == pytest.approx(0.5)
    np.testing.assert_array_equal(arr(ps[0].grad), [0.3, -0.4])
    ps = grads_of([1.0, -3.0], [2.0])
    assert nn.utils.clip_grad_norm_(ps, max_norm=1.5, norm_type=math.inf).item() == pytest.approx(3.0)
    np.testing.assert_allclose(arr(ps[0].grad), [0.5, -1.5], rtol=1e-5)
    ps = grads_of([1.0, -2.0])
    assert nn.utils.clip_grad_norm_(ps, 10.0, norm_type=1).item() == pytest.approx(3.0)


def test_clip_grad_norm_on_engine_gradients_and_nonfinite():
    lin = nn.Linear(3, 2)
    (lin(og.randn((5, 3))) * 100).sum().backward()
    before = math.sqrt(sum(float((arr(p.grad) ** 2).sum()) for p in lin.parameters()))
    total = nn.utils.clip_grad_norm_(lin.parameters(), 0.5)
    assert total.item() == pytest.approx(before, rel=1e-5)
    after = math.sqrt(sum(float((arr(p.grad) ** 2).sum()) for p in lin.parameters()))
    assert after == pytest.approx(0.5, rel=1e-4)
    bad = grads_of([np.inf, 1.0])
    with pytest.raises(RuntimeError, match="total norm"):
        nn.utils.clip_grad_norm_(bad, 1.0, error_if_nonfinite=True)
    assert nn.utils.clip_grad_norm_([], 1.0).item() == 0.0


def test_clip_grad_value():
    ps = grads_of([-3.0, 0.5, 2.0])
    nn.utils.clip_grad_value_(ps, 1.0)
    np.testing.assert_array_equal(arr(ps[0].grad), [-1.0, 0.5, 1.0])


def test_sgd_momentum_trains_a_regression_to_low_loss():
    og.manual_seed(0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((128, 3)).astype(np.float32)
    y = (np.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:3]).astype(np.float32)
    model = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = lr_scheduler.StepLR(opt, step_size=200, gamma=0.5)
    xt, yt = og.tensor(x), og.tensor(y)
    first = None
    for _ in range(400):
        opt.zero_grad()
        loss = og.mse_loss(model(xt), yt)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        sched.step()
        first = loss.item() if first is None else first
    assert loss.item() < 0.05 * first
