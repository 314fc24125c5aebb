"""The direct write of in-place ops (`inplace_into: true`) on every memory layout: x a view
(transposed, strided, reversed, a slice of a larger array), y a view that may overlap x, a
Python number or a 0-d tensor. For each drawn case, the op with the into variants switched
off (compute a new array, copy it in) and with them on must leave the same bits in x and in
the array x views, bump the same versions, or raise the same error with nothing written.
`nox -s fuzz` runs it with hypothesis' long profile.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from test_fast_paths_sgd import INTO_OPS, SAMPLES, general_path

import opgrad as og

pytestmark = pytest.mark.fuzz

BINARY = [n for n in INTO_OPS if n in ("add", "subtract", "multiply", "divide")]
OTHERS = [n for n in INTO_OPS if n not in BINARY]  # unary ops, clip, fill, zero: their SAMPLES' arguments
DTYPES = [np.float32, np.float64, np.int64, np.complex128]


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    v = rng.standard_normal(shape) * 2
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


LAYOUTS = st.tuples(
    st.sampled_from(["plain", "transposed", "strided", "reversed", "fortran", "offset"]), st.integers(1, 2)
)  # how a (rows, cols) view is cut out of a base array, and the cut's parameter


def _cut(base: np.ndarray, kind: str, k: int, shape: tuple[int, int]) -> np.ndarray:
    r, c = shape
    if kind == "plain":
        return base[:r, :c]
    if kind == "transposed":
        return base[:c, :r].T
    if kind == "strided":
        return base[: r * (k + 1) : k + 1, : c * (k + 1) : k + 1]
    if kind == "reversed":
        return base[:r, :c][::-1, ::-1]
    if kind == "fortran":
        return np.asfortranarray(base[:r, :c]).view()
    return base[k : k + r, k : k + c]  # offset


def _state(x: og.Tensor, base: np.ndarray) -> tuple[bytes, bytes, int]:
    return x._data.tobytes(), base.tobytes(), x._version


def _x_view(seed: int, dtype: Any, kind: str, k: int, shape: tuple[int, int]) -> tuple[og.Tensor, np.ndarray]:
    """x as a view of a base array (for "fortran", a Fortran-ordered array of its own)."""
    base = _values(np.random.default_rng(seed), (12, 12), dtype)
    view = _cut(base, kind, k, shape)
    if kind == "fortran":
        return og.tensor(view), view
    return og.from_numpy(view), base


def _run(name: str, x: og.Tensor, args: list[Any]) -> tuple[str, Any]:
    try:
        with np.errstate(all="ignore"):
            getattr(og, name + "_")(x, *args)
    except Exception as e:  # noqa: BLE001 - compared between the two paths
        return "error", (type(e), str(e))
    return "ok", None


@given(data=st.data())
def test_direct_write_on_any_layout_is_the_general_paths_bits(data: Any) -> None:
    name = data.draw(st.sampled_from(BINARY), label="op")
    shape = (data.draw(st.integers(1, 4), label="rows"), data.draw(st.integers(1, 5), label="cols"))
    x_dtype = data.draw(st.sampled_from(DTYPES), label="x dtype")
    y_dtype = data.draw(st.sampled_from(DTYPES), label="y dtype")
    x_kind, x_k = data.draw(LAYOUTS, label="x layout")
    y_how = data.draw(st.sampled_from(["tensor", "row", "overlap", "x itself", "number", "0-d"]), label="y")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    note(f"{name}_ x {x_dtype.__name__} {x_kind}/{x_k} {shape}, y {y_how} {y_dtype.__name__}")

    def build() -> tuple[og.Tensor, np.ndarray, list[Any]]:
        x, base = _x_view(seed, x_dtype, x_kind, x_k, shape)
        rng = np.random.default_rng(seed + 1)
        if y_how == "tensor":
            y: Any = og.tensor(_values(rng, shape, y_dtype))
        elif y_how == "row":
            y = og.tensor(_values(rng, (shape[1],), y_dtype))
        elif y_how == "overlap":  # another view of x's memory, shifted
            y = og.from_numpy(base[1 : 1 + shape[0], : shape[1]]) if x_kind != "fortran" else x
        elif y_how == "x itself":
            y = x
        elif y_how == "number":
            y = 1.5 if np.dtype(y_dtype).kind == "f" else (2 if np.dtype(y_dtype).kind == "i" else 0.5 + 1j)
        else:
            y = og.tensor(_values(rng, (), y_dtype))
        return x, base, [y]

    x_old, base_old, args_old = build()
    with general_path():
        got_old = _run(name, x_old, args_old)
    x_new, base_new, args_new = build()
    got_new = _run(name, x_new, args_new)
    assert got_new == got_old
    assert _state(x_new, base_new) == _state(x_old, base_old)


@given(data=st.data())
def test_other_direct_writes_on_any_layout_are_the_general_paths_bits(data: Any) -> None:
    name = data.draw(st.sampled_from(OTHERS), label="op")
    args = data.draw(st.sampled_from(SAMPLES[name]), label="arguments")
    shape = (data.draw(st.integers(1, 4), label="rows"), data.draw(st.integers(1, 5), label="cols"))
    x_dtype = data.draw(st.sampled_from(DTYPES), label="x dtype")
    x_kind, x_k = data.draw(LAYOUTS, label="x layout")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    note(f"{name}_{args} x {x_dtype.__name__} {x_kind}/{x_k} {shape}")
    x_old, base_old = _x_view(seed, x_dtype, x_kind, x_k, shape)
    with general_path():
        got_old = _run(name, x_old, list(args))
    x_new, base_new = _x_view(seed, x_dtype, x_kind, x_k, shape)
    got_new = _run(name, x_new, list(args))
    assert got_new == got_old
    assert _state(x_new, base_new) == _state(x_old, base_old)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(), (1,), (1, 1)])
def test_complex_multiply_of_one_element_in_place_is_the_products_bits(
    dtype: Any, shape: tuple[int, ...]
) -> None:
    """Found by the fuzzer above: NumPy's complex multiply into an operand's own memory of
    one element rounds differently from the product into new memory for about half of all
    inputs, so multiply_ declines the direct write for complex x; it must give exactly what
    the out-of-place multiply gives."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        xv, yv = _values(rng, shape, dtype), _values(rng, shape, dtype)
        x = og.tensor(xv.copy())
        og.multiply_(x, og.tensor(yv))
        assert x.numpy().tobytes() == og.multiply(og.tensor(xv), og.tensor(yv)).numpy().tobytes()
        assert x.numpy().tobytes() == np.multiply(np.asarray(xv), np.asarray(yv)).tobytes()
