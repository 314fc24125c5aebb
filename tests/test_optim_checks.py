"""Optimizer and LR-scheduler arguments, and optimizer state dicts: every bad value is
refused at construction (or at load_state_dict), with an error naming the class, the
argument and the expected range, and nothing changes when it is refused."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import nn, optim
from opgrad.runtime.optim import lr_scheduler

OPTIMIZERS = {"SGD": optim.SGD, "Adam": optim.Adam, "AdamW": optim.AdamW}


def param(shape=(2, 3)) -> nn.Parameter:
    return nn.Parameter(og.tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape)))


def stepped(cls, **kwargs):
    """An optimizer over two parameters after one step (so it has per-parameter state)."""
    w, b = param((2, 3)), param((3,))
    opt = cls([w, b], lr=0.1, **kwargs)
    ((w * w).sum() + (b * b).sum()).backward()
    opt.step()
    return opt


def fresh(cls, **kwargs):
    return cls([param((2, 3)), param((3,))], lr=0.5, **kwargs)


# -- hyper-parameters -----------------------------------------------------------------------
BAD_HYPER = [
    # (optimizer, kwargs, error, message)
    ("Adam", {"lr": "0.1"}, TypeError, r"Adam: lr must be a real number >= 0, got '0\.1' \(str\)"),
    ("SGD", {"lr": None}, TypeError, r"SGD: lr must be a real number >= 0, got None"),
    ("AdamW", {"lr": True}, TypeError, r"AdamW: lr must be a real number >= 0, got True \(bool\)"),
    ("SGD", {"lr": -0.1}, ValueError, r"SGD: lr must be a finite number >= 0, got -0\.1"),
    ("Adam", {"lr": float("nan")}, ValueError, "Adam: lr must be a finite number >= 0, got nan"),
    ("Adam", {"lr": float("inf")}, ValueError, "Adam: lr must be a finite number >= 0, got inf"),
    (
        "Adam",
        {"betas": (0.9, 1.0)},
        ValueError,
        r"Adam: betas\[1\] must be a finite number in \[0, 1\), got 1\.0",
    ),
    ("Adam", {"betas": (-0.1, 0.9)}, ValueError, r"Adam: betas\[0\] must be a finite number in \[0, 1\)"),
    ("AdamW", {"betas": 0.9}, TypeError, r"AdamW: betas must be a pair of numbers in \[0, 1\), got 0\.9"),
    ("Adam", {"betas": (0.9, 0.99, 0.9)}, TypeError, "Adam: betas must be a pair of numbers"),
    ("Adam", {"betas": ("0.9", 0.99)}, TypeError, r"Adam: betas\[0\] must be a real number"),
    ("Adam", {"eps": -1e-8}, ValueError, "Adam: eps must be a finite number >= 0"),
    ("Adam", {"eps": "1e-8"}, TypeError, "Adam: eps must be a real number >= 0"),
    ("AdamW", {"weight_decay": -0.01}, ValueError, "AdamW: weight_decay must be a finite number >= 0"),
    ("Adam", {"amsgrad": 1}, TypeError, r"Adam: amsgrad must be a bool, got 1 \(int\)"),
    ("SGD", {"momentum": -0.5}, ValueError, "SGD: momentum must be a finite number >= 0, got -0.5"),
    ("SGD", {"momentum": "0.9"}, TypeError, "SGD: momentum must be a real number >= 0"),
    ("SGD", {"dampening": 2}, ValueError, r"SGD: dampening must be a finite number in \[0, 1\], got 2"),
    ("SGD", {"weight_decay": float("nan")}, ValueError, "SGD: weight_decay must be a finite number >= 0"),
    ("SGD", {"nesterov": "yes"}, TypeError, "SGD: nesterov must be a bool"),
    ("SGD", {"nesterov": True}, ValueError, "SGD: nesterov needs momentum > 0 and dampening == 0"),
    ("SGD", {"nesterov": True, "momentum": 0.9, "dampening": 0.1}, ValueError, "nesterov needs momentum > 0"),
]


@pytest.mark.parametrize(("name", "kwargs", "err", "msg"), BAD_HYPER)
def test_bad_hyper_parameters_are_refused_at_construction(name, kwargs, err, msg):
    # Before: Adam(lr="0.1") was accepted and failed inside step(); nan/inf rates trained to nan.
    kwargs = {"lr": 0.1, **kwargs}
    with pytest.raises(err, match=msg):
        OPTIMIZERS[name]([param()], **kwargs)


@pytest.mark.parametrize(("name", "kwargs", "err", "msg"), BAD_HYPER)
def test_bad_hyper_parameters_in_a_group_name_the_group(name, kwargs, err, msg):
    key = next(iter(kwargs))
    good = OPTIMIZERS[name]([param()], lr=0.1)
    groups_before = copy.deepcopy([{k: v for k, v in g.items() if k != "params"} for g in good.param_groups])
    extra = {"params": [param()], **kwargs}
    with pytest.raises(err, match=rf"param_groups\[1\]\['{key}'\]|nesterov needs"):
        good.add_param_group(extra)
    assert [{k: v for k, v in g.items() if k != "params"} for g in good.param_groups] == groups_before


def test_good_hyper_parameters_are_kept():
    opt = optim.Adam(
        [param()], lr=np.float32(0.01), betas=[0.5, np.float64(0.25)], eps=0, amsgrad=np.bool_(True)
    )
    group = opt.param_groups[0]
    assert group["betas"] == (0.5, 0.25) and isinstance(group["betas"], tuple)
    assert group["lr"] == np.float32(0.01) and group["eps"] == 0
    sgd = optim.SGD([param()], lr=0, momentum=0.9, nesterov=True)
    assert sgd.param_groups[0]["nesterov"] is True


# -- params --------------------------------------------------------------------------------------
def test_params_must_be_an_ordered_collection_of_float_leaves():
    w = param()
    with pytest.raises(TypeError, match="SGD: params must be an ordered iterable .*got a set"):
        optim.SGD({w}, lr=0.1)
    with pytest.raises(TypeError, match="SGD: a group's params must be an ordered iterable .*got a set"):
        optim.SGD([{"params": {w}}], lr=0.1)
    with pytest.raises(TypeError, match="SGD: params must be an iterable of tensors or of dicts, got int"):
        optim.SGD(3, lr=0.1)
    with pytest.raises(TypeError, match=r"Adam: params\[1\] is a ndarray, not a Tensor"):
        optim.Adam([w, np.zeros(2)])
    with pytest.raises(TypeError, match=r"Adam: params\[0\] has dtype int64; optimizers update floating"):
        optim.Adam([og.zeros((2,), dtype="int64")])
    with pytest.raises(ValueError, match=r"SGD: params\[1\] appears in more than one place"):
        optim.SGD([{"params": [w]}, {"params": [param(), w]}], lr=0.1)
    with pytest.raises(TypeError, match="a parameter group must be a dict with a 'params' entry, got list"):
        optim.SGD([{"params": [w]}, [param()]], lr=0.1)
    with pytest.raises(ValueError, match=r"unknown hyper-parameters \['betas'\] .*expected some of"):
        optim.SGD([{"params": [w], "betas": (0.9, 0.9)}], lr=0.1)


def test_bad_defaults_are_reported_before_the_params():
    with pytest.raises(TypeError, match="Adam: lr must be a real number"):
        optim.Adam([], lr="x")


def test_frozen_leaves_are_accepted_and_skipped():
    # As in PyTorch: a leaf that does not require grad gets no gradient, so step() skips it.
    frozen = og.tensor([1.0, 2.0])
    live = param((2,))
    opt = optim.SGD([frozen, live], lr=0.5)
    (live * live).sum().backward()
    opt.step()
    assert frozen.numpy().tolist() == [1.0, 2.0]
    assert live.numpy().tolist() == [0.0, 0.0]  # 0 - 0.5*0 and 1 - 0.5*2


# -- load_state_dict --------------------------------------------------------------------------------
def _corrupt(sd, how):
    if how == "moment shape":
        sd["state"][0]["exp_avg"] = np.zeros((3, 2), dtype=np.float32)
    elif how == "moment dtype":
        sd["state"][0]["exp_avg_sq"] = np.zeros((2, 3), dtype=bool)
    elif how == "moment type":
        sd["state"][1]["exp_avg"] = [0.0, 0.0, 0.0]
    elif how == "missing key":
        del sd["state"][0]["exp_avg_sq"]
    elif how == "extra key":
        sd["state"][1]["momentum_buffer"] = np.zeros(3)
    elif how == "step":
        sd["state"][0]["step"] = 1.5
    elif how == "negative step":
        sd["state"][0]["step"] = -1
    elif how == "index":
        sd["state"][7] = {}
    elif how == "group count":
        sd["param_groups"].append(copy.deepcopy(sd["param_groups"][0]))
    elif how == "group size":
        sd["param_groups"][0]["params"] = [0]
    elif how == "group lr":
        sd["param_groups"][0]["lr"] = "fast"
    elif how == "group key":
        sd["param_groups"][0]["momentum"] = 0.9
    elif how == "no state":
        del sd["state"]
    elif how == "state not a dict":
        sd["state"] = [1, 2]
    elif how == "param state not a dict":
        sd["state"][0] = 3


LOAD_ERRORS = {
    "moment shape": (
        ValueError,
        r"state\[0\]\['exp_avg'\] has shape \(3, 2\), but the parameter has shape \(2, 3\)",
    ),
    "moment dtype": (TypeError, r"state\[0\]\['exp_avg_sq'\] has dtype bool; expected a floating array"),
    "moment type": (TypeError, r"state\[1\]\['exp_avg'\] must be an array of shape \(3,\), got list"),
    "missing key": (
        ValueError,
        r"state\[0\] has keys \['exp_avg', 'step'\]; expected \['exp_avg', 'exp_avg_sq'",
    ),
    "extra key": (ValueError, r"state\[1\] has keys .*'momentum_buffer'"),
    "step": (TypeError, r"state\[0\]\['step'\] must be an int >= 0, got 1\.5"),
    "negative step": (ValueError, r"state\[0\]\['step'\] must be an int >= 0, got -1"),
    "index": (ValueError, r"state key 7 is not a parameter index in \[0, 2\)"),
    "group count": (ValueError, "2 parameter groups saved, 1 here"),
    "group size": (ValueError, r"param_groups\[0\] has 1 parameters saved, 2 here"),
    "group lr": (TypeError, r"Adam: param_groups\[0\]\['lr'\] must be a real number"),
    "group key": (ValueError, r"param_groups\[0\] has unknown hyper-parameters \['momentum'\]"),
    "no state": (ValueError, r"the state dict has no \['state'\] entry"),
    "state not a dict": (TypeError, "'state' must be a dict"),
    "param state not a dict": (TypeError, r"state\[0\] must be a dict, got int"),
}


@pytest.mark.parametrize("how", sorted(LOAD_ERRORS))
def test_load_state_dict_rejects_bad_state_and_changes_nothing(how):
    # Before: a wrong-shaped moment was accepted and step() failed (or broadcast) later.
    sd = stepped(optim.Adam).state_dict()
    _corrupt(sd, how)
    opt = stepped(optim.Adam)
    opt.param_groups[0]["lr"] = 0.5
    before_groups = [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups]
    before_state = {id(p): {k: np.array(v) for k, v in s.items()} for p, s in opt.state.items()}
    err, msg = LOAD_ERRORS[how]
    with pytest.raises(err, match=msg):
        opt.load_state_dict(sd)
    assert [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups] == before_groups
    assert {id(p): set(s) for p, s in opt.state.items()} == {k: set(v) for k, v in before_state.items()}
    for p, s in opt.state.items():
        for k, v in s.items():
            np.testing.assert_array_equal(np.array(v), before_state[id(p)][k])


def test_load_state_dict_needs_a_mapping():
    with pytest.raises(
        TypeError, match=r"Adam\.load_state_dict: expected a dict from state_dict\(\), got list"
    ):
        fresh(optim.Adam).load_state_dict([])


def test_loaded_moments_take_the_parameters_dtype_and_json_style_keys_work():
    sd = stepped(optim.Adam).state_dict()
    sd["state"] = {str(k): {**v, "exp_avg": v["exp_avg"].astype(np.float64)} for k, v in sd["state"].items()}
    sd["state"]["0"]["step"] = np.array(1)  # as read back from an .npz file
    opt = fresh(optim.Adam)
    opt.load_state_dict(sd)
    w = opt.param_groups[0]["params"][0]
    assert opt.state[w]["exp_avg"].dtype == np.float32 and opt.state[w]["step"] == 1
    assert opt.param_groups[0]["lr"] == 0.1


def test_amsgrad_state_needs_its_maximum():
    sd = stepped(optim.Adam, amsgrad=True).state_dict()
    fresh(optim.Adam).load_state_dict(copy.deepcopy(sd))  # the saved group switches amsgrad on
    del sd["state"][0]["max_exp_avg_sq"]
    with pytest.raises(ValueError, match="expected .*'max_exp_avg_sq'"):
        fresh(optim.Adam).load_state_dict(sd)


def test_sgd_state_spec_follows_momentum():
    sd = stepped(optim.SGD, momentum=0.9).state_dict()
    opt = fresh(optim.SGD)
    opt.load_state_dict(sd)
    assert opt.param_groups[0]["momentum"] == 0.9
    plain = stepped(optim.SGD).state_dict()
    assert plain["state"][0] == {}
    plain["state"][0] = {"momentum_buffer": np.zeros((2, 3))}
    with pytest.raises(ValueError, match=r"state\[0\] has keys \['momentum_buffer'\]; expected \[\]"):
        fresh(optim.SGD).load_state_dict(plain)


def test_a_custom_optimizer_without_a_state_spec_loads_arrays_as_before():
    class Sign(optim.Optimizer):
        def __init__(self, params, lr=0.1):
            super().__init__(params, {"lr": lr})

        def _update(self, param, grad, state, group):
            state["seen"] = state.get("seen", 0) + 1
            state["last"] = grad.copy()
            param -= group["lr"] * np.sign(grad)

    w = param((2,))
    opt = Sign([w])
    (w * w).sum().backward()
    opt.step()
    sd = opt.state_dict()
    other = Sign([param((2,))])
    other.load_state_dict(sd)
    (p,) = other.param_groups[0]["params"]
    assert other.state[p]["seen"] == 1
    np.testing.assert_array_equal(other.state[p]["last"], [0.0, 2.0])


# -- schedulers ---------------------------------------------------------------------------------------
BAD_SCHEDULERS = [
    (
        lambda o: lr_scheduler.StepLR(o, step_size=2.5),
        TypeError,
        r"StepLR: step_size must be an int >= 1, got 2\.5",
    ),
    (
        lambda o: lr_scheduler.StepLR(o, step_size=0),
        ValueError,
        "StepLR: step_size must be an int >= 1, got 0",
    ),
    (lambda o: lr_scheduler.StepLR(o, 2, gamma="0.5"), TypeError, "StepLR: gamma must be a real number >= 0"),
    (lambda o: lr_scheduler.StepLR(o, 2, gamma=-1), ValueError, "StepLR: gamma must be a finite number >= 0"),
    (
        lambda o: lr_scheduler.StepLR(o, 2, last_epoch=-2),
        ValueError,
        "StepLR: last_epoch must be an int >= -1",
    ),
    (
        lambda o: lr_scheduler.ExponentialLR(o, gamma=None),
        TypeError,
        "ExponentialLR: gamma must be a real number",
    ),
    (
        lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=0),
        ValueError,
        "CosineAnnealingLR: T_max must be an int >= 1",
    ),
    (
        lambda o: lr_scheduler.CosineAnnealingLR(o, 5, eta_min=-1.0),
        ValueError,
        "eta_min must be a finite number",
    ),
    (lambda o: lr_scheduler.LambdaLR(o, 0.5), TypeError, r"LambdaLR: lr_lambda\[0\] must be callable"),
    (
        lambda o: lr_scheduler.LambdaLR(o, [abs, abs]),
        ValueError,
        "LambdaLR: 2 functions for 1 parameter groups",
    ),
    (
        lambda o: lr_scheduler.LambdaLR(o.param_groups, abs),
        TypeError,
        "LambdaLR: expected an Optimizer, got list",
    ),
    (lambda o: lr_scheduler.StepLR(None, 2), TypeError, "StepLR: expected an Optimizer, got NoneType"),
]


@pytest.mark.parametrize(("make", "err", "msg"), BAD_SCHEDULERS)
def test_bad_scheduler_arguments_are_refused_before_touching_the_optimizer(make, err, msg):
    opt = optim.SGD([param()], lr=0.1)
    with pytest.raises(err, match=msg):
        make(opt)
    assert opt.param_groups[0]["lr"] == 0.1 and "initial_lr" not in opt.param_groups[0]


def test_scheduler_load_state_dict_checks_its_entries():
    opt = optim.SGD([param()], lr=0.1)
    sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(3):
        sched.step()
    saved = sched.state_dict()
    other = lr_scheduler.StepLR(optim.SGD([param()], lr=0.1), step_size=5)
    with pytest.raises(ValueError, match=r"StepLR\.load_state_dict: unknown entries \['bogus'\]"):
        other.load_state_dict({**saved, "bogus": 1})
    with pytest.raises(TypeError, match="StepLR.load_state_dict: last_epoch must be an int"):
        other.load_state_dict({**saved, "last_epoch": "3"})
    with pytest.raises(ValueError, match=r"base_lrs must be a list of one rate per parameter group \(1\)"):
        other.load_state_dict({**saved, "base_lrs": [0.1, 0.2]})
    with pytest.raises(TypeError, match="expected a dict from state_dict"):
        other.load_state_dict([("last_epoch", 3)])
    assert other.step_size == 5 and other.last_epoch == 0
    other.load_state_dict(saved)
    assert other.step_size == 2 and other.last_epoch == 3
    other.step()
    assert other.get_last_lr() == [0.1 * 0.5**2]


# -- gradient clipping ----------------------------------------------------------------------------------
NORM, VALUE = optim.clip_grad_norm_, optim.clip_grad_value_


@pytest.mark.parametrize(
    ("call", "err", "msg"),
    [(lambda ps: NORM(ps, -1.0), ValueError, "clip_grad_norm_: max_norm must be a finite number >= 0"),
     (lambda ps: NORM(ps, "1"), TypeError, "clip_grad_norm_: max_norm must be a real number"),
     (lambda ps: NORM(ps, 1.0, 0), ValueError, "clip_grad_norm_: norm_type must be > 0"),
     (lambda ps: NORM(ps, 1.0, -2.0), ValueError, "clip_grad_norm_: norm_type must be a finite"),
     (lambda ps: NORM([*ps, 3], 1.0), TypeError, r"clip_grad_norm_: parameters\[1\] is a int"),
     (lambda ps: VALUE(ps, -0.5), ValueError, "clip_grad_value_: clip_value must be a finite number"),
     (lambda ps: VALUE(ps, None), TypeError, "clip_grad_value_: clip_value must be a real number")],
)  # fmt: skip
def test_clipping_refuses_bounds_that_would_flip_or_scramble_gradients(call, err, msg):
    # Before: a negative max_norm multiplied every gradient by a negative factor, and a
    # negative clip_value set every element to -clip_value; a str max_norm was accepted.
    w = param((2,))
    (w * w).sum().backward()
    before = w.grad.numpy().copy()
    with pytest.raises(err, match=msg):
        call([w])
    np.testing.assert_array_equal(w.grad.numpy(), before)


def test_a_schedule_that_yields_a_bad_rate_is_refused_and_nothing_changes():
    opt = optim.SGD([param()], lr=0.1)
    sched = lr_scheduler.LambdaLR(opt, lambda epoch: 1.0 if epoch < 2 else -1.0)
    sched.step()
    assert sched.last_epoch == 1 and opt.param_groups[0]["lr"] == 0.1
    with pytest.raises(
        ValueError, match=r"LambdaLR: the rate for param_groups\[0\] at epoch 2 must be a finite number"
    ):
        sched.step()
    assert sched.last_epoch == 1 and opt.param_groups[0]["lr"] == 0.1 and sched.get_last_lr() == [0.1]
    with pytest.raises(
        TypeError, match=r"LambdaLR: lr_lambda\[0\]\(0\) must be a real number, got 'fast' \(str\)"
    ):
        lr_scheduler.LambdaLR(optim.SGD([param()], lr=0.1), lambda epoch: "fast")
