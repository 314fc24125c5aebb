"""`Tensor.__getitem__`: ints, slices, None, Ellipsis, and integer or boolean array indices.

Basic indexing (no arrays) returns a view sharing the base's memory and version counter,
as NumPy does. The gradient scatters into zeros of the input's shape (adding where an
advanced index repeats an element); with `create_graph` the scatter is itself recorded, its
own backward being the same indexing again, so any order works.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from opgrad.generated import ops
from opgrad.runtime.device import array_module
from opgrad.runtime.dual import FORWARD, note_view, rule_scope, set_tangent, tangent_of, write_tangent
from opgrad.runtime.grad_mode import grad_enabled
from opgrad.runtime.grad_node import GradNode, TensorMeta, set_history
from opgrad.runtime.inplace import check_inplace, write_inplace
from opgrad.runtime.kernels.common import add_at, unbroadcast
from opgrad.runtime.tensor import Tensor, as_tensor_arg, wrap
from opgrad.runtime.version import share_version


def _normalize(index: Any, shape: tuple[int, ...]) -> tuple[Any, bool]:
    """The index with tensors/lists turned into arrays; and whether it is basic (a view)."""
    items = index if isinstance(index, tuple) else (index,)
    out: list[Any] = []
    basic = True
    for item in items:
        if isinstance(item, Tensor):
            item = item._data
        elif isinstance(item, list):
            item = np.asarray(item)
        if isinstance(item, (bool, np.bool_)):
            basic = False
        elif item is None or item is Ellipsis or isinstance(item, (slice, int, np.integer)):
            pass
        elif hasattr(item, "dtype") and hasattr(item, "shape"):
            if item.dtype.kind not in "iub":
                raise IndexError(
                    f"getitem: index arrays must be integer or bool, got dtype {item.dtype}; "
                    "convert with .astype('int64')"
                )
            if item.ndim == 0 and item.dtype.kind in "iu":
                item = int(item)
            else:
                basic = False
                item = item.copy()  # the node keeps the index: the caller may change theirs
        else:
            raise IndexError(
                f"getitem: unsupported index {type(item).__name__}; use ints, slices, None, Ellipsis "
                "or integer/bool arrays"
            )
        out.append(item)
    return tuple(out), basic


class GetItemGradNode(GradNode):
    __slots__ = ("index", "basic")
    index: tuple[Any, ...]  # the normalized index (see _normalize)
    basic: bool  # only ints, slices, None and Ellipsis
    name = "getitem_grad"
    _plain = True  # run inline by the engine (GradNode._plain)

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        g = grads[0]
        x_meta = self.input_meta[0]
        assert x_meta is not None  # the node exists because x requires grad
        if create_graph:
            return (_scatter(g, x_meta, self.index, self.basic),)
        return (wrap(_scatter_array(g._data, x_meta, self.index, self.basic)),)


class ScatterGradNode(GradNode):
    """Backward of the recorded scatter: index the incoming gradient again."""

    __slots__ = ("index", "basic")
    index: tuple[Any, ...]
    basic: bool
    name = "getitem_double_grad"
    _plain = True  # run inline by the engine (GradNode._plain)

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        return (_index(grads[0], self.index, self.basic),)


def _scatter_array(g: Any, meta: TensorMeta, index: tuple[Any, ...], basic: bool) -> Any:
    xp = array_module(g)
    z = xp.zeros(meta.shape, dtype=meta.dtype)
    if basic:
        z[index] = g
    else:
        add_at(z, index, g)
    return z


def _scatter(g: Tensor, meta: TensorMeta, index: tuple[Any, ...], basic: bool) -> Tensor:
    out = wrap(_scatter_array(g._data, meta, index, basic))
    if g._requires_grad and grad_enabled():
        node = ScatterGradNode((g,))
        node.index = index
        node.basic = basic
        set_history(out, node, 0)
    if FORWARD.active:
        tangent = tangent_of(g)
        if tangent is not None:
            with rule_scope():
                set_tangent(out, _scatter(tangent, meta, index, basic))
    return out


def _take(data: Any, index: tuple[Any, ...]) -> Any:
    """data[index] as an array (NumPy gives a scalar when every axis gets an int)."""
    out = data[index]
    return array_module(data).asarray(out) if isinstance(out, np.generic) else out


def _index(x: Tensor, index: tuple[Any, ...], basic: bool) -> Tensor:
    out = wrap(_take(x._data, index))
    if basic:
        share_version(out, x)  # a view: in-place writes through either side are seen by both
        if FORWARD.level:
            note_view(out, x)
    if x._requires_grad and grad_enabled():
        node = GetItemGradNode((x,))
        node.index = index
        node.basic = basic
        set_history(out, node, 0)
    if FORWARD.active:
        tangent = tangent_of(x)
        if tangent is not None:
            with rule_scope():  # basic indexing: a view of x's tangent, as out is of x
                set_tangent(out, _index(tangent, index, basic))
    return out


class SetItemGradNode(GradNode):
    """Backward of `x[index] = value`: x's old value gets the gradient except where it was
    overwritten; value gets the gradient of the positions it filled, summed to its shape."""

    __slots__ = ("index", "basic")
    index: tuple[Any, ...]
    basic: bool
    name = "setitem_grad"
    _plain = True  # run inline by the engine (GradNode._plain)

    def apply(self, grads: list[Any], create_graph: bool) -> Sequence[Any]:
        g = grads[0]
        index, basic = self.index, self.basic
        meta = self.input_meta[1]  # None when the value needs no gradient
        picked = _index(g, index, basic) if create_graph else wrap(_take(g._data, index))
        if create_graph:
            keep = wrap(array_module(g._data).ones(g.shape, dtype=g.dtype))
            keep._data[index] = 0
            x_grad = ops.multiply(g, keep)
            value_grad = None
            if meta is not None:
                # sum's empty axis list means every axis: skip it when nothing was broadcast
                axes = _broadcast_axes(picked.shape, meta.shape)
                summed = ops.sum(picked, axes, True) if axes else picked
                value_grad = ops.reshape(summed, list(meta.shape))
                if value_grad.dtype != meta.dtype:  # x's dtype, where the value was cast to it
                    value_grad = ops.cast(value_grad, meta.dtype)
        else:
            data = g._data.copy()
            data[index] = 0
            x_grad = wrap(data)
            value_grad = None if meta is None else wrap(unbroadcast(picked._data, meta.shape, meta.dtype))
        return (x_grad, value_grad)


def _broadcast_axes(shape: tuple[int, ...], target: tuple[int, ...]) -> list[int]:
    lead = len(shape) - len(target)
    return list(range(lead)) + [lead + i for i, d in enumerate(target) if d == 1 and shape[lead + i] != 1]


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """`x[index] = value`, in place (differentiable for x's old value and for value)."""
    value = as_tensor_arg(value, x, "setitem", "value")
    norm, basic = _normalize(index, x.shape)
    record = check_inplace("setitem", x, value)
    result = x._data.copy()
    try:
        result[norm] = value._data
    except (IndexError, ValueError) as exc:
        raise type(exc)(
            f"setitem: cannot assign a value of shape {value.shape} to index {index!r} of a tensor of "
            f"shape {x.shape}: {exc}"
        ) from None
    tangent = _setitem_tangent(x, norm, value) if FORWARD.active else None
    node = None
    if record:
        node = SetItemGradNode((x, value))
        node.index = norm
        node.basic = basic
    write_inplace("setitem", x, result)
    if node is not None:
        set_history(x, node, 0)
    if tangent is not None:
        write_tangent(x, tangent)


def _setitem_tangent(x: Tensor, index: tuple[Any, ...], value: Tensor) -> Tensor | None:
    """Forward mode: x's tangent after `x[index] = value` (value's tangent at index), held by a
    stand-in tensor for `write_tangent`; None when neither has a tangent."""
    tx, tv = tangent_of(x), tangent_of(value)
    if tx is None and tv is None:
        return None
    data = array_module(x._data).zeros(x.shape, dtype=x.dtype) if tx is None else tx._data.copy()
    data[index] = 0 if tv is None else tv._data
    holder = wrap(x._data)
    set_tangent(holder, wrap(data))
    return holder


def getitem(x: Tensor, index: Any) -> Tensor:
    norm, basic = _normalize(index, x.shape)
    try:
        return _index(x, norm, basic)
    except IndexError as exc:
        raise IndexError(
            f"getitem: index {index!r} does not fit a tensor of shape {x.shape}: {exc}"
        ) from None
