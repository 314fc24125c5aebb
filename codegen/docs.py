"""The generated docstrings: summary, Args, Returns and Gradient, from ops.yaml's `doc:`,
`arg_docs:` and `grad_doc:` and backward.yaml's outputs.

One fixed layout for every op, its in-place variant, its method and its operators. Nothing
is wrapped: each paragraph and each item is one line, however long, so that no choice
depends on a line's length (the §2 rule; ruff's E501 is off for generated/):

    Summary from `doc:`.

    Args:
        x (Tensor | float | int): from arg_docs.
        axis (int | Sequence[int] | None, default None): from arg_docs.

    Returns:
        out (Tensor): from arg_docs.

    Gradient:
        Flows to x. No gradient for: mask. Then `grad_doc:`.

A bound form (`Tensor.sum`, `Tensor.__add__`, `Tensor.add_`) says which function it calls
and lists the arguments other than self. The reference page docs/ops.md is built from the
same pieces (`docs_page.py`).
"""

from __future__ import annotations

from opgrad.codegen import naming
from opgrad.codegen.model import OpSpec
from opgrad.codegen.plan_parts import python_default
from opgrad.codegen.signature import Arg
from opgrad.codegen.validate import Spec

# What each argument type accepts at run time (runtime/arguments.py, `as_tensor_arg`).
RUNTIME_TYPES = {
    "Tensor": "Tensor | float | int",
    "Tensor[]": "list[Tensor] | tuple[Tensor, ...]",
    "Scalar": "float | int",
    "int": "int",
    "float": "float | int",
    "bool": "bool",
    "str": "str",
    "int[]": "int | Sequence[int]",
    "DataType": "str | numpy.dtype",
}
INDENT = "    "


def arg_type(arg: Arg, numbers: bool = True) -> str:
    """What `arg` accepts at run time; a Tensor written in place (`numbers=False`) takes only
    a Tensor."""
    text = RUNTIME_TYPES[arg.base_type]
    if arg.base_type == "Tensor" and not numbers:
        text = "Tensor"
    return f"{text} | None" if arg.is_optional else text


def default_text(arg: Arg) -> str | None:
    """The default as the generated signature spells it (`()`, `False`, `"mean"`)."""
    return python_default(arg)


def arg_line(op: OpSpec, arg: Arg, numbers: bool = True, shown: str | None = None) -> str:
    """`name (type[, default D]): text` for the Args section (`shown`: the parameter's name
    where it differs from the op's argument, `other` for an operator)."""
    default = default_text(arg)
    if default is None and shown in (None, arg.name) and arg.name in dict(op.aliases):
        default = "None"  # a required argument with an alias: either name may be given
    kind = arg_type(arg, numbers and arg.name not in op.mutates)  # written into: a Tensor only
    kind += "" if default is None else f", default {default}"
    text = _text(op, arg.name)
    return f"{shown or arg.name} ({kind})" + (f": {text}" if text else "")


def _text(op: OpSpec, name: str) -> str:
    return next((text for key, text, _ in op.arg_docs if key == name), "")


def returns_lines(op: OpSpec) -> list[str]:
    outs = op.visible_outputs
    lines = []
    for o in outs:
        text = _text(op, o.name)
        kind = "list[Tensor]" if o.is_list else "Tensor"
        lines.append(f"{o.name} ({kind})" + (f": {text}" if text else ""))
    if len(outs) > 1:
        lines.insert(0, f"A tuple ({', '.join(o.name for o in outs)}):")
    return lines


def gradient_inputs(op: OpSpec, spec: Spec) -> tuple[list[str], list[str]]:
    """(tensor inputs that get a gradient, tensor inputs that get none)."""
    produced = set()
    if op.backward is not None:
        produced = {o.name for o in spec.backward(op.backward).outputs}
    tensors = [a.name for a in op.tensor_args]
    flows = [n for n in tensors if naming.grad_name(n) in produced]
    return flows, [n for n in tensors if n not in flows]


def gradient_sentence(op: OpSpec, spec: Spec) -> str:
    """Where gradient flows, which inputs and outputs carry none, and the `grad_doc:`."""
    flows, none = gradient_inputs(op, spec)
    if op.backward is None:
        parts = ["None: the outputs are not differentiable."]
    else:
        parts = [f"Flows to {', '.join(flows)}."]
        if none:
            parts.append(f"No gradient for: {', '.join(none)}.")
        dead = [o.name for o in op.visible_outputs if o.name in op.non_differentiable]
        if dead:
            parts.append(f"Not differentiable: output {', '.join(dead)}.")
    if op.grad_doc:
        parts.append(op.grad_doc)
    return " ".join(parts)


def _section(title: str, items: list[str]) -> list[str]:
    return ["", f"{title}:", *(INDENT + item for item in items)]


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace('"', '\\"')


def docstring(
    op: OpSpec,
    spec: Spec,
    lead: list[str],
    args: tuple[tuple[Arg, str], ...],
    *,
    inplace: str | None = None,
) -> tuple[str, ...]:
    """The docstring's lines (escaped, not yet indented): `lead` the summary's lines,
    `args` the parameters listed, each with the name it has in the signature; `inplace` the
    parameter an in-place form writes into and returns."""
    lines = list(lead)
    target = op.inplace[0] if op.inplace is not None else None
    items = [arg_line(op, a, not (inplace and a.name == target == shown), shown) for a, shown in args]
    items += _alias_lines(op, args)
    if items:
        lines += _section("Args", items)
    if inplace:
        lines += _section("Returns", [f"{inplace} (Tensor): Written in place, holding the result."])
    else:
        lines += _section("Returns", returns_lines(op))
    lines += _section("Gradient", [gradient_sentence(op, spec)])
    return tuple(_escape(line) for line in lines)


def _alias_lines(op: OpSpec, args: tuple[tuple[Arg, str], ...]) -> list[str]:
    """The `alias:` parameters, which trail the signature (default None), for the listed
    arguments that keep their own name (an operator's `other` has none)."""
    listed = {a.name: a for a, shown in args if shown == a.name}
    return [
        f"{alias} ({arg_type(listed[name])} | None, default None): Alias of {name} "
        "(the PyTorch/NumPy spelling); give one or the other."
        for name, alias in op.aliases
        if name in listed
    ]


def op_docstring(op: OpSpec, spec: Spec) -> tuple[str, ...]:
    """`ops.<op>`."""
    return docstring(op, spec, [op.doc], _named(op))


def inplace_docstring(op: OpSpec, spec: Spec) -> tuple[str, ...]:
    """`ops.<op>_`: writes into its first argument."""
    assert op.inplace is not None
    target = op.inplace[0]
    lead = [op.doc, "", f"In place: writes the result into {target} and returns {target}."]
    return docstring(op, spec, lead, _named(op), inplace=target)


def _named(op: OpSpec) -> tuple[tuple[Arg, str], ...]:
    return tuple((a, a.name) for a in op.args)


def method_docstring(op: OpSpec, spec: Spec, bound: str) -> tuple[str, ...]:
    """`Tensor.<bound>`: a method, an operator or an in-place form of `op`; Args lists the
    parameters after self (an operator's is `other`)."""
    inplace = bound in op.inplace_bindings
    function = op.inplace_name if inplace else op.name
    x, rest = op.args[0], op.args[1:]
    listed: tuple[tuple[Arg, str], ...]
    if bound in naming.UNARY_OPERATORS:
        passed, roles, listed = ["self"], [("self", x)], ()
    elif bound in naming.REFLECTED_OPERATORS:
        passed, roles, listed = ["other", "self"], [("self", rest[0]), ("other", x)], ((x, "other"),)
    elif bound.startswith("__"):
        passed, roles, listed = ["self", "other"], [("self", x), ("other", rest[0])], ((rest[0], "other"),)
    else:
        passed = ["self", *(a.name for a in rest)]
        roles, listed = [("self", x)], tuple((a, a.name) for a in rest)
    calls = f"Calls `opgrad.{function}({', '.join(passed)})`: "
    lead = [op.doc, "", calls + ", ".join(f"{role} is {arg.name}" for role, arg in roles) + "."]
    if inplace:
        lead.append("In place: writes the result into self and returns self.")
    return docstring(op, spec, lead, listed, inplace="self" if inplace else None)
