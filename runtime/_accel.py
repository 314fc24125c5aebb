"""Chooses between the pure-Python hot primitives and their optional C versions.

`runtime/_speedups.c` holds exact C equivalents of a few functions on every recorded op's
path (`grad_node.recorded`, `TensorWrapper.of_output`, `of_edge` and `meta_of`), and a C
driver for the generated ops and grad ops of one plain body shape (`ops`, below). Pure Python
is the default install and the fallback: the C versions are bound only when the extension
was built in place (`python tools/build_speedups.py`) and OPGRAD_PURE is unset or empty.
A build older than `_speedups.c` beside it, or one that does not fit the classes it reads
(their slots changed), is not used: opgrad warns and runs pure Python. The modules that
define the primitives call the functions below once, at the end of their import; each C
function calls the Python one it replaces for any case it does not take (subclasses, hooks,
anomaly mode, keyword arguments).
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

_speedups: Any
try:
    if os.environ.get("OPGRAD_PURE"):
        raise ImportError("OPGRAD_PURE is set")
    if sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11):
        # the C file reads CPython 3.11's object layouts (tools/build_speedups.py builds it only there)
        raise ImportError("the C primitives are written for CPython 3.11")
    from opgrad.runtime import _speedups  # type: ignore[attr-defined, no-redef]
except ImportError:
    _speedups = None


def _not_used(why: str) -> None:
    global _speedups, ACTIVE
    _speedups, ACTIVE = None, False
    warnings.warn(
        f"opgrad: runtime/_speedups {why}; running pure Python (rebuild: python tools/build_speedups.py)",
        RuntimeWarning,
        stacklevel=3,
    )


_SOURCE = Path(__file__).with_name("_speedups.c")
if _speedups is not None and _SOURCE.is_file():  # a checkout: the build must be of this source
    if hashlib.sha256(_SOURCE.read_bytes()).hexdigest()[:16] != _speedups.SOURCE_SHA:
        _not_used("was built from another version of _speedups.c")

ACTIVE = _speedups is not None  # whether the C versions are in use
PURE: dict[str, Callable[..., Any]] = {}  # the Python functions the C ones replaced, by name
_FLOAT_DTYPES = tuple(np.dtype(name) for name in ("float16", "float32", "float64"))  # the drivers' dtypes
# each generated ops module's table of the ops `ops` may replace, by module name
OPS_TABLES: dict[str, list[tuple[Any, ...]]] = {}
NUMBER_OPS_TABLES: dict[str, list[tuple[Any, ...]]] = {}  # (and those of its ops with number arguments)
INPLACE_OPS_TABLES: dict[str, list[tuple[str, str]]] = {}  # (and those of its in-place ops)


def recorded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`grad_node.recorded`, or its C version (bound to `fn`'s module)."""
    if _speedups is None:
        return fn
    try:
        c_fn: Callable[..., Any] = _speedups.setup_recorded(fn)
    except (TypeError, AttributeError) as e:  # the classes' slots are not the ones it reads
        _not_used(f"does not fit grad_node ({e})")
        return fn
    PURE["recorded"] = fn
    return c_fn


def wrappers(namespace: dict[str, Any]) -> None:
    """Give `TensorWrapper` (in tensor_wrapper's `namespace`) the C `of_output`, `of_edge`
    and `meta_of`."""
    if _speedups is None:
        return
    tw = namespace["TensorWrapper"]
    names = ("of_output", "of_edge", "meta_of")
    try:
        c_fns = _speedups.setup_wrappers(namespace)
    except (TypeError, AttributeError) as e:
        _not_used(f"does not fit tensor_wrapper ({e})")  # (recorded stays the C one)
        return
    for name, c_fn in zip(names, c_fns, strict=True):
        PURE[name] = getattr(tw, name)
        setattr(tw, name, staticmethod(c_fn))


def ops(
    namespace: dict[str, Any],
    table: list[tuple[Any, ...]],
    number_table: Sequence[tuple[Any, ...]] = (),
    inplace_table: Sequence[tuple[str, str]] = (),
) -> None:
    """Replace each function of a generated module (ops.py, grad_ops.py) that `table`
    lists (codegen/plan_fast.py: the ops of one plain body shape) by its C version, which
    runs that body's common case and calls the function (its `__wrapped__`) for everything
    else; `number_table`: the same for the ops of that shape that also take number arguments
    (`pow(x, y)`), whose rows end with how many; `inplace_table`: (name, kernel table) of the
    in-place ops whose body starts with the direct write (`write_into`), which their C version
    runs when nothing is recorded. Nothing without the C primitives (pure Python, or
    `recorded` and the wrappers not bound)."""
    OPS_TABLES[namespace["__name__"]] = table
    NUMBER_OPS_TABLES[namespace["__name__"]] = list(number_table)
    INPLACE_OPS_TABLES[namespace["__name__"]] = list(inplace_table)
    table = [*table, *number_table]
    if _speedups is None or "recorded" not in PURE or "of_output" not in PURE:
        return
    try:
        context = _speedups.setup_ops(namespace, _FLOAT_DTYPES)  # one per module (a test spec has its own)
        made = {row[0]: _speedups.op(context, namespace[row[0]], row) for row in table}
        made |= {row[0]: _speedups.inplace_op(context, namespace[row[0]], row) for row in inplace_table}
    except (TypeError, ValueError, AttributeError) as e:  # this module keeps its Python functions
        _keeps_python(namespace.get("__name__"), "op driver", "its ops run as Python functions", e)
        return
    namespace.update(made)


def engine_loop(namespace: dict[str, Any]) -> None:
    """Replace `run_backward` and `run_grad` in engine_loop (its `namespace`) by the C loop,
    which calls engine_loop's Python helpers (read from `namespace` at each use) for every
    case it does not run inline, and the Python `run_backward` for arguments of other types.
    Nothing without the C primitives (or without `recorded`, whose setup reads the node layout)."""
    if _speedups is None or "recorded" not in PURE:
        return
    try:
        c_fn = _speedups.setup_engine_loop(namespace)
    except (TypeError, AttributeError) as e:
        _keeps_python("engine_loop", "loop", "it runs in Python", e)
        return
    PURE["run_backward"] = namespace["run_backward"]
    namespace["run_backward"] = namespace["run_grad"] = c_fn


def engine_count(namespace: dict[str, Any]) -> None:
    """Replace `_count_deps` in engine (its `namespace`: the dependency count's walk) by its C
    version, which calls the Python one for blocked edges (no_grad_vars). Only with the C loop
    bound (`engine_loop`, above)."""
    if _speedups is None or "run_backward" not in PURE:
        return
    try:
        c_fn = _speedups.setup_count_deps(namespace["_count_deps"])
    except (TypeError, AttributeError) as e:
        _keeps_python("engine's _count_deps", "dependency walk", "it runs in Python", e)
        return
    PURE["_count_deps"] = namespace["_count_deps"]
    namespace["_count_deps"] = c_fn


# each generated nodes module's table of the classes `nodes` may give a C `apply`, by module name
NODES_TABLES: dict[str, list[tuple[Any, ...]]] = {}


def nodes(namespace: dict[str, Any], table: list[tuple[Any, ...]]) -> None:
    """Give each GradNode class of a generated nodes.py that `table` lists
    (codegen/plan_fast_nodes.py: the first-order `apply` of one plain kernel shape) a C
    `apply`, which runs that path's common case and calls the Python method (its
    `__wrapped__`) for everything else (create_graph among it). Nothing without the C
    primitives (pure Python, or `recorded` and the wrappers not bound)."""
    NODES_TABLES[namespace["__name__"]] = table
    if _speedups is None or "recorded" not in PURE or "of_output" not in PURE:
        return
    try:
        made = {
            row[0]: _speedups.node_apply(
                namespace[row[0]],
                namespace[row[0]].__dict__["apply"],
                row,
                _FLOAT_DTYPES,
                namespace["wrap"],  # runtime.tensor's (the C path makes what it makes)
                namespace["unpack_data"],  # runtime.tensor_wrapper's (the C path reads its common kinds)
            )
            for row in table
        }
    except (TypeError, ValueError, AttributeError, KeyError) as e:  # the classes keep their Python apply
        _keeps_python(namespace.get("__name__"), "node driver", "its nodes' apply stay Python methods", e)
        return
    for name, c_apply in made.items():
        namespace[name].apply = c_apply


# each generated tensor_methods module's table of the methods `methods` may replace, by module name
METHOD_TABLES: dict[str, list[tuple[Any, ...]]] = {}


def methods(cls: type, table: list[tuple[Any, ...]]) -> None:
    """Replace each method of `cls` (generated/tensor_methods.py's TensorMethods) that
    `table` lists (codegen/plan_fast.py's fast_methods: `return <module>.<op>(self[, other])`,
    or `(other, self)` for a reflected operator, calling an op of the driver's table) by its C
    version, which runs the op's C common case without the method's frame when that name
    still holds the op's C version, and calls the method (its `__wrapped__`) for everything
    else. Nothing without the C primitives."""
    METHOD_TABLES[cls.__module__] = table
    if _speedups is None:
        return
    try:
        made = {row[0]: _speedups.method(cls.__dict__[row[0]], row) for row in table}
    except (TypeError, ValueError, KeyError) as e:  # the class keeps its Python methods
        _keeps_python(cls.__qualname__, "op driver", "its methods run as Python functions", e)
        return
    for name, method in made.items():
        setattr(cls, name, method)


def _keeps_python(where: object, part: str, outcome: str, e: Exception) -> None:
    """Warn, at the call of the function above that binds `part` of the C primitives for
    `where` (a module's last line), that `where` does not fit it and keeps Python
    (`outcome`); the rest of the C primitives stay bound."""
    warnings.warn(
        f"opgrad: {where} does not fit runtime/_speedups' {part} ({e}); {outcome}",
        RuntimeWarning,
        stacklevel=3,
    )


def grad_property(cls: type) -> None:
    """Replace `cls.grad` (runtime/tensor.py's property) by its C version, which reads a
    leaf's `_grad` and sets `grad = None` (no `_extra`) without the property's frames, and
    calls the property for everything else. Nothing without the C primitives."""
    if _speedups is None:
        return
    prop = cls.__dict__["grad"]
    try:
        c_prop = _speedups.grad_property(prop)
    except TypeError as e:  # the class keeps its property
        _keeps_python(cls.__qualname__, "grad property", "it keeps its Python property", e)
        return
    PURE["grad"] = prop
    setattr(cls, "grad", c_prop)  # noqa: B010


def leaf_edges(namespace: dict[str, Any]) -> None:
    """Replace `accumulator_of` and `edge_to` in grad_node (its `namespace`) by their C
    versions (the Python ones are their fallbacks); the C accumulator_of also makes a leaf's
    AccumulateGrad in C once grad_holder has called `accumulators`."""
    if _speedups is None or "recorded" not in PURE:
        return
    try:
        c_fns = _speedups.setup_leaf_edges(namespace["accumulator_of"], namespace["edge_to"])
    except (TypeError, AttributeError) as e:
        _keeps_python("grad_node", "leaf edges", "accumulator_of and edge_to run in Python", e)
        return
    for name, c_fn in zip(("accumulator_of", "edge_to"), c_fns, strict=True):
        PURE[name] = namespace[name]
        namespace[name] = c_fn


def accumulators(module: Any) -> None:
    """Let the C `accumulator_of` (and `recorded`'s edges to leaves) make grad_holder's
    `AccumulateGrad` (`module`: grad_holder) in C: the slots its `__init__` sets, to the same
    objects. Nothing without the C accumulator_of."""
    if _speedups is None or "accumulator_of" not in PURE:
        return
    try:
        _speedups.setup_accumulators(module)
    except (TypeError, AttributeError) as e:
        _keeps_python("grad_holder's AccumulateGrad", "accumulators", "it is made in Python", e)


def input_wrapper(namespace: dict[str, Any]) -> None:
    """Give `TensorWrapper` (in tensor_wrapper's `namespace`) the C `of_input`, which the C
    `of_edge` then runs for an input with a version counter. Only with the C wrappers bound."""
    if _speedups is None or "of_edge" not in PURE:
        return
    tw = namespace["TensorWrapper"]
    try:
        c_static = _speedups.setup_inputs(namespace)
    except (TypeError, AttributeError) as e:
        _keeps_python("tensor_wrapper", "of_input", "it runs in Python", e)
        return
    PURE["of_input"] = tw.of_input
    setattr(tw, "of_input", c_static)  # noqa: B010


def tensor_wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`runtime.tensor.wrap`, or its C version (bound to `fn`, its fallback)."""
    if _speedups is None:
        return fn
    try:
        c_fn: Callable[..., Any] = _speedups.setup_wrap(fn)
    except (TypeError, AttributeError) as e:
        _keeps_python("runtime.tensor's wrap", "wrap", "it runs in Python", e)
        return fn
    PURE["wrap"] = fn
    return c_fn


def node_kernel(name: str, kernel: Callable[..., Any]) -> None:
    """Register the Python grad kernel `name` (matmul_grad, add_grad, tanh_grad) with the C
    node driver, which runs its common case in C when a node's kernel table still gives this
    very function and the names of its module that case reads are still the ones read here
    (`_speedups.c`, the nodeg section), and calls it for everything else. Nothing without
    the C primitives."""
    if _speedups is None:
        return
    try:
        _speedups.node_kernel(name, kernel)
    except (TypeError, ValueError) as e:  # the kernel runs as Python
        _keeps_python(name, "node driver", "it runs as a Python function", e)


def cross_entropy() -> tuple[Callable[..., Any] | None, Callable[..., Any] | None]:
    """The C versions of cross_entropy's plain path (runtime/kernels/generic/nn.py:
    `cross_entropy_and_prob`'s and `cross_entropy_grad_saved`'s common case; each returns None
    for any other call, and then the kernel's Python runs), or (None, None) without the C
    primitives. They run only once the engine loop's setup has checked the arrays' fields."""
    if _speedups is None:
        return None, None
    try:
        _speedups.setup_cross_entropy(
            np.dtype(np.float32),
            np.dtype(np.float64),
            tuple(np.dtype(c) for c in "bhilq"),  # (the native integer dtypes; int64 is two of them)
            tuple(np.dtype(c) for c in "BHILQ"),
            np.exp,
            np.log,
            np.empty_like,
            np.empty,
            np.empty((3, 4), np.float32)[:, 1:3],
        )
    except TypeError as e:
        _keeps_python("cross_entropy's kernels", "plain path", "they run in Python", e)
        return None, None
    return _speedups.cross_entropy_plain, _speedups.cross_entropy_grad_plain


def engine_backward(namespace: dict[str, Any]) -> None:
    """Replace `backward` in engine (its `namespace`) by its C version, which runs the lean
    one-loss path (Tensor.backward of a loss: seed, dependency count, holder, grad mode and
    the pass's callbacks, then the loop) and calls the Python `backward` for every other call
    or when one of the names that path uses was replaced; and `Tensor.backward` by its C
    version (its one statement, `later.engine.backward(...)`, without the method's frame).
    Only with the C loop and dependency count bound (`engine_loop`, `engine_count`, above)."""
    if _speedups is None or "_count_deps" not in PURE:
        return
    tensor = namespace["Tensor"]
    python_fns = (namespace["backward"], tensor.__dict__["backward"])
    try:
        c_fn = _speedups.setup_engine_backward(namespace)
        c_method = _speedups.setup_tensor_backward(python_fns[1])  # (an instancemethod)
    except (TypeError, AttributeError) as e:
        _keeps_python("engine", "lean backward", "engine.backward and Tensor.backward stay Python", e)
        return
    PURE["backward"], PURE["Tensor.backward"] = python_fns
    namespace["backward"] = c_fn
    tensor.backward = c_method
