"""Layer constructors check their arguments: a float size is refused, not truncated, and
every error names the layer, the argument and what was expected."""

from __future__ import annotations

import numpy as np
import pytest

from opgrad.runtime import nn

BAD = [
    # (constructor, error, message); before, most were raw Python/NumPy errors with no
    # layer name, and some were accepted (Conv2d((2.5, 2)) built a 2x2 kernel).
    (lambda: nn.Linear(2.5, 3), TypeError, r"Linear: in_features must be an int >= 0, got 2\.5 \(float\)"),
    (lambda: nn.Linear(2, True), TypeError, r"Linear: out_features must be an int >= 0, got True \(bool\)"),
    (lambda: nn.Linear(-1, 3), ValueError, "Linear: in_features must be an int >= 0, got -1"),
    (lambda: nn.Linear(2, 3, bias="no"), TypeError, "Linear: bias must be a bool"),
    (lambda: nn.Embedding(10.0, 3), TypeError, "Embedding: num_embeddings must be an int >= 1"),
    (lambda: nn.Embedding(0, 3), ValueError, "Embedding: num_embeddings must be an int >= 1, got 0"),
    (lambda: nn.Embedding(10, 3, padding_idx=1.0), TypeError, "Embedding: padding_idx must be an int"),
    (lambda: nn.Embedding(10, 3, padding_idx=10), ValueError, "Embedding: padding_idx 10 is out of range"),
    (lambda: nn.Dropout("0.1"), TypeError, "Dropout: p must be a real number in \\[0, 1\\], got '0.1'"),
    (lambda: nn.Dropout(1.5), ValueError, r"Dropout: p must be a finite number in \[0, 1\], got 1\.5"),
    (lambda: nn.Flatten(0.5), TypeError, r"Flatten: start_axis must be an int, got 0\.5"),
    (lambda: nn.Softmax("1"), TypeError, "Softmax: axis must be an int"),
    (lambda: nn.GELU("tanh"), TypeError, "GELU: approximate must be a bool"),
    (lambda: nn.LeakyReLU("a"), TypeError, "LeakyReLU: negative_slope must be a real number"),
    (lambda: nn.Conv2d(3.0, 4, 3), TypeError, "Conv2d: in_channels must be an int >= 1"),
    (lambda: nn.Conv2d(3, 4, 2.5), TypeError, r"Conv2d: kernel_size must be an int or a tuple of 2"),
    (lambda: nn.Conv2d(3, 4, (2.5, 2)), TypeError, r"Conv2d: kernel_size\[0\] must be an int >= 1, got 2\.5"),
    (lambda: nn.Conv2d(3, 4, (3, 3, 3)), TypeError, "kernel_size must be an int or a tuple of 2"),
    (lambda: nn.Conv2d(3, 4, 3, stride=0), ValueError, r"Conv2d: stride must be an int >= 1, got 0"),
    (lambda: nn.Conv2d(3, 4, 3, padding=-1), ValueError, "Conv2d: padding must be an int >= 0, got -1"),
    (lambda: nn.Conv2d(3, 4, 3, dilation=(1, 0)), ValueError, r"Conv2d: dilation\[1\] must be an int >= 1"),
    (lambda: nn.Conv2d(3, 4, 3, groups=2), ValueError, "Conv2d: in_channels .* divisible by groups"),
    (lambda: nn.MaxPool2d(2.5), TypeError, "MaxPool2d: kernel_size must be an int or a tuple of 2 ints"),
    (lambda: nn.AvgPool2d(2, stride=(1, 1.5)), TypeError, r"AvgPool2d: stride\[1\] must be an int >= 1"),
    (lambda: nn.AdaptiveAvgPool2d(0), ValueError, "AdaptiveAvgPool2d: output_size must be an int >= 1"),
    (lambda: nn.LayerNorm(4.0), TypeError, "LayerNorm: normalized_shape must be an int or a tuple of ints"),
    (lambda: nn.LayerNorm((4, 2.5)), TypeError, r"LayerNorm: normalized_shape\[1\] must be an int >= 0"),
    (lambda: nn.LayerNorm(4, eps="1e-5"), TypeError, "LayerNorm: eps must be a real number >= 0"),
    (lambda: nn.BatchNorm2d(3.5), TypeError, "BatchNorm2d: num_features must be an int >= 1"),
    (lambda: nn.BatchNorm2d(3, momentum=2.0), ValueError, r"BatchNorm2d: momentum must be .* in \[0, 1\]"),
    (lambda: nn.BatchNorm2d(3, eps=-1.0), ValueError, "BatchNorm2d: eps must be a finite number >= 0"),
    (lambda: nn.BatchNorm2d(3, affine=1), TypeError, "BatchNorm2d: affine must be a bool"),
    (lambda: nn.GroupNorm(2.0, 4), TypeError, r"GroupNorm: num_groups must be an int >= 1, got 2\.0"),
    (lambda: nn.GroupNorm(3, 4), ValueError, r"GroupNorm: num_channels \(4\) .* by num_groups \(3\)"),
    (lambda: nn.MultiHeadAttention(8.0, 2), TypeError, "MultiHeadAttention: embed_dim must be an int >= 1"),
    (lambda: nn.MultiHeadAttention(8, 0), ValueError, "MultiHeadAttention: num_heads must be an int >= 1"),
    (lambda: nn.MultiHeadAttention(8, 2, dropout=1.0), ValueError, r"MultiHeadAttention: dropout .*\[0, 1\)"),
    (
        lambda: nn.MultiHeadAttention(6, 4),
        ValueError,
        r"MultiHeadAttention: embed_dim \(6\) must be divisible by num_heads \(4\)",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("make", "err", "msg"), BAD)
def test_bad_layer_arguments_are_named(make, err, msg):
    with pytest.raises(err, match=msg):
        make()


def test_numpy_ints_and_lists_are_accepted():
    conv = nn.Conv2d(np.int64(3), 4, [3, np.int32(2)], stride=(1, 2), padding=np.int8(1))
    assert conv.kernel_size == (3, 2) and conv.stride == (1, 2) and conv.padding == (1, 1)
    assert conv.weight.shape == (4, 3, 3, 2)
    assert nn.LayerNorm([2, 3]).normalized_shape == (2, 3)
    assert nn.LayerNorm(np.int64(5)).weight.shape == (5,)
    assert nn.Linear(np.int32(2), 0).weight.shape == (2, 0)
    assert nn.MaxPool2d(2).stride == (2, 2)
    assert nn.Embedding(4, 2, padding_idx=-1).weight.numpy()[-1].tolist() == [0.0, 0.0]
