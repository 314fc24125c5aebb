"""Anomaly mode, graph inspection and DOT output."""

from __future__ import annotations

import numpy as np
import pytest

import opgrad as og
from handmade_ops import MulNode, add, mul, tanh, total
from opgrad.runtime.grad_node import AccumulateGrad
from opgrad.runtime.tensor import wrap


class NanNode(MulNode):
    """mul whose backward produces NaN."""

    __slots__ = ()
    name = "nan_grad"

    def apply(self, grads, create_graph):
        (g,) = grads
        return (wrap(g._data * np.nan), wrap(g._data * np.nan))


def nan_op(a, b):
    out = mul(a, b)
    out.grad_fn.__class__ = NanNode
    return out


def test_detect_anomaly_names_node_and_forward_site():
    x = og.tensor(np.array([1.0]), requires_grad=True)
    with og.detect_anomaly():
        y = total(nan_op(x, x))  # the forward site: this line
        with pytest.raises(FloatingPointError) as info:
            y.backward()
    text = str(info.value)
    assert "NanNode (nan_grad) returned NaN" in text
    assert "test_debugging.py" in text and "nan_op(x, x)" in text


def test_without_anomaly_mode_nan_passes_silently():
    x = og.tensor(np.array([1.0]), requires_grad=True)
    total(nan_op(x, x)).backward()
    assert np.isnan(x.grad.numpy()).all()


def test_check_inf_only_when_asked():
    x = og.tensor(np.array([0.0]), requires_grad=True)

    class InfNode(MulNode):
        __slots__ = ()
        name = "inf_grad"

        def apply(self, grads, create_graph):
            return (wrap(grads[0]._data * np.inf), wrap(grads[0]._data * np.inf))

    with og.detect_anomaly():
        y = mul(x, x)
        y.grad_fn.__class__ = InfNode
        y.backward(retain_graph=True)  # check_inf is off by default
    with og.detect_anomaly(check_inf=True):
        with pytest.raises(FloatingPointError, match="returned inf"):
            y.backward()


def test_next_nodes_walk_the_graph():
    x = og.tensor(np.array([1.0]), requires_grad=True)
    c = og.tensor(np.array([2.0]))
    y = add(tanh(x), c)
    (first, pos), (second, _) = y.grad_fn.next_nodes
    assert first.name == "tanh_grad" and pos == 0
    assert second is None  # c needs no gradient
    ((acc, _),) = first.next_nodes
    assert isinstance(acc, AccumulateGrad) and acc.variable is x
    assert "tanh_grad" in repr(first)
    meta = first.input_meta[0]
    assert meta.shape == (1,) and meta.dtype == np.float64 and meta.device == "cpu"


def test_to_dot_structure():
    x = og.tensor(np.ones((2, 3)), requires_grad=True)
    y = total(tanh(mul(x, x)))
    dot = og.viz.to_dot(y)
    assert dot.startswith('digraph "backward" {') and dot.rstrip().endswith("}")
    for label in ("sum_grad", "tanh_grad", "mul_grad", "leaf (2, 3)", "saved: out", "saved: a, b"):
        assert label in dot
    assert dot.count("->") == 5  # output->sum, sum->tanh, tanh->mul, mul->leaf twice
    assert 'label="in 1 <- out 0"' in dot


def test_render_writes_a_picture(tmp_path):
    graphviz = pytest.importorskip("graphviz")
    import shutil

    if shutil.which("dot") is None:
        pytest.skip("the Graphviz 'dot' binary is not installed")
    del graphviz
    x = og.tensor(np.ones(2), requires_grad=True)
    path = og.viz.render(total(tanh(x)), str(tmp_path / "graph.svg"))
    assert open(path).read().lstrip().startswith(("<?xml", "<svg"))
