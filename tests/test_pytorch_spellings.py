"""The PyTorch spellings beside the Paddle ones: varargs shapes, `x.size()`/`x.size(d)`,
the Tensor methods composed of ops (runtime/tensor_conveniences.py), `f"{t:.2f}"`, and the
operators `+x`, `~`, `&`, `|`, `^`, `//`, `%`, `list @ t`. Gradients are checked against
finite differences in float64; dtypes and values against PyTorch where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from opgrad.generated.tensor_methods import TensorMethods
from opgrad.runtime.tensor_conveniences import ElementCount, TensorConveniences


def _x(*shape: int, requires_grad: bool = False) -> og.Tensor:
    data = np.random.default_rng(sum(shape)).standard_normal(shape)
    return og.tensor(data, requires_grad=requires_grad)


# --- varargs shapes ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "rand", "randn"])
def test_creation_takes_sizes_as_varargs_or_one_sequence(name: str) -> None:
    fn = getattr(og, name)
    assert fn(2, 3).shape == (2, 3)
    assert fn((2, 3)).shape == (2, 3)
    assert fn([4]).shape == (4,) and fn(4).shape == (4,)
    assert fn(np.int64(2), 3).shape == (2, 3)
    assert fn((2, 3), "float64").dtype == np.float64  # Paddle: dtype after the shape
    assert fn(2, 3, dtype="float64", requires_grad=True).requires_grad
    with pytest.raises(TypeError, match=rf"{name}: size 1 must be an int, got 3.5 \(float\)"):
        fn(2, 3.5)
    with pytest.raises(TypeError, match=rf"{name}: size 1 must be an int, got True"):
        fn(2, True)
    with pytest.raises(TypeError, match=rf"{name}: shape must be an int or a sequence of ints, got 2.5"):
        fn(2.5)
    assert fn(2, 3, "float64").dtype == np.float64  # Paddle's positional dtype after the sizes
    with pytest.raises(TypeError, match=rf"{name}: takes at most 3 arguments after the shape"):
        fn(2, "float64", None, False, 1)
    with pytest.raises(TypeError, match=rf"{name}: got dtype both by position and by keyword"):
        fn((2,), "float64", dtype="float32")
    with pytest.raises(TypeError, match=rf"{name}: missing the shape"):
        fn()


def test_reshape_view_permute_expand_take_varargs() -> None:
    x = _x(2, 3)
    assert x.reshape(3, 2).shape == (3, 2) and x.reshape((3, 2)).shape == (3, 2)
    assert x.reshape(-1).shape == (6,)
    assert x.view(3, 2).shape == (3, 2) and x.view([6]).shape == (6,)
    assert x.permute(1, 0).shape == (3, 2) and x.permute((1, 0)).shape == (3, 2)
    assert x[:1].expand(4, 3).shape == (4, 3)
    np.testing.assert_array_equal(x.view(3, 2).numpy(), x.numpy().reshape(3, 2))
    for call in (lambda: x.reshape(3, 2.0), lambda: x.view(3, 2.5), lambda: x.permute(1, 0.0)):
        with pytest.raises(TypeError, match="size 1 must be an int"):
            call()
    with pytest.raises(TypeError, match="view: reinterpreting memory"):
        x.view("int64")


# --- size(), dim(), numel() -------------------------------------------------------------------


def test_size_is_the_element_count_and_callable_as_in_pytorch() -> None:
    x = _x(2, 3, 4)
    assert x.size == 24 and isinstance(x.size, int) and x.size + 1 == 25  # Paddle
    assert x.size() == (2, 3, 4) and x.size(1) == 3 and x.size(-1) == 4  # PyTorch
    assert x.numel() == 24 and x.dim() == 3 and x.ndim == 3
    assert repr(x.size) == "24" and list(range(og.zeros(3).size)) == [0, 1, 2]
    assert isinstance(og.tensor(1.0).size, ElementCount) and og.tensor(1.0).size() == ()
    with pytest.raises(IndexError, match="size: dim 3 is out of range for a tensor of 3 dimension"):
        x.size(3)
    with pytest.raises(TypeError, match="size: dim must be an int"):
        x.size(1.0)


# --- methods ----------------------------------------------------------------------------------


def test_the_hand_written_methods_do_not_shadow_generated_ones() -> None:
    generated = {n for n in vars(TensorMethods) if not n.startswith("__")}
    assert not generated & {n for n in vars(TensorConveniences) if not n.startswith("__")}


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("view", lambda t: t.view(3, 4).sum(0)),
        ("permute", lambda t: t.permute(1, 0) * og.arange(0.0, 3.0, dtype="float64")),
        ("clone", lambda t: t.clone() * t),
        ("contiguous", lambda t: t.T.contiguous() * 2),
        ("repeat", lambda t: t.repeat(2, 3)),
        ("chunk", lambda t: t.chunk(3, 1)[1] * t.chunk(3, 1)[0]),
        ("mT", lambda t: t.mT @ t),
        ("double", lambda t: t.double() * 2),
        ("clamp", lambda t: t.clamp(-0.5, 0.5)),
        ("where", lambda t: t.where(t > 0, t * t)),
        ("masked_fill", lambda t: t.masked_fill(t > 0.3, 0.0)),
        ("expand_as", lambda t: t[:1].expand_as(t) * t),
        ("flatten", lambda t: t.reshape(1, 3, 4).flatten(1, 2)),
        ("unflatten", lambda t: t.unflatten(1, (2, 2)).sum(1)),
        ("type_as", lambda t: t.type_as(t) * 3),
        ("transpose", lambda t: t.transpose(0, 1)),
    ],
)
def test_methods_are_differentiable(name: str, fn) -> None:
    x = og.tensor(np.random.default_rng(3).uniform(-1, 1, (3, 4)), requires_grad=True)
    if name == "clamp":
        x = og.tensor(np.array([[-0.9, -0.2, 0.1, 0.8]] * 3), requires_grad=True)
    og.testing.gradcheck(fn, [x])


def test_methods_against_numpy() -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = og.tensor(a)
    np.testing.assert_array_equal(x.repeat(2, 1).numpy(), np.tile(a, (2, 1)))
    assert [c.shape for c in x.chunk(3, 1)] == [(3, 2), (3, 2)]  # ceil(4 / 3) = 2 per chunk
    assert [c.shape for c in og.tensor(np.arange(5.0)).chunk(2)] == [(3,), (2,)]
    np.testing.assert_array_equal(x.mT.numpy(), a.T)
    np.testing.assert_array_equal(x.transpose([1, 0]).numpy(), a.T)  # Paddle's perm still works
    assert x.clone()._data is not x._data and x.contiguous() is x
    assert not x.T.numpy().flags.c_contiguous and x.T.contiguous().numpy().flags.c_contiguous
    assert x.any().item() and not x.all().item()
    assert x.all(dim=1).tolist() == [False, True, True] and x.any(1, keepdim=True).shape == (3, 1)
    assert [getattr(x, m)().dtype.name for m in ("float", "double", "half", "long", "int", "bool")] == [
        "float32",
        "float64",
        "float16",
        "int64",
        "int32",
        "bool",
    ]
    assert x.clamp(max=2.0).max().item() == 2.0 and x.clamp(min=3).min().item() == 3.0
    np.testing.assert_array_equal(x.where(x > 5, -1.0).numpy(), np.where(a > 5, a, -1.0))
    z = x.new_zeros(2, 2)
    assert z.shape == (2, 2) and z.dtype == np.float64 and z.numpy().sum() == 0
    assert x.new_ones((3,)).tolist() == [1.0, 1.0, 1.0] and x.new_full((2,), 7).tolist() == [7.0, 7.0]
    assert x.new_zeros(2, dtype="int64").dtype == np.int64
    assert x.type_as(og.tensor([1])).dtype == np.int64
    assert x.unflatten(-1, (2, -1)).shape == (3, 2, 2)
    with pytest.raises(IndexError, match="unflatten: dim 2 is not an axis"):
        x.unflatten(2, (1,))
    with pytest.raises(ValueError, match="repeat: 1 repeat counts for a tensor of 2 dimensions"):
        x.repeat(2)
    with pytest.raises(ValueError, match="chunk: chunks must be an int >= 1"):
        x.chunk(0)


def test_detach_in_place_cuts_the_tensor_from_the_graph() -> None:
    x = _x(3, requires_grad=True)
    y = x * 2
    assert y.detach_() is y
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf
    (x * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), y.numpy())  # y is a constant now


def test_format_spec_on_one_element_tensors() -> None:
    assert f"{og.tensor(3.14159):.2f}" == "3.14"
    assert f"{og.tensor([2.5]):>6.1f}" == "   2.5"
    assert f"{og.tensor(7):d}" == "7"
    assert f"{og.tensor([1.0, 2.0])}" == str(og.tensor([1.0, 2.0]))
    with pytest.raises(
        TypeError, match=r"format spec '.2f' needs a one-element tensor; this one has shape \(2,\)"
    ):
        f"{og.tensor([1.0, 2.0]):.2f}"


# --- operators --------------------------------------------------------------------------------


def test_integer_operators_and_their_reflected_forms() -> None:
    a, b = np.array([5, -3, 12, 7]), np.array([2, 4, -5, 3])
    x, y = og.tensor(a), og.tensor(b)
    for got, want in [
        (x & y, a & b),
        (x | y, a | b),
        (x ^ y, a ^ b),
        (~x, ~a),
        (x // y, a // b),
        (x % y, a % b),
        (3 & x, 3 & a),
        (3 | x, 3 | a),
        (3 ^ x, 3 ^ a),
        (17 // y, 17 // b),
        (17 % y, 17 % b),
        (+x, a),
    ]:
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got.numpy(), want)
    p, q = og.tensor([True, False, True]), og.tensor([True, True, False])
    assert (p & q).tolist() == [True, False, False] and (p | q).tolist() == [True, True, True]
    assert (p ^ q).tolist() == [False, True, True] and (~p).tolist() == [False, True, False]
    with pytest.raises(TypeError, match="bitwise_and"):
        og.tensor([1.5]) & og.tensor([1.0])
    with pytest.raises(TypeError, match="unary \\+: not supported for a bool tensor"):
        _ = +p


def test_floor_division_and_remainder_follow_python_and_promote() -> None:
    x = og.tensor([5.5, -5.5, 7.0])
    assert (x // 2).tolist() == [2.0, -3.0, 3.0] and (x % 2).tolist() == [1.5, 0.5, 1.0]
    assert (x // 2).dtype == np.float32 and (x % -2).tolist() == [-0.5, -1.5, -1.0]
    i = og.tensor([5, -5])
    assert (i // 2).dtype == np.int64 and (i % 2.5).dtype == np.float32  # a float scalar: default float
    assert (i // og.tensor([2.0, 2.0])).dtype == np.float32


def test_remainder_is_differentiable_floor_divide_is_not() -> None:
    x = og.tensor(np.array([5.3, -2.2, 4.1]), requires_grad=True)
    y = og.tensor(np.array([2.0, 1.5, -3.0]), requires_grad=True)
    og.testing.gradcheck(lambda a, b: a % b, [x, y])
    og.testing.gradgradcheck(lambda a, b: a % b, [x, y])
    og.testing.gradcheck(lambda a: 7.3 % a, [y])
    assert not (x // y).requires_grad


def test_a_list_on_the_left_of_matmul() -> None:
    w = og.tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), requires_grad=True)
    out = [[1.0, 0.0], [0.0, 2.0]] @ w
    np.testing.assert_array_equal(out.numpy(), [[1.0, 2.0], [6.0, 8.0]])
    assert out.dtype == np.float64
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[1.0, 1.0], [2.0, 2.0]])
    np.testing.assert_array_equal((w @ [1.0, 1.0]).numpy(), [3.0, 7.0])


def test_operators_match_pytorch() -> None:
    torch = pytest.importorskip("torch")
    a, b = np.array([5, -3, 12, 7]), np.array([2, 4, -5, 3])
    f = np.array([5.5, -5.5, 7.25, -0.75])
    for expr in ["x & y", "x | y", "x ^ y", "~x", "x // y", "x % y", "f // 2", "f % -2", "x % 2.5", "+x"]:
        ours = eval(expr, {"x": og.tensor(a), "y": og.tensor(b), "f": og.tensor(f, dtype="float32")})  # noqa: S307
        theirs = eval(
            expr, {"x": torch.tensor(a), "y": torch.tensor(b), "f": torch.tensor(f, dtype=torch.float32)}
        )  # noqa: S307
        assert str(theirs.dtype) == f"torch.{ours.dtype}", expr
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), err_msg=expr)
