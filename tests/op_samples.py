"""The op table behind tests/test_ops.py (PyTorch-OpInfo style).

One `OpInfo` per op of ops.yaml: the public callable (`og.<name>`), a NumPy reference that
never calls opgrad, a generator of samples, which argument positions carry gradient, the
tolerances, and (inside the generators) the domain each op needs: positive inputs for
log/sqrt/rsqrt, values away from kinks for abs/relu/clip, no ties for max/min/maximum.

A sample's positional arguments hold float64 NumPy arrays (and lists of them for `Tensor[]`
arguments, integer arrays for labels/indices, bool arrays for conditions); the tests turn
every array into a tensor. Everything else (Python numbers, int lists, strings, dtypes,
keyword arguments) is passed through unchanged, to the op and to the reference alike.

`YAML_OPS` is read from ops.yaml, so an op added there without an entry here fails
`test_every_yaml_op_has_an_opinfo`.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

import opgrad as og

ROOT = Path(__file__).resolve().parents[1]
YAML_OPS: dict[str, dict[str, Any]] = {e["op"]: e for e in yaml.safe_load((ROOT / "ops.yaml").read_text())}
YAML_BACKWARD: dict[str, dict[str, Any]] = {
    e["backward_op"]: e for e in yaml.safe_load((ROOT / "backward.yaml").read_text())
}


@dataclass
class Sample:
    """One call: `op(*args, **kwargs)`.

    grad: include in the gradcheck (False for samples at kinks/ties or with a non-float64
        result, e.g. cast to float32).
    forward: compare with the reference (False for random ops without a fixed reference).
    seed: call `og.manual_seed(seed)` right before every call of the op (dropout).
    xfail: known bugs elsewhere, by test kind ("forward", "float32", "grad") -> reason; the
        test is marked xfail(strict=True) for this sample only.
    """

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    grad: bool = True
    forward: bool = True
    seed: int | None = None
    note: str = ""
    xfail: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # 0-d arithmetic gives NumPy scalars; the tests want 0-d arrays (tensors), not numbers
        self.args = tuple(np.asarray(a) if isinstance(a, np.generic) else a for a in self.args)

    def describe(self) -> str:
        parts = []
        for a in self.args:
            if isinstance(a, np.ndarray):
                parts.append(f"{a.dtype.kind}{list(a.shape)}")
            elif isinstance(a, list) and a and all(isinstance(v, np.ndarray) for v in a):
                parts.append("[" + ",".join(str(list(v.shape)) for v in a) + "]")
            else:
                parts.append(repr(a))
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return ",".join(parts) + (f"({self.note})" if self.note else "")


@dataclass(frozen=True)
class OpInfo:
    """What the tests need to know about one op."""

    name: str
    ref: Callable[..., Any]
    samples: Callable[[np.random.Generator], Iterator[Sample]]
    diff_args: tuple[int, ...] = (0,)  # positions of the tensor arguments that get a gradient
    differentiable: bool = True  # False: every output is non-differentiable
    rtol: float = 1e-10  # float64 forward against the reference
    atol: float = 1e-12
    rtol32: float = 1e-4  # float32 forward against the float64 reference
    atol32: float = 1e-5
    grad_eps: float = 1e-6
    grad_atol: float = 1e-5
    grad_rtol: float = 1e-3
    # second order: gradgradcheck of every grad sample (test_ops.py); False only with a reason
    gradgrad: bool = True
    gradgrad_reason: str = ""
    gradgrad_samples: int = 3  # how many grad samples gradgradcheck runs (it is costly)
    # float16 (test_ops_float16.py): outputs and gradients against the float64 reference of
    # the float16-rounded inputs, within tol16 of the largest reference magnitude (at least 1)
    tol16: float = 2e-2
    grad_tol16: float = 2e-2
    # takes or returns complex tensors: the float16 run (there is no complex float16) and the
    # op table's forward-mode checks (written with real inner products) leave it out;
    # tests/test_complex.py checks its tangents against central differences
    complex_io: bool = False
    # the property fuzzer (test_op_properties.py) compares float16/float32 results with the
    # reference run on float64-upcast inputs; False: on the case's own dtypes instead, for an
    # op whose values depend on the dtype's range (nan_to_num's default replacement of +-inf
    # is the dtype's largest finite value)
    ref_upcast: bool = True

    @property
    def op(self) -> Callable[..., Any]:
        """The public callable `og.<name>` (looked up late: the generator may still be writing it)."""
        return getattr(og, self.name)

    def sample_list(self) -> list[Sample]:
        rng = np.random.default_rng(zlib.crc32(self.name.encode()))
        return list(self.samples(rng))


# --- input makers (float64) ------------------------------------------------------------------


def randn(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.standard_normal(shape))


def away(rng: np.random.Generator, *shape: int, lo: float = 0.3, hi: float = 2.0) -> np.ndarray:
    """|v| in [lo, hi], either sign: away from the kink at 0."""
    return np.asarray(rng.uniform(lo, hi, shape) * rng.choice([-1.0, 1.0], shape))


def pos(rng: np.random.Generator, *shape: int, lo: float = 0.3, hi: float = 2.0) -> np.ndarray:
    return np.asarray(rng.uniform(lo, hi, shape))


def distinct(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Values at least 0.04 apart (no ties for max/min/argmax)."""
    n = math.prod(shape)
    return (rng.permutation(n) * 0.05 + rng.uniform(0, 0.01, n) - n * 0.025).reshape(shape)


def grid(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Small integers as floats, so comparisons see equal values."""
    return np.asarray(rng.integers(-2, 3, shape), dtype=np.float64)


def ints(rng: np.random.Generator, high: int, *shape: int) -> np.ndarray:
    return np.asarray(rng.integers(0, high, shape), dtype=np.int64)


# --- reference helpers ------------------------------------------------------------------------


def _axes(axis: Any) -> Any:
    """Paddle's axis (int, list, [] or None for all) as NumPy's."""
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        return tuple(axis) if axis else None
    return axis


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[np.float64])(x).astype(x.dtype)


def _reduction(fn: Callable[..., Any]) -> Callable[..., np.ndarray]:
    def ref(x: np.ndarray, axis: Any = None, keepdim: bool = False) -> np.ndarray:
        return np.asarray(fn(x, axis=_axes(axis), keepdims=keepdim))

    return ref


def _logsumexp(x: np.ndarray, axis: Any = None, keepdim: bool = False) -> np.ndarray:
    a = _axes(axis)
    m = np.max(x, axis=a, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=a, keepdims=True)) + m
    return out if keepdim else np.asarray(np.squeeze(out, axis=a))


def _arg(fn: Callable[..., Any]) -> Callable[..., np.ndarray]:
    def ref(x: np.ndarray, axis: int | None = None, keepdim: bool = False) -> np.ndarray:
        return np.asarray(fn(x, axis=axis, keepdims=keepdim)).astype(np.int64)

    return ref


def _matmul(x: np.ndarray, y: np.ndarray, transpose_x: bool = False, transpose_y: bool = False) -> np.ndarray:
    if transpose_x and x.ndim >= 2:
        x = np.swapaxes(x, -1, -2)
    if transpose_y and y.ndim >= 2:
        y = np.swapaxes(y, -1, -2)
    return np.asarray(np.matmul(x, y))


def _squeeze(x: np.ndarray, axis: Any = ()) -> np.ndarray:
    axes = [axis] if isinstance(axis, int) else list(axis or [])
    axes = [a % x.ndim for a in axes] if axes else list(range(x.ndim))
    return x.reshape([d for i, d in enumerate(x.shape) if not (i in axes and d == 1)])


def _unsqueeze(x: np.ndarray, axis: Any) -> np.ndarray:
    return np.expand_dims(x, tuple(axis) if isinstance(axis, list) else axis)


def _flatten(x: np.ndarray, start_axis: int = 0, stop_axis: int = -1) -> np.ndarray:
    if x.ndim == 0:
        return x.reshape(1)
    start, stop = start_axis % x.ndim, stop_axis % x.ndim
    return x.reshape(x.shape[:start] + (-1,) + x.shape[stop + 1 :])


def _expand(x: np.ndarray, shape: list[int]) -> np.ndarray:
    lead = len(shape) - x.ndim
    target = [x.shape[i - lead] if s == -1 else s for i, s in enumerate(shape)]
    return np.broadcast_to(x, target)


def _split(x: np.ndarray, num_or_sections: Any, axis: int = 0) -> list[np.ndarray]:
    if isinstance(num_or_sections, int):
        return np.split(x, num_or_sections, axis=axis)
    sizes = list(num_or_sections)
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
    return np.split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis)


def _softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def _reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return np.asarray(loss.mean())
    if reduction == "sum":
        return np.asarray(loss.sum())
    return loss


def _cross_entropy(
    input: np.ndarray,
    label: np.ndarray,
    axis: int = -1,
    reduction: str = "mean",
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> np.ndarray:  # noqa: A002
    a = axis % input.ndim
    without = input.shape[:a] + input.shape[a + 1 :]
    valid = label.reshape(without) != ignore_index
    lab = np.expand_dims(np.where(valid, label.reshape(without), 0), a)
    logp = _log_softmax(input, a)
    loss = -np.take_along_axis(logp, lab, axis=a).squeeze(a)
    loss = (1 - label_smoothing) * loss - label_smoothing * logp.mean(axis=a)
    loss = np.where(valid, loss, 0).astype(input.dtype)
    if reduction == "mean":
        return np.asarray(loss.sum() / valid.sum()).astype(input.dtype)
    return _reduce(loss, reduction)


def _mse_loss(input: np.ndarray, label: np.ndarray, reduction: str = "mean") -> np.ndarray:  # noqa: A002
    d = input - label
    return _reduce(d * d, reduction)


def _dropout(x: np.ndarray, p: float = 0.5, training: bool = True) -> np.ndarray:
    if not training or p == 0:
        return x
    if p == 1:
        return np.zeros_like(x)
    raise AssertionError("dropout with 0 < p < 1 in training has no fixed reference")


def _clip(x: np.ndarray, min: float | None = None, max: float | None = None) -> np.ndarray:  # noqa: A002
    if min is None and max is None:
        return x.copy()
    return np.clip(x, min, max)


def _gelu(x: np.ndarray, approximate: bool = False) -> np.ndarray:
    if approximate:
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))


def _softplus(x: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


# --- samples ----------------------------------------------------------------------------------

UNARY_SHAPES = [(), (5,), (2, 3)]
BINARY_SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1, 3), (4, 1)), ((), (2, 3)), ((2, 3), ())]
REDUCE_AXES: list[dict[str, Any]] = [
    {},
    {"axis": None},
    {"axis": []},
    {"axis": 1},
    {"axis": -1, "keepdim": True},
    {"axis": [0, 2]},
    {"axis": [0, -1], "keepdim": True},
    {"axis": None, "keepdim": True},
]


def unary(make: Callable[..., np.ndarray] = randn, *attrs: dict[str, Any]) -> Callable[..., Iterator[Sample]]:
    """Every shape in UNARY_SHAPES with no attributes, then (2, 3) with each attrs dict."""

    def gen(rng: np.random.Generator) -> Iterator[Sample]:
        for shape in UNARY_SHAPES:
            yield Sample((make(rng, *shape),))
        for kw in attrs:
            yield Sample((make(rng, 2, 3),), dict(kw))

    return gen


def binary(
    make_x: Callable[..., np.ndarray] = randn, make_y: Callable[..., np.ndarray] = randn, scalar: float = 1.5
) -> Callable[..., Iterator[Sample]]:
    """Broadcasting pairs, then a Python scalar on either side."""

    def gen(rng: np.random.Generator) -> Iterator[Sample]:
        for sx, sy in BINARY_SHAPES:
            yield Sample((make_x(rng, *sx), make_y(rng, *sy)))
        yield Sample((make_x(rng, 2, 3), scalar), note="scalar y")
        yield Sample((scalar, make_y(rng, 2, 3)), note="scalar x")

    return gen


def extremum_pairs(rng: np.random.Generator) -> Iterator[Sample]:
    for sx, sy in BINARY_SHAPES:
        yield Sample((distinct(rng, *sx), distinct(rng, *sy) + 0.012))
    x = grid(rng, 2, 3)
    yield Sample((x, np.where(rng.random((2, 3)) > 0.5, x, grid(rng, 2, 3))), grad=False, note="ties")


def comparison_samples(rng: np.random.Generator) -> Iterator[Sample]:
    for sx, sy in BINARY_SHAPES:
        yield Sample((grid(rng, *sx), grid(rng, *sy)))
    yield Sample((grid(rng, 2, 3), 1.0), note="scalar y")


def reduction(make: Callable[..., np.ndarray] = randn) -> Callable[..., Iterator[Sample]]:
    def gen(rng: np.random.Generator) -> Iterator[Sample]:
        for kw in REDUCE_AXES:
            yield Sample((make(rng, 2, 3, 4),), dict(kw))
        yield Sample((make(rng, 4),), {"axis": 0})
        yield Sample((make(rng),), {})

    return gen


def prod_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from reduction(lambda r, *s: away(r, *s, lo=0.5, hi=1.5))(rng)
    x = away(rng, 3, 4, lo=0.5, hi=1.5)
    x[0, 1] = 0.0
    x[1, 2] = x[1, 3] = 0.0
    yield Sample((x,), {"axis": 1}, note="zeros")
    yield Sample((x,), {"axis": 0, "keepdim": True}, note="zeros")


def arg_samples(rng: np.random.Generator) -> Iterator[Sample]:
    for kw in ({}, {"axis": None, "keepdim": True}, {"axis": 1}, {"axis": -1, "keepdim": True}, {"axis": 0}):
        yield Sample((distinct(rng, 2, 3, 4),), kw)
    yield Sample((distinct(rng, 5),), {})


def clip_values(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """|v| in [0.05, 0.4] or [0.55, 0.9]: away from the bounds +-0.5 used below."""
    v = (rng.uniform(0.05, 0.4, shape) + rng.choice([0.0, 0.5], shape)) * rng.choice([-1.0, 1.0], shape)
    return np.asarray(v)


def clip_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((clip_values(rng, 2, 3), -0.5, 0.5))
    yield Sample((clip_values(rng, 4),), {"min": -0.5, "max": 0.5})
    yield Sample((clip_values(rng, 2, 3),), {"max": 0.5})
    yield Sample((clip_values(rng, 2, 3),), {"min": -0.5})
    yield Sample((clip_values(rng, 2, 3),), {})
    yield Sample((clip_values(rng),), {"min": -0.5, "max": 0.5})
    yield Sample((np.array([-1.0, -0.5, 0.0, 0.5, 1.0]), -0.5, 0.5), grad=False, note="at bounds")


def cast_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3),), {"dtype": og.float64})
    yield Sample((randn(rng, 2, 3), "float64"))
    yield Sample((randn(rng, 2, 3),), {"dtype": "float32"}, grad=False)
    yield Sample((randn(rng, 4),), {"dtype": og.float16}, grad=False)
    yield Sample((randn(rng, 4) * 3,), {"dtype": "int32"}, grad=False)


def scale_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3),))
    yield Sample((randn(rng, 2, 3), 2.5, -1.0))
    yield Sample((randn(rng, 4),), {"scale": 3})
    yield Sample((randn(rng),), {"bias": 0.25})


def pow_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), 2))
    yield Sample((randn(rng, 4), 3))
    yield Sample((pos(rng, 2, 3), 0.5))
    yield Sample((pos(rng, 2, 3),), {"y": -1.5})
    yield Sample((randn(rng, 3), 0))
    yield Sample((pos(rng), 2.5))


def where_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((rng.random((2, 3)) > 0.5, randn(rng, 2, 3), randn(rng, 2, 3)))
    yield Sample((rng.random((2, 1)) > 0.5, randn(rng, 2, 3), randn(rng, 3)))
    yield Sample((rng.random(3) > 0.5, randn(rng, 2, 1), randn(rng)))


def matmul_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), randn(rng, 4, 2)))
    yield Sample((randn(rng, 4), randn(rng, 4)), note="1-D @ 1-D")
    yield Sample((randn(rng, 4), randn(rng, 4, 2)))
    yield Sample((randn(rng, 3, 4), randn(rng, 4)))
    yield Sample((randn(rng, 2, 3, 4), randn(rng, 4, 2)))
    yield Sample((randn(rng, 4), randn(rng, 2, 4, 3)))
    yield Sample((randn(rng, 2, 1, 2, 3), randn(rng, 3, 3, 2)), note="batch broadcast")
    yield Sample((randn(rng, 4, 3), randn(rng, 4, 2)), {"transpose_x": True})
    yield Sample((randn(rng, 3, 4), randn(rng, 2, 4)), {"transpose_y": True})
    yield Sample((randn(rng, 2, 4, 3), randn(rng, 2, 4)), {"transpose_x": True, "transpose_y": True})


def reshape_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4), [6, -1]))
    yield Sample((randn(rng, 2, 3, 4), [-1]))
    yield Sample((randn(rng, 2, 3, 4),), {"shape": [4, 3, 2]})
    yield Sample((randn(rng, 2, 3), [3, 1, -1]))
    yield Sample((randn(rng), [1, 1]))


def transpose_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4), [2, 0, 1]))
    yield Sample((randn(rng, 2, 3), [1, 0]))
    yield Sample((randn(rng, 2, 3, 4),), {"perm": [0, 2, 1]})


def squeeze_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 1, 3, 1),))
    yield Sample((randn(rng, 2, 1, 3, 1), [1]))
    yield Sample((randn(rng, 2, 1, 3, 1),), {"axis": -1})
    yield Sample((randn(rng, 2, 1, 3), [0]), note="non-1 axis is kept")
    yield Sample((randn(rng, 1, 1),), {"axis": [0, 1]})


def unsqueeze_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), 0))
    yield Sample((randn(rng, 2, 3), [0, 2]))
    yield Sample((randn(rng, 2, 3),), {"axis": -1})
    yield Sample((randn(rng, 2, 3), [0, 3]))
    yield Sample((randn(rng), [0]))


def flatten_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3, 4),))
    yield Sample((randn(rng, 2, 3, 4), 1))
    yield Sample((randn(rng, 2, 3, 4),), {"start_axis": 0, "stop_axis": 1})
    yield Sample((randn(rng, 2, 3, 4),), {"start_axis": -2, "stop_axis": -1})
    yield Sample((randn(rng),))


def expand_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 1), [2, -1, 4]))
    yield Sample((randn(rng, 3), [2, 3]))
    yield Sample((randn(rng, 1, 3),), {"shape": [4, 3]})
    yield Sample((randn(rng), [2, 2]))


def concat_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(([randn(rng, 2, 3), randn(rng, 2, 1), randn(rng, 2, 2)], 1))
    yield Sample(([randn(rng, 1, 3), randn(rng, 2, 3)],))
    yield Sample(([randn(rng, 2, 3), randn(rng, 2, 2)],), {"axis": -1})
    yield Sample(([randn(rng, 4)],))


def stack_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(([randn(rng, 2, 3), randn(rng, 2, 3)],))
    yield Sample(([randn(rng, 2, 3), randn(rng, 2, 3), randn(rng, 2, 3)], 1))
    yield Sample(([randn(rng, 2), randn(rng, 2)],), {"axis": -1})
    yield Sample(
        ([randn(rng), randn(rng)],),
        note="0-d tensors",
    )


def split_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 6, 2), 3))
    yield Sample((randn(rng, 2, 6), [1, -1, 2], 1))
    yield Sample((randn(rng, 4, 3), [4]))
    yield Sample((randn(rng, 2, 3),), {"num_or_sections": 3, "axis": -1})
    yield Sample((randn(rng, 5), [2, 0, 3]))


def select_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), np.array([2, 0, 2]), 1), note="repeated")
    yield Sample((randn(rng, 3, 4), np.array([1])))
    yield Sample((randn(rng, 3, 4), np.array([1, 1, 0, 2])), {"axis": 0})
    yield Sample((randn(rng, 2, 3, 2), np.array([2, 0])), {"axis": -2})
    yield Sample((randn(rng, 4), np.array([], dtype=np.int64)), note="empty index")


def tile_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 2, 3), [2, 1]))
    yield Sample((randn(rng, 2, 3), [2, 1, 3]))
    yield Sample((randn(rng, 2, 3),), {"repeat_times": [2]})
    yield Sample((randn(rng, 3), [1]))


def softmax_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4),))
    yield Sample((randn(rng, 3, 4), 0))
    yield Sample((randn(rng, 2, 3, 2),), {"axis": 1})
    yield Sample((randn(rng, 5) * 30,), note="large")


def cross_entropy_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 4, 3), ints(rng, 3, 4)))
    yield Sample((randn(rng, 4, 3), ints(rng, 3, 4, 1)), {"reduction": "sum"}, note="label (N, 1)")
    yield Sample((randn(rng, 2, 3, 2), ints(rng, 3, 2, 2), 1, "none"))
    yield Sample((randn(rng, 2, 3, 2), ints(rng, 3, 2, 1, 2)), {"axis": 1, "reduction": "mean"})
    yield Sample(
        (randn(rng, 4) * 10, ints(rng, 4)),
        {"reduction": "none"},
        note="1-D logits",
    )
    ignored = np.array([0, -100, 2, 1, -100])
    yield Sample((randn(rng, 5, 3), ignored), note="ignore_index -100")
    yield Sample((randn(rng, 5, 3), ignored, -1, "none"), note="ignore_index -100")
    yield Sample((randn(rng, 5, 3), np.array([0, 1, 2, 1, 1]), -1, "sum", 1), note="ignore_index 1")
    yield Sample((randn(rng, 4, 3), ints(rng, 3, 4)), {"label_smoothing": 0.1})
    yield Sample((randn(rng, 2, 3, 2), ints(rng, 3, 2, 2), 1, "mean", 0, 0.25), note="smoothing, ignore 0")


def mse_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4), randn(rng, 3, 4)))
    yield Sample((randn(rng, 3, 4), randn(rng, 4)), {"reduction": "none"})
    yield Sample((randn(rng, 3, 4), randn(rng, 3, 4), "sum"))
    yield Sample((randn(rng, 2, 3), randn(rng, 1, 3)), {"reduction": "mean"}, note="label broadcast")


def dropout_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((randn(rng, 3, 4),), {"training": False})
    yield Sample((randn(rng, 3, 4), 0.0))
    yield Sample((randn(rng, 3, 4), 1.0))
    yield Sample((randn(rng, 2, 3), 0.5, False))
    yield Sample((randn(rng, 3, 4), 0.3), forward=False, seed=3, note="seeded mask")
    yield Sample((randn(rng, 3, 4),), forward=False, seed=4, note="seeded mask")


def softplus_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from unary(lambda r, *s: randn(r, *s) * 3)(rng)
    # beta * x > threshold switches to x itself: a jump at x = 0.5 here, so stay away from it
    x = np.array([[-3.0, -0.4, 0.1], [0.4, 0.6, 2.0]])
    yield Sample((x, 2.0, 1.0), note="both sides of the threshold")
    yield Sample((randn(rng, 2, 3) * 10,), {"threshold": 40.0})


def one_hot_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((np.array([0, 2, 1, 3]), 4))
    yield Sample((ints(rng, 3, 2, 2),), {"num_classes": 3})
    yield Sample((np.array(1),), {"num_classes": 2})


def embedding_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((np.array([[0, 2], [2, 3]]), randn(rng, 4, 3)), note="repeated ids")
    yield Sample((ints(rng, 5, 3), randn(rng, 5, 2)))
    yield Sample((np.array(1), randn(rng, 3, 2)))


# --- the table ----------------------------------------------------------------------------------

BINARY_DIFF = (0, 1)


def _cast_ref(x: np.ndarray, dtype: Any) -> np.ndarray:
    """astype, except that complex to real keeps the real part (as og.cast; NumPy warns)."""
    target = np.dtype(dtype)
    return (x.real if x.dtype.kind == "c" and target.kind != "c" else x).astype(target)


_INFOS = [
    # unary elementwise
    OpInfo("neg", lambda x: -x, unary()),
    OpInfo("abs", np.abs, unary(away)),
    OpInfo("sign", np.sign, unary(away)),
    OpInfo("exp", np.exp, unary()),
    OpInfo("expm1", np.expm1, unary()),
    OpInfo("log", np.log, unary(pos)),
    OpInfo("log1p", np.log1p, unary(lambda r, *s: np.asarray(r.uniform(-0.6, 2.0, s)))),
    OpInfo("sqrt", np.sqrt, unary(pos)),
    OpInfo("rsqrt", lambda x: 1 / np.sqrt(x), unary(pos)),
    OpInfo("square", lambda x: x * x, unary()),
    OpInfo("reciprocal", lambda x: 1 / x, unary(away)),
    OpInfo("sin", np.sin, unary()),
    OpInfo("cos", np.cos, unary()),
    OpInfo("tanh", np.tanh, unary()),
    OpInfo("sigmoid", lambda x: 1 / (1 + np.exp(-x)), unary(lambda r, *s: randn(r, *s) * 4)),
    OpInfo("relu", lambda x: np.maximum(x, 0), unary(away)),
    OpInfo(
        "gelu", _gelu, unary(lambda r, *s: randn(r, *s) * 2, {"approximate": True}, {"approximate": False})
    ),
    OpInfo("silu", lambda x: x / (1 + np.exp(-x)), unary(lambda r, *s: randn(r, *s) * 2)),
    OpInfo("softplus", _softplus, softplus_samples),
    OpInfo(
        "leaky_relu",
        lambda x, negative_slope=0.01: np.where(x > 0, x, x * negative_slope),
        unary(away, {"negative_slope": 0.2}),
    ),
    OpInfo(
        "elu",
        lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))),
        unary(away, {"alpha": 1.5}),
    ),
    OpInfo("erf", _erf, unary()),
    OpInfo("scale", lambda x, scale=1.0, bias=0.0: x * scale + bias, scale_samples),
    OpInfo("pow", lambda x, y: x**y, pow_samples),
    OpInfo("clip", _clip, clip_samples),
    OpInfo("cast", _cast_ref, cast_samples, rtol32=1e-3, atol32=1e-3),
    # binary elementwise
    OpInfo("add", np.add, binary(), BINARY_DIFF),
    OpInfo("subtract", np.subtract, binary(), BINARY_DIFF),
    OpInfo("multiply", np.multiply, binary(), BINARY_DIFF),
    OpInfo("divide", np.divide, binary(randn, away), BINARY_DIFF),
    OpInfo("maximum", np.maximum, extremum_pairs, BINARY_DIFF),
    OpInfo("minimum", np.minimum, extremum_pairs, BINARY_DIFF),
    OpInfo("elementwise_pow", np.power, binary(pos, randn), BINARY_DIFF),
    OpInfo("where", np.where, where_samples, (1, 2)),
    # comparisons
    OpInfo("equal", np.equal, comparison_samples, (), differentiable=False),
    OpInfo("not_equal", np.not_equal, comparison_samples, (), differentiable=False),
    OpInfo("less_than", np.less, comparison_samples, (), differentiable=False),
    OpInfo("less_equal", np.less_equal, comparison_samples, (), differentiable=False),
    OpInfo("greater_than", np.greater, comparison_samples, (), differentiable=False),
    OpInfo("greater_equal", np.greater_equal, comparison_samples, (), differentiable=False),
    # reductions
    OpInfo("sum", _reduction(np.sum), reduction()),
    OpInfo("mean", _reduction(np.mean), reduction()),
    OpInfo("max", _reduction(np.max), reduction(distinct)),
    OpInfo("min", _reduction(np.min), reduction(distinct)),
    OpInfo("prod", _reduction(np.prod), prod_samples),
    # its gradient exp(x - out) reads the float16-rounded out: one ulp of out (0.06 at 150)
    # moves every entry by ~6%
    OpInfo("logsumexp", _logsumexp, reduction(lambda r, *s: randn(r, *s) * 3), grad_tol16=8e-2),
    OpInfo("argmax", _arg(np.argmax), arg_samples, (), differentiable=False),
    OpInfo("argmin", _arg(np.argmin), arg_samples, (), differentiable=False),
    # linear algebra
    OpInfo("matmul", _matmul, matmul_samples, BINARY_DIFF, rtol32=1e-4, atol32=1e-4),
    # shape and indexing
    OpInfo("reshape", lambda x, shape: x.reshape(shape), reshape_samples),
    OpInfo("transpose", lambda x, perm: x.transpose(perm), transpose_samples),
    OpInfo("squeeze", _squeeze, squeeze_samples),
    OpInfo("unsqueeze", _unsqueeze, unsqueeze_samples),
    OpInfo("flatten", _flatten, flatten_samples),
    OpInfo("expand", _expand, expand_samples),
    OpInfo("concat", lambda x, axis=0: np.concatenate(x, axis=axis), concat_samples),
    OpInfo("stack", lambda x, axis=0: np.stack(x, axis=axis), stack_samples),
    OpInfo("split", _split, split_samples),
    OpInfo("gather", lambda x, index, axis=0: np.take(x, index, axis=axis), select_samples),
    OpInfo("index_select", lambda x, index, axis=0: np.take(x, index, axis=axis), select_samples),
    OpInfo("tile", lambda x, repeat_times: np.tile(x, repeat_times), tile_samples),
    # neural-network functions
    OpInfo("softmax", _softmax, softmax_samples),
    OpInfo("log_softmax", _log_softmax, softmax_samples),
    OpInfo("cross_entropy", _cross_entropy, cross_entropy_samples),
    OpInfo("mse_loss", _mse_loss, mse_samples, BINARY_DIFF),
    OpInfo("dropout", _dropout, dropout_samples),
    OpInfo(
        "one_hot",
        lambda x, num_classes: np.eye(num_classes, dtype=np.float32)[x],
        one_hot_samples,
        (),
        differentiable=False,
    ),
    OpInfo("embedding", lambda x, weight: weight[x], embedding_samples, (1,)),
]


def _more_infos() -> list[OpInfo]:
    """OpInfos kept in `op_samples_<area>.py` beside this file (each defines `INFOS`), so
    areas of the op table can grow without editing one shared file."""
    import importlib

    found: list[OpInfo] = []
    for path in sorted(Path(__file__).parent.glob("op_samples_*.py")):
        found.extend(importlib.import_module(path.stem).INFOS)
    return found


_INFOS += _more_infos()
OPS: dict[str, OpInfo] = {info.name: info for info in _INFOS}
assert len(OPS) == len(_INFOS), "an op is listed twice in the OpInfo tables"
