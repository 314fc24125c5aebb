"""Tiny ops written by hand in the shape the generator produces, so the engine can be
tested on its own. Each node counts its calls in CALLS."""

from __future__ import annotations

from collections import Counter

import numpy as np

from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import GradNode, set_history
from opgrad.runtime.tensor import Tensor, wrap
from opgrad.runtime.tensor_wrapper import TensorWrapper, unpack

CALLS: Counter[str] = Counter()


class MulNode(GradNode):
    __slots__ = ("a", "b")
    name = "mul_grad"

    def apply(self, grads, create_graph):
        CALLS[self.name] += 1
        (g,) = grads
        a = unpack(self.a, self)
        b = unpack(self.b, self)
        if create_graph:
            return (mul(g, b), mul(g, a))
        return (wrap(g._data * b._data), wrap(g._data * a._data))

    def release_saved(self):
        self.a = None
        self.b = None
        self._released = True


def mul(a: Tensor, b: Tensor) -> Tensor:
    out = wrap(a._data * b._data)
    if (a._requires_grad or b._requires_grad) and grad_enabled():
        node = MulNode((a, b))
        node.a = TensorWrapper.of_input(a)
        node.b = TensorWrapper.of_input(b)
        set_history(out, node, 0)
    return out


class AddNode(GradNode):
    __slots__ = ()
    name = "add_grad"

    def apply(self, grads, create_graph):
        CALLS[self.name] += 1
        (g,) = grads
        return (g, g)


def add(a: Tensor, b: Tensor) -> Tensor:
    out = wrap(a._data + b._data)
    if (a._requires_grad or b._requires_grad) and grad_enabled():
        set_history(out, AddNode((a, b)), 0)
    return out


class TanhNode(GradNode):
    __slots__ = ("out",)
    name = "tanh_grad"

    def apply(self, grads, create_graph):
        CALLS[self.name] += 1
        (g,) = grads
        out = unpack(self.out, self)
        if create_graph:
            one = wrap(np.ones((), dtype=out.dtype))
            return (mul(g, add(one, mul(wrap(np.asarray(-1.0, dtype=out.dtype)), mul(out, out)))),)
        return (wrap(g._data * (1 - out._data * out._data)),)

    def release_saved(self):
        self.out = None
        self._released = True


def tanh(x: Tensor) -> Tensor:
    out = wrap(np.tanh(x._data))
    if x._requires_grad and grad_enabled():
        node = TanhNode((x,))
        set_history(out, node, 0)
        node.out = TensorWrapper.of_output(out, node)
    return out


class SumNode(GradNode):
    __slots__ = ("x",)
    name = "sum_grad"

    def apply(self, grads, create_graph):
        CALLS[self.name] += 1
        (g,) = grads
        meta = unpack(self.x, self)
        return (wrap(np.broadcast_to(g._data, meta.shape).copy()),)

    def release_saved(self):
        self.x = None
        self._released = True


def total(x: Tensor) -> Tensor:
    out = wrap(np.asarray(x._data.sum()))
    if x._requires_grad and grad_enabled():
        node = SumNode((x,))
        node.x = TensorWrapper.meta_of(x)
        set_history(out, node, 0)
    return out


class SplitNode(GradNode):
    """Two outputs: the first and second half along axis 0."""

    __slots__ = ("half",)
    name = "split_grad"

    def apply(self, grads, create_graph):
        CALLS[self.name] += 1
        return (wrap(np.concatenate([grads[0]._data, grads[1]._data])),)


def split2(x: Tensor) -> tuple[Tensor, Tensor]:
    h = x.shape[0] // 2
    a, b = wrap(x._data[:h].copy()), wrap(x._data[h:].copy())
    if x._requires_grad and grad_enabled():
        node = SplitNode((x,))
        set_history(a, node, 0)
        set_history(b, node, 1)
    return a, b


class BadNode(GradNode):
    """Returns a gradient of the wrong shape."""

    __slots__ = ()
    name = "bad_grad"

    def apply(self, grads, create_graph):
        return (wrap(np.zeros((7,))),)


def bad(x: Tensor) -> Tensor:
    out = wrap(x._data.copy())
    set_history(out, BadNode((x,)), 0)
    return out
