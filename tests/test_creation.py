"""Creating tensors: og.tensor's conversion of Python data, and the shape, dtype and fill
arguments of zeros/ones/full/*_like/arange/rand/randn. Bad input raises an error naming the
function, the argument and what was expected; nothing is truncated or wrapped silently."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og

SHAPED = {
    "zeros": lambda shape, *a: og.zeros(shape, *a),
    "ones": lambda shape, *a: og.ones(shape, *a),
    "full": lambda shape, *a: og.full(shape, 1.5, *a),
    "rand": lambda shape, *a: og.rand(shape, *a),
    "randn": lambda shape, *a: og.randn(shape, *a),
}


# -- og.tensor -----------------------------------------------------------------------------
@pytest.mark.parametrize("data", [2**70, [1, 2**70], [[1, 2], [3, -(2**63) - 1]], 2**63])
def test_tensor_refuses_ints_outside_int64(data):
    with pytest.raises(ValueError, match=r"tensor: data holds the integer .* outside the int64 range"):
        og.tensor(data)


def test_tensor_int64_bounds_and_huge_ints_as_floats():
    assert og.tensor(2**63 - 1).item() == 2**63 - 1
    assert og.tensor(-(2**63)).item() == -(2**63)
    big = og.tensor(2**70, dtype="float64")
    assert big.dtype == og.float64 and big.item() == float(2**70)
    mixed = og.tensor([1.5, 2**70])  # a float makes the whole list floating, as in PyTorch
    assert mixed.dtype == og.float32 and mixed.numpy()[1] == np.float32(2**70)


@pytest.mark.parametrize(
    ("value", "dtype", "span"),
    [
        (300, "uint8", r"\[0, 255\]"),
        (-1, "uint8", r"\[0, 255\]"),
        (2**70, "int64", r"\[-9223372036854775808, "),
    ],
)
def test_tensor_refuses_ints_that_do_not_fit_the_requested_dtype(value, dtype, span):
    # Before: 300 was built as int64 and then wrapped to 44 by astype.
    with pytest.raises(ValueError, match=f"tensor: a value in data does not fit in dtype {dtype}.*{span}"):
        og.tensor([1, value], dtype=dtype)


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ([1, "a"], "str"),
        ([1.0, None], "NoneType"),
        ([[1], [{}]], "dict"),
        ([1, "2j"], "str"),
        ([b"x"], "bytes"),
    ],
)
def test_tensor_names_the_non_numeric_element(data, kind):
    with pytest.raises(TypeError, match=f"tensor: data holds a {kind} "):
        og.tensor(data)


@pytest.mark.parametrize("data", [[[1, 2], [3]], [1, [2, 3]], [[[1.0]], [[1.0, 2.0]]]])
def test_tensor_refuses_ragged_lists(data):
    with pytest.raises(ValueError, match="tensor: data is a ragged nested list"):
        og.tensor(data)


def test_tensor_explicit_dtype_is_applied_once():
    assert og.tensor([1.7, -2], dtype="int32").numpy().tolist() == [1, -2]
    assert og.tensor([[0], [2]], dtype="bool").numpy().tolist() == [[False], [True]]
    assert og.tensor([True, 2.5]).numpy().tolist() == [1.0, 2.5]
    assert og.tensor([np.int32(1), 2]).dtype == og.int64  # NumPy scalars inside: NumPy decides


def test_to_tensor_uses_the_same_checks():
    with pytest.raises(ValueError, match="int64 range"):
        og.to_tensor([2**64])


# -- shapes ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SHAPED))
@pytest.mark.parametrize(
    ("shape", "bad"),
    [((2.5, 2), r"shape\[0\] must be an int, got 2\.5 \(float\)"),
     ((2, 2.0), r"shape\[1\] must be an int, got 2\.0 \(float\)"),
     ((True, 2), r"shape\[0\] must be an int, got True \(bool\)"),
     ((np.float32(3),), r"shape\[0\] must be an int, got np\.float32\(3\.0\) \(float32\)"),
     ([2, "3"], r"shape\[1\] must be an int, got '3' \(str\)"),
     (3.0, r"shape must be an int or a sequence of ints, got 3\.0 \(float\)"),
     ("x3", r"shape must be an int or a sequence of ints, got 'x3' \(str\)"),
     (None, r"shape must be an int or a sequence of ints, got None")],
)  # fmt: skip
def test_non_integral_sizes_are_refused_not_truncated(name, shape, bad):
    # Before: randn((2.5, 2)) returned a (2, 2) tensor and zeros((True, 2)) a (1, 2) one.
    with pytest.raises(TypeError, match=f"{name}: {bad}"):
        SHAPED[name](shape)


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_negative_sizes_are_refused(name):
    with pytest.raises(ValueError, match=rf"{name}: shape \(2, -1\) has a negative dimension"):
        SHAPED[name]((2, -1))


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_numpy_int_sizes_are_accepted(name):
    assert SHAPED[name]((np.int64(2), np.int32(3))).shape == (2, 3)
    assert SHAPED[name](np.int16(4)).shape == (4,)
    assert SHAPED[name](()).shape == ()
    assert SHAPED[name]((0, 3)).shape == (0, 3)


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_sizes_may_come_as_varargs(name):
    # Before: og.randn(2, 3) said "unsupported dtype 3"; now it is PyTorch's spelling
    # (tests/test_pytorch_spellings.py has the rest). full's second positional is the fill
    # value in both libraries, so its shape is one sequence and an int after it is refused.
    if name == "full":
        with pytest.raises(TypeError, match="full: dtype got the int 3; sizes go in one tuple"):
            SHAPED[name](2, 3)
        return
    assert SHAPED[name](2, 3).shape == (2, 3)
    with pytest.raises(TypeError, match=rf"{name}: size 1 must be an int, got 3.5"):
        SHAPED[name](2, 3.5)


def test_positional_dtype_still_works():
    assert og.zeros(2, "float64").dtype == og.float64
    assert og.randn((2,), og.float16).dtype == og.float16
    with pytest.raises(TypeError, match="randn: dtype must be floating"):
        og.randn((2,), "int32")


# -- fill values -------------------------------------------------------------------------------
def test_a_complex_fill_value_needs_a_complex_dtype():
    with pytest.raises(TypeError, match="full: fill_value 1j is complex but dtype is float32"):
        og.full((2,), 1j, dtype="float32")
    with pytest.raises(TypeError, match="full_like: fill_value 1j is complex but dtype is float32"):
        og.full_like(og.zeros((2,)), 1j)


@pytest.mark.parametrize("value", ["a", None, [1.0], og.tensor(1.0)])
def test_full_refuses_a_non_number_fill_value(value):
    with pytest.raises(TypeError, match="full: fill_value must be a real number, got"):
        og.full((2,), value)
    with pytest.raises(TypeError, match="full_like: fill_value must be a real number, got"):
        og.full_like(og.zeros((2,)), value)


def test_fill_values_that_do_not_fit_are_refused():
    with pytest.raises(ValueError, match="full: fill_value holds the integer .* int64 range"):
        og.full((2,), 2**70)
    with pytest.raises(
        ValueError, match="full: fill_value 1180591620717411303424 does not fit in dtype int32"
    ):
        og.full((2,), 2**70, "int32")
    with pytest.raises(ValueError, match="full_like: fill_value 300 does not fit in dtype uint8"):
        og.full_like(og.zeros((2,), dtype="uint8"), 300)
    assert og.full((2,), 2**70, "float64").numpy().tolist() == [float(2**70)] * 2


def test_fill_value_dtype_defaults():
    assert og.full((2,), True).dtype == og.bool_
    assert og.full((2,), np.int8(3)).dtype == og.int8
    assert og.full_like(og.zeros((2,), dtype="int32"), 7).dtype == og.int32
    assert og.zeros_like(og.ones((2, 1)), dtype="float64").numpy().tolist() == [[0.0], [0.0]]


def test_like_functions_need_a_tensor():
    for fn in (og.zeros_like, og.ones_like):
        with pytest.raises(TypeError, match=f"{fn.__name__}: x must be a Tensor, got ndarray"):
            fn(np.zeros(2))


# -- arange ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "err", "msg"),
    [(("a",), TypeError, r"arange: end must be an int or a float, got 'a' \(str\)"),
     ((0, None, True), TypeError, r"arange: step must be an int or a float, got True \(bool\)"),
     ((None, 3), TypeError, r"arange: start must be an int or a float, got None"),
     ((float("inf"),), ValueError, "arange: end must be finite, got inf"),
     ((0, float("nan")), ValueError, "arange: end must be finite, got nan"),
     ((0, 3, 0), ValueError, "arange: step must not be zero")],
)  # fmt: skip
def test_arange_refuses_bad_bounds(args, err, msg):
    with pytest.raises(err, match=msg):
        og.arange(*args)


def test_arange_values_and_dtypes():
    assert og.arange(np.int32(3)).numpy().tolist() == [0, 1, 2]
    assert og.arange(np.int32(3)).dtype == og.int64
    assert og.arange(2.5).numpy().tolist() == [0.0, 1.0, 2.0]
    assert og.arange(1, 2, 0.5, dtype="float64").numpy().tolist() == [1.0, 1.5]
    assert og.arange(3, device="cpu", requires_grad=False).numpy().tolist() == [0, 1, 2]


# -- eye and linspace -----------------------------------------------------------------------------
def test_eye_and_linspace_values_and_dtypes():
    np.testing.assert_array_equal(og.eye(3).numpy(), np.eye(3))
    assert og.eye(3).dtype == og.get_default_dtype()
    np.testing.assert_array_equal(og.eye(2, 4, dtype=og.float64).numpy(), np.eye(2, 4))
    assert og.eye(0).shape == (0, 0)
    assert og.eye(2, requires_grad=True).requires_grad
    np.testing.assert_allclose(og.linspace(-1, 1, 5, dtype="float64").numpy(), np.linspace(-1, 1, 5))
    assert og.linspace(0, 1, 1).numpy().tolist() == [0.0]
    assert og.linspace(0, 1, 0).shape == (0,)


@pytest.mark.parametrize(
    ("call", "err", "msg"),
    [(lambda: og.eye(-1), TypeError, r"eye: n must be an int >= 0, got -1 \(int\)"),
     (lambda: og.eye(2, 2.5), TypeError, r"eye: m must be an int >= 0, got 2.5 \(float\)"),
     (lambda: og.eye(True), TypeError, "eye: n must be an int >= 0"),
     (lambda: og.linspace(0, 1, -2), TypeError, "linspace: steps must be an int >= 0"),
     (lambda: og.linspace(0, float("inf"), 3), ValueError, "linspace: end must be finite"),
     (lambda: og.linspace("a", 1, 3), TypeError, "linspace: start must be an int or a float")],
)  # fmt: skip
def test_eye_and_linspace_refuse_bad_arguments(call, err, msg):
    with pytest.raises(err, match=msg):
        call()


@pytest.mark.parametrize(
    "array", [np.array(["a"]), np.array([1], dtype=np.uint16), np.array([1], dtype=np.clongdouble)]
)
def test_from_numpy_refuses_unsupported_dtypes(array):
    # Before: from_numpy wrapped str and uint16 arrays as tensors no op supports (complex64
    # and complex128 are supported now; the extended-precision complex is not).
    with pytest.raises(
        TypeError, match=r"from_numpy: dtype: unsupported dtype dtype\(.*\); expected one of bool"
    ):
        og.from_numpy(array)


def test_from_numpy_shares_memory_and_checks_its_argument():
    a = np.array([1.0, 2.0])
    t = og.from_numpy(a)
    a[0] = 5.0
    assert t.numpy().tolist() == [5.0, 2.0]
    with pytest.raises(TypeError, match="from_numpy: expected a NumPy array, got list"):
        og.from_numpy([1.0])


@pytest.mark.parametrize(
    "make",
    [lambda **kw: og.tensor([1, 2], **kw), lambda **kw: og.zeros((2,), "int64", **kw),
     lambda **kw: og.arange(3, **kw), lambda **kw: og.full_like(og.zeros((2,), "int32"), 1, **kw)],
)  # fmt: skip
def test_requires_grad_on_integers_names_the_function(make):
    with pytest.raises(
        TypeError, match=r"^\w+: only floating-point and complex tensors can require grad; .*dtype int"
    ):
        make(requires_grad=True)


def test_requires_grad_and_stop_gradient_must_be_bools():
    # Before: requires_grad="no" made a tensor that requires grad.
    with pytest.raises(TypeError, match=r"tensor: requires_grad must be a bool, got 'no' \(str\)"):
        og.tensor([1.0], requires_grad="no")
    with pytest.raises(TypeError, match=r"zeros: requires_grad must be a bool, got 1 \(int\)"):
        og.zeros((1,), None, None, 1)
    with pytest.raises(TypeError, match="tensor: stop_gradient must be a bool, got .x. \\(str\\)"):
        og.tensor([1.0], stop_gradient="x")
    assert og.tensor([1.0], requires_grad=np.bool_(True)).requires_grad


@pytest.mark.parametrize(
    "data, dtype",
    [
        (np.float64(1.5), "float64"),  # np.float64 is a Python float too: it once gave float32
        (np.complex128(1j), "complex128"),
        ([np.float64(1.5), np.float64(2.0)], "float64"),
        ([[np.float64(1.5)], [np.float64(2.5)]], "float64"),
        ([np.float64(1.5), 2.0], "float64"),  # NumPy decides once a NumPy scalar is inside
        ([np.complex128(1j)], "complex128"),
        (np.float32(1.5), "float32"),
        ([np.float32(1.5)], "float32"),
        (np.float16(1.5), "float16"),
        (np.int32(3), "int32"),
        (np.bool_(True), "bool"),
        (1.5, "float32"),  # Python numbers: the defaults
        ([1.5, 2], "float32"),
        (1j, "complex64"),
    ],
)
def test_numpy_scalars_keep_their_dtype_as_in_pytorch(data, dtype):
    """As `torch.tensor`: a NumPy scalar is a typed value, not a Python number (each row
    checked against torch 2.13), and its value is kept exactly."""
    t = og.tensor(data)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.numpy(), np.asarray(data))


def test_full_counts_a_numpy_float_fill_value_as_a_python_float_as_pytorch_does():
    assert og.full((2,), np.float64(1.5)).dtype == "float32"  # torch.full: torch.float32
    assert og.full((2,), np.float64(1.5), dtype="float64").dtype == "float64"
    assert og.full((2,), np.bool_(True)).dtype == "bool"
