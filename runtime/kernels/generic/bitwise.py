"""Integer-style elementwise kernels with NumPy broadcasting: the bitwise ops (`&`, `|`, `^`,
`~`; logical on bool tensors) and Python's floor division and remainder (`//`, `%`: the
remainder takes the divisor's sign, as Python, NumPy and PyTorch do).

The bitwise ops and floor_divide have no gradient (zero almost everywhere); remainder's is a
composite in backward.yaml. Operand dtypes arrive promoted (runtime/promotion.py).
"""

from __future__ import annotations

from opgrad.runtime.kernels.common import array_module, broadcast_shapes, nd
from opgrad.runtime.kernels.registry import register_kernel


def _binary(op, ufunc, x, y):
    broadcast_shapes(op, x.shape, y.shape)  # raises naming the op and both shapes
    return nd(getattr(array_module(x, y), ufunc)(x, y))


@register_kernel("bitwise_and")
def bitwise_and(x, y):
    return _binary("bitwise_and", "bitwise_and", x, y)


@register_kernel("bitwise_or")
def bitwise_or(x, y):
    return _binary("bitwise_or", "bitwise_or", x, y)


@register_kernel("bitwise_xor")
def bitwise_xor(x, y):
    return _binary("bitwise_xor", "bitwise_xor", x, y)


@register_kernel("bitwise_not")
def bitwise_not(x):
    return nd(array_module(x).invert(x))


@register_kernel("floor_divide")
def floor_divide(x, y):
    return _binary("floor_divide", "floor_divide", x, y)


@register_kernel("remainder")
def remainder(x, y):
    return _binary("remainder", "remainder", x, y)
