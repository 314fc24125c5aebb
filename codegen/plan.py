"""What to generate, decided: the validated `Spec` turned into template-ready dataclasses.

Every decision lives here -- which arguments are converted and how, what a node saves
and how (`of_input`, `meta_of` under no_need_buffer, `of_output`), which positions get
history, which kernel is called with which arguments, what `apply` returns for each
input position, which imports a module needs. Templates only loop over these and
substitute; `layout.py` only breaks long lines.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from opgrad.codegen import naming
from opgrad.codegen.layout import (
    INDENT,
    LINE_LENGTH,
    Cond,
    Group,
    Item,
    Stmt,
    call,
    fits,
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
    grad: GradBlock | None
    returns: Stmt


@dataclass(frozen=True)
class Node:
    """One GradNode subclass, for one backward.yaml entry."""

    class_name: str
    name: str
    doc: tuple[str, ...]
    slots: Stmt
    reads: tuple[Stmt, ...]  # gradients and saved tensors as locals
    create_graph: tuple[Stmt, ...]  # the recorded path (empty: same code either way)
    compute: tuple[Stmt, ...]  # the kernel (or composite) path
    returns: Stmt
    released: tuple[str, ...]  # wrapper slots dropped by release_saved
    non_differentiable: str | None  # output positions without gradient, e.g. "(1,)"


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
    functions: tuple[Function, ...] = ()
    nodes: tuple[Node, ...] = ()
    methods: tuple[Method, ...] = ()
    hash_by_identity: bool = False  # __eq__ is bound: keep tensors hashable
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
        return "TensorMeta"
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


def _kernel_stmts(
    op: str, kernel: str, arrays: list[str], args: list[str], target: str, wrap_as: str
) -> list[Stmt]:
    """Resolve and call a kernel; `wrap_as` is "tensor" (wrap the result) or "raw".

    One statement when it fits on a line, else `_kernel = dispatch(...)` first.
    """
    resolve = call("dispatch", _q(op), _q(kernel), *arrays)
    compact = Group(resolve.flat(), tuple(args))
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


def _array(arg: Arg, meta: bool) -> str:
    """The kernel argument for a tensor argument (after the prelude)."""
    if meta:
        return arg.name
    if arg.is_tensor_list or arg.is_optional:
        return f"_{arg.name}_data"
    return f"{arg.name}._data"


def _prelude(arg: Arg, meta: bool) -> Stmt | None:
    if meta:
        return None
    if arg.is_tensor_list:
        return Stmt(f"_{arg.name}_data = ", list_of(f"_t._data for _t in {arg.name}"))
    if arg.is_optional:
        return Stmt(f"_{arg.name}_data = ", f"None if {arg.name} is None else {arg.name}._data")
    return None


def _dispatch_arrays(args: list[tuple[Arg, bool]]) -> list[str]:
    """Arrays that pick the backend: required tensors first, then lists, then optionals."""
    plain = [f"{a.name}._data" for a, meta in args if not meta and a.type == "Tensor"]
    lists = [f"*_{a.name}_data" for a, meta in args if not meta and a.is_tensor_list]
    optional = [f"_{a.name}_data" for a, meta in args if not meta and a.type == "Tensor?"]
    return plain + lists + optional


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
        for a in tensors:
            if a.is_tensor_list:
                conv = call("tensors_of", a.name, _q(sig.name), _q(a.name))
                conversions.append(Guarded(None, Stmt(f"{a.name} = ", conv)))
                continue
            like = next((o.name for o in likes if o is not a), "None")
            guard = f"if not isinstance({a.name}, Tensor):"
            if a.is_optional:
                guard = f"if {a.name} is not None and not isinstance({a.name}, Tensor):"
            conv = call("as_tensor_arg", a.name, like, _q(sig.name), _q(a.name))
            conversions.append(Guarded(guard, Stmt(f"{a.name} = ", conv)))
        for a in sig.args:
            if a.base_type == "DataType":
                value = f"_np.dtype({a.name})"
                if a.is_optional:
                    value = f"None if {a.name} is None else {value}"
                conversions.append(Guarded(None, Stmt(f"{a.name} = ", value)))

    tensor_meta = [(a, a.name in meta) for a in tensors]
    body: list[Stmt] = [p for a, m in tensor_meta if (p := _prelude(a, m)) is not None]
    arrays = _dispatch_arrays(tensor_meta)
    kernel_args = [_array(a, m) for a, m in tensor_meta] + [a.name for a in sig.args if not a.is_tensor]
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
        for a in tensors:
            if a in diff_inputs:
                inputs.append(f"*{a.name}" if a.is_tensor_list else a.name)
            else:
                inputs.append("None")
        make_node = Stmt("node = ", call(f"{NODES}.{naming.node_class(backward.name)}", tuple_of(*inputs)))
        histories: list[Guarded] = []
        position = 0
        nondiff = {o.name for o in visible} - {o.name for o in sig.differentiable_outputs}
        for o in visible:
            if o.name not in nondiff:
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
        saves: list[Stmt] = []
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
        condition = Cond("if", tuple(_requires_grad(a) for a in diff_inputs), " and grad_enabled():")
        grad = GradBlock(condition, make_node, tuple(histories), tuple(saves))

    returns = Stmt("return ", _tuple_or_single([o.name for o in visible]))
    return Function(
        sig.name, _doc(doc, 4), signature, refusal, tuple(conversions), tuple(body), grad, returns
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
    )


def _optional_grads(bwd: BackwardSpec, spec: Spec) -> frozenset[str]:
    fwd = spec.forward_of(bwd)
    return frozenset(naming.grad_name(a.name) for a in fwd.args if a.type == "Tensor?")


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
        visible=bwd.outputs,
        intermediate=(),
        optional_outputs=_optional_grads(bwd, spec),
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
    slots_stmt = Stmt("__slots__ = ", tuple_of(*[_q(s) for s in slots]) if slots else "()")

    # Output positions: visible outputs in order (a Tensor[] output, always last, takes the rest).
    positions: dict[str, tuple[int, bool]] = {}
    for i, o in enumerate(fwd.visible_outputs):
        positions[naming.grad_name(o.name)] = (i, o.is_list)
    reads: list[Stmt] = []
    for a in bwd.args:
        if a.name in positions:
            i, is_list = positions[a.name]
            reads.append(Stmt(f"{a.name} = ", f"grads[{i}:]" if is_list else f"grads[{i}]"))
    for a in saved:
        if a.is_tensor_list:
            reads.append(Stmt(f"{a.name} = ", list_of(f"_w.unpack(self) for _w in self.{a.name}")))
        elif a.type == "Tensor?":
            reads.append(
                Stmt(f"{a.name} = ", f"None if self.{a.name} is None else self.{a.name}.unpack(self)")
            )
        else:
            reads.append(Stmt(f"{a.name} = ", call(f"self.{a.name}.unpack", "self")))

    taken = {a.name for a in bwd.args} | {a.name for a in attrs}
    locals_ = {o.name: naming.result_local(o.name, taken) for o in bwd.outputs}
    create_graph: list[Stmt] = []
    compute: list[Stmt] = []
    composite = spec.composite(bwd.name)
    if composite is not None:
        used = {n for _, c in composite for n in c.names}
        compute += [Stmt(f"{a.name} = ", f"self.{a.name}") for a in attrs if a.name in used]
        compute += [Stmt(f"{locals_[name]} = ", c.python) for name, c in composite]
    else:
        assert bwd.kernel is not None
        call_args = [a.name for a in bwd.args] + [f"self.{a.name}" for a in attrs]
        targets = ", ".join(locals_[o.name] for o in bwd.outputs)
        create_graph.append(Stmt(f"{targets} = ", call(f"{GRAD_OPS}.{bwd.name}", *call_args)))
        arg_meta = [(a, a.name in meta) for a in bwd.args]
        compute += [p for a, m in arg_meta if (p := _prelude(a, m)) is not None]
        kernel_args = [_array(a, m) for a, m in arg_meta] + [f"self.{a.name}" for a in attrs]
        results = [
            _Result(locals_[o.name], "list" if o.is_list else "optional" if o.name in optional else "tensor")
            for o in bwd.outputs
        ]
        compute += _results(bwd.name, bwd.kernel, _dispatch_arrays(arg_meta), kernel_args, results)

    by_grad = {o.name: o for o in bwd.outputs}
    entries: list[str] = []
    for a in fwd.args:
        if not a.is_tensor:
            continue
        out = by_grad.get(naming.grad_name(a.name))
        if out is None:
            assert not a.is_tensor_list
            entries.append("None")
        else:
            entries.append(f"*{locals_[out.name]}" if out.is_list else locals_[out.name])
    returns = Stmt("return ", tuple_of(*entries))
    return Node(
        class_name=naming.node_class(bwd.name),
        name=bwd.name,
        doc=_doc(bwd.doc, 4),
        non_differentiable=_non_differentiable(fwd),
        slots=slots_stmt,
        reads=tuple(reads),
        create_graph=tuple(create_graph),
        compute=tuple(compute),
        returns=returns,
        released=tuple(a.name for a in saved),
    )


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
    return tuple(out), any(m.name == "__eq__" for m in out)


# --- modules -------------------------------------------------------------------------------

# Names only annotations use in tensor_methods.py, imported under `if TYPE_CHECKING:`.
TYPE_ONLY = frozenset({"Tensor", "Sequence", "Any"})


GENERATED_PACKAGE = "opgrad.generated"


def build_plan(spec: Spec, package: str = GENERATED_PACKAGE) -> Plan:
    ops = tuple(op_function(op, spec) for op in spec.ops)
    grad_ops = tuple(grad_op_function(b, spec) for b in spec.backwards if b.kernel is not None)
    nodes = tuple(node_class(b, spec) for b in spec.backwards)
    bound, hash_by_identity = methods(spec)
    modules = [
        Module(
            file=f"{naming.OPS_MODULE}.py",
            title=_doc("Forward operators: one function per ops.yaml entry.", 0),
            all=_all([f.name for f in ops]),
            functions=ops,
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
