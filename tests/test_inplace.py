"""In-place ops (`op_` from `inplace:`), views (`view:`), version counters and `x[i] = v`.

Every `inplace:` op of ops.yaml must have a sample in `SAMPLES`: its in-place form is checked
against the out-of-place op in value and gradient (float64, through a non-leaf), and against
central differences. The rest pins down the rules of runtime/inplace.py as the generated
code applies them: what is refused (before anything changes), how history is rewired, what a
saved tensor modified afterwards says, and how views share their base's version counter.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import opgrad as og
from opgrad.codegen import load_spec
from opgrad.runtime.tensor_wrapper import unpack

ROOT = Path(__file__).resolve().parents[1]
INPLACE_OPS = [op.name for op in load_spec(ROOT).ops if op.inplace is not None]
RNG = np.random.default_rng(7)


def randn(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def away(*shape: int, lo: float = 0.3) -> np.ndarray:
    """|v| >= lo: away from the kinks of relu/clip and from zero divisors."""
    return RNG.uniform(lo, 2.0, shape) * RNG.choice([-1.0, 1.0], shape)


# op -> samples; each sample is (x, extra arguments); arrays among the extras become tensors
# that require grad, numbers stay numbers.
SAMPLES: dict[str, list[tuple[np.ndarray, tuple[Any, ...]]]] = {
    "add": [(randn(3, 4), (randn(3, 4),)), (randn(3, 4), (randn(4),)), (randn(2, 3), (2.5,))],
    "subtract": [(randn(3, 4), (randn(3, 4),)), (randn(3, 4), (randn(1, 4),)), (randn(2), (-1.0,))],
    "multiply": [(randn(3, 4), (randn(3, 4),)), (randn(3, 4), (randn(4),)), (randn(2, 3), (3.0,))],
    "divide": [(randn(3, 4), (away(3, 4),)), (randn(3, 4), (away(4),)), (randn(2, 3), (4.0,))],
    "scale": [(randn(3, 4), (2.0, 0.5)), (randn(5), (-1.5, 0.0))],
    "clip": [(away(3, 4) * 0.8, (-0.45, 0.45)), (away(6), (None, 0.2)), (away(6), (-0.2, None))],
    "relu": [(away(3, 4), ())],
    "tanh": [(randn(3, 4), ())],
    "sigmoid": [(randn(3, 4), ())],
    "exp": [(randn(3, 4), ())],
    "fill": [(randn(3, 4), (1.5,)), (randn(2), (-3,))],
    "zero": [(randn(3, 4), ())],
    "index_put": [
        (randn(4, 3), ([og.tensor(np.array([0, 2])), og.tensor(np.array([1, -1]))], randn(2))),
        (randn(4, 3), ([og.tensor(np.array([1, 1]))], randn(3), True)),
    ],
}
CASES = [
    pytest.param(name, i, id=f"{name}-{i}")
    for name in INPLACE_OPS
    for i in range(len(SAMPLES.get(name, [0])))
]


def t(values: Any, requires_grad: bool = False) -> og.Tensor:
    return og.tensor(np.array(values, dtype=np.float64), requires_grad=requires_grad)


def _sample(name: str, i: int) -> tuple[og.Tensor, list[Any]]:
    if name not in SAMPLES:
        pytest.fail(f"{name} has `inplace:` in ops.yaml but no sample in tests/test_inplace.py SAMPLES")
    x, extras = SAMPLES[name][i]
    args = [t(e, requires_grad=True) if isinstance(e, np.ndarray) else e for e in extras]
    return t(x, requires_grad=True), args


def test_every_inplace_op_has_samples() -> None:
    assert set(INPLACE_OPS) <= set(SAMPLES), set(INPLACE_OPS) - set(SAMPLES)
    assert {"add", "subtract", "multiply", "divide", "fill", "zero"} <= set(INPLACE_OPS)


@pytest.mark.parametrize("name, i", CASES)
def test_inplace_matches_out_of_place_in_value_and_gradient(name: str, i: int) -> None:
    x, args = _sample(name, i)
    weights = t(randn(*x.shape))
    out_of_place = getattr(og, name)
    in_place = getattr(og, name + "_")
    tensors = [x] + [a for a in args if isinstance(a, og.Tensor)]

    expected = out_of_place(x, *args)
    (expected * weights).sum().backward()
    expected_grads = [None if a.grad is None else a.grad.numpy().copy() for a in tensors]
    for a in tensors:
        a.grad = None

    y = x * 1  # a non-leaf: in-place ops refuse leaves that require grad
    got = in_place(y, *args)
    assert got is y
    np.testing.assert_allclose(y.numpy(), expected.numpy(), rtol=1e-12, atol=0)
    assert y.dtype == expected.dtype and y.shape == expected.shape
    (y * weights).sum().backward()
    for a, g in zip(tensors, expected_grads, strict=True):
        assert (a.grad is None) == (g is None)
        if g is not None:
            np.testing.assert_allclose(a.grad.numpy(), g, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name, i", CASES)
def test_inplace_gradcheck_through_a_non_leaf(name: str, i: int) -> None:
    x, args = _sample(name, i)
    positions = [k for k, a in enumerate(args) if isinstance(a, og.Tensor)]
    in_place = getattr(og, name + "_")

    def fn(x: og.Tensor, *tensors: og.Tensor) -> og.Tensor:
        full = list(args)
        for k, v in zip(positions, tensors, strict=True):
            full[k] = v
        return in_place(x * 1, *full)

    assert og.testing.gradcheck(fn, [x] + [args[k] for k in positions])


@pytest.mark.parametrize("name", INPLACE_OPS)
def test_method_form_exists_and_bumps_the_version(name: str) -> None:
    x, args = _sample(name, 0)
    y = x.detach()
    v0 = y._version
    assert getattr(y, name + "_")(*[a.detach() if isinstance(a, og.Tensor) else a for a in args]) is y
    assert y._version == v0 + 1


# --- versions and saved tensors ------------------------------------------------------------------


def test_every_write_bumps_the_version() -> None:
    a = t([1.0, 2.0, 3.0])
    assert a._version == 0
    og.add_(a, 1.0)
    a.multiply_(2.0)
    a += 1
    a -= t([1.0, 1.0, 1.0])
    a *= 3
    a /= 2
    a[0] = 5.0
    a.fill_(0.5)
    a.zero_()
    assert a._version == 9
    np.testing.assert_array_equal(a.numpy(), [0.0, 0.0, 0.0])


def test_a_saved_tensor_modified_in_place_names_node_argument_and_versions() -> None:
    x = t(randn(3), requires_grad=True)
    w = t(randn(3), requires_grad=True)
    y = x * 1
    z = og.multiply(y, w)  # saves y as its argument 'x'
    y.add_(1.0)
    y.exp_()
    with pytest.raises(RuntimeError) as info:
        z.sum().backward()
    message = str(info.value)
    assert "MultiplyGradNode" in message and "multiply_grad" in message
    assert "argument 'x'" in message
    assert "modified by an in-place operation" in message
    assert "version 0" in message and "version 2" in message


def test_a_saved_output_modified_in_place_is_caught() -> None:
    x = t(randn(3), requires_grad=True)
    y = (x * 1).tanh()  # tanh saves its output
    y.multiply_(2.0)
    with pytest.raises(
        RuntimeError, match=r"TanhGradNode .*argument 'out'.*version 0 and is now at version 1"
    ):
        y.sum().backward()


def test_an_inplace_op_on_its_own_saved_output_is_fine_until_written_again() -> None:
    x = t(randn(4), requires_grad=True)
    y = x * 1
    y.tanh_()  # saves y (its output) at the version after the write
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh(x.numpy()) ** 2)
    y2 = x * 1
    y2.sigmoid_()
    y2.add_(0.0)
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        y2.sum().backward()


# --- leaves, history -----------------------------------------------------------------------------


def test_inplace_on_a_leaf_that_requires_grad_raises_and_changes_nothing() -> None:
    x = t([1.0, 2.0], requires_grad=True)
    for call in (lambda: x.add_(1.0), lambda: x.fill_(0.0), lambda: og.tanh_(x)):
        with pytest.raises(RuntimeError, match="leaf tensor that requires grad"):
            call()
    with pytest.raises(RuntimeError, match="leaf tensor"):
        x += 1
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])
    assert x._version == 0 and x.is_leaf


def test_inplace_on_a_leaf_works_under_no_grad() -> None:
    x = t([1.0, 2.0], requires_grad=True)
    with og.no_grad():
        x.multiply_(3.0)
        x -= 1
    np.testing.assert_array_equal(x.numpy(), [2.0, 5.0])
    assert x.is_leaf and x.requires_grad and x.grad_fn is None and x._version == 2
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 10.0])


def test_inplace_rewires_the_history_of_a_non_leaf() -> None:
    x = t(randn(4), requires_grad=True)
    y = x * 2
    before = y.grad_fn
    y.multiply_(y)  # y = (2x)^2: gradient 8x
    assert y.grad_fn is not before and y.grad_fn.name == "multiply_grad"
    assert y.grad_fn.next_nodes[0] == (before, 0) == y.grad_fn.next_nodes[1]
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 8 * x.numpy())

    def fn(x: og.Tensor) -> og.Tensor:
        y = x * 2
        return y.multiply_(y)

    assert og.testing.gradcheck(fn, [t(randn(4), requires_grad=True)])


def test_multiply_by_itself_saves_the_old_value() -> None:
    x = t([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    og.multiply_(y, y)
    node = y.grad_fn
    saved_x, saved_y = unpack(node.x, node), unpack(node.y, node)
    np.testing.assert_array_equal(saved_x.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(saved_y.numpy(), [1.0, 2.0, 3.0])
    assert saved_x is not y and saved_y is not y
    np.testing.assert_array_equal(y.numpy(), [1.0, 4.0, 9.0])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_inplace_into_a_tensor_without_grad_from_one_with_grad() -> None:
    w = t([1.0, -2.0], requires_grad=True)
    acc = og.zeros((2,), dtype="float64")
    acc += w * w
    acc.add_(w)
    assert not acc.is_leaf and acc.requires_grad
    acc.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), 2 * w.numpy() + 1)


@pytest.mark.parametrize(
    "dunder, op, expected",
    [
        ("__iadd__", "add", 3.5),
        ("__isub__", "subtract", -0.5),
        ("__imul__", "multiply", 3.0),
        ("__itruediv__", "divide", 0.75),
    ],
)
def test_augmented_assignment_is_in_place(dunder: str, op: str, expected: float) -> None:
    x = t([1.5, 1.5], requires_grad=True)
    y = x * 1
    alias = y
    other = t([2.0, 2.0], requires_grad=True)
    y = getattr(y, dunder)(other)
    assert y is alias and y._version == 1
    np.testing.assert_array_equal(y.numpy(), [expected, expected])
    reference = getattr(og, op)(x, other)
    gx, go = og.grad([reference.sum()], [x, other])
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), gx.numpy())
    np.testing.assert_allclose(other.grad.numpy(), go.numpy())


def test_augmented_assignment_statement_keeps_the_object() -> None:
    a = t([1.0, 2.0])
    b = a
    a += 1
    a *= t([2.0, 3.0])
    a -= 1
    a /= 2
    assert a is b
    np.testing.assert_array_equal(b.numpy(), [1.5, 4.0])


# --- refused before anything changes -------------------------------------------------------------


def test_shape_dtype_and_type_errors_change_nothing() -> None:
    x = t(randn(3), requires_grad=True)
    y = x * 1
    node, data = y.grad_fn, y.numpy().copy()
    with pytest.raises(ValueError, match=r"add_: the result has shape \(2, 3\) but x has shape \(3,\)"):
        y.add_(t(randn(2, 3)))
    ints = og.tensor(np.array([1, 2, 3]))
    with pytest.raises(TypeError, match="add_: the result has dtype float64"):
        ints.add_(t([0.5, 0.5, 0.5]))
    with pytest.raises(TypeError, match="add_: x is written in place, so it must be a Tensor, got ndarray"):
        og.add_(np.ones(3), y)
    with pytest.raises(TypeError, match="add_"):
        y.add_("text")
    assert y.grad_fn is node and y._version == 0 and ints._version == 0
    np.testing.assert_array_equal(y.numpy(), data)
    np.testing.assert_array_equal(ints.numpy(), [1, 2, 3])


def test_a_number_operand_keeps_the_dtype() -> None:
    a = og.tensor(np.ones(2, dtype=np.float32))
    a.add_(0.5)
    a.multiply_(np.float64(2.0))
    assert a.dtype == np.float32
    np.testing.assert_array_equal(a.numpy(), [3.0, 3.0])


# --- views ---------------------------------------------------------------------------------------


VIEWS: dict[str, Callable[[og.Tensor], og.Tensor]] = {
    "reshape": lambda y: y.reshape([-1]),
    "transpose": lambda y: y.transpose([1, 0]),
    "squeeze": lambda y: y.unsqueeze([0]).squeeze([0]),
    "unsqueeze": lambda y: y.unsqueeze([0]),
    "flatten": lambda y: y.flatten(),
    "split": lambda y: og.split(y, 2, 0)[1],
    "slice": lambda y: y[0:1],
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_inplace_through_a_view_of_a_tensor_that_requires_grad_raises(view: str) -> None:
    x = t(randn(2, 3), requires_grad=True)
    y = x * 1
    v = VIEWS[view](y)
    with pytest.raises(RuntimeError, match="shares its memory with another tensor"):
        v.add_(1.0)
    with pytest.raises(RuntimeError, match="shares its memory with another tensor"):
        y.add_(1.0)  # the base too: the view's history would go stale
    assert y._version == 0


@pytest.mark.parametrize("view", list(VIEWS))
def test_views_of_tensors_without_grad_write_through_and_share_the_version(view: str) -> None:
    base = t(np.arange(6.0).reshape(2, 3))
    v = VIEWS[view](base)
    assert v._version == base._version == 0
    v.fill_(-1.0)
    assert base._version == 1 and v._version == 1
    assert (base.numpy() == -1.0).sum() == v.size
    base.zero_()
    assert v._version == 2
    np.testing.assert_array_equal(v.numpy(), np.zeros(v.shape))


def test_a_view_of_a_tensor_that_requires_grad_can_be_written_under_no_grad() -> None:
    x = t(np.ones((2, 2)), requires_grad=True)
    with og.no_grad():
        x.reshape([-1]).multiply_(3.0)
    np.testing.assert_array_equal(x.numpy(), np.full((2, 2), 3.0))


def test_expand_is_a_read_only_view() -> None:
    base = t([1.0, 2.0])
    e = base.expand([3, 2])
    assert e._vc is base._vc
    with pytest.raises(RuntimeError, match="read-only view"):
        e.add_(1.0)


def test_a_copy_is_not_a_view() -> None:
    base = t(np.arange(6.0).reshape(2, 3))
    copy = base.transpose([1, 0]).reshape([-1])  # not contiguous: NumPy copies
    copy.fill_(0.0)
    assert base._version == 0
    np.testing.assert_array_equal(base.numpy(), np.arange(6.0).reshape(2, 3))


def test_a_write_through_a_view_invalidates_what_the_base_saved() -> None:
    x = t(randn(2, 2), requires_grad=True)
    base = og.tensor(np.ones((2, 2)))
    z = og.multiply(x, base)  # saves base
    with og.no_grad():
        base.reshape([-1]).add_(1.0)
    with pytest.raises(RuntimeError, match="argument 'y'.*version 0 and is now at version 1"):
        z.sum().backward()


# --- fill_, zero_ --------------------------------------------------------------------------------


def test_fill_and_zero() -> None:
    x = t(randn(2, 3), requires_grad=True)
    y = x * 1
    y.fill_(2.0)
    np.testing.assert_array_equal(y.numpy(), np.full((2, 3), 2.0))
    (y * x).sum().backward()  # y's new value does not depend on x: only the product's x counts
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 3), 2.0))

    x.grad = None
    y = x * 3
    og.zero_(y)
    np.testing.assert_array_equal(y.numpy(), np.zeros((2, 3)))
    (y + x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((2, 3)))

    ints = og.tensor(np.array([1, 2]))
    ints.fill_(7)
    np.testing.assert_array_equal(ints.numpy(), [7, 7])
    assert ints.dtype == np.int64
    with pytest.raises(TypeError, match="fill: value 1.5 is not an integer"):
        ints.fill_(1.5)


# --- x[index] = value ----------------------------------------------------------------------------


def _sum_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The gradient of a value broadcast from `shape` to g's shape."""
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
    return g.sum(axis=axes, keepdims=True) if axes else g


SETITEM = [
    ((2, 3), (0,), (3,)),  # a row
    ((2, 3), (slice(None), 1), ()),  # a column from a scalar: broadcast
    ((2, 3), (slice(None), slice(0, 2)), (2, 1)),  # a block from a column: broadcast
    ((4,), (np.array([0, 2]),), (2,)),  # advanced index
    ((2, 3), (np.array([[True, False, True], [False, True, False]]),), ()),  # mask
]


@pytest.mark.parametrize("shape, index, value_shape", SETITEM)
def test_setitem_value_and_gradient(
    shape: tuple[int, ...], index: tuple[Any, ...], value_shape: tuple[int, ...]
) -> None:
    x0, v0 = randn(*shape), randn(*value_shape)
    expected = x0.copy()
    expected[index] = v0
    x = t(x0, requires_grad=True)
    v = t(v0, requires_grad=True)
    y = x * 1
    y[index if len(index) > 1 else index[0]] = v
    np.testing.assert_array_equal(y.numpy(), expected)
    assert y._version == 1

    w = randn(*shape)
    (y * t(w)).sum().backward()
    keep = np.ones(shape)
    keep[index] = 0
    np.testing.assert_allclose(x.grad.numpy(), w * keep)
    np.testing.assert_allclose(v.grad.numpy(), _sum_to(w[index], value_shape))

    def fn(x: og.Tensor, v: og.Tensor) -> og.Tensor:
        y = x * 1
        y[index if len(index) > 1 else index[0]] = v
        return y

    assert og.testing.gradcheck(fn, [t(x0, requires_grad=True), t(v0, requires_grad=True)])


def test_setitem_refuses_a_leaf_that_requires_grad_and_a_bad_shape() -> None:
    x = t(np.zeros(3), requires_grad=True)
    with pytest.raises(RuntimeError, match="setitem: x is a leaf tensor"):
        x[0] = 1.0
    y = x * 1
    with pytest.raises(ValueError, match="setitem: cannot assign"):
        y[0:2] = t([1.0, 2.0, 3.0])
    assert y._version == 0


def test_retained_grad_follows_the_tensor_through_an_in_place_op():
    # As PyTorch: .grad is the gradient for y's current value (y = 6x), not the one before.
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    y = x * 2.0
    y.retain_grads()
    y.multiply_(3.0)
    (y * y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), [12.0, 24.0])
    np.testing.assert_allclose(x.grad.numpy(), [72.0, 144.0])


def test_retained_grad_follows_through_setitem_and_two_in_place_ops():
    x = og.tensor([1.0, 2.0, 3.0], dtype="float64", requires_grad=True)
    y = x * 1.0
    y.retain_grads()
    y.add_(1.0)
    y[0] = x[1] * 5.0
    (y * y).sum().backward()
    # y is now [10, 3, 4]: d(sum y^2)/dy = 2y.
    np.testing.assert_allclose(y.grad.numpy(), [20.0, 6.0, 8.0])


def test_a_tensor_hook_registered_before_an_in_place_op_sees_the_old_gradient():
    # Tensor hooks stay with the value they were registered on (as PyTorch); only the
    # retained .grad moves.
    x = og.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    y = x * 2.0
    seen = []
    y.register_hook(lambda g: seen.append(g.numpy().copy()))
    y.retain_grads()
    y.multiply_(3.0)
    y.sum().backward()
    np.testing.assert_allclose(seen[0], [3.0, 3.0])
    np.testing.assert_allclose(y.grad.numpy(), [1.0, 1.0])
