"""Forward-mode rules (jvp.py): a `JvpRule` for each op and each differentiable grad op.

An op with a `jvp:` entry gets its tangents from the checked expressions (`jvp_check.py`):
the tangents of its tensor arguments are read (zeros for those without one, once any has
one), each output's tangent is computed between `pause_rules()` and `resume_rules()` (forward
mode paused, grad mode as the caller had it) and stored. Every other op, and every grad op
(forward-over-reverse differentiates the backward pass), calls `derive` (the double-vjp
trick, runtime/dual.py). Each forward function calls its rule while a dual level is open (`call_site`).
"""

from __future__ import annotations

from opgrad.codegen import naming
from opgrad.codegen.composite import Composite
from opgrad.codegen.jvp_check import tangent_name
from opgrad.codegen.layout import Stmt, call, tuple_of
from opgrad.codegen.model import OpSpec
from opgrad.codegen.plan_parts import JvpRule, doc_lines, quoted, signature_params
from opgrad.codegen.signature import Arg, Output
from opgrad.codegen.validate import Spec, grad_op_sig, op_sig


def call_site(name: str, args: tuple[Arg, ...], outputs: list[str]) -> Stmt:
    """`_jvp.tanh(x, out)`: the rule called by a forward function (outputs as named there)."""
    return Stmt("", call(f"{naming.JVP_ALIAS}.{name}", *[a.name for a in args], *outputs))


def rule_outputs(op: OpSpec) -> list[str]:
    """What an op's forward passes its rule for the outputs, in spec order: each visible
    output, and each intermediate one (dropout's mask) wrapped from the kernel's results."""
    return [f"wrap(_results[{i}])" if o.name in op.intermediate else o.name for i, o in enumerate(op.outputs)]


def jvp_rules(spec: Spec) -> tuple[JvpRule, ...]:
    explicit = dict(spec.jvps)
    explicit_grad = dict(spec.grad_jvps)
    rules = []
    for op in spec.ops:
        if op.backward is None:
            continue  # no differentiable output: the forward calls no rule
        sig = op_sig(op)
        rules.append(
            _rule(
                op.name,
                sig.args,
                op.outputs,
                op.visible_outputs,
                f"{naming.OPS_ALIAS}.{op.name}",
                explicit.get(op.name),
                derivation(spec, op.backward),
            )
        )
    for b in spec.backwards:
        if b.has_grad_op:
            sig = grad_op_sig(b, spec)
            rules.append(
                _rule(
                    b.name,
                    sig.args,
                    sig.outputs,
                    sig.outputs,
                    f"{naming.GRAD_OPS_ALIAS}.{b.name}",
                    explicit_grad.get(b.name),
                    derivation(spec, b.backward),
                    "backward.yaml",
                )
            )
    return tuple(rules)


def derivation(spec: Spec, backward: str | None) -> str:
    """How a rule without `jvp:` is derived from the entry's backward: "double-vjp" when the
    backward can itself be recorded (it is a composite or has a backward), "double-vjp, not
    recorded" when the backward's backward cannot be (the tangent is then a constant for
    reverse mode), "row by row" (one first-order vjp per output element) when the backward
    cannot be recorded, "none" when there is no backward."""
    if backward is None:
        return "none"
    b = spec.backward(backward)
    if b.composite is None and b.backward is None:
        return "row by row"
    b2 = None if b.backward is None else spec.backward(b.backward)
    if b2 is not None and b2.composite is None and b2.backward is None:
        return "double-vjp, not recorded"  # the tangent itself cannot be differentiated again
    return "double-vjp"


def _rule(
    name: str,
    args: tuple[Arg, ...],
    outputs: tuple[Output, ...],
    visible: tuple[Output, ...],
    function: str,
    exprs: tuple[tuple[str, Composite], ...] | None,
    how: str,
    spec_file: str = "ops.yaml",
) -> JvpRule:
    params = [a.name for a in args] + [o.name for o in outputs]
    signature = Stmt("def ", signature_params(name, params), " -> None:")
    if exprs is None:
        arg_names = tuple_of(*[a.name for a in args])
        if how == "none":
            doc = doc_lines(f"{name} has no backward: a tangent reaching it is an error.", 4)
            derived = Stmt("", call("no_tangent_rule", quoted(name), arg_names))
        else:
            doc = doc_lines(f"Tangents of {name}, derived from its backward ({how}).", 4)
            outs = tuple_of(*[o.name for o in visible])
            flag = {"row by row": ["twice=False"], "double-vjp, not recorded": ["recorded=False"]}.get(
                how, []
            )
            derived = Stmt("", call("derive", function, arg_names, outs, *flag))
        return JvpRule(name, doc, signature, derived, None, "", None, (), ())
    tensor_args = [a for a in args if a.is_tensor]
    tensors = [a.name for a in tensor_args]
    names = [tangent_name(t) for t in tensors]
    if len(tensor_args) == 1 and tensor_args[0].type == "Tensor":  # the common case, read directly
        read = Stmt(f"{names[0]} = ", call("tangent_of", tensors[0]))
        checked, unpack = names[0], None
    else:
        read = Stmt("_t = ", call("tangents", *tensors))
        checked, unpack = (
            "_t",
            Stmt(f"({names[0]},) = " if len(names) == 1 else f"{', '.join(names)} = ", "_t"),
        )
    statements: list[Stmt] = []
    sets: list[Stmt] = []
    for output, expr in exprs:
        statements += expr.statements(tangent_name(output))
        sets.append(Stmt("", call("set_tangent", output, tangent_name(output))))
    doc = doc_lines(f"Tangents of {name} (its `jvp:` rule in {spec_file}).", 4)
    return JvpRule(name, doc, signature, None, read, checked, unpack, tuple(statements), tuple(sets))
