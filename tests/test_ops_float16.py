"""Every op of the op table in float16: the dtype is kept and the result is right.

float16 overflows at 65504 and keeps 11 bits, so ops that accumulate (normalisations,
softmax-family ops, statistics, losses, running sums) must compute in float32 and round
once (runtime/kernels/precision.py). Each sample runs with its float inputs scaled by 1, 30
and 300 and rounded to float16; the float16 result, forward and gradient, must match the
float64 reference computed on the same rounded inputs, and have the float16 dtype. A scale
whose reference result does not fit in float16 (exp of 300) is skipped for that sample.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from test_ops import (
    _as_list,
    _call,
    _grad_setup,
    _gradcheck_case,
    _has_float,
    _map_arrays,
    _require,
    _tensors,
)

import opgrad as og
from op_samples import OPS, YAML_OPS

SCALES = (1.0, 30.0, 300.0)
_F16_MAX = 6.0e4


def _fits(arrays: list[np.ndarray]) -> bool:
    """No entry at or beyond float16's range (NaN fits: the float16 result must be NaN too)."""
    with np.errstate(invalid="ignore"):
        return not any(bool(np.any(np.abs(a) >= _F16_MAX)) for a in arrays)


def _assert_close(got: np.ndarray, want: np.ndarray, tol: float, what: str) -> None:
    atol = tol * max(1.0, float(np.nanmax(np.abs(want), initial=0.0)))
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=atol, err_msg=what)


def _scaled(sample: Any, scale: float) -> Any:
    def f(i: int, a: np.ndarray) -> np.ndarray:
        return np.asarray(a * scale).astype(np.float16).astype(np.float64) if a.dtype == np.float64 else a

    return dataclasses.replace(sample, args=tuple(_map_arrays(sample.args, f)))


def _cases() -> list[Any]:
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        for i, s in enumerate(info.sample_list() if info and not info.complex_io else []):
            if s.forward and _has_float(s):
                params.append(pytest.param(name, s, id=f"{name}-{i}"))
    return params


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@pytest.mark.parametrize("name, sample", _cases())
def test_float16_keeps_its_dtype_and_accumulates_in_float32(name, sample):
    info = _require(name, sample)
    tried = 0
    for scale in SCALES:
        s = _scaled(sample, scale)
        with np.errstate(all="ignore"):
            want = [np.asarray(e) for e in _as_list(info.ref(*s.args, **s.kwargs))]
            in16 = _map_arrays(s.args, lambda i, a: a.astype(np.float16) if a.dtype == np.float64 else a)
            dtypes = [np.asarray(e).dtype for e in _as_list(info.ref(*in16, **s.kwargs))]
        if not _fits([e for e in want if e.dtype.kind == "f"]):
            continue
        tried += 1
        out = _as_list(_call(info, s, _tensors(s.args, np.float16)))
        for k, (o, e, dt) in enumerate(zip(out, want, dtypes, strict=True)):
            assert o.dtype == dt, f"scale {scale}: output {k} has dtype {o.dtype}, expected {dt}"
            if e.dtype.kind == "f":
                _assert_close(o.numpy(), e, info.tol16, f"scale {scale}: output {k}")
        if not _gradcheck_case(info, s):
            continue
        fn64, leaves64 = _grad_setup(info, s)
        outs64 = [o for o in _as_list(fn64(*leaves64)) if o.requires_grad]
        want_grads = og.grad(outs64, leaves64, allow_unused=True)
        if not _fits([g.numpy() for g in want_grads if g is not None]):
            continue
        fn, leaves = _grad_setup(info, s, np.float16)
        grads = og.grad([o for o in _as_list(fn(*leaves)) if o.requires_grad], leaves, allow_unused=True)
        for j, (g, x, w) in enumerate(zip(grads, leaves, want_grads, strict=True)):
            assert (g is None) == (w is None)
            if g is not None:
                assert g.dtype == x.dtype, f"scale {scale}: gradient {j} is {g.dtype}, not float16"
                _assert_close(g.numpy(), w.numpy(), info.grad_tol16, f"scale {scale}: gradient {j}")
    assert tried, "no scale gave a reference result that fits in float16"


def test_layer_norm_float16_does_not_overflow_its_variance():
    x = og.tensor(np.array([-300.0, 0.0, 300.0, 1.0], np.float16), requires_grad=True)
    out = og.layer_norm(x, [4])
    assert out.dtype == np.float16
    want = np.array([-300.0, 0.0, 300.0, 1.0])
    want = (want - want.mean()) / np.sqrt(want.var() + 1e-5)
    np.testing.assert_allclose(out.numpy().astype(np.float64), want, rtol=1e-2, atol=1e-2)
    (out * og.tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float16))).sum().backward()
    assert x.grad.dtype == np.float16 and np.all(np.isfinite(x.grad.numpy()))
    assert np.any(x.grad.numpy() != 0)


def test_float16_running_sums_do_not_stall():
    # a float16 accumulator stops at 2048 (2048 + 1 rounds back to 2048)
    x = og.ones((4096,), dtype="float16", requires_grad=True)
    out = og.cumsum(x, 0)
    assert out.dtype == np.float16 and out.numpy()[-1] == 4096
    out.sum().backward()
    assert x.grad.dtype == np.float16 and x.grad.numpy()[0] == 4096


def _first_grad_cases() -> list[Any]:
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        samples = [s for s in info.sample_list() if _gradcheck_case(info, s)] if info else []
        if samples and not info.complex_io:
            params.append(pytest.param(name, samples[0], id=name))
    return params


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, sample", _first_grad_cases())
def test_float16_gradients_of_every_order_keep_float16(name, sample):
    """create_graph=True runs the recorded grad ops and composites: they keep float16 too."""
    info = _require(name, sample)
    fn, leaves = _grad_setup(info, sample, np.float16)
    outs = [o for o in _as_list(fn(*leaves)) if o.requires_grad]
    firsts = og.grad(outs, leaves, create_graph=True, allow_unused=True)
    for g, x in zip(firsts, leaves, strict=True):
        assert g is None or g.dtype == x.dtype == np.float16, f"first order: {g.dtype}"
    recorded = [g for g in firsts if g is not None and g.requires_grad]
    if recorded:
        seconds = og.grad([g.sum() for g in recorded], leaves, allow_unused=True)
        for g in seconds:
            assert g is None or g.dtype == np.float16, f"second order: {g.dtype}"
