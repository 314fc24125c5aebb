"""`jvp:` rules (forward mode): each differentiable output's tangent as a composite expression.

A rule reads the op's arguments and attributes, its visible outputs, and one tangent per
tensor argument, named `<argument>_t` (`x_t`; a list for a `Tensor[]` argument, None for an
absent `Tensor?` one and for a tensor that is not floating, which a rule may test:
`s + mask_t if mask_t is not None else s`). It is checked exactly like a `composite:`
gradient (`composite.py`: parsed with `ast`, only whitelisted nodes, calls to known ops, never
evaluated), and every
problem is reported as `file:line: op 'name': ...`. An op without `jvp:` gets its tangent
from its backward by the double-vjp trick at run time (`runtime/dual.py`).
"""

from __future__ import annotations

from opgrad.codegen import naming
from opgrad.codegen.composite import Callee, Composite, check_composite, step_targets
from opgrad.codegen.loader import Location
from opgrad.codegen.model import BackwardSpec, CompositeSource, OpSpec
from opgrad.codegen.reader import KeyLines, Problems
from opgrad.codegen.signature import Arg

JvpRules = tuple[tuple[str, tuple[tuple[str, Composite], ...]], ...]  # op -> (output, tangent)


def tangent_name(arg: str) -> str:
    """The name a rule reads an argument's tangent under: `x` -> `x_t`."""
    return f"{arg}_t"


def check_jvp_rules(ops: list[OpSpec], callees: dict[str, Callee], problems: Problems) -> JvpRules:
    """The ops' `jvp:` rules (their arguments, attributes and outputs, intermediates too)."""
    rules = []
    for op in ops:
        if op.jvp:
            visible = [o.name for o in op.outputs]  # intermediates too (dropout's mask)
            checked = _check_rule(op.name, op.args, visible, op.jvp, op.lines, callees, problems)
            if checked is not None:
                rules.append((op.name, checked))
    return tuple(rules)


def check_grad_jvp_rules(
    entries: list[tuple[BackwardSpec, tuple[Arg, ...], list[str]]],
    callees: dict[str, Callee],
    problems: Problems,
) -> JvpRules:
    """Backward entries' `jvp:` rules, over their grad op's arguments (tensors and the forward's
    attributes) and outputs: forward-over-reverse without the double-vjp derivation."""
    rules = []
    for b, args, outputs in entries:
        if b.jvp:
            checked = _check_rule(b.name, args, outputs, b.jvp, b.lines, callees, problems)
            if checked is not None:
                rules.append((b.name, checked))
    return tuple(rules)


def _check_rule(
    name: str,
    args: tuple[Arg, ...],
    visible: list[str],
    sources: tuple[CompositeSource, ...],
    lines: KeyLines,
    callees: dict[str, Callee],
    problems: Problems,
) -> tuple[tuple[str, Composite], ...] | None:
    tensors = [a.name for a in args if a.is_tensor]
    names = {a.name for a in args} | set(visible) | {tangent_name(t) for t in tensors}
    clashes = sorted({tangent_name(t) for t in tensors} & ({a.name for a in args} | set(visible)))
    if clashes:
        problems.add(
            lines("jvp"), name, f"tangent names {', '.join(clashes)} clash with arguments or outputs"
        )
        return None
    flags: dict[str, str] = {a.name: "optional" for a in args if a.type == "Tensor?"}
    flags |= {a.name: "tensor" for a in args if a.type == "Tensor"} | {o: "tensor" for o in visible}
    # a tangent is None for an absent optional tensor and for a non-floating one (a bool mask)
    flags |= {tangent_name(t): "optional" for t in tensors}
    for a in args:
        if a.is_tensor:
            continue
        kind = {"bool": "bool", "str": "str"}.get(a.type, "optional" if a.is_optional else None)
        if kind is not None:
            flags[a.name] = kind
    taken = set(naming.RESERVED_ARG_NAMES) | {f"{o}_t" for o in visible} | {"_t"}
    exprs: list[tuple[str, Composite]] = []
    ok = True
    for source in sources:
        result, bad = check_composite(source.steps, names, callees, taken, flags)
        for index, message in bad:
            problems.add(Location(lines.file, source.lines[index]), name, f"jvp: {message}")
        if result is None:
            ok = False
            names |= set(step_targets(source.steps))
            continue
        names |= {n for n, _ in result.steps}
        exprs.append((source.output, result))
    return tuple(exprs) if ok else None
