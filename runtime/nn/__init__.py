"""opgrad.nn: modules (layers with parameters), initialisers and functional forms.

    import opgrad as og
    from opgrad import nn

    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    loss = nn.functional.cross_entropy(model(x), y)

Submodules: `nn.init` (in-place initialisers drawing from og.manual_seed's generator),
`nn.functional` (the ops as functions), `nn.utils` (clip_grad_norm_, clip_grad_value_).
"""

from opgrad.runtime.nn import functional, init, parallel, utils
from opgrad.runtime.nn.attention import MultiHeadAttention
from opgrad.runtime.nn.container import ModuleList, Sequential
from opgrad.runtime.nn.conv import AdaptiveAvgPool2d, AvgPool2d, Conv2d, MaxPool2d
from opgrad.runtime.nn.layers import (
    GELU,
    Dropout,
    Embedding,
    Flatten,
    Identity,
    LeakyReLU,
    Linear,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Tanh,
)
from opgrad.runtime.nn.module import IncompatibleKeys, Module, load, save
from opgrad.runtime.nn.normalization import BatchNorm2d, GroupNorm, LayerNorm
from opgrad.runtime.nn.parameter import Parameter

__all__ = [
    "GELU",
    "AdaptiveAvgPool2d",
    "AvgPool2d",
    "BatchNorm2d",
    "Conv2d",
    "Dropout",
    "Embedding",
    "Flatten",
    "GroupNorm",
    "Identity",
    "IncompatibleKeys",
    "LayerNorm",
    "LeakyReLU",
    "Linear",
    "MaxPool2d",
    "Module",
    "ModuleList",
    "MultiHeadAttention",
    "Parameter",
    "ReLU",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Tanh",
    "functional",
    "init",
    "load",
    "parallel",
    "save",
    "utils",
]
