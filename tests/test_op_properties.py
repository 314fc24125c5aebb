"""Property-based tests of every op of ops.yaml, driven by the op table (hypothesis).

Each case (see `op_strategies.py`) is a sample of `op_samples.OPS` with hostile changes:
dtypes, zero-size and broadcast shapes, negative, out-of-range and duplicate axes, nan/inf,
and non-contiguous, Fortran-ordered or read-only layouts. The op must either

- raise TypeError/ValueError/IndexError/RuntimeError naming the op, leaving every input as it
  was (data, version, grad), or
- succeed, match the NumPy reference of the op table (when the reference accepts the input),
  give the same outputs and gradients whatever the layout, and keep these promises:
  outputs share no memory with inputs unless the spec says `view:`, integer and bool outputs
  never require grad, every float leaf's `.grad` has the leaf's dtype and shape, and no
  `.grad` shares memory with another grad, an input, an output or a seed.

Known defects that other work is fixing are listed once, in `KNOWN_FAILURES` (op, condition,
issue item); delete an entry when its fix lands. Counts of what was tried are printed at
the end of the run (see conftest.py). `nox -s fuzz` runs the long profile.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import opgrad as og
from op_samples import OPS
from op_strategies import RAW_LAYOUTS, SPEC, Built, Case, array_slots, build, cases, first_ndim

pytestmark = pytest.mark.fuzz

ALLOWED_ERRORS = (TypeError, ValueError, IndexError, RuntimeError)
COUNTS: Counter[str] = Counter()  # printed by conftest.py at the end of the session
KNOWN_SEEN: Counter[str] = Counter()


class Violation(Exception):
    """A broken promise: `kind` says which one (the known-failures table matches on it)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"[{kind}] {message}")
        self.kind = kind


# --- known failures (delete an entry when its fix is merged) -------------------------------------


@dataclass(frozen=True)
class Known:
    ops: tuple[str, ...]  # () for every op
    kind: str  # the Violation kind, or "*"
    condition: str  # human-readable
    when: Callable[[Case], bool]
    item: str  # issue 9 item (or "new: ..." for a defect found here)


def _tag(tag: str) -> Callable[[Case], bool]:
    return lambda c: tag in c.tags


KNOWN_FAILURES: list[Known] = []


# Where the op table's NumPy reference is not the truth, values are not compared (the other
# promises still are). Each entry: (op, condition, why).
REFERENCE_LIMITS: list[tuple[str, Callable[[Case], bool], str]] = [
    ("softsign", _tag("inf"), "x / (1 + |x|) is nan at +-inf; opgrad returns the limits +-1"),
    ("einsum", _tag("inf"), "inf - inf or inf: the contraction order decides (np.einsum's order differs)"),
    ("topk", _tag("nan"), "NumPy's partition sorts NaN last; opgrad, like PyTorch, takes NaN as the largest"),
    ("sort", _tag("nan"), "NumPy sorts NaN last; opgrad, like PyTorch, takes NaN as the largest"),
    ("argsort", _tag("nan"), "NumPy sorts NaN last; opgrad, like PyTorch, takes NaN as the largest"),
    ("index_select", _tag("0-d"), "np.take drops the axis for a 0-d index; opgrad, like PyTorch, keeps it"),
    ("gather", _tag("0-d"), "np.take drops the axis for a 0-d index; opgrad, like PyTorch, keeps it"),
    ("cast", _tag("dtype-arg:float"), "NumPy reads 'float' as float64; opgrad, like PyTorch, as float32"),
    ("logsumexp", _tag("inf"), "x - max(x) gives nan where logsumexp is +-inf (PyTorch: inf)"),
    ("cross_entropy", _tag("inf"), "the smoothing term 0 * mean(log p) is nan for a -inf logit"),
    (
        "scaled_dot_product_attention",
        lambda c: bool(c.tags & {"inf", "nan"}),
        "its masking and max-shift turn nan/inf rows into 0 where PyTorch (and opgrad) give nan",
    ),
    *(
        (
            op,
            lambda c: bool(c.tags & {"inf", "nan"}),
            "the reference probes one unit direction at a time, so 0 * nan (or inf) in the other "
            "operand spreads nan to every entry; g @ y^T (x^T @ g) has it in one row (column) only",
        )
        for op in ("matmul_xg", "matmul_yg")
    ),
    (
        "roll",
        lambda c: (c.args[2] if len(c.args) > 2 else c.kwargs.get("axis")) == [],
        "np.roll with axis=() rolls nothing; opgrad, like PyTorch, rolls the flattened tensor",
    ),
    (
        "cholesky_solve",
        _tag("inf"),
        "two triangular substitutions give 0 or inf from an infinite entry (IEEE, as PyTorch's "
        "triangular solves); the reference's general solve gives nan",
    ),
    (
        "binary_cross_entropy_with_logits",
        _tag("inf"),
        "its stable form gives nan for an infinite label or logit where the loss is +-inf "
        "(opgrad matches PyTorch there, element by element)",
    ),
]


def _qr_mode(case: Case) -> Any:
    return case.args[1] if len(case.args) > 1 else case.kwargs.get("mode", "reduced")


# Where backward refuses by design (a clean error naming the op, as PyTorch's does), the
# gradient promises are not checked. Each entry: (op, condition, why).
BACKWARD_REFUSALS: list[tuple[str, Callable[[Case], bool], str]] = [
    (
        "qr",
        lambda c: _qr_mode(c) in ("r", "complete"),
        "mode 'r' computes no q, and a tall 'complete' q has non-unique columns: torch.linalg.qr "
        "refuses both gradients",
    ),
]


def _backward_refused(case: Case, exc: Exception) -> bool:
    return (
        isinstance(exc, ALLOWED_ERRORS)
        and bool(re.search(rf"\b{re.escape(case.name)}\b", str(exc)))
        and any(op == case.name and when(case) for op, when, _ in BACKWARD_REFUSALS)
    )


def _reference_applies(case: Case) -> bool:
    return not any(op == case.name and when(case) for op, when, _ in REFERENCE_LIMITS)


def _known(case: Case, v: Violation) -> Known | None:
    for k in KNOWN_FAILURES:
        if (not k.ops or case.name in k.ops) and k.kind in ("*", v.kind) and k.when(case):
            return k
    return None


# --- helpers ------------------------------------------------------------------------------------


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _array(x: Any) -> np.ndarray:
    return x._data if isinstance(x, og.Tensor) else x


def _call(case: Case, built: Built) -> Any:
    if case.sample.seed is not None:
        og.manual_seed(case.sample.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(og, case.name)(*built.args, **case.kwargs)


def _reference(case: Case) -> tuple[Any, Any, BaseException | None]:
    """(expected values from float64-upcast inputs, the reference run on the case's own dtypes, error)."""
    info = OPS[case.name]
    up = [list(a) if isinstance(a, list) else a for a in case.args]
    for slot in array_slots(up):
        a = up[slot[0]] if slot[1] is None else up[slot[0]][slot[1]]
        if a.dtype.kind == "f" and a.dtype != np.float64:
            if slot[1] is None:
                up[slot[0]] = a.astype(np.float64)
            else:
                up[slot[0]][slot[1]] = a.astype(np.float64)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            own = info.ref(*case.args, **case.kwargs)
            values = info.ref(*up, **case.kwargs) if info.ref_upcast else own
    except Exception as exc:  # the reference refuses: NumPy's own error, any type
        return None, None, exc
    return values, own, None


def _snapshot(built: Built) -> list[tuple[np.ndarray, int | None, Any]]:
    out = []
    for x in built.inputs:
        if isinstance(x, og.Tensor):
            grad = x.grad if x.is_leaf else None
            out.append((x._data.copy(), x._version, None if grad is None else grad._data.copy()))
        else:
            out.append((x.copy(), None, None))
    return out


def _changed(built: Built, before: list[Any], allowed: set[str]) -> str | None:
    for x, name, (data, version, grad) in zip(built.inputs, built.arg_of_input, before, strict=True):
        if name in allowed:
            continue
        now = _array(x)
        if now.shape != data.shape or not np.array_equal(now, data, equal_nan=now.dtype.kind in "fc"):
            return f"the data of argument {name!r} changed"
        if isinstance(x, og.Tensor):
            if x._version != version:
                return f"the version of argument {name!r} changed ({version} -> {x._version})"
            if x.is_leaf and (x.grad is None) != (grad is None):
                return f"the grad of argument {name!r} changed"
            if x.is_leaf and grad is not None and not np.array_equal(x.grad._data, grad, equal_nan=True):
                return f"the grad of argument {name!r} changed"
    return None


def _tolerances(case: Case, dtype: np.dtype) -> tuple[float, float]:
    info = OPS[case.name]
    if dtype == np.float16 or any(t == "dtype:float16" for t in case.tags):
        return 2e-2, 5e-2
    if dtype in (np.float32, np.complex64) or "dtype:float32" in case.tags:
        return max(info.rtol32, 1e-5), max(info.atol32, 1e-5)
    return max(info.rtol, 1e-9), max(info.atol, 1e-11)


def _int_inputs(case: Case) -> bool:
    """Whether float arrays of the sample were turned into integers or bools. The op table's
    references are written for floats (they keep or promote dtypes as NumPy does, where opgrad
    follows its spec), so such cases are checked for their promises, not their values."""
    return any(t in case.tags for t in ("dtype:int32", "dtype:int64", "dtype:bool"))


def _compare(case: Case, outs: list[Any], expected: Any, own: Any, is_list: bool) -> None:
    exps, owns = _as_list(expected), _as_list(own)
    if isinstance(expected, (list, tuple)) != is_list or len(exps) != len(outs):
        raise Violation("mismatch", f"{len(outs)} outputs, the reference gives {len(exps)}")
    for k, (o, e, e_own) in enumerate(zip(outs, exps, owns, strict=True)):
        e, e_own = np.asarray(e), np.asarray(e_own)
        if o.ndim == 0 and e.shape == (1,) and first_ndim(case) == 0:
            e, e_own = e.reshape(()), e_own.reshape(())  # NumPy's cumsum/argsort make 0-d input 1-d
        if o.shape != e.shape:
            raise Violation("mismatch", f"output {k}: shape {o.shape}, the reference gives {e.shape}")
        if "mixed-dtypes" not in case.tags and o.dtype != e_own.dtype:
            raise Violation("dtype", f"output {k}: dtype {o.dtype}, the reference gives {e_own.dtype}")
        got = o.numpy()
        if e.dtype.kind in "biu" and got.dtype.kind in "biu":
            ok = np.array_equal(got, e)
        else:
            rtol, atol = _tolerances(case, o.dtype)
            with np.errstate(all="ignore"):
                ok = np.allclose(got.astype(np.float64), e.astype(np.float64), rtol, atol, equal_nan=True)
        if not ok:
            raise Violation("mismatch", f"output {k}: got\n{got}\nexpected\n{e}")


def _check_outputs(case: Case, built: Built, outs: list[Any]) -> None:
    spec = case.spec
    returned = [o.name for o in spec.outputs if o.name not in spec.intermediate]
    for k, o in enumerate(outs):
        if not isinstance(o, og.Tensor):
            raise Violation("mismatch", f"output {k} is a {type(o).__name__}")
        out_name = returned[min(k, len(returned) - 1)] if returned else "?"
        if o.requires_grad and (o.dtype.kind not in "fc" or out_name in spec.non_differentiable):
            raise Violation("int-requires-grad", f"output {k} ({o.dtype}, {out_name}) requires grad")
        for x, arg in zip(built.inputs, built.arg_of_input, strict=True):
            if arg != spec.view and np.shares_memory(o._data, _array(x)):
                raise Violation("output-aliases-input", f"output {k} shares memory with argument {arg!r}")
        for leaf in built.leaves:
            if spec.view is None and np.shares_memory(o._data, leaf._data):
                raise Violation("output-aliases-input", f"output {k} shares memory with a leaf")


def _backward(case: Case, outs: list[Any]) -> list[Any]:
    rg = [o for o in outs if o.requires_grad]
    if not rg:
        return []
    rng = np.random.default_rng(0)
    seeds = [og.tensor(rng.standard_normal(o.shape).astype(o.dtype)) for o in rg]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            og.backward(rg, seeds)
    except Exception as exc:
        if _backward_refused(case, exc):
            return []
        raise Violation("backward-error", f"backward raised {type(exc).__name__}: {exc}") from exc
    return seeds


def _check_grads(built: Built, outs: list[Any], seeds: list[Any]) -> None:
    grads = [(i, leaf.grad) for i, leaf in enumerate(built.leaves) if leaf.grad is not None]
    others = [("input", _array(x)) for x in built.inputs]
    others += [("leaf", leaf._data) for leaf in built.leaves]
    others += [("seed", s._data) for s in seeds] + [("output", o._data) for o in outs]
    for i, g in grads:
        leaf = built.leaves[i]
        if g.dtype != leaf.dtype:
            raise Violation("grad-dtype", f"leaf {i}: grad dtype {g.dtype}, leaf dtype {leaf.dtype}")
        if g.shape != leaf.shape:
            raise Violation("grad-shape", f"leaf {i}: grad shape {g.shape}, leaf shape {leaf.shape}")
        for j, h in grads:
            if j != i and np.shares_memory(g._data, h._data):
                raise Violation("grad-aliases", f"the grads of leaves {i} and {j} share memory")
        for what, arr in others:
            if np.shares_memory(g._data, arr):
                raise Violation("grad-aliases", f"the grad of leaf {i} shares memory with an {what}")


def _leaf_grads(built: Built) -> list[Any]:
    """Per input: its gradient as seen at the input's own shape (through the view for
    Fortran/strided leaves), or None."""
    out: list[Any] = []
    for k, x in enumerate(built.inputs):
        if k in built.views:
            leaf, fn = built.views[k]
            out.append(None if leaf.grad is None else fn(leaf.grad._data))
        elif isinstance(x, og.Tensor) and x.requires_grad and x.grad is not None:
            out.append(x.grad._data)
        else:
            out.append(None)
    return out


def _same(a: np.ndarray, b: np.ndarray, case: Case) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind not in "fc":
        return bool(np.array_equal(a, b))
    rtol, atol = _tolerances(case, a.dtype)
    return bool(np.allclose(a, b, rtol * 1e-3 if a.dtype == np.float64 else rtol, atol, equal_nan=True))


def _check_layouts(case: Case, built: Built, outs: list[Any], seeds: list[Any]) -> None:
    """The drawn layouts give the outputs and gradients of plain contiguous tensors."""
    plain = build(case, og, plain=True)
    try:
        plain_outs = _as_list(_call(case, plain))
    except Exception as exc:
        raise Violation("layout", f"plain tensors raise {type(exc).__name__}: {exc}") from exc
    for k, (o, p) in enumerate(zip(outs, plain_outs, strict=True)):
        if case.sample.forward and not _same(o.numpy(), p.numpy(), case):
            raise Violation("layout", f"output {k} depends on the layout:\n{o.numpy()}\nvs\n{p.numpy()}")
    if not seeds:
        return
    rg = [o for o in plain_outs if o.requires_grad]
    if len(rg) != len(seeds):
        raise Violation("layout", "a different set of outputs requires grad with plain tensors")
    try:
        og.backward(rg, [og.tensor(s._data.copy()) for s in seeds])
    except Exception as exc:
        raise Violation("backward-error", f"backward with plain tensors raised {exc!r}") from exc
    for k, (g, p) in enumerate(zip(_leaf_grads(built), _leaf_grads(plain), strict=True)):
        if g is not None and case.pregrad:
            g = (g - g.dtype.type(0.5)).astype(g.dtype)  # the .grad the leaf started with
        if g is not None and p is not None and not _same(g, p, case):
            raise Violation("layout", f"the gradient of input {k} depends on the layout:\n{g}\nvs\n{p}")


# --- the property ---------------------------------------------------------------------------------


def check_case(case: Case) -> str:
    """Run one case; returns its outcome ('clean-error', 'match', 'accepted') or raises Violation."""
    name, spec = case.name, case.spec
    expected, own, ref_error = _reference(case)
    built = build(case, og)
    before = _snapshot(built)
    try:
        out = _call(case, built)
    except Exception as exc:
        if not isinstance(exc, ALLOWED_ERRORS):
            raise Violation("unclean-error", f"{type(exc).__name__}: {exc}") from exc
        if not re.search(rf"\b{re.escape(name)}\b", str(exc)):
            raise Violation("unnamed-error", f"{type(exc).__name__} does not name {name!r}: {exc}") from exc
        changed = _changed(built, before, set())
        if changed:
            raise Violation("state-changed", f"{changed} before {type(exc).__name__}: {exc}") from exc
        return "clean-error"
    outs = _as_list(out)
    changed = _changed(built, before, set(spec.mutates))
    if changed:
        raise Violation("state-changed", f"{changed} by a successful call")
    _check_outputs(case, built, outs)
    outcome = "accepted"
    if ref_error is None and case.sample.forward and not _int_inputs(case) and _reference_applies(case):
        _compare(case, outs, expected, own, isinstance(out, (list, tuple)))
        outcome = "match"
    elif ref_error is not None and case.tags & {"axis-out-of-range", "duplicate"} and first_ndim(case) > 0:
        # (0-d inputs accept axis 0 and -1, as in PyTorch)
        raise Violation("accepts-invalid", f"NumPy refuses ({type(ref_error).__name__}: {ref_error})")
    seeds = _backward(case, outs)
    _check_grads(built, outs, seeds)
    if case.layouts and any(v not in RAW_LAYOUTS or built.leaves for v in case.layouts.values()):
        _check_layouts(case, built, outs, seeds)
    return outcome


@pytest.mark.parametrize("name", list(SPEC))
@given(data=st.data())
def test_op_keeps_its_promises(name, data):
    case = data.draw(cases(name), label="case")
    note(case.describe())
    COUNTS["cases"] += 1
    try:
        outcome = check_case(case)
    except Violation as v:
        known = _known(case, v)
        if known is None:
            COUNTS["unexpected"] += 1
            raise AssertionError(f"{case.describe()}\n{v}") from v
        COUNTS["known-failure"] += 1
        KNOWN_SEEN[f"{name} [{v.kind}] {known.condition} ({known.item})"] += 1
        return
    COUNTS[outcome] += 1


def test_every_op_has_samples_for_the_fuzzer():
    missing = [name for name in SPEC if name not in OPS or not OPS[name].sample_list()]
    assert missing == [], (
        f"ops without samples: {missing}; add an `OpInfo(name, reference, samples)` to tests/op_samples.py's "
        "_INFOS or to the INFOS list of a tests/op_samples_<family>.py"
    )


def test_known_failures_name_real_ops_and_kinds():
    kinds = {
        "*",
        "unclean-error",
        "unnamed-error",
        "state-changed",
        "mismatch",
        "dtype",
        "int-requires-grad",
        "output-aliases-input",
        "backward-error",
        "grad-dtype",
        "grad-shape",
        "grad-aliases",
        "layout",
        "accepts-invalid",
    }
    for k in KNOWN_FAILURES:
        assert set(k.ops) <= set(SPEC), k
        assert k.kind in kinds, k
        assert k.item, k


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_the_reference_of_a_range_dependent_op_runs_in_the_cases_dtype(dtype):
    """The long profile found nan_to_num(float16 inf) "wrong": the op gives 65504 (float16's
    largest value, as NumPy does) and the reference, run on float64-upcast inputs, gave
    1.8e308. Such ops (OpInfo.ref_upcast=False) take the reference on the case's own dtype."""
    info = OPS["nan_to_num"]
    case = Case("nan_to_num", info.sample_list()[0], [np.array([np.inf, -np.inf, 1.0], dtype=dtype)], {})
    values, own, error = _reference(case)
    assert error is None
    np.testing.assert_array_equal(np.asarray(values), [np.finfo(dtype).max, np.finfo(dtype).min, 1.0])
    np.testing.assert_array_equal(np.asarray(values), np.asarray(own))
