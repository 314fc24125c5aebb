"""Type promotion (runtime/promotion.py): every row of the table in docs/dtypes.md, under
both default float dtypes, and against PyTorch when it is installed; gradients come back in
each input's own dtype."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import opgrad as og
from op_samples import OPS
from opgrad.runtime.promotion import result_dtype, scalar_dtype
from tests.test_codegen_validation import OPS as SPEC_OPS
from tests.test_codegen_validation import assert_error, errors, line_of

DOC = Path(__file__).resolve().parent.parent / "docs" / "dtypes.md"
ROW = re.compile(r"^\| `(?P<expr>[^`]+)` \| (?P<result>\w+) \|$")
ROWS = [(m["expr"], m["result"]) for line in DOC.read_text().splitlines() if (m := ROW.match(line))]
DTYPES = {
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "u8": "uint8",
    "i32": "int32",
    "i64": "int64",
    "b": "bool",
}


@pytest.fixture
def default_dtype(request: pytest.FixtureRequest) -> Iterator[str]:
    before = og.get_default_dtype()
    og.set_default_dtype(request.param)
    yield request.param
    og.set_default_dtype(before)


def _operands(make: Any) -> dict[str, Any]:
    values = np.array([1, 2, 3])
    out = {name: make(values.astype(dtype)) for name, dtype in DTYPES.items()}
    out["f64_0d"] = make(np.array(2.0))
    out["i64_0d"] = make(np.array(2))
    return out


def test_the_table_is_found() -> None:
    assert len(ROWS) >= 40


@pytest.mark.parametrize("default_dtype", ["float32", "float64"], indirect=True)
@pytest.mark.parametrize(("expr", "result"), ROWS, ids=[e for e, _ in ROWS])
def test_every_row_of_the_promotion_table(expr: str, result: str, default_dtype: str) -> None:
    names = {"og": og, "np": np, **_operands(og.tensor)}
    out = eval(expr, names)  # noqa: S307 - the expressions are docs/dtypes.md's own
    expected = default_dtype if result == "default" else result
    assert out.dtype == np.dtype(expected), f"{expr}: {out.dtype}, docs/dtypes.md says {expected}"


# Rows where opgrad deliberately differs (docs/coming_from_pytorch_paddle.md).
DIFFERS_FROM_PYTORCH = {
    "i64.mean()": "PyTorch refuses the mean of integers",
    "og.hardtanh(i64)": "PyTorch keeps integers (truncating the bounds); a float op here",
}


class _TorchOps:
    """The few og functions the table calls, spelled for PyTorch."""

    def __init__(self, torch: Any) -> None:
        self.maximum = torch.maximum
        self.where = torch.where
        self.concat = torch.cat
        self.stack = torch.stack


@pytest.mark.parametrize("default_dtype", ["float32", "float64"], indirect=True)
def test_the_table_agrees_with_pytorch(default_dtype: str) -> None:
    torch = pytest.importorskip("torch")
    before = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default_dtype))
    try:
        names = {"og": _TorchOps(torch), "np": np, **_operands(torch.from_numpy)}
        compared = 0
        for expr, result in ROWS:
            if expr in DIFFERS_FROM_PYTORCH:
                continue
            got = eval(expr, names)  # noqa: S307
            expected = default_dtype if result == "default" else result
            assert str(got.dtype) == f"torch.{expected}", expr
            compared += 1
        assert compared == len(ROWS) - len(DIFFERS_FROM_PYTORCH)
    finally:
        torch.set_default_dtype(before)


def test_result_dtype_ranks_dimensions_over_0d_tensors() -> None:
    f32, f64, i64 = np.dtype("float32"), np.dtype("float64"), np.dtype("int64")
    assert result_dtype((f32, 1), (f64, 0)) == f32
    assert result_dtype((i64, 2), (f64, 0)) == f64
    assert result_dtype((f32, 0), (f64, 0)) == f64
    assert result_dtype((i64, 1), (np.dtype("float16"), 1)) == np.dtype("float16")


def test_scalars_take_the_tensors_dtype_unless_their_category_is_higher() -> None:
    f16, i8, b = np.dtype("float16"), np.dtype("int8"), np.dtype("bool")
    assert scalar_dtype(f16, np.float64(1.5)) == f16
    assert scalar_dtype(i8, 3) == i8
    assert scalar_dtype(i8, True) == i8
    assert scalar_dtype(b, 3) == np.dtype("int64")
    assert scalar_dtype(i8, 2.5) == og.get_default_dtype()


def test_set_default_dtype_refuses_non_floats_and_sets_creation_defaults() -> None:
    with pytest.raises(TypeError, match="set_default_dtype: the default dtype must be floating, got int64"):
        og.set_default_dtype("int64")
    assert og.get_default_dtype() == np.float32
    og.set_default_dtype(og.float64)
    try:
        assert og.tensor([1.5]).dtype == np.float64
        assert og.zeros((2,)).dtype == np.float64
        assert og.randn((2,)).dtype == np.float64
        assert og.arange(0.0, 1.0, 0.5).dtype == np.float64
        assert og.full((2,), 0.5).dtype == np.float64
        assert og.tensor([1]).dtype == np.int64
    finally:
        og.set_default_dtype("float32")
    assert og.tensor([1.5]).dtype == np.float32


def test_gradients_come_back_in_each_inputs_own_dtype() -> None:
    x = og.tensor([1.0, 2.0, 3.0], dtype="float32", requires_grad=True)
    s = og.tensor(2.0, dtype="float64", requires_grad=True)
    y = x * s  # float32: the 0-d float64 does not widen
    assert y.dtype == np.float32
    y.sum().backward()
    assert x.grad.dtype == np.float32 and s.grad.dtype == np.float64
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0, 2.0])
    assert s.grad.item() == pytest.approx(6.0)
    h = og.tensor([1.0, 2.0], dtype="float16", requires_grad=True)
    w = og.tensor([3.0, 4.0], dtype="float32", requires_grad=True)
    (h * w).sum().backward()
    assert h.grad.dtype == np.float16 and w.grad.dtype == np.float32


def test_promoted_ops_pass_gradcheck_in_float64() -> None:
    rng = np.random.default_rng(0)
    x = og.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    ints = og.tensor(rng.integers(1, 5, (3, 4)))
    og.testing.gradcheck(lambda t: t * ints + ints / t + og.maximum(t, ints), [x])
    og.testing.gradcheck(lambda t: og.where(ints > 2, t, ints), [x])
    og.testing.gradcheck(lambda t: og.concat([t, ints], axis=0), [x])


def test_bool_and_integer_inputs_to_float_ops_compute_in_the_default_dtype() -> None:
    b = og.tensor([True, False])
    for name in ("sigmoid", "silu", "log_sigmoid", "softsign", "exp", "tanh", "erf", "gelu"):
        out = getattr(og, name)(b)
        assert out.dtype == np.float32, name
        ref = getattr(og, name)(og.tensor([1.0, 0.0]))
        np.testing.assert_allclose(out.numpy(), ref.numpy(), err_msg=name)


def test_in_place_ops_keep_their_targets_dtype() -> None:
    x = og.tensor([1.0, 2.0])
    x.add_(og.tensor([1, 2]))
    assert x.dtype == np.float32 and x.tolist() == [2.0, 4.0]
    with pytest.raises(TypeError, match=r"add_: the result has dtype float\d+, which cannot be stored"):
        og.tensor([1, 2]).add_(og.tensor([0.5, 0.5]))


# --- every op of the table follows the rules ---------------------------------------------------


def _float_results(out: Any) -> list[Any]:
    outs = out if isinstance(out, tuple | list) else (out,)
    return [o for o in outs if isinstance(o, og.Tensor) and o.dtype.kind == "f"]


@pytest.mark.parametrize("name", sorted(n for n, info in OPS.items() if info.differentiable))
def test_an_integer_operand_never_widens_a_float32_op(name: str) -> None:
    """Each float argument of the op table's first samples in turn made int64, the others
    float32: whatever floating result the op gives is float32 (NumPy would say float64)."""
    rng = np.random.default_rng(5)
    for sample in list(OPS[name].samples(rng))[:3]:
        arrays = [i for i, a in enumerate(sample.args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
        if len(arrays) < 2:
            continue
        for position in arrays:
            args = [
                og.tensor(np.round(a * 3).astype("int64") if i == position else a.astype("float32"))
                if isinstance(a, np.ndarray) and a.dtype.kind == "f"
                else a
                for i, a in enumerate(sample.args)
            ]
            kwargs = {
                k: og.tensor(v.astype("float32")) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v
                for k, v in sample.kwargs.items()
            }
            try:
                with np.errstate(all="ignore"):
                    out = getattr(og, name)(*args, **kwargs)
            except (TypeError, ValueError, IndexError):
                continue  # an op may refuse an integer where it needs a float (a weight): not this test
            for o in _float_results(out):
                assert o.dtype == np.float32, (
                    f"{name}: argument {position} int64, the rest float32 gave {o.dtype}"
                )


# --- `promote:` in the spec -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("promote", "fragment"),
    [
        ("x, y", "is not `common(x, y)` or `float(x, ...)`"),
        ("widest(x, y)", "is not `common(x, y)`"),
        ("common()", "is not `common(x, y)`"),
        ("common(x, z)", "promote 'z' must name a Tensor or Tensor[] argument (those: x, y)"),
        ("common(x, x)", "names an argument twice"),
    ],
)
def test_bad_promote_keys_are_refused_with_their_line(tmp_path: Path, promote: str, fragment: str) -> None:
    ops = SPEC_OPS.replace(
        "  args: (Tensor x, Tensor y)\n", f"  args: (Tensor x, Tensor y)\n  promote: {promote}\n"
    )
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "promote:"), "mul", fragment)


def test_a_float_op_generates_the_inline_test_and_the_runtime_call() -> None:
    text = (Path(__file__).resolve().parent.parent / "generated" / "ops.py").read_text()
    tanh = text[text.index("def tanh(") : text.index("\ndef ", text.index("def tanh("))]
    assert 'if x._data.dtype not in FLOAT_DTYPES:\n        x = promote_float("tanh", x)' in tanh
    add = text[text.index("def add(") : text.index("\ndef ", text.index("def add("))]
    assert 'if x._data.dtype is not y._data.dtype:\n        x, y = promote_args("add", False, x, y)' in add


def test_layers_make_parameters_and_buffers_of_the_default_dtype() -> None:
    """As torch.nn does: a layer without `dtype=` uses og.get_default_dtype() (not float32)."""
    from opgrad import nn

    before = og.get_default_dtype()
    og.set_default_dtype("float64")
    try:
        layers = [nn.Linear(2, 3), nn.Conv2d(1, 2, 3), nn.LayerNorm(4), nn.BatchNorm1d(3), nn.Embedding(5, 2)]
        for layer in layers:
            for name, t in layer.state_dict().items():
                if t.dtype.kind == "f":
                    assert t.dtype == np.float64, (type(layer).__name__, name, t.dtype)
    finally:
        og.set_default_dtype(before)
    assert nn.Linear(2, 3).weight.dtype == np.float32  # float32 is the default again
