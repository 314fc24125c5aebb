"""What to generate, decided: the validated `Spec` turned into template-ready dataclasses.

Every decision lives in the plan -- which arguments are converted and how, what a node saves
and how (`of_input`, `meta_of` under no_need_buffer, `of_output`), which positions get
history, which kernel is called with which arguments, what `apply` returns for each
input position, which imports a module needs. The repeated pieces are records that say
what, not how: `TensorConversion`, `AttributeCheck`, `KernelCall`, `Saved`, `History`,
`ViewMark`, `VersionBump`, `InplaceWrite`, `GradRead`, `Unpacked`; the macros of
templates/_function.jinja2 spell them, and `layout.py` spells the remaining statements in
one fixed shape.

This module assembles the plan: a `Module` per generated file, with the `Tensor` methods
and each `__all__`. The dataclasses and the statement builders they share live in
`plan_parts.py` (re-exported here), the forward functions (ops.py, grad_ops.py) in
`plan_forward.py`, the grad node classes (nodes.py) in `plan_nodes.py`.
"""

from __future__ import annotations

from dataclasses import replace

from opgrad.codegen import docs, naming
from opgrad.codegen.layout import Stmt, call, list_of, vertical
from opgrad.codegen.model import BackwardSpec, OpSpec
from opgrad.codegen.plan_fast import fast_methods, fast_table
from opgrad.codegen.plan_fast_nodes import fast_nodes_table
from opgrad.codegen.plan_forward import alias_params, grad_op_function, inplace_function, op_function
from opgrad.codegen.plan_jvp import call_site, jvp_rules, rule_outputs
from opgrad.codegen.plan_nodes import node_class
from opgrad.codegen.plan_parts import (
    Function,
    GradBlock,
    InplaceFunction,
    Method,
    Module,
    Node,
    Plan,
    arg_annotation,
    doc_lines,
    param,
    quoted,
    return_annotation,
)
from opgrad.codegen.signature import Arg
from opgrad.codegen.validate import Spec, grad_op_sig

__all__ = [
    "GENERATED_PACKAGE",
    "TYPE_ONLY",
    "Function",
    "GradBlock",
    "InplaceFunction",
    "Method",
    "Module",
    "Node",
    "Plan",
    "build_plan",
    "methods",
]


# --- tensor methods (tensor_methods.py) ----------------------------------------------------


# `self` is annotated `Tensor`, the one class that inherits the mixin, so that a type checker
# sees it pass self to the ops; the template turns off mypy's check that a self type be a
# supertype of the class ([misc]) for this module.
SELF = "self: Tensor"
# Comparisons return a Tensor where `object` returns a bool, as NumPy arrays do.
OVERRIDES_OBJECT = frozenset({"__eq__", "__ne__"})


def methods(spec: Spec) -> tuple[tuple[Method, ...], bool]:
    out: list[Method] = []
    for op in spec.ops:
        target = f"{naming.GENERATED_ALIAS}.{naming.OPS_MODULE}.{op.name}"
        returns = f" -> {return_annotation(op.visible_outputs)}:"
        if op.method:
            rest = op.args[1:]
            params = [SELF] + alias_params(rest, op.aliases, [param(a, converted=True) for a in rest])
            names = [a.name for a in rest] + [alias for _, alias in op.aliases]
            out.append(
                Method(
                    op.method,
                    Stmt("def ", call(op.method, *params), returns),
                    Stmt("return ", call(target, "self", *names)),
                )
            )
        for dunder in op.operators:
            if dunder in naming.UNARY_OPERATORS:
                params, args = [SELF], ["self"]
            elif dunder in naming.REFLECTED_OPERATORS:
                params, args = [SELF, _other(op.args[0])], ["other", "self"]
            else:
                params, args = [SELF, _other(op.args[1])], ["self", "other"]
            annotation = " -> Tensor:" if returns == " -> Tensor:" else returns
            if dunder in OVERRIDES_OBJECT:
                annotation += "  # type: ignore[override]"
            out.append(
                Method(
                    dunder,
                    Stmt("def ", call(dunder, *params), annotation),
                    Stmt("return ", call(target, *args)),
                )
            )
        out += _inplace_methods(op)
    by_name = {name: op for op in spec.ops for name in op_bindings(op)}
    out = [replace(m, doc=docs.method_docstring(by_name[m.name], spec, m.name)) for m in out]
    return tuple(out), any(m.name == "__eq__" for m in out)


def op_bindings(op: OpSpec) -> tuple[str, ...]:
    """The Tensor attributes an op binds: its method, operators and in-place forms."""
    return ((op.method,) if op.method else ()) + op.operators + op.inplace_bindings


def _inplace_methods(op: OpSpec) -> list[Method]:
    """`Tensor.add_(y)` and the augmented operators (`x += y`) of an op's in-place variant."""
    bound = op.inplace_bindings
    if not bound:
        return []
    target = f"{naming.GENERATED_ALIAS}.{naming.OPS_MODULE}.{op.inplace_name}"
    method, *augmented = bound
    rest = op.args[1:]
    params = alias_params(rest, op.aliases, [param(a, converted=True) for a in rest])
    names = [a.name for a in rest] + [alias for _, alias in op.aliases]
    out = [
        Method(
            method,
            Stmt("def ", call(method, SELF, *params), " -> Tensor:"),
            Stmt("return ", call(target, "self", *names)),
        )
    ]
    for dunder in augmented:
        other = _other(op.args[1])
        out.append(
            Method(
                dunder,
                Stmt("def ", call(dunder, SELF, other), " -> Tensor:"),
                Stmt("return ", call(target, "self", "other")),
            )
        )
    return out


def _other(arg: Arg) -> str:
    """The operand of a binary operator, annotated as the op's argument it is passed for."""
    return f"other: {arg_annotation(arg, converted=True)}"


# --- modules -------------------------------------------------------------------------------

# Names only annotations use in tensor_methods.py, imported under `if TYPE_CHECKING:`.
TYPE_ONLY = frozenset({"Tensor", "Sequence", "Any"})


GENERATED_PACKAGE = "opgrad.generated"


def build_plan(spec: Spec, package: str = GENERATED_PACKAGE) -> Plan:
    ops: list[Function | InplaceFunction] = []
    for op in spec.ops:
        jvp = call_site(op.name, op.args, rule_outputs(op)) if op.backward is not None else None
        ops.append(replace(op_function(op, spec), jvp=jvp))
        if op.inplace is not None:
            ops.append(replace(inplace_function(op, spec), jvp=call_site(op.name, op.args, ["_out"])))
    grad_ops = tuple(
        replace(
            grad_op_function(b, spec), jvp=call_site(b.name, grad_op_sig(b, spec).args, _outputs(b, spec))
        )
        for b in spec.backwards
        if b.has_grad_op
    )
    nodes = tuple(node_class(b, spec) for b in spec.backwards)
    bound, hash_by_identity = methods(spec)
    rules = jvp_rules(spec)
    modules = [
        Module(
            file=f"{naming.OPS_MODULE}.py",
            title=doc_lines("Forward operators: one function per ops.yaml entry.", 0),
            all=_all([f.name for f in ops]),
            functions=tuple(ops),
            refuses_non_tensors=any(
                f.inplace or any(getattr(c, "form", "").startswith("written") for c in f.conversions)
                for f in ops
            ),
            complex_ops=tuple(sorted(op.name for op in spec.ops if op.complex)),
            fast_table=fast_table(tuple(ops)),
        ),
        Module(
            file=f"{naming.GRAD_OPS_MODULE}.py",
            title=doc_lines(
                (
                    "Grad ops as differentiable functions, one per backward.yaml entry that has a kernel; "
                    "grad nodes call them when create_graph=True so that the backward pass is recorded."
                ),
                0,
            ),
            all=_all([f.name for f in grad_ops]),
            functions=grad_ops,
            fast_table=fast_table(grad_ops),
        ),
        Module(
            file=f"{naming.NODES_MODULE}.py",
            title=doc_lines("Grad nodes: one GradNode subclass per backward.yaml entry.", 0),
            all=_all([n.class_name for n in nodes]),
            nodes=nodes,
            fast_table=fast_nodes_table(nodes),
        ),
        Module(
            file=f"{naming.TENSOR_METHODS_MODULE}.py",
            title=doc_lines(
                (
                    "Tensor methods and operators bound by `method:` and `operator:` in ops.yaml. "
                    "`opgrad.runtime.tensor.Tensor` inherits them from `TensorMethods`."
                ),
                0,
            ),
            all=_all(["TensorMethods"]),
            methods=bound,
            hash_by_identity=hash_by_identity,
            type_only=TYPE_ONLY,
            fast_table=fast_methods(bound, tuple(ops)),
        ),
        Module(
            file=f"{naming.JVP_MODULE}.py",
            title=doc_lines(
                (
                    "Forward-mode rules: one function per op and differentiable grad op, called by its "
                    "forward function while a dual level is open (`jvp:` in ops.yaml, else derived from "
                    "the backward)."
                ),
                0,
            ),
            all=_all([r.name for r in rules]),
            rules=rules,
        ),
        Module(
            file=f"{naming.PACKAGE_INIT}.py",
            title=doc_lines("Generated code, never edited by hand. Ops are re-exported by `opgrad`.", 0),
            all=None,
        ),
    ]
    return Plan(tuple(modules), package)


def _outputs(b: BackwardSpec, spec: Spec) -> list[str]:
    return [o.name for o in grad_op_sig(b, spec).outputs]


def _all(names: list[str]) -> Stmt:
    return Stmt("__all__ = ", vertical(list_of(*[quoted(n) for n in sorted(names)])))
