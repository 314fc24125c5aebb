"""The kernel registry: one table keyed by (kernel name, backend).

A kernel is a pure array function. Generic kernels are written against the array module
(`xp`, NumPy or CuPy) and register for both backends; backend-specific kernels (CuPy fused
elementwise kernels, say) register for one and win there. Dispatch resolves a kernel from
the *type* of the input arrays, so the hot path is one dict look-up; the slow path explains
what is missing (the kernel's known backends) or wrong (arrays on different devices).

A kernel may also have an *into* variant (`register_into`), which an op with
`inplace_into: true` uses for its in-place form: `into(out, *kernel_args) -> bool` writes
exactly what `out[...] = kernel(*kernel_args)` would, straight into `out`, and returns True;
or it returns False, or raises, having written nothing (the caller then takes the general
path, which raises what it always raised). The variant belongs to one kernel function: a
backend override registered without one is never bypassed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from opgrad.runtime import device as _device

Kernel = Callable[..., Any]

# (kernel name, backend) -> kernel, as registered.
_BY_BACKEND: dict[tuple[str, str], Kernel] = {}
# kernel name -> {array type -> kernel}: the resolved cache dispatch reads (two plain
# look-ups are cheaper than building and hashing a (name, type) key per call). The inner
# dicts are never replaced, only emptied: generated modules hold them (`kernel_table`).
_BY_TYPE: dict[str, dict[type, Kernel]] = {}
# kernel -> its into variant (see the module docstring).
_INTO: dict[Kernel, Kernel] = {}


def register_kernel(name: str, backends: Iterable[str] = ("cpu", "cuda")) -> Callable[[Kernel], Kernel]:
    """Register a kernel under `name` for each backend in `backends`."""
    backends = tuple(backends)

    def decorate(fn: Kernel) -> Kernel:
        for backend in backends:
            _BY_BACKEND[(name, backend)] = fn
        for table in _BY_TYPE.values():  # resolved entries may now be stale
            table.clear()
        return fn

    return decorate


def register_into(kernel: Kernel) -> Callable[[Kernel], Kernel]:
    """Register the decorated function as `kernel`'s into variant (module docstring)."""

    def decorate(fn: Kernel) -> Kernel:
        _INTO[kernel] = fn
        return fn

    return decorate


def into_of(kernel: Kernel | None) -> Kernel | None:
    """`kernel`'s into variant, or None (no variant, or no kernel resolved yet)."""
    return _INTO.get(kernel) if kernel is not None else None


def unregister_kernel(name: str, backends: Iterable[str]) -> None:
    """Remove kernel `name` for `backends` (tests and plug-in backends use this)."""
    for backend in backends:
        _BY_BACKEND.pop((name, backend), None)
    for table in _BY_TYPE.values():  # resolved entries may now be stale
        table.clear()


def kernel_table(name: str) -> dict[type, Kernel]:
    """The resolved cache of kernel `name`: {array type -> kernel}, filled by `dispatch`.

    Generated code calls a one-array kernel through it, one dict look-up on the hot path:
    `(table.get(x.__class__) or dispatch(op, name, x))(x)`. The dict stays the same object
    for the life of the process (`register_kernel` empties it in place).
    """
    return _BY_TYPE.setdefault(name, {})


def kernel_backends(name: str) -> list[str]:
    """The backends `name` has a kernel for, sorted."""
    return sorted(b for (k, b) in _BY_BACKEND if k == name)


def has_kernel(name: str, backend: str) -> bool:
    return (name, backend) in _BY_BACKEND


def lookup(name: str, backend: str) -> Kernel:
    """The kernel registered for (name, backend), or a clear error."""
    fn = _BY_BACKEND.get((name, backend))
    if fn is None:
        have = kernel_backends(name)
        if not have:
            raise NotImplementedError(f"no kernel named {name!r} is registered for any backend")
        raise NotImplementedError(
            f"kernel {name!r} has no {backend!r} implementation; it is registered for: {', '.join(have)}"
        )
    return fn


def _resolve(op: str, name: str, arrays: tuple[Any, ...]) -> Kernel:
    types = []
    for a in arrays:
        if a is not None and type(a) not in types:
            types.append(type(a))
    backends = [_device.backend_of_type(t, op) for t in types]
    if len(set(backends)) > 1:
        described = ", ".join(_device.describe_array(a) for a in arrays if a is not None)
        raise RuntimeError(
            f"{op}: all tensor arguments must be on the same device, got {described}; "
            "move them with .to(device) first"
        )
    fn = lookup(name, backends[0])
    _BY_TYPE.setdefault(name, {})[types[0]] = fn
    return fn


def dispatch(op: str, name: str, *arrays: Any) -> Kernel:
    """The kernel `name` for the backend of `arrays` (None entries are skipped).

    `op` is only used in error messages.
    """
    cls = arrays[0].__class__
    if len(arrays) > 1:
        for a in arrays:
            if a.__class__ is not cls and a is not None:
                return _resolve(op, name, arrays)
    try:
        return _BY_TYPE[name][cls]
    except KeyError:  # not resolved yet (or NoneType first): the slow path, outside the handler
        pass
    return _resolve(op, name, arrays)


def kernel_error(op: str, exc: BaseException) -> BaseException:
    """What generated code raises when a kernel of `op` raised `exc` (TypeError, ValueError,
    OverflowError or MemoryError): an error that names `op`.

    NumPy's own messages (a bool array to a float op, an integer to a negative integer
    power, shapes that do not broadcast, "array is too big") do not say which op failed.
    A message that already names `op` is kept as it is, and so is an IndexError subclass
    (AxisError). Other subclasses (NumPy's UFuncTypeError) become their base class,
    OverflowError ValueError, and MemoryError RuntimeError (as PyTorch reports an
    allocation that fails). Generated code raises the result `from None`: the new message
    carries NumPy's.
    """
    message = str(exc)
    if isinstance(exc, MemoryError):
        return RuntimeError(f"{op}: the result is too large to allocate ({message or 'out of memory'})")
    if re.search(rf"\b{re.escape(op)}\b", message):
        return exc
    if isinstance(exc, OverflowError):
        return ValueError(f"{op}: {message}")
    if isinstance(exc, IndexError):
        return exc  # AxisError (a ValueError too): callers may catch it as IndexError
    if isinstance(exc, TypeError):  # also NumPy's UFuncTypeError family ("no loop for BoolDType")
        if "bool" in message.lower():
            return TypeError(f"{op}: a bool tensor is not supported here; cast it first (NumPy: {message})")
        return TypeError(f"{op}: {message}")
    return ValueError(f"{op}: {message}")


def kernel_results_error(op: str, declared: int, results: Any) -> RuntimeError:
    """What generated code raises when a kernel of `op` whose spec declares `declared`
    outputs did not return a tuple of that many arrays (before anything is recorded)."""
    if isinstance(results, tuple):
        got = f"{len(results)}"
    else:
        got = f"1 ({type(results).__name__}, not a tuple of {declared})"
    return RuntimeError(
        f"{op}: the YAML declares {declared} outputs, the kernel returned {got}; make the kernel "
        f"return one array per output, in the order of `output:`, or fix `output:`"
    )
