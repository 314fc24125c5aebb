"""Forward-mode state and tangents: what the generated ops read while a dual level is open.

A generated op checks `FORWARD.active` once after its kernel (one attribute read: the whole
cost of forward mode on the common path) and, when a level is open, calls its rule in
`generated/jvp.py`. A rule reads its inputs' tangents (`tangents`), computes the outputs'
tangents with ordinary ops between `pause_rules()` and `resume_rules()` (`with rule_scope():`
in hand-written code; forward mode paused, so a rule's own ops propagate nothing; grad mode
as the caller had it, so tangents are recorded for reverse mode and forward-over-reverse
works) and stores them with `set_tangent`.

Ops without a `jvp:` rule in ops.yaml use `derive`: the transpose ("double-vjp") trick. With
`u` a zero cotangent that requires grad, `g(u) = Jᵀu` is linear in u, so the gradient of
`<g(u), t>` with respect to u is `J t`. It costs the op's forward again, one backward with
create_graph and one backward of that backward: about 3 to 5 times the op alone.

A tangent is stored on the tensor as `(level, tangent)` in its `_dual` slot; it is visible only
while that level is open (level ids are never reused), and the level clears what it set when
it closes, except on the outputs of rules that took their kernel path (`set_output_tangent`:
a tangent kept as an array until read, not listed for the clean-up; invisible once the level
closes, freed with the output or when next read). Views get their tangents from view rules (so
a view's tangent is a view of its base's tangent), and an in-place op writes its new tangent
into the existing tangent's memory (`write_tangent`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opgrad.runtime.device import array_module
from opgrad.runtime.grad_mode import enable_grad, grad_enabled, no_grad
from opgrad.runtime.later import later
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.version import bump_version


class _Forward:
    """`active`: a dual level is open and rules should run; `level`: the open level's id
    (0: none); `set`: weak references to the tensors given a tangent at this level."""

    __slots__ = ("active", "level", "paused", "set", "outputs")

    def __init__(self) -> None:
        self.active = False
        self.level = 0
        self.paused = 0  # how many rule_scopes are open (they may nest)
        self.set: list[weakref.ref[Tensor]] = []
        # saved outputs' tangents by id of their array (held weakly): a node keeps a saved
        # output as its array alone and builds a new Tensor when create_graph unpacks it
        # (restore_tangent). Kept until the level closes.
        self.outputs: dict[int, tuple[weakref.ref[Any], Tensor]] = {}


FORWARD = _Forward()

# The class of the tangent a NumPy kernel path stores (`set_output_tangent`): a generated
# rule's kernel path reads `dual[1]` of that class at the open level itself, as
# `plain_tangent` would return it, without the call (~50 ns of a jvp op through tanh); any
# other tangent (a Tensor, a CuPy array, another level's) goes through `plain_tangent`.
KERNEL_TANGENT = np.ndarray


def tangent_of(t: Any) -> Tensor | None:
    """t's tangent at the open level, or None."""
    if not isinstance(t, Tensor):
        return None
    dual = t._dual
    if dual is None:
        return None
    if dual[0] != FORWARD.level:
        t._dual = None  # a closed level's tangent (`set_output_tangent`): freed now
        return None
    tangent = dual[1]
    if tangent.__class__ is not Tensor and not isinstance(tangent, Tensor):
        tangent = wrap(tangent)  # an array a kernel path stored: wrapped once, on first read
        t._dual = (dual[0], tangent)
    return tangent


def plain_tangent(t: Tensor) -> Any:
    """The array of t's tangent at the open level when nothing records it (a tangent that does
    not require grad, or the array a kernel path stored), else None: what a generated rule's
    kernel path reads (`JvpKernelPath`), without making a Tensor for it."""
    dual = t._dual
    if dual is None or dual[0] != FORWARD.level:
        return None
    tangent = dual[1]
    if tangent.__class__ is Tensor:
        return None if tangent._requires_grad else tangent._data
    return None if isinstance(tangent, Tensor) else tangent  # a subclass: the general path


def set_tangent(t: Any, tangent: Any) -> None:
    """Give t a tangent at the open level (None removes it); lists pair up element-wise."""
    if t.__class__ is list:
        for a, b in zip(t, tangent, strict=True):
            set_tangent(a, b)
        return
    if tangent is None:
        t._dual = None
        return
    if t._dual is None or t._dual[0] != FORWARD.level:
        FORWARD.set.append(weakref.ref(t))
    t._dual = (FORWARD.level, tangent)
    if t._node is not None and t._vc is not None:  # an output a node may have saved
        FORWARD.outputs[id(t._data)] = (weakref.ref(t._data), tangent)


def set_output_tangent(out: Tensor, tangent: Any) -> None:
    """set_tangent for a generated rule's kernel path: `out` is the op's new output, which no
    node records (nothing in the rule requires grad), and `tangent` the kernel's array. It is
    kept as the array (`tangent_of` wraps it on first read; the next kernel path reads it as
    it is, `plain_tangent`): a chain of kernel paths makes no Tensor for its tangents.

    The level does not list `out` for clearing (a weak reference per op cost ~0.15 µs, 7% of
    a jvp through tanh): the pair names the level, so the tangent is invisible once the level
    closes, and it is freed with `out`, or when `out` is next read by `tangent_of` or given a
    tangent. Only an output still alive after the level keeps its tangent's memory longer.
    Generated rules write the same pair themselves (no call: ~30 ns of a jvp op through tanh)."""
    out._dual = (FORWARD.level, tangent)


def sum_tangents(out: Tensor, a: Tensor, b: Tensor | None) -> None:
    """out = a + b (or a copy of a, b None) computed outside the ops (gradient sums in the
    engine): out's tangent is the sum of theirs."""
    ta, tb = tangent_of(a), tangent_of(b)
    if ta is None and tb is None:
        return
    if ta is not None and tb is not None:
        with rule_scope():
            ta = later.ops.add(ta, tb)
    set_tangent(out, ta if ta is not None else tb)


def restore_tangent(t: Tensor) -> None:
    """A saved output rebuilt from its array gets the tangent the output had."""
    found = FORWARD.outputs.get(id(t._data))
    if found is not None and found[0]() is t._data:
        t._dual = (FORWARD.level, found[1])
        FORWARD.set.append(weakref.ref(t))


def tangents(*args: Any) -> tuple[Any, ...] | None:
    """The tangents of a rule's tensor arguments, or None when none has one. When some have
    one, the other floating ones get zeros (of their shape and dtype), a Tensor[] argument a
    list; an absent optional tensor and a non-floating one get None."""
    found = [_tangent_or_list(a) for a in args]
    if all(_absent(f) for f in found):
        return None
    return tuple(_fill(a, f) for a, f in zip(args, found, strict=True))


def _tangent_or_list(a: Any) -> Any:
    if isinstance(a, (list, tuple)):
        return [tangent_of(x) for x in a]
    return tangent_of(a)


def _absent(found: Any) -> bool:
    if isinstance(found, list):
        return all(f is None for f in found)
    return found is None


def _fill(a: Any, found: Any) -> Any:
    if isinstance(a, (list, tuple)):
        return [_fill(x, f) for x, f in zip(a, found, strict=True)]
    if found is not None or a is None or a._data.dtype.kind not in "fc":
        return found  # a non-floating tensor (indices, a bool mask) has no tangent: None
    return later.creation.zeros_like(a)


def pause_rules() -> None:
    """Forward mode paused: a rule's own ops propagate nothing until `resume_rules()`.
    Generated rules call the two in `try`/`finally`; two plain calls cost ~110 ns less than
    `with rule_scope():` (~5% of a jvp op through tanh). Pauses nest."""
    FORWARD.paused += 1
    FORWARD.active = False


def resume_rules() -> None:
    """Undo one `pause_rules()`: rules run again once no pause is left and a level is open."""
    FORWARD.paused -= 1
    FORWARD.active = FORWARD.level != 0 and not FORWARD.paused


class _RuleScope:
    """`with rule_scope():` pause_rules() on entry, resume_rules() on exit (hand-written
    rules); a class, not a generator, so entering it is cheap."""

    __slots__ = ()

    def __enter__(self) -> None:
        pause_rules()

    def __exit__(self, *exc: object) -> None:
        resume_rules()


_SCOPE = _RuleScope()


def rule_scope() -> _RuleScope:
    return _SCOPE


def note_view(view: Tensor, base: Tensor) -> None:
    """While a dual level is open: remember which tensor's memory `view` shares (its root, the
    base of its base), so that an in-place write of a tangent into the view can give that
    tensor a tangent too (`write_tangent`)."""
    extra = base._extra
    root = extra.view_base if extra is not None and extra.view_base is not None else base
    view._extra_state().view_base = root


def _view_tangent(x: Tensor) -> Tensor | None:
    """For a view x without a tangent: the same view of its root's tangent, the root given a
    zero tangent first if it has none (PyTorch's rule), so a write into x's tangent is seen by
    the root and its other views. None when x is not a noted view."""
    extra = x._extra
    root = None if extra is None else extra.view_base
    if root is None or root is x:
        return None
    data, rdata = x._data, root._data
    xp = array_module(data)
    if xp is not np or not np.may_share_memory(data, rdata):
        return None
    tangent = tangent_of(root)
    if tangent is None:
        tangent = wrap(np.zeros_like(rdata))  # same layout as the root's data
        set_tangent(root, tangent)
    t = tangent._data
    contiguous = rdata.flags.c_contiguous and t.flags.c_contiguous
    contiguous = contiguous or (rdata.flags.f_contiguous and t.flags.f_contiguous)
    if not contiguous or t.shape != rdata.shape or t.dtype != rdata.dtype:
        raise RuntimeError(
            "forward mode: an in-place write gives a view a tangent, but the tensor it views keeps its "
            "tangent in a different memory layout; make the view after make_dual, or write into a copy"
        )
    offset = data.__array_interface__["data"][0] - rdata.__array_interface__["data"][0]
    view = np.ndarray(data.shape, data.dtype, buffer=t, offset=offset, strides=data.strides)
    result = wrap(view)
    set_tangent(x, result)
    return result


def write_tangent(x: Tensor, result: Tensor) -> None:
    """After an in-place op wrote `result` into x: x's tangent becomes result's. An existing
    tangent is overwritten in its own memory, so the tangents of views of x (and of x's base,
    when x is a view) see the write; a view without a tangent first gets the matching view of
    its base's tangent (a zero tangent for a base without one), as in PyTorch. A tangent that
    is recorded for reverse mode is replaced instead (a raw write would cut its history)."""
    new = tangent_of(result)
    if new is None:
        return
    old = tangent_of(x)
    if old is None and not new._requires_grad:
        old = _view_tangent(x)
    if old is None or old._requires_grad or new._requires_grad or not old._data.flags.writeable:
        set_tangent(x, new)
        return
    old._data[...] = new._data
    bump_version(old)


def derive(
    fn: Callable[..., Any],
    args: Sequence[Any],
    outs: Sequence[Any],
    twice: bool = True,
    recorded: bool = True,
) -> None:
    """Tangents of `outs = fn(*args)` from fn's backward by the double-vjp trick; `twice`
    False when fn's backward cannot itself be recorded (a grad op whose own gradient has no
    backward): then row by row, one first-order vjp per output element (not recorded);
    `recorded` False when the backward's backward cannot be recorded (the tangent is then a
    constant for reverse mode)."""
    found = [_tangent_or_list(a) for a in args]
    if all(_absent(f) for f in found):
        return
    record = (
        recorded
        and grad_enabled()
        and any(
            x is not None and (x._requires_grad or (t is not None and t._requires_grad))
            for a, f in zip(args, found, strict=True)
            for x, t in (zip(a, f, strict=True) if isinstance(a, (list, tuple)) else [(a, f)])
            if isinstance(x, Tensor)
        )
    )
    primals: list[Tensor] = []
    ts: list[Tensor] = []
    new_args = []
    with rule_scope(), enable_grad():
        for a, f in zip(args, found, strict=True):
            if isinstance(a, (list, tuple)):
                items = []
                for x, t in zip(a, f, strict=True):
                    items.append(_primal(x, t, record, primals, ts))
                new_args.append(items)
            else:
                new_args.append(_primal(a, f, record, primals, ts))
        ys = fn(*new_args)
        ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
        flat_outs = _flatten(outs)
        flat_ys = _flatten(ys)
        pairs = [
            (o, y)
            for o, y in zip(flat_outs, flat_ys, strict=True)
            if y._requires_grad and y._data.dtype.kind in "fc"
        ]
        if not pairs:
            return
        if not twice:
            by_rows = [_by_rows(y, primals, ts) for _, y in pairs]
            for (o, _), t in zip(pairs, by_rows, strict=True):
                set_tangent(o, t)
            return
        us = [later.creation.zeros_like(y).requires_grad_() for _, y in pairs]
        gs = later.engine.grad([y for _, y in pairs], primals, us, create_graph=True, allow_unused=True)
        keep = [(g, t) for g, t in zip(gs, ts, strict=True) if g is not None and g._requires_grad]
        jv: list[Tensor | None] = [None] * len(us)
        if keep:
            jv = later.engine.grad(
                [g for g, _ in keep], us, [t for _, t in keep], create_graph=record, allow_unused=True
            )
    with no_grad() if not record else enable_grad():
        for (o, y), t in zip(pairs, jv, strict=True):
            set_tangent(o, later.creation.zeros_like(y) if t is None else t)


def _by_rows(y: Tensor, primals: list[Tensor], ts: list[Tensor]) -> Tensor:
    """J t for one output, one vjp per element of y (the Jacobian's rows against t)."""
    xp = array_module(y._data)
    flat = xp.zeros(y._data.size, dtype=y._data.dtype)
    for k in range(y._data.size):
        seed = xp.zeros(y._data.size, dtype=y._data.dtype)
        seed[k] = 1
        gs = later.engine.grad(
            [y], primals, [wrap(seed.reshape(y._data.shape))], retain_graph=True, allow_unused=True
        )
        flat[k] = sum(float((g._data * t._data).sum()) for g, t in zip(gs, ts, strict=True) if g is not None)
    return wrap(flat.reshape(y._data.shape))


def no_tangent_rule(name: str, args: Sequence[Any]) -> None:
    """The rule of a grad op that has no backward: a tangent reaching it cannot be carried."""
    if not all(_absent(_tangent_or_list(a)) for a in args):
        raise RuntimeError(
            f"forward mode: {name} has no backward, so no tangent can be derived for it; add a backward "
            f"for {name} in backward.yaml (or compute this derivative in reverse mode)"
        )


def _primal(x: Any, t: Tensor | None, record: bool, primals: list[Tensor], ts: list[Tensor]) -> Any:
    """The argument fn is recomputed on: a differentiable alias of x when x has a tangent."""
    if t is None or x is None:
        return x
    if record and x._requires_grad:
        alias = later.ops.reshape(x, x.shape)  # recorded: the tangent stays a function of x
    else:
        alias = x.detach().requires_grad_()
    primals.append(alias)
    ts.append(t)
    return alias


def _flatten(values: Sequence[Any]) -> list[Tensor]:
    flat: list[Tensor] = []
    for v in values:
        if isinstance(v, (list, tuple)):
            flat.extend(v)
        elif v is not None:
            flat.append(v)
    return flat
