"""Hypothesis strategies that turn the op table's samples into hostile cases.

A case starts from one sample of `op_samples.OPS[name]` and may change, each with some
probability: the dtype of its float arrays (float16/32/64, int32/int64, bool; all of them or
just one), the shape of one array (a zero-size axis, a new leading axis of size 0, 1 or 2 that
broadcasts, a 0-d array), one integer argument (an axis as its negative twin, out of range or
duplicated; a count negated, zeroed or made huge), special values (nan, inf, -0.0) in one float
array, and the layout of every array: a plain tensor, a Fortran-ordered or strided tensor (a
view of a leaf that requires grad), or a NumPy array passed straight to the op (C, Fortran,
strided or read-only). Leaves may also start with a `.grad` of their own.

What the op is allowed to do is read from the spec (`ops.yaml` through `opgrad.codegen`): which
argument its outputs may view, which outputs are non-differentiable or intermediate, which
arguments it mutates, and the type of every argument.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

from op_samples import OPS, Sample
from opgrad.codegen import load_spec
from opgrad.codegen.model import OpSpec

ROOT = Path(__file__).resolve().parents[1]
SPEC: dict[str, OpSpec] = {op.name: op for op in load_spec(ROOT).ops}

FLOAT_DTYPES = (np.float16, np.float32, np.float64)
DTYPES = (*FLOAT_DTYPES, np.int32, np.int64, np.bool_)
# integer arguments that name axes of a tensor (their negative twin means the same axis)
AXIS_ARGS = frozenset({"axis", "dim", "perm", "start_axis", "stop_axis"})
INT_TYPES = frozenset({"int", "int?", "int[]", "int[]?"})
TENSOR_LAYOUTS = ("plain", "fortran", "strided")
RAW_LAYOUTS = ("raw", "raw_fortran", "raw_strided", "readonly")
SPECIALS = (np.nan, np.inf, -np.inf, -0.0, 0.0)


@functools.cache
def samples_of(name: str) -> list[Sample]:
    return OPS[name].sample_list()


# --- where the arrays of a call sit ------------------------------------------------------------

Slot = tuple[int, int | None]  # (position in args, index in a Tensor[] list or None)


def array_slots(args: list[Any]) -> list[Slot]:
    slots: list[Slot] = []
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray):
            slots.append((i, None))
        elif isinstance(a, list) and a and all(isinstance(v, np.ndarray) for v in a):
            slots += [(i, j) for j in range(len(a))]
    return slots


def get_slot(args: list[Any], slot: Slot) -> np.ndarray:
    i, j = slot
    return args[i] if j is None else args[i][j]


def set_slot(args: list[Any], slot: Slot, value: Any) -> None:
    i, j = slot
    if j is None:
        args[i] = value
    else:
        args[i] = list(args[i])
        args[i][j] = value


# --- the case ---------------------------------------------------------------------------------


@dataclass
class Case:
    """One hostile call: NumPy values for every argument plus how each array is passed."""

    name: str
    sample: Sample
    args: list[Any]
    kwargs: dict[str, Any]
    layouts: dict[Slot, str] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)  # what was changed: dtype:float16, shape, axis, ...
    pregrad: bool = False  # leaves start with a .grad of their own (accumulation, untouched on error)

    @property
    def spec(self) -> OpSpec:
        return SPEC[self.name]

    def describe(self) -> str:
        parts = []
        for i, a in enumerate(self.args):
            if isinstance(a, np.ndarray):
                parts.append(f"{a.dtype}{list(a.shape)}<{self.layouts.get((i, None), 'plain')}>")
            elif isinstance(a, list) and array_slots([a]):
                inner = [
                    f"{v.dtype}{list(v.shape)}<{self.layouts.get((i, j), 'plain')}>" for j, v in enumerate(a)
                ]
                parts.append("[" + ", ".join(inner) + "]")
            else:
                parts.append(repr(a))
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"{self.name}({', '.join(parts)}) tags={sorted(self.tags)}"


def _spec_arg_names(name: str) -> list[str]:
    return [a.name for a in SPEC[name].args]


def _cast(a: np.ndarray, dtype: Any) -> np.ndarray:
    if np.dtype(dtype) == np.bool_:
        return np.asarray(a > 0)
    with np.errstate(all="ignore"):
        if np.dtype(dtype).kind == "i":
            return np.asarray(np.nan_to_num(np.round(a * 2))).astype(dtype)
        return a.astype(dtype)


def _draw_dtype(draw: Any, case: Case) -> None:
    floats = [s for s in array_slots(case.args) if get_slot(case.args, s).dtype == np.float64]
    if not floats:
        return
    dtype = draw(st.sampled_from(DTYPES))
    chosen = floats if draw(st.booleans()) or len(floats) == 1 else [draw(st.sampled_from(floats))]
    for s in chosen:
        set_slot(case.args, s, _cast(get_slot(case.args, s), dtype))
    case.tags.add(f"dtype:{np.dtype(dtype).name}")
    if len(chosen) < len(floats):
        case.tags.add("mixed-dtypes")


def _draw_index_dtype(draw: Any, case: Case) -> None:
    ints = [s for s in array_slots(case.args) if get_slot(case.args, s).dtype == np.int64]
    if ints and draw(st.booleans()):
        for s in ints:
            set_slot(case.args, s, get_slot(case.args, s).astype(np.int32))
        case.tags.add("index:int32")


def _draw_shape(draw: Any, case: Case) -> None:
    slots = array_slots(case.args)
    if not slots:
        return
    slot = draw(st.sampled_from(slots))
    a = get_slot(case.args, slot)
    how = draw(st.sampled_from(("empty", "prepend", "scalar")))
    if how == "empty" and a.ndim:
        axis = draw(st.integers(0, a.ndim - 1))
        a = np.take(a, np.array([], dtype=np.int64), axis=axis)
        case.tags.add("zero-size")
    elif how == "prepend":
        n = draw(st.integers(0, 2))
        a = np.broadcast_to(a, (n, *a.shape)).copy()
        case.tags.add("zero-size" if n == 0 else "broadcast")
    elif how == "scalar" and a.size:
        a = a.reshape(-1)[:1].reshape(())
        case.tags.add("0-d")
    else:
        return
    case.tags.add("shape")
    set_slot(case.args, slot, a)


def first_ndim(case: Case) -> int:
    slots = array_slots(case.args)
    return get_slot(case.args, slots[0]).ndim if slots else 0


def _mutate_axis(draw: Any, v: int, nd: int, case: Case) -> int:
    kind = draw(st.sampled_from(("twin", "twin", "high", "low")))
    if kind == "twin" and nd:
        case.tags.add("axis-twin")
        return v - nd if v >= 0 else v + nd
    case.tags.add("axis-out-of-range")
    r = draw(st.integers(0, 2))
    return nd + r if kind == "high" else -nd - 1 - r


def _draw_int_arg(draw: Any, case: Case) -> None:
    spec_args = case.spec.args
    candidates = [k for k, a in enumerate(spec_args) if a.type in INT_TYPES]
    if not candidates:
        return
    k = draw(st.sampled_from(candidates))
    arg = spec_args[k]
    if k < len(case.args):
        value, put = case.args[k], ("arg", k)
    else:
        default = arg.default.value if arg.default is not None else None
        value, put = case.kwargs.get(arg.name, default), ("kw", arg.name)
    nd = first_ndim(case)
    is_axis = arg.name in AXIS_ARGS
    if isinstance(value, tuple):
        value = list(value)
    if value is None:
        new: Any = draw(st.sampled_from((0, -1, nd, [0], [-1])))
        if not arg.type.startswith("int[]"):
            new = new[0] if isinstance(new, list) else new
        elif not isinstance(new, list):
            new = [new]
        case.tags.add("none-replaced")
    elif isinstance(value, list):
        how = draw(st.sampled_from(("element", "duplicate", "empty")))
        new = list(value)
        if how == "empty" or not new:
            new = []
            case.tags.add("empty-list")
        elif how == "duplicate":
            j = draw(st.integers(0, len(new) - 1))
            twin = new[j] - nd if is_axis and new[j] >= 0 and draw(st.booleans()) else new[j]
            new.insert(draw(st.integers(0, len(new))), twin)
            case.tags.add("duplicate")
        else:
            j = draw(st.integers(0, len(new) - 1))
            new[j] = _mutate_axis(draw, new[j], nd, case) if is_axis else -new[j] - 1
            if not is_axis:
                case.tags.add("negative")
    elif isinstance(value, bool) or not isinstance(value, int):
        return
    elif is_axis:
        new = _mutate_axis(draw, value, nd, case)
    else:
        new = draw(st.sampled_from((-value, 0, -1, value + 7, 2**40)))
        case.tags.add("int-value")
    case.tags.add(f"arg:{arg.name}")
    if put[0] == "arg":
        case.args[put[1]] = new
    else:
        case.kwargs[put[1]] = new


DTYPE_VALUES = ("float16", "float32", "float64", "int32", "int64", "bool", "float", "complex64", "foo")


def _draw_dtype_arg(draw: Any, case: Case) -> None:
    """A `DataType` argument (cast) set to another dtype name, one NumPy or opgrad may not know."""
    for k, arg in enumerate(case.spec.args):
        if arg.type != "DataType":
            continue
        value = draw(st.sampled_from(DTYPE_VALUES))
        if k < len(case.args):
            case.args[k] = value
        else:
            case.kwargs[arg.name] = value
        case.tags.add(f"dtype-arg:{value}")


def _draw_specials(draw: Any, case: Case) -> None:
    floats = [
        s
        for s in array_slots(case.args)
        if get_slot(case.args, s).dtype.kind == "f" and get_slot(case.args, s).size
    ]
    if not floats:
        return
    slot = draw(st.sampled_from(floats))
    a = get_slot(case.args, slot).copy()
    flat = a.reshape(-1)
    for _ in range(draw(st.integers(1, 3))):
        value = draw(st.sampled_from(SPECIALS))
        flat[draw(st.integers(0, flat.size - 1))] = value
        case.tags.add("nan" if np.isnan(value) else "inf" if np.isinf(value) else "zero")
    set_slot(case.args, slot, a)


@st.composite
def cases(draw: Any, name: str) -> Case:
    samples = samples_of(name)
    sample = samples[draw(st.integers(0, len(samples) - 1))]
    case = Case(
        name, sample, [list(a) if isinstance(a, list) else a for a in sample.args], dict(sample.kwargs)
    )
    if draw(st.integers(0, 9)) < 4:
        _draw_dtype(draw, case)
    if draw(st.integers(0, 9)) < 2:
        _draw_index_dtype(draw, case)
    if draw(st.integers(0, 9)) < 3:
        _draw_shape(draw, case)
    if draw(st.integers(0, 9)) < 3:
        _draw_int_arg(draw, case)
    if draw(st.integers(0, 9)) < 2:
        _draw_specials(draw, case)
    if draw(st.integers(0, 9)) < 4:
        _draw_dtype_arg(draw, case)
    case.pregrad = draw(st.integers(0, 9)) < 2
    for slot in array_slots(case.args):
        if draw(st.booleans()):
            layouts = TENSOR_LAYOUTS[1:] + RAW_LAYOUTS
            case.layouts[slot] = draw(st.sampled_from(layouts))
            case.tags.add("layout")
    return case


# --- turning a case into call arguments -------------------------------------------------------


@dataclass
class Built:
    """The call's arguments plus every object the checks look at."""

    args: list[Any]
    leaves: list[Any]  # tensors that require grad (for strided/fortran layouts, the base)
    inputs: list[Any]  # every tensor or raw array handed to the op, by slot
    arg_of_input: list[str]  # the spec argument each input belongs to
    views: dict[int, tuple[Any, Any]]  # input index -> (leaf, fn mapping a leaf-shaped array to the input)


def _fortran_leaf(a: np.ndarray, make: Any) -> tuple[Any, Any, Any]:
    perm = list(range(a.ndim))[::-1]
    leaf = make(np.ascontiguousarray(a.transpose(perm)))
    return leaf, leaf.transpose(perm), lambda g: g.transpose(perm)


def _strided_leaf(a: np.ndarray, make: Any) -> tuple[Any, Any, Any]:
    big = np.zeros((*a.shape[:-1], 2 * a.shape[-1]), dtype=a.dtype)
    big[..., ::2] = a
    leaf = make(big)
    return leaf, leaf[..., ::2], lambda g: g[..., ::2]


def raw_array(a: np.ndarray, layout: str) -> np.ndarray:
    if layout == "raw_fortran":
        return np.array(a, order="F")  # np.asfortranarray would make a 0-d array 1-d
    if layout == "raw_strided" and a.ndim:
        big = np.zeros((*a.shape[:-1], 2 * a.shape[-1]), dtype=a.dtype)
        big[..., ::2] = a
        return big[..., ::2]
    if layout == "readonly":
        r = a.copy()
        r.flags.writeable = False
        return r
    return a.copy()


def build(case: Case, og: Any, plain: bool = False) -> Built:
    """Tensors (or raw arrays) for the case; `plain=True` ignores the drawn layouts."""
    diff = set(OPS[case.name].diff_args)
    names = _spec_arg_names(case.name)
    args: list[Any] = [list(a) if isinstance(a, list) else a for a in case.args]
    built = Built(args, [], [], [], {})
    for slot in array_slots(case.args):
        a = get_slot(case.args, slot)
        layout = "plain" if plain else case.layouts.get(slot, "plain")
        rg = slot[0] in diff and a.dtype.kind in "fc"

        def make(v: np.ndarray, rg: bool = rg) -> Any:
            t = og.tensor(v, requires_grad=rg)
            if rg and case.pregrad and not plain:
                t.grad = og.tensor(np.full(v.shape, 0.5, dtype=v.dtype))
            return t

        if layout in RAW_LAYOUTS:
            value: Any = raw_array(a, layout)
        elif layout == "fortran" and a.ndim >= 2 or layout == "strided" and a.ndim >= 1:
            leaf, value, fn = (_fortran_leaf if layout == "fortran" else _strided_leaf)(a, make)
            if rg:
                built.leaves.append(leaf)
            built.views[len(built.inputs)] = (leaf, fn)
        else:
            value = make(a)
            if rg:
                built.leaves.append(value)
        set_slot(args, slot, value)
        built.inputs.append(value)
        built.arg_of_input.append(names[slot[0]] if slot[0] < len(names) else "?")
    return built
