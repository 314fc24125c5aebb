"""Rules that involve more than one entry, and the validated `Spec` they produce.

- names are unique (ops and their in-place variants, backward ops, node classes, methods,
  operators);
- every `backward:` names an existing backward entry whose `forward:` names this op
  back, and every backward entry is reached that way;
- a `forward:` signature agrees with the op it names (arguments and outputs);
- backward `args` name forward inputs, forward outputs or `<output>_grad` of a
  differentiable output, with matching types; backward outputs are `<input>_grad` of
  forward tensor inputs, one for each input not listed in `no_gradient` (nor no_need_buffer
  in the grad op it differentiates); `no_need_buffer` and `no_gradient` name forward inputs;
- the `forward:` links from an op through its backward entries never loop;
- composite expressions use only their arguments, the forward's attributes, earlier
  steps, numbers, operators and calls to ops or to backward ops with a grad op function
  (`composite.py`); step names take no name that is already in use;
- `arg_docs:` keys name an argument or an output of their op, and every doc text (these
  and `grad_doc:`) is non-empty printable ASCII (`_check_docs`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from typing import TypeVar

from opgrad.codegen import naming
from opgrad.codegen.composite import Callee, Composite, check_composite, step_targets
from opgrad.codegen.jvp_check import JvpRules, check_grad_jvp_rules, check_jvp_rules
from opgrad.codegen.loader import Location
from opgrad.codegen.model import BackwardSpec, ForwardSig, OpSpec
from opgrad.codegen.reader import Problems
from opgrad.codegen.signature import Arg, Output, describe_signature

E = TypeVar("E", OpSpec, BackwardSpec)  # an entry of ops.yaml or backward.yaml


@dataclass(frozen=True)
class GradOpSig:
    """The signature of a differentiable function: an op, or a backward op seen as one.

    A backward op's signature is its tensor `args`, then its forward op's attributes,
    returning its `output`s (its kernel takes exactly these).
    """

    name: str
    args: tuple[Arg, ...]
    outputs: tuple[Output, ...]
    visible_outputs: tuple[Output, ...]  # returned to the caller (not intermediate)
    differentiable_outputs: tuple[Output, ...]
    meta_args: tuple[str, ...]  # no_need_buffer: metadata only, never differentiable
    of_grad_op: bool = False  # a backward op: the gradients for its inputs are `grad_wrt_<input>`

    def input_grad(self, name: str) -> str:
        """The gradient a backward entry returns for input `name` (`naming.input_grad`)."""
        return naming.input_grad(name, self.of_grad_op)

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)

    def output(self, name: str) -> Output | None:
        return next((o for o in self.outputs if o.name == name), None)

    def __str__(self) -> str:
        return describe_signature(self.name, self.args, self.outputs)


@dataclass(frozen=True)
class Spec:
    """ops.yaml and backward.yaml, validated together."""

    ops: tuple[OpSpec, ...]
    backwards: tuple[BackwardSpec, ...]
    composites: tuple[tuple[str, tuple[tuple[str, Composite], ...]], ...]  # backward op -> (output, expr)
    jvps: JvpRules = ()  # op -> (output, tangent): the checked `jvp:` rules
    grad_jvps: JvpRules = ()  # backward entry -> (output, tangent): its grad op's `jvp:` rule

    def backward(self, name: str) -> BackwardSpec:
        return next(b for b in self.backwards if b.name == name)

    def op(self, name: str) -> OpSpec | None:
        return next((o for o in self.ops if o.name == name), None)

    def composite(self, name: str) -> tuple[tuple[str, Composite], ...] | None:
        return next((c for n, c in self.composites if n == name), None)

    def forward_of(self, bwd: BackwardSpec) -> GradOpSig:
        """The signature of what `bwd` differentiates."""
        op = self.op(bwd.forward_sig.name)
        if op is not None:
            return op_sig(op)
        return grad_op_sig(self.backward(bwd.forward_sig.name), self)

    def attrs_of(self, bwd: BackwardSpec) -> tuple[Arg, ...]:
        """The forward attributes passed to `bwd`'s kernel after its tensors."""
        return tuple(a for a in self.forward_of(bwd).args if not a.is_tensor)


def op_sig(op: OpSpec) -> GradOpSig:
    return GradOpSig(op.name, op.args, op.outputs, op.visible_outputs, op.differentiable_outputs, ())


def grad_op_sig(bwd: BackwardSpec, spec: Spec) -> GradOpSig:
    args = bwd.args + spec.attrs_of(bwd)
    return GradOpSig(bwd.name, args, bwd.outputs, bwd.outputs, bwd.outputs, bwd.no_need_buffer, True)


def validate(
    ops: list[OpSpec], backwards: list[BackwardSpec], all_names: set[str], problems: Problems
) -> Spec:
    """Check the cross-entry rules; `all_names` also holds entries that failed to parse.

    Problems found are added to `problems`; the returned Spec holds only entries that
    passed every check (the caller raises before rendering if there were problems).
    """
    ops = _dedupe(ops, problems, "op")
    backwards = _dedupe(backwards, problems, "backward_op")
    op_names = {o.name for o in ops}
    for b in backwards:
        if b.name in op_names:
            problems.add(b.lines("backward_op"), b.name, f"an op in ops.yaml already has the name {b.name!r}")
    by_name = _with_forwards({b.name: b for b in backwards if b.name not in op_names}, ops, problems)
    _check_bindings(ops, problems)
    _check_docs(ops, problems)
    _check_node_classes(list(by_name.values()), problems)

    # backward: references (from ops and from backward ops) and their reverse links.
    entries: list[OpSpec | BackwardSpec] = [*ops, *by_name.values()]
    for entry in entries:
        if entry.backward is None:
            continue
        target = by_name.get(entry.backward)
        if target is None:
            if entry.backward not in all_names:
                problems.add(
                    entry.lines("backward"),
                    entry.name,
                    f"backward {entry.backward!r} is not defined in backward.yaml",
                )
        elif target.forward_sig.name != entry.name:
            problems.add(
                entry.lines("backward"),
                entry.name,
                f"backward {entry.backward!r} differentiates {target.forward_sig.name!r} "
                f"(its `forward:`), not {entry.name!r}",
            )
    good: list[BackwardSpec] = []
    rooted = _rooted(ops, by_name)
    spec = Spec(tuple(ops), tuple(b for b in by_name.values() if b.name in rooted), ())
    callees = _callees(ops, spec)
    composites: list[tuple[str, tuple[tuple[str, Composite], ...]]] = []
    for b in by_name.values():
        target_name = b.forward_sig.name
        forward_entry: OpSpec | BackwardSpec | None = next((o for o in ops if o.name == target_name), None)
        if forward_entry is None:
            forward_entry = by_name.get(target_name)
        if forward_entry is None:
            if target_name not in all_names:
                problems.add(
                    b.lines("forward"), b.name, f"forward {target_name!r} is neither an op nor a backward_op"
                )
            continue
        if forward_entry.backward != b.name:
            if forward_entry.backward is None:
                hint = f"it has no `backward:`; add `backward: {b.name}` to {target_name!r}"
            else:
                hint = f"its backward is {forward_entry.backward!r}"
            problems.add(
                b.lines("forward"), b.name, f"forward {target_name!r} does not name this entry: {hint}"
            )
            continue
        if b.name not in rooted:
            cycle = _cycle(b, by_name)
            if cycle:  # otherwise an entry up the chain failed, and its error is reported
                problems.add(
                    b.lines("forward"),
                    b.name,
                    f"its `forward:` chain ({' -> '.join(cycle)}) loops and never reaches an op in ops.yaml",
                )
            continue
        before = len(problems)
        fwd = spec.forward_of(b)
        _check_signature(b, fwd, problems)
        _check_args(b, fwd, problems)
        if b.composite is not None:
            exprs = _check_composites(b, fwd, callees, problems)
            if exprs is not None:
                composites.append((b.name, exprs))
        if len(problems) == before:
            good.append(b)
    spec = Spec(tuple(ops), tuple(good), tuple(composites), check_jvp_rules(ops, callees, problems))
    grad_entries = []
    for b in good:
        if b.jvp:
            sig = grad_op_sig(b, spec)
            grad_entries.append((b, sig.args, [o.name for o in sig.outputs]))
    return dataclasses.replace(spec, grad_jvps=check_grad_jvp_rules(grad_entries, callees, problems))


def _with_forwards(
    by_name: dict[str, BackwardSpec], ops: list[OpSpec], problems: Problems
) -> dict[str, BackwardSpec]:
    """Each entry with its `forward`: the one entry whose `backward:` names it. A written
    `forward:` is kept, and checked later like any assertion; an entry that nothing names,
    or that several name, is reported and left out (its name still counts as defined)."""
    linkers: dict[str, list[str]] = {}
    entries: list[OpSpec | BackwardSpec] = [*ops, *by_name.values()]
    for entry in entries:
        if entry.backward is not None:
            linkers.setdefault(entry.backward, []).append(entry.name)
    out: dict[str, BackwardSpec] = {}
    for name, b in by_name.items():
        forward = b.forward
        named_by = linkers.get(name, [])
        if forward is None and len(named_by) != 1:
            if named_by:
                why = (
                    f"several entries name it in `backward:` ({', '.join(named_by)}); a backward entry "
                    "differentiates one op: give each its own entry"
                )
            else:
                why = f"no op or backward entry names it: add `backward: {name}` to the op it differentiates"
            problems.add(b.lines("backward_op"), name, why)
            continue
        if forward is None:
            forward = ForwardSig(named_by[0])
        out[name] = replace(b, forward=forward)
    forward_of = {name: b.forward_sig.name for name, b in out.items() if b.forward is not None}
    return {name: replace(b, doc=b.doc or _default_doc(name, forward_of)) for name, b in out.items()}


def _check_docs(ops: list[OpSpec], problems: Problems) -> None:
    """`arg_docs:` describe real arguments and outputs; doc texts are printable ASCII, so a
    docstring and docs/ops.md render them as written (`"` and `\\` are escaped there)."""
    for op in ops:
        names = [a.name for a in op.args] + [o.name for o in op.outputs]
        for name, text, line in op.arg_docs:
            where = Location(op.lines.file, line)
            if name not in names:
                problems.add(
                    where,
                    op.name,
                    f"arg_docs {name!r} is not an argument or output of {op.name!r} "
                    f"(it has: {', '.join(names)})",
                )
            _check_doc_text(where, op.name, f"arg_docs {name!r}", text, problems)
        if op.grad_doc is not None:
            _check_doc_text(op.lines("grad_doc"), op.name, "grad_doc", op.grad_doc, problems)


def _check_doc_text(where: Location, op: str, what: str, text: str, problems: Problems) -> None:
    if not text:
        problems.add(where, op, f"{what} has no text: describe it in one sentence, or remove the key")
        return
    bad = sorted({ch for ch in text if not (" " <= ch <= "~")})
    if bad:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in bad)
        problems.add(where, op, f"{what} holds {shown}: doc texts are printable ASCII")


_ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def _default_doc(name: str, forward_of: dict[str, str]) -> str:
    """`Gradient of tanh.`, or at higher order `Gradient of tanh_grad (second-order gradient
    of tanh).`: a backward entry's docstring when it has no `doc:`."""
    differentiated = root = forward_of[name]
    order, seen = 1, {name}
    while root in forward_of and root not in seen:  # a loop is reported elsewhere
        seen.add(root)
        root = forward_of[root]
        order += 1
    if order == 1:
        return f"Gradient of {differentiated}."
    return f"Gradient of {differentiated} ({_ORDINALS.get(order, f'{order}th')}-order gradient of {root})."


def _rooted(ops: list[OpSpec], by_name: dict[str, BackwardSpec]) -> set[str]:
    """The backward entries reached from an op through `backward:` links whose `forward:`
    names the entry that links to them: only for these does `Spec.forward_of` find every
    signature up the chain (an entry that failed to parse, or a loop, breaks a chain)."""
    rooted: set[str] = set()
    links = [(o.backward, o.name) for o in ops if o.backward is not None]
    while links:
        name, forward = links.pop()
        b = by_name.get(name)
        if b is None or b.name in rooted or b.forward_sig.name != forward:
            continue
        rooted.add(b.name)
        if b.backward is not None:
            links.append((b.backward, b.name))
    return rooted


def _cycle(b: BackwardSpec, by_name: dict[str, BackwardSpec]) -> list[str]:
    """The names of the loop `b`'s `forward:` chain runs into ([] if it ends instead)."""
    seen = [b.name]
    current = by_name.get(b.forward_sig.name)
    while current is not None:
        if current.name in seen:
            return [*seen[seen.index(current.name) :], current.name]
        seen.append(current.name)
        current = by_name.get(current.forward_sig.name)
    return []


def _callees(ops: list[OpSpec], spec: Spec) -> dict[str, Callee]:
    """What composites may call: ops (`_ops.f`), and backward ops that have a grad op
    function (a kernel and no composite: `_grad_ops.f`); `spec` holds the rooted ones."""
    callees = {
        o.name: Callee(
            o.composite_call or f"{naming.OPS_ALIAS}.{o.name}",  # `composite_call:` (conj's shortcut)
            o.args,
            len(o.visible_outputs),
            is_list=len(o.visible_outputs) == 1 and o.visible_outputs[0].is_list,
        )
        for o in ops
    }
    for b in spec.backwards:
        if b.has_grad_op:
            sig = grad_op_sig(b, spec)
            callees[b.name] = Callee(f"{naming.GRAD_OPS_ALIAS}.{b.name}", sig.args, len(sig.outputs))
    return callees


def _check_composites(
    b: BackwardSpec, fwd: GradOpSig, callees: dict[str, Callee], problems: Problems
) -> tuple[tuple[str, Composite], ...] | None:
    """Each output's steps; a step name of one output may be used by the later ones."""
    assert b.composite is not None
    names = {a.name for a in b.args} | {a.name for a in fwd.args if not a.is_tensor}
    flags = {
        a.name: "optional" if a.type == "Tensor?" else "tensor"
        for a in b.args
        if a.type in ("Tensor", "Tensor?")
    }
    for a in fwd.args:
        if not a.is_tensor:
            kind = {"bool": "bool", "str": "str"}.get(a.type, "optional" if a.is_optional else None)
            if kind is not None:
                flags[a.name] = kind
    taken = set(naming.RESERVED_ARG_NAMES) | {o.name for o in b.outputs}
    exprs: list[tuple[str, Composite]] = []
    ok = True
    for source in b.composite:
        result, bad = check_composite(source.steps, names, callees, taken, flags)
        for index, message in bad:
            problems.add(Location(b.lines.file, source.lines[index]), b.name, message)
        if result is None:
            ok = False
            names |= set(step_targets(source.steps))  # later outputs may use them: no cascade
            continue
        meta = sorted(set(result.names) & set(b.no_need_buffer))
        if meta:
            problems.add(
                Location(b.lines.file, source.lines[-1]),
                b.name,
                f"composite uses {', '.join(meta)}, which no_need_buffer saves as metadata only",
            )
            ok = False
        names |= {name for name, _ in result.steps}
        exprs.append((source.output, result))
    return tuple(exprs) if ok else None


def _dedupe(entries: list[E], problems: Problems, key: str) -> list[E]:
    seen: dict[str, E] = {}
    out = []
    for e in entries:
        first = seen.get(e.name)
        if first is not None:
            problems.add(
                e.lines(key), e.name, f"duplicate name; first defined on line {first.lines(key).line}"
            )
            continue
        seen[e.name] = e
        out.append(e)
    return out


def _check_bindings(ops: list[OpSpec], problems: Problems) -> None:
    functions = {op.name: f"op {op.name!r}" for op in ops}
    for op in ops:
        name = op.inplace_name
        if name is None:
            continue
        if name in functions:
            problems.add(
                op.lines("inplace"), op.name, f"in-place variant {name!r} clashes with {functions[name]}"
            )
        else:
            functions[name] = f"the in-place variant of op {op.name!r}"
    bound: dict[str, str] = {}
    for op in ops:
        for key, names in (
            ("method", [op.method] if op.method else []),
            ("operator", list(op.operators)),
            ("inplace", list(op.inplace_bindings)),
        ):
            for name in names:
                other = bound.get(name)
                if other is not None:
                    problems.add(op.lines(key), op.name, f"Tensor.{name} is already bound to op {other!r}")
                else:
                    bound[name] = op.name


def _check_node_classes(backwards: list[BackwardSpec], problems: Problems) -> None:
    classes: dict[str, str] = {}
    for b in backwards:
        cls = naming.node_class(b.name)
        if cls in classes:
            problems.add(
                b.lines("backward_op"),
                b.name,
                f"node class {cls} would clash with that of {classes[cls]!r}; rename one",
            )
        classes[cls] = b.name


def _check_signature(b: BackwardSpec, fwd: GradOpSig, problems: Problems) -> None:
    def typed(args: tuple[Arg, ...]) -> list[str]:
        return [f"{a.type} {a.name}" for a in args]

    if b.forward_sig.args is not None and typed(b.forward_sig.args) != typed(fwd.args):
        problems.add(
            b.lines("forward"),
            b.name,
            f"forward signature ({', '.join(typed(b.forward_sig.args))}) does not match "
            f"{fwd.name}'s args ({', '.join(typed(fwd.args))})",
        )
    if b.forward_sig.outputs is not None and [(o.type, o.name) for o in b.forward_sig.outputs] != [
        (o.type, o.name) for o in fwd.outputs
    ]:
        problems.add(
            b.lines("forward"),
            b.name,
            f"forward outputs ({', '.join(str(o) for o in b.forward_sig.outputs)}) do not match "
            f"{fwd.name}'s output ({', '.join(str(o) for o in fwd.outputs)})",
        )


def _check_args(b: BackwardSpec, fwd: GradOpSig, problems: Problems) -> None:
    """Backward args, outputs and no_need_buffer against the forward signature."""
    inputs = {a.name: a for a in fwd.args if a.is_tensor}
    attrs = {a.name for a in fwd.args if not a.is_tensor}
    outputs = {o.name: o for o in fwd.outputs}
    grads = {naming.grad_name(o.name): o for o in fwd.differentiable_outputs}
    tables: dict[str, dict[str, Arg] | dict[str, Output]] = {
        "input": inputs,
        "output": outputs,
        "grad": grads,
    }
    non_diff_grads = {naming.grad_name(o.name) for o in fwd.outputs} - set(grads)
    for arg in b.args:
        meanings = [
            m for m, table in (("input", inputs), ("output", outputs), ("grad", grads)) if arg.name in table
        ]
        if len(meanings) > 1:
            problems.add(
                b.lines("args"), b.name, f"argument {arg.name!r} is ambiguous: {' and '.join(meanings)}"
            )
            continue
        if not meanings:
            if arg.name in attrs:
                why = "is an attribute of the forward; attributes are passed automatically, drop it"
            elif arg.name in non_diff_grads:
                why = "is the gradient of an output that is non_differentiable or intermediate"
            else:
                why = (
                    f"names nothing in the forward `{fwd}`: expected a forward tensor input, "
                    "a forward output or `<output>_grad`"
                )
            problems.add(b.lines("args"), b.name, f"argument {arg.name!r} {why}")
            continue
        if arg.name in fwd.meta_args:
            problems.add(
                b.lines("args"),
                b.name,
                f"argument {arg.name!r} is no_need_buffer in {fwd.name} (metadata only); "
                "a higher-order backward cannot use it",
            )
            continue
        expected = tables[meanings[0]][arg.name].type
        # The gradient of a grad op's output for an optional input (`bias_grad`) is None when
        # that input was absent: the higher-order entry declares it `Tensor?` to take None.
        maybe_none = meanings[0] == "grad" and arg.type == "Tensor?" and expected == "Tensor"
        if arg.type != expected and not maybe_none:
            problems.add(
                b.lines("args"),
                b.name,
                f"argument {arg.name!r} is `{arg.type}` but the forward has `{expected}`",
            )
    for item in b.no_need_buffer:
        if item not in inputs:
            problems.add(
                b.lines("no_need_buffer"), b.name, f"no_need_buffer {item!r} is not a forward tensor input"
            )
    by_grad = {fwd.input_grad(name): a for name, a in inputs.items()}
    produced = {o.name for o in b.outputs}
    for item in b.no_gradient:
        if item not in inputs:
            why = "is not a forward tensor input"
        elif item in fwd.meta_args:
            why = f"gets no gradient anyway: it is no_need_buffer in {fwd.name}"
        else:
            continue
        problems.add(b.lines("no_gradient"), b.name, f"no_gradient {item!r} {why}")
    if b.needs_input_grad and any(a.is_tensor_list for a in inputs.values()):
        problems.add(
            b.lines("needs_input_grad"),
            b.name,
            f"needs_input_grad is not supported for a forward with a Tensor[] input ({fwd.name})",
        )
    for name in inputs:
        if fwd.input_grad(name) not in produced and name not in fwd.meta_args and name not in b.no_gradient:
            problems.add(
                b.lines("output"),
                b.name,
                f"input {name!r} gets no gradient: add {fwd.input_grad(name)!r} to `output`, "
                f"or list {name!r} under `no_gradient` if it is not differentiable",
            )
    for out in b.outputs:
        source = by_grad.get(out.name)
        if source is None:
            problems.add(
                b.lines("output"),
                b.name,
                f"output {out.name!r} is not the gradient of a forward tensor input, "
                f"{'`grad_wrt_<input>` (the forward is a grad op)' if fwd.of_grad_op else '`<input>_grad`'} "
                f"(expected one of: {', '.join(by_grad) or 'none'})",
            )
        elif source.name in fwd.meta_args:
            problems.add(
                b.lines("output"),
                b.name,
                f"output {out.name!r}: {source.name} is no_need_buffer in {fwd.name}",
            )
        elif out.type != ("Tensor[]" if source.is_tensor_list else "Tensor"):
            problems.add(
                b.lines("output"), b.name, f"output {out.name!r} must be `{source.type.rstrip('?')}`"
            )
