"""MultiHeadAttention: batch-first multi-head attention with q/k/v/out projections.

Shapes: query (B, Lq, E), key/value (B, Lk, E); heads split E into num_heads * head_dim.
`attn_mask` is either boolean (True = may attend) or additive (float, added to the
scores), broadcastable to (B, num_heads, Lq, Lk); `is_causal=True` lets position i attend
to positions <= i only.
"""

from __future__ import annotations

from opgrad.generated import ops
from opgrad.runtime import argcheck as checks
from opgrad.runtime.nn.layers import Linear
from opgrad.runtime.nn.module import Module
from opgrad.runtime.tensor import Tensor


def scaled_dot_product_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> Tensor:
    """softmax(q @ k^T / sqrt(d) + mask) @ v over (..., L, d) inputs (the generated op)."""
    return ops.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)


class MultiHeadAttention(Module):
    """Multi-head attention (Vaswani et al.) over batch-first (B, L, E) sequences."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True) -> None:
        super().__init__()
        embed_dim = checks.integer("MultiHeadAttention", "embed_dim", embed_dim, 1)
        num_heads = checks.integer("MultiHeadAttention", "num_heads", num_heads, 1)
        dropout = checks.real("MultiHeadAttention", "dropout", dropout, 0.0, 1.0, high_open=True)
        if embed_dim % num_heads:
            raise ValueError(
                f"MultiHeadAttention: embed_dim ({embed_dim}) must be divisible by num_heads ({num_heads})"
            )
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.dropout = float(dropout)
        self.q_proj = Linear(embed_dim, embed_dim, bias)
        self.k_proj = Linear(embed_dim, embed_dim, bias)
        self.v_proj = Linear(embed_dim, embed_dim, bias)
        self.out_proj = Linear(embed_dim, embed_dim, bias)

    def _heads(self, x: Tensor) -> Tensor:
        b, length, _ = x.shape
        return ops.transpose(ops.reshape(x, [b, length, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def forward(
        self,
        query: Tensor,
        key: Tensor | None = None,
        value: Tensor | None = None,
        attn_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        """Attention of query over key/value (both default to query: self-attention)."""
        if query.ndim != 3 or query.shape[-1] != self.embed_dim:
            raise ValueError(
                "MultiHeadAttention: query must have shape (batch, length, "
                f"{self.embed_dim}), got {query.shape}"
            )
        key = query if key is None else key
        value = key if value is None else value
        q = self._heads(self.q_proj(query))
        k = self._heads(self.k_proj(key))
        v = self._heads(self.v_proj(value))
        p = self.dropout if self.training else 0.0
        out = scaled_dot_product_attention(q, k, v, attn_mask, p, is_causal)
        b, _, lq, _ = out.shape
        out = ops.reshape(ops.transpose(out, [0, 2, 1, 3]), [b, lq, self.embed_dim])
        return self.out_proj(out)

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout={self.dropout}"
