"""og.testing: finite-difference checks of gradients (gradcheck) and of their gradients
(gradgradcheck). Inputs that require grad must be float64 (float32 central differences
are too coarse; a lower precision raises ValueError).

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


def _evaluate(fn: Callable[..., Any], inputs: Sequence[Any]) -> list[np.ndarray]:
    # Grad mode stays on: fn may itself differentiate (gradgradcheck's first-order fn).
    return [np.array(o.numpy(), dtype=np.float64) for o in _outputs(fn(*inputs))]


def _require_float64(op: str, what: str, inputs: Sequence[Any], diff: Sequence[int]) -> None:
    """Refuse lower-precision inputs: a central difference with eps=1e-6 in float32 is
    mostly rounding error, so a float32 check would fail correct gradients (or pass wrong
    ones). Raised, not warned, so a test cannot pass on noise."""
    for i in diff:
        if not isinstance(inputs[i], Tensor):
            raise TypeError(f"{op}: {what} {i} must be a Tensor, got {type(inputs[i]).__name__}")
        dtype = inputs[i].dtype
        if dtype != np.float64:
            raise ValueError(
                f"{op}: {what} {i} has dtype {dtype}; finite differences need float64 inputs "
                f"(pass x.cast('float64'), or build it with dtype='float64')"
            )


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
    diff_outs = [k for k, o in enumerate(outs) if o.requires_grad and o.dtype.kind == "f"]
    xs = [inputs[i] for i in diff]

    # Analytic Jacobian rows: one vector-Jacobian product per output element.
    analytic: dict[tuple[int, int], np.ndarray] = {}  # (output, input) -> (out.size, in.size)
    for k, out in enumerate(outs):
        for n, x in enumerate(xs):
            analytic[(k, n)] = np.zeros((out.size, x.size))
        if k not in diff_outs:
            continue
        for j in range(out.size):
            seed_arr = np.zeros(out.size)
            seed_arr[j] = 1.0
            seed_t = wrap(seed_arr.reshape(out.shape).astype(out.dtype))
            grads = _grad([out], xs, [seed_t], retain_graph=True, allow_unused=True)
            for n, g in enumerate(grads):
                if g is not None:
                    analytic[(k, n)][j] = np.asarray(g.numpy(), dtype=np.float64).reshape(-1)

    # Numerical Jacobian columns: central differences, one input element at a time.
    for n, i in enumerate(diff):
        x = inputs[i]
        flat = x._data.reshape(-1)  # a view: perturb in place, restore afterwards
        if not np.shares_memory(flat, x._data):
            raise ValueError(f"gradcheck: input {i} is not contiguous; pass a contiguous tensor")
        for e in range(x.size):
            orig = flat[e].copy()
            flat[e] = orig + eps
            plus = _evaluate(fn, inputs)
            flat[e] = orig - eps
            minus = _evaluate(fn, inputs)
            flat[e] = orig
            for k in range(len(outs)):
                numeric = (plus[k] - minus[k]).reshape(-1) / (2 * eps)
                ana = analytic[(k, n)][:, e]
                bad = np.abs(ana - numeric) > atol + rtol * np.abs(numeric)
                if bad.any():
                    j = int(np.argmax(bad))
                    where = np.unravel_index(e, x.shape) if x.ndim else ()
                    out_at = np.unravel_index(j, outs[k].shape) if outs[k].ndim else ()
                    return _fail(
                        raise_exception,
                        f"gradcheck: Jacobian mismatch for input {i} at element "
                        f"{tuple(int(v) for v in where)}, "
                        f"output {k} element {tuple(int(v) for v in out_at)}: analytic {ana[j]!r}, "
                        f"numeric {numeric[j]!r} (atol={atol}, rtol={rtol})",
                    )

    if check_directions and diff_outs:
        rng = np.random.default_rng(seed)
        us = [rng.standard_normal(x.shape) for x in xs]
        vs = [rng.standard_normal(outs[k].shape) for k in diff_outs]
        datas = [x._data for x in xs]
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
                analytic_vju += float(v.reshape(-1) @ analytic[(k, n)] @ u.reshape(-1))
        if abs(analytic_vju - numeric_vju) > atol + rtol * abs(numeric_vju):
            return _fail(
                raise_exception,
                "gradcheck: random-direction product v·J·u differs: "
                f"analytic {analytic_vju!r}, numeric {numeric_vju!r}",
            )
    return True


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
    outs = [o for o in outs if o.requires_grad and o.dtype.kind == "f"]
    if grad_outputs is not None:
        grad_outputs = list(grad_outputs)
        _require_float64("gradgradcheck", "grad_outputs", grad_outputs, range(len(grad_outputs)))
    else:
        rng = np.random.default_rng(seed)
        grad_outputs = [wrap(rng.standard_normal(o.shape).astype(o.dtype)) for o in outs]
        for g in grad_outputs:
            g.requires_grad = True
    n_in = len(inputs)

    def first_order(*args: Any) -> list[Tensor]:
        primal, gos = list(args[:n_in]), list(args[n_in:])
        xs = [primal[i] for i in diff]
        result = _outputs(fn(*primal))
        result = [o for o in result if o.requires_grad and o.dtype.kind == "f"]
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
