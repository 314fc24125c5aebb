"""The ops whose forward body has the one plain elementwise shape the optional C driver
runs (`runtime/_accel.ops`, `_speedups.c`): the table at the end of ops.py, and the one at
the end of grad_ops.py (whose functions take Tensors as they are: no conversions).

The shape, for one or two tensor arguments and nothing else:

    if not isinstance(x, Tensor): x = as_tensor_arg(x, ...)        # each argument (ops.py)
    <promotion / complex guard: no-ops for operands of one float dtype>
    _kernel = _k_op.get(x._data.__class__) or dispatch(...)           # one kernel table
    try: _result = _kernel(x._data[, y._data])
    except (TypeError, ValueError, OverflowError, MemoryError) as _e: raise kernel_error(...)
    if <an input>._requires_grad and grad_enabled()[ and _result.dtype.kind <test>]:
        out, node = recorded(_nodes.OpGradNode, _result, x|None[, y|None])
        node.<slot> = TensorWrapper.<of_edge|of_input|meta_of>(<input>)   # or of_output(out, node)
    else:
        out = wrap(_result)
    if FORWARD.active: _jvp.op(x[, y], out)
    return out

A number for an argument converted as `as_tensor_arg(x, y, ...)` (y the other argument) is
converted by the C driver as that call converts an exact float or int (the row's last field).
`fast_op` recognizes it from the plan's records (anything else: not in the table, so the
Python function alone runs it); tests/test_fast_paths_cop.py checks each listed function's
source against the shape again, so the table cannot describe a body it does not match.
"""

from __future__ import annotations

from dataclasses import dataclass

from opgrad.codegen import naming
from opgrad.codegen.layout import Group, Stmt, call, list_of, stmt, tuple_of, vertical
from opgrad.codegen.plan_parts import (
    AttributeCheck,
    ComplexGuard,
    Function,
    InplaceFunction,
    KernelCall,
    Method,
    Promotion,
    TensorConversion,
    quoted,
)

# How a node keeps a saved tensor, in the order the C driver numbers them (_speedups.c, HOW_*);
# "value": a number argument stored as it is (`node.y = y`).
SAVE_HOWS = ("of_edge", "of_input", "meta_of", "of_output", "value")
# The grad condition's dtype test on the result: none, `.kind == "f"`, `.kind in "fc"`.
KIND_TESTS = {"": "", '.kind == "f"': "f", '.kind in "fc"': "fc"}


@dataclass(frozen=True)
class FastOp:
    """One row of the table: `args` are the tensor arguments, `inputs` what `recorded`
    gets after the result (an argument's index, or -1 for None), `saves` (slot, how,
    argument index or -1 for the output), `kind` the dtype test ("", "f", "fc"), `jvp`
    whether `FORWARD.active` calls `_jvp.<name>`, `numbers` which arguments the body converts
    from a number with the other argument as `like` (the C driver converts an exact float or
    int there as as_tensor_arg does)."""

    name: str
    table: str
    node: str  # the class name in generated/nodes.py
    args: tuple[str, ...]
    inputs: tuple[int, ...]
    saves: tuple[tuple[str, str, int], ...]
    kind: str
    jvp: bool
    output: str
    numbers: tuple[bool, ...]  # the arguments converted by `as_tensor_arg(it, the other, ...)`
    attrs: tuple[str, ...] = ()  # number arguments after the tensors (exact float or int, as they are)
    # each attribute's class: "n" a number (exact float or int), "b" a bool (exact bool; a
    # default, read from the function's __defaults__, may stand for it)
    classes: str = ""

    @property
    def row(self) -> Group:
        """The table row: (name, kernel table, node class, inputs, saves, kind, jvp, numbers[,
        the count of attribute arguments[, their classes, when one is a bool]]), names as
        strings (the C driver looks them up in ops.py's and nodes.py's namespaces)."""
        saves = tuple_of(*(tuple_of(quoted(s), quoted(h), str(i)) for s, h, i in self.saves))
        return tuple_of(
            quoted(self.name),
            quoted(self.table),
            quoted(self.node),
            tuple_of(*map(str, self.inputs)),
            saves,
            quoted(self.kind),
            str(self.jvp),
            tuple_of(*map(str, self.numbers)),
            *((str(len(self.attrs)),) if self.attrs else ()),
            *((quoted(self.classes),) if "b" in self.classes else ()),
        )


def _text(s: Stmt) -> str:
    return stmt(s, 0)


def _plain_params(
    f: Function | InplaceFunction, names: tuple[str, ...], defaulted: tuple[str, ...] = ()
) -> bool:
    """The signature takes exactly `names`, positional, without defaults but for those of
    `defaulted` (`name: bool = False|True`)."""
    body = f.signature.body
    if not isinstance(body, Group) or body.head != f.name:
        return False
    items = body.items
    return len(items) == len(names) and all(
        isinstance(i, str)
        and i.startswith(f"{n}: ")
        and ("=" not in i or (n in defaulted and i.endswith((": bool = False", ": bool = True"))))
        for i, n in zip(items, names, strict=True)
    )


def _tensor_params(f: Function) -> tuple[str, ...] | None:
    """A grad op's arguments: the signature takes only `name: Tensor`s, then `name: float`s
    (number attributes, as they are: see `_attrs`), positional, without defaults (the body
    converts nothing); None for anything else."""
    body = f.signature.body
    if not isinstance(body, Group) or body.head != f.name:
        return None
    names: list[str] = []
    for i in body.items:
        if not isinstance(i, str) or not i.endswith((": Tensor", ": float")) or "=" in i:
            return None
        if i.endswith(": Tensor") and names and names[-1].endswith(": float"):
            return None
        names.append(i)
    return tuple(i.split(": ")[0] for i in names)


# The attribute checks the driver runs, by class code: (function, the classes passing as they are).
ATTR_CLASSES = {"n": ("scalar_arg", ("float", "int")), "b": ("bool_arg", ("bool",))}


def _attr_classes(f: Function) -> str:
    """Each attribute's class code (ATTR_CLASSES), in `_attrs`' order."""
    if not f.conversions:
        return "n" * len(_attrs(f))
    return "".join(
        code
        for c in f.conversions
        if isinstance(c, AttributeCheck) and not c.optional
        for code, check in ATTR_CLASSES.items()
        if (c.function, c.fast) == check
    )


def _attrs(f: Function) -> tuple[str, ...]:
    """The attribute arguments: those ops.py checks as `scalar_arg` with float and int passing
    as they are (numbers) or as `bool_arg` with bool passing (bools); a grad op's `: float`
    parameters."""
    if f.conversions:
        return tuple(
            c.name
            for c in f.conversions
            if isinstance(c, AttributeCheck)
            and not c.optional
            and (c.function, c.fast) in ATTR_CLASSES.values()
        )
    body = f.signature.body
    items = body.items if isinstance(body, Group) else ()
    return tuple(i.removesuffix(": float") for i in items if isinstance(i, str) and i.endswith(": float"))


def _conversions_are_noops(f: Function, names: tuple[str, ...], attrs: tuple[str, ...] = ()) -> bool:
    """Each argument converted as a plain tensor, each number attribute checked as `_attrs`
    says; a promotion or complex guard that does nothing when the operands share one float
    dtype (and the attributes are exact floats or ints); nothing else."""
    converted = tuple(c.name for c in f.conversions if isinstance(c, TensorConversion))
    if converted != names:
        return False
    for c in f.conversions:
        if isinstance(c, TensorConversion):
            if c.form != "tensor":
                return False
        elif isinstance(c, AttributeCheck):
            if c.name not in attrs:
                return False
        elif isinstance(c, Promotion):
            if not set(c.float_scalars) <= set(attrs) or c.names != names:
                return False
            if c.function == "promote_float":
                if len(names) != 1:
                    return False
            elif c.function != "promote_args" or c.differs != tuple((n, False) for n in names[1:]):
                return False
        elif isinstance(c, ComplexGuard):
            if any(optional or n not in names for n, optional in c.names):
                return False
        else:
            return False
    return True


def fast_op(f: Function) -> FastOp | None:
    """`f`'s row, when its body has the shape of the module docstring; else None."""
    grad = f.grad
    if f.inplace or f.refuse or f.marks or grad is None or len(f.body) != 1:
        return None
    attrs = _attrs(f)
    if f.conversions:
        names = tuple(c.name for c in f.conversions if isinstance(c, TensorConversion))
        bools = tuple(a for a, k in zip(attrs, _attr_classes(f), strict=True) if k == "b")
        if not _plain_params(f, names + attrs, bools) or not _conversions_are_noops(f, names, attrs):
            return None
    elif (params := _tensor_params(f)) is not None:  # a grad op: Tensors as they are
        names = params[: len(params) - len(attrs)]
    else:
        return None
    if len(names) not in (1, 2) or len(attrs) > 2 or len(set(names + attrs)) != len(names + attrs):
        return None
    k = f.body[0]
    arrays = tuple(f"{n}._data" for n in names)
    if not (
        isinstance(k, KernelCall)
        and k.table == naming.kernel_table(k.kernel)
        and k.arrays == arrays
        and k.args == arrays + attrs
        and k.target == naming.KERNEL_RESULT
        and not k.wrap
        and not k.unpacked
        and not k.one_per_line
    ):
        return None
    if grad.histories or grad.otherwise is None:
        return None
    output = grad.otherwise.prefix.removesuffix(" = ")
    if (
        _text(grad.otherwise) != f"{output} = wrap({naming.KERNEL_RESULT})"
        or _text(f.returns) != f"return {output}"
    ):
        return None
    make = _text(grad.make_node)
    head = f"{output}, node = recorded({naming.NODES_ALIAS}."
    if not make.startswith(head) or not make.endswith(")"):
        return None
    node, result, *given = make[len(head) : -1].split(", ")
    if result != naming.KERNEL_RESULT or len(given) != len(names):
        return None
    inputs = tuple(names.index(g) if g in names else -1 for g in given)
    if any(i == -1 and g != "None" for i, g in zip(inputs, given, strict=True)):
        return None
    differentiable = [f"{names[i]}._requires_grad" for i in inputs if i != -1]
    if not differentiable:
        return None
    tested = differentiable[0] if len(differentiable) == 1 else f"({' or '.join(differentiable)})"
    kind = next(
        (
            code
            for test, code in KIND_TESTS.items()
            if grad.condition
            == f"if {tested} and grad_enabled(){f' and {naming.KERNEL_RESULT}.dtype{test}' if test else ''}:"
        ),
        None,
    )
    if kind is None:
        return None
    saves: list[tuple[str, str, int]] = []
    for s in grad.saves:
        if s.form != "tensor" or s.source or s.how not in SAVE_HOWS:
            return None
        if s.how == "value":  # `node.<slot> = <attribute>`
            if s.name not in attrs:
                return None
            saves.append((s.slot, s.how, len(names) + attrs.index(s.name)))
        elif s.how == "of_output":
            if s.name != output:
                return None
            saves.append((s.slot, s.how, -1))
        elif s.name in names:
            saves.append((s.slot, s.how, names.index(s.name)))
        else:
            return None
    jvp = f.jvp is not None
    if (
        jvp
        and f.jvp is not None
        and _text(f.jvp) != f"{naming.JVP_ALIAS}.{f.name}({', '.join(names + attrs)}, {output})"
    ):
        return None
    likes = {c.name: c.like for c in f.conversions if isinstance(c, TensorConversion)}
    numbers = tuple(len(names) == 2 and likes.get(n) == names[1 - i] for i, n in enumerate(names))
    return FastOp(
        f.name,
        k.table,
        node,
        names,
        inputs,
        tuple(saves),
        kind,
        jvp,
        output,
        numbers,
        attrs,
        _attr_classes(f),
    )


def fast_inplace(f: InplaceFunction) -> tuple[str, ...] | None:
    """An in-place op's tensor arguments, when its body starts with the direct write the C
    driver runs (`_speedups.c`, inplace_run):

        if not isinstance(x, Tensor): raise _not_a_tensor("<op>", "x", x)
        [if not isinstance(y, Tensor): y = as_tensor_arg(y, x, "<op>", "y")]
        record = check_inplace("<op>", x[, y])
        if not (record or FORWARD.active) and write_into(x, <table>, (x._data[, y._data])):
            return x

    (what follows, the general path, runs only in the Python function); else None."""
    into = f.into
    convs = f.conversions
    names = tuple(c.name for c in convs if isinstance(c, TensorConversion))
    if (
        into is None
        or into.attrs
        or len(names) not in (1, 2)
        or len(convs) != len(names)
        or not _plain_params(f, names)
        or into.target != names[0]
        or into.table != naming.kernel_table(into.table.removeprefix("_k_"))
        or into.arrays != tuple(f"{n}._data" for n in names)
        or _text(f.record) != f'record = check_inplace("{f.name}", {", ".join(names)})'
    ):
        return None
    forms = tuple((c.form, c.like) for c in convs if isinstance(c, TensorConversion))
    if forms != (("written", ""), ("tensor", names[0]))[: len(names)]:
        return None
    return names


def fast_table(functions: tuple[object, ...]) -> Stmt | None:
    """`_accel.ops(globals(), [rows][, [rows with number arguments][, [in-place rows]]])` for
    the functions of the shape, or None."""
    found = [r for f in functions if isinstance(f, Function) and (r := fast_op(f)) is not None]
    inplace = [
        tuple_of(quoted(f.name), quoted(f.into.table))
        for f in functions
        if isinstance(f, InplaceFunction) and f.into is not None and fast_inplace(f) is not None
    ]
    if not found:
        return None
    tables = [vertical(list_of(*(r.row for r in found if not r.attrs)))]
    if any(r.attrs for r in found) or inplace:
        tables.append(vertical(list_of(*(r.row for r in found if r.attrs))))
    if inplace:
        tables.append(vertical(list_of(*inplace)))
    return Stmt("", vertical(call("_accel.ops", "globals()", *tables)))


def fast_method(m: Method, driven: dict[str, tuple[int, ...]]) -> tuple[str, bool] | None:
    """(op, swapped) when `m`'s body is `return _generated.ops.<op>(self[, other])` (swapped:
    `(other, self)`) with exactly those positional parameters, without defaults, and `<op>` is
    a row of the driver's tables taking as many arguments (`driven`: op -> the counts it takes,
    fewer when its last bool attributes have defaults); else None."""
    body = m.signature.body
    if not isinstance(body, Group) or body.head != m.name:
        return None
    plain = (isinstance(i, str) and ": " in i and "=" not in i and not i.startswith("*") for i in body.items)
    if not all(plain):
        return None
    params = tuple(str(i).split(": ")[0] for i in body.items)
    if params[:1] != ("self",) or len(params) not in (1, 2):
        return None
    head = f"return {naming.GENERATED_ALIAS}.{naming.OPS_MODULE}."
    text = _text(m.call)
    name = text.removeprefix(head).split("(")[0]
    if not text.startswith(head) or len(params) not in driven.get(name, ()):
        return None
    for swapped, args in ((False, params), (True, params[::-1])):
        if text == f"{head}{name}({', '.join(args)})":
            return name, swapped
    return None


def _counts(r: FastOp, f: Function) -> tuple[int, ...]:
    """The argument counts `r`'s C path takes: all of them, or fewer when the last attributes
    are bools with defaults (the driver reads them from the function's __defaults__)."""
    body = f.signature.body
    items = body.items if isinstance(body, Group) else ()
    n = len(r.args + r.attrs)
    defaulted = sum(
        1 for i in items if isinstance(i, str) and i.endswith((": bool = False", ": bool = True"))
    )
    return tuple(range(n - min(defaulted, r.classes.count("b")), n + 1))


def fast_methods(bound: tuple[Method, ...], functions: tuple[object, ...]) -> Stmt | None:
    """`_accel.methods(TensorMethods, [rows])`: (method, (module alias, ops module, op),
    swapped) for the methods that are one call of a row of the ops' tables; or None."""
    driven = {
        r.name: _counts(r, f) for f in functions if isinstance(f, Function) and (r := fast_op(f)) is not None
    }
    driven |= {
        f.name: (len(names),)
        for f in functions
        if isinstance(f, InplaceFunction) and (names := fast_inplace(f)) is not None
    }
    rows = []
    for m in bound:
        if (found := fast_method(m, driven)) is not None:
            path = tuple_of(*map(quoted, (naming.GENERATED_ALIAS, naming.OPS_MODULE, found[0])))
            rows.append(tuple_of(quoted(m.name), path, str(found[1])))
    if not rows:
        return None
    return Stmt("", vertical(call("_accel.methods", "TensorMethods", vertical(list_of(*rows)))))
