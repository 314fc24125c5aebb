"""Kernel-level tests: grad kernels against central differences, forwards against NumPy.

Everything here runs on raw NumPy arrays through the registry; the op signatures (which
tensors a grad kernel receives, which arrive as metadata only, which outputs exist) are
read from ops.yaml / backward.yaml, so the tests also check that kernels and YAML agree.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

import opgrad.runtime.kernels  # noqa: F401  (registers every CPU kernel)
from opgrad.codegen import load_spec
from opgrad.runtime.grad_node import TensorMeta
from opgrad.runtime.kernels import common
from opgrad.runtime.kernels.registry import has_kernel, lookup
from opgrad.runtime.random import manual_seed

ROOT = Path(__file__).resolve().parents[1]
OPS = {e["op"]: e for e in yaml.safe_load((ROOT / "ops.yaml").read_text())}
BACKWARD = {e["backward_op"]: e for e in yaml.safe_load((ROOT / "backward.yaml").read_text())}
SPEC = load_spec(ROOT)


def _params(text):
    """'(Tensor x, int[] axis = [])' -> [(type, name), ...]."""
    inner = text.strip()[1:-1].strip()
    out = []
    for part in re.split(r",\s*(?![^\[]*\])", inner) if inner else []:
        decl = part.split("=")[0].strip()
        typ, name = decl.rsplit(" ", 1)
        out.append((typ, name))
    return out


def _outputs(text):
    return [(m.group(1), m.group(2)) for m in re.finditer(r"(Tensor(?:\[\])?)\((\w+)\)", text)]


def _names(value):
    return [s.strip() for s in str(value or "").split(",") if s.strip()]


def meta(a):
    return TensorMeta(a.shape, a.dtype)


def k(name):
    return lookup(name, "cpu")


# --- the spec and the registry agree --------------------------------------------------------


def test_every_yaml_kernel_is_registered():
    names = [e.get("kernel", n) for n, e in OPS.items()] + [
        e.get("kernel", n)
        for n, e in BACKWARD.items()
        if "composite" not in e  # a composite has no kernel
    ]
    assert [n for n in names if not has_kernel(n, "cpu")] == []
    for name, entry in OPS.items():
        assert entry.get("doc"), name
        if entry.get("backward"):
            assert entry["backward"] in BACKWARD, name


# --- gradient checks ------------------------------------------------------------------------

rng = np.random.default_rng(0)


def randn(*shape):
    return rng.standard_normal(shape)


def away(*shape, lo=0.3, hi=2.0):
    """Values with |v| in [lo, hi], either sign: away from kinks at 0."""
    return rng.uniform(lo, hi, shape) * rng.choice([-1.0, 1.0], shape)


def pos(*shape, lo=0.3, hi=2.0):
    return rng.uniform(lo, hi, shape)


def distinct(*shape):
    """Values spaced at least 0.05 apart (no ties for max/min)."""
    n = math.prod(shape)
    return (rng.permutation(n) * 0.05 + rng.uniform(0, 0.01, n) - n * 0.025).reshape(shape)


# (op, tensor inputs by name, attributes in forward order)
GRAD_CASES = [
    ("neg", {"x": randn(3, 4)}, []),
    ("abs", {"x": away(3, 4)}, []),
    ("sign", {"x": away(3, 4)}, []),
    ("exp", {"x": randn(3, 4)}, []),
    ("expm1", {"x": randn(3, 4)}, []),
    ("log", {"x": pos(3, 4)}, []),
    ("log1p", {"x": pos(3, 4)}, []),
    ("sqrt", {"x": pos(3, 4)}, []),
    ("rsqrt", {"x": pos(3, 4)}, []),
    ("square", {"x": randn(3, 4)}, []),
    ("reciprocal", {"x": away(3, 4)}, []),
    ("sin", {"x": randn(3, 4)}, []),
    ("cos", {"x": randn(3, 4)}, []),
    ("tanh", {"x": randn(3, 4)}, []),
    ("sigmoid", {"x": randn(3, 4)}, []),
    ("relu", {"x": away(3, 4)}, []),
    ("gelu", {"x": randn(3, 4) * 2}, [False]),
    ("gelu", {"x": randn(3, 4) * 2}, [True]),
    ("silu", {"x": randn(3, 4) * 2}, []),
    ("softplus", {"x": randn(3, 4) * 3}, [1.0, 20.0]),
    ("softplus", {"x": away(3, 4, lo=0.2, hi=0.8) * 4}, [2.0, 1.0]),  # both sides of the threshold
    ("leaky_relu", {"x": away(3, 4)}, [0.1]),
    ("elu", {"x": away(3, 4)}, [1.5]),
    ("erf", {"x": randn(3, 4)}, []),
    ("scale", {"x": randn(3, 4)}, [2.5, 1.0]),
    ("pow", {"x": randn(3, 4)}, [3]),
    ("pow", {"x": pos(3, 4)}, [0.5]),
    ("clip", {"x": away(3, 4, lo=0.1, hi=0.9)}, [-0.5, 0.5]),
    ("clip", {"x": away(3, 4, lo=0.1, hi=0.9)}, [None, 0.5]),
    ("cast", {"x": randn(3, 4)}, [np.dtype(np.float64)]),
    ("where", {"condition": rng.random((3, 1)) > 0.5, "x": randn(3, 4), "y": randn(4)}, []),
    ("matmul", {"x": randn(3, 4), "y": randn(4, 5)}, [False, False]),
    ("matmul", {"x": randn(4), "y": randn(4)}, [False, False]),
    ("matmul", {"x": randn(4), "y": randn(2, 4, 5)}, [False, False]),
    ("matmul", {"x": randn(2, 3, 4), "y": randn(4)}, [False, False]),
    ("matmul", {"x": randn(2, 1, 3, 4), "y": randn(3, 4, 2)}, [False, False]),
    ("matmul", {"x": randn(4, 3), "y": randn(2, 5, 4)}, [True, True]),
    ("reshape", {"x": randn(2, 3, 4)}, [[6, -1]]),
    ("transpose", {"x": randn(2, 3, 4)}, [[2, 0, 1]]),
    ("squeeze", {"x": randn(2, 1, 3, 1)}, [[]]),
    ("squeeze", {"x": randn(2, 1, 3, 1)}, [[1]]),
    ("unsqueeze", {"x": randn(2, 3)}, [[0, 2]]),
    ("unsqueeze", {"x": randn(2, 3)}, [-1]),
    ("flatten", {"x": randn(2, 3, 4)}, [1, 2]),
    ("expand", {"x": randn(3, 1)}, [[2, -1, 4]]),
    ("concat", {"x": [randn(2, 3), randn(2, 1), randn(2, 2)]}, [1]),
    ("stack", {"x": [randn(2, 3), randn(2, 3)]}, [-1]),
    ("split", {"x": randn(6, 2)}, [3, 0]),
    ("split", {"x": randn(2, 6)}, [[1, -1, 2], 1]),
    ("gather", {"x": randn(3, 4), "index": np.array([2, 0, 2])}, [1]),
    ("index_select", {"x": randn(3, 4), "index": np.array([1, 1, 0, 2])}, [0]),
    ("tile", {"x": randn(2, 3)}, [[2, 1, 3]]),
    ("tile", {"x": randn(2, 3)}, [[2]]),
    ("softmax", {"x": randn(3, 4)}, [-1]),
    ("softmax", {"x": randn(3, 4)}, [0]),
    ("log_softmax", {"x": randn(3, 4)}, [1]),
    ("cross_entropy", {"input": randn(4, 3), "label": np.array([0, 2, 1, 2])}, [-1, "mean"]),
    ("cross_entropy", {"input": randn(4, 3), "label": np.array([[0], [2], [1], [2]])}, [-1, "sum"]),
    ("cross_entropy", {"input": randn(2, 3, 2), "label": np.array([[0, 2], [1, 1]])}, [1, "none"]),
    ("mse_loss", {"input": randn(3, 4), "label": randn(3, 4)}, ["mean"]),
    ("mse_loss", {"input": randn(3, 4), "label": randn(4)}, ["none"]),
    ("mse_loss", {"input": randn(3, 4), "label": randn(3, 4)}, ["sum"]),
    ("embedding", {"x": np.array([[0, 2], [2, 3]]), "weight": randn(4, 3)}, []),
]

BINARY_SHAPES = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 4), (3, 1)), ((), (2, 3)), ((2, 3), ())]
for _shapes in BINARY_SHAPES:
    GRAD_CASES += [
        ("add", {"x": randn(*_shapes[0]), "y": randn(*_shapes[1])}, []),
        ("subtract", {"x": randn(*_shapes[0]), "y": randn(*_shapes[1])}, []),
        ("multiply", {"x": randn(*_shapes[0]), "y": randn(*_shapes[1])}, []),
        ("divide", {"x": randn(*_shapes[0]), "y": away(*_shapes[1])}, []),
        ("maximum", {"x": distinct(*_shapes[0]), "y": distinct(*_shapes[1]) + 0.012}, []),
        ("minimum", {"x": distinct(*_shapes[0]), "y": distinct(*_shapes[1]) + 0.012}, []),
        ("elementwise_pow", {"x": pos(*_shapes[0]), "y": randn(*_shapes[1])}, []),
    ]
for _op in ("sum", "mean", "max", "min", "prod", "logsumexp"):
    for _axis in ([], 0, [0, 2], -1, None):
        for _keep in (False, True):
            GRAD_CASES.append(
                (_op, {"x": distinct(2, 3, 4) if _op in ("max", "min") else randn(2, 3, 4)}, [_axis, _keep])
            )
GRAD_CASES.append(("sum", {"x": randn()}, [[], False]))
GRAD_CASES += [
    ("reduce_as", {"x": randn(2, 3, 4), "target": randn(3, 1)}, []),
    ("reduce_as", {"x": randn(3, 4), "target": randn(3, 4)}, []),
]
for _op in ("var", "std"):
    for _axis, _unbiased, _keep in (([], True, False), (1, False, True), ([0, 2], True, True)):
        GRAD_CASES.append((_op, {"x": randn(2, 3, 4)}, [_axis, _unbiased, _keep]))
for _p, _axis, _keep in ((2.0, [], False), (1.0, 1, True), (3.0, [0, 2], False)):
    GRAD_CASES.append(("norm", {"x": away(2, 3, 4)}, [_p, _axis, _keep]))


def _run_forward(op, inputs, attrs):
    """Forward outputs by name, restricted to those that carry gradient."""
    entry = OPS[op]
    args = [inputs[name] for typ, name in _params(entry["args"]) if typ.startswith("Tensor")]
    result = k(entry.get("kernel", op))(*args, *attrs)
    outs = _outputs(entry["output"])
    values = dict(zip([n for _, n in outs], result if len(outs) > 1 else [result], strict=True))
    return values


def _differentiable_outputs(op):
    entry = OPS[op]
    skip = set(_names(entry.get("intermediate"))) | set(_names(entry.get("non_differentiable")))
    return [n for _, n in _outputs(entry["output"]) if n not in skip]


def _loss(op, inputs, attrs, cotangents):
    values = _run_forward(op, inputs, attrs)
    total = 0.0
    for name in _differentiable_outputs(op):
        out, v = values[name], cotangents[name]
        for o, w in zip(out, v, strict=True) if isinstance(out, list) else [(out, v)]:
            total += float(np.sum(o * w))
    return total


def _run_grad(op, inputs, attrs, cotangents):
    """The grad kernel's results by input name, called exactly as the YAML says."""
    bw = BACKWARD[OPS[op]["backward"]]
    nnb = set(_names(bw.get("no_need_buffer")))
    forward_values = _run_forward(op, inputs, attrs)
    args = []
    for _typ, name in _params(bw["args"]):
        if name in inputs:
            value = inputs[name]
            if name in nnb:
                value = [meta(a) for a in value] if isinstance(value, list) else meta(value)
            args.append(value)
        elif name.endswith("_grad") and name[:-5] in cotangents:
            args.append(cotangents[name[:-5]])
        else:
            args.append(forward_values[name])
    result = k(bw.get("kernel", bw["backward_op"]))(*args, *attrs)
    outs = [n for _, n in _outputs(bw["output"])]
    return dict(zip([n[: -len("_grad")] for n in outs], result if len(outs) > 1 else [result], strict=True))


def _leaves(inputs, names):
    """(name, index or None) for every differentiable array."""
    out = []
    for name in names:
        value = inputs[name]
        out += [(name, i) for i in range(len(value))] if isinstance(value, list) else [(name, None)]
    return out


def _get(tree, leaf):
    name, i = leaf
    return tree[name] if i is None else tree[name][i]


def _perturbed(inputs, leaf, delta):
    new = {n: (list(v) if isinstance(v, list) else v) for n, v in inputs.items()}
    name, i = leaf
    if i is None:
        new[name] = new[name] + delta
    else:
        new[name][i] = new[name][i] + delta
    return new


def _case_id(case):
    op, inputs, attrs = case
    shapes = ",".join(
        "[" + "|".join(str(a.shape) for a in v) + "]" if isinstance(v, list) else str(v.shape)
        for v in inputs.values()
    )
    return f"{op}-{shapes}-{attrs}"


@pytest.mark.parametrize("case", GRAD_CASES, ids=[_case_id(c) for c in GRAD_CASES])
def test_grad_kernel_matches_central_differences(case):
    op, inputs, attrs = case
    local = np.random.default_rng(1)
    values = _run_forward(op, inputs, attrs)
    cotangents = {}
    for name in _differentiable_outputs(op):
        out = values[name]
        cotangents[name] = (
            [local.standard_normal(o.shape) for o in out]
            if isinstance(out, list)
            else local.standard_normal(out.shape)
        )
    grads = _run_grad(op, inputs, attrs, cotangents)
    leaves = _leaves(inputs, list(grads))
    eps = 1e-6

    # exact shape and dtype of each input
    for leaf in leaves:
        g, x = _get(grads, leaf), _get(inputs, leaf)
        assert isinstance(g, np.ndarray), (leaf, type(g))
        assert g.shape == x.shape and g.dtype == x.dtype, (leaf, g.shape, g.dtype)

    def numeric(leaf, u):
        plus = _loss(op, _perturbed(inputs, leaf, eps * u), attrs, cotangents)
        minus = _loss(op, _perturbed(inputs, leaf, -eps * u), attrs, cotangents)
        return (plus - minus) / (2 * eps)

    # random directions, all inputs at once
    us = {leaf: local.standard_normal(_get(inputs, leaf).shape) for leaf in leaves}
    analytic = sum(float(np.sum(_get(grads, leaf) * u)) for leaf, u in us.items())
    num = 0.0
    for leaf, u in us.items():
        num += numeric(leaf, u)
    assert analytic == pytest.approx(num, rel=1e-5, abs=1e-6)

    # element by element for small inputs
    for leaf in leaves:
        x = _get(inputs, leaf)
        if x.size > 30:
            continue
        g = _get(grads, leaf)
        for idx in np.ndindex(x.shape):
            e = np.zeros(x.shape)
            e[idx] = 1.0
            assert g[idx] == pytest.approx(numeric(leaf, e), rel=1e-5, abs=1e-6), (leaf, idx)


def test_every_first_batch_backward_op_has_a_gradient_case():
    """The grad kernels of the first ops (the modules this file covers) each have a
    kernel-level case here; later ops are gradchecked through the op table in test_ops.py."""
    covered = {OPS[op]["backward"] for op, _, _ in GRAD_CASES}
    first_batch = {b for b in BACKWARD if _kernel_module(b) in _FIRST_MODULES}
    # dropout is random: its gradient is checked against its mask in test_dropout
    missing = sorted(first_batch - covered - {"dropout_grad"})
    assert not missing, (
        "grad kernels in runtime/kernels/generic/{" + ",".join(sorted(_FIRST_MODULES)) + "}.py need a "
        "kernel-level gradient case: add `(op, {input name: array}, [attributes in forward order])` "
        "to GRAD_CASES in tests/test_kernels.py for the op of each of: " + ", ".join(missing)
    )


_FIRST_MODULES = {"elementwise", "binary", "reduction", "linalg", "shape", "nn"}


def _kernel_module(backward_op: str) -> str:
    entry = BACKWARD[backward_op]
    forward = SPEC.backward(backward_op).forward.name  # the op whose `backward:` names it
    if "composite" in entry or "kernel" in entry or forward not in OPS:
        return ""  # a composite, a reused kernel, or a higher-order entry: not first-batch
    return k(entry.get("kernel", backward_op)).__module__.rsplit(".", 1)[-1]


@pytest.mark.parametrize(
    "op", ["add", "subtract", "multiply", "divide", "maximum", "minimum", "elementwise_pow"]
)
def test_binary_grads_keep_each_inputs_dtype(op):
    x = pos(3, 4).astype(np.float32)
    y = pos(4)
    assert k(op)(x, y).dtype == np.float64
    gx, gy = _run_grad(op, {"x": x, "y": y}, [], {"out": np.ones((3, 4))}).values()
    assert (gx.shape, gx.dtype) == ((3, 4), np.float32)
    assert (gy.shape, gy.dtype) == ((4,), np.float64)


def test_matmul_grads_keep_dtypes_and_1d_shapes():
    x = randn(4).astype(np.float32)
    y = randn(4)
    out = k("matmul")(x, y)
    assert out.shape == () and isinstance(out, np.ndarray)
    gx, gy = k("matmul_grad")(x, y, np.array(2.0))
    assert (gx.dtype, gy.dtype) == (np.float32, np.float64)
    np.testing.assert_allclose(gx, 2 * y, rtol=1e-6)
    np.testing.assert_allclose(gy, 2 * x, rtol=1e-6)


# --- edge cases -------------------------------------------------------------------------


def test_prod_grad_with_zeros():
    x = np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0], [1.0, 2.0, 4.0]])
    g = k("prod_grad")(x, np.ones(3), 1, False)
    np.testing.assert_array_equal(g, [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0], [8.0, 4.0, 2.0]])
    full = k("prod_grad")(x[:1], np.array(1.0), [], False)
    np.testing.assert_array_equal(full, [[0.0, 6.0, 0.0]])


@pytest.mark.parametrize("op", ["max", "min"])
def test_extremum_ties_share_the_gradient(op):
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]) * (1 if op == "max" else -1)
    out = k(op)(x, 1, False)
    g = k(op + "_grad")(x, out, np.array([1.0, 3.0]), 1, False)
    np.testing.assert_allclose(g, [[0.0, 0.5, 0.5], [1.0, 1.0, 1.0]])
    full = k(op)(x, None, True)
    assert full.shape == (1, 1)
    g = k(op + "_grad")(x, full, np.ones((1, 1)), None, True)
    np.testing.assert_allclose(g, [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]])


def test_maximum_tie_splits_the_gradient():
    gx, gy = k("maximum_grad")(np.array([1.0, 2.0]), np.array([1.0, 3.0]), np.array([4.0, 4.0]))
    np.testing.assert_array_equal(gx, [2.0, 0.0])
    np.testing.assert_array_equal(gy, [2.0, 4.0])


def test_clip_at_bounds_passes_the_gradient():
    x = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
    np.testing.assert_array_equal(k("clip")(x, -0.5, 0.5), [-0.5, -0.5, 0.0, 0.5, 0.5])
    np.testing.assert_array_equal(k("clip_grad")(x, np.ones(5), -0.5, 0.5), [0, 1, 1, 1, 0])
    np.testing.assert_array_equal(k("clip_grad")(x, np.ones(5), None, 0.0), [1, 1, 1, 0, 0])
    np.testing.assert_array_equal(k("clip")(x, None, None), x)


def test_softplus_threshold():
    x = np.array([-30.0, 0.0, 10.0, 10.5, 800.0])
    out = k("softplus")(x, 2.0, 20.0)
    np.testing.assert_allclose(
        out, [np.log1p(np.exp(-60.0)) / 2, np.log(2) / 2, np.log1p(np.exp(20.0)) / 2, 10.5, 800]
    )
    g = k("softplus_grad")(x, np.ones(5), 2.0, 20.0)
    np.testing.assert_allclose(g, [1 / (1 + np.exp(60.0)), 0.5, 1 / (1 + np.exp(-20.0)), 1.0, 1.0])


def test_split_sections():
    x = np.arange(20.0).reshape(10, 2)
    parts = k("split")(x, [2, -1, 3], 0)
    assert [p.shape for p in parts] == [(2, 2), (5, 2), (3, 2)]
    assert all(np.shares_memory(p, x) for p in parts)
    assert [p.shape for p in k("split")(x, 5, 0)] == [(2, 2)] * 5
    assert [p.shape for p in k("split")(x, [10], 0)] == [(10, 2)]
    g = k("split_grad")(meta(x), [np.ones((2, 2)), np.zeros((5, 2)), np.ones((3, 2))], [2, -1, 3], 0)
    assert g.shape == (10, 2) and g.sum() == 10


def test_matmul_shapes_follow_numpy():
    mm = k("matmul")
    for a, b in [
        ((4,), (4, 5)),
        ((3, 4), (4,)),
        ((2, 3, 4), (4, 5)),
        ((4,), (2, 4, 5)),
        ((2, 1, 3, 4), (5, 4, 2)),
    ]:
        x, y = randn(*a), randn(*b)
        np.testing.assert_allclose(mm(x, y), np.matmul(x, y))
    x, y = randn(2, 4, 3), randn(5, 4)
    np.testing.assert_allclose(mm(x, y, True, True), np.swapaxes(x, -1, -2) @ y.T)


def test_shape_kernels_return_views():
    x = randn(2, 3, 4)
    views = [
        k("reshape")(x, [6, -1]),
        k("transpose")(x, [1, 0, 2]),
        k("squeeze")(x[:, :1], []),
        k("unsqueeze")(x, [0]),
        k("flatten")(x, 0, 1),
        k("expand")(x[:1], [5, 3, 4]),
    ]
    for v in views:
        assert np.shares_memory(v, x)
    assert views[0].shape == (6, 4)
    assert views[2].shape == (2, 4)
    assert views[4].shape == (6, 4)
    assert k("flatten")(np.array(3.0)).shape == (1,)
    assert k("unsqueeze")(randn(2, 3), [0, 3]).shape == (1, 2, 3, 1)
    assert k("squeeze")(randn(2, 1, 3), [0]).shape == (2, 1, 3)  # non-1 axes are left alone


def test_full_reductions_are_0d_arrays():
    x = randn(2, 3)
    for op in ("sum", "mean", "max", "min", "prod", "logsumexp"):
        out = k(op)(x, [], False)
        assert isinstance(out, np.ndarray) and out.shape == (), op
        out = k(op)(x, None, True)
        assert out.shape == (1, 1), op
    for op, ref in (("argmax", np.argmax), ("argmin", np.argmin)):
        out = k(op)(x, None, False)
        assert isinstance(out, np.ndarray) and out.shape == () and out.dtype == np.int64
        assert out == ref(x)
        np.testing.assert_array_equal(k(op)(x, 1, False), ref(x, axis=1))
        assert k(op)(x, -1, True).shape == (2, 1)
        assert k(op)(x, None, True).shape == (1, 1)


def test_unary_kernels_on_0d_give_arrays():
    for op in ("neg", "exp", "tanh", "sigmoid", "relu", "gelu", "erf", "abs"):
        assert isinstance(k(op)(np.array(0.5)), np.ndarray), op
    assert isinstance(k("tanh_grad")(np.array(0.5), np.array(1.0)), np.ndarray)
    assert isinstance(k("equal")(np.array(0.5), np.array(0.5)), np.ndarray)


def test_dropout():
    x = pos(200, 50)
    manual_seed(7)
    out, mask = k("dropout")(x, 0.25, True)
    assert mask.dtype == np.bool_ and 0.7 < mask.mean() < 0.8
    np.testing.assert_allclose(out, np.where(mask, x / 0.75, 0.0))
    manual_seed(7)
    out2, _ = k("dropout")(x, 0.25, True)
    np.testing.assert_array_equal(out, out2)
    g = k("dropout_grad")(mask, np.ones_like(x), 0.25, True)
    np.testing.assert_allclose(g, mask / 0.75)
    for p, training in ((0.5, False), (0.0, True)):
        out, mask = k("dropout")(x, p, training)
        np.testing.assert_array_equal(out, x)
        assert mask.all() and mask.shape == x.shape
        np.testing.assert_array_equal(k("dropout_grad")(mask, x, p, training), x)
    out, mask = k("dropout")(x, 1.0, True)
    assert not out.any() and not mask.any()
    assert not k("dropout_grad")(mask, x, 1.0, True).any()
    x32 = x.astype(np.float32)
    assert k("dropout")(x32, 0.5, True)[0].dtype == np.float32


@pytest.mark.parametrize("erf", [common.erf, common.erf_chebyshev], ids=["erf", "chebyshev-fallback"])
def test_erf_matches_math_erf(erf):
    xs = np.concatenate([np.linspace(-7, 7, 2001), np.logspace(-300, 0.7, 200), [0.0, np.inf, -np.inf]])
    ref = np.array([math.erf(v) for v in xs])
    np.testing.assert_allclose(erf(xs), ref, rtol=1e-14, atol=0)
    assert np.isnan(erf(np.array([np.nan])))[0]
    assert erf(np.ones(3, np.float32)).dtype == np.float32


def test_unbroadcast_and_normalize_axis():
    g = np.ones((2, 3, 4))
    out = common.unbroadcast(g, (3, 1), np.float32)
    assert out.shape == (3, 1) and out.dtype == np.float32 and (out == 8).all()
    assert common.unbroadcast(g, (), np.float64).shape == ()
    assert common.normalize_axis(None, 3, "op") == (0, 1, 2)
    assert common.normalize_axis([], 3, "op") == (0, 1, 2)
    assert common.normalize_axis([-1, 0], 3, "op") == (0, 2)
    assert common.normalize_axis(-1, 0, "op") == ()
    with pytest.raises(ValueError, match=r"sum: axis 3 .* 3 dimensions"):
        common.normalize_axis(3, 3, "sum")
    with pytest.raises(ValueError, match=r"sum: axis \[0, -3\] names dimension 0 twice"):
        common.normalize_axis([0, -3], 3, "sum")
    with pytest.raises(TypeError, match=r"sum: axis must .* got float"):
        common.normalize_axis(1.5, 3, "sum")


# --- forward kernels against NumPy references ---------------------------------------------


def _gelu_ref(x):
    return 0.5 * x * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x.ravel()]).reshape(x.shape))


def _lse_ref(x, axis):
    # shifted by the maximum: the inputs are large enough to overflow exp
    m = x.max(axis, keepdims=True)
    return (np.log(np.exp(x - m).sum(axis, keepdims=True)) + m).squeeze(axis)


def _ce_ref(logits, labels):
    logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    return -logp[np.arange(len(labels)), labels]


_X = randn(3, 4)
_P = pos(3, 4)
FORWARD_CASES = [
    ("neg", (_X,), lambda x: -x),
    ("abs", (_X,), np.abs),
    ("sign", (_X,), np.sign),
    ("exp", (_X,), np.exp),
    ("expm1", (_X,), np.expm1),
    ("log", (_P,), np.log),
    ("log1p", (_P,), np.log1p),
    ("sqrt", (_P,), np.sqrt),
    ("rsqrt", (_P,), lambda x: 1 / np.sqrt(x)),
    ("square", (_X,), lambda x: x * x),
    ("reciprocal", (_P,), lambda x: 1 / x),
    ("sin", (_X,), np.sin),
    ("cos", (_X,), np.cos),
    ("tanh", (_X,), np.tanh),
    ("sigmoid", (_X * 30,), lambda x: 1 / (1 + np.exp(-x))),
    ("relu", (_X,), lambda x: np.where(x > 0, x, 0)),
    ("gelu", (_X,), _gelu_ref),
    ("gelu", (_X, True), lambda x, a: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))),
    ("silu", (_X,), lambda x: x / (1 + np.exp(-x))),
    ("softplus", (_X,), lambda x: np.log1p(np.exp(x))),
    ("leaky_relu", (_X, 0.2), lambda x, s: np.where(x > 0, x, s * x)),
    ("elu", (_X, 0.5), lambda x, a: np.where(x > 0, x, a * (np.exp(x) - 1))),
    ("scale", (_X, 3.0, -1.0), lambda x, s, b: x * s + b),
    ("pow", (_P, 1.5), lambda x, y: x**1.5),
    ("cast", (_X, np.dtype("float32")), lambda x, d: x.astype(np.float32)),
    ("add", (_X, _P[0]), np.add),
    ("subtract", (_X, _P[0]), np.subtract),
    ("multiply", (_X, _P[0]), np.multiply),
    ("divide", (_X, _P[0]), np.divide),
    ("maximum", (_X, _P[0]), np.maximum),
    ("minimum", (_X, _P[0]), np.minimum),
    ("elementwise_pow", (_P, _X), np.power),
    ("where", (_X > 0, _X, _P[0]), np.where),
    ("equal", (_X, _X[0]), np.equal),
    ("not_equal", (_X, _X[0]), np.not_equal),
    ("less_than", (_X, _P), np.less),
    ("less_equal", (_X, _X[:1]), np.less_equal),
    ("greater_than", (_X, _P), np.greater),
    ("greater_equal", (_X, _X[:1]), np.greater_equal),
    ("sum", (_X, 1, True), lambda x, a, kd: x.sum(a, keepdims=kd)),
    ("mean", (_X, [0, 1], False), lambda x, a, kd: x.mean()),
    ("max", (_X, 0, False), lambda x, a, kd: x.max(0)),
    ("min", (_X, -1, False), lambda x, a, kd: x.min(-1)),
    ("prod", (_X, 1, False), lambda x, a, kd: x.prod(1)),
    ("logsumexp", (_X * 300, 1, False), lambda x, a, kd: _lse_ref(x, 1)),
    ("tile", (_X, [2, 1]), np.tile),
    ("concat", ([_X, _P], 0), lambda xs, a: np.concatenate(xs, a)),
    ("stack", ([_X, _P], 1), lambda xs, a: np.stack(xs, 1)),
    ("gather", (_X, np.array([3, 0]), 1), lambda x, i, a: x[:, [3, 0]]),
    ("index_select", (_X, np.array([2, 2]), 0), lambda x, i, a: x[[2, 2]]),
    (
        "softmax",
        (_X * 100, 1),
        lambda x, a: (
            np.exp(x - x.max(1, keepdims=True)) / np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True)
        ),
    ),
    ("log_softmax", (_X, 0), lambda x, a: x - np.log(np.exp(x).sum(0))),
    ("cross_entropy", (_X, np.array([0, 3, 1]), -1, "none"), lambda x, y, a, r: _ce_ref(x, y)),
    ("cross_entropy", (_X, np.array([0, 3, 1]), -1, "mean"), lambda x, y, a, r: _ce_ref(x, y).mean()),
    ("cross_entropy", (_X, np.array([0, 3, 1]), -1, "sum"), lambda x, y, a, r: _ce_ref(x, y).sum()),
    ("mse_loss", (_X, _P, "mean"), lambda x, y, r: ((x - y) ** 2).mean()),
    ("one_hot", (np.array([0, 2, 1]), 4), lambda x, n: np.eye(4, dtype=np.float32)[x]),
    ("embedding", (np.array([[1, 0]]), _X), lambda x, w: w[x]),
]


@pytest.mark.parametrize("case", FORWARD_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(FORWARD_CASES)])
def test_forward_kernel_matches_numpy(case):
    op, args, ref = case
    out = k(op)(*args)
    expected = ref(*args)
    assert isinstance(out, np.ndarray)
    assert out.shape == np.shape(expected)
    assert out.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-14)


# --- bad inputs ---------------------------------------------------------------------------

ERROR_CASES = [
    (
        "matmul",
        (randn(2, 3), randn(4, 5)),
        ValueError,
        r"matmul: x has shape \(2, 3\) and y has shape \(4, 5\).*3 != 4",
    ),
    ("matmul", (randn(2, 2, 3), randn(3, 3, 4)), ValueError, r"matmul: .*batch dimensions"),
    ("add", (randn(2, 3), randn(4)), ValueError, r"add: x has shape \(2, 3\) and y has shape \(4,\)"),
    ("equal", (randn(2, 3), randn(4)), ValueError, r"equal: x has shape"),
    ("where", (randn(3), randn(3), randn(3)), TypeError, r"where: condition must be a bool tensor"),
    ("sum", (randn(2, 3), 2, False), ValueError, r"sum: axis 2 is out of range .* 2 dimensions"),
    ("argmax", (randn(2, 3), 5, False), ValueError, r"argmax: axis 5 is out of range"),
    ("argmax", (randn(2, 3), [0, 1], False), TypeError, r"argmax: axis must be an int"),
    ("max", (np.zeros((0, 3)), 0, False), ValueError, r"max: cannot reduce an empty dimension"),
    ("reshape", (randn(2, 3), [4, -1]), ValueError, r"reshape: cannot reshape x of shape \(2, 3\)"),
    ("transpose", (randn(2, 3), [0, 0]), ValueError, r"transpose: perm \[0, 0\] is not a permutation"),
    ("flatten", (randn(2, 3, 4), 2, 1), ValueError, r"flatten: start_axis 2 comes after stop_axis 1"),
    (
        "expand",
        (randn(2, 3), [4, 3]),
        ValueError,
        r"expand: cannot expand x of shape \(2, 3\) to shape \[4, 3\]",
    ),
    ("expand", (randn(2, 3), [3]), ValueError, r"expand: shape \[3\] has fewer dimensions"),
    ("concat", ([randn(2, 3), randn(3, 3)], 1), ValueError, r"concat: x\[1\] has shape \(3, 3\)"),
    ("concat", ([], 0), ValueError, r"concat: x must be a non-empty list"),
    ("stack", ([randn(2, 3), randn(3, 3)], 0), ValueError, r"stack: x\[1\] has shape"),
    (
        "split",
        (randn(10, 2), 3, 0),
        ValueError,
        r"split: num_or_sections 3 does not divide x.shape\[0\] == 10",
    ),
    (
        "split",
        (randn(10, 2), [3, -1, -1], 0),
        ValueError,
        r"split: num_or_sections \[3, -1, -1\] is not a valid list",
    ),
    ("split", (randn(10, 2), [3, 4], 0), ValueError, r"split: num_or_sections \[3, 4\] does not add up"),
    ("gather", (randn(3, 4), np.array([0, 4]), 1), ValueError, r"gather: index contains 4, outside \[0, 4\)"),
    ("gather", (randn(3, 4), np.array([0.0]), 0), TypeError, r"gather: index must be an integer tensor"),
    (
        "index_select",
        (randn(3, 4), np.array([[0]]), 0),
        ValueError,
        r"index_select: index must be 0-d or 1-D,",
    ),
    ("tile", (randn(3), [-1]), ValueError, r"tile: repeat_times \[-1\] has a negative entry"),
    (
        "cross_entropy",
        (randn(3, 4), np.array([0.0, 1.0, 2.0]), -1, "mean"),
        TypeError,
        r"cross_entropy: label must be an integer",
    ),
    (
        "cross_entropy",
        (randn(3, 4), np.array([0, 4, 1]), -1, "mean"),
        ValueError,
        r"cross_entropy: label contains 4, outside \[0, 4\)",
    ),
    (
        "cross_entropy",
        (randn(3, 4), np.array([0, 1]), -1, "mean"),
        ValueError,
        r"cross_entropy: label has shape \(2,\)",
    ),
    (
        "cross_entropy",
        (randn(3, 4), np.array([0, 1, 2]), -1, "avg"),
        ValueError,
        r"cross_entropy: reduction must be",
    ),
    ("mse_loss", (randn(3), randn(3), "avg"), ValueError, r"mse_loss: reduction must be"),
    ("dropout", (randn(3), 1.5, True), ValueError, r"dropout: p must be a number in \[0, 1\], got 1.5"),
    ("one_hot", (np.array([0, 3]), 3), ValueError, r"one_hot: x contains 3, outside \[0, 3\)"),
    ("embedding", (np.array([5]), randn(4, 2)), ValueError, r"embedding: x contains 5, outside \[0, 4\)"),
    ("embedding", (np.array([-1]), randn(4, 2)), ValueError, r"embedding: x contains -1"),
    ("embedding", (np.array([1.0]), randn(4, 2)), TypeError, r"embedding: x must be an integer tensor"),
    ("pow", (randn(3), "2"), TypeError, r"pow: y must be a number"),
    ("clip", (randn(3), "0", None), TypeError, r"clip: min must be a number or None"),
    ("unsqueeze", (randn(2, 3), 4), ValueError, r"unsqueeze: axis 4 is out of range for x with 2 dimensions"),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)])
def test_bad_inputs_raise_naming_op_and_argument(case):
    op, args, exc, pattern = case
    with pytest.raises(exc, match=pattern):
        k(op)(*args)


# --- CuPy overrides --------------------------------------------------------------------------


def test_importing_the_kernels_does_not_import_cupy():
    code = (
        "import sys, opgrad.runtime.kernels, opgrad.runtime.kernels.cuda as c; "
        "assert callable(c.register_cuda_kernels); assert 'cupy' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.gpu
def test_fused_cuda_kernels_match_generic():
    from opgrad.runtime import device

    cp = device.cupy_module()
    if cp is None:
        pytest.skip("needs CuPy and a CUDA device")
    from opgrad.runtime.kernels.cuda import register_cuda_kernels

    register_cuda_kernels()
    x = randn(50) * 5
    g = randn(50)
    for name, args in [
        ("sigmoid", (x,)),
        ("silu", (x,)),
        ("gelu", (x, False)),
        ("softplus", (x, 2.0, 3.0)),
        ("sigmoid_grad", (1 / (1 + np.exp(-x)), g)),
        ("silu_grad", (x, g)),
        ("gelu_grad", (x, g, False)),
        ("softplus_grad", (x, g, 2.0, 3.0)),
    ]:
        expected = lookup(name, "cpu")(*args)
        got = lookup(name, "cuda")(*[cp.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
        np.testing.assert_allclose(cp.asnumpy(got), expected, rtol=1e-10, atol=1e-12, err_msg=name)


def test_ufunc_kernels_return_arrays_for_every_input_kind():
    from opgrad.runtime.kernels.common import ufunc

    tanh = ufunc("tanh")
    x = np.linspace(-2.0, 2.0, 5)
    np.testing.assert_array_equal(tanh(x), np.tanh(x))
    zero_d = tanh(np.array(0.5))  # NumPy's ufunc alone would give a np.float64 scalar
    assert type(zero_d) is np.ndarray and zero_d.shape == () and zero_d == np.tanh(0.5)
    masked = np.ma.masked_array(x, mask=[0, 1, 0, 0, 0])  # not exactly np.ndarray: the generic path
    out = tanh(masked)
    assert isinstance(out, np.ma.MaskedArray) and out.mask[1]
    np.testing.assert_array_equal(out.data[[0, 2, 3, 4]], np.tanh(x[[0, 2, 3, 4]]))
    assert tanh.__name__ == "tanh"
