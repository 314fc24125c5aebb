"""Forward-mode rules (jvp.py): a `JvpRule` for each op and each differentiable grad op.

An op with a `jvp:` entry gets its tangents from the checked expressions (`jvp_check.py`):
the tangents of its tensor arguments are read (zeros for those without one, once any has
one), each output's tangent is computed inside `rule_scope()` (forward mode paused, grad mode
as the caller had it) and stored. Every other op, and every grad op (forward-over-reverse
differentiates the backward pass), calls `derive` (the double-vjp trick, runtime/dual.py).
Each forward function calls its rule while a dual level is open (`call_site`).
"""

from __future__ import annotations

from opgrad.codegen import naming
from opgrad.codegen.composite import Composite
from opgrad.codegen.jvp_check import tangent_name
from opgrad.codegen.layout import Stmt, call, tuple_of
from opgrad.codegen.plan_parts import JvpRule, doc_lines, signature_params
from opgrad.codegen.signature import Arg, Output
from opgrad.codegen.validate import Spec, grad_op_sig, op_sig


def call_site(name: str, args: tuple[Arg, ...], outputs: list[str]) -> Stmt:
    """`_jvp.tanh(x, out)`: the rule called by a forward function (outputs as named there)."""
    return Stmt("", call(f"{naming.JVP_ALIAS}.{name}", *[a.name for a in args], *outputs))


def jvp_rules(spec: Spec) -> tuple[JvpRule, ...]:
    explicit = dict(spec.jvps)
    rules = []
    for op in spec.ops:
        if op.backward is None:
            continue  # no differentiable output: the forward calls no rule
        sig = op_sig(op)
        rules.append(
            _rule(
                op.name, sig.args, op.visible_outputs, f"{naming.OPS_ALIAS}.{op.name}", explicit.get(op.name)
            )
        )
    for b in spec.backwards:
        if b.has_grad_op:
            sig = grad_op_sig(b, spec)
            rules.append(_rule(b.name, sig.args, sig.outputs, f"{naming.GRAD_OPS_ALIAS}.{b.name}", None))
    return tuple(rules)


def has_rule(spec: Spec, name: str) -> bool:
    """Whether `name` (an op or grad op) has a rule its forward function calls."""
    op = spec.op(name)
    return op.backward is not None if op is not None else True


def _rule(
    name: str,
    args: tuple[Arg, ...],
    outputs: tuple[Output, ...],
    function: str,
    exprs: tuple[tuple[str, Composite], ...] | None,
) -> JvpRule:
    params = [a.name for a in args] + [o.name for o in outputs]
    signature = Stmt("def ", signature_params(name, params), " -> None:")
    if exprs is None:
        doc = doc_lines(f"Tangents of {name}, derived from its backward (double-vjp).", 4)
        derived = Stmt(
            "",
            call("derive", function, tuple_of(*[a.name for a in args]), tuple_of(*[o.name for o in outputs])),
        )
        return JvpRule(name, doc, signature, derived, None, None, (), ())
    tensors = [a.name for a in args if a.is_tensor]
    names = [tangent_name(t) for t in tensors]
    unpack = Stmt(f"({names[0]},) = " if len(names) == 1 else f"{', '.join(names)} = ", "_t")
    statements: list[Stmt] = []
    sets: list[Stmt] = []
    for output, expr in exprs:
        statements += expr.statements(tangent_name(output))
        sets.append(Stmt("", call("set_tangent", output, tangent_name(output))))
    doc = doc_lines(f"Tangents of {name} (its `jvp:` rule in ops.yaml).", 4)
    read = Stmt("_t = ", call("tangents", *tensors))
    return JvpRule(name, doc, signature, None, read, unpack, tuple(statements), tuple(sets))
