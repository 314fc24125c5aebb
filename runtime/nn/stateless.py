"""`functional_call`: run a module with some of its parameters and buffers replaced.

`og.func.functional_call(model, {"0.weight": w, ...}, x)` calls `model(x)` as if the named
parameters and buffers were the given tensors, then puts the originals back (also when the call
raises). With it a model's loss becomes a function of a dict of tensors, to differentiate with
`og.grad`, `og.func` or `og.autograd.functional` (as `torch.func.functional_call`).

Names are those of `named_parameters()`/`named_buffers()`, plus every other path to a module
shared under two names. `tie_weights=True` (the default) replaces every name of a tied tensor
when one of them is given; two different values for one tied tensor are an error. A name the
module does not have is an error whatever `strict` says (PyTorch would set it as a new
attribute: here it is almost always a typo); `strict=True` also requires every parameter and
buffer to be given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from opgrad.runtime.nn.module import Module
from opgrad.runtime.tensor import Tensor

Slot = tuple[Module, str, str]  # (owner, attribute name, "_parameters" or "_buffers")


def _slots(module: Module) -> dict[str, Slot]:
    """Every dotted name of a parameter or buffer, through every path (shared modules twice)."""
    found: dict[str, Slot] = {}
    stack: list[tuple[str, Module, frozenset[int]]] = [("", module, frozenset({id(module)}))]
    while stack:
        prefix, mod, ancestors = stack.pop()
        for table in ("_parameters", "_buffers"):
            for leaf, value in getattr(mod, table).items():
                if value is not None:
                    found[prefix + leaf] = (mod, leaf, table)
        for name, child in reversed(mod._modules.items()):
            if child is not None and id(child) not in ancestors:  # a cycle is walked once
                stack.append((f"{prefix}{name}.", child, ancestors | {id(child)}))
    return found


def _merged(dicts: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    many = dicts if isinstance(dicts, (tuple, list)) else (dicts,)
    merged: dict[str, Any] = {}
    for d in many:
        if not isinstance(d, Mapping):
            raise TypeError(
                "functional_call: parameter_and_buffer_dicts must be a dict of name -> Tensor or a "
                f"tuple of such dicts, got {type(d).__name__}"
            )
        for key, value in d.items():
            if key in merged:
                raise ValueError(f"functional_call: {key!r} appears in more than one of the dicts")
            merged[key] = value
    return merged


def functional_call(
    module: Module,
    parameter_and_buffer_dicts: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """module(*args, **kwargs) with the named parameters and buffers replaced (module doc)."""
    if not isinstance(module, Module):
        raise TypeError(f"functional_call: module must be an nn.Module, got {type(module).__name__}")
    given = _merged(parameter_and_buffer_dicts)
    slots = _slots(module)
    unknown = sorted(set(given) - set(slots))
    if unknown:
        raise ValueError(
            f"functional_call: {type(module).__name__} has no parameter or buffer named "
            f"{', '.join(map(repr, unknown))}"
        )
    for key, value in given.items():
        if not isinstance(value, Tensor):
            raise TypeError(f"functional_call: {key!r} must be a Tensor, got {type(value).__name__}")
    values = dict(given)
    if tie_weights:  # every other name of a replaced tensor gets the same value
        by_tensor: dict[int, list[str]] = {}
        for name, (mod, leaf, _) in slots.items():
            by_tensor.setdefault(id(mod.__dict__[leaf]), []).append(name)
        for names in by_tensor.values():
            chosen = {id(given[n]): n for n in names if n in given}
            if len(chosen) > 1:
                raise ValueError(
                    f"functional_call: tied names {', '.join(map(repr, sorted(chosen.values())))} were "
                    "given different tensors; give one of them, or pass tie_weights=False"
                )
            if chosen:
                value = given[next(iter(chosen.values()))]
                values.update({n: value for n in names})
    if strict:
        missing = sorted(set(slots) - set(values))
        if missing:
            raise ValueError(
                f"functional_call: strict=True and no tensor given for {', '.join(map(repr, missing))}"
            )
    call_args = args if isinstance(args, tuple) else () if args is None else (args,)
    saved: dict[tuple[int, str], tuple[Slot, Any]] = {}  # each attribute once, however many names
    try:
        for name, value in values.items():
            mod, leaf, table = slots[name]
            saved.setdefault((id(mod), leaf), (slots[name], mod.__dict__[leaf]))
            getattr(mod, table)[leaf] = value
            mod.__dict__[leaf] = value
        return module(*call_args, **(kwargs or {}))
    finally:
        for (mod, leaf, table), old in saved.values():
            getattr(mod, table)[leaf] = old
            mod.__dict__[leaf] = old
