"""The node driver's `_Input` saves and the MLP's grad kernels in C (runtime/_speedups.c, the
nodeg section) against the Python methods (`Cls.apply.__wrapped__`) and kernels: the same
gradients, bit for bit (values, dtypes, aliasing), the same errors.

A parameter after an in-place update (`p.subtract_(...)` under no_grad: its counter at 1 or
more) is saved by the next forward as an `_Input`, which the driver now unpacks in C; and
when the table's kernel is still (by identity) matmul_grad, add_grad or tanh_grad, the
driver runs their common cases in C (matmul_grad 2-D without transposes, add_grad where the
gradient keeps its shape or is summed over the rows, tanh_grad on real arrays) and calls
the Python kernel for everything else. Without the extension (or with OPGRAD_PURE set) the
comparisons run the Python methods against themselves and the C-only tests skip.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from test_fast_paths_capply import (
    APPLY_CODES,
    DRIVEN,
    graph_nodes,
    needs_c,
    python_apply,
    python_methods,
    same_outcome,
)
from test_fast_paths_cop import assert_no_leaks

import opgrad as og
from opgrad.generated import nodes as N
from opgrad.runtime import _accel
from opgrad.runtime import tensor_wrapper as TW
from opgrad.runtime.kernels.generic import binary, elementwise, linalg
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.version import VersionCounter

FLOATS = (np.float16, np.float32, np.float64)
KERNEL_CODES = {f.__code__ for f in (linalg.matmul_grad, binary.add_grad, elementwise.tanh_grad)}
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


class _Count:
    """A profile function counting the calls of the functions of `codes`."""

    def __init__(self, codes: set[Any]) -> None:
        self.codes = codes
        self.n = 0

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        self.n += event == "call" and frame.f_code in self.codes


def _calls(codes: set[Any], fn: Callable[[], Any]) -> int:
    """How many times a function of `codes` ran as Python during fn()."""
    count = _Count(codes)
    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count.n


def _kernel_calls(fn: Callable[[], Any]) -> int:
    """How many times matmul_grad, add_grad or tanh_grad ran as Python during fn()."""
    return _calls(KERNEL_CODES, fn)


def _python_calls(fn: Callable[[], Any]) -> int:
    """How many times a listed class's Python `apply` ran during fn()."""
    return _calls(APPLY_CODES, fn)


def _updated(a: np.ndarray) -> Tensor:
    """A leaf after one in-place update (its counter at 1), as a parameter after an SGD step."""
    t = og.tensor(a.copy(), requires_grad=True)
    with og.no_grad():
        t.subtract_(og.tensor(np.zeros_like(a)))
    assert t._vc is not None and t._vc.value == 1
    return t


def _grad_like(node: Any, rng: np.random.Generator) -> Tensor:
    return og.tensor(rng.standard_normal(node._shape).astype(node._dtype))


def _compare(node: Any, g: Tensor) -> None:
    """node.apply (C) against its Python method, bit for bit, on copies of `g`."""
    gc_, gp = og.tensor(g._data.copy()), og.tensor(g._data.copy())
    cls = type(node)
    same_outcome(
        lambda: node.apply([gc_], False),
        lambda: python_apply(cls)(node, [gp], False),
        gc_._data,
        gp._data,
    )


def _each_needs(node: Any, g: Tensor) -> Iterator[tuple[bool, ...]]:
    """Each `needs` combination of a binary node (its edges set to match), after comparing
    its apply with the Python method's there; the edges restored at the end."""
    keep = (node._next0, node._next1)
    for want in itertools.product((True, False), repeat=2):
        node._next0 = keep[0] if want[0] else None
        node._next1 = keep[1] if want[1] else None
        node.apply([g], False)
        _compare(node, g)
        yield want
    node._next0, node._next1 = keep


# --- `_Input` saves -----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
def test_a_parameter_saved_after_an_update_is_unpacked_in_c(dtype):
    rng = np.random.default_rng(1)
    x = og.tensor(rng.standard_normal((5, 3)).astype(dtype))
    w = _updated(rng.standard_normal((3, 4)).astype(dtype))
    b = _updated(rng.standard_normal(4).astype(dtype))
    h = og.tanh(x @ w + b)
    y = h * w.sum(0)  # MultiplyGradNode: x an output, y a tensor computed
    nodes = graph_nodes([y])
    mm = next(n for n in nodes if type(n) is N.MatmulGradNode)
    assert type(mm.y) is TW._Input and type(mm.x) is Tensor
    for node in nodes:
        if type(node).__name__ in ("MatmulGradNode", "AddGradNode", "TanhGradNode", "MultiplyGradNode"):
            g = _grad_like(node, rng)
            node.apply([g], False)  # (resolves the kernel)
            _compare(node, g)
            if DRIVEN:
                assert _python_calls(lambda n=node, g=g: n.apply([g], False)) == 0, type(node)


@needs_c
def test_a_stale_input_saved_as_input_raises_the_python_error():
    w = _updated(np.ones((3, 2)))
    y = og.tensor(np.ones((4, 3))) @ w
    node = y._node
    g = og.tensor(np.ones((4, 2)))
    node.apply([g], False)
    with og.no_grad():
        w.add_(og.tensor(np.ones((3, 2))))  # version 2, saved at 1
    with pytest.raises(RuntimeError, match="saved at version 1 and is now at version 2"):
        node.apply([g], False)
    _compare(node, g)  # (the same error)


@needs_c
def test_a_tensor_with_a_plain_counter_at_zero_is_unpacked_in_c():
    x = og.tensor(np.linspace(-1, 1, 6).reshape(2, 3), requires_grad=True)
    x[0]  # a view: x gets a VersionCounter, still at 0
    assert type(x._vc) is VersionCounter and x._vc.value == 0
    w = og.tensor(np.linspace(0, 1, 12).reshape(3, 4), requires_grad=True)
    y = x @ w
    node = y._node
    assert node.x is x
    g = og.tensor(np.ones((2, 4)))
    node.apply([g], False)
    assert _python_calls(lambda: node.apply([g], False)) == 0
    _compare(node, g)


@needs_c
def test_other_saved_kinds_and_patched_classes_go_to_the_python_method(monkeypatch):
    from opgrad.runtime import dlpack

    w = _updated(np.ones((3, 2)))
    y = og.tensor(np.ones((4, 3))) @ w
    node = y._node
    g = og.tensor(np.ones((4, 2)))
    node.apply([g], False)
    assert _python_calls(lambda: node.apply([g], False)) == 0
    calls = []
    original = TW._Input.unpack_data

    def counted(self: Any, n: Any) -> Any:
        calls.append(1)
        return original(self, n)

    monkeypatch.setattr(TW._Input, "unpack_data", counted)
    # tensor_wrapper.unpack_data reads an _Input inline (as it reads a Tensor and an _Output),
    # never through the method: the patched method is not called, and the driver keeps the node
    assert _python_calls(lambda: node.apply([g], False)) == 0 and calls == []
    monkeypatch.undo()
    assert _python_calls(lambda: node.apply([g], False)) == 0
    # a watched counter (memory shared with another library): its `value` is a property
    dlpack.watch(w)
    assert type(w._vc) is not VersionCounter
    assert _python_calls(lambda: node.apply([g], False)) == 1
    _compare(node, g)
    # an `_Input` around a Tensor subclass

    class Sub(Tensor):
        __slots__ = ()

    v = _updated(np.ones((3, 2)))
    v.__class__ = Sub
    node2 = (og.tensor(np.ones((4, 3))) @ v)._node
    assert type(node2.y) is TW._Input
    assert _python_calls(lambda: node2.apply([g], False)) == 1
    _compare(node2, g)


# --- the kernels' common cases ------------------------------------------------------------------


def _matmul_cases() -> Iterator[tuple[tuple[int, ...], tuple[int, ...], bool, bool]]:
    yield (5, 3), (3, 4), False, False  # the C case
    yield (3,), (3, 4), False, False  # 1-d
    yield (5, 3), (3,), False, False
    yield (2, 5, 3), (3, 4), False, False  # batched
    yield (2, 5, 3), (2, 3, 4), False, False
    yield (3, 5), (3, 4), True, False  # transposes
    yield (5, 3), (4, 3), False, True


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("case", list(_matmul_cases()))
def test_matmul_grad_gives_the_python_kernels_gradients(dtype, case):
    xs, ys, tx, ty = case
    rng = np.random.default_rng(2)
    for updated in (False, True):
        x = og.tensor(rng.standard_normal(xs).astype(dtype), requires_grad=True)
        w = (_updated if updated else lambda a: og.tensor(a, requires_grad=True))(
            rng.standard_normal(ys).astype(dtype)
        )
        y = og.matmul(x, w, transpose_x=tx, transpose_y=ty)
        node = y._node
        g = _grad_like(node, rng)
        for _ in _each_needs(node, g):
            if DRIVEN and updated:
                c_case = len(xs) == len(ys) == 2 and not tx and not ty
                assert _kernel_calls(lambda n=node, g=g: n.apply([g], False)) == (0 if c_case else 1)
                assert _python_calls(lambda n=node, g=g: n.apply([g], False)) == 0


@needs_c
def test_matmul_grad_of_mixed_dtypes_and_strided_gradients():
    rng = np.random.default_rng(3)
    x = og.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    w = og.tensor(rng.standard_normal((3, 5)), requires_grad=True)
    node = og.matmul(x, w)._node
    g = og.tensor(rng.standard_normal((5, 4)).T)  # a transposed (strided) gradient: the C case
    node.apply([g], False)
    assert _kernel_calls(lambda: node.apply([g], False)) == 0
    _compare(node, g)
    node.x = og.tensor(rng.standard_normal((4, 3)).astype(np.float32))  # saved arrays of two dtypes
    assert _kernel_calls(lambda: node.apply([g], False)) == 1
    _compare(node, g)
    node.x = og.tensor(x._data)
    g32 = og.tensor(rng.standard_normal((4, 5)).astype(np.float32))  # the gradient's dtype is not theirs
    assert _kernel_calls(lambda: node.apply([g32], False)) == 1
    _compare(node, g32)


_ADD_SHAPES = [
    ((4, 3), (4, 3), True),  # the gradient itself (both)
    ((4, 3), (3,), True),  # a bias added to each row
    ((2, 4, 3), (4, 3), True),  # summed over the first dimension
    ((4, 3), (1, 3), False),  # the rest: unbroadcast (the Python kernel)
    ((4, 3), (4, 1), False),
    ((4, 3), (), False),
    ((2, 4, 3), (3,), False),
    ((3,), (4, 3), False),
    ((3,), (3,), True),
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("xs, ys, c_case", _ADD_SHAPES)
def test_add_grad_gives_the_python_kernels_gradients(dtype, xs, ys, c_case):
    rng = np.random.default_rng(4)
    x = og.tensor(rng.standard_normal(xs).astype(dtype), requires_grad=True)
    b = og.tensor(rng.standard_normal(ys).astype(dtype), requires_grad=True)
    node = (x + b)._node
    g = _grad_like(node, rng)
    for want in _each_needs(node, g):
        if DRIVEN:
            gs = g.shape
            taken = (not want[0] or xs == gs) and (
                not want[1] or ys in (gs, gs[1:] if len(gs) >= 2 else None)
            )
            assert taken == c_case or not all(want)
            assert _kernel_calls(lambda n=node: n.apply([g], False)) == (0 if taken else 1), want


@needs_c
def test_add_grad_of_mixed_dtypes_goes_to_the_python_kernel():
    x = og.tensor(np.ones((4, 3)), requires_grad=True)
    b = og.tensor(np.ones(3), requires_grad=True)
    node = (x + b)._node
    g = og.tensor(np.ones((4, 3)))
    node.apply([g], False)
    assert _kernel_calls(lambda: node.apply([g], False)) == 0
    for slot in ("x", "y"):  # a saved dtype that is not the gradient's
        saved = getattr(node, slot)
        setattr(node, slot, TW.TensorWrapper.meta_of(og.tensor(np.ones(saved.shape, dtype=np.float32))))
        assert _kernel_calls(lambda: node.apply([g], False)) == 1
        _compare(node, g)
        setattr(node, slot, saved)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4,), (5, 3), (32, 128), (2, 3, 50), (257,), (256,), ()])
def test_tanh_grad_gives_the_python_kernels_gradients(dtype, shape):
    rng = np.random.default_rng(5)
    x = og.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)
    node = og.tanh(x)._node
    g = _grad_like(node, rng)
    node.apply([g], False)
    _compare(node, g)
    if DRIVEN:
        assert _kernel_calls(lambda: node.apply([g], False)) == (0 if shape else 1)
    if len(shape) == 2:  # a gradient of another layout: not into t
        gt = og.tensor(np.ascontiguousarray(g._data.T).T)
        _compare(node, gt)
        r = node.apply([gt], False)[0]._data
        assert r.strides == python_apply(N.TanhGradNode)(node, [gt], False)[0]._data.strides


@needs_c
def test_tanh_grad_of_other_dtypes_goes_to_the_python_kernel():
    x = og.tensor(np.linspace(-1, 1, 6) + 0.5j, requires_grad=True)
    node = og.tanh(x)._node
    g = og.tensor(np.ones(6, dtype=np.complex128))
    node.apply([g], False)
    _compare(node, g)
    out = og.tensor(np.linspace(-1, 1, 6), requires_grad=True)
    node = og.tanh(out)._node
    g32 = og.tensor(np.ones(6, dtype=np.float32))  # float32 gradient, float64 output
    node.apply([g32], False)
    assert _kernel_calls(lambda: node.apply([g32], False)) == 0  # (tanh_grad takes mixed dtypes)
    _compare(node, g32)


# --- errors, patched tables, reference counts ---------------------------------------------------


@needs_c
@pytest.mark.parametrize("exc", [ValueError("bad"), TypeError("worse"), KeyError("other")])
def test_a_replaced_kernel_runs_and_its_errors_are_the_python_methods(exc, monkeypatch):
    rng = np.random.default_rng(6)
    x = og.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    w = _updated(rng.standard_normal((3, 2)))
    b = og.tensor(np.zeros(2), requires_grad=True)
    y = og.tanh(x @ w + b)
    add = y._node._next0
    cases = ((y._node, N._k_tanh_grad), (add, N._k_add_grad), (add._next0, N._k_matmul_grad))
    g = og.tensor(np.ones((4, 2)))
    for node, table in cases:
        node.apply([g], False)
        kernel = table[np.ndarray]
        seen: list[int] = []

        def raising(*args: Any, e: Exception = exc) -> Any:
            raise e

        def wrapped(*args: Any, k: Any = kernel, seen: list[int] = seen) -> Any:
            seen.append(1)
            return k(*args)

        monkeypatch.setitem(table, np.ndarray, raising)
        same_outcome(
            lambda n=node: n.apply([g], False),
            lambda n=node: python_apply(type(n))(n, [g], False),
            g._data,
            g._data,
        )
        monkeypatch.setitem(table, np.ndarray, wrapped)
        _compare(node, g)
        assert seen == [1, 1]  # the replaced kernel runs on both paths
        monkeypatch.setitem(table, np.ndarray, kernel)
        assert _kernel_calls(lambda n=node: n.apply([g], False)) == 0


@needs_c
def test_reference_counts_do_not_leak_and_gradients_die():
    rng = np.random.default_rng(7)
    x = og.tensor(rng.standard_normal((8, 5)))
    w = _updated(rng.standard_normal((5, 300)))
    b = _updated(rng.standard_normal(300))
    y = og.tanh(x @ w + b)
    small = og.tanh(og.tensor(np.ones(3), requires_grad=True))
    nodes = [*graph_nodes([y]), small._node]
    grads = {id(n): og.tensor(rng.standard_normal(n._shape)) for n in nodes}
    for n in nodes:
        n.apply([grads[id(n)]], False)
    watched = [*nodes, x, w, b, x._data, w._data, b._data, w._vc, *grads.values()]
    watched += [N.MatmulGradNode, N.AddGradNode, N.TanhGradNode, N._k_matmul_grad[np.ndarray]]
    watched += [N._k_add_grad[np.ndarray], N._k_tanh_grad[np.ndarray], np.dtype("float64"), True, False]
    watched += [TW._Input, np.add.reduce, np.multiply, np.subtract]

    def calls() -> tuple[Tensor, ...]:
        outs = [t for n in nodes for t in n.apply([grads[id(n)]], False) if t is not None]
        return tuple(t for t in outs if not any(t._data is g._data for g in grads.values()))

    assert_no_leaks(watched, calls)


# --- whole backward passes ----------------------------------------------------------------------


def _mlp_steps(dtype: Any, steps: int = 3) -> list[bytes]:
    rng = np.random.default_rng(8)
    sizes = [(6, 16), (16,), (16, 16), (16,), (16, 4), (4,)]
    params = [og.tensor((rng.standard_normal(s) * 0.3).astype(dtype), requires_grad=True) for s in sizes]
    w1, b1, w2, b2, w3, b3 = params
    out = []
    for i in range(steps):
        x = og.tensor(rng.standard_normal((8, 6)).astype(dtype))
        labels = og.tensor(rng.integers(0, 4, 8))
        h = og.tanh(x @ w1 + b1)
        h = og.tanh(h @ w2 + b2)
        loss = og.nn.functional.cross_entropy(h @ w3 + b3, labels)
        loss.backward()
        out += [p.grad._data.tobytes() for p in params]
        with og.no_grad():
            for p in params:
                p.subtract_(p.grad * 0.1)
                p.grad = None
        out += [p._data.tobytes() for p in params]
        if i == steps - 1:  # and the second order through the updated parameters (Python)
            h = og.tanh(x @ w1 + b1)
            loss = og.nn.functional.cross_entropy(og.tanh(h @ w2 + b2) @ w3 + b3, labels)
            first = og.grad(loss, params, create_graph=True)
            second = og.grad(sum((g * g).sum() for g in first), params)
            out += [g._data.tobytes() for g in (*first, *second)]
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mlp_steps_are_the_python_methods(dtype):
    c = _mlp_steps(dtype)
    with python_methods():
        py = _mlp_steps(dtype)
    assert c == py


@needs_c
def test_the_mlp_backward_runs_no_python_apply_nor_kernel():
    rng = np.random.default_rng(9)
    params = [_updated(rng.standard_normal(s).astype(np.float32)) for s in [(6, 16), (16,), (16, 4), (4,)]]
    w1, b1, w2, b2 = params
    x = og.tensor(rng.standard_normal((8, 6)).astype(np.float32))

    def step() -> None:
        loss = (og.tanh(x @ w1 + b1) @ w2 + b2).sum()
        loss.backward()

    step()
    assert _python_calls(step) == 0 and _kernel_calls(step) == 0


@needs_c
def test_create_graph_goes_to_the_python_method():
    w = _updated(np.linspace(-1, 1, 6).reshape(3, 2))
    node = (og.tensor(np.ones((4, 3))) @ w)._node
    g = og.tensor(np.ones((4, 2)), requires_grad=True)
    node.apply([g], False)
    assert _python_calls(lambda: node.apply([g], True)) == 1
    c, py = node.apply([g], True), python_apply(N.MatmulGradNode)(node, [g], True)
    assert c[1].requires_grad and c[1]._data.tobytes() == py[1]._data.tobytes()


# --- finite differences (float64) ---------------------------------------------------------------


def _numeric(f: Callable[[], float], a: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        old = a[i]
        a[i] = old + eps
        hi = f()
        a[i] = old - eps
        lo = f()
        a[i] = old
        grad[i] = (hi - lo) / (2 * eps)
    return grad


def test_the_c_cases_match_finite_differences():
    rng = np.random.default_rng(10)
    xa, wa, ba = rng.standard_normal((4, 3)), rng.standard_normal((3, 5)), rng.standard_normal(5)
    ca = rng.standard_normal((4, 5))
    x = og.tensor(xa, requires_grad=True)
    w, b = _updated(wa), _updated(ba)

    def loss_np() -> float:
        return float((np.tanh(xa @ wa + ba) * ca).sum())

    def step():
        return (og.tanh(x @ w + b) * og.tensor(ca)).sum()

    step().backward()  # (a first pass: the kernels' C cases are set up on first use)
    for t in (x, w, b):
        t.grad = None
    loss = step()
    # with the C build, the three kernels' C cases are what ran (no Python kernel call)
    assert _kernel_calls(loss.backward) == (0 if _accel.ACTIVE else 3)  # (w and b updated by zeros)
    for t, a in ((x, xa), (w, wa), (b, ba)):
        np.testing.assert_allclose(t.grad._data, _numeric(loss_np, a), rtol=1e-6, atol=1e-8)


@needs_c
def test_a_rebound_name_of_a_kernels_module_sends_it_to_the_python_kernel(monkeypatch):
    w = _updated(np.linspace(-1, 1, 6).reshape(3, 2))
    b = og.tensor(np.zeros(2), requires_grad=True)
    y = og.tanh(og.tensor(np.ones((4, 3))) @ w + b)
    nodes = [y._node, y._node._next0, y._node._next0._next0]  # tanh, add, matmul
    g = og.tensor(np.linspace(0, 1, 8).reshape(4, 2))
    for n in nodes:
        n.apply([g], False)
        assert _kernel_calls(lambda n=n: n.apply([g], False)) == 0
    seen: list[str] = []

    def spy(module: Any, name: str) -> None:
        value = getattr(module, name)
        if callable(value):
            monkeypatch.setattr(module, name, lambda *a, v=value: seen.append(name) or v(*a))
        else:
            monkeypatch.setattr(module, name, np.asarray(2.0) if name.startswith("_ONE") else value)

    for node, module, name in (
        (nodes[2], linalg, "_matmul_grad"),
        (nodes[1], binary, "_ADD_REDUCE"),
        (nodes[0], elementwise, "_MULTIPLY"),
        (nodes[0], elementwise, "_ONE_F64"),
    ):
        spy(module, name)
        assert _kernel_calls(lambda n=node: n.apply([g], False)) == 1
        _compare(node, g)
        monkeypatch.undo()
        assert _kernel_calls(lambda n=node: n.apply([g], False)) == 0
    # (three calls each: the count above, then both paths of _compare; tanh_grad multiplies twice)
    assert seen == ["_matmul_grad"] * 3 + ["_ADD_REDUCE"] * 3 + ["_MULTIPLY"] * 6
