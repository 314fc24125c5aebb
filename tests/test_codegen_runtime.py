"""What the generated forwards and nodes promise at run time, checked over the whole op
table where the promise is about a class of ops:

- every attribute (float, Scalar, int, bool, str, int[], DataType, optional ones too) is
  checked before anything runs, with a TypeError naming the op, the argument and what was
  expected; numbers of the neighbouring kinds (NumPy scalars, ints for floats) are accepted;
- an `int[]` argument is recorded as a tuple, so mutating the caller's list after the
  forward cannot change the gradient;
- an integer or bool result never requires grad and has no grad_fn;
- a node that saved no tensor data can run backward twice; one that did refuses.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import opgrad as og
from opgrad.codegen import load_spec
from opgrad.codegen.plan_forward import _dtype_follows_argument
from opgrad.runtime.arguments import float_arg, int_arg, int_list_arg, scalar_arg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from op_samples import OPS  # noqa: E402

SPEC = load_spec(ROOT)


def _tensorize(value: Any, requires_grad: bool = True) -> Any:
    if isinstance(value, np.ndarray):
        return og.tensor(value, requires_grad=requires_grad and value.dtype.kind in "fc")
    if isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
        return [_tensorize(v, requires_grad) for v in value]
    return value


def _first_sample(name: str) -> tuple[list[Any], dict[str, Any]]:
    sample = next(OPS[name].samples(np.random.default_rng(0)))
    return [_tensorize(a) for a in sample.args], {k: _tensorize(v) for k, v in sample.kwargs.items()}


# --- attribute checks --------------------------------------------------------------------------

WRONG = {"str": 1.5, "DataType": "no_such_dtype"}  # every other kind gets a string
EXPECTED = {
    "float": "must be a real number",
    "Scalar": "must be a number",
    "int": "must be an integer",
    "bool": "must be True or False",
    "str": "must be a string",
    "int[]": "must be an integer or a sequence of integers",
    "DataType": "unsupported dtype",
}
ATTRIBUTES = [(op.name, a.name, a.base_type) for op in SPEC.ops for a in op.attrs]


@pytest.mark.parametrize(("op", "arg", "kind"), ATTRIBUTES, ids=[f"{o}.{a}" for o, a, _ in ATTRIBUTES])
def test_every_attribute_of_every_op_is_checked(op: str, arg: str, kind: str) -> None:
    args, kwargs = _first_sample(op)
    bound = inspect.signature(getattr(og, op)).bind_partial(*args, **kwargs)
    bound.arguments[arg] = WRONG.get(kind, "2")
    with pytest.raises(TypeError, match=f"^{op}: {arg}: unsupported|^{op}: {arg} {EXPECTED[kind]}"):
        getattr(og, op)(*bound.args, **bound.kwargs)


def test_the_reported_messages() -> None:
    x = og.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(TypeError, match=r"^cast: dtype: unsupported dtype 'foo'; expected one of"):
        og.cast(x, "foo")
    with pytest.raises(
        TypeError, match=r"^scale: scale must be a number \(int, float or bool\), got str '2'"
    ):
        og.scale(x, "2")
    with pytest.raises(TypeError, match=r"^sum: keepdim must be True or False, got int 1"):
        og.sum(x, keepdim=1)
    with pytest.raises(TypeError, match=r"^sum: axis\[1\] must be an integer, got float 0.5"):
        og.sum(og.ones((2, 2)), axis=[0, 0.5])
    with pytest.raises(TypeError, match=r"use \.item\(\)"):
        og.leaky_relu(x, og.tensor(0.1))
    with pytest.raises(TypeError, match=r"^clip: min must be a number"):
        og.clip(x, min="0")


def test_a_bad_attribute_of_an_inplace_op_leaves_the_tensor_unchanged() -> None:
    x = og.tensor([1.0, 2.0])
    with pytest.raises(TypeError, match="scale_: bias must be a number"):
        og.scale_(x, 2.0, "1")
    assert x.tolist() == [1.0, 2.0] and x._version == 0


def test_numbers_of_neighbouring_kinds_are_accepted() -> None:
    x = og.tensor(np.array([[1.0, -2.0], [3.0, 4.0]]))
    assert og.leaky_relu(x, 1).tolist() == og.leaky_relu(x, 1.0).tolist()
    assert og.leaky_relu(x, np.float32(0.5)).tolist() == og.leaky_relu(x, 0.5).tolist()
    assert og.scale(x, np.int64(2)).tolist() == [[2.0, -4.0], [6.0, 8.0]]
    assert og.sum(x, np.int64(0), np.bool_(True)).shape == (1, 2)
    assert og.sum(x, [np.int64(1)]).tolist() == [-1.0, 7.0]
    assert og.sum(x, np.array([0, 1])).tolist() == 6.0
    assert og.softmax(x, np.int32(0)).shape == (2, 2)
    assert og.cast(x, np.float32).dtype == np.float32 and og.cast(x, np.dtype("int64")).dtype == np.int64
    assert og.sum(x, None).tolist() == 6.0  # None: every axis, as in NumPy


def test_the_conversions_themselves() -> None:
    assert float_arg(3, "op", "a") == 3.0 and float_arg(3, "op", "a").__class__ is float
    assert scalar_arg(np.int16(3), "op", "a").__class__ is int and scalar_arg(np.True_, "op", "a") is True
    assert int_arg(np.uint8(7), "op", "a") == 7
    assert int_list_arg(range(3), "op", "a") == (0, 1, 2) and int_list_arg(np.int8(4), "op", "a") == 4
    for bad, fn in [
        (True, float_arg),
        (1.0, int_arg),
        (True, int_arg),
        ("1", int_list_arg),
        (1.5, int_list_arg),
    ]:
        with pytest.raises(TypeError, match="^op: a "):
            fn(bad, "op", "a")
    for bad in (np.zeros((2, 2), dtype=int), np.zeros(2), [True], object()):
        with pytest.raises(TypeError, match=r"^op: a"):
            int_list_arg(bad, "op", "a")


# --- int[] arguments are recorded as tuples ------------------------------------------------------


def test_mutating_the_axis_list_after_the_forward_does_not_change_the_gradient() -> None:
    x = og.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    axis = [1]
    y = og.sum(x, axis, True)
    axis[0] = 0  # the old code kept this very list in the node
    (y * og.tensor([[1.0], [2.0]])).sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]


def test_mutating_the_shape_list_after_the_forward_does_not_change_the_gradient() -> None:
    x = og.tensor(np.arange(6.0), requires_grad=True)
    shape = [2, 3]
    y = og.reshape(x, shape)
    shape[:] = [3, 2]
    (y * og.tensor(np.arange(6.0).reshape(2, 3))).sum().backward()
    assert x.grad.tolist() == list(np.arange(6.0))


def _recorded(node: Any) -> list[Any]:
    return [getattr(node, s, None) for cls in type(node).__mro__ for s in getattr(cls, "__slots__", ())]


@pytest.mark.parametrize(
    "op", sorted({o for o, _, kind in ATTRIBUTES if kind == "int[]" and OPS[o].differentiable})
)
def test_no_node_records_a_list_of_ints(op: str) -> None:
    """Every differentiable op with an int[] attribute, called with lists where its samples have them."""
    for sample in OPS[op].samples(np.random.default_rng(1)):
        args = [_tensorize(a) for a in sample.args]
        kwargs = {k: _tensorize(v) for k, v in sample.kwargs.items()}
        args = [list(a) if isinstance(a, tuple) else a for a in args]
        kwargs = {k: list(v) if isinstance(v, tuple) else v for k, v in kwargs.items()}
        try:
            out = getattr(og, op)(*args, **kwargs)
        except (TypeError, ValueError, IndexError):
            continue  # a sample made for the error tests
        first = out[0] if isinstance(out, tuple | list) else out
        node = first.grad_fn
        assert node is not None, sample
        for value in _recorded(node):
            assert not (isinstance(value, list) and value and all(isinstance(v, int) for v in value)), (
                op,
                value,
            )


# --- integer and bool results never require grad -------------------------------------------------

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "bool"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_cast_to_an_integer_dtype_does_not_require_grad(dtype: str) -> None:
    x = og.tensor([1.5, -2.0, 0.0], requires_grad=True)
    y = og.cast(x, dtype)
    assert y.dtype == np.dtype(dtype) and not y.requires_grad and y.grad_fn is None
    z = og.cast(x, "float32")
    assert z.requires_grad and z.grad_fn is not None


def test_the_plan_checks_the_result_dtype_exactly_where_it_may_follow_an_argument() -> None:
    checked = {op.name for op in SPEC.ops if op.backward and _dtype_follows_argument(op)}
    assert {"cast", "index_add", "scatter", "prelu", "reduce_as", "matmul_xg", "matmul_yg"} <= checked
    # an op with one tensor argument and no DataType keeps its input's dtype: no check
    assert not {"tanh", "sum", "reshape", "softmax", "scale"} & checked
    text = (ROOT / "generated" / "ops.py").read_text()
    tanh = text[text.index("def tanh(") : text.index("def ", text.index("def tanh(") + 1)]
    assert '"f":\n        node' not in tanh and 'kind == "f"' not in tanh


DIFFERENTIABLE = sorted(name for name, info in OPS.items() if info.differentiable)


@pytest.mark.parametrize("op", DIFFERENTIABLE)
def test_an_integer_or_bool_result_never_requires_grad(op: str) -> None:
    """Each float argument in turn made integer (or bool), the others requiring grad."""
    rng = np.random.default_rng(2)
    for sample in list(OPS[op].samples(rng))[:4]:
        floats = [i for i, a in enumerate(sample.args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
        for position in floats:
            for dtype in ("int64", "bool"):
                args = [
                    og.tensor(a.astype(dtype)) if i == position else _tensorize(a)
                    for i, a in enumerate(sample.args)
                ]
                try:
                    with np.errstate(all="ignore"):
                        out = getattr(og, op)(*args, **{k: _tensorize(v) for k, v in sample.kwargs.items()})
                except Exception:  # noqa: BLE001 - an op may refuse integers; that is not this test
                    continue
                for t in out if isinstance(out, tuple | list) else (out,):
                    if isinstance(t, og.Tensor) and t.dtype.kind not in "fc":
                        assert not t.requires_grad and t.grad_fn is None, (op, position, dtype, t.dtype)


# --- release_saved --------------------------------------------------------------------------------


def test_a_node_that_saved_nothing_runs_backward_twice() -> None:
    x = og.tensor([1.0, 2.0], requires_grad=True)
    y = -x
    y.sum().backward()
    y.sum().backward()  # NegGradNode used to say its saved tensors were freed
    assert x.grad.tolist() == [-2.0, -2.0]


def test_a_node_that_saved_only_metadata_runs_backward_twice() -> None:
    a = og.tensor([[1.0, 2.0]], requires_grad=True)
    b = og.tensor([[3.0], [4.0]], requires_grad=True)
    y = a + b  # AddGradNode keeps shapes (no_need_buffer), no data
    y.sum().backward()
    y.sum().backward()
    assert a.grad.tolist() == [[4.0, 4.0]] and b.grad.tolist() == [[4.0], [4.0]]


def test_a_node_that_released_data_still_refuses_a_second_backward() -> None:
    x = og.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.sum().backward()
    with pytest.raises(RuntimeError, match="a second time"):
        y.sum().backward()


def test_release_saved_is_generated_exactly_for_nodes_that_save_data() -> None:
    import opgrad.generated.nodes as nodes
    from opgrad.runtime.grad_node import GradNode

    for b in SPEC.backwards:
        cls = getattr(nodes, f"{''.join(p.title() for p in b.name.split('_'))}Node", None)
        cls = cls or next(c for c in vars(nodes).values() if getattr(c, "name", None) == b.name)
        fwd = SPEC.forward_of(b)
        data = [
            a.name
            for a in b.args
            if a.name not in b.no_need_buffer
            and (fwd.arg(a.name) is not None or fwd.output(a.name) is not None)
        ]
        overrides = cls.release_saved is not GradNode.release_saved
        assert overrides == bool(data), (b.name, data)
