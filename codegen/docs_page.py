"""docs/ops.md: the operator reference, generated from the same spec as the code.

Ops are grouped by family (the `# --- Title: remark` section they sit under in ops.yaml,
in file order), each with its signature, summary, arguments and results (`arg_docs:`),
the Tensor forms it binds (method, operators, in-place) and its gradient order by order:
the kernel named, or the composite as written in backward.yaml, down to where higher
orders come from (a composite is differentiated through its ops, so it gives every order).

The page's first line is `naming.PAGE_HEADER`, an HTML comment (invisible when rendered) that
marks it as the generator's: `writer.write_page` replaces only a file that carries it.
"""

from __future__ import annotations

import re

from opgrad.codegen import docs, naming
from opgrad.codegen.model import BackwardSpec, CompositeSource, OpSpec
from opgrad.codegen.plan_jvp import derivation
from opgrad.codegen.signature import Arg
from opgrad.codegen.validate import Spec

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def families(spec: Spec) -> list[tuple[str, str, list[OpSpec]]]:
    """(family, remark, ops) in the order the sections appear in ops.yaml."""
    out: dict[str, tuple[str, list[OpSpec]]] = {}
    for op in spec.ops:
        remark = (re.split(r"[:;]", op.section, maxsplit=1) + [""])[1].strip()
        out.setdefault(op.family, (remark, []))[1].append(op)
    return [(family, remark, ops) for family, (remark, ops) in out.items()]


def anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to `-`."""
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


def _param(arg: Arg) -> str:
    default = docs.default_text(arg)
    return arg.name if default is None else f"{arg.name}={default}"


def signature(op: OpSpec) -> str:
    outs = op.visible_outputs
    kinds = ["list[Tensor]" if o.is_list else "Tensor" for o in outs]
    result = kinds[0] if len(kinds) == 1 else f"tuple[{', '.join(kinds)}]"
    return f"opgrad.{op.name}({', '.join(_param(a) for a in op.args)}) -> {result}"


def forms(op: OpSpec) -> str:
    items = []
    if op.method:
        items.append(f"`Tensor.{op.method}`")
    items += [f"`Tensor.{o}`" for o in op.operators]
    if op.inplace_name:
        items.append(f"in place `opgrad.{op.inplace_name}`")
        items += [f"`Tensor.{b}`" for b in op.inplace_bindings]
    return ", ".join(items) if items else "function only"


def _composite(b: BackwardSpec) -> list[str]:
    """The composite as a fenced block indented under its list item."""
    assert b.composite is not None
    return _code(b.composite)


def _code(sources: tuple[CompositeSource, ...], suffix: str = "") -> list[str]:
    """Composite sources as a fenced block indented under a list item: for each output its
    steps as written, then `<output> = <its expression>`. The fence has no `python` tag:
    `ruff format` reformats tagged blocks in Markdown, and the page is pinned by --check."""
    code: list[str] = []
    for source in sources:
        code += [*source.steps[:-1], f"{source.output}{suffix} = {source.steps[-1]}"]
    return ["", "    ```", *(f"    {line}" for line in code), "    ```"]


def gradient_orders(op: OpSpec, spec: Spec) -> list[str]:
    """One list item per order of the gradient: the kernel or the composite computing it
    (a composite's code follows its item, indented)."""
    lines: list[str] = []
    name = op.backward
    order = 1
    while name is not None:
        b = spec.backward(name)
        nth = _ORDINAL.get(order, f"{order}th")
        if b.composite is not None and b.kernel is None:
            lines.append(f"{nth} order (`{b.name}`): composite; higher orders through its ops:")
            return lines + _composite(b)
        if b.composite is not None:
            lines.append(
                f"{nth} order (`{b.name}`): kernel `{b.kernel}`; with `create_graph`, this composite, "
                "whose ops give every higher order:"
            )
            return lines + _composite(b)
        lines.append(f"{nth} order (`{b.name}`): kernel `{b.kernel}`")
        name = b.backward
        order += 1
    if op.backward is not None:
        nth = _ORDINAL.get(order, f"{order}th")
        lines.append(f"{nth} order: none (the last kernel is not differentiable)")
    return lines


def forward_mode(op: OpSpec, spec: Spec) -> list[str]:
    """Where the op's forward-mode (jvp) rule comes from: its `jvp:` entry, shown as
    written, or the backward it is derived from (docs/autograd.md gives the cost)."""
    if op.jvp:
        return ["- forward mode: explicit (`jvp:` in ops.yaml):", *_code(op.jvp, "_t")]
    how = derivation(spec, op.backward)
    if how == "none":
        return ["- forward mode: none (the outputs are not differentiable and carry no tangent)"]
    return [f"- forward mode: derived from the backward ({how})"]


def op_section(op: OpSpec, spec: Spec) -> list[str]:
    lines = [f"### `{op.name}`", "", f"`{signature(op)}`", "", op.doc, ""]
    for arg in op.args:
        text = docs.arg_line(op, arg)
        lines.append(f"- `{arg.name}` " + text.removeprefix(arg.name).lstrip())
    returned = [item for item in docs.returns_lines(op) if not item.startswith("A tuple")]
    if len(returned) == 1:
        lines.append(f"- returns {returned[0]}")
    else:
        lines += ["- returns a tuple:", *(f"  - {item}" for item in returned)]
    lines.append(f"- forms: {forms(op)}")
    lines.append(f"- gradient: {docs.gradient_sentence(op, spec)}")
    for line in gradient_orders(op, spec):  # an item, or the indented code of a composite
        lines.append(line if line.startswith("    ") or not line else f"  - {line}")
    lines += forward_mode(op, spec)
    return [*lines, ""]


def render_page(spec: Spec) -> str:
    groups = families(spec)
    lines = [
        naming.PAGE_HEADER,
        "",
        "# Operator reference",
        "",
        f"Every operator of `opgrad`, {len(spec.ops)} in {len(groups)} families, generated from `ops.yaml` "
        "and `backward.yaml` by `python -m opgrad.codegen` (do not edit; change the spec and rerun). "
        "Types are what each argument accepts at run time; a gradient names the backward.yaml "
        "entry of each order and its kernel, or its composite as written.",
        "",
    ]
    lines += [f"- [{family}](#{anchor(family)}) ({len(ops)})" for family, _, ops in groups]
    for family, remark, ops in groups:
        lines += ["", f"## {family}", ""]
        if remark:
            lines += [remark[0].upper() + remark[1:] + ("" if remark.endswith(".") else "."), ""]
        for op in ops:
            lines += op_section(op, spec)
    return "\n".join(lines).rstrip("\n") + "\n"
