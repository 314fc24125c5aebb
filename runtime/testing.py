"""og.testing: finite-difference checks of gradients (gradcheck) and of their gradients
(gradgradcheck). Inputs that require grad must be float64 or complex128 (float32 central
differences are too coarse; a lower precision raises ValueError).

Complex inputs and outputs are checked as pairs of reals: each complex element is its real
and its imaginary part, perturbed one at a time, and each complex output element gives two
Jacobian rows, the gradients seeded with 1 (its real part) and with 1j (its imaginary part).
In PyTorch's convention the gradient of a real L with respect to z = a + ib is
dL/da + i dL/db, so its real and imaginary parts are those rows' entries.

gradcheck compares, for every input that requires grad, the analytic Jacobian (one
vector-Jacobian product per output element, through `og.grad`) with central differences
(two evaluations per input element), and also one random-direction product v·J·u, which
catches errors that cancel element by element. A mismatch raises GradcheckError naming the
input, the element, the output, and both values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.runtime.engine import grad as _grad
from opgrad.runtime.tensor import Tensor, wrap


class GradcheckError(AssertionError):
    """A gradient differs from its finite-difference estimate."""


def _outputs(result: Any) -> list[Tensor]:
    if isinstance(result, Tensor):
        return [result]
    if isinstance(result, (list, tuple)):
        return [r for r in result if isinstance(r, Tensor)]
    raise TypeError(
        f"gradcheck: fn must return a Tensor or a sequence of Tensors, got {type(result).__name__}"
    )


def _real_view(a: np.ndarray) -> np.ndarray:
    """A real array of a complex one's parts, interleaved (real, imaginary) per element; a real
    array as float64."""
    a = np.asarray(a)
    if a.dtype.kind == "c":
        return np.array(a, dtype=np.complex128).reshape(-1).view(np.float64)  # a copy: outputs may be views
    return np.array(a, dtype=np.float64).reshape(-1)


def _evaluate(fn: Callable[..., Any], inputs: Sequence[Any]) -> list[np.ndarray]:
    # Grad mode stays on: fn may itself differentiate (gradgradcheck's first-order fn).
    return [_real_view(o.numpy()) for o in _outputs(fn(*inputs))]


def _real_size(t: Tensor) -> int:
    return t.size * (2 if t.dtype.kind == "c" else 1)


def _require_float64(op: str, what: str, inputs: Sequence[Any], diff: Sequence[int]) -> None:
    """Refuse lower-precision inputs: a central difference with eps=1e-6 in float32 is
    mostly rounding error, so a float32 check would fail correct gradients (or pass wrong
    ones). Raised, not warned, so a test cannot pass on noise."""
    for i in diff:
        if not isinstance(inputs[i], Tensor):
            raise TypeError(f"{op}: {what} {i} must be a Tensor, got {type(inputs[i]).__name__}")
        dtype = inputs[i].dtype
        if dtype != np.float64 and dtype != np.complex128:
            raise ValueError(
                f"{op}: {what} {i} has dtype {dtype}; finite differences need float64 (or complex128) "
                f"inputs (pass x.cast('float64'), or build it with dtype='float64')"
            )


def _position(t: Tensor, e: int) -> str:
    """The element at real index e of t's realified data: `(1, 2)`, or `(1, 2) imag` for the
    imaginary part of a complex element."""
    part = ""
    if t.dtype.kind == "c":
        e, odd = divmod(e, 2)
        part = " imag" if odd else " real"
    where = np.unravel_index(e, t.shape) if t.ndim else ()
    return f"{tuple(int(v) for v in where)}{part}"


def _fail(raise_exception: bool, message: str) -> bool:
    if raise_exception:
        raise GradcheckError(message)
    return False


def gradcheck(
    fn: Callable[..., Any],
    inputs: Sequence[Any] | Tensor,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    check_directions: bool = True,
    seed: int = 0,
) -> bool:
    """True when fn's analytic gradients match central differences for every input that
    requires grad; otherwise raises GradcheckError (or returns False)."""
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not diff:
        raise ValueError("gradcheck: no input requires grad; set requires_grad=True on the inputs to check")
    _require_float64("gradcheck", "input", inputs, diff)
    outs = _outputs(fn(*inputs))
    diff_outs = [k for k, o in enumerate(outs) if o.requires_grad and o.dtype.kind in "fc"]
    xs = [inputs[i] for i in diff]

    # Analytic Jacobian rows: one vector-Jacobian product per (real part of an) output element.
    analytic: dict[tuple[int, int], np.ndarray] = {}  # (output, input) -> (real out size, real in size)
    for k, out in enumerate(outs):
        for n, x in enumerate(xs):
            analytic[(k, n)] = np.zeros((_real_size(out), _real_size(x)))
        if k not in diff_outs:
            continue
        parts = (1.0, 1j) if out.dtype.kind == "c" else (1.0,)
        for j in range(out.size):
            for p, unit in enumerate(parts):
                seed_arr = np.zeros(out.size, dtype=out.dtype)
                seed_arr[j] = unit
                seed_t = wrap(seed_arr.reshape(out.shape))
                grads = _grad([out], xs, [seed_t], retain_graph=True, allow_unused=True)
                for n, g in enumerate(grads):
                    if g is not None:
                        analytic[(k, n)][j * len(parts) + p] = _real_view(g.numpy())

    # Numerical Jacobian columns: central differences, one real input element at a time.
    for n, i in enumerate(diff):
        x = inputs[i]
        flat = x._data.reshape(-1)  # a view: perturb in place, restore afterwards
        if not np.shares_memory(flat, x._data):
            raise ValueError(f"gradcheck: input {i} is not contiguous; pass a contiguous tensor")
        if flat.dtype.kind == "c":
            flat = flat.view(np.float64)  # (real, imaginary) pairs
        for e in range(flat.size):
            orig = flat[e].copy()
            flat[e] = orig + eps
            plus = _evaluate(fn, inputs)
            flat[e] = orig - eps
            minus = _evaluate(fn, inputs)
            flat[e] = orig
            for k in range(len(outs)):
                numeric = (plus[k] - minus[k]) / (2 * eps)
                ana = analytic[(k, n)][:, e]
                bad = np.abs(ana - numeric) > atol + rtol * np.abs(numeric)
                if bad.any():
                    j = int(np.argmax(bad))
                    where = _position(x, e)
                    out_at = _position(outs[k], j)
                    return _fail(
                        raise_exception,
                        f"gradcheck: Jacobian mismatch for input {i} at element {where}, "
                        f"output {k} element {out_at}: analytic {ana[j]!r}, "
                        f"numeric {numeric[j]!r} (atol={atol}, rtol={rtol})",
                    )

    if check_directions and diff_outs:
        rng = np.random.default_rng(seed)
        us = [rng.standard_normal(_real_size(x)) for x in xs]
        vs = [rng.standard_normal(_real_size(outs[k])) for k in diff_outs]
        datas = [x._data.reshape(-1) for x in xs]  # views (gradcheck checked contiguity above)
        datas = [d.view(np.float64) if d.dtype.kind == "c" else d for d in datas]
        originals = [d.copy() for d in datas]
        for d, u in zip(datas, us, strict=True):
            d += (eps * u).astype(d.dtype)
        plus = _evaluate(fn, inputs)
        for d, o, u in zip(datas, originals, us, strict=True):
            d[...] = o - (eps * u).astype(d.dtype)
        minus = _evaluate(fn, inputs)
        for d, o in zip(datas, originals, strict=True):
            d[...] = o
        numeric_vju = sum(
            float(np.sum((plus[k] - minus[k]) / (2 * eps) * v)) for k, v in zip(diff_outs, vs, strict=True)
        )
        analytic_vju = 0.0
        for k, v in zip(diff_outs, vs, strict=True):
            for n, u in enumerate(us):
                analytic_vju += float(v @ analytic[(k, n)] @ u)
        if abs(analytic_vju - numeric_vju) > atol + rtol * abs(numeric_vju):
            return _fail(
                raise_exception,
                "gradcheck: random-direction product v·J·u differs: "
                f"analytic {analytic_vju!r}, numeric {numeric_vju!r}",
            )
    return True


def _random(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if np.dtype(dtype).kind == "c":
        return np.asarray(rng.standard_normal(shape) + 1j * rng.standard_normal(shape), dtype=dtype)
    return np.asarray(rng.standard_normal(shape), dtype=dtype)


def gradgradcheck(
    fn: Callable[..., Any],
    inputs: Sequence[Any] | Tensor,
    grad_outputs: Sequence[Tensor] | None = None,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    seed: int = 0,
) -> bool:
    """gradcheck of the gradient: checks second derivatives (through create_graph=True)
    with respect to the inputs and to the output gradients."""
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    _require_float64("gradgradcheck", "input", inputs, diff)
    outs = _outputs(fn(*inputs))
    outs = [o for o in outs if o.requires_grad and o.dtype.kind in "fc"]
    if grad_outputs is not None:
        grad_outputs = list(grad_outputs)
        _require_float64("gradgradcheck", "grad_outputs", grad_outputs, range(len(grad_outputs)))
    else:
        rng = np.random.default_rng(seed)
        grad_outputs = [wrap(_random(rng, o.shape, o.dtype)) for o in outs]
        for g in grad_outputs:
            g.requires_grad = True
    n_in = len(inputs)

    def first_order(*args: Any) -> list[Tensor]:
        primal, gos = list(args[:n_in]), list(args[n_in:])
        xs = [primal[i] for i in diff]
        result = _outputs(fn(*primal))
        result = [o for o in result if o.requires_grad and o.dtype.kind in "fc"]
        grads = _grad(result, xs, gos, create_graph=True, allow_unused=True)
        return [g for g in grads if g is not None]

    return gradcheck(
        first_order,
        [*inputs, *grad_outputs],
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        seed=seed,
    )
