"""Recurrent layers: RNN, LSTM and GRU (multi-layer, bidirectional, batch_first) and their cells.

Every step is made of generated ops (linear, add, sigmoid, tanh, multiply, split, concat, and
lstm_cell, an LSTM step's elementwise part fused into one op), so the layers differentiate to
any order like the rest of opgrad. Parameters follow PyTorch's and
Paddle's names and layouts, so weights copy across unchanged: `weight_ih_l{k}` of shape
(gates * hidden_size, input_size), `weight_hh_l{k}` (gates * hidden_size, hidden_size),
`bias_ih_l{k}`, `bias_hh_l{k}`, a `_reverse` suffix for the backward direction, and LSTM's
`weight_hr_l{k}` (proj_size, hidden_size) when `proj_size > 0`. Gate order is PyTorch's:
LSTM (input, forget, cell, output), GRU (reset, update, new).

The input-to-hidden product of a whole sequence is one matrix product per layer and direction,
done before the time loop; inside the loop each step costs one product with `weight_hh` and a
handful of elementwise ops. Inputs are (length, batch, features), (batch, length, features)
with `batch_first=True`, or (length, features) unbatched. Packed sequences are not supported:
pad the batch and pick each sequence's last valid output yourself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from opgrad.generated import ops
from opgrad.runtime import argcheck as checks
from opgrad.runtime.creation import zeros
from opgrad.runtime.nn import init
from opgrad.runtime.nn.layers import empty_parameter
from opgrad.runtime.nn.module import Module
from opgrad.runtime.nn.parameter import Parameter
from opgrad.runtime.tensor import Tensor

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}

# One step of each kind. `xw` is the input's share of the gates, x @ weight_ih.T + bias_ih,
# computed ahead for the whole sequence; `h` (and `c`) the state; the rest the step's weights.
# Shapes: xw (..., gates * hidden), h (..., hidden or proj), the same leading axes.


def _rnn_tanh_step(xw: Tensor, state: tuple[Tensor, ...], w: tuple[Any, ...]) -> tuple[Tensor, ...]:
    return (ops.tanh(ops.add(xw, ops.linear(state[0], w[0], w[1]))),)


def _rnn_relu_step(xw: Tensor, state: tuple[Tensor, ...], w: tuple[Any, ...]) -> tuple[Tensor, ...]:
    return (ops.relu(ops.add(xw, ops.linear(state[0], w[0], w[1]))),)


def _lstm_step(xw: Tensor, state: tuple[Tensor, ...], w: tuple[Any, ...]) -> tuple[Tensor, ...]:
    h, c = state
    h, c = ops.lstm_cell(ops.add(xw, ops.linear(h, w[0], w[1])), c)
    if w[2] is not None:  # projection: h is (..., proj_size)
        h = ops.matmul(h, w[2])
    return h, c


def _gru_step(xw: Tensor, state: tuple[Tensor, ...], w: tuple[Any, ...]) -> tuple[Tensor, ...]:
    h = state[0]
    xr, xz, xn = ops.split(xw, 3, axis=-1)
    hr, hz, hn = ops.split(ops.linear(h, w[0], w[1]), 3, axis=-1)
    r = ops.sigmoid(ops.add(xr, hr))
    z = ops.sigmoid(ops.add(xz, hz))
    n = ops.tanh(ops.add(xn, ops.multiply(r, hn)))
    return (ops.add(n, ops.multiply(z, ops.subtract(h, n))),)  # (1 - z) * n + z * h


_STEPS: dict[str, Callable[..., tuple[Tensor, ...]]] = {
    "RNN_TANH": _rnn_tanh_step,
    "RNN_RELU": _rnn_relu_step,
    "LSTM": _lstm_step,
    "GRU": _gru_step,
}


def _reset_uniform(module: Module, hidden_size: int) -> None:
    """Every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), as PyTorch."""
    bound = 1.0 / math.sqrt(hidden_size) if hidden_size else 0.0
    for p in module.parameters():
        init.uniform_(p, -bound, bound)


def _check_input(owner: str, x: Any, input_size: int, ndims: tuple[int, int]) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{owner}: input must be a Tensor, got {type(x).__name__}")
    if x.ndim not in ndims:
        raise ValueError(
            f"{owner}: input must have {ndims[0]} (unbatched) or {ndims[1]} dimensions, "
            f"got shape {tuple(x.shape)}"
        )
    if x.shape[-1] != input_size:
        raise ValueError(
            f"{owner}: input must have input_size={input_size} features in its last dimension, "
            f"got shape {tuple(x.shape)}"
        )
    return x


def _check_state(owner: str, name: str, h: Any, shape: tuple[int, ...], like: Tensor) -> Tensor:
    if not isinstance(h, Tensor):
        raise TypeError(f"{owner}: {name} must be a Tensor, got {type(h).__name__}")
    if tuple(h.shape) != shape:
        raise ValueError(f"{owner}: {name} must have shape {shape}, got {tuple(h.shape)}")
    if h.dtype != like.dtype:
        raise TypeError(f"{owner}: {name} must have the input's dtype {like.dtype}, got {h.dtype}")
    return h


class RNNBase(Module):
    """The shared machinery of RNN, LSTM and GRU (see the module doc)."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        name = type(self).__name__
        self.mode = mode
        self.input_size = checks.integer(name, "input_size", input_size, 1)
        self.hidden_size = checks.integer(name, "hidden_size", hidden_size, 1)
        self.num_layers = checks.integer(name, "num_layers", num_layers, 1)
        self.bias = checks.flag(name, "bias", bias)
        self.batch_first = checks.flag(name, "batch_first", batch_first)
        self.dropout = float(checks.real(name, "dropout", dropout, 0.0, 1.0))
        self.bidirectional = checks.flag(name, "bidirectional", bidirectional)
        self.proj_size = checks.integer(name, "proj_size", proj_size, 0)
        if self.proj_size and mode != "LSTM":
            raise ValueError(f"{name}: proj_size is only supported by LSTM, got proj_size={proj_size}")
        if self.proj_size >= self.hidden_size:
            raise ValueError(
                f"{name}: proj_size must be smaller than hidden_size={hidden_size}, got {proj_size}"
            )
        gates = _GATES[mode] * self.hidden_size
        out_size = self.proj_size or self.hidden_size
        directions = 2 if self.bidirectional else 1
        for layer in range(self.num_layers):
            layer_in = self.input_size if layer == 0 else out_size * directions
            for suffix in ("", "_reverse")[:directions]:
                self.register_parameter(
                    f"weight_ih_l{layer}{suffix}", empty_parameter((gates, layer_in), dtype)
                )
                self.register_parameter(
                    f"weight_hh_l{layer}{suffix}", empty_parameter((gates, out_size), dtype)
                )
                if self.bias:
                    self.register_parameter(f"bias_ih_l{layer}{suffix}", empty_parameter((gates,), dtype))
                    self.register_parameter(f"bias_hh_l{layer}{suffix}", empty_parameter((gates,), dtype))
                if self.proj_size:
                    self.register_parameter(
                        f"weight_hr_l{layer}{suffix}",
                        empty_parameter((self.proj_size, self.hidden_size), dtype),
                    )
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_uniform(self, self.hidden_size)

    def _weights(self, layer: int, suffix: str) -> tuple[Parameter | None, ...]:
        def get(kind: str) -> Parameter | None:
            return getattr(self, f"{kind}_l{layer}{suffix}", None)

        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh"), get("weight_hr")

    def _initial_state(self, hx: Any, x: Tensor, batch: tuple[int, ...]) -> list[tuple[Tensor, ...]]:
        """hx as one state tuple per (layer, direction), each entry shaped (1, batch..., size)."""
        name = type(self).__name__
        directions = 2 if self.bidirectional else 1
        n = self.num_layers * directions
        out_size = self.proj_size or self.hidden_size
        sizes = (out_size, self.hidden_size) if self.mode == "LSTM" else (out_size,)
        if hx is None:
            initial = [zeros((1, *batch, s), dtype=x.dtype) for s in sizes]
            return [tuple(initial) for _ in range(n)]
        if self.mode == "LSTM":
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise TypeError(f"{name}: hx must be a tuple (h_0, c_0), got {type(hx).__name__}")
            states = [
                _check_state(name, label, h, (n, *batch, s), x)
                for label, h, s in zip(("h_0", "c_0"), hx, sizes, strict=True)
            ]
        else:
            states = [_check_state(name, "hx", hx, (n, *batch, sizes[0]), x)]
        pieces = [ops.split(s, n, axis=0) for s in states]
        return [tuple(p[k] for p in pieces) for k in range(n)]

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Any]:
        name = type(self).__name__
        x = _check_input(name, input, self.input_size, (2, 3))
        batched = x.ndim == 3
        if not batched:  # (length, features) -> (length, 1, features)
            x = ops.unsqueeze(x, 1)
            if hx is not None:
                hx = tuple(ops.unsqueeze(h, 1) for h in hx) if self.mode == "LSTM" else ops.unsqueeze(hx, 1)
        elif self.batch_first:
            x = ops.transpose(x, [1, 0, 2])
        if x.shape[0] == 0:
            raise ValueError(
                f"{name}: the input sequence must have length > 0, got shape {tuple(input.shape)}"
            )
        states = self._initial_state(hx, x, (x.shape[1],))
        step = _STEPS[self.mode]
        fold = self.mode != "GRU"  # GRU's b_hn is inside r * (h W_hn + b_hn): it cannot move
        directions = 2 if self.bidirectional else 1
        finals: list[tuple[Tensor, ...]] = []
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(("", "_reverse")[:directions]):
                seq, last = _run_direction(
                    step, x, states[layer * directions + d], self._weights(layer, suffix), d, fold
                )
                outputs.append(seq)
                finals.append(last)
            x = outputs[0] if directions == 1 else ops.concat(outputs, axis=-1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = ops.dropout(x, self.dropout, True)
        h_n: Any = tuple(ops.concat([f[k] for f in finals], axis=0) for k in range(len(finals[0])))
        if not batched:
            x = ops.squeeze(x, 1)
            h_n = tuple(ops.squeeze(h, 1) for h in h_n)
        elif self.batch_first:
            x = ops.transpose(x, [1, 0, 2])
        return x, (h_n if self.mode == "LSTM" else h_n[0])

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        for key, default in (
            ("bias", True),
            ("batch_first", False),
            ("dropout", 0.0),
            ("bidirectional", False),
        ):
            if getattr(self, key) != default:
                text += f", {key}={getattr(self, key)}"
        if self.proj_size:
            text += f", proj_size={self.proj_size}"
        return text


def _run_direction(
    step: Callable[..., tuple[Tensor, ...]],
    x: Tensor,
    state: tuple[Tensor, ...],
    weights: Sequence[Parameter | None],
    reverse: int,
    fold_bias: bool,
) -> tuple[Tensor, tuple[Tensor, ...]]:
    """One layer in one direction over x (length, batch, features): (outputs, final state)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    assert w_ih is not None and w_hh is not None  # registered for every layer and direction
    b_in: Tensor | None = b_ih
    b_step: Tensor | None = b_hh
    if fold_bias and b_ih is not None and b_hh is not None:
        # b_hh is added outside the step's nonlinearity: fold it into the input projection once
        # rather than adding it (and summing its gradient) at every step
        b_in, b_step = ops.add(b_ih, b_hh), None
    xw = ops.linear(x, ops.matrix_transpose(w_ih), b_in)  # the whole sequence at once
    w = (ops.matrix_transpose(w_hh), b_step, None if w_hr is None else ops.matrix_transpose(w_hr))
    length = x.shape[0]
    steps = ops.split(xw, length, axis=0)  # each (1, batch, gates)
    outs: list[Tensor] = [state[0]] * length
    for t in range(length - 1, -1, -1) if reverse else range(length):
        state = step(steps[t], state, w)
        outs[t] = state[0]
    return ops.concat(outs, axis=0), state


class RNN(RNNBase):
    """Elman RNN: h_t = nonlinearity(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh).

    Returns (output, h_n): output (length, batch, D * hidden_size) holds the last layer's h_t
    for every t (both directions concatenated when bidirectional, D = 2); h_n
    (num_layers * D, batch, hidden_size) the final state of every layer and direction."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        nonlinearity: str = "tanh",
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        dtype: Any = None,
    ) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNN: nonlinearity must be 'tanh' or 'relu', got {nonlinearity!r}")
        super().__init__(
            "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU",
            input_size,
            hidden_size,
            num_layers,
            bias,
            batch_first,
            dropout,
            bidirectional,
            dtype=dtype,
        )
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory (Hochreiter & Schmidhuber), gates (i, f, g, o) as PyTorch.

    Returns (output, (h_n, c_n)); hx is an optional (h_0, c_0). With proj_size > 0 each h_t is
    projected by weight_hr to proj_size features (Sak et al.), as PyTorch's LSTM does."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        dtype: Any = None,
    ) -> None:
        super().__init__(
            "LSTM",
            input_size,
            hidden_size,
            num_layers,
            bias,
            batch_first,
            dropout,
            bidirectional,
            proj_size,
            dtype,
        )


class GRU(RNNBase):
    """Gated recurrent unit (Cho et al.), gates (r, z, n) as PyTorch:
    n = tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn)), h' = (1 - z) * n + z * h."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        dtype: Any = None,
    ) -> None:
        super().__init__(
            "GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, dtype=dtype
        )


class _CellBase(Module):
    """One step of a recurrent layer on (batch, input_size) or unbatched (input_size,)."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, bias: bool, dtype: Any) -> None:
        super().__init__()
        name = type(self).__name__
        self.mode = mode
        self.input_size = checks.integer(name, "input_size", input_size, 1)
        self.hidden_size = checks.integer(name, "hidden_size", hidden_size, 1)
        checks.flag(name, "bias", bias)
        gates = _GATES[mode] * self.hidden_size
        self.weight_ih = empty_parameter((gates, self.input_size), dtype)
        self.weight_hh = empty_parameter((gates, self.hidden_size), dtype)
        if bias:
            self.bias_ih = empty_parameter((gates,), dtype)
            self.bias_hh = empty_parameter((gates,), dtype)
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_uniform(self, self.hidden_size)

    def _step(self, input: Tensor, hx: tuple[Tensor, ...] | None) -> tuple[Tensor, ...]:
        name = type(self).__name__
        x = _check_input(name, input, self.input_size, (1, 2))
        batch = tuple(x.shape[:-1])
        count = 2 if self.mode == "LSTM" else 1
        if hx is None:
            state = tuple(zeros((*batch, self.hidden_size), dtype=x.dtype) for _ in range(count))
        else:
            labels = ("h_0", "c_0") if count == 2 else ("hx",)
            state = tuple(
                _check_state(name, label, h, (*batch, self.hidden_size), x)
                for label, h in zip(labels, hx, strict=True)
            )
        xw = ops.linear(x, ops.matrix_transpose(self.weight_ih), self.bias_ih)
        w = (ops.matrix_transpose(self.weight_hh), self.bias_hh, None)
        return _STEPS[self.mode](xw, state, w)

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}, bias={self.bias_ih is not None}"


class RNNCell(_CellBase):
    """One Elman step: h' = nonlinearity(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        dtype: Any = None,
    ) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNNCell: nonlinearity must be 'tanh' or 'relu', got {nonlinearity!r}")
        super().__init__(
            "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, bias, dtype
        )
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        return self._step(input, None if hx is None else (hx,))[0]


class LSTMCell(_CellBase):
    """One LSTM step: (h', c') from x and an optional (h, c)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, dtype: Any = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, bias, dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
        if hx is not None and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise TypeError(f"LSTMCell: hx must be a tuple (h_0, c_0), got {type(hx).__name__}")
        h, c = self._step(input, None if hx is None else tuple(hx))
        return h, c


class GRUCell(_CellBase):
    """One GRU step: h' from x and an optional h."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, dtype: Any = None) -> None:
        super().__init__("GRU", input_size, hidden_size, bias, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        return self._step(input, None if hx is None else (hx,))[0]
