"""The grad nodes whose first-order `apply` (create_graph false) has the one plain kernel
shape the optional C driver runs (`runtime/_accel.nodes`, `_speedups.c`): the table at the
end of nodes.py. The node counterpart of plan_fast.py (the ops' table).

The shape, for one incoming gradient and a kernel that has a table:

    out_grad = grads[0]
    [x_grad: Tensor | None ...]                                # annotations only
    if create_graph: ...                                       # (never taken by the C path)
    x = unpack_data(self.x, self)  |  x = self.x               # each saved tensor, or its metadata
    _kernel = <arrays' classes alike> and _k_op.get(<first array>.__class__) or dispatch(...)
    try: x_grad = wrap(_kernel(<args>))                        # or: _results = _kernel(<args>)
    except (TypeError, ValueError, OverflowError, MemoryError) as _e: raise kernel_error(...)
    [_r0, _r1 = _results ...; x_grad = wrap(_r0) | None if _r0 is None else wrap(_r0) ...]
    return (x_grad, None, ...)

where each kernel argument is a saved local, `out_grad._data`, `self.<attribute>` or the
`needs` tuple `(self._next0 is not None, self._next1 is not None)`. `fast_node` recognizes
it from the plan's records (anything else: not in the table, so the Python method alone
runs it); tests/test_fast_paths_capply.py checks each listed class's `apply` source against
the shape again, so the table cannot describe a method it does not match.
"""

from __future__ import annotations

from dataclasses import dataclass

from opgrad.codegen import naming
from opgrad.codegen.layout import Group, Stmt, call, list_of, stmt, tuple_of, vertical
from opgrad.codegen.plan_parts import GradRead, KernelCall, Node, Unpacked, quoted

# A kernel argument's kind, in the order the C driver numbers them (_speedups.c, ARG_*).
ARG_KINDS = ("save", "grad", "attr", "needs")
# How a result is made a gradient: `wrap(_r)` ("t") or `None if _r is None else wrap(_r)` ("o").
RESULT_KINDS = {"wrap({0})": "t", "None if {0} is None else wrap({0})": "o"}


@dataclass(frozen=True)
class FastNode:
    """One row of the table: `saves` the slots unpacked in order ("data": `unpack_data`,
    "meta": passed as it is), `args` the kernel's arguments (kind, value: a save's index, 0,
    an attribute's slot, the `needs` positions), `arrays` the arrays that pick the kernel (a
    save's index, or -1 for the gradient's), `results` "" for one result wrapped inside the
    `try`, else one kind per unpacked result, `returns` a result's index or -1 for None."""

    node: str
    table: str
    saves: tuple[tuple[str, str], ...]
    args: tuple[tuple[str, object], ...]
    arrays: tuple[int, ...]
    results: str
    returns: tuple[int, ...]

    @property
    def row(self) -> Group:
        def value(v: object) -> str:
            if isinstance(v, tuple):
                return stmt(Stmt("", tuple_of(*map(str, v))), 0)
            return quoted(v) if isinstance(v, str) else str(v)

        return tuple_of(
            quoted(self.node),
            quoted(self.table),
            tuple_of(*(tuple_of(quoted(s), quoted(f)) for s, f in self.saves)),
            tuple_of(*(tuple_of(quoted(k), value(v)) for k, v in self.args)),
            tuple_of(*map(str, self.arrays)),
            quoted(self.results),
            tuple_of(*map(str, self.returns)),
        )


def _needs_positions(text: str) -> tuple[int, ...] | None:
    """The positions of `(self._next0 is not None, self._next1 is not None, ...)` (plan_nodes'
    `_needs` spelling: slots `_next0`, `_next1`, then `_nexts[<position>]`), or None."""
    if not (text.startswith("(") and text.endswith(")")):
        return None
    items = [i.strip() for i in text[1:-1].split(",") if i.strip()]
    positions = []
    for i in items:
        edge = i.removesuffix(" is not None")
        if edge in ("self._next0", "self._next1"):
            positions.append(int(edge[-1]))
        elif (
            edge.startswith("self._nexts[")
            and edge.endswith("]")
            and edge[12:-1].isdigit()
            and int(edge[12:-1]) >= 2
        ):
            positions.append(int(edge[12:-1]))
        else:
            return None
    if not positions or text != "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")":
        return None
    return tuple(positions)


def fast_node(n: Node) -> FastNode | None:
    """`n`'s row, when its first-order `apply` has the shape of the module docstring; else None."""
    grads = [r for r in n.reads if isinstance(r, GradRead)]
    if len(grads) != 1 or grads[0].position != 0 or grads[0].rest or grads[0].optional:
        return None
    grad = grads[0].name
    for r in n.reads:  # the rest: annotations of the gradients the kernel may skip
        if not isinstance(r, GradRead) and not (
            isinstance(r, Stmt) and r.body == "" and r.prefix.endswith(": Tensor | None")
        ):
            return None
    if not n.create_graph:
        return None
    saves: list[tuple[str, str]] = []
    at = 0
    for s in n.compute:
        if not isinstance(s, Unpacked):
            break
        if s.how != "unpack_data" or s.form not in ("tensor", "meta"):
            return None
        saves.append((s.name, "data" if s.form == "tensor" else "meta"))
        at += 1
    k = n.compute[at] if at < len(n.compute) else None
    if not isinstance(k, KernelCall) or k.table != naming.kernel_table(k.kernel):
        return None
    names = [s for s, _ in saves]
    slots = {s.strip('"') for s in _slot_names(n)}

    def array(text: str) -> int | None:
        if text == f"{grad}._data":
            return -1
        return names.index(text) if text in names and saves[names.index(text)][1] == "data" else None

    arrays = [array(a) for a in k.arrays]
    if not arrays or any(a is None for a in arrays):
        return None
    args: list[tuple[str, object]] = []
    for a in k.args:
        if a == f"{grad}._data":
            args.append(("grad", 0))
        elif a in names:
            args.append(("save", names.index(a)))
        elif a.startswith("self.") and a[5:] in slots and a[5:] not in names:
            args.append(("attr", a[5:]))
        elif (positions := _needs_positions(a)) is not None:
            args.append(("needs", positions))
        else:
            return None
    rest = [stmt(s, 0) for s in n.compute[at + 1 :] if isinstance(s, Stmt)]
    if len(rest) != len(n.compute) - at - 1:
        return None
    locals_: list[str] = []
    if k.wrap:
        if k.unpacked or rest:
            return None
        results = ""
        locals_.append(k.target)
    else:
        if k.target != naming.KERNEL_RESULTS or len(k.unpacked) < 2 or len(rest) != len(k.unpacked):
            return None
        if k.unpacked != tuple(naming.result_local(i) for i in range(len(k.unpacked))):
            return None
        kinds = []
        for i, line in enumerate(rest):
            local, _, value = line.partition(" = ")
            kind = next((c for form, c in RESULT_KINDS.items() if value == form.format(k.unpacked[i])), None)
            if kind is None:
                return None
            kinds.append(kind)
            locals_.append(local)
        results = "".join(kinds)
    returns_text = stmt(n.returns, 0)
    entries = [
        e.strip() for e in returns_text.removeprefix("return (").removesuffix(")").split(",") if e.strip()
    ]
    if not returns_text.startswith("return (") or any(e != "None" and e not in locals_ for e in entries):
        return None
    returns = tuple(-1 if e == "None" else locals_.index(e) for e in entries)
    return FastNode(
        n.class_name,
        k.table,
        tuple(saves),
        tuple(args),
        tuple(a for a in arrays if a is not None),
        results,
        returns,
    )


def _slot_names(n: Node) -> tuple[str, ...]:
    body = n.slots.body
    if isinstance(body, Group):
        return tuple(i for i in body.items if isinstance(i, str))
    return ()


def fast_nodes_table(nodes: tuple[Node, ...]) -> Stmt | None:
    """`_accel.nodes(globals(), [rows])` for the nodes of the shape, or None."""
    rows = [r.row for n in nodes if (r := fast_node(n)) is not None]
    if not rows:
        return None
    return Stmt("", vertical(call("_accel.nodes", "globals()", vertical(list_of(*rows)))))
