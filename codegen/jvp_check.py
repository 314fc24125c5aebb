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
from opgrad.codegen.model import OpSpec
from opgrad.codegen.reader import Problems

JvpRules = tuple[tuple[str, tuple[tuple[str, Composite], ...]], ...]  # op -> (output, tangent)


def tangent_name(arg: str) -> str:
    """The name a rule reads an argument's tangent under: `x` -> `x_t`."""
    return f"{arg}_t"


def check_jvp_rules(ops: list[OpSpec], callees: dict[str, Callee], problems: Problems) -> JvpRules:
    rules = []
    for op in ops:
        if not op.jvp:
            continue
        tensors = [a.name for a in op.tensor_args]
        visible = [o.name for o in op.outputs]  # intermediates too (dropout's mask)
        names = {a.name for a in op.args} | set(visible) | {tangent_name(t) for t in tensors}
        clashes = sorted({tangent_name(t) for t in tensors} & ({a.name for a in op.args} | set(visible)))
        if clashes:
            problems.add(
                op.lines("jvp"),
                op.name,
                f"tangent names {', '.join(clashes)} clash with arguments or outputs",
            )
            continue
        flags: dict[str, str] = {a.name: "optional" for a in op.args if a.type == "Tensor?"}
        # a tangent is None for an absent optional tensor and for a non-floating one (a bool mask)
        flags |= {tangent_name(t): "optional" for t in tensors}
        for a in op.attrs:
            kind = {"bool": "bool", "str": "str"}.get(a.type, "optional" if a.is_optional else None)
            if kind is not None:
                flags[a.name] = kind
        taken = set(naming.RESERVED_ARG_NAMES) | {f"{o}_t" for o in visible} | {"_t"}
        exprs: list[tuple[str, Composite]] = []
        ok = True
        for source in op.jvp:
            result, bad = check_composite(source.steps, names, callees, taken, flags)
            for index, message in bad:
                problems.add(Location(op.lines.file, source.lines[index]), op.name, f"jvp: {message}")
            if result is None:
                ok = False
                names |= set(step_targets(source.steps))
                continue
            names |= {name for name, _ in result.steps}
            exprs.append((source.output, result))
        if ok:
            rules.append((op.name, tuple(exprs)))
    return tuple(rules)
