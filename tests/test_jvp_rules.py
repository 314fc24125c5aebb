"""Every op's forward-mode rule against its backward and against finite differences, from the
op table (tests/op_samples*.py) alone: no test per op.

For each sample with a gradient, random tangents v (one per differentiable input) and
cotangents w (one per floating output), in float64:
- `<w, J v> == <Jᵀ w, v>`: the jvp (forward mode: an explicit `jvp:` rule, or one derived
  from the backward) against the vjp (reverse mode);
- `J v` against central differences `(f(x + e v) - f(x - e v)) / 2e`.
An op added to ops.yaml is covered as soon as it has samples. CI runs the first two gradient
samples of every op; the slow case runs all of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_ops import _as_list, _grad_setup, _gradcheck_case

import opgrad as og
from op_samples import OPS, YAML_OPS, OpInfo, Sample
from opgrad.autograd import forward_ad as fw

FAST_SAMPLES = 2


def _cases(fast: bool) -> list[Any]:
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        if info is None or info.complex_io:
            continue  # test_ops.py reports the missing OpInfo; forward mode refuses complex
        kept = [s for s in info.sample_list() if _gradcheck_case(info, s) and "grad" not in s.xfail]
        for i, s in enumerate(kept):
            if (i < FAST_SAMPLES) == fast:
                params.append(pytest.param(name, s, id=f"{name}-{i}"))
    return params


def _t(a: Any) -> og.Tensor:
    """float64 arrays (0-d arithmetic gives NumPy scalars, which og.tensor makes float32)."""
    return og.tensor(np.asarray(a, dtype=np.float64))


def _floats(out: Any) -> list[og.Tensor]:
    return [o for o in _as_list(out) if isinstance(o, og.Tensor) and o.dtype.kind == "f"]


def _check(name: str, sample: Sample) -> None:
    info: OpInfo = OPS[name]
    fn, leaves = _grad_setup(info, sample)
    rng = np.random.default_rng(0)
    xs = [x.numpy().copy() for x in leaves]
    vs = [rng.standard_normal(x.shape) for x in xs]

    def at(arrays: list[np.ndarray]) -> list[np.ndarray]:
        with og.no_grad():
            return [o.numpy().copy() for o in _floats(fn(*[_t(a) for a in arrays]))]

    # forward mode
    with fw.dual_level():
        duals = [fw.make_dual(_t(x), _t(v)) for x, v in zip(xs, vs, strict=True)]
        outs = _floats(fn(*duals))
        jv = [fw.unpack_dual(o).tangent for o in outs]
    jv = [np.zeros(o.shape) if t is None else t.numpy() for o, t in zip(outs, jv, strict=True)]
    # reverse mode
    ws = [rng.standard_normal(o.shape) for o in outs]
    outs = _floats(fn(*leaves))
    pairs = [(o, w) for o, w in zip(outs, ws, strict=True) if o.requires_grad]
    if pairs:
        grads = og.grad([o for o, _ in pairs], leaves, [_t(w) for _, w in pairs], allow_unused=True)
    else:
        grads = [None] * len(leaves)
    jtw = [np.zeros(x.shape) if g is None else g.numpy() for x, g in zip(xs, grads, strict=True)]
    forward = sum(float(np.sum(w * t)) for w, t in zip(ws, jv, strict=True))
    reverse = sum(float(np.sum(g * v)) for g, v in zip(jtw, vs, strict=True))
    scale = 1.0 + sum(float(np.sum(np.abs(w * t))) for w, t in zip(ws, jv, strict=True))
    assert abs(forward - reverse) <= 1e-8 * scale, f"{name}: <w, Jv> = {forward} but <Jᵀw, v> = {reverse}"
    # central differences
    eps = info.grad_eps
    plus = at([x + eps * v for x, v in zip(xs, vs, strict=True)])
    minus = at([x - eps * v for x, v in zip(xs, vs, strict=True)])
    for k, (t, p, m) in enumerate(zip(jv, plus, minus, strict=True)):
        numeric = (p - m) / (2 * eps)
        np.testing.assert_allclose(
            t, numeric, atol=info.grad_atol, rtol=info.grad_rtol, err_msg=f"{name}: output {k} jvp"
        )


@pytest.mark.parametrize("name, sample", _cases(fast=True))
def test_jvp_agrees_with_vjp_and_finite_differences(name, sample):
    _check(name, sample)


@pytest.mark.slow
@pytest.mark.parametrize("name, sample", _cases(fast=False))
def test_jvp_agrees_with_vjp_and_finite_differences_all_samples(name, sample):
    _check(name, sample)


def _first_small_sample(name: str, limit: int = 24) -> Sample | None:
    info = OPS[name]
    for s in info.sample_list():
        if _gradcheck_case(info, s) and "grad" not in s.xfail:
            _, leaves = _grad_setup(info, s)
            if sum(x.size for x in leaves) <= limit:
                return s
    return None


SMALL = [
    (n, s)
    for n in YAML_OPS
    if n in OPS and not OPS[n].complex_io
    for s in [_first_small_sample(n)]
    if s is not None
]


@pytest.mark.parametrize("name, sample", [pytest.param(n, s, id=n) for n, s in SMALL])
def test_jacfwd_equals_jacrev_and_hvp_modes_agree(name, sample):
    """Per op: the Jacobian column by column (forward mode) equals it row by row (reverse
    mode), and for the scalar <w, op(x)> the forward-over-reverse Hessian-vector product
    equals the reverse-over-reverse one (grad ops' own tangents: their backward.yaml `jvp:`
    rules where written, derived rules otherwise)."""
    info = OPS[name]
    fn, leaves = _grad_setup(info, sample)
    xs = tuple(_t(x.numpy()) for x in leaves)

    def f(*a: og.Tensor) -> Any:
        outs = _floats(fn(*a))
        return tuple(outs) if len(outs) > 1 else outs[0]

    rev = og.autograd.functional.jacobian(f, xs, strategy="reverse-mode")
    fwd = og.autograd.functional.jacobian(f, xs, strategy="forward-mode")
    flat_rev = [j for row in (rev if isinstance(rev[0], tuple) else (rev,)) for j in row]
    flat_fwd = [j for row in (fwd if isinstance(fwd[0], tuple) else (fwd,)) for j in row]
    for a, b in zip(flat_rev, flat_fwd, strict=True):
        np.testing.assert_allclose(b.numpy(), a.numpy(), atol=1e-10, rtol=1e-8, err_msg=f"{name}: jacobian")

    rng = np.random.default_rng(3)
    ws = [_t(rng.standard_normal(o.shape)) for o in _floats(fn(*xs))]
    vs = [_t(rng.standard_normal(x.shape)) for x in xs]

    def scalar(*a: og.Tensor) -> og.Tensor:
        return sum(
            (og.sum(o * w) for o, w in zip(_floats(fn(*a)), ws, strict=True)), og.tensor(0.0, og.float64)
        )

    _, rr = og.autograd.functional.hvp(scalar, xs, tuple(vs))
    with fw.dual_level():
        duals = [fw.make_dual(x.detach().requires_grad_(), v) for x, v in zip(xs, vs, strict=True)]
        gs = og.grad([scalar(*duals)], duals, create_graph=True, allow_unused=True)
        fr = [fw.unpack_dual(g).tangent if g is not None else None for g in gs]
    for a, b in zip(rr, fr, strict=True):
        got = np.zeros(a.shape) if b is None else b.numpy()
        np.testing.assert_allclose(got, a.numpy(), atol=1e-9, rtol=1e-7, err_msg=f"{name}: hvp")
