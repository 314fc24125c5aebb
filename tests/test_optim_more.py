"""RMSprop, Adagrad, LinearLR, LinearWarmup, OneCycleLR, ReduceLROnPlateau: NumPy references
of the published rules, PyTorch where cheap, per-group options, og.save round trips."""

from __future__ import annotations

import math

import numpy as np
import pytest

import opgrad as og
from opgrad import optim
from opgrad.optim import lr_scheduler as sched

GRADS = [
    np.array([0.5, -1.0, 2.0]),
    np.array([-0.3, 0.2, 1.5]),
    np.array([1.0, 1.0, -1.0]),
    np.array([0.1, -2, 0.3]),
]
P0 = np.array([1.0, -2.0, 0.5])


def run(opt_cls, steps=4, **kw):
    p = og.tensor(P0, dtype="float64", requires_grad=True)
    opt = opt_cls([p], **kw)
    for g in GRADS[:steps]:
        p.grad = og.tensor(g, dtype="float64")
        opt.step()
    return p.numpy(), opt


def rmsprop_ref(lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False):
    p, v, m, buf = P0.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for g in GRADS:
        g = g + weight_decay * p
        v = alpha * v + (1 - alpha) * g * g
        if centered:
            m = alpha * m + (1 - alpha) * g
            avg = np.sqrt(v - m * m) + eps
        else:
            avg = np.sqrt(v) + eps
        if momentum:
            buf = momentum * buf + g / avg
            p = p - lr * buf
        else:
            p = p - lr * g / avg
    return p


def adagrad_ref(lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10):
    p, s = P0.copy(), np.full(3, initial_accumulator_value)
    for t, g in enumerate(GRADS, 1):
        g = g + weight_decay * p
        s = s + g * g
        p = p - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(s) + eps)
    return p


RMS_CASES = [
    {},
    {"lr": 0.05, "momentum": 0.9},
    {"centered": True, "weight_decay": 0.1},
    {"centered": True, "momentum": 0.5, "alpha": 0.9, "eps": 1e-3},
]
ADA_CASES = [
    {},
    {"lr": 0.1, "lr_decay": 0.5},
    {"weight_decay": 0.2, "initial_accumulator_value": 0.3, "eps": 1e-3},
]


@pytest.mark.parametrize("kw", RMS_CASES)
def test_rmsprop_matches_the_numpy_reference(kw):
    np.testing.assert_allclose(run(optim.RMSprop, **kw)[0], rmsprop_ref(**kw), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kw", ADA_CASES)
def test_adagrad_matches_the_numpy_reference(kw):
    np.testing.assert_allclose(run(optim.Adagrad, **kw)[0], adagrad_ref(**kw), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(
    ("name", "kw"), [("RMSprop", k) for k in RMS_CASES] + [("Adagrad", k) for k in ADA_CASES]
)
def test_against_torch(name, kw):
    torch = pytest.importorskip("torch")
    p = torch.tensor(P0, requires_grad=True)
    opt = getattr(torch.optim, name)([p], **kw)
    for g in GRADS:
        p.grad = torch.tensor(g)
        opt.step()
    np.testing.assert_allclose(run(getattr(optim, name), **kw)[0], p.detach().numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls", [optim.RMSprop, optim.Adagrad])
def test_per_group_options_and_state_dict_through_og_save(cls, tmp_path):
    a = og.tensor(P0, dtype="float64", requires_grad=True)
    b = og.tensor(P0 * 2, dtype="float64", requires_grad=True)
    opt = cls([{"params": [a], "lr": 0.1}, {"params": [b], "weight_decay": 0.5}])
    assert opt.param_groups[0]["lr"] == 0.1 and opt.param_groups[1]["lr"] == 0.01
    assert opt.param_groups[1]["weight_decay"] == 0.5 and opt.param_groups[0]["weight_decay"] == 0.0
    for g in GRADS[:2]:
        a.grad = og.tensor(g, dtype="float64")
        b.grad = og.tensor(-g, dtype="float64")
        opt.step()
    og.save(opt.state_dict(), tmp_path / "opt")
    a2 = og.tensor(a.numpy().copy(), requires_grad=True)
    b2 = og.tensor(b.numpy().copy(), requires_grad=True)
    opt2 = cls([{"params": [a2]}, {"params": [b2]}])
    opt2.load_state_dict(og.load(tmp_path / "opt"))
    assert opt2.param_groups[0]["lr"] == 0.1 and opt2.param_groups[1]["weight_decay"] == 0.5
    for pa, pb, o in ((a, b, opt), (a2, b2, opt2)):
        pa.grad = og.tensor(GRADS[2], dtype="float64")
        pb.grad = og.tensor(GRADS[3], dtype="float64")
        o.step()
    np.testing.assert_array_equal(a2.numpy(), a.numpy())
    np.testing.assert_array_equal(b2.numpy(), b.numpy())


def test_bad_hyperparameters_are_named():
    p = og.ones((2,), requires_grad=True)
    with pytest.raises(ValueError, match=r"RMSprop: alpha must be a finite number in \[0"):
        optim.RMSprop([p], alpha=1.5)
    with pytest.raises(ValueError, match="RMSprop: param_groups\\[0\\]\\['momentum'\\]"):
        optim.RMSprop([{"params": [p], "momentum": -1.0}])
    with pytest.raises(TypeError, match="RMSprop: centered"):
        optim.RMSprop([p], centered="yes")
    with pytest.raises(ValueError, match="Adagrad: lr_decay"):
        optim.Adagrad([p], lr_decay=-0.1)
    with pytest.raises(ValueError, match="Adagrad: eps"):
        optim.Adagrad([p], eps=float("nan"))


def opt_with(groups=1, lr=1.0):
    return optim.SGD(
        [{"params": [og.ones((1,), requires_grad=True)], "lr": lr * (i + 1)} for i in range(groups)]
    )


def lrs(scheduler, n):
    out = [scheduler.get_last_lr()]
    for _ in range(n):
        scheduler.step()
        out.append(scheduler.get_last_lr())
    return out


def test_linear_lr_and_linear_warmup():
    s = sched.LinearLR(opt_with(), start_factor=0.25, total_iters=3)
    np.testing.assert_allclose([x[0] for x in lrs(s, 5)], [0.25, 0.5, 0.75, 1.0, 1.0, 1.0])
    opt = opt_with(2)
    after = sched.StepLR(opt, step_size=2, gamma=0.5)
    w = sched.LinearWarmup(opt, warmup_steps=4, after=after)
    got = lrs(w, 7)
    np.testing.assert_allclose([x[0] for x in got], [0.0, 0.25, 0.5, 0.75, 1.0, 1.0, 0.5, 0.5])
    np.testing.assert_allclose([x[1] for x in got], [0.0, 0.5, 1.0, 1.5, 2.0, 2.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="LinearLR: start_factor must be > 0"):
        sched.LinearLR(opt_with(), start_factor=0.0)


def test_linear_warmup_state_round_trips_through_og_save(tmp_path):
    opt = opt_with()
    w = sched.LinearWarmup(opt, 3, after=sched.ExponentialLR(opt, gamma=0.5))
    lrs(w, 4)
    og.save(w.state_dict(), tmp_path / "w")
    opt2 = opt_with()
    w2 = sched.LinearWarmup(opt2, 3, after=sched.ExponentialLR(opt2, gamma=0.5))
    w2.load_state_dict(og.load(tmp_path / "w"))
    w.step()
    w2.step()
    assert w2.get_last_lr() == w.get_last_lr() == [0.25]


def onecycle_ref(step, total, max_lr, pct=0.3, div=25.0, final=1e4, strategy="cos", three=False):
    start = max_lr / div
    low = start / final
    up = pct * total - 1

    def anneal(a, b, p):
        return a + (b - a) * p if strategy == "linear" else b + (a - b) / 2 * (1 + math.cos(math.pi * p))

    if three:
        phases = [(0, up, start, max_lr), (up, 2 * up, max_lr, start), (2 * up, total - 1, start, low)]
    else:
        phases = [(0, up, start, max_lr), (up, total - 1, max_lr, low)]
    for i, (b, e, x, y) in enumerate(phases):
        if step <= e or i == len(phases) - 1:
            return anneal(x, y, min((step - b) / (e - b), 1.0))
    raise AssertionError


@pytest.mark.parametrize("kw", [{}, {"anneal_strategy": "linear"}, {"three_phase": True, "pct_start": 0.25}])
def test_one_cycle_matches_the_reference_and_torch(kw):
    s = sched.OneCycleLR(opt_with(2), max_lr=[0.1, 0.2], total_steps=20, **kw)
    got = [x for x in lrs(s, 20)]
    pct = kw.get("pct_start", 0.3)
    strat = kw.get("anneal_strategy", "cos")
    three = kw.get("three_phase", False)
    for i, (a, b) in enumerate(got):
        assert a == pytest.approx(onecycle_ref(i, 20, 0.1, pct, strategy=strat, three=three), rel=1e-12)
        assert b == pytest.approx(onecycle_ref(i, 20, 0.2, pct, strategy=strat, three=three), rel=1e-12)
    assert got[0][0] == pytest.approx(0.1 / 25) and max(g[0] for g in got) == pytest.approx(0.1, rel=1e-12)
    with pytest.raises(ValueError, match=r"step\(\) called 21 times, but total_steps is 20"):
        s.step()
    torch = pytest.importorskip("torch")
    tp = [torch.nn.Parameter(torch.ones(1)), torch.nn.Parameter(torch.ones(1))]
    topt = torch.optim.SGD([{"params": [tp[0]]}, {"params": [tp[1]]}], lr=1.0)
    ts = torch.optim.lr_scheduler.OneCycleLR(
        topt, max_lr=[0.1, 0.2], total_steps=20, cycle_momentum=False, **kw
    )
    ref = [ts.get_last_lr()]
    for _ in range(20):
        topt.step()
        ts.step()
        ref.append(ts.get_last_lr())
    # the final call (past the schedule's last step) stays at the final rate here
    np.testing.assert_allclose(got[:20], ref[:20], rtol=1e-10)
    assert got[20] == got[19]


def test_one_cycle_arguments():
    with pytest.raises(ValueError, match="give total_steps, or both epochs and steps_per_epoch"):
        sched.OneCycleLR(opt_with(), max_lr=0.1)
    assert sched.OneCycleLR(opt_with(), max_lr=0.1, epochs=2, steps_per_epoch=5).total_steps == 10
    with pytest.raises(ValueError, match="anneal_strategy must be 'cos' or 'linear'"):
        sched.OneCycleLR(opt_with(), max_lr=0.1, total_steps=5, anneal_strategy="exp")
    with pytest.raises(ValueError, match="2 max_lr values for 1 parameter groups"):
        sched.OneCycleLR(opt_with(), max_lr=[0.1, 0.2], total_steps=5)


def plateau_ref(
    metrics, lr, mode="min", factor=0.1, patience=2, threshold=1e-4, rel=True, cooldown=0, min_lr=0.0
):
    best = math.inf if mode == "min" else -math.inf
    bad = cool = 0
    out = []
    for m in metrics:
        if mode == "min":
            better = m < (best * (1 - threshold) if rel else best - threshold)
        else:
            better = m > (best * (1 + threshold) if rel else best + threshold)
        if better:
            best, bad = m, 0
        else:
            bad += 1
        if cool > 0:
            cool -= 1
            bad = 0
        if bad > patience:
            lr = max(lr * factor, min_lr)
            cool, bad = cooldown, 0
        out.append(lr)
    return out


METRICS = [5.0, 4.0, 4.0, 4.0, 4.0, 3.9999, 4.1, 4.2, 4.3, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"mode": "max", "patience": 1},
        {"threshold_mode": "abs", "threshold": 0.5, "cooldown": 2, "min_lr": 0.005, "factor": 0.5},
    ],
)
def test_reduce_on_plateau_matches_the_reference_and_torch(kw):
    opt = opt_with(lr=1.0)
    s = sched.ReduceLROnPlateau(opt, patience=kw.pop("patience", 2), **kw)
    got = []
    for m in METRICS:
        s.step(og.tensor(m))  # a 0-d tensor works as well as a float
        got.append(s.get_last_lr()[0])
    rel = kw.get("threshold_mode", "rel") == "rel"
    ref = plateau_ref(
        METRICS,
        1.0,
        kw.get("mode", "min"),
        kw.get("factor", 0.1),
        s.patience,
        kw.get("threshold", 1e-4),
        rel,
        kw.get("cooldown", 0),
        kw.get("min_lr", 0.0),
    )
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert got[-1] < 1.0  # it did reduce
    torch = pytest.importorskip("torch")
    tp = torch.nn.Parameter(torch.ones(1))
    topt = torch.optim.SGD([tp], lr=1.0)
    ts = torch.optim.lr_scheduler.ReduceLROnPlateau(topt, patience=s.patience, **kw)
    tlr = []
    for m in METRICS:
        ts.step(m)
        tlr.append(topt.param_groups[0]["lr"])
    np.testing.assert_allclose(got, tlr, rtol=1e-12)


def test_reduce_on_plateau_per_group_min_lr_state_and_errors(tmp_path):
    opt = opt_with(2)
    s = sched.ReduceLROnPlateau(opt, patience=0, min_lr=[0.5, 0.0], factor=0.1)
    s.step(1.0)
    s.step(2.0)
    assert s.get_last_lr() == [0.5, pytest.approx(0.2)]
    og.save(s.state_dict(), tmp_path / "p")
    s2 = sched.ReduceLROnPlateau(opt_with(2))
    s2.load_state_dict(og.load(tmp_path / "p"))
    assert s2.best == 1.0 and s2.min_lrs == [0.5, 0.0] and s2.patience == 0
    with pytest.raises(ValueError, match="mode must be 'min' or 'max'"):
        sched.ReduceLROnPlateau(opt, mode="up")
    with pytest.raises(ValueError, match=r"factor must be a finite number in \[0"):
        sched.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError, match="the metric is nan"):
        s.step(float("nan"))
