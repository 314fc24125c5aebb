"""What to generate, decided: the validated `Spec` turned into template-ready dataclasses.

Every decision lives here -- which arguments are converted and how, what a node saves
and how (`of_input`, `meta_of` under no_need_buffer, `of_output`), which positions get
history, which kernel is called with which arguments, what `apply` returns for each
input position, which imports a module needs. Templates only loop over these and
substitute; `layout.py` only breaks long lines.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from opgrad.codegen import naming
from opgrad.codegen.composite import Composite
from opgrad.codegen.layout import (
    INDENT,
    LINE_LENGTH,
    Cond,
    Group,
    Item,
    Stmt,
    call,
    fits,
    flat,
    list_of,
    tuple_of,
)
from opgrad.codegen.model import BackwardSpec, OpSpec
from opgrad.codegen.signature import Arg, DType, Output
from opgrad.codegen.validate import GradOpSig, Spec, grad_op_sig, op_sig

NODES = "_nodes"
GRAD_OPS = "_grad_ops"
OPS = "_ops"
BUILTINS = "_builtins"
# Prefix of the module-level kernel tables (`_k_tanh = kernel_table("tanh")`).
KERNEL_TABLE = "_k_"


@dataclass(frozen=True)
class Guarded:
    """A statement, optionally under a one-line `if ...:` / `for ...:` header."""

    header: str | None
    stmt: Stmt


@dataclass(frozen=True)
class GradBlock:
    """The autograd part of a function: runs only when an input requires grad."""

    condition: Cond
    make_node: Stmt
    histories: tuple[Guarded, ...]
    saves: tuple[Stmt, ...]


@dataclass(frozen=True)
class Function:
    """One generated function: an op (ops.py) or a differentiable grad op (grad_ops.py)."""

    name: str
    doc: tuple[str, ...]
    signature: Stmt
    refuse: Cond | None  # grad ops without a backward: refuse to be differentiated
    conversions: tuple[Guarded, ...]
    body: tuple[Stmt, ...]
    marks: tuple[Guarded, ...]  # after the kernel: `view:` outputs, `mutates:` writes
    grad: GradBlock | None
    returns: Stmt
    inplace = False


@dataclass(frozen=True)
class InplaceFunction:
    """The in-place variant `op_` of an op with `inplace: (x -> out)`.

    Everything that can raise runs before x is written: conversions, `check_inplace`, the
    kernel, and (inside `write_inplace`) the shape and dtype checks. The node takes its
    edges and saved inputs from x's old value, then x becomes the node's output.
    """

    name: str
    doc: tuple[str, ...]
    signature: Stmt
    conversions: tuple[Guarded, ...]
    record: Stmt  # record = check_inplace(...)
    body: tuple[Stmt, ...]  # the kernel, into `_result`
    make_node: Stmt
    saves_before: tuple[Stmt, ...]  # inputs (x's old value) and attributes
    write: Stmt
    history: Stmt
    saves_after: tuple[Stmt, ...]  # the output, which is x now
    returns: Stmt
    inplace = True


@dataclass(frozen=True)
class Node:
    """One GradNode subclass, for one backward.yaml entry."""

    class_name: str
    name: str
    doc: tuple[str, ...]
    slots: Stmt
    reads: tuple[Stmt, ...]  # gradients (and a composite's saved tensors) as locals
    create_graph: tuple[Stmt, ...]  # the recorded path: unpack, grad op (empty: composite)
    compute: tuple[Stmt, ...]  # the kernel path (unpack_data, kernel), or the composite
    returns: Stmt
    released: tuple[str, ...]  # wrapper slots dropped by release_saved
    non_differentiable: str | None  # output positions without gradient, e.g. "(1,)"
    n_outputs: int  # output positions of a multi-output forward (0: one output, or a Tensor[])


@dataclass(frozen=True)
class Method:
    """A `Tensor` method or operator that calls an op."""

    name: str
    signature: Stmt
    call: Stmt


@dataclass(frozen=True)
class Module:
    """One generated file."""

    file: str
    title: tuple[str, ...]  # the module docstring, wrapped
    all: Stmt | None
    functions: tuple[Function | InplaceFunction, ...] = ()
    nodes: tuple[Node, ...] = ()
    methods: tuple[Method, ...] = ()
    hash_by_identity: bool = False  # __eq__ is bound: keep tensors hashable
    has_inplace: bool = False  # ops.py: define the helper in-place functions raise with
    type_only: frozenset[str] = frozenset()  # imported under `if TYPE_CHECKING:`

    @property
    def template(self) -> str:
        return self.file.removesuffix(".py") + ".py.jinja2"


@dataclass(frozen=True)
class Plan:
    modules: tuple[Module, ...]
    package: str  # where the generated modules are imported from


# --- small helpers ---------------------------------------------------------------------------


def _q(text: str) -> str:
    return f'"{text}"'


def _annotation(arg: Arg, meta: bool = False) -> str:
    if meta:
        return "list[TensorMeta]" if arg.is_tensor_list else "TensorMeta"
    base = {
        "Tensor": "Tensor",
        "Tensor[]": "list[Tensor]",
        "Scalar": "float",
        "int": "int",
        "float": "float",
        "bool": "bool",
        "str": "str",
        "int[]": "Sequence[int] | int",
        "DataType": "Any",
    }[arg.base_type]
    return f"{base} | None" if arg.is_optional and base != "Any" else base


def _default(arg: Arg) -> str | None:
    if arg.default is None:
        return None
    value = arg.default.value
    if value is None or isinstance(value, bool | int):
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _q(value)
    if isinstance(value, DType):
        return _q(value.name)
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + (",)" if len(value) == 1 else ")")
    raise AssertionError(value)  # pragma: no cover


def _param(arg: Arg, meta: bool = False) -> str:
    default = _default(arg)
    head = f"{arg.name}: {_annotation(arg, meta)}"
    return head if default is None else f"{head} = {default}"


def _returns(outputs: tuple[Output, ...], optional: frozenset[str] = frozenset()) -> str:
    def one(o: Output) -> str:
        t = "list[Tensor]" if o.is_list else "Tensor"
        return f"{t} | None" if o.name in optional else t

    if len(outputs) == 1:
        return one(outputs[0])
    return f"tuple[{', '.join(one(o) for o in outputs)}]"


def _doc(text: str, indent: int) -> tuple[str, ...]:
    return tuple(textwrap.wrap(text, LINE_LENGTH - indent - 6, break_on_hyphens=False)) or ("",)


def _tuple_or_single(items: list[str]) -> Item:
    return items[0] if len(items) == 1 else tuple_of(*items)


def kernel_table_name(kernel: str) -> str:
    """The module-level `kernel_table(kernel)` a one-array kernel is resolved through."""
    return f"{KERNEL_TABLE}{kernel}"


def _kernel_stmts(
    op: str, kernel: str, arrays: list[str], args: list[str], target: str, wrap_as: str
) -> list[Stmt]:
    """Resolve and call a kernel; `wrap_as` is "tensor" (wrap the result) or "raw".

    A kernel is looked up in its module-level table by the array's type (one dict look-up;
    with several arrays, after an inline check that they are all of that type), with
    `dispatch` as the fallback that resolves and fills the table and explains mixed
    devices. Several arrays whose check does not fit on a line go through `dispatch`
    alone. One statement when it fits on a line, else `_kernel = ...` first.
    """
    resolve = call("dispatch", _q(op), _q(kernel), *arrays)
    compact = Group(resolve.flat(), tuple(args))
    if len(arrays) > 1 and not any(a.startswith("*") for a in arrays):
        # Several arrays of one type (checked inline) use the table too; when the check
        # fails (mixed types, an absent optional array) `dispatch` resolves or explains.
        same = " is ".join(f"{a}.__class__" for a in arrays)
        table = kernel_table_name(kernel)
        pick = Stmt("_kernel = ", f"{table}.get({arrays[0]}.__class__) if {same} else None")
        invoke = Group(f"(_kernel or {resolve.flat()})", tuple(args))
        run = Stmt(f"{target} = ", call("wrap", invoke) if wrap_as == "tensor" else invoke)
        if fits(pick.flat(), 2 * len(INDENT)) and fits(run.flat(), 2 * len(INDENT)):
            return [pick, run]
    if len(arrays) == 1 and not arrays[0].startswith("*"):
        # `_k_name.get(x.__class__) or dispatch(...)`: a Group, so a long line breaks in
        # dispatch's arguments as ruff breaks it.
        resolve = Group(f"{kernel_table_name(kernel)}.get({arrays[0]}.__class__) or dispatch", resolve.items)
        compact = Group(f"({resolve.flat()})", tuple(args))
    body: Item = call("wrap", compact) if wrap_as == "tensor" else compact
    one = Stmt(f"{target} = ", body)
    if fits(one.flat(), 2 * len(INDENT)):
        return [one]
    invoke = call("_kernel", *args)
    return [
        Stmt("_kernel = ", resolve),
        Stmt(f"{target} = ", call("wrap", invoke) if wrap_as == "tensor" else invoke),
    ]


@dataclass(frozen=True)
class _Result:
    local: str
    kind: str  # "tensor" | "list" | "optional"


def _results(op: str, kernel: str, arrays: list[str], args: list[str], results: list[_Result]) -> list[Stmt]:
    """Kernel call plus wrapping of every result into Tensors."""
    if len(results) == 1 and results[0].kind == "tensor":
        return _kernel_stmts(op, kernel, arrays, args, results[0].local, "tensor")
    raw = "_result" if len(results) == 1 else "_results"
    stmts = _kernel_stmts(op, kernel, arrays, args, raw, "raw")
    for i, r in enumerate(results):
        source = raw if len(results) == 1 else f"{raw}[{i}]"
        if r.kind == "tensor":
            stmts.append(Stmt(f"{r.local} = ", call("wrap", source)))
        elif r.kind == "list":
            stmts.append(Stmt(f"{r.local} = ", list_of(f"wrap(_a) for _a in {source}")))
        else:
            stmts.append(Stmt(f"{r.local} = ", f"None if {source} is None else wrap({source})"))
    return stmts


def _requires_grad(arg: Arg) -> str:
    if arg.is_tensor_list:
        return f"{BUILTINS}.any(_t._requires_grad for _t in {arg.name})"
    if arg.is_optional:
        return f"({arg.name} is not None and {arg.name}._requires_grad)"
    return f"{arg.name}._requires_grad"


# How a tensor argument is held where its kernel is called: a Tensor local ("tensor"), an
# array local ("array": a saved tensor unpacked with `unpack_data` on a node's first-order
# path) or metadata only ("meta": no_need_buffer; passed as it is, never picks the backend).
TENSOR, ARRAY, META = "tensor", "array", "meta"


def _array(arg: Arg, form: str) -> str:
    """The kernel argument for a tensor argument (after the prelude)."""
    if form != TENSOR:
        return arg.name
    if arg.is_tensor_list or arg.is_optional:
        return f"_{arg.name}_data"
    return f"{arg.name}._data"


def _prelude(arg: Arg, form: str) -> Stmt | None:
    """A list's arrays (or an optional tensor's array or None), gathered once into `_x_data`.
    A plain Tensor's `x._data` is read where it is used: binding it to a local measured no
    faster (a slot read is a few ns) and only made the code longer."""
    if form != TENSOR:
        return None
    if arg.is_tensor_list:
        return Stmt(f"_{arg.name}_data = ", list_of(f"_t._data for _t in {arg.name}"))
    if arg.is_optional:
        return Stmt(f"_{arg.name}_data = ", f"None if {arg.name} is None else {arg.name}._data")
    return None


def _dispatch_arrays(args: list[tuple[Arg, str]]) -> list[str]:
    """Arrays that pick the backend: required tensors first, then lists, then optionals."""
    held = [(a, form) for a, form in args if form != META]
    plain = [_array(a, form) for a, form in held if a.type == "Tensor"]
    lists = [f"*{_array(a, form)}" for a, form in held if a.is_tensor_list]
    optional = [_array(a, form) for a, form in held if a.type == "Tensor?"]
    return plain + lists + optional


def _kernel_call(
    op: str, kernel: str, args: list[tuple[Arg, str]], attrs: list[str], results: list[_Result]
) -> list[Stmt]:
    """Preludes, then the kernel called with the tensors' arrays and the attributes."""
    stmts = [p for a, form in args if (p := _prelude(a, form)) is not None]
    kernel_args = [_array(a, form) for a, form in args] + attrs
    return stmts + _results(op, kernel, _dispatch_arrays(args), kernel_args, results)


def _wrapper(source: str, arg_or_out: Arg | Output, how: str) -> Item:
    """`TensorWrapper.<how>(t[, node])` for a tensor, list or optional tensor."""
    extra = (", node",) if how == "of_output" else ()
    if isinstance(arg_or_out, Arg) and arg_or_out.is_optional:
        return f"None if {source} is None else TensorWrapper.{how}({source}{''.join(extra)})"
    if (isinstance(arg_or_out, Arg) and arg_or_out.is_tensor_list) or (
        isinstance(arg_or_out, Output) and arg_or_out.is_list
    ):
        return list_of(f"TensorWrapper.{how}(_t{''.join(extra)}) for _t in {source}")
    return call(f"TensorWrapper.{how}", source, *(["node"] if extra else []))


# --- functions (ops.py and grad_ops.py) ----------------------------------------------------


def _conversions(name: str, args: tuple[Arg, ...], like: Callable[[Arg], str]) -> list[Guarded]:
    """Numbers and arrays passed for tensors become tensors (dtype following `like(arg)`);
    DataType arguments become NumPy dtypes."""
    conversions: list[Guarded] = []
    for a in args:
        if not a.is_tensor:
            continue
        if a.is_tensor_list:
            conv = call("tensors_of", a.name, _q(name), _q(a.name))
            conversions.append(Guarded(None, Stmt(f"{a.name} = ", conv)))
            continue
        guard = f"if not isinstance({a.name}, Tensor):"
        if a.is_optional:
            guard = f"if {a.name} is not None and not isinstance({a.name}, Tensor):"
        conv = call("as_tensor_arg", a.name, like(a), _q(name), _q(a.name))
        conversions.append(Guarded(guard, Stmt(f"{a.name} = ", conv)))
    for a in args:
        if a.base_type == "DataType":
            value = f"_np.dtype({a.name})"
            if a.is_optional:
                value = f"None if {a.name} is None else {value}"
            conversions.append(Guarded(None, Stmt(f"{a.name} = ", value)))
    return conversions


def _marks(
    outputs: tuple[Output, ...], base: str | None, mutates: tuple[str, ...], mutates_if: str | None
) -> tuple[Guarded, ...]:
    """What the kernel did besides returning outputs, recorded right after it ran:
    `mark_view(out, x)` for every output (every element of a Tensor[] one) of a `view:` op,
    and one version bump for each `mutates:` argument (when `mutates_if` is true)."""
    marks: list[Guarded] = []
    if base is not None:
        marks += [
            Guarded(f"for _t in {o.name}:", Stmt("", call("mark_view", "_t", base)))
            if o.is_list
            else Guarded(None, Stmt("", call("mark_view", o.name, base)))
            for o in outputs
        ]
    if mutates:
        header = None if mutates_if is None else f"if {mutates_if}:"
        marks.append(Guarded(header, Stmt("", call("bump_versions", *mutates))))
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
    view: str | None = None,
    mutates: tuple[str, ...] = (),
    mutates_if: str | None = None,
) -> Function:
    meta = set(sig.meta_args)
    params = [_param(a, a.name in meta) for a in sig.args]
    signature = Stmt("def ", call(sig.name, *params), f" -> {_returns(visible, optional_outputs)}:")
    tensors = [a for a in sig.args if a.is_tensor]

    produced = {o.name for o in backward.outputs} if backward is not None else set()
    diff_inputs = [a for a in tensors if naming.grad_name(a.name) in produced]
    conversions: list[Guarded] = []
    if convert:
        # A number passed for a tensor takes the dtype of another tensor argument, a
        # differentiable one if there is one (where(cond, x, 0.0): 0.0 follows x, not cond).
        likes = [a for a in diff_inputs if not a.is_tensor_list] + [
            a for a in tensors if a not in diff_inputs and not a.is_tensor_list
        ]
        conversions = _conversions(
            sig.name, sig.args, lambda a: next((o.name for o in likes if o is not a), "None")
        )

    tensor_forms = [(a, META if a.name in meta else TENSOR) for a in tensors]
    body: list[Stmt] = [p for a, form in tensor_forms if (p := _prelude(a, form)) is not None]
    arrays = _dispatch_arrays(tensor_forms)
    kernel_args = [_array(a, form) for a, form in tensor_forms] + [
        a.name for a in sig.args if not a.is_tensor
    ]
    results = [
        _Result(o.name, "list" if o.is_list else "optional" if o.name in optional_outputs else "tensor")
        for o in visible
    ]
    if intermediate:
        # The kernel returns every output in spec order; intermediates are wrapped only if saved.
        order = [o.name for o in sig.outputs]
        raw = "_results"
        body += _kernel_stmts(sig.name, kernel, arrays, kernel_args, raw, "raw")
        for r in results:
            source = f"{raw}[{order.index(r.local)}]"
            body.append(
                Stmt(
                    f"{r.local} = ",
                    call("wrap", source) if r.kind == "tensor" else list_of(f"wrap(_a) for _a in {source}"),
                )
            )
    else:
        body += _results(sig.name, kernel, arrays, kernel_args, results)

    grad_inputs = [a for a in tensors if a.name not in meta]
    refusal = None
    if refuse:
        refusal = Cond("if", tuple(_requires_grad(a) for a in grad_inputs), " and grad_enabled():")

    grad: GradBlock | None = None
    if backward is not None:
        inputs: list[str] = []
        counts: list[Stmt] = []
        for a in tensors:
            if a in diff_inputs:
                inputs.append(f"*{a.name}" if a.is_tensor_list else a.name)
            elif a.is_tensor_list:
                # no gradient for a no_need_buffer Tensor[]: one None per position, counted
                inputs.append(f"*[None] * {BUILTINS}.len({a.name})")
                counts.append(Stmt(f"node.{count_slot(a.name)} = ", f"{BUILTINS}.len({a.name})"))
            else:
                inputs.append("None")
        node_class = f"{NODES}.{naming.node_class(backward.name)}"
        nondiff = {o.name for o in visible} - {o.name for o in sig.differentiable_outputs}
        first = visible[0] if visible else None
        # The common case, one plain tensor at output position 0, takes one runtime call.
        joined = (
            first is not None
            and first.name not in nondiff
            and not first.is_list
            and first.name not in optional_outputs
        )
        if joined:
            make_node = Stmt("node = ", call("new_node", node_class, tuple_of(*inputs), first.name))
        else:
            make_node = Stmt("node = ", call(node_class, tuple_of(*inputs)))
        histories: list[Guarded] = []
        position = 0
        for o in visible:
            if joined and position == 0:
                pass  # new_node gave it its history
            elif o.name not in nondiff:
                if o.is_list:
                    pos = "_i" if position == 0 else f"_i + {position}"
                    histories.append(
                        Guarded(
                            f"for _i, _t in {BUILTINS}.enumerate({o.name}):",
                            Stmt("", call("set_history", "_t", "node", pos)),
                        )
                    )
                elif o.name in optional_outputs:
                    histories.append(
                        Guarded(
                            f"if {o.name} is not None:",
                            Stmt("", call("set_history", o.name, "node", str(position))),
                        )
                    )
                else:
                    histories.append(
                        Guarded(None, Stmt("", call("set_history", o.name, "node", str(position))))
                    )
            position += 1
        saves: list[Stmt] = counts
        bwd_meta = set(backward.no_need_buffer)
        out_order = [o.name for o in sig.outputs]
        for a in backward.args:
            fwd_arg = sig.arg(a.name)
            fwd_out = sig.output(a.name)
            if fwd_arg is not None:
                how = "meta_of" if a.name in bwd_meta else "of_input"
                saves.append(Stmt(f"node.{a.name} = ", _wrapper(a.name, fwd_arg, how)))
            elif fwd_out is not None:
                # An output with history is saved with a weak link back to the node; an
                # intermediate or non-differentiable one has no history, so no cycle: keep it.
                if any(o.name == a.name for o in intermediate):
                    source = f"wrap(_results[{out_order.index(a.name)}])"
                    saves.append(Stmt(f"node.{a.name} = ", call("TensorWrapper.of_input", source)))
                elif a.name in nondiff:
                    saves.append(Stmt(f"node.{a.name} = ", _wrapper(a.name, fwd_out, "of_input")))
                else:
                    saves.append(Stmt(f"node.{a.name} = ", _wrapper(a.name, fwd_out, "of_output")))
        for a in sig.args:
            if not a.is_tensor:
                saves.append(Stmt(f"node.{a.name} = ", a.name))
        if joined and not histories and not saves:  # nothing else refers to the node
            make_node = Stmt("", make_node.body)
        condition = Cond("if", tuple(_requires_grad(a) for a in diff_inputs), " and grad_enabled():")
        grad = GradBlock(condition, make_node, tuple(histories), tuple(saves))

    returns = Stmt("return ", _tuple_or_single([o.name for o in visible]))
    return Function(
        sig.name,
        _doc(doc, 4),
        signature,
        refusal,
        tuple(conversions),
        tuple(body),
        _marks(visible, view, mutates, mutates_if),
        grad,
        returns,
    )


def op_function(op: OpSpec, spec: Spec) -> Function:
    backward = spec.backward(op.backward) if op.backward else None
    intermediate = tuple(o for o in op.outputs if o.name in op.intermediate)
    return _function(
        op_sig(op),
        op.kernel,
        op.doc,
        backward,
        convert=True,
        visible=op.visible_outputs,
        intermediate=intermediate,
        optional_outputs=frozenset(),
        refuse=False,
        view=op.view,
        mutates=op.mutates,
        mutates_if=op.mutates_if,
    )


def inplace_function(op: OpSpec, spec: Spec) -> InplaceFunction:
    """`op_(x, ...)`: the op's kernel, its result written into x (see `InplaceFunction`)."""
    assert op.inplace is not None and op.inplace_name is not None and op.backward is not None
    name = op.inplace_name
    target, out = op.inplace
    backward = spec.backward(op.backward)
    signature = Stmt("def ", call(name, *[_param(a) for a in op.args]), " -> Tensor:")
    doc = _doc(f"{op.doc} In place: writes the result into {target} and returns {target}.", 4)

    refuse = Guarded(
        f"if not isinstance({target}, Tensor):",
        Stmt("raise ", call("_not_a_tensor", _q(name), _q(target), target)),
    )
    rest = tuple(a for a in op.args if a.name != target)
    conversions = [refuse, *_conversions(name, rest, lambda a: target)]

    tensors = list(op.tensor_args)
    produced = {o.name for o in backward.outputs}
    diff_inputs = [a for a in tensors if naming.grad_name(a.name) in produced]
    others = [f"*{a.name}" if a.is_tensor_list else a.name for a in diff_inputs if a.name != target]
    record = Stmt("record = ", call("check_inplace", _q(name), target, *others))
    attrs = [a.name for a in op.args if not a.is_tensor]
    forms = [(a, TENSOR) for a in tensors]
    body = [p for a, form in forms if (p := _prelude(a, form)) is not None]
    kernel_args = [_array(a, form) for a, form in forms] + attrs
    body += _kernel_stmts(name, op.kernel, _dispatch_arrays(forms), kernel_args, "_result", "raw")

    inputs = [(f"*{a.name}" if a.is_tensor_list else a.name) if a in diff_inputs else "None" for a in tensors]
    make_node = Stmt("node = ", call(f"{NODES}.{naming.node_class(backward.name)}", tuple_of(*inputs)))
    saves_before: list[Stmt] = []
    saves_after: list[Stmt] = []
    old = call("saved_before_write", target)
    for a in backward.args:
        fwd_arg = op.arg(a.name)
        if a.name == out:
            saves_after.append(Stmt(f"node.{out} = ", call("TensorWrapper.of_output", target, "node")))
        elif fwd_arg is None:
            continue  # a gradient
        elif a.name in backward.no_need_buffer:
            saves_before.append(Stmt(f"node.{a.name} = ", _wrapper(a.name, fwd_arg, "meta_of")))
        elif a.name == target:
            # x's memory is about to change: keep a copy of its old value (with its history).
            saves_before.append(Stmt(f"node.{a.name} = ", call("TensorWrapper.of_input", old)))
        elif fwd_arg.is_tensor_list:
            keep = f"TensorWrapper.of_input({old.flat()} if _t is {target} else _t) for _t in {a.name}"
            saves_before.append(Stmt(f"node.{a.name} = ", list_of(keep)))
        else:
            # The same tensor may be passed for both (x.mul_(x)): save x's old value then.
            source = f"{old.flat()} if {a.name} is {target} else {a.name}"
            wrapper: Item = call("TensorWrapper.of_input", source)
            if fwd_arg.is_optional:
                wrapper = f"None if {a.name} is None else {flat(wrapper)}"
            saves_before.append(Stmt(f"node.{a.name} = ", wrapper))
    saves_before += [Stmt(f"node.{a} = ", a) for a in attrs]
    return InplaceFunction(
        name=name,
        doc=doc,
        signature=signature,
        conversions=tuple(conversions),
        record=record,
        body=tuple(body),
        make_node=make_node,
        saves_before=tuple(saves_before),
        write=Stmt("", call("write_inplace", _q(name), target, "_result")),
        history=Stmt("", call("set_history", target, "node", "0")),
        saves_after=tuple(saves_after),
        returns=Stmt("return ", target),
    )


def _optional_grads(bwd: BackwardSpec, spec: Spec) -> frozenset[str]:
    fwd = spec.forward_of(bwd)
    return frozenset(naming.grad_name(a.name) for a in fwd.args if a.type == "Tensor?")


def grad_op_function(bwd: BackwardSpec, spec: Spec) -> Function:
    assert bwd.kernel is not None
    sig = grad_op_sig(bwd, spec)  # outputs named as in the node: `new_input_grad`
    own = spec.backward(bwd.backward) if bwd.backward else None
    renamed = dict(zip((o.name for o in bwd.outputs), (o.name for o in sig.outputs), strict=True))
    return _function(
        sig,
        bwd.kernel,
        bwd.doc,
        own,
        convert=False,  # called by nodes with tensors only
        visible=sig.outputs,
        intermediate=(),
        optional_outputs=frozenset(renamed[n] for n in _optional_grads(bwd, spec) if n in renamed),
        refuse=own is None,
    )


# --- nodes (nodes.py) ----------------------------------------------------------------------


def node_class(bwd: BackwardSpec, spec: Spec) -> Node:
    fwd = spec.forward_of(bwd)
    attrs = [a for a in fwd.args if not a.is_tensor]
    meta = set(bwd.no_need_buffer)
    optional = _optional_grads(bwd, spec)
    saved = [a for a in bwd.args if fwd.arg(a.name) is not None or fwd.output(a.name) is not None]
    slots = [a.name for a in saved] + [a.name for a in attrs]

    # Output positions: visible outputs in order (a Tensor[] output, always last, takes the rest).
    positions: dict[str, tuple[int, bool]] = {}
    for i, o in enumerate(fwd.visible_outputs):
        positions[naming.grad_name(o.name)] = (i, o.is_list)
    reads: list[Stmt] = []
    for a in bwd.args:
        if a.name in positions:
            i, is_list = positions[a.name]
            reads.append(Stmt(f"{a.name} = ", f"grads[{i}:]" if is_list else f"grads[{i}]"))

    names = naming.grad_op_outputs([a.name for a in bwd.args + tuple(attrs)], [o.name for o in bwd.outputs])
    locals_ = dict(zip((o.name for o in bwd.outputs), names, strict=True))
    create_graph: list[Stmt] = []
    compute: list[Stmt] = []
    composite = spec.composite(bwd.name)
    if composite is not None and bwd.kernel is None:
        # One path: the composite runs ops on Tensors, recorded or not by grad mode.
        reads += [_unpack(a, "unpack") for a in saved]
        compute += _composite_stmts(composite, locals_, attrs, indent=8)
    elif composite is not None:
        # `kernel:` and `composite:`: the recorded path evaluates the composite with ops (any
        # order); the first-order path runs the kernel on arrays.
        create_graph += [_unpack(a, "unpack") for a in saved]
        create_graph += _composite_stmts(composite, locals_, attrs, indent=12)
    else:
        # create_graph: saved tensors as Tensors for the recorded grad op.
        create_graph += [_unpack(a, "unpack") for a in saved]
        call_args = [a.name for a in bwd.args] + [f"self.{a.name}" for a in attrs]
        targets = ", ".join(locals_[o.name] for o in bwd.outputs)
        create_graph.append(Stmt(f"{targets} = ", call(f"{GRAD_OPS}.{bwd.name}", *call_args)))
    if bwd.kernel is not None:
        # The first-order path: only the saved tensors' version-checked arrays
        # (`unpack_data`), which is all the kernel takes.
        compute += [_unpack(a, "unpack_data") for a in saved]
        saved_names = {a.name for a in saved}
        forms = [
            (a, META if a.name in meta else ARRAY if a.name in saved_names else TENSOR) for a in bwd.args
        ]
        results = [
            _Result(locals_[o.name], "list" if o.is_list else "optional" if o.name in optional else "tensor")
            for o in bwd.outputs
        ]
        compute += _kernel_call(bwd.name, bwd.kernel, forms, [f"self.{a.name}" for a in attrs], results)

    by_grad = {o.name: o for o in bwd.outputs}
    entries: list[str] = []
    for a in fwd.args:
        if not a.is_tensor:
            continue
        out = by_grad.get(naming.grad_name(a.name))
        if out is not None:
            entries.append(f"*{locals_[out.name]}" if out.is_list else locals_[out.name])
        elif a.is_tensor_list:
            # a no_need_buffer Tensor[] input: no gradient for any of its positions
            entries.append(f"*[None] * self.{count_slot(a.name)}")
            slots.append(count_slot(a.name))
        else:
            entries.append("None")
    slots_stmt = Stmt("__slots__ = ", tuple_of(*[_q(s) for s in slots]) if slots else "()")
    returns = Stmt("return ", tuple_of(*entries))
    return Node(
        class_name=naming.node_class(bwd.name),
        name=bwd.name,
        doc=_doc(bwd.doc, 4),
        non_differentiable=_non_differentiable(fwd),
        n_outputs=_n_outputs(fwd),
        slots=slots_stmt,
        reads=tuple(reads),
        create_graph=tuple(create_graph),
        compute=tuple(compute),
        returns=returns,
        released=tuple(a.name for a in saved),
    )


def count_slot(name: str) -> str:
    """The node slot holding how many tensors a Tensor[] input without gradient had."""
    return f"_{name}_count"


def _composite_stmts(
    composite: tuple[tuple[str, Composite], ...], locals_: dict[str, str], attrs: list[Arg], indent: int
) -> list[Stmt]:
    """The attributes a composite reads as locals, then its steps and gradients."""
    used = {n for _, c in composite for n in c.names}
    stmts = [Stmt(f"{a.name} = ", f"self.{a.name}") for a in attrs if a.name in used]
    counter = iter(range(1, 1_000_000))

    def fresh() -> str:
        return f"_tmp{next(counter)}"

    for name, c in composite:
        stmts += c.statements(locals_[name], indent, fresh)
    return stmts


def _unpack(a: Arg, how: str) -> Stmt:
    """A saved tensor (list, optional tensor) as a local, through `<how>(saved, self)`."""
    if a.is_tensor_list:
        return Stmt(f"{a.name} = ", list_of(f"{how}(_w, self) for _w in self.{a.name}"))
    if a.type == "Tensor?":
        return Stmt(f"{a.name} = ", f"None if self.{a.name} is None else {how}(self.{a.name}, self)")
    return Stmt(f"{a.name} = ", call(how, f"self.{a.name}", "self"))


def _n_outputs(fwd: GradOpSig) -> int:
    """How many gradients `apply` reads when the forward has several outputs: an optional
    output that was None got no history, so the engine pads `grads` up to this count."""
    outputs = fwd.visible_outputs
    if len(outputs) < 2 or any(o.is_list for o in outputs):
        return 0
    return len(outputs)


def _non_differentiable(fwd: GradOpSig) -> str | None:
    differentiable = {o.name for o in fwd.differentiable_outputs}
    positions = [str(i) for i, o in enumerate(fwd.visible_outputs) if o.name not in differentiable]
    if not positions:
        return None
    return "(" + ", ".join(positions) + ("," if len(positions) == 1 else "") + ")"


# --- tensor methods (tensor_methods.py) ----------------------------------------------------


def methods(spec: Spec) -> tuple[tuple[Method, ...], bool]:
    out: list[Method] = []
    for op in spec.ops:
        target = f"_generated.{naming.OPS_MODULE}.{op.name}"
        returns = f" -> {_returns(op.visible_outputs)}:"
        if op.method:
            params = ["self"] + [_param(a) for a in op.args[1:]]
            out.append(
                Method(
                    op.method,
                    Stmt("def ", call(op.method, *params), returns),
                    Stmt("return ", call(target, "self", *[a.name for a in op.args[1:]])),
                )
            )
        for dunder in op.operators:
            if dunder in naming.UNARY_OPERATORS:
                params, args = ["self"], ["self"]
            elif dunder in naming.REFLECTED_OPERATORS:
                params, args = ["self", f"other: {_annotation(op.args[0])}"], ["other", "self"]
            else:
                params, args = ["self", f"other: {_annotation(op.args[1])}"], ["self", "other"]
            annotation = " -> Tensor:" if returns == " -> Tensor:" else returns
            out.append(
                Method(
                    dunder,
                    Stmt("def ", call(dunder, *params), annotation),
                    Stmt("return ", call(target, *args)),
                )
            )
        out += _inplace_methods(op)
    return tuple(out), any(m.name == "__eq__" for m in out)


def _inplace_methods(op: OpSpec) -> list[Method]:
    """`Tensor.add_(y)` and the augmented operators (`x += y`) of an op's in-place variant."""
    bound = op.inplace_bindings
    if not bound:
        return []
    target = f"_generated.{naming.OPS_MODULE}.{op.inplace_name}"
    method, *augmented = bound
    rest = op.args[1:]
    out = [
        Method(
            method,
            Stmt("def ", call(method, "self", *[_param(a) for a in rest]), " -> Tensor:"),
            Stmt("return ", call(target, "self", *[a.name for a in rest])),
        )
    ]
    for dunder in augmented:
        out.append(
            Method(
                dunder,
                Stmt("def ", call(dunder, "self", f"other: {_annotation(op.args[1])}"), " -> Tensor:"),
                Stmt("return ", call(target, "self", "other")),
            )
        )
    return out


# --- modules -------------------------------------------------------------------------------

# Names only annotations use in tensor_methods.py, imported under `if TYPE_CHECKING:`.
TYPE_ONLY = frozenset({"Tensor", "Sequence", "Any"})


GENERATED_PACKAGE = "opgrad.generated"


def build_plan(spec: Spec, package: str = GENERATED_PACKAGE) -> Plan:
    ops: list[Function | InplaceFunction] = []
    for op in spec.ops:
        ops.append(op_function(op, spec))
        if op.inplace is not None:
            ops.append(inplace_function(op, spec))
    grad_ops = tuple(grad_op_function(b, spec) for b in spec.backwards if b.has_grad_op)
    nodes = tuple(node_class(b, spec) for b in spec.backwards)
    bound, hash_by_identity = methods(spec)
    modules = [
        Module(
            file=f"{naming.OPS_MODULE}.py",
            title=_doc("Forward operators: one function per ops.yaml entry.", 0),
            all=_all([f.name for f in ops]),
            functions=tuple(ops),
            has_inplace=any(f.inplace for f in ops),
        ),
        Module(
            file=f"{naming.GRAD_OPS_MODULE}.py",
            title=_doc(
                (
                    "Grad ops as differentiable functions, one per backward.yaml entry that has a kernel; "
                    "grad nodes call them when create_graph=True so that the backward pass is recorded."
                ),
                0,
            ),
            all=_all([f.name for f in grad_ops]),
            functions=grad_ops,
        ),
        Module(
            file=f"{naming.NODES_MODULE}.py",
            title=_doc("Grad nodes: one GradNode subclass per backward.yaml entry.", 0),
            all=_all([n.class_name for n in nodes]),
            nodes=nodes,
        ),
        Module(
            file=f"{naming.TENSOR_METHODS_MODULE}.py",
            title=_doc(
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
        ),
        Module(
            file=f"{naming.PACKAGE_INIT}.py",
            title=_doc("Generated code, never edited by hand. Ops are re-exported by `opgrad`.", 0),
            all=None,
        ),
    ]
    return Plan(tuple(modules), package)


def _all(names: list[str]) -> Stmt:
    return Stmt("__all__ = ", list_of(*[_q(n) for n in sorted(names)]))
