"""`og.viz`: the backward graph as Graphviz DOT text (and, with graphviz installed, pictures).

Walks the graph iteratively from a tensor's grad_fn: one box per node (named by op), one
ellipse per leaf (with its shape), saved tensors listed in the node's label, and edges
labelled with the output position they feed.
"""

from __future__ import annotations

import os
from typing import Any

from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import GradNode, TensorMeta
from opgrad.runtime.tensor import Tensor
from opgrad.runtime.tensor_wrapper import TensorWrapper


def _saved(node: GradNode) -> list[str]:
    names = []
    for cls in type(node).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            value = getattr(node, slot, None)
            if isinstance(value, (TensorWrapper, TensorMeta, Tensor)):
                names.append(slot)
    return names


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(tensor: Tensor, name: str = "backward") -> str:
    """The backward graph behind `tensor` as DOT text."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"to_dot: expected a Tensor, got {type(tensor).__name__}")
    lines = [f"digraph {_quote(name)} {{", "  rankdir=BT;", '  node [fontname="Helvetica"];']
    root = tensor._node
    ids: dict[int, str] = {}
    if root is None:
        label = f"leaf {tensor.shape}" if tensor.requires_grad else f"constant {tensor.shape}"
        lines.append(f"  t0 [shape=ellipse, label={_quote(label)}];")
        lines.append("}")
        return "\n".join(lines) + "\n"
    lines.append(f"  output [shape=ellipse, style=filled, label={_quote(f'output {tensor.shape}')}];")
    stack: list[GradNode] = [root]
    ids[id(root)] = "n0"
    edges: list[str] = [f"  output -> n0 [label={_quote(f'pos {tensor._pos}')}];"]
    while stack:
        node = stack.pop()
        nid = ids[id(node)]
        if isinstance(node, AccumulateGrad):
            label = f"leaf {node.variable.shape}\\n{node.variable.dtype}"
            lines.append(f"  {nid} [shape=ellipse, label={_quote(label)}];")
            continue
        saved = _saved(node)
        label = node.name + (f"\\nsaved: {', '.join(saved)}" if saved else "")
        lines.append(f"  {nid} [shape=box, label={_quote(label)}];")
        for slot, e in enumerate(node.next_edges):
            if e is None:
                continue
            child, pos = e
            cid = ids.get(id(child))
            if cid is None:
                cid = ids[id(child)] = f"n{len(ids)}"
                stack.append(child)
            edges.append(f"  {nid} -> {cid} [label={_quote(f'in {slot} <- out {pos}')}];")
    lines.extend(edges)
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(tensor: Tensor, path: str, fmt: str | None = None) -> str:
    """Write the graph as SVG/PNG (needs the `graphviz` package and its `dot` binary)."""
    try:
        import graphviz
    except ImportError:
        raise RuntimeError(
            "render: the graphviz package is not installed (pip install opgrad[viz])"
        ) from None
    fmt = fmt or os.path.splitext(path)[1].lstrip(".") or "svg"
    src = graphviz.Source(to_dot(tensor))
    data: Any = src.pipe(format=fmt)
    with open(path, "wb") as fh:
        fh.write(data)
    return path
