"""Grad nodes: a `Node` (a GradNode subclass in nodes.py) for each backward.yaml entry.

A node reads its gradients, then takes one of two paths: the recorded one (create_graph)
unpacks the saved tensors as Tensors and calls the grad op or evaluates the composite; the
first-order one hands only their version-checked arrays to the kernel. A composite without
a kernel is its only path. `apply` returns one gradient per forward input position.
"""

from __future__ import annotations

from opgrad.codegen import naming
from opgrad.codegen.composite import Composite
from opgrad.codegen.layout import Stmt, tuple_of
from opgrad.codegen.model import BackwardSpec
from opgrad.codegen.plan_parts import (
    ARRAY,
    META,
    TENSOR,
    GradRead,
    KernelCall,
    Node,
    Result,
    Unpacked,
    arg_annotation,
    doc_lines,
    kernel_call,
    optional_grads,
    quoted,
    spelled_call,
)
from opgrad.codegen.signature import Arg
from opgrad.codegen.validate import GradOpSig, Spec


def node_class(bwd: BackwardSpec, spec: Spec) -> Node:
    fwd = spec.forward_of(bwd)
    attrs = [a for a in fwd.args if not a.is_tensor]
    meta = set(bwd.no_need_buffer)
    optional = optional_grads(bwd, spec)
    saved = [a for a in bwd.args if fwd.arg(a.name) is not None or fwd.output(a.name) is not None]
    slots = [a.name for a in saved] + [a.name for a in attrs]
    # What the forward stores in each slot: a saved tensor (opgrad.runtime.tensor_wrapper's
    # `Saved`), an attribute as the forward's parameter says; a count is an int.
    slot_types = [f"{a.name}: Saved" for a in saved] + [f"{a.name}: {arg_annotation(a)}" for a in attrs]

    # Output positions: visible outputs in order (a Tensor[] output, always last, takes the rest).
    positions: dict[str, tuple[int, bool]] = {}
    for i, o in enumerate(fwd.visible_outputs):
        positions[naming.grad_name(o.name)] = (i, o.is_list)
    reads: list[GradRead | Unpacked | Stmt] = []
    for a in bwd.args:
        if a.name in positions:
            i, is_list = positions[a.name]
            reads.append(GradRead(a.name, i, is_list, a.type == "Tensor?"))

    create_graph: list[Stmt | Unpacked] = []
    compute: list[Stmt | KernelCall | Unpacked] = []
    composite = spec.composite(bwd.name)
    if composite is not None and bwd.kernel is None:
        # One path: the composite runs ops on Tensors, recorded or not by grad mode.
        reads += [_unpack(a, "unpack", meta) for a in saved]
        compute += _composite_stmts(composite, attrs)
    elif composite is not None:
        # `kernel:` and `composite:`: the recorded path evaluates the composite with ops (any
        # order); the first-order path runs the kernel on arrays.
        create_graph += [_unpack(a, "unpack", meta) for a in saved]
        create_graph += _composite_stmts(composite, attrs)
    else:
        # create_graph: saved tensors as Tensors for the recorded grad op.
        create_graph += [_unpack(a, "unpack", meta) for a in saved]
        call_args = [a.name for a in bwd.args] + [f"self.{a.name}" for a in attrs]
        targets = ", ".join(o.name for o in bwd.outputs)
        create_graph.append(
            Stmt(f"{targets} = ", spelled_call(f"{naming.GRAD_OPS_ALIAS}.{bwd.name}", *call_args))
        )
    if bwd.kernel is not None:
        # The first-order path: only the saved tensors' version-checked arrays
        # (`unpack_data`), which is all the kernel takes.
        compute += [_unpack(a, "unpack_data", meta) for a in saved]
        saved_names = {a.name for a in saved}
        forms = [
            (a, META if a.name in meta else ARRAY if a.name in saved_names else TENSOR) for a in bwd.args
        ]
        if bwd.needs_input_grad:  # every gradient may be skipped, so each may be None
            optional = frozenset(o.name for o in bwd.outputs)
            # declared once, before the recorded path assigns Tensors to the same names
            reads += [Stmt(f"{o.name}: Tensor | None", "") for o in bwd.outputs if not o.is_list]
        results = [
            Result(o.name, "list" if o.is_list else "optional" if o.name in optional else "tensor")
            for o in bwd.outputs
        ]
        kernel_attrs = [f"self.{a.name}" for a in attrs]
        if bwd.needs_input_grad:
            kernel_attrs.append(_needs(bwd, fwd))
        compute += kernel_call(bwd.name, bwd.kernel, forms, kernel_attrs, results)

    by_grad = {o.name: o for o in bwd.outputs}
    entries: list[str] = []
    for a in fwd.args:
        if not a.is_tensor:
            continue
        out = by_grad.get(fwd.input_grad(a.name))
        if out is not None:
            entries.append(f"*{out.name}" if out.is_list else out.name)
        elif a.is_tensor_list:
            # a no_need_buffer Tensor[] input: no gradient for any of its positions
            entries.append(f"*[None] * self.{naming.count_slot(a.name)}")
            slots.append(naming.count_slot(a.name))
            slot_types.append(f"{naming.count_slot(a.name)}: int")
        else:
            entries.append("None")
    slots_stmt = Stmt("__slots__ = ", tuple_of(*[quoted(s) for s in slots]) if slots else "()")
    returns = Stmt("return ", tuple_of(*entries))
    return Node(
        class_name=naming.node_class(bwd.name),
        name=bwd.name,
        doc=doc_lines(bwd.doc, 4),
        non_differentiable=_non_differentiable(fwd),
        n_outputs=_n_outputs(fwd),
        slots=slots_stmt,
        slot_types=tuple(slot_types),
        reads=tuple(reads),
        create_graph=tuple(create_graph),
        compute=tuple(compute),
        returns=returns,
        # metadata (no_need_buffer) is not data: a node that saved only that can rerun
        released=tuple(a.name for a in saved if a.name not in meta),
    )


def _needs(bwd: BackwardSpec, fwd: GradOpSig) -> str:
    """The `needs` argument: per gradient output, whether its forward input has an edge."""
    positions = {fwd.input_grad(a.name): i for i, a in enumerate(a for a in fwd.args if a.is_tensor)}
    flags = [f"{_edge(positions[o.name])} is not None" for o in bwd.outputs]
    return "(" + ", ".join(flags) + ("," if len(flags) == 1 else "") + ")"


def _edge(pos: int) -> str:
    """The node that input position `pos`'s gradient goes to (GradNode's layout: slots for
    positions 0 and 1, the `_nexts` tuple only when a node has more positions)."""
    return f"self._next{pos}" if pos < 2 else f"self._nexts[{pos}]"


def _composite_stmts(composite: tuple[tuple[str, Composite], ...], attrs: list[Arg]) -> list[Stmt]:
    """The attributes a composite reads as locals, then its steps and gradients."""
    used = {n for _, c in composite for n in (*c.names, *c.tested)}
    stmts = [Stmt(f"{a.name} = ", f"self.{a.name}") for a in attrs if a.name in used]
    for name, c in composite:
        stmts += c.statements(name)
    return stmts


def _unpack(a: Arg, how: str, meta: set[str]) -> Unpacked:
    """A saved tensor (list, optional tensor) as a local, through `<how>(saved, self)`; a
    `no_need_buffer` tensor's metadata is read as it is (it has no version to check, and
    `unpack`/`unpack_data` would return the same object)."""
    if a.name in meta and not a.is_tensor_list:
        return Unpacked(a.name, how, "meta")
    form = "list" if a.is_tensor_list else "optional" if a.type == "Tensor?" else "tensor"
    return Unpacked(a.name, how, form)


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
