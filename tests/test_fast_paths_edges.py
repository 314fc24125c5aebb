"""A node's edges without a tuple of nodes (runtime/grad_node.py, Edge).

A node with at most two input positions keeps the nodes its gradients go to in the slots
`_next0`/`_next1`; only a node with more positions allocates `_nexts`, the tuple of all of
them. These tests check that

- the layout holds what the inputs say (`edges()`, `next_edges`, `next_functions`,
  `input_meta`, the `_next` tuple view) for 0, 1, 2, 3 and many input positions, edges to
  output positions other than 0, and inputs that need no gradient (None edges), whether the
  node was made by `GradNode(inputs)`, `new_node` or `recorded`;
- a node of one or two inputs keeps no container of nodes (what the cyclic GC walks; the
  counts per op and per chain link are pinned in tests/test_tensor_wrapper.py);
- the engine runs the nodes in the documented order (the most recently created ready node
  first, ties in the order they became ready), which a reference scheduler in this file
  computes from `next_edges`, in both of engine_loop's loops, with hooks firing in that
  order; gradients are bit for bit the same through `backward()`, `grad()`, anomaly mode and
  node hooks, and match finite differences (float64); create_graph, retain_graph, user
  GradNode subclasses (reading `_next`, or setting it as the old layout did), checkpointing,
  batched grad() and DistributedDataParallel's leaf walk see every edge.
"""

from __future__ import annotations

import gc
import heapq

import numpy as np
import pytest

import opgrad as og
from opgrad.runtime import engine_loop
from opgrad.runtime.grad_holder import AccumulateGrad
from opgrad.runtime.grad_node import GradNode, edge_to, new_node, recorded, set_history
from opgrad.runtime.nn.parallel import _reachable_leaves
from opgrad.runtime.tensor import wrap
from opgrad.runtime.utils.checkpointing import checkpoint

RNG = np.random.default_rng(11)


def leaf(shape, requires_grad=True):
    return og.tensor(RNG.standard_normal(shape), requires_grad=requires_grad)


def expected_edges(inputs):
    """What a node recording `inputs` must point at: (node, pos) per input, None without grad."""
    return tuple(None if t is None or not t.requires_grad else edge_to(t) for t in inputs)


def check_layout(node, inputs):
    want = expected_edges(inputs)
    nodes = tuple(None if e is None else e[0] for e in want)
    positions = tuple(0 if e is None else e[1] for e in want)
    assert node.next_edges == want
    assert node.edges() == (nodes, positions)
    assert node._next == nodes and len(node._at) == len(inputs)
    assert node.next_functions == tuple(zip(nodes, positions, strict=True))
    for meta, t in zip(node.input_meta, inputs, strict=True):
        if t is None or not t.requires_grad:
            assert meta is None
        else:
            assert (meta.shape, meta.dtype) == (t.shape, t._data.dtype)
    # the slots: positions 0 and 1 in their own slots, a tuple only for more positions
    assert node._next0 is (nodes[0] if nodes else None)
    assert node._next1 is (nodes[1] if len(nodes) > 1 else None)
    assert node._nexts == (nodes if len(nodes) > 2 else ())


def _pieces(n):
    """n inputs: leaves, a non-leaf, pieces 1 and 2 of a split (output positions 1, 2), a
    tensor without grad, None for every fifth."""
    x = leaf((3 * 4,))
    parts = og.split(x, 3)
    out = []
    for i in range(n):
        kind = i % 5
        out.append(
            [leaf((4,)), og.tanh(leaf((4,))), parts[1 + i % 2], leaf((4,), requires_grad=False), None][kind]
        )
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 12])
def test_a_node_links_every_input_position(n):
    inputs = _pieces(n)
    node = GradNode(inputs)  # _link
    check_layout(node, inputs)
    if n:  # new_node: for one or two inputs it goes through recorded
        out = wrap(np.zeros(4))
        made = new_node(GradNode, inputs, out)
        check_layout(made, inputs)
        assert out.grad_fn is made


@pytest.mark.parametrize("pattern", ["g", "k", "n", "gg", "gk", "kg", "gn", "ng", "nn", "cg", "gc", "cc"])
def test_recorded_links_one_or_two_inputs_with_none_edges(pattern):
    # g: a leaf, k: a tensor without grad, n: None, c: output position 1 of a split
    x = leaf((4,))
    split_piece = og.split(leaf((8,)), 2)[1]
    pick = {"g": x, "k": leaf((4,), requires_grad=False), "n": None, "c": split_piece}
    inputs = [pick[p] for p in pattern]
    out, node = recorded(GradNode, np.zeros(4), *inputs)
    check_layout(node, inputs)
    assert out.grad_fn is node


def test_generated_ops_link_their_inputs():
    x, w, b = leaf((2, 3)), leaf((3, 4)), leaf((4,))
    parts = og.split(leaf((4, 3)), 2)
    pieces = [x, parts[0], x, og.ones([2, 3]), parts[1]]
    cases = [
        (og.tanh(x), [x]),
        (og.multiply(x, 2.0), None),  # the constant is a tensor made inside the op
        (og.multiply(parts[1], x), [parts[1], x]),
        (og.linear(x, w, b), [x, w, b]),
        (og.linear(x, w), [x, w, None]),
        (og.concat(pieces, 0), pieces),
        (og.stack([x] * 9, 0), [x] * 9),
    ]
    for out, inputs in cases:
        if inputs is not None:
            check_layout(out.grad_fn, inputs)
        else:
            assert out.grad_fn.next_edges == ((x._acc(), 0), None)


def test_a_node_of_one_or_two_inputs_keeps_no_container_of_nodes():
    x, c = leaf((4,)), og.ones([4])
    for y in (og.tanh(x), og.multiply(x, c), og.add(og.tanh(x), og.sin(x))):
        for ref in gc.get_referents(y.grad_fn):
            assert not (isinstance(ref, tuple | list) and any(isinstance(r, GradNode) for r in ref)), (
                f"{y.grad_fn.name} keeps its edges in a {type(ref).__name__}"
            )


# -- the engine's order --------------------------------------------------------------------
def reference_order(roots):
    """The order the engine runs the nodes reachable from `roots` in (engine_loop's module
    docstring): a node is ready when every edge into it has delivered; the ready node with
    the highest `seq` runs first, ties (leaves) in the order they became ready; a node's
    edges deliver in position order. Reads only `next_edges`."""
    deps = {}
    stack = list(dict.fromkeys(roots))
    seen = set(stack)
    while stack:
        node = stack.pop()
        for e in node.next_edges:
            if e is not None:
                deps[e[0]] = deps.get(e[0], 0) + 1
                if e[0] not in seen:
                    seen.add(e[0])
                    stack.append(e[0])
    ready = []
    order = 0
    for node in dict.fromkeys(roots):
        if node not in deps:
            ready.append((-node.seq, order, id(node), node))
            order += 1
    heapq.heapify(ready)
    ran = []
    while ready:
        node = heapq.heappop(ready)[3]
        ran.append(node)
        for e in node.next_edges:
            if e is not None:
                deps[e[0]] -= 1
                if deps[e[0]] == 0:
                    heapq.heappush(ready, (-e[0].seq, order, id(e[0]), e[0]))
                    order += 1
    return ran


def _nodes_of(roots):
    seen, stack = [], list(roots)
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.append(node)
            stack.extend(e[0] for e in node.next_edges if e is not None)
    return seen


@pytest.fixture
def log_turns(monkeypatch):
    """Patch the node classes of a graph so each node's turn is logged (a leaf's
    accumulation included), without hooks: the plain path stays plain."""
    log = []

    def install(roots):
        for cls in {type(n) for n in _nodes_of(roots)} - {AccumulateGrad}:
            original = cls.apply

            def apply(self, grads, create_graph, _original=original):
                log.append(self)
                return _original(self, grads, create_graph)

            monkeypatch.setattr(cls, "apply", apply)
        accumulate = engine_loop._accumulate

        def logged_accumulate(node, *args):
            log.append(node)
            return accumulate(node, *args)

        monkeypatch.setattr(engine_loop, "_accumulate", logged_accumulate)
        return log

    return install


K4 = np.linspace(-0.5, 0.7, 4)  # constants: the same at every call


def chain(x, d):
    c = og.tensor(np.full(5, 0.9))
    y = x
    for _ in range(12):
        y = og.tanh(og.add(og.multiply(y, c), d))
    return og.sum(y)


def diamond(x, w):
    a, b = og.tanh(x), og.sin(x)
    c = og.multiply(a, b)
    d = og.add(c, og.exp(og.multiply(x, w)))
    return og.sum(og.multiply(d, a))


def multi_output(x, w, gates, c):
    p0, p1, p2 = og.split(x, 3)  # one node, three output positions
    y = og.add(og.multiply(p2, w), og.tanh(p0))
    h, c_next = og.lstm_cell(gates, c)  # two outputs, both used
    _, _, q = og.split(og.tanh(x), 3)  # positions 0 and 1 unused: their gradients are zeros
    return og.add(og.add(og.sum(y), og.sum(og.multiply(h, c_next))), og.sum(og.multiply(p1, q)))


def arities(x, w, b):
    one = og.tanh(x)
    two = og.multiply(one, x)
    three = og.linear(two, w, b)
    three_none = og.linear(two, w)  # bias None: a None edge at position 2
    many = og.concat([x, one, og.ones([2, 3]), two, x, one, og.tanh(two), x], 0)
    return og.add(og.add(og.sum(three), og.sum(og.multiply(three_none, three_none))), og.sum(og.sin(many)))


def no_grad_inputs(x):
    k = og.tensor(K4)
    y = og.multiply(k, og.tanh(x))  # None at position 0
    z = og.add(y, k)  # None at position 1
    return og.sum(og.concat([k, z, k, og.multiply(z, k)], 0))


# name: (the loss as a function of its leaves, the leaves' shapes)
GRAPHS = {
    "chain": (chain, [(5,), (5,)]),
    "diamond": (diamond, [(4,), (4,)]),
    "multi_output": (multi_output, [(6,), (2,), (2, 8), (2, 2)]),
    "arities": (arities, [(2, 3), (3, 4), (4,)]),
    "no_grad_inputs": (no_grad_inputs, [(4,)]),
}


def build(name):
    fn, shapes = GRAPHS[name]
    leaves = [leaf(s) for s in shapes]
    return fn(*leaves), leaves


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_backward_runs_the_nodes_in_the_reference_order(name, log_turns):
    loss, _ = build(name)
    want = reference_order([loss.grad_fn])
    log = log_turns([loss.grad_fn])
    loss.backward(retain_graph=True)  # run_backward
    assert log == want
    log.clear()
    with og.detect_anomaly():  # run_general
        loss.backward()
    assert log == want


def test_a_diamond_runs_in_the_documented_order():
    x = leaf((3,))
    a = og.tanh(x)
    b = og.sin(x)
    loss = og.sum(og.multiply(a, b))
    names = [n.name for n in reference_order([loss.grad_fn])]
    assert names == ["sum_grad", "multiply_grad", "sin_grad", "tanh_grad", "accumulate_grad"]


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_node_hooks_fire_in_the_reference_order(name):
    loss, _ = build(name)
    want = reference_order([loss.grad_fn])
    pre, post = [], []
    for node in want:
        node.register_prehook(lambda grads, node=node: pre.append(node))
        node.register_hook(lambda gi, go, node=node: post.append(node))
    loss.backward(retain_graph=True)
    assert pre == want and post == want
    pre.clear()
    post.clear()
    leaves = [n.variable for n in want if isinstance(n, AccumulateGrad)]
    og.grad([loss], leaves)  # run_general, capturing
    assert [n for n in pre if not isinstance(n, AccumulateGrad)] == [
        n for n in want if not isinstance(n, AccumulateGrad)
    ]


def _grads_by_backward(loss, leaves, **kw):
    for t in leaves:
        t.grad = None
    loss.backward(retain_graph=True, **kw)
    return [t.grad.numpy().copy() for t in leaves]


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_gradients_are_the_same_bits_through_every_loop(name):
    loss, leaves = build(name)
    base = _grads_by_backward(loss, leaves)
    via_grad = [g.numpy() for g in og.grad([loss], leaves, retain_graph=True)]
    with og.detect_anomaly():
        anomalous = _grads_by_backward(loss, leaves)
    hooked_node = loss.grad_fn
    handle = hooked_node.register_prehook(lambda grads: None)  # the node goes through _pre_hooks
    hooked = _grads_by_backward(loss, leaves)
    handle.remove()
    for other in (via_grad, anomalous, hooked):
        for a, b in zip(base, other, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
    # no gradient buffer aliases an input or another gradient
    grads = [t.grad for t in leaves]
    for i, g in enumerate(grads):
        assert not any(np.shares_memory(g._data, t._data) for t in leaves)
        assert not any(np.shares_memory(g._data, h._data) for h in grads[i + 1 :])


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_gradients_match_finite_differences(name):
    fn, _ = GRAPHS[name]
    loss, leaves = build(name)
    grads = _grads_by_backward(loss, leaves)
    values = [t.numpy().copy() for t in leaves]
    eps = 1e-6
    for i, g in enumerate(grads):
        for k in range(g.size):
            shifted = []
            for sign in (1, -1):
                v = [a.copy() for a in values]
                v[i].reshape(-1)[k] += sign * eps
                shifted.append(float(fn(*[og.tensor(a) for a in v]).numpy()))
            numeric = (shifted[0] - shifted[1]) / (2 * eps)
            assert abs(numeric - g.reshape(-1)[k]) < 1e-6 * max(1.0, abs(numeric)), (name, i, k)


# -- create_graph, retain_graph --------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_double_backward_through_every_arity(name):
    fn, _ = GRAPHS[name]
    loss, leaves = build(name)
    grads = og.grad([loss], leaves, create_graph=True)
    second = og.sum(og.stack([og.sum(og.multiply(g, g)) for g in grads], 0))
    via_grad = og.grad([second], leaves, retain_graph=True, allow_unused=True)
    for t in leaves:
        t.grad = None
    second.backward()
    for t, g in zip(leaves, via_grad, strict=True):
        if g is None:
            assert t.grad is None or not np.any(t.grad.numpy())
        else:
            assert np.array_equal(t.grad.numpy(), g.numpy())
    # d/dv sum_i |grad_i|^2 by central differences of the first-order gradients
    values = [t.numpy().copy() for t in leaves]
    eps = 1e-6

    def first_order_norm(vals):
        ts = [og.tensor(v, requires_grad=True) for v in vals]
        gs = og.grad([fn(*ts)], ts)
        return sum(float(np.sum(g.numpy() ** 2)) for g in gs)

    for i, t in enumerate(leaves):
        k = t.numpy().size // 2
        up = [a.copy() for a in values]
        up[i].reshape(-1)[k] += eps
        down = [a.copy() for a in values]
        down[i].reshape(-1)[k] -= eps
        numeric = (first_order_norm(up) - first_order_norm(down)) / (2 * eps)
        got = 0.0 if t.grad is None else t.grad.numpy().reshape(-1)[k]
        assert abs(numeric - got) < 1e-5 * max(1.0, abs(numeric)), (name, i)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_retain_graph_runs_the_same_pass_twice(name):
    loss, leaves = build(name)
    loss.backward(retain_graph=True)
    once = [t.grad.numpy().copy() for t in leaves]
    loss.backward()
    for t, g in zip(leaves, once, strict=True):
        assert np.array_equal(t.grad.numpy(), g + g)
    with pytest.raises(RuntimeError, match="second time"):
        loss.backward()


# -- user GradNode subclasses ------------------------------------------------------------------
class Scaled(GradNode):
    """A user's node: `scale` times the incoming gradient to every input, counted by
    reading `self._next` as nodes written for the tuple layout do."""

    __slots__ = ("scale",)
    name = "scaled_grad"

    def apply(self, grads, create_graph):
        g = grads[0]
        return tuple(None if n is None else wrap(g._data * self.scale) for n in self._next)


class OldStyle(Scaled):
    """A user's node that fills the edges itself as the tuple layout allowed: `_next` and
    `_at` set directly (here after GradNode.__init__ linked nothing)."""

    __slots__ = ()

    def __init__(self, inputs):
        super().__init__([])
        edges = expected_edges(inputs)
        self._next = tuple(None if e is None else e[0] for e in edges)
        self._at = tuple(0 if e is None else e[1] for e in edges)


@pytest.mark.parametrize("cls", [Scaled, OldStyle])
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_a_user_node_subclass_links_and_runs(cls, n):
    xs = [leaf((3,)) for _ in range(n)]
    inputs = [og.tanh(x) if i % 2 else x for i, x in enumerate(xs)]
    inputs[n // 2] = None if n > 2 else inputs[n // 2]
    node = cls(inputs)
    node.scale = 3.0
    check_layout(node, inputs)
    out = wrap(np.ones(3))
    set_history(out, node, 0)
    og.sum(og.multiply(out, og.tensor(np.array([1.0, 2.0, 3.0])))).backward()
    for i, x in enumerate(xs):
        if inputs[i] is None:
            assert x.grad is None
            continue
        g = np.array([3.0, 6.0, 9.0])
        want = g * (1 - np.tanh(x.numpy()) ** 2) if i % 2 else g
        np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-14)


# -- checkpointing, batched grad(), DistributedDataParallel's leaf walk ------------------------
@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpointing_through_every_arity_gives_the_same_bits(use_reentrant):
    leaves = [leaf(s) for s in GRAPHS["arities"][1]]
    plain = og.grad([arities(*leaves)], leaves)
    for t in leaves:
        t.grad = None
    checkpoint(arities, *leaves, use_reentrant=use_reentrant).backward()
    for t, g in zip(leaves, plain, strict=True):
        assert np.array_equal(t.grad.numpy(), g.numpy())


def test_batched_grad_through_every_arity_equals_one_grad_per_row():
    x, w, b = (leaf(s) for s in GRAPHS["arities"][1])
    one = og.tanh(x)
    outs = [og.linear(og.multiply(one, x), w, b), og.concat([x, one, og.ones([2, 3]), x], 0), og.linear(x, w)]
    seeds = [og.tensor(RNG.standard_normal((3, *o.shape))) for o in outs]
    batched = og.grad(outs, [x, w, b], seeds, retain_graph=True, allow_unused=True, is_grads_batched=True)
    for row in range(3):
        want = og.grad(outs, [x, w, b], [s[row] for s in seeds], retain_graph=True, allow_unused=True)
        for g, r in zip(batched, want, strict=True):
            np.testing.assert_allclose(g.numpy()[row], r.numpy(), rtol=1e-12, atol=1e-14)


def test_the_leaf_walk_of_distributed_data_parallel_sees_every_edge():
    x, w, b, unused = leaf((2, 3)), leaf((3, 4)), leaf((4,)), leaf((4,))
    k = leaf((2, 3), requires_grad=False)
    many = og.concat([og.tanh(x), k, og.linear(x, w), og.ones([2, 4]), og.multiply(k, x)], 1)
    out = {"a": [og.linear(x, w, b)], "b": (many,)}
    assert _reachable_leaves(out) == {id(x), id(w), id(b)}
    assert id(unused) not in _reachable_leaves(out)
