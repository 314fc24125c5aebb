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
from opgrad.runtime.nn.container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from opgrad.runtime.nn.conv import (
    AdaptiveAvgPool2d,
    AvgPool2d,
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    MaxPool2d,
)
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
    Unflatten,
)
from opgrad.runtime.nn.loss import (
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from opgrad.runtime.nn.module import IncompatibleKeys, Module, load, save
from opgrad.runtime.nn.normalization import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm
from opgrad.runtime.nn.parameter import Parameter
from opgrad.runtime.nn.pooling1d import AdaptiveAvgPool1d, AvgPool1d, MaxPool1d
from opgrad.runtime.nn.recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell
from opgrad.runtime.nn.resampling import (
    Fold,
    PixelShuffle,
    PixelUnshuffle,
    Unfold,
    Upsample,
    UpsamplingBilinear2d,
    UpsamplingNearest2d,
)
from opgrad.runtime.nn.transformer import TransformerEncoder, TransformerEncoderLayer

__all__ = [
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AvgPool1d",
    "AvgPool2d",
    "BCEWithLogitsLoss",
    "BatchNorm1d",
    "BatchNorm2d",
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "Flatten",
    "Fold",
    "GELU",
    "GRU",
    "GRUCell",
    "GroupNorm",
    "Identity",
    "IncompatibleKeys",
    "KLDivLoss",
    "L1Loss",
    "LSTM",
    "LSTMCell",
    "LayerNorm",
    "LeakyReLU",
    "Linear",
    "MSELoss",
    "MaxPool1d",
    "MaxPool2d",
    "Module",
    "ModuleDict",
    "ModuleList",
    "MultiHeadAttention",
    "NLLLoss",
    "Parameter",
    "ParameterDict",
    "ParameterList",
    "PixelShuffle",
    "PixelUnshuffle",
    "RNN",
    "RNNBase",
    "RNNCell",
    "ReLU",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "SmoothL1Loss",
    "Softmax",
    "Tanh",
    "TransformerEncoder",
    "TransformerEncoderLayer",
    "Unflatten",
    "Unfold",
    "Upsample",
    "UpsamplingBilinear2d",
    "UpsamplingNearest2d",
    "functional",
    "init",
    "load",
    "parallel",
    "save",
    "utils",
]
