"""Anomaly mode, graph inspection and DOT output."""

from __future__ import annotations

import sys
import threading
import types

import numpy as np
import pytest

import opgrad as og
from handmade_ops import MulNode, add, mul, tanh, total
from opgrad.runtime import anomaly
from opgrad.runtime.grad_holder import AccumulateGrad
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


def test_a_node_made_outside_anomaly_mode_says_its_site_is_unknown():
    x = og.tensor(np.array([1.0]), requires_grad=True)
    y = total(nan_op(x, x))  # recorded without anomaly mode: no forward site
    with og.detect_anomaly():
        with pytest.raises(
            FloatingPointError, match="created outside detect_anomaly\\(\\), so its forward site"
        ):
            y.backward()


def test_anomaly_mode_nests_and_restores_on_errors():
    assert not anomaly.is_enabled() and not anomaly.STATE.enabled
    with pytest.raises(KeyError):
        with og.detect_anomaly(check_inf=True):
            assert anomaly.is_enabled() and anomaly.STATE.enabled and anomaly.settings() == (True, True)
            with og.detect_anomaly(check_nan=False):
                assert anomaly.settings() == (False, False)
            assert anomaly.settings() == (True, True) and anomaly.is_enabled()
            raise KeyError("boom")
    assert not anomaly.is_enabled() and not anomaly.STATE.enabled and anomaly.settings() == (True, False)


def test_anomaly_mode_is_per_thread():
    # Before: detect_anomaly() in one thread made every other thread's backward raise on NaN.
    entered, done = threading.Event(), threading.Event()
    seen = {}

    def watcher():
        with og.detect_anomaly():
            entered.set()
            done.wait(5)

    t = threading.Thread(target=watcher)
    t.start()
    try:
        assert entered.wait(5)
        seen["enabled_here"] = anomaly.is_enabled()
        x = og.tensor(np.array([1.0]), requires_grad=True)
        total(nan_op(x, x)).backward()  # no FloatingPointError in this thread
        seen["grad"] = x.grad.numpy()
    finally:
        done.set()
        t.join()
    assert seen["enabled_here"] is False and np.isnan(seen["grad"]).all()
    assert not anomaly.STATE.enabled  # the last thread out switches the shared flag off


def test_anomaly_checks_only_floating_gradients():
    node = types.SimpleNamespace(trace="  site\n", name="probe_grad")
    with og.detect_anomaly(check_inf=True):
        anomaly.check_gradient(node, 0, np.array([1, 2], dtype=np.int64))  # integers cannot be NaN
        anomaly.check_gradient(node, 0, np.array([1.0, 2.0]))
        with pytest.raises(FloatingPointError, match="returned inf values in its gradient for input 1"):
            anomaly.check_gradient(node, 1, np.array([1.0, np.inf]))
    with og.detect_anomaly(check_nan=False):
        anomaly.check_gradient(node, 0, np.array([np.nan]))  # NaN checks switched off


def test_to_dot_of_leaves_constants_and_skipped_inputs():
    with pytest.raises(TypeError, match="to_dot: expected a Tensor, got ndarray"):
        og.viz.to_dot(np.zeros(2))
    leaf = og.tensor(np.ones((2,)), requires_grad=True)
    assert 't0 [shape=ellipse, label="leaf (2,)"]' in og.viz.to_dot(leaf)
    assert 'label="constant (3,)"' in og.viz.to_dot(og.zeros((3,)), name='my "graph"')
    assert og.viz.to_dot(og.zeros((3,)), name='my "graph"').startswith('digraph "my \\"graph\\"" {')
    y = add(tanh(leaf), og.tensor(np.array([2.0, 3.0])))  # the constant gets no edge
    dot = og.viz.to_dot(y)
    assert dot.count("->") == 3  # output->add, add->tanh, tanh->leaf
    assert 'label="in 0 <- out 0"' in dot and "in 1 <-" not in dot


class _FakeSource:
    def __init__(self, source):
        self.source = source

    def pipe(self, format):
        return f"{format}:{len(self.source)}".encode()


def test_render_pipes_the_dot_text_through_graphviz(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", types.SimpleNamespace(Source=_FakeSource))
    x = og.tensor(np.ones(2), requires_grad=True)
    y = total(tanh(x))
    n = len(og.viz.to_dot(y))
    png = og.viz.render(y, str(tmp_path / "g.png"))
    assert open(png, "rb").read() == f"png:{n}".encode()
    bare = og.viz.render(y, str(tmp_path / "graph"))  # no suffix: SVG
    assert open(bare, "rb").read() == f"svg:{n}".encode()
    forced = og.viz.render(y, str(tmp_path / "g.out"), fmt="pdf")
    assert open(forced, "rb").read() == f"pdf:{n}".encode()


def test_render_without_graphviz_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    x = og.tensor(np.ones(2), requires_grad=True)
    with pytest.raises(
        RuntimeError, match=r"render: the graphviz package is not installed \(pip install opgrad\[viz\]\)"
    ):
        og.viz.render(total(x), str(tmp_path / "g.svg"))
    assert not (tmp_path / "g.svg").exists()


def test_a_user_folder_named_opgrad_keeps_its_frames(tmp_path):
    """The forward site of user code in a folder named opgrad (a clone of this repository,
    say) is shown; only opgrad's own package folders are left out of the trace."""
    from opgrad.runtime import anomaly

    path = tmp_path / "opgrad" / "train.py"
    scope = {"capture_trace": anomaly.capture_trace}
    exec(compile("trace = capture_trace()", str(path), "exec"), scope)  # noqa: S102 - a fixed string
    assert str(path) in scope["trace"]
    own = anomaly.__file__
    exec(compile("trace = capture_trace()", own, "exec"), scope)  # noqa: S102 - a fixed string
    assert own not in scope["trace"]
