"""Forward-mode rules (jvp.py): a `JvpRule` for each op and each differentiable grad op.

An op with a `jvp:` entry gets its tangents from the checked expressions (`jvp_check.py`):
the tangents of its tensor arguments are read (zeros for those without one, once any has
one), each output's tangent is computed between `pause_rules()` and `resume_rules()` (forward
mode paused, grad mode as the caller had it) and stored. Every other op, and every grad op
(forward-over-reverse differentiates the backward pass), calls `derive` (the double-vjp
trick, runtime/dual.py). Each forward function calls its rule while a dual level is open (`call_site`).

A rule whose tangent is one grad op's result (`tanh_grad(out, x_t)`) also gets a path that calls
the grad op's kernel directly when nothing is recorded (`JvpKernelPath`, `kernel_path`).
"""

from __future__ import annotations

import ast
from dataclasses import replace

from opgrad.codegen import naming
from opgrad.codegen.composite import Composite
from opgrad.codegen.jvp_check import tangent_name
from opgrad.codegen.layout import Stmt, call, tuple_of
from opgrad.codegen.model import OpSpec
from opgrad.codegen.plan_forward import grad_op_function
from opgrad.codegen.plan_parts import JvpKernelPath, JvpRule, KernelCall, doc_lines, quoted, signature_params
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
                spec,
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
                    spec,
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
    spec: Spec,
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
    fast = None
    if unpack is None and len(exprs) == 1:  # one tensor (read by tangent_of), one output
        fast = kernel_path(spec, exprs[0][0], exprs[0][1], tensors[0], {o.name for o in outputs})
    return JvpRule(name, doc, signature, None, read, checked, unpack, tuple(statements), tuple(sets), fast)


def kernel_path(
    spec: Spec, output: str, expr: Composite, tensor: str, outputs: set[str]
) -> JvpKernelPath | None:
    """The kernel path of a one-output rule (`JvpKernelPath`), or None. Taken only when the
    tangent is a grad op's call, alone or as the real branch of `... if is_complex(t) else`,
    on names alone (the rule's one `tensor`, its tangent and the `outputs` for the grad op's
    tensors; attributes for the rest), and that grad op's function is its kernel call and
    the recording of its node, nothing else."""
    tangent = tangent_name(tensor)
    tensors = {tensor, tangent, *outputs}
    if expr.steps:
        return None
    call_node, real = expr.result, None
    if isinstance(call_node, ast.IfExp):
        test = call_node.test
        if not (
            isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "is_complex"
        ):
            return None
        real = test.args[0].id  # type: ignore[attr-defined]
        call_node = call_node.orelse
    if not (isinstance(call_node, ast.Call) and isinstance(call_node.func, ast.Name)) or call_node.keywords:
        return None
    callee = expr.callees[call_node.func.id]
    if not callee.qualified.startswith(f"{naming.GRAD_OPS_ALIAS}."):
        return None
    b = spec.backward(call_node.func.id)
    function = grad_op_function(b, spec)
    params = grad_op_sig(b, spec).args
    if (
        function.conversions
        or function.marks
        or len(function.body) != 1
        or not isinstance(function.body[0], KernelCall)
        or len(call_node.args) != len(params)
        or not all(isinstance(a, ast.Name) for a in call_node.args)
    ):
        return None
    kernel = function.body[0]
    pairs = list(zip(params, [a.id for a in call_node.args], strict=True))  # type: ignore[attr-defined]
    # the grad op's value is the kernel's one result: wrapped at once, or kept raw until the
    # grad block makes it with its node (`recorded`), wrapped in the block's `else`
    wrapped = kernel.wrap or (function.grad is not None and function.grad.otherwise is not None)
    if not wrapped or kernel.unpacked or any((n in tensors) != p.is_tensor for p, n in pairs):
        return None
    if any(p.type != "Tensor" for p in params if p.is_tensor):
        return None
    # the grad op's arrays become the rule's: `_data` of a tensor, the tangent's array itself
    array = {n: f"{n}._data" for n in tensors} | {tangent: naming.JVP_TANGENT_ARRAY}
    renamed = {f"{p.name}._data" if p.is_tensor else p.name: array[n] if p.is_tensor else n for p, n in pairs}
    if not all(a in renamed for a in (*kernel.arrays, *kernel.args)):
        return None  # the grad op passes its kernel something other than its arguments
    # the output too: one that a node records keeps its tangent for create_graph (set_tangent)
    # (the tangent is read by plain_tangent: None when it requires grad)
    untracked = tuple(dict.fromkeys([*(n for p, n in pairs if p.is_tensor and n != tangent), output]))
    call_with = replace(
        kernel,
        arrays=tuple(renamed[a] for a in kernel.arrays),
        args=tuple(renamed[a] for a in kernel.args),
        target=tangent_name(output),
        wrap=False,  # kept as the array (set_output_tangent)
    )
    return JvpKernelPath(tensor, naming.JVP_TANGENT_ARRAY, untracked, real, call_with, output)
