"""`alias:` in ops.yaml: PyTorch's and NumPy's spellings (`dim`, `keepdims`) of an op's
arguments, accepted by the generated function and its Tensor method; both names at once is
an error; the spec is validated with `file:line` errors."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import opgrad as og
from opgrad.codegen import load_spec
from tests.test_codegen_validation import OPS, assert_error, errors, line_of, write_spec

ROOT = Path(__file__).resolve().parent.parent
SPEC = load_spec(ROOT)
ALIASED = [op for op in SPEC.ops if op.aliases]


# Ops with an `axis` argument that deliberately have no `dim` alias, and why.
NO_DIM = {
    "index_add": "axis is required and comes before the tensor `value`, so it cannot become optional",
    "cross_entropy": "PyTorch's cross_entropy has no dim argument (the class axis is 1)",
    "softmax_vjp": "internal double-grad helper",
    "softmax_vjp_dp": "internal double-grad helper",
    "narrow_as": "internal helper of svd's gradient (and of pad_as's)",
    "pad_as": "internal helper of qr's gradient (and of narrow_as's)",
}


def test_the_reductions_and_axis_ops_have_pytorch_aliases() -> None:
    """Every op with an `axis` argument offers `dim` (or `dims`), every `keepdim` offers
    `keepdims`: add `alias:` in ops.yaml (or a reason to NO_DIM above)."""
    for op in SPEC.ops:
        names = dict(op.aliases)
        for a in op.args:
            if a.name == "axis" and op.name not in NO_DIM:
                assert names.get("axis") in ("dim", "dims"), f"ops.yaml: {op.name} needs alias: {{axis: dim}}"
            if a.name == "keepdim":
                hint = f"ops.yaml: {op.name} needs alias: {{keepdim: keepdims}}"
                assert names.get("keepdim") == "keepdims", hint


@pytest.mark.parametrize("op", ALIASED, ids=lambda op: op.name)
def test_every_alias_is_a_parameter_of_the_function_and_the_method(op) -> None:
    fn = getattr(og, op.name)
    params = inspect.signature(fn).parameters
    for arg, alias in op.aliases:
        assert alias in params and params[alias].default is None, (op.name, alias)
        assert arg in params
    if op.method:
        method = inspect.signature(getattr(og.Tensor, op.method)).parameters
        assert all(alias in method for _, alias in op.aliases), op.name


def _x() -> og.Tensor:
    return og.tensor(np.arange(24.0).reshape(2, 3, 4))


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod", "logsumexp", "var", "std", "norm"])
def test_reductions_take_dim_and_keepdims(name: str) -> None:
    x = _x()
    fn = getattr(og, name)
    expected = fn(x, axis=1, keepdim=True).numpy()
    np.testing.assert_allclose(fn(x, dim=1, keepdims=True).numpy(), expected)
    np.testing.assert_allclose(getattr(x, name)(dim=1, keepdims=True).numpy(), expected)
    np.testing.assert_allclose(fn(x, axis=1, keepdims=True).numpy(), expected)
    with pytest.raises(TypeError, match=rf"{name}: got both 'axis' and its alias 'dim'"):
        fn(x, axis=0, dim=1)
    with pytest.raises(TypeError, match=rf"{name}: got both 'keepdim' and its alias 'keepdims'"):
        getattr(x, name)(keepdim=True, keepdims=True)


def test_axis_ops_take_dim() -> None:
    x = _x()
    assert og.softmax(x, dim=0).numpy().sum(0) == pytest.approx(np.ones((3, 4)))
    assert x.argmax(dim=2).tolist() == og.argmax(x, axis=2).tolist()
    assert og.concat([x, x], dim=2).shape == (2, 3, 8)
    assert og.stack([x, x], dim=1).shape == (2, 2, 3, 4)
    assert [t.shape for t in og.split(x, 2, dim=2)] == [(2, 3, 2), (2, 3, 2)]
    assert og.cumsum(x, dim=1).numpy()[0, 2, 0] == pytest.approx(0 + 4 + 8)
    assert og.cumprod(x, axis=2).numpy().tolist() == og.cumprod(x, dim=2).numpy().tolist()
    assert x.flatten(start_dim=1, end_dim=2).shape == (2, 12)
    assert og.flip(x, dims=[0]).numpy().tolist() == x.numpy()[::-1].tolist()
    assert og.topk(x, 2, dim=1)[0].shape == (2, 2, 4)


def test_a_required_argument_may_come_by_its_alias_only() -> None:
    x = _x()
    assert og.unsqueeze(x, dim=0).shape == (1, 2, 3, 4)
    assert x.unsqueeze(dim=-1).shape == (2, 3, 4, 1)
    with pytest.raises(TypeError, match=r"unsqueeze: missing required argument 'axis' \(or its alias"):
        og.unsqueeze(x)
    with pytest.raises(TypeError, match="got both 'axis' and its alias 'dim'"):
        og.unsqueeze(x, 0, dim=0)


def test_an_aliased_argument_keeps_its_checks() -> None:
    with pytest.raises(TypeError, match="sum: axis"):
        og.sum(_x(), dim=1.5)
    with pytest.raises(TypeError, match="sum: keepdim"):
        og.sum(_x(), keepdims="yes")


def test_gradients_flow_through_the_alias_spelling() -> None:
    x = og.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    og.testing.gradcheck(lambda t: og.logsumexp(t, dim=1, keepdims=True), [x])
    og.testing.gradcheck(lambda t: t.softmax(dim=0), [x])


# --- validation -----------------------------------------------------------------------------


def _with_alias(text: str) -> str:
    return OPS.replace(
        "  args: (Tensor x, int[] axis = [], bool keepdim = false)\n",
        f"  args: (Tensor x, int[] axis = [], bool keepdim = false)\n  alias: {text}\n",
    )


def test_a_valid_alias_is_loaded(tmp_path: Path) -> None:
    spec = load_spec(write_spec(tmp_path, _with_alias("{keepdim: keepdims, axis: dim}")))
    aliases = next(op for op in spec.ops if op.name == "sum").aliases
    assert aliases == (("axis", "dim"), ("keepdim", "keepdims"))


@pytest.mark.parametrize(
    ("alias", "fragment"),
    [
        ("dim", "'alias' must be a mapping"),
        ("{axes: dim}", "alias key 'axes' is not an attribute argument (attributes: axis, keepdim)"),
        ("{x: input}", "alias key 'x' is not an attribute argument"),
        ("{axis: keepdim}", "alias 'keepdim' of 'axis' is already an argument or output"),
        ("{axis: out}", "alias 'out' of 'axis' is already an argument or output"),
        ("{axis: dim, keepdim: dim}", "alias 'dim' is given to two arguments"),
        ("{axis: node}", "is reserved"),
        ('{axis: "2d"}', "not a valid identifier"),
    ],
)
def test_bad_aliases_are_refused_with_their_line(tmp_path: Path, alias: str, fragment: str) -> None:
    ops = _with_alias(alias)
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "alias:"), "sum", fragment)


def test_an_alias_of_a_required_argument_needs_defaults_after_it(tmp_path: Path) -> None:
    ops = OPS.replace(
        "  args: (Tensor x, Tensor y)\n", "  args: (Tensor x, Tensor y, int k, int j)\n  alias: {k: kk}\n"
    ).replace("operator: [__mul__, __rmul__]", "method: true")
    assert_error(errors(tmp_path, ops), "ops.yaml", line_of(ops, "alias:"), "mul", "need defaults too", "(j)")
