"""The plan's parts: the frozen dataclasses the templates render (`Function`, `Node`,
`Module`, ...; records of what to generate such as `KernelCall` and `Saved`, which the
macros of templates/_function.jinja2 spell) and the builders that forward functions and
grad nodes share -- annotations and defaults, a kernel call and the wrapping of its
results, what a node saves.

No other plan module is imported here: `plan_forward.py` and `plan_nodes.py` build on this
one, and `plan.py` assembles what they build.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from opgrad.codegen import naming
from opgrad.codegen.layout import Group, Item, Stmt, call, list_of, tuple_of, vertical
from opgrad.codegen.model import BackwardSpec
from opgrad.codegen.signature import Arg, DType, Output
from opgrad.codegen.validate import Spec


@dataclass(frozen=True)
class Saved:
    """What a node keeps for its backward, `node.<slot> = ...` (spelled by the `save` macro
    of templates/_function.jinja2).

    `how` is how it is kept: "of_input" (a TensorWrapper of an input, or of an output
    without history), "meta_of" (shape and dtype only: no_need_buffer), "of_output" (an
    output with history, linked back to the node weakly) or "value" (an attribute or a
    count, kept as it is). `form` is "tensor", "list" (one wrapper per element of
    `source`, each wrapping `element`) or "optional" (None when `name` is None).
    `source` is what is wrapped: the local `name` itself unless in place (x's old value).
    """

    slot: str
    name: str
    how: str
    form: str = "tensor"
    source: str = ""  # default: `name`
    element: str = "_t"

    @property
    def wrapped(self) -> str:
        return self.source or self.name


@dataclass(frozen=True)
class TensorConversion:
    """A number or array passed for a tensor argument becomes a Tensor on entry: through
    `as_tensor_arg(x, like, op, x)` (dtype following the tensor argument `like`, or None),
    or `tensors_of` for a Tensor[]. A Tensor (the common case) passes after one isinstance."""

    op: str
    name: str
    like: str
    form: str  # "tensor" | "optional" (None passes) | "list" | "written"/"written-optional" (refused)


@dataclass(frozen=True)
class AttributeCheck:
    """An attribute checked on entry: a value whose class is one of `fast` (and None, when
    `optional`) passes as it is; anything else goes through `function` (opgrad.runtime.
    arguments), which converts neighbouring kinds or raises naming the op and argument.
    Without fast classes (DataType) the function always runs."""

    op: str
    name: str
    function: str
    fast: tuple[str, ...]
    optional: bool


@dataclass(frozen=True)
class History:
    """An output made the node's output at `position`: `set_history(out, node, position)`;
    each element of a Tensor[] output ("list") at `position + i`; an "optional" one only
    when it is not None."""

    name: str
    position: int
    form: str  # "tensor" | "list" | "optional" | "meta" (a no_need_buffer input: read as is)


@dataclass(frozen=True)
class ViewMark:
    """An output of a `view:` op marked as a view of the Tensor argument `base`
    (`mark_view(out, base)`; each element of a Tensor[] output, "list"), so that it shares
    its version counter."""

    name: str
    base: str
    form: str  # "tensor" | "list"


@dataclass(frozen=True)
class VersionBump:
    """The arguments of `mutates:` the kernel wrote into get a new version
    (`bump_versions(a, b)`), only when the bool argument `flag` (`mutates_if:`) is true."""

    names: tuple[str, ...]
    flag: str | None


@dataclass(frozen=True)
class InplaceWrite:
    """The kernel's result written into the in-place target: `write_inplace(op, target,
    source)` (which checks shape and dtype before it writes)."""

    op: str
    target: str
    source: str


@dataclass(frozen=True)
class AliasArg:
    """An `alias:` name standing in for the argument `name` (`dim` for `axis`): when the
    alias is given (or, for a `required` argument, when neither is),
    `name = alias_arg(op, name, value, default, alias, alias_value, required)` takes the one
    given and refuses both (opgrad.runtime.arguments). A call that uses no alias pays one
    `is` test."""

    op: str
    name: str
    default: str
    alias: str
    required: bool


@dataclass(frozen=True)
class Promotion:
    """`promote:` (runtime/promotion.py): the operands `names` are replaced by the result of
    `function` ("promote_args", "promote_float" or "promote_list"), called only when a dtype
    must change: when an operand of `differs` (name, optional) has another dtype than
    `names[0]`, when `not_float` and `names[0]` is not floating, or, with `float_scalars`,
    when one of those is a Python float and `names[0]` is not floating. A Tensor[] operand
    ("promote_list") is always passed. `to_float` is promote_args' flag."""

    op: str
    names: tuple[str, ...]
    function: str
    to_float: bool | None = None
    differs: tuple[tuple[str, bool], ...] = ()
    not_float: bool = False
    float_scalars: tuple[str, ...] = ()


@dataclass(frozen=True)
class ComplexGuard:
    """An op without `complex: true` refuses complex tensors before its kernel runs:
    `if x._data.dtype in COMPLEX_DTYPES: refuse_complex("relu", x, arg="x")`, for each
    (name, optional) tensor argument that promotion has not already tested."""

    op: str
    names: tuple[tuple[str, bool], ...]


@dataclass(frozen=True)
class GradRead:
    """A node's incoming gradient as a local: `out_grad = grads[0]` (a Tensor[] output,
    always last, takes the rest: `grads[1:]`)."""

    name: str
    position: int
    rest: bool = False
    optional: bool = False  # the gradient of an absent optional input's gradient: may be None


@dataclass(frozen=True)
class Unpacked:
    """A saved tensor (list, optional tensor) as a local, through `<how>(self.<name>, self)`:
    `unpack` gives a Tensor (the recorded path, composites), `unpack_data` its
    version-checked array (the first-order kernel path)."""

    name: str
    how: str  # "unpack" | "unpack_data"
    form: str  # "tensor" | "list" | "optional"


@dataclass(frozen=True)
class GradBlock:
    """The autograd part of a function: runs only when an input requires grad."""

    condition: str  # `if <an input requires grad> and grad_enabled():`
    make_node: Stmt
    histories: tuple[History, ...]
    saves: tuple[Saved, ...]
    dtype_checked: str | None = None  # the output whose dtype must be floating to record
    # When `make_node` made the output with its node (`out, node = recorded(...)`): how
    # the output is made when nothing is recorded (`else: out = wrap(_result)`).
    otherwise: Stmt | None = None


@dataclass(frozen=True)
class Function:
    """One generated function: an op (ops.py) or a differentiable grad op (grad_ops.py)."""

    name: str
    doc: tuple[str, ...]
    signature: Stmt
    refuse: str | None  # grad ops without a backward: refuse to be differentiated
    conversions: tuple[TensorConversion | AttributeCheck | AliasArg | Promotion | ComplexGuard, ...]
    body: tuple[Stmt | KernelCall, ...]
    marks: tuple[ViewMark | VersionBump, ...]  # after the kernel: `view:` outputs, `mutates:` writes
    grad: GradBlock | None
    returns: Stmt
    jvp: Stmt | None = None  # forward mode: `_jvp.tanh(x, out)` while a dual level is open
    inplace = False


@dataclass(frozen=True)
class InplaceInto:
    """`op_`'s direct write (`inplace_into: true`): when no node is recorded and forward mode
    is off, `write_into(target, table, arrays, *attrs)` offers the op to its kernel's into
    variant and the function returns `target` if it wrote; else the general path follows."""

    target: str
    table: str  # the op's resolved-kernel table (`kernel_table`)
    arrays: tuple[str, ...]  # the kernel's array arguments, in order
    attrs: tuple[str, ...]  # then its other arguments


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
    conversions: tuple[TensorConversion | AttributeCheck | AliasArg | Promotion | ComplexGuard, ...]
    record: Stmt  # record = check_inplace(...)
    body: tuple[Stmt | KernelCall, ...]  # the kernel, into `_result`
    make_node: Stmt
    saves_before: tuple[Saved, ...]  # inputs (x's old value) and attributes
    write: InplaceWrite
    history: History  # x becomes the node's output 0
    saves_after: tuple[Saved, ...]  # the output, which is x now
    returns: Stmt
    jvp: Stmt | None = None  # forward mode: `_jvp.add(x, y, _out)` on the result before the write
    into: InplaceInto | None = None  # `inplace_into: true`: the direct write, tried first
    inplace = True


@dataclass(frozen=True)
class Node:
    """One GradNode subclass, for one backward.yaml entry."""

    class_name: str
    name: str
    doc: tuple[str, ...]
    slots: Stmt
    slot_types: tuple[str, ...]  # `x: Saved`, `axis: int`: each slot's annotation, for type checkers
    reads: tuple[GradRead | Unpacked | Stmt, ...]  # gradients (and a composite's saved tensors)
    create_graph: tuple[Stmt | Unpacked, ...]  # the recorded path: unpack, grad op or composite
    compute: tuple[
        Stmt | KernelCall | Unpacked, ...
    ]  # the kernel path (unpack_data, kernel), or the composite
    returns: Stmt
    # slots holding saved tensor data, dropped by release_saved (which then marks the node
    # released: a second backward is refused); empty: no release_saved, the node can rerun
    released: tuple[str, ...]
    non_differentiable: str | None  # output positions without gradient, e.g. "(1,)"
    n_outputs: int  # output positions of a multi-output forward (0: one output, or a Tensor[])


@dataclass(frozen=True)
class Method:
    """A `Tensor` method or operator that calls an op."""

    name: str
    signature: Stmt
    call: Stmt
    doc: tuple[str, ...] = ()  # docs.method_docstring, filled in by plan.methods


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
    refuses_non_tensors: bool = False  # ops.py: define `_not_a_tensor` (in-place ops, written args)
    complex_ops: tuple[str, ...] = ()  # ops.py: the ops with `complex: true`, for COMPLEX_OPS
    type_only: frozenset[str] = frozenset()  # imported under `if TYPE_CHECKING:`
    rules: tuple[JvpRule, ...] = ()  # jvp.py: forward-mode rules
    fast_table: Stmt | None = None  # the ops (methods) the optional C driver runs (plan_fast.py)

    @property
    def template(self) -> str:
        return self.file.removesuffix(".py") + ".py.jinja2"


@dataclass(frozen=True)
class JvpRule:
    """One forward-mode rule (jvp.py): called with the op's arguments and all its outputs.
    `derived`: one `derive(...)` statement (the double-vjp trick); otherwise the tangents are
    read, `statements` compute each `<output>_t`, `sets` store them."""

    name: str
    doc: tuple[str, ...]
    signature: Stmt
    derived: Stmt | None
    read: Stmt | None  # `_t = tangents(x, y)`, or `x_t = tangent_of(x)` for one tensor
    checked: str  # the name that is None when no input has a tangent
    unpack: Stmt | None
    statements: tuple[Stmt, ...]
    sets: tuple[Stmt, ...]
    fast: JvpKernelPath | None = None


@dataclass(frozen=True)
class JvpKernelPath:
    """A rule whose tangent is one grad op's result (`tanh_grad(out, x_t)`, perhaps in the
    real branch of `... if is_complex(out) else ...`), taken when nothing is recorded: `tensor`
    has a tangent that does not require grad (its array read by `plain_tangent` into the
    local `array`), neither the grad op's other tensors nor the output
    (`untracked`) requires grad, and `real` (if any) is not complex. The grad op would then
    only call its kernel (no conversions, no node, no rule of its own while paused), so the
    rule calls that kernel directly (`kernel`: the grad op's own call, on the rule's names)
    and stores the array with `set_output_tangent`: the same array, without the pause, the
    grad op's call, a Tensor per tangent and the level's weak reference."""

    tensor: str
    array: str
    untracked: tuple[str, ...]
    real: str | None
    kernel: KernelCall
    output: str


@dataclass(frozen=True)
class Plan:
    modules: tuple[Module, ...]
    package: str  # where the generated modules are imported from


# --- small helpers ---------------------------------------------------------------------------


def quoted(text: str) -> str:
    return f'"{text}"'


# What a converted tensor argument accepts at run time: a Tensor, or a Python number that
# `as_tensor_arg` makes a tensor (bool too: a type checker counts it as an int).
TENSOR_LIKE = "Tensor | float | int"

# The annotation of each attribute type: what its check in opgrad.runtime.arguments accepts.
ATTRIBUTE_ANNOTATIONS = {
    "Scalar": "float",  # an int or a bool passes too, and keeps its type
    "int": "int",
    "float": "float",  # an int passes too (a type checker accepts one for float)
    "bool": "bool",
    "str": "str",
    "int[]": "Sequence[int] | int",
    "DataType": "Any",  # a dtype, its name or a NumPy scalar type
}


def arg_annotation(arg: Arg, meta: bool = False, converted: bool = False) -> str:
    """An argument's annotation: what the generated function accepts for it. A tensor
    argument that the function converts (`converted`) also takes Python numbers, in a list
    too; one it does not convert (grad ops, an in-place target, a written argument) must be
    a Tensor. A no_need_buffer input of a grad op (`meta`) arrives as its metadata."""
    if meta:
        base = "list[TensorMeta]" if arg.is_tensor_list else "TensorMeta"
    elif arg.is_tensor_list:
        base = f"Sequence[{TENSOR_LIKE}]" if converted else "list[Tensor]"
    elif arg.is_tensor:
        base = TENSOR_LIKE if converted else "Tensor"
    else:
        base = ATTRIBUTE_ANNOTATIONS[arg.base_type]
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
        return quoted(value)
    if isinstance(value, DType):
        return quoted(value.name)
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + (",)" if len(value) == 1 else ")")
    raise AssertionError(value)  # pragma: no cover


def python_default(arg: Arg) -> str | None:
    """An argument's default as Python source (`()`, `False`, `"mean"`), or None."""
    return _default(arg)


def param(arg: Arg, meta: bool = False, converted: bool = False) -> str:
    default = _default(arg)
    head = f"{arg.name}: {arg_annotation(arg, meta, converted)}"
    return head if default is None else f"{head} = {default}"


def return_annotation(outputs: tuple[Output, ...], optional: frozenset[str] = frozenset()) -> str:
    def one(o: Output) -> str:
        t = "list[Tensor]" if o.is_list else "Tensor"
        return f"{t} | None" if o.name in optional else t

    if len(outputs) == 1:
        return one(outputs[0])
    return f"tuple[{', '.join(one(o) for o in outputs)}]"


# Docstrings are prose wrapped at this column (pyproject.toml's line-length); code is never
# wrapped (layout.py).
DOC_WIDTH = 110


def doc_lines(text: str, indent: int) -> tuple[str, ...]:
    """A docstring's lines, wrapped, with backslashes and double quotes escaped (a `doc`
    may say `reduction: "mean"` or `\\sum`); the loader refused control characters."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    width = DOC_WIDTH - indent - 6
    return tuple(textwrap.wrap(escaped, width, break_long_words=False, break_on_hyphens=False)) or ("",)


def signature_params(name: str, params: list[str]) -> Group:
    """A `def`'s name and parameters: one parameter per line when it takes more than one."""
    group = call(name, *params)
    return vertical(group) if len(params) > 1 else group


def grad_condition(operands: list[str], tail: str) -> str:
    """`if a._requires_grad<tail>` or `if (a or b)<tail>`, on one line."""
    tested = operands[0] if len(operands) == 1 else f"({' or '.join(operands)})"
    return f"if {tested}{tail}"


def tuple_or_single(items: list[str]) -> Item:
    return items[0] if len(items) == 1 else tuple_of(*items)


# A call with more than this many arguments is written one argument per line; a kernel
# that takes more than this many arrays (or a Tensor[]) is resolved and called so too
# (layout.py: by what a statement holds, never by its length).
INLINE_ARGS = 4
INLINE_ARRAYS = 2


def spelled_call(head: str, *items: Item) -> Group:
    """A call, one argument per line when it has more than `INLINE_ARGS`."""
    group = call(head, *items)
    return vertical(group) if len(items) > INLINE_ARGS else group


@dataclass(frozen=True)
class KernelCall:
    """Resolve a kernel into `_kernel`, then call it: `<target> = [wrap(]_kernel(args)[)]`.

    Every kernel call has this one shape, spelled by the `kernel_call` macro of
    templates/_function.jinja2. The kernel is looked up in its module-level `table` by the
    first array's type (one dict look-up; with several arrays, after an inline check that
    they are all of that type), with `dispatch` as the fallback that resolves and fills
    the table and explains mixed devices. The arrays of a Tensor[] argument (`*_xs_data`)
    have no table (`table` is None): `dispatch` alone resolves them.
    """

    op: str
    kernel: str
    arrays: tuple[str, ...]  # what picks the backend (dispatch's arguments after the names)
    args: tuple[str, ...]  # what the kernel is called with
    target: str
    wrap: bool  # wrap the result in a Tensor
    table: str | None
    one_per_line: bool  # more than INLINE_ARRAYS arrays, or a Tensor[]'s
    # when the kernel returns several arrays: the locals its tuple is unpacked into, one per
    # output the spec declares (`_r0, _r1`); any other result raises `kernel_results_error`
    # naming the op and both counts, before anything is wrapped or recorded
    unpacked: tuple[str, ...] = ()


def kernel_stmts(
    op: str, kernel: str, arrays: list[str], args: list[str], target: str, wrap_as: str, results: int = 0
) -> list[KernelCall]:
    """The `KernelCall` of `kernel` into `target`; `wrap_as` is "tensor" or "raw"; `results`
    is the number of outputs when the kernel returns several (unpacked into
    `naming.result_local(i)`)."""
    listed = any(a.startswith("*") for a in arrays)
    table = naming.kernel_table(kernel) if arrays and not listed else None
    return [
        KernelCall(
            op,
            kernel,
            tuple(arrays),
            tuple(args),
            target,
            wrap_as == "tensor",
            table,
            listed or len(arrays) > INLINE_ARRAYS,
            tuple(naming.result_local(i) for i in range(results)),
        )
    ]


@dataclass(frozen=True)
class Result:
    local: str
    kind: str  # "tensor" | "list" | "optional"


def kernel_results(
    op: str, kernel: str, arrays: list[str], args: list[str], results: list[Result]
) -> list[Stmt | KernelCall]:
    """Kernel call plus wrapping of every result into Tensors."""
    stmts: list[Stmt | KernelCall] = []
    if len(results) == 1 and results[0].kind == "tensor":
        return [*kernel_stmts(op, kernel, arrays, args, results[0].local, "tensor")]
    raw = naming.KERNEL_RESULT if len(results) == 1 else naming.KERNEL_RESULTS
    stmts += kernel_stmts(op, kernel, arrays, args, raw, "raw", len(results) if len(results) > 1 else 0)
    for i, r in enumerate(results):
        source = raw if len(results) == 1 else naming.result_local(i)
        if r.kind == "tensor":
            stmts.append(Stmt(f"{r.local} = ", call("wrap", source)))
        elif r.kind == "list":
            stmts.append(Stmt(f"{r.local} = ", list_of(f"wrap(_a) for _a in {source}")))
        else:
            stmts.append(Stmt(f"{r.local} = ", f"None if {source} is None else wrap({source})"))
    return stmts


def requires_grad(arg: Arg) -> str:
    if arg.is_tensor_list:
        return f"{naming.BUILTINS_ALIAS}.any(_t._requires_grad for _t in {arg.name})"
    if arg.is_optional:
        return f"({arg.name} is not None and {arg.name}._requires_grad)"
    return f"{arg.name}._requires_grad"


# How a tensor argument is held where its kernel is called: a Tensor local ("tensor"), an
# array local ("array": a saved tensor unpacked with `unpack_data` on a node's first-order
# path) or metadata only ("meta": no_need_buffer; passed as it is, never picks the backend).
TENSOR, ARRAY, META = "tensor", "array", "meta"


def array(arg: Arg, form: str) -> str:
    """The kernel argument for a tensor argument (after the prelude)."""
    if form != TENSOR:
        return arg.name
    if arg.is_tensor_list or arg.is_optional:
        return naming.array_local(arg.name)
    return f"{arg.name}._data"


def prelude(arg: Arg, form: str) -> Stmt | None:
    """A list's arrays (or an optional tensor's array or None), gathered once into `_x_data`.
    A plain Tensor's `x._data` is read where it is used: binding it to a local measured no
    faster (a slot read is a few ns) and only made the code longer."""
    if form != TENSOR:
        return None
    if arg.is_tensor_list:
        return Stmt(f"{naming.array_local(arg.name)} = ", list_of(f"_t._data for _t in {arg.name}"))
    if arg.is_optional:
        return Stmt(f"{naming.array_local(arg.name)} = ", f"None if {arg.name} is None else {arg.name}._data")
    return None


def dispatch_arrays(args: list[tuple[Arg, str]]) -> list[str]:
    """Arrays that pick the backend: required tensors first, then lists, then optionals."""
    held = [(a, form) for a, form in args if form != META]
    plain = [array(a, form) for a, form in held if a.type == "Tensor"]
    lists = [f"*{array(a, form)}" for a, form in held if a.is_tensor_list]
    optional = [array(a, form) for a, form in held if a.type == "Tensor?"]
    return plain + lists + optional


def kernel_call(
    op: str, kernel: str, args: list[tuple[Arg, str]], attrs: list[str], results: list[Result]
) -> list[Stmt | KernelCall]:
    """Preludes, then the kernel called with the tensors' arrays and the attributes."""
    stmts: list[Stmt | KernelCall] = [p for a, form in args if (p := prelude(a, form)) is not None]
    kernel_args = [array(a, form) for a, form in args] + attrs
    return stmts + kernel_results(op, kernel, dispatch_arrays(args), kernel_args, results)


def saved(slot: str, arg_or_out: Arg | Output, how: str, source: str = "", element: str = "_t") -> Saved:
    """`arg_or_out` (a tensor, list or optional tensor) kept in `slot` as `how` says."""
    form = "tensor"
    if isinstance(arg_or_out, Arg) and arg_or_out.is_optional:
        form = "optional"
    elif (isinstance(arg_or_out, Arg) and arg_or_out.is_tensor_list) or (
        isinstance(arg_or_out, Output) and arg_or_out.is_list
    ):
        form = "list"
    return Saved(slot, arg_or_out.name, how, form, source, element)


def optional_grads(bwd: BackwardSpec, spec: Spec) -> frozenset[str]:
    """The gradients `bwd` returns that may be None: those of its forward's `Tensor?` inputs."""
    fwd = spec.forward_of(bwd)
    return frozenset(fwd.input_grad(a.name) for a in fwd.args if a.type == "Tensor?")
