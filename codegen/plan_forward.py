"""Forward functions: a `Function` for each op (ops.py) and each differentiable grad op
(grad_ops.py), an `InplaceFunction` for each op with `inplace:`.

A function converts its arguments, calls the kernel, records views and mutated inputs and,
when an input requires grad, creates the op's node, gives the outputs their history and
saves in the node what its backward reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from opgrad.codegen import docs, naming
from opgrad.codegen.layout import Stmt, call, list_of, tuple_of
from opgrad.codegen.model import BackwardSpec, OpSpec
from opgrad.codegen.plan_parts import (
    META,
    TENSOR,
    AliasArg,
    AttributeCheck,
    ComplexGuard,
    Function,
    GradBlock,
    History,
    InplaceFunction,
    InplaceInto,
    InplaceWrite,
    KernelCall,
    Promotion,
    Result,
    Saved,
    TensorConversion,
    VersionBump,
    ViewMark,
    arg_annotation,
    array,
    dispatch_arrays,
    doc_lines,
    grad_condition,
    kernel_results,
    kernel_stmts,
    optional_grads,
    param,
    prelude,
    python_default,
    quoted,
    requires_grad,
    return_annotation,
    saved,
    signature_params,
    tuple_or_single,
)
from opgrad.codegen.signature import Arg, Output
from opgrad.codegen.validate import GradOpSig, Spec, grad_op_sig, op_sig

# How an attribute is checked: the runtime function (opgrad.runtime.arguments) called when
# the value's class is not one of the fast classes, which pass as they are. `int[]` turns
# a list into a tuple, so a node never records a list the caller may change afterwards.
ATTRIBUTE_CHECKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "float": ("float_arg", ("float",)),
    "Scalar": ("scalar_arg", ("float", "int")),
    "int": ("int_arg", ("int",)),
    "bool": ("bool_arg", ("bool",)),
    "str": ("str_arg", ("str",)),
    "int[]": ("int_list_arg", ("tuple", "int")),
}


def _attribute_check(name: str, a: Arg) -> AttributeCheck:
    """`if x.__class__ is not float: x = float_arg(x, "op", "x")` (see `AttributeCheck`)."""
    if a.base_type == "DataType":
        return AttributeCheck(name, a.name, "dtype_arg", (), a.is_optional)
    function, fast = ATTRIBUTE_CHECKS[a.base_type]
    return AttributeCheck(name, a.name, function, fast, a.is_optional)


def _conversions(
    name: str, args: tuple[Arg, ...], like: Callable[[Arg], str], written: tuple[str, ...] = ()
) -> list[TensorConversion | AttributeCheck]:
    """Numbers and arrays passed for tensors become tensors (dtype following `like(arg)`),
    except for arguments the kernel writes into (`written`, from `mutates:`): a converted copy
    would take the write, so they must be Tensors already. Attributes are checked and converted
    to the type the kernel takes (`_attribute_check`)."""
    conversions: list[TensorConversion | AttributeCheck] = []
    for a in args:
        if a.is_tensor:
            form = "list" if a.is_tensor_list else "optional" if a.is_optional else "tensor"
            if a.name in written:
                form = "written-optional" if a.is_optional else "written"
            conversions.append(TensorConversion(name, a.name, "" if a.is_tensor_list else like(a), form))
    conversions += [_attribute_check(name, a) for a in args if not a.is_tensor]
    return conversions


def alias_params(args: tuple[Arg, ...], aliases: tuple[tuple[str, str], ...], params: list[str]) -> list[str]:
    """The parameters with an op's `alias:` names added: each alias trails the arguments
    (default None: not given), so a call that uses none of them pays one `is` test per
    alias. A required argument that has an alias gets the default None (the alias may
    stand in for it); `alias_arg` says which is missing."""
    aliased = dict(aliases)
    out = list(params)
    for i, a in enumerate(args):
        if a.name in aliased and a.default is None:
            out[i] = f"{a.name}: {arg_annotation(a)} | None = None"
    by_name = {a.name: a for a in args}
    for arg, alias in aliases:
        annotation = arg_annotation(by_name[arg])
        out.append(f"{alias}: {annotation if by_name[arg].is_optional else annotation + ' | None'} = None")
    return out


def _alias_checks(name: str, args: tuple[Arg, ...], aliases: tuple[tuple[str, str], ...]) -> list[AliasArg]:
    """`if dim is not None: axis = alias_arg("sum", "axis", axis, (), "dim", dim, False)`: the
    alias stands in for the argument, and giving both is a TypeError (opgrad.runtime.arguments).
    For a required argument the test also catches neither being given."""
    by_name = {a.name: a for a in args}
    return [
        AliasArg(name, arg, python_default(by_name[arg]) or "None", alias, by_name[arg].default is None)
        for arg, alias in aliases
    ]


def _promotions(
    name: str, args: tuple[Arg, ...], promote: tuple[str, tuple[str, ...]] | None
) -> list[Promotion]:
    """`promote:` (runtime/promotion.py): `if x._data.dtype is not y._data.dtype: x, y =
    promote_args("add", False, x, y)`; a float op also tests `x._data.dtype not in FLOAT_DTYPES`
    (a set look-up: `dtype.kind` costs twice as much). The common call (one
    dtype, floating) pays the inline test only; a Tensor[] is always passed."""
    if promote is None:
        return []
    mode, all_names = promote
    by_name = {a.name: a for a in args}
    names = tuple(n for n in all_names if by_name[n].is_tensor)
    scalars = tuple(n for n in all_names if not by_name[n].is_tensor)
    first = names[0]
    if by_name[first].is_tensor_list:
        return [Promotion(name, (first,), "promote_list")]
    out = []
    if scalars:  # a float Scalar with an integer tensor: the default float dtype (pow(x, 0.5))
        out.append(Promotion(name, (first,), "promote_float", float_scalars=scalars))
    if len(names) == 1 and mode == "common":
        return out
    differs = tuple((n, by_name[n].is_optional) for n in names[1:])
    if len(names) == 1:
        return [*out, Promotion(name, names, "promote_float", not_float=mode == "float")]
    return [*out, Promotion(name, names, "promote_args", mode == "float", differs, mode == "float")]


def _marks(
    outputs: tuple[Output, ...], base: str | None, mutates: tuple[str, ...], mutates_if: str | None
) -> tuple[ViewMark | VersionBump, ...]:
    """What the kernel did besides returning outputs, recorded right after it ran: every
    output of a `view:` op is a view of `base`, and the `mutates:` arguments (when
    `mutates_if` is true) get one version bump."""
    marks: list[ViewMark | VersionBump] = []
    if base is not None:
        marks += [ViewMark(o.name, base, "list" if o.is_list else "tensor") for o in outputs]
    if mutates:
        marks.append(VersionBump(mutates, mutates_if))
    return tuple(marks)


def _function(
    sig: GradOpSig,
    kernel: str,
    doc: str,
    backward: BackwardSpec | None,
    *,
    convert: bool,
    visible: tuple[Output, ...],
    intermediate: tuple[Output, ...],
    optional_outputs: frozenset[str],
    refuse: bool,
    check_dtype: bool = False,
    view: str | None = None,
    mutates: tuple[str, ...] = (),
    mutates_if: str | None = None,
    aliases: tuple[tuple[str, str], ...] = (),
    promote: tuple[str, tuple[str, ...]] | None = None,
    guard: ComplexGuard | None = None,
    complex_results: bool = False,
) -> Function:
    meta = set(sig.meta_args)
    params = alias_params(
        sig.args, aliases, [param(a, a.name in meta, convert and a.name not in mutates) for a in sig.args]
    )
    signature = Stmt(
        "def ", signature_params(sig.name, params), f" -> {return_annotation(visible, optional_outputs)}:"
    )
    tensors = [a for a in sig.args if a.is_tensor]

    produced = {o.name for o in backward.outputs} if backward is not None else set()
    diff_inputs = [a for a in tensors if sig.input_grad(a.name) in produced]
    conversions: list[TensorConversion | AttributeCheck | AliasArg | Promotion | ComplexGuard] = []
    conversions += _alias_checks(sig.name, sig.args, aliases)
    if convert:
        # A number passed for a tensor takes the dtype of another tensor argument, a
        # differentiable one if there is one (where(cond, x, 0.0): 0.0 follows x, not cond).
        likes = [a for a in diff_inputs if not a.is_tensor_list] + [
            a for a in tensors if a not in diff_inputs and not a.is_tensor_list
        ]
        conversions += _conversions(
            sig.name,
            sig.args,
            lambda a: next((o.name for o in likes if o is not a), "None"),
            mutates,
        )
        conversions += _promotions(sig.name, sig.args, promote)
    if guard is not None:
        conversions.append(guard)

    tensor_forms = [(a, META if a.name in meta else TENSOR) for a in tensors]
    body: list[Stmt | KernelCall] = [p for a, form in tensor_forms if (p := prelude(a, form)) is not None]
    arrays = dispatch_arrays(tensor_forms)
    kernel_args = [array(a, form) for a, form in tensor_forms] + [a.name for a in sig.args if not a.is_tensor]
    results = [
        Result(o.name, "list" if o.is_list else "optional" if o.name in optional_outputs else "tensor")
        for o in visible
    ]
    if intermediate:
        # The kernel returns every output in spec order; intermediates are wrapped only if saved.
        order = [o.name for o in sig.outputs]
        raw = naming.KERNEL_RESULTS
        body += kernel_stmts(sig.name, kernel, arrays, kernel_args, raw, "raw", len(order))
        for r in results:
            source = naming.result_local(order.index(r.local))
            body.append(
                Stmt(
                    f"{r.local} = ",
                    call("wrap", source) if r.kind == "tensor" else list_of(f"wrap(_a) for _a in {source}"),
                )
            )
    else:
        body += kernel_results(sig.name, kernel, arrays, kernel_args, results)

    grad_inputs = [a for a in tensors if a.name not in meta]
    refusal = None
    if refuse:
        refusal = grad_condition([requires_grad(a) for a in grad_inputs], " and grad_enabled():")

    marks = _marks(visible, view, mutates, mutates_if)
    # One tensor result that nothing reads before the node is made (no marks) can be made
    # together with its node (`recorded`): the kernel's array stays raw until then.
    last = body[-1] if body else None
    fuse = None
    if (
        not marks
        and len(results) == 1
        and isinstance(last, KernelCall)
        and last.wrap
        and not last.unpacked
        and last.target == results[0].local
    ):
        fuse = naming.KERNEL_RESULT
    grad = None
    if backward is not None:
        grad = _grad_block(
            sig,
            backward,
            visible,
            intermediate,
            optional_outputs,
            diff_inputs,
            check_dtype,
            complex_results,
            fuse,
        )
    if grad is not None and grad.otherwise is not None and isinstance(last, KernelCall):
        body[-1] = replace(last, target=naming.KERNEL_RESULT, wrap=False)

    returns = Stmt("return ", tuple_or_single([o.name for o in visible]))
    return Function(
        sig.name,
        doc_lines(doc, 4),
        signature,
        refusal,
        tuple(conversions),
        tuple(body),
        marks,
        grad,
        returns,
    )


def _grad_block(
    sig: GradOpSig,
    backward: BackwardSpec,
    visible: tuple[Output, ...],
    intermediate: tuple[Output, ...],
    optional_outputs: frozenset[str],
    diff_inputs: list[Arg],
    check_dtype: bool,
    complex_results: bool = False,
    raw: str | None = None,
) -> GradBlock:
    """When an input requires grad: the node, its outputs' histories, what it saves. With
    `raw` (the kernel's unwrapped array, see `_function`) and one or two plain inputs, the
    output is made with its node, and wrapped alone when nothing is recorded."""
    tensors = [a for a in sig.args if a.is_tensor]
    inputs: list[str] = []
    counts: list[Saved] = []
    for a in tensors:
        if a in diff_inputs:
            inputs.append(f"*{a.name}" if a.is_tensor_list else a.name)
        elif a.is_tensor_list:
            # no gradient for a no_need_buffer Tensor[]: one None per position, counted
            inputs.append(f"*[None] * {naming.BUILTINS_ALIAS}.len({a.name})")
            count = f"{naming.BUILTINS_ALIAS}.len({a.name})"
            counts.append(Saved(naming.count_slot(a.name), a.name, "value", source=count))
        else:
            inputs.append("None")
    node_class = f"{naming.NODES_ALIAS}.{naming.node_class(backward.name)}"
    nondiff = {o.name for o in visible} - {o.name for o in sig.differentiable_outputs}
    first = visible[0] if visible else None
    # The common case, one plain tensor at output position 0, takes one runtime call.
    joined = (
        first is not None
        and first.name not in nondiff
        and not first.is_list
        and first.name not in optional_outputs
    )
    few = len(inputs) in (1, 2) and not any(i.startswith("*") for i in inputs)
    raw = raw if joined and few else None  # the output is made with its node
    fused = raw is not None
    if joined and first is not None:  # (joined implies it; said again for the type checker)
        if raw is not None:
            make_node = Stmt(f"{first.name}, node = ", call("recorded", node_class, raw, *inputs))
        elif few:
            make_node = Stmt("node = ", call("new_node_of", node_class, first.name, *inputs))
        else:
            make_node = Stmt("node = ", call("new_node", node_class, tuple_of(*inputs), first.name))
    else:
        make_node = Stmt("node = ", call(node_class, tuple_of(*inputs)))
    histories: list[History] = []
    for position, o in enumerate(visible):
        if joined and position == 0:
            continue  # recorded or new_node(_of) gave it its history
        if o.name not in nondiff:
            form = "list" if o.is_list else "optional" if o.name in optional_outputs else "tensor"
            histories.append(History(o.name, position, form))
    saves = counts + _saves(sig, backward, intermediate, nondiff, {a.name for a in diff_inputs})
    if joined and not histories and not saves and not fused:  # nothing else refers to the node
        make_node = Stmt("", make_node.body)
    # An output that may be an integer or bool tensor is recorded only when it is a
    # floating one (integer results never require grad): see `_dtype_follows_argument`.
    checked = None
    if check_dtype:
        checked = next((o.name for o in visible if o.name not in nondiff and not o.is_list), None)
    test = 'in "fc"' if complex_results else '== "f"'
    dtype = f"{raw}.dtype" if fused else f"{checked}._data.dtype"
    tail = " and grad_enabled()" + (f" and {dtype}.kind {test}" if checked else "") + ":"
    condition = grad_condition([requires_grad(a) for a in diff_inputs], tail)
    otherwise = Stmt(f"{first.name} = ", call("wrap", raw)) if raw is not None and first is not None else None
    return GradBlock(condition, make_node, tuple(histories), tuple(saves), checked, otherwise)


def _saves(
    sig: GradOpSig,
    backward: BackwardSpec,
    intermediate: tuple[Output, ...],
    nondiff: set[str],
    edges: set[str],
) -> list[Saved]:
    """What the node keeps: the inputs and outputs its backward reads, then the attributes.
    An input the node has an edge to (`edges`: its differentiable inputs) is kept with
    `of_edge`, which may keep its producer's saved-output wrapper instead of the Tensor."""
    saves: list[Saved] = []
    bwd_meta = set(backward.no_need_buffer)
    out_order = [o.name for o in sig.outputs]
    for a in backward.args:
        fwd_arg = sig.arg(a.name)
        fwd_out = sig.output(a.name)
        if fwd_arg is not None:
            how = "meta_of" if a.name in bwd_meta else "of_edge" if a.name in edges else "of_input"
            saves.append(saved(a.name, fwd_arg, how))
        elif fwd_out is not None:
            # An output with history is saved with a weak link back to the node; an
            # intermediate or non-differentiable one has no history, so no cycle: keep it.
            if any(o.name == a.name for o in intermediate):
                source = f"wrap({naming.result_local(out_order.index(a.name))})"
                saves.append(Saved(a.name, a.name, "of_input", source=source))
            elif a.name in nondiff:
                saves.append(saved(a.name, fwd_out, "of_input"))
            else:
                saves.append(saved(a.name, fwd_out, "of_output"))
    for a in sig.args:
        if not a.is_tensor:
            saves.append(Saved(a.name, a.name, "value"))
    return saves


def _dtype_follows_argument(op: OpSpec) -> bool:
    """Whether the op may return an integer or bool tensor while an input requires grad.

    An op with a single (non-list) tensor argument and no `DataType` attribute returns
    that tensor's dtype family, floating whenever it requires grad. With a `DataType`
    attribute (`cast`) the result follows the attribute; with several tensor arguments
    it may follow one that does not require grad (`index_add` into an integer tensor of
    a float source), so the forward checks the result's dtype before recording it.
    """
    tensors = op.tensor_args
    if any(a.base_type == "DataType" for a in op.attrs):
        return True
    return len(tensors) > 1 or any(a.is_tensor_list for a in tensors)


def complex_guard(op: OpSpec, spec: Spec) -> ComplexGuard | None:
    """The tensor arguments an op without `complex: true` tests for a complex dtype: those
    that promotion does not already test. `promote: float(...)` converts non-floating
    operands through promote_float/promote_args, which refuse complex ones; after
    `promote: common(x, y)` the operands share x's dtype, so x alone is tested. Arguments
    outside `promote:` are tested when the op differentiates them or has no backward
    (comparisons, sort: a complex input would be ordered as NumPy orders it)."""
    if op.complex:
        return None
    mode, promoted = op.promote if op.promote is not None else ("", ())
    differentiated: set[str] = set()
    if op.backward is not None:
        produced = {o.name for o in spec.backward(op.backward).outputs}
        differentiated = {a.name for a in op.tensor_args if naming.grad_name(a.name) in produced}
    names: list[tuple[str, bool]] = []
    if mode == "common":
        first = next((a for a in op.tensor_args if a.name in promoted and not a.is_tensor_list), None)
        if first is not None:
            names.append((first.name, first.is_optional))
    for a in op.tensor_args:
        if a.is_tensor_list or a.name in promoted:
            continue
        if op.backward is None or a.name in differentiated:
            names.append((a.name, a.is_optional))
    return ComplexGuard(op.name, tuple(names)) if names else None


def op_function(op: OpSpec, spec: Spec) -> Function:
    backward = spec.backward(op.backward) if op.backward else None
    intermediate = tuple(o for o in op.outputs if o.name in op.intermediate)
    function = _function(
        op_sig(op),
        op.kernel,
        op.doc,
        backward,
        convert=True,
        visible=op.visible_outputs,
        intermediate=intermediate,
        optional_outputs=frozenset(),
        refuse=False,
        check_dtype=_dtype_follows_argument(op),
        view=op.view,
        mutates=op.mutates,
        mutates_if=op.mutates_if,
        aliases=op.aliases,
        promote=op.promote,
        guard=complex_guard(op, spec),
        complex_results=op.complex,
    )
    return replace(function, doc=docs.op_docstring(op, spec))


def inplace_function(op: OpSpec, spec: Spec) -> InplaceFunction:
    """`op_(x, ...)`: the op's kernel, its result written into x (see `InplaceFunction`)."""
    assert op.inplace is not None and op.inplace_name is not None and op.backward is not None
    name = op.inplace_name
    target, out = op.inplace
    backward = spec.backward(op.backward)
    params = alias_params(op.args, op.aliases, [param(a, converted=a.name != target) for a in op.args])
    signature = Stmt("def ", signature_params(name, params), " -> Tensor:")
    doc = docs.inplace_docstring(op, spec)

    refuse = TensorConversion(name, target, "", "written")  # a copy would take the write
    rest = tuple(a for a in op.args if a.name != target)
    aliases = _alias_checks(name, op.args, op.aliases)
    conversions: list[TensorConversion | AttributeCheck | AliasArg | ComplexGuard] = [
        refuse,
        *aliases,
        *_conversions(name, rest, lambda a: target),
    ]
    if not op.complex:  # no promotion here: every tensor argument is tested
        tested = tuple((a.name, a.is_optional) for a in op.tensor_args if not a.is_tensor_list)
        conversions.append(ComplexGuard(name, tested))

    tensors = list(op.tensor_args)
    produced = {o.name for o in backward.outputs}
    diff_inputs = [a for a in tensors if naming.grad_name(a.name) in produced]
    others = [f"*{a.name}" if a.is_tensor_list else a.name for a in diff_inputs if a.name != target]
    record = Stmt("record = ", call("check_inplace", quoted(name), target, *others))
    attrs = [a.name for a in op.args if not a.is_tensor]
    forms = [(a, TENSOR) for a in tensors]
    body: list[Stmt | KernelCall] = [p for a, form in forms if (p := prelude(a, form)) is not None]
    kernel_args = [array(a, form) for a, form in forms] + attrs
    body += kernel_stmts(name, op.kernel, dispatch_arrays(forms), kernel_args, naming.KERNEL_RESULT, "raw")
    into = None
    if op.inplace_into:
        (kernel,) = [s for s in body if isinstance(s, KernelCall)]
        assert kernel.table is not None
        into = InplaceInto(target, kernel.table, tuple(array(a, form) for a, form in forms), tuple(attrs))

    inputs: list[str] = []
    counts: list[Saved] = []
    for a in tensors:
        if a in diff_inputs:
            inputs.append(f"*{a.name}" if a.is_tensor_list else a.name)
        elif a.is_tensor_list:  # no gradient for its positions: one None each, counted (as out of place)
            count = f"{naming.BUILTINS_ALIAS}.len({a.name})"
            inputs.append(f"*[None] * {count}")
            counts.append(Saved(naming.count_slot(a.name), a.name, "value", source=count))
        else:
            inputs.append("None")
    make_node = Stmt(
        "node = ", call(f"{naming.NODES_ALIAS}.{naming.node_class(backward.name)}", tuple_of(*inputs))
    )
    saves_before: list[Saved] = list(counts)
    saves_after: list[Saved] = []
    old = f"saved_before_write({target})"
    for a in backward.args:
        fwd_arg = op.arg(a.name)
        if a.name == out:
            saves_after.append(Saved(out, target, "of_output"))
        elif fwd_arg is None:
            continue  # a gradient
        elif a.name in backward.no_need_buffer:
            saves_before.append(saved(a.name, fwd_arg, "meta_of"))
        elif a.name == target:
            # x's memory is about to change: keep a copy of its old value (with its history).
            saves_before.append(Saved(a.name, a.name, "of_input", source=old))
        else:
            # The same tensor may be passed for both (x.mul_(x)): save x's old value then.
            element = f"{old} if _t is {target} else _t"
            source = "" if fwd_arg.is_tensor_list else f"{old} if {a.name} is {target} else {a.name}"
            saves_before.append(saved(a.name, fwd_arg, "of_input", source, element))
    saves_before += [Saved(a, a, "value") for a in attrs]
    return InplaceFunction(
        name=name,
        doc=doc,
        signature=signature,
        conversions=tuple(conversions),
        record=record,
        body=tuple(body),
        make_node=make_node,
        saves_before=tuple(saves_before),
        write=InplaceWrite(name, target, naming.KERNEL_RESULT),
        history=History(target, 0, "tensor"),
        saves_after=tuple(saves_after),
        returns=Stmt("return ", target),
        into=into,
    )


def grad_op_function(bwd: BackwardSpec, spec: Spec) -> Function:
    assert bwd.kernel is not None
    sig = grad_op_sig(bwd, spec)
    own = spec.backward(bwd.backward) if bwd.backward else None
    return _function(
        sig,
        bwd.kernel,
        bwd.doc,
        own,
        convert=False,  # called by nodes with tensors only
        visible=sig.outputs,
        intermediate=(),
        optional_outputs=optional_grads(bwd, spec),
        refuse=own is None,
    )
