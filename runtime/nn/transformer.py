"""TransformerEncoderLayer and TransformerEncoder (Vaswani et al.), batch-first.

A layer is self-attention then a position-wise feed-forward block, each with dropout, a
residual connection and LayerNorm: after each block (post-norm, the default) or before it
(`norm_first=True`, pre-norm). Input is (batch, length, d_model), as in Paddle; PyTorch's
default is (length, batch, d_model), which `batch_first=False` accepts.

Masks: `src_mask` is MultiHeadAttention's `attn_mask` (boolean True = may attend, or an
additive float mask; note PyTorch's boolean masks mean the opposite, True = masked), and
`src_key_padding_mask` (batch, length) marks padding positions with True, as in PyTorch.
"""

from __future__ import annotations

import copy
from typing import Any

from opgrad.generated import ops
from opgrad.runtime import argcheck as checks
from opgrad.runtime.nn.attention import MultiHeadAttention
from opgrad.runtime.nn.container import ModuleList
from opgrad.runtime.nn.layers import Dropout, Linear
from opgrad.runtime.nn.module import Module
from opgrad.runtime.nn.normalization import LayerNorm
from opgrad.runtime.tensor import Tensor

_ACTIVATIONS = {"relu": ops.relu, "gelu": ops.gelu}


class TransformerEncoderLayer(Module):
    """One encoder layer: self-attention and feed-forward blocks (see the module doc)."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Any = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = True,
        norm_first: bool = False,
        bias: bool = True,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        name = "TransformerEncoderLayer"
        d_model = checks.integer(name, "d_model", d_model, 1)
        dim_feedforward = checks.integer(name, "dim_feedforward", dim_feedforward, 1)
        dropout = float(checks.real(name, "dropout", dropout, 0.0, 1.0, high_open=True))
        if isinstance(activation, str):
            if activation not in _ACTIVATIONS:
                raise ValueError(
                    f"{name}: activation must be 'relu', 'gelu' or a callable, got {activation!r}"
                )
            activation = _ACTIVATIONS[activation]
        elif not callable(activation):
            raise TypeError(
                f"{name}: activation must be 'relu', 'gelu' or a callable, got {type(activation).__name__}"
            )
        self.activation = activation
        self.batch_first = checks.flag(name, "batch_first", batch_first)
        self.norm_first = checks.flag(name, "norm_first", norm_first)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout, bias)
        self.linear1 = Linear(d_model, dim_feedforward, bias, dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias, dtype)
        self.norm1 = LayerNorm(d_model, layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm(d_model, layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if dtype is not None:
            self.self_attn.to(dtype=dtype)

    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        x = src if self.batch_first else ops.transpose(src, [1, 0, 2])
        mask = attention_mask(src_mask, src_key_padding_mask)
        if self.norm_first:
            x = x + self._attend(self.norm1(x), mask, is_causal)
            x = x + self._feed_forward(self.norm2(x))
        else:
            x = self.norm1(x + self._attend(x, mask, is_causal))
            x = self.norm2(x + self._feed_forward(x))
        return x if self.batch_first else ops.transpose(x, [1, 0, 2])

    def _attend(self, x: Tensor, mask: Tensor | None, is_causal: bool) -> Tensor:
        return self.dropout1(self.self_attn(x, attn_mask=mask, is_causal=is_causal))

    def _feed_forward(self, x: Tensor) -> Tensor:
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def attention_mask(src_mask: Tensor | None, key_padding: Tensor | None) -> Tensor | None:
    """One attention mask from a (length, length) mask and a (batch, length) padding mask
    (True = padding): boolean True = may attend, or additive when src_mask is a float."""
    if key_padding is None:
        return src_mask
    if key_padding.dtype.kind != "b" or key_padding.ndim != 2:
        raise ValueError(
            "TransformerEncoderLayer: src_key_padding_mask must be a boolean (batch, length) tensor, "
            f"got dtype {key_padding.dtype} and shape {key_padding.shape}"
        )
    b, length = key_padding.shape
    keep = ops.reshape(ops.logical_not(key_padding), [b, 1, 1, length])
    if src_mask is None:
        return keep
    if src_mask.dtype.kind == "b":
        return ops.logical_and(src_mask, keep)
    return ops.where(keep, src_mask, float("-inf"))


class TransformerEncoder(Module):
    """`num_layers` copies of `encoder_layer` applied in turn (each with its own weights),
    then `norm` if given."""

    def __init__(
        self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: Module | None = None
    ) -> None:
        super().__init__()
        if not isinstance(encoder_layer, Module):
            raise TypeError(
                f"TransformerEncoder: encoder_layer must be a Module, got {type(encoder_layer).__name__}"
            )
        num_layers = checks.integer("TransformerEncoder", "num_layers", num_layers, 1)
        self.layers = ModuleList(copy.deepcopy(encoder_layer) for _ in range(num_layers))
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        x = src
        for layer in self.layers:
            x = layer(x, mask, src_key_padding_mask, is_causal)
        return x if self.norm is None else self.norm(x)
