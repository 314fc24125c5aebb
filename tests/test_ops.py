"""Every op of ops.yaml through the public API (`og.<name>`), driven by the table in op_samples.py.

For each sample: the float64 forward against the NumPy reference, a float32 run, and a float64
gradcheck (element by element and in a random direction). Then the bindings (og.ops, Tensor
methods and operators), dtype rules for Python scalars, non-differentiable outputs, split and
dropout, Tensor.__getitem__, and the errors bad inputs raise.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import numpy as np
import pytest

import opgrad as og
from op_samples import OPS, YAML_BACKWARD, YAML_OPS, OpInfo, Sample
from opgrad.codegen.naming import REFLECTED_OPERATORS

# --- helpers ------------------------------------------------------------------------------------


def _is_array_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, np.ndarray) for v in value)


def _map_arrays(args: tuple[Any, ...], fn: Any) -> list[Any]:
    """args with fn(position, array) applied to every array (and every array of a list)."""
    out: list[Any] = []
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray):
            out.append(fn(i, a))
        elif _is_array_list(a):
            out.append([fn(i, v) for v in a])
        else:
            out.append(a)
    return out


def _cast(a: np.ndarray, dtype: Any) -> np.ndarray:
    if dtype is None:
        return a
    if a.dtype == np.complex128:  # a complex sample: the complex dtype of dtype's precision
        return a.astype(np.complex128 if np.dtype(dtype) == np.float64 else np.complex64)
    return a.astype(dtype) if a.dtype == np.float64 else a


def _tensors(args: tuple[Any, ...], dtype: Any = None, grad_positions: tuple[int, ...] = ()) -> list[Any]:
    """The sample's arrays as tensors (float64 ones cast to dtype); requires_grad at grad_positions."""

    def make(i: int, a: np.ndarray) -> og.Tensor:
        a = _cast(a, dtype)
        return og.tensor(a, requires_grad=i in grad_positions and a.dtype.kind in "fc")

    return _map_arrays(args, make)


def _call(info: OpInfo, sample: Sample, args: list[Any]) -> Any:
    if sample.seed is not None:
        og.manual_seed(sample.seed)
    return info.op(*args, **sample.kwargs)


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _check_outputs(
    out: Any, expected: Any, rtol: float, atol: float, dtypes: list[Any] | None = None
) -> None:
    assert isinstance(out, (list, tuple)) == isinstance(expected, (list, tuple)), (type(out), type(expected))
    outs, exps = _as_list(out), _as_list(expected)
    assert len(outs) == len(exps)
    for k, (o, e) in enumerate(zip(outs, exps, strict=True)):
        e = np.asarray(e)
        assert isinstance(o, og.Tensor), f"output {k} is a {type(o).__name__}, not a Tensor"
        assert type(o._data) is np.ndarray, f"output {k} holds a {type(o._data).__name__}"
        assert o.shape == e.shape, f"output {k}: shape {o.shape}, expected {e.shape}"
        want = e.dtype if dtypes is None else dtypes[k]
        assert o.dtype == want, f"output {k}: dtype {o.dtype}, expected {want}"
        if e.dtype.kind in "biu":
            np.testing.assert_array_equal(o.numpy(), e, err_msg=f"output {k}")
        else:
            np.testing.assert_allclose(
                o.numpy().astype(np.complex128 if e.dtype.kind == "c" else np.float64),
                e,
                rtol=rtol,
                atol=atol,
                err_msg=f"output {k}",
            )


def _numpy_of(out: Any) -> Any:
    """A result's data as NumPy (a list for a list of tensors), to compare another result with."""
    return [o.numpy() for o in out] if isinstance(out, (list, tuple)) else out.numpy()


def _flat_tensors(args: list[Any]) -> list[og.Tensor]:
    out: list[og.Tensor] = []
    for a in args:
        out += [t for t in _as_list(a) if isinstance(t, og.Tensor)]
    return out


def _random_like(rng: np.random.Generator, t: og.Tensor) -> np.ndarray:
    """Random float64 values of t's shape (complex128 for a complex t): a gradient seed."""
    if t.dtype.kind == "c":
        return np.asarray(rng.standard_normal(t.shape) + 1j * rng.standard_normal(t.shape))
    return np.asarray(rng.standard_normal(t.shape))


def _has_float(sample: Sample) -> bool:
    found: list[bool] = []
    _map_arrays(sample.args, lambda i, a: found.append(a.dtype in (np.float64, np.complex128)))
    return any(found)


SAMPLE_FILES = "tests/op_samples.py's _INFOS, or the INFOS list of any tests/op_samples_<family>.py"
ADD_OPINFO = 'add `OpInfo("{name}", ...)` with sample inputs to ' + SAMPLE_FILES


def _require(name: str, sample: Sample | None) -> OpInfo:
    if name not in OPS:
        pytest.fail(f"{name} is in ops.yaml but has no OpInfo: {ADD_OPINFO.format(name=name)}")
    if sample is None:
        pytest.fail(f"{name}: its OpInfo yields no samples; give it `samples` ({SAMPLE_FILES})")
    print(f"sample: {name}({sample.describe()})")  # shown by pytest when the test fails
    return OPS[name]


def _cases(kind: str, keep: Any) -> list[Any]:
    """(name, sample) params over ops.yaml order; an op without OpInfo/samples gets one failing case.
    A sample's `xfail[kind]` (a known bug elsewhere) marks that one case xfail(strict=True)."""
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        samples = info.sample_list() if info is not None else []
        if not samples:
            params.append(pytest.param(name, None, id=f"{name}-missing"))
            continue
        for i, s in enumerate(samples):
            if keep(info, s):
                marks = [pytest.mark.xfail(strict=True, reason=s.xfail[kind])] if kind in s.xfail else []
                params.append(pytest.param(name, s, id=f"{name}-{i}", marks=marks))
    return params


# --- 1. the table covers ops.yaml ----------------------------------------------------------------


def test_every_yaml_op_has_an_opinfo():
    missing = sorted(set(YAML_OPS) - set(OPS))
    assert missing == [], f"ops without an OpInfo: {missing}; for each, {ADD_OPINFO}"
    assert sorted(set(OPS) - set(YAML_OPS)) == [], f"OpInfos naming no op of ops.yaml ({SAMPLE_FILES})"
    for name, info in OPS.items():
        samples = info.sample_list()
        assert samples, f"{name}: its OpInfo yields no samples ({SAMPLE_FILES})"
        if info.differentiable:
            assert any(s.grad for s in samples), f"{name}: no sample for gradcheck"


def _yaml_params(entry: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """(type, name, has_default) for each argument of an ops.yaml `args` string."""
    inner = entry["args"].strip()[1:-1]
    out = []
    for part in re.split(r",\s*(?![^\[]*\])", inner):
        decl, eq, _ = part.partition("=")
        typ, name = decl.strip().rsplit(" ", 1)
        out.append((typ, name, bool(eq)))
    return out


@pytest.mark.parametrize("name", list(YAML_OPS))
def test_diff_args_agree_with_backward_yaml(name):
    info = OPS.get(name)
    assert info is not None, f"{name} has no OpInfo: {ADD_OPINFO.format(name=name)}"
    entry = YAML_OPS[name]
    names = [n for _, n, _ in _yaml_params(entry)]
    where = f"OpInfo({name!r}) in tests/op_samples*.py"
    if "backward" not in entry:
        assert not info.differentiable and info.diff_args == (), (
            f"{where}: {name} has no backward in ops.yaml; give it diff_args=() and differentiable=False"
        )
        return
    grads = re.findall(r"Tensor(?:\[\])?\((\w+)_grad\)", YAML_BACKWARD[entry["backward"]]["output"])
    assert info.differentiable, f"{where}: {name} has a backward; remove differentiable=False"
    expected = tuple(sorted(names.index(g) for g in grads))
    assert sorted(info.diff_args) == list(expected), (
        f"{where}: backward.yaml's {entry['backward']} gives gradients for {grads}: set diff_args={expected}"
    )


@pytest.mark.parametrize("name", list(YAML_OPS))
def test_public_function_signature_follows_yaml(name):
    fn = getattr(og, name, None)
    assert callable(fn), f"og.{name} is missing: regenerate generated/ with `python -m opgrad.codegen`"
    assert getattr(og.ops, name) is fn
    params = list(inspect.signature(fn).parameters.values())
    expected = _yaml_params(YAML_OPS[name])
    # `alias:` names trail the arguments, default None; a required aliased argument gets one
    aliases = YAML_OPS[name].get("alias") or {}
    expected = [(t, n, d or n in aliases) for t, n, d in expected] + [("", a, True) for a in aliases.values()]
    assert [p.name for p in params] == [n for _, n, _ in expected]
    for p, (_, n, has_default) in zip(params, expected, strict=True):
        assert (p.default is not inspect.Parameter.empty) == has_default, n


# --- 2./3. forward against NumPy, float64 and float32 ----------------------------------------------


@pytest.mark.parametrize("name, sample", _cases("forward", lambda info, s: s.forward))
def test_forward_matches_numpy(name, sample):
    info = _require(name, sample)
    args = _tensors(sample.args)
    before = [a.numpy().copy() for a in _flat_tensors(args)]
    out = _call(info, sample, args)
    _check_outputs(out, info.ref(*sample.args, **sample.kwargs), info.rtol, info.atol)
    for o in _as_list(out):
        assert not o.requires_grad and o.grad_fn is None  # nothing recorded without grad
    for a, b in zip(_flat_tensors(args), before, strict=True):
        np.testing.assert_array_equal(a.numpy(), b, err_msg="the op changed its input")


@pytest.mark.parametrize("name, sample", _cases("float32", lambda info, s: s.forward and _has_float(s)))
def test_forward_float32(name, sample):
    info = _require(name, sample)
    out = _call(info, sample, _tensors(sample.args, np.float32))
    # values: the float64 reference on the float32-rounded inputs; dtypes: the reference run in float32
    rounded = _map_arrays(sample.args, lambda i, a: _cast(a, np.float32).astype(a.dtype))
    expected = info.ref(*rounded, **sample.kwargs)
    in32 = _map_arrays(sample.args, lambda i, a: _cast(a, np.float32))
    dtypes = [np.asarray(e).dtype for e in _as_list(info.ref(*in32, **sample.kwargs))]
    _check_outputs(out, expected, info.rtol32, info.atol32, dtypes)


# --- 4. gradcheck (float64) ---------------------------------------------------------------------


def _grad_setup(info: OpInfo, sample: Sample, dtype: Any = None) -> tuple[Any, list[og.Tensor]]:
    """fn(*leaves) calling the op, and the leaves: every float tensor at a differentiable position."""
    args = _tensors(sample.args, dtype, grad_positions=info.diff_args)
    slots, leaves = [], []
    for p in info.diff_args:
        if p >= len(args):  # an optional tensor argument this sample leaves out
            continue
        value = args[p]
        if isinstance(value, list):
            for j, t in enumerate(value):
                slots.append((p, j))
                leaves.append(t)
        elif isinstance(value, og.Tensor) and value.requires_grad:
            slots.append((p, None))
            leaves.append(value)

    def fn(*xs: og.Tensor) -> Any:
        call_args = [list(a) if isinstance(a, list) else a for a in args]
        for (p, j), x in zip(slots, xs, strict=True):
            if j is None:
                call_args[p] = x
            else:
                call_args[p][j] = x
        return _call(info, sample, call_args)

    return fn, leaves


def _listed(value: Any) -> list[str]:
    """A YAML key that holds one name or a list of names, as a list."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _visible_outputs(name: str) -> list[str]:
    """The names of the outputs `og.<name>` returns (ops.yaml's `output` minus `intermediate`)."""
    hidden = _listed(YAML_OPS[name].get("intermediate"))
    return [o for o in re.findall(r"Tensor(?:\[\])?\((\w+)\)", YAML_OPS[name]["output"]) if o not in hidden]


def _gradcheck_case(info: OpInfo, sample: Sample) -> bool:
    if not (info.differentiable and sample.grad):
        return False
    return any(
        isinstance(sample.args[p], np.ndarray) or _is_array_list(sample.args[p])
        for p in info.diff_args
        if p < len(sample.args)
    )


@pytest.mark.parametrize("name, sample", _cases("grad", _gradcheck_case))
def test_gradcheck(name, sample):
    info = _require(name, sample)
    fn, leaves = _grad_setup(info, sample)
    assert leaves, "no input requires grad"
    nondiff = _listed(YAML_OPS[name].get("non_differentiable"))
    skip = {i for i, o in enumerate(_visible_outputs(name)) if o in nondiff}
    for i, o in enumerate(_as_list(fn(*leaves))):
        if i in skip:
            assert not o.requires_grad, "a non_differentiable output requires grad"
        elif o.dtype.kind in "fc":
            assert o.requires_grad, "a floating output of a differentiable op does not require grad"
        else:
            assert not o.requires_grad, "an integer/bool output (indices, masks) requires grad"
    assert og.testing.gradcheck(
        fn,
        leaves,
        eps=info.grad_eps,
        atol=info.grad_atol,
        rtol=info.grad_rtol,
        raise_exception=True,
        check_directions=True,
    )


# --- 4b. higher order: gradgradcheck for every differentiable op, third order for a few -----------


def _no_double_grad(name: str) -> str:
    """Why `name` has no second-order gradient yet ('' if its grad op has a backward or is a
    composite). Ops added without one are skipped here, with the reason shown, until they get it."""
    grad_op = YAML_OPS[name].get("backward")
    entry = YAML_BACKWARD.get(grad_op, {})
    if "backward" in entry or "composite" in entry:
        return ""
    return f"{grad_op} has no backward entry (no higher-order gradient yet)"


def _gradgrad_cases() -> list[Any]:
    """The first `gradgrad_samples` grad samples of every differentiable op (gradgradcheck is
    costly); an op marked `gradgrad=False` gets one skipped case naming its reason."""
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        if info is None or not info.differentiable:
            continue
        reason = info.gradgrad_reason if not info.gradgrad else _no_double_grad(name)
        if reason:
            params.append(pytest.param(name, None, id=f"{name}-skip", marks=pytest.mark.skip(reason=reason)))
            continue
        samples = [s for s in info.sample_list() if _gradcheck_case(info, s)]
        for i, s in enumerate(samples[: info.gradgrad_samples]):
            marks = (
                [pytest.mark.xfail(strict=True, reason=s.xfail["gradgrad"])] if "gradgrad" in s.xfail else []
            )
            params.append(pytest.param(name, s, id=f"{name}-{i}", marks=marks))
    return params


@pytest.mark.parametrize("name, sample", _gradgrad_cases())
def test_gradgradcheck(name, sample):
    info = _require(name, sample)
    fn, leaves = _grad_setup(info, sample)
    assert og.testing.gradgradcheck(
        fn, leaves, eps=info.grad_eps, atol=info.grad_atol, rtol=info.grad_rtol, raise_exception=True
    )


def _has_third_order(name: str) -> bool:
    """Whether `name`'s second-order gradient is itself differentiable: its grad op is a
    composite, or its double grad has a composite (alone or next to a kernel) or a backward."""
    grad_op = YAML_OPS[name].get("backward")
    entry = YAML_BACKWARD.get(grad_op, {})
    if "composite" in entry:
        return True
    double = YAML_BACKWARD.get(entry.get("backward"), {})
    return "composite" in double or "backward" in double


def _third_order_cases() -> list[Any]:
    """The first grad sample of every op with third-order gradients (read from the spec, so
    an op that gains them is tested without an edit here)."""
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        if info is None or not info.differentiable or not info.gradgrad or not _has_third_order(name):
            continue
        samples = [s for s in info.sample_list() if _gradcheck_case(info, s) and "gradgrad" not in s.xfail]
        if samples:
            params.append(pytest.param(name, samples[0], id=f"{name}-0"))
    return params


def test_third_order_covers_the_activations_with_composite_double_grads():
    cases = {p.values[0] for p in _third_order_cases()}
    assert {"tanh", "matmul", "softmax", "cross_entropy", "conv2d"} <= cases
    assert {"gelu", "silu", "swish", "softplus", "mish"} <= cases


@pytest.mark.parametrize("name, sample", _third_order_cases())
def test_third_order_gradients(name, sample):
    """gradgradcheck of the first-order gradient function: checks third derivatives (through
    create_graph=True twice) against finite differences of second derivatives."""
    info = _require(name, sample)
    fn, leaves = _grad_setup(info, sample)
    outs = [o for o in _as_list(fn(*leaves)) if o.requires_grad]
    rng = np.random.default_rng(7)
    gos = [og.tensor(_random_like(rng, o), requires_grad=True) for o in outs]
    n = len(leaves)

    def first_order(*args: og.Tensor) -> list[og.Tensor]:
        result = [o for o in _as_list(fn(*args[:n])) if o.requires_grad]
        grads = og.grad(result, list(args[:n]), list(args[n:]), create_graph=True, allow_unused=True)
        return [g for g in grads if g is not None]

    assert og.testing.gradgradcheck(first_order, [*leaves, *gos], atol=1e-5, rtol=1e-3)


def _paths_cases() -> list[Any]:
    params = []
    for name in YAML_OPS:
        info = OPS.get(name)
        if info is None or not info.differentiable:
            continue
        samples = [s for s in info.sample_list() if _gradcheck_case(info, s) and not s.xfail]
        params += [pytest.param(name, s, id=f"{name}-{i}") for i, s in enumerate(samples)]
    return params


def _assert_same_grads(plain: list[Any], recorded: list[Any]) -> None:
    for p, r in zip(plain, recorded, strict=True):
        assert (p is None) == (r is None)
        if p is not None:
            np.testing.assert_allclose(r.numpy(), p.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name, sample", _paths_cases())
def test_recorded_path_agrees_with_the_kernel_path(name, sample):
    """A node computes its gradients on two paths: kernels on arrays (`create_graph=False`)
    and, under `create_graph=True`, recorded grad ops or composites. They must agree to
    rounding, at first order and (when the op has one) at second order; gradcheck's loose
    tolerances alone would miss a wrong digit in a composite's constant."""
    info = _require(name, sample)
    fn, leaves = _grad_setup(info, sample)
    outs = [o for o in _as_list(fn(*leaves)) if o.requires_grad]
    rng = np.random.default_rng(3)
    gos = [og.tensor(_random_like(rng, o)) for o in outs]
    plain = og.grad(outs, leaves, gos, retain_graph=True, allow_unused=True)
    recorded = og.grad(outs, leaves, gos, create_graph=True, allow_unused=True)
    _assert_same_grads(plain, recorded)
    if not info.gradgrad or _no_double_grad(name) or not _has_third_order(name):
        return  # no second order, or its double grad has only the kernel path
    firsts = [g for g in recorded if g is not None and g.requires_grad]
    if not firsts:
        return
    vs = [og.tensor(_random_like(rng, g)) for g in firsts]
    plain2 = og.grad(firsts, leaves, vs, retain_graph=True, allow_unused=True)
    recorded2 = og.grad(firsts, leaves, vs, create_graph=True, allow_unused=True)
    _assert_same_grads(plain2, recorded2)


def _first_grad_sample(name: str) -> list[Any]:
    info = OPS.get(name)
    samples = [s for s in info.sample_list() if _gradcheck_case(info, s)] if info else []
    return [pytest.param(name, samples[0], id=name)] if samples else []


@pytest.mark.parametrize("name, sample", [p for n in YAML_OPS for p in _first_grad_sample(n)])
def test_float32_gradients_keep_dtype_and_shape(name, sample):
    info = _require(name, sample)
    fn, leaves = _grad_setup(info, sample, np.float32)
    outs = [o for o in _as_list(fn(*leaves)) if o.dtype.kind in "fc" and o.requires_grad]
    seeds = [og.ones_like(o) for o in outs]  # a complex output needs its seed given
    grads = og.grad(outs, leaves, seeds, allow_unused=True)
    assert isinstance(grads, list) and len(grads) == len(leaves)
    for g, x in zip(grads, leaves, strict=True):
        assert g is not None
        assert (g.shape, g.dtype) == (x.shape, x.dtype)
        assert type(g._data) is np.ndarray


# --- 5. og.ops, Tensor methods and operators ------------------------------------------------------


def test_og_ops_holds_every_op():
    missing = [n for n in YAML_OPS if not callable(getattr(og.ops, n, None))]
    assert missing == [], f"og.ops lacks {missing}: regenerate generated/ with `python -m opgrad.codegen`"
    assert [n for n in YAML_OPS if getattr(og, n, None) is not getattr(og.ops, n)] == []


METHOD_CASES = [
    pytest.param(name, name if e["method"] is True else e["method"], id=name)
    for name, e in YAML_OPS.items()
    if e.get("method")
]


@pytest.mark.parametrize("name, method", METHOD_CASES)
def test_method_matches_function(name, method):
    info = OPS[name]
    sample = next(s for s in info.sample_list() if isinstance(s.args[0], np.ndarray) and s.forward)
    args = _tensors(sample.args)
    expected = _call(info, sample, args)
    assert callable(getattr(og.Tensor, method, None)), f"Tensor.{method} is missing"
    got = getattr(args[0], method)(*args[1:], **sample.kwargs)
    _check_outputs(got, _numpy_of(expected), 0, 0)


REFLECTED = REFLECTED_OPERATORS  # the generator's own list (`__rfloordiv__`, `__rand__`, ...)
OPERATOR_CASES = [
    pytest.param(name, dunder, id=f"{name}-{dunder}")
    for name, e in YAML_OPS.items()
    for dunder in e.get("operator", [])
]


@pytest.mark.parametrize("name, dunder", OPERATOR_CASES)
def test_operator_matches_function(name, dunder):
    info = OPS[name]
    sample = next(
        s for s in info.sample_list() if all(isinstance(a, np.ndarray) for a in s.args) and s.forward
    )
    args = _tensors(sample.args)
    assert callable(getattr(og.Tensor, dunder, None)), f"Tensor.{dunder} is missing"
    expected = info.op(*args)
    if len(args) == 1:
        got = getattr(args[0], dunder)()
    elif dunder in REFLECTED:
        got = getattr(args[1], dunder)(args[0])  # y.__rsub__(x) is x - y
    else:
        got = getattr(args[0], dunder)(args[1])
    _check_outputs(got, _numpy_of(expected), 0, 0)


# (text, expression): each runs on tensors and on NumPy arrays alike; None: an ndarray on the left
EXPRESSIONS = [
    ("x + y", lambda x, y: x + y),
    ("x - 2", lambda x, y: x - 2),
    ("2 - x", lambda x, y: 2 - x),
    ("x + 2.5", lambda x, y: x + 2.5),
    ("2.5 + x", lambda x, y: 2.5 + x),
    ("x * y", lambda x, y: x * y),
    ("3 * x", lambda x, y: 3 * x),
    ("x / 2", lambda x, y: x / 2),
    ("2 / x", lambda x, y: 2 / x),
    ("x / y", lambda x, y: x / y),
    ("x @ y.T", lambda x, y: x @ y.T),
    ("x.T @ y", lambda x, y: x.T @ y),
    ("-x", lambda x, y: -x),
    ("abs(x)", lambda x, y: abs(x)),
    ("x == y", lambda x, y: x == y),
    ("x != y", lambda x, y: x != y),
    ("x < y", lambda x, y: x < y),
    ("x <= 1", lambda x, y: x <= 1),
    ("x > y", lambda x, y: x > y),
    ("x >= y", lambda x, y: x >= y),
    ("x ** 2", lambda x, y: x**2),
    ("x ** 0.5", lambda x, y: x**0.5),
    ("2 ** x", lambda x, y: 2**x),
    ("x ** y", lambda x, y: x**y),
    ("x.sum()", lambda x, y: x.sum()),
    ("x.sum(axis=0)", lambda x, y: x.sum(axis=0)),
    ("x.mean(axis=1)", lambda x, y: x.mean(axis=1)),
    ("x.max()", lambda x, y: x.max()),
    ("x.reshape([3, 2])", lambda x, y: x.reshape([3, 2])),
    ("x.transpose([1, 0])", lambda x, y: x.transpose([1, 0])),
    ("x.argmax()", lambda x, y: x.argmax()),
    ("ndarray + x", None),
    ("ndarray * x", None),
]


@pytest.mark.parametrize("text, expr", EXPRESSIONS, ids=[e[0] for e in EXPRESSIONS])
def test_python_operators_and_methods(text, expr):
    rng = np.random.default_rng(5)
    xa = rng.integers(1, 4, (2, 3)).astype(np.float64)  # positive, with ties against y
    ya = rng.integers(1, 4, (2, 3)).astype(np.float64)
    x, y = og.tensor(xa), og.tensor(ya)
    if expr is None:  # ndarray on the left: NumPy must defer to the Tensor's reflected operator
        a = rng.standard_normal((2, 3))
        got = a + x if "+" in text else a * x
        expected = a + xa if "+" in text else a * xa
    else:
        got, expected = expr(x, y), np.asarray(expr(xa, ya))
    assert isinstance(got, og.Tensor), f"{text} gave a {type(got).__name__}"
    _check_outputs(got, expected, 1e-12, 1e-12)


def test_operators_are_differentiable():
    rng = np.random.default_rng(6)
    x = og.tensor(rng.uniform(0.5, 2.0, (2, 3)), requires_grad=True)
    y = og.tensor(rng.uniform(0.5, 2.0, (2, 3)), requires_grad=True)

    def fn(x, y):
        return ((2 - x) * y / 2 + x**2 - 3 / y + (-x) + abs(x) + 2**x + x**y) @ y.T

    assert og.testing.gradcheck(fn, [x, y])


# --- 6. dtypes: Python scalars never widen a tensor -------------------------------------------------


def test_python_scalars_keep_the_tensor_dtype():
    x32 = og.tensor(np.array([[0.5, 1.0], [1.5, 2.0]], dtype=np.float32))
    cond = og.tensor(np.array([[True, False], [False, True]]))
    results32 = {
        "x + 2.0": x32 + 2.0,
        "2.0 + x": 2.0 + x32,
        "x - 2": x32 - 2,
        "2 - x": 2 - x32,
        "x * 2.5": x32 * 2.5,
        "x / 2": x32 / 2,
        "2 / x": 2 / x32,
        "x ** 2": x32**2,
        "x ** 0.5": x32**0.5,
        "2 ** x": 2**x32,
        "og.add(x, 2.0)": og.add(x32, 2.0),
        "og.add(2.0, x)": og.add(2.0, x32),
        "og.maximum(x, 0.7)": og.maximum(x32, 0.7),
        "og.where(c, x, 0.0)": og.where(cond, x32, 0.0),
        "og.scale(x, 2.5, 1.0)": og.scale(x32, 2.5, 1.0),
        "og.pow(x, 3)": og.pow(x32, 3),
        "og.clip(x, 0.6, 1.2)": og.clip(x32, 0.6, 1.2),
        "og.elementwise_pow(x, 2.0)": og.elementwise_pow(x32, 2.0),
        "og.mse_loss(x, 1.0)": og.mse_loss(x32, 1.0),
    }
    wrong = {k: str(v.dtype) for k, v in results32.items() if v.dtype != np.float32}
    assert wrong == {}

    x16 = og.tensor(np.array([1.0, 2.0], dtype=np.float16))
    results16 = {
        "x * 3": x16 * 3,
        "3 * x": 3 * x16,
        "x + 1.5": x16 + 1.5,
        "og.multiply(x, 3)": og.multiply(x16, 3),
        "og.multiply(3, x)": og.multiply(3, x16),
        "og.where(c, x, 0.0)": og.where(og.tensor(np.array([True, False])), x16, 0.0),
    }
    wrong = {k: str(v.dtype) for k, v in results16.items() if v.dtype != np.float16}
    assert wrong == {}

    i64 = og.tensor([1, 2, 3])
    assert i64.dtype == np.int64
    assert (i64 + 1).dtype == np.int64 and (2 * i64).dtype == np.int64
    assert (x32 > 1).dtype == np.bool_


def test_float32_with_float64_gives_float64_and_grads_keep_each_dtype():
    x32 = og.tensor(np.array([1.0, 2.0], dtype=np.float32), requires_grad=True)
    y64 = og.tensor(np.array([3.0, 4.0]), requires_grad=True)
    for out in (x32 + y64, y64 * x32, og.maximum(x32, y64), x32 @ y64, og.where(x32 > 1.5, x32, y64)):
        assert out.dtype == np.float64
    (x32 * y64).sum().backward()
    assert x32.grad.dtype == np.float32 and y64.grad.dtype == np.float64
    np.testing.assert_allclose(x32.grad.numpy(), [3.0, 4.0])
    np.testing.assert_allclose(y64.grad.numpy(), [1.0, 2.0])


# --- 7. non-differentiable outputs, split, dropout, ties ------------------------------------------


def _all_outputs_non_differentiable(entry: dict[str, Any]) -> bool:
    outs = re.findall(r"Tensor(?:\[\])?\((\w+)\)", entry["output"])
    nd = {s.strip() for s in str(entry.get("non_differentiable", "")).split(",")}
    return set(outs) <= nd


NON_DIFF = [n for n, e in YAML_OPS.items() if _all_outputs_non_differentiable(e)]


@pytest.mark.parametrize("name", NON_DIFF)
def test_non_differentiable_outputs_never_require_grad(name):
    info = OPS[name]
    for sample in info.sample_list():
        args = _tensors(sample.args, grad_positions=tuple(range(len(sample.args))))
        out = _call(info, sample, args)
        for o in _as_list(out):
            assert not o.requires_grad and o.grad_fn is None
            # float results without a gradient: one_hot's, floor_divide's (a step function:
            # zero gradient almost everywhere; PyTorch's backward refuses it), histc's counts
            # bincount's summed weights and heaviside's steps (not differentiable in PyTorch either)
            assert o.dtype.kind in "biu" or name in (
                "one_hot",
                "floor_divide",
                "histc",
                "bincount",
                "heaviside",
            )


def test_non_differentiable_output_inside_a_graph():
    x = og.tensor(np.array([-1.0, 2.0, -3.0]), requires_grad=True)
    mask = x > 0
    assert not mask.requires_grad
    og.where(mask, x, x * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 1.0, 2.0])
    assert not og.argmax(x).requires_grad and not og.argmin(x, axis=0).requires_grad


def test_split_unused_outputs_get_zero_gradient():
    x = og.tensor(np.arange(12.0).reshape(6, 2), requires_grad=True)
    parts = og.split(x, 3)
    assert len(parts) == 3 and all(p.shape == (2, 2) for p in parts)
    (parts[1] * 2).sum().backward()
    expected = np.zeros((6, 2))
    expected[2:4] = 2
    np.testing.assert_array_equal(x.grad.numpy(), expected)

    y = og.tensor(np.ones((2, 6)), requires_grad=True)
    a, b, c = og.split(y, [1, -1, 2], axis=1)
    assert [p.shape for p in (a, b, c)] == [(2, 1), (2, 3), (2, 2)]
    (g,) = og.grad([c.sum()], [y])
    np.testing.assert_array_equal(g.numpy(), np.repeat([[0.0, 0, 0, 0, 1, 1]], 2, axis=0))


def test_dropout_same_seed_same_mask():
    x = og.tensor(np.random.default_rng(0).uniform(0.5, 1.5, (50, 40)))
    og.manual_seed(11)
    a = og.dropout(x, 0.5)
    og.manual_seed(11)
    b = og.dropout(x, 0.5)
    og.manual_seed(12)
    c = og.dropout(x, 0.5)
    assert isinstance(a, og.Tensor), "dropout must return out only (mask is intermediate)"
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), c.numpy())
    kept = a.numpy() != 0
    assert 0.4 < kept.mean() < 0.6
    np.testing.assert_allclose(a.numpy()[kept], x.numpy()[kept] * 2)


def test_dropout_not_training_is_identity():
    x = og.tensor(np.random.default_rng(1).standard_normal((4, 5)), requires_grad=True)
    for out in (og.dropout(x, 0.5, training=False), og.dropout(x, p=0.0)):
        np.testing.assert_array_equal(out.numpy(), x.numpy())
    og.dropout(x, 0.7, False).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((4, 5)))


def test_dropout_gradient_is_mask_over_keep_probability():
    x = og.tensor(np.random.default_rng(2).uniform(0.5, 1.5, (40, 30)), requires_grad=True)
    og.manual_seed(5)
    out = og.dropout(x, p=0.25)
    mask = out.numpy() != 0
    np.testing.assert_allclose(out.numpy(), np.where(mask, x.numpy() / 0.75, 0))
    w = np.random.default_rng(3).standard_normal((40, 30))
    (out * og.tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), w * mask / 0.75, rtol=1e-12)


def test_clip_passes_the_gradient_at_its_bounds():
    x = og.tensor(np.array([-1.0, -0.5, 0.0, 0.5, 1.0]), requires_grad=True)
    og.clip(x, -0.5, 0.5).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 1.0, 1.0, 0.0])


def test_ties_share_the_gradient():
    x = og.tensor(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]), requires_grad=True)
    og.max(x, axis=1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    a = og.tensor(np.array([1.0, 2.0]), requires_grad=True)
    b = og.tensor(np.array([1.0, 3.0]), requires_grad=True)
    og.maximum(a, b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [0.5, 0.0])
    np.testing.assert_array_equal(b.grad.numpy(), [0.5, 1.0])


# --- 8. Tensor.__getitem__ ----------------------------------------------------------------------

_MASK = np.array(
    [[True, False, True, False], [False, False, True, True], [True, True, False, False]]
)  # for x of shape (3, 4, 2)
INDEX_CASES = [
    ("int", 1, False),
    ("negative int", -1, False),
    ("slice", slice(1, 3), False),
    ("step", slice(None, None, 2), False),
    ("reverse", slice(None, None, -1), False),
    ("int, slice", (1, slice(0, 3)), False),
    ("None", (None, Ellipsis, 1), False),
    ("Ellipsis", (Ellipsis, 0), False),
    ("slice, Ellipsis", (slice(1, None), Ellipsis, None), False),
    ("int array, repeated", np.array([0, 2, 0]), False),
    ("list, repeated", [1, 1], False),
    ("int tensor, repeated", np.array([2, 0, 2]), True),
    ("0-d int tensor", np.array(1), True),
    ("two arrays, repeated pair", (np.array([0, 1, 1]), np.array([2, 0, 0])), False),
    ("slice, int array", (slice(None), np.array([3, 0, 3])), False),
    ("bool mask", _MASK, False),
    ("bool tensor mask", _MASK, True),
    ("row mask", np.array([True, False, True]), False),
    ("mask, int", (_MASK, 1), False),
]


def _og_index(index: Any, as_tensor: bool) -> Any:
    if not as_tensor:
        return index
    return og.tensor(index) if isinstance(index, np.ndarray) else index


@pytest.mark.parametrize("index, as_tensor", [c[1:] for c in INDEX_CASES], ids=[c[0] for c in INDEX_CASES])
def test_getitem_forward_and_gradcheck(index, as_tensor):
    xa = np.random.default_rng(8).standard_normal((3, 4, 2))
    x = og.tensor(xa, requires_grad=True)
    out = x[_og_index(index, as_tensor)]
    expected = xa[index]
    assert isinstance(out, og.Tensor) and type(out._data) is np.ndarray
    assert (out.shape, out.dtype) == (expected.shape, expected.dtype)
    np.testing.assert_array_equal(out.numpy(), expected)
    with og.no_grad():
        assert not x[_og_index(index, as_tensor)].requires_grad
    assert og.testing.gradcheck(lambda t: t[_og_index(index, as_tensor)], [x])


def test_getitem_repeated_indices_add_and_keep_float32():
    x = og.tensor(np.arange(4.0, dtype=np.float32), requires_grad=True)
    out = x[[0, 0, 2, 0]]
    assert out.dtype == np.float32
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 0.0, 1.0, 0.0])
    assert x.grad.dtype == np.float32


# --- 9. bad inputs ------------------------------------------------------------------------------


def _x(*shape: int) -> og.Tensor:
    return og.tensor(np.ones(shape))


ERROR_CASES = [
    (
        "matmul shapes",
        lambda: og.matmul(_x(2, 3), _x(4, 5)),
        ValueError,
        r"matmul: x has shape \(2, 3\) and y has shape \(4, 5\)",
    ),
    ("@ shapes", lambda: _x(2, 3) @ _x(4, 5), ValueError, r"matmul: x has shape \(2, 3\)"),
    (
        "add shapes",
        lambda: og.add(_x(2, 3), _x(4)),
        ValueError,
        r"add: x has shape \(2, 3\) and y has shape \(4,\)",
    ),
    ("sum axis", lambda: og.sum(_x(2, 3), axis=2), ValueError, r"sum: axis 2 is out of range"),
    (
        "sum axis list",
        lambda: og.sum(_x(2, 3), axis=[0, -3]),
        ValueError,
        r"sum: axis [\[(]0, -3[\])] is out of range",  # a list is recorded as a tuple
    ),
    ("mean axis", lambda: _x(2, 3).mean(axis=5), ValueError, r"mean: axis 5 is out of range"),
    ("softmax axis", lambda: og.softmax(_x(2, 3), axis=3), ValueError, r"softmax: axis 3 is out of range"),
    (
        "concat axis",
        lambda: og.concat([_x(2, 3), _x(2, 3)], axis=2),
        ValueError,
        r"concat: axis 2 is out of range",
    ),
    (
        "concat shapes",
        lambda: og.concat([_x(2, 3), _x(3, 2)], axis=1),
        ValueError,
        r"concat: x\[1\] has shape",
    ),
    (
        "cross_entropy float labels",
        lambda: og.cross_entropy(_x(3, 4), og.tensor([0.0, 1.0, 2.0])),
        TypeError,
        r"cross_entropy: label must be an integer",
    ),
    (
        "gather float index",
        lambda: og.gather(_x(3, 4), og.tensor([0.0, 1.0])),
        TypeError,
        r"gather: index must be an integer",
    ),
    ("tanh of a str", lambda: og.tanh("a"), TypeError, r"tanh: argument 'x' .*str"),
    ("add of None", lambda: og.add(_x(2), None), TypeError, r"add: argument 'y' .*NoneType"),
    ("matmul of a dict", lambda: og.matmul({}, _x(2)), TypeError, r"matmul: argument 'x' .*dict"),
    ("requires_grad on int", lambda: og.tensor([1, 2], requires_grad=True), TypeError, r"floating.*int64"),
    (
        "requires_grad= on int",
        lambda: setattr(og.tensor([1, 2]), "requires_grad", True),
        TypeError,
        r"floating.*int64",
    ),
]


@pytest.mark.parametrize("make, exc, pattern", [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES])
def test_bad_inputs_raise_naming_op_and_argument(make, exc, pattern):
    with pytest.raises(exc, match=pattern):
        make()


def test_autograd_docs_name_the_ops_without_third_order():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "autograd.md").read_text()
    section = text[text.index("## Higher order") :]
    section = section[: section.index("\n## ", 1)]
    start = "The ops whose double grad is still a kernel only"
    assert start in section, f"docs/autograd.md, section 'Higher order': the paragraph {start!r} is gone"
    paragraph = section[section.index(start) :].split("\n\n", 1)[0]
    named = {n for n in re.findall(r"`(\w+)`", paragraph) if n in YAML_OPS}
    differentiable = [n for n in YAML_OPS if OPS[n].differentiable]
    lacking = {n for n in differentiable if not (OPS[n].gradgrad and _has_third_order(n))}
    where = f"docs/autograd.md, section 'Higher order', the paragraph {start!r}"
    assert not lacking - named, f"{where}: add {sorted(lacking - named)} (no third-order gradient)"
    assert not named - lacking, f"{where}: remove {sorted(named - lacking)} (they have third order now)"
